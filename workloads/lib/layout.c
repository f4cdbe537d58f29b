// SPDX-License-Identifier: GPL-2.0
/* layout.c - the deterministic enclave layout (see layout.h). */
#include "layout.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "isgx.h"

#define ERRLEN 128

/* Data page permissions cycle so that every REG kind is exercised. */
static const uint64_t data_perms[] = {
	SGX_SECINFO_R | SGX_SECINFO_W,
	SGX_SECINFO_R,
	SGX_SECINFO_R | SGX_SECINFO_X,
};
#define NR_DATA_PERMS (sizeof(data_perms) / sizeof(data_perms[0]))

int isgx_layout_check(const struct isgx_layout *l, char *err)
{
	if (l->nr_tcs < 1) {
		snprintf(err, ERRLEN, "an enclave needs at least one TCS");
		return -EINVAL;
	}
	if (l->nr_pages > ISGX_LAYOUT_MAX_PAGES || l->nr_tcs > ISGX_LAYOUT_MAX_PAGES / 2) {
		snprintf(err, ERRLEN, "at most %u pages", ISGX_LAYOUT_MAX_PAGES);
		return -EINVAL;
	}
	if (l->nr_pages < 2 * l->nr_tcs) {
		snprintf(err, ERRLEN, "%u pages cannot hold %u TCS and their SSA pages (need %u)",
			 l->nr_pages, l->nr_tcs, 2 * l->nr_tcs);
		return -EINVAL;
	}
	/* A 32-bit enclave must lie below 4 GiB and be smaller than 2^31. */
	if (l->mode32 && isgx_layout_size(l) >= (1ULL << 31)) {
		snprintf(err, ERRLEN, "a 32-bit enclave must be smaller than 2 GiB");
		return -EINVAL;
	}
	return 0;
}

uint64_t isgx_layout_size(const struct isgx_layout *l)
{
	uint64_t size = 2 * SGX_PAGE_SIZE;

	while (size < (uint64_t)l->nr_pages * SGX_PAGE_SIZE)
		size <<= 1;
	return size;
}

void isgx_layout_secs(const struct isgx_layout *l, struct sgx_secs *secs)
{
	memset(secs, 0, sizeof(*secs));
	secs->size = isgx_layout_size(l);
	secs->ssa_frame_size = 1;
	secs->attributes = (l->mode32 ? 0 : SGX_ATTR_MODE64BIT) | (l->debug ? SGX_ATTR_DEBUG : 0);
	secs->xfrm = 3;		/* x87 and SSE: the minimum, fits one SSA page */
}

uint64_t isgx_layout_word(uint64_t offset)
{
	/* splitmix64's finaliser: distinct, non-zero-looking words per offset. */
	uint64_t z = offset + 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void isgx_layout_page(const struct isgx_layout *l, unsigned int i,
		      struct isgx_layout_page *p, void *contents)
{
	unsigned int t = l->nr_tcs;
	uint64_t data = (uint64_t)2 * t * SGX_PAGE_SIZE;

	memset(p, 0, sizeof(*p));
	p->offset = (uint64_t)i * SGX_PAGE_SIZE;
	p->add_flags = l->skip_eextend ? SGX_ADD_SKIP_EEXTEND : 0;
	memset(contents, 0, SGX_PAGE_SIZE);
	if (i < t) {
		struct sgx_tcs *tcs = contents;

		p->secinfo = SGX_SECINFO_TCS;
		tcs->ossa = (uint64_t)(t + i) * SGX_PAGE_SIZE;
		tcs->nssa = 1;
		/* No code runs (there is no ENCLU); any in-range offset will do. */
		tcs->oentry = data;
		tcs->ofsbase = data;
		tcs->ogsbase = data;
		tcs->fslimit = 0xfff;
		tcs->gslimit = 0xfff;
	} else if (i < 2 * t) {
		p->secinfo = SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W;
	} else {
		uint64_t *w = contents;

		p->secinfo = SGX_SECINFO_REG | data_perms[(i - 2 * t) % NR_DATA_PERMS];
		for (unsigned int j = 0; j < SGX_PAGE_SIZE / 8; j++)
			w[j] = isgx_layout_word(p->offset + 8 * j);
	}
}

int isgx_layout_find(const struct isgx_layout *l, uint64_t perm)
{
	for (unsigned int k = 0; k < NR_DATA_PERMS; k++)
		if (data_perms[k] == perm && 2 * l->nr_tcs + k < l->nr_pages)
			return 2 * l->nr_tcs + k;
	return -1;
}
