// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf perf glue: struct pmu callbacks, the overflow interrupt and
 * CPU hotplug. No register offsets here; hw.c does the accesses.
 *
 * An HN-F event counts in one event slot of every HN-F taking part, each slot
 * feeding a 16-bit DTM counter on the HN-F's XP, which carries into one
 * 32-bit global counter. The event owns that global counter index on every
 * DTC (CMN-600 cannot tell which DTC an XP reports to), so its count is
 * the sum over all DTCs of the global counter times 2^16 plus the local
 * counters. cmn_hnf_count_delta() does that arithmetic on two samples.
 *
 * All callbacks run on the PMU's CPU with interrupts disabled and the
 * overflow interrupt is pinned to that CPU, so the data path needs no locks.
 */
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>

#include <arm_cmn_hnf/compat.h>

#include "hnf.h"

/* Attempts at a sample in which no global counter moved during the read */
#define CMN_HNF_READ_RETRIES	8

/* Allocator state and grant for group validation in event_init() */
struct cmn_hnf_scratch {
	struct cmn_hnf_alloc_state state;
	struct cmn_hnf_grant grant;
};

/*
 * The allocator indexes grant.dtm_ctr[] and grant.slot[] by HN-F (index in
 * topo->hnf[]); samples hold the local counters of the HN-Fs taking part in
 * order, local[j] being HN-F c->first + j.
 */
static unsigned int cmn_hnf_part(const struct cmn_hnf_counter *c,
				 unsigned int j)
{
	return c->first + j;
}

static int cmn_hnf_event_request(struct cmn_hnf *cmn,
				 struct perf_event *event,
				 struct cmn_hnf_request *req)
{
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

/*
 * Local counters that went down since @ref wrapped, and each wrap is one
 * carry into the global counter. Fewer carries than that means a carry is
 * still on its way from the DTM to the DTC.
 */
static bool cmn_hnf_carry_pending(const struct cmn_hnf *cmn,
				  const struct cmn_hnf_counter *c,
				  const struct cmn_hnf_sample *ref,
				  const struct cmn_hnf_sample *s)
{
	unsigned int d, j, wrapped = 0;
	u64 carries = 0;

	for (d = 0; d < cmn->topo->num_dtcs; d++)
		carries += (u32)(s->global[d] - ref->global[d]);
	for (j = 0; j < c->count; j++)
		wrapped += s->local[j] < ref->local[j];
	return carries < wrapped;
}

/*
 * A consistent sample: the global counters, then the local counters, then the
 * global counters again. If a global counter moved, a local counter carried
 * during the read and the pair may not match; if a local counter wrapped
 * since @ref (the previous sample, NULL for a baseline) without its carry
 * having arrived, the sample is short. Try again in both cases. Should that
 * keep happening, the sample keeps the first global values: it can then only
 * be short (by the carry, made up by the next read), never long.
 */
static void cmn_hnf_take_sample(struct cmn_hnf *cmn,
				const struct cmn_hnf_counter *c,
				const struct cmn_hnf_sample *ref,
				struct cmn_hnf_sample *s)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned int d, j, k, tries, idx = c->grant.global;
	u32 again[CMN_HNF_MAX_DTCS];
	bool moved;

	for (tries = 0; tries < CMN_HNF_READ_RETRIES; tries++) {
		if (tries)
			udelay(1);
		for (d = 0; d < topo->num_dtcs; d++)
			s->global[d] = cmn_hnf_hw_read_global(cmn, d, idx);
		for (j = 0; j < c->count; j++) {
			k = cmn_hnf_part(c, j);
			s->local[j] = cmn_hnf_hw_read_local(cmn,
							    topo->hnf[k].xp,
							    c->grant.dtm_ctr[k]);
		}
		moved = false;
		for (d = 0; d < topo->num_dtcs; d++) {
			again[d] = cmn_hnf_hw_read_global(cmn, d, idx);
			moved |= again[d] != s->global[d];
		}
		if (!moved && !(ref && cmn_hnf_carry_pending(cmn, c, ref, s)))
			break;
	}
}

/*
 * A sample that is short (see above) may even be behind the previous one:
 * the count never goes down, so such a sample is dropped and the next read
 * measures from the previous one again.
 */
