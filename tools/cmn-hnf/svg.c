// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf report --svg: plain SVG 1.1 written by hand, no scripts, no
 * external resources. One time-series panel per metric (each mesh and the
 * total; the threshold dashed, the total's intervals past it shaded), then
 * for a --per-hnf recording one panel per mesh with each HN-F's ranking
 * metric over time, then
 * per mesh a heat map of the HN-Fs on the mesh coloured by the ranking
 * metric over the whole run, on a scale shared by all meshes (absolute)
 * or each mesh's own (relative), with its bounds drawn.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

#define SVG_W		960
#define PANEL_H		170
#define PLOT_L		80
#define PLOT_R		(SVG_W - 150)
#define CELL		78

static const char *const series_color[] = {
	"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2",
	"#17becf", "#bcbd22",
};

/* Text content: XML escapes, bad UTF-8 as U+FFFD */
static void xml_text(FILE *o, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n;

	while (*p) {
		switch (*p) {
		case '&':
			fputs("&amp;", o);
			break;
		case '<':
			fputs("&lt;", o);
			break;
		case '>':
			fputs("&gt;", o);
			break;
		case '"':
			fputs("&quot;", o);
			break;
		default:
			if (*p < 0x20) {
				fputc(' ', o);
				break;
			}
			n = cmn_utf8_len(p);
			if (!n) {
				fputs("&#xfffd;", o);
				break;
			}
			fwrite(p, 1, n, o);
			p += n;
			continue;
		}
		p++;
	}
}

__printf(6, 7)
static void svg_text(FILE *o, double x, double y, const char *attrs,
		     const char *anchor, const char *fmt, ...);

static void svg_text(FILE *o, double x, double y, const char *attrs,
		     const char *anchor, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(o, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" %s>", x, y,
		anchor, attrs);
	xml_text(o, buf);
	fputs("</text>\n", o);
}

static void svg_rect(FILE *o, double x, double y, double w, double h,
		     const char *attrs)
{
	fprintf(o, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" %s/>\n",
		x, y, w, h, attrs);
}

static void svg_line(FILE *o, double x1, double y1, double x2, double y2,
		     const char *attrs)
{
	fprintf(o, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" %s/>\n",
		x1, y1, x2, y2, attrs);
}

/* A round step for about @n ticks over @range */
static double nice_step(double range, int n)
{
	double raw = range / n, mag, f;

	if (!(raw > 0))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f < 1.5 ? 1 : f < 3.5 ? 2 : f < 7.5 ? 5 : 10) * mag;
}

static void fmt_tick(double v, char *buf, size_t len)
{
	if (fabs(v) >= 1e6 || (fabs(v) < 0.001 && v != 0))
		snprintf(buf, len, "%.2g", v);
	else
		snprintf(buf, len, "%g", v);
}

/* A unit of the panel: meshes and the total, or the HN-Fs of mesh @pmu */
static bool in_panel(const struct rp_unit *u, const char *pmu)
{
	return pmu ? u->hnf >= 0 && !strcmp(u->pmu, pmu) : u->hnf < 0;
}

/*
 * One metric over time: of each mesh and the total (@pmu NULL), or of
 * each HN-F of mesh @pmu (a --per-hnf recording)
 */
