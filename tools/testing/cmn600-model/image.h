/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CMN-600 register layout as the model lays it out and reads it back.
 * Written from the hardware reference (sections 1 and 2), not shared with
 * the driver. Offsets are relative to the node's 16 KiB register block.
 */
#ifndef CMN600_MODEL_IMAGE_H
#define CMN600_MODEL_IMAGE_H

#include <linux/bits.h>
#include <linux/types.h>

#include "cmn600_model.h"

/* Discovery registers, present in every node */
#define CMN600M_NODE_INFO		0x000
#define  CMN600M_NODE_INFO_TYPE		GENMASK_ULL(15, 0)
#define  CMN600M_NODE_INFO_ID		GENMASK_ULL(31, 16)
#define  CMN600M_NODE_INFO_LID		GENMASK_ULL(47, 32)
#define CMN600M_CHILD_INFO		0x080
#define  CMN600M_CHILD_INFO_COUNT	GENMASK_ULL(15, 0)
#define  CMN600M_CHILD_INFO_PTR_OFF	GENMASK_ULL(31, 16)
#define CMN600M_CHILD_PTRS		0x100
#define  CMN600M_CHILD_PTR_ADDR		GENMASK_ULL(27, 0)
#define  CMN600M_CHILD_PTR_EXTERNAL	BIT_ULL(31)
/* How many child pointers fit in a 16 KiB block after 0x100 */
#define CMN600M_MAX_CHILDREN		((CMN600_MODEL_BLOCK - CMN600M_CHILD_PTRS) / 8)

/* CFG node identification (periph_id_0/1 and periph_id_2/3 pairs) */
#define CMN600M_CFG_PERIPH_ID_01	0x008
#define  CMN600M_PID0_PART_LO		GENMASK_ULL(7, 0)
#define  CMN600M_PID1_PART_HI		GENMASK_ULL(35, 32)
#define  CMN600M_PID1_DES0		GENMASK_ULL(39, 36)
#define CMN600M_CFG_PERIPH_ID_23	0x010
#define  CMN600M_PID2_DES1		GENMASK_ULL(2, 0)
#define  CMN600M_PID2_JEDEC		BIT_ULL(3)
#define  CMN600M_PID2_REVISION		GENMASK_ULL(7, 4)
#define CMN600M_PART_CMN600		0x434
/* Arm's JEP106 identity code 0x3b, split over des_0 (3:0) and des_1 (6:4) */
#define CMN600M_JEP106_ARM		0x3b

/* XP */
#define CMN600M_XP_CONNECT_INFO(p)	(0x008 + 8 * (p))
#define  CMN600M_CONNECT_TYPE		GENMASK_ULL(4, 0)

/* Every node keeps its PMU registers in its third 4 KiB page */
#define CMN600M_PMU			0x2000

/* HN-F por_hnf_pmu_event_sel */
#define CMN600M_HNF_EVENT_SEL		(CMN600M_PMU + 0x000)
#define  CMN600M_HNF_EVENT_SLOT(k)	(GENMASK_ULL(4, 0) << (8 * (k)))
#define  CMN600M_HNF_OCCUP1_ID		GENMASK_ULL(34, 32)
#define  CMN600M_HNF_EVENT_SEL_RW	0x71f1f1f1fULL

/* DTM, in the XP's PMU page */
#define CMN600M_DTM_PMU_CONFIG		(CMN600M_PMU + 0x210)
#define  CMN600M_DTM_PMU_EN		BIT_ULL(0)
#define  CMN600M_DTM_01_COMBINED	BIT_ULL(1)
#define  CMN600M_DTM_23_COMBINED	BIT_ULL(2)
#define  CMN600M_DTM_ALL_COMBINED	BIT_ULL(3)
#define  CMN600M_DTM_PAIRED(n)		BIT_ULL(4 + (n))
#define  CMN600M_DTM_CNTR_RST		BIT_ULL(8)
#define  CMN600M_DTM_GLOBAL_NUM(n)	(GENMASK_ULL(18, 16) << (4 * (n)))
#define  CMN600M_DTM_INPUT_SEL(n)	(GENMASK_ULL(37, 32) << (8 * (n)))
#define CMN600M_DTM_PMEVCNT		(CMN600M_PMU + 0x220)
#define CMN600M_DTM_PMEVCNTSR		(CMN600M_PMU + 0x240)
#define CMN600M_DTM_NR_COUNTERS		4
/* input_sel of "port p, device d, event slot k" */
#define CMN600M_INPUT_SEL_DEV(p, d, k)	(0x10 + 0x10 * (p) + 4 * (d) + (k))

/* DTC */
#define CMN600M_DTC_CTL			0x0a00
#define  CMN600M_DTC_CTL_DT_EN		BIT_ULL(0)
/*
 * Global counters A..H: 32 bits each, two per 64-bit register on a 16-byte
 * stride. CMN600M_DTC_PMEVCNT_PAIR(g) is the 64-bit register holding counter
 * g, in bits 31:0 for even g and 63:32 for odd g.
 */
#define CMN600M_DTC_PMEVCNT_PAIR(g)	(CMN600M_PMU + 0x10 * ((g) / 2))
#define CMN600M_DTC_PMEVCNT_SHIFT(g)	(32 * ((g) % 2))
#define CMN600M_DTC_PMCCNTR		(CMN600M_PMU + 0x040)
#define CMN600M_DTC_PMEVCNTSR_PAIR(g)	(CMN600M_PMU + 0x050 + 0x10 * ((g) / 2))
#define CMN600M_DTC_PMCCNTRSR		(CMN600M_PMU + 0x090)
#define CMN600M_DTC_PMCR		(CMN600M_PMU + 0x100)
#define  CMN600M_PMCR_PMU_EN		BIT_ULL(0)
#define  CMN600M_PMCR_CNTR_RST		BIT_ULL(5)
#define  CMN600M_PMCR_OVFL_INTR_EN	BIT_ULL(6)
#define CMN600M_DTC_PMOVSR		(CMN600M_PMU + 0x118)
#define CMN600M_DTC_PMOVSR_CLR		(CMN600M_PMU + 0x120)
#define  CMN600M_PMOVSR_ALL		GENMASK_ULL(8, 0)
#define  CMN600M_PMOVSR_CYCLES		BIT_ULL(8)
#define CMN600M_DTC_PMSSR		(CMN600M_PMU + 0x128)
#define CMN600M_DTC_PMSRR		(CMN600M_PMU + 0x130)
#define  CMN600M_PMSRR_SS_REQ		BIT_ULL(0)
#define CMN600M_DTC_NR_GLOBAL		8
#define CMN600M_CYCLES_BITS		40

#endif /* CMN600_MODEL_IMAGE_H */
