// SPDX-License-Identifier: GPL-2.0
/*
 * CMN-600 model: parser for the mesh description format
 * (Documentation/cmn600-model.rst, "Mesh description format").
 *
 * Pure code: no hardware, no global state. Errors are reported as one line
 * "line <n>: <what>" in the caller's buffer.
 */

#include <linux/errno.h>
#include <linux/export.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "cmn600_model.h"
#include "mesh.h"

#define MAX_TOKENS	16

struct name_code {
	const char *name;
	u16 code;
};

/* node_info[15:0] */
static const struct name_code node_types[] = {
	{ "dn",		CMN600_MODEL_TYPE_DN },
	{ "dtc",	CMN600_MODEL_TYPE_DTC },
	{ "hn-i",	CMN600_MODEL_TYPE_HNI },
	{ "hn-f",	CMN600_MODEL_TYPE_HNF },
	{ "sbsx",	CMN600_MODEL_TYPE_SBSX },
	{ "rn-i",	CMN600_MODEL_TYPE_RNI },
	{ "rn-d",	CMN600_MODEL_TYPE_RND },
	{ "rn-sam",	CMN600_MODEL_TYPE_RNSAM },
	{ "cxra",	CMN600_MODEL_TYPE_CXRA },
	{ "cxha",	CMN600_MODEL_TYPE_CXHA },
	{ "cxla",	CMN600_MODEL_TYPE_CXLA },
	{ "cfg",	CMN600_MODEL_TYPE_CFG },
	{ "xp",		CMN600_MODEL_TYPE_XP },
};

/* XP por_mxp_device_port_connect_info_p<n>[4:0] */
static const struct name_code connect_types[] = {
	{ "none",		0x00 },
	{ "rn-i",		0x01 },
	{ "rn-d",		0x02 },
	{ "rn-f-chib",		0x04 },
	{ "rn-f-chib-esam",	0x05 },
	{ "rn-f-chia",		0x06 },
	{ "rn-f-chia-esam",	0x07 },
	{ "hn-t",		0x08 },
	{ "hn-i",		0x09 },
	{ "hn-d",		0x0a },
	{ "sn-f",		0x0c },
	{ "sbsx",		0x0d },
	{ "hn-f",		0x0e },
	{ "cxha",		0x11 },
	{ "cxra",		0x12 },
	{ "cxrh",		0x13 },
};

/* Port type implied by a node when the file has no "port" line for it */
static const struct {
	u16 type;
	u8 connect;
} implied_connect[] = {
	{ CMN600_MODEL_TYPE_HNF,	0x0e },	/* hn-f */
	{ CMN600_MODEL_TYPE_HNI,	0x09 },	/* hn-i */
	{ CMN600_MODEL_TYPE_SBSX,	0x0d },	/* sbsx */
	{ CMN600_MODEL_TYPE_RNI,	0x01 },	/* rn-i */
	{ CMN600_MODEL_TYPE_RND,	0x02 },	/* rn-d */
	{ CMN600_MODEL_TYPE_DN,		0x0a },	/* hn-d */
	{ CMN600_MODEL_TYPE_DTC,	0x0a },	/* hn-d */
	{ CMN600_MODEL_TYPE_CXRA,	0x12 },	/* cxra */
	{ CMN600_MODEL_TYPE_CXHA,	0x11 },	/* cxha */
};

static const char * const rev_names[] = {
	"r1p0", "r1p1", "r1p2", "r1p3", "r2p0", "r3p0", "r3p1",
};

static const char * const fault_names[CMN600_MODEL_FAULT_NR] = {
	[CMN600_MODEL_FAULT_NONE]		= "none",
	[CMN600_MODEL_FAULT_CHILD_LOOP]		= "child_loop",
	[CMN600_MODEL_FAULT_CHILD_COUNT]	= "child_count",
	[CMN600_MODEL_FAULT_CHILD_OOB]		= "child_oob",
	[CMN600_MODEL_FAULT_ROOT_NOT_CFG]	= "root_not_cfg",
	[CMN600_MODEL_FAULT_UNKNOWN_TYPE]	= "unknown_type",
	[CMN600_MODEL_FAULT_NO_DTC]		= "no_dtc",
	[CMN600_MODEL_FAULT_NODEID_MISMATCH]	= "nodeid_mismatch",
	[CMN600_MODEL_FAULT_GARBAGE_COUNTERS]	= "garbage_counters",
};

