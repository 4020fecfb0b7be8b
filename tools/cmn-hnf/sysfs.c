// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the arm_cmn_hnf PMUs from sysfs: type, cpumask, identifier,
 * format/, events/, the parent device and the topology files.
 *
 * The topology parsers are deliberately tolerant: comment lines, a header
 * line naming the columns (in any order), key=value tokens, decimal or
 * 0x-hex numbers. What they cannot make sense of is reported, not guessed.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmn-hnf.h"

static const char *const cmn600_revs[] = {
	"r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1",
};

const char *cmn_part_name(unsigned int part)
{
	switch (part) {
	case 0x434:
		return "CMN-600";
	case 0x438:
		return "CMN-600AE";
	default:
		return "";
	}
}

const char *cmn_rev_name(unsigned int part, unsigned int rev)
{
	if ((part == 0x434 || part == 0x438) && rev < ARRAY_SIZE(cmn600_revs))
		return cmn600_revs[rev];
	return "";
}

int cmn_parse_identifier(const char *id, unsigned int *part,
			 unsigned int *rev)
{
	unsigned long v;
	char *end;
	size_t n = strlen(id);

	/* "%03x%02x": three hex digits of part, two of revision */
	if (n != 5)
		return -EINVAL;
	v = strtoul(id, &end, 16);
	if (*end)
		return -EINVAL;
	*part = v >> 8;
	*rev = v & 0xff;
	return 0;
}

/* ---- topology text parsers ---- */

enum col { COL_LID, COL_NODEID, COL_X, COL_Y, COL_PORT, COL_DEV, COL_NONE };

static enum col col_of(const char *name)
{
	static const struct {
		const char *name;
		enum col col;
	} names[] = {
		{ "logical_id", COL_LID }, { "lid", COL_LID },
		{ "logical", COL_LID }, { "logid", COL_LID },
		{ "node_id", COL_NODEID }, { "nodeid", COL_NODEID },
		{ "nid", COL_NODEID }, { "node", COL_NODEID },
		{ "xp_x", COL_X }, { "x", COL_X },
		{ "xp_y", COL_Y }, { "y", COL_Y },
		{ "port", COL_PORT }, { "p", COL_PORT },
		{ "dev", COL_DEV }, { "device", COL_DEV }, { "d", COL_DEV },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcasecmp(name, names[i].name))
			return names[i].col;
	return COL_NONE;
}

static int parse_int_token(const char *tok, long *v)
{
	uint64_t u;

	if (cmn_parse_u64(tok, &u) || u > INT_MAX)
		return -EINVAL;
	*v = (long)u;
	return 0;
}

#define MAX_COLS 16

static int split(char *line, char **tok, int max)
{
	int n = 0;
	char *save = NULL, *t;

	for (t = strtok_r(line, " \t,;:", &save); t && n < max;
	     t = strtok_r(NULL, " \t,;:", &save))
		tok[n++] = t;
	return n;
}

/* A header names at least two known columns and has no number in it. */
static bool header_cols(char **tok, int n, enum col *cols)
{
	int i, known = 0;
	long v;

	for (i = 0; i < n; i++) {
		if (!parse_int_token(tok[i], &v))
			return false;
		cols[i] = col_of(tok[i]);
		if (cols[i] != COL_NONE)
			known++;
	}
	return known >= 2;
}

static void set_col(struct cmn_hnf_node *nd, enum col c, long v)
{
	switch (c) {
	case COL_LID:
		nd->lid = (int)v;
		break;
	case COL_NODEID:
		nd->nodeid = (unsigned int)v;
		break;
	case COL_X:
		nd->x = (int)v;
		break;
	case COL_Y:
		nd->y = (int)v;
		break;
	case COL_PORT:
		nd->port = (int)v;
		break;
	case COL_DEV:
		nd->dev = (int)v;
		break;
	default:
		break;
	}
}

