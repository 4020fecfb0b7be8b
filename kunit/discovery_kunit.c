// SPDX-License-Identifier: GPL-2.0
/*
 * The discovery walk and cmn_hnf_find_hnf() on configuration images built
 * by the CMN-600 model (tools/testing/cmn600-model) from the same mesh
 * descriptions the guest tests use. Every expectation is computed from the
 * parsed description with the model's own helpers (which share no code
 * with the driver), not written as literals.
 */
#include <linux/kernel.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "image.h"
#include "suites.h"

#define WHY_LEN		CMN_HNF_KUNIT_WHY_LEN

static const char * const shipped[] = { CMN_HNF_KUNIT_SHIPPED };

static struct cmn_hnf_topology *new_topo(struct kunit *test)
{
	struct cmn_hnf_topology *topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, topo);
	return topo;
}

static u64 img_reg(struct cmn_hnf_kunit_img *im, u64 off)
{
	return *(u64 *)(im->buf + off);
}

static void img_set(struct cmn_hnf_kunit_img *im, u64 off, u64 val)
{
	*(u64 *)(im->buf + off) = val;
}

/* A why line: non-empty, one line, names an offset */
static void expect_why(struct kunit *test, const char *why)
{
	KUNIT_EXPECT_GT(test, strlen(why), 0UL);
	KUNIT_EXPECT_NULL(test, strchr(why, '\n'));
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "0x"), "why: %s", why);
}

static bool has(const char *why, const char *what)
{
	return strstr(why, what);
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

/* One discovered node against its description line */
static void expect_node(struct kunit *test, const struct cmn600_model_mesh *m,
			const struct cmn_hnf_topology *topo,
			const struct cmn_hnf_node *got,
			const struct cmn600_model_node *want, bool check_id)
{
	const struct cmn_hnf_xp *xp;

	KUNIT_EXPECT_EQ(test, (u64)got->offset,
			cmn600_model_node_offset(m, want->x, want->y, want->port, want->dev));
	if (check_id)
		KUNIT_EXPECT_EQ(test, got->node_id,
				cmn600_model_node_id(m, want->x, want->y, want->port,
						     want->dev));
	KUNIT_EXPECT_EQ(test, got->logical_id, want->lid);
	KUNIT_EXPECT_EQ(test, got->port, want->port);
	KUNIT_EXPECT_EQ(test, got->dev, want->dev);
	/* the XP it hangs off, whatever its node id says */
	KUNIT_ASSERT_LT(test, (unsigned int)got->xp, topo->num_xps);
	xp = &topo->xp[got->xp];
	KUNIT_EXPECT_EQ_MSG(test, xp->x, want->x, "node at 0x%x", got->offset);
	KUNIT_EXPECT_EQ_MSG(test, xp->y, want->y, "node at 0x%x", got->offset);
}

/*
 * find_hnf over every node id the ids can spell: the index of the HN-F
 * the description puts there (HN-Fs sorted by logical id), else -1, also
 * for the ids of XPs, DTCs and other nodes.
 */
static void expect_find_hnf(struct kunit *test, const struct cmn600_model_mesh *m,
			    const struct cmn_hnf_topology *topo,
			    const struct cmn600_model_node **hnfs, unsigned int n)
{
	unsigned int id, i;
	int want;

	for (id = 0; id < 0x200; id++) {
		want = -1;
		for (i = 0; i < n; i++)
			if (cmn600_model_node_id(m, hnfs[i]->x, hnfs[i]->y, hnfs[i]->port,
						 hnfs[i]->dev) == id)
				want = i;
		KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_find_hnf(topo, id), want, "id 0x%x", id);
	}
}

/*
 * Everything discovery reports, against the description. With
 * @mismatch_lid >= 0 the HN-F of that logical id has a falsified node id
 * (nodeid_mismatch fault) and is checked for everything else.
 */
