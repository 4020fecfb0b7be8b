#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# vcpus: parallel
# timeout: 300
# results: 15
# skip: churn/* if hnf_xp_min > 2
# names: model_load modprobe_arm_cmn_hnf race_mode churn/cpus churn/reads churn/monotonic
# names: churn/never_over churn/final_within churn/final_counted churn/opens/0 churn/opens/1
# names: churn/exact_after
# names: churn/no_report churn/settled churn/bracketed
#
# Three processes on two CPUs at once, in the model's race mode
# (Documentation/cmn600-model.rst, "Race mode": clock threads on every CPU
# move the counters, carries reach their global counters late): a reader
# on the PMU's CPU reads slc_miss of every HN-F in a tight loop
# (cmn-hostile race) while two churners, one pinned to each CPU, open,
# enable, read and close events of one HN-F (cmn-perf run) as fast as they
# can. Each open installs an event in the PMU's CPU context, which makes
# perf take every event of that context off the PMU and put it back (a
# del() and an add() of the reader's event, with carries in flight), and
# each close removes one.
#   race_mode           the model took "on near_wrap"
#   churn/cpus          the guest has CPUs 0 and 1 online
#   churn/reads         the reader made 100 reads or more while the model
#                       delivered 100 carries or more (not void)
#   churn/monotonic     no read of the reader below the one before
#   churn/never_over    no read above the truth sampled right after it
#   churn/final_within  after the clock stopped: the reader's count is
#                       within the truth of its run. Not equal: what the
#                       mesh makes while perf has the reader's event off
#                       the PMU (between a del() and the add() after it)
#                       no driver counts, and here that happens with every
#                       open and close of the churners
#   churn/final_counted ... and it equals exactly what the model's counters
#                       counted of slc_miss meanwhile (mesh0/counted: the
#                       reader's event is the only one counting that
#                       source): a carry in flight that a del() or an add()
#                       lost, or counted twice, shows here
#   churn/opens/<cpu>   the churner on CPU <cpu> completed 20 cycles or
#                       more, each a count line, and no error
#   churn/exact_after   then, clock manual, one step of the reader's event
#                       and dtc_cycles counts the truth exactly: nothing
#                       the churn did is left in the driver's state
#   churn/no_report     nothing in the kernel log since the churn started
#   churn/settled       carries were in flight when perf opened a bracket
#                       (race settled=, below): the case this test is
#                       about happened
#   churn/bracketed     the driver changed no DTM or HN-F configuration
#                       outside perf's brackets (race unbracketed=0): the
#                       model's rule below holds only for such a driver
#
# What the model may do here, and why. On silicon an event is in its
# counter a few cycles after it happened, and a carry reaches its DTC some
# tens of mesh cycles after the wrap that made it; one register read by a
# CPU, a round trip over the interconnect, takes longer. A driver's read
# samples a few registers, so it can fall between a wrap and its carry,
# and race mode stretches that lag (up to defer_us, 20 ms) so that it does
# in a guest whose register reads are memory reads. A baseline is
# different: perf calls add(), del(), start() and stop() only between
# perf_pmu_disable() and perf_pmu_enable(), and a driver's start() reads
# counters that stopped counting at least one register access earlier (the
# event's stop(), or nothing selected yet). A carry still in flight there,
# or events of before the bracket stored after it, would be late by more
# than all of that, which silicon cannot be. So when perf opens such a
# bracket the model brings the mesh up to the present, lands every carry
# in flight, and holds its race threads until the bracket closes
# (Documentation/cmn600-model.rst, "Race mode"). Before that rule the model
# held carries across brackets, and this test failed against a driver
# that counts exactly on silicon (e.g. a final 196623589 against 194861928
# counted).
# The churners' events are on an HN-F of the XP with the fewest HN-Fs, so
# that the reader (a counter per HN-F) and both churners fit in its DTM's
# four counters: on a mesh where every XP with an HN-F has three or more
# the churn cases SKIP.
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
SECS=${CHURN_SECS:-6}
MINREADS=400
MINOPS=20

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait "$P"; }; then
	fail modprobe_arm_cmn_hnf "no $P"
	finish
fi
pass modprobe_arm_cmn_hnf
lc_set_rates 0
# a slow clock, as in 41-hnf-race: carries are often late for long
echo 1 > "$LC_M/freq_mhz"
check race_mode sh -c "echo 'on near_wrap' > $LC_M/mesh0/race" || finish

# the HN-F n0 of an XP with the fewest HN-Fs (q0 of them)
# shellcheck disable=SC2046 # word splitting wanted
set -- $(lc_hnf_fewest 0)
q0=$1 n0=$2
if [ "$q0" -gt 2 ]; then
	for r in cpus reads monotonic never_over final_within final_counted opens/0 opens/1 exact_after no_report settled bracketed; do
		skip "churn/$r" "every XP with an HN-F has $q0 or more: no room for two more events beside one per HN-F"
	done
	finish
fi
if [ "$(cat /sys/devices/system/cpu/online)" = 0-1 ]; then
	pass churn/cpus
else
	fail churn/cpus "online CPUs: $(cat /sys/devices/system/cpu/online)"
fi
PCPU=$(lc_pmu_cpu "$P")
# one HN-F's event (bynodeid, bit 12; nodeid from bit 16) of event id $1
one() { printf '%s:0x%x' "$P" $(($1 | 1 << 12 | n0 << 16)); }
note "reader: slc_miss of every HN-F on CPU $PCPU; churners: events 0x2 and 0x3 of HN-F $n0 (an XP of $q0 HN-Fs)"