int cmn_topo_parse_nodes(const char *text, struct cmn_hnf_node *nodes,
			 int max, char *why, size_t why_len)
{
	static const enum col def_cols[] = {
		COL_LID, COL_NODEID, COL_X, COL_Y, COL_PORT, COL_DEV,
	};
	enum col cols[MAX_COLS];
	char *copy, *line, *save = NULL, *tok[MAX_COLS], *eq, *p;
	int ncols = 0, n = 0, lineno = 0, i, ntok;
	bool have_node;
	long v;

	copy = strdup(text);
	if (!copy) {
		snprintf(why, why_len, "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < 6; i++)
		cols[i] = def_cols[i];
	ncols = 6;

	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		enum col hcols[MAX_COLS];
		struct cmn_hnf_node nd = {
			.lid = -1, .x = -1, .y = -1, .port = -1, .dev = -1,
		};

		lineno++;
		p = line;
		while (isspace((unsigned char)*p))
			p++;
		if (*p == '#') {
			p++;
			ntok = split(p, tok, MAX_COLS);
			if (header_cols(tok, ntok, hcols)) {
				memcpy(cols, hcols, sizeof(hcols[0]) * ntok);
				ncols = ntok;
			}
			continue;
		}
		ntok = split(p, tok, MAX_COLS);
		if (!ntok)
			continue;
		if (header_cols(tok, ntok, hcols)) {
			memcpy(cols, hcols, sizeof(hcols[0]) * ntok);
			ncols = ntok;
			continue;
		}
		have_node = false;
		for (i = 0; i < ntok; i++) {
			enum col c = i < ncols ? cols[i] : COL_NONE;

			eq = strchr(tok[i], '=');
			if (eq) {
				*eq = '\0';
				c = col_of(tok[i]);
				if (c == COL_NONE)
					continue;
				if (parse_int_token(eq + 1, &v))
					goto bad;
			} else if (c == COL_NONE) {
				continue;
			} else if (parse_int_token(tok[i], &v)) {
				/* a header we do not understand */
				if (!n && i == 0)
					break;
				goto bad;
			}
			set_col(&nd, c, v);
			if (c == COL_NODEID)
				have_node = true;
		}
		if (!have_node) {
			if (n)
				goto bad;
			continue;	/* an unknown header line */
		}
		if (n == max) {
			snprintf(why, why_len, "more than %d nodes", max);
			free(copy);
			return -E2BIG;
		}
		for (i = 0; i < n; i++) {
			if (nodes[i].nodeid == nd.nodeid)
				snprintf(why, why_len, "line %d: node id 0x%x listed twice",
					 lineno, nd.nodeid);
			else if (nd.lid >= 0 && nodes[i].lid == nd.lid)
				snprintf(why, why_len, "line %d: logical id %d listed twice",
					 lineno, nd.lid);
			else
				continue;
			free(copy);
			return -EINVAL;
		}
		if (nd.lid < 0)
			nd.lid = n;
		nodes[n++] = nd;
	}
	free(copy);
	if (!n) {
		snprintf(why, why_len, "no node lines found");
		return -ENOENT;
	}
	return n;
bad:
	snprintf(why, why_len, "line %d: cannot parse", lineno);
	free(copy);
	return -EINVAL;
}

int cmn_topo_parse_mesh(const char *text, int *x, int *y)
{
	char *copy = strdup(text), *p, *tok[MAX_COLS], *eq;
	long v, nums[2];
	int ntok, i, nn = 0;
	int kx = 0, ky = 0;

	if (!copy)
		return -ENOMEM;
	/* "3x3" -> "3 3" */
	for (p = copy; *p; p++)
		if ((*p == 'x' || *p == 'X') && p > copy &&
		    isdigit((unsigned char)p[-1]) &&
		    isdigit((unsigned char)p[1]))
			*p = ' ';
	for (p = copy; *p; p++)
		if (*p == '\n' || *p == '(' || *p == ')')
			*p = ' ';
	ntok = split(copy, tok, MAX_COLS);
	for (i = 0; i < ntok; i++) {
		eq = strchr(tok[i], '=');
		if (eq) {
			*eq = '\0';
			if (parse_int_token(eq + 1, &v)) {
				free(copy);
				return -EINVAL;
			}
			if (!strcasecmp(tok[i], "x") ||
			    !strcasecmp(tok[i], "mesh_x") ||
			    !strcasecmp(tok[i], "dim_x") ||
			    !strcasecmp(tok[i], "width"))
				kx = (int)v;
			else if (!strcasecmp(tok[i], "y") ||
				 !strcasecmp(tok[i], "mesh_y") ||
				 !strcasecmp(tok[i], "dim_y") ||
				 !strcasecmp(tok[i], "height"))
				ky = (int)v;
			else
				nn = 3;		/* an unknown key */
			continue;
		}
		if (parse_int_token(tok[i], &v) || nn == 2) {
			/* a word or a third number: not a mesh size */
			free(copy);
			return -EINVAL;
		}
		nums[nn++] = v;
	}
	free(copy);
	if (nn > 2)
		return -EINVAL;
	if (kx && ky && !nn) {
		*x = kx;
		*y = ky;
	} else if (nn == 2 && !kx && !ky) {
		*x = (int)nums[0];
		*y = (int)nums[1];
	} else {
		return -EINVAL;
	}
	if (*x < 1 || *x > 8 || *y < 1 || *y > 8)
		return -ERANGE;
	return 0;
}

/* ---- topology files of a PMU ---- */

static int read_topo_file(const char *dir, const char *const *names,
			  char *path, size_t plen, char *buf, size_t len)
{
	char first[CMN_PATH_LEN] = "";
	int i, ret, err = -ENOENT;

	for (i = 0; names[i]; i++) {
		snprintf(path, plen, "%s/%s", dir, names[i]);
		ret = cmn_read_file(path, buf, len);
		if (ret >= 0)
			return ret;
		/* a file that is there but unreadable is the error to report */
		if (ret != -ENOENT && err == -ENOENT) {
			err = ret;
			snprintf(first, sizeof(first), "%s", path);
		}
	}
	snprintf(path, plen, "%s/%s", dir, names[0]);
	if (err != -ENOENT)
		snprintf(path, plen, "%s", first);
	return err;
}

static void derive_coords(struct cmn_topo *t, struct cmn_hnf_node *nd)
{
	unsigned int b = (t->mesh_x <= 4 && t->mesh_y <= 4) ? 2 : 3;

	if (!t->mesh_x || !t->mesh_y)
		return;
	if (nd->x < 0)
		nd->x = (int)(nd->nodeid >> (3 + b)) & ((1 << b) - 1);
	if (nd->y < 0)
		nd->y = (int)(nd->nodeid >> 3) & ((1 << b) - 1);
	if (nd->port < 0)
		nd->port = (nd->nodeid >> 2) & 1;
	if (nd->dev < 0)
		nd->dev = nd->nodeid & 3;
}

void cmn_topo_load(struct cmn_topo *t, const char *dir)
{
	static const char *const hnf_names[] = {
		"hnfs", "topology/hnfs", "hnf", "topology/hnf", NULL,
	};
	static const char *const mesh_names[] = {
		"mesh", "topology/mesh", NULL,
	};
	static const char *const dtc_names[] = {
		"dtcs", "topology/dtcs", NULL,
	};
	char path[CMN_PATH_LEN], why[160];
	uint64_t count;
	char *buf;
	int ret, i, maxx = -1, maxy = -1;
	const size_t len = 64 * 1024;

	memset(t, 0, sizeof(*t));
	buf = malloc(len);
	if (!buf) {
		snprintf(t->why, sizeof(t->why), "out of memory");
		return;
	}
	ret = read_topo_file(dir, mesh_names, path, sizeof(path), buf, len);
	if (ret >= 0 && cmn_topo_parse_mesh(buf, &t->mesh_x, &t->mesh_y)) {
		/* never a guess from a file that says something else */
		t->mesh_x = 0;
		t->mesh_y = 0;
		snprintf(t->mesh_why, sizeof(t->mesh_why),
			 "%s: '%.40s' is not a mesh size (\"<x> <y>\", 1 to 8)",
			 path, buf);
	} else if (ret < 0 && ret != -ENOENT) {
		snprintf(t->mesh_why, sizeof(t->mesh_why), "%s: %s", path,
			 strerror(-ret));
	}

	/* dtcs: either a count or a node list like hnfs */
	ret = read_topo_file(dir, dtc_names, path, sizeof(path), buf, len);
	if (ret >= 0 && !cmn_parse_u64(buf, &count)) {
		t->ndtc = count < CMN_MAX_DTCS ? (int)count : CMN_MAX_DTCS;
	} else if (ret >= 0) {
		ret = cmn_topo_parse_nodes(buf, t->dtc, CMN_MAX_DTCS, why,
					   sizeof(why));
		t->ndtc = ret > 0 ? ret : 0;
		t->dtc_pos = ret > 0;
	}

	ret = read_topo_file(dir, hnf_names, path, sizeof(path), buf, len);
	if (ret == -ENOENT) {
		snprintf(t->why, sizeof(t->why),
			 "no HN-F topology file (hnfs) in %s: %s", dir,
			 strerror(-ret));
		free(buf);
		return;
	}
	if (ret < 0) {
		snprintf(t->why, sizeof(t->why), "cannot read %s: %s", path,
			 strerror(-ret));
		free(buf);
		return;
	}
	snprintf(t->file, sizeof(t->file), "%s", path);
	ret = cmn_topo_parse_nodes(buf, t->hnf, CMN_MAX_HNFS, why, sizeof(why));
	free(buf);
	if (ret < 0) {
		snprintf(t->why, sizeof(t->why), "%s: %s", path, why);
		return;
	}
	t->nhnf = ret;
	t->present = true;
	for (i = 0; i < t->nhnf; i++) {
		derive_coords(t, &t->hnf[i]);
		if (t->hnf[i].x > maxx)
			maxx = t->hnf[i].x;
		if (t->hnf[i].y > maxy)
			maxy = t->hnf[i].y;
	}
	for (i = 0; t->dtc_pos && i < t->ndtc; i++)
		derive_coords(t, &t->dtc[i]);
	for (i = 0; t->mesh_x && i < t->nhnf; i++)
		if (t->hnf[i].x < 0 || t->hnf[i].x >= t->mesh_x ||
		    t->hnf[i].y < 0 || t->hnf[i].y >= t->mesh_y)
			t->nout++;
	/* Without a mesh file, the HN-F positions give a lower bound. */
	if (!t->mesh_x && !t->mesh_why[0] && maxx >= 0 && maxy >= 0) {
		t->mesh_x = maxx + 1;
		t->mesh_y = maxy + 1;
	}
}

/* ---- PMUs ---- */

static int load_formats(struct cmn_pmu *pmu, char *why, size_t why_len)
{
	char path[CMN_PATH_LEN], val[128], fwhy[200];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/format", pmu->path);
	d = opendir(path);
	if (!d) {
		snprintf(why, why_len, "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (pmu->nfmt == CMN_MAX_FORMATS) {
			snprintf(why, why_len, "%s: too many format fields", path);
			ret = -E2BIG;
			break;
		}
		snprintf(path, sizeof(path), "%s/format/%s", pmu->path,
			 de->d_name);
		ret = cmn_read_file(path, val, sizeof(val));
		if (ret < 0) {
			snprintf(why, why_len, "%s: %s", path, strerror(-ret));
			break;
		}
		ret = cmn_fmt_parse(de->d_name, val, &pmu->fmt[pmu->nfmt], fwhy,
				    sizeof(fwhy));
		if (ret) {
			snprintf(why, why_len, "%s: %s", path, fwhy);
			break;
		}
		pmu->nfmt++;
	}
	closedir(d);
	return ret < 0 ? ret : 0;
}

static int cpu_numa_node(int cpu)
{
	char path[CMN_PATH_LEN];
	struct dirent *de;
	int node = -1;
	DIR *d;

	if (cpu < 0)
		return -1;
	cmn_sys_path(path, sizeof(path), "devices/system/cpu/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return -1;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, "node", 4) &&
		    isdigit((unsigned char)de->d_name[4]))
			node = atoi(de->d_name + 4);
	closedir(d);
	return node;
}

static int cmp_dt_dev(const void *a, const void *b)
{
	unsigned long long x = strtoull(*(char *const *)a, NULL, 16);
	unsigned long long y = strtoull(*(char *const *)b, NULL, 16);

	return x < y ? -1 : x > y;
}

/*
 * Kernels before pmu.parent (6.1) put the PMU under /sys/devices with no
 * link to its device. Find it among the devices bound to the driver the
 * way the driver numbers its PMUs (internals.rst): ACPI _UID, or the index
 * of the DT node in address order.
 */
static void guess_parent(struct cmn_pmu *pmu, char *numa_path, size_t len)
{
	char dir[CMN_PATH_LEN], path[CMN_PATH_LEN], *dt[16];
	struct dirent *de;
	int ndt = 0, i;
	long uid;
	DIR *d;

	cmn_sys_path(dir, sizeof(dir), "bus/platform/drivers/arm-cmn-hnf");
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    (!strchr(de->d_name, ':') && !strchr(de->d_name, '.')))
			continue;
		snprintf(path, sizeof(path), "%s/%s/firmware_node/uid", dir,
			 de->d_name);
		if (!cmn_read_long(path, &uid)) {
			if (uid == pmu->index && !pmu->parent[0])
				snprintf(pmu->parent, sizeof(pmu->parent), "%s",
					 de->d_name);
		} else if (strchr(de->d_name, '.') && ndt < 16) {
			dt[ndt] = strdup(de->d_name);
			if (dt[ndt])
				ndt++;
		}
	}
	closedir(d);
	if (!pmu->parent[0] && ndt && pmu->index >= 0 && pmu->index < ndt) {
		qsort(dt, ndt, sizeof(dt[0]), cmp_dt_dev);
		snprintf(pmu->parent, sizeof(pmu->parent), "%s", dt[pmu->index]);
	}
	for (i = 0; i < ndt; i++)
		free(dt[i]);
	if (pmu->parent[0])
		snprintf(numa_path, len, "%s/%s/numa_node", dir, pmu->parent);
}

