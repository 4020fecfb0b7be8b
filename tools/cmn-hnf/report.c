// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf report: summarise a recorded "cmn-hnf stat --json" run (JSON
 * Lines): per metric and unit the min, mean and max over the intervals and
 * the value over the whole run (the formula applied to the summed event
 * counts: a ratio of sums, not a mean of ratios), the HN-Fs ranked, and
 * the stretches of time past each threshold. --svg draws the time series
 * and a per-HN-F heat map on the mesh as a plain SVG file (svg.c).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "report.h"

static int unit_find(struct rp_run *r, const char *pmu, int hnf)
{
	int i;

	for (i = 0; i < r->nunits; i++)
		if (!strcmp(r->units[i].pmu, pmu) && r->units[i].hnf == hnf)
			return i;
	return -1;
}

static int unit_add(struct rp_run *r, const struct cmn_jv *u, const char *pmu,
		    int hnf)
{
	struct rp_unit *n;
	int i;

	if (r->nunits == r->cap_units) {
		r->cap_units = r->cap_units ? r->cap_units * 2 : 16;
		n = realloc(r->units, r->cap_units * sizeof(*n));
		if (!n)
			return -ENOMEM;
		r->units = n;
	}
	n = &r->units[r->nunits];
	memset(n, 0, sizeof(*n));
	snprintf(n->pmu, sizeof(n->pmu), "%s", pmu);
	n->hnf = hnf;
	n->nodeid = (int)cmn_jv_num(cmn_jv_get(u, "nodeid"));
	n->x = (int)cmn_jv_num(cmn_jv_get(u, "x"));
	n->y = (int)cmn_jv_num(cmn_jv_get(u, "y"));
	n->mesh_x = (int)cmn_jv_num(cmn_jv_get(u, "mesh_x"));
	n->mesh_y = (int)cmn_jv_num(cmn_jv_get(u, "mesh_y"));
	for (i = 0; i < (int)cmn_num_metrics; i++) {
		n->v[i] = calloc(r->cap_iv, sizeof(double));
		if (!n->v[i])
			return -ENOMEM;
	}
	return r->nunits++;
}

/* Room for one more interval in every series */
static int grow(struct rp_run *r)
{
	int cap = r->cap_iv ? r->cap_iv * 2 : 64, i, m, k;
	double *d;

	if (r->niv < r->cap_iv)
		return 0;
	for (i = 0; i < r->nunits; i++) {
		for (m = 0; m < (int)cmn_num_metrics; m++) {
			d = realloc(r->units[i].v[m], cap * sizeof(double));
			if (!d)
				return -ENOMEM;
			for (k = r->cap_iv; k < cap; k++)
				d[k] = NAN;
			r->units[i].v[m] = d;
		}
	}
	d = realloc(r->t, cap * sizeof(double));
	if (!d)
		return -ENOMEM;
	r->t = d;
	d = realloc(r->len, cap * sizeof(double));
	if (!d)
		return -ENOMEM;
	r->len = d;
	r->cap_iv = cap;
	return 0;
}

static void add_events(struct rp_unit *u, const struct cmn_jv *ev)
{
	const struct cmn_jv *e;
	int k;

	for (e = ev ? ev->child : NULL; e; e = e->next) {
		if (e->type != CJV_NUM)
			continue;
		for (k = 0; k < u->nev && strcmp(u->ev[k].name, e->key); k++)
			;
		if (k == u->nev) {
			if (u->nev == RP_MAX_EVENTS)
				continue;
			snprintf(u->ev[k].name, sizeof(u->ev[k].name), "%s", e->key);
			u->nev++;
		}
		u->ev[k].sum += e->num;
		/* dtc_cycles of a mesh: the mean clock, as stat does */
		u->ev[k].n++;
	}
}

