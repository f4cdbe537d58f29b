/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx emu backend: state shared between the files of the model.
 *
 * Locking, from the outside in:
 *
 *  1. isgx_emu.power_sem (percpu rw-semaphore), read side held by every
 *     leaf for its whole duration, write side by power loss, which wipes
 *     the EPCM and changes the paging key.
 *  2. The busy bit of each EPCM entry (ISGX_EPCM_BUSY in epcm->lock): a
 *     sleeping bit lock held by the leaf that operates on the page.  It is
 *     what "another ENCLS is using the page" means in the spec.  A leaf
 *     takes all the busy bits it needs at once, in EPC index order, so two
 *     leaves never deadlock; with strict conflict detection it only tries
 *     and reports a conflict (#GP, or code 7 / 15 for EBLOCK) instead.
 *     A page a leaf accesses shared (the VA page of EWB and ELDx, whose
 *     concurrency tables say "shared": leaves on other slots go on) is
 *     counted in epcm->nr_shared instead, under its busy bit, which is
 *     then dropped; a leaf that needs the page exclusively holds the busy
 *     bit and waits until the count is zero (strict: a conflict).
 *  3. isgx_emu.track_lock (spinlock): the tracking state of every SECS and
 *     the table of mms that map an enclave.  Nothing sleeps under it.
 *
 * The per-CPU AEX stamps are written from IPI / timer context without a
 * lock and read under track_lock; see track.c.
 */
#ifndef _ISGX_EMU_INTERNAL_H
#define _ISGX_EMU_INTERNAL_H

#include <linux/atomic.h>
#include <linux/hashtable.h>
#include <linux/percpu-rwsem.h>
#include <linux/spinlock.h>
#include <crypto/aead.h>
#include <crypto/sha2.h>

#include "emu.h"

#define ISGX_EMU_GP	(SGX_ENCLS_FAULT_FLAG | ISGX_TRAP_GP)
#define ISGX_EMU_PF	(SGX_ENCLS_FAULT_FLAG | ISGX_TRAP_PF)

/*
 * Sections of emulated EPC: chunks of 2^ISGX_EMU_CHUNK_ORDER pages that
 * are not contiguous become sections of their own, so 256 of them allow
 * 1 GiB (epc_pages=262144) even when no two chunks merge.
 */
#define ISGX_EMU_MAX_SECTIONS	256

/* Emulated CPUID.(12H,0).EDX: MaxEnclaveSize_Not64 / _64 (log2). */
#define ISGX_EMU_MAX_SIZE_32	31
#define ISGX_EMU_MAX_SIZE_64	36
/* Emulated CPUID.(12H,0).EBX: MISCSELECT bits that may be set. */
#define ISGX_EMU_MISC_ALLOWED	SGX_MISC_EXINFO
/* Emulated CPUID.(12H,1).EAX: ATTRIBUTES.FLAGS bits that may be set. */
#define ISGX_EMU_ATTR_ALLOWED	(SGX_ATTR_DEBUG | SGX_ATTR_MODE64BIT | \
				 SGX_ATTR_PROVISIONKEY | SGX_ATTR_EINITTOKENKEY)

/* Bit numbers in isgx_emu_epcm.lock. */
#define ISGX_EPCM_BUSY		0

/**
 * struct isgx_emu_epcm - one EPCM entry plus the model's hidden state
 * @lock:		bit ISGX_EPCM_BUSY is the entry's busy lock
 * @valid:		EPCM.VALID; busy bit
 * @blocked:		EPCM.BLOCKED; busy bit
 * @pt:			EPCM.PT; busy bit
 * @flags:		EPCM R/W/X, PENDING, MODIFIED, PR as in SECINFO bits 0..5;
 *			busy bit
 * @etrack:		SECS only: an ETRACK is running on it; busy bit of
 *			the SECS, read without it by EBLOCK's conflict check
 * @owner:		EPC index of the owning SECS (REG/TCS/TRIM); busy bit
 * @enclave_address:	EPCM.ENCLAVEADDRESS; busy bit
 * @blocked_epoch:	tracking epoch of the SECS when EBLOCK ran; busy bit
 * @nr_children:	SECS only: valid REG/TCS/TRIM pages that it owns;
 *			atomic, since children's leaves change it without
 *			the SECS's busy bit (a resident child pins its SECS)
 * @nr_shared:		leaves that access the page shared (a VA page for
 *			EWB and ELDx): counted under the busy bit, which
 *			they do not keep; an exclusive user waits for zero
 * @epoch:		SECS only: tracking epoch E; track_lock
 * @track_stamp:	SECS only: tracking clock value of the last ETRACK;
 *			track_lock
 *
 * The SECS's "prev" set (CPUs inside at the last ETRACK that have not left
 * since) is the bitmap isgx_emu.track_masks[index]; track_lock.
 */
