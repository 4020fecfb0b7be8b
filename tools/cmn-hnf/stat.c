// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat: count HN-F events with perf_event_open(2) and print the
 * metrics of tools/metrics/metrics.def. The options are here; the plan,
 * the perf backend, the outputs and the loop are stat_*.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* Longest interval: a day. Longest run: a billion intervals. */
#define ST_MAX_INTERVAL_MS	86400000L
#define ST_MAX_COUNT		1000000000L

/*
 * Where the command starts: after "--", or (as in perf stat sleep 1) at
 * the first word that is neither an option, an option's value nor a metric,
 * group or "all". Returns its index (argc: none) and whether "--" marks it.
 */
static int command_start(const struct cmn_opt *opts, int argc, char **argv,
			 bool *dashdash)
{
	const struct cmn_opt *o;
	bool sel[CMN_MAX_METRICS];
	char why[160], *a;
	int i;
	size_t k, n;

	*dashdash = false;
	for (i = 1; i < argc; i++) {
		a = argv[i];
		if (!strcmp(a, "--")) {
			*dashdash = true;
			return i;
		}
		if (a[0] == '-' && a[1] == '-') {
			/* --name VALUE: skip the value */
			n = strcspn(a + 2, "=");
			for (o = opts; o->name; o++)
				if (strlen(o->name) == n && !strncmp(o->name, a + 2, n))
					break;
			if (o->name && o->arg && !a[2 + n])
				i++;
			continue;
		}
		if (a[0] == '-' && a[1]) {
			/* -abc, -I 100, -I100 */
			for (k = 1; a[k]; k++) {
				for (o = opts; o->name && o->key != a[k]; o++)
					;
				if (o->name && o->arg) {
					if (!a[k + 1])
						i++;
					break;
				}
			}
			continue;
		}
		if (cmn_metric_select(1, &argv[i], sel, why, sizeof(why)))
			return i;
	}
	return argc;
}

/* -r: the values of every run, per mesh and in total */
struct repeat {
	int runs, cap;
	double *v;		/* [run][unit][metric] */
};

static bool repeat_frame(struct st_ctx *c, struct st_frame *f, void *arg)
{
	struct repeat *r = arg;
	int p, m, nu = c->npmu + 1;

	for (p = 0; p < nu; p++)
		for (m = 0; m < (int)cmn_num_metrics; m++)
			r->v[((size_t)r->runs * nu + p) * CMN_MAX_METRICS + m] =
				cmn_metric_value(m, p < c->npmu ? &f->mesh[p] : &f->total);
	return true;
}

/* The mean over the runs and its relative standard deviation, as perf -r */
static void repeat_print(struct st_ctx *c, const struct repeat *r)
{
	int p, m, k, n, nu = c->npmu + 1;
	char v[64], cell[96];
	double sum, sq, x, mean;

	fprintf(c->out, "# %d runs: mean (+- relative standard deviation)\n%-32s",
		r->runs, "metric");
	for (p = 0; p < c->npmu; p++)
		fprintf(c->out, " %22s", c->pmus[p].name);
	if (c->npmu > 1)
		fprintf(c->out, " %22s", "total");
	fputs("  unit\n", c->out);
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		fprintf(c->out, "%-32s", cmn_metrics[m].name);
		for (p = 0; p < nu - (c->npmu == 1); p++) {
			sum = 0;
			sq = 0;
			n = 0;
			for (k = 0; k < r->runs; k++) {
				x = r->v[((size_t)k * nu + p) * CMN_MAX_METRICS + m];
				if (isnan(x))
					continue;
				sum += x;
				sq += x * x;
				n++;
			}
			mean = n ? sum / n : NAN;
			st_value_str(mean, v, sizeof(v));
			if (n > 1 && mean != 0)
				snprintf(cell, sizeof(cell), "%s +- %.2f%%", v, 100.0 *
					 sqrt(fmax(sq / n - mean * mean, 0) * n / (n - 1)) /
					 fabs(mean));
			else
				snprintf(cell, sizeof(cell), "%s", v);
			fprintf(c->out, " %22s", cell);
		}
		fprintf(c->out, "  %s\n", cmn_metrics[m].unit);
	}
}

/* Forget the counts of the last run (the counters are opened anew) */
static void reset_counts(struct st_ctx *c)
{
	int i, k;

	for (i = 0; i < c->ngroups; i++)
		for (k = 0; k < c->groups[i].nev; k++) {
			c->groups[i].ev[k].val = 0;
			c->groups[i].ev[k].ena = 0;
			c->groups[i].ev[k].run = 0;
			c->groups[i].ev[k].total = 0;
		}
}

static int run_repeat(struct st_ctx *c)
{
	struct repeat r = { 0 };
	const struct st_hooks hooks = {
		.frame = repeat_frame, .fd = -1, .arg = &r,
	};
	int ret = 0, k;

	r.v = calloc((size_t)c->o.repeat * (c->npmu + 1) * CMN_MAX_METRICS,
		     sizeof(*r.v));
	if (!r.v)
		return 1;
	for (k = 0; k < c->o.repeat; k++) {
		reset_counts(c);
		ret = st_run(c, &hooks);
		r.runs++;
		if (ret)
			break;
	}
	if (!ret || r.runs > 1)
		repeat_print(c, &r);
	free(r.v);
	return ret;
}

