// SPDX-License-Identifier: GPL-2.0
/*
 * Counter allocation, against the hardware's limits (reference 2.8): each
 * XP's DTM has 4 counters, shared by every HN-F on the XP and taken one per
 * HN-F by an event of all HN-Fs; each HN-F has 4 event slots and one
 * occupancy filter; each DTC has 8 global counters (the driver claims the
 * same index on every DTC) and one cycle counter. The placement rule is
 * logic.h's: an event of all HN-Fs takes a global counter and a DTM counter
 * and slot per HN-F; a bynodeid event takes a global counter while one is
 * free, else the four DTM counters of its XP as one 64-bit counter if all
 * four are free. Expectations come from these rules and from the model's
 * mesh descriptions, never from the allocator's own state.
 */
#include <linux/bitops.h>
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

#define OCC		CMN_HNF_EVENT_OCCUPANCY

static const char * const shipped[] = { CMN_HNF_KUNIT_SHIPPED };

/* A topology with HN-F i on XP hnf_xp[i]; no discovery involved */
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
		topo->hnf[i].node_id = 0x100 + i;
	}
	return topo;
}

static struct cmn_hnf_alloc *new_state(struct kunit *test)
{
	struct cmn_hnf_alloc *a = kunit_kzalloc(test, sizeof(*a), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, a);
	return a;
}

static struct cmn_hnf_place *new_places(struct kunit *test, unsigned int n)
{
	struct cmn_hnf_place *p = kunit_kcalloc(test, n, sizeof(*p), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, p);
	return p;
}

static struct cmn_hnf_evsel ev_all(u8 eventid, u8 occupid)
{
	return (struct cmn_hnf_evsel) { .eventid = eventid, .occupid = occupid };
}

static struct cmn_hnf_evsel ev_node(u8 eventid, u8 occupid, u16 nodeid)
{
	return (struct cmn_hnf_evsel) {
		.eventid = eventid, .occupid = occupid, .bynodeid = true, .nodeid = nodeid,
	};
}

static const struct cmn_hnf_evsel ev_cycles = { .cycles = true };

/* The allocation must fail with -ENOSPC and leave the state as it was */
static void expect_nospc(struct kunit *test, struct cmn_hnf_alloc *a,
			 const struct cmn_hnf_topology *topo,
			 const struct cmn_hnf_evsel *sel, int hnf)
{
	struct cmn_hnf_alloc *before = new_state(test);
	struct cmn_hnf_place *p = new_places(test, 1);

	*before = *a;
	KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_alloc(a, topo, sel, hnf, p), -ENOSPC,
			    "event 0x%x occupid %u on HN-F %d", sel->eventid, sel->occupid, hnf);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(before, a, sizeof(*a)), 0,
			    "state changed by a failed allocation");
}

/* The number of HN-Fs on each XP, from a mesh description */
static void hnfs_per_xp(const struct cmn600_model_mesh *m,
			unsigned int count[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM])
{
	unsigned int i;

	memset(count, 0, sizeof(unsigned int) * CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM);
	for (i = 0; i < m->nr_nodes; i++)
		if (m->nodes[i].type == CMN600_MODEL_TYPE_HNF)
			count[m->nodes[i].x][m->nodes[i].y]++;
}

/*
 * Events of all HN-Fs on every shipped mesh: each takes one DTM counter on
 * every XP per HN-F it has (two on an XP with two HN-Fs), one slot on every
 * HN-F and one global counter. They fit until the XP with the most HN-Fs
 * runs out of DTM counters (4 / its HN-Fs events) or the 8 global counters
 * run out, and the next one is refused with nothing claimed.
 */
