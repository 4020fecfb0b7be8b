// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf perf glue: the struct pmu callbacks, the overflow interrupt,
 * the poll timer of lines out of service, and CPU ownership.
 *
 * An event counts in one of three ways (logic.h, enum cmn_hnf_kind):
 * GLOBAL, a 16-bit DTM counter on the XP of each HN-F taking part, each
 * carrying into the event's global counter (the same index on every DTC:
 * CMN-600 cannot tell which DTC an XP reports to, so all are read and
 * summed); LOCAL, one HN-F's event in the four DTM counters of its XP
 * combined into one 64-bit counter; CYC, the DTC0 cycle counter.
 *
 * All callbacks run on the PMU's CPU with interrupts off (read() may be
 * entered with them on and turns them off), where the interrupts and the
 * poll timer are pinned: the data path takes no lock. The PMU-wide ones
 * called on a CPU the PMU has left return at once (cmn_hnf_here()).
 */
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/interrupt.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/smp.h>

#include <arm_cmn_hnf/compat.h>

#include "hnf.h"

/* What a period of a wrapping counter is worth, in events */
#define CMN_HNF_GLOBAL_PERIOD	BIT_ULL(CMN_DT_PMEVCNT_WIDTH)	/* in carries */
#define CMN_HNF_CYCLES_PERIOD	BIT_ULL(CMN_DT_PMCCNTR_WIDTH)

static bool cmn_hnf_running(struct perf_event *event)
{
	return event && !(event->hw.state & PERF_HES_STOPPED);
}

/* attr.config -> what to count and on which HN-F (-1: all) */
static int cmn_hnf_request(struct cmn_hnf *cmn, struct perf_event *event,
			   struct cmn_hnf_evsel *sel, int *hnf)
{
	/* config1 and config2 stay free for later extensions */
	if (event->attr.config1 || event->attr.config2 ||
	    cmn_hnf_decode_config(event->attr.config, sel))
		return -EINVAL;
	*hnf = -1;
	if (sel->bynodeid) {
		*hnf = cmn_hnf_find_hnf(cmn->topo, sel->nodeid);
		if (*hnf < 0) {
			dev_dbg(cmn->dev, "node id 0x%x is not one HN-F's\n", sel->nodeid);
			return -EINVAL;
		}
	}
	return 0;
}

/* Group validation: the allocator on empty counters */
struct cmn_hnf_scratch {
	struct cmn_hnf_alloc a;
	struct cmn_hnf_place p;
};

static int cmn_hnf_validate_one(struct cmn_hnf *cmn, struct cmn_hnf_scratch *s,
				struct perf_event *e)
{
	struct cmn_hnf_evsel sel;
	int hnf;

	if (e->pmu != &cmn->pmu)
		return is_software_event(e) ? 0 : -EINVAL;
	if (e->state < PERF_EVENT_STATE_OFF)
		return 0;
	return cmn_hnf_request(cmn, e, &sel, &hnf) ||
	       cmn_hnf_alloc(&s->a, cmn->topo, &sel, hnf, &s->p) ? -EINVAL : 0;
}

/* A group that does not fit on empty counters can never be scheduled */
static int cmn_hnf_validate_group(struct cmn_hnf *cmn, struct perf_event *event)
{
	struct perf_event *sibling, *leader = event->group_leader;
	struct cmn_hnf_scratch *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	ret = cmn_hnf_validate_one(cmn, s, leader);
	/* a new leader has no siblings, and no context to walk them under */
	if (event != leader) {
		for_each_sibling_event(sibling, leader)
			if (!ret)
				ret = cmn_hnf_validate_one(cmn, s, sibling);
		if (!ret)
			ret = cmn_hnf_validate_one(cmn, s, event);
	}
	kfree(s);
	return ret;
}