static int parse_line(struct rp_run *r, const char *line, int lineno,
		      char *why, size_t why_len)
{
	const struct cmn_jv *units, *u, *ms, *m;
	struct cmn_jv *v;
	char jwhy[128];
	int i, k;
	double t;

	v = cmn_jv_parse(line, jwhy, sizeof(jwhy));
	if (!v) {
		snprintf(why, why_len, "line %d: not JSON: %s", lineno, jwhy);
		return -EINVAL;
	}
	units = cmn_jv_get(v, "units");
	t = cmn_jv_num(cmn_jv_get(v, "time"));
	if (!units || units->type != CJV_ARR || isnan(t)) {
		snprintf(why, why_len,
			 "line %d: not a cmn-hnf stat --json record (no time or units)",
			 lineno);
		cmn_jv_free(v);
		return -EINVAL;
	}
	if (grow(r)) {
		cmn_jv_free(v);
		return -ENOMEM;
	}
	r->t[r->niv] = t;
	r->len[r->niv] = cmn_jv_num(cmn_jv_get(v, "interval_s"));
	if (!r->niv)
		r->epoch0 = cmn_jv_num(cmn_jv_get(v, "epoch")) - t;
	for (u = units->child; u; u = u->next) {
		const char *pmu = cmn_jv_str(cmn_jv_get(u, "pmu"));
		double h = cmn_jv_num(cmn_jv_get(u, "hnf"));
		int hnf = isnan(h) ? -1 : (int)h;

		if (!pmu)
			continue;
		i = unit_find(r, pmu, hnf);
		if (i < 0)
			i = unit_add(r, u, pmu, hnf);
		if (i < 0) {
			cmn_jv_free(v);
			return -ENOMEM;
		}
		ms = cmn_jv_get(u, "metrics");
		for (m = ms ? ms->child : NULL; m; m = m->next) {
			const struct cmn_metric *cm = cmn_metric_find(m->key);

			if (!cm)
				continue;
			k = (int)(cm - cmn_metrics);
			r->units[i].v[k][r->niv] = cmn_jv_num(cmn_jv_get(m, "value"));
			r->present[k] = true;
		}
		add_events(&r->units[i], cmn_jv_get(u, "events"));
		r->units[i].seconds += r->len[r->niv];
		r->units[i].nint++;
	}
	r->niv++;
	cmn_jv_free(v);
	return 0;
}

int rp_load(struct rp_run *r, const char *path, char *why, size_t why_len)
{
	char *line = NULL, tmp[1024];
	struct stat st;
	size_t cap = 0;
	ssize_t n;
	int lineno = 0, ret = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", path);
	f = fopen(path, "re");
	if (!f) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		ret = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		snprintf(why, why_len, "%s: %s", path, ret == -EISDIR ?
			 "is a directory, not a recording (stat --json -I MS)" :
			 "not a regular file");
		fclose(f);
		return ret;
	}
	while ((n = getline(&line, &cap, f)) > 0) {
		lineno++;
		if (strspn(line, " \t\r\n") == (size_t)n)
			continue;
		ret = parse_line(r, line, lineno, why, why_len);
		/*
		 * The last line, cut short without its newline: a recording
		 * whose stat was killed while writing. Keep what came before.
		 */
		if (ret == -EINVAL && line[n - 1] != '\n' && r->niv) {
			fprintf(stderr,
				"%s report: %s: line %d is cut short (stat stopped while writing it?): ignored\n",
				cmn_prog, path, lineno);
			ret = 0;
			break;
		}
		if (ret)
			break;
	}
	free(line);
	fclose(f);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(why, why_len, "out of memory");
		snprintf(tmp, sizeof(tmp), "%s: %s", path, why);
		snprintf(why, why_len, "%s", tmp);
		return ret;
	}
	if (!r->niv) {
		snprintf(why, why_len, "%s: no intervals (record with cmn-hnf stat --json -I MS)",
			 path);
		return -ENOENT;
	}
	return 0;
}

void rp_free(struct rp_run *r)
{
	int i, m;

	for (i = 0; i < r->nunits; i++)
		for (m = 0; m < (int)cmn_num_metrics; m++)
			free(r->units[i].v[m]);
	free(r->units);
	free(r->t);
	free(r->len);
	memset(r, 0, sizeof(*r));
}

/* ---- statistics ---- */

void rp_stats(const struct rp_run *r, const struct rp_unit *u, int m,
	      struct rp_stat *s)
{
	double w = 0, sum = 0, v;
	int i;

	memset(s, 0, sizeof(*s));
	s->min = INFINITY;
	s->max = -INFINITY;
	for (i = 0; i < r->niv; i++) {
		v = u->v[m][i];
		if (isnan(v))
			continue;
		s->n++;
		s->min = fmin(s->min, v);
		s->max = fmax(s->max, v);
		/* weighted by the length of the interval */
		sum += v * (r->len[i] > 0 ? r->len[i] : 1);
		w += r->len[i] > 0 ? r->len[i] : 1;
		if (cmn_threshold_hit(cmn_metrics[m].threshold, v))
			s->past++;
	}
	s->mean = s->n ? sum / w : NAN;
	if (!s->n)
		s->min = NAN;
	if (!s->n)
		s->max = NAN;
	s->run = rp_run_value(u, m);
}