static void aggregated_one(struct kunit *test, const char *name,
			   const struct cmn600_model_mesh *m)
{
	const struct cmn_hnf_topology *topo = cmn_hnf_kunit_topology(test, m);
	unsigned int per_xp[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	const struct cmn_hnf_evsel sel = ev_all(0x05, 0);
	struct cmn_hnf_place *p = new_places(test, 1);
	struct cmn_hnf_alloc *a = new_state(test);
	unsigned int e, h, most = 0, fit, x, y;
	u8 ctrs[CMN_HNF_MAX_XPS];

	hnfs_per_xp(m, per_xp);
	for (x = 0; x < CMN600_MODEL_MAX_DIM; x++)
		for (y = 0; y < CMN600_MODEL_MAX_DIM; y++)
			most = max(most, per_xp[x][y]);
	KUNIT_ASSERT_GT(test, most, 0U);
	fit = min(4 / most, 8U);
	for (e = 0; e < fit; e++) {
		KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_alloc(a, topo, &sel, -1, p), 0,
				    "%s: event %u", name, e);
		KUNIT_EXPECT_EQ(test, p->kind, (u8)CMN_HNF_GLOBAL);
		KUNIT_EXPECT_EQ(test, p->first, 0);
		KUNIT_EXPECT_EQ(test, (unsigned int)p->count, topo->num_hnfs);
		KUNIT_EXPECT_LT(test, p->global, CMN_HNF_DTC_COUNTERS);
		KUNIT_EXPECT_EQ(test, hweight8(a->global_used), e + 1);
		/* a slot on each HN-F; the HN-Fs of one XP get different counters */
		memset(ctrs, 0, sizeof(ctrs));
		for (h = 0; h < topo->num_hnfs; h++) {
			KUNIT_EXPECT_LT(test, p->ctr[h], 4);
			KUNIT_EXPECT_LT(test, p->slot[h], 4);
			KUNIT_EXPECT_EQ(test, hweight8(a->slot_used[h]), e + 1);
			KUNIT_EXPECT_FALSE(test, ctrs[topo->hnf[h].xp] & BIT(p->ctr[h]));
			ctrs[topo->hnf[h].xp] |= BIT(p->ctr[h]);
		}
	}
	/* every XP: (events) x (its HN-Fs) DTM counters in use */
	for (x = 0; x < topo->num_xps; x++)
		KUNIT_EXPECT_EQ_MSG(test, hweight8(a->dtm_used[x]),
				    fit * per_xp[topo->xp[x].x][topo->xp[x].y],
				    "%s: XP (%u,%u)", name, topo->xp[x].x, topo->xp[x].y);
	expect_nospc(test, a, topo, &sel, -1);
}

static void cmn_hnf_test_alloc_aggregated(struct kunit *test)
{
	struct cmn600_model_file *file;
	unsigned int f, i;

	for (f = 0; f < ARRAY_SIZE(shipped); f++) {
		file = cmn_hnf_kunit_shipped(test, shipped[f]);
		for (i = 0; i < file->nr_meshes; i++)
			aggregated_one(test, shipped[f], file->meshes[i]);
		cmn_hnf_kunit_file_release(test, file);
	}
}

/*
 * Two HN-Fs on one XP: an event of all HN-Fs takes two of its counters,
 * a slot on each HN-F; the third such event finds the DTM full while both
 * HN-Fs still have slots, and the same goes for a bynodeid event.
 */
static void cmn_hnf_test_alloc_two_hnfs_one_xp(struct kunit *test)
{
	static const u8 map[] = { 0, 0, 1 };
	struct cmn_hnf_topology *topo = make_topo(test, 2, map, 3);
	struct cmn_hnf_place *p = new_places(test, 3);
	struct cmn_hnf_alloc *a = new_state(test);
	struct cmn_hnf_evsel sel = ev_all(1, 0);

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, -1, &p[0]), 0);
	KUNIT_EXPECT_NE(test, p[0].ctr[0], p[0].ctr[1]);
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[0]), 2);
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[1]), 1);
	KUNIT_EXPECT_EQ(test, a->slot_used[0], BIT(p[0].slot[0]));
	KUNIT_EXPECT_EQ(test, a->slot_used[1], BIT(p[0].slot[1]));
	KUNIT_EXPECT_EQ(test, a->slot_used[2], BIT(p[0].slot[2]));

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, -1, &p[1]), 0);
	KUNIT_EXPECT_EQ(test, a->dtm_used[0], 0xf);
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[1]), 2);
	KUNIT_EXPECT_EQ(test, hweight8(a->slot_used[0]), 2);
	KUNIT_EXPECT_EQ(test, hweight8(a->slot_used[1]), 2);
	KUNIT_EXPECT_EQ(test, hweight8(a->global_used), 2);

	expect_nospc(test, a, topo, &sel, -1);
	sel = ev_node(2, 0, topo->hnf[1].node_id);
	expect_nospc(test, a, topo, &sel, 1);
	/* HN-F 2 has an XP of its own with room */
	sel = ev_node(2, 0, topo->hnf[2].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 2, &p[2]), 0);
	KUNIT_EXPECT_EQ(test, p[2].kind, (u8)CMN_HNF_GLOBAL);

	/* freeing one event of all HN-Fs makes room for exactly two on HN-F 1 */
	sel = ev_all(1, 0);
	cmn_hnf_free(a, topo, &sel, &p[1]);
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[0]), 2);
	sel = ev_node(2, 0, topo->hnf[1].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 1, &p[1]), 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 1, &p[1]), 0);
	expect_nospc(test, a, topo, &sel, 1);
	sel = ev_node(2, 0, topo->hnf[0].node_id);
	expect_nospc(test, a, topo, &sel, 0);
}

/*
 * bynodeid: a global counter while one is free; with all eight taken,
 * the four DTM counters of its XP as one 64-bit counter if all four are
 * free (LOCAL: ctr 0, the whole DTM claimed), else -ENOSPC with nothing
 * changed. An event of all HN-Fs never goes LOCAL.
 */
