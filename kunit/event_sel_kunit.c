// SPDX-License-Identifier: GPL-2.0
/*
 * por_hnf_pmu_event_sel packing. The expected bit positions are written
 * here from the register description (seed 003: pmu_event0..3_id at 4:0,
 * 12:8, 20:16, 28:24, pmu_occup1_id at 34:32, everything else reserved and
 * read as zero), independently of the masks in regs.h.
 */
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

/* From the register description, not from regs.h */
static const unsigned int seed_event_shift[CMN_HNF_HNF_SLOTS] = { 0, 8, 16, 24 };
#define SEED_EVENT_WIDTH	5
#define SEED_OCCUP_SHIFT	32
#define SEED_OCCUP_WIDTH	3
/* Every writable bit of the register: the regdefs reset mask 0x7_1F1F_1F1F */
#define SEED_WRITABLE		0x71f1f1f1fULL

static u64 seed_event_field(u64 reg, unsigned int slot)
{
	return (reg >> seed_event_shift[slot]) & ((1 << SEED_EVENT_WIDTH) - 1);
}

static u64 seed_occup_field(u64 reg)
{
	return (reg >> SEED_OCCUP_SHIFT) & ((1 << SEED_OCCUP_WIDTH) - 1);
}

/* The masks in regs.h say the same as the register description */
static void cmn_hnf_test_event_sel_masks(struct kunit *test)
{
	static const u64 regs_mask[CMN_HNF_HNF_SLOTS] = {
		CMN_HNF_PMU_EVENT0_ID, CMN_HNF_PMU_EVENT1_ID,
		CMN_HNF_PMU_EVENT2_ID, CMN_HNF_PMU_EVENT3_ID,
	};
	u64 all = CMN_HNF_PMU_OCCUP1_ID;
	unsigned int s;

	for (s = 0; s < CMN_HNF_HNF_SLOTS; s++) {
		KUNIT_EXPECT_EQ_MSG(test, regs_mask[s],
				    0x1fULL << seed_event_shift[s], "slot %u", s);
		all |= regs_mask[s];
	}
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_PMU_OCCUP1_ID, 0x7ULL << 32);
	KUNIT_EXPECT_EQ(test, all, SEED_WRITABLE);
	KUNIT_EXPECT_EQ(test, CMN_HNF_PMU_EVENT_SEL, 0x2000);
}

/* Every value 0..31 in every slot, alone and with the other slots busy */
static void cmn_hnf_test_event_sel_every_slot_value(struct kunit *test)
{
	unsigned int s, o, v;
	u8 ev[CMN_HNF_HNF_SLOTS];
	u64 reg;

	for (s = 0; s < CMN_HNF_HNF_SLOTS; s++) {
		for (v = 0; v <= 0x1f; v++) {
			memset(ev, 0, sizeof(ev));
			ev[s] = v;
			reg = cmn_hnf_event_sel(ev, 0);
			KUNIT_EXPECT_EQ_MSG(test, reg, (u64)v << seed_event_shift[s],
					    "slot %u value 0x%x", s, v);

			/* Other slots hold distinct values that must survive */
			for (o = 0; o < CMN_HNF_HNF_SLOTS; o++)
				ev[o] = o == s ? v : 0x1f - 3 * o;
			reg = cmn_hnf_event_sel(ev, 4);
			for (o = 0; o < CMN_HNF_HNF_SLOTS; o++)
				KUNIT_EXPECT_EQ_MSG(test, seed_event_field(reg, o), (u64)ev[o],
						    "slot %u value 0x%x, field %u", s, v, o);
			KUNIT_EXPECT_EQ(test, seed_occup_field(reg), 4ULL);
			KUNIT_EXPECT_EQ(test, reg & ~SEED_WRITABLE, 0ULL);
		}
	}
}

/* Every value of the 3-bit occupancy field lands in 34:32 and nowhere else */
static void cmn_hnf_test_event_sel_occupid(struct kunit *test)
{
	static const u8 none[CMN_HNF_HNF_SLOTS];
	static const u8 full[CMN_HNF_HNF_SLOTS] = { 0x1f, 0x1f, 0x1f, 0x1f };
	unsigned int o;

	for (o = 0; o < 8; o++) {
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_event_sel(none, o),
				    (u64)o << SEED_OCCUP_SHIFT, "occupid %u", o);
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_event_sel(full, o),
				    0x1f1f1f1fULL | (u64)o << SEED_OCCUP_SHIFT,
				    "occupid %u", o);
	}
	/* Wider values are cut to the field, never spill into reserved bits */
	for (o = 8; o < 256; o++)
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_event_sel(none, o),
				    (u64)(o & 7) << SEED_OCCUP_SHIFT, "occupid %u", o);
}

/* Reserved bits are zero whatever the inputs, including out-of-range ones */
static void cmn_hnf_test_event_sel_reserved_zero(struct kunit *test)
{
	u32 seed = 0x12345678;
	unsigned int i, s;
	u8 ev[CMN_HNF_HNF_SLOTS];
	u8 occ;
	u64 reg;

	for (i = 0; i < 20000; i++) {
		for (s = 0; s < CMN_HNF_HNF_SLOTS; s++) {
			seed = seed * 1664525 + 1013904223;
			ev[s] = seed >> 24;
		}
		seed = seed * 1664525 + 1013904223;
		occ = seed >> 24;
		reg = cmn_hnf_event_sel(ev, occ);
		KUNIT_ASSERT_EQ_MSG(test, reg & ~SEED_WRITABLE, 0ULL,
				    "ev %02x %02x %02x %02x occ %02x", ev[0], ev[1],
				    ev[2], ev[3], occ);
		for (s = 0; s < CMN_HNF_HNF_SLOTS; s++)
			KUNIT_ASSERT_EQ(test, seed_event_field(reg, s), (u64)(ev[s] & 0x1f));
		KUNIT_ASSERT_EQ(test, seed_occup_field(reg), (u64)(occ & 7));
	}
}

static struct kunit_case cmn_hnf_event_sel_cases[] = {
	KUNIT_CASE(cmn_hnf_test_event_sel_masks),
	KUNIT_CASE(cmn_hnf_test_event_sel_every_slot_value),
	KUNIT_CASE(cmn_hnf_test_event_sel_occupid),
	KUNIT_CASE(cmn_hnf_test_event_sel_reserved_zero),
	{}
};

struct kunit_suite cmn_hnf_event_sel_suite = {
	.name = "arm_cmn_hnf_event_sel",
	.test_cases = cmn_hnf_event_sel_cases,
};
