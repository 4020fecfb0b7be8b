// SPDX-License-Identifier: GPL-2.0
/*
 * CMN-600 model: the racing clock (``mesh<i>/race``).
 *
 * Silicon counts all the time, whatever the CPUs do: a driver's reads land
 * between carries, and a local counter's wrap reaches its paired global
 * counter some time after the local counter wrapped. The gentle clocks of
 * runtime.c hide both (every step point runs on the observer CPU with
 * interrupts off). In race mode the free-running clock of a mesh is a set
 * of kernel threads instead, one per online CPU (so on CPUs other than the
 * PMU's too), each advancing the mesh continuously:
 *
 *   lock; deliver the deferred carries that are due; read the
 *   configuration; move the local counters and the cycle counters; then,
 *   for the carries of this iteration's local wraps, one of
 *     - store them in the global counters right away (the next stores
 *       after the local counters'),
 *     - unlock, spin up to lag_ns, lock, store them,
 *     - defer them by up to defer_us: a reader that runs meanwhile, on any
 *       CPU, sees the wraps without their carries,
 *   chosen at random per iteration (a quarter, a quarter, a half); set
 *   overflow flags and raise interrupts (from an irq_work, once this CPU
 *   enables interrupts again: cmrt_raise_later()); unlock; sleep a
 *   little, and at least as long as the iteration took (race_thread())
 *
 * with interrupts off on that CPU for the whole iteration. A reader then
 * sees local counters that have wrapped while their global counters do
 * not have the carries yet, and a reader that reads a global counter after
 * a local one can see the carry of a wrap its local read missed. Overflow
 * interrupts are raised and not waited for, as on hardware; a flag still
 * set past the limit of cmrt_watch_overflow() is logged.
 *
 * near_wrap makes carries frequent without writing any counter (which would
 * invalidate the driver's baselines): in each chunk, every 16- or 32-bit
 * counter that counts a source, has no carry of its global counter in
 * flight and would end the chunk more than NEAR_WRAP_ROOM events from its
 * wrap gets a burst of events of that source, produced by the HN-F like
 * any other event (the truth includes them), so that it ends the chunk 1 to
 * NEAR_WRAP_ROOM events short of the wrap. The events of a later chunk
 * wrap it: a wrap after few events, whose carry may then be late for long,
 * while the counter barely moves.
 */

#define pr_fmt(fmt) "cmn600_model: " fmt

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/irqflags.h>
#include <linux/kthread.h>
#include <linux/math64.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "rt.h"

#define NEAR_WRAP_ROOM		256
#define RACE_SLEEP_MIN_US	20
#define RACE_SLEEP_MAX_US	60
#define RACE_SLEEP_CAP_US	5000
#define RACE_MAX_LAG_NS		100000
#define RACE_DEFAULT_LAG_NS	2000
#define RACE_MAX_DEFER_US	1000000
#define RACE_DEFAULT_DEFER_US	20000
#define RACE_STEP_NS		(20 * NSEC_PER_MSEC)
#define RACE_BRACKET_MAX_NS	(10000ULL * NSEC_PER_MSEC)

/*
 * perf_pmu_disable() brackets of uncore PMUs open now (runtime.c's probes),
 * and the meshes whose race threads run.
 */
static atomic_t race_brackets = ATOMIC_INIT(0);
static LIST_HEAD(race_meshes);
static DEFINE_RAW_SPINLOCK(race_meshes_lock);

/* xorshift32: deterministic, cheap */
static u32 race_rand(struct cmn600_rt_mesh *m)
{
	u32 x = m->race.rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	m->race.rng = x;
	return x;
}

/* Carries of @dtc's global counter @g noted but not delivered yet */
static bool carries_in_flight(struct cmn600_rt_mesh *m, unsigned int dtc, int g)
{
	return g >= 0 && m->race.flying[dtc][g];
}

