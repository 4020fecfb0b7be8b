// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat: count HN-F events with perf_event_open(2) and print the
 * metrics of tools/metrics/metrics.def. The options are here; the plan,
 * the perf backend, the outputs and the loop are stat_*.c.
 */
#include <stdlib.h>
#include <string.h>

#include "stat.h"

/* Longest interval: a day. Longest run: a billion intervals. */
#define ST_MAX_INTERVAL_MS	86400000L
#define ST_MAX_COUNT		1000000000L

int cmd_stat(int argc, char **argv, FILE *out)
{
	struct st_ctx c = { .out = out };
	bool json = false, csv = false, quiet = false;
	bool top_seen = false;
	const struct cmn_opt opts[] = {
		{ 'I', "interval", "MS", CMN_OPT_LONG, &c.o.interval_ms, 10,
		  ST_MAX_INTERVAL_MS, .help = "print every MS milliseconds (10 to 86400000)" },
		{ 'n', "count", "N", CMN_OPT_LONG, &c.o.count, 1, ST_MAX_COUNT,
		  .help = "stop after N intervals (with -I; default: until ^C)" },
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
		.synopsis = "[options] [metric|group|all...] [-- command [args]]",
		.desc =
		"Count HN-F events on every arm_cmn_hnf PMU and print metrics per mesh and\n"
		"in total. Without -I, counts for 1 second, or while the command runs, and\n"
		"exits with the command's status. Groups and metrics are listed by\n"
		"'cmn-hnf list'; default: the level-1 metrics. --json prints one JSON\n"
		"object per interval, one per line.",
		.footer =
		"Values past a metric's threshold are marked '!'. Counts are scaled by\n"
		"time enabled / time running when perf multiplexes counters.\n",
	};
	struct cmn_pmu *pmus;
	char why[512];
	int ret, nargs, dashdash = -1, i, first;

	c.o.top = 5;
	/* options end at "--": what follows is the command */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			dashdash = i;
			break;
		}
	}
	nargs = dashdash >= 0 ? dashdash : argc;
	ret = cmn_cmd_parse(&cmd, nargs, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
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
	if (c.o.sort && !cmn_metric_find(c.o.sort))
		return cmn_usage_error(&cmd, "--sort: unknown metric '%s'", c.o.sort);
	if (dashdash >= 0) {
		c.o.cmd = &argv[dashdash + 1];
		if (!*c.o.cmd)
			return cmn_usage_error(&cmd, "nothing after --");
	}
	if (cmn_metric_select(nargs - first, argv + first, c.o.sel, why,
			      sizeof(why)))
		return cmn_usage_error(&cmd, "%s", why);
	if (c.o.sort && !c.o.sel[cmn_metric_find(c.o.sort) - cmn_metrics])
		return cmn_usage_error(&cmd, "--sort %s: metric not selected",
				       c.o.sort);

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
	ret = st_build_plan(&c, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		ret = 1;
		goto out;
	}
	if (c.o.print_perf) {
		st_print_perf(&c);
		ret = 0;
	} else {
		ret = st_run(&c, NULL);
	}
out:
	free(c.groups);
	free(pmus);
	return ret;
}
