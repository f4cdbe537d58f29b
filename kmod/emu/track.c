// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: TLB tracking -- ETRACK, who is "inside" an enclave, and AEX.
 *
 * There is no ENCLU, so no logical processor ever really executes enclave
 * code.  The stand-in (design §4): a CPU is *inside* an enclave when it is
 * in the mm_cpumask() of a process that maps the enclave and not in lazy
 * TLB mode (then it runs a kernel thread or idles), other than the CPU
 * executing the ENCLS.  The driver registers those mms per enclave
 * (isgx_emu_encl_add_mm()); the enclave is named by its EID, which
 * survives EWB/ELDU of the SECS.
 *
 * The model of spec §6.3 then reads:
 *
 *  - each SECS has an epoch E and a "prev" set: the CPUs that were inside
 *    at the last ETRACK and have not left since;
 *  - a CPU leaves (an AEX) when isgx_emu_aex() runs on it -- the driver's
 *    kick IPI, or the optional tick -- or when it no longer runs any mm
 *    of the enclave (a context switch implies an interrupt, hence an AEX);
 *  - ETRACK fails with SGX_PREV_TRK_INCMPL while prev is not empty;
 *    otherwise prev := the CPUs inside now, E += 1;
 *  - EBLOCK records E in the page; EWB of a page blocked in epoch B is
 *    tracked iff E >= B + 2, or E == B + 1 and prev is empty.
 *
 * "Has CPU c left since the ETRACK at time T" is answered lazily with one
 * global clock: ETRACK stamps T = ++clock, an AEX on c stamps
 * last_aex[c] = ++clock, and c has left iff last_aex[c] > T.  So an AEX
 * costs one atomic increment and a per-CPU store, in any context.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "internal.h"
#include "../tlb.h"

/**
 * struct isgx_emu_encl - what the model knows about who maps an enclave
 * @node:	in isgx_emu.encls, keyed by @eid
 * @eid:	the enclave
 * @mms:	struct isgx_emu_mm list
 * @test_mask:	CPUs a test declares inside, or NULL
 *
 * All fields are protected by isgx_emu.track_lock.
 */
struct isgx_emu_encl {
	struct hlist_node node;
	u64 eid;
	struct list_head mms;
	struct cpumask *test_mask;
};

/**
 * struct isgx_emu_mm - one mm that maps an enclave
 * @link:	in isgx_emu_encl.mms
 * @mm:		the mm, with a mmgrab() reference
 */
struct isgx_emu_mm {
	struct list_head link;
	struct mm_struct *mm;
};

static atomic64_t isgx_track_clock = ATOMIC64_INIT(0);
static DEFINE_PER_CPU(u64, isgx_last_aex);

static unsigned long *isgx_emu_track_mask(unsigned long secs_idx)
{
	return &isgx_emu.track_masks[secs_idx * isgx_emu.mask_longs];
}

/**
 * isgx_emu_aex() - record an asynchronous enclave exit on this CPU
 * @info:	unused; the signature is smp_call_func_t so that the driver
 *		can pass this function straight to its kick IPI
 *
 * Context: any, including hard IRQ; runs on the CPU that exits.
 */
void isgx_emu_aex(void *info)
{
	this_cpu_write(isgx_last_aex, atomic64_inc_return(&isgx_track_clock));
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_aex, ISGX);

static struct isgx_emu_encl *isgx_emu_encl_find(u64 eid)
{
	struct isgx_emu_encl *encl;

	lockdep_assert_held(&isgx_emu.track_lock);
	hash_for_each_possible(isgx_emu.encls, encl, node, eid)
		if (encl->eid == eid)
			return encl;
	return NULL;
}

/* Is @cpu inside the enclave (ignoring the executing CPU's own status)? */
static bool isgx_emu_cpu_inside(struct isgx_emu_encl *encl, unsigned int cpu)
{
	struct isgx_emu_mm *m;

	if (!encl)
		return false;
	if (encl->test_mask && cpumask_test_cpu(cpu, encl->test_mask))
		return true;
	/*
	 * A CPU in lazy TLB mode keeps the mm loaded but runs a kernel
	 * thread or idles: it left the enclave when it switched (an
	 * interrupt, an AEX).
	 */
	if (isgx_cpu_tlb_lazy(cpu))
		return false;
	list_for_each_entry(m, &encl->mms, link)
		if (cpumask_test_cpu(cpu, mm_cpumask(m->mm)))
			return true;
	return false;
}

