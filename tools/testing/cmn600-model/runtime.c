// SPDX-License-Identifier: GPL-2.0
/*
 * CMN-600 model: what the hardware does behind the registers.
 *
 * The model cannot trap MMIO, so it acts at step points: it reads what the
 * driver wrote (HN-F pmu_event_sel, DTM pmu_config, DTC dtc_ctl/pmcr,
 * pmovsr_clr, pmsrr), then advances time by a number of cycles and updates
 * the counters in memory. The end of the handlers of a DTC's interrupt line
 * is a step point for that DTC's overflow flags (see irq_handled()). Events
 * are produced at fixed rates (events per 1000 cycles) with a remainder
 * kept per source, so totals are exact and deterministic however the time
 * is split into steps.
 *
 * A step is split into chunks that end where a global or cycle counter
 * whose overflow interrupt is enabled wraps; at the end of such a chunk the
 * model raises the DTC's interrupt and waits until the driver clears the
 * overflow flag. The length of a chunk is found by binary search over
 * arithmetic on counter values, never by looping over cycles or events.
 *
 * Hardware counts atomically with respect to the CPU that programs it, so
 * every "read the configuration, move the counters" runs on the observer
 * CPU (the one the DTC0 interrupt is routed to, where the drivers do all
 * their counter programming) with interrupts off there and under the
 * mesh's raw spinlock: a manual step by an IPI per chunk, the free-running
 * clock from a pinned hard-irq hrtimer on that CPU.
 */

#define pr_fmt(fmt) "cmn600_model: " fmt

#include <linux/bitfield.h>
#include <linux/bitops.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/kprobes.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/platform_device.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "cmn600_model.h"
#include "image.h"
#include "kcompat.h"
#include "mesh.h"
#include "rt.h"
#include "runtime.h"

#ifdef __BIG_ENDIAN
#error "the CMN-600 model keeps registers as native little-endian words"
#endif

#define TICK_NS		NSEC_PER_MSEC

u64 *cmrt_reg(struct cmn600_rt_mesh *m, u64 off)
{
	return m->va + off;
}

u64 cmrt_rd(struct cmn600_rt_mesh *m, u64 off)
{
	return READ_ONCE(*cmrt_reg(m, off));
}

void cmrt_wr(struct cmn600_rt_mesh *m, u64 off, u64 val)
{
	WRITE_ONCE(*cmrt_reg(m, off), val);
}

/* Source index of event @e (class @cls for the occupancy event) */
static int src_of(unsigned int e, unsigned int cls)
{
	if (e == 0 || e > CMN600_RT_NR_EVENTS)
		return -1;
	if (e == CMN600_RT_OCC_EVENT)
		return cls < CMN600_RT_NR_CLASSES ? CMN600_RT_NR_EVENTS - 1 + cls : -1;
	return e < CMN600_RT_OCC_EVENT ? e - 1 : e - 2;
}

static unsigned int event_of(unsigned int src, int *cls)
{
	*cls = -1;
	if (src >= CMN600_RT_NR_EVENTS - 1) {
		*cls = src - (CMN600_RT_NR_EVENTS - 1);
		return CMN600_RT_OCC_EVENT;
	}
	return src < CMN600_RT_OCC_EVENT - 1 ? src + 1 : src + 2;
}

/*
 * floor((acc + rate * c) / 1000) and the new remainder. The product needs up
 * to 96 bits, so divide it as three 32-bit limbs. Returns false when the
 * quotient does not fit in 64 bits (*q then holds its low 64 bits).
 */
static bool produce(u32 rate, u32 acc, u64 c, u64 *q, u32 *rem)
{
	u64 lo, hi, l0, l1, l2, q2, q1, q0;
	u32 r;

	/* the usual case (a clock tick): the product fits in 64 bits */
	if (c <= U32_MAX) {
		*q = div_u64_rem(c * rate + acc, 1000, rem);
		return true;
	}
	lo = (c & U32_MAX) * rate;
	hi = (c >> 32) * rate;
	l0 = (lo & U32_MAX) + acc;
	l1 = (lo >> 32) + (hi & U32_MAX) + (l0 >> 32);
	l2 = (hi >> 32) + (l1 >> 32);
	l0 &= U32_MAX;
	l1 &= U32_MAX;
	q2 = div_u64_rem(l2, 1000, &r);
	q1 = div_u64_rem(((u64)r << 32) | l1, 1000, &r);
	q0 = div_u64_rem(((u64)r << 32) | l0, 1000, &r);
	*q = (q1 << 32) + q0;
	*rem = r;
	return q2 == 0;
}

/* Events counter @c's source produces in the next @cycles (saturated) */
u64 cmrt_events_in(const struct cmrt_ctr *c, u64 cycles)
{
	u64 q;
	u32 r;

	if (!c->hnf)
		return 0;
	if (!produce(c->hnf->rate[c->src], c->hnf->acc[c->src], cycles, &q, &r))
		return U64_MAX;
	return q;
}

/* Wraps of a @width-bit counter holding @v after @inc more events */
static u64 local_wraps(u64 v, u64 inc, unsigned int width)
{
	u64 mask;

	if (width == 64)
		return v + inc < v;
	mask = BIT_ULL(width) - 1;
	return (inc >> width) + (((inc & mask) + v) >> width);
}

static u64 sat_add(u64 a, u64 b)
{
	return a + b < a ? U64_MAX : a + b;
}

/* Read the registers the driver writes and act on requests */

static void snapshot(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, unsigned int lid)
{
	unsigned int i;
	u64 pmcr = cmrt_rd(m, dtc->off + CMN600M_DTC_PMCR);

	for (i = 0; i < m->desc->x_dim * m->desc->y_dim; i++) {
		struct cmrt_dtm *dtm = &m->dtms[i];

		if (dtm->domain != lid)
			continue;
		cmrt_wr(m, dtm->off + CMN600M_DTM_PMEVCNTSR,
			cmrt_rd(m, dtm->off + CMN600M_DTM_PMEVCNT));
		if (cmrt_rd(m, dtm->off + CMN600M_DTM_PMU_CONFIG) & CMN600M_DTM_CNTR_RST)
			cmrt_wr(m, dtm->off + CMN600M_DTM_PMEVCNT, 0);
	}
	for (i = 0; i < CMN600M_DTC_NR_GLOBAL; i += 2) {
		u64 pair = cmrt_rd(m, dtc->off + CMN600M_DTC_PMEVCNT_PAIR(i));

		cmrt_wr(m, dtc->off + CMN600M_DTC_PMEVCNTSR_PAIR(i), pair);
		if (pmcr & CMN600M_PMCR_CNTR_RST)
			cmrt_wr(m, dtc->off + CMN600M_DTC_PMEVCNT_PAIR(i), 0);
	}
	cmrt_wr(m, dtc->off + CMN600M_DTC_PMCCNTRSR, cmrt_rd(m, dtc->off + CMN600M_DTC_PMCCNTR));
	if (pmcr & CMN600M_PMCR_CNTR_RST)
		cmrt_wr(m, dtc->off + CMN600M_DTC_PMCCNTR, 0);
	cmrt_wr(m, dtc->off + CMN600M_DTC_PMSSR, CMN600M_PMOVSR_ALL);
}

/* pmovsr_clr is write-one-to-clear; pmsrr.ss_req asks for a snapshot */
void cmrt_service_dtc(struct cmn600_rt_mesh *m, unsigned int lid)
{
	struct cmrt_dtc *dtc = &m->dtcs[lid];
	u64 clr;

	clr = xchg(cmrt_reg(m, dtc->off + CMN600M_DTC_PMOVSR_CLR), 0) & CMN600M_PMOVSR_ALL;
	/* the stuck_bit fault: these never clear */
	clr &= ~dtc->stuck;
	if (clr)
		cmrt_wr(m, dtc->off + CMN600M_DTC_PMOVSR,
			cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) & ~clr & CMN600M_PMOVSR_ALL);
	if (cmrt_rd(m, dtc->off + CMN600M_DTC_PMSRR) & CMN600M_PMSRR_SS_REQ) {
		snapshot(m, dtc, lid);
		cmrt_wr(m, dtc->off + CMN600M_DTC_PMSRR, 0);
	}
}

void cmrt_service(struct cmn600_rt_mesh *m)
{
	unsigned int i;

	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];
		u64 *p = cmrt_reg(m, h->off + CMN600M_HNF_EVENT_SEL);
		u64 old = READ_ONCE(*p);

		/* reserved bits read as zero */
		h->sel = old & CMN600M_HNF_EVENT_SEL_RW;
		if (h->sel != old)
			cmpxchg(p, old, h->sel);
	}
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];

		if (!dtc->present)
			continue;
		cmrt_service_dtc(m, i);
		dtc->pmcr = cmrt_rd(m, dtc->off + CMN600M_DTC_PMCR);
		dtc->active = (cmrt_rd(m, dtc->off + CMN600M_DTC_CTL) & CMN600M_DTC_CTL_DT_EN) &&
			      (dtc->pmcr & CMN600M_PMCR_PMU_EN);
	}
}

