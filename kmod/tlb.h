/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: the two pieces of x86 TLB state the pager's batched flush needs.
 *
 * <asm/tlbflush.h> shows them only to built-in code (#ifndef MODULE),
 * although cpu_tlbstate_shared is exported and mm_context_t.tlb_gen is
 * visible to everybody.  The pager flushes like the core's batched unmap
 * (arch_tlbbatch_add_mm() then arch_tlbbatch_flush()): move the mm's TLB
 * generation, then IPI the CPUs in mm_cpumask() that are not lazy.  These
 * mirror the Linux 6.1 definitions (the only kernel this module is built
 * for); a kernel whose header shows them to modules makes the struct
 * below a compile error, which is the signal to drop this file.
 */
#ifndef _ISGX_TLB_H
#define _ISGX_TLB_H

#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <asm/tlbflush.h>

/* As in Linux 6.1 arch/x86/include/asm/tlbflush.h. */
struct tlb_state_shared {
	bool is_lazy;
};
DECLARE_PER_CPU_SHARED_ALIGNED(struct tlb_state_shared, cpu_tlbstate_shared);

/**
 * isgx_cpu_tlb_lazy() - is @cpu in lazy TLB mode
 * @cpu:	a CPU
 *
 * Lazy: it runs a kernel thread or idles with a user mm still loaded; it
 * compares that mm's TLB generation with its own before it uses the mm
 * again (switch_mm_irqs_off()).
 *
 * Context: any; the answer may change at once.
 */
static inline bool isgx_cpu_tlb_lazy(int cpu)
{
	return READ_ONCE(per_cpu(cpu_tlbstate_shared.is_lazy, cpu));
}

/**
 * isgx_mm_tlb_gen_inc() - make every CPU that switches to @mm flush first
 * @mm:		an mm whose PTEs were changed without a flush
 *
 * Also a full barrier: callers read mm_cpumask(@mm) after it, so that a
 * CPU that switches to @mm concurrently either sees the new generation
 * or is seen in the mask.
 *
 * Context: any.
 */
static inline void isgx_mm_tlb_gen_inc(struct mm_struct *mm)
{
	atomic64_inc_return(&mm->context.tlb_gen);
}

#endif /* _ISGX_TLB_H */
