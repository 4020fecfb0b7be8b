// SPDX-License-Identifier: GPL-2.0
/*
 * perf sysfs format strings ("config:0-7", "config1:12", "config:0-3,8-11")
 * and building attr.config from terms through them, the way perf does:
 * the value's bits fill the listed bit ranges from the lowest up.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

static int parse_num(const char **s, int *v)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)**s))
		return -EINVAL;
	n = strtol(*s, &end, 10);
	if (n < 0 || n > 63)
		return -EINVAL;
	*v = (int)n;
	*s = end;
	return 0;
}

int cmn_fmt_parse(const char *name, const char *s, struct cmn_fmt *f,
		  char *why, size_t why_len)
{
	const char *p = s;
	struct cmn_fmt_range *r;
	int word = 0;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "config", 6))
		goto bad;
	p += 6;
	if (*p >= '1' && *p <= '2')
		word = *p++ - '0';
	if (*p++ != ':')
		goto bad;
	for (;;) {
		if (f->nr == CMN_MAX_RANGES)
			goto bad;
		r = &f->r[f->nr];
		r->word = word;
		if (parse_num(&p, &r->lo))
			goto bad;
		r->hi = r->lo;
		if (*p == '-') {
			p++;
			if (parse_num(&p, &r->hi) || r->hi < r->lo)
				goto bad;
		}
		f->nr++;
		if (*p != ',')
			break;
		p++;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		goto bad;
	return 0;
bad:
	snprintf(why, why_len, "format '%s': cannot parse \"%s\"", name, s);
	return -EINVAL;
}

int cmn_fmt_apply(const struct cmn_fmt *f, uint64_t val, uint64_t config[3])
{
	uint64_t out[3] = { 0, 0, 0 };
	int i, b, used = 0;

	for (i = 0; i < f->nr; i++) {
		for (b = f->r[i].lo; b <= f->r[i].hi; b++, used++) {
			if (used < 64 && (val >> used) & 1)
				out[f->r[i].word] |= 1ULL << b;
		}
	}
	if (used < 64 && val >> used)
		return -ERANGE;
	for (i = 0; i < 3; i++)
		config[i] |= out[i];
	return 0;
}

static const struct cmn_fmt *fmt_find(const struct cmn_fmt *fmts, int nfmt,
				      const char *name)
{
	int i;

	for (i = 0; i < nfmt; i++)
		if (!strcmp(fmts[i].name, name))
			return &fmts[i];
	return NULL;
}

int cmn_terms_apply(const struct cmn_fmt *fmts, int nfmt, const char *terms,
		    uint64_t config[3], char *why, size_t why_len)
{
	char buf[256], *tok, *save = NULL, *eq;
	const struct cmn_fmt *f;
	uint64_t val;

	if (snprintf(buf, sizeof(buf), "%s", terms) >= (int)sizeof(buf)) {
		snprintf(why, why_len, "terms too long");
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		if (!*tok)
			continue;
		eq = strchr(tok, '=');
		val = 1;
		if (eq) {
			*eq = '\0';
			if (cmn_parse_u64(eq + 1, &val)) {
				snprintf(why, why_len, "term '%s': bad value '%s'",
					 tok, eq + 1);
				return -EINVAL;
			}
		}
		f = fmt_find(fmts, nfmt, tok);
		if (!f) {
			snprintf(why, why_len,
				 "term '%s': no such format field in the PMU's format/",
				 tok);
			return -EINVAL;
		}
		if (cmn_fmt_apply(f, val, config)) {
			snprintf(why, why_len,
				 "term '%s': value 0x%llx does not fit the field",
				 tok, (unsigned long long)val);
			return -EINVAL;
		}
	}
	return 0;
}
