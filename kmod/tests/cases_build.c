// SPDX-License-Identifier: GPL-2.0
/*
 * isgx_emu_test: ECREATE, EADD, EEXTEND, EINIT, measurement, launch
 * control, CPUID, undefined leaves.
 */
#include <linux/cpumask.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <crypto/sha2.h>

#include "test.h"

#define E(t, i)	((t)->epc[i])

/* A SECS is valid iff EBLOCK says PG_IS_SECS; a free page says PG_INVLD. */
#define T_IS_SECS(t, p)	T_RET(t, __eblock(p), SGX_PG_IS_SECS)
#define T_IS_FREE(t, p)	T_RET(t, __eblock(p), SGX_PG_INVLD)

static int isgx_test_ecreate_ok(struct isgx_test_env *t)
{
	struct isgx_secs *s = E(t, 0);

	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE, T_ATTR, 1), 0);
	T_IS_SECS(t, E(t, 0));
	T_CHECK(t, s->base == T_BASE && s->size == T_SIZE &&
		!(s->attributes & SGX_ATTR_INIT), "SECS contents not copied");
	/* The target is now valid: a second ECREATE faults with #PF. */
	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE, T_ATTR, 1), T_PF);
	T_IS_SECS(t, E(t, 0));
	return 0;
}

static int isgx_test_ecreate_operands(struct isgx_test_env *t)
{
	struct isgx_pageinfo *pi = t->pi;

	isgx_test_secs_fill(t, T_BASE, T_SIZE, T_ATTR, 1);
	pi->contents = (unsigned long)t->src;
	pi->metadata = (unsigned long)t->si;
	T_RET(t, __ecreate((void *)pi + 8, E(t, 0)), T_GP);
	T_RET(t, __ecreate(pi, E(t, 0) + 64), T_GP);
	T_RET(t, __ecreate(pi, t->kpage), T_PF);
	pi->addr = T_BASE;
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	pi->addr = 0;
	pi->secs = (unsigned long)E(t, 1);
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	pi->secs = 0;
	pi->metadata = (unsigned long)t->si + 8;
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	pi->metadata = (unsigned long)t->si;
	pi->contents = (unsigned long)t->src + 64;
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	pi->contents = (unsigned long)t->bogus;
	T_RET(t, __ecreate(pi, E(t, 0)), T_PF);
	pi->contents = (unsigned long)t->src;
	t->si->flags = (u64)SGX_PT_REG << SGX_SECINFO_PT_SHIFT;
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	t->si->flags = SGX_SECINFO_R;
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	t->si->flags = 0;
	t->si->reserved[5] = 1;
	T_RET(t, __ecreate(pi, E(t, 0)), T_GP);
	t->si->reserved[5] = 0;
	/* Faults leave the target invalid and reading as all-ones. */
	T_IS_FREE(t, E(t, 0));
	T_CHECK(t, isgx_test_all_ff(E(t, 0)), "faulted target not all-ones");
	T_RET(t, __ecreate(pi, E(t, 0)), 0);
	return 0;
}

