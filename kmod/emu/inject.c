// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: fidelity knobs and fault injection.
 *
 *  strict_conflicts	try-lock EPC pages and report a conflict (#GP, or
 *			code 7 / 15 from EBLOCK) instead of waiting, to flush
 *			out missing driver locking (spec §7.5)
 *  einit_unmasked_pct	EINIT returns SGX_UNMASKED_EVENT at this rate
 *  power_loss		writing 1 wipes the EPCM and draws a new paging key,
 *			as across S3/S4
 *  power_loss_at	arms a power loss at the next pass of the pager
 *			through a point (isgx_emu_inject_point())
 *  tamper		one ELDU of a chosen page sees one bit of its sealed
 *			contents, PCMD or version flipped, or an older
 *			sealed copy of the page (replay)
 *  (aex_tick_us lives in track.c, lc_allow in einit.c)
 *
 * power_loss_at and tamper are for tests, root only (0600), and act once:
 * they read "none" again when done.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/highmem.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "internal.h"

static int isgx_strict_set(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val, &v);

	if (!ret)
		WRITE_ONCE(isgx_emu.strict, v);
	return ret;
}

static int isgx_strict_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%c\n", READ_ONCE(isgx_emu.strict) ? 'Y' : 'N');
}

static const struct kernel_param_ops isgx_strict_ops = {
	.set = isgx_strict_set,
	.get = isgx_strict_get,
};
module_param_cb(strict_conflicts, &isgx_strict_ops, NULL, 0644);
MODULE_PARM_DESC(strict_conflicts, "emu backend: report concurrent ENCLS on one page as a conflict instead of waiting (default N)");

static int isgx_unmasked_set(const char *val, const struct kernel_param *kp)
{
	unsigned int pct;
	int ret = kstrtouint(val, 0, &pct);

	return ret ? ret : isgx_emu_test_set_unmasked_pct(pct);
}

static int isgx_unmasked_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(isgx_emu.unmasked_pct));
}

static const struct kernel_param_ops isgx_unmasked_ops = {
	.set = isgx_unmasked_set,
	.get = isgx_unmasked_get,
};
module_param_cb(einit_unmasked_pct, &isgx_unmasked_ops, NULL, 0644);
MODULE_PARM_DESC(einit_unmasked_pct, "emu backend: percentage of EINITs that return SGX_UNMASKED_EVENT (0..100, default 0)");

static int isgx_power_loss_set(const char *val, const struct kernel_param *kp)
{
	bool v;
	int ret = kstrtobool(val, &v);

	if (ret || !v)
		return ret ? ret : -EINVAL;
	if (!isgx_emu.epcm)
		return -ENODEV;	/* not loaded yet, or hw backend */
	isgx_emu_power_loss();
	return 0;
}

static const struct kernel_param_ops isgx_power_loss_ops = {
	.set = isgx_power_loss_set,
};
module_param_cb(power_loss, &isgx_power_loss_ops, NULL, 0200);
MODULE_PARM_DESC(power_loss, "emu backend: write 1 to lose the EPC as across S3 (EPCM wiped, new paging key)");

/**
 * isgx_emu_inject_unmasked() - should this EINIT see an unmasked event
 *
 * Context: any.
 * Return: true at the configured rate.
 */
bool isgx_emu_inject_unmasked(void)
{
	unsigned int pct = READ_ONCE(isgx_emu.unmasked_pct);

	return pct && get_random_u32() % 100 < pct;
}

/**
 * isgx_emu_test_set_unmasked_pct() - set the EINIT unmasked-event rate
 * @pct:	0..100
 *
 * Context: any.
 * Return: 0 or -EINVAL.
 */
int isgx_emu_test_set_unmasked_pct(unsigned int pct)
{
	if (pct > 100)
		return -EINVAL;
	WRITE_ONCE(isgx_emu.unmasked_pct, pct);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_set_unmasked_pct, ISGX);

