// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat: count HN-F events with perf_event_open(2) and print the
 * metrics of tools/metrics/metrics.def.
 *
 * The HN-F events of the selected metrics of one metric group form one
 * perf group (or, where that does not fit the counters, those of each
 * metric), so the terms of a ratio share their time slices even when perf
 * multiplexes the 8 DTC counters between groups. The DTC cycle counter is
 * a single resource per mesh, so dtc_cycles is opened once per PMU on its
 * own and pinned: perf keeps it counting all the time, whatever happens
 * to the groups (a clock needs no shared slice).
 */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <linux/perf_event.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmn-hnf.h"

struct st_event {
	char name[CMN_NAME_LEN];
	uint64_t config[3];
	int fd;
	uint64_t val, ena, run;		/* cumulative, last read */
	double delta;			/* scaled, this interval */
	double frac;			/* running fraction, this interval */
};

struct st_group {
	int pmu;
	int hnf;	/* index in topo.hnf[], -1: the whole mesh */
	int metric;	/* first metric counted, -1: the dtc_cycles event */
	uint32_t mmask;	/* bit m: the group has every HN-F term of metric m */
	int nev;
	bool grouped;
	struct st_event ev[CMN_MAX_TERMS];
};

enum st_format { FMT_TABLE, FMT_CSV, FMT_JSON };

struct st_opts {
	long interval_ms;	/* 0: one shot */
	long count;		/* intervals, 0: until interrupted */
	bool per_hnf;
	bool print_perf;
	bool clear;
	int top;
	const char *sort;
	enum st_format fmt;
	char **cmd;
	bool sel[32];
};

struct st_ctx {
	struct st_opts o;
	struct cmn_pmu *pmus;
	int npmu;
	struct st_group *groups;
	int ngroups;
	int cap;
	FILE *out;
	bool csv_header_done;
	bool warned_ungrouped;
	bool per_metric;	/* one group per metric, not per metric group */
};

/* Set by the signal handler: a lock-free atomic is safe to use there */
static atomic_bool st_stop;
static_assert(ATOMIC_BOOL_LOCK_FREE == 2, "atomic_bool must be lock-free");

static void st_on_signal(int sig)
{
	(void)sig;
	st_stop = true;
}

static bool is_pseudo(const char *name)
{
	return !strcmp(name, CMN_DTC_CYCLES) || !strcmp(name, CMN_DURATION_TIME);
}

static bool metric_needs_cycles(int m)
{
	const struct cmn_terms *terms = cmn_metric_terms(m);
	int t;

	for (t = 0; t < terms->n; t++)
		if (!strcmp(terms->name[t], CMN_DTC_CYCLES))
			return true;
	return false;
}

static struct st_group *add_group(struct st_ctx *c)
{
	struct st_group *g;

	if (c->ngroups == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		g = realloc(c->groups, c->cap * sizeof(*g));
		if (!g)
			return NULL;
		c->groups = g;
	}
	g = &c->groups[c->ngroups++];
	memset(g, 0, sizeof(*g));
	return g;
}

static int add_event(struct st_ctx *c, struct st_group *g, const char *name,
		     char *why, size_t why_len)
{
	const struct cmn_pmu *pmu = &c->pmus[g->pmu];
	struct st_event *e = &g->ev[g->nev];
	char extra[64] = "";

	if (g->hnf >= 0)
		snprintf(extra, sizeof(extra), "bynodeid=1,nodeid=0x%x",
			 pmu->topo.hnf[g->hnf].nodeid);
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->fd = -1;
	if (cmn_pmu_event_config(pmu, name, extra, e->config, why, why_len))
		return -EINVAL;
	g->nev++;
	return 0;
}

/* The HN-F events of the metrics in @mask, deduplicated, or -E2BIG */
static int union_events(uint32_t mask, char names[][CMN_NAME_LEN])
{
	const struct cmn_terms *terms;
	int m, t, k, count = 0;

	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!(mask & (1U << m)))
			continue;
		terms = cmn_metric_terms(m);
		for (t = 0; t < terms->n; t++) {
			if (is_pseudo(terms->name[t]))
				continue;
			for (k = 0; k < count; k++)
				if (!strcmp(names[k], terms->name[t]))
					break;
			if (k < count)
				continue;
			if (count == CMN_MAX_TERMS)
				return -E2BIG;
			snprintf(names[count++], CMN_NAME_LEN, "%s",
				 terms->name[t]);
		}
	}
	return count;
}