/*
 * near_wrap: bursts that bring every counting counter near its wrap by the
 * end of this chunk of @cycles cycles, without wrapping it
 */
static void race_bursts(struct cmn600_rt_mesh *m, u64 cycles)
{
	unsigned int i;

	for (i = 0; i < m->nr_ctrs; i++) {
		const struct cmrt_ctr *c = &m->ctrs[i];
		u64 room, q, want;

		if (!c->hnf || c->width == 64 ||
		    carries_in_flight(m, c->dtm->domain, c->global))
			continue;
		room = BIT_ULL(c->width) - c->val;
		q = cmrt_events_in(c, cycles);
		if (q >= room || room - q <= NEAR_WRAP_ROOM)
			continue;
		want = room - q - 1 - race_rand(m) % NEAR_WRAP_ROOM;
		if (want > c->hnf->burst[c->src]) {
			c->hnf->burst[c->src] = want;
			m->race.bursts++;
		}
	}
}

/* Store the carries of @batch in the global counters; newbits gets flags */
static void race_deliver(struct cmn600_rt_mesh *m,
			 u64 batch[CMN600_MODEL_MAX_DTCS][CMN600M_DTC_NR_GLOBAL],
			 u64 *newbits)
{
	unsigned int i, g;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];
		u64 bits = 0;

		for (g = 0; g < CMN600M_DTC_NR_GLOBAL; g++) {
			u64 inc = batch[i][g];

			if (!inc)
				continue;
			batch[i][g] = 0;
			m->race.flying[i][g] -= inc;
			m->race.carries += inc;
			if (dtc->present && cmrt_count_global(m, dtc, g, inc))
				bits |= BIT_ULL(g);
		}
		if (dtc->present)
			newbits[i] |= cmrt_set_overflow(m, dtc, bits);
	}
}

/* Deliver the deferred batches due at @now (all of them if @all) */
static void race_deliver_due(struct cmn600_rt_mesh *m, u64 now, bool all, u64 *newbits)
{
	unsigned int i;

	for (i = 0; i < CMRT_RACE_DEFERRED; i++) {
		struct cmrt_race_batch *b = &m->race.deferred[i];

		if (b->used && (all || (s64)(now - b->due) >= 0)) {
			race_deliver(m, b->carries, newbits);
			b->used = false;
		}
	}
}

/*
 * A signature of what a driver programs only inside a bracket: every DTM's
 * pmu_config and every HN-F's event selection
 */
static u64 race_cfg_sig(struct cmn600_rt_mesh *m)
{
	unsigned int i;
	u64 h = 0xcbf29ce484222325ULL;

	for (i = 0; i < m->desc->x_dim * m->desc->y_dim; i++)
		h = (h ^ cmrt_rd(m, m->dtms[i].off + CMN600M_DTM_PMU_CONFIG)) * 0x100000001b3ULL;
	for (i = 0; i < m->nr_hnfs; i++)
		h = (h ^ cmrt_rd(m, m->hnfs[i].off + CMN600M_HNF_EVENT_SEL)) * 0x100000001b3ULL;
	return h;
}

/*
 * The configuration changed since the last iteration and no bracket opened
 * meanwhile: a write the race threads may have interleaved with
 * (unbracketed=, logged once)
 */
static void race_check_config(struct cmn600_rt_mesh *m)
{
	u64 sig = race_cfg_sig(m);

	if (sig != m->race.cfg_sig && m->race.gen == m->race.seen_gen &&
	    !m->race.unbracketed++)
		cmrt_locked_warn(m, "mesh%u: the configuration changed outside any perf_pmu_disable() bracket\n",
				 m->index);
	m->race.cfg_sig = sig;
	m->race.seen_gen = m->race.gen;
}

/* Every carry still in flight into its global counter, deferred or not */
static void race_land_all(struct cmn600_rt_mesh *m, u64 now, u64 *newbits)
{
	race_deliver_due(m, now, true, newbits);
	race_deliver(m, m->race.inflight, newbits);
}

