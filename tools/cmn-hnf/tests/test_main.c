// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of cmn-hnf. One line per test case:
 *   PASS: tools/<name>
 *   FAIL: tools/<name>: <why>
 * then "tools: N passed, N failed"; exit status 1 when anything failed.
 *
 * Expected values come from Documentation/internals.rst (the perf ABI bit
 * layout, the node id rule, the identifier format) and from hand
 * arithmetic, not from the code under test. Fake sysfs trees are built in
 * a temporary directory; a fake perf backend lets cmn-hnf stat run end to
 * end without hardware.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cmn-hnf.h"
#include "../stat.h"
#include "fake_perf.h"

static char t_why[1024];
static char tmproot[256];
static const char *tool_path;
static const char *fake_path;	/* cmn-hnf-fake: the tool on the fake PMU */
static const char *promtool = "missing";
static const char *ksrc = "missing";	/* kernel source, for jevents.py */
static const char *ksrc61 = "missing";	/* 6.1's, for --exact-compat */
static const char *man_dir;	/* the man pages built by rst2man */
static const char *src_dir;	/* tools/cmn-hnf */
static const char *out_dir;	/* the build directory (O=) */
static const char *doc_path;
static const char *fixtures;

/* Where a failed T_ASSERT() ends the test case, see t_run() */
static jmp_buf t_env;

__printf(2, 3) __noreturn
static void t_fail(int line, const char *fmt, ...)
{
	int n = snprintf(t_why, sizeof(t_why), "line %d: ", line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t_why + n, sizeof(t_why) - n, fmt, ap);
	va_end(ap);
	longjmp(t_env, 1);
}

/* Fail the test case with a reason unless @cond holds */
#define T_ASSERT(cond, ...)						\
	do {								\
		if (!(cond))						\
			t_fail(__LINE__, __VA_ARGS__);			\
	} while (0)

/* Run one test case: false when it returns false or a T_ASSERT() fails */
static bool t_run(bool (*fn)(void))
{
	if (setjmp(t_env))
		return false;
	return fn();
}

static bool t_feq(double a, double b)
{
	return fabs(a - b) <= fmax(1.0, fabs(b)) / 1e9;
}

#define T_FEQ(a, b)	t_feq((a), (b))

/* ---- helpers: files and fake trees ---- */

static void mkdirs(const char *path)
{
	char buf[CMN_PATH_LEN], *p;

	snprintf(buf, sizeof(buf), "%s", path);
	for (p = buf + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(buf, 0755);
			*p = '/';
		}
	}
	mkdir(buf, 0755);
}

__printf(2, 3)
static void put(const char *path, const char *fmt, ...);

static void put(const char *path, const char *fmt, ...)
{
	char dir[CMN_PATH_LEN], *slash;
	va_list ap;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = '\0';
		mkdirs(dir);
	}
	f = fopen(path, "w");
	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static char *slurp(const char *path)
{
	static char buf[1 << 20];
	size_t n;
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A fresh, empty fake root for one test */
static const char *fresh_root(const char *name)
{
	static char root[CMN_PATH_LEN];

	snprintf(root, sizeof(root), "%s/%s", tmproot, name);
	mkdirs(root);
	cmn_sysfs_root = root;
	return root;
}

/*
 * A PMU directory as the driver prints it (drivers/perf/arm_cmn_hnf/
 * sysfs.c): the format strings are the internals.rst table, written out
 * by hand here.
 */
static void fake_pmu_at(const char *d, int type, const char *cpumask,
			const char *id, const char *mesh, const char *hnfs,
			bool aliases)
{
	char p[CMN_PATH_LEN];
	size_t i;

	mkdirs(d);
	snprintf(p, sizeof(p), "%s/type", d);
	put(p, "%d\n", type);
	if (cpumask) {
		snprintf(p, sizeof(p), "%s/cpumask", d);
		put(p, "%s\n", cpumask);
	}
	if (id) {
		snprintf(p, sizeof(p), "%s/identifier", d);
		put(p, "%s\n", id);
	}
	snprintf(p, sizeof(p), "%s/format/eventid", d);
	put(p, "config:0-7\n");
	snprintf(p, sizeof(p), "%s/format/occupid", d);
	put(p, "config:8-11\n");
	snprintf(p, sizeof(p), "%s/format/bynodeid", d);
	put(p, "config:12\n");
	snprintf(p, sizeof(p), "%s/format/nodeid", d);
	put(p, "config:16-31\n");
	snprintf(p, sizeof(p), "%s/format/type", d);
	put(p, "config:32-35\n");
	if (mesh) {
		snprintf(p, sizeof(p), "%s/mesh", d);
		put(p, "%s\n", mesh);
	}
	if (hnfs) {
		snprintf(p, sizeof(p), "%s/hnfs", d);
		put(p, "%s", hnfs);
	}
	snprintf(p, sizeof(p), "%s/dtcs", d);
	put(p, "1\n");
	if (!aliases)
		return;
	for (i = 0; i < cmn_num_events; i++) {
		snprintf(p, sizeof(p), "%s/events/%s", d, cmn_events[i].name);
		if (cmn_events[i].occupid >= 0)
			put(p, "eventid=0x%02x,occupid=0x%x\n",
			    cmn_events[i].eventid, cmn_events[i].occupid);
		else
			put(p, "eventid=0x%02x\n", cmn_events[i].eventid);
	}
	snprintf(p, sizeof(p), "%s/events/dtc_cycles", d);
	put(p, "type=0x3\n");
}

static void fake_pmu(const char *root, const char *name, int type,
		     const char *cpumask, const char *id, const char *mesh,
		     const char *hnfs, bool aliases)
{
	char d[CMN_PATH_LEN];

	snprintf(d, sizeof(d), "%s/bus/event_source/devices/%s", root, name);
	fake_pmu_at(d, type, cpumask, id, mesh, hnfs, aliases);
}

/* 3x3 mesh, four HN-Fs, the driver's hnfs format */
static const char hnfs_3x3[] =
	"logical_id node_id xp_x xp_y port dev\n"
	"0 0x0008 0 1 0 0\n"
	"1 0x0028 1 1 0 0\n"
	"2 0x0048 2 1 0 0\n"
	"3 0x004d 2 1 1 1\n";

/* Run a command function with a NULL-terminated argument list */
static int run_cmd(int (*fn)(int, char **, FILE *), const char *outfile, ...)
{
	char *argv[32], *a;
	va_list ap;
	FILE *out;
	int argc = 0, ret;

	va_start(ap, outfile);
	while ((a = va_arg(ap, char *)) && argc < 31)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	out = fopen(outfile, "w");
	if (!out)
		return -1;
	ret = fn(argc, argv, out);
	fclose(out);
	return ret;
}

__printf(1, 2)
static int sh(const char *fmt, ...);

static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Run check_json.py; its one-line complaint becomes t_why */
static bool json_check(const char *kind, const char *file, const char *args)
{
	char out[CMN_PATH_LEN];
	int rc;

	snprintf(out, sizeof(out), "%s/json-check.txt", tmproot);
	rc = sh("python3 %s/check_json.py %s %s %s > %s 2>&1", fixtures, kind,
		file, args ? args : "", out);
	if (rc) {
		snprintf(t_why, sizeof(t_why), "%s", slurp(out));
		t_why[strcspn(t_why, "\n")] = '\0';
		return false;
	}
	return true;
}

/* Run the fake tool on the stat tree; stdout in @out, stderr in @err */
__printf(3, 4)
static int fake_run(const char *out, const char *err, const char *fmt, ...);

static int fake_run(const char *out, const char *err, const char *fmt, ...)
{
	char args[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	return sh("%s --sysfs-root %s/stat %s > %s 2> %s", fake_path, tmproot,
		  args, out, err);
}

/* ---- format strings and config building ---- */

static bool test_format_parse(void)
{
	struct cmn_fmt f;
	char why[128];

	T_ASSERT(!cmn_fmt_parse("eventid", "config:0-7", &f, why, sizeof(why)),
		 "%s", why);
	T_ASSERT(f.nr == 1 && f.r[0].word == 0 && f.r[0].lo == 0 &&
		 f.r[0].hi == 7, "config:0-7 parsed wrong");
	T_ASSERT(!cmn_fmt_parse("bynodeid", "config:12\n", &f, why, sizeof(why)),
		 "%s", why);
	T_ASSERT(f.nr == 1 && f.r[0].lo == 12 && f.r[0].hi == 12,
		 "single bit parsed wrong");
	T_ASSERT(!cmn_fmt_parse("x", "config1:0-3,8-11", &f, why, sizeof(why)),
		 "%s", why);
	T_ASSERT(f.nr == 2 && f.r[0].word == 1 && f.r[1].word == 1 &&
		 f.r[1].lo == 8 && f.r[1].hi == 11, "split ranges parsed wrong");
	T_ASSERT(!cmn_fmt_parse("y", "config2:63", &f, why, sizeof(why)) &&
		 f.r[0].word == 2 && f.r[0].lo == 63, "config2:63 parsed wrong");
	return true;
}

static bool test_format_errors(void)
{
	static const char *const bad[] = {
		"", "config", "config:", "config:7-3", "config:64",
		"config3:1", "config:1-2 junk", "foo:1", "config:-1", "config:1,",
	};
	struct cmn_fmt f;
	char why[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = '\0';
		T_ASSERT(cmn_fmt_parse("t", bad[i], &f, why, sizeof(why)) == -EINVAL,
			 "\"%s\" accepted", bad[i]);
		T_ASSERT(strstr(why, "format 't'"), "no reason for \"%s\"", bad[i]);
	}
	return true;
}

static bool test_format_apply(void)
{
	uint64_t cfg[3] = { 0, 0, 0 };
	struct cmn_fmt f;
	char why[128];

	cmn_fmt_parse("nodeid", "config:16-31", &f, why, sizeof(why));
	T_ASSERT(!cmn_fmt_apply(&f, 0x68, cfg) && cfg[0] == 0x680000,
		 "0x68 -> 0x%llx", (unsigned long long)cfg[0]);
	T_ASSERT(cmn_fmt_apply(&f, 0x10000, cfg) == -ERANGE, "overflow accepted");
	cmn_fmt_parse("s", "config1:0-3,8-11", &f, why, sizeof(why));
	cfg[0] = 0;
	cfg[1] = 0;
	T_ASSERT(!cmn_fmt_apply(&f, 0xab, cfg) && cfg[1] == 0xa0b && !cfg[0],
		 "split apply gave 0x%llx", (unsigned long long)cfg[1]);
	return true;
}

/* The internals.rst "perf ABI" table, as the format files print it */
static int abi_formats(struct cmn_fmt *fmts)
{
	static const char *const spec[][2] = {
		{ "eventid", "config:0-7" }, { "occupid", "config:8-11" },
		{ "bynodeid", "config:12" }, { "nodeid", "config:16-31" },
		{ "type", "config:32-35" },
	};
	char why[128];
	int i;

	for (i = 0; i < 5; i++)
		cmn_fmt_parse(spec[i][0], spec[i][1], &fmts[i], why, sizeof(why));
	return 5;
}

static bool test_config_build(void)
{
	static const struct {
		const char *terms;
		uint64_t config;
	} cases[] = {
		{ "eventid=0x01", 0x1 },
		{ "eventid=0x0f,occupid=0x2", 0x20f },
		{ "eventid=0x05,bynodeid=1,nodeid=0x68", 0x00681005 },
		{ "type=0x3", 0x300000000ULL },
		{ "type=0x5,eventid=0x1f,occupid=4,bynodeid,nodeid=0xffff",
		  0x5ffff141fULL },
		{ "eventid=13, nodeid=40", 0x0028000d },
	};
	static const char *const bad[] = {
		"eventid=0x100", "nodeid=0x10000", "type=16", "bogus=1",
		"eventid=zz", "occupid=0x10",
	};
	struct cmn_fmt fmts[5];
	uint64_t cfg[3];
	char why[256];
	size_t i;
	int n = abi_formats(fmts);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(cfg, 0, sizeof(cfg));
		T_ASSERT(!cmn_terms_apply(fmts, n, cases[i].terms, cfg, why,
					  sizeof(why)), "%s: %s", cases[i].terms, why);
		T_ASSERT(cfg[0] == cases[i].config && !cfg[1] && !cfg[2],
			 "%s -> 0x%llx, expected 0x%llx", cases[i].terms,
			 (unsigned long long)cfg[0],
			 (unsigned long long)cases[i].config);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cfg[0] = 0;
		why[0] = '\0';
		T_ASSERT(cmn_terms_apply(fmts, n, bad[i], cfg, why,
					 sizeof(why)) == -EINVAL,
			 "%s accepted", bad[i]);
		T_ASSERT(why[0], "no reason for %s", bad[i]);
	}
	return true;
}

/* The config follows the format files, not built-in bit positions */
static bool test_config_follows_format(void)
{
	const char *root = fresh_root("moved-format");
	struct cmn_pmu *pmu = calloc(1, sizeof(*pmu));
	char d[CMN_PATH_LEN], p[CMN_PATH_LEN], why[256];
	uint64_t cfg[3];
	bool ok = false;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, false);
	snprintf(d, sizeof(d), "%s/bus/event_source/devices/arm_cmn_hnf_0", root);
	snprintf(p, sizeof(p), "%s/format/eventid", d);
	put(p, "config1:4-11\n");
	snprintf(p, sizeof(p), "%s/format/nodeid", d);
	put(p, "config:40-47,56-63\n");
	if (cmn_pmu_load(pmu, d, "arm_cmn_hnf_0", why, sizeof(why)))
		goto out;
	if (cmn_pmu_event_config(pmu, "mc_reqs", "bynodeid=1,nodeid=0x1234",
				 cfg, why, sizeof(why)))
		goto out;
	/* 0x0d << 4 in config1; 0x34 at 40, 0x12 at 56; bynodeid bit 12 */
	ok = cfg[1] == 0xd0 && cfg[0] == (0x1000 | 0x34ULL << 40 | 0x12ULL << 56);
	snprintf(why, sizeof(why), "config 0x%llx config1 0x%llx",
		 (unsigned long long)cfg[0], (unsigned long long)cfg[1]);
out:
	free(pmu);
	T_ASSERT(ok, "%s", why);
	return true;
}

/* Alias files and the table give the same configs */
static bool test_config_alias_vs_table(void)
{
	const char *root = fresh_root("aliases");
	struct cmn_pmu *a = calloc(2, sizeof(*a)), *b = a + 1;
	char d[CMN_PATH_LEN], why[256];
	uint64_t ca[3], cb[3];
	size_t i;
	bool ok = true;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "0", "43402", "3 3", hnfs_3x3, false);
	snprintf(d, sizeof(d), "%s/bus/event_source/devices/arm_cmn_hnf_0", root);
	cmn_pmu_load(a, d, "arm_cmn_hnf_0", why, sizeof(why));
	snprintf(d, sizeof(d), "%s/bus/event_source/devices/arm_cmn_hnf_1", root);
	cmn_pmu_load(b, d, "arm_cmn_hnf_1", why, sizeof(why));
	for (i = 0; i < cmn_num_events && ok; i++) {
		ok = !cmn_pmu_event_config(a, cmn_events[i].name, NULL, ca, why,
					   sizeof(why)) &&
		     !cmn_pmu_event_config(b, cmn_events[i].name, NULL, cb, why,
					   sizeof(why)) &&
		     ca[0] == cb[0] &&
		     ca[0] == ((uint64_t)cmn_events[i].eventid |
			       (cmn_events[i].occupid > 0 ?
				(uint64_t)cmn_events[i].occupid << 8 : 0));
		if (!ok)
			snprintf(why, sizeof(why), "%s: 0x%llx vs 0x%llx",
				 cmn_events[i].name, (unsigned long long)ca[0],
				 (unsigned long long)cb[0]);
	}
	if (ok) {
		ok = !cmn_pmu_event_config(b, "dtc_cycles", NULL, cb, why,
					   sizeof(why)) && cb[0] == 0x300000000ULL;
		if (!ok)
			snprintf(why, sizeof(why), "dtc_cycles 0x%llx",
				 (unsigned long long)cb[0]);
	}
	free(a);
	T_ASSERT(ok, "%s", why);
	return true;
}

/* ---- the event table against the internals.rst contract ---- */

static bool test_event_table(void)
{
	size_t i, j, primaries = 0;

	for (i = 0; i < cmn_num_events; i++) {
		const struct cmn_event *e = &cmn_events[i];

		T_ASSERT(e->eventid >= 0x01 && e->eventid <= 0x1f,
			 "%s: eventid 0x%x", e->name, e->eventid);
		T_ASSERT(e->occupid < 0 || (e->eventid == 0x0f && e->occupid <= 4),
			 "%s: occupid %d", e->name, e->occupid);
		T_ASSERT(strcmp(e->name, "cycles"), "an alias is called cycles");
		T_ASSERT(strspn(e->name, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
			 strlen(e->name), "%s: not lowercase", e->name);
		for (j = 0; j < i; j++)
			T_ASSERT(strcmp(cmn_events[j].name, e->name),
				 "%s twice", e->name);
		if (e->trm[0])
			primaries++;
	}
	T_ASSERT(primaries == 31, "%zu primary names, expected one per encoding 0x01..0x1f",
		 primaries);
	T_ASSERT(cmn_event_find("mc_bytes") &&
		 !strcmp(cmn_event_find("mc_bytes")->scale, "64"),
		 "mc_bytes has no scale 64");
	T_ASSERT(cmn_event_primary(cmn_event_find("slc_miss")) ==
		 cmn_event_find("cache_miss"), "slc_miss is not cache_miss");
	return true;
}

/* ---- expressions ---- */

static bool lookup_abc(void *ctx, const char *name, double *v)
{
	(void)ctx;
	if (!strcmp(name, "a"))
		*v = 6;
	else if (!strcmp(name, "b"))
		*v = 3;
	else if (!strcmp(name, "zero"))
		*v = 0;
	else
		return false;
	return true;
}

static bool test_expr_eval(void)
{
	static const struct {
		const char *f;
		double v;
	} cases[] = {
		{ "1 + 2 * 3", 7 }, { "(1 + 2) * 3", 9 }, { "-4 / 2", -2 },
		{ "10 / 4", 2.5 }, { "a / b * 100", 200 }, { "a - b - 1", 2 },
		{ "1e6 / 1000000", 1 }, { "((a))", 6 }, { "a * -b", -18 },
		{ "64 * a / 2 / 1000000", 0.000192 },
	};
	static const char *const bad[] = {
		"1 +", "(1", "1 2", "$", "", "a b", "1 + )", "*",
	};
	char why[128];
	double v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		T_ASSERT(!cmn_expr_eval(cases[i].f, lookup_abc, NULL, &v, why,
					sizeof(why)), "%s: %s", cases[i].f, why);
		T_ASSERT(T_FEQ(v, cases[i].v), "%s = %g, expected %g",
			 cases[i].f, v, cases[i].v);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why[0] = '\0';
		T_ASSERT(cmn_expr_eval(bad[i], lookup_abc, NULL, &v, why,
				       sizeof(why)) == -EINVAL,
			 "\"%s\" accepted", bad[i]);
		T_ASSERT(why[0], "no reason for \"%s\"", bad[i]);
	}
	return true;
}

static bool test_expr_div_zero(void)
{
	static const char *const nan_cases[] = {
		"a / zero", "0 / 0", "a / (b - b)", "missing + 1",
		"a / missing", "(a / zero) * 0",
	};
	double v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(nan_cases); i++) {
		T_ASSERT(!cmn_expr_eval(nan_cases[i], lookup_abc, NULL, &v, NULL, 0),
			 "%s: error", nan_cases[i]);
		T_ASSERT(isnan(v), "%s = %g, expected n/a", nan_cases[i], v);
	}
	T_ASSERT(!cmn_expr_eval("zero / a", lookup_abc, NULL, &v, NULL, 0) &&
		 v == 0, "0 / a = %g", v);
	return true;
}

static bool test_expr_names(void)
{
	char names[8][CMN_NAME_LEN];
	int n;

	n = cmn_expr_names("(sfbi_dir_snp_sent + sfbi_brd_snp_sent) / slc_sf_cache_access * 1000",
			   names, 8);
	T_ASSERT(n == 3 && !strcmp(names[0], "sfbi_dir_snp_sent") &&
		 !strcmp(names[2], "slc_sf_cache_access"), "got %d names", n);
	n = cmn_expr_names("a + a * 1e6 / a2", names, 8);
	T_ASSERT(n == 2 && !strcmp(names[1], "a2"), "dedup/exponent: %d", n);
	T_ASSERT(cmn_expr_names("a + b + c", names, 2) == -E2BIG, "no E2BIG");
	return true;
}

/* ---- metrics.def ---- */

static bool lookup_one(void *ctx, const char *name, double *v)
{
	(void)ctx;
	(void)name;
	*v = 1;
	return true;
}

static bool test_metrics_def(void)
{
	const struct cmn_terms *terms;
	char why[128], op[3], w[CMN_NAME_LEN];
	double v, lim;
	size_t i, j, g;
	int n, t;

	T_ASSERT(cmn_num_metrics > 0 && cmn_num_metrics <= CMN_MAX_METRICS / 2,
		 "metric count");
	for (i = 0; i < cmn_num_metrics; i++) {
		const struct cmn_metric *m = &cmn_metrics[i];
		const char *p;

		T_ASSERT(!cmn_expr_eval(m->formula, lookup_one, NULL, &v, why,
					sizeof(why)), "%s: %s", m->name, why);
		terms = cmn_metric_terms((int)i);
		n = terms->n;
		T_ASSERT(n > 0 && n <= CMN_MAX_TERMS, "%s: %d names", m->name, n);
		for (t = 0; t < n; t++)
			T_ASSERT(cmn_formula_name_known(terms->name[t]),
				 "%s: unknown name %s", m->name, terms->name[t]);
		T_ASSERT(cmn_metric_group_find(m->group), "%s: group %s",
			 m->name, m->group);
		T_ASSERT(!m->threshold[0] ||
			 cmn_threshold_parse(m->threshold, op, &lim),
			 "%s: threshold '%s'", m->name, m->threshold);
		T_ASSERT(m->level == 1 || m->level == 2, "%s: level", m->name);
		for (p = m->next; *p;) {
			n = 0;
			while (*p == ' ')
				p++;
			while (*p && *p != ' ' && n < CMN_NAME_LEN - 1)
				w[n++] = *p++;
			w[n] = '\0';
			T_ASSERT(!n || cmn_metric_group_find(w), "%s: next %s",
				 m->name, w);
		}
		for (j = 0; j < i; j++)
			T_ASSERT(strcmp(cmn_metrics[j].name, m->name), "%s twice",
				 m->name);
	}
	for (g = 0; g < cmn_num_metric_groups; g++) {
		for (i = 0; i < cmn_num_metrics; i++)
			if (!strcmp(cmn_metrics[i].group, cmn_metric_groups[g].name))
				break;
		T_ASSERT(i < cmn_num_metrics, "group %s is empty",
			 cmn_metric_groups[g].name);
	}
	/* Every distinct encoding is in exactly one function group */
	for (i = 0; i < cmn_num_events; i++) {
		int found = 0;

		if (!cmn_event_is_first_encoding(&cmn_events[i]))
			continue;
		for (g = 0; g < cmn_num_event_groups; g++) {
			const char *p = cmn_event_groups[g].events;
			size_t len = strlen(cmn_events[i].name);

			while ((p = strstr(p, cmn_events[i].name))) {
				if ((p == cmn_event_groups[g].events || p[-1] == ' ') &&
				    (p[len] == ' ' || !p[len]))
					found++;
				p += len;
			}
		}
		T_ASSERT(found == 1, "%s is in %d event groups",
			 cmn_events[i].name, found);
	}
	for (g = 0; g < cmn_num_event_groups; g++) {
		const char *p = cmn_event_groups[g].events;

		while (*p) {
			n = 0;
			while (*p == ' ')
				p++;
			while (*p && *p != ' ' && n < CMN_NAME_LEN - 1)
				w[n++] = *p++;
			w[n] = '\0';
			T_ASSERT(!n || cmn_event_find(w), "group %s: %s unknown",
				 cmn_event_groups[g].name, w);
		}
	}
	return true;
}

