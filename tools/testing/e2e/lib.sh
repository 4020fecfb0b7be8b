# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Guest-side library of the end-to-end tests (busybox sh). A test script does
#
#   . /e2e/lib.sh
#   model_load && modprobe arm-cmn
#   check arm_cmn_0 test -d /sys/bus/event_source/devices/arm_cmn_0
#   finish
#
# Results follow the guest test protocol (Documentation/testing.rst): one
# "CMN-TEST: PASS <name>", "CMN-TEST: FAIL <name>: <why>" or
# "CMN-TEST: SKIP <name>: <why>" line per case, and the script's header
# declares how many ("# results:"), which ("# names:") and which may SKIP
# ("# skip:"). The host
# turns them into PASS:/FAIL:/SKIP: e2e/<kernel>/<fw>/<mesh>/<name>.
# Set by /init from /etc/cmn/run.conf: CMN_KERNEL, CMN_FW, CMN_MESH_NAME,
# CMN_FAULT (empty: no fault). Set by a race-pass wrapper
# (tools/testing/e2e/race-pass.sh): CMN_RACE_STEPS=1, every mesh loads in
# the model's race mode, so that steps run on its race threads; and
# CMN_RESULT_PREFIX, put before every result name.

CMN_DBG=/sys/kernel/debug/cmn600_model
CMN_MESH=/etc/cmn/mesh
CMN_MODEL_KO=/modules/cmn600_model.ko
CMN_DRIVER_KO=/modules/arm_cmn_hnf.ko
CMN_EVDEV=/sys/bus/event_source/devices
CMN_FAILED=0
CMN_RESULTS=0
export PAGER=cat TERM=dumb

# note TEXT...: context lines in the log, each prefixed "# " (so never a
# CMN-TEST: line)
note() { echo "$*" | sed 's/^/# /'; }

# pass NAME
pass() {
	echo "CMN-TEST: PASS ${CMN_RESULT_PREFIX:-}$1"
	CMN_RESULTS=$((CMN_RESULTS + 1))
}

# fail NAME WHY...: WHY is folded onto one line
fail() {
	_n=$1
	shift
	echo "CMN-TEST: FAIL ${CMN_RESULT_PREFIX:-}$_n: $(echo "$*" | tr '\n\r' '  ' | sed 's/ *$//')"
	CMN_FAILED=$((CMN_FAILED + 1))
	CMN_RESULTS=$((CMN_RESULTS + 1))
}

# skip NAME WHY...: the case cannot run here (the mesh lacks what it needs);
# the host accepts it only where the script's "# skip:" header allows it
skip() {
	_n=$1
	shift
	echo "CMN-TEST: SKIP ${CMN_RESULT_PREFIX:-}$_n: $(echo "$*" | tr '\n\r' '  ' | sed 's/ *$//')"
	CMN_RESULTS=$((CMN_RESULTS + 1))
}

# expect_kmsg TEXT: the next kernel log line containing TEXT is provoked on
# purpose and is not a kernel error for the host (whose verdict otherwise
# fails the boot on WARNING:, "not cleared within", ...)
expect_kmsg() { echo "=== CMN-EXPECT-KMSG $*"; }

# expect_warn FUNCTION: the next WARN splat located in FUNCTION (its
# "WARNING:" line and first "Call trace:") is provoked on purpose
expect_warn() { echo "=== CMN-EXPECT-WARN $1"; }

# check NAME CMD...: PASS if CMD exits 0, else FAIL with its status and the
# last line of its output. Returns CMD's status.
check() {
	_n=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	if [ $_rc -eq 0 ]; then
		pass "$_n"
	else
		fail "$_n" "'$*' exited $_rc: $(echo "$_out" | tail -n 1)"
	fi
	return $_rc
}

# check_eq NAME GOT WANT: string equality (numbers: same decimal spelling)
check_eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "got '$2', want '$3'"
		return 1
	fi
}

