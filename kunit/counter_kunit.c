// SPDX-License-Identifier: GPL-2.0
/*
 * Counter arithmetic (logic.h, "Counting exactly"): the modular delta of a
 * counter of any width; a wrapping counter with an overflow flag (a DTC's
 * 32-bit global counter, the DTC0 40-bit cycle counter) read by
 * cmn_hnf_wrap_read() with flags served by cmn_hnf_wrap_flag() and
 * confirmed by cmn_hnf_wrap_confirm(); and the count of a GLOBAL event,
 * cmn_hnf_acc_update(): 16-bit DTM counters carrying into the global
 * counters, each carry worth 2^16 events, a carry landing on its DTC some
 * time after the wrap that made it.
 *
 * Widths from the reference (2.5): DTM counters 16 bits, DTC global
 * counters 32, the cycle counter 40. Every expectation is the truth of a
 * simulated counter or a literal worked out from those widths.
 */
#include <linux/bitops.h>
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

#define DTM_W		16	/* a DTM counter */
#define GLOBAL_W	32	/* a DTC global counter */
#define CYCLES_W	40	/* the DTC cycle counter */

/* ---- cmn_hnf_delta() -------------------------------------------------- */

struct delta_vec {
	u64 prev, cur;
	unsigned int width;
	u64 want;
};

static const struct delta_vec delta_vecs[] = {
	{ 100, 150, 16, 50 },
	{ 0xfff0, 0x0010, 16, 0x20 },
	{ 0xffff, 0, 16, 1 },
	{ 7, 7, 16, 0 },
	{ 100, 150, 32, 50 },
	{ 0xffffffff, 0, 32, 1 },
	{ 0xfffffff0, 0x10, 32, 0x20 },
	{ 0x80000000, 0x7fffffff, 32, 0xffffffff },
	{ 0x12345678, 0x12345678, 32, 0 },
	{ 0xffffffffffULL, 1, 40, 2 },
	{ 0x8000000000ULL, 0x7fffffffffULL, 40, 0xffffffffffULL },
	{ 0xfffffff000ULL, 0x100000010ULL, 40, 0x100001010ULL },
	{ 0x10, 0x100000020ULL, 40, 0x100000010ULL },
	{ 0xffffffffffffULL, 0, 48, 1 },
	{ ~0ULL, 0, 64, 1 },
	{ 5, 3, 64, ~0ULL - 1 },
};

static void cmn_hnf_test_counter_delta(struct kunit *test)
{
	const struct delta_vec *v;
	static const unsigned int widths[] = { DTM_W, GLOBAL_W, CYCLES_W, 48 };
	unsigned int i, k;
	u64 prev, inc, mask;
	u32 seed = 0x5eed;

	for (i = 0; i < ARRAY_SIZE(delta_vecs); i++) {
		v = &delta_vecs[i];
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_delta(v->prev, v->cur, v->width), v->want,
				    "0x%llx -> 0x%llx, %u bits", v->prev, v->cur, v->width);
	}
	/* any increase below one period, from anywhere */
	for (k = 0; k < ARRAY_SIZE(widths); k++) {
		mask = BIT_ULL(widths[k]) - 1;
		for (i = 0; i < 2000; i++) {
			prev = cmn_hnf_kunit_rand64(&seed) & mask;
			inc = cmn_hnf_kunit_rand64(&seed) & mask;
			KUNIT_ASSERT_EQ(test, cmn_hnf_delta(prev, (prev + inc) & mask, widths[k]),
					inc);
		}
	}
}

/*
 * cmn_hnf_fields_sum(): the sum of the chosen 16-bit DTM counters of an
 * XP's por_dtm_pmevcnt, counter n in bits [16n + 15:16n], for every choice
 */
static void cmn_hnf_test_counter_fields_sum(struct kunit *test)
{
	static const u64 vals[] = {
		0, ~0ULL, 0x0004000300020001ULL, 0xffff0000ffff0000ULL,
		0x8000800080008000ULL, 0x123456789abcdef0ULL,
	};
	unsigned int i, fields, n;
	u32 want;

	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		for (fields = 0; fields < 16; fields++) {
			want = 0;
			if (fields & 1)
				want += vals[i] & 0xffff;
			if (fields & 2)
				want += (vals[i] >> 16) & 0xffff;
			if (fields & 4)
				want += (vals[i] >> 32) & 0xffff;
			if (fields & 8)
				want += vals[i] >> 48;
			KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_fields_sum(vals[i], fields), want,
					    "0x%llx, fields 0x%x", vals[i], fields);
		}
	}
	/* four counters at their largest: no 16-bit truncation of the sum */
	n = cmn_hnf_fields_sum(~0ULL, 0xf);
	KUNIT_EXPECT_EQ(test, n, 4U * 0xffff);
}

/* ---- cmn_hnf_wrap_read(), _flag(), _confirm() -------------------------- */

static u64 wrap_read(struct kunit *test, struct cmn_hnf_wrap *w, u64 cur,
		     unsigned int width, u64 want, bool seen)
{
	u64 got = cmn_hnf_wrap_read(w, cur, width);

	KUNIT_EXPECT_EQ_MSG(test, got, want, "read 0x%llx, %u bits", cur, width);
	KUNIT_EXPECT_EQ_MSG(test, w->seen, seen, "read 0x%llx, %u bits", cur, width);
	KUNIT_EXPECT_EQ(test, w->last, cur);
	return got;
}