/* Source emitted on event slot @k of an HN-F whose pmu_event_sel is @sel, or -1 */
static int slot_src(u64 sel, unsigned int k)
{
	return src_of((sel >> (8 * k)) & 0x1f, FIELD_GET(CMN600M_HNF_OCCUP1_ID, sel));
}

static void add_ctr(struct cmn600_rt_mesh *m, struct cmrt_dtm *dtm, u64 cfg, u64 cnt,
		    unsigned int n, unsigned int width, unsigned int pair_from, bool live)
{
	struct cmrt_ctr *c = &m->ctrs[m->nr_ctrs++];
	unsigned int sel = (cfg & CMN600M_DTM_INPUT_SEL(n)) >> (32 + 8 * n);

	c->dtm = dtm;
	c->n = n;
	c->width = width;
	c->hnf = NULL;
	c->dtc = &m->dtcs[dtm->domain];
	c->global = -1;
	if (cfg & CMN600M_DTM_PAIRED(pair_from))
		c->global = (cfg & CMN600M_DTM_GLOBAL_NUM(pair_from)) >> (16 + 4 * pair_from);
	c->val = width == 64 ? cnt : (cnt >> (16 * n)) & (BIT_ULL(width) - 1);
	c->wraps = 0;

	/* port p, device d, event slot k of a device on this XP */
	if (sel >= 0x10 && sel < 0x30) {
		unsigned int p = (sel - 0x10) >> 4, d = (sel >> 2) & 3, k = sel & 3;
		struct cmrt_hnf *h = dtm->dev[p][d];
		int src;

		if (!h)
			return;
		/* the chunk's selection, or the register as it is now (dumps) */
		src = slot_src(live ? cmrt_rd(m, h->off + CMN600M_HNF_EVENT_SEL) &
				      CMN600M_HNF_EVENT_SEL_RW : h->sel, k);
		if (src < 0)
			return;
		c->hnf = h;
		c->src = src;
	}
}

/*
 * The DTM counters from the DTM pmu_config registers, into m->ctrs: those
 * of DTMs whose DTC counts (@all: every DTM with pmu_en), with their
 * sources from the chunk's pmu_event_sel (@live: from the registers now).
 * Each counted source is marked in its HN-F's counting mask.
 */
static void plan_dtms(struct cmn600_rt_mesh *m, bool all, bool live)
{
	unsigned int i;

	m->nr_ctrs = 0;
	for (i = 0; i < m->desc->x_dim * m->desc->y_dim; i++) {
		struct cmrt_dtm *dtm = &m->dtms[i];
		u64 cfg, cnt;

		if (!m->dtcs[dtm->domain].present ||
		    (!all && !m->dtcs[dtm->domain].active))
			continue;
		cfg = cmrt_rd(m, dtm->off + CMN600M_DTM_PMU_CONFIG);
		if (!(cfg & CMN600M_DTM_PMU_EN))
			continue;
		cnt = cmrt_rd(m, dtm->off + CMN600M_DTM_PMEVCNT);
		if (cfg & CMN600M_DTM_ALL_COMBINED) {
			add_ctr(m, dtm, cfg, cnt, 0, 64, 3, live);
			continue;
		}
		if (cfg & CMN600M_DTM_01_COMBINED) {
			add_ctr(m, dtm, cfg, cnt, 0, 32, 1, live);
		} else {
			add_ctr(m, dtm, cfg, cnt, 0, 16, 0, live);
			add_ctr(m, dtm, cfg, cnt, 1, 16, 1, live);
		}
		if (cfg & CMN600M_DTM_23_COMBINED) {
			add_ctr(m, dtm, cfg, cnt, 2, 32, 3, live);
		} else {
			add_ctr(m, dtm, cfg, cnt, 2, 16, 2, live);
			add_ctr(m, dtm, cfg, cnt, 3, 16, 3, live);
		}
	}
	for (i = 0; i < m->nr_hnfs; i++)
		m->hnfs[i].counting = 0;
	for (i = 0; i < m->nr_ctrs; i++)
		if (m->ctrs[i].hnf)
			m->ctrs[i].hnf->counting |= BIT_ULL(m->ctrs[i].src);
}

/* Which counters count in this chunk */
void cmrt_plan(struct cmn600_rt_mesh *m)
{
	plan_dtms(m, false, false);
}

static u32 global_val(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, unsigned int g)
{
	return cmrt_rd(m, dtc->off + CMN600M_DTC_PMEVCNT_PAIR(g)) >> CMN600M_DTC_PMEVCNT_SHIFT(g);
}

/*
 * Would a counter whose overflow raises a new interrupt wrap within @c
 * cycles? Monotonic in @c, so the first such cycle is found by bisection.
 */
static bool irq_wrap_within(struct cmn600_rt_mesh *m, u64 c)
{
	u64 sum[CMN600_MODEL_MAX_DTCS][CMN600M_DTC_NR_GLOBAL] = { };
	unsigned int i, g;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];
		u64 ovs, cyc;

		if (!dtc->present || !dtc->active || !(dtc->pmcr & CMN600M_PMCR_OVFL_INTR_EN))
			continue;
		ovs = cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR);
		cyc = cmrt_rd(m, dtc->off + CMN600M_DTC_PMCCNTR) & CMRT_CYCLES_MASK;
		if (!(ovs & CMN600M_PMOVSR_CYCLES) && c > CMRT_CYCLES_MASK - cyc)
			return true;
	}
	for (i = 0; i < m->nr_ctrs; i++) {
		struct cmrt_ctr *ctr = &m->ctrs[i];
		unsigned int d = ctr->dtm->domain;

		if (ctr->global < 0 || !ctr->hnf)
			continue;
		sum[d][ctr->global] = sat_add(sum[d][ctr->global],
					      local_wraps(ctr->val, cmrt_events_in(ctr, c),
							  ctr->width));
	}
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];
		u64 ovs;

		if (!dtc->present || !dtc->active || !(dtc->pmcr & CMN600M_PMCR_OVFL_INTR_EN))
			continue;
		ovs = cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR);
		for (g = 0; g < CMN600M_DTC_NR_GLOBAL; g++)
			if (!(ovs & BIT(g)) && sum[i][g] &&
			    sat_add(global_val(m, dtc, g), sum[i][g]) > U32_MAX)
				return true;
	}
	return false;
}

static u64 chunk_len(struct cmn600_rt_mesh *m, u64 remaining)
{
	u64 lo = 1, hi = remaining;

	if (!irq_wrap_within(m, remaining))
		return remaining;
	while (lo < hi) {
		u64 mid = lo + (hi - lo) / 2;

		if (irq_wrap_within(m, mid))
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Advance all sources by @c cycles, plus any near_wrap burst; counters get
 * the events of this chunk. A source that a planned counter counts adds
 * them to its counted total as well; a source that a planned counter counts
 * on any HN-F of the mesh adds them to its windowed total.
 */
void cmrt_produce_all(struct cmn600_rt_mesh *m, u64 c)
{
	unsigned int i, s;
	u64 anywhere = 0;

	for (i = 0; i < m->nr_hnfs; i++)
		anywhere |= m->hnfs[i].counting;
	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];

		for (s = 0; s < CMN600_RT_NR_SRC; s++) {
			u64 q = h->burst[s];

			if (h->rate[s]) {
				u64 r;

				produce(h->rate[s], h->acc[s], c, &r, &h->acc[s]);
				q += r;
			}
			h->burst[s] = 0;
			h->chunk[s] = q;
			h->truth[s] += q;
			if (h->counting & BIT_ULL(s))
				h->counted[s] += q;
			if (anywhere & BIT_ULL(s))
				h->windowed[s] += q;
		}
	}
}

/*
 * Add the chunk's events to the local counters of one DTM. The driver may
 * write the register concurrently in free-running mode, so update it with
 * cmpxchg and recompute the wraps from whatever value won.
 */
static void count_dtm(struct cmn600_rt_mesh *m, struct cmrt_dtm *dtm, unsigned int first,
		      unsigned int last)
{
	u64 *p = cmrt_reg(m, dtm->off + CMN600M_DTM_PMEVCNT);
	u64 old = READ_ONCE(*p), new, prev;
	unsigned int i;

	for (;;) {
		new = old;
		for (i = first; i < last; i++) {
			struct cmrt_ctr *c = &m->ctrs[i];
			u64 inc = c->hnf ? c->hnf->chunk[c->src] : 0;
			u64 mask, v;

			if (c->width == 64) {
				c->wraps = local_wraps(old, inc, 64);
				new = old + inc;
				continue;
			}
			mask = (BIT_ULL(c->width) - 1) << (16 * c->n);
			v = (old & mask) >> (16 * c->n);
			c->wraps = local_wraps(v, inc, c->width);
			new = (new & ~mask) | (((v + inc) << (16 * c->n)) & mask);
		}
		if (new == old)
			return;
		prev = cmpxchg(p, old, new);
		if (prev == old)
			return;
		old = prev;
	}
}

