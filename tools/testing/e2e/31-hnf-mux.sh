#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 1x1 2x2 3x3 4x2-2dtc 8x8-32hnf-4dtc two-mesh
# subset: default
# subset-fw: dt
# timeout: 360
# icount: shift=0,sleep=on
# results: 3 + sum(3 + 6 * min(8, 4 // max(1, m.hnf_xp_max)) for m in mesh)
# names: model_load modprobe_arm_cmn_hnf clock_free
# names: mux0_control mux0_premise mux0_rotated mux0/*/raw mux0/*/scaled mux0/1/* mux0/3/*
# names: mux0/6/* if 4 // max(1, mesh[0].hnf_xp_max) >= 2
# names: mux0/12/* if 4 // max(1, mesh[0].hnf_xp_max) >= 4
# names: mux1_control mux1_premise mux1_rotated mux1/*/raw mux1/*/scaled mux1/1/* mux1/3/* if nmesh > 1
# names: mux1/6/* if nmesh > 1 and 4 // max(1, mesh[1].hnf_xp_max) >= 2
# names: mux1/12/* if nmesh > 1 and 4 // max(1, mesh[1].hnf_xp_max) >= 4
# names: mux[2-9]_* mux[2-9]/* if nmesh > 2
#
# Multiplexing accuracy, independent of host load. Three times more
# aggregated events than the busiest XP can count at once, each a
# different HN-F event, with the model running free at constant rates and
# perf rotating them; per mesh <m> of the file (its PMU, lc_pmu):
#   mux<m>_control          one event, never rotated: raw count == what
#                           the hardware counted of its source, and its
#                           window estimate within 1% of the reference
#   mux<m>/<eventid>/raw    each rotated event: raw count == the events the
#                           hardware counted for its source (the model keeps
#                           them per source: meshN/counted, the truth of
#                           the windows each event actually ran in, ticks
#                           and host load included), exactly
#   mux<m>/<eventid>/scaled perf's estimate over a measurement window,
#                           d raw * d enabled / d running, within 1% of the
#                           events produced while the mesh counted in that
#                           event's window: the source's rate times the
#                           cycles DTC0 counted in the window by the
#                           model's clock (DTC0's active_cycles in
#                           meshN/counters, never a count the driver
#                           gives), in proportion to the event's enabled
#                           time against the window's (the enabled time of
#                           a pinned dtc_cycles event, which never rotates)
#   mux<m>_rotated          some events ran less than they were enabled
#   mux<m>_premise          see below
# The measurement window is two reads of every event SECS apart, away from
# the start and the end, where perf reschedules every event as each one is
# enabled or disabled. DTC0 counts exactly while the PMU is enabled, so
# its active_cycles also measure the share of the window during which the
# driver kept the PMU disabled to reprogram it. Perf's
# scaling assumes running time is counting time; that share is the error
# it then makes, and under TCG a rotation of 32 HN-Fs takes milliseconds.
# So the rotation interval starts at 100 ms and is made longer (400 ms,
# 800 ms) until that share of the model's time in the window (meshN/cycles
# against DTC0's active_cycles in meshN/counters) is at most 0.5%;
# mux<m>_premise fails if it never is. Counts come from cmn-hostile run (perf_event_open with the
# enabled and running times, all events enabled and disabled at once).
. /e2e/lib.sh
. /e2e/lib-counts.sh

check model_load model_load || finish
if ! check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf; then
	finish
fi

