/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sgx_guest.h - helpers shared by the guest tests that drive /dev/sgx:
 * module load/unload around a test, the EPC counters in debugfs, raw
 * ioctls, return-code expectations and memory probes that survive
 * SIGBUS/SIGSEGV.
 */
#ifndef ISGX_SGX_GUEST_H
#define ISGX_SGX_GUEST_H

#include <stdbool.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "enclave.h"
#include "harness.h"
#include "isgx.h"
#include "sgx_error.h"
#include "testkey.h"

/* Load isgx.ko (unloading a stale one first) and open /dev/sgx; or skip. */
int isgx_test_start(const char *params);
/* Close @fd (if >= 0) and unload the module; fails the test if it stays. */
void isgx_test_finish(int fd);

/*
 * EPC counters from debugfs (mounted here if needed).  false when the
 * driver has none; the first miss is noted.
 */
bool isgx_epc_counts(long *nr_free, long *nr_total);
/* Expect every EPC page free again, polling up to @ms; @when names the step. */
void isgx_expect_epc_all_free(const char *when, unsigned int ms);
/* Free EPC pages now, or -1 without counters. */
long isgx_epc_nr_free(void);

/* A debugfs counter of the module (/sys/kernel/debug/isgx/@name), or -1. */
long isgx_debugfs_counter(const char *name);
/* Write module parameter @name; 0 or -errno. */
int isgx_param_write(const char *name, const char *val);
/* Module parameter @name as a number, or -1 when unreadable. */
long isgx_param_long(const char *name);

/* The raw ioctls, results in the sgx_error.h convention. */
int64_t isgx_ioc_create(int fd, const struct sgx_secs *secs, uint64_t *addr);
int64_t isgx_ioc_add(int fd, uint64_t addr, const void *src, const struct sgx_secinfo *si,
		     uint32_t flags);
int64_t isgx_ioc_init(int fd, uint64_t addr, const struct sgx_sigstruct *ss);
int64_t isgx_ioc_destroy(int fd, uint64_t addr);

/* Build, sign and initialise @l; ends the test on failure. */
void isgx_build(struct isgx_enclave *e, int fd, const struct isgx_layout *l,
		struct sgx_sigstruct *ss);
/* Create and add all of @l without INIT; ends the test on failure. */
void isgx_build_uninit(struct isgx_enclave *e, int fd, const struct isgx_layout *l);

/* Read/write 8 bytes at @p; 0, or the signal (SIGBUS, SIGSEGV) it raised. */
int isgx_probe_read(const void *p, uint64_t *val);
int isgx_probe_write(void *p, uint64_t val);
/* Is [@p, @p + @len) mapped at all? (mincore) */
bool isgx_mapped(const void *p, size_t len);

/* ISGX_EXPECT that @expr returns @want, naming both codes. */
#define ISGX_EXPECT_RET(expr, want, ...)					\
	do {									\
		int64_t got_ = (expr), want_ = (want);				\
		char g_[ISGX_RET_NAME_LEN], w_[ISGX_RET_NAME_LEN], m_[256];	\
										\
		if (got_ != want_) {						\
			snprintf(m_, sizeof(m_), __VA_ARGS__);			\
			isgx_test_failed(__FILE__, __LINE__, "%s: got %s, want %s", m_, \
					 isgx_ret_name(got_, g_), isgx_ret_name(want_, w_)); \
		}								\
	} while (0)

/* Same, ending the test. */
#define ISGX_ASSERT_RET(expr, want, ...)					\
	do {									\
		int64_t ar_ = (expr);						\
										\
		ISGX_EXPECT_RET(ar_, want, __VA_ARGS__);		\
		if (ar_ != (int64_t)(want))					\
			isgx_test_end();					\
	} while (0)

#endif /* ISGX_SGX_GUEST_H */
