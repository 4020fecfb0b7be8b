// SPDX-License-Identifier: GPL-2.0
/*
 * Invariants of the event table (include/arm_cmn_hnf/events.h), expanded
 * here into a plain array, checked against the 31 encodings of the
 * register description (seed 003) written out independently below.
 */
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

struct cmn_hnf_test_event {
	const char *name;
	int eventid;
	int occupid;
	const char *scale;
	const char *unit;
	const char *trm;
	const char *desc;
};

#define CMN_HNF_TEST_EVENT(_name, _id, _occ, _scale, _unit, _trm, _desc) \
	{ #_name, _id, _occ, _scale, _unit, _trm, _desc },

static const struct cmn_hnf_test_event events[] = {
#define CMN_HNF_EVENT CMN_HNF_TEST_EVENT
#include <arm_cmn_hnf/event_table.h>
#undef CMN_HNF_EVENT
};

/* pmu_event0_id encodings 0x01..0x1f, from the register description */
static const char * const seed_trm[CMN_HNF_NUM_ENCODINGS + 1] = {
	[0x01] = "PMU_HN_CACHE_MISS_EVENT",
	[0x02] = "PMU_HN_SLCSF_CACHE_ACCESS_EVENT",
	[0x03] = "PMU_HN_CACHE_FILL_EVENT",
	[0x04] = "PMU_HN_POCQ_RETRY_EVENT",
	[0x05] = "PMU_HN_POCQ_REQS_RECVD_EVENT",
	[0x06] = "PMU_HN_SF_HIT_EVENT",
	[0x07] = "PMU_HN_SF_EVICTIONS_EVENT",
	[0x08] = "PMU_HN_DIR_SNOOPS_SENT_EVENT",
	[0x09] = "PMU_HN_DIR_SNOOPS_SENTEVENT",
	[0x0a] = "PMU_HN_SLC_EVICTION_EVENT",
	[0x0b] = "PMU_HN_SLC_FILL_INVALID_WAY_EVENT",
	[0x0c] = "PMU_HN_MC_RETRIES_EVENT",
	[0x0d] = "PMU_HN_MC_REQS_EVENT",
	[0x0e] = "PMU_HN_QOS_HH_RETRY_EVENT",
	[0x0f] = "PMU_HN_POCQ_OCCUPANCY_EVENT",
	[0x10] = "PMU_HN_POCQ_ADDRHAZ_EVENT",
	[0x11] = "PMU_HN_POCQ_ATOMICS_ADDRHAZ_EVENT",
	[0x12] = "PMU_HN_LD_ST_SWP_ADQ_FULL_EVENT",
	[0x13] = "PMU_HN_CMP_ADQ_FULL_EVENT",
	[0x14] = "PMU_HN_TXDAT_STALL_EVENT",
	[0x15] = "PMU_HN_TXRSP_STALL_EVENT",
	[0x16] = "PMU_HN_SEQ_FULL_EVENT",
	[0x17] = "PMU_HN_SEQ_HIT_EVENT",
	[0x18] = "PMU_HN_SNP_SENT_EVENT",
	[0x19] = "PMU_HN_SFBI_DIR_SNP_SENT_EVENT",
	[0x1a] = "PMU_HN_SFBI_BRD_SNP_SENT_EVENT",
	[0x1b] = "PMU_HN_SNP_SENT_UNTRK_EVENT",
	[0x1c] = "PMU_HN_INTV_DIRTY_EVENT",
	[0x1d] = "PMU_HN_STASH_SNP_SENT_EVENT",
	[0x1e] = "PMU_HN_STASH_DATA_PULL_EVENT",
	[0x1f] = "PMU_HN_SNP_FWDED_EVENT",
};

static bool is_primary(const struct cmn_hnf_test_event *e)
{
	return e->trm[0] != '\0';
}

/* Each encoding 1..0x1f has exactly one primary entry, with its TRM name */
static void cmn_hnf_test_events_one_primary_per_id(struct kunit *test)
{
	unsigned int count[CMN_HNF_EVENT_MAX + 1] = {};
	unsigned int i, id, primaries = 0;

	KUNIT_EXPECT_EQ(test, CMN_HNF_NUM_ENCODINGS, 31);
	KUNIT_EXPECT_EQ(test, CMN_HNF_EVENT_MAX, 0x1f);
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (!is_primary(&events[i]))
			continue;
		primaries++;
		KUNIT_ASSERT_GE_MSG(test, events[i].eventid, 1, "%s", events[i].name);
		KUNIT_ASSERT_LE_MSG(test, events[i].eventid, 0x1f, "%s", events[i].name);
		count[events[i].eventid]++;
		KUNIT_EXPECT_STREQ_MSG(test, events[i].trm, seed_trm[events[i].eventid],
				       "%s", events[i].name);
	}
	for (id = 1; id <= 0x1f; id++)
		KUNIT_EXPECT_EQ_MSG(test, count[id], 1U, "eventid 0x%02x", id);
	KUNIT_EXPECT_EQ(test, primaries, 31U);

	/* The table's own promise: the first 31 are the primaries in order */
	for (i = 0; i < CMN_HNF_NUM_ENCODINGS && i < ARRAY_SIZE(events); i++) {
		KUNIT_EXPECT_TRUE_MSG(test, is_primary(&events[i]), "%s", events[i].name);
		KUNIT_EXPECT_EQ_MSG(test, events[i].eventid, (int)i + 1, "%s", events[i].name);
	}
}