/* One group on PMU @p, HN-F @h (-1: mesh) for the metrics in @mask */
static int add_metrics_group(struct st_ctx *c, int p, int h, uint32_t mask,
			     char *why, size_t why_len)
{
	char names[CMN_MAX_TERMS][CMN_NAME_LEN];
	struct st_group *g;
	int n, k;

	n = union_events(mask, names);
	if (n < 0) {
		snprintf(why, why_len, "too many events for one group");
		return n;
	}
	if (!n)
		return 0;
	g = add_group(c);
	if (!g)
		return -ENOMEM;
	g->pmu = p;
	g->hnf = h;
	g->mmask = mask;
	for (g->metric = 0; !(mask & (1U << g->metric)); g->metric++)
		;
	for (k = 0; k < n; k++)
		if (add_event(c, g, names[k], why, why_len))
			return -EINVAL;
	return 0;
}

/* The selected metrics of metric group @mg */
static uint32_t group_mask(struct st_ctx *c, size_t mg)
{
	uint32_t mask = 0;
	size_t m;

	for (m = 0; m < cmn_num_metrics; m++)
		if (c->o.sel[m] &&
		    !strcmp(cmn_metrics[m].group, cmn_metric_groups[mg].name))
			mask |= 1U << m;
	return mask;
}

/*
 * Per (PMU, HN-F or mesh): one perf group per metric group, holding the
 * HN-F events of its selected metrics, so that related metrics share their
 * time slices and fewer groups compete for the counters; or, when such a
 * group does not fit (c->per_metric), one group per metric. Plus one
 * dtc_cycles per PMU.
 */
static int build_plan(struct st_ctx *c, char *why, size_t why_len)
{
	char names[CMN_MAX_TERMS][CMN_NAME_LEN];
	struct st_group *g;
	bool cycles = false;
	int p, h, nh, ret;
	uint32_t mask;
	size_t m, mg;

	c->ngroups = 0;
	for (m = 0; m < cmn_num_metrics; m++)
		if (c->o.sel[m] && metric_needs_cycles((int)m))
			cycles = true;

	for (p = 0; p < c->npmu; p++) {
		const struct cmn_topo *topo = &c->pmus[p].topo;

		if (c->o.per_hnf && !topo->present) {
			snprintf(why, why_len, "%s: --per-hnf needs the topology: %s",
				 c->pmus[p].name, topo->why);
			return -ENOENT;
		}
		nh = c->o.per_hnf ? topo->nhnf : 1;
		for (h = 0; h < nh; h++) {
			for (mg = 0; mg < cmn_num_metric_groups; mg++) {
				mask = group_mask(c, mg);
				if (!mask)
					continue;
				if (!c->per_metric && union_events(mask, names) > 0) {
					ret = add_metrics_group(c, p, c->o.per_hnf ? h : -1,
								mask, why, why_len);
					if (ret)
						return ret;
					continue;
				}
				for (m = 0; m < cmn_num_metrics; m++) {
					if (!(mask & (1U << m)))
						continue;
					ret = add_metrics_group(c, p, c->o.per_hnf ? h : -1,
								1U << m, why, why_len);
					if (ret)
						return ret;
				}
			}
		}
		if (cycles) {
			g = add_group(c);
			if (!g)
				return -ENOMEM;
			g->pmu = p;
			g->hnf = -1;
			g->metric = -1;
			if (add_event(c, g, CMN_DTC_CYCLES, why, why_len))
				return -EINVAL;
		}
	}
	return 0;
}

/* ---- --print-perf ---- */