struct parser {
	char *err;
	size_t errlen;
	unsigned int line;
	struct cmn600_model_file *file;
	struct cmn600_model_mesh *cur;
	/* per mesh: line of the domain statement that set each XP, 0 if none */
	unsigned int domain_line[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	s8 domain[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	bool port_set[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_PORTS];
	bool has_root, has_size, has_uid;
};

static __printf(3, 4) int perr(struct parser *ps, unsigned int line, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!ps->errlen)
		return -EINVAL;
	if (line)
		n = snprintf(ps->err, ps->errlen, "line %u: ", line);
	if (n < 0 || (size_t)n >= ps->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

const char *cmn600_model_type_name(u16 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(node_types); i++)
		if (node_types[i].code == type)
			return node_types[i].name;
	return "raw";
}

const char *cmn600_model_rev_name(unsigned int rev)
{
	return rev < ARRAY_SIZE(rev_names) ? rev_names[rev] : "r?p?";
}
EXPORT_SYMBOL_GPL(cmn600_model_rev_name);

const char *cmn600_model_fault_name(enum cmn600_model_fault fault)
{
	return (unsigned int)fault < CMN600_MODEL_FAULT_NR ? fault_names[fault] : "?";
}
EXPORT_SYMBOL_GPL(cmn600_model_fault_name);

int cmn600_model_fault_parse(const char *name, enum cmn600_model_fault *fault)
{
	unsigned int i;

	if (!name || !*name) {
		*fault = CMN600_MODEL_FAULT_NONE;
		return 0;
	}
	for (i = 0; i < CMN600_MODEL_FAULT_NR; i++) {
		if (!strcmp(name, fault_names[i])) {
			*fault = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(cmn600_model_fault_parse);

/* Decimal, or hexadecimal with a 0x prefix */
int cmn600_model_parse_u64(const char *s, u64 *val)
{
	if (!s || !*s || *s == '+' || *s == '-')
		return -EINVAL;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!s[2] || s[2] == '+' || s[2] == '-')
			return -EINVAL;
		return kstrtou64(s + 2, 16, val);
	}
	return kstrtou64(s, 10, val);
}

static int parse_num(struct parser *ps, const char *what, const char *s, u64 max, u64 *val)
{
	if (cmn600_model_parse_u64(s, val))
		return perr(ps, ps->line, "%s: '%s' is not a number", what, s);
	if (*val > max)
		return perr(ps, ps->line, "%s: %s is out of range (max %llu)", what, s,
			    (unsigned long long)max);
	return 0;
}

static int lookup(const struct name_code *tab, unsigned int n, const char *name, u16 *code)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!strcmp(tab[i].name, name)) {
			*code = tab[i].code;
			return 0;
		}
	}
	return -ENOENT;
}

static int parse_raw(struct parser *ps, const char *s, u64 max, u16 *code)
{
	u64 v;
	int ret;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!*s || *s == '+' || *s == '-')
		return perr(ps, ps->line, "bad raw type");
	ret = kstrtou64(s, 16, &v);
	if (ret || v > max)
		return perr(ps, ps->line, "bad raw type '%s' (hex, max 0x%llx)", s,
			    (unsigned long long)max);
	*code = v;
	return 0;
}

/* Split "key=value"; returns the value or NULL */
static char *split_kv(char *tok)
{
	char *eq = strchr(tok, '=');

	if (!eq)
		return NULL;
	*eq = '\0';
	return eq + 1;
}

static int parse_xy(struct parser *ps, char **tok, unsigned int *x, unsigned int *y)
{
	struct cmn600_model_mesh *m = ps->cur;
	u64 v;
	int ret;

	ret = parse_num(ps, "x", tok[0], CMN600_MODEL_MAX_DIM - 1, &v);
	if (ret)
		return ret;
	*x = v;
	ret = parse_num(ps, "y", tok[1], CMN600_MODEL_MAX_DIM - 1, &v);
	if (ret)
		return ret;
	*y = v;
	if (*x >= m->x_dim || *y >= m->y_dim)
		return perr(ps, ps->line, "XP (%u,%u) is outside the %ux%u mesh",
			    *x, *y, m->x_dim, m->y_dim);
	return 0;
}