/**
 * isgx_emu_test_set_strict() - switch strict conflict detection
 * @strict:	true to report conflicts instead of waiting
 *
 * Context: any.
 */
void isgx_emu_test_set_strict(bool strict)
{
	WRITE_ONCE(isgx_emu.strict, strict);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_set_strict, ISGX);

/**
 * isgx_emu_test_hold() - pretend another ENCLS is using an EPC page
 * @epc:	EPC page
 * @etrack:	also pretend an ETRACK is running on it (a SECS)
 *
 * Context: any.
 * Return: 0, -EINVAL (not in EPC), -EBUSY (already in use).
 */
int isgx_emu_test_hold(void *epc, bool etrack)
{
	long idx = isgx_emu_epc_index(epc);
	struct isgx_emu_epcm *e;

	if (idx < 0)
		return -EINVAL;
	e = isgx_emu_epcm(idx);
	if (test_and_set_bit_lock(ISGX_EPCM_BUSY, &e->lock))
		return -EBUSY;
	WRITE_ONCE(e->etrack, etrack);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_hold, ISGX);

/**
 * isgx_emu_test_release() - end isgx_emu_test_hold()
 * @epc:	EPC page
 *
 * Context: any.
 */
void isgx_emu_test_release(void *epc)
{
	long idx = isgx_emu_epc_index(epc);
	struct isgx_emu_epcm *e;

	if (idx < 0)
		return;
	e = isgx_emu_epcm(idx);
	WRITE_ONCE(e->etrack, 0);
	clear_bit_unlock(ISGX_EPCM_BUSY, &e->lock);
	/* Order the clear before wake_up_bit()'s waitqueue check. */
	smp_mb__after_atomic();
	wake_up_bit(&e->lock, ISGX_EPCM_BUSY);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_release, ISGX);

/**
 * isgx_emu_test_share() - pretend another ENCLS uses an EPC page shared
 * @epc:	EPC page (a VA page, as EWB and ELDx use theirs)
 *
 * Counts one sharer, as a leaf in flight does until its end: other
 * sharers go on, an exclusive user waits (strict mode: a conflict).
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL (not in EPC), -EBUSY (held exclusively).
 */
int isgx_emu_test_share(void *epc)
{
	struct isgx_emu_lockset ls = {};
	long idx = isgx_emu_epc_index(epc);

	if (idx < 0)
		return -EINVAL;
	isgx_emu_lockset_add_shared(&ls, idx);
	if (isgx_emu_lockset_lock(&ls))
		return -EBUSY;
	return 0;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_share, ISGX);

/**
 * isgx_emu_test_unshare() - end isgx_emu_test_share()
 * @epc:	EPC page
 *
 * Context: any.
 */
void isgx_emu_test_unshare(void *epc)
{
	struct isgx_emu_lockset ls = {};
	long idx = isgx_emu_epc_index(epc);

	if (idx < 0 || WARN_ON_ONCE(atomic_read(&isgx_emu_epcm(idx)->nr_shared) <= 0))
		return;
	isgx_emu_lockset_add_shared(&ls, idx);
	ls.held = ls.nr;
	isgx_emu_lockset_unlock(&ls);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_unshare, ISGX);

/**
 * isgx_emu_test_set_state() - set EPCM PENDING/MODIFIED/PR of a page
 * @epc:	a valid EPC page
 * @state:	SGX_SECINFO_PENDING | SGX_SECINFO_MODIFIED | SGX_SECINFO_PR
 *
 * SGX1 leaves never set these bits (EAUG, EMODT and EMODPR do), so tests
 * of SGX_PAGE_NOT_DEBUGGABLE set them here.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINVAL (not a valid page or bad @state), -EBUSY.
 */
