// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: EPC paging -- EPA, EBLOCK, EWB, ELDB, ELDU and their crypto.
 *
 * EWB seals a page with AES-GCM-128 (the crypto API's gcm(aes), aesni when
 * loaded) under a key drawn at load time and redrawn at power loss:
 *
 *   IV  = 0x00000000 || version (u64 LE)    96 bits
 *   AAD = the 128-byte MAC header below
 *   PT  = the 4096-byte page                 tag -> PCMD.MAC
 *
 * The version comes from a global 64-bit counter that starts at 1 and only
 * grows, so no (key, nonce) pair is ever used twice; it is stored in the VA
 * slot.  ELDU decrypts with the slot's version and commits nothing -- no
 * EPCM change, no slot change -- unless the tag matches; on success it
 * clears the slot, so an older or replayed copy can never load again.
 *
 * MAC header layout (spec §2.11 leaves it to the implementation):
 *   0   EID of the parent SECS (REG/TCS/TRIM), 0 for SECS and VA
 *   8   LINADDR
 *   16  SECINFO: FLAGS = PT | R/W/X | PENDING | MODIFIED | PR, 56 zero bytes
 *   80  the 40 reserved bytes of the PCMD
 *   120 zero
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/mm.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/scatterlist.h>
#include <linux/hashtable.h>
#include <linux/kmod.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>
#include <crypto/gcm.h>

#include "../compat.h"
#include "internal.h"

#define ISGX_MAC_HDR_SIZE	128
#define ISGX_MAC_SIZE		16

/**
 * struct isgx_mac_hdr - the authenticated header of a sealed page
 * @eid:	parent enclave EID, or 0
 * @linaddr:	enclave linear address of the page
 * @secinfo_flags:	SECINFO.FLAGS: type and permissions
 * @secinfo_reserved:	rest of the SECINFO
 * @reserved:	PCMD reserved bytes
 * @zero:	pad to 128 bytes
 */
struct isgx_mac_hdr {
	u64 eid;
	u64 linaddr;
	u64 secinfo_flags;
	u8 secinfo_reserved[56];
	u8 reserved[40];
	u8 zero[8];
} __packed;
static_assert(sizeof(struct isgx_mac_hdr) == ISGX_MAC_HDR_SIZE);

/**
 * struct isgx_crypt - per-operation crypto scratch, never on the stack
 * @hdr:	AAD
 * @tag:	GCM tag
 * @iv:		GCM IV
 * @src:	source scatterlist
 * @dst:	destination scatterlist
 * @req:	the AEAD request; its context follows
 */
struct isgx_crypt {
	struct isgx_mac_hdr hdr;
	u8 tag[ISGX_MAC_SIZE];
	u8 iv[GCM_AES_IV_SIZE];
	struct scatterlist src[3];
	struct scatterlist dst[3];
	struct aead_request req;
};

/* struct page of a page-aligned kernel address outside the EPC, or NULL. */
static struct page *isgx_emu_kpage(const void *addr)
{
	if (isgx_emu_epc_contains(addr))
		return NULL;
	if (is_vmalloc_addr(addr))
		return vmalloc_to_page(addr);
	if (virt_addr_valid(addr))
		return virt_to_page(addr);
	return NULL;
}

static struct isgx_crypt *isgx_crypt_alloc(void)
{
	struct isgx_crypt *c;

	c = kzalloc(sizeof(*c) + crypto_aead_reqsize(isgx_emu.aead),
		    GFP_KERNEL);
	if (c)
		aead_request_set_tfm(&c->req, isgx_emu.aead);
	return c;
}

/*
 * Seal (@enc) or open one page.  @in and @out are struct pages of 4 KiB;
 * the tag is c->tag.  Return 0, -EBADMSG on a tag mismatch, or another
 * negative errno.
 */
static int isgx_crypt_page(struct isgx_crypt *c, bool enc, u64 version,
			   struct page *in, struct page *out)
{
	DECLARE_CRYPTO_WAIT(wait);
	unsigned int len = PAGE_SIZE;

