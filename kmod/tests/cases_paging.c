// SPDX-License-Identifier: GPL-2.0
/*
 * isgx_emu_test: EPA, EBLOCK, ETRACK, EWB, ELDB, ELDU, EREMOVE, EDBGRD,
 * EDBGWR, tracking with real IPIs, the AEX tick, conflicts, power loss.
 *
 * Page roles in most cases: E0 SECS, E1 REG (pattern 0x11 at T_BASE),
 * E2 reload target, E3/E4 VA pages, E5.. spare.
 */
#include <linux/cpumask.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/smp.h>
#include <linux/string.h>
#include "../compat.h"

#include "test.h"

#define E(t, i)		((t)->epc[i])
#define SLOT(t, i, n)	((t)->epc[i] + 8 * (n))
#define T_IS_FREE(t, p)	T_RET(t, __eblock(p), SGX_PG_INVLD)

static u64 isgx_test_slot(void *slot)
{
	return READ_ONCE(*(u64 *)slot);
}

/* Evict E1 of the standard enclave into @slot using backing @i. */
static int isgx_test_std_evict(struct isgx_test_env *t, void *slot, int i)
{
	int ret = __eblock(E(t, 1));

	if (!ret)
		ret = __etrack(E(t, 0));
	return ret ? ret : isgx_test_evict(t, E(t, 1), slot, i);
}

/* Standard enclave + VA page E3 + E1 evicted into slot 0 (backing 0). */
static int isgx_test_std_evicted(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, isgx_test_std_evict(t, SLOT(t, 3, 0), 0), 0);
	return 0;
}

static int isgx_test_check_pattern(struct isgx_test_env *t, void *p, u8 seed)
{
	isgx_test_pattern(t->src, seed);
	T_CHECK(t, !memcmp(p, t->src, PAGE_SIZE), "page contents differ");
	return 0;
}

static int isgx_test_epa(struct isgx_test_env *t)
{
	T_RET(t, __epa(E(t, 3)), 0);
	T_CHECK(t, !memchr_inv(E(t, 3), 0, PAGE_SIZE), "VA page not zeroed");
	T_RET(t, __eblock(E(t, 3)), SGX_NOTBLOCKABLE);
	T_RET(t, __epa(E(t, 3)), T_PF);
	T_RET(t, isgx_emu_epa(SGX_PT_REG, E(t, 4)), T_GP);
	T_RET(t, __epa(E(t, 4) + 8), T_GP);
	T_RET(t, __epa(t->kpage), T_PF);
	T_IS_FREE(t, E(t, 4));
	return 0;
}

static int isgx_test_eblock(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, __eblock(E(t, 1)), SGX_BLKSTATE);
	/* Still blocked (not PAGE_NOT_BLOCKED), not yet tracked. */
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), SGX_NOT_TRACKED);
	T_RET(t, __eblock(E(t, 0)), SGX_PG_IS_SECS);
	T_RET(t, __eblock(E(t, 3)), SGX_NOTBLOCKABLE);
	T_RET(t, __eblock(E(t, 5)), SGX_PG_INVLD);
	T_RET(t, __eblock(E(t, 1) + 8), T_GP);
	T_RET(t, __eblock(t->kpage), T_PF);
	T_TRY(isgx_test_check_pattern(t, E(t, 1), 0x11));
	return 0;
}

static int isgx_test_conflicts(struct isgx_test_env *t)
{
	u64 v = 0;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	isgx_test_pattern(t->src, 0x22);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 2), T_BASE + 0x1000, 0x203), 0);
	isgx_emu_test_set_strict(true);
	T_RET(t, isgx_test_hold(t, E(t, 1), false), 0);
	T_RET(t, __eblock(E(t, 1)), SGX_EPC_PAGE_CONFLICT);
	T_RET(t, __eremove(E(t, 1)), T_GP);
	T_RET(t, __edbgrd(E(t, 1), &v), T_GP);
	isgx_test_release(t, E(t, 1));
	/* The conflicting EBLOCK changed nothing. */
	T_RET(t, __eblock(E(t, 1)), 0);
	/* ETRACK in progress on the SECS. */
	T_RET(t, isgx_test_hold(t, E(t, 0), true), 0);
	T_RET(t, __eblock(E(t, 2)), SGX_ENTRYEPOCH_LOCKED);
	T_RET(t, __etrack(E(t, 0)), T_GP);
	T_RET(t, isgx_test_eadd(t, E(t, 0), E(t, 5), T_BASE, 0x203, NULL), T_GP);
	isgx_test_release(t, E(t, 0));
	T_IS_FREE(t, E(t, 5));
	T_RET(t, __eblock(E(t, 2)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	return 0;
}

/*
 * EWB and ELDU access their VA page shared (their concurrency tables):
 * a leaf in flight on one slot does not hold up another on another slot
 * of the same VA page, while an exclusive user of the page (EREMOVE)
 * conflicts.  Strict mode, so that a wait would show as a conflict.  The
 * share is dropped before the outcomes are judged (the checks record a
 * failure and go on), and only if it was taken.
 */
static int isgx_test_va_shared(struct isgx_test_env *t)
{
	int eldu, ewb, eremove;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	isgx_test_pattern(t->src, 0x22);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 5), T_BASE + 0x1000, 0x203), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, isgx_test_std_evict(t, SLOT(t, 3, 0), 0), 0);
	T_RET(t, __eblock(E(t, 5)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	isgx_emu_test_set_strict(true);
	if (isgx_emu_test_share(E(t, 3))) {
		T_CHECK(t, false, "could not share the VA page");
		return 0;
	}
	eldu = isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0);
	ewb = isgx_test_evict(t, E(t, 5), SLOT(t, 3, 1), 1);
	eremove = __eremove(E(t, 3));
	isgx_emu_test_unshare(E(t, 3));
	T_RET(t, eldu, 0);
	T_RET(t, ewb, 0);
	T_RET(t, eremove, T_GP);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	T_CHECK(t, !isgx_test_slot(SLOT(t, 3, 0)), "ELDU left slot 0 full");
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 1)), "EWB left slot 1 empty");
	return 0;
}