static int parse_mesh(struct parser *ps, char **tok, int ntok)
{
	struct cmn600_model_file *f = ps->file;
	struct cmn600_model_mesh *m;
	bool has_x = false, has_y = false;
	u64 v;
	int i, ret;

	if (f->nr_meshes >= CMN600_MODEL_MAX_MESHES)
		return perr(ps, ps->line, "too many meshes (max %d)", CMN600_MODEL_MAX_MESHES);
	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	f->meshes[f->nr_meshes] = m;
	m->line = ps->line;
	m->rev = 2;
	m->size = CMN600_MODEL_DEFAULT_SIZE;
	m->uid = f->nr_meshes;
	f->nr_meshes++;
	ps->cur = m;
	memset(ps->domain, -1, sizeof(ps->domain));
	memset(ps->domain_line, 0, sizeof(ps->domain_line));
	memset(ps->port_set, 0, sizeof(ps->port_set));
	ps->has_root = false;

	for (i = 1; i < ntok; i++) {
		char *key = tok[i], *val = split_kv(tok[i]);

		if (!val)
			return perr(ps, ps->line, "expected key=value, got '%s'", key);
		if (!strcmp(key, "x") || !strcmp(key, "y")) {
			ret = parse_num(ps, key, val, CMN600_MODEL_MAX_DIM, &v);
			if (ret)
				return ret;
			if (!v)
				return perr(ps, ps->line, "%s must be 1..%d", key,
					    CMN600_MODEL_MAX_DIM);
			if (key[0] == 'x') {
				m->x_dim = v;
				has_x = true;
			} else {
				m->y_dim = v;
				has_y = true;
			}
		} else if (!strcmp(key, "rev")) {
			unsigned int r;

			for (r = 0; r < ARRAY_SIZE(rev_names); r++)
				if (!strcmp(val, rev_names[r]))
					break;
			if (r == ARRAY_SIZE(rev_names))
				return perr(ps, ps->line,
					    "unknown revision '%s' (r1p0..r1p3, r2p0, r3p0, r3p1)",
					    val);
			m->rev = r;
		} else if (!strcmp(key, "root")) {
			ret = parse_num(ps, key, val, CMN600_MODEL_MAX_SIZE - 1, &m->root);
			if (ret)
				return ret;
			ps->has_root = true;
		} else if (!strcmp(key, "size")) {
			ret = parse_num(ps, key, val, CMN600_MODEL_MAX_SIZE, &m->size);
			if (ret)
				return ret;
			if (m->size < CMN600_MODEL_BLOCK || m->size % CMN600_MODEL_BLOCK)
				return perr(ps, ps->line,
					    "size must be a non-zero multiple of 0x4000");
		} else if (!strcmp(key, "uid")) {
			ret = parse_num(ps, key, val, U32_MAX, &v);
			if (ret)
				return ret;
			m->uid = v;
		} else if (!strcmp(key, "base")) {
			ret = parse_num(ps, key, val, U64_MAX, &m->base);
			if (ret)
				return ret;
			if (m->base & 0xfff)
				return perr(ps, ps->line, "base must be 4 KiB aligned");
			m->has_base = true;
		} else if (!strcmp(key, "numa")) {
			ret = parse_num(ps, key, val, 1023, &v);
			if (ret)
				return ret;
			m->numa = v;
			m->has_numa = true;
		} else {
			return perr(ps, ps->line, "unknown mesh option '%s'", key);
		}
	}
	if (!has_x || !has_y)
		return perr(ps, ps->line, "mesh needs x= and y=");
	return 0;
}

static int parse_port(struct parser *ps, char **tok, int ntok)
{
	struct cmn600_model_mesh *m = ps->cur;
	unsigned int x, y;
	u16 code;
	u64 p;
	int ret;

	if (ntok != 5)
		return perr(ps, ps->line, "usage: port <x> <y> <p> <connect-type>");
	ret = parse_xy(ps, tok + 1, &x, &y);
	if (ret)
		return ret;
	ret = parse_num(ps, "port", tok[3], CMN600_MODEL_MAX_PORTS - 1, &p);
	if (ret)
		return ret;
	if (!strncmp(tok[4], "raw:", 4)) {
		ret = parse_raw(ps, tok[4] + 4, 0x1f, &code);
		if (ret)
			return ret;
	} else if (lookup(connect_types, ARRAY_SIZE(connect_types), tok[4], &code)) {
		return perr(ps, ps->line, "unknown connect type '%s'", tok[4]);
	}
	if (ps->port_set[x][y][p])
		return perr(ps, ps->line, "port %u of XP (%u,%u) given twice", (unsigned int)p,
			    x, y);
	ps->port_set[x][y][p] = true;
	m->connect[x][y][p] = code;
	return 0;
}

static int set_domain(struct parser *ps, unsigned int x, unsigned int y, u64 dom)
{
	if (ps->domain[x][y] >= 0 && ps->domain[x][y] != (s8)dom)
		return perr(ps, ps->line, "XP (%u,%u) already in domain %d (line %u)", x, y,
			    ps->domain[x][y], ps->domain_line[x][y]);
	ps->domain[x][y] = dom;
	ps->domain_line[x][y] = ps->line;
	return 0;
}

