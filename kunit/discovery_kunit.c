// SPDX-License-Identifier: GPL-2.0
/*
 * The discovery walk on configuration images built by the CMN-600 model
 * (tools/testing/cmn600-model) from the same mesh descriptions the guest
 * tests use. Every expectation is computed from the parsed description
 * with the model's own helpers (which share no code with the driver), not
 * written as literals.
 */
#include <linux/kernel.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <kunit/resource.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "cmn600_model.h"
#include "image.h"
#include "suites.h"

#define WHY_LEN		160

/* A configuration image and the reader the walk uses on it */
struct img {
	const struct cmn600_model_mesh *mesh;
	u8 *buf;
	u64 len;	/* bytes built; reads above return 0, as unused space */
	u64 size;	/* the region the driver was given */
	unsigned int bad_reads;
	u32 first_bad;
	unsigned int reads;
};

static u64 img_read(void *ctx, u32 off)
{
	struct img *im = ctx;

	im->reads++;
	if (off & 7 || (u64)off + 8 > im->size) {
		if (!im->bad_reads++)
			im->first_bad = off;
		return ~0ULL;
	}
	if ((u64)off + 8 > im->len)
		return 0;
	return *(u64 *)(im->buf + off);
}

static u64 img_reg(struct img *im, u64 off)
{
	return *(u64 *)(im->buf + off);
}

static void img_set(struct img *im, u64 off, u64 val)
{
	*(u64 *)(im->buf + off) = val;
}

static void vfree_action(void *p)
{
	vfree(p);
}

static void model_free_action(void *p)
{
	cmn600_model_free(p);
}

static struct cmn600_model_file *parse_text(struct kunit *test, const char *text)
{
	struct cmn600_model_file *file = NULL;
	char err[128] = "";
	int ret;

	ret = cmn600_model_parse(text, strlen(text), &file, err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "mesh text does not parse: %s", err);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, model_free_action, file), 0);
	return file;
}

static struct cmn600_model_file *parse_builtin(struct kunit *test, const char *name)
{
	const char *text = cmn600_model_builtin_text(name);

	KUNIT_ASSERT_NOT_NULL_MSG(test, text, "no shipped mesh %s", name);
	return parse_text(test, text);
}

/* Build @mesh with @fault into a fresh buffer */
static struct img *build(struct kunit *test, const struct cmn600_model_mesh *mesh,
			 enum cmn600_model_fault fault)
{
	struct img *im = kunit_kzalloc(test, sizeof(*im), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, im);
	im->mesh = mesh;
	im->size = mesh->size;
	im->len = cmn600_model_image_extent(mesh, fault);
	KUNIT_ASSERT_GT(test, im->len, 0ULL);
	KUNIT_ASSERT_LE(test, im->len, mesh->size);
	im->buf = vmalloc(im->len);
	KUNIT_ASSERT_NOT_NULL(test, im->buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, vfree_action, im->buf), 0);
	KUNIT_ASSERT_EQ(test, cmn600_model_build(mesh, fault, im->buf, im->len, NULL), 0);
	return im;
}

/* Give the (up to 64 MiB) buffer back before the test ends */
static void release_image(struct kunit *test, struct img *im)
{
	kunit_release_action(test, vfree_action, im->buf);
	im->buf = NULL;
}

static struct cmn_hnf_topology *new_topo(struct kunit *test)
{
	struct cmn_hnf_topology *topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, topo);
	return topo;
}

static int discover(struct img *im, struct cmn_hnf_topology *topo, char *why)
{
	return cmn_hnf_discover(img_read, im, im->size, im->mesh->root, topo, why, WHY_LEN);
}

/* A why line: non-empty, one line, names an offset */
static void expect_why(struct kunit *test, const char *why)
{
	KUNIT_EXPECT_GT(test, strlen(why), 0UL);
	KUNIT_EXPECT_NULL(test, strchr(why, '\n'));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "0x"), "why: %s", why);
}

/* The model's description nodes of @type, sorted by logical id */
static int cmp_node_lid(const void *a, const void *b)
{
	const struct cmn600_model_node *na = *(const struct cmn600_model_node * const *)a;
	const struct cmn600_model_node *nb = *(const struct cmn600_model_node * const *)b;

	return (int)na->lid - (int)nb->lid;
}