/*
 * A 32-bit global counter: a read below the last one is a wrap it saw, and
 * counts what went by; a read that is not below it sees none, even when a
 * whole period went by (nothing can tell), and the overflow flag that
 * comes with such a wrap then leaves the period pending.
 */
static void cmn_hnf_test_counter_wrap_read_32(struct kunit *test)
{
	struct cmn_hnf_wrap w = { .last = 0xfffffff0 };

	wrap_read(test, &w, 0xfffffff8, GLOBAL_W, 8, false);
	wrap_read(test, &w, 0x10, GLOBAL_W, 0x18, true);
	/* seen stays until a flag takes it */
	wrap_read(test, &w, 0x10, GLOBAL_W, 0, true);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_FALSE(test, w.seen);
	KUNIT_EXPECT_EQ(test, w.pending, 0);
	/* the same value: nothing, and no wrap seen */
	wrap_read(test, &w, 0x10, GLOBAL_W, 0, false);
	/* round once and back above: 2^32 + 0x20 events, the read gives 0x20 */
	wrap_read(test, &w, 0x30, GLOBAL_W, 0x20, false);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_EQ(test, w.pending, 1);
	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_confirm(&w), 1U);
	/* the top value and zero */
	wrap_read(test, &w, 0xffffffff, GLOBAL_W, 0xffffffcfULL, false);
	wrap_read(test, &w, 0, GLOBAL_W, 1, true);
}

/*
 * The 40-bit cycle counter: a wrap is below the last value in all 40
 * bits, and a difference is taken in 40 bits, not 32: values above 2^32
 * and increases of more than 2^32 between two reads.
 */
static void cmn_hnf_test_counter_wrap_read_40(struct kunit *test)
{
	struct cmn_hnf_wrap w = { .last = 0x10 };

	/* more than 2^32 cycles since the last read */
	wrap_read(test, &w, 0x100000020ULL, CYCLES_W, 0x100000010ULL, false);
	/* low 32 bits go round, the counter does not: no wrap */
	w.last = 0x1fffffff0ULL;
	wrap_read(test, &w, 0x200000010ULL, CYCLES_W, 0x20, false);
	/* the 40-bit wrap */
	w.last = 0xff00000000ULL;
	wrap_read(test, &w, 0x80000000ULL, CYCLES_W, 0x180000000ULL, true);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_wrap_flag(&w));
	w.last = 0xffffffffffULL;
	wrap_read(test, &w, 0, CYCLES_W, 1, true);
	/* a whole period and a bit: 0x20 read, the flag makes it a period */
	wrap_read(test, &w, 0x20, CYCLES_W, 0x20, true);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_wrap_flag(&w));
	wrap_read(test, &w, 0x40, CYCLES_W, 0x20, false);
	KUNIT_EXPECT_FALSE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_confirm(&w), 1U);
}

/*
 * Flags: one a read explained takes that read's wrap, once; one no read
 * explained leaves a period pending; confirm hands the pending periods
 * over, once; every unexplained flag is one period, however many.
 */
static void cmn_hnf_test_counter_wrap_flag(struct kunit *test)
{
	struct cmn_hnf_wrap w = { .last = 100 };
	unsigned int i;

	/* no read saw a wrap: pending */
	KUNIT_EXPECT_FALSE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_FALSE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_EQ(test, w.pending, 2);
	/* a read sees a wrap: its flag is explained, the pending stay */
	cmn_hnf_wrap_read(&w, 50, GLOBAL_W);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_EQ(test, w.pending, 2);
	/* one seen wrap explains one flag, not two */
	KUNIT_EXPECT_FALSE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_confirm(&w), 3U);
	KUNIT_EXPECT_EQ(test, w.pending, 0);
	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_confirm(&w), 0U);
	/* reads and confirmations leave seen and last alone */
	cmn_hnf_wrap_read(&w, 10, GLOBAL_W);
	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_confirm(&w), 0U);
	KUNIT_EXPECT_TRUE(test, w.seen);
	KUNIT_EXPECT_EQ(test, w.last, 10ULL);
	KUNIT_EXPECT_TRUE(test, cmn_hnf_wrap_flag(&w));

	/* many flags before a confirmation: each one a period */
	for (i = 0; i < 1000; i++)
		KUNIT_ASSERT_FALSE(test, cmn_hnf_wrap_flag(&w));
	KUNIT_EXPECT_EQ(test, cmn_hnf_wrap_confirm(&w), 1000U);
}

/* ---- cmn_hnf_acc ------------------------------------------------------ */

/*
 * The sample of a GLOBAL event is (carries << 16) + the DTM counters' sum:
 * a sample that missed a carry on its way is below the last one and counts
 * nothing, and leaves the high mark where it was; the next full sample
 * counts what went by, once.
 */
