// SPDX-License-Identifier: GPL-2.0
/*
 * test_harness_selftest.c - tests with known outcomes, to check that the
 * harness reports each outcome as it is.  Not part of any suite: a run of
 * this program is expected to fail.
 */
#include "harness.h"

#include <signal.h>
#include <unistd.h>

ISGX_TEST(deliberate_pass, 10)
{
	ISGX_EXPECT(1 + 1 == 2, "arithmetic");
}

ISGX_TEST(deliberate_failure, 10)
{
	ISGX_EXPECT(0, "this expectation fails on purpose");
}

ISGX_TEST(deliberate_skip, 10)
{
	isgx_skip("skipped on purpose");
}

ISGX_TEST(deliberate_crash, 10)
{
	raise(SIGSEGV);
}

ISGX_TEST(deliberate_hang, 1)
{
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
