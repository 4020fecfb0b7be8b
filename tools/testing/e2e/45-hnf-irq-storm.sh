#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc shared-irq
# subset-meshes: 4x2-2dtc@dt
# results: 7 + 2 * dtcs
# names: model_load storm/dtc0/stopped storm/dtc0/logged
# names: storm/dtc[0-9]*/stopped storm/dtc[0-9]*/logged storm/counts/slc_miss polled/offline
# names: owned/slc_miss/stopped owned/slc_miss/count owned/dtc_cycles/stopped owned/dtc_cycles/count
# timeout: 300
#
# A pmovsr bit that never clears (the model's "stuck" interrupt fault): the
# DTC's level interrupt fires again as soon as the driver has handled it.
# The model keeps raising it until the driver turns the DTC's overflow
# interrupt off or the line is disabled, and gives up after 20000 raises
# (well below the 99900 unhandled interrupts the kernel's own detector
# needs). For each DTC, one storm on global counter D (bit 3), nobody's:
#   storm/dtc<n>/stopped    the driver stopped it (storm_end intr_off or
#                           irq_disabled), not the model's limit
#   storm/dtc<n>/logged     exactly one warning-or-worse line from the
#                           driver about it, and no "nobody cared"; a DTC
#                           whose line an earlier storm (of a DTC sharing
#                           it) already took out of service: the storm
#                           ends at once (irq_disabled) and nothing more is
#                           logged. A flag that hardware raises is never
#                           a kernel WARNING (panic_on_warn would take the
#                           machine down): no WARNING splat at all
#   storm/counts            counting is still exact after the storms
#   polled/offline          with every line out of service, the PMU's CPU
#                           goes offline between two steps under perf: the
#                           count is still exact (the poll timer follows
#                           the PMU, the lines stay off)
# Then, with the driver loaded again (its lines in service), a storm on
# the flag of a counter that counts, while perf counts, on DTC 0:
#   owned/<event>/stopped   the driver stopped it, as above
#   owned/<event>/count     the count equals the model's truth exactly: the
#                           whole periods the stuck flag seemed to report
#                           are taken back (slc_miss: global counter A,
#                           bit 0; dtc_cycles: the cycle counter, bit 8)
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
	fail storm/registered "no $P"
	finish
fi
lc_set_rates 0

# storm_stopped NAME LINE: the model's irq_fault line of the DTC says the
# driver ended the storm
storm_stopped() {
	note "$2"
	case $2 in
	*storm_end=intr_off* | *storm_end=irq_disabled*) pass "$1" ;;
	*) fail "$1" "$2" ;;
	esac
}

# the lines a storm took out of service, " <irq> ..."
off=" "
for d in $(sed -n 's/^dtc\([0-9]*\) .*/\1/p' "$LC_M/mesh0/irq_fault"); do
	dmesg -c > /dev/null
	irq=$(sed -n "s/^dtc$d irq=\([0-9-]*\) .*/\1/p" "$LC_M/mesh0/irq_fault")
	if ! echo "stuck dtc=$d bit=3 limit=20000" > "$LC_M/mesh0/irq_fault"; then
		fail "storm/dtc$d/stopped" "the model could not start the storm"
		continue
	fi
	l=$(grep "^dtc$d " "$LC_M/mesh0/irq_fault")
	storm_stopped "storm/dtc$d/stopped" "$l"
	dmesg -r > "$LC_TMP/storm.dmesg"
	# WARN splats (WARNING: ... ---[ end trace) apart from the other lines
	nw=$(grep -c 'WARNING:' "$LC_TMP/storm.dmesg")
	logs=$(awk '/WARNING:/ { s = 1 } s { if (/---\[ end trace/) s = 0; next } 1' \
		"$LC_TMP/storm.dmesg" | grep -E '^<[0-4]>' | grep -E 'arm-cmn-hnf|arm_cmn_hnf')
	n=0
	[ -z "$logs" ] || n=$(echo "$logs" | wc -l)
	want=1
	case $off in *" $irq "*)
		want=0
		note "dtc$d: IRQ $irq is out of service already"
		case $l in *storm_end=irq_disabled*) ;; *)
			fail "storm/dtc$d/logged" "IRQ $irq was disabled, yet: $l"
			echo clear > "$LC_M/mesh0/irq_fault"
			continue ;;
		esac ;;
	esac
	if dmesg | grep -q 'nobody cared'; then
		fail "storm/dtc$d/logged" "the kernel disabled the line: $(dmesg | grep 'nobody cared')"
	elif [ "$n" -eq "$want" ] && [ "$nw" -eq 0 ]; then
		pass "storm/dtc$d/logged"
	else
		fail "storm/dtc$d/logged" "$n lines, want $want; $nw WARNING splat(s), want none: $(echo "$logs" | tr '\n' '|' | cut -c1-300)"
	fi
	off="$off$irq "
	echo clear > "$LC_M/mesh0/irq_fault"