int isgx_emu_test_set_state(void *epc, u64 state)
{
	struct isgx_emu_lockset ls = {};
	long idx = isgx_emu_epc_index(epc);
	struct isgx_emu_epcm *e;
	int ret = 0;

	if (idx < 0 || (state & ~SGX_SECINFO_STATE_MASK))
		return -EINVAL;
	isgx_emu_lockset_add(&ls, idx);
	if (isgx_emu_lockset_lock(&ls))
		return -EBUSY;
	e = isgx_emu_epcm(idx);
	if (e->valid)
		e->flags = (e->flags & ~SGX_SECINFO_STATE_MASK) | state;
	else
		ret = -EINVAL;
	isgx_emu_lockset_unlock(&ls);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_test_set_state, ISGX);

static void (*isgx_emu_power_loss_notify)(void);

/**
 * isgx_emu_set_power_loss_notify() - who to call after a power loss
 * @fn:		called in process context after the EPC is lost; NULL for none
 *
 * The driver registers here what it would run on resume from S3/S4.
 *
 * Context: any.
 */
void isgx_emu_set_power_loss_notify(void (*fn)(void))
{
	WRITE_ONCE(isgx_emu_power_loss_notify, fn);
}

/* The EPC part of a power loss: EPCM wiped, new key, enclave-mm table emptied. */
static void isgx_emu_power_loss_epc(void)
{
	unsigned long i;

	percpu_down_write(&isgx_emu.power_sem);
	for (i = 0; i < isgx_emu.nr_pages; i++) {
		isgx_emu_epcm_invalidate(i);
		atomic_set(&isgx_emu_epcm(i)->nr_children, 0);
		isgx_emu_track_reset(i);
	}
	if (isgx_emu_paging_rekey())
		pr_warn("power loss: new paging key unavailable, key kept\n");
	atomic64_inc(&isgx_emu.power_gen);
	percpu_up_write(&isgx_emu.power_sem);
	isgx_emu_encl_drop_all();
	pr_info("power loss: EPC contents lost\n");
}

/* Tell the driver, as a resume from S3 would. */
static void isgx_emu_power_loss_notify_driver(void)
{
	void (*notify)(void);

	notify = READ_ONCE(isgx_emu_power_loss_notify);
	if (notify)
		notify();
}

/**
 * isgx_emu_power_loss() - lose the EPC, as across S3 or S4
 *
 * Context: process context, may sleep.
 *
 * Every EPCM entry becomes invalid and every page reads as all-ones; the
 * paging key is drawn anew, so that nothing sealed before loads again; the
 * enclave-mm table is emptied.  Running leaves finish first.
 */
void isgx_emu_power_loss(void)
{
	isgx_emu_power_loss_epc();
	isgx_emu_power_loss_notify_driver();
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_power_loss, ISGX);

/**
 * isgx_emu_power_gen() - number of power losses since load
 *
 * Context: any.
 * Return: the count; the driver compares it to notice lost EPC.
 */
u64 isgx_emu_power_gen(void)
{
	return atomic64_read(&isgx_emu.power_gen);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_power_gen, ISGX);

/*
 * power_loss_at: a power loss at the next pass of the pager through a
 * point (enum isgx_emu_point).  The pager may hold enclave locks and an
 * mmap_lock there, which the driver's notification takes: so the EPC is
 * lost at the point itself, and the driver hears of it from a work item,
 * as it would from a resume some time later.  The knob reads the armed
 * point, "firing" until the driver was told, then "none".
 */
static const char * const isgx_emu_point_names[] = {
	[ISGX_EMU_POINT_NONE] = "none",
	[ISGX_EMU_POINT_BLOCKED] = "eblock",
	[ISGX_EMU_POINT_WRITTEN] = "ewb",
};

#define ISGX_EMU_POINT_FIRING	ARRAY_SIZE(isgx_emu_point_names)

static unsigned int isgx_emu_point_armed;

static void isgx_emu_power_loss_work_fn(struct work_struct *work)
{
	isgx_emu_power_loss_notify_driver();
	WRITE_ONCE(isgx_emu_point_armed, ISGX_EMU_POINT_NONE);
}

