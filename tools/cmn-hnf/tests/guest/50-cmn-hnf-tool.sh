#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default two-mesh
# subset: two-mesh
# subset-fw: dt
# timeout: 300
# results: 16 + 16 * nmesh
# skip: tool/stat/* tool/events/* tool/mux/perf_zero tool/top/map_cells tool/top/ranking if max(m.hnf_xp_max for m in mesh) > 1
# skip: tool/print_perf if max(m.hnf_xp_max for m in mesh) > 2
# skip: tool/mux/slc_miss_rate/* tool/mux/pocq_avg_latency/* if max(m.hnf_xp_max for m in mesh) > 2
# names: model_load driver_load tool/check tool/topo/device tool/stat/slc_miss_rate/total
# names: tool/print_perf tool/per_hnf/rows tool/per_hnf/values tool/mux/run tool/mux/perf_zero
# names: tool/mesh_clock tool/top/run tool/top/map_cells tool/top/ranking tool/exit_status tool/prometheus
# names: tool/topo/mesh0 tool/stat/slc_miss_rate/mesh0 tool/stat/pocq_avg_latency/mesh0 tool/stat/running/mesh0
# names: tool/events/cache_miss/mesh0 tool/events/pocq_occupancy/mesh0 tool/occupancy/mesh0
# names: tool/mux/multiplexed/mesh0 tool/mux/slc_miss_rate/mesh0 tool/mux/pocq_avg_latency/mesh0
# names: tool/mux/zero/sf_hit/mesh0 tool/mux/zero/mc_reqs/mesh0 tool/mux/zero/mc_retries/mesh0 tool/mux/zero/snp_sent/mesh0 tool/mux/zero/pocq_retry/mesh0 tool/mux/zero/qos_hh_retry/mesh0
# names: tool/topo/mesh1 tool/stat/slc_miss_rate/mesh1 tool/stat/pocq_avg_latency/mesh1 tool/stat/running/mesh1 if nmesh > 1
# names: tool/events/cache_miss/mesh1 tool/events/pocq_occupancy/mesh1 tool/occupancy/mesh1 if nmesh > 1
# names: tool/mux/multiplexed/mesh1 tool/mux/slc_miss_rate/mesh1 tool/mux/pocq_avg_latency/mesh1 if nmesh > 1
# names: tool/mux/zero/sf_hit/mesh1 tool/mux/zero/mc_reqs/mesh1 tool/mux/zero/mc_retries/mesh1 tool/mux/zero/snp_sent/mesh1 tool/mux/zero/pocq_retry/mesh1 tool/mux/zero/qos_hh_retry/mesh1 if nmesh > 1
# names: tool/topo/mesh[2-9] tool/stat/*/mesh[2-9] tool/events/*/mesh[2-9] tool/occupancy/mesh[2-9] tool/mux/*/mesh[2-9] if nmesh > 2
#
# cmn-hnf in the guest, against the CMN-600 model and arm_cmn_hnf. Not in
# tools/testing/e2e/ (another owner); run it with the e2e harness:
#
#   E2E_EXTRA=tools/cmn-hnf/tests/guest TESTS=cmn-hnf-tool make e2e
#
#   tool/check          cmn-hnf check finds no problem
#   tool/topo           mesh size and HN-F count match the model
#   tool/stat/...       metric values over one model step equal the ratios of
#                       the model's exact totals (truth), per mesh and total
#   tool/events/...     raw counts behind them equal the truth deltas
#   tool/per_hnf/...    --per-hnf rows, free-running clock, equal the rates
#   tool/occupancy/...  pocq_avg_occupancy (event / separate dtc_cycles)
#   tool/mux/...        every metric at once (multiplexed): ratios within
#                       5 %, events the model does not produce read 0, in
#                       cmn-hnf and in perf with the same groups. Where a
#                       ratio's two events cannot share a group (more than
#                       two HN-Fs on one XP) they are estimated from
#                       different slices: its case is SKIP.
#   tool/mesh_clock     the DTC cycle counter over wall time ~ freq_mhz
#   tool/print_perf     the printed perf stat command runs and counts (with
#                       perf 5.10 the step waits for perf's enable, through
#                       --control, as in lc_perf_step)
#   tool/exit_status    stat -- cmd exits with the command's status
#   tool/prometheus     stat --prometheus writes every mesh's samples
#   tool/top/...        top --batch: the maps and the ranking show each
#                       HN-F's occupancy (free-running clock) ~ the rate
# On a mesh with several HN-Fs on one XP, the events of the exact stat
# cases, of the perf groups of "all" and of top's metrics cannot all count
# at once (four DTM counters per XP), and top's map shows two HN-Fs in one
# cell: those cases print SKIP there.
# shellcheck source=/dev/null
. /e2e/lib.sh
# shellcheck source=/dev/null
. /e2e/lib-counts.sh

