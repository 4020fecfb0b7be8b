// SPDX-License-Identifier: GPL-2.0
/*
 * attr.config decoding against the perf ABI table of
 * Documentation/internals.rst, whose bit positions are written out here
 * independently of the masks in logic.h: eventid config:0-7, occupid 8-11,
 * bynodeid 12, nodeid 16-31, type 32-35; everything else reserved.
 */
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

#define ABI_EVENTID(v)	((u64)(v) << 0)
#define ABI_OCCUPID(v)	((u64)(v) << 8)
#define ABI_BYNODEID	BIT_ULL(12)
#define ABI_NODEID(v)	((u64)(v) << 16)
#define ABI_TYPE(v)	((u64)(v) << 32)
#define ABI_USED	(0xffULL | 0xfULL << 8 | 1ULL << 12 | 0xffffULL << 16 | 0xfULL << 32)

struct config_case {
	const char *desc;
	u64 config;
	int ret;
	struct cmn_hnf_evsel sel;	/* when ret == 0 */
};

static const struct config_case config_cases[] = {
	/* Accepted */
	{ "slc_miss", ABI_EVENTID(1), 0, { .eventid = 1 } },
	{ "type 5", ABI_TYPE(5) | ABI_EVENTID(1), 0, { .eventid = 1 } },
	{ "last event", ABI_EVENTID(0x1f), 0, { .eventid = 0x1f } },
	{ "occupancy all", ABI_EVENTID(0x0f), 0, { .eventid = 0x0f } },
	{ "occupancy read", ABI_EVENTID(0x0f) | ABI_OCCUPID(1), 0,
	  { .eventid = 0x0f, .occupid = 1 } },
	{ "occupancy stash", ABI_TYPE(5) | ABI_EVENTID(0x0f) | ABI_OCCUPID(4), 0,
	  { .eventid = 0x0f, .occupid = 4 } },
	{ "bynodeid", ABI_EVENTID(5) | ABI_BYNODEID | ABI_NODEID(0x68), 0,
	  { .eventid = 5, .bynodeid = true, .nodeid = 0x68 } },
	{ "bynodeid node 0", ABI_EVENTID(5) | ABI_BYNODEID, 0,
	  { .eventid = 5, .bynodeid = true } },
	{ "bynodeid widest node id", ABI_EVENTID(5) | ABI_BYNODEID | ABI_NODEID(0xffff), 0,
	  { .eventid = 5, .bynodeid = true, .nodeid = 0xffff } },
	{ "dtc_cycles", ABI_TYPE(3), 0, { .cycles = true } },
	/* eventid */
	{ "eventid 0", ABI_EVENTID(0), -EINVAL },
	{ "eventid 0 type 5", ABI_TYPE(5), -EINVAL },
	{ "eventid 0x20", ABI_EVENTID(0x20), -EINVAL },
	{ "eventid 0xff", ABI_EVENTID(0xff), -EINVAL },
	/* occupid */
	{ "occupid 5", ABI_EVENTID(0x0f) | ABI_OCCUPID(5), -EINVAL },
	{ "occupid 15", ABI_EVENTID(0x0f) | ABI_OCCUPID(15), -EINVAL },
	{ "occupid on 0x01", ABI_EVENTID(0x01) | ABI_OCCUPID(1), -EINVAL },
	{ "occupid on 0x0e", ABI_EVENTID(0x0e) | ABI_OCCUPID(2), -EINVAL },
	{ "occupid on 0x10", ABI_EVENTID(0x10) | ABI_OCCUPID(4), -EINVAL },
	/* nodeid without bynodeid */
	{ "nodeid without bynodeid", ABI_EVENTID(1) | ABI_NODEID(0x68), -EINVAL },
	/* type */
	{ "type 1", ABI_TYPE(1) | ABI_EVENTID(1), -EINVAL },
	{ "type 2", ABI_TYPE(2) | ABI_EVENTID(1), -EINVAL },
	{ "type 4", ABI_TYPE(4) | ABI_EVENTID(1), -EINVAL },
	{ "type 6 (XP)", ABI_TYPE(6) | ABI_EVENTID(1), -EINVAL },
	{ "type 15", ABI_TYPE(15) | ABI_EVENTID(1), -EINVAL },
	/* cycles takes no other field */
	{ "cycles with eventid", ABI_TYPE(3) | ABI_EVENTID(1), -EINVAL },
	{ "cycles with occupid", ABI_TYPE(3) | ABI_OCCUPID(1), -EINVAL },
	{ "cycles with bynodeid", ABI_TYPE(3) | ABI_BYNODEID, -EINVAL },
	{ "cycles with nodeid", ABI_TYPE(3) | ABI_NODEID(8), -EINVAL },
	/* reserved bits */
	{ "bit 13", ABI_EVENTID(1) | 1ULL << 13, -EINVAL },
	{ "bit 15", ABI_EVENTID(1) | 1ULL << 15, -EINVAL },
	{ "bit 36", ABI_EVENTID(1) | 1ULL << 36, -EINVAL },
	{ "bit 63", ABI_EVENTID(1) | 1ULL << 63, -EINVAL },
	{ "cycles bit 40", ABI_TYPE(3) | 1ULL << 40, -EINVAL },
};