static int parse_node(struct parser *ps, char **tok, int ntok)
{
	struct cmn600_model_mesh *m = ps->cur;
	struct cmn600_model_node *n;
	unsigned int x, y, i;
	u64 p, d, v;
	u16 type;
	int ret;

	if (ntok < 6)
		return perr(ps, ps->line,
			    "usage: node <type> <x> <y> <p> <d> [lid=] [irq=] [domain=]");
	if (m->nr_nodes >= CMN600_MODEL_MAX_NODES)
		return perr(ps, ps->line, "too many nodes (max %d)", CMN600_MODEL_MAX_NODES);
	if (!strncmp(tok[1], "raw:", 4)) {
		ret = parse_raw(ps, tok[1] + 4, 0xffff, &type);
		if (ret)
			return ret;
	} else if (lookup(node_types, ARRAY_SIZE(node_types), tok[1], &type)) {
		return perr(ps, ps->line, "unknown node type '%s'", tok[1]);
	}
	ret = parse_xy(ps, tok + 2, &x, &y);
	if (ret)
		return ret;
	ret = parse_num(ps, "port", tok[4], CMN600_MODEL_MAX_PORTS - 1, &p);
	if (ret)
		return ret;
	ret = parse_num(ps, "device", tok[5], CMN600_MODEL_MAX_DEVS - 1, &d);
	if (ret)
		return ret;
	for (i = 0; i < m->nr_nodes; i++) {
		n = &m->nodes[i];
		if (n->x == x && n->y == y && n->port == p && n->dev == d)
			return perr(ps, ps->line,
				    "XP (%u,%u) port %u device %u already used (line %u)",
				    x, y, (unsigned int)p, (unsigned int)d, n->line);
	}

	n = &m->nodes[m->nr_nodes];
	n->type = type;
	n->x = x;
	n->y = y;
	n->port = p;
	n->dev = d;
	n->domain = -1;
	n->line = ps->line;
	/* default logical id: order of the node lines per type */
	n->lid = 0;
	for (i = 0; i < m->nr_nodes; i++)
		if (m->nodes[i].type == type)
			n->lid++;

	for (i = 6; i < ntok; i++) {
		char *key = tok[i], *val = split_kv(tok[i]);

		if (!val)
			return perr(ps, ps->line, "expected key=value, got '%s'", key);
		if (!strcmp(key, "lid")) {
			ret = parse_num(ps, key, val, U16_MAX, &v);
			if (ret)
				return ret;
			n->lid = v;
		} else if (!strcmp(key, "irq")) {
			if (type != CMN600_MODEL_TYPE_DTC)
				return perr(ps, ps->line, "irq= is only for dtc nodes");
			/* a DTC whose interrupt the firmware leaves out (a fault) */
			if (!strcmp(val, "none")) {
				n->no_irq = true;
				continue;
			}
			/*
			 * one the firmware lists but Linux can never resolve
			 * (its controller never comes: a fault)
			 */
			if (!strcmp(val, "defer")) {
				n->defer_irq = true;
				continue;
			}
			/* SPI number (INTID - 32) */
			ret = parse_num(ps, key, val, 987, &v);
			if (ret)
				return ret;
			n->irq = v;
			n->has_irq = true;
		} else if (!strcmp(key, "domain")) {
			ret = parse_num(ps, key, val, CMN600_MODEL_MAX_DTCS - 1, &v);
			if (ret)
				return ret;
			n->domain = v;
		} else {
			return perr(ps, ps->line, "unknown node option '%s'", key);
		}
	}
	if (n->domain >= 0) {
		ret = set_domain(ps, x, y, n->domain);
		if (ret)
			return ret;
	}
	m->nr_nodes++;
	return 0;
}

static int parse_domain(struct parser *ps, char **tok, int ntok)
{
	unsigned int x, y;
	u64 dom;
	int ret;

	if (ntok != 4)
		return perr(ps, ps->line, "usage: domain <x> <y> <dtc lid>");
	ret = parse_xy(ps, tok + 1, &x, &y);
	if (ret)
		return ret;
	ret = parse_num(ps, "domain", tok[3], CMN600_MODEL_MAX_DTCS - 1, &dom);
	if (ret)
		return ret;
	return set_domain(ps, x, y, dom);
}

unsigned int cmn600_model_coord_bits(const struct cmn600_model_mesh *mesh)
{
	return (mesh->x_dim <= 4 && mesh->y_dim <= 4) ? 2 : 3;
}
EXPORT_SYMBOL_GPL(cmn600_model_coord_bits);

u16 cmn600_model_node_id(const struct cmn600_model_mesh *mesh, unsigned int x,
			 unsigned int y, unsigned int port, unsigned int dev)
{
	unsigned int b = cmn600_model_coord_bits(mesh);

	return (x << (3 + b)) | (y << 3) | (port << 2) | dev;
}
EXPORT_SYMBOL_GPL(cmn600_model_node_id);

u64 cmn600_model_xp_offset(const struct cmn600_model_mesh *mesh, unsigned int x,
			   unsigned int y)
{
	unsigned int b = cmn600_model_coord_bits(mesh);

	return (u64)((x << b) | y) << 20;
}
EXPORT_SYMBOL_GPL(cmn600_model_xp_offset);