struct isgx_emu_epcm {
	unsigned long lock;
	u8 valid;
	u8 blocked;
	u8 pt;
	u8 flags;
	u8 etrack;
	u32 owner;
	u64 enclave_address;
	u64 blocked_epoch;
	atomic_t nr_children;
	atomic_t nr_shared;
	u64 epoch;
	u64 track_stamp;
};

/*
 * Processor-private part of a SECS, kept in its reserved area (bytes
 * 262..4095 are "implementation specific" and must be zero in the ECREATE
 * source) so that it travels with the SECS through EWB and ELDU.
 */
#define ISGX_EMU_SECS_PRIV_OFFSET	2048

/**
 * struct isgx_emu_secs_priv - hidden SECS state
 * @eid:	enclave identifier, unique per power cycle
 * @sha:	running MRENCLAVE hash (between whole 64-byte records)
 */
struct isgx_emu_secs_priv {
	u64 eid;
	struct sha256_state sha;
};

/**
 * struct isgx_emu - global state of the model
 * @sections:		the EPC sections
 * @nr_sections:	number of valid entries in @sections
 * @nr_pages:		total number of EPC pages
 * @epcm:		one entry per EPC page
 * @track_masks:	per EPC page, a bitmap of nr_cpu_ids bits (SECS only)
 * @mask_longs:		longs per bitmap in @track_masks
 * @power_sem:		read by every leaf, written by power loss
 * @track_lock:		tracking state and the enclave-mm table
 * @encls:		enclave-mm table keyed by EID; track_lock
 * @next_eid:		CR_NEXT_EID
 * @version:		last paging version handed out (nonce counter)
 * @power_gen:		incremented by each power loss
 * @aead:		gcm(aes) with the paging key; power_sem
 * @strict:		strict conflict detection (try-locks)
 * @unmasked_pct:	EINIT SGX_UNMASKED_EVENT injection rate, percent
 */
struct isgx_emu {
	struct isgx_emu_section sections[ISGX_EMU_MAX_SECTIONS];
	unsigned int nr_sections;
	unsigned long nr_pages;
	struct isgx_emu_epcm *epcm;
	unsigned long *track_masks;
	unsigned int mask_longs;
	struct percpu_rw_semaphore power_sem;
	spinlock_t track_lock;	/* tracking state, @encls */
	DECLARE_HASHTABLE(encls, 6);
	atomic64_t next_eid;
	atomic64_t version;
	atomic64_t power_gen;
	struct crypto_aead *aead;
	bool strict;
	unsigned int unmasked_pct;
};

extern struct isgx_emu isgx_emu;

/* epc.c */
long isgx_emu_epc_index(const void *addr);
int isgx_emu_epc_operand(const void *addr, unsigned long align, long *idx);
int isgx_emu_pginfo_operands(const struct isgx_pageinfo *pginfo,
			     const void *epc, long *idx);
void *isgx_emu_epc_page(unsigned long idx);
void isgx_emu_page_abort(unsigned long idx);
void isgx_emu_epcm_invalidate(unsigned long idx);

/**
 * struct isgx_emu_lockset - busy bits taken by one leaf
 * @idx:	EPC indices, sorted before locking
 * @shared:	@idx[i] is accessed shared (counted in its nr_shared)
 * @nr:		number of entries
 * @held:	number of entries locked
 */
struct isgx_emu_lockset {
	unsigned long idx[3];
	bool shared[3];
	unsigned int nr;
	unsigned int held;
};

