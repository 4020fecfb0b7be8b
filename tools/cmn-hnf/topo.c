// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf topo: the PMU instances and an ASCII map of each mesh with the
 * HN-F (and DTC) placement.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

#define CELL_W 16

static void topo_usage(FILE *f)
{
	fprintf(f,
		"usage: cmn-hnf topo [--json]\n"
		"\n"
		"Show every arm_cmn_hnf PMU: identifier decoded to CMN-600 rXpY, cpumask,\n"
		"parent device (e.g. ARMHC600:00), NUMA node, mesh size, the HN-F list and\n"
		"an ASCII mesh map (y grows upwards, as in the TRM) with each HN-F as\n"
		"H<logical id> <node id> p<port>d<device>.\n"
		"\n"
		"      --json    machine-readable output\n"
		"  -h, --help    this help\n");
}

static unsigned int xp_nodeid(const struct cmn_topo *t, int x, int y)
{
	unsigned int b = (t->mesh_x <= 4 && t->mesh_y <= 4) ? 2 : 3;

	return ((unsigned int)x << (3 + b)) | ((unsigned int)y << 3);
}

static int cell_lines(const struct cmn_topo *t, int x, int y,
		      char lines[][CELL_W + 1], int max)
{
	int n = 0, i;

	snprintf(lines[n++], CELL_W + 1, "XP %#x", xp_nodeid(t, x, y));
	for (i = 0; t->dtc_pos && i < t->ndtc && n < max; i++)
		if (t->dtc[i].x == x && t->dtc[i].y == y)
			snprintf(lines[n++], CELL_W + 1, "DTC%d %#x",
				 t->dtc[i].lid, t->dtc[i].nodeid);
	for (i = 0; i < t->nhnf && n < max; i++)
		if (t->hnf[i].x == x && t->hnf[i].y == y)
			snprintf(lines[n++], CELL_W + 1, "H%d %#x p%dd%d",
				 t->hnf[i].lid, t->hnf[i].nodeid,
				 t->hnf[i].port, t->hnf[i].dev);
	return n;
}

static void hrule(FILE *out, int nx)
{
	int x, k;

	fputs("      +", out);
	for (x = 0; x < nx; x++) {
		for (k = 0; k < CELL_W; k++)
			fputc('-', out);
		fputc('+', out);
	}
	fputc('\n', out);
}

void cmn_topo_map(FILE *out, const struct cmn_topo *t)
{
	char lines[8][8][CELL_W + 1];
	int nl[8], x, y, l, maxl;

	if (t->mesh_x < 1 || t->mesh_x > 8 || t->mesh_y < 1 || t->mesh_y > 8)
		return;
	fputs("      ", out);
	for (x = 0; x < t->mesh_x; x++)
		fprintf(out, " x=%-*d", CELL_W - 2, x);
	fputc('\n', out);
	hrule(out, t->mesh_x);
	for (y = t->mesh_y - 1; y >= 0; y--) {
		maxl = 0;
		for (x = 0; x < t->mesh_x; x++) {
			nl[x] = cell_lines(t, x, y, lines[x], 8);
			if (nl[x] > maxl)
				maxl = nl[x];
		}
		for (l = 0; l < maxl; l++) {
			if (l == 0)
				fprintf(out, "  y=%d |", y);
			else
				fputs("      |", out);
			for (x = 0; x < t->mesh_x; x++)
				fprintf(out, "%-*s|", CELL_W,
					l < nl[x] ? lines[x][l] : "");
			fputc('\n', out);
		}
		hrule(out, t->mesh_x);
	}
}

