// SPDX-License-Identifier: GPL-2.0
/*
 * cmn-hnf topo: the PMU instances and an ASCII map of each mesh with the
 * HN-F (and DTC) placement.
 */
#include <stdlib.h>
#include <string.h>

#include "cmn-hnf.h"

#define CELL_W 16

static unsigned int xp_nodeid(const struct cmn_topo *t, int x, int y)
{
	unsigned int b = (t->mesh_x <= 4 && t->mesh_y <= 4) ? 2 : 3;

	return ((unsigned int)x << (3 + b)) | ((unsigned int)y << 3);
}

static int cell_lines(const struct cmn_topo *t, int x, int y,
		      char lines[][CELL_W + 1], int max)
{
	int n = 0, i;

	snprintf(lines[n++], CELL_W + 1, "XP 0x%x", xp_nodeid(t, x, y));
	for (i = 0; t->dtc_pos && i < t->ndtc && n < max; i++)
		if (t->dtc[i].x == x && t->dtc[i].y == y)
			snprintf(lines[n++], CELL_W + 1, "DTC%d 0x%x",
				 t->dtc[i].lid, t->dtc[i].nodeid);
	for (i = 0; i < t->nhnf && n < max; i++)
		if (t->hnf[i].x == x && t->hnf[i].y == y)
			snprintf(lines[n++], CELL_W + 1, "H%d 0x%x p%dd%d",
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
	char nid[16];
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
	if (t->mesh_why[0])
		fprintf(out, "  mesh:       unknown (%s), %d HN-F%s, %d DTC%s\n",
			t->mesh_why, t->nhnf, t->nhnf == 1 ? "" : "s", t->ndtc,
			t->ndtc == 1 ? "" : "s");
	else
		fprintf(out, "  mesh:       %dx%d, %d HN-F%s, %d DTC%s\n", t->mesh_x,
			t->mesh_y, t->nhnf, t->nhnf == 1 ? "" : "s", t->ndtc,
			t->ndtc == 1 ? "" : "s");
	fprintf(out, "  HN-Fs:      lid  nodeid  xp     port dev\n");
	for (i = 0; i < t->nhnf; i++) {
		snprintf(nid, sizeof(nid), "0x%x", t->hnf[i].nodeid);
		fprintf(out, "              %3d  %6s  (%d,%d)  %4d %3d\n",
			t->hnf[i].lid, nid, t->hnf[i].x, t->hnf[i].y,
			t->hnf[i].port, t->hnf[i].dev);
	}
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

static void nodes_json(struct cmn_json *j, const char *key,
		       const struct cmn_hnf_node *n, int count)
{
	int i;

	cj_key(j, key);
	cj_arr(j);
	for (i = 0; i < count; i++) {
		cj_obj(j);
		cj_kint(j, "logical_id", n[i].lid);
		cj_kint(j, "node_id", n[i].nodeid);
		cj_kint(j, "x", n[i].x);
		cj_kint(j, "y", n[i].y);
		cj_kint(j, "port", n[i].port);
		cj_kint(j, "dev", n[i].dev);
		cj_obj_end(j);
	}
	cj_arr_end(j);
}

static void pmu_json(struct cmn_json *j, const struct cmn_pmu *p)
{
	const struct cmn_topo *t = &p->topo;

	cj_obj(j);
	cj_kstr(j, "name", p->name);
	cj_kstr(j, "identifier", p->identifier);
	cj_kstr(j, "product", p->have_id ? cmn_part_name(p->part) : "");
	cj_kstr(j, "revision", p->have_id ? cmn_rev_name(p->part, p->rev) : "");
	cj_kint(j, "type", p->type);
	cj_kstr(j, "cpumask", p->cpumask);
	cj_kint(j, "cpu", p->cpu);
	cj_key(j, "device");
	cj_str(j, p->parent[0] ? p->parent : NULL);
	cj_key(j, "numa_node");
	if (p->numa >= 0)
		cj_int(j, p->numa);
	else
		cj_null(j);
	cj_key(j, "topology");
	if (!t->present) {
		cj_null(j);
		cj_kstr(j, "topology_error", t->why);
	} else {
		cj_obj(j);
		cj_kint(j, "mesh_x", t->mesh_x);
		cj_kint(j, "mesh_y", t->mesh_y);
		nodes_json(j, "hnfs", t->hnf, t->nhnf);
		cj_kint(j, "num_dtcs", t->ndtc);
		if (t->dtc_pos)
			nodes_json(j, "dtcs", t->dtc, t->ndtc);
		cj_obj_end(j);
	}
	cj_obj_end(j);
}

int cmd_topo(int argc, char **argv, FILE *out)
{
	bool json = false;
	const struct cmn_cmd cmd = {
		.name = "topo", .synopsis = "[--json]", .json = &json,
		.desc =
		"Show every arm_cmn_hnf PMU: identifier decoded to CMN-600 rXpY, cpumask,\n"
		"parent device (e.g. ARMHC600:00), NUMA node, mesh size, the HN-F list and\n"
		"an ASCII mesh map (y grows upwards, as in the TRM) with each HN-F as\n"
		"H<logical id> <node id> p<port>d<device>.",
	};
	struct cmn_pmu *pmus;
	struct cmn_json j;
	char why[512];
	int ret, first, n, i;

	ret = cmn_cmd_parse(&cmd, argc, argv, out, &first);
	if (ret)
		return ret == 1 ? 0 : ret;
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
		cj_init(&j, out, true);
		cj_obj(&j);
		cj_key(&j, "pmus");
		cj_arr(&j);
		for (i = 0; i < n; i++)
			pmu_json(&j, &pmus[i]);
		cj_arr_end(&j);
		cj_obj_end(&j);
		cj_end(&j);
	} else {
		if (!n)
			fprintf(stderr, "%s: no %s<n> PMU found (run 'cmn-hnf check')\n",
				cmn_prog, CMN_PMU_PREFIX);
		for (i = 0; i < n; i++)
			pmu_text(out, &pmus[i]);
	}
	free(pmus);
	return n ? 0 : 1;
}
