// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf metrics: export the metric definitions of metrics.def as perf's
 * pmu-events metric JSON (tools/perf/pmu-events/arch/arm64/<vendor>/
 * <model>/sys/, built into perf by jevents.py), or as a description laid
 * out like Arm's telemetry specification JSON (for reading and diffing;
 * no tool counts from it, see Documentation/cmn-hnf-tool.rst).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <sys/stat.h>
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

/*
 * An event of the description. There is deliberately no "code" key: the
 * CPU telemetry files have one per core event, and a loader that takes
 * this file for one must fail, not count core events with HN-F numbers.
 */
static void tele_event(struct cmn_json *j, const char *name, int eventid,
		       int occupid, const char *title, const char *desc,
		       const char *access, const char *perf)
{
	cj_key(j, name);
	cj_obj(j);
	cj_kstr(j, "title", title);
	cj_kstr(j, "description", desc);
	cj_key(j, "accesses");
	cj_arr(j);
	cj_str(j, access);
	cj_arr_end(j);
	cj_kbool(j, "architecture_defined", false);
	cj_kbool(j, "product_defined", true);
	cj_key(j, "eventid");
	if (eventid >= 0)
		cj_int(j, eventid);
	else
		cj_null(j);
	cj_key(j, "occupid");
	if (occupid >= 0)
		cj_int(j, occupid);
	else
		cj_null(j);
	cj_kstr(j, "perf_event", perf);
	cj_obj_end(j);
}

/* The blank separated words of @words, each through tele_name() */
static void tele_words(struct cmn_json *j, const char *words)
{
	char w[CMN_NAME_LEN], tn[CMN_NAME_LEN];
	const char *p = words;
	size_t n;

	cj_arr(j);
	while (*p) {
		while (*p == ' ')
			p++;
		for (n = 0; p[n] && p[n] != ' ' && n + 1 < sizeof(w); n++)
			w[n] = p[n];
		w[n] = '\0';
		p += n;
		if (!n)
			continue;
		tele_name(w, tn, sizeof(tn));
		cj_str(j, tn);
	}
	cj_arr_end(j);
}