static void cmn_hnf_update(struct cmn_hnf *cmn, struct perf_event *event)
{
	int idx = event->hw.idx;
	struct cmn_hnf_counter *c = &cmn->ctr[idx];
	struct cmn_hnf_sample cur;
	unsigned long flags;
	u64 delta, now;

	local_irq_save(flags);
	if (idx == CMN_HNF_IDX_CYCLES) {
		now = cmn_hnf_hw_read_cycles(cmn);
		delta = cmn_hnf_cycles_delta(cmn->cycles_prev, now);
		cmn->cycles_prev = now;
	} else {
		cmn_hnf_take_sample(cmn, c, &c->prev, &cur);
		delta = cmn_hnf_count_delta(&c->prev, &cur,
					    cmn->topo->num_dtcs, c->count);
		if ((s64)delta < 0)
			delta = 0;
		else
			c->prev = cur;
	}
	local64_add(delta, &event->count);
	local_irq_restore(flags);
}

static void cmn_hnf_baseline(struct cmn_hnf *cmn, struct perf_event *event)
{
	int idx = event->hw.idx;
	unsigned long flags;

	local_irq_save(flags);
	if (idx == CMN_HNF_IDX_CYCLES)
		cmn->cycles_prev = cmn_hnf_hw_read_cycles(cmn);
	else
		cmn_hnf_take_sample(cmn, &cmn->ctr[idx], NULL,
				    &cmn->ctr[idx].prev);
	local_irq_restore(flags);
}

/* Write @eventid (0: none) into the event's slot of every HN-F taking part */
static void cmn_hnf_set_slots(struct cmn_hnf *cmn,
			      const struct cmn_hnf_counter *c, u8 eventid)
{
	unsigned int j, h;

	for (j = 0; j < c->count; j++) {
		h = c->first + j;
		cmn->hnf_ev[h][c->grant.slot[cmn_hnf_part(c, j)]] = eventid;
		cmn_hnf_hw_write_event_sel(cmn, h);
	}
}

/* Pair (or unpair) the event's DTM counter of every HN-F taking part */
static void cmn_hnf_set_dtms(struct cmn_hnf *cmn,
			     const struct cmn_hnf_counter *c, bool on)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	const struct cmn_hnf_node_desc *hnf;
	struct cmn_hnf_dtm_cfg *cfg;
	unsigned int j, k;
	u8 n;

	for (j = 0; j < c->count; j++) {
		hnf = &topo->hnf[c->first + j];
		k = cmn_hnf_part(c, j);
		n = c->grant.dtm_ctr[k];
		cfg = &cmn->dtm[hnf->xp];
		if (on) {
			cfg->paired |= BIT(n);
			cfg->global_num[n] = c->grant.global;
			cfg->input_sel[n] = cmn_hnf_dtm_input_sel(hnf->port,
								  hnf->dev,
								  c->grant.slot[k]);
		} else {
			cfg->paired &= ~BIT(n);
			cfg->global_num[n] = 0;
			cfg->input_sel[n] = 0;
		}
		cmn_hnf_hw_write_dtm(cmn, hnf->xp);
	}
}

static void cmn_hnf_event_start(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;

	cmn_hnf_baseline(cmn, event);
	if (idx != CMN_HNF_IDX_CYCLES)
		cmn_hnf_set_slots(cmn, &cmn->ctr[idx],
				  cmn->ctr[idx].req.sel.eventid);
	event->hw.state = 0;
}

static void cmn_hnf_event_stop(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;

	if (event->hw.state & PERF_HES_STOPPED)
		return;
	if (idx != CMN_HNF_IDX_CYCLES)
		cmn_hnf_set_slots(cmn, &cmn->ctr[idx], 0);
	cmn_hnf_update(cmn, event);
	event->hw.state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
}

static void cmn_hnf_event_read(struct perf_event *event)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);

	if (event->hw.idx == CMN_HNF_IDX_NONE ||
	    (event->hw.state & PERF_HES_STOPPED))
		return;
	cmn_hnf_update(cmn, event);
}

static int cmn_hnf_event_add(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	const struct cmn_hnf_topology *topo = cmn->topo;
	struct cmn_hnf_request req;
	struct cmn_hnf_grant grant;
	struct cmn_hnf_counter *c;
	int ret, idx;

	ret = cmn_hnf_event_request(cmn, event, &req);
	if (ret)
		return ret;
	/* -ENOSPC: perf core rotates the event in later */
	ret = cmn_hnf_alloc(&cmn->alloc, topo, &req, &grant);
	if (ret)
		return ret;

	idx = req.sel.cycles ? CMN_HNF_IDX_CYCLES : grant.global;
	c = &cmn->ctr[idx];
	c->event = event;
	c->req = req;
	c->grant = grant;
	if (req.sel.cycles) {
		c->first = 0;
		c->count = 0;
		cmn_hnf_hw_cycles_clock(cmn, true);
	} else {
		c->first = req.hnf < 0 ? 0 : req.hnf;
		c->count = req.hnf < 0 ? topo->num_hnfs : 1;
		cmn_hnf_set_dtms(cmn, c, true);
	}

	event->hw.idx = idx;
	/* A base for the overflow handler even before the event starts */
	cmn_hnf_baseline(cmn, event);
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		cmn_hnf_event_start(event, PERF_EF_RELOAD);
	return 0;
}