/* Defer the iteration's carries until @due; the earliest batch if full */
static void race_defer(struct cmn600_rt_mesh *m, u64 due, u64 *newbits)
{
	struct cmrt_race_batch *b, *slot = NULL, *first = NULL;
	unsigned int i;

	for (i = 0; i < CMRT_RACE_DEFERRED; i++) {
		b = &m->race.deferred[i];
		if (!b->used) {
			slot = b;
			break;
		}
		if (!first || (s64)(b->due - first->due) < 0)
			first = b;
	}
	if (!slot) {
		race_deliver(m, first->carries, newbits);
		slot = first;
	}
	memcpy(slot->carries, m->race.inflight, sizeof(slot->carries));
	memset(m->race.inflight, 0, sizeof(m->race.inflight));
	slot->due = due;
	slot->used = true;
}

/*
 * In a race step, the cycles of this iteration instead of the wall time's:
 * the step's cycles spread evenly over RACE_STEP_NS from its start
 */
static u64 race_step_cycles(struct cmn600_rt_mesh *m, u64 now)
{
	struct cmrt_race *r = &m->race;
	u64 t = min_t(u64, now - r->step_t0, RACE_STEP_NS);
	u64 target = mul_u64_u64_div_u64(r->step_total, t, RACE_STEP_NS);
	u64 c = target - r->step_done;

	r->step_done = target;
	return c;
}

/*
 * First part of an iteration: the deferred carries that are due, then the
 * time since the last iteration into the local counters and cycle
 * counters; this iteration's carries are noted in m->race.inflight.
 * Returns the overflow flags to raise in @newbits and whether carries were
 * noted.
 */
static bool race_count(struct cmn600_rt_mesh *m, u64 now, u64 *newbits)
{
	bool noted = false;
	unsigned int i;
	u64 c;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
		newbits[i] = 0;
	race_deliver_due(m, now, false, newbits);
	c = m->pending;
	m->pending = 0;
	if (m->race.stepping)
		c = race_step_cycles(m, now);
	cmrt_service(m);
	cmrt_watch_overflow(m, now);
	cmrt_plan(m);
	if (m->race.near_wrap)
		race_bursts(m, c);
	cmrt_produce_all(m, c);
	cmrt_count_dtms(m);
	for (i = 0; i < m->nr_ctrs; i++) {
		const struct cmrt_ctr *ctr = &m->ctrs[i];
		unsigned int d = ctr->dtm->domain;

		if (ctr->global >= 0 && ctr->wraps) {
			m->race.inflight[d][ctr->global] += ctr->wraps;
			m->race.flying[d][ctr->global] += ctr->wraps;
			noted = true;
		}
	}
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];

		if (dtc->present && dtc->active && cmrt_count_cycles(m, dtc, c))
			newbits[i] |= cmrt_set_overflow(m, dtc, CMN600M_PMOVSR_CYCLES);
	}
	cmrt_count_time(m, c);
	m->race.iterations++;
	return noted;
}

static void race_raise(struct cmn600_rt_mesh *m, u64 *newbits, u64 now)
{
	unsigned int i;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++)
		if (newbits[i] && cmrt_raise_later(m, i))
			cmrt_note_raised(m, i, newbits[i], now);
}

