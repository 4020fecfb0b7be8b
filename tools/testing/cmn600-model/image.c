// SPDX-License-Identifier: GPL-2.0
/*
 * CMN-600 model: build the configuration space image of one mesh into a
 * buffer, the way the hardware presents it after reset.
 *
 * Pure code: the buffer may be the reserved region seen through memremap()
 * or an ordinary allocation in a test. Registers are 64-bit little-endian
 * words; the model only runs on little-endian arm64 and x86_64.
 */

#include <linux/bitfield.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "cmn600_model.h"
#include "image.h"
#include "mesh.h"

struct builder {
	const struct cmn600_model_mesh *mesh;
	enum cmn600_model_fault fault;
	void *buf;		/* NULL: only measure */
	struct cmn600_model_image_info info;
};

static void wr(struct builder *b, u64 off, u64 val)
{
	if (b->buf)
		*(u64 *)(b->buf + off) = val;
}

static void block(struct builder *b, u64 off)
{
	if (off + CMN600_MODEL_BLOCK > b->info.extent)
		b->info.extent = off + CMN600_MODEL_BLOCK;
}

/* Deterministic junk for the garbage_counters fault */
static u64 junk(u64 off, unsigned int n)
{
	u64 x = 0x9e3779b97f4a7c15ULL ^ (off << 8) ^ n;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	x ^= x >> 29;
	return x * 0xbf58476d1ce4e5b9ULL;
}

static void garbage_dtm(struct builder *b, u64 xp)
{
	wr(b, xp + CMN600M_DTM_PMEVCNT, junk(xp, 0));
	wr(b, xp + CMN600M_DTM_PMEVCNTSR, junk(xp, 1));
}

static void garbage_dtc(struct builder *b, u64 dtc)
{
	unsigned int g;

	for (g = 0; g < CMN600M_DTC_NR_GLOBAL; g += 2) {
		wr(b, dtc + CMN600M_DTC_PMEVCNT_PAIR(g), junk(dtc, 2 + g));
		wr(b, dtc + CMN600M_DTC_PMEVCNTSR_PAIR(g), junk(dtc, 3 + g));
	}
	wr(b, dtc + CMN600M_DTC_PMCCNTR, junk(dtc, 16) & GENMASK_ULL(CMN600M_CYCLES_BITS - 1, 0));
	wr(b, dtc + CMN600M_DTC_PMCCNTRSR, junk(dtc, 17) & GENMASK_ULL(CMN600M_CYCLES_BITS - 1, 0));
}

static u64 node_info(u16 type, u16 id, u16 lid)
{
	return FIELD_PREP(CMN600M_NODE_INFO_TYPE, type) |
	       FIELD_PREP(CMN600M_NODE_INFO_ID, id) |
	       FIELD_PREP(CMN600M_NODE_INFO_LID, lid);
}

static u64 child_info(unsigned int count)
{
	return FIELD_PREP(CMN600M_CHILD_INFO_COUNT, count) |
	       FIELD_PREP(CMN600M_CHILD_INFO_PTR_OFF, CMN600M_CHILD_PTRS);
}

/* Node id of whatever sits at region offset @off (CFG or a fault's extra) */
static u16 id_at(const struct cmn600_model_mesh *m, u64 off)
{
	unsigned int b = cmn600_model_coord_bits(m);
	unsigned int xy = off >> 20, slot = (off / CMN600_MODEL_BLOCK) & 63;
	unsigned int x = xy >> b, y = xy & ((1 << b) - 1), p = 0, d = 0;

	if (slot >= 1 && slot <= 4) {
		p = (slot - 1) / 2;
		d = (slot - 1) % 2;
	}
	return ((x << (3 + b)) | (y << 3) | (p << 2) | d) & 0xffff;
}

static bool slot_used(const struct cmn600_model_mesh *m, u64 off)
{
	unsigned int i;

	if (off == m->root)
		return true;
	for (i = 0; i < m->nr_nodes; i++) {
		const struct cmn600_model_node *n = &m->nodes[i];

		if (cmn600_model_node_offset(m, n->x, n->y, n->port, n->dev) == off)
			return true;
	}
	return false;
}

/* The extra node of the unknown_type fault: first free slot of XP (0,0) */
static u64 bogus_offset(const struct cmn600_model_mesh *m)
{
	unsigned int i;

	for (i = 1; i < 64; i++) {
		u64 off = CMN600_MODEL_BLOCK * i;

		if (off + CMN600_MODEL_BLOCK > m->size)
			break;
		if (!slot_used(m, off))
			return off;
	}
	return 0;
}

