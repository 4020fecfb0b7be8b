// SPDX-License-Identifier: GPL-2.0
/*
 * CMN-600 model: interrupt faults (``mesh<i>/irq_fault``).
 *
 * spurious  the DTC's interrupt fires with no pmovsr bit set (a glitch on
 *           the line, or a line shared with another device): a driver
 *           must answer IRQ_NONE, which the kernel counts in
 *           /proc/irq/<n>/spurious.
 * stuck     a pmovsr bit is set and pmovsr_clr cannot clear it. The DTC's
 *           overflow interrupt is a level: it stays asserted while a flag
 *           is set and pmcr.ovfl_intr_en is on, so the interrupt fires
 *           again as soon as the driver has handled it (a storm). The
 *           model makes it pending again each time it is no longer pending
 *           or active, until the driver turns ovfl_intr_en off, the line
 *           is disabled (disable_irq(), or the kernel's spurious-interrupt
 *           detector), or the model gives up after a number of raises.
 *
 * off       the DTC's line is disabled for a while (disable_irq(), as a
 *           driver's migration or the kernel's spurious detector does):
 *           flags raised meanwhile are seen when it is enabled again,
 *           since the line is a level (runtime.c, irq_enabled()).
 *
 * All run in the writer's context, which sleeps between raises: the
 * model never loops with interrupts off, so only the driver's handling can
 * keep a CPU busy. Each returns when the fault has run its course.
 */

#define pr_fmt(fmt) "cmn600_model: " fmt

#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/spinlock.h>

#include "rt.h"

#define SPURIOUS_MAX		100000
#define STORM_DEFAULT_LIMIT	20000
#define STORM_MAX_LIMIT		90000	/* below the kernel's 99900-of-100000 */
#define STORM_MAX_MS		30000
#define OFF_MAX_MS		5000

/* Sleep until @irq was delivered and handled, at most @ms; false on timeout */
static bool irq_wait_idle(int irq, unsigned int ms)
{
	unsigned long deadline = jiffies + msecs_to_jiffies(ms);

	while (cmrt_irq_busy(irq)) {
		if (time_after(jiffies, deadline))
			return false;
		usleep_range(20, 50);
	}
	return true;
}

static int fault_dtc(struct cmn600_rt_mesh *m, unsigned int lid, int *irq)
{
	struct cmrt_dtc *dtc;

	if (lid >= CMN600_MODEL_MAX_DTCS || !m->dtcs[lid].present)
		return -EINVAL;
	cmrt_resolve_irqs(m);
	dtc = &m->dtcs[lid];
	*irq = READ_ONCE(dtc->irq);
	return *irq > 0 ? 0 : -ENXIO;
}

/**
 * cmn600_rt_irq_spurious() - fire a DTC's interrupt with no flag set
 * @m: the mesh
 * @lid: the DTC
 * @count: how many times, each after the previous one was handled
 *
 * Process context. Return: 0, -EINVAL (no such DTC or count), -ENXIO (no
 * interrupt), -EIO (an interrupt was not handled within 10 s).
 */
int cmn600_rt_irq_spurious(struct cmn600_rt_mesh *m, unsigned int lid, u32 count)
{
	unsigned long flags;
	unsigned int i;
	int irq, ret;

	if (!count || count > SPURIOUS_MAX)
		return -EINVAL;
	ret = fault_dtc(m, lid, &irq);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		if (!irq_wait_idle(irq, CMRT_IRQ_STARVE_MS))
			return -EIO;
		if (irq_set_irqchip_state(irq, IRQCHIP_STATE_PENDING, true))
			return -EIO;
		raw_spin_lock_irqsave(&m->lock, flags);
		m->dtcs[lid].spurious++;
		raw_spin_unlock_irqrestore(&m->lock, flags);
	}
	return irq_wait_idle(irq, CMRT_IRQ_STARVE_MS) ? 0 : -EIO;
}

/* Still asserted: a stuck flag set and the overflow interrupt enabled */
static bool storm_asserted(struct cmn600_rt_mesh *m, unsigned int lid)
{
	struct cmrt_dtc *dtc = &m->dtcs[lid];
	unsigned long flags;
	bool on;

	raw_spin_lock_irqsave(&m->lock, flags);
	/* what the driver wrote to pmovsr_clr is applied, stuck bits stay */
	cmrt_service_dtc(m, lid);
	on = (cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) & dtc->stuck) &&
	     (cmrt_rd(m, dtc->off + CMN600M_DTC_PMCR) & CMN600M_PMCR_OVFL_INTR_EN);
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return on;
}

static void storm_done(struct cmn600_rt_mesh *m, unsigned int lid, u64 raises,
		       const char *end)
{
	struct cmrt_dtc *dtc = &m->dtcs[lid];
	unsigned long flags;

	raw_spin_lock_irqsave(&m->lock, flags);
	dtc->storm_raises = raises;
	dtc->storm_end = end;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	pr_info("mesh%u dtc%u: stuck-flag storm: %llu interrupts, ended: %s\n",
		m->index, lid, (unsigned long long)raises, end);
}

