// SPDX-License-Identifier: GPL-2.0
/*
 * Pure logic of the CMN-600 HN-F PMU driver: perf config decoding, register
 * word composition, the discovery walk over a reader callback, counter
 * allocation and counter arithmetic. No MMIO and no perf structures here;
 * hw.c and pmu.c move values between these functions and the hardware.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/printk.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>

#include <arm_cmn_hnf/compat.h>

#include <arm_cmn_hnf/logic.h>

/* ------------------------------------------------------------------------ */
/* The perf ABI                                                             */

#define CMN_HNF_CONFIG_VALID	(CMN_HNF_CONFIG_EVENTID | CMN_HNF_CONFIG_OCCUPID | \
				 CMN_HNF_CONFIG_BYNODEID | CMN_HNF_CONFIG_NODEID | \
				 CMN_HNF_CONFIG_TYPE)

int cmn_hnf_decode_config(u64 config, struct cmn_hnf_evsel *sel)
{
	u64 eventid = FIELD_GET(CMN_HNF_CONFIG_EVENTID, config);
	u64 occupid = FIELD_GET(CMN_HNF_CONFIG_OCCUPID, config);
	u64 type = FIELD_GET(CMN_HNF_CONFIG_TYPE, config);
	bool bynodeid = config & CMN_HNF_CONFIG_BYNODEID;
	u64 nodeid = FIELD_GET(CMN_HNF_CONFIG_NODEID, config);

	memset(sel, 0, sizeof(*sel));
	if (config & ~CMN_HNF_CONFIG_VALID)
		return -EINVAL;

	if (type == CMN_HNF_TYPE_DTC) {
		/* The cycle counter takes no other field */
		if (eventid || occupid || bynodeid || nodeid)
			return -EINVAL;
		sel->cycles = true;
		return 0;
	}
	if (type != CMN_HNF_TYPE_DEFAULT && type != CMN_HNF_TYPE_HNF)
		return -EINVAL;

	if (eventid < 1 || eventid > CMN_HNF_EVENT_MAX)
		return -EINVAL;
	if (occupid >= CMN_HNF_OCCUP_NR)
		return -EINVAL;
	if (occupid && eventid != CMN_HNF_EVENT_OCCUPANCY)
		return -EINVAL;
	/* A node id without bynodeid would silently count every HN-F */
	if (nodeid && !bynodeid)
		return -EINVAL;

	sel->eventid = eventid;
	sel->occupid = occupid;
	sel->bynodeid = bynodeid;
	sel->nodeid = nodeid;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_decode_config);

/* ------------------------------------------------------------------------ */
/* Register words                                                           */

u64 cmn_hnf_encode_event_sel(const u8 ev[CMN_HNF_HNF_SLOTS], u8 occupid)
{
	return FIELD_PREP(CMN_HNF_PMU_EVENT0_ID, ev[0]) |
	       FIELD_PREP(CMN_HNF_PMU_EVENT1_ID, ev[1]) |
	       FIELD_PREP(CMN_HNF_PMU_EVENT2_ID, ev[2]) |
	       FIELD_PREP(CMN_HNF_PMU_EVENT3_ID, ev[3]) |
	       FIELD_PREP(CMN_HNF_PMU_OCCUP1_ID, occupid);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_encode_event_sel);

u64 cmn_hnf_encode_dtm_config(const struct cmn_hnf_dtm_cfg *cfg)
{
	u64 val = CMN_DTM_PMU_CONFIG_PMU_EN |
		  FIELD_PREP(CMN_DTM_PMU_CONFIG_PAIRED, cfg->paired);
	unsigned int n;

	if (cfg->comb & CMN_HNF_COMB_01)
		val |= CMN_DTM_PMU_CONFIG_CNT01_COMB;
	if (cfg->comb & CMN_HNF_COMB_23)
		val |= CMN_DTM_PMU_CONFIG_CNT23_COMB;
	if (cfg->comb & CMN_HNF_COMB_ALL)
		val |= CMN_DTM_PMU_CONFIG_ALL_COMB;

	/* Per-counter fields: the counter 0 field, shifted by the stride */
	for (n = 0; n < CMN_HNF_DTM_COUNTERS; n++) {
		val |= FIELD_PREP(CMN_DTM_PMU_CONFIG_GLOBAL_NUM0, cfg->global_num[n]) <<
		       (n * CMN_DTM_PMU_CONFIG_GLOBAL_NUM_STRIDE);
		val |= FIELD_PREP(CMN_DTM_PMU_CONFIG_INPUT_SEL0, cfg->input_sel[n]) <<
		       (n * CMN_DTM_PMU_CONFIG_INPUT_SEL_STRIDE);
	}
	return val;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_encode_dtm_config);

u8 cmn_hnf_dtm_input_sel(u8 port, u8 dev, u8 slot)
{
	return CMN_DTM_INPUT_DEVICE_BASE + port * CMN_DTM_INPUT_PORT_STRIDE +
	       dev * CMN_DTM_INPUT_DEV_STRIDE + slot;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_dtm_input_sel);

/* ------------------------------------------------------------------------ */
/* Node ids                                                                 */

#define CMN_NID_DEV		GENMASK(1, 0)
#define CMN_NID_PORT		BIT(2)
#define CMN_NID_Y_SHIFT		3

unsigned int cmn_hnf_coord_bits(u8 mesh_x, u8 mesh_y)
{
	return (mesh_x <= 4 && mesh_y <= 4) ? 2 : 3;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_coord_bits);

struct cmn_hnf_nid cmn_hnf_decode_nodeid(u16 id, unsigned int coord_bits)
{
	unsigned int mask = BIT(coord_bits) - 1;
	struct cmn_hnf_nid nid = {
		.dev = FIELD_GET(CMN_NID_DEV, id),
		.port = FIELD_GET(CMN_NID_PORT, id),
		.y = (id >> CMN_NID_Y_SHIFT) & mask,
		.x = (id >> (CMN_NID_Y_SHIFT + coord_bits)) & mask,
	};

	return nid;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_decode_nodeid);

u16 cmn_hnf_encode_nodeid(struct cmn_hnf_nid nid, unsigned int coord_bits)
{
	unsigned int mask = BIT(coord_bits) - 1;

	return (nid.x & mask) << (CMN_NID_Y_SHIFT + coord_bits) |
	       (nid.y & mask) << CMN_NID_Y_SHIFT |
	       FIELD_PREP(CMN_NID_PORT, nid.port) |
	       FIELD_PREP(CMN_NID_DEV, nid.dev);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_encode_nodeid);

/* ------------------------------------------------------------------------ */
/* Discovery                                                                */

/*
 * The walk is two levels deep by construction (CFG -> XPs -> device nodes),
 * so a loop in the pointers cannot make it run forever; the visited bitmap
 * (one bit per 16 KiB block) rejects a tree that reaches a node twice, which
 * would otherwise count an HN-F twice. Child pointers carry 28 address bits.
 */