static void config_case_desc(const struct config_case *c, char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(config, config_cases, config_case_desc);

static void cmn_hnf_test_config_table(struct kunit *test)
{
	const struct config_case *c = test->param_value;
	struct cmn_hnf_evsel sel;

	memset(&sel, 0xa5, sizeof(sel));
	KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_decode_config(c->config, &sel), c->ret,
			    "config 0x%llx", c->config);
	if (c->ret)
		return;
	KUNIT_EXPECT_EQ(test, sel.cycles, c->sel.cycles);
	KUNIT_EXPECT_EQ(test, sel.eventid, c->sel.eventid);
	KUNIT_EXPECT_EQ(test, sel.occupid, c->sel.occupid);
	KUNIT_EXPECT_EQ(test, sel.bynodeid, c->sel.bynodeid);
	KUNIT_EXPECT_EQ(test, sel.nodeid, c->sel.nodeid);
}

/* The masks in logic.h are the ABI table's positions */
static void cmn_hnf_test_config_masks(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_CONFIG_EVENTID, ABI_EVENTID(0xff));
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_CONFIG_OCCUPID, ABI_OCCUPID(0xf));
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_CONFIG_BYNODEID, ABI_BYNODEID);
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_CONFIG_NODEID, ABI_NODEID(0xffff));
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_CONFIG_TYPE, ABI_TYPE(0xf));
}

/* Every eventid x occupid x type combination, against the rules */
static void cmn_hnf_test_config_exhaustive(struct kunit *test)
{
	unsigned int ev, occ, type;
	struct cmn_hnf_evsel sel;
	bool ok;
	int ret;

	for (type = 0; type < 16; type++) {
		for (ev = 0; ev < 256; ev++) {
			for (occ = 0; occ < 16; occ++) {
				u64 config = ABI_TYPE(type) | ABI_EVENTID(ev) | ABI_OCCUPID(occ);

				if (type == 3)
					ok = !ev && !occ;
				else if (type == 0 || type == 5)
					ok = ev >= 1 && ev <= 0x1f &&
					     (!occ || (ev == 0x0f && occ <= 4));
				else
					ok = false;
				ret = cmn_hnf_decode_config(config, &sel);
				KUNIT_ASSERT_EQ_MSG(test, ret, ok ? 0 : -EINVAL,
						    "type %u eventid 0x%x occupid %u",
						    type, ev, occ);
				if (ok && type != 3) {
					KUNIT_ASSERT_EQ(test, sel.eventid, (u8)ev);
					KUNIT_ASSERT_EQ(test, sel.occupid, (u8)occ);
					KUNIT_ASSERT_FALSE(test, sel.cycles);
				}
				if (ok && type == 3)
					KUNIT_ASSERT_TRUE(test, sel.cycles);
			}
		}
	}
}

/* Any single reserved bit turns a valid config into -EINVAL */
static void cmn_hnf_test_config_reserved_bits(struct kunit *test)
{
	static const u64 valid[] = {
		ABI_EVENTID(1), ABI_EVENTID(0x0f) | ABI_OCCUPID(2),
		ABI_EVENTID(3) | ABI_BYNODEID | ABI_NODEID(0x1ff), ABI_TYPE(3),
	};
	struct cmn_hnf_evsel sel;
	unsigned int bit, i;

	for (i = 0; i < ARRAY_SIZE(valid); i++) {
		KUNIT_ASSERT_EQ(test, cmn_hnf_decode_config(valid[i], &sel), 0);
		for (bit = 0; bit < 64; bit++) {
			if (ABI_USED & BIT_ULL(bit))
				continue;
			KUNIT_EXPECT_EQ_MSG(test,
					    cmn_hnf_decode_config(valid[i] | BIT_ULL(bit), &sel),
					    -EINVAL, "config 0x%llx bit %u", valid[i], bit);
		}
	}
}

static struct kunit_case cmn_hnf_config_cases[] = {
	KUNIT_CASE_PARAM(cmn_hnf_test_config_table, config_gen_params),
	KUNIT_CASE(cmn_hnf_test_config_masks),
	KUNIT_CASE(cmn_hnf_test_config_exhaustive),
	KUNIT_CASE(cmn_hnf_test_config_reserved_bits),
	{}
};

struct kunit_suite cmn_hnf_config_suite = {
	.name = "arm_cmn_hnf_config",
	.test_cases = cmn_hnf_config_cases,
};
