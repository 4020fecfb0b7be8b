#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make bench, guest side (busybox sh): measures Debian's arm-cmn, then
# arm_cmn_hnf, on the CMN-600 model of this boot, then the register accesses
# of arm_cmn_hnf with its counting build. Prints one line per measurement:
#
#   CMN-BENCH: <figure> <ours|armcmn> <value|n/a>
#   CMN-BENCH-ROUND: <round> <figure> <ours|armcmn> <value|n/a>
#   CMN-BENCH-INFO: <key> <value>
#   CMN-BENCH-NOTE: <text>
#
# The timed figures (read, open/close, enable/disable, rotation, interval
# overhead) are taken in BENCH_ROUNDS rounds, each measuring arm-cmn and then
# arm_cmn_hnf, so that a change of host load hits both drivers alike; the
# table gives their median over the rounds (ROUND lines). Probe time and
# memory, multiplexing accuracy and duty are measured once per driver.
# tools/testing/bench/report.py turns the lines into the table. Nothing here
# asserts a value: a figure that cannot be measured is "n/a" with a note.
# Knobs (from /etc/cmn/bench.conf, written by bench.sh): BENCH_N,
# BENCH_RUNS, BENCH_ROUNDS, BENCH_LOADS, BENCH_SECS, BENCH_ROT_SECS,
# BENCH_ROT_MS, BENCH_MUX_MS, BENCH_DUTY_TERMS, BENCH_STAT_SECS, and
# BENCH_FIGURES, the groups of figures to take (default all of "probe
# timing mux mmio"; "read" takes only the read figures of the timed
# rounds, for a change of the read path).
# What is measured comes from /bench (built by bench.sh from the tree
# being measured), not from the base initramfs.
PATH=/bench/bin:$PATH
export PATH
. /e2e/lib.sh
. /e2e/lib-counts.sh
# shellcheck disable=SC2034 # read by model_load (lib.sh)
CMN_MODEL_KO=/bench/cmn600_model.ko
# shellcheck disable=SC1091
[ -f /etc/cmn/bench.conf ] && . /etc/cmn/bench.conf

N=${BENCH_N:-200}
RUNS=${BENCH_RUNS:-31}
ROUNDS=${BENCH_ROUNDS:-3}
LOADS=${BENCH_LOADS:-3}
SECS=${BENCH_SECS:-10}
ROT_SECS=${BENCH_ROT_SECS:-3}
ROT_MS=${BENCH_ROT_MS:-10}
MUX_MS=${BENCH_MUX_MS:-100}
STAT_SECS=${BENCH_STAT_SECS:-10}
DUTY_TERMS=${BENCH_DUTY_TERMS:-}
FIGURES=${BENCH_FIGURES:-probe timing mux mmio}
OURS_KO=/bench/arm_cmn_hnf.ko
COUNT_KO=/bench/arm_cmn_hnf_count.ko
ACC=/sys/module/arm_cmn_hnf/parameters/mmio_accesses
OP=arm_cmn_hnf_0
AP=arm_cmn_0
TR=/sys/kernel/tracing
# the 16 multiplexed events: every plain HN-F event id but the occupancy one
MUX_EVENTS="1 2 3 4 5 6 7 8 9 10 11 12 13 14 16 17"

fig() { echo "CMN-BENCH: $1 $2 ${3:-n/a}"; }
# rfig FIGURE DRIVER VALUE: a figure of round $ROUND
rfig() { echo "CMN-BENCH-ROUND: $ROUND $1 $2 ${3:-n/a}"; }
# (busybox awk: no "%.*f", build the format as a string)
info() { echo "CMN-BENCH-INFO: $*"; }
bnote() { echo "CMN-BENCH-NOTE: $*"; }

# kv KEY TEXT: the value of KEY=... in TEXT ("n/a" if absent)
kv() { echo "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | grep . || echo n/a; }

# median: of the numbers on stdin (one per line), "n/a" if none
median() {
	sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "n/a" }'
}

# fsub A B: A - B with one decimal, "n/a" when either is n/a
fsub() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "n/a" || b == "n/a") print "n/a"; else printf "%.1f\n", a - b }'
}

# fdiv A B [DIGITS]: A / B as a decimal, "n/a" when either is n/a or B is 0
fdiv() {
	awk -v a="$1" -v b="$2" -v d="${3:-2}" 'BEGIN {
		if (a == "n/a" || b == "n/a" || b + 0 == 0) print "n/a";
		else printf "%." d "f\n", a / b }'
}