/* Names are unique, non-empty, sysfs-friendly; no alias is called "cycles" */
static void cmn_hnf_test_events_names(struct kunit *test)
{
	unsigned int i, j;
	const char *c;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		KUNIT_EXPECT_GT(test, strlen(events[i].name), 0UL);
		for (c = events[i].name; *c; c++)
			KUNIT_EXPECT_TRUE_MSG(test, (*c >= 'a' && *c <= 'z') ||
					      (*c >= '0' && *c <= '9') || *c == '_',
					      "%s", events[i].name);
		KUNIT_EXPECT_STRNEQ(test, events[i].name, "cycles");
		KUNIT_EXPECT_STRNEQ(test, events[i].name, CMN_HNF_DTC_CYCLES_NAME);
		KUNIT_EXPECT_GT_MSG(test, strlen(events[i].desc), 0UL, "%s", events[i].name);
		for (j = i + 1; j < ARRAY_SIZE(events); j++)
			KUNIT_EXPECT_STRNEQ(test, events[i].name, events[j].name);
	}
	KUNIT_EXPECT_STREQ(test, CMN_HNF_DTC_CYCLES_NAME, "dtc_cycles");
}

/* Synonyms point at an encoding that has a primary entry */
static void cmn_hnf_test_events_synonyms(struct kunit *test)
{
	unsigned int i, j, synonyms = 0;
	bool found;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (is_primary(&events[i]))
			continue;
		synonyms++;
		found = false;
		for (j = 0; j < ARRAY_SIZE(events); j++)
			if (is_primary(&events[j]) && events[j].eventid == events[i].eventid)
				found = true;
		KUNIT_EXPECT_TRUE_MSG(test, found, "%s -> 0x%x", events[i].name,
				      events[i].eventid);
	}
	KUNIT_EXPECT_EQ(test, synonyms, (unsigned int)ARRAY_SIZE(events) - 31);
}

/*
 * Occupancy filters only on 0x0f, only 0..4, and all five classes have an
 * alias; every other event has no filter.
 */
static void cmn_hnf_test_events_occupancy(struct kunit *test)
{
	unsigned int classes[CMN_HNF_OCCUP_NR] = {};
	unsigned int i, o;

	KUNIT_EXPECT_EQ(test, CMN_HNF_EVENT_OCCUPANCY, 0x0f);
	KUNIT_EXPECT_EQ(test, CMN_HNF_OCCUP_NR, 5);
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		if (events[i].eventid != 0x0f) {
			KUNIT_EXPECT_EQ_MSG(test, events[i].occupid, CMN_HNF_NO_OCCUP,
					    "%s", events[i].name);
			continue;
		}
		KUNIT_ASSERT_GE_MSG(test, events[i].occupid, 0, "%s", events[i].name);
		KUNIT_ASSERT_LE_MSG(test, events[i].occupid, 4, "%s", events[i].name);
		classes[events[i].occupid]++;
	}
	for (o = 0; o < CMN_HNF_OCCUP_NR; o++)
		KUNIT_EXPECT_GE_MSG(test, classes[o], 1U, "occupancy class %u", o);
}

/* Every entry, written as its sysfs alias would be, decodes to itself */
static void cmn_hnf_test_events_decode(struct kunit *test)
{
	struct cmn_hnf_evsel sel;
	unsigned int i;
	u64 config;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		config = FIELD_PREP(CMN_HNF_CONFIG_TYPE, CMN_HNF_TYPE_HNF) |
			 FIELD_PREP(CMN_HNF_CONFIG_EVENTID, events[i].eventid);
		if (events[i].occupid != CMN_HNF_NO_OCCUP)
			config |= FIELD_PREP(CMN_HNF_CONFIG_OCCUPID, events[i].occupid);
		KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_decode_config(config, &sel), 0,
				    "%s", events[i].name);
		KUNIT_EXPECT_FALSE(test, sel.cycles);
		KUNIT_EXPECT_EQ(test, (int)sel.eventid, events[i].eventid);
		KUNIT_EXPECT_EQ(test, (int)sel.occupid,
				events[i].occupid == CMN_HNF_NO_OCCUP ? 0 : events[i].occupid);
	}
}

/*
 * The HN-F aliases the kernel's arm_cmn PMU publishes on CMN-600
 * (drivers/perf/arm-cmn.c: CMN_EVENT_HNF() prefixes "hnf_", and the
 * occupancy event fans out into five occupid variants), with the encodings
 * of the register description (seed 003). Written out here, not derived
 * from the table: each must be in the table with exactly this encoding.
 */
