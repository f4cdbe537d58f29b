// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: the enclave object, its pages and its mapping.
 *
 * An enclave lives as long as a VMA maps it.  SGX_IOC_ENCLAVE_CREATE maps
 * the whole ELRANGE itself (as the staging driver did) and attaches the
 * enclave to that VMA; every VMA made from it by a split holds a
 * reference, and the last munmap (or the process's exit, or
 * SGX_IOC_ENCLAVE_DESTROY, which is a munmap) releases every EPC page.
 * The mapping is never copied into a fork child (VM_DONTCOPY): the child
 * has no access at all.
 *
 * Enclave memory is mapped page by page on fault with the permissions the
 * page was added with, intersected with the VMA's, and no path widens a
 * PTE beyond them: a write to a read-only PTE asks ->pfn_mkwrite, a page
 * left with no permission gets no PTE at all (SIGBUS), and mprotect()
 * cannot grant what the EPCM does not.  TCS pages are never mapped: their
 * EPCM permissions are zero, so an enclave could not touch them either.
 * A debugger reaches debug enclaves through ->access, which goes word by
 * word through EDBGRD/EDBGWR as the hardware requires, on pages made
 * resident as for a fault.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "compat.h"
#include "encl.h"
#include "encls.h"
#include "pager.h"
#include "stats.h"
#include "trace.h"

static LIST_HEAD(isgx_encl_list);
static DEFINE_SPINLOCK(isgx_encl_list_lock);
static unsigned long isgx_nr_enclaves;	/* isgx_encl_list_lock */

/**
 * isgx_encl_alloc() - a new, empty enclave of @mm
 * @mm:		the creating process's mm
 *
 * Context: process context.
 * Return: the enclave with one reference, or NULL without memory.
 */
struct isgx_encl *isgx_encl_alloc(struct mm_struct *mm)
{
	struct isgx_encl *encl = kzalloc(sizeof(*encl), GFP_KERNEL);

	if (!encl)
		return NULL;
	encl->proc = isgx_proc_get(mm);
	if (!encl->proc) {
		kfree(encl);
		return NULL;
	}
	kref_init(&encl->refcount);
	mutex_init(&encl->lock);
	init_rwsem(&encl->track_sem);
	xa_init(&encl->pages);
	encl->power_gen = isgx_encls_hw ? 0 : isgx_emu_power_gen();
	/* The backing is the enclave's memory: its creator's group pays. */
	encl->memcg = get_mem_cgroup_from_mm(mm);
	mmgrab(mm);
	encl->mm = mm;
	spin_lock(&isgx_encl_list_lock);
	list_add_tail(&encl->list, &isgx_encl_list);
	isgx_nr_enclaves++;
	spin_unlock(&isgx_encl_list_lock);
	return encl;
}

static void isgx_encl_release(struct kref *ref)
{
	struct isgx_encl *encl = container_of(ref, struct isgx_encl, refcount);
	struct isgx_encl_page *page;
	unsigned long idx;

	spin_lock(&isgx_encl_list_lock);
	list_del(&encl->list);
	isgx_nr_enclaves--;
	spin_unlock(&isgx_encl_list_lock);

	/*
	 * No VMA maps the enclave any more, so no thread can be inside it:
	 * tell the model before EREMOVE, which refuses pages of an enclave
	 * with a thread inside (SGX_ENCLAVE_ACT).
	 */
	if (encl->secs && (encl->flags & ISGX_ENCL_INITIALIZED) && !isgx_encls_hw)
		isgx_emu_encl_del_mm(encl->secs->va, encl->mm);

	/*
	 * Children first: EREMOVE of a SECS with children is refused.  No
	 * reclaim pass holds a page of this enclave (it would hold a
	 * reference), so every resident page is on the LRU.
	 */
	xa_for_each(&encl->pages, idx, page) {
		if (page->epc_page) {
			isgx_pager_untrack(page->epc_page);
			isgx_epc_free(page->epc_page);
		}
		isgx_va_slot_put(&page->va_slot);
		kfree(page);
	}
	xa_destroy(&encl->pages);
	/* Unpinned before its page is free, so that counts never lag. */
	if (encl->flags & ISGX_ENCL_PINNED)
		isgx_proc_unpin(encl->proc);
	/* An evicted SECS needs no EREMOVE: only its version goes. */
	if (encl->secs) {
		isgx_epc_free(encl->secs);
		isgx_proc_charge(encl->proc, -1);
	}
	isgx_va_slot_put(&encl->secs_slot);
	if (encl->backing)
		fput(encl->backing);
	mem_cgroup_put(encl->memcg);
	isgx_proc_put(encl->proc);
	mmdrop(encl->mm);
	kfree(encl);
}

