#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 1x1 2x2 3x3 4x2-2dtc 8x8-32hnf-4dtc
# subset-meshes: 2x2@dt 4x2-2dtc@dt
# timeout: 600
#
# Cross-check of the model with Debian's stock arm-cmn driver (an
# independent implementation of the same hardware): every hnf_* alias and
# dtc_cycles of arm_cmn_0 must count exactly the model's ground truth, in
# aggregate and with bynodeid=1 on every HN-F, across 16-bit local wraps and
# a 32-bit global counter wrap.
#
# Which upstream bugs the running kernel's arm-cmn has is a per-kernel table
# (lib-armcmn.sh, with the evidence: file and lines of each kernel's
# arm-cmn.c). Where a kernel has a bug, the hardware facts (the model) stay
# the truth and the case becomes a bug demonstration that must SHOW the
# difference (LC_EXPECT=ne); the twin cases in 30-hnf-counts.sh check that
# arm_cmn_hnf counts the same case exactly. Where a kernel does not have it,
# the same nodes are checked for exact counts: a positive check of the model
# by an independent driver.
#   armcmn_bug_2x2_nodeid          meshes with both dimensions <= 2, on
#                                  kernels whose arm-cmn sizes the node-id
#                                  X/Y fields from the mesh (1 bit): nodes on
#                                  X=1 land on the wrong XP (6.1, 6.12, 7.2;
#                                  5.10 has the CMN-600 rule)
#   armcmn_bug_multidtc_bynodeid   bynodeid on an HN-F sharing an XP with DTC
#                                  n>0: arm-cmn never claims a global counter
#                                  for it, so the carries of its 16-bit local
#                                  counter are lost (6.1, 6.12; 5.10 and 7.2
#                                  count every event on every DTC)
#   armcmn_table                   the width arm-cmn logged (dyndbg) is the
#                                  one the table expects for this kernel
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-armcmn.sh

# Cycles per step: at the rates of lc_set_rates (>= 0.5 events per cycle per
# HN-F) every HN-F produces more than 2^16 events, so the local counters wrap.
N=200000
P=arm_cmn_0

check model_load model_load || finish
dmesg -c > /dev/null
# dyndbg: arm-cmn logs the node-id coordinate width it derived
check modprobe_arm_cmn modprobe arm-cmn dyndbg=+p || finish
if lc_pmu_wait $P; then
	pass armcmn_registered
else
	fail armcmn_registered "no $P after modprobe arm-cmn: $(dmesg | grep -i cmn | tail -n 2)"
	finish
fi

lc_set_rates 0
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
bits=$(armcmn_bits_for "$(lc_info 0 x)" "$(lc_info 0 y)")
logged=$(dmesg | sed -n 's/.*arm-cmn .*mesh [0-9]*x[0-9]*, ID width \([0-9]*\).*/\1/p' | tail -n 1)
if [ "$logged" = "$bits" ]; then
	pass armcmn_table
else
	fail armcmn_table "arm-cmn logged ID width '${logged:-nothing}', the table for $(armcmn_kernel) says $bits"
fi
misplaced=$(LC_ARMCMN_BITS=$bits lc_armcmn_misplaced 0 | tr '\n' ' ')
dtcbug=
if armcmn_has_bug multidtc_bynodeid; then
	dtcbug=$(lc_on_dtc_xp 0 | tr '\n' ' ')
fi
good=
for n in $(lc_hnfs 0); do
	case " $misplaced $dtcbug " in *" $n "*) ;; *) good="$good $n" ;; esac
done
note "arm-cmn: $(dmesg | grep -m1 'ID width' | sed 's/^.*arm-cmn/arm-cmn/'); CMN-600 rule: $(lc_coord_bits 0) bits"
note "HN-Fs: $(lc_hnfs 0 | tr '\n' ' '); arm-cmn misplaces: ${misplaced:-none}; on a DTC n>0 XP: $(lc_on_dtc_xp 0 | tr '\n' ' ')(multi-DTC bug expected there: $([ -n "$dtcbug" ] && echo yes || echo no))"

if [ -z "$misplaced" ]; then
	# every alias, aggregated, exact (dtc_cycles == N is one of them)
	lc_all_aliases armcmn $P 0 $N
	# 32-bit global counter wrap, aggregated and on one HN-F
	lc_wrap_check armcmn/wrap $P 0 hnf_cache_miss 1
else
	# Aggregated counts include the misplaced nodes: must be wrong.
	LC_EXPECT=ne lc_batch_check armcmn_bug_2x2_nodeid $P 0 $N \
		"$P/hnf_cache_miss/|hnf_cache_miss|*"
	for n in $misplaced; do
		LC_EXPECT=ne lc_batch_check armcmn_bug_2x2_nodeid $P 0 $N \
			"$P/hnf_cache_miss,bynodeid=1,nodeid=$n/|hnf_cache_miss|$n"
	done
	# dtc_cycles does not depend on node ids
	lc_batch_check armcmn $P 0 $N "$P/dtc_cycles/|dtc_cycles|*"
fi

# bynodeid on every HN-F arm-cmn handles correctly (on a kernel without
# the multi-DTC bug, also those on the XP of DTC n>0: a positive check)
if [ -n "$good" ]; then
	lc_per_node armcmn/bynodeid $P 0 $N hnf_cache_miss "$good"
	lc_per_node armcmn/bynodeid $P 0 $N hnf_qos_pocq_occupancy_write "$good"
	set -- $good
	lc_wrap_check armcmn/wrap_node $P 0 hnf_cache_miss 1 "$1"
fi

# multi-DTC bynodeid edge case; the step gives > 2^16 events to the node
for n in $dtcbug; do
	LC_EXPECT=ne lc_batch_check armcmn_bug_multidtc_bynodeid $P 0 $N \
		"$P/hnf_cache_miss,bynodeid=1,nodeid=$n/|hnf_cache_miss|$n"
done

rmmod arm_cmn 2>/dev/null
finish
