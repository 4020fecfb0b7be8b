// SPDX-License-Identifier: GPL-2.0
/*
 * meshcheck: run the CMN-600 model's own mesh parser, hardware rules and
 * image builder (mesh.c and image.c, built for userspace with shim.h) over
 * mesh files, for the harness (tools/testing/vm/selftest.sh).
 *
 *   randmesh.py --stream FIRST COUNT | meshcheck [options]
 *	a stream of files, each after a line "#@seed <seed>"
 *   meshcheck [options] FILE...
 *	mesh files
 *
 * Every file must parse (cmn600_model_parse()), every mesh must pass
 * cmn600_model_check_trm(), give every DTC an interrupt (or leave it to
 * the harness), have 1..--max-hnfs HN-Fs, fit its region, and match the
 * "#@expect" comment lines randmesh.py writes (one per mesh, in order:
 * what the generator meant, against what the parser made of the file).
 * Every --build-every'th file is also built into an image and walked
 * from the CFG node, as a driver discovers it.
 *
 * Options:
 *   --max-hnfs N     at most N HN-Fs per mesh (the driver's limit)
 *   --build-every K  build and walk the image of every K-th file (default
 *                    16; 1: every file; 0: none)
 *   --coverage       fail unless the files covered every corner listed at
 *                    the end (sizes, revisions, DTC counts, HN-F
 *                    placements, interrupts, meshes per file)
 *   --max-errors N   stop reporting after N bad files (default 10)
 *
 * Output: one line per bad file ("meshcheck: seed <s>: <why>" or
 * "meshcheck: <file>: <why>"), then "meshcheck: <n> files, <n> meshes,
 * <n> bad, <t> s" and the coverage counts. Exit status 0 only if no file
 * was bad (and, with --coverage, every corner came up).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shim.h"
#include "cmn600_model.h"
#include "image.h"

#define MAX_EXPECT	CMN600_MODEL_MAX_MESHES
#define ERRLEN		256

enum corner {
	C_1X1, C_1XN, C_NX1, C_8X8, C_REV0, C_REV6 = C_REV0 + 6,
	C_DTC1, C_DTC4 = C_DTC1 + 3, C_HNF1, C_HNFMAX, C_FULLXP, C_PAIR,
	C_BOTHPORTS, C_PORT1, C_DEV2, C_DEV3, C_DTCN_HNF, C_SHARED, C_DISTINCT,
	C_NOIRQ, C_FILE1, C_FILE3 = C_FILE1 + 2, C_UID_UNSORTED, C_TIGHT,
	C_RNSAM, C_CXLA, C_NR,
};

static const char * const corner_names[C_NR] = {
	[C_1X1] = "1x1", [C_1XN] = "1xN", [C_NX1] = "Nx1", [C_8X8] = "8x8",
	[C_REV0] = "r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1",
	[C_DTC1] = "1-dtc", "2-dtcs", "3-dtcs", "4-dtcs",
	[C_HNF1] = "one-hnf", [C_HNFMAX] = "max-hnfs", [C_FULLXP] = "full-xp",
	[C_PAIR] = "pair-on-port", [C_BOTHPORTS] = "hnf-both-ports",
	[C_PORT1] = "hnf-port1", [C_DEV2] = "hnf-dev2", [C_DEV3] = "hnf-dev3",
	[C_DTCN_HNF] = "hnf-on-dtc>0-xp", [C_SHARED] = "shared-irq",
	[C_DISTINCT] = "distinct-irqs", [C_NOIRQ] = "irq-left-to-harness",
	[C_FILE1] = "1-mesh-file", "2-mesh-file", "3-mesh-file",
	[C_UID_UNSORTED] = "uids-unsorted", [C_TIGHT] = "size-below-default",
	[C_RNSAM] = "rn-sam", [C_CXLA] = "cxla",
};

static unsigned long cover[C_NR];
static unsigned int max_hnfs;
static unsigned int build_every = 16;
static unsigned long nr_files, nr_meshes, nr_bad, max_errors = 10;
static void *imgbuf;
static size_t imgsize;

struct expect {
	char kv[32][2][80];
	unsigned int n;
};

static __printf(2, 3) void bad(const char *who, const char *fmt, ...)
{
	va_list ap;

	nr_bad++;
	if (nr_bad > max_errors)
		return;
	fprintf(stdout, "meshcheck: %s: ", who);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

static const char *expect_get(const struct expect *e, const char *key)
{
	unsigned int i;

	for (i = 0; i < e->n; i++)
		if (!strcmp(e->kv[i][0], key))
			return e->kv[i][1];
	return NULL;
}

/* "#@expect k=v k=v ..." lines of a file, in order */
static unsigned int read_expects(const char *text, struct expect *ex)
{
	unsigned int n = 0;
	const char *p = text;

	while ((p = strstr(p, "#@expect ")) && n < MAX_EXPECT) {
		const char *end = strchr(p, '\n');
		struct expect *e = &ex[n++];
		char line[1024], *tok, *save = NULL;
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		e->n = 0;
		for (tok = strtok_r(line + 9, " ", &save); tok && e->n < 32;
		     tok = strtok_r(NULL, " ", &save)) {
			char *eq = strchr(tok, '=');

			if (!eq)
				continue;
			*eq = '\0';
			snprintf(e->kv[e->n][0], sizeof(e->kv[0][0]), "%s", tok);
			snprintf(e->kv[e->n][1], sizeof(e->kv[0][1]), "%s", eq + 1);
			e->n++;
		}
		p += len;
	}
	return n;
}

