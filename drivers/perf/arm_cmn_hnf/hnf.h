/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private types of the arm_cmn_hnf driver, shared by main.c, pmu.c, sysfs.c
 * and hw.c. The pure logic (logic.c) only sees the types of logic.h.
 */
#ifndef ARM_CMN_HNF_HNF_H
#define ARM_CMN_HNF_HNF_H

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include <arm_cmn_hnf/logic.h>

#define CMN_HNF_DRV_NAME	"arm-cmn-hnf"
#define CMN_HNF_PMU_PREFIX	"arm_cmn_hnf_"

/*
 * hw_perf_event.idx of an added event: 0..7 the global counter of a GLOBAL
 * event, CMN_HNF_IDX_CYCLES the cycle counter, CMN_HNF_IDX_LOCAL + n the
 * LOCAL32/LOCAL64 event in cmn->local[n] (n = cmn->xp_local[xp] + pair).
 */
#define CMN_HNF_IDX_CYCLES	CMN_HNF_DTC_COUNTERS
#define CMN_HNF_IDX_LOCAL	16
#define CMN_HNF_IDX_NONE	(-1)
#define CMN_HNF_NR_LOCAL	(2 * CMN_HNF_MAX_XPS)
/* Events of ours in one group at most, with @nr local counters: one per counter */
#define CMN_HNF_GROUP_MEMBERS(nr)	(CMN_HNF_DTC_COUNTERS + 1 + (nr))
/* struct cmn_hnf.plan_idx holds event indices in a byte */
static_assert(CMN_HNF_IDX_LOCAL + CMN_HNF_NR_LOCAL <= U8_MAX);

/**
 * struct cmn_hnf_counter - a GLOBAL event: one global counter index
 * @event:	the perf event, NULL when the global counter is free
 * @req:	what it asked for
 * @grant:	what the allocator gave it; grant.global is this counter's index
 * @acc:	counting state (see struct cmn_hnf_acc)
 * @first:	index in topo->hnf[] of the first HN-F taking part
 * @count:	number of consecutive HN-Fs taking part from @first
 * @nxps:	number of XPs holding a DTM counter of the event
 * @xp:		those XPs (index in topo->xp[]), each read once per sample
 * @fields:	per XP in @xp: bit n, its 16-bit counter n is the event's
 * @lane:	the one DTM counter index of the event on every XP in @xp, or
 *		CMN_HNF_LANE_MIXED (cmn_hnf_fields_lane())
 * @xp_mask:	bit x: XP x is in @xp (for group reads)
 */
struct cmn_hnf_counter {
	struct perf_event *event;
	struct cmn_hnf_request req;
	struct cmn_hnf_grant grant;
	struct cmn_hnf_acc acc;
	u8 first;
	u8 count;
	u8 nxps;
	u8 xp[CMN_HNF_MAX_XPS];
	u8 fields[CMN_HNF_MAX_XPS];
	u8 lane;
	u64 xp_mask;
};

/**
 * struct cmn_hnf_local - a LOCAL32 or LOCAL64 event
 * @event:	the perf event, NULL when free
 * @req:	what it asked for (bynodeid, req.hnf is its HN-F)
 * @xp:		its HN-F's XP
 * @ctr:	lowest DTM counter of the combined counter (0 or 2)
 * @width:	32 or 64
 * @slot:	its pmu_event_sel slot on the HN-F
 * @prev:	the counter's value at the last read
 * @stamp:	LOCAL32: the DTC0 cycle counter when @seen was last settled
 * @seen:	LOCAL32: events the reads counted since @stamp
 * @rate:	LOCAL32: its rate, for wraps a late poll cannot see
 */
struct cmn_hnf_local {
	struct perf_event *event;
	struct cmn_hnf_request req;
	u8 xp;
	u8 ctr;
	u8 width;
	u8 slot;
	u64 prev;
	u64 stamp;
	u64 seen;
	struct cmn_hnf_local_rate rate;
};

struct cmn_hnf;

/**
 * struct cmn_hnf_irq - one interrupt line and the DTCs signalling on it
 * @cmn:	the mesh
 * @irq:	Linux IRQ number
 * @dtc_mask:	bit d: DTC d raises its overflow interrupt on this line
 * @polled:	the line is off (it stormed, or could not follow the PMU's
 *		CPU); the poll timer reads the counters instead
 * @storm:	storm detection state
 */
struct cmn_hnf_irq {
	struct cmn_hnf *cmn;
	int irq;
	u8 dtc_mask;
	bool polled;
	struct cmn_hnf_storm storm;
};

/**
 * struct cmn_hnf - one CMN-600 mesh and its PMU
 *
 * Everything below @pmu is touched only by the CPU in @cpu with interrupts
 * disabled (perf callbacks, the overflow handler and the poll timer, both
 * pinned to that CPU), so the data path takes no locks. Migration on
 * hotplug moves @cpu, the perf context and the interrupts together, with
 * the interrupt lines disabled meanwhile.
 */
struct cmn_hnf {
	struct device *dev;
	void __iomem *base;
	u64 size;
	u32 root;
	struct cmn_hnf_topology *topo;

	struct cmn_hnf_irq irqs[CMN_HNF_MAX_DTCS];
	unsigned int num_irqs;

	unsigned int cpu;
	struct hlist_node cpuhp_node;
	int id;
	const char *name;
	struct pmu pmu;
	/* set and cleared under cpus_read_lock(): hotplug may migrate */
	bool registered;
	/* hw_init() done: remove and shutdown quiesce the hardware */
	bool hw_ready;