static void load_parent(struct cmn_pmu *pmu)
{
	char path[CMN_PATH_LEN], real[PATH_MAX], *slash;
	char link[CMN_PATH_LEN];
	ssize_t n;
	long node;

	pmu->parent[0] = '\0';
	pmu->numa = -1;
	snprintf(path, sizeof(path), "%s/device", pmu->path);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		slash = strrchr(link, '/');
		snprintf(pmu->parent, sizeof(pmu->parent), "%s",
			 slash ? slash + 1 : link);
		snprintf(path, sizeof(path), "%s/device/numa_node", pmu->path);
	} else if (realpath(pmu->path, real)) {
		/* pmu.parent puts the PMU under its device's directory */
		slash = strrchr(real, '/');
		if (slash) {
			*slash = '\0';
			slash = strrchr(real, '/');
		}
		if (slash && strcmp(slash + 1, "devices") &&
		    strcmp(slash + 1, "platform") &&
		    strcmp(slash + 1, "event_source")) {
			snprintf(pmu->parent, sizeof(pmu->parent), "%s",
				 slash + 1);
			snprintf(path, sizeof(path), "%s/numa_node", real);
		} else {
			path[0] = '\0';
		}
	} else {
		path[0] = '\0';
	}
	if (!pmu->parent[0])
		guess_parent(pmu, path, sizeof(path));
	if (path[0] && !cmn_read_long(path, &node) && node >= 0)
		pmu->numa = (int)node;
	else
		pmu->numa = cpu_numa_node(pmu->cpu);
}