static void expect_topology(struct kunit *test, const struct cmn600_model_mesh *m,
			    const struct cmn_hnf_topology *topo, int mismatch_lid)
{
	unsigned int seen[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM] = {};
	const struct cmn600_model_node **list;
	unsigned int i, n, x, y;

	list = kunit_kcalloc(test, CMN600_MODEL_MAX_NODES, sizeof(*list), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, list);

	KUNIT_EXPECT_EQ(test, topo->part, CMN600M_PART_CMN600);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->revision, m->rev);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->mesh_x, m->x_dim);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->mesh_y, m->y_dim);
	KUNIT_EXPECT_EQ(test, (unsigned int)topo->coord_bits, cmn600_model_coord_bits(m));
	KUNIT_ASSERT_EQ(test, topo->num_xps, m->x_dim * m->y_dim);

	for (i = 0; i < topo->num_xps; i++) {
		const struct cmn_hnf_xp *xp = &topo->xp[i];

		x = xp->x;
		y = xp->y;
		KUNIT_ASSERT_LT(test, x, m->x_dim);
		KUNIT_ASSERT_LT(test, y, m->y_dim);
		seen[x][y]++;
		KUNIT_EXPECT_EQ(test, (u64)xp->offset, cmn600_model_xp_offset(m, x, y));
		KUNIT_EXPECT_EQ(test, xp->node_id, cmn600_model_node_id(m, x, y, 0, 0));
		/* reference 1.3: XP logical ids are row-major */
		KUNIT_EXPECT_EQ(test, (unsigned int)xp->logical_id, y * m->x_dim + x);
	}
	for (x = 0; x < m->x_dim; x++)
		for (y = 0; y < m->y_dim; y++)
			KUNIT_EXPECT_EQ_MSG(test, seen[x][y], 1U, "XP (%u,%u)", x, y);

	n = nodes_of(m, CMN600_MODEL_TYPE_DTC, list);
	KUNIT_ASSERT_EQ(test, topo->num_dtcs, n);
	for (i = 0; i < n; i++) {
		expect_node(test, m, topo, &topo->dtc[i], list[i], true);
		/* dtc[i] is domain i: its logical id */
		KUNIT_EXPECT_EQ(test, topo->dtc[i].logical_id, i);
	}

	n = nodes_of(m, CMN600_MODEL_TYPE_HNF, list);
	KUNIT_ASSERT_EQ(test, topo->num_hnfs, n);
	for (i = 0; i < n; i++)
		expect_node(test, m, topo, &topo->hnf[i], list[i],
			    (int)list[i]->lid != mismatch_lid);
	if (mismatch_lid < 0) {
		expect_find_hnf(test, m, topo, list, n);
	} else {
		/*
		 * every HN-F is found by the node id it reports, unless
		 * another reports that id too: then neither is
		 */
		for (i = 0; i < topo->num_hnfs; i++) {
			for (x = 0, y = 0; x < topo->num_hnfs; x++)
				y += topo->hnf[x].node_id == topo->hnf[i].node_id;
			KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, topo->hnf[i].node_id),
					y == 1 ? (int)i : -1);
		}
	}
}

/* ---- the shipped meshes, intact and with every fault ---- */

