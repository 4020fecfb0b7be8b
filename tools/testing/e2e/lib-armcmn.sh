# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Which upstream arm-cmn bugs the stock arm-cmn.ko of the running kernel has
# (guest library; source it after lib.sh). Decided by reading each kernel's
# drivers/perf/arm-cmn.c in the Debian source package of that kernel
# (linux-source-<series>, the version the harness boots); line numbers are
# of those files. The hardware facts (the model's truth) stay the truth: a
# kernel with a bug must SHOW the difference, a kernel without it must count
# exactly, which makes its cross-check a positive check of the model.
#
# 2x2_nodeid  Node id X/Y width. CMN-600 uses 2 bits per coordinate when
#             both mesh dimensions are <= 4, else 3. A driver that sizes
#             the fields as fls((mesh_x - 1) | (mesh_y - 1)) uses 1 bit on
#             meshes up to 2x2 and puts every node with X=1 on the wrong XP.
#   5.10  no:  5.10.223 arm-cmn.c:297-300 arm_cmn_xyidbits() returns
#              "mesh_x > 4 || mesh_y > 4 ? 3 : 2", the CMN-600 rule
#   6.1   yes: 6.1.192 arm-cmn.c:356-359 fls((mesh_x - 1) | (mesh_y - 1))
#              (the 2024 "Refactor node ID handling. Again." came with
#              Debian's stable updates)
#   6.12  yes: 6.12.117 arm-cmn.c:377-380, same expression
#   7.2   yes: 7.2.13 arm-cmn.c:377-380, same expression
#
# multidtc_bynodeid  A bynodeid event on a node whose XP hosts DTC n > 0 of
#             a multi-DTC CMN-600. A driver that puts that XP in domain n
#             (the only domain it can know on CMN-600) makes the event claim
#             no global counter on DTC 0, and the CMN-600 branch of
#             arm_cmn_event_add() then copies DTC 0's index (-1, none) for
#             DTC n: the DTM's 16-bit carries are never counted.
#   5.10  no:  5.10.223 arm-cmn.c:979 every event uses every DTC
#              (dtcs_used = all), one counter index on all of them
#              (:1033-1039, :722-725)
#   6.1   yes: 6.1.192 arm-cmn.c:1947-1952 (the XP of DTC i is in domain
#              i), :1601-1611 (per-node domains), :1672-1681
#              ("if (j > 0) idx = hw->dtc_idx[0]")
#   6.12  yes: 6.12.117 arm-cmn.c:2178-2183, :1822-1832, :1897-1907
#              ("if (cmn->part == PART_CMN600 && j > 0)")
#   7.2   no:  7.2.13 arm-cmn.c:2371-2372 every CMN-600 XP stays in the
#              unknown domain (-1); 6.12's domain assignment is gone from
#              arm_cmn_init_dtcs() (:2175-2200), so :1830-1831 claim the
#              same counter index on every DTC for every event, as 5.10
#
# nodeid_mismatch  A node whose reported node id names another XP than the
#             one it hangs under (seen on some CMN-600 silicon). Every
#             arm-cmn derives the XP from the node id, never from the
#             parent it found the node under: the node is counted on the
#             wrong DTM input.
#   5.10  yes: 5.10.223 arm-cmn.c:302-311 arm_cmn_init_node_to_xp()
#   6.1   yes: 6.1.192 arm-cmn.c:370-378 arm_cmn_node_to_xp(), :1958
#   6.12  yes: 6.12.117 arm-cmn.c:391-399 the same, :2189
#   7.2   yes: 7.2.13 arm-cmn.c:391-399 the same, :2192
#
# irq_cpu0    Where the DTC interrupts go. A driver that routes its lines
#             to cmn->cpu before it has chosen cmn->cpu sends them to CPU 0
#             (the zeroed structure), while its PMU (cpumask: the CPU perf
#             counts and reads on) is the CPU that ran the probe; the
#             overflow handler then adds to the events from another CPU.
#   5.10  yes: 5.10.223 arm-cmn.c:1225 arm_cmn_init_irqs() routes each
#              line to cmn->cpu, called at :1532, before :1536
#              "cmn->cpu = raw_smp_processor_id()"
#   6.1   no:  6.1.192 arm-cmn.c:2337 chooses cmn->cpu before :2361
#              arm_cmn_init_irqs() (:1884)
#   6.12  no:  6.12.117 arm-cmn.c:2585 before :2609 (:2113)
#   7.2   no:  7.2.13 arm-cmn.c:2572 before :2596 (:2114)
#
# Functions: armcmn_kernel, armcmn_has_bug, armcmn_bits_for.

ARMCMN_BUGS_5_10="nodeid_mismatch irq_cpu0"
ARMCMN_BUGS_6_1="2x2_nodeid multidtc_bynodeid nodeid_mismatch"
ARMCMN_BUGS_6_12="2x2_nodeid multidtc_bynodeid nodeid_mismatch"
ARMCMN_BUGS_7_2="2x2_nodeid nodeid_mismatch"

# armcmn_kernel: the kernel series of the running kernel (5.10, 6.1, 6.12,
# 7.2), from uname -r; nothing for a kernel this table does not know
armcmn_kernel() {
	case $(uname -r) in
	5.10.*) echo 5.10 ;;
	6.1.*) echo 6.1 ;;
	6.12.*) echo 6.12 ;;
	7.2.*) echo 7.2 ;;
	esac
}

# armcmn_has_bug BUG: 0 if the running kernel's arm-cmn has BUG, 1 if not,
# 2 (and a line on stderr) for a kernel without expectations
armcmn_has_bug() {
	local __k __l
	__k=$(armcmn_kernel)
	case $__k in
	5.10) __l=$ARMCMN_BUGS_5_10 ;;
	6.1) __l=$ARMCMN_BUGS_6_1 ;;
	6.12) __l=$ARMCMN_BUGS_6_12 ;;
	7.2) __l=$ARMCMN_BUGS_7_2 ;;
	*) echo "no arm-cmn expectations for kernel $(uname -r)" >&2; return 2 ;;
	esac
	case " $__l " in *" $1 "*) return 0 ;; esac
	return 1
}

# armcmn_bits_for X Y: the node id coordinate width the running kernel's
# arm-cmn uses on an XxY mesh (2x2_nodeid decides the rule)
armcmn_bits_for() {
	local __v __n=0
	if armcmn_has_bug 2x2_nodeid; then
		__v=$(( ($1 - 1) | ($2 - 1) ))
		while [ "$__v" -gt 0 ]; do __v=$((__v >> 1)); __n=$((__n + 1)); done
		echo $__n
	elif [ "$1" -le 4 ] && [ "$2" -le 4 ]; then
		echo 2
	else
		echo 3
	fi
}
