/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private types of the arm_cmn_hnf driver, shared by main.c, pmu.c, sysfs.c
 * and hw.c. The pure logic (logic.c) only sees the types of logic.h.
 */
#ifndef ARM_CMN_HNF_HNF_H
#define ARM_CMN_HNF_HNF_H

#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/list.h>
#include <linux/perf_event.h>
#include <linux/types.h>

#include <arm_cmn_hnf/logic.h>

#define CMN_HNF_DRV_NAME	"arm-cmn-hnf"
#define CMN_HNF_PMU_PREFIX	"arm_cmn_hnf_"

/* hw_perf_event.idx of the cycles event; 0..7 are global counters */
#define CMN_HNF_IDX_CYCLES	CMN_HNF_DTC_COUNTERS
#define CMN_HNF_IDX_NONE	(-1)

/**
 * struct cmn_hnf_counter - what one added HN-F event owns
 * @event:	the perf event, NULL when the global counter is free
 * @req:	what it asked for
 * @grant:	what the allocator gave it; grant.global is this counter's index
 * @prev:	the last consistent sample, the base of the next delta
 * @first:	index in topo->hnf[] of the first HN-F taking part
 * @count:	number of consecutive HN-Fs taking part from @first
 */
struct cmn_hnf_counter {
	struct perf_event *event;
	struct cmn_hnf_request req;
	struct cmn_hnf_grant grant;
	struct cmn_hnf_sample prev;
	unsigned int first;
	unsigned int count;
};

struct cmn_hnf;

/**
 * struct cmn_hnf_irq - one interrupt line and the DTCs signalling on it
 * @cmn:	the mesh
 * @irq:	Linux IRQ number
 * @dtc_mask:	bit d: DTC d raises its overflow interrupt on this line
 */
struct cmn_hnf_irq {
	struct cmn_hnf *cmn;
	int irq;
	u8 dtc_mask;
};

/**
 * struct cmn_hnf - one CMN-600 mesh and its PMU
 *
 * Everything below @pmu is touched only by the CPU in @cpu with interrupts
 * disabled (perf callbacks, the overflow handler pinned to that CPU), so the
 * data path takes no locks. Migration on hotplug moves @cpu, the perf context
 * and the interrupts together.
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
	bool registered;

	/* Data path state (owning CPU only) */
	bool core_disabled;
	unsigned int txn_flags;
	struct cmn_hnf_alloc_state alloc;
	/* one per global counter index, then the cycle counter */
	struct cmn_hnf_counter ctr[CMN_HNF_DTC_COUNTERS + 1];
	u64 cycles_prev;

	/* Register shadows, written whole by hw.c */
	u8 hnf_ev[CMN_HNF_MAX_HNFS][CMN_HNF_HNF_SLOTS];
	struct cmn_hnf_dtm_cfg dtm[CMN_HNF_MAX_XPS];
};

#define to_cmn_hnf(p)	container_of(p, struct cmn_hnf, pmu)

/* hw.c: the only place that touches registers */
u64 cmn_hnf_hw_read64(void *ctx, u32 offset);
void cmn_hnf_hw_init(struct cmn_hnf *cmn);
void cmn_hnf_hw_quiesce(struct cmn_hnf *cmn);
void cmn_hnf_hw_write_event_sel(struct cmn_hnf *cmn, unsigned int hnf);
void cmn_hnf_hw_write_dtm(struct cmn_hnf *cmn, unsigned int xp);
u16 cmn_hnf_hw_read_local(struct cmn_hnf *cmn, unsigned int xp,
			  unsigned int ctr);
u32 cmn_hnf_hw_read_global(struct cmn_hnf *cmn, unsigned int dtc,
			   unsigned int idx);
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
void cmn_hnf_migrate(struct cmn_hnf *cmn, unsigned int cpu);
int cmn_hnf_cpu_online(unsigned int cpu, struct hlist_node *cpuhp_node);
int cmn_hnf_cpu_offline(unsigned int cpu, struct hlist_node *cpuhp_node);

/* sysfs.c */
extern const struct attribute_group *cmn_hnf_attr_groups[];

#endif /* ARM_CMN_HNF_HNF_H */
