// SPDX-License-Identifier: GPL-2.0
/*
 * Counter arithmetic: 16-bit DTM local counters carrying into 32-bit DTC
 * global counters (GLOBAL events), combined 32/64-bit DTM counters (LOCAL
 * events) and the 40-bit DTC cycle counter. Fixed vectors, a brute-force
 * cross-check against a simulated counter pipeline, and the same pipeline
 * with carries that take time to reach the DTC while a reader samples it.
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
	{ "only the first N DTCs count", 1, 1, { 0, 5 }, { 0, 9 }, { 1, 2 }, { 3, 9 }, 2 },
};

static void delta_case_desc(const struct delta_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(delta, delta_cases, delta_case_desc);

static void vec_sample(const u32 *g, const u16 *l, unsigned int locals,
		       struct cmn_hnf_sample *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	memcpy(s->global, g, sizeof(s->global));
	for (i = 0; i < locals; i++)
		s->local += l[i];
}

static void cmn_hnf_test_counter_vectors(struct kunit *test)
{
	const struct delta_case *c = test->param_value;
	struct cmn_hnf_sample a, b;
	struct cmn_hnf_acc acc;

	vec_sample(c->g0, c->l0, c->locals, &a);
	vec_sample(c->g1, c->l1, c->locals, &b);
	cmn_hnf_acc_init(&acc, &a);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &b, c->dtcs),
			c->expect);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_short(&acc));
	/* the same sample again adds nothing */
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &b, c->dtcs), 0ULL);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_short(&acc));
}

/* A sample short of a carry adds nothing; the next full one catches up */
static void cmn_hnf_test_counter_short(struct kunit *test)
{
	struct cmn_hnf_sample s = { .global = { 10 }, .local = 0xfff0 };
	struct cmn_hnf_acc acc;

	cmn_hnf_acc_init(&acc, &s);
	/* the local counter wrapped to 0x10, its carry not yet at the DTC */
	s.local = 0x10;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 1), 0ULL);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_acc_short(&acc));
	KUNIT_EXPECT_EQ(test, acc.wrapped, 0);
	/* still short, a little further on */
	s.local = 0x30;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 1), 0ULL);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_acc_short(&acc));
	/* the carry arrived: everything since the base, once */
	s.global[0] = 11;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 1), 0x40ULL);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_short(&acc));
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 1), 0ULL);
}

/* wrapped[] records a global counter going through zero, per DTC */
static void cmn_hnf_test_counter_wrapped(struct kunit *test)
{
	struct cmn_hnf_sample s = { .global = { 0xfffffffe, 5, 0xffffffff } };
	struct cmn_hnf_acc acc;

	cmn_hnf_acc_init(&acc, &s);
	s.global[0] = 0xffffffff;
	s.global[1] = 6;
	cmn_hnf_acc_update(&acc, &s, 3);
	KUNIT_EXPECT_EQ(test, acc.wrapped, 0);
	s.global[0] = 1;
	cmn_hnf_acc_update(&acc, &s, 3);
	KUNIT_EXPECT_EQ(test, acc.wrapped, BIT(0));
	s.global[2] = 0;
	cmn_hnf_acc_update(&acc, &s, 3);
	KUNIT_EXPECT_EQ(test, acc.wrapped, BIT(0) | BIT(2));
	/* DTCs beyond num_dtcs are not looked at */
	s.global[3] = 0;
	acc.last.global[3] = 7;
	cmn_hnf_acc_update(&acc, &s, 3);
	KUNIT_EXPECT_EQ(test, acc.wrapped, BIT(0) | BIT(2));
}

/*
 * The hardware, simulated: each node's 16-bit local counter carries into
 * the global counter of its node's DTC. Events arrive in random bursts
 * (many local wraps per interval, global counters started near their top
 * so they wrap), samples are taken between bursts, and the accumulated
 * count must equal the number of events the simulation fed in.
 */
#define SIM_NODES	12

struct sim {
	u16 local[SIM_NODES];
	u32 global[CMN_HNF_MAX_DTCS];
	u8 dtc_of[SIM_NODES];
	u32 pending[SIM_NODES];		/* carries on their way to the DTC */
	bool delay;			/* carries wait for sim_deliver() */
	u64 truth;
};

static void sim_feed(struct sim *sim, unsigned int node, u64 events)
{
	u64 total = sim->local[node] + events;

	sim->local[node] = total & 0xffff;
	sim->truth += events;
	if (sim->delay)
		sim->pending[node] += total >> 16;
	else
		sim->global[sim->dtc_of[node]] += total >> 16;	/* one carry per wrap */
}

/* Carries of some nodes (bit n of @nodes) reach their DTC */
static void sim_deliver(struct sim *sim, u32 nodes)
{
	unsigned int n;

	for (n = 0; n < SIM_NODES; n++) {
		if (!(nodes & BIT(n)))
			continue;
		sim->global[sim->dtc_of[n]] += sim->pending[n];
		sim->pending[n] = 0;
	}
}

static void sim_read_globals(const struct sim *sim, struct cmn_hnf_sample *s)
{
	memset(s, 0, sizeof(*s));
	memcpy(s->global, sim->global, sizeof(sim->global));
}

static void sim_read_locals(const struct sim *sim, struct cmn_hnf_sample *s)
{
	unsigned int n;

	for (n = 0; n < SIM_NODES; n++)
		s->local += sim->local[n];
}

static u32 rnd(u32 *seed)
{
	*seed = *seed * 1664525 + 1013904223;
	return *seed;
}

static u64 sim_burst(u32 *seed, u64 big)
{
	switch (rnd(seed) % 4) {
	case 0:
		return 0;
	case 1:
		return rnd(seed) % 0x20000;
	case 2:
		return rnd(seed) % big;
	default:
		return ((u64)(rnd(seed) & 0xff) << 32 | rnd(seed)) % big;
	}
}

static void sim_start(struct sim *sim, u32 *seed, unsigned int round,
		      unsigned int dtcs)
{
	unsigned int n;

	memset(sim, 0, sizeof(*sim));
	for (n = 0; n < SIM_NODES; n++) {
		sim->local[n] = rnd(seed);
		sim->dtc_of[n] = rnd(seed) % dtcs;
	}
	for (n = 0; n < CMN_HNF_MAX_DTCS; n++)
		sim->global[n] = (round & 1) ? 0xffffffff - rnd(seed) % 64 :
			0x80000000;
}