static void shipped_desc(const char * const *name, char *desc)
{
	strscpy(desc, *name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(shipped, shipped, shipped_desc);

/* The list above is the model's whole list of shipped meshes */
static void cmn_hnf_test_discovery_shipped_list(struct kunit *test)
{
	const struct cmn600_model_builtin *b;
	unsigned int i, n = 0, found;

	for (b = cmn600_model_builtins; b->name; b++) {
		n++;
		found = 0;
		for (i = 0; i < ARRAY_SIZE(shipped); i++)
			found += !strcmp(b->name, shipped[i]);
		KUNIT_EXPECT_EQ_MSG(test, found, 1U, "shipped mesh %s is not tested", b->name);
	}
	KUNIT_EXPECT_EQ(test, n, (unsigned int)ARRAY_SIZE(shipped));
}

static void cmn_hnf_test_discovery_shipped(struct kunit *test)
{
	const char * const *name = test->param_value;
	struct cmn600_model_file *file = cmn_hnf_kunit_shipped(test, *name);
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn_hnf_kunit_img *im;
	char why[WHY_LEN];
	unsigned int i;

	KUNIT_ASSERT_GE(test, file->nr_meshes, 1U);
	if (!strcmp(*name, "two-mesh"))
		KUNIT_EXPECT_EQ(test, file->nr_meshes, 2U);

	for (i = 0; i < file->nr_meshes; i++) {
		im = cmn_hnf_kunit_build(test, file->meshes[i], CMN600_MODEL_FAULT_NONE);
		KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0,
				    "%s mesh %u: %s", *name, i, why);
		KUNIT_EXPECT_EQ(test, im->bad_reads, 0U);
		expect_topology(test, file->meshes[i], topo, -1);
		cmn_hnf_kunit_img_release(test, im);
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

/*
 * What the why line of a refused image must name: the value that is
 * wrong (child_count: the count, child_oob: the pointer, the region's
 * size) or the node it is wrong in (the root).
 */
static void fault_expect(const struct fault_case *c, const struct cmn600_model_mesh *m,
			 char *expect, size_t len)
{
	switch (c->fault) {
	case CMN600_MODEL_FAULT_CHILD_COUNT:
		snprintf(expect, len, "%u", 0xffff);
		break;
	case CMN600_MODEL_FAULT_CHILD_OOB:
		snprintf(expect, len, "0x%llx", m->size);
		break;
	default:
		snprintf(expect, len, "0x%llx", m->root);
		break;
	}
}

/* Every fault on every shipped mesh */
static void cmn_hnf_test_discovery_faults(struct kunit *test)
{
	const struct fault_case *c = test->param_value;
	struct cmn_hnf_topology *topo = new_topo(test);
	const struct cmn600_model_node *bad;
	struct cmn600_model_file *file;
	const struct cmn600_model_mesh *m;
	struct cmn_hnf_kunit_img *im;
	char why[WHY_LEN], expect[32];
	unsigned int f, i;
	int ret;

	KUNIT_EXPECT_STREQ(test, cmn600_model_fault_name(c->fault), c->name);

	for (f = 0; f < ARRAY_SIZE(shipped); f++) {
		file = cmn_hnf_kunit_shipped(test, shipped[f]);
		for (i = 0; i < file->nr_meshes; i++) {
			m = file->meshes[i];
			im = cmn_hnf_kunit_build(test, m, c->fault);
			ret = cmn_hnf_kunit_discover(im, topo, why);
			KUNIT_EXPECT_EQ_MSG(test, ret, c->ret, "%s mesh %u: %s",
					    shipped[f], i, why);
			KUNIT_EXPECT_EQ_MSG(test, im->bad_reads, 0U, "%s: read at 0x%x",
					    shipped[f], im->first_bad);
			if (ret) {
				expect_why(test, why);
				fault_expect(c, m, expect, sizeof(expect));
				KUNIT_EXPECT_TRUE_MSG(test, has(why, expect),
						      "%s: why \"%s\" lacks %s",
						      shipped[f], why, expect);
			} else if (c->fault == CMN600_MODEL_FAULT_NODEID_MISMATCH) {
				bad = lowest_hnf(m);
				expect_topology(test, m, topo, bad->lid);
				/* the falsified id really is not the parent's */
				KUNIT_EXPECT_NE(test, topo->hnf[0].node_id,
						cmn600_model_node_id(m, bad->x, bad->y,
								     bad->port, bad->dev));
			} else {
				expect_topology(test, m, topo, -1);
			}
			cmn_hnf_kunit_img_release(test, im);
		}
		cmn_hnf_kunit_file_release(test, file);
	}
}

/*
 * The falsified node id of the nodeid_mismatch fault is that of the HN-F
 * on the same port and device of the next XP: two HN-Fs report one id,
 * and find_hnf() names neither (bynodeid cannot tell which is meant).
 */
static void cmn_hnf_test_discovery_shared_nodeid(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn600_model_file *file;
	const struct cmn600_model_mesh *m;
	struct cmn_hnf_kunit_img *im;
	char why[WHY_LEN];
	u16 other;

	file = cmn_hnf_kunit_parse(test, "mesh x=2 y=1\nnode dtc 0 0 0 0 lid=0\n"
				   "node hn-f 0 0 1 1 lid=0\nnode hn-f 1 0 1 1 lid=1\n");
	m = file->meshes[0];
	im = cmn_hnf_kunit_build(test, m, CMN600_MODEL_FAULT_NODEID_MISMATCH);
	KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0, "%s", why);
	KUNIT_ASSERT_EQ(test, topo->num_hnfs, 2U);
	other = cmn600_model_node_id(m, 1, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, topo->hnf[0].node_id, other);
	KUNIT_EXPECT_EQ(test, topo->hnf[1].node_id, other);
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, other), -1);
	KUNIT_EXPECT_EQ(test, cmn_hnf_find_hnf(topo, cmn600_model_node_id(m, 0, 0, 1, 1)), -1);
	cmn_hnf_kunit_img_release(test, im);
	cmn_hnf_kunit_file_release(test, file);
}

