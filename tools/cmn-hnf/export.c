// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf metrics: export the metric definitions of metrics.def in the
 * shape of Arm's telemetry specification (the JSON that topdown-tool
 * reads) or of perf's JSON metric tables (tools/perf/pmu-events).
 */
#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmn-hnf.h"

/* ---- SHA-1 (FIPS 180-4), for the document's sha1 field ---- */

struct sha1 {
	uint32_t h[5];
	uint64_t len;
	uint8_t buf[64];
	size_t n;
};

static uint32_t rol(uint32_t v, int s)
{
	return (v << s) | (v >> (32 - s));
}

static void sha1_block(struct sha1 *s, const uint8_t *p)
{
	uint32_t w[80], a, b, c, d, e, f, k, t;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 80; i++)
		w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
	a = s->h[0];
	b = s->h[1];
	c = s->h[2];
	d = s->h[3];
	e = s->h[4];
	for (i = 0; i < 80; i++) {
		if (i < 20) {
			f = (b & c) | (~b & d);
			k = 0x5a827999;
		} else if (i < 40) {
			f = b ^ c ^ d;
			k = 0x6ed9eba1;
		} else if (i < 60) {
			f = (b & c) | (b & d) | (c & d);
			k = 0x8f1bbcdc;
		} else {
			f = b ^ c ^ d;
			k = 0xca62c1d6;
		}
		t = rol(a, 5) + f + e + k + w[i];
		e = d;
		d = c;
		c = rol(b, 30);
		b = a;
		a = t;
	}
	s->h[0] += a;
	s->h[1] += b;
	s->h[2] += c;
	s->h[3] += d;
	s->h[4] += e;
}

static void sha1_update(struct sha1 *s, const void *data, size_t len)
{
	const uint8_t *p = data;

	s->len += len;
	while (len--) {
		s->buf[s->n++] = *p++;
		if (s->n == 64) {
			sha1_block(s, s->buf);
			s->n = 0;
		}
	}
}

void cmn_sha1_hex(const void *data, size_t len, char hex[41])
{
	struct sha1 s = {
		.h = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476,
		       0xc3d2e1f0 },
	};
	uint64_t bits;
	uint8_t pad = 0x80, zero = 0, lenb[8];
	int i;

	sha1_update(&s, data, len);
	bits = s.len * 8;
	sha1_update(&s, &pad, 1);
	while (s.n != 56)
		sha1_update(&s, &zero, 1);
	for (i = 0; i < 8; i++)
		lenb[i] = (uint8_t)(bits >> (56 - 8 * i));
	sha1_update(&s, lenb, 8);
	for (i = 0; i < 5; i++)
		snprintf(hex + 8 * i, 9, "%08x", s.h[i]);
}

/* ---- names ---- */

/* Telemetry-spec event name: HNF_<ALIAS>, SYS_CMN_CYCLES, SYS_DURATION_TIME */
static void tele_name(const char *alias, char *buf, size_t len)
{
	size_t i, o;

	if (!strcmp(alias, CMN_DTC_CYCLES)) {
		snprintf(buf, len, "SYS_CMN_CYCLES");
		return;
	}
	if (!strcmp(alias, CMN_DURATION_TIME)) {
		snprintf(buf, len, "SYS_DURATION_TIME");
		return;
	}
	o = snprintf(buf, len, "HNF_");
	for (i = 0; alias[i] && o + 1 < len; i++)
		buf[o++] = (char)toupper((unsigned char)alias[i]);
	buf[o] = '\0';
}

/* The formula with every name replaced by its telemetry name */
static void tele_formula(const char *f, char *buf, size_t len)
{
	char name[CMN_NAME_LEN], tn[CMN_NAME_LEN];
	size_t o = 0, n;

	while (*f && o + 1 < len) {
		if (isalpha((unsigned char)*f) || *f == '_') {
			for (n = 0; (isalnum((unsigned char)f[n]) || f[n] == '_') &&
			     n + 1 < sizeof(name); n++)
				name[n] = f[n];
			name[n] = '\0';
			f += n;
			tele_name(name, tn, sizeof(tn));
			o += snprintf(buf + o, len - o, "%s", tn);
			if (o >= len)
				o = len - 1;
		} else {
			buf[o++] = *f++;
		}
	}
	buf[o] = '\0';
}

