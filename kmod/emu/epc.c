// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: the emulated EPC and EPCM, the busy-bit locks, CPUID leaf 12H,
 * EREMOVE, the leaf dispatcher, and load/unload of the whole model.
 *
 * The EPC is plain RAM taken at load time in physically contiguous chunks
 * of at most 4 MiB (the buddy allocator's largest order); chunks that end
 * up adjacent are merged into one section.  Each section is reported through
 * the emulated CPUID.(12H, 2 + i), so a driver that memremap()s the
 * reported ranges gets back exactly these direct-map addresses.
 *
 * Abort-page semantics: a page that is not valid in the EPCM reads as
 * all-ones.  Pages start that way, and EWB, EREMOVE, failed loads and
 * power loss put them back that way, so a stale kernel mapping of an
 * evicted page shows 0xff instead of the old secret.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/uaccess.h>
#include <asm/page.h>
#include <asm/processor.h>
#include <linux/wait_bit.h>
#include <asm/cpufeature.h>

#include "../compat.h"
#include "internal.h"

struct isgx_emu isgx_emu;

static unsigned int epc_pages = 2048;
module_param(epc_pages, uint, 0444);
MODULE_PARM_DESC(epc_pages, "emu backend: EPC size in 4 KiB pages (default 2048 = 8 MiB, 16..1048576)");

#define ISGX_EMU_CHUNK_ORDER	min(10, ISGX_MAX_PAGE_ORDER)

/**
 * isgx_emu_epc_index() - EPC page index of an address
 * @addr:	any kernel virtual address
 *
 * Context: any.
 * Return: the index of the EPC page that contains @addr, or -1 if @addr is
 * not inside an EPC section.
 */
long isgx_emu_epc_index(const void *addr)
{
	unsigned long a = (unsigned long)addr, first = 0;
	unsigned int i;

	for (i = 0; i < isgx_emu.nr_sections; i++) {
		const struct isgx_emu_section *s = &isgx_emu.sections[i];
		unsigned long b = (unsigned long)s->base;

		if (a >= b && a - b < s->nr_pages * PAGE_SIZE)
			return first + ((a - b) >> PAGE_SHIFT);
		first += s->nr_pages;
	}
	return -1;
}

/**
 * isgx_emu_epc_operand() - the first checks of an EPC operand
 * @addr:	the operand (a register of the leaf)
 * @align:	the alignment the leaf requires of it
 * @idx:	its EPC page index, on success
 *
 * Misalignment is checked before membership, as every leaf does (§1.4).
 *
 * Context: any.
 * Return: 0, ISGX_EMU_GP when misaligned, ISGX_EMU_PF when outside the EPC.
 */
int isgx_emu_epc_operand(const void *addr, unsigned long align, long *idx)
{
	if (!isgx_emu_aligned(addr, align))
		return ISGX_EMU_GP;
	*idx = isgx_emu_epc_index(addr);
	return *idx < 0 ? ISGX_EMU_PF : 0;
}

/**
 * isgx_emu_pginfo_operands() - the first checks of a leaf that takes a PAGEINFO
 * @pginfo:	RBX: the PAGEINFO
 * @epc:	RCX: the target EPC page
 * @idx:	@epc's EPC page index, on success
 *
 * ECREATE, EADD, EWB, ELDB and ELDU begin alike: both alignments, then
 * @epc's membership (§1.4).  Reading the PAGEINFO is left to the leaf,
 * since EWB and ELDx check their VA slot first.
 *
 * Context: any.
 * Return: 0, ISGX_EMU_GP when misaligned, ISGX_EMU_PF when @epc is outside
 * the EPC.
 */
int isgx_emu_pginfo_operands(const struct isgx_pageinfo *pginfo,
			     const void *epc, long *idx)
{
	if (!isgx_emu_aligned(pginfo, SGX_PAGEINFO_ALIGN) ||
	    !isgx_emu_aligned(epc, PAGE_SIZE))
		return ISGX_EMU_GP;
	*idx = isgx_emu_epc_index(epc);
	return *idx < 0 ? ISGX_EMU_PF : 0;
}

/**
 * isgx_emu_epc_page() - kernel address of an EPC page
 * @idx:	EPC page index, below isgx_emu.nr_pages
 *
 * Context: any.
 * Return: the page's kernel virtual address.
 */
void *isgx_emu_epc_page(unsigned long idx)
{
	unsigned int i;

	for (i = 0; i < isgx_emu.nr_sections; i++) {
		const struct isgx_emu_section *s = &isgx_emu.sections[i];

		if (idx < s->nr_pages)
			return s->base + idx * PAGE_SIZE;
		idx -= s->nr_pages;
	}
	WARN_ONCE(1, "EPC index out of range");
	return NULL;
}

/**
 * isgx_emu_epc_contains() - is an address inside the emulated EPC
 * @addr:	kernel virtual address
 *
 * Context: any.
 * Return: true if @addr lies in an EPC section.
 */
bool isgx_emu_epc_contains(const void *addr)
{
	return isgx_emu_epc_index(addr) >= 0;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_epc_contains, ISGX);

/**
 * isgx_emu_page_blocked() - is an EPC page valid and BLOCKED in the EPCM
 * @epc:	kernel virtual address of the page
 *
 * The model does not see enclave-mode accesses; the hardware refuses a new
 * TLB translation for a BLOCKED page (the access takes #PF with PFEC.SGX,
 * which Linux delivers as SIGSEGV).  The driver asks this before it maps
 * a page, so that a page left blocked fails as it would on a CPU.
 *
 * Context: any; reads the entry without its busy bit (a snapshot).
 * Return: true when the page is valid and blocked.
 */
bool isgx_emu_page_blocked(const void *epc)
{
	long idx = isgx_emu_epc_index(epc);
	struct isgx_emu_epcm *e;

	if (idx < 0)
		return false;
	e = isgx_emu_epcm(idx);
	return READ_ONCE(e->valid) && READ_ONCE(e->blocked);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_page_blocked, ISGX);

/**
 * isgx_emu_page_abort() - make an EPC page read as all-ones
 * @idx:	EPC page index; its busy bit is held or the model is quiesced
 *
 * Context: any.
 */
void isgx_emu_page_abort(unsigned long idx)
{
	memset(isgx_emu_epc_page(idx), 0xff, PAGE_SIZE);
}

/**
 * isgx_emu_epcm_invalidate() - clear an EPCM entry and its page
 * @idx:	EPC page index; its busy bit is held
 *
 * Context: any.
 */
void isgx_emu_epcm_invalidate(unsigned long idx)
{
	struct isgx_emu_epcm *e = isgx_emu_epcm(idx);

	e->valid = 0;
	e->blocked = 0;
	e->pt = 0;
	e->flags = 0;
	e->owner = 0;
	e->enclave_address = 0;
	e->blocked_epoch = 0;
	isgx_emu_page_abort(idx);
}

/**
 * isgx_emu_read() - read memory outside the EPC as the CPU would
 * @dst:	kernel buffer
 * @src:	operand address, possibly bogus
 * @size:	bytes
 *
 * Context: any.
 * Return: 0, or the #PF code if @src is not mapped.
 */
int isgx_emu_read(void *dst, const void *src, size_t size)
{
	if (copy_from_kernel_nofault(dst, src, size))
		return ISGX_EMU_PF;
	return 0;
}

/**
 * isgx_emu_write() - write memory outside the EPC as the CPU would
 * @dst:	operand address, possibly bogus
 * @src:	kernel buffer
 * @size:	bytes
 *
 * @dst and @size must be multiples of 8 (all ENCLS outputs are).
 *
 * Context: any.
 * Return: 0, or the #PF code if @dst is not mapped writable.
 */
int isgx_emu_write(void *dst, const void *src, size_t size)
{
	unsigned long a = (unsigned long)dst;
	size_t i;

	/* copy_to_kernel_nofault() is not exported by 6.1: open-code it. */
	if (a < TASK_SIZE_MAX + PAGE_SIZE ||
	    !__is_canonical_address(a, boot_cpu_data.x86_virt_bits) ||
	    (a | size) & 7)
		return ISGX_EMU_PF;
	pagefault_disable();
	for (i = 0; i < size; i += 8)
		__put_kernel_nofault(dst + i, src + i, u64, fault);
	pagefault_enable();
	return 0;
fault:
	pagefault_enable();
	return ISGX_EMU_PF;
}

/* Add @idx to @ls, once; exclusive if any of its additions is. */
static void isgx_emu_lockset_add_mode(struct isgx_emu_lockset *ls, long idx, bool shared)
{
	unsigned int i;

	if (idx < 0 || ls->nr >= ARRAY_SIZE(ls->idx))
		return;
	for (i = 0; i < ls->nr; i++) {
		if (ls->idx[i] == idx) {
			/* Exclusive wins: a page that is also an operand of its own. */
			ls->shared[i] &= shared;
			return;
		}
	}
	ls->shared[ls->nr] = shared;
	ls->idx[ls->nr++] = idx;
}

/**
 * isgx_emu_lockset_add() - add a page to the set a leaf will lock
 * @ls:		the set
 * @idx:	EPC index; negative (not in EPC) and duplicates are ignored
 *
 * Context: any.
 */
void isgx_emu_lockset_add(struct isgx_emu_lockset *ls, long idx)
{
	isgx_emu_lockset_add_mode(ls, idx, false);
}

/**
 * isgx_emu_lockset_add_shared() - add a page the leaf accesses shared
 * @ls:		the set
 * @idx:	EPC index; negative (not in EPC) and duplicates are ignored
 *
 * Leaves that access a page shared run together; each excludes the
 * leaves that need it exclusively (see internal.h).
 *
 * Context: any.
 */
void isgx_emu_lockset_add_shared(struct isgx_emu_lockset *ls, long idx)
{
	isgx_emu_lockset_add_mode(ls, idx, true);
}

/* Index order (at most three entries), @shared kept with its index. */
static void isgx_emu_lockset_sort(struct isgx_emu_lockset *ls)
{
	unsigned int i, j;

	for (i = 1; i < ls->nr; i++) {
		for (j = i; j > 0 && ls->idx[j - 1] > ls->idx[j]; j--) {
			swap(ls->idx[j - 1], ls->idx[j]);
			swap(ls->shared[j - 1], ls->shared[j]);
		}
	}
}

/* A sharer holds a busy bit for a few instructions: strict mode waits this long. */
#define ISGX_EMU_SHARER_SPINS	1000

/*
 * The busy bit of @e, waited for or (strict) tried.  A strict @shared
 * leaf spins a little first: another sharer may hold the bit for the few
 * instructions of its count, which is no conflict.
 */
static bool isgx_emu_busy_lock(struct isgx_emu_epcm *e, bool strict, bool shared)
{
	unsigned int i;

	if (!strict) {
		wait_on_bit_lock(&e->lock, ISGX_EPCM_BUSY, TASK_UNINTERRUPTIBLE);
		return true;
	}
	for (i = 0; shared && i < ISGX_EMU_SHARER_SPINS; i++) {
		if (!test_and_set_bit_lock(ISGX_EPCM_BUSY, &e->lock))
			return true;
		cpu_relax();
	}
	return !test_and_set_bit_lock(ISGX_EPCM_BUSY, &e->lock);
}

static void isgx_emu_busy_unlock(struct isgx_emu_epcm *e)
{
	clear_bit_unlock(ISGX_EPCM_BUSY, &e->lock);
	/* Order the clear before wake_up_bit()'s waitqueue check. */
	smp_mb__after_atomic();
	wake_up_bit(&e->lock, ISGX_EPCM_BUSY);
}

/**
 * isgx_emu_lockset_lock() - take the busy bits of a set of pages
 * @ls:		the set
 *
 * Pages are locked in index order so that two leaves never deadlock.  A
 * shared page is counted in its nr_shared under its busy bit, which is
 * then dropped; an exclusive one keeps the busy bit and waits until no
 * leaf shares the page.  That wait ends: a sharer of the page waits, if
 * at all, only for busy bits of higher indices, and every wait is for a
 * higher index than the waiter holds.  With strict conflict detection a busy or shared page is a
 * conflict and nothing is kept locked; otherwise the leaf sleeps until
 * the page is free.
 *
 * Context: process context, may sleep.
 * Return: 0, or -EBUSY on a conflict (strict mode only).
 */
int isgx_emu_lockset_lock(struct isgx_emu_lockset *ls)
{
	bool strict = READ_ONCE(isgx_emu.strict);

	isgx_emu_lockset_sort(ls);
	for (ls->held = 0; ls->held < ls->nr; ls->held++) {
		struct isgx_emu_epcm *e = isgx_emu_epcm(ls->idx[ls->held]);

		if (!isgx_emu_busy_lock(e, strict, ls->shared[ls->held]))
			goto conflict;
		if (ls->shared[ls->held]) {
			atomic_inc(&e->nr_shared);
			isgx_emu_busy_unlock(e);
		} else if (atomic_read(&e->nr_shared)) {
			if (strict) {
				isgx_emu_busy_unlock(e);
				goto conflict;
			}
			wait_var_event(&e->nr_shared, !atomic_read(&e->nr_shared));
		}
	}
	return 0;
conflict:
	isgx_emu_lockset_unlock(ls);
	return -EBUSY;
}

/**
 * isgx_emu_lockset_unlock() - release the busy bits taken so far
 * @ls:		the set
 *
 * Context: any.
 */
void isgx_emu_lockset_unlock(struct isgx_emu_lockset *ls)
{
	while (ls->held) {
		struct isgx_emu_epcm *e = isgx_emu_epcm(ls->idx[--ls->held]);

		if (!ls->shared[ls->held])
			isgx_emu_busy_unlock(e);
		else if (atomic_dec_and_test(&e->nr_shared))
			wake_up_var(&e->nr_shared);
	}
}

/**
 * __isgx_emu_leaf_begin() - the common prologue of every leaf
 * @ls:		an empty lockset, filled and locked here
 * @conflict:	what the leaf reports when a page is busy under strict
 *		conflict detection: ISGX_EMU_GP for most leaves,
 *		SGX_EPC_PAGE_CONFLICT for EBLOCK
 * @want:	what the EPCM must say of @idx[0]
 * @idx:	EPC indices of the pages the leaf operates on; negative ones
 *		(an operand outside the EPC) are left out
 * @nr:		entries in @idx
 *
 * Takes power_sem for read, then the busy bits of @idx (lock order 1, 2
 * in internal.h), then checks @idx[0] against @want.  The operand checks
 * that need no lock come before it; the rest of the EPCM checks, which
 * need the busy bits, after.  Use it through isgx_emu_leaf_begin().
 *
 * Context: process context, may sleep.  On success, power_sem (read) and
 * the busy bits of @ls are held until isgx_emu_leaf_end().
 * Return: 0; @conflict, or ISGX_EMU_PF when @idx[0] is not as @want
 * says, with nothing held.
 */
int __isgx_emu_leaf_begin(struct isgx_emu_lockset *ls, int conflict,
			  enum isgx_emu_want want, const long *idx,
			  unsigned int nr)
{
	const struct isgx_emu_epcm *e;
	unsigned int i;
	bool ok;

	for (i = 0; i < nr; i++)
		isgx_emu_lockset_add(ls, idx[i]);
	percpu_down_read(&isgx_emu.power_sem);
	if (isgx_emu_lockset_lock(ls)) {
		percpu_up_read(&isgx_emu.power_sem);
		return conflict;
	}
	if (want == ISGX_EMU_WANT_ANY)
		return 0;
	e = isgx_emu_epcm(idx[0]);
	switch (want) {
	case ISGX_EMU_WANT_FREE:
		ok = !e->valid;
		break;
	case ISGX_EMU_WANT_VALID:
		ok = e->valid;
		break;
	default:
		ok = e->valid && e->pt == SGX_PT_SECS;
		break;
	}
	if (!ok) {
		isgx_emu_leaf_end(ls);
		return ISGX_EMU_PF;
	}
	return 0;
}

/**
 * isgx_emu_leaf_begin_page() - the prologue of a leaf whose one operand is
 * an EPC page (EREMOVE, EBLOCK, ETRACK)
 * @ls:		as for __isgx_emu_leaf_begin()
 * @conflict:	as for __isgx_emu_leaf_begin()
 * @want:	as for __isgx_emu_leaf_begin()
 * @epc:	the operand, which must be page-aligned
 * @idx:	its EPC page index, on success
 *
 * isgx_emu_epc_operand(), then isgx_emu_leaf_begin() on the page.
 *
 * Context: process context, may sleep.  As __isgx_emu_leaf_begin().
 * Return: 0, or the code of the first check that fails, nothing held.
 */
int isgx_emu_leaf_begin_page(struct isgx_emu_lockset *ls, int conflict,
			     enum isgx_emu_want want, void *epc, long *idx)
{
	int ret = isgx_emu_epc_operand(epc, PAGE_SIZE, idx);

	return ret ? ret : isgx_emu_leaf_begin(ls, conflict, want, *idx);
}

/**
 * isgx_emu_leaf_end() - the common epilogue of every leaf
 * @ls:		the set that isgx_emu_leaf_begin() locked
 *
 * Context: process context, after a successful isgx_emu_leaf_begin();
 * drops the busy bits of @ls and power_sem.
 */
void isgx_emu_leaf_end(struct isgx_emu_lockset *ls)
{
	isgx_emu_lockset_unlock(ls);
	percpu_up_read(&isgx_emu.power_sem);
}

/**
 * isgx_emu_eremove() - ENCLS[EREMOVE]
 * @epc:	EPC page
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_CHILD_PRESENT, SGX_ENCLAVE_ACT, or a fault (#GP, #PF).
 */
int isgx_emu_eremove(void *epc)
{
	struct isgx_emu_lockset ls = {};
	struct isgx_emu_epcm *e;
	long idx;
	u64 eid = 0;
	int ret;

	ret = isgx_emu_leaf_begin_page(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_ANY, epc,
				       &idx);
	if (ret)
		return ret;
	e = isgx_emu_epcm(idx);
	if (!e->valid)
		goto out;

	switch (e->pt) {
	case SGX_PT_VA:
		break;
	case SGX_PT_SECS:
		if (atomic_read(&e->nr_children)) {
			ret = SGX_CHILD_PRESENT;
			goto out;
		}
		eid = isgx_emu_secs_priv(idx)->eid;
		isgx_emu_track_reset(idx);
		break;
	default:
		if (isgx_emu_track_active(e->owner)) {
			ret = SGX_ENCLAVE_ACT;
			goto out;
		}
		atomic_dec(&isgx_emu_epcm(e->owner)->nr_children);
		break;
	}
	isgx_emu_epcm_invalidate(idx);
out:
	isgx_emu_leaf_end(&ls);
	/* The enclave is gone: forget which mms mapped it. */
	if (eid)
		isgx_emu_encl_drop(eid);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_eremove, ISGX);

/**
 * isgx_emu_encls() - execute a leaf by number, with raw register operands
 * @leaf:	EAX
 * @rbx:	RBX
 * @rcx:	RCX
 * @rdx:	RDX
 *
 * For EDBGRD, @rbx is the address where the read value is stored.  Leaves
 * 0x0D and above (SGX2 and later) are undefined on the emulated SGX1 CPU.
 *
 * Context: process context, may sleep.
 * Return: as the leaf; #GP for an undefined leaf.
 */
int isgx_emu_encls(unsigned int leaf, unsigned long rbx, unsigned long rcx,
		   unsigned long rdx)
{
	void *b = (void *)rbx, *c = (void *)rcx, *d = (void *)rdx;

	switch (leaf) {
	case ECREATE:
		return isgx_emu_ecreate(b, c);
	case EADD:
		return isgx_emu_eadd(b, c);
	case EINIT:
		return isgx_emu_einit(b, c, d);
	case EREMOVE:
		return isgx_emu_eremove(c);
	case EDBGRD:
		return isgx_emu_edbgrd(c, b);
	case EDBGWR:
		return isgx_emu_edbgwr(c, b);
	case EEXTEND:
		return isgx_emu_eextend(b, c);
	case ELDB:
		return isgx_emu_eldb(b, c, d);
	case ELDU:
		return isgx_emu_eldu(b, c, d);
	case EBLOCK:
		return isgx_emu_eblock(c);
	case EPA:
		return isgx_emu_epa(rbx, c);
	case EWB:
		return isgx_emu_ewb(b, c, d);
	case ETRACK:
		return isgx_emu_etrack(c);
	default:
		return ISGX_EMU_GP;
	}
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_encls, ISGX);

static u64 isgx_emu_xfrm_allowed(void)
{
	return 0x3 | (boot_cpu_has(X86_FEATURE_AVX) ? 0x4 : 0);
}

/**
 * isgx_emu_cpuid() - the emulated CPUID leaf 12H
 * @leaf:	CPUID leaf; only 0x12 is emulated, others read as zero
 * @subleaf:	0 (capabilities), 1 (attributes), 2.. (EPC sections)
 * @regs:	EAX, EBX, ECX, EDX on return
 *
 * Context: any.
 */
void isgx_emu_cpuid(u32 leaf, u32 subleaf, u32 regs[4])
{
	const struct isgx_emu_section *s;
	u64 attr = ISGX_EMU_ATTR_ALLOWED, xfrm = isgx_emu_xfrm_allowed();
	u64 size;

	memset(regs, 0, 4 * sizeof(u32));
	if (leaf != ISGX_CPUID)
		return;
	switch (subleaf) {
	case 0:
		regs[0] = ISGX_CPUID_SGX1;
		regs[1] = ISGX_EMU_MISC_ALLOWED;
		regs[3] = ISGX_EMU_MAX_SIZE_64 << 8 | ISGX_EMU_MAX_SIZE_32;
		return;
	case 1:
		regs[0] = lower_32_bits(attr);
		regs[1] = upper_32_bits(attr);
		regs[2] = lower_32_bits(xfrm);
		regs[3] = upper_32_bits(xfrm);
		return;
	default:
		if (subleaf - ISGX_CPUID_EPC >= isgx_emu.nr_sections)
			return;
		s = &isgx_emu.sections[subleaf - ISGX_CPUID_EPC];
		size = (u64)s->nr_pages << PAGE_SHIFT;
		regs[0] = (lower_32_bits(s->phys) & GENMASK(31, 12)) |
			  ISGX_CPUID_EPC_SECTION;
		regs[1] = upper_32_bits(s->phys) & GENMASK(19, 0);
		regs[2] = (lower_32_bits(size) & GENMASK(31, 12)) | 0x1;
		regs[3] = upper_32_bits(size) & GENMASK(19, 0);
	}
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_cpuid, ISGX);

/**
 * isgx_emu_nr_sections() - number of emulated EPC sections
 *
 * Context: any, after isgx_emu_init().
 * Return: the number of sections.
 */
unsigned int isgx_emu_nr_sections(void)
{
	return isgx_emu.nr_sections;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_nr_sections, ISGX);

/**
 * isgx_emu_section_get() - one emulated EPC section
 * @i:	section number, below isgx_emu_nr_sections()
 *
 * Context: any, after isgx_emu_init().
 * Return: the section, or NULL if @i is out of range.
 */
const struct isgx_emu_section *isgx_emu_section_get(unsigned int i)
{
	return i < isgx_emu.nr_sections ? &isgx_emu.sections[i] : NULL;
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_section_get, ISGX);

static void isgx_emu_sections_free(void)
{
	unsigned int i;

	for (i = 0; i < isgx_emu.nr_sections; i++)
		free_pages_exact(isgx_emu.sections[i].base,
				 isgx_emu.sections[i].nr_pages * PAGE_SIZE);
	isgx_emu.nr_sections = 0;
	isgx_emu.nr_pages = 0;
}

/*
 * Chunks are freed one by one with free_pages_exact(), so a merged section
 * is freed as the concatenation of its chunks: free_pages_exact() works on
 * any page-aligned range whose pages were split by alloc_pages_exact().
 */
static int isgx_emu_sections_alloc(unsigned long nr_pages)
{
	unsigned int order = ISGX_EMU_CHUNK_ORDER;

	while (nr_pages) {
		unsigned long n = min(nr_pages, 1UL << order);
		struct isgx_emu_section *last;
		void *p;

		p = alloc_pages_exact(n * PAGE_SIZE, GFP_KERNEL | __GFP_NOWARN |
				      __GFP_RETRY_MAYFAIL);
		if (!p) {
			/* Fragmented memory: fall back to smaller chunks. */
			if (order > 8) {
				order--;
				continue;
			}
			return -ENOMEM;
		}
		last = isgx_emu.nr_sections ?
		       &isgx_emu.sections[isgx_emu.nr_sections - 1] : NULL;
		if (last && last->base + last->nr_pages * PAGE_SIZE == p) {
			last->nr_pages += n;
		} else {
			if (isgx_emu.nr_sections == ISGX_EMU_MAX_SECTIONS) {
				free_pages_exact(p, n * PAGE_SIZE);
				return -ENOMEM;
			}
			last = &isgx_emu.sections[isgx_emu.nr_sections++];
			last->base = p;
			last->phys = virt_to_phys(p);
			last->nr_pages = n;
		}
		isgx_emu.nr_pages += n;
		nr_pages -= n;
	}
	return 0;
}

/**
 * isgx_emu_init() - load the model: EPC, EPCM, paging key, tracking
 *
 * Context: process context (module init).
 * Return: 0 or a negative errno.
 */
int isgx_emu_init(void)
{
	unsigned long i;
	int ret;

	if (epc_pages < 16 || epc_pages > (1U << 20)) {
		pr_err("epc_pages=%u is outside 16..1048576\n", epc_pages);
		return -EINVAL;
	}
	spin_lock_init(&isgx_emu.track_lock);
	hash_init(isgx_emu.encls);
	atomic64_set(&isgx_emu.next_eid, 1);
	atomic64_set(&isgx_emu.version, 0);
	ret = percpu_init_rwsem(&isgx_emu.power_sem);
	if (ret)
		return ret;

	ret = isgx_emu_sections_alloc(epc_pages);
	if (ret) {
		pr_err("cannot allocate %u EPC pages\n", epc_pages);
		goto err_sections;
	}
	isgx_emu.epcm = kvcalloc(isgx_emu.nr_pages, sizeof(*isgx_emu.epcm),
				 GFP_KERNEL);
	if (!isgx_emu.epcm) {
		ret = -ENOMEM;
		goto err_sections;
	}
	isgx_emu.mask_longs = BITS_TO_LONGS(nr_cpu_ids);
	isgx_emu.track_masks = kvcalloc(isgx_emu.nr_pages * isgx_emu.mask_longs,
					sizeof(long), GFP_KERNEL);
	if (!isgx_emu.track_masks) {
		ret = -ENOMEM;
		goto err_epcm;
	}
	for (i = 0; i < isgx_emu.nr_pages; i++) {
		atomic_set(&isgx_emu.epcm[i].nr_children, 0);
		isgx_emu_page_abort(i);
	}

	ret = isgx_emu_paging_init();
	if (ret)
		goto err_masks;
	ret = isgx_emu_track_init();
	if (ret)
		goto err_paging;
	isgx_emu_lc_init();

	pr_info("EPC: %lu pages in %u section(s)\n", isgx_emu.nr_pages,
		isgx_emu.nr_sections);
	return 0;

err_paging:
	isgx_emu_paging_exit();
err_masks:
	kvfree(isgx_emu.track_masks);
err_epcm:
	kvfree(isgx_emu.epcm);
err_sections:
	isgx_emu_sections_free();
	percpu_free_rwsem(&isgx_emu.power_sem);
	return ret;
}

/**
 * isgx_emu_exit() - unload the model
 *
 * Context: process context (module exit).
 */
void isgx_emu_exit(void)
{
	isgx_emu_inject_exit();
	isgx_emu_track_exit();
	isgx_emu_paging_exit();
	kvfree(isgx_emu.track_masks);
	kvfree(isgx_emu.epcm);
	isgx_emu_sections_free();
	percpu_free_rwsem(&isgx_emu.power_sem);
}
