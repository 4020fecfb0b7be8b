// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-drv: guest-side helper for the driver-rule tests (41-hnf-local.sh).
 * Static; libc and the guest helpers of tools/testing/fuzz/guest.c only.
 *
 *   cmn-drv open PMU CONFIG CONFIG1 CONFIG2
 *        perf_event_open() one counting event of PMU (a name under
 *        /sys/bus/event_source/devices/) on the CPU of its cpumask, with
 *        the three config words given (decimal or 0x-hex); print "OK" or
 *        the errno name (EINVAL, ENOENT, ...)
 *   cmn-drv hold PMU CONFIG SECS CMD
 *        open and enable that event, wait SECS seconds, run "sh -c CMD"
 *        while it counts, then close it; exit with CMD's status
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest.h"

/* One counting event of @pmu on the first CPU of its cpumask */
static int open_event(const char *pmu, u64 config, u64 config1, u64 config2)
{
	struct perf_event_attr attr;
	int type = g_pmu_type(pmu), cpu = g_pmu_cpu(pmu);

	if (type < 0 || cpu < 0)
		g_die("cannot read %s/%s/type and cpumask", G_PMUS, pmu);
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (unsigned int)type;
	attr.config = config;
	attr.config1 = config1;
	attr.config2 = config2;
	attr.disabled = 1;
	return g_perf_open(&attr, -1, cpu, -1, 0);
}

int main(int argc, char **argv)
{
	int fd, status;
	pid_t pid;

	g_prog = "cmn-drv";

	if (argc == 6 && !strcmp(argv[1], "open")) {
		fd = open_event(argv[2], g_num(argv[3]), g_num(argv[4]), g_num(argv[5]));
		if (fd < 0) {
			printf("%s\n", g_errname(errno));
			return 0;
		}
		close(fd);
		printf("OK\n");
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "hold")) {
		fd = open_event(argv[2], g_num(argv[3]), 0, 0);
		if (fd < 0)
			g_die("cannot open the event");
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			g_die("cannot enable the event");
		sleep((unsigned int)g_num(argv[4]));
		pid = fork();
		if (pid < 0)
			g_die("fork");
		if (!pid) {
			execl("/bin/sh", "sh", "-c", argv[5], (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0)
			g_die("waitpid");
		close(fd);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	g_die("usage: cmn-drv open PMU CONFIG CONFIG1 CONFIG2 | hold PMU CONFIG SECS CMD");
	return 2;
}
