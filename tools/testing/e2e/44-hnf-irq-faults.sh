#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc faults/4x2-2dtc-dtc1-noirq
# timeout: 180
# results: 4 if any(m.noirq for m in mesh) else 8 + dtcs
# names: model_load
# names: noirq/probe_refused noirq/one_error_line noirq/untouched if any(m.noirq for m in mesh)
# names: spurious/dtc0 spurious/dtc[0-9]* spurious/counts/slc_miss spurious/counts/dtc_cycles if not any(m.noirq for m in mesh)
# names: irqoff/reasserted irqoff/pmovsr irqoff/exact irqoff/truth irqoff/hnfs if not any(m.noirq for m in mesh)
#
# Interrupt faults (the model's irq_fault file, see
# Documentation/cmn600-model.rst):
#   spurious/dtc<n>         the DTC's interrupt fires 20 times with no
#                           pmovsr bit set: the driver answers IRQ_NONE each
#                           time (the irq_handler_exit trace event: 20
#                           "ret=unhandled" for that irq, no "ret=handled";
#                           /proc/irq/<n>/spurious restarts its "unhandled"
#                           count after 100 ms without one, so it is only
#                           shown)
#   spurious/counts         counting is still exact afterwards
#   irqoff/reasserted       the line of DTC0, or of the first HN-F's DTC
#                           when DTC0's domain has no HN-F
#                           (random:188016410), is disabled for 300 ms
#                           (disable_irq() and enable_irq(), as a migration
#                           does) while one
#                           event wraps its global counters at every tick of
#                           the free clock: a flag raised meanwhile is a
#                           level, so the enable makes the interrupt pending
#                           again (the model's irq_fault reasserts > 0,
#                           summed over the DTCs on that line: on a shared
#                           line another DTC's flag may come first, and the
#                           model counts nothing more until it is served,
#                           random:188016417)
#   irqoff/pmovsr           ... the handler served it: with the clock
#                           stopped, every DTC's pmovsr reads clear
#   irqoff/exact            ... and the event, disabled and read, counted
#                           exactly what the model counted
#   irqoff/truth            ... and exactly the truth of every HN-F of the
#                           mesh (the event, sf_evictions from the alias
#                           list, was enabled all the time the clock ran)
#   irqoff/hnfs             ... and the model counted it on every HN-F of
#                           the mesh and on no other
# On a mesh file whose firmware leaves a DTC's interrupt out (irq=none,
# e.g. faults/4x2-2dtc-dtc1-noirq):
#   noirq/probe_refused     no PMU registers
#   noirq/one_error_line    exactly one error-level line from the driver
#   noirq/untouched         ... and the refused probe wrote nothing: the
#                           configuration space still equals the image the
#                           model built at load (its "changed" file is
#                           empty; the interrupts are resolved before any
#                           register is programmed)
# (A pmovsr bit that never clears: 45-hnf-irq-storm.sh.)
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)

check model_load model_load || finish

if grep -Eq '^[[:space:]]*node[[:space:]]+dtc[[:space:]].*[[:space:]]irq=none' "$CMN_MESH"; then
	dmesg -c > /dev/null
	modprobe arm_cmn_hnf
	sleep 0.5
	if [ -z "$(pmus arm_cmn_hnf)" ]; then
		pass noirq/probe_refused
	else
		fail noirq/probe_refused "registered: $(pmus arm_cmn_hnf | tr '\n' ' ')"
	fi
	errs=$(dmesg -r | grep -E '^<[0-3]>' | grep -E 'arm-cmn-hnf|arm_cmn_hnf')
	n=0
	[ -z "$errs" ] || n=$(echo "$errs" | wc -l)
	note "probe: $(echo "$errs" | tr '\n' '|')"
	if [ "$n" -eq 1 ]; then
		pass noirq/one_error_line
	else
		fail noirq/one_error_line "$n error lines: $(echo "$errs" | tr '\n' '|')"
	fi
	c=$(head -n 4 "$LC_M/mesh0/changed" 2>&1)
	if [ -z "$c" ]; then
		pass noirq/untouched
	else
		fail noirq/untouched "written since reset (offset reset now): $(echo "$c" | tr '\n' ';')"
	fi
	finish
fi

if ! { modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
	fail spurious/registered "no $P"
	finish
fi
lc_set_rates 0
T=/sys/kernel/tracing
[ -d $T/events/irq ] || mount -t tracefs nodev $T 2>/dev/null
E=$T/events/irq/irq_handler_exit
for d in $(sed -n 's/^dtc\([0-9]*\) .*/\1/p' "$LC_M/mesh0/irq_fault"); do
	irq=$(sed -n "s/^dtc$d irq=\\([0-9]*\\) .*/\\1/p" "$LC_M/mesh0/irq_fault")
	if ! is_uint "$irq" || [ "$irq" = 0 ] || [ ! -r "/proc/irq/$irq/spurious" ]; then
		fail "spurious/dtc$d" "no interrupt: $(grep "^dtc$d " "$LC_M/mesh0/irq_fault")"
		continue
	fi
	if [ ! -w "$E/enable" ]; then
		fail "spurious/dtc$d" "no irq_handler_exit trace event"
		continue
	fi
	u0=$(sed -n 's/^unhandled //p' "/proc/irq/$irq/spurious")
	echo "irq == $irq" > "$E/filter"
	: > $T/trace
	echo 1 > "$E/enable"
	if ! echo "spurious dtc=$d count=20" > "$LC_M/mesh0/irq_fault"; then
		echo 0 > "$E/enable"
		fail "spurious/dtc$d" "the model could not raise irq $irq 20 times"
		continue
	fi
	echo 0 > "$E/enable"
	u1=$(sed -n 's/^unhandled //p' "/proc/irq/$irq/spurious")
	nu=$(grep -c "irq=$irq ret=unhandled" $T/trace)
	nh=$(grep -c "irq=$irq ret=handled" $T/trace)
	note "dtc$d irq $irq: $nu unhandled, $nh handled (/proc/irq unhandled $u0 -> $u1); $(grep "^dtc$d " "$LC_M/mesh0/irq_fault")"
	check_eq "spurious/dtc$d" "$nu unhandled $nh handled" "20 unhandled 0 handled"
done
lc_batch_check spurious/counts $P 0 300000 "$P/slc_miss/|slc_miss|*" "$P/dtc_cycles/|dtc_cycles|*"

lc_fast_event 0 "$P"
# a DTC whose counters the event uses: that of lc_hnf_home's HN-F
D=$(lc_hnf_home 0 | cut -d' ' -f2)
lc_totals 0 "$LC_TMP/t0"
cmn-perf run -D "$P:$EV" -- "echo 'free constant' > $LC_M/clock; sleep 0.3
	echo 'off dtc=$D ms=300' > $LC_M/mesh0/irq_fault; sleep 0.3
	echo manual > $LC_M/clock; sleep 0.2
	cat $LC_M/mesh0/counters > $LC_TMP/ctrs; cat $LC_M/mesh0/irq_fault > $LC_TMP/if" \
	> "$LC_TMP/run.out" 2>&1
lc_totals 0 "$LC_TMP/t1"
l=$(grep "^dtc$D " "$LC_TMP/if")
note "irqoff: $l; count: $(tr '\n' ';' < "$LC_TMP/run.out")"
case $l in
*" offs=1 "*)
	# the reasserts of every DTC on that line
	q=$(echo "$l" | sed -n 's/.* \(irq=[^ ]*\) .*/\1/p')
	check_range irqoff/reasserted "$(awk -v q="$q" '$2 == q {
		sub(/.* reasserts=/, ""); s += $1 } END { print s + 0 }' "$LC_TMP/if")" 1 1000000 ;;
*) fail irqoff/reasserted "the line was not disabled once: $l" ;;
esac
check_eq irqoff/pmovsr "$(lc_flags_set "$LC_TMP/ctrs")" none
got=$(sed -n 1p "$LC_TMP/run.out" | cut -d' ' -f1)
lc_counted_exact irqoff/exact "$got" "$EV" "$LC_TMP/t0.counted" "$LC_TMP/t1.counted"
lc_truth_exact irqoff/truth "$got" "$P" $AL '*' "$LC_TMP/t0.truth" "$LC_TMP/t1.truth"
lc_counted_hnfs irqoff/hnfs 0 "$P" $AL '*' "$LC_TMP/t0.counted" "$LC_TMP/t1.counted"
finish
