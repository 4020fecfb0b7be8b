/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every kernel-version difference the arm_cmn_hnf driver meets, and nothing
 * else. The driver builds on Debian's 6.1 and 6.12 kernels; each helper
 * names the release that changed the API.
 */
#ifndef ARM_CMN_HNF_COMPAT_H
#define ARM_CMN_HNF_COMPAT_H

#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/perf_event.h>
#include <linux/version.h>

/* True when building against kernel a.b.c or later */
#define CMN_HNF_KERNEL_GE(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

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