static void cmn_hnf_test_counter_simulated(struct kunit *test)
{
	struct cmn_hnf_sample s;
	struct cmn_hnf_acc acc;
	struct sim sim;
	u32 seed = 2024;
	unsigned int round, step, n, dtcs, wraps_seen = 0;
	u64 base, counted;

	for (round = 0; round < 200; round++) {
		dtcs = 1 + rnd(&seed) % CMN_HNF_MAX_DTCS;
		sim_start(&sim, &seed, round, dtcs);
		sim_read_globals(&sim, &s);
		sim_read_locals(&sim, &s);
		cmn_hnf_acc_init(&acc, &s);
		base = sim.truth;
		counted = 0;

		for (step = 0; step < 50; step++) {
			/* Up to 2^40 events per burst: at most 2^24 carries */
			for (n = 0; n < SIM_NODES; n++)
				sim_feed(&sim, n, sim_burst(&seed, 1ULL << 40));
			sim_read_globals(&sim, &s);
			sim_read_locals(&sim, &s);
			counted += cmn_hnf_acc_update(&acc, &s, dtcs);
			KUNIT_ASSERT_FALSE(test, cmn_hnf_acc_short(&acc));
			KUNIT_ASSERT_EQ_MSG(test, counted, sim.truth - base,
					    "round %u step %u", round, step);
		}
		for (n = 0; n < dtcs; n++)
			wraps_seen += hweight8(acc.wrapped & BIT(n));
	}
	/* The run must have crossed the 32-bit boundary of a global counter */
	KUNIT_EXPECT_GT(test, wraps_seen, 10U);
}

/*
 * Carries take time: they reach the DTC at random later points, possibly
 * between the reader's global and local reads, and events keep arriving
 * between the two reads too. Whatever the timing, the count a reader
 * accumulates never goes down, never exceeds what the nodes produced, and
 * is exact once every carry has landed.
 */
static void cmn_hnf_test_counter_racing(struct kunit *test)
{
	struct cmn_hnf_sample s;
	struct cmn_hnf_acc acc;
	struct sim sim;
	u32 seed = 77;
	unsigned int round, step, n, dtcs, shorts = 0;
	u64 base, counted, delta;

	for (round = 0; round < 100; round++) {
		dtcs = 1 + rnd(&seed) % CMN_HNF_MAX_DTCS;
		sim_start(&sim, &seed, round, dtcs);
		sim.delay = true;
		sim_read_globals(&sim, &s);
		sim_read_locals(&sim, &s);
		cmn_hnf_acc_init(&acc, &s);
		base = sim.truth;
		counted = 0;

		for (step = 0; step < 200; step++) {
			/*
			 * Mostly less than 2^16 between two reads, so that a
			 * carry still on its way shows; now and then a few
			 * wraps at once.
			 */
			for (n = 0; n < SIM_NODES; n++)
				sim_feed(&sim, n, step % 16 ? rnd(&seed) % 0x1000 :
					 sim_burst(&seed, 0x30000));
			sim_deliver(&sim, rnd(&seed));
			sim_read_globals(&sim, &s);
			/* between the two reads: more events, more carries */
			for (n = 0; n < SIM_NODES; n++)
				if (rnd(&seed) % 4 == 0)
					sim_feed(&sim, n, rnd(&seed) % 0x800);
			sim_deliver(&sim, rnd(&seed));
			sim_read_locals(&sim, &s);
			delta = cmn_hnf_acc_update(&acc, &s, dtcs);
			shorts += cmn_hnf_acc_short(&acc);
			/* never above the truth at the time of the last read */
			KUNIT_ASSERT_LE_MSG(test, delta, sim.truth - base - counted,
					    "round %u step %u", round, step);
			counted += delta;
		}
		/* counting stops, the carries land: exact */
		sim_deliver(&sim, ~0U);
		sim_read_globals(&sim, &s);
		sim_read_locals(&sim, &s);
		counted += cmn_hnf_acc_update(&acc, &s, dtcs);
		KUNIT_ASSERT_FALSE(test, cmn_hnf_acc_short(&acc));
		KUNIT_ASSERT_EQ_MSG(test, counted, sim.truth - base, "round %u", round);
	}
	/* The timing must have produced short samples */
	KUNIT_EXPECT_GT(test, shorts, 100U);
}

/* One counter read twice, its overflow flag set or not in between */
struct wrap_case {
	const char *desc;
	unsigned int width;
	u64 prev, cur;
	bool ovf;
	u64 expect;
};

static const struct wrap_case wrap_cases[] = {
	{ "no wrap", 32, 100, 250, false, 150 },
	{ "no wrap, nothing counted", 32, 7, 7, false, 0 },
	{ "wrap, counter below prev", 32, 0xfffffff0, 0x10, true, 0x20 },
	{ "wrap below prev, flag not read yet", 32, 0xfffffff0, 0x10, false, 0x20 },
	{ "wrap, counter above prev: a full period", 32, 0x10, 0x30, true,
	  (1ULL << 32) + 0x20 },
	{ "wrap, counter back where it was", 32, 0x1234, 0x1234, true, 1ULL << 32 },
	{ "40-bit cycles, no wrap", 40, 1ULL << 39, (1ULL << 39) + 5, false, 5 },
	{ "40-bit cycles, wrap below prev", 40, (1ULL << 40) - 3, 2, true, 5 },
	{ "40-bit cycles, a full period", 40, 0, 0, true, 1ULL << 40 },
	{ "40-bit cycles, a period and some", 40, 100, 300, true,
	  (1ULL << 40) + 200 },
	{ "64 bits: no period fits", 64, 5, 9, true, 4 },
};

static void wrap_case_desc(const struct wrap_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(wrap, wrap_cases, wrap_case_desc);

static void cmn_hnf_test_counter_wrap_delta(struct kunit *test)
{
	const struct wrap_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_delta(c->prev, c->cur, c->width, c->ovf),
			c->expect);
}