static void race_iteration(struct cmn600_rt_mesh *m)
{
	u64 newbits[CMN600_MODEL_MAX_DTCS], now;
	unsigned long flags;
	u32 r, how;

	local_irq_save(flags);
	raw_spin_lock(&m->lock);
	if (!m->race.running) {
		raw_spin_unlock(&m->lock);
		local_irq_restore(flags);
		return;
	}
	/* a bracket is open: the mesh waits for it (cmrt_race_bracket()) */
	if (atomic_read(&race_brackets)) {
		if (ktime_get_ns() - m->race.paused_at < RACE_BRACKET_MAX_NS) {
			raw_spin_unlock(&m->lock);
			local_irq_restore(flags);
			return;
		}
		if (!m->race.overdue++)
			cmrt_locked_warn(m, "mesh%u: a perf_pmu_disable() bracket open for over %llu ms: the race threads count again\n",
					 m->index, RACE_BRACKET_MAX_NS / NSEC_PER_MSEC);
	}
	race_check_config(m);
	now = cmrt_clock_elapsed(m);
	r = race_rand(m);
	/* past an overdue bracket a carry lands at once */
	how = atomic_read(&race_brackets) ? 0 : r & 3;
	r >>= 2;
	if (race_count(m, now, newbits)) {
		if (how >= 2) {
			/* deferred: 0..defer_us */
			race_defer(m, now + (u64)(r % (m->race.defer_us + 1)) * NSEC_PER_USEC,
				   newbits);
		} else {
			if (how == 1 && m->race.lag_ns) {
				/* a reader may look, another race thread may run */
				raw_spin_unlock(&m->lock);
				ndelay(r % (m->race.lag_ns + 1));
				raw_spin_lock(&m->lock);
			}
			race_deliver(m, m->race.inflight, newbits);
		}
	}
	race_raise(m, newbits, now);
	raw_spin_unlock(&m->lock);
	local_irq_restore(flags);
}

/*
 * Each thread sleeps at least as long as its iteration took, waiting for
 * the lock included (at most RACE_SLEEP_CAP_US): the threads then hold at
 * most about half of every CPU, however slowly the host runs the vCPUs.
 * On a starved guest an iteration takes longer in wall time and its
 * thread sleeps longer, so readers, IPIs and the watchdog still run
 * between iterations; the mesh moves by the wall time either way.
 */
static int race_thread(void *data)
{
	struct cmn600_rt_mesh *m = data;
	unsigned long us;
	u64 t0;

	while (!kthread_should_stop()) {
		t0 = ktime_get_ns();
		race_iteration(m);
		us = clamp_t(u64, (ktime_get_ns() - t0) / NSEC_PER_USEC,
			     RACE_SLEEP_MIN_US, RACE_SLEEP_CAP_US);
		usleep_range(us, us + RACE_SLEEP_MAX_US - RACE_SLEEP_MIN_US);
	}
	return 0;
}

/**
 * cmrt_race_start() - start the race threads of a mesh in race mode
 * @m: the mesh
 *
 * One thread per online CPU (at most CMRT_RACE_MAX_THREADS), each bound to
 * its CPU. Process context; serialised with cmrt_race_stop() by the caller.
 */
void cmrt_race_start(struct cmn600_rt_mesh *m)
{
	struct task_struct *t;
	unsigned long flags;
	unsigned int cpu, n = 0;

	if (m->race.nr_threads)
		return;
	cmrt_resolve_irqs(m);
	raw_spin_lock_irqsave(&m->lock, flags);
	m->last_ns = ktime_get_ns();
	m->frac = 0;
	m->pending = 0;
	m->race.running = true;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		if (n == CMRT_RACE_MAX_THREADS)
			break;
		t = kthread_create(race_thread, m, "cmn600_race/%u", cpu);
		if (IS_ERR(t)) {
			pr_warn("mesh%u: cannot start a race thread on CPU %u: %ld\n",
				m->index, cpu, PTR_ERR(t));
			continue;
		}
		kthread_bind(t, cpu);
		m->race.threads[n++] = t;
	}
	cpus_read_unlock();
	m->race.nr_threads = n;
	raw_spin_lock_irqsave(&race_meshes_lock, flags);
	list_add(&m->race.node, &race_meshes);
	raw_spin_unlock_irqrestore(&race_meshes_lock, flags);
	/* from here on every bracket counts in gen */
	raw_spin_lock_irqsave(&m->lock, flags);
	m->race.cfg_sig = race_cfg_sig(m);
	m->race.seen_gen = m->race.gen;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	for (cpu = 0; cpu < n; cpu++)
		wake_up_process(m->race.threads[cpu]);
}

