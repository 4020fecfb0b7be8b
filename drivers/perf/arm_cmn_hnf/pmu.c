// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf perf glue: struct pmu callbacks, the overflow interrupt, the
 * poll timer and CPU hotplug. No register offsets here; hw.c does the
 * accesses.
 *
 * An event counts in one of three ways (enum cmn_hnf_place, logic.h):
 *
 * GLOBAL	one event slot of every HN-F taking part, each feeding a
 *		16-bit DTM counter on the HN-F's XP, which carries into one
 *		32-bit global counter. The event owns that global counter
 *		index on every DTC (CMN-600 cannot tell which DTC an XP
 *		reports to), so its count is the sum over all DTCs of the
 *		global counter times 2^16 plus the local counters. Each
 *		wrap of a global counter raises the overflow interrupt, whose
 *		flag counts the wrap when no read saw it (logic.h, "Overflow
 *		flags").
 * LOCAL32/64	a bynodeid event in a combined 32- or 64-bit counter of its
 *		HN-F's DTM, which needs no global counter and raises no
 *		interrupt: the poll timer reads the 32-bit ones every
 *		CMN_HNF_POLL_MS, well before they can wrap.
 * cycles	the 40-bit DTC0 cycle counter.
 *
 * All callbacks run on the PMU's CPU with interrupts disabled, and the
 * overflow interrupt and the poll timer are pinned to that CPU, so the data
 * path needs no locks.
 */
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include <arm_cmn_hnf/compat.h>

#include "hnf.h"

/*
 * Samples a GLOBAL read takes at most: a second one only if the first came
 * out short (a carry on its way), and nothing more; a short sample adds
 * nothing and the next read catches up.
 */
#define CMN_HNF_READ_TRIES	2

/* Allocator state and grant for group validation in event_init() */
struct cmn_hnf_scratch {
	struct cmn_hnf_alloc_state state;
	struct cmn_hnf_grant grant;
};

static bool cmn_hnf_idx_local(int idx)
{
	return idx >= CMN_HNF_IDX_LOCAL;
}

static struct cmn_hnf_local *cmn_hnf_local_of(struct cmn_hnf *cmn, int idx)
{
	return &cmn->local[idx - CMN_HNF_IDX_LOCAL];
}

static bool cmn_hnf_stopped(const struct perf_event *event)
{
	return event->hw.state & PERF_HES_STOPPED;
}

static int cmn_hnf_event_request(struct cmn_hnf *cmn,
				 struct perf_event *event,
				 struct cmn_hnf_request *req)
{
	/* config1 and config2 stay free for later extensions */
	if (event->attr.config1 || event->attr.config2)
		return -EINVAL;
	if (cmn_hnf_decode_config(event->attr.config, &req->sel))
		return -EINVAL;

	req->hnf = -1;
	if (!req->sel.cycles && req->sel.bynodeid) {
		req->hnf = cmn_hnf_find_hnf(cmn->topo, req->sel.nodeid);
		if (req->hnf < 0) {
			dev_dbg(cmn->dev, "node id 0x%x is not an HN-F\n",
				req->sel.nodeid);
			return -EINVAL;
		}
	}
	req->widths = cmn_hnf_local_widths(&req->sel, CMN_HNF_POLL_MS);
	return 0;
}

static int cmn_hnf_validate_one(struct cmn_hnf *cmn,
				struct cmn_hnf_scratch *s,
				struct perf_event *event)
{
	struct cmn_hnf_request req;

	if (event->pmu != &cmn->pmu)
		return is_software_event(event) ? 0 : -EINVAL;
	if (event->state < PERF_EVENT_STATE_OFF)
		return 0;
	if (cmn_hnf_event_request(cmn, event, &req))
		return -EINVAL;
	if (cmn_hnf_alloc(&s->state, cmn->topo, &req, &s->grant)) {
		dev_dbg(cmn->dev, "group does not fit in the counters\n");
		return -EINVAL;
	}
	return 0;
}

/*
 * Run the allocator over the whole group on an empty scratch state: a group
 * that does not fit there can never be scheduled.
 */
static int cmn_hnf_validate_group(struct cmn_hnf *cmn,
				  struct perf_event *event)
{
	struct perf_event *sibling, *leader = event->group_leader;
	struct cmn_hnf_scratch *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;

	ret = cmn_hnf_validate_one(cmn, s, leader);
	if (!ret && leader != event) {
		for_each_sibling_event(sibling, leader) {
			ret = cmn_hnf_validate_one(cmn, s, sibling);
			if (ret)
				break;
		}
		if (!ret)
			ret = cmn_hnf_validate_one(cmn, s, event);
	}
	kfree(s);
	return ret;
}

static int cmn_hnf_event_init(struct perf_event *event)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	struct cmn_hnf_request req;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;

	if (is_sampling_event(event) || event->attr.freq) {
		dev_dbg(cmn->dev, "counting only, no sampling\n");
		return -EOPNOTSUPP;
	}
	if ((event->attach_state & PERF_ATTACH_TASK) || event->cpu < 0) {
		dev_dbg(cmn->dev, "system-wide only, no per-task events\n");
		return -EINVAL;
	}
	if (event_has_any_exclude_flag(event))
		return -EINVAL;
	if (cmn_hnf_event_request(cmn, event, &req))
		return -EINVAL;

	/* The mesh is counted from one CPU, whatever the user asked for */
	event->cpu = READ_ONCE(cmn->cpu);
	event->hw.idx = CMN_HNF_IDX_NONE;

	return cmn_hnf_validate_group(cmn, event);
}

/* ---- GLOBAL events ------------------------------------------------------ */

/*
 * The XPs holding the event's DTM counters, each with the counters that
 * are the event's, so that a sample reads every XP once however many of
 * its HN-Fs take part.
 */
static void cmn_hnf_global_xps(struct cmn_hnf *cmn, struct cmn_hnf_counter *c)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	u8 at[CMN_HNF_MAX_XPS];
	unsigned int j, h, xp;

	memset(at, 0xff, sizeof(at));
	c->nxps = 0;
	c->xp_mask = 0;
	for (j = 0; j < c->count; j++) {
		h = c->first + j;
		xp = topo->hnf[h].xp;
		if (at[xp] == 0xff) {
			at[xp] = c->nxps;
			c->xp[c->nxps] = xp;
			c->fields[c->nxps] = 0;
			c->nxps++;
			c->xp_mask |= BIT_ULL(xp);
		}
		c->fields[at[xp]] |= BIT(c->grant.dtm_ctr[h]);
	}
	c->lane = cmn_hnf_fields_lane(c->fields, c->nxps);
}

/*
 * The sample of @c just accounted was short (a carry on its way): samples
 * of the event alone follow, CMN_HNF_READ_TRIES in all. Out of line, off
 * the path of every read.
 */
