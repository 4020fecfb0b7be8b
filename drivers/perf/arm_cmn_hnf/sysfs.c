// SPDX-License-Identifier: GPL-2.0
/*
 * arm_cmn_hnf sysfs: the attribute groups of the PMU device, events/ (one
 * alias per entry of event_table.h, with .scale and .unit where it has
 * them, and dtc_cycles), format/, cpumask, identifier and the topology
 * files. The ABI: Documentation/ABI/testing/sysfs-bus-event_source-devices-arm_cmn_hnf.
 */
#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/perf_event.h>
#include <linux/stringify.h>
#include <linux/sysfs.h>

#include "hnf.h"

/* PMU_HN_SNP_SENT_UNTRK_EVENT exists from CMN-600 r1p2 */
#define CMN_HNF_EVENT_SNP_SENT_UNTRK	0x1b

static struct cmn_hnf *cmn_hnf_from_dev(struct device *dev)
{
	return to_cmn_hnf(dev_get_drvdata(dev));
}

/* events/ */

enum cmn_hnf_event_file {
	CMN_HNF_FILE_ALIAS,	/* <name>: the config terms */
	CMN_HNF_FILE_SCALE,	/* <name>.scale */
	CMN_HNF_FILE_UNIT,	/* <name>.unit */
	CMN_HNF_FILE_CYCLES,	/* dtc_cycles */
};

struct cmn_hnf_event_attr {
	struct device_attribute attr;
	enum cmn_hnf_event_file file;
	u8 eventid;
	s8 occupid;
	const char *scale;
	const char *unit;
};

static ssize_t cmn_hnf_event_show(struct device *dev, struct device_attribute *attr,
				  char *buf)
{
	struct cmn_hnf_event_attr *ea = container_of(attr, struct cmn_hnf_event_attr, attr);

	switch (ea->file) {
	case CMN_HNF_FILE_SCALE:
		return sysfs_emit(buf, "%s\n", ea->scale);
	case CMN_HNF_FILE_UNIT:
		return sysfs_emit(buf, "%s\n", ea->unit);
	case CMN_HNF_FILE_CYCLES:
		return sysfs_emit(buf, "type=0x%x\n", CMN_HNF_TYPE_DTC);
	default:
		break;
	}
	if (ea->occupid == CMN_HNF_NO_OCCUP)
		return sysfs_emit(buf, "eventid=0x%02x\n", ea->eventid);
	return sysfs_emit(buf, "eventid=0x%02x,occupid=0x%x\n", ea->eventid,
			  ea->occupid);
}

#define CMN_HNF_EVENT_ATTR(_file, _kind, _id, _occ, _scale, _unit)	\
	(&((struct cmn_hnf_event_attr[]) {{				\
		.attr = {						\
			.attr = { .name = _file, .mode = 0444 },	\
			.show = cmn_hnf_event_show,			\
		},							\
		.file = _kind,						\
		.eventid = _id,						\
		.occupid = _occ,					\
		.scale = _scale,					\
		.unit = _unit,						\
	}})[0].attr.attr)

/* Expanders of the event table: one file of each table entry */
#define CMN_HNF_EVENT_ALIAS(_name, _id, _occ, _scale, _unit, ...)	\
	CMN_HNF_EVENT_ATTR(__stringify(_name), CMN_HNF_FILE_ALIAS,	\
			   _id, _occ, _scale, _unit),
#define CMN_HNF_EVENT_SCALE(_name, _id, _occ, _scale, _unit, ...)	\
	CMN_HNF_EVENT_ATTR(__stringify(_name) ".scale",		\
			   CMN_HNF_FILE_SCALE, _id, _occ, _scale, _unit),
#define CMN_HNF_EVENT_UNIT(_name, _id, _occ, _scale, _unit, ...)	\
	CMN_HNF_EVENT_ATTR(__stringify(_name) ".unit",			\
			   CMN_HNF_FILE_UNIT, _id, _occ, _scale, _unit),

static struct attribute *cmn_hnf_event_attrs[] = {
#define CMN_HNF_EVENT CMN_HNF_EVENT_ALIAS
#include <arm_cmn_hnf/event_table.h>
#undef CMN_HNF_EVENT
#define CMN_HNF_EVENT CMN_HNF_EVENT_SCALE
#include <arm_cmn_hnf/event_table.h>
#undef CMN_HNF_EVENT
#define CMN_HNF_EVENT CMN_HNF_EVENT_UNIT
#include <arm_cmn_hnf/event_table.h>
#undef CMN_HNF_EVENT
	CMN_HNF_EVENT_ATTR(CMN_HNF_DTC_CYCLES_NAME, CMN_HNF_FILE_CYCLES,
			   0, CMN_HNF_NO_OCCUP, "", ""),
	NULL
};

/* Empty .scale/.unit files are hidden, and events the revision lacks */
static umode_t cmn_hnf_event_is_visible(struct kobject *kobj,
					struct attribute *attr, int unused)
{
	struct cmn_hnf *cmn = cmn_hnf_from_dev(kobj_to_dev(kobj));
	struct cmn_hnf_event_attr *ea = container_of(attr, struct cmn_hnf_event_attr, attr.attr);

