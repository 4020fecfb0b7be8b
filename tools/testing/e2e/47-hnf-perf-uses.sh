#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: two-mesh
# subset-fw: dt
# results: 15
# skip: cross_mesh_group if nmesh < 2
# names: model_load modprobe_arm_cmn_hnf stat_A stat_C_other open_C_other
# names: record_refused freq task_cpu inherit cgroup two_groups two_groups_hardware
# names: cross_mesh_group per_node per_socket
#
# The ways users drive perf that the other scripts do not, each exact
# against the model's truth (N cycles, one step, HN-F event 0x01) or
# refused with the errno Documentation/arm_cmn_hnf.rst gives:
#   stat_A                perf stat -a -A: one line, for the PMU's CPU, exact
#   stat_C_other          perf stat -C <a CPU that is not the PMU's>: perf
#                         up to 6.x opens it there and the driver moves it
#                         to the PMU's CPU: one line, exact; perf 7 and
#                         later refuse a CPU list without the PMU's CPU
#                         themselves ("No supported events found")
#   open_C_other          perf_event_open on that CPU: the driver moves the
#                         event to the PMU's CPU; exact
#   record_refused        perf record: fails, as a sampling event
#                         (EOPNOTSUPP, "not supported")
#   freq                  attr.freq with sample_freq: EOPNOTSUPP
#   inherit               attr.inherit on a CPU event: counts, exact
#   task_cpu              a task (pid 0) with a CPU: EINVAL
#   cgroup                a cgroup event (a real cgroup2 directory's fd,
#                         PERF_FLAG_PID_CGROUP): EINVAL (the core refuses
#                         uncore cgroup events)
#   two_groups            two groups of one HN-F's events, each read whole
#                         (PERF_FORMAT_GROUP) in turn between steps in one
#                         process: every member of each read == its truth
#                         (cmn-hostile seq), and no group's read moves or
#                         mixes the other's
#   two_groups_hardware   the model's counters counted each source exactly
#                         while enabled, nothing while disabled
#   cross_mesh_group      a group of both meshes' PMUs: EINVAL on the
#                         sibling (a group is one PMU's); SKIP with one mesh
#   per_node, per_socket  perf stat -a --per-node / --per-socket with every
#                         mesh's PMU: one line per PMU, each exact against
#                         its own mesh
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
P=$(lc_pmu 0)
lc_pmu_wait "$P" || note "no $P: $(dmesg | grep -i cmn | tail -n 2)"
lc_set_rates 0
CPU=$(lc_pmu_cpu "$P")
OTHER=$(lc_other_cpu "$CPU")
STEP="echo $N > $LC_M/step"

# truth_delta BEFORE AFTER MESH: event 0x01's truth of MESH between snapshots
truth_delta() {
	lc_u64 sub "$(lc_snap_sum "$2" 1 - '*')" "$(lc_snap_sum "$1" 1 - '*')"
}

# one_exact NAME OUT WANT: OUT (perf -x, lines of the event, count in the
# field awk's $F names) holds one line, with WANT
one_exact() {
	local n
	n=$(grep -c "slc_miss" "$2")
	if [ "$n" != 1 ]; then
		fail "$1" "$n lines for the event: $(tr '\n' ' ' < "$2" | head -c 300)"
	else
		check_eq "$1" "$(grep "slc_miss" "$2" | cut -d, -f"$F")" "$3"
	fi
}

# perf stat -A: the count on the PMU's CPU, printed once (lc_perf_step:
# perf 5.10 enables the counters of a CPU target only after it started the
# workload, so the step waits for perf's ack that they are enabled)
lc_snap 0 "$LC_TMP/a0"
LC_PERF_TARGET="-a -A"
lc_perf_step "$LC_TMP/a.csv" $N "$P/slc_miss/"
unset LC_PERF_TARGET
lc_snap 0 "$LC_TMP/a1"
note "stat -A: $(grep slc_miss "$LC_TMP/a.csv" | tr '\n' ' ')"
F=2 one_exact stat_A "$LC_TMP/a.csv" "$(truth_delta "$LC_TMP/a0" "$LC_TMP/a1")"

# perf stat -C on another CPU than the PMU's
lc_snap 0 "$LC_TMP/c0"
# shellcheck disable=SC2034 # read by lc_perf_step
LC_PERF_TARGET="-C $OTHER"
lc_perf_step "$LC_TMP/c.csv" $N "$P/slc_miss/"
unset LC_PERF_TARGET
lc_snap 0 "$LC_TMP/c1"
note "stat -C $OTHER (PMU's CPU $CPU): $(cat "$LC_TMP/c.csv.stdout" "$LC_TMP/c.csv" | grep -v '^#' | tr '\n' ' ')"
case $(perf --version) in
"perf version "[1-6].*) perf7=0 ;;
*) perf7=1 ;;
esac
if [ $perf7 = 1 ] && grep -q "No supported events found" "$LC_TMP/c.csv.stdout"; then
	pass stat_C_other
else
	F=1 one_exact stat_C_other "$LC_TMP/c.csv" "$(truth_delta "$LC_TMP/c0" "$LC_TMP/c1")"
fi
lc_snap 0 "$LC_TMP/o0"
got=$(cmn-perf run -c "$OTHER" "$P:0x1" -- "$STEP" 2>&1 | cut -d' ' -f1)
lc_snap 0 "$LC_TMP/o1"
check_eq open_C_other "$got" "$(truth_delta "$LC_TMP/o0" "$LC_TMP/o1")"