static noinline u64 cmn_hnf_global_retry(struct cmn_hnf *cmn,
					 struct cmn_hnf_counter *c)
{
	unsigned int tries = 1;
	u64 delta = 0;

	while (cmn_hnf_acc_short(&c->acc) && tries++ < CMN_HNF_READ_TRIES) {
		cmn_hnf_hw_sample_global(cmn, c, &cmn->sample);
		delta += cmn_hnf_acc_update(&c->acc, &cmn->sample,
					    cmn->topo->num_dtcs);
	}
	return delta;
}

/* Account the sample of @c in cmn->sample, retrying a short one */
static u64 cmn_hnf_global_account(struct cmn_hnf *cmn,
				  struct cmn_hnf_counter *c)
{
	u64 delta;

	delta = cmn_hnf_acc_update(&c->acc, &cmn->sample, cmn->topo->num_dtcs);
	if (unlikely(cmn_hnf_acc_short(&c->acc)))
		delta += cmn_hnf_global_retry(cmn, c);
	return delta;
}

/*
 * The read of a GLOBAL event: one sample, accounted. Inlined: it is the
 * whole of cmn_hnf_event_read() for the common event.
 */
static __always_inline u64 cmn_hnf_global_update(struct cmn_hnf *cmn,
						 struct cmn_hnf_counter *c)
{
	cmn_hnf_hw_sample_global(cmn, c, &cmn->sample);
	return cmn_hnf_global_account(cmn, c);
}

/* ---- LOCAL events ------------------------------------------------------- */

static u64 cmn_hnf_local_read(struct cmn_hnf *cmn, const struct cmn_hnf_local *l)
{
	return cmn_hnf_local_value(cmn_hnf_hw_read_dtm(cmn, l->xp), l->ctr,
				   l->width);
}

/* Account @val, a read of the event's XP DTM counters */
static u64 cmn_hnf_local_account(struct cmn_hnf_local *l, u64 val)
{
	u64 delta = cmn_hnf_local_step(&l->prev, val, l->ctr, l->width);

	l->seen += delta;
	return delta;
}

static u64 cmn_hnf_local_update(struct cmn_hnf *cmn, struct cmn_hnf_local *l)
{
	return cmn_hnf_local_account(l, cmn_hnf_hw_read_dtm(cmn, l->xp));
}

/*
 * LOCAL32 @l was just read, and @now is the DTC0 cycle counter read after
 * that: count the wraps that its reads since l->stamp could not see (a
 * late poll; logic.h, "Late polls") and start a new span.
 */
static void cmn_hnf_local_settle(struct cmn_hnf *cmn, struct cmn_hnf_local *l,
				 u64 now)
{
	u64 cycles = cmn_hnf_cycles_delta(l->stamp, now);
	u64 missed;
	bool late;

	missed = cmn_hnf_local_missed(&l->rate, l->seen, cycles, &late);
	l->stamp = now;
	l->seen = 0;
	if (missed)
		local64_add(missed, &l->event->count);
	if (late && !cmn->late_polls++)
		dev_warn(cmn->dev,
			 "32-bit per-HN-F counter read %llu cycles after the last poll: wraps in between counted from its rate\n",
			 cycles);
}

/*
 * DTC0's cycle counter measures time for the late-poll check and counts
 * the cycles event: it must not stop when the DTC clock is gated while
 * either is in use. Only a change is written.
 */
static void cmn_hnf_clock_update(struct cmn_hnf *cmn)
{
	bool on = cmn->ctr[CMN_HNF_IDX_CYCLES].event || cmn->nr_polled;

	if (on == cmn->cycles_clock)
		return;
	cmn->cycles_clock = on;
	cmn_hnf_hw_cycles_clock(cmn, on);
}

/* ---- any event ---------------------------------------------------------- */

/* Bring event->count up to date. */
static void cmn_hnf_update(struct cmn_hnf *cmn, struct perf_event *event)
{
	int idx = event->hw.idx;
	unsigned long flags;
	u64 delta;

	local_irq_save(flags);
	if (likely(idx < CMN_HNF_IDX_CYCLES))
		delta = cmn_hnf_global_update(cmn, &cmn->ctr[idx]);
	else if (idx == CMN_HNF_IDX_CYCLES)
		delta = cmn_hnf_cyc_update(&cmn->cyc,
					   cmn_hnf_hw_read_cycles(cmn));
	else
		delta = cmn_hnf_local_update(cmn, cmn_hnf_local_of(cmn, idx));
	local64_add(delta, &event->count);
	local_irq_restore(flags);
}

/* Forget overflow flags of global counter (or cycles, bit 8) @bit */
static void cmn_hnf_forget_overflow(struct cmn_hnf *cmn, u32 bit)
{
	unsigned int d;

	for (d = 0; d < cmn->topo->num_dtcs; d++) {
		cmn_hnf_hw_ovf_clear(cmn, d, bit);
		cmn->ovf_clearing[d] |= bit;
	}
}

/* The DTCs whose overflow flag @bit is set now */
static u8 cmn_hnf_ovf_flagged(struct cmn_hnf *cmn, u32 bit)
{
	unsigned int d;
	u8 dtcs = 0;

	for (d = 0; d < cmn->topo->num_dtcs; d++)
		if (cmn_hnf_hw_ovf_status(cmn, d) & bit)
			dtcs |= BIT(d);
	return dtcs;
}

/*
 * Where the next update counts from; taken while the event counts nothing.
 * The event's overflow flags are cleared first (in program order, before
 * the reads), so that a flag reports a wrap after the baseline. One can
 * still be found set after the reads, for a wrap in the baseline: one
 * between the clear and the reads, or one whose clear has not landed yet
 * while its interrupt waits for this CPU. The flags read after the
 * baseline (logic.h, "Overflow flags") tell the handler so.
 */
static void cmn_hnf_baseline(struct cmn_hnf *cmn, struct perf_event *event)
{
	int idx = event->hw.idx;
	struct cmn_hnf_local *l;
	unsigned long flags;

	local_irq_save(flags);
	if (idx == CMN_HNF_IDX_CYCLES) {
		cmn_hnf_hw_ovf_clear(cmn, 0, CMN_DT_PMOVSR_CYCLES);
		cmn->ovf_clearing[0] |= CMN_DT_PMOVSR_CYCLES;
		cmn_hnf_cyc_init(&cmn->cyc, cmn_hnf_hw_read_cycles(cmn));
		cmn->cyc.at_base = !!(cmn_hnf_hw_ovf_status(cmn, 0) &
				      CMN_DT_PMOVSR_CYCLES);
	} else if (cmn_hnf_idx_local(idx)) {
		l = cmn_hnf_local_of(cmn, idx);
		/* the span starts no later than the counter's baseline */
		if (l->width == 32) {
			l->stamp = cmn_hnf_hw_read_cycles(cmn);
			l->seen = 0;
		}
		l->prev = cmn_hnf_local_read(cmn, l);
	} else {
		cmn_hnf_forget_overflow(cmn, BIT(idx));
		cmn_hnf_hw_sample_global(cmn, &cmn->ctr[idx], &cmn->sample);
		cmn_hnf_acc_init(&cmn->ctr[idx].acc, &cmn->sample);
		cmn_hnf_acc_flags_at_base(&cmn->ctr[idx].acc,
					  cmn_hnf_ovf_flagged(cmn, BIT(idx)));
	}
	local_irq_restore(flags);
}

