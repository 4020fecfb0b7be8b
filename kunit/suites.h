/* SPDX-License-Identifier: GPL-2.0 */
/* The suites of arm_cmn_hnf_kunit.ko, one per file, registered in kunit_main.c */
#ifndef ARM_CMN_HNF_KUNIT_SUITES_H
#define ARM_CMN_HNF_KUNIT_SUITES_H

#include <kunit/test.h>

extern struct kunit_suite cmn_hnf_event_sel_suite;
extern struct kunit_suite cmn_hnf_events_suite;
extern struct kunit_suite cmn_hnf_config_suite;
extern struct kunit_suite cmn_hnf_nodeid_suite;
extern struct kunit_suite cmn_hnf_dtm_suite;
extern struct kunit_suite cmn_hnf_discovery_suite;
extern struct kunit_suite cmn_hnf_alloc_suite;
extern struct kunit_suite cmn_hnf_counter_suite;
extern struct kunit_suite cmn_hnf_irq_suite;

#endif /* ARM_CMN_HNF_KUNIT_SUITES_H */
