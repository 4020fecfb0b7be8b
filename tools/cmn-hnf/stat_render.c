// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat: from the counts just read to units (HN-Fs, meshes, the
 * total) and to the outputs: table, CSV, JSON Lines, Prometheus text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat.h"

/* Fill the leaf counts of (pmu, hnf) from the groups just read */
static void leaf_counts(struct st_ctx *c, int p, int h, double seconds,
			bool cumulative, struct cmn_counts *out)
{
	const struct cmn_terms *terms;
	int i, k, t, m;

	cmn_counts_init(out);
	out->seconds = seconds;
	out->cycles = NAN;
	out->ncycles = 1;
	/* a stat -e event of another mesh: no value here, not 0 */
	for (m = (int)cmn_num_builtin_metrics; m < (int)cmn_num_metrics; m++)
		if (!st_metric_on_pmu(c, m, p))
			for (t = 0; t < CMN_MAX_TERMS; t++)
				out->v[m][t] = NAN;
	for (i = 0; i < c->ngroups; i++) {
		struct st_group *g = &c->groups[i];

		if (g->pmu != p)
			continue;
		if (g->metric < 0) {
			out->cycles = cumulative ? g->ev[0].total : g->ev[0].delta;
			continue;
		}
		if (g->hnf != h)
			continue;
		for (m = 0; m < (int)cmn_num_metrics; m++) {
			if (!(g->mmask & (1ULL << m)))
				continue;
			terms = cmn_metric_terms(m);
			for (t = 0; t < terms->n; t++) {
				for (k = 0; k < g->nev; k++) {
					if (strcmp(g->ev[k].name, terms->name[t]))
						continue;
					out->v[m][t] = cumulative ? g->ev[k].total :
						       g->ev[k].delta;
					if (g->ev[k].frac < out->running)
						out->running = g->ev[k].frac;
				}
			}
		}
	}
}

const char *st_value_str(double v, char *buf, size_t len)
{
	if (isnan(v) || isinf(v))
		snprintf(buf, len, "n/a");
	else if (fabs(v) >= 1e6)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

/* ---- frames ---- */

/* Add mesh @p to the total, but for the events it does not count */
static void add_counted(const struct st_ctx *c, int p, struct cmn_counts *total,
			const struct cmn_counts *mesh)
{
	struct cmn_counts tmp = *mesh;
	int m, t;

	for (m = (int)cmn_num_builtin_metrics; m < (int)cmn_num_metrics; m++)
		if (!st_metric_on_pmu(c, m, p))
			for (t = 0; t < CMN_MAX_TERMS; t++)
				tmp.v[m][t] = 0;
	cmn_counts_add(total, &tmp);
}

/* The counts of every unit of an interval; cumulative ones in @cum */
static int frame_units(struct st_ctx *c, struct st_frame *f, bool cumulative,
		       struct st_unit *rows, struct cmn_counts *mesh,
		       struct cmn_counts *total)
{
	int p, h, n = 0;

	cmn_counts_init(total);
	for (p = 0; p < c->npmu; p++) {
		if (c->o.per_hnf) {
			cmn_counts_init(&mesh[p]);
			for (h = 0; h < c->pmus[p].topo.nhnf; h++) {
				rows[n].p = p;
				rows[n].h = h;
				leaf_counts(c, p, h, f->seconds, cumulative,
					    &rows[n].cn);
				cmn_counts_add(&mesh[p], &rows[n].cn);
				n++;
			}
		} else {
			leaf_counts(c, p, -1, f->seconds, cumulative, &mesh[p]);
		}
		add_counted(c, p, total, &mesh[p]);
	}
	return n;
}

int st_frame_build(struct st_ctx *c, struct st_frame *f)
{
	int p, i, maxrows = 0;

	for (p = 0; p < c->npmu; p++)
		maxrows += c->o.per_hnf ? c->pmus[p].topo.nhnf : 0;
	f->mesh = calloc(c->npmu > 0 ? (size_t)c->npmu : 1, sizeof(*f->mesh));
	f->rows = calloc(maxrows ? maxrows : 1, sizeof(*f->rows));
	if (!f->mesh || !f->rows) {
		st_frame_free(f);
		return -ENOMEM;
	}
	f->nrows = frame_units(c, f, false, f->rows, f->mesh, &f->total);
	f->run_min = 1;
	f->run_max = 0;
	for (i = 0; i < f->nrows; i++) {
		f->run_min = fmin(f->run_min, f->rows[i].cn.running);
		f->run_max = fmax(f->run_max, f->rows[i].cn.running);
	}
	return 0;
}

void st_frame_free(struct st_frame *f)
{
	free(f->rows);
	free(f->mesh);
	f->rows = NULL;
	f->mesh = NULL;
}

/* The distinct event names of the selected metrics, with their values */
struct unit_event {
	const char *name;
	double v;
};

static int unit_events(const struct st_ctx *c, const struct cmn_counts *cn,
		       struct unit_event *ev, int max)
{
	const struct cmn_terms *terms;
	int m, t, k, n = 0;

	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		terms = cmn_metric_terms(m);
		for (t = 0; t < terms->n; t++) {
			const char *name = terms->name[t];

			if (!strcmp(name, CMN_DURATION_TIME))
				continue;
			for (k = 0; k < n && strcmp(ev[k].name, name); k++)
				;
			if (k < n || n == max)
				continue;
			ev[n].name = name;
			ev[n].v = !strcmp(name, CMN_DTC_CYCLES) ? cn->cycles :
				  cn->v[m][t];
			n++;
		}
	}
	return n;
}

