/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HN-F event table (columns: events.h). An X-macro list without an
 * include guard: define CMN_HNF_EVENT(name, eventid, occupid, scale, unit,
 * trm, desc), include this file, undefine it. Add an event here only.
 */
CMN_HNF_EVENT(cache_miss, 0x01, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_CACHE_MISS_EVENT",
	      "SLC misses in the first lookup (high priority)")
CMN_HNF_EVENT(slc_sf_cache_access, 0x02, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SLCSF_CACHE_ACCESS_EVENT",
	      "SLC and snoop filter accesses in the first access (high priority)")
CMN_HNF_EVENT(cache_fill, 0x03, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_CACHE_FILL_EVENT",
	      "All cache line allocations into the SLC")
CMN_HNF_EVENT(pocq_retry, 0x04, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_POCQ_RETRY_EVENT",
	      "Requests retried by the HN-F")
CMN_HNF_EVENT(pocq_reqs_recvd, 0x05, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_POCQ_REQS_RECVD_EVENT",
	      "Requests received by the HN-F")
CMN_HNF_EVENT(sf_hit, 0x06, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SF_HIT_EVENT",
	      "Snoop filter hits")
CMN_HNF_EVENT(sf_evictions, 0x07, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SF_EVICTIONS_EVENT",
	      "Cache invalidations started by snoop filter evictions")
CMN_HNF_EVENT(dir_snoops_sent, 0x08, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_DIR_SNOOPS_SENT_EVENT",
	      "Directed snoops sent, not counting SF back-invalidations")
CMN_HNF_EVENT(brd_snoops_sent, 0x09, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_DIR_SNOOPS_SENTEVENT",
	      "Multicast snoops sent, not counting SF back-invalidations")
CMN_HNF_EVENT(slc_eviction, 0x0a, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SLC_EVICTION_EVENT",
	      "SLC evictions of dirty lines")
CMN_HNF_EVENT(slc_fill_invalid_way, 0x0b, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SLC_FILL_INVALID_WAY_EVENT",
	      "SLC fills into an invalid way")
CMN_HNF_EVENT(mc_retries, 0x0c, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_MC_RETRIES_EVENT",
	      "Transactions retried by the memory controller")
CMN_HNF_EVENT(mc_reqs, 0x0d, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_MC_REQS_EVENT",
	      "Requests sent to the memory controller")
CMN_HNF_EVENT(qos_hh_retry, 0x0e, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_QOS_HH_RETRY_EVENT",
	      "HighHigh priority requests protocol-retried at the HN-F")
CMN_HNF_EVENT(pocq_occupancy, 0x0f, 0, "", "",
	      "PMU_HN_POCQ_OCCUPANCY_EVENT",
	      "POCQ occupancy summed every cycle, all requests")
CMN_HNF_EVENT(pocq_addrhaz, 0x10, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_POCQ_ADDRHAZ_EVENT",
	      "POCQ address hazards on allocation")
CMN_HNF_EVENT(pocq_atomics_addrhaz, 0x11, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_POCQ_ATOMICS_ADDRHAZ_EVENT",
	      "POCQ address hazards on allocation of atomic operations")
CMN_HNF_EVENT(ld_st_swp_adq_full, 0x12, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_LD_ST_SWP_ADQ_FULL_EVENT",
	      "ADQ full for load, store or swap atomics while the POCQ has work pending")
CMN_HNF_EVENT(cmp_adq_full, 0x13, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_CMP_ADQ_FULL_EVENT",
	      "ADQ full for compare atomics while the POCQ has work pending")
CMN_HNF_EVENT(txdat_stall, 0x14, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_TXDAT_STALL_EVENT",
	      "A TXDAT flit was pending with no credit to send it")
CMN_HNF_EVENT(txrsp_stall, 0x15, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_TXRSP_STALL_EVENT",
	      "A TXRSP flit was pending with no credit to send it")