static unsigned int nodes_of(const struct cmn600_model_mesh *m, u16 type,
			     const struct cmn600_model_node **out)
{
	unsigned int i, n = 0;

	for (i = 0; i < m->nr_nodes; i++)
		if (m->nodes[i].type == type)
			out[n++] = &m->nodes[i];
	sort(out, n, sizeof(*out), cmp_node_lid, NULL);
	return n;
}

/* Check one discovered node against its description line */
static void expect_node(struct kunit *test, const struct cmn600_model_mesh *m,
			const struct cmn_hnf_topology *topo,
			const struct cmn_hnf_node_desc *got,
			const struct cmn600_model_node *want, bool check_id)
{
	const struct cmn_hnf_xp_desc *xp;

	KUNIT_EXPECT_EQ(test, (u64)got->offset,
			cmn600_model_node_offset(m, want->x, want->y, want->port, want->dev));
	if (check_id)
		KUNIT_EXPECT_EQ(test, got->node_id,
				cmn600_model_node_id(m, want->x, want->y, want->port,
						     want->dev));
	KUNIT_EXPECT_EQ(test, got->logical_id, want->lid);
	KUNIT_EXPECT_EQ(test, got->port, want->port);
	KUNIT_EXPECT_EQ(test, got->dev, want->dev);
	KUNIT_ASSERT_LT(test, (unsigned int)got->xp, topo->num_xps);
	xp = &topo->xp[got->xp];
	KUNIT_EXPECT_EQ_MSG(test, xp->x, want->x, "node at 0x%x", got->offset);
	KUNIT_EXPECT_EQ_MSG(test, xp->y, want->y, "node at 0x%x", got->offset);
}

/*
 * Everything discovery reports, against the description. With
 * @mismatch_lid >= 0 the HN-F of that logical id has a falsified node id
 * (nodeid_mismatch fault) and is checked for everything else.
 */
static void expect_topology(struct kunit *test, const struct cmn600_model_mesh *m,
			    const struct cmn_hnf_topology *topo, int mismatch_lid)
{
	const struct cmn600_model_node **list;
	unsigned int seen[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM] = {};
	unsigned int i, n, x, y;

	list = kunit_kcalloc(test, CMN600_MODEL_MAX_NODES, sizeof(*list), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, list);

	KUNIT_EXPECT_EQ(test, topo->part, CMN_PART_CMN600);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->revision, m->rev);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->mesh_x, m->x_dim);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->mesh_y, m->y_dim);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->coord_bits, cmn600_model_coord_bits(m));
	KUNIT_ASSERT_EQ(test, topo->num_xps, m->x_dim * m->y_dim);

	for (i = 0; i < topo->num_xps; i++) {
		const struct cmn_hnf_xp_desc *xp = &topo->xp[i];

		x = xp->x;
		y = xp->y;
		KUNIT_ASSERT_LT(test, x, m->x_dim);
		KUNIT_ASSERT_LT(test, y, m->y_dim);
		seen[x][y]++;
		KUNIT_EXPECT_EQ(test, (u64)xp->offset, cmn600_model_xp_offset(m, x, y));
		KUNIT_EXPECT_EQ(test, xp->node_id, cmn600_model_node_id(m, x, y, 0, 0));
		/* internals.rst: XPs get row-major logical ids */
		KUNIT_EXPECT_EQ(test, (unsigned int)xp->logical_id, y * m->x_dim + x);
		KUNIT_EXPECT_EQ(test, xp->port_type[0], m->connect[x][y][0]);
		KUNIT_EXPECT_EQ(test, xp->port_type[1], m->connect[x][y][1]);
	}
	for (x = 0; x < m->x_dim; x++)
		for (y = 0; y < m->y_dim; y++)
			KUNIT_EXPECT_EQ_MSG(test, seen[x][y], 1U, "XP (%u,%u)", x, y);

	n = nodes_of(m, CMN600_MODEL_TYPE_HNF, list);
	KUNIT_ASSERT_EQ(test, topo->num_hnfs, n);
	for (i = 0; i < n; i++)
		expect_node(test, m, topo, &topo->hnf[i], list[i],
			    (int)list[i]->lid != mismatch_lid);

	n = nodes_of(m, CMN600_MODEL_TYPE_DTC, list);
	KUNIT_ASSERT_EQ(test, topo->num_dtcs, n);
	for (i = 0; i < n; i++) {
		expect_node(test, m, topo, &topo->dtc[i], list[i], true);
		KUNIT_EXPECT_EQ(test, topo->dtc[i].logical_id, i);
		KUNIT_EXPECT_EQ(test, topo->xp[topo->dtc[i].xp].dtc, (s8)i);
	}
	/* An XP without a DTC says so */
	for (i = 0; i < topo->num_xps; i++) {
		int d = topo->xp[i].dtc;

		if (d < 0)
			continue;
		KUNIT_ASSERT_LT(test, d, (int)topo->num_dtcs);
		KUNIT_EXPECT_EQ(test, (unsigned int)topo->dtc[d].xp, i);
	}

	/* find_hnf finds every HN-F by its node id */
	for (i = 0; i < topo->num_hnfs; i++)
		KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, topo->hnf[i].node_id), (int)i);
}