static void cmn_hnf_test_alloc_bynodeid(struct kunit *test)
{
	/* HN-F i on XP i for i < 8; HN-Fs 8 and 9 share XP 8; HN-F 10 on XP 9 */
	static const u8 map[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 9 };
	struct cmn_hnf_topology *topo = make_topo(test, 10, map, ARRAY_SIZE(map));
	struct cmn_hnf_place *p = new_places(test, 12);
	struct cmn_hnf_alloc *a = new_state(test);
	struct cmn_hnf_evsel sel, first;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		sel = ev_node(1 + i, 0, topo->hnf[i].node_id);
		if (!i)
			first = sel;
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, i, &p[i]), 0);
		KUNIT_EXPECT_EQ(test, p[i].kind, (u8)CMN_HNF_GLOBAL);
		KUNIT_EXPECT_EQ(test, p[i].first, (u8)i);
		KUNIT_EXPECT_EQ(test, p[i].count, 1);
		KUNIT_EXPECT_EQ(test, a->dtm_used[i], BIT(p[i].ctr[i]));
	}
	KUNIT_EXPECT_EQ(test, a->global_used, 0xff);

	/* no global counter left: the 64-bit counter of an empty XP */
	sel = ev_node(OCC, 3, topo->hnf[8].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 8, &p[8]), 0);
	KUNIT_EXPECT_EQ(test, p[8].kind, (u8)CMN_HNF_LOCAL);
	KUNIT_EXPECT_EQ(test, p[8].first, 8);
	KUNIT_EXPECT_EQ(test, p[8].count, 1);
	KUNIT_EXPECT_EQ(test, p[8].ctr[8], 0);
	KUNIT_EXPECT_LT(test, p[8].slot[8], 4);
	KUNIT_EXPECT_EQ(test, a->dtm_used[8], 0xf);
	KUNIT_EXPECT_EQ(test, a->slot_used[8], BIT(p[8].slot[8]));
	KUNIT_EXPECT_EQ(test, a->global_used, 0xff);
	KUNIT_EXPECT_EQ(test, a->occup[8], 3);
	KUNIT_EXPECT_EQ(test, a->occup_refs[8], 1);

	/* that XP is full: its other HN-F and a second event get nothing */
	sel = ev_node(2, 0, topo->hnf[9].node_id);
	expect_nospc(test, a, topo, &sel, 9);
	sel = ev_node(OCC, 3, topo->hnf[8].node_id);
	expect_nospc(test, a, topo, &sel, 8);
	/* one DTM counter in use is enough to refuse the 64-bit counter */
	sel = ev_node(2, 0, topo->hnf[0].node_id);
	expect_nospc(test, a, topo, &sel, 0);
	/* an event of all HN-Fs needs a global counter */
	sel = ev_all(2, 0);
	expect_nospc(test, a, topo, &sel, -1);
	/* the cycle counter is separate */
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ev_cycles, -1, &p[11]), 0);
	KUNIT_EXPECT_EQ(test, p[11].kind, (u8)CMN_HNF_CYC);

	/* a global counter comes free: the next bynodeid event takes it */
	cmn_hnf_free(a, topo, &first, &p[0]);
	KUNIT_EXPECT_EQ(test, hweight8(a->global_used), 7);
	KUNIT_EXPECT_EQ(test, a->dtm_used[0], 0);
	sel = ev_node(4, 0, topo->hnf[10].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 10, &p[10]), 0);
	KUNIT_EXPECT_EQ(test, p[10].kind, (u8)CMN_HNF_GLOBAL);
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[9]), 1);
	KUNIT_EXPECT_EQ(test, a->global_used, 0xff);

	/* the LOCAL event goes: its XP is empty again, the filter free */
	sel = ev_node(OCC, 3, topo->hnf[8].node_id);
	cmn_hnf_free(a, topo, &sel, &p[8]);
	KUNIT_EXPECT_EQ(test, a->dtm_used[8], 0);
	KUNIT_EXPECT_EQ(test, a->slot_used[8], 0);
	KUNIT_EXPECT_EQ(test, a->occup_refs[8], 0);
	sel = ev_node(OCC, 1, topo->hnf[9].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 9, &p[9]), 0);
	KUNIT_EXPECT_EQ(test, p[9].kind, (u8)CMN_HNF_LOCAL);
	KUNIT_EXPECT_EQ(test, a->dtm_used[8], 0xf);
}

/*
 * One occupancy filter per HN-F (pmu_occup1_id): events 0x0f with the
 * same filter share it, another filter waits until the last user is gone;
 * other events do not touch it, and each HN-F has its own.
 */
