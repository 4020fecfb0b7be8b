// SPDX-License-Identifier: GPL-2.0
/*
 * The one JSON writer of cmn-hnf, and a small parser for cmn-hnf report.
 *
 * The writer keeps the nesting and the commas, so callers only say what
 * comes next. Strings are checked as UTF-8: a byte that does not start or
 * continue a well-formed sequence (overlong forms, surrogates and code
 * points past U+10FFFF included) is written as U+FFFD, so the output is
 * always valid JSON whatever sysfs or the command line held.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

void cj_init(struct cmn_json *j, FILE *out, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->pretty = pretty;
	j->first[0] = true;
}

static void newline(struct cmn_json *j)
{
	int i;

	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Before a value or a key: the comma and the indentation */
static void sep(struct cmn_json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputc(',', j->out);
	j->first[j->depth] = false;
	if (j->depth)
		newline(j);
}

static void open(struct cmn_json *j, char c)
{
	sep(j);
	fputc(c, j->out);
	if (j->depth + 1 < CJ_MAX_DEPTH)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct cmn_json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (!empty)
		newline(j);
	fputc(c, j->out);
	if (!j->depth)
		j->first[0] = false;
}

void cj_obj(struct cmn_json *j)
{
	open(j, '{');
}

void cj_obj_end(struct cmn_json *j)
{
	close_(j, '}');
}

void cj_arr(struct cmn_json *j)
{
	open(j, '[');
}

void cj_arr_end(struct cmn_json *j)
{
	close_(j, ']');
}

/* Length of the well-formed UTF-8 sequence at @s, 0 if there is none */
size_t cmn_utf8_len(const unsigned char *s)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void cmn_json_str(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;

	fputc('"', out);
	while (*s) {
		switch (*s) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*s < 0x20 || *s == 0x7f) {
				fprintf(out, "\\u%04x", *s);
				break;
			}
			n = cmn_utf8_len(s);
			if (!n) {
				fputs("\\ufffd", out);
				break;
			}
			fwrite(s, 1, n, out);
			s += n;
			continue;
		}
		s++;
	}
	fputc('"', out);
}

void cmn_json_num(FILE *out, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", out);
	else if (v == (double)(int64_t)v && fabs(v) < 9e15)
		fprintf(out, "%lld", (long long)v);
	else
		fprintf(out, "%.10g", v);
}

void cj_key(struct cmn_json *j, const char *k)
{
	sep(j);
	cmn_json_str(j->out, k);
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

void cj_str(struct cmn_json *j, const char *s)
{
	sep(j);
	if (s)
		cmn_json_str(j->out, s);
	else
		fputs("null", j->out);
}

void cj_num(struct cmn_json *j, double v)
{
	sep(j);
	cmn_json_num(j->out, v);
}

void cj_fixed(struct cmn_json *j, double v, int decimals)
{
	sep(j);
	if (isnan(v) || isinf(v))
		fputs("null", j->out);
	else
		fprintf(j->out, "%.*f", decimals, v);
}

void cj_int(struct cmn_json *j, long long v)
{
	sep(j);
	fprintf(j->out, "%lld", v);
}

void cj_bool(struct cmn_json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->out);
}

void cj_null(struct cmn_json *j)
{
	sep(j);
	fputs("null", j->out);
}

void cj_kstr(struct cmn_json *j, const char *k, const char *v)
{
	cj_key(j, k);
	cj_str(j, v);
}

void cj_knum(struct cmn_json *j, const char *k, double v)
{
	cj_key(j, k);
	cj_num(j, v);
}

void cj_kint(struct cmn_json *j, const char *k, long long v)
{
	cj_key(j, k);
	cj_int(j, v);
}

void cj_kbool(struct cmn_json *j, const char *k, bool v)
{
	cj_key(j, k);
	cj_bool(j, v);
}

