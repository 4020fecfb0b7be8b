// SPDX-License-Identifier: GPL-2.0
/*
 * Counter arithmetic: 16-bit DTM local counters carrying into 32-bit DTC
 * global counters, and the 40-bit DTC cycle counter. Fixed vectors plus a
 * brute-force cross-check against a simulated counter pipeline.
 */
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

struct delta_case {
	const char *desc;
	unsigned int dtcs, locals;
	u32 g0[CMN_HNF_MAX_DTCS], g1[CMN_HNF_MAX_DTCS];
	u16 l0[4], l1[4];
	u64 expect;
};

static const struct delta_case delta_cases[] = {
	{ "no wrap", 1, 1, { 5 }, { 5 }, { 100 }, { 150 }, 50 },
	{ "nothing happened", 2, 3, { 9, 0xffffffff }, { 9, 0xffffffff },
	  { 1, 0xffff, 7 }, { 1, 0xffff, 7 }, 0 },
	{ "local wrap", 1, 1, { 7 }, { 8 }, { 0xfff0 }, { 0x0010 }, 0x20 },
	{ "local wrap to zero", 1, 1, { 0 }, { 1 }, { 0xffff }, { 0 }, 1 },
	{ "exactly 2^16", 1, 1, { 3 }, { 4 }, { 0x1234 }, { 0x1234 }, 0x10000 },
	{ "global 32-bit wrap", 1, 1, { 0xffffffff }, { 1 }, { 0x8000 }, { 0x8000 },
	  0x20000 },
	{ "two nodes, one wraps", 1, 2, { 0 }, { 1 }, { 0xffff, 0 }, { 1, 5 }, 7 },
	{ "two DTCs", 2, 2, { 0x80000000, 0xffffffff }, { 0x80000002, 0 },
	  { 0x1234, 0xfffe }, { 0x1234, 0 }, 0x20002 },
	{ "four DTCs, half-range start", 4, 4,
	  { 0x80000000, 0x80000000, 0x80000000, 0x80000000 },
	  { 0x80000001, 0x80000000, 0x80000003, 0x80000000 },
	  { 0xff00, 0x0010, 0xfff0, 0x0000 }, { 0x0100, 0x0020, 0x0010, 0xffff },
	  /* node 2 wrapped three times: 0xfff0 -> 0x10 is 2 * 2^16 + 0x20 */
	  0x200 + 0x10 + 0x20020 + 0xffff },
	{ "largest interval", 4, 0, { 0, 0, 0, 0 },
	  { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff }, {}, {},
	  4 * 0xffffffffULL << 16 },
	{ "only the first N count", 1, 1, { 0, 5 }, { 0, 9 }, { 1, 2 }, { 3, 9 }, 2 },
};

static void delta_case_desc(const struct delta_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(delta, delta_cases, delta_case_desc);

static void cmn_hnf_test_counter_vectors(struct kunit *test)
{
	const struct delta_case *c = test->param_value;
	struct cmn_hnf_sample *a, *b;

	a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);
	b = kunit_kzalloc(test, sizeof(*b), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	memcpy(a->global, c->g0, sizeof(c->g0));
	memcpy(b->global, c->g1, sizeof(c->g1));
	memcpy(a->local, c->l0, sizeof(c->l0));
	memcpy(b->local, c->l1, sizeof(c->l1));
	KUNIT_EXPECT_EQ(test, cmn_hnf_count_delta(a, b, c->dtcs, c->locals), c->expect);
}

/*
 * The hardware, simulated: each node's 16-bit local counter carries into
 * the global counter of its node's DTC. Events arrive in random bursts
 * (many local wraps per interval, global counters started near their top
 * so they wrap), samples are taken between bursts, and the computed delta
 * must equal the number of events the simulation fed in.
 */
#define SIM_NODES	12

struct sim {
	u16 local[SIM_NODES];
	u32 global[CMN_HNF_MAX_DTCS];
	u8 dtc_of[SIM_NODES];
};

static void sim_feed(struct sim *sim, unsigned int node, u64 events)
{
	u64 total = sim->local[node] + events;

	sim->local[node] = total & 0xffff;
	sim->global[sim->dtc_of[node]] += total >> 16;	/* one carry per wrap */
}

static void sim_sample(const struct sim *sim, struct cmn_hnf_sample *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->global, sim->global, sizeof(sim->global));
	memcpy(s->local, sim->local, sizeof(sim->local));
}