	memset(c->iv, 0, 4);
	put_unaligned_le64(version, c->iv + 4);
	sg_init_table(c->src, enc ? 2 : 3);
	sg_set_buf(&c->src[0], &c->hdr, ISGX_MAC_HDR_SIZE);
	sg_set_page(&c->src[1], in, PAGE_SIZE, 0);
	sg_init_table(c->dst, enc ? 3 : 2);
	sg_set_buf(&c->dst[0], &c->hdr, ISGX_MAC_HDR_SIZE);
	sg_set_page(&c->dst[1], out, PAGE_SIZE, 0);
	if (enc) {
		sg_set_buf(&c->dst[2], c->tag, ISGX_MAC_SIZE);
	} else {
		sg_set_buf(&c->src[2], c->tag, ISGX_MAC_SIZE);
		len += ISGX_MAC_SIZE;
	}
	aead_request_set_callback(&c->req, CRYPTO_TFM_REQ_MAY_SLEEP |
				  CRYPTO_TFM_REQ_MAY_BACKLOG,
				  crypto_req_done, &wait);
	aead_request_set_ad(&c->req, ISGX_MAC_HDR_SIZE);
	aead_request_set_crypt(&c->req, c->src, c->dst, len, c->iv);
	return crypto_wait_req(enc ? crypto_aead_encrypt(&c->req) :
			       crypto_aead_decrypt(&c->req), &wait);
}

static struct crypto_aead *isgx_emu_aead_new(void)
{
	struct crypto_aead *tfm;
	u8 key[16];
	int ret;

	tfm = crypto_alloc_aead("gcm(aes)", 0, 0);
	if (IS_ERR(tfm))
		return tfm;
	get_random_bytes(key, sizeof(key));
	ret = crypto_aead_setkey(tfm, key, sizeof(key));
	if (!ret)
		ret = crypto_aead_setauthsize(tfm, ISGX_MAC_SIZE);
	memzero_explicit(key, sizeof(key));
	if (ret) {
		crypto_free_aead(tfm);
		return ERR_PTR(ret);
	}
	return tfm;
}

/**
 * isgx_emu_paging_init() - draw the paging key
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int isgx_emu_paging_init(void)
{
	struct crypto_aead *tfm;

	/*
	 * The crypto API instantiates gcm(aes) from the best "aes" it has
	 * already; it only loads a module when it has none, and aes-generic
	 * is built in.  Ask for the AES-NI driver first (no error if absent).
	 */
	request_module("aesni_intel");
	tfm = isgx_emu_aead_new();

	if (IS_ERR(tfm)) {
		pr_err("gcm(aes) unavailable: %ld\n", PTR_ERR(tfm));
		return PTR_ERR(tfm);
	}
	isgx_emu.aead = tfm;
	pr_info("paging crypto: %s\n",
		crypto_tfm_alg_driver_name(crypto_aead_tfm(tfm)));
	return 0;
}

/**
 * isgx_emu_paging_rekey() - draw a new paging key (power loss)
 *
 * Context: process context, power_sem held for write.
 * Return: 0 or a negative errno (the old key is kept).
 */
int isgx_emu_paging_rekey(void)
{
	struct crypto_aead *tfm = isgx_emu_aead_new();

	if (IS_ERR(tfm))
		return PTR_ERR(tfm);
	crypto_free_aead(isgx_emu.aead);
	isgx_emu.aead = tfm;
	return 0;
}

/**
 * isgx_emu_paging_exit() - drop the paging key
 *
 * Context: process context.
 */
void isgx_emu_paging_exit(void)
{
	crypto_free_aead(isgx_emu.aead);
	isgx_emu.aead = NULL;
}

/**
 * isgx_emu_epa() - ENCLS[EPA]
 * @rbx:	must be SGX_PT_VA
 * @epc:	free EPC page that becomes a VA page
 *
 * Context: process context, may sleep.
 * Return: 0 or a fault (#GP, #PF); EPA has no error codes.
 */