static int isgx_test_etrack(struct isgx_test_env *t)
{
	u64 e0;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	e0 = isgx_emu_test_secs_epoch(E(t, 0));
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);	/* nobody inside: no PREV_TRK */
	T_CHECK(t, isgx_emu_test_secs_epoch(E(t, 0)) == e0 + 2, "epoch");
	T_RET(t, __etrack(E(t, 1)), T_PF);
	T_RET(t, __etrack(E(t, 5)), T_PF);
	T_RET(t, __etrack(E(t, 0) + 64), T_GP);
	T_RET(t, __etrack(t->kpage), T_PF);
	T_CHECK(t, isgx_emu_test_secs_epoch(E(t, 0)) == e0 + 2, "epoch");
	return 0;
}

static int isgx_test_etrack_prev_incomplete(struct isgx_test_env *t)
{
	int other, ret = 0;
	u64 e;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	migrate_disable();
	other = isgx_test_other_cpu();
	if (other < 0) {
		migrate_enable();
		snprintf(t->reason, sizeof(t->reason), "needs 2 CPUs");
		return -EOPNOTSUPP;
	}
	ret = isgx_test_set_inside(t, E(t, 0), cpumask_of(other));
	if (!ret && __etrack(E(t, 0)))
		ret = 1;
	e = isgx_emu_test_secs_epoch(E(t, 0));
	if (!ret && __etrack(E(t, 0)) != SGX_PREV_TRK_INCMPL)
		ret = 2;
	if (!ret && isgx_emu_test_secs_epoch(E(t, 0)) != e)
		ret = 3;
	/* The kick, by a real IPI on the CPU that is inside. */
	if (!ret && smp_call_function_single(other, isgx_emu_aex, NULL, 1))
		ret = 4;
	if (!ret && __etrack(E(t, 0)))
		ret = 5;
	migrate_enable();
	T_CHECK(t, !ret, "step %d", ret);
	return 0;
}

static int isgx_test_ewb_not_blocked(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	memset(t->back[0], 0x5a, PAGE_SIZE);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), SGX_PAGE_NOT_BLOCKED);
	T_TRY(isgx_test_check_pattern(t, E(t, 1), 0x11));
	T_CHECK(t, !isgx_test_slot(SLOT(t, 3, 0)), "slot written");
	T_CHECK(t, !memchr_inv(t->back[0], 0x5a, PAGE_SIZE), "backing written");
	T_RET(t, __eblock(E(t, 1)), 0);	/* valid and was not blocked */
	return 0;
}

static int isgx_test_ewb_not_tracked(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), SGX_NOT_TRACKED);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), SGX_NOT_TRACKED);
	T_TRY(isgx_test_check_pattern(t, E(t, 1), 0x11));
	T_CHECK(t, !isgx_test_slot(SLOT(t, 3, 0)), "slot written");
	T_RET(t, __eblock(E(t, 1)), SGX_BLKSTATE);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), 0);
	return 0;
}

static int isgx_test_ewb_etrack_first(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), SGX_NOT_TRACKED);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), 0);
	return 0;
}

static int isgx_test_ewb_eldu_roundtrip(struct isgx_test_env *t)
{
	struct isgx_pcmd *pcmd = &t->pcmd[0];
	u64 v;

	T_TRY(isgx_test_std_evicted(t));
	T_CHECK(t, isgx_test_all_ff(E(t, 1)), "evicted page not all-ones");
	T_IS_FREE(t, E(t, 1));
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 0)), "VA slot empty");
	T_CHECK(t, t->pi->addr == T_BASE, "PAGEINFO.LINADDR %#llx",
		t->pi->addr);
	T_CHECK(t, pcmd->secinfo.flags == 0x203 && pcmd->enclave_id &&
		!memchr_inv(pcmd->reserved, 0, sizeof(pcmd->reserved)) &&
		!memchr_inv(pcmd->secinfo.reserved, 0, 56),
		"PCMD flags %#llx eid %llu", pcmd->secinfo.flags,
		pcmd->enclave_id);
	isgx_test_pattern(t->src, 0x11);
	T_CHECK(t, memcmp(t->back[0], t->src, PAGE_SIZE), "not encrypted");
	/* The SECS counts no child while its page is out. */
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	T_CHECK(t, !isgx_test_slot(SLOT(t, 3, 0)), "VA slot not cleared");
	T_RET(t, __edbgrd(E(t, 2) + 8, &v), 0);
	T_CHECK(t, v == get_unaligned_le64(t->src + 8), "EDBGRD %#llx", v);
	T_RET(t, __eremove(E(t, 0)), SGX_CHILD_PRESENT);
	T_RET(t, __eblock(E(t, 2)), 0);	/* ELDU leaves it unblocked */
	return 0;
}