u64 cmn600_model_node_offset(const struct cmn600_model_mesh *mesh, unsigned int x,
			     unsigned int y, unsigned int port, unsigned int dev)
{
	return cmn600_model_xp_offset(mesh, x, y) +
	       CMN600_MODEL_BLOCK * (1 + 2 * port + dev);
}
EXPORT_SYMBOL_GPL(cmn600_model_node_offset);

/* Claim the 16 KiB block at @off in @used; returns the line that owns it */
static int claim(struct parser *ps, unsigned int *used, u64 off, unsigned int line,
		 const char *what)
{
	struct cmn600_model_mesh *m = ps->cur;
	u64 idx = off / CMN600_MODEL_BLOCK;

	if (off % CMN600_MODEL_BLOCK || off + CMN600_MODEL_BLOCK > m->size)
		return perr(ps, line, "%s block at 0x%llx is outside the region (size 0x%llx)",
			    what, (unsigned long long)off, (unsigned long long)m->size);
	if (used[idx])
		return perr(ps, line, "%s block at 0x%llx overlaps the one of line %u", what,
			    (unsigned long long)off, used[idx]);
	used[idx] = line;
	return 0;
}

static int finish_mesh(struct parser *ps)
{
	struct cmn600_model_mesh *m = ps->cur;
	unsigned int *used, i, j, x, y, nr_dtcs = 0;
	u8 dtc_on_xp[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	bool dtc_lid[CMN600_MODEL_MAX_DTCS] = { };
	int ret = 0;

	if (!m)
		return 0;
	memset(dtc_on_xp, 0xff, sizeof(dtc_on_xp));

	/* logical ids are unique per type; DTC lid is its domain */
	for (i = 0; i < m->nr_nodes; i++) {
		struct cmn600_model_node *n = &m->nodes[i];

		for (j = 0; j < i; j++)
			if (m->nodes[j].type == n->type && m->nodes[j].lid == n->lid)
				return perr(ps, n->line,
					    "logical id %u of type %s also used on line %u",
					    n->lid, cmn600_model_type_name(n->type),
					    m->nodes[j].line);
		if (n->type != CMN600_MODEL_TYPE_DTC)
			continue;
		if (n->lid >= CMN600_MODEL_MAX_DTCS)
			return perr(ps, n->line, "DTC lid %u: at most %d DTCs (lid 0..%d)",
				    n->lid, CMN600_MODEL_MAX_DTCS, CMN600_MODEL_MAX_DTCS - 1);
		if (dtc_on_xp[n->x][n->y] != 0xff)
			return perr(ps, n->line, "XP (%u,%u) already has a DTC", n->x, n->y);
		if (n->domain >= 0 && n->domain != n->lid)
			return perr(ps, n->line, "a DTC's domain is its lid (%u)", n->lid);
		dtc_on_xp[n->x][n->y] = n->lid;
		dtc_lid[n->lid] = true;
		nr_dtcs++;
	}

	/* XP domains: the DTC on it, else a domain line/option, else 0 */
	for (x = 0; x < m->x_dim; x++) {
		for (y = 0; y < m->y_dim; y++) {
			int dom = ps->domain[x][y];

			if (dtc_on_xp[x][y] != 0xff) {
				if (dom >= 0 && dom != dtc_on_xp[x][y])
					return perr(ps, ps->domain_line[x][y],
						    "XP (%u,%u) hosts DTC %u, so it is in domain %u",
						    x, y, dtc_on_xp[x][y], dtc_on_xp[x][y]);
				dom = dtc_on_xp[x][y];
			} else if (dom < 0) {
				dom = 0;
			} else if (nr_dtcs && !dtc_lid[dom]) {
				return perr(ps, ps->domain_line[x][y],
					    "there is no DTC with lid %d", dom);
			}
			m->xp_domain[x][y] = dom;
		}
	}
	if (nr_dtcs && !dtc_lid[0])
		return perr(ps, m->line, "a mesh with DTCs needs DTC lid 0");

	/* port types implied by nodes where the file did not say */
	for (i = 0; i < m->nr_nodes; i++) {
		struct cmn600_model_node *n = &m->nodes[i];

		if (ps->port_set[n->x][n->y][n->port])
			continue;
		for (j = 0; j < ARRAY_SIZE(implied_connect); j++) {
			if (implied_connect[j].type == n->type) {
				m->connect[n->x][n->y][n->port] = implied_connect[j].connect;
				ps->port_set[n->x][n->y][n->port] = true;
				break;
			}
		}
	}

	/* address rule: every block inside the region, none overlapping */
	used = kcalloc(m->size / CMN600_MODEL_BLOCK, sizeof(*used), GFP_KERNEL);
	if (!used)
		return -ENOMEM;
	for (y = 0; y < m->y_dim && !ret; y++)
		for (x = 0; x < m->x_dim && !ret; x++)
			ret = claim(ps, used, cmn600_model_xp_offset(m, x, y), m->line, "XP");
	for (i = 0; i < m->nr_nodes && !ret; i++) {
		struct cmn600_model_node *n = &m->nodes[i];

		ret = claim(ps, used, cmn600_model_node_offset(m, n->x, n->y, n->port, n->dev),
			    n->line, "node");
	}
	if (!ret && !ps->has_root) {
		/* first free 16 KiB slot of XP (0,0) */
		for (i = 1; i < 64; i++) {
			m->root = CMN600_MODEL_BLOCK * i;
			if (m->root + CMN600_MODEL_BLOCK <= m->size &&
			    !used[m->root / CMN600_MODEL_BLOCK])
				break;
		}
		if (i == 64)
			ret = perr(ps, m->line, "no free slot for the CFG node in XP (0,0)");
	}
	if (!ret)
		ret = claim(ps, used, m->root, m->line, "CFG (root)");
	kfree(used);
	ps->cur = NULL;
	return ret;
}

static int finish_file(struct parser *ps)
{
	struct cmn600_model_file *f = ps->file;
	unsigned int i, j, k, l;

	if (!f->nr_meshes)
		return perr(ps, 0, "no mesh in the file");
	for (i = 0; i < f->nr_meshes; i++) {
		struct cmn600_model_mesh *a = f->meshes[i];

		for (j = 0; j < i; j++) {
			struct cmn600_model_mesh *b = f->meshes[j];

			if (a->uid == b->uid)
				return perr(ps, a->line, "uid %u already used by line %u",
					    a->uid, b->line);
			if (a->has_base && b->has_base && a->base < b->base + b->size &&
			    b->base < a->base + a->size)
				return perr(ps, a->line, "region overlaps the mesh of line %u",
					    b->line);
		}
		/*
		 * DTC interrupts: the DTCs of one mesh may share a line (a
		 * CMN-600 whose DTC interrupts are wired together), two meshes
		 * never do.
		 */
		for (k = 0; k < a->nr_nodes; k++) {
			struct cmn600_model_node *n = &a->nodes[k];

			if (!n->has_irq)
				continue;
			for (j = 0; j < i; j++) {
				struct cmn600_model_mesh *b = f->meshes[j];

				for (l = 0; l < b->nr_nodes; l++)
					if (b->nodes[l].has_irq && b->nodes[l].irq == n->irq)
						return perr(ps, n->line,
							    "irq %u already used by the mesh on line %u",
							    n->irq, b->line);
			}
		}
	}
	return 0;
}

/* Connect types a node of each type may sit on (CMN-600, reference 1.4) */
static const struct {
	u16 type;
	u8 connect[6];	/* zero-terminated */
} trm_node_ports[] = {
	{ CMN600_MODEL_TYPE_HNF,	{ 0x0e } },			/* hn-f */
	{ CMN600_MODEL_TYPE_DTC,	{ 0x0a } },			/* hn-d */
	{ CMN600_MODEL_TYPE_DN,		{ 0x0a } },			/* hn-d */
	{ CMN600_MODEL_TYPE_HNI,	{ 0x09, 0x0a } },		/* hn-i, hn-d */
	{ CMN600_MODEL_TYPE_SBSX,	{ 0x0d } },			/* sbsx */
	{ CMN600_MODEL_TYPE_RNI,	{ 0x01 } },			/* rn-i */
	{ CMN600_MODEL_TYPE_RND,	{ 0x02 } },			/* rn-d */
	/* an RN-SAM serves a request node: RN-I, RN-D, RN-F */
	{ CMN600_MODEL_TYPE_RNSAM,	{ 0x01, 0x02, 0x04, 0x05, 0x06, 0x07 } },
	{ CMN600_MODEL_TYPE_CXRA,	{ 0x12, 0x13 } },		/* cxra, cxrh */
	{ CMN600_MODEL_TYPE_CXHA,	{ 0x11, 0x13 } },		/* cxha, cxrh */
	{ CMN600_MODEL_TYPE_CXLA,	{ 0x11, 0x12, 0x13 } },		/* beside them */
};

/* Connect types that are a configuration node: one of these must be there */
static const struct {
	u8 connect;
	u16 type[2];	/* zero-terminated */
} trm_port_nodes[] = {
	{ 0x0e, { CMN600_MODEL_TYPE_HNF } },
	{ 0x0a, { CMN600_MODEL_TYPE_DTC, CMN600_MODEL_TYPE_DN } },
	{ 0x09, { CMN600_MODEL_TYPE_HNI } },
	{ 0x0d, { CMN600_MODEL_TYPE_SBSX } },
	{ 0x01, { CMN600_MODEL_TYPE_RNI } },
	{ 0x02, { CMN600_MODEL_TYPE_RND } },
	{ 0x12, { CMN600_MODEL_TYPE_CXRA } },
	{ 0x11, { CMN600_MODEL_TYPE_CXHA } },
};

static __printf(4, 5) int terr(char *err, size_t errlen, unsigned int line,
			      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!err || !errlen)
		return -EINVAL;
	n = snprintf(err, errlen, "line %u: ", line);
	if (n < 0 || (size_t)n >= errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool trm_node_on_port(u16 type, u8 connect)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(trm_node_ports); i++) {
		if (trm_node_ports[i].type != type)
			continue;
		for (j = 0; j < ARRAY_SIZE(trm_node_ports[i].connect) &&
		     trm_node_ports[i].connect[j]; j++)
			if (trm_node_ports[i].connect[j] == connect)
				return true;
		return false;
	}
	return false;	/* cfg, xp, raw: not a device node of CMN-600 */
}

