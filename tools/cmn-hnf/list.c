// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf list: every event of events.h and every metric of metrics.def.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <arm_cmn_hnf/events.h>

#include "cmn-hnf.h"

static void list_usage(FILE *f)
{
	fprintf(f,
		"usage: cmn-hnf list [--json]\n"
		"\n"
		"List every HN-F event (perf encoding, TRM name, unit and scale, synonyms,\n"
		"description, the PMUs whose events/ lack it, e.g. by revision), the\n"
		"dtc_cycles event, the metric groups and the metrics.\n"
		"\n"
		"      --json    machine-readable output\n"
		"  -h, --help    this help\n");
}

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

	fprintf(out, "HN-F events (PMU arm_cmn_hnf_<n>; perf: arm_cmn_hnf_0/<name>/):\n\n");
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
		fprintf(out, "  %-32s group %s", "", m->group);
		if (m->threshold[0])
			fprintf(out, ", look when %s", m->threshold);
		if (m->next[0])
			fprintf(out, ", then: %s", m->next);
		fputc('\n', out);
	}
}

static void json_kv(FILE *out, const char *k, const char *v, bool comma)
{
	cmn_json_str(out, k);
	fputs(": ", out);
	cmn_json_str(out, v);
	if (comma)
		fputs(", ", out);
}

static void list_json(FILE *out)
{
	char enc[64], syn[256], miss[512];
	size_t i;

	fputs("{\n  \"events\": [\n", out);
	for (i = 0; i < cmn_num_events; i++) {
		const struct cmn_event *ev = &cmn_events[i];

		encoding(ev, enc, sizeof(enc));
		synonyms(ev, syn, sizeof(syn));
		fputs("    {", out);
		json_kv(out, "name", ev->name, true);
		fprintf(out, "\"eventid\": %d, \"occupid\": ", ev->eventid);
		if (ev->occupid >= 0)
			fprintf(out, "%d, ", ev->occupid);
		else
			fputs("null, ", out);
		json_kv(out, "encoding", enc, true);
		json_kv(out, "trm", ev->trm, true);
		fprintf(out, "\"primary\": %s, ", ev->trm[0] ? "true" : "false");
		json_kv(out, "unit", ev->unit, true);
		json_kv(out, "scale", ev->scale, true);
		json_kv(out, "synonyms", syn, true);
		missing_on(ev->name, miss, sizeof(miss));
		json_kv(out, "not_offered_by", miss, true);
		json_kv(out, "description", ev->desc, false);
		fputs("},\n", out);
	}
	fputs("    {", out);
	json_kv(out, "name", CMN_HNF_DTC_CYCLES_NAME, true);
	fputs("\"eventid\": null, \"occupid\": null, ", out);
	json_kv(out, "encoding", "type=0x3", true);
	json_kv(out, "trm", "", true);
	fputs("\"primary\": true, ", out);
	json_kv(out, "unit", "", true);
	json_kv(out, "scale", "", true);
	json_kv(out, "synonyms", "", true);
	missing_on(CMN_HNF_DTC_CYCLES_NAME, miss, sizeof(miss));
	json_kv(out, "not_offered_by", miss, true);
	json_kv(out, "description", CMN_HNF_DTC_CYCLES_DESC, false);
	fputs("}\n  ],\n  \"metric_groups\": [\n", out);
	for (i = 0; i < cmn_num_metric_groups; i++) {
		const struct cmn_metric_group *g = &cmn_metric_groups[i];

		fputs("    {", out);
		json_kv(out, "name", g->name, true);
		json_kv(out, "short", g->short_name, true);
		json_kv(out, "title", g->title, true);
		json_kv(out, "description", g->desc, false);
		fprintf(out, "}%s\n", i + 1 < cmn_num_metric_groups ? "," : "");
	}
	fputs("  ],\n  \"metrics\": [\n", out);
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		fputs("    {", out);
		json_kv(out, "name", m->name, true);
		json_kv(out, "group", m->group, true);
		json_kv(out, "title", m->title, true);
		json_kv(out, "formula", m->formula, true);
		json_kv(out, "unit", m->unit, true);
		json_kv(out, "threshold", m->threshold, true);
		fprintf(out, "\"level\": %d, ", m->level);
		json_kv(out, "next", m->next, true);
		json_kv(out, "description", m->desc, false);
		fprintf(out, "}%s\n", i + 1 < cmn_num_metrics ? "," : "");
	}
	fputs("  ]\n}\n", out);
}

int cmd_list(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool json = false;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			list_usage(out);
			return 0;
		default:
			list_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		list_usage(stderr);
		return 2;
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
