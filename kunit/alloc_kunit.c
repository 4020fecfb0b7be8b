// SPDX-License-Identifier: GPL-2.0
/*
 * Counter allocation: 8 global counters (same index on every DTC), 4 DTM
 * counters per XP shared by every HN-F on it, 4 event slots per HN-F, one
 * occupancy filter per HN-F shared by equal values, one cycle counter; and
 * bynodeid events in combined DTM counters (32 bits: a pair, 64 bits: all
 * four) that need no global counter.
 */
#include <linux/bitops.h>
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

/* A topology with the HN-F i on XP hnf_xp[i]; no discovery involved */
static struct cmn_hnf_topology *make_topo(struct kunit *test, unsigned int xps,
					  const u8 *hnf_xp, unsigned int hnfs)
{
	struct cmn_hnf_topology *topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, topo);
	topo->num_xps = xps;
	topo->num_hnfs = hnfs;
	topo->num_dtcs = 1;
	for (i = 0; i < hnfs; i++) {
		topo->hnf[i].xp = hnf_xp[i];
		topo->hnf[i].logical_id = i;
		topo->hnf[i].node_id = i;	/* only find_hnf looks at it */
	}
	return topo;
}

static struct cmn_hnf_alloc_state *make_state(struct kunit *test)
{
	struct cmn_hnf_alloc_state *s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, s);
	return s;
}

static struct cmn_hnf_request req_all(u8 eventid, u8 occupid)
{
	return (struct cmn_hnf_request){
		.sel = { .eventid = eventid, .occupid = occupid }, .hnf = -1,
	};
}

static struct cmn_hnf_request req_one(u8 eventid, u8 occupid, int hnf)
{
	return (struct cmn_hnf_request){
		.sel = { .eventid = eventid, .occupid = occupid, .bynodeid = true },
		.hnf = hnf,
	};
}

/* alloc must fail with -ENOSPC and leave the state as it was */
static void expect_nospc(struct kunit *test, struct cmn_hnf_alloc_state *s,
			 const struct cmn_hnf_topology *topo,
			 const struct cmn_hnf_request *req)
{
	struct cmn_hnf_alloc_state *before = make_state(test);
	struct cmn_hnf_grant g;

	*before = *s;
	KUNIT_EXPECT_EQ(test, cmn_hnf_alloc(s, topo, req, &g), -ENOSPC);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(before, s, sizeof(*s)), 0,
			    "state changed by a failed allocation");
}

/* Fifth event on an XP with one HN-F: the DTM is full */
static void cmn_hnf_test_alloc_full_dtm(struct kunit *test)
{
	static const u8 map[] = { 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 1);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant *g;
	u8 ctrs = 0, slots = 0, globals = 0;
	unsigned int i;

	g = kunit_kcalloc(test, 4, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);

	for (i = 0; i < 4; i++) {
		r = req_all(1 + i, 0);
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g[i]), 0);
		ctrs |= BIT(g[i].dtm_ctr[0]);
		slots |= BIT(g[i].slot[0]);
		globals |= BIT(g[i].global);
	}
	KUNIT_EXPECT_EQ(test, ctrs, 0xf);
	KUNIT_EXPECT_EQ(test, slots, 0xf);
	KUNIT_EXPECT_EQ(test, globals, 0xf);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0xf);
	KUNIT_EXPECT_EQ(test, s->slot_used[0], 0xf);

	r = req_all(5, 0);
	expect_nospc(test, s, topo, &r);
	r = req_one(5, 0, 0);
	expect_nospc(test, s, topo, &r);
}

/* Two HN-Fs on one XP: an aggregated event takes two DTM counters */
static void cmn_hnf_test_alloc_two_hnfs_one_xp(struct kunit *test)
{
	static const u8 map[] = { 0, 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 2);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r = req_all(1, 0);
	struct cmn_hnf_grant a, b;

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &a), 0);
	KUNIT_EXPECT_NE(test, a.dtm_ctr[0], a.dtm_ctr[1]);
	/* Each HN-F has its own slots: both use slot 0 */
	KUNIT_EXPECT_EQ(test, a.slot[0], 0);
	KUNIT_EXPECT_EQ(test, a.slot[1], 0);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0x3);

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &b), 0);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0xf);
	KUNIT_EXPECT_EQ(test, s->slot_used[0], 0x3);
	KUNIT_EXPECT_EQ(test, s->slot_used[1], 0x3);

	/* DTM full although both HN-Fs still have free slots */
	expect_nospc(test, s, topo, &r);
	r = req_one(2, 0, 1);
	expect_nospc(test, s, topo, &r);

	/* Freeing one aggregated event makes room for exactly two single ones */
	r = req_all(1, 0);
	cmn_hnf_free(s, topo, &r, &b);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0x3);
	r = req_one(2, 0, 1);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &b), 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &b), 0);
	expect_nospc(test, s, topo, &r);
}