static void draw_panel(FILE *o, const struct rp_run *r, int m, const char *pmu,
		       double y0)
{
	double lo = INFINITY, hi = -INFINITY, limit, tmin, tmax, step, v, y;
	double px0 = PLOT_L, px1 = PLOT_R, py0 = y0 + 30, py1 = y0 + PANEL_H - 30;
	char op[3], tick[32], attrs[96];
	int i, k, c = 0;
	bool thr;

	tmin = r->t[0] - r->len[0];
	tmax = r->t[r->niv - 1];
	if (!(tmax > tmin))
		tmax = tmin + 1;
	for (i = 0; i < r->nunits; i++) {
		if (!in_panel(&r->units[i], pmu))
			continue;
		for (k = 0; k < r->niv; k++) {
			v = r->units[i].v[m][k];
			if (isnan(v))
				continue;
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	thr = cmn_threshold_parse(cmn_metrics[m].threshold, op, &limit);
	if (isinf(lo)) {
		lo = 0;
		hi = 1;
	}
	/* show the threshold when it is near the data */
	if (thr && limit <= hi * 2 + 1)
		hi = fmax(hi, limit);
	lo = fmin(lo, 0);
	if (!(hi > lo))
		hi = lo + 1;
	hi += (hi - lo) * 0.08;

#define SX(t) (px0 + ((t) - tmin) / (tmax - tmin) * (px1 - px0))
#define SY(v) (py1 - ((v) - lo) / (hi - lo) * (py1 - py0))

	if (pmu)
		fprintf(o, "<g class=\"hnf-series\" id=\"hnf-series-%s\">\n", pmu);
	else
		fprintf(o, "<g class=\"panel\" id=\"panel-%s\">\n", cmn_metrics[m].name);
	svg_text(o, px0, y0 + 18, "font-size=\"15\" font-weight=\"bold\"", "start",
		 "%s%s%s (%s)%s%s", pmu ? pmu : "", pmu ? ", each HN-F: " : "",
		 cmn_metrics[m].name, cmn_metrics[m].unit,
		 thr ? "   threshold " : "", thr ? cmn_metrics[m].threshold : "");
	svg_rect(o, px0, py0, px1 - px0, py1 - py0, "fill=\"#fafafa\" stroke=\"#999\"");
	/* the total's intervals past the threshold, one band per stretch */
	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];
		int first = -1;

		if (pmu || strcmp(u->pmu, "total"))
			continue;
		for (k = 0; k <= r->niv; k++) {
			bool hit = k < r->niv &&
				   cmn_threshold_hit(cmn_metrics[m].threshold, u->v[m][k]);

			if (hit && first < 0)
				first = k;
			if (hit || first < 0)
				continue;
			snprintf(attrs, sizeof(attrs),
				 "class=\"past\" data-intervals=\"%d\" fill=\"#f4c7c3\"",
				 k - first);
			svg_rect(o, SX(fmax(r->t[first] - r->len[first], tmin)), py0,
				 SX(r->t[k - 1]) - SX(fmax(r->t[first] - r->len[first], tmin)),
				 py1 - py0, attrs);
			first = -1;
		}
	}
	step = nice_step(hi - lo, 4);
	for (v = ceil(lo / step) * step; v <= hi; v += step) {
		y = SY(v);
		svg_line(o, px0, y, px1, y, "stroke=\"#ddd\"");
		fmt_tick(fabs(v) < step / 1e6 ? 0 : v, tick, sizeof(tick));
		svg_text(o, px0 - 6, y + 4, "font-size=\"11\"", "end", "%s", tick);
	}
	step = nice_step(tmax - tmin, 6);
	for (v = ceil(tmin / step) * step; v <= tmax + step / 1000; v += step) {
		fmt_tick(fabs(v) < step / 1e6 ? 0 : v, tick, sizeof(tick));
		svg_text(o, SX(v), py1 + 14, "font-size=\"11\"", "middle", "%s s", tick);
	}
	if (thr && limit >= lo && limit <= hi)
		svg_line(o, px0, SY(limit), px1, SY(limit),
			 "class=\"threshold\" stroke=\"#d62728\" stroke-dasharray=\"6,4\"");
	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];
		const char *col;
		bool total = !pmu && !strcmp(u->pmu, "total");
		char label[CMN_NAME_LEN + 16];
		int pts = 0;

		if (!in_panel(u, pmu))
			continue;
		col = total ? "#000" : series_color[c++ % ARRAY_SIZE(series_color)];
		if (pmu)
			snprintf(label, sizeof(label), "H%d", u->hnf);
		else
			snprintf(label, sizeof(label), "%s", u->pmu);
		fprintf(o, "<polyline class=\"%s\" fill=\"none\" stroke=\"%s\"",
			pmu ? "hnf-line" : "series", col);
		if (pmu)
			fprintf(o, " data-hnf=\"%d\"", u->hnf);
		fprintf(o, " stroke-width=\"%s\" points=\"", total ? "2" : "1.5");
		for (k = 0; k < r->niv; k++) {
			v = u->v[m][k];
			if (isnan(v))
				continue;
			fprintf(o, "%s%.1f,%.1f", pts++ ? " " : "", SX(r->t[k]), SY(v));
		}
		fputs("\"><title>", o);
		xml_text(o, u->pmu);
		if (pmu)
			fprintf(o, " HN-F %d nodeid 0x%x (%d,%d)", u->hnf, u->nodeid,
				u->x, u->y);
		fputs("</title></polyline>\n", o);
		/* the legend, as far as the panel has room */
		if (15 * (total ? 0 : c) > py1 - py0 - 10)
			continue;
		svg_text(o, px1 + 10, py0 + 14 + 15 * (total ? 0 : c), "font-size=\"12\"",
			 "start", "%s", label);
		snprintf(attrs, sizeof(attrs), "stroke=\"%s\" stroke-width=\"2\"", col);
		svg_line(o, PLOT_R + 2, py0 + 10 + 15 * (total ? 0 : c), PLOT_R + 8,
			 py0 + 10 + 15 * (total ? 0 : c), attrs);
	}
	fputs("</g>\n", o);
