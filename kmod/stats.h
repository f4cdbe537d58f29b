/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: debugfs counters and the fault-latency histogram. */
#ifndef _ISGX_STATS_H
#define _ISGX_STATS_H

#include <linux/atomic.h>

/*
 * Fault-latency histogram, log-linear: each power of two from 2^9 ns
 * (512 ns) to 2^35 ns (~34 s) is cut into 8 sub-buckets of equal width,
 * so a bucket is at most 1/8 (12.5 %) of its lower bound wide.  Bucket
 * i = 8 * (e - 9) + s counts faults in [(8 + s) << (e - 3),
 * (9 + s) << (e - 3)) ns, e = ilog2 of the value; shorter faults go into
 * the first bucket, longer ones into the last.
 */
#define ISGX_HIST_SUB_SHIFT	3
#define ISGX_HIST_SUB		(1U << ISGX_HIST_SUB_SHIFT)
#define ISGX_HIST_MIN_SHIFT	9
#define ISGX_HIST_MAX_SHIFT	35
#define ISGX_HIST_BUCKETS	((ISGX_HIST_MAX_SHIFT - ISGX_HIST_MIN_SHIFT) * ISGX_HIST_SUB)

/**
 * enum isgx_reclaim_phase - where a reclaim pass spends its time
 * @ISGX_RECLAIM_ISOLATE:	taking victims off the LRU and putting back
 *				those not evicted (isgx_pager.lock)
 * @ISGX_RECLAIM_AGE:		aging the active list (young-bit harvest)
 * @ISGX_RECLAIM_BLOCK:		mmap_lock, young check, PTE zap, EBLOCK
 * @ISGX_RECLAIM_TRACK:		ETRACK and the IPI round, first and ladder
 * @ISGX_RECLAIM_BACKING:	reading the shmem backing and PCMD pages
 * @ISGX_RECLAIM_EWB:		VA slots and the EWBs (a SECS's included)
 * @ISGX_RECLAIM_WAIT:		waiting for a contended encl->lock
 * @ISGX_RECLAIM_NR_PHASES:	the number of phases
 */
enum isgx_reclaim_phase {
	ISGX_RECLAIM_ISOLATE,
	ISGX_RECLAIM_AGE,
	ISGX_RECLAIM_BLOCK,
	ISGX_RECLAIM_TRACK,
	ISGX_RECLAIM_BACKING,
	ISGX_RECLAIM_EWB,
	ISGX_RECLAIM_WAIT,
	ISGX_RECLAIM_NR_PHASES
};

/**
 * struct isgx_stats - counters, each explained where debugfs names it
 * (stats.c); all atomic, updated without locks except the lru_lock ones,
 * which only holders of isgx_pager.lock write
 */
struct isgx_stats {
	atomic64_t nr_faults;
	atomic64_t nr_fault_retries;
	atomic64_t nr_loaded;
	atomic64_t nr_eldu_failed;
	atomic64_t nr_evicted;
	atomic64_t nr_ewb_not_tracked;
	atomic64_t nr_ewb_failed;
	atomic64_t nr_etrack;
	atomic64_t nr_ipi_rounds;
	atomic64_t nr_ipi_cpus;
	atomic64_t nr_reclaim_passes;
	atomic64_t nr_scanned;
	atomic64_t nr_second_chance;
	atomic64_t nr_backing_failed;
	atomic64_t nr_blocked_access;
	atomic64_t nr_refault_hot;
	atomic64_t nr_refault_no_room;
	atomic64_t nr_refault_far;
	atomic64_t nr_demoted;
	atomic64_t nr_aged;
	atomic64_t nr_victims_hot;
	atomic64_t nr_fill_victims;
	atomic64_t nr_swapd_evicted;
	atomic64_t nr_swapd_tracks;
	atomic64_t nr_alloc_stalls;
	atomic64_t nr_swapd_stuck;
	atomic64_t nr_fault_stalled;
	atomic64_t nr_fault_around;
	atomic64_t nr_ewb_waits;
	atomic64_t ns_ewb_wait;
	atomic64_t nr_secs_evicted;
	atomic64_t nr_secs_loaded;
	atomic64_t nr_va_evicted;
	atomic64_t nr_va_loaded;
	atomic64_t ns_reclaim[ISGX_RECLAIM_NR_PHASES];
	atomic64_t ns_reclaim_total;
	atomic64_t nr_lru_lock_holds;
	atomic64_t ns_lru_lock_held;
	atomic64_t ns_lru_lock_max;
	atomic64_t fault_hist[ISGX_HIST_BUCKETS];
};

extern struct isgx_stats isgx_stats;

#define isgx_stat_inc(name)		atomic64_inc(&isgx_stats.name)
#define isgx_stat_add(name, n)		atomic64_add((n), &isgx_stats.name)

void isgx_stats_fault_latency(u64 ns);
void isgx_stats_reclaim_pass(const u64 *ns, u64 total);
void isgx_stats_lru_lock_held(u64 ns);
void isgx_stats_init(void);
void isgx_stats_exit(void);

#endif /* _ISGX_STATS_H */