#define CMN_HNF_WALK_SPAN	(CMN_CHILD_PTR_ADDR + 1)
#define CMN_HNF_WALK_BLOCKS	(CMN_HNF_WALK_SPAN / CMN_NODE_SIZE)

struct cmn_hnf_walk {
	cmn_hnf_read64_fn read;
	void *ctx;
	u64 size;
	struct cmn_hnf_topology *topo;
	char *why;
	size_t why_len;
	u32 root;
	unsigned long *visited;
	bool warned_mismatch;
};

static __printf(2, 3) int cmn_hnf_walk_fail(struct cmn_hnf_walk *w,
					    const char *fmt, ...)
{
	va_list args;

	if (w->why && w->why_len) {
		va_start(args, fmt);
		vsnprintf(w->why, w->why_len, fmt, args);
		va_end(args);
	}
	return -ENODEV;
}

/* Only called with offsets checked by cmn_hnf_walk_block() */
static u64 cmn_hnf_walk_read(struct cmn_hnf_walk *w, u32 node, u32 reg)
{
	return w->read(w->ctx, node + reg);
}

/* Is @offset the start of a 16 KiB block inside the region, not seen before? */
static int cmn_hnf_walk_block(struct cmn_hnf_walk *w, u32 offset, const char *what)
{
	if (offset & (CMN_NODE_SIZE - 1))
		return cmn_hnf_walk_fail(w, "%s at 0x%x: not on a 16 KiB boundary",
					 what, offset);
	if ((u64)offset + CMN_NODE_SIZE > w->size || offset >= CMN_HNF_WALK_SPAN)
		return cmn_hnf_walk_fail(w, "%s at 0x%x: outside the 0x%llx-byte region",
					 what, offset, w->size);
	if (__test_and_set_bit(offset / CMN_NODE_SIZE, w->visited))
		return cmn_hnf_walk_fail(w, "%s at 0x%x: node reached twice (pointer loop?)",
					 what, offset);
	return 0;
}

/*
 * Read a node's child_info and check that its pointer array fits in the
 * node's block; returns the number of children or a negative errno.
 */
static int cmn_hnf_walk_children(struct cmn_hnf_walk *w, u32 node,
				 unsigned int max, const char *what, u32 *ptrs)
{
	u64 info = cmn_hnf_walk_read(w, node, CMN_CHILD_INFO);
	u32 count = FIELD_GET(CMN_CHILD_INFO_COUNT, info);
	u32 ptr_off = FIELD_GET(CMN_CHILD_INFO_PTR_OFFSET, info);

	if (count > max)
		return cmn_hnf_walk_fail(w, "%s at 0x%x: child count %u exceeds the limit of %u",
					 what, node, count, max);
	if (ptr_off & (CMN_CHILD_PTR_STRIDE - 1) || ptr_off < CMN_CHILD_INFO + 8 ||
	    ptr_off + count * CMN_CHILD_PTR_STRIDE > CMN_NODE_SIZE)
		return cmn_hnf_walk_fail(w,
					 "%s at 0x%x: child pointer array at +0x%x (%u entries) is outside the node",
					 what, node, ptr_off, count);
	*ptrs = node + ptr_off;
	return count;
}

static int cmn_hnf_walk_device(struct cmn_hnf_walk *w, unsigned int xp, u32 offset)
{
	struct cmn_hnf_topology *topo = w->topo;
	u64 info = cmn_hnf_walk_read(w, offset, CMN_NODE_INFO);
	u16 type = FIELD_GET(CMN_NODE_INFO_TYPE, info);
	struct cmn_hnf_node_desc *node;
	struct cmn_hnf_nid nid;

	switch (type) {
	case CMN_TYPE_HNF:
		if (topo->num_hnfs >= CMN_HNF_MAX_HNFS)
			return cmn_hnf_walk_fail(w, "HN-F at 0x%x: more than %u HN-Fs",
						 offset, CMN_HNF_MAX_HNFS);
		node = &topo->hnf[topo->num_hnfs++];
		break;
	case CMN_TYPE_DTC:
		if (topo->num_dtcs >= CMN_HNF_MAX_DTCS)
			return cmn_hnf_walk_fail(w, "DTC at 0x%x: more than %u DTCs",
						 offset, CMN_HNF_MAX_DTCS);
		node = &topo->dtc[topo->num_dtcs++];
		break;
	case CMN_TYPE_CFG:
	case CMN_TYPE_XP:
		return cmn_hnf_walk_fail(w,
					 "device node at 0x%x under XP at 0x%x has type 0x%x (%s)",
					 offset, topo->xp[xp].offset, type,
					 type == CMN_TYPE_XP ? "XP" : "CFG");
	case CMN_TYPE_DVM:
	case CMN_TYPE_HNI:
	case CMN_TYPE_SBSX:
	case CMN_TYPE_RNI:
	case CMN_TYPE_RND:
	case CMN_TYPE_RNSAM:
	case CMN_TYPE_CXRA:
	case CMN_TYPE_CXHA:
	case CMN_TYPE_CXLA:
		return 0;
	default:
		pr_debug("node at 0x%x: unknown type 0x%x, skipped\n", offset, type);
		return 0;
	}

	/* Port and device do not depend on the coordinate width */
	nid = cmn_hnf_decode_nodeid(FIELD_GET(CMN_NODE_INFO_ID, info), 2);
	node->offset = offset;
	node->node_id = FIELD_GET(CMN_NODE_INFO_ID, info);
	node->logical_id = FIELD_GET(CMN_NODE_INFO_LOGID, info);
	node->xp = xp;
	node->port = nid.port;
	node->dev = nid.dev;
	return 0;
}

static int cmn_hnf_walk_xp(struct cmn_hnf_walk *w, unsigned int xp)
{
	struct cmn_hnf_xp_desc *desc = &w->topo->xp[xp];
	u32 ptrs, offset;
	int count, i, ret;
	u64 ptr;

	count = cmn_hnf_walk_children(w, desc->offset, CMN_HNF_MAX_XP_CHILDREN,
				      "XP", &ptrs);
	if (count < 0)
		return count;

	for (i = 0; i < count; i++) {
		ptr = cmn_hnf_walk_read(w, ptrs, i * CMN_CHILD_PTR_STRIDE);
		if (ptr & CMN_CHILD_PTR_EXTERNAL)
			continue;
		offset = FIELD_GET(CMN_CHILD_PTR_ADDR, ptr);
		ret = cmn_hnf_walk_block(w, offset, "device node");
		if (ret)
			return ret;
		ret = cmn_hnf_walk_device(w, xp, offset);
		if (ret)
			return ret;
	}
	return 0;
}