/*
 * Drop from prev the CPUs that have left since the last ETRACK and tell
 * whether prev is empty.  Called with track_lock held.
 */
static bool isgx_emu_prev_drained(unsigned long secs_idx)
{
	struct isgx_emu_epcm *se = isgx_emu_epcm(secs_idx);
	unsigned long *mask = isgx_emu_track_mask(secs_idx);
	unsigned int self = raw_smp_processor_id();
	struct isgx_emu_encl *encl = NULL;
	bool looked_up = false;
	unsigned int cpu;

	for_each_set_bit(cpu, mask, nr_cpu_ids) {
		if (READ_ONCE(per_cpu(isgx_last_aex, cpu)) > se->track_stamp ||
		    cpu == self)
			goto left;
		if (!looked_up) {
			encl = isgx_emu_encl_find(isgx_emu_secs_priv(secs_idx)->eid);
			looked_up = true;
		}
		if (isgx_emu_cpu_inside(encl, cpu))
			continue;
left:
		__clear_bit(cpu, mask);
	}
	return bitmap_empty(mask, nr_cpu_ids);
}

/**
 * isgx_emu_track_reset() - forget the tracking state of a SECS
 * @secs_idx:	EPC index of a SECS whose busy bit is held
 *
 * Used by ECREATE and by ELDU of a SECS: nobody can be inside an enclave
 * that has no resident pages.
 *
 * Context: any.
 */
void isgx_emu_track_reset(unsigned long secs_idx)
{
	struct isgx_emu_epcm *se = isgx_emu_epcm(secs_idx);

	spin_lock(&isgx_emu.track_lock);
	se->epoch = 0;
	se->track_stamp = 0;
	se->etrack = 0;
	bitmap_zero(isgx_emu_track_mask(secs_idx), nr_cpu_ids);
	spin_unlock(&isgx_emu.track_lock);
}

/**
 * isgx_emu_track_epoch() - current tracking epoch of an enclave
 * @secs_idx:	EPC index of a valid SECS
 *
 * Context: any.
 * Return: E.
 */
u64 isgx_emu_track_epoch(unsigned long secs_idx)
{
	u64 epoch;

	spin_lock(&isgx_emu.track_lock);
	epoch = isgx_emu_epcm(secs_idx)->epoch;
	spin_unlock(&isgx_emu.track_lock);
	return epoch;
}

/**
 * isgx_emu_track_done() - may a page blocked in @blocked_epoch be evicted
 * @secs_idx:		EPC index of the page's SECS
 * @blocked_epoch:	E when EBLOCK ran
 *
 * Context: any.
 * Return: true if every CPU that could hold a stale translation has left.
 */
bool isgx_emu_track_done(unsigned long secs_idx, u64 blocked_epoch)
{
	struct isgx_emu_epcm *se = isgx_emu_epcm(secs_idx);
	bool done;

	spin_lock(&isgx_emu.track_lock);
	done = se->epoch >= blocked_epoch + 2 ||
	       (se->epoch == blocked_epoch + 1 &&
		isgx_emu_prev_drained(secs_idx));
	spin_unlock(&isgx_emu.track_lock);
	return done;
}

/**
 * isgx_emu_track_active() - is any CPU inside the enclave (cur + prev)
 * @secs_idx:	EPC index of a valid SECS
 *
 * Context: any.
 * Return: true if a CPU other than this one is inside.
 */
bool isgx_emu_track_active(unsigned long secs_idx)
{
	unsigned int self = raw_smp_processor_id(), cpu;
	struct isgx_emu_encl *encl;
	bool active;

	spin_lock(&isgx_emu.track_lock);
	active = !isgx_emu_prev_drained(secs_idx);
	encl = isgx_emu_encl_find(isgx_emu_secs_priv(secs_idx)->eid);
	for_each_online_cpu(cpu) {
		if (active)
			break;
		active = cpu != self && isgx_emu_cpu_inside(encl, cpu);
	}
	spin_unlock(&isgx_emu.track_lock);
	return active;
}

/**
 * isgx_emu_etrack() - ENCLS[ETRACK]
 * @secs:	the SECS
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_PREV_TRK_INCMPL, or a fault (#GP, #PF).
 */
