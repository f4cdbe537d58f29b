/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx emu backend: the public face of the software ENCLS model.
 *
 * The driver reaches the leaves through encls.h, never directly; what is
 * declared here beyond the leaves is what a CPU has besides ENCLS: the
 * EPC sections and CPUID leaf 12H, the LE-key-hash MSRs, the AEX that an
 * interrupt causes, and the bookkeeping that stands in for "threads inside
 * the enclave" (which mms map an enclave).  The isgx_emu_test_*() hooks
 * exist for the in-kernel test module only.
 *
 * Every leaf takes kernel virtual addresses, as the hardware takes linear
 * addresses, and returns 0, a positive SGX_* code, or
 * SGX_ENCLS_FAULT_FLAG | trap number.  Bad operands never crash the model:
 * memory outside the EPC is read and written with the _nofault accessors.
 */
#ifndef _ISGX_EMU_H
#define _ISGX_EMU_H

#include <linux/cpumask.h>
#include <linux/mm_types.h>
#include <linux/types.h>

#include "../arch.h"

/**
 * struct isgx_emu_section - one physically contiguous emulated EPC section
 * @base:	kernel virtual address of the first page
 * @phys:	physical address of the first page
 * @nr_pages:	number of 4 KiB pages
 */
struct isgx_emu_section {
	void *base;
	phys_addr_t phys;
	unsigned long nr_pages;
};

int isgx_emu_init(void);
void isgx_emu_exit(void);

int isgx_emu_ecreate(struct isgx_pageinfo *pginfo, void *secs);
int isgx_emu_eadd(struct isgx_pageinfo *pginfo, void *epc);
int isgx_emu_eextend(void *secs, void *chunk);
int isgx_emu_einit(struct isgx_sigstruct *sigstruct, void *secs,
		   struct isgx_einittoken *token);
int isgx_emu_eremove(void *epc);
int isgx_emu_edbgrd(void *addr, u64 *data);
int isgx_emu_edbgwr(void *addr, u64 *data);
int isgx_emu_epa(unsigned long rbx, void *epc);
int isgx_emu_eblock(void *epc);
int isgx_emu_etrack(void *secs);
int isgx_emu_ewb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot);
int isgx_emu_eldb(struct isgx_pageinfo *pginfo, void *epc, void *va_slot);
int isgx_emu_eldu(struct isgx_pageinfo *pginfo, void *epc, void *va_slot);
int isgx_emu_encls(unsigned int leaf, unsigned long rbx, unsigned long rcx,
		   unsigned long rdx);

void isgx_emu_cpuid(u32 leaf, u32 subleaf, u32 regs[4]);
unsigned int isgx_emu_nr_sections(void);
const struct isgx_emu_section *isgx_emu_section_get(unsigned int i);
bool isgx_emu_epc_contains(const void *addr);
bool isgx_emu_page_blocked(const void *epc);

void isgx_emu_lehash_write(const u64 hash[4]);
void isgx_emu_aex(void *info);
int isgx_emu_encl_add_mm(void *secs, struct mm_struct *mm);
void isgx_emu_encl_del_mm(void *secs, struct mm_struct *mm);
void isgx_emu_mm_forget(struct mm_struct *mm);

void isgx_emu_power_loss(void);

/**
 * enum isgx_emu_point - where the pager may lose power (power_loss_at)
 * @ISGX_EMU_POINT_NONE:	nowhere
 * @ISGX_EMU_POINT_BLOCKED:	a batch is blocked, before its ETRACK and EWBs
 * @ISGX_EMU_POINT_WRITTEN:	a page is written (EWB), before its EPC page is freed
 */
enum isgx_emu_point {
	ISGX_EMU_POINT_NONE,
	ISGX_EMU_POINT_BLOCKED,
	ISGX_EMU_POINT_WRITTEN,
};

void isgx_emu_inject_point(enum isgx_emu_point point);
void isgx_emu_set_power_loss_notify(void (*fn)(void));
u64 isgx_emu_power_gen(void);

/* Test hooks (isgx_emu_test.ko). */
int isgx_emu_test_set_inside(void *secs, const struct cpumask *mask);
int isgx_emu_test_hold(void *epc, bool etrack);
void isgx_emu_test_release(void *epc);
int isgx_emu_test_share(void *epc);
void isgx_emu_test_unshare(void *epc);
void isgx_emu_test_set_strict(bool strict);
int isgx_emu_test_set_unmasked_pct(unsigned int pct);
int isgx_emu_test_set_lc_allow(const u8 *mrsigner, unsigned int nr);
int isgx_emu_test_set_tick(unsigned int us);
u64 isgx_emu_test_secs_epoch(void *secs);
int isgx_emu_test_set_state(void *epc, u64 state);

#endif /* _ISGX_EMU_H */