static int cmn_hnf_walk_cfg(struct cmn_hnf_walk *w, u32 root)
{
	struct cmn_hnf_topology *topo = w->topo;
	u64 info, id01, id23;
	u32 ptrs, offset;
	int count, i, p, ret;
	u16 part;
	u64 ptr;

	ret = cmn_hnf_walk_block(w, root, "root node");
	if (ret)
		return ret;
	info = cmn_hnf_walk_read(w, root, CMN_NODE_INFO);
	if (FIELD_GET(CMN_NODE_INFO_TYPE, info) != CMN_TYPE_CFG)
		return cmn_hnf_walk_fail(w,
					 "root node at 0x%x has type 0x%llx, not CFG (0x2): wrong root-node offset?",
					 root, FIELD_GET(CMN_NODE_INFO_TYPE, info));

	id01 = cmn_hnf_walk_read(w, root, CMN_CFG_PERIPH_ID_01);
	id23 = cmn_hnf_walk_read(w, root, CMN_CFG_PERIPH_ID_23);
	part = FIELD_GET(CMN_CFG_PERIPH_ID_01_PART_LO, id01) |
	       FIELD_GET(CMN_CFG_PERIPH_ID_01_PART_HI, id01) << 8;
	if (part != CMN_PART_CMN600 && part != CMN_PART_CMN600AE)
		return cmn_hnf_walk_fail(w,
					 "root node at 0x%x: part number 0x%03x is not CMN-600 (0x434) or CMN-600AE (0x438)",
					 root, part);
	/* CMN-600AE is a CMN-600 as far as the PMU is concerned */
	topo->part = CMN_PART_CMN600;
	topo->revision = FIELD_GET(CMN_CFG_PERIPH_ID_23_REVISION, id23);

	count = cmn_hnf_walk_children(w, root, CMN_HNF_MAX_XPS, "root node", &ptrs);
	if (count < 0)
		return count;
	if (!count)
		return cmn_hnf_walk_fail(w, "root node at 0x%x: no XPs", root);

	for (i = 0; i < count; i++) {
		ptr = cmn_hnf_walk_read(w, ptrs, i * CMN_CHILD_PTR_STRIDE);
		offset = FIELD_GET(CMN_CHILD_PTR_ADDR, ptr);
		if (ptr & CMN_CHILD_PTR_EXTERNAL)
			return cmn_hnf_walk_fail(w,
						 "root node at 0x%x: child %d (0x%llx) is external, not an XP",
						 root, i, ptr);
		ret = cmn_hnf_walk_block(w, offset, "XP");
		if (ret)
			return ret;
		info = cmn_hnf_walk_read(w, offset, CMN_NODE_INFO);
		if (FIELD_GET(CMN_NODE_INFO_TYPE, info) != CMN_TYPE_XP)
			return cmn_hnf_walk_fail(w,
						 "root child %d at 0x%x has type 0x%llx, not XP (0x6)",
						 i, offset, FIELD_GET(CMN_NODE_INFO_TYPE, info));
		topo->xp[i].offset = offset;
		topo->xp[i].node_id = FIELD_GET(CMN_NODE_INFO_ID, info);
		topo->xp[i].logical_id = FIELD_GET(CMN_NODE_INFO_LOGID, info);
		for (p = 0; p < CMN_MXP_PORTS; p++) {
			info = cmn_hnf_walk_read(w, offset, CMN_MXP_PORT_CONNECT_INFO(p));
			topo->xp[i].port_type[p] = FIELD_GET(CMN_MXP_PORT_CONNECT_INFO_TYPE,
							     info);
		}
		topo->xp[i].dtc = -1;
		topo->num_xps = i + 1;
	}

	for (i = 0; i < count; i++) {
		ret = cmn_hnf_walk_xp(w, i);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Do the XP node ids, decoded with @b coordinate bits, form a complete
 * X*Y rectangle with no duplicates, and is @b the width such a mesh uses?
 */
static bool cmn_hnf_mesh_fits(const struct cmn_hnf_topology *topo, unsigned int b,
			      u8 *mesh_x, u8 *mesh_y)
{
	u64 seen = 0;
	unsigned int i, x = 0, y = 0;
	struct cmn_hnf_nid nid;

	for (i = 0; i < topo->num_xps; i++) {
		u16 id = topo->xp[i].node_id;

		/* An XP's id has port = dev = 0 and nothing above X */
		if (id & (BIT(CMN_NID_Y_SHIFT) - 1) || id >> (CMN_NID_Y_SHIFT + 2 * b))
			return false;
		nid = cmn_hnf_decode_nodeid(id, b);
		if (seen & BIT_ULL(nid.x * CMN_HNF_MAX_DIM + nid.y))
			return false;
		seen |= BIT_ULL(nid.x * CMN_HNF_MAX_DIM + nid.y);
		x = max_t(unsigned int, x, nid.x + 1);
		y = max_t(unsigned int, y, nid.y + 1);
	}
	/* No duplicates and X*Y of them: every position is taken */
	if (x * y != topo->num_xps || cmn_hnf_coord_bits(x, y) != b)
		return false;
	*mesh_x = x;
	*mesh_y = y;
	return true;
}

/* XPs carry row-major logical ids: y * X + x */
static bool cmn_hnf_lids_row_major(const struct cmn_hnf_topology *topo,
				   unsigned int b, u8 mesh_x)
{
	struct cmn_hnf_nid nid;
	unsigned int i;

	for (i = 0; i < topo->num_xps; i++) {
		nid = cmn_hnf_decode_nodeid(topo->xp[i].node_id, b);
		if (topo->xp[i].logical_id != nid.y * mesh_x + nid.x)
			return false;
	}
	return true;
}

/*
 * The mesh size is not in any CMN-600 register. The XP node ids give it:
 * decoded with the right coordinate width they fill an X*Y rectangle
 * exactly once. This needs no trust in the XP logical ids, which only serve
 * as the tie-break for the two id sets that fit both widths (2x4 vs 1x8 and
 * 4x4 vs 2x8 have the same XP ids).
 */
static int cmn_hnf_walk_mesh(struct cmn_hnf_walk *w)
{
	struct cmn_hnf_topology *topo = w->topo;
	u8 x2, y2, x3, y3;
	bool fit2, fit3;

	fit2 = cmn_hnf_mesh_fits(topo, 2, &x2, &y2);
	fit3 = cmn_hnf_mesh_fits(topo, 3, &x3, &y3);
	if (fit2 && fit3)
		fit2 = cmn_hnf_lids_row_major(topo, 2, x2) ||
		       !cmn_hnf_lids_row_major(topo, 3, x3);
	if (fit2) {
		topo->coord_bits = 2;
		topo->mesh_x = x2;
		topo->mesh_y = y2;
	} else if (fit3) {
		topo->coord_bits = 3;
		topo->mesh_x = x3;
		topo->mesh_y = y3;
	} else {
		return cmn_hnf_walk_fail(w,
					 "root node at 0x%x: the node ids of its %u XPs do not form a complete mesh",
					 w->root, topo->num_xps);
	}
	return 0;
}

static int cmn_hnf_cmp_lid(const void *a, const void *b)
{
	const struct cmn_hnf_node_desc *na = a, *nb = b;

	return (int)na->logical_id - (int)nb->logical_id;
}

static int cmn_hnf_walk_finish(struct cmn_hnf_walk *w)
{
	struct cmn_hnf_topology *topo = w->topo;
	struct cmn_hnf_xp_desc *xp;
	struct cmn_hnf_nid nid;
	unsigned int i;
	int ret;

	if (!topo->num_dtcs)
		return cmn_hnf_walk_fail(w, "root node at 0x%x: no DTC under any of its %u XPs",
					 w->root, topo->num_xps);
	if (!topo->num_hnfs)
		return cmn_hnf_walk_fail(w, "root node at 0x%x: no HN-F under any of its %u XPs",
					 w->root, topo->num_xps);
	ret = cmn_hnf_walk_mesh(w);
	if (ret)
		return ret;

	for (i = 0; i < topo->num_xps; i++) {
		xp = &topo->xp[i];
		nid = cmn_hnf_decode_nodeid(xp->node_id, topo->coord_bits);
		xp->x = nid.x;
		xp->y = nid.y;
	}

	sort(topo->hnf, topo->num_hnfs, sizeof(topo->hnf[0]), cmn_hnf_cmp_lid, NULL);
	sort(topo->dtc, topo->num_dtcs, sizeof(topo->dtc[0]), cmn_hnf_cmp_lid, NULL);

	/* dtc[i] is DTC domain i and takes interrupt i */
	for (i = 0; i < topo->num_dtcs; i++) {
		if (topo->dtc[i].logical_id != i)
			return cmn_hnf_walk_fail(w,
						 "DTC at 0x%x: logical id %u, expected %u (DTC ids must be 0..%u)",
						 topo->dtc[i].offset, topo->dtc[i].logical_id,
						 i, topo->num_dtcs - 1);
		topo->xp[topo->dtc[i].xp].dtc = i;
	}

	/*
	 * The parent found by the walk decides which DTM counts an HN-F. Some
	 * CMN-600 parts have been seen with device node ids that do not match
	 * their XP, so a mismatch is reported, not refused.
	 */
	for (i = 0; i < topo->num_hnfs; i++) {
		xp = &topo->xp[topo->hnf[i].xp];
		nid = cmn_hnf_decode_nodeid(topo->hnf[i].node_id, topo->coord_bits);
		if ((nid.x != xp->x || nid.y != xp->y) && !w->warned_mismatch) {
			pr_info("HN-F at 0x%x: node id 0x%x says XP (%u,%u) but it hangs off XP (%u,%u) at 0x%x; using the latter\n",
				topo->hnf[i].offset, topo->hnf[i].node_id, nid.x, nid.y,
				xp->x, xp->y, xp->offset);
			w->warned_mismatch = true;
		}
	}
	return 0;
}

int cmn_hnf_discover(cmn_hnf_read64_fn read, void *ctx, u64 size, u32 root,
		     struct cmn_hnf_topology *topo, char *why, size_t why_len)
{
	struct cmn_hnf_walk w = {
		.read = read,
		.ctx = ctx,
		.size = size,
		.topo = topo,
		.why = why,
		.why_len = why_len,
		.root = root,
	};
	int ret;

	memset(topo, 0, sizeof(*topo));
	if (why && why_len)
		why[0] = '\0';

	w.visited = bitmap_zalloc(CMN_HNF_WALK_BLOCKS, GFP_KERNEL);
	if (!w.visited)
		return -ENOMEM;

	ret = cmn_hnf_walk_cfg(&w, root);
	if (!ret)
		ret = cmn_hnf_walk_finish(&w);
	bitmap_free(w.visited);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_discover);

int cmn_hnf_find_hnf(const struct cmn_hnf_topology *topo, u16 nodeid)
{
	unsigned int i;

	for (i = 0; i < topo->num_hnfs; i++)
		if (topo->hnf[i].node_id == nodeid)
			return i;
	return -1;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_find_hnf);

/* ------------------------------------------------------------------------ */
/* DTM-local counter widths                                                 */

u64 cmn_hnf_worst_case(const struct cmn_hnf_evsel *sel, unsigned int poll_ms)
{
	u64 per_cycle = sel->eventid == CMN_HNF_EVENT_OCCUPANCY ?
			CMN_HNF_MAX_OCCUPANCY : CMN_HNF_MAX_EVENT_RATE;

	/* cycles per ms: MHz * 1000 */
	return per_cycle * CMN_HNF_MAX_MESH_MHZ * 1000 * poll_ms;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_worst_case);

u8 cmn_hnf_local_widths(const struct cmn_hnf_evsel *sel, unsigned int poll_ms)
{
	u8 widths = CMN_HNF_WIDTH_64;

	if (sel->cycles || !sel->bynodeid)
		return 0;
	if (cmn_hnf_worst_case(sel, poll_ms) < BIT_ULL(31))
		widths |= CMN_HNF_WIDTH_32;
	return widths;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_local_widths);

/* ------------------------------------------------------------------------ */
/* Counter allocation                                                       */

#define CMN_HNF_DTM_ALL		GENMASK(CMN_HNF_DTM_COUNTERS - 1, 0)
#define CMN_HNF_PAIR_MASK(p)	(GENMASK(1, 0) << (2 * (p)))

static bool cmn_hnf_claims_occup(const struct cmn_hnf_request *req)
{
	return req->sel.eventid == CMN_HNF_EVENT_OCCUPANCY;
}

/* Lowest clear bit of @used below @n, or -1 */
static int cmn_hnf_lowest_free(unsigned long used, unsigned int n)
{
	unsigned long free = ~used & (BIT(n) - 1);

	return free ? __ffs(free) : -1;
}

/* Has HN-F @h a free event slot, and a compatible occupancy filter? */
static bool cmn_hnf_node_fits(const struct cmn_hnf_alloc_state *state,
			      const struct cmn_hnf_request *req, unsigned int h)
{
	if (cmn_hnf_lowest_free(state->slot_used[h], CMN_HNF_HNF_SLOTS) < 0)
		return false;
	return !(cmn_hnf_claims_occup(req) && state->occup_refs[h] &&
		 state->occup_val[h] != req->sel.occupid);
}

static void cmn_hnf_claim_node(struct cmn_hnf_alloc_state *state,
			       const struct cmn_hnf_request *req,
			       struct cmn_hnf_grant *grant, unsigned int h)
{
	int slot = cmn_hnf_lowest_free(state->slot_used[h], CMN_HNF_HNF_SLOTS);

	state->slot_used[h] |= BIT(slot);
	if (cmn_hnf_claims_occup(req)) {
		state->occup_val[h] = req->sel.occupid;
		state->occup_refs[h]++;
	}
	grant->slot[h] = slot;
}

static void cmn_hnf_release_node(struct cmn_hnf_alloc_state *state,
				 const struct cmn_hnf_request *req,
				 const struct cmn_hnf_grant *grant, unsigned int h)
{
	state->slot_used[h] &= ~BIT(grant->slot[h]);
	if (cmn_hnf_claims_occup(req) && !--state->occup_refs[h])
		state->occup_val[h] = 0;
}

/* The HN-Fs an event counts on: all of them, or the one it names */
static void cmn_hnf_req_range(const struct cmn_hnf_topology *topo,
			      const struct cmn_hnf_request *req,
			      unsigned int *first, unsigned int *end)
{
	if (req->hnf < 0) {
		*first = 0;
		*end = topo->num_hnfs;
	} else {
		*first = req->hnf;
		*end = req->hnf + 1;
	}
}

/* Can the LOCAL64 event of an XP whose dtm_local is @local be 32 bits? */
static bool cmn_hnf_can_narrow(u8 local)
{
	return (local & CMN_HNF_LOCAL_ALL) && !(local & CMN_HNF_LOCAL_ALL_FIXED);
}

/*
 * Aggregated requests: every HN-F takes one 16-bit counter of its XP and
 * the event one global counter. Everything is checked before anything is
 * claimed, so a refusal leaves the state alone.
 */
static int cmn_hnf_alloc_global(struct cmn_hnf_alloc_state *state,
				const struct cmn_hnf_topology *topo,
				const struct cmn_hnf_request *req,
				struct cmn_hnf_grant *grant)
{
	u8 need[CMN_HNF_MAX_XPS] = {};
	unsigned int first, end, h, xp, free;
	u64 narrow = 0;
	int global, ctr;

	global = cmn_hnf_lowest_free(state->global_used, CMN_HNF_DTC_COUNTERS);
	if (global < 0)
		return -ENOSPC;

	cmn_hnf_req_range(topo, req, &first, &end);
	for (h = first; h < end; h++) {
		if (!cmn_hnf_node_fits(state, req, h))
			return -ENOSPC;
		need[topo->hnf[h].xp]++;
	}
	for (xp = 0; xp < topo->num_xps; xp++) {
		if (!need[xp])
			continue;
		free = CMN_HNF_DTM_COUNTERS - hweight8(state->dtm_used[xp]);
		if (free >= need[xp])
			continue;
		/* A 64-bit local counter gives back two counters as 32 bits */
		if (!cmn_hnf_can_narrow(state->dtm_local[xp]) || free + 2 < need[xp])
			return -ENOSPC;
		narrow |= BIT_ULL(xp);
	}

	for (xp = 0; xp < topo->num_xps; xp++) {
		if (!(narrow & BIT_ULL(xp)))
			continue;
		state->dtm_used[xp] &= ~CMN_HNF_PAIR_MASK(1);
		state->dtm_local[xp] = CMN_HNF_LOCAL_PAIR(0);
	}
	for (h = first; h < end; h++) {
		xp = topo->hnf[h].xp;
		ctr = cmn_hnf_lowest_free(state->dtm_used[xp], CMN_HNF_DTM_COUNTERS);
		state->dtm_used[xp] |= BIT(ctr);
		grant->dtm_ctr[h] = ctr;
		cmn_hnf_claim_node(state, req, grant, h);
	}
	state->global_used |= BIT(global);
	grant->place = CMN_HNF_PLACE_GLOBAL;
	grant->global = global;
	grant->narrowed = narrow;
	return 0;
}

/* How a bynodeid event would sit in one XP */
struct cmn_hnf_fit {
	u8 place;
	u8 ctr;			/* lowest DTM counter */
};

/* Where a bynodeid request fits among the free counters @used leaves */
static bool cmn_hnf_fit_one(u8 used, u8 widths, bool global_free,
			    struct cmn_hnf_fit *fit)
{
	unsigned int p;
	int ctr;

	if ((widths & CMN_HNF_WIDTH_64) && !(used & CMN_HNF_DTM_ALL)) {
		fit->place = CMN_HNF_PLACE_LOCAL64;
		fit->ctr = 0;
		return true;
	}
	for (p = 0; (widths & CMN_HNF_WIDTH_32) && p < 2; p++) {
		if (!(used & CMN_HNF_PAIR_MASK(p))) {
			fit->place = CMN_HNF_PLACE_LOCAL32;
			fit->ctr = 2 * p;
			return true;
		}
	}
	ctr = cmn_hnf_lowest_free(used, CMN_HNF_DTM_COUNTERS);
	if (!global_free || ctr < 0)
		return false;
	fit->place = CMN_HNF_PLACE_GLOBAL;
	fit->ctr = ctr;
	return true;
}

/* Ways to make room in a full XP, tried in this order */
enum cmn_hnf_room {
	CMN_HNF_ROOM_NARROW,	/* LOCAL64 -> LOCAL32 at pair 0 */
	CMN_HNF_ROOM_MOVE_ALL,	/* LOCAL64 -> GLOBAL on counter 0 */
	CMN_HNF_ROOM_MOVE_0,	/* LOCAL32 at pair 0 -> GLOBAL on counter 0 */
	CMN_HNF_ROOM_MOVE_1,	/* LOCAL32 at pair 1 -> GLOBAL on counter 2 */
	CMN_HNF_ROOM_NR,
};

/*
 * What @used and @local of an XP become after @room; false if @room does
 * not apply. A move takes a global counter.
 */
static bool cmn_hnf_make_room(int room, u8 *used, u8 *local)
{
	switch (room) {
	case CMN_HNF_ROOM_NARROW:
		if (!cmn_hnf_can_narrow(*local))
			return false;
		*used &= ~CMN_HNF_PAIR_MASK(1);
		*local = CMN_HNF_LOCAL_PAIR(0);
		return true;
	case CMN_HNF_ROOM_MOVE_ALL:
		if (!(*local & CMN_HNF_LOCAL_ALL))
			return false;
		*used = BIT(0);
		*local = 0;
		return true;
	case CMN_HNF_ROOM_MOVE_0:
	case CMN_HNF_ROOM_MOVE_1: {
		unsigned int p = room - CMN_HNF_ROOM_MOVE_0;

		if (!(*local & CMN_HNF_LOCAL_PAIR(p)))
			return false;
		*used &= ~BIT(2 * p + 1);
		*local &= ~CMN_HNF_LOCAL_PAIR(p);
		return true;
	}
	default:
		return false;
	}
}

/*
 * A bynodeid request: the widest local counter that fits, else a 16-bit
 * counter and a global one; if the XP is full, the first way of making room
 * after which it fits.
 */
static int cmn_hnf_alloc_one(struct cmn_hnf_alloc_state *state,
			     const struct cmn_hnf_topology *topo,
			     const struct cmn_hnf_request *req,
			     struct cmn_hnf_grant *grant)
{
	unsigned int h = req->hnf, xp = topo->hnf[h].xp;
	int global, room, made = -1, moved_to = -1;
	struct cmn_hnf_fit fit;
	u8 used, local, globals;
	bool fits;

	if (!cmn_hnf_node_fits(state, req, h))
		return -ENOSPC;

	used = state->dtm_used[xp];
	local = state->dtm_local[xp];
	globals = state->global_used;
	fits = cmn_hnf_fit_one(used, req->widths, globals != 0xff, &fit);
	for (room = 0; !fits && room < CMN_HNF_ROOM_NR; room++) {
		used = state->dtm_used[xp];
		local = state->dtm_local[xp];
		globals = state->global_used;
		if (!cmn_hnf_make_room(room, &used, &local))
			continue;
		if (room != CMN_HNF_ROOM_NARROW) {
			/* the event that moves takes a global counter */
			moved_to = cmn_hnf_lowest_free(globals, CMN_HNF_DTC_COUNTERS);
			if (moved_to < 0)
				break;
			globals |= BIT(moved_to);
		}
		fits = cmn_hnf_fit_one(used, req->widths, globals != 0xff, &fit);
		if (fits)
			made = room;
	}
	if (!fits)
		return -ENOSPC;

	if (made == CMN_HNF_ROOM_NARROW) {
		grant->narrowed = BIT_ULL(xp);
	} else if (made >= 0) {
		grant->moved.xp = xp;
		grant->moved.pair = made == CMN_HNF_ROOM_MOVE_1;
		grant->moved.global = moved_to;
	}

	switch (fit.place) {
	case CMN_HNF_PLACE_LOCAL64:
		used |= CMN_HNF_DTM_ALL;
		local |= CMN_HNF_LOCAL_ALL;
		if (!(req->widths & CMN_HNF_WIDTH_32))
			local |= CMN_HNF_LOCAL_ALL_FIXED;
		break;
	case CMN_HNF_PLACE_LOCAL32:
		used |= CMN_HNF_PAIR_MASK(fit.ctr / 2);
		local |= CMN_HNF_LOCAL_PAIR(fit.ctr / 2);
		break;
	default:
		global = cmn_hnf_lowest_free(globals, CMN_HNF_DTC_COUNTERS);
		globals |= BIT(global);
		used |= BIT(fit.ctr);
		grant->global = global;
		break;
	}
	state->dtm_used[xp] = used;
	state->dtm_local[xp] = local;
	state->global_used = globals;
	cmn_hnf_claim_node(state, req, grant, h);
	grant->place = fit.place;
	grant->dtm_ctr[h] = fit.ctr;
	return 0;
}

int cmn_hnf_alloc(struct cmn_hnf_alloc_state *state,
		  const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_request *req, struct cmn_hnf_grant *grant)
{
	if (req->hnf < -1 || req->hnf >= (int)topo->num_hnfs)
		return -EINVAL;

	grant->place = CMN_HNF_PLACE_NONE;
	grant->narrowed = 0;
	grant->moved.xp = -1;
	if (req->sel.cycles) {
		if (state->cycles_used)
			return -ENOSPC;
		state->cycles_used = true;
		grant->place = CMN_HNF_PLACE_CYCLES;
		return 0;
	}
	if (req->hnf >= 0 && req->widths)
		return cmn_hnf_alloc_one(state, topo, req, grant);
	return cmn_hnf_alloc_global(state, topo, req, grant);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_alloc);

void cmn_hnf_free(struct cmn_hnf_alloc_state *state,
		  const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_request *req,
		  const struct cmn_hnf_grant *grant)
{
	unsigned int first, end, h, xp;
	u8 ctr;

	if (req->sel.cycles) {
		state->cycles_used = false;
		return;
	}
	cmn_hnf_req_range(topo, req, &first, &end);
	for (h = first; h < end; h++) {
		xp = topo->hnf[h].xp;
		ctr = grant->dtm_ctr[h];
		switch (grant->place) {
		case CMN_HNF_PLACE_LOCAL64:
			state->dtm_used[xp] &= ~CMN_HNF_DTM_ALL;
			state->dtm_local[xp] &= ~(CMN_HNF_LOCAL_ALL |
						  CMN_HNF_LOCAL_ALL_FIXED);
			break;
		case CMN_HNF_PLACE_LOCAL32:
			state->dtm_used[xp] &= ~CMN_HNF_PAIR_MASK(ctr / 2);
			state->dtm_local[xp] &= ~CMN_HNF_LOCAL_PAIR(ctr / 2);
			break;
		default:
			state->dtm_used[xp] &= ~BIT(ctr);
			break;
		}
		cmn_hnf_release_node(state, req, grant, h);
	}
	if (grant->place == CMN_HNF_PLACE_GLOBAL)
		state->global_used &= ~BIT(grant->global);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_free);

/* ------------------------------------------------------------------------ */
/* Counter arithmetic                                                       */

/* The 16-bit counters 0 and 2 (@even) or 1 and 3 (@odd), each in 32 bits */
#define CMN_HNF_LANES	0x0000ffff0000ffffULL

/*
 * cmn_hnf_dtm_route() without a branch or a loop: it runs once per run of
 * XPs. The global_num fields are 3 bits wide in the register, so only
 * their low 3 bits route a carry.
 */
static __always_inline u32 cmn_hnf_route(const struct cmn_hnf_dtm_cfg *cfg)
{
	const u8 *g = cfg->global_num;
	u32 num = g[0] | g[1] << 8 | g[2] << 16 | (u32)g[3] << 24;
	/* bit n of paired to bit 8n: the products' bits never overlap */
	u32 on = ((cfg->paired & 0xf) * 0x00204081U) & 0x01010101U;

	return (num & 0x07070707U & (on * 0xff)) |
	       ((on ^ 0x01010101U) * CMN_HNF_ROUTE_NONE);
}

u32 cmn_hnf_dtm_route(const struct cmn_hnf_dtm_cfg *cfg)
{
	return cmn_hnf_route(cfg);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_dtm_route);

/*
 * What tells how the counters of an XP pair: paired and global_num, as
 * one word (the four global_num bytes in memory order, which only needs
 * to compare equal for equal fields).
 */
static __always_inline u64 cmn_hnf_pair_key(const struct cmn_hnf_dtm_cfg *cfg)
{
	u32 num;

	memcpy(&num, cfg->global_num, sizeof(num));
	return (u64)num << 8 | cfg->paired;
}

void cmn_hnf_group_route(struct cmn_hnf_group_sample *gs,
			 const struct cmn_hnf_dtm_cfg *dtm)
{
	u64 xps = gs->xps, key;
	unsigned int x;

	gs->route = CMN_HNF_ROUTE_MIXED;
	if (!xps)
		return;
	key = cmn_hnf_pair_key(&dtm[__ffs64(xps)]);
	for (; xps; xps &= xps - 1) {
		x = __ffs64(xps);
		if (cmn_hnf_pair_key(&dtm[x]) != key)
			return;
	}
	gs->route = cmn_hnf_route(&dtm[__ffs64(gs->xps)]);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_group_route);

/*
 * Add the counter sums of a run of XPs with route @route (@even: counters
 * 0 and 2, @odd: 1 and 3, each in a 32-bit half) to their global counters;
 * a counter that is not paired adds to the entry that means nothing.
 */
static __always_inline void cmn_hnf_group_add(u32 route, u64 even, u64 odd,
					      u32 local[CMN_HNF_GROUP_LOCALS])
{
	local[route & 0xff] += (u32)even;
	local[(route >> 8) & 0xff] += (u32)odd;
	local[(route >> 16) & 0xff] += (u32)(even >> 32);
	local[route >> 24] += (u32)(odd >> 32);
}

/*
 * cmn_hnf_group_add() for a run of XPs that pair as @cfg. Not inlined:
 * the compiler would compute the route on every XP.
 */
static noinline void cmn_hnf_group_flush(const struct cmn_hnf_dtm_cfg *cfg,
					 u64 even, u64 odd,
					 u32 local[CMN_HNF_GROUP_LOCALS])
{
	cmn_hnf_group_add(cmn_hnf_route(cfg), even, odd, local);
}

/* cmn_hnf_group_locals() when the XPs of @gs pair in different ways */
static noinline void cmn_hnf_group_runs(const struct cmn_hnf_group_sample *gs,
					const struct cmn_hnf_dtm_cfg *dtm,
					u32 local[CMN_HNF_GROUP_LOCALS])
{
	const struct cmn_hnf_dtm_cfg *run;
	u64 xps = gs->xps, even = 0, odd = 0, val, key;
	unsigned int x;

	run = &dtm[__ffs64(xps)];
	key = cmn_hnf_pair_key(run);
	do {
		x = __ffs64(xps);
		xps &= xps - 1;
		/* a run goes on while the counters pair alike */
		if (unlikely(cmn_hnf_pair_key(&dtm[x]) != key)) {
			cmn_hnf_group_flush(run, even, odd, local);
			even = 0;
			odd = 0;
			run = &dtm[x];
			key = cmn_hnf_pair_key(run);
		}
		/* at most 64 XPs: each 32-bit half stays below 2^22 */
		val = gs->xp[x];
		even += val & CMN_HNF_LANES;
		odd += (val >> CMN_DTM_PMEVCNT_WIDTH) & CMN_HNF_LANES;
	} while (xps);
	cmn_hnf_group_flush(run, even, odd, local);
}

void cmn_hnf_group_locals(const struct cmn_hnf_group_sample *gs,
			  const struct cmn_hnf_dtm_cfg *dtm,
			  u32 local[CMN_HNF_GROUP_LOCALS])
{
	u64 xps = gs->xps, even = 0, odd = 0, val;
	unsigned int x;

	memset(local, 0, sizeof(u32) * CMN_HNF_GROUP_LOCALS);
	if (!xps)
		return;
	if (unlikely(gs->route == CMN_HNF_ROUTE_MIXED)) {
		cmn_hnf_group_runs(gs, dtm, local);
		return;
	}
	/* one run: every XP's counters pair alike */
	do {
		x = __ffs64(xps);
		xps &= xps - 1;
		val = gs->xp[x];
		even += val & CMN_HNF_LANES;
		odd += (val >> CMN_DTM_PMEVCNT_WIDTH) & CMN_HNF_LANES;
	} while (xps);
	cmn_hnf_group_add(gs->route, even, odd, local);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_group_locals);

u8 cmn_hnf_fields_lane(const u8 *fields, unsigned int nxps)
{
	unsigned int i;

	if (!nxps || fields[0] >= BIT(CMN_HNF_DTM_COUNTERS) ||
	    hweight8(fields[0]) != 1)
		return CMN_HNF_LANE_MIXED;
	for (i = 1; i < nxps; i++)
		if (fields[i] != fields[0])
			return CMN_HNF_LANE_MIXED;
	return __ffs(fields[0]);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_fields_lane);

void cmn_hnf_acc_init(struct cmn_hnf_acc *acc, const struct cmn_hnf_sample *base)
{
	memset(acc, 0, sizeof(*acc));
	acc->last = *base;
	acc->high = base->local;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_init);

/*
 * The global counter of DTC @d read as @cur: its increments since the last
 * sample are carries, and a value below the last one is a wrap.
 */
static __always_inline void cmn_hnf_acc_global(struct cmn_hnf_acc *acc,
					       unsigned int d, u32 cur,
					       u64 *carries, unsigned int *wrapped)
{
	u32 last = acc->last.global[d];

	*wrapped |= (cur < last) << d;
	*carries += (u32)(cur - last);
	acc->last.global[d] = cur;
}

/* The rest of an update, once every global counter is in @carries */
static __always_inline u64 cmn_hnf_acc_local(struct cmn_hnf_acc *acc,
					     u64 carries, unsigned int wrapped,
					     u32 local)
{
	u64 now, delta;

	acc->carries = carries;
	acc->wrapped = wrapped;
	acc->last.local = local;

	now = (carries << CMN_DTM_PMEVCNT_WIDTH) + local;
	/* short (cmn_hnf_acc_short()): nothing counted, the next read catches up */
	if (now < acc->high)
		return 0;
	delta = now - acc->high;
	acc->high = now;
	return delta;
}

u64 cmn_hnf_acc_update(struct cmn_hnf_acc *acc, const struct cmn_hnf_sample *s,
		       unsigned int num_dtcs)
{
	u64 carries = acc->carries;
	unsigned int d, wrapped = acc->wrapped;

	num_dtcs = min_t(unsigned int, num_dtcs, CMN_HNF_MAX_DTCS);
	/* Each global increment is one wrap of a 16-bit local counter */
	for (d = 0; d < num_dtcs; d++)
		cmn_hnf_acc_global(acc, d, s->global[d], &carries, &wrapped);
	return cmn_hnf_acc_local(acc, carries, wrapped, s->local);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_update);

u64 cmn_hnf_acc_update_group(struct cmn_hnf_acc *acc,
			     const struct cmn_hnf_group_sample *gs,
			     unsigned int global, u32 local,
			     unsigned int num_dtcs)
{
	u64 carries = acc->carries;
	unsigned int d, wrapped = acc->wrapped, p = global / 2;
	/* cmn_hnf_pair_counter() as one shift per DTC: both fields 32 bits */
	unsigned int shift = global & 1 ? __ffs64(CMN_DT_PMEVCNT_PAIR_ODD) :
					  __ffs64(CMN_DT_PMEVCNT_PAIR_EVEN);

	num_dtcs = min_t(unsigned int, num_dtcs, CMN_HNF_MAX_DTCS);
	for (d = 0; d < num_dtcs; d++)
		cmn_hnf_acc_global(acc, d, (u32)(gs->pair[d][p] >> shift),
				   &carries, &wrapped);
	return cmn_hnf_acc_local(acc, carries, wrapped, local);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_update_group);

void cmn_hnf_acc_flags_at_base(struct cmn_hnf_acc *acc, u8 dtcs)
{
	acc->at_base = dtcs;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_flags_at_base);

void cmn_hnf_acc_flags_clear(struct cmn_hnf_acc *acc, u8 dtcs)
{
	acc->at_base &= ~dtcs;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_flags_clear);

bool cmn_hnf_acc_explained(const struct cmn_hnf_acc *acc, u8 dtcs)
{
	return (acc->wrapped | acc->at_base) & dtcs;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_explained);

u64 cmn_hnf_acc_overflow(struct cmn_hnf_acc *acc, u8 dtcs)
{
	unsigned int d;
	u64 now, delta;

	for (d = 0; d < CMN_HNF_MAX_DTCS; d++) {
		if (!(dtcs & BIT(d)))
			continue;
		/* each flag is accounted once: this one is cleared next */
		if (acc->wrapped & BIT(d)) {
			acc->wrapped &= ~BIT(d);
			acc->at_base &= ~BIT(d);
			continue;
		}
		/* the wrap it reports is in the baseline */
		if (acc->at_base & BIT(d)) {
			acc->at_base &= ~BIT(d);
			continue;
		}
		acc->carries += 1ULL << CMN_DT_PMEVCNT_WIDTH;
		acc->unconfirmed[d]++;
	}
	/* From the last sample, with the periods just added */
	now = (acc->carries << CMN_DTM_PMEVCNT_WIDTH) + acc->last.local;
	if (now <= acc->high)
		return 0;
	delta = now - acc->high;
	acc->high = now;
	return delta;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_overflow);

void cmn_hnf_acc_confirm(struct cmn_hnf_acc *acc, u8 dtcs)
{
	unsigned int d;

	for (d = 0; d < CMN_HNF_MAX_DTCS; d++)
		if (dtcs & BIT(d))
			acc->unconfirmed[d] = 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_confirm);

u64 cmn_hnf_acc_revoke(struct cmn_hnf_acc *acc, u8 dtcs)
{
	unsigned int d;
	u64 periods = 0, events;

	for (d = 0; d < CMN_HNF_MAX_DTCS; d++) {
		if (!(dtcs & BIT(d)))
			continue;
		periods += acc->unconfirmed[d];
		acc->unconfirmed[d] = 0;
	}
	events = periods << (CMN_DT_PMEVCNT_WIDTH + CMN_DTM_PMEVCNT_WIDTH);
	/* every one of them was added to both when it was granted */
	acc->carries -= periods << CMN_DT_PMEVCNT_WIDTH;
	acc->high -= events;
	return events;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_revoke);

u64 cmn_hnf_wrap_delta(u64 prev, u64 cur, unsigned int width, bool ovf)
{
	u64 mask = width >= 64 ? ~0ULL : GENMASK_ULL(width - 1, 0);
	u64 delta = (cur - prev) & mask;

	/* with width 64 a whole period does not fit: the flag adds nothing */
	if (ovf && cur >= prev && width < 64)
		delta += 1ULL << width;
	return delta;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_wrap_delta);

u64 cmn_hnf_local_value(u64 val, unsigned int ctr, unsigned int width)
{
	if (width >= 64)
		return val;
	return (val >> (CMN_DTM_PMEVCNT_WIDTH * ctr)) & GENMASK_ULL(width - 1, 0);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_local_value);

u64 cmn_hnf_local_delta(u64 prev, u64 cur, unsigned int width)
{
	return cmn_hnf_wrap_delta(prev, cur, width, false);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_local_delta);

u64 cmn_hnf_local_step(u64 *prev, u64 val, unsigned int ctr,
		       unsigned int width)
{
	u64 cur = cmn_hnf_local_value(val, ctr, width);
	u64 delta = cmn_hnf_local_delta(*prev, cur, width);

	*prev = cur;
	return delta;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_local_step);

u64 cmn_hnf_cycles_delta(u64 prev, u64 cur)
{
	return cmn_hnf_wrap_delta(prev, cur, CMN_DT_PMCCNTR_WIDTH, false);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_cycles_delta);

u64 cmn_hnf_local_missed(struct cmn_hnf_local_rate *r, u64 seen, u64 cycles,
			 bool *late)
{
	u64 bound = cmn_hnf_local_bound(cycles);
	u64 room, expected, periods;

	/* seen is below the truth by whole periods, and the truth <= bound */
	room = bound > seen ? (bound - seen) >> 32 : 0;
	*late = room > 0;
	if (!room) {
		/* a rate beyond the worst case is outside every bound here */
		if (cycles >= CMN_HNF_RATE_MIN_CYCLES && seen <= bound) {
			r->rate = div64_u64(seen << CMN_HNF_RATE_SHIFT, cycles);
			r->known = true;
		}
		return 0;
	}
	if (!r->known)
		return 0;
	/* rate <= bound rate << shift: the product stays below 2^64 */
	expected = (r->rate * cycles) >> CMN_HNF_RATE_SHIFT;
	if (expected <= seen)
		return 0;
	periods = (expected - seen + BIT_ULL(31)) >> 32;
	return min(periods, room) << 32;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_local_missed);

void cmn_hnf_cyc_init(struct cmn_hnf_cyc *cyc, u64 base)
{
	cyc->prev = base;
	cyc->wrapped = false;
	cyc->at_base = false;
	cyc->unconfirmed = 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_cyc_init);

u64 cmn_hnf_cyc_update(struct cmn_hnf_cyc *cyc, u64 cur)
{
	u64 delta = cmn_hnf_wrap_delta(cyc->prev, cur, CMN_DT_PMCCNTR_WIDTH,
				       false);

	if (cur < cyc->prev)
		cyc->wrapped = true;
	cyc->prev = cur;
	return delta;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_cyc_update);

u64 cmn_hnf_cyc_overflow(struct cmn_hnf_cyc *cyc)
{
	/*
	 * The last read has prev == cur: a flag that reports neither a wrap
	 * a read saw nor one at the baseline is a period
	 */
	bool ovf = !cyc->wrapped && !cyc->at_base;
	u64 delta = cmn_hnf_wrap_delta(cyc->prev, cyc->prev,
				       CMN_DT_PMCCNTR_WIDTH, ovf);

	cyc->wrapped = false;
	cyc->at_base = false;
	if (delta)
		cyc->unconfirmed++;
	return delta;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_cyc_overflow);

void cmn_hnf_cyc_confirm(struct cmn_hnf_cyc *cyc)
{
	cyc->unconfirmed = 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_cyc_confirm);

u64 cmn_hnf_cyc_revoke(struct cmn_hnf_cyc *cyc)
{
	u64 events = (u64)cyc->unconfirmed << CMN_DT_PMCCNTR_WIDTH;

	cyc->unconfirmed = 0;
	return events;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_cyc_revoke);

/* ------------------------------------------------------------------------ */
/* Interrupt storms                                                         */

bool cmn_hnf_storm_note(struct cmn_hnf_storm *st, bool explained,
			unsigned long now_ms)
{
	if (explained) {
		st->count = 0;
		return false;
	}
	/* a pause longer than the window ends a run */
	if (!st->count || now_ms - st->last > CMN_HNF_STORM_WINDOW_MS)
		st->count = 0;
	st->last = now_ms;
	return ++st->count >= CMN_HNF_STORM_IRQS;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_storm_note);
