/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: what differs between the kernels the module is built for.
 *
 * The module is built and tested against Debian's two kernels: 6.1
 * (bookworm) and 6.12 (bookworm-backports, trixie).  Everything that
 * differs between them lives here, so that the rest of the module reads
 * like code for one kernel:
 *
 *   6.2   device_type.devnode() takes a const struct device.
 *   6.3   vma->vm_flags is read-only; vm_flags_set() changes it.
 *   6.4   class_create() lost its owner argument.
 *   6.4   page faults may run under the VMA's own lock instead of
 *         mmap_lock (FAULT_FLAG_VMA_LOCK; file VMAs since 6.7); see
 *         isgx_fault_needs_mmap_lock().
 *   6.4   MAX_ORDER became the largest order (it was one past it); 6.8
 *         renamed it MAX_PAGE_ORDER: ISGX_MAX_PAGE_ORDER is the largest.
 *   6.10  mm->get_unmapped_area is gone; mm_get_unmapped_area() does it.
 *   6.12  <asm/unaligned.h> moved to <linux/unaligned.h>.
 *
 * tlb.h mirrors a definition that <asm/tlbflush.h> hides from modules;
 * it refuses a kernel whose copy was not checked (ISGX_TLB_MIRROR_CHECKED).
 *
 * The version tests live in this file only (scripts/lint lets checkpatch
 * pass LINUX_VERSION_CODE here and nowhere else).
 */
#ifndef _ISGX_COMPAT_H
#define _ISGX_COMPAT_H

#include <linux/device.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/version.h>

/* The kernels whose struct tlb_state_shared tlb.h's copy was compared with. */
#define ISGX_KERNEL_SERIES(major, minor)				\
	(LINUX_VERSION_CODE >= KERNEL_VERSION(major, minor, 0) &&	\
	 LINUX_VERSION_CODE < KERNEL_VERSION(major, (minor) + 1, 0))
#define ISGX_TLB_MIRROR_CHECKED						\
	(ISGX_KERNEL_SERIES(6, 1) || ISGX_KERNEL_SERIES(6, 12))

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ISGX_DEVNODE_CONST const
#else
#define ISGX_DEVNODE_CONST
#endif

#if defined(MAX_PAGE_ORDER)
#define ISGX_MAX_PAGE_ORDER	MAX_PAGE_ORDER
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
#define ISGX_MAX_PAGE_ORDER	MAX_ORDER
#else
#define ISGX_MAX_PAGE_ORDER	(MAX_ORDER - 1)
#endif

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}
#endif

/**
 * isgx_class_create() - class_create() on either side of 6.4
 * @name:	the class name
 *
 * Return: the class, or an ERR_PTR() as class_create() returns.
 */
static inline struct class *isgx_class_create(const char *name)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	return class_create(name);
#else
	return class_create(THIS_MODULE, name);
#endif
}

/**
 * isgx_mm_get_unmapped_area() - the mm's own allocator, as mmap() uses it
 * @file:	the file being mapped
 * @addr:	hint
 * @len:	length
 * @pgoff:	file offset
 * @flags:	mmap flags
 *
 * Context: process context, for current->mm.
 * Return: the address, or a negative errno as an unsigned long.
 */
static inline unsigned long isgx_mm_get_unmapped_area(struct file *file,
						      unsigned long addr,
						      unsigned long len,
						      unsigned long pgoff,
						      unsigned long flags)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
	return mm_get_unmapped_area(current->mm, file, addr, len, pgoff, flags);
#else
	return current->mm->get_unmapped_area(file, addr, len, pgoff, flags);
#endif
}

/**
 * isgx_fault_needs_mmap_lock() - send a per-VMA-lock fault back for mmap_lock
 * @vmf:	the fault
 *
 * The fault path relies on mmap_lock: a fault that sleeps for free EPC
 * drops it (and returns VM_FAULT_RETRY), reclaim try-locks it to zap an
 * enclave's PTEs, and the enclave's VMA list is walked under it.  Since
 * 6.4 the arch fault handler first tries the fault under the VMA's own
 * read lock, without mmap_lock.  6.12's core does not call ->fault() that
 * way for a VMA whose vm_ops have no ->map_pages() (vmf_can_call_fault()),
 * which is the case here; this check states the assumption in the driver
 * rather than leaving it to that detail: such a fault drops the VMA lock
 * and is retried by the arch code under mmap_lock.
 *
 * Context: ->fault() of an isgx VMA.
 * Return: true when the fault was refused (return VM_FAULT_RETRY; the VMA
 * lock is released), false when mmap_lock is held and the fault goes on.
 */
static inline bool isgx_fault_needs_mmap_lock(struct vm_fault *vmf)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 4, 0)
	if (vmf->flags & FAULT_FLAG_VMA_LOCK) {
		release_fault_lock(vmf);
		return true;
	}
#endif
	mmap_assert_locked(vmf->vma->vm_mm);
	return false;
}

#endif /* _ISGX_COMPAT_H */
