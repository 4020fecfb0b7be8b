#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# subset-fw: dt
# timeout: 180
# results: 2 + 5 * 4 * 2 + 2
# names: model_load modprobe_arm_cmn_hnf priv_perf_perfmon priv_perf_nobody
# names: priv_p3_root priv_p3_root_u priv_p3_nobody priv_p3_nobody_u priv_p3_perfmon priv_p3_perfmon_u priv_p3_sysadmin priv_p3_sysadmin_u
# names: priv_p2_root priv_p2_root_u priv_p2_nobody priv_p2_nobody_u priv_p2_perfmon priv_p2_perfmon_u priv_p2_sysadmin priv_p2_sysadmin_u
# names: priv_p1_root priv_p1_root_u priv_p1_nobody priv_p1_nobody_u priv_p1_perfmon priv_p1_perfmon_u priv_p1_sysadmin priv_p1_sysadmin_u
# names: priv_p0_root priv_p0_root_u priv_p0_nobody priv_p0_nobody_u priv_p0_perfmon priv_p0_perfmon_u priv_p0_sysadmin priv_p0_sysadmin_u
# names: priv_pm1_root priv_pm1_root_u priv_pm1_nobody priv_pm1_nobody_u priv_pm1_perfmon priv_pm1_perfmon_u priv_pm1_sysadmin priv_pm1_sysadmin_u
#
# Who may open a system-wide arm_cmn_hnf event (pid -1, the PMU's CPU), at
# kernel.perf_event_paranoid 3, 2, 1, 0 and -1, as root, as an unprivileged
# user (uid 65534) with no capability, with only CAP_PERFMON and with only
# CAP_SYS_ADMIN (cmn-priv, tools/testing/stress/cmn-priv.c).
#   priv_p<level>_<who>     exclude_kernel = 0 (what "perf stat -a" asks)
#   priv_p<level>_<who>_u   exclude_kernel = 1 (perf's ":u")
# <level> is 3, 2, 1, 0 or m1 (-1); <who> is root, nobody, perfmon, sysadmin.
# The expected answers are written below from the perf core's rules, not
# from the driver:
#   Documentation/admin-guide/sysctl/kernel.rst (perf_event_paranoid) and
#   perf-security.rst: at >= 1 a CPU-wide event needs CAP_PERFMON, at >= 2
#   counting the kernel (exclude_kernel = 0) needs it as well; CAP_SYS_ADMIN
#   implies CAP_PERFMON; Debian's kernels add level 3 (their default), at
#   which a task without CAP_SYS_ADMIN may not call perf_event_open at all
#   (even with CAP_PERFMON).
#   The admin guide: arm_cmn_hnf counts system-wide only and refuses every
#   exclude_* bit with EINVAL; the core asks the PMU (perf_event_alloc)
#   before it applies the CPU-wide rule (find_get_context), so a ":u" event
#   that got past the paranoid level-2 kernel rule gets EINVAL.
# Then with the real perf at level 2:
#   priv_perf_perfmon       "perf stat -a" run by uid 65534 with CAP_PERFMON
#                           counts exactly (the model's truth)
#   priv_perf_nobody        the same without the capability gets no count
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
PAR=/proc/sys/kernel/perf_event_paranoid
N=100000

# expected LEVEL WHO EXCL: the answer of the rules above
expected() {
	local lvl=$1 who=$2 excl=$3 admin=0 perfmon=0
	case $who in
	root | sysadmin) admin=1; perfmon=1 ;;
	perfmon) perfmon=1 ;;
	esac
	# Debian's level 3: nothing without CAP_SYS_ADMIN
	if [ "$lvl" -ge 3 ] && [ $admin = 0 ]; then
		echo EACCES
		return
	fi
	# level >= 2: counting the kernel needs CAP_PERFMON
	if [ "$lvl" -ge 2 ] && [ "$excl" = 0 ] && [ $perfmon = 0 ]; then
		echo EACCES
		return
	fi
	# the PMU refuses exclude_* before the CPU-wide rule is applied
	if [ "$excl" = 1 ]; then
		echo EINVAL
		return
	fi
	# level >= 1: a CPU-wide event needs CAP_PERFMON
	if [ "$lvl" -ge 1 ] && [ $perfmon = 0 ]; then
		echo EACCES
		return
	fi
	echo OK
}

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
lc_pmu_wait $P || { fail registered "no $P"; finish; }
lc_set_rates 0
orig=$(cat $PAR)
note "perf_event_paranoid was $orig"

