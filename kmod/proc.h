/* SPDX-License-Identifier: GPL-2.0 */
/* isgx: what each process holds in the EPC, its limit, and fair shares. */
#ifndef _ISGX_PROC_H
#define _ISGX_PROC_H

#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/types.h>

#include "lru.h"

struct mm_struct;

/**
 * struct isgx_proc - the EPC account of one process (one mm)
 * @link:	in the list of all accounts, in round-robin order;
 *		isgx_procs_lock
 * @refcount:	one per enclave of the process
 * @mm:		the key; the enclaves holding the account mmgrab() it
 * @tgid:	the process, for debugfs
 * @nr_pages:	resident pages of its enclaves (SECS, REG and TCS)
 * @nr_unevictable: its enclaves not yet initialised, each holding a SECS
 *		page no reclaim can take (isgx_proc_pin())
 * @lru:	its resident REG and TCS pages, for the policy (lru.c);
 *		isgx_pager.lock
 */
struct isgx_proc {
	struct list_head link;
	struct kref refcount;
	struct mm_struct *mm;
	pid_t tgid;
	atomic_long_t nr_pages;
	atomic_long_t nr_unevictable;
	struct isgx_lru lru;
};

struct isgx_proc *isgx_proc_get(struct mm_struct *mm);
void isgx_proc_put(struct isgx_proc *proc);
unsigned long isgx_proc_fair_share(void);
struct isgx_proc *isgx_proc_next(unsigned long min_pages);
void isgx_proc_debugfs_init(struct dentry *dir);
int isgx_proc_init(void);
int isgx_proc_pin(struct isgx_proc *proc);
void isgx_proc_unpin(struct isgx_proc *proc);

static inline void isgx_proc_charge(struct isgx_proc *proc, long nr)
{
	atomic_long_add(nr, &proc->nr_pages);
}

static inline unsigned long isgx_proc_nr_pages(struct isgx_proc *proc)
{
	return atomic_long_read(&proc->nr_pages);
}

/*
 * The pages a reclaim pass could take from @proc: those on its lists (not
 * the SECS of an enclave not yet initialised, nor pages other passes hold
 * isolated).  A racy read (the lists are isgx_pager.lock's): a choice of
 * whom to reclaim from, never a count anything relies on.
 */
static inline unsigned long isgx_proc_nr_evictable(struct isgx_proc *proc)
{
	return READ_ONCE(proc->lru.nr_hot) + READ_ONCE(proc->lru.nr_cold);
}

unsigned long isgx_proc_room(struct isgx_proc *proc);
int isgx_proc_try_charge(struct isgx_proc *proc);

/* Does @proc hold as many pages as max_pages_per_process allows? */
static inline bool isgx_proc_over_limit(struct isgx_proc *proc)
{
	return !isgx_proc_room(proc);
}

#endif /* _ISGX_PROC_H */