static int cmn_hnf_event_init(struct perf_event *event)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	struct cmn_hnf_evsel sel;
	int hnf;

	if (event->attr.type != event->pmu->type)
		return -ENOENT;
	if (is_sampling_event(event) || event->attr.freq)
		return -EOPNOTSUPP;
	if (event->cpu < 0 || event->attach_state & PERF_ATTACH_TASK)
		return -EINVAL;
	if (cmn_hnf_request(cmn, event, &sel, &hnf))
		return -EINVAL;
	/* the mesh is counted from one CPU, whichever the user asked for */
	event->cpu = READ_ONCE(cmn->cpu);
	event->hw.idx = CMN_HNF_IDX_NONE;
	return cmn_hnf_validate_group(cmn, event);
}

/* ---- reading ------------------------------------------------------------ */

static struct cmn_hnf_local *cmn_hnf_local_of(struct cmn_hnf *cmn, int idx)
{
	return &cmn->local[idx - CMN_HNF_IDX_LOCAL];
}

/* Ask @s for the registers that sample counter @idx */
static void cmn_hnf_want(struct cmn_hnf *cmn, struct cmn_hnf_sample *s, int idx)
{
	if (idx >= CMN_HNF_IDX_LOCAL) {
		s->xps |= BIT_ULL(idx - CMN_HNF_IDX_LOCAL);
	} else if (idx == CMN_HNF_CYCLES) {
		s->cycles = true;
	} else {
		s->pairs |= BIT(idx / 2);
		s->xps |= cmn->ctr[idx].xps;
	}
}

/* Overflow flags of DTC @d, but those that do not clear */
static u32 cmn_hnf_ovf(struct cmn_hnf *cmn, unsigned int d)
{
	return cmn_hnf_hw_ovf(cmn, d) & ~cmn->stuck[d];
}

/*
 * The periods counter @idx has pending on DTCs [0, @ndtcs) whose flag now
 * reads clear: a flag that does not clear would still be set.
 */
static unsigned int cmn_hnf_confirm(struct cmn_hnf *cmn, int idx, unsigned int ndtcs)
{
	struct cmn_hnf_wrap *w = cmn->ctr[idx].wrap;
	unsigned int d, n = 0;

	for (d = 0; d < ndtcs; d++)
		if (w[d].pending && !(cmn_hnf_ovf(cmn, d) & BIT(idx)))
			n += cmn_hnf_wrap_confirm(&w[d]);
	return n;
}

/* The sum of GLOBAL counter @c's 16-bit DTM counters in @s */
static u32 cmn_hnf_local_sum(const struct cmn_hnf_ctr *c, const struct cmn_hnf_sample *s)
{
	unsigned int x;
	u64 xps;
	u32 sum = 0;

	for (xps = c->xps; xps; xps &= xps - 1) {
		x = __ffs64(xps);
		sum += cmn_hnf_fields_sum(s->xp[x], c->fields[x]);
	}
	return sum;
}

/* Global counter @g of DTC @d in @s */
static u32 cmn_hnf_global(const struct cmn_hnf_sample *s, unsigned int d, unsigned int g)
{
	return g % 2 ? FIELD_GET(CMN_DT_PMEVCNT_PAIR_ODD, s->pair[d][g / 2]) :
		       FIELD_GET(CMN_DT_PMEVCNT_PAIR_EVEN, s->pair[d][g / 2]);
}

/* The DTCs whose counter @idx counts: the cycle counter is DTC0's */
static unsigned int cmn_hnf_ndtcs(struct cmn_hnf *cmn, int idx)
{
	return idx == CMN_HNF_CYCLES ? 1 : cmn->topo->num_dtcs;
}

