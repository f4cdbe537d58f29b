// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: building an enclave and measuring it -- ECREATE, EADD, EEXTEND.
 *
 * MRENCLAVE is a plain SHA-256 over 64-byte records (spec §5.1).  The
 * running state lives in the SECS's hidden area; since every record is a
 * whole block, the state between leaves is always at a block boundary.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <asm/cpufeature.h>

#include "../compat.h"
#include "internal.h"

#define ISGX_TAG_ECREATE	0x0045544145524345ULL	/* "ECREATE\0" */
#define ISGX_TAG_EADD		0x0000000044444145ULL	/* "EADD\0\0\0\0" */
#define ISGX_TAG_EEXTEND	0x00444E4554584545ULL	/* "EEXTEND\0" */

/**
 * isgx_emu_measure_ecreate() - start MRENCLAVE with the ECREATE record
 * @priv:	hidden SECS state
 * @secs:	the SECS
 *
 * Context: any.
 */
void isgx_emu_measure_ecreate(struct isgx_emu_secs_priv *priv,
			      const struct isgx_secs *secs)
{
	u8 rec[64] = {};

	put_unaligned_le64(ISGX_TAG_ECREATE, rec);
	put_unaligned_le32(secs->ssa_frame_size, rec + 8);
	put_unaligned_le64(secs->size, rec + 12);
	sha256_init(&priv->sha);
	sha256_update(&priv->sha, rec, sizeof(rec));
}

static bool isgx_emu_all_zero(const void *p, size_t size)
{
	return !memchr_inv(p, 0, size);
}

static u32 isgx_emu_xsave_size(u64 xfrm)
{
	/* Non-compacted XSAVE: legacy 512 + header 64, AVX state 256. */
	return 576 + ((xfrm & 0x4) ? 256 : 0);
}

/* Spec §4.1 step 6: validate the SECS as copied into the EPC page. */
static int isgx_emu_secs_check(const struct isgx_secs *s)
{
	u64 xfrm_allowed = 0x3 | (boot_cpu_has(X86_FEATURE_AVX) ? 0x4 : 0);
	bool mode64 = s->attributes & SGX_ATTR_MODE64BIT;
	u64 misc = (s->miscselect & SGX_MISC_EXINFO) ?
		   SGX_SSA_MISC_EXINFO_SIZE : 0;

	if ((s->xfrm & 0x3) != 0x3 || (s->xfrm & ~xfrm_allowed))
		return ISGX_EMU_GP;
	if (s->miscselect & ~ISGX_EMU_MISC_ALLOWED)
		return ISGX_EMU_GP;
	if ((u64)s->ssa_frame_size * PAGE_SIZE <
	    isgx_emu_xsave_size(s->xfrm) + SGX_SSA_GPRS_SIZE + misc)
		return ISGX_EMU_GP;
	if (mode64 && (s64)(s->base << 16) >> 16 != (s64)s->base)
		return ISGX_EMU_GP;
	if (!mode64 && s->base >= BIT_ULL(32))
		return ISGX_EMU_GP;
	if (s->size >= BIT_ULL(mode64 ? ISGX_EMU_MAX_SIZE_64 :
			       ISGX_EMU_MAX_SIZE_32))
		return ISGX_EMU_GP;
	if (s->size < 8192 || !is_power_of_2(s->size) ||
	    (s->base & (s->size - 1)))
		return ISGX_EMU_GP;
	if (s->attributes & ~ISGX_EMU_ATTR_ALLOWED)
		return ISGX_EMU_GP;
	if (!isgx_emu_all_zero(s->reserved1, sizeof(s->reserved1)) ||
	    !isgx_emu_all_zero(s->reserved2, sizeof(s->reserved2)) ||
	    !isgx_emu_all_zero(s->reserved3, sizeof(s->reserved3)) ||
	    !isgx_emu_all_zero(s->reserved4, sizeof(s->reserved4)))
		return ISGX_EMU_GP;
	/* KSS is not enumerated, so CONFIGID/CONFIGSVN must be zero. */
	if (!isgx_emu_all_zero(s->config_id, sizeof(s->config_id)) ||
	    s->config_svn)
		return ISGX_EMU_GP;
	return 0;
}

/* ECREATE and EADD: the PAGEINFO and target checks, then read PAGEINFO. */
static int isgx_emu_build_operands(struct isgx_pageinfo *pginfo, void *epc,
				   long *idx, struct isgx_pageinfo *pi)
{
	int ret = isgx_emu_pginfo_operands(pginfo, epc, idx);

	return ret ? ret : isgx_emu_read(pi, pginfo, sizeof(*pi));
}