static int isgx_test_eldu_replay(struct isgx_test_env *t)
{
	struct isgx_pcmd old;

	T_TRY(isgx_test_std_evicted(t));
	memcpy(t->back[1], t->back[0], PAGE_SIZE);
	old = t->pcmd[0];
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), 0);
	/* The same copy again: the slot is empty now. */
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 0), E(t, 0), T_BASE, 0),
	      SGX_MAC_COMPARE_FAIL);
	T_IS_FREE(t, E(t, 5));
	T_CHECK(t, isgx_test_all_ff(E(t, 5)), "failed target not all-ones");
	/* Evict again into the same slot; then offer the older copy. */
	T_RET(t, __eblock(E(t, 2)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 2), SLOT(t, 3, 0), 2), 0);
	t->pcmd[1] = old;
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 0), E(t, 0), T_BASE, 1),
	      SGX_MAC_COMPARE_FAIL);
	T_IS_FREE(t, E(t, 5));
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 0)), "slot changed by a failed ELDU");
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 0), E(t, 0), T_BASE, 2), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 5), 0x11));
	return 0;
}

static int isgx_test_eldu_tamper(struct isgx_test_env *t)
{
	static const unsigned int back_off[] = { 0, 1, 2049, 4095 };
	struct isgx_pcmd good;
	u64 ver, bit;
	unsigned int i;
	u8 *p;

	T_TRY(isgx_test_std_evicted(t));
	/* A second enclave, to offer the wrong SECS. */
	T_RET(t, isgx_test_ecreate(t, E(t, 6), T_BASE, T_SIZE, T_ATTR, 1), 0);
	good = t->pcmd[0];
	ver = isgx_test_slot(SLOT(t, 3, 0));
	for (i = 0; i < ARRAY_SIZE(back_off); i++) {
		for (bit = 1; bit < 0x100; bit <<= 3) {
			p = t->back[0] + back_off[i];
			*p ^= bit;
			T_CHECK(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0),
						  T_BASE, 0) == SGX_MAC_COMPARE_FAIL,
				"ciphertext byte %u bit %#llx", back_off[i],
				bit);
			*p ^= bit;
		}
	}
	for (i = 0; i < 128; i++) {
		/* A bad PT byte is a #GP; ENCLAVEID is not MACed. */
		if (i == 1 || (i >= 64 && i < 72))
			continue;
		p = (u8 *)&t->pcmd[0] + i;
		*p ^= 0x04;
		T_CHECK(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE,
					  0) == SGX_MAC_COMPARE_FAIL, "PCMD byte %u", i);
		*p ^= 0x04;
	}
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE + 0x1000,
				0), SGX_MAC_COMPARE_FAIL);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 6), T_BASE, 0),
	      SGX_MAC_COMPARE_FAIL);
	*(u64 *)SLOT(t, 3, 0) = ver ^ BIT_ULL(40);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0),
	      SGX_MAC_COMPARE_FAIL);
	*(u64 *)SLOT(t, 3, 0) = ver;
	/* Nothing was committed by the failures. */
	T_IS_FREE(t, E(t, 2));
	T_CHECK(t, isgx_test_all_ff(E(t, 2)), "failed target not all-ones");
	T_CHECK(t, !memcmp(&good, &t->pcmd[0], sizeof(good)), "PCMD restore");
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 0)) == ver, "slot changed");
	/* PCMD.ENCLAVEID is informational, not MACed (spec §2.7). */
	t->pcmd[0].enclave_id ^= 1;
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	return 0;
}

static int isgx_test_eld_faults(struct isgx_test_env *t)
{
	struct isgx_pageinfo *pi = t->pi;
	u64 ver;

	T_TRY(isgx_test_std_evicted(t));
	T_RET(t, isgx_test_ecreate(t, E(t, 6), T_BASE, T_SIZE, T_ATTR, 1), 0);
	isgx_test_pattern(t->src, 0x33);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 6), E(t, 7), T_BASE, 0x203), 0);
	ver = isgx_test_slot(SLOT(t, 3, 0));
	T_RET(t, isgx_test_eldu(t, E(t, 7), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 4, 0), E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 7, 0), E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0) + 4, E(t, 0), T_BASE, 0),
	      T_GP);
	T_RET(t, isgx_test_eldu(t, E(t, 2), t->kpage, E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2) + 64, SLOT(t, 3, 0), E(t, 0), T_BASE, 0),
	      T_GP);
	T_RET(t, isgx_test_eldu(t, t->kpage, SLOT(t, 3, 0), E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), NULL, T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0) + 8, T_BASE, 0),
	      T_GP);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 7), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 5), T_BASE, 0), T_PF);
	pi->metadata += 64;
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_GP);
	T_IS_FREE(t, E(t, 2));
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 0)) == ver, "slot changed by a fault");
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	return 0;
}

