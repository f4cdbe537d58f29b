// SPDX-License-Identifier: GPL-2.0
/* ws.c - the enclaves that hold wsgen's working set. */
#include "wsgen.h"

#include <stdlib.h>
#include <string.h>

/* One enclave: TCS and SSA as the layout has them, @per zeroed RW pages. */
static int64_t build_rw_zero(struct isgx_enclave *e, int fd, const struct isgx_layout *l,
			     EVP_PKEY *key)
{
	static uint8_t page[SGX_PAGE_SIZE] __attribute__((aligned(SGX_PAGE_SIZE)));
	struct isgx_layout_page lp;
	struct sgx_sigstruct ss;
	struct sgx_secs secs;
	int64_t ret;

	isgx_layout_secs(l, &secs);
	ret = isgx_enclave_create(e, fd, &secs);
	for (unsigned int i = 0; !ret && i < l->nr_pages; i++) {
		isgx_layout_page(l, i, &lp, page);
		if (i >= 2 * l->nr_tcs) {
			memset(page, 0, sizeof(page));
			lp.secinfo = SGX_SECINFO_REG | SGX_SECINFO_R | SGX_SECINFO_W;
		}
		ret = isgx_enclave_add(e, lp.offset, page, lp.secinfo, lp.add_flags);
	}
	if (!ret)
		ret = isgx_enclave_sign(e, key, &ss);
	if (!ret)
		ret = isgx_enclave_init(e, &ss, NULL);
	return ret;
}

int ws_build(struct ws *w, int fd, unsigned int nr_encl, unsigned int per, bool rw_zero,
	     EVP_PKEY *key, char *err)
{
	struct isgx_layout l = { .nr_pages = per + 2, .nr_tcs = 1, .debug = true,
				 .skip_eextend = true };
	struct sgx_sigstruct ss;
	unsigned int i;
	int64_t ret;

	w->nr_encl = nr_encl;
	w->per = per;
	w->e = calloc(nr_encl, sizeof(*w->e));
	if (!w->e) {
		snprintf(err, 256, "out of memory");
		return -1;
	}
	for (i = 0; i < nr_encl; i++) {
		ret = rw_zero ? build_rw_zero(&w->e[i], fd, &l, key) :
				isgx_enclave_build(&w->e[i], fd, &l, key, &ss);
		if (ret) {
			snprintf(err, 256, "enclave %u of %u: %s", i, nr_encl,
				 isgx_enclave_error(&w->e[i]));
			if (w->e[i].created)
				isgx_enclave_destroy(&w->e[i]);
			w->nr_encl = i;
			ws_destroy(w);
			return -1;
		}
	}
	return 0;
}

void ws_destroy(struct ws *w)
{
	for (unsigned int i = 0; i < w->nr_encl; i++)
		isgx_enclave_destroy(&w->e[i]);
	free(w->e);
	w->e = NULL;
	w->nr_encl = 0;
}
