/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CMN-600 model: runtime state and the step-point primitives shared by the
 * runtime proper (runtime.c), the racing clock (race.c) and the interrupt
 * faults (irqfault.c). Private to the model; main.c uses runtime.h.
 *
 * Every function here that touches the mesh's state or registers expects
 * m->lock held, unless its comment says otherwise.
 */
#ifndef CMN600_MODEL_RT_H
#define CMN600_MODEL_RT_H

#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "cmn600_model.h"
#include "image.h"
#include "runtime.h"

struct task_struct;

#define CMRT_NR_XPS		(CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM)
/*
 * How long a raised overflow flag may stay set: CMRT_IRQ_STARVE_MS on a
 * line a driver has started (it may be disabled for a migration, or its
 * vCPU not run by a loaded host, for a while: no driver's fault), else
 * CMRT_IRQ_TIMEOUT_MS (nobody will clear it).
 */
#define CMRT_IRQ_TIMEOUT_MS	200
#define CMRT_IRQ_STARVE_MS	10000
#define CMRT_CYCLES_MASK	GENMASK_ULL(CMN600M_CYCLES_BITS - 1, 0)
#define CMRT_RACE_MAX_THREADS	8
#define CMRT_WARN_LINES		4
#define CMRT_WARN_LEN		160

struct cmrt_hnf {
	u64 off;
	u16 id;			/* node_info[31:16] as built (faults included) */
	u16 lid;
	u8 x, y, port, dev;
	u64 sel;		/* pmu_event_sel at the start of the chunk */
	u32 rate[CMN600_RT_NR_SRC];
	u32 acc[CMN600_RT_NR_SRC];	/* remainder, thousandths of an event */
	u64 truth[CMN600_RT_NR_SRC];
	/* events produced while at least one DTM counter counted the source */
	u64 counted[CMN600_RT_NR_SRC];
	/*
	 * events produced while a DTM counter counted the source on any HN-F
	 * of the mesh: the truth of the windows an event was programmed in,
	 * whether or not it was programmed on this HN-F
	 */
	u64 windowed[CMN600_RT_NR_SRC];
	u64 chunk[CMN600_RT_NR_SRC];	/* produced during the current chunk */
	u64 burst[CMN600_RT_NR_SRC];	/* race near_wrap: extra events, this chunk */
	u64 counting;		/* bit s: a counter counts source s, this chunk */
};

struct cmrt_dtm {
	u64 off;
	u8 domain;
	struct cmrt_hnf *dev[CMN600_MODEL_MAX_PORTS][CMN600_MODEL_MAX_DEVS];
};

struct cmrt_dtc {
	bool present;
	bool active;		/* dt_en && pmu_en at the start of the chunk */
	bool has_irq;		/* firmware describes an interrupt for it */
	u64 off;
	u64 pmcr;
	u32 spi;
	unsigned int index;	/* interrupt index: rank in lid order */
	int irq;		/* Linux irq number, 0 until found */
	u64 irqs;		/* overflow flags raised as interrupts */
	u64 active_cycles;	/* cycles stepped while the DTC counted */
	u64 wait_bits;		/* free clock: raised, not yet cleared */
	u64 wait_since;		/* free clock: ktime (ns) of the raise */
	/* interrupt faults (irqfault.c) */
	u64 stuck;		/* pmovsr bits that pmovsr_clr cannot clear */
	u64 spurious;		/* interrupts raised with no pmovsr bit */
	u64 storm_raises;	/* raises of the last stuck-bit storm */
	u64 offs;		/* irq_fault "off" windows run */
	u64 reasserts;		/* raised again when its line was enabled */
	const char *storm_end;	/* how it ended, NULL: none yet */
};

/* One DTM counter (or combined counter) as programmed for this chunk */
struct cmrt_ctr {
	struct cmrt_dtm *dtm;
	struct cmrt_hnf *hnf;	/* NULL: counts nothing the model produces */
	unsigned int src;
	unsigned int n;		/* lowest local counter of the group */
	unsigned int width;	/* 16, 32 or 64 */
	int global;		/* paired global counter, -1 if not paired */
	struct cmrt_dtc *dtc;
	u64 val;		/* value at the start of the chunk */
	u64 wraps;		/* local wraps in this chunk */
};

/* The racing clock (race.c) */
#define CMRT_RACE_DEFERRED	32

/* Carries of one iteration, deferred until @due (ktime ns) */
struct cmrt_race_batch {
	bool used;
	u64 due;
	u64 carries[CMN600_MODEL_MAX_DTCS][CMN600M_DTC_NR_GLOBAL];
};