/*
 * GLOBAL events and the overflow flag: a read, then the flags the
 * interrupt read before it. The four cases of one global counter: no
 * wrap, a wrap the read sees (below the previous value), a wrap it cannot
 * see (a whole period, back above it), and a wrap an earlier read saw.
 */
static void cmn_hnf_test_counter_overflow(struct kunit *test)
{
	struct cmn_hnf_sample s = { .global = { 0x80000000, 0xfffffff0 },
				    .local = 0x100 };
	struct cmn_hnf_acc acc;
	u64 got;

	cmn_hnf_acc_init(&acc, &s);
	/* no wrap, no flag */
	s.global[0] += 3;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2),
			3ULL << 16);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, 0), 0ULL);

	/* DTC1 wraps, below its previous value: the read counts it */
	s.global[1] = 0x10;
	got = cmn_hnf_acc_update(&acc, &s, 2);
	KUNIT_EXPECT_EQ(test, got, 0x20ULL << 16);
	KUNIT_EXPECT_EQ(test, acc.wrapped, BIT(1));
	/* its flag: the read explained it, nothing more */
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(1)), 0ULL);
	KUNIT_EXPECT_EQ(test, acc.wrapped, 0);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[1], 0);

	/* DTC0 goes a whole period round and ends above where it was */
	s.global[0] += 5;
	s.local = 0x180;
	got = cmn_hnf_acc_update(&acc, &s, 2);
	KUNIT_EXPECT_EQ(test, got, (5ULL << 16) + 0x80);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(0)), 1ULL << 48);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[0], 1);

	/* a flag whose wrap a read between saw: counted once */
	s.global[0] = 0xffffffff;
	cmn_hnf_acc_update(&acc, &s, 2);
	s.global[0] = 2;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2),
			3ULL << 16);
	/* the interrupt's own read sees nothing new; the flag adds nothing */
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2), 0ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(0)), 0ULL);

	/* both at once, two periods */
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(0) | BIT(1)), 2ULL << 48);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[0], 2);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[1], 1);

	/* DTC1's stand; DTC0's are taken back */
	cmn_hnf_acc_confirm(&acc, BIT(1));
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_revoke(&acc, BIT(0) | BIT(1)), 2ULL << 48);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_revoke(&acc, BIT(0) | BIT(1)), 0ULL);
	/* and the accumulator goes on from where the truth is */
	s.global[0] += 1;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2),
			1ULL << 16);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_short(&acc));
}

/* A period added while a carry is on its way: nothing is counted twice */
static void cmn_hnf_test_counter_overflow_short(struct kunit *test)
{
	struct cmn_hnf_sample s = { .global = { 10 }, .local = 0xfff0 };
	struct cmn_hnf_acc acc;
	u64 total = 0;

	cmn_hnf_acc_init(&acc, &s);
	/* a whole period of the global counter and a local wrap, carry late */
	s.local = 0x10;
	total += cmn_hnf_acc_update(&acc, &s, 1);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_acc_short(&acc));
	total += cmn_hnf_acc_overflow(&acc, BIT(0));
	/* the carry lands */
	s.global[0] = 11;
	total += cmn_hnf_acc_update(&acc, &s, 1);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_short(&acc));
	KUNIT_EXPECT_EQ(test, total, (1ULL << 48) + 0x20);
}

/*
 * A flag still set right after a baseline reports a wrap the baseline
 * includes (its clear had not landed, or the wrap came between the clear
 * and the reads): it adds nothing, once; later flags count as before.
 */
static void cmn_hnf_test_counter_flag_at_base(struct kunit *test)
{
	struct cmn_hnf_sample s = { .global = { 3, 0x7fff0000 }, .local = 0x40 };
	struct cmn_hnf_acc acc;

	/* DTC0 had just wrapped when the baseline was read */
	cmn_hnf_acc_init(&acc, &s);
	cmn_hnf_acc_flags_at_base(&acc, BIT(0));
	s.global[0] += 2;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2),
			2ULL << 16);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_acc_explained(&acc, BIT(0)));
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_explained(&acc, BIT(1)));
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(0)), 0ULL);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[0], 0);
	/* the same flag again (its clear still on its way) is a period */
	KUNIT_EXPECT_FALSE(test, cmn_hnf_acc_explained(&acc, BIT(0)));
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(0)), 1ULL << 48);

	/* a status read showed the flag clear: a later flag is a period */
	cmn_hnf_acc_init(&acc, &s);
	cmn_hnf_acc_flags_at_base(&acc, BIT(0) | BIT(1));
	cmn_hnf_acc_flags_clear(&acc, BIT(0));
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2), 0ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(0) | BIT(1)),
			1ULL << 48);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[0], 1);
	KUNIT_EXPECT_EQ(test, acc.unconfirmed[1], 0);

	/* set at the baseline, then a wrap a read sees: one flag, no period */
	cmn_hnf_acc_init(&acc, &s);
	cmn_hnf_acc_flags_at_base(&acc, BIT(1));
	s.global[1] = 0xffffffff;
	cmn_hnf_acc_update(&acc, &s, 2);
	s.global[1] = 1;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, &s, 2),
			2ULL << 16);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_overflow(&acc, BIT(1)), 0ULL);
	KUNIT_EXPECT_EQ(test, acc.wrapped, 0);
	KUNIT_EXPECT_EQ(test, acc.at_base, 0);
}

/* The cycles event: reads, flags, confirmation and storms */
static void cmn_hnf_test_counter_cycles_overflow(struct kunit *test)
{
	const u64 top = 1ULL << 40;
	struct cmn_hnf_cyc cyc;

	cmn_hnf_cyc_init(&cyc, top - 10);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_update(&cyc, top - 4), 6ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_overflow(&cyc), top);	/* no read saw it */
	KUNIT_EXPECT_EQ(test, cyc.unconfirmed, 1);
	cmn_hnf_cyc_confirm(&cyc);
	/* a read sees the wrap: the flag adds nothing */
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_update(&cyc, 6), 10ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_overflow(&cyc), 0ULL);
	/* at the wrap, a period later, the same value: a period */
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_update(&cyc, 6), 0ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_overflow(&cyc), top);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_overflow(&cyc), top);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_revoke(&cyc), 2 * top);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_revoke(&cyc), 0ULL);
	/* a flag set at the baseline adds nothing, once */
	cmn_hnf_cyc_init(&cyc, 6);
	cyc.at_base = true;
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_update(&cyc, 9), 3ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_overflow(&cyc), 0ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_cyc_overflow(&cyc), top);
}

