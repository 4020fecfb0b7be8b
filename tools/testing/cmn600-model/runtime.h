/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CMN-600 model: the behaviour behind the registers (runtime.c), as used by
 * main.c. Callers serialise every call with the model's mutex; the mesh's
 * own raw spinlock serialises the free-running clock (a hard-irq hrtimer,
 * or the race threads) with them.
 */
#ifndef CMN600_MODEL_RUNTIME_H
#define CMN600_MODEL_RUNTIME_H

#include <linux/types.h>

#include "cmn600_model.h"

struct seq_file;
struct dentry;

/* HN-F event sources: events 0x01..0x1f except 0x0f, then 0x0f per class */
#define CMN600_RT_NR_EVENTS	0x1f
#define CMN600_RT_OCC_EVENT	0x0f
#define CMN600_RT_NR_CLASSES	5
#define CMN600_RT_NR_SRC	(CMN600_RT_NR_EVENTS - 1 + CMN600_RT_NR_CLASSES)
#define CMN600_RT_MAX_RATE	U32_MAX

enum cmn600_rt_profile {
	CMN600_RT_PROFILE_IDLE,
	CMN600_RT_PROFILE_STREAM,
	CMN600_RT_PROFILE_CACHEHOT,
	CMN600_RT_PROFILE_SNOOPY,
	CMN600_RT_PROFILE_CONSTANT,
	CMN600_RT_NR_PROFILES,
};

struct cmn600_rt_mesh;

int cmn600_rt_create(const struct cmn600_model_mesh *desc, unsigned int index,
		     enum cmn600_model_fault fault, struct cmn600_rt_mesh **out);
void cmn600_rt_destroy(struct cmn600_rt_mesh *m);
void cmn600_rt_step(struct cmn600_rt_mesh *m, u64 cycles);
void cmn600_rt_clock_start(struct cmn600_rt_mesh *m, u32 freq_mhz);
void cmn600_rt_clock_stop(struct cmn600_rt_mesh *m);
void cmn600_rt_set_freq(struct cmn600_rt_mesh *m, u32 freq_mhz);
void cmn600_rt_exit(void);

const char *cmn600_rt_profile_name(enum cmn600_rt_profile p);
int cmn600_rt_profile_parse(const char *name, enum cmn600_rt_profile *p);
void cmn600_rt_set_profile(struct cmn600_rt_mesh *m, enum cmn600_rt_profile p);
int cmn600_rt_set_rate(struct cmn600_rt_mesh *m, bool all, u16 nodeid,
		       unsigned int event, int occupid, u32 rate);

int cmn600_rt_set_race(struct cmn600_rt_mesh *m, bool on, bool near_wrap, long lag_ns,
		       long defer_us);
int cmn600_rt_irq_spurious(struct cmn600_rt_mesh *m, unsigned int lid, u32 count);
int cmn600_rt_irq_stuck(struct cmn600_rt_mesh *m, unsigned int lid, unsigned int bit,
			u32 limit);
int cmn600_rt_irq_off(struct cmn600_rt_mesh *m, unsigned int lid, u32 ms);
void cmn600_rt_irq_clear(struct cmn600_rt_mesh *m);

void cmn600_rt_show_rates(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_truth(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_counted(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_windowed(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_counters(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_race(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_irq_fault(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_changed(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_irqs(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_show_info(struct seq_file *s, struct cmn600_rt_mesh *m);
u64 cmn600_rt_cycles(struct cmn600_rt_mesh *m);
void cmn600_rt_show_elapsed(struct seq_file *s, struct cmn600_rt_mesh *m);
void cmn600_rt_sync(struct cmn600_rt_mesh *m);

/* misplace.c: the "misplace" test hook (not hardware), under @root */
void cmn600_misplace_init(struct dentry *root);
void cmn600_misplace_exit(void);

#endif /* CMN600_MODEL_RUNTIME_H */
