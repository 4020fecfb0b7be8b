#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc 8x8-32hnf-4dtc
# timeout: 400
# results: 18 + 3 * hnfs
#
# Per-HN-F counting in DTM-local counters, and the driver's own rules
# (Documentation/internals.rst, "Where an event counts"):
#   per_hnf/<alias>@<id>      slc_miss and slc_access with bynodeid=1 on every
#                             HN-F in one perf run (one per round of at most
#                             one HN-F per XP): every event at 100%
#                             running, every count exact (arm-cmn: 8 global
#                             counters for all of them)
#   per_hnf_occupancy/...     pocq_occupancy_write on every HN-F (64-bit
#                             counters), exact and at 100%
#   four_on_one/<alias>@<id>  four events on one HN-F in one run: 64 then
#                             32-bit counters make room by moving to global
#                             counters, all exact and at 100%
#   local32_wrap              two events on one HN-F (both 32-bit counters)
#                             over more than 2^32 events, stepped below 2^31
#                             events at a time with pauses of 3.5 poll
#                             periods: exact only if the poll timer read the
#                             counters between the steps
#   local_across_offline      the same two counters while the PMU's CPU goes
#                             offline between two steps: exact
#   local32_late              the same two counters, one step of 4.5e9
#                             events (beyond 2^32) with no poll in it, as
#                             when the poll timer runs late (a stalled vCPU,
#                             long irq-off sections): the wrap no read saw is
#                             found from the DTC cycle counter and counted
#                             from the event's rate, exact at a steady rate
#   pmu_en_idle, pmu_en_counting, pmu_en_after
#                             PMCR.pmu_en of the DTCs, by its effect: their
#                             cycle counters do not run (no overflow
#                             interrupt in 2^41 cycles) after probe, run while
#                             an event is open, stop after the last one closed
#   config_zero, config1, config2
#                             a non-zero config1 or config2: EINVAL, both
#                             zero: accepted (cmn-drv open)
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=$(lc_pmu 0)
POLL_MS=100

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
lc_pmu_wait $P || { fail registered "no $P"; finish; }
lc_set_rates 0
hnfs=$(lc_hnfs 0)
# shellcheck disable=SC2086 # word splitting wanted
set -- $hnfs
first=$1

# ---- PMCR.pmu_en, by its effect ---------------------------------------------
# (The registers cannot be read from here: the driver owns the region.) A
# DTC's 40-bit cycle counter runs only while dt_en and pmu_en are set, and
# its wrap raises an overflow interrupt, which the model counts. 2^41
# cycles wrap it at least once: no interrupt means pmu_en was clear.
BIG=2199023255552
irqs0=$(model_irqs 0)
lc_step $BIG
irqs1=$(model_irqs 0)
check_eq pmu_en_idle "$((irqs1 - irqs0))" 0
cmn-drv hold $P 0x1 0 "echo $BIG > $LC_M/step" > "$LC_TMP/en.out" 2>&1
irqs2=$(model_irqs 0)
if [ $((irqs2 - irqs1)) -gt 0 ]; then
	pass pmu_en_counting
else
	fail pmu_en_counting "no overflow interrupt in 2^41 cycles with an event open: $(cat "$LC_TMP/en.out")"
fi
lc_step $BIG
check_eq pmu_en_after "$(($(model_irqs 0) - irqs2))" 0

# ---- config1 / config2 ------------------------------------------------------
check_eq config_zero "$(cmn-drv open $P 0x1 0 0)" OK
check_eq config1 "$(cmn-drv open $P 0x1 1 0)" EINVAL
check_eq config2 "$(cmn-drv open $P 0x1 0 0x8000000000000000)" EINVAL

# ---- per-HN-F views ---------------------------------------------------------
# A DTM has four 16-bit local counters: two 32-bit pairs or one 64-bit
# counter. So the per-HN-F views run in rounds with at most one HN-F per XP
# (lc_xp_of): round k takes the k-th HN-F of every XP. On a mesh with one
# HN-F per XP that is a single run of every HN-F at once.
rounds=0
seen=
for n in $hnfs; do
	xp=$(lc_xp_of 0 "$n" | tr ' ' ,)
	k=0
	for s in $seen; do
		[ "$s" = "$xp" ] && k=$((k + 1))
	done
	seen="$seen $xp"
	eval "round$k=\"\${round$k-} $n\""
	[ $k -lt $rounds ] || rounds=$((k + 1))