static void print_perf(struct st_ctx *c)
{
	FILE *out = c->out;
	char spell[128];
	int i, k;
	char **a;

	fputs("perf stat -a", out);
	if (c->o.fmt == FMT_CSV)
		fputs(" -x,", out);
	else if (c->o.fmt == FMT_JSON)
		fputs(" -j", out);
	if (c->o.interval_ms)
		fprintf(out, " -I %ld", c->o.interval_ms);
	if (c->o.interval_ms && c->o.count)
		fprintf(out, " --interval-count %ld", c->o.count);
	for (i = 0; i < c->ngroups; i++) {
		struct st_group *g = &c->groups[i];
		const struct cmn_pmu *pmu = &c->pmus[g->pmu];

		fputs(" -e '", out);
		if (g->nev > 1)
			fputc('{', out);
		for (k = 0; k < g->nev; k++) {
			cmn_pmu_event_spelling(pmu, g->ev[k].name, spell,
					       sizeof(spell));
			fprintf(out, "%s%s/%s", k ? "," : "", pmu->name, spell);
			if (g->hnf >= 0)
				fprintf(out, ",bynodeid=1,nodeid=0x%x",
					pmu->topo.hnf[g->hnf].nodeid);
			fputc('/', out);
		}
		if (g->nev > 1)
			fputc('}', out);
		fputc('\'', out);
	}
	if (c->o.cmd) {
		fputs(" --", out);
		for (a = c->o.cmd; *a; a++)
			fprintf(out, " %s", *a);
	} else if (!c->o.interval_ms) {
		fputs(" -- sleep 1", out);
	}
	fputc('\n', out);
	for (i = 0; i < (int)cmn_num_metrics; i++)
		if (c->o.sel[i])
			fprintf(out, "# %s = %s [%s]\n", cmn_metrics[i].name,
				cmn_metrics[i].formula, cmn_metrics[i].unit);
}

/* ---- perf_event_open ---- */

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

