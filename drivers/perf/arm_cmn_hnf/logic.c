// SPDX-License-Identifier: GPL-2.0
/*
 * Pure logic of the CMN-600 HN-F PMU driver (logic.h): attr.config, register
 * words, node ids, the discovery walk, counter allocation and counter
 * arithmetic. No MMIO and no perf structures: hw.c and pmu.c move values
 * between these functions and the hardware.
 */
#include <linux/bitops.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/sort.h>
#include <linux/string.h>

#include <arm_cmn_hnf/compat.h>
#include <arm_cmn_hnf/logic.h>

/* ---- the perf ABI ------------------------------------------------------- */

#define CMN_HNF_CONFIG_VALID	(CMN_HNF_CONFIG_EVENTID | CMN_HNF_CONFIG_OCCUPID | \
				 CMN_HNF_CONFIG_BYNODEID | CMN_HNF_CONFIG_NODEID | \
				 CMN_HNF_CONFIG_TYPE)

int cmn_hnf_decode_config(u64 config, struct cmn_hnf_evsel *sel)
{
	unsigned int type = FIELD_GET(CMN_HNF_CONFIG_TYPE, config);

	memset(sel, 0, sizeof(*sel));
	if (config & ~CMN_HNF_CONFIG_VALID)
		return -EINVAL;
	if (type == CMN_HNF_TYPE_DTC) {
		/* the cycle counter takes no other field */
		sel->cycles = true;
		return config & ~CMN_HNF_CONFIG_TYPE ? -EINVAL : 0;
	}
	if (type != CMN_HNF_TYPE_DEFAULT && type != CMN_HNF_TYPE_HNF)
		return -EINVAL;

	sel->eventid = FIELD_GET(CMN_HNF_CONFIG_EVENTID, config);
	sel->occupid = FIELD_GET(CMN_HNF_CONFIG_OCCUPID, config);
	sel->bynodeid = config & CMN_HNF_CONFIG_BYNODEID;
	sel->nodeid = FIELD_GET(CMN_HNF_CONFIG_NODEID, config);
	if (sel->eventid < 1 || sel->eventid > CMN_HNF_EVENT_MAX)
		return -EINVAL;
	if (sel->occupid >= CMN_HNF_OCCUP_NR ||
	    (sel->occupid && sel->eventid != CMN_HNF_EVENT_OCCUPANCY))
		return -EINVAL;
	/* a node id without bynodeid would quietly count every HN-F */
	if (sel->nodeid && !sel->bynodeid)
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_decode_config);

/* ---- register words ----------------------------------------------------- */

u64 cmn_hnf_event_sel(const u8 ev[CMN_HNF_HNF_SLOTS], u8 occupid)
{
	return FIELD_PREP(CMN_HNF_PMU_EVENT0_ID, ev[0]) |
	       FIELD_PREP(CMN_HNF_PMU_EVENT1_ID, ev[1]) |
	       FIELD_PREP(CMN_HNF_PMU_EVENT2_ID, ev[2]) |
	       FIELD_PREP(CMN_HNF_PMU_EVENT3_ID, ev[3]) |
	       FIELD_PREP(CMN_HNF_PMU_OCCUP1_ID, occupid);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_event_sel);

/* ---- node ids ----------------------------------------------------------- */

#define CMN_NID_DEV		GENMASK(1, 0)
#define CMN_NID_PORT		BIT(2)
#define CMN_NID_Y_SHIFT		3

struct cmn_hnf_nid cmn_hnf_decode_nodeid(u16 id, unsigned int coord_bits)
{
	unsigned int mask = BIT(coord_bits) - 1;

	return (struct cmn_hnf_nid) {
		.dev = FIELD_GET(CMN_NID_DEV, id),
		.port = FIELD_GET(CMN_NID_PORT, id),
		.y = (id >> CMN_NID_Y_SHIFT) & mask,
		.x = (id >> (CMN_NID_Y_SHIFT + coord_bits)) & mask,
	};
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_decode_nodeid);