static void json_strings(FILE *out, const char (*names)[CMN_NAME_LEN], int n,
			 bool tele)
{
	char tn[CMN_NAME_LEN];
	int i;

	fputc('[', out);
	for (i = 0; i < n; i++) {
		if (tele)
			tele_name(names[i], tn, sizeof(tn));
		fputs(i ? ", " : "", out);
		cmn_json_str(out, tele ? tn : names[i]);
	}
	fputc(']', out);
}

static void json_words(FILE *out, const char *words, bool tele)
{
	char w[CMN_NAME_LEN], tn[CMN_NAME_LEN];
	const char *p = words;
	bool first = true;
	size_t n;

	fputc('[', out);
	while (*p) {
		while (*p == ' ')
			p++;
		for (n = 0; p[n] && p[n] != ' ' && n + 1 < sizeof(w); n++)
			w[n] = p[n];
		w[n] = '\0';
		p += n;
		if (!n)
			continue;
		if (tele)
			tele_name(w, tn, sizeof(tn));
		fputs(first ? "" : ", ", out);
		cmn_json_str(out, tele ? tn : w);
		first = false;
	}
	fputc(']', out);
}

static void defs_digest(char hex[41])
{
	char *buf;
	size_t len = 0, cap = 65536, i;

	buf = malloc(cap);
	if (!buf) {
		hex[0] = '\0';
		return;
	}
	for (i = 0; i < cmn_num_events && len < cap; i++)
		len += snprintf(buf + len, cap - len, "%s %d %d %s\n",
				cmn_events[i].name, cmn_events[i].eventid,
				cmn_events[i].occupid, cmn_events[i].desc);
	for (i = 0; i < cmn_num_metrics && len < cap; i++)
		len += snprintf(buf + len, cap - len, "%s %s %s %s %s\n",
				cmn_metrics[i].name, cmn_metrics[i].group,
				cmn_metrics[i].formula, cmn_metrics[i].unit,
				cmn_metrics[i].threshold);
	cmn_sha1_hex(buf, len < cap ? len : cap, hex);
	free(buf);
}

static void kv(FILE *out, const char *indent, const char *k, const char *v,
	       bool comma)
{
	fputs(indent, out);
	cmn_json_str(out, k);
	fputs(": ", out);
	cmn_json_str(out, v);
	fputs(comma ? ",\n" : "\n", out);
}

static void tele_event(FILE *out, const char *name, const char *code,
		       const char *title, const char *desc,
		       const char *access, const char *perf, bool comma)
{
	fputs("    ", out);
	cmn_json_str(out, name);
	fputs(": {\n", out);
	kv(out, "      ", "code", code, true);
	kv(out, "      ", "title", title, true);
	kv(out, "      ", "description", desc, true);
	fputs("      \"accesses\": [", out);
	cmn_json_str(out, access);
	fputs("],\n      \"architecture_defined\": false,\n", out);
	fputs("      \"product_defined\": true,\n", out);
	kv(out, "      ", "perf_event", perf, false);
	fprintf(out, "    }%s\n", comma ? "," : "");
}

