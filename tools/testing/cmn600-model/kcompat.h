/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model's own kernel-version shims (it must not share the driver's
 * include/arm_cmn_hnf/compat.h: see Documentation/cmn600-model.rst). The
 * model builds on Debian's 5.10, 6.1, 6.12 and 7.2 kernels (make lint).
 */
#ifndef CMN600_MODEL_KCOMPAT_H
#define CMN600_MODEL_KCOMPAT_H

#include <linux/hrtimer.h>
#include <linux/version.h>

/* True when building against kernel a.b.c or later */
#define CMN600_MODEL_KERNEL_GE(a, b, c)	(KERNEL_VERSION(a, b, c) <= LINUX_VERSION_CODE)

/* hrtimer_setup() (6.13) replaces hrtimer_init() + setting .function */
static inline void
cmn600_model_hrtimer_setup(struct hrtimer *timer,
			   enum hrtimer_restart (*fn)(struct hrtimer *),
			   clockid_t clock, enum hrtimer_mode mode)
{
#if CMN600_MODEL_KERNEL_GE(6, 13, 0)
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

#endif /* CMN600_MODEL_KCOMPAT_H */