/* A failure on a later HN-F undoes the claims made on the earlier ones */
static void cmn_hnf_test_alloc_rollback(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 1 };
	struct cmn_hnf_topology *topo = make_topo(test, 2, map, 3);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant g;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		r = req_one(3, 0, 1);
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
		r = req_one(0x0f, 2, 2);
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	}
	KUNIT_EXPECT_EQ(test, s->dtm_used[1], 0xf);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0);

	/* HN-F 0 (XP 0) would succeed; HN-F 1 (XP 1) fails */
	r = req_all(0x0f, 2);
	expect_nospc(test, s, topo, &r);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 0);
	KUNIT_EXPECT_EQ(test, s->occup_refs[2], 2);
	KUNIT_EXPECT_EQ(test, s->global_used, 0xf);
}

/* Slots and DTM counters are independent; full slots refuse the event */
static void cmn_hnf_test_alloc_slots(struct kunit *test)
{
	static const u8 map[] = { 0, 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 2);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant g;

	/* HN-F 0 holds DTM counter 0 and slot 0: HN-F 1 gets counter 1, slot 0 */
	r = req_one(1, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	r = req_one(1, 0, 1);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[1], 1);
	KUNIT_EXPECT_EQ(test, g.slot[1], 0);

	/* Slots taken by someone else (e.g. a stale claim): no slot, no event */
	s->slot_used[1] = 0xf;
	expect_nospc(test, s, topo, &r);
	r = req_all(1, 0);
	expect_nospc(test, s, topo, &r);
	/* ...while HN-F 0 alone still fits */
	r = req_one(1, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 2);
	KUNIT_EXPECT_EQ(test, g.slot[0], 1);
}

/* One occupancy filter per HN-F: equal values share, others wait */
static void cmn_hnf_test_alloc_occupancy(struct kunit *test)
{
	static const u8 map[] = { 0, 1 };
	struct cmn_hnf_topology *topo = make_topo(test, 2, map, 2);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request rd = req_one(0x0f, CMN_HNF_OCCUP_READ, 0);
	struct cmn_hnf_request wr = req_one(0x0f, CMN_HNF_OCCUP_WRITE, 0);
	struct cmn_hnf_request all = req_one(0x0f, CMN_HNF_OCCUP_ALL, 0);
	struct cmn_hnf_request plain = req_one(0x01, 0, 0);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant g1, g2, g3, g4;

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &rd, &g1), 0);
	KUNIT_EXPECT_EQ(test, s->occup_val[0], CMN_HNF_OCCUP_READ);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 1);
	expect_nospc(test, s, topo, &wr);
	expect_nospc(test, s, topo, &all);

	/* Same filter shares */
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &rd, &g2), 0);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 2);
	/* Other events do not touch the filter */
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &plain, &g3), 0);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 2);
	cmn_hnf_free(s, topo, &plain, &g3);

	/* The other HN-F has its own filter */
	r = req_one(0x0f, CMN_HNF_OCCUP_WRITE, 1);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g4), 0);
	KUNIT_EXPECT_EQ(test, s->occup_val[1], CMN_HNF_OCCUP_WRITE);
	/* An aggregated read now conflicts on HN-F 1 and is undone on HN-F 0 */
	r = req_all(0x0f, CMN_HNF_OCCUP_READ);
	expect_nospc(test, s, topo, &r);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 2);

	/* Freeing releases only when the last user goes */
	cmn_hnf_free(s, topo, &rd, &g1);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 1);
	expect_nospc(test, s, topo, &wr);
	cmn_hnf_free(s, topo, &rd, &g2);
	KUNIT_EXPECT_EQ(test, s->occup_refs[0], 0);
	KUNIT_EXPECT_EQ(test, s->occup_val[0], 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &wr, &g1), 0);
	KUNIT_EXPECT_EQ(test, s->occup_val[0], CMN_HNF_OCCUP_WRITE);
}