CMN_HNF_EVENT(seq_full, 0x16, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SEQ_FULL_EVENT",
	      "Requests replayed in the SLC pipe because the SEQ was full")
CMN_HNF_EVENT(seq_hit, 0x17, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SEQ_HIT_EVENT",
	      "Requests in the SLC that hit a pending SF eviction in the SEQ")
CMN_HNF_EVENT(snp_sent, 0x18, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SNP_SENT_EVENT",
	      "All snoops sent: directed, multicast and SF back-invalidation")
CMN_HNF_EVENT(sfbi_dir_snp_sent, 0x19, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SFBI_DIR_SNP_SENT_EVENT",
	      "Directed snoops sent for SF back-invalidations")
CMN_HNF_EVENT(sfbi_brd_snp_sent, 0x1a, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SFBI_BRD_SNP_SENT_EVENT",
	      "Multicast snoops sent for SF back-invalidations")
CMN_HNF_EVENT(snp_sent_untrk, 0x1b, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SNP_SENT_UNTRK_EVENT",
	      "Snoops sent because of untracked RN-Fs")
CMN_HNF_EVENT(intv_dirty, 0x1c, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_INTV_DIRTY_EVENT",
	      "SF back-invalidations answered with dirty data from the RN")
CMN_HNF_EVENT(stash_snp_sent, 0x1d, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_STASH_SNP_SENT_EVENT",
	      "Stash snoops sent")
CMN_HNF_EVENT(stash_data_pull, 0x1e, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_STASH_DATA_PULL_EVENT",
	      "Stash snoops that made the RN pull the data")
CMN_HNF_EVENT(snp_fwded, 0x1f, CMN_HNF_NO_OCCUP, "", "",
	      "PMU_HN_SNP_FWDED_EVENT",
	      "Data-forwarding snoops sent")
CMN_HNF_EVENT(slc_miss, 0x01, CMN_HNF_NO_OCCUP, "", "", "",
	      "SLC misses (synonym of cache_miss)")
CMN_HNF_EVENT(slc_access, 0x02, CMN_HNF_NO_OCCUP, "", "", "",
	      "SLC and snoop filter lookups (synonym of slc_sf_cache_access)")
CMN_HNF_EVENT(slc_fill, 0x03, CMN_HNF_NO_OCCUP, "", "", "",
	      "SLC allocations (synonym of cache_fill)")
CMN_HNF_EVENT(slc_dirty_eviction, 0x0a, CMN_HNF_NO_OCCUP, "", "", "",
	      "Dirty SLC evictions (synonym of slc_eviction)")
CMN_HNF_EVENT(mc_bytes, 0x0d, CMN_HNF_NO_OCCUP, "64", "Bytes", "",
	      "Memory controller traffic at 64 bytes per request")
CMN_HNF_EVENT(pocq_occupancy_all, 0x0f, 0, "", "", "",
	      "POCQ occupancy summed every cycle, all requests")
CMN_HNF_EVENT(pocq_occupancy_read, 0x0f, 1, "", "", "",
	      "POCQ occupancy summed every cycle, read requests")
CMN_HNF_EVENT(pocq_occupancy_write, 0x0f, 2, "", "", "",
	      "POCQ occupancy summed every cycle, write requests")
CMN_HNF_EVENT(pocq_occupancy_atomic, 0x0f, 3, "", "", "",
	      "POCQ occupancy summed every cycle, atomic requests")
CMN_HNF_EVENT(pocq_occupancy_stash, 0x0f, 4, "", "", "",
	      "POCQ occupancy summed every cycle, stash requests")