static void pmu_text(FILE *out, const struct cmn_pmu *p)
{
	const struct cmn_topo *t = &p->topo;
	int i;

	fprintf(out, "%s:\n", p->name);
	if (p->have_id)
		fprintf(out, "  product:    %s %s (identifier %s)\n",
			*cmn_part_name(p->part) ? cmn_part_name(p->part) :
			"unknown part",
			cmn_rev_name(p->part, p->rev), p->identifier);
	else
		fprintf(out, "  product:    unknown (identifier '%s')\n",
			p->identifier);
	fprintf(out, "  perf type:  %d\n", p->type);
	fprintf(out, "  cpumask:    %s\n", p->cpumask[0] ? p->cpumask : "(none)");
	fprintf(out, "  device:     %s\n", p->parent[0] ? p->parent : "(unknown)");
	if (p->numa >= 0)
		fprintf(out, "  NUMA node:  %d\n", p->numa);
	else
		fputs("  NUMA node:  (unknown)\n", out);
	if (!t->present) {
		fprintf(out, "  topology:   %s\n\n", t->why);
		return;
	}
	fprintf(out, "  mesh:       %dx%d, %d HN-F%s, %d DTC%s\n", t->mesh_x,
		t->mesh_y, t->nhnf, t->nhnf == 1 ? "" : "s", t->ndtc,
		t->ndtc == 1 ? "" : "s");
	fprintf(out, "  HN-Fs:      lid  nodeid  xp     port dev\n");
	for (i = 0; i < t->nhnf; i++)
		fprintf(out, "              %3d  %#6x  (%d,%d)  %4d %3d\n",
			t->hnf[i].lid, t->hnf[i].nodeid, t->hnf[i].x,
			t->hnf[i].y, t->hnf[i].port, t->hnf[i].dev);
	for (i = 0; i < t->nhnf; i++)
		if (t->hnf[i].x < 0 || t->hnf[i].x >= t->mesh_x ||
		    t->hnf[i].y < 0 || t->hnf[i].y >= t->mesh_y)
			fprintf(out, "  warning:    HN-F %d at (%d,%d) is outside the %dx%d mesh\n",
				t->hnf[i].lid, t->hnf[i].x, t->hnf[i].y,
				t->mesh_x, t->mesh_y);
	fputc('\n', out);
	cmn_topo_map(out, t);
	fputc('\n', out);
}

static void nodes_json(FILE *out, const struct cmn_hnf_node *n, int count)
{
	int i;

	fputc('[', out);
	for (i = 0; i < count; i++)
		fprintf(out,
			"%s{\"logical_id\": %d, \"node_id\": %u, \"x\": %d, \"y\": %d, \"port\": %d, \"dev\": %d}",
			i ? ", " : "", n[i].lid, n[i].nodeid, n[i].x, n[i].y,
			n[i].port, n[i].dev);
	fputc(']', out);
}

static void pmu_json(FILE *out, const struct cmn_pmu *p, bool last)
{
	const struct cmn_topo *t = &p->topo;

	fputs("    {\"name\": ", out);
	cmn_json_str(out, p->name);
	fputs(", \"identifier\": ", out);
	cmn_json_str(out, p->identifier);
	fputs(", \"product\": ", out);
	cmn_json_str(out, p->have_id ? cmn_part_name(p->part) : "");
	fputs(", \"revision\": ", out);
	cmn_json_str(out, p->have_id ? cmn_rev_name(p->part, p->rev) : "");
	fprintf(out, ", \"type\": %d, \"cpumask\": ", p->type);
	cmn_json_str(out, p->cpumask);
	fprintf(out, ", \"cpu\": %d, \"device\": ", p->cpu);
	if (p->parent[0])
		cmn_json_str(out, p->parent);
	else
		fputs("null", out);
	fputs(", \"numa_node\": ", out);
	if (p->numa >= 0)
		fprintf(out, "%d", p->numa);
	else
		fputs("null", out);
	fputs(",\n     \"topology\": ", out);
	if (!t->present) {
		fputs("null, \"topology_error\": ", out);
		cmn_json_str(out, t->why);
	} else {
		fprintf(out, "{\"mesh_x\": %d, \"mesh_y\": %d, \"hnfs\": ",
			t->mesh_x, t->mesh_y);
		nodes_json(out, t->hnf, t->nhnf);
		fprintf(out, ", \"num_dtcs\": %d", t->ndtc);
		if (t->dtc_pos) {
			fputs(", \"dtcs\": ", out);
			nodes_json(out, t->dtc, t->ndtc);
		}
		fputc('}', out);
	}
	fprintf(out, "}%s\n", last ? "" : ",");
}

int cmd_topo(int argc, char **argv, FILE *out)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct cmn_pmu *pmus;
	bool json = false;
	char why[512];
	int opt, n, i;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'j':
			json = true;
			break;
		case 'h':
			topo_usage(out);
			return 0;
		default:
			topo_usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		topo_usage(stderr);
		return 2;
	}
	pmus = calloc(CMN_MAX_PMUS, sizeof(*pmus));
	if (!pmus)
		return 1;
	n = cmn_pmus_scan(pmus, CMN_MAX_PMUS, why, sizeof(why));
	if (n < 0) {
		fprintf(stderr, "%s: %s\n", cmn_prog, why);
		free(pmus);
		return 1;
	}
	if (json) {
		fputs("{\n  \"pmus\": [\n", out);
		for (i = 0; i < n; i++)
			pmu_json(out, &pmus[i], i + 1 == n);
		fputs("  ]\n}\n", out);
	} else {
		if (!n)
			fprintf(out, "no %s<n> PMU found (run 'cmn-hnf check')\n",
				CMN_PMU_PREFIX);
		for (i = 0; i < n; i++)
			pmu_text(out, &pmus[i]);
	}
	free(pmus);
	return n ? 0 : 1;
}
