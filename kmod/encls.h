/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx: one wrapper per ENCLS leaf, dispatching to the hardware or to the
 * software model (emu backend).  No policy, no locks.
 *
 * Return convention (Linux's): 0 on success, a positive SGX_* code on an
 * error return, or SGX_ENCLS_FAULT_FLAG | trap number (13 #GP, 14 #PF)
 * when the leaf faulted.  All operands are kernel virtual addresses,
 * including the pointers inside PAGEINFO.
 *
 * Context: the emu backend may sleep in every leaf (page busy locks,
 * crypto, EINIT's big-number code), so call the wrappers from process
 * context without spinlocks held.  For EINIT, keep the task on one CPU
 * (migrate_disable()) from isgx_encls_lehash_write() until __einit()
 * returns, as with the real MSRs.
 */
#ifndef _ISGX_ENCLS_H
#define _ISGX_ENCLS_H

#include <linux/bug.h>
#include <linux/types.h>
#include <asm/trapnr.h>

#include "arch.h"
#include "emu/emu.h"

#define ENCLS_FAULT_FLAG	SGX_ENCLS_FAULT_FLAG

/* Retrieve the encoded trapnr from the specified return code. */
#define ENCLS_TRAPNR(r)		((r) & ~ENCLS_FAULT_FLAG)

/* Set when the real instruction is used; fixed at load time. */
extern bool isgx_encls_hw;

/**
 * encls_faulted() - did ENCLS take a fault
 * @ret:	return value of a wrapper
 *
 * Return: true for a fault (as opposed to an error code).
 */
static inline bool encls_faulted(int ret)
{
	return ret & ENCLS_FAULT_FLAG;
}

/**
 * encls_faulted_unexpectedly() - did ENCLS take a fault that a bug explains
 * @ret:	return value of a wrapper
 *
 * A #PF is an expected consequence of losing the EPC (suspend, power
 * loss) and is only counted; a #GP (or any other fault) means the driver
 * passed what the leaf refuses.  Error codes are the leaf's answer and
 * left to the caller.
 *
 * Return: true if @ret is a fault other than #PF.
 */
static inline bool encls_faulted_unexpectedly(int ret)
{
	return encls_faulted(ret) && ENCLS_TRAPNR(ret) != X86_TRAP_PF;
}

/**
 * ENCLS_WARN() - warn about an ENCLS result that only a bug explains
 * @r:		return value of a wrapper; 0 says nothing
 * @name:	the leaf, e.g. "EWB"
 *
 * The one format for every unexpected ENCLS result: leaf, then the value
 * in decimal and hex (a fault reads as ENCLS_FAULT_FLAG | trap number).
 * Once per call site, as WARN_ONCE().  Callers decide what is unexpected:
 * any non-zero result of a leaf that must not fail, or
 * encls_faulted_unexpectedly() where error codes are expected.
 *
 * Return: true if @r is non-zero, so that it can stand in a condition.
 */
#define ENCLS_WARN(r, name) ({						\
	int __r = (r);							\
	WARN_ONCE(__r, "%s returned %d (%#x)\n", (name), __r, __r);	\
})

/**
 * isgx_encls_new_tlb_faults() - would an enclave access to @epc through a
 * new translation fault because the page is BLOCKED
 * @epc:	a resident enclave page
 *
 * A CPU answers the access itself (#PF with PFEC.SGX, SIGSEGV from Linux);
 * the model cannot see it, so the fault handler asks before it maps a
 * page and fails the fault the same way (isgx_emu_page_blocked()).
 *
 * Context: any.
 * Return: true under the emu backend when the page is blocked; false with
 * the real instruction (the access faults by itself).
 */
static inline bool isgx_encls_new_tlb_faults(void *epc)
{
	return !isgx_encls_hw && isgx_emu_page_blocked(epc);
}

int isgx_hw_ecreate(struct isgx_pageinfo *pginfo, void *secs);
int isgx_hw_eadd(struct isgx_pageinfo *pginfo, void *epc);
int isgx_hw_eextend(void *secs, void *chunk);
int isgx_hw_einit(struct isgx_sigstruct *sigstruct, void *secs,
		  struct isgx_einittoken *token);
int isgx_hw_eremove(void *epc);
int isgx_hw_edbgrd(void *addr, u64 *data);
int isgx_hw_edbgwr(void *addr, u64 *data);
int isgx_hw_epa(void *epc);
int isgx_hw_eblock(void *epc);
int isgx_hw_etrack(void *secs);
int isgx_hw_ewb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot);
int isgx_hw_eldb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot);
int isgx_hw_eldu(struct isgx_pageinfo *pginfo, void *epc, void *va_slot);
void isgx_hw_lehash_write(const u64 hash[4]);

