// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf-fake: cmn-hnf counting against the fake PMU of fake_perf.c
 * instead of perf_event_open(2). Run it with --sysfs-root on a tree whose
 * PMUs have perf types 9 and 10 (the unit tests' stat tree); the screen
 * and Prometheus tests run it under tmux and promtool.
 */
#include <stdlib.h>

#include "fake_perf.h"

int main(int argc, char **argv)
{
	const char *run = getenv("CMN_HNF_FAKE_RUN_PERMILLE");

	/* how much of the time the HN-F groups run: 1000 is no multiplexing */
	if (run && atoi(run) > 0 && atoi(run) <= 1000)
		fake_run_permille = atoi(run);
	/* rates that change over time, for reports worth looking at */
	fake_wave = getenv("CMN_HNF_FAKE_WAVE") && *getenv("CMN_HNF_FAKE_WAVE");
	/* perf_event_open(2) fails with this errno (permission tests) */
	if (getenv("CMN_HNF_FAKE_OPEN_ERRNO"))
		fake_open_errno = atoi(getenv("CMN_HNF_FAKE_OPEN_ERRNO"));
	cmn_perf_ops = &fake_ops;
	return cmn_main(argc, argv);
}