#undef SX
#undef SY
}

/* Cold to hot, as cmn-hnf top */
static void heat_color(double f, char *buf, size_t len)
{
	static const int stop[5][3] = {
		{ 44, 123, 182 }, { 171, 217, 233 }, { 255, 255, 191 },
		{ 253, 174, 97 }, { 215, 25, 28 },
	};
	int i, c[3], k;
	double t;

	if (isnan(f)) {
		snprintf(buf, len, "#cccccc");
		return;
	}
	f = fmin(fmax(f, 0), 1) * 4;
	i = f >= 4 ? 3 : (int)f;
	t = f - i;
	for (k = 0; k < 3; k++)
		c[k] = (int)lround(stop[i][k] + (stop[i + 1][k] - stop[i][k]) * t);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* The heat scale over the HN-Fs of @pmu, or of every mesh (NULL) */
static void heat_range(const struct rp_run *r, int rank, const char *pmu,
		       double *lo, double *hi)
{
	double v;
	int i;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < r->nunits; i++) {
		if (r->units[i].hnf < 0 || (pmu && strcmp(r->units[i].pmu, pmu)))
			continue;
		v = rp_run_value(&r->units[i], rank);
		if (isnan(v) || isinf(v))
			continue;
		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
}

/* The HN-Fs of mesh @pmu on its grid; returns the height used */
static double draw_heatmap(FILE *o, const struct rp_run *r, int rank,
			   bool relative, const char *pmu, double y0)
{
	double lo, hi, v, x0 = PLOT_L;
	int i, mx = 0, my = 0, x, y, k, slot[8][8];
	char col[16], val[32], attrs[64];

	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];

		if (strcmp(u->pmu, pmu))
			continue;
		if (u->hnf < 0 && u->mesh_x > 0) {
			mx = u->mesh_x;
			my = u->mesh_y;
		}
		if (u->hnf < 0)
			continue;
		mx = u->x + 1 > mx ? u->x + 1 : mx;
		my = u->y + 1 > my ? u->y + 1 : my;
	}
	if (mx < 1 || my < 1 || mx > 8 || my > 8)
		return 0;
	/* absolute: one scale for every mesh, a % metric on 0 to 100 */
	heat_range(r, rank, relative ? pmu : NULL, &lo, &hi);
	if (!relative && !strcmp(cmn_metrics[rank].unit, "%")) {
		lo = 0;
		hi = 100;
	} else if (!relative) {
		lo = isinf(lo) ? 0 : fmin(lo, 0);
		hi = isinf(hi) ? lo + 1 : lo + cmn_nice_ceil(hi - lo);
	}
	fprintf(o, "<g class=\"heatmap\" id=\"heatmap-%s\" data-scale=\"%s\"", pmu,
		relative ? "relative" : "absolute");
	fprintf(o, " data-lo=\"%g\" data-hi=\"%g\">\n", lo, hi);
	svg_text(o, x0, y0 + 18, "font-size=\"15\" font-weight=\"bold\"", "start",
		 "%s: HN-Fs by %s over the run (%s), y grows upwards", pmu,
		 cmn_metrics[rank].name, cmn_metrics[rank].unit);
	y0 += 30;
	for (y = 0; y < my; y++) {
		for (x = 0; x < mx; x++) {
			double cx = x0 + 30 + x * CELL, cy = y0 + (my - 1 - y) * CELL;

			svg_rect(o, cx, cy, CELL - 4, CELL - 4,
				 "fill=\"#f2f2f2\" stroke=\"#bbb\"");
			slot[x][y] = 0;
		}
		svg_text(o, x0 + 22, y0 + (my - 1 - y) * CELL + CELL / 2, "font-size=\"11\"",
			 "end", "y=%d", y);
	}
	for (x = 0; x < mx; x++)
		svg_text(o, x0 + 30 + x * CELL + CELL / 2 - 2, y0 + my * CELL + 12,
			 "font-size=\"11\"", "middle", "x=%d", x);
	for (i = 0; i < r->nunits; i++) {
		const struct rp_unit *u = &r->units[i];
		double cx, cy, f;

		if (strcmp(u->pmu, pmu) || u->hnf < 0 || u->x < 0 || u->y < 0 ||
		    u->x >= mx || u->y >= my || slot[u->x][u->y] >= 4)
			continue;
		k = slot[u->x][u->y]++;
		v = rp_run_value(u, rank);
		f = hi > lo ? (v - lo) / (hi - lo) : 0.5;
		heat_color(f, col, sizeof(col));
		/* up to four HN-Fs per XP, in the quarters of its cell */
		cx = x0 + 30 + u->x * CELL + 2 + (k % 2) * (CELL - 8) / 2;
		cy = y0 + (my - 1 - u->y) * CELL + 2 + (k / 2) * (CELL - 8) / 2;
		fprintf(o, "<rect class=\"hnf\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%d\"",
			cx, cy, (CELL - 10) / 2, (CELL - 10) / 2);
		fprintf(o, " fill=\"%s\" stroke=\"#555\"><title>", col);
		st_value_str(v, val, sizeof(val));
		xml_text(o, u->pmu);
		fprintf(o, " HN-F %d nodeid 0x%x (%d,%d): %s %s</title></rect>\n",
			u->hnf, u->nodeid, u->x, u->y, val, cmn_metrics[rank].unit);
		svg_text(o, cx + (CELL - 10) / 4.0, cy + 13, "font-size=\"10\"", "middle",
			 "H%d", u->hnf);
		svg_text(o, cx + (CELL - 10) / 4.0, cy + 26, "font-size=\"9\"", "middle",
			 "%s", val);
	}
	/* the colour scale, its bounds and what it is */
	for (k = 0; k <= 20; k++) {
		heat_color(k / 20.0, col, sizeof(col));
		snprintf(attrs, sizeof(attrs), "fill=\"%s\"", col);
		svg_rect(o, x0 + 30 + mx * CELL + 30, y0 + (20 - k) * 8.0, 12, 8, attrs);
	}
	for (k = 0; k <= 4; k++) {
		v = lo + (hi - lo) * k / 4;
		st_value_str(isinf(lo) || isinf(hi) ? NAN : v, val, sizeof(val));
		svg_text(o, x0 + 30 + mx * CELL + 48, y0 + 172 - k * 40.0,
			 "class=\"scale\" font-size=\"11\"", "start", "%s%s%s", val,
			 k == 4 ? " " : "", k == 4 ? cmn_metrics[rank].unit : "");
	}
	svg_text(o, x0 + 30 + mx * CELL + 30, y0 + 192, "font-size=\"11\" fill=\"#555\"",
		 "start", "%s", relative ? "relative: this mesh's min to max" :
		 "absolute: the same scale on every mesh");
	fputs("</g>\n", o);
	return 30 + my * CELL + 30 > 230 ? 30 + my * CELL + 30 : 230;
}

