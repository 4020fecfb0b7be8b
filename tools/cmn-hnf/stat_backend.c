// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat: the perf backend. perf_event_open(2) and friends go
 * through cmn_perf_ops, so that the unit tests (and the fake binary the
 * screen tests run) can count against a fake PMU.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "stat.h"

static int sys_open(struct perf_event_attr *attr, int cpu, int group_fd)
{
	int fd = (int)syscall(__NR_perf_event_open, attr, -1, cpu, group_fd,
			      PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

static long sys_read(int fd, void *buf, size_t len)
{
	return read(fd, buf, len);
}

static int sys_enable(int fd)
{
	return ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
}

static void sys_close(int fd)
{
	close(fd);
}

static double sys_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const struct cmn_perf_ops sys_ops = {
	.open = sys_open,
	.read = sys_read,
	.enable = sys_enable,
	.close = sys_close,
	.now = sys_now,
};

const struct cmn_perf_ops *cmn_perf_ops = &sys_ops;

static int open_one(const struct cmn_pmu *pmu, struct st_event *e,
		    int group_fd, bool pinned)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = pmu->type;
	attr.config = e->config[0];
	attr.config1 = e->config[1];
	attr.config2 = e->config[2];
	attr.read_format = PERF_FORMAT_GROUP |
			   PERF_FORMAT_TOTAL_TIME_ENABLED |
			   PERF_FORMAT_TOTAL_TIME_RUNNING;
	attr.disabled = group_fd < 0;
	attr.pinned = pinned;
	e->fd = cmn_perf_ops->open(&attr, pmu->cpu, group_fd);
	if (e->fd < 0) {
		int err = e->fd;

		e->fd = -1;
		return err;
	}
	return 0;
}

static void close_group(struct st_group *g)
{
	int k;

	for (k = g->nev - 1; k >= 0; k--) {
		if (g->ev[k].fd >= 0)
			cmn_perf_ops->close(g->ev[k].fd);
		g->ev[k].fd = -1;
	}
}

/* What lets this user count, at the system's paranoid level */
static const char *perm_hint(void)
{
	static char hint[512];
	long para;

	if (cmn_read_paranoid(&para))
		return "not allowed (run 'cmn-hnf check')";
	snprintf(hint, sizeof(hint),
		 "not allowed at perf_event_paranoid=%ld: %s (run 'cmn-hnf check')",
		 para, cmn_perm_fix(para));
	return hint;
}

static const char *open_hint(int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return perm_hint();
	case -ENOENT:
	case -ENODEV:
		return "PMU not available (module unloaded?)";
	case -EMFILE:
		return "too many open files: select fewer metrics or raise ulimit -n";
	case -EINVAL:
		return "the driver rejected the event";
	case -ENOSPC:
	case -E2BIG:
		return "not enough counters for this group";
	default:
		return "";
	}
}

static int open_group(struct st_ctx *c, struct st_group *g, char *why,
		      size_t why_len)
{
	const struct cmn_pmu *pmu = &c->pmus[g->pmu];
	int k, ret = 0;

	if (pmu->cpu < 0) {
		snprintf(why, why_len, "%s: no CPU in cpumask", pmu->name);
		return -ENODEV;
	}
	g->grouped = g->nev > 1;
	for (k = 0; k < g->nev; k++) {
		ret = open_one(pmu, &g->ev[k], k ? g->ev[0].fd : -1,
			       g->metric < 0);
		if (ret)
			break;
	}
	if (ret && k > 0 && (ret == -EINVAL || ret == -ENOSPC || ret == -E2BIG) &&
	    (g->mmask & (g->mmask - 1))) {
		/* several metrics that do not fit together: one group each */
		close_group(g);
		return -EAGAIN;
	}
	if (ret && k > 0 && (ret == -EINVAL || ret == -ENOSPC || ret == -E2BIG)) {
		/* The group does not fit: count its events one by one. */
		close_group(g);
		g->grouped = false;
		for (k = 0; k < g->nev; k++) {
			ret = open_one(pmu, &g->ev[k], -1, false);
			if (ret)
				break;
		}
		if (!ret && !c->warned_ungrouped) {
			fprintf(stderr,
				"%s: warning: %s: the events of %s do not fit in one group; counting them separately (ratios may mix time slices)\n",
				cmn_prog, pmu->name, cmn_metrics[g->metric].name);
			c->warned_ungrouped = true;
		}
	}
	if (ret) {
		snprintf(why, why_len,
			 "%s/%s/ (config 0x%llx): perf_event_open: %s%s%s",
			 pmu->name, g->ev[k].name,
			 (unsigned long long)g->ev[k].config[0],
			 strerror(-ret), *open_hint(ret) ? ": " : "",
			 open_hint(ret));
		close_group(g);
	}
	return ret;
}

