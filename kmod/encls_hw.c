// SPDX-License-Identifier: GPL-2.0
/*
 * isgx hw backend: the real ENCLS instruction.  UNTESTED: no machine of
 * the project has SGX.  Modelled on Linux's arch/x86/kernel/cpu/sgx/encls.h:
 * a fault inside ENCLS is fixed up by the kernel's EX_TYPE_FAULT_SGX
 * handler, which puts SGX_ENCLS_FAULT_FLAG | trapnr into EAX.
 */
#include <linux/module.h>
#include <asm/asm.h>
#include <asm/msr.h>

#include "encls.h"

/* Leaves that return an error code in EAX. */
#define __encls_ret_N(rax, inputs...)				\
	({							\
	int ret;						\
	asm volatile(						\
	"1: .byte 0x0f, 0x01, 0xcf;\n\t"			\
	"2:\n"							\
	_ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT_SGX)		\
	: "=a"(ret)						\
	: "a"(rax), inputs					\
	: "memory", "cc");					\
	ret;							\
	})

#define __encls_ret_1(rax, rcx)		__encls_ret_N(rax, "c"(rcx))
#define __encls_ret_2(rax, rbx, rcx)	__encls_ret_N(rax, "b"(rbx), "c"(rcx))
#define __encls_ret_3(rax, rbx, rcx, rdx)			\
	__encls_ret_N(rax, "b"(rbx), "c"(rcx), "d"(rdx))

/* Leaves without an error code: EAX is zeroed after success. */
#define __encls_N(rax, rbx_out, inputs...)			\
	({							\
	int ret;						\
	asm volatile(						\
	"1: .byte 0x0f, 0x01, 0xcf;\n\t"			\
	"   xor %%eax,%%eax;\n"					\
	"2:\n"							\
	_ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT_SGX)		\
	: "=a"(ret), "=b"(rbx_out)				\
	: "a"(rax), inputs					\
	: "memory", "cc");					\
	ret;							\
	})

#define __encls_2(rax, rbx, rcx)				\
	({							\
	unsigned long ign_rbx_out;				\
	__encls_N(rax, ign_rbx_out, "b"(rbx), "c"(rcx));	\
	})

/**
 * isgx_hw_ecreate() - ENCLS[ECREATE] on the CPU
 * @pginfo:	PAGEINFO
 * @secs:	target EPC page
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_ecreate(struct isgx_pageinfo *pginfo, void *secs)
{
	return __encls_2(ECREATE, pginfo, secs);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_ecreate, ISGX);

/**
 * isgx_hw_eadd() - ENCLS[EADD] on the CPU
 * @pginfo:	PAGEINFO
 * @epc:	target EPC page
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_eadd(struct isgx_pageinfo *pginfo, void *epc)
{
	return __encls_2(EADD, pginfo, epc);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_eadd, ISGX);

/**
 * isgx_hw_eextend() - ENCLS[EEXTEND] on the CPU
 * @secs:	SECS
 * @chunk:	256-byte chunk
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_eextend(void *secs, void *chunk)
{
	return __encls_2(EEXTEND, secs, chunk);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_eextend, ISGX);

/**
 * isgx_hw_einit() - ENCLS[EINIT] on the CPU
 * @sigstruct:	SIGSTRUCT
 * @secs:	SECS
 * @token:	EINITTOKEN
 *
 * Context: preemption or migration disabled since the LE hash was written.
 * Return: see encls.h.
 */
int isgx_hw_einit(struct isgx_sigstruct *sigstruct, void *secs,
		  struct isgx_einittoken *token)
{
	return __encls_ret_3(EINIT, sigstruct, secs, token);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_einit, ISGX);

/**
 * isgx_hw_eremove() - ENCLS[EREMOVE] on the CPU
 * @epc:	EPC page
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_eremove(void *epc)
{
	return __encls_ret_1(EREMOVE, epc);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_eremove, ISGX);

/**
 * isgx_hw_edbgrd() - ENCLS[EDBGRD] on the CPU
 * @addr:	EPC address
 * @data:	value read
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_edbgrd(void *addr, u64 *data)
{
	unsigned long rbx_out;
	int ret;

	asm volatile("1: .byte 0x0f, 0x01, 0xcf;\n\t"
		     "2:\n"
		     _ASM_EXTABLE_TYPE(1b, 2b, EX_TYPE_FAULT_SGX)
		     : "=a"(ret), "=b"(rbx_out)
		     : "a"(EDBGRD), "c"(addr)
		     : "memory", "cc");
	if (!ret)
		*data = rbx_out;
	return ret;
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_edbgrd, ISGX);

/**
 * isgx_hw_edbgwr() - ENCLS[EDBGWR] on the CPU
 * @addr:	EPC address
 * @data:	value to write
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_edbgwr(void *addr, u64 *data)
{
	return __encls_ret_2(EDBGWR, *data, addr);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_edbgwr, ISGX);

/**
 * isgx_hw_epa() - ENCLS[EPA] on the CPU
 * @epc:	EPC page
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_epa(void *epc)
{
	unsigned long rbx = SGX_PT_VA;

	return __encls_2(EPA, rbx, epc);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_epa, ISGX);

/**
 * isgx_hw_eblock() - ENCLS[EBLOCK] on the CPU
 * @epc:	EPC page
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_eblock(void *epc)
{
	return __encls_ret_1(EBLOCK, epc);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_eblock, ISGX);

/**
 * isgx_hw_etrack() - ENCLS[ETRACK] on the CPU
 * @secs:	SECS
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_etrack(void *secs)
{
	return __encls_ret_1(ETRACK, secs);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_etrack, ISGX);

/**
 * isgx_hw_ewb() - ENCLS[EWB] on the CPU
 * @pginfo:	PAGEINFO
 * @epc:	EPC page
 * @va_slot:	VA slot
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_ewb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	return __encls_ret_3(EWB, pginfo, epc, va_slot);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_ewb, ISGX);

/**
 * isgx_hw_eldb() - ENCLS[ELDB] on the CPU
 * @pginfo:	PAGEINFO
 * @epc:	EPC page
 * @va_slot:	VA slot
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_eldb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	return __encls_ret_3(ELDB, pginfo, epc, va_slot);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_eldb, ISGX);

/**
 * isgx_hw_eldu() - ENCLS[ELDU] on the CPU
 * @pginfo:	PAGEINFO
 * @epc:	EPC page
 * @va_slot:	VA slot
 *
 * Context: any.
 * Return: see encls.h.
 */
int isgx_hw_eldu(struct isgx_pageinfo *pginfo, void *epc, void *va_slot)
{
	return __encls_ret_3(ELDU, pginfo, epc, va_slot);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_eldu, ISGX);

/**
 * isgx_hw_lehash_write() - WRMSR IA32_SGXLEPUBKEYHASH0..3
 * @hash:	four little-endian u64
 *
 * Context: preemption or migration disabled.
 */
void isgx_hw_lehash_write(const u64 hash[4])
{
	int i;

	for (i = 0; i < 4; i++)
		wrmsrl(MSR_ISGX_LEPUBKEYHASH0 + i, hash[i]);
}
EXPORT_SYMBOL_NS_GPL(isgx_hw_lehash_write, ISGX);