static int metric_index(const char *name)
{
	const struct cmn_metric *m = cmn_metric_find(name);

	return m ? (int)(m - cmn_metrics) : -1;
}

static void set_term(struct cmn_counts *c, const char *metric,
		     const char *event, double v)
{
	int m = metric_index(metric), t;
	const struct cmn_terms *terms = cmn_metric_terms(m);

	for (t = 0; t < terms->n; t++)
		if (!strcmp(terms->name[t], event))
			c->v[m][t] = v;
}

static bool test_metric_values(void)
{
	struct cmn_counts c;

	cmn_counts_init(&c);
	c.seconds = 2.0;
	c.cycles = 1000;
	c.ncycles = 1;
	set_term(&c, "slc_miss_rate", "cache_miss", 25);
	set_term(&c, "slc_miss_rate", "slc_sf_cache_access", 100);
	set_term(&c, "dram_bandwidth", "mc_reqs", 1e6);
	set_term(&c, "pocq_avg_latency", "pocq_occupancy", 5000);
	set_term(&c, "pocq_avg_latency", "pocq_reqs_recvd", 100);
	set_term(&c, "pocq_avg_occupancy", "pocq_occupancy", 5000);
	set_term(&c, "sf_back_invals_per_1k_accesses", "sfbi_dir_snp_sent", 3);
	set_term(&c, "sf_back_invals_per_1k_accesses", "sfbi_brd_snp_sent", 2);
	set_term(&c, "sf_back_invals_per_1k_accesses", "slc_sf_cache_access", 500);
	/* 25 of 100 lookups missed */
	T_ASSERT(T_FEQ(cmn_metric_value(metric_index("slc_miss_rate"), &c), 25),
		 "slc_miss_rate");
	/* 1e6 requests * 64 B over 2 s = 32 MB/s */
	T_ASSERT(T_FEQ(cmn_metric_value(metric_index("dram_bandwidth"), &c), 32),
		 "dram_bandwidth %g",
		 cmn_metric_value(metric_index("dram_bandwidth"), &c));
	/* Little's law: 5000 entry-cycles / 100 requests = 50 cycles */
	T_ASSERT(T_FEQ(cmn_metric_value(metric_index("pocq_avg_latency"), &c), 50),
		 "pocq_avg_latency");
	T_ASSERT(T_FEQ(cmn_metric_value(metric_index("pocq_avg_occupancy"), &c), 5),
		 "pocq_avg_occupancy");
	T_ASSERT(T_FEQ(cmn_metric_value(metric_index("sf_back_invals_per_1k_accesses"),
					&c), 10), "sfbi per 1k");
	/* 1000 cycles in 2 s: 0.0005 MHz */
	T_ASSERT(T_FEQ(cmn_metric_value(metric_index("mesh_clock"), &c), 0.0005),
		 "mesh_clock");
	/* nothing counted: no value, not a division by zero */
	T_ASSERT(isnan(cmn_metric_value(metric_index("mc_retry_rate"), &c)),
		 "mc_retry_rate with no requests");
	c.cycles = NAN;
	T_ASSERT(isnan(cmn_metric_value(metric_index("pocq_avg_occupancy"), &c)),
		 "occupancy without cycles");
	return true;
}

static bool test_scaling(void)
{
	double v;

	T_ASSERT(cmn_scale(100, 200, 100, &v) && T_FEQ(v, 200), "half time: %g", v);
	T_ASSERT(cmn_scale(100, 100, 100, &v) && T_FEQ(v, 100), "full time");
	T_ASSERT(cmn_scale(7, 90, 100, &v) && T_FEQ(v, 7), "running > enabled");
	T_ASSERT(!cmn_scale(100, 100, 0, &v) && isnan(v), "never ran");
	T_ASSERT(cmn_scale(1ULL << 62, 3, 1, &v) && T_FEQ(v, 3.0 * 4611686018427387904.0),
		 "large value");
	T_ASSERT(cmn_scale(0, 1000, 250, &v) && v == 0, "zero count");
	return true;
}

static bool test_counts_add(void)
{
	struct cmn_counts a, b, s;

	cmn_counts_init(&a);
	cmn_counts_init(&b);
	cmn_counts_init(&s);
	a.v[0][0] = 10;
	b.v[0][0] = 5;
	a.v[1][1] = 1;
	b.v[1][1] = NAN;
	a.cycles = 1000;
	a.ncycles = 1;
	b.cycles = 3000;
	b.ncycles = 1;
	a.running = 0.5;
	b.running = 0.25;
	a.seconds = 1;
	b.seconds = 1;
	cmn_counts_add(&s, &a);
	cmn_counts_add(&s, &b);
	T_ASSERT(s.v[0][0] == 15, "sum %g", s.v[0][0]);
	T_ASSERT(isnan(s.v[1][1]), "not counted + counted is not counted");
	T_ASSERT(T_FEQ(s.cycles, 2000), "cycles are the mean clock: %g", s.cycles);
	T_ASSERT(s.running == 0.25, "running is the lowest");
	T_ASSERT(s.seconds == 1, "seconds");
	return true;
}

static bool test_threshold(void)
{
	char op[3];
	double l;

	T_ASSERT(cmn_threshold_hit("> 50", 51) && !cmn_threshold_hit("> 50", 50),
		 "> 50");
	T_ASSERT(cmn_threshold_hit(">= 5", 5) && !cmn_threshold_hit(">= 5", 4.9),
		 ">= 5");
	T_ASSERT(cmn_threshold_hit("< 1", 0.5) && !cmn_threshold_hit("<= 1", 1.1),
		 "< and <=");
	T_ASSERT(!cmn_threshold_hit("", 1e9) && !cmn_threshold_hit("> 1", NAN),
		 "empty or NaN");
	T_ASSERT(!cmn_threshold_parse("50", op, &l) &&
		 !cmn_threshold_parse("> x", op, &l) &&
		 !cmn_threshold_parse("> 5 6", op, &l), "junk accepted");
	return true;
}

static bool test_metric_select(void)
{
	bool sel[CMN_MAX_METRICS];
	char why[128];
	char *argv[2];
	size_t i;
	int n;

	/* the default is the first look: the level-1 metrics, nothing else */
	T_ASSERT(!cmn_metric_select(0, NULL, sel, why, sizeof(why)), "none");
	for (i = 0, n = 0; i < cmn_num_metrics; i++) {
		T_ASSERT(sel[i] == (cmn_metrics[i].level == 1), "default: %s %s",
			 cmn_metrics[i].name, sel[i] ? "selected" : "left out");
		n += sel[i];
	}
	T_ASSERT(n >= 2 && n < (int)cmn_num_metrics, "default selects %d", n);
	T_ASSERT(sel[metric_index("slc_miss_rate")] &&
		 !sel[metric_index("sf_hit_rate")], "slc_miss_rate is level 1");
	argv[0] = "all";
	T_ASSERT(!cmn_metric_select(1, argv, sel, why, sizeof(why)), "all");
	for (i = 0; i < cmn_num_metrics; i++)
		T_ASSERT(sel[i], "all leaves %s out", cmn_metrics[i].name);
	argv[0] = "hnf_pocq";
	argv[1] = "mc_retry_rate";
	T_ASSERT(!cmn_metric_select(2, argv, sel, why, sizeof(why)), "%s", why);
	for (i = 0, n = 0; i < cmn_num_metrics; i++) {
		bool want = !strcmp(cmn_metrics[i].group, "HNF_POCQ") ||
			    !strcmp(cmn_metrics[i].name, "mc_retry_rate");

		T_ASSERT(sel[i] == want, "%s selected %d", cmn_metrics[i].name,
			 sel[i]);
		n += sel[i];
	}
	T_ASSERT(n >= 2, "selection too small");
	argv[0] = "slc";
	T_ASSERT(!cmn_metric_select(1, argv, sel, why, sizeof(why)) &&
		 sel[metric_index("slc_miss_rate")] &&
		 !sel[metric_index("dram_bandwidth")], "short name slc");
	argv[0] = "nonsense";
	T_ASSERT(cmn_metric_select(1, argv, sel, why, sizeof(why)) == -EINVAL &&
		 strstr(why, "nonsense"), "unknown word accepted");
	return true;
}

/* ---- identifiers and small parsers ---- */

static bool test_identifier(void)
{
	unsigned int part, rev;

	/* internals/reference: "%03x%02x", 43400 = CMN-600 r1p0 .. 43406 r3p1 */
	T_ASSERT(!cmn_parse_identifier("43402", &part, &rev) && part == 0x434 &&
		 rev == 2, "43402");
	T_ASSERT(!strcmp(cmn_part_name(part), "CMN-600") &&
		 !strcmp(cmn_rev_name(part, rev), "r1p2"), "43402 names");
	T_ASSERT(!cmn_parse_identifier("43406", &part, &rev) &&
		 !strcmp(cmn_rev_name(part, rev), "r3p1"), "43406");
	T_ASSERT(!cmn_parse_identifier("43404", &part, &rev) &&
		 !strcmp(cmn_rev_name(part, rev), "r2p0"), "43404");
	T_ASSERT(!cmn_parse_identifier("43800", &part, &rev) &&
		 !strcmp(cmn_part_name(part), "CMN-600AE"), "43800");
	T_ASSERT(!cmn_parse_identifier("43c00", &part, &rev) &&
		 !*cmn_part_name(part), "CMN-700 is not CMN-600");
	T_ASSERT(cmn_parse_identifier("4340", &part, &rev) &&
		 cmn_parse_identifier("zzzzz", &part, &rev), "junk accepted");
	T_ASSERT(cmn_cpulist_first("0") == 0 && cmn_cpulist_first("3-5") == 3 &&
		 cmn_cpulist_first("12,14") == 12 && cmn_cpulist_first("") == -1,
		 "cpulist");
	return true;
}

static bool test_topo_parse_driver(void)
{
	struct cmn_hnf_node n[8];
	char why[128];
	int cnt;

	cnt = cmn_topo_parse_nodes(hnfs_3x3, n, 8, why, sizeof(why));
	T_ASSERT(cnt == 4, "%d nodes: %s", cnt, why);
	T_ASSERT(n[2].lid == 2 && n[2].nodeid == 0x48 && n[2].x == 2 &&
		 n[2].y == 1 && n[2].port == 0 && n[2].dev == 0, "node 2");
	T_ASSERT(n[3].nodeid == 0x4d && n[3].port == 1 && n[3].dev == 1, "node 3");
	return true;
}

static bool test_topo_parse_variants(void)
{
	struct cmn_hnf_node n[4];
	char why[128];
	int cnt;

	cnt = cmn_topo_parse_nodes("# lid nodeid x y port dev\n\n5 104 3 1 0 0\n",
				   n, 4, why, sizeof(why));
	T_ASSERT(cnt == 1 && n[0].lid == 5 && n[0].nodeid == 104, "comment header");
	cnt = cmn_topo_parse_nodes("node_id logical_id port dev xp_x xp_y\n0x20 7 1 0 2 0\n",
				   n, 4, why, sizeof(why));
	T_ASSERT(cnt == 1 && n[0].lid == 7 && n[0].nodeid == 0x20 &&
		 n[0].port == 1 && n[0].x == 2, "reordered header");
	cnt = cmn_topo_parse_nodes("lid=1 nodeid=0x28\nnodeid=0x8\n", n, 4, why,
				   sizeof(why));
	T_ASSERT(cnt == 2 && n[0].lid == 1 && n[0].nodeid == 0x28 &&
		 n[1].lid == 1 && n[1].x == -1, "key=value lines");
	cnt = cmn_topo_parse_nodes("0 0x8 0 1 0 0\n", n, 4, why, sizeof(why));
	T_ASSERT(cnt == 1 && n[0].nodeid == 8, "no header");
	why[0] = '\0';
	cnt = cmn_topo_parse_nodes(hnfs_3x3, n, 2, why, sizeof(why));
	T_ASSERT(cnt == -E2BIG && why[0], "too many nodes: %d", cnt);
	cnt = cmn_topo_parse_nodes("logical_id node_id\n0 0x8\n1 zz\n", n, 4,
				   why, sizeof(why));
	T_ASSERT(cnt == -EINVAL && strstr(why, "line 3"), "garbage: %d %s", cnt,
		 why);
	cnt = cmn_topo_parse_nodes("logical_id node_id xp_x xp_y port dev\n", n,
				   4, why, sizeof(why));
	T_ASSERT(cnt == -ENOENT, "header only: %d", cnt);
	return true;
}

static bool test_mesh_parse(void)
{
	int x = 0, y = 0;

	T_ASSERT(!cmn_topo_parse_mesh("3 3\n", &x, &y) && x == 3 && y == 3, "3 3");
	T_ASSERT(!cmn_topo_parse_mesh("x=4 y=2", &x, &y) && x == 4 && y == 2,
		 "x= y=");
	T_ASSERT(!cmn_topo_parse_mesh("8x8", &x, &y) && x == 8 && y == 8, "8x8");
	T_ASSERT(!cmn_topo_parse_mesh("mesh_y=1 mesh_x=2", &x, &y) && x == 2 &&
		 y == 1, "mesh_x");
	T_ASSERT(cmn_topo_parse_mesh("9 9", &x, &y) == -ERANGE, "9x9 accepted");
	T_ASSERT(cmn_topo_parse_mesh("foo", &x, &y) == -EINVAL, "foo accepted");
	return true;
}

/* ---- sysfs trees ---- */

static bool test_sysfs_one_mesh(void)
{
	const char *root = fresh_root("one-mesh");
	struct cmn_pmu *p = calloc(CMN_MAX_PMUS, sizeof(*p));
	char why[256], d[CMN_PATH_LEN];
	int n;

	fake_pmu(root, "arm_cmn_hnf_0", 42, "2-3", "43402", "3 3", hnfs_3x3, true);
	/* not ours: must be ignored */
	snprintf(d, sizeof(d), "%s/bus/event_source/devices/arm_cmn_0", root);
	mkdirs(d);
	snprintf(d, sizeof(d), "%s/bus/event_source/devices/arm_cmn_hnf_x", root);
	mkdirs(d);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	if (n != 1) {
		free(p);
		T_ASSERT(0, "%d PMUs: %s", n, why);
	}
	T_ASSERT(p[0].type == 42 && p[0].cpu == 2 && p[0].have_id &&
		 p[0].part == 0x434 && p[0].rev == 2 && p[0].nfmt == 5,
		 "pmu fields");
	T_ASSERT(p[0].topo.present && p[0].topo.nhnf == 4 &&
		 p[0].topo.mesh_x == 3 && p[0].topo.mesh_y == 3 &&
		 p[0].topo.ndtc == 1, "topology: %s", p[0].topo.why);
	T_ASSERT(p[0].parent[0] == '\0' && p[0].numa == -1,
		 "parent '%s' numa %d in a fake tree", p[0].parent, p[0].numa);
	free(p);
	return true;
}

static bool test_sysfs_two_meshes(void)
{
	const char *root = fresh_root("two-mesh");
	struct cmn_pmu *p = calloc(CMN_MAX_PMUS, sizeof(*p));
	char why[256], d[CMN_PATH_LEN];
	int n;
	bool ok;

	fake_pmu(root, "arm_cmn_hnf_10", 11, "4", "43406", "8 8",
		 "logical_id node_id xp_x xp_y port dev\n0 0x01ac 6 5 1 0\n", true);
	fake_pmu(root, "arm_cmn_hnf_2", 10, "0", "43400", "3 3", hnfs_3x3, true);
	/* the CPU's NUMA node, when the PMU has no parent device */
	snprintf(d, sizeof(d), "%s/devices/system/cpu/cpu4/node1", root);
	mkdirs(d);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	ok = n == 2 && !strcmp(p[0].name, "arm_cmn_hnf_2") &&
	     !strcmp(p[1].name, "arm_cmn_hnf_10") && p[1].topo.nhnf == 1 &&
	     p[1].topo.hnf[0].nodeid == 0x1ac && p[1].numa == 1 &&
	     p[0].topo.nhnf == 4 && p[1].rev == 6;
	free(p);
	T_ASSERT(ok, "n=%d, order or fields wrong: %s", n, why);
	return true;
}

static bool test_sysfs_missing(void)
{
	const char *root = fresh_root("missing");
	struct cmn_pmu *p = calloc(CMN_MAX_PMUS, sizeof(*p));
	char why[512] = "", d[CMN_PATH_LEN], f[CMN_PATH_LEN];
	int n;
	bool ok = true;

	/* no event_source at all */
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	if (n >= 0 || !strstr(why, "bus/event_source/devices")) {
		snprintf(t_why, sizeof(t_why), "no devices dir: n=%d why=%s", n, why);
		ok = false;
		goto out;
	}
	/* no hnfs: the PMU is usable, the topology explains itself */
	fake_pmu(root, "arm_cmn_hnf_0", 9, NULL, "43402", NULL, NULL, true);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	if (n != 1 || p[0].topo.present || !strstr(p[0].topo.why, "hnfs") ||
	    p[0].cpu != -1) {
		snprintf(t_why, sizeof(t_why), "no hnfs: n=%d why=%s", n,
			 p[0].topo.why);
		ok = false;
		goto out;
	}
	/* a broken hnfs names its line */
	snprintf(d, sizeof(d), "%s/bus/event_source/devices/arm_cmn_hnf_0", root);
	snprintf(f, sizeof(f), "%s/hnfs", d);
	put(f, "logical_id node_id\n0 0x8\nbroken line\n");
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	if (n != 1 || p[0].topo.present || !strstr(p[0].topo.why, "line 3")) {
		snprintf(t_why, sizeof(t_why), "broken hnfs: %s", p[0].topo.why);
		ok = false;
		goto out;
	}
	/* no format/: an error naming the directory */
	sh("rm -rf '%s/format'", d);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	if (n >= 0 || !strstr(why, "format")) {
		snprintf(t_why, sizeof(t_why), "no format/: n=%d why=%s", n, why);
		ok = false;
		goto out;
	}
	/* no type: an error naming the file */
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	snprintf(f, sizeof(f), "%s/type", d);
	unlink(f);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	if (n >= 0 || !strstr(why, "/type")) {
		snprintf(t_why, sizeof(t_why), "no type: n=%d why=%s", n, why);
		ok = false;
	}
out:
	free(p);
	return ok;
}

/* A platform device bound to arm-cmn-hnf, optionally with an ACPI _UID */
static void fake_bound(const char *root, const char *dev, int uid, int numa)
{
	char p[CMN_PATH_LEN], t[CMN_PATH_LEN];

	snprintf(p, sizeof(p), "%s/devices/platform/%s/numa_node", root, dev);
	put(p, "%d\n", numa);
	if (uid >= 0) {
		snprintf(p, sizeof(p), "%s/devices/platform/%s/firmware_node/uid",
			 root, dev);
		put(p, "%d\n", uid);
	}
	snprintf(p, sizeof(p), "%s/bus/platform/drivers/arm-cmn-hnf", root);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/bus/platform/drivers/arm-cmn-hnf/%s", root, dev);
	snprintf(t, sizeof(t), "../../../../devices/platform/%s", dev);
	if (symlink(t, p))
		return;
}

static bool test_sysfs_parent(void)
{
	struct cmn_pmu *p = calloc(CMN_MAX_PMUS, sizeof(*p));
	char why[256], d[CMN_PATH_LEN], l[CMN_PATH_LEN];
	const char *root;
	int n;
	bool ok;

	/* 6.1, ACPI: the PMU number is the _UID, not the instance number */
	root = fresh_root("parent-acpi");
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, false);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "0", "43402", "3 3", hnfs_3x3, false);
	fake_bound(root, "ARMHC600:00", 1, 0);
	fake_bound(root, "ARMHC600:01", 0, 1);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	ok = n == 2 && !strcmp(p[0].parent, "ARMHC600:01") && p[0].numa == 1 &&
	     !strcmp(p[1].parent, "ARMHC600:00") && p[1].numa == 0;
	if (!ok) {
		snprintf(t_why, sizeof(t_why), "acpi: n=%d '%s' %d '%s' %d", n,
			 p[0].parent, p[0].numa, p[1].parent, p[1].numa);
		free(p);
		return false;
	}
	/* 6.1, DT: the index of the node in address order */
	root = fresh_root("parent-dt");
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, false);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "0", "43402", "3 3", hnfs_3x3, false);
	fake_bound(root, "7c000000.cmn", -1, 0);
	fake_bound(root, "78000000.cmn", -1, 0);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	ok = n == 2 && !strcmp(p[0].parent, "78000000.cmn") &&
	     !strcmp(p[1].parent, "7c000000.cmn");
	if (!ok) {
		snprintf(t_why, sizeof(t_why), "dt: n=%d '%s' '%s'", n,
			 p[0].parent, p[1].parent);
		free(p);
		return false;
	}
	/* pmu.parent (6.12): the PMU directory sits in its device's */
	root = fresh_root("parent-612");
	snprintf(d, sizeof(d), "%s/devices/platform/ARMHC600:00/arm_cmn_hnf_0", root);
	fake_pmu_at(d, 9, "0", "43402", "3 3", hnfs_3x3, false);
	snprintf(d, sizeof(d), "%s/devices/platform/ARMHC600:00/numa_node", root);
	put(d, "3\n");
	snprintf(d, sizeof(d), "%s/bus/event_source/devices", root);
	mkdirs(d);
	snprintf(l, sizeof(l), "%s/arm_cmn_hnf_0", d);
	ok = !symlink("../../../devices/platform/ARMHC600:00/arm_cmn_hnf_0", l);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	ok = ok && n == 1 && !strcmp(p[0].parent, "ARMHC600:00") && p[0].numa == 3;
	snprintf(t_why, sizeof(t_why), "pmu.parent: n=%d '%s' %d", n,
		 n > 0 ? p[0].parent : "", n > 0 ? p[0].numa : -9);
	free(p);
	if (!ok)
		return false;
	t_why[0] = '\0';
	return true;
}

/* Node id rule of internals.rst: (x << (3 + b)) | (y << 3) | (p << 2) | d */
static bool test_sysfs_derive_coords(void)
{
	const char *root = fresh_root("derive");
	struct cmn_pmu *p = calloc(CMN_MAX_PMUS, sizeof(*p));
	char why[256];
	int n;
	bool ok;

	/* 4x4: b = 2; x=3 y=1 p=1 d=1 -> 96 + 8 + 4 + 1 = 0x6d */
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "4 4",
		 "logical_id node_id\n0 0x6d\n", false);
	/* 8x8: b = 3; x=6 y=5 p=1 d=0 -> 384 + 40 + 4 = 0x1ac */
	fake_pmu(root, "arm_cmn_hnf_1", 10, "0", "43402", "8 8",
		 "logical_id node_id\n0 0x1ac\n", false);
	n = cmn_pmus_scan(p, CMN_MAX_PMUS, why, sizeof(why));
	ok = n == 2 &&
	     p[0].topo.hnf[0].x == 3 && p[0].topo.hnf[0].y == 1 &&
	     p[0].topo.hnf[0].port == 1 && p[0].topo.hnf[0].dev == 1 &&
	     p[1].topo.hnf[0].x == 6 && p[1].topo.hnf[0].y == 5 &&
	     p[1].topo.hnf[0].port == 1 && p[1].topo.hnf[0].dev == 0;
	free(p);
	T_ASSERT(ok, "coordinates not derived from node ids (n=%d)", n);
	return true;
}