#define ST_MAX_EVENTS	64

/* ---- JSON Lines ---- */

static void json_unit(struct st_ctx *c, struct cmn_json *j, const char *pmu,
		      int p, int h, const struct cmn_counts *cn)
{
	struct unit_event ev[ST_MAX_EVENTS];
	int m, k, n;
	double v;

	cj_obj(j);
	cj_kstr(j, "pmu", pmu);
	if (h >= 0) {
		const struct cmn_hnf_node *nd = &c->pmus[p].topo.hnf[h];

		cj_kint(j, "hnf", nd->lid);
		cj_kint(j, "nodeid", nd->nodeid);
		cj_kint(j, "x", nd->x);
		cj_kint(j, "y", nd->y);
		cj_kint(j, "port", nd->port);
		cj_kint(j, "dev", nd->dev);
	} else {
		cj_key(j, "hnf");
		cj_null(j);
		cj_key(j, "nodeid");
		cj_null(j);
		if (p >= 0 && c->pmus[p].topo.mesh_x) {
			cj_kint(j, "mesh_x", c->pmus[p].topo.mesh_x);
			cj_kint(j, "mesh_y", c->pmus[p].topo.mesh_y);
		}
	}
	cj_knum(j, "running_pct", cn->running * 100.0);
	cj_key(j, "metrics");
	cj_obj(j);
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		v = cmn_metric_value(m, cn);
		cj_key(j, cmn_metrics[m].name);
		cj_obj(j);
		cj_knum(j, "value", v);
		cj_kstr(j, "unit", cmn_metrics[m].unit);
		cj_kbool(j, "flagged", cmn_threshold_hit(cmn_metrics[m].threshold, v));
		cj_obj_end(j);
	}
	cj_obj_end(j);
	cj_key(j, "events");
	cj_obj(j);
	n = unit_events(c, cn, ev, ST_MAX_EVENTS);
	for (k = 0; k < n; k++)
		cj_knum(j, ev[k].name, ev[k].v);
	cj_obj_end(j);
	cj_obj_end(j);
}

/* ---- per-HN-F ranking ---- */

struct imbalance {
	int metric;
	int nv;
	double mean, max, min, cv;
};

static void imbalance_of(const struct st_ctx *c, const struct st_frame *f,
			 struct imbalance *im)
{
	double sum = 0, sq = 0, v;
	int i;

	memset(im, 0, sizeof(*im));
	im->metric = st_sort_metric(c);
	im->max = -INFINITY;
	im->min = INFINITY;
	im->mean = NAN;
	if (im->metric < 0)
		return;
	for (i = 0; i < f->nrows; i++) {
		v = cmn_metric_value(im->metric, &f->rows[i].cn);
		if (isnan(v))
			continue;
		sum += v;
		sq += v * v;
		im->nv++;
		im->max = fmax(im->max, v);
		im->min = fmin(im->min, v);
	}
	if (!im->nv)
		return;
	im->mean = sum / im->nv;
	im->cv = im->mean > 0 ?
		 100.0 * sqrt(fmax(sq / im->nv - im->mean * im->mean, 0)) / im->mean :
		 NAN;
}

static int sort_metric_idx;

