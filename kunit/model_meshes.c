// SPDX-License-Identifier: GPL-2.0
/*
 * The CMN-600 model's shipped mesh files, embedded by the model's
 * gen-meshes.sh into model_meshes_gen.h at build time (kunit/Kbuild).
 * The model's private export macro needs static_assert().
 */
#include <linux/build_bug.h>

#include "model_meshes_gen.h"