/* ---- the shipped meshes, intact and with every fault ---- */

static const char * const shipped[] = {
	"1x1", "2x2", "3x3", "4x2-2dtc", "8x8-32hnf-4dtc", "two-mesh", "default",
};

static void shipped_desc(const char * const *name, char *desc)
{
	strscpy(desc, *name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shipped, shipped, shipped_desc);

static void cmn_hnf_test_discovery_shipped(struct kunit *test)
{
	const char * const *name = test->param_value;
	struct cmn600_model_file *file = parse_builtin(test, *name);
	struct cmn_hnf_topology *topo = new_topo(test);
	char why[WHY_LEN];
	unsigned int i;
	struct img *im;

	KUNIT_ASSERT_GE(test, file->nr_meshes, 1U);
	if (!strcmp(*name, "two-mesh"))
		KUNIT_EXPECT_EQ(test, file->nr_meshes, 2U);

	for (i = 0; i < file->nr_meshes; i++) {
		im = build(test, file->meshes[i], CMN600_MODEL_FAULT_NONE);
		KUNIT_ASSERT_EQ_MSG(test, discover(im, topo, why), 0,
				    "%s mesh %u: %s", *name, i, why);
		KUNIT_EXPECT_STREQ(test, why, "");
		KUNIT_EXPECT_EQ(test, im->bad_reads, 0U);
		expect_topology(test, file->meshes[i], topo, -1);
		release_image(test, im);
	}
}

struct fault_case {
	enum cmn600_model_fault fault;
	const char *name;
	int ret;
};

static const struct fault_case fault_cases[] = {
	{ CMN600_MODEL_FAULT_CHILD_LOOP, "child_loop", -ENODEV },
	{ CMN600_MODEL_FAULT_CHILD_COUNT, "child_count", -ENODEV },
	{ CMN600_MODEL_FAULT_CHILD_OOB, "child_oob", -ENODEV },
	{ CMN600_MODEL_FAULT_ROOT_NOT_CFG, "root_not_cfg", -ENODEV },
	{ CMN600_MODEL_FAULT_UNKNOWN_TYPE, "unknown_type", 0 },
	{ CMN600_MODEL_FAULT_NO_DTC, "no_dtc", -ENODEV },
	{ CMN600_MODEL_FAULT_NODEID_MISMATCH, "nodeid_mismatch", 0 },
	{ CMN600_MODEL_FAULT_GARBAGE_COUNTERS, "garbage_counters", 0 },
};

static void fault_desc(const struct fault_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(fault, fault_cases, fault_desc);

/* The HN-F the nodeid_mismatch fault falsifies: the lowest logical id */
static const struct cmn600_model_node *lowest_hnf(const struct cmn600_model_mesh *m)
{
	const struct cmn600_model_node *best = NULL;
	unsigned int i;

	for (i = 0; i < m->nr_nodes; i++)
		if (m->nodes[i].type == CMN600_MODEL_TYPE_HNF &&
		    (!best || m->nodes[i].lid < best->lid))
			best = &m->nodes[i];
	return best;
}

/* Every fault on every shipped mesh */
static void cmn_hnf_test_discovery_faults(struct kunit *test)
{
	const struct fault_case *c = test->param_value;
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn600_model_file *file;
	const struct cmn600_model_mesh *m;
	unsigned int f, i;
	char why[WHY_LEN];
	char expect[32];
	struct img *im;
	int ret;

	KUNIT_EXPECT_STREQ(test, cmn600_model_fault_name(c->fault), c->name);

	for (f = 0; f < ARRAY_SIZE(shipped); f++) {
		file = parse_builtin(test, shipped[f]);
		for (i = 0; i < file->nr_meshes; i++) {
			m = file->meshes[i];
			im = build(test, m, c->fault);
			ret = discover(im, topo, why);
			KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "%s mesh %u: %s",
					    shipped[f], i, why);
			KUNIT_EXPECT_EQ_MSG(test, im->bad_reads, 0U, "%s: read at 0x%x",
					    shipped[f], im->first_bad);
			if (ret) {
				expect_why(test, why);
				switch (c->fault) {
				case CMN600_MODEL_FAULT_CHILD_COUNT:
					snprintf(expect, sizeof(expect), "%u", 0xffff);
					break;
				case CMN600_MODEL_FAULT_CHILD_OOB:
					snprintf(expect, sizeof(expect), "0x%llx", m->size);
					break;
				default:
					/* The root's offset: the node that is wrong */
					snprintf(expect, sizeof(expect), "0x%llx", m->root);
					break;
				}
				KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, expect),
							  "%s: why \"%s\" lacks %s",
							  shipped[f], why, expect);
				release_image(test, im);
				continue;
			}
			KUNIT_EXPECT_STREQ(test, why, "");
			expect_topology(test, m, topo,
					c->fault == CMN600_MODEL_FAULT_NODEID_MISMATCH ?
					lowest_hnf(m)->lid : -1);
			if (c->fault == CMN600_MODEL_FAULT_NODEID_MISMATCH) {
				const struct cmn600_model_node *n = lowest_hnf(m);

				/* The falsified id really is not the parent's */
				KUNIT_EXPECT_NE(test, topo->hnf[0].node_id,
						cmn600_model_node_id(m, n->x, n->y, n->port,
								     n->dev));
			}
			release_image(test, im);
		}
		kunit_release_action(test, model_free_action, file);
	}
}