static bool trm_connect_known(u8 connect)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(connect_types); i++)
		if (connect_types[i].code == connect)
			return true;
	return false;
}

/*
 * Does port @p of XP (@x, @y), of connect type @c, hold the node its type
 * stands for? True for a type that is no configuration node.
 */
static bool trm_port_has_node(const struct cmn600_model_mesh *m, unsigned int x,
			      unsigned int y, unsigned int p, u8 c)
{
	unsigned int i, j, k;

	for (i = 0; i < ARRAY_SIZE(trm_port_nodes); i++) {
		if (trm_port_nodes[i].connect != c)
			continue;
		for (j = 0; j < m->nr_nodes; j++) {
			const struct cmn600_model_node *n = &m->nodes[j];

			if (n->x != x || n->y != y || n->port != p)
				continue;
			for (k = 0; k < ARRAY_SIZE(trm_port_nodes[i].type); k++)
				if (trm_port_nodes[i].type[k] &&
				    trm_port_nodes[i].type[k] == n->type)
					return true;
		}
		return false;
	}
	return true;
}

static int trm_check_ports(const struct cmn600_model_mesh *m, char *err, size_t errlen)
{
	unsigned int x, y, p;

	for (x = 0; x < m->x_dim; x++) {
		for (y = 0; y < m->y_dim; y++) {
			for (p = 0; p < CMN600_MODEL_MAX_PORTS; p++) {
				u8 c = m->connect[x][y][p];

				if (!trm_connect_known(c))
					return terr(err, errlen, m->line,
						    "XP (%u,%u) port %u: connect type 0x%x is not a CMN-600 device",
						    x, y, p, c);
				if (!trm_port_has_node(m, x, y, p, c))
					return terr(err, errlen, m->line,
						    "XP (%u,%u) port %u: connect type 0x%x without its node",
						    x, y, p, c);
			}
		}
	}
	return 0;
}

