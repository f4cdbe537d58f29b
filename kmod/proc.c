// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: per-process EPC accounts.
 *
 * Every enclave charges its resident pages to the process that created it
 * (its mm).  The pager uses the accounts three ways: a process at
 * max_pages_per_process evicts its own pages before it gets another one;
 * under the default and twolist policies a pass takes its victims only
 * from the next, round robin, of the processes holding at least their
 * fair share (the evictable pages divided by the processes that have
 * any), so that a large working set churns mostly its own pages rather
 * than a small one's; and the baselines (fifo16 and seed) take the next
 * process holding any evictable page, round robin (seed as the 2016
 * driver did).
 *
 * Unevictable pages are bounded too.  The SECS of an enclave that is
 * not initialised cannot leave the EPC (EWB of a SECS needs an
 * initialised enclave without resident children), so a process that
 * creates enclaves and never initialises them would fill the EPC with
 * pages no reclaim can take, and every other process's faults would
 * wait for pages that never come.  Each such enclave pins one page,
 * charged at CREATE and released at INIT or destruction, and the pins
 * are bounded per process (max_unevictable_per_process, CREATE fails
 * with EDQUOT beyond it) and for all processes together
 * (max_unevictable, ENOMEM): by default such SECS pages take at most half
 * of the EPC.  Other pages are unevictable for a while, not for good: a
 * page being loaded or written back (one per thread at work), the SECS
 * of an initialised enclave until its last child leaves, VA pages
 * holding versions (the pool evicts full ones itself, va.c), the pages
 * of an enclave that is destroyed but not yet released, and those of
 * enclaves lost in a power loss until they are destroyed.  The bound is
 * per process and global, not per user: many processes of one user can
 * hold the global bound together, and then nobody can create an enclave
 * until they initialise or destroy theirs, though every enclave already
 * running keeps going.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "epc.h"
#include "proc.h"

static LIST_HEAD(isgx_procs);
static DEFINE_SPINLOCK(isgx_procs_lock);

static unsigned int max_pages_per_process;
static unsigned int max_unevictable_per_process;
static unsigned int max_unevictable;
static atomic_long_t isgx_nr_unevictable = ATOMIC_LONG_INIT(0);

/* 0 (no limit) or at most the EPC; at load time the EPC is not known yet. */
static int isgx_max_pages_set(const char *val, const struct kernel_param *kp)
{
	unsigned long total = isgx_epc_nr_total();
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (total && v > total)
		return -EINVAL;
	WRITE_ONCE(max_pages_per_process, v);
	return 0;
}

static const struct kernel_param_ops isgx_max_pages_ops = {
	.set = isgx_max_pages_set,
	.get = param_get_uint,
};
module_param_cb(max_pages_per_process, &isgx_max_pages_ops, &max_pages_per_process, 0644);
MODULE_PARM_DESC(max_pages_per_process,
		 "Resident enclave pages one process may hold; it evicts its own beyond (0: no limit)");

/* 1 to the EPC size; at load time the EPC is not known yet. */
static int isgx_max_unevictable_set(const char *val, const struct kernel_param *kp)
{
	unsigned long total = isgx_epc_nr_total();
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (!v || (total && v > total))
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, v);
	return 0;
}

static const struct kernel_param_ops isgx_max_unevictable_ops = {
	.set = isgx_max_unevictable_set,
	.get = param_get_uint,
};
module_param_cb(max_unevictable_per_process, &isgx_max_unevictable_ops,
		&max_unevictable_per_process, 0644);
MODULE_PARM_DESC(max_unevictable_per_process,
		 "Enclaves not yet initialised (an unevictable SECS page each) one process may hold (default: EPC/16, at least 16)");
module_param_cb(max_unevictable, &isgx_max_unevictable_ops, &max_unevictable, 0644);
MODULE_PARM_DESC(max_unevictable,
		 "Enclaves not yet initialised all processes together may hold (default: EPC/2)");

/**
 * isgx_proc_init() - default bounds on unevictable pages, now that the
 * EPC size is known
 *
 * Context: module init, after isgx_epc_init().
 * Return: 0, or -EINVAL when a bound given at load time exceeds the EPC.
 */
