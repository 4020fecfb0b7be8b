#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# results: 50
# names: model_load modprobe_arm_cmn_hnf registered group_sw_sibling_count
# names: perfcore_foreign_type perfcore_foreign_type_then_counts sampling sampling_then_counts perfcore_per_task perfcore_per_task_then_counts
# names: perfcore_cpu_negative perfcore_cpu_negative_then_counts perfcore_exclude_user perfcore_exclude_user_then_counts perfcore_exclude_kernel perfcore_exclude_kernel_then_counts
# names: perfcore_exclude_hv perfcore_exclude_hv_then_counts perfcore_exclude_idle perfcore_exclude_idle_then_counts perfcore_exclude_host perfcore_exclude_host_then_counts
# names: perfcore_exclude_guest perfcore_exclude_guest_then_counts eventid_0 eventid_0_then_counts eventid_0x20 eventid_0x20_then_counts
# names: occupid_5 occupid_5_then_counts occupid_non_occupancy occupid_non_occupancy_then_counts type_7 type_7_then_counts
# names: nodeid_dtc nodeid_dtc_then_counts nodeid_unused nodeid_unused_then_counts nodeid_without_bynodeid nodeid_without_bynodeid_then_counts
# names: group_hw_leader group_hw_leader_then_counts group_hw_sibling group_hw_sibling_then_counts group_sw_sibling group_sw_sibling_then_counts
# names: group_sw_leader group_sw_leader_then_counts group_impossible group_impossible_then_counts
#
# perf_event_open(2) error table of arm_cmn_hnf (mesh 0's PMU), called
# directly (cmn-perf open), and after every refused open the PMU still
# counts exactly (<case>_then_counts: the failure changed nothing).
# Enforced by the perf core itself (kept, labelled perfcore_: they pass
# whatever the driver does, as long as it does not break them):
#   perfcore_foreign_type     a type no PMU owns: ENOENT (every PMU, ours
#                             included, must say ENOENT)
#   perfcore_per_task         pid 0, cpu -1: EINVAL (uncore PMU, no task
#                             context)
#   perfcore_cpu_negative     pid -1, cpu -1: EINVAL
#   perfcore_exclude_<bit>    any exclude_* bit: EINVAL (the core checks it
#                             for a PMU with PERF_PMU_CAP_NO_EXCLUDE)
# Owned by the driver:
#   sampling                  sample_period != 0: EOPNOTSUPP
#   eventid_0, eventid_0x20, occupid_5, type_7   outside the ABI: EINVAL
#   occupid_non_occupancy     occupid on an event other than 0x0f: EINVAL
#   nodeid_dtc, nodeid_unused nodeid of no HN-F (the DTC's, an unused one)
#                             with bynodeid: EINVAL
#   nodeid_without_bynodeid   an HN-F's nodeid, bynodeid=0: EINVAL
#   group_hw_leader     a hardware (armv8 cycles) leader with our sibling:
#                       EINVAL; group_hw_sibling the other way round
#   group_sw_sibling    a software sibling: accepted, and counts exactly
#   group_sw_leader     a software leader: accepted
#   group_impossible    five events on one HN-F (4 DTM counters, 4 slots):
#                       EINVAL
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
N=100000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
if lc_pmu_wait "$P"; then
	pass registered
else
	fail registered "no $P"
	finish
fi
lc_set_rates 0
C=$(lc_pmu_cpu $P)

# still_counts NAME: slc_miss over one step equals the truth delta
still_counts() {
	local t0 t1 got
	t0=$(lc_truth 0 1 all)
	got=$(cmn-perf run $P:0x1 -- "echo $N > $LC_M/step" | cut -d' ' -f1)
	t1=$(lc_truth 0 1 all)
	if [ "$got" = "$((t1 - t0))" ] && [ "$got" -gt 0 ]; then
		pass "$1_then_counts"
	else
		fail "$1_then_counts" "count '$got', truth $((t1 - t0))"
	fi
}

