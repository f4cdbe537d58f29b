/* SPDX-License-Identifier: GPL-2.0 */
/*
 * isgx_emu_test: shared declarations of the in-kernel test module.
 *
 * Expectations are written down from encls-spec.md, never computed by the
 * code under test: fault and error codes are literals, the MRENCLAVE
 * vectors are the spec's hex strings, and the SIGSTRUCTs and MRSIGNER come
 * from a build-time script using OpenSSL and Python's hashlib.
 */
#ifndef _ISGX_TEST_H
#define _ISGX_TEST_H

#include <linux/kernel.h>
#include <linux/types.h>

#include "../encls.h"

#define T_GP		(SGX_ENCLS_FAULT_FLAG | 13)
#define T_PF		(SGX_ENCLS_FAULT_FLAG | 14)

/* EPC pages reserved for the tests, taken from the end of the EPC. */
#define T_NR_EPC	24
#define T_NR_BACK	4

/* The standard test enclave of spec §8. */
#define T_BASE		0x100000ULL
#define T_SIZE		0x2000ULL
#define T_ATTR		(SGX_ATTR_DEBUG | SGX_ATTR_MODE64BIT)

/**
 * struct isgx_test_env - everything a case may use
 * @epc:	EPC pages owned by the tests
 * @ops:	page holding @pi (offset 0), @si (64), @pcmd (128..639: four)
 *		and @tok (1024)
 * @pi:		PAGEINFO
 * @si:		SECINFO
 * @pcmd:	four PCMDs
 * @tok:	EINITTOKEN
 * @sig:	page-aligned SIGSTRUCT buffer
 * @src:	page-aligned source page
 * @back:	ciphertext pages for EWB
 * @vbuf:	a vmalloc page; @vbuf + PAGE_SIZE is an unmapped guard page
 * @bogus:	an unmapped kernel address (4 KiB aligned)
 * @kpage:	a page-aligned kernel page that is not EPC
 * @inside:	SECS pages given a test "inside" mask, cleared by cleanup
 * @nr_inside:	entries in @inside
 * @held:	pages held busy by the case, released by cleanup
 * @nr_held:	entries in @held
 * @failed:	an expectation failed
 * @reason:	first failure (or why the case was skipped)
 */
struct isgx_test_env {
	void *epc[T_NR_EPC];
	void *ops;
	struct isgx_pageinfo *pi;
	struct isgx_secinfo *si;
	struct isgx_pcmd *pcmd;
	struct isgx_einittoken *tok;
	struct isgx_sigstruct *sig;
	void *src;
	void *back[T_NR_BACK];
	void *vbuf;
	void *bogus;
	void *kpage;
	void *inside[4];
	int nr_inside;
	void *held[4];
	int nr_held;
	bool failed;
	char reason[192];
};

/*
 * Expectations record the first failure of a case and let it run on (the
 * model must cope with whatever follows); the runner reports the case as
 * failed.  They never return from the case.
 */
#define T_CHECK(t, cond, fmt, ...)					\
	isgx_test_expect(t, !!(cond), __LINE__, fmt, ##__VA_ARGS__)

/* Expect an ENCLS-style expression to return exactly @want. */
#define T_RET(t, expr, want)						\
	do {								\
		int __r = (expr), __w = (want);				\
		T_CHECK(t, __r == __w, "%s: got %#x, want %#x",		\
			#expr, __r, __w);				\
	} while (0)

/* Run a helper that records its own failures. */
#define T_TRY(expr)	((void)(expr))

/**
 * struct isgx_test_case - one test case
 * @name:	KTAP name
 * @fn:		returns 0, or -EOPNOTSUPP to skip (t->reason says why);
 *		fails when an expectation failed
 */
struct isgx_test_case {
	const char *name;
	int (*fn)(struct isgx_test_env *t);
};

/* helpers (test_main.c) */
__printf(4, 5) bool isgx_test_expect(struct isgx_test_env *t, bool ok,
				     int line, const char *fmt, ...);
void isgx_test_reset_ops(struct isgx_test_env *t);
int isgx_test_ecreate(struct isgx_test_env *t, void *secs, u64 base, u64 size, u64 attr,
		      u32 ssa);
int isgx_test_secs_fill(struct isgx_test_env *t, u64 base, u64 size, u64 attr, u32 ssa);
int isgx_test_eadd(struct isgx_test_env *t, void *secs, void *epc, u64 linaddr, u64 flags,
		   const void *content);
int isgx_test_eadd_raw(struct isgx_test_env *t, void *secs, void *epc, u64 linaddr,
		       u64 flags);
int isgx_test_eextend_page(struct isgx_test_env *t, void *secs, void *epc);
int isgx_test_einit(struct isgx_test_env *t, const u8 *sig, void *secs);
int isgx_test_einit_cur(struct isgx_test_env *t, void *secs);
void isgx_test_lehash_set(const u8 *mrsigner);
int isgx_test_build(struct isgx_test_env *t, char vec, void *secs, void *p1, void *p2);
int isgx_test_std_enclave(struct isgx_test_env *t, void *secs, void *reg);
int isgx_test_evict(struct isgx_test_env *t, void *epc, void *slot, int i);
int isgx_test_eldu(struct isgx_test_env *t, void *epc, void *slot, void *secs, u64 linaddr,
		   int i);
int isgx_test_set_inside(struct isgx_test_env *t, void *secs, const struct cpumask *mask);
int isgx_test_hold(struct isgx_test_env *t, void *epc, bool etrack);
void isgx_test_release(struct isgx_test_env *t, void *epc);
int isgx_test_other_cpu(void);
bool isgx_test_all_ff(const void *p);
void isgx_test_pattern(void *p, u8 seed);

extern const u8 *const isgx_test_sig[4];	/* vectors a, b, c, d */
extern const u8 *isgx_test_mrsigner;
extern const u8 *isgx_test_sig_a_lekey;		/* A with EINITTOKENKEY */
extern const u8 *isgx_test_sig_c_family;	/* C with ISVFAMILYID = 1 */
extern const char *const isgx_test_mrenclave_hex[4];

extern const struct isgx_test_case isgx_test_cases_build[];
extern const unsigned int isgx_test_nr_cases_build;
extern const struct isgx_test_case isgx_test_cases_paging[];
extern const unsigned int isgx_test_nr_cases_paging;

/* bench.c */
int isgx_test_bench_run(struct isgx_test_env *t, char *buf, size_t size);

#endif /* _ISGX_TEST_H */
