// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-perf: guest-side perf_event_open(2) helper for the end-to-end tests.
 *
 * Static; libc and the guest helpers of tools/testing/fuzz/guest.c only.
 * Every answer is printed on stdout in a form that a
 * busybox shell script can compare without any arithmetic beyond 64 bits.
 *
 *   cmn-perf open [OPTS] EV...          open (and close) the events; print
 *                                       "OK" or the errno name of the first
 *                                       failure and its index ("EINVAL 2")
 *   cmn-perf run [OPTS] EV... -- CMD    open and enable, run "sh -c CMD",
 *                                       read; one line per event:
 *                                       "<count> <enabled> <running>"
 *                                       (-D: disable every event first, as
 *                                       perf stat does, so that the count
 *                                       includes the PMU's stop())
 *   cmn-perf hold [OPTS] EV...          open and enable, print "READY",
 *                                       then wait: SIGUSR1 prints the counts
 *                                       (as "run"), SIGTERM/SIGINT prints
 *                                       them and exits
 *   cmn-perf race [OPTS] -s SECS -m MESH -E EVENTID [-N NODEID] EV
 *                                       read EV in a tight loop while the
 *                                       model runs free; after every read
 *                                       sample the model's truth and check
 *                                       the count never decreases and never
 *                                       exceeds the truth delta
 *   cmn-perf truth MESH|-f FILE EVENTID [OCCUPID|-|all] [NODEID|*]
 *                                       exact sum of the model's truth lines
 *                                       (of mesh MESH, or of a saved copy)
 *   cmn-perf delta T0 T1 EVENTID OCCUPID|- NODEID|* SCALE
 *                                       (truth of T1 - truth of T0) * SCALE
 *                                       (mod 2^64), two saved copies of a
 *                                       mesh's truth; event 0x0f counts its
 *                                       OCCUPID's lines ("-": 0; class 0
 *                                       without lines of its own: every
 *                                       class), other events every line
 *   cmn-perf u64 add|sub|mul|cmp A B    64-bit unsigned arithmetic
 *   cmn-perf u64 muldiv A B C           A * B / C, 128-bit intermediate
 *   cmn-perf u64 perf A                 A as perf stat prints a count of A
 *                                       (a .scale of 1): perf multiplies the
 *                                       u64 by the scale as a double and
 *                                       prints "%.0f", so above 2^53 the
 *                                       value is rounded to a double
 *   cmn-perf snap PREFIX MESH           copy mesh MESH's truth to PREFIX.truth
 *                                       and its cycles to PREFIX.cycles, read
 *                                       back to back (retried until the
 *                                       cycles did not move in between, at
 *                                       most 20 times; then the middle)
 *   cmn-perf rmmod MODULE               delete_module(MODULE, O_NONBLOCK);
 *                                       print "OK" or the errno name
 *
 * EV is PMU:CONFIG[:CONFIG1[:CONFIG2]] (attr.config, config1, config2),
 * where PMU is a name under
 * /sys/bus/event_source/devices/, a number, "sw" (PERF_TYPE_SOFTWARE) or
 * "hw" (PERF_TYPE_HARDWARE); CONFIG is decimal or 0x-hex.
 *
 * OPTS: -g (one group, first EV leads), -D (run: disable before the read),
 * -c CPU (default: the first named PMU's cpumask, else 0), -p PID (default
 * -1), -P PERIOD (sample_period), -F FREQ (attr.freq, sample_freq), -i
 * (attr.inherit), -G DIR (a cgroup event: the cgroup directory's fd as the
 * pid, PERF_FLAG_PID_CGROUP), -x user|kernel|hv|idle|host|guest (set that
 * exclude bit; repeatable).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdatomic.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest.h"

#define MAX_EVENTS	64

struct ev {
	char spec[128];
	char pmu[64];		/* empty for sw/hw/numeric */
	struct perf_event_attr attr;
	int fd;
};

struct opts {
	bool group;
	bool disable;		/* run: disable the events before reading */
	int cpu;		/* -2: not given */
	int pid;
	u64 period;
	u64 freq;
	bool inherit;
	const char *cgroup;
	unsigned int excl;	/* bit per -x name, see excl_names */
	int nev;
	struct ev ev[MAX_EVENTS];
	/* race */
	double secs;
	int mesh;
	int eventid;
	int nodeid;		/* -1: all */
};