int cmn_pmu_load(struct cmn_pmu *pmu, const char *dir, const char *name,
		 char *why, size_t why_len)
{
	char path[CMN_PATH_LEN];
	long v;
	int ret;

	memset(pmu, 0, offsetof(struct cmn_pmu, err));
	pmu->broken = false;
	snprintf(pmu->name, sizeof(pmu->name), "%s", name);
	snprintf(pmu->path, sizeof(pmu->path), "%s", dir);
	pmu->index = -1;
	if (!strncmp(name, CMN_PMU_PREFIX, strlen(CMN_PMU_PREFIX)))
		pmu->index = atoi(name + strlen(CMN_PMU_PREFIX));

	snprintf(path, sizeof(path), "%s/type", dir);
	ret = cmn_read_long(path, &v);
	if (ret) {
		snprintf(why, why_len, "%s: %s", path, strerror(-ret));
		return ret;
	}
	pmu->type = (int)v;

	snprintf(path, sizeof(path), "%s/cpumask", dir);
	pmu->cpu = -1;
	if (cmn_read_file(path, pmu->cpumask, sizeof(pmu->cpumask)) >= 0)
		pmu->cpu = cmn_cpulist_first(pmu->cpumask);

	snprintf(path, sizeof(path), "%s/identifier", dir);
	if (cmn_read_file(path, pmu->identifier, sizeof(pmu->identifier)) >= 0 &&
	    !cmn_parse_identifier(pmu->identifier, &pmu->part, &pmu->rev))
		pmu->have_id = true;

	ret = load_formats(pmu, why, why_len);
	if (ret)
		return ret;
	load_parent(pmu);
	cmn_topo_load(&pmu->topo, dir);
	return 0;
}

