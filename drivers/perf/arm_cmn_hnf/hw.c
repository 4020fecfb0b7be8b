// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf hardware layer: every register access of the driver.
 *
 * The perf glue keeps shadows of the HN-F and DTM configuration registers
 * in struct cmn_hnf; this file turns them into register words (logic.c)
 * and writes them whole, and reads the counters. Relaxed accesses from one
 * CPU reach the configuration space in program order; two places need more.
 */
#include <linux/io.h>

#include "hnf.h"

static void cmn_hnf_wr(struct cmn_hnf *cmn, u32 off, u64 val)
{
	writeq_relaxed(val, cmn->base + off);
}

static u32 cmn_hnf_dtc(struct cmn_hnf *cmn, unsigned int d)
{
	return cmn->topo->dtc[d].offset;
}

/* The discovery walk's reader: logic.c keeps @off inside the region */
u64 cmn_hnf_hw_read64(void *ctx, u32 off)
{
	struct cmn_hnf *cmn = ctx;

	return readq_relaxed(cmn->base + off);
}

void cmn_hnf_hw_event_sel(struct cmn_hnf *cmn, unsigned int h)
{
	cmn_hnf_wr(cmn, cmn->topo->hnf[h].offset + CMN_HNF_PMU_EVENT_SEL,
		   cmn_hnf_event_sel(cmn->hnf_ev[h], cmn->alloc.occup[h]));
}

void cmn_hnf_hw_dtm(struct cmn_hnf *cmn, unsigned int xp)
{
	cmn_hnf_wr(cmn, cmn->topo->xp[xp].offset + CMN_DTM_PMU_CONFIG, cmn->dtm[xp]);
}

/*
 * One sample of the registers @s asks for. The global counter pairs come
 * first, every one with a read that completes before the next access is
 * issued (readq(), not a barrier between devices: the DTCs and the XPs are
 * different nodes of the mesh), then the XPs' DTM counters: a carry lands
 * on its DTC after its DTM counter wrapped, so in this order a sample
 * never holds a carry without the wrap that made it.
 */
void cmn_hnf_hw_sample(struct cmn_hnf *cmn, struct cmn_hnf_sample *s)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned long pairs = s->pairs;
	unsigned int d, p, x;
	u64 xps = s->xps;

	for (d = 0; pairs && d < topo->num_dtcs; d++)
		for_each_set_bit(p, &pairs, CMN_HNF_DTC_COUNTERS / 2)
			s->pair[d][p] = readq(cmn->base + cmn_hnf_dtc(cmn, d) +
					      CMN_DT_PMEVCNT_PAIR(p));
	for (; xps; xps &= xps - 1) {
		x = __ffs64(xps);
		s->xp[x] = readq_relaxed(cmn->base + topo->xp[x].offset + CMN_DTM_PMEVCNT);
	}
	if (s->cycles)
		s->cyc = readq_relaxed(cmn->base + cmn_hnf_dtc(cmn, 0) + CMN_DT_PMCCNTR) &
			 GENMASK_ULL(CMN_DT_PMCCNTR_WIDTH - 1, 0);
}

/* DTC0's clock stays ungated while dtc_cycles counts: else it stops when idle */
void cmn_hnf_hw_clock(struct cmn_hnf *cmn, bool ungated)
{
	cmn_hnf_wr(cmn, cmn_hnf_dtc(cmn, 0) + CMN_DT_DTC_CTL, CMN_DT_DTC_CTL_DT_EN |
		   (ungated ? CMN_DT_DTC_CTL_CG_DISABLE : 0));
}

/* PMCR.pmu_en on every DTC: each counts its own domain */
void cmn_hnf_hw_enable(struct cmn_hnf *cmn, bool on)
{
	unsigned int d;

	for (d = 0; d < cmn->topo->num_dtcs; d++)
		cmn_hnf_wr(cmn, cmn_hnf_dtc(cmn, d) + CMN_DT_PMCR, CMN_DT_PMCR_OVFL_INTR_EN |
			   (on ? CMN_DT_PMCR_PMU_EN : 0));
}

/*
 * Overflow status. A read that completes before the counter reads that
 * follow are issued: they see at least the values that raised the flags.
 */
u32 cmn_hnf_hw_ovf(struct cmn_hnf *cmn, unsigned int d)
{
	return readq(cmn->base + cmn_hnf_dtc(cmn, d) + CMN_DT_PMOVSR) &
	       (CMN_DT_PMOVSR_EVCNT | CMN_DT_PMOVSR_CYCLES);
}

void cmn_hnf_hw_ovf_clear(struct cmn_hnf *cmn, unsigned int d, u32 bits)
{
	cmn_hnf_wr(cmn, cmn_hnf_dtc(cmn, d) + CMN_DT_PMOVSR_CLR, bits);
}

/*
 * Probe (@on), before the interrupts are requested: every HN-F selects
 * nothing, every DTM has pmu_en and no counter in use, every DTC has dt_en
 * and its overflow interrupt enabled, counts nothing (pmu_en clear) and
 * has no overflow flag set, so no line fires for what a previous owner
 * left; counter values stay as they are (each event takes a baseline).
 * Remove and shutdown (!@on): all of it off.
 */
void cmn_hnf_hw_reset(struct cmn_hnf *cmn, bool on)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned int i;

	for (i = 0; i < topo->num_hnfs; i++)
		cmn_hnf_wr(cmn, topo->hnf[i].offset + CMN_HNF_PMU_EVENT_SEL, 0);
	for (i = 0; i < topo->num_xps; i++) {
		cmn->dtm[i] = on ? CMN_HNF_DTM_IDLE : 0;
		cmn_hnf_hw_dtm(cmn, i);
	}
	for (i = 0; i < topo->num_dtcs; i++) {
		cmn_hnf_wr(cmn, cmn_hnf_dtc(cmn, i) + CMN_DT_PMCR,
			   on ? CMN_DT_PMCR_OVFL_INTR_EN : 0);
		cmn_hnf_wr(cmn, cmn_hnf_dtc(cmn, i) + CMN_DT_DTC_CTL,
			   on ? CMN_DT_DTC_CTL_DT_EN : 0);
		cmn_hnf_hw_ovf_clear(cmn, i, CMN_DT_PMOVSR_EVCNT | CMN_DT_PMOVSR_CYCLES);
	}
}