/* The events counter @idx counted since its last read, from sample @s */
static u64 cmn_hnf_account(struct cmn_hnf *cmn, const struct cmn_hnf_sample *s, int idx)
{
	unsigned int d, ndtcs = cmn_hnf_ndtcs(cmn, idx);
	struct cmn_hnf_local *l;
	struct cmn_hnf_ctr *c;
	u64 v = 0;

	if (idx >= CMN_HNF_IDX_LOCAL) {
		l = cmn_hnf_local_of(cmn, idx);
		v = l->prev;
		l->prev = s->xp[idx - CMN_HNF_IDX_LOCAL];
		return l->prev - v;
	}
	c = &cmn->ctr[idx];
	if (idx == CMN_HNF_CYCLES) {
		v = cmn_hnf_wrap_read(&c->wrap[0], s->cyc, CMN_DT_PMCCNTR_WIDTH);
		return v + cmn_hnf_confirm(cmn, idx, 1) * CMN_HNF_CYCLES_PERIOD;
	}
	for (d = 0; d < ndtcs; d++)
		v += cmn_hnf_wrap_read(&c->wrap[d], cmn_hnf_global(s, d, idx),
				       CMN_DT_PMEVCNT_WIDTH);
	c->acc.carries += v + cmn_hnf_confirm(cmn, idx, ndtcs) * CMN_HNF_GLOBAL_PERIOD;
	return cmn_hnf_acc_update(&c->acc, cmn_hnf_local_sum(c, s));
}

/*
 * Sample the registers the counters in @idx[0..n) need into cmn->sample.
 * Interrupts off: the sample is the mesh's, shared by the data path (a
 * read() entered with them on turns them off around it).
 */
static struct cmn_hnf_sample *cmn_hnf_sample(struct cmn_hnf *cmn, const int *idx,
					     unsigned int n)
{
	struct cmn_hnf_sample *s = &cmn->sample;
	unsigned int i;

	lockdep_assert_irqs_disabled();
	s->pairs = 0;
	s->xps = 0;
	s->cycles = false;
	for (i = 0; i < n; i++)
		cmn_hnf_want(cmn, s, idx[i]);
	cmn_hnf_hw_sample(cmn, s);
	return s;
}

/* Bring the events in @idx[0..n) up to date from one sample of the mesh */
static void cmn_hnf_update(struct cmn_hnf *cmn, const int *idx, unsigned int n)
{
	struct cmn_hnf_sample *s;
	struct perf_event *event;
	unsigned long flags;
	unsigned int i;

	local_irq_save(flags);
	s = cmn_hnf_sample(cmn, idx, n);
	for (i = 0; i < n; i++) {
		if (idx[i] >= CMN_HNF_IDX_LOCAL)
			event = cmn_hnf_local_of(cmn, idx[i])->event;
		else
			event = cmn->ctr[idx[i]].event;
		local64_add(cmn_hnf_account(cmn, s, idx[i]), &event->count);
	}
	local_irq_restore(flags);
}

/* @event is one of ours that counts now */
static bool cmn_hnf_member(struct cmn_hnf *cmn, struct perf_event *event)
{
	return event->pmu == &cmn->pmu && event->hw.idx != CMN_HNF_IDX_NONE &&
	       cmn_hnf_running(event);
}

/*
 * In a read transaction (a group read) the first read() samples the whole
 * group at once and the others find their event up to date: every member
 * is read at one instant, in the fewest register accesses.
 */
static void cmn_hnf_read_group(struct cmn_hnf *cmn, struct perf_event *leader)
{
	int idx[CMN_HNF_CYCLES + 1 + CMN_HNF_MAX_XPS];	/* each counter once */
	struct perf_event *sib;
	unsigned int n = 0;

	if (cmn_hnf_member(cmn, leader))
		idx[n++] = leader->hw.idx;
	for_each_sibling_event(sib, leader)
		if (cmn_hnf_member(cmn, sib))
			idx[n++] = sib->hw.idx;
	cmn_hnf_update(cmn, idx, n);
}

static void cmn_hnf_event_read(struct perf_event *event)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);

	if (cmn->dead)
		return;
	if (!cmn->read_txn) {
		if (cmn_hnf_member(cmn, event))
			cmn_hnf_update(cmn, &event->hw.idx, 1);
	} else if (!cmn->txn_read) {
		cmn->txn_read = true;
		cmn_hnf_read_group(cmn, event->group_leader);
	}
}

