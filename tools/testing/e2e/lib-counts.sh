# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Counting helpers for the end-to-end guest tests (busybox sh). Source it
# after lib.sh (pass, fail, finish, model_load, ...). Every expectation comes from the model's ground truth
# (debugfs), never from a literal.
#
#   lc_pass NAME / lc_fail NAME WHY   result lines (CMN-TEST protocol)
#   lc_hnfs MESH                      HN-F node ids of a mesh (0x-hex)
#   lc_hnfs_per_xp_max MESH           most HN-Fs sharing one XP
#   lc_xp_of MESH NODEID              "x y" of the XP a node id names
#   lc_truth MESH EV [OCC|-] [NODE|*] exact truth sum (u64)
#   lc_cycles MESH                    cycles stepped since load
#   lc_totals MESH PREFIX             copy truth, counted, windowed
#   lc_truth_exact NAME GOT PMU ALIAS NODE T0 T1
#                                     count == truth of the event's HN-Fs
#   lc_counted_hnfs NAME MESH PMU ALIAS NODE K0 K1
#                                     HN-Fs counted == the event's HN-Fs
#   lc_step N                         advance the model by N cycles
#   lc_set_rates MESH                 distinct rate per HN-F, event, class
#   lc_alias PMU NAME                 "eventid occupid type scale" of an alias
#                                     (from the alias list, never sysfs)
#   lc_aliases PMU [MESH]             the list's aliases of PMU on MESH
#   lc_pmu MESH / lc_cmn_pmu MESH     PMU names of a mesh
#   lc_perf_step OUT N EV...          perf stat -x, -a -o OUT -e EV...
#                                     around "echo N > step"
#   lc_counts OUT                     "count unit pct" per event line
#   lc_u64 add|sub|mul|cmp A B        64-bit unsigned arithmetic
#
# Globals: LC_M (model debugfs), LC_FAILS (number of lc_fail calls).

LC_M=/sys/kernel/debug/cmn600_model
LC_PMUS=/sys/bus/event_source/devices
LC_LIST=${LC_LIST:-/e2e/hnf-aliases.list}
LC_TMP=${LC_TMP:-/tmp/lc}
LC_FAILS=0
mkdir -p "$LC_TMP"
export PAGER=cat TERM=dumb

lc_pass() { pass "$1"; }
lc_fail() {
	LC_FAILS=$((LC_FAILS + 1))
	fail "$1" "$(echo "$2" | tr '\n' ' ' | cut -c1-400)"
}

# lc_check NAME COND WHY: pass when the shell condition COND is true
lc_check() {
	if eval "$2"; then lc_pass "$1"; else lc_fail "$1" "$3"; fi
}

lc_u64() { cmn-perf u64 "$@"; }

# Node ids of every HN-F of mesh $1 (as 0x%x), in truth order.
lc_hnfs() {
	awk '!seen[$1]++ { print $1 }' "$LC_M/mesh$1/truth" |
		while read -r id; do
			case $id in 0x*|0X*) ;; *) id=0x$id ;; esac
			printf '0x%x\n' "$((id))"
		done
}

# lc_nodeid B X Y PORT DEV: the node id (0x%x) of that device with B-bit
# coordinates (lc_coord_bits)
lc_nodeid() { printf '0x%x\n' $(( ($2 << (3 + $1)) | ($3 << 3) | ($4 << 2) | $5 )); }

# lc_most: how many times the line seen most often on stdin occurs (0 for
# no input)
lc_most() {
	sort | uniq -c | awk 'BEGIN { m = 0 } $1 > m { m = $1 } END { print m }'
}

# The largest number of HN-Fs on one XP (lc_xp_of).
lc_hnfs_per_xp_max() {
	local __id
	lc_hnfs "$1" | while read -r __id; do lc_xp_of "$1" "$__id"; done | lc_most
}

# lc_hnf_fewest MESH: "Q N", an HN-F N on an XP with the fewest HN-Fs (Q)
lc_hnf_fewest() {
	local __id
	lc_hnfs "$1" | while read -r __id; do echo "$(lc_xp_of "$1" "$__id" | tr ' ' ,) $__id"; done |
		awk '{ n[$1]++; if (!($1 in f)) f[$1] = $2 } END { for (x in n) print n[x], f[x] }' |
		sort -n | head -n 1
}

# lc_field LINE KEY: the value of KEY=<value> in LINE (blank-separated
# KEY=<value> words, as cmn-hostile and the model's race file print them)
lc_field() { echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }
# lc_race_stat MESH KEY: KEY of mesh MESH's race mode (its race file)
lc_race_stat() { lc_field "$(cat "$LC_M/mesh$1/race")" "$2"; }

lc_truth() { cmn-perf truth "$@"; }
lc_cycles() { cat "$LC_M/mesh$1/cycles"; }
# lc_counted_exact NAME GOT ID BEFORE AFTER: an event's count GOT equals
# what the model's hardware counted of source ID (an event id) between two
# copies of a mesh's counted file; a difference is noted against 2^48, one
# period of a global counter over its DTM carries
lc_counted_exact() {
	local __w
	__w=$(lc_u64 sub "$(lc_truth -f "$5" "$3")" "$(lc_truth -f "$4" "$3")")
	if [ "$__w" = 0 ]; then
		fail "$1" "nothing counted: void"
	elif ! check_eq "$1" "$2" "$__w" && is_uint "$2"; then
		note "difference $(lc_u64 sub "$2" "$__w") (2^48 = 281474976710656)"
	fi
}

# lc_totals MESH PREFIX: copy the mesh's truth, counted and windowed files
# (the model's per-HN-F, per-source totals) to PREFIX.truth, PREFIX.counted
# and PREFIX.windowed. Take it with the clock manual (no step running),
# so that the three copies are of one moment.
lc_totals() {
	cp "$LC_M/mesh$1/truth" "$2.truth" &&
		cp "$LC_M/mesh$1/counted" "$2.counted" &&
		cp "$LC_M/mesh$1/windowed" "$2.windowed"
}

