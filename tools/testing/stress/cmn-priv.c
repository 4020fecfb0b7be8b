// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-priv: open a system-wide arm_cmn_hnf event as an unprivileged user,
 * for the privilege tests. Run as root; it drops to UID/GID (default 65534,
 * "nobody") keeping only the capability asked for, then calls
 * perf_event_open(2) with pid -1 on the PMU's CPU.
 *
 *   cmn-priv [-u UID] [-c none|perfmon|sys_admin|root] [-x] PMU CONFIG
 *       prints "OK" or the error number's name (EACCES, EINVAL, ...)
 *   cmn-priv [-u UID] [-c CAP] -- PROGRAM ARGS...
 *       runs PROGRAM with that identity; the capability is also raised in
 *       the ambient set so that it survives exec (perf stat as a user)
 *
 * -c root keeps uid 0 and every capability; -x sets attr.exclude_kernel
 * (what perf asks for with ":u", or by itself when paranoid forbids kernel
 * counting). The process checks its own capability sets after dropping and
 * fails (exit 2) if they are not exactly what was asked for.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "guest.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif

static int capset_only(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	memset(d, 0, sizeof(d));
	if (cap >= 0) {
		d[cap / 32].effective = 1U << (cap % 32);
		d[cap / 32].permitted = 1U << (cap % 32);
		d[cap / 32].inheritable = 1U << (cap % 32);
	}
	return (int)syscall(SYS_capset, &h, d);
}

/* The effective set, from capget() (/proc/self is root's once we drop) */
static u64 cap_eff(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return ~0ULL;
	return (u64)d[0].effective | (u64)d[1].effective << 32;
}

static void drop(unsigned int uid, int cap)
{
	u64 want = cap >= 0 ? 1ULL << cap : 0;

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0))
		g_die("PR_SET_KEEPCAPS: %s", g_errname(errno));
	if (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
	    setresuid(uid, uid, uid))
		g_die("cannot become uid %u: %s", uid, g_errname(errno));
	if (capset_only(cap))
		g_die("capset: %s", g_errname(errno));
	if (cap >= 0 && prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0))
		g_die("ambient capability %d: %s", cap, g_errname(errno));
	if (getuid() != uid || geteuid() != uid || cap_eff() != want)
		g_die("after dropping: uid %u euid %u CapEff %llx, want uid %u CapEff %llx",
		      getuid(), geteuid(), cap_eff(), uid, want);
}

static void print_usage(void)
{
	fprintf(stderr,
		"usage: cmn-priv [-u UID] [-c none|perfmon|sys_admin|root] [-x]\n"
		"                PMU CONFIG\n"
		"       cmn-priv [-u UID] [-c CAP] -- PROGRAM ARGS...\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct perf_event_attr a;
	unsigned int uid = 65534;
	bool root = false, excl = false;
	const char *capname = "none";
	int cap = -1, opt, fd, cpu;
	struct g_pmu p[G_MAX_MESHES];
	char path[256];
	long long type;

	g_prog = "cmn-priv";
	while ((opt = getopt(argc, argv, "u:c:x")) != -1) {
		switch (opt) {
		case 'u':
			uid = (unsigned int)strtoul(optarg, NULL, 0);
			break;
		case 'c':
			capname = optarg;
			break;
		case 'x':
			excl = true;
			break;
		default:
			print_usage();
		}
	}
	if (!strcmp(capname, "perfmon"))
		cap = CAP_PERFMON;
	else if (!strcmp(capname, "sys_admin"))
		cap = CAP_SYS_ADMIN;
	else if (!strcmp(capname, "root"))
		root = true;
	else if (strcmp(capname, "none"))
		print_usage();

	if (optind < argc && !strcmp(argv[optind - 1], "--")) {
		if (!root)
			drop(uid, cap);
		execvp(argv[optind], argv + optind);
		g_die("cannot run %s: %s", argv[optind], g_errname(errno));
	}
	if (argc - optind != 2)
		print_usage();

	/* read what we need from sysfs while still root */
	snprintf(path, sizeof(path), G_PMUS "/%s/type", argv[optind]);
	if (g_read_int(path, &type))
		g_die("no PMU %s", argv[optind]);
	cpu = g_pmu_cpu(argv[optind]);
	if (cpu < 0 && g_hnf_pmus(p, G_MAX_MESHES) > 0)
		cpu = p[0].cpu;
	if (!root)
		drop(uid, cap);

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = (u32)type;
	a.config = strtoull(argv[optind + 1], NULL, 0);
	a.disabled = 1;
	a.exclude_kernel = excl;
	fd = g_perf_open(&a, -1, cpu < 0 ? 0 : cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		printf("%s\n", g_errname(errno));
		return 1;
	}
	close(fd);
	printf("OK\n");
	return 0;
}