done
note "per-HN-F views in $rounds round(s) (most HN-Fs on one XP)"
k=0
while [ $k -lt $rounds ]; do
	ns=
	eval "ns=\$round$k"
	items=
	for n in $ns; do
		items="$items $P/slc_miss,bynodeid=1,nodeid=$n/|slc_miss|$n"
		items="$items $P/slc_access,bynodeid=1,nodeid=$n/|slc_access|$n"
	done
	# shellcheck disable=SC2086 # word splitting wanted
	lc_batch_check per_hnf $P 0 $N $items

	items=
	for n in $ns; do
		items="$items $P/pocq_occupancy_write,bynodeid=1,nodeid=$n/|pocq_occupancy_write|$n"
	done
	# shellcheck disable=SC2086 # word splitting wanted
	lc_batch_check per_hnf_occupancy $P 0 $N $items
	k=$((k + 1))
done

items=
for al in slc_miss slc_access mc_reqs sf_hit; do
	items="$items $P/$al,bynodeid=1,nodeid=$first/|$al|$first"
done
# shellcheck disable=SC2086 # word splitting wanted
lc_batch_check four_on_one $P 0 $N $items

# ---- 32-bit local counters and the poll timer -------------------------------
# 4 events per cycle on one HN-F: 3 steps of 1.5e9 events (below 2^31 each,
# 4.5e9 in all, beyond 2^32), 3.5 poll periods apart.
lc_rate 0 "node=$first event=1 rate=4000"
lc_rate 0 "node=$first event=2 rate=4000"
S=375000000
pause=$(awk -v p=$POLL_MS 'BEGIN { printf "%.2f", 3.5 * p / 1000 }')
ev="-e $P/slc_miss,bynodeid=1,nodeid=$first/ -e $P/slc_access,bynodeid=1,nodeid=$first/"

# wrap_run NAME SCRIPT: count both events around SCRIPT, compare with truth
wrap_run() {
	local name=$1 script=$2 i got want
	lc_snap 0 "$LC_TMP/w0"
	# shellcheck disable=SC2086 # word splitting wanted
	perf stat -x, -a -o "$LC_TMP/w.csv" $ev -- sh -c "$script" > "$LC_TMP/w.out" 2>&1
	lc_snap 0 "$LC_TMP/w1"
	lc_counts "$LC_TMP/w.csv" > "$LC_TMP/w.counts"
	i=0
	for e in 1 2; do
		i=$((i + 1))
		# shellcheck disable=SC2046 # word splitting wanted
		set -- $(sed -n "${i}p" "$LC_TMP/w.counts")
		got=${1:-NA}
		want=$(lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/w1" $e all "$first")" \
			"$(cmn-perf truth -f "$LC_TMP/w0" $e all "$first")")
		if [ "$(lc_u64 cmp "$want" 4294967296)" != gt ]; then
			fail "$name" "truth $want: not beyond 2^32, test is void"
		elif [ "$got" = "$want" ] && [ "${3:-}" = 100.00 ]; then
			pass "$name/$e"
		else
			fail "$name/$e" "count $got (${3:-?}%), truth $want (diff $(lc_u64 sub "$got" "$want") mod 2^64)"
		fi
	done
}

wrap_run local32_wrap "
	echo $S > $LC_M/step; sleep $pause
	echo $S > $LC_M/step; sleep $pause
	echo $S > $LC_M/step; sleep $pause"

# A poll late by more than a 32-bit counter's period: one step of 3 S
# cycles (4.5e9 events, one wrap more than a read can see) between two
# polls, after a step that shows the rate.
wrap_run local32_late "
	echo $S > $LC_M/step; sleep $pause
	echo $((3 * S)) > $LC_M/step; sleep $pause
	echo $S > $LC_M/step; sleep $pause"

cpu=$(lc_pmu_cpu $P)
if [ -w /sys/devices/system/cpu/cpu$cpu/online ]; then
	wrap_run local_across_offline "
		echo $S > $LC_M/step; sleep $pause
		echo $S > $LC_M/step; sleep $pause
		echo 0 > /sys/devices/system/cpu/cpu$cpu/online; sleep $pause
		echo $S > $LC_M/step; sleep $pause"
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
else
	fail local_across_offline "cpu$cpu cannot be offlined"
fi

rmmod arm_cmn_hnf 2>/dev/null
finish