/* Is the DTC domain of the XP at (x0, y0) one connected region? */
static bool trm_domain_connected(const struct cmn600_model_mesh *m, unsigned int x0,
				 unsigned int y0)
{
	u8 seen[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM] = { };
	u8 qx[CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM];
	u8 qy[CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM];
	unsigned int head = 0, tail = 0, members = 0, reached = 0, x, y, dir;
	u8 dom = m->xp_domain[x0][y0];

	for (x = 0; x < m->x_dim; x++)
		for (y = 0; y < m->y_dim; y++)
			if (m->xp_domain[x][y] == dom)
				members++;
	seen[x0][y0] = 1;
	qx[tail] = x0;
	qy[tail++] = y0;
	while (head < tail) {
		x = qx[head];
		y = qy[head++];
		reached++;
		for (dir = 0; dir < 4; dir++) {
			int nx = x + (dir == 0) - (dir == 1);
			int ny = y + (dir == 2) - (dir == 3);

			if (nx < 0 || ny < 0 || nx >= (int)m->x_dim || ny >= (int)m->y_dim ||
			    seen[nx][ny] || m->xp_domain[nx][ny] != dom)
				continue;
			seen[nx][ny] = 1;
			qx[tail] = nx;
			qy[tail++] = ny;
		}
	}
	return reached == members;
}

/**
 * cmn600_model_check_trm() - is a parsed mesh one the CMN-600 allows?
 * @m: a mesh from cmn600_model_parse()
 * @err: buffer for a one-line message ("line <n>: ..."), may be NULL
 * @errlen: size of @err
 *
 * The parser accepts what the model can build, broken firmware and
 * hardware included, since the fault tests need it. This checks the
 * hardware rules on top: every node a CMN-600 device node type, on a port
 * whose connect type is its own, every port type that is a configuration
 * node with one; logical ids 0..n-1 per type; at least one DTC; each DTC
 * domain one connected region of XPs (it holds its DTC by construction).
 * Nothing about interrupts (firmware) or driver limits.
 *
 * Return: 0, or -EINVAL with the first broken rule in @err.
 */