static int isgx_test_eld_faults2(struct isgx_test_env *t)
{
	struct isgx_pageinfo *pi = t->pi;
	u64 ver;

	T_TRY(isgx_test_std_evicted(t));
	ver = isgx_test_slot(SLOT(t, 3, 0));
	pi->addr = T_BASE;
	pi->contents = (unsigned long)t->back[0] + 64;
	pi->metadata = (unsigned long)&t->pcmd[0];
	pi->secs = (unsigned long)E(t, 0);
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_GP);
	pi->contents = (unsigned long)t->bogus;
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_PF);
	pi->contents = (unsigned long)t->back[0];
	pi->metadata = (unsigned long)&t->pcmd[0] + 64;
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_GP);
	pi->metadata = (unsigned long)&t->pcmd[0];
	T_RET(t, __eldu((void *)pi + 16, E(t, 2), SLOT(t, 3, 0)), T_GP);
	/* Page type 5 is reserved; SECS/VA types demand PAGEINFO.SECS = 0. */
	t->pcmd[0].secinfo.flags = 0x503;
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_GP);
	t->pcmd[0].secinfo.flags = 0x000;
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_GP);
	t->pcmd[0].secinfo.flags = 0x300;
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), T_GP);
	t->pcmd[0].secinfo.flags = 0x203;
	T_IS_FREE(t, E(t, 2));
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 0)) == ver, "slot changed by a fault");
	T_RET(t, __eldu(pi, E(t, 2), SLOT(t, 3, 0)), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	return 0;
}

static int isgx_test_ewb_faults(struct isgx_test_env *t)
{
	struct isgx_pageinfo *pi = t->pi;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, __epa(E(t, 4)), 0);
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 3), SLOT(t, 3, 1), 0), T_GP);
	T_RET(t, isgx_test_evict(t, E(t, 1), E(t, 1) + 8, 0), T_GP);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 0, 1), 0), T_PF);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 5, 1), 0), T_PF);
	T_RET(t, isgx_test_evict(t, E(t, 1), t->kpage, 0), T_PF);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 1) + 4, 0), T_GP);
	T_RET(t, isgx_test_evict(t, E(t, 1) + 8, SLOT(t, 3, 1), 0), T_GP);
	T_RET(t, isgx_test_evict(t, t->kpage, SLOT(t, 3, 1), 0), T_PF);
	T_RET(t, isgx_test_evict(t, E(t, 5), SLOT(t, 3, 1), 0), T_PF);
	memset(pi, 0, sizeof(*pi));
	pi->contents = (unsigned long)t->back[0];
	pi->metadata = (unsigned long)&t->pcmd[0];
	pi->addr = T_BASE;
	T_RET(t, __ewb(pi, E(t, 1), SLOT(t, 3, 1)), T_GP);
	pi->addr = 0;
	pi->secs = (unsigned long)E(t, 0);
	T_RET(t, __ewb(pi, E(t, 1), SLOT(t, 3, 1)), T_GP);
	pi->secs = 0;
	pi->metadata += 64;
	T_RET(t, __ewb(pi, E(t, 1), SLOT(t, 3, 1)), T_GP);
	pi->metadata -= 64;
	pi->contents += 64;
	T_RET(t, __ewb(pi, E(t, 1), SLOT(t, 3, 1)), T_GP);
	pi->contents = (unsigned long)t->bogus;
	T_RET(t, __ewb(pi, E(t, 1), SLOT(t, 3, 1)), T_PF);
	pi->contents = (unsigned long)E(t, 5);	/* ciphertext into EPC */
	T_RET(t, __ewb(pi, E(t, 1), SLOT(t, 3, 1)), T_PF);
	pi->contents = (unsigned long)t->back[0];
	T_RET(t, __ewb((void *)pi + 8, E(t, 1), SLOT(t, 3, 1)), T_GP);
	/* Nothing happened: still valid, blocked, contents intact. */
	T_CHECK(t, !isgx_test_slot(SLOT(t, 3, 1)), "slot written");
	T_TRY(isgx_test_check_pattern(t, E(t, 1), 0x11));
	T_RET(t, __eblock(E(t, 1)), SGX_BLKSTATE);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 1), 0), 0);
	/* A VA page is evicted without EBLOCK/ETRACK. */
	T_RET(t, isgx_test_evict(t, E(t, 3), SLOT(t, 4, 0), 1), 0);
	T_IS_FREE(t, E(t, 3));
	return 0;
}