# want GROUP: is GROUP (probe, timing, mux, mmio) in BENCH_FIGURES?
want() {
	case " $(echo "$FIGURES" | tr ',' ' ') " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

pmu_of() { if [ "$1" = armcmn ]; then echo $AP; else echo $OP; fi; }

# ev DRIVER EVENTID [NODEID]: the perf event spec of an HN-F event, from
# each driver's own format/ terms (arm-cmn: type=5 is an HN-F event)
ev() {
	if [ "$1" = armcmn ]; then
		_p="$AP/type=5,eventid=$2"
	else
		_p="$OP/eventid=$2"
	fi
	if [ -n "${3-}" ]; then
		_p="$_p,bynodeid=1,nodeid=$3"
		[ "$1" = armcmn ] || [ -z "$DUTY_TERMS" ] || [ -z "${4-}" ] ||
			_p="$_p,$DUTY_TERMS"
	fi
	echo "$_p/"
}

armcmn_ko() {
	find /lib/modules -name 'arm-cmn.ko*' | head -n 1
}

drv_load() {
	case $1 in
	armcmn) insmod "$(armcmn_ko)" ;;
	ours) insmod "$OURS_KO" ;;
	count) insmod "$COUNT_KO" ;;
	esac
}

drv_unload() {
	if [ "$1" = armcmn ]; then rmmod arm_cmn; else rmmod arm_cmn_hnf; fi
}

trace_ready() {
	[ -d "$TR/events" ] || mount -t tracefs nodev "$TR" 2>/dev/null
	[ -d "$TR/events" ]
}

# ---- probe time and memory -------------------------------------------------

meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# med_of KEY FILE: median of the numbers on the "KEY <n>" lines of FILE
med_of() { awk -v k="$1" '$1 == k && $2 != "n/a" { print $2 }' "$2" | median; }

# init_us: duration of the last module init function in the trace
# (initcall_start/initcall_finish events, which also cover module init)
init_us() {
	awk '/initcall_start:/ || /initcall_finish:/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(":", "", t) }
		if (/initcall_start:/) s = t; else if (s != "") d = (t - s) * 1e6
	} END { if (d != "") printf "%.0f\n", d }' "$TR/trace"
}

# kmem_live [OUT]: bytes of slab and kmalloc memory allocated in the trace
# window and not freed in it (kmem tracepoints; %p pointers are hashed, but
# the same object hashes the same within a boot). With OUT, also writes
# there where those bytes come from, one line per allocating function
# ("site <function>[ [module]] <bytes> <objects>") and per task ("comm
# <task> <bytes> <objects>"): call_site as the tracepoint prints it less
# its offset, the task from the trace line's "<comm>-<pid>".
kmem_live() {
	awk -v out="${1:-}" '/ (kmalloc|kmem_cache_alloc): / {
		p = ""; b = 0; cs = "?"
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^ptr=/) p = substr($i, 5)
			if ($i ~ /^bytes_alloc=/) b = substr($i, 13)
			if ($i ~ /^call_site=/) {
				cs = substr($i, 11)
				sub(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, "", cs)
				if ($(i + 1) ~ /^\[.*\]$/) cs = cs " " $(i + 1)
			}
		}
		if (p == "") next
		t = $0
		sub(/^ +/, "", t)
		t = substr(t, 1, index(t, " [") - 1)
		sub(/ +$/, "", t)
		sub(/-[0-9]+$/, "", t)
		live[p] = b; site[p] = cs; comm[p] = t
	}
	/ (kfree|kmem_cache_free): / {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^ptr=/) delete live[substr($i, 5)]
	}
	/LOST [0-9]+ EVENTS/ { lost = 1 }
	END {
		for (p in live) {
			s += live[p]
			sb[site[p]] += live[p]; sn[site[p]]++
			cb[comm[p]] += live[p]; cn[comm[p]]++
		}
		if (out != "") {
			for (k in sb) printf "site %s %d %d\n", k, sb[k], sn[k] > out
			for (k in cb) printf "comm %s %d %d\n", k, cb[k], cn[k] > out
		}
		if (lost) print "n/a"; else printf "%.0f\n", s
	}' "$TR/trace"
}