/*
 * Counting with nothing but the overflow interrupt, as on hardware when
 * perf reads only at the end: each global counter raises its flag when it
 * wraps, and the handler reads right then, a period after its previous
 * read, so two handler reads see nearly the same value. Sometimes an
 * ordinary read comes in between (before or after the wrap). The total
 * must be exact, and the interrupts must be explained or counted.
 */
static void cmn_hnf_test_counter_interrupt_only(struct kunit *test)
{
	struct cmn_hnf_sample s;
	struct cmn_hnf_acc acc;
	struct sim sim;
	u64 before[CMN_HNF_MAX_DTCS], carries[CMN_HNF_MAX_DTCS];
	unsigned int round, step, n, d, big, dtcs, full = 0;
	u32 seed = 4242, flags;
	u64 base, counted, ev;

	for (round = 0; round < 50; round++) {
		dtcs = 1 + rnd(&seed) % CMN_HNF_MAX_DTCS;
		sim_start(&sim, &seed, round, dtcs);
		sim_read_globals(&sim, &s);
		sim_read_locals(&sim, &s);
		cmn_hnf_acc_init(&acc, &s);
		base = sim.truth;
		counted = 0;

		for (step = 0; step < 40; step++) {
			/*
			 * Either a few wraps of the local counters, or a whole
			 * period of one DTC's global counter (2^32 carries and
			 * a few) on one node: each global counter wraps at most
			 * once, and the interrupt comes at each wrap.
			 */
			big = rnd(&seed) % 2 ? rnd(&seed) % SIM_NODES : SIM_NODES;
			memset(carries, 0, sizeof(carries));
			for (d = 0; d < CMN_HNF_MAX_DTCS; d++)
				before[d] = sim.global[d];
			for (n = 0; n < SIM_NODES; n++) {
				ev = rnd(&seed) % 4 ? 0 : rnd(&seed) % 0x40000;
				if (n == big && before[sim.dtc_of[n]] < U32_MAX - 0x1000)
					ev = (1ULL << 48) + rnd(&seed) % 0x100000;
				carries[sim.dtc_of[n]] += (sim.local[n] + ev) >> 16;
				sim_feed(&sim, n, ev);
			}
			flags = 0;
			for (d = 0; d < dtcs; d++)
				if (before[d] + carries[d] > U32_MAX)
					flags |= BIT(d);
			/* sometimes an ordinary read first */
			if (rnd(&seed) % 4 == 0) {
				sim_read_globals(&sim, &s);
				sim_read_locals(&sim, &s);
				counted += cmn_hnf_acc_update(&acc, &s, dtcs);
			}
			if (!flags)
				continue;
			sim_read_globals(&sim, &s);
			sim_read_locals(&sim, &s);
			counted += cmn_hnf_acc_update(&acc, &s, dtcs);
			for (d = 0; d < dtcs; d++)
				if ((flags & BIT(d)) && !(acc.wrapped & BIT(d)))
					full++;
			counted += cmn_hnf_acc_overflow(&acc, flags);
			KUNIT_ASSERT_EQ_MSG(test, counted, sim.truth - base,
					    "round %u step %u", round, step);
		}
		sim_read_globals(&sim, &s);
		sim_read_locals(&sim, &s);
		counted += cmn_hnf_acc_update(&acc, &s, dtcs);
		KUNIT_ASSERT_EQ_MSG(test, counted, sim.truth - base, "round %u", round);
	}
	/* whole periods between two reads must have happened */
	KUNIT_EXPECT_GT(test, full, 10U);
}

/* LOCAL32/LOCAL64 counters and the 16-bit field sum */
static void cmn_hnf_test_counter_local(struct kunit *test)
{
	const u64 reg = 0x1111222233334444ULL;
	u32 seed = 3;
	unsigned int i;
	u64 prev;

	KUNIT_EXPECT_EQ(test, cmn_hnf_local_value(reg, 0, 32), 0x33334444ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_value(reg, 2, 32), 0x11112222ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_value(reg, 0, 64), reg);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_value(reg, 1, 16), 0x3333ULL);

	KUNIT_EXPECT_EQ(test, cmn_hnf_local_delta(5, 9, 32), 4ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_delta(0xfffffff0, 0x10, 32), 0x20ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_delta(0xfffffff0ULL, 0x1fffffff0ULL, 64),
			1ULL << 32);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_delta(~0ULL, 3, 64), 4ULL);

	/* a step reads the counter out of the word and moves prev on */
	prev = 0x33334440ULL;
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_step(&prev, reg, 0, 32), 4ULL);
	KUNIT_EXPECT_EQ(test, prev, 0x33334444ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_step(&prev, reg, 0, 32), 0ULL);
	prev = 0xfffffff0ULL;
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_step(&prev, 0x10, 0, 32), 0x20ULL);
	KUNIT_EXPECT_EQ(test, prev, 0x10ULL);
	prev = 0x11112220ULL;
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_step(&prev, reg, 2, 32), 2ULL);
	prev = reg - 7;
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_step(&prev, reg, 0, 64), 7ULL);
	KUNIT_EXPECT_EQ(test, prev, reg);

	KUNIT_EXPECT_EQ(test, cmn_hnf_sum_fields(reg, 0), 0U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_sum_fields(reg, BIT(0)), 0x4444U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_sum_fields(reg, BIT(1) | BIT(3)), 0x3333U + 0x1111U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_sum_fields(~0ULL, 0xf), 4U * 0xffff);
	/* bits above the four fields are ignored */
	KUNIT_EXPECT_EQ(test, cmn_hnf_sum_fields(reg, 0xf0), 0U);

	/* every mask against the sum written out field by field */
	for (i = 0; i < 4000; i++) {
		u64 val = (u64)rnd(&seed) << 32 | rnd(&seed);
		u8 fields = i % 256;
		u32 want = 0;
		unsigned int n;

		if (i % 3 == 0)
			val |= 0xffff0000ffff0000ULL >> (i % 17);
		for (n = 0; n < 4; n++)
			if (fields & BIT(n))
				want += (val >> (16 * n)) & 0xffff;
		KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_sum_fields(val, fields), want,
				    "val 0x%llx fields 0x%x", val, fields);
		/* one field: the lane read gives the same */
		if (fields < BIT(4) && hweight8(fields) == 1)
			KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_lane(val, __ffs(fields)),
					    want, "val 0x%llx lane %u", val,
					    (unsigned int)__ffs(fields));
	}
}