/* ---- mesh sizes ---- */

/*
 * Every size 1x1..8x8, with a DTC at (0,0) and an HN-F on the far corner:
 * the mesh size comes out of the XP node ids alone. This includes the
 * pairs whose XP ids are the same set (2x4/1x8 and 4x4/2x8), and the
 * coordinate width of each (2 bits up to 4x4, else 3).
 */
static void cmn_hnf_test_discovery_every_size(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn600_model_file *file;
	struct cmn_hnf_kunit_img *im;
	char *text, why[WHY_LEN];
	unsigned int x, y;

	text = kunit_kzalloc(test, 256, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	for (x = 1; x <= CMN_HNF_MAX_DIM; x++) {
		for (y = 1; y <= CMN_HNF_MAX_DIM; y++) {
			snprintf(text, 256,
				 "mesh x=%u y=%u\nnode dtc 0 0 0 0 lid=0\nnode hn-f %u %u 1 1\n",
				 x, y, x - 1, y - 1);
			file = cmn_hnf_kunit_parse(test, text);
			im = cmn_hnf_kunit_build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
			KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0,
					    "%ux%u: %s", x, y, why);
			expect_topology(test, file->meshes[0], topo, -1);
			KUNIT_EXPECT_EQ(test, (unsigned int)topo->coord_bits,
					x > 4 || y > 4 ? 3U : 2U);
			cmn_hnf_kunit_img_release(test, im);
			cmn_hnf_kunit_file_release(test, file);
		}
	}
}

/* ---- damage done to a good image ---- */

static u64 xp_ptr_slot(struct cmn_hnf_kunit_img *im, unsigned int x, unsigned int y,
		       unsigned int i)
{
	return cmn600_model_xp_offset(im->mesh, x, y) + CMN600M_CHILD_PTRS + 8 * i;
}

static bool same_node(const struct cmn_hnf_node *a, const struct cmn_hnf_node *b)
{
	return a->offset == b->offset && a->node_id == b->node_id &&
	       a->logical_id == b->logical_id && a->xp == b->xp &&
	       a->port == b->port && a->dev == b->dev;
}