# kmem_top KIND FILE [N]: the N (8) largest "site" or "comm" lines of a
# kmem_live breakdown, as "<name>=<bytes>/<objects>" on one line (biggest
# first; spaces in names become "_")
kmem_top() {
	awk -v k="$1" '$1 == k { c = $(NF - 1); n = $NF; $1 = ""; $NF = ""; $(NF - 1) = ""
		sub(/^ +/, ""); sub(/ +$/, ""); gsub(/ /, "_")
		print c, $0 "=" c "/" n }' "$2" | sort -rn | head -n "${3:-8}" |
		cut -d' ' -f2 | tr '\n' ' '
}

# events TOGGLE: the initcall and kmem trace events on (1) or off (0)
trace_events() {
	local e
	for e in initcall/initcall_start initcall/initcall_finish kmem/kmalloc \
		kmem/kmem_cache_alloc kmem/kfree kmem/kmem_cache_free; do
		[ -f "$TR/events/$e/enable" ] && echo "$1" > "$TR/events/$e/enable"
	done
}

# kmem_notes DRIVER FILE: notes on where the slab-kB of the median load
# (of the "kmem <bytes>" lines of FILE, load i's breakdown in FILE.kmem<i>)
# comes from: the largest allocating functions and tasks
kmem_notes() {
	local med i
	med=$(med_of kmem "$2")
	i=$(awk -v m="$med" '$1 == "kmem" { n++; if ($2 == m) { print n; exit } }' "$2")
	[ -n "$i" ] && [ -f "$2.kmem$i" ] || return 0
	bnote "slab $1: load $i of $LOADS, $med bytes live; by call site" \
		"(bytes/objects): $(kmem_top site "$2.kmem$i" 12)"
	bnote "slab $1: by task: $(kmem_top comm "$2.kmem$i")"
}

# probe_mem DRIVER: BENCH_LOADS load/unload cycles; medians of the module
# init time (driver registration + probe, initcall trace events), the
# insmod wall time, the slab/kmalloc memory the load left allocated (kmem
# trace events: of every task, and of the insmod task alone) and the
# VmallocUsed delta of /proc/meminfo (the module's own text and data are
# vmalloc memory). Leaves the driver loaded.
probe_mem() {
	local d=$1 p i v0 k f="$LC_TMP/probe.$1" ko out
	p=$(pmu_of "$d")
	case $d in
	armcmn) ko=$(armcmn_ko) ;;
	*) ko=$OURS_KO ;;
	esac
	: > "$f"
	if trace_ready; then
		echo 0 > "$TR/tracing_on"
		echo nop > "$TR/current_tracer"
		echo 8192 > "$TR/buffer_size_kb"
		trace_events 1
	fi
	i=0
	while [ $i -lt "$LOADS" ]; do
		i=$((i + 1))
		sync
		sleep 1
		if [ -d "$TR/events" ]; then
			echo > "$TR/trace"
			echo 1 > "$TR/tracing_on"
		fi
		v0=$(meminfo VmallocUsed)
		if ! out=$(cmn-bench run insmod "$ko" 2>&1) || [ "$(kv rc "$out")" != 0 ]; then
			bnote "$d: load $i failed: $out"
			return 1
		fi
		lc_pmu_wait "$p" || { bnote "$d: no PMU $p after load"; return 1; }
		sleep 1
		[ -d "$TR/events" ] && echo 0 > "$TR/tracing_on"
		echo "insmod $(( $(kv ns "$out") / 1000 ))" >> "$f"
		echo "vmalloc $(( $(meminfo VmallocUsed) - v0 ))" >> "$f"
		if [ -d "$TR/events" ]; then
			echo "init $(init_us)" >> "$f"
			k=$(kmem_live "$f.kmem$i")
			echo "kmem $k" >> "$f"
			# the part the insmod task allocated: the load itself
			[ "$k" = n/a ] || k=$(awk '$1 == "comm" && $2 == "insmod" { b = $3 }
				END { print b + 0 }' "$f.kmem$i")
			echo "kmemins $k" >> "$f"
			[ -n "$(init_us)" ] || bnote "$d: no module init in the trace:" \
				"$(grep -m 3 -e initcall -e LOST "$TR/trace" | tr '\n' ' ')"
		fi
		[ $i -lt "$LOADS" ] && { drv_unload "$d"; sleep 1; }
	done
	if [ -d "$TR/events" ]; then
		trace_events 0
		echo > "$TR/trace"
		echo 1408 > "$TR/buffer_size_kb"
		echo 1 > "$TR/tracing_on"
	fi
	kmem_notes "$d" "$f"
	fig probe-us "$d" "$(med_of init "$f")"
	fig insmod-us "$d" "$(med_of insmod "$f")"
	fig slab-kB "$d" "$(fdiv "$(med_of kmem "$f")" 1024 1)"
	fig slab-insmod-kB "$d" "$(fdiv "$(med_of kmemins "$f")" 1024 1)"
	fig vmalloc-kB "$d" "$(med_of vmalloc "$f")"
	fig module-kB "$d" "$(awk -v m="$(if [ "$d" = armcmn ]; then echo arm_cmn; else echo arm_cmn_hnf; fi)" \
		'$1 == m { printf "%.0f\n", $2 / 1024 }' /proc/modules)"
}

