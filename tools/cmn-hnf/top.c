// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf top: a live heat map of the mesh. Every interval the mesh map
 * of topo is drawn with each HN-F coloured by one metric, beside the
 * totals of the selected metrics and the top-N HN-Fs. Keys change the
 * metric, the interval and the mesh shown.
 *
 * The screen is plain VT100/ANSI (alternate screen, cursor moves, SGR
 * colours), so it works over SSH in any terminal of 80x24 or more. It
 * uses no colour when NO_COLOR is set or TERM is dumb or unset, and the
 * terminal is always given back: on q, on ^C and on SIGTERM (the loop
 * turns signals into a normal return), and by an atexit() handler.
 * --batch prints plain frames one after the other, for logs and tests.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "stat.h"

#define TOP_MIN_INTERVAL 100L
#define TOP_MAX_CW	14	/* widest map cell */
#define TOP_PER_XP	8	/* HN-Fs one XP can carry: 2 ports x 4 devices */

struct top {
	struct st_ctx *c;
	FILE *out;
	int rows, cols;		/* terminal size */
	int metric;		/* colouring metric, index in cmn_metrics */
	int pmu;		/* mesh shown */
	bool color;
	bool batch;
	bool relative;		/* heat scale: each mesh's min to max */
	bool paused;		/* the screen is frozen, counting goes on */
	bool tty;		/* we changed the terminal */
	struct termios saved;
	/* the last frame, kept to redraw at once on a key or a resize */
	struct st_frame last;
	bool have_last;
};

static struct top *top_active;	/* for the atexit() handler */

/* ---- terminal ---- */

static void term_restore(void)
{
	struct top *t = top_active;

	if (!t || !t->tty)
		return;
	t->tty = false;
	/* show the cursor, reset colours, leave the alternate screen */
	fputs("\033[0m\033[?25h\033[?1049l", t->out);
	fflush(t->out);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &t->saved);
}

static int term_setup(struct top *t)
{
	struct termios raw;

	if (tcgetattr(STDIN_FILENO, &t->saved))
		return -errno;
	raw = t->saved;
	/* keys one at a time, not echoed; ^C still raises SIGINT */
	raw.c_lflag &= ~(ICANON | ECHO);
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw))
		return -errno;
	t->tty = true;
	top_active = t;
	atexit(term_restore);
	fputs("\033[?1049h\033[?25l\033[2J", t->out);
	return 0;
}