/* Add the chunk's events to every planned local counter (sets their wraps) */
void cmrt_count_dtms(struct cmn600_rt_mesh *m)
{
	unsigned int i, first;

	for (first = 0; first < m->nr_ctrs; first = i) {
		for (i = first; i < m->nr_ctrs && m->ctrs[i].dtm == m->ctrs[first].dtm; i++)
			;
		count_dtm(m, m->ctrs[first].dtm, first, i);
	}
}

/* @c cycles of the chunk passed: the mesh's and each counting DTC's time */
void cmrt_count_time(struct cmn600_rt_mesh *m, u64 c)
{
	unsigned int i;

	m->cycles += c;
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
		if (m->dtcs[i].present && m->dtcs[i].active)
			m->dtcs[i].active_cycles += c;
}

/* Add @inc to global counter @g (32 bits, in a shared 64-bit word) */
bool cmrt_count_global(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, unsigned int g,
		       u64 inc)
{
	u64 *p = cmrt_reg(m, dtc->off + CMN600M_DTC_PMEVCNT_PAIR(g));
	unsigned int shift = CMN600M_DTC_PMEVCNT_SHIFT(g);
	u64 old = READ_ONCE(*p), new, prev, v;

	for (;;) {
		v = (old >> shift) & U32_MAX;
		new = (old & ~((u64)U32_MAX << shift)) | (((v + inc) & U32_MAX) << shift);
		prev = cmpxchg(p, old, new);
		if (prev == old)
			return inc > U32_MAX - v;
		old = prev;
	}
}

bool cmrt_count_cycles(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, u64 c)
{
	u64 *p = cmrt_reg(m, dtc->off + CMN600M_DTC_PMCCNTR);
	u64 old = READ_ONCE(*p), prev, v;

	for (;;) {
		v = old & CMRT_CYCLES_MASK;
		prev = cmpxchg(p, old, (v + c) & CMRT_CYCLES_MASK);
		if (prev == old)
			return c > CMRT_CYCLES_MASK - v;
		old = prev;
	}
}

static int match_base(struct device *dev, const void *data)
{
	struct platform_device *pdev = to_platform_device(dev);
	const u64 *base = data;
	unsigned int i;

	for (i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if (resource_type(r) == IORESOURCE_MEM && r->start == *base)
			return 1;
	}
	return 0;
}

/*
 * Linux irq of a DTC: interrupt <rank of the DTC in lid order, among the
 * DTCs the firmware gives an interrupt> of the firmware device (DT or
 * ACPI) whose memory resource starts at the mesh base, whether or not a
 * driver is bound to it. 0 for a DTC without one (irq=none) or with one
 * Linux cannot resolve (irq=defer: the lookup returns -EPROBE_DEFER).
 */
static int dtc_irq(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc)
{
	struct device *dev;
	int irq;

	if (dtc->irq > 0)
		return dtc->irq;
	if (!dtc->has_irq)
		return 0;
	dev = bus_find_device(&platform_bus_type, NULL, &m->desc->base, match_base);
	if (!dev)
		return 0;
	irq = platform_get_irq_optional(to_platform_device(dev), dtc->index);
	put_device(dev);
	if (irq > 0)
		dtc->irq = irq;
	return irq > 0 ? irq : 0;
}

/* Resolve the DTCs' Linux irqs (may sleep: process context only) */
void cmrt_resolve_irqs(struct cmn600_rt_mesh *m)
{
	unsigned int i;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];
		unsigned long flags;
		int irq;

		if (!dtc->present || READ_ONCE(dtc->irq) > 0)
			continue;
		irq = dtc_irq(m, dtc);
		raw_spin_lock_irqsave(&m->lock, flags);
		dtc->irq = irq;
		raw_spin_unlock_irqrestore(&m->lock, flags);
	}
}

/*
 * The CPU that observes the mesh: the one DTC0's interrupt is delivered to,
 * where the drivers pin their interrupt and program the counters. Any
 * context; uses only an irq number resolved earlier.
 */
static unsigned int observer_cpu(struct cmn600_rt_mesh *m)
{
	int irq = READ_ONCE(m->dtcs[0].irq);
	struct irq_data *d;
	unsigned int cpu;

	if (m->dtcs[0].present && irq > 0) {
		d = irq_get_irq_data(irq);
		if (d) {
			cpu = cpumask_first_and(irq_data_get_effective_affinity_mask(d),
						cpu_online_mask);
			if (cpu < nr_cpu_ids)
				return cpu;
			cpu = cpumask_first_and(irq_data_get_affinity_mask(d), cpu_online_mask);
			if (cpu < nr_cpu_ids)
				return cpu;
		}
	}
	return cpumask_first(cpu_online_mask);
}

/* Is @irq still pending or being handled? Any context. */
bool cmrt_irq_busy(int irq)
{
	bool pending = false, active = false;

	if (irq_get_irqchip_state(irq, IRQCHIP_STATE_PENDING, &pending))
		return false;
	if (irq_get_irqchip_state(irq, IRQCHIP_STATE_ACTIVE, &active))
		return pending;
	return pending || active;
}

/*
 * How long a flag raised on @irq may stay set (rt.h): a line some driver
 * has started may be disabled for a while (a migration) and its CPU may
 * not run for a while (a loaded host), so wait long; with no driver on
 * it, nobody will clear the flag. Any context.
 */
unsigned int cmrt_irq_limit_ms(int irq)
{
	struct irq_data *d = irq > 0 ? irq_get_irq_data(irq) : NULL;

	return d && irqd_is_started(d) ? CMRT_IRQ_STARVE_MS : CMRT_IRQ_TIMEOUT_MS;
}

/* Make an overflow interrupt pending; true if it was raised. Any context. */
bool cmrt_raise_irq(struct cmn600_rt_mesh *m, unsigned int lid)
{
	struct cmrt_dtc *dtc = &m->dtcs[lid];
	int irq = READ_ONCE(dtc->irq), ret;

	if (irq <= 0) {
		pr_warn_ratelimited("mesh%u dtc%u: no interrupt found for the region at 0x%llx\n",
				    m->index, lid, (unsigned long long)m->desc->base);
		return false;
	}
	ret = irq_set_irqchip_state(irq, IRQCHIP_STATE_PENDING, true);
	if (ret) {
		pr_warn_ratelimited("mesh%u dtc%u: cannot raise irq %d: %d\n", m->index, lid,
				    irq, ret);
		return false;
	}
	return true;
}

/*
 * Raise DTC @lid's interrupt from m->raise_work, with m->lock held. Raising
 * takes the line's descriptor lock. The model holds m->lock inside perf's
 * critical sections (its probes run under a context's lock, which the
 * scheduler takes under a runqueue lock), and CPU hotplug takes descriptor
 * locks and then wakes interrupt threads (p->pi_lock, then a runqueue
 * lock): a raise under m->lock closes that circle (lockdep saw it in
 * 60-abuse-fuzz on the debug kernel with ACPI, which has a threaded
 * interrupt). The irq_work runs as soon as this CPU enables interrupts,
 * with no lock held. False when the DTC has no line (nothing will come).
 */
bool cmrt_raise_later(struct cmn600_rt_mesh *m, unsigned int lid)
{
	if (READ_ONCE(m->dtcs[lid].irq) <= 0)
		return cmrt_raise_irq(m, lid);	/* warns, false */
	set_bit(lid, &m->raise_bits);
	irq_work_queue(&m->raise_work);
	return true;
}

/*
 * A warning with m->lock held: perf's paths take m->lock inside their own
 * locks (the probes), so the console, which can wake tasks, is not entered
 * under it (lockdep saw m->lock -> console_owner -> ... -> ctx->lock ->
 * m->lock in 60-abuse-fuzz); raise_work prints it once the lock is gone.
 */
void cmrt_locked_warn(struct cmn600_rt_mesh *m, const char *fmt, ...)
{
	va_list args;

	lockdep_assert_held(&m->lock);
	if (m->nr_warn == CMRT_WARN_LINES) {
		m->warn_dropped++;
	} else {
		va_start(args, fmt);
		vsnprintf(m->warn[m->nr_warn++], CMRT_WARN_LEN, fmt, args);
		va_end(args);
	}
	irq_work_queue(&m->raise_work);
}