N=1000000

# delta MESH EVENTID [OCCUPID]: truth total minus the one saved by base
base() { truth_sum "$@" > "/tmp/base.$1.$2.${3-}"; }
delta() { echo $(($(truth_sum "$@") - $(cat "/tmp/base.$1.$2.${3-}"))); }

# json_unit FILE UNIT: the JSON object of UNIT (a PMU name or "total")
json_unit() {
	awk '{ gsub(/\{"pmu":/, "\n{\"pmu\":"); print }' "$1" |
		grep "^{\"pmu\":\"$2\",\"hnf\":null"
}

# json_val OBJECT KEY: the number after "KEY":{"value": or "KEY":
json_val() {
	_v=$(echo "$1" | sed -n "s/.*\"$2\":{\"value\":\([^,}]*\).*/\1/p")
	[ -n "$_v" ] || _v=$(echo "$1" | sed -n "s/.*\"$2\":\([0-9.e+-]*\).*/\1/p")
	echo "$_v"
}

# near NAME GOT WANT [REL]: |GOT - WANT| <= REL * max(1, |WANT|)
near() {
	if awk -v a="$2" -v b="$3" -v r="${4:-0.000001}" 'BEGIN {
		if (a == "" || a == "null") exit 1
		d = a - b; if (d < 0) d = -d
		m = b < 0 ? -b : b; if (m < 1) m = 1
		exit !(d <= r * m) }'; then
		pass "$1"
	else
		fail "$1" "got '$2', want $3"
	fi
}

if ! command -v cmn-hnf > /dev/null; then
	fail tool/present "cmn-hnf is not in the initramfs"
	finish
fi
check model_load model_load || finish
check driver_load driver_load || finish
P0=$(lc_pmu 0)
wait_for 10 pmu_exists "$P0" || { fail pmu "no $P0"; finish; }
M=$(mesh_count)
# PER: the most HN-Fs on one XP in any mesh (the model's description)
PER=1
i=0
while [ $i -lt "$M" ]; do
	p=$(lc_hnfs_per_xp_max $i)
	is_uint "$p" && [ "$p" -gt "$PER" ] && PER=$p
	i=$((i + 1))
done
# fits NAME...: 0 if the exact cases can run; else SKIP each NAME
fits() {
	[ "$PER" -le 1 ] && return 0
	for _n in "$@"; do
		skip "$_n" "$PER HN-Fs on one XP: the events cannot all count at once (4 DTM counters per XP), the map shares a cell"
	done
	return 1
}

out=$(cmn-hnf check 2>&1)
rc=$?
if [ $rc -eq 0 ] && echo "$out" | grep -q "^ok    $P0: CMN-600"; then
	pass tool/check
else
	fail tool/check "exit $rc: $(echo "$out" | grep -E 'FAIL|WARN' | head -n 2)"
fi
note "$out"

