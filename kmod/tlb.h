/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: the two pieces of x86 TLB state the pager's batched flush needs.
 *
 * <asm/tlbflush.h> shows them only to built-in code (#ifndef MODULE),
 * although cpu_tlbstate_shared is exported and mm_context_t.tlb_gen is
 * visible to everybody.  The pager flushes like the core's batched unmap
 * (arch_tlbbatch_add_mm() then arch_tlbbatch_flush()): move the mm's TLB
 * generation, then IPI the CPUs in mm_cpumask() that are not lazy.
 *
 * The struct below mirrors arch/x86/include/asm/tlbflush.h, checked
 * identical (one bool) in Debian's 6.1 and 6.12 headers, where it is
 * still behind #ifndef MODULE while cpu_tlbstate_shared stays exported
 * (EXPORT_SYMBOL, Module.symvers of both).  Both kernels still skip lazy
 * CPUs in native_flush_tlb_multi() and make a lazy CPU compare tlb_gen
 * when it returns to the mm.  Any other kernel is refused at build time
 * until someone has compared the header again; a kernel whose header
 * shows the struct to modules makes the copy a compile error, which is
 * the signal to drop this file.
 */
#ifndef _ISGX_TLB_H
#define _ISGX_TLB_H

#include <linux/mm_types.h>
#include <linux/percpu.h>
#include <asm/tlbflush.h>

#include "compat.h"

#if !ISGX_TLB_MIRROR_CHECKED
#error "isgx: the copy of struct tlb_state_shared was checked against Linux 6.1 and 6.12 only; compare it with this kernel's arch/x86/include/asm/tlbflush.h, then add the version to ISGX_TLB_MIRROR_CHECKED"
#endif

/* As in Linux 6.1 and 6.12 arch/x86/include/asm/tlbflush.h. */
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
