// SPDX-License-Identifier: GPL-2.0
/*
 * CMN-600 node ids: (x << (3 + b)) | (y << 3) | (port << 2) | dev, with
 * b = 2 when both mesh dimensions are at most 4, else 3 (SCP-firmware and
 * cmn-tools; not upstream 6.12's bit-length rule, which gives b = 1 on a
 * 2x2 mesh).
 */
#include <linux/bitmap.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

/* The CMN-600 rule, spot-checked with literals from the reference */
static void cmn_hnf_test_nodeid_coord_bits(struct kunit *test)
{
	unsigned int x, y;

	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(1, 1), 2U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(2, 2), 2U);	/* upstream 6.12: 1 */
	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(2, 1), 2U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(4, 4), 2U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(5, 1), 3U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(1, 5), 3U);
	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(8, 8), 3U);

	for (x = 1; x <= 8; x++)
		for (y = 1; y <= 8; y++)
			KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_coord_bits(x, y),
					    (x > 4 || y > 4) ? 3U : 2U, "%ux%u", x, y);
}

/* The example from the reference: ID 8 is XP (0,1) whatever the width */
static void cmn_hnf_test_nodeid_examples(struct kunit *test)
{
	struct cmn_hnf_nid nid;

	nid = cmn_hnf_decode_nodeid(8, 2);
	KUNIT_EXPECT_EQ(test, nid.x, 0);
	KUNIT_EXPECT_EQ(test, nid.y, 1);
	nid = cmn_hnf_decode_nodeid(8, 3);
	KUNIT_EXPECT_EQ(test, nid.x, 0);
	KUNIT_EXPECT_EQ(test, nid.y, 1);
	/* 3x3 mesh, XP (1,2) port 1 device 1: 0x20 | 0x10 | 0x4 | 0x1 */
	nid = cmn_hnf_decode_nodeid(0x35, 2);
	KUNIT_EXPECT_EQ(test, nid.x, 1);
	KUNIT_EXPECT_EQ(test, nid.y, 2);
	KUNIT_EXPECT_EQ(test, nid.port, 1);
	KUNIT_EXPECT_EQ(test, nid.dev, 1);
	/* 8x8 mesh, XP (7,7) port 1 device 0: 0x1c0 | 0x38 | 0x4 */
	nid = cmn_hnf_decode_nodeid(0x1fc, 3);
	KUNIT_EXPECT_EQ(test, nid.x, 7);
	KUNIT_EXPECT_EQ(test, nid.y, 7);
	KUNIT_EXPECT_EQ(test, nid.port, 1);
	KUNIT_EXPECT_EQ(test, nid.dev, 0);
}

/*
 * The coordinate width decides which XP an id names: with 2 bits (meshes
 * up to 4x4) id 0x28 is XP (1,1), with 3 bits it is XP (0,5). An HN-F on
 * XP (4,0) of a 5x1 mesh (3 bits) has id 0x100, which 2 bits would read as
 * XP (0,0) with X out of range; on a 2x2 mesh (2 bits, where upstream
 * 6.12's bit length of (X-1 | Y-1) would give 1) XP (1,0) port 0 device 0
 * is 0x20, which 1 bit would read as (0,0).
 */