/**
 * cmrt_race_stop() - stop the race threads; every carry in flight is in
 * its global counter when this returns
 * @m: the mesh
 *
 * The mesh leaves race_meshes, stops counting and lands every carry in
 * flight at one instant (both locks held): from the moment a bracket no
 * longer lands carries, none is in flight. Landing them only after the
 * threads exited would leave them in flight while perf's brackets go on
 * (another process may open and close events meanwhile), and a carry that
 * landed after a driver's baseline in such a bracket would be counted
 * again.
 */
void cmrt_race_stop(struct cmn600_rt_mesh *m)
{
	u64 newbits[CMN600_MODEL_MAX_DTCS] = { }, now;
	unsigned long flags;
	unsigned int i;

	if (!m->race.nr_threads)
		return;
	raw_spin_lock_irqsave(&race_meshes_lock, flags);
	raw_spin_lock(&m->lock);
	list_del(&m->race.node);
	m->race.running = false;
	now = ktime_get_ns();
	race_land_all(m, now, newbits);
	race_raise(m, newbits, now);
	m->pending = 0;
	raw_spin_unlock(&m->lock);
	raw_spin_unlock_irqrestore(&race_meshes_lock, flags);
	/* an iteration in its lag window finds nothing left to deliver */
	for (i = 0; i < m->race.nr_threads; i++) {
		kthread_stop(m->race.threads[i]);
		m->race.threads[i] = NULL;
	}
	m->race.nr_threads = 0;
}

/**
 * cmrt_race_step() - a manual step of a mesh in race mode
 * @m: the mesh, its clock manual
 * @cycles: the step
 *
 * The race threads count exactly @cycles cycles, spread over RACE_STEP_NS
 * of wall time, while the driver runs on every CPU: overflow interrupts
 * are raised and not waited for, carries are late, as on the free clock.
 * Then the threads stop and every carry lands. The events are those of a
 * gentle step of @cycles (near_wrap is off for a step: its bursts would
 * add events).
 * Return: false if the mesh is not in race mode with its clock manual
 * (then nothing happened).
 */
bool cmrt_race_step(struct cmn600_rt_mesh *m, u64 cycles)
{
	unsigned long flags;
	bool near_wrap, done = false;

	raw_spin_lock_irqsave(&m->lock, flags);
	if (!m->race.on || m->race.nr_threads || m->clock_on) {
		raw_spin_unlock_irqrestore(&m->lock, flags);
		return false;
	}
	near_wrap = m->race.near_wrap;
	m->race.near_wrap = false;
	m->race.stepping = true;
	m->race.step_total = cycles;
	m->race.step_done = 0;
	m->race.step_t0 = ktime_get_ns();
	raw_spin_unlock_irqrestore(&m->lock, flags);
	cmrt_race_start(m);
	while (!done) {
		usleep_range(1000, 2000);
		raw_spin_lock_irqsave(&m->lock, flags);
		done = m->race.step_done == m->race.step_total;
		raw_spin_unlock_irqrestore(&m->lock, flags);
	}
	cmrt_race_stop(m);
	raw_spin_lock_irqsave(&m->lock, flags);
	m->race.stepping = false;
	m->race.near_wrap = near_wrap;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return true;
}

