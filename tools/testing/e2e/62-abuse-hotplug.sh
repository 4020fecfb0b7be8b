#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: 4x2-2dtc 8x8-32hnf-4dtc two-mesh
# subset-fw: dt
# timeout: 300
# results: 18 + (8 if nmesh > 1 else 0)
# names: model_load modprobe_arm_cmn_hnf hp_open hp_count_exact hp_hotplug
# names: hp_cpumask_moved hp_cpumask_online hp_irq_follows_cpu hp_no_report
# names: hpfree_open hpfree_hotplug hpfree_cpumask_online hpfree_irq_follows_cpu if nmesh > 1
# names: hpfree_count_monotonic hpfree_count_within_truth hpfree_count_exact_after if nmesh > 1
# names: hpfree_no_report if nmesh > 1
# names: race_mode hprace_open hprace_hotplug hprace_cpumask_online hprace_irq_follows_cpu
# names: hprace_count_monotonic hprace_count_within_truth hprace_count_exact_after
# names: hprace_no_report
#
# CPU hotplug under counting (cmn-stress hotplug, tools/testing/stress): with
# an aggregated event, one HN-F's event and dtc_cycles open on every mesh,
# HOTPLUG_CYCLES (default 5; make stress: 100) times: step, offline the CPU
# that counts a mesh (the meshes in turn), step, bring it back, step.
#   hp_count_exact      after every step each count equals the model's truth
#                       since the open
#   hp_cpumask_moved    offlining the PMU's CPU moves the cpumask
#   hp_cpumask_online, hp_irq_follows_cpu
#                       after every hotplug each PMU counts on an online CPU
#                       and /proc/irq/<n>/effective_affinity of each of its
#                       interrupts is that CPU
#   hp_no_report        nothing in the kernel log
# On a system of several meshes (two-mesh) also with the model's clock
# running free (HOTPLUG_FREE_CYCLES, default 5; make stress: 100):
#   hpfree_count_monotonic, hpfree_count_within_truth
#                       every read after a hotplug is >= the previous one and
#                       <= what the model produced since the open
#   hpfree_count_exact_after  one manual step afterwards counts exactly
# Then the same free-clock cycles with every mesh in the model's race mode
# (HOTPLUG_RACE_CYCLES, default 3; make stress: 50), on every mesh file:
# clock threads on every online CPU move the counters while the PMU's CPU
# goes offline and its events move, and carries reach their global
# counters late, so a del() or add() of the migration can meet a carry in
# flight:
#   race_mode           the model took "on near_wrap" on every mesh
#   hprace_*            as hpfree_*. Not exact across a hotplug (events the
#                       mesh makes while perf moves the events are counted
#                       by no one, for any driver), but monotonic, within
#                       the truth, and exact again in the manual step after
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-abuse.sh

CYCLES=${HOTPLUG_CYCLES:-5}
FREE_CYCLES=${HOTPLUG_FREE_CYCLES:-5}
RACE_CYCLES=${HOTPLUG_RACE_CYCLES:-3}
N=100000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
nm=$(lc_nmeshes)
m=0
while [ $m -lt "$nm" ]; do
	lc_pmu_wait "$(lc_pmu $m)" || { fail registered "no $(lc_pmu $m)"; finish; }
	lc_set_rates $m
	m=$((m + 1))
done

ab_run hp_ cmn-stress hotplug -n "$CYCLES" -N $N
if [ "$nm" -gt 1 ]; then
	ab_run hpfree_ cmn-stress hotplug -F -n "$FREE_CYCLES" -N $N
fi
if check race_mode model_race 'on near_wrap'; then
	ab_run hprace_ cmn-stress hotplug -F -n "$RACE_CYCLES" -N $N
	model_race off
fi
rmmod arm_cmn_hnf
finish