# lc_truth_exact NAME GOT PMU ALIAS NODE T0 T1: an event's count GOT equals
# the truth of the HN-Fs the event counts (NODE: its bynodeid node, or "*":
# every HN-F of the mesh) between T0 and T1, two copies of a mesh's truth
# (when the event was enabled all the time between them) or of its
# windowed file (the windows in which the event was programmed, taken
# over every HN-F whether or not the driver programmed it), times the
# alias's scale. The event's encoding is ALIAS's in the alias list, never
# the driver's. Unlike lc_counted_exact it sees an HN-F the driver left
# out, a wrong node, or a wrong event programmed on some HN-F.
lc_truth_exact() {
	local __w
	# shellcheck disable=SC2046 # word splitting wanted
	set -- "$1" "$2" "$5" "$6" "$7" $(lc_alias "$3" "$4")
	if [ $# -ne 9 ] || [ "$8" = 3 ]; then
		fail "$1" "no event alias $4 for $3 in the alias list"
		return 1
	fi
	__w=$(cmn-perf delta "$4" "$5" "$6" "$7" "$3" "$9")
	if [ "$__w" = 0 ]; then
		fail "$1" "the truth did not move: void"
	elif ! check_eq "$1" "$2" "$__w" && is_uint "$2"; then
		note "difference $(lc_u64 sub "$2" "$__w") (2^48 = 281474976710656)"
	fi
}

# lc_counted_hnfs NAME MESH PMU ALIAS NODE K0 K1: the HN-Fs on which the
# model's hardware counted ALIAS's source (encoding from the alias list)
# between K0 and K1, two copies of the mesh's counted file, are exactly the
# HN-Fs the event counts: NODE, or "*": every HN-F of the mesh. Each must
# produce the source meanwhile (a rate), or the check cannot see it.
lc_counted_hnfs() {
	local __want __got
	# shellcheck disable=SC2046 # word splitting wanted
	set -- "$1" "$2" "$5" "$6" "$7" $(lc_alias "$3" "$4")
	if [ $# -ne 9 ] || [ "$8" = 3 ]; then
		fail "$1" "no event alias $4 for $3 in the alias list"
		return 1
	fi
	if [ "$3" = "*" ]; then
		__want=$(lc_hnfs "$2" | sort | tr '\n' ' ')
	else
		__want="$(printf '0x%x' "$(($3))") "
	fi
	# a node's line for the source (class OCCUPID of 0x0f, "-": 0)
	__got=$(awk -v ev="$(printf '0x%02x' "$6")" -v oc="$7" '
		BEGIN { if (oc == "-") oc = (ev == "0x0f" ? 0 : "-") }
		$2 != ev || $3 != oc { next }
		FNR == NR { v[$1] = $4 ""; next }
		($1 in v) && $4 "" != v[$1] { print $1 }' "$4" "$5" | sort | tr '\n' ' ')
	check_eq "$1" "$__got" "$__want"
}

# lc_flags_set FILE: from a copy of a mesh's counters file, the DTCs whose
# overflow flags read set, as "<lid>:pmovsr=0x<bits>" words, or "none";
# "no-dtc" when FILE has no DTC line
lc_flags_set() {
	grep -q '^dtc ' "$1" || { echo no-dtc; return; }
	awk '$1 == "dtc" { for (i = 3; i <= NF; i++) if ($i ~ /^pmovsr=/ && $i != "pmovsr=0x0") { printf "%s%s:%s", n++ ? " " : "", $2, $i } }
		END { if (!n) print "none"; else print "" }' "$1"
}
lc_step() { echo "$1" > "$LC_M/step"; }
lc_nmeshes() { find "$LC_M" -maxdepth 1 -name "mesh[0-9]*" | wc -l; }

# lc_rate MESH "node=... event=... rate=..."
lc_rate() { echo "$2" > "$LC_M/mesh$1/rate"; }

# lc_fast_event MESH PMU: every other source of MESH stopped, sf_evictions
# (from the alias list) at 4294967295 events per 1000 cycles on every HN-F
# and the clock at 100 GHz: its global counter goes round (2^48 events) in
# 0.66 ms with one HN-F, less with more, so every 1 ms tick of the free
# clock wraps it. Sets AL (the alias) and EV (its event id).
lc_fast_event() {
	lc_set_rates "$1"
	AL=sf_evictions
	EV=$(lc_alias "$2" $AL | cut -d' ' -f1)
	lc_rate "$1" "node=* event=$EV rate=4294967295"
	echo 100000 > "$LC_M/freq_mhz"
}

# A distinct rate (events per 1000 cycles) for every HN-F, event and
# occupancy class, so that a count credited to the wrong node, event or
# class cannot match the truth by accident. $2 (optional) multiplies.
lc_set_rates() {
	local __m __k __i __n __e __c
	__m=$1 __k=${2:-1} __i=0
	for __n in $(lc_hnfs "$__m"); do
		__e=1
		while [ $__e -le 31 ]; do
			if [ $__e -eq 15 ]; then
				for __c in 0 1 2 3 4; do
					lc_rate "$__m" "node=$__n event=$__e occupid=$__c rate=$(( (500 + 37 * __e + 101 * __i + 13 * __c) * __k ))"
				done
			else
				lc_rate "$__m" "node=$__n event=$__e rate=$(( (500 + 37 * __e + 101 * __i) * __k ))"
			fi
			__e=$((__e + 1))
		done
		__i=$((__i + 1))
	done
}

# ---- the tests' own alias list (/e2e/hnf-aliases.list) ---------------------
# Encodings, scales and units always come from this list (written from the
# hardware facts), never from the driver's sysfs.

# lc_kind PMU: "hnf" for arm_cmn_hnf*, "cmn" for the stock arm_cmn_*
lc_kind() {
	case $1 in arm_cmn_hnf*) echo hnf ;; *) echo cmn ;; esac
}

# lc_rev_num REV: r1p0 -> 0 ... r3p1 -> 6 (CMN-600 revisions)
lc_rev_num() {
	case $1 in
	r1p0) echo 0 ;; r1p1) echo 1 ;; r1p2) echo 2 ;; r1p3) echo 3 ;;
	r2p0) echo 4 ;; r3p0) echo 5 ;; r3p1) echo 6 ;; *) echo -1 ;;
	esac
}

# lc_mesh_rev MESH: the mesh's revision in the resolved mesh file
# (the format's default r1p2 when absent)
lc_mesh_rev() {
	local __r
	__r=$(mesh_opt "$1" rev)
	echo "${__r:-r1p2}"
}