static int isgx_test_ecreate_secs_checks(struct isgx_test_env *t)
{
	struct isgx_secs *s = t->src;
	static const struct {
		u64 base, size, attr, xfrm;
		u32 ssa, misc;
	} bad[] = {
		{ T_BASE, 0x3000, T_ATTR, 3, 1, 0 },	/* size not 2^n */
		{ T_BASE, 0x1000, T_ATTR, 3, 1, 0 },	/* size < 8 KiB */
		{ T_BASE + 0x1000, T_SIZE, T_ATTR, 3, 1, 0 }, /* base align */
		{ T_BASE, T_SIZE, T_ATTR, 1, 1, 0 },	/* XFRM SSE missing */
		{ T_BASE, T_SIZE, T_ATTR, 3 | BIT_ULL(9), 1, 0 }, /* XFRM */
		{ T_BASE, T_SIZE, T_ATTR, 3, 0, 0 },	/* SSA too small */
		{ T_BASE, T_SIZE, T_ATTR | SGX_ATTR_INIT, 3, 1, 0 },
		{ T_BASE, T_SIZE, T_ATTR | SGX_ATTR_KSS, 3, 1, 0 },
		{ T_BASE, T_SIZE, T_ATTR | BIT_ULL(3), 3, 1, 0 },
		{ T_BASE, T_SIZE, T_ATTR, 3, 1, 2 },	/* MISCSELECT bit 1 */
		{ BIT_ULL(47), T_SIZE, T_ATTR, 3, 1, 0 },	/* non-canonical */
		{ BIT_ULL(32), T_SIZE, SGX_ATTR_DEBUG, 3, 1, 0 }, /* 32-bit */
		{ 0, BIT_ULL(36), T_ATTR, 3, 1, 0 },	/* > max size */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		isgx_test_secs_fill(t, bad[i].base, bad[i].size, bad[i].attr,
				    bad[i].ssa);
		s->xfrm = bad[i].xfrm;
		s->miscselect = bad[i].misc;
		isgx_test_reset_ops(t);
		t->pi->contents = (unsigned long)t->src;
		t->pi->metadata = (unsigned long)t->si;
		T_CHECK(t, __ecreate(t->pi, E(t, 0)) == T_GP,
			"bad SECS #%u accepted", i);
		T_IS_FREE(t, E(t, 0));
	}
	isgx_test_secs_fill(t, T_BASE, T_SIZE, T_ATTR, 1);
	s->reserved4[100] = 1;
	T_RET(t, __ecreate(t->pi, E(t, 0)), T_GP);
	s->reserved4[100] = 0;
	s->config_id[0] = 1;
	T_RET(t, __ecreate(t->pi, E(t, 0)), T_GP);
	s->config_id[0] = 0;
	s->miscselect = SGX_MISC_EXINFO;
	T_RET(t, __ecreate(t->pi, E(t, 0)), 0);
	T_IS_SECS(t, E(t, 0));
	return 0;
}

static int isgx_test_eadd_ok(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE, T_ATTR, 1), 0);
	isgx_test_pattern(t->src, 1);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x203), 0);
	T_CHECK(t, !memcmp(E(t, 1), t->src, PAGE_SIZE), "EADD did not copy");
	/* Valid target: #PF; the page keeps its contents. */
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE + 0x1000, 0x203),
	      T_PF);
	T_CHECK(t, !memcmp(E(t, 1), t->src, PAGE_SIZE), "page changed");
	/* The SECS now has a child. */
	T_RET(t, __eremove(E(t, 0)), SGX_CHILD_PRESENT);
	return 0;
}

static int isgx_test_eadd_faults(struct isgx_test_env *t)
{
	struct isgx_tcs *tcs = t->src;

	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE, T_ATTR, 1), 0);
	memset(t->src, 0, PAGE_SIZE);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), t->kpage, T_BASE, 0x203), T_PF);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1) + 32, T_BASE, 0x203), T_GP);
	T_RET(t, isgx_test_eadd_raw(t, t->kpage, E(t, 1), T_BASE, 0x203), T_PF);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0) + 8, E(t, 1), T_BASE, 0x203), T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 2), E(t, 1), T_BASE, 0x203), T_PF);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE + 8, 0x203), T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE + T_SIZE, 0x203),
	      T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE - 0x1000, 0x203),
	      T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x302), T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x002), T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x202), T_GP);
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x20b), T_GP);
	tcs->reserved[0] = 1;
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x100), T_GP);
	tcs->reserved[0] = 0;
	isgx_test_reset_ops(t);
	t->pi->addr = T_BASE;
	t->pi->contents = (unsigned long)t->bogus;
	t->pi->metadata = (unsigned long)t->si;
	t->pi->secs = (unsigned long)E(t, 0);
	t->si->flags = 0x203;
	T_RET(t, __eadd(t->pi, E(t, 1)), T_PF);
	/* Nothing was added: the SECS has no child, the target is free. */
	T_IS_FREE(t, E(t, 1));
	T_CHECK(t, isgx_test_all_ff(E(t, 1)), "faulted target not all-ones");
	/* A TCS: RWX forced to 0 and DBGOPTIN/CSSA/AEP/STATE cleared. */
	memset(tcs, 0, PAGE_SIZE);
	tcs->flags = SGX_TCS_DBGOPTIN;
	tcs->ssa_index = 3;
	tcs->exit_addr = 0x1234;
	tcs->nr_ssa_frames = 1;
	T_RET(t, isgx_test_eadd_raw(t, E(t, 0), E(t, 1), T_BASE, 0x107), 0);
	tcs = E(t, 1);
	T_CHECK(t, !tcs->flags && !tcs->ssa_index && !tcs->exit_addr &&
		tcs->nr_ssa_frames == 1, "TCS fields not sanitized");
	return 0;
}

