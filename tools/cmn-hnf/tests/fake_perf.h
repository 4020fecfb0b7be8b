/* SPDX-License-Identifier: GPL-2.0 */
/* The fake PMU of fake_perf.c */
#ifndef CMN_HNF_FAKE_PERF_H
#define CMN_HNF_FAKE_PERF_H

#include <linux/perf_event.h>

#include "../cmn-hnf.h"

#define FAKE_FD		1000
#define FAKE_MAX	4096

struct fake_ev {
	struct perf_event_attr attr;
	int cpu, leader;
	bool closed;
	uint64_t val, ena, run;
	int reads;
};

extern struct fake_ev fev[FAKE_MAX];
extern int nfev;
extern bool fake_no_groups;
extern int fake_max_group;	/* events per group the "driver" takes, 0: any */
extern bool fake_cycles_error;	/* the pinned dtc_cycles is in error state */
extern int fake_run_permille;	/* HN-F groups run this much of 1000 */
extern int fake_type1;		/* attr.type of the second mesh */
extern bool fake_wave;		/* rates change from read to read */
extern int fake_open_errno;	/* non-zero: every open fails with it */
extern bool fake_rate_by_config; /* every HN-F event's rate from its encoding */
extern double fake_read_lag;	/* seconds each lagging read takes */
extern int fake_lag_reads;	/* reads still to lag, -1: every read */
extern const struct cmn_perf_ops fake_ops;

/* Counted events (read at least once) of the group led by event @i */
int fake_members(int i);
/* The counted event with @config on PMU @type after @after, or -1 */
int fake_find(unsigned int type, uint64_t config, int after);

#endif /* CMN_HNF_FAKE_PERF_H */