# lc_list KIND [MESH]: "name event occupid scale unit" of every alias of the
# list for KIND (hnf|cmn) that a mesh of MESH's revision has (default: 0)
lc_list() {
	awk -v kind="$1" -v rev="$(lc_rev_num "$(lc_mesh_rev "${2:-0}")")" '
		BEGIN { split("r1p0 r1p1 r1p2 r1p3 r2p0 r3p0 r3p1", r, " ")
			for (i = 1; i <= 7; i++) num[r[i]] = i - 1 }
		/^[ \t]*(#|$)/ || NF != 7 { next }
		$1 != kind && $1 != "both" { next }
		$7 != "-" && rev < num[$7] { next }
		{ print $2, $3, $4, $5, $6 }' "$LC_LIST"
}

# lc_alias PMU NAME -> "eventid occupid type scale" from the list (decimal;
# occupid "-" when the alias has none; type 3 for the cycle counter, else
# "-"; scale 1 when none). Fails for a name the list does not have.
lc_alias() {
	local __l
	__l=$(awk -v kind="$(lc_kind "$1")" -v name="$2" '
		/^[ \t]*(#|$)/ || NF != 7 { next }
		($1 == kind || $1 == "both") && $2 == name {
			print $3, $4, ($5 == "-" ? 1 : $5); exit
		}' "$LC_LIST")
	[ -n "$__l" ] || return 1
	# shellcheck disable=SC2086 # word splitting wanted
	set -- $__l
	if [ "$1" = cycles ]; then
		echo "- - 3 $3"
	else
		echo "$(($1)) $2 - $3"
	fi
}

# lc_aliases PMU [MESH]: every alias the list gives PMU on MESH (default 0)
lc_aliases() { lc_list "$(lc_kind "$1")" "${2:-0}" | cut -d' ' -f1; }

# lc_pmu MESH: our PMU of mesh MESH (Documentation/arm_cmn_hnf.rst: ACPI
# _UID, DT index in address order), from the resolved mesh file
lc_pmu() {
	local __i=0 __n=0 __b __mb
	if [ "${CMN_FW:-dt}" = acpi ]; then
		echo "arm_cmn_hnf_$(mesh_opt "$1" uid)"
		return
	fi
	__mb=$(($(mesh_opt "$1" base)))
	while [ $__i -lt "$(mesh_count)" ]; do
		__b=$(($(mesh_opt $__i base)))
		[ "$__b" -lt "$__mb" ] && __n=$((__n + 1))
		__i=$((__i + 1))
	done
	echo "arm_cmn_hnf_$__n"
}

# lc_cmn_pmu MESH: the stock arm-cmn's PMU of mesh MESH (arm_cmn_<n>, n in
# probe order, which is the order of the meshes in the firmware)
lc_cmn_pmu() { echo "arm_cmn_$1"; }

# lc_perf_late_enable: 0 if this perf enables system-wide counters only
# after it has started the workload (perf 5.10: builtin-stat.c:879-880
# calls perf_evlist__start_workload() before enable_counters(); 6.1 and
# later enable first), so a short workload can run before anything counts.
# Asked once per script (LC_LATE): perf takes a third of a second to start
# in the guest, and every step asks.
lc_perf_late_enable() {
	if [ -z "${LC_LATE:-}" ]; then
		case $(perf --version 2>/dev/null) in
		"perf version "[1-5].*) LC_LATE=0 ;;
		*) LC_LATE=1 ;;
		esac
	fi
	return "$LC_LATE"
}

# lc_perf_step OUT N EV...: perf stat -x, -a into OUT while stepping N
# cycles (LC_PERF_TARGET: other target options than -a, such as "-a -A"
# or "-C 1"), perf's stdout and stderr into OUT.stdout. Returns perf's
# status. With a perf that enables late
# (lc_perf_late_enable), the events start disabled (-D -1) and the workload
# enables them through perf's control FIFO and waits for the ack before it
# steps the model.
lc_perf_step() {
	local __out __n __args __e
	__out=$1 __n=$2
	shift 2
	__args=
	if [ "${LC_GROUP:-0}" = 1 ]; then
		__args="-e {$(echo "$*" | tr ' ' ',')}"
	else
		for __e in "$@"; do __args="$__args -e $__e"; done
	fi
	if lc_perf_late_enable; then
		rm -f "$LC_TMP/perf.ctl" "$LC_TMP/perf.ack"
		mkfifo "$LC_TMP/perf.ctl" "$LC_TMP/perf.ack" || return 1
		# shellcheck disable=SC2086
		perf stat -x, ${LC_PERF_TARGET:--a} -D -1 \
			--control "fifo:$LC_TMP/perf.ctl,$LC_TMP/perf.ack" \
			-o "$__out" $__args -- sh -c "echo enable > $LC_TMP/perf.ctl &&
				read -r _ < $LC_TMP/perf.ack && echo $__n > $LC_M/step" \
			> "$__out.stdout" 2>&1
		return
	fi
	# LC_STEP_SCRIPT: a shell script to run under perf instead of one step
	# shellcheck disable=SC2086
	perf stat -x, ${LC_PERF_TARGET:--a} -o "$__out" $__args -- \
		sh -c "${LC_STEP_SCRIPT:-echo $__n > $LC_M/step}" > "$__out.stdout" 2>&1
}

# lc_counts OUT: one "count unit pct" line per counted event line of a
# perf stat -x, file (perf 6.1 order: count,unit,event,runtime,pct,...).
# The event name may itself contain commas (pmu/ev,bynodeid=1,nodeid=X/):
# it runs from field 3 to the first field that ends with '/' (when field 3
# contains a '/'). A "<not counted>" or "<not supported>" count prints "NA"
# and returns 1.
lc_counts() {
	awk -F, '
		/^#/ || NF < 3 { next }
		{
			c = $1; u = ($2 == "" ? "-" : $2); i = 3
			if (index($3, "/") && $3 !~ /\/$/)
				while (i < NF && $i !~ /\/$/) i++
			p = $(i + 2); if (p == "") p = "-"
			if (c ~ /^<not/ || c == "") { print "NA " u " " p; bad = 1; next }
			print c " " u " " p
		}
		END { exit bad }' "$1"
}

# lc_count1 OUT: the single count of OUT, or fail (prints the reason).
lc_count1() {
	local __c
	__c=$(lc_counts "$1") || { echo "not counted: $(head -c 300 "$1" | tr '\n' ' ')"; return 1; }
	[ "$(echo "$__c" | wc -l)" -eq 1 ] || { echo "expected one count line, got: $__c"; return 1; }
	set -- $__c
	case $3 in 100.00|-) ;; *) echo "multiplexed ($3%)"; return 1 ;; esac
	echo "$1"
}

