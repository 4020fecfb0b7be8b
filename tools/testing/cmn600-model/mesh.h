/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mesh description parser: internal helpers shared by the model's files.
 */
#ifndef CMN600_MODEL_MESH_H
#define CMN600_MODEL_MESH_H

#include <linux/types.h>

#include "cmn600_model.h"

/*
 * The pure API is exported for test modules. A module that compiles these
 * files into itself instead defines CMN600_MODEL_NO_EXPORT, so the symbols
 * stay private to it (this header must come after <linux/export.h>).
 */
#ifdef CMN600_MODEL_NO_EXPORT
#undef EXPORT_SYMBOL_GPL
#define EXPORT_SYMBOL_GPL(sym)	static_assert(!__builtin_types_compatible_p(typeof(sym), void))
#endif

const char *cmn600_model_type_name(u16 type);
int cmn600_model_parse_u64(const char *s, u64 *val);

#endif /* CMN600_MODEL_MESH_H */