/**
 * isgx_emu_ecreate() - ENCLS[ECREATE]
 * @pginfo:	PAGEINFO: SRCPGE = source SECS, SECINFO, LINADDR = SECS = 0
 * @secs:	the EPC page that becomes the SECS
 *
 * Context: process context, may sleep.
 * Return: 0 or a fault (#GP, #PF); ECREATE has no error codes.
 */
int isgx_emu_ecreate(struct isgx_pageinfo *pginfo, void *secs)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_pageinfo pi;
	struct isgx_secinfo si;
	struct isgx_emu_secs_priv *priv;
	struct isgx_emu_epcm *e;
	struct isgx_secs *s = secs;
	long idx;
	int ret;

	ret = isgx_emu_build_operands(pginfo, secs, &idx, &pi);
	if (ret)
		return ret;
	if (!isgx_emu_aligned((void *)pi.contents, PAGE_SIZE) ||
	    !isgx_emu_aligned((void *)pi.metadata, SGX_SECINFO_ALIGN))
		return ISGX_EMU_GP;
	if (pi.addr || pi.secs)
		return ISGX_EMU_GP;
	ret = isgx_emu_read(&si, (void *)pi.metadata, sizeof(si));
	if (ret)
		return ret;
	if ((si.flags & ~SGX_SECINFO_PT_MASK) ||
	    !isgx_emu_all_zero(si.reserved, sizeof(si.reserved)) ||
	    (si.flags & SGX_SECINFO_PT_MASK) >> SGX_SECINFO_PT_SHIFT !=
	    SGX_PT_SECS)
		return ISGX_EMU_GP;

	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_FREE, idx);
	if (ret)
		return ret;
	e = isgx_emu_epcm(idx);
	/* A source inside the EPC reads as abort page; refuse it as #PF. */
	if (isgx_emu_epc_contains((void *)pi.contents)) {
		ret = ISGX_EMU_PF;
		goto out;
	}
	ret = isgx_emu_read(s, (void *)pi.contents, PAGE_SIZE);
	if (!ret)
		ret = isgx_emu_secs_check(s);
	if (ret) {
		/* Faults leave the target invalid. */
		isgx_emu_page_abort(idx);
		goto out;
	}

	memset(s->mrenclave, 0, sizeof(s->mrenclave));
	memset(s->mrsigner, 0, sizeof(s->mrsigner));
	s->isv_prod_id = 0;
	s->isv_svn = 0;
	priv = isgx_emu_secs_priv(idx);
	priv->eid = atomic64_fetch_inc(&isgx_emu.next_eid);
	isgx_emu_measure_ecreate(priv, s);

	e->pt = SGX_PT_SECS;
	e->flags = 0;
	e->blocked = 0;
	e->enclave_address = 0;
	e->owner = 0;
	atomic_set(&e->nr_children, 0);
	isgx_emu_track_reset(idx);
	e->valid = 1;
out:
	isgx_emu_leaf_end(&ls);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_ecreate, ISGX);

static int isgx_emu_tcs_check(const struct isgx_tcs *tcs, bool mode64)
{
	if (!isgx_emu_all_zero(tcs->reserved, sizeof(tcs->reserved)))
		return ISGX_EMU_GP;
	if (!mode64 && ((tcs->fs_limit & 0xfff) != 0xfff ||
			(tcs->gs_limit & 0xfff) != 0xfff))
		return ISGX_EMU_GP;
	return 0;
}

/**
 * isgx_emu_eadd() - ENCLS[EADD]
 * @pginfo:	PAGEINFO: LINADDR, SRCPGE, SECINFO, SECS
 * @epc:	free EPC page to add
 *
 * Context: process context, may sleep.
 * Return: 0 or a fault (#GP, #PF); EADD has no error codes.
 */