static int isgx_test_eextend_checks(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_build(t, 'b', E(t, 0), E(t, 1), NULL), 0);
	T_RET(t, isgx_test_ecreate(t, E(t, 3), T_BASE, T_SIZE, T_ATTR, 1), 0);
	T_RET(t, __eextend(E(t, 0), E(t, 1) + 16), T_GP);
	T_RET(t, __eextend(E(t, 0) + 16, E(t, 1)), T_GP);
	T_RET(t, __eextend(t->kpage, E(t, 1)), T_PF);
	T_RET(t, __eextend(E(t, 0), t->kpage), T_PF);
	T_RET(t, __eextend(E(t, 0), E(t, 2)), T_PF);	/* free page */
	T_RET(t, __eextend(E(t, 0), E(t, 0)), T_PF);	/* SECS page */
	T_RET(t, __eextend(E(t, 3), E(t, 1)), T_GP);	/* other SECS */
	T_RET(t, __eextend(E(t, 0), E(t, 1) + 0xf00), 0);
	return 0;
}

/* MRENCLAVE of the four vectors of spec §8, through EINIT. */
static int isgx_test_mrenclave(struct isgx_test_env *t, int v)
{
	struct isgx_secs *s = E(t, 0);
	u8 want[32];

	T_CHECK(t, !hex2bin(want, isgx_test_mrenclave_hex[v], 32), "bad vector");
	T_RET(t, isgx_test_build(t, 'a' + v, E(t, 0), E(t, 1), E(t, 2)), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[v], E(t, 0)), 0);
	T_CHECK(t, !memcmp(s->mrenclave, want, 32),
		"MRENCLAVE %*phN, spec says %s", 32, s->mrenclave,
		isgx_test_mrenclave_hex[v]);
	return 0;
}

static int isgx_test_mrenclave_a(struct isgx_test_env *t) { return isgx_test_mrenclave(t, 0); }
static int isgx_test_mrenclave_b(struct isgx_test_env *t) { return isgx_test_mrenclave(t, 1); }
static int isgx_test_mrenclave_c(struct isgx_test_env *t) { return isgx_test_mrenclave(t, 2); }
static int isgx_test_mrenclave_d(struct isgx_test_env *t) { return isgx_test_mrenclave(t, 3); }

static int isgx_test_einit_ok(struct isgx_test_env *t)
{
	struct isgx_secs *s = E(t, 0);

	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	T_CHECK(t, s->attributes & SGX_ATTR_INIT, "INIT not set");
	T_CHECK(t, !memcmp(s->mrsigner, isgx_test_mrsigner, 32), "MRSIGNER %*phN",
		32, s->mrsigner);
	T_CHECK(t, s->isv_prod_id == 0x1234 && s->isv_svn == 7,
		"ISVPRODID/ISVSVN %#x/%u", s->isv_prod_id, s->isv_svn);
	/* After EINIT: EINIT, EADD and EEXTEND fault with #GP. */
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), T_GP);
	T_RET(t, isgx_test_eadd(t, E(t, 0), E(t, 3), T_BASE, 0x203, NULL), T_GP);
	T_IS_FREE(t, E(t, 3));
	T_RET(t, __eextend(E(t, 0), E(t, 1)), T_GP);
	return 0;
}

static int isgx_test_einit_faults(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	memcpy(t->sig, isgx_test_sig[2], sizeof(*t->sig));
	memset(t->tok, 0, sizeof(*t->tok));
	T_RET(t, __einit((void *)t->sig + 64, E(t, 0), t->tok), T_GP);
	T_RET(t, __einit(t->sig, E(t, 0) + 64, t->tok), T_GP);
	T_RET(t, __einit(t->sig, E(t, 0), (void *)t->tok + 256), T_GP);
	T_RET(t, __einit(t->sig, t->kpage, t->tok), T_PF);
	T_RET(t, __einit(t->sig, E(t, 1), t->tok), T_PF);	/* REG page */
	T_RET(t, __einit(t->sig, E(t, 5), t->tok), T_PF);	/* free page */
	T_RET(t, __einit(t->bogus, E(t, 0), t->tok), T_PF);
	/* Still initializable. */
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	return 0;
}