static void raise_work_fn(struct irq_work *work)
{
	struct cmn600_rt_mesh *m = container_of(work, struct cmn600_rt_mesh, raise_work);
	unsigned long bits = xchg(&m->raise_bits, 0), flags;
	char line[CMRT_WARN_LEN];
	unsigned int i, dropped;

	for_each_set_bit(i, &bits, CMN600_MODEL_MAX_DTCS)
		cmrt_raise_irq(m, i);
	for (;;) {
		raw_spin_lock_irqsave(&m->lock, flags);
		if (!m->nr_warn) {
			dropped = m->warn_dropped;
			m->warn_dropped = 0;
			raw_spin_unlock_irqrestore(&m->lock, flags);
			break;
		}
		strscpy(line, m->warn[0], sizeof(line));
		memmove(m->warn[0], m->warn[1], --m->nr_warn * sizeof(m->warn[0]));
		raw_spin_unlock_irqrestore(&m->lock, flags);
		pr_warn("%s", line);
	}
	if (dropped)
		pr_warn("mesh%u: %u more warning(s) dropped\n", m->index, dropped);
}

/* Manual step: raise, then sleep until the driver cleared the flag */
static void raise_and_wait(struct cmn600_rt_mesh *m, unsigned int lid, u64 bits)
{
	struct cmrt_dtc *dtc = &m->dtcs[lid];
	unsigned long start, flags;
	unsigned int limit;
	bool cleared;

	cmrt_resolve_irqs(m);
	/*
	 * On a line shared with another DTC, the handler of that DTC's
	 * interrupt may have served these flags already: the level fell, no
	 * new interrupt
	 */
	raw_spin_lock_irqsave(&m->lock, flags);
	cmrt_service_dtc(m, lid);
	cleared = !(cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) & bits);
	if (cleared)
		dtc->irqs += hweight64(bits);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	if (cleared || !cmrt_raise_irq(m, lid))
		return;
	raw_spin_lock_irqsave(&m->lock, flags);
	dtc->irqs += hweight64(bits);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	start = jiffies;
	for (;;) {
		raw_spin_lock_irqsave(&m->lock, flags);
		cmrt_service_dtc(m, lid);
		cleared = !(cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) & bits);
		raw_spin_unlock_irqrestore(&m->lock, flags);
		if (cleared)
			return;
		limit = cmrt_irq_limit_ms(READ_ONCE(dtc->irq));
		if (time_after(jiffies, start + msecs_to_jiffies(limit))) {
			pr_warn("mesh%u dtc%u: overflow 0x%llx not cleared within %u ms\n",
				m->index, lid, (unsigned long long)bits, limit);
			return;
		}
		usleep_range(50, 100);
	}
}

/*
 * Set overflow flags @bits of @dtc in pmovsr. Returns those that went from
 * clear to set while the DTC's overflow interrupt is enabled: each is an
 * interrupt to raise.
 */
u64 cmrt_set_overflow(struct cmn600_rt_mesh *m, struct cmrt_dtc *dtc, u64 bits)
{
	u64 old;

	if (!bits)
		return 0;
	old = cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR);
	cmrt_wr(m, dtc->off + CMN600M_DTC_PMOVSR, old | bits);
	if (!(dtc->pmcr & CMN600M_PMCR_OVFL_INTR_EN))
		return 0;
	return bits & ~old;
}

/*
 * Move the counters by @c cycles with the plan in m->ctrs. @newbits gets,
 * per DTC, the overflow flags that went from clear to set with the
 * interrupt enabled: the interrupts to raise. Called with m->lock held.
 */
static void advance(struct cmn600_rt_mesh *m, u64 c, u64 *newbits)
{
	u64 gsum[CMN600_MODEL_MAX_DTCS][CMN600M_DTC_NR_GLOBAL] = { };
	unsigned int i, g;

	cmrt_produce_all(m, c);
	cmrt_count_dtms(m);
	for (i = 0; i < m->nr_ctrs; i++) {
		struct cmrt_ctr *ctr = &m->ctrs[i];

		if (ctr->global >= 0 && ctr->wraps)
			gsum[ctr->dtm->domain][ctr->global] += ctr->wraps;
	}

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];
		u64 bits = 0;

		newbits[i] = 0;
		if (!dtc->present || !dtc->active)
			continue;
		for (g = 0; g < CMN600M_DTC_NR_GLOBAL; g++)
			if (gsum[i][g] && cmrt_count_global(m, dtc, g, gsum[i][g]))
				bits |= BIT_ULL(g);
		if (cmrt_count_cycles(m, dtc, c))
			bits |= CMN600M_PMOVSR_CYCLES;
		newbits[i] = cmrt_set_overflow(m, dtc, bits);
	}
	cmrt_count_time(m, c);
}

struct step_chunk {
	struct cmn600_rt_mesh *m;
	u64 remaining;		/* in: cycles left to step */
	u64 done;		/* out: cycles of this chunk */
	u64 newbits[CMN600_MODEL_MAX_DTCS];	/* out: interrupts to raise */
};

/* One chunk of a manual step, on the observer CPU with interrupts off */
static void step_chunk(void *data)
{
	struct step_chunk *a = data;
	struct cmn600_rt_mesh *m = a->m;
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	cmrt_service(m);
	a->done = 0;
	memset(a->newbits, 0, sizeof(a->newbits));
	if (a->remaining) {
		cmrt_plan(m);
		a->done = chunk_len(m, a->remaining);
		advance(m, a->done, a->newbits);
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

static void on_observer(struct cmn600_rt_mesh *m, smp_call_func_t fn, void *arg)
{
	unsigned int tries;

	/* the observer may go offline between the lookup and the call */
	for (tries = 0; tries < 3; tries++)
		if (!smp_call_function_single(observer_cpu(m), fn, arg, 1))
			return;
	fn(arg);
}

static void probe_register(void);

/**
 * cmn600_rt_step() - advance a mesh by @cycles cycles
 * @m: the mesh
 * @cycles: number of cycles, any u64
 *
 * Each chunk runs on the observer CPU with interrupts off; between chunks
 * this sleeps while the driver handles overflow interrupts. A mesh in race
 * mode is stepped by its race threads instead (cmrt_race_step()).
 */
void cmn600_rt_step(struct cmn600_rt_mesh *m, u64 cycles)
{
	struct step_chunk a = { .m = m, .remaining = cycles };
	unsigned int i;

	/* race threads wait out perf's brackets: the probes tell them */
	if (READ_ONCE(m->race.on))
		probe_register();
	if (cmrt_race_step(m, cycles))
		return;
	cmrt_resolve_irqs(m);
	do {
		on_observer(m, step_chunk, &a);
		a.remaining -= a.done;
		for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
			if (a.newbits[i])
				raise_and_wait(m, i, a.newbits[i]);
	} while (a.remaining);
	/* what the driver wrote last, for instance a snapshot request */
	on_observer(m, step_chunk, &a);
}

/* An overflow interrupt for flags @bits of DTC @lid was raised at @now */
void cmrt_note_raised(struct cmn600_rt_mesh *m, unsigned int lid, u64 bits, u64 now)
{
	struct cmrt_dtc *dtc = &m->dtcs[lid];

	dtc->irqs += hweight64(bits);
	dtc->wait_bits |= bits;
	dtc->wait_since = now;
}

/*
 * Raised overflow flags the driver has not cleared yet: warn about those
 * still set past cmrt_irq_limit_ms() after the raise (and stop waiting
 * for them). True while some are still awaited.
 */
bool cmrt_watch_overflow(struct cmn600_rt_mesh *m, u64 now)
{
	unsigned int i, limit;
	bool held = false;
	u64 age;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];

		if (!dtc->present || !dtc->wait_bits)
			continue;
		dtc->wait_bits &= cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR);
		age = now - dtc->wait_since;
		if (dtc->wait_bits && age > CMRT_IRQ_TIMEOUT_MS * NSEC_PER_MSEC) {
			limit = cmrt_irq_limit_ms(dtc->irq);
			if (age > (u64)limit * NSEC_PER_MSEC) {
				cmrt_locked_warn(m, "mesh%u dtc%u: overflow 0x%llx not cleared within %u ms\n",
						 m->index, i,
						 (unsigned long long)dtc->wait_bits, limit);
				dtc->wait_bits = 0;
			}
		}
		if (dtc->wait_bits)
			held = true;
	}
	return held;
}

/*
 * Free-running clock: one tick, in hard-irq context on the observer CPU
 * with m->lock held. Counts the pending cycles in chunks; a chunk that
 * raises an interrupt ends the tick, and nothing more is counted until the
 * driver has cleared the flag (it handles the interrupt as soon as the
 * hrtimer returns) or the limit of cmrt_watch_overflow() has passed.
 * Cycles not counted stay pending for the next tick.
 */