/**
 * isgx_encl_backing_create() - the shmem file that holds evicted pages
 * @encl:	an enclave with its size set
 *
 * Context: process context.
 * Return: 0 or the shmem_file_setup() error.
 */
int isgx_encl_backing_create(struct isgx_encl *encl)
{
	loff_t size = (loff_t)(isgx_encl_secs_backing_index(encl) + 2) << PAGE_SHIFT;
	struct file *backing = shmem_file_setup("isgx-backing", size, VM_NORESERVE);

	if (IS_ERR(backing))
		return PTR_ERR(backing);
	encl->backing = backing;
	return 0;
}

/**
 * isgx_encl_put() - drop a reference; the last one releases the enclave
 * @encl:	the enclave
 *
 * Context: process context, may sleep (EREMOVE); not under encl->lock.
 */
void isgx_encl_put(struct isgx_encl *encl)
{
	kref_put(&encl->refcount, isgx_encl_release);
}

/**
 * isgx_encl_power_lost() - was the EPC lost since the enclave was made
 * @encl:	the enclave
 *
 * Context: any.
 * Return: true when an (emulated) power loss wiped the EPC after create.
 */
bool isgx_encl_power_lost(struct isgx_encl *encl)
{
	return !isgx_encls_hw && encl->power_gen != isgx_emu_power_gen();
}

/**
 * isgx_encl_get() - the enclave of @mm that an ioctl's address names
 * @mm:		the calling process's mm
 * @addr:	the address
 * @by:		ISGX_ENCL_BY_BASE: @addr is the enclave's base, and the first
 *		VMA that ends above it must belong to that enclave, so an
 *		enclave whose first pages were unmapped is still found (INIT,
 *		DESTROY); ISGX_ENCL_BY_PAGE: any address inside a mapped part
 *		of the enclave (ADD_PAGE, as in the staging driver)
 *
 * Context: process context; takes mmap_lock for reading.
 * Return: the enclave with a reference held, or NULL.
 */
struct isgx_encl *isgx_encl_get(struct mm_struct *mm, unsigned long addr,
				enum isgx_encl_lookup by)
{
	struct isgx_encl *encl = NULL;
	struct vm_area_struct *vma;

	mmap_read_lock(mm);
	vma = by == ISGX_ENCL_BY_BASE ? find_vma(mm, addr) : vma_lookup(mm, addr);
	if (vma && vma->vm_ops == &isgx_vm_ops && vma->vm_private_data) {
		encl = vma->vm_private_data;
		if (by == ISGX_ENCL_BY_BASE &&
		    (encl->base != addr || vma->vm_start >= addr + encl->size))
			encl = NULL;
		else
			kref_get(&encl->refcount);
	}
	mmap_read_unlock(mm);
	return encl;
}

/**
 * isgx_encl_attach() - make the VMA at encl->base the enclave's mapping
 * @encl:	the enclave, with base and size set
 * @mm:		the mm that vm_mmap() mapped it in
 *
 * Between vm_mmap() and here another thread may have unmapped or replaced
 * the range, so the VMA is checked to be exactly the fresh, unattached
 * isgx mapping of the whole ELRANGE.
 *
 * Context: process context; takes mmap_lock for writing.
 * Return: 0, or -ENOMEM when the mapping is gone.
 */
int isgx_encl_attach(struct isgx_encl *encl, struct mm_struct *mm)
{
	struct vm_area_struct *vma;
	int ret = -ENOMEM;

	mmap_write_lock(mm);
	vma = vma_lookup(mm, encl->base);
	if (vma && vma->vm_ops == &isgx_vm_ops && !vma->vm_private_data &&
	    vma->vm_start == encl->base && vma->vm_end == encl->base + encl->size) {
		kref_get(&encl->refcount);
		vma->vm_private_data = encl;
		ret = 0;
	}
	mmap_write_unlock(mm);
	return ret;
}

