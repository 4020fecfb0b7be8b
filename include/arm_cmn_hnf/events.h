/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HN-F event table: the single source of every event name, encoding,
 * unit and description. The sysfs aliases, event validation, KUnit, the
 * tools and the documentation all expand this list; add an event here and
 * nowhere else.
 *
 * This header has no kernel dependencies so that userspace can expand it.
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
 * encoding; synonyms follow. 0x09 is PMU_HN_DIR_SNOOPS_SENTEVENT in the TRM,
 * a duplicate of 0x08's name for the multicast (broadcast) snoop count, so it
 * is named brd_snoops_sent here.
 */
#ifndef ARM_CMN_HNF_EVENTS_H
#define ARM_CMN_HNF_EVENTS_H

#define CMN_HNF_NO_OCCUP	(-1)
#define CMN_HNF_EVENT_OCCUPANCY	0x0f
#define CMN_HNF_EVENT_MAX	0x1f
#define CMN_HNF_NUM_ENCODINGS	31

#define CMN_HNF_EVENTS(E)						\
	E(cache_miss,		0x01, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_CACHE_MISS_EVENT",					\
	  "SLC misses in the first lookup (high priority)")		\
	E(slc_sf_cache_access,	0x02, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SLCSF_CACHE_ACCESS_EVENT",				\
	  "SLC and snoop filter accesses in the first access (high priority)") \
	E(cache_fill,		0x03, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_CACHE_FILL_EVENT",					\
	  "All cache line allocations into the SLC")			\
	E(pocq_retry,		0x04, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_POCQ_RETRY_EVENT",					\
	  "Requests retried by the HN-F")				\
	E(pocq_reqs_recvd,	0x05, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_POCQ_REQS_RECVD_EVENT",				\
	  "Requests received by the HN-F")				\
	E(sf_hit,		0x06, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SF_HIT_EVENT",					\
	  "Snoop filter hits")						\
	E(sf_evictions,		0x07, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SF_EVICTIONS_EVENT",					\
	  "Cache invalidations started by snoop filter evictions")	\
	E(dir_snoops_sent,	0x08, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_DIR_SNOOPS_SENT_EVENT",				\
	  "Directed snoops sent, not counting SF back-invalidations")	\
	E(brd_snoops_sent,	0x09, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_DIR_SNOOPS_SENTEVENT",				\
	  "Multicast snoops sent, not counting SF back-invalidations")	\
	E(slc_eviction,		0x0a, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SLC_EVICTION_EVENT",					\
	  "SLC evictions of dirty lines")				\
	E(slc_fill_invalid_way,	0x0b, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SLC_FILL_INVALID_WAY_EVENT",				\
	  "SLC fills into an invalid way")				\
	E(mc_retries,		0x0c, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_MC_RETRIES_EVENT",					\
	  "Transactions retried by the memory controller")		\
	E(mc_reqs,		0x0d, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_MC_REQS_EVENT",					\
	  "Requests sent to the memory controller")			\
	E(qos_hh_retry,		0x0e, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_QOS_HH_RETRY_EVENT",					\
	  "HighHigh priority requests protocol-retried at the HN-F")	\
	E(pocq_occupancy,	0x0f, 0, "", "",			\
	  "PMU_HN_POCQ_OCCUPANCY_EVENT",				\
	  "POCQ occupancy summed every cycle, all requests")		\
	E(pocq_addrhaz,		0x10, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_POCQ_ADDRHAZ_EVENT",					\
	  "POCQ address hazards on allocation")				\
	E(pocq_atomics_addrhaz,	0x11, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_POCQ_ATOMICS_ADDRHAZ_EVENT",				\
	  "POCQ address hazards on allocation of atomic operations")	\
	E(ld_st_swp_adq_full,	0x12, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_LD_ST_SWP_ADQ_FULL_EVENT",				\
	  "ADQ full for load, store or swap atomics while the POCQ has work pending") \
	E(cmp_adq_full,		0x13, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_CMP_ADQ_FULL_EVENT",					\
	  "ADQ full for compare atomics while the POCQ has work pending") \
	E(txdat_stall,		0x14, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_TXDAT_STALL_EVENT",					\
	  "A TXDAT flit was pending with no credit to send it")	\
	E(txrsp_stall,		0x15, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_TXRSP_STALL_EVENT",					\
	  "A TXRSP flit was pending with no credit to send it")	\
	E(seq_full,		0x16, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SEQ_FULL_EVENT",					\
	  "Requests replayed in the SLC pipe because the SEQ was full") \
	E(seq_hit,		0x17, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SEQ_HIT_EVENT",					\
	  "Requests in the SLC that hit a pending SF eviction in the SEQ") \
	E(snp_sent,		0x18, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SNP_SENT_EVENT",					\
	  "All snoops sent: directed, multicast and SF back-invalidation") \
	E(sfbi_dir_snp_sent,	0x19, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SFBI_DIR_SNP_SENT_EVENT",				\
	  "Directed snoops sent for SF back-invalidations")		\
	E(sfbi_brd_snp_sent,	0x1a, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SFBI_BRD_SNP_SENT_EVENT",				\
	  "Multicast snoops sent for SF back-invalidations")		\
	E(snp_sent_untrk,	0x1b, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SNP_SENT_UNTRK_EVENT",				\
	  "Snoops sent because of untracked RN-Fs")			\
	E(intv_dirty,		0x1c, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_INTV_DIRTY_EVENT",					\
	  "SF back-invalidations answered with dirty data from the RN") \
	E(stash_snp_sent,	0x1d, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_STASH_SNP_SENT_EVENT",				\
	  "Stash snoops sent")						\
	E(stash_data_pull,	0x1e, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_STASH_DATA_PULL_EVENT",				\
	  "Stash snoops that made the RN pull the data")		\
	E(snp_fwded,		0x1f, CMN_HNF_NO_OCCUP, "", "",		\
	  "PMU_HN_SNP_FWDED_EVENT",					\
	  "Data-forwarding snoops sent")				\
	E(slc_miss,		0x01, CMN_HNF_NO_OCCUP, "", "", "",	\
	  "SLC misses (synonym of cache_miss)")				\
	E(slc_access,		0x02, CMN_HNF_NO_OCCUP, "", "", "",	\
	  "SLC and snoop filter lookups (synonym of slc_sf_cache_access)") \
	E(slc_fill,		0x03, CMN_HNF_NO_OCCUP, "", "", "",	\
	  "SLC allocations (synonym of cache_fill)")			\
	E(slc_dirty_eviction,	0x0a, CMN_HNF_NO_OCCUP, "", "", "",	\
	  "Dirty SLC evictions (synonym of slc_eviction)")		\
	E(mc_bytes,		0x0d, CMN_HNF_NO_OCCUP, "64", "Bytes", "", \
	  "Memory controller traffic at 64 bytes per request")		\
	E(pocq_occupancy_all,	0x0f, 0, "", "", "",			\
	  "POCQ occupancy summed every cycle, all requests")		\
	E(pocq_occupancy_read,	0x0f, 1, "", "", "",			\
	  "POCQ occupancy summed every cycle, read requests")		\
	E(pocq_occupancy_write,	0x0f, 2, "", "", "",			\
	  "POCQ occupancy summed every cycle, write requests")		\
	E(pocq_occupancy_atomic, 0x0f, 3, "", "", "",			\
	  "POCQ occupancy summed every cycle, atomic requests")		\
	E(pocq_occupancy_stash,	0x0f, 4, "", "", "",			\
	  "POCQ occupancy summed every cycle, stash requests")

/* The DTC cycle counter: config type=0x3. Deliberately not called "cycles". */
#define CMN_HNF_DTC_CYCLES_NAME	"dtc_cycles"
#define CMN_HNF_DTC_CYCLES_DESC	"Cycles of the mesh clock, counted by DTC0"

#endif /* ARM_CMN_HNF_EVENTS_H */