static unsigned int count_type(const struct cmn600_model_mesh *m, u16 type)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_nodes; i++)
		n += m->nodes[i].type == type;
	return n;
}

/* HN-Fs per XP, per (XP, port) */
static void hnf_layout(const struct cmn600_model_mesh *m,
		       unsigned int per_xp[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM],
		       unsigned int per_port[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM][2])
{
	unsigned int i;

	memset(per_xp, 0, sizeof(unsigned int) * CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM);
	memset(per_port, 0,
	       sizeof(unsigned int) * CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM * 2);
	for (i = 0; i < m->nr_nodes; i++) {
		const struct cmn600_model_node *n = &m->nodes[i];

		if (n->type != CMN600_MODEL_TYPE_HNF)
			continue;
		per_xp[n->x][n->y]++;
		per_port[n->x][n->y][n->port]++;
	}
}

/* DTC SPIs in lid order as "a,b,..", or "-" when none is given */
static void dtc_irqs(const struct cmn600_model_mesh *m, char *buf, size_t len)
{
	unsigned int lid, i, n = 0;
	bool any = false;

	buf[0] = '\0';
	for (lid = 0; lid < CMN600_MODEL_MAX_DTCS; lid++) {
		for (i = 0; i < m->nr_nodes; i++) {
			const struct cmn600_model_node *d = &m->nodes[i];

			if (d->type != CMN600_MODEL_TYPE_DTC || d->lid != lid)
				continue;
			n += snprintf(buf + n, len - n, "%s%u", n ? "," : "", d->irq);
			any |= d->has_irq;
		}
	}
	if (!any)
		snprintf(buf, len, "-");
}