static const char *const excl_names[] = {
	"user", "kernel", "hv", "idle", "host", "guest",
};

static int pmu_type(const char *name)
{
	int t = g_pmu_type(name);

	if (t < 0)
		g_die("no PMU '%s'", name);
	return t;
}

static void parse_ev(struct ev *e, const char *spec)
{
	const char *colon = strchr(spec, ':');
	char type[64], cfg[128], *c1, *c2;
	size_t n;

	if (!colon || colon == spec)
		g_die("event '%s' is not PMU:CONFIG", spec);
	n = (size_t)(colon - spec);
	if (n >= sizeof(type))
		g_die("PMU name too long in '%s'", spec);
	memcpy(type, spec, n);
	type[n] = '\0';
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
	memset(&e->attr, 0, sizeof(e->attr));
	e->attr.size = sizeof(e->attr);
	e->fd = -1;
	e->pmu[0] = '\0';
	if (!strcmp(type, "sw")) {
		e->attr.type = PERF_TYPE_SOFTWARE;
	} else if (!strcmp(type, "hw")) {
		e->attr.type = PERF_TYPE_HARDWARE;
	} else if (type[0] >= '0' && type[0] <= '9') {
		e->attr.type = (uint32_t)g_num(type);
	} else {
		e->attr.type = (uint32_t)pmu_type(type);
		snprintf(e->pmu, sizeof(e->pmu), "%s", type);
	}
	/* CONFIG[:CONFIG1[:CONFIG2]] */
	snprintf(cfg, sizeof(cfg), "%s", colon + 1);
	c1 = strchr(cfg, ':');
	c2 = NULL;
	if (c1) {
		*c1++ = '\0';
		c2 = strchr(c1, ':');
		if (c2)
			*c2++ = '\0';
		e->attr.config1 = g_num(c1);
		if (c2)
			e->attr.config2 = g_num(c2);
	}
	e->attr.config = g_num(cfg);
}

/* Parses options and events; returns the index of "--" + 1 or argc. */
static int parse_args(struct opts *o, int argc, char **argv, bool race)
{
	int i, j;

	memset(o, 0, sizeof(*o));
	o->cpu = -2;
	o->pid = -1;
	o->mesh = 0;
	o->eventid = -1;
	o->nodeid = -1;
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return i + 1;
		if (a[0] == '-' && a[1] && !a[2]) {
			bool flag = a[1] == 'g' || a[1] == 'D' || a[1] == 'i';
			const char *v = flag ? NULL : argv[i + 1];

			if (!flag && i + 1 >= argc)
				g_die("option %s needs a value", a);
			switch (a[1]) {
			case 'g':
				o->group = true;
				continue;
			case 'D':
				o->disable = true;
				continue;
			case 'i':
				o->inherit = true;
				continue;
			case 'F':
				o->freq = g_num(v);
				break;
			case 'G':
				o->cgroup = v;
				break;
			case 'c':
				o->cpu = (int)strtol(v, NULL, 0);
				break;
			case 'p':
				o->pid = (int)strtol(v, NULL, 0);
				break;
			case 'P':
				o->period = g_num(v);
				break;
			case 'x':
				for (j = 0; j < (int)G_ARRAY_SIZE(excl_names); j++)
					if (!strcmp(v, excl_names[j]))
						break;
				if (j == (int)G_ARRAY_SIZE(excl_names))
					g_die("unknown exclude bit '%s'", v);
				o->excl |= 1U << j;
				break;
			case 's':
				o->secs = strtod(v, NULL);
				break;
			case 'm':
				o->mesh = (int)g_num(v);
				break;
			case 'E':
				o->eventid = (int)g_num(v);
				break;
			case 'N':
				o->nodeid = (int)g_num(v);
				break;
			default:
				g_die("unknown option %s", a);
			}
			i++;
			continue;
		}
		if (o->nev == MAX_EVENTS)
			g_die("too many events");
		parse_ev(&o->ev[o->nev++], a);
	}
	if (!o->nev)
		g_die("no events");
	(void)race;
	return argc;
}

