#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default two-mesh
# subset: two-mesh
# timeout: 300
# results: 16
# skip: two_exact two_close if hnf_xp_max > 2 or hnf_xp_min > 1
# names: model_load life_load life_cpumask_online life_irq_follows_cpu life_open
# names: life_count_exact life_unload life_no_report modprobe_arm_cmn_hnf unbind_attrs_absent
# names: unbind_refused_idle unbind_refused_busy count_across_unbind two_exact two_close
# names: two_no_report
#
# Lifecycle of arm_cmn_hnf (cmn-stress, tools/testing/stress/cmn-stress.c):
#   life_load, life_count_exact, life_unload, life_irq_follows_cpu, ...
#                       LIFE_LOADS (default 10; make stress: 200) cycles of
#                       load, count exactly on every mesh, unload; after each
#                       probe the PMUs' interrupts go to their cpumask CPU
#   unbind_attrs_absent the driver has no bind/unbind files
#                       (suppress_bind_attrs, see the admin guide)
#   unbind_refused_idle, unbind_refused_busy
#                       writing the device to .../arm-cmn-hnf/unbind fails,
#                       with no event and with an event open; the device
#                       stays bound and the PMU registered
#   count_across_unbind the open event counts exactly across the attempt
#   two_*               two processes count at once; one closes, the other
#                       keeps counting exactly; a third joins. Both count
#                       an event on every HN-F, two counters of each HN-F's
#                       DTM, and one also an HN-F of its own: two_exact and
#                       two_close skip where mesh 0 has an XP with more
#                       than two HN-Fs or none with just one.
# Every exact count must also have run all the time it was enabled (no
# multiplexing); the one-HN-F events are on an XP whose DTM has a counter
# left (cmn-stress picks them from the model's node ids).
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-abuse.sh

LOADS=${LIFE_LOADS:-10}
P=$(lc_pmu 0)
N=100000
DRV=/sys/bus/platform/drivers/arm-cmn-hnf

check model_load model_load || finish
nm=$(lc_nmeshes)
m=0
while [ $m -lt "$nm" ]; do
	lc_set_rates $m
	m=$((m + 1))
done

# load / count / unload
ab_run life_ cmn-stress load -k "$CMN_DRIVER_KO" -n "$LOADS" -N $N

# unbind is refused, idle and busy
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
lc_pmu_wait "$P" || { fail registered "no $P"; finish; }
dev=$(ab_platform_dev) || { fail unbind_attrs_absent "no device bound to arm-cmn-hnf"; finish; }
name=$(basename "$dev")
note "device $name, driver directory: $(ls "$DRV" | tr '\n' ' ')"
if [ ! -e "$DRV/unbind" ] && [ ! -e "$DRV/bind" ]; then
	pass unbind_attrs_absent
else
	fail unbind_attrs_absent "$DRV has bind/unbind: $(ls "$DRV" | tr '\n' ' ')"
fi
# still_bound WHY-NAME: the device is bound and every PMU registered
still_bound() {
	local d
	d=$(basename "$(readlink "$dev/driver" 2>/dev/null)")
	[ "$d" = arm-cmn-hnf ] && pmu_exists "$P"
}
if (echo "$name" > "$DRV/unbind") 2>/dev/null; then
	fail unbind_refused_idle "writing $name to $DRV/unbind succeeded"
elif still_bound; then
	pass unbind_refused_idle
else
	fail unbind_refused_idle "the device is no longer bound or the PMU is gone"
fi
lc_snap 0 "$LC_TMP/u0"
perf stat -x, -a -o "$LC_TMP/unbind.csv" -e "$P/slc_miss/" -- sh -c "
	echo $N > $LC_M/step
	if (echo $name > $DRV/unbind) 2>/dev/null; then echo done; else echo refused; fi > $LC_TMP/unbind.res
	echo $N > $LC_M/step
" > "$LC_TMP/unbind.out" 2>&1
lc_snap 0 "$LC_TMP/u1"
if [ "$(cat "$LC_TMP/unbind.res")" = refused ] && still_bound; then
	pass unbind_refused_busy
else
	fail unbind_refused_busy "with an event open: unbind $(cat "$LC_TMP/unbind.res"), still bound: $(still_bound && echo yes || echo no)"
fi
got=$(lc_count1 "$LC_TMP/unbind.csv")
want=$(( $(cmn-perf truth -f "$LC_TMP/u1" 1 all) - $(cmn-perf truth -f "$LC_TMP/u0" 1 all) ))
if [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
	pass count_across_unbind
else
	fail count_across_unbind "count '$got', truth $want"
fi

# two processes
ab_run two_ cmn-stress twoproc -N $N
rmmod arm_cmn_hnf
finish