struct run_ctx {
	const struct rp_unit *u;
};

static bool run_lookup(void *p, const char *name, double *val)
{
	const struct run_ctx *c = p;
	int k;

	if (!strcmp(name, CMN_DURATION_TIME)) {
		*val = c->u->seconds;
		return c->u->seconds > 0;
	}
	for (k = 0; k < c->u->nev; k++) {
		if (strcmp(c->u->ev[k].name, name))
			continue;
		*val = c->u->ev[k].sum;
		return true;
	}
	return false;
}

double rp_run_value(const struct rp_unit *u, int m)
{
	struct run_ctx c = { .u = u };
	double v;

	if (cmn_expr_eval(cmn_metrics[m].formula, run_lookup, &c, &v, NULL, 0))
		return NAN;
	return v;
}

/* ---- text and JSON summaries ---- */

static void fmt_epoch(double e, char *buf, size_t len)
{
	time_t t = (time_t)e;
	struct tm tm;

	if (isnan(e) || e < 1e9) {
		snprintf(buf, len, "?");
		return;
	}
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* Stretches past the threshold: "12.0-15.0 s" lines for unit @u */
static int past_ranges(const struct rp_run *r, const struct rp_unit *u, int m,
		       double *from, double *to, int max)
{
	int i, n = 0;
	bool in = false;

	for (i = 0; i < r->niv; i++) {
		bool hit = cmn_threshold_hit(cmn_metrics[m].threshold, u->v[m][i]);

		if (hit && !in && n < max) {
			from[n] = fmax(r->t[i] - r->len[i], 0);
			in = true;
		}
		if (hit && in)
			to[n] = r->t[i];
		if (!hit && in) {
			in = false;
			n++;
		}
	}
	return in ? n + 1 : n;
}

int rp_rank_metric(const struct rp_run *r, const char *want)
{
	const struct cmn_metric *cm;
	int m;

	if (want) {
		cm = cmn_metric_find(want);
		return cm && r->present[cm - cmn_metrics] ? (int)(cm - cmn_metrics) : -1;
	}
	for (m = 0; m < (int)cmn_num_metrics; m++)
		if (r->present[m])
			return m;
	return -1;
}

static const struct rp_run *cmp_run;
static int cmp_metric;

static int cmp_hnf(const void *a, const void *b)
{
	const struct rp_unit *x = *(const struct rp_unit *const *)a;
	const struct rp_unit *y = *(const struct rp_unit *const *)b;
	double vx = rp_run_value(x, cmp_metric), vy = rp_run_value(y, cmp_metric);

	(void)cmp_run;
	if (isnan(vx))
		return isnan(vy) ? 0 : 1;
	if (isnan(vy))
		return -1;
	return vx < vy ? 1 : vx > vy ? -1 : 0;
}

/* The HN-F units ranked by metric @m over the run, highest first */
int rp_ranked(const struct rp_run *r, int m, const struct rp_unit **out)
{
	int i, n = 0;

	for (i = 0; i < r->nunits; i++)
		if (r->units[i].hnf >= 0)
			out[n++] = &r->units[i];
	cmp_run = r;
	cmp_metric = m;
	qsort(out, n, sizeof(*out), cmp_hnf);
	return n;
}

static void report_text(const struct rp_run *r, int rank, long top, FILE *out)
{
	const struct rp_unit **ranked;
	char a[64], b[64], c[64], d[64], e0[64], e1[64], hx[16];
	double from[16], to[16], mean = 0;
	struct rp_stat s;
	int i, m, k, n, nv = 0;

	fmt_epoch(r->epoch0 + (r->niv ? r->t[0] - r->len[0] : 0), e0, sizeof(e0));
	fmt_epoch(r->epoch0 + r->t[r->niv - 1], e1, sizeof(e1));
	fprintf(out, "%s: %d intervals, %.3f s, from %s to %s\n\n", r->path,
		r->niv, r->t[r->niv - 1] - (r->t[0] - r->len[0]), e0, e1);
	fprintf(out, "%-16s %-32s %10s %10s %10s %10s  %-8s %s\n", "unit", "metric",
		"min", "mean", "max", "run", "unit", "past threshold");
	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];

		if (u->hnf >= 0)
			continue;
		for (m = 0; m < (int)cmn_num_metrics; m++) {
			if (!r->present[m])
				continue;
			rp_stats(r, u, m, &s);
			fprintf(out, "%-16s %-32s %10s %10s %10s %10s  %-8s", u->pmu,
				cmn_metrics[m].name, st_value_str(s.min, a, sizeof(a)),
				st_value_str(s.mean, b, sizeof(b)),
				st_value_str(s.max, c, sizeof(c)),
				st_value_str(s.run, d, sizeof(d)), cmn_metrics[m].unit);
			if (cmn_metrics[m].threshold[0])
				fprintf(out, " %s: %d of %d", cmn_metrics[m].threshold,
					s.past, s.n);
			fputc('\n', out);
		}
	}

	fputs("\nIntervals past a threshold:\n", out);
	k = 0;
	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];

		/* meshes and the total here; every HN-F in --json */
		if (u->hnf >= 0)
			continue;
		for (m = 0; m < (int)cmn_num_metrics; m++) {
			if (!r->present[m] || !cmn_metrics[m].threshold[0])
				continue;
			n = past_ranges(r, u, m, from, to, 16);
			if (!n)
				continue;
			k++;
			fprintf(out, "  %-16s %s %s:", u->pmu, cmn_metrics[m].name,
				cmn_metrics[m].threshold);
			for (nv = 0; nv < n && nv < 16; nv++)
				fprintf(out, " %.3f-%.3f s", fabs(from[nv]), to[nv]);
			fputc('\n', out);
		}
	}
	if (!k)
		fputs("  none\n", out);

	if (rank < 0)
		return;
	ranked = calloc(r->nunits + 1, sizeof(*ranked));
	if (!ranked)
		return;
	n = rp_ranked(r, rank, ranked);
	if (!n) {
		fputs("\nNo per-HN-F units (record with cmn-hnf stat --per-hnf --json).\n", out);
		free(ranked);
		return;
	}
	nv = 0;
	for (i = 0; i < n; i++) {
		double v = rp_run_value(ranked[i], rank);

		if (!isnan(v)) {
			mean += v;
			nv++;
		}
	}
	mean = nv ? mean / nv : NAN;
	fprintf(out, "\nHN-Fs by %s over the run (%s):\n", cmn_metrics[rank].name,
		cmn_metrics[rank].unit);
	for (i = 0; i < n && (top <= 0 || i < top); i++) {
		double v = rp_run_value(ranked[i], rank);

		fprintf(out, "  %3d  %-16s hnf %3d nodeid %6s xp (%d,%d) %12s", i + 1,
			ranked[i]->pmu, ranked[i]->hnf, cmn_hex(ranked[i]->nodeid, hx),
			ranked[i]->x, ranked[i]->y, st_value_str(v, a, sizeof(a)));
		if (!isnan(v) && mean > 0)
			fprintf(out, "  x%.2f of mean", v / mean);
		fputc('\n', out);
	}
	free(ranked);
}

