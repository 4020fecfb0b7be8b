#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# results: 5
# names: model_load modprobe_by_alias rmmod_busy count_across_rmmod_attempt rmmod_after
#
# Module lifetime:
#   modprobe_by_alias   modprobe of the platform device's modalias loads
#                       arm_cmn_hnf (installed under updates/) and binds it
#   rmmod_busy          delete_module() is refused while a perf event is open
#                       (the event holds a module reference) and the open
#                       event keeps counting exactly
#   rmmod_after         once the event is closed, rmmod succeeds and the PMU
#                       is gone
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=$(lc_pmu 0)

check model_load model_load || finish

dev=
for d in /sys/bus/platform/devices/*; do
	case $(cat "$d/modalias" 2>/dev/null) in
	*arm,cmn-600*|*ARMHC600*) dev=$d; break ;;
	esac
done
if [ -z "$dev" ]; then
	fail modprobe_by_alias "no platform device with an arm,cmn-600/ARMHC600 modalias"
	finish
fi
alias=$(cat "$dev/modalias")
note "device $dev modalias $alias"
modprobe "$alias"
drv=$(basename "$(readlink "$dev/driver" 2>/dev/null)" 2>/dev/null)
note "after modprobe by alias: modules: $(grep -E '^arm_cmn' /proc/modules | cut -d' ' -f1 | tr '\n' ' ') driver: $drv"
if grep -q '^arm_cmn_hnf ' /proc/modules && lc_pmu_wait $P; then
	pass modprobe_by_alias
else
	fail modprobe_by_alias "arm_cmn_hnf not loaded/bound by '$alias' (bound: '$drv')"
	finish
fi
lc_set_rates 0

# rmmod while an event is open (perf holds the fd during the workload)
lc_snap 0 "$LC_TMP/r0"
perf stat -x, -a -o "$LC_TMP/busy.csv" -e $P/slc_miss/ -- sh -c "
	echo $N > $LC_M/step
	cmn-perf rmmod arm_cmn_hnf > $LC_TMP/rm1
	echo $N > $LC_M/step
" > "$LC_TMP/busy.out" 2>&1
lc_snap 0 "$LC_TMP/r1"
r=$(cat "$LC_TMP/rm1")
case $r in
EBUSY|EAGAIN) pass rmmod_busy; note "delete_module while open: $r" ;;
*) fail rmmod_busy "delete_module while an event is open: '$r' (want EBUSY/EAGAIN)" ;;
esac
got=$(lc_count1 "$LC_TMP/busy.csv")
want=$(( $(cmn-perf truth -f "$LC_TMP/r1" 1 all) - $(cmn-perf truth -f "$LC_TMP/r0" 1 all) ))
if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
	pass count_across_rmmod_attempt
else
	fail count_across_rmmod_attempt "count '$got', truth $want"
fi

r=$(cmn-perf rmmod arm_cmn_hnf)
if [ "$r" = OK ] && ! grep -q '^arm_cmn_hnf ' /proc/modules && ! pmu_exists $P; then
	pass rmmod_after
else
	fail rmmod_after "rmmod after close: '$r'; PMU still there: $(pmu_exists $P && echo yes || echo no)"
fi
grep -q '^arm_cmn ' /proc/modules && rmmod arm_cmn
finish