static const struct cmn_perf_ops sys_ops = {
	.open = sys_open,
	.read = sys_read,
	.enable = sys_enable,
	.close = sys_close,
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

#define ST_HINT_PERM	"not allowed: needs CAP_PERFMON or perf_event_paranoid <= 0 (run 'cmn-hnf check')"

static const char *open_hint(int err)
{
	switch (err) {
	case -EACCES:
	case -EPERM:
		return ST_HINT_PERM;
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

static int read_group(struct st_group *g)
{
	uint64_t buf[3 + CMN_MAX_TERMS];
	int k, nfd = g->grouped ? 1 : g->nev, i;
	long n;

	for (i = 0; i < nfd; i++) {
		n = cmn_perf_ops->read(g->ev[i].fd, buf, sizeof(buf));
		if (!n && g->metric < 0) {
			/* a pinned event perf could not schedule: no value */
			g->ev[i].delta = NAN;
			g->ev[i].frac = 0;
			continue;
		}
		if (n < (long)(3 * sizeof(uint64_t)))
			return -EIO;
		for (k = 0; k < (int)buf[0] && 3 + k < (int)(n / 8); k++) {
			struct st_event *e = &g->ev[g->grouped ? k : i];
			uint64_t dv = buf[3 + k] - e->val;
			uint64_t de = buf[1] - e->ena, dr = buf[2] - e->run;

			cmn_scale(dv, de, dr, &e->delta);
			e->frac = de ? (double)dr / (double)de : 0.0;
			e->val = buf[3 + k];
			e->ena = buf[1];
			e->run = buf[2];
		}
	}
	return 0;
}

/* ---- units and their counts ---- */

/* Fill the leaf counts of (pmu, hnf) from the groups just read */
static void leaf_counts(struct st_ctx *c, int p, int h, double seconds,
			struct cmn_counts *out)
{
	const struct cmn_terms *terms;
	int i, k, t, m;

	cmn_counts_init(out);
	out->seconds = seconds;
	out->cycles = NAN;
	out->ncycles = 1;
	for (i = 0; i < c->ngroups; i++) {
		struct st_group *g = &c->groups[i];

		if (g->pmu != p)
			continue;
		if (g->metric < 0) {
			out->cycles = g->ev[0].delta;
			continue;
		}
		if (g->hnf != h)
			continue;
		for (m = 0; m < (int)cmn_num_metrics; m++) {
			if (!(g->mmask & (1U << m)))
				continue;
			terms = cmn_metric_terms(m);
			for (t = 0; t < terms->n; t++) {
				for (k = 0; k < g->nev; k++) {
					if (strcmp(g->ev[k].name, terms->name[t]))
						continue;
					out->v[m][t] = g->ev[k].delta;
					if (g->ev[k].frac < out->running)
						out->running = g->ev[k].frac;
				}
			}
		}
	}
}

static const char *value_str(double v, char *buf, size_t len)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

static void json_unit(struct st_ctx *c, const char *pmu, int p, int h,
		      const struct cmn_counts *cn, bool *first)
{
	const struct cmn_terms *terms;
	FILE *out = c->out;
	bool f = true;
	int m, t, k;
	double v;

	fprintf(out, "%s{\"pmu\":", *first ? "" : ",");
	*first = false;
	cmn_json_str(out, pmu);
	if (h >= 0) {
		const struct cmn_hnf_node *nd = &c->pmus[p].topo.hnf[h];

		fprintf(out, ",\"hnf\":%d,\"nodeid\":%u,\"x\":%d,\"y\":%d,\"port\":%d,\"dev\":%d",
			nd->lid, nd->nodeid, nd->x, nd->y, nd->port, nd->dev);
	} else {
		fputs(",\"hnf\":null,\"nodeid\":null", out);
	}
	fputs(",\"running_pct\":", out);
	cmn_json_num(out, cn->running * 100.0);
	fputs(",\"metrics\":{", out);
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		v = cmn_metric_value(m, cn);
		fprintf(out, "%s", f ? "" : ",");
		f = false;
		cmn_json_str(out, cmn_metrics[m].name);
		fputs(":{\"value\":", out);
		cmn_json_num(out, v);
		fputs(",\"unit\":", out);
		cmn_json_str(out, cmn_metrics[m].unit);
		fprintf(out, ",\"flagged\":%s}",
			cmn_threshold_hit(cmn_metrics[m].threshold, v) ?
			"true" : "false");
	}
	fputs("},\"events\":{", out);
	f = true;
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		terms = cmn_metric_terms(m);
		for (t = 0; t < terms->n; t++) {
			const char *name = terms->name[t];
			const struct cmn_terms *nm;
			int mm, tt;
			bool seen = false;

			if (!strcmp(name, CMN_DURATION_TIME))
				continue;
			/* print each event once, from its first metric */
			for (mm = 0; mm <= m && !seen; mm++) {
				if (!c->o.sel[mm])
					continue;
				nm = cmn_metric_terms(mm);
				for (tt = 0; tt < nm->n && !seen; tt++)
					if ((mm < m || tt < t) &&
					    !strcmp(nm->name[tt], name))
						seen = true;
			}
			if (seen)
				continue;
			fprintf(out, "%s", f ? "" : ",");
			f = false;
			cmn_json_str(out, name);
			fputc(':', out);
			k = !strcmp(name, CMN_DTC_CYCLES);
			cmn_json_num(out, k ? cn->cycles : cn->v[m][t]);
		}
	}
	fputs("}}", out);
}

static void csv_unit(struct st_ctx *c, double now, const char *pmu, int p,
		     int h, const struct cmn_counts *cn)
{
	const struct cmn_hnf_node *nd = NULL;
	FILE *out = c->out;
	char v[64];
	int m;

	if (h >= 0)
		nd = &c->pmus[p].topo.hnf[h];
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		double x;

		if (!c->o.sel[m])
			continue;
		x = cmn_metric_value(m, cn);
		if (isnan(x))
			v[0] = '\0';
		else
			snprintf(v, sizeof(v), "%.6f", x);
		fprintf(out, "%.3f,%s,", now, pmu);
		if (nd)
			fprintf(out, "%d,0x%x,", nd->lid, nd->nodeid);
		else
			fputs("all,,", out);
		fprintf(out, "%s,%s,%s,%.1f,%d\n", cmn_metrics[m].name, v,
			cmn_metrics[m].unit, cn->running * 100.0,
			cmn_threshold_hit(cmn_metrics[m].threshold, x));
	}
}

struct hnf_row {
	int p, h;
	struct cmn_counts cn;
};

static int sort_metric;

static int cmp_rows(const void *a, const void *b)
{
	const struct hnf_row *x = a, *y = b;
	double vx = cmn_metric_value(sort_metric, &x->cn);
	double vy = cmn_metric_value(sort_metric, &y->cn);

	if (isnan(vx))
		return isnan(vy) ? 0 : 1;
	if (isnan(vy))
		return -1;
	return vx < vy ? 1 : vx > vy ? -1 : 0;
}