static u32 rnd(u32 *seed)
{
	*seed = *seed * 1664525 + 1013904223;
	return *seed;
}

static void cmn_hnf_test_counter_simulated(struct kunit *test)
{
	struct cmn_hnf_sample *prev, *cur;
	struct sim sim;
	u32 seed = 2024;
	unsigned int round, step, n, dtcs, wraps_seen = 0;
	u64 truth, events;

	prev = kunit_kzalloc(test, sizeof(*prev), GFP_KERNEL);
	cur = kunit_kzalloc(test, sizeof(*cur), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, prev);
	KUNIT_ASSERT_NOT_NULL(test, cur);

	for (round = 0; round < 200; round++) {
		dtcs = 1 + rnd(&seed) % CMN_HNF_MAX_DTCS;
		for (n = 0; n < SIM_NODES; n++) {
			sim.local[n] = rnd(&seed);
			sim.dtc_of[n] = rnd(&seed) % dtcs;
		}
		for (n = 0; n < CMN_HNF_MAX_DTCS; n++)
			sim.global[n] = (round & 1) ? 0xffffffff - rnd(&seed) % 64 :
				0x80000000;
		sim_sample(&sim, prev);

		for (step = 0; step < 50; step++) {
			truth = 0;
			/* Up to 2^40 events per burst: at most 2^24 carries */
			for (n = 0; n < SIM_NODES; n++) {
				switch (rnd(&seed) % 4) {
				case 0:
					events = 0;
					break;
				case 1:
					events = rnd(&seed) % 0x20000;
					break;
				case 2:
					events = rnd(&seed);
					break;
				default:
					events = (u64)(rnd(&seed) & 0xff) << 32 | rnd(&seed);
					break;
				}
				sim_feed(&sim, n, events);
				truth += events;
			}
			sim_sample(&sim, cur);
			for (n = 0; n < dtcs; n++)
				if (cur->global[n] < prev->global[n])
					wraps_seen++;
			KUNIT_ASSERT_EQ_MSG(test,
					    cmn_hnf_count_delta(prev, cur, dtcs, SIM_NODES),
					    truth, "round %u step %u", round, step);
			memcpy(prev, cur, sizeof(*cur));
		}
	}
	/* The run must have crossed the 32-bit boundary of a global counter */
	KUNIT_EXPECT_GT(test, wraps_seen, 10U);
}

static void cmn_hnf_test_counter_cycles(struct kunit *test)
{
	const u64 top = 1ULL << 40;
	u64 prev, delta;
	u32 seed = 7;
	unsigned int i;

	KUNIT_EXPECT_EQ(test, cmn_hnf_cycles_delta(0, 0), 0ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cycles_delta(100, 250), 150ULL);
	/* Wrap of the 40-bit counter */
	KUNIT_EXPECT_EQ(test, cmn_hnf_cycles_delta(top - 5, 10), 15ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cycles_delta(top - 1, 0), 1ULL);
	/* Half-range start, as the driver preloads it */
	KUNIT_EXPECT_EQ(test, cmn_hnf_cycles_delta(1ULL << 39, (1ULL << 39) + 1234), 1234ULL);
	/* A full turn less one */
	KUNIT_EXPECT_EQ(test, cmn_hnf_cycles_delta(1, 0), top - 1);

	for (i = 0; i < 10000; i++) {
		prev = ((u64)rnd(&seed) << 32 | rnd(&seed)) & (top - 1);
		delta = ((u64)rnd(&seed) << 32 | rnd(&seed)) & (top - 1);
		KUNIT_ASSERT_EQ(test, cmn_hnf_cycles_delta(prev, (prev + delta) & (top - 1)),
				delta);
	}
}

static struct kunit_case cmn_hnf_counter_cases[] = {
	KUNIT_CASE_PARAM(cmn_hnf_test_counter_vectors, delta_gen_params),
	KUNIT_CASE(cmn_hnf_test_counter_simulated),
	KUNIT_CASE(cmn_hnf_test_counter_cycles),
	{}
};

struct kunit_suite cmn_hnf_counter_suite = {
	.name = "arm_cmn_hnf_counter",
	.test_cases = cmn_hnf_counter_cases,
};