static void export_telemetry(FILE *out, time_t now)
{
	const struct cmn_terms *mterms;
	char hex[41], ts[64], tn[CMN_NAME_LEN], perf[96];
	char formula[512], terms[64];
	struct cmn_json j;
	struct tm tm;
	size_t i, g, k;
	int t;

	gmtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%d %b %H:%M:%S %Y", &tm);
	defs_digest(hex);

	cj_init(&j, out, true);
	cj_obj(&j);
	cj_kstr(&j, "$schema", "v1.0.schema.json");
	cj_key(&j, "document");
	cj_obj(&j);
	cj_kstr(&j, "timestamp", ts);
	cj_kstr(&j, "copyright", "arm_cmn_hnf authors");
	cj_kbool(&j, "confidential", false);
	cj_kstr(&j, "quality", "Draft");
	cj_kstr(&j, "license", "GPL-2.0");
	cj_kstr(&j, "description",
		"Description of the CMN-600 HN-F events, metrics and methodology counted by the arm_cmn_hnf perf PMU, laid out like Arm's telemetry specification. For reading and comparing: no tool counts from this file (topdown-tool does not read it); count with cmn-hnf stat or perf.");
	cj_kstr(&j, "sha1", hex);
	cj_obj_end(&j);
	cj_key(&j, "product_configuration");
	cj_obj(&j);
	cj_kstr(&j, "product_name", "CMN-600");
	cj_kstr(&j, "part_num", "0x434");
	cj_kstr(&j, "major_revision", "1");
	cj_kstr(&j, "minor_revision", "0");
	cj_kstr(&j, "implementer", "0x41");
	cj_kstr(&j, "architecture", "amba5_chi");
	cj_kstr(&j, "pmu_architecture", "arm_cmn_hnf");
	cj_kint(&j, "num_slots", 8);
	cj_kint(&j, "num_bus_slots", 0);
	cj_obj_end(&j);

	cj_key(&j, "events");
	cj_obj(&j);
	for (i = 0; i < cmn_num_events; i++) {
		const struct cmn_event *ev = &cmn_events[i];

		if (!cmn_event_is_first_encoding(ev))
			continue;
		tele_name(ev->name, tn, sizeof(tn));
		cmn_event_terms(ev, terms, sizeof(terms));
		snprintf(perf, sizeof(perf), "arm_cmn_hnf/%s/", terms);
		tele_event(&j, tn, ev->eventid, ev->occupid,
			   ev->trm[0] ? ev->trm : ev->desc, ev->desc, "PMU", perf);
	}
	tele_event(&j, "SYS_CMN_CYCLES", -1, -1, "DTC cycle counter",
		   "Cycles of the mesh clock, counted by DTC0", "PMU",
		   "arm_cmn_hnf/type=0x3/");
	tele_event(&j, "SYS_DURATION_TIME", -1, -1, "Wall-clock time",
		   "Seconds of wall-clock time measured by the tool (perf duration_time)",
		   "TOOL", "duration_time");
	cj_obj_end(&j);

	cj_key(&j, "metrics");
	cj_obj(&j);
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		mterms = cmn_metric_terms((int)i);
		tele_formula(m->formula, formula, sizeof(formula));
		cj_key(&j, m->name);
		cj_obj(&j);
		cj_kstr(&j, "title", m->title);
		cj_kstr(&j, "formula", formula);
		cj_kstr(&j, "description", m->desc);
		cj_kstr(&j, "units", m->units);
		cj_key(&j, "events");
		cj_arr(&j);
		for (t = 0; t < mterms->n; t++) {
			tele_name(mterms->name[t], tn, sizeof(tn));
			cj_str(&j, tn);
		}
		cj_arr_end(&j);
		cj_key(&j, "sample_events");
		cj_arr(&j);
		cj_arr_end(&j);
		cj_kstr(&j, "threshold", m->threshold);
		cj_obj_end(&j);
	}
	cj_obj_end(&j);

	cj_key(&j, "groups");
	cj_obj(&j);
	cj_key(&j, "function");
	cj_obj(&j);
	for (g = 0; g < cmn_num_event_groups; g++) {
		const struct cmn_event_group *eg = &cmn_event_groups[g];

		cj_key(&j, eg->name);
		cj_obj(&j);
		cj_kstr(&j, "title", eg->title);
		cj_kstr(&j, "description", eg->desc);
		cj_key(&j, "events");
		tele_words(&j, eg->events);
		cj_obj_end(&j);
	}
	cj_obj_end(&j);
	cj_key(&j, "metrics");
	cj_obj(&j);
	for (g = 0; g < cmn_num_metric_groups; g++) {
		const struct cmn_metric_group *mg = &cmn_metric_groups[g];

		cj_key(&j, mg->name);
		cj_obj(&j);
		cj_kstr(&j, "title", mg->title);
		cj_kstr(&j, "description", mg->desc);
		cj_key(&j, "metrics");
		cj_arr(&j);
		for (k = 0; k < cmn_num_metrics; k++)
			if (!strcmp(cmn_metrics[k].group, mg->name))
				cj_str(&j, cmn_metrics[k].name);
		cj_arr_end(&j);
		cj_obj_end(&j);
	}
	cj_obj_end(&j);
	cj_obj_end(&j);

	/* Level-1 metrics are the roots; their groups are stage 1. */
	cj_key(&j, "methodologies");
	cj_obj(&j);
	cj_key(&j, "topdown_methodology");
	cj_obj(&j);
	cj_kstr(&j, "title", "HN-F Topdown Methodology");
	cj_kstr(&j, "description",
		"Start from the level-1 metrics; where a threshold is crossed, look at the groups named next");
	cj_key(&j, "metric_grouping");
	cj_obj(&j);
	for (k = 1; k <= 2; k++) {
		snprintf(tn, sizeof(tn), "stage_%zu", k);
		cj_key(&j, tn);
		cj_arr(&j);
		for (g = 0; g < cmn_num_metric_groups; g++) {
			int lvl = 2;

			for (i = 0; i < cmn_num_metrics; i++)
				if (!strcmp(cmn_metrics[i].group,
					    cmn_metric_groups[g].name) &&
				    cmn_metrics[i].level < lvl)
					lvl = cmn_metrics[i].level;
			if ((size_t)lvl == k)
				cj_str(&j, cmn_metric_groups[g].name);
		}
		cj_arr_end(&j);
	}
	cj_obj_end(&j);
	cj_key(&j, "decision_tree");
	cj_obj(&j);
	cj_key(&j, "root_nodes");
	cj_arr(&j);
	for (i = 0; i < cmn_num_metrics; i++)
		if (cmn_metrics[i].level == 1)
			cj_str(&j, cmn_metrics[i].name);
	cj_arr_end(&j);
	cj_key(&j, "metrics");
	cj_arr(&j);
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];

		if (!m->next[0])
			continue;
		cj_obj(&j);
		cj_kstr(&j, "name", m->name);
		cj_kstr(&j, "group", m->group);
		cj_words(&j, "next_items", m->next);
		cj_key(&j, "sample_events");
		cj_arr(&j);
		cj_arr_end(&j);
		cj_obj_end(&j);
	}
	cj_arr_end(&j);
	cj_obj_end(&j);
	cj_obj_end(&j);
	cj_obj_end(&j);
	cj_obj_end(&j);
	cj_end(&j);
}

