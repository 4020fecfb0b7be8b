// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf_kunit.ko: KUnit suites for the pure logic of arm_cmn_hnf.ko
 * (drivers/perf/arm_cmn_hnf/logic.c and the shared headers). One suite per
 * file; this file only registers them.
 */
#include <linux/module.h>

#include <arm_cmn_hnf/compat.h>

#include "suites.h"

kunit_test_suites(&cmn_hnf_event_sel_suite, &cmn_hnf_events_suite,
		  &cmn_hnf_config_suite, &cmn_hnf_nodeid_suite,
		  &cmn_hnf_dtm_suite, &cmn_hnf_discovery_suite,
		  &cmn_hnf_alloc_suite, &cmn_hnf_counter_suite,
		  &cmn_hnf_irq_suite);

CMN_HNF_IMPORT_KUNIT_NS();
MODULE_DESCRIPTION("KUnit tests for the CMN-600 HN-F PMU driver's pure logic");
MODULE_LICENSE("GPL");