# check_range NAME VALUE LO HI: LO <= VALUE <= HI (integers)
check_range() {
	if is_uint "$2" && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then
		pass "$1"
	else
		fail "$1" "got '$2', want $3..$4"
		return 1
	fi
}

# finish: exit status of the script (1 if any case failed or none ran)
finish() {
	if [ "$CMN_RESULTS" -eq 0 ]; then
		echo "# no test case reported a result"
		exit 1
	fi
	[ "$CMN_FAILED" -eq 0 ]
	exit $?
}

is_uint() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
	return 0
}

# is_num: unsigned integer or decimal fraction (perf prints msec as 12.34)
is_num() {
	case $1 in
	'' | *[!0-9.]* | *.*.* | .* | *.) return 1 ;;
	esac
	return 0
}

# hex2dec VALUE: 0x1f, 1f or 31 (decimal only if it has no hex letters and
# no 0x: the truth file's hex columns are converted with hex2dec -x)
hex2dec() {
	if [ "$1" = -x ]; then
		_v=${2#0x}
		echo $((0x$_v))
	else
		echo $(($1))
	fi
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds
wait_for() {
	_t=$(($1 * 10))
	shift
	while [ $_t -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		_t=$((_t - 1))
	done
	return 1
}

# ---- the model -------------------------------------------------------------

# model_load [FAULT]: insmod the model (fault=FAULT, default $CMN_FAULT;
# max_spi= the last SPI the GIC has, from the boot log, see /init) and load
# the resolved mesh file, in one write().
model_load() {
	_f=${1-${CMN_FAULT:-}}
	_s=
	[ -n "${CMN_GIC_SPIS:-}" ] && _s="max_spi=$((CMN_GIC_SPIS - 1))"
	if [ -n "$_f" ]; then
		# shellcheck disable=SC2086 # none or one word
		insmod "$CMN_MODEL_KO" fault="$_f" $_s || return 1
	else
		# shellcheck disable=SC2086
		insmod "$CMN_MODEL_KO" $_s || return 1
	fi
	model_reload
}

# model_reload: load the mesh again (rebuilds the images from scratch); in
# a race pass every mesh in race mode again
model_reload() {
	dd if="$CMN_MESH" of="$CMN_DBG/load" bs=1M 2>/dev/null || return 1
	[ "${CMN_RACE_STEPS:-0}" = 1 ] || return 0
	model_race on
}

# model_race_note: note every mesh's race stats (mesh<i>/race)
model_race_note() {
	for _r in "$CMN_DBG"/mesh[0-9]*/race; do
		[ -f "$_r" ] && note "race model, $(basename "$(dirname "$_r")"): $(cat "$_r")"
	done
}

# model_race MODE: the race mode of every mesh ("on", "on near_wrap", "off";
# see mesh<i>/race); before "off" the race stats are noted. Status 1 at the
# first mesh that refuses MODE.
model_race() {
	[ "$1" != off ] || model_race_note
	for _r in "$CMN_DBG"/mesh[0-9]*/race; do
		echo "$1" > "$_r" || return 1
	done
}

model_unload() { rmmod cmn600_model; }

# model_step CYCLES
model_step() { echo "$1" > "$CMN_DBG/step"; }

# model_clock manual | model_clock free PROFILE
model_clock() { echo "$*" > "$CMN_DBG/clock"; }

# model_rate MESH "node=<id|*> event=<id> [occupid=<n>] rate=<milli>"
model_rate() { echo "$2" > "$CMN_DBG/mesh$1/rate"; }

# model_info MESH FIELD: x y rev nodes hnfs dtcs base size root
model_info() {
	_i=0
	for _w in x y rev nodes hnfs dtcs base size root; do
		_i=$((_i + 1))
		if [ "$_w" = "$2" ]; then
			cut -d' ' -f$_i "$CMN_DBG/mesh$1/info"
			return
		fi
	done
	return 1
}

model_cycles() { cat "$CMN_DBG/mesh$1/cycles"; }

# model_irqs MESH [DTC]: total overflow interrupts raised (of one DTC)
model_irqs() {
	_s=0
	while read -r _d _c; do
		[ -n "${2-}" ] && [ "$_d" != "dtc$2" ] && continue
		_s=$((_s + _c))
	done < "$CMN_DBG/mesh$1/irqs"
	echo $_s
}

# mesh_count: number of meshes in the resolved mesh file
mesh_count() { grep -c '^[[:space:]]*mesh[[:space:]]' "$CMN_MESH"; }

# mesh_opt MESH KEY: a key=value of the MESH-th mesh line of the resolved
# file (base, root, uid, size, x, y, ...)
mesh_opt() {
	grep '^[[:space:]]*mesh[[:space:]]' "$CMN_MESH" | sed -n "$(($1 + 1))p" |
		tr ' \t' '\n\n' | sed -n "s/^$2=//p"
}

# truth_sum MESH EVENTID [OCCUPID] [NODEID]: sum of the model's exact event
# totals from mesh<MESH>/truth. OCCUPID and NODEID may be omitted or '*' (any);
# numbers in decimal or 0x-hex. Prints the sum (64-bit shell arithmetic).
truth_sum() {
	_ev=$(hex2dec "$2")
	_oc=${3-*}
	_nd=${4-*}
	[ "$_oc" = '*' ] || [ "$_oc" = - ] || _oc=$(hex2dec "$_oc")
	[ "$_nd" = '*' ] || _nd=$(hex2dec "$_nd")
	_s=0
	while read -r _tn _te _to _tc; do
		[ -n "$_tc" ] || continue
		# no command substitution in this loop: a fork per line of a
		# mesh of 128 HN-Fs took minutes in an emulated guest
		[ "$((0x${_te#0x}))" = "$_ev" ] || continue
		if [ "$_oc" != '*' ]; then
			if [ "$_oc" = - ] || [ "$_to" = - ]; then
				[ "$_to" = "$_oc" ] || continue
			else
				[ "$((_to))" = "$_oc" ] || continue
			fi
		fi
		[ "$_nd" = '*' ] || [ "$((0x${_tn#0x}))" = "$_nd" ] || continue
		_s=$((_s + _tc))
	done < "$CMN_DBG/mesh$1/truth"
	echo $_s
}

# ---- drivers ---------------------------------------------------------------

# driver_load [PARAM=VALUE...]: insmod our driver from /modules
driver_load() { insmod "$CMN_DRIVER_KO" "$@"; }
driver_unload() { rmmod arm_cmn_hnf; }

# pmu_exists NAME: /sys/bus/event_source/devices/NAME is registered
pmu_exists() { [ -d "$CMN_EVDEV/$1" ]; }

# pmus PREFIX: registered PMU names starting with PREFIX, one per line
pmus() {
	for _p in "$CMN_EVDEV/$1"*; do
		[ -e "$_p" ] && echo "${_p##*/}"
	done
	return 0
}

# ---- perf ------------------------------------------------------------------

# perf_stat_x OUTFILE PERF-STAT-ARGS...: perf stat -x, -o OUTFILE ...
# (CSV: value,unit,event,run-time,percent,...). Returns perf's status.
perf_stat_x() {
	_o=$1
	shift
	perf stat -x, -o "$_o" "$@"
}

# perf_value OUTFILE [EVENT]: the count of EVENT (exact event column, as perf
# prints it) or of the first counter line. Fails (still printing the field)
# when it is not a number, e.g. <not counted> or <not supported>; use
# is_uint on the result where an integer count is required.
perf_value() {
	_v=$(awk -F, -v ev="${2-}" '
		/^#/ || NF < 3 { next }
		ev == "" || $3 == ev { print $1; exit }' "$1")
	echo "$_v"
	is_num "$_v"
}

# perf_values OUTFILE: "event count" for every counter line
perf_values() { awk -F, '!/^#/ && NF >= 3 { print $3, $1 }' "$1"; }