static const struct {
	const char *name;
	int eventid;
	int occupid;
} arm_cmn_names[] = {
	{ "hnf_cache_miss", 0x01, -1 },
	{ "hnf_slc_sf_cache_access", 0x02, -1 },
	{ "hnf_cache_fill", 0x03, -1 },
	{ "hnf_pocq_retry", 0x04, -1 },
	{ "hnf_pocq_reqs_recvd", 0x05, -1 },
	{ "hnf_sf_hit", 0x06, -1 },
	{ "hnf_sf_evictions", 0x07, -1 },
	{ "hnf_dir_snoops_sent", 0x08, -1 },
	{ "hnf_brd_snoops_sent", 0x09, -1 },
	{ "hnf_slc_eviction", 0x0a, -1 },
	{ "hnf_slc_fill_invalid_way", 0x0b, -1 },
	{ "hnf_mc_retries", 0x0c, -1 },
	{ "hnf_mc_reqs", 0x0d, -1 },
	{ "hnf_qos_hh_retry", 0x0e, -1 },
	{ "hnf_qos_pocq_occupancy_all", 0x0f, 0 },
	{ "hnf_qos_pocq_occupancy_read", 0x0f, 1 },
	{ "hnf_qos_pocq_occupancy_write", 0x0f, 2 },
	{ "hnf_qos_pocq_occupancy_atomic", 0x0f, 3 },
	{ "hnf_qos_pocq_occupancy_stash", 0x0f, 4 },
	{ "hnf_pocq_addrhaz", 0x10, -1 },
	{ "hnf_pocq_atomic_addrhaz", 0x11, -1 },
	{ "hnf_ld_st_swp_adq_full", 0x12, -1 },
	{ "hnf_cmp_adq_full", 0x13, -1 },
	{ "hnf_txdat_stall", 0x14, -1 },
	{ "hnf_txrsp_stall", 0x15, -1 },
	{ "hnf_seq_full", 0x16, -1 },
	{ "hnf_seq_hit", 0x17, -1 },
	{ "hnf_snp_sent", 0x18, -1 },
	{ "hnf_sfbi_dir_snp_sent", 0x19, -1 },
	{ "hnf_sfbi_brd_snp_sent", 0x1a, -1 },
	{ "hnf_snp_sent_untrk", 0x1b, -1 },
	{ "hnf_intv_dirty", 0x1c, -1 },
	{ "hnf_stash_snp_sent", 0x1d, -1 },
	{ "hnf_stash_data_pull", 0x1e, -1 },
	{ "hnf_snp_fwded", 0x1f, -1 },
};

/*
 * Every arm_cmn name is an alias with arm_cmn's encoding, unscaled, and
 * no other alias carries the prefix.
 */
static void cmn_hnf_test_events_arm_cmn_names(struct kunit *test)
{
	unsigned int i, j, prefixed = 0;
	int occ;

	for (i = 0; i < ARRAY_SIZE(arm_cmn_names); i++) {
		for (j = 0; j < ARRAY_SIZE(events); j++)
			if (!strcmp(events[j].name, arm_cmn_names[i].name))
				break;
		KUNIT_ASSERT_LT_MSG(test, j, (unsigned int)ARRAY_SIZE(events),
				    "%s missing", arm_cmn_names[i].name);
		occ = arm_cmn_names[i].occupid < 0 ? CMN_HNF_NO_OCCUP :
						     arm_cmn_names[i].occupid;
		KUNIT_EXPECT_EQ_MSG(test, events[j].eventid, arm_cmn_names[i].eventid,
				    "%s", events[j].name);
		KUNIT_EXPECT_EQ_MSG(test, events[j].occupid, occ, "%s", events[j].name);
		KUNIT_EXPECT_STREQ_MSG(test, events[j].scale, "", "%s", events[j].name);
		KUNIT_EXPECT_STREQ_MSG(test, events[j].unit, "", "%s", events[j].name);
	}
	for (j = 0; j < ARRAY_SIZE(events); j++)
		if (!strncmp(events[j].name, "hnf_", 4))
			prefixed++;
	KUNIT_EXPECT_EQ(test, prefixed, (unsigned int)ARRAY_SIZE(arm_cmn_names));
}

static struct kunit_case cmn_hnf_events_cases[] = {
	KUNIT_CASE(cmn_hnf_test_events_one_primary_per_id),
	KUNIT_CASE(cmn_hnf_test_events_names),
	KUNIT_CASE(cmn_hnf_test_events_synonyms),
	KUNIT_CASE(cmn_hnf_test_events_occupancy),
	KUNIT_CASE(cmn_hnf_test_events_decode),
	KUNIT_CASE(cmn_hnf_test_events_arm_cmn_names),
	{}
};

struct kunit_suite cmn_hnf_events_suite = {
	.name = "arm_cmn_hnf_events",
	.test_cases = cmn_hnf_events_cases,
};