/* ---- mesh sizes ---- */

/*
 * Every size 1x1..8x8, with a DTC at (0,0) and an HN-F on the far corner:
 * the mesh size comes out of the XP node ids alone. This includes the
 * pairs whose XP ids are the same set (2x4/1x8 and 4x4/2x8).
 */
static void cmn_hnf_test_discovery_every_size(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn600_model_file *file;
	char *text, why[WHY_LEN];
	unsigned int x, y;
	struct img *im;

	text = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	for (x = 1; x <= CMN_HNF_MAX_DIM; x++) {
		for (y = 1; y <= CMN_HNF_MAX_DIM; y++) {
			snprintf(text, 256,
				 "mesh x=%u y=%u\nnode dtc 0 0 0 0 lid=0\nnode hn-f %u %u 1 1\n",
				 x, y, x - 1, y - 1);
			file = parse_text(test, text);
			im = build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
			KUNIT_ASSERT_EQ_MSG(test, discover(im, topo, why), 0,
					    "%ux%u: %s", x, y, why);
			expect_topology(test, file->meshes[0], topo, -1);
			release_image(test, im);
			kunit_release_action(test, model_free_action, file);
		}
	}
}

/* ---- damage done to a good image ---- */

static u64 xp_ptr_slot(struct img *im, unsigned int x, unsigned int y, unsigned int i)
{
	return cmn600_model_xp_offset(im->mesh, x, y) + CMN600M_CHILD_PTRS + 8 * i;
}

