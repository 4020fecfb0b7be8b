#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# timeout: 240
# results: 28
# names: model_load rebase/wraps rebase/rotated rebase/exact/1 rebase/exact/2
# names: rebase/exact/3 rebase/exact/4 rebase/exact/5 rebase/exact/6 stopped/wraps
# names: stopped/pmovsr stopped/exact
# names: rebase/truth/1 rebase/truth/2 rebase/truth/3 rebase/truth/4 rebase/truth/5 rebase/truth/6
# names: rebase/hnfs/1 rebase/hnfs/2 rebase/hnfs/3 rebase/hnfs/4 rebase/hnfs/5 rebase/hnfs/6
# names: stopped/truth stopped/hnfs pending/wraps pending/exact
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
# Then the same event, disabled while the clock still runs, PENDING_RUNS
# times (REBASE_PENDING_RUNS, default 10). perf_pmu_disable() brings the
# model up to the present, which most of the time takes the counter across
# a wrap: the flag is set and its interrupt waits until interrupts are back
# on, so the handler never sees the event again. The last update of the
# event was the handler of the wrap before, one whole period earlier, so
# the counter may read as much as then or more: only the flag tells that it
# went round. Often it reads exactly as much as then (each tick's chunk
# ends at the same point past the wrap) while its DTM counters read less:
# the last sample is then below the highest one taken, one period short.
# On silicon that is a disable within the microseconds between a wrap and
# its interrupt, the event not read since the wrap before, and the global
# counter back at the value the handler read just after the wrap before
# (a few carries past zero both times): rare, but possible (perf stat
# without -I reads once, at the end). The model's period is short (2^48
# events in about 0.16 ms), not impossible: it counts nothing between a
# wrap and its handler, as silicon counts next to nothing.
#   pending/wraps       the runs raised interrupts (not void)
#   pending/exact       every run counted exactly what the model counted; a
#                       stop() that leaves a pending flag to the handler
#                       counts 2^48 too few in the runs whose disable
#                       crossed a wrap no read saw; one that adds the period
#                       to the highest sample, not to the last one, counts
#                       that sample's shortfall too many (2^16 to 3 * 2^16
#                       on the default mesh, mutant 33)
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
SECS=${REBASE_SECS:-8}
PENDING_RUNS=${REBASE_PENDING_RUNS:-10}
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

lc_fast_event 0 "$P"
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

# The same event disabled while the clock runs: pending/* (header)
fast_disable() {
	local k=1 bad='' w got i0 i1
	i0=$(irqs)
	while [ $k -le "$PENDING_RUNS" ]; do
		lc_totals 0 "$LC_TMP/p0"
		cmn-perf run -D "$P:$EV" -- "echo 'free constant' > $LC_M/clock; sleep 0.2" \
			> "$LC_TMP/run.out" 2>&1
		echo manual > "$LC_M/clock"
		sleep 0.1
		lc_totals 0 "$LC_TMP/p1"
		got=$(sed -n 1p "$LC_TMP/run.out" | cut -d' ' -f1)
		w=$(lc_u64 sub "$(lc_truth -f "$LC_TMP/p1.counted" "$EV")" \
			"$(lc_truth -f "$LC_TMP/p0.counted" "$EV")")
		if [ "$got" != "$w" ]; then
			is_uint "$got" && w="$w (difference $(lc_u64 sub "$got" "$w"))"
			bad="$bad run $k: counted '$got', the model counted $w;"
		fi
		k=$((k + 1))
	done
	i1=$(irqs)
	check_range pending/wraps $((i1 - i0)) $((20 * PENDING_RUNS)) 1000000000
	if [ -z "$bad" ]; then
		pass pending/exact
	else
		fail pending/exact "${bad% ;} (2^48 = 281474976710656)"
	fi
}
fast_disable
rmmod arm_cmn_hnf
finish