	if ((ea->file == CMN_HNF_FILE_SCALE && !ea->scale[0]) ||
	    (ea->file == CMN_HNF_FILE_UNIT && !ea->unit[0]))
		return 0;
	if (ea->file != CMN_HNF_FILE_CYCLES &&
	    ea->eventid == CMN_HNF_EVENT_SNP_SENT_UNTRK &&
	    cmn->topo->revision < CMN600_REV_R1P2)
		return 0;
	return attr->mode;
}

static const struct attribute_group cmn_hnf_event_group = {
	.name = "events",
	.attrs = cmn_hnf_event_attrs,
	.is_visible = cmn_hnf_event_is_visible,
};

/* format/ */

struct cmn_hnf_format_attr {
	struct device_attribute attr;
	u64 mask;
};

static ssize_t cmn_hnf_format_show(struct device *dev, struct device_attribute *attr,
				   char *buf)
{
	struct cmn_hnf_format_attr *fa = container_of(attr, struct cmn_hnf_format_attr, attr);
	unsigned long bits[BITS_TO_LONGS(64)];

	bitmap_from_u64(bits, fa->mask);
	return sysfs_emit(buf, "config:%*pbl\n", 64, bits);
}

#define CMN_HNF_FORMAT_ATTR(_name, _mask)				\
	(&((struct cmn_hnf_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, cmn_hnf_format_show, NULL),	\
		.mask = _mask,						\
	}})[0].attr.attr)

static struct attribute *cmn_hnf_format_attrs[] = {
	CMN_HNF_FORMAT_ATTR(eventid, CMN_HNF_CONFIG_EVENTID),
	CMN_HNF_FORMAT_ATTR(occupid, CMN_HNF_CONFIG_OCCUPID),
	CMN_HNF_FORMAT_ATTR(bynodeid, CMN_HNF_CONFIG_BYNODEID),
	CMN_HNF_FORMAT_ATTR(nodeid, CMN_HNF_CONFIG_NODEID),
	CMN_HNF_FORMAT_ATTR(type, CMN_HNF_CONFIG_TYPE),
	NULL
};

static const struct attribute_group cmn_hnf_format_group = {
	.name = "format",
	.attrs = cmn_hnf_format_attrs,
};

/* cpumask, identifier and the topology files */

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct cmn_hnf *cmn = cmn_hnf_from_dev(dev);

	return cpumap_print_to_pagebuf(true, buf, cpumask_of(READ_ONCE(cmn->cpu)));
}
static DEVICE_ATTR_RO(cpumask);

/* A file of the mesh's topology: one line, @fmt of @topo's fields */
#define CMN_HNF_TOPO_ATTR(_name, _fmt, ...)					\
static ssize_t _name##_show(struct device *dev,					\
			    struct device_attribute *attr, char *buf)		\
{										\
	const struct cmn_hnf_topology *topo = cmn_hnf_from_dev(dev)->topo;	\
										\
	return sysfs_emit(buf, _fmt "\n", __VA_ARGS__);				\
}										\
static DEVICE_ATTR_RO(_name)

CMN_HNF_TOPO_ATTR(identifier, "%03x%02x", topo->part, topo->revision);
CMN_HNF_TOPO_ATTR(mesh, "%u %u", topo->mesh_x, topo->mesh_y);
CMN_HNF_TOPO_ATTR(dtcs, "%u", topo->num_dtcs);

/* At most 128 lines of about 24 characters: well inside one page */
static ssize_t hnfs_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	const struct cmn_hnf_topology *topo = cmn_hnf_from_dev(dev)->topo;
	const struct cmn_hnf_node *hnf;
	const struct cmn_hnf_xp *xp;
	unsigned int i;
	int len;

	len = sysfs_emit(buf, "logical_id node_id xp_x xp_y port dev\n");
	for (i = 0; i < topo->num_hnfs; i++) {
		hnf = &topo->hnf[i];
		xp = &topo->xp[hnf->xp];
		len += sysfs_emit_at(buf, len, "%u 0x%04x %u %u %u %u\n", hnf->logical_id,
				     hnf->node_id, xp->x, xp->y, hnf->port, hnf->dev);
	}
	return len;
}
static DEVICE_ATTR_RO(hnfs);

static struct attribute *cmn_hnf_common_attrs[] = {
	&dev_attr_cpumask.attr,
	&dev_attr_identifier.attr,
	&dev_attr_mesh.attr,
	&dev_attr_dtcs.attr,
	&dev_attr_hnfs.attr,
	NULL
};

static const struct attribute_group cmn_hnf_common_group = {
	.attrs = cmn_hnf_common_attrs,
};

const struct attribute_group *cmn_hnf_attr_groups[] = {
	&cmn_hnf_event_group,
	&cmn_hnf_format_group,
	&cmn_hnf_common_group,
	NULL
};