int isgx_encls_init(void);
void isgx_encls_exit(void);

static inline int __ecreate(struct isgx_pageinfo *pginfo, void *secs)
{
	return isgx_encls_hw ? isgx_hw_ecreate(pginfo, secs) :
			       isgx_emu_ecreate(pginfo, secs);
}

static inline int __eadd(struct isgx_pageinfo *pginfo, void *epc)
{
	return isgx_encls_hw ? isgx_hw_eadd(pginfo, epc) :
			       isgx_emu_eadd(pginfo, epc);
}

static inline int __eextend(void *secs, void *chunk)
{
	return isgx_encls_hw ? isgx_hw_eextend(secs, chunk) :
			       isgx_emu_eextend(secs, chunk);
}

static inline int __einit(struct isgx_sigstruct *sigstruct, void *secs,
			  struct isgx_einittoken *token)
{
	return isgx_encls_hw ? isgx_hw_einit(sigstruct, secs, token) :
			       isgx_emu_einit(sigstruct, secs, token);
}

static inline int __eremove(void *epc)
{
	return isgx_encls_hw ? isgx_hw_eremove(epc) : isgx_emu_eremove(epc);
}

static inline int __edbgrd(void *addr, u64 *data)
{
	return isgx_encls_hw ? isgx_hw_edbgrd(addr, data) :
			       isgx_emu_edbgrd(addr, data);
}

static inline int __edbgwr(void *addr, u64 *data)
{
	return isgx_encls_hw ? isgx_hw_edbgwr(addr, data) :
			       isgx_emu_edbgwr(addr, data);
}

static inline int __epa(void *epc)
{
	return isgx_encls_hw ? isgx_hw_epa(epc) :
			       isgx_emu_epa(SGX_PT_VA, epc);
}

static inline int __eblock(void *epc)
{
	return isgx_encls_hw ? isgx_hw_eblock(epc) : isgx_emu_eblock(epc);
}

static inline int __etrack(void *secs)
{
	return isgx_encls_hw ? isgx_hw_etrack(secs) : isgx_emu_etrack(secs);
}

static inline int __ewb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	return isgx_encls_hw ? isgx_hw_ewb(pginfo, epc, va_slot) :
			       isgx_emu_ewb(pginfo, epc, va_slot);
}

static inline int __eldb(struct isgx_pageinfo *pginfo, void *epc,
			 void *va_slot)
{
	return isgx_encls_hw ? isgx_hw_eldb(pginfo, epc, va_slot) :
			       isgx_emu_eldb(pginfo, epc, va_slot);
}

static inline int __eldu(struct isgx_pageinfo *pginfo, void *epc,
			 void *va_slot)
{
	return isgx_encls_hw ? isgx_hw_eldu(pginfo, epc, va_slot) :
			       isgx_emu_eldu(pginfo, epc, va_slot);
}

/**
 * isgx_encls_cpuid() - CPUID leaf 12H, real or emulated
 * @subleaf:	0 capabilities, 1 attributes, 2.. EPC sections
 * @regs:	EAX, EBX, ECX, EDX on return
 */
static inline void isgx_encls_cpuid(u32 subleaf, u32 regs[4])
{
	if (isgx_encls_hw)
		cpuid_count(ISGX_CPUID, subleaf, &regs[0], &regs[1], &regs[2],
			    &regs[3]);
	else
		isgx_emu_cpuid(ISGX_CPUID, subleaf, regs);
}

/**
 * isgx_encls_lehash_write() - program IA32_SGXLEPUBKEYHASH0..3 on this CPU
 * @hash:	MRSIGNER as four little-endian u64
 *
 * Context: migration disabled until the following __einit() returns.
 */
static inline void isgx_encls_lehash_write(const u64 hash[4])
{
	if (isgx_encls_hw)
		isgx_hw_lehash_write(hash);
	else
		isgx_emu_lehash_write(hash);
}

/**
 * isgx_encls_kick() - body of the IPI that kicks CPUs out of enclaves
 * @info:	unused (smp_call_func_t)
 *
 * On hardware the interrupt itself is the AEX; the model must be told.
 *
 * Context: hard IRQ, on the kicked CPU.
 */
static inline void isgx_encls_kick(void *info)
{
	if (!isgx_encls_hw)
		isgx_emu_aex(info);
}

#endif /* _ISGX_ENCLS_H */