/* An external child is skipped; nothing else changes */
static void cmn_hnf_test_discovery_external(struct kunit *test)
{
	struct cmn600_model_file *file = parse_builtin(test, "3x3");
	const struct cmn600_model_mesh *m = file->meshes[0];
	struct cmn_hnf_topology *good = new_topo(test), *topo = new_topo(test);
	struct img *im = build(test, m, CMN600_MODEL_FAULT_NONE);
	u64 slot, hnf_off;
	char why[WHY_LEN];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, discover(im, good, why), 0);
	/* Mark the pointer to the last HN-F as external */
	hnf_off = good->hnf[good->num_hnfs - 1].offset;
	slot = 0;
	for (i = 0; i < 16; i++) {
		u64 s = xp_ptr_slot(im, good->xp[good->hnf[good->num_hnfs - 1].xp].x,
				    good->xp[good->hnf[good->num_hnfs - 1].xp].y, i);

		if ((img_reg(im, s) & CMN600M_CHILD_PTR_ADDR) == hnf_off)
			slot = s;
	}
	KUNIT_ASSERT_NE(test, slot, 0ULL);
	img_set(im, slot, img_reg(im, slot) | CMN600M_CHILD_PTR_EXTERNAL);

	KUNIT_ASSERT_EQ_MSG(test, discover(im, topo, why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, topo->num_hnfs, good->num_hnfs - 1);
	KUNIT_EXPECT_EQ(test, memcmp(topo->hnf, good->hnf,
				     topo->num_hnfs * sizeof(topo->hnf[0])), 0);
	KUNIT_EXPECT_EQ(test, memcmp(topo->xp, good->xp, sizeof(good->xp)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(topo->dtc, good->dtc, sizeof(good->dtc)), 0);
}

/* Broken pointers and counts, each refused with the offset in why */
static void cmn_hnf_test_discovery_damage(struct kunit *test)
{
	struct cmn600_model_file *file = parse_builtin(test, "4x2-2dtc");
	const struct cmn600_model_mesh *m = file->meshes[0];
	struct cmn_hnf_topology *topo = new_topo(test);
	struct img *im = build(test, m, CMN600_MODEL_FAULT_NONE);
	u64 xp = cmn600_model_xp_offset(m, 1, 1);
	u64 p0 = xp + CMN600M_CHILD_PTRS, save, info;
	char why[WHY_LEN];

	KUNIT_ASSERT_EQ(test, discover(im, topo, why), 0);

	/* A child pointer that is not on a 16 KiB boundary */
	save = img_reg(im, p0);
	img_set(im, p0, save + 0x100);
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "16 KiB"), "%s", why);
	/* ...and one pointing at its own XP */
	img_set(im, p0, xp);
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "twice"), "%s", why);
	/* ...and one past the 28 address bits' reach of the region */
	img_set(im, p0, m->size + 0x4000);
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	img_set(im, p0, save);

	/* The same HN-F twice, under one XP and under two: counted once or refused */
	save = img_reg(im, p0 + 8);
	img_set(im, p0 + 8, img_reg(im, p0));
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "twice"), "%s", why);
	img_set(im, p0 + 8, cmn600_model_node_offset(m, 1, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "twice"), "%s", why);
	img_set(im, p0 + 8, save);

	/* An XP with more children than any XP can have */
	info = img_reg(im, xp + CMN600M_CHILD_INFO);
	img_set(im, xp + CMN600M_CHILD_INFO, (info & ~CMN600M_CHILD_INFO_COUNT) | 17);
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "17"), "%s", why);
	/* A pointer array that runs off the end of the node */
	img_set(im, xp + CMN600M_CHILD_INFO,
		(info & ~CMN600M_CHILD_INFO_PTR_OFF) |
		FIELD_PREP(CMN600M_CHILD_INFO_PTR_OFF, 0x3ff8));
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	img_set(im, xp + CMN600M_CHILD_INFO, info);

	/* A CFG child that is not an XP */
	save = img_reg(im, m->root + CMN600M_CHILD_PTRS);
	img_set(im, m->root + CMN600M_CHILD_PTRS,
		cmn600_model_node_offset(m, 0, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	img_set(im, m->root + CMN600M_CHILD_PTRS, save);

	/* The root offset itself outside the region, or misaligned */
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(img_read, im, im->size, im->size, topo,
					       why, WHY_LEN), -ENODEV);
	expect_why(test, why);
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(img_read, im, im->size, m->root + 8, topo,
					       why, WHY_LEN), -ENODEV);
	expect_why(test, why);

	/* Intact again */
	KUNIT_EXPECT_EQ_MSG(test, discover(im, topo, why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, im->bad_reads, 0U);
}