/**
 * isgx_encl_nr_enclaves() - enclaves alive now
 *
 * Context: any.
 * Return: a snapshot of the count.
 */
unsigned long isgx_encl_nr_enclaves(void)
{
	return READ_ONCE(isgx_nr_enclaves);
}

/*
 * Zap every PTE of @encl in its mm, under encl->lock so that a fault that
 * checked the power generation before the loss cannot map a page after
 * the zap.  Lock order as on the fault path: mmap_lock, then encl->lock.
 */
static void isgx_encl_zap(struct isgx_encl *encl)
{
	struct vm_area_struct *vma;
	unsigned long addr;

	if (!mmget_not_zero(encl->mm))
		return;
	mmap_read_lock(encl->mm);
	mutex_lock(&encl->lock);
	for (addr = encl->base; addr < encl->base + encl->size; addr = vma->vm_end) {
		vma = find_vma(encl->mm, addr);
		if (!vma || vma->vm_start >= encl->base + encl->size)
			break;
		if (vma->vm_private_data == encl)
			zap_vma_ptes(vma, vma->vm_start, vma->vm_end - vma->vm_start);
	}
	mutex_unlock(&encl->lock);
	mmap_read_unlock(encl->mm);
	mmput(encl->mm);
}

/**
 * isgx_encl_power_loss() - unmap the pages of every enclave after the EPC
 *	was lost
 *
 * The enclaves stay until their owners destroy or unmap them; their ioctls
 * return SGX_POWER_LOST_ENCLAVE and every access faults with SIGBUS,
 * since the fault path sees the new power generation.
 *
 * Context: process context, may sleep; no isgx locks held.
 */
void isgx_encl_power_loss(void)
{
	struct isgx_encl *encl, *prev = NULL;

	spin_lock(&isgx_encl_list_lock);
	list_for_each_entry(encl, &isgx_encl_list, list) {
		/* Skip enclaves already on their way out. */
		if (!kref_get_unless_zero(&encl->refcount))
			continue;
		spin_unlock(&isgx_encl_list_lock);
		if (prev)
			isgx_encl_put(prev);
		isgx_encl_zap(encl);
		prev = encl;
		spin_lock(&isgx_encl_list_lock);
	}
	spin_unlock(&isgx_encl_list_lock);
	if (prev)
		isgx_encl_put(prev);
}

static void isgx_vma_open(struct vm_area_struct *vma)
{
	struct isgx_encl *encl = vma->vm_private_data;

	/* A split: the new VMA holds its own reference. */
	if (encl)
		kref_get(&encl->refcount);
}

static void isgx_vma_close(struct vm_area_struct *vma)
{
	struct isgx_encl *encl = vma->vm_private_data;

	if (encl)
		isgx_encl_put(encl);
}

static int isgx_vma_mremap(struct vm_area_struct *vma)
{
	/* Enclave pages are bound to their linear address (EPCM). */
	return -EINVAL;
}

static struct isgx_encl_page *isgx_encl_page_find(struct isgx_encl *encl,
						  unsigned long addr)
{
	if (addr < encl->base || addr - encl->base >= encl->size)
		return NULL;
	return xa_load(&encl->pages, PFN_DOWN(addr - encl->base));
}

static bool isgx_encl_usable(struct isgx_encl *encl)
{
	return (encl->flags & ISGX_ENCL_INITIALIZED) &&
	       !(encl->flags & ISGX_ENCL_DEAD) && !isgx_encl_power_lost(encl);
}

/* An EPC page for a fault (that may be retried) or a debugger access. */
static struct isgx_epc_page *isgx_encl_epc_alloc(void *owner, bool may_retry)
{
	return may_retry ? isgx_epc_alloc_or_wait(owner) : isgx_epc_alloc(owner);
}

/*
 * Bring @page back.  The EPC page is allocated, and the backing read,
 * with encl->lock dropped: allocating may reclaim, the reclaimer takes
 * enclave locks, and backing I/O need not stop the enclave's other
 * faults.  The page may have come back meanwhile through another thread.
 *
 * A fault (@vmf set) that may be retried does not reclaim hard while it
 * holds its mmap_lock: when no page comes quickly it gives the mmap_lock
 * up, sleeps until kisgxswapd frees some (or, at its process's limit,
 * evicts its own), and returns VM_FAULT_RETRY, without encl->lock (and
 * the enclave may be gone by then).
 */