static void export_telemetry(FILE *out)
{
	const struct cmn_terms *mterms;
	char hex[41], ts[64], tn[CMN_NAME_LEN], code[16], perf[96];
	char formula[512], terms[64];
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t now = sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	size_t i, g, k;
	bool first;

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%d %b %H:%M:%S %Y", &tm);
	defs_digest(hex);

	fputs("{\n  \"$schema\": \"v1.0.schema.json\",\n  \"document\": {\n", out);
	kv(out, "    ", "timestamp", ts, true);
	kv(out, "    ", "copyright", "arm_cmn_hnf authors", true);
	fputs("    \"confidential\": false,\n", out);
	kv(out, "    ", "quality", "Draft", true);
	kv(out, "    ", "license", "GPL-2.0", true);
	kv(out, "    ", "description",
	   "Telemetry Specification (PMU Events, Metrics and Methodology) for the CMN-600 HN-F, as counted by the arm_cmn_hnf perf PMU",
	   true);
	kv(out, "    ", "sha1", hex, false);
	fputs("  },\n  \"product_configuration\": {\n", out);
	kv(out, "    ", "product_name", "CMN-600", true);
	kv(out, "    ", "part_num", "0x434", true);
	kv(out, "    ", "major_revision", "1", true);
	kv(out, "    ", "minor_revision", "0", true);
	kv(out, "    ", "implementer", "0x41", true);
	kv(out, "    ", "architecture", "amba5_chi", true);
	kv(out, "    ", "pmu_architecture", "arm_cmn_hnf", true);
	fputs("    \"num_slots\": 8,\n    \"num_bus_slots\": 0\n  },\n", out);

	fputs("  \"events\": {\n", out);
	for (i = 0; i < cmn_num_events; i++) {
		const struct cmn_event *ev = &cmn_events[i];

		if (!cmn_event_is_first_encoding(ev))
			continue;
		tele_name(ev->name, tn, sizeof(tn));
		snprintf(code, sizeof(code), "0x%02X", ev->eventid);
		cmn_event_terms(ev, terms, sizeof(terms));
		snprintf(perf, sizeof(perf), "arm_cmn_hnf/%s/", terms);
		tele_event(out, tn, code, ev->trm[0] ? ev->trm : ev->desc,
			   ev->desc, "PMU", perf, true);
	}
	tele_event(out, "SYS_CMN_CYCLES", "0x00", "DTC cycle counter",
		   "Cycles of the mesh clock, counted by DTC0", "PMU",
		   "arm_cmn_hnf/type=0x3/", true);
	tele_event(out, "SYS_DURATION_TIME", "0x00", "Wall-clock time",
		   "Seconds of wall-clock time measured by the tool (perf duration_time)",
		   "TOOL", "duration_time", false);
	fputs("  },\n  \"metrics\": {\n", out);
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		mterms = cmn_metric_terms((int)i);
		tele_formula(m->formula, formula, sizeof(formula));
		fputs("    ", out);
		cmn_json_str(out, m->name);
		fputs(": {\n", out);
		kv(out, "      ", "title", m->title, true);
		kv(out, "      ", "formula", formula, true);
		kv(out, "      ", "description", m->desc, true);
		kv(out, "      ", "units", m->units, true);
		fputs("      \"events\": ", out);
		json_strings(out, mterms->name, mterms->n, true);
		fputs(",\n      \"sample_events\": [],\n", out);
		kv(out, "      ", "threshold", m->threshold, false);
		fprintf(out, "    }%s\n", i + 1 < cmn_num_metrics ? "," : "");
	}
	fputs("  },\n  \"groups\": {\n    \"function\": {\n", out);
	for (g = 0; g < cmn_num_event_groups; g++) {
		const struct cmn_event_group *eg = &cmn_event_groups[g];

		fputs("      ", out);
		cmn_json_str(out, eg->name);
		fputs(": {\n", out);
		kv(out, "        ", "title", eg->title, true);
		kv(out, "        ", "description", eg->desc, true);
		fputs("        \"events\": ", out);
		json_words(out, eg->events, true);
		fprintf(out, "\n      }%s\n",
			g + 1 < cmn_num_event_groups ? "," : "");
	}
	fputs("    },\n    \"metrics\": {\n", out);
	for (g = 0; g < cmn_num_metric_groups; g++) {
		const struct cmn_metric_group *mg = &cmn_metric_groups[g];

		fputs("      ", out);
		cmn_json_str(out, mg->name);
		fputs(": {\n", out);
		kv(out, "        ", "title", mg->title, true);
		kv(out, "        ", "description", mg->desc, true);
		fputs("        \"metrics\": [", out);
		first = true;
		for (k = 0; k < cmn_num_metrics; k++) {
			if (strcmp(cmn_metrics[k].group, mg->name))
				continue;
			fputs(first ? "" : ", ", out);
			cmn_json_str(out, cmn_metrics[k].name);
			first = false;
		}
		fprintf(out, "]\n      }%s\n",
			g + 1 < cmn_num_metric_groups ? "," : "");
	}
	fputs("    }\n  },\n", out);

	/* Level-1 metrics are the roots; their groups are stage 1. */
	fputs("  \"methodologies\": {\n    \"topdown_methodology\": {\n", out);
	kv(out, "      ", "title", "HN-F Topdown Methodology", true);
	kv(out, "      ", "description",
	   "Start from the level-1 metrics; where a threshold is crossed, look at the groups named next",
	   true);
	fputs("      \"metric_grouping\": {\n", out);
	for (k = 1; k <= 2; k++) {
		fprintf(out, "        \"stage_%zu\": [", k);
		first = true;
		for (g = 0; g < cmn_num_metric_groups; g++) {
			int lvl = 2;

			for (i = 0; i < cmn_num_metrics; i++)
				if (!strcmp(cmn_metrics[i].group,
					    cmn_metric_groups[g].name) &&
				    cmn_metrics[i].level < lvl)
					lvl = cmn_metrics[i].level;
			if ((size_t)lvl != k)
				continue;
			fputs(first ? "" : ", ", out);
			cmn_json_str(out, cmn_metric_groups[g].name);
			first = false;
		}
		fprintf(out, "]%s\n", k == 1 ? "," : "");
	}
	fputs("      },\n      \"decision_tree\": {\n        \"root_nodes\": [", out);
	first = true;
	for (i = 0; i < cmn_num_metrics; i++) {
		if (cmn_metrics[i].level != 1)
			continue;
		fputs(first ? "" : ", ", out);
		cmn_json_str(out, cmn_metrics[i].name);
		first = false;
	}
	fputs("],\n        \"metrics\": [\n", out);
	first = true;
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		if (!m->next[0])
			continue;
		fprintf(out, "%s          {\n", first ? "" : ",\n");
		first = false;
		kv(out, "            ", "name", m->name, true);
		kv(out, "            ", "group", m->group, true);
		fputs("            \"next_items\": ", out);
		json_words(out, m->next, false);
		fputs(",\n            \"sample_events\": []\n          }", out);
	}
	fputs("\n        ]\n      }\n    }\n  }\n}\n", out);
}