# ---- timing loops ----------------------------------------------------------

# timed_fig FIGURE DRIVER UNIT CMN-BENCH-ARGS...: run cmn-bench, report its
# median per operation in ns (UNIT ns) or us (UNIT us)
timed_fig() {
	local f=$1 d=$2 u=$3 out ns
	shift 3
	if ! out=$(cmn-bench "$@" 2>&1); then
		bnote "$f $d: $(echo "$out" | tail -n 1)"
		rfig "$f-$u" "$d" n/a
		return 1
	fi
	ns=$(kv ns "$out")
	[ "$u" = us ] && ns=$(fdiv "$ns" 1000 1)
	rfig "$f-$u" "$d" "$ns"
	case $(kv running "$out") in
	100.00 | - | n/a) ;;
	*) bnote "$f $d: events ran $(kv running "$out")% of the time (multiplexed)" ;;
	esac
}

timings() {
	local d=$1 n0 few=$((N / 10))
	n0=$(lc_hnfs 0 | head -n 1)
	timed_fig read-agg "$d" ns -n "$N" -r "$RUNS" read "$(ev "$d" 1)"
	timed_fig read-node "$d" ns -n "$N" -r "$RUNS" read "$(ev "$d" 1 "$n0")"
	timed_fig read-group4 "$d" ns -n "$N" -r "$RUNS" -g read \
		"$(ev "$d" 1)" "$(ev "$d" 2)" "$(ev "$d" 3)" "$(ev "$d" 4)"
	timed_fig open-close "$d" us -n "$few" -r "$RUNS" openclose "$(ev "$d" 1)"
	timed_fig enable-disable "$d" us -n "$few" -r "$RUNS" enable "$(ev "$d" 1)"
}

# accesses: the counting build's register reads and writes per operation
accesses() {
	local n0 few=$((N / 10)) f out
	n0=$(lc_hnfs 0 | head -n 1)
	for f in read-agg read-node read-group4 open-close enable-disable; do
		case $f in
		read-agg) set -- -n "$N" read "$(ev ours 1)" ;;
		read-node) set -- -n "$N" read "$(ev ours 1 "$n0")" ;;
		read-group4) set -- -n "$N" -g read "$(ev ours 1)" "$(ev ours 2)" \
			"$(ev ours 3)" "$(ev ours 4)" ;;
		open-close) set -- -n "$few" openclose "$(ev ours 1)" ;;
		enable-disable) set -- -n "$few" enable "$(ev ours 1)" ;;
		esac
		if out=$(cmn-bench -r 3 -A "$ACC" "$@" 2>&1); then
			fig "mmio-rd-$f" ours "$(kv reads "$out")"
			fig "mmio-wr-$f" ours "$(kv writes "$out")"
		else
			bnote "mmio $f: $(echo "$out" | tail -n 1)"
			fig "mmio-rd-$f" ours n/a
			fig "mmio-wr-$f" ours n/a
		fi
	done
	rot_accesses
}

# ---- one multiplexing rotation ---------------------------------------------