/* Compare one mesh with what randmesh.py meant */
static int check_expect(const char *who, unsigned int idx, const struct cmn600_model_mesh *m,
			const struct expect *e)
{
	unsigned int per_xp[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	unsigned int per_port[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM][2];
	unsigned int x, y, i, xpmax = 0, dev23 = 0;
	char got[16][2][80];
	char dom[CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM + 1];
	unsigned int ng = 0, k;

	hnf_layout(m, per_xp, per_port);
	for (x = 0; x < m->x_dim; x++)
		for (y = 0; y < m->y_dim; y++)
			if (per_xp[x][y] > xpmax)
				xpmax = per_xp[x][y];
	for (i = 0; i < m->nr_nodes; i++)
		dev23 += m->nodes[i].type == CMN600_MODEL_TYPE_HNF && m->nodes[i].dev >= 2;
	i = 0;
	for (y = 0; y < m->y_dim; y++)
		for (x = 0; x < m->x_dim; x++)
			dom[i++] = '0' + m->xp_domain[x][y];
	dom[i] = '\0';

#define GOT(k, ...) do { \
		snprintf(got[ng][0], sizeof(got[0][0]), "%s", k); \
		snprintf(got[ng][1], sizeof(got[0][1]), __VA_ARGS__); \
		ng++; \
	} while (0)
	GOT("x", "%u", m->x_dim);
	GOT("y", "%u", m->y_dim);
	GOT("rev", "%s", cmn600_model_rev_name(m->rev));
	GOT("bits", "%u", cmn600_model_coord_bits(m));
	GOT("nodes", "%u", m->nr_nodes);
	GOT("hnfs", "%u", count_type(m, CMN600_MODEL_TYPE_HNF));
	GOT("dtcs", "%u", count_type(m, CMN600_MODEL_TYPE_DTC));
	GOT("hnf_xp_max", "%u", xpmax);
	GOT("dev23", "%u", dev23);
	GOT("domains", "%s", dom);
	dtc_irqs(m, got[ng][1], sizeof(got[0][1]));
	snprintf(got[ng++][0], sizeof(got[0][0]), "irqs");
	GOT("root", "0x%llx", (unsigned long long)m->root);
	GOT("uid", "%u", m->uid);
	GOT("index", "%u", idx);
#undef GOT

	for (k = 0; k < ng; k++) {
		const char *want = expect_get(e, got[k][0]);

		if (!want) {
			bad(who, "mesh %u: #@expect has no %s", idx, got[k][0]);
			return -1;
		}
		/* root and uid: "-" means the model's default */
		if (!strcmp(want, "-") &&
		    (!strcmp(got[k][0], "root") || !strcmp(got[k][0], "uid")))
			continue;
		if (strcmp(want, got[k][1])) {
			bad(who, "mesh %u: %s is %s, the generator meant %s", idx, got[k][0],
			    got[k][1], want);
			return -1;
		}
	}
	return 0;
}

static u64 rd(const void *buf, u64 off)
{
	u64 v;

	memcpy(&v, (const char *)buf + off, sizeof(v));
	return v;
}

static u64 field(u64 v, u64 mask)
{
	return (v & mask) >> __builtin_ctzll(mask);
}