static int cmp_rows(const void *a, const void *b)
{
	const struct st_unit *x = a, *y = b;
	double vx = cmn_metric_value(sort_metric_idx, &x->cn);
	double vy = cmn_metric_value(sort_metric_idx, &y->cn);

	if (isnan(vx))
		return isnan(vy) ? 0 : 1;
	if (isnan(vy))
		return -1;
	return vx < vy ? 1 : vx > vy ? -1 : 0;
}

/* The rows of @f ranked by metric @m, highest first, in @out */
void st_rank(const struct st_frame *f, int m, struct st_unit *out)
{
	memcpy(out, f->rows, f->nrows * sizeof(*out));
	sort_metric_idx = m;
	qsort(out, f->nrows, sizeof(*out), cmp_rows);
}

static void json_imbalance(struct st_ctx *c, struct cmn_json *j,
			   const struct st_frame *f)
{
	struct imbalance im;

	imbalance_of(c, f, &im);
	if (im.metric < 0 || !im.nv || !(im.mean > 0))
		return;
	cj_key(j, "imbalance");
	cj_obj(j);
	cj_kstr(j, "metric", cmn_metrics[im.metric].name);
	cj_knum(j, "max_mean", im.max / im.mean);
	cj_knum(j, "min_mean", im.min / im.mean);
	cj_knum(j, "cv_pct", im.cv);
	/* below 100 % the HN-Fs were counted in different time slices */
	cj_kbool(j, "mixed_slices", f->run_min < 1.0);
	cj_knum(j, "running_min_pct", f->run_min * 100.0);
	cj_obj_end(j);
}

static void report_json(struct st_ctx *c, struct st_frame *f)
{
	struct cmn_json j;
	int h, p;

	cj_init(&j, c->out, false);
	cj_obj(&j);
	cj_key(&j, "time");
	cj_fixed(&j, f->time, 3);
	cj_key(&j, "epoch");
	cj_fixed(&j, f->epoch, 3);
	cj_key(&j, "interval_s");
	cj_fixed(&j, f->seconds, 6);
	if (c->o.per_hnf)
		json_imbalance(c, &j, f);
	cj_key(&j, "units");
	cj_arr(&j);
	for (h = 0; h < f->nrows; h++)
		json_unit(c, &j, c->pmus[f->rows[h].p].name, f->rows[h].p,
			  f->rows[h].h, &f->rows[h].cn);
	for (p = 0; p < c->npmu; p++)
		json_unit(c, &j, c->pmus[p].name, p, -1, &f->mesh[p]);
	json_unit(c, &j, "total", -1, -1, &f->total);
	cj_arr_end(&j);
	cj_obj_end(&j);
	cj_end(&j);
}

/* ---- CSV ---- */

#define ST_CSV_HEADER \
	"time,epoch,pmu,hnf,nodeid,kind,name,value,unit,running_pct,flagged\n"

/* A CSV field: quoted when it holds the separator or a quote */
static void csv_field(FILE *out, const char *s, char sep)
{
	if (!strchr(s, sep) && !strchr(s, '"')) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/* One row: the unit's columns, then kind, name, value, unit, running, flag */
static void csv_row(struct st_ctx *c, const char *pre, const char *kind,
		    const char *name, const char *v, const char *unit, double run,
		    bool flag)
{
	const char sep = c->o.sep;

	fprintf(c->out, "%s%c%s%c", pre, sep, kind, sep);
	csv_field(c->out, name, sep);
	fprintf(c->out, "%c%s%c", sep, v, sep);
	csv_field(c->out, unit, sep);
	fprintf(c->out, "%c%.1f%c%d\n", sep, run, sep, flag);
}

static void csv_unit(struct st_ctx *c, const struct st_frame *f,
		     const char *pmu, int p, int h, const struct cmn_counts *cn)
{
	struct unit_event ev[ST_MAX_EVENTS];
	const char sep = c->o.sep;
	char pre[160], v[64];
	int m, k, n;
	double x;

	if (h >= 0)
		snprintf(pre, sizeof(pre), "%.3f%c%.3f%c%s%c%d%c0x%x", f->time, sep,
			 f->epoch, sep, pmu, sep, c->pmus[p].topo.hnf[h].lid, sep,
			 c->pmus[p].topo.hnf[h].nodeid);
	else
		snprintf(pre, sizeof(pre), "%.3f%c%.3f%c%s%call%c", f->time, sep,
			 f->epoch, sep, pmu, sep, sep);
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		x = cmn_metric_value(m, cn);
		if (isnan(x))
			v[0] = '\0';
		else
			snprintf(v, sizeof(v), "%.6f", x);
		csv_row(c, pre, "metric", cmn_metrics[m].name, v, cmn_metrics[m].unit,
			cn->running * 100.0,
			cmn_threshold_hit(cmn_metrics[m].threshold, x));
	}
	n = unit_events(c, cn, ev, ST_MAX_EVENTS);
	for (k = 0; k < n; k++) {
		if (isnan(ev[k].v))
			v[0] = '\0';
		else
			snprintf(v, sizeof(v), "%.0f", ev[k].v);
		csv_row(c, pre, "event", ev[k].name, v,
			!strcmp(ev[k].name, CMN_DTC_CYCLES) ? "cycles" : "events",
			cn->running * 100.0, false);
	}
}

