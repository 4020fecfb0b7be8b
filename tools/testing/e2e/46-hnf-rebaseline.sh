#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# timeout: 240
# results: 26
# names: model_load rebase/wraps rebase/rotated rebase/exact/1 rebase/exact/2
# names: rebase/exact/3 rebase/exact/4 rebase/exact/5 rebase/exact/6 stopped/wraps
# names: stopped/pmovsr stopped/exact
# names: rebase/truth/1 rebase/truth/2 rebase/truth/3 rebase/truth/4 rebase/truth/5 rebase/truth/6
# names: rebase/hnfs/1 rebase/hnfs/2 rebase/hnfs/3 rebase/hnfs/4 rebase/hnfs/5 rebase/hnfs/6
# names: stopped/truth stopped/hnfs
#
# A new baseline taken while an overflow flag of the event's counter is
# still set, its interrupt not handled yet: the flag reports a wrap the
# baseline already includes. The model's clock runs free and fast (each
# event's global counter goes round every ~10 ms) while six events share
# the four event slots of every HN-F: perf rotates them every millisecond
# from its hrtimer, deleting and adding every event inside one
# perf_pmu_disable() section, where the model catches its clock up, often
# across a wrap, and raises an interrupt that waits until interrupts are
# back on. Each event counts a source of its own, so what the model's
# hardware counted of it (mesh0/counted) is exactly what it must count.
#   rebase/wraps        many overflow interrupts meanwhile (not void)
#   rebase/rotated      every event ran part of the time and none all of it
#   rebase/exact/<id>   event <id> counted exactly what the model counted of
#                       it; a handler that adds a period for such a flag
#                       counts 2^48 (one global counter with its DTM
#                       carries) too many each time
#   rebase/truth/<id>   ... and exactly the truth of every HN-F of the mesh
#                       over the windows in which the model counted it
#                       anywhere (mesh0/windowed), the event ids being those
#                       of the six aliases of the alias list named in ALS
#   rebase/hnfs/<id>    ... and the model counted it on every HN-F of the
#                       mesh and on no other
# Then the clock stops right after an overflow interrupt: one event alone
# counts so fast that every tick of the free clock wraps its global counter
# and raises the interrupt, so the handler served a flag just before the
# stop. Hardware applies the handler's write-one-to-clear at once; the
# model lands it when the handler returns. With the event still open:
#   stopped/wraps       the ticks raised interrupts (not void)
#   stopped/pmovsr      every DTC's pmovsr reads clear
#   stopped/exact       the event, disabled before it is read (as perf stat
#                       does), counted exactly what the model counted; a
#                       served flag read again as set by stop() adds its
#                       wrap a second time (2^48 too many)
#   stopped/truth       ... and exactly the truth of every HN-F of the
#                       mesh (the event, sf_evictions from the alias list,
#                       was enabled all the time the clock ran)
#   stopped/hnfs        ... and the model counted it on every HN-F of the
#                       mesh and on no other
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
SECS=${REBASE_SECS:-8}
# six events with sources of their own, by their alias list names
ALS="cache_miss slc_sf_cache_access cache_fill pocq_retry pocq_reqs_recvd sf_hit"
IDS=$(for a in $ALS; do lc_alias "$P" "$a" | cut -d' ' -f1; done)

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait "$P"; }; then
	fail rebase/wraps "no $P"
	finish
fi
lc_set_rates 0
evs=
for id in $IDS; do
	lc_rate 0 "node=* event=$id rate=400000000"
	evs="$evs $P:$id"
done
echo 20000 > "$LC_M/freq_mhz"
irqs() { awk '{ s += $2 } END { print s + 0 }' "$LC_M/mesh0/irqs"; }

i0=$(irqs)
lc_totals 0 "$LC_TMP/t0"
# shellcheck disable=SC2086 # one word per event
cmn-perf run $evs -- \
	"echo 'free constant' > $LC_M/clock; sleep $SECS; echo manual > $LC_M/clock" \
	> "$LC_TMP/run.out" 2>&1
lc_totals 0 "$LC_TMP/t1"
i1=$(irqs)
note "overflow interrupts $i0 -> $i1; counts: $(tr '\n' ';' < "$LC_TMP/run.out")"

check_range rebase/wraps $((i1 - i0)) 50 1000000000
# "<count> <enabled> <running>" per event: rotated, none always on
rot=$(awk 'NF == 3 && $3 > 0 && $3 < $2 { n++ } END { print n + 0 }' "$LC_TMP/run.out")
check_eq rebase/rotated "$rot" 6
n=1
for id in $IDS; do
	# shellcheck disable=SC2086 # the n-th alias
	al=$(echo $ALS | cut -d' ' -f$n)
	got=$(sed -n "${n}p" "$LC_TMP/run.out" | cut -d' ' -f1)
	lc_counted_exact "rebase/exact/$id" "$got" "$id" "$LC_TMP/t0.counted" "$LC_TMP/t1.counted"
	lc_truth_exact "rebase/truth/$id" "$got" "$P" "$al" '*' \
		"$LC_TMP/t0.windowed" "$LC_TMP/t1.windowed"
	lc_counted_hnfs "rebase/hnfs/$id" 0 "$P" "$al" '*' "$LC_TMP/t0.counted" "$LC_TMP/t1.counted"
	n=$((n + 1))
done

lc_set_rates 0
AL=sf_evictions
EV=$(lc_alias "$P" $AL | cut -d' ' -f1)
lc_rate 0 "node=* event=$EV rate=4294967295"
echo 100000 > "$LC_M/freq_mhz"
i0=$(irqs)
lc_totals 0 "$LC_TMP/t0"
cmn-perf run -D "$P:$EV" -- \
	"echo 'free constant' > $LC_M/clock; sleep 1; echo manual > $LC_M/clock; sleep 0.2; cat $LC_M/mesh0/counters > $LC_TMP/ctrs" \
	> "$LC_TMP/run.out" 2>&1
lc_totals 0 "$LC_TMP/t1"
i1=$(irqs)
note "overflow interrupts $i0 -> $i1; count: $(tr '\n' ';' < "$LC_TMP/run.out")"
check_range stopped/wraps $((i1 - i0)) 20 1000000000
check_eq stopped/pmovsr "$(lc_flags_set "$LC_TMP/ctrs")" none
got=$(sed -n 1p "$LC_TMP/run.out" | cut -d' ' -f1)
lc_counted_exact stopped/exact "$got" "$EV" "$LC_TMP/t0.counted" "$LC_TMP/t1.counted"
lc_truth_exact stopped/truth "$got" "$P" $AL '*' "$LC_TMP/t0.truth" "$LC_TMP/t1.truth"
lc_counted_hnfs stopped/hnfs 0 "$P" $AL '*' "$LC_TMP/t0.counted" "$LC_TMP/t1.counted"
rmmod arm_cmn_hnf
finish
