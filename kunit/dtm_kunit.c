// SPDX-License-Identifier: GPL-2.0
/*
 * XP DTM por_dtm_pmu_config and the DTM input select, against the register
 * layout written out here from the reference (sections 2.3 and 2.4):
 * pmu_en bit 0 ("all other fields valid only if set"), pmevcnt01_combined
 * 1, pmevcnt23_combined 2, pmevcnt_all_combined 3, pmevcnt_paired 7:4 (bit
 * 4 + n: local counter n feeds a global counter), cntr_rst 8,
 * pmevcntN_global_num 3 bits at 16 + 4N, pmevcntN_input_sel 6 bits at
 * 32 + 8N; input select 0x10 + 0x10 * port + 0x4 * device + event slot.
 */
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

#define REF_PMU_EN		BIT_ULL(0)
#define REF_CNT01_COMB		BIT_ULL(1)
#define REF_CNT23_COMB		BIT_ULL(2)
#define REF_ALL_COMB		BIT_ULL(3)
#define REF_PAIRED(n)		BIT_ULL(4 + (n))
#define REF_CNTR_RST		BIT_ULL(8)
#define REF_GLOBAL_SHIFT(n)	(16 + 4 * (n))
#define REF_INPUT_SHIFT(n)	(32 + 8 * (n))

/* Every bit the driver may set: the two combine-pair bits and cntr_rst never */
static u64 ref_writable(void)
{
	u64 m = REF_PMU_EN | REF_ALL_COMB;
	unsigned int n;

	for (n = 0; n < 4; n++)
		m |= REF_PAIRED(n) | 0x7ULL << REF_GLOBAL_SHIFT(n) |
		     0x3fULL << REF_INPUT_SHIFT(n);
	return m;
}

/* A DTM as the reference describes it, field by field */
struct ref_dtm {
	bool all64;
	u8 paired;
	u8 global[4];
	u8 input[4];
};

/* The register word of @d, from the layout above */
static u64 ref_word(const struct ref_dtm *d)
{
	u64 v = REF_PMU_EN;
	unsigned int n;

	if (d->all64)
		v |= REF_ALL_COMB;
	for (n = 0; n < 4; n++) {
		if (d->paired & BIT(n))
			v |= REF_PAIRED(n);
		v |= (u64)(d->global[n] & 7) << REF_GLOBAL_SHIFT(n);
		v |= (u64)(d->input[n] & 0x3f) << REF_INPUT_SHIFT(n);
	}
	return v;
}

/* The constants of regs.h that the words are built from say the same */
static void cmn_hnf_test_dtm_regs(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMU_CONFIG, 0x2210);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMEVCNT, 0x2220);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMU_CONFIG_PMU_EN, REF_PMU_EN);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMU_CONFIG_ALL_COMB, REF_ALL_COMB);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMU_CONFIG_PAIRED, 0xf0ULL);
	KUNIT_EXPECT_EQ(test, CMN_DTM_PMEVCNT_WIDTH, 16);
	KUNIT_EXPECT_EQ(test, CMN_HNF_DTM_COUNTERS, 4);
}

/* pmu_en is always set; an idle DTM sets nothing else */
static void cmn_hnf_test_dtm_empty(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, (u64)CMN_HNF_DTM_IDLE, REF_PMU_EN);
	KUNIT_EXPECT_EQ(test, cmn_hnf_dtm_unpair(0, 2), REF_PMU_EN);
}

/* Each counter paired with every global counter and every input, alone */
static void cmn_hnf_test_dtm_each_field(struct kunit *test)
{
	struct ref_dtm d;
	unsigned int n, g, in;
	u64 w;

	for (n = 0; n < 4; n++) {
		for (g = 0; g < 8; g++) {
			for (in = 0; in < 64; in++) {
				memset(&d, 0, sizeof(d));
				d.paired = BIT(n);
				d.global[n] = g;
				d.input[n] = in;
				w = cmn_hnf_dtm_pair(CMN_HNF_DTM_IDLE, n, g, in);
				KUNIT_ASSERT_EQ_MSG(test, w, ref_word(&d),
						    "counter %u global %u input 0x%x", n, g, in);
				KUNIT_ASSERT_EQ(test, cmn_hnf_dtm_unpair(w, n), REF_PMU_EN);
			}
		}
	}
	for (in = 0; in < 64; in++) {
		memset(&d, 0, sizeof(d));
		d.all64 = true;
		d.input[0] = in;
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_dtm_local64(in), ref_word(&d),
				    "input 0x%x", in);
	}
}

/*
 * The words pmu.c writes, as literals from the layout: a GLOBAL event on
 * DTM counter 2 paired with global counter 5 (F), counting slot 3 of port
 * 0 device 1 (input 0x17); a second on counter 0 (global 7, port 1 device
 * 0 slot 0); the first gone; a LOCAL event, the four counters combined into
 * one counting slot 2 of port 1 device 1 (input 0x26), nothing paired.
 */