void isgx_emu_lockset_add(struct isgx_emu_lockset *ls, long idx);
void isgx_emu_lockset_add_shared(struct isgx_emu_lockset *ls, long idx);
int isgx_emu_lockset_lock(struct isgx_emu_lockset *ls);
void isgx_emu_lockset_unlock(struct isgx_emu_lockset *ls);

/**
 * enum isgx_emu_want - what isgx_emu_leaf_begin() requires of a leaf's
 * first page, under its busy bit, or the leaf takes a #PF
 * @ISGX_EMU_WANT_ANY:		nothing: the leaf checks the EPCM itself
 * @ISGX_EMU_WANT_FREE:		not valid (the target of ECREATE, EADD, EPA, ELDx)
 * @ISGX_EMU_WANT_VALID:	valid, of any type
 * @ISGX_EMU_WANT_SECS:		a valid SECS
 */
enum isgx_emu_want {
	ISGX_EMU_WANT_ANY,
	ISGX_EMU_WANT_FREE,
	ISGX_EMU_WANT_VALID,
	ISGX_EMU_WANT_SECS,
};

int __isgx_emu_leaf_begin(struct isgx_emu_lockset *ls, int conflict,
			  enum isgx_emu_want want, const long *idx,
			  unsigned int nr);
int isgx_emu_leaf_begin_page(struct isgx_emu_lockset *ls, int conflict,
			     enum isgx_emu_want want, void *epc, long *idx);
void isgx_emu_leaf_end(struct isgx_emu_lockset *ls);

/*
 * isgx_emu_leaf_begin(ls, conflict, want, idx...) - the prologue of every
 * leaf, for the EPC pages @idx... (the first is the one @want applies to);
 * see __isgx_emu_leaf_begin().
 */
#define isgx_emu_leaf_begin(ls, conflict, want, ...)			\
	__isgx_emu_leaf_begin(ls, conflict, want,			\
			      (const long []){ __VA_ARGS__ },		\
			      ARRAY_SIZE(((const long []){ __VA_ARGS__ })))

static inline struct isgx_emu_epcm *isgx_emu_epcm(unsigned long idx)
{
	return &isgx_emu.epcm[idx];
}

static inline struct isgx_emu_secs_priv *isgx_emu_secs_priv(unsigned long idx)
{
	return isgx_emu_epc_page(idx) + ISGX_EMU_SECS_PRIV_OFFSET;
}

/* Is EPC page @idx valid in the EPCM, with page type @pt?  Busy bit held. */
static inline bool isgx_emu_epcm_is(unsigned long idx, unsigned int pt)
{
	const struct isgx_emu_epcm *e = isgx_emu_epcm(idx);

	return e->valid && e->pt == pt;
}

static inline bool isgx_emu_pt_is_child(unsigned int pt)
{
	return pt == SGX_PT_REG || pt == SGX_PT_TCS || pt == SGX_PT_TRIM;
}

static inline bool isgx_emu_aligned(const void *p, unsigned long align)
{
	return !((unsigned long)p & (align - 1));
}

int isgx_emu_read(void *dst, const void *src, size_t size);
int isgx_emu_write(void *dst, const void *src, size_t size);

/* measure.c */
void isgx_emu_measure_ecreate(struct isgx_emu_secs_priv *priv,
			      const struct isgx_secs *secs);

/* track.c */
int isgx_emu_track_init(void);
void isgx_emu_track_exit(void);
void isgx_emu_track_reset(unsigned long secs_idx);
bool isgx_emu_track_done(unsigned long secs_idx, u64 blocked_epoch);
bool isgx_emu_track_active(unsigned long secs_idx);
u64 isgx_emu_track_epoch(unsigned long secs_idx);
void isgx_emu_encl_drop(u64 eid);
void isgx_emu_encl_drop_all(void);

/* paging.c */
int isgx_emu_paging_init(void);
void isgx_emu_paging_exit(void);
int isgx_emu_paging_rekey(void);

/* einit.c */
void isgx_emu_lc_init(void);

/* inject.c */
bool isgx_emu_inject_unmasked(void);
struct page *isgx_emu_inject_eld(unsigned int pt, u64 linaddr, u64 eid, struct page *in,
				 struct isgx_pcmd *pcmd, u64 *version);
void isgx_emu_inject_exit(void);

#endif /* _ISGX_EMU_INTERNAL_H */
