/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: debugfs counters and the fault-latency histogram. */
#ifndef _ISGX_STATS_H
#define _ISGX_STATS_H

#include <linux/atomic.h>

/* Fault-latency histogram: bucket i counts faults of < 2^(i + 10) ns. */
#define ISGX_HIST_BUCKETS	24

/**
 * struct isgx_stats - counters, each explained where debugfs names it
 * (stats.c); all atomic, updated without locks
 */
struct isgx_stats {
	atomic64_t nr_faults;
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
	atomic64_t nr_alloc_stalls;
	atomic64_t nr_fault_around;
	atomic64_t nr_secs_evicted;
	atomic64_t nr_secs_loaded;
	atomic64_t nr_va_evicted;
	atomic64_t nr_va_loaded;
	atomic64_t fault_hist[ISGX_HIST_BUCKETS];
};

extern struct isgx_stats isgx_stats;

#define isgx_stat_inc(name)		atomic64_inc(&isgx_stats.name)
#define isgx_stat_add(name, n)		atomic64_add((n), &isgx_stats.name)

void isgx_stats_fault_latency(u64 ns);
void isgx_stats_init(void);
void isgx_stats_exit(void);

#endif /* _ISGX_STATS_H */