/* Eight global counters: the ninth event fails, freed indices come back */
static void cmn_hnf_test_alloc_dtc_limit(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 2 };
	struct cmn_hnf_topology *topo = make_topo(test, 3, map, 3);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r[8];
	struct cmn_hnf_grant *g, extra;
	struct cmn_hnf_request ninth = req_one(1, 0, 2);
	unsigned int i;

	g = kunit_kcalloc(test, 8, sizeof(*g), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, g);
	topo->num_dtcs = 2;
	for (i = 0; i < 8; i++) {
		r[i] = req_one(1 + i, 0, i % 3);
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r[i], &g[i]), 0);
		/* Lowest free index, in order */
		KUNIT_EXPECT_EQ(test, g[i].global, i);
	}
	KUNIT_EXPECT_EQ(test, s->global_used, 0xff);
	/* XP 2 has two free DTM counters left, but no global counter is free */
	KUNIT_EXPECT_EQ(test, s->dtm_used[2], 0x3);
	expect_nospc(test, s, topo, &ninth);

	cmn_hnf_free(s, topo, &r[3], &g[3]);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &ninth, &extra), 0);
	KUNIT_EXPECT_EQ(test, extra.global, 3);
}

/* One cycle counter per PMU; it takes no global or DTM counter */
static void cmn_hnf_test_alloc_cycles(struct kunit *test)
{
	static const u8 map[] = { 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 1);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request cyc = { .sel = { .cycles = true }, .hnf = -1 };
	struct cmn_hnf_grant g;

	s->global_used = 0xff;
	s->dtm_used[0] = 0xf;
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &cyc, &g), 0);
	KUNIT_EXPECT_TRUE(test, s->cycles_used);
	KUNIT_EXPECT_EQ(test, s->global_used, 0xff);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0xf);
	expect_nospc(test, s, topo, &cyc);
	cmn_hnf_free(s, topo, &cyc, &g);
	KUNIT_EXPECT_FALSE(test, s->cycles_used);
	KUNIT_EXPECT_EQ(test, s->global_used, 0xff);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &cyc, &g), 0);
}

/* alloc then free is the identity, in any nesting */
static void cmn_hnf_test_alloc_free_restores(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 2 };
	struct cmn_hnf_topology *topo = make_topo(test, 3, map, 3);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_alloc_state *zero = make_state(test);
	struct cmn_hnf_alloc_state *snap = make_state(test);
	struct cmn_hnf_request a = req_all(1, 0), b = req_all(0x0f, 3);
	struct cmn_hnf_request c = req_one(0x0f, 3, 1);
	struct cmn_hnf_grant ga, gb, gc;

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &a, &ga), 0);
	*snap = *s;
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &b, &gb), 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &c, &gc), 0);
	KUNIT_EXPECT_EQ(test, s->occup_refs[1], 2);
	cmn_hnf_free(s, topo, &b, &gb);
	cmn_hnf_free(s, topo, &c, &gc);
	KUNIT_EXPECT_EQ(test, memcmp(snap, s, sizeof(*s)), 0);
	cmn_hnf_free(s, topo, &a, &ga);
	KUNIT_EXPECT_EQ(test, memcmp(zero, s, sizeof(*s)), 0);
}

/*
 * Random add/del sequences against an independent model: success exactly
 * when the resources exist, no resource ever given twice, and the state is
 * always what the live events imply.
 */
#define STRESS_LIVE	24

struct stress_event {
	struct cmn_hnf_request req;
	struct cmn_hnf_grant grant;
};

static void stress_range(const struct cmn_hnf_topology *topo,
			 const struct cmn_hnf_request *r, unsigned int *first,
			 unsigned int *end)
{
	*first = r->hnf < 0 ? 0 : r->hnf;
	*end = r->hnf < 0 ? topo->num_hnfs : r->hnf + 1;
}

/* Rebuild the state the live events imply, checking for double grants */
static void stress_expected(struct kunit *test, const struct cmn_hnf_topology *topo,
			    const struct stress_event *live, unsigned int nlive,
			    struct cmn_hnf_alloc_state *exp)
{
	unsigned int i, h, first, end;

	memset(exp, 0, sizeof(*exp));
	for (i = 0; i < nlive; i++) {
		const struct stress_event *e = &live[i];

		if (e->req.sel.cycles) {
			KUNIT_ASSERT_FALSE(test, exp->cycles_used);
			exp->cycles_used = true;
			continue;
		}
		KUNIT_ASSERT_LT(test, e->grant.global, 8);
		KUNIT_ASSERT_FALSE(test, exp->global_used & BIT(e->grant.global));
		exp->global_used |= BIT(e->grant.global);
		stress_range(topo, &e->req, &first, &end);
		for (h = first; h < end; h++) {
			u8 xp = topo->hnf[h].xp;

			KUNIT_ASSERT_LT(test, e->grant.dtm_ctr[h], 4);
			KUNIT_ASSERT_LT(test, e->grant.slot[h], 4);
			KUNIT_ASSERT_FALSE(test, exp->dtm_used[xp] & BIT(e->grant.dtm_ctr[h]));
			KUNIT_ASSERT_FALSE(test, exp->slot_used[h] & BIT(e->grant.slot[h]));
			exp->dtm_used[xp] |= BIT(e->grant.dtm_ctr[h]);
			exp->slot_used[h] |= BIT(e->grant.slot[h]);
			if (e->req.sel.eventid == 0x0f) {
				if (exp->occup_refs[h])
					KUNIT_ASSERT_EQ(test, exp->occup_val[h],
							e->req.sel.occupid);
				exp->occup_val[h] = e->req.sel.occupid;
				exp->occup_refs[h]++;
			}
		}
	}
}