static void free_tick(struct cmn600_rt_mesh *m, u64 now)
{
	u64 newbits[CMN600_MODEL_MAX_DTCS];
	bool raised = false;
	unsigned int i;

	cmrt_service(m);
	if (cmrt_watch_overflow(m, now))
		return;
	while (m->pending && !raised) {
		u64 c;

		cmrt_plan(m);
		c = chunk_len(m, m->pending);
		advance(m, c, newbits);
		m->pending -= c;
		for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
			if (!newbits[i] || !cmrt_raise_later(m, i))
				continue;
			cmrt_note_raised(m, i, newbits[i], now);
			raised = true;
		}
		if (m->pending && !raised)
			cmrt_service(m);
	}
}

/* Turn the wall time since the last tick into pending cycles (m->lock held) */
u64 cmrt_clock_elapsed(struct cmn600_rt_mesh *m)
{
	u64 now = ktime_get_ns(), ns;

	/* ns * MHz = thousandths of a cycle; an hour bounds the product */
	ns = min_t(u64, now - m->last_ns, 3600 * NSEC_PER_SEC);
	m->last_ns = now;
	m->pending += div_u64_rem(ns * m->freq_mhz + m->frac, 1000, &m->frac);
	return now;
}

/*
 * Meshes whose clock runs, for the probe below. Lock order: clocks_lock,
 * then a mesh's lock.
 */
static LIST_HEAD(running_clocks);
static DEFINE_RAW_SPINLOCK(clocks_lock);
static DEFINE_MUTEX(probe_mutex);

/* Catch up every running clock observed from this CPU (interrupts off) */
static void catch_up_here(void)
{
	unsigned int cpu = smp_processor_id();
	struct cmn600_rt_mesh *m;
	unsigned long flags;

	raw_spin_lock_irqsave(&clocks_lock, flags);
	list_for_each_entry(m, &running_clocks, clock_node) {
		raw_spin_lock(&m->lock);
		if (m->clock_on && observer_cpu(m) == cpu)
			free_tick(m, cmrt_clock_elapsed(m));
		raw_spin_unlock(&m->lock);
	}
	raw_spin_unlock_irqrestore(&clocks_lock, flags);
}

/*
 * perf brackets every reprogramming of a PMU (rotation of multiplexed
 * events, add, del, disable) with perf_pmu_disable() on the CPU that owns
 * the events. Hardware counts continuously, so bring the counters up to
 * the present right there, before the driver reads or reprograms them:
 * the time since the last tick then counts for the configuration that was
 * live during it, on the observer CPU's own timeline, however late the
 * tick would have been (a starved vCPU runs perf's and the model's expired
 * timers in expiry order). Only system-wide PMUs (uncore, like both CMN
 * drivers) are of interest.
 */
static int pmu_disable_probe(struct kprobe *p, struct pt_regs *regs)
{
	struct pmu *pmu = (struct pmu *)regs_get_kernel_argument(regs, 0);

	if (pmu && pmu->task_ctx_nr == perf_invalid_context) {
		catch_up_here();
		cmrt_race_bracket(true);
	}
	return 0;
}

/* The end of the bracket: race mode may hold carries back again */
static int pmu_enable_probe(struct kprobe *p, struct pt_regs *regs)
{
	struct pmu *pmu = (struct pmu *)regs_get_kernel_argument(regs, 0);

	if (pmu && pmu->task_ctx_nr == perf_invalid_context)
		cmrt_race_bracket(false);
	return 0;
}

/*
 * Likewise before perf reads an event on its CPU (__perf_event_read(), the
 * cross-call every read of an active event goes through): a count read
 * there is current, not as old as the last tick, which a starved vCPU can
 * make tens of milliseconds.
 */
static int event_read_probe(struct kprobe *p, struct pt_regs *regs)
{
	catch_up_here();
	return 0;
}

/*
 * Registered in this order and unregistered in the reverse one: each probe
 * is armed on its own, and perf may run whole brackets on other CPUs in
 * between. With the enable probe armed first, such a bracket only closes
 * one that was never counted (cmrt_race_bracket() does not go below zero);
 * the other way round it would count one that never closes, and hold the
 * race threads until RACE_BRACKET_MAX_NS.
 */
static struct kprobe probes[] = {
	{ .symbol_name = "perf_pmu_enable", .pre_handler = pmu_enable_probe },
	{ .symbol_name = "perf_pmu_disable", .pre_handler = pmu_disable_probe },
	{ .symbol_name = "__perf_event_read", .pre_handler = event_read_probe },
};

/* 1: registered, -1: could not be (logged once), 0: not tried yet */
static int probe_state[ARRAY_SIZE(probes)];

/*
 * Hardware applies a write-one-to-clear of pmovsr_clr at once: the next
 * read of pmovsr shows the flag clear, or set again by a later wrap. The
 * model sees the write only at its next step point. An overflow handler
 * clears the flags it served last, and with the free clock stopped (or
 * until its next tick) nothing else would land that clear: a driver that
 * then looked at the flags again (stop() reading the last wraps of a
 * closing event, another handler) would find a served flag still set and
 * count its wrap twice. So the end of the handlers of an interrupt line is
 * a step point for the overflow flags of the model DTCs wired to it: a
 * probe on add_interrupt_randomness(), which handle_irq_event_percpu()
 * calls after the handlers of every flow type, with the line's descriptor
 * unlocked (the model raises interrupts under its own lock, which must not
 * nest inside a descriptor's), and which lives in another file, so it is
 * never inlined there.
 */
static LIST_HEAD(irq_meshes);
static DEFINE_RAW_SPINLOCK(irq_meshes_lock);

static int irq_handled(struct kprobe *p, struct pt_regs *regs)
{
	int irq = (int)regs_get_kernel_argument(regs, 0);
	struct cmn600_rt_mesh *m;
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&irq_meshes_lock, flags);
	list_for_each_entry(m, &irq_meshes, irq_node) {
		raw_spin_lock(&m->lock);
		for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
			if (m->dtcs[i].present && m->dtcs[i].irq == irq)
				cmrt_service_dtc(m, i);
		raw_spin_unlock(&m->lock);
	}
	raw_spin_unlock_irqrestore(&irq_meshes_lock, flags);
	return 0;
}

static struct kprobe handled_probe = {
	.symbol_name = "add_interrupt_randomness",
	.pre_handler = irq_handled,
};

/* The DTC's overflow interrupt output is asserted (m->lock held) */
static bool dtc_level(struct cmn600_rt_mesh *m, const struct cmrt_dtc *dtc)
{
	return (cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) & CMN600M_PMOVSR_ALL) &&
	       (cmrt_rd(m, dtc->off + CMN600M_DTC_PMCR) & CMN600M_PMCR_OVFL_INTR_EN);
}

/*
 * The overflow interrupt is a level: it is asserted while a flag is set and
 * pmcr.ovfl_intr_en is on. The model makes it pending once per flag, and
 * Linux does not resend a level interrupt that came while its line was
 * disabled: a lazy disable_irq() takes the pending state and masks the
 * line, and enable_irq() drops it, trusting the level to be seen again
 * when the line is unmasked. So when enable_irq() has returned (the
 * descriptor unlocked again), each model DTC on the line whose level is
 * high makes it pending again, unless it is pending or being handled
 * already.
 */
static int irq_enable_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	*(unsigned int *)ri->data = (unsigned int)regs_get_kernel_argument(regs, 0);
	return 0;
}

static int irq_enabled(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	unsigned int irq = *(unsigned int *)ri->data, i;
	struct irq_data *d = irq_get_irq_data(irq);
	struct cmn600_rt_mesh *m;
	unsigned long flags;
	bool busy;

	/* still disabled: enable_irq() calls nest */
	if (!d || irqd_irq_disabled(d))
		return 0;
	/*
	 * Asked before m->lock: the line's state takes its descriptor lock,
	 * which CPU hotplug holds while it wakes tasks, and the probes take
	 * m->lock under perf's context lock (lockdep, 60-abuse-fuzz with ACPI)
	 */
	busy = cmrt_irq_busy(irq);
	raw_spin_lock_irqsave(&irq_meshes_lock, flags);
	list_for_each_entry(m, &irq_meshes, irq_node) {
		raw_spin_lock(&m->lock);
		for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
			struct cmrt_dtc *dtc = &m->dtcs[i];

			if (!dtc->present || dtc->irq != (int)irq)
				continue;
			cmrt_service_dtc(m, i);
			if (dtc_level(m, dtc) && !busy && cmrt_raise_later(m, i))
				dtc->reasserts++;
		}
		raw_spin_unlock(&m->lock);
	}
	raw_spin_unlock_irqrestore(&irq_meshes_lock, flags);
	return 0;
}

static struct kretprobe enable_probe = {
	.kp.symbol_name = "enable_irq",
	.entry_handler = irq_enable_entry,
	.handler = irq_enabled,
	.data_size = sizeof(unsigned int),
};

/* 1: registered, -1: could not be, 0: not tried yet; under probe_mutex */
static int handled_state, enable_state;

/*
 * The flags of @m are served when handlers return, and its levels seen
 * again when a line is enabled, from now on; it fails the mesh when they
 * cannot be, since a served flag would then read as set until the next
 * step point, and a level raised while its line was disabled be lost.
 */
