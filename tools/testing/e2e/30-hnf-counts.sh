#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 1x1 2x2 3x3 4x2-2dtc 8x8-32hnf-4dtc
# subset-fw: dt
# timeout: 600
# results: 2 + sum(1 + m.aliases + 3 * m.hnfs + 3 + min(3, 4 // max(1, m.hnf_xp_max)) + min(4, m.hnfs) + 1 + m.fls_misplaced + (1 if m.fls_misplaced else 0) + m.dtc_hnfs for m in mesh)
# names: model_load modprobe_arm_cmn_hnf
# names: registered alias/* alias/slc_miss alias/mc_bytes alias/dtc_cycles
# names: bynodeid/slc_miss@0x* bynodeid/pocq_occupancy_write@0x* bynodeid/mc_bytes@0x*
# names: wrap/slc_miss wrap_node/slc_miss@0x* wrap_node/pocq_occupancy_read@0x*
# names: group/slc_miss group_bynodeid/slc_miss@0x* mc_bytes_unit
# names: group/sf_hit if 4 // max(1, mesh[0].hnf_xp_max) >= 2
# names: group/mc_reqs if 4 // max(1, mesh[0].hnf_xp_max) >= 3
# names: twin_2x2_nodeid/slc_miss twin_2x2_nodeid/slc_miss@0x* if mesh[0].fls_misplaced > 0
# names: twin_multidtc_bynodeid/slc_miss@0x* if mesh[0].dtc_hnfs > 0
# names: mesh1/registered mesh1/alias/* mesh1/alias/slc_miss mesh1/alias/mc_bytes mesh1/alias/dtc_cycles if nmesh > 1
# names: mesh1/bynodeid/slc_miss@0x* mesh1/bynodeid/pocq_occupancy_write@0x* mesh1/bynodeid/mc_bytes@0x* if nmesh > 1
# names: mesh1/wrap/slc_miss mesh1/wrap_node/slc_miss@0x* mesh1/wrap_node/pocq_occupancy_read@0x* if nmesh > 1
# names: mesh1/group/slc_miss mesh1/group_bynodeid/slc_miss@0x* mesh1/mc_bytes_unit if nmesh > 1
# names: mesh1/group/sf_hit if nmesh > 1 and 4 // max(1, mesh[1].hnf_xp_max) >= 2
# names: mesh1/group/mc_reqs if nmesh > 1 and 4 // max(1, mesh[1].hnf_xp_max) >= 3
# names: mesh1/twin_2x2_nodeid/slc_miss mesh1/twin_2x2_nodeid/slc_miss@0x* if nmesh > 1 and mesh[1].fls_misplaced > 0
# names: mesh1/twin_multidtc_bynodeid/slc_miss@0x* if nmesh > 1 and mesh[1].dtc_hnfs > 0
# names: mesh[2-9]/* if nmesh > 2
#
# arm_cmn_hnf counts exactly what the model produced, on every mesh of the
# file (result names of mesh i > 0 start with mesh<i>/; each mesh's PMU is
# arm_cmn_hnf_<ACPI _UID or DT address rank>). Encodings, scales and units
# come from the tests' alias list, never from sysfs:
#   registered              the mesh's PMU exists
#   alias/<name>            every alias of the list, aggregated over all
#                           HN-Fs, one step with 16-bit local wraps (mc_bytes
#                           with its .scale, dtc_cycles == cycles stepped)
#   bynodeid/<name>@<id>    bynodeid=1 on every HN-F
#   wrap/... wrap_node/...  ~1.5 * 2^47 events in one step (beyond 2^32 and
#                           beyond one 32-bit global counter wrap)
#   group/...               a group {a,b,c} (as many as the busiest XP can
#                           count at once)
#   group_bynodeid/...      a group of bynodeid events, one per HN-F (<= 4)
#   mc_bytes_unit           perf prints the list's unit for mc_bytes
#   twin_2x2_nodeid/...     the nodes upstream arm-cmn misplaces (see
#                           20-armcmn-crosscheck.sh), counted exactly
#   twin_multidtc_bynodeid  bynodeid on an HN-F on a DTC n>0 XP, exactly
# Every count must be exact and unscaled: a multiplexed count fails.
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish

m=0
while [ $m -lt "$(mesh_count)" ]; do
	P=$(lc_pmu $m)
	pre=
	[ $m -eq 0 ] || pre=mesh$m/
	if lc_pmu_wait "$P"; then
		pass "${pre}registered"
	else
		fail "${pre}registered" "no $P after modprobe: $(dmesg | grep -i cmn | tail -n 2)"
		m=$((m + 1))
		continue
	fi

	lc_set_rates $m
	hnfs=$(lc_hnfs $m)
	note "mesh $m ($P): HN-Fs:" $hnfs

	lc_all_aliases "${pre}alias" "$P" $m $N

	lc_per_node "${pre}bynodeid" "$P" $m $N slc_miss
	lc_per_node "${pre}bynodeid" "$P" $m $N pocq_occupancy_write
	lc_per_node "${pre}bynodeid" "$P" $m $N mc_bytes

	lc_wrap_check "${pre}wrap" "$P" $m slc_miss 1
	# shellcheck disable=SC2086 # word splitting wanted
	set -- $hnfs
	lc_wrap_check "${pre}wrap_node" "$P" $m slc_miss 1 "$1"
	lc_wrap_check "${pre}wrap_node" "$P" $m pocq_occupancy_read 15 "$1"

	# a group of up to three events, as many as the busiest XP can take
	per=$(lc_hnfs_per_xp_max $m)
	[ "$per" -ge 1 ] || per=1
	k=$((4 / per))
	[ $k -le 3 ] || k=3
	items=
	i=0
	for al in slc_miss sf_hit mc_reqs; do
		[ $i -lt $k ] || break
		items="$items $P/$al/|$al|*"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	LC_GROUP=1 lc_batch_check "${pre}group" "$P" $m $N $items
	# a group of bynodeid events, one per HN-F (at most 4)
	items=
	i=0
	for n in $hnfs; do
		[ $i -lt 4 ] || break
		items="$items $P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	LC_GROUP=1 lc_batch_check "${pre}group_bynodeid" "$P" $m $N $items

	# mc_bytes: scaled (checked above) and perf shows the list's unit
	lc_perf_step "$LC_TMP/u.csv" 1000 "$P/mc_bytes/"
	unit=$(lc_counts "$LC_TMP/u.csv" | head -n 1 | cut -d' ' -f2)
	check_eq "${pre}mc_bytes_unit" "$unit" "$(lc_list hnf $m | awk '$1 == "mc_bytes" { print $5 }')"

	# the cases upstream arm-cmn gets wrong, counted exactly here: its
	# formula, fls((x - 1) | (y - 1)), whatever the kernel and whatever
	# an arm-cmn loaded earlier in this boot printed
	twins=$(LC_ARMCMN_BITS=$(lc_fls $(( ($(lc_info $m x) - 1) | ($(lc_info $m y) - 1) ))) \
		lc_armcmn_misplaced $m | tr '\n' ' ')
	for n in $twins; do
		lc_batch_check "${pre}twin_2x2_nodeid" "$P" $m $N "$P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
	done
	if [ -n "$twins" ]; then
		lc_batch_check "${pre}twin_2x2_nodeid" "$P" $m $N "$P/slc_miss/|slc_miss|*"
	fi
	for n in $(lc_on_dtc_xp $m); do
		lc_batch_check "${pre}twin_multidtc_bynodeid" "$P" $m $N "$P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
	done
	m=$((m + 1))
done

rmmod arm_cmn_hnf 2>/dev/null
finish
