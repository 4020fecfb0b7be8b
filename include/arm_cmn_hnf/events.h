/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HN-F event table, event_table.h, is the single source of every event
 * name, encoding, unit and description: the sysfs aliases, event
 * validation, KUnit, the tools and the documentation all expand it. It has
 * no kernel dependencies so that userspace can expand it. One line per
 * alias:
 *
 * CMN_HNF_EVENT(name, eventid, occupid, scale, unit, trm, desc)
 *   name     sysfs alias (no "hnf_" prefix: the PMU is HN-F only)
 *   eventid  pmu_eventN_id encoding, 0x01..0x1f
 *   occupid  pmu_occup1_id value the alias selects, or CMN_HNF_NO_OCCUP
 *   scale    perf .scale string, "" for none
 *   unit     perf .unit string, "" for none
 *   trm      the TRM mnemonic for a primary name, "" for a synonym
 *   desc     what it counts
 *
 * The first 31 entries are the primary names in encoding order, one per
 * encoding; synonyms follow, the last of them the hnf_<name> aliases of the
 * kernel's arm_cmn PMU (the only names with the prefix). 0x09 is
 * PMU_HN_DIR_SNOOPS_SENTEVENT in the TRM, a duplicate of 0x08's name for
 * the multicast (broadcast) snoop count, so it is named brd_snoops_sent.
 */
#ifndef ARM_CMN_HNF_EVENTS_H
#define ARM_CMN_HNF_EVENTS_H

#define CMN_HNF_NO_OCCUP	(-1)
#define CMN_HNF_EVENT_OCCUPANCY	0x0f
#define CMN_HNF_EVENT_MAX	0x1f
#define CMN_HNF_NUM_ENCODINGS	31

/* The DTC cycle counter: config type=0x3. Deliberately not called "cycles". */
#define CMN_HNF_DTC_CYCLES_NAME	"dtc_cycles"
#define CMN_HNF_DTC_CYCLES_DESC	"Cycles of the mesh clock, counted by DTC0"

#endif /* ARM_CMN_HNF_EVENTS_H */
