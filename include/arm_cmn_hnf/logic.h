/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the CMN-600 HN-F PMU driver: no MMIO, no perf structures.
 *
 * Everything here works on plain values so that KUnit can test it on any
 * kernel, and so that the hardware layer (hw.c) and the perf glue (pmu.c)
 * only move values between these functions and the registers.
 */
#ifndef ARM_CMN_HNF_LOGIC_H
#define ARM_CMN_HNF_LOGIC_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/types.h>

#include <arm_cmn_hnf/regs.h>
#include <arm_cmn_hnf/events.h>

/* The perf ABI: attr.config. The sysfs format files are printed from these. */
#define CMN_HNF_CONFIG_EVENTID		GENMASK_ULL(7, 0)
#define CMN_HNF_CONFIG_OCCUPID		GENMASK_ULL(11, 8)
#define CMN_HNF_CONFIG_BYNODEID		BIT_ULL(12)
#define CMN_HNF_CONFIG_NODEID		GENMASK_ULL(31, 16)
#define CMN_HNF_CONFIG_TYPE		GENMASK_ULL(35, 32)

/* Values of the type field (CMN node type codes, 0 meaning HN-F) */
#define CMN_HNF_TYPE_DEFAULT		0x0
#define CMN_HNF_TYPE_DTC		0x3
#define CMN_HNF_TYPE_HNF		0x5

/* Limits of CMN-600 (8x8 mesh, 2 ports of 2 devices per XP, 4 DTCs) */
#define CMN_HNF_MAX_DIM			8
#define CMN_HNF_MAX_XPS			(CMN_HNF_MAX_DIM * CMN_HNF_MAX_DIM)
#define CMN_HNF_MAX_HNFS		128
#define CMN_HNF_MAX_DTCS		4
#define CMN_HNF_DTM_COUNTERS		4
#define CMN_HNF_HNF_SLOTS		4
#define CMN_HNF_DTC_COUNTERS		8
/* Discovery refuses an XP with more child pointers than this */
#define CMN_HNF_MAX_XP_CHILDREN		16

/* pmu_occup1_id values */
enum cmn_hnf_occup {
	CMN_HNF_OCCUP_ALL,
	CMN_HNF_OCCUP_READ,
	CMN_HNF_OCCUP_WRITE,
	CMN_HNF_OCCUP_ATOMIC,
	CMN_HNF_OCCUP_STASH,
	CMN_HNF_OCCUP_NR,
};

/**
 * struct cmn_hnf_evsel - attr.config decoded and validated
 * @cycles:	DTC cycle counter (all other fields zero)
 * @eventid:	HN-F event id, 1..0x1f
 * @occupid:	occupancy filter, only for the occupancy event
 * @bynodeid:	count one HN-F only
 * @nodeid:	that HN-F's node id
 */
struct cmn_hnf_evsel {
	bool cycles;
	u8 eventid;
	u8 occupid;
	bool bynodeid;
	u16 nodeid;
};

/*
 * Decode attr.config; -EINVAL for anything outside the ABI: reserved bits,
 * an unknown type, eventid outside 1..0x1f, occupid above 4 or non-zero on
 * an event other than 0x0f, a non-zero nodeid without bynodeid, or any
 * field but type on the cycle counter.
 */
int cmn_hnf_decode_config(u64 config, struct cmn_hnf_evsel *sel);

/* The HN-F's pmu_event_sel word from four slot event ids and the filter. */
u64 cmn_hnf_encode_event_sel(const u8 ev[CMN_HNF_HNF_SLOTS], u8 occupid);

/**
 * struct cmn_hnf_dtm_cfg - one XP DTM's por_dtm_pmu_config, unpacked
 * @paired:	bit n: local counter n carries into a global counter
 * @global_num:	global counter (A..H = 0..7) of local counter n
 * @input_sel:	input select of local counter n
 */
struct cmn_hnf_dtm_cfg {
	u8 paired;
	u8 global_num[CMN_HNF_DTM_COUNTERS];
	u8 input_sel[CMN_HNF_DTM_COUNTERS];
};

/* por_dtm_pmu_config with pmu_en set and the counters as in @cfg. */
u64 cmn_hnf_encode_dtm_config(const struct cmn_hnf_dtm_cfg *cfg);

/* DTM input select for event slot @slot of device @dev on port @port. */
u8 cmn_hnf_dtm_input_sel(u8 port, u8 dev, u8 slot);

/* Node ids: (x << (3 + b)) | (y << 3) | (port << 2) | dev */
struct cmn_hnf_nid {
	u8 x, y, port, dev;
};

/* b: 2 when both dimensions are at most 4, else 3 */
unsigned int cmn_hnf_coord_bits(u8 mesh_x, u8 mesh_y);
struct cmn_hnf_nid cmn_hnf_decode_nodeid(u16 id, unsigned int coord_bits);
u16 cmn_hnf_encode_nodeid(struct cmn_hnf_nid nid, unsigned int coord_bits);