static int cmp_pmu(const void *a, const void *b)
{
	const struct cmn_pmu *x = a, *y = b;

	return x->index - y->index;
}

int cmn_pmus_scan_all(struct cmn_pmu *pmus, int max, char *why,
		      size_t why_len)
{
	char dir[CMN_PATH_LEN], path[CMN_PATH_LEN];
	struct dirent *de;
	const char *suffix;
	int n = 0, ret = 0;
	DIR *d;

	cmn_sys_path(dir, sizeof(dir), "bus/event_source/devices");
	d = opendir(dir);
	if (!d) {
		ret = -errno;
		snprintf(why, why_len, "%s: %s", dir, strerror(errno));
		return ret;
	}
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, CMN_PMU_PREFIX, strlen(CMN_PMU_PREFIX)))
			continue;
		suffix = de->d_name + strlen(CMN_PMU_PREFIX);
		if (!*suffix || strspn(suffix, "0123456789") != strlen(suffix))
			continue;
		if (n == max) {
			snprintf(why, why_len, "%s: more than %d %s<n> PMUs", dir,
				 max, CMN_PMU_PREFIX);
			ret = -E2BIG;
			break;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (cmn_pmu_load(&pmus[n], path, de->d_name, pmus[n].err,
				 sizeof(pmus[n].err)))
			pmus[n].broken = true;
		n++;
	}
	closedir(d);
	if (ret)
		return ret;
	qsort(pmus, n, sizeof(pmus[0]), cmp_pmu);
	return n;
}