static int isgx_test_ewb_child_present(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 0), SLOT(t, 3, 1), 1), SGX_CHILD_PRESENT);
	T_RET(t, __eblock(E(t, 0)), SGX_PG_IS_SECS);
	T_CHECK(t, !isgx_test_slot(SLOT(t, 3, 1)), "slot written");
	/* Blocked children count too. */
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 0), SLOT(t, 3, 1), 1), SGX_CHILD_PRESENT);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), 0);
	/* No children left: the SECS goes, no tracking needed. */
	T_RET(t, isgx_test_evict(t, E(t, 0), SLOT(t, 3, 1), 1), 0);
	T_CHECK(t, t->pcmd[1].enclave_id == t->pcmd[0].enclave_id &&
		t->pcmd[1].secinfo.flags == 0, "SECS PCMD eid %llu/%llu",
		t->pcmd[1].enclave_id, t->pcmd[0].enclave_id);
	T_CHECK(t, isgx_test_all_ff(E(t, 0)), "evicted SECS not all-ones");
	/* A child cannot come back before its SECS. */
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 1), E(t, 0), 0, 1), T_GP);
	/* SECS back at another address, then the child verifies (same EID). */
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 1), NULL, 0, 1), 0);
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 5), T_BASE, 0), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	T_RET(t, __eremove(E(t, 5)), SGX_CHILD_PRESENT);
	return 0;
}

static int isgx_test_ewb_va_slot_occupied(struct isgx_test_env *t)
{
	u64 v1;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	isgx_test_pattern(t->src, 0x22);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 2), T_BASE + 0x1000, 0x203), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, isgx_test_std_evict(t, SLOT(t, 3, 7), 0), 0);
	v1 = isgx_test_slot(SLOT(t, 3, 7));
	T_RET(t, __eblock(E(t, 2)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 2), SLOT(t, 3, 7), 1), SGX_VA_SLOT_OCCUPIED);
	/* Evicted anyway; the old version is gone. */
	T_IS_FREE(t, E(t, 2));
	T_CHECK(t, isgx_test_slot(SLOT(t, 3, 7)) && isgx_test_slot(SLOT(t, 3, 7)) != v1,
		"slot not overwritten");
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 7), E(t, 0), T_BASE, 0),
	      SGX_MAC_COMPARE_FAIL);
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 7), E(t, 0), T_BASE + 0x1000,
				1), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 5), 0x22));
	return 0;
}

static int isgx_test_va_eviction(struct isgx_test_env *t)
{
	T_TRY(isgx_test_std_evicted(t));
	T_RET(t, __epa(E(t, 4)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 3), SLOT(t, 4, 2), 1), 0);
	T_CHECK(t, t->pcmd[1].enclave_id == 0 &&
		t->pcmd[1].secinfo.flags == 0x300, "VA PCMD");
	/* The versions held by the evicted VA page are out of reach. */
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 3, 0), E(t, 0), T_BASE, 0), T_PF);
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 4, 2), NULL, 0, 1), 0);
	T_CHECK(t, isgx_test_slot(SLOT(t, 5, 0)), "VA slots not restored");
	T_RET(t, isgx_test_eldu(t, E(t, 2), SLOT(t, 5, 0), E(t, 0), T_BASE, 0), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	return 0;
}

static int isgx_test_eldb(struct isgx_test_env *t)
{
	struct isgx_pageinfo *pi = t->pi;

	T_TRY(isgx_test_std_evicted(t));
	pi->addr = T_BASE;
	pi->contents = (unsigned long)t->back[0];
	pi->metadata = (unsigned long)&t->pcmd[0];
	pi->secs = (unsigned long)E(t, 0);
	T_RET(t, __eldb(pi, E(t, 2), SLOT(t, 3, 0)), 0);
	T_TRY(isgx_test_check_pattern(t, E(t, 2), 0x11));
	T_RET(t, __eblock(E(t, 2)), SGX_BLKSTATE);
	T_RET(t, isgx_test_evict(t, E(t, 2), SLOT(t, 3, 0), 1), SGX_NOT_TRACKED);
	T_RET(t, __etrack(E(t, 0)), 0);
	T_RET(t, isgx_test_evict(t, E(t, 2), SLOT(t, 3, 0), 1), 0);
	return 0;
}

/* EWB after ETRACK while a CPU is inside: the kick is a real IPI. */
static int isgx_test_ewb_tracking_ipi(struct isgx_test_env *t)
{
	int other, step = 0, r = 0;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	migrate_disable();
	other = isgx_test_other_cpu();
	if (other < 0) {
		migrate_enable();
		snprintf(t->reason, sizeof(t->reason), "needs 2 CPUs");
		return -EOPNOTSUPP;
	}
	if (isgx_test_set_inside(t, E(t, 0), cpumask_of(other)))
		step = 1;
	if (!step && (__eblock(E(t, 1)) || __etrack(E(t, 0))))
		step = 2;
	if (!step) {
		r = isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0);
		if (r != SGX_NOT_TRACKED)
			step = 3;
	}
	/* A kick on the wrong CPU (this one) does not help. */
	if (!step) {
		isgx_emu_aex(NULL);
		r = isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0);
		if (r != SGX_NOT_TRACKED)
			step = 4;
	}
	if (!step && smp_call_function_single(other, isgx_emu_aex, NULL, 1))
		step = 5;
	if (!step) {
		r = isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0);
		if (r)
			step = 6;
	}
	migrate_enable();
	T_CHECK(t, !step, "step %d: %#x", step, r);
	T_IS_FREE(t, E(t, 1));
	return 0;
}

