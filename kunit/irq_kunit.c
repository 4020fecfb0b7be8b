// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupt storm detection: an overflow interrupt line is storming when it
 * raises CMN_HNF_STORM_IRQS interrupts in a row that no counter wrap
 * explains, each within CMN_HNF_STORM_WINDOW_MS of the one before. Genuine
 * overflows are explained, and even unexplained ones spread out in time
 * (the free-running cycle counters of other DTCs wrap every few minutes)
 * never add up to one; a stuck flag served slowly still does.
 */
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

/* A flag that never clears: detected on the 64th interrupt, not before */
static void cmn_hnf_test_irq_storm_detected(struct kunit *test)
{
	struct cmn_hnf_storm st = {};
	unsigned int i;

	for (i = 1; i < 64; i++)
		KUNIT_ASSERT_FALSE_MSG(test, cmn_hnf_storm_note(&st, false, 1000 + i / 8),
				       "interrupt %u", i);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_note(&st, false, 1000 + 8));
	KUNIT_EXPECT_EQ(test, CMN_HNF_STORM_IRQS, 64);
}

/* Any explained interrupt starts the count again */
static void cmn_hnf_test_irq_explained_resets(struct kunit *test)
{
	struct cmn_hnf_storm st = {};
	unsigned int i;

	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_storm_note(&st, i % 50 == 49, 5));
	/* explained every time: never */
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_storm_note(&st, true, 5));
}

/* Unexplained interrupts with pauses longer than the window never add up */
static void cmn_hnf_test_irq_slow_unexplained(struct kunit *test)
{
	struct cmn_hnf_storm st = {};
	unsigned long now = 0;
	unsigned int i;

	/* 63 within a window, then a pause longer than the window */
	for (i = 0; i < 63; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_storm_note(&st, false, now));
	now += CMN_HNF_STORM_WINDOW_MS + 1;
	for (i = 0; i < 63; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_storm_note(&st, false, now + i));
	/* one just over a window apart (after the last of those), for days */
	now += 62;
	for (i = 0; i < 10000; i++) {
		now += CMN_HNF_STORM_WINDOW_MS + 1;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_storm_note(&st, false, now));
	}
	/* the millisecond clock wrapping does not matter */
	st.count = 0;
	now = ULONG_MAX - 10;
	for (i = 0; i < 63; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_storm_note(&st, false, now + i));
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_note(&st, false, now + 63));
}

/*
 * What the flags added stands once the unexplained run before an interrupt
 * ended: an explained interrupt, or the first of a new run.
 */
static void cmn_hnf_test_irq_fresh(struct kunit *test)
{
	struct cmn_hnf_storm st = {};
	unsigned int i;

	KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_note(&st, true, 10));
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_fresh(&st));
	/* the first unexplained one: the run before it (none) ended */
	KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_note(&st, false, 10));
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_fresh(&st));
	for (i = 0; i < 10; i++) {
		KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_note(&st, false, 11 + i));
		KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_fresh(&st));
	}
	/* a pause longer than the window: a new run */
	KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_note(&st, false,
						    21 + CMN_HNF_STORM_WINDOW_MS));
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_fresh(&st));
	KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_note(&st, false,
						    22 + CMN_HNF_STORM_WINDOW_MS));
	KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_fresh(&st));
	KUNIT_EXPECT_FALSE(test, cmn_hnf_storm_note(&st, true, 2000));
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_fresh(&st));
}

/*
 * A stuck flag on a slow CPU: the run takes far longer than the window,
 * but no pause is longer than it: detected on the 64th all the same.
 */
static void cmn_hnf_test_irq_slow_storm(struct kunit *test)
{
	struct cmn_hnf_storm st = {};
	unsigned long now = 5000;
	unsigned int i;

	for (i = 1; i < 64; i++) {
		now += CMN_HNF_STORM_WINDOW_MS / 2;
		KUNIT_ASSERT_FALSE_MSG(test, cmn_hnf_storm_note(&st, false, now),
				       "interrupt %u", i);
		KUNIT_ASSERT_FALSE(test, i > 1 && cmn_hnf_storm_fresh(&st));
	}
	KUNIT_EXPECT_TRUE(test, cmn_hnf_storm_note(&st, false, now + 1));
}

static struct kunit_case cmn_hnf_irq_cases[] = {
	KUNIT_CASE(cmn_hnf_test_irq_storm_detected),
	KUNIT_CASE(cmn_hnf_test_irq_explained_resets),
	KUNIT_CASE(cmn_hnf_test_irq_slow_unexplained),
	KUNIT_CASE(cmn_hnf_test_irq_fresh),
	KUNIT_CASE(cmn_hnf_test_irq_slow_storm),
	{}
};

struct kunit_suite cmn_hnf_irq_suite = {
	.name = "arm_cmn_hnf_irq",
	.test_cases = cmn_hnf_irq_cases,
};