/* HN-F whose node id the nodeid_mismatch fault falsifies: lowest lid */
static int mismatch_node(const struct cmn600_model_mesh *m)
{
	int i, best = -1;

	for (i = 0; i < (int)m->nr_nodes; i++) {
		if (m->nodes[i].type != CMN600_MODEL_TYPE_HNF)
			continue;
		if (best < 0 || m->nodes[i].lid < m->nodes[best].lid)
			best = i;
	}
	return best;
}

static u16 mismatched_id(const struct cmn600_model_mesh *m, const struct cmn600_model_node *n)
{
	unsigned int x = n->x, y = n->y;

	/* move X (or Y) to a neighbour; a 1x1 mesh gets an X outside it */
	if (m->x_dim > 1)
		x = (x + 1) % m->x_dim;
	else if (m->y_dim > 1)
		y = (y + 1) % m->y_dim;
	else
		x = 1;
	return cmn600_model_node_id(m, x, y, n->port, n->dev);
}

static void build_cfg(struct builder *b)
{
	const struct cmn600_model_mesh *m = b->mesh;
	unsigned int nr_xps = m->x_dim * m->y_dim, x, y, i = 0;
	u16 type = CMN600_MODEL_TYPE_CFG;
	u64 root = m->root;

	if (b->fault == CMN600_MODEL_FAULT_ROOT_NOT_CFG)
		type = CMN600_MODEL_TYPE_XP;
	block(b, root);
	wr(b, root + CMN600M_NODE_INFO, node_info(type, id_at(m, root), 0));
	wr(b, root + CMN600M_CFG_PERIPH_ID_01,
	   FIELD_PREP(CMN600M_PID0_PART_LO, CMN600M_PART_CMN600 & 0xff) |
	   FIELD_PREP(CMN600M_PID1_PART_HI, CMN600M_PART_CMN600 >> 8) |
	   FIELD_PREP(CMN600M_PID1_DES0, CMN600M_JEP106_ARM & 0xf));
	wr(b, root + CMN600M_CFG_PERIPH_ID_23,
	   FIELD_PREP(CMN600M_PID2_DES1, CMN600M_JEP106_ARM >> 4) |
	   CMN600M_PID2_JEDEC | FIELD_PREP(CMN600M_PID2_REVISION, m->rev));
	wr(b, root + CMN600M_CHILD_INFO,
	   child_info(b->fault == CMN600_MODEL_FAULT_CHILD_COUNT ? 0xffff : nr_xps));

	/* XPs in logical-id (row-major) order */
	for (y = 0; y < m->y_dim; y++) {
		for (x = 0; x < m->x_dim; x++, i++) {
			u64 ptr = cmn600_model_xp_offset(m, x, y);

			if (b->fault == CMN600_MODEL_FAULT_CHILD_OOB && i == nr_xps - 1)
				ptr = m->size;
			wr(b, root + CMN600M_CHILD_PTRS + 8 * i, ptr);
		}
	}
	b->info.root = root;
	b->info.nr_xps = nr_xps;
}