static int irq_watch(struct cmn600_rt_mesh *m)
{
	const char *name = NULL;
	unsigned long flags;
	int ret = 0;

	mutex_lock(&probe_mutex);
	if (handled_state <= 0) {
		ret = register_kprobe(&handled_probe);
		handled_state = ret ? -1 : 1;
		name = handled_probe.symbol_name;
	}
	if (!ret && enable_state <= 0) {
		ret = register_kretprobe(&enable_probe);
		enable_state = ret ? -1 : 1;
		name = enable_probe.kp.symbol_name;
	}
	mutex_unlock(&probe_mutex);
	if (ret) {
		pr_err("no probe on %s (%d): overflow interrupts cannot be modelled\n", name, ret);
		return ret;
	}
	raw_spin_lock_irqsave(&irq_meshes_lock, flags);
	list_add(&m->irq_node, &irq_meshes);
	raw_spin_unlock_irqrestore(&irq_meshes_lock, flags);
	return 0;
}

static void irq_unwatch(struct cmn600_rt_mesh *m)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&irq_meshes_lock, flags);
	list_del(&m->irq_node);
	raw_spin_unlock_irqrestore(&irq_meshes_lock, flags);
}

static void probe_register(void)
{
	unsigned int i;
	int ret;

	mutex_lock(&probe_mutex);
	for (i = 0; i < ARRAY_SIZE(probes); i++) {
		if (probe_state[i])
			continue;
		ret = register_kprobe(&probes[i]);
		if (ret)
			pr_info("no probe on %s (%d): fewer catch-ups\n", probes[i].symbol_name,
				ret);
		probe_state[i] = ret ? -1 : 1;
	}
	mutex_unlock(&probe_mutex);
}

/**
 * cmn600_rt_exit() - release what the runtime holds beyond the meshes
 *
 * Call after every mesh was destroyed.
 */
void cmn600_rt_exit(void)
{
	unsigned int i;

	mutex_lock(&probe_mutex);
	for (i = ARRAY_SIZE(probes); i-- > 0;) {
		if (probe_state[i] > 0)
			unregister_kprobe(&probes[i]);
		probe_state[i] = 0;
	}
	if (handled_state > 0)
		unregister_kprobe(&handled_probe);
	if (enable_state > 0)
		unregister_kretprobe(&enable_probe);
	handled_state = 0;
	enable_state = 0;
	mutex_unlock(&probe_mutex);
}

static enum hrtimer_restart clock_expiry(struct hrtimer *timer)
{
	struct cmn600_rt_mesh *m = container_of(timer, struct cmn600_rt_mesh, timer);
	unsigned long flags;
	u64 now;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (!m->clock_on) {
		raw_spin_unlock_irqrestore(&m->lock, flags);
		return HRTIMER_NORESTART;
	}
	now = cmrt_clock_elapsed(m);
	if (observer_cpu(m) != smp_processor_id()) {
		raw_spin_unlock_irqrestore(&m->lock, flags);
		/*
		 * The interrupt moved (affinity, hotplug): follow it. Queued
		 * outside the mesh's lock, which the catch-up probe takes under
		 * perf's context lock: the workqueue's locks (and the wakeup's)
		 * must not nest inside it.
		 */
		queue_work(system_wq, &m->handoff);
		return HRTIMER_NORESTART;
	}
	free_tick(m, now);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	hrtimer_forward_now(timer, ns_to_ktime(TICK_NS));
	return HRTIMER_RESTART;
}

/* Runs on the CPU the timer is to be pinned to */
static void clock_arm(void *data)
{
	struct cmn600_rt_mesh *m = data;
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (m->clock_on)
		hrtimer_start(&m->timer, ns_to_ktime(TICK_NS), HRTIMER_MODE_REL_PINNED_HARD);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

static void clock_handoff(struct work_struct *work)
{
	struct cmn600_rt_mesh *m = container_of(work, struct cmn600_rt_mesh, handoff);

	cmrt_resolve_irqs(m);
	cpus_read_lock();
	if (smp_call_function_single(observer_cpu(m), clock_arm, m, 1)) {
		/* no online observer: anywhere is better than stopping */
		preempt_disable();
		clock_arm(m);
		preempt_enable();
	}
	cpus_read_unlock();
}

/**
 * cmn600_rt_clock_start() - run the mesh's free-running clock
 * @m: the mesh
 * @freq_mhz: model cycles per microsecond
 *
 * Process context. Serialised with cmn600_rt_clock_stop() by the caller.
 */
void cmn600_rt_clock_start(struct cmn600_rt_mesh *m, u32 freq_mhz)
{
	unsigned long flags;

	probe_register();
	raw_spin_lock_irqsave(&m->lock, flags);
	m->freq_mhz = freq_mhz;
	if (m->race.on) {
		raw_spin_unlock_irqrestore(&m->lock, flags);
		cmrt_race_start(m);
		return;
	}
	if (m->clock_on) {
		raw_spin_unlock_irqrestore(&m->lock, flags);
		return;
	}
	m->clock_on = true;
	m->last_ns = ktime_get_ns();
	m->frac = 0;
	m->pending = 0;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	raw_spin_lock_irqsave(&clocks_lock, flags);
	list_add(&m->clock_node, &running_clocks);
	raw_spin_unlock_irqrestore(&clocks_lock, flags);
	clock_handoff(&m->handoff);
}

/**
 * cmn600_rt_clock_stop() - stop the free-running clock; the mesh keeps the
 * cycles counted so far
 * @m: the mesh
 *
 * Process context; waits for a running expiry and hand-off (or the race
 * threads, which deliver every carry in flight) to finish.
 */
void cmn600_rt_clock_stop(struct cmn600_rt_mesh *m)
{
	unsigned long flags;
	unsigned int i;

	cmrt_race_stop(m);
	raw_spin_lock_irqsave(&clocks_lock, flags);
	raw_spin_lock(&m->lock);
	if (m->clock_on)
		list_del(&m->clock_node);
	m->clock_on = false;
	raw_spin_unlock(&m->lock);
	raw_spin_unlock_irqrestore(&clocks_lock, flags);
	/* an expiry that saw clock_on may still queue the hand-off: wait for it */
	hrtimer_cancel(&m->timer);
	cancel_work_sync(&m->handoff);
	raw_spin_lock_irqsave(&m->lock, flags);
	m->pending = 0;
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
		m->dtcs[i].wait_bits = 0;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

void cmn600_rt_set_freq(struct cmn600_rt_mesh *m, u32 freq_mhz)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	m->freq_mhz = freq_mhz;
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/* On the observer CPU: bring a free-running clock up to now */
static void sync_here(void *data)
{
	struct cmn600_rt_mesh *m = data;
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (m->clock_on && observer_cpu(m) == smp_processor_id())
		free_tick(m, cmrt_clock_elapsed(m));
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/**
 * cmn600_rt_sync() - count the free-running clock's time up to now
 * @m: the mesh
 *
 * So that truth, cycles and counted read in free mode are current, not as
 * old as the last tick. Process context; nothing to do in manual or race
 * mode.
 */
void cmn600_rt_sync(struct cmn600_rt_mesh *m)
{
	if (READ_ONCE(m->clock_on))
		smp_call_function_single(observer_cpu(m), sync_here, m, 1);
}

u64 cmn600_rt_cycles(struct cmn600_rt_mesh *m)
{
	unsigned long flags;
	u64 c;

	raw_spin_lock_irqsave(&m->lock, flags);
	c = m->cycles;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return c;
}

/*
 * The clock's time so far in cycles, counted or still pending (the free
 * clock stops counting while an overflow interrupt waits to be cleared),
 * and the ktime in ns up to which it has been taken. Over a free-running
 * interval the first moves by exactly the second times freq_mhz / 1000,
 * however late the ticks ran.
 */
void cmn600_rt_show_elapsed(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned long flags;
	u64 c, ns;

	raw_spin_lock_irqsave(&m->lock, flags);
	c = m->cycles + m->pending;
	ns = m->last_ns;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	seq_printf(s, "%llu %llu\n", (unsigned long long)c,
		   (unsigned long long)ns);
}

/* Workload profiles */

struct profile_rate {
	u8 event;
	s8 cls;		/* occupancy class for event 0x0f, else -1 */
	u32 rate;	/* events per 1000 cycles */
};

static const struct profile_rate idle_rates[] = {
	{ 0x02, -1, 4 }, { 0x01, -1, 1 }, { 0x05, -1, 4 }, { 0x0d, -1, 1 },
	{ 0x06, -1, 1 }, { 0x0f, 0, 6 }, { 0x0f, 1, 4 }, { 0x0f, 2, 2 },
	{ },
};

static const struct profile_rate stream_rates[] = {
	{ 0x02, -1, 220 }, { 0x01, -1, 190 }, { 0x03, -1, 180 }, { 0x04, -1, 12 },
	{ 0x05, -1, 225 }, { 0x06, -1, 8 }, { 0x07, -1, 6 }, { 0x0a, -1, 70 },
	{ 0x0b, -1, 25 }, { 0x0c, -1, 5 }, { 0x0d, -1, 195 }, { 0x10, -1, 9 },
	{ 0x14, -1, 30 }, { 0x15, -1, 4 }, { 0x16, -1, 3 }, { 0x18, -1, 10 },
	{ 0x0f, 0, 9000 }, { 0x0f, 1, 6500 }, { 0x0f, 2, 2500 }, { 0x0f, 3, 0 },
	{ 0x0f, 4, 0 },
	{ },
};

static const struct profile_rate cachehot_rates[] = {
	{ 0x02, -1, 420 }, { 0x01, -1, 6 }, { 0x03, -1, 6 }, { 0x04, -1, 2 },
	{ 0x05, -1, 425 }, { 0x06, -1, 60 }, { 0x07, -1, 1 }, { 0x0a, -1, 1 },
	{ 0x0d, -1, 6 }, { 0x17, -1, 1 }, { 0x18, -1, 15 },
	{ 0x0f, 0, 1500 }, { 0x0f, 1, 1200 }, { 0x0f, 2, 250 }, { 0x0f, 3, 30 },
	{ 0x0f, 4, 20 },
	{ },
};

static const struct profile_rate snoopy_rates[] = {
	{ 0x02, -1, 160 }, { 0x01, -1, 35 }, { 0x03, -1, 30 }, { 0x04, -1, 20 },
	{ 0x05, -1, 165 }, { 0x06, -1, 120 }, { 0x07, -1, 22 }, { 0x08, -1, 85 },
	{ 0x09, -1, 16 }, { 0x0d, -1, 35 }, { 0x11, -1, 4 }, { 0x12, -1, 2 },
	{ 0x13, -1, 1 }, { 0x18, -1, 130 }, { 0x19, -1, 11 }, { 0x1a, -1, 5 },
	{ 0x1b, -1, 3 }, { 0x1c, -1, 9 }, { 0x1d, -1, 6 }, { 0x1e, -1, 4 },
	{ 0x1f, -1, 45 },
	{ 0x0f, 0, 5000 }, { 0x0f, 1, 3000 }, { 0x0f, 2, 1200 }, { 0x0f, 3, 500 },
	{ 0x0f, 4, 300 },
	{ },
};

static const struct profile_rate *const profiles[CMN600_RT_NR_PROFILES] = {
	[CMN600_RT_PROFILE_IDLE] = idle_rates,
	[CMN600_RT_PROFILE_STREAM] = stream_rates,
	[CMN600_RT_PROFILE_CACHEHOT] = cachehot_rates,
	[CMN600_RT_PROFILE_SNOOPY] = snoopy_rates,
};

static const char *const profile_names[CMN600_RT_NR_PROFILES] = {
	"idle", "stream", "cachehot", "snoopy", "constant",
};

const char *cmn600_rt_profile_name(enum cmn600_rt_profile p)
{
	return (unsigned int)p < CMN600_RT_NR_PROFILES ? profile_names[p] : "?";
}

int cmn600_rt_profile_parse(const char *name, enum cmn600_rt_profile *p)
{
	unsigned int i;

	for (i = 0; i < CMN600_RT_NR_PROFILES; i++) {
		if (!strcmp(name, profile_names[i])) {
			*p = i;
			return 0;
		}
	}
	return -EINVAL;
}

/* Every HN-F gets the profile's rates scaled by 90..110%, by logical id */
static void set_profile(struct cmn600_rt_mesh *m, enum cmn600_rt_profile p)
{
	const struct profile_rate *r;
	unsigned int i;

	if (p >= CMN600_RT_PROFILE_CONSTANT)
		return;
	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];
		unsigned int scale = 90 + (h->lid * 7 + m->index * 3) % 21;

		memset(h->rate, 0, sizeof(h->rate));
		for (r = profiles[p]; r->event; r++)
			h->rate[src_of(r->event, r->cls < 0 ? 0 : r->cls)] =
				r->rate * scale / 100;
	}
}

void cmn600_rt_set_profile(struct cmn600_rt_mesh *m, enum cmn600_rt_profile p)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	set_profile(m, p);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

static int set_rate(struct cmn600_rt_mesh *m, bool all, u16 nodeid,
		    unsigned int event, int occupid, u32 rate);

/**
 * cmn600_rt_set_rate() - set an event rate on one or every HN-F
 * @m: the mesh
 * @all: every HN-F of the mesh (@nodeid ignored)
 * @nodeid: node_info id of the HN-F
 * @event: HN-F event id 0x01..0x1f
 * @occupid: class for event 0x0f, -1 for all five; must be -1 otherwise
 * @rate: events per 1000 cycles
 *
 * Return: 0 or -EINVAL.
 */
int cmn600_rt_set_rate(struct cmn600_rt_mesh *m, bool all, u16 nodeid,
		       unsigned int event, int occupid, u32 rate)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&m->lock, flags);
	ret = set_rate(m, all, nodeid, event, occupid, rate);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return ret;
}

