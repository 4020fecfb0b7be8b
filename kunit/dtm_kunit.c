// SPDX-License-Identifier: GPL-2.0
/*
 * XP DTM por_dtm_pmu_config and input select, against the register layout
 * written out here from the reference (section 2.3/2.4): pmu_en bit 0,
 * combine bits 1..3, pmevcnt_paired 7:4, cntr_rst 8, pmevcntN_global_num
 * 3 bits at 16 + 4N, pmevcntN_input_sel 6 bits at 32 + 8N.
 */
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

#define REF_PMU_EN		BIT_ULL(0)
#define REF_PAIRED_SHIFT	4
#define REF_GLOBAL_SHIFT(n)	(16 + 4 * (n))
#define REF_INPUT_SHIFT(n)	(32 + 8 * (n))

/* Bits the encoder may ever set */
static u64 ref_writable(void)
{
	u64 m = REF_PMU_EN | 0xfULL << REF_PAIRED_SHIFT;
	unsigned int n;

	for (n = 0; n < 4; n++)
		m |= 0x7ULL << REF_GLOBAL_SHIFT(n) | 0x3fULL << REF_INPUT_SHIFT(n);
	return m;
}

#define REF_CNT01_COMB		BIT_ULL(1)
#define REF_CNT23_COMB		BIT_ULL(2)
#define REF_ALL_COMB		BIT_ULL(3)

static u64 ref_dtm_config(const struct cmn_hnf_dtm_cfg *cfg)
{
	u64 v = REF_PMU_EN | (u64)(cfg->paired & 0xf) << REF_PAIRED_SHIFT;

	if (cfg->comb & CMN_HNF_COMB_01)
		v |= REF_CNT01_COMB;
	if (cfg->comb & CMN_HNF_COMB_23)
		v |= REF_CNT23_COMB;
	if (cfg->comb & CMN_HNF_COMB_ALL)
		v |= REF_ALL_COMB;
	unsigned int n;

	for (n = 0; n < 4; n++) {
		v |= (u64)(cfg->global_num[n] & 7) << REF_GLOBAL_SHIFT(n);
		v |= (u64)(cfg->input_sel[n] & 0x3f) << REF_INPUT_SHIFT(n);
	}
	return v;
}

static void cmn_hnf_test_dtm_empty(struct kunit *test)
{
	struct cmn_hnf_dtm_cfg cfg = {};

	/* pmu_en is always set: "all other fields valid only if set" */
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_dtm_config(&cfg), REF_PMU_EN);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMU_CONFIG, 0x2210);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMEVCNT, 0x2220);
}

/* Each field of each counter alone, every value */
static void cmn_hnf_test_dtm_each_field(struct kunit *test)
{
	struct cmn_hnf_dtm_cfg cfg;
	unsigned int n, v;

	for (v = 0; v < 16; v++) {
		memset(&cfg, 0, sizeof(cfg));
		cfg.paired = v;
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_encode_dtm_config(&cfg),
				    REF_PMU_EN | (u64)v << 4, "paired 0x%x", v);
	}
	for (n = 0; n < 4; n++) {
		for (v = 0; v < 8; v++) {
			memset(&cfg, 0, sizeof(cfg));
			cfg.global_num[n] = v;
			KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_encode_dtm_config(&cfg),
					    REF_PMU_EN | (u64)v << REF_GLOBAL_SHIFT(n),
					    "counter %u global %u", n, v);
		}
		for (v = 0; v < 64; v++) {
			memset(&cfg, 0, sizeof(cfg));
			cfg.input_sel[n] = v;
			KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_encode_dtm_config(&cfg),
					    REF_PMU_EN | (u64)v << REF_INPUT_SHIFT(n),
					    "counter %u input 0x%x", n, v);
		}
	}
}