/* Lines out of service are served every CMN_HNF_POLL_MS while events count */
static void cmn_hnf_poll_start(struct cmn_hnf *cmn)
{
	if (!hrtimer_active(&cmn->poll))
		hrtimer_start(&cmn->poll, ms_to_ktime(CMN_HNF_POLL_MS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

static void cmn_hnf_poll_kick(void *data)
{
	struct cmn_hnf *cmn = data;
	unsigned int i;

	for (i = 0; i < cmn->num_irqs; i++)
		if (cmn->irqs[i].polled)
			cmn_hnf_poll_start(cmn);
}

/* ---- programming -------------------------------------------------------- */

/* The DTCs count while an event is added, unless disabled or mid-add */
static void cmn_hnf_apply_enable(struct cmn_hnf *cmn)
{
	bool on = cmn->nr_events && !cmn->disabled && !cmn->add_txn;
	bool clock = cmn->ctr[CMN_HNF_CYCLES].event;

	/* each register only when it changes: a bracket costs one write a DTC */
	if (clock != cmn->clock_on) {
		cmn->clock_on = clock;
		cmn_hnf_hw_clock(cmn, clock);
	}
	if (on != cmn->hw_on) {
		cmn->hw_on = on;
		cmn_hnf_hw_enable(cmn, on);
	}
}

/* Select @eventid (0: nothing) in the event's slot of each of its HN-Fs */
static void cmn_hnf_set_slots(struct cmn_hnf *cmn, struct perf_event *event, u8 eventid)
{
	int idx = event->hw.idx;
	const struct cmn_hnf_place *p;
	struct cmn_hnf_local *l;
	unsigned int h;

	if (idx >= CMN_HNF_IDX_LOCAL) {
		l = cmn_hnf_local_of(cmn, idx);
		cmn->hnf_ev[l->hnf][l->slot] = eventid;
		cmn_hnf_hw_event_sel(cmn, l->hnf);
		return;
	}
	p = &cmn->ctr[idx].place;
	for (h = p->first; h < p->first + p->count; h++) {
		cmn->hnf_ev[h][p->slot[h]] = eventid;
		cmn_hnf_hw_event_sel(cmn, h);
	}
}

/*
 * start: a baseline, then the event selected. While nothing selects it, its
 * counters do not move, so the baseline is exact.
 */
static void cmn_hnf_event_start(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;
	unsigned int d, ndtcs = cmn_hnf_ndtcs(cmn, idx);
	struct cmn_hnf_sample *s;
	struct cmn_hnf_local *l;
	struct cmn_hnf_ctr *c;

	/* the core calls start() with interrupts off */
	if (idx >= CMN_HNF_IDX_LOCAL) {
		s = cmn_hnf_sample(cmn, &idx, 1);
		l = cmn_hnf_local_of(cmn, idx);
		l->prev = s->xp[idx - CMN_HNF_IDX_LOCAL];
		cmn_hnf_set_slots(cmn, event, l->sel.eventid);
		event->hw.state = 0;
		return;
	}
	c = &cmn->ctr[idx];
	/* no flag of the counter from before the baseline ... */
	for (d = 0; d < ndtcs; d++)
		cmn_hnf_hw_ovf_clear(cmn, d, BIT(idx));
	s = cmn_hnf_sample(cmn, &idx, 1);
	for (d = 0; d < ndtcs; d++)
		c->wrap[d] = (struct cmn_hnf_wrap) {
			.last = idx == CMN_HNF_CYCLES ? s->cyc : cmn_hnf_global(s, d, idx),
		};
	if (idx != CMN_HNF_CYCLES) {
		cmn_hnf_acc_init(&c->acc, cmn_hnf_local_sum(c, s));
		cmn_hnf_set_slots(cmn, event, c->sel.eventid);
	}
	/* ... unless the clear has not landed yet (logic.h, @stale) */
	for (d = 0; d < ndtcs; d++)
		c->wrap[d].stale = cmn_hnf_ovf(cmn, d) & BIT(idx);
	event->hw.state = 0;
}

/*
 * The last read of a stopping event may miss a whole period that its
 * counter went round since the read before, and the handler does not
 * serve a stopped event: its flags are served here, and every period
 * pending counts (Documentation/internals.rst, "Counting exactly").
 */
static void cmn_hnf_stop_flags(struct cmn_hnf *cmn, struct perf_event *event)
{
	int idx = event->hw.idx;
	struct cmn_hnf_ctr *c = &cmn->ctr[idx];
	unsigned int d, ndtcs = cmn_hnf_ndtcs(cmn, idx);
	u64 n = 0;

	for (d = 0; d < ndtcs; d++) {
		if (cmn_hnf_ovf(cmn, d) & BIT(idx)) {
			if (!c->wrap[d].stale)
				cmn_hnf_wrap_flag(&c->wrap[d]);
			cmn_hnf_hw_ovf_clear(cmn, d, BIT(idx));
		}
		n += cmn_hnf_wrap_confirm(&c->wrap[d]);
	}
	if (idx == CMN_HNF_CYCLES) {
		n *= CMN_HNF_CYCLES_PERIOD;
	} else {
		/*
		 * The last read's sample, with the periods it missed: it may be
		 * below @high (the counter back at the value of the read a
		 * period before, its DTM counters lower), so the periods go into
		 * the carries, never straight into @high.
		 */
		c->acc.carries += n * CMN_HNF_GLOBAL_PERIOD;
		n = cmn_hnf_acc_update(&c->acc, cmn_hnf_local_sum(c, &cmn->sample));
	}
	local64_add(n, &event->count);
}

static void cmn_hnf_event_stop(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);

	if (!cmn_hnf_running(event))
		return;
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (cmn->dead)
		return;
	if (event->hw.idx != CMN_HNF_CYCLES)
		cmn_hnf_set_slots(cmn, event, 0);
	cmn_hnf_update(cmn, &event->hw.idx, 1);
	if (event->hw.idx <= CMN_HNF_CYCLES)
		cmn_hnf_stop_flags(cmn, event);
}

/* Program the DTM counters of GLOBAL counter @g; and the XPs it reads */
static void cmn_hnf_program_global(struct cmn_hnf *cmn, unsigned int g)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	struct cmn_hnf_ctr *c = &cmn->ctr[g];
	const struct cmn_hnf_place *p = &c->place;
	unsigned int h, k, xp;
	u64 xps;

	c->xps = 0;
	memset(c->fields, 0, sizeof(c->fields));
	for (h = p->first; h < p->first + p->count; h++) {
		xp = topo->hnf[h].xp;
		k = p->ctr[h];
		cmn->dtm[xp] = cmn_hnf_dtm_pair(cmn->dtm[xp], k, g,
						cmn_hnf_input_sel(topo->hnf[h].port,
								  topo->hnf[h].dev, p->slot[h]));
		c->xps |= BIT_ULL(xp);
		c->fields[xp] |= BIT(k);
	}
	for (xps = c->xps; xps; xps &= xps - 1)
		cmn_hnf_hw_dtm(cmn, __ffs64(xps));
}

static int cmn_hnf_event_add(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	const struct cmn_hnf_topology *topo = cmn->topo;
	struct cmn_hnf_place *p = &cmn->place;
	struct cmn_hnf_evsel sel;
	struct cmn_hnf_local *l;
	unsigned int xp;
	int ret, hnf, idx;

	/* an event installed on a CPU the PMU has left would race its owner */
	if (cmn->dead || smp_processor_id() != READ_ONCE(cmn->cpu))
		return -EINVAL;
	ret = cmn_hnf_request(cmn, event, &sel, &hnf);
	if (!ret)
		ret = cmn_hnf_alloc(&cmn->alloc, topo, &sel, hnf, p);
	if (ret)
		return ret;	/* -ENOSPC: the core rotates it in later */

	if (p->kind == CMN_HNF_LOCAL) {
		xp = topo->hnf[hnf].xp;
		idx = CMN_HNF_IDX_LOCAL + xp;
		l = cmn_hnf_local_of(cmn, idx);
		*l = (struct cmn_hnf_local) {
			.event = event, .sel = sel, .hnf = hnf, .slot = p->slot[hnf],
		};
		cmn->dtm[xp] = cmn_hnf_dtm_local64(cmn_hnf_input_sel(topo->hnf[hnf].port,
								     topo->hnf[hnf].dev, l->slot));
		cmn_hnf_hw_dtm(cmn, xp);
	} else {
		idx = p->kind == CMN_HNF_CYC ? CMN_HNF_CYCLES : p->global;
		cmn->ctr[idx].event = event;
		cmn->ctr[idx].sel = sel;
		cmn->ctr[idx].place = *p;
		if (idx != CMN_HNF_CYCLES)
			cmn_hnf_program_global(cmn, idx);
	}
	event->hw.idx = idx;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (!cmn->nr_events++)
		cmn_hnf_poll_kick(cmn);
	if (flags & PERF_EF_START)
		cmn_hnf_event_start(event, 0);
	cmn_hnf_apply_enable(cmn);
	return 0;
}

static void cmn_hnf_event_del(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	const struct cmn_hnf_topology *topo = cmn->topo;
	int idx = event->hw.idx;
	struct cmn_hnf_place *p = &cmn->place;
	struct cmn_hnf_local *l;
	struct cmn_hnf_ctr *c;
	unsigned int h, xp;
	u64 xps;

	if (idx == CMN_HNF_IDX_NONE)
		return;
	cmn_hnf_event_stop(event, PERF_EF_UPDATE);
	if (idx >= CMN_HNF_IDX_LOCAL) {
		l = cmn_hnf_local_of(cmn, idx);
		xp = idx - CMN_HNF_IDX_LOCAL;
		p->kind = CMN_HNF_LOCAL;
		p->first = l->hnf;
		p->count = 1;
		p->slot[l->hnf] = l->slot;
		cmn_hnf_free(&cmn->alloc, topo, &l->sel, p);
		cmn->dtm[xp] = CMN_HNF_DTM_IDLE;
		cmn_hnf_hw_dtm(cmn, xp);
		l->event = NULL;
	} else {
		c = &cmn->ctr[idx];
		for (h = c->place.first; h < c->place.first + c->place.count; h++) {
			xp = topo->hnf[h].xp;
			cmn->dtm[xp] = cmn_hnf_dtm_unpair(cmn->dtm[xp], c->place.ctr[h]);
		}
		for (xps = c->xps; xps; xps &= xps - 1)
			cmn_hnf_hw_dtm(cmn, __ffs64(xps));
		cmn_hnf_free(&cmn->alloc, topo, &c->sel, &c->place);
		c->event = NULL;
	}
	event->hw.idx = CMN_HNF_IDX_NONE;
	cmn->nr_events--;
	cmn_hnf_apply_enable(cmn);
}

/* The owner, or the old owner while perf moves the events off it */
static bool cmn_hnf_here(struct cmn_hnf *cmn)
{
	unsigned int cpu = smp_processor_id();

	return cpu == READ_ONCE(cmn->cpu) || (int)cpu == READ_ONCE(cmn->from_cpu);
}

static void cmn_hnf_pmu_enable(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	if (!cmn_hnf_here(cmn))
		return;
	cmn->disabled = false;
	cmn_hnf_apply_enable(cmn);
}

static void cmn_hnf_pmu_disable(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	if (!cmn_hnf_here(cmn))
		return;
	cmn->disabled = true;
	cmn_hnf_apply_enable(cmn);
}

/*
 * An add transaction keeps the DTCs stopped while a group is added, so its
 * members start together; add() itself fails with -ENOSPC when a member
 * does not fit, so a commit has nothing to check. A read transaction stops
 * nothing: see cmn_hnf_event_read().
 */
static void cmn_hnf_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	if (!cmn_hnf_here(cmn))
		return;
	cmn->read_txn = flags & PERF_PMU_TXN_READ;
	cmn->txn_read = false;
	cmn->add_txn = flags & PERF_PMU_TXN_ADD;
	cmn_hnf_apply_enable(cmn);
}