/* A region too small for the tree: refused, and no read leaves it */
static void cmn_hnf_test_discovery_small_region(struct kunit *test)
{
	struct cmn600_model_file *file = parse_builtin(test, "8x8-32hnf-4dtc");
	struct cmn_hnf_topology *topo = new_topo(test);
	struct img *im = build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
	char why[WHY_LEN];
	u64 sizes[] = { im->len - 0x4000, im->len / 2, im->mesh->root + 0x4000 };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		im->size = sizes[i];
		im->bad_reads = 0;
		KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
		KUNIT_EXPECT_EQ_MSG(test, im->bad_reads, 0U, "size 0x%llx: read at 0x%x",
				    sizes[i], im->first_bad);
		expect_why(test, why);
	}
	/* A short why buffer is cut, not overrun */
	im->size = sizes[0];
	memset(why, 'x', sizeof(why));
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(img_read, im, im->size, im->mesh->root,
					       topo, why, 8), -ENODEV);
	KUNIT_EXPECT_EQ(test, strlen(why), 7UL);
	KUNIT_EXPECT_EQ(test, why[8], 'x');
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(img_read, im, im->size, im->mesh->root,
					       topo, NULL, 0), -ENODEV);
}

/* Part numbers and revisions from the CFG node's periph ids */
static void cmn_hnf_test_discovery_part_revision(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	const struct cmn600_model_mesh *m = NULL;
	struct cmn600_model_file *file;
	char text[96], why[WHY_LEN];
	struct img *im = NULL;
	unsigned int rev;
	u64 pid;

	for (rev = 0; rev <= 6; rev++) {
		snprintf(text, sizeof(text),
			 "mesh x=2 y=3 rev=%s\nnode dtc 0 0 0 0\nnode hn-f 1 2 0 1\n",
			 cmn600_model_rev_name(rev));
		file = parse_text(test, text);
		m = file->meshes[0];
		KUNIT_ASSERT_EQ(test, m->rev, rev);
		im = build(test, m, CMN600_MODEL_FAULT_NONE);
		KUNIT_ASSERT_EQ_MSG(test, discover(im, topo, why), 0, "%s", why);
		KUNIT_EXPECT_EQ(test, (unsigned int)topo->revision, rev);
	}

	/* CMN-600AE (0x438) is taken as a CMN-600; CMN-650 (0x436) is not */
	pid = img_reg(im, m->root + CMN600M_CFG_PERIPH_ID_01);
	img_set(im, m->root + CMN600M_CFG_PERIPH_ID_01,
		(pid & ~CMN600M_PID0_PART_LO) | FIELD_PREP(CMN600M_PID0_PART_LO, 0x38));
	KUNIT_EXPECT_EQ_MSG(test, discover(im, topo, why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, topo->part, CMN_PART_CMN600);
	img_set(im, m->root + CMN600M_CFG_PERIPH_ID_01,
		(pid & ~CMN600M_PID0_PART_LO) | FIELD_PREP(CMN600M_PID0_PART_LO, 0x36));
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "436"), "%s", why);
}

/* More HN-Fs than the driver tracks: refused, not truncated */
static void cmn_hnf_test_discovery_too_many_hnfs(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn600_model_file *file;
	char *text, why[WHY_LEN];
	unsigned int x, y, len = 0, size = 8192;
	struct img *im;

	text = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	len += scnprintf(text + len, size - len, "mesh x=8 y=8\nnode dtc 7 7 1 1\n");
	for (x = 0; x < 8; x++)
		for (y = 0; y < 8; y++)
			len += scnprintf(text + len, size - len,
					 "node hn-f %u %u 0 0\nnode hn-f %u %u 0 1\nnode hn-f %u %u 1 0\n",
					 x, y, x, y, x, y);
	KUNIT_ASSERT_LT(test, len, size - 1);
	file = parse_text(test, text);
	im = build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
	KUNIT_EXPECT_EQ(test, discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "128"), "%s", why);
}

static struct kunit_case cmn_hnf_discovery_cases[] = {
	KUNIT_CASE_PARAM(cmn_hnf_test_discovery_shipped, shipped_gen_params),
	KUNIT_CASE_PARAM(cmn_hnf_test_discovery_faults, fault_gen_params),
	KUNIT_CASE_SLOW(cmn_hnf_test_discovery_every_size),
	KUNIT_CASE(cmn_hnf_test_discovery_external),
	KUNIT_CASE(cmn_hnf_test_discovery_damage),
	KUNIT_CASE(cmn_hnf_test_discovery_small_region),
	KUNIT_CASE(cmn_hnf_test_discovery_part_revision),
	KUNIT_CASE(cmn_hnf_test_discovery_too_many_hnfs),
	{}
};

struct kunit_suite cmn_hnf_discovery_suite = {
	.name = "arm_cmn_hnf_discovery",
	.test_cases = cmn_hnf_discovery_cases,
};