static int set_rate(struct cmn600_rt_mesh *m, bool all, u16 nodeid,
		    unsigned int event, int occupid, u32 rate)
{
	unsigned int i, cls, found = 0;

	if (event == 0 || event > CMN600_RT_NR_EVENTS)
		return -EINVAL;
	if (occupid >= 0 && (event != CMN600_RT_OCC_EVENT || occupid >= CMN600_RT_NR_CLASSES))
		return -EINVAL;
	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];

		if (!all && h->id != nodeid)
			continue;
		found++;
		if (event != CMN600_RT_OCC_EVENT)
			h->rate[src_of(event, 0)] = rate;
		else if (occupid >= 0)
			h->rate[src_of(event, occupid)] = rate;
		else
			for (cls = 0; cls < CMN600_RT_NR_CLASSES; cls++)
				h->rate[src_of(event, cls)] = rate;
	}
	return found ? 0 : -EINVAL;
}

/* seq_file output does not sleep, so it can be produced under the lock */
static void show_locked(struct seq_file *s, struct cmn600_rt_mesh *m,
			void (*show)(struct seq_file *s, struct cmn600_rt_mesh *m))
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	show(s, m);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

static void show_rates(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned int i, src;
	int cls;

	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];

		for (src = 0; src < CMN600_RT_NR_SRC; src++) {
			unsigned int e = event_of(src, &cls);

			if (!h->rate[src])
				continue;
			seq_printf(s, "node=0x%x event=0x%02x", h->id, e);
			if (cls >= 0)
				seq_printf(s, " occupid=%d", cls);
			seq_printf(s, " rate=%u\n", h->rate[src]);
		}
	}
}

void cmn600_rt_show_rates(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_locked(s, m, show_rates);
}

enum cmrt_totals { CMRT_TRUTH, CMRT_COUNTED, CMRT_WINDOWED };

/* The per-source totals @which in the truth file's format */
static void show_totals(struct seq_file *s, struct cmn600_rt_mesh *m, enum cmrt_totals which)
{
	unsigned int i, e, cls;

	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];
		const u64 *t = which == CMRT_COUNTED ? h->counted :
			       which == CMRT_WINDOWED ? h->windowed : h->truth;

		for (e = 1; e <= CMN600_RT_NR_EVENTS; e++) {
			if (e != CMN600_RT_OCC_EVENT) {
				seq_printf(s, "0x%x 0x%02x - %llu\n", h->id, e,
					   (unsigned long long)t[src_of(e, 0)]);
				continue;
			}
			for (cls = 0; cls < CMN600_RT_NR_CLASSES; cls++)
				seq_printf(s, "0x%x 0x%02x %u %llu\n", h->id, e, cls,
					   (unsigned long long)t[src_of(e, cls)]);
		}
	}
}

static void show_truth(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_totals(s, m, CMRT_TRUTH);
}

void cmn600_rt_show_truth(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_locked(s, m, show_truth);
}

static void show_counted(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_totals(s, m, CMRT_COUNTED);
}

void cmn600_rt_show_counted(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_locked(s, m, show_counted);
}

static void show_windowed(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_totals(s, m, CMRT_WINDOWED);
}

void cmn600_rt_show_windowed(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_locked(s, m, show_windowed);
}

/*
 * The counters as the registers hold them now, for tests that predict
 * wraps: one line per DTC, then one per DTM counter (or combined counter)
 * of every DTM with pmu_en, with the source it selects.
 */
