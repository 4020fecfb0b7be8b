// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-bench: guest-side timing loops of make bench (tools/testing/bench).
 *
 * Static, libc only. Times the perf_event_open(2) paths of an uncore PMU
 * driver with clock_gettime(CLOCK_MONOTONIC) around many operations, from
 * the PMU's own CPU (so perf core calls the driver directly, not through an
 * IPI). Each run times N operations; the answer is the median over the runs
 * of the mean time per operation. Nothing is asserted: the numbers are
 * printed for the bench table.
 *
 *   cmn-bench [OPTS] read EV...       read(2) of enabled events; with -g one
 *                                     group read (PERF_FORMAT_GROUP)
 *   cmn-bench [OPTS] openclose EV...  perf_event_open of the EVs (one group
 *                                     with -g), then close of them all
 *   cmn-bench [OPTS] enable EV...     PERF_EVENT_IOC_ENABLE then _DISABLE of
 *                                     events opened disabled (the group
 *                                     leader, PERF_IOC_FLAG_GROUP, with -g)
 *   cmn-bench run CMD [ARGS...]       run CMD, print "ns=<wall time> rc=<exit
 *                                     status>" (busybox date has no %N)
 *   cmn-bench -s SECS cpu [PID]       busy CPU time of the whole guest over
 *                                     SECS seconds, "busy_ms_per_s=<ms>"
 *                                     (all CPUs; online CPUs x wall time
 *                                     minus the idle time of /proc/stat,
 *                                     which NO_HZ kernels account exactly,
 *                                     unlike the tick-sampled user/system,
 *                                     but in 10 ms units); with PID also
 *                                     "proc_ms_per_s=<ms>", the run time of
 *                                     PID's threads and its children's, in
 *                                     ns from /proc/<pid>/task/<tid>/schedstat
 *   cmn-bench [OPTS] hold EV...       open and enable (not as a group), print
 *                                     READY, sleep -s seconds, then print one
 *                                     line per event:
 *                                     "<count> <enabled> <running>"
 *
 * OPTS: -n N (operations per run, default 2000), -r R (runs, default 7),
 * -g (one group, the first EV leads), -s SECS (hold), -c CPU (default: the
 * first EV's PMU cpumask), -A FILE (a counting build's mmio_accesses file:
 * zeroed before each run and read after it; the output then gives register
 * reads and writes per operation, from the run with the median time).
 *
 * Output of the timing modes, one line:
 *   ns=<median> min=<ns> max=<ns> runs=<R> n=<N> running=<pct>
 *   [reads=<per op> writes=<per op>]
 * running is the lowest time_running/time_enabled of the events after the
 * runs (read mode; "-" otherwise): below 100 the events were multiplexed.
 *
 * EV is PMU/TERM,TERM,.../ with PMU a name under
 * /sys/bus/event_source/devices/ and TERM either NAME=VALUE with NAME a file
 * of the PMU's format/ directory (or config, config1, config2), or an alias
 * of its events/ directory, or a bare format NAME (=1).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
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

typedef unsigned long long u64;

#define __cmn_attr(list)	__attribute__(list)
#define __printf(a, b)		__cmn_attr((format(printf, a, b)))
#define __noreturn		__cmn_attr((__noreturn__))

#define MAX_EVENTS	128
#define MAX_RUNS	101
#define SYSFS_PMUS	"/sys/bus/event_source/devices"

struct ev {
	const char *spec;
	char pmu[64];
	struct perf_event_attr attr;
	int fd;
};

struct opts {
	long n;
	int runs;
	bool group;
	double secs;
	int cpu;		/* -1: from the first PMU's cpumask */
	const char *acc;	/* mmio_accesses file, or NULL */
	int nev;
	struct ev ev[MAX_EVENTS];
};

struct run {
	double ns;		/* mean per operation */
	u64 reads;
	u64 writes;
};

static __printf(1, 2) __noreturn void die(const char *fmt, ...);

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("cmn-bench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(2);
}