int rp_svg(const struct rp_run *r, int rank, bool relative, const char *path,
	   char *why, size_t why_len)
{
	const char *pmus[CMN_MAX_PMUS];
	int npmu = 0, i, k, m, ret = 0;
	char *body = NULL;
	size_t blen = 0;
	FILE *o, *b;
	double y;

	for (i = 0; i < r->nunits && npmu < CMN_MAX_PMUS; i++) {
		if (r->units[i].hnf < 0)
			continue;
		for (k = 0; k < npmu && strcmp(pmus[k], r->units[i].pmu); k++)
			;
		if (k == npmu)
			pmus[npmu++] = r->units[i].pmu;
	}
	/* the body first, to know the height */
	b = open_memstream(&body, &blen);
	if (!b) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	svg_text(b, PLOT_L, 28, "font-size=\"18\" font-weight=\"bold\"", "start",
		 "cmn-hnf report: %s", r->path);
	svg_text(b, PLOT_L, 48, "font-size=\"12\" fill=\"#555\"", "start",
		 "%d intervals, %.1f s; per mesh and in total; shaded: the total past the threshold",
		 r->niv, r->t[r->niv - 1] - (r->t[0] - r->len[0]));
	y = 60;
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!r->present[m])
			continue;
		draw_panel(b, r, m, NULL, y);
		y += PANEL_H;
	}
	/* a --per-hnf recording: each HN-F over time, by the ranking metric */
	for (k = 0; rank >= 0 && k < npmu; k++) {
		draw_panel(b, r, rank, pmus[k], y);
		y += PANEL_H;
	}
	for (k = 0; rank >= 0 && k < npmu; k++)
		y += draw_heatmap(b, r, rank, relative, pmus[k], y) + 10;
	if (fclose(b)) {
		free(body);
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	o = fopen(path, "w");
	if (!o) {
		ret = -errno;
		snprintf(why, why_len, "%s", strerror(errno));
		free(body);
		return ret;
	}
	fprintf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"");
	fprintf(o, " width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\"", SVG_W,
		y + 10, SVG_W, y + 10);
	fputs(" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n", o);
	fputs("<title>", o);
	xml_text(o, r->path);
	fputs("</title>\n", o);
	fprintf(o, "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n");
	fwrite(body, 1, blen, o);
	fputs("</svg>\n", o);
	free(body);
	if (fclose(o))
		ret = -errno;
	if (ret)
		snprintf(why, why_len, "%s", strerror(-ret));
	return ret;
}