out=$(cmn-hnf topo)
i=0
while [ $i -lt "$M" ]; do
	want="mesh:       $(model_info $i x)x$(model_info $i y), $(model_info $i hnfs) HN-F"
	if echo "$out" | grep -q "$want"; then
		pass "tool/topo/mesh$i"
	else
		fail "tool/topo/mesh$i" "no '$want' in cmn-hnf topo"
	fi
	i=$((i + 1))
done
if echo "$out" | grep -q 'device:     (unknown)'; then
	fail tool/topo/device "a PMU without its device: $(echo "$out" | grep device: | tr '\n' ' ')"
else
	pass tool/topo/device
fi
note "$(echo "$out" | head -n 30)"

# ---- exact values over one step (manual clock) ----
model_clock manual
i=0
while [ $i -lt "$M" ]; do
	model_rate $i "node=* event=0x01 rate=250"
	model_rate $i "node=* event=0x02 rate=1000"
	model_rate $i "node=* event=0x05 rate=1000"
	model_rate $i "node=* event=0x0f rate=20000"
	base $i 1
	base $i 2
	base $i 5
	base $i 0x0f 0
	i=$((i + 1))
done
cmn-hnf stat --json slc_miss_rate pocq_avg_latency -- \
	sh -c "echo $N > $CMN_DBG/step" > /tmp/stat.json 2> /tmp/stat.err
rc=$?
[ $rc -eq 0 ] || fail tool/stat/run "exit $rc: $(tail -n 1 /tmp/stat.err)"
note "$(cat /tmp/stat.json)"
t1=0
t2=0
i=0
while [ $i -lt "$M" ]; do
	d1=$(delta $i 1)
	d2=$(delta $i 2)
	d5=$(delta $i 5)
	df=$(delta $i 0x0f 0)
	t1=$((t1 + d1))
	t2=$((t2 + d2))
	u=$(json_unit /tmp/stat.json "$(lc_pmu $i)")
	fits "tool/stat/slc_miss_rate/mesh$i" "tool/stat/pocq_avg_latency/mesh$i" \
		"tool/events/cache_miss/mesh$i" "tool/events/pocq_occupancy/mesh$i" \
		"tool/stat/running/mesh$i" || { i=$((i + 1)); continue; }
	near "tool/stat/slc_miss_rate/mesh$i" "$(json_val "$u" slc_miss_rate)" \
		"$(awk -v a="$d1" -v b="$d2" 'BEGIN { printf "%.9f", a * 100 / b }')"
	near "tool/stat/pocq_avg_latency/mesh$i" "$(json_val "$u" pocq_avg_latency)" \
		"$(awk -v a="$df" -v b="$d5" 'BEGIN { printf "%.9f", a / b }')"
	check_eq "tool/events/cache_miss/mesh$i" "$(json_val "$u" cache_miss)" "$d1"
	check_eq "tool/events/pocq_occupancy/mesh$i" \
		"$(json_val "$u" pocq_occupancy)" "$df"
	check_eq "tool/stat/running/mesh$i" "$(json_val "$u" running_pct)" 100
	i=$((i + 1))
done
fits tool/stat/slc_miss_rate/total &&
	near tool/stat/slc_miss_rate/total \
		"$(json_val "$(json_unit /tmp/stat.json total)" slc_miss_rate)" \
		"$(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.9f", a * 100 / b }')"

# ---- perf runs what --print-perf prints ----
cmd=$(cmn-hnf stat --print-perf slc_miss_rate | head -n 1)
wl="echo 100000 > $CMN_DBG/step" ctl=''
if lc_perf_late_enable; then
	# perf 5.10 enables its counters after it starts the workload: the
	# step waits for the acknowledgement of an enable (as lc_perf_step)
	rm -f /tmp/perf.ctl /tmp/perf.ack
	mkfifo /tmp/perf.ctl /tmp/perf.ack
	ctl=" -D -1 --control fifo:/tmp/perf.ctl,/tmp/perf.ack"
	wl="echo enable > /tmp/perf.ctl && read -r _ < /tmp/perf.ack && $wl"
