#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: numa1
# numa: 2
# results: 15
# skip: * if mesh[0].numa < 0
# names: model_load modprobe_arm_cmn_hnf probe_cpumask_online probe_irq_follows_cpu
# names: probe_no_report probe_cpumask_in_node offline_cpumask_online offline_irq_follows_cpu
# names: offline_no_report offline_cpumask_moved node_back_cpumask node_back_cpumask_online
# names: node_back_irq_follows_cpu node_back_no_report node_back_count/slc_miss
#
# Interrupt affinity on a two-node guest (CPU 0 in node 0, CPU 1 in node 1,
# the mesh in node 1): /proc/irq/<n>/effective_affinity of every interrupt
# of the PMU is the CPU in its cpumask
#   probe_*             after probe (the cpumask is node 1's CPU)
#   offline_*           after that CPU went offline (counting moved off the
#                       node)
#   node_back_*         after the CPU came back: counting returns to the
#                       mesh's node, and so do the interrupts
#   node_back_count/slc_miss  counting there is exact
# A mesh file without numa= on mesh 0 skips every case.
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-abuse.sh

N=100000
P=$(lc_pmu 0)

node=$(mesh_opt 0 numa)
if ! is_uint "$node"; then
	for c in model_load modprobe_arm_cmn_hnf \
		probe_cpumask_online probe_irq_follows_cpu probe_no_report \
		probe_cpumask_in_node offline_cpumask_online \
		offline_irq_follows_cpu offline_no_report offline_cpumask_moved \
		node_back_cpumask node_back_cpumask_online \
		node_back_irq_follows_cpu node_back_no_report \
		node_back_count/slc_miss; do
		skip "$c" "mesh 0 has no numa=<node>"
	done
	finish
fi
check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
lc_pmu_wait $P || { fail registered "no $P"; finish; }
lc_set_rates 0
nodecpus=$(cat "/sys/devices/system/node/node$node/cpulist" 2>/dev/null)
cpu=$(lc_pmu_cpu $P)
note "mesh node $node (cpus '$nodecpus'), PMU cpumask $cpu"
ab_run probe_ cmn-stress irqs
check_eq probe_cpumask_in_node "$cpu" "$nodecpus"

echo 0 > "/sys/devices/system/cpu/cpu$cpu/online"
moved=$(lc_pmu_cpu $P)
note "cpu$cpu offline: cpumask $moved"
ab_run offline_ cmn-stress irqs
if [ "$moved" != "$cpu" ]; then pass offline_cpumask_moved; else fail offline_cpumask_moved "still $cpu"; fi

echo 1 > "/sys/devices/system/cpu/cpu$cpu/online"
back=$(lc_pmu_cpu $P)
note "cpu$cpu online again: cpumask $back"
check_eq node_back_cpumask "$back" "$cpu"
ab_run node_back_ cmn-stress irqs
lc_batch_check node_back_count $P 0 $N "$P/slc_miss/|slc_miss|*"
rmmod arm_cmn_hnf
finish