int isgx_emu_eadd(struct isgx_pageinfo *pginfo, void *epc)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_emu_epcm *e;
	struct isgx_emu_secs_priv *priv;
	struct isgx_pageinfo pi;
	struct isgx_secinfo si;
	struct isgx_secs *secs;
	unsigned int pt;
	long idx, sidx;
	u8 rec[64] = {};
	int ret;

	ret = isgx_emu_build_operands(pginfo, epc, &idx, &pi);
	if (ret)
		return ret;
	if (!isgx_emu_aligned((void *)pi.contents, PAGE_SIZE) ||
	    !isgx_emu_aligned((void *)pi.secs, PAGE_SIZE) ||
	    !isgx_emu_aligned((void *)pi.metadata, SGX_SECINFO_ALIGN) ||
	    !isgx_emu_aligned((void *)pi.addr, PAGE_SIZE))
		return ISGX_EMU_GP;
	sidx = isgx_emu_epc_index((void *)pi.secs);
	if (sidx < 0)
		return ISGX_EMU_PF;
	ret = isgx_emu_read(&si, (void *)pi.metadata, sizeof(si));
	if (ret)
		return ret;
	pt = (si.flags & SGX_SECINFO_PT_MASK) >> SGX_SECINFO_PT_SHIFT;
	if ((si.flags & ~(SGX_SECINFO_PT_MASK | SGX_SECINFO_PERM_MASK)) ||
	    !isgx_emu_all_zero(si.reserved, sizeof(si.reserved)) ||
	    (pt != SGX_PT_REG && pt != SGX_PT_TCS))
		return ISGX_EMU_GP;

	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_FREE, idx,
				  sidx);
	if (ret)
		return ret;
	e = isgx_emu_epcm(idx);
	if (!isgx_emu_epcm_is(sidx, SGX_PT_SECS)) {
		ret = ISGX_EMU_PF;
		goto out;
	}
	if (isgx_emu_epc_contains((void *)pi.contents)) {
		ret = ISGX_EMU_PF;
		goto out;
	}
	secs = isgx_emu_epc_page(sidx);
	ret = isgx_emu_read(epc, (void *)pi.contents, PAGE_SIZE);
	if (ret)
		goto out_abort;
	if (pt == SGX_PT_TCS)
		ret = isgx_emu_tcs_check(epc, secs->attributes &
					 SGX_ATTR_MODE64BIT);
	else if ((si.flags & SGX_SECINFO_W) && !(si.flags & SGX_SECINFO_R))
		ret = ISGX_EMU_GP;
	if (ret)
		goto out_abort;
	if (pi.addr < secs->base || pi.addr - secs->base >= secs->size ||
	    (secs->attributes & SGX_ATTR_INIT)) {
		ret = ISGX_EMU_GP;
		goto out_abort;
	}
	if (pt == SGX_PT_TCS) {
		struct isgx_tcs *tcs = epc;

		si.flags &= ~SGX_SECINFO_PERM_MASK;
		tcs->flags &= ~SGX_TCS_DBGOPTIN;
		tcs->ssa_index = 0;
		tcs->exit_addr = 0;
		tcs->state = 0;
	}

	priv = isgx_emu_secs_priv(sidx);
	put_unaligned_le64(ISGX_TAG_EADD, rec);
	put_unaligned_le64(pi.addr - secs->base, rec + 8);
	memcpy(rec + 16, &si, 48);
	sha256_update(&priv->sha, rec, sizeof(rec));

	e->pt = pt;
	e->flags = si.flags & SGX_SECINFO_PERM_MASK;
	e->blocked = 0;
	e->enclave_address = pi.addr;
	e->owner = sidx;
	e->blocked_epoch = 0;
	e->valid = 1;
	atomic_inc(&isgx_emu_epcm(sidx)->nr_children);
	goto out;

out_abort:
	isgx_emu_page_abort(idx);
out:
	isgx_emu_leaf_end(&ls);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_eadd, ISGX);

/**
 * isgx_emu_eextend() - ENCLS[EEXTEND]
 * @secs:	the SECS of the enclave that owns @chunk
 * @chunk:	256-byte aligned address inside a REG or TCS page
 *
 * Context: process context, may sleep.
 * Return: 0 or a fault (#GP, #PF); EEXTEND has no error codes.
 */
int isgx_emu_eextend(void *secs, void *chunk)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_emu_secs_priv *priv;
	struct isgx_emu_epcm *e;
	struct isgx_secs *s = secs;
	long idx, sidx;
	u8 rec[64] = {};
	int ret;

	ret = isgx_emu_epc_operand(secs, PAGE_SIZE, &sidx);
	if (ret)
		return ret;
	ret = isgx_emu_epc_operand(chunk, SGX_CHUNK_SIZE, &idx);
	if (ret)
		return ret;

	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_VALID, idx,
				  sidx);
	if (ret)
		return ret;
	e = isgx_emu_epcm(idx);
	if (e->pt != SGX_PT_REG && e->pt != SGX_PT_TCS) {
		ret = ISGX_EMU_PF;
		goto out;
	}
	if (e->owner != sidx || (s->attributes & SGX_ATTR_INIT)) {
		ret = ISGX_EMU_GP;
		goto out;
	}
	priv = isgx_emu_secs_priv(sidx);
	put_unaligned_le64(ISGX_TAG_EEXTEND, rec);
	put_unaligned_le64(e->enclave_address - s->base +
			   ((unsigned long)chunk & ~PAGE_MASK), rec + 8);
	sha256_update(&priv->sha, rec, sizeof(rec));
	sha256_update(&priv->sha, chunk, SGX_CHUNK_SIZE);
out:
	isgx_emu_leaf_end(&ls);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_eextend, ISGX);
