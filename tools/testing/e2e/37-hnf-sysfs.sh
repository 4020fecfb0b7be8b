#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc
# timeout: 300
#
# The driver's sysfs ABI and probe behaviour: the one-line message when the
# stock arm-cmn already owns the device; format/ strings as documented in
# Documentation/internals.rst; event aliases, .scale files; mesh, dtcs and
# the hnfs topology table against the model's description; cpumask; the
# PMU's parent device (6.5+); a few event_init errnos; unload and reload.
. /e2e/lib.sh
. /e2e/lib-counts.sh
P=arm_cmn_hnf_0
D=/sys/bus/event_source/devices/$P
check model_load model_load || finish
# arm-cmn first: it must own the device, and we must say so
modprobe arm-cmn 2>/dev/null
if pmu_exists arm_cmn_0; then
	modprobe arm_cmn_hnf
	n=$(dmesg | grep -c 'is owned by arm-cmn; rmmod arm_cmn')
	check_eq owner_msg "$n" 1
	dmesg | grep 'owned by' | sed 's/^/# /'
	rmmod arm_cmn_hnf; rmmod arm_cmn
else
	fail owner_msg "arm_cmn did not bind"
	rmmod arm_cmn 2>/dev/null
fi
check modprobe modprobe arm_cmn_hnf || finish
lc_pmu_wait $P || { fail registered "no $P"; finish; }
dmesg | grep -i 'arm_cmn_hnf\|cmn-hnf\|7c000000.cmn\|ARMHC600' | sed 's/^/# /'
check_eq fmt_eventid "$(cat $D/format/eventid)" config:0-7
check_eq fmt_occupid "$(cat $D/format/occupid)" config:8-11
check_eq fmt_bynodeid "$(cat $D/format/bynodeid)" config:12
check_eq fmt_nodeid "$(cat $D/format/nodeid)" config:16-31
check_eq fmt_type "$(cat $D/format/type)" config:32-35
check_eq ev_slc_miss "$(cat $D/events/slc_miss)" eventid=0x01
check_eq ev_occ_write "$(cat $D/events/pocq_occupancy_write)" eventid=0x0f,occupid=0x2
check_eq ev_dtc_cycles "$(cat $D/events/dtc_cycles)" type=0x3
check_eq ev_mc_bytes_scale "$(cat $D/events/mc_bytes.scale)" 64
check_eq ev_no_scale "$(test -e $D/events/slc_miss.scale && echo yes || echo no)" no
rev=$(model_info 0 rev)
note "model rev '$rev' identifier $(cat $D/identifier)"
check_eq mesh "$(cat $D/mesh)" "$(model_info 0 x) $(model_info 0 y)"
check_eq dtcs "$(cat $D/dtcs)" "$(model_info 0 dtcs)"
check_eq hnfs_lines "$(($(wc -l < $D/hnfs) - 1))" "$(model_info 0 hnfs)"
cat $D/hnfs | sed 's/^/# /'
for n in $(lc_hnfs 0); do
	grep -q " $(printf '0x%04x' $n) " $D/hnfs && pass "hnfs_has_$n" || fail "hnfs_has_$n" "missing"
done
c=$(cat $D/cpumask)
case $c in
*[!0-9]* | '') fail cpumask "not one CPU: '$c'" ;;
*) check_eq cpumask_online "$(cat /sys/devices/system/cpu/cpu$c/online 2>/dev/null || echo 1)" 1 ;;
esac
case $(uname -r) in
[1-5].* | 6.[0-4].*) note "no struct pmu.parent before 6.5: no parent device" ;;
*) check_eq parent "$(basename "$(readlink -f $D/..)" | grep -c 'cmn\|ARMHC600')" 1 ;;
esac
readlink -f $D | sed 's/^/# path /'
# errnos
check_eq e_sampling "$(cmn-perf open -P 1000 $P:1)" "EOPNOTSUPP 0"
check_eq e_task "$(cmn-perf open -p $$ -c -1 $P:1)" "EINVAL 0"
check_eq e_exclude "$(cmn-perf open -x user $P:1)" "EINVAL 0"
check_eq e_eventid0 "$(cmn-perf open $P:0)" "EINVAL 0"
check_eq e_eventid20 "$(cmn-perf open $P:0x20)" "EINVAL 0"
check_eq e_occ_other "$(cmn-perf open $P:0x201)" "EINVAL 0"
check_eq e_occ5 "$(cmn-perf open $P:0x50f)" "EINVAL 0"
check_eq e_notnode "$(cmn-perf open $P:0x1001)" "EINVAL 0"
check_eq e_type7 "$(cmn-perf open $P:0x700000001)" "EINVAL 0"
check_eq ok_cycles "$(cmn-perf open $P:0x300000000)" OK
check_eq e_2cycles "$(cmn-perf open -g $P:0x300000000 $P:0x300000000)" "EINVAL 1"
check_eq ok_sw_group "$(cmn-perf open -g sw:0 $P:1)" OK
check_eq ok_sw_sib "$(cmn-perf open -g $P:1 sw:0)" OK
hw=$(cmn-perf open hw:0)
note "hw:0 alone: $hw"
[ "$hw" = OK ] && check_eq e_hw_group "$(cmn-perf open -g hw:0 $P:1)" "EINVAL 1"
evs=
for i in 1 2 3 4 5 6 7 8 9; do evs="$evs $P:$i"; done
# 9 single events: all open (what does not fit multiplexes)
# shellcheck disable=SC2086
check_eq ok_nine "$(cmn-perf open $evs)" OK
# another instance's event in the group
if pmu_exists arm_cmn_hnf_1; then
	check_eq e_other_mesh "$(cmn-perf open -g $P:1 arm_cmn_hnf_1:1)" "EINVAL 1"
fi
check rmmod rmmod arm_cmn_hnf
check_eq gone "$(pmu_exists $P && echo yes || echo no)" no
check reload modprobe arm_cmn_hnf
lc_pmu_wait $P && pass reregistered || fail reregistered "no $P"
rmmod arm_cmn_hnf
finish