for lvl in 3 2 1 0 -1; do
	if ! echo "$lvl" > $PAR || [ "$(cat $PAR)" != "$lvl" ]; then
		fail "priv_set_$lvl" "cannot set perf_event_paranoid to $lvl"
		continue
	fi
	ln=$lvl
	[ "$lvl" = -1 ] && ln=m1
	for who in root nobody perfmon sysadmin; do
		case $who in
		root) c=root ;;
		nobody) c=none ;;
		perfmon) c=perfmon ;;
		sysadmin) c=sys_admin ;;
		esac
		for excl in 0 1; do
			name=priv_p${ln}_$who
			x=
			[ $excl = 1 ] && name=${name}_u && x=-x
			# shellcheck disable=SC2086 # $x is empty or -x
			got=$(cmn-priv -c $c $x $P 0x1 2>&1)
			check_eq "$name" "$got" "$(expected "$lvl" $who $excl)"
		done
	done
done

# the real perf as a user at level 2: a FIFO handshake makes the step happen
# while perf counts (perf enables the counters before it starts the command)
echo 2 > $PAR
# the initramfs root comes from mktemp -d (mode 0700): let the user in
chmod 755 /
rm -f "$LC_TMP/go" "$LC_TMP/done"
mkfifo -m 666 "$LC_TMP/go" "$LC_TMP/done"
chmod 777 "$LC_TMP"
# opened read-write here, so that neither open blocks whatever perf does
exec 3<> "$LC_TMP/go" 4<> "$LC_TMP/done"
for who in perfmon nobody; do
	c=perfmon
	[ $who = nobody ] && c=none
	out=$LC_TMP/perf-$who.csv
	rm -f "$out"
	cmn-priv -c $c -- perf stat -x, -o "$out" -a -e $P/slc_miss/ -- \
		sh -c "echo go > $LC_TMP/go; read x < $LC_TMP/done" \
		> "$LC_TMP/perf-$who.stdout" 2>&1 &
	pid=$!
	started=no
	while kill -0 $pid 2>/dev/null; do
		# shellcheck disable=SC3045 # busybox sh has read -t
		if read -r -t 1 x <&3; then
			started=yes
			break
		fi
	done
	t0=$(lc_truth 0 1 all)
	if [ $started = yes ]; then
		lc_step $N
		echo ok >&4
	fi
	wait $pid
	prc=$?
	t1=$(lc_truth 0 1 all)
	note "perf stat as uid 65534 ($who): rc $prc, command started: $started; $(tr '\n' ' ' < "$LC_TMP/perf-$who.stdout" | cut -c1-300)"
	note "perf stat output: $(grep -v '^#' "$out" 2>/dev/null | tr '\n' ' ')"
	got=$(lc_count1 "$out" 2>/dev/null)
	if [ $who = perfmon ]; then
		if [ $prc -eq 0 ] && [ "$got" = "$((t1 - t0))" ] && [ "$got" -gt 0 ]; then
			pass priv_perf_perfmon
		else
			fail priv_perf_perfmon "perf rc $prc, count '$got', truth $((t1 - t0))"
		fi
	else
		case $got in
		'' | *[!0-9]*) pass priv_perf_nobody ;;
		*) fail priv_perf_nobody "an unprivileged perf stat at level 2 counted '$got'" ;;
		esac
	fi
done
exec 3<&- 4<&-

echo "$orig" > $PAR
rmmod arm_cmn_hnf
finish