int cmn_pmus_scan(struct cmn_pmu *pmus, int max, char *why, size_t why_len)
{
	int n = cmn_pmus_scan_all(pmus, max, why, why_len), i;

	for (i = 0; i < n; i++) {
		if (pmus[i].broken) {
			snprintf(why, why_len, "%s: %s", pmus[i].name,
				 pmus[i].err);
			return -EIO;
		}
	}
	return n;
}

static bool read_alias(const struct cmn_pmu *pmu, const char *name,
		       char *buf, size_t len)
{
	char path[CMN_PATH_LEN];

	snprintf(path, sizeof(path), "%s/events/%s", pmu->path, name);
	return cmn_read_file(path, buf, len) > 0;
}

int cmn_pmu_alias_differs(const struct cmn_pmu *pmu, const char *name,
			  char *alias, size_t len)
{
	const struct cmn_event *ev = cmn_event_find(name);
	uint64_t ca[3] = { 0 }, ct[3] = { 0 };
	char terms[256], why[256];

	if (!strcmp(name, CMN_DTC_CYCLES))
		snprintf(terms, sizeof(terms), "type=0x3");
	else if (ev)
		cmn_event_terms(ev, terms, sizeof(terms));
	else
		return 0;
	if (!read_alias(pmu, name, alias, len))
		return 0;
	if (cmn_terms_apply(pmu->fmt, pmu->nfmt, alias, ca, why, sizeof(why)) ||
	    cmn_terms_apply(pmu->fmt, pmu->nfmt, terms, ct, why, sizeof(why)))
		return 0;	/* reported by cmn_pmu_event_config() */
	return memcmp(ca, ct, sizeof(ca)) != 0;
}

int cmn_pmu_event_config(const struct cmn_pmu *pmu, const char *name,
			 const char *extra_terms, uint64_t config[3],
			 char *why, size_t why_len)
{
	const struct cmn_event *ev;
	char terms[256], twhy[256];
	int ret;

	memset(config, 0, 3 * sizeof(config[0]));
	/* an alias that differs from the table: the table's meaning counts */
	if (!read_alias(pmu, name, terms, sizeof(terms)) ||
	    cmn_pmu_alias_differs(pmu, name, twhy, sizeof(twhy))) {
		if (!strcmp(name, CMN_DTC_CYCLES)) {
			snprintf(terms, sizeof(terms), "type=0x3");
		} else {
			ev = cmn_event_find(name);
			if (!ev) {
				snprintf(why, why_len, "%s: unknown event '%s'",
					 pmu->name, name);
				return -EINVAL;
			}
			cmn_event_terms(ev, terms, sizeof(terms));
		}
	}
	ret = cmn_terms_apply(pmu->fmt, pmu->nfmt, terms, config, twhy,
			      sizeof(twhy));
	if (!ret && extra_terms && *extra_terms)
		ret = cmn_terms_apply(pmu->fmt, pmu->nfmt, extra_terms, config,
				      twhy, sizeof(twhy));
	if (ret)
		snprintf(why, why_len, "%s/%s/ (%s%s%s): %s", pmu->name, name,
			 terms, extra_terms && *extra_terms ? "," : "",
			 extra_terms ? extra_terms : "", twhy);
	return ret;
}

void cmn_pmu_event_spelling(const struct cmn_pmu *pmu, const char *name,
			    char *buf, size_t len)
{
	const struct cmn_event *ev;
	char tmp[256];

	if (read_alias(pmu, name, tmp, sizeof(tmp)) &&
	    !cmn_pmu_alias_differs(pmu, name, tmp, sizeof(tmp))) {
		snprintf(buf, len, "%s", name);
	} else if (!strcmp(name, CMN_DTC_CYCLES)) {
		snprintf(buf, len, "type=0x3");
	} else {
		ev = cmn_event_find(name);
		if (ev)
			cmn_event_terms(ev, buf, len);
		else
			snprintf(buf, len, "%s", name);
	}
}
