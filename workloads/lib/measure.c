// SPDX-License-Identifier: GPL-2.0
/* measure.c - MRENCLAVE in user space (encls-spec.md §5.1). */
#include "measure.h"

#include <errno.h>
#include <string.h>

#include <openssl/evp.h>

static void put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = v >> (8 * i);
}

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = v >> (8 * i);
}

static void update(struct isgx_measure *m, const void *data, size_t len)
{
	EVP_DigestUpdate(m->md_ctx, data, len);
}

int isgx_measure_ecreate(struct isgx_measure *m, uint32_t ssa_frame_size, uint64_t size)
{
	uint8_t rec[64] = "ECREATE";

	m->md_ctx = EVP_MD_CTX_new();
	if (!m->md_ctx)
		return -ENOMEM;
	if (!EVP_DigestInit_ex(m->md_ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(m->md_ctx);
		m->md_ctx = NULL;
		return -EIO;
	}
	put_u32(rec + 8, ssa_frame_size);
	put_u64(rec + 12, size);
	update(m, rec, sizeof(rec));
	return 0;
}

void isgx_measure_eadd(struct isgx_measure *m, uint64_t offset, uint64_t flags)
{
	uint8_t rec[64] = "EADD";

	put_u64(rec + 8, offset);
	put_u64(rec + 16, flags);	/* SECINFO bytes 0-47: FLAGS, then zeros */
	update(m, rec, sizeof(rec));
}

void isgx_measure_eextend(struct isgx_measure *m, uint64_t chunk_offset, const void *chunk)
{
	uint8_t rec[64] = "EEXTEND";

	put_u64(rec + 8, chunk_offset);
	update(m, rec, sizeof(rec));
	update(m, chunk, 256);
}

void isgx_measure_page(struct isgx_measure *m, uint64_t offset, const void *page)
{
	for (unsigned int i = 0; i < SGX_PAGE_SIZE; i += 256)
		isgx_measure_eextend(m, offset + i, (const uint8_t *)page + i);
}

int isgx_measure_final(struct isgx_measure *m, uint8_t mrenclave[SGX_HASH_SIZE])
{
	unsigned int len = 0;
	int ok = EVP_DigestFinal_ex(m->md_ctx, mrenclave, &len);

	EVP_MD_CTX_free(m->md_ctx);
	m->md_ctx = NULL;
	return ok && len == SGX_HASH_SIZE ? 0 : -EIO;
}