/* Discovery results */
struct cmn_hnf_xp_desc {
	u32 offset;		/* of the XP's register block from PERIPHBASE */
	u16 node_id;
	u16 logical_id;
	u8 x, y;
	u8 port_type[2];	/* port_connect_info device types */
	s8 dtc;			/* index in topo->dtc[] of a DTC on this XP, else -1 */
};

struct cmn_hnf_node_desc {
	u32 offset;
	u16 node_id;
	u16 logical_id;
	u8 xp;			/* index in topo->xp[] of the parent found by the walk */
	u8 port, dev;		/* from the node id */
};

struct cmn_hnf_topology {
	u16 part;
	u8 revision;
	u8 mesh_x, mesh_y;
	u8 coord_bits;
	unsigned int num_xps, num_hnfs, num_dtcs;
	struct cmn_hnf_xp_desc xp[CMN_HNF_MAX_XPS];
	/* sorted by logical id */
	struct cmn_hnf_node_desc hnf[CMN_HNF_MAX_HNFS];
	/* sorted by logical id: dtc[i] is DTC domain i, interrupt i */
	struct cmn_hnf_node_desc dtc[CMN_HNF_MAX_DTCS];
};

/* Reads the 64-bit register at @offset from PERIPHBASE. */
typedef u64 (*cmn_hnf_read64_fn)(void *ctx, u32 offset);

/*
 * Walk the configuration tree from the CFG node at @root. Every read stays
 * inside @size; on a broken tree, returns -ENODEV and leaves one line in
 * @why explaining what is wrong and where (-ENOMEM if the scratch bitmap
 * cannot be allocated). topo->part is CMN_PART_CMN600 for CMN-600AE too;
 * topo->xp[] is in the CFG node's child order; an HN-F's xp is the XP it
 * was found under, even when its node id names another XP.
 */
int cmn_hnf_discover(cmn_hnf_read64_fn read, void *ctx, u64 size, u32 root,
		     struct cmn_hnf_topology *topo, char *why, size_t why_len);

/* Index in topo->hnf[] of the HN-F with node id @nodeid, or -1 */
int cmn_hnf_find_hnf(const struct cmn_hnf_topology *topo, u16 nodeid);

/*
 * Counter allocation. The same function runs on the live state in add()
 * and on a scratch copy for group validation in event_init().
 */
struct cmn_hnf_alloc_state {
	u8 dtm_used[CMN_HNF_MAX_XPS];		/* bit n: DTM counter n */
	u8 slot_used[CMN_HNF_MAX_HNFS];		/* bit k: pmu_event<k>_id */
	u8 occup_val[CMN_HNF_MAX_HNFS];
	u16 occup_refs[CMN_HNF_MAX_HNFS];
	u8 global_used;		/* bit g: global counter g, on every DTC */
	bool cycles_used;
};

/* What one event asks for */
struct cmn_hnf_request {
	struct cmn_hnf_evsel sel;
	int hnf;		/* index in topo->hnf[], or -1 for all */
};

/* What it got */
struct cmn_hnf_grant {
	u8 global;
	u8 dtm_ctr[CMN_HNF_MAX_HNFS];	/* per HN-F taking part */
	u8 slot[CMN_HNF_MAX_HNFS];
};

/*
 * 0 and the grant, or -ENOSPC with @state unchanged (-EINVAL if req->hnf is
 * not an index in topo->hnf[]). grant->dtm_ctr[h] and grant->slot[h] are
 * set for every HN-F h taking part and need not be equal; grant->global is
 * claimed on every DTC. A cycles request only claims the cycle counter.
 */
int cmn_hnf_alloc(struct cmn_hnf_alloc_state *state,
		  const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_request *req, struct cmn_hnf_grant *grant);
void cmn_hnf_free(struct cmn_hnf_alloc_state *state,
		  const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_request *req,
		  const struct cmn_hnf_grant *grant);

/*
 * Counter arithmetic. Each participating HN-F's 16-bit DTM counter carries
 * into the event's 32-bit global counter on its DTC. Given two consistent
 * samples, the number of events between them is exact as long as no global
 * counter wrapped twice in between (the overflow interrupt guarantees it).
 */
struct cmn_hnf_sample {
	u32 global[CMN_HNF_MAX_DTCS];
	u16 local[CMN_HNF_MAX_HNFS];
};

u64 cmn_hnf_count_delta(const struct cmn_hnf_sample *prev,
			const struct cmn_hnf_sample *cur,
			unsigned int num_dtcs, unsigned int num_locals);

/* The 40-bit cycle counter */
u64 cmn_hnf_cycles_delta(u64 prev, u64 cur);

#endif /* ARM_CMN_HNF_LOGIC_H */