int isgx_proc_init(void)
{
	unsigned long total = isgx_epc_nr_total();

	if (!max_unevictable_per_process)
		max_unevictable_per_process = min(total, max(16UL, total / 16));
	if (!max_unevictable)
		max_unevictable = max(1UL, total / 2);
	if (max_unevictable_per_process > total || max_unevictable > total ||
	    (max_pages_per_process && max_pages_per_process > total)) {
		pr_err("max_unevictable_per_process=%u max_unevictable=%u max_pages_per_process=%u exceed %lu EPC pages\n",
		       max_unevictable_per_process, max_unevictable, max_pages_per_process, total);
		return -EINVAL;
	}
	return 0;
}

/* Add one to @v unless it has reached @limit; atomic check and charge. */
static bool isgx_inc_below(atomic_long_t *v, long limit)
{
	long old = atomic_long_read(v);

	do {
		if (old >= limit)
			return false;
	} while (!atomic_long_try_cmpxchg(v, &old, old + 1));
	return true;
}

/**
 * isgx_proc_pin() - charge an unevictable page (the SECS of a new,
 * uninitialised enclave) to @proc
 * @proc:	the account
 *
 * Check and charge are one atomic step each, so that threads creating
 * enclaves at once cannot overshoot a bound together.
 *
 * Context: any.
 * Return: 0; -EDQUOT when @proc holds max_unevictable_per_process pins;
 * -ENOMEM when all processes together hold max_unevictable.
 */
int isgx_proc_pin(struct isgx_proc *proc)
{
	if (!isgx_inc_below(&proc->nr_unevictable, READ_ONCE(max_unevictable_per_process)))
		return -EDQUOT;
	if (!isgx_inc_below(&isgx_nr_unevictable, READ_ONCE(max_unevictable))) {
		atomic_long_dec(&proc->nr_unevictable);
		return -ENOMEM;
	}
	return 0;
}

/**
 * isgx_proc_unpin() - release a pin taken by isgx_proc_pin()
 * @proc:	the account
 *
 * Context: any.
 */
void isgx_proc_unpin(struct isgx_proc *proc)
{
	atomic_long_dec(&proc->nr_unevictable);
	atomic_long_dec(&isgx_nr_unevictable);
}

/**
 * isgx_proc_get() - the account of @mm, made on first use
 * @mm:		the process's mm, pinned by the caller for as long as it
 *		holds the account
 *
 * Context: process context.
 * Return: the account with a reference, or NULL without memory.
 */
struct isgx_proc *isgx_proc_get(struct mm_struct *mm)
{
	struct isgx_proc *proc, *new = kzalloc(sizeof(*new), GFP_KERNEL);

	spin_lock(&isgx_procs_lock);
	list_for_each_entry(proc, &isgx_procs, link) {
		if (proc->mm == mm) {
			kref_get(&proc->refcount);
			spin_unlock(&isgx_procs_lock);
			kfree(new);
			return proc;
		}
	}
	if (new) {
		kref_init(&new->refcount);
		isgx_lru_init(&new->lru);
		new->mm = mm;
		new->tgid = task_tgid_nr(current);
		list_add_tail(&new->link, &isgx_procs);
	}
	spin_unlock(&isgx_procs_lock);
	return new;
}

static void isgx_proc_release(struct kref *ref)
{
	struct isgx_proc *proc = container_of(ref, struct isgx_proc, refcount);

	list_del(&proc->link);
	spin_unlock(&isgx_procs_lock);
	WARN_ONCE(isgx_proc_nr_pages(proc), "process %d released with %ld pages charged\n",
		  proc->tgid, isgx_proc_nr_pages(proc));
	WARN_ONCE(atomic_long_read(&proc->nr_unevictable),
		  "process %d released with %ld unevictable pages charged\n",
		  proc->tgid, atomic_long_read(&proc->nr_unevictable));
	kfree(proc);
}

/**
 * isgx_proc_put() - drop a reference to an account
 * @proc:	the account
 *
 * Context: any context that may take a spinlock.
 */
void isgx_proc_put(struct isgx_proc *proc)
{
	kref_put_lock(&proc->refcount, isgx_proc_release, &isgx_procs_lock);
}