/* An external child is skipped; nothing else changes */
static void cmn_hnf_test_discovery_external(struct kunit *test)
{
	struct cmn600_model_file *file = cmn_hnf_kunit_shipped(test, "3x3");
	const struct cmn600_model_mesh *m = file->meshes[0];
	struct cmn_hnf_topology *good = new_topo(test), *topo = new_topo(test);
	struct cmn_hnf_kunit_img *im = cmn_hnf_kunit_build(test, m, CMN600_MODEL_FAULT_NONE);
	const struct cmn_hnf_xp *xp;
	u64 slot = 0, s, hnf_off;
	char why[WHY_LEN];
	unsigned int i;

	KUNIT_ASSERT_EQ(test, cmn_hnf_kunit_discover(im, good, why), 0);
	/* mark the pointer to the last HN-F as external */
	hnf_off = good->hnf[good->num_hnfs - 1].offset;
	xp = &good->xp[good->hnf[good->num_hnfs - 1].xp];
	for (i = 0; i < CMN_HNF_MAX_XP_CHILDREN; i++) {
		s = xp_ptr_slot(im, xp->x, xp->y, i);
		if ((img_reg(im, s) & CMN600M_CHILD_PTR_ADDR) == hnf_off)
			slot = s;
	}
	KUNIT_ASSERT_NE(test, slot, 0ULL);
	img_set(im, slot, img_reg(im, slot) | CMN600M_CHILD_PTR_EXTERNAL);

	KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0, "%s", why);
	KUNIT_ASSERT_EQ(test, topo->num_hnfs, good->num_hnfs - 1);
	for (i = 0; i < topo->num_hnfs; i++)
		KUNIT_EXPECT_TRUE_MSG(test, same_node(&topo->hnf[i], &good->hnf[i]), "HN-F %u", i);
	KUNIT_ASSERT_EQ(test, topo->num_dtcs, good->num_dtcs);
	for (i = 0; i < topo->num_dtcs; i++)
		KUNIT_EXPECT_TRUE_MSG(test, same_node(&topo->dtc[i], &good->dtc[i]), "DTC %u", i);
	KUNIT_EXPECT_EQ(test, topo->num_xps, good->num_xps);
	KUNIT_EXPECT_EQ(test, topo->mesh_x, good->mesh_x);
	KUNIT_EXPECT_EQ(test, topo->mesh_y, good->mesh_y);
}

/* Broken pointers and counts, each refused with the offset in why */
static void cmn_hnf_test_discovery_damage(struct kunit *test)
{
	struct cmn600_model_file *file = cmn_hnf_kunit_shipped(test, "4x2-2dtc");
	const struct cmn600_model_mesh *m = file->meshes[0];
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn_hnf_kunit_img *im = cmn_hnf_kunit_build(test, m, CMN600_MODEL_FAULT_NONE);
	u64 xp = cmn600_model_xp_offset(m, 1, 1);
	u64 p0 = xp + CMN600M_CHILD_PTRS, save, info;
	char why[WHY_LEN], off[24];

	KUNIT_ASSERT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), 0);
	snprintf(off, sizeof(off), "0x%llx", xp);

	/* a child pointer that is not on a 16 KiB boundary */
	save = img_reg(im, p0);
	img_set(im, p0, save + 0x100);
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "16 KiB"), "%s", why);
	/* ...and one pointing at its own XP */
	img_set(im, p0, xp);
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, off), "%s", why);
	/* ...and one past the end of the region */
	img_set(im, p0, m->size + 0x4000);
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	img_set(im, p0, save);

	/* the same HN-F twice, under one XP and under two */
	save = img_reg(im, p0 + 8);
	img_set(im, p0 + 8, img_reg(im, p0));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "twice"), "%s", why);
	img_set(im, p0 + 8, cmn600_model_node_offset(m, 1, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "twice"), "%s", why);
	img_set(im, p0 + 8, save);

	/* an XP with more children than any XP can have */
	info = img_reg(im, xp + CMN600M_CHILD_INFO);
	img_set(im, xp + CMN600M_CHILD_INFO, (info & ~CMN600M_CHILD_INFO_COUNT) | 17);
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "17"), "%s", why);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, off), "%s", why);
	/* a pointer array that runs off the end of the node */
	img_set(im, xp + CMN600M_CHILD_INFO,
		(info & ~CMN600M_CHILD_INFO_PTR_OFF) |
		FIELD_PREP(CMN600M_CHILD_INFO_PTR_OFF, 0x3ff8));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, off), "%s", why);
	img_set(im, xp + CMN600M_CHILD_INFO, info);

	/* a CFG child that is not an XP (the DTC at (0,0)) */
	save = img_reg(im, m->root + CMN600M_CHILD_PTRS);
	img_set(im, m->root + CMN600M_CHILD_PTRS, cmn600_model_node_offset(m, 0, 0, 0, 0));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	img_set(im, m->root + CMN600M_CHILD_PTRS, save);

	/* XP node ids that do not form a mesh: two XPs with one id */
	save = img_reg(im, xp + CMN600M_NODE_INFO);
	img_set(im, xp + CMN600M_NODE_INFO,
		(save & ~CMN600M_NODE_INFO_ID) |
		FIELD_PREP(CMN600M_NODE_INFO_ID, cmn600_model_node_id(m, 0, 0, 0, 0)));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	img_set(im, xp + CMN600M_NODE_INFO, save);

	/* the root offset itself outside the region, or misaligned */
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(cmn_hnf_kunit_img_read, im, im->size,
					       im->size, topo, why, WHY_LEN), -ENODEV);
	expect_why(test, why);
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(cmn_hnf_kunit_img_read, im, im->size,
					       m->root + 8, topo, why, WHY_LEN), -ENODEV);
	expect_why(test, why);

	/* intact again */
	KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, im->bad_reads, 0U);
}

