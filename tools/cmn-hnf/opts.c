// SPDX-License-Identifier: GPL-2.0
/*
 * The option parser every cmn-hnf command shares. A command describes its
 * options once, in a table; the same table drives getopt_long(3), the
 * checks of numbers (whole string, no overflow, within the documented
 * range) and the option list of --help, so that the help cannot name an
 * option the parser does not take. -h/--help is added to every command,
 * --json to those that ask for it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

#define OPT_HELP	'h'
#define OPT_JSON	0x100

int cmn_parse_long(const char *s, long min, long max, long *val)
{
	long long v;
	char *end;

	if (!s || !*s || *s == ' ' || *s == '+')
		return -EINVAL;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno == ERANGE || *end)
		return errno == ERANGE ? -ERANGE : -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*val = (long)v;
	return 0;
}

static void opt_label(const struct cmn_opt *o, char *buf, size_t len)
{
	int n;

	if (o->key > 0 && o->key < 0x80)
		n = snprintf(buf, len, "-%c, --%s", o->key, o->name);
	else
		n = snprintf(buf, len, "    --%s", o->name);
	if (o->arg && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, " %s", o->arg);
}

static void help_line(FILE *f, const char *label, const char *help)
{
	const char *nl;

	fprintf(f, "  %-22s", label);
	if (strlen(label) > 22)
		fprintf(f, "\n  %-22s", "");
	/* continuation lines of the help text are indented the same */
	while ((nl = strchr(help, '\n'))) {
		fprintf(f, " %.*s\n  %-22s", (int)(nl - help), help, "");
		help = nl + 1;
	}
	fprintf(f, " %s\n", help);
}

void cmn_cmd_usage(const struct cmn_cmd *cmd, FILE *f)
{
	const struct cmn_opt *o;
	char label[64];

	fprintf(f, "usage: cmn-hnf %s%s%s\n\n%s\n", cmd->name,
		cmd->synopsis ? " " : "", cmd->synopsis ? cmd->synopsis : "",
		cmd->desc);
	fputs("\nOptions:\n", f);
	for (o = cmd->opts; o && o->name; o++) {
		opt_label(o, label, sizeof(label));
		help_line(f, label, o->help);
	}
	if (cmd->json)
		help_line(f, "    --json", "machine-readable output (JSON)");
	help_line(f, "-h, --help", "this help");
	if (cmd->footer)
		fprintf(f, "\n%s", cmd->footer);
}

static int opt_error(const struct cmn_cmd *cmd, const struct cmn_opt *o,
		     const char *val)
{
	fprintf(stderr, "%s %s: --%s: '%s' is not %s\n", cmn_prog, cmd->name,
		o->name, val, o->type == CMN_OPT_LONG ? "a whole number" :
		"a valid value");
	if (o->type == CMN_OPT_LONG)
		fprintf(stderr, "%s %s: --%s takes a whole number from %ld to %ld\n",
			cmn_prog, cmd->name, o->name, o->min, o->max);
	return 2;
}

int cmn_cmd_parse(const struct cmn_cmd *cmd, int argc, char **argv,
		  FILE *out, int *first_arg)
{
	struct option lopts[CMN_MAX_OPTS + 3];
	char sopts[3 * CMN_MAX_OPTS + 4];
	const struct cmn_opt *o;
	int n = 0, s = 0, opt, ret, i;
	long v;

	for (o = cmd->opts; o && o->name && n < CMN_MAX_OPTS; o++, n++) {
		lopts[n].name = o->name;
		lopts[n].has_arg = o->arg ? required_argument : no_argument;
		lopts[n].flag = NULL;
		lopts[n].val = o->key;
		if (o->key > 0 && o->key < 0x80) {
			sopts[s++] = (char)o->key;
			if (o->arg)
				sopts[s++] = ':';
		}
	}
	lopts[n++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	if (cmd->json)
		lopts[n++] = (struct option){ "json", no_argument, NULL, OPT_JSON };
	lopts[n] = (struct option){ NULL, 0, NULL, 0 };
	sopts[s++] = 'h';
	sopts[s] = '\0';

	/* 0 re-initialises glibc's getopt: commands run more than once in tests */
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, sopts, lopts, NULL)) != -1) {
		if (opt == OPT_HELP) {
			cmn_cmd_usage(cmd, out);
			return 1;
		}
		if (opt == OPT_JSON) {
			*cmd->json = true;
			continue;
		}
		if (opt == '?' || opt == ':') {
			if (optopt && optopt < 0x80 && optopt != '?')
				fprintf(stderr, "%s %s: -%c: %s\n", cmn_prog,
					cmd->name, optopt, opt == ':' || strchr(sopts, optopt) ?
					"needs a value" : "unknown option");
			else
				fprintf(stderr, "%s %s: %s: unknown option or missing value\n",
					cmn_prog, cmd->name, argv[optind - 1]);
			fprintf(stderr, "Try 'cmn-hnf %s --help'.\n", cmd->name);
			return 2;
		}
		for (o = cmd->opts; o && o->name && o->key != opt; o++)
			;
		if (!o || !o->name)
			return 2;
		switch (o->type) {
		case CMN_OPT_FLAG:
			*(bool *)o->dest = true;
			break;
		case CMN_OPT_LONG:
			ret = cmn_parse_long(optarg, o->min, o->max, &v);
			if (ret)
				return opt_error(cmd, o, optarg);
			*(long *)o->dest = v;
			break;
		case CMN_OPT_STR:
			if (!*optarg)
				return opt_error(cmd, o, optarg);
			*(const char **)o->dest = optarg;
			break;
		case CMN_OPT_LIST: {
			struct cmn_strlist *l = o->dest;

			if (!*optarg || l->n == CMN_MAX_LIST) {
				fprintf(stderr, "%s %s: --%s: %s\n", cmn_prog,
					cmd->name, o->name, *optarg ? "given too often" :
					"empty");
				return 2;
			}
			l->v[l->n++] = optarg;
			break;
		}
		case CMN_OPT_CHOICE:
			for (i = 0; o->choices[i]; i++)
				if (!strcmp(o->choices[i], optarg))
					break;
			if (!o->choices[i]) {
				fprintf(stderr, "%s %s: --%s: '%s' is not one of:",
					cmn_prog, cmd->name, o->name, optarg);
				for (i = 0; o->choices[i]; i++)
					fprintf(stderr, " %s", o->choices[i]);
				fputc('\n', stderr);
				return 2;
			}
			*(const char **)o->dest = o->choices[i];
			break;
		}
		if (o->seen)
			*o->seen = true;
	}
	if (!cmd->args && optind < argc) {
		fprintf(stderr, "%s %s: unexpected argument '%s'\nTry 'cmn-hnf %s --help'.\n",
			cmn_prog, cmd->name, argv[optind], cmd->name);
		return 2;
	}
	*first_arg = optind;
	return 0;
}

int cmn_usage_error(const struct cmn_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: ", cmn_prog, cmd->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'cmn-hnf %s --help'.\n", cmd->name);
	return 2;
}