	/* Data path state (owning CPU only) */
	bool core_disabled;
	bool hw_enabled;
	/* a read transaction has brought its whole group up to date */
	bool txn_sampled;
	unsigned int txn_flags;
	unsigned int nr_events;		/* added, of any kind */
	unsigned int nr_polled;		/* added LOCAL32 events */
	unsigned int nr_polled_lines;	/* lines with .polled set */
	bool cycles_clock;		/* DTC0 cg_disable is set */
	unsigned long late_polls;	/* LOCAL32 settles that may miss wraps */
	struct hrtimer poll;
	struct cmn_hnf_alloc_state alloc;
	/* one per global counter index, then the cycle counter */
	struct cmn_hnf_counter ctr[CMN_HNF_DTC_COUNTERS + 1];
	struct cmn_hnf_cyc cyc;		/* the cycles event's counting state */
	/*
	 * Scratch of the read path: the sample of a GLOBAL event, and a group
	 * read's sample of the mesh with its members' local sums. Here rather
	 * than on the stack, so that a read() neither sets up nor checks a
	 * stack frame of arrays (the stack protector) for them.
	 */
	struct cmn_hnf_sample sample;
	struct cmn_hnf_group_sample gs;
	u32 group_local[CMN_HNF_GROUP_LOCALS];
	/*
	 * The plan of the last group read (cmn_hnf_group_plan()): the group
	 * of @plan_leader has the @plan_n members whose hw.idx are in
	 * @plan_idx, sampled by the registers that gs.xps, gs.pairs and
	 * gs.cycles name. It holds until an event is added, deleted, started
	 * or stopped, which clears @plan_valid.
	 */
	bool plan_valid;
	unsigned int plan_n;
	struct perf_event *plan_leader;
	u8 *plan_idx;		/* CMN_HNF_GROUP_MEMBERS(nr_local) entries */
	/*
	 * Per DTC: overflow flags cleared outside the interrupt handler (by
	 * hw_init(), add or del) since the handler last read the DTC's status.
	 * A write-one-to-clear may not have landed when an interrupt raised
	 * before it is taken, so the handler may still find these set once.
	 */
	u32 ovf_clearing[CMN_HNF_MAX_DTCS];
	/*
	 * The DTM-local counters: two per XP that holds an HN-F (pair 0 on
	 * counters 0-1, pair 1 on 2-3), nr_local in all, allocated at probe
	 * for the mesh found; xp_local[xp] is the first of an XP's two.
	 */
	struct cmn_hnf_local *local;
	unsigned int nr_local;
	u8 xp_local[CMN_HNF_MAX_XPS];
	DECLARE_BITMAP(local_used, CMN_HNF_NR_LOCAL);

	/* Register shadows, written whole by hw.c */
	u8 hnf_ev[CMN_HNF_MAX_HNFS][CMN_HNF_HNF_SLOTS];
	struct cmn_hnf_dtm_cfg dtm[CMN_HNF_MAX_XPS];
	/* the occupancy filter in each HN-F's pmu_event_sel */
	u8 occup_hw[CMN_HNF_MAX_HNFS];
};

#define to_cmn_hnf(p)	container_of(p, struct cmn_hnf, pmu)

/* hw.c: the only place that touches registers */
u64 cmn_hnf_hw_read64(void *ctx, u32 offset);
void cmn_hnf_hw_init(struct cmn_hnf *cmn);
void cmn_hnf_hw_quiesce(struct cmn_hnf *cmn);
void cmn_hnf_hw_write_event_sel(struct cmn_hnf *cmn, unsigned int hnf);
void cmn_hnf_hw_write_dtm(struct cmn_hnf *cmn, unsigned int xp);
u64 cmn_hnf_hw_read_dtm(struct cmn_hnf *cmn, unsigned int xp);
void cmn_hnf_hw_sample_global(struct cmn_hnf *cmn,
			      const struct cmn_hnf_counter *c,
			      struct cmn_hnf_sample *s);
void cmn_hnf_hw_sample_group(struct cmn_hnf *cmn,
			     struct cmn_hnf_group_sample *gs);
u64 cmn_hnf_hw_read_cycles(struct cmn_hnf *cmn);
void cmn_hnf_hw_enable(struct cmn_hnf *cmn, bool on);
void cmn_hnf_hw_cycles_clock(struct cmn_hnf *cmn, bool always_on);
u32 cmn_hnf_hw_ovf_status(struct cmn_hnf *cmn, unsigned int dtc);
void cmn_hnf_hw_ovf_clear(struct cmn_hnf *cmn, unsigned int dtc, u32 bits);
void cmn_hnf_hw_debugfs_init(void);
void cmn_hnf_hw_debugfs_exit(void);

/* pmu.c */
void cmn_hnf_pmu_init(struct cmn_hnf *cmn);
irqreturn_t cmn_hnf_irq_handler(int irq, void *dev_id);
int cmn_hnf_route_irqs(struct cmn_hnf *cmn, unsigned int cpu);
void cmn_hnf_migrate(struct cmn_hnf *cmn, unsigned int cpu);
int cmn_hnf_cpu_online(unsigned int cpu, struct hlist_node *cpuhp_node);
int cmn_hnf_cpu_offline(unsigned int cpu, struct hlist_node *cpuhp_node);

/* sysfs.c */
extern const struct attribute_group *cmn_hnf_attr_groups[];

#endif /* ARM_CMN_HNF_HNF_H */
