#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default two-mesh
#
# Smoke test of the whole guest setup, independent of our driver: the guest
# has both CPUs, the model loads the resolved mesh, and Debian's stock
# arm-cmn driver discovers every mesh the model built (one arm_cmn_<n> PMU
# per mesh) and can count on it. A model whose configuration space the
# upstream driver cannot walk fails here.
. /e2e/lib.sh

check cpus_online [ "$(grep -c ^processor /proc/cpuinfo)" -eq 2 ]
check mesh_resolved grep -q 'base=0x' "$CMN_MESH"

n=$(mesh_count)
if ! check model_load model_load; then
	finish
fi

i=0
while [ $i -lt "$n" ]; do
	want=$(mesh_opt $i base)
	got=$(model_info $i base)
	if [ -n "$got" ] && [ $((got)) -eq $((want)) ]; then
		pass "model_mesh${i}_base"
	else
		fail "model_mesh${i}_base" "model says '$got', resolved mesh says '$want'"
	fi
	i=$((i + 1))
done

check modprobe_arm_cmn modprobe arm-cmn
i=0
while [ $i -lt "$n" ]; do
	check "arm_cmn_${i}_registered" pmu_exists "arm_cmn_$i"
	i=$((i + 1))
done
if pmu_exists arm_cmn_0; then
	# an HN-F event of the stock driver opens and reads back a number
	perf_stat_x /tmp/smoke.csv -a -e arm_cmn_0/hnf_cache_miss/ sleep 0.1
	v=$(perf_value /tmp/smoke.csv) && pass arm_cmn_0_counts ||
		fail arm_cmn_0_counts "perf stat arm_cmn_0/hnf_cache_miss/: '$v'"
fi
rmmod arm_cmn 2>/dev/null
finish
