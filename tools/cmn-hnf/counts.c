// SPDX-License-Identifier: GPL-2.0
/*
 * Count arithmetic shared by cmn-hnf stat and the unit tests: scaling by
 * the enabled/running times, summing units, evaluating metrics.
 */
#include <assert.h>
#include <math.h>
#include <string.h>

#include "metrics.def"

#include "cmn-hnf.h"

/* One enumerator per metric, to count them at compile time */
#define CMN_TOOL_METRIC_ID(_name, ...)	CMN_TOOL_METRIC_##_name,
enum { CMN_HNF_METRICS(CMN_TOOL_METRIC_ID) CMN_TOOL_NUM_METRICS };
static_assert(CMN_MAX_METRICS / 2 >= CMN_TOOL_NUM_METRICS,
	      "metrics.def leaves too little room for the user's metrics");

bool cmn_scale(uint64_t value, uint64_t enabled, uint64_t running,
	       double *scaled)
{
	if (!running) {
		*scaled = NAN;
		return false;
	}
	if (running >= enabled)
		*scaled = (double)value;
	else
		*scaled = (double)value * ((double)enabled / (double)running);
	return true;
}

void cmn_counts_init(struct cmn_counts *c)
{
	memset(c, 0, sizeof(*c));
	c->running = 1.0;
}

void cmn_counts_add(struct cmn_counts *dst, const struct cmn_counts *src)
{
	int m, t, n;

	for (m = 0; m < CMN_MAX_METRICS; m++)
		for (t = 0; t < CMN_MAX_TERMS; t++)
			dst->v[m][t] += src->v[m][t];
	n = dst->ncycles + src->ncycles;
	if (n)
		dst->cycles = (dst->cycles * dst->ncycles +
			       src->cycles * src->ncycles) / n;
	dst->ncycles = n;
	if (src->seconds > dst->seconds)
		dst->seconds = src->seconds;
	if (src->running < dst->running || isnan(src->running))
		dst->running = src->running;
}

struct metric_names {
	bool done;
	struct cmn_terms terms;
};

static struct metric_names names_cache[CMN_MAX_METRICS];

void cmn_metric_terms_reset(void)
{
	size_t m;

	for (m = cmn_num_builtin_metrics; m < CMN_MAX_METRICS; m++)
		names_cache[m].done = false;
}

const struct cmn_terms *cmn_metric_terms(int m)
{
	struct metric_names *mn = &names_cache[m];

	if (!mn->done) {
		mn->terms.n = cmn_expr_names(cmn_metrics[m].formula,
					     mn->terms.name, CMN_MAX_TERMS);
		mn->done = true;
	}
	return &mn->terms;
}

struct lookup_ctx {
	int m;
	const struct cmn_counts *c;
};

static bool lookup(void *p, const char *name, double *val)
{
	const struct lookup_ctx *ctx = p;
	const struct cmn_terms *terms;
	int t;

	if (!strcmp(name, CMN_DTC_CYCLES)) {
		*val = ctx->c->cycles;
		return !isnan(*val);
	}
	if (!strcmp(name, CMN_DURATION_TIME)) {
		*val = ctx->c->seconds;
		return true;
	}
	terms = cmn_metric_terms(ctx->m);
	for (t = 0; t < terms->n; t++) {
		if (!strcmp(terms->name[t], name)) {
			*val = ctx->c->v[ctx->m][t];
			return !isnan(*val);
		}
	}
	return false;
}

double cmn_metric_value(int m, const struct cmn_counts *c)
{
	struct lookup_ctx ctx = { .m = m, .c = c };
	double v;

	if (cmn_expr_eval(cmn_metrics[m].formula, lookup, &ctx, &v, NULL, 0))
		return NAN;
	return v;
}