static int isgx_test_einit_sigstruct(struct isgx_test_env *t)
{
	static const unsigned int off[] = {
		0, 4, 15,	/* HEADER */
		16,		/* VENDOR (0x86 -> not 0 or 0x8086) */
		24, 39,		/* HEADER2 */
		44, 127,	/* reserved */
		512,		/* EXPONENT */
		908, 992, 1007, 1028, 1039,	/* reserved */
	};
	u8 *b = (u8 *)t->sig;
	unsigned int i;

	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	for (i = 0; i < ARRAY_SIZE(off); i++) {
		memcpy(t->sig, isgx_test_sig[2], sizeof(*t->sig));
		memset(t->tok, 0, sizeof(*t->tok));
		b[off[i]] ^= 0x86;
		T_CHECK(t, isgx_test_einit_cur(t, E(t, 0)) == SGX_INVALID_SIG_STRUCT,
			"SIGSTRUCT byte %u accepted", off[i]);
	}
	memcpy(t->sig, isgx_test_sig[2], sizeof(*t->sig));
	t->sig->vendor = 0x8086;	/* allowed, but signed: bad signature */
	T_RET(t, isgx_test_einit_cur(t, E(t, 0)), SGX_INVALID_SIGNATURE);
	T_CHECK(t, !(((struct isgx_secs *)E(t, 0))->attributes &
		     SGX_ATTR_INIT), "INIT set after a failed EINIT");
	/* A properly signed ISVFAMILYID without KSS (checked after RSA). */
	T_RET(t, isgx_test_einit(t, isgx_test_sig_c_family, E(t, 0)), SGX_INVALID_SIG_STRUCT);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	return 0;
}

static int isgx_test_einit_signature(struct isgx_test_env *t)
{
	static const unsigned int off[] = {
		516, 700, 899,		/* SIGNATURE */
		1040, 1423,		/* Q1 */
		1424, 1807,		/* Q2 */
		128, 511,		/* MODULUS */
		20, 40, 900, 1024, 1026,	/* signed: DATE, SWDEFINED, ... */
	};
	u8 *b = (u8 *)t->sig;
	unsigned int i;

	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	for (i = 0; i < ARRAY_SIZE(off); i++) {
		memcpy(t->sig, isgx_test_sig[2], sizeof(*t->sig));
		memset(t->tok, 0, sizeof(*t->tok));
		b[off[i]] ^= 0x01;
		T_CHECK(t, isgx_test_einit_cur(t, E(t, 0)) == SGX_INVALID_SIGNATURE,
			"bit flip at SIGSTRUCT byte %u accepted", off[i]);
	}
	T_CHECK(t, !(((struct isgx_secs *)E(t, 0))->attributes &
		     SGX_ATTR_INIT), "INIT set after a failed EINIT");
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	return 0;
}

static int isgx_test_einit_measurement(struct isgx_test_env *t)
{
	/* Enclave B with the SIGSTRUCT of C. */
	T_RET(t, isgx_test_build(t, 'b', E(t, 0), E(t, 1), NULL), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), SGX_INVALID_MEASUREMENT);
	/* Not initialized: the build can go on and then match C. */
	T_RET(t, isgx_test_eadd(t, E(t, 0), E(t, 2), T_BASE + 0x1000, 0x205, NULL), 0);
	T_RET(t, isgx_test_eextend_page(t, E(t, 0), E(t, 2)), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	return 0;
}