static void show_counters(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned int i, g;
	int cls;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];
		u64 pmcr, ctl;

		if (!dtc->present)
			continue;
		pmcr = cmrt_rd(m, dtc->off + CMN600M_DTC_PMCR);
		ctl = cmrt_rd(m, dtc->off + CMN600M_DTC_CTL);
		seq_printf(s, "dtc %u addr=0x%llx irq=%d active=%d intr=%d active_cycles=%llu pmovsr=0x%llx cycles=%llu global=",
			   i, (unsigned long long)(m->desc->base + dtc->off), dtc->irq,
			   (ctl & CMN600M_DTC_CTL_DT_EN) && (pmcr & CMN600M_PMCR_PMU_EN),
			   !!(pmcr & CMN600M_PMCR_OVFL_INTR_EN),
			   (unsigned long long)dtc->active_cycles,
			   (unsigned long long)(cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) &
						CMN600M_PMOVSR_ALL),
			   (unsigned long long)(cmrt_rd(m, dtc->off + CMN600M_DTC_PMCCNTR) &
						CMRT_CYCLES_MASK));
		for (g = 0; g < CMN600M_DTC_NR_GLOBAL; g++)
			seq_printf(s, "%s%u", g ? "," : "", global_val(m, dtc, g));
		seq_putc(s, '\n');
	}
	/* the plan is rebuilt at every step point, so it can be borrowed here */
	plan_dtms(m, true, true);
	for (i = 0; i < m->nr_ctrs; i++) {
		const struct cmrt_ctr *c = &m->ctrs[i];
		unsigned int xp = c->dtm - m->dtms;

		seq_printf(s, "ctr %u %u 0x%llx %u %u %llu %u ", xp % m->desc->x_dim,
			   xp / m->desc->x_dim,
			   (unsigned long long)(m->desc->base + c->dtm->off + CMN600M_DTM_PMEVCNT),
			   c->n, c->width, (unsigned long long)c->val, c->dtm->domain);
		if (c->global >= 0)
			seq_printf(s, "%d ", c->global);
		else
			seq_puts(s, "- ");
		if (!c->hnf) {
			seq_puts(s, "- - -\n");
			continue;
		}
		seq_printf(s, "0x%x 0x%02x ", c->hnf->id, event_of(c->src, &cls));
		if (cls >= 0)
			seq_printf(s, "%d\n", cls);
		else
			seq_puts(s, "-\n");
	}
}

void cmn600_rt_show_counters(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	cmrt_resolve_irqs(m);
	show_locked(s, m, show_counters);
}

static void show_irqs(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned int i;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
		if (m->dtcs[i].present)
			seq_printf(s, "dtc%u %llu\n", i, (unsigned long long)m->dtcs[i].irqs);
}

void cmn600_rt_show_irqs(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	show_locked(s, m, show_irqs);
}

void cmn600_rt_show_info(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	const struct cmn600_model_mesh *d = m->desc;

	seq_printf(s, "%u %u %s %u %u %u 0x%llx 0x%llx 0x%llx\n", d->x_dim, d->y_dim,
		   cmn600_model_rev_name(d->rev), m->info.nr_nodes, m->info.nr_hnfs,
		   m->info.nr_dtcs, (unsigned long long)d->base, (unsigned long long)d->size,
		   (unsigned long long)d->root);
}

static int cmp_hnf(const void *a, const void *b)
{
	const struct cmrt_hnf *x = a, *y = b;

	return (int)x->lid - (int)y->lid;
}

/**
 * cmn600_rt_create() - map a mesh's region, build its image, set up state
 * @desc: the mesh (copied)
 * @index: mesh number (order in the file)
 * @fault: fault to build into the image
 * @out: the new mesh
 *
 * Return: 0 or a negative errno.
 */
int cmn600_rt_create(const struct cmn600_model_mesh *desc, unsigned int index,
		     enum cmn600_model_fault fault, struct cmn600_rt_mesh **out)
{
	struct cmn600_rt_mesh *m;
	unsigned int i, x, y, rank = 0;
	int ret;

	if (!desc->has_base)
		return -EINVAL;
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	m->desc = kmemdup(desc, sizeof(*desc), GFP_KERNEL);
	if (!m->desc) {
		ret = -ENOMEM;
		goto err;
	}
	raw_spin_lock_init(&m->lock);
	init_irq_work(&m->raise_work, raise_work_fn);
	cmn600_model_hrtimer_setup(&m->timer, clock_expiry, CLOCK_MONOTONIC,
				   HRTIMER_MODE_REL_PINNED_HARD);
	INIT_WORK(&m->handoff, clock_handoff);
	m->index = index;
	m->fault = fault;
	cmrt_race_init(m);
	m->va = memremap(desc->base, desc->size, MEMREMAP_WB);
	if (!m->va) {
		pr_err("mesh%u: cannot map 0x%llx+0x%llx\n", index,
		       (unsigned long long)desc->base, (unsigned long long)desc->size);
		ret = -ENOMEM;
		goto err;
	}
	ret = cmn600_model_build(desc, fault, m->va, desc->size, &m->info);
	if (ret)
		goto err;
	/* the reset image, kept to show what anybody wrote since */
	m->reset_len = m->info.extent;
	m->reset = kvmalloc(m->reset_len, GFP_KERNEL);
	if (!m->reset) {
		ret = -ENOMEM;
		goto err;
	}
	memcpy(m->reset, m->va, m->reset_len);

	for (y = 0; y < desc->y_dim; y++) {
		for (x = 0; x < desc->x_dim; x++) {
			struct cmrt_dtm *dtm = &m->dtms[y * desc->x_dim + x];

			dtm->off = cmn600_model_xp_offset(desc, x, y);
			dtm->domain = desc->xp_domain[x][y];
		}
	}

	m->hnfs = kcalloc(max(m->info.nr_hnfs, 1U), sizeof(*m->hnfs), GFP_KERNEL);
	if (!m->hnfs) {
		ret = -ENOMEM;
		goto err;
	}
	for (i = 0; i < desc->nr_nodes; i++) {
		const struct cmn600_model_node *n = &desc->nodes[i];
		u64 off = cmn600_model_node_offset(desc, n->x, n->y, n->port, n->dev);

		if (n->type == CMN600_MODEL_TYPE_DTC && fault != CMN600_MODEL_FAULT_NO_DTC) {
			struct cmrt_dtc *dtc = &m->dtcs[n->lid];

			dtc->present = true;
			dtc->off = off;
			dtc->spi = n->irq;
			dtc->has_irq = !n->no_irq;
		}
		if (n->type == CMN600_MODEL_TYPE_HNF && m->nr_hnfs < m->info.nr_hnfs) {
			struct cmrt_hnf *h = &m->hnfs[m->nr_hnfs++];

			h->off = off;
			/* the id the image reports, which a fault may have falsified */
			h->id = FIELD_GET(CMN600M_NODE_INFO_ID,
					  cmrt_rd(m, off + CMN600M_NODE_INFO));
			h->lid = n->lid;
			h->x = n->x;
			h->y = n->y;
			h->port = n->port;
			h->dev = n->dev;
		}
	}
	sort(m->hnfs, m->nr_hnfs, sizeof(*m->hnfs), cmp_hnf, NULL);
	for (i = 0; i < m->nr_hnfs; i++) {
		struct cmrt_hnf *h = &m->hnfs[i];

		m->dtms[h->y * desc->x_dim + h->x].dev[h->port][h->dev] = h;
	}
	/* firmware lists the interrupts it describes in DTC lid order */
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
		if (m->dtcs[i].present && m->dtcs[i].has_irq)
			m->dtcs[i].index = rank++;
	cmrt_resolve_irqs(m);
	ret = irq_watch(m);
	if (ret)
		goto err;
	*out = m;
	return 0;

err:
	kvfree(m->reset);
	if (m->va)
		memunmap(m->va);
	kfree(m->desc);
	kfree(m);
	return ret;
}

void cmn600_rt_destroy(struct cmn600_rt_mesh *m)
{
	if (!m)
		return;
	cmn600_rt_clock_stop(m);
	irq_unwatch(m);
	irq_work_sync(&m->raise_work);
	memunmap(m->va);
	kvfree(m->reset);
	kfree(m->hnfs);
	kfree(m->desc);
	kfree(m);
}

/*
 * The 64-bit words of the configuration space that differ from the image
 * built at load (the reset state), one "<offset> <reset> <now>" line each,
 * in offset order; nothing when nobody (driver or model) wrote any of it.
 * The registers are read as they are, without a step point.
 */
void cmn600_rt_show_changed(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	const u64 *now = m->va;
	u64 i, v;

	for (i = 0; i < m->reset_len / sizeof(u64); i++) {
		v = READ_ONCE(now[i]);
		if (v != m->reset[i])
			seq_printf(s, "0x%06llx 0x%016llx 0x%016llx\n",
				   (unsigned long long)(i * sizeof(u64)),
				   (unsigned long long)m->reset[i],
				   (unsigned long long)v);
		if (!(i & 0xfff))
			cond_resched();
	}
}