static DECLARE_WORK(isgx_emu_power_loss_work, isgx_emu_power_loss_work_fn);

static int isgx_power_loss_at_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(isgx_emu_point_names, val);

	if (i < 0)
		return -EINVAL;
	if (!isgx_emu.epcm)
		return -ENODEV;	/* not loaded yet, or hw backend */
	/* A loss on its way stays armed: its driver half has yet to run. */
	if (READ_ONCE(isgx_emu_point_armed) == ISGX_EMU_POINT_FIRING)
		return -EBUSY;
	WRITE_ONCE(isgx_emu_point_armed, i);
	return 0;
}

static int isgx_power_loss_at_get(char *buf, const struct kernel_param *kp)
{
	unsigned int p = READ_ONCE(isgx_emu_point_armed);

	return sysfs_emit(buf, "%s\n", p == ISGX_EMU_POINT_FIRING ? "firing" :
			  isgx_emu_point_names[p]);
}

static const struct kernel_param_ops isgx_power_loss_at_ops = {
	.set = isgx_power_loss_at_set,
	.get = isgx_power_loss_at_get,
};
module_param_cb(power_loss_at, &isgx_power_loss_at_ops, NULL, 0600);
MODULE_PARM_DESC(power_loss_at, "emu backend, tests: lose power at the next pager point: eblock (blocked, before ETRACK and EWB), ewb (after an EWB, before the EPC page is freed) or none");

/**
 * isgx_emu_inject_point() - the pager passes @point: lose power if armed
 * @point:	where the pager is
 *
 * Context: process context, may sleep; outside any ENCLS leaf.  Enclave
 * locks and an mmap_lock may be held: the driver is told later, from a
 * work item.
 */
void isgx_emu_inject_point(enum isgx_emu_point point)
{
	if (likely(READ_ONCE(isgx_emu_point_armed) != point))
		return;
	if (cmpxchg(&isgx_emu_point_armed, point, ISGX_EMU_POINT_FIRING) != point)
		return;
	pr_info("power loss injected at %s\n", isgx_emu_point_names[point]);
	isgx_emu_power_loss_epc();
	schedule_work(&isgx_emu_power_loss_work);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_inject_point, ISGX);

/*
 * tamper: what the next ELDU of a chosen REG/TCS page sees.  Written as
 * WHAT[:LINADDR[:PID]]: LINADDR selects the page (0 or absent: any), PID
 * the process whose fault loads it (0 or absent: any).  WHAT is
 *
 *  contents	one bit of the sealed page flipped
 *  pcmd	one bit of the PCMD flipped (SECINFO, reserved bytes or MAC;
 *		never ENCLAVEID, which the MAC does not cover)
 *  va		one bit of the version in the VA slot flipped
 *  replay	the next such ELDU records the sealed copy it loads, and the
 *		first one after it with another version (the page was evicted
 *		again) is given the recorded copy instead
 *
 * Only what the ELDU reads is changed, not the backing or the VA slot:
 * the driver's copy stays good and a later ELDU of the page succeeds, so
 * a test sees both the refusal and that nothing else was harmed.
 */
enum isgx_emu_tamper {
	ISGX_TAMPER_NONE,
	ISGX_TAMPER_CONTENTS,
	ISGX_TAMPER_PCMD,
	ISGX_TAMPER_VA,
	ISGX_TAMPER_REPLAY,
};

static const char * const isgx_emu_tamper_names[] = {
	[ISGX_TAMPER_NONE] = "none",
	[ISGX_TAMPER_CONTENTS] = "contents",
	[ISGX_TAMPER_PCMD] = "pcmd",
	[ISGX_TAMPER_VA] = "va",
	[ISGX_TAMPER_REPLAY] = "replay",
};

/**
 * struct isgx_emu_tamper_state - the armed tamper
 * @what:	enum isgx_emu_tamper; read without the lock as a hint
 * @linaddr:	page selected, 0 for any
 * @tgid:	process selected, 0 for any
 * @saved:	replay: the recorded sealed contents, or NULL
 * @pcmd:	replay: the recorded PCMD
 * @version:	replay: the version the recorded copy was sealed with
 * @eid:	replay: EID of the enclave it belongs to
 */
