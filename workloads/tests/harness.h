/* SPDX-License-Identifier: GPL-2.0 */
/*
 * harness.h - a small TAP test harness for guest tests, in the manner of
 * the kernel's kselftest_harness.h.
 *
 * Each test runs in a forked child with its own timeout, so a test that
 * crashes, hangs or leaves state behind cannot take the others with it.
 * Output is TAP version 13; a skipped test says why.
 *
 *	ISGX_TEST(name, timeout_s) { ... ISGX_EXPECT(cond, "fmt", ...); }
 *	int main(int argc, char **argv) { return isgx_harness_main(argc, argv); }
 *
 * ISGX_EXPECT marks the test failed and goes on; ISGX_ASSERT ends it.
 * isgx_skip() ends it as skipped.
 *
 * The typed comparisons print both expressions and both values on failure,
 * then the optional message:
 *
 *	ISGX_EXPECT_EQ(got, want);		ISGX_EXPECT_GE(nr, 1, "page %u", i);
 *	ISGX_EXPECT_NE / _LE, and ISGX_ASSERT_EQ / _NE / _GE / _LE to end the test
 *
 * Each side is evaluated once, in its own type, and compared as the plain
 * C operator would (a negative int against an unsigned compares as C does).
 *
 * Fixtures: state that several tests set up and check-and-clean the same
 * way.  The setup runs before each test's body, the teardown after it, in
 * the test's child; the body and both see the fixture as @self:
 *
 *	ISGX_FIXTURE(pager) { int fd; };
 *	ISGX_FIXTURE_SETUP(pager) { self->fd = ...; }
 *	ISGX_FIXTURE_TEARDOWN(pager) { ...checks...; close(self->fd); }
 *	ISGX_TEST_F(pager, name, timeout_s) { ... self->fd ... }
 *
 * The teardown runs when the body returns.  isgx_skip() and a failed
 * ISGX_ASSERT end the test at once, as in a plain test: the teardown's
 * checks would judge a body that did not finish.  A process the body
 * forks ends with _exit(), never through the teardown.
 *
 * Variants: a fixture's tests run once per variant, each run its own TAP
 * case named FIXTURE.VARIANT.TEST; setup, teardown, precheck and body see
 * the variant as @variant (NULL in a fixture without variants, whose
 * cases keep the bare test name):
 *
 *	ISGX_FIXTURE_VARIANT(pager) { const char *policy; };
 *	ISGX_FIXTURE_VARIANT_ADD(pager, fifo16) { .policy = "fifo16" };
 *	ISGX_TEST_V(pager, name, timeout_s) { ... variant->policy ... }
 *
 * ISGX_TEST_V runs per variant too but without the setup and teardown (no
 * @self): a test that needs the variant and sets itself up.  A fixture
 * with variants runs where its first test stands: variant by variant,
 * each with all the fixture's tests in the order of the file; other tests
 * run where they stand.  --variant=GLOB selects variants; it does not
 * filter the tests of fixtures without variants, nor ISGX_TEST.
 * --filter=GLOB matches the bare test name or the whole case name.
 */
#ifndef ISGX_HARNESS_H
#define ISGX_HARNESS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A fixture's variants, in the order they were added. */
struct isgx_variant {
	const char *name;
	const void *data;
	struct isgx_variant *next;
};

struct isgx_fixture {
	const char *name;
	struct isgx_variant *variants;		/* NULL: runs once, no variant */
};

struct isgx_test {
	const char *name;
	void (*fn)(const void *variant);
	unsigned int timeout_s;
	struct isgx_fixture *fixture;		/* NULL: ISGX_TEST */
	struct isgx_test *next;
};

void isgx_test_register(struct isgx_test *t);
void isgx_variant_register(struct isgx_fixture *f, struct isgx_variant *v);
int isgx_harness_main(int argc, char **argv);