static void report_json(const struct rp_run *r, int rank, FILE *out)
{
	const struct rp_unit **ranked;
	double from[64], to[64];
	struct cmn_json j;
	struct rp_stat s;
	int i, m, n, k;

	cj_init(&j, out, true);
	cj_obj(&j);
	cj_kstr(&j, "file", r->path);
	cj_kint(&j, "intervals", r->niv);
	cj_knum(&j, "seconds", r->t[r->niv - 1] - (r->t[0] - r->len[0]));
	cj_knum(&j, "epoch_start", r->epoch0 + r->t[0] - r->len[0]);
	cj_key(&j, "units");
	cj_arr(&j);
	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];

		cj_obj(&j);
		cj_kstr(&j, "pmu", u->pmu);
		cj_key(&j, "hnf");
		if (u->hnf >= 0)
			cj_int(&j, u->hnf);
		else
			cj_null(&j);
		cj_key(&j, "metrics");
		cj_obj(&j);
		for (m = 0; m < (int)cmn_num_metrics; m++) {
			if (!r->present[m])
				continue;
			rp_stats(r, u, m, &s);
			cj_key(&j, cmn_metrics[m].name);
			cj_obj(&j);
			cj_knum(&j, "min", s.min);
			cj_knum(&j, "mean", s.mean);
			cj_knum(&j, "max", s.max);
			cj_knum(&j, "run", s.run);
			cj_kint(&j, "past_threshold", s.past);
			/* the value of every interval: the unit's time series */
			cj_key(&j, "series");
			cj_arr(&j);
			for (k = 0; k < r->niv; k++)
				cj_num(&j, u->v[m][k]);
			cj_arr_end(&j);
			cj_key(&j, "past_ranges");
			cj_arr(&j);
			n = past_ranges(r, u, m, from, to, 64);
			for (k = 0; k < n && k < 64; k++) {
				cj_arr(&j);
				cj_num(&j, from[k]);
				cj_num(&j, to[k]);
				cj_arr_end(&j);
			}
			cj_arr_end(&j);
			cj_obj_end(&j);
		}
		cj_obj_end(&j);
		cj_obj_end(&j);
	}
	cj_arr_end(&j);
	if (rank >= 0) {
		ranked = calloc(r->nunits + 1, sizeof(*ranked));
		if (ranked) {
			n = rp_ranked(r, rank, ranked);
			cj_kstr(&j, "ranked_by", cmn_metrics[rank].name);
			cj_key(&j, "ranking");
			cj_arr(&j);
			for (i = 0; i < n; i++) {
				cj_obj(&j);
				cj_kstr(&j, "pmu", ranked[i]->pmu);
				cj_kint(&j, "hnf", ranked[i]->hnf);
				cj_knum(&j, "value", rp_run_value(ranked[i], rank));
				cj_obj_end(&j);
			}
			cj_arr_end(&j);
			free(ranked);
		}
	}
	cj_obj_end(&j);
	cj_end(&j);
}

