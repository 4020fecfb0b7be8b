/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmn-hnf: userspace tool for the arm_cmn_hnf perf PMU.
 * Declarations shared by the tool's files and its unit tests.
 */
#ifndef CMN_HNF_TOOL_H
#define CMN_HNF_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Userspace stand-ins for the kernel's helpers */
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define __cmn_attr(list)	__attribute__(list)
#define __printf(a, b)		__cmn_attr((format(printf, a, b)))
#define __noreturn		__cmn_attr((__noreturn__))

#define CMN_PMU_PREFIX		"arm_cmn_hnf_"
#define CMN_MAX_PMUS		16
#define CMN_MAX_HNFS		128
#define CMN_MAX_DTCS		4
#define CMN_MAX_FORMATS		16
#define CMN_MAX_RANGES		4
#define CMN_MAX_TERMS		8
#define CMN_MAX_METRICS		64	/* metrics.def and the user's */
#define CMN_NAME_LEN		64
#define CMN_PATH_LEN		4096

/* ---- util.c ---- */

extern const char *cmn_sysfs_root;	/* "/sys" unless --sysfs-root */
extern const char *cmn_proc_root;	/* "/proc" unless CMN_HNF_PROC_ROOT */
extern const char *cmn_prog;

void cmn_set_roots_from_env(void);
/* "<sysfs root>/<rel>", rel without the leading "/sys" */
__printf(3, 4)
void cmn_sys_path(char *buf, size_t len, const char *fmt, ...);
__printf(3, 4)
void cmn_proc_path(char *buf, size_t len, const char *fmt, ...);
/* Read a whole (small) file, trailing newline stripped. -errno on failure. */
int cmn_read_file(const char *path, char *buf, size_t len);
/* Read a file holding one integer (decimal or 0x hex). */
int cmn_read_long(const char *path, long *val);
/* strtoull with base 0 on the whole string; -EINVAL on junk */
int cmn_parse_u64(const char *s, uint64_t *val);
/* First CPU of a cpulist string ("0", "0-3,8"), or -1 */
int cmn_cpulist_first(const char *s);
bool cmn_isatty(FILE *f);
/* Last path component of the symlink at @path into @buf ("" if none) */
void cmn_link_base(const char *path, char *buf, size_t len);
/* True for the modalias of a CMN-600 device (ACPI ARMHC600 or DT arm,cmn-600) */
bool cmn_is_cmn600_modalias(const char *modalias);
/* The round number (1, 2, 2.5 or 5 times a power of ten) at or above @v */
double cmn_nice_ceil(double v);
/* "0x48", and "0x0" for 0 (printf's %#x prints "0"); @buf of 16 */
const char *cmn_hex(unsigned int v, char *buf);
/* Seconds of CLOCK_REALTIME (the Unix epoch), for timestamps */
double cmn_epoch_now(void);

/*
 * Who may open a system-wide (uncore) event at a perf_event_paranoid
 * level (Documentation/arm_cmn_hnf.rst, "Who may count"): anyone at 0 and
 * below; CAP_PERFMON or CAP_SYS_ADMIN at 1 and 2; only CAP_SYS_ADMIN above
 * 2: 3 (Debian's patch and default), 4 (Ubuntu's default) and higher.
 */
enum cmn_perm { CMN_PERM_ANYONE, CMN_PERM_PERFMON, CMN_PERM_SYSADMIN };

#define CMN_CAP_SYS_ADMIN	21
#define CMN_CAP_PERFMON		38

enum cmn_perm cmn_perm_needed(long paranoid);
/* The level in <proc>/sys/kernel/perf_event_paranoid; -errno */
int cmn_read_paranoid(long *paranoid);
/* Whether capability @cap is in CapEff of <proc>/self/status */
bool cmn_has_cap(int cap);
/* True when this process may count system-wide at level @paranoid */
bool cmn_perm_allows(long paranoid, bool perfmon, bool sysadmin);
/* One sentence on what lets a user count at level @paranoid */
const char *cmn_perm_fix(long paranoid);

/* ---- json.c: the one JSON writer, and a parser ---- */

#define CJ_MAX_DEPTH		32