# window MESH SECS EV...: cmn-hostile run -p -m MESH -w SECS (the first EV
# pinned) with the clock running free; counted totals saved before (w0)
# and after (w1); OFF: millionths of the model's time in the measurement
# window during which DTC0 did not count
window() {
	local m=$1 s=$2 l
	shift 2
	cp "$LC_M/mesh$m/counted" "$LC_TMP/w0.counted"
	cmn-hostile run -p -m "$m" -w "$s" "$@" > "$LC_TMP/w.out" 2> "$LC_TMP/w.err"
	cp "$LC_M/mesh$m/counted" "$LC_TMP/w1.counted"
	l=$(sed -n 's/^model //p' "$LC_TMP/w.out")
	case $l in
	[0-9]*' '[0-9]*) OFF=$(( (${l% *} - ${l#* }) * 1000000 / (${l% *} + 1) )) ;;
	*) OFF=1000000 ;;
	esac
	[ "$(grep -vc '^model ' "$LC_TMP/w.out")" -eq $# ]
}

# counted EVENTID: events of EVENTID (all HN-Fs) the hardware counted over
# the window
counted() {
	lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/w1.counted" "$1")" \
		"$(cmn-perf truth -f "$LC_TMP/w0.counted" "$1")"
}

# reference MESH EVENTID DENA: events of EVENTID produced while the mesh
# counted, over an enabled time of DENA ns: the cycles DTC0 counted in the
# window by the model's clock (the last line of w.out, "model <d cycles>
# <d active cycles>"), times DENA over the window's enabled time (line 1
# of w.out, the pinned dtc_cycles: "raw ena run draw dena drun"), times
# the rates set for EVENTID (per 1000 cycles)
reference() {
	local a c
	a=$(sed -n 's/^model [0-9]* \([0-9]*\)$/\1/p' "$LC_TMP/w.out")
	# shellcheck disable=SC2046 # word splitting wanted
	set -- "$1" "$2" "$3" $(head -n 1 "$LC_TMP/w.out")
	c=$(cmn-perf u64 muldiv "${a:-0}" "$3" "$8")
	cmn-perf u64 muldiv "$(lc_sum_rates "$1" "$2")" "$c" 1000
}

# within1 NAME ESTIMATE REFERENCE: |estimate - reference| <= reference / 100
within1() {
	local d=$(($2 > $3 ? $2 - $3 : $3 - $2))
	if [ "$3" -gt 0 ] && [ $((d * 100)) -le "$3" ]; then
		pass "$1"
	else
		fail "$1" "$2, reference $3 (off by $((d * 10000 / ($3 + 1))) / 10000)"
	fi
}

run_mesh() {
	local m=$1 pmu per cap want evs='' ids='' e i got ena run dg de dr k ref est
	local rotated=0 ms secs off=-1
	pmu=$(lc_pmu "$m")
	lc_pmu_wait "$pmu" || { fail "mux${m}_control" "no $pmu"; return 1; }
	lc_set_rates "$m"
	per=$(lc_hnfs_per_xp_max "$m")
	cap=$((4 / per))
	[ $cap -le 8 ] || cap=8
	want=$((3 * cap))
	for e in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17 18 19 20 21 22 23 24 25; do
		[ "$(echo "$ids" | wc -w)" -lt $want ] || break
		evs="$evs $pmu:$e"
		ids="$ids $e"
	done
	note "mesh $m: at most $per HN-F(s) per XP: $cap events at once; opening $want"

	# control: one event, never rotated
	if window "$m" 4 "$pmu:$((3 << 32))" "$pmu:1"; then
		# shellcheck disable=SC2046 # word splitting wanted
		set -- $(sed -n 2p "$LC_TMP/w.out")
		k=$(counted 1)
		ref=$(reference "$m" 1 "$5")
		note "control: count $1 (hardware $k), ran $3 of $2 ns; window: $4, reference $ref"
		if [ "$1" = "$k" ] && [ "$k" != 0 ]; then
			within1 "mux${m}_control" "$4" "$ref"
		else
			fail "mux${m}_control" "count $1, counted by the hardware $k"
		fi
	else
		fail "mux${m}_control" "cmn-hostile run: $(cat "$LC_TMP/w.out" "$LC_TMP/w.err" | tail -n 2)"
	fi

	for ms in 100 400 800; do
		# perf moves one event from the head of the list to its tail per
		# rotation: every event runs once in want rotations
		secs=$(( ms * want / 1000 + 1 ))
		[ $secs -ge 4 ] || secs=4
		echo "$ms" > "$LC_PMUS/$pmu/perf_event_mux_interval_ms"
		# shellcheck disable=SC2086 # one word per event
		if ! window "$m" "$secs" "$pmu:$((3 << 32))" $evs; then
			fail "mux$m" "cmn-hostile run: $(cat "$LC_TMP/w.out" "$LC_TMP/w.err" | tail -n 2)"
			echo 100 > "$LC_PMUS/$pmu/perf_event_mux_interval_ms"
			return 1
		fi
		off=$OFF
		note "rotation every $ms ms, ${secs} s: the PMU did not count $off ppm of the window (dtc_cycles: $(head -n 1 "$LC_TMP/w.out"); $(tail -n 1 "$LC_TMP/w.out"))"
		[ "$off" -gt 5000 ] || break
	done
	echo 100 > "$LC_PMUS/$pmu/perf_event_mux_interval_ms"
	if [ "$off" -le 5000 ]; then
		pass "mux${m}_premise"
	else
		fail "mux${m}_premise" "the PMU was disabled (reprogrammed) $off ppm of the window even when rotating every $ms ms: perf's estimates cannot be within 1%"
	fi
	i=1
	for e in $ids; do
		i=$((i + 1))
		# shellcheck disable=SC2046 # word splitting wanted
		set -- $(sed -n "${i}p" "$LC_TMP/w.out")
		got=$1 ena=$2 run=$3 dg=$4 de=$5 dr=$6
		k=$(counted "$e")
		[ "$run" -lt "$ena" ] && rotated=$((rotated + 1))
		if [ "$k" = 0 ]; then
			fail "mux$m/$e/raw" "the hardware counted nothing (ran $run of $ena ns): void"
		else
			check_eq "mux$m/$e/raw" "$got" "$k"
		fi
		if [ "$dr" = 0 ]; then
			fail "mux$m/$e/scaled" "never ran in the window ($de ns enabled)"
			continue
		fi
		est=$(cmn-perf u64 muldiv "$dg" "$de" "$dr")
		ref=$(reference "$m" "$e" "$de")
		note "mux$m/$e: raw $got, ran $run of $ena ns; window: $dg, ran $dr of $de ns, scaled $est, reference $ref"
		within1 "mux$m/$e/scaled" "$est" "$ref"
	done
	check_range "mux${m}_rotated" "$rotated" 1 "$want"
}

check clock_free sh -c "echo 'free constant' > $LC_M/clock" || finish
m=0
while [ $m -lt "$(lc_nmeshes)" ]; do
	run_mesh $m
	m=$((m + 1))
done
echo manual > "$LC_M/clock"
finish
