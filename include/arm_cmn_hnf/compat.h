/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the arm_cmn_hnf modules meet (Debian's
 * 5.10, 6.1, 6.12 and 7.2, make lint), each with the release that changed
 * the API; no other file of the driver or its KUnit module tests
 * LINUX_VERSION_CODE. The CMN-600 model has its own header (kcompat.h).
 */
#ifndef ARM_CMN_HNF_COMPAT_H
#define ARM_CMN_HNF_COMPAT_H

#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/version.h>

/* True when building against kernel a.b.c or later */
#define CMN_HNF_KERNEL_GE(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

/*
 * kunit/visibility.h (6.2, backported to Debian's 6.1): symbols exported to
 * the KUnit module only. A version test: sparse 0.6.4 lacks __has_include().
 */
#if CMN_HNF_KERNEL_GE(6, 2, 0)
#include <kunit/visibility.h>
#elif !defined(EXPORT_SYMBOL_IF_KUNIT) && IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_IF_KUNIT(...) EXPORT_SYMBOL_NS(__VA_ARGS__, EXPORTED_FOR_KUNIT_TESTING)
#elif !defined(EXPORT_SYMBOL_IF_KUNIT)
#define EXPORT_SYMBOL_IF_KUNIT(...)
#endif

/*
 * MODULE_IMPORT_NS() takes a string literal from 6.13 on (a bare
 * identifier before): the KUnit module imports the namespace above.
 */
#if CMN_HNF_KERNEL_GE(6, 13, 0)
#define CMN_HNF_IMPORT_KUNIT_NS()	MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING")
#else
#define CMN_HNF_IMPORT_KUNIT_NS()	MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING)
#endif

/*
 * irq_set_affinity() is exported from 5.14; before, irq_set_affinity_hint()
 * sets it, and the hint must be cleared again before free_irq()
 */
static inline int cmn_hnf_irq_set_affinity(unsigned int irq, unsigned int cpu)
{
#if CMN_HNF_KERNEL_GE(5, 14, 0)
	return irq_set_affinity(irq, cpumask_of(cpu));
#else
	return irq_set_affinity_hint(irq, cpumask_of(cpu));
#endif
}

/* Undo, before free_irq(), what cmn_hnf_irq_set_affinity() must not leave */
static inline void cmn_hnf_irq_clear_affinity(unsigned int irq)
{
#if !CMN_HNF_KERNEL_GE(5, 14, 0)
	irq_set_affinity_hint(irq, NULL);
#endif
}

/* struct pmu.parent (6.5): the PMU's sysfs device sits under the mesh's */
static inline void cmn_hnf_pmu_set_parent(struct pmu *pmu, struct device *dev)
{
#if CMN_HNF_KERNEL_GE(6, 5, 0)
	pmu->parent = dev;
#endif
}

/* hrtimer_setup() (6.13) replaced hrtimer_init() and setting .function */
static inline void
cmn_hnf_hrtimer_setup(struct hrtimer *timer,
		      enum hrtimer_restart (*fn)(struct hrtimer *),
		      clockid_t clock, enum hrtimer_mode mode)
{
#if CMN_HNF_KERNEL_GE(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* ARM_CMN_HNF_COMPAT_H */