static void cmn_hnf_test_dtm_words(struct kunit *test)
{
	u64 w;

	w = cmn_hnf_dtm_pair(CMN_HNF_DTM_IDLE, 2, 5, cmn_hnf_input_sel(0, 1, 3));
	KUNIT_EXPECT_EQ(test, w, 0x1ULL | 0x40ULL | 0x5ULL << 24 | 0x17ULL << 48);
	w = cmn_hnf_dtm_pair(w, 0, 7, cmn_hnf_input_sel(1, 0, 0));
	KUNIT_EXPECT_EQ(test, w, 0x1ULL | 0x50ULL | 0x7ULL << 16 | 0x5ULL << 24 |
			0x20ULL << 32 | 0x17ULL << 48);
	w = cmn_hnf_dtm_unpair(w, 2);
	KUNIT_EXPECT_EQ(test, w, 0x1ULL | 0x10ULL | 0x7ULL << 16 | 0x20ULL << 32);
	KUNIT_EXPECT_EQ(test, cmn_hnf_dtm_local64(cmn_hnf_input_sel(1, 1, 2)),
			0x9ULL | 0x26ULL << 32);
}

/*
 * Random sequences of pairings and unpairings on one DTM, out-of-range
 * values included: the word always equals the reference's, holds only
 * writable bits, never a combined pair or cntr_rst, always pmu_en, and a
 * counter's change leaves the other counters alone.
 */
static void cmn_hnf_test_dtm_random(struct kunit *test)
{
	struct ref_dtm d = {};
	u32 seed = 0xc0ffee;
	unsigned int i, n, g, in;
	u64 w = CMN_HNF_DTM_IDLE;

	for (i = 0; i < 20000; i++) {
		seed = seed * 1664525 + 1013904223;
		n = (seed >> 28) & 3;
		g = (seed >> 20) & 7;
		in = (seed >> 8) & 0x3f;
		if (seed & BIT(5)) {
			w = cmn_hnf_dtm_pair(w, n, g, in);
			d.paired |= BIT(n);
			d.global[n] = g;
			d.input[n] = in;
		} else {
			w = cmn_hnf_dtm_unpair(w, n);
			d.paired &= ~BIT(n);
			d.global[n] = 0;
			d.input[n] = 0;
		}
		KUNIT_ASSERT_EQ(test, w, ref_word(&d));
		KUNIT_ASSERT_EQ(test, w & ~ref_writable(), 0ULL);
		KUNIT_ASSERT_EQ(test, w & (REF_CNT01_COMB | REF_CNT23_COMB | REF_CNTR_RST |
					   REF_ALL_COMB), 0ULL);
		KUNIT_ASSERT_TRUE(test, w & REF_PMU_EN);
	}
}

/* 0x10 + 0x10 * port + 0x4 * device + slot (reference 2.4) */
static void cmn_hnf_test_dtm_input_sel(struct kunit *test)
{
	static const u8 first[2][4] = {
		{ 0x10, 0x14, 0x18, 0x1c }, { 0x20, 0x24, 0x28, 0x2c },
	};
	unsigned int p, d, k;
	u8 sel;

	for (p = 0; p < 2; p++) {
		for (d = 0; d < 4; d++) {
			for (k = 0; k < 4; k++) {
				sel = cmn_hnf_input_sel(p, d, k);
				KUNIT_EXPECT_EQ_MSG(test, sel, first[p][d] + k,
						    "port %u dev %u slot %u", p, d, k);
				/* neither a watchpoint (0..3) nor an XP event (4..7) */
				KUNIT_EXPECT_GE(test, sel, 0x10);
				KUNIT_EXPECT_LE(test, sel, 0x2f);
			}
		}
	}
	/* the reference's own examples */
	KUNIT_EXPECT_EQ(test, cmn_hnf_input_sel(0, 0, 0), 0x10);
	KUNIT_EXPECT_EQ(test, cmn_hnf_input_sel(0, 1, 3), 0x17);
	KUNIT_EXPECT_EQ(test, cmn_hnf_input_sel(1, 0, 0), 0x20);
	KUNIT_EXPECT_EQ(test, cmn_hnf_input_sel(1, 1, 3), 0x27);
	KUNIT_EXPECT_EQ(test, cmn_hnf_input_sel(1, 3, 3), 0x2f);
}

static struct kunit_case cmn_hnf_dtm_cases[] = {
	KUNIT_CASE(cmn_hnf_test_dtm_regs),
	KUNIT_CASE(cmn_hnf_test_dtm_empty),
	KUNIT_CASE(cmn_hnf_test_dtm_each_field),
	KUNIT_CASE(cmn_hnf_test_dtm_words),
	KUNIT_CASE(cmn_hnf_test_dtm_random),
	KUNIT_CASE(cmn_hnf_test_dtm_input_sel),
	{}
};

struct kunit_suite cmn_hnf_dtm_suite = {
	.name = "arm_cmn_hnf_dtm",
	.test_cases = cmn_hnf_dtm_cases,
};