/* ---- command outputs ---- */

static bool test_list_json(void)
{
	char f[CMN_PATH_LEN], args[64];

	snprintf(f, sizeof(f), "%s/list.json", tmproot);
	T_ASSERT(run_cmd(cmd_list, f, "list", "--json", NULL) == 0, "exit status");
	/* the table's events plus dtc_cycles */
	snprintf(args, sizeof(args), "%zu %zu", cmn_num_events + 1,
		 cmn_num_metrics);
	return json_check("list", f, args);
}

static bool test_list_text(void)
{
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;
	const char *root;
	size_t i;

	snprintf(f, sizeof(f), "%s/list.txt", tmproot);
	T_ASSERT(run_cmd(cmd_list, f, "list", NULL) == 0, "exit status");
	s = slurp(f);
	for (i = 0; i < cmn_num_events; i++)
		T_ASSERT(strstr(s, cmn_events[i].name), "%s missing",
			 cmn_events[i].name);
	for (i = 0; i < cmn_num_metrics; i++)
		T_ASSERT(strstr(s, cmn_metrics[i].formula), "%s formula missing",
			 cmn_metrics[i].name);
	T_ASSERT(strstr(s, "eventid=0x0f,occupid=0x2"), "occupancy encoding");
	T_ASSERT(!strstr(s, "not offered by"), "no PMU, yet an event is missing");
	T_ASSERT(run_cmd(cmd_list, f, "list", "extra", NULL) == 2, "extra arg accepted");

	/* an r1p0 PMU without snp_sent_untrk (0x1b exists from r1p2) */
	root = fresh_root("list-avail");
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43400", "3 3", hnfs_3x3, true);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_0/events/snp_sent_untrk",
		 root);
	unlink(p);
	T_ASSERT(run_cmd(cmd_list, f, "list", NULL) == 0, "exit status");
	s = slurp(f);
	s = strstr(s, "  snp_sent_untrk ");
	T_ASSERT(s && strstr(s, "not offered by: arm_cmn_hnf_0\n") &&
		 strstr(s, "not offered by") < strstr(s, "  intv_dirty "),
		 "missing alias not shown");
	T_ASSERT(strstr(strstr(slurp(f), "  cache_miss "), "  slc_sf_cache_access") <
		 strstr(slurp(f), "not offered by"), "cache_miss reported missing");
	return true;
}

static bool test_topo_json(void)
{
	const char *root = fresh_root("topo");
	char f[CMN_PATH_LEN], *s;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "1", "43402", NULL, NULL, true);
	snprintf(f, sizeof(f), "%s/topo.json", tmproot);
	T_ASSERT(run_cmd(cmd_topo, f, "topo", "--json", NULL) == 0, "exit status");
	if (!json_check("topo", f, "arm_cmn_hnf_0 4 arm_cmn_hnf_1 -1"))
		return false;
	snprintf(f, sizeof(f), "%s/topo.txt", tmproot);
	T_ASSERT(run_cmd(cmd_topo, f, "topo", NULL) == 0, "text exit status");
	s = slurp(f);
	T_ASSERT(strstr(s, "CMN-600 r1p2"), "identifier not decoded");
	T_ASSERT(strstr(s, "H2 0x48 p0d0") && strstr(s, "H3 0x4d p1d1"),
		 "HN-Fs missing from the map");
	T_ASSERT(strstr(s, "no HN-F topology file"), "missing hnfs not explained");
	return true;
}

static bool test_telemetry_shape(void)
{
	char f[CMN_PATH_LEN];

	snprintf(f, sizeof(f), "%s/telemetry.json", tmproot);
	T_ASSERT(run_cmd(cmd_metrics, f, "metrics", "--format", "telemetry", NULL) == 0,
		 "exit status");
	T_ASSERT(sh("python3 -m json.tool %s > /dev/null 2>&1", f) == 0,
		 "json.tool rejects the output");
	return json_check("telemetry", f, NULL);
}

static bool test_perf_json_shape(void)
{
	char f[CMN_PATH_LEN], args[4096];
	size_t i, n = 0;

	snprintf(f, sizeof(f), "%s/perf.json", tmproot);
	T_ASSERT(run_cmd(cmd_metrics, f, "metrics", "-f", "perf-json", NULL) == 0,
		 "exit status");
	/* perf resolves aliases from sysfs, plus its duration_time */
	for (i = 0; i < cmn_num_events; i++)
		n += snprintf(args + n, sizeof(args) - n, "%s ", cmn_events[i].name);
	snprintf(args + n, sizeof(args) - n, "dtc_cycles duration_time");
	if (!json_check("perf-json", f, args))
		return false;
	T_ASSERT(run_cmd(cmd_metrics, f, "metrics", "-f", "yaml", NULL) == 2,
		 "unknown format accepted");
	return true;
}

/* perf JSON through perf's own jevents.py, compiled: both Compat rules */
static bool test_perf_json_jevents(void)
{
	char out[CMN_PATH_LEN];
	int rc;

	T_ASSERT(strcmp(ksrc, "missing"), "no kernel source (tests/deps.sh ksrc failed)");
	snprintf(out, sizeof(out), "%s/jevents.txt", tmproot);
	rc = sh("%s/jevents.sh %s %s %s/jevents > %s 2>&1", fixtures, ksrc,
		tool_path, tmproot, out);
	T_ASSERT(rc == 0, "regex Compat: %s", slurp(out));
	rc = sh("%s/jevents.sh %s %s %s/jevents-exact --exact-compat > %s 2>&1",
		fixtures, ksrc, tool_path, tmproot, out);
	T_ASSERT(rc == 0, "--exact-compat: %s", slurp(out));
	return true;
}

/*
 * issue 20, 9: --exact-compat is for perf before 6.6 (Debian 12's 6.1):
 * the export through 6.1's own jevents.py, whose tables hold metrics as
 * events, every metric matching every known identifier by strcmp()
 */
static bool test_perf_json_jevents_61(void)
{
	char out[CMN_PATH_LEN];
	int rc;

	T_ASSERT(strcmp(ksrc61, "missing"), "no 6.1 kernel source (tests/deps.sh ksrc 6.1 failed)");
	snprintf(out, sizeof(out), "%s/jevents61.txt", tmproot);
	rc = sh("grep -q 'struct pmu_metric' %s/tools/perf/pmu-events/pmu-events.h", ksrc61);
	T_ASSERT(rc == 1, "%s is not perf 6.1's layout", ksrc61);
	rc = sh("%s/jevents.sh %s %s %s/jevents61 --exact-compat > %s 2>&1",
		fixtures, ksrc61, tool_path, tmproot, out);
	T_ASSERT(rc == 0, "6.1, --exact-compat: %s", slurp(out));
	return true;
}

static bool test_sha1(void)
{
	char hex[41];

	/* FIPS 180 test vectors */
	cmn_sha1_hex("abc", 3, hex);
	T_ASSERT(!strcmp(hex, "a9993e364706816aba3e25717850c26c9cd0d89d"), "abc: %s",
		 hex);
	cmn_sha1_hex("", 0, hex);
	T_ASSERT(!strcmp(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709"), "empty");
	cmn_sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	T_ASSERT(!strcmp(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"), "56 bytes");
	return true;
}

/* ---- cmn-hnf stat against a fake perf backend ---- */

static const char *stat_root(void)
{
	const char *root = fresh_root("stat");

	fake_pmu(root, "arm_cmn_hnf_0", 9, "2-3", "43402", "3 3", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "5", "43402", "3 3", hnfs_3x3, true);
	fake_type1 = 10;
	return root;
}

static bool test_stat_mesh(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	int rc, i;
	bool cpu_ok = true, cyc_alone = false;

	stat_root();
	nfev = 0;
	fake_no_groups = false;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-mesh.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "2", "--json", "all",
		     NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++) {
		if (fev[i].cpu != (fev[i].attr.type == 9 ? 2 : 5))
			cpu_ok = false;
		if (fev[i].attr.config == 0x300000000ULL && fev[i].leader == i &&
		    fev[i].attr.pinned)
			cyc_alone = true;
		T_ASSERT(fev[i].attr.pinned == (fev[i].attr.config == 0x300000000ULL),
			 "only dtc_cycles is pinned");
		T_ASSERT(fev[i].attr.read_format ==
			 (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
			  PERF_FORMAT_TOTAL_TIME_RUNNING), "read_format");
	}
	T_ASSERT(cpu_ok, "events not opened on the cpumask CPU");
	T_ASSERT(cyc_alone, "dtc_cycles (config 0x300000000) not opened alone and pinned");
	/*
	 * Hand arithmetic from fake_rate(): every event runs half the time,
	 * so scaling must double the raw counts back to the rates.
	 */
	return json_check("stat", f,
		"arm_cmn_hnf_0:slc_miss_rate=25 arm_cmn_hnf_1:slc_miss_rate=75 total:slc_miss_rate=50 arm_cmn_hnf_0:sf_hit_rate=30 arm_cmn_hnf_0:mc_retry_rate=2.5 arm_cmn_hnf_0:snoops_per_1k_accesses=2000 arm_cmn_hnf_0:sf_back_invals_per_1k_accesses=50 arm_cmn_hnf_0:pocq_retry_rate=5 arm_cmn_hnf_0:qos_hh_retry_rate=0.6 arm_cmn_hnf_0:pocq_avg_occupancy=0.2 total:pocq_avg_occupancy=0.4 arm_cmn_hnf_0:pocq_avg_latency=20");
}

static bool test_stat_groups(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	int rc, i, j;
	bool paired = false;

	stat_root();
	nfev = 0;
	fake_no_groups = false;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-groups.txt", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "slc_miss_rate", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	/* one metric, two meshes: two groups of two events, nothing else */
	T_ASSERT(nfev == 4, "%d events opened", nfev);
	for (i = 0; i < nfev; i++)
		for (j = 0; j < nfev; j++)
			if (fev[i].attr.config == 0x1 && fev[j].attr.config == 0x2 &&
			    fev[j].leader == i && fev[j].attr.type == fev[i].attr.type)
				paired = true;
	T_ASSERT(paired, "cache_miss and slc_sf_cache_access not in one group");
	T_ASSERT(strstr(slurp(f), "slc_miss_rate") && strstr(slurp(f), "75.00"),
		 "table lacks the metric: %s", slurp(f));
	return true;
}

/*
 * stat -I @interval -n 1 slc_miss_rate against the fake PMU, each of its
 * next @lag_reads reads (-1: all) taking @lag seconds, with its stderr in
 * @err (the tests' stderr is /dev/null)
 */
static int run_stat_lag(const char *out, const char *err, const char *interval,
			double lag, int lag_reads)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	int rc, fd, keep;

	fflush(stderr);
	fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	keep = dup(2);
	if (fd < 0 || keep < 0 || dup2(fd, 2) < 0)
		return -1;
	close(fd);
	nfev = 0;
	fake_read_lag = lag;
	fake_lag_reads = lag_reads;
	cmn_perf_ops = &fake_ops;
	rc = run_cmd(cmd_stat, out, "stat", "-I", interval, "-n", "1", "slc_miss_rate", NULL);
	cmn_perf_ops = saved;
	fake_lag_reads = 0;
	fflush(stderr);
	if (dup2(keep, 2) < 0)
		return -1;
	close(keep);
	return rc;
}

/*
 * The reads of one sample are at one instant: a pass over the groups that
 * took longer than 0.2 % of the interval (and 1 ms) is read again, four
 * times at most, then it stands with one warning. Each fake read here is
 * given a duration on the tool's clock; the baseline read and the sample
 * are a pass each.
 */
static bool test_stat_read_spread(void)
{
	char f[CMN_PATH_LEN], err[CMN_PATH_LEN];
	int rc, i, leaders = 0;
	const char *e;

	stat_root();
	snprintf(f, sizeof(f), "%s/spread.txt", tmproot);
	snprintf(err, sizeof(err), "%s/spread.err", tmproot);
	/* the first read of the baseline pass takes 0.5 s: that pass is read again */
	rc = run_stat_lag(f, err, "1000", 0.5, 1);
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++) {
		if (fev[i].leader != i)
			continue;
		leaders++;
		T_ASSERT(fev[i].reads >= 3, "group %d read %d times, want 2 passes and the sample",
			 i, fev[i].reads);
	}
	T_ASSERT(leaders == 2, "%d groups", leaders);
	T_ASSERT(!strstr(slurp(err), "took"), "a warning after a good pass: %s", slurp(err));
	T_ASSERT(strstr(slurp(f), "75.00"), "no value: %s", slurp(f));
	/* every read takes 10 ms, every pass 20 ms: 4 tries, one warning */
	rc = run_stat_lag(f, err, "1000", 0.01, -1);
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++)
		T_ASSERT(fev[i].leader != i || fev[i].reads == 8,
			 "group %d read %d times, want 2 x 4 tries", i, fev[i].reads);
	e = strstr(slurp(err), "took 20.0 ms to read (4 tries");
	T_ASSERT(e && !strstr(e + 1, "took"), "want one warning: %s", slurp(err));
	T_ASSERT(strstr(slurp(f), "75.00"), "no value: %s", slurp(f));
	/* 0.4 ms passes are over 0.2 % of 100 ms but within the 1 ms floor */
	rc = run_stat_lag(f, err, "100", 0.0002, -1);
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++)
		T_ASSERT(fev[i].leader != i || fev[i].reads == 2,
			 "group %d read %d times, want 2 passes", i, fev[i].reads);
	T_ASSERT(!strstr(slurp(err), "took"), "a warning within the floor: %s", slurp(err));
	return true;
}

/* A metric group's metrics share one perf group */
static bool test_stat_merged_groups(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	int rc, miss, acc, hit;

	stat_root();
	nfev = 0;
	fake_max_group = 0;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-merged.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--json", "slc", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	/* cache_miss 0x01, slc_sf_cache_access 0x02, sf_hit 0x06 */
	miss = fake_find(9, 0x01, -1);
	acc = fake_find(9, 0x02, -1);
	hit = fake_find(9, 0x06, -1);
	T_ASSERT(miss >= 0 && acc >= 0 && hit >= 0, "events missing");
	T_ASSERT(fev[acc].leader == fev[miss].leader &&
		 fev[hit].leader == fev[miss].leader &&
		 fake_members(fev[miss].leader) == 3,
		 "slc_miss_rate and sf_hit_rate not in one group of 3");
	T_ASSERT(fake_find(9, 0x02, acc) < 0, "slc_sf_cache_access opened twice");
	T_ASSERT(nfev == 6, "%d events opened for two meshes", nfev);
	return json_check("stat", f,
		"arm_cmn_hnf_0:slc_miss_rate=25 arm_cmn_hnf_0:sf_hit_rate=30 arm_cmn_hnf_1:slc_miss_rate=75");
}

/* A merged group the driver refuses falls back to one group per metric */
static bool test_stat_split_groups(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	int rc, i, live = 0;

	stat_root();
	nfev = 0;
	fake_max_group = 2;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-split.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--json", "slc",
		     "pocq", NULL);
	cmn_perf_ops = saved;
	fake_max_group = 0;
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++) {
		if (!fev[i].ena)
			continue;
		live++;
		T_ASSERT(fake_members(fev[i].leader) <= 2,
			 "a group of %d is live", fake_members(fev[i].leader));
	}
	/* per mesh: slc 2+2, pocq 2+2+1+2 (one per metric), dtc_cycles */
	T_ASSERT(live == 2 * 12, "%d live events", live);
	return json_check("stat", f,
		"arm_cmn_hnf_0:slc_miss_rate=25 arm_cmn_hnf_0:sf_hit_rate=30 arm_cmn_hnf_0:pocq_retry_rate=5 arm_cmn_hnf_0:qos_hh_retry_rate=0.6 arm_cmn_hnf_0:pocq_avg_occupancy=0.2 arm_cmn_hnf_1:pocq_avg_latency=20");
}

static bool test_stat_per_hnf(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	bool found = false, plain = false;
	int rc, i;

	stat_root();
	nfev = 0;
	fake_no_groups = false;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-hnf.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--per-hnf",
		     "--json", "slc", "pocq", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++) {
		/* cache_miss, bynodeid, nodeid 0x48: 0x00481001 */
		if (fev[i].attr.config == 0x00481001)
			found = true;
		if ((fev[i].attr.config >> 32) != 3 &&
		    !(fev[i].attr.config & (1 << 12)))
			plain = true;
	}
	T_ASSERT(found, "no cache_miss,bynodeid=1,nodeid=0x48 (0x00481001)");
	T_ASSERT(!plain, "a mesh-wide HN-F event was opened in --per-hnf mode");
	/* per HN-F weights 1..4; the mesh sums them over one clock */
	return json_check("stat", f,
		"arm_cmn_hnf_0#0:slc_miss_rate=25 arm_cmn_hnf_0#3:slc_miss_rate=25 arm_cmn_hnf_0#3:pocq_avg_occupancy=0.8 arm_cmn_hnf_0#0:pocq_avg_occupancy=0.2 arm_cmn_hnf_0:pocq_avg_occupancy=2 arm_cmn_hnf_1:slc_miss_rate=75 arm_cmn_hnf_0:pocq_avg_latency=20 total:slc_miss_rate=50");
}

static bool test_stat_top_view(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN], *s, *top;
	int rc;

	stat_root();
	nfev = 0;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-top.txt", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--per-hnf",
		     "--top", "2", "--sort", "pocq_avg_occupancy", "pocq", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	s = slurp(f);
	top = strstr(s, "# top 2 HN-Fs by pocq_avg_occupancy");
	T_ASSERT(top, "no top-N view: %s", s);
	/* lid 3 (weight 4, 0.8) first; mean over 8 HN-Fs is 0.5 */
	T_ASSERT(strstr(top, "hnf   3 nodeid   0x4d") && strstr(top, "x1.60 of mean"),
		 "top row wrong: %s", top);
	T_ASSERT(strstr(top, "# imbalance: max/mean 1.60, min/mean 0.40"),
		 "imbalance line wrong: %s", top);
	return true;
}

static bool test_stat_ungrouped_fallback(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	int rc, i;
	bool grouped = false;

	stat_root();
	nfev = 0;
	fake_no_groups = true;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-nogroup.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--json",
		     "slc_miss_rate", NULL);
	cmn_perf_ops = saved;
	fake_no_groups = false;
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++)
		if (fev[i].leader != i)
			grouped = true;
	T_ASSERT(!grouped, "an event is still in a group");
	return json_check("stat", f, "arm_cmn_hnf_0:slc_miss_rate=25");
}

/* A pinned dtc_cycles in error state: no value, not a failure */
static bool test_stat_cycles_error(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN];
	int rc;

	stat_root();
	nfev = 0;
	fake_cycles_error = true;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-cycerr.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--json",
		     "pocq_avg_occupancy", "slc_miss_rate", NULL);
	cmn_perf_ops = saved;
	fake_cycles_error = false;
	T_ASSERT(rc == 0, "exit status %d", rc);
	return json_check("stat", f,
		"arm_cmn_hnf_0:pocq_avg_occupancy=null arm_cmn_hnf_0:slc_miss_rate=25");
}

static bool test_stat_csv(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	char f[CMN_PATH_LEN], *s;
	int rc;

	stat_root();
	nfev = 0;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat.csv", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "2", "--csv",
		     "slc_miss_rate", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	s = slurp(f);
#define T_CSV_HEADER "time,epoch,pmu,hnf,nodeid,kind,name,value,unit,running_pct,flagged\n"
	T_ASSERT(!strncmp(s, T_CSV_HEADER, strlen(T_CSV_HEADER)), "header: %.70s", s);
	T_ASSERT(strstr(s, ",arm_cmn_hnf_1,all,,metric,slc_miss_rate,75.000000,%,50.0,1"),
		 "mesh 1 row (75%% > 50 flagged, 50%% running): %s", s);
	T_ASSERT(strstr(s, ",total,all,,metric,slc_miss_rate,50.000000,%,50.0,0"),
		 "total row: %s", s);
	/* raw counts: 125 read in half the time, scaled to 250 (fake_rate) */
	T_ASSERT(strstr(s, ",arm_cmn_hnf_0,all,,event,cache_miss,250,events,50.0,0"),
		 "event row: %s", s);
	T_ASSERT(strstr(s, ",total,all,,event,slc_sf_cache_access,2000,events,50.0,0"),
		 "total event row: %s", s);
	/* header once, 2 intervals x 3 units x (1 metric + 2 events) */
	T_ASSERT(sh("test $(wc -l < %s) -eq 19", f) == 0, "line count");
	/* the epoch column is the Unix time, not the time since the start */
	T_ASSERT(sh("awk -F, 'NR > 1 && ($2 < 1600000000 || $2 > 4000000000) { exit 1 }' %s",
		    f) == 0, "epoch column: %s", s);
	return true;
}

/* Expected perf command lines of cmn-hnf stat --print-perf */
#define T_PERF_MESH	"perf stat -a -e '{arm_cmn_hnf_0/cache_miss/,arm_cmn_hnf_0/slc_sf_cache_access/}' -e '{arm_cmn_hnf_1/cache_miss/"
#define T_PERF_PER_HNF	"perf stat -a -x, -I 500 --interval-count 3 -e '{arm_cmn_hnf_0/pocq_occupancy,bynodeid=1,nodeid=0x8/,arm_cmn_hnf_0/pocq_reqs_recvd,bynodeid=1,nodeid=0x8/}'"

static bool test_stat_print_perf(void)
{
	char f[CMN_PATH_LEN], *s, d[CMN_PATH_LEN];
	const char *root;
	int rc;

	root = stat_root();
	snprintf(f, sizeof(f), "%s/print-perf.txt", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "--print-perf", "slc_miss_rate", NULL);
	T_ASSERT(rc == 0, "exit status %d", rc);
	s = slurp(f);
	T_ASSERT(strstr(s, T_PERF_MESH), "command: %s", s);
	T_ASSERT(strstr(s, "-- sleep 1\n# slc_miss_rate = cache_miss / slc_sf_cache_access * 100"),
		 "tail: %s", s);
	rc = run_cmd(cmd_stat, f, "stat", "--print-perf", "-I", "500", "-n",
		     "3", "--per-hnf", "--csv", "mesh_clock", "pocq_avg_latency", NULL);
	s = slurp(f);
	T_ASSERT(rc == 0 && strstr(s, T_PERF_PER_HNF), "per-hnf: %s", s);
	T_ASSERT(strstr(s, "-e 'arm_cmn_hnf_1/dtc_cycles/'"), "dtc_cycles: %s", s);
	/* without aliases the raw terms are printed */
	snprintf(d, sizeof(d), "rm -rf %s/bus/event_source/devices/arm_cmn_hnf_1/events",
		 root);
	sh("%s", d);
	rc = run_cmd(cmd_stat, f, "stat", "--print-perf", "mc_retry_rate", NULL);
	s = slurp(f);
	T_ASSERT(rc == 0 &&
		 strstr(s, "'{arm_cmn_hnf_1/eventid=0x0c/,arm_cmn_hnf_1/eventid=0x0d/}'"),
		 "raw terms: %s", s);
	return true;
}