static void build_xp(struct builder *b, unsigned int x, unsigned int y)
{
	const struct cmn600_model_mesh *m = b->mesh;
	u64 xp = cmn600_model_xp_offset(m, x, y);
	unsigned int lid = y * m->x_dim + x, nr = 0, p, d, i;
	int bad = -1;

	if (b->fault == CMN600_MODEL_FAULT_NODEID_MISMATCH)
		bad = mismatch_node(m);

	block(b, xp);
	wr(b, xp + CMN600M_NODE_INFO,
	   node_info(CMN600_MODEL_TYPE_XP, cmn600_model_node_id(m, x, y, 0, 0), lid));
	for (p = 0; p < CMN600_MODEL_MAX_PORTS; p++)
		wr(b, xp + CMN600M_XP_CONNECT_INFO(p),
		   FIELD_PREP(CMN600M_CONNECT_TYPE, m->connect[x][y][p]));
	if (b->fault == CMN600_MODEL_FAULT_GARBAGE_COUNTERS)
		garbage_dtm(b, xp);

	/* device nodes in (port, device) order */
	for (p = 0; p < CMN600_MODEL_MAX_PORTS; p++) {
		for (d = 0; d < CMN600_MODEL_MAX_DEVS; d++) {
			for (i = 0; i < m->nr_nodes; i++) {
				const struct cmn600_model_node *n = &m->nodes[i];
				u64 off;
				u16 id;

				if (n->x != x || n->y != y || n->port != p || n->dev != d)
					continue;
				if (n->type == CMN600_MODEL_TYPE_DTC &&
				    b->fault == CMN600_MODEL_FAULT_NO_DTC)
					continue;
				off = cmn600_model_node_offset(m, x, y, p, d);
				id = cmn600_model_node_id(m, x, y, p, d);
				if ((int)i == bad)
					id = mismatched_id(m, n);
				block(b, off);
				wr(b, off + CMN600M_NODE_INFO, node_info(n->type, id, n->lid));
				wr(b, off + CMN600M_CHILD_INFO, child_info(0));
				wr(b, xp + CMN600M_CHILD_PTRS + 8 * nr++, off);
				b->info.nr_nodes++;
				if (n->type == CMN600_MODEL_TYPE_HNF)
					b->info.nr_hnfs++;
				if (n->type == CMN600_MODEL_TYPE_DTC)
					b->info.nr_dtcs++;
				if (n->type == CMN600_MODEL_TYPE_DTC &&
				    b->fault == CMN600_MODEL_FAULT_GARBAGE_COUNTERS)
					garbage_dtc(b, off);
			}
		}
	}

	if (b->fault == CMN600_MODEL_FAULT_UNKNOWN_TYPE && lid == 0) {
		u64 off = bogus_offset(m);

		if (off) {
			block(b, off);
			wr(b, off + CMN600M_NODE_INFO,
			   node_info(CMN600_MODEL_TYPE_BOGUS, id_at(m, off), 0));
			wr(b, off + CMN600M_CHILD_INFO, child_info(0));
			wr(b, xp + CMN600M_CHILD_PTRS + 8 * nr++, off);
			b->info.nr_nodes++;
		}
	}
	/* the last XP also points back at the CFG node */
	if (b->fault == CMN600_MODEL_FAULT_CHILD_LOOP && lid == m->x_dim * m->y_dim - 1)
		wr(b, xp + CMN600M_CHILD_PTRS + 8 * nr++, m->root);

	wr(b, xp + CMN600M_CHILD_INFO, child_info(nr));
}

static void build(struct builder *b)
{
	const struct cmn600_model_mesh *m = b->mesh;
	unsigned int x, y;

	build_cfg(b);
	for (y = 0; y < m->y_dim; y++)
		for (x = 0; x < m->x_dim; x++)
			build_xp(b, x, y);
}

/**
 * cmn600_model_image_extent() - bytes of buffer an image needs
 * @mesh: a mesh from cmn600_model_parse()
 * @fault: the fault to apply
 *
 * Return: the end of the highest 16 KiB block the image uses.
 */
u64 cmn600_model_image_extent(const struct cmn600_model_mesh *mesh,
			      enum cmn600_model_fault fault)
{
	struct builder b = { .mesh = mesh, .fault = fault };

	build(&b);
	return b.info.extent;
}
EXPORT_SYMBOL_GPL(cmn600_model_image_extent);

/**
 * cmn600_model_build() - lay out the reset state of a mesh's config space
 * @mesh: a mesh from cmn600_model_parse()
 * @fault: the fault to apply (CMN600_MODEL_FAULT_NONE for a good image)
 * @buf: buffer standing for the region at PERIPHBASE, 8-byte aligned
 * @size: bytes in @buf; at least cmn600_model_image_extent()
 * @info: if not NULL, what was built
 *
 * Clears the first cmn600_model_image_extent() bytes of @buf, then writes
 * the CFG node, every XP and every device node. All PMU registers are zero,
 * except the counters under the garbage_counters fault, which hold junk
 * (their reset value is UNKNOWN on hardware).
 *
 * Return: 0, or -ENOSPC if @buf is too small.
 */
int cmn600_model_build(const struct cmn600_model_mesh *mesh,
		       enum cmn600_model_fault fault, void *buf, size_t size,
		       struct cmn600_model_image_info *info)
{
	struct builder b = { .mesh = mesh, .fault = fault };
	u64 extent = cmn600_model_image_extent(mesh, fault);

	if (size < extent)
		return -ENOSPC;
	memset(buf, 0, extent);
	b.buf = buf;
	build(&b);
	if (info)
		*info = b.info;
	return 0;
}
EXPORT_SYMBOL_GPL(cmn600_model_build);
