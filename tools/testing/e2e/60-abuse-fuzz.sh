#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: two-mesh
# kernels: 6.12 debug
# subset-kernels: debug
# vcpus: parallel
# timeout: 300
# results: 21 + nmesh
# names: model_load modprobe_arm_cmn_hnf clock_free fuzz_no_report fuzz_monotonic
# names: fuzz_truth_bound fuzz_errno_documented fuzz_config_oracle fuzz_irq_follows_cpu
# names: fuzz_overflow_irqs fuzz_iterations fuzz_rmmod modprobe_again fuzz_reload_exact_0
# names: fuzz_race_no_report fuzz_race_monotonic fuzz_race_truth_bound
# names: fuzz_race_errno_documented fuzz_race_config_oracle fuzz_race_irq_follows_cpu
# names: fuzz_race_overflow_irqs fuzz_race_iterations
# names: fuzz_reload_exact_1 if nmesh > 1
# names: fuzz_reload_exact_[2-9] if nmesh > 2
#
# The PMU fuzzer, cmn-fuzz (tools/testing/fuzz/cmn-fuzz.c), against both
# PMUs of the two-mesh system, with the model's clock running free at rates
# that make the global counters overflow every few tens of milliseconds, so
# that overflow interrupts fire throughout. A fixed seed and iteration count
# here; make fuzz runs it long, with any seed (FUZZ_SEED, FUZZ_ITERS,
# FUZZ_SECS, FUZZ_HOTPLUG, set by tools/testing/fuzz/run.sh).
#   fuzz_<invariant>    one result per cmn-fuzz invariant: no_report,
#                       monotonic, truth_bound, errno_documented,
#                       config_oracle, irq_follows_cpu, overflow_irqs
#   fuzz_iterations     every iteration asked for ran (or FUZZ_SECS ended it)
#   fuzz_race_*         then the same again, a quarter of the iterations
#                       (FUZZ_RACE_ITERS) from the next seed, with every mesh
#                       in the model's race mode (Documentation/cmn600-model.rst,
#                       "Race mode"): clock threads on both CPUs, carries late
#                       into the driver's reads and interrupts
#   fuzz_rmmod          afterwards the driver unloads and its PMUs are gone
#   fuzz_reload_exact_<n>  reloaded, one manual step counts exactly on mesh n
. /e2e/lib.sh
. /e2e/lib-counts.sh

SEED=${FUZZ_SEED:-20261201}
# the debug kernel (KASAN, lockdep, kmemleak) is several times slower
if [ "${CMN_KERNEL:-}" = debug ]; then
	ITERS=${FUZZ_ITERS:-5000}
else
	ITERS=${FUZZ_ITERS:-20000}
fi
SECS=${FUZZ_SECS:-0}
HOTPLUG=${FUZZ_HOTPLUG:-10}
FREQ=20000
N=100000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
nm=$(lc_nmeshes)
m=0
while [ $m -lt "$nm" ]; do
	lc_pmu_wait "$(lc_pmu $m)" || { fail registered "no $(lc_pmu $m)"; finish; }
	lc_set_rates $m
	# about 4e5 events per cycle and HN-F at 2e10 cycles/s: an aggregated
	# global counter (2^48 events) overflows every ~10-20 ms, one HN-F's
	# every ~35 ms; occupancy and memory requests a few times less often
	lc_rate $m "node=* event=1 rate=400000000"
	lc_rate $m "node=* event=15 rate=150000000"
	lc_rate $m "node=* event=13 rate=60000000"
	m=$((m + 1))
done
echo $FREQ > "$LC_M/freq_mhz"
check clock_free sh -c "echo 'free constant' > $LC_M/clock" || finish

# fuzz PREFIX SEED ITERS: one cmn-fuzz run on the running clock, its checks
# as PREFIX_<invariant> and PREFIX_iterations; the clock is manual after it
fuzz() {
	local __args="-s $2 -n $3 -H $HOTPLUG" __out="$LC_TMP/$1.out" __n=0 __got
	local w name verdict why

	[ "$SECS" = 0 ] || __args="$__args -t $SECS"
	note "$1: cmn-fuzz $__args"
	# shellcheck disable=SC2086 # word splitting wanted
	cmn-fuzz $__args > "$__out" 2>&1
	note "$1: cmn-fuzz exit status $?"
	echo manual > "$LC_M/clock"
	grep '^#' "$__out"
	while read -r w name verdict why; do
		[ "$w" = check ] || continue
		__n=$((__n + 1))
		if [ "$verdict" = ok ]; then
			pass "$1_$name"
		else
			fail "$1_$name" "$why"
		fi
	done < "$__out"
	[ $__n -gt 0 ] || fail "$1_run" "cmn-fuzz printed no check: $(tail -n 3 "$__out")"
	__got=$(sed -n 's/^iterations //p' "$__out")
	if [ "$SECS" != 0 ]; then
		check_range "$1_iterations" "${__got:-0}" 1 "$3"
	else
		check_eq "$1_iterations" "${__got:-none}" "$3"
	fi
}

fuzz fuzz "$SEED" "$ITERS"
model_race on
echo 'free constant' > "$LC_M/clock"
fuzz fuzz_race $((SEED + 1)) "${FUZZ_RACE_ITERS:-$((ITERS / 4))}"
model_race off

# every CPU is back (cmn-fuzz puts them online); the driver must go cleanly
r=$(cmn-perf rmmod arm_cmn_hnf)
if [ "$r" = OK ] && [ -z "$(pmus arm_cmn_hnf_)" ]; then
	pass fuzz_rmmod
else
	fail fuzz_rmmod "rmmod after the fuzzer: '$r'; PMUs left: $(pmus arm_cmn_hnf_ | tr '\n' ' ')"
	finish
fi

# reloaded, the counters are exact again on every mesh
check modprobe_again modprobe arm_cmn_hnf || finish
m=0
while [ $m -lt "$nm" ]; do
	lc_pmu_wait "$(lc_pmu $m)"
	lc_set_rates $m
	t0=$(lc_truth $m 1 all)
	got=$(cmn-perf run "$(lc_pmu $m):0x1" -- "echo $N > $LC_M/step" | cut -d' ' -f1)
	t1=$(lc_truth $m 1 all)
	if [ "$got" = "$(lc_u64 sub "$t1" "$t0")" ] && [ "$got" -gt 0 ]; then
		pass "fuzz_reload_exact_$m"
	else
		fail "fuzz_reload_exact_$m" "count '$got', truth $(lc_u64 sub "$t1" "$t0")"
	fi
	m=$((m + 1))
done
rmmod arm_cmn_hnf
finish