u16 cmn_hnf_encode_nodeid(struct cmn_hnf_nid nid, unsigned int coord_bits)
{
	return nid.x << (CMN_NID_Y_SHIFT + coord_bits) |
	       nid.y << CMN_NID_Y_SHIFT |
	       FIELD_PREP(CMN_NID_PORT, nid.port) | FIELD_PREP(CMN_NID_DEV, nid.dev);
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_encode_nodeid);

/* ---- discovery ---------------------------------------------------------- */

/*
 * The tree is two levels deep (CFG -> XPs -> device nodes), so the walk
 * ends whatever the pointers say. Every node read is checked to be a whole
 * 16 KiB block inside the region; a pointer loop shows as a node of the
 * wrong type, and a node listed twice as an HN-F or DTC met twice.
 */
struct cmn_hnf_walk {
	cmn_hnf_read_fn read;
	void *ctx;
	u64 size;
	struct cmn_hnf_topology *topo;
	char *why;
	size_t len;
};

static __printf(2, 3) int cmn_hnf_fail(struct cmn_hnf_walk *w, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(w->why, w->len, fmt, args);
	va_end(args);
	return -ENODEV;
}

static int cmn_hnf_block(struct cmn_hnf_walk *w, u32 offset, const char *what)
{
	if (offset % CMN_NODE_SIZE || (u64)offset + CMN_NODE_SIZE > w->size)
		return cmn_hnf_fail(w, "%s at 0x%x: not a 16 KiB block in the 0x%llx-byte region",
				    what, offset, w->size);
	return 0;
}

/* The child pointers of @node: their count, or a negative errno */
static int cmn_hnf_children(struct cmn_hnf_walk *w, u32 node, unsigned int max,
			    const char *what, u32 *ptrs)
{
	u64 info = w->read(w->ctx, node + CMN_CHILD_INFO);
	u32 count = FIELD_GET(CMN_CHILD_INFO_COUNT, info);
	u32 off = FIELD_GET(CMN_CHILD_INFO_PTR_OFFSET, info);

	if (count > max)
		return cmn_hnf_fail(w, "%s at 0x%x: %u children, at most %u",
				    what, node, count, max);
	if (off % CMN_CHILD_PTR_STRIDE || off <= CMN_CHILD_INFO ||
	    off + count * CMN_CHILD_PTR_STRIDE > CMN_NODE_SIZE)
		return cmn_hnf_fail(w, "%s at 0x%x: child pointers at +0x%x are outside the node",
				    what, node, off);
	*ptrs = node + off;
	return count;
}

/* Record a DTC or HN-F found under XP @xp, once */
static int cmn_hnf_add_node(struct cmn_hnf_walk *w, struct cmn_hnf_node *nodes,
			    unsigned int *num, unsigned int max, const char *what,
			    unsigned int xp, u32 offset, u64 info)
{
	struct cmn_hnf_nid nid;
	unsigned int i;

	for (i = 0; i < *num; i++)
		if (nodes[i].offset == offset)
			return cmn_hnf_fail(w, "%s at 0x%x: listed twice", what, offset);
	if (*num == max)
		return cmn_hnf_fail(w, "%s at 0x%x: more than %u", what, offset, max);
	/* port and device do not depend on the coordinate width */
	nid = cmn_hnf_decode_nodeid(FIELD_GET(CMN_NODE_INFO_ID, info), 2);
	nodes[(*num)++] = (struct cmn_hnf_node) {
		.offset = offset,
		.node_id = FIELD_GET(CMN_NODE_INFO_ID, info),
		.logical_id = FIELD_GET(CMN_NODE_INFO_LOGID, info),
		.xp = xp,
		.port = nid.port,
		.dev = nid.dev,
	};
	return 0;
}

