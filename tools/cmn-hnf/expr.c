// SPDX-License-Identifier: GPL-2.0
/*
 * Metric formulas: a small recursive-descent evaluator for infix
 * expressions over numbers, names, + - * / and parentheses.
 *
 * NaN is "no value": a division by zero or a name without a value makes
 * the result NaN rather than infinity or an error, so that a quiet
 * interval prints n/a instead of a bogus number.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

struct parser {
	const char *s;
	cmn_lookup_fn lookup;
	void *ctx;
	char *why;
	size_t why_len;
	int err;
};

static void skip_blanks(struct parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static void fail(struct parser *p, const char *what)
{
	if (!p->err && p->why)
		snprintf(p->why, p->why_len, "%s at \"%.20s\"", what, p->s);
	p->err = -EINVAL;
}

static bool is_name_start(char c)
{
	return isalpha((unsigned char)c) || c == '_';
}

static bool is_name_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static double parse_expr(struct parser *p);

static double parse_primary(struct parser *p)
{
	char name[CMN_NAME_LEN];
	double v;
	size_t n;
	char *end;

	skip_blanks(p);
	if (*p->s == '(') {
		p->s++;
		v = parse_expr(p);
		skip_blanks(p);
		if (*p->s != ')') {
			fail(p, "missing )");
			return NAN;
		}
		p->s++;
		return v;
	}
	if (isdigit((unsigned char)*p->s) || *p->s == '.') {
		v = strtod(p->s, &end);
		if (end == p->s) {
			fail(p, "bad number");
			return NAN;
		}
		p->s = end;
		return v;
	}
	if (is_name_start(*p->s)) {
		for (n = 0; is_name_char(p->s[n]); n++)
			;
		if (n >= sizeof(name)) {
			fail(p, "name too long");
			return NAN;
		}
		memcpy(name, p->s, n);
		name[n] = '\0';
		p->s += n;
		if (!p->lookup || !p->lookup(p->ctx, name, &v))
			return NAN;
		return v;
	}
	fail(p, *p->s ? "unexpected character" : "unexpected end");
	return NAN;
}

static double parse_unary(struct parser *p)
{
	skip_blanks(p);
	if (*p->s == '-') {
		p->s++;
		return -parse_unary(p);
	}
	if (*p->s == '+') {
		p->s++;
		return parse_unary(p);
	}
	return parse_primary(p);
}

static double parse_term(struct parser *p)
{
	double v = parse_unary(p), r;
	char op;

	for (;;) {
		skip_blanks(p);
		op = *p->s;
		if (op != '*' && op != '/')
			return v;
		p->s++;
		r = parse_unary(p);
		if (op == '*')
			v = v * r;
		else if (r == 0.0 || isnan(r))
			v = NAN;
		else
			v = v / r;
	}
}

static double parse_expr(struct parser *p)
{
	double v = parse_term(p), r;
	char op;

	for (;;) {
		skip_blanks(p);
		op = *p->s;
		if (op != '+' && op != '-')
			return v;
		p->s++;
		r = parse_term(p);
		v = op == '+' ? v + r : v - r;
	}
}

int cmn_expr_eval(const char *formula, cmn_lookup_fn lookup, void *ctx,
		  double *val, char *why, size_t why_len)
{
	struct parser p = {
		.s = formula, .lookup = lookup, .ctx = ctx,
		.why = why, .why_len = why_len,
	};
	double v;

	v = parse_expr(&p);
	skip_blanks(&p);
	if (!p.err && *p.s)
		fail(&p, "trailing text");
	if (p.err)
		return p.err;
	*val = v;
	return 0;
}

int cmn_expr_names(const char *formula, char names[][CMN_NAME_LEN], int max)
{
	const char *s = formula;
	int count = 0, i;
	char *end;
	size_t n;

	while (*s) {
		if (isdigit((unsigned char)*s) || *s == '.') {
			/* skip numbers, including exponents like 1e6 */
			strtod(s, &end);
			s = end > s ? end : s + 1;
			continue;
		}
		if (!is_name_start(*s)) {
			s++;
			continue;
		}
		for (n = 0; is_name_char(s[n]); n++)
			;
		if (n >= CMN_NAME_LEN)
			return -EINVAL;
		for (i = 0; i < count; i++)
			if (strlen(names[i]) == n && !strncmp(names[i], s, n))
				break;
		if (i == count) {
			if (count == max)
				return -E2BIG;
			memcpy(names[count], s, n);
			names[count][n] = '\0';
			count++;
		}
		s += n;
	}
	return count;
}