int isgx_emu_epa(unsigned long rbx, void *epc)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_emu_epcm *e;
	long idx;
	int ret;

	if (rbx != SGX_PT_VA || !isgx_emu_aligned(epc, PAGE_SIZE))
		return ISGX_EMU_GP;
	idx = isgx_emu_epc_index(epc);
	if (idx < 0)
		return ISGX_EMU_PF;

	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_FREE, idx);
	if (ret)
		return ret;
	clear_page(epc);
	e = isgx_emu_epcm(idx);
	e->pt = SGX_PT_VA;
	e->flags = 0;
	e->blocked = 0;
	e->enclave_address = 0;
	e->owner = 0;
	e->valid = 1;
	isgx_emu_leaf_end(&ls);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_epa, ISGX);

/**
 * isgx_emu_eblock() - ENCLS[EBLOCK]
 * @epc:	EPC page
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_BLKSTATE, SGX_NOTBLOCKABLE, SGX_PG_INVLD,
 * SGX_EPC_PAGE_CONFLICT, SGX_ENTRYEPOCH_LOCKED, SGX_PG_IS_SECS, or a
 * fault (#GP, #PF).
 */
int isgx_emu_eblock(void *epc)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_emu_epcm *e;
	long idx;
	int ret;

	ret = isgx_emu_leaf_begin_page(&ls, SGX_EPC_PAGE_CONFLICT,
				       ISGX_EMU_WANT_ANY, epc, &idx);
	if (ret)
		return ret;
	e = isgx_emu_epcm(idx);
	if (e->valid && isgx_emu_pt_is_child(e->pt) &&
	    READ_ONCE(isgx_emu_epcm(e->owner)->etrack)) {
		ret = SGX_ENTRYEPOCH_LOCKED;
		goto out;
	}
	if (!e->valid) {
		ret = SGX_PG_INVLD;
		goto out;
	}
	if (!isgx_emu_pt_is_child(e->pt)) {
		ret = e->pt == SGX_PT_SECS ? SGX_PG_IS_SECS : SGX_NOTBLOCKABLE;
		goto out;
	}
	if (e->blocked) {
		ret = SGX_BLKSTATE;
		goto out;
	}
	e->blocked_epoch = isgx_emu_track_epoch(e->owner);
	e->blocked = 1;
out:
	isgx_emu_leaf_end(&ls);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_eblock, ISGX);

/* Is the page-aligned kernel buffer @p writable and readable? */
static int isgx_emu_probe_rw(void *p, size_t size, void *scratch)
{
	int ret = isgx_emu_read(scratch, p, size);

	return ret ? ret : isgx_emu_write(p, scratch, size);
}

/**
 * struct isgx_emu_pgop - one EWB, ELDB or ELDU, carried between its phases
 * @pginfo:	RBX: the caller's PAGEINFO
 * @epc:	RCX: the EPC page
 * @va_slot:	RDX: the VA slot
 * @pi:		*@pginfo as read
 * @pcmd:	ELDx: the PCMD as read.  EWB: what is written back, a copy of
 *		the caller's PCMD buffer (its probe reads it) whose SECINFO
 *		flags, ENCLAVEID and MAC are set
 * @page:	SRCPGE's struct page: the ciphertext (EWB out, ELDx in)
 * @idx:	EPC index of @epc
 * @vidx:	EPC index of the VA page that holds @va_slot
 * @sidx:	ELDx of a child: EPC index of PAGEINFO.SECS, or -1
 * @pt:		ELDx: page type taken from the PCMD
 * @eid:	EID of the parent SECS in the MAC header, 0 for SECS and VA
 * @blocked:	ELDB rather than ELDU
 * @busy:	entry in the busy VA slots while the leaf uses @va_slot
 *
 * Each leaf runs in three phases, as the spec lists its checks (§4.10,
 * §4.11): the operand checks, which need no lock; the checks of the page,
 * its VA page and its parent, under the busy bits; and the commit (the
 * crypto and the EPCM change).  The first error decides the result, so
 * the order of the checks within and across the phases is the spec's.
 */
struct isgx_emu_pgop {
	struct isgx_pageinfo *pginfo;
	void *epc;
	void *va_slot;
	struct isgx_pageinfo pi;
	struct isgx_pcmd pcmd;
	struct page *page;
	long idx;
	long vidx;
	long sidx;
	unsigned int pt;
	u64 eid;
	bool blocked;
	struct hlist_node busy;
};