static bool test_stat_errors(void)
{
	char f[CMN_PATH_LEN], err[CMN_PATH_LEN];
	const char *root;

	snprintf(f, sizeof(f), "%s/stat-err.txt", tmproot);
	stat_root();
	/* a word that is no metric is the command, as in perf stat sleep 1 */
	snprintf(err, sizeof(err), "%s/stat-err.err", tmproot);
	T_ASSERT(fake_run(f, err, "stat nonsense") == 127 &&
		 strstr(slurp(err), "cannot run 'nonsense'") &&
		 strstr(slurp(err), "nor is it a metric or group"), "unknown metric: %s",
		 slurp(err));
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "-I", "x", NULL) == 2, "bad -I");
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "--sort", "bogus", NULL) == 2, "bad --sort");
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "--sort", "mesh_clock", "slc", NULL) == 2,
		 "--sort of an unselected metric");
	root = fresh_root("stat-nohnfs");
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", NULL, true);
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "--per-hnf", "--print-perf", NULL) == 1,
		 "--per-hnf without hnfs");
	fresh_root("stat-empty");
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "--print-perf", NULL) == 1, "no PMU");
	return true;
}

/* ---- check ---- */

static void fake_proc(const char *root, int paranoid, const char *capeff)
{
	char p[CMN_PATH_LEN];
	static char proc[CMN_PATH_LEN];

	snprintf(proc, sizeof(proc), "%s/proc", root);
	snprintf(p, sizeof(p), "%s/sys/kernel/perf_event_paranoid", proc);
	put(p, "%d\n", paranoid);
	snprintf(p, sizeof(p), "%s/self/status", proc);
	put(p, "Name:\tcmn-hnf\nCapInh:\t0000000000000000\nCapEff:\t%s\n", capeff);
	snprintf(p, sizeof(p), "%s/interrupts", proc);
	put(p, "           CPU0       CPU1\n"
	    " 11:      12345       6789     GICv3  27 Level     arch_timer\n"
	    " 42:          7          3     GICv3 232 Level     arm_cmn_hnf_0\n"
	    " 43:          5          0     GICv3 233 Level     arm_cmn_hnf_10\n");
	cmn_proc_root = proc;
}

static void fake_device(const char *root, const char *dev, const char *alias,
			const char *driver)
{
	char p[CMN_PATH_LEN], t[CMN_PATH_LEN];

	snprintf(p, sizeof(p), "%s/bus/platform/devices/%s/modalias", root, dev);
	put(p, "%s\n", alias);
	snprintf(p, sizeof(p), "%s/bus/platform/drivers/%s", root, driver);
	mkdirs(p);
	snprintf(p, sizeof(p), "%s/bus/platform/devices/%s/driver", root, dev);
	snprintf(t, sizeof(t), "../../drivers/%s", driver);
	if (symlink(t, p))
		return;
}

static bool test_check_good(void)
{
	const char *root = fresh_root("check-good");
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;
	int rc;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	snprintf(p, sizeof(p), "%s/module/arm_cmn_hnf", root);
	mkdirs(p);
	fake_device(root, "ARMHC600:00", "acpi:ARMHC600:", "arm-cmn-hnf");
	fake_proc(root, 0, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-good.txt", tmproot);
	rc = run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	cmn_proc_root = "/proc";
	T_ASSERT(rc == 0, "exit %d: %s", rc, s);
	T_ASSERT(strstr(s, "ok    arm_cmn_hnf_0: CMN-600 r1p2"), "pmu line: %s", s);
	T_ASSERT(strstr(s, "ok    device ARMHC600:00 (CMN-600) bound to arm-cmn-hnf"),
		 "device line: %s", s);
	T_ASSERT(strstr(s, "perf_event_paranoid=0 allows"), "paranoid line: %s", s);
	/* 7 + 3 on IRQ 42; IRQ 43 belongs to arm_cmn_hnf_10 */
	T_ASSERT(strstr(s, "ok    arm_cmn_hnf_0: 1 overflow interrupt, raised 10 times"),
		 "irq line: %s", s);
	T_ASSERT(!strstr(s, "FAIL"), "a FAIL: %s", s);
	return true;
}

/* Expected FAIL line of cmn-hnf check for an ACPI device bound to arm-cmn */
#define T_CHECK_ACPI_BOUND	"FAIL  device ARMHC600:00 is bound to the upstream arm-cmn driver; fix: sudo cmn-hnf switch hnf --persistent"

static bool test_check_problems(void)
{
	const char *root = fresh_root("check-bad");
	char f[CMN_PATH_LEN], *s;
	int rc;

	fake_device(root, "ARMHC600:00", "acpi:ARMHC600:", "arm-cmn");
	fake_device(root, "1e0000000.cmn", "of:NcmnT(null)Carm,cmn-600", "arm-cmn");
	fake_proc(root, 2, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-bad.txt", tmproot);
	rc = run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	T_ASSERT(rc == 1, "exit %d", rc);
	T_ASSERT(strstr(s, "FAIL  no arm_cmn_hnf_<n> PMU"), "no-PMU line: %s", s);
	T_ASSERT(strstr(s, T_CHECK_ACPI_BOUND), "ACPI binding line: %s", s);
	T_ASSERT(strstr(s, "FAIL  device 1e0000000.cmn is bound"), "DT binding line: %s", s);
	T_ASSERT(strstr(s, "FAIL  perf_event_paranoid=2 and this process has neither"),
		 "paranoid line: %s", s);
	T_ASSERT(strstr(s, "FAIL  module arm_cmn_hnf not loaded; fix: "),
		 "module line: %s", s);
	cmn_proc_root = "/proc";
	return true;
}

/* Documentation/arm_cmn_hnf.rst, beside the tool's guide (--doc) */
static const char *admin_guide(void)
{
	static char p[CMN_PATH_LEN];
	char *slash;

	snprintf(p, sizeof(p), "%s", doc_path);
	slash = strrchr(p, '/');
	snprintf(slash ? slash + 1 : p, sizeof(p) - (slash ? slash + 1 - p : 0),
		 "arm_cmn_hnf.rst");
	return p;
}

/* the columns of the guide's table: root, user, CAP_PERFMON, CAP_SYS_ADMIN */
static const char *const t_perm_capeff[] = {
	"000001ffffffffff", "0000000000000000", "0000004000000000",
	"0000000000200000",
};

/*
 * check's verdict at paranoid @level for the capability set of column
 * @col: "ok" when @counts, else a FAIL whose fix is what works at that
 * level (CAP_PERFMON at 1 and 2, only CAP_SYS_ADMIN above 2). NULL when
 * right, else why not.
 */
static const char *perm_verdict(const char *root, int level, int col, bool counts)
{
	static char why[1024];
	char f[CMN_PATH_LEN], want[64], *s, *line;
	const char *fix = level > 2 ? "CAP_PERFMON is not enough" : "give CAP_PERFMON";

	snprintf(f, sizeof(f), "%s/check-perm.txt", tmproot);
	fake_proc(root, level, t_perm_capeff[col]);
	run_cmd(cmd_check, f, "check", NULL);
	cmn_proc_root = "/proc";
	s = slurp(f);
	line = strstr(s, "perf_event_paranoid=");
	snprintf(want, sizeof(want), "%s  perf_event_paranoid=%d%s",
		 counts ? "ok  " : "FAIL", level, counts ? ":" : " and");
	if (level <= 0 && counts)
		snprintf(want, sizeof(want), "ok    perf_event_paranoid=%d allows", level);
	if (!strstr(s, want) || (!counts && !strstr(line, fix))) {
		snprintf(why, sizeof(why), "level %d, CapEff %s: want '%s'%s%s%s, got: %.*s",
			 level, t_perm_capeff[col], want, counts ? "" : " with '",
			 counts ? "" : fix, counts ? "" : "'",
			 (int)strcspn(line ? line : s, "\n"), line ? line : s);
		return why;
	}
	return NULL;
}

/*
 * issue 20, 1: check's permission verdict for every paranoid level and
 * capability set of the admin guide's "Who may count" table, read from
 * the guide itself: "counts" must be ok, EACCES a FAIL.
 */
static bool test_check_perm_matrix(void)
{
	/*
	 * Levels the guide's table leaves out (its rows are what the guest
	 * test 63-abuse-privilege sets), by the kernel's rules: Debian's
	 * patch, which Ubuntu's kernels carry as well, refuses
	 * perf_event_open() without CAP_SYS_ADMIN at any level above 2
	 * (perf_paranoid_any()), so Ubuntu's default 4 and a level past any
	 * documented one are Debian's 3; below -1 the kernel's tests
	 * (paranoid > 0, > -1) see -1. Columns as in t_perm_capeff[].
	 */
	static const struct {
		int level;
		bool counts[4];
	} more[] = {
		{ 4, { true, false, false, true } },		/* Ubuntu */
		{ 5, { true, false, false, true } },
		{ 1000, { true, false, false, true } },
		{ -2, { true, true, true, true } },
	};
	const char *root = fresh_root("check-perm");
	char *doc, *line, *save = NULL;
	const char *why;
	int rows = 0, level, col, nf, i;
	char cell[5][32];

	doc = strdup(slurp(admin_guide()));
	T_ASSERT(doc && strstr(doc, "\nWho may count\n"), "no 'Who may count' in %s",
		 admin_guide());
	for (line = strtok_r(strstr(doc, "\nWho may count\n"), "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Errors", 6))
			break;
		/* "3 (Debian)  counts  ``EACCES``  ``EACCES``  counts" */
		nf = sscanf(line, "%d%*[ (Debian)] %31s %31s %31s %31s", &level,
			    cell[1], cell[2], cell[3], cell[4]);
		if (nf != 5 || !isdigit((unsigned char)line[strspn(line, "-")]))
			continue;
		rows++;
		for (col = 1; col <= 4; col++) {
			bool counts = !strcmp(cell[col], "counts");

			if (!counts && strcmp(cell[col], "``EACCES``")) {
				free(doc);
				T_ASSERT(0, "cell '%s' of level %d", cell[col], level);
			}
			why = perm_verdict(root, level, col - 1, counts);
			if (why) {
				free(doc);
				T_ASSERT(0, "%s", why);
			}
		}
	}
	free(doc);
	T_ASSERT(rows == 5, "%d rows in the guide's table, expected levels 3 to -1", rows);
	for (i = 0; i < (int)ARRAY_SIZE(more); i++) {
		for (col = 0; col < 4; col++) {
			why = perm_verdict(root, more[i].level, col, more[i].counts[col]);
			T_ASSERT(!why, "%s", why);
		}
	}
	return true;
}

/* issue 20, 1: stat's advice when perf refuses, at Debian's default level */
#define T_EACCES_RUN "CMN_HNF_FAKE_OPEN_ERRNO=13 CMN_HNF_PROC_ROOT=%s/proc %s --sysfs-root %s stat > %s 2> %s"
static bool test_stat_perm_hint(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], *s;
	const char *root = stat_root();
	int rc;

	fake_proc(tmproot, 3, "0000004000000000");
	cmn_proc_root = "/proc";
	snprintf(out, sizeof(out), "%s/perm.out", tmproot);
	snprintf(err, sizeof(err), "%s/perm.err", tmproot);
	rc = sh(T_EACCES_RUN, tmproot, fake_path, root, out, err);
	s = slurp(err);
	T_ASSERT(rc == 1, "exit %d: %s", rc, s);
	T_ASSERT(strstr(s, "perf_event_paranoid=3") && strstr(s, "only CAP_SYS_ADMIN") &&
		 strstr(s, "CAP_PERFMON is not enough"), "level-3 advice: %s", s);
	/* Ubuntu's default: as Debian's 3 (any level above 2) */
	fake_proc(tmproot, 4, "0000004000000000");
	cmn_proc_root = "/proc";
	rc = sh(T_EACCES_RUN, tmproot, fake_path, root, out, err);
	s = slurp(err);
	T_ASSERT(rc == 1, "exit %d: %s", rc, s);
	T_ASSERT(strstr(s, "perf_event_paranoid=4") && strstr(s, "only CAP_SYS_ADMIN") &&
		 strstr(s, "CAP_PERFMON is not enough"), "level-4 advice: %s", s);
	fake_proc(tmproot, 2, "0000000000000000");
	cmn_proc_root = "/proc";
	sh(T_EACCES_RUN, tmproot, fake_path, root, out, err);
	s = slurp(err);
	T_ASSERT(strstr(s, "perf_event_paranoid=2") && strstr(s, "give CAP_PERFMON"),
		 "level-2 advice: %s", s);
	return true;
}

/*
 * issue 20, 6: check's fix for a device bound to arm-cmn is cmn-hnf
 * switch, names the very file switch writes, and updates the initramfs;
 * "module not loaded" points at the package.
 */
static bool test_check_arm_cmn_advice(void)
{
	const char *root = fresh_root("check-advice");
	char f[CMN_PATH_LEN], sw[CMN_PATH_LEN], conf[CMN_PATH_LEN], *s, *line;
	int rc;

	fake_device(root, "ARMHC600:00", "acpi:ARMHC600:", "arm-cmn");
	snprintf(f, sizeof(f), "%s/module/arm_cmn/initstate", root);
	put(f, "live\n");
	fake_proc(root, 0, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-advice.txt", tmproot);
	run_cmd(cmd_check, f, "check", NULL);
	cmn_proc_root = "/proc";
	s = slurp(f);
	line = strstr(s, "FAIL  device ARMHC600:00 is bound");
	T_ASSERT(line, "no FAIL for the device: %s", s);
	line[strcspn(line, "\n")] = '\0';
	T_ASSERT(strstr(line, "cmn-hnf switch hnf --persistent"), "no switch: %s", line);
	T_ASSERT(strstr(line, "update-initramfs -u -k all"), "no initramfs update: %s", line);
	/* the modprobe file is the one switch --persistent writes */
	snprintf(sw, sizeof(sw), "%s/switch-root", tmproot);
	snprintf(conf, sizeof(conf), "%s/etc/modprobe.d", sw);
	mkdirs(conf);
	rc = sh("%s switch hnf --persistent --root %s > /dev/null 2>&1", tool_path, sw);
	rc = rc ? rc : sh("cd %s && ls etc/modprobe.d/* > %s/sw.txt", sw, tmproot);
	snprintf(conf, sizeof(conf), "%s/sw.txt", tmproot);
	s = slurp(conf);
	T_ASSERT(rc == 0 && *s, "switch --root wrote nothing");
	s[strcspn(s, "\n")] = '\0';
	snprintf(conf, sizeof(conf), " /%s ", s);
	T_ASSERT(strstr(line, conf), "switch writes /%s; check says: %s", s, line);
	s = slurp(f);
	line = strstr(s, "module arm_cmn_hnf not loaded; fix: ");
	T_ASSERT(line, "no module line: %s", s);
	line[strcspn(line, "\n")] = '\0';
	T_ASSERT(strstr(line, "arm-cmn-hnf-dkms") && strstr(line, "dkms status"),
		 "module line ignores the package: %s", line);
	return true;
}

/* issue 20, 7: stat counts the table's encoding of an alias that differs, and says so */
static bool test_stat_alias_differs(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], p[CMN_PATH_LEN];
	const char *root = stat_root();
	int rc;

	snprintf(out, sizeof(out), "%s/ad.out", tmproot);
	snprintf(err, sizeof(err), "%s/ad.err", tmproot);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_0/events/cache_miss",
		 root);
	put(p, "eventid=0x02\n");
	rc = fake_run(out, err, "stat --json slc_miss_rate");
	stat_root();
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
#define T_ALIAS_WARN "warning: arm_cmn_hnf_0/events/cache_miss is 'eventid=0x02', the event table says eventid=0x01"
	T_ASSERT(strstr(slurp(err), T_ALIAS_WARN),
		 "no warning: '%s'", slurp(err));
	/* cache_miss (0x01) of 0x02: 25 %, not the 100 % of 0x02 / 0x02 */
	return json_check("stat", out,
			  "arm_cmn_hnf_0:slc_miss_rate=25 arm_cmn_hnf_1:slc_miss_rate=75");
}

/* issue 20, 7: an HN-F listed twice is an error, never counted twice */
static bool test_sysfs_duplicate_hnfs(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], p[CMN_PATH_LEN];
	const char *root = stat_root();
	int rc;

	snprintf(out, sizeof(out), "%s/dup.out", tmproot);
	snprintf(err, sizeof(err), "%s/dup.err", tmproot);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_1/hnfs", root);
	put(p, "%s1 0x0028 1 1 0 0\n", hnfs_3x3);
	rc = fake_run(out, err, "stat --per-hnf --json slc_miss_rate");
	T_ASSERT(rc == 1 && strstr(slurp(err), "line 6: node id 0x28 listed twice"),
		 "stat --per-hnf: exit %d: %s", rc, slurp(err));
	put(p, "%s4 0x0030 1 2 0 0\n3 0x0031 1 2 0 1\n", hnfs_3x3);
	rc = fake_run(out, err, "stat --per-hnf --json slc_miss_rate");
	stat_root();
	T_ASSERT(rc == 1 && strstr(slurp(err), "line 7: logical id 3 listed twice"),
		 "a logical id twice: exit %d: %s", rc, slurp(err));
	return true;
}

/* issue 20, 7: hnfs against mesh, a garbage mesh file, an unreadable hnfs */
static bool test_check_topology_files(void)
{
	const char *root = fresh_root("check-topo");
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;
	int rc;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "2 2", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "0", "43402", "garbage", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_2", 11, "0", "43402", "3 3", NULL, true);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_2/hnfs", root);
	mkdirs(p);
	fake_proc(root, 0, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-topo.txt", tmproot);
	rc = run_cmd(cmd_check, f, "check", NULL);
	cmn_proc_root = "/proc";
	s = slurp(f);
	T_ASSERT(rc == 1, "exit %d", rc);
	/* H2 and H3 sit at x=2 */
#define T_OUTSIDE "FAIL  arm_cmn_hnf_0: 2 HN-Fs outside the 2x2 mesh of the mesh file: H2 0x48 at (2,1), H3 0x4d at (2,1)"
	T_ASSERT(strstr(s, T_OUTSIDE),
		 "HN-F outside the mesh: %s", s);
	T_ASSERT(strstr(s, "FAIL  arm_cmn_hnf_1: ") && strstr(s, "'garbage' is not a mesh size"),
		 "garbage mesh: %s", s);
	T_ASSERT(strstr(s, "arm_cmn_hnf_2/hnfs: Is a directory"), "unreadable hnfs: %s", s);
	T_ASSERT(!strstr(s, "No such file"), "reported as missing: %s", s);
	snprintf(f, sizeof(f), "%s/topo-garbage.txt", tmproot);
	run_cmd(cmd_topo, f, "topo", NULL);
	s = slurp(f);
	T_ASSERT(strstr(s, "mesh:       unknown (") && !strstr(s, "3x2"),
		 "topo on a garbage mesh file: %s", s);
	return true;
}

/* issue 20, 7 and 8: topo's "no PMU" is an error on stderr; XP 0x0, not 0 */
static bool test_topo_messages(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN];
	const char *root = fresh_root("topo-none");
	int rc;

	snprintf(out, sizeof(out), "%s/tn.out", tmproot);
	snprintf(err, sizeof(err), "%s/tn.err", tmproot);
	snprintf(out, sizeof(out), "%s/bus/event_source/devices", root);
	mkdirs(out);
	snprintf(out, sizeof(out), "%s/tn.out", tmproot);
	rc = sh("%s --sysfs-root %s topo > %s 2> %s", tool_path, root, out, err);
	T_ASSERT(rc == 1 && !*slurp(out) && strstr(slurp(err), "no arm_cmn_hnf_<n> PMU found"),
		 "exit %d, stdout '%s', stderr '%s'", rc, slurp(out), slurp(err));
	root = fresh_root("topo-hex");
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	rc = sh("%s --sysfs-root %s topo > %s 2> %s", tool_path, root, out, err);
	T_ASSERT(rc == 0 && strstr(slurp(out), "|XP 0x0 ") && strstr(slurp(out), "|XP 0x8 ") &&
		 !strstr(slurp(out), "XP 0 "), "XP ids: %s", slurp(out));
	return true;
}

/* issue 20, 8: metrics -o needs an existing DIR; SOURCE_DATE_EPOCH is checked */
static bool test_metrics_dir_and_epoch(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], d[CMN_PATH_LEN];
	int rc;

	snprintf(out, sizeof(out), "%s/md.out", tmproot);
	snprintf(err, sizeof(err), "%s/md.err", tmproot);
	snprintf(d, sizeof(d), "%s/typo/dir", tmproot);
	rc = sh("%s metrics -f perf-json -o %s > %s 2> %s", tool_path, d, out, err);
	T_ASSERT(rc == 1 && strstr(slurp(err), "--output-dir") &&
		 strstr(slurp(err), "No such file"), "-o %s: exit %d: %s", d, rc, slurp(err));
	snprintf(d, sizeof(d), "%s/typo", tmproot);
	T_ASSERT(access(d, F_OK), "%s was created", d);
	snprintf(d, sizeof(d), "%s/arch", tmproot);
	mkdirs(d);
	rc = sh("%s metrics -f perf-json -o %s > %s 2> %s", tool_path, d, out, err);
	T_ASSERT(rc == 0 && strstr(slurp(out), "/arch/arm64/arm/cmn600-hnf/sys/metrics.json"),
		 "-o an existing dir: exit %d: %s", rc, slurp(err));
	rc = sh("SOURCE_DATE_EPOCH=garbage %s metrics > %s 2> %s", tool_path, out, err);
	T_ASSERT(rc == 1 && strstr(slurp(err), "SOURCE_DATE_EPOCH='garbage'"),
		 "garbage epoch: exit %d: %s", rc, slurp(err));
	/* 2001-09-09 01:46:40 UTC */
	rc = sh("SOURCE_DATE_EPOCH=1000000000 %s metrics > %s 2> %s", tool_path, out, err);
	T_ASSERT(rc == 0 && strstr(slurp(out), "\"09 Sep 01:46:40 2001\""),
		 "epoch 1000000000: %.300s", slurp(out));
	return true;
}

/* issue 20, 8: report keeps a recording whose last line is cut; a directory */
static bool test_report_cut_and_dir(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], run[CMN_PATH_LEN];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/rc.out", tmproot);
	snprintf(err, sizeof(err), "%s/rc.err", tmproot);
	snprintf(run, sizeof(run), "%s/cut.jsonl", tmproot);
	rc = fake_run(run, err, "stat -I 10 -n 4 --json slc");
	T_ASSERT(rc == 0, "recording: exit %d", rc);
	/* a killed stat: the fourth record loses its end and its newline */
	rc = sh("truncate -s -40 %s", run);
	T_ASSERT(rc == 0, "truncate");
	rc = fake_run(out, err, "report %s", run);
	T_ASSERT(rc == 0 && strstr(slurp(out), ": 3 intervals, "),
		 "cut recording: exit %d: %s", rc, slurp(err));
	T_ASSERT(strstr(slurp(err), "line 4 is cut short"), "no word on the cut line: '%s'",
		 slurp(err));
	rc = fake_run(out, err, "report %s", tmproot);
	T_ASSERT(rc == 1 && strstr(slurp(err), "is a directory") &&
		 !strstr(slurp(err), "no intervals"), "report DIR: exit %d: %s", rc, slurp(err));
	return true;
}

/* issue 20, 8: check names the identifier format in words, not printf's */
static bool test_check_identifier_text(void)
{
	const char *root = fresh_root("check-id");
	char f[CMN_PATH_LEN], *s;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "4340", "3 3", hnfs_3x3, true);
	fake_proc(root, 0, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-id.txt", tmproot);
	run_cmd(cmd_check, f, "check", NULL);
	cmn_proc_root = "/proc";
	s = slurp(f);
	T_ASSERT(strstr(s, "WARN  arm_cmn_hnf_0: identifier '4340' is not five hex digits"),
		 "no identifier warning: %s", s);
	T_ASSERT(!strchr(s, '%'), "a printf format in the output: %s", s);
	return true;
}