static void apply_opts(struct opts *o)
{
	int i;

	if (o->cpu == -2) {
		o->cpu = 0;
		for (i = 0; i < o->nev; i++) {
			if (o->ev[i].pmu[0]) {
				int c = g_pmu_cpu(o->ev[i].pmu);

				if (c >= 0) {
					o->cpu = c;
					break;
				}
			}
		}
	}
	for (i = 0; i < o->nev; i++) {
		struct perf_event_attr *at = &o->ev[i].attr;

		at->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				  PERF_FORMAT_TOTAL_TIME_RUNNING;
		at->disabled = (!o->group || i == 0) ? 1 : 0;
		if (o->period)
			at->sample_period = o->period;
		if (o->freq) {
			at->freq = 1;
			at->sample_freq = o->freq;
		}
		at->inherit = o->inherit;
		at->exclude_user = !!(o->excl & 1);
		at->exclude_kernel = !!(o->excl & 2);
		at->exclude_hv = !!(o->excl & 4);
		at->exclude_idle = !!(o->excl & 8);
		at->exclude_host = !!(o->excl & 16);
		at->exclude_guest = !!(o->excl & 32);
	}
}

/* Opens every event; returns -1 on success, else the failing index (errno set). */
static int open_all(struct opts *o)
{
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	int i, leader = -1;

	if (o->cgroup) {
		o->pid = open(o->cgroup, O_RDONLY | O_CLOEXEC);
		if (o->pid < 0)
			g_die("cannot open cgroup %s: %s", o->cgroup, strerror(errno));
		flags |= PERF_FLAG_PID_CGROUP;
	}
	for (i = 0; i < o->nev; i++) {
		int gfd = (o->group && i > 0) ? leader : -1;

		o->ev[i].fd = g_perf_open(&o->ev[i].attr, o->pid, o->cpu,
					  gfd, flags);
		if (o->ev[i].fd < 0)
			return i;
		if (i == 0)
			leader = o->ev[i].fd;
	}
	return -1;
}

static void close_all(struct opts *o)
{
	int i;

	for (i = o->nev - 1; i >= 0; i--) {
		if (o->ev[i].fd >= 0)
			close(o->ev[i].fd);
		o->ev[i].fd = -1;
	}
}

/* PERF_EVENT_IOC_ENABLE or _DISABLE on every event (the group at once) */
static int ioctl_all(struct opts *o, unsigned long req)
{
	int i;

	if (o->group)
		return ioctl(o->ev[0].fd, req, PERF_IOC_FLAG_GROUP);
	for (i = 0; i < o->nev; i++)
		if (ioctl(o->ev[i].fd, req, 0))
			return -1;
	return 0;
}

struct rd {
	u64 val, ena, run;
};

static int read_ev(const struct ev *e, struct rd *r)
{
	u64 buf[3];
	ssize_t n = read(e->fd, buf, sizeof(buf));

	if (n != (ssize_t)sizeof(buf))
		return -1;
	r->val = buf[0];
	r->ena = buf[1];
	r->run = buf[2];
	return 0;
}

static int print_counts(struct opts *o)
{
	struct rd r;
	int i, rc = 0;

	for (i = 0; i < o->nev; i++) {
		if (read_ev(&o->ev[i], &r)) {
			printf("READ-ERROR %s\n", g_errname(errno));
			rc = 1;
			continue;
		}
		printf("%llu %llu %llu\n", r.val, r.ena, r.run);
	}
	fflush(stdout);
	return rc;
}