/* read(2) the group's counters into ev[].rd; 0 or -EIO */
static int read_group(struct st_group *g)
{
	uint64_t buf[3 + CMN_MAX_TERMS];
	int k, nfd = g->grouped ? 1 : g->nev, i;
	long n;

	for (i = 0; i < nfd; i++) {
		n = cmn_perf_ops->read(g->ev[i].fd, buf, sizeof(buf));
		if (!n && g->metric < 0) {
			/* a pinned event perf could not schedule: no value */
			g->ev[i].rd.none = true;
			continue;
		}
		if (n < (long)(3 * sizeof(uint64_t)) || buf[0] !=
		    (uint64_t)(g->grouped ? g->nev : 1) || n < (long)((3 + buf[0]) * 8))
			return -EIO;
		for (k = 0; k < (int)buf[0]; k++) {
			struct st_event *e = &g->ev[g->grouped ? k : i];

			e->rd.val = buf[3 + k];
			e->rd.ena = buf[1];
			e->rd.run = buf[2];
			e->rd.none = false;
		}
	}
	return 0;
}

/* The deltas since the last taken read */
static void take_group(struct st_group *g)
{
	int k;

	for (k = 0; k < g->nev; k++) {
		struct st_event *e = &g->ev[k];

		if (e->rd.none) {
			e->delta = NAN;
			e->frac = 0;
			continue;
		}
		cmn_scale(e->rd.val - e->val, e->rd.ena - e->ena,
			  e->rd.run - e->run, &e->delta);
		if (!isnan(e->delta))
			e->total += e->delta;
		e->frac = e->rd.ena - e->ena ?
			  (double)(e->rd.run - e->run) / (double)(e->rd.ena - e->ena) : 0.0;
		e->val = e->rd.val;
		e->ena = e->rd.ena;
		e->run = e->rd.run;
	}
}

double st_now(void)
{
	return cmn_perf_ops->now ? cmn_perf_ops->now() : sys_now();
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int st_open_all(struct st_ctx *c)
{
	char why[512];
	int i, ret;

	raise_nofile();
	for (i = 0; i < c->ngroups; i++) {
		ret = open_group(c, &c->groups[i], why, sizeof(why));
		if (!ret)
			continue;
		while (--i >= 0)
			close_group(&c->groups[i]);
		if (ret == -EAGAIN && !c->per_metric) {
			c->per_metric = true;
			if (st_build_plan(c, why, sizeof(why))) {
				fprintf(stderr, "%s: %s\n", cmn_prog, why);
				return 1;
			}
			continue;	/* i is -1: start again */
		}
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		return 1;
	}
	return 0;
}

void st_enable_all(struct st_ctx *c)
{
	int i, k;

	for (i = 0; i < c->ngroups; i++) {
		struct st_group *g = &c->groups[i];

		for (k = 0; k < (g->grouped ? 1 : g->nev); k++)
			cmn_perf_ops->enable(g->ev[k].fd);
	}
}

/*
 * A ratio whose terms are read by different read(2) calls (a rate over the
 * pinned dtc_cycles, the events of a group too big for the counters) is
 * exact only if those reads see the same instant. A reader preempted
 * between two of them, or a virtual CPU its host deschedules, can put tens
 * of ms between them: over a 2 s interval, 80 ms moves such a ratio by 4 %
 * in one interval and back in the next. So one sample is a pass over every
 * group that took at most ST_READ_SPREAD of the interval, or ST_READ_FLOOR
 * seconds (what a pass of a few dozen reads may cost anyway, which a short
 * interval or command cannot beat by retrying); a slower pass is read
 * again (reading does not disturb the counters), and after ST_READ_TRIES
 * passes the last one stands, with a warning.
 */
#define ST_READ_SPREAD	0.002
#define ST_READ_FLOOR	0.001
#define ST_READ_TRIES	4

int st_read_all(struct st_ctx *c, double interval)
{
	double t0, spread = 0;
	int i, tries, nread = 0;

	for (i = 0; i < c->ngroups; i++)
		nread += c->groups[i].grouped ? 1 : c->groups[i].nev;
	for (tries = 1; tries <= ST_READ_TRIES; tries++) {
		t0 = st_now();
		for (i = 0; i < c->ngroups; i++) {
			if (read_group(&c->groups[i])) {
				fprintf(stderr, "%s: %s: reading the counters failed\n",
					cmn_prog, c->pmus[c->groups[i].pmu].name);
				return -EIO;
			}
		}
		spread = st_now() - t0;
		if (spread <= fmax(ST_READ_SPREAD * interval, ST_READ_FLOOR) || nread == 1)
			break;
	}
	if (tries > ST_READ_TRIES && !c->warned_spread) {
		fprintf(stderr,
			"%s: warning: the counters of one sample took %.1f ms to read (%d tries; the system is busy?): ratios across perf groups may be off by %.1f %%\n",
			cmn_prog, spread * 1e3, ST_READ_TRIES, 100.0 * spread / interval);
		c->warned_spread = true;
	}
	for (i = 0; i < c->ngroups; i++)
		take_group(&c->groups[i]);
	return 0;
}

int st_read_start(struct st_ctx *c, double interval)
{
	int i, k;

	if (st_read_all(c, interval))
		return -EIO;
	for (i = 0; i < c->ngroups; i++)
		for (k = 0; k < c->groups[i].nev; k++)
			c->groups[i].ev[k].total = 0;
	return 0;
}

void st_close_all(struct st_ctx *c)
{
	int i;

	for (i = 0; i < c->ngroups; i++)
		close_group(&c->groups[i]);
}
