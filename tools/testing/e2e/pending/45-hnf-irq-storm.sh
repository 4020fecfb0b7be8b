#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc
# timeout: 240
#
# A pmovsr bit that never clears (the model's "stuck" interrupt fault): the
# DTC's level interrupt fires again as soon as the driver has handled it.
# The model keeps raising it until the driver turns the DTC's overflow
# interrupt off or the line is disabled, and gives up after 20000 raises
# (well below the 99900 unhandled interrupts the kernel's own detector
# needs). For each DTC, one storm on global counter D (bit 3):
#   storm/dtc<n>/stopped    the driver stopped it (storm_end intr_off or
#                           irq_disabled), not the model's limit
#   storm/dtc<n>/logged     exactly one warning-or-worse line from the
#                           driver about it, and no "nobody cared"
#   storm/counts            counting is still exact after the storms
# Pending (see README here): main's handler clears the flag and returns
# IRQ_HANDLED each time, so the storm runs until the model's limit.
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=arm_cmn_hnf_0

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
	fail storm/registered "no $P"
	finish
fi
lc_set_rates 0
for d in $(sed -n 's/^dtc\([0-9]*\) .*/\1/p' "$LC_M/mesh0/irq_fault"); do
	dmesg -c > /dev/null
	if ! echo "stuck dtc=$d bit=3 limit=20000" > "$LC_M/mesh0/irq_fault"; then
		fail "storm/dtc$d/stopped" "the model could not start the storm"
		continue
	fi
	l=$(grep "^dtc$d " "$LC_M/mesh0/irq_fault")
	note "$l"
	case $l in
	*storm_end=intr_off* | *storm_end=irq_disabled*) pass "storm/dtc$d/stopped" ;;
	*) fail "storm/dtc$d/stopped" "$l" ;;
	esac
	logs=$(dmesg -r | grep -E '^<[0-4]>' | grep -E 'arm-cmn-hnf|arm_cmn_hnf')
	n=0
	[ -z "$logs" ] || n=$(echo "$logs" | wc -l)
	if dmesg | grep -q 'nobody cared'; then
		fail "storm/dtc$d/logged" "the kernel disabled the line: $(dmesg | grep 'nobody cared')"
	elif [ "$n" -eq 1 ]; then
		pass "storm/dtc$d/logged"
	else
		fail "storm/dtc$d/logged" "$n lines: $(echo "$logs" | tr '\n' '|' | cut -c1-300)"
	fi
	echo clear > "$LC_M/mesh0/irq_fault"
done
lc_batch_check storm/counts $P 0 300000 "$P/slc_miss/|slc_miss|*"
finish