static int cmn_hnf_commit_txn(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	if (!cmn_hnf_here(cmn))
		return 0;
	cmn->read_txn = false;
	cmn->add_txn = false;
	cmn_hnf_apply_enable(cmn);
	return 0;
}

static void cmn_hnf_cancel_txn(struct pmu *pmu)
{
	cmn_hnf_commit_txn(pmu);
}

/* ---- overflow flags ----------------------------------------------------- */

/* @line's flags @stuck do not clear: take the line out of service */
static void cmn_hnf_line_stuck(struct cmn_hnf *cmn, struct cmn_hnf_irq *line,
			       const u32 *stuck)
{
	unsigned int d, g;

	disable_irq_nosync(line->irq);
	line->polled = true;
	/* what they seemed to report was never there */
	for (d = 0; d < cmn->topo->num_dtcs; d++) {
		cmn->stuck[d] |= stuck[d];
		for (g = 0; g <= CMN_HNF_CYCLES; g++)
			if (stuck[d] & BIT(g))
				cmn->ctr[g].wrap[d].pending = 0;
	}
	dev_err(cmn->dev, "IRQ %d: an overflow flag does not clear: line disabled, counters read every %u ms\n",
		line->irq, CMN_HNF_POLL_MS);
	cmn_hnf_poll_start(cmn);
}