static void cmn_hnf_test_alloc_occupancy(struct kunit *test)
{
	static const u8 map[] = { 0, 1 };
	struct cmn_hnf_topology *topo = make_topo(test, 2, map, 2);
	struct cmn_hnf_place *p = new_places(test, 6);
	struct cmn_hnf_alloc *a = new_state(test);
	u16 n0 = topo->hnf[0].node_id, n1 = topo->hnf[1].node_id;
	struct cmn_hnf_evsel rd = ev_node(OCC, 1, n0), wr = ev_node(OCC, 2, n0);
	struct cmn_hnf_evsel all = ev_node(OCC, 0, n0), plain = ev_node(1, 0, n0);
	struct cmn_hnf_evsel sel;

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &rd, 0, &p[0]), 0);
	KUNIT_EXPECT_EQ(test, a->occup[0], 1);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 1);
	expect_nospc(test, a, topo, &wr, 0);
	expect_nospc(test, a, topo, &all, 0);

	/* the same filter shares */
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &rd, 0, &p[1]), 0);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 2);
	/* other events leave it alone */
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &plain, 0, &p[2]), 0);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 2);
	KUNIT_EXPECT_EQ(test, a->occup[0], 1);
	cmn_hnf_free(a, topo, &plain, &p[2]);

	/* the other HN-F has its own */
	sel = ev_node(OCC, 4, n1);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 1, &p[3]), 0);
	KUNIT_EXPECT_EQ(test, a->occup[1], 4);
	KUNIT_EXPECT_EQ(test, a->occup[0], 1);
	/* an event of all HN-Fs that agrees with HN-F 0 but not HN-F 1 */
	sel = ev_all(OCC, 1);
	expect_nospc(test, a, topo, &sel, -1);
	/* one that agrees with both cannot exist; one with no filter at all fits */
	sel = ev_all(2, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, -1, &p[4]), 0);
	cmn_hnf_free(a, topo, &sel, &p[4]);

	/* the filter is free only when its last user goes */
	cmn_hnf_free(a, topo, &rd, &p[0]);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 1);
	expect_nospc(test, a, topo, &wr, 0);
	cmn_hnf_free(a, topo, &rd, &p[1]);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &wr, 0, &p[0]), 0);
	KUNIT_EXPECT_EQ(test, a->occup[0], 2);
	/* with HN-F 1 freed as well, an event of all HN-Fs sets both */
	sel = ev_node(OCC, 4, n1);
	cmn_hnf_free(a, topo, &sel, &p[3]);
	sel = ev_all(OCC, 2);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, -1, &p[5]), 0);
	KUNIT_EXPECT_EQ(test, a->occup[0], 2);
	KUNIT_EXPECT_EQ(test, a->occup[1], 2);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 2);
	KUNIT_EXPECT_EQ(test, a->occup_refs[1], 1);
}

/*
 * Four event slots per HN-F, given out once each and independent of the
 * DTM counters: two HN-Fs on one XP each use a slot of their own for one
 * event, and full slots refuse an event while the DTM has counters.
 */
static void cmn_hnf_test_alloc_slots(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 1 };
	struct cmn_hnf_topology *topo = make_topo(test, 2, map, 3);
	struct cmn_hnf_place *p = new_places(test, 8);
	struct cmn_hnf_alloc *a = new_state(test);
	struct cmn_hnf_evsel sel;
	u8 slots = 0, ctrs = 0;
	unsigned int i;

	for (i = 0; i < 4; i++) {
		sel = ev_node(1 + i, 0, topo->hnf[0].node_id);
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 0, &p[i]), 0);
		KUNIT_EXPECT_FALSE(test, slots & BIT(p[i].slot[0]));
		KUNIT_EXPECT_FALSE(test, ctrs & BIT(p[i].ctr[0]));
		slots |= BIT(p[i].slot[0]);
		ctrs |= BIT(p[i].ctr[0]);
	}
	KUNIT_EXPECT_EQ(test, slots, 0xf);
	KUNIT_EXPECT_EQ(test, a->slot_used[0], 0xf);
	sel = ev_node(5, 0, topo->hnf[0].node_id);
	expect_nospc(test, a, topo, &sel, 0);

	/* HN-Fs 1 and 2 share XP 1: different counters, each its own slot */
	sel = ev_node(6, 0, topo->hnf[1].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 1, &p[4]), 0);
	sel = ev_node(6, 0, topo->hnf[2].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 2, &p[5]), 0);
	KUNIT_EXPECT_NE(test, p[4].ctr[1], p[5].ctr[2]);
	KUNIT_EXPECT_EQ(test, a->slot_used[1], BIT(p[4].slot[1]));
	KUNIT_EXPECT_EQ(test, a->slot_used[2], BIT(p[5].slot[2]));
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[1]), 2);

	/* HN-F 1's slots taken by someone else: no slot, no event, counters or not */
	a->slot_used[1] = 0xf;
	sel = ev_node(7, 0, topo->hnf[1].node_id);
	expect_nospc(test, a, topo, &sel, 1);
	sel = ev_all(7, 0);
	expect_nospc(test, a, topo, &sel, -1);
	/* HN-F 2 alone still fits */
	sel = ev_node(7, 0, topo->hnf[2].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 2, &p[6]), 0);
	KUNIT_EXPECT_NE(test, p[6].slot[2], p[5].slot[2]);
	KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[1]), 3);
}