# lc_snap MESH FILE: save the whole truth of a mesh (for before/after).
lc_snap() { cp "$LC_M/mesh$1/truth" "$2"; }

# lc_snap_sum FILE EVENTID OCCUPID NODE: truth sum from a snapshot file.
# Event 0x0f has one truth line per occupancy class: an alias with occupid
# c (no occupid: 0, "all") counts class c's line; if the model has no line
# for class 0, "all" is the sum of the classes.
lc_snap_sum() {
	local __ev=$2 __oc=$3 __nd=$4
	if [ "$__ev" -eq 15 ]; then
		[ "$__oc" != - ] || __oc=0
		cmn-perf truth -f "$1" "$__ev" "$__oc" "$__nd" 2>/dev/null ||
			{ [ "$__oc" -eq 0 ] && cmn-perf truth -f "$1" "$__ev" all "$__nd"; }
	else
		cmn-perf truth -f "$1" "$__ev" all "$__nd"
	fi
}

# lc_pmu_cpu PMU: the CPU in the PMU's cpumask
lc_pmu_cpu() { cut -d, -f1 < "$LC_PMUS/$1/cpumask" | cut -d- -f1; }

# ---------------------------------------------------------------------------
# Checks built on the helpers above. Each prints CMN-TEST lines.

# lc_expect_count NAME OUT TRUTH [SCALE]: the single count in perf output
# OUT must equal TRUTH * SCALE (and TRUTH must be non-zero, so that a dead
# counter cannot pass).
lc_expect_count() {
	local __name __want __scale __got
	__name=$1 __want=$3 __scale=${4:-1}
	__got=$(lc_count1 "$2") || { lc_fail "$__name" "$__got"; return 1; }
	[ "$__want" != 0 ] || { lc_fail "$__name" "truth delta is 0: the model produced nothing, test is void"; return 1; }
	__want=$(lc_u64 mul "$__want" "$__scale")
	if [ "$__got" = "$__want" ]; then
		lc_pass "$__name"
	else
		lc_fail "$__name" "count $__got, truth $__want"
		return 1
	fi
}

# lc_batch_check PREFIX PMU MESH N EVSPEC|ALIAS|NODE...: count several
# events in one perf stat around one step of N cycles; each item is
# "perf-event-spec|alias-name|nodeid-or-*" and its result line is named
# PREFIX/<alias>[@<nodeid>]. Exact: count == truth delta (x .scale).
# LC_GROUP=1: the events form one group (-e '{a,b,...}'). LC_NAME=<name>:
# the result line's whole name (for a batch of one).
# LC_PREDICT=<function>: a known bug of the stock arm-cmn; the count must
# equal what the function predicts, called as
#   <function> TRUTH-DELTA T0-SNAPSHOT T1-SNAPSHOT EVENTID OCCUPID NODE
# (the lc_armcmn_pred_* functions below; both values are printed as a note).
lc_batch_check() {
	local __pre __pmu __m __n __out __c0 __c1 __specs __it __prc __i __rest __al __nd __nm
	local __got __unit __pct __ev __oc __ty __want __a __b __sc
	__pre=$1 __pmu=$2 __m=$3 __n=$4
	shift 4
	__out=$LC_TMP/batch.csv
	lc_snap "$__m" "$LC_TMP/t0"
	__c0=$(lc_cycles "$__m")
	__specs=
	for __it in "$@"; do __specs="$__specs ${__it%%|*}"; done
	# shellcheck disable=SC2086
	lc_perf_step "$__out" "$__n" $__specs
	__prc=$?
	lc_snap "$__m" "$LC_TMP/t1"
	__c1=$(lc_cycles "$__m")
	lc_counts "$__out" > "$LC_TMP/batch.counts"
	# the counts in item order, one line each (read without a fork)
	exec 7< "$LC_TMP/batch.counts"
	__i=0
	for __it in "$@"; do
		__i=$((__i + 1))
		__rest=${__it#*|}
		__al=${__rest%%|*}
		__nd=${__rest#*|}
		__nm="$__pre/$__al"
		[ "$__nd" = "*" ] || __nm="$__nm@$__nd"
		# LC_NAME: the whole result name (single-item batches)
		[ -z "${LC_NAME:-}" ] || __nm=$LC_NAME
		if [ $__prc -ne 0 ]; then
			lc_fail "$__nm" "perf stat rc=$__prc: $(tail -n 3 "$__out.stdout" "$__out" 2>/dev/null | tr '\n' ' ')"
			continue
		fi
		__got='' __unit='' __pct=''
		read -r __got __unit __pct <&7
		__got=${__got:-NA} __unit=${__unit:--} __pct=${__pct:--}
		case $__got in NA)
			# not counted: right only where a known bug predicts it
			# (the predictor, given NA, prints NA or not)
			if [ -n "${LC_PREDICT:-}" ] &&
			   [ "$("$LC_PREDICT" NA "$LC_TMP/t0" "$LC_TMP/t1" - - "$__nd")" = NA ]; then
				note "$__nm: not counted, as $LC_PREDICT predicts"
				lc_pass "$__nm"
			else
				lc_fail "$__nm" "not counted: $(grep -v '^#' "$__out" | sed -n "${__i}p")"
			fi
			continue ;;
		esac
		case $__pct in 100.00|-) ;; *) lc_fail "$__nm" "multiplexed ($__pct%), count $__got"; continue ;; esac
		# shellcheck disable=SC2046 # word splitting wanted
		set -- $(lc_alias "$__pmu" "$__al")
		__ev=$1 __oc=$2 __ty=$3 __sc=$4
		if [ -z "$__ty" ]; then
			lc_fail "$__nm" "$__al is not in the alias list for $__pmu"
			continue
		fi
		# the truth of the step, times the alias's scale
		if [ "$__ty" = 3 ]; then
			__want=$(lc_u64 mul "$(lc_u64 sub "$__c1" "$__c0")" "$__sc")
		else
			__want=$(cmn-perf delta "$LC_TMP/t0" "$LC_TMP/t1" "$__ev" "$__oc" "$__nd" "$__sc")
		fi
		if [ "$__want" = 0 ]; then
			lc_fail "$__nm" "truth delta is 0 (model produced no events): void"
		elif [ -n "${LC_PREDICT:-}" ]; then
			# a known bug: the count must be the predicted wrong value
			__a=$("$LC_PREDICT" "$__want" "$LC_TMP/t0" "$LC_TMP/t1" "$__ev" "$__oc" "$__nd")
			note "$__nm: counted $__got, truth $__want, predicted by $LC_PREDICT: $__a"
			if [ "$__got" = "$__a" ] && [ "$__a" != "$__want" ]; then
				lc_pass "$__nm"
			elif [ "$__a" = "$__want" ]; then
				lc_fail "$__nm" "the prediction equals the truth ($__a): the case shows no bug"
			else
				lc_fail "$__nm" "count $__got, predicted $__a ($LC_PREDICT), truth $__want"
			fi
		elif [ "$__got" = "$__want" ]; then
			lc_pass "$__nm"
		else
			lc_fail "$__nm" "count $__got, truth $__want (x$__sc)"
		fi
	done
	exec 7<&-
}

