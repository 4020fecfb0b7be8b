#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 1x1 2x2 3x3 4x2-2dtc 8x8-32hnf-4dtc
# subset-meshes: 2x2@dt 4x2-2dtc@dt
# subset-fw: dt
# timeout: 600
# results: 2 + sum(2 + (m.cmn_aliases + 1 if m.armcmn_misplaced == 0 else 2 + m.armcmn_misplaced) + 2 * (m.hnfs - m.armcmn_misplaced - m.armcmn_dtcbug) + (1 if m.hnfs > m.armcmn_misplaced + m.armcmn_dtcbug else 0) + m.armcmn_dtcbug for m in mesh)
# names: model_load modprobe_arm_cmn
# names: armcmn_registered armcmn_table armcmn/dtc_cycles
# names: armcmn/hnf_* armcmn/wrap/hnf_cache_miss if mesh[0].armcmn_misplaced == 0
# names: armcmn_bug_2x2_nodeid/hnf_cache_miss armcmn_bug_2x2_nodeid/hnf_cache_miss@0x* if mesh[0].armcmn_misplaced > 0
# names: armcmn/bynodeid/hnf_cache_miss@0x* armcmn/bynodeid/hnf_qos_pocq_occupancy_write@0x* armcmn/wrap_node/hnf_cache_miss@0x* if mesh[0].hnfs > mesh[0].armcmn_misplaced + mesh[0].armcmn_dtcbug
# names: armcmn_bug_multidtc_bynodeid/hnf_cache_miss@0x* if mesh[0].armcmn_dtcbug > 0
# names: mesh1/armcmn_registered mesh1/armcmn_table mesh1/armcmn/dtc_cycles if nmesh > 1
# names: mesh1/armcmn/hnf_* mesh1/armcmn/wrap/hnf_cache_miss if nmesh > 1 and mesh[1].armcmn_misplaced == 0
# names: mesh1/armcmn_bug_2x2_nodeid/hnf_cache_miss mesh1/armcmn_bug_2x2_nodeid/hnf_cache_miss@0x* if nmesh > 1 and mesh[1].armcmn_misplaced > 0
# names: mesh1/armcmn/bynodeid/hnf_cache_miss@0x* mesh1/armcmn/bynodeid/hnf_qos_pocq_occupancy_write@0x* mesh1/armcmn/wrap_node/hnf_cache_miss@0x* if nmesh > 1 and mesh[1].hnfs > mesh[1].armcmn_misplaced + mesh[1].armcmn_dtcbug
# names: mesh1/armcmn_bug_multidtc_bynodeid/hnf_cache_miss@0x* if nmesh > 1 and mesh[1].armcmn_dtcbug > 0
# names: mesh[2-9]/* if nmesh > 2
#
# Cross-check of the model with Debian's stock arm-cmn driver (an
# independent implementation of the same hardware), on every mesh of the
# file (result names of mesh i > 0 start with mesh<i>/): every alias the
# test list gives arm-cmn (hnf_* and dtc_cycles, encodings from the list)
# must count exactly the model's ground truth, in aggregate and with
# bynodeid=1 on every HN-F, across 16-bit local wraps and a 32-bit global
# counter wrap.
#
# Which upstream bugs the running kernel's arm-cmn has is a per-kernel table
# (lib-armcmn.sh, with the evidence: file and lines of each kernel's
# arm-cmn.c; the self-built debug kernel is 6.12's source). Where a kernel
# has a bug, the hardware facts (the model) stay the truth and the case
# predicts the wrong value arm-cmn must show, with the formula in
# lib-counts.sh (lc_armcmn_pred_*, shared reference 1.5, 2.6 and 2.7); the
# twin cases in 30-hnf-counts.sh check that arm_cmn_hnf counts them
# exactly. Where a kernel does not have it, the same nodes are checked for
# exact counts: a positive check of the model by an independent driver.
#   armcmn_table                   the width arm-cmn logged (dyndbg) for the
#                                  mesh is the one the table expects
#   armcmn_bug_2x2_nodeid          meshes with both dimensions <= 2, on
#                                  kernels whose arm-cmn sizes the node-id
#                                  X/Y fields from the mesh (1 bit; 6.1,
#                                  6.12, 7.2): HN-Fs on X=1 land on another
#                                  XP, whose DTM then counts a port/device
#                                  slot nothing feeds: 0 for each such node
#                                  (bynodeid), the truth of the others
#                                  (aggregated)
#   armcmn_bug_multidtc_bynodeid   bynodeid on an HN-F sharing an XP with DTC
#                                  n>0 (6.1, 6.12; 5.10 and 7.2 count every
#                                  event on every DTC): arm-cmn pairs its
#                                  16-bit local counter with a global
#                                  counter it never claimed nor reads, so
#                                  every carry is lost: truth - 65536 *
#                                  floor((L0 + truth) / 65536), L0 the local
#                                  counter before the run (mod 2^64: when
#                                  the local counter ends below L0, just
#                                  under 2^64, as perf stat prints it,
#                                  through a double)
# (tools/testing/vm/manifest.py armcmn_bits and armcmn_multidtc_bug give the
# host the same table, to count the results.)
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-armcmn.sh

# Cycles per step: at the rates of lc_set_rates (>= 0.5 events per cycle per
# HN-F) every HN-F produces more than 2^16 events, so the local counters wrap.
N=200000

check model_load model_load || finish
dmesg -c > /dev/null
# dyndbg: arm-cmn logs the node-id coordinate width it derived
check modprobe_arm_cmn modprobe arm-cmn dyndbg=+p || finish