/*
 * Eight global counters: with DTM counters to spare the ninth event of all
 * HN-Fs is refused, and so is a bynodeid one whose XP is in use (no 64-bit
 * counter there); a freed global counter is given out again.
 */
static void cmn_hnf_test_alloc_globals(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	struct cmn_hnf_topology *topo = make_topo(test, 8, map, 8);
	struct cmn_hnf_place *p = new_places(test, 9);
	struct cmn_hnf_alloc *a = new_state(test);
	struct cmn_hnf_evsel sel[8], ninth;
	u8 globals = 0;
	unsigned int i;
	int hnf;

	topo->num_dtcs = 2;
	for (i = 0; i < 8; i++) {
		hnf = i < 2 ? -1 : i - 2;
		sel[i] = hnf < 0 ? ev_all(1 + i, 0) : ev_node(1 + i, 0, topo->hnf[hnf].node_id);
		KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel[i], hnf, &p[i]), 0);
		KUNIT_EXPECT_EQ(test, p[i].kind, (u8)CMN_HNF_GLOBAL);
		KUNIT_EXPECT_LT(test, p[i].global, 8);
		KUNIT_EXPECT_FALSE(test, globals & BIT(p[i].global));
		globals |= BIT(p[i].global);
	}
	KUNIT_EXPECT_EQ(test, a->global_used, 0xff);
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_EQ(test, hweight8(a->dtm_used[i]), i < 6 ? 3 : 2);
	ninth = ev_all(9, 0);
	expect_nospc(test, a, topo, &ninth, -1);
	ninth = ev_node(9, 0, topo->hnf[6].node_id);
	expect_nospc(test, a, topo, &ninth, 6);

	cmn_hnf_free(a, topo, &sel[5], &p[5]);
	KUNIT_EXPECT_EQ(test, a->global_used, (u8)~BIT(p[5].global));
	ninth = ev_all(9, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ninth, -1, &p[8]), 0);
	KUNIT_EXPECT_EQ(test, p[8].global, p[5].global);
	KUNIT_EXPECT_EQ(test, a->global_used, 0xff);
}

/* One cycle counter; it takes no global or DTM counter and no slot */
static void cmn_hnf_test_alloc_cycles(struct kunit *test)
{
	static const u8 map[] = { 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 1);
	struct cmn_hnf_place *p = new_places(test, 1);
	struct cmn_hnf_alloc *a = new_state(test);
	struct cmn_hnf_alloc *before = new_state(test);

	a->global_used = 0xff;
	a->dtm_used[0] = 0xf;
	a->slot_used[0] = 0xf;
	*before = *a;
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ev_cycles, -1, p), 0);
	KUNIT_EXPECT_EQ(test, p->kind, (u8)CMN_HNF_CYC);
	KUNIT_EXPECT_TRUE(test, a->cycles_used);
	before->cycles_used = true;
	KUNIT_EXPECT_EQ(test, memcmp(before, a, sizeof(*a)), 0);
	expect_nospc(test, a, topo, &ev_cycles, -1);
	cmn_hnf_free(a, topo, &ev_cycles, p);
	KUNIT_EXPECT_FALSE(test, a->cycles_used);
	KUNIT_EXPECT_EQ(test, a->global_used, 0xff);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ev_cycles, -1, p), 0);
}

/* ---- random sequences against a recount ------------------------------- */

struct live {
	struct cmn_hnf_evsel sel;
	int hnf;
	struct cmn_hnf_place p;
};

#define MAX_LIVE	40

/*
 * The state the live placements imply, checking on the way that no DTM
 * counter, slot, global counter or the cycle counter is given twice, that
 * every placement is within the hardware (counter and slot numbers, a
 * LOCAL event alone on its XP) and that occupancy users agree.
 */