/*
 * Serve @line's DTCs: clear the flags that are set, then bring their
 * owners up to date, so that a read after the clear sees the wraps the
 * flags report; a flag no read explains leaves a period pending, counted
 * once the flag reads clear (or at stop). True if a flag was set.
 */
static bool cmn_hnf_serve(struct cmn_hnf *cmn, struct cmn_hnf_irq *line)
{
	unsigned int d, g, n = 0, ndtcs = cmn->topo->num_dtcs;
	u32 status[CMN_HNF_MAX_DTCS] = {}, stuck[CMN_HNF_MAX_DTCS] = {};
	bool owned, explained, bad = false;
	int idx[CMN_HNF_CYCLES + 1];
	struct cmn_hnf_wrap *w;
	u32 bits = 0;
	u64 now;

	for (d = 0; d < ndtcs; d++) {
		if (!(line->dtcs & BIT(d)))
			continue;
		status[d] = cmn_hnf_ovf(cmn, d);
		if (status[d])
			cmn_hnf_hw_ovf_clear(cmn, d, status[d]);
		bits |= status[d];
	}
	/* on a polled line every counter is read, flagged or not */
	for (g = 0; g <= CMN_HNF_CYCLES; g++)
		if (cmn_hnf_running(cmn->ctr[g].event) &&
		    (bits & BIT(g) || line->polled))
			idx[n++] = g;
	cmn_hnf_update(cmn, idx, n);

	now = ktime_get_ns();
	for (d = 0; d < ndtcs; d++) {
		for (g = 0; g <= CMN_HNF_CYCLES; g++) {
			if (!(status[d] & BIT(g)))
				continue;
			/* every DTC's cycle counter runs; DTC0's only is ours */
			owned = cmn_hnf_running(cmn->ctr[g].event) &&
				(g != CMN_HNF_CYCLES || d == 0);
			w = &cmn->ctr[g].wrap[d];
			/* a stale flag is explained: it is from before the baseline */
			explained = owned && (w->stale || cmn_hnf_wrap_flag(w));
			if (cmn_hnf_refire(&line->refire[d][g], explained, now)) {
				stuck[d] |= BIT(g);
				bad = true;
			}
		}
	}
	/* this service read every flag of the line: none is stale now */
	for (g = 0; g <= CMN_HNF_CYCLES; g++)
		for (d = 0; d < ndtcs; d++)
			if (line->dtcs & BIT(d))
				cmn->ctr[g].wrap[d].stale = false;
	if (bad && !line->polled)
		cmn_hnf_line_stuck(cmn, line, stuck);
	return bits;
}