/* ---- defects of issue 12, one test each ---- */

/* 3: stat -- cmd exits with the command's status, like perf */
static bool test_stat_exit_status(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/exit.out", tmproot);
	snprintf(err, sizeof(err), "%s/exit.err", tmproot);
	rc = fake_run(out, err, "stat --json slc_miss_rate -- true");
	T_ASSERT(rc == 0, "true: exit %d", rc);
	if (!json_check("stat", out, "arm_cmn_hnf_0:slc_miss_rate=25"))
		return false;
	rc = fake_run(out, err, "stat slc_miss_rate -- false");
	T_ASSERT(rc == 1, "false: exit %d", rc);
	T_ASSERT(strstr(slurp(out), "slc_miss_rate"), "false: no counts printed");
	rc = fake_run(out, err, "stat slc_miss_rate -- sh -c 'exit 3'");
	T_ASSERT(rc == 3, "exit 3: exit %d", rc);
	rc = fake_run(out, err, "stat slc_miss_rate -- sh -c 'kill -TERM $$'");
	T_ASSERT(rc == 128 + 15, "killed by SIGTERM: exit %d", rc);
	/* a command that cannot run: 127, an error and no table */
	rc = fake_run(out, err, "stat slc_miss_rate -- /nonexistent/cmd");
	T_ASSERT(rc == 127, "missing command: exit %d", rc);
	T_ASSERT(!*slurp(out), "missing command: a table was printed: %s", slurp(out));
	T_ASSERT(strstr(slurp(err), "cannot run '/nonexistent/cmd'"),
		 "missing command: %s", slurp(err));
	/* -n ends the command: that is not a failure */
	rc = fake_run(out, err, "stat -I 10 -n 1 slc_miss_rate -- sleep 30");
	T_ASSERT(rc == 0, "-n with a longer command: exit %d", rc);
	return true;
}

/*
 * issue 20, 5: ^C while the command runs is 128 + SIGINT, every time,
 * whether the command got the signal too (from the terminal: the whole
 * process group) or only cmn-hnf did; and a reaped or unreaped child
 * makes no difference.
 */
static bool test_stat_sigint_status(void)
{
	static const char *const who[] = {
		"$p", "$p $(pgrep -P $p)",
	};
	char out[CMN_PATH_LEN], script[2048];
	int i, k, rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/sigint.out", tmproot);
	for (k = 0; k < (int)ARRAY_SIZE(who); k++) {
		for (i = 0; i < 4; i++) {
			snprintf(script, sizeof(script),
				 "%s --sysfs-root %s/stat stat slc_miss_rate -- sleep 30 > %s 2>&1 & p=$!; "
				 "n=0; while [ -z \"$(pgrep -P $p)\" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n+1)); done; "
				 "sleep 0.2; kill -INT %s; wait $p",
				 fake_path, tmproot, out, who[k]);
			rc = sh("bash -c '%s'", script);
			T_ASSERT(rc == 128 + 2, "kill -INT %s, try %d: exit %d (%s)",
				 who[k], i + 1, rc, slurp(out));
		}
	}
	return true;
}

/* issue 20, 5: --print-perf quotes the command's words for the shell */
static bool test_stat_print_perf_quoting(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], *s;
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/pq.out", tmproot);
	snprintf(err, sizeof(err), "%s/pq.err", tmproot);
#define T_QUOTE_RUN "stat --print-perf slc_miss_rate -- sh -c \"echo a  b; echo it's\" x '' a/b=c,d"
	rc = fake_run(out, err, T_QUOTE_RUN);
	s = slurp(out);
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
#define T_QUOTED " -- sh -c 'echo a  b; echo it'\\''s' x '' a/b=c,d\n"
	T_ASSERT(strstr(s, T_QUOTED), "command words: %s", s);
	/* and the shell runs what was printed: the same words come back */
	*strchr(s, '\n') = '\0';
	snprintf(err, sizeof(err), "%s/pq.sh", tmproot);
	put(err, "set -- %s\nprintf '[%%s]' \"$@\"\n", strstr(s, " -- ") + 4);
	rc = sh("sh %s > %s 2>&1", err, out);
	T_ASSERT(rc == 0 && !strcmp(slurp(out), "[sh][-c][echo a  b; echo it's][x][][a/b=c,d]"),
		 "the shell reads: %s", slurp(out));
	return true;
}

/* Lines of @s holding @a and @b, like grep -c */
static int lines_with(const char *s, const char *a, const char *b)
{
	const char *l, *nl;
	int n = 0;

	for (l = s; *l; l = nl + 1) {
		char line[1024];

		nl = strchr(l, '\n');
		if (!nl)
			nl = l + strlen(l);
		snprintf(line, sizeof(line), "%.*s", (int)(nl - l), l);
		n += strstr(line, a) && (!b || strstr(line, b));
		if (!*nl)
			break;
	}
	return n;
}

/*
 * Any event, not only metrics: stat -e with aliases, perf's PMU/terms/
 * spelling, occupid and one HN-F by bynodeid/nodeid; values from
 * fake_rate() (scaled back from half the time)
 */
static bool test_stat_events(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	const struct cmn_event *tx = cmn_event_find("hnf_txdat_stall");
	char f[CMN_PATH_LEN], *s;
	int rc, i;
	bool occ = false, node = false, other = false, txd = false;

	T_ASSERT(tx, "no hnf_txdat_stall in the event table");
	stat_root();
	nfev = 0;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-e.csv", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "-x", ";", "-e",
		     "slc_miss,hnf_txdat_stall,pocq_occupancy/occupid=2/", "-e",
		     "arm_cmn_hnf_1/slc_miss,bynodeid=1,nodeid=0x28/", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	for (i = 0; i < nfev; i++) {
		uint64_t cfg = fev[i].attr.config;

		occ |= cfg == 0x20f;
		txd |= cfg == (uint64_t)tx->eventid;
		if (cfg == (0x1 | 1 << 12 | 0x28 << 16))
			node = true, other |= fev[i].attr.type != 10;
		/* no default metric was counted */
		T_ASSERT(cfg == 0x1 || cfg == 0x20f || cfg == (uint64_t)tx->eventid ||
			 cfg == (0x1 | 1 << 12 | 0x28 << 16),
			 "an event not asked for: config 0x%llx", (unsigned long long)cfg);
	}
	T_ASSERT(occ && txd, "pocq_occupancy,occupid=2 (0x20f) or hnf_txdat_stall not opened");
	T_ASSERT(node && !other, "the HN-F 0x28 event not opened on arm_cmn_hnf_1 alone");
	s = slurp(f);
	T_ASSERT(strstr(s, "time;epoch;pmu;"), "-x ';': %s", s);
	/* 250 and 750 per read; occupancy 20000; HN-F 0x28 weighs 2: 1500 */
#define T_E_M0 ";arm_cmn_hnf_0;all;;metric;slc_miss;250.000000;events;"
#define T_E_TOT ";total;all;;metric;slc_miss;1000.000000;events;"
#define T_E_OCC ";arm_cmn_hnf_1;all;;metric;pocq_occupancy/occupid=2/;20000.000000;"
#define T_E_N1 ";arm_cmn_hnf_1;all;;metric;arm_cmn_hnf_1/slc_miss,bynodeid=1,nodeid=0x28/;1500.000000;"
#define T_E_N0 ";arm_cmn_hnf_0;all;;metric;arm_cmn_hnf_1/slc_miss,bynodeid=1,nodeid=0x28/;;"
#define T_E_NT ";total;all;;metric;arm_cmn_hnf_1/slc_miss,bynodeid=1,nodeid=0x28/;1500.000000;"
	T_ASSERT(lines_with(s, T_E_M0, NULL) == 1 && lines_with(s, T_E_TOT, NULL) == 1,
		 "slc_miss: %s", s);
	T_ASSERT(lines_with(s, T_E_OCC, NULL) == 1, "occupid=2: %s", s);
	T_ASSERT(lines_with(s, T_E_N1, NULL) == 1 && lines_with(s, T_E_N0, NULL) == 1 &&
		 lines_with(s, T_E_NT, NULL) == 1, "one HN-F of mesh 1: %s", s);
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "-e", "slc_miss_rate", "--print-perf", NULL) == 2 &&
		 run_cmd(cmd_stat, f, "stat", "-e", "a/b", "--print-perf", NULL) == 2 &&
		 run_cmd(cmd_stat, f, "stat", "-e", "arm_cmn_hnf/occupid=1/", "--print-perf",
			 NULL) == 2 &&
		 run_cmd(cmd_stat, f, "stat", "--per-hnf", "-e",
			 "arm_cmn_hnf/slc_miss,bynodeid=1,nodeid=0x8/",
			 "--print-perf", NULL) == 2, "a bad -e accepted");
	T_ASSERT(run_cmd(cmd_stat, f, "stat", "-e", "no_such_event", "--print-perf", NULL) == 1,
		 "an unknown event counted");
	return true;
}

/* One alias of tools/testing/hnf-aliases.list that arm_cmn_hnf publishes */
struct t_alias {
	char name[64];
	uint64_t config;	/* eventid | occupid << 8, or type=0x3 */
	bool listed;		/* 'list' shows it */
};

/*
 * The aliases of the tests' own list (written from the TRM's encodings,
 * never from the tool's event table), pmus "hnf" or "both"; the count, or
 * -1 and why in t_why
 */
static int read_alias_list(struct t_alias *a, int max)
{
	char path[CMN_PATH_LEN], *text, *line, *save = NULL;
	char pmus[16], name[64], ev[16], occ[16], scale[16], unit[16], since[16];
	int n = 0;

	snprintf(path, sizeof(path), "%s/../../testing/hnf-aliases.list", fixtures);
	text = strdup(slurp(path));
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line += strspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		if (sscanf(line, "%15s %63s %15s %15s %15s %15s %15s", pmus, name, ev, occ,
			   scale, unit, since) != 7 || n == max) {
			snprintf(t_why, sizeof(t_why), "%s: bad line '%s'", path, line);
			n = -1;
			break;
		}
		if (strcmp(pmus, "hnf") && strcmp(pmus, "both"))
			continue;
		snprintf(a[n].name, sizeof(a[n].name), "%s", name);
		/* Documentation/ABI: type is config:32-35, occupid config:8-11 */
		if (!strcmp(ev, "cycles"))
			a[n].config = 0x3ULL << 32;
		else
			a[n].config = strtoull(ev, NULL, 16) |
				      (strcmp(occ, "-") ? strtoull(occ, NULL, 0) << 8 : 0);
		a[n++].listed = false;
	}
	free(text);
	return n;
}

/*
 * issue 20, "any event": stat -e counts every alias that list shows, each
 * with its encoding in the tests' own alias list, on a mesh whose sysfs
 * has the aliases and on one without (the tool's table then). The fake PMU
 * counts 1000 x eventid + 100 x occupid per interval for an HN-F event,
 * so the count line tells the encoding too.
 */
static bool test_stat_every_alias(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	const struct cmn_jv *ev, *e, *syn;
	struct t_alias *a = calloc(160, sizeof(*a));
	char f[CMN_PATH_LEN], why[256], want[160];
	const char *root, *nm;
	struct cmn_jv *doc;
	int n, i, j, k, rc, opened[2];
	uint64_t cfg, rate;
	bool cyc;

	T_ASSERT(a, "no memory");
	n = read_alias_list(a, 160);
	T_ASSERT(n > 0, "%s", n < 0 ? t_why : "no alias in hnf-aliases.list");
	root = fresh_root("stat-alias");
	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "1", "43402", "3 3", hnfs_3x3, false);
	fake_type1 = 10;

	/* what list shows: each event's name and its synonyms */
	snprintf(f, sizeof(f), "%s/stat-alias-list.json", tmproot);
	T_ASSERT(run_cmd(cmd_list, f, "list", "--json", NULL) == 0, "list --json failed");
	doc = cmn_jv_parse(slurp(f), why, sizeof(why));
	T_ASSERT(doc, "list --json: %s", why);
	ev = cmn_jv_get(doc, "events");
	for (e = ev ? ev->child : NULL; e; e = e->next) {
		const struct cmn_jv *s1 = cmn_jv_get(e, "name");

		syn = cmn_jv_get(e, "synonyms");
		for (k = -1; k < (syn ? syn->n : 0); k++) {
			if (k >= 0)
				s1 = k ? s1->next : syn->child;
			nm = cmn_jv_str(s1);
			for (i = 0; nm && i < n && strcmp(a[i].name, nm); i++)
				;
			if (!nm || i == n) {
				snprintf(why, sizeof(why), "list shows '%s', not in the list file",
					 nm ? nm : "(null)");
				cmn_jv_free(doc);
				free(a);
				T_ASSERT(0, "%s", why);
			}
			a[i].listed = true;
		}
	}
	cmn_jv_free(doc);
	for (i = 0; i < n; i++) {
		if (!a[i].listed) {
			snprintf(why, sizeof(why), "list does not show %s", a[i].name);
			free(a);
			T_ASSERT(0, "%s", why);
		}
	}

	snprintf(f, sizeof(f), "%s/stat-alias.csv", tmproot);
	for (i = 0; i < n; i++) {
		nfev = 0;
		cmn_perf_ops = &fake_ops;
		fake_rate_by_config = true;
		rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "-x", ";", "-e",
			     a[i].name, NULL);
		fake_rate_by_config = false;
		cmn_perf_ops = saved;
		why[0] = '\0';
		opened[0] = 0;
		opened[1] = 0;
		for (j = 0; j < nfev; j++) {
			if (!fev[j].ena)
				continue;
			cfg = fev[j].attr.config;
			/* an HN-F event may say type=0 or type=0x5 (Documentation/ABI) */
			if (cfg >> 32 == 5)
				cfg &= 0xffffffffULL;
			if (cfg != a[i].config || (fev[j].attr.type != 9 && fev[j].attr.type != 10))
				snprintf(why, sizeof(why),
					 "opened config 0x%llx on type %u, want 0x%llx",
					 (unsigned long long)fev[j].attr.config, fev[j].attr.type,
					 (unsigned long long)a[i].config);
			else
				opened[fev[j].attr.type - 9]++;
		}
		if (!why[0] && (rc || opened[0] != 1 || opened[1] != 1))
			snprintf(why, sizeof(why), "exit %d, opened %d on arm_cmn_hnf_0, %d on _1",
				 rc, opened[0], opened[1]);
		/*
		 * the count of each mesh and the total: the sum, but for the
		 * mesh clock the mean of the meshes' (cmn-hnf-tool.rst)
		 */
		cyc = a[i].config >> 32 == 3;
		rate = cyc ? 100000 : 1000 * (a[i].config & 0xff) + 100 * (a[i].config >> 8 & 0xf);
		for (k = 0; k < 3 && !why[0]; k++) {
			snprintf(want, sizeof(want), ";%s;all;;event;%s;%llu;", k == 2 ? "total" :
				 k ? "arm_cmn_hnf_1" : "arm_cmn_hnf_0", a[i].name,
				 (unsigned long long)(k == 2 && !cyc ? 2 * rate : rate));
			if (lines_with(slurp(f), want, NULL) != 1)
				snprintf(why, sizeof(why), "no count line '%s'", want);
		}
		if (why[0]) {
			snprintf(want, sizeof(want), "%s", a[i].name);
			free(a);
			T_ASSERT(0, "stat -e %s: %s: %.600s", want, why, slurp(f));
		}
	}
	free(a);
	return true;
}

/* --metric NAME=FORMULA: a formula of one's own, checked */
static bool test_stat_user_metric(void)
{
	const struct cmn_perf_ops *saved = cmn_perf_ops;
	static const char *const bad[] = {
		"x", "=a", "1x=cache_miss", "y=bogus_event", "slc_miss_rate=cache_miss",
		"z=cache_miss +", "all=cache_miss",
	};
	char f[CMN_PATH_LEN];
	size_t i;
	int rc;

	stat_root();
	nfev = 0;
	cmn_perf_ops = &fake_ops;
	snprintf(f, sizeof(f), "%s/stat-m.json", tmproot);
	rc = run_cmd(cmd_stat, f, "stat", "-I", "10", "-n", "1", "--json", "--metric",
		     "my_hits=sf_hit / slc_sf_cache_access", "-M",
		     "occ=pocq_occupancy / dtc_cycles * 2", NULL);
	cmn_perf_ops = saved;
	T_ASSERT(rc == 0, "exit status %d", rc);
	/* sf_hit 300 of 1000 accesses; occupancy 20000 / 100000 cycles x 2 */
	if (!json_check("stat", f,
			"arm_cmn_hnf_0:my_hits=0.3 total:my_hits=0.3 arm_cmn_hnf_1:occ=0.4"))
		return false;
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		T_ASSERT(run_cmd(cmd_stat, f, "stat", "--metric", bad[i], "--print-perf",
				 NULL) == 2, "--metric '%s' accepted", bad[i]);
	/* -M NAME selects a metric of the table, as perf's */
	rc = run_cmd(cmd_stat, f, "stat", "-M", "slc_miss_rate", "--print-perf", NULL);
	T_ASSERT(rc == 0 && strstr(slurp(f), "# slc_miss_rate = ") &&
		 !strstr(slurp(f), "# dram_bandwidth"), "-M slc_miss_rate: %s", slurp(f));
	return true;
}

/* perf's habits: the command without --, -a, -o, -r, --interval-count */
static bool test_stat_perf_habits(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], o[CMN_PATH_LEN];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/ph.out", tmproot);
	snprintf(err, sizeof(err), "%s/ph.err", tmproot);
	snprintf(o, sizeof(o), "%s/ph.o", tmproot);
	rc = fake_run(out, err, "stat -a slc_miss_rate sh -c 'exit 3'");
	T_ASSERT(rc == 3 && strstr(slurp(out), "slc_miss_rate"),
		 "stat -a METRIC CMD: exit %d: %s", rc, slurp(err));
	/* the command's options are its own */
	rc = fake_run(out, err, "stat --json sleep 0.1 -n 2");
	T_ASSERT(rc == 1 && !strstr(slurp(err), "-n/--count"),
		 "sleep's options parsed by stat: %d %s", rc, slurp(err));
	rc = fake_run(out, err, "stat --json slc_miss_rate true -n 0 --bogus");
	T_ASSERT(rc == 0 && json_check("stat", out, "arm_cmn_hnf_1:slc_miss_rate=75"),
		 "true -n 0 --bogus: %d %s", rc, slurp(err));
	rc = fake_run(out, err, "stat -o %s --json slc_miss_rate -- true", o);
	T_ASSERT(rc == 0 && !*slurp(out) && json_check("stat", o, "arm_cmn_hnf_0:slc_miss_rate=25"),
		 "-o: %d '%s'", rc, slurp(out));
	rc = fake_run(out, err, "stat -I 10 --interval-count 3 --json slc_miss_rate");
	T_ASSERT(rc == 0 && lines_with(slurp(out), "\"time\"", NULL) == 3,
		 "--interval-count 3: %d", rc);
	rc = fake_run(out, err, "stat -r 3 slc_miss_rate true");
	T_ASSERT(rc == 0 && strstr(slurp(out), "# 3 runs: mean") &&
		 lines_with(slurp(out), "slc_miss_rate", "25.00 +- 0.00%") == 1,
		 "-r 3: %d %s", rc, slurp(out));
	rc = fake_run(out, err, "stat -r 2 -I 10 slc_miss_rate");
	T_ASSERT(rc == 2, "-r with -I: %d", rc);
	rc = fake_run(out, err, "stat -x ab slc_miss_rate");
	T_ASSERT(rc == 2, "-x ab: %d", rc);
	rc = fake_run(out, err, "stat -o /nonexistent/x slc_miss_rate");
	T_ASSERT(rc == 1 && strstr(slurp(err), "-o /nonexistent/x"), "-o unwritable: %d", rc);
	return true;
}

/* 3: a command that exits ends the interval at once (SIGCHLD) */
static bool test_stat_sigchld(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN];
	struct cmn_jv *v;
	double t;
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/chld.out", tmproot);
	snprintf(err, sizeof(err), "%s/chld.err", tmproot);
	rc = fake_run(out, err, "stat --json -I 20000 slc_miss_rate -- sleep 0.2");
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
	v = cmn_jv_parse(slurp(out), NULL, 0);
	T_ASSERT(v, "not one JSON record: %s", slurp(out));
	t = cmn_jv_num(cmn_jv_get(v, "time"));
	cmn_jv_free(v);
	/* the interval is 20 s; the command's 0.2 s must end it */
	T_ASSERT(t > 0.1 && t < 10, "the interval lasted %g s", t);
	return true;
}

/* 4: options: order, overflow, strict numbers, conflicts */
static bool test_stat_options(void)
{
	static const char *const bad[] = {
		"-I 99999999999999999999", "-I 86400001", "-I 9", "-I 1e3",
		"-I ' 100'", "-n 0", "-I 100 -n 99999999999999", "-I 100 -n -1",
		"--per-hnf --top abc", "--per-hnf --top -1",
		"--per-hnf --top 99999999999999999999", "--json --csv",
		"-n 3", "--top 3", "--sort slc_miss_rate", "--clear",
		"-I 100 --clear --json", "--quiet", "--quiet --json --prometheus x",
		"--print-perf --prometheus x", "-- ", "--per-hnf --sort bogus",
	};
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN];
	size_t i;
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/opt.out", tmproot);
	snprintf(err, sizeof(err), "%s/opt.err", tmproot);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		rc = fake_run(out, err, "stat %s", bad[i]);
		T_ASSERT(rc == 2, "'stat %s' exits %d", bad[i], rc);
		T_ASSERT(strstr(slurp(err), "cmn-hnf stat: "), "'stat %s': %s",
			 bad[i], slurp(err));
	}
	T_ASSERT(strstr(slurp(err), "unknown metric 'bogus'"), "%s", slurp(err));
	/* options after the metric words */
	rc = fake_run(out, err, "stat slc -I 10 -n 1 --json");
	T_ASSERT(rc == 0, "'stat slc -I 10 -n 1': exit %d: %s", rc, slurp(err));
	if (!json_check("stat", out, "arm_cmn_hnf_0:sf_hit_rate=30"))
		return false;
	rc = fake_run(out, err, "stat -I 10 -n 1 --per-hnf --top 2 pocq");
	T_ASSERT(rc == 0 && strstr(slurp(out), "# top 2 HN-Fs"), "--top 2: %d", rc);
	return true;
}

/* 5: one unreadable PMU is that PMU's FAIL, not "no PMU" */
static bool test_check_broken_pmu(void)
{
	const char *root = fresh_root("check-broken");
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;
	int rc;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	fake_pmu(root, "arm_cmn_hnf_1", 10, "0", "43402", "3 3", hnfs_3x3, true);
	/* format/eventid is a directory: reading it fails (even as root) */
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_1/format/eventid",
		 root);
	unlink(p);
	mkdirs(p);
	fake_proc(root, 0, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-broken.txt", tmproot);
	rc = run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	cmn_proc_root = "/proc";
	T_ASSERT(rc == 1, "exit %d", rc);
	T_ASSERT(strstr(s, "FAIL  arm_cmn_hnf_1: cannot be read: ") &&
		 strstr(s, "arm_cmn_hnf_1/format/eventid"), "no FAIL naming the file: %s", s);
	T_ASSERT(strstr(s, "ok    arm_cmn_hnf_0: CMN-600 r1p2"), "PMU 0 hidden: %s", s);
	T_ASSERT(!strstr(s, "no arm_cmn_hnf_<n> PMU"), "reported as no PMU: %s", s);
	T_ASSERT(strstr(s, "perf_event_paranoid=0 allows"), "later checks hidden: %s", s);
	return true;
}

