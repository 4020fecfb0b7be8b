#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc
# timeout: 240
# results: 5 + 3 * min(8, 4 // max(1, hnf_xp_max))
#
# Multiplexing: three times more aggregated events than the busiest XP can
# count at once, with the model running free at constant rates. perf rotates
# the events; each scaled count must be within 1% of the truth delta, and
# perf must report that it multiplexed (percentage below 100).
#
# The truth is sampled by the workload itself, so its interval is a little
# shorter than perf's counting window (fork/exec of the workload under TCG
# takes a noticeable part of a second). A pinned dtc_cycles event (the DTC
# cycle counter, not an HN-F counter, so it never rotates) measures the
# counting window in model cycles; the truth delta is scaled by
# dtc_cycles / (model cycles between the two truth samples). At constant
# rates that is exact up to one event per source.
#   mux_control   one event, no multiplexing, same method: within 1%
#   mux/<alias>   each multiplexed event: within 1%
#   mux_rotated   perf reported less than 100% running for some events
#   (notes)       the same with the stock arm-cmn driver, as a reference
. /e2e/lib.sh
. /e2e/lib-counts.sh

SECS=4

check model_load model_load || finish
lc_set_rates 0
per=$(lc_hnfs_per_xp_max 0)
cap=$((4 / per))
[ $cap -le 8 ] || cap=8
want=$((3 * cap))
note "at most $per HN-F(s) per XP: $cap events at once; opening $want"

# window PMU EVARGS...: perf stat around a workload that samples the truth
# at its start and end (cmn-perf snap: truth and cycles read back to back);
# counts in $LC_TMP/mux.counts, the last one the pinned dtc_cycles
window() {
	local pmu=$1
	shift
	# shellcheck disable=SC2068
	perf stat -x, -a -o "$LC_TMP/mux.csv" $@ -e "$pmu/dtc_cycles/D" -- \
		sh -c "cmn-perf snap $LC_TMP/s0 0; sleep $SECS; cmn-perf snap $LC_TMP/s1 0" \
		> "$LC_TMP/mux.out" 2>&1 || { WCYC=- WTC=-; return 1; }
	lc_counts "$LC_TMP/mux.csv" > "$LC_TMP/mux.counts"
	WCYC=$(tail -n 1 "$LC_TMP/mux.counts" | cut -d' ' -f1)
	WTC=$(( $(cat "$LC_TMP/s1.cycles") - $(cat "$LC_TMP/s0.cycles") ))
	note "window: $WCYC cycles counted, $WTC cycles between the truth samples"
	is_uint "$WCYC" && [ "$WCYC" -gt 0 ] && [ "$WTC" -gt 0 ]
}

# within1 NAME PMU ALIAS LINE: count on LINE of mux.counts within 1% of the
# truth over the counting window
within1() {
	local name=$1 pmu=$2 al=$3 got pct t0 t1 tr d
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(sed -n "${4}p" "$LC_TMP/mux.counts")
	got=${1:-NA} pct=${3:--}
	WPCT=$pct
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(lc_alias "$pmu" "$al")
	t0=$(lc_snap_sum "$LC_TMP/s0.truth" "$1" "$2" '*')
	t1=$(lc_snap_sum "$LC_TMP/s1.truth" "$1" "$2" '*')
	tr=$((t1 - t0))
	# truth over the counting window (see the header)
	tr=$(cmn-perf u64 muldiv "$tr" "$WCYC" "$WTC")
	case $got in NA|'') fail "$name" "not counted"; return 1 ;; esac
	if [ $tr -le 0 ]; then
		fail "$name" "truth delta $tr: model not running free"
		return 1
	fi
	d=$((got > tr ? got - tr : tr - got))
	note "$name: $got vs $tr, ran $pct%"
	# within 1%: 100 * |got - truth| <= truth
	if [ "${REFERENCE:-0}" = 1 ]; then
		note "reference $name: off by $((d * 10000 / tr)) / 10000"
	elif [ $((d * 100)) -le $tr ]; then
		pass "$name"
	else
		fail "$name" "scaled count $got, truth $tr (off by $((d * 10000 / tr)) / 10000, ran $pct%)"
	fi
}

# run_mux PREFIX PMU: the control and the multiplexed run on PMU
run_mux() {
	local pre=$1 pmu=$2 evs='' names='' i=0 ev f a muxed=0 prc
	for ev in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17 18 19 20 21 22 23 24 25 26; do
		[ $i -lt $want ] || break
		a=
		for f in "$LC_PMUS/$pmu/events"/*; do
			a=${f##*/}
			case $a in *.scale|*.unit|mc_bytes) a=; continue ;; esac
			[ "$(lc_alias "$pmu" "$a")" = "$ev - -" ] && break
			[ "$(lc_alias "$pmu" "$a")" = "$ev - 5" ] && break
			a=
		done
		[ -n "$a" ] || continue
		evs="$evs -e $pmu/$a/"
		names="$names $a"
		i=$((i + 1))
	done
	echo 4 > "$LC_PMUS/$pmu/perf_event_mux_interval_ms"
	# control: one event, no multiplexing, same method
	set -- $names
	if window "$pmu" -e "$pmu/$1/"; then
		within1 "${pre}_control" "$pmu" "$1" 1
	elif [ "${REFERENCE:-0}" = 1 ]; then
		note "reference ${pre}_control: no result: pinned dtc_cycles '$WCYC', truth window $WTC cycles"
	else
		fail "${pre}_control" "perf stat: $(tail -n 2 "$LC_TMP/mux.out") pinned dtc_cycles '$WCYC', truth window $WTC cycles"
	fi
	# rotate every 100 ms (the model's clock thread ticks every ~1 ms)
	echo 100 > "$LC_PMUS/$pmu/perf_event_mux_interval_ms"
	# shellcheck disable=SC2086
	window "$pmu" $evs
	prc=$?
	if [ $prc -ne 0 ] && [ "${REFERENCE:-0}" = 1 ]; then
		note "reference $pre: no result: pinned dtc_cycles '$WCYC', truth window $WTC cycles"
		return 1
	elif [ $prc -ne 0 ]; then
		fail "$pre" "perf stat: $(tail -n 2 "$LC_TMP/mux.out") pinned dtc_cycles '$WCYC', truth window $WTC cycles: $(tail -n 1 "$LC_TMP/mux.csv")"
		return 1
	fi
	i=0
	for a in $names; do
		i=$((i + 1))
		within1 "$pre/$a" "$pmu" "$a" $i
		case $WPCT in 100.00) ;; *) muxed=$((muxed + 1)) ;; esac
	done
	[ "${REFERENCE:-0}" = 1 ] || check_range "${pre}_rotated" "$muxed" 1 "$want"
}

check clock_free sh -c "echo 'free constant' > $LC_M/clock" || finish
if check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf && lc_pmu_wait arm_cmn_hnf_0; then
	run_mux mux arm_cmn_hnf_0
fi
rmmod arm_cmn_hnf 2>/dev/null

# The same with the stock arm-cmn, as a reference for the method and the
# model (where arm-cmn counts this mesh correctly: see 20-armcmn-crosscheck).
# Notes only, no results: under host load the free-running model clock can
# advance in bursts, which skews any driver's time-scaled estimates.
if [ -z "$(lc_armcmn_misplaced 0)" ] && modprobe arm-cmn && lc_pmu_wait arm_cmn_0; then
	REFERENCE=1 run_mux armcmn_mux arm_cmn_0
	rmmod arm_cmn
fi
echo manual > "$LC_M/clock"
finish
