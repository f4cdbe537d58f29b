// SPDX-License-Identifier: GPL-2.0
/*
 * isgx: per-process EPC accounts.
 *
 * Every enclave charges its resident pages to the process that created it
 * (its mm).  The pager uses the accounts three ways: a process at
 * max_pages_per_process evicts its own pages before it gets another one;
 * the default policy takes victims first from processes above their fair
 * share (the resident pages divided by the processes that have any), so
 * that one large working set cannot push a small one out; and the seed
 * baseline picks the process to evict from round robin, as the 2016
 * driver did.
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
 * isgx_proc_fair_share() - resident pages per process that has any
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
		unsigned long n = isgx_proc_nr_pages(proc);

		if (n) {
			total += n;
			nr++;
		}
	}
	spin_unlock(&isgx_procs_lock);
	return nr ? total / nr : 0;
}

/**
 * isgx_proc_next() - the next process holding pages, round robin
 *
 * The account moves to the tail, so that the next call names another.
 *
 * Context: any; takes isgx_procs_lock.
 * Return: the account, without a reference: only to be compared with
 * the accounts of enclaves that are held; NULL when none holds a page.
 */
struct isgx_proc *isgx_proc_next(void)
{
	struct isgx_proc *proc, *found = NULL;

	spin_lock(&isgx_procs_lock);
	list_for_each_entry(proc, &isgx_procs, link) {
		if (isgx_proc_nr_pages(proc)) {
			found = proc;
			break;
		}
	}
	if (found)
		list_move_tail(&found->link, &isgx_procs);
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
}
