// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf hardware layer: every register access of the driver is here.
 *
 * The perf glue decides what should be counted and keeps shadows of the HN-F
 * and DTM configuration registers in struct cmn_hnf; this file turns the
 * shadows into register words (with the encoders of logic.h) and writes
 * them whole, and reads counters back.
 *
 * All accesses go through the four accessors below. Most are relaxed: the
 * CMN-600 configuration space is one device, and relaxed accesses from one
 * CPU to one device reach it in program order, which is all that the
 * programming sequences need (configure, then enable; read a baseline,
 * then select the event). No access here is ordered against normal memory
 * (the CMN does no DMA). The two places that need more say so.
 */
#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "hnf.h"

/*
 * Access counting for make bench. A build with CMN_HNF_COUNT_ACCESSES=1
 * counts every access of the four accessors below per CPU and shows the
 * totals in debugfs, arm_cmn_hnf/mmio_accesses; writing to that file zeroes
 * them. In the normal build CMN_HNF_COUNTING is false and the compiler drops
 * the counters, the file and its code: the shipped module pays nothing, yet
 * every build still compiles (and lints) the counting code. Add no access
 * outside these accessors.
 */
#ifdef CMN_HNF_COUNT_ACCESSES
#define CMN_HNF_COUNTING	true
#else
#define CMN_HNF_COUNTING	false
#endif

struct cmn_hnf_accesses {
	u64 reads;
	u64 writes;
};

static DEFINE_PER_CPU(struct cmn_hnf_accesses, cmn_hnf_accesses);
static struct dentry *cmn_hnf_debugfs;

static void cmn_hnf_count_read(void)
{
	if (CMN_HNF_COUNTING)
		this_cpu_inc(cmn_hnf_accesses.reads);
}

static void cmn_hnf_count_write(void)
{
	if (CMN_HNF_COUNTING)
		this_cpu_inc(cmn_hnf_accesses.writes);
}

static int cmn_hnf_accesses_show(struct seq_file *m, void *unused)
{
	u64 reads = 0, writes = 0;
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		reads += per_cpu(cmn_hnf_accesses.reads, cpu);
		writes += per_cpu(cmn_hnf_accesses.writes, cpu);
	}
	seq_printf(m, "reads %llu\nwrites %llu\n", reads, writes);
	return 0;
}

static int cmn_hnf_accesses_open(struct inode *inode, struct file *file)
{
	return single_open(file, cmn_hnf_accesses_show, NULL);
}

/* Any write zeroes the counts; meant for an idle PMU (make bench) */
static ssize_t cmn_hnf_accesses_write(struct file *file,
				      const char __user *buf, size_t len,
				      loff_t *ppos)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		per_cpu(cmn_hnf_accesses.reads, cpu) = 0;
		per_cpu(cmn_hnf_accesses.writes, cpu) = 0;
	}
	return len;
}

static const struct file_operations cmn_hnf_accesses_fops = {
	.owner		= THIS_MODULE,
	.open		= cmn_hnf_accesses_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= single_release,
	.write		= cmn_hnf_accesses_write,
};

/* Module init/exit: the access counts of a counting build, else nothing */
void cmn_hnf_hw_debugfs_init(void)
{
	if (!CMN_HNF_COUNTING)
		return;
	cmn_hnf_debugfs = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("mmio_accesses", 0600, cmn_hnf_debugfs, NULL,
			    &cmn_hnf_accesses_fops);
}

void cmn_hnf_hw_debugfs_exit(void)
{
	if (!CMN_HNF_COUNTING)
		return;
	debugfs_remove_recursive(cmn_hnf_debugfs);
	cmn_hnf_debugfs = NULL;
}

/* Relaxed 64-bit read of the register at @off from PERIPHBASE */
static u64 cmn_hnf_rd(struct cmn_hnf *cmn, u32 off)
{
	cmn_hnf_count_read();
	return readq_relaxed(cmn->base + off);
}