static void export_perf_json(FILE *out)
{
	char su[64], thr[128];
	size_t i;

	fputs("[\n", out);
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		snprintf(su, sizeof(su), "1%s", m->unit);
		fputs("  {\n", out);
		kv(out, "    ", "MetricName", m->name, true);
		kv(out, "    ", "MetricExpr", m->formula, true);
		kv(out, "    ", "BriefDescription", m->title, true);
		kv(out, "    ", "PublicDescription", m->desc, true);
		kv(out, "    ", "MetricGroup", m->group, true);
		kv(out, "    ", "ScaleUnit", su, true);
		if (m->threshold[0]) {
			snprintf(thr, sizeof(thr), "%s %s", m->name,
				 m->threshold);
			kv(out, "    ", "MetricThreshold", thr, true);
		}
		kv(out, "    ", "Unit", "arm_cmn_hnf", true);
		kv(out, "    ", "Compat", "434*;438*", false);
		fprintf(out, "  }%s\n", i + 1 < cmn_num_metrics ? "," : "");
	}
	fputs("]\n", out);
}

static void metrics_usage(FILE *f)
{
	fprintf(f,
		"usage: cmn-hnf metrics --format telemetry|perf-json\n"
		"\n"
		"Export the metric definitions (tools/metrics/metrics.def):\n"
		"  telemetry   Arm telemetry-specification JSON (document,\n"
		"              product_configuration, events, metrics, groups,\n"
		"              methodologies), with a per-metric threshold\n"
		"  perf-json   perf pmu-events metric JSON (MetricName, MetricExpr,\n"
		"              ScaleUnit, MetricGroup, MetricThreshold, Unit, Compat)\n"
		"\n"
		"  -f, --format FMT   telemetry (default) or perf-json\n"
		"  -h, --help         this help\n");
}

int cmd_metrics(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *fmt = "telemetry";
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "f:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			fmt = optarg;
			break;
		case 'h':
			metrics_usage(out);
			return 0;
		default:
			metrics_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		metrics_usage(stderr);
		return 2;
	}
	if (!strcmp(fmt, "telemetry")) {
		export_telemetry(out);
	} else if (!strcmp(fmt, "perf-json")) {
		export_perf_json(out);
	} else {
		fprintf(stderr, "%s: unknown format '%s'\n", cmn_prog, fmt);
		metrics_usage(stderr);
		return 2;
	}
	return 0;
}