static int isgx_test_einit_attributes(struct isgx_test_env *t)
{
	struct isgx_secs *s = E(t, 0);
	int r;

	/* Not a debug enclave; SIGSTRUCT demands DEBUG under its mask. */
	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE, SGX_ATTR_MODE64BIT, 1),
	      0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[0], E(t, 0)), SGX_INVALID_ATTRIBUTE);
	T_RET(t, __eremove(E(t, 0)), 0);
	/* MISCSELECT outside MISCMASK-equal. */
	isgx_test_secs_fill(t, T_BASE, T_SIZE, T_ATTR, 1);
	((struct isgx_secs *)t->src)->miscselect = SGX_MISC_EXINFO;
	isgx_test_reset_ops(t);
	t->pi->contents = (unsigned long)t->src;
	t->pi->metadata = (unsigned long)t->si;
	T_RET(t, __ecreate(t->pi, E(t, 0)), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[0], E(t, 0)), SGX_INVALID_ATTRIBUTE);
	T_RET(t, __eremove(E(t, 0)), 0);
	/* EINITTOKENKEY with the LE hash not matching MRSIGNER. */
	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE,
				   T_ATTR | SGX_ATTR_EINITTOKENKEY, 1), 0);
	memcpy(t->sig, isgx_test_sig_a_lekey, sizeof(*t->sig));
	memset(t->tok, 0, sizeof(*t->tok));
	t->tok->valid = 1;	/* token path: the LE hash is not checked */
	migrate_disable();
	isgx_test_lehash_set(t->src);	/* anything but MRSIGNER */
	r = __einit(t->sig, E(t, 0), t->tok);
	migrate_enable();
	T_CHECK(t, r == SGX_INVALID_ATTRIBUTE, "EINITTOKENKEY: %#x", r);
	T_CHECK(t, !(s->attributes & SGX_ATTR_INIT), "INIT set");
	/* An EINITTOKENKEY enclave whose signer is the LE key launches. */
	T_RET(t, isgx_test_einit(t, isgx_test_sig_a_lekey, E(t, 0)), 0);
	T_RET(t, __eremove(E(t, 0)), 0);
	/* The matching enclave launches. */
	T_RET(t, isgx_test_ecreate(t, E(t, 0), T_BASE, T_SIZE, T_ATTR, 1), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[0], E(t, 0)), 0);
	return 0;
}

static int isgx_test_einit_launch(struct isgx_test_env *t)
{
	u8 other[1][32] = { { 1, 2, 3 } };

	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	memcpy(t->sig, isgx_test_sig[2], sizeof(*t->sig));
	memset(t->tok, 0, sizeof(*t->tok));
	/* LE hash left at Intel's reset value: no launch. */
	migrate_disable();
	{
		static const u64 intel[4] = {
			0xa6053e051270b7acULL, 0x6cfbe8ba8b3b413dULL,
			0xc4916d99f2b3735dULL, 0xd4f8c05909f9bb3bULL,
		};
		int r;

		isgx_encls_lehash_write(intel);
		r = __einit(t->sig, E(t, 0), t->tok);
		migrate_enable();
		T_CHECK(t, r == SGX_INVALID_EINITTOKEN, "reset LE hash: %#x", r);
	}
	/* Token path: reserved bytes, CPUSVN, then the (unforgeable) MAC. */
	t->tok->valid = 1;
	t->tok->reserved1[3] = 1;
	T_RET(t, isgx_test_einit_cur(t, E(t, 0)), SGX_INVALID_EINITTOKEN);
	t->tok->reserved1[3] = 0;
	t->tok->cpusvn_le[0] = 1;
	T_RET(t, isgx_test_einit_cur(t, E(t, 0)), SGX_INVALID_CPUSVN);
	t->tok->cpusvn_le[0] = 0;
	T_RET(t, isgx_test_einit_cur(t, E(t, 0)), SGX_INVALID_EINITTOKEN);
	memset(t->tok, 0, sizeof(*t->tok));
	/* Owner allow-list without our signer. */
	T_RET(t, isgx_emu_test_set_lc_allow(other[0], 1), 0);
	T_RET(t, isgx_test_einit_cur(t, E(t, 0)), SGX_INVALID_EINITTOKEN);
	T_CHECK(t, !(((struct isgx_secs *)E(t, 0))->attributes &
		     SGX_ATTR_INIT), "INIT set");
	/* ... and with it. */
	memcpy(other[0], isgx_test_mrsigner, 32);
	T_RET(t, isgx_emu_test_set_lc_allow(other[0], 1), 0);
	T_RET(t, isgx_test_einit_cur(t, E(t, 0)), 0);
	return 0;
}

