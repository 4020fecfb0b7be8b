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

/* Combined DTM counters (struct cmn_hnf_dtm_cfg.comb) */
#define CMN_HNF_COMB_01			BIT(0)	/* counters 0,1: one 32-bit counter */
#define CMN_HNF_COMB_23			BIT(1)	/* counters 2,3: one 32-bit counter */
#define CMN_HNF_COMB_ALL		BIT(2)	/* counters 0..3: one 64-bit counter */

/**
 * struct cmn_hnf_dtm_cfg - one XP DTM's por_dtm_pmu_config, unpacked
 * @paired:	bit n: local counter n carries into a global counter
 * @comb:	CMN_HNF_COMB_*: which counters are combined into wider ones;
 *		a combined counter takes the input select of its lowest
 *		counter and is never paired
 * @global_num:	global counter (A..H = 0..7) of local counter n
 * @input_sel:	input select of local counter n
 */
struct cmn_hnf_dtm_cfg {
	u8 paired;
	u8 comb;
	u8 global_num[CMN_HNF_DTM_COUNTERS];
	u8 input_sel[CMN_HNF_DTM_COUNTERS];
};

/*
 * Where the carries of each local counter of @cfg go, as a group read sums
 * them: byte n is the global counter that local counter n is paired with
 * (the low 3 bits of global_num[n], the width of the register field), or
 * CMN_HNF_ROUTE_NONE when it is not paired (it carries nowhere).
 */