/* Walk the image as a driver would: CFG -> XPs -> device nodes */
static int walk_image(const char *who, const struct cmn600_model_mesh *m,
		      const struct cmn600_model_image_info *info)
{
	u64 root = m->root, ci, xp, ni;
	unsigned int nxp, i, j, hnfs = 0, dtcs = 0, nodes = 0;

	ni = rd(imgbuf, root + CMN600M_NODE_INFO);
	if (field(ni, CMN600M_NODE_INFO_TYPE) != CMN600_MODEL_TYPE_CFG) {
		bad(who, "image: no CFG node at root 0x%llx", (unsigned long long)root);
		return -1;
	}
	if (field(rd(imgbuf, root + CMN600M_CFG_PERIPH_ID_23), CMN600M_PID2_REVISION) != m->rev) {
		bad(who, "image: revision is not %s", cmn600_model_rev_name(m->rev));
		return -1;
	}
	ci = rd(imgbuf, root + CMN600M_CHILD_INFO);
	nxp = field(ci, CMN600M_CHILD_INFO_COUNT);
	if (nxp != m->x_dim * m->y_dim) {
		bad(who, "image: CFG has %u children, not %u XPs", nxp, m->x_dim * m->y_dim);
		return -1;
	}
	for (i = 0; i < nxp; i++) {
		unsigned int x = i % m->x_dim, y = i / m->x_dim, nc;
		u16 xpid = cmn600_model_node_id(m, x, y, 0, 0);

		xp = field(rd(imgbuf, root + CMN600M_CHILD_PTRS + 8 * i), CMN600M_CHILD_PTR_ADDR);
		if (xp + CMN600_MODEL_BLOCK > info->extent) {
			bad(who, "image: XP %u at 0x%llx is outside the image", i,
			    (unsigned long long)xp);
			return -1;
		}
		ni = rd(imgbuf, xp + CMN600M_NODE_INFO);
		if (field(ni, CMN600M_NODE_INFO_TYPE) != CMN600_MODEL_TYPE_XP ||
		    field(ni, CMN600M_NODE_INFO_ID) != xpid ||
		    field(ni, CMN600M_NODE_INFO_LID) != i) {
			bad(who, "image: child %u of CFG is not XP (%u,%u) with id 0x%x, lid %u",
			    i, x, y, xpid, i);
			return -1;
		}
		ci = rd(imgbuf, xp + CMN600M_CHILD_INFO);
		nc = field(ci, CMN600M_CHILD_INFO_COUNT);
		for (j = 0; j < nc; j++) {
			u64 off = field(rd(imgbuf, xp + CMN600M_CHILD_PTRS + 8 * j),
					CMN600M_CHILD_PTR_ADDR);
			u16 id, type;

			if (off + CMN600_MODEL_BLOCK > info->extent) {
				bad(who, "image: child %u of XP (%u,%u) is outside the image",
				    j, x, y);
				return -1;
			}
			ni = rd(imgbuf, off + CMN600M_NODE_INFO);
			id = field(ni, CMN600M_NODE_INFO_ID);
			type = field(ni, CMN600M_NODE_INFO_TYPE);
			if ((id & ~7u) != xpid) {
				bad(who, "image: node id 0x%x under XP (%u,%u) (id 0x%x)", id, x, y,
				    xpid);
				return -1;
			}
			if (off != cmn600_model_node_offset(m, x, y, (id >> 2) & 1, id & 3)) {
				bad(who, "image: node 0x%x is not where its id says", id);
				return -1;
			}
			nodes++;
			hnfs += type == CMN600_MODEL_TYPE_HNF;
			dtcs += type == CMN600_MODEL_TYPE_DTC;
		}
	}
	if (nodes != m->nr_nodes || hnfs != count_type(m, CMN600_MODEL_TYPE_HNF) ||
	    dtcs != count_type(m, CMN600_MODEL_TYPE_DTC)) {
		bad(who, "image: %u nodes, %u HN-Fs, %u DTCs found, not %u, %u, %u", nodes, hnfs,
		    dtcs, m->nr_nodes, count_type(m, CMN600_MODEL_TYPE_HNF),
		    count_type(m, CMN600_MODEL_TYPE_DTC));
		return -1;
	}
	return 0;
}