static int isgx_test_aex_tick(struct isgx_test_env *t)
{
	int other, i, r = -1;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	migrate_disable();
	other = isgx_test_other_cpu();
	migrate_enable();
	if (other < 0) {
		snprintf(t->reason, sizeof(t->reason), "needs 2 CPUs");
		return -EOPNOTSUPP;
	}
	/* Inside on every CPU but this one's: migration cannot matter. */
	T_RET(t, isgx_test_set_inside(t, E(t, 0), cpu_online_mask), 0);
	T_RET(t, isgx_emu_test_set_tick(50), -EINVAL);
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, __etrack(E(t, 0)), 0);
	msleep(20);
	T_RET(t, isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0), SGX_NOT_TRACKED);
	T_RET(t, isgx_emu_test_set_tick(1000), 0);
	for (i = 0; i < 200 && r; i++) {
		usleep_range(5000, 6000);
		r = isgx_test_evict(t, E(t, 1), SLOT(t, 3, 0), 0);
	}
	T_RET(t, isgx_emu_test_set_tick(0), 0);
	T_CHECK(t, !r, "EWB with the tick on: %#x", r);
	return 0;
}

static int isgx_test_eremove(struct isgx_test_env *t)
{
	int other;

	T_RET(t, __eremove(E(t, 5)), 0);
	T_RET(t, __eremove(E(t, 5) + 8), T_GP);
	T_RET(t, __eremove(t->kpage), T_PF);
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, __eremove(E(t, 0)), SGX_CHILD_PRESENT);
	T_RET(t, __eblock(E(t, 0)), SGX_PG_IS_SECS);
	migrate_disable();
	other = isgx_test_other_cpu();
	migrate_enable();
	if (other >= 0) {
		/* Every other CPU inside. */
		T_RET(t, isgx_test_set_inside(t, E(t, 0), cpu_online_mask), 0);
		T_RET(t, __eremove(E(t, 1)), SGX_ENCLAVE_ACT);
		T_TRY(isgx_test_check_pattern(t, E(t, 1), 0x11));
		T_RET(t, isgx_test_set_inside(t, E(t, 0), NULL), 0);
	}
	T_RET(t, __eblock(E(t, 1)), 0);
	T_RET(t, __eremove(E(t, 1)), 0);	/* blocked pages go too */
	T_CHECK(t, isgx_test_all_ff(E(t, 1)), "removed page not all-ones");
	T_RET(t, __eremove(E(t, 0)), 0);
	T_CHECK(t, isgx_test_all_ff(E(t, 0)), "removed SECS not all-ones");
	T_RET(t, __eremove(E(t, 0)), 0);	/* idempotent */
	/* A VA page with versions in it is removed anyway. */
	T_RET(t, __epa(E(t, 3)), 0);
	*(u64 *)SLOT(t, 3, 0) = 1234;
	T_RET(t, __eremove(E(t, 3)), 0);
	if (other < 0) {
		snprintf(t->reason, sizeof(t->reason),
			 "ENCLAVE_ACT part needs 2 CPUs");
		return -EOPNOTSUPP;
	}
	return 0;
}

static int isgx_test_edbg(struct isgx_test_env *t)
{
	u64 v = 0, w = 0x1122334455667788ULL;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	memset(t->src, 0, PAGE_SIZE);
	((struct isgx_tcs *)t->src)->nr_ssa_frames = 1;
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 2), T_BASE + 0x1000, 0x100), 0);
	T_RET(t, __edbgrd(E(t, 1) + 8, &v), 0);
	T_CHECK(t, v == get_unaligned_le64(E(t, 1) + 8), "EDBGRD");
	T_RET(t, __edbgwr(E(t, 1) + 16, &w), 0);
	T_RET(t, __edbgrd(E(t, 1) + 16, &v), 0);
	T_CHECK(t, v == w, "EDBGWR/EDBGRD %#llx", v);
	w = SGX_TCS_DBGOPTIN;
	T_RET(t, __edbgwr(E(t, 2) + 8, &w), 0);
	T_RET(t, __edbgrd(E(t, 2) + 8, &v), 0);
	T_CHECK(t, v == SGX_TCS_DBGOPTIN, "TCS.FLAGS %#llx", v);
	T_RET(t, __edbgwr(E(t, 2) + 16, &w), T_GP);
	T_RET(t, __edbgrd(E(t, 2) + 24, &v), 0);
	T_RET(t, __edbgrd(E(t, 2) + 2048, &v), T_GP);
	T_RET(t, __edbgrd(E(t, 0), &v), T_PF);
	T_RET(t, __edbgrd(E(t, 5), &v), T_PF);
	T_RET(t, __edbgrd(E(t, 1) + 4, &v), T_GP);
	T_RET(t, __edbgrd(t->kpage, &v), T_PF);
	T_RET(t, __edbgrd(E(t, 1), t->bogus), T_PF);
	T_RET(t, __edbgwr(E(t, 1), t->bogus), T_PF);
	/* PENDING / MODIFIED pages are not debuggable. */
	T_RET(t, isgx_emu_test_set_state(E(t, 1), SGX_SECINFO_PENDING), 0);
	T_RET(t, __edbgrd(E(t, 1), &v), SGX_PAGE_NOT_DEBUGGABLE);
	T_RET(t, isgx_emu_test_set_state(E(t, 1), SGX_SECINFO_MODIFIED), 0);
	T_RET(t, __edbgwr(E(t, 1), &w), SGX_PAGE_NOT_DEBUGGABLE);
	T_RET(t, isgx_emu_test_set_state(E(t, 1), 0), 0);
	T_RET(t, __edbgrd(E(t, 1), &v), 0);
	/* VA slots read as 0 or all-ones; EDBGWR refuses VA pages. */
	T_RET(t, __epa(E(t, 3)), 0);
	T_RET(t, __edbgrd(SLOT(t, 3, 1), &v), 0);
	T_CHECK(t, v == 0, "empty VA slot %#llx", v);
	T_RET(t, isgx_test_std_evict(t, SLOT(t, 3, 1), 0), 0);
	T_RET(t, __edbgrd(SLOT(t, 3, 1), &v), 0);
	T_CHECK(t, v == ~0ULL, "used VA slot %#llx", v);
	T_RET(t, __edbgwr(SLOT(t, 3, 1), &w), T_PF);
	/* Not a debug enclave: #GP. */
	T_RET(t, isgx_test_ecreate(t, E(t, 6), T_BASE, T_SIZE, SGX_ATTR_MODE64BIT, 1),
	      0);
	T_RET(t, isgx_test_eadd(t, E(t, 6), E(t, 7), T_BASE, 0x203, NULL), 0);
	T_RET(t, __edbgrd(E(t, 7), &v), T_GP);
	T_RET(t, __edbgwr(E(t, 7), &w), T_GP);
	return 0;
}