static vm_fault_t isgx_encl_load_locked(struct isgx_encl *encl,
					struct isgx_encl_page *page,
					struct vm_fault *vmf)
{
	bool may_retry = vmf && (vmf->flags & FAULT_FLAG_ALLOW_RETRY);
	bool need_secs = !encl->secs, charged;
	struct isgx_epc_page *epc, *secs = NULL;
	struct isgx_backing b;
	vm_fault_t ret;
	int err;

	mutex_unlock(&encl->lock);
	/* Charged before the page is taken: the limit holds for every thread. */
	err = isgx_pager_charge(encl);
	charged = !err;
	if (err)
		epc = ERR_PTR(err);
	else
		epc = isgx_encl_epc_alloc(page, may_retry);
	if (!IS_ERR(epc) && need_secs) {
		secs = isgx_encl_epc_alloc(encl, may_retry);
		if (IS_ERR(secs)) {
			isgx_epc_release_evicted(epc);
			epc = secs;
			secs = NULL;
		}
	}
	if (IS_ERR(epc) && charged) {
		isgx_proc_charge(encl->proc, -1);
		charged = false;
	}
	/* No retry once the EPC has been stuck too long: SIGBUS below. */
	if (IS_ERR(epc) && may_retry && !isgx_pager_fault_stalled(encl)) {
		if (!(vmf->flags & FAULT_FLAG_RETRY_NOWAIT)) {
			/* Without the mmap_lock only a reference keeps the enclave. */
			kref_get(&encl->refcount);
			mmap_read_unlock(vmf->vma->vm_mm);
			/* Always sleep: the retry must not spin on a stuck limit. */
			if (isgx_pager_make_room(encl) == 0)
				isgx_pager_wait_free();
			else
				schedule_timeout_killable(HZ / 50);
			isgx_encl_put(encl);
		}
		return VM_FAULT_RETRY;
	}
	if (!IS_ERR(epc) && isgx_backing_get(encl, page, &b)) {
		isgx_epc_release_evicted(epc);
		isgx_proc_charge(encl->proc, -1);
		epc = ERR_PTR(-ENOMEM);
	}
	mutex_lock(&encl->lock);
	/* Not VM_FAULT_OOM: the kernel's OOM killer cannot free EPC. */
	if (IS_ERR(epc)) {
		ret = VM_FAULT_SIGBUS;
		goto out_secs;
	}
	/* Loaded by another thread meanwhile, or the enclave is gone. */
	if (page->epc_page || !isgx_encl_usable(encl)) {
		ret = page->epc_page ? 0 : VM_FAULT_SIGBUS;
		goto out_epc;
	}
	/* The SECS first.  Evicted meanwhile, with no page for it: again. */
	if (!encl->secs) {
		err = secs ? isgx_pager_load_secs(encl, secs) : -EAGAIN;
		ret = err == -EAGAIN ? 0 : VM_FAULT_SIGBUS;
		if (err)
			goto out_epc;
		secs = NULL;
	}
	/* -EAGAIN: its VA page is evicted and no page was spare: again. */
	err = isgx_pager_load(encl, page, epc, &b);
	isgx_backing_put(&b, false);
	ret = err == -EAGAIN ? 0 : err ? VM_FAULT_SIGBUS : 0;
	if (err) {
		isgx_epc_free(epc);
		isgx_proc_charge(encl->proc, -1);
	}
	goto out_secs;

out_epc:
	isgx_proc_charge(encl->proc, -1);
	isgx_backing_put(&b, false);
	/* The read may have made the pages again after the other load freed them. */
	isgx_backing_free(encl, page);
	isgx_epc_release_evicted(epc);
out_secs:
	if (secs)
		isgx_epc_release_evicted(secs);
	return ret;
}

static bool isgx_encl_page_is_reg(struct isgx_encl_page *page)
{
	return (page->secinfo & SGX_SECINFO_PT_MASK) == (u64)SGX_PT_REG << SGX_SECINFO_PT_SHIFT;
}