int cmn600_model_check_trm(const struct cmn600_model_mesh *m, char *err, size_t errlen)
{
	unsigned int i, j, same, nr_dtcs = 0;

	if (err && errlen)
		err[0] = '\0';
	for (i = 0; i < m->nr_nodes; i++) {
		const struct cmn600_model_node *n = &m->nodes[i];
		u8 c = m->connect[n->x][n->y][n->port];

		if (!trm_node_on_port(n->type, c))
			return terr(err, errlen, n->line,
				    "a %s node (0x%x) cannot sit on a port of connect type 0x%x",
				    cmn600_model_type_name(n->type), n->type, c);
		for (j = 0, same = 0; j < m->nr_nodes; j++)
			if (m->nodes[j].type == n->type)
				same++;
		if (n->lid >= same)
			return terr(err, errlen, n->line,
				    "logical id %u of a %s: the %u nodes of a type have 0..%u",
				    n->lid, cmn600_model_type_name(n->type), same, same - 1);
		if (n->type != CMN600_MODEL_TYPE_DTC)
			continue;
		nr_dtcs++;
		if (!trm_domain_connected(m, n->x, n->y))
			return terr(err, errlen, n->line,
				    "the XPs of DTC domain %u are not one connected region",
				    n->lid);
	}
	if (!nr_dtcs)
		return terr(err, errlen, m->line, "no DTC (a CMN-600 always has DTC 0)");
	return trm_check_ports(m, err, errlen);
}
EXPORT_SYMBOL_GPL(cmn600_model_check_trm);

static int parse_line(struct parser *ps, char *line)
{
	char *tok[MAX_TOKENS], *s, *hash;
	int ntok = 0;

	hash = strchr(line, '#');
	if (hash)
		*hash = '\0';
	while ((s = strsep(&line, " \t\r")) != NULL) {
		if (!*s)
			continue;
		if (ntok == MAX_TOKENS)
			return perr(ps, ps->line, "too many words");
		tok[ntok++] = s;
	}
	if (!ntok)
		return 0;

	if (!strcmp(tok[0], "mesh")) {
		int ret = finish_mesh(ps);

		return ret ? ret : parse_mesh(ps, tok, ntok);
	}
	if (!ps->cur)
		return perr(ps, ps->line, "'%s' before the first 'mesh' line", tok[0]);
	if (!strcmp(tok[0], "port"))
		return parse_port(ps, tok, ntok);
	if (!strcmp(tok[0], "node"))
		return parse_node(ps, tok, ntok);
	if (!strcmp(tok[0], "domain"))
		return parse_domain(ps, tok, ntok);
	return perr(ps, ps->line, "unknown statement '%s'", tok[0]);
}

void cmn600_model_free(struct cmn600_model_file *file)
{
	unsigned int i;

	if (!file)
		return;
	for (i = 0; i < file->nr_meshes; i++)
		kfree(file->meshes[i]);
	kfree(file);
}
EXPORT_SYMBOL_GPL(cmn600_model_free);

/**
 * cmn600_model_parse() - parse and validate a mesh file
 * @text: the file's text (need not be NUL terminated)
 * @len: its length in bytes
 * @out: the result, to be freed with cmn600_model_free()
 * @err: buffer for a one-line error message ("line <n>: ..."), may be NULL
 * @errlen: size of @err
 *
 * Return: 0, -EINVAL for a bad description (message in @err) or -ENOMEM.
 */
int cmn600_model_parse(const char *text, size_t len, struct cmn600_model_file **out,
		       char *err, size_t errlen)
{
	struct parser *ps;
	char *buf, *cursor, *line;
	int ret = 0;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	ps = kzalloc(sizeof(*ps), GFP_KERNEL);
	buf = kmalloc(len + 1, GFP_KERNEL);
	if (!ps || !buf) {
		kfree(ps);
		kfree(buf);
		return -ENOMEM;
	}
	memcpy(buf, text, len);
	buf[len] = '\0';
	ps->err = err;
	ps->errlen = err ? errlen : 0;
	if (memchr(text, '\0', len)) {
		ret = perr(ps, 0, "NUL byte in the text");
		goto out;
	}
	ps->file = kzalloc(sizeof(*ps->file), GFP_KERNEL);
	if (!ps->file) {
		ret = -ENOMEM;
		goto out;
	}

	cursor = buf;
	while (!ret && (line = strsep(&cursor, "\n")) != NULL) {
		ps->line++;
		if (strlen(line) != strcspn(line, "\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c"))
			ret = perr(ps, ps->line, "control character in line");
		else
			ret = parse_line(ps, line);
	}
	if (!ret)
		ret = finish_mesh(ps);
	if (!ret)
		ret = finish_file(ps);
	if (ret) {
		cmn600_model_free(ps->file);
		goto out;
	}
	*out = ps->file;
out:
	kfree(buf);
	kfree(ps);
	return ret;
}
EXPORT_SYMBOL_GPL(cmn600_model_parse);