static void table_metric_header(struct st_ctx *c, FILE *out)
{
	int m;

	for (m = 0; m < (int)cmn_num_metrics; m++)
		if (c->o.sel[m])
			fprintf(out, " %*s", (int)(strlen(cmn_metrics[m].name) > 10 ?
				strlen(cmn_metrics[m].name) : 10),
				cmn_metrics[m].name);
}

static void table_metric_row(struct st_ctx *c, FILE *out,
			     const struct cmn_counts *cn)
{
	char v[64];
	double x;
	int m, w;

	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		w = strlen(cmn_metrics[m].name) > 10 ?
			(int)strlen(cmn_metrics[m].name) : 10;
		x = cmn_metric_value(m, cn);
		value_str(x, v, sizeof(v));
		if (cmn_threshold_hit(cmn_metrics[m].threshold, x))
			strncat(v, "!", sizeof(v) - strlen(v) - 1);
		fprintf(out, " %*s", w, v);
	}
}

static void print_per_hnf_table(struct st_ctx *c, double now,
				struct hnf_row *rows, int nrows,
				const struct cmn_counts *mesh,
				const struct cmn_counts *total)
{
	FILE *out = c->out;
	double sum = 0, max = -INFINITY, min = INFINITY, v, mean, sq = 0;
	int i, p, nv = 0, first_sel = -1;
	char xp[32];

	fprintf(out, "# %.3f s\n%-16s %4s %7s %9s", now, "pmu", "hnf",
		"nodeid", "x,y,p,d");
	table_metric_header(c, out);
	fputs("   run%\n", out);
	for (i = 0; i < nrows; i++) {
		const struct cmn_hnf_node *nd =
			&c->pmus[rows[i].p].topo.hnf[rows[i].h];

		snprintf(xp, sizeof(xp), "%d,%d,%d,%d", nd->x, nd->y, nd->port,
			 nd->dev);
		fprintf(out, "%-16s %4d %#7x %9s", c->pmus[rows[i].p].name,
			nd->lid, nd->nodeid, xp);
		table_metric_row(c, out, &rows[i].cn);
		fprintf(out, " %6.1f\n", rows[i].cn.running * 100.0);
	}
	for (p = 0; p < c->npmu; p++) {
		fprintf(out, "%-16s %4s %7s %9s", c->pmus[p].name, "all", "", "");
		table_metric_row(c, out, &mesh[p]);
		fprintf(out, " %6.1f\n", mesh[p].running * 100.0);
	}
	if (c->npmu > 1) {
		fprintf(out, "%-16s %4s %7s %9s", "total", "all", "", "");
		table_metric_row(c, out, total);
		fprintf(out, " %6.1f\n", total->running * 100.0);
	}

	/* Top-N and imbalance by the sort metric */
	for (i = 0; i < (int)cmn_num_metrics && first_sel < 0; i++)
		if (c->o.sel[i])
			first_sel = i;
	sort_metric = first_sel;
	if (c->o.sort) {
		const struct cmn_metric *sm = cmn_metric_find(c->o.sort);

		sort_metric = sm - cmn_metrics;
	}
	if (sort_metric < 0 || c->o.top <= 0)
		return;
	for (i = 0; i < nrows; i++) {
		v = cmn_metric_value(sort_metric, &rows[i].cn);
		if (isnan(v))
			continue;
		sum += v;
		sq += v * v;
		nv++;
		if (v > max)
			max = v;
		if (v < min)
			min = v;
	}
	qsort(rows, nrows, sizeof(rows[0]), cmp_rows);
	fprintf(out, "# top %d HN-Fs by %s (%s)\n",
		c->o.top < nrows ? c->o.top : nrows,
		cmn_metrics[sort_metric].name, cmn_metrics[sort_metric].unit);
	mean = nv ? sum / nv : NAN;
	for (i = 0; i < nrows && i < c->o.top; i++) {
		const struct cmn_hnf_node *nd =
			&c->pmus[rows[i].p].topo.hnf[rows[i].h];
		char buf[64];

		v = cmn_metric_value(sort_metric, &rows[i].cn);
		fprintf(out, "  %-16s hnf %3d nodeid %#6x xp (%d,%d) %12s",
			c->pmus[rows[i].p].name, nd->lid, nd->nodeid, nd->x,
			nd->y, value_str(v, buf, sizeof(buf)));
		if (!isnan(v) && mean > 0)
			fprintf(out, "  x%.2f of mean", v / mean);
		fputc('\n', out);
	}
	if (nv && mean > 0)
		fprintf(out, "# imbalance: max/mean %.2f, min/mean %.2f, cv %.1f%%\n",
			max / mean, min / mean,
			100.0 * sqrt(fmax(sq / nv - mean * mean, 0)) / mean);
}

