#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# timeout: 240
# results: 3
# names: model_load pending/wraps pending/exact
#
# PENDING (tools/testing/e2e/pending/README): fails on main. On the
# default mesh (7.2 and 5.10 DT) pending/exact counted 65536 to 196608
# (2^16 times 1 to 3) more than the model counted, in 9 runs of 10 on each;
# it passed on shared-irq and random:188016413 (7.2 DT). Not known yet
# where the driver goes wrong; the same event disabled with the clock
# stopped (46-hnf-rebaseline stopped/exact) is exact. Stock arm-cmn, the
# same script with its PMU and config 0x70005 (type 5, eventid 7), counted
# exactly what the model counted in 10 runs of 10 (7.2 DT, default): the
# model's registers agree with its counted file: that points at this driver.
# (arm-cmn also WARNs in arm_cmn_handle_irq, arm-cmn.c:2072, on the flag
# of the counter it has freed.) This driver was exact, 10 runs of 10, with
# a quarter of the rate (1073741823 per 1000 cycles: a period of 0.65 ms)
# and with one HN-F at the full rate: the overcount needs about 262 carries
# per cycle into one global counter, a rate (4.3e6 events per cycle per
# HN-F) some 30,000 times what silicon can make (logic.h: 127 per cycle).
# Before it moves up: find whether the model or the driver breaks at that
# rate, and base the case on a rate silicon can make, with the argument.
#
# One event, sf_evictions from the alias list, so fast that its global
# counter wraps at every tick of the model's free clock (as in
# 46-hnf-rebaseline stopped/*).
# The event, disabled while the clock still runs, PENDING_RUNS
# times (REBASE_PENDING_RUNS, default 10). perf_pmu_disable() brings the
# model up to the present, which most of the time takes the counter across
# a wrap: the flag is set and its interrupt waits until interrupts are back
# on, so the handler never sees the event again. The last update of the
# event was the handler of the wrap before, one whole period earlier, so
# the counter may read as much as then or more: only the flag tells that it
# went round. On silicon that is a disable within the microseconds between
# a wrap and its interrupt, the event not read since the wrap before: rare,
# but possible (perf stat without -I reads once, at the end). The model's
# period is short (2^48 events in about 0.16 ms), not impossible: it counts
# nothing between a wrap and its handler, as silicon counts next to nothing.
#   pending/wraps       the runs raised interrupts (not void)
#   pending/exact       every run counted exactly what the model counted; a
#                       stop() that leaves a pending flag to the handler
#                       counts 2^48 too few in about half of the runs whose
#                       disable crossed a wrap
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
PENDING_RUNS=${REBASE_PENDING_RUNS:-10}
irqs() { awk '{ s += $2 } END { print s + 0 }' "$LC_M/mesh0/irqs"; }

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait "$P"; }; then
	fail pending/wraps "no $P"
	finish
fi
lc_set_rates 0
AL=sf_evictions
EV=$(lc_alias "$P" $AL | cut -d' ' -f1)
lc_rate 0 "node=* event=$EV rate=4294967295"
echo 100000 > "$LC_M/freq_mhz"

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