/* Would the request fit, judged from the live events alone? */
static bool stress_fits(const struct cmn_hnf_topology *topo,
			const struct cmn_hnf_alloc_state *exp,
			const struct cmn_hnf_request *r)
{
	unsigned int need[CMN_HNF_MAX_XPS] = {};
	unsigned int h, first, end;

	if (r->sel.cycles)
		return !exp->cycles_used;
	if (hweight8(exp->global_used) == 8)
		return false;
	stress_range(topo, r, &first, &end);
	for (h = first; h < end; h++) {
		need[topo->hnf[h].xp]++;
		if (hweight8(exp->slot_used[h]) == 4)
			return false;
		if (r->sel.eventid == 0x0f && exp->occup_refs[h] &&
		    exp->occup_val[h] != r->sel.occupid)
			return false;
	}
	for (h = 0; h < topo->num_xps; h++)
		if (need[h] > 4U - hweight8(exp->dtm_used[h]))
			return false;
	return true;
}

static void cmn_hnf_test_alloc_random(struct kunit *test)
{
	/* 4 XPs: two with two HN-Fs, one with one, one with none */
	static const u8 map[] = { 0, 0, 1, 2, 2 };
	struct cmn_hnf_topology *topo = make_topo(test, 4, map, 5);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_alloc_state *exp = make_state(test);
	struct stress_event *live;
	struct stress_event e;
	unsigned int nlive = 0, i, k, ok = 0, full = 0;
	u32 seed = 42;
	int ret;

	live = kunit_kcalloc(test, STRESS_LIVE, sizeof(*live), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, live);

	for (i = 0; i < 5000; i++) {
		seed = seed * 1664525 + 1013904223;
		if (nlive && (nlive == STRESS_LIVE || (seed >> 28) < 6)) {
			k = (seed >> 8) % nlive;
			cmn_hnf_free(s, topo, &live[k].req, &live[k].grant);
			live[k] = live[--nlive];
		} else {
			memset(&e, 0, sizeof(e));
			k = (seed >> 8) % 16;
			if (k == 0) {
				e.req.sel.cycles = true;
				e.req.hnf = -1;
			} else {
				e.req.sel.eventid = k < 6 ? 0x0f : k;
				e.req.sel.occupid = k < 6 ? (seed >> 16) % 3 : 0;
				e.req.hnf = (seed >> 20) % 3 ? (int)((seed >> 22) % 5) : -1;
				e.req.sel.bynodeid = e.req.hnf >= 0;
			}
			stress_expected(test, topo, live, nlive, exp);
			ret = cmn_hnf_alloc(s, topo, &e.req, &e.grant);
			KUNIT_ASSERT_EQ_MSG(test, ret,
					    stress_fits(topo, exp, &e.req) ? 0 : -ENOSPC,
					    "step %u", i);
			if (!ret) {
				live[nlive++] = e;
				ok++;
			} else {
				full++;
			}
		}
		stress_expected(test, topo, live, nlive, exp);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(exp, s, sizeof(*s)), 0, "step %u", i);
	}
	/* The sequence must have exercised both outcomes */
	KUNIT_EXPECT_GT(test, ok, 100U);
	KUNIT_EXPECT_GT(test, full, 100U);

	while (nlive) {
		nlive--;
		cmn_hnf_free(s, topo, &live[nlive].req, &live[nlive].grant);
	}
	memset(exp, 0, sizeof(*exp));
	KUNIT_EXPECT_EQ(test, memcmp(exp, s, sizeof(*s)), 0);
}

/* A request naming an HN-F the topology does not have is refused */
static void cmn_hnf_test_alloc_bad_index(struct kunit *test)
{
	static const u8 map[] = { 0, 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 2);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_alloc_state *zero = make_state(test);
	struct cmn_hnf_request r = req_one(1, 0, 2);
	struct cmn_hnf_grant g;

	KUNIT_EXPECT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), -EINVAL);
	r.hnf = CMN_HNF_MAX_HNFS + 5;
	KUNIT_EXPECT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), -EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(zero, s, sizeof(*s)), 0);
}

