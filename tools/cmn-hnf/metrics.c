// SPDX-License-Identifier: GPL-2.0
/*
 * The metric table of tools/metrics/metrics.def, expanded, and the
 * helpers that select metrics and test thresholds.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metrics.def"

#include "cmn-hnf.h"

#define CMN_TOOL_MGROUP(_name, _short, _title, _desc)			\
	{ .name = #_name, .short_name = (_short), .title = (_title),	\
	  .desc = (_desc) },

#define CMN_TOOL_METRIC(_name, _group, _title, _formula, _unit, _units, \
			_threshold, _level, _next, _desc)		\
	{ .name = #_name, .group = #_group, .title = (_title),		\
	  .formula = (_formula), .unit = (_unit), .units = (_units),	\
	  .threshold = (_threshold), .level = (_level), .next = (_next), \
	  .desc = (_desc) },

#define CMN_TOOL_EGROUP(_name, _title, _desc, _events)			\
	{ .name = #_name, .title = (_title), .desc = (_desc),		\
	  .events = (_events) },

const struct cmn_metric_group cmn_metric_groups[] = {
	CMN_HNF_METRIC_GROUPS(CMN_TOOL_MGROUP)
};

const size_t cmn_num_metric_groups = ARRAY_SIZE(cmn_metric_groups);

/* One enumerator per metric, to count them at compile time */
#define CMN_TOOL_METRIC_ENUM(_name, ...)	CMN_TOOL_METRIC_E_##_name,
enum { CMN_HNF_METRICS(CMN_TOOL_METRIC_ENUM) CMN_TOOL_NUM_BUILTIN };

struct cmn_metric cmn_metrics[CMN_MAX_METRICS] = {
	CMN_HNF_METRICS(CMN_TOOL_METRIC)
};

size_t cmn_num_metrics = CMN_TOOL_NUM_BUILTIN;
const size_t cmn_num_builtin_metrics = CMN_TOOL_NUM_BUILTIN;

static char *dup_or_empty(const char *s)
{
	char *d = strdup(s ? s : "");

	return d ? d : "";
}

int cmn_metric_add(const char *name, const char *group, const char *formula,
		   const char *unit, const char *desc)
{
	struct cmn_metric *m;

	if (cmn_num_metrics == CMN_MAX_METRICS)
		return -E2BIG;
	m = &cmn_metrics[cmn_num_metrics];
	memset(m, 0, sizeof(*m));
	m->name = dup_or_empty(name);
	m->group = dup_or_empty(group);
	m->title = m->name;
	m->formula = dup_or_empty(formula);
	m->unit = dup_or_empty(unit);
	m->units = m->unit;
	m->threshold = "";
	m->level = 3;
	m->next = "";
	m->desc = dup_or_empty(desc);
	return (int)cmn_num_metrics++;
}

void cmn_metrics_reset(void)
{
	cmn_num_metrics = CMN_TOOL_NUM_BUILTIN;
	cmn_metric_terms_reset();
}

const struct cmn_event_group cmn_event_groups[] = {
	CMN_HNF_EVENT_GROUPS(CMN_TOOL_EGROUP)
};

const size_t cmn_num_event_groups = ARRAY_SIZE(cmn_event_groups);

const struct cmn_metric *cmn_metric_find(const char *name)
{
	size_t i;

	for (i = 0; i < cmn_num_metrics; i++)
		if (!strcasecmp(cmn_metrics[i].name, name))
			return &cmn_metrics[i];
	return NULL;
}

const struct cmn_metric_group *cmn_metric_group_find(const char *name)
{
	size_t i;

	for (i = 0; i < cmn_num_metric_groups; i++)
		if (!strcasecmp(cmn_metric_groups[i].name, name) ||
		    !strcasecmp(cmn_metric_groups[i].short_name, name))
			return &cmn_metric_groups[i];
	return NULL;
}

bool cmn_threshold_parse(const char *t, char op[3], double *limit)
{
	char *end;
	int n = 0;

	while (*t == ' ')
		t++;
	if (*t != '<' && *t != '>')
		return false;
	op[n++] = *t++;
	if (*t == '=')
		op[n++] = *t++;
	op[n] = '\0';
	*limit = strtod(t, &end);
	if (end == t)
		return false;
	while (*end == ' ')
		end++;
	return !*end;
}

bool cmn_threshold_hit(const char *t, double v)
{
	double limit;
	char op[3];

	if (v != v || !cmn_threshold_parse(t, op, &limit))
		return false;
	if (!strcmp(op, ">"))
		return v > limit;
	if (!strcmp(op, ">="))
		return v >= limit;
	if (!strcmp(op, "<"))
		return v < limit;
	return v <= limit;
}

int cmn_metric_select(int argc, char **argv, bool *sel, char *why,
		      size_t why_len)
{
	const struct cmn_metric_group *g;
	const struct cmn_metric *m;
	size_t i;
	int a;

	/* the default: the level-1 metrics, a first look that fits the counters */
	for (i = 0; i < cmn_num_metrics; i++)
		sel[i] = argc == 0 && cmn_metrics[i].level == 1;
	for (a = 0; a < argc; a++) {
		if (!strcasecmp(argv[a], "all")) {
			for (i = 0; i < cmn_num_metrics; i++)
				sel[i] = true;
			continue;
		}
		g = cmn_metric_group_find(argv[a]);
		if (g) {
			for (i = 0; i < cmn_num_metrics; i++)
				if (!strcmp(cmn_metrics[i].group, g->name))
					sel[i] = true;
			continue;
		}
		m = cmn_metric_find(argv[a]);
		if (m) {
			sel[m - cmn_metrics] = true;
			continue;
		}
		snprintf(why, why_len,
			 "unknown metric or group '%s' (see cmn-hnf list)",
			 argv[a]);
		return -EINVAL;
	}
	return 0;
}
