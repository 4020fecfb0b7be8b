#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# subset: no
# timeout: 600
# results: 2 + sum(1 + m.hnfs * (m.events + m.occ_classes) for m in mesh)
# names: model_load modprobe_arm_cmn_hnf registered pernode/*@0x*
# names: mesh1/registered mesh1/pernode/*@0x* if nmesh > 1
# names: mesh[2-9]/* if nmesh > 2
#
# Every HN-F event and every POCQ occupancy class, on every HN-F of every
# mesh of the file (bynodeid=1), counted exactly: one alias per encoding
# and per occupancy class, taken from the tests' alias list, with a
# distinct model rate for every HN-F, event and class (a count credited to
# the wrong node, event or class cannot match). The events are packed into
# as few perf runs as the counters allow (4 per XP, 8 per run, one
# occupancy class per HN-F at a time); a multiplexed count fails.
#   registered                  the mesh's PMU exists (mesh<i>/... for i > 0)
#   pernode/<alias>@<nodeid>    exact
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish

m=0
while [ $m -lt "$(mesh_count)" ]; do
	P=$(lc_pmu $m)
	pre=
	[ $m -eq 0 ] || pre=mesh$m/
	if lc_pmu_wait "$P"; then
		pass "${pre}registered"
	else
		fail "${pre}registered" "no $P after modprobe"
		m=$((m + 1))
		continue
	fi
	lc_set_rates $m
	lc_per_node_all "${pre}pernode" "$P" $m $N
	m=$((m + 1))
done
rmmod arm_cmn_hnf 2>/dev/null
finish