static void cmn_hnf_test_alloc_find_hnf(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 2 };
	struct cmn_hnf_topology *topo = make_topo(test, 3, map, 3);

	topo->hnf[0].node_id = 0x0c;
	topo->hnf[1].node_id = 0x2c;
	topo->hnf[2].node_id = 0x48;
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, 0x0c), 0);
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, 0x2c), 1);
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, 0x48), 2);
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, 0x08), -1);
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, 0), -1);
	topo->num_hnfs = 2;
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, 0x48), -1);
}

/* ---- DTM-local counters ------------------------------------------------ */

static struct cmn_hnf_request req_local(u8 eventid, u8 occupid, int hnf)
{
	struct cmn_hnf_request r = req_one(eventid, occupid, hnf);

	r.widths = cmn_hnf_local_widths(&r.sel, CMN_HNF_POLL_MS);
	return r;
}

/*
 * Widths from the worst cases stated in logic.h, worked out here: a 32-bit
 * counter needs rate * 4000 MHz * poll < 2^31, so at most 134 ms for 4
 * events per cycle and 4 ms for 127 occupancy entries per cycle.
 */
static void cmn_hnf_test_alloc_widths(struct kunit *test)
{
	struct cmn_hnf_evsel plain = { .eventid = 0x01, .bynodeid = true };
	struct cmn_hnf_evsel occ = { .eventid = 0x0f, .occupid = 2, .bynodeid = true };
	struct cmn_hnf_evsel all = { .eventid = 0x01 };
	struct cmn_hnf_evsel cyc = { .cycles = true };
	const u8 both = CMN_HNF_WIDTH_32 | CMN_HNF_WIDTH_64;

	KUNIT_EXPECT_EQ(test, cmn_hnf_worst_case(&plain, 100), 4ULL * 4000000 * 100);
	KUNIT_EXPECT_EQ(test, cmn_hnf_worst_case(&occ, 1), 127ULL * 4000000);

	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&plain, CMN_HNF_POLL_MS), both);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&occ, CMN_HNF_POLL_MS),
			CMN_HNF_WIDTH_64);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&plain, 134), both);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&plain, 135), CMN_HNF_WIDTH_64);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&occ, 4), both);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&occ, 5), CMN_HNF_WIDTH_64);
	/* a poll period of hours still fits 64 bits */
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&occ, 3600 * 1000), CMN_HNF_WIDTH_64);
	/* events of every HN-F and the cycle counter are never DTM-local */
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&all, CMN_HNF_POLL_MS), 0);
	KUNIT_EXPECT_EQ(test, cmn_hnf_local_widths(&cyc, CMN_HNF_POLL_MS), 0);
}

/*
 * One HN-F, four events: 64 bits, then two 32-bit pairs, then each pair in
 * turn moves to a 16-bit counter and a global one; the fifth finds no slot.
 */
static void cmn_hnf_test_alloc_local_ladder(struct kunit *test)
{
	static const u8 map[] = { 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 1);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant g;

	r = req_local(1, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_LOCAL64);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 0);
	KUNIT_EXPECT_EQ(test, g.narrowed, 0ULL);
	KUNIT_EXPECT_EQ(test, g.moved.xp, -1);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0xf);
	KUNIT_EXPECT_EQ(test, s->global_used, 0);

	r = req_local(2, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_LOCAL32);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 2);
	KUNIT_EXPECT_EQ(test, g.slot[0], 1);
	KUNIT_EXPECT_EQ(test, g.narrowed, BIT_ULL(0));
	KUNIT_EXPECT_EQ(test, g.moved.xp, -1);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0xf);
	KUNIT_EXPECT_EQ(test, s->global_used, 0);

	r = req_local(3, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_GLOBAL);
	KUNIT_EXPECT_EQ(test, g.moved.xp, 0);
	KUNIT_EXPECT_EQ(test, g.moved.pair, 0);
	KUNIT_EXPECT_EQ(test, g.moved.global, 0);
	/* the moved event keeps counter 0, the new one gets counter 1 */
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 1);
	KUNIT_EXPECT_EQ(test, g.global, 1);
	KUNIT_EXPECT_EQ(test, s->global_used, 0x3);

	r = req_local(4, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_GLOBAL);
	KUNIT_EXPECT_EQ(test, g.moved.xp, 0);
	KUNIT_EXPECT_EQ(test, g.moved.pair, 1);
	KUNIT_EXPECT_EQ(test, g.moved.global, 2);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 3);
	KUNIT_EXPECT_EQ(test, g.global, 3);
	KUNIT_EXPECT_EQ(test, s->global_used, 0xf);
	KUNIT_EXPECT_EQ(test, s->dtm_local[0], 0);
	KUNIT_EXPECT_EQ(test, s->slot_used[0], 0xf);

	/* as many events per HN-F as before: four */
	r = req_local(5, 0, 0);
	expect_nospc(test, s, topo, &r);
}