/**
 * cmrt_race_bracket() - perf opened (@open) or closed a perf_pmu_disable()
 * bracket of an uncore PMU, before the driver's callback runs
 * @open: opened
 *
 * On silicon an event is in its counter a few cycles after it happened,
 * and a carry reaches its DTC some tens of mesh cycles after the wrap
 * that made it: far less than one register access of a CPU takes. An
 * iteration of a race thread counts tens of microseconds at once, and
 * race mode stretches the carries' lag (lag_ns, defer_us), so that a
 * driver's sample, a few register reads, can fall inside them, as it can
 * on silicon. A driver reprograms counters only inside a bracket, and
 * takes its baselines there: an iteration that read the configuration
 * before the driver's writes and stored its counts after them, or a carry
 * still on its way, would put events from before a baseline after it,
 * which silicon cannot do. So at the opening of a bracket the mesh is
 * brought up to the present under the configuration then live (as the
 * gentle clock's catch-up does), every carry in flight lands, and the race
 * threads wait until the bracket closes (at most RACE_BRACKET_MAX_NS,
 * after which they count again and say so once); the time of the bracket
 * is counted after it, under the configuration the driver left.
 */
void cmrt_race_bracket(bool open)
{
	u64 newbits[CMN600_MODEL_MAX_DTCS], now;
	struct cmn600_rt_mesh *m;
	unsigned long flags;
	u64 before;

	if (!open) {
		atomic_dec_if_positive(&race_brackets);
		return;
	}
	atomic_inc(&race_brackets);
	raw_spin_lock_irqsave(&race_meshes_lock, flags);
	list_for_each_entry(m, &race_meshes, race.node) {
		raw_spin_lock(&m->lock);
		if (!m->race.running) {
			raw_spin_unlock(&m->lock);
			continue;
		}
		now = cmrt_clock_elapsed(m);
		race_count(m, now, newbits);
		before = m->race.carries;
		race_land_all(m, now, newbits);
		m->race.settled += m->race.carries - before;
		race_raise(m, newbits, now);
		m->race.paused_at = now;
		m->race.gen++;
		raw_spin_unlock(&m->lock);
	}
	raw_spin_unlock_irqrestore(&race_meshes_lock, flags);
}

/**
 * cmn600_rt_set_race() - put a mesh in race mode or take it out
 * @m: the mesh
 * @on: race mode
 * @near_wrap: bursts that keep the counters near their wraps
 * @lag_ns: longest spin before a carry, 0..RACE_MAX_LAG_NS; -1: unchanged
 * @defer_us: longest deferral of a carry, 0..RACE_MAX_DEFER_US; -1:
 *	unchanged
 *
 * The caller stops the mesh's clock first and restarts it afterwards.
 * Return: 0 or -EINVAL.
 */
int cmn600_rt_set_race(struct cmn600_rt_mesh *m, bool on, bool near_wrap, long lag_ns,
		       long defer_us)
{
	unsigned long flags;

	if (lag_ns > RACE_MAX_LAG_NS || defer_us > RACE_MAX_DEFER_US)
		return -EINVAL;
	raw_spin_lock_irqsave(&m->lock, flags);
	m->race.on = on;
	m->race.near_wrap = on && near_wrap;
	if (lag_ns >= 0)
		m->race.lag_ns = lag_ns;
	if (defer_us >= 0)
		m->race.defer_us = defer_us;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return 0;
}

static void show_race(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	const struct cmrt_race *r = &m->race;

	seq_printf(s, "%s%s lag_ns=%u defer_us=%u threads=%u iterations=%llu carries=%llu bursts=%llu settled=%llu overdue=%llu unbracketed=%llu\n",
		   r->on ? "on" : "off", r->near_wrap ? " near_wrap" : "", r->lag_ns,
		   r->defer_us, r->nr_threads, (unsigned long long)r->iterations,
		   (unsigned long long)r->carries, (unsigned long long)r->bursts,
		   (unsigned long long)r->settled, (unsigned long long)r->overdue,
		   (unsigned long long)r->unbracketed);
}

void cmn600_rt_show_race(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	show_race(s, m);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

/* Defaults of a new mesh */
void cmrt_race_init(struct cmn600_rt_mesh *m)
{
	m->race.lag_ns = RACE_DEFAULT_LAG_NS;
	m->race.defer_us = RACE_DEFAULT_DEFER_US;
	m->race.rng = 0x2545f491 ^ (m->index * 0x9e3779b9);
}