/*
 * The shadow of pmu_event_sel is what the register holds (every change is
 * written at once): a slot that holds @eventid already, under the same
 * occupancy filter, costs no access.
 */
static void cmn_hnf_set_slot(struct cmn_hnf *cmn, unsigned int hnf, u8 slot,
			     u8 eventid)
{
	if (cmn->hnf_ev[hnf][slot] == eventid &&
	    cmn->occup_hw[hnf] == cmn->alloc.occup_val[hnf])
		return;
	cmn->hnf_ev[hnf][slot] = eventid;
	cmn_hnf_hw_write_event_sel(cmn, hnf);
}

/* Write @eventid (0: none) into the event's slot of every HN-F taking part */
static void cmn_hnf_set_slots(struct cmn_hnf *cmn, struct perf_event *event,
			      u8 eventid)
{
	int idx = event->hw.idx;
	const struct cmn_hnf_counter *c;
	const struct cmn_hnf_local *l;
	unsigned int j, h;

	if (idx == CMN_HNF_IDX_CYCLES)
		return;
	if (cmn_hnf_idx_local(idx)) {
		l = cmn_hnf_local_of(cmn, idx);
		cmn_hnf_set_slot(cmn, l->req.hnf, l->slot, eventid);
		return;
	}
	c = &cmn->ctr[idx];
	for (j = 0; j < c->count; j++) {
		h = c->first + j;
		cmn_hnf_set_slot(cmn, h, c->grant.slot[h], eventid);
	}
}

/* ---- DTM programming ---------------------------------------------------- */

/* Counter @n of XP @xp counts slot @slot of HN-F @h into global @global */
static void cmn_hnf_dtm_pair(struct cmn_hnf *cmn, unsigned int h, u8 n,
			     u8 slot, u8 global)
{
	const struct cmn_hnf_node_desc *hnf = &cmn->topo->hnf[h];
	struct cmn_hnf_dtm_cfg *cfg = &cmn->dtm[hnf->xp];

	cfg->paired |= BIT(n);
	cfg->global_num[n] = global;
	cfg->input_sel[n] = cmn_hnf_dtm_input_sel(hnf->port, hnf->dev, slot);
}

/* Counters @mask of XP @xp count nothing, alone */
static void cmn_hnf_dtm_clear(struct cmn_hnf *cmn, unsigned int xp, u8 mask)
{
	struct cmn_hnf_dtm_cfg *cfg = &cmn->dtm[xp];
	unsigned int n;

	cfg->paired &= ~mask;
	for (n = 0; n < CMN_HNF_DTM_COUNTERS; n++) {
		if (!(mask & BIT(n)))
			continue;
		cfg->global_num[n] = 0;
		cfg->input_sel[n] = 0;
	}
	if ((mask & 0x3) == 0x3)
		cfg->comb &= ~CMN_HNF_COMB_01;
	if ((mask & 0xc) == 0xc)
		cfg->comb &= ~CMN_HNF_COMB_23;
	if (mask == 0xf)
		cfg->comb &= ~CMN_HNF_COMB_ALL;
}

static u8 cmn_hnf_local_mask(const struct cmn_hnf_local *l)
{
	return l->width == 64 ? 0xf : 0x3 << l->ctr;
}

static void cmn_hnf_dtm_local(struct cmn_hnf *cmn, const struct cmn_hnf_local *l)
{
	const struct cmn_hnf_node_desc *hnf = &cmn->topo->hnf[l->req.hnf];
	struct cmn_hnf_dtm_cfg *cfg = &cmn->dtm[l->xp];

	cmn_hnf_dtm_clear(cmn, l->xp, cmn_hnf_local_mask(l));
	if (l->width == 64)
		cfg->comb |= CMN_HNF_COMB_ALL;
	else
		cfg->comb |= l->ctr ? CMN_HNF_COMB_23 : CMN_HNF_COMB_01;
	/* a combined counter takes the input select of its lowest counter */
	cfg->input_sel[l->ctr] = cmn_hnf_dtm_input_sel(hnf->port, hnf->dev,
						       l->slot);
}

/* ---- poll timer --------------------------------------------------------- */

static bool cmn_hnf_poll_needed(const struct cmn_hnf *cmn)
{
	return cmn->nr_polled || (cmn->nr_polled_lines && cmn->nr_events);
}