/*
 * The protection of a REG page's PTE: its EPCM permissions within the
 * VMA's.  0 when the fault asks for more than the EPCM gives (then
 * SIGBUS rather than a PTE that would fault again), and 0 when no
 * permission is left: a PROT_NONE PTE would be taken for a NUMA hinting
 * entry by the next access, and do_numa_page() rebuilds it from the
 * VMA's protection, whatever the EPCM says.
 */
static unsigned long isgx_encl_page_vm_flags(struct isgx_encl_page *page,
					     struct vm_area_struct *vma, unsigned int fault_flags)
{
	u64 perm = page->secinfo & SGX_SECINFO_PERM_MASK;
	unsigned long vm_flags = VM_SHARED;

	if (((fault_flags & FAULT_FLAG_WRITE) && !(perm & SGX_SECINFO_W)) ||
	    ((fault_flags & FAULT_FLAG_INSTRUCTION) && !(perm & SGX_SECINFO_X)))
		return 0;
	if (perm & SGX_SECINFO_R)
		vm_flags |= VM_READ;
	if (perm & SGX_SECINFO_W)
		vm_flags |= VM_WRITE;
	if (perm & SGX_SECINFO_X)
		vm_flags |= VM_EXEC;
	vm_flags &= vma->vm_flags | VM_SHARED;
	return vm_flags & (VM_READ | VM_WRITE | VM_EXEC) ? vm_flags : 0;
}

/*
 * Make @page resident for a fault (@vmf) or a debugger access (@vmf
 * NULL).  A page blocked for eviction is waited for until its EWB is done
 * and recorded (then it is loaded) or given up (then it is used as it
 * is): neither a new PTE nor EDBGRD/EDBGWR may touch it in between.
 * Sleeping instead of failing keeps faults from faulting again and again
 * and debugger accesses from failing at random under eviction.
 * encl->lock is dropped for the wait and for the load, so everything is
 * looked at again after each; the caller's VMA (its mmap_lock held) keeps
 * the enclave and @page.  Called with encl->lock held; returns with it, except on
 * VM_FAULT_RETRY (then neither it nor the mmap_lock is held).  Returns
 * 0 with the page resident (*@loaded set when it was loaded here; @loaded
 * may be NULL), VM_FAULT_SIGBUS, or VM_FAULT_RETRY.
 */
static vm_fault_t isgx_encl_page_resident(struct isgx_encl *encl,
					  struct isgx_encl_page *page,
					  struct vm_fault *vmf, bool *loaded)
{
	vm_fault_t ret;

	for (;;) {
		if (!isgx_encl_usable(encl))
			return VM_FAULT_SIGBUS;
		if (page->flags & ISGX_PAGE_RECLAIMING) {
			u64 start = ktime_get_ns();

			/* The reclaimer writes it next. */
			page->flags |= ISGX_PAGE_WANTED;
			mutex_unlock(&encl->lock);
			wait_var_event(page, !(READ_ONCE(page->flags) & ISGX_PAGE_RECLAIMING));
			isgx_stat_inc(nr_ewb_waits);
			isgx_stat_add(ns_ewb_wait, ktime_get_ns() - start);
			mutex_lock(&encl->lock);
		} else if (!page->epc_page) {
			ret = isgx_encl_load_locked(encl, page, vmf);
			if (ret)
				return ret;
			if (loaded)
				*loaded = true;
		} else {
			return 0;
		}
	}
}

/* Fault-around: an evicted neighbour on its way back. */
struct isgx_around {
	struct isgx_encl_page *page;
	struct isgx_epc_page *epc;
	struct isgx_backing backing;
};

/*
 * After a fault loaded the page at @addr, and the two pages before it were
 * the last ones loaded by faults: load the evicted REG pages that follow, up
 * to fault_around of them, within the VMA, in EPC pages that are spare
 * (never reclaiming) and within the process's limit; map each.  Called
 * and returns with encl->lock held; drops it for the allocation and the
 * backing reads.
 */
