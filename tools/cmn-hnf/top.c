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

#define TOP_SIDE_W	36	/* the right-hand pane */
#define TOP_MIN_INTERVAL 100L

struct top {
	struct st_ctx *c;
	FILE *out;
	int rows, cols;		/* terminal size */
	int metric;		/* colouring metric, index in cmn_metrics */
	int pmu;		/* mesh shown */
	bool color;
	bool batch;
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

static int heat_step(double v, double lo, double hi)
{
	int s;

	if (isnan(v))
		return -1;
	if (!(hi > lo))
		return 2;
	s = (int)((v - lo) / (hi - lo) * 5.0);
	return s < 0 ? 0 : s > 4 ? 4 : s;
}

/* Lines of output, built up and clipped to the screen width */
struct screen {
	char line[128][512];
	int n;
};

/* Append to line @l; @vis is the printed width (escape codes excluded) */
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
	int n = vis_len(s->line[l]);

	while (n++ < width)
		put_at(s, l, " ");
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

struct cell_hnf {
	int row;		/* index in the frame's rows */
	double v;
};

static int hottest(const struct cell_hnf *c, int n)
{
	int i, j = 0;

	for (i = 1; i < n; i++)
		if (c[i].v > c[j].v)
			j = i;
	return j;
}

/* The map of mesh @p: returns the lines used from @l0 */
static int draw_map(struct top *t, struct screen *s, int l0, int width,
		    int maxlines, double lo, double hi)
{
	const struct st_frame *f = &t->last;
	const struct cmn_topo *tp = &t->c->pmus[t->pmu].topo;
	int x, y, i, l = l0, cw, k, nrow, per[8], lines;
	struct cell_hnf at[8][8][4];
	int nat[8][8];
	char buf[96], v[16], txt[160];
	int mx = tp->mesh_x, my = tp->mesh_y;

	if (mx < 1 || my < 1 || mx > 8 || my > 8)
		return 0;
	memset(nat, 0, sizeof(nat));
	for (i = 0; i < f->nrows; i++) {
		const struct cmn_hnf_node *nd;

		if (f->rows[i].p != t->pmu)
			continue;
		nd = &tp->hnf[f->rows[i].h];
		if (nd->x < 0 || nd->x >= mx || nd->y < 0 || nd->y >= my ||
		    nat[nd->x][nd->y] == 4)
			continue;
		at[nd->x][nd->y][nat[nd->x][nd->y]++] = (struct cell_hnf){
			i, cmn_metric_value(t->metric, &f->rows[i].cn) };
	}
	/* lines per mesh row: its busiest XP, or 1 when the map is too tall */
	lines = 0;
	for (y = 0; y < my; y++) {
		per[y] = 1;
		for (x = 0; x < mx; x++)
			if (nat[x][y] > per[y])
				per[y] = nat[x][y];
		lines += per[y] + 1;
	}
	if (lines + 2 > maxlines)
		for (y = 0; y < my; y++)
			per[y] = 1;
	cw = (width - 6) / mx - 1;
	if (cw > 14)
		cw = 14;
	if (cw < 5)
		cw = 5;

	snprintf(buf, sizeof(buf), "      ");
	put_at(s, l, buf);
	for (x = 0; x < mx; x++) {
		snprintf(buf, sizeof(buf), " x=%-*d", cw - 2, x);
		put_at(s, l, buf);
	}
	l++;
	for (y = my - 1; y >= -1; y--) {
		put_at(s, l, "      +");
		for (x = 0; x < mx; x++) {
			for (k = 0; k < cw; k++)
				put_at(s, l, "-");
			put_at(s, l, "+");
		}
		l++;
		if (y < 0)
			break;
		nrow = per[y];
		for (k = 0; k < nrow; k++, l++) {
			snprintf(buf, sizeof(buf), k ? "      |" : "  y=%d |", y);
			put_at(s, l, buf);
			for (x = 0; x < mx; x++) {
				int n = nat[x][y], j = k, st;

				if (k >= n) {
					snprintf(txt, sizeof(txt), "%*s|", cw, "");
					put_at(s, l, txt);
					continue;
				}
				/* one line for several: the hottest, marked + */
				if (nrow == 1 && n > 1)
					j = hottest(at[x][y], n);
				compact(at[x][y][j].v, v, sizeof(v));
				st = heat_step(at[x][y][j].v, lo, hi);
				/* H<lid> when there is room, the value, ! past the threshold */
				if (cw >= 10)
					snprintf(buf, sizeof(buf), "H%d%s %s",
						 tp->hnf[f->rows[at[x][y][j].row].h].lid,
						 nrow == 1 && n > 1 ? "+" : "", v);
				else
					snprintf(buf, sizeof(buf), "%s", v);
				if (cmn_threshold_hit(cmn_metrics[t->metric].threshold,
						      at[x][y][j].v))
					strcat(buf, "!");
				if (t->color && st >= 0) {
					buf[cw] = '\0';
					snprintf(txt, sizeof(txt), "%s%-*s\033[0m|",
						 heat_bg[st], cw, buf);
				} else {
					char mark[64];

					/* without colour the first character is the heat */
					snprintf(mark, sizeof(mark), "%c%s",
						 st < 0 ? ' ' : heat_ch[st], buf);
					snprintf(txt, sizeof(txt), "%-*.*s|", cw, cw, mark);
				}
				put_at(s, l, txt);
			}
		}
	}
	return l - l0;
}

static void draw_side(struct top *t, struct screen *s, int l0, int col,
		      int maxlines)
{
	const struct st_frame *f = &t->last;
	struct st_unit *ranked;
	char buf[160], v[64], hx[16];
	int m, i, l = l0, n;

	(void)col;
	snprintf(buf, sizeof(buf), "%s", t->c->npmu > 1 ? "all meshes" :
		 t->c->pmus[0].name);
	put_at(s, l++, buf);
	for (m = 0; m < (int)cmn_num_metrics && l < l0 + maxlines; m++) {
		double x;

		if (!t->c->o.sel[m])
			continue;
		x = cmn_metric_value(m, &f->total);
		st_value_str(x, v, sizeof(v));
		snprintf(buf, sizeof(buf), "%c%-18.18s %8s%c%-7.7s",
			 m == t->metric ? '>' : ' ', cmn_metrics[m].name, v,
			 cmn_threshold_hit(cmn_metrics[m].threshold, x) ? '!' : ' ',
			 cmn_metrics[m].unit);
		put_at(s, l++, buf);
	}
	l++;
	ranked = malloc((f->nrows ? f->nrows : 1) * sizeof(*ranked));
	if (!ranked)
		return;
	st_rank(f, t->metric, ranked);
	snprintf(buf, sizeof(buf), "top HN-Fs by %s", cmn_metrics[t->metric].name);
	put_at(s, l++, buf);
	n = t->c->o.top > 0 ? (int)t->c->o.top : l0 + maxlines - l;
	for (i = 0; i < f->nrows && i < n && l < l0 + maxlines; i++) {
		const struct cmn_hnf_node *nd =
			&t->c->pmus[ranked[i].p].topo.hnf[ranked[i].h];

		st_value_str(cmn_metric_value(t->metric, &ranked[i].cn), v,
			     sizeof(v));
		snprintf(buf, sizeof(buf), "%2d m%d H%-3d %6s (%d,%d) %8s",
			 i + 1, t->c->pmus[ranked[i].p].index, nd->lid,
			 cmn_hex(nd->nodeid, hx), nd->x, nd->y, v);
		put_at(s, l++, buf);
	}
	free(ranked);
}

static void draw(struct top *t)
{
	const struct st_frame *f = &t->last;
	struct screen *s;
	double lo = INFINITY, hi = -INFINITY, v, run;
	int i, l, width, side, maplines, avail;
	char buf[256], a[32], b[32];

	s = calloc(1, sizeof(*s));
	if (!s)
		return;
	if (!t->batch)
		term_size(t);
	for (i = 0; i < f->nrows; i++) {
		if (f->rows[i].p != t->pmu)
			continue;
		v = cmn_metric_value(t->metric, &f->rows[i].cn);
		if (isnan(v))
			continue;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	run = f->run_min;
	snprintf(buf, sizeof(buf), "cmn-hnf top  %s %d/%d %dx%d  %s [%s]  %ld ms",
		 t->c->pmus[t->pmu].name, t->pmu + 1, t->c->npmu,
		 t->c->pmus[t->pmu].topo.mesh_x, t->c->pmus[t->pmu].topo.mesh_y,
		 cmn_metrics[t->metric].name, cmn_metrics[t->metric].unit,
		 t->c->o.interval_ms);
	put_at(s, 0, buf);
	compact(lo, a, sizeof(a));
	compact(hi, b, sizeof(b));
	if (t->color) {
		snprintf(buf, sizeof(buf), "cold %s  %s  %s  %s  %s \033[0m hot   min %s max %s",
			 heat_bg[0], heat_bg[1], heat_bg[2], heat_bg[3], heat_bg[4],
			 isinf(lo) ? "n/a" : a, isinf(hi) ? "n/a" : b);
	} else {
		snprintf(buf, sizeof(buf), "cold [%c%c%c%c%c] hot   min %s max %s",
			 heat_ch[0], heat_ch[1], heat_ch[2], heat_ch[3], heat_ch[4],
			 isinf(lo) ? "n/a" : a, isinf(hi) ? "n/a" : b);
	}
	if (run < 1.0) {
		snprintf(a, sizeof(a), "  running %.0f%%!", run * 100.0);
		strncat(buf, a, sizeof(buf) - strlen(buf) - 1);
	}
	put_at(s, 1, buf);
	avail = t->rows - 4;
	if (avail > (int)ARRAY_SIZE(s->line) - 4)
		avail = (int)ARRAY_SIZE(s->line) - 4;
	side = t->cols >= 80 ? TOP_SIDE_W : 0;
	width = t->cols - side;
	maplines = draw_map(t, s, 3, width, avail, lo, hi);
	if (side) {
		for (i = 3; i < 3 + avail; i++)
			pad_to(s, i, width);
		draw_side(t, s, 3, width, avail);
	} else {
		l = 3 + maplines + 1;
		draw_side(t, s, l, 0, t->rows - 1 - l);
	}
	if (t->batch) {
		while (s->n &&
		       strspn(s->line[s->n - 1], " ") == strlen(s->line[s->n - 1]))
			s->n--;
		for (i = 0; i < s->n; i++) {
			put_clipped(t->out, s->line[i], t->cols);
			fputc('\n', t->out);
		}
		fputc('\n', t->out);
		fflush(t->out);
		free(s);
		return;
	}
	fputs("\033[H", t->out);
	for (i = 0; i < t->rows - 1; i++) {
		fprintf(t->out, "\033[%d;1H\033[K", i + 1);
		if (i < s->n)
			put_clipped(t->out, s->line[i], t->cols);
	}
	fprintf(t->out, "\033[%d;1H\033[K\033[7m%s\033[0m", t->rows,
		" q quit  m/M metric  +/- interval  p mesh  c colour ");
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
	const char *metric = NULL;
	bool batch = false, nocolor = false;
	long pmu = 0;
	const struct cmn_opt opts[] = {
		{ 'I', "interval", "MS", CMN_OPT_LONG, &c.o.interval_ms,
		  TOP_MIN_INTERVAL, 86400000L,
		  .help = "refresh every MS milliseconds (default 1000)" },
		{ 'm', "metric", "METRIC", CMN_OPT_STR, &metric, .help =
		  "the metric colouring the map (default: the first\n"
		  "selected); the m and M keys change it" },
		{ 'p', "pmu", "N", CMN_OPT_LONG, &pmu, 0, CMN_MAX_PMUS - 1,
		  .help = "show the N-th mesh first (the p key changes it)" },
		{ 't', "top", "N", CMN_OPT_LONG, &c.o.top, 1, CMN_MAX_HNFS,
		  .help = "HN-Fs in the top list (default: as many as fit)" },
		{ 'n', "count", "N", CMN_OPT_LONG, &c.o.count, 1, 1000000000L,
		  .help = "stop after N refreshes" },
		{ 'b', "batch", NULL, CMN_OPT_FLAG, &batch, .help =
		  "print plain frames one after the other (no full\n"
		  "screen, no keys, no colour)" },
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
		"are counted one by one (as stat --per-hnf). Keys: q quit, m/M next or\n"
		"previous metric, +/- double or halve the interval, p next mesh, c colour\n"
		"on or off. Without colour the first character of a cell shows the heat\n"
		"(' ' . : * # from cold to hot).",
	};
	struct cmn_pmu *pmus;
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
		fprintf(stderr, "%s top: --pmu %ld: there are %d meshes\n",
			cmn_prog, pmu, c.npmu);
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
		t.rows = 60;
		t.cols = 80;
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