/**
 * struct isgx_emu_pgop_leaf - the phases of EWB or ELDx
 * @operands:	phase 1, no lock held
 * @want:	what the EPCM must say of the page for phase 2 to run
 * @check:	phase 2, busy bits of the page and the parent held, the VA
 *		page shared (counted in its nr_shared)
 * @commit:	phase 3, the same held; @c is the leaf's crypto scratch
 */
struct isgx_emu_pgop_leaf {
	int (*operands)(struct isgx_emu_pgop *op);
	enum isgx_emu_want want;
	int (*check)(struct isgx_emu_pgop *op);
	int (*commit)(struct isgx_emu_pgop *op, struct isgx_crypt *c);
};

/*
 * The VA slots that an EWB or ELDx is using now, by slot address: leaves
 * share a VA page, not a slot (isgx_emu_pgop_run()).  No allocation: the
 * leaf's own isgx_emu_pgop is the entry.
 */
static DEFINE_HASHTABLE(isgx_emu_busy_slots, 6);
static DEFINE_SPINLOCK(isgx_emu_busy_slots_lock);

/* Claim @op's VA slot; false when another leaf is using it. */
static bool isgx_emu_slot_claim(struct isgx_emu_pgop *op)
{
	unsigned long key = (unsigned long)op->va_slot / SGX_VA_SLOT_SIZE;
	struct isgx_emu_pgop *other;
	bool free = true;

	spin_lock(&isgx_emu_busy_slots_lock);
	hash_for_each_possible(isgx_emu_busy_slots, other, busy, key)
		free &= other->va_slot != op->va_slot;
	if (free)
		hash_add(isgx_emu_busy_slots, &op->busy, key);
	spin_unlock(&isgx_emu_busy_slots_lock);
	return free;
}

static void isgx_emu_slot_release(struct isgx_emu_pgop *op)
{
	spin_lock(&isgx_emu_busy_slots_lock);
	hash_del(&op->busy);
	spin_unlock(&isgx_emu_busy_slots_lock);
}

/*
 * Run a paging leaf: the common pattern of EWB and ELDx, stated once.
 * The crypto scratch is allocated before any lock is taken, so a leaf
 * that cannot get it fails holding nothing.
 */
static int isgx_emu_pgop_run(const struct isgx_emu_pgop_leaf *leaf,
			     struct isgx_emu_pgop *op)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_crypt *c;
	int ret;

	ret = leaf->operands(op);
	if (ret)
		return ret;
	c = isgx_crypt_alloc();
	if (!c)
		return ISGX_EMU_GP;	/* cannot happen on hardware */

	/*
	 * EWB's and ELDx's concurrency tables: the VA page is accessed
	 * shared.  It is not passed again below: an operand added twice is
	 * exclusive if either addition is.
	 */
	isgx_emu_lockset_add_shared(&ls, op->vidx);
	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, leaf->want, op->idx, op->sidx);
	if (ret)
		goto out_free;
	/* ...but another leaf modifying the same slot is a #GP. */
	if (!isgx_emu_slot_claim(op)) {
		ret = ISGX_EMU_GP;
		goto out_end;
	}
	ret = leaf->check(op);
	if (!ret)
		ret = leaf->commit(op, c);
	isgx_emu_slot_release(op);
out_end:
	isgx_emu_leaf_end(&ls);
out_free:
	kfree(c);
	return ret;
}

/* Alignment of PAGEINFO.PCMD and PAGEINFO.SRCPGE for EWB and ELDx. */
static bool isgx_emu_pgop_aligned(const struct isgx_pageinfo *pi)
{
	return isgx_emu_aligned((void *)pi->metadata, SGX_PCMD_ALIGN) &&
	       isgx_emu_aligned((void *)pi->contents, PAGE_SIZE);
}

/* EWB and ELDx begin alike: PAGEINFO and the page, then the VA slot. */
static int isgx_emu_pgop_operands(struct isgx_emu_pgop *op)
{
	int ret = isgx_emu_pginfo_operands(op->pginfo, op->epc, &op->idx);

	return ret ? ret : isgx_emu_epc_operand(op->va_slot, SGX_VA_SLOT_SIZE,
						&op->vidx);
}