void cj_words(struct cmn_json *j, const char *k, const char *words)
{
	char w[CMN_NAME_LEN];
	const char *p = words;
	size_t n;

	cj_key(j, k);
	cj_arr(j);
	while (*p) {
		while (*p == ' ')
			p++;
		for (n = 0; p[n] && p[n] != ' ' && n + 1 < sizeof(w); n++)
			w[n] = p[n];
		w[n] = '\0';
		p += n;
		while (*p && *p != ' ')
			p++;
		if (n)
			cj_str(j, w);
	}
	cj_arr_end(j);
}

void cj_end(struct cmn_json *j)
{
	fputc('\n', j->out);
}

/* ---- parser ---- */

struct jp {
	const char *s;
	int line;
	char *why;
	size_t why_len;
};

static void jp_ws(struct jp *p)
{
	while (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' || *p->s == '\r') {
		if (*p->s == '\n')
			p->line++;
		p->s++;
	}
}

static struct cmn_jv *jp_fail(struct jp *p, const char *what)
{
	if (p->why && !p->why[0])
		snprintf(p->why, p->why_len, "%s", what);
	return NULL;
}

static struct cmn_jv *jv_new(enum cmn_jv_type t)
{
	struct cmn_jv *v = calloc(1, sizeof(*v));

	if (v)
		v->type = t;
	return v;
}

static void put_utf8(char *o, size_t *n, uint32_t cp)
{
	if (cp < 0x80) {
		o[(*n)++] = (char)cp;
	} else if (cp < 0x800) {
		o[(*n)++] = (char)(0xc0 | cp >> 6);
		o[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else if (cp < 0x10000) {
		o[(*n)++] = (char)(0xe0 | cp >> 12);
		o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*n)++] = (char)(0x80 | (cp & 0x3f));
	} else {
		o[(*n)++] = (char)(0xf0 | cp >> 18);
		o[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3f));
		o[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[(*n)++] = (char)(0x80 | (cp & 0x3f));
	}
}

static int hex4(const char *s, uint32_t *cp)
{
	int i;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		*cp = *cp * 16 + (isdigit((unsigned char)s[i]) ? s[i] - '0' :
				  tolower((unsigned char)s[i]) - 'a' + 10);
	}
	return 0;
}

static char *jp_string(struct jp *p)
{
	const char *s = p->s + 1;
	size_t n = 0, cap = 16;
	char *o = malloc(cap), *t;
	uint32_t cp, lo;

	if (!o)
		return NULL;
	for (;;) {
		if (n + 8 > cap) {
			cap *= 2;
			t = realloc(o, cap);
			if (!t)
				goto bad;
			o = t;
		}
		if (!*s || (unsigned char)*s < 0x20)
			goto bad;
		if (*s == '"')
			break;
		if (*s != '\\') {
			o[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case '"': case '\\': case '/':
			o[n++] = *s;
			break;
		case 'b':
			o[n++] = '\b';
			break;
		case 'f':
			o[n++] = '\f';
			break;
		case 'n':
			o[n++] = '\n';
			break;
		case 'r':
			o[n++] = '\r';
			break;
		case 't':
			o[n++] = '\t';
			break;
		case 'u':
			if (hex4(s + 1, &cp))
				goto bad;
			s += 4;
			if (cp >= 0xd800 && cp <= 0xdbff && s[1] == '\\' &&
			    s[2] == 'u' && !hex4(s + 3, &lo) && lo >= 0xdc00 &&
			    lo <= 0xdfff) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				s += 6;
			}
			if (cp >= 0xd800 && cp <= 0xdfff)
				cp = 0xfffd;
			put_utf8(o, &n, cp);
			break;
		default:
			goto bad;
		}
		s++;
	}
	o[n] = '\0';
	p->s = s + 1;
	return o;
bad:
	free(o);
	return NULL;
}

static struct cmn_jv *jp_value(struct jp *p, int depth);

static struct cmn_jv *jp_container(struct jp *p, int depth, bool obj)
{
	struct cmn_jv *v = jv_new(obj ? CJV_OBJ : CJV_ARR), *c, **tail;
	char *key = NULL;