static int cmn_hnf_walk_xp(struct cmn_hnf_walk *w, unsigned int xp)
{
	struct cmn_hnf_topology *t = w->topo;
	u32 ptrs, off;
	int count, i, ret;
	u64 ptr, info;

	count = cmn_hnf_children(w, t->xp[xp].offset, CMN_HNF_MAX_XP_CHILDREN,
				 "XP", &ptrs);
	for (i = 0; i < count; i++) {
		ptr = w->read(w->ctx, ptrs + i * CMN_CHILD_PTR_STRIDE);
		if (ptr & CMN_CHILD_PTR_EXTERNAL)
			continue;
		off = FIELD_GET(CMN_CHILD_PTR_ADDR, ptr);
		ret = cmn_hnf_block(w, off, "device node");
		if (ret)
			return ret;
		info = w->read(w->ctx, off + CMN_NODE_INFO);
		switch (FIELD_GET(CMN_NODE_INFO_TYPE, info)) {
		case CMN_TYPE_HNF:
			ret = cmn_hnf_add_node(w, t->hnf, &t->num_hnfs, CMN_HNF_MAX_HNFS,
					       "HN-F", xp, off, info);
			break;
		case CMN_TYPE_DTC:
			ret = cmn_hnf_add_node(w, t->dtc, &t->num_dtcs, CMN_HNF_MAX_DTCS,
					       "DTC", xp, off, info);
			break;
		case CMN_TYPE_CFG:
		case CMN_TYPE_XP:
			ret = cmn_hnf_fail(w, "node at 0x%x under XP 0x%x: a CFG or XP node",
					   off, t->xp[xp].offset);
			break;
		default:
			/* other device types have no HN-F events */
			break;
		}
		if (ret)
			return ret;
	}
	return count < 0 ? count : 0;
}

/*
 * The mesh size is in no register. XP (0,1), node id 8 with either
 * coordinate width, has logical id X (XPs are numbered row by row); no such
 * XP: the mesh is one row. Every XP's node id must then decode to the
 * position of its logical id, once each: the whole mesh, no other.
 */
static bool cmn_hnf_mesh_size(struct cmn_hnf_topology *t)
{
	unsigned int i, x = t->num_xps, y, b;
	struct cmn_hnf_nid nid;
	u64 seen = 0;

	for (i = 0; i < t->num_xps; i++)
		if (t->xp[i].node_id == BIT(CMN_NID_Y_SHIFT))
			x = t->xp[i].logical_id;
	if (!x || x > CMN_HNF_MAX_DIM || t->num_xps % x)
		return false;
	y = t->num_xps / x;
	b = cmn_hnf_coord_bits(x, y);
	for (i = 0; i < t->num_xps; i++) {
		nid = cmn_hnf_decode_nodeid(t->xp[i].node_id, b);
		if (t->xp[i].logical_id != nid.y * x + nid.x || nid.x >= x || nid.y >= y ||
		    nid.port || nid.dev || t->xp[i].node_id >> (CMN_NID_Y_SHIFT + 2 * b) ||
		    seen & BIT_ULL(t->xp[i].logical_id))
			return false;
		seen |= BIT_ULL(t->xp[i].logical_id);
		t->xp[i].x = nid.x;
		t->xp[i].y = nid.y;
	}
	t->coord_bits = b;
	t->mesh_x = x;
	t->mesh_y = y;
	return true;
}