static void print_mesh_table(struct st_ctx *c, double now,
			     const struct cmn_counts *mesh,
			     const struct cmn_counts *total)
{
	FILE *out = c->out;
	char v[64];
	int p, m;
	double x;

	fprintf(out, "# %.3f s\n%-32s", now, "metric");
	for (p = 0; p < c->npmu; p++)
		fprintf(out, " %14s", c->pmus[p].name);
	if (c->npmu > 1)
		fprintf(out, " %14s", "total");
	fputs("  unit\n", out);
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		bool flag = false;

		if (!c->o.sel[m])
			continue;
		fprintf(out, "%-32s", cmn_metrics[m].name);
		for (p = 0; p < c->npmu + (c->npmu > 1); p++) {
			const struct cmn_counts *cn = p < c->npmu ? &mesh[p] : total;

			x = cmn_metric_value(m, cn);
			flag |= cmn_threshold_hit(cmn_metrics[m].threshold, x);
			fprintf(out, " %14s", value_str(x, v, sizeof(v)));
		}
		fprintf(out, "  %-8s", cmn_metrics[m].unit);
		if (flag)
			fprintf(out, " ! %s", cmn_metrics[m].threshold);
		fputc('\n', out);
	}
	fputs("# running", out);
	for (p = 0; p < c->npmu; p++)
		fprintf(out, " %s %.1f%%", c->pmus[p].name,
			mesh[p].running * 100.0);
	fputc('\n', out);
}