irqreturn_t cmn_hnf_irq_handler(int irq, void *data)
{
	struct cmn_hnf_irq *line = data;

	return cmn_hnf_serve(line->cmn, line) ? IRQ_HANDLED : IRQ_NONE;
}

/* Lines out of service: their DTCs are served from here */
static enum hrtimer_restart cmn_hnf_poll_fn(struct hrtimer *timer)
{
	struct cmn_hnf *cmn = container_of(timer, struct cmn_hnf, poll);
	unsigned int i;

	if (cmn->dead || !cmn->nr_events || smp_processor_id() != READ_ONCE(cmn->cpu))
		return HRTIMER_NORESTART;
	for (i = 0; i < cmn->num_irqs; i++)
		if (cmn->irqs[i].polled)
			cmn_hnf_serve(cmn, &cmn->irqs[i]);
	hrtimer_forward_now(timer, ms_to_ktime(CMN_HNF_POLL_MS));
	return HRTIMER_RESTART;
}

/* ---- CPU ownership ------------------------------------------------------ */

/*
 * Move counting to @cpu with the lines off meanwhile, so that no handler
 * runs on the old CPU while the new one owns the events. @cpu is the
 * owner before the events move: their add() there checks it; the old CPU
 * keeps the other callbacks (cmn_hnf_here()) while perf takes them off it.
 */