/* 5: an alias whose contents differ from the table is a FAIL */
static bool test_check_alias_contents(void)
{
	const char *root = fresh_root("check-alias");
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;
	int rc;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	fake_proc(root, 0, "0000000000000000");
	snprintf(f, sizeof(f), "%s/check-alias.txt", tmproot);
	rc = run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	T_ASSERT(strstr(s, "ok    arm_cmn_hnf_0: all 38 event aliases match") ||
		 strstr(s, "event aliases match the event table"), "good aliases: %s", s);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_0/events/cache_miss",
		 root);
	put(p, "eventid=0x02\n");
	snprintf(p, sizeof(p), "%s/%s/events/pocq_occupancy_read", root,
		 "bus/event_source/devices/arm_cmn_hnf_0");
	put(p, "eventid=0x0f,occupid=0x3\n");
	rc = run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	cmn_proc_root = "/proc";
	T_ASSERT(rc == 1, "exit %d", rc);
	T_ASSERT(strstr(s, "FAIL  arm_cmn_hnf_0: 2 event aliases differ from the event table") &&
		 strstr(s, "cache_miss='eventid=0x02' (table: eventid=0x01)") &&
		 strstr(s, "pocq_occupancy_read='eventid=0x0f,occupid=0x3'"),
		 "mismatch not reported: %s", s);
	return true;
}

/* 5: /proc/interrupts past 256 KiB is read whole */
static bool test_check_big_interrupts(void)
{
	const char *root = fresh_root("check-irq");
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;
	FILE *o;
	int i;

	fake_pmu(root, "arm_cmn_hnf_0", 9, "0", "43402", "3 3", hnfs_3x3, true);
	fake_proc(root, 0, "0000000000000000");
	/* 256 CPUs: ~2.8 KiB per line, the PMU's line after 400 others */
	snprintf(p, sizeof(p), "%s/proc/interrupts", root);
	o = fopen(p, "w");
	T_ASSERT(o, "cannot write %s", p);
	for (i = 0; i <= 400; i++) {
		int cpu;

		fprintf(o, "%4d:", i + 10);
		for (cpu = 0; cpu < 256; cpu++)
			fprintf(o, " %10d", i == 400 && cpu == 255 ? 5 : 0);
		fprintf(o, "  GICv3 %d Level     %s\n", 100 + i,
			i == 400 ? "arm_cmn_hnf_0" : "virtio0");
	}
	fclose(o);
	T_ASSERT(sh("test $(stat -c %%s %s) -gt 1048576", p) == 0, "file too small");
	snprintf(f, sizeof(f), "%s/check-irq.txt", tmproot);
	run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	cmn_proc_root = "/proc";
	T_ASSERT(strstr(s, "ok    arm_cmn_hnf_0: 1 overflow interrupt, raised 5 times"),
		 "interrupt not found: %s", s);
	return true;
}

/* 5: the fix when arm_cmn is built in, not a module */
static bool test_check_builtin_arm_cmn(void)
{
	const char *root = fresh_root("check-builtin");
	char f[CMN_PATH_LEN], p[CMN_PATH_LEN], *s;

	fake_device(root, "ARMHC600:00", "acpi:ARMHC600:", "arm-cmn");
	fake_proc(root, 0, "0000000000000000");
	snprintf(p, sizeof(p), "%s/module/arm_cmn/drivers", root);
	mkdirs(p);
	snprintf(f, sizeof(f), "%s/check-builtin.txt", tmproot);
	run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
#define T_BUILTIN_FIX "is bound to the upstream arm-cmn driver; fix: arm_cmn is built into this kernel"
	T_ASSERT(strstr(s, T_BUILTIN_FIX) &&
		 strstr(s, "initcall_blacklist=arm_cmn_init") && !strstr(s, "rmmod"),
		 "built-in: %s", s);
	/* a loadable module has initstate */
	snprintf(p, sizeof(p), "%s/module/arm_cmn/initstate", root);
	put(p, "live\n");
	run_cmd(cmd_check, f, "check", NULL);
	s = slurp(f);
	cmn_proc_root = "/proc";
	T_ASSERT(strstr(s, "fix: sudo cmn-hnf switch hnf --persistent") &&
		 strstr(s, "rmmod arm_cmn") && !strstr(s, "initcall_blacklist"),
		 "module: %s", s);
	return true;
}

/* 6: the JSON writer checks UTF-8 and escapes; the parser reads it back */
static bool test_json_writer(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "plain", "\"plain\"" },
		{ "q\"b\\n\n", "\"q\\\"b\\\\n\\n\"" },
		{ "\x01\x7f", "\"\\u0001\\u007f\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		{ "bad\xff", "\"bad\\ufffd\"" },
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"" },		/* overlong / */
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },	/* a surrogate */
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" },
		{ "cut\xe2\x82", "\"cut\\ufffd\\ufffd\"" },
	};
	char *buf = NULL, why[128];
	struct cmn_json j;
	struct cmn_jv *v;
	size_t len, i;
	FILE *m;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		m = open_memstream(&buf, &len);
		cmn_json_str(m, cases[i].in);
		fclose(m);
		T_ASSERT(!strcmp(buf, cases[i].out), "case %zu: %s, expected %s", i,
			 buf, cases[i].out);
		free(buf);
		buf = NULL;
	}
	m = open_memstream(&buf, &len);
	cj_init(&j, m, false);
	cj_obj(&j);
	cj_kstr(&j, "a", "x\xff");
	cj_key(&j, "b");
	cj_arr(&j);
	cj_num(&j, 1.5);
	cj_num(&j, NAN);
	cj_int(&j, -3);
	cj_arr_end(&j);
	cj_key(&j, "c");
	cj_obj(&j);
	cj_obj_end(&j);
	cj_words(&j, "d", " one  two ");
	cj_obj_end(&j);
	fclose(m);
#define T_JSON_DOC "{\"a\":\"x\\ufffd\",\"b\":[1.5,null,-3],\"c\":{},\"d\":[\"one\",\"two\"]}"
	T_ASSERT(!strcmp(buf, T_JSON_DOC),
		 "document: %s", buf);
	v = cmn_jv_parse(buf, why, sizeof(why));
	free(buf);
	T_ASSERT(v, "parse: %s", why);
	T_ASSERT(!strcmp(cmn_jv_str(cmn_jv_get(v, "a")), "x\xef\xbf\xbd") &&
		 cmn_jv_get(v, "b")->n == 3 &&
		 cmn_jv_get(v, "b")->child->num == 1.5 &&
		 cmn_jv_get(v, "b")->child->next->type == CJV_NULL &&
		 cmn_jv_get(v, "d")->n == 2, "parsed values wrong");
	cmn_jv_free(v);
	T_ASSERT(!cmn_jv_parse("{\"a\":1,}", why, sizeof(why)) && why[0],
		 "trailing comma accepted");
	T_ASSERT(!cmn_jv_parse("[1] x", why, sizeof(why)), "junk accepted");
	v = cmn_jv_parse("\"\\ud83d\\ude00\\u00e9\"", why, sizeof(why));
	T_ASSERT(v && !strcmp(v->str, "\xf0\x9f\x98\x80\xc3\xa9"), "surrogate pair");
	cmn_jv_free(v);
	return true;
}

/* 6: errors name the PMU and the file */
static bool test_error_context(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], p[CMN_PATH_LEN];
	const char *root = stat_root();
	int rc;

	snprintf(out, sizeof(out), "%s/ctx.out", tmproot);
	snprintf(err, sizeof(err), "%s/ctx.err", tmproot);
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_1/format/eventid",
		 root);
	put(p, "config:zz\n");
	rc = fake_run(out, err, "stat --print-perf");
	T_ASSERT(rc == 1, "exit %d", rc);
	T_ASSERT(strstr(slurp(err), "arm_cmn_hnf_1: ") &&
		 strstr(slurp(err), "arm_cmn_hnf_1/format/eventid: format 'eventid': cannot parse"),
		 "no context: %s", slurp(err));
	/* an alias that the formats cannot encode names the PMU and event */
	stat_root();
	snprintf(p, sizeof(p), "%s/bus/event_source/devices/arm_cmn_hnf_0/events/cache_miss",
		 root);
	put(p, "eventid=0x1ff\n");
	rc = fake_run(out, err, "stat --print-perf slc_miss_rate");
#define T_ALIAS_ERR "arm_cmn_hnf_0/cache_miss/ (eventid=0x1ff): term 'eventid'"
	T_ASSERT(rc == 1 && strstr(slurp(err), T_ALIAS_ERR),
		 "alias error: %d %s", rc, slurp(err));
	stat_root();
	return true;
}

/* 6: list suggests the spelling that counts every mesh */
static bool test_list_perf_spelling(void)
{
	char f[CMN_PATH_LEN], *s;

	snprintf(f, sizeof(f), "%s/list-spell.txt", tmproot);
	T_ASSERT(run_cmd(cmd_list, f, "list", NULL) == 0, "exit status");
	s = slurp(f);
	T_ASSERT(strstr(s, "perf: arm_cmn_hnf/<name>/ counts every mesh"), "%.200s", s);
	T_ASSERT(!strstr(s, "perf: arm_cmn_hnf_0/<name>/"), "suggests mesh 0: %.200s", s);
	T_ASSERT(run_cmd(cmd_list, f, "list", "--names", NULL) == 0 &&
		 strstr(slurp(f), "\nslc_miss_rate\n") && strstr(slurp(f), "\nHNF_POCQ\n") &&
		 strstr(slurp(f), "\npocq\n") && !strstr(slurp(f), "cache_miss"),
		 "--names: %s", slurp(f));
	return true;
}

/* 6: per-HN-F figures from different time slices are flagged */
static bool test_stat_mixed_slices(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/mix.out", tmproot);
	snprintf(err, sizeof(err), "%s/mix.err", tmproot);
	rc = fake_run(out, err, "stat -I 10 -n 1 --per-hnf pocq");
	T_ASSERT(rc == 0, "exit %d", rc);
#define T_MIXED "# ! mixed time slices: the HN-Fs were counted 50.0-50.0% of the time"
	T_ASSERT(strstr(slurp(out), T_MIXED),
		 "not flagged: %s", slurp(out));
	rc = fake_run(out, err, "stat -I 10 -n 1 --per-hnf --json pocq");
	if (rc || !json_check("stat", out, "mixed=true epoch"))
		return false;
	/* all the time: nothing to flag */
	rc = sh("CMN_HNF_FAKE_RUN_PERMILLE=1000 %s --sysfs-root %s/stat %s > %s",
		fake_path, tmproot, "stat -I 10 -n 1 --per-hnf pocq", out);
	T_ASSERT(rc == 0 && strstr(slurp(out), "# imbalance:") &&
		 !strstr(slurp(out), "mixed time slices"), "flagged at 100%%: %s", slurp(out));
	return true;
}

/*
 * The samples of family @name in the Prometheus text @s: how many, their
 * sum, and whether one has a label value "all" (a total in the family)
 */
static int prom_family(const char *s, const char *name, double *sum, bool *all)
{
	size_t len = strlen(name);
	const char *l;
	int n = 0;

	*sum = 0;
	*all = false;
	for (l = s; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		const char *e = l + len, *nl = strchr(l, '\n');

		if (strncmp(l, name, len) || (*e != '{' && *e != ' '))
			continue;
		if (*e == '{') {
			const char *close = strchr(e, '}');

			if (!close)
				continue;
			if (memmem(e, close - e, "=\"all\"", 6))
				*all = true;
			e = close + 1;
		}
		*sum += strtod(e, NULL);
		n++;
		if (!nl)
			break;
	}
	return n;
}

/* Prometheus text for node_exporter's textfile collector, checked by promtool */
static bool test_stat_prometheus(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], prom[CMN_PATH_LEN], *s;
	double sum, secs;
	bool all;
	int rc, n;

	T_ASSERT(strcmp(promtool, "missing") && !access(promtool, X_OK),
		 "no promtool (tests/deps.sh promtool failed)");
	stat_root();
	snprintf(out, sizeof(out), "%s/prom.out", tmproot);
	snprintf(err, sizeof(err), "%s/prom.err", tmproot);
	snprintf(prom, sizeof(prom), "%s/textfile/cmn_hnf.prom", tmproot);
	snprintf(out, sizeof(out), "%s/textfile", tmproot);
	mkdirs(out);
	snprintf(out, sizeof(out), "%s/prom.out", tmproot);
	rc = fake_run(out, err, "stat -I 10 -n 3 --quiet --per-hnf --prometheus %s slc pocq memory",
		      prom);
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
	T_ASSERT(!*slurp(out), "--quiet printed: %s", slurp(out));
	T_ASSERT(sh("ls %s/textfile | grep -qv '^cmn_hnf.prom$'", tmproot),
		 "a temporary file was left: %s", prom);
	rc = sh("%s check metrics < %s > %s 2>&1", promtool, prom, out);
	T_ASSERT(rc == 0, "promtool check metrics: %s", slurp(out));
	T_ASSERT(!*slurp(out), "promtool complains: %s", slurp(out));
	s = slurp(prom);
	T_ASSERT(strstr(s, "# HELP cmn_hnf_hnf_slc_miss_ratio Fraction of ") &&
		 strstr(s, "# TYPE cmn_hnf_hnf_slc_miss_ratio gauge\n"), "HELP/TYPE: %.300s", s);
	/* per HN-F labels from the topology; 25 % is 0.25 (hand arithmetic) */
#define T_H3_LABELS "{pmu=\"arm_cmn_hnf_0\",mesh=\"0\",hnf=\"3\",nodeid=\"0x4d\",x=\"2\",y=\"1\"}"
	T_ASSERT(strstr(s, "\ncmn_hnf_hnf_slc_miss_ratio" T_H3_LABELS " 0.25\n"),
		 "per-HN-F sample: %.600s", s);
#define T_MESH1_LABELS "{pmu=\"arm_cmn_hnf_1\",mesh=\"1\"}"
	T_ASSERT(strstr(s, "\ncmn_hnf_mesh_slc_miss_ratio" T_MESH1_LABELS " 0.75\n"),
		 "mesh sample");
	T_ASSERT(strstr(s, "\ncmn_hnf_slc_miss_ratio 0.5\n"), "system sample");
	/* counters since the start: 3 reads x 500 x 2 (scaled), weight 4 */
	T_ASSERT(strstr(s, "# TYPE cmn_hnf_cache_miss_total counter\n") &&
		 strstr(s, "\ncmn_hnf_cache_miss_total" T_H3_LABELS " 3000\n"),
		 "counter: %s", strstr(s, "cmn_hnf_cache_miss_total") ?
		 strstr(s, "cmn_hnf_cache_miss_total") : s);
	T_ASSERT(!strstr(s, "=\"all\""), "a total sample (label \"all\") in the file");
	/*
	 * Summing a family gives the true total: fake_rate() counts 250
	 * cache_miss per read on mesh 0 and 750 on mesh 1, weighted 1 to 4
	 * by HN-F: (250 + 750) x (1 + 2 + 3 + 4) x 3 reads.
	 */
	n = prom_family(s, "cmn_hnf_cache_miss_total", &sum, &all);
	T_ASSERT(n == 8 && !all && sum == 30000, "sum(cmn_hnf_cache_miss_total): %d samples, %g",
		 n, sum);
	/* 400 mc_reqs per read and HN-F weight, 64 bytes, per second */
	n = prom_family(s, "cmn_hnf_interval_seconds", &secs, &all);
	T_ASSERT(n == 1 && secs > 0, "interval_seconds");
	n = prom_family(s, "cmn_hnf_mesh_dram_bandwidth_bytes_per_second", &sum, &all);
	T_ASSERT(n == 2 && fabs(sum - 2 * 64 * 400 * 10 / secs) <= sum / 10000,
		 "dram bytes/s: %d samples, sum %g, expected %g", n, sum,
		 2 * 64 * 400 * 10 / secs);
	/* the running ratio is per HN-F: no total of it either */
	n = prom_family(s, "cmn_hnf_running_ratio", &sum, &all);
	T_ASSERT(n == 8 && !all && T_FEQ(sum, 8 * 0.5), "running ratio: %d, %g", n, sum);
	/* without --per-hnf the meshes are the finest level */
	rc = fake_run(out, err, "stat -I 10 -n 3 --quiet --prometheus %s slc", prom);
	s = slurp(prom);
	n = prom_family(s, "cmn_hnf_cache_miss_total", &sum, &all);
	T_ASSERT(rc == 0 && n == 2 && !all && sum == (250 + 750) * 3,
		 "sum(cmn_hnf_cache_miss_total) per mesh: %d samples, %g", n, sum);
	T_ASSERT(!strstr(s, "cmn_hnf_hnf_"), "per-HN-F families without --per-hnf");
	/* a file that cannot be written is an error, not silence */
	rc = fake_run(out, err, "stat -I 10 -n 1 --quiet --prometheus /nonexistent/dir/x.prom");
	T_ASSERT(rc == 1 &&
		 strstr(slurp(err), "--prometheus /nonexistent/dir/x.prom: No such file"),
		 "unwritable: %d %s", rc, slurp(err));
	return true;
}

/* Every metric has a Prometheus name in base units that promtool accepts */
static bool test_prometheus_names(void)
{
	char name[128], f[CMN_PATH_LEN], out[CMN_PATH_LEN];
	double scale;
	size_t m;
	FILE *o;

	T_ASSERT(strcmp(promtool, "missing"), "no promtool");
	snprintf(f, sizeof(f), "%s/names.prom", tmproot);
	snprintf(out, sizeof(out), "%s/names.out", tmproot);
	o = fopen(f, "w");
	T_ASSERT(o, "cannot write %s", f);
	for (m = 0; m < cmn_num_metrics; m++) {
		if (st_prom_name((int)m, name, sizeof(name), &scale)) {
			fclose(o);
			T_ASSERT(0, "%s: unit '%s' has no Prometheus rule", cmn_metrics[m].name,
				 cmn_metrics[m].unit);
		}
		T_ASSERT(!strstr(name, "percent") && !strstr(name, "_rate") &&
			 !strstr(name, "mega") && !strstr(name, "1k"),
			 "%s: not a base unit: %s", cmn_metrics[m].name, name);
		fprintf(o, "# HELP cmn_hnf_%s x\n# TYPE cmn_hnf_%s gauge\ncmn_hnf_%s 1\n",
			name, name, name);
	}
	fclose(o);
	T_ASSERT(sh("%s check metrics < %s > %s 2>&1", promtool, f, out) == 0 && !*slurp(out),
		 "promtool: %s", slurp(out));
	return true;
}

/* top: the full screen under tmux, against a golden file */
static bool test_top_tmux(void)
{
	char out[CMN_PATH_LEN];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/top-tmux.txt", tmproot);
	rc = sh("%s/top-tmux.sh %s %s/stat %s/golden %s/tmux %s/%s > %s 2>&1",
		fixtures, fake_path, tmproot, fixtures, tmproot, fixtures,
		"../../testing/cmn600-model/meshes", out);
	T_ASSERT(rc == 0, "%s", slurp(out));
	return true;
}

/*
 * issue 20, 2: top --batch on every shipped mesh at 80, 120 and 200
 * columns against golden frames, and with every HN-F id on its map that
 * the screen of the same width has (tests/top-batch.sh)
 */
static bool test_top_batch_golden(void)
{
	char out[CMN_PATH_LEN];
	int rc;

	snprintf(out, sizeof(out), "%s/top-batch-golden.txt", tmproot);
	rc = sh("%s/top-batch.sh %s %s/golden %s/top-batch %s/%s > %s 2>&1",
		fixtures, fake_path, fixtures, tmproot, fixtures,
		"../../testing/cmn600-model/meshes", out);
	T_ASSERT(rc == 0, "%s", slurp(out));
	return true;
}

/*
 * top --batch: plain frames with every mesh's map, the heat in the first
 * character of a cell on the absolute scale
 */
static bool test_top_batch(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], *s, *m1;
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/top-batch.txt", tmproot);
	snprintf(err, sizeof(err), "%s/top-batch.err", tmproot);
	rc = fake_run(out, err, "top -b -n 2 -I 100 -m pocq_avg_occupancy pocq");
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
	s = slurp(out);
	/*
	 * weights 1..4 of the HN-Fs: 0.2 .. 0.8 entries; the scale is 0 to
	 * 1 (0.8 rounded up), steps of 0.2: H0 in the second step
	 */
	T_ASSERT(strstr(s, "|.H0 0.20 ") && strstr(s, "|:H1 0.40 ") &&
		 strstr(s, "|*H2 0.60 ") && strstr(s, "|#H3 0.80 "), "map: %s", s);
	T_ASSERT(strstr(s, "0.00 [ ] 0.20 [.] 0.40 [:] 0.60 [*] 0.80 [#] 1.00"),
		 "scale: %s", s);
	/* both meshes' maps in each frame */
	m1 = strstr(s, "\narm_cmn_hnf_1 (3x3)\n");
	T_ASSERT(strstr(s, "\narm_cmn_hnf_0 (3x3)\n") && m1 && strstr(m1, "|#H3 0.80 "),
		 "not every mesh's map: %s", s);
	T_ASSERT(strstr(s, " 1 m0  H3     0x4d (2,1)      0.80"), "top list: %s", s);
	T_ASSERT(!strchr(s, '\033'), "escape codes in --batch output");
	T_ASSERT(strstr(strstr(s, "cmn-hnf top") + 1, "cmn-hnf top"), "not two frames");
	/* relative: each mesh's min to max, 0.2 to 0.8 */
	rc = fake_run(out, err, "top -b -n 1 -I 100 --scale relative -m pocq_avg_occupancy pocq");
	s = slurp(out);
	T_ASSERT(rc == 0 && strstr(s, "|#H3 0.80 ") && strstr(s, "| H0 0.20 ") &&
		 strstr(s, "relative scale"), "relative: %s", s);
	/* no terminal, no --batch: a usage error, not a garbled screen */
	rc = fake_run(out, err, "top < /dev/null");
	T_ASSERT(rc == 2 && strstr(slurp(err), "needs a terminal"), "no tty: %d", rc);
	rc = fake_run(out, err, "top -b --mesh 5");
	T_ASSERT(rc == 2, "--mesh 5 of 2 meshes: %d", rc);
	/* -p is perf's process id: not an option of top */
	rc = fake_run(out, err, "top -b -n 1 -p 1");
	T_ASSERT(rc == 2, "-p accepted: %d", rc);
	rc = fake_run(out, err, "top -b -m bogus");
	T_ASSERT(rc == 2, "--metric bogus: %d", rc);
	return true;
}

/*
 * issue 20, 3: top --batch --scale relative colours each mesh on its own
 * scale, so each mesh's map has its scale line. The shipped two-mesh
 * tree: pocq_avg_occupancy H2 0.40, H1 0.60, H0 0.80 on mesh 0 and H0
 * 0.80, H1 1.80 on mesh 1 (tests/golden/top/two-mesh-*.txt), five steps
 * of 0.08 and of 0.2
 */
static bool test_top_batch_relative(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], tree[CMN_PATH_LEN], l2[256], *s, *m1;
	const char *top = "top -b -n 1 -I 100 --scale relative -m pocq_avg_occupancy pocq";
	int rc;

	snprintf(out, sizeof(out), "%s/top-rel.txt", tmproot);
	snprintf(err, sizeof(err), "%s/top-rel.err", tmproot);
	snprintf(tree, sizeof(tree), "%s/two-mesh", tmproot);
	rc = sh("%s/mesh-sysfs.sh %s/%s %s > /dev/null", fixtures, fixtures,
		"../../testing/cmn600-model/meshes/two-mesh.mesh", tree);
	T_ASSERT(rc == 0, "mesh-sysfs.sh two-mesh.mesh: %d", rc);
	rc = sh("COLUMNS=80 %s --sysfs-root %s %s > %s 2> %s", fake_path, tree, top,
		out, err);
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
	s = slurp(out);