static int report(struct st_ctx *c, double now, double seconds)
{
	struct cmn_counts *mesh, total;
	struct hnf_row *rows = NULL;
	int p, h, nrows = 0, maxrows = 0;
	bool first = true;

	mesh = calloc(c->npmu, sizeof(*mesh));
	if (!mesh)
		return -ENOMEM;
	for (p = 0; p < c->npmu; p++)
		maxrows += c->o.per_hnf ? c->pmus[p].topo.nhnf : 0;
	if (maxrows) {
		rows = calloc(maxrows, sizeof(*rows));
		if (!rows) {
			free(mesh);
			return -ENOMEM;
		}
	}
	cmn_counts_init(&total);
	for (p = 0; p < c->npmu; p++) {
		if (c->o.per_hnf) {
			struct cmn_counts sum;

			cmn_counts_init(&sum);
			for (h = 0; h < c->pmus[p].topo.nhnf; h++) {
				rows[nrows].p = p;
				rows[nrows].h = h;
				leaf_counts(c, p, h, seconds, &rows[nrows].cn);
				cmn_counts_add(&sum, &rows[nrows].cn);
				nrows++;
			}
			/* cycles: every HN-F row holds the same mesh clock */
			mesh[p] = sum;
		} else {
			leaf_counts(c, p, -1, seconds, &mesh[p]);
		}
		cmn_counts_add(&total, &mesh[p]);
	}

	switch (c->o.fmt) {
	case FMT_JSON:
		fprintf(c->out, "{\"time\":%.3f,\"interval_s\":%.6f,\"units\":[",
			now, seconds);
		for (h = 0; h < nrows; h++)
			json_unit(c, c->pmus[rows[h].p].name, rows[h].p,
				  rows[h].h, &rows[h].cn, &first);
		for (p = 0; p < c->npmu; p++)
			json_unit(c, c->pmus[p].name, p, -1, &mesh[p], &first);
		json_unit(c, "total", -1, -1, &total, &first);
		fputs("]}\n", c->out);
		break;
	case FMT_CSV:
		if (!c->csv_header_done) {
			fputs("time,pmu,hnf,nodeid,metric,value,unit,running_pct,flagged\n",
			      c->out);
			c->csv_header_done = true;
		}
		for (h = 0; h < nrows; h++)
			csv_unit(c, now, c->pmus[rows[h].p].name, rows[h].p,
				 rows[h].h, &rows[h].cn);
		for (p = 0; p < c->npmu; p++)
			csv_unit(c, now, c->pmus[p].name, p, -1, &mesh[p]);
		csv_unit(c, now, "total", -1, -1, &total);
		break;
	default:
		if (c->o.clear && cmn_isatty(c->out))
			fputs("\033[H\033[2J", c->out);
		if (c->o.per_hnf)
			print_per_hnf_table(c, now, rows, nrows, mesh, &total);
		else
			print_mesh_table(c, now, mesh, &total);
	}
	fflush(c->out);
	free(rows);
	free(mesh);
	return 0;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void raise_nofile(void)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int run(struct st_ctx *c)
{
	struct sigaction sa;
	struct timespec ts;
	double t0, last, now, next;
	char why[512];
	pid_t child = -1;
	int i, k, ret = 0, status;
	long n;

	raise_nofile();
	for (i = 0; i < c->ngroups; i++) {
		ret = open_group(c, &c->groups[i], why, sizeof(why));
		if (!ret)
			continue;
		while (--i >= 0)
			close_group(&c->groups[i]);
		if (ret == -EAGAIN && !c->per_metric) {
			c->per_metric = true;
			if (build_plan(c, why, sizeof(why))) {
				fprintf(stderr, "%s: %s\n", cmn_prog, why);
				return 1;
			}
			continue;	/* i is -1: start again */
		}
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = st_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	for (i = 0; i < c->ngroups; i++) {
		struct st_group *g = &c->groups[i];

		for (k = 0; k < (g->grouped ? 1 : g->nev); k++)
			cmn_perf_ops->enable(g->ev[k].fd);
	}
	t0 = mono_now();
	last = t0;
	if (c->o.cmd) {
		child = fork();
		if (child < 0) {
			perror("fork");
			ret = 1;
			goto out;
		}
		if (!child) {
			execvp(c->o.cmd[0], c->o.cmd);
			fprintf(stderr, "%s: %s: %s\n", cmn_prog, c->o.cmd[0],
				strerror(errno));
			_exit(127);
		}
	}
	for (n = 0; !st_stop && (!c->o.count || n < c->o.count); n++) {
		if (c->o.interval_ms) {
			next = t0 + (n + 1) * c->o.interval_ms / 1000.0;
			ts.tv_sec = (time_t)next;
			ts.tv_nsec = (long)((next - (double)ts.tv_sec) * 1e9);
			while (!st_stop && clock_nanosleep(CLOCK_MONOTONIC,
							   TIMER_ABSTIME, &ts,
							   NULL) == EINTR)
				;
			if (child > 0 && waitpid(child, &status, WNOHANG) == child) {
				child = -1;
				st_stop = true;
			}
		} else if (child > 0) {
			while (waitpid(child, &status, 0) < 0 && errno == EINTR)
				if (st_stop)
					kill(child, SIGINT);
			child = -1;
		} else {
			ts.tv_sec = 1;
			ts.tv_nsec = 0;
			nanosleep(&ts, NULL);
		}
		now = mono_now();
		for (i = 0; i < c->ngroups; i++) {
			if (read_group(&c->groups[i])) {
				fprintf(stderr, "%s: reading counters failed\n",
					cmn_prog);
				ret = 1;
				goto out;
			}
		}
		report(c, now - t0, now - last);
		last = now;
		if (!c->o.interval_ms)
			break;
	}
out:
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, &status, 0);
	}
	for (i = 0; i < c->ngroups; i++)
		close_group(&c->groups[i]);
	return ret;
}