STOP=$LC_TMP/churn.stop
rm -f "$STOP" "$LC_TMP"/churn.*.out "$LC_TMP"/churn.*.err
# churner CPU EV: open, enable, run "true", read and close EV from CPU
# (pinned) until STOP exists; "<cycles> <errors>" into churn.CPU.out
churner() {
	local __n=0 __bad=0 __r
	while [ ! -e "$STOP" ]; do
		__r=$(taskset -c "$1" cmn-perf run -c "$1" "$2" -- true 2>&1)
		case $__r in
		[0-9]*" "[0-9]*" "[0-9]*) __n=$((__n + 1)) ;;
		*) __bad=$((__bad + 1)); echo "$__r" >> "$LC_TMP/churn.$1.err" ;;
		esac
	done
	echo "$__n $__bad" > "$LC_TMP/churn.$1.out"
}
d0=$(dmesg | wc -l)
churner 0 "$(one 2)" &
c0pid=$!
churner 1 "$(one 3)" &
c1pid=$!
k0=$(lc_race_stat 0 carries)
s0=$(lc_race_stat 0 settled)
u0=$(lc_race_stat 0 unbracketed)
cp "$LC_M/mesh0/counted" "$LC_TMP/k0.counted"
r=$(taskset -c "$PCPU" cmn-hostile race -s "$SECS" -n $MINREADS -m 0 1 "$P:0x1")
k1=$(lc_race_stat 0 carries)
s1=$(lc_race_stat 0 settled)
u1=$(lc_race_stat 0 unbracketed)
touch "$STOP"
wait $c0pid $c1pid
cp "$LC_M/mesh0/counted" "$LC_TMP/k1.counted"
note "reader: $r; carries $k0 -> $k1, delivered at bracket opens $s0 -> $s1"
if is_uint "$s0" && is_uint "$s1" && [ "$s1" -gt "$s0" ]; then
	pass churn/settled
else
	fail churn/settled "no carry was in flight when a bracket opened (settled $s0 -> $s1): the churn did not hit the case"
fi

if is_uint "$u0" && is_uint "$u1" && [ "$u1" = "$u0" ]; then
	pass churn/bracketed
else
	fail churn/bracketed "configuration changes outside any bracket: $u0 -> $u1 (the kernel log says when)"
fi

n=$(lc_field "$r" reads)
if ! is_uint "$n"; then
	fail churn/reads "cmn-hostile race: $r"
elif [ "$n" -ge 100 ] && [ $((k1 - k0)) -ge 100 ]; then
	pass churn/reads
else
	fail churn/reads "void run: $n reads, $((k1 - k0)) carries"
fi
check_eq churn/monotonic "$(lc_field "$r" nonmono)" 0 ||
	note "largest drop $(lc_field "$r" maxdrop)"
check_eq churn/never_over "$(lc_field "$r" over)" 0 ||
	note "largest excess $(lc_field "$r" maxover)"
fin=$(lc_field "$r" final) tru=$(lc_field "$r" truth)
if ! is_uint "$fin" || ! is_uint "$tru" || [ "$tru" = 0 ] || [ "$fin" = 0 ]; then
	fail churn/final_within "final '$fin', truth '$tru': void"
elif [ "$(lc_u64 cmp "$fin" "$tru")" = gt ]; then
	fail churn/final_within "final $fin above the truth $tru"
else
	pass churn/final_within
	note "final $fin of truth $tru: $(lc_u64 sub "$tru" "$fin") made while the event was off the PMU"
fi
if is_uint "$fin"; then
	lc_counted_exact churn/final_counted "$fin" 1 "$LC_TMP/k0.counted" "$LC_TMP/k1.counted"
else
	fail churn/final_counted "final '$fin'"
fi
for c in 0 1; do
	read -r ops bad < "$LC_TMP/churn.$c.out" || { ops=0 bad=unknown; }
	if [ "$ops" -ge $MINOPS ] && [ "$bad" = 0 ]; then
		pass "churn/opens/$c"
	else
		fail "churn/opens/$c" "$ops cycles (want $MINOPS or more), $bad errors: $(head -n 3 "$LC_TMP/churn.$c.err" 2>/dev/null | tr '\n' ' ')"
	fi
	note "churner on CPU $c: $ops cycles, $bad errors"
done

# the clock is manual again (cmn-hostile race stopped it): one exact step
lc_snap 0 "$LC_TMP/x0"
y0=$(lc_cycles 0)
lc_perf_step "$LC_TMP/x.csv" 200000 "$P/slc_miss/" "$P/dtc_cycles/"
y1=$(lc_cycles 0)
lc_snap 0 "$LC_TMP/x1"
want=$(($(lc_snap_sum "$LC_TMP/x1" 1 - '*') - $(lc_snap_sum "$LC_TMP/x0" 1 - '*')))
got=$(lc_counts "$LC_TMP/x.csv" | head -n 1 | cut -d' ' -f1)
cyc=$(lc_counts "$LC_TMP/x.csv" | sed -n 2p | cut -d' ' -f1)
if [ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ "${cyc:-0}" = $((y1 - y0)) ]; then
	pass churn/exact_after
else
	fail churn/exact_after "slc_miss $got, truth $want; dtc_cycles ${cyc:-none}, the model's $((y1 - y0))"
fi
BADLOG='WARNING:|BUG:|Oops|rcu_|lockdep|circular locking|unhandled|not cleared'
if dmesg | tail -n +$((d0 + 1)) | grep -qE "$BADLOG"; then
	fail churn/no_report "$(dmesg | tail -n +$((d0 + 1)) | grep -E "$BADLOG" | head -n 3 | tr '\n' ' ')"
else
	pass churn/no_report
fi
echo off > "$LC_M/mesh0/race"
note "race model: $(cat "$LC_M/mesh0/race")"
rmmod arm_cmn_hnf
finish