static void isgx_encl_fault_around(struct isgx_encl *encl, struct vm_area_struct *vma,
				   unsigned long addr)
{
	unsigned long idx = PFN_DOWN(addr - encl->base), end;
	unsigned int want = isgx_pager_fault_around(), n = 0, i;
	struct isgx_around *a;

	/*
	 * Two loads in a row are not a run: a record across a page boundary
	 * gives them.  Three are.
	 */
	encl->seq_faults = idx == encl->last_fault + 1 ? encl->seq_faults + 1 : 0;
	encl->last_fault = idx;
	if (!want || encl->seq_faults < 2)
		return;
	a = kmalloc_array(want, sizeof(*a), GFP_KERNEL);
	if (!a)
		return;
	end = min(vma->vm_end, encl->base + encl->size);
	for (addr += PAGE_SIZE; addr < end && n < want; addr += PAGE_SIZE) {
		struct isgx_encl_page *page = isgx_encl_page_find(encl, addr);

		if (!page || page->epc_page || (page->flags & ISGX_PAGE_RECLAIMING) ||
		    !isgx_encl_page_is_reg(page))
			break;
		a[n++].page = page;
	}
	mutex_unlock(&encl->lock);
	for (i = 0; i < n; i++) {
		/* Within the process's limit, never reclaiming for it. */
		if (isgx_proc_try_charge(encl->proc))
			break;
		a[i].epc = isgx_epc_alloc_around(a[i].page);
		if (IS_ERR(a[i].epc)) {
			isgx_proc_charge(encl->proc, -1);
			break;
		}
		if (isgx_backing_get(encl, a[i].page, &a[i].backing)) {
			isgx_epc_release_evicted(a[i].epc);
			isgx_proc_charge(encl->proc, -1);
			break;
		}
	}
	n = i;
	mutex_lock(&encl->lock);
	for (i = 0; i < n; i++) {
		struct isgx_encl_page *page = a[i].page;
		unsigned long vm_flags = isgx_encl_page_vm_flags(page, vma, 0);
		bool loaded = false;

		if (!page->epc_page && !(page->flags & ISGX_PAGE_RECLAIMING) &&
		    encl->secs && isgx_encl_usable(encl))
			loaded = !isgx_pager_load(encl, page, a[i].epc, &a[i].backing);
		isgx_backing_put(&a[i].backing, false);
		if (!loaded) {
			/* Loaded by a fault meanwhile: as in isgx_encl_load_locked(). */
			isgx_backing_free(encl, page);
			isgx_epc_release_evicted(a[i].epc);
			isgx_proc_charge(encl->proc, -1);
			continue;
		}
		isgx_stat_inc(nr_fault_around);
		encl->last_fault = PFN_DOWN(page->addr - encl->base);
		if (vm_flags &&
		    vmf_insert_pfn_prot(vma, page->addr, page->epc_page->pfn,
					vm_get_page_prot(vm_flags)) == VM_FAULT_NOPAGE)
			page->flags &= ~ISGX_PAGE_NEVER_MAPPED;
	}
	kfree(a);
}

static vm_fault_t __isgx_vma_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct isgx_encl *encl = vma->vm_private_data;
	unsigned long addr = vmf->address & PAGE_MASK;
	struct isgx_encl_page *page;
	vm_fault_t ret = VM_FAULT_SIGBUS;
	unsigned long vm_flags;
	bool loaded = false;

	if (!encl)
		return VM_FAULT_SIGBUS;

	mutex_lock(&encl->lock);
	page = isgx_encl_page_find(encl, addr);
	if (!page || !isgx_encl_page_is_reg(page))
		goto out;
	ret = isgx_encl_page_resident(encl, page, vmf, &loaded);
	if (ret == VM_FAULT_RETRY)
		return ret;	/* encl->lock and mmap_lock given up */
	if (ret)
		goto out;

	/* The EPCM permissions bound what the enclave may do. */
	vm_flags = isgx_encl_page_vm_flags(page, vma, vmf->flags);
	if (!vm_flags) {
		ret = VM_FAULT_SIGBUS;
		goto out;
	}
	/* A page the pager left BLOCKED: the access would fault on a CPU. */
	if (isgx_encls_new_tlb_faults(page->epc_page->va)) {
		isgx_stat_inc(nr_blocked_access);
		ret = VM_FAULT_SIGSEGV;
		goto out;
	}
	ret = vmf_insert_pfn_prot(vma, addr, page->epc_page->pfn,
				  vm_get_page_prot(vm_flags));
	if (ret == VM_FAULT_NOPAGE)
		page->flags &= ~ISGX_PAGE_NEVER_MAPPED;
	isgx_pager_fault_unstalled(encl);
	if (loaded && ret == VM_FAULT_NOPAGE)
		isgx_encl_fault_around(encl, vma, addr);
