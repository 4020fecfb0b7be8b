// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the suites: mesh descriptions parsed by the CMN-600
 * model's parser, configuration images built by the model's image builder
 * (both compiled into this module, see Kbuild), and the topology the
 * driver's discovery walk finds in such an image.
 */
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <kunit/resource.h>
#include <kunit/test.h>

#include <arm_cmn_hnf/logic.h>

#include "suites.h"

u64 cmn_hnf_kunit_img_read(void *ctx, u32 off)
{
	struct cmn_hnf_kunit_img *im = ctx;

	if (off & 7 || (u64)off + 8 > im->size) {
		if (!im->bad_reads++)
			im->first_bad = off;
		return ~0ULL;
	}
	/* bytes above the image are unused space: zero */
	if ((u64)off + 8 > im->len)
		return 0;
	return *(u64 *)(im->buf + off);
}

static void kunit_vfree(void *p)
{
	vfree(p);
}

static void kunit_model_free(void *p)
{
	cmn600_model_free(p);
}

struct cmn600_model_file *cmn_hnf_kunit_parse(struct kunit *test, const char *text)
{
	struct cmn600_model_file *file = NULL;
	char err[128] = "";
	int ret;

	ret = cmn600_model_parse(text, strlen(text), &file, err, sizeof(err));
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "mesh text does not parse: %s", err);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kunit_model_free, file), 0);
	return file;
}

struct cmn600_model_file *cmn_hnf_kunit_shipped(struct kunit *test, const char *name)
{
	const char *text = cmn600_model_builtin_text(name);

	KUNIT_ASSERT_NOT_NULL_MSG(test, text, "no shipped mesh %s", name);
	return cmn_hnf_kunit_parse(test, text);
}

void cmn_hnf_kunit_file_release(struct kunit *test, struct cmn600_model_file *file)
{
	kunit_release_action(test, kunit_model_free, file);
}

struct cmn_hnf_kunit_img *cmn_hnf_kunit_build(struct kunit *test,
					      const struct cmn600_model_mesh *mesh,
					      enum cmn600_model_fault fault)
{
	struct cmn_hnf_kunit_img *im = kunit_kzalloc(test, sizeof(*im), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, im);
	im->mesh = mesh;
	im->size = mesh->size;
	im->len = cmn600_model_image_extent(mesh, fault);
	KUNIT_ASSERT_GT(test, im->len, 0ULL);
	KUNIT_ASSERT_LE(test, im->len, mesh->size);
	im->buf = vmalloc(im->len);
	KUNIT_ASSERT_NOT_NULL(test, im->buf);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, kunit_vfree, im->buf), 0);
	KUNIT_ASSERT_EQ(test, cmn600_model_build(mesh, fault, im->buf, im->len, NULL), 0);
	return im;
}

/* Give the (up to 64 MiB) buffer back before the test ends */
void cmn_hnf_kunit_img_release(struct kunit *test, struct cmn_hnf_kunit_img *im)
{
	kunit_release_action(test, kunit_vfree, im->buf);
	im->buf = NULL;
}

int cmn_hnf_kunit_discover(struct cmn_hnf_kunit_img *im, struct cmn_hnf_topology *topo,
			   char *why)
{
	return cmn_hnf_discover(cmn_hnf_kunit_img_read, im, im->size, im->mesh->root,
				topo, why, CMN_HNF_KUNIT_WHY_LEN);
}

struct cmn_hnf_topology *cmn_hnf_kunit_topology(struct kunit *test,
						const struct cmn600_model_mesh *mesh)
{
	struct cmn_hnf_topology *topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	struct cmn_hnf_kunit_img *im;
	char why[CMN_HNF_KUNIT_WHY_LEN];

	KUNIT_ASSERT_NOT_NULL(test, topo);
	im = cmn_hnf_kunit_build(test, mesh, CMN600_MODEL_FAULT_NONE);
	KUNIT_ASSERT_EQ_MSG(test, cmn_hnf_kunit_discover(im, topo, why), 0, "%s", why);
	cmn_hnf_kunit_img_release(test, im);
	return topo;
}

u32 cmn_hnf_kunit_rand(u32 *seed)
{
	/* xorshift32: deterministic, never 0 from a non-zero seed */
	u32 x = *seed;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*seed = x;
	return x;
}

u64 cmn_hnf_kunit_rand64(u32 *seed)
{
	u64 hi = cmn_hnf_kunit_rand(seed);

	return hi << 32 | cmn_hnf_kunit_rand(seed);
}