# lc_all_aliases PREFIX PMU MESH N: every alias of PMU, aggregated over all
# HN-Fs, exact. Each perf run takes as many events as one XP's four DTM
# counters allow, at most one of them an occupancy alias (one filter per
# HN-F); the cycles alias (the DTC's own counter) rides along in the first
# run. Fewer runs: perf's start alone takes 0.3 s in the emulated guest.
lc_all_aliases() {
	local __pre __pmu __m __n __per __k __norm __occ __cyc __batch __nb __al __it
	__pre=$1 __pmu=$2 __m=$3 __n=$4
	__per=$(lc_hnfs_per_xp_max "$__m")
	[ "$__per" -ge 1 ] || __per=1
	__k=$((4 / __per))
	[ $__k -ge 1 ] || __k=1
	__norm='' __occ='' __cyc=''
	for __al in $(lc_aliases "$__pmu" "$__m"); do
		# shellcheck disable=SC2046 # word splitting wanted
		set -- $(lc_alias "$__pmu" "$__al")
		__it="$__pmu/$__al/|$__al|*"
		if [ "$3" = 3 ]; then
			__cyc="$__cyc $__it"
		elif [ "$1" = 15 ]; then
			__occ="$__occ $__it"
		else
			__norm="$__norm $__it"
		fi
	done
	while [ -n "$__norm$__occ$__cyc" ]; do
		__batch=$__cyc __nb=0 __cyc=''
		if [ -n "$__occ" ]; then
			# shellcheck disable=SC2086 # one word per alias
			set -- $__occ
			__batch="$__batch $1" __nb=1
			shift
			__occ=$*
		fi
		# shellcheck disable=SC2086 # one word per alias
		set -- $__norm
		while [ $# -gt 0 ] && [ $__nb -lt $__k ]; do
			__batch="$__batch $1" __nb=$((__nb + 1))
			shift
		done
		__norm=$*
		# shellcheck disable=SC2086
		lc_batch_check "$__pre" "$__pmu" "$__m" "$__n" $__batch
	done
}

# lc_per_node PREFIX PMU MESH N ALIAS [NODES]: ALIAS with bynodeid=1 on
# every HN-F (or the given ones), up to 8 per perf run (one global counter
# each).
lc_per_node() {
	local __pre __pmu __m __n __al __nodes __batch __nb __nd
	__pre=$1 __pmu=$2 __m=$3 __n=$4 __al=$5
	__nodes=${6:-$(lc_hnfs "$__m")}
	__batch='' __nb=0
	for __nd in $__nodes; do
		__batch="$__batch $__pmu/$__al,bynodeid=1,nodeid=$__nd/|$__al|$__nd"
		__nb=$((__nb + 1))
		if [ $__nb -ge 4 ]; then
			# shellcheck disable=SC2086
			lc_batch_check "$__pre" "$__pmu" "$__m" "$__n" $__batch
			__batch='' __nb=0
		fi
	done
	# shellcheck disable=SC2086
	[ -z "$__batch" ] || lc_batch_check "$__pre" "$__pmu" "$__m" "$__n" $__batch
}

# lc_pack [MAX]: stdin has one item per line, "XPKEY OCCKEY ITEM"; prints
# the items in perf runs, one run per line, each run with at most MAX items
# (default 8: a DTC's global counters), at most 4 items per XPKEY (the
# XP's DTM counters) and no two items with the same OCCKEY unless it is "-"
# (one occupancy filter per HN-F). Items keep their order within a run.
lc_pack() {
	awk -v max="${1:-8}" '
		{ xp[NR] = $1; oc[NR] = $2; it[NR] = $3; n = NR }
		END {
			left = n
			while (left > 0) {
				delete used; delete occ; cnt = 0; line = ""
				for (i = 1; i <= n; i++) {
					if (done[i] || cnt >= max || used[xp[i]] >= 4) continue
					if (oc[i] != "-" && (oc[i] in occ)) continue
					used[xp[i]]++
					if (oc[i] != "-") occ[oc[i]] = 1
					cnt++; done[i] = 1; left--
					line = line " " it[i]
				}
				print substr(line, 2)
			}
		}'
}

# lc_per_node_all PREFIX PMU MESH N: every event (one alias per encoding of
# the list) and every occupancy class (one alias per class) with bynodeid=1
# on every HN-F, exact; packed into as few perf runs as the counters allow.
# Result lines PREFIX/<alias>@<nodeid>.
lc_per_node_all() {
	local __pre=$1 __pmu=$2 __m=$3 __n=$4 __run __nd __al __oc __ok __xp
	lc_list "$(lc_kind "$__pmu")" "$__m" | awk '
		$2 == "cycles" { next }
		$2 == "0x0f" { if (!(("c" $3) in seen)) { seen["c" $3] = 1; print $1, $3 } next }
		!($2 in seen) { seen[$2] = 1; print $1, "-" }' > "$LC_TMP/pna.aliases"
	for __nd in $(lc_hnfs "$__m"); do
		__xp=$(lc_xp_of "$__m" "$__nd" | tr ' ' ,)
		while read -r __al __oc; do
			if [ "$__oc" = - ]; then __ok=-; else __ok=$__nd; fi
			echo "$__xp $__ok $__pmu/$__al,bynodeid=1,nodeid=$__nd/|$__al|$__nd"
		done < "$LC_TMP/pna.aliases"
	done | lc_pack 8 > "$LC_TMP/pna.runs"
	while read -r __run; do
		# shellcheck disable=SC2086 # word splitting wanted
		lc_batch_check "$__pre" "$__pmu" "$__m" "$__n" $__run
	done < "$LC_TMP/pna.runs"
}

# ---- the stock arm-cmn's known bugs: what it counts instead --------------
# (shared reference 1.5, 2.6, 2.7; reused by 20-armcmn-crosscheck.sh and
# 36-hnf-faults.sh)

# lc_armcmn_pred_zero TRUTH ...: an HN-F that arm-cmn attributes to the
# wrong XP (node id decoded with too few coordinate bits, or a node id that
# does not match the XP it hangs off): arm-cmn programs the DTM of that
# other XP to count port p, device d, slot k, where no device has event slot
# k programmed, so it counts 0.
lc_armcmn_pred_zero() { echo 0; }

# lc_armcmn_pred_good TRUTH T0 T1 EVENTID OCCUPID '*': aggregated count on a
# mesh where arm-cmn misplaces some HN-Fs: the truth of the other HN-Fs
# (LC_ARMCMN_BAD: the misplaced node ids), each misplaced one adding 0;
# NA (perf: "<not counted>") where the event needs more than the four
# counters of one DTM (lc_armcmn_dtm_load). Given TRUTH NA (the count was
# not counted), it prints only NA or "counted".
lc_armcmn_pred_good() {
	local __s=0 __nd __a __b
	if [ "$(lc_armcmn_dtm_load "${LC_ARMCMN_MESH:-0}")" -gt 4 ]; then
		echo NA
		return
	fi
	if [ "$1" = NA ]; then
		echo counted
		return
	fi
	for __nd in $(lc_hnfs "${LC_ARMCMN_MESH:-0}"); do
		case " $LC_ARMCMN_BAD " in *" $__nd "*) continue ;; esac
		__a=$(lc_snap_sum "$2" "$4" "$5" "$__nd")
		__b=$(lc_snap_sum "$3" "$4" "$5" "$__nd")
		__s=$(lc_u64 add "$__s" "$(lc_u64 sub "$__b" "$__a")")
	done
	echo "$__s"
}