/* Occupancy needs 64 bits: it moves to a global counter, it never narrows */
static void cmn_hnf_test_alloc_local_occupancy(struct kunit *test)
{
	static const u8 map[] = { 0, 1 };
	struct cmn_hnf_topology *topo = make_topo(test, 2, map, 2);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request occ = req_local(0x0f, 1, 0), r;
	struct cmn_hnf_grant g;

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &occ, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_LOCAL64);
	KUNIT_EXPECT_EQ(test, s->dtm_local[0],
			CMN_HNF_LOCAL_ALL | CMN_HNF_LOCAL_ALL_FIXED);

	/* an aggregated event cannot narrow it: no counter on XP 0 */
	r = req_all(1, 0);
	expect_nospc(test, s, topo, &r);

	/* a bynodeid one moves it to counter 0 and a global counter */
	r = req_local(1, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.moved.xp, 0);
	KUNIT_EXPECT_EQ(test, g.moved.pair, 0);
	KUNIT_EXPECT_EQ(test, g.moved.global, 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_LOCAL32);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 2);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0xd);
	KUNIT_EXPECT_EQ(test, s->global_used, 0x1);

	/* with no global counter free, nothing moves */
	s->global_used = 0xff;
	r = req_local(2, 0, 0);
	expect_nospc(test, s, topo, &r);
	/* a second occupancy event on the other HN-F: its own 64 bits */
	r = req_local(0x0f, 2, 1);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_LOCAL64);
}

/* An aggregated event narrows 64-bit locals to take a counter on their XP */
static void cmn_hnf_test_alloc_local_aggregated(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 2 };
	struct cmn_hnf_topology *topo = make_topo(test, 3, map, 3);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant g;

	r = req_local(1, 0, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	r = req_local(2, 0, 2);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	r = req_all(3, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.narrowed, BIT_ULL(0) | BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, g.moved.xp, -1);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[0], 2);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[1], 0);
	KUNIT_EXPECT_EQ(test, g.dtm_ctr[2], 2);
	KUNIT_EXPECT_EQ(test, s->dtm_used[0], 0x7);
	KUNIT_EXPECT_EQ(test, s->dtm_local[0], CMN_HNF_LOCAL_PAIR(0));
	KUNIT_EXPECT_EQ(test, s->global_used, 0x1);
}

/*
 * The per-HN-F view: two events on every HN-F of a mesh with one HN-F per
 * XP fit without a single global counter, whatever the number of HN-Fs;
 * the DTMs are then full (the documented limit).
 */
static void cmn_hnf_test_alloc_local_per_hnf(struct kunit *test)
{
	static u8 map[32];
	struct cmn_hnf_topology *topo;
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_request r;
	struct cmn_hnf_grant g;
	unsigned int h, e;

	for (h = 0; h < ARRAY_SIZE(map); h++)
		map[h] = 2 * h;
	topo = make_topo(test, 64, map, ARRAY_SIZE(map));
	for (e = 0; e < 2; e++) {
		for (h = 0; h < ARRAY_SIZE(map); h++) {
			r = req_local(1 + e, 0, h);
			KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_alloc(s, topo, &r, &g), 0,
					    "event %u HN-F %u", e, h);
			KUNIT_ASSERT_NE(test, g.place, CMN_HNF_PLACE_GLOBAL);
		}
	}
	KUNIT_EXPECT_EQ(test, s->global_used, 0);
	for (h = 0; h < ARRAY_SIZE(map); h++)
		KUNIT_EXPECT_EQ(test, s->dtm_used[2 * h], 0xf);
	/* a third event on an HN-F now costs two global counters */
	r = req_local(3, 0, 5);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(s, topo, &r, &g), 0);
	KUNIT_EXPECT_EQ(test, g.place, CMN_HNF_PLACE_GLOBAL);
	KUNIT_EXPECT_EQ(test, hweight8(s->global_used), 2);
	/* an event of every HN-F finds no counter on the full XPs */
	r = req_all(4, 0);
	expect_nospc(test, s, topo, &r);
}

/*
 * Random add/del sequences with local placements. The test applies the
 * grants' narrowed/moved reports to its own copy of the live events, as the
 * driver does, and the allocator's state must always be exactly what those
 * events imply, with nothing granted twice.
 */