int isgx_emu_etrack(void *secs)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_emu_encl *encl;
	struct isgx_emu_epcm *se;
	unsigned int self, cpu;
	unsigned long *mask;
	long sidx;
	int ret;

	ret = isgx_emu_leaf_begin_page(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_SECS,
				       secs, &sidx);
	if (ret)
		return ret;
	se = isgx_emu_epcm(sidx);
	mask = isgx_emu_track_mask(sidx);
	spin_lock(&isgx_emu.track_lock);
	if (!isgx_emu_prev_drained(sidx)) {
		ret = SGX_PREV_TRK_INCMPL;
	} else {
		/* The snapshot and the stamp are taken under one lock hold. */
		self = raw_smp_processor_id();
		encl = isgx_emu_encl_find(isgx_emu_secs_priv(sidx)->eid);
		for_each_online_cpu(cpu)
			if (cpu != self && isgx_emu_cpu_inside(encl, cpu))
				__set_bit(cpu, mask);
		se->track_stamp = atomic64_inc_return(&isgx_track_clock);
		se->epoch++;
	}
	spin_unlock(&isgx_emu.track_lock);
	isgx_emu_leaf_end(&ls);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_etrack, ISGX);

/*
 * The EID of the enclave whose SECS is @secs, read under the SECS's busy
 * bit.  The SECS may go away right after; a record made for a dead EID is
 * harmless and freed at power loss or unload.
 */
static int isgx_emu_secs_eid(void *secs, u64 *eid)
{
	struct isgx_emu_lockset ls = {};
	long sidx = isgx_emu_epc_index(secs);
	int ret;

	if (sidx < 0 || !isgx_emu_aligned(secs, PAGE_SIZE))
		return -EINVAL;
	ret = isgx_emu_leaf_begin(&ls, -EBUSY, ISGX_EMU_WANT_ANY, sidx);
	if (ret)
		return ret;
	if (isgx_emu_epcm_is(sidx, SGX_PT_SECS))
		*eid = isgx_emu_secs_priv(sidx)->eid;
	else
		ret = -EINVAL;
	isgx_emu_leaf_end(&ls);
	return ret;
}

/* Find the record of @eid, or insert @spare (consumed) if given. */
static struct isgx_emu_encl *isgx_emu_encl_lookup(u64 eid,
						  struct isgx_emu_encl **spare)
{
	struct isgx_emu_encl *encl = isgx_emu_encl_find(eid);

	if (!encl && spare && *spare) {
		encl = *spare;
		*spare = NULL;
		encl->eid = eid;
		INIT_LIST_HEAD(&encl->mms);
		hash_add(isgx_emu.encls, &encl->node, eid);
	}
	return encl;
}

/**
 * isgx_emu_encl_add_mm() - declare that @mm maps the enclave of @secs
 * @secs:	the enclave's SECS (resident)
 * @mm:		the mm; a mmgrab() reference is kept until it is removed
 *
 * CPUs running @mm count as inside the enclave from now on.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL (@secs is not a valid SECS), -EEXIST, -ENOMEM.
 */
int isgx_emu_encl_add_mm(void *secs, struct mm_struct *mm)
{
	struct isgx_emu_encl *spare, *encl;
	struct isgx_emu_mm *m, *pos;
	u64 eid;
	int ret;

	ret = isgx_emu_secs_eid(secs, &eid);
	if (ret)
		return ret;
	spare = kzalloc(sizeof(*spare), GFP_KERNEL);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!spare || !m) {
		ret = -ENOMEM;
		goto out;
	}
	spin_lock(&isgx_emu.track_lock);
	encl = isgx_emu_encl_lookup(eid, &spare);
	list_for_each_entry(pos, &encl->mms, link) {
		if (pos->mm == mm) {
			ret = -EEXIST;
			break;
		}
	}
	if (!ret) {
		mmgrab(mm);
		m->mm = mm;
		list_add(&m->link, &encl->mms);
		m = NULL;
	}
	spin_unlock(&isgx_emu.track_lock);
out:
	kfree(m);
	kfree(spare);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_encl_add_mm, ISGX);

static void isgx_emu_encl_free(struct isgx_emu_encl *encl)
{
	struct isgx_emu_mm *m, *tmp;

	list_for_each_entry_safe(m, tmp, &encl->mms, link) {
		mmdrop(m->mm);
		kfree(m);
	}
	kfree(encl->test_mask);
	kfree(encl);
}

/**
 * isgx_emu_encl_del_mm() - @mm no longer maps the enclave of @secs
 * @secs:	the enclave's SECS (resident)
 * @mm:		an mm given to isgx_emu_encl_add_mm()
 *
 * Context: process context, may sleep.
 */
