#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: faults/4x2-2dtc-dtc0-defer faults/4x2-2dtc-dtc1-defer
# subset-meshes: faults/4x2-2dtc-dtc1-defer@acpi
# timeout: 120
# results: 9
# skip: * if not mesh[0].defer
# names: model_load defer/deferred defer/probe_ran defer/untouched defer/retry_ran
# names: defer/retry_untouched defer/unload defer/unload_untouched defer/reload_ran
#
# A deferred probe touches no hardware. On these mesh files the firmware
# lists an interrupt for one DTC (irq=defer) whose interrupt controller never
# gets a driver (tools/testing/vm/meshgen.py, "Deferred interrupts": DT, a
# disabled interrupt-controller node; ACPI, an Interrupt descriptor whose
# ResourceSource is a device no driver binds), so platform_get_irq*()
# returns -EPROBE_DEFER for as long as the guest runs:
#   model_load             the model takes the mesh
#   defer/deferred         after modprobe the device is in the driver core's
#                          devices_deferred list with the driver's own
#                          reason, naming the DTC the mesh file defers (the
#                          driver core's "wait for supplier" would mean it
#                          held the probe back and our probe never ran)
#   defer/probe_ran        the driver's probe ran and returned -EPROBE_DEFER
#                          (dev_err_probe()'s debug line, seen through
#                          dynamic debug, with that reason), no PMU, no
#                          error-level line from the driver
#   defer/untouched        the configuration space still equals the image
#                          the model built at load (the model's "changed"
#                          file is empty)
#   defer/retry_ran        a second attempt through sysfs (the bus's
#                          drivers_probe, as deferred probing does when
#                          another driver binds) runs the probe again, and
#                          it defers again with the same reason
#   defer/retry_untouched  ... and wrote nothing either
#   defer/unload           rmmod arm_cmn_hnf works, the device has no driver
#   defer/unload_untouched ... and nothing was written on the way out
#   defer/reload_ran       a later modprobe attempts the probe once more
#                          (and defers: the controller still is not there),
#                          still writing nothing
# A kernel report anywhere in the boot fails it (results.sh). On a mesh
# file without irq=defer every case is a SKIP.
. /e2e/lib.sh
. /e2e/lib-counts.sh

DD=/sys/kernel/debug/devices_deferred
DYN=/sys/kernel/debug/dynamic_debug/control
CHG=$LC_M/mesh0/changed

# the DTC whose interrupt the mesh file defers: its lid, or its rank
# among the dtc lines when it has no lid=
lid=$(awk '{ sub(/#.*/, "") } $1 == "mesh" { m++ }
	m == 1 && $1 == "node" && $2 == "dtc" { l = n + 0; d = 0
		for (i = 7; i <= NF; i++) {
			if ($i ~ /^lid=/) l = substr($i, 5)
			if ($i == "irq=defer") d = 1
		}
		if (d) print l; n++ }' "$CMN_MESH" | head -n 1)

# cmn_dev: the platform device of mesh 0 (DT: arm,cmn-600; ACPI: ARMHC600)
cmn_dev() {
	for _d in /sys/bus/platform/devices/*; do
		case $(cat "$_d/modalias" 2>/dev/null) in
		*arm,cmn-600* | acpi:ARMHC600:*) echo "${_d##*/}"; return 0 ;;
		esac
	done
	return 1
}

# attempts: how many probes of the device deferred with the driver's reason
attempts() {
	dmesg | grep -F "$dev" | grep -c "interrupt for DTC$lid: waiting" || true
}

# untouched NAME: the model's changed file is empty
untouched() {
	_c=$(head -n 4 "$CHG" 2>&1)
	if [ -z "$_c" ]; then
		pass "$1"
	else
		fail "$1" "written since load: $(echo "$_c" | tr '\n' ';')"
	fi
}

# deferred_reason: the device's line of devices_deferred, without its name
deferred_reason() { grep -F "$dev" "$DD" | cut -f 2-; }

CASES="model_load defer/deferred defer/probe_ran defer/untouched defer/retry_ran
defer/retry_untouched defer/unload defer/unload_untouched defer/reload_ran"
if [ -z "$lid" ]; then
	for c in $CASES; do
		skip "$c" "mesh 0 defers no DTC interrupt (no irq=defer)"
	done
	finish
fi

check model_load model_load || finish
dev=$(cmn_dev)
note "device '$dev', deferred DTC '$lid'"
if [ -z "$dev" ] || [ ! -r "$DD" ] || [ ! -w "$DYN" ]; then
	fail defer/deferred "device '$dev': no device, or $DD or $DYN missing"
	finish
fi

# dev_err_probe() logs a deferral at debug level, from drivers/base/core.c
echo 'file drivers/base/core.c format "error %pe" +p' > "$DYN" ||
	note "cannot enable the dev_err_probe debug line"
dmesg -c > /dev/null
modprobe arm_cmn_hnf
sleep 0.5
r=$(deferred_reason)
note "devices_deferred: $(tr '\n' '|' < "$DD")"
case $r in
*"interrupt for DTC$lid:"*) pass defer/deferred ;;
*) fail defer/deferred "reason '$r' (want the driver's, for DTC$lid)" ;;
esac

n1=$(attempts)
errs=$(dmesg -r | grep -E '^<[0-3]>' | grep -E 'arm-cmn-hnf|arm_cmn_hnf')
note "probe: $n1 deferral(s); $(dmesg | grep -F "$dev" | tail -n 3 | tr '\n' '|')"
if [ "$n1" -lt 1 ]; then
	fail defer/probe_ran "no deferral with the driver's reason in the log"
elif [ -n "$(pmus arm_cmn_hnf)" ]; then
	fail defer/probe_ran "registered: $(pmus arm_cmn_hnf | tr '\n' ' ')"
elif [ -n "$errs" ]; then
	fail defer/probe_ran "error lines: $(echo "$errs" | tr '\n' '|')"
else
	pass defer/probe_ran
fi
untouched defer/untouched

echo "$dev" > /sys/bus/platform/drivers_probe 2>/dev/null
sleep 0.5
n2=$(attempts)
r=$(deferred_reason)
if [ "$n2" -gt "$n1" ] && [ -z "$(pmus arm_cmn_hnf)" ]; then
	case $r in
	*"interrupt for DTC$lid:"*) pass defer/retry_ran ;;
	*) fail defer/retry_ran "reason now '$r'" ;;
	esac
else
	fail defer/retry_ran "deferrals $n1 -> $n2, PMUs '$(pmus arm_cmn_hnf | tr '\n' ' ')'"
fi
untouched defer/retry_untouched

if rmmod arm_cmn_hnf && [ ! -e "/sys/bus/platform/devices/$dev/driver" ]; then
	pass defer/unload
else
	fail defer/unload "rmmod failed or $dev still has a driver"
fi
untouched defer/unload_untouched

n3=$(attempts)
modprobe arm_cmn_hnf
sleep 0.5
n4=$(attempts)
c=$(head -n 4 "$CHG" 2>&1)
if [ "$n4" -gt "$n3" ] && [ -z "$(pmus arm_cmn_hnf)" ] && [ -z "$c" ] &&
   deferred_reason | grep -q "interrupt for DTC$lid:"; then
	pass defer/reload_ran
else
	fail defer/reload_ran "deferrals $n3 -> $n4, reason '$(deferred_reason)', written: $(echo "$c" | tr '\n' ';')"
fi
echo 'file drivers/base/core.c format "error %pe" -p' > "$DYN"
finish