static void stat_usage(FILE *f)
{
	fprintf(f,
		"usage: cmn-hnf stat [options] [metric|group...] [-- command [args]]\n"
		"\n"
		"Count HN-F events on every arm_cmn_hnf PMU and print metrics per mesh and\n"
		"in total. Without -I, counts for 1 second, or while the command runs.\n"
		"Groups and metrics are listed by 'cmn-hnf list'; default: all metrics.\n"
		"\n"
		"  -I, --interval MS   print every MS milliseconds (live table)\n"
		"  -n, --count N       stop after N intervals (with -I; default: until ^C)\n"
		"      --per-hnf       one row per HN-F (bynodeid/nodeid from the topology)\n"
		"                      plus a top-N imbalance view\n"
		"      --top N         rows in the top-N view (default 5, 0: none)\n"
		"      --sort METRIC   metric ranking the top-N view (default: the first)\n"
		"      --json          one JSON object per interval, one per line\n"
		"      --csv           CSV: time,pmu,hnf,nodeid,metric,value,unit,\n"
		"                      running_pct,flagged\n"
		"      --clear         clear the screen before each interval (with -I)\n"
		"      --print-perf    print the equivalent perf stat command and exit\n"
		"  -h, --help          this help\n"
		"\n"
		"Values past a metric's threshold are marked '!'. Counts are scaled by\n"
		"time enabled / time running when perf multiplexes counters.\n");
}

int cmd_stat(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'I' },
		{ "count", required_argument, NULL, 'n' },
		{ "per-hnf", no_argument, NULL, 'H' },
		{ "top", required_argument, NULL, 'T' },
		{ "sort", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "csv", no_argument, NULL, 'c' },
		{ "clear", no_argument, NULL, 'C' },
		{ "print-perf", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct st_ctx c = { .out = out };
	struct cmn_pmu *pmus;
	char why[512], *end;
	int opt, nargs, ret, dashdash = -1, i;

	c.o.top = 5;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	}
	nargs = dashdash >= 0 ? dashdash : argc;
	optind = 1;
	while ((opt = getopt_long(nargs, argv, "+I:n:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'I':
			c.o.interval_ms = strtol(optarg, &end, 10);
			if (*end || c.o.interval_ms < 10) {
				fprintf(stderr, "%s: -I: milliseconds >= 10\n",
					cmn_prog);
				return 2;
			}
			break;
		case 'n':
			c.o.count = strtol(optarg, &end, 10);
			if (*end || c.o.count < 1) {
				fprintf(stderr, "%s: -n: a count >= 1\n", cmn_prog);
				return 2;
			}
			break;
		case 'H':
			c.o.per_hnf = true;
			break;
		case 'T':
			c.o.top = atoi(optarg);
			break;
		case 'S':
			c.o.sort = optarg;
			if (!cmn_metric_find(optarg)) {
				fprintf(stderr, "%s: --sort: unknown metric '%s'\n",
					cmn_prog, optarg);
				return 2;
			}
			break;
		case 'j':
			c.o.fmt = FMT_JSON;
			break;
		case 'c':
			c.o.fmt = FMT_CSV;
			break;
		case 'C':
			c.o.clear = true;
			break;
		case 'P':
			c.o.print_perf = true;
			break;
		case 'h':
			stat_usage(out);
			return 0;
		default:
			stat_usage(stderr);
			return 2;
		}
	}
	if (dashdash >= 0) {
		c.o.cmd = &argv[dashdash + 1];
		if (!*c.o.cmd) {
			fprintf(stderr, "%s: nothing after --\n", cmn_prog);
			return 2;
		}
	}
	if (cmn_metric_select(nargs - optind, argv + optind, c.o.sel, why,
			      sizeof(why))) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		return 2;
	}
	if (c.o.sort && !c.o.sel[cmn_metric_find(c.o.sort) - cmn_metrics]) {
		fprintf(stderr, "%s: --sort %s: metric not selected\n",
			cmn_prog, c.o.sort);
		return 2;
	}

	pmus = calloc(CMN_MAX_PMUS, sizeof(*pmus));
	if (!pmus)
		return 1;
	c.pmus = pmus;
	ret = cmn_pmus_scan(pmus, CMN_MAX_PMUS, why, sizeof(why));
	if (ret < 0) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		ret = 1;
		goto out;
	}
	if (!ret) {
		fprintf(stderr,
			"%s: no %s<n> PMU found (run 'cmn-hnf check')\n",
			cmn_prog, CMN_PMU_PREFIX);
		ret = 1;
		goto out;
	}
	c.npmu = ret;
	ret = build_plan(&c, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		ret = 1;
		goto out;
	}
	if (c.o.print_perf) {
		print_perf(&c);
		ret = 0;
	} else {
		ret = run(&c);
	}
out:
	free(c.groups);
	free(pmus);
	return ret;
}