static void cmn_hnf_event_del(struct perf_event *event, int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(event->pmu);
	int idx = event->hw.idx;
	struct cmn_hnf_counter *c;

	if (idx == CMN_HNF_IDX_NONE)
		return;
	c = &cmn->ctr[idx];
	cmn_hnf_event_stop(event, PERF_EF_UPDATE);
	if (idx == CMN_HNF_IDX_CYCLES)
		cmn_hnf_hw_cycles_clock(cmn, false);
	else
		cmn_hnf_set_dtms(cmn, c, false);
	cmn_hnf_free(&cmn->alloc, cmn->topo, &c->req, &c->grant);
	c->event = NULL;
	event->hw.idx = CMN_HNF_IDX_NONE;
}

/*
 * The DTCs count only while the core has not disabled the PMU and no
 * transaction is open.
 */
static void cmn_hnf_apply_enable(struct cmn_hnf *cmn)
{
	cmn_hnf_hw_enable(cmn, !cmn->core_disabled && !cmn->txn_flags);
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
 * Transactions keep every DTC stopped while a group is added or read, so the
 * members start together and are read at one instant. Group scheduling is
 * decided by add() itself: it runs the allocator on the live state and fails
 * with -ENOSPC, which makes the core cancel the whole transaction; a commit
 * therefore only has to restart the counters.
 */
static void cmn_hnf_start_txn(struct pmu *pmu, unsigned int flags)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	cmn->txn_flags = flags;
	cmn_hnf_apply_enable(cmn);
}

static int cmn_hnf_commit_txn(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	cmn->txn_flags = 0;
	cmn_hnf_apply_enable(cmn);
	return 0;
}

static void cmn_hnf_cancel_txn(struct pmu *pmu)
{
	struct cmn_hnf *cmn = to_cmn_hnf(pmu);

	cmn->txn_flags = 0;
	cmn_hnf_apply_enable(cmn);
}

/*
 * Overflow of a global counter (or of the cycle counter) on any DTC on this
 * line: bring the owning event's count up to date through the normal read
 * path, which handles the wrap, then clear the status.
 */
irqreturn_t cmn_hnf_irq_handler(int irq, void *dev_id)
{
	struct cmn_hnf_irq *line = dev_id;
	struct cmn_hnf *cmn = line->cmn;
	unsigned long pending;
	unsigned int d, i;
	bool handled = false;
	u32 status;

	for (d = 0; d < cmn->topo->num_dtcs; d++) {
		if (!(line->dtc_mask & BIT(d)))
			continue;
		status = cmn_hnf_hw_ovf_status(cmn, d);
		if (!status)
			continue;
		handled = true;
		pending = status & CMN_DT_PMOVSR_EVCNT;
		for_each_set_bit(i, &pending, CMN_HNF_DTC_COUNTERS) {
			if (cmn->ctr[i].event)
				cmn_hnf_update(cmn, cmn->ctr[i].event);
		}
		if ((status & CMN_DT_PMOVSR_CYCLES) &&
		    cmn->ctr[CMN_HNF_IDX_CYCLES].event)
			cmn_hnf_update(cmn, cmn->ctr[CMN_HNF_IDX_CYCLES].event);
		cmn_hnf_hw_ovf_clear(cmn, d, status);
	}
	return IRQ_RETVAL(handled);
}

/* Move counting, and the interrupts that go with it, to @cpu. */
void cmn_hnf_migrate(struct cmn_hnf *cmn, unsigned int cpu)
{
	unsigned int i;

	perf_pmu_migrate_context(&cmn->pmu, cmn->cpu, cpu);
	for (i = 0; i < cmn->num_irqs; i++)
		cmn_hnf_irq_set_affinity(cmn->irqs[i].irq, cpu);
	WRITE_ONCE(cmn->cpu, cpu);
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
}