/* Relaxed 32-bit read (the global counters are 32-bit halves) */
static u32 cmn_hnf_rd32(struct cmn_hnf *cmn, u32 off)
{
	cmn_hnf_count_read();
	return readl_relaxed(cmn->base + off);
}

/* 64-bit read that completes before any later access is issued */
static u64 cmn_hnf_rd_ordered(struct cmn_hnf *cmn, u32 off)
{
	cmn_hnf_count_read();
	return readq(cmn->base + off);
}

/* Relaxed 64-bit write */
static void cmn_hnf_wr(struct cmn_hnf *cmn, u32 off, u64 val)
{
	cmn_hnf_count_write();
	writeq_relaxed(val, cmn->base + off);
}

/* Discovery reader: cmn_hnf_discover() keeps @offset inside the region. */
u64 cmn_hnf_hw_read64(void *ctx, u32 offset)
{
	return cmn_hnf_rd(ctx, offset);
}

static u32 cmn_hnf_dtc_node(struct cmn_hnf *cmn, unsigned int dtc)
{
	return cmn->topo->dtc[dtc].offset;
}

static u32 cmn_hnf_xp_node(struct cmn_hnf *cmn, unsigned int xp)
{
	return cmn->topo->xp[xp].offset;
}

/* The HN-F's pmu_event_sel from its shadow; the occupancy filter written is noted */
void cmn_hnf_hw_write_event_sel(struct cmn_hnf *cmn, unsigned int hnf)
{
	u64 val = cmn_hnf_encode_event_sel(cmn->hnf_ev[hnf],
					   cmn->alloc.occup_val[hnf]);

	cmn->occup_hw[hnf] = cmn->alloc.occup_val[hnf];
	cmn_hnf_wr(cmn, cmn->topo->hnf[hnf].offset + CMN_HNF_PMU_EVENT_SEL, val);
}

void cmn_hnf_hw_write_dtm(struct cmn_hnf *cmn, unsigned int xp)
{
	u64 val = cmn_hnf_encode_dtm_config(&cmn->dtm[xp]);

	cmn_hnf_wr(cmn, cmn_hnf_xp_node(cmn, xp) + CMN_DTM_PMU_CONFIG, val);
}

/* The four 16-bit local counters of an XP's DTM, in one access */
u64 cmn_hnf_hw_read_dtm(struct cmn_hnf *cmn, unsigned int xp)
{
	return cmn_hnf_rd(cmn, cmn_hnf_xp_node(cmn, xp) + CMN_DTM_PMEVCNT);
}

/*
 * A GLOBAL sample reads the global counters, then the local ones: a carry
 * lands on the DTC after its local counter wrapped, so in that order a
 * sample can never hold a carry without the wrap that made it. Within the
 * mesh the DTC and the XPs are different nodes, so do not rely on device
 * ordering here: the global reads must have completed (as readq() would
 * make them) before the first local read is issued.
 */
static void cmn_hnf_hw_globals_done(struct cmn_hnf *cmn)
{
	dma_rmb();
}

/*
 * One sample of a GLOBAL event in num_dtcs + c->nxps reads: its global
 * counter on every DTC, the barrier of cmn_hnf_hw_globals_done(), then
 * each XP holding its DTM counters once, summing the event's fields. The
 * loops are here, not in pmu.c, so that each access is a load and not a
 * call: this runs on every read() of an event of all HN-Fs.
 */