int cmd_report(int argc, char **argv, FILE *out)
{
	static const char *const scales[] = { "absolute", "relative", NULL };
	const char *svg = NULL, *rank_name = NULL, *scale = "absolute";
	bool json = false;
	long top = 10;
	const struct cmn_opt opts[] = {
		{ 0x101, "svg", "OUT", CMN_OPT_STR, &svg, .help =
		  "also draw the time series of the metrics and a\n"
		  "per-HN-F heat map on the mesh into OUT (SVG)" },
		{ 'r', "rank", "METRIC", CMN_OPT_STR, &rank_name, .help =
		  "metric ranking the HN-Fs and colouring the heat map\n"
		  "(default: the first metric of the file)" },
		{ 't', "top", "N", CMN_OPT_LONG, &top, 0, 1000000, .help =
		  "HN-Fs in the ranking (default 10, 0: all)" },
		{ 0x102, "scale", "HOW", CMN_OPT_CHOICE, &scale, .choices = scales,
		  .help = "--svg heat map colours: absolute (default: a %\n"
		  "metric on 0-100 %, others from 0 to the hottest\n"
		  "HN-F of all meshes) or relative (each mesh's\n"
		  "min to max)" },
		{ 0 },
	};
	const struct cmn_cmd cmd = {
		.name = "report", .opts = opts, .json = &json, .args = true,
		.synopsis = "[options] FILE.jsonl [metric|group...]",
		.desc =
		"Summarise a recorded 'cmn-hnf stat --json -I MS' run: per unit (mesh,\n"
		"total) and metric the min, mean and max over the intervals and the value\n"
		"over the whole run (the formula on the summed counts), the stretches of\n"
		"time past each threshold, and the HN-Fs ranked (record with --per-hnf).\n"
		"Metrics named after the file restrict the summary and the charts.",
	};
	struct rp_run r;
	bool sel[CMN_MAX_METRICS];
	char why[1024];
	int ret, first, rank, m;

	ret = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (first >= argc)
		return cmn_usage_error(&cmd,
				       "which file? (cmn-hnf stat --json -I MS > FILE.jsonl)");
	if (first + 1 < argc &&
	    cmn_metric_select(argc - first - 1, argv + first + 1, sel, why,
			      sizeof(why)))
		return cmn_usage_error(&cmd, "%s", why);
	if (rank_name && !cmn_metric_find(rank_name))
		return cmn_usage_error(&cmd, "--rank: unknown metric '%s'", rank_name);
	ret = rp_load(&r, argv[first], why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s report: %s\n", cmn_prog, why);
		rp_free(&r);
		return 1;
	}
	if (first + 1 < argc)
		for (m = 0; m < (int)cmn_num_metrics; m++)
			r.present[m] = r.present[m] && sel[m];
	rank = rp_rank_metric(&r, rank_name);
	if (rank_name && rank < 0) {
		fprintf(stderr, "%s report: %s: no values of %s in the file\n",
			cmn_prog, argv[first], rank_name);
		rp_free(&r);
		return 1;
	}
	if (json)
		report_json(&r, rank, out);
	else
		report_text(&r, rank, top, out);
	ret = 0;
	if (svg) {
		ret = rp_svg(&r, rank, !strcmp(scale, "relative"), svg, why,
			     sizeof(why));
		if (ret) {
			fprintf(stderr, "%s report: --svg %s: %s\n", cmn_prog, svg, why);
			ret = 1;
		}
	}
	rp_free(&r);
	return ret;
}