static void term_size(struct top *t)
{
	struct winsize ws;
	const char *e;

	t->rows = 24;
	t->cols = 80;
	if (!ioctl(fileno(t->out), TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		t->rows = ws.ws_row;
		t->cols = ws.ws_col;
		return;
	}
	e = getenv("LINES");
	if (e && atoi(e) > 0)
		t->rows = atoi(e);
	e = getenv("COLUMNS");
	if (e && atoi(e) > 0)
		t->cols = atoi(e);
}

/* no-color.org: NO_COLOR set and not empty; and a terminal that has colour */
bool cmn_top_color_wanted(void)
{
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");

	if (nc && *nc)
		return false;
	return term && *term && strcmp(term, "dumb");
}

/* ---- drawing ---- */

/* A value in at most 6 characters: 25.0, 0.80, 1234, 12.3k, 4.5M */
static void compact(double v, char *buf, size_t len)
{
	double a = fabs(v);

	if (isnan(v) || isinf(v))
		snprintf(buf, len, "n/a");
	else if (a >= 1e9)
		snprintf(buf, len, "%.1fG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%.1fM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%.1fk", v / 1e3);
	else if (a >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* Five steps from cold to hot */
static const char *const heat_bg[] = {
	"\033[44;97m", "\033[46;30m", "\033[42;30m", "\033[43;30m", "\033[41;97m",
};

static const char heat_ch[] = " .:*#";

/*
 * The heat scale: [lo, hi] in five equal steps. Absolute (the default):
 * a ratio (unit %) on 0 to 100 %, any other metric from 0 to the highest
 * HN-F of all meshes rounded up to 1, 2, 2.5 or 5 times a power of ten,
 * so that a colour means the same on every mesh, a 1 % spread stays one
 * colour and the step bounds are round. Relative: the shown mesh's min
 * to max.
 */
struct heat {
	double lo, hi;
};

static void heat_scale(const struct top *t, struct heat *h)
{
	const struct st_frame *f = &t->last;
	double v;
	int i;

	h->lo = INFINITY;
	h->hi = -INFINITY;
	for (i = 0; i < f->nrows; i++) {
		if (t->relative && f->rows[i].p != t->pmu)
			continue;
		v = cmn_metric_value(t->metric, &f->rows[i].cn);
		if (isnan(v) || isinf(v))
			continue;
		h->lo = fmin(h->lo, v);
		h->hi = fmax(h->hi, v);
	}
	if (t->relative)
		return;
	if (!strcmp(cmn_metrics[t->metric].unit, "%")) {
		h->lo = 0;
		h->hi = 100;
		return;
	}
	h->lo = isinf(h->lo) ? 0 : fmin(h->lo, 0);
	if (isinf(h->hi) || !(h->hi > h->lo))
		h->hi = h->lo + 1;
	h->hi = h->lo + cmn_nice_ceil(h->hi - h->lo);
}

static int heat_step(double v, const struct heat *h)
{
	double s;

	if (isnan(v) || isinf(h->lo) || isinf(h->hi))
		return -1;
	if (!(h->hi > h->lo))
		return 2;
	s = floor((v - h->lo) / (h->hi - h->lo) * 5.0);
	return s < 0 ? 0 : s > 4 ? 4 : (int)s;
}

/* Lines of output, built up and clipped to the screen width */
struct screen {
	char line[160][640];
	int n;
};

/* Append to line @l */
static void put_at(struct screen *s, int l, const char *text)
{
	size_t used;

	if (l < 0 || l >= (int)ARRAY_SIZE(s->line))
		return;
	used = strlen(s->line[l]);
	snprintf(s->line[l] + used, sizeof(s->line[l]) - used, "%s", text);
	if (l >= s->n)
		s->n = l + 1;
}

/* Printed width of @str: escape sequences take no room */
static int vis_len(const char *str)
{
	int n = 0;

	while (*str) {
		if (*str == '\033') {
			while (*str && *str != 'm')
				str++;
			if (*str)
				str++;
			continue;
		}
		n++;
		str++;
	}
	return n;
}

/* Pad line @l with blanks to @width printed columns */
static void pad_to(struct screen *s, int l, int width)
{
	int n = vis_len(l < (int)ARRAY_SIZE(s->line) ? s->line[l] : "");

	while (n++ < width)
		put_at(s, l, " ");
}

/* Write @text at column @col of line @l (the line is padded to it) */
static void put_col(struct screen *s, int l, int col, const char *text)
{
	pad_to(s, l, col);
	put_at(s, l, text);
}

/* Print @str clipped to @width printed columns, without trailing blanks */
static void put_clipped(FILE *out, const char *str, int width)
{
	const char *end = str + strlen(str);
	int n = 0;

	while (end > str && end[-1] == ' ')
		end--;

	while (str < end) {
		if (*str == '\033') {
			while (*str && *str != 'm')
				fputc(*str++, out);
			if (*str)
				fputc(*str++, out);
			continue;
		}
		if (n++ < width)
			fputc(*str, out);
		str++;
	}
}

/* ---- the map of one mesh ---- */

struct cell_hnf {
	int row;		/* index in the frame's rows */
	double v;
};

/* The HN-Fs of one mesh by XP, and what their cells need */
struct mesh_cells {
	int p, mx, my;
	int nat[8][8];
	struct cell_hnf at[8][8][TOP_PER_XP];
	int per[8];		/* lines of each mesh row, at full height */
	int need_label;		/* cell width for "H<lid> <value>" */
	int need_value;		/* cell width for the value alone */
};

/* Map densities: every HN-F on its own line; one line per XP; no rules */
enum density { D_FULL, D_ONE, D_TIGHT };

static int hottest(const struct cell_hnf *c, int n)
{
	int i, j = 0;

	for (i = 1; i < n; i++)
		if (c[i].v > c[j].v || (isnan(c[j].v) && !isnan(c[i].v)))
			j = i;
	return j;
}

/* The text of a cell (without the heat character), "" for none */
static void cell_text(const struct top *t, const struct mesh_cells *mc, int x,
		      int y, int k, bool one_line, bool label, char *buf, size_t len)
{
	const struct cmn_topo *tp = &t->c->pmus[mc->p].topo;
	int n = mc->nat[x][y], j = k;
	char v[16];

	buf[0] = '\0';
	if (one_line && n > 1)
		j = hottest(mc->at[x][y], n);
	if (k >= n || (one_line && k))
		return;
	compact(mc->at[x][y][j].v, v, sizeof(v));
	if (label)
		snprintf(buf, len, "H%d%s %s",
			 tp->hnf[t->last.rows[mc->at[x][y][j].row].h].lid,
			 one_line && n > 1 ? "+" : "", v);
	else
		snprintf(buf, len, "%s%s", v, one_line && n > 1 ? "+" : "");
	if (cmn_threshold_hit(cmn_metrics[t->metric].threshold, mc->at[x][y][j].v))
		strncat(buf, "!", len - strlen(buf) - 1);
}

static bool gather(const struct top *t, int p, struct mesh_cells *mc)
{
	const struct st_frame *f = &t->last;
	const struct cmn_topo *tp = &t->c->pmus[p].topo;
	char buf[64];
	int i, x, y, k, w;

	memset(mc, 0, sizeof(*mc));
	mc->p = p;
	mc->mx = tp->mesh_x;
	mc->my = tp->mesh_y;
	if (mc->mx < 1 || mc->my < 1 || mc->mx > 8 || mc->my > 8)
		return false;
	for (i = 0; i < f->nrows; i++) {
		const struct cmn_hnf_node *nd;

		if (f->rows[i].p != p)
			continue;
		nd = &tp->hnf[f->rows[i].h];
		if (nd->x < 0 || nd->x >= mc->mx || nd->y < 0 || nd->y >= mc->my ||
		    mc->nat[nd->x][nd->y] == TOP_PER_XP)
			continue;
		mc->at[nd->x][nd->y][mc->nat[nd->x][nd->y]++] = (struct cell_hnf){
			i, cmn_metric_value(t->metric, &f->rows[i].cn) };
	}
	/*
	 * Without colour the heat is a character: in front of a bare value,
	 * and in front of a label where the cell has room for it, else in
	 * place of the blank between the HN-F and its value (draw_map()).
	 * So a label needs the same width with and without colour, and the
	 * screen and --batch keep the HN-F ids at the same widths.
	 */
	mc->need_value = 5;
	mc->need_label = 5;
	for (y = 0; y < mc->my; y++) {
		mc->per[y] = 1;
		for (x = 0; x < mc->mx; x++) {
			if (mc->nat[x][y] > mc->per[y])
				mc->per[y] = mc->nat[x][y];
			/* the widest text, on its own line or the hottest of the XP */
			for (k = 0; k < mc->nat[x][y]; k++) {
				cell_text(t, mc, x, y, k, false, true, buf, sizeof(buf));
				w = (int)strlen(buf);
				mc->need_label = w > mc->need_label ? w : mc->need_label;
				cell_text(t, mc, x, y, k, false, false, buf, sizeof(buf));
				w = (int)strlen(buf) + !t->color;
				mc->need_value = w > mc->need_value ? w : mc->need_value;
			}
			cell_text(t, mc, x, y, 0, true, true, buf, sizeof(buf));
			w = (int)strlen(buf);
			mc->need_label = w > mc->need_label ? w : mc->need_label;
			cell_text(t, mc, x, y, 0, true, false, buf, sizeof(buf));
			w = (int)strlen(buf) + !t->color;
			mc->need_value = w > mc->need_value ? w : mc->need_value;
		}
	}
	return true;
}

static int map_width(const struct mesh_cells *mc, int cw)
{
	return 7 + mc->mx * (cw + 1);
}

static int map_height(const struct mesh_cells *mc, enum density d)
{
	int y, h = 2;

	if (d == D_TIGHT)
		return 3 + mc->my;
	for (y = 0; y < mc->my; y++)
		h += (d == D_FULL ? mc->per[y] : 1) + 1;
	return h;
}

static void map_rule(struct screen *s, int l, int c0, const struct mesh_cells *mc,
		     int cw)
{
	char buf[32];
	int x;

	put_col(s, l, c0, "      +");
	for (x = 0; x < mc->mx; x++) {
		snprintf(buf, sizeof(buf), "%.*s+", cw,
			 "------------------------------");
		put_at(s, l, buf);
	}
}

/* The map of @mc at line @l0, column @c0; returns the lines used */
static int draw_map(const struct top *t, struct screen *s, const struct mesh_cells *mc,
		    int l0, int c0, int cw, enum density d, bool label,
		    const struct heat *h)
{
	/* no colour, and no room for the heat in front of the labels */
	bool gap = !t->color && label && cw <= mc->need_label;
	int x, y, k, l = l0, nrow, st, j;
	char buf[64], txt[128], *sp;

	put_col(s, l, c0, "      ");
	for (x = 0; x < mc->mx; x++) {
		snprintf(buf, sizeof(buf), " x=%-*d", cw - 2, x);
		put_at(s, l, buf);
	}
	l++;
	map_rule(s, l++, c0, mc, cw);
	for (y = mc->my - 1; y >= 0; y--) {
		nrow = d == D_FULL ? mc->per[y] : 1;
		for (k = 0; k < nrow; k++, l++) {
			snprintf(buf, sizeof(buf), k ? "      |" : "  y=%d |", y);
			put_col(s, l, c0, buf);
			for (x = 0; x < mc->mx; x++) {
				int n = mc->nat[x][y];

				cell_text(t, mc, x, y, k, nrow == 1, label, buf, sizeof(buf));
				if (!buf[0]) {
					snprintf(txt, sizeof(txt), "%*s|", cw, "");
					put_at(s, l, txt);
					continue;
				}
				j = nrow == 1 && n > 1 ? hottest(mc->at[x][y], n) : k;
				st = heat_step(mc->at[x][y][j].v, h);
				if (t->color && st >= 0) {
					snprintf(txt, sizeof(txt), "%s%-*.*s\033[0m|",
						 heat_bg[st], cw, cw, buf);
				} else if (gap) {
					/* "H28:0.80": the heat between HN-F and value */
					sp = strchr(buf, ' ');
					if (sp && st >= 0)
						*sp = heat_ch[st];
					snprintf(txt, sizeof(txt), "%-*.*s|", cw, cw, buf);
				} else {
					char mark[80];

					/* without colour the first character is the heat */
					snprintf(mark, sizeof(mark), "%c%s",
						 st < 0 ? ' ' : heat_ch[st], buf);
					snprintf(txt, sizeof(txt), "%-*.*s|", cw, cw, mark);
				}
				put_at(s, l, txt);
			}
		}
		if (d != D_TIGHT || !y)
			map_rule(s, l++, c0, mc, cw);
	}
	return l - l0;
}

/* ---- the totals and the ranking ---- */

/* Width of the metric name column of the totals */
static int totals_name_w(const struct top *t)
{
	int m, w = 10;

	for (m = 0; m < (int)cmn_num_metrics; m++)
		if (t->c->o.sel[m] && (int)strlen(cmn_metrics[m].name) > w)
			w = (int)strlen(cmn_metrics[m].name);
	return w > 22 ? 22 : w;
}

static int totals_width(const struct top *t)
{
	return totals_name_w(t) + 19;
}

static int totals_lines(const struct top *t)
{
	int m, n = 1;

	for (m = 0; m < (int)cmn_num_metrics; m++)
		n += t->c->o.sel[m];
	return n;
}

/* The totals of the selected metrics: a heading and one line each */
static int draw_totals(const struct top *t, struct screen *s, int l0, int c0)
{
	const struct st_frame *f = &t->last;
	int m, l = l0, nw = totals_name_w(t);
	char buf[160], v[64];
	double x;

	put_col(s, l++, c0, t->c->npmu > 1 ? "all meshes" : t->c->pmus[0].name);
	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!t->c->o.sel[m])
			continue;
		x = cmn_metric_value(m, &f->total);
		st_value_str(x, v, sizeof(v));
		/* the name gives way, never the value or its unit */
		snprintf(buf, sizeof(buf), "%c%-*.*s %9s%c%-7s",
			 m == t->metric ? '>' : ' ', nw, nw, cmn_metrics[m].name, v,
			 cmn_threshold_hit(cmn_metrics[m].threshold, x) ? '!' : ' ',
			 cmn_metrics[m].unit);
		put_col(s, l++, c0, buf);
	}
	return l - l0;
}

#define TOP_RANK_W	35

/* The HN-Fs ranked by the colouring metric, in at most @max lines */
static int draw_ranking(const struct top *t, struct screen *s, int l0, int c0,
			int max)
{
	const struct st_frame *f = &t->last;
	struct st_unit *ranked;
	char buf[160], v[64], hx[16];
	int i, l = l0, n;

	if (max < 2 || !f->nrows)
		return 0;	/* no heading without a line under it */
	ranked = malloc(f->nrows * sizeof(*ranked));
	if (!ranked)
		return 0;
	st_rank(f, t->metric, ranked);
	snprintf(buf, sizeof(buf), "top HN-Fs by %.*s", TOP_RANK_W - 13,
		 cmn_metrics[t->metric].name);
	put_col(s, l++, c0, buf);
	n = t->c->o.top > 0 ? (int)t->c->o.top : f->nrows;
	for (i = 0; i < f->nrows && i < n && l < l0 + max; i++) {
		const struct cmn_hnf_node *nd =
			&t->c->pmus[ranked[i].p].topo.hnf[ranked[i].h];

		st_value_str(cmn_metric_value(t->metric, &ranked[i].cn), v,
			     sizeof(v));
		snprintf(buf, sizeof(buf), "%2d m%-2d H%-3d %6s (%d,%d) %9s",
			 i + 1, t->c->pmus[ranked[i].p].index, nd->lid,
			 cmn_hex(nd->nodeid, hx), nd->x, nd->y, v);
		put_col(s, l++, c0, buf);
	}
	free(ranked);
	return l - l0;
}

/* ---- the screen ---- */

/* Append @seg to @buf (after @sep) if the line stays within @width columns */
static void add_seg(char *buf, size_t len, const char *sep, const char *seg,
		    int width)
{
	if (vis_len(buf) + (int)strlen(sep) + vis_len(seg) > width)
		return;
	strncat(buf, sep, len - strlen(buf) - 1);
	strncat(buf, seg, len - strlen(buf) - 1);
}

/*
 * The colouring metric and its unit, with the bounds of the five steps of
 * the heat scale @h, or where they do not fit @width, the ends of the scale
 */
static void scale_line(const struct top *t, const struct heat *h, int width,
		       char *buf, size_t len)
{
	char seg[160], a[32];
	int i;

	snprintf(buf, len, "%s [%s]", cmn_metrics[t->metric].name,
		 cmn_metrics[t->metric].unit);
	seg[0] = '\0';
	for (i = 0; i <= 5; i++) {
		if (isinf(h->lo) || isinf(h->hi))
			snprintf(a, sizeof(a), "n/a");
		else
			compact(h->lo + (h->hi - h->lo) * i / 5.0, a, sizeof(a));
		strncat(seg, a, sizeof(seg) - strlen(seg) - 1);
		if (i == 5)
			break;
		if (t->color)
			snprintf(a, sizeof(a), " %s  \033[0m ", heat_bg[i]);
		else
			snprintf(a, sizeof(a), " [%c] ", heat_ch[i]);
		strncat(seg, a, sizeof(seg) - strlen(seg) - 1);
	}
	add_seg(buf, len, "  ", seg, width);
	if (!strstr(buf, seg)) {
		/* too narrow for the steps: the ends of the scale */
		compact(h->lo, a, sizeof(a));
		snprintf(seg, sizeof(seg), "heat %s to ", isinf(h->lo) ? "n/a" : a);
		compact(h->hi, a, sizeof(a));
		strncat(seg, isinf(h->hi) ? "n/a" : a, sizeof(seg) - strlen(seg) - 1);
		strncat(seg, ", 5 steps", sizeof(seg) - strlen(seg) - 1);
		add_seg(buf, len, "  ", seg, width);
	}
}

/*
 * Two lines: what is shown (mesh, interval, running, paused), then the
 * scale line of the shown mesh (scale_line()); or, for --batch on the
 * relative scale, where each mesh's map has its own (draw_batch()), the
 * metric alone. A part that does not fit the width is left out whole,
 * never cut.
 */
static void header(struct top *t, struct screen *s, const struct heat *h,
		   int width)
{
	const struct cmn_pmu *pmu = &t->c->pmus[t->pmu];
	char buf[512], seg[160];

	snprintf(buf, sizeof(buf), "cmn-hnf top");
	snprintf(seg, sizeof(seg), "%s (%d/%d, %dx%d)", pmu->name, t->pmu + 1,
		 t->c->npmu, pmu->topo.mesh_x, pmu->topo.mesh_y);
	add_seg(buf, sizeof(buf), "  ", seg, width);
	snprintf(seg, sizeof(seg), "%ld ms", t->c->o.interval_ms);
	add_seg(buf, sizeof(buf), "  ", seg, width);
	add_seg(buf, sizeof(buf), "  ", t->relative ? "relative scale" :
		"absolute scale", width);
	if (t->last.run_min < 1.0) {
		snprintf(seg, sizeof(seg), "running %.0f%%!", t->last.run_min * 100.0);
		add_seg(buf, sizeof(buf), "  ", seg, width);
	}
	if (t->paused)
		add_seg(buf, sizeof(buf), "  ", "PAUSED", width);
	put_at(s, 0, buf);

	if (t->batch && t->relative) {
		snprintf(buf, sizeof(buf), "%s [%s]", cmn_metrics[t->metric].name,
			 cmn_metrics[t->metric].unit);
		add_seg(buf, sizeof(buf), "  ", "each mesh on its own scale, over its map",
			width);
	} else {
		scale_line(t, h, width, buf, sizeof(buf));
	}
	put_at(s, 1, buf);
}

/* The keys, as many as fit, whole */
static void key_bar(const struct top *t, char *buf, size_t len)
{
	static const char *const keys[] = {
		"q quit", "space pause", "m/M metric", "+/- interval", "p mesh",
		"s scale", "c colour",
	};
	size_t i;

	snprintf(buf, len, " %s", t->paused ? "PAUSED, space resumes" : keys[0]);
	for (i = t->paused ? 0 : 1; i < ARRAY_SIZE(keys); i++)
		if (!t->paused || i != 1)
			add_seg(buf, len, "  ", keys[i], t->cols - 1);
	strncat(buf, " ", len - strlen(buf) - 1);
}

/* The largest cell width from @need up that keeps the map within @room */
static int fit_cw(const struct mesh_cells *mc, int need, int room)
{
	int cw;

	for (cw = TOP_MAX_CW; cw >= need; cw--)
		if (map_width(mc, cw) <= room)
			return cw;
	return 0;
}

/*
 * The map alone in @cols columns, as the screen too small for the panels
 * and --batch draw it: with the HN-F labels where they fit, else with the
 * values alone. Returns the cell width; *@label says which.
 */
static int map_alone(const struct mesh_cells *mc, int cols, bool *label)
{
	int cw = fit_cw(mc, mc->need_label, cols);

	*label = cw > 0;
	if (!cw)
		cw = fit_cw(mc, mc->need_value, cols);
	return cw ? cw : mc->need_value;
}

/*
 * Lay out the map of the shown mesh and the panels in @rows x @cols, in
 * this order of preference: HN-F labels before bare values, a taller map
 * before a denser one, and the panels beside the map, or under it side by
 * side, or under it one over the other. Nothing is clipped: what does not
 * fit is left out whole (the ranking first, then the totals).
 */
static void layout(struct top *t, struct screen *s, int l0, int rows, int cols,
		   const struct heat *h)
{
	const int wa = totals_width(t), la = totals_lines(t);
	struct mesh_cells mc;
	int label, d, cw, mh, mw, l;
	bool lab;

	if (!gather(t, t->pmu, &mc)) {
		l = l0 + draw_totals(t, s, l0, 0) + 1;
		draw_ranking(t, s, l, 0, l0 + rows - l);
		return;
	}
	for (label = 1; label >= 0; label--) {
		for (d = D_FULL; d <= D_TIGHT; d++) {
			mh = map_height(&mc, d);
			if (mh > rows)
				continue;
			/* beside the map, right after it */
			cw = fit_cw(&mc, label ? mc.need_label : mc.need_value,
				    cols - 2 - (wa > TOP_RANK_W ? wa : TOP_RANK_W));
			if (cw && la <= rows) {
				mw = map_width(&mc, cw);
				draw_map(t, s, &mc, l0, 0, cw, d, label, h);
				l = l0 + draw_totals(t, s, l0, mw + 2) + 1;
				draw_ranking(t, s, l, mw + 2, l0 + rows - l);
				return;
			}
			cw = fit_cw(&mc, label ? mc.need_label : mc.need_value, cols);
			if (!cw || mh + 1 + la > rows)
				continue;
			l = l0 + draw_map(t, s, &mc, l0, 0, cw, d, label, h) + 1;
			if (wa + 2 + TOP_RANK_W <= cols) {
				/* under the map, side by side */
				draw_totals(t, s, l, 0);
				draw_ranking(t, s, l, wa + 2, l0 + rows - l);
			} else {
				l += draw_totals(t, s, l, 0) + 1;
				draw_ranking(t, s, l, 0, l0 + rows - l);
			}
			return;
		}
	}
	/*
	 * A terminal too small for map and totals: the map alone, still with
	 * the HN-F labels where they fit the width
	 */
	for (d = D_FULL; d <= D_TIGHT && map_height(&mc, d) > rows; d++)
		;
	cw = map_alone(&mc, cols, &lab);
	draw_map(t, s, &mc, l0, 0, cw, d > D_TIGHT ? D_TIGHT : d, lab, h);
}

/* --batch: every mesh's map, then the totals and the ranking */
static void draw_batch(struct top *t, struct screen *s, const struct heat *h)
{
	struct mesh_cells mc;
	struct heat hm = *h;
	int p, l = 3, cw, saved = t->pmu;
	char buf[512];
	bool label;

	for (p = 0; p < t->c->npmu; p++) {
		t->pmu = p;
		if (t->relative)
			heat_scale(t, &hm);
		snprintf(buf, sizeof(buf), "%s (%dx%d)", t->c->pmus[p].name,
			 t->c->pmus[p].topo.mesh_x, t->c->pmus[p].topo.mesh_y);
		put_at(s, l++, buf);
		if (!gather(t, p, &mc)) {
			put_at(s, l++, "  (no map: the mesh size is unknown)");
			l++;
			continue;
		}
		/* relative: each mesh's scale over its map */
		if (t->relative) {
			scale_line(t, &hm, t->cols, buf, sizeof(buf));
			put_at(s, l++, buf);
		}
		/* no height limit: every HN-F on its line */
		cw = map_alone(&mc, t->cols, &label);
		l += draw_map(t, s, &mc, l, 0, cw, D_FULL, label, &hm) + 1;
	}
	t->pmu = saved;
	if (totals_width(t) + 2 + TOP_RANK_W <= t->cols) {
		draw_totals(t, s, l, 0);
		draw_ranking(t, s, l, totals_width(t) + 2,
			     t->c->o.top > 0 ? (int)t->c->o.top + 1 : 11);
	} else {
		l += draw_totals(t, s, l, 0) + 1;
		draw_ranking(t, s, l, 0, t->c->o.top > 0 ? (int)t->c->o.top + 1 : 11);
	}
}

static void draw(struct top *t)
{
	struct screen *s;
	char keys[160];
	struct heat h;
	int i;

	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	if (!t->batch)
		term_size(t);
	heat_scale(t, &h);
	header(t, s, &h, t->cols);
	if (t->batch) {
		draw_batch(t, s, &h);
		for (i = 0; i < s->n; i++) {
			put_clipped(t->out, s->line[i], t->cols);
			fputc('\n', t->out);
		}
		fputc('\n', t->out);
		fflush(t->out);
		free(s);
		return;
	}
	/* title, scale, a blank line; the keys on the last line */
	layout(t, s, 3, t->rows - 4, t->cols, &h);
	fputs("\033[H", t->out);
	for (i = 0; i < t->rows - 1; i++) {
		fprintf(t->out, "\033[%d;1H\033[K", i + 1);
		if (i < s->n)
			put_clipped(t->out, s->line[i], t->cols);
	}
	key_bar(t, keys, sizeof(keys));
	fprintf(t->out, "\033[%d;1H\033[K\033[7m%s\033[0m", t->rows, keys);
	fflush(t->out);
	free(s);
}

/* ---- loop hooks ---- */

static void keep_frame(struct top *t, struct st_frame *f)
{
	st_frame_free(&t->last);
	t->last = *f;
	/* take the arrays over: the loop frees only what it still owns */
	f->rows = NULL;
	f->mesh = NULL;
	t->have_last = true;
}

static bool top_frame(struct st_ctx *c, struct st_frame *f, void *arg)
{
	struct top *t = arg;

	(void)c;
	/* paused: the screen keeps its frame, counting goes on */
	if (t->paused && t->have_last)
		return true;
	keep_frame(t, f);
	draw(t);
	return true;
}

static void next_metric(struct top *t, int dir)
{
	int m = t->metric, n = (int)cmn_num_metrics, i;

	for (i = 0; i < n; i++) {
		m = (m + dir + n) % n;
		if (t->c->o.sel[m])
			break;
	}
	t->metric = m;
}

static bool top_input(struct st_ctx *c, void *arg)
{
	struct top *t = arg;
	char k[16];
	ssize_t n, i;

	errno = 0;
	n = read(STDIN_FILENO, k, sizeof(k));
	/* readable but nothing to read: the terminal is gone */
	if (n <= 0 && errno != EINTR && errno != EAGAIN)
		return false;
	for (i = 0; i < n; i++) {
		switch (k[i]) {
		case 'q':
		case 'Q':
			return false;
		case 'm':
			next_metric(t, 1);
			break;
		case 'M':
			next_metric(t, -1);
			break;
		case '+':
			if (c->o.interval_ms <= 86400000L / 2)
				c->o.interval_ms *= 2;
			break;
		case '-':
			if (c->o.interval_ms / 2 >= TOP_MIN_INTERVAL)
				c->o.interval_ms /= 2;
			break;
		case 'p':
		case '\t':
			t->pmu = (t->pmu + 1) % c->npmu;
			break;
		case 'c':
			t->color = !t->color;
			break;
		case ' ':
			t->paused = !t->paused;
			break;
		case 's':
			t->relative = !t->relative;
			break;
		default:
			break;
		}
	}
	if (t->have_last)
		draw(t);
	return true;
}

static void top_resize(struct st_ctx *c, void *arg)
{
	struct top *t = arg;

	(void)c;
	if (t->have_last) {
		fputs("\033[2J", t->out);
		draw(t);
	}
}

int cmd_top(int argc, char **argv, FILE *out)
{
	struct st_ctx c = { .out = out };
	struct top t = { .c = &c, .out = out, .pmu = 0 };
	static const char *const scales[] = { "absolute", "relative", NULL };
	const char *metric = NULL, *scale = "absolute";
	bool batch = false, nocolor = false;
	long pmu = 0;
	const struct cmn_opt opts[] = {
		{ 'I', "interval", "MS", CMN_OPT_LONG, &c.o.interval_ms,
		  TOP_MIN_INTERVAL, 86400000L,
		  .help = "refresh every MS milliseconds (default 1000)" },
		{ 'm', "metric", "METRIC", CMN_OPT_STR, &metric, .help =
		  "the metric colouring the map (default: the first\n"
		  "selected); the m and M keys change it" },
		{ 0x102, "mesh", "N", CMN_OPT_LONG, &pmu, 0, CMN_MAX_PMUS - 1,
		  .help = "show the N-th mesh first, from 0 (the p key\n"
		  "changes it)" },
		{ 0x103, "scale", "HOW", CMN_OPT_CHOICE, &scale, .choices = scales,
		  .help = "heat colours: absolute (default: a % metric on\n"
		  "0-100 %, others from 0 to the hottest HN-F of all\n"
		  "meshes) or relative (each mesh's min to max);\n"
		  "the s key changes it" },
		{ 't', "top", "N", CMN_OPT_LONG, &c.o.top, 1, CMN_MAX_HNFS,
		  .help = "HN-Fs in the top list (default: as many as fit)" },
		{ 'n', "count", "N", CMN_OPT_LONG, &c.o.count, 1, 1000000000L,
		  .help = "stop after N refreshes" },
		{ 'b', "batch", NULL, CMN_OPT_FLAG, &batch, .help =
		  "print plain frames one after the other, every\n"
		  "mesh's map (no full screen, no keys, no colour;\n"
		  "COLUMNS wide, default 120); on the relative\n"
		  "scale each map with its own scale line" },
		{ 0x101, "no-color", NULL, CMN_OPT_FLAG, &nocolor, .help =
		  "no colour (also NO_COLOR=1 or TERM=dumb)" },
		{ 0 },
	};
	const struct cmn_cmd cmd = {
		.name = "top", .opts = opts, .args = true,
		.synopsis = "[options] [metric|group|all...]",
		.desc =
		"A live heat map of each mesh: the map of 'cmn-hnf topo' with every HN-F\n"
		"coloured by a metric, beside the totals of the selected metrics (default:\n"
		"the level-1 metrics) and the HN-Fs ranked by the colouring metric. HN-Fs\n"
		"are counted one by one (as stat --per-hnf). The second line shows the\n"
		"heat scale (with --batch --scale relative, each mesh's is over its\n"
		"map). Keys: q quit, space pause (counting goes on), m/M next or\n"
		"previous metric, +/- double or halve the interval, p next mesh, s\n"
		"absolute or relative scale, c colour on or off. Without colour the\n"
		"first character of a cell shows the heat (' ' . : * # from cold to\n"
		"hot), or, where the cell has no room for it, the character between\n"
		"the HN-F and its value (H28:0.80). --batch prints every mesh's map,\n"
		"with the HN-F ids wherever the screen of the same width has them.",
	};
	struct cmn_pmu *pmus;
	const char *e;
	char why[512];
	int ret, first, i;

	c.o.interval_ms = 1000;
	ret = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (cmn_metric_select(argc - first, argv + first, c.o.sel, why,
			      sizeof(why)))
		return cmn_usage_error(&cmd, "%s", why);
	if (metric) {
		const struct cmn_metric *m = cmn_metric_find(metric);

		if (!m)
			return cmn_usage_error(&cmd, "--metric: unknown metric '%s'",
					       metric);
		c.o.sel[m - cmn_metrics] = true;
		t.metric = (int)(m - cmn_metrics);
	} else {
		for (i = 0; i < (int)cmn_num_metrics && !c.o.sel[i]; i++)
			;
		t.metric = i;
	}
	c.o.per_hnf = true;
	c.o.fmt = FMT_NONE;
	t.relative = !strcmp(scale, "relative");
	t.batch = batch;
	t.color = !batch && !nocolor && cmn_top_color_wanted();
	if (!batch && (!isatty(STDIN_FILENO) || !isatty(fileno(out)))) {
		fprintf(stderr, "%s top: needs a terminal (or --batch)\n", cmn_prog);
		return 2;
	}

	pmus = calloc(CMN_MAX_PMUS, sizeof(*pmus));
	if (!pmus)
		return 1;
	c.pmus = pmus;
	ret = cmn_pmus_scan(pmus, CMN_MAX_PMUS, why, sizeof(why));
	if (ret <= 0) {
		if (!ret)
			snprintf(why, sizeof(why), "no %s<n> PMU found (run 'cmn-hnf check')",
				 CMN_PMU_PREFIX);
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		ret = 1;
		goto out;
	}
	c.npmu = ret;
	if (pmu >= c.npmu) {
		fprintf(stderr, "%s top: --mesh %ld: there %s %d mesh%s (0 to %d)\n",
			cmn_prog, pmu, c.npmu == 1 ? "is" : "are", c.npmu,
			c.npmu == 1 ? "" : "es", c.npmu - 1);
		ret = 2;
		goto out;
	}
	t.pmu = (int)pmu;
	ret = st_build_plan(&c, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		ret = 1;
		goto out;
	}
	if (batch) {
		/* no terminal: as wide as COLUMNS says, else 120 */
		e = getenv("COLUMNS");
		t.rows = 0;
		t.cols = e && atoi(e) >= 40 && atoi(e) <= 600 ? atoi(e) : 120;
	} else {
		term_size(&t);
		ret = term_setup(&t);
		if (ret) {
			fprintf(stderr, "%s top: terminal: %s\n", cmn_prog,
				strerror(-ret));
			ret = 1;
			goto out;
		}
		fputs("\033[H waiting for the first interval...", out);
		fflush(out);
	}
	{
		const struct st_hooks hooks = {
			.frame = top_frame,
			.fd = batch ? -1 : STDIN_FILENO,
			.input = top_input,
			.resize = top_resize,
			.arg = &t,
		};

		ret = st_run(&c, &hooks);
	}
	term_restore();
	top_active = NULL;
	st_frame_free(&t.last);
out:
	free(c.groups);
	free(pmus);
	return ret;
}