void isgx_emu_encl_del_mm(void *secs, struct mm_struct *mm)
{
	struct isgx_emu_mm *m, *found = NULL;
	struct isgx_emu_encl *encl;
	u64 eid;

	if (isgx_emu_secs_eid(secs, &eid))
		return;
	spin_lock(&isgx_emu.track_lock);
	encl = isgx_emu_encl_lookup(eid, NULL);
	if (encl) {
		list_for_each_entry(m, &encl->mms, link) {
			if (m->mm == mm) {
				list_del(&m->link);
				found = m;
				break;
			}
		}
		/*
		 * Nothing left to know: the driver may evict the SECS and never
		 * load it again, so the object must not wait for its EREMOVE.
		 */
		if (list_empty(&encl->mms) && !encl->test_mask)
			hash_del(&encl->node);
		else
			encl = NULL;
	}
	spin_unlock(&isgx_emu.track_lock);
	if (found) {
		mmdrop(found->mm);
		kfree(found);
	}
	if (encl)
		isgx_emu_encl_free(encl);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_encl_del_mm, ISGX);

/**
 * isgx_emu_mm_forget() - remove @mm from every enclave
 * @mm:		an mm that goes away (e.g. from an mmu_notifier release)
 *
 * Works whether or not the enclaves' SECS pages are resident.
 *
 * Context: process context, may sleep.
 */
void isgx_emu_mm_forget(struct mm_struct *mm)
{
	struct isgx_emu_encl *encl;
	struct isgx_emu_mm *m, *tmp;
	LIST_HEAD(dead);
	unsigned int bkt;

	spin_lock(&isgx_emu.track_lock);
	hash_for_each(isgx_emu.encls, bkt, encl, node)
		list_for_each_entry_safe(m, tmp, &encl->mms, link)
			if (m->mm == mm)
				list_move(&m->link, &dead);
	spin_unlock(&isgx_emu.track_lock);
	list_for_each_entry_safe(m, tmp, &dead, link) {
		mmdrop(m->mm);
		kfree(m);
	}
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_mm_forget, ISGX);

/**
 * isgx_emu_encl_drop() - forget an enclave (its SECS was removed)
 * @eid:	the enclave
 *
 * Context: process context, may sleep.
 */
void isgx_emu_encl_drop(u64 eid)
{
	struct isgx_emu_encl *encl;

	spin_lock(&isgx_emu.track_lock);
	encl = isgx_emu_encl_find(eid);
	if (encl)
		hash_del(&encl->node);
	spin_unlock(&isgx_emu.track_lock);
	if (encl)
		isgx_emu_encl_free(encl);
}

/**
 * isgx_emu_encl_drop_all() - forget every enclave (power loss, unload)
 *
 * Context: process context, may sleep.
 */
void isgx_emu_encl_drop_all(void)
{
	struct isgx_emu_encl *encl;
	struct hlist_node *tmp;
	HLIST_HEAD(dead);
	unsigned int bkt;

	spin_lock(&isgx_emu.track_lock);
	hash_for_each_safe(isgx_emu.encls, bkt, tmp, encl, node) {
		hash_del(&encl->node);
		hlist_add_head(&encl->node, &dead);
	}
	spin_unlock(&isgx_emu.track_lock);
	hlist_for_each_entry_safe(encl, tmp, &dead, node)
		isgx_emu_encl_free(encl);
}

/**
 * isgx_emu_test_set_inside() - declare CPUs inside an enclave (test hook)
 * @secs:	the enclave's SECS (resident)
 * @mask:	CPUs to count as inside until changed, or NULL for none
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL, -ENOMEM.
 */
int isgx_emu_test_set_inside(void *secs, const struct cpumask *mask)
{
	struct isgx_emu_encl *spare, *encl;
	struct cpumask *copy = NULL;
	u64 eid;
	int ret;

	ret = isgx_emu_secs_eid(secs, &eid);
	if (ret)
		return ret;
	spare = kzalloc(sizeof(*spare), GFP_KERNEL);
	if (mask)
		copy = kmalloc(cpumask_size(), GFP_KERNEL);
	if (!spare || (mask && !copy)) {
		ret = -ENOMEM;
		goto out;
	}
	if (mask)
		cpumask_copy(copy, mask);
	spin_lock(&isgx_emu.track_lock);
	encl = isgx_emu_encl_lookup(eid, &spare);
	swap(encl->test_mask, copy);
	spin_unlock(&isgx_emu.track_lock);
out:
	kfree(copy);
	kfree(spare);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_set_inside, ISGX);