static void cmn_hnf_test_nodeid_width(struct kunit *test)
{
	struct cmn_hnf_nid nid;

	nid = cmn_hnf_decode_nodeid(0x28, 2);
	KUNIT_EXPECT_EQ(test, nid.x, 1);
	KUNIT_EXPECT_EQ(test, nid.y, 1);
	nid = cmn_hnf_decode_nodeid(0x28, 3);
	KUNIT_EXPECT_EQ(test, nid.x, 0);
	KUNIT_EXPECT_EQ(test, nid.y, 5);

	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(5, 1), 3U);
	nid = (struct cmn_hnf_nid) { .x = 4, .y = 0, .port = 1, .dev = 1 };
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_nodeid(nid, 3), 0x105);
	nid = cmn_hnf_decode_nodeid(0x105, 3);
	KUNIT_EXPECT_EQ(test, nid.x, 4);
	KUNIT_EXPECT_EQ(test, nid.y, 0);
	KUNIT_EXPECT_EQ(test, nid.port, 1);
	KUNIT_EXPECT_EQ(test, nid.dev, 1);

	KUNIT_EXPECT_EQ(test, cmn_hnf_coord_bits(2, 2), 2U);
	nid = (struct cmn_hnf_nid) { .x = 1, .y = 0 };
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_nodeid(nid, 2), 0x20);
	nid = cmn_hnf_decode_nodeid(0x20, 2);
	KUNIT_EXPECT_EQ(test, nid.x, 1);
	KUNIT_EXPECT_EQ(test, nid.y, 0);
	/* port and device do not depend on the width */
	nid = cmn_hnf_decode_nodeid(0x7, 2);
	KUNIT_EXPECT_EQ(test, nid.port, 1);
	KUNIT_EXPECT_EQ(test, nid.dev, 3);
	nid = cmn_hnf_decode_nodeid(0x7, 3);
	KUNIT_EXPECT_EQ(test, nid.port, 1);
	KUNIT_EXPECT_EQ(test, nid.dev, 3);
}

/* One XP position of one mesh: the formula, the inverse, no id twice */
static void check_position(struct kunit *test, unsigned long *seen, unsigned int b,
			   struct cmn_hnf_nid nid)
{
	struct cmn_hnf_nid back;
	u16 id, expect;

	id = cmn_hnf_encode_nodeid(nid, b);
	expect = nid.x << (3 + b) | nid.y << 3 | nid.port << 2 | nid.dev;
	KUNIT_ASSERT_EQ_MSG(test, id, expect, "b=%u (%u,%u) p%u d%u", b, nid.x, nid.y,
			    nid.port, nid.dev);
	KUNIT_ASSERT_LT(test, (unsigned int)id, 1U << (3 + 2 * b));
	KUNIT_ASSERT_FALSE_MSG(test, test_bit(id, seen), "id 0x%x twice", id);
	__set_bit(id, seen);
	back = cmn_hnf_decode_nodeid(id, b);
	KUNIT_ASSERT_EQ(test, back.x, nid.x);
	KUNIT_ASSERT_EQ(test, back.y, nid.y);
	KUNIT_ASSERT_EQ(test, back.port, nid.port);
	KUNIT_ASSERT_EQ(test, back.dev, nid.dev);
}

/*
 * Every mesh size 1x1..8x8, every XP, port and device: the encoding is
 * the formula, decoding gives the fields back, and no two positions share
 * an id.
 */
static void cmn_hnf_test_nodeid_round_trip(struct kunit *test)
{
	unsigned int mx, my, b, i;
	struct cmn_hnf_nid nid;
	unsigned long *seen;

	seen = kunit_kzalloc(test, BITS_TO_LONGS(1 << 16) * sizeof(long), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, seen);

	for (mx = 1; mx <= CMN_HNF_MAX_DIM; mx++) {
		for (my = 1; my <= CMN_HNF_MAX_DIM; my++) {
			b = cmn_hnf_coord_bits(mx, my);
			bitmap_zero(seen, 1 << 16);
			/* i counts (x, y, port, dev) with dev fastest */
			for (i = 0; i < mx * my * 2 * 4; i++) {
				nid.dev = i % 4;
				nid.port = i / 4 % 2;
				nid.y = i / 8 % my;
				nid.x = i / 8 / my;
				check_position(test, seen, b, nid);
			}
		}
	}
}

static struct kunit_case cmn_hnf_nodeid_cases[] = {
	KUNIT_CASE(cmn_hnf_test_nodeid_coord_bits),
	KUNIT_CASE(cmn_hnf_test_nodeid_examples),
	KUNIT_CASE(cmn_hnf_test_nodeid_width),
	KUNIT_CASE(cmn_hnf_test_nodeid_round_trip),
	{}
};

struct kunit_suite cmn_hnf_nodeid_suite = {
	.name = "arm_cmn_hnf_nodeid",
	.test_cases = cmn_hnf_nodeid_cases,
};