static void recount(struct kunit *test, const struct cmn_hnf_topology *topo,
		    const struct live *ev, unsigned int n, struct cmn_hnf_alloc *want)
{
	unsigned int i, h, xp;
	u8 bits;

	memset(want, 0, sizeof(*want));
	for (i = 0; i < n; i++) {
		const struct cmn_hnf_place *p = &ev[i].p;

		if (ev[i].sel.cycles) {
			KUNIT_ASSERT_EQ(test, p->kind, (u8)CMN_HNF_CYC);
			KUNIT_ASSERT_FALSE_MSG(test, want->cycles_used, "two cycle events");
			want->cycles_used = true;
			continue;
		}
		KUNIT_ASSERT_EQ(test, (unsigned int)p->first, ev[i].hnf < 0 ? 0U : ev[i].hnf);
		KUNIT_ASSERT_EQ(test, (unsigned int)p->count,
				ev[i].hnf < 0 ? topo->num_hnfs : 1U);
		if (p->kind == CMN_HNF_GLOBAL) {
			KUNIT_ASSERT_LT(test, p->global, CMN_HNF_DTC_COUNTERS);
			KUNIT_ASSERT_FALSE_MSG(test, want->global_used & BIT(p->global),
					       "global counter %u twice", p->global);
			want->global_used |= BIT(p->global);
		} else {
			KUNIT_ASSERT_EQ(test, p->kind, (u8)CMN_HNF_LOCAL);
			KUNIT_ASSERT_GE(test, ev[i].hnf, 0);
		}
		for (h = p->first; h < p->first + p->count; h++) {
			xp = topo->hnf[h].xp;
			KUNIT_ASSERT_LT(test, p->ctr[h], CMN_HNF_DTM_COUNTERS);
			KUNIT_ASSERT_LT(test, p->slot[h], CMN_HNF_HNF_SLOTS);
			bits = p->kind == CMN_HNF_LOCAL ? 0xf : BIT(p->ctr[h]);
			KUNIT_ASSERT_FALSE_MSG(test, want->dtm_used[xp] & bits,
					       "XP %u: DTM counter given twice", xp);
			want->dtm_used[xp] |= bits;
			KUNIT_ASSERT_FALSE_MSG(test, want->slot_used[h] & BIT(p->slot[h]),
					       "HN-F %u: slot %u twice", h, p->slot[h]);
			want->slot_used[h] |= BIT(p->slot[h]);
			if (ev[i].sel.eventid != OCC)
				continue;
			KUNIT_ASSERT_TRUE_MSG(test, !want->occup_refs[h] ||
					      want->occup[h] == ev[i].sel.occupid,
					      "HN-F %u: two occupancy filters", h);
			want->occup[h] = ev[i].sel.occupid;
			want->occup_refs[h]++;
		}
	}
}

/*
 * Whether @sel fits, and how, judged from the live placements alone with
 * logic.h's rule: -ENOSPC or 0 with the kind in @kind.
 */
static int oracle(const struct cmn_hnf_topology *topo, const struct live *ev,
		  unsigned int n, const struct cmn_hnf_evsel *sel, int hnf, u8 *kind)
{
	u8 used[CMN_HNF_MAX_XPS] = {}, slots[CMN_HNF_MAX_HNFS] = {};
	u8 users[CMN_HNF_MAX_HNFS] = {}, filter[CMN_HNF_MAX_HNFS] = {};
	u8 need[CMN_HNF_MAX_XPS] = {};
	unsigned int i, h, globals = 0, first, last;
	bool cycles = false;

	for (i = 0; i < n; i++) {
		const struct cmn_hnf_place *p = &ev[i].p;

		if (ev[i].sel.cycles) {
			cycles = true;
			continue;
		}
		globals += p->kind == CMN_HNF_GLOBAL;
		for (h = p->first; h < p->first + p->count; h++) {
			used[topo->hnf[h].xp] += p->kind == CMN_HNF_LOCAL ? 4 : 1;
			slots[h]++;
			if (ev[i].sel.eventid == OCC) {
				users[h]++;
				filter[h] = ev[i].sel.occupid;
			}
		}
	}
	if (sel->cycles) {
		*kind = CMN_HNF_CYC;
		return cycles ? -ENOSPC : 0;
	}
	first = hnf < 0 ? 0 : hnf;
	last = hnf < 0 ? topo->num_hnfs : hnf + 1;
	for (h = first; h < last; h++) {
		if (slots[h] == CMN_HNF_HNF_SLOTS)
			return -ENOSPC;
		if (sel->eventid == OCC && users[h] && filter[h] != sel->occupid)
			return -ENOSPC;
		need[topo->hnf[h].xp]++;
	}
	if (globals < CMN_HNF_DTC_COUNTERS) {
		*kind = CMN_HNF_GLOBAL;
		for (i = 0; i < topo->num_xps; i++)
			if (used[i] + need[i] > CMN_HNF_DTM_COUNTERS)
				return -ENOSPC;
		return 0;
	}
	*kind = CMN_HNF_LOCAL;
	return hnf >= 0 && !used[topo->hnf[hnf].xp] ? 0 : -ENOSPC;
}

struct alloc_stats {
	unsigned int placed[3], refused[3], frees, occ_conflicts;
};