fi
cmd="${cmd% -- sleep 1}$ctl -x, -o /tmp/perf.csv -- sh -c '$wl'"
note "$cmd"
if [ "$PER" -gt 2 ]; then
	# its two aggregated events need 2 x PER of an XP's 4 DTM counters:
	# perf multiplexes them, and the one manual step lands in one slice
	skip tool/print_perf "$PER HN-Fs on one XP: the metric's two events cannot count at once"
elif eval "$cmd" > /dev/null 2>&1 &&
	v=$(perf_value /tmp/perf.csv "$P0/cache_miss/") && is_uint "$v" &&
	[ "$v" -gt 0 ]; then
	pass tool/print_perf
else
	fail tool/print_perf "perf: $(head -n 3 /tmp/perf.csv 2>/dev/null)"
fi

# ---- per HN-F and the clock, free-running ----
# Intervals: 2, and one more per 8 HN-Fs of the largest PMU. perf rotates
# one group (an HN-F's two events) per mux interval (4 ms): every HN-F
# gets its slice only once the whole list has gone round, which a PMU of
# 67 HN-Fs did not do in two intervals of 400 ms (random:188016413)
want=0
big=0
i=0
while [ $i -lt "$M" ]; do
	h=$(model_info $i hnfs)
	want=$((want + h + 1))
	[ "$h" -le "$big" ] || big=$h
	i=$((i + 1))
done
NI=$((2 + big / 8))
model_clock free constant
cmn-hnf stat --per-hnf --csv -I 400 -n $NI slc_miss_rate > /tmp/hnf.csv 2> /tmp/hnf.err
rc=$?
note "$(cat /tmp/hnf.csv)"
rows=$(grep -c ',slc_miss_rate,' /tmp/hnf.csv)
want=$(((want + 1) * NI))
check_eq tool/per_hnf/rows "$rc:$rows" "0:$want"
# each row that ran (running_pct > 0) is 25 %; a row that did not run in
# its interval has no value (never a guess: an event multiplexed among
# many, 83 HN-Fs on random:587233960, may get no slice in 400 ms); every
# HN-F has a value in at least one interval (a mesh's "all" row needs every
# HN-F's events in one interval: with 83 it may have none)
bad=$(awk -F, 'NR > 1 && $7 == "slc_miss_rate" {
		k = $3 "/" $4
		if ($10 + 0 == 0) {
			if ($8 != "") print k "=" $8 "@0%(guessed)"
			seen[k] += 0
			next
		}
		if ($8 == "" || $8 < 24.99 || $8 > 25.01) print k "=" $8 "@" $10 "%"
		else seen[k] = 1
	}
	END { for (k in seen) if (!seen[k] && k !~ /\/all$/) print k "=never" }' /tmp/hnf.csv)
if [ -z "$bad" ]; then
	pass tool/per_hnf/values
else
	fail tool/per_hnf/values "not 25%: $(echo "$bad" | tr "\n" " " | cut -c1-200)"
fi

# pocq_occupancy over dtc_cycles, two separate events, both always counting,
# over one step of the manual clock: both cover the same cycles, however
# late the guest reads them (on a running clock, a read of one event a few
# ms after the other is a few % off on a loaded host)
model_clock manual
cmn-hnf stat --json pocq_avg_occupancy -- sh -c "echo $N > $CMN_DBG/step" \
	> /tmp/occ.json 2> /tmp/occ.err
model_clock free constant
note "$(cat /tmp/occ.json /tmp/occ.err)"
tail -n 1 /tmp/occ.json > /tmp/last.json
i=0
while [ $i -lt "$M" ]; do
	u=$(json_unit /tmp/last.json "$(lc_pmu $i)")
	near "tool/occupancy/mesh$i" "$(json_val "$u" pocq_avg_occupancy)" \
		$((20 * $(model_info $i hnfs))) 0.02
	i=$((i + 1))
