// SPDX-License-Identifier: GPL-2.0
/* enclave.c - build, measure, sign and load enclaves (see enclave.h). */
#define _GNU_SOURCE
#include "enclave.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "isgx.h"
#include "sign.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int64_t fail(struct isgx_enclave *e, int64_t ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Record "<step>: <code name>" and return @ret unchanged. */
static int64_t fail(struct isgx_enclave *e, int64_t ret, const char *fmt, ...)
{
	char name[ISGX_RET_NAME_LEN];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof(e->err))
		snprintf(e->err + n, sizeof(e->err) - n, ": %s", isgx_ret_name(ret, name));
	return ret;
}

static void measure_drop(struct isgx_enclave *e)
{
	uint8_t unused[SGX_HASH_SIZE];

	/* Finishing is the only way measure.h frees its context. */
	if (e->measuring)
		isgx_measure_final(&e->measure, unused);
	e->measuring = false;
}

void isgx_secs_init(struct sgx_secs *secs, uint64_t size, uint64_t attributes)
{
	memset(secs, 0, sizeof(*secs));
	secs->size = size;
	secs->ssa_frame_size = 1;
	secs->attributes = attributes;
	secs->xfrm = 3;
}

int64_t isgx_enclave_create(struct isgx_enclave *e, int fd, const struct sgx_secs *secs)
{
	struct sgx_create_param p = { 0 };
	uint64_t t0;
	int64_t ret;
	int r;

	memset(e, 0, sizeof(*e));
	e->fd = fd;
	e->secs = *secs;
	/* The driver chooses the base; what the SECS says is overwritten. */
	e->secs.base = 0;
	if (fd >= 0) {
		p.secs = (uintptr_t)&e->secs;
		t0 = now_ns();
		ret = isgx_ioctl(fd, SGX_IOC_ENCLAVE_CREATE, &p);
		e->create_ns = now_ns() - t0;
		if (ret)
			return fail(e, ret, "CREATE of %#" PRIx64 " bytes", secs->size);
		e->base = p.addr;
		e->created = true;
	}
	r = isgx_measure_ecreate(&e->measure, secs->ssa_frame_size, secs->size);
	if (r)
		return fail(e, r, "measuring ECREATE");
	e->measuring = true;
	return 0;
}

int64_t isgx_enclave_add(struct isgx_enclave *e, uint64_t offset, const void *src,
			 uint64_t secinfo, uint32_t flags)
{
	struct sgx_secinfo si = { .flags = secinfo };
	struct sgx_add_param p = {
		.addr = e->base + offset,
		.user_addr = (uintptr_t)src,
		.secinfo = (uintptr_t)&si,
		.flags = flags,
	};
	uint64_t measured_flags = secinfo;
	uint8_t tcs[SGX_PAGE_SIZE];
	const void *measured = src;
	uint64_t t0;
	int64_t ret;

	if (!e->measuring)
		return fail(e, -EBUSY, "ADD_PAGE at base+%#" PRIx64 " after the measurement was finished",
			    offset);
	if (e->fd >= 0) {
		t0 = now_ns();
		ret = isgx_ioctl(e->fd, SGX_IOC_ENCLAVE_ADD_PAGE, &p);
		e->add_ns += now_ns() - t0;
		/* A refused page is not part of the enclave: measure nothing. */
		if (ret)
			return fail(e, ret, "ADD_PAGE at base+%#" PRIx64, offset);
	}
	e->nr_added++;

	/* EADD sanitises a TCS before it is measured (spec §4.2 step 10). */
	if ((secinfo & 0xff00) == SGX_SECINFO_TCS) {
		struct sgx_tcs *t = (struct sgx_tcs *)tcs;

		memcpy(tcs, src, sizeof(tcs));
		t->state = 0;
		t->flags &= ~SGX_TCS_DBGOPTIN;
		t->cssa = 0;
		t->aep = 0;
		measured = tcs;
		measured_flags &= ~(SGX_SECINFO_R | SGX_SECINFO_W | SGX_SECINFO_X);
	}
	isgx_measure_eadd(&e->measure, offset, measured_flags);
	if (!(flags & SGX_ADD_SKIP_EEXTEND))
		isgx_measure_page(&e->measure, offset, measured);
	return 0;
}

int64_t isgx_enclave_add_layout(struct isgx_enclave *e, const struct isgx_layout *l)
{
	uint8_t page[SGX_PAGE_SIZE] __attribute__((aligned(SGX_PAGE_SIZE)));
	struct isgx_layout_page lp;
	int64_t ret;

	for (unsigned int i = 0; i < l->nr_pages; i++) {
		isgx_layout_page(l, i, &lp, page);
		ret = isgx_enclave_add(e, lp.offset, page, lp.secinfo, lp.add_flags);
		if (ret)
			return ret;
	}
	return 0;
}

