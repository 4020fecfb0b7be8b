/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CMN-600 registers used by the HN-F PMU driver. Facts only, no code: each
 * offset is followed by its fields. Offsets are from the node's base (the
 * start of its 16 KiB register block) unless said otherwise.
 */
#ifndef ARM_CMN_HNF_REGS_H
#define ARM_CMN_HNF_REGS_H

#include <linux/bits.h>

/* Every node's register block */
#define CMN_NODE_SIZE			0x4000
#define CMN_PMU_OFFSET			0x2000	/* the PMU page of any node */

/* Discovery registers common to all nodes */
#define CMN_NODE_INFO			0x0000
#define CMN_NODE_INFO_TYPE		GENMASK_ULL(15, 0)
#define CMN_NODE_INFO_ID		GENMASK_ULL(31, 16)
#define CMN_NODE_INFO_LOGID		GENMASK_ULL(47, 32)

#define CMN_CHILD_INFO			0x0080
#define CMN_CHILD_INFO_COUNT		GENMASK_ULL(15, 0)
#define CMN_CHILD_INFO_PTR_OFFSET	GENMASK_ULL(31, 16)

/* Each child pointer is 64 bits; the offset is from PERIPHBASE */
#define CMN_CHILD_PTR_STRIDE		8
#define CMN_CHILD_PTR_ADDR		GENMASK_ULL(27, 0)
#define CMN_CHILD_PTR_EXTERNAL		BIT_ULL(31)

/* node_info type codes */
#define CMN_TYPE_CFG			0x0002
#define CMN_TYPE_DTC			0x0003
#define CMN_TYPE_HNF			0x0005
#define CMN_TYPE_XP			0x0006

/* CFG (root) node: identification */
#define CMN_CFG_PERIPH_ID_01		0x0008
#define CMN_CFG_PERIPH_ID_01_PART_LO	GENMASK_ULL(7, 0)
#define CMN_CFG_PERIPH_ID_01_PART_HI	GENMASK_ULL(35, 32)
#define CMN_CFG_PERIPH_ID_23		0x0010
#define CMN_CFG_PERIPH_ID_23_REVISION	GENMASK_ULL(7, 4)

#define CMN_PART_CMN600			0x434
#define CMN_PART_CMN600AE		0x438

/* CMN-600 revision field values: r1p0 .. r3p1 */
#define CMN600_REV_R1P0			0
#define CMN600_REV_R1P1			1
#define CMN600_REV_R1P2			2
#define CMN600_REV_R1P3			3
#define CMN600_REV_R2P0			4
#define CMN600_REV_R3P0			5
#define CMN600_REV_R3P1			6

/* HN-F: por_hnf_pmu_event_sel, in the PMU page */
#define CMN_HNF_PMU_EVENT_SEL		(CMN_PMU_OFFSET + 0x0000)
#define CMN_HNF_PMU_EVENT0_ID		GENMASK_ULL(4, 0)
#define CMN_HNF_PMU_EVENT1_ID		GENMASK_ULL(12, 8)
#define CMN_HNF_PMU_EVENT2_ID		GENMASK_ULL(20, 16)
#define CMN_HNF_PMU_EVENT3_ID		GENMASK_ULL(28, 24)
#define CMN_HNF_PMU_OCCUP1_ID		GENMASK_ULL(34, 32)

/* XP DTM (debug/trace monitor), in the XP's PMU page */
#define CMN_DTM_PMU_CONFIG		(CMN_PMU_OFFSET + 0x0210)
#define CMN_DTM_PMU_CONFIG_PMU_EN	BIT_ULL(0)
#define CMN_DTM_PMU_CONFIG_ALL_COMB	BIT_ULL(3)
#define CMN_DTM_PMU_CONFIG_PAIRED	GENMASK_ULL(7, 4)
/* counter n's global counter number: a 3-bit field at 16 + 4n */
#define CMN_DTM_PMU_CONFIG_GLOBAL_NUM0	GENMASK_ULL(18, 16)
#define CMN_DTM_PMU_CONFIG_GLOBAL_NUM_STRIDE	4
/* counter n's input select: a 6-bit field at 32 + 8n */
#define CMN_DTM_PMU_CONFIG_INPUT_SEL0	GENMASK_ULL(37, 32)
#define CMN_DTM_PMU_CONFIG_INPUT_SEL_STRIDE	8

/* Four 16-bit local counters in one 64-bit register, counter n at 16n */
#define CMN_DTM_PMEVCNT			(CMN_PMU_OFFSET + 0x0220)
#define CMN_DTM_PMEVCNT_WIDTH		16

/* DTM input select values */
#define CMN_DTM_INPUT_DEVICE_BASE	0x10
#define CMN_DTM_INPUT_PORT_STRIDE	0x10
#define CMN_DTM_INPUT_DEV_STRIDE	0x04

/* DTC: control in the node's first page, counters in its PMU page */
#define CMN_DT_DTC_CTL			0x0a00
#define CMN_DT_DTC_CTL_DT_EN		BIT_ULL(0)
#define CMN_DT_DTC_CTL_CG_DISABLE	BIT_ULL(10)

/*
 * The eight 32-bit global counters sit in pairs in 64-bit registers on a
 * 16-byte stride: A,B at 0x2000, C,D at 0x2010, E,F at 0x2020, G,H at 0x2030.
 */
#define CMN_DT_PMEVCNT_PAIR(p)		(CMN_PMU_OFFSET + 0x10 * (p))
/* The pair register read whole: the even counter low, the odd one high */
#define CMN_DT_PMEVCNT_PAIR_EVEN	GENMASK_ULL(31, 0)
#define CMN_DT_PMEVCNT_PAIR_ODD		GENMASK_ULL(63, 32)
#define CMN_DT_PMEVCNT_WIDTH		32
#define CMN_DT_PMCCNTR			(CMN_PMU_OFFSET + 0x0040)
#define CMN_DT_PMCCNTR_WIDTH		40

#define CMN_DT_PMCR			(CMN_PMU_OFFSET + 0x0100)
#define CMN_DT_PMCR_PMU_EN		BIT_ULL(0)
#define CMN_DT_PMCR_OVFL_INTR_EN	BIT_ULL(6)

/* Overflow status and its write-one-to-clear twin: bit 8 is the cycle counter */
#define CMN_DT_PMOVSR			(CMN_PMU_OFFSET + 0x0118)
#define CMN_DT_PMOVSR_CLR		(CMN_PMU_OFFSET + 0x0120)
#define CMN_DT_PMOVSR_EVCNT		GENMASK_ULL(7, 0)
#define CMN_DT_PMOVSR_CYCLES		BIT_ULL(8)

#endif /* ARM_CMN_HNF_REGS_H */