static void report_csv(struct st_ctx *c, struct st_frame *f)
{
	const char *hd = ST_CSV_HEADER;
	int h, p;

	if (!c->csv_header_done) {
		for (; *hd; hd++)
			fputc(*hd == ',' ? c->o.sep : *hd, c->out);
		c->csv_header_done = true;
	}
	for (h = 0; h < f->nrows; h++)
		csv_unit(c, f, c->pmus[f->rows[h].p].name, f->rows[h].p,
			 f->rows[h].h, &f->rows[h].cn);
	for (p = 0; p < c->npmu; p++)
		csv_unit(c, f, c->pmus[p].name, p, -1, &f->mesh[p]);
	csv_unit(c, f, "total", -1, -1, &f->total);
}

/* ---- tables ---- */

static int metric_width(int m)
{
	int w = (int)strlen(cmn_metrics[m].name);

	return w > 10 ? w : 10;
}

static void table_metric_header(struct st_ctx *c, FILE *out)
{
	int m;

	for (m = 0; m < (int)cmn_num_metrics; m++)
		if (c->o.sel[m])
			fprintf(out, " %*s", metric_width(m), cmn_metrics[m].name);
}

static void table_metric_row(struct st_ctx *c, FILE *out,
			     const struct cmn_counts *cn)
{
	char v[64];
	double x;
	int m;

	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!c->o.sel[m])
			continue;
		x = cmn_metric_value(m, cn);
		st_value_str(x, v, sizeof(v));
		if (cmn_threshold_hit(cmn_metrics[m].threshold, x))
			strncat(v, "!", sizeof(v) - strlen(v) - 1);
		fprintf(out, " %*s", metric_width(m), v);
	}
}

static void print_per_hnf_table(struct st_ctx *c, struct st_frame *f)
{
	struct st_unit *ranked;
	struct imbalance im;
	FILE *out = c->out;
	char xp[32], buf[64], hx[16];
	int i, p;
	double v;

	fprintf(out, "# %.3f s\n%-16s %4s %7s %9s", f->time, "pmu", "hnf",
		"nodeid", "x,y,p,d");
	table_metric_header(c, out);
	fputs("   run%\n", out);
	for (i = 0; i < f->nrows; i++) {
		const struct cmn_hnf_node *nd =
			&c->pmus[f->rows[i].p].topo.hnf[f->rows[i].h];

		snprintf(xp, sizeof(xp), "%d,%d,%d,%d", nd->x, nd->y, nd->port,
			 nd->dev);
		fprintf(out, "%-16s %4d %7s %9s", c->pmus[f->rows[i].p].name,
			nd->lid, cmn_hex(nd->nodeid, hx), xp);
		table_metric_row(c, out, &f->rows[i].cn);
		fprintf(out, " %6.1f\n", f->rows[i].cn.running * 100.0);
	}
	for (p = 0; p < c->npmu; p++) {
		fprintf(out, "%-16s %4s %7s %9s", c->pmus[p].name, "all", "", "");
		table_metric_row(c, out, &f->mesh[p]);
		fprintf(out, " %6.1f\n", f->mesh[p].running * 100.0);
	}
	if (c->npmu > 1) {
		fprintf(out, "%-16s %4s %7s %9s", "total", "all", "", "");
		table_metric_row(c, out, &f->total);
		fprintf(out, " %6.1f\n", f->total.running * 100.0);
	}

	/* Top-N and imbalance by the sort metric */
	imbalance_of(c, f, &im);
	if (im.metric < 0 || c->o.top <= 0 || !f->nrows)
		return;
	ranked = malloc(f->nrows * sizeof(*ranked));
	if (!ranked)
		return;
	st_rank(f, im.metric, ranked);
	fprintf(out, "# top %ld HN-Fs by %s (%s)\n",
		c->o.top < f->nrows ? c->o.top : f->nrows,
		cmn_metrics[im.metric].name, cmn_metrics[im.metric].unit);
	for (i = 0; i < f->nrows && i < c->o.top; i++) {
		const struct cmn_hnf_node *nd =
			&c->pmus[ranked[i].p].topo.hnf[ranked[i].h];

		v = cmn_metric_value(im.metric, &ranked[i].cn);
		fprintf(out, "  %-16s hnf %3d nodeid %6s xp (%d,%d) %12s",
			c->pmus[ranked[i].p].name, nd->lid, cmn_hex(nd->nodeid, hx), nd->x,
			nd->y, st_value_str(v, buf, sizeof(buf)));
		if (!isnan(v) && im.mean > 0)
			fprintf(out, "  x%.2f of mean", v / im.mean);
		fputc('\n', out);
	}
	free(ranked);
	if (im.nv && im.mean > 0)
		fprintf(out, "# imbalance: max/mean %.2f, min/mean %.2f, cv %.1f%%\n",
			im.max / im.mean, im.min / im.mean, im.cv);
	if (f->run_min < 1.0)
		fprintf(out,
			"# ! mixed time slices: the HN-Fs were counted %.1f-%.1f%% of the time, each in its own slices, so these figures compare estimates (select fewer metrics for 100%%)\n",
			f->run_min * 100.0, f->run_max * 100.0);
}