static int read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n, tot = 0;

	if (fd < 0)
		return -1;
	while ((size_t)tot < len - 1) {
		n = read(fd, buf + tot, len - 1 - tot);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		tot += n;
	}
	buf[tot] = '\0';
	close(fd);
	return (int)tot;
}

static u64 parse_u64(const char *s, const char *what)
{
	char *end;
	u64 v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || (*end && *end != '\n'))
		die("bad number '%s' for %s", s, what);
	return v;
}

static u64 *attr_field(struct perf_event_attr *a, const char *name)
{
	if (!strcmp(name, "config"))
		return (u64 *)&a->config;
	if (!strcmp(name, "config1"))
		return (u64 *)&a->config1;
	if (!strcmp(name, "config2"))
		return (u64 *)&a->config2;
	return NULL;
}

/*
 * Put @val into the bits a format file describes, e.g. "config:16-31" or
 * "config:0-3,8-11" (the value's low bits go to the first range).
 */
static void apply_format(struct ev *e, const char *term, const char *fmt,
			 u64 val)
{
	char buf[512], *colon, *tok, *save = NULL;
	unsigned int lo, hi, b, vb = 0;
	u64 *field;

	snprintf(buf, sizeof(buf), "%s", fmt);
	buf[strcspn(buf, "\n")] = '\0';
	colon = strchr(buf, ':');
	if (!colon)
		die("%s: format of '%s' is '%s'", e->spec, term, buf);
	*colon = '\0';
	field = attr_field(&e->attr, buf);
	if (!field)
		die("%s: format of '%s' names '%s'", e->spec, term, buf);
	for (tok = strtok_r(colon + 1, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (sscanf(tok, "%u-%u", &lo, &hi) != 2) {
			lo = (unsigned int)atoi(tok);
			hi = lo;
		}
		if (hi > 63 || lo > hi)
			die("%s: bad range '%s' in format of '%s'", e->spec,
			    tok, term);
		for (b = lo; b <= hi; b++, vb++) {
			*field &= ~(1ULL << b);
			if (vb < 64 && (val >> vb) & 1)
				*field |= 1ULL << b;
		}
	}
	if (vb < 64 && val >> vb)
		die("%s: %s=%#llx does not fit in %u bits", e->spec, term,
		    val, vb);
}

static void apply_terms(struct ev *e, const char *terms, bool alias_ok);

static void apply_term(struct ev *e, char *term, bool alias_ok)
{
	char path[512], buf[512], *eq;
	u64 val = 1, *field;

	eq = strchr(term, '=');
	if (eq) {
		*eq = '\0';
		val = parse_u64(eq + 1, term);
	}
	field = attr_field(&e->attr, term);
	if (field && eq) {
		*field = val;
		return;
	}
	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/format/%s", e->pmu,
		 term);
	if (read_file(path, buf, sizeof(buf)) > 0) {
		apply_format(e, term, buf, val);
		return;
	}
	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/events/%s", e->pmu,
		 term);
	if (!eq && alias_ok && read_file(path, buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		apply_terms(e, buf, false);
		return;
	}
	die("%s: '%s' is neither a format nor an event of %s", e->spec, term,
	    e->pmu);
}

static void apply_terms(struct ev *e, const char *terms, bool alias_ok)
{
	char buf[512], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save))
		apply_term(e, tok, alias_ok);
}

static void parse_ev(struct ev *e, const char *spec)
{
	char path[256], buf[64], terms[512];
	const char *slash = strchr(spec, '/');
	size_t len;

	e->spec = spec;
	if (!slash || (size_t)(slash - spec) >= sizeof(e->pmu))
		die("bad event '%s' (want PMU/TERMS/)", spec);
	memcpy(e->pmu, spec, slash - spec);
	e->pmu[slash - spec] = '\0';
	len = strlen(slash + 1);
	if (!len || slash[len] != '/' || len >= sizeof(terms))
		die("bad event '%s' (want PMU/TERMS/)", spec);
	memcpy(terms, slash + 1, len - 1);
	terms[len - 1] = '\0';

	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/type", e->pmu);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		die("no PMU '%s'", e->pmu);
	memset(&e->attr, 0, sizeof(e->attr));
	e->attr.size = sizeof(e->attr);
	e->attr.type = (unsigned int)parse_u64(buf, path);
	e->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			      PERF_FORMAT_TOTAL_TIME_RUNNING;
	apply_terms(e, terms, true);
	e->fd = -1;
}