#define T_SC "pocq_avg_occupancy [entries]  "
#define T_SC0 "\narm_cmn_hnf_0 (3x2)\n" T_SC "0.40 [ ] 0.48 [.] 0.56 [:] 0.64 [*] 0.72 [#] 0.80\n"
#define T_SC1 "\narm_cmn_hnf_1 (2x2)\n" T_SC "0.80 [ ] 1.00 [.] 1.20 [:] 1.40 [*] 1.60 [#] 1.80\n"
	T_ASSERT(strstr(s, T_SC1), "no scale 0.80 to 1.80 over mesh 1's map: %s", s);
	T_ASSERT(strstr(s, T_SC0), "no scale 0.40 to 0.80 over mesh 0's map: %s", s);
	/* the second line shows no one mesh's scale as if it were all's */
	snprintf(l2, sizeof(l2), "%.*s", (int)strcspn(strchr(s, '\n') + 1, "\n"),
		 strchr(s, '\n') + 1);
	T_ASSERT(!strncmp(l2, T_SC, strlen(T_SC)) && !strstr(l2, "[ ]") &&
		 strstr(l2, "each mesh"), "line 2: %s", l2);
	/* the cells on their own mesh's scale: 0.80 the top of one, the bottom of the other */
	m1 = strstr(s, "\narm_cmn_hnf_1 (");
	T_ASSERT(m1 && strstr(s, "|#H0 0.80 ") < m1 && strstr(s, "| H2 0.40 ") < m1 &&
		 strstr(m1, "|#H1 1.80 ") && strstr(m1, "| H0 0.80 "), "cells: %s", s);
	/* too narrow for the steps: each mesh's ends */
	rc = sh("COLUMNS=60 %s --sysfs-root %s %s > %s 2> %s", fake_path, tree, top,
		out, err);
	s = slurp(out);
	T_ASSERT(rc == 0 &&
		 strstr(s, "\narm_cmn_hnf_0 (3x2)\n" T_SC "heat 0.40 to 0.80, 5 steps\n") &&
		 strstr(s, "\narm_cmn_hnf_1 (2x2)\n" T_SC "heat 0.80 to 1.80, 5 steps\n"),
		 "at 60 columns: %s", s);
	return true;
}

/* report: a recorded run summarised; values from hand arithmetic */
static bool test_report_summary(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], run[CMN_PATH_LEN], *s;
	struct cmn_jv *v;
	const struct cmn_jv *u;
	int rc, n = 0;

	stat_root();
	snprintf(out, sizeof(out), "%s/report.out", tmproot);
	snprintf(err, sizeof(err), "%s/report.err", tmproot);
	snprintf(run, sizeof(run), "%s/run.jsonl", tmproot);
	rc = fake_run(run, err, "stat -I 10 -n 5 --per-hnf --json slc pocq");
	T_ASSERT(rc == 0, "recording: exit %d", rc);
	rc = fake_run(out, err, "report %s --rank pocq_avg_occupancy --top 2", run);
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
	s = slurp(out);
	T_ASSERT(strstr(s, ": 5 intervals, "), "header: %.200s", s);
	/* every interval 75 % on mesh 1, 50 % in total, 25 % on mesh 0 */
#define T_RP_M1 "arm_cmn_hnf_1    slc_miss_rate                         75.00      75.00      75.00      75.00  %        > 50: 5 of 5"
#define T_RP_TOT "total            slc_miss_rate                         50.00      50.00      50.00      50.00  %        > 50: 0 of 5"
	T_ASSERT(strstr(s, T_RP_M1) && strstr(s, T_RP_TOT), "metric rows: %s", s);
	T_ASSERT(strstr(s, "  arm_cmn_hnf_1    slc_miss_rate > 50: 0.000-"),
		 "past threshold: %s", s);
	T_ASSERT(!strstr(s, "  total            slc_miss_rate > 50:"), "total flagged");
	/* occupancy weights 1..4: H3 0.8 of a mean of 0.5 */
#define T_RP_FIRST "    1  arm_cmn_hnf_0    hnf   3 nodeid   0x4d xp (2,1)         0.80  x1.60 of mean"
	T_ASSERT(strstr(s, "HN-Fs by pocq_avg_occupancy over the run (entries):") &&
		 strstr(s, T_RP_FIRST) && !strstr(s, "    3  "), "ranking: %s", s);
	rc = fake_run(out, err, "report --json %s slc_miss_rate", run);
	T_ASSERT(rc == 0, "--json: exit %d", rc);
	v = cmn_jv_parse(slurp(out), NULL, 0);
	T_ASSERT(v, "--json: not JSON: %s", slurp(out));
	for (u = cmn_jv_get(v, "units")->child; u; u = u->next) {
		const struct cmn_jv *ms = cmn_jv_get(cmn_jv_get(u, "metrics"),
						     "slc_miss_rate");

		n++;
		if (strcmp(cmn_jv_str(cmn_jv_get(u, "pmu")), "arm_cmn_hnf_1") ||
		    cmn_jv_get(u, "hnf")->type != CJV_NULL)
			continue;
		T_ASSERT(cmn_jv_num(cmn_jv_get(ms, "run")) == 75 &&
			 cmn_jv_num(cmn_jv_get(ms, "past_threshold")) == 5 &&
			 cmn_jv_get(ms, "past_ranges")->n == 1 &&
			 !cmn_jv_get(cmn_jv_get(u, "metrics"), "sf_hit_rate"),
			 "mesh 1 in --json");
	}
	cmn_jv_free(v);
	T_ASSERT(n == 8 + 2 + 1, "%d units in --json", n);
	/* errors name the file (and the line) */
	rc = fake_run(out, err, "report %s/none.jsonl", tmproot);
	T_ASSERT(rc == 1 && strstr(slurp(err), "none.jsonl: No such file"), "missing file");
	snprintf(out, sizeof(out), "%s/bad.jsonl", tmproot);
	put(out, "%s{\"time\": 1,\n", slurp(run));
	snprintf(out, sizeof(out), "%s/report.out", tmproot);
	rc = fake_run(out, err, "report %s/bad.jsonl", tmproot);
	T_ASSERT(rc == 1 && strstr(slurp(err), "bad.jsonl: line 6: not JSON"),
		 "bad line: %d %s", rc, slurp(err));
	snprintf(out, sizeof(out), "%s/empty.jsonl", tmproot);
	put(out, "\n");
	snprintf(out, sizeof(out), "%s/report.out", tmproot);
	rc = fake_run(out, err, "report %s/empty.jsonl", tmproot);
	T_ASSERT(rc == 1 && strstr(slurp(err), "no intervals"), "empty: %s", slurp(err));
	T_ASSERT(fake_run(out, err, "report") == 2, "no file");
	return true;
}

/* report --svg: the drawing against the data it was drawn from */
static bool test_report_svg(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], run[CMN_PATH_LEN], args[1024];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/report-svg.out", tmproot);
	snprintf(err, sizeof(err), "%s/report-svg.err", tmproot);
	snprintf(run, sizeof(run), "%s/wave.jsonl", tmproot);
	rc = sh("CMN_HNF_FAKE_WAVE=1 %s --sysfs-root %s/stat %s > %s", fake_path,
		tmproot, "stat -I 10 -n 30 --per-hnf --json slc pocq", run);
	T_ASSERT(rc == 0, "recording: exit %d", rc);
	rc = fake_run(out, err, "report %s --svg %s/wave.svg --rank pocq_avg_occupancy",
		      run, tmproot);
	T_ASSERT(rc == 0, "exit %d: %s", rc, slurp(err));
	snprintf(args, sizeof(args), "%s pocq_avg_occupancy 'pocq_occupancy / dtc_cycles'",
		 run);
	snprintf(out, sizeof(out), "%s/wave.svg", tmproot);
	if (!json_check("svg", out, args))
		return false;
	snprintf(out, sizeof(out), "%s/report-svg.out", tmproot);
	rc = fake_run(out, err, "report %s --svg /nonexistent/x.svg", run);
	T_ASSERT(rc == 1 && strstr(slurp(err), "--svg /nonexistent/x.svg: No such file"),
		 "unwritable: %d %s", rc, slurp(err));
	return true;
}

/* The fill of every HN-F cell of the SVG @svg, "pmu:hnf=fill" per line, in @out */
static int svg_fills(const char *svg, const char *out)
{
#define T_FILLS_SED "sed -n 's/.*<rect class=\"hnf\".* fill=\"\\([^\"]*\\)\"[^>]*><title>\\([^ ]*\\) HN-F \\([0-9]*\\) .*/\\2:\\3=\\1/p' %s > %s"
	return sh(T_FILLS_SED, svg, out);
}

/*
 * issue 20, 3: the heat map's colours are on one absolute scale for every
 * mesh: slc_miss_rate is 25 % on every HN-F of mesh 0 and 75 % on mesh 1
 * (fake_rate()), so the meshes must differ, and the scale is 0 to 100 %;
 * --scale relative gives each mesh its own min to max.
 */
static bool test_report_svg_scale(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], run[CMN_PATH_LEN], svg[CMN_PATH_LEN];
	char f0[64] = "", f1[64] = "", *s, *l;
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/svgs.out", tmproot);
	snprintf(err, sizeof(err), "%s/svgs.err", tmproot);
	snprintf(run, sizeof(run), "%s/svgs.jsonl", tmproot);
	snprintf(svg, sizeof(svg), "%s/svgs.svg", tmproot);
	rc = fake_run(run, err, "stat -I 10 -n 3 --per-hnf --json slc");
	T_ASSERT(rc == 0, "recording: exit %d", rc);
	rc = fake_run(out, err, "report %s --svg %s --rank slc_miss_rate", run, svg);
	T_ASSERT(rc == 0, "report: exit %d: %s", rc, slurp(err));
	s = slurp(svg);
#define T_ABS0 "id=\"heatmap-arm_cmn_hnf_0\" data-scale=\"absolute\" data-lo=\"0\" data-hi=\"100\""
#define T_ABS1 "id=\"heatmap-arm_cmn_hnf_1\" data-scale=\"absolute\" data-lo=\"0\" data-hi=\"100\""
	T_ASSERT(strstr(s, T_ABS0) && strstr(s, T_ABS1),
		 "not one 0-100 %% scale: %.400s", strstr(s, "class=\"heatmap\"") ?
		 strstr(s, "class=\"heatmap\"") : s);
	T_ASSERT(strstr(s, ">100.00 %</text>") && strstr(s, "absolute: the same scale"),
		 "the scale's bounds are not drawn");
	T_ASSERT(svg_fills(svg, out) == 0, "sed");
	for (l = strtok(slurp(out), "\n"); l; l = strtok(NULL, "\n")) {
		char *fill = strchr(l, '=') + 1, *dst = !strncmp(l, "arm_cmn_hnf_0:", 14) ? f0 : f1;

		if (!*dst)
			snprintf(dst, 64, "%s", fill);
		T_ASSERT(!strcmp(dst, fill), "one mesh, one value, two colours: %s", l);
	}
	T_ASSERT(*f0 && *f1 && strcmp(f0, f1), "25 %% and 75 %% in the same colour %s", f0);
	rc = fake_run(out, err, "report %s --svg %s --rank slc_miss_rate --scale relative",
		      run, svg);
#define T_REL "data-scale=\"relative\" data-lo=\"75\" data-hi=\"75\""
	T_ASSERT(rc == 0 && strstr(slurp(svg), T_REL),
		 "relative: %d", rc);
	/* each mesh's legend with its own bounds, in its own heat map */
	s = slurp(svg);
#define T_REL0 "id=\"heatmap-arm_cmn_hnf_0\" data-scale=\"relative\" data-lo=\"25\" data-hi=\"25\""
#define T_REL1 "id=\"heatmap-arm_cmn_hnf_1\" data-scale=\"relative\" data-lo=\"75\" data-hi=\"75\""
	l = strstr(s, T_REL1);
	T_ASSERT(strstr(s, T_REL0) && l && strstr(s, T_REL0) < l, "relative bounds per mesh");
	T_ASSERT(strstr(s, ">25.00 %</text>") && strstr(s, ">25.00 %</text>") < l &&
		 strstr(l, ">75.00 %</text>") && !strstr(l, ">25.00 %</text>") &&
		 strstr(s, "relative: this mesh's min to max") < l &&
		 strstr(l, "relative: this mesh's min to max"),
		 "not a legend of its own bounds beside each mesh's heat map");
	return true;
}

/* report: the time series of every HN-F of a --per-hnf recording */
static bool test_report_hnf_series(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], run[CMN_PATH_LEN], svg[CMN_PATH_LEN];
	char args[CMN_PATH_LEN * 3];
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/hs.json", tmproot);
	snprintf(err, sizeof(err), "%s/hs.err", tmproot);
	snprintf(run, sizeof(run), "%s/hs.jsonl", tmproot);
	snprintf(svg, sizeof(svg), "%s/hs.svg", tmproot);
	rc = sh("CMN_HNF_FAKE_WAVE=1 %s --sysfs-root %s/stat %s > %s", fake_path,
		tmproot, "stat -I 10 -n 12 --per-hnf --json pocq", run);
	T_ASSERT(rc == 0, "recording: exit %d", rc);
	rc = fake_run(err, err, "report %s --svg %s --rank pocq_avg_occupancy", run, svg);
	T_ASSERT(rc == 0, "report --svg: exit %d", rc);
	rc = fake_run(out, err, "report --json %s --rank pocq_avg_occupancy", run);
	T_ASSERT(rc == 0, "report --json: exit %d: %s", rc, slurp(err));
	snprintf(args, sizeof(args), "%s %s pocq_avg_occupancy", out, run);
	return json_check("hnf-series", svg, args);
}

/*
 * report --svg in a real browser: headless Chromium renders the SVG to a
 * PNG of the SVG's size, which must show the threshold bands and both
 * ends of the heat scale. Only in "make test-browser" (see the Makefile).
 */
static bool test_report_browser(void)
{
	char out[CMN_PATH_LEN], err[CMN_PATH_LEN], run[CMN_PATH_LEN];
	char svg[CMN_PATH_LEN], png[CMN_PATH_LEN], *s;
	long h = 0;
	int rc;

	stat_root();
	snprintf(out, sizeof(out), "%s/browser.out", tmproot);
	snprintf(err, sizeof(err), "%s/browser.err", tmproot);
	snprintf(run, sizeof(run), "%s/browser.jsonl", tmproot);
	snprintf(svg, sizeof(svg), "%s/browser.svg", tmproot);
	snprintf(png, sizeof(png), "%s/browser.png", tmproot);
	rc = sh("CMN_HNF_FAKE_WAVE=1 %s --sysfs-root %s/stat %s > %s", fake_path,
		tmproot, "stat -I 10 -n 60 --per-hnf --json slc pocq", run);
	T_ASSERT(rc == 0, "recording: exit %d", rc);
	rc = fake_run(out, err, "report %s --svg %s --rank pocq_avg_occupancy", run, svg);
	T_ASSERT(rc == 0, "report: exit %d", rc);
	rc = sh("sed -n 's/.* height=\"\\([0-9]*\\)\" viewBox.*/\\1/p' %s > %s", svg, out);
	s = slurp(out);
	s[strcspn(s, "\n")] = '\0';
	T_ASSERT(rc == 0 && !cmn_parse_long(s, 100, 20000, &h), "SVG height '%s'", s);
#define T_CHROMIUM "timeout 180 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars"
	rc = sh("%s --window-size=960,%ld --screenshot=%s file://%s > %s 2>&1",
		T_CHROMIUM, h, png, svg, err);
	T_ASSERT(rc == 0 && !access(png, R_OK), "chromium: exit %d: %s", rc, slurp(err));
	rc = sh("python3 %s/png_check.py %s 960 %ld f4c7c3 2c7bb6 d7191c > %s 2>&1",
		fixtures, png, h, out);
	T_ASSERT(rc == 0, "%s", slurp(out));
	return true;
}

/* The commands "cmn-hnf --help" lists, blank separated, and "" for main */
static int tool_commands(char cmds[][16], int max)
{
	char out[CMN_PATH_LEN], *p, *s;
	int n = 0;

	snprintf(out, sizeof(out), "%s/commands.txt", tmproot);
	if (sh("%s --help | sed -n 's/^  \\([a-z]\\{2,\\}\\)  .*/\\1/p' > %s",
	       tool_path, out))
		return -1;
	cmds[n++][0] = '\0';
	s = slurp(out);
	for (p = strtok(s, "\n"); p && n < max; p = strtok(NULL, "\n"))
		snprintf(cmds[n++], sizeof(cmds[0]), "%s", p);
	return n;
}

/* issue 11: every command has a man page whose options match its --help */
static bool test_man_pages(void)
{
	char cmds[32][16], page[CMN_PATH_LEN], help[CMN_PATH_LEN], out[CMN_PATH_LEN];
	int n, i, rc;

	T_ASSERT(man_dir, "no --man directory");
	n = tool_commands(cmds, 32);
	T_ASSERT(n >= 8, "%d commands in cmn-hnf --help", n);
	snprintf(help, sizeof(help), "%s/help.txt", tmproot);
	snprintf(out, sizeof(out), "%s/man-check.txt", tmproot);
	for (i = 0; i < n; i++) {
		snprintf(page, sizeof(page), "%s/cmn-hnf%s%s.1", man_dir,
			 cmds[i][0] ? "-" : "", cmds[i]);
		T_ASSERT(!access(page, R_OK), "no man page %s for '%s'", page, cmds[i]);
		rc = sh("%s %s --help > %s", tool_path, cmds[i], help);
		T_ASSERT(rc == 0, "%s --help: %d", cmds[i], rc);
		rc = sh("python3 %s/man_check.py %s %s > %s 2>&1", fixtures, page,
			help, out);
		T_ASSERT(rc == 0, "%s", slurp(out));
		/* no inline markup left unrendered ("128+*n*": reST needs a blank) */
		rc = sh("grep -v '^\\.\\\\\"' %s | grep -nE '\\*[A-Za-z][A-Za-z_]*\\*' > %s",
			page, out);
		T_ASSERT(rc == 1, "%s: literal emphasis: %s", page, slurp(out));
		/* the page names its command */
		rc = sh("grep -qi '^\\.TH \"cmn-hnf%s%s\" 1 ' %s", cmds[i][0] ? "-" : "",
			cmds[i], page);
		T_ASSERT(rc == 0, "%s: no .TH line for '%s'", page, cmds[i]);
	}
	return true;
}

/* issue 11: the bash completion, driven as bash drives it */
static bool test_bash_completion(void)
{
	char out[CMN_PATH_LEN];
	int rc;

	snprintf(out, sizeof(out), "%s/completion.txt", tmproot);
	rc = sh("bash %s/completion_check.sh %s/cmn-hnf.bash-completion %s > %s 2>&1",
		fixtures, src_dir, tool_path, out);
	T_ASSERT(rc == 0, "%s", slurp(out));
	return true;
}

/*
 * issue 11: make install puts everything where Debian looks for it; the
 * top-level make install-tools too (the Grafana dashboard as well), and
 * make uninstall-tools takes it all away
 */
static bool test_install(void)
{
	static const char *const files[] = {
		"usr/bin/cmn-hnf",
		"usr/share/bash-completion/completions/cmn-hnf",
		"usr/lib/systemd/system/cmn-hnf-prometheus.service",
		"usr/share/man/man1/cmn-hnf.1",
		"usr/share/man/man1/cmn-hnf-stat.1",
		"usr/share/man/man1/cmn-hnf-top.1",
		"usr/share/man/man1/cmn-hnf-report.1",
		"usr/share/cmn-hnf/grafana/cmn-hnf.json",
		"usr/share/cmn-hnf/grafana/cmn-hnf-dashboards.yaml",
	};
	char out[CMN_PATH_LEN], dest[CMN_PATH_LEN], f[CMN_PATH_LEN];
	char cmds[32][16];
	int rc, i, n;

	T_ASSERT(src_dir && out_dir, "no --src or --out");
	snprintf(dest, sizeof(dest), "%s/destdir", tmproot);
	snprintf(out, sizeof(out), "%s/install.txt", tmproot);
	rc = sh("make -s -C %s O=%s DESTDIR=%s PREFIX=/usr install > %s 2>&1",
		src_dir, out_dir, dest, out);
	T_ASSERT(rc == 0, "make install: %s", slurp(out));
	for (i = 0; i < (int)ARRAY_SIZE(files); i++) {
		snprintf(f, sizeof(f), "%s/%s", dest, files[i]);
		T_ASSERT(!access(f, R_OK), "%s not installed", files[i]);
	}
	n = tool_commands(cmds, 32);
	for (i = 1; i < n; i++) {
		snprintf(f, sizeof(f), "%s/usr/share/man/man1/cmn-hnf-%s.1", dest, cmds[i]);
		T_ASSERT(!access(f, R_OK), "no man page installed for %s", cmds[i]);
	}
	rc = sh("%s/usr/bin/cmn-hnf --version > %s 2>&1", dest, out);
	T_ASSERT(rc == 0 && !strncmp(slurp(out), "cmn-hnf ", 8), "installed binary: %s",
		 slurp(out));
	rc = sh("grep -qx 'ExecStart=/usr/bin/cmn-hnf .*' %s/%s", dest, files[2]);
	T_ASSERT(rc == 0, "the unit does not run /usr/bin/cmn-hnf");
	/* the top-level make install-tools and uninstall-tools, as pkg/ checks them */
	snprintf(f, sizeof(f), "%s/../../testing/pkg/install-tools-check.sh", fixtures);
	rc = sh("%s %s/../.. %s %s/install-tools > %s 2>&1", f, src_dir, out_dir, tmproot, out);
	T_ASSERT(rc == 0, "install-tools-check.sh: %s", slurp(out));
	return true;
}

/*
 * Whether the capabilities a unit grants (AmbientCapabilities= and
 * CapabilityBoundingSet=) let cmn-hnf check pass its permission line at
 * perf_event_paranoid @level; t_why says why not.
 */
static bool unit_caps_count(const char *unit, int level)
{
	static const struct {
		const char *name;
		int bit;
	} caps[] = {
		{ "CAP_SYS_ADMIN", CMN_CAP_SYS_ADMIN },
		{ "CAP_PERFMON", CMN_CAP_PERFMON },
	};
	unsigned long long amb = 0, bound = 0, *dst;
	static const char *const keys[] = {
		"\nAmbientCapabilities=", "\nCapabilityBoundingSet=",
	};
	char eff[32], f[CMN_PATH_LEN], want[64], line[512];
	const char *p;
	size_t i, k;

	for (k = 0; k < 2; k++) {
		dst = k ? &bound : &amb;
		for (p = strstr(unit, keys[k]); p; p = strstr(p + 1, keys[k])) {
			snprintf(line, sizeof(line), "%.*s",
				 (int)strcspn(p + 1, "\n"), p + 1);
			for (i = 0; i < ARRAY_SIZE(caps); i++)
				if (strstr(line, caps[i].name))
					*dst |= 1ULL << caps[i].bit;
		}
	}
	snprintf(eff, sizeof(eff), "%016llx", amb & bound);
	fake_proc(tmproot, level, eff);
	snprintf(f, sizeof(f), "%s/unit-check.txt", tmproot);
	run_cmd(cmd_check, f, "check", NULL);
	cmn_proc_root = "/proc";
	snprintf(want, sizeof(want), "ok    perf_event_paranoid=%d", level);
	if (strstr(slurp(f), want))
		return true;
	snprintf(t_why, sizeof(t_why),
		 "with the unit's capabilities (CapEff %s) at paranoid %d: %s", eff, level,
		 strstr(slurp(f), "perf_event_paranoid") ?
		 strstr(slurp(f), "perf_event_paranoid") : slurp(f));
	t_why[strcspn(t_why, "\n")] = '\0';
	return false;
}