static void tally(const struct cmn600_model_mesh *m)
{
	unsigned int per_xp[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	unsigned int per_port[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM][2];
	unsigned int x, y, i, j, hnfs = count_type(m, CMN600_MODEL_TYPE_HNF);
	unsigned int dtcs = count_type(m, CMN600_MODEL_TYPE_DTC);
	bool shared = false, irq = false, noirq = false;

	cover[C_1X1] += m->x_dim == 1 && m->y_dim == 1;
	cover[C_1XN] += m->x_dim == 1 && m->y_dim > 1;
	cover[C_NX1] += m->x_dim > 1 && m->y_dim == 1;
	cover[C_8X8] += m->x_dim == 8 && m->y_dim == 8;
	cover[C_REV0 + m->rev]++;
	if (dtcs >= 1 && dtcs <= 4)
		cover[C_DTC1 + dtcs - 1]++;
	cover[C_HNF1] += hnfs == 1;
	cover[C_HNFMAX] += max_hnfs && hnfs == max_hnfs;
	hnf_layout(m, per_xp, per_port);
	for (x = 0; x < m->x_dim; x++) {
		for (y = 0; y < m->y_dim; y++) {
			cover[C_FULLXP] += per_xp[x][y] == 4;
			cover[C_PAIR] += per_port[x][y][0] >= 2 || per_port[x][y][1] >= 2;
			cover[C_BOTHPORTS] += per_port[x][y][0] && per_port[x][y][1];
		}
	}
	for (i = 0; i < m->nr_nodes; i++) {
		const struct cmn600_model_node *n = &m->nodes[i];

		if (n->type == CMN600_MODEL_TYPE_HNF) {
			cover[C_PORT1] += n->port == 1;
			cover[C_DEV2] += n->dev == 2;
			cover[C_DEV3] += n->dev == 3;
			cover[C_DTCN_HNF] += m->xp_domain[n->x][n->y] > 0;
		}
		cover[C_RNSAM] += n->type == CMN600_MODEL_TYPE_RNSAM;
		cover[C_CXLA] += n->type == CMN600_MODEL_TYPE_CXLA;
		if (n->type != CMN600_MODEL_TYPE_DTC)
			continue;
		irq |= n->has_irq;
		noirq |= !n->has_irq;
		for (j = 0; j < i; j++)
			if (m->nodes[j].type == CMN600_MODEL_TYPE_DTC && m->nodes[j].has_irq &&
			    n->has_irq && m->nodes[j].irq == n->irq)
				shared = true;
	}
	cover[C_SHARED] += shared;
	cover[C_DISTINCT] += dtcs > 1 && irq && !shared;
	cover[C_NOIRQ] += noirq;
	cover[C_TIGHT] += m->size < CMN600_MODEL_DEFAULT_SIZE;
}

static void check_file(const char *who, const char *text, size_t len)
{
	struct expect ex[MAX_EXPECT];
	struct cmn600_model_file *f;
	char err[ERRLEN];
	unsigned int nex, i, l;
	bool sorted = true;
	int ret;

	nr_files++;
	ret = cmn600_model_parse(text, len, &f, err, sizeof(err));
	if (ret) {
		bad(who, "the model's parser rejects it: %s", ret == -EINVAL ? err : "no memory");
		return;
	}
	nr_meshes += f->nr_meshes;
	nex = read_expects(text, ex);
	if (nex && nex != f->nr_meshes) {
		bad(who, "%u #@expect lines for %u meshes", nex, f->nr_meshes);
		goto out;
	}
	for (i = 0; i < f->nr_meshes; i++) {
		const struct cmn600_model_mesh *m = f->meshes[i];
		struct cmn600_model_image_info info;
		unsigned int hnfs = count_type(m, CMN600_MODEL_TYPE_HNF);
		u64 ext;

		if (cmn600_model_check_trm(m, err, sizeof(err))) {
			bad(who, "mesh %u: not a CMN-600: %s", i, err);
			goto out;
		}
		for (l = 0; l < m->nr_nodes; l++) {
			if (m->nodes[l].no_irq || m->nodes[l].defer_irq) {
				bad(who, "line %u: irq=none/defer is a firmware fault",
				    m->nodes[l].line);
				goto out;
			}
		}
		if (!hnfs || (max_hnfs && hnfs > max_hnfs)) {
			bad(who, "mesh %u: %u HN-Fs, not 1..%u", i, hnfs, max_hnfs);
			goto out;
		}
		if (nex && check_expect(who, i, m, &ex[i]))
			goto out;
		ext = cmn600_model_image_extent(m, CMN600_MODEL_FAULT_NONE);
		if (ext > m->size) {
			bad(who, "mesh %u: its image needs 0x%llx bytes, the region has 0x%llx",
			    i, (unsigned long long)ext, (unsigned long long)m->size);
			goto out;
		}
		if (build_every && nr_files % build_every == 0) {
			if (ext > imgsize) {
				free(imgbuf);
				imgsize = ext;
				imgbuf = malloc(imgsize);
				if (!imgbuf) {
					fprintf(stderr, "meshcheck: out of memory\n");
					exit(2);
				}
			}
			if (cmn600_model_build(m, CMN600_MODEL_FAULT_NONE, imgbuf, imgsize,
					       &info)) {
				bad(who, "mesh %u: the image builder failed", i);
				goto out;
			}
			if (walk_image(who, m, &info))
				goto out;
		}
		tally(m);
		if (i && m->uid < f->meshes[i - 1]->uid)
			sorted = false;
	}
	if (f->nr_meshes >= 1 && f->nr_meshes <= 3)
		cover[C_FILE1 + f->nr_meshes - 1]++;
	cover[C_UID_UNSORTED] += !sorted;
out:
	cmn600_model_free(f);
}

static char *read_all(FILE *fp, size_t *len)
{
	size_t cap = 1 << 20, n = 0, r;
	char *buf = malloc(cap + 1);

	while (buf && (r = fread(buf + n, 1, cap - n, fp)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
		}
	}
	if (!buf) {
		fprintf(stderr, "meshcheck: out of memory\n");
		exit(2);
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A stream: files after "#@seed <n>" lines */
static void check_stream(char *buf, size_t len)
{
	char *p = buf, *end = buf + len;

	if (strncmp(p, "#@seed ", 7)) {
		bad("stream", "does not start with '#@seed <n>'");
		return;
	}
	while (p < end) {
		char *nl = strchr(p, '\n'), *next, who[64];
		unsigned long long seed = strtoull(p + 7, NULL, 10);

		if (!nl)
			break;
		next = strstr(nl, "\n#@seed ");
		if (next)
			*next++ = '\0';	/* the file's last newline */
		else
			next = end;
		snprintf(who, sizeof(who), "seed %llu", seed);
		check_file(who, nl + 1, strlen(nl + 1));
		p = next;
	}
}

static void check_path(const char *path)
{
	FILE *fp = fopen(path, "r");
	size_t len;
	char *buf;

	if (!fp) {
		bad(path, "%s", strerror(errno));
		return;
	}
	buf = read_all(fp, &len);
	fclose(fp);
	check_file(path, buf, len);
	free(buf);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	bool coverage = false, files = false;
	double t0 = now();
	unsigned int c, missing = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--max-hnfs") && i + 1 < argc) {
			max_hnfs = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--build-every") && i + 1 < argc) {
			build_every = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--max-errors") && i + 1 < argc) {
			max_errors = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--coverage")) {
			coverage = true;
		} else if (argv[i][0] != '-' || !argv[i][1]) {
			files = true;
			check_path(argv[i]);
		} else {
			fprintf(stderr, "usage: meshcheck [--max-hnfs N] [--build-every K] %s\n",
				"[--coverage] [--max-errors N] [FILE...]");
			return 2;
		}
	}
	if (!files) {
		size_t len;
		char *buf = read_all(stdin, &len);

		check_stream(buf, len);
		free(buf);
	}
	if (nr_bad > max_errors)
		printf("meshcheck: ... and %lu more bad files\n", nr_bad - max_errors);
	printf("meshcheck: %lu files, %lu meshes, %lu bad, %.2f s\n", nr_files, nr_meshes,
	       nr_bad, now() - t0);
	printf("meshcheck: coverage (meshes or files):");
	for (c = 0; c < C_NR; c++) {
		printf(" %s=%lu", corner_names[c], cover[c]);
		if (!cover[c] && (c != C_HNFMAX || max_hnfs))
			missing++;
	}
	printf("\n");
	if (coverage && missing) {
		printf("meshcheck: never covered:");
		for (c = 0; c < C_NR; c++)
			if (!cover[c] && (c != C_HNFMAX || max_hnfs))
				printf(" %s", corner_names[c]);
		printf("\n");
	}
	free(imgbuf);
	return nr_bad || !nr_files || (coverage && missing) ? 1 : 0;
}