/* EWB, phase 1: the operands, before any lock. */
static int isgx_emu_ewb_operands(struct isgx_emu_pgop *op)
{
	struct isgx_pageinfo *pi = &op->pi;
	int ret;

	ret = isgx_emu_pgop_operands(op);
	if (ret)
		return ret;
	if (op->vidx == op->idx)
		return ISGX_EMU_GP;
	ret = isgx_emu_read(pi, op->pginfo, sizeof(*pi));
	if (ret)
		return ret;
	if (pi->addr || pi->secs)
		return ISGX_EMU_GP;
	if (!isgx_emu_pgop_aligned(pi))
		return ISGX_EMU_GP;
	op->page = isgx_emu_kpage((void *)pi->contents);
	if (!op->page)
		return ISGX_EMU_PF;
	/* Fault now, not in the middle of the crypto, on read-only memory. */
	ret = isgx_emu_probe_rw((void *)pi->contents, sizeof(u64), &op->pcmd);
	if (!ret)
		ret = isgx_emu_probe_rw((void *)pi->metadata, sizeof(op->pcmd),
					&op->pcmd);
	return ret;
}

/*
 * EWB, phase 2, busy bits held and the page valid: the VA page is valid;
 * a SECS has no children left, a child is blocked and its blocking epoch
 * tracked.
 */
static int isgx_emu_ewb_check(struct isgx_emu_pgop *op)
{
	struct isgx_emu_epcm *e = isgx_emu_epcm(op->idx);

	if (!isgx_emu_epcm_is(op->vidx, SGX_PT_VA))
		return ISGX_EMU_PF;
	switch (e->pt) {
	case SGX_PT_SECS:
		if (atomic_read(&e->nr_children))
			return SGX_CHILD_PRESENT;
		op->pcmd.enclave_id = isgx_emu_secs_priv(op->idx)->eid;
		break;
	case SGX_PT_VA:
		op->pcmd.enclave_id = 0;
		break;
	default:
		if (!e->blocked)
			return SGX_PAGE_NOT_BLOCKED;
		if (!isgx_emu_track_done(e->owner, e->blocked_epoch))
			return SGX_NOT_TRACKED;
		op->eid = isgx_emu_secs_priv(e->owner)->eid;
		op->pcmd.enclave_id = op->eid;
		break;
	}
	return 0;
}

/*
 * EWB, phase 3, busy bits held: seal the page, write PCMD and LINADDR
 * out, store the version in the VA slot, invalidate the page.
 */
static int isgx_emu_ewb_commit(struct isgx_emu_pgop *op, struct isgx_crypt *c)
{
	struct isgx_emu_epcm *e = isgx_emu_epcm(op->idx);
	u64 old, ver;
	int ret;

	c->hdr.eid = op->eid;
	c->hdr.linaddr = e->enclave_address;
	c->hdr.secinfo_flags = (u64)e->pt << SGX_SECINFO_PT_SHIFT | e->flags;
	ver = atomic64_inc_return(&isgx_emu.version);
	ret = isgx_crypt_page(c, true, ver, virt_to_page(op->epc), op->page);
	if (WARN_ONCE(ret, "gcm(aes) encrypt failed: %d\n", ret))
		return ISGX_EMU_GP;

	op->pcmd.secinfo.flags = c->hdr.secinfo_flags;
	memcpy(op->pcmd.mac, c->tag, ISGX_MAC_SIZE);
	/* Both were probed writable above; a racing unmap is the caller's. */
	ret = isgx_emu_write((void *)op->pi.metadata, &op->pcmd,
			     sizeof(op->pcmd));
	if (!ret)
		ret = isgx_emu_write(&op->pginfo->addr, &c->hdr.linaddr,
				     sizeof(op->pginfo->addr));
	if (ret)
		return ret;

	old = *(u64 *)op->va_slot;
	*(u64 *)op->va_slot = ver;
	if (isgx_emu_pt_is_child(e->pt))
		atomic_dec(&isgx_emu_epcm(e->owner)->nr_children);
	isgx_emu_epcm_invalidate(op->idx);
	return old ? SGX_VA_SLOT_OCCUPIED : 0;
}