static void print_mesh_table(struct st_ctx *c, struct st_frame *f)
{
	FILE *out = c->out;
	char v[64];
	int p, m;
	double x;

	fprintf(out, "# %.3f s\n%-32s", f->time, "metric");
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
			const struct cmn_counts *cn = p < c->npmu ? &f->mesh[p] :
						      &f->total;

			x = cmn_metric_value(m, cn);
			flag |= cmn_threshold_hit(cmn_metrics[m].threshold, x);
			fprintf(out, " %14s", st_value_str(x, v, sizeof(v)));
		}
		fprintf(out, "  %-8s", cmn_metrics[m].unit);
		if (flag)
			fprintf(out, " ! %s", cmn_metrics[m].threshold);
		fputc('\n', out);
	}
	fputs("# running", out);
	for (p = 0; p < c->npmu; p++)
		fprintf(out, " %s %.1f%%", c->pmus[p].name,
			f->mesh[p].running * 100.0);
	fputc('\n', out);
}

/* ---- Prometheus text exposition ---- */

/*
 * Prometheus' conventions (prometheus.io/docs/practices/naming): base
 * units (ratios 0-1, bytes, seconds, hertz), the unit in the name, and a
 * family that can be summed: no total of its own samples in it. So each
 * level has its own gauge family: cmn_hnf_hnf_<m> per HN-F (--per-hnf),
 * cmn_hnf_mesh_<m> per mesh, cmn_hnf_<m> for the system; the counters
 * cmn_hnf_<event>_total only at the finest level counted (per HN-F with
 * --per-hnf, else per mesh), so that sum() over a family is the total.
 */
struct prom_unit_rule {
	const char *unit;	/* the metric's unit in metrics.def */
	double scale;		/* to the base unit */
	const char *from;	/* a suffix of the name replaced, or "" */
	const char *to;		/* by this, or appended */
	const char *help;	/* the base unit, for HELP */
};

static const struct prom_unit_rule prom_rules[] = {
	{ "%", 0.01, "_rate", "_ratio", "ratio, 0 to 1" },
	{ "MB/s", 1e6, "", "_bytes_per_second", "bytes per second" },
	{ "M/s", 1e6, "_rate", "s_per_second", "per second" },
	{ "MHz", 1e6, "", "_hertz", "hertz" },
	{ "/1K", 0.001, "_per_1k_accesses", "_per_access", "per access" },
	{ "cycles", 1, "", "_cycles", "mesh clock cycles" },
	{ "entries", 1, "", "", "entries" },
};

static const struct prom_unit_rule *prom_rule(const char *unit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(prom_rules); i++)
		if (!strcmp(prom_rules[i].unit, unit))
			return &prom_rules[i];
	return NULL;
}