/*
 * The Prometheus unit: systemd accepts it, it runs unprivileged with the
 * capabilities that count at Debian's default perf_event_paranoid (3)
 * without changing the level, and its command line works (on the fake
 * PMU, with -n 1).
 */
static bool test_systemd_unit(void)
{
	char unit[CMN_PATH_LEN], out[CMN_PATH_LEN], prom[CMN_PATH_LEN], *s, *e;
	char cmd[1024];
	int rc;

	T_ASSERT(src_dir, "no --src");
	stat_root();
	snprintf(unit, sizeof(unit), "%s/cmn-hnf-prometheus.service", tmproot);
	snprintf(out, sizeof(out), "%s/unit.txt", tmproot);
	snprintf(prom, sizeof(prom), "%s/unit.prom", tmproot);
	/* as installed, but running the tool of this build */
	rc = sh("sed 's|@BINDIR@/cmn-hnf|%s|' %s/cmn-hnf-prometheus.service.in > %s",
		tool_path, src_dir, unit);
	T_ASSERT(rc == 0, "cannot write %s", unit);
	rc = sh("systemd-analyze verify --man=no %s > %s 2>&1", unit, out);
	T_ASSERT(rc == 0 && !*slurp(out), "systemd-analyze verify: %d %s", rc, slurp(out));
	s = slurp(unit);
	T_ASSERT(strstr(s, "\nUser=prometheus\n") && !strstr(s, "User=root"),
		 "not an unprivileged user");
	T_ASSERT(strstr(s, "\nNoNewPrivileges=yes\n") &&
		 strstr(s, "\nProtectKernelTunables=yes\n"),
		 "no NoNewPrivileges, or the paranoid level is writable");
	/* the unit counts at Debian's default level, and changes no level */
	T_ASSERT(!strstr(s, "\nExecStartPre") && !strstr(s, "sysctl -w") &&
		 !strstr(strstr(s, "\n[Service]"), "perf_event_paranoid"),
		 "the unit changes the paranoid level");
	e = strdup(s);
	T_ASSERT(e, "out of memory");
	rc = unit_caps_count(e, 3) && unit_caps_count(e, 2);
	free(e);
	if (!rc)
		return false;
	s = slurp(unit);
	s = strstr(s, "\nExecStart=");
	T_ASSERT(s, "no ExecStart");
	s += strlen("\nExecStart=") + strlen(tool_path);
	e = strchr(s, '\n');
	*e = '\0';
	snprintf(cmd, sizeof(cmd), "%s", s);
	/* the same command line on the fake PMU: another file, one short interval */
#define T_UNIT_PROM "/var/lib/prometheus/node-exporter/cmn_hnf.prom"
	e = strstr(cmd, T_UNIT_PROM);
	T_ASSERT(e, "ExecStart: %s", cmd);
	*e = '\0';
	rc = sh("%s --sysfs-root %s/stat %s%s%s -n 1 -I 10 > %s 2>&1", fake_path, tmproot,
		cmd, prom, e + strlen(T_UNIT_PROM), out);
	T_ASSERT(rc != 2, "the unit's options are a usage error: %s", slurp(out));
	return true;
}

/*
 * The Grafana dashboard the package ships: every query names a metric
 * family that the exporter writes with the unit's own command line, the
 * queries are PromQL that promtool accepts, and it has the heat map of
 * the HN-Fs
 */
static bool test_grafana_dashboard(void)
{
	char unit[CMN_PATH_LEN], prom[CMN_PATH_LEN], out[CMN_PATH_LEN], rules[CMN_PATH_LEN];
	char dash[CMN_PATH_LEN], args[3 * CMN_PATH_LEN], cmd[1024], *s, *e;
	int rc;

	T_ASSERT(src_dir && strcmp(promtool, "missing"), "no --src or promtool");
	stat_root();
	snprintf(unit, sizeof(unit), "%s/cmn-hnf-prometheus.service.in", src_dir);
	snprintf(prom, sizeof(prom), "%s/grafana.prom", tmproot);
	snprintf(out, sizeof(out), "%s/grafana.out", tmproot);
	snprintf(rules, sizeof(rules), "%s/grafana-rules.yml", tmproot);
	snprintf(dash, sizeof(dash), "%s/grafana/cmn-hnf.json", src_dir);
	/* the unit's command line, another file, two short intervals */
	s = strstr(slurp(unit), "\nExecStart=@BINDIR@/cmn-hnf ");
	T_ASSERT(s, "no ExecStart in %s", unit);
	s += strlen("\nExecStart=@BINDIR@/cmn-hnf ");
	*strchr(s, '\n') = '\0';
	snprintf(cmd, sizeof(cmd), "%s", s);
	e = strstr(cmd, T_UNIT_PROM);
	T_ASSERT(e, "ExecStart: %s", cmd);
	*e = '\0';
	rc = sh("%s --sysfs-root %s/stat %s%s%s -n 2 -I 10 > %s 2>&1", fake_path, tmproot,
		cmd, prom, e + strlen(T_UNIT_PROM), out);
	T_ASSERT(rc == 0, "the unit's command line: %s", slurp(out));
	snprintf(args, sizeof(args), "%s %s", prom, rules);
	if (!json_check("grafana", dash, args))
		return false;
	rc = sh("%s check rules %s > %s 2>&1", promtool, rules, out);
	T_ASSERT(rc == 0, "promtool check rules: %s", slurp(out));
	/* the provisioning file points at where make install puts the JSON */
	rc = sh("make -s -C %s O=%s DESTDIR=%s/gdest PREFIX=/usr install > %s 2>&1",
		src_dir, out_dir, tmproot, out);
	T_ASSERT(rc == 0, "make install: %s", slurp(out));
	snprintf(out, sizeof(out), "%s/gdest/usr/share/cmn-hnf/grafana/cmn-hnf-dashboards.yaml",
		 tmproot);
	s = slurp(out);
	T_ASSERT(strstr(s, "      path: /usr/share/cmn-hnf/grafana\n"), "provisioning: %s", s);
	snprintf(out, sizeof(out), "%s/gdest/usr/share/cmn-hnf/grafana/cmn-hnf.json", tmproot);
	T_ASSERT(!access(out, R_OK), "the dashboard is not installed beside it");
	return true;
}

/* ---- the built tool: help texts are true ---- */

static const char *const t_cmds[] = {
	"list", "topo", "check", "stat", "top", "report", "metrics",
};

/*
 * The options of "cmn-hnf CMD --help": the first word of each line of the
 * option list ("  -I, --interval MS ..." gives -I and --interval), in
 * @opts, blank separated; returns how many.
 */
static int help_options(const char *help, char *opts, size_t len)
{
	const char *p = strstr(help, "\nOptions:\n"), *e;
	size_t used = 0;
	int n = 0;

	opts[0] = '\0';
	if (!p)
		return 0;
	for (p = strchr(p + 1, '\n') + 1; *p == ' '; p = strchr(p, '\n') + 1) {
		const char *q = p + 2;

		if (*q == ' ')
			q += 4;
		while (*q == '-') {
			for (e = q; *e && *e != ' ' && *e != ',' && *e != '\n'; e++)
				;
			used += snprintf(opts + used, len - used, "%.*s ",
					 (int)(e - q), q);
			n++;
			if (*e != ',')
				break;
			q = e + 2;
		}
		if (!strchr(p, '\n'))
			break;
	}
	return n;
}

/* What option @opt of @cmd needs around it to be a valid command line */
static const char *opt_context(const char *cmd, const char *opt)
{
	static const char *const ctx[][3] = {
		{ "stat", "-I", "100 --print-perf" },
		{ "stat", "--interval", "100 --print-perf" },
		{ "stat", "-n", "1 -I 100 --print-perf" },
		{ "stat", "--count", "1 -I 100 --print-perf" },
		{ "stat", "--top", "3 --per-hnf --print-perf" },
		{ "stat", "--sort", "slc_miss_rate --per-hnf --print-perf" },
		{ "stat", "--clear", "-I 100 --print-perf" },
		{ "stat", "--prometheus", "@/p.prom -I 10 -n 1" },
		{ "stat", "--quiet", "--prometheus @/p.prom -I 10 -n 1" },
		{ "stat", "-q", "--prometheus @/p.prom -I 10 -n 1" },
		{ "stat", "--print-perf", "" },
		{ "stat", "--interval-count", "1 -I 100 --print-perf" },
		{ "stat", "-e", "slc_miss --print-perf" },
		{ "stat", "--event", "slc_miss --print-perf" },
		{ "stat", "-M", "x=cache_miss --print-perf" },
		{ "stat", "--metric", "x=cache_miss --print-perf" },
		{ "stat", "-x", "';' --print-perf" },
		{ "stat", "--field-separator", "';' --print-perf" },
		{ "stat", "-o", "@/stat-o.txt --print-perf" },
		{ "stat", "--output", "@/stat-o.txt --print-perf" },
		{ "stat", "-r", "2 --print-perf" },
		{ "stat", "--repeat", "2 --print-perf" },
		{ "stat", "*", "--print-perf" },
		{ "top", "-I", "100 -b -n 1" },
		{ "top", "--interval", "100 -b -n 1" },
		{ "top", "-n", "1 -b -I 100" },
		{ "top", "--count", "1 -b -I 100" },
		{ "top", "-m", "pocq_avg_latency -b -n 1 -I 100" },
		{ "top", "--metric", "pocq_avg_latency -b -n 1 -I 100" },
		{ "top", "--mesh", "1 -b -n 1 -I 100" },
		{ "top", "--scale", "relative -b -n 1 -I 100" },
		{ "top", "-t", "3 -b -n 1 -I 100" },
		{ "top", "--top", "3 -b -n 1 -I 100" },
		{ "top", "*", "-b -n 1 -I 100" },
		{ "report", "--svg", "@/h.svg @/run.jsonl" },
		{ "report", "-r", "pocq_avg_latency @/run.jsonl" },
		{ "report", "--rank", "pocq_avg_latency @/run.jsonl" },
		{ "report", "-t", "3 @/run.jsonl" },
		{ "report", "--top", "3 @/run.jsonl" },
		{ "report", "--scale", "relative @/run.jsonl" },
		{ "report", "*", "@/run.jsonl" },
		{ "metrics", "--format", "perf-json" },
		{ "metrics", "-f", "perf-json" },
		{ "metrics", "--output-dir", "@ -f perf-json" },
		{ "metrics", "-o", "@ -f perf-json" },
		{ "metrics", "--exact-compat", "-f perf-json" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ctx); i++)
		if (!strcmp(ctx[i][0], cmd) &&
		    (!strcmp(ctx[i][1], opt) || !strcmp(ctx[i][1], "*")))
			return ctx[i][2];
	return "";
}

static bool test_help_texts(void)
{
	char out[CMN_PATH_LEN], help[8192], opts[2048], word[64], args[512];
	const char *root = stat_root(), *p, *c;
	char *at;
	size_t i, n;
	int rc;

	snprintf(out, sizeof(out), "%s/help.txt", tmproot);
	T_ASSERT(sh("%s --help > %s", tool_path, out) == 0, "--help failed");
	snprintf(help, sizeof(help), "%s", slurp(out));
	for (i = 0; i < ARRAY_SIZE(t_cmds); i++) {
		snprintf(word, sizeof(word), "\n  %s ", t_cmds[i]);
		T_ASSERT(strstr(help, word), "--help does not list %s", t_cmds[i]);
	}
	T_ASSERT(sh("%s bogus > /dev/null 2>&1", tool_path) == 2, "bogus command");
	for (i = 0; i < ARRAY_SIZE(t_cmds); i++) {
		T_ASSERT(sh("%s %s --help > %s", tool_path, t_cmds[i], out) == 0,
			 "%s --help failed", t_cmds[i]);
		snprintf(help, sizeof(help), "%s", slurp(out));
		snprintf(word, sizeof(word), "usage: cmn-hnf %s", t_cmds[i]);
		T_ASSERT(strstr(help, word), "%s --help: no usage line", t_cmds[i]);
		T_ASSERT(help_options(help, opts, sizeof(opts)) >= 2,
			 "%s --help: no option list", t_cmds[i]);
		T_ASSERT(sh("%s %s --bogus-option > /dev/null 2>&1", fake_path,
			    t_cmds[i]) == 2, "%s takes --bogus-option", t_cmds[i]);
		/* every option the help names is accepted, on the fake PMU */
		for (p = opts; *p; p += n + 1) {
			n = strcspn(p, " ");
			snprintf(word, sizeof(word), "%.*s", (int)n, p);
			if (!strcmp(word, "-h") || !strcmp(word, "--help"))
				continue;
			c = opt_context(t_cmds[i], word);
			snprintf(args, sizeof(args), "%s", c);
			for (at = strchr(args, '@'); at; at = strchr(args, '@')) {
				char tail[256];

				snprintf(tail, sizeof(tail), "%s", at + 1);
				snprintf(at, sizeof(args) - (at - args), "%s%s",
					 tmproot, tail);
			}
			rc = sh("%s --sysfs-root %s %s %s %s > /dev/null 2>&1",
				fake_path, root, t_cmds[i], word, args);
			T_ASSERT(rc == 0 || (rc == 1 && !strcmp(t_cmds[i], "check")),
				 "'%s %s %s' exits %d", t_cmds[i], word, args, rc);
		}
	}
	return true;
}

static bool test_docs(void)
{
	static const char *const words[] = {
		"cmn-hnf list", "cmn-hnf topo", "cmn-hnf check", "cmn-hnf stat",
		"cmn-hnf metrics", "--per-hnf", "--print-perf", "--sysfs-root",
		"telemetry", "perf-json", "tools/metrics/metrics.def",
	};
	char *s = slurp(doc_path);
	size_t i;

	T_ASSERT(*s, "cannot read %s", doc_path);
	for (i = 0; i < cmn_num_metrics; i++)
		T_ASSERT(strstr(s, cmn_metrics[i].name), "%s not documented",
			 cmn_metrics[i].name);
	for (i = 0; i < cmn_num_metric_groups; i++)
		T_ASSERT(strstr(s, cmn_metric_groups[i].name), "group %s not documented",
			 cmn_metric_groups[i].name);
	for (i = 0; i < ARRAY_SIZE(words); i++)
		T_ASSERT(strstr(s, words[i]), "'%s' not documented", words[i]);
	return true;
}

/* A file of the repository, found from --doc (Documentation/...) */
static const char *repo_file(const char *rel)
{
	static char p[CMN_PATH_LEN];
	char *slash;

	snprintf(p, sizeof(p), "%s", doc_path);
	slash = strrchr(p, '/');
	if (slash)
		*slash = '\0';
	snprintf(p + strlen(p), sizeof(p) - strlen(p), "/../%s", rel);
	return p;
}

/*
 * issue 20, 9: the README leads to top, report, --prometheus and its unit,
 * and says how to get the tree; the package description claims nothing
 * topdown-tool does not do
 */
static bool test_readme_and_package(void)
{
	static const char *const words[] = {
		"cmn-hnf top", "cmn-hnf report", "--prometheus",
		"cmn-hnf-prometheus.service", "\ngit clone ", "sudo cmn-hnf check",
	};
	char *s;
	size_t i;

	s = slurp(repo_file("README.md"));
	T_ASSERT(*s, "cannot read %s", repo_file("README.md"));
	for (i = 0; i < ARRAY_SIZE(words); i++)
		T_ASSERT(strstr(s, words[i]), "README.md does not mention '%s'", words[i]);
	s = slurp(repo_file("debian/control"));
	T_ASSERT(*s, "cannot read %s", repo_file("debian/control"));
	T_ASSERT(!strstr(s, "topdown-tool"), "debian/control names topdown-tool: %s",
		 strstr(s, "topdown-tool") - 80);
	return true;
}

/* Run only by "make test-browser" (--browser), not by "make test" */
static const struct {
	const char *name;
	bool (*fn)(void);
} browser_tests[] = {
	{ "report_svg_browser", test_report_browser },
};

static const struct {
	const char *name;
	bool (*fn)(void);
} tests[] = {
	{ "format_parse", test_format_parse },
	{ "format_errors", test_format_errors },
	{ "format_apply", test_format_apply },
	{ "config_build_abi", test_config_build },
	{ "config_follows_format", test_config_follows_format },
	{ "config_alias_vs_table", test_config_alias_vs_table },
	{ "event_table_contract", test_event_table },
	{ "expr_eval", test_expr_eval },
	{ "expr_div_zero", test_expr_div_zero },
	{ "expr_names", test_expr_names },
	{ "metrics_def_valid", test_metrics_def },
	{ "metric_values", test_metric_values },
	{ "scaling", test_scaling },
	{ "counts_add", test_counts_add },
	{ "threshold", test_threshold },
	{ "metric_select", test_metric_select },
	{ "identifier", test_identifier },
	{ "topo_parse_driver_format", test_topo_parse_driver },
	{ "topo_parse_variants", test_topo_parse_variants },
	{ "mesh_parse", test_mesh_parse },
	{ "sysfs_one_mesh", test_sysfs_one_mesh },
	{ "sysfs_two_meshes", test_sysfs_two_meshes },
	{ "sysfs_missing_files", test_sysfs_missing },
	{ "sysfs_derive_coords", test_sysfs_derive_coords },
	{ "sysfs_parent_device", test_sysfs_parent },
	{ "list_json_valid", test_list_json },
	{ "list_text", test_list_text },
	{ "topo_json_and_map", test_topo_json },
	{ "telemetry_shape", test_telemetry_shape },
	{ "perf_json_shape", test_perf_json_shape },
	{ "perf_json_jevents", test_perf_json_jevents },
	{ "perf_json_jevents_61", test_perf_json_jevents_61 },
	{ "sha1", test_sha1 },
	{ "stat_mesh_metrics", test_stat_mesh },
	{ "stat_read_spread", test_stat_read_spread },
	{ "stat_groups", test_stat_groups },
	{ "stat_merged_groups", test_stat_merged_groups },
	{ "stat_split_groups", test_stat_split_groups },
	{ "stat_per_hnf", test_stat_per_hnf },
	{ "stat_top_view", test_stat_top_view },
	{ "stat_ungrouped_fallback", test_stat_ungrouped_fallback },
	{ "stat_cycles_error", test_stat_cycles_error },
	{ "stat_csv", test_stat_csv },
	{ "stat_print_perf", test_stat_print_perf },
	{ "stat_errors", test_stat_errors },
	{ "check_good", test_check_good },
	{ "check_problems", test_check_problems },
	{ "check_perm_matrix", test_check_perm_matrix },
	{ "check_arm_cmn_advice", test_check_arm_cmn_advice },
	{ "stat_alias_differs", test_stat_alias_differs },
	{ "sysfs_duplicate_hnfs", test_sysfs_duplicate_hnfs },
	{ "check_topology_files", test_check_topology_files },
	{ "topo_messages", test_topo_messages },
	{ "metrics_dir_and_epoch", test_metrics_dir_and_epoch },
	{ "report_cut_and_dir", test_report_cut_and_dir },
	{ "check_identifier_text", test_check_identifier_text },
	{ "stat_perm_hint", test_stat_perm_hint },
	{ "stat_exit_status", test_stat_exit_status },
	{ "stat_sigchld_ends_interval", test_stat_sigchld },
	{ "stat_sigint_status", test_stat_sigint_status },
	{ "stat_events", test_stat_events },
	{ "stat_every_alias", test_stat_every_alias },
	{ "stat_user_metric", test_stat_user_metric },
	{ "stat_perf_habits", test_stat_perf_habits },
	{ "stat_print_perf_quoting", test_stat_print_perf_quoting },
	{ "stat_options", test_stat_options },
	{ "check_broken_pmu", test_check_broken_pmu },
	{ "check_alias_contents", test_check_alias_contents },
	{ "check_big_interrupts", test_check_big_interrupts },
	{ "check_builtin_arm_cmn", test_check_builtin_arm_cmn },
	{ "json_writer_utf8", test_json_writer },
	{ "error_context", test_error_context },
	{ "list_perf_spelling", test_list_perf_spelling },
	{ "stat_mixed_slices", test_stat_mixed_slices },
	{ "stat_prometheus", test_stat_prometheus },
	{ "prometheus_names", test_prometheus_names },
	{ "top_batch", test_top_batch },
	{ "top_tmux_golden", test_top_tmux },
	{ "top_batch_golden", test_top_batch_golden },
	{ "top_batch_relative", test_top_batch_relative },
	{ "report_summary", test_report_summary },
	{ "report_svg", test_report_svg },
	{ "report_svg_scale", test_report_svg_scale },
	{ "report_hnf_series", test_report_hnf_series },
	{ "man_pages_match_help", test_man_pages },
	{ "bash_completion", test_bash_completion },
	{ "install", test_install },
	{ "systemd_unit", test_systemd_unit },
	{ "grafana_dashboard", test_grafana_dashboard },
	{ "help_texts", test_help_texts },
	{ "docs", test_docs },
	{ "readme_and_package", test_readme_and_package },
};

int main(int argc, char **argv)
{
	int i, passed = 0, failed = 0;
	const char *only = NULL;
	bool browser = false;

	for (i = 1; i < argc; i++) {
		static const char *const names[] = {
			"--tool", "--promtool", "--fake", "--doc", "--fixtures", "--only",
			"--ksrc", "--man", "--src", "--out", "--ksrc61",
		};
		const char **dest[] = {
			&tool_path, &promtool, &fake_path, &doc_path, &fixtures, &only,
			&ksrc, &man_dir, &src_dir, &out_dir, &ksrc61,
		};
		size_t k;

		if (!strcmp(argv[i], "--browser")) {
			browser = true;
			continue;
		}
		for (k = 0; k < ARRAY_SIZE(names); k++)
			if (!strcmp(argv[i], names[k]) && i + 1 < argc)
				*dest[k] = argv[++i];
	}
	if (!tool_path || !fake_path || !doc_path || !fixtures) {
		fprintf(stderr,
			"usage: %s --tool BIN --fake BIN --doc RST --fixtures DIR [--promtool BIN] [--only NAME] [--browser]\n",
			argv[0]);
		return 2;
	}
	snprintf(tmproot, sizeof(tmproot), "/tmp/cmn-hnf-test.XXXXXX");
	if (!mkdtemp(tmproot)) {
		perror("mkdtemp");
		return 1;
	}
	/* commands print errors on stderr; keep the test output readable */
	if (!getenv("CMN_HNF_TEST_VERBOSE") && !freopen("/dev/null", "w", stderr))
		return 1;
	for (i = 0; i < (int)(browser ? ARRAY_SIZE(browser_tests) : ARRAY_SIZE(tests)); i++) {
		const char *name = browser ? browser_tests[i].name : tests[i].name;
		bool (*fn)(void) = browser ? browser_tests[i].fn : tests[i].fn;

		if (only && strcmp(only, name))
			continue;
		t_why[0] = '\0';
		cmn_sysfs_root = "/nonexistent";
		if (t_run(fn)) {
			printf("PASS: tools/%s\n", name);
			passed++;
		} else {
			printf("FAIL: tools/%s: %s\n", name, t_why);
			failed++;
		}
		fflush(stdout);
	}
	printf("tools: %d passed, %d failed\n", passed, failed);
	if (!failed)
		sh("rm -rf '%s'", tmproot);
	return failed ? 1 : 0;
}