struct cmn_json {
	FILE *out;
	bool pretty;		/* two-space indentation, else one line */
	int depth;
	bool after_key;
	bool first[CJ_MAX_DEPTH];
};

void cj_init(struct cmn_json *j, FILE *out, bool pretty);
void cj_obj(struct cmn_json *j);
void cj_obj_end(struct cmn_json *j);
void cj_arr(struct cmn_json *j);
void cj_arr_end(struct cmn_json *j);
void cj_key(struct cmn_json *j, const char *k);
void cj_str(struct cmn_json *j, const char *s);	/* NULL: null */
void cj_num(struct cmn_json *j, double v);	/* NaN, inf: null */
void cj_fixed(struct cmn_json *j, double v, int decimals);
void cj_int(struct cmn_json *j, long long v);
void cj_bool(struct cmn_json *j, bool v);
void cj_null(struct cmn_json *j);
void cj_kstr(struct cmn_json *j, const char *k, const char *v);
void cj_knum(struct cmn_json *j, const char *k, double v);
void cj_kint(struct cmn_json *j, const char *k, long long v);
void cj_kbool(struct cmn_json *j, const char *k, bool v);
/* "k": [the blank separated words of @words] */
void cj_words(struct cmn_json *j, const char *k, const char *words);
/* End of a document (or of a JSON Lines record): a newline */
void cj_end(struct cmn_json *j);
/* Low level: a string (UTF-8 checked, bad bytes become U+FFFD), a number */
void cmn_json_str(FILE *out, const char *s);
void cmn_json_num(FILE *out, double v);
/* Length of the well-formed UTF-8 sequence at @s, 0 if there is none */
size_t cmn_utf8_len(const unsigned char *s);

enum cmn_jv_type { CJV_NULL, CJV_BOOL, CJV_NUM, CJV_STR, CJV_ARR, CJV_OBJ };

/* A parsed JSON value; children of arrays and objects are a list */
struct cmn_jv {
	enum cmn_jv_type type;
	char *key;		/* member name inside an object */
	char *str;
	double num;		/* numbers; 1/0 for booleans */
	int n;			/* children */
	struct cmn_jv *child, *next;
};

/* NULL and the reason in @why on a syntax error */
struct cmn_jv *cmn_jv_parse(const char *text, char *why, size_t why_len);
void cmn_jv_free(struct cmn_jv *v);
const struct cmn_jv *cmn_jv_get(const struct cmn_jv *obj, const char *key);
double cmn_jv_num(const struct cmn_jv *v);	/* NaN unless a number */
const char *cmn_jv_str(const struct cmn_jv *v);	/* NULL unless a string */

/* ---- opts.c: the option parser of every command ---- */

enum cmn_opt_type {
	CMN_OPT_FLAG, CMN_OPT_LONG, CMN_OPT_STR, CMN_OPT_CHOICE,
	CMN_OPT_LIST,		/* repeatable: dest is a struct cmn_strlist */
};

#define CMN_MAX_LIST		32

struct cmn_strlist {
	int n;
	const char *v[CMN_MAX_LIST];
};

struct cmn_opt {
	int key;		/* short option letter, or a code >= 0x100 */
	const char *name;	/* long option name */
	const char *arg;	/* value name in --help, NULL: a flag */
	enum cmn_opt_type type;
	void *dest;		/* bool *, long *, const char ** */
	long min, max;		/* CMN_OPT_LONG: accepted range */
	const char *const *choices;	/* CMN_OPT_CHOICE, NULL-terminated */
	bool *seen;		/* set when the option is given, may be NULL */
	const char *help;	/* "\n" continues on the next help line */
};

#define CMN_MAX_OPTS		32

struct cmn_cmd {
	const char *name;
	const char *synopsis;	/* after "usage: cmn-hnf <name> " */
	const char *desc;
	const struct cmn_opt *opts;	/* ends with a zeroed entry */
	bool *json;		/* non-NULL: the command takes --json */
	bool args;		/* takes arguments after the options */
	const char *footer;	/* printed after the options */
};

