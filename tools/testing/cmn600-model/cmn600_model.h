/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Software model of an Arm CMN-600 mesh: the pure part (mesh description
 * parser and configuration space image builder) that other modules, such as
 * the KUnit tests, may call to build the same images the model builds in
 * the guest.
 *
 * This header is deliberately independent of the arm_cmn_hnf driver: every
 * register offset and field the model uses is defined here or in image.h from
 * the hardware reference, so that a mistake shared with the driver cannot
 * make both sides agree.
 *
 * Nothing here touches hardware or global state; all functions may be called
 * from any process context.
 */
#ifndef CMN600_MODEL_H
#define CMN600_MODEL_H

#include <linux/types.h>

#define CMN600_MODEL_MAX_DIM		8
#define CMN600_MODEL_MAX_PORTS		2
#define CMN600_MODEL_MAX_DEVS		4
#define CMN600_MODEL_MAX_DTCS		4
#define CMN600_MODEL_MAX_MESHES		8
#define CMN600_MODEL_MAX_NODES		(CMN600_MODEL_MAX_DIM * CMN600_MODEL_MAX_DIM * \
					 CMN600_MODEL_MAX_PORTS * CMN600_MODEL_MAX_DEVS)

/* Region size limits: child pointers carry offsets in bits 27:0. */
#define CMN600_MODEL_BLOCK		0x4000ULL
#define CMN600_MODEL_DEFAULT_SIZE	0x4000000ULL
#define CMN600_MODEL_MAX_SIZE		0x10000000ULL

/* node_info[15:0] node type codes (CMN-600 TRM via the reference, 1.4) */
#define CMN600_MODEL_TYPE_DN		0x0001
#define CMN600_MODEL_TYPE_CFG		0x0002
#define CMN600_MODEL_TYPE_DTC		0x0003
#define CMN600_MODEL_TYPE_HNI		0x0004
#define CMN600_MODEL_TYPE_HNF		0x0005
#define CMN600_MODEL_TYPE_XP		0x0006
#define CMN600_MODEL_TYPE_SBSX		0x0007
#define CMN600_MODEL_TYPE_RNI		0x000a
#define CMN600_MODEL_TYPE_RND		0x000d
#define CMN600_MODEL_TYPE_RNSAM		0x000f
#define CMN600_MODEL_TYPE_CXRA		0x0100
#define CMN600_MODEL_TYPE_CXHA		0x0101
#define CMN600_MODEL_TYPE_CXLA		0x0102
/* Type of the extra node the unknown_type fault adds */
#define CMN600_MODEL_TYPE_BOGUS		0x0077

/* Faults that break an image on purpose (module parameter fault=) */
enum cmn600_model_fault {
	CMN600_MODEL_FAULT_NONE = 0,
	CMN600_MODEL_FAULT_CHILD_LOOP,
	CMN600_MODEL_FAULT_CHILD_COUNT,
	CMN600_MODEL_FAULT_CHILD_OOB,
	CMN600_MODEL_FAULT_ROOT_NOT_CFG,
	CMN600_MODEL_FAULT_UNKNOWN_TYPE,
	CMN600_MODEL_FAULT_NO_DTC,
	CMN600_MODEL_FAULT_NODEID_MISMATCH,
	CMN600_MODEL_FAULT_GARBAGE_COUNTERS,
	CMN600_MODEL_FAULT_NR,
};

/**
 * struct cmn600_model_node - one ``node`` line of a mesh description
 * @type: node_info[15:0] type code
 * @x: XP X coordinate
 * @y: XP Y coordinate
 * @port: XP device port (0 or 1)
 * @dev: device number on the port (0..3)
 * @lid: logical ID (explicit ``lid=`` or the default per type)
 * @irq: GIC SPI number (``irq=``, DTCs only), valid if @has_irq
 * @has_irq: ``irq=<SPI>`` was given
 * @no_irq: ``irq=none``: the firmware describes no interrupt for this DTC
 * @defer_irq: ``irq=defer``: the firmware lists an interrupt for this DTC
 *	whose controller never gets a driver, so Linux cannot resolve it
 * @domain: ``domain=`` option, -1 if absent
 * @line: line number in the mesh file, for error messages
 */
struct cmn600_model_node {
	u16 type;
	u8 x, y, port, dev;
	u16 lid;
	u32 irq;
	bool has_irq;
	bool no_irq;
	bool defer_irq;
	s8 domain;
	unsigned int line;
};