# what this kernel's arm-cmn is expected to do (lib-armcmn.sh)
armcmn_has_bug 2x2_nodeid 2>/dev/null
if [ $? -eq 2 ]; then
	fail armcmn_table "no arm-cmn expectations for kernel $(uname -r) in lib-armcmn.sh"
	finish
fi
bugs=
for b in 2x2_nodeid multidtc_bynodeid nodeid_mismatch; do
	armcmn_has_bug $b && bugs="$bugs $b"
done
note "kernel $(armcmn_kernel) ($(uname -r)): arm-cmn bugs expected:${bugs:- none}"

m=0
while [ $m -lt "$(mesh_count)" ]; do
	P=$(lc_cmn_pmu $m)
	pre=
	[ $m -eq 0 ] || pre=mesh$m/
	if lc_pmu_wait "$P"; then
		pass "${pre}armcmn_registered"
	else
		fail "${pre}armcmn_registered" "no $P after modprobe arm-cmn: $(dmesg | grep -i cmn | tail -n 2)"
		m=$((m + 1))
		continue
	fi
	bits=$(armcmn_bits_for "$(lc_info $m x)" "$(lc_info $m y)")
	# one "ID width" line per mesh, in probe order (= mesh order)
	logged=$(dmesg | sed -n 's/.*arm-cmn .*mesh [0-9]*x[0-9]*, ID width \([0-9]*\).*/\1/p' |
		sed -n "$((m + 1))p")
	if [ "$logged" = "$bits" ]; then
		pass "${pre}armcmn_table"
	else
		fail "${pre}armcmn_table" "arm-cmn logged ID width '${logged:-nothing}' for mesh $m, the table for $(armcmn_kernel) says $bits"
	fi

	lc_set_rates $m
	misplaced=$(LC_ARMCMN_BITS=$bits lc_armcmn_misplaced $m | tr '\n' ' ')
	dtcbug=
	armcmn_has_bug multidtc_bynodeid && dtcbug=$(lc_on_dtc_xp $m | tr '\n' ' ')
	good=
	for n in $(lc_hnfs $m); do
		case " $misplaced $dtcbug " in *" $n "*) ;; *) good="$good $n" ;; esac
	done
	note "mesh $m: arm-cmn: $(dmesg | grep 'ID width' | sed -n "$((m + 1))p" | sed 's/^.*arm-cmn/arm-cmn/'); CMN-600 rule: $(lc_coord_bits $m) bits"
	note "mesh $m: HN-Fs: $(lc_hnfs $m | tr '\n' ' '); arm-cmn misplaces: ${misplaced:-none}; on a DTC n>0 XP: $(lc_on_dtc_xp $m | tr '\n' ' ')(multi-DTC bug expected there: $([ -n "$dtcbug" ] && echo yes || echo no))"

	if [ -z "$misplaced" ]; then
		# every alias, aggregated, exact (dtc_cycles == N is one of them)
		lc_all_aliases "${pre}armcmn" "$P" $m $N
		# 32-bit global counter wrap, aggregated
		lc_wrap_check "${pre}armcmn/wrap" "$P" $m hnf_cache_miss 1
	else
		# aggregated: the truth of the HN-Fs it places right
		LC_PREDICT=lc_armcmn_pred_good LC_ARMCMN_MESH=$m LC_ARMCMN_BAD=$misplaced \
			lc_batch_check "${pre}armcmn_bug_2x2_nodeid" "$P" $m $N \
			"$P/hnf_cache_miss/|hnf_cache_miss|*"
		# bynodeid on a misplaced HN-F: 0
		for n in $misplaced; do
			LC_PREDICT=lc_armcmn_pred_zero lc_batch_check "${pre}armcmn_bug_2x2_nodeid" \
				"$P" $m $N "$P/hnf_cache_miss,bynodeid=1,nodeid=$n/|hnf_cache_miss|$n"
		done
		# dtc_cycles does not depend on node ids
		lc_batch_check "${pre}armcmn" "$P" $m $N "$P/dtc_cycles/|dtc_cycles|*"
	fi

	# bynodeid on every HN-F arm-cmn handles correctly (on a kernel without
	# the multi-DTC bug, also those on the XP of DTC n>0: a positive check)
	if [ -n "$good" ]; then
		lc_per_node "${pre}armcmn/bynodeid" "$P" $m $N hnf_cache_miss "$good"
		lc_per_node "${pre}armcmn/bynodeid" "$P" $m $N hnf_qos_pocq_occupancy_write "$good"
		# shellcheck disable=SC2086 # word splitting wanted
		set -- $good
		lc_wrap_check "${pre}armcmn/wrap_node" "$P" $m hnf_cache_miss 1 "$1"
	fi

	# multi-DTC bynodeid: the step gives > 2^16 events to the node
	for n in $dtcbug; do
		# shellcheck disable=SC2046 # word splitting wanted
		set -- $(lc_xp_of $m "$n")
		LC_ARMCMN_L0=$(lc_dtm_counter $m "$1" "$2" 0)
		note "mesh $m: HN-F $n: XP ($1,$2) DTM counter 0 is $LC_ARMCMN_L0 before the run"
		if ! is_uint "$LC_ARMCMN_L0"; then
			fail "${pre}armcmn_bug_multidtc_bynodeid/hnf_cache_miss@$n" \
				"cannot read XP ($1,$2)'s DTM counter through /dev/mem"
			continue
		fi
		LC_PREDICT=lc_armcmn_pred_lost_carries LC_ARMCMN_L0=$LC_ARMCMN_L0 \
			lc_batch_check "${pre}armcmn_bug_multidtc_bynodeid" "$P" $m $N \
			"$P/hnf_cache_miss,bynodeid=1,nodeid=$n/|hnf_cache_miss|$n"
	done
	m=$((m + 1))
done

rmmod arm_cmn 2>/dev/null
finish
