/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: the enclave object, its pages and its mapping.
 */
#ifndef _ISGX_ENCL_H
#define _ISGX_ENCL_H

#include <linux/bits.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mutex.h>
#include <linux/pfn.h>
#include <linux/rwsem.h>
#include <linux/xarray.h>

#include "arch.h"
#include "epc.h"
#include "lru.h"
#include "proc.h"
#include "va.h"

/* isgx_encl.flags */
#define ISGX_ENCL_INITIALIZED	BIT(0)	/* EINIT succeeded */
#define ISGX_ENCL_DEAD		BIT(1)	/* destroyed or released: no new work */
#define ISGX_ENCL_DEBUG		BIT(2)	/* ATTRIBUTES.DEBUG: ptrace allowed */
#define ISGX_ENCL_PINNED	BIT(3)	/* not initialised: its SECS charged by isgx_proc_pin() */

/**
 * struct isgx_encl_page - one page of an enclave
 * @addr:	enclave linear address; fixed
 * @secinfo:	SECINFO.FLAGS it was added with (type and R/W/X); fixed
 * @epc_page:	the EPC page holding it, NULL while evicted; encl->lock
 * @encl:	the enclave; fixed
 * @va_slot:	the slot holding its version while evicted; encl->lock
 * @flags:	ISGX_PAGE_WANTED while a fault waits for its EWB;
 *		ISGX_PAGE_RECLAIMING from EBLOCK until its EWB is done or
 *		given up and that recorded (waited on with
 *		wait_var_event()); ISGX_PAGE_NEVER_MAPPED from EADD until a
 *		fault or fault-around first maps it (an eviction before
 *		that leaves no history with the policy, lru.c); encl->lock
 * @lru:	what the policy knows of it, resident or evicted (lru.c);
 *		isgx_pager.lock
 */
struct isgx_encl_page {
	unsigned long addr;
	u64 secinfo;
	struct isgx_epc_page *epc_page;
	struct isgx_encl *encl;
	struct isgx_va_slot va_slot;
	unsigned int flags;
	struct isgx_lru_page lru;
};

/* isgx_encl_page.flags */
#define ISGX_PAGE_RECLAIMING	BIT(0)
#define ISGX_PAGE_WANTED	BIT(1)	/* a fault waits for its EWB */
#define ISGX_PAGE_NEVER_MAPPED	BIT(2)	/* not mapped since EADD, ever */

/**
 * struct isgx_encl - an enclave
 * @refcount:	one per VMA that maps it, plus one per ioctl or fault in
 *		flight; the last put releases every EPC page
 * @lock:	protects the fields below that name it
 * @track_sem:	ETRACK and its kick (write; the ETRACK under @lock, the
 *		kick without) against the EWBs of its pages (read, without
 *		@lock): an EWB racing an ETRACK of its enclave answers
 *		SGX_NOT_TRACKED, and one before the kick would too
 * @flags:	ISGX_ENCL_*; encl->lock (read locklessly as hints)
 * @base:	ELRANGE start; fixed after create
 * @size:	ELRANGE size, a power of two; fixed after create
 * @attributes:	SECS.ATTRIBUTES.FLAGS; fixed after create
 * @power_gen:	isgx_emu_power_gen() at create; a change means the EPC
 *		was lost and the enclave with it
 * @mm:		the creating process's mm (mmgrab()ed: the struct stays, the
 *		address space goes with the process)
 * @proc:	the EPC account of that process; fixed
 * @memcg:	the memory cgroup of that process's mm at create, charged
 *		with @backing whoever reads it in (NULL without memcg); a
 *		reference is held; fixed
 * @last_fault:	page index of the last fault that loaded a page, to see
 *		sequential faults for fault-around; encl->lock
 * @seq_faults:	loads in a row, each at the page after the one before;
 *		encl->lock
 * @secs:	EPC page of the SECS, NULL while it is evicted (only an
 *		initialised enclave with no resident page loses it);
 *		encl->lock
 * @secs_slot:	the VA slot of the evicted SECS; encl->lock
 * @nr_resident: its REG and TCS pages in the EPC; encl->lock
 * @stall_since: jiffies (never 0) of the first fault that found no EPC
 *		page since one of its faults last mapped a page, else 0;
 *		read and written locklessly (isgx_pager_fault_stalled())
 * @backing:	shmem file: evicted pages at their ELRANGE offset, then
 *		their PCMDs, 128 bytes each, then the SECS and its PCMD a
 *		page each (isgx_encl_secs_backing_index()); fixed after
 *		create
 * @pages:	isgx_encl_page by page index in ELRANGE; encl->lock
 * @nr_pages:	entries in @pages; encl->lock
 * @list:	entry in the list of all enclaves; isgx_encl_list_lock
 */
struct isgx_encl {
	struct kref refcount;
	struct mutex lock;
	struct rw_semaphore track_sem;
	unsigned long flags;
	unsigned long base;
	unsigned long size;
	u64 attributes;
	u64 power_gen;
	struct mm_struct *mm;
	struct isgx_proc *proc;
	struct mem_cgroup *memcg;
	unsigned long last_fault;
	unsigned int seq_faults;
	struct isgx_epc_page *secs;
	struct isgx_va_slot secs_slot;
	unsigned long nr_resident;
	unsigned long stall_since;
	struct file *backing;
	struct xarray pages;
	unsigned long nr_pages;
	struct list_head list;
};

extern const struct vm_operations_struct isgx_vm_ops;

/* Backing page index of the evicted SECS; its PCMD is in the next page. */
static inline pgoff_t isgx_encl_secs_backing_index(struct isgx_encl *encl)
{
	return PFN_UP(encl->size + (encl->size >> PAGE_SHIFT) * sizeof(struct isgx_pcmd));
}

struct isgx_encl *isgx_encl_alloc(struct mm_struct *mm);
void isgx_encl_put(struct isgx_encl *encl);
/* How an ioctl's address names its enclave (isgx_encl_get()). */
enum isgx_encl_lookup {
	ISGX_ENCL_BY_BASE,
	ISGX_ENCL_BY_PAGE,
};

struct isgx_encl *isgx_encl_get(struct mm_struct *mm, unsigned long addr,
				enum isgx_encl_lookup by);
bool isgx_encl_power_lost(struct isgx_encl *encl);
int isgx_encl_attach(struct isgx_encl *encl, struct mm_struct *mm);
unsigned long isgx_encl_nr_enclaves(void);
void isgx_encl_power_loss(void);
int isgx_encl_backing_create(struct isgx_encl *encl);

int isgx_mmap(struct file *file, struct vm_area_struct *vma);
unsigned long isgx_get_unmapped_area(struct file *file, unsigned long addr,
				     unsigned long len, unsigned long pgoff,
				     unsigned long flags);

#endif /* _ISGX_ENCL_H */