/**
 * struct cmn600_model_mesh - one parsed and validated ``mesh``
 * @x_dim: mesh X dimension (1..8)
 * @y_dim: mesh Y dimension (1..8)
 * @rev: revision code of periph_id_2[7:4] (0 = r1p0 .. 6 = r3p1)
 * @root: offset of the CFG node from PERIPHBASE (resolved default)
 * @size: size of the configuration region in bytes
 * @base: physical address of the region (only if @has_base)
 * @uid: ACPI _UID / instance number
 * @numa: NUMA node (only if @has_numa)
 * @has_base: ``base=`` was given
 * @has_numa: ``numa=`` was given
 * @connect: XP port_connect_info device type, [x][y][port]
 * @xp_domain: DTC domain of each XP, [x][y] (resolved)
 * @line: line number of the ``mesh`` statement
 * @nr_nodes: number of entries in @nodes
 * @nodes: device nodes, in file order
 */
struct cmn600_model_mesh {
	unsigned int x_dim, y_dim;
	unsigned int rev;
	u64 root, size, base;
	u32 uid;
	int numa;
	bool has_base, has_numa;
	u8 connect[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_PORTS];
	u8 xp_domain[CMN600_MODEL_MAX_DIM][CMN600_MODEL_MAX_DIM];
	unsigned int line;
	unsigned int nr_nodes;
	struct cmn600_model_node nodes[CMN600_MODEL_MAX_NODES];
};

/**
 * struct cmn600_model_file - a parsed mesh file
 * @nr_meshes: number of meshes, in file order
 * @meshes: the meshes
 */
struct cmn600_model_file {
	unsigned int nr_meshes;
	struct cmn600_model_mesh *meshes[CMN600_MODEL_MAX_MESHES];
};

/**
 * struct cmn600_model_image_info - what cmn600_model_build() put in an image
 * @extent: bytes of the buffer the image uses (highest block end)
 * @root: offset of the CFG node
 * @nr_xps: XPs (children of the CFG node)
 * @nr_nodes: device nodes (children of the XPs, fault extras included)
 * @nr_hnfs: HN-F nodes
 * @nr_dtcs: DTC nodes
 */
struct cmn600_model_image_info {
	u64 extent;
	u64 root;
	unsigned int nr_xps, nr_nodes, nr_hnfs, nr_dtcs;
};

/**
 * struct cmn600_model_builtin - a shipped mesh file, embedded at build time
 * @name: file name without ``.mesh`` (``default``, ``8x8-32hnf-4dtc``, ...)
 * @text: the file's text, NUL terminated
 */
struct cmn600_model_builtin {
	const char *name;
	const char *text;
};

/* Table of the shipped meshes, terminated by an entry with a NULL name. */
extern const struct cmn600_model_builtin cmn600_model_builtins[];

const char *cmn600_model_builtin_text(const char *name);

int cmn600_model_parse(const char *text, size_t len,
		       struct cmn600_model_file **out, char *err, size_t errlen);
void cmn600_model_free(struct cmn600_model_file *file);
int cmn600_model_check_trm(const struct cmn600_model_mesh *mesh, char *err, size_t errlen);

const char *cmn600_model_fault_name(enum cmn600_model_fault fault);
int cmn600_model_fault_parse(const char *name, enum cmn600_model_fault *fault);
const char *cmn600_model_rev_name(unsigned int rev);

unsigned int cmn600_model_coord_bits(const struct cmn600_model_mesh *mesh);
u16 cmn600_model_node_id(const struct cmn600_model_mesh *mesh, unsigned int x,
			 unsigned int y, unsigned int port, unsigned int dev);
u64 cmn600_model_xp_offset(const struct cmn600_model_mesh *mesh, unsigned int x,
			   unsigned int y);
u64 cmn600_model_node_offset(const struct cmn600_model_mesh *mesh, unsigned int x,
			     unsigned int y, unsigned int port, unsigned int dev);

u64 cmn600_model_image_extent(const struct cmn600_model_mesh *mesh,
			      enum cmn600_model_fault fault);
int cmn600_model_build(const struct cmn600_model_mesh *mesh,
		       enum cmn600_model_fault fault, void *buf, size_t size,
		       struct cmn600_model_image_info *info);

#endif /* CMN600_MODEL_H */