int st_prom_name(int m, char *buf, size_t len, double *scale)
{
	const struct cmn_metric *cm = &cmn_metrics[m];
	const struct prom_unit_rule *r = prom_rule(cm->unit);
	size_t n = strlen(cm->name), k;

	*scale = 1;
	if (!r) {
		snprintf(buf, len, "%s", cm->name);
		return -ENOENT;
	}
	*scale = r->scale;
	k = strlen(r->from);
	if (k && n > k && !strcmp(cm->name + n - k, r->from))
		snprintf(buf, len, "%.*s%s", (int)(n - k), cm->name, r->to);
	else
		snprintf(buf, len, "%s%s", cm->name, r->to);
	return 0;
}

/* Labels of a unit: an HN-F (h >= 0) or a mesh */
static void prom_labels(FILE *o, const struct st_ctx *c, int p, int h)
{
	fprintf(o, "{pmu=\"%s\",mesh=\"%d\"", c->pmus[p].name,
		c->pmus[p].index);
	if (h >= 0) {
		const struct cmn_hnf_node *nd = &c->pmus[p].topo.hnf[h];

		fprintf(o, ",hnf=\"%d\",nodeid=\"0x%x\",x=\"%d\",y=\"%d\"",
			nd->lid, nd->nodeid, nd->x, nd->y);
	}
	fputc('}', o);
}

/* A HELP text on one line, as the format wants it */
static void prom_help(FILE *o, const char *name, const char *a, const char *b)
{
	const char *s;

	fprintf(o, "# HELP %s ", name);
	for (s = a; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", o);
		else if (*s == '\n')
			fputs("\\n", o);
		else
			fputc(*s, o);
	}
	if (b)
		fprintf(o, " (%s)", b);
	fputc('\n', o);
}

/* One gauge family of metric @m for the units of one level */
static void prom_gauge(FILE *o, const struct st_ctx *c, int m, const char *level,
		       const char *what, const struct st_unit *u, int nu)
{
	const struct prom_unit_rule *r = prom_rule(cmn_metrics[m].unit);
	char name[160], base[128], help[160], desc[256];
	double scale, v;
	int i;

	st_prom_name(m, base, sizeof(base), &scale);
	snprintf(name, sizeof(name), "cmn_hnf_%s%s", level, base);
	snprintf(help, sizeof(help), "%s; %s", what, r ? r->help : cmn_metrics[m].unit);
	/* the value is a ratio: the description must not say percentage */
	if (scale == 0.01 && !strncmp(cmn_metrics[m].desc, "Percentage of ", 14)) {
		snprintf(desc, sizeof(desc), "Fraction of %s", cmn_metrics[m].desc + 14);
		prom_help(o, name, desc, help);
	} else {
		prom_help(o, name, cmn_metrics[m].desc, help);
	}
	fprintf(o, "# TYPE %s gauge\n", name);
	for (i = 0; i < nu; i++) {
		v = cmn_metric_value(m, &u[i].cn) * scale;
		if (isnan(v) || isinf(v))
			continue;	/* no value: no sample */
		fputs(name, o);
		if (u[i].p >= 0)
			prom_labels(o, c, u[i].p, u[i].h);
		fprintf(o, " %.10g\n", v);
	}
}