static void cmn_hnf_test_counter_acc(struct kunit *test)
{
	struct cmn_hnf_acc acc;

	cmn_hnf_acc_init(&acc, 0x1234);
	KUNIT_EXPECT_EQ(test, acc.carries, 0ULL);
	KUNIT_EXPECT_EQ(test, acc.high, 0x1234ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x1234), 0ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x1300), 0xccULL);
	/* two DTM counters: the sum may pass 0xffff without any carry */
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x1fffe), 0x1fffe - 0x1300ULL);
	/* a counter wraps (0xffff -> 0x0010) and its carry is there */
	acc.carries = 1;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x1000f), 0x11ULL);
	KUNIT_EXPECT_EQ(test, acc.high, 0x2000fULL);

	/* a counter wraps again, its carry still on the way: short */
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x0020), 0ULL);
	KUNIT_EXPECT_EQ(test, acc.high, 0x2000fULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x0030), 0ULL);
	KUNIT_EXPECT_EQ(test, acc.high, 0x2000fULL);
	/* the carry lands: everything since 0x2000f, once */
	acc.carries = 2;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x0030), 0x21ULL);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x0030), 0ULL);
	/* a wrap and its carry between two samples */
	acc.carries = 3;
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x0040), 0x10010ULL);
	/* 2^32 carries: the whole 48-bit range and beyond, no truncation */
	acc.carries = 3 + BIT_ULL(32);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 0x0040), BIT_ULL(48));
	acc.carries = BIT_ULL(40);
	cmn_hnf_acc_init(&acc, 5);
	KUNIT_EXPECT_EQ(test, acc.carries, 0ULL);
	acc.carries = BIT_ULL(40);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 4), BIT_ULL(56) - 1);

	/*
	 * A whole period with the global counter back at the value it had:
	 * the sample misses the period and its DTM counters are lower, so it
	 * is below the high mark; the period, once counted into the carries,
	 * brings the same sample to the exact count: 2^48 - 0x10000, not 2^48.
	 */
	cmn_hnf_acc_init(&acc, 4 * 0x4937);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 4 * 0x0937), 0ULL);
	acc.carries += BIT_ULL(32);
	KUNIT_EXPECT_EQ(test, cmn_hnf_acc_update(&acc, 4 * 0x0937), BIT_ULL(48) - 0x10000);
	KUNIT_EXPECT_EQ(test, acc.high, BIT_ULL(48) + 4 * 0x0937);
}

/*
 * Random samples of a mesh whose carries land late: nodes' 16-bit
 * counters wrap, their carries reach the global counter some samples
 * later, a few at a time. The count never goes down, never exceeds the
 * events counted up to the sample, and is exact whenever no carry is on
 * its way.
 */
static void cmn_hnf_test_counter_acc_short(struct kunit *test)
{
	u64 truth, count, landed, carries, delta;
	unsigned int round, step, n, nodes, exact = 0, shorts = 0;
	u16 local[8];
	u32 seed = 0xacc, sum;
	struct cmn_hnf_acc acc;

	for (round = 0; round < 100; round++) {
		nodes = 1 + cmn_hnf_kunit_rand(&seed) % 8;
		sum = 0;
		for (n = 0; n < nodes; n++) {
			local[n] = cmn_hnf_kunit_rand(&seed);
			sum += local[n];
		}
		cmn_hnf_acc_init(&acc, sum);
		truth = 0;
		count = 0;
		carries = 0;
		landed = 0;
		for (step = 0; step < 500; step++) {
			n = cmn_hnf_kunit_rand(&seed) % nodes;
			delta = cmn_hnf_kunit_rand(&seed) % (step % 7 ? 0x3000 : 0x50000);
			carries += (local[n] + delta) >> DTM_W;
			local[n] += delta;
			truth += delta;
			/* some of the carries on their way land */
			if (cmn_hnf_kunit_rand(&seed) % 3 == 0)
				landed = carries;
			else
				landed += (carries - landed) / 2;
			acc.carries = landed;
			for (n = 0, sum = 0; n < nodes; n++)
				sum += local[n];
			delta = cmn_hnf_acc_update(&acc, sum);
			KUNIT_ASSERT_LE_MSG(test, delta, truth - count,
					    "round %u step %u: above the truth", round, step);
			count += delta;
			shorts += landed < carries;
			if (landed == carries) {
				KUNIT_ASSERT_EQ_MSG(test, count, truth, "round %u step %u",
						    round, step);
				exact++;
			}
		}
	}
	KUNIT_EXPECT_GT(test, shorts, 10000U);
	KUNIT_EXPECT_GT(test, exact, 10000U);
}

/* ---- counter_racing: the order of a sample ---------------------------- */

/*
 * A sample of a GLOBAL event reads the global counters, then the DTM
 * counters (hw.c, cmn_hnf_hw_sample()): a carry lands on its DTC after the
 * wrap of the DTM counter that made it, so in that order a sample may miss
 * carries on their way but never holds a carry whose wrap it has not seen,
 * and is never above the truth. The other order can hold a carry of a wrap
 * that happened after its DTM read, with the DTM value from before the
 * wrap: 2^16 too much.
 *
 * The script below is one deterministic interleaving of events (EV), carries
 * landing (LAND, LAND1: one carry), and the two halves of a sample (READ_G,
 * READ_L) with events and carries between them, written in the driver's
 * order; ACCOUNT takes the sample with cmn_hnf_acc_update() and gives the
 * count the truth says the event must have (worked out by hand below, from
 * the 16-bit counters and their carries). Replayed with the two reads
 * swapped (the other order, read_order = LOCAL_FIRST), the same script
 * must over-count at some ACCOUNT: the script tells the orders apart.
 */
enum race_op { EV, LAND, LAND1, READ_G, READ_L, ACCOUNT };

struct race_step {
	enum race_op op;
	unsigned int node;
	u64 arg;		/* EV: events; ACCOUNT: the count it must give */
};

enum race_order { GLOBAL_FIRST, LOCAL_FIRST };

struct race {
	u16 local[2];
	u64 inflight[2];
	u32 global;
	u64 truth;
	/* the driver */
	struct cmn_hnf_wrap w;
	struct cmn_hnf_acc acc;
	u64 count;
	u32 g;
	u32 l;
	bool over;
};

