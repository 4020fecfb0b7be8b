#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# meshes.sh (make meshes N=<n> [SEED=<s>] [KERNEL=...] [FW=...] [TESTS=...]):
# the whole e2e suite (or TESTS) on N random meshes, those randmesh.py
# writes for seeds SEED, SEED+1, ..., SEED+N-1: make e2e
# MESH=random:<seed>,... with the same KERNEL, FW (default both) and
# E2E_JOBS. N consecutive seeds go through randmesh.py's corners in turn
# (seed modulo 10), so N=10 gives each corner once. SEED defaults to a
# random one; it is printed with the command that runs the same meshes
# again, and each boot prints its own seed and command (e2e.sh).
#
# Output and exit status: those of make e2e.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

n=${N:-}
if ! [[ $n =~ ^[1-9][0-9]*$ ]]; then
	log "make meshes: N=<number of meshes> is required (got '${n}')"
	echo "e2e: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
seed=${SEED:-$(($(od -An -N4 -tu4 /dev/urandom) % 1000000000))}
if ! [[ $seed =~ ^(0|[1-9][0-9]*)$ ]]; then
	log "make meshes: SEED=$seed is not a seed (an integer >= 0)"
	echo "e2e: 0 passed, 1 failed, 0 skipped"
	exit 1
fi
list=$seed
for ((i = 1; i < n; i++)); do
	list="$list,$((seed + i))"
done
again="make meshes N=$n SEED=$seed${KERNEL:+ KERNEL='$KERNEL'}${FW:+ FW='$FW'}${TESTS:+ TESTS='$TESTS'}"
log "meshes: $n random meshes, seeds $seed..$((seed + n - 1)); again: $again"
echo "  meshes: seeds $seed..$((seed + n - 1)); again: $again"
MESH="random:$list" exec "$VM/e2e.sh"
