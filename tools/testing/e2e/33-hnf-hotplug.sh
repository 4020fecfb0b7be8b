#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
#
# CPU hotplug: while a counter is open (perf stat around the workload), the
# CPU in the PMU's cpumask goes offline between two steps. The cpumask must
# move to an online CPU and the final count must still equal the truth of
# both steps. Then the CPU comes back and counting still works.
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=arm_cmn_hnf_0

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
lc_pmu_wait $P || { fail registered "no $P"; finish; }
lc_set_rates 0

cpu=$(lc_pmu_cpu $P)
note "PMU CPU before: $cpu"
if [ ! -w /sys/devices/system/cpu/cpu$cpu/online ]; then
	fail hotplug "cpu$cpu has no online file: cannot be offlined"
	finish
fi
lc_snap 0 "$LC_TMP/h0"
perf stat -x, -a -o "$LC_TMP/hp.csv" -e $P/slc_miss/ -e $P/mc_reqs/ -- sh -c "
	echo $N > $LC_M/step
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	cat $LC_PMUS/$P/cpumask > $LC_TMP/mask
	echo $N > $LC_M/step
" > "$LC_TMP/hp.out" 2>&1
prc=$?
lc_snap 0 "$LC_TMP/h1"
newcpu=$(cut -d, -f1 < "$LC_TMP/mask" | cut -d- -f1)
note "PMU CPU after offlining cpu$cpu: $newcpu"
if [ -n "$newcpu" ] && [ "$newcpu" != "$cpu" ] &&
   [ "$(cat /sys/devices/system/cpu/cpu$newcpu/online 2>/dev/null || echo 1)" = 1 ]; then
	pass cpumask_moved
else
	fail cpumask_moved "cpumask '$newcpu' after cpu$cpu went offline"
fi
lc_counts "$LC_TMP/hp.csv" > "$LC_TMP/hp.counts"
i=0
for ev in 1 13; do
	i=$((i + 1))
	got=$(sed -n "${i}p" "$LC_TMP/hp.counts" | cut -d' ' -f1)
	want=$(( $(cmn-perf truth -f "$LC_TMP/h1" $ev all) - $(cmn-perf truth -f "$LC_TMP/h0" $ev all) ))
	if [ $prc -eq 0 ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		pass "count_across_offline_$ev"
	else
		fail "count_across_offline_$ev" "perf rc=$prc count '$got', truth $want"
	fi
done

echo 1 > /sys/devices/system/cpu/cpu$cpu/online
lc_batch_check after_online $P 0 $N "$P/slc_miss/|slc_miss|*"
rmmod arm_cmn_hnf 2>/dev/null
finish