/*
 * perf matches a sys metric's Compat against the PMU's identifier file:
 * with strcmp() before perf 6.6, as a regular expression that must match
 * the whole identifier since. The identifier is "%03x%02x" (part,
 * revision): 434xx for CMN-600, 438xx for CMN-600AE.
 */
#define CMN_PERF_COMPAT_RE	"43[48][0-9a-f]{2}"

/* Identifiers written out one by one for perf before 6.6 (--exact-compat) */
static const char *const cmn_known_ids[] = {
	"43400", "43401", "43402", "43403", "43404", "43405", "43406",
	"43800", "43801", "43802", "43803", "43804", "43805", "43806",
};

/*
 * perf's own arm_cmn tables have metrics called slc_miss_rate and
 * sf_hit_rate whose Compat also matches CMN-600: with the same names,
 * "perf stat -M slc_miss_rate" would take theirs too and fail on events
 * the arm_cmn_hnf PMU does not have. The exported names carry the prefix
 * of the Prometheus names instead.
 */
#define CMN_PERF_METRIC_PREFIX	"cmn_hnf_"

static void perf_metric(struct cmn_json *j, const struct cmn_metric *m,
			const char *compat)
{
	char su[64], thr[600], name[CMN_NAME_LEN + 16];

	snprintf(su, sizeof(su), "1%s", m->unit);
	snprintf(name, sizeof(name), CMN_PERF_METRIC_PREFIX "%s", m->name);
	cj_obj(j);
	cj_kstr(j, "MetricName", name);
	cj_kstr(j, "MetricExpr", m->formula);
	cj_kstr(j, "BriefDescription", m->title);
	cj_kstr(j, "PublicDescription", m->desc);
	cj_kstr(j, "MetricGroup", m->group);
	cj_kstr(j, "ScaleUnit", su);
	/*
	 * The threshold over the events, not the metric's name: perf resolves
	 * metric references in the core table only, so a sys metric that
	 * names itself would be taken for an event.
	 */
	if (m->threshold[0]) {
		snprintf(thr, sizeof(thr), "(%s) %s", m->formula, m->threshold);
		cj_kstr(j, "MetricThreshold", thr);
	}
	cj_kstr(j, "Unit", "arm_cmn_hnf");
	cj_kstr(j, "Compat", compat);
	cj_obj_end(j);
}

static void export_perf_json(FILE *out, bool exact)
{
	struct cmn_json j;
	size_t i, k;

	cj_init(&j, out, true);
	cj_arr(&j);
	for (i = 0; i < cmn_num_metrics; i++) {
		if (!exact) {
			perf_metric(&j, &cmn_metrics[i], CMN_PERF_COMPAT_RE);
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(cmn_known_ids); k++)
			perf_metric(&j, &cmn_metrics[i], cmn_known_ids[k]);
	}
	cj_arr_end(&j);
	cj_end(&j);
}

