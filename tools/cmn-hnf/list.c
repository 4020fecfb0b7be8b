// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf list: every event of events.h and every metric of metrics.def.
 */
#include <stdlib.h>
#include <string.h>

#include <arm_cmn_hnf/events.h>

#include "cmn-hnf.h"

/* PMUs found, to tell which events each one offers (events/ aliases) */
static struct cmn_pmu *list_pmus;
static int list_npmu;

/* Names of the PMUs without an alias for @name, blank separated */
static void missing_on(const char *name, char *buf, size_t len)
{
	char path[CMN_PATH_LEN], val[128];
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < list_npmu; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", list_pmus[i].path,
			 name);
		if (cmn_read_file(path, val, sizeof(val)) >= 0)
			continue;
		used += snprintf(buf + used, used < len ? len - used : 0, "%s%s",
				 used ? " " : "", list_pmus[i].name);
	}
}

static void encoding(const struct cmn_event *ev, char *buf, size_t len)
{
	char terms[64];

	cmn_event_terms(ev, terms, sizeof(terms));
	snprintf(buf, len, "type=0x5,%s", terms);
}

static void synonyms(const struct cmn_event *ev, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < cmn_num_events; i++) {
		const struct cmn_event *o = &cmn_events[i];

		if (o == ev || o->eventid != ev->eventid ||
		    o->occupid != ev->occupid)
			continue;
		used += snprintf(buf + used, used < len ? len - used : 0,
				 "%s%s", used ? " " : "", o->name);
	}
}

static void list_text(FILE *out)
{
	char enc[64], syn[256], miss[512];
	size_t i;

	fprintf(out,
		"HN-F events (perf: arm_cmn_hnf/<name>/ counts every mesh, as perf merges\n"
		"the arm_cmn_hnf_<n> PMUs; arm_cmn_hnf_<n>/<name>/ counts mesh <n> only):\n\n");
	for (i = 0; i < cmn_num_events; i++) {
		const struct cmn_event *ev = &cmn_events[i];

		encoding(ev, enc, sizeof(enc));
		synonyms(ev, syn, sizeof(syn));
		fprintf(out, "  %-24s %s\n", ev->name, enc);
		fprintf(out, "  %-24s %s\n", "", ev->desc);
		if (ev->trm[0])
			fprintf(out, "  %-24s TRM: %s\n", "", ev->trm);
		if (ev->unit[0] || ev->scale[0])
			fprintf(out, "  %-24s unit: %s, scale: %s\n", "",
				ev->unit, ev->scale);
		if (syn[0])
			fprintf(out, "  %-24s same encoding: %s\n", "", syn);
		missing_on(ev->name, miss, sizeof(miss));
		if (miss[0])
			fprintf(out, "  %-24s not offered by: %s\n", "", miss);
	}
	fprintf(out, "  %-24s type=0x3\n  %-24s %s\n\n", CMN_HNF_DTC_CYCLES_NAME,
		"", CMN_HNF_DTC_CYCLES_DESC);

	fprintf(out, "Metric groups (cmn-hnf stat <group>):\n\n");
	for (i = 0; i < cmn_num_metric_groups; i++)
		fprintf(out, "  %-24s %-8s %s\n", cmn_metric_groups[i].name,
			cmn_metric_groups[i].short_name,
			cmn_metric_groups[i].desc);

	fprintf(out, "\nMetrics (cmn-hnf stat <metric>):\n\n");
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		fprintf(out, "  %-32s [%s] %s\n", m->name, m->unit, m->title);
		fprintf(out, "  %-32s = %s\n", "", m->formula);
		fprintf(out, "  %-32s %s\n", "", m->desc);
		fprintf(out, "  %-32s group %s, level %d%s", "", m->group, m->level,
			m->level == 1 ? " (stat default)" : "");
		if (m->threshold[0])
			fprintf(out, ", look when %s", m->threshold);
		if (m->next[0])
			fprintf(out, ", then: %s", m->next);
		fputc('\n', out);
	}
}