static const struct race_step race_script[] = {
	/* node 0 at 0xfff0, node 1 at 0x8000, the global counter at 7 */
	{ EV, 0, 0x20 },		/* node 0 wraps to 0x10, its carry on the way */
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0 },		/* short: 7 and 0x8010, nothing counted */
	{ LAND, 0 },			/* global 8 */
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0x20 },
	/* between the two reads node 1 wraps and its carry lands */
	{ READ_G },
	{ EV, 1, 0x8000 }, { LAND, 1 },
	{ READ_L },
	{ ACCOUNT, 0, 0x20 },		/* 8 and 0x10: short, nothing */
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0x8020 },		/* 9 and 0x10 */
	/* two wraps of node 0, carries landing one at a time */
	{ EV, 0, 0x20000 },
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0x8020 },
	{ LAND1, 0 },
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0x18020 },
	{ LAND, 0 },
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0x28020 },
	/* node 0 wraps to 0 between the reads, its carry lands before READ_L */
	{ READ_G },
	{ EV, 0, 0xfff0 }, { LAND, 0 },
	{ READ_L },
	{ ACCOUNT, 0, 0x28020 },
	{ READ_G }, { READ_L },
	{ ACCOUNT, 0, 0x38010 },
};

static void race_exec(struct kunit *test, struct race *r, const struct race_step *s,
		      enum race_order order)
{
	enum race_op op = s->op;
	u64 total, delta;

	/* the other order reads the DTM counters where the driver reads the DTCs */
	if (order == LOCAL_FIRST && (op == READ_G || op == READ_L))
		op = op == READ_G ? READ_L : READ_G;
	switch (op) {
	case EV:
		total = r->local[s->node] + s->arg;
		r->local[s->node] = total;
		r->inflight[s->node] += total >> DTM_W;
		r->truth += s->arg;
		break;
	case LAND:
		r->global += r->inflight[s->node];
		r->inflight[s->node] = 0;
		break;
	case LAND1:
		r->global++;
		r->inflight[s->node]--;
		break;
	case READ_G:
		r->g = r->global;
		break;
	case READ_L:
		r->l = r->local[0] + r->local[1];
		break;
	case ACCOUNT:
		r->acc.carries += cmn_hnf_wrap_read(&r->w, r->g, GLOBAL_W);
		delta = cmn_hnf_acc_update(&r->acc, r->l);
		if (order == GLOBAL_FIRST) {
			KUNIT_EXPECT_LE_MSG(test, delta, r->truth - r->count,
					    "count 0x%llx + 0x%llx above the truth 0x%llx",
					    r->count, delta, r->truth);
			r->count += delta;
			KUNIT_EXPECT_EQ(test, r->count, s->arg);
		} else {
			r->count += delta;
			r->over |= r->count > r->truth;
		}
		break;
	}
}

static void race_start(struct race *r)
{
	memset(r, 0, sizeof(*r));
	r->local[0] = 0xfff0;
	r->local[1] = 0x8000;
	r->global = 7;
	r->w.last = r->global;
	cmn_hnf_acc_init(&r->acc, r->local[0] + r->local[1]);
}

/*
 * The same kind of interleaving, longer and on pseudo-random schedules:
 * four nodes, carries landing anywhere, events and carries before and
 * between the two reads of each sample. In the driver's order the count
 * never goes down, never exceeds the truth, and is exact once the carries
 * have landed; in the other order some schedules over-count.
 */
struct rrace {
	u16 local[4];
	u64 inflight[4];
	u32 global;
	u64 truth, carries;
	u32 seed;
};

static u32 rrace_local(const struct rrace *r)
{
	return r->local[0] + r->local[1] + r->local[2] + r->local[3];
}

static void rrace_ops(struct rrace *r, unsigned int step)
{
	unsigned int i, n, ops = cmn_hnf_kunit_rand(&r->seed) % 4;
	u64 delta, total;

	for (i = 0; i < ops; i++) {
		n = cmn_hnf_kunit_rand(&r->seed) % 4;
		if (cmn_hnf_kunit_rand(&r->seed) % 2) {
			delta = cmn_hnf_kunit_rand(&r->seed) % (step % 5 ? 0x400 : 0x24000);
			total = r->local[n] + delta;
			r->local[n] = total;
			r->inflight[n] += total >> DTM_W;
			r->carries += total >> DTM_W;
			r->truth += delta;
		} else {
			r->global += r->inflight[n];
			r->inflight[n] = 0;
		}
	}
}