/*
 * Parse the options of @cmd. 0: go on, the arguments start at
 * argv[*first_arg]; 1: --help was printed on @out (exit 0); 2: a usage
 * error was printed on stderr (exit 2).
 */
int cmn_cmd_parse(const struct cmn_cmd *cmd, int argc, char **argv,
		  FILE *out, int *first_arg);
void cmn_cmd_usage(const struct cmn_cmd *cmd, FILE *f);
/* Print "cmn-hnf <cmd>: <message>" and a hint; returns 2 */
__printf(2, 3)
int cmn_usage_error(const struct cmn_cmd *cmd, const char *fmt, ...);
/* A whole decimal number in [min, max]; -EINVAL junk, -ERANGE out of range */
int cmn_parse_long(const char *s, long min, long max, long *val);

/* ---- events.c: the events.h table ---- */

struct cmn_event {
	const char *name;
	int eventid;
	int occupid;		/* -1: none */
	const char *scale;
	const char *unit;
	const char *trm;	/* "" for a synonym */
	const char *desc;
};

extern const struct cmn_event cmn_events[];
extern const size_t cmn_num_events;

#define CMN_DTC_CYCLES		"dtc_cycles"
#define CMN_DURATION_TIME	"duration_time"

const struct cmn_event *cmn_event_find(const char *name);
/* The primary name of @ev's encoding (itself when primary) */
const struct cmn_event *cmn_event_primary(const struct cmn_event *ev);
/* First entry of the table with @ev's (eventid, occupid), for exports */
bool cmn_event_is_first_encoding(const struct cmn_event *ev);
/* perf terms for the table entry: "eventid=0x01[,occupid=0x1]" */
void cmn_event_terms(const struct cmn_event *ev, char *buf, size_t len);
/* Any name a formula may use: an alias, dtc_cycles or duration_time */
bool cmn_formula_name_known(const char *name);

/* ---- expr.c: formulas ---- */

/* Value of a name in a formula; return false when it has no value */
typedef bool (*cmn_lookup_fn)(void *ctx, const char *name, double *val);

/*
 * Evaluate @formula. Returns 0 and the value (NaN when a division by zero
 * or a missing value occurred), or -EINVAL with a reason in @why.
 */
int cmn_expr_eval(const char *formula, cmn_lookup_fn lookup, void *ctx,
		  double *val, char *why, size_t why_len);
/* Collect the distinct names a formula uses, in order of appearance. */
int cmn_expr_names(const char *formula, char names[][CMN_NAME_LEN], int max);

/* ---- metrics.c: the metrics.def table ---- */

struct cmn_metric_group {
	const char *name;
	const char *short_name;
	const char *title;
	const char *desc;
};

struct cmn_metric {
	const char *name;
	const char *group;
	const char *title;
	const char *formula;
	const char *unit;
	const char *units;
	const char *threshold;
	int level;
	const char *next;
	const char *desc;
};

struct cmn_event_group {
	const char *name;
	const char *title;
	const char *desc;
	const char *events;
};

extern const struct cmn_metric_group cmn_metric_groups[];
extern const size_t cmn_num_metric_groups;
/*
 * The metrics of metrics.def, then those a command line adds (stat -e and
 * --metric): cmn_num_builtin_metrics of them are metrics.def's.
 */
extern struct cmn_metric cmn_metrics[CMN_MAX_METRICS];
extern size_t cmn_num_metrics;
extern const size_t cmn_num_builtin_metrics;

/* Add a metric (its strings are copied); its index, or -E2BIG */
int cmn_metric_add(const char *name, const char *group, const char *formula,
		   const char *unit, const char *desc);
/* Forget the metrics added since the start (the unit tests run stat often) */
void cmn_metrics_reset(void);
extern const struct cmn_event_group cmn_event_groups[];
extern const size_t cmn_num_event_groups;

const struct cmn_metric *cmn_metric_find(const char *name);
const struct cmn_metric_group *cmn_metric_group_find(const char *name);
/*
 * Parse a threshold "> 50"; returns false for "" or junk. @beyond tells
 * whether @v is on the flagged side.
 */