/*
 * The lane of a GLOBAL event's XPs (hw.c reads it with one shift per XP):
 * only when every XP holds exactly one counter of the event, at the same
 * index; anything else is summed field by field.
 */
static void cmn_hnf_test_counter_lane(struct kunit *test)
{
	static const u8 same[] = { BIT(2), BIT(2), BIT(2) };
	static const u8 moved[] = { BIT(0), BIT(0), BIT(1) };
	static const u8 two[] = { BIT(0), BIT(0) | BIT(1), BIT(0) };
	static const u8 first_two[] = { BIT(1) | BIT(3), BIT(1) | BIT(3) };
	static const u8 none[] = { 0, 0 };
	static const u8 beyond[] = { BIT(4), BIT(4) };

	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(same, 3), 2);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(same, 1), 2);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(moved, 2), 0);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(moved, 3), CMN_HNF_LANE_MIXED);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(two, 3), CMN_HNF_LANE_MIXED);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(first_two, 2),
			CMN_HNF_LANE_MIXED);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(none, 2), CMN_HNF_LANE_MIXED);
	/* no DTM counter 4: never a lane beyond the four */
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(beyond, 2),
			CMN_HNF_LANE_MIXED);
	KUNIT_EXPECT_EQ(test, cmn_hnf_fields_lane(same, 0), CMN_HNF_LANE_MIXED);
}

/*
 * Late polls of a LOCAL32 counter (logic.h, "Late polls"): a 32-bit counter
 * at a steady rate, read after spans of every length, some far beyond one
 * period. The reads alone lose a period per hidden wrap; with the missed
 * events added the total is exact.
 */
static void cmn_hnf_test_counter_late_poll(struct kunit *test)
{
	struct cmn_hnf_local_rate r = {};
	u64 truth, total, reads, prev, cur, span, seen, missed;
	/* events per 1000 cycles, as the model's rates */
	static const u64 rates[] = { 1, 999, 1000, 2500, 3999, 4000 };
	u32 seed = 11;
	unsigned int i, k, late_spans = 0;
	bool late;

	/* the e2e case: rate 4, 1.125e9 cycles, 4.5e9 events, one hidden wrap */
	r = (struct cmn_hnf_local_rate){ .rate = 4ULL << CMN_HNF_RATE_SHIFT, .known = true };
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_missed(&r, 4500000000ULL - (1ULL << 32),
						   1125000000ULL, &late), 1ULL << 32);
	KUNIT_EXPECT_TRUE(test, late);

	/* within the bound nothing is missed, and the rate is noted */
	r = (struct cmn_hnf_local_rate){};
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_missed(&r, 3000, 1000, &late), 0ULL);
	KUNIT_EXPECT_FALSE(test, late);
	KUNIT_EXPECT_FALSE(test, r.known);	/* too short a span to measure */
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_missed(&r, 300000000ULL, 100000000ULL, &late),
			0ULL);
	KUNIT_EXPECT_FALSE(test, late);
	KUNIT_EXPECT_TRUE(test, r.known);
	KUNIT_EXPECT_EQ(test, r.rate, 3ULL << CMN_HNF_RATE_SHIFT);

	/* a late span with no rate known: late, nothing can be added */
	r = (struct cmn_hnf_local_rate){};
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_missed(&r, 5, 1ULL << 34, &late), 0ULL);
	KUNIT_EXPECT_TRUE(test, late);
	KUNIT_EXPECT_FALSE(test, r.known);

	/*
	 * Never more than the bound allows: a rate of 4 that stopped during
	 * a late span (seen 0) adds at most what 4 per cycle could hide.
	 */
	r = (struct cmn_hnf_local_rate){ .rate = 4ULL << CMN_HNF_RATE_SHIFT, .known = true };
	missed = cmn_hnf_local_missed(&r, 0, 3ULL << 30, &late);
	KUNIT_EXPECT_EQ(test, missed, 3ULL << 32);
	KUNIT_EXPECT_LE(test, missed, cmn_hnf_local_bound(3ULL << 30));
	missed = cmn_hnf_local_missed(&r, (1ULL << 32) - 1, 1ULL << 30, &late);
	KUNIT_EXPECT_EQ(test, missed, 0ULL);	/* a span one period wide */
	KUNIT_EXPECT_FALSE(test, late);

	/* steady rates, spans of 1e5 cycles to 2^38 (256 wraps at rate 4) */
	for (k = 0; k < ARRAY_SIZE(rates); k++) {
		r = (struct cmn_hnf_local_rate){};
		truth = 0;
		total = 0;
		reads = 0;
		prev = 0;
		for (i = 0; i < 2000; i++) {
			/* three polls in four on time, then one late by 2^30..2^38 */
			if (i < 4 || i % 4)
				span = 100000 + rnd(&seed) % 200000000;
			else
				span = (1ULL << 30) + (((u64)rnd(&seed) << 6) % (1ULL << 38));
			truth += span * rates[k] / 1000;
			cur = truth & U32_MAX;
			seen = cmn_hnf_local_delta(prev, cur, 32);
			prev = cur;
			reads += seen;
			total += seen + cmn_hnf_local_missed(&r, seen, span, &late);
			late_spans += late;
			KUNIT_ASSERT_EQ_MSG(test, total, truth, "rate %llu/1000, poll %u",
					    rates[k], i);
		}
		/* the test means something: the reads alone lose periods */
		if (rates[k] >= 1000)
			KUNIT_EXPECT_LT(test, reads, truth);
	}
	KUNIT_EXPECT_GT(test, late_spans, 100U);
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

