/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmn-hnf report: a recorded stat --json run in memory (report.c) and its
 * SVG drawing (svg.c).
 */
#ifndef CMN_HNF_REPORT_H
#define CMN_HNF_REPORT_H

#include "stat.h"

#define RP_MAX_EVENTS	32

/* One unit of the recording: a mesh, the total (hnf -1) or an HN-F */
struct rp_unit {
	char pmu[CMN_NAME_LEN];
	int hnf, nodeid, x, y;
	int mesh_x, mesh_y;		/* mesh units, when recorded */
	double *v[CMN_MAX_METRICS];			/* per metric, per interval; NaN: none */
	int nint;
	double seconds;			/* summed interval lengths */
	int nev;
	struct {
		char name[CMN_NAME_LEN];
		double sum;
		int n;
	} ev[RP_MAX_EVENTS];		/* event counts summed over the run */
};

struct rp_run {
	char path[CMN_PATH_LEN];
	int niv, cap_iv;		/* intervals */
	double *t;			/* end of each interval, s since start */
	double *len;			/* its length, s */
	double epoch0;			/* Unix time of time 0 */
	int nunits, cap_units;
	struct rp_unit *units;
	bool present[CMN_MAX_METRICS];		/* metrics with values in the file */
};

struct rp_stat {
	int n;				/* intervals with a value */
	double min, mean, max;		/* mean weighted by interval length */
	double run;			/* the formula on the summed counts */
	int past;			/* intervals past the threshold */
};

int rp_load(struct rp_run *r, const char *path, char *why, size_t why_len);
void rp_free(struct rp_run *r);
void rp_stats(const struct rp_run *r, const struct rp_unit *u, int m,
	      struct rp_stat *s);
double rp_run_value(const struct rp_unit *u, int m);
/* The metric ranking the HN-Fs: @want, or the first in the file; -1 */
int rp_rank_metric(const struct rp_run *r, const char *want);
int rp_ranked(const struct rp_run *r, int m, const struct rp_unit **out);
/*
 * svg.c: write the charts to @path; -errno and @why. The heat map's
 * colours: absolute (a % metric on 0-100 %, others from 0 to the highest
 * HN-F of all meshes, rounded up), or @relative: each mesh's min to max.
 */
int rp_svg(const struct rp_run *r, int rank, bool relative, const char *path,
	   char *why, size_t why_len);

#endif /* CMN_HNF_REPORT_H */