static int isgx_test_einit_unmasked(struct isgx_test_env *t)
{
	T_RET(t, isgx_test_build(t, 'c', E(t, 0), E(t, 1), E(t, 2)), 0);
	T_RET(t, isgx_emu_test_set_unmasked_pct(101), -EINVAL);
	T_RET(t, isgx_emu_test_set_unmasked_pct(100), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), SGX_UNMASKED_EVENT);
	T_CHECK(t, !(((struct isgx_secs *)E(t, 0))->attributes &
		     SGX_ATTR_INIT), "INIT set");
	T_RET(t, isgx_emu_test_set_unmasked_pct(0), 0);
	T_RET(t, isgx_test_einit(t, isgx_test_sig[2], E(t, 0)), 0);
	return 0;
}

static int isgx_test_cpuid(struct isgx_test_env *t)
{
	const struct isgx_emu_section *s;
	unsigned int i, n = isgx_emu_nr_sections();
	u32 r[4];

	isgx_encls_cpuid(0, r);
	T_CHECK(t, r[0] == 1 && r[3] == (36 << 8 | 31), "12H.0 %x %x", r[0],
		r[3]);
	isgx_encls_cpuid(1, r);
	T_CHECK(t, !(r[0] & SGX_ATTR_INIT) && (r[0] & SGX_ATTR_DEBUG) &&
		(r[2] & 3) == 3, "12H.1 %x %x", r[0], r[2]);
	for (i = 0; i < n; i++) {
		s = isgx_emu_section_get(i);
		isgx_encls_cpuid(2 + i, r);
		T_CHECK(t, (r[0] & 0xf) == 1 &&
			((u64)(r[1] & 0xfffff) << 32 | (r[0] & ~0xfffU)) ==
			s->phys &&
			((u64)(r[3] & 0xfffff) << 32 | (r[2] & ~0xfffU)) ==
			s->nr_pages * PAGE_SIZE, "section %u", i);
		T_CHECK(t, s->base == phys_to_virt(s->phys),
			"section %u not direct-mapped", i);
	}
	isgx_encls_cpuid(2 + n, r);
	T_CHECK(t, !(r[0] & 0xf), "section list not terminated");
	return 0;
}

static int isgx_test_sgx2_undefined(struct isgx_test_env *t)
{
	unsigned int leaf;

	T_RET(t, isgx_test_std_enclave(t, E(t, 0), E(t, 1)), 0);
	for (leaf = EAUG; leaf <= 0x13; leaf++)
		T_CHECK(t, isgx_emu_encls(leaf, (unsigned long)t->pi,
					  (unsigned long)E(t, 2), 0) == T_GP,
			"leaf %#x did not #GP", leaf);
	T_RET(t, isgx_emu_encls(0xffff, 0, 0, 0), T_GP);
	T_IS_FREE(t, E(t, 2));
	/* The dispatcher reaches defined leaves. */
	T_RET(t, isgx_emu_encls(EBLOCK, 0, (unsigned long)E(t, 0), 0),
	      SGX_PG_IS_SECS);
	return 0;
}

const struct isgx_test_case isgx_test_cases_build[] = {
	{ "ecreate_ok", isgx_test_ecreate_ok },
	{ "ecreate_operand_faults", isgx_test_ecreate_operands },
	{ "ecreate_secs_checks", isgx_test_ecreate_secs_checks },
	{ "eadd_ok", isgx_test_eadd_ok },
	{ "eadd_faults", isgx_test_eadd_faults },
	{ "eextend_checks", isgx_test_eextend_checks },
	{ "mrenclave_vector_a", isgx_test_mrenclave_a },
	{ "mrenclave_vector_b", isgx_test_mrenclave_b },
	{ "mrenclave_vector_c", isgx_test_mrenclave_c },
	{ "mrenclave_vector_d", isgx_test_mrenclave_d },
	{ "einit_ok", isgx_test_einit_ok },
	{ "einit_faults", isgx_test_einit_faults },
	{ "einit_invalid_sig_struct", isgx_test_einit_sigstruct },
	{ "einit_invalid_signature", isgx_test_einit_signature },
	{ "einit_invalid_measurement", isgx_test_einit_measurement },
	{ "einit_invalid_attribute", isgx_test_einit_attributes },
	{ "einit_launch_control", isgx_test_einit_launch },
	{ "einit_unmasked_event", isgx_test_einit_unmasked },
	{ "cpuid_12h", isgx_test_cpuid },
	{ "sgx2_leaves_undefined", isgx_test_sgx2_undefined },
};

const unsigned int isgx_test_nr_cases_build = ARRAY_SIZE(isgx_test_cases_build);