struct isgx_emu_tamper_state {
	unsigned int what;
	u64 linaddr;
	pid_t tgid;
	struct page *saved;
	struct isgx_pcmd pcmd;
	u64 version;
	u64 eid;
};

static DEFINE_MUTEX(isgx_emu_tamper_lock);
static struct isgx_emu_tamper_state isgx_emu_tamper;	/* isgx_emu_tamper_lock */

/* Disarm; a recorded copy is freed.  isgx_emu_tamper_lock held. */
static void isgx_emu_tamper_clear(void)
{
	if (isgx_emu_tamper.saved)
		__free_page(isgx_emu_tamper.saved);
	memset(&isgx_emu_tamper, 0, sizeof(isgx_emu_tamper));
}

static int isgx_tamper_set(const char *val, const struct kernel_param *kp)
{
	char buf[64], *s = buf, *what;
	unsigned long long linaddr = 0;
	unsigned int pid = 0;
	int i, ret = 0;

	if (strscpy(buf, val, sizeof(buf)) < 0)
		return -EINVAL;
	what = strsep(&s, ":");
	i = sysfs_match_string(isgx_emu_tamper_names, strim(what));
	if (i < 0)
		return -EINVAL;
	if (s)
		ret = kstrtoull(strsep(&s, ":"), 0, &linaddr);
	if (!ret && s)
		ret = kstrtouint(strim(s), 0, &pid);
	if (ret || (linaddr & ~PAGE_MASK) || pid > PID_MAX_LIMIT)
		return -EINVAL;
	if (!isgx_emu.epcm)
		return -ENODEV;	/* not loaded yet, or hw backend */
	mutex_lock(&isgx_emu_tamper_lock);
	isgx_emu_tamper_clear();
	isgx_emu_tamper.linaddr = linaddr;
	isgx_emu_tamper.tgid = pid;
	WRITE_ONCE(isgx_emu_tamper.what, i);
	mutex_unlock(&isgx_emu_tamper_lock);
	return 0;
}

static int isgx_tamper_get(char *buf, const struct kernel_param *kp)
{
	int n;

	mutex_lock(&isgx_emu_tamper_lock);
	if (isgx_emu_tamper.what == ISGX_TAMPER_NONE)
		n = sysfs_emit(buf, "none\n");
	else
		n = sysfs_emit(buf, "%s:%#llx:%d%s\n",
			       isgx_emu_tamper_names[isgx_emu_tamper.what],
			       isgx_emu_tamper.linaddr, isgx_emu_tamper.tgid,
			       isgx_emu_tamper.saved ? " recorded" : "");
	mutex_unlock(&isgx_emu_tamper_lock);
	return n;
}

static const struct kernel_param_ops isgx_tamper_ops = {
	.set = isgx_tamper_set,
	.get = isgx_tamper_get,
};
module_param_cb(tamper, &isgx_tamper_ops, NULL, 0600);
MODULE_PARM_DESC(tamper, "emu backend, tests: WHAT[:LINADDR[:PID]], WHAT = contents, pcmd, va (one bit flipped), replay (an older sealed copy) or none: what the next ELDU of that page sees");

/* A copy of @in with one random bit flipped, or NULL without memory. */
static struct page *isgx_emu_tamper_copy(struct page *in, const void *src)
{
	struct page *p = alloc_page(GFP_KERNEL);
	u32 bit = get_random_u32() % (PAGE_SIZE * 8);
	u8 *dst;

	if (!p)
		return NULL;
	dst = page_address(p);
	memcpy(dst, src ? src : page_address(in), PAGE_SIZE);
	if (!src)
		dst[bit / 8] ^= BIT(bit % 8);
	return p;
}

