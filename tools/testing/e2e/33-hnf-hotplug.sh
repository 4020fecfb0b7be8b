#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# results: 8 + min(2, 4 // max(1, hnf_xp_max))
# names: model_load modprobe_arm_cmn_hnf registered cpumask_moved
# names: count_across_offline_1 after_online/slc_miss
# names: misplaced/hook misplaced/not_counted misplaced/others_exact
# names: count_across_offline_13 if 4 // max(1, hnf_xp_max) >= 2
#
# CPU hotplug: while counters are open (perf stat around the workload), the
# CPU in the PMU's cpumask goes offline between two steps. The cpumask must
# move to an online CPU and the final counts must still equal the truth of
# both steps, unscaled (perf must not have multiplexed: as many aggregated
# events as the busiest XP of mesh 0 can count at once, at most two). Then
# the CPU comes back and counting still works.
#   registered, cpumask_moved, count_across_offline_<eventid>, after_online
# Then an event that lands on a CPU which no longer owns the PMU: hotplug
# moved the PMU between the event's event_init (which set event->cpu to
# the owner of then) and perf's install of it on event->cpu. That window
# is microseconds wide; the model's misplace hook (a test hook, not
# hardware: Documentation/cmn600-model.rst) opens it, moving the next
# event whose event_init succeeds to the other CPU. Counting there would
# race the owner's interrupt handler and reads, so the driver refuses to
# add it there, and perf reports it not counted.
#   misplaced/hook          the hook moved exactly one event
#   misplaced/not_counted   that event (slc_miss, the first cmn-hostile
#                           opens) never ran: count 0, running time 0
#                           (perf stat prints <not counted>)
#   misplaced/others_exact  mc_reqs, opened after it, counts the truth of
#                           the step, unscaled
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=$(lc_pmu 0)

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
if lc_pmu_wait "$P"; then
	pass registered
else
	fail registered "no $P"
	finish
fi
lc_set_rates 0

# the aggregated events that fit at once: slc_miss (0x01), mc_reqs (0x0d)
per=$(lc_hnfs_per_xp_max 0)
[ "$per" -ge 1 ] || per=1
k=$((4 / per))
[ $k -le 2 ] || k=2
evs="1"
[ $k -lt 2 ] || evs="1 13"
args=
for ev in $evs; do
	case $ev in 1) args="$args -e $P/slc_miss/" ;; 13) args="$args -e $P/mc_reqs/" ;; esac
done
note "$per HN-F(s) on the busiest XP: $k aggregated event(s) at once"

cpu=$(lc_pmu_cpu "$P")
note "PMU CPU before: $cpu"
lc_snap 0 "$LC_TMP/h0"
# shellcheck disable=SC2086 # word splitting wanted
perf stat -x, -a -o "$LC_TMP/hp.csv" $args -- sh -c "
	echo $N > $LC_M/step
	echo 0 > /sys/devices/system/cpu/cpu$cpu/online
	cat $LC_PMUS/$P/cpumask > $LC_TMP/mask
	echo $N > $LC_M/step
" > "$LC_TMP/hp.out" 2>&1
prc=$?
lc_snap 0 "$LC_TMP/h1"
newcpu=$(cut -d, -f1 < "$LC_TMP/mask" | cut -d- -f1)
note "PMU CPU after offlining cpu$cpu: $newcpu"
if lc_cpu_online "$cpu"; then
	fail cpumask_moved "cpu$cpu did not go offline"
elif [ -n "$newcpu" ] && [ "$newcpu" != "$cpu" ] && lc_cpu_online "$newcpu"; then
	pass cpumask_moved
else
	fail cpumask_moved "cpumask '$newcpu' after cpu$cpu went offline (online: $(cat /sys/devices/system/cpu/online))"
fi
lc_counts "$LC_TMP/hp.csv" > "$LC_TMP/hp.counts"
i=0
for ev in $evs; do
	i=$((i + 1))
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(sed -n "${i}p" "$LC_TMP/hp.counts")
	got=${1:-NA} pct=${3:--}
	want=$(( $(cmn-perf truth -f "$LC_TMP/h1" "$ev" all) - $(cmn-perf truth -f "$LC_TMP/h0" "$ev" all) ))
	case $pct in 100.00 | -) ;; *)
		fail "count_across_offline_$ev" "multiplexed ($pct%): count $got"
		continue ;;
	esac
	if [ $prc -eq 0 ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		pass "count_across_offline_$ev"
	else
		fail "count_across_offline_$ev" "perf rc=$prc count '$got', truth $want"
	fi
done

echo 1 > "/sys/devices/system/cpu/cpu$cpu/online"
lc_batch_check after_online "$P" 0 $N "$P/slc_miss/|slc_miss|*"

owner=$(lc_pmu_cpu "$P")
other=$(lc_other_cpu "$owner")
n0=$(sed -n 's/^misplaced //p' "$CMN_DBG/misplace")
if [ -z "$other" ] || ! echo "cmn_hnf_event_init $other" > "$CMN_DBG/misplace"; then
	fail misplaced/hook "cannot arm the hook (owner cpu$owner, other '${other:-none}'): $(dmesg | tail -n 1)"
	fail misplaced/not_counted "no hook"
	fail misplaced/others_exact "no hook"
	finish
fi
lc_snap 0 "$LC_TMP/m0"
cmn-hostile run "$P:1" "$P:13" -- "echo $N > $LC_M/step" > "$LC_TMP/mp.out" 2>&1
prc=$?
lc_snap 0 "$LC_TMP/m1"
st=$(head -n 1 "$CMN_DBG/misplace")
n1=$(sed -n 's/^misplaced //p' "$CMN_DBG/misplace")
last=$(sed -n 's/^last //p' "$CMN_DBG/misplace")
echo off > "$CMN_DBG/misplace"
note "PMU on cpu$owner, slc_miss moved to cpu$other ($last): $(tr '\n' ' ' < "$LC_TMP/mp.out")"
if [ "$st" = idle ] && [ $((n1 - n0)) -eq 1 ]; then
	pass misplaced/hook
else
	fail misplaced/hook "hook '$st', moved $((n1 - n0)) event(s), want 1"
fi
# shellcheck disable=SC2046 # word splitting wanted
set -- $(sed -n 1p "$LC_TMP/mp.out")
if [ $prc -eq 0 ] && [ "${1:-x}" = 0 ] && [ "${3:-x}" = 0 ] && [ "${2:-0}" -gt 0 ]; then
	pass misplaced/not_counted
else
	fail misplaced/not_counted "rc=$prc: count '${1:-}', ran ${3:-?} of ${2:-?} ns on cpu$other, which does not own the PMU"
fi
# shellcheck disable=SC2046 # word splitting wanted
set -- $(sed -n 2p "$LC_TMP/mp.out")
want=$(( $(cmn-perf truth -f "$LC_TMP/m1" 13 all) - $(cmn-perf truth -f "$LC_TMP/m0" 13 all) ))
if [ $prc -eq 0 ] && [ "$want" -gt 0 ] && [ "${1:-x}" = "$want" ] && [ "${2:-0}" = "${3:-x}" ]; then
	pass misplaced/others_exact
else
	fail misplaced/others_exact "rc=$prc count '${1:-}', ran ${3:-?} of ${2:-?} ns, truth $want"
fi
rmmod arm_cmn_hnf 2>/dev/null
finish
