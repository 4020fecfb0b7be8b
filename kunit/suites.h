/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The suites of arm_cmn_hnf_kunit.ko, one per file, registered in
 * kunit_main.c and listed with every case in kunit/manifest; and the
 * helpers they share (util.c).
 */
#ifndef ARM_CMN_HNF_KUNIT_SUITES_H
#define ARM_CMN_HNF_KUNIT_SUITES_H

#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "cmn600_model.h"

extern struct kunit_suite cmn_hnf_event_sel_suite;
extern struct kunit_suite cmn_hnf_events_suite;
extern struct kunit_suite cmn_hnf_config_suite;
extern struct kunit_suite cmn_hnf_nodeid_suite;
extern struct kunit_suite cmn_hnf_dtm_suite;
extern struct kunit_suite cmn_hnf_discovery_suite;
extern struct kunit_suite cmn_hnf_alloc_suite;
extern struct kunit_suite cmn_hnf_counter_suite;
extern struct kunit_suite cmn_hnf_irq_suite;

/*
 * The model's shipped mesh files (tools/testing/cmn600-model/meshes, every .mesh file),
 * by name. The discovery suite checks that this is the model's whole list.
 */
#define CMN_HNF_KUNIT_SHIPPED						\
	"1x1", "2x2", "3x3", "4x2-2dtc", "8x8-32hnf-4dtc", "default",	\
	"multi-uid", "numa1", "odd-6x5-3dtc", "shared-irq", "two-mesh"

#define CMN_HNF_KUNIT_WHY_LEN	160

/* A configuration image, and what the discovery walk read of it */
struct cmn_hnf_kunit_img {
	const struct cmn600_model_mesh *mesh;
	u8 *buf;
	u64 len;		/* bytes built; reads above return 0 */
	u64 size;		/* the region the walk is given */
	unsigned int bad_reads;	/* misaligned or outside the region */
	u32 first_bad;
};

u64 cmn_hnf_kunit_img_read(void *ctx, u32 off);
struct cmn600_model_file *cmn_hnf_kunit_parse(struct kunit *test, const char *text);
struct cmn600_model_file *cmn_hnf_kunit_shipped(struct kunit *test, const char *name);
void cmn_hnf_kunit_file_release(struct kunit *test, struct cmn600_model_file *file);
struct cmn_hnf_kunit_img *cmn_hnf_kunit_build(struct kunit *test,
					      const struct cmn600_model_mesh *mesh,
					      enum cmn600_model_fault fault);
void cmn_hnf_kunit_img_release(struct kunit *test, struct cmn_hnf_kunit_img *im);
int cmn_hnf_kunit_discover(struct cmn_hnf_kunit_img *im, struct cmn_hnf_topology *topo,
			   char *why);
/* The topology discovery finds in a good image of @mesh (asserted) */
struct cmn_hnf_topology *cmn_hnf_kunit_topology(struct kunit *test,
						const struct cmn600_model_mesh *mesh);

u32 cmn_hnf_kunit_rand(u32 *seed);
u64 cmn_hnf_kunit_rand64(u32 *seed);

#endif /* ARM_CMN_HNF_KUNIT_SUITES_H */