struct cmrt_race {
	bool on;		/* the mesh is in race mode */
	bool near_wrap;
	bool running;		/* threads are advancing the mesh */
	u32 lag_ns;		/* longest spin before carries are stored */
	u32 defer_us;		/* longest deferral of carries */
	u32 rng;
	unsigned int nr_threads;
	struct task_struct *threads[CMRT_RACE_MAX_THREADS];
	struct list_head node;	/* in race_meshes while running */
	/* carries of the current iteration, not yet stored or deferred */
	u64 inflight[CMN600_MODEL_MAX_DTCS][CMN600M_DTC_NR_GLOBAL];
	struct cmrt_race_batch deferred[CMRT_RACE_DEFERRED];
	/* every carry noted and not yet stored, per global counter */
	u64 flying[CMN600_MODEL_MAX_DTCS][CMN600M_DTC_NR_GLOBAL];
	u64 iterations, carries, bursts, settled;
	u64 paused_at;		/* ktime of the last bracket opened */
	u64 overdue;		/* iterations that ran in a bracket open too long */
	/*
	 * Configuration changes no bracket explains: cfg_sig is the signature
	 * of the DTM and HN-F configuration an iteration last saw, seen_gen
	 * the bracket count then (race_check_config())
	 */
	u64 cfg_sig, gen, seen_gen, unbracketed;
	/* a step in race mode (cmrt_race_step()) */
	bool stepping;
	u64 step_t0, step_total, step_done;
};

struct cmn600_rt_mesh {
	/*
	 * Model state (rates, remainders, truth, cycles, irq counts, the
	 * plan) and every update of the registers; taken with interrupts off
	 */
	raw_spinlock_t lock;
	unsigned int index;
	struct cmn600_model_mesh *desc;
	struct cmn600_model_image_info info;
	enum cmn600_model_fault fault;
	void *va;
	u64 *reset;		/* the image as built, for the "changed" file */
	u64 reset_len;		/* its bytes: the image's extent */
	u64 cycles;
	unsigned int nr_hnfs;
	struct cmrt_hnf *hnfs;
	struct cmrt_dtm dtms[CMRT_NR_XPS];
	struct cmrt_dtc dtcs[CMN600_MODEL_MAX_DTCS];
	unsigned int nr_ctrs;
	struct cmrt_ctr ctrs[CMRT_NR_XPS * CMN600M_DTM_NR_COUNTERS];

	/* overflow interrupts raised with no lock held (cmrt_raise_later()) */
	struct irq_work raise_work;
	unsigned long raise_bits;	/* bit d: DTC d's line, for raise_work */
	/* warnings made under m->lock, printed by raise_work (cmrt_locked_warn()) */
	char warn[CMRT_WARN_LINES][CMRT_WARN_LEN];
	unsigned int nr_warn, warn_dropped;

	/* free-running clock */
	struct hrtimer timer;
	struct work_struct handoff;	/* re-arms the timer on the observer */
	bool clock_on;
	struct list_head clock_node;	/* in running_clocks while on */
	struct list_head irq_node;	/* in irq_meshes while it exists */
	u32 freq_mhz;
	u32 frac;		/* thousandths of a cycle not yet counted */
	u64 last_ns;		/* ktime of the last expiry */
	u64 pending;		/* cycles elapsed but not yet counted */

	struct cmrt_race race;
};

/* runtime.c: interrupt line state (any context) */
bool cmrt_irq_busy(int irq);
unsigned int cmrt_irq_limit_ms(int irq);

/* runtime.c: registers */
u64 *cmrt_reg(struct cmn600_rt_mesh *m, u64 off);
u64 cmrt_rd(struct cmn600_rt_mesh *m, u64 off);
void cmrt_wr(struct cmn600_rt_mesh *m, u64 off, u64 val);

/* runtime.c: one step point, in pieces */
void cmrt_service(struct cmn600_rt_mesh *m);
void cmrt_service_dtc(struct cmn600_rt_mesh *m, unsigned int lid);
void cmrt_plan(struct cmn600_rt_mesh *m);
u64 cmrt_events_in(const struct cmrt_ctr *c, u64 cycles);
void cmrt_produce_all(struct cmn600_rt_mesh *m, u64 c);
void cmrt_count_dtms(struct cmn600_rt_mesh *m);
void cmrt_count_time(struct cmn600_rt_mesh *m, u64 c);
bool cmrt_count_global(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, unsigned int g,
		       u64 inc);
bool cmrt_count_cycles(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, u64 c);
u64 cmrt_set_overflow(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, u64 bits);
u64 cmrt_clock_elapsed(struct cmn600_rt_mesh *m);

/* runtime.c: interrupts */
void cmrt_resolve_irqs(struct cmn600_rt_mesh *m);	/* process context, unlocked */
bool cmrt_raise_irq(struct cmn600_rt_mesh *m, unsigned int lid);	/* no lock held */
bool cmrt_raise_later(struct cmn600_rt_mesh *m, unsigned int lid);	/* m->lock held */
/* m->lock held: printed once it is gone */
__printf(2, 3) void cmrt_locked_warn(struct cmn600_rt_mesh *m, const char *fmt, ...);
void cmrt_note_raised(struct cmn600_rt_mesh *m, unsigned int lid, u64 bits, u64 now);
bool cmrt_watch_overflow(struct cmn600_rt_mesh *m, u64 now);

/* race.c */
void cmrt_race_init(struct cmn600_rt_mesh *m);
void cmrt_race_start(struct cmn600_rt_mesh *m);	/* process context, unlocked */
void cmrt_race_stop(struct cmn600_rt_mesh *m);	/* process context, unlocked */
void cmrt_race_bracket(bool open);			/* any context */
bool cmrt_race_step(struct cmn600_rt_mesh *m, u64 cycles);	/* process context */

#endif /* CMN600_MODEL_RT_H */