# lc_armcmn_pred_lost_carries TRUTH ...: bynodeid on an HN-F whose XP hosts
# DTC n > 0 (CMN-600, several DTCs): arm-cmn pairs the node's 16-bit local
# counter with a global counter it never claimed nor reads, so only the
# local counter's own movement is counted:
#   count = TRUTH - 65536 * floor((L0 + TRUTH) / 65536)   (mod 2^64)
# where L0 (LC_ARMCMN_L0) is the local counter's value when the event was
# added (lc_dtm_counter before the run). When the local counter ends below
# L0 that count is "negative", just under 2^64, and perf stat prints it
# through a double (count * .scale, "%.0f"; tools/perf/util/stat-display.c),
# so the value predicted is that double (cmn-perf u64 perf), as perf must
# print it.
lc_armcmn_pred_lost_carries() {
	local __carries=$(( (LC_ARMCMN_L0 + $1) / 65536 ))
	lc_u64 perf "$(lc_u64 sub "$1" "$(lc_u64 mul "$__carries" 65536)")"
}

# lc_dtm_counter MESH X Y K: the 16-bit local counter K of the DTM of XP
# (X,Y), read through /dev/mem at the CMN-600 address of the XP's register
# block (internals.rst, address rule) + 0x2220 (por_dtm_pmevcnt)
lc_dtm_counter() {
	local __b __a
	__b=$(lc_coord_bits "$1")
	__a=$(( $(mesh_opt "$1" base) + (((($2 << __b) | $3)) << 20) + 0x2220 ))
	echo $(( ($(devmem "$__a" 64) >> (16 * $4)) & 0xffff ))
}

# ---- CPUs ------------------------------------------------------------------