static bool race_random(struct kunit *test, u32 seed, enum race_order order)
{
	struct rrace r = { .local = { 0xfff8, 0x7fff, 0, 0xff00 }, .global = 0xfffffffe };
	struct cmn_hnf_wrap w = { .last = r.global };
	u64 count = 0, delta;
	struct cmn_hnf_acc acc;
	unsigned int step, n;
	bool over = false;
	u32 g = 0, l = 0;

	r.seed = seed;
	cmn_hnf_acc_init(&acc, rrace_local(&r));
	for (step = 0; step < 3000; step++) {
		rrace_ops(&r, step);
		/* the two halves of a sample, in the order asked */
		if (order == GLOBAL_FIRST)
			g = r.global;
		else
			l = rrace_local(&r);
		rrace_ops(&r, step);
		if (order == GLOBAL_FIRST)
			l = rrace_local(&r);
		else
			g = r.global;
		acc.carries += cmn_hnf_wrap_read(&w, g, GLOBAL_W);
		delta = cmn_hnf_acc_update(&acc, l);
		if (order == LOCAL_FIRST) {
			count += delta;
			over |= count > r.truth;
			continue;
		}
		KUNIT_ASSERT_LE_MSG(test, delta, r.truth - count, "seed %u step %u", seed, step);
		count += delta;
	}
	if (order == GLOBAL_FIRST) {
		for (n = 0; n < 4; n++)
			r.global += r.inflight[n];
		acc.carries += cmn_hnf_wrap_read(&w, r.global, GLOBAL_W);
		count += cmn_hnf_acc_update(&acc, rrace_local(&r));
		KUNIT_EXPECT_EQ_MSG(test, count, r.truth, "seed %u", seed);
		/* the global counter went round too */
		KUNIT_EXPECT_GT(test, r.carries, 100ULL);
		KUNIT_EXPECT_TRUE(test, w.seen);
	}
	return over;
}

static void cmn_hnf_test_counter_racing(struct kunit *test)
{
	unsigned int i, overs = 0;
	struct race r;

	race_start(&r);
	for (i = 0; i < ARRAY_SIZE(race_script); i++)
		race_exec(test, &r, &race_script[i], GLOBAL_FIRST);
	KUNIT_EXPECT_EQ(test, r.count, r.truth);

	race_start(&r);
	for (i = 0; i < ARRAY_SIZE(race_script); i++)
		race_exec(test, &r, &race_script[i], LOCAL_FIRST);
	KUNIT_EXPECT_TRUE_MSG(test, r.over,
			      "the script does not tell the two read orders apart");

	for (i = 0; i < 20; i++) {
		race_random(test, 1000 + i, GLOBAL_FIRST);
		overs += race_random(test, 1000 + i, LOCAL_FIRST);
	}
	KUNIT_EXPECT_GT_MSG(test, overs, 10U, "the other order over-counted on %u schedules",
			    overs);
}

/* ---- the whole flow, as pmu.c drives it, on a simulated DTC ------------ */

/*
 * A simulated event, hardware and driver, driven by a pseudo-random
 * schedule. The hardware: D DTC counters of @width bits (GLOBAL: the
 * event's global counter on each DTC, fed by the carries of six 16-bit DTM
 * counters, each on one DTC; cycles: DTC0's cycle counter, which runs
 * whether the event does or not), each with its overflow flag, raised at
 * each wrap. The driver: the calls pmu.c makes, in its order:
 *
 * - read: sample (the DTC counters, then the DTM counters, with events and
 *   carries in between), cmn_hnf_wrap_read() on each DTC, the pending
 *   periods of DTCs whose flag reads clear confirmed, cmn_hnf_acc_update()
 *   (cmn_hnf_account());
 * - interrupt of DTC d (cmn_hnf_serve()): the flag set? clear it, read,
 *   then explained = running && (stale || cmn_hnf_wrap_flag()), and
 *   cmn_hnf_refire(): a flag stuck takes the line out of service (polled,
 *   its flag masked, its pending periods dropped); none is stale after;
 * - start: clear the flags, baseline read, stale = the flag reads set;
 * - stop: read, then each flag that is set and not stale served with
 *   cmn_hnf_wrap_flag() and cleared, and every pending period counted
 *   (cmn_hnf_stop_flags()).
 *
 * What the schedule may do is what the hardware can: events and carries
 * (a carry lands after its wrap, at any later point); reads; interrupts
 * served at once or late, even after the counter went a whole period
 * round; a clear written by start landing only after start looked at the
 * flag (the interrupt that flag raised is then taken, before or after the
 * clear lands, and before the counter wraps again: pmu.c leaves the flag
 * stale until a service of its line, and a genuine wrap served while it is
 * stale keeps its read's "seen", which a later unread wrap then consumes);
 * other events using the counter between a stop and a start; a flag that
 * sticks, whose interrupt then storms until the line is out of service.
 * It cannot do what takes more time than the hardware gives: a counter
 * wrap is at least 2^40 cycles (2^48 events of a global counter) away from
 * the one before, so a flag's interrupt comes before the next wrap, a
 * clear lands before the next wrap, a polled line is read several times
 * per period, and no wrap falls in the few register accesses between
 * stop's read and its look at the flags; the carries of an event have
 * landed by the time stop reads (the MMIO round trip after the event is
 * deselected outlasts a carry's way to the DTC). A flag sticks on a DTC
 * with no wrap or period waiting.
 *
 * After every read, interrupt and stop the count is at most the truth (so
 * it never went down: each step adds an unsigned delta), and after the
 * last stop it is the truth.
 */
#define SIM_NODES	6
#define SIM_DTCS	CMN_HNF_MAX_DTCS

struct sim_stats {
	unsigned int wraps, explained, unexplained, periods, stale, late_clears;
	unsigned int storms, shorts, reads, starts;
};

struct sim {
	struct kunit *test;
	u32 seed;
	/* hardware */
	bool cycles;
	unsigned int width, ndtcs;
	u64 period;
	u64 ctr[SIM_DTCS];
	bool flag[SIM_DTCS], stuck[SIM_DTCS], clr_late[SIM_DTCS];
	u64 moved[SIM_DTCS];		/* since the last read */
	u16 local[SIM_NODES];
	u8 dtc_of[SIM_NODES];
	u64 inflight[SIM_NODES];
	bool running;
	bool irqs_off;			/* inside start: no interrupt is taken */
	u64 truth;
	u64 now;
	/* driver */
	struct cmn_hnf_wrap w[SIM_DTCS];
	struct cmn_hnf_acc acc;
	struct cmn_hnf_refire refire[SIM_DTCS];
	bool masked[SIM_DTCS];		/* a stuck flag the driver knows */
	u64 count;
	struct sim_stats st;
};