/**
 * isgx_emu_ewb() - ENCLS[EWB]
 * @pginfo:	PAGEINFO: SRCPGE = ciphertext out, PCMD out, LINADDR = SECS = 0
 *		on input; LINADDR = EPCM.ENCLAVEADDRESS on output
 * @epc:	the page to evict
 * @va_slot:	8-byte slot in a VA page
 *
 * SGX_VA_SLOT_OCCUPIED is an information code: the page *is* evicted and
 * the previous version in the slot is lost.
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_PAGE_NOT_BLOCKED, SGX_NOT_TRACKED, SGX_CHILD_PRESENT,
 * SGX_VA_SLOT_OCCUPIED, or a fault (#GP, #PF).
 */
int isgx_emu_ewb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	static const struct isgx_emu_pgop_leaf ewb = {
		.operands = isgx_emu_ewb_operands,
		.want = ISGX_EMU_WANT_VALID,
		.check = isgx_emu_ewb_check,
		.commit = isgx_emu_ewb_commit,
	};
	struct isgx_emu_pgop op = {
		.pginfo = pginfo, .epc = epc, .va_slot = va_slot, .sidx = -1,
	};

	return isgx_emu_pgop_run(&ewb, &op);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_ewb, ISGX);

/* ELDx, phase 1: the operands, before any lock. */
static int isgx_emu_eld_operands(struct isgx_emu_pgop *op)
{
	struct isgx_pageinfo *pi = &op->pi;
	int ret;

	ret = isgx_emu_pgop_operands(op);
	if (ret)
		return ret;
	ret = isgx_emu_read(pi, op->pginfo, sizeof(*pi));
	if (ret)
		return ret;
	if (!isgx_emu_pgop_aligned(pi))
		return ISGX_EMU_GP;
	ret = isgx_emu_read(&op->pcmd, (void *)pi->metadata, sizeof(op->pcmd));
	if (ret)
		return ret;
	op->page = isgx_emu_kpage((void *)pi->contents);
	if (!op->page)
		return ISGX_EMU_PF;
	op->pt = (op->pcmd.secinfo.flags & SGX_SECINFO_PT_MASK) >>
		 SGX_SECINFO_PT_SHIFT;
	/* The parent's busy bit is taken with the others, if it is EPC. */
	if (isgx_emu_pt_is_child(op->pt) &&
	    isgx_emu_aligned((void *)pi->secs, PAGE_SIZE))
		op->sidx = isgx_emu_epc_index((void *)pi->secs);
	return 0;
}

/*
 * ELDx, phase 2, busy bits held and the target free: the VA page is
 * valid; a child names a valid SECS as parent, a SECS or VA page none.
 */
static int isgx_emu_eld_check(struct isgx_emu_pgop *op)
{
	if (!isgx_emu_epcm_is(op->vidx, SGX_PT_VA))
		return ISGX_EMU_PF;
	if (isgx_emu_pt_is_child(op->pt)) {
		if (!isgx_emu_aligned((void *)op->pi.secs, PAGE_SIZE))
			return ISGX_EMU_GP;
		if (op->sidx < 0 || op->sidx == op->idx)
			return ISGX_EMU_PF;
		if (!isgx_emu_epcm_is(op->sidx, SGX_PT_SECS))
			return ISGX_EMU_PF;
		op->eid = isgx_emu_secs_priv(op->sidx)->eid;
	} else if (op->pt == SGX_PT_SECS || op->pt == SGX_PT_VA) {
		if (op->pi.secs)
			return ISGX_EMU_GP;
	} else {
		return ISGX_EMU_GP;
	}
	return 0;
}

/*
 * ELDx, phase 3, busy bits held: open the page into the target; only if
 * the tag matches, clear the VA slot and make the EPCM entry valid.
 */