#define CMN_HNF_ROUTE_NONE		CMN_HNF_DTC_COUNTERS
u32 cmn_hnf_dtm_route(const struct cmn_hnf_dtm_cfg *cfg);

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
 * DTM-local counting. A bynodeid event has one HN-F, so it can count in a
 * combined counter of that HN-F's XP DTM (two local counters as one 32-bit
 * counter, or all four as one 64-bit counter) that carries into nothing:
 * no global counter, no overflow interrupt. A timer reads such counters
 * every CMN_HNF_POLL_MS, so a counter may only be as narrow as the events
 * it can see in one period allow. The worst cases below are assumptions
 * written from the hardware facts, see Documentation/internals.rst:
 *
 * - occupancy (event 0x0f) adds the number of POCQ entries in use every
 *   cycle, at most 127 (por_hnf_unit_info's num_poc_entries is 7 bits);
 * - any other HN-F event adds at most CMN_HNF_MAX_EVENT_RATE per cycle;
 * - the mesh clock is at most CMN_HNF_MAX_MESH_MHZ.
 *
 * A 32-bit counter is allowed when one period's worst case stays below
 * 2^31, half its range, so that a timer running up to one period late still
 * sees every wrap; a 64-bit counter is always allowed.
 */
#define CMN_HNF_POLL_MS			100
#define CMN_HNF_MAX_OCCUPANCY		127
#define CMN_HNF_MAX_EVENT_RATE		4
#define CMN_HNF_MAX_MESH_MHZ		4000ULL

/* Widths a DTM-local counter may have (struct cmn_hnf_request.widths) */
#define CMN_HNF_WIDTH_32		BIT(0)
#define CMN_HNF_WIDTH_64		BIT(1)

/* Largest number of events @sel can add to one counter in @poll_ms */
u64 cmn_hnf_worst_case(const struct cmn_hnf_evsel *sel, unsigned int poll_ms);

/*
 * CMN_HNF_WIDTH_* mask of the DTM-local counters that can count @sel when
 * read every @poll_ms; 0 for the cycle counter and for events that are not
 * bynodeid (those need a 16-bit counter on every HN-F and a global one).
 */
u8 cmn_hnf_local_widths(const struct cmn_hnf_evsel *sel, unsigned int poll_ms);

/*
 * Counter allocation. The same function runs on the live state in add()
 * and on a scratch copy for group validation in event_init().
 *
 * An event is placed in one of three ways (enum cmn_hnf_place):
 * GLOBAL	one 16-bit DTM counter on the XP of every HN-F taking part,
 *		each paired with the same global counter on every DTC
 *		(CMN-600 cannot tell which DTC an XP reports to);
 * LOCAL32	bynodeid only: a pair of DTM counters (0-1 or 2-3) of its
 *		HN-F's XP combined into one 32-bit counter, no global counter;
 * LOCAL64	bynodeid only: all four DTM counters of the XP as one 64-bit
 *		counter.
 * A bynodeid request with local widths takes the widest local placement
 * that fits, else GLOBAL. When its XP is full it may first make room by
 * narrowing one local event of that XP (64 to 32 bits, or to GLOBAL if a
 * global counter is free); an aggregated request may narrow 64-bit local
 * events to 32 bits on the XPs it needs. What was narrowed is reported in
 * the grant so that the caller can move those events.
 */
enum cmn_hnf_place {
	CMN_HNF_PLACE_NONE,
	CMN_HNF_PLACE_GLOBAL,
	CMN_HNF_PLACE_LOCAL32,
	CMN_HNF_PLACE_LOCAL64,
	CMN_HNF_PLACE_CYCLES,
};

/* dtm_local[] bits: what the local events of an XP hold */
#define CMN_HNF_LOCAL_PAIR(p)		BIT(p)	/* counters 2p, 2p+1: LOCAL32 */
#define CMN_HNF_LOCAL_ALL		BIT(2)	/* counters 0..3: LOCAL64 */
#define CMN_HNF_LOCAL_ALL_FIXED		BIT(3)	/* that LOCAL64 cannot be 32 bits */

struct cmn_hnf_alloc_state {
	u8 dtm_used[CMN_HNF_MAX_XPS];		/* bit n: DTM counter n */
	u8 dtm_local[CMN_HNF_MAX_XPS];		/* CMN_HNF_LOCAL_* */
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
	u8 widths;		/* CMN_HNF_WIDTH_*: local placements allowed */
};

/* An event that had to move to make room for the new one */
struct cmn_hnf_move {
	s8 xp;			/* -1: nothing moved */
	u8 pair;		/* it was LOCAL32 at this pair, or LOCAL64 (pair 0) */
	u8 global;		/* it is now GLOBAL on DTM counter 2 * pair */
};

/**
 * struct cmn_hnf_grant - what an event got
 * @place:	enum cmn_hnf_place
 * @global:	GLOBAL: the global counter index, claimed on every DTC
 * @dtm_ctr:	per HN-F taking part: its DTM counter (GLOBAL), or the lowest
 *		counter of its combined counter (LOCAL32: 0 or 2, LOCAL64: 0)
 * @slot:	per HN-F taking part: its pmu_event_sel slot
 * @narrowed:	bit x: the LOCAL64 event of XP x is now LOCAL32 at pair 0
 * @moved:	the LOCAL event that is now GLOBAL (move.xp -1: none)
 */
struct cmn_hnf_grant {
	u8 place;
	u8 global;
	u8 dtm_ctr[CMN_HNF_MAX_HNFS];
	u8 slot[CMN_HNF_MAX_HNFS];
	u64 narrowed;
	struct cmn_hnf_move moved;
};

/*
 * 0 and the grant, or -ENOSPC with @state unchanged (-EINVAL if req->hnf is
 * not an index in topo->hnf[]). grant->dtm_ctr[h] and grant->slot[h] are
 * set for every HN-F h taking part and need not be equal. A cycles request
 * only claims the cycle counter. Narrowed and moved events are already
 * accounted in @state; the caller updates their own grants.
 */
int cmn_hnf_alloc(struct cmn_hnf_alloc_state *state,
		  const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_request *req, struct cmn_hnf_grant *grant);
/* Release what @grant holds; @req must be the request that got it */
void cmn_hnf_free(struct cmn_hnf_alloc_state *state,
		  const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_request *req,
		  const struct cmn_hnf_grant *grant);

/*
 * Counter arithmetic.
 *
 * GLOBAL events: each participating HN-F's 16-bit DTM counter carries into
 * the event's 32-bit global counter on its DTC. A sample holds the global
 * counters, read first, and the sum of the 16-bit counters, read after
 * them. A carry travels from the DTM to the DTC after the local counter
 * wrapped, so a sample can miss a carry (and be 2^16 short) but can never
 * hold one whose wrap it does not show: a sample never exceeds the true
 * count. The accumulator keeps the 64-bit sum of global increments and the
 * highest value seen; a sample below it is short and adds nothing, so the
 * count never goes down.
 *
 * Overflow flags. A DTC sets a counter's pmovsr flag when the counter wraps
 * and keeps it until the driver clears it: a flag reports one wrap since it
 * was last cleared (two would need the interrupt to wait a whole period).
 * Two reads of a counter tell a wrap only when the second value is below
 * the first, and the overflow interrupt reads the counter just after each
 * wrap, so two interrupts a period apart read about the same value: the
 * difference alone loses the period. Hence, per counter and DTC:
 *
 * - a read that sees the counter go down counts that wrap, and notes it
 *   (cmn_hnf_acc.wrapped, cmn_hnf_cyc.wrapped) for the flag that reports it;
 * - a flag finds the note and takes it: the wrap is counted already;
 * - a flag with no note means the counter went a whole period round since
 *   the previous read, ending at or above where it was: the period is added.
 *
 * A period added on the flag's word alone is *unconfirmed* until the line
 * shows it is sane (an interrupt a read explains, or a pause longer than
 * the storm window, see cmn_hnf_storm_note()): a flag that does not clear
 * would add one per interrupt, and the storm that detects it takes them
 * back (cmn_hnf_acc_revoke()). Each flag is cleared before a baseline is
 * read, so no flag reports a wrap from before the baseline, but a flag can
 * still be seen set after the baseline for a wrap it includes: one that
 * came between the clear and the reads, or one whose write-one-to-clear
 * had not landed yet when its pending interrupt ran. So the flags are read
 * once more after the baseline: one set then (cmn_hnf_acc.at_base) adds no
 * period when the handler finds it without a read that saw the wrap; a
 * wrap after the baseline is seen by that read (the counter went below
 * the baseline). A status read that shows the flag clear ends that.
 */
struct cmn_hnf_sample {
	u32 global[CMN_HNF_MAX_DTCS];
	u32 local;		/* sum of the event's 16-bit DTM counters */
};

/**
 * struct cmn_hnf_acc - the running state of one GLOBAL event
 * @last:	the previous sample's global counters
 * @carries:	global increments since the base sample, all DTCs
 * @high:	highest (carries << 16) + local seen
 * @wrapped:	bit d: a read saw DTC d's global counter go through zero and
 *		no overflow flag has claimed that wrap yet
 * @unconfirmed: per DTC: whole periods added on an overflow flag alone and
 *		not yet confirmed
 * @at_base:	bit d: DTC d's flag was set when read right after the
 *		baseline, and no status read has shown it clear since
 */
struct cmn_hnf_acc {
	struct cmn_hnf_sample last;
	u64 carries;
	u64 high;
	u8 wrapped;
	u8 at_base;
	u16 unconfirmed[CMN_HNF_MAX_DTCS];
};

/*
 * Sum of the 16-bit fields of @val selected by @fields (bit n: field n),
 * without a branch: it runs once per XP on every read.
 */
static inline u32 cmn_hnf_sum_fields(u64 val, u8 fields)
{
	/* entry m: all ones in field n for each bit n of m */
	static const u64 lanes[16] = {
		0x0000000000000000ULL, 0x000000000000ffffULL,
		0x00000000ffff0000ULL, 0x00000000ffffffffULL,
		0x0000ffff00000000ULL, 0x0000ffff0000ffffULL,
		0x0000ffffffff0000ULL, 0x0000ffffffffffffULL,
		0xffff000000000000ULL, 0xffff00000000ffffULL,
		0xffff0000ffff0000ULL, 0xffff0000ffffffffULL,
		0xffffffff00000000ULL, 0xffffffff0000ffffULL,
		0xffffffffffff0000ULL, 0xffffffffffffffffULL,
	};
	u64 pairs;

	val &= lanes[fields & 0xf];
	/* fields 0+1 and 2+3, each sum below 2^17 in its 32-bit half */
	pairs = (val & 0x0000ffff0000ffffULL) + ((val >> 16) & 0x0000ffff0000ffffULL);
	return (u32)pairs + (u32)(pairs >> 32);
}

/*
 * Field @lane (0..3) of @val, the four 16-bit DTM counters of an XP: the
 * sum of cmn_hnf_sum_fields() when the event has that one counter on the
 * XP, in one shift.
 */
static inline u32 cmn_hnf_lane(u64 val, unsigned int lane)
{
	return (u16)(val >> (CMN_DTM_PMEVCNT_WIDTH * lane));
}

/*
 * The lane of a GLOBAL event whose XPs (@nxps of them, @fields[i] as for
 * cmn_hnf_sum_fields()) each hold one of its counters, all at the same
 * DTM counter: that counter's index. CMN_HNF_LANE_MIXED otherwise (two
 * HN-Fs of the event on one XP, or counters at different indices).
 */
#define CMN_HNF_LANE_MIXED	0xff
u8 cmn_hnf_fields_lane(const u8 *fields, unsigned int nxps);

/*
 * Group reads. A read of a group (PERF_FORMAT_GROUP) is one read
 * transaction: the core reads the leader and every active sibling, with
 * interrupts off, between start_txn() and commit_txn(). The driver then
 * samples the whole group at once: each DTC's counter pair register that
 * holds a global counter of a member, read whole (one 64-bit access for
 * two counters), all of them before any DTM counter (the order of
 * struct cmn_hnf_sample); then each XP holding a counter of a member, once
 * however many members count there; then the cycle counter if a member
 * counts cycles. Every member is sampled at the same instant, and each
 * member's sample is what its own read would have taken.
 *
 * @xps:	bit x: XP x's por_dtm_pmevcnt was read into @xp[x]
 * @pairs:	bit p: global counter pair p was read on every DTC
 * @cycles:	the DTC0 cycle counter was read into @cyc
 * @route:	the route (cmn_hnf_dtm_route()) that every XP of @xps has,
 *		or CMN_HNF_ROUTE_MIXED: cmn_hnf_group_route() sets it when
 *		@xps is planned, and it holds while the DTMs keep their
 *		configuration
 * @pair:	per DTC, per pair p: the pair register (counters 2p, 2p + 1)
 * @xp:		per XP: its four 16-bit counters
 * @cyc:	the cycle counter
 */
struct cmn_hnf_group_sample {
	u64 xps;
	u8 pairs;
	bool cycles;
	u32 route;
	u64 pair[CMN_HNF_MAX_DTCS][CMN_HNF_DTC_COUNTERS / 2];
	u64 xp[CMN_HNF_MAX_XPS];
	u64 cyc;
};

/* The pair register of global counter @global, as a @pairs bit */
static inline u8 cmn_hnf_pair_bit(unsigned int global)
{
	return BIT(global / 2);
}

/* Global counter @global out of its pair register @pair */
static inline u32 cmn_hnf_pair_counter(u64 pair, unsigned int global)
{
	return global & 1 ? FIELD_GET(CMN_DT_PMEVCNT_PAIR_ODD, pair) :
			    FIELD_GET(CMN_DT_PMEVCNT_PAIR_EVEN, pair);
}

/*
 * Entries of a group read's local sums: one per global counter, and one
 * (CMN_HNF_ROUTE_NONE) for the local counters that are not paired.
 */
#define CMN_HNF_GROUP_LOCALS		(CMN_HNF_DTC_COUNTERS + 1)

/* struct cmn_hnf_group_sample.route: the XPs do not all pair alike */
#define CMN_HNF_ROUTE_MIXED		U32_MAX

/* Set @gs->route from @dtm for the XPs in @gs->xps */
void cmn_hnf_group_route(struct cmn_hnf_group_sample *gs,
			 const struct cmn_hnf_dtm_cfg *dtm);

/*
 * The DTM counter sums of every global counter over the XPs of @gs, in one
 * pass over their words: local[g] is the sum of the local counters that
 * @dtm pairs with global counter g (as the hardware routes their carries,
 * cmn_hnf_dtm_route()) on every XP of @gs->xps, which must include all XPs
 * of the group's GLOBAL members. local[CMN_HNF_ROUTE_NONE] sums the
 * counters that are not paired and means nothing. Runs of XPs whose
 * counters pair alike are summed four counters at a time; when every XP
 * has @gs->route (cmn_hnf_group_route()), all are one run, found without
 * looking at @dtm.
 */
void cmn_hnf_group_locals(const struct cmn_hnf_group_sample *gs,
			  const struct cmn_hnf_dtm_cfg *dtm,
			  u32 local[CMN_HNF_GROUP_LOCALS]);

/* Start counting from @base */
void cmn_hnf_acc_init(struct cmn_hnf_acc *acc, const struct cmn_hnf_sample *base);

/*
 * Account @s: returns the events since the previous high mark (0 if @s is
 * short: a carry was on its way, see cmn_hnf_acc_short()).
 */
u64 cmn_hnf_acc_update(struct cmn_hnf_acc *acc, const struct cmn_hnf_sample *s,
		       unsigned int num_dtcs);

/*
 * cmn_hnf_acc_update() of the GLOBAL group member in global counter
 * @global, straight from the group sample: its counter on each of @num_dtcs
 * DTCs out of the pair registers of @gs (which must hold pair @global / 2),
 * and @local, its DTM counters' sum (cmn_hnf_group_locals()). The same
 * accounting as of the sample its own read would take at that instant.
 */
u64 cmn_hnf_acc_update_group(struct cmn_hnf_acc *acc,
			     const struct cmn_hnf_group_sample *gs,
			     unsigned int global, u32 local,
			     unsigned int num_dtcs);

/*
 * Whether the sample of the last cmn_hnf_acc_update() was short: below the
 * high mark, so it counted nothing. A question, not a second output of the
 * update, so that the read path keeps no flag in memory for it.
 */
static inline bool cmn_hnf_acc_short(const struct cmn_hnf_acc *acc)
{
	return (acc->carries << CMN_DTM_PMEVCNT_WIDTH) + acc->last.local <
	       acc->high;
}

/* The flags of @dtcs were set when read right after the baseline */
void cmn_hnf_acc_flags_at_base(struct cmn_hnf_acc *acc, u8 dtcs);
/* A status read showed the flags of @dtcs clear */
void cmn_hnf_acc_flags_clear(struct cmn_hnf_acc *acc, u8 dtcs);
/*
 * Whether the flags of @dtcs report wraps known already, read after the
 * last cmn_hnf_acc_update(): one that update saw, or one at the baseline
 */
bool cmn_hnf_acc_explained(const struct cmn_hnf_acc *acc, u8 dtcs);

/*
 * The overflow flags of the event's global counter on the DTCs in @dtcs
 * were set, read before the last cmn_hnf_acc_update(): returns the events
 * to add (a whole period, 2^48, for each flag that reports neither a wrap
 * a read saw nor one at the baseline).
 */
u64 cmn_hnf_acc_overflow(struct cmn_hnf_acc *acc, u8 dtcs);
/* The periods added on flags of @dtcs stand */
void cmn_hnf_acc_confirm(struct cmn_hnf_acc *acc, u8 dtcs);
/* Take back the unconfirmed periods of @dtcs: returns the events removed */
u64 cmn_hnf_acc_revoke(struct cmn_hnf_acc *acc, u8 dtcs);

/*
 * Events counted by a @width-bit counter (1..64) read as @prev and then
 * @cur, @ovf telling that its overflow flag reports a wrap in between that
 * @cur < @prev does not show: the difference modulo 2^width, plus one whole
 * period when the counter wrapped without going below @prev.
 */
u64 cmn_hnf_wrap_delta(u64 prev, u64 cur, unsigned int width, bool ovf);

/* LOCAL32/LOCAL64: the counter of width @width at DTM counter @ctr of @val */
u64 cmn_hnf_local_value(u64 val, unsigned int ctr, unsigned int width);
/* Events between two values of a @width-bit counter that wrapped at most once */
u64 cmn_hnf_local_delta(u64 prev, u64 cur, unsigned int width);
/*
 * A read @val of the XP's DTM counters, for the counter at @ctr of @width
 * bits last read as *@prev: returns the events since (cmn_hnf_local_delta())
 * and notes the value in *@prev. One call on the read path.
 */
u64 cmn_hnf_local_step(u64 *prev, u64 val, unsigned int ctr,
		       unsigned int width);

/* The 40-bit cycle counter */
u64 cmn_hnf_cycles_delta(u64 prev, u64 cur);

/*
 * Late polls of a LOCAL32 counter. A 32-bit local counter raises nothing
 * when it wraps, and CMN-600's DTM keeps no overflow status for it: a poll
 * that comes after more than one period of the counter (a stalled CPU,
 * long sections with interrupts off, firmware) cannot see the wraps in
 * between. The DTC0 cycle counter, read at each poll, bounds what the
 * counter can have counted since the previous poll (CMN_HNF_MAX_EVENT_RATE
 * per cycle). Within the bound the reads are exact; beyond it the missed
 * wraps are taken from the event's rate over its last unambiguous span,
 * which is exact at a steady rate and never more than the bound allows.
 *
 * @rate:	events per cycle, fixed point (CMN_HNF_RATE_SHIFT), measured
 *		over the last span of at least CMN_HNF_RATE_MIN_CYCLES that
 *		could not hide a wrap
 * @known:	@rate was measured
 */
#define CMN_HNF_RATE_SHIFT		20
#define CMN_HNF_RATE_MIN_CYCLES		BIT_ULL(16)

struct cmn_hnf_local_rate {
	u64 rate;
	bool known;
};

/* Most events a non-occupancy event can add in @cycles mesh cycles */
static inline u64 cmn_hnf_local_bound(u64 cycles)
{
	return cycles * CMN_HNF_MAX_EVENT_RATE;
}

/*
 * The reads of a LOCAL32 counter counted @seen events over a span of
 * @cycles mesh cycles (at least the span of those reads; below 2^40, the
 * width of the cycle counter that measures it). Returns the
 * events the reads missed (whole 2^32 periods) and notes the rate of an
 * unambiguous span in @r. *@late: wraps may have been missed (the span is
 * beyond one period at the worst-case rate).
 */
u64 cmn_hnf_local_missed(struct cmn_hnf_local_rate *r, u64 seen, u64 cycles,
			 bool *late);

/**
 * struct cmn_hnf_cyc - the running state of the cycles event (DTC0)
 * @prev:	the cycle counter at the last read
 * @wrapped:	a read saw it go through zero, no flag has claimed that yet
 * @unconfirmed: whole periods (2^40) added on the overflow flag alone
 * @at_base:	the flag was set when read right after the baseline, and no
 *		status read has shown it clear since (as cmn_hnf_acc.at_base)
 */
struct cmn_hnf_cyc {
	u64 prev;
	bool wrapped;
	bool at_base;
	u16 unconfirmed;
};

void cmn_hnf_cyc_init(struct cmn_hnf_cyc *cyc, u64 base);
/* A read of the cycle counter: the cycles since the previous one */
u64 cmn_hnf_cyc_update(struct cmn_hnf_cyc *cyc, u64 cur);
/* Its overflow flag was set, read before the last update: cycles to add */
u64 cmn_hnf_cyc_overflow(struct cmn_hnf_cyc *cyc);
void cmn_hnf_cyc_confirm(struct cmn_hnf_cyc *cyc);
u64 cmn_hnf_cyc_revoke(struct cmn_hnf_cyc *cyc);

/*
 * Interrupt storm detection. An overflow interrupt is explained when a read
 * saw one of the counters its status names go through zero. A line that
 * raises CMN_HNF_STORM_IRQS unexplained interrupts in a row, each within
 * CMN_HNF_STORM_WINDOW_MS of the one before, is storming (an overflow flag
 * that does not clear): the driver then stops using it and polls instead.
 * Only the pauses count, not how long the run takes, so a slow or loaded
 * CPU serving a stuck flag still sees a storm after exactly that many. A
 * genuine overflow no read explains is a counter that went a whole period
 * round between two reads: one within ten seconds of the previous would
 * take 2^48 events in ten seconds (2.8e13 a second, beyond 64 HN-Fs adding
 * 64 occupancy entries each cycle at 3 GHz), or 2^40 cycles (a 110 GHz
 * clock). Ten seconds rather than one: a storm's interrupts come back to
 * back, but a virtual CPU the host does not run sees a pause in them, which
 * would end the run and confirm the periods the stuck flag added.
 */
#define CMN_HNF_STORM_IRQS		64
#define CMN_HNF_STORM_WINDOW_MS		10000

/**
 * struct cmn_hnf_storm - storm detection state of one line
 * @count:	unexplained interrupts in a row (0: none, the line is sane)
 * @last:	time of the last of them, ms
 */
struct cmn_hnf_storm {
	unsigned int count;
	unsigned long last;
};

/*
 * Note one interrupt at @now_ms; true when the line is storming. Whatever
 * was added on the line's flags before this interrupt stands when
 * cmn_hnf_storm_fresh() is true afterwards (the unexplained run before it,
 * if any, ended).
 */
bool cmn_hnf_storm_note(struct cmn_hnf_storm *st, bool explained,
			unsigned long now_ms);
static inline bool cmn_hnf_storm_fresh(const struct cmn_hnf_storm *st)
{
	return st->count <= 1;
}

#endif /* ARM_CMN_HNF_LOGIC_H */