/* Inside a test (child process). */
void isgx_test_failed(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void isgx_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void isgx_test_end(void) __attribute__((noreturn));
/* Diagnostics: printed as TAP comments. */
void isgx_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Command-line options the test program did not consume: --name=value. */
const char *isgx_option(const char *name);

/* A failed typed comparison (below); @lval, @rval are printed as they are. */
void isgx_test_cmp_failed(const char *file, int line, const char *lhs, const char *op,
			  const char *rhs, const char *lval, const char *rval,
			  const char *fmt, ...) __attribute__((format(printf, 8, 9)));

/* A value of any arithmetic type as text, for isgx_test_cmp_failed(). */
#define ISGX_VAL_LEN 48
void isgx_val_signed(char *buf, long long v);
void isgx_val_unsigned(char *buf, unsigned long long v);
void isgx_val_float(char *buf, long double v);
#define isgx_val(buf, v)							\
	_Generic((v) + 0,							\
		 unsigned int: isgx_val_unsigned,				\
		 unsigned long: isgx_val_unsigned,				\
		 unsigned long long: isgx_val_unsigned,				\
		 float: isgx_val_float,						\
		 double: isgx_val_float,					\
		 long double: isgx_val_float,					\
		 default: isgx_val_signed)((buf), (v))

/*
 * Compare @l @op @r once; on failure report both and, if @end, end the
 * test.  -Wsign-compare is quiet inside: a literal 0 held in an int
 * temporary would otherwise warn where the bare comparison does not;
 * -Wformat-zero-length too: no message is an empty format.
 */
#define ISGX_CMP_(l, op, r, end, ...)						\
	do {									\
		_Pragma("GCC diagnostic push")					\
		_Pragma("GCC diagnostic ignored \"-Wsign-compare\"")		\
		_Pragma("GCC diagnostic ignored \"-Wformat-zero-length\"")	\
		__auto_type isgx_l_ = (l);					\
		__auto_type isgx_r_ = (r);					\
										\
		if (!(isgx_l_ op isgx_r_)) {					\
			char isgx_lv_[ISGX_VAL_LEN], isgx_rv_[ISGX_VAL_LEN];	\
										\
			isgx_val(isgx_lv_, isgx_l_);				\
			isgx_val(isgx_rv_, isgx_r_);				\
			isgx_test_cmp_failed(__FILE__, __LINE__, #l, #op, #r,	\
					     isgx_lv_, isgx_rv_, "" __VA_ARGS__); \
			if (end)						\
				isgx_test_end();				\
		}								\
		_Pragma("GCC diagnostic pop")					\
	} while (0)

#define ISGX_EXPECT_EQ(l, r, ...) ISGX_CMP_(l, ==, r, 0, __VA_ARGS__)
#define ISGX_EXPECT_NE(l, r, ...) ISGX_CMP_(l, !=, r, 0, __VA_ARGS__)
#define ISGX_EXPECT_GE(l, r, ...) ISGX_CMP_(l, >=, r, 0, __VA_ARGS__)
#define ISGX_EXPECT_LE(l, r, ...) ISGX_CMP_(l, <=, r, 0, __VA_ARGS__)
#define ISGX_ASSERT_EQ(l, r, ...) ISGX_CMP_(l, ==, r, 1, __VA_ARGS__)
#define ISGX_ASSERT_NE(l, r, ...) ISGX_CMP_(l, !=, r, 1, __VA_ARGS__)
#define ISGX_ASSERT_GE(l, r, ...) ISGX_CMP_(l, >=, r, 1, __VA_ARGS__)
#define ISGX_ASSERT_LE(l, r, ...) ISGX_CMP_(l, <=, r, 1, __VA_ARGS__)

/* Register test @tname run by @run; @fxobj: its fixture, NULL for ISGX_TEST. */
#define ISGX_TEST_REGISTER_(tname, run, tmo, fxobj)				\
	static struct isgx_test isgx_test_##tname = {				\
		.name = #tname, .fn = (run), .timeout_s = (tmo),		\
		.fixture = (fxobj) };						\
	__attribute__((constructor)) static void isgx_test_reg_##tname(void)	\
	{ isgx_test_register(&isgx_test_##tname); }

#define ISGX_TEST(name, timeout_s)						\
	static void isgx_test_fn_##name(void);					\
	static void isgx_test_run_##name(const void *variant)			\
	{									\
		(void)variant;							\
		isgx_test_fn_##name();						\
	}									\
	ISGX_TEST_REGISTER_(name, isgx_test_run_##name, timeout_s, NULL)	\
	static void isgx_test_fn_##name(void)

/* The fixture's data (@self), after its registration and variant type. */
#define ISGX_FIXTURE(fx)							\
	struct isgx_fixture_variant_##fx;					\
	static struct isgx_fixture isgx_fixture_obj_##fx			\
		__attribute__((unused)) = { .name = #fx };			\
	struct isgx_fixture_##fx

/* The variant's fields: ISGX_FIXTURE_VARIANT(fx) { ... };, after ISGX_FIXTURE(fx). */
#define ISGX_FIXTURE_VARIANT(fx) struct isgx_fixture_variant_##fx

/* A variant: ISGX_FIXTURE_VARIANT_ADD(fx, name) { .field = value, ... }; */
#define ISGX_FIXTURE_VARIANT_ADD(fx, vname)					\
	static const struct isgx_fixture_variant_##fx isgx_variant_##fx##_##vname; \
	static struct isgx_variant isgx_variant_obj_##fx##_##vname = {		\
		.name = #vname, .data = &isgx_variant_##fx##_##vname };	\
	__attribute__((constructor)) static void isgx_variant_reg_##fx##_##vname(void) \
	{ isgx_variant_register(&isgx_fixture_obj_##fx, &isgx_variant_obj_##fx##_##vname); } \
	static const struct isgx_fixture_variant_##fx isgx_variant_##fx##_##vname =

#define ISGX_FIXTURE_SETUP(fx)							\
	static void isgx_fixture_setup_##fx(struct isgx_fixture_##fx *self,	\
		const struct isgx_fixture_variant_##fx *variant __attribute__((unused)))

#define ISGX_FIXTURE_TEARDOWN(fx)						\
	static void isgx_fixture_teardown_##fx(struct isgx_fixture_##fx *self,	\
		const struct isgx_fixture_variant_##fx *variant __attribute__((unused)))

/*
 * ISGX_TEST_F_IF(fx, name, timeout_s, precheck): as ISGX_TEST_F, but
 * precheck(variant) runs first and may isgx_skip() before the fixture's
 * setup (a test that does not apply loads and leaves nothing).  Declare
 * it as ISGX_PRECHECK(fx, precheck) { ... }.
 */
#define ISGX_PRECHECK(fx, precheck)						\
	static void precheck(const struct isgx_fixture_variant_##fx *variant __attribute__((unused)))

#define ISGX_TEST_F_IF(fx, name, timeout_s, precheck)				\
	static void isgx_test_body_##name(struct isgx_fixture_##fx *self,	\
		const struct isgx_fixture_variant_##fx *variant);		\
	static void isgx_test_run_##name(const void *v)				\
	{									\
		const struct isgx_fixture_variant_##fx *variant = v;		\
		struct isgx_fixture_##fx self;					\
										\
		precheck(variant);						\
		memset(&self, 0, sizeof(self));					\
		isgx_fixture_setup_##fx(&self, variant);			\
		isgx_test_body_##name(&self, variant);				\
		isgx_fixture_teardown_##fx(&self, variant);			\
	}									\
	ISGX_TEST_REGISTER_(name, isgx_test_run_##name, timeout_s,		\
			    &isgx_fixture_obj_##fx)				\
	static void isgx_test_body_##name(					\
		struct isgx_fixture_##fx *self __attribute__((unused)),	\
		const struct isgx_fixture_variant_##fx *variant __attribute__((unused)))

static inline void isgx_fixture_always(const void *variant)
{
	(void)variant;
}

#define ISGX_TEST_F(fx, name, timeout_s)					\
	ISGX_TEST_F_IF(fx, name, timeout_s, isgx_fixture_always)

#define ISGX_TEST_V(fx, name, timeout_s)					\
	static void isgx_test_body_##name(					\
		const struct isgx_fixture_variant_##fx *variant);		\
	static void isgx_test_run_##name(const void *v)				\
	{									\
		isgx_test_body_##name(v);					\
	}									\
	ISGX_TEST_REGISTER_(name, isgx_test_run_##name, timeout_s,		\
			    &isgx_fixture_obj_##fx)				\
	static void isgx_test_body_##name(					\
		const struct isgx_fixture_variant_##fx *variant __attribute__((unused)))

#define ISGX_EXPECT(cond, ...)							\
	do {									\
		if (!(cond))							\
			isgx_test_failed(__FILE__, __LINE__, __VA_ARGS__);	\
	} while (0)

#define ISGX_ASSERT(cond, ...)							\
	do {									\
		if (!(cond)) {							\
			isgx_test_failed(__FILE__, __LINE__, __VA_ARGS__);	\
			isgx_test_end();					\
		}								\
	} while (0)

#endif /* ISGX_HARNESS_H */