/* Owning CPU, interrupts off: run the timer exactly while it has work */
static void cmn_hnf_poll_update(struct cmn_hnf *cmn)
{
	if (!cmn_hnf_poll_needed(cmn))
		hrtimer_try_to_cancel(&cmn->poll);
	else if (!hrtimer_active(&cmn->poll))
		hrtimer_start(&cmn->poll, ms_to_ktime(CMN_HNF_POLL_MS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * Read what has no interrupt: every running LOCAL32 event, and, while an
 * interrupt line is off, every running GLOBAL event and the cycles event.
 */
static enum hrtimer_restart cmn_hnf_poll_fn(struct hrtimer *timer)
{
	struct cmn_hnf *cmn = container_of(timer, struct cmn_hnf, poll);
	struct perf_event *event;
	bool polled = false;
	unsigned int n;
	u64 now;

	/* pinned to the PMU's CPU; anywhere else it would race the data path */
	if (smp_processor_id() != READ_ONCE(cmn->cpu))
		return HRTIMER_NORESTART;

	for_each_set_bit(n, cmn->local_used, cmn->nr_local) {
		event = cmn->local[n].event;
		if (cmn->local[n].width == 32 && !cmn_hnf_stopped(event)) {
			cmn_hnf_update(cmn, event);
			polled = true;
		}
	}
	/* one cycle count, after the counters, bounds every span */
	if (polled) {
		now = cmn_hnf_hw_read_cycles(cmn);
		for_each_set_bit(n, cmn->local_used, cmn->nr_local) {
			event = cmn->local[n].event;
			if (cmn->local[n].width == 32 && !cmn_hnf_stopped(event))
				cmn_hnf_local_settle(cmn, &cmn->local[n], now);
		}
	}
	if (READ_ONCE(cmn->nr_polled_lines)) {
		for (n = 0; n <= CMN_HNF_IDX_CYCLES; n++) {
			event = cmn->ctr[n].event;
			if (event && !cmn_hnf_stopped(event))
				cmn_hnf_update(cmn, event);
		}
	}
	hrtimer_forward_now(timer, ms_to_ktime(CMN_HNF_POLL_MS));
	return HRTIMER_RESTART;
}

/* ---- add, del, start, stop, read ---------------------------------------- */

/* An event was added, deleted, started or stopped: plan group reads anew */
static inline void cmn_hnf_plan_forget(struct cmn_hnf *cmn)
{
	cmn->plan_valid = false;
}

static void cmn_hnf_event_start(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;
	u8 eventid;

	cmn_hnf_plan_forget(cmn);
	cmn_hnf_baseline(cmn, event);
	if (idx == CMN_HNF_IDX_CYCLES)
		eventid = 0;
	else if (cmn_hnf_idx_local(idx))
		eventid = cmn_hnf_local_of(cmn, idx)->req.sel.eventid;
	else
		eventid = cmn->ctr[idx].req.sel.eventid;
	cmn_hnf_set_slots(cmn, event, eventid);
	event->hw.state = 0;
}

/*
 * The overflow flags of @event's counter that are set now (DTC bits), on
 * the DTCs whose line is in service: a polled line's flag did not clear
 * (cmn_hnf_line_stormed()) or has no handler, and the poll reads every
 * counter well within its period.
 */
static u8 cmn_hnf_event_flagged(struct cmn_hnf *cmn, int idx)
{
	u8 live = 0, dtcs;
	unsigned int i;

	for (i = 0; i < cmn->num_irqs; i++)
		if (!cmn->irqs[i].polled)
			live |= cmn->irqs[i].dtc_mask;
	if (idx == CMN_HNF_IDX_CYCLES)
		dtcs = cmn_hnf_ovf_flagged(cmn, CMN_DT_PMOVSR_CYCLES) & BIT(0);
	else
		dtcs = cmn_hnf_ovf_flagged(cmn, BIT(idx));
	return dtcs & live;
}

/*
 * The last read of a stopping event, just made, cannot see a whole period
 * that its counter went round since the read before: only the flag, read
 * before it (@dtcs), tells, and the handler ignores a stopped event. So
 * the flags are accounted here, as the handler would (a period on a flag
 * alone stays unconfirmed), and cleared.
 */
static void cmn_hnf_stop_flags(struct cmn_hnf *cmn, struct perf_event *event,
			       u8 dtcs)
{
	int idx = event->hw.idx;
	struct cmn_hnf_acc *acc;
	u64 delta;

	if (!dtcs)
		return;
	if (idx == CMN_HNF_IDX_CYCLES) {
		delta = cmn_hnf_cyc_overflow(&cmn->cyc);
		cmn_hnf_hw_ovf_clear(cmn, 0, CMN_DT_PMOVSR_CYCLES);
		cmn->ovf_clearing[0] |= CMN_DT_PMOVSR_CYCLES;
	} else {
		acc = &cmn->ctr[idx].acc;
		delta = cmn_hnf_acc_overflow(acc, dtcs);
		cmn_hnf_forget_overflow(cmn, BIT(idx));
	}
	local64_add(delta, &event->count);
}

static void cmn_hnf_event_stop(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;
	struct cmn_hnf_local *l;
	unsigned long irqflags;
	u8 dtcs = 0;

	cmn_hnf_plan_forget(cmn);
	if (cmn_hnf_stopped(event))
		return;
	/*
	 * The slots keep the event selected: a stopped event is read no more
	 * and start() takes a new baseline, and del() takes the DTM counters
	 * off it, which stops the counting. start() then writes no slot that
	 * already holds the event.
	 */
	local_irq_save(irqflags);
	if (!cmn_hnf_idx_local(idx))
		dtcs = cmn_hnf_event_flagged(cmn, idx);
	cmn_hnf_update(cmn, event);
	cmn_hnf_stop_flags(cmn, event, dtcs);
	local_irq_restore(irqflags);
	if (cmn_hnf_idx_local(idx)) {
		l = cmn_hnf_local_of(cmn, idx);
		if (l->width == 32)
			cmn_hnf_local_settle(cmn, l, cmn_hnf_hw_read_cycles(cmn));
	}
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

/* ---- group reads (logic.h, "Group reads") -------------------------------- */

/* @event is one of ours that a group read reads */
static bool cmn_hnf_group_member(struct cmn_hnf *cmn, struct perf_event *event)
{
	return event->pmu == &cmn->pmu &&
	       event->state == PERF_EVENT_STATE_ACTIVE &&
	       event->hw.idx != CMN_HNF_IDX_NONE && !cmn_hnf_stopped(event);
}

/* Add @event to the plan of a group read, if a group read reads it */
static void cmn_hnf_plan_member(struct cmn_hnf *cmn, struct perf_event *event)
{
	struct cmn_hnf_group_sample *gs = &cmn->gs;
	int idx = event->hw.idx;

	if (!cmn_hnf_group_member(cmn, event))
		return;
	/* each member holds a counter of its own: cannot happen */
	if (WARN_ON_ONCE(cmn->plan_n >= CMN_HNF_GROUP_MEMBERS(cmn->nr_local)))
		return;
	cmn->plan_idx[cmn->plan_n++] = idx;
	if (idx == CMN_HNF_IDX_CYCLES) {
		gs->cycles = true;
	} else if (cmn_hnf_idx_local(idx)) {
		gs->xps |= BIT_ULL(cmn_hnf_local_of(cmn, idx)->xp);
	} else {
		gs->pairs |= cmn_hnf_pair_bit(idx);
		gs->xps |= cmn->ctr[idx].xp_mask;
	}
}

/*
 * Plan the reads of @leader's group: its members, and in cmn->gs the
 * registers that sample all of them. Members, their counters and the DTM
 * routes change only in add, del, start and stop, which forget the plan
 * (cmn_hnf_plan_forget()), so further reads of the same group reuse it and
 * walk no list.
 */
static noinline void cmn_hnf_group_plan(struct cmn_hnf *cmn,
					struct perf_event *leader)
{
	struct cmn_hnf_group_sample *gs = &cmn->gs;
	struct perf_event *sibling;

	gs->xps = 0;
	gs->pairs = 0;
	gs->cycles = false;
	cmn->plan_n = 0;
	cmn_hnf_plan_member(cmn, leader);
	for_each_sibling_event(sibling, leader)
		cmn_hnf_plan_member(cmn, sibling);
	cmn_hnf_group_route(gs, cmn->dtm);
	cmn->plan_leader = leader;
	cmn->plan_valid = true;
}

/*
 * Bring the member in counter @idx up to date from the group sample in
 * cmn->gs and the local sums in cmn->group_local. Inlined into
 * cmn_hnf_group_update(): it runs for every member.
 */
static __always_inline void cmn_hnf_group_account(struct cmn_hnf *cmn,
						  unsigned int idx,
						  unsigned int num_dtcs)
{
	const struct cmn_hnf_group_sample *gs = &cmn->gs;
	struct perf_event *event;
	struct cmn_hnf_counter *c;
	struct cmn_hnf_local *l;
	u64 delta;

	if (likely(idx < CMN_HNF_IDX_CYCLES)) {
		c = &cmn->ctr[idx];
		event = c->event;
		delta = cmn_hnf_acc_update_group(&c->acc, gs, idx,
						 cmn->group_local[idx], num_dtcs);
		if (unlikely(cmn_hnf_acc_short(&c->acc)))
			delta += cmn_hnf_global_retry(cmn, c);
	} else if (idx == CMN_HNF_IDX_CYCLES) {
		event = cmn->ctr[idx].event;
		delta = cmn_hnf_cyc_update(&cmn->cyc, gs->cyc);
	} else {
		l = cmn_hnf_local_of(cmn, idx);
		event = l->event;
		delta = cmn_hnf_local_account(l, gs->xp[l->xp]);
	}
	local64_add(delta, &event->count);
}

/*
 * Bring every member of @leader's group up to date from one sample of the
 * mesh. Runs inside a read transaction, which the core opens with
 * interrupts off on this CPU and ends before they are back on, so the
 * group cannot change meanwhile and no interrupt or poll reads in between.
 * Not inlined: the read() of a single event (cmn_hnf_event_read()) would
 * set up this function's larger frame too.
 */
static noinline void cmn_hnf_group_update(struct cmn_hnf *cmn, struct perf_event *leader)
{
	unsigned int i, n, num_dtcs;

	if (unlikely(!cmn->plan_valid || cmn->plan_leader != leader))
		cmn_hnf_group_plan(cmn, leader);
	lockdep_assert_irqs_disabled();
	cmn_hnf_hw_sample_group(cmn, &cmn->gs);
	if (cmn->gs.pairs)
		cmn_hnf_group_locals(&cmn->gs, cmn->dtm, cmn->group_local);
	n = cmn->plan_n;
	num_dtcs = cmn->topo->num_dtcs;
	for (i = 0; i < n; i++)
		cmn_hnf_group_account(cmn, cmn->plan_idx[i], num_dtcs);
}

/*
 * In a read transaction the first read brings the whole group up to date
 * at once (the core reads the leader first) and the others find their
 * event up to date already; outside one, each read samples its event.
 * The core calls read() with interrupts off on the PMU's CPU (in the IPI
 * of perf_event_read(), or with them saved around a local call), so a
 * GLOBAL event, the common case, is read here without saving them again.
 */
static void cmn_hnf_event_read(struct perf_event *event)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;

	if (unlikely(cmn->txn_flags & PERF_PMU_TXN_READ)) {
		if (!cmn->txn_sampled) {
			cmn->txn_sampled = true;
			cmn_hnf_group_update(cmn, event->group_leader);
		}
		return;
	}
	if (idx == CMN_HNF_IDX_NONE || cmn_hnf_stopped(event))
		return;
	if (likely(idx < CMN_HNF_IDX_CYCLES)) {
		lockdep_assert_irqs_disabled();
		local64_add(cmn_hnf_global_update(cmn, &cmn->ctr[idx]),
			    &event->count);
		return;
	}
	cmn_hnf_update(cmn, event);
}

/*
 * The DTCs count only while an event is added, the core has not disabled
 * the PMU and no add transaction is open. Only a change is written.
 */
static void cmn_hnf_apply_enable(struct cmn_hnf *cmn)
{
	bool on = cmn->nr_events && !cmn->core_disabled &&
		  !(cmn->txn_flags & PERF_PMU_TXN_ADD);

	if (on == cmn->hw_enabled)
		return;
	cmn->hw_enabled = on;
	cmn_hnf_hw_enable(cmn, on);
}

/* Take @event off the DTM-local counter @l, whose slot it keeps */
static void cmn_hnf_local_release(struct cmn_hnf *cmn, struct cmn_hnf_local *l)
{
	if (l->width == 32)
		cmn->nr_polled--;
	l->event = NULL;
	clear_bit(l - cmn->local, cmn->local_used);
}

/*
 * The allocator narrowed the 64-bit local counter of XP @xp to 32 bits
 * (counters 0-1). The PMU is stopped (add runs in a transaction), so the
 * count is brought up to date and goes on from the low half.
 */
static void cmn_hnf_narrow(struct cmn_hnf *cmn, unsigned int xp)
{
	struct cmn_hnf_local *l = &cmn->local[cmn->xp_local[xp]];
	struct perf_event *event = l->event;

	if (WARN_ON_ONCE(!event || l->width != 64))
		return;
	if (!cmn_hnf_stopped(event))
		cmn_hnf_update(cmn, event);
	l->prev &= U32_MAX;
	l->width = 32;
	l->stamp = cmn_hnf_hw_read_cycles(cmn);
	l->seen = 0;
	l->rate.known = false;
	cmn->nr_polled++;
	cmn_hnf_clock_update(cmn);
	cmn->dtm[xp].comb &= ~CMN_HNF_COMB_ALL;
	cmn->dtm[xp].comb |= CMN_HNF_COMB_01;
	cmn_hnf_hw_write_dtm(cmn, xp);
}

/*
 * The allocator moved the local event at @mv to a 16-bit counter paired
 * with a global one. Its count is brought up to date in the old place and
 * goes on from a new baseline in the new one.
 */
static void cmn_hnf_move(struct cmn_hnf *cmn, const struct cmn_hnf_move *mv)
{
	struct cmn_hnf_local *l = &cmn->local[cmn->xp_local[mv->xp] + mv->pair];
	struct cmn_hnf_counter *c = &cmn->ctr[mv->global];
	struct perf_event *event = l->event;
	bool running;

	if (WARN_ON_ONCE(!event || c->event))
		return;
	running = !cmn_hnf_stopped(event);
	if (running)
		cmn_hnf_update(cmn, event);

	c->event = event;
	c->req = l->req;
	c->grant.place = CMN_HNF_PLACE_GLOBAL;
	c->grant.global = mv->global;
	c->grant.dtm_ctr[l->req.hnf] = l->ctr;
	c->grant.slot[l->req.hnf] = l->slot;
	c->first = l->req.hnf;
	c->count = 1;
	cmn_hnf_global_xps(cmn, c);

	cmn_hnf_dtm_clear(cmn, l->xp, cmn_hnf_local_mask(l));
	cmn_hnf_dtm_pair(cmn, l->req.hnf, l->ctr, l->slot, mv->global);
	cmn_hnf_hw_write_dtm(cmn, l->xp);
	cmn_hnf_local_release(cmn, l);

	event->hw.idx = mv->global;
	if (running)
		cmn_hnf_baseline(cmn, event);
}

static int cmn_hnf_event_add(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	const struct cmn_hnf_topology *topo = cmn->topo;
	struct cmn_hnf_request req;
	struct cmn_hnf_grant grant;
	struct cmn_hnf_counter *c;
	struct cmn_hnf_local *l;
	unsigned int j, h, xp;
	int ret, idx;

	cmn_hnf_plan_forget(cmn);
	ret = cmn_hnf_event_request(cmn, event, &req);
	if (ret)
		return ret;
	/* -ENOSPC: perf core rotates the event in later */
	ret = cmn_hnf_alloc(&cmn->alloc, topo, &req, &grant);
	if (ret)
		return ret;

	for (xp = 0; xp < topo->num_xps; xp++)
		if (grant.narrowed & BIT_ULL(xp))
			cmn_hnf_narrow(cmn, xp);
	if (grant.moved.xp >= 0)
		cmn_hnf_move(cmn, &grant.moved);

	switch (grant.place) {
	case CMN_HNF_PLACE_CYCLES:
		idx = CMN_HNF_IDX_CYCLES;
		c = &cmn->ctr[idx];
		c->event = event;
		c->req = req;
		c->count = 0;
		cmn_hnf_clock_update(cmn);
		break;
	case CMN_HNF_PLACE_GLOBAL:
		idx = grant.global;
		c = &cmn->ctr[idx];
		c->event = event;
		c->req = req;
		c->grant = grant;
		c->first = req.hnf < 0 ? 0 : req.hnf;
		c->count = req.hnf < 0 ? topo->num_hnfs : 1;
		cmn_hnf_global_xps(cmn, c);
		for (j = 0; j < c->count; j++) {
			h = c->first + j;
			cmn_hnf_dtm_pair(cmn, h, grant.dtm_ctr[h], grant.slot[h],
					 grant.global);
		}
		for (j = 0; j < c->nxps; j++)
			cmn_hnf_hw_write_dtm(cmn, c->xp[j]);
		break;
	default:
		h = req.hnf;
		xp = topo->hnf[h].xp;
		idx = cmn->xp_local[xp] + grant.dtm_ctr[h] / 2;
		l = &cmn->local[idx];
		l->event = event;
		l->req = req;
		l->xp = xp;
		l->ctr = grant.dtm_ctr[h];
		l->width = grant.place == CMN_HNF_PLACE_LOCAL64 ? 64 : 32;
		l->slot = grant.slot[h];
		l->rate.known = false;
		set_bit(idx, cmn->local_used);
		if (l->width == 32)
			cmn->nr_polled++;
		cmn_hnf_clock_update(cmn);
		cmn_hnf_dtm_local(cmn, l);
		cmn_hnf_hw_write_dtm(cmn, xp);
		idx += CMN_HNF_IDX_LOCAL;
		break;
	}

	cmn->nr_events++;
	event->hw.idx = idx;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	/* start() takes the baseline; a stopped event gets one all the same */
	if (flags & PERF_EF_START)
		cmn_hnf_event_start(event, PERF_EF_RELOAD);
	else
		cmn_hnf_baseline(cmn, event);
	cmn_hnf_apply_enable(cmn);
	cmn_hnf_poll_update(cmn);
	return 0;
}

static void cmn_hnf_event_del(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	const struct cmn_hnf_topology *topo = cmn->topo;
	int idx = event->hw.idx;
	struct cmn_hnf_grant grant;
	struct cmn_hnf_counter *c;
	struct cmn_hnf_local *l;
	unsigned int j;

	cmn_hnf_plan_forget(cmn);
	if (idx == CMN_HNF_IDX_NONE)
		return;
	cmn_hnf_event_stop(event, PERF_EF_UPDATE);

	if (idx == CMN_HNF_IDX_CYCLES) {
		c = &cmn->ctr[idx];
		cmn_hnf_forget_overflow(cmn, CMN_DT_PMOVSR_CYCLES);
		grant.place = CMN_HNF_PLACE_CYCLES;
		cmn_hnf_free(&cmn->alloc, topo, &c->req, &grant);
		c->event = NULL;
	} else if (cmn_hnf_idx_local(idx)) {
		l = cmn_hnf_local_of(cmn, idx);
		cmn_hnf_dtm_clear(cmn, l->xp, cmn_hnf_local_mask(l));
		cmn_hnf_hw_write_dtm(cmn, l->xp);
		grant.place = l->width == 64 ? CMN_HNF_PLACE_LOCAL64 :
			      CMN_HNF_PLACE_LOCAL32;
		grant.dtm_ctr[l->req.hnf] = l->ctr;
		grant.slot[l->req.hnf] = l->slot;
		cmn_hnf_free(&cmn->alloc, topo, &l->req, &grant);
		cmn_hnf_local_release(cmn, l);
	} else {
		c = &cmn->ctr[idx];
		for (j = 0; j < c->count; j++) {
			unsigned int h = c->first + j;

			cmn_hnf_dtm_clear(cmn, topo->hnf[h].xp,
					  BIT(c->grant.dtm_ctr[h]));
		}
		for (j = 0; j < c->nxps; j++)
			cmn_hnf_hw_write_dtm(cmn, c->xp[j]);
		cmn_hnf_forget_overflow(cmn, BIT(idx));
		cmn_hnf_free(&cmn->alloc, topo, &c->req, &c->grant);
		c->event = NULL;
	}
	cmn->nr_events--;
	event->hw.idx = CMN_HNF_IDX_NONE;
	cmn_hnf_clock_update(cmn);
	cmn_hnf_apply_enable(cmn);
	cmn_hnf_poll_update(cmn);
}

static void cmn_hnf_pmu_enable(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	cmn->core_disabled = false;
	cmn_hnf_apply_enable(cmn);
}

static void cmn_hnf_pmu_disable(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	cmn->core_disabled = true;
	cmn_hnf_apply_enable(cmn);
}

/*
 * An add transaction keeps every DTC stopped while a group is added, so the
 * members start together and events moved to make room lose nothing. Group
 * scheduling is decided by add() itself: it runs the allocator on the live
 * state and fails with -ENOSPC, which makes the core cancel the whole
 * transaction; a commit therefore only has to restart the counters.
 *
 * A read transaction does not stop counting (every event of the mesh would
 * miss what happens while the group is read) and writes nothing: its first
 * read() samples the whole group once (cmn_hnf_group_update()), so all
 * members are read at one instant in the fewest register accesses.
 */
static void cmn_hnf_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	cmn->txn_flags = flags;
	cmn->txn_sampled = false;
	if (flags & PERF_PMU_TXN_ADD)
		cmn_hnf_apply_enable(cmn);
}

static void cmn_hnf_end_txn(struct cmn_hnf *cmn)
{
	unsigned int flags = cmn->txn_flags;

	cmn->txn_flags = 0;
	if (flags & PERF_PMU_TXN_ADD)
		cmn_hnf_apply_enable(cmn);
}

static int cmn_hnf_commit_txn(struct pmu *pmu)
{
	cmn_hnf_end_txn(to_cmn_hnf(pmu));
	return 0;
}

static void cmn_hnf_cancel_txn(struct pmu *pmu)
{
	cmn_hnf_end_txn(to_cmn_hnf(pmu));
}

/* ---- overflow interrupt ------------------------------------------------- */

/*
 * The event counting in global counter @g (or the cycles event, @g ==
 * CMN_HNF_IDX_CYCLES), if it is running: a stopped event counts nothing
 * and its stop() read it last. A flag of a counter nobody owns explains
 * nothing: one more unexplained interrupt (see cmn_hnf_ovf_stray()).
 */
static struct perf_event *cmn_hnf_ovf_event(struct cmn_hnf *cmn,
					    unsigned int g)
{
	struct perf_event *event = cmn->ctr[g].event;

	if (!event || cmn_hnf_stopped(event))
		return NULL;
	return event;
}

/* The DTCs whose overflow status of counter @g (bit @g) is set */
static u8 cmn_hnf_ovf_dtcs(const struct cmn_hnf *cmn, const u32 *status,
			   unsigned int g)
{
	unsigned int d;
	u8 dtcs = 0;

	for (d = 0; d < cmn->topo->num_dtcs; d++)
		if (status[d] & BIT(g))
			dtcs |= BIT(d);
	/* the cycle counters of all DTCs run; only DTC0's may be ours */
	if (g == CMN_HNF_IDX_CYCLES)
		dtcs &= BIT(0);
	return dtcs;
}

/*
 * Read counter @g's event (whose flags are set on @dtcs) through the normal
 * read path, which counts any wrap the read sees. True when it saw one on
 * a flagged DTC: the interrupt is explained.
 */
static bool cmn_hnf_ovf_read(struct cmn_hnf *cmn, unsigned int g, u8 dtcs)
{
	struct perf_event *event = cmn_hnf_ovf_event(cmn, g);

	if (!event || !dtcs)
		return false;
	cmn_hnf_update(cmn, event);
	if (g == CMN_HNF_IDX_CYCLES)
		return cmn->cyc.wrapped || cmn->cyc.at_base;
	return cmn_hnf_acc_explained(&cmn->ctr[g].acc, dtcs);
}

/*
 * The owners' flags this pass found clear on @line's DTCs: a flag set
 * at a baseline is gone, and one set later reports a wrap after it.
 */
static void cmn_hnf_ovf_seen_clear(struct cmn_hnf *cmn,
				   const struct cmn_hnf_irq *line,
				   const u32 *status)
{
	unsigned int d, g;
	u8 clear;

	for (g = 0; g < CMN_HNF_DTC_COUNTERS; g++) {
		if (!cmn->ctr[g].event)
			continue;
		clear = 0;
		for (d = 0; d < cmn->topo->num_dtcs; d++)
			if ((line->dtc_mask & BIT(d)) && !(status[d] & BIT(g)))
				clear |= BIT(d);
		cmn_hnf_acc_flags_clear(&cmn->ctr[g].acc, clear);
	}
	if (cmn->ctr[CMN_HNF_IDX_CYCLES].event && (line->dtc_mask & BIT(0)) &&
	    !(status[0] & CMN_DT_PMOVSR_CYCLES))
		cmn->cyc.at_base = false;
}

/* Each flag of @dtcs reports one wrap: count those no read has counted */
static void cmn_hnf_ovf_account(struct cmn_hnf *cmn, unsigned int g, u8 dtcs)
{
	struct perf_event *event = cmn_hnf_ovf_event(cmn, g);
	u64 delta;

	if (!event || !dtcs)
		return;
	if (g == CMN_HNF_IDX_CYCLES)
		delta = cmn_hnf_cyc_overflow(&cmn->cyc);
	else
		delta = cmn_hnf_acc_overflow(&cmn->ctr[g].acc, dtcs);
	local64_add(delta, &event->count);
}

/*
 * The periods added on the flags of @line's DTCs stand (@keep), or are
 * taken back because the line was storming.
 */
static void cmn_hnf_line_settle(struct cmn_hnf *cmn, struct cmn_hnf_irq *line,
				bool keep)
{
	struct perf_event *event;
	unsigned int g;
	u64 undo;

	for (g = 0; g <= CMN_HNF_IDX_CYCLES; g++) {
		event = cmn->ctr[g].event;
		if (!event)
			continue;
		if (g == CMN_HNF_IDX_CYCLES) {
			if (!(line->dtc_mask & BIT(0)))
				continue;
			if (keep)
				cmn_hnf_cyc_confirm(&cmn->cyc);
			undo = keep ? 0 : cmn_hnf_cyc_revoke(&cmn->cyc);
		} else {
			if (keep)
				cmn_hnf_acc_confirm(&cmn->ctr[g].acc, line->dtc_mask);
			undo = keep ? 0 : cmn_hnf_acc_revoke(&cmn->ctr[g].acc,
							     line->dtc_mask);
		}
		if (undo)
			local64_sub(undo, &event->count);
	}
}

/*
 * An overflow flag that fires again and again with no counter wrapping
 * would keep this CPU in the handler: take the line out of service and read
 * the counters from the poll timer instead, which needs no interrupt. The
 * periods its flags added meanwhile were never there.
 */
static void cmn_hnf_line_stormed(struct cmn_hnf *cmn, struct cmn_hnf_irq *line,
				 u32 status)
{
	disable_irq_nosync(line->irq);
	line->polled = true;
	WRITE_ONCE(cmn->nr_polled_lines, cmn->nr_polled_lines + 1);
	cmn_hnf_line_settle(cmn, line, false);
	dev_err(cmn->dev,
		"IRQ %d: %u overflow interrupts without a counter wrap (status 0x%x): line disabled, counters polled every %u ms\n",
		line->irq, CMN_HNF_STORM_IRQS, status, CMN_HNF_POLL_MS);
	cmn_hnf_poll_update(cmn);
}

/*
 * A global counter's flag set while no event owns that counter breaks the
 * driver's own bookkeeping: a global counter counts only while an event
 * holds it (add() takes it, del() clears its flags before freeing it), so
 * nothing can make it wrap. Flags cleared outside the handler that have not
 * been seen clear since (@cmn->ovf_clearing) are not held against it: the
 * interrupt may have been raised before the clear landed.
 *
 * The cycle counters are another matter: every DTC's runs whenever its
 * pmu_en is set, which it is on every DTC while any event counts, and
 * only DTC0's serves the cycles event. Their flags come every 2^40 cycles
 * whoever owns them, as the hardware is built; a cycle flag that does not
 * clear is caught by the storm rule alone.
 */
static bool cmn_hnf_ovf_stray(struct cmn_hnf *cmn, unsigned long pending)
{
	unsigned int g;

	for_each_set_bit(g, &pending, CMN_HNF_DTC_COUNTERS)
		if (!cmn->ctr[g].event)
			return true;
	return false;
}

/*
 * One pass over the DTCs on this line: read every overflow status once,
 * bring each flagged counter's event up to date once, count the wraps the
 * flags report that the reads did not see, clear what was read.
 */
irqreturn_t cmn_hnf_irq_handler(int irq, void *dev_id)
{
	struct cmn_hnf_irq *line = dev_id;
	struct cmn_hnf *cmn = line->cmn;
	u32 status[CMN_HNF_MAX_DTCS] = {};
	u8 dtcs[CMN_HNF_IDX_CYCLES + 1];
	unsigned long pending = 0, stray = 0;
	bool explained = false, storming;
	unsigned int d, g;

	for (d = 0; d < cmn->topo->num_dtcs; d++) {
		if (!(line->dtc_mask & BIT(d)))
			continue;
		status[d] = cmn_hnf_hw_ovf_status(cmn, d);
		pending |= status[d];
		stray |= status[d] & ~cmn->ovf_clearing[d];
		cmn->ovf_clearing[d] = 0;
	}
	cmn_hnf_ovf_seen_clear(cmn, line, status);
	if (!pending)
		return IRQ_NONE;
	WARN_ON_ONCE(cmn_hnf_ovf_stray(cmn, stray));

	for (g = 0; g <= CMN_HNF_IDX_CYCLES; g++) {
		dtcs[g] = (pending & BIT(g)) ? cmn_hnf_ovf_dtcs(cmn, status, g) : 0;
		explained |= cmn_hnf_ovf_read(cmn, g, dtcs[g]);
	}
	storming = cmn_hnf_storm_note(&line->storm, explained,
				      jiffies_to_msecs(jiffies));
	/* no unexplained run before this interrupt: what it added stands */
	if (cmn_hnf_storm_fresh(&line->storm))
		cmn_hnf_line_settle(cmn, line, true);
	for (g = 0; g <= CMN_HNF_IDX_CYCLES; g++)
		cmn_hnf_ovf_account(cmn, g, dtcs[g]);
	if (explained)
		cmn_hnf_line_settle(cmn, line, true);

	for (d = 0; d < cmn->topo->num_dtcs; d++)
		if (status[d])
			cmn_hnf_hw_ovf_clear(cmn, d, status[d]);

	if (storming)
		cmn_hnf_line_stormed(cmn, line, pending);
	return IRQ_HANDLED;
}

/* ---- CPU ownership ------------------------------------------------------ */

/* On the PMU's CPU (IPI): start the poll timer there if it has work */
static void cmn_hnf_poll_kick(void *data)
{
	cmn_hnf_poll_update(data);
}

/* Point every interrupt line at @cpu; the first failure is returned */
int cmn_hnf_route_irqs(struct cmn_hnf *cmn, unsigned int cpu)
{
	unsigned int i;
	int ret;

	for (i = 0; i < cmn->num_irqs; i++) {
		ret = cmn_hnf_irq_set_affinity(cmn->irqs[i].irq, cpu);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Move counting, and the interrupts that go with it, to @cpu. The lines are
 * off meanwhile, so no overflow handler runs on the old CPU while the new
 * one owns the events; a line that cannot follow stays off and is polled.
 */
void cmn_hnf_migrate(struct cmn_hnf *cmn, unsigned int cpu)
{
	struct cmn_hnf_irq *line;
	unsigned int i;
	int ret;

	for (i = 0; i < cmn->num_irqs; i++)
		disable_irq(cmn->irqs[i].irq);

	for (i = 0; i < cmn->num_irqs; i++) {
		line = &cmn->irqs[i];
		ret = cmn_hnf_irq_set_affinity(line->irq, cpu);
		if (!ret || line->polled)
			continue;
		dev_err(cmn->dev,
			"cannot move IRQ %d to CPU%u (%d): line disabled, counters polled every %u ms\n",
			line->irq, cpu, ret, CMN_HNF_POLL_MS);
		disable_irq(line->irq);
		line->polled = true;
		WRITE_ONCE(cmn->nr_polled_lines, cmn->nr_polled_lines + 1);
	}

	if (cmn->registered)
		perf_pmu_migrate_context(&cmn->pmu, cmn->cpu, cpu);
	WRITE_ONCE(cmn->cpu, cpu);
	/*
	 * The events re-added on @cpu started the poll timer there, but it may
	 * have expired before @cpu was the PMU's and then stopped: make sure.
	 */
	if (cmn->registered)
		smp_call_function_single(cpu, cmn_hnf_poll_kick, cmn, 1);

	for (i = 0; i < cmn->num_irqs; i++)
		enable_irq(cmn->irqs[i].irq);
}

/* Prefer a CPU of the mesh's own NUMA node when one comes back */
int cmn_hnf_cpu_online(unsigned int cpu, struct hlist_node *cpuhp_node)
{
	struct cmn_hnf *cmn = hlist_entry(cpuhp_node, struct cmn_hnf,
					  cpuhp_node);
	int node = dev_to_node(cmn->dev);

	if (node != NUMA_NO_NODE && cpu_to_node(cmn->cpu) != node &&
	    cpu_to_node(cpu) == node)
		cmn_hnf_migrate(cmn, cpu);
	return 0;
}

int cmn_hnf_cpu_offline(unsigned int cpu, struct hlist_node *cpuhp_node)
{
	struct cmn_hnf *cmn = hlist_entry(cpuhp_node, struct cmn_hnf,
					  cpuhp_node);
	unsigned int target;

	if (cpu != cmn->cpu)
		return 0;

	target = cmn_hnf_cpumask_any_and_but(cpumask_of_node(dev_to_node(cmn->dev)),
					     cpu_online_mask, cpu);
	if (target >= nr_cpu_ids)
		target = cpumask_any_but(cpu_online_mask, cpu);
	if (target < nr_cpu_ids)
		cmn_hnf_migrate(cmn, target);
	return 0;
}

void cmn_hnf_pmu_init(struct cmn_hnf *cmn)
{
	cmn->pmu = (struct pmu) {
		.module		= THIS_MODULE,
		.attr_groups	= cmn_hnf_attr_groups,
		.capabilities	= PERF_PMU_CAP_NO_EXCLUDE,
		.task_ctx_nr	= perf_invalid_context,
		.pmu_enable	= cmn_hnf_pmu_enable,
		.pmu_disable	= cmn_hnf_pmu_disable,
		.event_init	= cmn_hnf_event_init,
		.add		= cmn_hnf_event_add,
		.del		= cmn_hnf_event_del,
		.start		= cmn_hnf_event_start,
		.stop		= cmn_hnf_event_stop,
		.read		= cmn_hnf_event_read,
		.start_txn	= cmn_hnf_start_txn,
		.commit_txn	= cmn_hnf_commit_txn,
		.cancel_txn	= cmn_hnf_cancel_txn,
	};
	cmn_hnf_pmu_set_parent(&cmn->pmu, cmn->dev);
	cmn_hnf_hrtimer_setup(&cmn->poll, cmn_hnf_poll_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
}
