// SPDX-License-Identifier: GPL-2.0
/*
 * Invariants of the event table (include/arm_cmn_hnf/events.h), expanded
 * here into a plain array, checked against the 31 encodings of the
 * register description (seed 003) written out independently below, and
 * against the tests' own alias list (tools/testing/hnf-aliases.list, the
 * same list the e2e tests compare sysfs with), turned into
 * hnf_aliases_gen.h by tools/testing/gen-aliases-h.sh at build time.
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

struct cmn_hnf_list_alias {
	const char *name;
	int eventid;
	int occupid;
	const char *scale;
	const char *unit;
	int since;
};

/* The tests' independent list: every alias arm_cmn_hnf must publish */
static const struct cmn_hnf_list_alias list[] = {
#define CMN_HNF_LIST_ALIAS(_name, _id, _occ, _scale, _unit, _since) \
	{ #_name, _id, _occ, _scale, _unit, _since },
#include "hnf_aliases_gen.h"
#undef CMN_HNF_LIST_ALIAS
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
 * The table and the independent list hold the same aliases, with the same
 * encoding, occupancy class, scale and unit: a missing, extra or wrongly
 * encoded alias fails.
 */
static void cmn_hnf_test_events_match_list(struct kunit *test)
{
	unsigned int i, j, found;

	KUNIT_EXPECT_GT(test, ARRAY_SIZE(list), 0UL);
	for (i = 0; i < ARRAY_SIZE(events); i++) {
		found = 0;
		for (j = 0; j < ARRAY_SIZE(list); j++) {
			if (strcmp(events[i].name, list[j].name))
				continue;
			found++;
			KUNIT_EXPECT_EQ_MSG(test, events[i].eventid, list[j].eventid,
					    "%s", events[i].name);
			KUNIT_EXPECT_EQ_MSG(test, events[i].occupid, list[j].occupid,
					    "%s", events[i].name);
			KUNIT_EXPECT_STREQ_MSG(test, events[i].scale, list[j].scale,
					       "%s", events[i].name);
			KUNIT_EXPECT_STREQ_MSG(test, events[i].unit, list[j].unit,
					       "%s", events[i].name);
		}
		KUNIT_EXPECT_EQ_MSG(test, found, 1U, "%s: not in the test list (extra alias)",
				    events[i].name);
	}
	for (j = 0; j < ARRAY_SIZE(list); j++) {
		found = 0;
		for (i = 0; i < ARRAY_SIZE(events); i++)
			if (!strcmp(events[i].name, list[j].name))
				found++;
		KUNIT_EXPECT_EQ_MSG(test, found, 1U, "%s: missing from the event table",
				    list[j].name);
	}
}

static struct kunit_case cmn_hnf_events_cases[] = {
	KUNIT_CASE(cmn_hnf_test_events_one_primary_per_id),
	KUNIT_CASE(cmn_hnf_test_events_names),
	KUNIT_CASE(cmn_hnf_test_events_synonyms),
	KUNIT_CASE(cmn_hnf_test_events_occupancy),
	KUNIT_CASE(cmn_hnf_test_events_decode),
	KUNIT_CASE(cmn_hnf_test_events_match_list),
	{}
};

struct kunit_suite cmn_hnf_events_suite = {
	.name = "arm_cmn_hnf_events",
	.test_cases = cmn_hnf_events_cases,
};