/* Where perf's tree keeps the file, under tools/perf/pmu-events/arch */
#define CMN_PERF_JSON_DIR	"arm64/arm/cmn600-hnf/sys"
#define CMN_PERF_JSON_FILE	"metrics.json"

static int mkdir_p(char *path)
{
	char *p;

	for (p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			*p = '/';
			return -errno;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int cmd_metrics(int argc, char **argv, FILE *out)
{
	static const char *const formats[] = { "telemetry", "perf-json", NULL };
	const char *fmt = "telemetry", *dir = NULL;
	bool exact = false;
	const struct cmn_opt opts[] = {
		{ 'f', "format", "FMT", CMN_OPT_CHOICE, &fmt, .choices = formats,
		  .help = "telemetry (default) or perf-json" },
		{ 'o', "output-dir", "DIR", CMN_OPT_STR, &dir, .help =
		  "perf-json: write DIR/" CMN_PERF_JSON_DIR "/" CMN_PERF_JSON_FILE "\n"
		  "(DIR: tools/perf/pmu-events/arch of a perf source tree)" },
		{ 0x101, "exact-compat", NULL, CMN_OPT_FLAG, &exact, .help =
		  "perf-json: one entry per known identifier, for perf\n"
		  "before 6.6 (it compares Compat with strcmp)" },
		{ 0 },
	};
	const struct cmn_cmd cmd = {
		.name = "metrics", .opts = opts,
		.synopsis = "[--format telemetry|perf-json] [--output-dir DIR] [--exact-compat]",
		.desc =
		"Export the metric definitions (tools/metrics/metrics.def):\n"
		"  perf-json   perf pmu-events metric JSON (MetricName, MetricExpr,\n"
		"              ScaleUnit, MetricGroup, MetricThreshold, Unit, Compat)\n"
		"              for perf's tools/perf/pmu-events/arch/" CMN_PERF_JSON_DIR "/\n"
		"  telemetry   a description in the layout of Arm's telemetry\n"
		"              specification (document, product_configuration, events,\n"
		"              metrics, groups, methodologies), for reading and diffing;\n"
		"              no tool counts from it",
	};
	char path[CMN_PATH_LEN];
	const char *sde, *bad;
	struct stat st;
	int ret, first;
	long epoch;
	FILE *f;

	ret = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
	if (strcmp(fmt, "perf-json") && (dir || exact))
		return cmn_usage_error(&cmd, "--%s needs --format perf-json",
				       dir ? "output-dir" : "exact-compat");
	if (!strcmp(fmt, "telemetry")) {
		/* reproducible-builds.org: a malformed value is an error */
		sde = getenv("SOURCE_DATE_EPOCH");
		if (sde && cmn_parse_long(sde, 0, LONG_MAX, &epoch)) {
			fprintf(stderr,
				"%s metrics: SOURCE_DATE_EPOCH='%s' is not a number of seconds since 1970\n",
				cmn_prog, sde);
			return 1;
		}
		export_telemetry(out, sde ? (time_t)epoch : time(NULL));
		return 0;
	}
	if (!dir) {
		export_perf_json(out, exact);
		return 0;
	}
	/* DIR is perf's pmu-events/arch: it must exist, only below it is made */
	bad = stat(dir, &st) ? strerror(errno) :
	      !S_ISDIR(st.st_mode) ? "not a directory" : NULL;
	if (bad) {
		fprintf(stderr,
			"%s metrics: --output-dir %s: %s (it must exist: perf's pmu-events/arch)\n",
			cmn_prog, dir, bad);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, CMN_PERF_JSON_DIR);
	ret = mkdir_p(path);
	if (ret) {
		fprintf(stderr, "%s: metrics: cannot create %s: %s\n", cmn_prog,
			path, strerror(-ret));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/%s/%s", dir, CMN_PERF_JSON_DIR,
		 CMN_PERF_JSON_FILE);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "%s: metrics: %s: %s\n", cmn_prog, path,
			strerror(errno));
		return 1;
	}
	export_perf_json(f, exact);
	if (fclose(f)) {
		fprintf(stderr, "%s: metrics: %s: %s\n", cmn_prog, path,
			strerror(errno));
		return 1;
	}
	fprintf(out, "%s\n", path);
	return 0;
}