# perf record: a sampling event, refused
if perf record -a -o "$LC_TMP/rec.data" -e "$P/slc_miss/" -- true > "$LC_TMP/rec.out" 2>&1; then
	fail record_refused "perf record succeeded: $(tail -n 2 "$LC_TMP/rec.out" | tr '\n' ' ')"
elif grep -qiE "support sampling|not supported|\(95\)" "$LC_TMP/rec.out"; then
	pass record_refused
else
	fail record_refused "perf record failed, not as unsupported: $(tail -n 3 "$LC_TMP/rec.out" | tr '\n' ' ')"
fi

check_eq freq "$(cmn-perf open -F 100 "$P:0x1" 2>&1)" "EOPNOTSUPP 0"
check_eq task_cpu "$(cmn-perf open -p 0 -c "$CPU" "$P:0x1" 2>&1)" "EINVAL 0"

# inherit on a CPU event changes nothing
lc_snap 0 "$LC_TMP/i0"
got=$(cmn-perf run -i "$P:0x1" -- "$STEP" 2>&1 | cut -d' ' -f1)
lc_snap 0 "$LC_TMP/i1"
check_eq inherit "$got" "$(truth_delta "$LC_TMP/i0" "$LC_TMP/i1")"

# a cgroup event, with a real cgroup
CG=/sys/fs/cgroup
grep -q " $CG cgroup2 " /proc/mounts || mount -t cgroup2 none "$CG" 2>/dev/null
if mkdir -p "$CG/cmn-test" 2>/dev/null && [ -f "$CG/cmn-test/cgroup.procs" ]; then
	check_eq cgroup "$(cmn-perf open -G "$CG/cmn-test" -c "$CPU" "$P:0x1" 2>&1)" "EINVAL 0"
	rmdir "$CG/cmn-test"
else
	fail cgroup "no cgroup2 hierarchy at $CG: $(grep cgroup /proc/mounts | tr '\n' ' ')"
fi

# two groups of one HN-F's events, read whole in turn
n0=$(lc_hnfs 0 | head -n 1)
bn=$((1 << 12 | n0 << 16))
ev() { echo "$P:$(printf '0x%x' $((bn | $1)))@$1,-,$n0"; }
ops=
i=0
while [ $i -lt 4 ]; do
	ops="$ops step:$((N + i * 70001)) check:0 check:2"
	[ $i != 1 ] || ops="$ops off:2 step:$N check:0 check:2 on:2"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # the ops' words
out=$(cmn-hostile seq -m 0 "{" "$(ev 1)" "$(ev 6)" "}" "{" "$(ev 13)" "$(ev 3)" "}" -- \
	on:0 on:2 $ops 2>&1)
echo "$out" | sed 's/^/# /'
if ! echo "$out" | grep -q '^check '; then
	fail two_groups "cmn-hostile seq: $(echo "$out" | tail -n 2 | tr '\n' ' ')"
elif echo "$out" | grep '^check ' | grep -qv ' ok$'; then
	fail two_groups "a member's read is not its truth: $(echo "$out" | grep '^check .*BAD' | head -n 3 | tr '\n' ' ')"
else
	pass two_groups
fi
if echo "$out" | grep -q '^hardware ' && ! echo "$out" | grep '^hardware ' | grep -qv ' ok$'; then
	pass two_groups_hardware
else
	fail two_groups_hardware "$(echo "$out" | grep '^hardware ' | tr '\n' ' ')"
fi

# a group of both meshes' PMUs
nm=$(mesh_count)
if [ "$nm" -lt 2 ]; then
	skip cross_mesh_group "one mesh in this file"
else
	check_eq cross_mesh_group "$(cmn-perf open -g "$P:0x1" "$(lc_pmu 1):0x1" 2>&1)" "EINVAL 1"
fi

# --per-node and --per-socket with every mesh's PMU: one line each, exact
for agg in node socket; do
	args=
	m=0
	while [ $m -lt "$nm" ]; do
		lc_snap $m "$LC_TMP/p$m.0"
		args="$args $(lc_pmu $m)/slc_miss/"
		m=$((m + 1))
	done
	# shellcheck disable=SC2034 # read by lc_perf_step
	LC_PERF_TARGET="-a --per-$agg"
	# shellcheck disable=SC2086 # the events' words
	lc_perf_step "$LC_TMP/agg.csv" $N $args
	unset LC_PERF_TARGET
	why=
	m=0
	while [ $m -lt "$nm" ]; do
		lc_snap $m "$LC_TMP/p$m.1"
		want=$(truth_delta "$LC_TMP/p$m.0" "$LC_TMP/p$m.1")
		# "N0,<cpus>,<count>,<unit>,<event>,..."
		l=$(grep ",$(lc_pmu $m)/slc_miss/," "$LC_TMP/agg.csv")
		if [ "$(echo "$l" | grep -c .)" != 1 ]; then
			why="$why $(lc_pmu $m): $(echo "$l" | grep -c .) lines;"
		elif [ "$(echo "$l" | cut -d, -f3)" != "$want" ]; then
			why="$why $(lc_pmu $m): $(echo "$l" | cut -d, -f3), truth $want;"
		fi
		m=$((m + 1))
	done
	if [ -z "$why" ]; then
		pass per_$agg
	else
		fail per_$agg "$why $(grep slc_miss "$LC_TMP/agg.csv" | tr '\n' ' ')"
	fi
done
finish
