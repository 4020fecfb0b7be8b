#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default two-mesh
# results: 4 + 3 * nmesh
# names: cpus_online mesh_resolved model_load modprobe_arm_cmn
# names: model_mesh0_base arm_cmn_0_registered arm_cmn_0_counts
# names: model_mesh1_base arm_cmn_1_registered arm_cmn_1_counts if nmesh > 1
# names: model_mesh[2-9]_base arm_cmn_[2-9]_registered arm_cmn_[2-9]_counts if nmesh > 2
#
# Smoke test of the whole guest setup, independent of our driver: the guest
# has both CPUs, the model loads the resolved mesh, and Debian's stock
# arm-cmn driver discovers every mesh the model built (one arm_cmn_<n> PMU
# per mesh) and counts on it exactly what the model produced. A model whose
# configuration space the upstream driver cannot walk fails here.
#   cpus_online, mesh_resolved, model_load, modprobe_arm_cmn
#   model_mesh<i>_base      the model placed mesh i where the firmware says
#   arm_cmn_<i>_registered  the stock driver registered mesh i's PMU
#   arm_cmn_<i>_counts      hnf_cache_miss on arm_cmn_<i> over one model
#                           step equals the truth of mesh i (or, on a
#                           mesh where arm-cmn misplaces HN-Fs, the truth
#                           of the HN-Fs it places right)
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-armcmn.sh

N=100000

check cpus_online [ "$(grep -c ^processor /proc/cpuinfo)" -eq 2 ]
check mesh_resolved grep -q 'base=0x' "$CMN_MESH"

n=$(mesh_count)
model_ok=0
check model_load model_load && model_ok=1

i=0
while [ $i -lt "$n" ]; do
	want=$(mesh_opt $i base)
	got=
	[ $model_ok = 1 ] && got=$(model_info $i base)
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
	p=$(lc_cmn_pmu $i)
	if lc_pmu_wait "$p"; then
		pass "${p}_registered"
		lc_rate $i "node=* event=1 rate=$((700 + 100 * i))"
		# an HN-F event of the stock driver counts exactly the truth;
		# on a mesh where arm-cmn misplaces HN-Fs (20-armcmn-crosscheck)
		# exactly the truth of the others
		bad=$(lc_armcmn_misplaced $i | tr '\n' ' ')
		pred=
		[ -z "$bad" ] || pred=lc_armcmn_pred_good
		LC_NAME="${p}_counts" LC_PREDICT=$pred LC_ARMCMN_MESH=$i LC_ARMCMN_BAD=$bad \
			lc_batch_check - "$p" $i $N "$p/hnf_cache_miss/|hnf_cache_miss|*"
	else
		fail "${p}_registered" "no $p after modprobe arm-cmn"
		fail "${p}_counts" "no $p"
	fi
	i=$((i + 1))
done
rmmod arm_cmn 2>/dev/null
finish
