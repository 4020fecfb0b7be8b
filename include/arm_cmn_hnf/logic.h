/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the CMN-600 HN-F PMU driver, on plain values (no MMIO, no
 * perf structures) so that KUnit tests it on any kernel: attr.config, register
 * words, node ids, the discovery walk, counter allocation and arithmetic.
 */
#ifndef ARM_CMN_HNF_LOGIC_H
#define ARM_CMN_HNF_LOGIC_H

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/types.h>

#include <arm_cmn_hnf/events.h>
#include <arm_cmn_hnf/regs.h>

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

/* CMN-600: at most 8x8 XPs, 2 ports of 2 devices each, 4 DTCs */
#define CMN_HNF_MAX_DIM			8
#define CMN_HNF_MAX_XPS			(CMN_HNF_MAX_DIM * CMN_HNF_MAX_DIM)
#define CMN_HNF_MAX_HNFS		128
#define CMN_HNF_MAX_DTCS		4
#define CMN_HNF_MAX_XP_CHILDREN		16
#define CMN_HNF_DTM_COUNTERS		4
#define CMN_HNF_HNF_SLOTS		4
#define CMN_HNF_DTC_COUNTERS		8
/* Counter index of the DTC0 cycle counter, beside global counters 0..7 */
#define CMN_HNF_CYCLES			CMN_HNF_DTC_COUNTERS

/* pmu_occup1_id values: 0 all, 1 read, 2 write, 3 atomic, 4 stash */
#define CMN_HNF_OCCUP_NR		5

/**
 * struct cmn_hnf_evsel - attr.config, decoded and validated
 * @cycles:	the DTC0 cycle counter (no other field set)
 * @eventid:	HN-F event, 1..0x1f
 * @occupid:	occupancy filter (event 0x0f only)
 * @bynodeid:	count the HN-F @nodeid only
 * @nodeid:	that HN-F's node id
 */
struct cmn_hnf_evsel {
	bool cycles;
	u8 eventid;
	u8 occupid;
	bool bynodeid;
	u16 nodeid;
};

/* -EINVAL for anything outside the ABI (Documentation/arm_cmn_hnf.rst) */
int cmn_hnf_decode_config(u64 config, struct cmn_hnf_evsel *sel);

/* Register words: pmu_event_sel of an HN-F (four slots and the filter) */
u64 cmn_hnf_event_sel(const u8 ev[CMN_HNF_HNF_SLOTS], u8 occupid);

/* The DTM input select of event slot @slot of device @dev on port @port */
static inline u8 cmn_hnf_input_sel(u8 port, u8 dev, u8 slot)
{
	return CMN_DTM_INPUT_DEVICE_BASE + port * CMN_DTM_INPUT_PORT_STRIDE +
	       dev * CMN_DTM_INPUT_DEV_STRIDE + slot;
}

/*
 * por_dtm_pmu_config of an XP DTM, changed one counter at a time: pmu_en
 * is always set. A GLOBAL event's counter @n counts input @input and
 * carries into global counter @global; a LOCAL event has the four counters
 * combined into one 64-bit counter counting @input, nothing paired.
 */
#define CMN_HNF_DTM_IDLE		CMN_DTM_PMU_CONFIG_PMU_EN

/* counter n's fields are counter 0's, one stride up per counter */
static inline u64 cmn_hnf_dtm_fields(unsigned int n, u64 global, u64 input)
{
	return global << (__bf_shf(CMN_DTM_PMU_CONFIG_GLOBAL_NUM0) +
			  n * CMN_DTM_PMU_CONFIG_GLOBAL_NUM_STRIDE) |
	       input << (__bf_shf(CMN_DTM_PMU_CONFIG_INPUT_SEL0) +
			 n * CMN_DTM_PMU_CONFIG_INPUT_SEL_STRIDE);
}

static inline u64 cmn_hnf_dtm_unpair(u64 cfg, unsigned int n)
{
	u64 all = cmn_hnf_dtm_fields(n, FIELD_MAX(CMN_DTM_PMU_CONFIG_GLOBAL_NUM0),
				     FIELD_MAX(CMN_DTM_PMU_CONFIG_INPUT_SEL0));

	return (cfg & ~all & ~(BIT_ULL(n) << __bf_shf(CMN_DTM_PMU_CONFIG_PAIRED))) |
	       CMN_HNF_DTM_IDLE;
}

static inline u64 cmn_hnf_dtm_pair(u64 cfg, unsigned int n, unsigned int global,
				   u8 input)
{
	return cmn_hnf_dtm_unpair(cfg, n) | cmn_hnf_dtm_fields(n, global, input) |
	       BIT_ULL(n) << __bf_shf(CMN_DTM_PMU_CONFIG_PAIRED);
}