static struct stress_event *stress_find_local(struct stress_event *live,
					      unsigned int nlive,
					      const struct cmn_hnf_topology *topo,
					      unsigned int xp, u8 ctr)
{
	unsigned int i;

	for (i = 0; i < nlive; i++) {
		struct stress_event *e = &live[i];

		if ((e->grant.place == CMN_HNF_PLACE_LOCAL32 ||
		     e->grant.place == CMN_HNF_PLACE_LOCAL64) &&
		    topo->hnf[e->req.hnf].xp == xp &&
		    e->grant.dtm_ctr[e->req.hnf] == ctr)
			return e;
	}
	return NULL;
}

static void stress_apply(struct kunit *test, const struct cmn_hnf_topology *topo,
			 struct stress_event *live, unsigned int nlive,
			 const struct cmn_hnf_grant *g)
{
	struct stress_event *e;
	unsigned int xp;

	for (xp = 0; xp < topo->num_xps; xp++) {
		if (!(g->narrowed & BIT_ULL(xp)))
			continue;
		e = stress_find_local(live, nlive, topo, xp, 0);
		KUNIT_ASSERT_NOT_NULL(test, e);
		KUNIT_ASSERT_EQ(test, e->grant.place, CMN_HNF_PLACE_LOCAL64);
		KUNIT_ASSERT_TRUE(test, e->req.widths & CMN_HNF_WIDTH_32);
		e->grant.place = CMN_HNF_PLACE_LOCAL32;
	}
	if (g->moved.xp < 0)
		return;
	e = stress_find_local(live, nlive, topo, g->moved.xp, 2 * g->moved.pair);
	KUNIT_ASSERT_NOT_NULL(test, e);
	e->grant.place = CMN_HNF_PLACE_GLOBAL;
	e->grant.global = g->moved.global;
}

static void stress_expected_local(struct kunit *test,
				  const struct cmn_hnf_topology *topo,
				  const struct stress_event *live, unsigned int nlive,
				  struct cmn_hnf_alloc_state *exp)
{
	unsigned int i, h, first, end;
	u8 mask, bits;

	memset(exp, 0, sizeof(*exp));
	for (i = 0; i < nlive; i++) {
		const struct stress_event *e = &live[i];

		if (e->req.sel.cycles) {
			KUNIT_ASSERT_FALSE(test, exp->cycles_used);
			exp->cycles_used = true;
			continue;
		}
		if (e->grant.place == CMN_HNF_PLACE_GLOBAL) {
			KUNIT_ASSERT_LT(test, e->grant.global, 8);
			KUNIT_ASSERT_FALSE(test, exp->global_used & BIT(e->grant.global));
			exp->global_used |= BIT(e->grant.global);
		}
		stress_range(topo, &e->req, &first, &end);
		for (h = first; h < end; h++) {
			u8 xp = topo->hnf[h].xp, ctr = e->grant.dtm_ctr[h];

			switch (e->grant.place) {
			case CMN_HNF_PLACE_LOCAL64:
				KUNIT_ASSERT_EQ(test, ctr, 0);
				mask = 0xf;
				bits = CMN_HNF_LOCAL_ALL;
				if (!(e->req.widths & CMN_HNF_WIDTH_32))
					bits |= CMN_HNF_LOCAL_ALL_FIXED;
				break;
			case CMN_HNF_PLACE_LOCAL32:
				KUNIT_ASSERT_TRUE(test, ctr == 0 || ctr == 2);
				KUNIT_ASSERT_TRUE(test, e->req.widths & CMN_HNF_WIDTH_32);
				mask = 0x3 << ctr;
				bits = CMN_HNF_LOCAL_PAIR(ctr / 2);
				break;
			default:
				KUNIT_ASSERT_EQ(test, e->grant.place, CMN_HNF_PLACE_GLOBAL);
				KUNIT_ASSERT_LT(test, ctr, 4);
				mask = BIT(ctr);
				bits = 0;
				break;
			}
			KUNIT_ASSERT_FALSE(test, exp->dtm_used[xp] & mask);
			exp->dtm_used[xp] |= mask;
			exp->dtm_local[xp] |= bits;
			KUNIT_ASSERT_LT(test, e->grant.slot[h], 4);
			KUNIT_ASSERT_FALSE(test, exp->slot_used[h] & BIT(e->grant.slot[h]));
			exp->slot_used[h] |= BIT(e->grant.slot[h]);
			if (e->req.sel.eventid == 0x0f) {
				if (exp->occup_refs[h])
					KUNIT_ASSERT_EQ(test, exp->occup_val[h],
							e->req.sel.occupid);
				exp->occup_val[h] = e->req.sel.occupid;
				exp->occup_refs[h]++;
			}
		}
	}
}

