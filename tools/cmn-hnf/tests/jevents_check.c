// SPDX-License-Identifier: GPL-2.0
/*
 * Linked with the pmu-events.c that perf's own jevents.py generated from a
 * tree holding cmn-hnf's perf-json export: print every sys metric of the
 * arm_cmn_hnf PMU as perf will see it (jevents.py turns Unit arm_cmn_hnf
 * into uncore_arm_cmn_hnf; perf drops uncore_ and the _<n> suffix when it
 * matches PMU names), and whether its Compat matches the
 * identifiers given on the command line under both of perf's rules:
 *
 *   name|expr|pmu|unit|compat|id:regex:strcmp|id:regex:strcmp...
 *
 * "regex" is a POSIX extended regular expression that must match the
 * whole identifier (perf 6.6 and later), "strcmp" plain equality (before
 * 6.6). Both are written here from perf's documented behaviour. Built
 * with -DCMN_PERF_EVENTS_61 for perf 6.1's tables, where metrics are
 * events with a metric name.
 */
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "pmu-events/pmu-events.h"

struct perf_pmu;

/* perf functions pmu-events.c refers to, unused by the sys tables */
char *perf_pmu__getcpuid(struct perf_pmu *pmu)
{
	(void)pmu;
	return NULL;
}

bool pmu__name_match(const struct perf_pmu *pmu, const char *pmu_name)
{
	(void)pmu;
	(void)pmu_name;
	return false;
}

int strcmp_cpuid_str(const char *s1, const char *s2)
{
	return strcmp(s1, s2);
}

static bool full_match(const char *re, const char *id)
{
	regmatch_t m;
	regex_t r;
	bool ok;

	if (regcomp(&r, re, REG_EXTENDED))
		return false;
	ok = !regexec(&r, id, 1, &m, 0) && m.rm_so == 0 &&
	     (size_t)m.rm_eo == strlen(id);
	regfree(&r);
	return ok;
}

struct ids {
	int n;
	char **id;
};

#ifdef CMN_PERF_EVENTS_61
/*
 * perf 6.1 (the --exact-compat target): metrics are pmu_events with a
 * metric_name, in the sys event tables
 */
#define pmu_metric		pmu_event
#define pmu_metrics_table	pmu_events_table
#define pmu_for_each_sys_metric	pmu_for_each_sys_event
#endif

static int one(const struct pmu_metric *pm, const struct pmu_metrics_table *t,
	       void *data)
{
	const struct ids *ids = data;
	int i;

	(void)t;
	if (!pm->metric_name)
		return 0;
	/* jevents.py names the PMU of Unit "arm_cmn_hnf" uncore_arm_cmn_hnf */
	if (!pm->pmu || (strcmp(pm->pmu, "arm_cmn_hnf") &&
			 strcmp(pm->pmu, "uncore_arm_cmn_hnf")))
		return 0;
	printf("%s|%s|%s|%s|%s", pm->metric_name, pm->metric_expr, pm->pmu,
	       pm->unit ? pm->unit : "", pm->compat ? pm->compat : "");
	for (i = 0; i < ids->n; i++)
		printf("|%s:%d:%d", ids->id[i],
		       pm->compat && full_match(pm->compat, ids->id[i]),
		       pm->compat && !strcmp(pm->compat, ids->id[i]));
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	struct ids ids = { argc - 1, argv + 1 };

	return pmu_for_each_sys_metric(one, &ids);
}