static struct cmn_hnf_evsel random_sel(u32 *seed, const struct cmn_hnf_topology *topo,
				       int *hnf)
{
	struct cmn_hnf_evsel sel = {};
	u32 r = cmn_hnf_kunit_rand(seed);

	*hnf = -1;
	if (r % 16 == 0) {
		sel.cycles = true;
		return sel;
	}
	sel.eventid = r / 16 % 3 ? 1 + (r >> 8) % CMN_HNF_EVENT_MAX : OCC;
	if (sel.eventid == OCC)
		sel.occupid = (r >> 16) % CMN_HNF_OCCUP_NR;
	if (r / 64 % 8 < 5) {
		*hnf = (r >> 20) % topo->num_hnfs;
		sel.bynodeid = true;
		sel.nodeid = topo->hnf[*hnf].node_id;
	}
	return sel;
}

static void run_random(struct kunit *test, const struct cmn_hnf_topology *topo,
		       struct live *ev, u32 seed, unsigned int steps, struct alloc_stats *st)
{
	struct cmn_hnf_alloc *a = new_state(test), *want = new_state(test);
	struct cmn_hnf_alloc *before = new_state(test);
	unsigned int n = 0, step, i;
	int ret, expect;
	u8 kind = 0;

	for (step = 0; step < steps; step++) {
		if (n == MAX_LIVE || (n && cmn_hnf_kunit_rand(&seed) % 5 < 2)) {
			/* free a random live event */
			i = cmn_hnf_kunit_rand(&seed) % n;
			cmn_hnf_free(a, topo, &ev[i].sel, &ev[i].p);
			ev[i] = ev[--n];
			st->frees++;
		} else {
			ev[n].sel = random_sel(&seed, topo, &ev[n].hnf);
			expect = oracle(topo, ev, n, &ev[n].sel, ev[n].hnf, &kind);
			*before = *a;
			ret = cmn_hnf_alloc(a, topo, &ev[n].sel, ev[n].hnf, &ev[n].p);
			KUNIT_ASSERT_EQ_MSG(test, ret, expect,
					    "step %u: event 0x%x occupid %u cycles %d on HN-F %d",
					    step, ev[n].sel.eventid, ev[n].sel.occupid,
					    ev[n].sel.cycles, ev[n].hnf);
			if (ret) {
				KUNIT_ASSERT_EQ_MSG(test, memcmp(before, a, sizeof(*a)), 0,
						    "step %u: a refused event changed the state",
						    step);
				st->refused[kind]++;
				if (ev[n].sel.eventid == OCC)
					st->occ_conflicts++;
			} else {
				KUNIT_ASSERT_EQ_MSG(test, ev[n].p.kind, kind, "step %u", step);
				st->placed[kind]++;
				n++;
			}
		}
		recount(test, topo, ev, n, want);
		KUNIT_ASSERT_EQ_MSG(test, memcmp(want, a, sizeof(*a)), 0,
				    "step %u: the state is not what the %u live events hold",
				    step, n);
	}
	/* everything goes: the state is empty again, byte for byte */
	while (n) {
		n--;
		cmn_hnf_free(a, topo, &ev[n].sel, &ev[n].p);
	}
	memset(want, 0, sizeof(*want));
	KUNIT_EXPECT_EQ(test, memcmp(want, a, sizeof(*a)), 0);
}

/*
 * Random sequences of alloc and free on every shipped mesh: every answer
 * is the rule's (placed exactly when it fits, with the kind the rule
 * gives), a refusal changes nothing, and after every step the state is a
 * recount of the live placements, which never exceed the hardware.
 */
static void cmn_hnf_test_alloc_random(struct kunit *test)
{
	struct live *ev = kunit_kcalloc(test, MAX_LIVE + 1, sizeof(*ev), GFP_KERNEL);
	struct alloc_stats st = {};
	const struct cmn_hnf_topology *topo;
	struct cmn600_model_file *file;
	unsigned int f, i;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	for (f = 0; f < ARRAY_SIZE(shipped); f++) {
		file = cmn_hnf_kunit_shipped(test, shipped[f]);
		for (i = 0; i < file->nr_meshes; i++) {
			topo = cmn_hnf_kunit_topology(test, file->meshes[i]);
			run_random(test, topo, ev, 0x9e3779b9 + 7919 * f + i, 3000, &st);
		}
		cmn_hnf_kunit_file_release(test, file);
	}
	/* the sequences reached every outcome */
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_GT_MSG(test, st.placed[i], 20U, "kind %u placed", i);
		KUNIT_EXPECT_GT_MSG(test, st.refused[i], 20U, "kind %u refused", i);
	}
	KUNIT_EXPECT_GT(test, st.occ_conflicts, 20U);
	KUNIT_EXPECT_GT(test, st.frees, 1000U);
}

/*
 * Free restores exactly: events placed on a state in use and freed in any
 * order give back the very same state, byte for byte.
 */