void cmn_hnf_hw_sample_global(struct cmn_hnf *cmn,
			      const struct cmn_hnf_counter *c,
			      struct cmn_hnf_sample *s)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned int idx = c->grant.global;
	u32 rel = CMN_DT_PMEVCNT_PAIR(idx / 2) + CMN_DT_PMEVCNT_ODD * (idx % 2);
	unsigned int d, i, num_dtcs = topo->num_dtcs, nxps = c->nxps;
	unsigned int lane = c->lane;
	u32 local = 0;

	for (d = 0; d < num_dtcs; d++)
		s->global[d] = cmn_hnf_rd32(cmn, topo->dtc[d].offset + rel);
	cmn_hnf_hw_globals_done(cmn);
	/* the usual layout, one counter per XP at one index: a shift each */
	if (lane != CMN_HNF_LANE_MIXED) {
		for (i = 0; i < nxps; i++)
			local += cmn_hnf_lane(cmn_hnf_rd(cmn, topo->xp[c->xp[i]].offset +
							 CMN_DTM_PMEVCNT),
					      lane);
	} else {
		for (i = 0; i < nxps; i++)
			local += cmn_hnf_sum_fields(cmn_hnf_rd(cmn, topo->xp[c->xp[i]].offset +
							       CMN_DTM_PMEVCNT),
						    c->fields[i]);
	}
	s->local = local;
}

/*
 * One sample of a whole group (logic.h, "Group reads"): the pair registers
 * in @gs->pairs of every DTC, the barrier of cmn_hnf_hw_globals_done(),
 * the XPs in @gs->xps, and the cycle counter if @gs->cycles: the fewest
 * accesses that sample every member.
 */
void cmn_hnf_hw_sample_group(struct cmn_hnf *cmn,
			     struct cmn_hnf_group_sample *gs)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	u64 xps = gs->xps;
	unsigned int d, p, x, pairs;

	if (gs->pairs) {
		for (d = 0; d < topo->num_dtcs; d++) {
			/* a bit loop, not for_each_set_bit(): no call per pair */
			for (pairs = gs->pairs; pairs; pairs &= pairs - 1) {
				p = __ffs(pairs);
				gs->pair[d][p] = cmn_hnf_rd(cmn, topo->dtc[d].offset +
							    CMN_DT_PMEVCNT_PAIR(p));
			}
		}
		cmn_hnf_hw_globals_done(cmn);
	}
	while (xps) {
		x = __ffs64(xps);
		xps &= xps - 1;
		gs->xp[x] = cmn_hnf_rd(cmn, topo->xp[x].offset + CMN_DTM_PMEVCNT);
	}
	if (gs->cycles)
		gs->cyc = cmn_hnf_hw_read_cycles(cmn);
}

u64 cmn_hnf_hw_read_cycles(struct cmn_hnf *cmn)
{
	u64 val = cmn_hnf_rd(cmn, cmn_hnf_dtc_node(cmn, 0) + CMN_DT_PMCCNTR);

	return val & GENMASK_ULL(CMN_DT_PMCCNTR_WIDTH - 1, 0);
}

static void cmn_hnf_hw_write_pmcr(struct cmn_hnf *cmn, unsigned int dtc,
				  bool on)
{
	u64 val = CMN_DT_PMCR_OVFL_INTR_EN;

	if (on)
		val |= CMN_DT_PMCR_PMU_EN;
	cmn_hnf_wr(cmn, cmn_hnf_dtc_node(cmn, dtc) + CMN_DT_PMCR, val);
}

/* Global enable: PMCR.pmu_en on every DTC, not only DTC0 */
void cmn_hnf_hw_enable(struct cmn_hnf *cmn, bool on)
{
	unsigned int d;

	for (d = 0; d < cmn->topo->num_dtcs; d++)
		cmn_hnf_hw_write_pmcr(cmn, d, on);
}

/*
 * DTC0 counts cycles of its own clock; with clock gating allowed the count
 * stops whenever the DTC is idle, so cg_disable is set while the cycles
 * event is in use.
 */
void cmn_hnf_hw_cycles_clock(struct cmn_hnf *cmn, bool always_on)
{
	u64 val = CMN_DT_DTC_CTL_DT_EN;

	if (always_on)
		val |= CMN_DT_DTC_CTL_CG_DISABLE;
	cmn_hnf_wr(cmn, cmn_hnf_dtc_node(cmn, 0) + CMN_DT_DTC_CTL, val);
}

