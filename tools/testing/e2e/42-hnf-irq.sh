#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc 8x8-32hnf-4dtc shared-irq
# subset-meshes: 4x2-2dtc@dt
# results: 7
# names: model_load irq/all/count irq/all/irqs irq/node/count irq/node/irqs
# names: irq/cycles/count irq/cycles/irqs
# timeout: 300
#
# Counting that needs the overflow interrupt: each step below moves a
# counter further than its registers can hold between two reads (more than
# 2^48 events per 32-bit global counter fed by 16-bit local counters, or
# more than 2^40 cycles of the 40-bit cycle counter), so only a driver whose
# interrupt handler reads the counters at each wrap counts exactly.
#   irq/<case>/count    the count equals the model's truth exactly: read
#                       with read(2) (cmn-perf run -D, which disables the
#                       event first as perf stat does), not perf stat:
#                       perf stat prints a count through a double, exact
#                       only below 2^53, and slc_miss of 18 HN-Fs or more
#                       passes 2^53 here (random:298037668, a count one
#                       over the truth as perf stat printed it)
#   irq/<case>/irqs     the model's irqs (overflow flags raised, per DTC)
#                       rose by the wraps cmn-hostile predicts from the
#                       counter registers just before the step (the model's
#                       counters file) and the truth: (local + events) /
#                       2^16 carries into each paired global counter,
#                       (global + carries) / 2^32 wraps, (cycles + step) /
#                       2^40 wraps of each counting DTC's cycle counter
#                       (none for a counter a driver did not pair with a
#                       global counter).
# Cases: slc_miss over all HN-Fs, slc_miss on one HN-F (bynodeid), and
# dtc_cycles. A driver whose interrupt handler does nothing (or only clears
# the flags) fails them.
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
	fail irq/registered "no $P"
	finish
fi
lc_set_rates 0
# slc_miss (event 1) near the largest rate the model takes, distinct per
# HN-F: 2^48 events in about 70 million cycles
i=0
for n in $(lc_hnfs 0); do
	lc_rate 0 "node=$n event=1 rate=$((4000000000 - 1000 * i))"
	i=$((i + 1))
done

# irq_case NAME CYCLES EV: one perf stat around one step of CYCLES cycles;
# the workload saves the counters, truth and irqs just before and after it
irq_case() {
	local name=$1 n=$2 ev=$3 got want d i0 i1 exp bad=0 total=0
	cmn-perf run -D "$ev" -- "
		cat $LC_M/mesh0/counters > $LC_TMP/c0
		cat $LC_M/mesh0/irqs > $LC_TMP/i0
		cat $LC_M/mesh0/truth > $LC_TMP/t0
		cat $LC_M/mesh0/cycles > $LC_TMP/y0
		echo $n > $LC_M/step
		cat $LC_M/mesh0/truth > $LC_TMP/t1
		cat $LC_M/mesh0/cycles > $LC_TMP/y1
		cat $LC_M/mesh0/irqs > $LC_TMP/i1" > "$LC_TMP/irq.out" 2>&1 ||
		{ fail "irq/$name/count" "cmn-perf run: $(tail -n 2 "$LC_TMP/irq.out")"; return 1; }
	# "<count> <enabled> <running>": never multiplexed
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(tail -n 1 "$LC_TMP/irq.out")
	[ $# = 3 ] && [ "$2" = "$3" ] && [ "$2" != 0 ] ||
		{ fail "irq/$name/count" "not counted all along: $*"; return 1; }
	got=$1
	case $name in
	cycles) want=$(lc_u64 sub "$(cat "$LC_TMP/y1")" "$(cat "$LC_TMP/y0")") ;;
	node) want=$(lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/t1" 1 all "$NODE")" \
		"$(cmn-perf truth -f "$LC_TMP/t0" 1 all "$NODE")") ;;
	*) want=$(lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/t1" 1)" \
		"$(cmn-perf truth -f "$LC_TMP/t0" 1)") ;;
	esac
	note "$name: count $got, truth $want"
	check_eq "irq/$name/count" "$got" "$want"

	exp=$(cmn-hostile wraps -n "$n" "$LC_TMP/c0" "$LC_TMP/t0" "$LC_TMP/t1") ||
		{ fail "irq/$name/irqs" "cmn-hostile wraps: $exp"; return 1; }
	for d in $(echo "$exp" | cut -d' ' -f1); do
		want=$(echo "$exp" | sed -n "s/^$d //p")
		i0=$(sed -n "s/^$d //p" "$LC_TMP/i0")
		i1=$(sed -n "s/^$d //p" "$LC_TMP/i1")
		note "$name: $d raised $((i1 - i0)), wraps predicted $want"
		[ "$((i1 - i0))" = "$want" ] || bad=1
		total=$((total + want))
	done
	# (a driver may count a bynodeid event in a combined DTM counter,
	# which raises nothing: then none is predicted, and none may come)
	note "$name: $total wrap(s) predicted in all"
	if [ $bad = 1 ]; then
		fail "irq/$name/irqs" "raised/predicted per DTC: $(echo "$exp" | tr '\n' ' ')vs $(paste "$LC_TMP/i0" "$LC_TMP/i1" | tr '\n\t' '  ')"
	else
		pass "irq/$name/irqs"
	fi
}

# 2.7 * 2^48 events on the HN-F with the lowest rate: two wraps or more of
# every global counter taking part, whatever it held before
NODE=$(lc_hnfs 0 | tail -n 1)
rmin=$((4000000000 - 1000 * (i - 1)))
# (attr.config as Documentation/arm_cmn_hnf.rst gives it: event 1,
# bynodeid bit 12, node id from bit 16, type 3 the cycle counter)
irq_case all $(( (27 << 48) / 10 * 1000 / rmin + 1 )) "$P:0x1"
irq_case node $(( (27 << 48) / 10 * 1000 / rmin + 1 )) "$P:$((1 | 1 << 12 | NODE << 16))"
# 3.3 * 2^40 cycles: three wraps or more of every DTC's cycle counter
irq_case cycles $(( (33 << 40) / 10 )) "$P:$((3 << 32))"
finish