static int pmu_cpu(const char *pmu)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path), SYSFS_PMUS "/%s/cpumask", pmu);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return atoi(buf);
}

static int perf_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, attr, -1, cpu, group_fd, 0);
}

/* Open every event (as one group with -g); dies on failure. */
static void open_all(struct opts *o, bool disabled)
{
	int i, leader = -1;

	for (i = 0; i < o->nev; i++) {
		struct ev *e = &o->ev[i];

		e->attr.disabled = disabled && (!o->group || i == 0);
		if (o->group && i == 0)
			e->attr.read_format |= PERF_FORMAT_GROUP;
		e->fd = perf_open(&e->attr, o->cpu, o->group ? leader : -1);
		if (e->fd < 0)
			die("perf_event_open %s: %s", e->spec, strerror(errno));
		if (o->group && i == 0)
			leader = e->fd;
	}
}

static void close_all(struct opts *o)
{
	int i;

	for (i = o->nev - 1; i >= 0; i--) {
		close(o->ev[i].fd);
		o->ev[i].fd = -1;
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Idle (+ iowait) time of all CPUs so far, in seconds */
static double idle_secs(void)
{
	unsigned long long v[5];
	char buf[4096];

	if (read_file("/proc/stat", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4]) != 5)
		die("cannot parse /proc/stat");
	return (double)(v[3] + v[4]) / sysconf(_SC_CLK_TCK);
}

/* Run time (ns) of the threads of process @pid, from their schedstat */
static u64 task_ns(const char *pid)
{
	char path[300], buf[256];
	struct dirent *de;
	u64 sum = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/task", pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task/%s/schedstat", pid,
			 de->d_name);
		if (read_file(path, buf, sizeof(buf)) > 0)
			sum += strtoull(buf, NULL, 10);
	}
	closedir(d);
	return sum;
}

/*
 * Run time (ns) of process @pid and of its children (cmn-hnf runs perf as
 * one); -1 when the kernel has no schedstat files or @pid is gone
 */
static double proc_ns(const char *pid)
{
	char path[300], buf[512], *p;
	struct dirent *de;
	double sum;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%s/schedstat", pid);
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return -1;
	sum = (double)task_ns(pid);
	d = opendir("/proc");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", de->d_name);
		if (read_file(path, buf, sizeof(buf)) <= 0)
			continue;
		/* "pid (comm) state ppid ...": comm may hold spaces */
		p = strrchr(buf, ')');
		if (p && strtol(p + 4, NULL, 10) == strtol(pid, NULL, 10))
			sum += (double)task_ns(de->d_name);
	}
	closedir(d);
	return sum;
}