# rot_window DRIVER [ACCFILE]: 8 aggregated events (twice what one HN-F per
# XP allows at once) rotating every BENCH_ROT_MS ms, BENCH_ROT_SECS s of
# function_graph tracing of perf_mux_hrtimer_handler (the rotation: del of
# the running events, add of the next ones). Leaves the handler's durations
# in $LC_TMP/rot.us, one per call, and, with ACCFILE (a counting build's
# mmio_accesses), its "reads N writes N" over the traced window in
# $LC_TMP/rot.acc. Returns 1, with a note, where the kernel cannot trace it.
rot_window() {
	local d=$1 acc=${2-} p evs e tries mi
	p=$(pmu_of "$d")
	mi=$(cat "$LC_PMUS/$p/perf_event_mux_interval_ms")
	if ! trace_ready || ! grep -q '^perf_mux_hrtimer_handler$' "$TR/available_filter_functions"; then
		bnote "rotation: no function_graph tracing of perf_mux_hrtimer_handler"
		return 1
	fi
	echo 0 > "$TR/tracing_on"
	echo nop > "$TR/current_tracer"
	echo perf_mux_hrtimer_handler > "$TR/set_ftrace_filter"
	echo function_graph > "$TR/current_tracer"
	echo > "$TR/trace"
	echo "$ROT_MS" > "$LC_PMUS/$p/perf_event_mux_interval_ms"
	evs=
	for e in 1 2 3 4 5 6 7 8; do evs="$evs $(ev "$d" $e)"; done
	# shellcheck disable=SC2086
	cmn-bench -s $((ROT_SECS + 2)) hold $evs > "$LC_TMP/hold.out" 2>&1 &
	tries=50
	while [ $tries -gt 0 ] && ! grep -q READY "$LC_TMP/hold.out"; do
		sleep 0.1
		tries=$((tries - 1))
	done
	sleep 0.5
	[ -n "$acc" ] && echo 0 > "$acc"
	echo 1 > "$TR/tracing_on"
	sleep "$ROT_SECS"
	echo 0 > "$TR/tracing_on"
	[ -n "$acc" ] && tr '\n' ' ' < "$acc" > "$LC_TMP/rot.acc"
	wait
	awk '/perf_mux_hrtimer_handler/ {
		for (i = 1; i < NF; i++) if ($(i + 1) == "us") print $i }' \
		"$TR/trace" > "$LC_TMP/rot.us"
	echo nop > "$TR/current_tracer"
	echo > "$TR/set_ftrace_filter"
	# what follows runs at the PMU's own interval
	echo "$mi" > "$LC_PMUS/$p/perf_event_mux_interval_ms"
}

# rotation DRIVER: the median duration of one rotation
rotation() {
	local d=$1 cnt
	if ! rot_window "$d"; then
		rfig rotation-us "$d" n/a
		return 1
	fi
	cnt=$(wc -l < "$LC_TMP/rot.us")
	rfig rotation-us "$d" "$(median < "$LC_TMP/rot.us")"
	[ "$ROUND" = 1 ] && bnote "rotation $d: $cnt rotations in $ROT_SECS s; running % of the 8 events: $(awk '$2 > 0 { printf "%.0f ", 100 * $3 / $2 }' "$LC_TMP/hold.out")"
}

# rot_accesses: the counting build's register accesses per rotation, over
# the traced window (zeroed and read outside the tracing, so that a
# rotation on the edge can fall in one count and not the other: the error
# is one rotation in the window's hundreds)
rot_accesses() {
	local cnt out
	if ! rot_window ours "$ACC"; then
		fig mmio-rd-rotation ours n/a
		fig mmio-wr-rotation ours n/a
		return 1
	fi
	cnt=$(wc -l < "$LC_TMP/rot.us")
	out=$(cat "$LC_TMP/rot.acc")
	bnote "mmio rotation: $out over $cnt rotations"
	fig mmio-rd-rotation ours "$(fdiv "$(echo "$out" | awk '{ print $2 }')" "$cnt")"
	fig mmio-wr-rotation ours "$(fdiv "$(echo "$out" | awk '{ print $4 }')" "$cnt")"
}

# ---- multiplexing accuracy and per-HN-F duty ------------------------------

# window PMU OUT EVSPECS...: perf stat of the events plus a pinned
# dtc_cycles around a workload that snapshots the truth at its start and end;
# the model runs free. Sets WCYC (cycles counted) and WTC (model cycles
# between the two snapshots).
window() {
	local p=$1 out=$2
	shift 2
	WCYC=n/a WTC=n/a
	echo "free constant" > "$LC_M/clock"
	# shellcheck disable=SC2046 # one -e per spec
	perf stat -x, -a -o "$out.csv" $(for s in "$@"; do printf -- '-e %s ' "$s"; done) \
		-e "$p/dtc_cycles/D" -- sh -c \
		"cmn-perf snap $LC_TMP/s0 0; sleep $SECS; cmn-perf snap $LC_TMP/s1 0" \
		> "$out.stdout" 2>&1
	_rc=$?
	echo manual > "$LC_M/clock"
	[ $_rc -eq 0 ] || { bnote "perf stat on $p: $(tail -n 2 "$out.stdout" | tr '\n' ' ')"; return 1; }
	lc_counts "$out.csv" > "$out.counts"
	WCYC=$(tail -n 1 "$out.counts" | cut -d' ' -f1)
	WTC=$(( $(cat "$LC_TMP/s1.cycles") - $(cat "$LC_TMP/s0.cycles") ))
	is_uint "$WCYC" && [ "$WCYC" -gt 0 ] && [ "$WTC" -gt 0 ]
}