/*
 * Group reads (logic.h, "Group reads"): up to GROUP_EVENTS simulated
 * GLOBAL events counting on the same nodes, as a group of aggregated events
 * does. The registers are laid out as on the mesh: each node on its own XP,
 * or two on one (then half as many events), each event in its own DTM
 * counter of the XP (the counters in the same order on every XP, or
 * shuffled per XP), paired in the DTM with the event's global counter,
 * which sits in its half of a DTC pair register. A counter left over is
 * paired with a global counter outside the group; it and every other lane
 * and half hold junk. One group sample per step: the pair registers, then
 * (after more events and carries) the XPs. Each member's sample must be
 * exactly what its own read of the same registers gives, its count never
 * ahead of the truth and, once the carries have landed, exact.
 */
#define GROUP_EVENTS	4

struct group_sim {
	struct sim ev[GROUP_EVENTS];
	unsigned int nev;
	u8 global[GROUP_EVENTS];	/* each event's global counter */
	u8 globals;			/* those, as bits */
	u8 xp[SIM_NODES];		/* each node's XP */
	u8 lane[SIM_NODES][GROUP_EVENTS];	/* DTM counter of (node, event) */
	struct cmn_hnf_dtm_cfg dtm[CMN_HNF_MAX_XPS];
	u8 other;			/* global counter outside the group */
	unsigned int one_run;		/* samples whose XPs all pair alike */
};

static void group_sim_start(struct group_sim *g, u32 *seed, unsigned int round)
{
	unsigned int e, n, i, k, per_xp = 1 + round % 2;
	unsigned int dtcs = 1 + rnd(seed) % CMN_HNF_MAX_DTCS;
	u8 used = 0, other, perm[CMN_HNF_DTM_COUNTERS];
	bool shuffle = round % 3;

	/* a new layout; the count of one-run samples goes on */
	memset(g, 0, offsetof(struct group_sim, one_run));
	g->nev = CMN_HNF_DTM_COUNTERS / per_xp - (round % 4 >= 2);
	for (e = 0; e < g->nev; e++) {
		sim_start(&g->ev[e], seed, round + e, dtcs);
		g->ev[e].delay = true;
		/* the same nodes: the same DTCs */
		if (e)
			memcpy(g->ev[e].dtc_of, g->ev[0].dtc_of, sizeof(g->ev[0].dtc_of));
		do {
			g->global[e] = rnd(seed) % CMN_HNF_DTC_COUNTERS;
		} while (used & BIT(g->global[e]));
		used |= BIT(g->global[e]);
	}
	g->globals = used;
	other = ffz(used);
	/* XP x holds nodes per_xp * x ..: 64 / SIM_NODES apart, so bits spread */
	for (n = 0; n < SIM_NODES; n++) {
		struct cmn_hnf_dtm_cfg *cfg;

		g->xp[n] = (n / per_xp) * (CMN_HNF_MAX_XPS / SIM_NODES) + round % 5;
		cfg = &g->dtm[g->xp[n]];
		if (n % per_xp == 0) {
			for (k = 0; k < CMN_HNF_DTM_COUNTERS; k++)
				perm[k] = k;
			for (k = CMN_HNF_DTM_COUNTERS - 1; shuffle && k > 0; k--) {
				i = rnd(seed) % (k + 1);
				swap(perm[k], perm[i]);
			}
			/*
			 * every counter paired outside the group, until taken;
			 * or, every other round, not paired at all but naming
			 * a member's global counter, which it must not reach
			 */
			cfg->paired = round % 2 ? 0 : 0xf;
			memset(cfg->global_num, round % 2 ? g->global[0] : other,
			       sizeof(cfg->global_num));
		}
		for (e = 0; e < g->nev; e++) {
			g->lane[n][e] = perm[(n % per_xp) * g->nev + e];
			cfg->paired |= BIT(g->lane[n][e]);
			cfg->global_num[g->lane[n][e]] = g->global[e];
		}
	}
	g->other = other;
}

static void group_sim_feed(struct group_sim *g, u32 *seed, u64 big)
{
	unsigned int e, n;

	for (e = 0; e < g->nev; e++)
		for (n = 0; n < SIM_NODES; n++)
			sim_feed(&g->ev[e], n, sim_burst(seed, big));
}

static void group_sim_deliver(struct group_sim *g, u32 *seed)
{
	unsigned int e;

	for (e = 0; e < g->nev; e++)
		sim_deliver(&g->ev[e], rnd(seed));
}

/* The pair registers as the mesh holds them now */
static void group_sim_read_pairs(const struct group_sim *g, u32 *seed,
				 struct cmn_hnf_group_sample *gs)
{
	unsigned int d, p, e;

	for (d = 0; d < CMN_HNF_MAX_DTCS; d++)
		for (p = 0; p < CMN_HNF_DTC_COUNTERS / 2; p++)
			gs->pair[d][p] = (u64)rnd(seed) << 32 | rnd(seed);
	for (e = 0; e < g->nev; e++) {
		gs->pairs |= cmn_hnf_pair_bit(g->global[e]);
		for (d = 0; d < CMN_HNF_MAX_DTCS; d++) {
			u64 *reg = &gs->pair[d][g->global[e] / 2];
			unsigned int shift = 32 * (g->global[e] % 2);

			*reg &= ~(0xffffffffULL << shift);
			*reg |= (u64)g->ev[e].global[d] << shift;
		}
	}
}

/* The XP registers as the mesh holds them now */
static void group_sim_read_xps(const struct group_sim *g, u32 *seed,
			       struct cmn_hnf_group_sample *gs)
{
	unsigned int n, e, i;

	for (i = 0; i < CMN_HNF_MAX_XPS; i++)
		gs->xp[i] = (u64)rnd(seed) << 32 | rnd(seed);
	for (n = 0; n < SIM_NODES; n++) {
		gs->xps |= BIT_ULL(g->xp[n]);
		for (e = 0; e < g->nev; e++) {
			unsigned int shift = 16 * g->lane[n][e];

			gs->xp[g->xp[n]] &= ~(0xffffULL << shift);
			gs->xp[g->xp[n]] |= (u64)g->ev[e].local[n] << shift;
		}
	}
}

/*
 * What the counters outside the group add to global counter @other in
 * @gs: the paired lanes that no member holds, read straight off the layout
 */
