// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf-fake: cmn-hnf counting against the fake PMU of fake_perf.c
 * instead of perf_event_open(2). Run it with --sysfs-root on a tree whose
 * PMUs have perf types 9 and 10 (the unit tests' stat tree); the screen
 * and Prometheus tests run it under tmux and promtool.
 */
#include "fake_perf.h"

int main(int argc, char **argv)
{
	cmn_perf_ops = &fake_ops;
	return cmn_main(argc, argv);
}
