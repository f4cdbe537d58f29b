// SPDX-License-Identifier: GPL-2.0
/*
 * test_harness_selftest.c - tests with known outcomes, to check that the
 * harness reports each outcome as it is.  Not part of any suite: a run of
 * this program is expected to fail.
 */
#include "harness.h"

#include <signal.h>
#include <stdbool.h>
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

/* Typed comparisons that hold, across signedness and types. */
ISGX_TEST(deliberate_cmp_pass, 10)
{
	size_t three = 3;
	long minus_one = -1;

	ISGX_EXPECT_EQ(three, 3);
	ISGX_EXPECT_NE(three, 4, "with a message");
	ISGX_EXPECT_GE(minus_one, -2);
	ISGX_EXPECT_LE(0.5, 1.0);
	ISGX_ASSERT_EQ(1ULL << 40, 0x10000000000ULL);
}

/* Typed comparisons that fail: both values printed; ASSERT ends the test. */
ISGX_TEST(deliberate_eq_failure, 10)
{
	int got = 2 + 2;
	unsigned long want = 5;

	ISGX_EXPECT_EQ(got, 5, "counted %s", "on purpose");
	ISGX_EXPECT_NE(got, 4);
	ISGX_ASSERT_LE(want, 4UL);
	isgx_note("not reached after a failed ISGX_ASSERT_LE");
}

/* A fixture: setup before the body, teardown after it (not after a skip). */
ISGX_FIXTURE(counter) {
	int value;
};

ISGX_FIXTURE_SETUP(counter)
{
	self->value = 42;
}

ISGX_FIXTURE_TEARDOWN(counter)
{
	isgx_note("fixture teardown: value %d", self->value);
}

ISGX_TEST_F(counter, deliberate_teardown_after_pass, 10)
{
	ISGX_EXPECT_EQ(self->value, 42, "the setup did not run");
	self->value = 43;
}

ISGX_TEST_F(counter, deliberate_skip_after_setup, 10)
{
	self->value = 44;
	isgx_skip("skipped after the setup on purpose");
}

/* A precheck that skips: neither the setup nor the teardown may run. */
ISGX_FIXTURE(prechecked) {
	int unused;
};

ISGX_FIXTURE_SETUP(prechecked)
{
	(void)self;
	isgx_note("fixture setup ran after its precheck skipped");
}

ISGX_FIXTURE_TEARDOWN(prechecked)
{
	(void)self;
	isgx_note("fixture teardown ran after its precheck skipped");
}

ISGX_PRECHECK(prechecked, skip_before_setup)
{
	isgx_skip("skipped before the setup on purpose");
}

ISGX_TEST_F_IF(prechecked, deliberate_skip_before_setup, 10, skip_before_setup)
{
	(void)self;
	isgx_note("test body ran after its precheck skipped");
}

/*
 * Variants: each test of the fixture runs once per variant, as its own
 * case; the precheck, setup, body and teardown all see the variant.
 */
ISGX_FIXTURE(variants) {
	int from_setup;
};

ISGX_FIXTURE_VARIANT(variants) {
	int value;
	bool fails;
};

ISGX_FIXTURE_VARIANT_ADD(variants, one) {
	.value = 1,
};

ISGX_FIXTURE_VARIANT_ADD(variants, two) {
	.value = 2,
	.fails = true,
};

ISGX_FIXTURE_VARIANT_ADD(variants, three) {
	.value = 3,
};

ISGX_FIXTURE_SETUP(variants)
{
	isgx_note("variant setup: %d", variant->value);
	self->from_setup = variant->value;
}

ISGX_FIXTURE_TEARDOWN(variants)
{
	isgx_note("variant teardown: %d, setup's %d", variant->value, self->from_setup);
}

ISGX_PRECHECK(variants, note_variant)
{
	isgx_note("variant precheck: %d", variant->value);
}

ISGX_TEST_F_IF(variants, deliberate_variant_seen, 10, note_variant)
{
	isgx_note("variant body: %d", variant->value);
	ISGX_EXPECT_EQ(self->from_setup, variant->value, "the setup saw another variant");
}

/* Fails in variant two only: that case alone fails. */
ISGX_TEST_F(variants, deliberate_variant_failure, 10)
{
	ISGX_EXPECT(!variant->fails, "variant %d fails on purpose", variant->value);
}

/* Per variant, without the setup and teardown. */
ISGX_TEST_V(variants, deliberate_variant_no_setup, 10)
{
	isgx_note("variant without setup: %d", variant->value);
}

/* A plain test after a fixture with variants: once, where it stands. */
ISGX_TEST(deliberate_pass_after_variants, 10)
{
}

int main(int argc, char **argv)
{
	return isgx_harness_main(argc, argv);
}