done
lc_batch_check storm/counts $P 0 300000 "$P/slc_miss/|slc_miss|*"

cpu=$(lc_pmu_cpu $P)
if [ -w "/sys/devices/system/cpu/cpu$cpu/online" ]; then
	lc_snap 0 "$LC_TMP/p0"
	perf stat -x, -a -e "$P/slc_miss/" -o "$LC_TMP/off.csv" -- sh -c "
		echo 300000 > $LC_M/step
		echo 0 > /sys/devices/system/cpu/cpu$cpu/online
		echo 300000 > $LC_M/step" > "$LC_TMP/off.out" 2>&1
	prc=$?
	lc_snap 0 "$LC_TMP/p1"
	echo 1 > "/sys/devices/system/cpu/cpu$cpu/online"
	got=$(lc_count1 "$LC_TMP/off.csv") || got="perf rc=$prc: $got"
	want=$(lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/p1" 1)" \
		"$(cmn-perf truth -f "$LC_TMP/p0" 1)")
	note "polled, cpu$cpu offline: count $got, truth $want"
	check_eq polled/offline "$got" "$want"
else
	fail polled/offline "cpu$cpu has no online file: cannot be offlined"
fi

# owned NAME EVENT BIT: perf counts EVENT alone (its counter is bit BIT of
# DTC 0's pmovsr) around two steps with a storm on that bit in between
owned() {
	local name=$1 ev=$2 bit=$3 got want l
	if ! { rmmod arm_cmn_hnf && modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
		fail "owned/$name/stopped" "cannot load $P again"
		return 1
	fi
	perf stat -x, -a -e "$ev" -o "$LC_TMP/own.csv" -- sh -c "
		cat $LC_M/mesh0/truth > $LC_TMP/t0
		cat $LC_M/mesh0/cycles > $LC_TMP/y0
		echo 1000000 > $LC_M/step
		echo 'stuck dtc=0 bit=$bit limit=20000' > $LC_M/mesh0/irq_fault
		echo 1000000 > $LC_M/step
		cat $LC_M/mesh0/truth > $LC_TMP/t1
		cat $LC_M/mesh0/cycles > $LC_TMP/y1" > "$LC_TMP/own.out" 2>&1 ||
		{ fail "owned/$name/stopped" "perf stat: $(tail -n 2 "$LC_TMP/own.out")"; return 1; }
	l=$(grep "^dtc0 " "$LC_M/mesh0/irq_fault")
	echo clear > "$LC_M/mesh0/irq_fault"
	storm_stopped "owned/$name/stopped" "$l"
	got=$(lc_count1 "$LC_TMP/own.csv") || { fail "owned/$name/count" "$got"; return 1; }
	if [ "$bit" = 8 ]; then
		want=$(lc_u64 sub "$(cat "$LC_TMP/y1")" "$(cat "$LC_TMP/y0")")
	else
		want=$(lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/t1" 1)" \
			"$(cmn-perf truth -f "$LC_TMP/t0" 1)")
	fi
	note "$name: count $got, truth $want"
	check_eq "owned/$name/count" "$got" "$want"
}
owned slc_miss "$P/slc_miss/" 0
owned dtc_cycles "$P/dtc_cycles/" 8
finish
