// SPDX-License-Identifier: GPL-2.0
/*
 * Stuck overflow flags (logic.h, cmn_hnf_refire()): a flag raised again
 * within CMN_HNF_REFIRE_NS of its clear, unexplained, CMN_HNF_STUCK_FLAGS
 * times in a row, is stuck. Genuine wraps of one counter are at least 2^40
 * cycles apart (over four minutes at 4 GHz; a global counter's period is
 * longer still), so a working flag is never raised again that soon, and
 * an explained flag is a working one.
 */
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

#define MS	1000000ULL
#define T0	(3600 * 1000 * MS)	/* an hour after boot */

/* The constants the driver's argument rests on */
static void cmn_hnf_test_irq_constants(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, CMN_HNF_REFIRE_NS, 1000000ULL);
	KUNIT_EXPECT_EQ(test, CMN_HNF_STUCK_FLAGS, 32);
	/* a flag of a 40-bit cycle counter at 4 GHz: 274 s apart at least */
	KUNIT_EXPECT_GT(test, BIT_ULL(40) / 4, 1000 * CMN_HNF_REFIRE_NS);
}

/*
 * A flag that does not clear, served every 2 us: the first raise comes a
 * long while after the last clear and counts nothing; the next
 * CMN_HNF_STUCK_FLAGS - 1 quick ones are not enough, the one after is.
 * It stays stuck while the storm goes on.
 */
static void cmn_hnf_test_irq_stuck_exactly(struct kunit *test)
{
	struct cmn_hnf_refire r = {};
	u64 now = T0;
	unsigned int i;

	KUNIT_EXPECT_FALSE(test, cmn_hnf_refire(&r, false, now));
	for (i = 1; i < CMN_HNF_STUCK_FLAGS; i++) {
		now += 2000;
		KUNIT_ASSERT_FALSE_MSG(test, cmn_hnf_refire(&r, false, now),
				       "stuck after %u quick raises", i);
	}
	now += 2000;
	KUNIT_EXPECT_TRUE(test, cmn_hnf_refire(&r, false, now));
	for (i = 0; i < 1000; i++) {
		now += 2000;
		KUNIT_ASSERT_TRUE_MSG(test, cmn_hnf_refire(&r, false, now),
				      "not stuck any more after %u more raises", i + 1);
	}
}

/* An explained raise starts the count again, quick or not */
static void cmn_hnf_test_irq_explained_resets(struct kunit *test)
{
	struct cmn_hnf_refire r = {};
	u64 now = T0;
	unsigned int i, k;

	for (k = 0; k < 10; k++) {
		for (i = 0; i < CMN_HNF_STUCK_FLAGS - 1; i++) {
			now += 1000;
			KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
		}
		now += 1000;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, true, now));
	}
	/* after the last explained one, exactly CMN_HNF_STUCK_FLAGS again */
	for (i = 1; i < CMN_HNF_STUCK_FLAGS; i++) {
		now += 1000;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
	}
	now += 1000;
	KUNIT_EXPECT_TRUE(test, cmn_hnf_refire(&r, false, now));
	/* explained raises never make it stuck */
	r = (struct cmn_hnf_refire) {};
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, true, T0 + i));
}

/*
 * A raise CMN_HNF_REFIRE_NS or more after the clear before it is slow: it
 * starts the count again. One just under is quick.
 */
static void cmn_hnf_test_irq_slow_resets(struct kunit *test)
{
	struct cmn_hnf_refire r = {};
	u64 now = T0;
	unsigned int i;

	KUNIT_EXPECT_FALSE(test, cmn_hnf_refire(&r, false, now));
	/* quick ones, each just under the limit after the clear before */
	for (i = 1; i < CMN_HNF_STUCK_FLAGS; i++) {
		now += CMN_HNF_REFIRE_NS - 1;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
	}
	/* then one exactly at the limit: slow, the count starts again */
	now += CMN_HNF_REFIRE_NS;
	KUNIT_EXPECT_FALSE(test, cmn_hnf_refire(&r, false, now));
	for (i = 1; i < CMN_HNF_STUCK_FLAGS; i++) {
		now += CMN_HNF_REFIRE_NS - 1;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
	}
	now += CMN_HNF_REFIRE_NS - 1;
	KUNIT_EXPECT_TRUE(test, cmn_hnf_refire(&r, false, now));

	/* unexplained raises a little over the limit apart, for a long time: never */
	r = (struct cmn_hnf_refire) {};
	now = T0;
	for (i = 0; i < 10000; i++) {
		now += CMN_HNF_REFIRE_NS + 1;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
	}
	/* nor the free-running cycle counter of a DTC nobody reads: minutes apart */
	for (i = 0; i < 1000; i++) {
		now += 274000 * MS;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
	}
}

/*
 * Time is measured from the last clear, explained or not: a slow raise,
 * then quick ones, counts from the slow one's clear; quick after an
 * explained one counts too.
 */
static void cmn_hnf_test_irq_clear_time(struct kunit *test)
{
	struct cmn_hnf_refire r = {};
	u64 now = T0;
	unsigned int i;

	KUNIT_EXPECT_FALSE(test, cmn_hnf_refire(&r, true, now));
	/* 500 us after the explained one: quick, unexplained: the first of the run */
	for (i = 1; i < CMN_HNF_STUCK_FLAGS; i++) {
		now += 500000;
		KUNIT_ASSERT_FALSE(test, cmn_hnf_refire(&r, false, now));
	}
	now += 500000;
	KUNIT_EXPECT_TRUE(test, cmn_hnf_refire(&r, false, now));
	KUNIT_EXPECT_EQ(test, r.cleared, now);
}

static struct kunit_case cmn_hnf_irq_cases[] = {
	KUNIT_CASE(cmn_hnf_test_irq_constants),
	KUNIT_CASE(cmn_hnf_test_irq_stuck_exactly),
	KUNIT_CASE(cmn_hnf_test_irq_explained_resets),
	KUNIT_CASE(cmn_hnf_test_irq_slow_resets),
	KUNIT_CASE(cmn_hnf_test_irq_clear_time),
	{}
};

struct kunit_suite cmn_hnf_irq_suite = {
	.name = "arm_cmn_hnf_irq",
	.test_cases = cmn_hnf_irq_cases,
};