static inline u64 cmn_hnf_dtm_local64(u8 input)
{
	return CMN_HNF_DTM_IDLE | CMN_DTM_PMU_CONFIG_ALL_COMB | cmn_hnf_dtm_fields(0, 0, input);
}

/* The sum of the 16-bit DTM counters of @val (an XP's por_dtm_pmevcnt) in @fields */
static inline u32 cmn_hnf_fields_sum(u64 val, unsigned int fields)
{
	u32 sum = 0;

	for (; fields; fields &= fields - 1)
		sum += (u16)(val >> (16 * __ffs(fields)));
	return sum;
}

/* Node ids: (x << (3 + b)) | (y << 3) | (port << 2) | dev */
struct cmn_hnf_nid {
	u8 x, y, port, dev;
};

/* b: 2 when both mesh dimensions are at most 4, else 3 */
static inline unsigned int cmn_hnf_coord_bits(u8 mesh_x, u8 mesh_y)
{
	return mesh_x <= 4 && mesh_y <= 4 ? 2 : 3;
}

struct cmn_hnf_nid cmn_hnf_decode_nodeid(u16 id, unsigned int coord_bits);
u16 cmn_hnf_encode_nodeid(struct cmn_hnf_nid nid, unsigned int coord_bits);

/* Discovery results */
struct cmn_hnf_xp {
	u32 offset;		/* of its register block from PERIPHBASE */
	u16 node_id;
	u16 logical_id;
	u8 x, y;
};

struct cmn_hnf_node {
	u32 offset;
	u16 node_id;
	u16 logical_id;
	u8 xp;			/* index in topo->xp[]: the XP the walk found it under */
	u8 port, dev;		/* from the node id */
};

struct cmn_hnf_topology {
	u16 part;
	u8 revision;
	u8 mesh_x, mesh_y;
	u8 coord_bits;
	unsigned int num_xps, num_hnfs, num_dtcs;
	struct cmn_hnf_xp xp[CMN_HNF_MAX_XPS];
	struct cmn_hnf_node hnf[CMN_HNF_MAX_HNFS];	/* by logical id */
	struct cmn_hnf_node dtc[CMN_HNF_MAX_DTCS];	/* dtc[i]: domain i */
};

/* Reads the 64-bit register at @offset from PERIPHBASE */
typedef u64 (*cmn_hnf_read_fn)(void *ctx, u32 offset);

/*
 * Walk the configuration tree from the CFG node at @root, reading only
 * inside the @size bytes of the region. On a broken tree: -ENODEV, and one
 * line in @why saying what is wrong where.
 */
int cmn_hnf_discover(cmn_hnf_read_fn read, void *ctx, u64 size, u32 root,
		     struct cmn_hnf_topology *topo, char *why, size_t len);

/*
 * Index in topo->hnf[] of the HN-F with node id @nodeid; -1 if none has it,
 * or if two have it (broken firmware: which one is meant is unknowable)
 */
static inline int cmn_hnf_find_hnf(const struct cmn_hnf_topology *topo, u16 nodeid)
{
	unsigned int i;
	int found = -1;

	for (i = 0; i < topo->num_hnfs; i++) {
		if (topo->hnf[i].node_id != nodeid)
			continue;
		if (found >= 0)
			return -1;
		found = i;
	}
	return found;
}

/*
 * Counter allocation (Documentation/internals.rst, "Where an event
 * counts"). The same function places events for real in add() and on a
 * scratch state to validate a group in event_init().
 */
enum cmn_hnf_kind {
	CMN_HNF_GLOBAL,		/* 16-bit DTM counters carrying into global counter g */
	CMN_HNF_LOCAL,		/* one HN-F, the four DTM counters of its XP as 64 bits */
	CMN_HNF_CYC,		/* the DTC0 cycle counter */
};

struct cmn_hnf_alloc {
	u8 dtm_used[CMN_HNF_MAX_XPS];		/* bit n: DTM counter n */
	u8 slot_used[CMN_HNF_MAX_HNFS];		/* bit k: pmu_event<k>_id */
	u8 occup[CMN_HNF_MAX_HNFS];		/* the HN-F's filter ... */
	u8 occup_refs[CMN_HNF_MAX_HNFS];	/* ... and its users */
	u8 global_used;				/* bit g: global counter g */
	bool cycles_used;
};

/**
 * struct cmn_hnf_place - where one event counts
 * @kind:	enum cmn_hnf_kind
 * @global:	GLOBAL: the global counter, claimed on every DTC
 * @first, @count: the HN-Fs taking part, topo->hnf[first..first + count)
 * @ctr:	per HN-F: its DTM counter (GLOBAL; LOCAL: 0, all four)
 * @slot:	per HN-F: its pmu_event_sel slot
 */
struct cmn_hnf_place {
	u8 kind;
	u8 global;
	u8 first, count;
	u8 ctr[CMN_HNF_MAX_HNFS];
	u8 slot[CMN_HNF_MAX_HNFS];
};