out:
	mutex_unlock(&encl->lock);
	return ret;
}

/*
 * One EDBGRD/EDBGWR word of a ptrace access: @count bytes at @addr (inside
 * one aligned 8-byte word), on the page made resident as for a fault (an
 * evicted one loaded, one being evicted waited for).  TCS pages follow the
 * staging driver: only the first 72 bytes are readable and only FLAGS
 * (bytes 8..15) is writable.  encl->lock held (dropped while the page is
 * made resident).
 */
static int isgx_encl_debug_word(struct isgx_encl *encl, unsigned long addr,
				void *buf, int count, bool write)
{
	unsigned long offset = addr & ~PAGE_MASK;
	unsigned int shift = addr & 7;
	struct isgx_encl_page *page;
	void *word_va;
	u64 data;
	int ret;

	page = isgx_encl_page_find(encl, addr);
	if (!page || isgx_encl_page_resident(encl, page, NULL, NULL))
		return -EFAULT;
	if ((page->secinfo & SGX_SECINFO_PT_MASK) == (u64)SGX_PT_TCS << SGX_SECINFO_PT_SHIFT) {
		if (write ? (offset & ~7UL) != offsetof(struct isgx_tcs, flags) :
			    offset >= SGX_TCS_RESERVED_OFFSET)
			return -EFAULT;
	}
	word_va = page->epc_page->va + (offset & ~7UL);
	ret = __edbgrd(word_va, &data);
	if (ret)
		return -EIO;
	if (!write) {
		memcpy(buf, (u8 *)&data + shift, count);
		return 0;
	}
	memcpy((u8 *)&data + shift, buf, count);
	return __edbgwr(word_va, &data) ? -EIO : 0;
}

static int isgx_vma_access(struct vm_area_struct *vma, unsigned long addr,
			   void *buf, int len, int write)
{
	struct isgx_encl *encl = vma->vm_private_data;
	int done = 0, ret = 0;

	if (!encl || !(encl->flags & ISGX_ENCL_DEBUG))
		return -EFAULT;

	mutex_lock(&encl->lock);
	while (done < len) {
		int count = min_t(int, len - done, 8 - ((addr + done) & 7));

		ret = isgx_encl_debug_word(encl, addr + done, buf + done, count, write);
		if (ret)
			break;
		done += count;
	}
	mutex_unlock(&encl->lock);
	return done ? done : ret;
}

/*
 * A fault that returns VM_FAULT_RETRY has given its mmap_lock up and
 * slept, waiting for free EPC (unless FAULT_FLAG_RETRY_NOWAIT forbade
 * both); the core takes the lock again and calls the handler once more.
 * Such an attempt is counted as a retry only, so that a retried fault is
 * one fault, with the latency of its last attempt: the sleep before a
 * retry is thus not in the module's figure.  wsgen's per-access timing in
 * user space covers the whole of it.
 */
static vm_fault_t isgx_vma_fault(struct vm_fault *vmf)
{
	u64 start = ktime_get_ns();
	vm_fault_t ret;

	if (isgx_fault_needs_mmap_lock(vmf))
		return VM_FAULT_RETRY;
	trace_isgx_fault_begin(vmf->address, vmf->flags);
	ret = __isgx_vma_fault(vmf);
	trace_isgx_fault_end(vmf->address, (__force unsigned int)ret);
	if (ret & VM_FAULT_RETRY) {
		isgx_stat_inc(nr_fault_retries);
		return ret;
	}
	isgx_stat_inc(nr_faults);
	isgx_stats_fault_latency(ktime_get_ns() - start);
	return ret;
}

/*
 * A write to a present, read-only PTE of a shared VM_WRITE mapping: the
 * core would make the PTE writable (wp_page_reuse()) on the VMA's word
 * alone.  The fault path made it read-only because the page's EPCM
 * permissions lack W or the VMA lacked VM_WRITE then; allow the write
 * only when a write fault would get a writable PTE now.  The core checks
 * afterwards that the PTE is still the one it asked about.
 */