static void prom_write(struct st_ctx *c, const struct st_frame *f,
		       const struct st_unit *crows, const struct cmn_counts *cmesh,
		       FILE *o)
{
	struct unit_event ev[ST_MAX_EVENTS], one[ST_MAX_EVENTS];
	struct st_unit *mesh, total = { .p = -1, .h = -1 };
	const struct st_unit *leaf;
	int m, i, k, n, nn, q, nleaf;
	char name[128];

	mesh = calloc(c->npmu > 0 ? (size_t)c->npmu : 1, sizeof(*mesh));
	if (!mesh)
		return;
	for (i = 0; i < c->npmu; i++)
		mesh[i] = (struct st_unit){ .p = i, .h = -1, .cn = f->mesh[i] };
	total.cn = f->total;
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		/* stat -e: an event's count is its counter below, not a gauge */
		if (!c->o.sel[m] || !strcmp(cmn_metrics[m].unit, "events"))
			continue;
		if (f->nrows)
			prom_gauge(o, c, m, "hnf_", "per HN-F", f->rows, f->nrows);
		prom_gauge(o, c, m, "mesh_", "per mesh", mesh, c->npmu);
		prom_gauge(o, c, m, "", "all meshes", &total, 1);
	}
	/* counters since the start, at the finest level only */
	for (i = 0; i < c->npmu; i++)
		mesh[i].cn = cmesh[i];
	leaf = f->nrows ? crows : mesh;
	nleaf = f->nrows ? f->nrows : c->npmu;
	n = unit_events(c, &total.cn, ev, ST_MAX_EVENTS);
	for (k = 0; k < n; k++) {
		const struct cmn_event *e = cmn_event_find(ev[k].name);
		bool cyc = !strcmp(ev[k].name, CMN_DTC_CYCLES);
		const struct st_unit *u = cyc ? mesh : leaf;
		int nu = cyc ? c->npmu : nleaf;

		snprintf(name, sizeof(name), "cmn_hnf_%s_total", ev[k].name);
		prom_help(o, name, e ? e->desc : "DTC cycle counter: mesh clock cycles, per mesh",
			  "scaled for multiplexing, since cmn-hnf started");
		fprintf(o, "# TYPE %s counter\n", name);
		for (i = 0; i < nu; i++) {
			nn = unit_events(c, &u[i].cn, one, ST_MAX_EVENTS);
			for (q = 0; q < nn && strcmp(one[q].name, ev[k].name); q++)
				;
			if (q == nn || isnan(one[q].v))
				continue;
			fputs(name, o);
			prom_labels(o, c, u[i].p, u[i].h);
			fprintf(o, " %.0f\n", one[q].v);
		}
	}
	prom_help(o, "cmn_hnf_running_ratio",
		  "Lowest fraction of the interval the unit's events were counted; below 1 the values are estimates",
		  NULL);
	fputs("# TYPE cmn_hnf_running_ratio gauge\n", o);
	for (i = 0; i < (f->nrows ? f->nrows : c->npmu); i++) {
		const struct st_unit *u = f->nrows ? &f->rows[i] : &mesh[i];

		fputs("cmn_hnf_running_ratio", o);
		prom_labels(o, c, u->p, u->h);
		fprintf(o, " %.6g\n", f->nrows ? u->cn.running : f->mesh[i].running);
	}
	free(mesh);
	prom_help(o, "cmn_hnf_interval_seconds", "Length of the last interval",
		  NULL);
	fprintf(o, "# TYPE cmn_hnf_interval_seconds gauge\ncmn_hnf_interval_seconds %.9f\n",
		f->seconds);
	prom_help(o, "cmn_hnf_last_update_timestamp_seconds",
		  "Unix time at the end of the last interval", NULL);
	fprintf(o, "# TYPE cmn_hnf_last_update_timestamp_seconds gauge\n");
	fprintf(o, "cmn_hnf_last_update_timestamp_seconds %.3f\n", f->epoch);
}

int st_write_prom(struct st_ctx *c, const struct st_frame *f, const char *path)
{
	struct st_unit *crows;
	struct cmn_counts *cmesh, ctotal;
	char tmp[CMN_PATH_LEN];
	int ret = 0;
	FILE *o;

	crows = calloc(f->nrows + 1, sizeof(*crows));
	cmesh = calloc(c->npmu > 0 ? (size_t)c->npmu : 1, sizeof(*cmesh));
	if (!crows || !cmesh) {
		ret = -ENOMEM;
		goto out;
	}
	frame_units(c, (struct st_frame *)f, true, crows, cmesh, &ctotal);
	/* the textfile collector must never see half a file: write, rename */
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	o = fopen(tmp, "w");
	if (!o) {
		ret = -errno;
		goto out;
	}
	prom_write(c, f, crows, cmesh, o);
	if (fflush(o) || fsync(fileno(o)))
		ret = -errno;
	if (fclose(o) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(cmesh);
	free(crows);
	return ret;
}

void st_report(struct st_ctx *c, struct st_frame *f)
{
	switch (c->o.fmt) {
	case FMT_JSON:
		report_json(c, f);
		break;
	case FMT_CSV:
		report_csv(c, f);
		break;
	case FMT_TABLE:
		if (c->o.clear && cmn_isatty(c->out))
			fputs("\033[H\033[2J", c->out);
		if (c->o.per_hnf)
			print_per_hnf_table(c, f);
		else
			print_mesh_table(c, f);
		break;
	case FMT_NONE:
		break;
	}
	fflush(c->out);
}