static u32 group_sim_other(const struct group_sim *g,
			   const struct cmn_hnf_group_sample *gs)
{
	unsigned int n, e, k;
	u32 sum = 0;
	u8 taken;

	for (n = 0; n < SIM_NODES; n++) {
		const struct cmn_hnf_dtm_cfg *cfg = &g->dtm[g->xp[n]];

		/* an XP of two nodes: count its lanes once */
		if (n && g->xp[n] == g->xp[n - 1])
			continue;
		taken = 0;
		for (k = n; k < SIM_NODES && g->xp[k] == g->xp[n]; k++)
			for (e = 0; e < g->nev; e++)
				taken |= BIT(g->lane[k][e]);
		for (k = 0; k < CMN_HNF_DTM_COUNTERS; k++)
			if (!(taken & BIT(k)) && (cfg->paired & BIT(k)) &&
			    cfg->global_num[k] == g->other)
				sum += (u16)(gs->xp[g->xp[n]] >> (16 * k));
	}
	return sum;
}

/*
 * The route every XP of the group has, from the layout: the DTM counter of
 * each member's global counter, the rest paired with the global counter
 * outside the group or not at all; CMN_HNF_ROUTE_MIXED if XPs differ.
 */
static u32 group_sim_route(const struct group_sim *g)
{
	u32 route = CMN_HNF_ROUTE_MIXED, r;
	unsigned int n, k;

	for (n = 0; n < SIM_NODES; n++) {
		const struct cmn_hnf_dtm_cfg *cfg = &g->dtm[g->xp[n]];

		r = 0;
		for (k = 0; k < CMN_HNF_DTM_COUNTERS; k++)
			r |= (cfg->paired & BIT(k) ? cfg->global_num[k] :
				CMN_HNF_ROUTE_NONE) << (8 * k);
		if (n && r != route)
			return CMN_HNF_ROUTE_MIXED;
		route = r;
	}
	return route;
}

/*
 * One group sample, with more events and carries between the pair and the
 * XP reads when @race; @s gets each member's own read of the same moments,
 * @gs the group sample and @local its local sums.
 */
static void group_sim_sample(struct kunit *test, struct group_sim *g,
			     u32 *seed, bool race, struct cmn_hnf_sample *s,
			     struct cmn_hnf_group_sample *gs,
			     u32 local[CMN_HNF_GROUP_LOCALS])
{
	u32 runs[CMN_HNF_GROUP_LOCALS], route;
	unsigned int e;

	memset(gs, 0, sizeof(*gs));
	group_sim_read_pairs(g, seed, gs);
	/* each member's own read: globals now, its locals with the group's */
	for (e = 0; e < g->nev; e++)
		sim_read_globals(&g->ev[e], &s[e]);
	if (race) {
		group_sim_feed(g, seed, 0x800);
		group_sim_deliver(g, seed);
	}
	group_sim_read_xps(g, seed, gs);
	cmn_hnf_group_route(gs, g->dtm);
	KUNIT_ASSERT_EQ(test, gs->route, group_sim_route(g));
	if (gs->route != CMN_HNF_ROUTE_MIXED)
		g->one_run++;
	/* the same sums as XPs that pair in different ways would give */
	route = gs->route;
	gs->route = CMN_HNF_ROUTE_MIXED;
	cmn_hnf_group_locals(gs, g->dtm, runs);
	gs->route = route;
	cmn_hnf_group_locals(gs, g->dtm, local);
	for (e = 0; e < CMN_HNF_DTC_COUNTERS; e++)
		KUNIT_ASSERT_EQ_MSG(test, local[e], runs[e], "global %u", e);
	for (e = 0; e < g->nev; e++) {
		sim_read_locals(&g->ev[e], &s[e]);
		KUNIT_ASSERT_EQ_MSG(test, local[g->global[e]], s[e].local,
				    "event %u", e);
	}
	/* the counters paired outside the group go to their own global */
	KUNIT_ASSERT_EQ(test, local[g->other], group_sim_other(g, gs));
}

/*
 * Account member @e of the group sample both ways: its own read @own with
 * cmn_hnf_acc_update() in @acc, the group sample with
 * cmn_hnf_acc_update_group() in @accg. Both must count alike.
 */
static u64 group_sim_account(struct kunit *test, const struct group_sim *g,
			     unsigned int e, const struct cmn_hnf_sample *own,
			     const struct cmn_hnf_group_sample *gs,
			     const u32 *local, struct cmn_hnf_acc *acc,
			     struct cmn_hnf_acc *accg)
{
	u64 delta, deltag;

	delta = cmn_hnf_acc_update(acc, own, CMN_HNF_MAX_DTCS);
	deltag = cmn_hnf_acc_update_group(accg, gs, g->global[e],
					  local[g->global[e]], CMN_HNF_MAX_DTCS);
	KUNIT_ASSERT_EQ_MSG(test, deltag, delta, "event %u", e);
	KUNIT_ASSERT_EQ_MSG(test, accg->carries, acc->carries, "event %u", e);
	KUNIT_ASSERT_EQ_MSG(test, accg->high, acc->high, "event %u", e);
	KUNIT_ASSERT_EQ_MSG(test, accg->wrapped, acc->wrapped, "event %u", e);
	KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_acc_short(accg), cmn_hnf_acc_short(acc),
			    "event %u", e);
	KUNIT_ASSERT_EQ(test, memcmp(&accg->last, &acc->last, sizeof(acc->last)), 0);
	return delta;
}

