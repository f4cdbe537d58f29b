/* SPDX-License-Identifier: GPL-2.0 */
/*
 * enclave.h - build and load an enclave through the /dev/sgx ioctls while
 * computing, independently of the kernel, the MRENCLAVE it must end up
 * with; sign a SIGSTRUCT for it and initialise it.
 *
 *	struct isgx_enclave e;
 *	isgx_enclave_create(&e, fd, &secs);	   CREATE; fd -1 only measures
 *	isgx_enclave_add(&e, offset, page, secinfo, flags);   ADD_PAGE, one page
 *	isgx_enclave_sign(&e, key, &sigstruct);    MRENCLAVE into a SIGSTRUCT
 *	isgx_enclave_init(&e, &sigstruct, NULL);   INIT with a zero token
 *	isgx_enclave_destroy(&e);		   DESTROY, frees everything
 *
 * Every call returns 0, -errno or a positive SGX code (int64_t, see
 * sgx_error.h) and on failure leaves a message naming the step and the
 * code in isgx_enclave_error(), e.g. "ADD_PAGE at base+0x3000: EEXIST".
 */
#ifndef ISGX_ENCLAVE_H
#define ISGX_ENCLAVE_H

#include <stdbool.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "layout.h"
#include "measure.h"
#include "sgx_arch.h"
#include "sgx_error.h"

#define ISGX_ENCLAVE_ERRLEN	320

struct isgx_enclave {
	int fd;				/* /dev/sgx, or -1: measure only */
	struct sgx_secs secs;		/* as handed to CREATE */
	uint64_t base;			/* from CREATE; 0 when only measuring */
	struct isgx_measure measure;	/* running MRENCLAVE while adding */
	uint8_t mrenclave[SGX_HASH_SIZE];
	bool measuring;			/* measure holds an open digest */
	bool measured;			/* mrenclave is final */
	bool created;
	bool initialised;
	unsigned int nr_added;
	uint64_t create_ns, add_ns, init_ns;	/* time spent in each ioctl kind */
	char err[ISGX_ENCLAVE_ERRLEN];
};

/* A SECS for CREATE: @size, SSAFRAMESIZE 1, XFRM 3, MISCSELECT 0. */
void isgx_secs_init(struct sgx_secs *secs, uint64_t size, uint64_t attributes);

/*
 * CREATE with @secs (any contents: tests hand in invalid ones) and start
 * the measurement.  With @fd < 0 nothing is created and only the
 * measurement is kept (isgx measure, isgx sign).
 */
int64_t isgx_enclave_create(struct isgx_enclave *e, int fd, const struct sgx_secs *secs);

/*
 * ADD_PAGE of the 4096 bytes at @src to base + @offset with SECINFO.FLAGS
 * @secinfo and ADD_PAGE @flags; on success the page is measured as EADD
 * does (TCS: R/W/X cleared, STATE, FLAGS, CSSA and AEP zeroed) and, without
 * SGX_ADD_SKIP_EEXTEND, its 16 EEXTENDs.
 */
int64_t isgx_enclave_add(struct isgx_enclave *e, uint64_t offset, const void *src,
			 uint64_t secinfo, uint32_t flags);

/* ADD_PAGE of every page of @l, in order. */
int64_t isgx_enclave_add_layout(struct isgx_enclave *e, const struct isgx_layout *l);

/* The final MRENCLAVE; no page can be added afterwards.  0 or -errno. */
int isgx_enclave_mrenclave(struct isgx_enclave *e, uint8_t mrenclave[SGX_HASH_SIZE]);

/*
 * A signed SIGSTRUCT for @secs with ENCLAVEHASH @mrenclave: ATTRIBUTES and
 * XFRM of the SECS (INIT clear), masks all ones, MISCSELECT of the SECS.
 * 0 or -errno with the reason in @err (at least 256 bytes).
 */
int isgx_sigstruct_make(struct sgx_sigstruct *ss, const struct sgx_secs *secs,
			const uint8_t mrenclave[SGX_HASH_SIZE], EVP_PKEY *key, char *err);

/* isgx_sigstruct_make() for this enclave's SECS and final MRENCLAVE. */
int isgx_enclave_sign(struct isgx_enclave *e, EVP_PKEY *key, struct sgx_sigstruct *ss);

/* INIT with @ss and @token (NULL: the all-zero token). */
int64_t isgx_enclave_init(struct isgx_enclave *e, const struct sgx_sigstruct *ss,
			  const struct sgx_einittoken *token);

/* DESTROY, then free what the library holds. */
int64_t isgx_enclave_destroy(struct isgx_enclave *e);

/* Free what the library holds without an ioctl (after munmap, in a child). */
void isgx_enclave_forget(struct isgx_enclave *e);

/* create + add_layout + sign + init of the layout @l with @key. */
int64_t isgx_enclave_build(struct isgx_enclave *e, int fd, const struct isgx_layout *l,
			   EVP_PKEY *key, struct sgx_sigstruct *ss);

/* The last failure, "" if none. */
const char *isgx_enclave_error(const struct isgx_enclave *e);

/* The enclave's mapping at @offset. */
static inline void *isgx_enclave_ptr(const struct isgx_enclave *e, uint64_t offset)
{
	return (void *)(uintptr_t)(e->base + offset);
}

#endif /* ISGX_ENCLAVE_H */
