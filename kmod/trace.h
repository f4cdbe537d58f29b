/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx tracepoints, system "isgx".  Every event carries the system's name
 * as a prefix, as mm_vmscan_* do, so that perf names it isgx:isgx_NAME.
 * The begin/end pairs and the free-page events share event classes; events
 * whose fields mean different things stay apart.  Their fields are ABI
 * for the benchmark tree (perf stat -e 'isgx:*', perf script): add, never
 * rename.  stats.c is the one file that defines CREATE_TRACE_POINTS.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM isgx

#if !defined(_ISGX_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _ISGX_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(isgx_fault_class,
	TP_PROTO(unsigned long addr, unsigned int flags),
	TP_ARGS(addr, flags),
	TP_STRUCT__entry(
		__field(unsigned long, addr)
		__field(unsigned int, flags)
	),
	TP_fast_assign(
		__entry->addr = addr;
		__entry->flags = flags;
	),
	TP_printk("addr=%#lx flags=%#x", __entry->addr, __entry->flags)
);

/* A fault on an enclave mapping starts; flags are the vm_fault flags. */
DEFINE_EVENT(isgx_fault_class, isgx_fault_begin,
	TP_PROTO(unsigned long addr, unsigned int flags),
	TP_ARGS(addr, flags));

/* The fault ends; flags are the vm_fault_t result. */
DEFINE_EVENT(isgx_fault_class, isgx_fault_end,
	TP_PROTO(unsigned long addr, unsigned int flags),
	TP_ARGS(addr, flags));

/* ELDU of one page: its address and the leaf's result. */
TRACE_EVENT(isgx_eldu,
	TP_PROTO(unsigned long addr, int ret),
	TP_ARGS(addr, ret),
	TP_STRUCT__entry(
		__field(unsigned long, addr)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->addr = addr;
		__entry->ret = ret;
	),
	TP_printk("addr=%#lx ret=%#x", __entry->addr, __entry->ret)
);

/* ETRACK on an enclave: its base and the leaf's result. */
TRACE_EVENT(isgx_etrack,
	TP_PROTO(unsigned long base, int ret),
	TP_ARGS(base, ret),
	TP_STRUCT__entry(
		__field(unsigned long, base)
		__field(int, ret)
	),
	TP_fast_assign(
		__entry->base = base;
		__entry->ret = ret;
	),
	TP_printk("base=%#lx ret=%#x", __entry->base, __entry->ret)
);

/* EWB of one page: result and the retry rung it was on (0 = first try). */
TRACE_EVENT(isgx_ewb,
	TP_PROTO(unsigned long addr, int ret, unsigned int rung),
	TP_ARGS(addr, ret, rung),
	TP_STRUCT__entry(
		__field(unsigned long, addr)
		__field(int, ret)
		__field(unsigned int, rung)
	),
	TP_fast_assign(
		__entry->addr = addr;
		__entry->ret = ret;
		__entry->rung = rung;
	),
	TP_printk("addr=%#lx ret=%#x rung=%u", __entry->addr, __entry->ret, __entry->rung)
);

/* A kick IPI round for an enclave: how many CPUs were interrupted. */
TRACE_EVENT(isgx_ipi,
	TP_PROTO(unsigned long base, unsigned int nr_cpus),
	TP_ARGS(base, nr_cpus),
	TP_STRUCT__entry(
		__field(unsigned long, base)
		__field(unsigned int, nr_cpus)
	),
	TP_fast_assign(
		__entry->base = base;
		__entry->nr_cpus = nr_cpus;
	),
	TP_printk("base=%#lx nr_cpus=%u", __entry->base, __entry->nr_cpus)
);

/* The two ends of a reclaim pass count different things: two events. */
TRACE_EVENT(isgx_reclaim_begin,
	TP_PROTO(unsigned long nr_to_scan, unsigned long nr_free),
	TP_ARGS(nr_to_scan, nr_free),
	TP_STRUCT__entry(
		__field(unsigned long, nr_to_scan)
		__field(unsigned long, nr_free)
	),
	TP_fast_assign(
		__entry->nr_to_scan = nr_to_scan;
		__entry->nr_free = nr_free;
	),
	TP_printk("nr_to_scan=%lu nr_free=%lu", __entry->nr_to_scan, __entry->nr_free)
);

TRACE_EVENT(isgx_reclaim_end,
	TP_PROTO(unsigned long nr_scanned, unsigned long nr_reclaimed),
	TP_ARGS(nr_scanned, nr_reclaimed),
	TP_STRUCT__entry(
		__field(unsigned long, nr_scanned)
		__field(unsigned long, nr_reclaimed)
	),
	TP_fast_assign(
		__entry->nr_scanned = nr_scanned;
		__entry->nr_reclaimed = nr_reclaimed;
	),
	TP_printk("nr_scanned=%lu nr_reclaimed=%lu", __entry->nr_scanned,
		  __entry->nr_reclaimed)
);

DECLARE_EVENT_CLASS(isgx_swapd_class,
	TP_PROTO(unsigned long nr_free),
	TP_ARGS(nr_free),
	TP_STRUCT__entry(
		__field(unsigned long, nr_free)
	),
	TP_fast_assign(
		__entry->nr_free = nr_free;
	),
	TP_printk("nr_free=%lu", __entry->nr_free)
);

DEFINE_EVENT(isgx_swapd_class, isgx_swapd_wake,
	TP_PROTO(unsigned long nr_free),
	TP_ARGS(nr_free));

DEFINE_EVENT(isgx_swapd_class, isgx_swapd_sleep,
	TP_PROTO(unsigned long nr_free),
	TP_ARGS(nr_free));

/* An allocation found no free EPC page and reclaims directly. */
DEFINE_EVENT(isgx_swapd_class, isgx_alloc_stall,
	TP_PROTO(unsigned long nr_free),
	TP_ARGS(nr_free));

#endif /* _ISGX_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
