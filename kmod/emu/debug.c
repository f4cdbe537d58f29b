// SPDX-License-Identifier: GPL-2.0
/*
 * isgx emu: EDBGRD and EDBGWR, the debugger's window into debug enclaves.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": emu: " fmt

#include <linux/mm.h>
#include <linux/module.h>

#include "internal.h"

static int isgx_emu_edbg(bool write, void *addr, u64 *data)
{
	struct isgx_emu_lockset ls = {};
	unsigned long off = (unsigned long)addr & ~PAGE_MASK;
	struct isgx_emu_epcm *e;
	struct isgx_secs *secs;
	long idx;
	u64 val;
	int ret;

	ret = isgx_emu_epc_operand(addr, 8, &idx);
	if (ret)
		return ret;
	if (write) {
		ret = isgx_emu_read(&val, data, sizeof(val));
		if (ret)
			return ret;
	}

	ret = isgx_emu_leaf_begin(&ls, ISGX_EMU_GP, ISGX_EMU_WANT_VALID, idx);
	if (ret)
		return ret;
	e = isgx_emu_epcm(idx);
	if (!(e->pt == SGX_PT_REG || e->pt == SGX_PT_TCS ||
	      (!write && e->pt == SGX_PT_VA))) {
		ret = ISGX_EMU_PF;
		goto out;
	}
	if (e->flags & (SGX_SECINFO_PENDING | SGX_SECINFO_MODIFIED)) {
		ret = SGX_PAGE_NOT_DEBUGGABLE;
		goto out;
	}
	if (e->pt == SGX_PT_TCS &&
	    (write ? off != offsetof(struct isgx_tcs, flags) :
		     off >= SGX_TCS_RESERVED_OFFSET)) {
		ret = ISGX_EMU_GP;
		goto out;
	}
	if (e->pt != SGX_PT_VA) {
		/* A valid child pins its SECS. */
		secs = isgx_emu_epc_page(e->owner);
		if (!(secs->attributes & SGX_ATTR_DEBUG)) {
			ret = ISGX_EMU_GP;
			goto out;
		}
	}

	if (write) {
		u64 *dst = addr;

		if (e->pt == SGX_PT_TCS)
			val = (*dst & ~SGX_TCS_DBGOPTIN) |
			      (val & SGX_TCS_DBGOPTIN);
		*dst = val;
		ret = 0;
	} else {
		val = *(u64 *)addr;
		/* A VA slot never reveals its version. */
		if (e->pt == SGX_PT_VA)
			val = (val & ~7ULL) ? ~0ULL : 0;
		ret = isgx_emu_write(data, &val, sizeof(val));
	}
out:
	isgx_emu_leaf_end(&ls);
	return ret;
}

/**
 * isgx_emu_edbgrd() - ENCLS[EDBGRD]
 * @addr:	8-byte aligned address in a REG, TCS or VA page of the EPC
 * @data:	where the 8 bytes read are stored
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_PAGE_NOT_DEBUGGABLE, or a fault (#GP, #PF).
 */
int isgx_emu_edbgrd(void *addr, u64 *data)
{
	return isgx_emu_edbg(false, addr, data);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_edbgrd, ISGX);

/**
 * isgx_emu_edbgwr() - ENCLS[EDBGWR]
 * @addr:	8-byte aligned address in a REG or TCS page of the EPC
 * @data:	the 8 bytes to write
 *
 * Context: process context, may sleep.
 * Return: 0, SGX_PAGE_NOT_DEBUGGABLE, or a fault (#GP, #PF).
 */
int isgx_emu_edbgwr(void *addr, u64 *data)
{
	return isgx_emu_edbg(true, addr, data);
}
EXPORT_SYMBOL_NS_GPL(isgx_emu_edbgwr, ISGX);