static int isgx_test_power_loss(struct isgx_test_env *t)
{
	u64 gen = isgx_emu_power_gen(), vc, vs;
	int i;

	T_TRY(isgx_test_std_evicted(t));
	T_RET(t, isgx_test_evict(t, E(t, 0), SLOT(t, 3, 1), 1), 0);
	vc = isgx_test_slot(SLOT(t, 3, 0));
	vs = isgx_test_slot(SLOT(t, 3, 1));
	T_RET(t, isgx_test_std_enclave(t, E(t, 6), E(t, 7)), 0);
	isgx_emu_power_loss();
	T_CHECK(t, isgx_emu_power_gen() == gen + 1, "power_gen");
	for (i = 0; i < 8; i++) {
		T_CHECK(t, isgx_test_all_ff(E(t, i)), "page %d survived", i);
		T_IS_FREE(t, E(t, i));
	}
	/* Even with the versions put back, the old key is gone. */
	T_RET(t, __epa(E(t, 3)), 0);
	*(u64 *)SLOT(t, 3, 0) = vc;
	*(u64 *)SLOT(t, 3, 1) = vs;
	T_RET(t, isgx_test_eldu(t, E(t, 5), SLOT(t, 3, 1), NULL, 0, 1),
	      SGX_MAC_COMPARE_FAIL);
	T_IS_FREE(t, E(t, 5));
	/* The machine works after the loss. */
	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	return 0;
}

/**
 * struct isgx_test_pager - one side of the concurrent paging case
 * @t:		test environment
 * @page:	the REG page this side evicts and reloads
 * @slot:	its VA slot
 * @back:	its backing index
 * @lin:	its LINADDR
 * @seed:	its pattern
 * @ret:	first failure: ENCLS code, or -EIO for bad contents
 * @done:	completed when the kthread side has finished
 */
struct isgx_test_pager {
	struct isgx_test_env *t;
	void *page, *slot;
	int back;
	u64 lin;
	u8 seed;
	int ret;
	struct completion done;
};

#define T_PAGER_ROUNDS	16

/* The pager's own PAGEINFO and PCMD live in its backing area's ops. */
static int isgx_test_pager_round(struct isgx_test_pager *p,
				 struct isgx_pageinfo *pi)
{
	struct isgx_test_env *t = p->t;
	u8 *want = t->back[p->back + 2];
	int r;

	r = __eblock(p->page);
	if (!r)
		r = __etrack(E(t, 0));
	if (r)
		return r;
	memset(pi, 0, sizeof(*pi));
	pi->contents = (unsigned long)t->back[p->back];
	pi->metadata = (unsigned long)&t->pcmd[p->back];
	r = __ewb(pi, p->page, p->slot);
	if (r)
		return r;
	pi->addr = p->lin;
	pi->secs = (unsigned long)E(t, 0);
	r = __eldu(pi, p->page, p->slot);
	if (!r && memcmp(p->page, want, PAGE_SIZE))
		r = -EIO;
	return r;
}

static void isgx_test_pager_run(struct isgx_test_pager *p)
{
	struct isgx_pageinfo *pi = (void *)p->t->ops + 2048 + 64 * p->back;
	int i;

	for (i = 0; i < T_PAGER_ROUNDS && !p->ret; i++) {
		p->ret = isgx_test_pager_round(p, pi);
		cond_resched();
	}
}