int isgx_enclave_mrenclave(struct isgx_enclave *e, uint8_t mrenclave[SGX_HASH_SIZE])
{
	int r;

	if (!e->measured) {
		if (!e->measuring)
			return (int)fail(e, -EINVAL, "MRENCLAVE of an enclave never created");
		r = isgx_measure_final(&e->measure, e->mrenclave);
		e->measuring = false;
		if (r)
			return (int)fail(e, r, "finishing MRENCLAVE");
		e->measured = true;
	}
	memcpy(mrenclave, e->mrenclave, SGX_HASH_SIZE);
	return 0;
}

int isgx_sigstruct_make(struct sgx_sigstruct *ss, const struct sgx_secs *secs,
			const uint8_t mrenclave[SGX_HASH_SIZE], EVP_PKEY *key, char *err)
{
	isgx_sigstruct_init(ss);
	ss->attributes = secs->attributes & ~SGX_ATTR_INIT;
	ss->xfrm = secs->xfrm;
	/* Every bit must match: EINIT compares SECS & mask with SIGSTRUCT & mask. */
	ss->attributes_mask = ~0ULL;
	ss->xfrm_mask = ~0ULL;
	ss->miscselect = secs->miscselect;
	ss->misc_mask = ~0U;
	memcpy(ss->enclave_hash, mrenclave, SGX_HASH_SIZE);
	return isgx_sigstruct_sign(ss, key, err);
}

int isgx_enclave_sign(struct isgx_enclave *e, EVP_PKEY *key, struct sgx_sigstruct *ss)
{
	uint8_t mr[SGX_HASH_SIZE];
	char why[256];
	int r;

	r = isgx_enclave_mrenclave(e, mr);
	if (r)
		return r;
	r = isgx_sigstruct_make(ss, &e->secs, mr, key, why);
	if (r)
		snprintf(e->err, sizeof(e->err), "SIGN: %s", why);
	return r;
}

int64_t isgx_enclave_init(struct isgx_enclave *e, const struct sgx_sigstruct *ss,
			  const struct sgx_einittoken *token)
{
	static const struct sgx_einittoken zero_token;
	struct sgx_init_param p = {
		.addr = e->base,
		.sigstruct = (uintptr_t)ss,
		.einittoken = (uintptr_t)(token ? token : &zero_token),
	};
	uint64_t t0;
	int64_t ret;

	if (e->fd < 0)
		return fail(e, -EBADF, "INIT without a device");
	t0 = now_ns();
	ret = isgx_ioctl(e->fd, SGX_IOC_ENCLAVE_INIT, &p);
	e->init_ns += now_ns() - t0;
	if (ret)
		return fail(e, ret, "INIT");
	e->initialised = true;
	return 0;
}

int64_t isgx_enclave_destroy(struct isgx_enclave *e)
{
	struct sgx_destroy_param p = { .addr = e->base };
	int64_t ret;

	measure_drop(e);
	if (e->fd < 0 || !e->created)
		return 0;
	ret = isgx_ioctl(e->fd, SGX_IOC_ENCLAVE_DESTROY, &p);
	if (ret)
		return fail(e, ret, "DESTROY");
	e->created = false;
	return 0;
}

void isgx_enclave_forget(struct isgx_enclave *e)
{
	measure_drop(e);
	e->created = false;
}

int64_t isgx_enclave_build(struct isgx_enclave *e, int fd, const struct isgx_layout *l,
			   EVP_PKEY *key, struct sgx_sigstruct *ss)
{
	struct sgx_secs secs;
	char why[128];
	int64_t ret;

	ret = isgx_layout_check(l, why);
	if (ret) {
		memset(e, 0, sizeof(*e));
		e->fd = -1;
		snprintf(e->err, sizeof(e->err), "layout: %s", why);
		return ret;
	}
	isgx_layout_secs(l, &secs);
	ret = isgx_enclave_create(e, fd, &secs);
	if (!ret)
		ret = isgx_enclave_add_layout(e, l);
	if (!ret)
		ret = isgx_enclave_sign(e, key, ss);
	if (!ret && fd >= 0)
		ret = isgx_enclave_init(e, ss, NULL);
	return ret;
}

const char *isgx_enclave_error(const struct isgx_enclave *e)
{
	return e->err;
}
