#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 1x1 2x2 3x3 4x2-2dtc 8x8-32hnf-4dtc
# timeout: 600
#
# arm_cmn_hnf counts exactly what the model produced:
#   alias/<name>            every alias of arm_cmn_hnf_0, aggregated over all
#                           HN-Fs, one step with 16-bit local wraps (mc_bytes
#                           with its .scale, dtc_cycles == cycles stepped)
#   bynodeid/<name>@<id>    bynodeid=1 on every HN-F
#   wrap/... wrap_node/...  ~1.5 * 2^47 events in one step (beyond 2^32 and
#                           beyond one 32-bit global counter wrap)
#   group/...               a group {a,b,c} (as many as one XP can count)
#   mc_bytes_unit           the scaled event reports its unit
#   twin_2x2_nodeid/...     the nodes upstream arm-cmn misplaces (see
#                           20-armcmn-crosscheck.sh), counted exactly
#   twin_multidtc_bynodeid  bynodeid on an HN-F on a DTC n>0 XP, exactly
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=arm_cmn_hnf_0

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
if lc_pmu_wait $P; then
	pass registered
else
	fail registered "no $P after modprobe: $(dmesg | grep -i cmn | tail -n 2)"
	finish
fi

lc_set_rates 0
hnfs=$(lc_hnfs 0)
note "HN-Fs:" $hnfs

lc_all_aliases alias $P 0 $N

lc_per_node bynodeid $P 0 $N slc_miss
lc_per_node bynodeid $P 0 $N pocq_occupancy_write
lc_per_node bynodeid $P 0 $N mc_bytes

lc_wrap_check wrap $P 0 slc_miss 1
set -- $hnfs
lc_wrap_check wrap_node $P 0 slc_miss 1 "$1"
lc_wrap_check wrap_node $P 0 pocq_occupancy_read 15 "$1"

# a group of up to three events, as many as the busiest XP can take
per=$(lc_hnfs_per_xp_max 0)
k=$((4 / per))
[ $k -le 3 ] || k=3
g="$P/slc_miss/|slc_miss|* $P/sf_hit/|sf_hit|* $P/mc_reqs/|mc_reqs|*"
# shellcheck disable=SC2086
set -- $g
items=
i=0
for it in "$@"; do
	[ $i -lt $k ] || break
	items="$items $it"
	i=$((i + 1))
done
# shellcheck disable=SC2086
LC_GROUP=1 lc_batch_check group $P 0 $N $items
# a group of bynodeid events, one per HN-F (at most 4)
items=
i=0
for n in $hnfs; do
	[ $i -lt 4 ] || break
	items="$items $P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
	i=$((i + 1))
done
# shellcheck disable=SC2086
LC_GROUP=1 lc_batch_check group_bynodeid $P 0 $N $items

# mc_bytes: scaled (checked above) and its unit is shown
lc_perf_step "$LC_TMP/u.csv" 1000 "$P/mc_bytes/"
unit=$(lc_counts "$LC_TMP/u.csv" | head -n 1 | cut -d' ' -f2)
check_eq mc_bytes_unit "$unit" "$(cat "$LC_PMUS/$P/events/mc_bytes.unit")"

# the cases upstream arm-cmn gets wrong, counted exactly here
# (arm-cmn is not loaded here: its formula, fls((x - 1) | (y - 1)))
twins=$(lc_armcmn_misplaced 0 | tr '\n' ' ')
for n in $twins; do
	lc_batch_check twin_2x2_nodeid $P 0 $N "$P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
done
if [ -n "$twins" ]; then
	lc_batch_check twin_2x2_nodeid $P 0 $N "$P/slc_miss/|slc_miss|*"
fi
for n in $(lc_on_dtc_xp 0); do
	lc_batch_check twin_multidtc_bynodeid $P 0 $N "$P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
done

rmmod arm_cmn_hnf 2>/dev/null
finish