# expect NAME WANT CMN-PERF-OPEN-ARGS...: WANT is "OK" or "ERRNO INDEX"
expect() {
	local name=$1 want=$2 got
	shift 2
	got=$(cmn-perf open "$@" 2>&1)
	check_eq "$name" "$got" "$want"
	still_counts "$name"
}

maxtype=0
for f in "$LC_PMUS"/*/type; do
	t=$(cat "$f")
	[ "$t" -gt $maxtype ] && maxtype=$t
done
expect perfcore_foreign_type "ENOENT 0" -c "$C" $((maxtype + 50)):0x1
expect sampling "EOPNOTSUPP 0" -P 1000 $P:0x1
expect perfcore_per_task "EINVAL 0" -p 0 -c -1 $P:0x1
expect perfcore_cpu_negative "EINVAL 0" -p -1 -c -1 $P:0x1
for b in user kernel hv idle host guest; do
	expect "perfcore_exclude_$b" "EINVAL 0" -x $b $P:0x1
done
expect eventid_0 "EINVAL 0" $P:0x0
expect eventid_0x20 "EINVAL 0" $P:0x20
expect occupid_5 "EINVAL 0" $P:0x50f
expect occupid_non_occupancy "EINVAL 0" $P:0x101
expect type_7 "EINVAL 0" $P:0x700000001

hnfs=" $(lc_hnfs 0 | tr '\n' ' ') "
b=$(lc_coord_bits 0)
dtc=$(awk -v want=0 '/^[ \t]*#/ { next } $1 == "mesh" { m++; next }
	m == 1 && $1 == "node" && $2 == "dtc" { print $3, $4, $5, $6; exit }' /etc/cmn/mesh)
set -- $dtc
dtcid=$(lc_nodeid "$b" "$1" "$2" "$3" "$4")
# (a DTC and an HN-F never share a port and device, so never a node id)
expect nodeid_dtc "EINVAL 0" "$P:$(printf '0x%x' $(( 0x1001 | (dtcid << 16) )))"
unused=
for id in 7 3 15 0x1ff; do
	case $hnfs in *" $(printf '0x%x' $((id))) "*) continue ;; esac
	unused=$((id))
	break
done
expect nodeid_unused "EINVAL 0" "$P:$(printf '0x%x' $(( 0x1001 | (unused << 16) )))"
# an HN-F whose nodeid is not 0 (0 in the field is no nodeid at all: an
# HN-F at port 0 device 0 of XP (0,0) has it); 0x8 when there is none
nz=0x8
for id in $hnfs; do
	[ $((id)) -ne 0 ] && { nz=$id; break; }
done
expect nodeid_without_bynodeid "EINVAL 0" "$P:$(printf '0x%x' $(( 0x1 | (nz << 16) )))"

# groups
if cmn-perf open -c "$C" hw:0 > "$LC_TMP/hw" 2>&1; then
	expect group_hw_leader "EINVAL 1" -g -c "$C" hw:0 $P:0x1
	expect group_hw_sibling "EINVAL 1" -g -c "$C" $P:0x1 hw:0
else
	fail group_hw_leader "cannot open a hardware cycles event at all: $(cat "$LC_TMP/hw")"
fi
expect group_sw_sibling OK -g $P:0x1 sw:0
expect group_sw_leader OK -g -c "$C" sw:0 $P:0x1
# shellcheck disable=SC2046 # word splitting wanted
set -- $(lc_hnfs 0)
bn=$(( 0x1000 | ($1 << 16) ))
expect group_impossible "EINVAL 4" -g $P:$((bn | 1)) $P:$((bn | 2)) $P:$((bn | 3)) \
	$P:$((bn | 4)) $P:$((bn | 5))

# a software sibling does not disturb the count: group read is exact
t0=$(lc_truth 0 1 all)
out=$(cmn-perf run -g $P:0x1 sw:0 -- "echo $N > $LC_M/step")
t1=$(lc_truth 0 1 all)
got=$(echo "$out" | head -n 1 | cut -d' ' -f1)
check_eq group_sw_sibling_count "$got" "$((t1 - t0))"
rmmod arm_cmn_hnf 2>/dev/null
finish
