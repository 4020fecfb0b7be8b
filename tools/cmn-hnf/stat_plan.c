// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf stat: which perf events to open, in which groups.
 *
 * The HN-F events of the selected metrics of one metric group form one
 * perf group (or, where that does not fit the counters, those of each
 * metric), so the terms of a ratio share their time slices even when perf
 * multiplexes the 8 DTC counters between groups. The DTC cycle counter is
 * a single resource per mesh, so dtc_cycles is opened once per PMU on its
 * own and pinned: perf keeps it counting all the time, whatever happens
 * to the groups (a clock needs no shared slice).
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stat.h"

/* ---- stat -e and --metric ---- */

const struct st_uevent *st_uevent_find(const struct st_ctx *c, const char *term)
{
	int i;

	for (i = 0; i < c->nuev; i++)
		if (!strcmp(c->uev[i].term, term))
			return &c->uev[i];
	return NULL;
}

static bool is_ident(const char *s)
{
	if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

static bool st_lookup_one(void *ctx, const char *name, double *v)
{
	(void)ctx;
	(void)name;
	*v = 1;
	return true;
}

/* A formula name from @spec: its letters and digits, '_' for the rest */
static void term_of(const struct st_ctx *c, const char *spec, char *buf,
		    size_t len)
{
	size_t n = 0, k;
	int i;

	for (; *spec && n + 1 < len - 4; spec++) {
		if (isalnum((unsigned char)*spec))
			buf[n++] = *spec;
		else if (n && buf[n - 1] != '_')
			buf[n++] = '_';
	}
	while (n && buf[n - 1] == '_')
		n--;
	buf[n] = '\0';
	if (!n || isdigit((unsigned char)buf[0]))
		snprintf(buf, len, "e%d", c->nuev);
	/* unique among the events and the table's names */
	for (k = n, i = 2; st_uevent_find(c, buf) || cmn_formula_name_known(buf); i++)
		snprintf(buf + k, len - k, "_%d", i);
}

static int add_one_event(struct st_ctx *c, const char *spec, char *why,
			 size_t len)
{
	char copy[256], *slash, *inner, *tok, *save = NULL;
	struct st_uevent u = { .pmu = -1 };
	const char *head;
	size_t tl = 0;
	uint64_t v;
	int m;

	snprintf(copy, sizeof(copy), "%s", spec);
	slash = strchr(copy, '/');
	if (!slash) {
		/* an alias: a formula of its own name */
		if (!is_ident(copy)) {
			snprintf(why, len, "-e %s: not an event name", spec);
			return -EINVAL;
		}
		m = (int)(cmn_metric_find(copy) ? cmn_metric_find(copy) - cmn_metrics : -1);
		if (m >= 0 && m < (int)cmn_num_builtin_metrics) {
			snprintf(why, len, "-e %s: a metric, not an event: name it without -e",
				 spec);
			return -EINVAL;
		}
		if (m < 0)
			m = cmn_metric_add(copy, "", copy, !strcmp(copy, CMN_DTC_CYCLES) ?
					   "cycles" : "events", "an event of stat -e");
		if (m < 0)
			goto full;
		c->o.sel[m] = true;
		return 0;
	}
	/* PMU/terms/ or alias/terms/ (perf's spelling) */
	*slash = '\0';
	head = copy;
	inner = slash + 1;
	if (!*inner || inner[strlen(inner) - 1] != '/' || strchr(inner, '/') !=
	    inner + strlen(inner) - 1) {
		snprintf(why, len, "-e %s: expected NAME, PMU/TERMS/ or NAME/TERMS/", spec);
		return -EINVAL;
	}
	inner[strlen(inner) - 1] = '\0';
	if (!strcmp(head, "arm_cmn_hnf")) {
		u.pmu = -1;
	} else if (!strncmp(head, CMN_PMU_PREFIX, strlen(CMN_PMU_PREFIX)) &&
		   !cmn_parse_u64(head + strlen(CMN_PMU_PREFIX), &v) &&
		   isdigit((unsigned char)head[strlen(CMN_PMU_PREFIX)]) && v < 1000) {
		u.pmu = (int)v;
	} else if (is_ident(head)) {
		snprintf(u.base, sizeof(u.base), "%s", head);
	} else {
		snprintf(why, len, "-e %s: '%s' is neither arm_cmn_hnf[_<n>] nor an event", spec,
			 head);
		return -EINVAL;
	}
	for (tok = strtok_r(inner, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq && strcmp(tok, "bynodeid")) {
			/* the event's name among the terms, as perf writes it */
			if (u.base[0] || !is_ident(tok)) {
				snprintf(why, len, "-e %s: '%s' is not a term", spec, tok);
				return -EINVAL;
			}
			snprintf(u.base, sizeof(u.base), "%s", tok);
			continue;
		}
		if (eq && !strncmp(tok, "nodeid=", 7)) {
			if (cmn_parse_u64(eq + 1, &v) || v > 0xffff) {
				snprintf(why, len, "-e %s: nodeid '%s'", spec, eq + 1);
				return -EINVAL;
			}
			u.nodeid = (unsigned int)v;
		}
		if (!strcmp(tok, "bynodeid") || !strcmp(tok, "bynodeid=1"))
			u.bynode = true;
		tl += snprintf(u.terms + tl, tl < sizeof(u.terms) ? sizeof(u.terms) - tl : 0,
			       "%s%s", tl ? "," : "", tok);
	}
	if (!u.base[0] && !strstr(u.terms, "eventid=") && !strstr(u.terms, "type=")) {
		snprintf(why, len, "-e %s: no event (a name or eventid=)", spec);
		return -EINVAL;
	}
	if (u.bynode && c->o.per_hnf) {
		snprintf(why, len, "-e %s: bynodeid counts one HN-F: not with --per-hnf", spec);
		return -EINVAL;
	}
	if (c->nuev == CMN_MAX_LIST)
		goto full;
	term_of(c, spec, u.term, sizeof(u.term));
	m = cmn_metric_add(spec, "", u.term, "events", "an event of stat -e");
	if (m < 0)
		goto full;
	c->uev[c->nuev++] = u;
	c->o.sel[m] = true;
	return 0;
full:
	snprintf(why, len, "-e %s: too many events and metrics", spec);
	return -E2BIG;
}

int st_add_events(struct st_ctx *c, const char *list, char *why, size_t len)
{
	char spec[256];
	const char *p = list;
	int depth, ret;
	size_t n;

	while (*p) {
		/* split at commas outside PMU/terms/ */
		for (n = 0, depth = 0; p[n] && (p[n] != ',' || depth); n++)
			if (p[n] == '/')
				depth = !depth;
		if (!n || n >= sizeof(spec)) {
			snprintf(why, len, "-e %s: an empty or too long event", list);
			return -EINVAL;
		}
		snprintf(spec, sizeof(spec), "%.*s", (int)n, p);
		ret = add_one_event(c, spec, why, len);
		if (ret)
			return ret;
		p += n;
		if (*p == ',')
			p++;
	}
	return 0;
}

int st_add_formula(struct st_ctx *c, const char *def, char *why, size_t len)
{
	char names[CMN_MAX_TERMS][CMN_NAME_LEN], name[CMN_NAME_LEN], ewhy[128];
	const char *eq = strchr(def, '=');
	double v;
	int n, i, m;

	if (!eq || eq == def || (size_t)(eq - def) >= sizeof(name)) {
		snprintf(why, len, "--metric %s: expected NAME=FORMULA", def);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - def), def);
	if (!is_ident(name) || cmn_metric_find(name) || cmn_metric_group_find(name) ||
	    cmn_formula_name_known(name) || !strcasecmp(name, "all")) {
		snprintf(why, len, "--metric %s: '%s' is not a new name (letters, digits, _)",
			 def, name);
		return -EINVAL;
	}
	/* the syntax, with every name worth 1 */
	if (cmn_expr_eval(eq + 1, st_lookup_one, NULL, &v, ewhy, sizeof(ewhy))) {
		snprintf(why, len, "--metric %s: %s", def, ewhy);
		return -EINVAL;
	}
	n = cmn_expr_names(eq + 1, names, CMN_MAX_TERMS);
	if (n < 0) {
		snprintf(why, len, "--metric %s: more than %d names", def, CMN_MAX_TERMS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (cmn_formula_name_known(names[i]) || st_uevent_find(c, names[i]))
			continue;
		snprintf(why, len, "--metric %s: unknown event '%s' (see cmn-hnf list)",
			 def, names[i]);
		return -EINVAL;
	}
	m = cmn_metric_add(name, "", eq + 1, "", "a formula of stat --metric");
	if (m < 0) {
		snprintf(why, len, "--metric %s: too many metrics", def);
		return -E2BIG;
	}
	c->o.sel[m] = true;
	return 0;
}

/* Whether metric @m is counted on PMU @p (stat -e events of one mesh) */
bool st_metric_on_pmu(const struct st_ctx *c, int m, int p)
{
	const struct cmn_terms *terms = cmn_metric_terms(m);
	const struct cmn_pmu *pmu = &c->pmus[p];
	const struct st_uevent *u;
	int t, h;

	for (t = 0; t < terms->n; t++) {
		u = st_uevent_find(c, terms->name[t]);
		if (!u)
			continue;
		if (u->pmu >= 0 && u->pmu != pmu->index)
			return false;
		if (!u->bynode || !pmu->topo.present)
			continue;
		for (h = 0; h < pmu->topo.nhnf; h++)
			if (pmu->topo.hnf[h].nodeid == u->nodeid)
				break;
		if (h == pmu->topo.nhnf)
			return false;
	}
	return true;
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

/*
 * An events/ alias that encodes something else than the event table (a
 * driver and a cmn-hnf of different versions): the formulas mean the
 * table's event, so that is what is counted; say so once per alias.
 */
static void alias_warn(struct st_ctx *c, int p, const char *name)
{
	const struct cmn_event *ev = cmn_event_find(name);
	static bool warned[CMN_MAX_PMUS][128];
	char alias[256], terms[64];
	size_t i;

	i = ev ? (size_t)(ev - cmn_events) : cmn_num_events;
	if (i >= ARRAY_SIZE(warned[0]) || p >= CMN_MAX_PMUS || warned[p][i] ||
	    !cmn_pmu_alias_differs(&c->pmus[p], name, alias, sizeof(alias)))
		return;
	warned[p][i] = true;
	if (ev)
		cmn_event_terms(ev, terms, sizeof(terms));
	else
		snprintf(terms, sizeof(terms), "type=0x3");
	fprintf(stderr,
		"%s: warning: %s/events/%s is '%s', the event table says %s: counting the table's encoding (cmn-hnf check: install a driver and a cmn-hnf of the same version)\n",
		cmn_prog, c->pmus[p].name, name, alias, terms);
}

static int add_event(struct st_ctx *c, struct st_group *g, const char *name,
		     char *why, size_t why_len)
{
	const struct cmn_pmu *pmu = &c->pmus[g->pmu];
	struct st_event *e = &g->ev[g->nev];
	char extra[64] = "";

	const struct st_uevent *u = st_uevent_find(c, name);
	char twhy[256];

	if (g->hnf >= 0)
		snprintf(extra, sizeof(extra), "bynodeid=1,nodeid=0x%x",
			 pmu->topo.hnf[g->hnf].nodeid);
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->fd = -1;
	if (u && u->base[0]) {
		/* an alias and the terms of stat -e */
		char all[320];

		snprintf(all, sizeof(all), "%s%s%s", u->terms,
			 u->terms[0] && extra[0] ? "," : "", extra);
		if (cmn_pmu_event_config(pmu, u->base, all, e->config, why, why_len))
			return -EINVAL;
		alias_warn(c, g->pmu, u->base);
		g->nev++;
		return 0;
	}
	if (u) {
		/* raw terms */
		memset(e->config, 0, sizeof(e->config));
		if (cmn_terms_apply(pmu->fmt, pmu->nfmt, u->terms, e->config, twhy,
				    sizeof(twhy)) ||
		    (extra[0] && cmn_terms_apply(pmu->fmt, pmu->nfmt, extra, e->config,
						 twhy, sizeof(twhy)))) {
			snprintf(why, why_len, "%s/%s/: %s", pmu->name, u->terms, twhy);
			return -EINVAL;
		}
		g->nev++;
		return 0;
	}
	if (cmn_pmu_event_config(pmu, name, extra, e->config, why, why_len))
		return -EINVAL;
	alias_warn(c, g->pmu, name);
	g->nev++;
	return 0;
}

/* The HN-F events of the metrics in @mask, deduplicated, or -E2BIG */
static int union_events(uint64_t mask, char names[][CMN_NAME_LEN])
{
	const struct cmn_terms *terms;
	int m, t, k, count = 0;

	for (m = 0; m < (int)cmn_num_metrics; m++) {
		if (!(mask & (1ULL << m)))
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
static int add_metrics_group(struct st_ctx *c, int p, int h, uint64_t mask,
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
	for (g->metric = 0; !(mask & (1ULL << g->metric)); g->metric++)
		;
	for (k = 0; k < n; k++)
		if (add_event(c, g, names[k], why, why_len))
			return -EINVAL;
	return 0;
}

/* The selected metrics of metric group @mg */
static uint64_t group_mask(struct st_ctx *c, size_t mg)
{
	uint64_t mask = 0;
	size_t m;

	for (m = 0; m < cmn_num_metrics; m++)
		if (c->o.sel[m] &&
		    !strcmp(cmn_metrics[m].group, cmn_metric_groups[mg].name))
			mask |= 1ULL << m;
	return mask;
}

/*
 * Per (PMU, HN-F or mesh): one perf group per metric group, holding the
 * HN-F events of its selected metrics, so that related metrics share their
 * time slices and fewer groups compete for the counters; or, when such a
 * group does not fit (c->per_metric), one group per metric. Plus one
 * dtc_cycles per PMU.
 */
int st_build_plan(struct st_ctx *c, char *why, size_t why_len)
{
	char names[CMN_MAX_TERMS][CMN_NAME_LEN];
	struct st_group *g;
	bool cycles = false;
	int p, h, nh, ret;
	uint64_t mask;
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
					if (!(mask & (1ULL << m)))
						continue;
					ret = add_metrics_group(c, p, c->o.per_hnf ? h : -1,
								1ULL << m, why, why_len);
					if (ret)
						return ret;
				}
			}
		}
		/* the user's: one group each, on the meshes that count them */
		for (h = 0; h < nh; h++) {
			for (m = cmn_num_builtin_metrics; m < cmn_num_metrics; m++) {
				if (!c->o.sel[m] || !st_metric_on_pmu(c, (int)m, p))
					continue;
				ret = add_metrics_group(c, p, c->o.per_hnf ? h : -1,
							1ULL << m, why, why_len);
				if (ret)
					return ret;
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

/* @w as one shell word: as is when that is safe, else in single quotes */
static void shell_word(FILE *out, const char *w)
{
	static const char safe[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:=,+@%^";

	if (*w && strspn(w, safe) == strlen(w)) {
		fputs(w, out);
		return;
	}
	fputc('\'', out);
	for (; *w; w++) {
		if (*w == '\'')
			fputs("'\\''", out);
		else
			fputc(*w, out);
	}
	fputc('\'', out);
}

void st_print_perf(struct st_ctx *c)
{
	FILE *out = c->out;
	char spell[128];
	int i, k;
	char **a;

	fputs("perf stat -a", out);
	if (c->o.fmt == FMT_CSV)
		fprintf(out, c->o.sep == ',' ? " -x," : " -x '%c'", c->o.sep);
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
			const struct st_uevent *u = st_uevent_find(c, g->ev[k].name);

			if (u && u->base[0]) {
				cmn_pmu_event_spelling(pmu, u->base, spell, sizeof(spell));
				snprintf(spell + strlen(spell), sizeof(spell) - strlen(spell),
					 ",%s", u->terms);
			} else if (u) {
				snprintf(spell, sizeof(spell), "%s", u->terms);
			} else {
				cmn_pmu_event_spelling(pmu, g->ev[k].name, spell,
						       sizeof(spell));
			}
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
		for (a = c->o.cmd; *a; a++) {
			fputc(' ', out);
			shell_word(out, *a);
		}
	} else if (!c->o.interval_ms) {
		fputs(" -- sleep 1", out);
	}
	fputc('\n', out);
	for (i = 0; i < (int)cmn_num_metrics; i++)
		if (c->o.sel[i])
			fprintf(out, "# %s = %s%s%s%s\n", cmn_metrics[i].name,
				cmn_metrics[i].formula, *cmn_metrics[i].unit ? " [" : "",
				cmn_metrics[i].unit, *cmn_metrics[i].unit ? "]" : "");
}

int st_sort_metric(const struct st_ctx *c)
{
	const struct cmn_metric *sm;
	int m;

	if (c->o.sort) {
		sm = cmn_metric_find(c->o.sort);
		return sm ? (int)(sm - cmn_metrics) : -1;
	}
	for (m = 0; m < (int)cmn_num_metrics; m++)
		if (c->o.sel[m])
			return m;
	return -1;
}