/* list --json: the same, as one JSON document */
static void list_json(FILE *out)
{
	char enc[64], syn[256], miss[512], perf[96];
	struct cmn_json j;
	size_t i;

	cj_init(&j, out, true);
	cj_obj(&j);
	cj_key(&j, "events");
	cj_arr(&j);
	for (i = 0; i <= cmn_num_events; i++) {
		const struct cmn_event *ev = i < cmn_num_events ? &cmn_events[i] : NULL;
		const char *name = ev ? ev->name : CMN_HNF_DTC_CYCLES_NAME;

		cj_obj(&j);
		cj_kstr(&j, "name", name);
		cj_key(&j, "eventid");
		if (ev)
			cj_int(&j, ev->eventid);
		else
			cj_null(&j);
		cj_key(&j, "occupid");
		if (ev && ev->occupid >= 0)
			cj_int(&j, ev->occupid);
		else
			cj_null(&j);
		if (ev) {
			encoding(ev, enc, sizeof(enc));
			synonyms(ev, syn, sizeof(syn));
		} else {
			snprintf(enc, sizeof(enc), "type=0x3");
			syn[0] = '\0';
		}
		cj_kstr(&j, "encoding", enc);
		snprintf(perf, sizeof(perf), "arm_cmn_hnf/%s/", name);
		cj_kstr(&j, "perf", perf);
		cj_kstr(&j, "trm", ev ? ev->trm : "");
		cj_kbool(&j, "primary", !ev || ev->trm[0]);
		cj_kstr(&j, "unit", ev ? ev->unit : "");
		cj_kstr(&j, "scale", ev ? ev->scale : "");
		cj_words(&j, "synonyms", syn);
		missing_on(name, miss, sizeof(miss));
		cj_words(&j, "not_offered_by", miss);
		cj_kstr(&j, "description", ev ? ev->desc : CMN_HNF_DTC_CYCLES_DESC);
		cj_obj_end(&j);
	}
	cj_arr_end(&j);
	cj_key(&j, "metric_groups");
	cj_arr(&j);
	for (i = 0; i < cmn_num_metric_groups; i++) {
		const struct cmn_metric_group *g = &cmn_metric_groups[i];

		cj_obj(&j);
		cj_kstr(&j, "name", g->name);
		cj_kstr(&j, "short", g->short_name);
		cj_kstr(&j, "title", g->title);
		cj_kstr(&j, "description", g->desc);
		cj_obj_end(&j);
	}
	cj_arr_end(&j);
	cj_key(&j, "metrics");
	cj_arr(&j);
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];
		const struct cmn_terms *t = cmn_metric_terms((int)i);
		int k;

		cj_obj(&j);
		cj_kstr(&j, "name", m->name);
		cj_kstr(&j, "group", m->group);
		cj_kstr(&j, "title", m->title);
		cj_kstr(&j, "formula", m->formula);
		cj_key(&j, "events");
		cj_arr(&j);
		for (k = 0; k < t->n; k++)
			cj_str(&j, t->name[k]);
		cj_arr_end(&j);
		cj_kstr(&j, "unit", m->unit);
		cj_kstr(&j, "threshold", m->threshold);
		cj_kint(&j, "level", m->level);
		cj_words(&j, "next", m->next);
		cj_kstr(&j, "description", m->desc);
		cj_obj_end(&j);
	}
	cj_arr_end(&j);
	cj_obj_end(&j);
	cj_end(&j);
}

/* The words cmn-hnf stat and top accept, one per line (shell completion) */
static void list_names(FILE *out)
{
	size_t i;

	fputs("all\n", out);
	for (i = 0; i < cmn_num_metric_groups; i++)
		fprintf(out, "%s\n%s\n", cmn_metric_groups[i].name,
			cmn_metric_groups[i].short_name);
	for (i = 0; i < cmn_num_metrics; i++)
		fprintf(out, "%s\n", cmn_metrics[i].name);
}

int cmd_list(int argc, char **argv, FILE *out)
{
	bool json = false, names = false;
	const struct cmn_opt opts[] = {
		{ 0x101, "names", NULL, CMN_OPT_FLAG, &names, .help =
		  "only the metric, group and short group names that\n"
		  "'stat' and 'top' accept, one per line" },
		{ 0 },
	};
	const struct cmn_cmd cmd = {
		.name = "list", .synopsis = "[--json|--names]", .opts = opts,
		.json = &json,
		.desc =
		"List every HN-F event (perf encoding, TRM name, unit and scale, synonyms,\n"
		"description, the PMUs whose events/ lack it, e.g. by revision), the\n"
		"dtc_cycles event, the metric groups and the metrics.",
	};
	int ret, first;

	ret = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (json && names)
		return cmn_usage_error(&cmd, "--json and --names exclude each other");
	if (names) {
		list_names(out);
		return 0;
	}
	/* Without PMUs (or sysfs) the list is the table alone */
	list_pmus = calloc(CMN_MAX_PMUS, sizeof(*list_pmus));
	if (list_pmus) {
		char why[256];

		list_npmu = cmn_pmus_scan(list_pmus, CMN_MAX_PMUS, why,
					  sizeof(why));
		if (list_npmu < 0)
			list_npmu = 0;
	}
	if (json)
		list_json(out);
	else
		list_text(out);
	free(list_pmus);
	list_pmus = NULL;
	list_npmu = 0;
	return 0;
}
