#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: shared-irq 4x2-2dtc
# subset-meshes: 4x2-2dtc@dt
# timeout: 300
# results: 6 + 5 * irq_domains
# names: model_load modprobe_arm_cmn_hnf modprobe_arm_cmn hnf/lines armcmn/lines armcmn/irq_cpu
# names: hnf/dtc[0-9]*/slc_miss@0x* armcmn/dtc[0-9]*/hnf_cache_miss@0x*
# names: hnf/dtc[0-9]*_irq if irq_domains > 0
# names: armcmn/dtc[0-9]*_irq armcmn/dtc[0-9]*_served if irq_domains > 0
#
# Overflow interrupts of every DTC domain of mesh 0, with both drivers; on
# the shared-irq mesh two DTCs raise the same SPI, and each driver must
# serve both from one handler (one requested line per distinct SPI).
#   model_load, modprobe_arm_cmn_hnf, modprobe_arm_cmn
#   hnf/lines, armcmn/lines   the driver requested each distinct DTC line
#                             once (/proc/interrupts lines of its device =
#                             distinct SPIs of the mesh)
#   armcmn/irq_cpu            arm-cmn is probed on the last CPU; its lines
#                             go to its PMU's CPU (cpumask), or, with the
#                             upstream bug irq_cpu0 (lib-armcmn.sh: 5.10),
#                             all to CPU 0 while cpumask names the last CPU
#   hnf/dtc<d>/<alias>@<id>   per DTC domain d (an HN-F in it, not on the
#                             XP of a DTC n > 0): ~2.7 * 2^48 events with
#                             bynodeid=1 on it, exact (arm_cmn_hnf's global
#                             counters run free from wherever they are, and
#                             2^32 carries of 16-bit local counters wrap
#                             them: this many wraps DTC d's twice or more; a
#                             lost or double interrupt breaks the count, one
#                             left pending makes the model warn "not
#                             cleared", a boot failure)
#   hnf/dtc<d>_irq            ... and DTC d raised two overflow interrupts
#                             or more in that step (the model's irqs), and
#                             Linux delivered its line (/proc/interrupts):
#                             the count above went through the handler
#   armcmn/dtc<d>/<alias>@<id>  the same with the stock arm-cmn, exact
#   armcmn/dtc<d>_irq         ... and DTC d raised interrupts during the run
#                             (arm-cmn counts carries in 32-bit global
#                             counters from 0x80000000, 2^31 carries wrap,
#                             and enables every DTC's overflow interrupt:
#                             the 40-bit cycle counters wrap too, on every
#                             DTC, so on the shared-irq mesh both DTCs
#                             raise the one line)
#   armcmn/dtc<d>_served      ... and arm-cmn's handler served them: the
#                             Linux irq of DTC d (the model's) counted
#                             interrupts in /proc/interrupts during the
#                             run and DTC d's pmovsr is clear after it.
#                             arm_cmn_hnf ran first and was unloaded: a
#                             line it leaves unstartable (on 5.10, a
#                             sticky IRQ_NOAUTOEN) is never delivered
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-armcmn.sh

P=$(lc_pmu 0)
C=$(lc_cmn_pmu 0)
nirq=$(grep -v '^[[:space:]]*#' "$CMN_MESH" | awk '$1 == "mesh" { m++; next }
	m == 1 && $1 == "node" && $2 == "dtc" {
		for (i = 7; i <= NF; i++) if ($i ~ /^irq=/) print substr($i, 5) }' | sort -u | wc -l)
# one eligible HN-F per DTC domain
lc_hnf_domains_first() {
	lc_hnf_domains 0 | awk '$3 == 0 && !seen[$2]++ { print $2, $1 }'
}

check model_load model_load || finish
lc_set_rates 0
lc_hnf_domains_first > "$LC_TMP/doms"
note "mesh 0: $nirq distinct DTC interrupt(s); HN-F domains: $(lc_hnf_domains 0 | tr '\n' ';')"

# irq_count IRQ: interrupts of Linux irq IRQ so far, all CPUs
irq_count() {
	awk -v i="$1:" '$1 == i { for (c = 2; c <= NF && $c ~ /^[0-9]+$/; c++) s += $c }
		END { print s + 0 }' /proc/interrupts
}

# dtc_irq D: the Linux irq of DTC D of mesh 0 (the model resolved it)
dtc_irq() {
	sed -n "s/^dtc$1 irq=\([0-9-]*\) .*/\1/p" "$LC_M/mesh0/irq_fault"
}

# lines NAME DEVNAME: /proc/interrupts lines of the device = distinct SPIs
lines() {
	local n
	n=$(grep -c " $2\$" /proc/interrupts)
	grep " $2\$" /proc/interrupts | sed 's/^/# /'
	check_eq "$1" "$n" "$nirq"
}

if check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf && lc_pmu_wait "$P"; then
	lines hnf/lines "$P"
	while read -r d n; do
		i0=$(model_irqs 0 "$d")
		irq=$(dtc_irq "$d")
		s0=$(irq_count "${irq:-0}")
		# shellcheck disable=SC2034 # read by lc_wrap_check
		LC_WRAP_EVENTS=$(( (27 << 48) / 10 ))
		lc_wrap_check "hnf/dtc$d" "$P" 0 slc_miss 1 "$n"
		unset LC_WRAP_EVENTS
		i1=$(model_irqs 0 "$d")
		s1=$(irq_count "${irq:-0}")
		note "arm_cmn_hnf: DTC $d raised $((i1 - i0)) interrupt(s); Linux irq ${irq:-?}: $s0 before, $s1 after"
		if [ $((i1 - i0)) -ge 2 ] && [ "${irq:-0}" -gt 0 ] && [ "$s1" -gt "$s0" ]; then
			pass "hnf/dtc${d}_irq"
		else
			fail "hnf/dtc${d}_irq" "DTC $d raised $((i1 - i0)) interrupt(s) (want 2 or more); Linux irq ${irq:-none}: $s0 before, $s1 after"
		fi
	done < "$LC_TMP/doms"
	rmmod arm_cmn_hnf
else
	fail hnf/lines "no $P"
	while read -r d n; do
		fail "hnf/dtc$d/slc_miss@$n" "no $P"
		fail "hnf/dtc${d}_irq" "no $P"
	done < "$LC_TMP/doms"
fi

# irq_cpu NAME DEVNAME PROBECPU: where arm-cmn routed its lines
irq_cpu() {
	local pcpu effs
	pcpu=$(cat "/sys/bus/event_source/devices/$C/cpumask")
	effs=$(for i in $(awk -v d="$2" '$NF == d { sub(":", "", $1); print $1 }' /proc/interrupts); do
		cat "/proc/irq/$i/effective_affinity_list"; done | sort -u | tr '\n' ' ')
	effs=${effs% }
	note "arm-cmn probed on CPU $3: PMU cpumask $pcpu, lines on CPU(s) ${effs:-none}"
	armcmn_has_bug irq_cpu0
	case $? in
	0)
		if [ "$3" = 0 ]; then
			fail "$1" "probed on CPU 0: irq_cpu0 cannot show"
		elif [ "$pcpu" = "$3" ] && [ "$effs" = 0 ]; then
			pass "$1"
		else
			fail "$1" "cpumask $pcpu, lines on ${effs:-none}; predicted (irq_cpu0) cpumask $3, lines on 0"
		fi ;;
	1)
		if [ -n "$effs" ] && [ "$effs" = "$pcpu" ]; then
			pass "$1"
		else
			fail "$1" "lines on ${effs:-none}, PMU cpumask $pcpu"
		fi ;;
	*) fail "$1" "no arm-cmn expectations for $(uname -r)" ;;
	esac
}