/* DTC logical ids must be the domains 0..n-1: a gap is refused */
static void cmn_hnf_test_discovery_dtc_lids(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn600_model_file *file;
	struct cmn_hnf_kunit_img *im;
	char why[WHY_LEN], off[24];

	file = cmn_hnf_kunit_parse(test,
				   "mesh x=3 y=2\nnode dtc 0 0 0 0 lid=0\nnode dtc 2 1 1 0 lid=2\n"
				   "node hn-f 1 1 0 0\n");
	im = cmn_hnf_kunit_build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	snprintf(off, sizeof(off), "0x%llx",
		 cmn600_model_node_offset(file->meshes[0], 2, 1, 1, 0));
	KUNIT_EXPECT_TRUE_MSG(test, has(why, off), "%s", why);
	KUNIT_EXPECT_EQ(test, im->bad_reads, 0U);
}

/* A region too small for the tree: refused, and no read leaves it */
static void cmn_hnf_test_discovery_small_region(struct kunit *test)
{
	struct cmn600_model_file *file = cmn_hnf_kunit_shipped(test, "8x8-32hnf-4dtc");
	struct cmn_hnf_topology *topo = new_topo(test);
	struct cmn_hnf_kunit_img *im;
	char why[WHY_LEN];
	u64 sizes[3];
	unsigned int i;

	im = cmn_hnf_kunit_build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
	sizes[0] = im->len - 0x4000;
	sizes[1] = im->len / 2;
	sizes[2] = im->mesh->root + 0x4000;
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		im->size = sizes[i];
		im->bad_reads = 0;
		KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
		KUNIT_EXPECT_EQ_MSG(test, im->bad_reads, 0U, "size 0x%llx: read at 0x%x",
				    sizes[i], im->first_bad);
		expect_why(test, why);
	}
	/* a short why buffer is cut, not overrun */
	im->size = sizes[0];
	memset(why, 'x', sizeof(why));
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(cmn_hnf_kunit_img_read, im, im->size,
					       im->mesh->root, topo, why, 8), -ENODEV);
	KUNIT_EXPECT_EQ(test, strlen(why), 7UL);
	KUNIT_EXPECT_EQ(test, why[8], 'x');
	KUNIT_EXPECT_EQ(test, cmn_hnf_discover(cmn_hnf_kunit_img_read, im, im->size,
					       im->mesh->root, topo, NULL, 0), -ENODEV);
}