/* Random full configurations, including out-of-range inputs */
static void cmn_hnf_test_dtm_random(struct kunit *test)
{
	struct cmn_hnf_dtm_cfg cfg;
	u32 seed = 0xc0ffee;
	unsigned int i, n;
	u64 reg;

	for (i = 0; i < 20000; i++) {
		seed = seed * 1664525 + 1013904223;
		cfg.paired = seed >> 24;
		for (n = 0; n < 4; n++) {
			seed = seed * 1664525 + 1013904223;
			cfg.global_num[n] = seed >> 24;
			cfg.input_sel[n] = seed >> 16;
		}
		cfg.comb = 0;
		reg = cmn_hnf_encode_dtm_config(&cfg);
		KUNIT_ASSERT_EQ(test, reg, ref_dtm_config(&cfg));
		/* No combine bit unless asked, never cntr_rst nor a reserved bit */
		KUNIT_ASSERT_EQ(test, reg & ~ref_writable(), 0ULL);
		KUNIT_ASSERT_EQ(test, reg & 0x10eULL, 0ULL);
		cfg.comb = seed >> 29;
		reg = cmn_hnf_encode_dtm_config(&cfg);
		KUNIT_ASSERT_EQ(test, reg, ref_dtm_config(&cfg));
		KUNIT_ASSERT_EQ(test, reg & ~(ref_writable() | 0xeULL), 0ULL);
	}
}

/* Combined counters: pmevcnt01_combined 1, 23_combined 2, all_combined 3 */
static void cmn_hnf_test_dtm_combined(struct kunit *test)
{
	struct cmn_hnf_dtm_cfg cfg = {};

	cfg.comb = CMN_HNF_COMB_01;
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_dtm_config(&cfg), REF_PMU_EN | BIT_ULL(1));
	cfg.comb = CMN_HNF_COMB_23;
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_dtm_config(&cfg), REF_PMU_EN | BIT_ULL(2));
	cfg.comb = CMN_HNF_COMB_ALL;
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_dtm_config(&cfg), REF_PMU_EN | BIT_ULL(3));
	/* a 32-bit counter of slot 1 of port 1 device 0, on counters 2-3 */
	cfg.comb = CMN_HNF_COMB_23;
	cfg.input_sel[2] = cmn_hnf_dtm_input_sel(1, 0, 1);
	KUNIT_EXPECT_EQ(test, cmn_hnf_encode_dtm_config(&cfg),
			REF_PMU_EN | BIT_ULL(2) | 0x21ULL << REF_INPUT_SHIFT(2));
}

/* 0x10 + 0x10 * port + 0x4 * dev + slot (reference 2.4) */
static void cmn_hnf_test_dtm_input_sel(struct kunit *test)
{
	static const u8 first[2][2] = { { 0x10, 0x14 }, { 0x20, 0x24 } };
	unsigned int p, d, k;
	u8 sel;

	for (p = 0; p < 2; p++) {
		for (d = 0; d < 2; d++) {
			for (k = 0; k < 4; k++) {
				sel = cmn_hnf_dtm_input_sel(p, d, k);
				KUNIT_EXPECT_EQ_MSG(test, sel, first[p][d] + k,
						    "port %u dev %u slot %u", p, d, k);
				/* Not a watchpoint (0..3) nor an XP event (4..7) */
				KUNIT_EXPECT_GE(test, sel, 0x10);
				KUNIT_EXPECT_LE(test, sel, 0x3f);
			}
		}
	}
	/* Devices 2 and 3 of the TRM list reach 0x2f */
	KUNIT_EXPECT_EQ(test, cmn_hnf_dtm_input_sel(1, 3, 3), 0x2f);
	KUNIT_EXPECT_EQ(test, cmn_hnf_dtm_input_sel(0, 2, 0), 0x18);
}

static struct kunit_case cmn_hnf_dtm_cases[] = {
	KUNIT_CASE(cmn_hnf_test_dtm_empty),
	KUNIT_CASE(cmn_hnf_test_dtm_each_field),
	KUNIT_CASE(cmn_hnf_test_dtm_random),
	KUNIT_CASE(cmn_hnf_test_dtm_combined),
	KUNIT_CASE(cmn_hnf_test_dtm_input_sel),
	{}
};

struct kunit_suite cmn_hnf_dtm_suite = {
	.name = "arm_cmn_hnf_dtm",
	.test_cases = cmn_hnf_dtm_cases,
};
