// SPDX-License-Identifier: GPL-2.0
/* The CMN-600 model's image builder, built into the KUnit module */
#include "../tools/testing/cmn600-model/image.c"