/* Part numbers and revisions from the CFG node's periph ids */
static void cmn_hnf_test_discovery_part_revision(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	const struct cmn600_model_mesh *m = NULL;
	struct cmn_hnf_kunit_img *im = NULL;
	struct cmn600_model_file *file;
	char text[96], why[WHY_LEN];
	unsigned int rev;
	u64 pid;

	for (rev = 0; rev <= 6; rev++) {
		snprintf(text, sizeof(text),
			 "mesh x=2 y=3 rev=%s\nnode dtc 0 0 0 0\nnode hn-f 1 2 0 1\n",
			 cmn600_model_rev_name(rev));
		file = cmn_hnf_kunit_parse(test, text);
		m = file->meshes[0];
		KUNIT_ASSERT_EQ(test, m->rev, rev);
		im = cmn_hnf_kunit_build(test, m, CMN600_MODEL_FAULT_NONE);
		KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0, "%s", why);
		KUNIT_EXPECT_EQ(test, (unsigned int)topo->revision, rev);
	}

	/* CMN-600AE (0x438) is taken as a CMN-600; CMN-650 (0x436) is not */
	pid = img_reg(im, m->root + CMN600M_CFG_PERIPH_ID_01);
	img_set(im, m->root + CMN600M_CFG_PERIPH_ID_01,
		(pid & ~CMN600M_PID0_PART_LO) | FIELD_PREP(CMN600M_PID0_PART_LO, 0x38));
	KUNIT_EXPECT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0, "%s", why);
	KUNIT_EXPECT_EQ(test, topo->part, CMN600M_PART_CMN600);
	img_set(im, m->root + CMN600M_CFG_PERIPH_ID_01,
		(pid & ~CMN600M_PID0_PART_LO) | FIELD_PREP(CMN600M_PID0_PART_LO, 0x36));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "436"), "%s", why);
	/* the high nibble counts too: 0x534 is no CMN-600 */
	img_set(im, m->root + CMN600M_CFG_PERIPH_ID_01,
		(pid & ~CMN600M_PID1_PART_HI) | FIELD_PREP(CMN600M_PID1_PART_HI, 5));
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "534"), "%s", why);
}

/* More HN-Fs than the driver tracks: refused, not truncated */
static void cmn_hnf_test_discovery_too_many_hnfs(struct kunit *test)
{
	struct cmn_hnf_topology *topo = new_topo(test);
	unsigned int x, y, len = 0, size = 8192;
	struct cmn600_model_file *file;
	struct cmn_hnf_kunit_img *im;
	char *text, why[WHY_LEN];

	text = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	len += scnprintf(text + len, size - len, "mesh x=8 y=8\nnode dtc 7 7 1 1\n");
	for (x = 0; x < 8; x++)
		for (y = 0; y < 8; y++)
			len += scnprintf(text + len, size - len,
					 "node hn-f %u %u 0 0\nnode hn-f %u %u 0 1\nnode hn-f %u %u 1 0\n",
					 x, y, x, y, x, y);
	KUNIT_ASSERT_LT(test, len, size - 1);
	file = cmn_hnf_kunit_parse(test, text);
	im = cmn_hnf_kunit_build(test, file->meshes[0], CMN600_MODEL_FAULT_NONE);
	KUNIT_EXPECT_EQ(test, cmn_hnf_kunit_discover(im, topo, why), -ENODEV);
	expect_why(test, why);
	KUNIT_EXPECT_TRUE_MSG(test, has(why, "128"), "%s", why);
	KUNIT_EXPECT_EQ(test, im->bad_reads, 0U);
}

static struct kunit_case cmn_hnf_discovery_cases[] = {
	KUNIT_CASE(cmn_hnf_test_discovery_shipped_list),
	KUNIT_CASE_PARAM_ATTR(cmn_hnf_test_discovery_shipped, shipped_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_PARAM_ATTR(cmn_hnf_test_discovery_faults, fault_gen_params,
			      { .speed = KUNIT_SPEED_SLOW }),
	KUNIT_CASE_SLOW(cmn_hnf_test_discovery_every_size),
	KUNIT_CASE(cmn_hnf_test_discovery_shared_nodeid),
	KUNIT_CASE(cmn_hnf_test_discovery_external),
	KUNIT_CASE(cmn_hnf_test_discovery_damage),
	KUNIT_CASE(cmn_hnf_test_discovery_dtc_lids),
	KUNIT_CASE(cmn_hnf_test_discovery_small_region),
	KUNIT_CASE(cmn_hnf_test_discovery_part_revision),
	KUNIT_CASE(cmn_hnf_test_discovery_too_many_hnfs),
	{}
};

struct kunit_suite cmn_hnf_discovery_suite = {
	.name = "arm_cmn_hnf_discovery",
	.test_cases = cmn_hnf_discovery_cases,
};
