// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: debugfs counters under /sys/kernel/debug/isgx/ (root only), the
 * fault-latency histogram, and the one definition of the tracepoints.
 */
#include <linux/debugfs.h>
#include <linux/log2.h>
#include <linux/seq_file.h>

#include "encl.h"
#include "epc.h"
#include "proc.h"
#include "stats.h"
#include "va.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

struct isgx_stats isgx_stats;
static struct dentry *isgx_debugfs;

/* Gauges: read from their owners. */
static int isgx_nr_free_get(void *data, u64 *val)
{
	*val = isgx_epc_nr_free();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(isgx_nr_free_fops, isgx_nr_free_get, NULL, "%llu\n");

static int isgx_nr_total_get(void *data, u64 *val)
{
	*val = isgx_epc_nr_total();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(isgx_nr_total_fops, isgx_nr_total_get, NULL, "%llu\n");

static int isgx_nr_enclaves_get(void *data, u64 *val)
{
	*val = isgx_encl_nr_enclaves();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(isgx_nr_enclaves_fops, isgx_nr_enclaves_get, NULL, "%llu\n");

static int isgx_nr_va_pages_get(void *data, u64 *val)
{
	*val = isgx_va_nr_pages();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(isgx_nr_va_pages_fops, isgx_nr_va_pages_get, NULL, "%llu\n");

static int isgx_counter_get(void *data, u64 *val)
{
	*val = atomic64_read(data);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(isgx_counter_fops, isgx_counter_get, NULL, "%llu\n");

/**
 * isgx_stats_fault_latency() - count one fault of @ns nanoseconds
 * @ns:		the fault's duration
 *
 * The bucket comes from the value's top four bits: the position of the
 * highest one (fls64) picks the power of two, the three bits below it the
 * eighth of it (see ISGX_HIST_BUCKETS).
 *
 * Context: any.
 */
void isgx_stats_fault_latency(u64 ns)
{
	unsigned int e, b;

	if (ns < BIT_ULL(ISGX_HIST_MIN_SHIFT)) {
		b = 0;
	} else if (ns >= BIT_ULL(ISGX_HIST_MAX_SHIFT)) {
		b = ISGX_HIST_BUCKETS - 1;
	} else {
		e = fls64(ns) - 1;
		b = ((e - ISGX_HIST_MIN_SHIFT) << ISGX_HIST_SUB_SHIFT) +
		    ((ns >> (e - ISGX_HIST_SUB_SHIFT)) & (ISGX_HIST_SUB - 1));
	}
	atomic64_inc(&isgx_stats.fault_hist[b]);
}

/**
 * isgx_stats_reclaim_pass() - add the phase times of one reclaim pass
 * @ns:		nanoseconds per phase, indexed by enum isgx_reclaim_phase
 * @total:	nanoseconds of the whole pass
 *
 * A pass adds its times once, at its end: one atomic per phase per pass,
 * not per page.
 *
 * Context: any.
 */
void isgx_stats_reclaim_pass(const u64 *ns, u64 total)
{
	unsigned int i;

	for (i = 0; i < ISGX_RECLAIM_NR_PHASES; i++)
		atomic64_add(ns[i], &isgx_stats.ns_reclaim[i]);
	atomic64_add(total, &isgx_stats.ns_reclaim_total);
}

/**
 * isgx_stats_lru_lock_held() - count one hold of isgx_pager.lock
 * @ns:		how long it was held
 *
 * Only holders of the lock write these three counters, so a plain read
 * and set is enough (and cheaper than a locked add inside the critical
 * section); readers see each one whole.
 *
 * Context: isgx_pager.lock held.
 */
void isgx_stats_lru_lock_held(u64 ns)
{
	atomic64_set(&isgx_stats.nr_lru_lock_holds,
		     atomic64_read(&isgx_stats.nr_lru_lock_holds) + 1);
	atomic64_set(&isgx_stats.ns_lru_lock_held,
		     atomic64_read(&isgx_stats.ns_lru_lock_held) + ns);
	if (ns > atomic64_read(&isgx_stats.ns_lru_lock_max))
		atomic64_set(&isgx_stats.ns_lru_lock_max, ns);
}

/* The exclusive upper bound of bucket @i, in ns. */
static u64 isgx_hist_bound(unsigned int i)
{
	unsigned int e = ISGX_HIST_MIN_SHIFT + i / ISGX_HIST_SUB;

	return (u64)(ISGX_HIST_SUB + i % ISGX_HIST_SUB + 1) << (e - ISGX_HIST_SUB_SHIFT);
}

/* fault_latency: one line per bucket, "lt_ns=<upper bound> count=<n>". */
static int isgx_fault_hist_show(struct seq_file *m, void *v)
{
	unsigned int i;

	for (i = 0; i < ISGX_HIST_BUCKETS; i++)
		seq_printf(m, "lt_ns=%llu count=%lld\n", isgx_hist_bound(i),
			   atomic64_read(&isgx_stats.fault_hist[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(isgx_fault_hist);

static const struct {
	const char *name;
	atomic64_t *counter;
} isgx_counters[] = {
	/*
	 * Faults on enclave mappings, a retried fault once (its last
	 * attempt; each attempt before it is one nr_fault_retries).
	 */
	{ "nr_faults", &isgx_stats.nr_faults },
	/* Fault attempts that returned VM_FAULT_RETRY (no free EPC: wait, then again). */
	{ "nr_fault_retries", &isgx_stats.nr_fault_retries },
	/* Faults that got SIGBUS because no EPC page came within fault_stall_ms. */
	{ "nr_fault_stalled", &isgx_stats.nr_fault_stalled },
	/* kisgxswapd rounds that found nothing evictable (then it sleeps). */
	{ "nr_swapd_stuck", &isgx_stats.nr_swapd_stuck },
	/* Evicted pages brought back (ELDU succeeded). */
	{ "nr_loaded", &isgx_stats.nr_loaded },
	/* ELDU refused a sealed copy or faulted. */
	{ "nr_eldu_failed", &isgx_stats.nr_eldu_failed },
	/* Pages evicted (EWB succeeded). */
	{ "nr_evicted", &isgx_stats.nr_evicted },
	/* EWB answers SGX_NOT_TRACKED (each climbs one rung of the ladder). */
	{ "nr_ewb_not_tracked", &isgx_stats.nr_ewb_not_tracked },
	/* EWB failures after the ladder: the page stayed resident. */
	{ "nr_ewb_failed", &isgx_stats.nr_ewb_failed },
	/* ETRACKs issued. */
	{ "nr_etrack", &isgx_stats.nr_etrack },
	/* Kick rounds that interrupted at least one CPU. */
	{ "nr_ipi_rounds", &isgx_stats.nr_ipi_rounds },
	/* CPUs interrupted by kick rounds, in total. */
	{ "nr_ipi_cpus", &isgx_stats.nr_ipi_cpus },
	/* Reclaim passes (kisgxswapd and direct). */
	{ "nr_reclaim_passes", &isgx_stats.nr_reclaim_passes },
	/* Pages looked at by reclaim passes. */
	{ "nr_scanned", &isgx_stats.nr_scanned },
	/* Pages spared because their young bit was set. */
	{ "nr_second_chance", &isgx_stats.nr_second_chance },
	/*
	 * Victims whose backing pages could not be read in (the memory
	 * cgroup of the enclave's creator at its limit, say): left resident,
	 * unblocked.
	 */
	{ "nr_backing_failed", &isgx_stats.nr_backing_failed },
	/*
	 * Faults on a resident page that the EPCM says is BLOCKED, failed
	 * with SIGSEGV as the access would fail on a CPU (emu backend; only a
	 * pager bug leaves a page blocked outside an eviction).
	 */
	{ "nr_blocked_access", &isgx_stats.nr_blocked_access },
	/*
	 * Refaults (an evicted page made resident again) by the policy's
	 * verdict (lru.c): in their test period with room on the cold list
	 * (hot under policy=default), in it without room, evicted too long
	 * ago.  Counted under every policy.
	 */
	{ "nr_refault_hot", &isgx_stats.nr_refault_hot },
	{ "nr_refault_no_room", &isgx_stats.nr_refault_no_room },
	{ "nr_refault_far", &isgx_stats.nr_refault_far },
	/* Hot pages the hot hand found unused and moved to the cold list. */
	{ "nr_demoted", &isgx_stats.nr_demoted },
	/* Hot pages the hot hand passed over (demoted or kept). */
	{ "nr_aged", &isgx_stats.nr_aged },
	/* Victims a pass took from the hot list: the cold list had too few. */
	{ "nr_victims_hot", &isgx_stats.nr_victims_hot },
	/*
	 * Victims kisgxswapd's passes took beyond their batch, from the cold
	 * list, in place of victims the young check spared.
	 */
	{ "nr_fill_victims", &isgx_stats.nr_fill_victims },
	/*
	 * Pages kisgxswapd's passes evicted, and their ETRACK rounds (one per
	 * enclave with a blocked victim per pass, and one per SGX_NOT_TRACKED
	 * retry; an ETRACK repeated after SGX_PREV_TRK_INCMPL counts in
	 * nr_etrack only): their ratio is the batch an ETRACK paid for,
	 * faults' and ioctls' own passes left out.
	 */
	{ "nr_swapd_evicted", &isgx_stats.nr_swapd_evicted },
	{ "nr_swapd_tracks", &isgx_stats.nr_swapd_tracks },
	/* Allocations that reclaimed directly: no page was free, or fewer than min_mark. */
	{ "nr_alloc_stalls", &isgx_stats.nr_alloc_stalls },
	/* Evicted neighbours loaded with a sequential fault's page. */
	{ "nr_fault_around", &isgx_stats.nr_fault_around },
	/*
	 * Waits of faults (and debugger accesses) that found their page
	 * blocked for eviction and slept until its EWB was recorded or
	 * given up (a fault retried, or a page blocked again, counts
	 * again): the policy chose a page about to be used, or a batch
	 * kept it blocked long.  ns_ewb_wait is those sleeps (ktime),
	 * without taking encl->lock again afterwards.
	 */
	{ "nr_ewb_waits", &isgx_stats.nr_ewb_waits },
	{ "ns_ewb_wait", &isgx_stats.ns_ewb_wait },
	/* SECS pages evicted after the last page of their enclave. */
	{ "nr_secs_evicted", &isgx_stats.nr_secs_evicted },
	/* Evicted SECS pages loaded again for a fault or a debugger. */
	{ "nr_secs_loaded", &isgx_stats.nr_secs_loaded },
	/* Full VA pages evicted (more than va_max_pages were resident). */
	{ "nr_va_evicted", &isgx_stats.nr_va_evicted },
	/* Evicted VA pages loaded again for an ELDU. */
	{ "nr_va_loaded", &isgx_stats.nr_va_loaded },
	/*
	 * Nanoseconds (ktime_get_ns()) in the phases of reclaim passes,
	 * summed over every pass (kisgxswapd, direct, a process's own at its
	 * limit).  The phases do not overlap; ns_reclaim_total minus their
	 * sum is the rest (the victim array, dropping enclave references: a
	 * last reference frees the enclave).  A pass that a VA page
	 * allocation of another pass starts is counted in its own figures and
	 * in the other's ns_reclaim_ewb and ns_reclaim_total.
	 *
	 * Taking victims off the LRU lists under isgx_pager.lock (and
	 * sorting them by enclave), and putting those not evicted back.
	 */
	{ "ns_reclaim_isolate", &isgx_stats.ns_reclaim[ISGX_RECLAIM_ISOLATE] },
	/* Aging the active list: isolate, young-bit harvest, put back. */
	{ "ns_reclaim_age", &isgx_stats.ns_reclaim[ISGX_RECLAIM_AGE] },
	/* Taking the mm's mmap_lock, young check, PTE zap, EBLOCK. */
	{ "ns_reclaim_block", &isgx_stats.ns_reclaim[ISGX_RECLAIM_BLOCK] },
	/* ETRACK and the IPI round, the first of a batch and the ladder's. */
	{ "ns_reclaim_track", &isgx_stats.ns_reclaim[ISGX_RECLAIM_TRACK] },
	/* Reading the victims' shmem backing and PCMD pages in. */
	{ "ns_reclaim_backing", &isgx_stats.ns_reclaim[ISGX_RECLAIM_BACKING] },
	/* VA slots and the EWBs (with a SECS's EWB and its backing). */
	{ "ns_reclaim_ewb", &isgx_stats.ns_reclaim[ISGX_RECLAIM_EWB] },
	/* Waiting for an encl->lock that another thread held (a trylock failed). */
	{ "ns_reclaim_wait", &isgx_stats.ns_reclaim[ISGX_RECLAIM_WAIT] },
	/* Whole reclaim passes, from start to end. */
	{ "ns_reclaim_total", &isgx_stats.ns_reclaim_total },
	/* Holds of isgx_pager.lock (the LRU lock), every one of them. */
	{ "nr_lru_lock_holds", &isgx_stats.nr_lru_lock_holds },
	/* Nanoseconds isgx_pager.lock was held, summed over its holds. */
	{ "ns_lru_lock_held", &isgx_stats.ns_lru_lock_held },
	/* The longest single hold of isgx_pager.lock, in nanoseconds. */
	{ "ns_lru_lock_max", &isgx_stats.ns_lru_lock_max },
};

/**
 * isgx_stats_init() - create the debugfs folder and its counters
 *
 * debugfs is optional: a failure here is not a load failure.  Everything
 * is mode 0400: no kernel address is printed, but the counters tell about
 * other users' enclaves.
 *
 * Context: module init.
 */
void isgx_stats_init(void)
{
	unsigned int i;

	isgx_debugfs = debugfs_create_dir("isgx", NULL);
	/* EPC pages on the free list now. */
	debugfs_create_file_unsafe("nr_free_pages", 0400, isgx_debugfs, NULL,
				   &isgx_nr_free_fops);
	/* EPC pages in all sections. */
	debugfs_create_file_unsafe("nr_total_pages", 0400, isgx_debugfs, NULL,
				   &isgx_nr_total_fops);
	/* Enclaves alive (created and not yet released). */
	debugfs_create_file_unsafe("nr_enclaves", 0400, isgx_debugfs, NULL,
				   &isgx_nr_enclaves_fops);
	/* VA pages in the pool. */
	debugfs_create_file_unsafe("nr_va_pages", 0400, isgx_debugfs, NULL,
				   &isgx_nr_va_pages_fops);
	for (i = 0; i < ARRAY_SIZE(isgx_counters); i++)
		debugfs_create_file_unsafe(isgx_counters[i].name, 0400, isgx_debugfs,
					   isgx_counters[i].counter, &isgx_counter_fops);
	isgx_proc_debugfs_init(isgx_debugfs);
	debugfs_create_file("fault_latency", 0400, isgx_debugfs, NULL,
			    &isgx_fault_hist_fops);
}

/**
 * isgx_stats_exit() - remove the debugfs folder
 *
 * Context: module exit.
 */
void isgx_stats_exit(void)
{
	debugfs_remove_recursive(isgx_debugfs);
}