static void cmn_hnf_test_alloc_free_restores(struct kunit *test)
{
	static const u8 map[] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	const struct cmn_hnf_topology *topo = make_topo(test, 8, map, 8);
	struct live *ev = kunit_kcalloc(test, 8, sizeof(*ev), GFP_KERNEL);
	struct cmn_hnf_alloc *a = new_state(test), *snap = new_state(test);
	static const u8 order[][4] = { { 0, 1, 2, 3 }, { 3, 2, 1, 0 }, { 1, 3, 0, 2 } };
	unsigned int o, i, k;

	KUNIT_ASSERT_NOT_NULL(test, ev);
	/* something in use already: an event of all HN-Fs, one bynodeid */
	ev[4].sel = ev_all(3, 0);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ev[4].sel, -1, &ev[4].p), 0);
	ev[5].sel = ev_node(OCC, 2, topo->hnf[1].node_id);
	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ev[5].sel, 1, &ev[5].p), 0);

	for (o = 0; o < ARRAY_SIZE(order); o++) {
		*snap = *a;
		ev[0].sel = ev_all(OCC, 4);
		ev[0].hnf = -1;
		ev[1].sel = ev_node(OCC, 0, topo->hnf[0].node_id);
		ev[1].hnf = 0;
		ev[2].sel = ev_cycles;
		ev[2].hnf = -1;
		ev[3].sel = ev_node(7, 0, topo->hnf[1].node_id);
		ev[3].hnf = 1;
		/* ev[0] conflicts with HN-F 1's filter: refused, the rest placed */
		expect_nospc(test, a, topo, &ev[0].sel, -1);
		ev[0].sel = ev_all(9, 0);
		for (i = 0; i < 4; i++)
			KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &ev[i].sel, ev[i].hnf,
							    &ev[i].p), 0);
		KUNIT_EXPECT_NE(test, memcmp(snap, a, sizeof(*a)), 0);
		for (k = 0; k < 4; k++) {
			i = order[o][k];
			cmn_hnf_free(a, topo, &ev[i].sel, &ev[i].p);
		}
		KUNIT_EXPECT_EQ_MSG(test, memcmp(snap, a, sizeof(*a)), 0, "order %u", o);
	}
	/* and the two from the start: the empty state */
	cmn_hnf_free(a, topo, &ev[5].sel, &ev[5].p);
	cmn_hnf_free(a, topo, &ev[4].sel, &ev[4].p);
	memset(snap, 0, sizeof(*snap));
	KUNIT_EXPECT_EQ(test, memcmp(snap, a, sizeof(*a)), 0);
}

/*
 * An event's filter on an HN-F whose filter was last set by another
 * class: free of the last user leaves the HN-F with no filter in force,
 * so an event of another class finds the state a fresh HN-F has.
 */
static void cmn_hnf_test_alloc_free_occupancy(struct kunit *test)
{
	static const u8 map[] = { 0 };
	struct cmn_hnf_topology *topo = make_topo(test, 1, map, 1);
	struct cmn_hnf_place *p = new_places(test, 1);
	struct cmn_hnf_alloc *a = new_state(test), *empty = new_state(test);
	struct cmn_hnf_evsel sel = ev_node(OCC, 3, topo->hnf[0].node_id);

	KUNIT_ASSERT_EQ(test, cmn_hnf_alloc(a, topo, &sel, 0, p), 0);
	KUNIT_EXPECT_EQ(test, a->occup[0], 3);
	cmn_hnf_free(a, topo, &sel, p);
	KUNIT_EXPECT_EQ(test, a->occup_refs[0], 0);
	KUNIT_EXPECT_EQ_MSG(test, memcmp(empty, a, sizeof(*a)), 0,
			    "alloc + free left occup %u", a->occup[0]);
}

static struct kunit_case cmn_hnf_alloc_cases[] = {
	KUNIT_CASE_SLOW(cmn_hnf_test_alloc_aggregated),
	KUNIT_CASE(cmn_hnf_test_alloc_two_hnfs_one_xp),
	KUNIT_CASE(cmn_hnf_test_alloc_bynodeid),
	KUNIT_CASE(cmn_hnf_test_alloc_occupancy),
	KUNIT_CASE(cmn_hnf_test_alloc_slots),
	KUNIT_CASE(cmn_hnf_test_alloc_globals),
	KUNIT_CASE(cmn_hnf_test_alloc_cycles),
	KUNIT_CASE(cmn_hnf_test_alloc_free_restores),
	KUNIT_CASE(cmn_hnf_test_alloc_free_occupancy),
	KUNIT_CASE_SLOW(cmn_hnf_test_alloc_random),
	{}
};

struct kunit_suite cmn_hnf_alloc_suite = {
	.name = "arm_cmn_hnf_alloc",
	.test_cases = cmn_hnf_alloc_cases,
};