/* arm_cmn's names (arm_cmn_<n>/hnf_<name>/), the encodings of those in desc */
CMN_HNF_EVENT(hnf_cache_miss, 0x01, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of cache_miss")
CMN_HNF_EVENT(hnf_slc_sf_cache_access, 0x02, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of slc_sf_cache_access")
CMN_HNF_EVENT(hnf_cache_fill, 0x03, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of cache_fill")
CMN_HNF_EVENT(hnf_pocq_retry, 0x04, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of pocq_retry")
CMN_HNF_EVENT(hnf_pocq_reqs_recvd, 0x05, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of pocq_reqs_recvd")
CMN_HNF_EVENT(hnf_sf_hit, 0x06, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of sf_hit")
CMN_HNF_EVENT(hnf_sf_evictions, 0x07, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of sf_evictions")
CMN_HNF_EVENT(hnf_dir_snoops_sent, 0x08, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of dir_snoops_sent")
CMN_HNF_EVENT(hnf_brd_snoops_sent, 0x09, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of brd_snoops_sent")
CMN_HNF_EVENT(hnf_slc_eviction, 0x0a, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of slc_eviction")
CMN_HNF_EVENT(hnf_slc_fill_invalid_way, 0x0b, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of slc_fill_invalid_way")
CMN_HNF_EVENT(hnf_mc_retries, 0x0c, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of mc_retries")
CMN_HNF_EVENT(hnf_mc_reqs, 0x0d, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of mc_reqs")
CMN_HNF_EVENT(hnf_qos_hh_retry, 0x0e, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of qos_hh_retry")
CMN_HNF_EVENT(hnf_qos_pocq_occupancy_all, 0x0f, 0, "", "", "",
	      "arm_cmn name of pocq_occupancy_all")
CMN_HNF_EVENT(hnf_qos_pocq_occupancy_read, 0x0f, 1, "", "", "",
	      "arm_cmn name of pocq_occupancy_read")
CMN_HNF_EVENT(hnf_qos_pocq_occupancy_write, 0x0f, 2, "", "", "",
	      "arm_cmn name of pocq_occupancy_write")
CMN_HNF_EVENT(hnf_qos_pocq_occupancy_atomic, 0x0f, 3, "", "", "",
	      "arm_cmn name of pocq_occupancy_atomic")
CMN_HNF_EVENT(hnf_qos_pocq_occupancy_stash, 0x0f, 4, "", "", "",
	      "arm_cmn name of pocq_occupancy_stash")
CMN_HNF_EVENT(hnf_pocq_addrhaz, 0x10, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of pocq_addrhaz")
CMN_HNF_EVENT(hnf_pocq_atomic_addrhaz, 0x11, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of pocq_atomics_addrhaz")
CMN_HNF_EVENT(hnf_ld_st_swp_adq_full, 0x12, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of ld_st_swp_adq_full")
CMN_HNF_EVENT(hnf_cmp_adq_full, 0x13, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of cmp_adq_full")
CMN_HNF_EVENT(hnf_txdat_stall, 0x14, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of txdat_stall")
CMN_HNF_EVENT(hnf_txrsp_stall, 0x15, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of txrsp_stall")
CMN_HNF_EVENT(hnf_seq_full, 0x16, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of seq_full")
CMN_HNF_EVENT(hnf_seq_hit, 0x17, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of seq_hit")
CMN_HNF_EVENT(hnf_snp_sent, 0x18, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of snp_sent")
CMN_HNF_EVENT(hnf_sfbi_dir_snp_sent, 0x19, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of sfbi_dir_snp_sent")
CMN_HNF_EVENT(hnf_sfbi_brd_snp_sent, 0x1a, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of sfbi_brd_snp_sent")
CMN_HNF_EVENT(hnf_snp_sent_untrk, 0x1b, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of snp_sent_untrk")
CMN_HNF_EVENT(hnf_intv_dirty, 0x1c, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of intv_dirty")
CMN_HNF_EVENT(hnf_stash_snp_sent, 0x1d, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of stash_snp_sent")
CMN_HNF_EVENT(hnf_stash_data_pull, 0x1e, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of stash_data_pull")
CMN_HNF_EVENT(hnf_snp_fwded, 0x1f, CMN_HNF_NO_OCCUP, "", "", "",
	      "arm_cmn name of snp_fwded")