static void cmn_hnf_test_alloc_local_random(struct kunit *test)
{
	static const u8 map[] = { 0, 0, 1, 2, 2 };
	struct cmn_hnf_topology *topo = make_topo(test, 4, map, 5);
	struct cmn_hnf_alloc_state *s = make_state(test);
	struct cmn_hnf_alloc_state *exp = make_state(test);
	struct cmn_hnf_alloc_state *before = make_state(test);
	unsigned int nlive = 0, i, k, ok = 0, full = 0, narrowed = 0, moved = 0;
	struct stress_event *live, e;
	u32 seed = 4242;
	int ret;

	live = kunit_kcalloc(test, STRESS_LIVE, sizeof(*live), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, live);

	for (i = 0; i < 5000; i++) {
		seed = seed * 1664525 + 1013904223;
		if (nlive && (nlive == STRESS_LIVE || (seed >> 28) < 6)) {
			k = (seed >> 8) % nlive;
			cmn_hnf_free(s, topo, &live[k].req, &live[k].grant);
			live[k] = live[--nlive];
		} else {
			memset(&e, 0, sizeof(e));
			k = (seed >> 8) % 16;
			if (k == 0) {
				e.req.sel.cycles = true;
				e.req.hnf = -1;
			} else if (k < 4) {
				e.req = req_all(k < 2 ? 0x0f : k, (seed >> 16) % 2);
			} else {
				e.req = req_local(k < 7 ? 0x0f : k, (seed >> 16) % 2,
						  (seed >> 22) % 5);
			}
			*before = *s;
			ret = cmn_hnf_alloc(s, topo, &e.req, &e.grant);
			if (!ret) {
				stress_apply(test, topo, live, nlive, &e.grant);
				narrowed += !!e.grant.narrowed;
				moved += e.grant.moved.xp >= 0;
				live[nlive++] = e;
				ok++;
			} else {
				KUNIT_ASSERT_EQ(test, ret, -ENOSPC);
				KUNIT_ASSERT_EQ(test, memcmp(before, s, sizeof(*s)), 0);
				full++;
			}
		}
		stress_expected_local(test, topo, live, nlive, exp);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(exp, s, sizeof(*s)), 0, "step %u", i);
	}
	KUNIT_EXPECT_GT(test, ok, 100U);
	KUNIT_EXPECT_GT(test, full, 100U);
	KUNIT_EXPECT_GT(test, narrowed, 10U);
	KUNIT_EXPECT_GT(test, moved, 10U);

	while (nlive) {
		nlive--;
		cmn_hnf_free(s, topo, &live[nlive].req, &live[nlive].grant);
	}
	memset(exp, 0, sizeof(*exp));
	KUNIT_EXPECT_EQ(test, memcmp(exp, s, sizeof(*s)), 0);
}

static struct kunit_case cmn_hnf_alloc_cases[] = {
	KUNIT_CASE(cmn_hnf_test_alloc_full_dtm),
	KUNIT_CASE(cmn_hnf_test_alloc_two_hnfs_one_xp),
	KUNIT_CASE(cmn_hnf_test_alloc_rollback),
	KUNIT_CASE(cmn_hnf_test_alloc_slots),
	KUNIT_CASE(cmn_hnf_test_alloc_occupancy),
	KUNIT_CASE(cmn_hnf_test_alloc_dtc_limit),
	KUNIT_CASE(cmn_hnf_test_alloc_cycles),
	KUNIT_CASE(cmn_hnf_test_alloc_free_restores),
	KUNIT_CASE(cmn_hnf_test_alloc_random),
	KUNIT_CASE(cmn_hnf_test_alloc_bad_index),
	KUNIT_CASE(cmn_hnf_test_alloc_find_hnf),
	KUNIT_CASE(cmn_hnf_test_alloc_widths),
	KUNIT_CASE(cmn_hnf_test_alloc_local_ladder),
	KUNIT_CASE(cmn_hnf_test_alloc_local_occupancy),
	KUNIT_CASE(cmn_hnf_test_alloc_local_aggregated),
	KUNIT_CASE(cmn_hnf_test_alloc_local_per_hnf),
	KUNIT_CASE(cmn_hnf_test_alloc_local_random),
	{}
};

struct kunit_suite cmn_hnf_alloc_suite = {
	.name = "arm_cmn_hnf_alloc",
	.test_cases = cmn_hnf_alloc_cases,
};