bool cmn_threshold_parse(const char *t, char op[3], double *limit);
bool cmn_threshold_hit(const char *t, double v);
/*
 * Select metrics by group name, group short name or metric name
 * (case-insensitive), or "all". sel[] is indexed like cmn_metrics[]. With
 * no arguments the level-1 metrics are selected. -EINVAL (and the bad word in @why)
 * for an unknown word.
 */
int cmn_metric_select(int argc, char **argv, bool *sel, char *why,
		      size_t why_len);

/* ---- format.c: sysfs format strings and config building ---- */

struct cmn_fmt_range {
	int word;		/* 0: config, 1: config1, 2: config2 */
	int lo, hi;
};

struct cmn_fmt {
	char name[CMN_NAME_LEN];
	int nr;
	struct cmn_fmt_range r[CMN_MAX_RANGES];
};

/* Parse "config:0-7", "config1:12", "config:0-3,8-11". */
int cmn_fmt_parse(const char *name, const char *s, struct cmn_fmt *f,
		  char *why, size_t why_len);
/* OR @val into config[3] through @f; -ERANGE when @val does not fit */
int cmn_fmt_apply(const struct cmn_fmt *f, uint64_t val, uint64_t config[3]);
/*
 * Apply a perf term list "type=0x5,eventid=0x01,bynodeid" (a bare term
 * means 1) using @fmts. -EINVAL (and why) for an unknown term or a value
 * that does not fit.
 */
int cmn_terms_apply(const struct cmn_fmt *fmts, int nfmt, const char *terms,
		    uint64_t config[3], char *why, size_t why_len);

/* ---- sysfs.c: PMUs and topology ---- */

struct cmn_hnf_node {
	int lid;
	unsigned int nodeid;
	int x, y, port, dev;
};

struct cmn_topo {
	bool present;		/* an HN-F list was found and parsed */
	char file[CMN_PATH_LEN];
	char why[256];		/* when !present */
	int mesh_x, mesh_y;	/* 0: unknown */
	char mesh_why[256];	/* the mesh file is there but unusable */
	int nout;		/* HN-Fs outside the mesh (a wrong file) */
	int nhnf;
	struct cmn_hnf_node hnf[CMN_MAX_HNFS];
	int ndtc;		/* DTCs (counter domains) */
	bool dtc_pos;		/* dtc[] holds their positions */
	struct cmn_hnf_node dtc[CMN_MAX_DTCS];
};

/* ASCII map of a mesh with its HN-Fs (topo.c) */
void cmn_topo_map(FILE *out, const struct cmn_topo *t);

struct cmn_pmu {
	char name[CMN_NAME_LEN];
	char path[CMN_PATH_LEN];
	int index;		/* n of arm_cmn_hnf_<n> */
	int type;
	int cpu;		/* first CPU of cpumask, -1 if none */
	char cpumask[128];
	char identifier[32];
	bool have_id;
	unsigned int part, rev;
	char parent[CMN_NAME_LEN];	/* "" when unknown */
	int numa;			/* -1 when unknown */
	int nfmt;
	struct cmn_fmt fmt[CMN_MAX_FORMATS];
	struct cmn_topo topo;
	/* last: cmn_pmu_load() clears everything before it */
	bool broken;		/* a file could not be read: see err */
	char err[512];
};

/*
 * Find every arm_cmn_hnf_<n> PMU, sorted by n. Returns the number found
 * (0 is not an error) or -errno; a PMU whose type or format files cannot
 * be read is an error with the PMU, the file and the reason in @why.
 */
int cmn_pmus_scan(struct cmn_pmu *pmus, int max, char *why, size_t why_len);
/* The same, but a PMU that cannot be read is kept, with broken and err */
int cmn_pmus_scan_all(struct cmn_pmu *pmus, int max, char *why,
		      size_t why_len);
/* Read one PMU directory (used by scan and the tests) */
int cmn_pmu_load(struct cmn_pmu *pmu, const char *dir, const char *name,
		 char *why, size_t why_len);
/* Parse the topology files of a PMU directory into @topo */
void cmn_topo_load(struct cmn_topo *topo, const char *dir);
/* Parse the text of an HN-F list (hnfs) / DTC list / mesh file */
int cmn_topo_parse_nodes(const char *text, struct cmn_hnf_node *nodes,
			 int max, char *why, size_t why_len);