int cmd_stat(int argc, char **argv, FILE *out)
{
	struct st_ctx c = { .out = out };
	bool json = false, csv = false, quiet = false, sysw = false;
	bool top_seen = false;
	struct cmn_strlist events = { 0 }, formulas = { 0 };
	const char *sep = NULL, *ofile = NULL;
	const struct cmn_opt opts[] = {
		{ 'I', "interval", "MS", CMN_OPT_LONG, &c.o.interval_ms, 10,
		  ST_MAX_INTERVAL_MS, .help = "print every MS milliseconds (10 to 86400000)" },
		{ 'n', "count", "N", CMN_OPT_LONG, &c.o.count, 1, ST_MAX_COUNT,
		  .help = "stop after N intervals (with -I; default: until ^C)" },
		{ 0x108, "interval-count", "N", CMN_OPT_LONG, &c.o.count, 1, ST_MAX_COUNT,
		  .help = "the same as -n, perf's name" },
		{ 'e', "event", "EVENTS", CMN_OPT_LIST, &events, .help =
		  "count these events too (alone, without the default\n"
		  "metrics): NAME, NAME/TERMS/ or arm_cmn_hnf[_<n>]/TERMS/,\n"
		  "comma separated; TERMS as perf's: eventid=, occupid=,\n"
		  "bynodeid=1,nodeid= (one HN-F)" },
		{ 'M', "metric", "NAME=FORMULA", CMN_OPT_LIST, &formulas, .help =
		  "a metric of your own, over the events' names,\n"
		  "dtc_cycles and duration_time (repeatable); a bare\n"
		  "NAME selects a metric or group, as perf's -M" },
		{ 'a', "all-cpus", NULL, CMN_OPT_FLAG, &sysw, .help =
		  "system-wide: always so (uncore events count the\n"
		  "whole mesh); accepted for perf's habits" },
		{ 0x101, "per-hnf", NULL, CMN_OPT_FLAG, &c.o.per_hnf, .help =
		  "one row per HN-F (bynodeid/nodeid from the topology)\n"
		  "plus a top-N imbalance view" },
		{ 0x102, "top", "N", CMN_OPT_LONG, &c.o.top, 0, CMN_MAX_PMUS * CMN_MAX_HNFS,
		  .seen = &top_seen,
		  .help = "rows in the top-N view (with --per-hnf; default 5, 0: none)" },
		{ 0x103, "sort", "METRIC", CMN_OPT_STR, &c.o.sort, .help =
		  "metric ranking the top-N view (with --per-hnf;\n"
		  "default: the first selected)" },
		{ 0x104, "csv", NULL, CMN_OPT_FLAG, &csv, .help =
		  "CSV: time,epoch,pmu,hnf,nodeid,kind,name,value,unit,\n"
		  "running_pct,flagged (kind: metric or event)" },
		{ 'x', "field-separator", "SEP", CMN_OPT_STR, &sep, .help =
		  "CSV with the one-character separator SEP (perf's -x)" },
		{ 'o', "output", "FILE", CMN_OPT_STR, &ofile, .help =
		  "print into FILE instead of standard output" },
		{ 'r', "repeat", "N", CMN_OPT_LONG, &c.o.repeat, 1, 100000, .help =
		  "count N times (the command too) and print the mean\n"
		  "and the relative standard deviation (table, no -I)" },
		{ 0x105, "clear", NULL, CMN_OPT_FLAG, &c.o.clear, .help =
		  "clear the screen before each interval (table, with -I)" },
		{ 0x106, "prometheus", "FILE", CMN_OPT_STR, &c.o.prom, .help =
		  "also write FILE in the Prometheus text format every\n"
		  "interval (atomically), for node_exporter's textfile\n"
		  "collector" },
		{ 'q', "quiet", NULL, CMN_OPT_FLAG, &quiet, .help =
		  "print nothing on standard output (with --prometheus)" },
		{ 0x107, "print-perf", NULL, CMN_OPT_FLAG, &c.o.print_perf, .help =
		  "print the equivalent perf stat command and exit" },
		{ 0 },
	};
	const struct cmn_cmd cmd = {
		.name = "stat", .opts = opts, .json = &json, .args = true,
		.synopsis = "[options] [metric|group|all...] [[--] command [args]]",
		.desc =
		"Count HN-F events on every arm_cmn_hnf PMU and print metrics per mesh and\n"
		"in total. Without -I, counts for 1 second, or while the command runs, and\n"
		"exits with the command's status. The command starts at '--' or at the\n"
		"first word that is not a metric, a group or 'all'. Groups and metrics\n"
		"are listed by 'cmn-hnf list'; default: the level-1 metrics. -e counts\n"
		"any event, --metric your own formula. --json prints one JSON object per\n"
		"interval, one per line.",
		.footer =
		"Values past a metric's threshold are marked '!'. Counts are scaled by\n"
		"time enabled / time running when perf multiplexes counters.\n",
	};
	struct cmn_pmu *pmus;
	FILE *of = NULL;
	bool dashdash;
	char why[512];
	int ret, nargs, cmdi, i, first;

	cmn_metrics_reset();
	c.o.top = 5;
	c.o.sep = ',';
	/* options end at the command */
	cmdi = command_start(opts, argc, argv, &dashdash);
	nargs = cmdi;
	ret = cmn_cmd_parse(&cmd, nargs, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (sep) {
		if (strlen(sep) != 1 || strchr("\"\n", *sep))
			return cmn_usage_error(&cmd, "-x: '%s' is not one character", sep);
		c.o.sep = *sep;
		csv = true;
	}
	if (json && csv)
		return cmn_usage_error(&cmd, "--json and --csv exclude each other");
	c.o.fmt = json ? FMT_JSON : csv ? FMT_CSV : quiet ? FMT_NONE : FMT_TABLE;
	if (c.o.count && !c.o.interval_ms)
		return cmn_usage_error(&cmd, "-n/--count needs -I/--interval");
	if ((top_seen || c.o.sort) && !c.o.per_hnf)
		return cmn_usage_error(&cmd, "--%s needs --per-hnf",
				       top_seen ? "top" : "sort");
	if (c.o.clear && (!c.o.interval_ms || c.o.fmt != FMT_TABLE))
		return cmn_usage_error(&cmd, "--clear needs -I and the table output");
	if (quiet && (json || csv || !c.o.prom))
		return cmn_usage_error(&cmd,
				       "--quiet goes with --prometheus, without --json or --csv");
	if (c.o.print_perf && (c.o.prom || quiet))
		return cmn_usage_error(&cmd,
				       "--print-perf does not count: no --prometheus or --quiet");
	if (c.o.repeat > 1 && (c.o.interval_ms || c.o.fmt != FMT_TABLE || c.o.prom ||
			       c.o.per_hnf))
		return cmn_usage_error(&cmd,
				       "-r goes with the table of meshes: no -I, --json, --csv, --per-hnf or --prometheus");
	if (c.o.sort && !cmn_metric_find(c.o.sort))
		return cmn_usage_error(&cmd, "--sort: unknown metric '%s'", c.o.sort);
	if (cmdi < argc) {
		c.o.cmd = &argv[cmdi + dashdash];
		if (!*c.o.cmd)
			return cmn_usage_error(&cmd, "nothing after --");
	}
	if (cmn_metric_select(nargs - first, argv + first, c.o.sel, why,
			      sizeof(why)))
		return cmn_usage_error(&cmd, "%s", why);
	/* -e and --metric alone: only what they name, as perf stat -e */
	if ((events.n || formulas.n) && nargs == first)
		memset(c.o.sel, 0, sizeof(c.o.sel));
	for (i = 0; i < events.n; i++)
		if (st_add_events(&c, events.v[i], why, sizeof(why)))
			return cmn_usage_error(&cmd, "%s", why);
	for (i = 0; i < formulas.n; i++) {
		bool one[CMN_MAX_METRICS];
		size_t m;

		if (strchr(formulas.v[i], '=')) {
			if (st_add_formula(&c, formulas.v[i], why, sizeof(why)))
				return cmn_usage_error(&cmd, "%s", why);
			continue;
		}
		/* -M NAME, as perf's: a metric or a group of the table */
		if (cmn_metric_select(1, (char **)&formulas.v[i], one, why, sizeof(why)))
			return cmn_usage_error(&cmd, "%s", why);
		for (m = 0; m < cmn_num_builtin_metrics; m++)
			c.o.sel[m] |= one[m];
	}
	if (c.o.sort && !c.o.sel[cmn_metric_find(c.o.sort) - cmn_metrics])
		return cmn_usage_error(&cmd, "--sort %s: metric not selected",
				       c.o.sort);
	if (ofile) {
		of = fopen(ofile, "w");
		if (!of) {
			fprintf(stderr, "%s stat: -o %s: %s\n", cmn_prog, ofile,
				strerror(errno));
			return 1;
		}
		c.out = of;
	}

	pmus = calloc(CMN_MAX_PMUS, sizeof(*pmus));
	if (!pmus) {
		ret = 1;
		goto out_file;
	}
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
	ret = st_build_plan(&c, why, sizeof(why));
	if (!ret && !c.ngroups) {
		snprintf(why, sizeof(why), "nothing to count on these meshes");
		ret = -ENOENT;
	}
	if (ret) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		ret = 1;
		goto out;
	}
	if (c.o.print_perf) {
		st_print_perf(&c);
		ret = 0;
	} else if (c.o.repeat > 1) {
		ret = run_repeat(&c);
	} else {
		ret = st_run(&c, NULL);
	}
out:
	free(c.groups);
	free(pmus);
out_file:
	if (of && fclose(of) && !ret) {
		fprintf(stderr, "%s stat: -o %s: %s\n", cmn_prog, ofile, strerror(errno));
		ret = 1;
	}
	return ret;
}