static int cmn_hnf_walk_root(struct cmn_hnf_walk *w, u32 root)
{
	struct cmn_hnf_topology *t = w->topo;
	u64 info, ptr;
	u32 ptrs, off;
	int count, i;

	info = w->read(w->ctx, root + CMN_NODE_INFO);
	if (FIELD_GET(CMN_NODE_INFO_TYPE, info) != CMN_TYPE_CFG)
		return cmn_hnf_fail(w,
				    "root node at 0x%x: type 0x%llx, not CFG (0x2): wrong root offset?",
				    root, FIELD_GET(CMN_NODE_INFO_TYPE, info));
	info = w->read(w->ctx, root + CMN_CFG_PERIPH_ID_01);
	t->part = FIELD_GET(CMN_CFG_PERIPH_ID_01_PART_LO, info) |
		  FIELD_GET(CMN_CFG_PERIPH_ID_01_PART_HI, info) << 8;
	if (t->part != CMN_PART_CMN600 && t->part != CMN_PART_CMN600AE)
		return cmn_hnf_fail(w, "root node at 0x%x: part 0x%03x, not CMN-600 (0x434, 0x438)",
				    root, t->part);
	/* CMN-600AE is a CMN-600 to the PMU */
	t->part = CMN_PART_CMN600;
	info = w->read(w->ctx, root + CMN_CFG_PERIPH_ID_23);
	t->revision = FIELD_GET(CMN_CFG_PERIPH_ID_23_REVISION, info);

	count = cmn_hnf_children(w, root, CMN_HNF_MAX_XPS, "root node", &ptrs);
	if (count < 0)
		return count;
	for (i = 0; i < count; i++) {
		ptr = w->read(w->ctx, ptrs + i * CMN_CHILD_PTR_STRIDE);
		off = FIELD_GET(CMN_CHILD_PTR_ADDR, ptr);
		if (ptr & CMN_CHILD_PTR_EXTERNAL || cmn_hnf_block(w, off, "XP"))
			return cmn_hnf_fail(w,
					    "root node at 0x%x: child %d (0x%llx) is no XP in the region",
					    root, i, ptr);
		info = w->read(w->ctx, off + CMN_NODE_INFO);
		if (FIELD_GET(CMN_NODE_INFO_TYPE, info) != CMN_TYPE_XP)
			return cmn_hnf_fail(w,
					    "root child %d at 0x%x has type 0x%llx, not XP (0x6)",
					    i, off, FIELD_GET(CMN_NODE_INFO_TYPE, info));
		t->xp[i] = (struct cmn_hnf_xp) {
			.offset = off,
			.node_id = FIELD_GET(CMN_NODE_INFO_ID, info),
			.logical_id = FIELD_GET(CMN_NODE_INFO_LOGID, info),
		};
		t->num_xps = i + 1;
	}
	if (!cmn_hnf_mesh_size(t))
		return cmn_hnf_fail(w,
				    "root node at 0x%x: the ids of its %u XPs do not form a mesh",
				    root, t->num_xps);
	return 0;
}

static int cmn_hnf_cmp_lid(const void *a, const void *b)
{
	const struct cmn_hnf_node *na = a, *nb = b;

	return (int)na->logical_id - (int)nb->logical_id;
}

int cmn_hnf_discover(cmn_hnf_read_fn read, void *ctx, u64 size, u32 root,
		     struct cmn_hnf_topology *topo, char *why, size_t len)
{
	struct cmn_hnf_walk w = {
		.read = read, .ctx = ctx, .size = size, .topo = topo,
		.why = why, .len = len,
	};
	unsigned int i;
	int ret;

	memset(topo, 0, sizeof(*topo));
	ret = cmn_hnf_block(&w, root, "root node");
	if (!ret)
		ret = cmn_hnf_walk_root(&w, root);
	for (i = 0; !ret && i < topo->num_xps; i++)
		ret = cmn_hnf_walk_xp(&w, i);
	if (ret)
		return ret;
	if (!topo->num_hnfs || !topo->num_dtcs)
		return cmn_hnf_fail(&w, "root node at 0x%x: %u HN-Fs and %u DTCs under its %u XPs",
				    root, topo->num_hnfs, topo->num_dtcs, topo->num_xps);

	/* HN-Fs in logical-id order; dtc[i] is domain i and takes interrupt i */
	sort(topo->hnf, topo->num_hnfs, sizeof(topo->hnf[0]), cmn_hnf_cmp_lid, NULL);
	sort(topo->dtc, topo->num_dtcs, sizeof(topo->dtc[0]), cmn_hnf_cmp_lid, NULL);
	for (i = 0; i < topo->num_dtcs; i++)
		if (topo->dtc[i].logical_id != i)
			return cmn_hnf_fail(&w, "DTC at 0x%x: logical id %u, expected %u",
					    topo->dtc[i].offset, topo->dtc[i].logical_id, i);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_discover);

/* ---- counter allocation ------------------------------------------------- */

static bool cmn_hnf_occup_ok(const struct cmn_hnf_alloc *a,
			     const struct cmn_hnf_evsel *sel, unsigned int h)
{
	return sel->eventid != CMN_HNF_EVENT_OCCUPANCY || !a->occup_refs[h] ||
	       a->occup[h] == sel->occupid;
}