/**
 * isgx_proc_try_charge() - charge one page, within max_pages_per_process
 * @proc:	the account
 *
 * The check and the charge are one atomic step: threads of one process
 * faulting at once cannot take it past its limit together.
 *
 * Context: any.
 * Return: 0 (charged: the caller makes a page resident, or gives the
 * charge back with isgx_proc_charge(proc, -1)), or -EBUSY when @proc
 * holds as many pages as its limit allows.
 */
int isgx_proc_try_charge(struct isgx_proc *proc)
{
	unsigned long limit = READ_ONCE(max_pages_per_process);

	if (!limit) {
		isgx_proc_charge(proc, 1);
		return 0;
	}
	return isgx_inc_below(&proc->nr_pages, limit) ? 0 : -EBUSY;
}

/**
 * isgx_proc_room() - how many more pages @proc may hold
 * @proc:	the account
 *
 * Context: any.
 * Return: the pages left under max_pages_per_process, ULONG_MAX without
 * a limit.
 */
unsigned long isgx_proc_room(struct isgx_proc *proc)
{
	unsigned long limit = READ_ONCE(max_pages_per_process);
	unsigned long held = isgx_proc_nr_pages(proc);

	if (!limit)
		return ULONG_MAX;
	return held < limit ? limit - held : 0;
}

/**
 * isgx_proc_fair_share() - evictable pages per process that has any
 *
 * Pages no pass can take (isgx_proc_nr_evictable()) count for nobody: a
 * process holding only those would otherwise be named by
 * isgx_proc_next() and every pass would evict nothing from it.
 *
 * Context: any; takes isgx_procs_lock.
 * Return: the share, 0 when no process holds a page.
 */
unsigned long isgx_proc_fair_share(void)
{
	unsigned long total = 0, nr = 0;
	struct isgx_proc *proc;

	spin_lock(&isgx_procs_lock);
	list_for_each_entry(proc, &isgx_procs, link) {
		unsigned long n = isgx_proc_nr_evictable(proc);

		if (n) {
			total += n;
			nr++;
		}
	}
	spin_unlock(&isgx_procs_lock);
	return nr ? total / nr : 0;
}

/**
 * isgx_proc_next() - the next process with evictable pages, round robin
 * @min_pages:	only a process with at least this many (and at least one)
 *		on its lists (isgx_proc_nr_evictable())
 *
 * The account moves to the tail, so that the next call names another.
 *
 * Context: any; takes isgx_procs_lock.
 * Return: the account, with a reference (isgx_proc_put()); NULL when none
 * holds as many pages.
 */
struct isgx_proc *isgx_proc_next(unsigned long min_pages)
{
	struct isgx_proc *proc, *found = NULL;

	min_pages = max(1UL, min_pages);
	spin_lock(&isgx_procs_lock);
	list_for_each_entry(proc, &isgx_procs, link) {
		if (isgx_proc_nr_evictable(proc) >= min_pages) {
			found = proc;
			break;
		}
	}
	if (found) {
		list_move_tail(&found->link, &isgx_procs);
		/* Released only under isgx_procs_lock: still counted. */
		kref_get(&found->refcount);
	}
	spin_unlock(&isgx_procs_lock);
	return found;
}

/* procs: one line per process with an enclave, "tgid=<pid> pages=<n>". */
static int isgx_procs_show(struct seq_file *m, void *v)
{
	struct isgx_proc *proc;

	spin_lock(&isgx_procs_lock);
	list_for_each_entry(proc, &isgx_procs, link)
		seq_printf(m, "tgid=%d pages=%ld\n", proc->tgid, isgx_proc_nr_pages(proc));
	spin_unlock(&isgx_procs_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(isgx_procs);

static int isgx_nr_unevictable_get(void *data, u64 *val)
{
	*val = atomic_long_read(&isgx_nr_unevictable);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(isgx_nr_unevictable_fops, isgx_nr_unevictable_get, NULL, "%llu\n");

/**
 * isgx_proc_debugfs_init() - the procs file
 * @dir:	the module's debugfs directory
 *
 * Context: module init.
 */
void isgx_proc_debugfs_init(struct dentry *dir)
{
	/* Resident enclave pages per process. */
	debugfs_create_file("procs", 0400, dir, NULL, &isgx_procs_fops);
	/* Enclaves not yet initialised, all processes (isgx_proc_pin()). */
	debugfs_create_file("nr_unevictable", 0400, dir, NULL, &isgx_nr_unevictable_fops);
}