static int isgx_emu_eld_commit(struct isgx_emu_pgop *op, struct isgx_crypt *c)
{
	struct isgx_emu_epcm *e = isgx_emu_epcm(op->idx);
	struct page *src;
	u64 ver;
	int ret;

	c->hdr.linaddr = op->pi.addr;
	c->hdr.eid = op->eid;
	ver = *(u64 *)op->va_slot;
	/* Fault injection (tests): what this ELDU reads may be changed. */
	src = isgx_emu_inject_eld(op->pt, op->pi.addr, c->hdr.eid, op->page,
				  &op->pcmd, &ver);
	c->hdr.secinfo_flags = op->pcmd.secinfo.flags;
	memcpy(c->hdr.secinfo_reserved, op->pcmd.secinfo.reserved,
	       sizeof(c->hdr.secinfo_reserved));
	memcpy(c->hdr.reserved, op->pcmd.reserved, sizeof(op->pcmd.reserved));
	memcpy(c->tag, op->pcmd.mac, ISGX_MAC_SIZE);
	/*
	 * Decrypt straight into the target: it is free and its busy bit is
	 * ours, so nobody can observe the plaintext before the tag is checked,
	 * and on a mismatch it goes back to reading as all-ones.
	 */
	ret = ver ? isgx_crypt_page(c, false, ver, src,
				    virt_to_page(op->epc)) : -EBADMSG;
	if (src != op->page)
		__free_page(src);
	if (ret) {
		WARN_ONCE(ret != -EBADMSG, "gcm(aes) decrypt failed: %d\n", ret);
		isgx_emu_page_abort(op->idx);
		return SGX_MAC_COMPARE_FAIL;
	}

	*(u64 *)op->va_slot = 0;
	e->pt = op->pt;
	e->flags = op->pcmd.secinfo.flags & (SGX_SECINFO_PERM_MASK |
					     SGX_SECINFO_STATE_MASK);
	e->enclave_address = op->pi.addr;
	e->blocked = 0;
	e->blocked_epoch = 0;
	e->owner = 0;
	if (isgx_emu_pt_is_child(op->pt)) {
		e->owner = op->sidx;
		atomic_inc(&isgx_emu_epcm(op->sidx)->nr_children);
		if (op->blocked) {
			e->blocked = 1;
			e->blocked_epoch = isgx_emu_track_epoch(op->sidx);
		}
	}
	if (op->pt == SGX_PT_SECS) {
		atomic_set(&e->nr_children, 0);
		isgx_emu_track_reset(op->idx);
	}
	e->valid = 1;
	return 0;
}

static int isgx_emu_eld(bool blocked, struct isgx_pageinfo *pginfo,
			void *epc, void *va_slot)
{
	static const struct isgx_emu_pgop_leaf eld = {
		.operands = isgx_emu_eld_operands,
		.want = ISGX_EMU_WANT_FREE,
		.check = isgx_emu_eld_check,
		.commit = isgx_emu_eld_commit,
	};
	struct isgx_emu_pgop op = {
		.pginfo = pginfo, .epc = epc, .va_slot = va_slot, .sidx = -1,
		.blocked = blocked,
	};

	return isgx_emu_pgop_run(&eld, &op);
}

/**
 * isgx_emu_eldb() - ENCLS[ELDB]: load an evicted page, blocked
 * @pginfo:	PAGEINFO: LINADDR, SRCPGE = ciphertext, PCMD, SECS (children)
 * @epc:	free EPC page
 * @va_slot:	the VA slot that holds the page's version
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_MAC_COMPARE_FAIL, or a fault (#GP, #PF).
 */
int isgx_emu_eldb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	return isgx_emu_eld(true, pginfo, epc, va_slot);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_eldb, ISGX);

/**
 * isgx_emu_eldu() - ENCLS[ELDU]: load an evicted page, unblocked
 * @pginfo:	PAGEINFO: LINADDR, SRCPGE = ciphertext, PCMD, SECS (children)
 * @epc:	free EPC page
 * @va_slot:	the VA slot that holds the page's version
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_MAC_COMPARE_FAIL, or a fault (#GP, #PF).
 */
int isgx_emu_eldu(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	return isgx_emu_eld(false, pginfo, epc, va_slot);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_eldu, ISGX);