/*
 * Overflow status, read first by the interrupt handler: the counter reads
 * that follow must see at least the values that raised the flags, so this
 * read completes before they are issued.
 */
u32 cmn_hnf_hw_ovf_status(struct cmn_hnf *cmn, unsigned int dtc)
{
	u64 val = cmn_hnf_rd_ordered(cmn, cmn_hnf_dtc_node(cmn, dtc) +
				     CMN_DT_PMOVSR);

	return val & (CMN_DT_PMOVSR_EVCNT | CMN_DT_PMOVSR_CYCLES);
}

/*
 * Write-one-to-clear. Relaxed: the counters it is about were read before,
 * in program order, and a clear that lands late can only bring the handler
 * back once more, to an empty status (IRQ_NONE) or to a flag a baseline
 * noted (pmu.c, cmn_hnf_baseline()).
 */
void cmn_hnf_hw_ovf_clear(struct cmn_hnf *cmn, unsigned int dtc, u32 bits)
{
	cmn_hnf_wr(cmn, cmn_hnf_dtc_node(cmn, dtc) + CMN_DT_PMOVSR_CLR, bits);
}

/*
 * Probe, once nothing can fail any more: every HN-F selects nothing, every
 * DTM has pmu_en and no counter in use, every DTC has dt_en, its overflow
 * interrupt enabled and a clean overflow status, and counts nothing
 * (pmu_en clear) until an event is added. Counter values are left alone:
 * each event takes its own baseline.
 */
void cmn_hnf_hw_init(struct cmn_hnf *cmn)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned int i;

	memset(cmn->hnf_ev, 0, sizeof(cmn->hnf_ev));
	memset(cmn->dtm, 0, sizeof(cmn->dtm));
	for (i = 0; i < topo->num_hnfs; i++)
		cmn_hnf_hw_write_event_sel(cmn, i);
	for (i = 0; i < topo->num_xps; i++)
		cmn_hnf_hw_write_dtm(cmn, i);
	for (i = 0; i < topo->num_dtcs; i++) {
		cmn_hnf_wr(cmn, cmn_hnf_dtc_node(cmn, i) + CMN_DT_DTC_CTL,
			   CMN_DT_DTC_CTL_DT_EN);
		cmn_hnf_hw_write_pmcr(cmn, i, false);
		cmn_hnf_hw_ovf_clear(cmn, i, CMN_DT_PMOVSR_EVCNT |
					     CMN_DT_PMOVSR_CYCLES);
		cmn->ovf_clearing[i] = CMN_DT_PMOVSR_EVCNT |
				       CMN_DT_PMOVSR_CYCLES;
	}
	cmn->hw_enabled = false;
	cmn->cycles_clock = false;
}

/* Remove and shutdown: stop everything that probe started. */
void cmn_hnf_hw_quiesce(struct cmn_hnf *cmn)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned int i;

	for (i = 0; i < topo->num_dtcs; i++) {
		u32 node = cmn_hnf_dtc_node(cmn, i);

		cmn_hnf_wr(cmn, node + CMN_DT_PMCR, 0);
		cmn_hnf_wr(cmn, node + CMN_DT_DTC_CTL, 0);
		cmn_hnf_hw_ovf_clear(cmn, i, CMN_DT_PMOVSR_EVCNT |
					     CMN_DT_PMOVSR_CYCLES);
	}
	memset(cmn->hnf_ev, 0, sizeof(cmn->hnf_ev));
	for (i = 0; i < topo->num_hnfs; i++)
		cmn_hnf_hw_write_event_sel(cmn, i);
	for (i = 0; i < topo->num_xps; i++)
		cmn_hnf_wr(cmn, cmn_hnf_xp_node(cmn, i) + CMN_DTM_PMU_CONFIG, 0);
	cmn->hw_enabled = false;
}
