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
 * Context: any.
 */
void isgx_stats_fault_latency(u64 ns)
{
	unsigned int b = ns < 1024 ? 0 : ilog2(ns) - 9;

	atomic64_inc(&isgx_stats.fault_hist[min(b, ISGX_HIST_BUCKETS - 1U)]);
}

/* fault_latency: one line per bucket, "lt_ns=<upper bound> count=<n>". */
static int isgx_fault_hist_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ISGX_HIST_BUCKETS; i++)
		seq_printf(m, "lt_ns=%llu count=%lld\n", 1ULL << (i + 10),
			   atomic64_read(&isgx_stats.fault_hist[i]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(isgx_fault_hist);

static const struct {
	const char *name;
	atomic64_t *counter;
} isgx_counters[] = {
	/* Faults on enclave mappings. */
	{ "nr_faults", &isgx_stats.nr_faults },
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
	/* Allocations that reclaimed directly: no page was free, or fewer than min_mark. */
	{ "nr_alloc_stalls", &isgx_stats.nr_alloc_stalls },
	/* Evicted neighbours loaded with a sequential fault's page. */
	{ "nr_fault_around", &isgx_stats.nr_fault_around },
	/* SECS pages evicted after the last page of their enclave. */
	{ "nr_secs_evicted", &isgx_stats.nr_secs_evicted },
	/* Evicted SECS pages loaded again for a fault or a debugger. */
	{ "nr_secs_loaded", &isgx_stats.nr_secs_loaded },
	/* Full VA pages evicted (more than va_max_pages were resident). */
	{ "nr_va_evicted", &isgx_stats.nr_va_evicted },
	/* Evicted VA pages loaded again for an ELDU. */
	{ "nr_va_loaded", &isgx_stats.nr_va_loaded },
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