static int cmd_open(int argc, char **argv)
{
	struct opts o;
	int bad;

	parse_args(&o, argc, argv, false);
	apply_opts(&o);
	bad = open_all(&o);
	if (bad >= 0) {
		int e = errno;

		close_all(&o);
		printf("%s %d\n", g_errname(e), bad);
		return 1;
	}
	close_all(&o);
	printf("OK\n");
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	struct opts o;
	int first, bad, st, rc;

	first = parse_args(&o, argc, argv, false);
	if (first >= argc)
		g_die("run: no command after --");
	apply_opts(&o);
	bad = open_all(&o);
	if (bad >= 0) {
		printf("OPEN-ERROR %s %d\n", g_errname(errno), bad);
		return 1;
	}
	if (ioctl_all(&o, PERF_EVENT_IOC_ENABLE)) {
		printf("ENABLE-ERROR %s\n", g_errname(errno));
		return 1;
	}
	fflush(stdout);
	st = system(argv[first]);
	if (o.disable && ioctl_all(&o, PERF_EVENT_IOC_DISABLE)) {
		printf("DISABLE-ERROR %s\n", g_errname(errno));
		return 1;
	}
	rc = print_counts(&o);
	close_all(&o);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(stderr, "cmn-perf: command exited with status %d\n", st);
	return rc;
}

static atomic_bool got_usr1, got_term;

static void on_sig(int sig)
{
	if (sig == SIGUSR1)
		got_usr1 = 1;
	else
		got_term = 1;
}

static int cmd_hold(int argc, char **argv)
{
	struct opts o;
	struct sigaction sa;
	sigset_t mask, old;
	int bad;

	parse_args(&o, argc, argv, false);
	apply_opts(&o);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	bad = open_all(&o);
	if (bad >= 0) {
		printf("OPEN-ERROR %s %d\n", g_errname(errno), bad);
		return 1;
	}
	if (ioctl_all(&o, PERF_EVENT_IOC_ENABLE)) {
		printf("ENABLE-ERROR %s\n", g_errname(errno));
		return 1;
	}
	printf("READY\n");
	fflush(stdout);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, &old);
	for (;;) {
		while (!got_usr1 && !got_term)
			sigsuspend(&old);
		if (got_usr1) {
			got_usr1 = 0;
			print_counts(&o);
			printf("END\n");
			fflush(stdout);
		}
		if (got_term)
			break;
	}
	print_counts(&o);
	printf("END\n");
	close_all(&o);
	return 0;
}

/*
 * Sum of the model's truth lines for @eventid on mesh @mesh. @occ: -1 any
 * class (sum of all lines), else that class. @nodeid: -1 every HN-F.
 * Returns 0 and the sum, -1 if the file cannot be read, -2 if nothing
 * matched.
 */
static char truthbuf[1 << 20];

