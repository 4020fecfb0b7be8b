#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: numa1
# numa: 2
# timeout: 240
# results: 8 + min(2, 4 // max(1, hnf_xp_max))
# skip: * if mesh[0].numa < 0
# skip: firmware_node if fw == "acpi"
# names: model_load modprobe_arm_cmn_hnf registered firmware_node cpumask_local
# names: local/slc_miss cpumask_moved after_offline/slc_miss after_online/slc_miss
# names: after_offline/mc_reqs if 4 // max(1, hnf_xp_max) >= 2
#
# NUMA locality: the guest has two nodes (CPU 0 in node 0, CPU 1 in node 1)
# and the firmware puts the mesh in node 1 (DT numa-node-id, ACPI _PXM).
#   firmware_node       the platform device's numa_node is the mesh's numa=
#                       (DT; ACPI sets the node after device_add(), so sysfs
#                       has no numa_node there: SKIP, cpumask_local checks
#                       the driver's view)
#   cpumask_local       the PMU's cpumask is a CPU of that node, as listed by
#                       /sys/devices/system/node/node<n>/cpulist
#   cpumask_moved       offlining that CPU moves the cpumask to an online CPU
#   after_offline/...   counting there equals the model's truth (as many
#                       aggregated events as fit at once, at most two)
#   after_online/...    the CPU back online, counting still equals the truth
# A mesh file without numa= on mesh 0 skips every case.
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=$(lc_pmu 0)
per=$(awk '/^[ \t]*#/ { next } $1 == "mesh" { m++; next }
	m == 1 && $1 == "node" && $2 == "hn-f" { print $3, $4 }' "$CMN_MESH" |
	sort | uniq -c | awk 'BEGIN { m = 1 } $1 > m { m = $1 } END { print m }')
k=$((4 / per))
[ $k -le 2 ] || k=2
AFTER="$P/slc_miss/|slc_miss|*"
[ $k -lt 2 ] || AFTER="$AFTER $P/mc_reqs/|mc_reqs|*"

# in_cpulist CPU LIST: CPU is in a sysfs cpulist such as "1", "1-3,5"
in_cpulist() {
	local c=$1 r lo hi
	for r in $(echo "$2" | tr ',' ' '); do
		lo=${r%-*}
		hi=${r#*-}
		[ "$c" -ge "$lo" ] && [ "$c" -le "$hi" ] && return 0
	done
	return 1
}

node=$(mesh_opt 0 numa)
if ! is_uint "$node"; then
	for c in model_load modprobe_arm_cmn_hnf registered firmware_node cpumask_local \
		local/slc_miss cpumask_moved after_offline/slc_miss after_online/slc_miss; do
		skip "$c" "mesh 0 has no numa=<node>"
	done
	[ $k -lt 2 ] || skip after_offline/mc_reqs "mesh 0 has no numa=<node>"
	finish
fi
if [ ! -r /sys/devices/system/node/node$node/cpulist ]; then
	fail guest_numa "no NUMA node $node in the guest: $(ls /sys/devices/system/node 2>&1 | tr '\n' ' ')"
	finish
fi
nodecpus=$(cat /sys/devices/system/node/node$node/cpulist)
note "node$node cpulist: '$nodecpus'; online: $(cat /sys/devices/system/cpu/online)"
if [ -z "$nodecpus" ]; then
	fail guest_numa "node$node has no CPUs"
	finish
fi

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
if lc_pmu_wait "$P"; then
	pass registered
else
	fail registered "no $P"
	finish
fi
lc_set_rates 0

# the device the driver bound: what node did the firmware give it? The
# numa_node attribute is only shown when the node is set at device_add():
# true for DT; ACPI sets it just after, so there it is missing and
# cpumask_local below (the driver's view) is the only check.
dev=
for d in /sys/bus/platform/devices/*; do
	[ -e "$d/driver" ] || continue
	case $(cat "$d/modalias" 2>/dev/null) in
	*arm,cmn-600* | *ARMHC600*) dev=$d; break ;;
	esac
done
if [ -z "$dev" ]; then
	fail firmware_node "no bound arm,cmn-600/ARMHC600 platform device"
elif [ -r "$dev/numa_node" ]; then
	note "device $(basename "$dev"): numa_node $(cat "$dev/numa_node")"
	check_eq firmware_node "$(cat "$dev/numa_node")" "$node"
elif [ "${CMN_FW:-}" = acpi ]; then
	skip firmware_node "ACPI: $(basename "$dev") has no numa_node attribute in sysfs"
else
	fail firmware_node "device $(basename "$dev") has no numa_node: firmware gave no node"
fi

cpu=$(lc_pmu_cpu "$P")
note "PMU cpumask: '$(cat "$LC_PMUS/$P/cpumask")'"
if is_uint "$cpu" && in_cpulist "$cpu" "$nodecpus"; then
	pass cpumask_local
else
	fail cpumask_local "cpumask '$cpu' is not in node$node's CPUs '$nodecpus'"
fi
lc_batch_check local $P 0 $N "$P/slc_miss/|slc_miss|*"

if ! is_uint "$cpu" || [ ! -w /sys/devices/system/cpu/cpu$cpu/online ]; then
	fail cpumask_moved "cpu '$cpu' cannot be offlined"
	finish
fi
echo 0 > /sys/devices/system/cpu/cpu$cpu/online
newcpu=$(lc_pmu_cpu "$P")
note "PMU cpumask after offlining cpu$cpu: '$newcpu'"
if is_uint "$newcpu" && [ "$newcpu" != "$cpu" ] && lc_cpu_online "$newcpu" &&
   ! lc_cpu_online "$cpu"; then
	pass cpumask_moved
else
	fail cpumask_moved "cpumask '$newcpu' after cpu$cpu went offline"
fi
# shellcheck disable=SC2086 # word splitting wanted
lc_batch_check after_offline "$P" 0 $N $AFTER

echo 1 > /sys/devices/system/cpu/cpu$cpu/online
note "PMU cpumask after onlining cpu$cpu: '$(cat "$LC_PMUS/$P/cpumask")'"
lc_batch_check after_online $P 0 $N "$P/slc_miss/|slc_miss|*"
rmmod arm_cmn_hnf 2>/dev/null
finish