# err_ppm LINE EVENTID NODE: |count - truth| / truth in ppm for line LINE of
# $W.counts (truth over the counting window, see window); prints
# "<ppm|NA> <running pct> <count> <truth>"
err_ppm() {
	local got pct t0 t1 tr dd
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(sed -n "${1}p" "$W.counts") "$2" "$3"
	got=$1 pct=$3
	t0=$(lc_snap_sum "$LC_TMP/s0.truth" "$4" - "$5")
	t1=$(lc_snap_sum "$LC_TMP/s1.truth" "$4" - "$5")
	tr=$(cmn-perf u64 muldiv $((t1 - t0)) "$WCYC" "$WTC")
	case $pct in '' | -) pct=100.00 ;; esac
	if ! is_uint "$got" || [ "$tr" -le 0 ]; then
		echo "NA $pct"
		return
	fi
	dd=$((got > tr ? got - tr : tr - got))
	echo "$(cmn-perf u64 muldiv "$dd" 1000000 "$tr") $pct $got $tr"
}

# summary PREFIX DRIVER FILE: mean and max error (%), mean and min running %
# and the number of events never counted, from "<ppm|NA> <pct>" lines
summary() {
	awk -v pre="$1" -v d="$2" '
		{ n++; r += $2; if (n == 1 || $2 < rmin) rmin = $2 }
		$1 == "NA" { na++; next }
		{ c++; e += $1; if ($1 > emax) emax = $1 }
		END {
			if (c) {
				printf "CMN-BENCH: %s-err-mean-pct %s %.3f\n", pre, d, e / c / 1e4
				printf "CMN-BENCH: %s-err-max-pct %s %.3f\n", pre, d, emax / 1e4
			} else {
				printf "CMN-BENCH: %s-err-mean-pct %s n/a\n", pre, d
				printf "CMN-BENCH: %s-err-max-pct %s n/a\n", pre, d
			}
			printf "CMN-BENCH: %s-running-mean-pct %s %.1f\n", pre, d, n ? r / n : 0
			printf "CMN-BENCH: %s-running-min-pct %s %.1f\n", pre, d, rmin
			printf "CMN-BENCH: %s-not-counted %s %d\n", pre, d, na
		}' "$3"
}

# mux DRIVER: the 16 aggregated events of MUX_EVENTS for SECS seconds at
# constant rates, rotating every MUX_MS ms; each one's error against truth
mux() {
	local d=$1 p evs e i=0 r
	p=$(pmu_of "$d")
	W=$LC_TMP/mux
	evs=
	for e in $MUX_EVENTS; do evs="$evs $(ev "$d" "$e")"; done
	echo "$MUX_MS" > "$LC_PMUS/$p/perf_event_mux_interval_ms"
	# shellcheck disable=SC2086
	if ! window "$p" "$W" $evs; then
		for e in $MUX_EVENTS; do fig "mux-err-pct/$e" "$d" n/a; done
		return 1
	fi
	: > "$W.err"
	for e in $MUX_EVENTS; do
		i=$((i + 1))
		r=$(err_ppm $i "$e" '*')
		echo "$r" >> "$W.err"
		set -- $r
		if [ "$1" = NA ]; then
			fig "mux-err-pct/$e" "$d" n/a
		else
			fig "mux-err-pct/$e" "$d" "$(fdiv "$1" 10000 3)"
		fi
	done
	summary mux "$d" "$W.err"
}

