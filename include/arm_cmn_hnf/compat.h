/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the arm_cmn_hnf modules meet, and nothing
 * else. The driver and its KUnit module build on Debian's 5.10, 6.1, 6.12
 * and 7.2 kernels (make lint); each helper names the release that changed
 * the API. No other file of the driver or its KUnit module tests
 * LINUX_VERSION_CODE.
 *
 * The CMN-600 model (tools/testing/cmn600-model) must not include this
 * file: it has its own small compatibility header (kcompat.h).
 */
#ifndef ARM_CMN_HNF_COMPAT_H
#define ARM_CMN_HNF_COMPAT_H

#include <linux/cpumask.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/version.h>

/* True when building against kernel a.b.c or later */
#define CMN_HNF_KERNEL_GE(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

/*
 * kunit/visibility.h (6.2; Debian's 6.1 has it as a backport, vanilla 6.1
 * and 5.10 do not): symbols exported only to the KUnit module, in the
 * EXPORTED_FOR_KUNIT_TESTING namespace. (A version test, not
 * __has_include(): sparse 0.6.4 does not know the latter.)
 */
#if CMN_HNF_KERNEL_GE(6, 2, 0)
#include <kunit/visibility.h>
#elif !defined(EXPORT_SYMBOL_IF_KUNIT)
#if IS_ENABLED(CONFIG_KUNIT)
/* visible, and exported to the KUnit module only */
#define EXPORT_SYMBOL_IF_KUNIT(...) EXPORT_SYMBOL_NS(__VA_ARGS__, EXPORTED_FOR_KUNIT_TESTING)
#define VISIBLE_IF_KUNIT
#else
/* neither: a plain static function */
#define EXPORT_SYMBOL_IF_KUNIT(...)
#define VISIBLE_IF_KUNIT static
#endif
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
 * irq_set_affinity() is exported to modules from 5.14 on. Before, the
 * affinity is set through irq_set_affinity_hint() (which sets both), and
 * that hint must be cleared again before free_irq().
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

/* cpumask_any_and_but() (6.10) */
static inline unsigned int
cmn_hnf_cpumask_any_and_but(const struct cpumask *mask1,
			    const struct cpumask *mask2, unsigned int cpu)
{
#if CMN_HNF_KERNEL_GE(6, 10, 0)
	return cpumask_any_and_but(mask1, mask2, cpu);
#else
	unsigned int i;

	for_each_cpu_and(i, mask1, mask2) {
		if (i != cpu)
			return i;
	}
	return nr_cpu_ids;
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