static u32 sim_rand(struct sim *s)
{
	return cmn_hnf_kunit_rand(&s->seed);
}

/* What the driver reads of DTC @d's flag (cmn_hnf_ovf()) */
static bool sim_ovf(struct sim *s, unsigned int d)
{
	return s->flag[d] && !s->masked[d];
}

static void sim_land_clear(struct sim *s, unsigned int d)
{
	if (s->clr_late[d])
		s->flag[d] = s->stuck[d];
	s->clr_late[d] = false;
}

static void sim_clear(struct sim *s, unsigned int d, bool late)
{
	s->clr_late[d] = true;
	if (late)
		s->st.late_clears++;
	else
		sim_land_clear(s, d);
}

static void sim_add(struct sim *s, u64 delta, const char *what)
{
	KUNIT_ASSERT_LE_MSG(s->test, delta, s->truth - s->count,
			    "%s: count %llu + %llu above the truth %llu (seed %u)",
			    what, s->count, delta, s->truth, s->seed);
	s->count += delta;
}

static unsigned int sim_confirm(struct sim *s)
{
	unsigned int d, n = 0;

	for (d = 0; d < s->ndtcs; d++)
		if (s->w[d].pending && !sim_ovf(s, d))
			n += cmn_hnf_wrap_confirm(&s->w[d]);
	s->st.periods += n;
	return n;
}

static u32 sim_local_sum(struct sim *s)
{
	unsigned int n;
	u32 sum = 0;

	for (n = 0; n < SIM_NODES; n++)
		sum += s->local[n];
	return sum;
}

static void sim_events(struct sim *s, unsigned int n, u64 k);
static void sim_land(struct sim *s, unsigned int n, u64 c, bool may_wrap);

/* Between the two halves of a sample: events, and carries that wrap nothing */
static void sim_gap(struct sim *s)
{
	unsigned int i, n;

	for (i = 0; i < 3; i++) {
		n = sim_rand(s) % SIM_NODES;
		if (sim_rand(s) % 2)
			sim_events(s, n, sim_rand(s) % 0x14000);
		else
			sim_land(s, n, s->inflight[n], false);
	}
}

/* A read: cmn_hnf_update() of the event, with @gap between the two halves */
static void sim_read(struct sim *s, bool gap)
{
	u64 g[SIM_DTCS], delta;
	unsigned int d;
	u32 local;

	s->st.reads++;
	for (d = 0; d < s->ndtcs; d++) {
		g[d] = s->ctr[d];
		s->moved[d] = 0;
	}
	if (s->cycles) {
		delta = cmn_hnf_wrap_read(&s->w[0], g[0], s->width);
		if (s->w[0].pending)
			delta += sim_confirm(s) * s->period;
		sim_add(s, delta, "read");
		return;
	}
	if (gap)
		sim_gap(s);
	local = sim_local_sum(s);
	for (d = 0; d < s->ndtcs; d++)
		s->acc.carries += cmn_hnf_wrap_read(&s->w[d], g[d], s->width);
	for (d = 0; d < s->ndtcs; d++) {
		if (s->w[d].pending) {
			s->acc.carries += (u64)sim_confirm(s) << s->width;
			break;
		}
	}
	delta = cmn_hnf_acc_update(&s->acc, local);
	for (d = 0; d < SIM_NODES; d++)
		if (s->inflight[d]) {
			s->st.shorts++;
			break;
		}
	sim_add(s, delta, "read");
}

/* The interrupt of DTC @d's line, or the poll of a line out of service */
static void sim_serve(struct sim *s, unsigned int d)
{
	bool status = sim_ovf(s, d), explained, stuck;

	if (status)
		sim_clear(s, d, false);
	if (s->running && (status || s->masked[d]))
		sim_read(s, false);
	if (status) {
		explained = s->running && (s->w[d].stale || cmn_hnf_wrap_flag(&s->w[d]));
		if (explained)
			s->st.explained++;
		else
			s->st.unexplained++;
		stuck = cmn_hnf_refire(&s->refire[d], explained, s->now);
		if (stuck && !s->masked[d]) {
			s->masked[d] = true;
			s->w[d].pending = 0;
		}
	}
	s->w[d].stale = false;
}

/*
 * DTC counter @d moves on by @c (carries, or cycles). A wrap sets the flag;
 * the flag of the wrap before must have been served first, and a late
 * clear must have landed. A masked (polled) DTC is read every quarter
 * period.
 */
static void sim_advance(struct sim *s, unsigned int d, u64 c)
{
	u64 step;

	while (c) {
		step = min(c, s->period - s->ctr[d]);
		if (s->masked[d])
			step = min(step, s->period / 4);
		if (s->ctr[d] + step == s->period) {
			sim_land_clear(s, d);
			if (s->flag[d] && !s->stuck[d])
				sim_serve(s, d);
		}
		s->ctr[d] += step;
		s->moved[d] += step;
		c -= step;
		if (s->cycles && s->running)
			s->truth += step;
		if (s->ctr[d] == s->period) {
			s->ctr[d] = 0;
			s->flag[d] = true;
			s->st.wraps++;
			if (!s->irqs_off && sim_rand(s) % 2)
				sim_serve(s, d);
		}
		if (s->masked[d] && s->moved[d] >= s->period / 4) {
			if (s->running)
				sim_serve(s, d);
			s->moved[d] = 0;
		}
	}
}