static int truth_sum(const char *file, int mesh, int eventid, int occ, int nodeid,
		     u64 *sum)
{
	char path[256], *line, *save = NULL;
	int matched = 0;

	if (file)
		snprintf(path, sizeof(path), "%s", file);
	else
		snprintf(path, sizeof(path), G_MODEL "/mesh%d/truth", mesh);
	if (g_read_file(path, truthbuf, sizeof(truthbuf)) < 0)
		return -1;
	*sum = 0;
	for (line = strtok_r(truthbuf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char f_node[32], f_ev[32], f_occ[32], f_cnt[32];
		unsigned long node, ev;

		if (sscanf(line, "%31s %31s %31s %31s", f_node, f_ev, f_occ, f_cnt) != 4)
			continue;
		node = strtoul(f_node, NULL, 16);
		ev = strtoul(f_ev, NULL, 16);
		if ((int)ev != eventid)
			continue;
		if (nodeid >= 0 && (int)node != nodeid)
			continue;
		if (occ >= 0 && (f_occ[0] == '-' || atoi(f_occ) != occ))
			continue;
		*sum += strtoull(f_cnt, NULL, 10);
		matched++;
	}
	return matched ? 0 : -2;
}

static int cmd_truth(int argc, char **argv)
{
	int occ = -1, node = -1, r, mesh = 0;
	const char *file = NULL;
	u64 sum;

	if (argc >= 2 && !strcmp(argv[0], "-f")) {
		file = argv[1];
		argc--;
		argv++;
	} else if (argc >= 1) {
		mesh = (int)g_num(argv[0]);
	}
	if (argc < 2)
		g_die("truth MESH EVENTID [OCCUPID|-|all] [NODEID|*]");
	if (argc > 2 && strcmp(argv[2], "-") && strcmp(argv[2], "all"))
		occ = (int)g_num(argv[2]);
	if (argc > 3 && strcmp(argv[3], "*"))
		node = (int)g_num(argv[3]);
	r = truth_sum(file, mesh, (int)g_num(argv[1]), occ, node, &sum);
	if (r == -1)
		g_die("cannot read the model's truth of mesh %s", argv[0]);
	if (r == -2)
		g_die("no truth line for mesh %s event %s", argv[0], argv[1]);
	printf("%llu\n", sum);
	return 0;
}

/* The truth of event @ev in saved copy @file as lib-counts.sh counts it */
static int delta_truth(const char *file, int ev, const char *occ, int node, u64 *sum)
{
	int o = -1, r;

	if (ev == 0x0f)
		o = strcmp(occ, "-") ? (int)g_num(occ) : 0;
	r = truth_sum(file, 0, ev, o, node, sum);
	if (r == -2 && ev == 0x0f && o == 0)
		r = truth_sum(file, 0, ev, -1, node, sum);
	return r;
}

static int cmd_delta(int argc, char **argv)
{
	int ev, node = -1;
	u64 a, b;

	if (argc != 6)
		g_die("delta T0 T1 EVENTID OCCUPID|- NODEID|* SCALE");
	ev = (int)g_num(argv[2]);
	if (strcmp(argv[4], "*"))
		node = (int)g_num(argv[4]);
	if (delta_truth(argv[0], ev, argv[3], node, &a) ||
	    delta_truth(argv[1], ev, argv[3], node, &b))
		g_die("delta: no truth of event %s in %s or %s", argv[2], argv[0], argv[1]);
	printf("%llu\n", (b - a) * g_num(argv[5]));
	return 0;
}

/*
 * Free-running read race. Truth T0 is sampled before the counter is
 * enabled, so every event the counter can have seen at a read is in
 * (truth after the read) - T0. Count reads run in a tight loop (a count
 * that goes down is a transient error of some earlier or this read); the
 * truth is sampled after every 256th read.
 */
static int cmd_race(int argc, char **argv)
{
	struct opts o;
	u64 t0, t = 0, prev = 0, nreads = 0, over = 0, nonmono = 0;
	u64 maxover = 0, maxdrop = 0, ntruth = 0;
	struct rd r;
	double end;
	int bad;

	parse_args(&o, argc, argv, true);
	if (o.nev != 1 || o.eventid < 0 || o.secs <= 0)
		g_die("race: -s SECS -m MESH -E EVENTID [-N NODEID] and one event");
	apply_opts(&o);
	bad = open_all(&o);
	if (bad >= 0) {
		printf("OPEN-ERROR %s\n", g_errname(errno));
		return 1;
	}
	if (truth_sum(NULL, o.mesh, o.eventid, -1, o.nodeid, &t0))
		g_die("race: cannot read the truth");
	if (ioctl_all(&o, PERF_EVENT_IOC_ENABLE)) {
		printf("ENABLE-ERROR %s\n", g_errname(errno));
		return 1;
	}
	end = g_now() + o.secs;
	for (;;) {
		bool last = (nreads & 255) == 255 && g_now() >= end;

		if (read_ev(&o.ev[0], &r))
			g_die("race: read failed");
		nreads++;
		if (r.val < prev) {
			nonmono++;
			if (prev - r.val > maxdrop)
				maxdrop = prev - r.val;
		}
		prev = r.val;
		if ((nreads & 255) && !last)
			continue;
		if (truth_sum(NULL, o.mesh, o.eventid, -1, o.nodeid, &t))
			g_die("race: cannot read the truth");
		ntruth++;
		if (r.val > t - t0) {
			over++;
			if (r.val - (t - t0) > maxover)
				maxover = r.val - (t - t0);
		}
		if (last)
			break;
	}
	printf("reads=%llu over=%llu maxover=%llu nonmono=%llu ",
	       nreads, over, maxover, nonmono);
	printf("maxdrop=%llu truths=%llu last=%llu truth=%llu\n",
	       maxdrop, ntruth, prev, t - t0);
	close_all(&o);
	return 0;
}

static int cmd_u64(int argc, char **argv)
{
	u64 a, b;

	if (argc == 4 && !strcmp(argv[0], "muldiv")) {
		unsigned __int128 p = (unsigned __int128)g_num(argv[1]) * g_num(argv[2]);
		u64 c = g_num(argv[3]);

		if (!c)
			g_die("u64 muldiv: division by zero");
		printf("%llu\n", (u64)(p / c));
		return 0;
	}
	if (argc == 2 && !strcmp(argv[0], "perf")) {
		printf("%.0f\n", (double)g_num(argv[1]) * 1.0);
		return 0;
	}
	if (argc != 3)
		g_die("u64 add|sub|mul|cmp A B, u64 muldiv A B C (A * B / C), or u64 perf A");
	a = g_num(argv[1]);
	b = g_num(argv[2]);
	if (!strcmp(argv[0], "add"))
		printf("%llu\n", a + b);
	else if (!strcmp(argv[0], "sub"))
		printf("%llu\n", a - b);
	else if (!strcmp(argv[0], "mul"))
		printf("%llu\n", a * b);
	else if (!strcmp(argv[0], "cmp"))
		printf("%s\n", a < b ? "lt" : a > b ? "gt" : "eq");
	else
		g_die("u64: unknown operation '%s'", argv[0]);
	return 0;
}

static int write_file(const char *path, const char *buf, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	if (fwrite(buf, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static int cmd_snap(int argc, char **argv)
{
	char path[256], out[256], c0[64], c1[64];
	int tries, n = -1;

	if (argc != 2)
		g_die("snap PREFIX MESH");
	for (tries = 0; tries < 20; tries++) {
		snprintf(path, sizeof(path), G_MODEL "/mesh%s/cycles", argv[1]);
		if (g_read_file(path, c0, sizeof(c0)) <= 0)
			g_die("snap: cannot read %s", path);
		snprintf(path, sizeof(path), G_MODEL "/mesh%s/truth", argv[1]);
		n = g_read_file(path, truthbuf, sizeof(truthbuf));
		if (n < 0)
			g_die("snap: cannot read %s", path);
		snprintf(path, sizeof(path), G_MODEL "/mesh%s/cycles", argv[1]);
		if (g_read_file(path, c1, sizeof(c1)) <= 0)
			g_die("snap: cannot read %s", path);
		if (!strcmp(c0, c1))
			break;
	}
	snprintf(out, sizeof(out), "%s.truth", argv[0]);
	if (write_file(out, truthbuf, (size_t)n))
		g_die("snap: cannot write %s", out);
	/* the truth was read between c0 and c1: take the middle */
	snprintf(c0, sizeof(c0), "%llu\n",
		 g_num(c0) / 2 + g_num(c1) / 2);
	snprintf(out, sizeof(out), "%s.cycles", argv[0]);
	if (write_file(out, c0, strlen(c0)))
		g_die("snap: cannot write %s", out);
	return 0;
}

static int cmd_rmmod(int argc, char **argv)
{
	if (argc != 1)
		g_die("rmmod MODULE");
	if (syscall(__NR_delete_module, argv[0], O_NONBLOCK)) {
		printf("%s\n", g_errname(errno));
		return 1;
	}
	printf("OK\n");
	return 0;
}

int main(int argc, char **argv)
{
	g_prog = "cmn-perf";
	if (argc < 2)
		g_die("usage: cmn-perf open|run|hold|race|truth|delta|u64|snap|rmmod ...");
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "open"))
		return cmd_open(argc - 2, argv + 2);
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "hold"))
		return cmd_hold(argc - 2, argv + 2);
	if (!strcmp(argv[1], "race"))
		return cmd_race(argc - 2, argv + 2);
	if (!strcmp(argv[1], "truth"))
		return cmd_truth(argc - 2, argv + 2);
	if (!strcmp(argv[1], "delta"))
		return cmd_delta(argc - 2, argv + 2);
	if (!strcmp(argv[1], "u64"))
		return cmd_u64(argc - 2, argv + 2);
	if (!strcmp(argv[1], "snap"))
		return cmd_snap(argc - 2, argv + 2);
	if (!strcmp(argv[1], "rmmod"))
		return cmd_rmmod(argc - 2, argv + 2);
	g_die("unknown command '%s'", argv[1]);
}