static void sleep_secs(double secs)
{
	struct timespec ts;

	ts.tv_sec = (time_t)secs;
	ts.tv_nsec = (long)((secs - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static void acc_read(const char *file, u64 *reads, u64 *writes)
{
	char buf[256], *p;

	if (read_file(file, buf, sizeof(buf)) <= 0)
		die("cannot read %s", file);
	p = strstr(buf, "reads ");
	*reads = p ? strtoull(p + 6, NULL, 10) : 0;
	p = strstr(buf, "writes ");
	*writes = p ? strtoull(p + 7, NULL, 10) : 0;
	if (!strstr(buf, "reads ") || !strstr(buf, "writes "))
		die("%s: unexpected contents '%s'", file, buf);
}

static void acc_zero(const char *file)
{
	int fd = open(file, O_WRONLY);

	if (fd < 0 || write(fd, "0\n", 2) != 2)
		die("cannot zero %s: %s", file, strerror(errno));
	close(fd);
}

/* One read of the events (a group read with -g); dies on a short read. */
static void read_once(struct opts *o)
{
	u64 buf[3 + 2 * MAX_EVENTS];
	size_t want;
	int i;

	if (o->group) {
		want = (3 + o->nev) * sizeof(u64);
		if (read(o->ev[0].fd, buf, want) != (ssize_t)want)
			die("group read: %s", strerror(errno));
		return;
	}
	for (i = 0; i < o->nev; i++)
		if (read(o->ev[i].fd, buf, 3 * sizeof(u64)) != 3 * sizeof(u64))
			die("read %s: %s", o->ev[i].spec, strerror(errno));
}

/* Lowest time_running / time_enabled over the events, in percent */
static double running_pct(struct opts *o)
{
	u64 buf[3 + 2 * MAX_EVENTS];
	double pct = 100, p;
	int i;

	if (o->group) {
		if (read(o->ev[0].fd, buf, (3 + o->nev) * sizeof(u64)) <= 0)
			die("group read: %s", strerror(errno));
		return buf[1] ? 100.0 * buf[2] / buf[1] : 0;
	}
	for (i = 0; i < o->nev; i++) {
		if (read(o->ev[i].fd, buf, 3 * sizeof(u64)) <= 0)
			die("read %s: %s", o->ev[i].spec, strerror(errno));
		p = buf[1] ? 100.0 * buf[2] / buf[1] : 0;
		if (p < pct)
			pct = p;
	}
	return pct;
}

static void enable_once(struct opts *o)
{
	unsigned long flag = o->group ? PERF_IOC_FLAG_GROUP : 0;
	int i, n = o->group ? 1 : o->nev;

	for (i = 0; i < n; i++)
		if (ioctl(o->ev[i].fd, PERF_EVENT_IOC_ENABLE, flag))
			die("enable %s: %s", o->ev[i].spec, strerror(errno));
	for (i = 0; i < n; i++)
		if (ioctl(o->ev[i].fd, PERF_EVENT_IOC_DISABLE, flag))
			die("disable %s: %s", o->ev[i].spec, strerror(errno));
}

enum mode { M_READ, M_OPENCLOSE, M_ENABLE };

static void op(struct opts *o, enum mode m)
{
	switch (m) {
	case M_READ:
		read_once(o);
		break;
	case M_OPENCLOSE:
		open_all(o, false);
		close_all(o);
		break;
	case M_ENABLE:
		enable_once(o);
		break;
	}
}

static int cmp_run(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

static void timing(struct opts *o, enum mode m)
{
	struct run runs[MAX_RUNS], *med;
	double t0, pct = -1;
	long i, warm;
	int r;

	if (m == M_READ)
		open_all(o, false);
	else if (m == M_ENABLE)
		open_all(o, true);

	warm = o->n / 10 + 1;
	for (i = 0; i < warm; i++)
		op(o, m);
	for (r = 0; r < o->runs; r++) {
		runs[r].reads = 0;
		runs[r].writes = 0;
		if (o->acc)
			acc_zero(o->acc);
		t0 = now_ns();
		for (i = 0; i < o->n; i++)
			op(o, m);
		runs[r].ns = (now_ns() - t0) / o->n;
		if (o->acc)
			acc_read(o->acc, &runs[r].reads, &runs[r].writes);
	}
	if (m == M_READ)
		pct = running_pct(o);
	if (m != M_OPENCLOSE)
		close_all(o);

	qsort(runs, o->runs, sizeof(runs[0]), cmp_run);
	med = &runs[o->runs / 2];
	printf("ns=%.0f min=%.0f max=%.0f runs=%d n=%ld", med->ns, runs[0].ns,
	       runs[o->runs - 1].ns, o->runs, o->n);
	if (pct >= 0)
		printf(" running=%.2f", pct);
	else
		printf(" running=-");
	if (o->acc)
		printf(" reads=%.2f writes=%.2f", (double)med->reads / o->n,
		       (double)med->writes / o->n);
	printf("\n");
}

static void hold(struct opts *o)
{
	u64 buf[3];
	int i;

	open_all(o, false);
	printf("READY\n");
	fflush(stdout);
	sleep_secs(o->secs);
	for (i = 0; i < o->nev; i++) {
		if (read(o->ev[i].fd, buf, sizeof(buf)) != sizeof(buf))
			die("read %s: %s", o->ev[i].spec, strerror(errno));
		printf("%llu %llu %llu\n", buf[0],
		       buf[1], buf[2]);
	}
	close_all(o);
}

static int run_cmd(char **argv)
{
	double t0 = now_ns();
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		die("fork: %s", strerror(errno));
	if (!pid) {
		execvp(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waitpid: %s", strerror(errno));
	printf("ns=%.0f rc=%d\n", now_ns() - t0,
	       WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return 0;
}

static int busy_cpu(double secs, const char *pid)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double t0, t1, i0, i1, p0 = -1, p1 = -1;

	if (pid)
		p0 = proc_ns(pid);
	t0 = now_ns();
	i0 = idle_secs();
	sleep_secs(secs);
	t1 = now_ns();
	i1 = idle_secs();
	if (pid)
		p1 = proc_ns(pid);
	t1 = (t1 - t0) / 1e9;
	printf("busy_ms_per_s=%.1f cpus=%ld wall_s=%.3f idle_s=%.2f",
	       1000 * (ncpu * t1 - (i1 - i0)) / t1, ncpu, t1, i1 - i0);
	if (p0 >= 0 && p1 >= p0)
		printf(" proc_ms_per_s=%.3f", (p1 - p0) / 1e6 / t1);
	else if (pid)
		printf(" proc_ms_per_s=n/a");
	printf("\n");
	return 0;
}

static __noreturn void bad_usage(void)
{
	fprintf(stderr,
		"usage: cmn-bench [-n N] [-r RUNS] [-g] [-s SECS] [-c CPU] [-A FILE]\n"
		"                 read|openclose|enable|hold PMU/TERMS/...\n"
		"       cmn-bench run CMD [ARGS...]\n"
		"       cmn-bench -s SECS cpu [PID]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	static struct opts o = { .n = 2000, .runs = 7, .secs = 1, .cpu = -1 };
	cpu_set_t set;
	const char *mode;
	int c, i;

	while ((c = getopt(argc, argv, "+n:r:gs:c:A:")) != -1) {
		switch (c) {
		case 'n':
			o.n = (long)parse_u64(optarg, "-n");
			break;
		case 'r':
			o.runs = (int)parse_u64(optarg, "-r");
			break;
		case 'g':
			o.group = true;
			break;
		case 's':
			o.secs = atof(optarg);
			break;
		case 'c':
			o.cpu = (int)parse_u64(optarg, "-c");
			break;
		case 'A':
			o.acc = optarg;
			break;
		default:
			bad_usage();
		}
	}
	if (o.n < 1 || o.runs < 1 || o.runs > MAX_RUNS || argc - optind < 1)
		bad_usage();
	mode = argv[optind++];
	if (!strcmp(mode, "cpu"))
		return busy_cpu(o.secs, argc > optind ? argv[optind] : NULL);
	if (argc - optind < 1)
		bad_usage();
	if (!strcmp(mode, "run"))
		return run_cmd(argv + optind);
	o.nev = argc - optind;
	if (o.nev > MAX_EVENTS)
		die("at most %d events", MAX_EVENTS);
	for (i = 0; i < o.nev; i++)
		parse_ev(&o.ev[i], argv[optind + i]);
	if (o.cpu < 0)
		o.cpu = pmu_cpu(o.ev[0].pmu);

	/* run on the PMU's CPU: perf core then calls the driver directly */
	CPU_ZERO(&set);
	CPU_SET(o.cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("cannot run on CPU%d: %s", o.cpu, strerror(errno));

	if (!strcmp(mode, "read"))
		timing(&o, M_READ);
	else if (!strcmp(mode, "openclose"))
		timing(&o, M_OPENCLOSE);
	else if (!strcmp(mode, "enable"))
		timing(&o, M_ENABLE);
	else if (!strcmp(mode, "hold") && !o.group)
		hold(&o);
	else
		bad_usage();
	return 0;
}
