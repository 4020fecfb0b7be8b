// SPDX-License-Identifier: GPL-2.0
/* The CMN-600 model's mesh description parser, built into the KUnit module */
#include "../tools/testing/cmn600-model/mesh.c"
