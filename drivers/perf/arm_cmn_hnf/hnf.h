/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private types of the arm_cmn_hnf driver, shared by main.c (platform
 * driver), pmu.c (perf glue), sysfs.c and hw.c (every register access).
 * The pure logic, logic.c, sees only the types of logic.h.
 */
#ifndef ARM_CMN_HNF_HNF_H
#define ARM_CMN_HNF_HNF_H

#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/perf_event.h>

#include <arm_cmn_hnf/logic.h>

/*
 * hw_perf_event.idx of an added event: 0..7 its global counter (GLOBAL),
 * CMN_HNF_CYCLES the cycle counter, CMN_HNF_IDX_LOCAL + x the 64-bit
 * counter of XP x (LOCAL); CMN_HNF_IDX_NONE when not added.
 */
#define CMN_HNF_IDX_LOCAL	16
#define CMN_HNF_IDX_NONE	(-1)

/* A line out of service is replaced by reading every event this often */
#define CMN_HNF_POLL_MS		100

/**
 * struct cmn_hnf_ctr - a global counter (GLOBAL event) or the cycle counter
 * @event:	the event counting there, NULL when free
 * @sel:	what it counts
 * @place:	where (logic.h)
 * @acc:	GLOBAL: its count
 * @wrap:	per DTC: its global counter (CYC: [0], the DTC0 cycle counter)
 * @xps:	GLOBAL: bit x: XP x holds some of its DTM counters ...
 * @fields:	... and, per XP, bit n: its DTM counter n is the event's
 */
struct cmn_hnf_ctr {
	struct perf_event *event;
	struct cmn_hnf_evsel sel;
	struct cmn_hnf_place place;
	struct cmn_hnf_acc acc;
	struct cmn_hnf_wrap wrap[CMN_HNF_MAX_DTCS];
	u64 xps;
	u8 fields[CMN_HNF_MAX_XPS];
};

/* The 64-bit DTM counter of one XP: a LOCAL event of HN-F @hnf, @slot */
struct cmn_hnf_local {
	struct perf_event *event;
	struct cmn_hnf_evsel sel;
	u8 hnf;
	u8 slot;
	u64 prev;
};

/**
 * struct cmn_hnf_irq - one interrupt line and the DTCs that raise it
 * @dtcs:	bit d: DTC d raises this line
 * @polled:	out of service (a flag that does not clear, or a line that
 *		cannot follow the PMU's CPU): the poll timer serves its DTCs
 * @refire:	per DTC, per counter: quick raises of its flag
 */
struct cmn_hnf_irq {
	struct cmn_hnf *cmn;
	int irq;
	u8 dtcs;
	bool polled;
	struct cmn_hnf_refire refire[CMN_HNF_MAX_DTCS][CMN_HNF_CYCLES + 1];
};

/*
 * One sample of several events at once (a group, or the owners of the
 * flags an interrupt serves): what hw.c read, and what it was asked for.
 */
struct cmn_hnf_sample {
	u8 pairs;		/* bit p: global counter pair p, on every DTC */
	bool cycles;
	u64 xps;		/* bit x: XP x's four DTM counters */
	u64 pair[CMN_HNF_MAX_DTCS][CMN_HNF_DTC_COUNTERS / 2];
	u64 cyc;
	u64 xp[CMN_HNF_MAX_XPS];
};

/*
 * struct cmn_hnf - one CMN-600 mesh and its PMU. Everything below @pmu
 * belongs to the PMU's CPU, @cpu (pmu.c, cmn_hnf_migrate()).
 */
struct cmn_hnf {
	struct device *dev;
	void __iomem *base;
	u64 size;
	u32 root;
	struct cmn_hnf_topology *topo;
	struct cmn_hnf_irq irqs[CMN_HNF_MAX_DTCS];
	unsigned int num_irqs;
	u32 stuck[CMN_HNF_MAX_DTCS];	/* per DTC: flags that do not clear */
	struct hlist_node cpuhp_node;
	unsigned int cpu;
	int from_cpu;		/* while a migration moves the events: the old CPU */
	const char *name;
	struct pmu pmu;

	bool disabled;		/* pmu_disable() */
	bool add_txn;		/* inside an add transaction */
	bool read_txn;		/* inside a read transaction ... */
	bool txn_read;		/* ... whose group was read */
	bool hw_on;		/* the DTCs count */
	bool clock_on;		/* DTC0's clock is kept ungated */
	bool dead;		/* shut down: nothing counts any more */
	unsigned int nr_events;
	struct hrtimer poll;
	struct cmn_hnf_alloc alloc;
	struct cmn_hnf_ctr ctr[CMN_HNF_CYCLES + 1];
	struct cmn_hnf_local *local;	/* per XP, allocated at probe */
	/* the data path's own scratch (interrupts off): a sample, a placement */
	struct cmn_hnf_sample sample;
	struct cmn_hnf_place place;
	/* register shadows */
	u8 hnf_ev[CMN_HNF_MAX_HNFS][CMN_HNF_HNF_SLOTS];
	u64 dtm[CMN_HNF_MAX_XPS];		/* por_dtm_pmu_config */
};

#define to_cmn_hnf(p)	container_of(p, struct cmn_hnf, pmu)

/* hw.c */
u64 cmn_hnf_hw_read64(void *ctx, u32 offset);
void cmn_hnf_hw_reset(struct cmn_hnf *cmn, bool on);
void cmn_hnf_hw_event_sel(struct cmn_hnf *cmn, unsigned int hnf);
void cmn_hnf_hw_dtm(struct cmn_hnf *cmn, unsigned int xp);
void cmn_hnf_hw_sample(struct cmn_hnf *cmn, struct cmn_hnf_sample *s);
void cmn_hnf_hw_clock(struct cmn_hnf *cmn, bool ungated);
void cmn_hnf_hw_enable(struct cmn_hnf *cmn, bool on);
u32 cmn_hnf_hw_ovf(struct cmn_hnf *cmn, unsigned int dtc);
void cmn_hnf_hw_ovf_clear(struct cmn_hnf *cmn, unsigned int dtc, u32 bits);

/* pmu.c */
void cmn_hnf_pmu_init(struct cmn_hnf *cmn);
irqreturn_t cmn_hnf_irq_handler(int irq, void *data);
int cmn_hnf_cpu_online(unsigned int cpu, struct hlist_node *node);
int cmn_hnf_cpu_offline(unsigned int cpu, struct hlist_node *node);
void cmn_hnf_migrate(struct cmn_hnf *cmn, unsigned int cpu);
void cmn_hnf_stop_all(struct cmn_hnf *cmn);

/* sysfs.c */
extern const struct attribute_group *cmn_hnf_attr_groups[];

#endif /* ARM_CMN_HNF_HNF_H */
