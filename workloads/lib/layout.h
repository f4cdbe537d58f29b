/* SPDX-License-Identifier: GPL-2.0 */
/*
 * layout.h - the deterministic enclave layout that the isgx CLI builds,
 * measures and signs, and that the tests reuse.  No OpenSSL: the 32-bit
 * compat test lays out the same enclave and loads it with a SIGSTRUCT
 * signed beforehand by the 64-bit CLI.
 *
 * For nr_pages pages and nr_tcs threads, in enclave order:
 *
 *	[0, t)		TCS i: OSSA = SSA i, NSSA 1, OENTRY = OFSBASE =
 *			OGSBASE = first data page, FS/GSLIMIT 0xfff
 *	[t, 2t)		SSA i: REG RW, zero-filled (one frame, SSAFRAMESIZE 1)
 *	[2t, N)		data page k: REG RW, R, RX, RW, R, RX, ... filled with
 *			isgx_layout_word() of each 8-byte word's offset
 *
 * nr_pages counts the pages added with ADD_PAGE; the SECS is one more EPC
 * page outside the enclave's address range.  SIZE is the smallest power of
 * two of at least two pages that holds nr_pages pages.
 */
#ifndef ISGX_LAYOUT_H
#define ISGX_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "sgx_arch.h"

/* Largest enclave the layout describes (pages): 4 GiB. */
#define ISGX_LAYOUT_MAX_PAGES	(1U << 20)

struct isgx_layout {
	unsigned int nr_pages;	/* pages added, TCS + SSA + data */
	unsigned int nr_tcs;
	bool debug;		/* ATTRIBUTES.DEBUG */
	bool mode32;		/* MODE64BIT clear: a 32-bit enclave */
	bool skip_eextend;	/* SGX_ADD_SKIP_EEXTEND on every page */
};

struct isgx_layout_page {
	uint64_t offset;	/* from the enclave base */
	uint64_t secinfo;	/* SECINFO.FLAGS */
	uint32_t add_flags;	/* sgx_add_param.flags */
};

/* Check @l; 0 or -EINVAL with the reason in @err (at least 128 bytes). */
int isgx_layout_check(const struct isgx_layout *l, char *err);
/* SIZE of the enclave in bytes. */
uint64_t isgx_layout_size(const struct isgx_layout *l);
/* The SECS to pass to CREATE (BASEADDR 0: the driver chooses it). */
void isgx_layout_secs(const struct isgx_layout *l, struct sgx_secs *secs);
/* Page @i (0 <= i < nr_pages): where it goes, how, and its 4096 bytes. */
void isgx_layout_page(const struct isgx_layout *l, unsigned int i,
		      struct isgx_layout_page *p, void *contents);
/* Index of the first data page with SECINFO @perm (R/W/X bits), or -1. */
int isgx_layout_find(const struct isgx_layout *l, uint64_t perm);
/* The data pattern: the 8 bytes at enclave offset @offset (8-aligned). */
uint64_t isgx_layout_word(uint64_t offset);

#endif /* ISGX_LAYOUT_H */