done

# every metric at once: more groups than counters, so perf multiplexes.
# The terms of a ratio share their slices, but the model's clock thread
# moves in 1 ms steps (~2M cycles) that can fall between the start of two
# members of a group: ratios within 5 %. Events the model does not produce
# must read exactly 0 whatever the scheduling. The sample is the last
# interval (after the first) in which every unit's groups all ran: where
# each event fills an XP's DTM (odd-6x5-3dtc: four HN-Fs on one XP) perf
# runs one group per rotation, and on a loaded host a guest CPU may see
# too few rotations in 500 ms to reach every group; an interval in which a
# group never ran has no value for it. No such interval: the last one.
# Intervals: 4, and one more per 16 HN-Fs of the largest PMU (a rotation
# reprograms every HN-F of each event: on random:188016413, 67 HN-Fs on
# one PMU and three PMUs, no interval of four had every group run).
cmn-hnf stat --json -I 500 -n $((4 + big / 16)) all > /tmp/all.json 2> /tmp/all.err
rc=$?
check_eq tool/mux/run "$rc" 0 || note "$(cat /tmp/all.err)"
awk 'NR > 1 {
	ok = 1; s = $0
	while (match(s, /"running_pct":[^,}]*/)) {
		if (substr(s, RSTART + 14, RLENGTH - 14) + 0 <= 0) ok = 0
		s = substr(s, RSTART + RLENGTH)
	}
	if (ok) good = $0
	last = $0
} END { print (good != "" ? good : last) }' /tmp/all.json > /tmp/last.json
note "$(grep -c . /tmp/all.json) intervals; the sample: $(cat /tmp/last.json)"
i=0
while [ $i -lt "$M" ]; do
	u=$(json_unit /tmp/last.json "$(lc_pmu $i)")
	r=$(json_val "$u" running_pct)
	if awk -v r="$r" 'BEGIN { exit !(r > 0 && r < 100) }'; then
		pass "tool/mux/multiplexed/mesh$i"
	else
		fail "tool/mux/multiplexed/mesh$i" "running_pct '$r'"
	fi
	if [ "$PER" -le 2 ]; then
		near "tool/mux/slc_miss_rate/mesh$i" "$(json_val "$u" slc_miss_rate)" 25 0.05
		near "tool/mux/pocq_avg_latency/mesh$i" "$(json_val "$u" pocq_avg_latency)" 20 0.05
	else
		for e in slc_miss_rate pocq_avg_latency; do
			skip "tool/mux/$e/mesh$i" "$PER HN-Fs on one XP: the metric's two events cannot share a group, so they run in different slices"
		done
	fi
	# events the model does not produce (rate 0) must read 0
	for e in sf_hit mc_reqs mc_retries snp_sent pocq_retry qos_hh_retry; do
		check_eq "tool/mux/zero/$e/mesh$i" "$(json_val "$u" $e)" 0
	done
	i=$((i + 1))
done

# the same groups through perf: tells the tool from the driver
cmd=$(cmn-hnf stat --print-perf all | head -n 1)
cmd="${cmd% -- sleep 1} -x, -o /tmp/pmux.csv -- sleep 1"
if ! fits tool/mux/perf_zero; then
	:
elif eval "$cmd" > /dev/null 2>&1; then
	bad=$(awk -F, '$3 ~ /\/(sf_hit|mc_reqs|mc_retries|snp_sent|pocq_retry|qos_hh_retry)\// &&
		$1 != 0 && $1 != "<not counted>" { print $3 "=" $1 }' /tmp/pmux.csv)
	if [ -z "$bad" ]; then
		pass tool/mux/perf_zero
	else
		fail tool/mux/perf_zero "perf reads rate-0 events: $(echo "$bad" | tr '\n' ' ' | cut -c1-200)"
	fi
else
	fail tool/mux/perf_zero "perf failed: $(tail -n 2 /tmp/pmux.csv)"
fi
note "$(cat /tmp/pmux.csv)"

f=$(cat "$CMN_DBG/freq_mhz")
cmn-hnf stat --csv -I 500 -n 2 mesh_clock > /tmp/clk.csv 2>&1
v=$(awk -F, -v p="$P0" '$3 == p && $7 == "mesh_clock" { x = $8 } END { printf "%d", x }' /tmp/clk.csv)
check_range tool/mesh_clock "$v" $((f * 7 / 10)) $((f * 13 / 10))
note "$(cat /tmp/clk.csv)"

# top on the free-running model: every HN-F's occupancy is the rate, 20.
# Only the colouring metric is selected, so that its two events never
# rotate (an estimate over rotated slices is not within 2 %), over 2 s
# intervals. Its two events are separate reads (dtc_cycles is pinned on
# its own): the tool re-reads a sample whose reads spanned more than 0.2 %
# of the interval. Without that, one vCPU descheduled by a loaded host for
# 85 ms between them put one HN-F at 19.16 and then 20.85 (CI, e70ee9a).
cmn-hnf top -b -n 2 -I 2000 -m pocq_avg_occupancy pocq_avg_occupancy > /tmp/top.txt 2> /tmp/top.err
rc=$?
note "$(tail -n 40 /tmp/top.txt)"
note "$(cat /tmp/top.err)"
check_eq tool/top/run "$rc" 0 || note "$(cat /tmp/top.err)"
# --batch draws every mesh's map
n=0
i=0
while [ $i -lt "$M" ]; do
	n=$((n + $(model_info $i hnfs)))
	i=$((i + 1))
done
# (the maps' cells only: what follows a map's last column is not a cell;
# a cell shows its value, with the HN-F's label "H<n>" when it is wide
# enough: count the values)
cells=$(awk '/^cmn-hnf top/ { f++ } f == 2 && /^  y=|^      \|/' /tmp/top.txt |
	sed 's/|[^|]*$/|/' | grep -o '[0-9][0-9]*\.[0-9][0-9]*' | wc -l)
fits tool/top/map_cells && check_eq tool/top/map_cells "$cells" "$n"
# the first of the ranking ("1 m0  H3  0x30 (1,2)  20.05", any mesh), under the
# maps, unless top says its events ran only part of the time ("running
# 27%!": more than one HN-F per XP, whose events cannot all count at once),
# an estimate over rotated slices (random:188016409, four HN-Fs on an XP:
# 20.65)
v=$(awk '/^cmn-hnf top/ { f++ } f == 2 && / 1 m[0-9]+ +H[0-9]+ / { print $NF; exit }' /tmp/top.txt)
run=$(awk '/^cmn-hnf top/ { f++ } f == 2 && /^cmn-hnf top/ && match($0, /running [0-9]+%!/) {
	print substr($0, RSTART, RLENGTH); exit }' /tmp/top.txt)
if [ -n "$run" ]; then
	skip tool/top/ranking "top's events rotated ($run): the ranking is an estimate over time slices"
else
	near tool/top/ranking "$v" 20 0.02
fi

# the command's exit status passes through
cmn-hnf stat slc_miss_rate -- sh -c 'exit 3' > /dev/null 2>&1
check_eq tool/exit_status "$?" 3

cmn-hnf stat -q -I 300 -n 1 --prometheus /tmp/cmn.prom slc_miss_rate
rc=$?
i=0
got=0
while [ $i -lt "$M" ]; do
	pi=$(lc_pmu $i)
	grep -q "^cmn_hnf_mesh_slc_miss_ratio{pmu=\"$pi\",mesh=\"${pi##*_}\"} " \
		/tmp/cmn.prom && got=$((got + 1))
	i=$((i + 1))
done
check_eq tool/prometheus "$rc:$got" "0:$M" || note "$(cat /tmp/cmn.prom)"
model_clock manual

driver_unload
finish