/**
 * isgx_emu_test_secs_epoch() - tracking epoch of an enclave (test hook)
 * @secs:	a resident SECS
 *
 * Context: any.
 * Return: E, or U64_MAX if @secs is not in the EPC.
 */
u64 isgx_emu_test_secs_epoch(void *secs)
{
	long sidx = isgx_emu_epc_index(secs);

	return sidx < 0 ? U64_MAX : isgx_emu_track_epoch(sidx);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_secs_epoch, ISGX);

/*
 * The optional AEX tick: a per-CPU hrtimer that AEXes like a timer
 * interrupt would, so that a pager that never kicks eventually succeeds.
 * Off by default, so that a missing IPI fails deterministically.
 */
static DEFINE_PER_CPU(struct hrtimer, isgx_tick);
static DEFINE_MUTEX(isgx_tick_mutex);
static unsigned int aex_tick_us;	/* isgx_tick_mutex */
static bool isgx_tick_ready;		/* isgx_tick_mutex */

static enum hrtimer_restart isgx_tick_fn(struct hrtimer *t)
{
	unsigned int us = READ_ONCE(aex_tick_us);

	if (!us)
		return HRTIMER_NORESTART;
	isgx_emu_aex(NULL);
	hrtimer_forward_now(t, ns_to_ktime((u64)us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static void isgx_tick_start_one(void *info)
{
	unsigned int us = *(unsigned int *)info;

	hrtimer_start(this_cpu_ptr(&isgx_tick),
		      ns_to_ktime((u64)us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED);
}

static void isgx_tick_stop_all(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(per_cpu_ptr(&isgx_tick, cpu));
}

/**
 * isgx_emu_test_set_tick() - set the AEX tick period
 * @us:		period in microseconds, 0 = off, else 100..1000000
 *
 * Context: process context, may sleep.
 * Return: 0 or -EINVAL.
 */
int isgx_emu_test_set_tick(unsigned int us)
{
	if (us && (us < 100 || us > USEC_PER_SEC))
		return -EINVAL;
	mutex_lock(&isgx_tick_mutex);
	WRITE_ONCE(aex_tick_us, 0);
	if (isgx_tick_ready)
		isgx_tick_stop_all();
	WRITE_ONCE(aex_tick_us, us);
	if (us && isgx_tick_ready)
		on_each_cpu(isgx_tick_start_one, &us, 1);
	mutex_unlock(&isgx_tick_mutex);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_set_tick, ISGX);

static int isgx_tick_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int us;
	int ret = kstrtouint(val, 0, &us);

	return ret ? ret : isgx_emu_test_set_tick(us);
}

static const struct kernel_param_ops isgx_tick_param_ops = {
	.set = isgx_tick_param_set,
	.get = param_get_uint,
};
module_param_cb(aex_tick_us, &isgx_tick_param_ops, &aex_tick_us, 0644);
MODULE_PARM_DESC(aex_tick_us, "emu backend: per-CPU AEX tick period in us (0 = off, default; else 100..1000000)");

/**
 * isgx_emu_track_init() - set up the AEX tick
 *
 * Context: process context.
 * Return: 0.
 */
int isgx_emu_track_init(void)
{
	unsigned int us;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct hrtimer *t = per_cpu_ptr(&isgx_tick, cpu);

		hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
		t->function = isgx_tick_fn;
	}
	mutex_lock(&isgx_tick_mutex);
	isgx_tick_ready = true;
	us = aex_tick_us;
	mutex_unlock(&isgx_tick_mutex);
	/* A value given at load time was only stored; start it now. */
	if (us && isgx_emu_test_set_tick(us))
		pr_warn("aex_tick_us=%u ignored\n", us);
	return 0;
}

/**
 * isgx_emu_track_exit() - stop the tick, forget every enclave
 *
 * Context: process context.
 */
void isgx_emu_track_exit(void)
{
	mutex_lock(&isgx_tick_mutex);
	WRITE_ONCE(aex_tick_us, 0);
	if (isgx_tick_ready)
		isgx_tick_stop_all();
	isgx_tick_ready = false;
	mutex_unlock(&isgx_tick_mutex);
	isgx_emu_encl_drop_all();
}
