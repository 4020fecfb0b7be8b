// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-drv: guest-side helper for the driver-rule tests (41-hnf-local.sh).
 * Static, libc only.
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

#define SYSFS_PMUS	"/sys/bus/event_source/devices"

static void die(const char *what)
{
	fprintf(stderr, "cmn-drv: %s\n", what);
	exit(2);
}

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || (*end && *end != '\n'))
		die("bad number");
	return v;
}

static unsigned long long sysfs_num(const char *pmu, const char *file)
{
	char path[256], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/%s", pmu, file);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("no such PMU file");
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("cannot read PMU file");
	buf[n] = '\0';
	/* cpumask: the first CPU of "N", "N-M" or "N,M" */
	buf[strcspn(buf, ",-\n")] = '\0';
	return num(buf);
}

static int open_event(const char *pmu, unsigned long long config,
		      unsigned long long config1, unsigned long long config2)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (unsigned int)sysfs_num(pmu, "type");
	attr.config = config;
	attr.config1 = config1;
	attr.config2 = config2;
	attr.disabled = 1;
	return (int)syscall(SYS_perf_event_open, &attr, -1,
			    (int)sysfs_num(pmu, "cpumask"), -1, 0);
}

int main(int argc, char **argv)
{
	int fd, status;
	pid_t pid;

	if (argc == 6 && !strcmp(argv[1], "open")) {
		fd = open_event(argv[2], num(argv[3]), num(argv[4]), num(argv[5]));
		if (fd < 0) {
			printf("%s\n", strerrorname_np(errno) ?: "EOTHER");
			return 0;
		}
		close(fd);
		printf("OK\n");
		return 0;
	}
	if (argc == 6 && !strcmp(argv[1], "hold")) {
		fd = open_event(argv[2], num(argv[3]), 0, 0);
		if (fd < 0)
			die("cannot open the event");
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			die("cannot enable the event");
		sleep((unsigned int)num(argv[4]));
		pid = fork();
		if (pid < 0)
			die("fork");
		if (!pid) {
			execl("/bin/sh", "sh", "-c", argv[5], (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) < 0)
			die("waitpid");
		close(fd);
		return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
	}
	die("usage: cmn-drv open PMU CONFIG CONFIG1 CONFIG2 | hold PMU CONFIG SECS CMD");
	return 2;
}