static int isgx_test_pager_fn(void *data)
{
	struct isgx_test_pager *p = data;

	isgx_test_pager_run(p);
	/* Never return into module text that may be unloaded meanwhile. */
	kthread_complete_and_exit(&p->done, 0);
}

/* Two CPUs page two pages of one enclave at once (locks, KASAN, lockdep). */
static int isgx_test_concurrent_paging(struct isgx_test_env *t)
{
	struct isgx_test_pager p[2] = {
		{ .t = t, .page = E(t, 1), .slot = SLOT(t, 3, 0), .back = 0,
		  .lin = T_BASE, .seed = 0x11 },
		{ .t = t, .page = E(t, 2), .slot = SLOT(t, 3, 1), .back = 1,
		  .lin = T_BASE + 0x1000, .seed = 0x22 },
	};
	struct task_struct *k;
	int i;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	isgx_test_pattern(t->src, 0x22);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 2), T_BASE + 0x1000,
				    0x203), 0);
	T_RET(t, __epa(E(t, 3)), 0);
	for (i = 0; i < 2; i++)
		isgx_test_pattern(t->back[i + 2], p[i].seed);
	init_completion(&p[1].done);
	k = kthread_run(isgx_test_pager_fn, &p[1], "isgx_test_pager");
	if (IS_ERR(k)) {
		T_CHECK(t, 0, "kthread_run: %ld", PTR_ERR(k));
		return 0;
	}
	isgx_test_pager_run(&p[0]);
	wait_for_completion(&p[1].done);
	T_CHECK(t, !p[0].ret && !p[1].ret, "pagers: %#x %#x", p[0].ret,
		p[1].ret);
	return 0;
}

static int isgx_test_encl_mm(struct isgx_test_env *t)
{
	struct mm_struct *mm = current->mm;

	if (!mm) {
		snprintf(t->reason, sizeof(t->reason), "no mm");
		return -EOPNOTSUPP;
	}
	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	T_RET(t, isgx_emu_encl_add_mm(E(t, 0), mm), 0);
	T_RET(t, isgx_emu_encl_add_mm(E(t, 0), mm), -EEXIST);
	T_RET(t, isgx_emu_encl_add_mm(E(t, 1), mm), -EINVAL);
	T_RET(t, isgx_emu_encl_add_mm(E(t, 5), mm), -EINVAL);
	T_RET(t, isgx_emu_encl_add_mm(t->kpage, mm), -EINVAL);
	isgx_emu_encl_del_mm(E(t, 0), mm);
	T_RET(t, isgx_emu_encl_add_mm(E(t, 0), mm), 0);
	isgx_emu_mm_forget(mm);
	/*
	 * EREMOVE of a SECS drops the record and its mm reference (kmemleak
	 * would see a leak).  A childless SECS, since whether a child can be
	 * removed now depends on where this mm last ran (lazy TLB).
	 */
	T_RET(t, isgx_test_ecreate(t, E(t, 5), T_BASE, T_SIZE, T_ATTR, 1), 0);
	T_RET(t, isgx_emu_encl_add_mm(E(t, 5), mm), 0);
	T_RET(t, __eremove(E(t, 5)), 0);
	return 0;
}

const struct isgx_test_case isgx_test_cases_paging[] = {
	{ "epa", isgx_test_epa },
	{ "eblock", isgx_test_eblock },
	{ "strict_conflicts", isgx_test_conflicts },
	{ "va_page_shared_by_ewb_and_eldu", isgx_test_va_shared },
	{ "etrack", isgx_test_etrack },
	{ "etrack_prev_trk_incmpl", isgx_test_etrack_prev_incomplete },
	{ "ewb_page_not_blocked", isgx_test_ewb_not_blocked },
	{ "ewb_not_tracked", isgx_test_ewb_not_tracked },
	{ "ewb_etrack_before_eblock", isgx_test_ewb_etrack_first },
	{ "ewb_eldu_roundtrip", isgx_test_ewb_eldu_roundtrip },
	{ "eldu_replay", isgx_test_eldu_replay },
	{ "eldu_tamper", isgx_test_eldu_tamper },
	{ "eldu_faults", isgx_test_eld_faults },
	{ "eldu_operand_faults", isgx_test_eld_faults2 },
	{ "ewb_faults", isgx_test_ewb_faults },
	{ "ewb_child_present", isgx_test_ewb_child_present },
	{ "ewb_va_slot_occupied", isgx_test_ewb_va_slot_occupied },
	{ "va_page_eviction", isgx_test_va_eviction },
	{ "eldb", isgx_test_eldb },
	{ "ewb_tracking_ipi", isgx_test_ewb_tracking_ipi },
	{ "aex_tick", isgx_test_aex_tick },
	{ "eremove", isgx_test_eremove },
	{ "edbgrd_edbgwr", isgx_test_edbg },
	{ "power_loss", isgx_test_power_loss },
	{ "encl_mm_registration", isgx_test_encl_mm },
	{ "concurrent_paging", isgx_test_concurrent_paging },
};

const unsigned int isgx_test_nr_cases_paging = ARRAY_SIZE(isgx_test_cases_paging);
