// SPDX-License-Identifier: GPL-2.0
/* rw_enclave.c - the data enclave of the pager tests (rw_enclave.h). */
#include "rw_enclave.h"

#include <string.h>

uint64_t isgx_rw_pattern(unsigned int page, unsigned int word, uint64_t gen)
{
	return (uint64_t)page << 40 ^ (uint64_t)word << 20 ^ gen * 0x9e3779b97f4a7c15ULL;
}

uint64_t isgx_rw_data_secinfo(const struct isgx_rw_enclave *r, unsigned int i)
{
	if (r->mixed && i % 16 == ISGX_RW_MIXED_R)
		return SGX_SECINFO_REG | SGX_SECINFO_R;
	if (r->mixed && i % 16 == ISGX_RW_MIXED_NONE)
		return SGX_SECINFO_REG;
	return SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W;
}

int64_t isgx_rw_create(struct isgx_rw_enclave *r, int fd, unsigned int nr_data, bool mixed)
{
	static uint64_t page[ISGX_RW_WORDS] __attribute__((aligned(4096)));
	const uint64_t rw = SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W;
	struct sgx_tcs *tcs = (void *)page;
	uint64_t size = 2 * SGX_PAGE_SIZE;
	struct sgx_secs secs;
	int64_t ret;

	while (size < (uint64_t)(nr_data + 2) * SGX_PAGE_SIZE)
		size <<= 1;
	memset(r, 0, sizeof(*r));
	r->nr_data = nr_data;
	r->mixed = mixed;
	isgx_secs_init(&secs, size, SGX_ATTR_MODE64BIT | SGX_ATTR_DEBUG);
	ret = isgx_enclave_create(&r->e, fd, &secs);
	if (ret)
		return ret;
	memset(page, 0, sizeof(page));
	tcs->ossa = SGX_PAGE_SIZE;
	tcs->nssa = 1;
	tcs->fslimit = 0xfff;
	tcs->gslimit = 0xfff;
	ret = isgx_enclave_add(&r->e, 0, page, SGX_SECINFO_TCS, SGX_ADD_SKIP_EEXTEND);
	memset(page, 0, sizeof(page));
	if (!ret)
		ret = isgx_enclave_add(&r->e, SGX_PAGE_SIZE, page, rw, SGX_ADD_SKIP_EEXTEND);
	for (unsigned int i = 0; !ret && i < nr_data; i++) {
		for (unsigned int w = 0; w < ISGX_RW_WORDS; w++)
			page[w] = isgx_rw_pattern(i, w, 0);
		/* Measured: the kernel's MRENCLAVE must agree after eviction too. */
		ret = isgx_enclave_add(&r->e, (uint64_t)(i + 2) * SGX_PAGE_SIZE, page,
				       isgx_rw_data_secinfo(r, i), i % 8 ? SGX_ADD_SKIP_EEXTEND : 0);
	}
	return ret;
}

uint64_t *isgx_rw_data_page(struct isgx_rw_enclave *r, unsigned int i)
{
	return isgx_enclave_ptr(&r->e, (uint64_t)(i + 2) * SGX_PAGE_SIZE);
}
