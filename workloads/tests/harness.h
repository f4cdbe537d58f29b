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
 */
#ifndef ISGX_HARNESS_H
#define ISGX_HARNESS_H

#include <stdbool.h>
#include <stdio.h>

struct isgx_test {
	const char *name;
	void (*fn)(void);
	unsigned int timeout_s;
	struct isgx_test *next;
};

void isgx_test_register(struct isgx_test *t);
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

#define ISGX_TEST(name, timeout_s)						\
	static void isgx_test_fn_##name(void);				\
	static struct isgx_test isgx_test_##name = {			\
		#name, isgx_test_fn_##name, (timeout_s), NULL };	\
	__attribute__((constructor)) static void isgx_test_reg_##name(void) \
	{ isgx_test_register(&isgx_test_##name); }			\
	static void isgx_test_fn_##name(void)

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