	if (!v)
		return jp_fail(p, "out of memory");
	tail = &v->child;
	p->s++;
	jp_ws(p);
	if (*p->s == (obj ? '}' : ']')) {
		p->s++;
		return v;
	}
	for (;;) {
		jp_ws(p);
		if (obj) {
			key = *p->s == '"' ? jp_string(p) : NULL;
			if (!key) {
				cmn_jv_free(v);
				return jp_fail(p, "expected a string key");
			}
			jp_ws(p);
			if (*p->s != ':') {
				free(key);
				cmn_jv_free(v);
				return jp_fail(p, "expected ':'");
			}
			p->s++;
		}
		c = jp_value(p, depth + 1);
		if (!c) {
			free(key);
			cmn_jv_free(v);
			return NULL;
		}
		c->key = key;
		key = NULL;
		*tail = c;
		tail = &c->next;
		v->n++;
		jp_ws(p);
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == (obj ? '}' : ']')) {
			p->s++;
			return v;
		}
		cmn_jv_free(v);
		return jp_fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static struct cmn_jv *jp_value(struct jp *p, int depth)
{
	struct cmn_jv *v;
	char *end;

	if (depth > 64)
		return jp_fail(p, "nested too deeply");
	jp_ws(p);
	switch (*p->s) {
	case '{':
		return jp_container(p, depth, true);
	case '[':
		return jp_container(p, depth, false);
	case '"':
		v = jv_new(CJV_STR);
		if (!v)
			return jp_fail(p, "out of memory");
		v->str = jp_string(p);
		if (!v->str) {
			free(v);
			return jp_fail(p, "bad string");
		}
		return v;
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "null", 4) ||
		    !strncmp(p->s, "false", 5)) {
			v = jv_new(*p->s == 'n' ? CJV_NULL : CJV_BOOL);
			if (!v)
				return jp_fail(p, "out of memory");
			v->num = *p->s == 't';
			p->s += *p->s == 'f' ? 5 : 4;
			return v;
		}
		return jp_fail(p, "unexpected word");
	default:
		if (*p->s != '-' && !isdigit((unsigned char)*p->s))
			return jp_fail(p, "unexpected character");
		v = jv_new(CJV_NUM);
		if (!v)
			return jp_fail(p, "out of memory");
		errno = 0;
		v->num = strtod(p->s, &end);
		if (end == p->s) {
			free(v);
			return jp_fail(p, "bad number");
		}
		p->s = end;
		return v;
	}
}

struct cmn_jv *cmn_jv_parse(const char *text, char *why, size_t why_len)
{
	struct jp p = { .s = text, .line = 1, .why = why, .why_len = why_len };
	struct cmn_jv *v;

	if (why && why_len)
		why[0] = '\0';
	v = jp_value(&p, 0);
	if (!v)
		return NULL;
	jp_ws(&p);
	if (*p.s) {
		cmn_jv_free(v);
		return jp_fail(&p, "trailing characters");
	}
	return v;
}

void cmn_jv_free(struct cmn_jv *v)
{
	struct cmn_jv *c, *n;

	if (!v)
		return;
	for (c = v->child; c; c = n) {
		n = c->next;
		cmn_jv_free(c);
	}
	free(v->key);
	free(v->str);
	free(v);
}

const struct cmn_jv *cmn_jv_get(const struct cmn_jv *obj, const char *key)
{
	const struct cmn_jv *c;

	if (!obj || obj->type != CJV_OBJ)
		return NULL;
	for (c = obj->child; c; c = c->next)
		if (!strcmp(c->key, key))
			return c;
	return NULL;
}

double cmn_jv_num(const struct cmn_jv *v)
{
	return v && v->type == CJV_NUM ? v->num : NAN;
}

const char *cmn_jv_str(const struct cmn_jv *v)
{
	return v && v->type == CJV_STR ? v->str : NULL;
}
