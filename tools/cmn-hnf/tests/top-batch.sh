#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmn-hnf top --batch on every shipped mesh, against golden files.
#
#   top-batch.sh FAKE GOLDEN_DIR WORK_DIR MESH_DIR
#
# For every mesh file of MESH_DIR (the CMN-600 model's shipped meshes,
# made into sysfs trees by mesh-sysfs.sh), the frame that top --batch
# prints at COLUMNS=80, 120 and 200 equals GOLDEN_DIR/top-batch/<mesh>-
# <columns>.txt. At those widths and at 60, the batch map of the first mesh
# has the HN-F id of every cell that the interactive screen of the same
# width shows in its map (GOLDEN_DIR/top/<mesh>-<size>.txt, written by
# top-tmux.sh); where it has no ids, every cell is the documented fallback,
# the heat character and the value alone. Prints one line saying what is
# wrong and exits 1, or exits 0. GOLDEN_UPDATE=1 writes the golden files
# instead of comparing them (the id checks still run).
set -u
FAKE=$1 GOLDEN=$2 D=$3 MESHES=$4
HERE=$(cd "$(dirname "$0")" && pwd)

fail() { echo "$*"; exit 1; }

# map_cells FILE: the cells of the first map of FILE, one per line (the
# rows of a map start with "  y=N |" or, for more HN-Fs on an XP, with
# "      |"; a panel beside the map, after its last "|", is cut)
map_cells() {
	awk '
		/^(  y=[0-9]|     ) \|/ {
			seen = 1
			s = substr($0, 8)
			sub(/\|[^|]*$/, "", s)
			n = split(s, c, "|")
			for (i = 1; i <= n; i++)
				print c[i]
			next
		}
		/^      \+/ { next }
		seen { exit }' "$1"
}

# ids FILE: the HN-F ids in the first map of FILE, sorted
ids() { map_cells "$1" | grep -oE 'H[0-9]+' | sort -u; }

mkdir -p "$D"
for mf in "$MESHES"/*.mesh; do
	n=$(basename "$mf" .mesh)
	rm -rf "$D/trees/$n"
	"$HERE/mesh-sysfs.sh" "$mf" "$D/trees/$n" > /dev/null ||
		fail "mesh-sysfs.sh $mf failed"
	for size in 60x15 80x24 120x40 200x60; do
		w=${size%x*}
		out="$D/$n-$w.txt"
		COLUMNS=$w "$FAKE" --sysfs-root "$D/trees/$n" top --batch -n 1 -I 100 \
			-m pocq_avg_occupancy slc pocq > "$out" 2> "$D/err" ||
			fail "$n at $w columns: exit $?: $(head -n 1 "$D/err")"
		if [ "$w" != 60 ]; then
			if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
				mkdir -p "$GOLDEN/top-batch"
				cp "$out" "$GOLDEN/top-batch/$n-$w.txt"
			elif ! diff -u "$GOLDEN/top-batch/$n-$w.txt" "$out" > "$D/diff" 2>&1; then
				fail "$n at $w columns: the frame differs from the golden file: $(grep '^[-+][^-+]' "$D/diff" | head -n 4 | tr '\n' '|')"
			fi
		fi
		# the ids of the screen of that width are all on the batch map
		screen="$GOLDEN/top/$n-$size.txt"
		[ -s "$screen" ] || fail "no interactive golden file $screen"
		[ -n "$(map_cells "$out")" ] || fail "$n at $w columns: no map"
		lost=$(comm -23 <(ids "$screen") <(ids "$out") | tr '\n' ' ')
		[ -z "$lost" ] ||
			fail "$n at $w columns: the screen's HN-F ids $lost are missing from the --batch map: $(map_cells "$out" | grep -v '^ *$' | head -n 3 | tr '\n' '|')"
		# ids on every cell or on none; none: heat character and value
		if [ -n "$(ids "$out")" ]; then
			bad=$(map_cells "$out" | grep -v '^ *$' | grep -vE 'H[0-9]+' | head -n 1)
			[ -z "$bad" ] || fail "$n at $w columns: a cell without its HN-F id: '$bad'"
		else
			bad=$(map_cells "$out" | grep -v '^ *$' |
				grep -vE '^[ .:*#]([0-9][0-9.]*[kMG]?|n/a)\+?!? *$' | head -n 1)
			[ -z "$bad" ] ||
				fail "$n at $w columns: no ids, and a cell not of the heat character and the value: '$bad'"
		fi
	done
done
exit 0
