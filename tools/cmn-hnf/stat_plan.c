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
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stat.h"

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

	if (g->hnf >= 0)
		snprintf(extra, sizeof(extra), "bynodeid=1,nodeid=0x%x",
			 pmu->topo.hnf[g->hnf].nodeid);
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->fd = -1;
	if (cmn_pmu_event_config(pmu, name, extra, e->config, why, why_len))
		return -EINVAL;
	alias_warn(c, g->pmu, name);
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
int st_build_plan(struct st_ctx *c, char *why, size_t why_len)
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

/* @w as one shell word: as is when that is safe, else in single quotes */
static void shell_word(FILE *out, const char *w)
{
	static const char safe[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		"_-./:=,+@%^";

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
			fprintf(out, "# %s = %s [%s]\n", cmn_metrics[i].name,
				cmn_metrics[i].formula, cmn_metrics[i].unit);
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
