// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf: list, inspect and count the HN-F events of Arm CMN-600 meshes
 * through the arm_cmn_hnf perf PMU.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

#ifndef CMN_HNF_VERSION
#define CMN_HNF_VERSION "0.1"
#endif

struct command {
	const char *name;
	int (*fn)(int argc, char **argv, FILE *out);
	const char *summary;
};

static const struct command commands[] = {
	{ "list", cmd_list, "events, metric groups and metrics (--json)" },
	{ "topo", cmd_topo, "PMU instances, devices, NUMA nodes, mesh map (--json)" },
	{ "check", cmd_check, "diagnose driver, device binding and permissions" },
	{ "stat", cmd_stat,
	  "count HN-F events and print metrics (-I, --per-hnf, --json, --csv, --print-perf)" },
	{ "report", cmd_report,
	  "summarise a recorded stat --json run (--svg for charts)" },
	{ "top", cmd_top, "live heat map of the HN-Fs on the mesh, totals and top-N" },
	{ "metrics", cmd_metrics, "export metric definitions (--format perf-json|telemetry)" },
	{ "switch", cmd_switch,
	  "hand the CMN-600 to arm_cmn_hnf or arm_cmn (--persistent), as root" },
};

static void main_usage(FILE *f)
{
	size_t i;

	fprintf(f,
		"usage: cmn-hnf [--sysfs-root DIR] <command> [options]\n"
		"\n"
		"Tool for the arm_cmn_hnf perf PMU (Arm CMN-600 HN-F events).\n"
		"\n"
		"Commands:\n");
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n"
		"Options:\n"
		"  --sysfs-root DIR   read sysfs from DIR instead of /sys (also the\n"
		"                     CMN_HNF_SYSFS_ROOT environment variable)\n"
		"  --version          print the version\n"
		"  -h, --help         this help; 'cmn-hnf <command> --help' for a command\n");
}

/* main() without the name, so that cmn-hnf-fake (tests) can wrap it */
int cmn_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "sysfs-root", required_argument, NULL, 'r' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	size_t i;
	int opt;

	cmn_set_roots_from_env();
	while ((opt = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'r':
			cmn_sysfs_root = optarg;
			break;
		case 'V':
			printf("cmn-hnf %s\n", CMN_HNF_VERSION);
			return 0;
		case 'h':
			main_usage(stdout);
			return 0;
		default:
			main_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		main_usage(stderr);
		return 2;
	}
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(argv[optind], commands[i].name))
			return commands[i].fn(argc - optind, argv + optind,
					      stdout);
	fprintf(stderr, "%s: unknown command '%s'\n", cmn_prog, argv[optind]);
	main_usage(stderr);
	return 2;
}

#ifndef CMN_HNF_NO_MAIN
int main(int argc, char **argv)
{
	return cmn_main(argc, argv);
}
#endif
