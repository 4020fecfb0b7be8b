#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Turn the shipped mesh files into C strings, so that the
# model and the KUnit tests use the very same descriptions.
# Usage: $0 meshes/a.mesh meshes/b.mesh ... > meshes_gen.c
set -euo pipefail

spdx=SPDX-License-Identifier
echo "// $spdx: GPL-2.0"
echo '/* Generated from meshes/NAME.mesh by gen-meshes: do not edit. */'
echo
echo '#include <linux/export.h>'
echo '#include <linux/stddef.h>'
echo '#include <linux/string.h>'
echo
echo '#include "cmn600_model.h"'
echo '#include "mesh.h"'
echo
names=()
for f in "$@"; do
	name=$(basename "$f" .mesh)
	names+=("$name")
	echo "/* $name.mesh */"
	echo "static const char mesh_$(echo "$name" | tr -c 'A-Za-z0-9\n' '_')[] ="
	sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/\t/\\t/g' -e 's/^/\t"/' -e 's/$/\\n"/' "$f"
	echo '	"";'
	echo
done
echo 'const struct cmn600_model_builtin cmn600_model_builtins[] = {'
for name in "${names[@]}"; do
	echo "	{ \"$name\", mesh_$(echo "$name" | tr -c 'A-Za-z0-9\n' '_') },"
done
echo '	{ NULL, NULL }'
echo '};'
echo 'EXPORT_SYMBOL_GPL(cmn600_model_builtins);'
echo
echo 'const char *cmn600_model_builtin_text(const char *name)'
echo '{'
echo '	const struct cmn600_model_builtin *b;'
echo
echo '	for (b = cmn600_model_builtins; b->name; b++)'
echo '		if (!strcmp(b->name, name))'
echo '			return b->text;'
echo '	return NULL;'
echo '}'
echo 'EXPORT_SYMBOL_GPL(cmn600_model_builtin_text);'