# duty DRIVER: events 1 and 2 with bynodeid on every HN-F at once (ours:
# plus BENCH_DUTY_TERMS), SECS seconds at constant rates
duty() {
	local d=$1 p evs n e i=0
	p=$(pmu_of "$d")
	W=$LC_TMP/duty
	evs=
	for n in $(lc_hnfs 0); do
		for e in 1 2; do evs="$evs $(ev "$d" $e "$n" duty)"; done
	done
	echo "$MUX_MS" > "$LC_PMUS/$p/perf_event_mux_interval_ms"
	# shellcheck disable=SC2086
	if ! window "$p" "$W" $evs; then
		for k in err-mean-pct err-max-pct running-mean-pct running-min-pct not-counted; do
			fig "duty-$k" "$d" n/a
		done
		return 1
	fi
	: > "$W.err"
	for n in $(lc_hnfs 0); do
		for e in 1 2; do
			i=$((i + 1))
			echo "$(err_ppm $i $e "$n") $n/$e" >> "$W.err"
		done
	done
	summary duty "$d" "$W.err"
	# which events are off by more than 1%, and which way
	bnote "duty $d: events off by more than 1% (HN-F/event: count/truth):" \
		"$(awk '$1 != "NA" && $1 > 10000 { printf "%s:%s/%s ", $5, $3, $4 }' "$W.err")"
	info "duty-events-$d $i"
}

# ---- interval counting overhead --------------------------------------------

# cpu_ms CMD...: CPU time over STAT_SECS seconds while CMD runs, after a
# 2 s start (cmn-bench cpu): sets CPU_BUSY, busy time of the whole guest
# (ms per s, all CPUs; /proc/stat, 10 ms units) and CPU_PROC, run time of
# CMD and its children (ms per s; schedstat, ns). n/a if CMD did not last.
cpu_ms() {
	local pid out
	"$@" > "$LC_TMP/cpu.out" 2>&1 &
	pid=$!
	sleep 2
	out=$(cmn-bench -s "$STAT_SECS" cpu $pid 2>&1)
	CPU_BUSY=$(kv busy_ms_per_s "$out")
	CPU_PROC=$(kv proc_ms_per_s "$out")
	if ! kill -INT $pid 2>/dev/null; then
		bnote "cpu: '$*' ended early: $(tail -n 2 "$LC_TMP/cpu.out" | tr '\n' ' ')"
		CPU_BUSY=n/a
		CPU_PROC=n/a
	fi
	sleep 0.5
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
}

# armcmn_spec SPEC: an arm_cmn_hnf event spec in arm_cmn_0's terms (through
# the alias file, eventid/occupid/bynodeid/nodeid; dtc_cycles as is). Needs
# arm_cmn_hnf loaded.
armcmn_spec() {
	local t out='' kv x
	t=${1#*/}
	t=${t%/}
	for x in $(echo "$t" | tr ',' ' '); do
		[ -f "$LC_PMUS/$OP/events/$x" ] && x=$(cat "$LC_PMUS/$OP/events/$x")
		for kv in $(echo "$x" | tr ',' ' '); do
			case $kv in
			type=0x3 | type=3) out=dtc_cycles ;;
			eventid=* | occupid=* | bynodeid=* | nodeid=*) out="$out,$kv" ;;
			esac
		done
	done
	case $out in
	dtc_cycles*) echo "$AP/dtc_cycles/" ;;
	*) echo "$AP/type=5$out/" ;;
	esac
}

# stat_events: STAT_OURS and STAT_ARM, "-e SPEC ..." of the events behind
# `cmn-hnf stat` (its --print-perf command) on each PMU. Needs our PMU.
stat_events() {
	local cmd evs s
	STAT_OURS=
	STAT_ARM=
	command -v cmn-hnf > /dev/null || { bnote "no cmn-hnf in the guest"; return 1; }
	cmd=$(cmn-hnf stat -I 100 --print-perf 2> /dev/null)
	info stat-perf "$cmd"
	evs=$(echo "$cmd" | tr -d "'\"" | tr ' {}' '\n\n\n' | tr ',' '\n' | grep "^$OP/")
	for s in $evs; do
		STAT_OURS="$STAT_OURS -e $s"
		STAT_ARM="$STAT_ARM -e $(armcmn_spec "$s")"
	done
	info stat-events "$(echo "$evs" | grep -c .)"
	[ -n "$STAT_OURS" ]
}