static void cmn_hnf_test_counter_group(struct kunit *test)
{
	struct cmn_hnf_sample s[GROUP_EVENTS];
	struct cmn_hnf_acc acc[GROUP_EVENTS], accg[GROUP_EVENTS];
	struct cmn_hnf_group_sample *gs;
	u32 local[CMN_HNF_GROUP_LOCALS];
	struct group_sim *g;
	u64 base[GROUP_EVENTS], counted[GROUP_EVENTS], delta;
	unsigned int round, step, e, shorts = 0;
	u32 seed = 4242;

	g = kunit_kzalloc(test, sizeof(*g), GFP_KERNEL);
	gs = kunit_kzalloc(test, sizeof(*gs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	KUNIT_ASSERT_NOT_NULL(test, gs);
	for (round = 0; round < 60; round++) {
		group_sim_start(g, &seed, round);
		group_sim_sample(test, g, &seed, false, s, gs, local);
		for (e = 0; e < g->nev; e++) {
			cmn_hnf_acc_init(&acc[e], &s[e]);
			cmn_hnf_acc_init(&accg[e], &s[e]);
			base[e] = g->ev[e].truth;
			counted[e] = 0;
		}
		for (step = 0; step < 100; step++) {
			group_sim_feed(g, &seed, step % 16 ? 0x1000 : 0x30000);
			group_sim_deliver(g, &seed);
			group_sim_sample(test, g, &seed, true, s, gs, local);
			for (e = 0; e < g->nev; e++) {
				delta = group_sim_account(test, g, e, &s[e], gs, local,
							  &acc[e], &accg[e]);
				shorts += cmn_hnf_acc_short(&acc[e]);
				KUNIT_ASSERT_LE_MSG(test, delta,
						    g->ev[e].truth - base[e] - counted[e],
						    "round %u step %u event %u",
						    round, step, e);
				counted[e] += delta;
			}
		}
		/* counting stops, the carries land: every member exact */
		for (e = 0; e < g->nev; e++)
			sim_deliver(&g->ev[e], ~0U);
		group_sim_sample(test, g, &seed, false, s, gs, local);
		for (e = 0; e < g->nev; e++) {
			counted[e] += group_sim_account(test, g, e, &s[e], gs, local,
							&acc[e], &accg[e]);
			KUNIT_ASSERT_FALSE(test, cmn_hnf_acc_short(&accg[e]));
			KUNIT_ASSERT_EQ_MSG(test, counted[e], g->ev[e].truth - base[e],
					    "round %u event %u", round, e);
		}
	}
	/* the races must have made members' samples short */
	KUNIT_EXPECT_GT(test, shorts, 100U);
	/* both ways of summing the XPs were taken */
	KUNIT_EXPECT_GT(test, g->one_run, 0U);
	KUNIT_EXPECT_LT(test, g->one_run, 60U * 102);
}

/*
 * The route of a DTM's counters, from the register's definition: a paired
 * counter carries into the global counter its 3-bit global_num names, one
 * that is not paired carries nowhere (CMN_HNF_ROUTE_NONE).
 */
static void cmn_hnf_test_counter_route(struct kunit *test)
{
	static const struct {
		u8 paired;
		u8 global_num[CMN_HNF_DTM_COUNTERS];
		u8 route[CMN_HNF_DTM_COUNTERS];
	} v[] = {
		{ 0x0, { 0, 0, 0, 0 }, { 8, 8, 8, 8 } },
		{ 0xf, { 0, 0, 0, 0 }, { 0, 0, 0, 0 } },
		{ 0xf, { 7, 6, 5, 4 }, { 7, 6, 5, 4 } },
		{ 0x5, { 3, 5, 7, 1 }, { 3, 8, 7, 8 } },
		{ 0xa, { 2, 6, 4, 1 }, { 8, 6, 8, 1 } },
		{ 0x1, { 1, 2, 3, 4 }, { 1, 8, 8, 8 } },
		{ 0x8, { 1, 2, 3, 4 }, { 8, 8, 8, 4 } },
		/* only 3 bits of global_num reach the register */
		{ 0x6, { 9, 15, 12, 0 }, { 8, 7, 4, 8 } },
		/* bits above the four counters pair nothing */
		{ 0xf0, { 1, 2, 3, 4 }, { 8, 8, 8, 8 } },
	};
	struct cmn_hnf_dtm_cfg cfg = {};
	unsigned int i, n;
	u32 route;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		cfg.paired = v[i].paired;
		memcpy(cfg.global_num, v[i].global_num, sizeof(cfg.global_num));
		route = cmn_hnf_dtm_route(&cfg);
		for (n = 0; n < CMN_HNF_DTM_COUNTERS; n++)
			KUNIT_EXPECT_EQ_MSG(test, (route >> (8 * n)) & 0xff,
					    (u32)v[i].route[n], "vector %u counter %u",
					    i, n);
	}
}

/* The halves of a pair register, and a pair's bit */
static void cmn_hnf_test_counter_pair(struct kunit *test)
{
	u64 reg = 0x89abcdef01234567ULL;
	unsigned int g;

	KUNIT_EXPECT_EQ(test, cmn_hnf_pair_counter(reg, 0), 0x01234567U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_pair_counter(reg, 1), 0x89abcdefU);
	KUNIT_EXPECT_EQ(test, cmn_hnf_pair_counter(reg, 6), 0x01234567U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_pair_counter(reg, 7), 0x89abcdefU);
	for (g = 0; g < CMN_HNF_DTC_COUNTERS; g++)
		KUNIT_EXPECT_EQ(test, cmn_hnf_pair_bit(g), (u8)BIT(g / 2));
}

static struct kunit_case cmn_hnf_counter_cases[] = {
	KUNIT_CASE_PARAM(cmn_hnf_test_counter_vectors, delta_gen_params),
	KUNIT_CASE(cmn_hnf_test_counter_short),
	KUNIT_CASE(cmn_hnf_test_counter_wrapped),
	KUNIT_CASE(cmn_hnf_test_counter_simulated),
	KUNIT_CASE(cmn_hnf_test_counter_racing),
	KUNIT_CASE_PARAM(cmn_hnf_test_counter_wrap_delta, wrap_gen_params),
	KUNIT_CASE(cmn_hnf_test_counter_overflow),
	KUNIT_CASE(cmn_hnf_test_counter_overflow_short),
	KUNIT_CASE(cmn_hnf_test_counter_flag_at_base),
	KUNIT_CASE(cmn_hnf_test_counter_cycles_overflow),
	KUNIT_CASE(cmn_hnf_test_counter_interrupt_only),
	KUNIT_CASE(cmn_hnf_test_counter_local),
	KUNIT_CASE(cmn_hnf_test_counter_lane),
	KUNIT_CASE(cmn_hnf_test_counter_late_poll),
	KUNIT_CASE(cmn_hnf_test_counter_cycles),
	KUNIT_CASE(cmn_hnf_test_counter_group),
	KUNIT_CASE(cmn_hnf_test_counter_route),
	KUNIT_CASE(cmn_hnf_test_counter_pair),
	{}
};

struct kunit_suite cmn_hnf_counter_suite = {
	.name = "arm_cmn_hnf_counter",
	.test_cases = cmn_hnf_counter_cases,
};