/* @k events of node @n (GLOBAL) or @k cycles (cycles, @n unused) */
static void sim_events(struct sim *s, unsigned int n, u64 k)
{
	u64 total;

	if (s->cycles) {
		sim_advance(s, 0, k);
		return;
	}
	if (!s->running)
		return;
	total = s->local[n] + k;
	s->local[n] = total;
	s->inflight[n] += total >> DTM_W;
	s->truth += k;
}

/* @c of node @n's carries land; without @may_wrap only if no wrap comes of it */
static void sim_land(struct sim *s, unsigned int n, u64 c, bool may_wrap)
{
	unsigned int d = s->dtc_of[n];

	if (s->cycles || !c)
		return;
	if (!may_wrap && (c >= s->period - s->ctr[d] || s->masked[d]))
		return;
	s->inflight[n] -= c;
	sim_advance(s, d, c);
}

static void sim_land_all(struct sim *s)
{
	unsigned int n;

	for (n = 0; n < SIM_NODES; n++)
		sim_land(s, n, s->inflight[n], true);
}

static void sim_start(struct sim *s)
{
	unsigned int d;
	u64 room;

	s->st.starts++;
	s->irqs_off = true;
	for (d = 0; d < s->ndtcs; d++)
		sim_clear(s, d, sim_rand(s) % 3 == 0);
	/* cycles run on: a wrap between the clear and the baseline */
	if (s->cycles && sim_rand(s) % 4 == 0) {
		room = s->period - s->ctr[0];
		if (!s->flag[0] && room < 0x10000)
			sim_advance(s, 0, room + sim_rand(s) % 0x100);
	}
	for (d = 0; d < s->ndtcs; d++)
		s->w[d] = (struct cmn_hnf_wrap) { .last = s->ctr[d] };
	if (!s->cycles)
		cmn_hnf_acc_init(&s->acc, sim_local_sum(s));
	s->running = true;
	/* and between the baseline and the look at the flags */
	if (s->cycles && sim_rand(s) % 4 == 0) {
		room = s->period - s->ctr[0];
		if (!s->flag[0] && room < 0x10000)
			sim_advance(s, 0, room + sim_rand(s) % 0x100);
	}
	for (d = 0; d < s->ndtcs; d++) {
		s->w[d].stale = sim_ovf(s, d);
		s->st.stale += s->w[d].stale;
	}
	s->irqs_off = false;
	/* a flag set at the baseline has its interrupt raised: it comes now */
	for (d = 0; d < s->ndtcs; d++) {
		if (!s->w[d].stale) {
			sim_land_clear(s, d);
			continue;
		}
		if (sim_rand(s) % 2) {
			sim_serve(s, d);
		} else {
			sim_land_clear(s, d);
			sim_serve(s, d);
		}
	}
}

static void sim_stop(struct sim *s)
{
	unsigned int d, n = 0;
	u64 delta;

	/* the last carries land, the event is deselected: nothing more counts */
	sim_land_all(s);
	s->running = false;
	sim_read(s, false);
	for (d = 0; d < s->ndtcs; d++) {
		if (sim_ovf(s, d)) {
			if (!s->w[d].stale)
				cmn_hnf_wrap_flag(&s->w[d]);
			sim_clear(s, d, sim_rand(s) % 3 == 0);
		}
		n += cmn_hnf_wrap_confirm(&s->w[d]);
	}
	s->st.periods += n;
	delta = (u64)n << s->width;
	if (!s->cycles) {
		s->acc.carries += delta;
		delta <<= DTM_W;
		s->acc.high += delta;
	}
	sim_add(s, delta, "stop");
}

/* Between a stop and the next start, other events use the counters */
static void sim_others(struct sim *s)
{
	unsigned int d, n;

	for (d = 0; d < s->ndtcs; d++) {
		sim_land_clear(s, d);
		if (s->cycles) {
			sim_advance(s, 0, cmn_hnf_kunit_rand64(&s->seed) % (s->period * 2));
			continue;
		}
		if (sim_rand(s) % 2)
			s->ctr[d] = s->period - 1 - sim_rand(s) % 0x1000;
		if (!s->stuck[d] && sim_rand(s) % 3 == 0)
			s->flag[d] = true;
		if (sim_rand(s) % 2)
			sim_serve(s, d);
	}
	for (n = 0; n < SIM_NODES; n++)
		if (sim_rand(s) % 2)
			s->local[n] = sim_rand(s);
}

/* A flag sticks: its interrupt storms until the line is out of service */
static void sim_stick(struct sim *s, unsigned int d)
{
	unsigned int serves = 0;

	if (s->stuck[d] || s->flag[d] || s->clr_late[d] || s->w[d].pending)
		return;
	s->stuck[d] = true;
	s->flag[d] = true;
	s->st.storms++;
	while (!s->masked[d]) {
		s->now += 2000;
		sim_serve(s, d);
		serves++;
		KUNIT_ASSERT_LE_MSG(s->test, serves, CMN_HNF_STUCK_FLAGS + 1,
				    "a stuck flag served %u times and still in service",
				    serves);
	}
	/* one raise after a long while, then the quick ones */
	KUNIT_EXPECT_EQ(s->test, serves, CMN_HNF_STUCK_FLAGS + 1);
}