# stat_overhead DRIVER BASE: CPU time per second of `cmn-hnf stat -I 100`
# (ours; arm-cmn has no cmn-hnf, its column is the same perf stat as below)
# and of `perf stat -I 100` on the same events: whole guest minus the idle
# BASE (cpu-ms), and the command's own run time (proc-cpu-ms)
stat_overhead() {
	local d=$1 base=$2 s t sp tp
	if [ "$d" = armcmn ]; then s=$STAT_ARM; else s=$STAT_OURS; fi
	if [ -z "$s" ]; then
		for t in stat-I100 perf-stat-I100; do
			rfig $t-cpu-ms-per-s "$d" n/a
			rfig $t-proc-cpu-ms-per-s "$d" n/a
		done
		return 1
	fi
	[ "$ROUND" = 1 ] && info "stat-mux-interval-ms-$d" \
		"$(cat "$LC_PMUS/$(pmu_of "$d")/perf_event_mux_interval_ms")"
	# shellcheck disable=SC2086
	cpu_ms perf stat -a -I 100 -o /dev/null $s
	s=$(fsub "$CPU_BUSY" "$base")
	sp=$CPU_PROC
	if [ "$d" = armcmn ]; then
		t=$s
		tp=$sp
	else
		cpu_ms cmn-hnf stat -I 100
		t=$(fsub "$CPU_BUSY" "$base")
		tp=$CPU_PROC
	fi
	rfig stat-I100-cpu-ms-per-s "$d" "$t"
	rfig stat-I100-proc-cpu-ms-per-s "$d" "$tp"
	rfig perf-stat-I100-cpu-ms-per-s "$d" "$s"
	rfig perf-stat-I100-proc-cpu-ms-per-s "$d" "$sp"
}

# ---- the run ---------------------------------------------------------------

# loaded DRIVER: load it and wait for its PMU
loaded() {
	drv_load "$1" && lc_pmu_wait "$(pmu_of "$1")" && return 0
	bnote "$1 does not load: $(dmesg | tail -n 2 | tr '\n' ' ')"
	return 1
}

unloaded() {
	grep -q "^$(if [ "$1" = armcmn ]; then echo arm_cmn; else echo arm_cmn_hnf; fi) " \
		/proc/modules && drv_unload "$1"
}

check model_load model_load || finish
echo manual > "$LC_M/clock"
lc_set_rates 0
info hnfs "$(lc_hnfs 0 | wc -l)"
info dtcs "$(model_info 0 dtcs)"
info bynodeid "$(lc_hnfs 0 | head -n 1)"
info kernel "$(uname -r)"
info n "$N"
info runs "$RUNS"
info rounds "$ROUNDS"
info secs "$SECS"
info stat-secs "$STAT_SECS"
info mux-ms "$MUX_MS"
info rot-ms "$ROT_MS"
info duty-terms "${DUTY_TERMS:--}"
info figures "$FIGURES"

# The interval overhead needs the tool's event list, which needs our PMU:
# load it once first just for that.
if want timing && loaded ours; then
	stat_events
	unloaded ours
fi

ok_armcmn=1
ok_ours=1
for d in armcmn ours; do
	want probe || break
	if probe_mem "$d"; then
		unloaded "$d"
	else
		eval "ok_$d=0"
		unloaded "$d"
	fi
done

ROUND=0
want timing || want read || ROUND=$ROUNDS
while [ $ROUND -lt "$ROUNDS" ]; do
	ROUND=$((ROUND + 1))
	if want timing; then
		base=$(kv busy_ms_per_s "$(cmn-bench -s "$STAT_SECS" cpu 2>&1)")
		info "idle-ms-per-s-round$ROUND $base"
	fi
	for d in armcmn ours; do
		loaded "$d" || { eval "ok_$d=0"; continue; }
		timings "$d"
		if want timing; then
			rotation "$d"
			stat_overhead "$d" "$base"
		fi
		unloaded "$d"
	done
done

for d in armcmn ours; do
	want mux || break
	if loaded "$d"; then
		mux "$d"
		duty "$d"
		unloaded "$d"
	else
		eval "ok_$d=0"
	fi
done

if [ $ok_armcmn = 1 ]; then
	pass bench_armcmn
else
	fail bench_armcmn "arm-cmn could not be measured (see the notes)"
fi
if [ $ok_ours = 1 ]; then
	pass bench_ours
else
	fail bench_ours "arm_cmn_hnf could not be measured (see the notes)"
fi

if ! want mmio; then
	:
elif drv_load count && lc_pmu_wait $OP && [ -f "$ACC" ]; then
	accesses
	drv_unload count
	pass bench_accesses
else
	fail bench_accesses "counting build: no $ACC"
fi
finish
