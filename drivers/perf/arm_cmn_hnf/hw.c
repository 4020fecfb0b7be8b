// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf hardware layer: every register access of the driver is here.
 *
 * The perf glue decides what should be counted and keeps shadows of the HN-F
 * and DTM configuration registers in struct cmn_hnf; this file turns the
 * shadows into register words (with the encoders of logic.h) and writes
 * them whole, and reads counters back.
 */
#include <linux/bitfield.h>
#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "hnf.h"

/*
 * Register accessors. Every MMIO access of the driver goes through one of
 * these; add another width here rather than calling readX()/writeX() directly.
 *
 * A build with CMN_HNF_COUNT_ACCESSES=1 (make bench) counts the accesses per
 * CPU and shows the totals in debugfs, arm_cmn_hnf/mmio_accesses; writing to
 * that file zeroes them. In the normal build CMN_HNF_COUNTING is false and the
 * compiler drops the counters, the file and its code: the shipped module pays
 * nothing, yet every build still compiles (and lints) the counting code.
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

static u32 cmn_hnf_rd32(const void __iomem *addr)
{
	if (CMN_HNF_COUNTING)
		this_cpu_inc(cmn_hnf_accesses.reads);
	return readl(addr);
}

static u64 cmn_hnf_rd64(const void __iomem *addr)
{
	if (CMN_HNF_COUNTING)
		this_cpu_inc(cmn_hnf_accesses.reads);
	return readq(addr);
}

static void cmn_hnf_wr64(u64 val, void __iomem *addr)
{
	if (CMN_HNF_COUNTING)
		this_cpu_inc(cmn_hnf_accesses.writes);
	writeq(val, addr);
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

static void __iomem *cmn_hnf_reg(struct cmn_hnf *cmn, u32 node, u32 reg)
{
	return cmn->base + node + reg;
}

/* Discovery reader: cmn_hnf_discover() keeps @offset inside the region. */
u64 cmn_hnf_hw_read64(void *ctx, u32 offset)
{
	struct cmn_hnf *cmn = ctx;

	return cmn_hnf_rd64(cmn->base + offset);
}

static u32 cmn_hnf_dtc_node(struct cmn_hnf *cmn, unsigned int dtc)
{
	return cmn->topo->dtc[dtc].offset;
}

void cmn_hnf_hw_write_event_sel(struct cmn_hnf *cmn, unsigned int hnf)
{
	u64 val = cmn_hnf_encode_event_sel(cmn->hnf_ev[hnf],
					   cmn->alloc.occup_val[hnf]);

	cmn_hnf_wr64(val, cmn_hnf_reg(cmn, cmn->topo->hnf[hnf].offset,
				      CMN_HNF_PMU_EVENT_SEL));
}

void cmn_hnf_hw_write_dtm(struct cmn_hnf *cmn, unsigned int xp)
{
	u64 val = cmn_hnf_encode_dtm_config(&cmn->dtm[xp]);

	cmn_hnf_wr64(val, cmn_hnf_reg(cmn, cmn->topo->xp[xp].offset,
				      CMN_DTM_PMU_CONFIG));
}

u16 cmn_hnf_hw_read_local(struct cmn_hnf *cmn, unsigned int xp,
			  unsigned int ctr)
{
	u64 val = cmn_hnf_rd64(cmn_hnf_reg(cmn, cmn->topo->xp[xp].offset,
					   CMN_DTM_PMEVCNT));

	return (u16)(val >> (CMN_DTM_PMEVCNT_WIDTH * ctr));
}

u32 cmn_hnf_hw_read_global(struct cmn_hnf *cmn, unsigned int dtc,
			   unsigned int idx)
{
	return cmn_hnf_rd32(cmn_hnf_reg(cmn, cmn_hnf_dtc_node(cmn, dtc),
					CMN_DT_PMEVCNT_PAIR(idx / 2) +
					CMN_DT_PMEVCNT_ODD * (idx % 2)));
}

u64 cmn_hnf_hw_read_cycles(struct cmn_hnf *cmn)
{
	u64 val = cmn_hnf_rd64(cmn_hnf_reg(cmn, cmn_hnf_dtc_node(cmn, 0),
					   CMN_DT_PMCCNTR));

	return val & GENMASK_ULL(CMN_DT_PMCCNTR_WIDTH - 1, 0);
}

static void cmn_hnf_hw_write_pmcr(struct cmn_hnf *cmn, unsigned int dtc,
				  bool on)
{
	u64 val = CMN_DT_PMCR_OVFL_INTR_EN;

	if (on)
		val |= CMN_DT_PMCR_PMU_EN;
	cmn_hnf_wr64(val, cmn_hnf_reg(cmn, cmn_hnf_dtc_node(cmn, dtc),
				      CMN_DT_PMCR));
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
	cmn_hnf_wr64(val, cmn_hnf_reg(cmn, cmn_hnf_dtc_node(cmn, 0),
				      CMN_DT_DTC_CTL));
}

u32 cmn_hnf_hw_ovf_status(struct cmn_hnf *cmn, unsigned int dtc)
{
	u64 val = cmn_hnf_rd64(cmn_hnf_reg(cmn, cmn_hnf_dtc_node(cmn, dtc),
					   CMN_DT_PMOVSR));

	return val & (CMN_DT_PMOVSR_EVCNT | CMN_DT_PMOVSR_CYCLES);
}

void cmn_hnf_hw_ovf_clear(struct cmn_hnf *cmn, unsigned int dtc, u32 bits)
{
	cmn_hnf_wr64(bits, cmn_hnf_reg(cmn, cmn_hnf_dtc_node(cmn, dtc),
				       CMN_DT_PMOVSR_CLR));
}

/*
 * Probe: every HN-F selects nothing, every DTM has pmu_en and no paired
 * counter, every DTC is enabled with its overflow interrupt and a clean
 * overflow status. Counter values are left alone: each event takes its own
 * baseline.
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
		u32 node = cmn_hnf_dtc_node(cmn, i);

		cmn_hnf_wr64(CMN_DT_DTC_CTL_DT_EN,
			     cmn_hnf_reg(cmn, node, CMN_DT_DTC_CTL));
		cmn_hnf_hw_write_pmcr(cmn, i, true);
		cmn_hnf_hw_ovf_clear(cmn, i, CMN_DT_PMOVSR_EVCNT |
					     CMN_DT_PMOVSR_CYCLES);
	}
}

/* Remove: stop everything that probe started. */
void cmn_hnf_hw_quiesce(struct cmn_hnf *cmn)
{
	const struct cmn_hnf_topology *topo = cmn->topo;
	unsigned int i;

	memset(cmn->hnf_ev, 0, sizeof(cmn->hnf_ev));
	for (i = 0; i < topo->num_hnfs; i++)
		cmn_hnf_hw_write_event_sel(cmn, i);
	for (i = 0; i < topo->num_xps; i++)
		cmn_hnf_wr64(0, cmn_hnf_reg(cmn, topo->xp[i].offset,
					    CMN_DTM_PMU_CONFIG));
	for (i = 0; i < topo->num_dtcs; i++) {
		u32 node = cmn_hnf_dtc_node(cmn, i);

		cmn_hnf_wr64(0, cmn_hnf_reg(cmn, node, CMN_DT_PMCR));
		cmn_hnf_wr64(0, cmn_hnf_reg(cmn, node, CMN_DT_DTC_CTL));
		cmn_hnf_hw_ovf_clear(cmn, i, CMN_DT_PMOVSR_EVCNT |
					     CMN_DT_PMOVSR_CYCLES);
	}
}