/*
 * Place @sel (@hnf: its HN-F index, or -1 for all HN-Fs). 0, or -ENOSPC with
 * @a unchanged. A bynodeid event takes a global counter while one is free,
 * else the 64-bit counter of its XP if all four DTM counters are free.
 */
int cmn_hnf_alloc(struct cmn_hnf_alloc *a, const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_evsel *sel, int hnf,
		  struct cmn_hnf_place *p);
void cmn_hnf_free(struct cmn_hnf_alloc *a, const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_evsel *sel, const struct cmn_hnf_place *p);

/*
 * Counter arithmetic (Documentation/internals.rst, "Counting exactly").
 *
 * The events a @width-bit counter counted between two reads @prev and
 * @cur, if it went round at most once in between.
 */
static inline u64 cmn_hnf_delta(u64 prev, u64 cur, unsigned int width)
{
	return (cur - prev) & GENMASK_ULL(width - 1, 0);
}

/**
 * struct cmn_hnf_wrap - a counter that raises an overflow flag when it
 * wraps: a global counter on one DTC (32 bits) or the DTC0 cycle counter
 * (40 bits)
 * @last:	its value at the last read
 * @seen:	a read saw it go round (a value below @last), and no overflow
 *		flag has been matched with that wrap yet
 * @pending:	overflow flags that no read explained: each is a whole period
 *		that went by between two reads, unless the flag does not clear
 *		(hardware fault); they count once the flag is seen clear
 * @stale:	the flag read set right after the clear before the baseline:
 *		it reports a wrap before the baseline, and the clear has not
 *		landed yet; the next service of the flag ignores it
 */
struct cmn_hnf_wrap {
	u64 last;
	bool seen;
	bool stale;
	u32 pending;
};

/* A read of the counter, @cur: the events since the last read */
static inline u64 cmn_hnf_wrap_read(struct cmn_hnf_wrap *w, u64 cur, unsigned int width)
{
	u64 delta = cmn_hnf_delta(w->last, cur, width);

	if (cur < w->last)
		w->seen = true;
	w->last = cur;
	return delta;
}

/*
 * The counter's overflow flag is set, and it was read after the flag was
 * cleared: true if a read explains the flag (it saw the wrap), else a
 * period is pending.
 */
static inline bool cmn_hnf_wrap_flag(struct cmn_hnf_wrap *w)
{
	if (w->seen) {
		w->seen = false;
		return true;
	}
	w->pending++;
	return false;
}

/* The flag was seen clear: returns the pending periods, now counted */
static inline unsigned int cmn_hnf_wrap_confirm(struct cmn_hnf_wrap *w)
{
	unsigned int n = w->pending;

	w->pending = 0;
	return n;
}

/*
 * A flag that does not clear. The interrupt handler clears every flag it
 * serves; hardware whose flag does not clear raises the same flag again
 * at once. A flag raised again within CMN_HNF_REFIRE_NS of its clear that
 * no read explains, CMN_HNF_STUCK_FLAGS times in a row, is stuck: its line
 * is taken out of service. A wrap of one counter cannot follow the one
 * before that soon: a whole period of a global counter is 2^48 events,
 * over four seconds for the largest CMN-600 (128 HN-Fs each adding 127
 * to the POCQ occupancy count every cycle at 4 GHz), and a cycle counter
 * period is 2^40 cycles.
 */
#define CMN_HNF_REFIRE_NS		1000000ULL
#define CMN_HNF_STUCK_FLAGS		32

struct cmn_hnf_refire {
	u64 cleared;		/* ns of the last clear */
	u8 count;		/* quick unexplained raises in a row */
};

/* A flag served at @now: true when it is stuck */
bool cmn_hnf_refire(struct cmn_hnf_refire *r, bool explained, u64 now);

/**
 * struct cmn_hnf_acc - the count of a GLOBAL event
 * @carries:	global counter increments since the baseline (all DTCs),
 *		each worth 2^16 events
 * @high:	the highest sample, (carries << 16) + the DTM counters' sum
 *
 * Global counters are read before the DTM counters, and a carry lands on
 * the DTC after the wrap that made it: a sample can miss a carry on its
 * way, never hold one early. It is never above the true count, and one
 * below @high counts nothing.
 */
struct cmn_hnf_acc {
	u64 carries;
	u64 high;
};

/* Start from the DTM counters' sum @local, @carries at 0 */
static inline void cmn_hnf_acc_init(struct cmn_hnf_acc *acc, u32 local)
{
	acc->carries = 0;
	acc->high = local;
}

/* A sample (its carries added already): the events since @high */
u64 cmn_hnf_acc_update(struct cmn_hnf_acc *acc, u32 local);

#endif /* ARM_CMN_HNF_LOGIC_H */