static void cmn_hnf_claim(struct cmn_hnf_alloc *a, const struct cmn_hnf_topology *topo,
			  const struct cmn_hnf_evsel *sel, struct cmn_hnf_place *p,
			  unsigned int h)
{
	a->dtm_used[topo->hnf[h].xp] |= p->kind == CMN_HNF_LOCAL ? 0xf : BIT(p->ctr[h]);
	a->slot_used[h] |= BIT(p->slot[h]);
	if (sel->eventid == CMN_HNF_EVENT_OCCUPANCY) {
		a->occup[h] = sel->occupid;
		a->occup_refs[h]++;
	}
}

int cmn_hnf_alloc(struct cmn_hnf_alloc *a, const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_evsel *sel, int hnf,
		  struct cmn_hnf_place *p)
{
	u8 used[CMN_HNF_MAX_XPS];
	unsigned int h, xp;

	if (sel->cycles) {
		if (a->cycles_used)
			return -ENOSPC;
		a->cycles_used = true;
		p->kind = CMN_HNF_CYC;
		p->count = 0;
		return 0;
	}
	p->first = hnf < 0 ? 0 : hnf;
	p->count = hnf < 0 ? topo->num_hnfs : 1;
	p->kind = a->global_used == 0xff ? CMN_HNF_LOCAL : CMN_HNF_GLOBAL;
	if (p->kind == CMN_HNF_LOCAL &&
	    (hnf < 0 || a->dtm_used[topo->hnf[hnf].xp]))
		return -ENOSPC;

	/* a counter on each HN-F's XP (several HN-Fs may share one), a slot each */
	memcpy(used, a->dtm_used, sizeof(used));
	for (h = p->first; h < p->first + p->count; h++) {
		xp = topo->hnf[h].xp;
		if (used[xp] == 0xf || a->slot_used[h] == 0xf ||
		    !cmn_hnf_occup_ok(a, sel, h))
			return -ENOSPC;
		p->ctr[h] = p->kind == CMN_HNF_LOCAL ? 0 : ffz(used[xp]);
		p->slot[h] = ffz(a->slot_used[h]);
		used[xp] |= BIT(p->ctr[h]);
	}
	if (p->kind == CMN_HNF_GLOBAL) {
		p->global = ffz(a->global_used);
		a->global_used |= BIT(p->global);
	}
	for (h = p->first; h < p->first + p->count; h++)
		cmn_hnf_claim(a, topo, sel, p, h);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_alloc);

void cmn_hnf_free(struct cmn_hnf_alloc *a, const struct cmn_hnf_topology *topo,
		  const struct cmn_hnf_evsel *sel, const struct cmn_hnf_place *p)
{
	unsigned int h;

	if (p->kind == CMN_HNF_CYC) {
		a->cycles_used = false;
		return;
	}
	if (p->kind == CMN_HNF_GLOBAL)
		a->global_used &= ~BIT(p->global);
	for (h = p->first; h < p->first + p->count; h++) {
		a->dtm_used[topo->hnf[h].xp] &= p->kind == CMN_HNF_LOCAL ? 0 :
						~BIT(p->ctr[h]);
		a->slot_used[h] &= ~BIT(p->slot[h]);
		/* the last user gone, the filter is back at its reset value */
		if (sel->eventid == CMN_HNF_EVENT_OCCUPANCY && !--a->occup_refs[h])
			a->occup[h] = 0;
	}
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_free);

/* ---- counter arithmetic ------------------------------------------------- */

bool cmn_hnf_refire(struct cmn_hnf_refire *r, bool explained, u64 now)
{
	if (explained || now - r->cleared >= CMN_HNF_REFIRE_NS)
		r->count = 0;
	else if (r->count < CMN_HNF_STUCK_FLAGS)
		r->count++;
	r->cleared = now;
	return r->count >= CMN_HNF_STUCK_FLAGS;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_refire);

u64 cmn_hnf_acc_update(struct cmn_hnf_acc *acc, u32 local)
{
	u64 sample = (acc->carries << CMN_DTM_PMEVCNT_WIDTH) + local;
	u64 delta;

	if (sample <= acc->high)
		return 0;
	delta = sample - acc->high;
	acc->high = sample;
	return delta;
}
EXPORT_SYMBOL_IF_KUNIT(cmn_hnf_acc_update);
