/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rw_enclave.h - the data enclave the pager and fault-injection tests
 * page: one TCS, one SSA page and @nr_data data pages (offsets 2..),
 * each filled with isgx_rw_pattern() of its index, word and a generation, so
 * that expected contents are computed, never read back from the module.
 */
#ifndef ISGX_RW_ENCLAVE_H
#define ISGX_RW_ENCLAVE_H

#include <stdbool.h>
#include <stdint.h>

#include "enclave.h"
#include "isgx.h"

#define ISGX_RW_WORDS	(SGX_PAGE_SIZE / 8)
/* In a mixed enclave, data page i is R only when i % 16 is ISGX_RW_MIXED_R ... */
#define ISGX_RW_MIXED_R	13
/* ... and has no permission at all when it is ISGX_RW_MIXED_NONE. */
#define ISGX_RW_MIXED_NONE	15

struct isgx_rw_enclave {
	struct isgx_enclave e;
	unsigned int nr_data;
	bool mixed;
};

/* The word @word of data page @page in generation @gen. */
uint64_t isgx_rw_pattern(unsigned int page, unsigned int word, uint64_t gen);
/* SECINFO flags of data page @i (RW, or as a mixed enclave has it). */
uint64_t isgx_rw_data_secinfo(const struct isgx_rw_enclave *r, unsigned int i);
/* Create and add, generation 0, no EINIT; 0 or the library's error (in @r->e). */
int64_t isgx_rw_create(struct isgx_rw_enclave *r, int fd, unsigned int nr_data, bool mixed);
/* Data page @i in the enclave's mapping. */
uint64_t *isgx_rw_data_page(struct isgx_rw_enclave *r, unsigned int i);

#endif /* ISGX_RW_ENCLAVE_H */