static vm_fault_t isgx_vma_pfn_mkwrite(struct vm_fault *vmf)
{
	struct isgx_encl *encl = vmf->vma->vm_private_data;
	struct isgx_encl_page *page;
	vm_fault_t ret = VM_FAULT_SIGBUS;

	if (!encl)
		return VM_FAULT_SIGBUS;
	mutex_lock(&encl->lock);
	page = isgx_encl_page_find(encl, vmf->address & PAGE_MASK);
	if (page && isgx_encl_page_is_reg(page) &&
	    (isgx_encl_page_vm_flags(page, vmf->vma, vmf->flags) & VM_WRITE))
		ret = 0;
	mutex_unlock(&encl->lock);
	return ret;
}

/*
 * mprotect() rewrites present PTEs with the new protection, so a change
 * may not grant more than the EPCM gives any REG page in the range (TCS
 * pages are never mapped).  Pages added later are checked at fault time.
 */
static int isgx_vma_mprotect(struct vm_area_struct *vma, unsigned long start,
			     unsigned long end, unsigned long newflags)
{
	struct isgx_encl *encl = vma->vm_private_data;
	struct isgx_encl_page *page;
	unsigned long idx;
	int ret = 0;

	if (!encl)
		return 0;
	mutex_lock(&encl->lock);
	xa_for_each_range(&encl->pages, idx, page, PFN_DOWN(start - encl->base),
			  PFN_DOWN(end - 1 - encl->base)) {
		u64 perm = page->secinfo & SGX_SECINFO_PERM_MASK;

		if ((page->secinfo & SGX_SECINFO_PT_MASK) != (u64)SGX_PT_REG << SGX_SECINFO_PT_SHIFT)
			continue;
		if (((newflags & VM_READ) && !(perm & SGX_SECINFO_R)) ||
		    ((newflags & VM_WRITE) && !(perm & SGX_SECINFO_W)) ||
		    ((newflags & VM_EXEC) && !(perm & SGX_SECINFO_X))) {
			ret = -EACCES;
			break;
		}
	}
	mutex_unlock(&encl->lock);
	return ret;
}

const struct vm_operations_struct isgx_vm_ops = {
	.open = isgx_vma_open,
	.close = isgx_vma_close,
	.mremap = isgx_vma_mremap,
	.fault = isgx_vma_fault,
	.pfn_mkwrite = isgx_vma_pfn_mkwrite,
	.access = isgx_vma_access,
	.mprotect = isgx_vma_mprotect,
};

/**
 * isgx_mmap() - the mmap file operation of /dev/sgx
 * @file:	the open device
 * @vma:	the new mapping
 *
 * A mapping is only useful once SGX_IOC_ENCLAVE_CREATE attaches an
 * enclave to it; until then every access gets SIGBUS.
 *
 * Context: mmap_lock held for writing.
 * Return: 0, or -EINVAL for a private mapping.
 */
int isgx_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;
	vma->vm_ops = &isgx_vm_ops;
	vma->vm_private_data = NULL;
	vm_flags_set(vma, VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP | VM_DONTCOPY);
	return 0;
}

/**
 * isgx_get_unmapped_area() - a naturally aligned range for an enclave
 * @file:	the open device
 * @addr:	hint, or the address for MAP_FIXED
 * @len:	the enclave size: a power of two of at least two pages
 * @pgoff:	file offset (ignored by the default allocator)
 * @flags:	mmap flags
 *
 * ELRANGE must be aligned to its size, so twice the length is reserved
 * and the start rounded up inside it.
 *
 * Context: process context.
 * Return: the address, or -EINVAL / -ENOMEM.
 */
unsigned long isgx_get_unmapped_area(struct file *file, unsigned long addr,
				     unsigned long len, unsigned long pgoff,
				     unsigned long flags)
{
	if (len < 2 * PAGE_SIZE || !is_power_of_2(len) || len > TASK_SIZE / 2)
		return -EINVAL;
	if (flags & MAP_FIXED)
		return IS_ALIGNED(addr, len) ? addr : -EINVAL;

	addr = isgx_mm_get_unmapped_area(file, addr, 2 * len, pgoff, flags);
	if (IS_ERR_VALUE(addr))
		return addr;
	return ALIGN(addr, len);
}