int cmn_topo_parse_mesh(const char *text, int *x, int *y);
/* CMN-600 "rXpY" of an identifier, "" if unknown */
const char *cmn_part_name(unsigned int part);
const char *cmn_rev_name(unsigned int part, unsigned int rev);
int cmn_parse_identifier(const char *id, unsigned int *part,
			 unsigned int *rev);
/* Config of an event (alias from sysfs events/ if present, else table) */
int cmn_pmu_event_config(const struct cmn_pmu *pmu, const char *name,
			 const char *extra_terms, uint64_t config[3],
			 char *why, size_t why_len);
/*
 * 1 when events/<name> exists and encodes something else than the event
 * table (its text in @alias), 0 when it matches or is absent
 */
int cmn_pmu_alias_differs(const struct cmn_pmu *pmu, const char *name,
			  char *alias, size_t len);
/* The alias string perf would use: "cache_miss" or "eventid=0x01" */
void cmn_pmu_event_spelling(const struct cmn_pmu *pmu, const char *name,
			    char *buf, size_t len);

/* ---- stat.c: counting and metric evaluation ---- */

/*
 * Counts of one "unit" (a mesh or one HN-F or an aggregate) in one
 * interval: the scaled value of each term of each metric, as doubles, NaN
 * when not counted.
 */
struct cmn_counts {
	double v[CMN_MAX_METRICS][CMN_MAX_TERMS];
	double cycles;		/* dtc_cycles; NaN when not counted */
	int ncycles;		/* parts summed into cycles */
	double seconds;
	double running;		/* lowest running fraction, 0..1 */
};

/* value * enabled / running; false (and NaN) when running is 0 */
bool cmn_scale(uint64_t value, uint64_t enabled, uint64_t running,
	       double *scaled);
void cmn_counts_init(struct cmn_counts *c);
/* Sum every term, average the cycles over the parts summed */
void cmn_counts_add(struct cmn_counts *dst, const struct cmn_counts *src);
/* Evaluate metric @m (index in cmn_metrics[]) on @c; NaN for no value */
double cmn_metric_value(int m, const struct cmn_counts *c);
/* The distinct names a metric's formula uses, in order of appearance */
struct cmn_terms {
	int n;			/* or -errno from cmn_expr_names() */
	char name[CMN_MAX_TERMS][CMN_NAME_LEN];
};

/* The names of metric @m (cached) */
const struct cmn_terms *cmn_metric_terms(int m);
void cmn_metric_terms_reset(void);

/*
 * The system calls stat uses, replaceable so that the unit tests can run
 * the whole of cmn-hnf stat against a fake PMU.
 */
struct perf_event_attr;
struct cmn_perf_ops {
	/* returns an fd or -errno */
	int (*open)(struct perf_event_attr *attr, int cpu, int group_fd);
	long (*read)(int fd, void *buf, size_t len);
	int (*enable)(int fd);
	void (*close)(int fd);
	/* CLOCK_MONOTONIC seconds; NULL: the real clock */
	double (*now)(void);
};

extern const struct cmn_perf_ops *cmn_perf_ops;

/* ---- commands ---- */

int cmd_list(int argc, char **argv, FILE *out);
int cmd_topo(int argc, char **argv, FILE *out);
int cmd_check(int argc, char **argv, FILE *out);
int cmd_stat(int argc, char **argv, FILE *out);
int cmd_metrics(int argc, char **argv, FILE *out);
int cmd_top(int argc, char **argv, FILE *out);
/* top.c: colour unless NO_COLOR is set or TERM is dumb or unset */
bool cmn_top_color_wanted(void);
int cmd_report(int argc, char **argv, FILE *out);

/* main.c: the command line of cmn-hnf */
int cmn_main(int argc, char **argv);
/* switch.c */
int cmd_switch(int argc, char **argv, FILE *out);

/* export.c, shared with list --json */
void cmn_sha1_hex(const void *data, size_t len, char hex[41]);

#endif /* CMN_HNF_TOOL_H */