/**
 * cmn600_rt_irq_stuck() - make an overflow flag stick and let the level
 * interrupt storm until the driver stops it
 * @m: the mesh
 * @lid: the DTC
 * @bit: pmovsr bit, 0..8
 * @limit: raises after which the model gives up (0: the default)
 *
 * Process context; returns when the storm has ended (see the file comment;
 * the reason is in irq_fault). The flag stays stuck until cleared with
 * cmn600_rt_irq_clear(). Return: 0, -EINVAL or -ENXIO.
 */
int cmn600_rt_irq_stuck(struct cmn600_rt_mesh *m, unsigned int lid, unsigned int bit,
			u32 limit)
{
	struct cmrt_dtc *dtc;
	unsigned long flags, deadline;
	struct irq_data *d;
	const char *end;
	u64 raises = 0;
	int irq, ret;

	if (bit > 8 || limit > STORM_MAX_LIMIT)
		return -EINVAL;
	ret = fault_dtc(m, lid, &irq);
	if (ret)
		return ret;
	if (!limit)
		limit = STORM_DEFAULT_LIMIT;
	dtc = &m->dtcs[lid];
	d = irq_get_irq_data(irq);
	raw_spin_lock_irqsave(&m->lock, flags);
	dtc->stuck |= BIT_ULL(bit);
	dtc->storm_end = NULL;
	dtc->storm_raises = 0;
	cmrt_wr(m, dtc->off + CMN600M_DTC_PMOVSR,
		cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) | BIT_ULL(bit));
	raw_spin_unlock_irqrestore(&m->lock, flags);

	deadline = jiffies + msecs_to_jiffies(STORM_MAX_MS);
	for (;;) {
		if (!storm_asserted(m, lid)) {
			end = "intr_off";
			break;
		}
		if (!d || irqd_irq_disabled(d)) {
			end = "irq_disabled";
			break;
		}
		if (raises >= limit) {
			end = "limit";
			break;
		}
		if (time_after(jiffies, deadline)) {
			end = "timeout";
			break;
		}
		if (cmrt_irq_busy(irq)) {
			usleep_range(10, 20);
			continue;
		}
		if (irq_set_irqchip_state(irq, IRQCHIP_STATE_PENDING, true)) {
			end = "raise_failed";
			break;
		}
		raises++;
		/* let the handler run, as a level line would right away */
		usleep_range(5, 10);
	}
	storm_done(m, lid, raises, end);
	return 0;
}

/**
 * cmn600_rt_irq_off() - disable a DTC's interrupt line for a while
 * @m: the mesh
 * @lid: the DTC
 * @ms: how long, 1..OFF_MAX_MS
 *
 * Process context; returns once the line is enabled again. Return: 0,
 * -EINVAL or -ENXIO.
 */
int cmn600_rt_irq_off(struct cmn600_rt_mesh *m, unsigned int lid, u32 ms)
{
	unsigned long flags;
	int irq, ret;

	if (!ms || ms > OFF_MAX_MS)
		return -EINVAL;
	ret = fault_dtc(m, lid, &irq);
	if (ret)
		return ret;
	disable_irq(irq);
	msleep(ms);
	enable_irq(irq);
	raw_spin_lock_irqsave(&m->lock, flags);
	m->dtcs[lid].offs++;
	raw_spin_unlock_irqrestore(&m->lock, flags);
	return 0;
}

/**
 * cmn600_rt_irq_clear() - unstick every stuck flag (and clear it)
 * @m: the mesh
 */
void cmn600_rt_irq_clear(struct cmn600_rt_mesh *m)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&m->lock, flags);
	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		struct cmrt_dtc *dtc = &m->dtcs[i];

		if (!dtc->present || !dtc->stuck)
			continue;
		cmrt_wr(m, dtc->off + CMN600M_DTC_PMOVSR,
			cmrt_rd(m, dtc->off + CMN600M_DTC_PMOVSR) & ~dtc->stuck);
		dtc->stuck = 0;
	}
	raw_spin_unlock_irqrestore(&m->lock, flags);
}

static void show_irq_fault(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned int i;

	for (i = 0; i < CMN600_MODEL_MAX_DTCS; i++) {
		const struct cmrt_dtc *dtc = &m->dtcs[i];

		if (!dtc->present)
			continue;
		seq_printf(s, "dtc%u irq=%d spurious=%llu stuck=0x%llx storm_raises=%llu storm_end=%s offs=%llu reasserts=%llu\n",
			   i, dtc->irq, (unsigned long long)dtc->spurious,
			   (unsigned long long)dtc->stuck, (unsigned long long)dtc->storm_raises,
			   dtc->storm_end ? dtc->storm_end : "-", (unsigned long long)dtc->offs,
			   (unsigned long long)dtc->reasserts);
	}
}

void cmn600_rt_show_irq_fault(struct seq_file *s, struct cmn600_rt_mesh *m)
{
	unsigned long flags;

	cmrt_resolve_irqs(m);
	raw_spin_lock_irqsave(&m->lock, flags);
	show_irq_fault(s, m);
	raw_spin_unlock_irqrestore(&m->lock, flags);
}