# the probe runs in modprobe's task: pin it to the last CPU
pin=$(sed 's/.*[-,]//' /sys/devices/system/cpu/online)
dev=
if check modprobe_arm_cmn taskset -c "$pin" modprobe arm-cmn && lc_pmu_wait "$C"; then
	# arm-cmn names its interrupt after the platform device of mesh 0:
	# DT <base>.cmn, ACPI the ARMHC600 device whose _UID is the mesh's
	if [ "${CMN_FW:-dt}" = acpi ]; then
		for d in /sys/bus/platform/devices/ARMHC600:*; do
			[ "$(cat "$d/firmware_node/uid" 2>/dev/null)" = "$(mesh_opt 0 uid)" ] &&
				dev=$(basename "$d")
		done
	else
		dev=$(printf '%x.cmn' "$(mesh_opt 0 base)")
	fi
	lines armcmn/lines "$dev"
	irq_cpu armcmn/irq_cpu "$dev" "$pin"
	while read -r d n; do
		before=$(cat "$LC_M/mesh0/irqs")
		irq=$(dtc_irq "$d")
		s0=$(irq_count "${irq:-0}")
		lc_wrap_check "armcmn/dtc$d" "$C" 0 hnf_cache_miss 1 "$n"
		after=$(cat "$LC_M/mesh0/irqs")
		s1=$(irq_count "${irq:-0}")
		ovsr=$(sed -n "s/^dtc $d .* pmovsr=\(0x[0-9a-f]*\) .*/\1/p" "$LC_M/mesh0/counters")
		note "arm-cmn: interrupts per DTC before: $(echo "$before" | tr '\n' ' ') after: $(echo "$after" | tr '\n' ' ')"
		b=$(echo "$before" | awk -v d="dtc$d" '$1 == d { print $2 }')
		a=$(echo "$after" | awk -v d="dtc$d" '$1 == d { print $2 }')
		if [ "${a:-0}" -gt "${b:-0}" ]; then
			pass "armcmn/dtc${d}_irq"
		else
			fail "armcmn/dtc${d}_irq" "DTC $d raised no interrupt ($b before, $a after)"
		fi
		note "arm-cmn: irq ${irq:-?} of DTC $d: $s0 interrupt(s) before, $s1 after; pmovsr ${ovsr:-?}"
		if [ "${irq:-0}" -le 0 ]; then
			fail "armcmn/dtc${d}_served" "the model resolved no Linux irq for DTC $d"
		elif [ "$s1" -gt "$s0" ] && [ "$ovsr" = 0x0 ]; then
			pass "armcmn/dtc${d}_served"
		else
			fail "armcmn/dtc${d}_served" "irq $irq: $s0 interrupt(s) before, $s1 after, pmovsr ${ovsr:-?} (want more, 0x0)"
		fi
	done < "$LC_TMP/doms"
	rmmod arm_cmn
else
	fail armcmn/lines "no $C"
	fail armcmn/irq_cpu "no $C"
	while read -r d n; do
		fail "armcmn/dtc$d/hnf_cache_miss@$n" "no $C"
		fail "armcmn/dtc${d}_irq" "no $C"
		fail "armcmn/dtc${d}_served" "no $C"
	done < "$LC_TMP/doms"
fi
finish