# lc_cpu_online CPU: CPU is in /sys/devices/system/cpu/online (a CPU that
# does not exist is not online)
lc_cpu_online() {
	local __r __lo __hi
	is_uint "$1" || return 1
	for __r in $(tr ',' ' ' < /sys/devices/system/cpu/online); do
		__lo=${__r%-*}
		__hi=${__r#*-}
		[ "$1" -ge "$__lo" ] && [ "$1" -le "$__hi" ] && return 0
	done
	return 1
}

# lc_other_cpu CPU: an online CPU other than CPU (status 1 if there is none)
lc_other_cpu() {
	local __c
	for __c in /sys/devices/system/cpu/cpu[0-9]*; do
		__c=${__c##*/cpu}
		if [ "$__c" != "$1" ] && lc_cpu_online "$__c"; then
			echo "$__c"
			return 0
		fi
	done
	return 1
}

# lc_model_up [FAULT]: (re)insert the model (with fault=FAULT) and load the
# boot's mesh file (/etc/cmn/mesh). Drivers must not be bound yet.
lc_model_up() {
	local __f=${1:-}
	grep -q '^arm_cmn_hnf ' /proc/modules && rmmod arm_cmn_hnf
	grep -q '^arm_cmn ' /proc/modules && rmmod arm_cmn
	grep -q '^cmn600_model ' /proc/modules && rmmod cmn600_model
	model_load "$__f"
}

# lc_pmu_wait NAME: wait up to 2 s for the PMU to appear
lc_pmu_wait() {
	local __i=0
	while [ $__i -lt 20 ]; do
		[ -d "$LC_PMUS/$1" ] && return 0
		sleep 0.1
		__i=$((__i + 1))
	done
	return 1
}

# lc_info MESH FIELD: a field of meshN/info (x y rev nodes hnfs dtcs base
# size root)
lc_info() {
	local __i=0 __w
	for __w in x y rev nodes hnfs dtcs base size root; do
		__i=$((__i + 1))
		[ "$__w" = "$2" ] && { cut -d' ' -f$__i < "$LC_M/mesh$1/info"; return 0; }
	done
	return 1
}

# lc_coord_bits MESH: CMN-600 node id coordinate width (2 if both
# dimensions are <= 4, else 3)
lc_coord_bits() {
	if [ "$(lc_info "$1" x)" -le 4 ] && [ "$(lc_info "$1" y)" -le 4 ]; then
		echo 2
	else
		echo 3
	fi
}

# lc_xp_of MESH NODEID: "x y" of the node's XP (CMN-600 node id rule: the
# low three bits are port and device, above them Y, then X, each
# lc_coord_bits wide). The one place the tests derive an XP from a node id.
lc_xp_of() {
	local __b
	__b=$(lc_coord_bits "$1")
	echo "$(( $2 >> (3 + __b) )) $(( ($2 >> 3) & ((1 << __b) - 1) ))"
}

# lc_dtc_xps MESH: "x y lid" of every DTC of mesh MESH, from the resolved
# mesh file the boot loaded (/etc/cmn/mesh).
lc_dtc_xps() {
	awk -v want="$1" '
		/^[ \t]*#/ { next }
		$1 == "mesh" { m++; next }
		m - 1 == want && $1 == "node" && $2 == "dtc" {
			lid = -1
			for (i = 7; i <= NF; i++)
				if ($i ~ /^lid=/) { lid = substr($i, 5) }
			print $3, $4, lid
		}' /etc/cmn/mesh |
	awk '{ if ($3 < 0) $3 = n; n++; print }'
}

# lc_hnf_domains MESH: "nodeid domain on_dtc_xp" for every HN-F of mesh MESH
# from the resolved mesh file: the DTC domain of its XP (the DTC on the XP,
# else a domain line, else the node's domain=, else 0) and 1 when its XP
# hosts a DTC with lid > 0
lc_hnf_domains() {
	awk -v want="$1" -v b="$(lc_coord_bits "$1")" '
		/^[ \t]*#/ { next }
		{ sub(/#.*/, "") }
		$1 == "mesh" { m++; next }
		m - 1 != want { next }
		$1 == "domain" { dom[$2 " " $3] = $4 }
		$1 == "node" {
			for (i = 7; i <= NF; i++)
				if ($i ~ /^domain=/) ndom[$3 " " $4] = substr($i, 8)
		}
		$1 == "node" && $2 == "dtc" {
			lid = nd++
			for (i = 7; i <= NF; i++) if ($i ~ /^lid=/) lid = substr($i, 5)
			dtc[$3 " " $4] = lid
		}
		$1 == "node" && $2 == "hn-f" { h[nh++] = $3 " " $4 " " $5 " " $6 }
		END {
			sh = 8
			for (i = 0; i < b; i++) sh = sh * 2
			for (i = 0; i < nh; i++) {
				split(h[i], f, " ")
				xy = f[1] " " f[2]
				d = 0
				if (xy in ndom) d = ndom[xy]
				if (xy in dom) d = dom[xy]
				on = 0
				if (xy in dtc) { d = dtc[xy]; if (dtc[xy] > 0) on = 1 }
				printf "0x%x %d %d\n", f[1] * sh + f[2] * 8 + f[3] * 4 + f[4], d, on
			}
		}' "$CMN_MESH"
}

# lc_hnf_home MESH: "nodeid domain" of the HN-F that checks of one HN-F and
# its DTC use: the first HN-F in DTC 0's domain, else (a mesh may have none
# there, random:188016410) the first HN-F
lc_hnf_home() {
	lc_hnf_domains "$1" |
		awk 'NR == 1 { a = $1 " " $2 } $2 == 0 && !z { z = $1 " " $2 }
		     END { print z ? z : a }'
}

# lc_fls V: index of the most significant set bit, 1-based (0 for 0)
lc_fls() {
	local __v=$1 __n=0
	while [ "$__v" -gt 0 ]; do __v=$((__v >> 1)); __n=$((__n + 1)); done
	echo $__n
}

# lc_armcmn_bits MESH: the coordinate width upstream arm-cmn uses for node
# ids: what it logged ("mesh XxY, ID width N", dev_dbg, so load it with
# dyndbg=+p), else its formula fls((mesh_x - 1) | (mesh_y - 1)) (the 2024
# refactor, also in Debian's 6.1.0-57 arm-cmn.ko).
lc_armcmn_bits() {
	local __x __y __w
	# one line per mesh, in probe order (= mesh order)
	__w=$(dmesg | sed -n 's/.*arm-cmn .*mesh [0-9]*x[0-9]*, ID width \([0-9]*\).*/\1/p' |
		sed -n "$(($1 + 1))p")
	if [ -n "$__w" ]; then
		echo "$__w"
		return
	fi
	__x=$(lc_info "$1" x)
	__y=$(lc_info "$1" y)
	# no such line (5.10's arm-cmn prints none): the running kernel's rule
	# from lib-armcmn.sh where the script sourced it
	if type armcmn_bits_for > /dev/null 2>&1; then
		armcmn_bits_for "$__x" "$__y"
		return
	fi
	lc_fls $(( (__x - 1) | (__y - 1) ))
}

# lc_armcmn_decode MESH NODEID [BITS]: where upstream arm-cmn puts a node
# id, as "index port device": index = mesh_x * y + x into its XP array
# (row-major, logical-id order; it never checks the index against the
# number of XPs), x and y decoded with BITS (default lc_armcmn_bits) bits
# each above the port and device fields. Port and device split as arm-cmn
# splits them on CMN-600: 1 port bit and 2 device bits, except on a 1x1
# mesh under the 2024 refactor (the kernels with 2x2_nodeid, and where
# lib-armcmn.sh is not sourced), 3 port bits (6.12.117 arm-cmn.c:383-399,
# :2383-2385).
lc_armcmn_decode() {
	local __x __y __ab __pb=1 __xp
	__x=$(lc_info "$1" x)
	__y=$(lc_info "$1" y)
	__ab=${3:-$(lc_armcmn_bits "$1")}
	if [ $((__x * __y)) -eq 1 ] &&
	   ! { type armcmn_has_bug > /dev/null 2>&1 && ! armcmn_has_bug 2x2_nodeid; }; then
		__pb=3
	fi
	__xp=$(($2 >> (__pb + 2)))
	echo "$((__x * (__xp & ((1 << __ab) - 1)) + (__xp >> __ab))) $((($2 >> 2) & ((1 << __pb) - 1))) $(($2 & 3))"
}

# lc_armcmn_dtm_load MESH: the most counters one aggregated HN-F event takes
# on one DTM under upstream arm-cmn. It gives each node the DTM of the XP its
# node id decodes to (lc_armcmn_decode). An index past its XP array (an HN-F
# with X=1 read with one coordinate bit, 2x1 and 2x2) lands in its node
# array, sorted by type, on a node of a type after the XP's that it has not
# set up yet: DTM 0, the DTM of XP (0,0), the first the root lists
# (6.12.118 arm-cmn.c:2174-2191 sort, then dn->dtm = xp->dtm; types
# :247-272; the same in 6.1.192 and 7.2.13). More than four
# (CMN_DTM_NUM_COUNTERS) and arm_cmn_event_add() fails with ENOSPC every
# time: the event never runs.
lc_armcmn_dtm_load() {
	local __n __id __ab
	__n=$(( $(lc_info "$1" x) * $(lc_info "$1" y) ))
	__ab=$(lc_armcmn_bits "$1")
	for __id in $(lc_hnfs "$1"); do
		# shellcheck disable=SC2046 # word splitting wanted
		set -- "$1" $(lc_armcmn_decode "$1" "$__id" "$__ab")
		if [ "$2" -lt "$__n" ]; then echo "$2"; else echo 0; fi
	done | lc_most
}

# lc_armcmn_misplaced MESH: HN-F node ids that upstream arm-cmn attributes to
# another XP than the one they are on (its XP index, lc_armcmn_decode,
# against the CMN-600 rule). Nothing on 1x1 (arm-cmn has a special case
# there). LC_ARMCMN_BITS overrides the width.
lc_armcmn_misplaced() {
	local __x __y __b __ab __id __xp __tx __ty
	__x=$(lc_info "$1" x)
	__y=$(lc_info "$1" y)
	[ $((__x * __y)) -gt 1 ] || return 0
	__b=$(lc_coord_bits "$1")
	__ab=${LC_ARMCMN_BITS:-$(lc_armcmn_bits "$1")}
	for __id in $(lc_hnfs "$1"); do
		__xp=$((__id >> 3))
		__tx=$((__xp >> __b)) __ty=$((__xp & ((1 << __b) - 1)))
		# shellcheck disable=SC2046 # word splitting wanted
		set -- "$1" $(lc_armcmn_decode "$1" "$__id" "$__ab")
		[ $((__ty * __x + __tx)) -eq "$2" ] || echo "$__id"
	done
}

# lc_on_dtc_xp MESH: HN-F node ids on an XP that hosts a DTC with lid > 0
lc_on_dtc_xp() {
	local __id __c __dx __dy __dl
	lc_dtc_xps "$1" > "$LC_TMP/dtcs"
	for __id in $(lc_hnfs "$1"); do
		__c=$(lc_xp_of "$1" "$__id")
		while read -r __dx __dy __dl; do
			[ "$__dl" -gt 0 ] && [ "$__c" = "$__dx $__dy" ] && { echo "$__id"; break; }
		done < "$LC_TMP/dtcs"
	done
}

# lc_sum_rates MESH EVENTID [NODE]: sum of the rates (milli) set for
# EVENTID on every HN-F (or NODE), as the model lists them.
lc_sum_rates() {
	local __s=0 __l __kv __nd __ev __r
	while read -r __l; do
		__nd='' __ev='' __r=0
		for __kv in $__l; do
			case $__kv in
			node=*) __nd=${__kv#node=} ;;
			event=*) __ev=$((${__kv#event=})) ;;
			rate=*) __r=${__kv#rate=} ;;
			esac
		done
		[ "$__ev" = "$2" ] || continue
		[ -z "${3:-}" ] || [ $((__nd)) -eq $(($3)) ] || continue
		__s=$((__s + __r))
	done < "$LC_M/mesh$1/rate"
	echo $__s
}

# lc_scale_rates MESH EVENTID K [NODE]: multiply the rates of EVENTID (on
# every HN-F, or on NODE) by K; the lines as they were go to stdout, for
# lc_restore_rates.
lc_scale_rates() {
	local __l __kv __nd __ev __r __head
	while read -r __l; do
		__nd='' __ev='' __r=0 __head=
		for __kv in $__l; do
			case $__kv in
			node=*) __nd=${__kv#node=} ;;
			event=*) __ev=$((${__kv#event=})) ;;
			rate=*) __r=${__kv#rate=}; continue ;;
			esac
			__head="$__head $__kv"
		done
		[ "$__ev" = "$2" ] || continue
		[ -z "${4:-}" ] || [ $((__nd)) -eq $(($4)) ] || continue
		echo "$__l"
		lc_rate "$1" "${__head# } rate=$((__r * $3))"
	done < "$LC_M/mesh$1/rate"
}

# lc_restore_rates MESH FILE: set the rate lines FILE holds again
lc_restore_rates() {
	local __l
	while read -r __l; do
		lc_rate "$1" "$__l"
	done < "$2"
}

# lc_wrap_check PREFIX PMU MESH ALIAS EVENTID [NODE]: one step producing
# about 1.5 * 2^47 events of EVENTID (aggregated, or on NODE), enough to
# wrap a 32-bit global counter fed by 16-bit local carries that started at
# 0x80000000 (upstream's preload), and more than 2^32 for anybody; with
# LC_WRAP_EVENTS set, about that many events instead. For
# that step the event's rates are raised to 2^20 or more per 1000 cycles
# in all, so that it lasts less than 2^38 cycles (2^40 for 2.7 * 2^48
# events, the most LC_WRAP_EVENTS may ask): the DTCs' 40-bit cycle
# counters wrap once at most, as on silicon, where 2^47 events of one HN-F
# take hours and the overflow interrupts of the cycle counters come
# minutes apart. (A manual step of many 2^40-cycle periods would raise
# them back to back, which no silicon can; see Documentation/testing.rst.)
lc_wrap_check() {
	local __pre=$1 __pmu=$2 __m=$3 __al=$4 __ev=$5 __nd=${6:-} __s __n __spec __k __ret=0
	__s=$(lc_sum_rates "$__m" "$__ev" "$__nd")
	[ "$__s" -gt 0 ] || { lc_fail "$__pre/$__al" "no rate set for event $__ev"; return 1; }
	__k=$(( ((1 << 20) + __s - 1) / __s ))
	lc_scale_rates "$__m" "$__ev" "$__k" "$__nd" > "$LC_TMP/rates.wrap"
	__s=$(lc_sum_rates "$__m" "$__ev" "$__nd")
	__n=$(( ${LC_WRAP_EVENTS:-$((3 << 46))} * 1000 / __s ))
	if [ -n "$__nd" ]; then
		__spec="$__pmu/$__al,bynodeid=1,nodeid=$__nd/|$__al|$__nd"
	else
		__spec="$__pmu/$__al/|$__al|*"
	fi
	lc_batch_check "$__pre" "$__pmu" "$__m" "$__n" "$__spec" || __ret=$?
	lc_restore_rates "$__m" "$LC_TMP/rates.wrap"
	return $__ret
}