void cmn_hnf_migrate(struct cmn_hnf *cmn, unsigned int cpu)
{
	unsigned int old = cmn->cpu, i;
	struct cmn_hnf_irq *line;

	for (i = 0; i < cmn->num_irqs; i++)
		disable_irq(cmn->irqs[i].irq);
	hrtimer_cancel(&cmn->poll);
	WRITE_ONCE(cmn->from_cpu, old);
	WRITE_ONCE(cmn->cpu, cpu);
	perf_pmu_migrate_context(&cmn->pmu, old, cpu);
	WRITE_ONCE(cmn->from_cpu, -1);
	for (i = 0; i < cmn->num_irqs; i++) {
		line = &cmn->irqs[i];
		if (!line->polled && cmn_hnf_irq_set_affinity(line->irq, cpu)) {
			dev_err(cmn->dev, "IRQ %d cannot move to CPU%u: line disabled, counters read every %u ms\n",
				line->irq, cpu, CMN_HNF_POLL_MS);
			line->polled = true;
		}
		if (!line->polled)
			enable_irq(line->irq);
	}
	smp_call_function_single(cpu, cmn_hnf_poll_kick, cmn, 1);
}

/* Prefer a CPU of the mesh's own node when one comes online */
int cmn_hnf_cpu_online(unsigned int cpu, struct hlist_node *node)
{
	struct cmn_hnf *cmn = hlist_entry(node, struct cmn_hnf, cpuhp_node);
	int nid = dev_to_node(cmn->dev);

	if (nid != NUMA_NO_NODE && cpu_to_node(cmn->cpu) != nid &&
	    cpu_to_node(cpu) == nid)
		cmn_hnf_migrate(cmn, cpu);
	return 0;
}

int cmn_hnf_cpu_offline(unsigned int cpu, struct hlist_node *node)
{
	struct cmn_hnf *cmn = hlist_entry(node, struct cmn_hnf, cpuhp_node);
	unsigned int target;

	if (cpu != cmn->cpu)
		return 0;
	for_each_cpu_and(target, cpumask_of_node(dev_to_node(cmn->dev)), cpu_online_mask)
		if (target != cpu)
			break;
	if (target >= nr_cpu_ids)
		target = cpumask_any_but(cpu_online_mask, cpu);
	if (target < nr_cpu_ids)
		cmn_hnf_migrate(cmn, target);
	return 0;
}

/* On the PMU's CPU: the hardware off, for reboot and kexec */
static void cmn_hnf_stop_fn(void *data)
{
	struct cmn_hnf *cmn = data;

	cmn->dead = true;
	cmn_hnf_hw_reset(cmn, false);
}

void cmn_hnf_stop_all(struct cmn_hnf *cmn)
{
	unsigned int i;

	for (i = 0; i < cmn->num_irqs; i++)
		disable_irq(cmn->irqs[i].irq);
	hrtimer_cancel(&cmn->poll);
	smp_call_function_single(READ_ONCE(cmn->cpu), cmn_hnf_stop_fn, cmn, 1);
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