/* perf rotates the event out and back in, other events counted meanwhile */
static void sim_rotate(struct sim *s)
{
	sim_stop(s);
	sim_others(s);
	sim_start(s);
}

static u64 sim_amount(struct sim *s)
{
	/* from a few to several periods of the DTC counter, in its events */
	u64 big = s->cycles ? s->period : s->period << DTM_W;

	switch (sim_rand(s) % 6) {
	case 0:
	case 1:
		return sim_rand(s) % 0x1000;
	case 2:
		return sim_rand(s) % 0x40000;
	case 3:
		return cmn_hnf_kunit_rand64(&s->seed) % (big / 64);
	case 4:
		return cmn_hnf_kunit_rand64(&s->seed) % big;
	default:
		return big - 0x10000 + cmn_hnf_kunit_rand64(&s->seed) % (big / 2);
	}
}

static void sim_step(struct sim *s)
{
	unsigned int r = sim_rand(s) % 100, n = sim_rand(s) % SIM_NODES;
	unsigned int d = sim_rand(s) % s->ndtcs;

	s->now += 2000000 + sim_rand(s) % 20000000;
	if (r < 35)
		sim_events(s, n, sim_amount(s));
	else if (r < 50)
		sim_land(s, n, s->inflight[n], true);
	else if (r < 55)
		sim_land(s, n, s->inflight[n] / 2, true);
	else if (r < 78)
		sim_read(s, true);
	else if (r < 90)
		sim_serve(s, d);
	else if (r < 94)
		sim_rotate(s);
	else if (r < 95)
		sim_stick(s, d);
}

struct sim_case {
	const char *desc;
	bool cycles;
	unsigned int ndtcs;
};

static const struct sim_case sim_cases[] = {
	{ "global, 1 DTC", false, 1 },
	{ "global, 2 DTCs", false, 2 },
	{ "global, 4 DTCs", false, 4 },
	{ "cycles", true, 1 },
};

static void sim_case_desc(const struct sim_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sim, sim_cases, sim_case_desc);

static void sim_run(struct kunit *test, struct sim *s, const struct sim_case *c, u32 seed)
{
	struct sim_stats st = s->st;
	unsigned int d, n, step;

	memset(s, 0, sizeof(*s));
	s->st = st;
	s->test = test;
	s->seed = seed;
	s->cycles = c->cycles;
	s->ndtcs = c->ndtcs;
	s->width = c->cycles ? CYCLES_W : GLOBAL_W;
	s->period = BIT_ULL(s->width);
	s->now = 1000000000ULL;
	for (d = 0; d < s->ndtcs; d++)
		s->ctr[d] = s->period - 1 - sim_rand(s) % 0x100000;
	for (n = 0; n < SIM_NODES; n++) {
		s->local[n] = sim_rand(s);
		s->dtc_of[n] = n % s->ndtcs;
	}
	sim_start(s);
	for (step = 0; step < 1500; step++)
		sim_step(s);
	sim_stop(s);
	KUNIT_EXPECT_EQ_MSG(test, s->count, s->truth, "seed %u: not exact at the end", seed);
}

static void cmn_hnf_test_counter_simulated(struct kunit *test)
{
	const struct sim_case *c = test->param_value;
	struct sim *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	unsigned int run;

	KUNIT_ASSERT_NOT_NULL(test, s);
	for (run = 0; run < 40; run++)
		sim_run(test, s, c, 0x1234567 + 7 * run + 1000 * c->ndtcs + c->cycles);

	kunit_info(test, "%u wraps, %u flags explained, %u not, %u periods from flags, %u stale, %u late clears, %u storms, %u short reads of %u, %u starts\n",
		   s->st.wraps, s->st.explained, s->st.unexplained, s->st.periods,
		   s->st.stale, s->st.late_clears, s->st.storms, s->st.shorts,
		   s->st.reads, s->st.starts);
	/* the schedules went through every mechanism */
	KUNIT_EXPECT_GT(test, s->st.wraps, 200U);
	KUNIT_EXPECT_GT(test, s->st.explained, 100U);
	KUNIT_EXPECT_GT(test, s->st.periods, 20U);
	KUNIT_EXPECT_GT(test, s->st.stale, 5U);
	KUNIT_EXPECT_GT(test, s->st.late_clears, 20U);
	KUNIT_EXPECT_GT(test, s->st.storms, 5U);
	if (!c->cycles)
		KUNIT_EXPECT_GT(test, s->st.shorts, 1000U);
}

static struct kunit_case cmn_hnf_counter_cases[] = {
	KUNIT_CASE(cmn_hnf_test_counter_delta),
	KUNIT_CASE(cmn_hnf_test_counter_fields_sum),
	KUNIT_CASE(cmn_hnf_test_counter_wrap_read_32),
	KUNIT_CASE(cmn_hnf_test_counter_wrap_read_40),
	KUNIT_CASE(cmn_hnf_test_counter_wrap_flag),
	KUNIT_CASE(cmn_hnf_test_counter_acc),
	KUNIT_CASE(cmn_hnf_test_counter_acc_short),
	KUNIT_CASE(cmn_hnf_test_counter_racing),
	KUNIT_CASE_PARAM(cmn_hnf_test_counter_simulated, sim_gen_params),
	{}
};

struct kunit_suite cmn_hnf_counter_suite = {
	.name = "arm_cmn_hnf_counter",
	.test_cases = cmn_hnf_counter_cases,
};