/* Flip a bit of @pcmd that the MAC covers: anywhere but ENCLAVEID. */
static void isgx_emu_tamper_pcmd(struct isgx_pcmd *pcmd)
{
	u32 bit = get_random_u32() % ((sizeof(*pcmd) - sizeof(pcmd->enclave_id)) * 8);
	unsigned int byte = bit / 8;

	if (byte >= offsetof(struct isgx_pcmd, enclave_id))
		byte += sizeof(pcmd->enclave_id);
	((u8 *)pcmd)[byte] ^= BIT(bit % 8);
}

/**
 * isgx_emu_inject_eld() - what an ELDU sees, when tamper is armed
 * @pt:		page type from the PCMD
 * @linaddr:	PAGEINFO.LINADDR
 * @eid:	EID of the parent SECS (children)
 * @in:		the sealed contents
 * @pcmd:	the ELDU's copy of the PCMD; may be changed
 * @version:	the ELDU's copy of the VA slot; may be changed
 *
 * Context: inside ELDU/ELDB (power_sem, busy bits and the VA page's share
 * held), may sleep.
 * Return: the page to open: @in, or a page of the caller's to free with
 * __free_page() afterwards.
 */
struct page *isgx_emu_inject_eld(unsigned int pt, u64 linaddr, u64 eid, struct page *in,
				 struct isgx_pcmd *pcmd, u64 *version)
{
	struct isgx_emu_tamper_state *t = &isgx_emu_tamper;
	struct page *ret = in;
	bool done = true;

	if (likely(READ_ONCE(t->what) == ISGX_TAMPER_NONE) || !isgx_emu_pt_is_child(pt))
		return in;
	mutex_lock(&isgx_emu_tamper_lock);
	if (t->what == ISGX_TAMPER_NONE || (t->linaddr && t->linaddr != linaddr) ||
	    (t->tgid && t->tgid != task_tgid_nr(current))) {
		mutex_unlock(&isgx_emu_tamper_lock);
		return in;
	}
	switch (t->what) {
	case ISGX_TAMPER_CONTENTS:
		ret = isgx_emu_tamper_copy(in, NULL);
		done = ret;
		if (!ret)
			ret = in;
		break;
	case ISGX_TAMPER_PCMD:
		isgx_emu_tamper_pcmd(pcmd);
		break;
	case ISGX_TAMPER_VA:
		*version ^= BIT_ULL(get_random_u32() % 64);
		break;
	case ISGX_TAMPER_REPLAY:
		if (!t->saved) {
			/* This is the copy of one eviction: keep it, load it. */
			t->saved = isgx_emu_tamper_copy(in, page_address(in));
			t->pcmd = *pcmd;
			t->version = *version;
			t->eid = eid;
			t->linaddr = linaddr;
			done = false;
		} else if (t->eid == eid && t->version != *version) {
			/* A later eviction's ELDU: the older copy instead. */
			ret = isgx_emu_tamper_copy(in, page_address(t->saved));
			done = ret;
			if (!ret)
				ret = in;
			else
				*pcmd = t->pcmd;
		} else {
			done = false;
		}
		break;
	}
	if (done) {
		pr_info("tamper: ELDU of %#llx sees %s\n", linaddr, isgx_emu_tamper_names[t->what]);
		isgx_emu_tamper_clear();
	}
	mutex_unlock(&isgx_emu_tamper_lock);
	return ret;
}

/**
 * isgx_emu_inject_exit() - reset the knobs at unload
 *
 * Context: process context.
 */
void isgx_emu_inject_exit(void)
{
	WRITE_ONCE(isgx_emu.unmasked_pct, 0);
	flush_work(&isgx_emu_power_loss_work);
	WRITE_ONCE(isgx_emu_point_armed, ISGX_EMU_POINT_NONE);
	mutex_lock(&isgx_emu_tamper_lock);
	isgx_emu_tamper_clear();
	mutex_unlock(&isgx_emu_tamper_lock);
}
