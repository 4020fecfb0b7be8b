/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmn-hnf stat and top, inside: the counting plan (stat_plan.c), the perf
 * backend (stat_backend.c), turning counts into units and printing them
 * (stat_render.c), and the interval loop (stat_loop.c).
 */
#ifndef CMN_HNF_STAT_H
#define CMN_HNF_STAT_H

#include "cmn-hnf.h"

struct st_event {
	char name[CMN_NAME_LEN];
	uint64_t config[3];
	int fd;
	uint64_t val, ena, run;		/* cumulative, last read */
	/* the last read(2), taken into val, ena, run by st_read_all() */
	struct {
		uint64_t val, ena, run;
		bool none;		/* perf could not schedule it */
	} rd;
	double delta;			/* scaled, this interval */
	double frac;			/* running fraction, this interval */
	double total;			/* scaled, since the start */
};

struct st_group {
	int pmu;
	int hnf;	/* index in topo.hnf[], -1: the whole mesh */
	int metric;	/* first metric counted, -1: the dtc_cycles event */
	uint64_t mmask;	/* bit m: the group has every HN-F term of metric m */
	int nev;
	bool grouped;
	struct st_event ev[CMN_MAX_TERMS];
};

enum st_format { FMT_TABLE, FMT_CSV, FMT_JSON, FMT_NONE };

/*
 * An event of stat -e that a formula names by @term: an alias (@base) with
 * more perf terms, or raw terms alone (@base ""), on every mesh or on PMU
 * arm_cmn_hnf_<pmu> only; with bynodeid, on the meshes that have the node.
 */
struct st_uevent {
	char term[CMN_NAME_LEN];
	char base[CMN_NAME_LEN];
	char terms[256];
	int pmu;		/* n of arm_cmn_hnf_<n>, -1: every mesh */
	bool bynode;
	unsigned int nodeid;
};

struct st_opts {
	long interval_ms;	/* 0: one shot */
	long count;		/* intervals, 0: until interrupted */
	bool per_hnf;
	bool print_perf;
	bool clear;
	long top;
	const char *sort;
	enum st_format fmt;
	char sep;		/* the CSV separator (-x) */
	long repeat;		/* -r: runs averaged */
	const char *prom;	/* --prometheus FILE */
	char **cmd;
	bool sel[CMN_MAX_METRICS];
};

/* One unit of a frame: an HN-F (h >= 0), a mesh (h -1) or the total */
struct st_unit {
	int p, h;
	struct cmn_counts cn;
};

/* The counts of one interval, in units */
struct st_frame {
	double time;		/* seconds since the start */
	double seconds;		/* length of the interval */
	double epoch;		/* Unix time at its end */
	long index;		/* 1, 2, ... */
	int nrows;
	struct st_unit *rows;	/* per HN-F, with --per-hnf */
	struct cmn_counts *mesh;	/* per PMU */
	struct cmn_counts total;
	double run_min, run_max;	/* running fractions over the rows */
};

struct st_ctx {
	struct st_opts o;
	struct cmn_pmu *pmus;
	int npmu;
	struct st_group *groups;
	int ngroups;
	int cap;
	FILE *out;
	bool csv_header_done;
	bool warned_ungrouped;
	bool warned_spread;
	bool per_metric;	/* one group per metric, not per metric group */
	struct st_uevent uev[CMN_MAX_LIST];
	int nuev;
	bool child_killed;	/* we ended the command (-n reached) */
};

/* stat_plan.c */
/* stat -e LIST: events as metrics (their counts); 0 or -EINVAL and @why */
int st_add_events(struct st_ctx *c, const char *list, char *why, size_t len);
/* stat --metric NAME=FORMULA; 0 or -EINVAL and @why */
int st_add_formula(struct st_ctx *c, const char *def, char *why, size_t len);
/* Whether metric @m is counted on PMU @p (stat -e events of one mesh) */
bool st_metric_on_pmu(const struct st_ctx *c, int m, int p);
/* The term of a stat -e event, or NULL */
const struct st_uevent *st_uevent_find(const struct st_ctx *c, const char *term);
int st_build_plan(struct st_ctx *c, char *why, size_t why_len);
void st_print_perf(struct st_ctx *c);
/* The metric ranking the top-N view: --sort or the first selected */
int st_sort_metric(const struct st_ctx *c);

/* stat_backend.c */
double st_now(void);
/* Open every group (falling back to smaller groups), 0 or an exit status */
int st_open_all(struct st_ctx *c);
void st_enable_all(struct st_ctx *c);
/*
 * Read every group at once (within ST_READ_SPREAD of @interval seconds,
 * see stat_backend.c) and take the deltas since the last call; 0 or -EIO
 */
int st_read_all(struct st_ctx *c, double interval);
/*
 * The first read, once the counters are enabled: the baseline of the
 * first interval, whose events all start at one instant; 0 or -EIO
 */
int st_read_start(struct st_ctx *c, double interval);
void st_close_all(struct st_ctx *c);

/* stat_render.c */
int st_frame_build(struct st_ctx *c, struct st_frame *f);
void st_frame_free(struct st_frame *f);
void st_report(struct st_ctx *c, struct st_frame *f);
/* Write the Prometheus text file (atomically); -errno */
int st_write_prom(struct st_ctx *c, const struct st_frame *f,
		  const char *path);
/*
 * The Prometheus name of metric @m without the cmn_hnf_ prefix, in base
 * units (slc_miss_ratio, dram_bandwidth_bytes_per_second) and the factor
 * to them; -ENOENT (the name as is, factor 1) for a unit without a rule
 */
int st_prom_name(int m, char *buf, size_t len, double *scale);
/* The rows of @f ranked by metric @m, highest first, in @out */
void st_rank(const struct st_frame *f, int m, struct st_unit *out);
/* "25.00", "1234567", "n/a" */
const char *st_value_str(double v, char *buf, size_t len);

/* stat_loop.c */
struct st_hooks {
	/* an interval ended; return false to stop */
	bool (*frame)(struct st_ctx *c, struct st_frame *f, void *arg);
	/* @fd (if >= 0) is readable; return false to stop */
	int fd;
	bool (*input)(struct st_ctx *c, void *arg);
	/* the terminal was resized */
	void (*resize)(struct st_ctx *c, void *arg);
	void *arg;
};

/*
 * Count until the command ends, -n intervals passed, or SIGINT/SIGTERM.
 * Returns the exit status of cmn-hnf stat: the command's when one ran.
 */
int st_run(struct st_ctx *c, const struct st_hooks *hooks);
/* The signals st_run() watches, for top's terminal restore */
void st_signals_block_default(void);

#endif /* CMN_HNF_STAT_H */
