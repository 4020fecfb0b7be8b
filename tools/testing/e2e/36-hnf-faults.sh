#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# subset-fw: dt
# timeout: 300
# results: 26
# skip: corrupt_fw_nodeid_mismatch/armcmn if mismatch_armcmn == "oob"
# names: child_loop/probe_refused child_loop/one_error_line child_loop/untouched child_count/probe_refused child_count/one_error_line child_count/untouched
# names: child_oob/probe_refused child_oob/one_error_line child_oob/untouched root_not_cfg/probe_refused root_not_cfg/one_error_line root_not_cfg/untouched
# names: no_dtc/probe_refused no_dtc/one_error_line no_dtc/untouched
# names: unknown_type/probe_ok unknown_type/slc_miss
# names: nodeid_mismatch/probe_ok nodeid_mismatch/slc_miss@0x* nodeid_mismatch/slc_miss
# names: corrupt_fw_nodeid_mismatch/armcmn garbage_counters/probe_ok
# names: garbage_counters/slc_miss garbage_counters/dtc_cycles
# names: armcmn/garbage_counters/hnf_cache_miss armcmn/garbage_counters/dtc_cycles
#
# Broken firmware / configuration space (the model's fault= parameter; the
# model is reloaded with each fault in turn, the driver probed each time):
#   <fault>/probe_refused   child_loop, child_count, child_oob, root_not_cfg,
#                           no_dtc: no PMU registered
#   <fault>/one_error_line  exactly one error-level line from arm-cmn-hnf
#                           per mesh of the file (the model breaks every
#                           image), each naming another device (printed
#                           as a note)
#   <fault>/untouched       the refused probe wrote nothing: every mesh's
#                           configuration space still equals the image the
#                           model built at load (the model's "changed"
#                           file is empty), so no PMU register was
#                           programmed before the probe knew it would work
#   unknown_type/...        an unknown node type is skipped: the PMU
#                           registers and counts exactly
#   nodeid_mismatch/...     corrupted firmware: the HN-F whose node id does
#                           not match the XP it hangs off is counted exactly
#                           (bynodeid and aggregated: the driver records the
#                           parent XP during discovery); where the false id
#                           is another HN-F's true id (an HN-F on the same
#                           port and device of the next XP), bynodeid on it
#                           cannot say which HN-F is meant: slc_miss@<id> is
#                           then EINVAL, and the probe warned once per HN-F
#                           of the id, naming it;
#   corrupt_fw_nodeid_mismatch/armcmn  the stock arm-cmn on the same
#                           image, bynodeid on the false id. arm-cmn takes
#                           the node's XP from its node id, never from the
#                           XP it hangs off: xps[mesh_x * y + x], x and y
#                           decoded with the running kernel's coordinate
#                           width (lib-armcmn.sh: the CMN-600 rule on 5.10,
#                           fls((mesh_x - 1) | (mesh_y - 1)) on 6.1, 6.12
#                           and 7.2), port and device below them
#                           (lc_armcmn_decode, the decode the 2x2_nodeid
#                           cases of 20-armcmn-crosscheck use). Where that
#                           index lands decides what arm-cmn counts:
#                             another XP: it programs that XP's DTM to
#                             count a port/device slot nothing feeds: 0
#                             (lc_armcmn_pred_zero);
#                             the HN-F's own XP, same port and device:
#                             exactly the truth (no width and mesh size
#                             gives that with the model's false id, which
#                             names the next XP);
#                             past the end of its XP array (1x1 on every
#                             kernel; on 6.1, 6.12 and 7.2 an HN-F at (0,0)
#                             of a 2x1 mesh or at (0,1) of a 2x2 mesh,
#                             whose false X=1 decodes with one bit to X=2:
#                             xps[2] of 2, xps[4] of 4): an out-of-bounds
#                             read inside arm-cmn, whatever the memory
#                             after its XPs holds; arm-cmn is not loaded
#                             and the case is SKIP (manifest fact
#                             mismatch_armcmn "oob")
#   garbage_counters/...    counters that start with garbage: no crash, and
#                           the counts are still exact (armcmn/garbage_counters:
#                           the stock driver on the same image, as evidence,
#                           predicted as 20-armcmn-crosscheck predicts it:
#                           lc_armcmn_pred_good where it misplaces HN-Fs)
# Oopses/WARNINGs are caught by the host for the whole boot.
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-armcmn.sh

N=200000
P=$(lc_pmu 0)
C=$(lc_cmn_pmu 0)

up() { # FAULT: model with that fault, driver probed; dmesg of the probe kept
	lc_model_up "$1" || { fail "$1/model_load" "model_load fault=$1 failed"; return 1; }
	dmesg -c > /dev/null
	modprobe arm_cmn_hnf
	sleep 0.2
	dmesg -r > "$LC_TMP/dmesg.$1"
	return 0
}

# untouched NAME: no mesh's configuration space differs from its reset image
untouched() {
	local m=0 c all=
	while [ $m -lt "$(mesh_count)" ]; do
		c=$(head -n 4 "$LC_M/mesh$m/changed" 2>&1)
		[ -z "$c" ] || all="$all mesh$m: $(echo "$c" | tr '\n' ';')"
		m=$((m + 1))
	done
	if [ -z "$all" ]; then
		pass "$1"
	else
		fail "$1" "written since reset (offset reset now):$all"
	fi
}

for f in child_loop child_count child_oob root_not_cfg no_dtc; do
	up $f || continue
	if [ -z "$(pmus arm_cmn_hnf)" ]; then
		pass "$f/probe_refused"
	else
		fail "$f/probe_refused" "registered: $(pmus arm_cmn_hnf | tr '\n' ' ')"
	fi
	errs=$(grep -E '^<[0-3]>' "$LC_TMP/dmesg.$f" | grep -E 'arm-cmn-hnf|arm_cmn_hnf')
	n=0
	[ -z "$errs" ] || n=$(echo "$errs" | wc -l)
	note "$f: $(echo "$errs" | tr '\n' '|')"
	# one line per device: "arm-cmn-hnf <device>: ..."
	ndev=$(echo "$errs" | sed -n 's/.*arm-cmn-hnf \([^ ]*\): .*/\1/p' | sort -u | wc -l)
	if [ "$n" -eq "$(mesh_count)" ] && [ "$ndev" -eq "$n" ]; then
		pass "$f/one_error_line"
	else
		fail "$f/one_error_line" "$n error lines ($ndev devices) for $(mesh_count) mesh(es): $(echo "$errs" | tr '\n' '|')"
	fi
	untouched "$f/untouched"
done

# unknown node type: skipped, the rest works
if up unknown_type; then
	if lc_pmu_wait "$P"; then
		pass unknown_type/probe_ok
		lc_set_rates 0
		lc_batch_check unknown_type $P 0 $N "$P/slc_miss/|slc_miss|*"
	else
		fail unknown_type/probe_ok "no $P: $(grep -E 'arm-cmn-hnf' "$LC_TMP/dmesg.unknown_type" | tail -n 1)"
	fi
fi

# nodeid_mismatch: the model falsifies the node id of the lowest-lid HN-F
# (X moved to the next column; Y on an Nx1... see image.c)
if up nodeid_mismatch && lc_pmu_wait "$P"; then
	pass nodeid_mismatch/probe_ok
	lc_set_rates 0
	xd=$(lc_info 0 x)
	yd=$(lc_info 0 y)
	b=$(lc_coord_bits 0)
	# "lid x y p d" of every hn-f line, lid defaulting to the line order
	awk '/^[ \t]*#/ { next } $1 == "mesh" { m++; next }
		m == 1 && $1 == "node" && $2 == "hn-f" {
			lid = n++
			for (i = 7; i <= NF; i++) if ($i ~ /^lid=/) lid = substr($i, 5)
			print lid, $3, $4, $5, $6 }' /etc/cmn/mesh | sort -n > "$LC_TMP/hnf-lines"
	# the true node ids of the other HN-Fs
	tail -n +2 "$LC_TMP/hnf-lines" | while read -r _ x y p d; do
		lc_nodeid "$b" "$x" "$y" "$p" "$d"
	done > "$LC_TMP/other-ids"
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(head -n 1 "$LC_TMP/hnf-lines")
	x=$2 y=$3 p=$4 d=$5
	own=$((y * xd + x))
	if [ "$xd" -gt 1 ]; then x=$(( (x + 1) % xd )); elif [ "$yd" -gt 1 ]; then y=$(( (y + 1) % yd )); else x=1; fi
	bad=$(lc_nodeid "$b" "$x" "$y" "$p" "$d")
	note "mismatched HN-F reports node id $bad; HN-Fs in truth: $(lc_hnfs 0 | tr '\n' ' ')"
	if grep -qx "$bad" "$LC_TMP/other-ids"; then
		got=$(cmn-perf open "$P:$(printf '0x%x' $((1 | 1 << 12 | bad << 16)))")
		warned=$(grep -c "another HN-F has its node id $bad too" "$LC_TMP/dmesg.nodeid_mismatch")
		note "$bad is also the id of another HN-F: open $got, $warned probe warning(s)"
		if [ "$got $warned" = "EINVAL 0 2" ]; then
			pass "nodeid_mismatch/slc_miss@$bad"
		else
			fail "nodeid_mismatch/slc_miss@$bad" "shared id $bad: open gave '$got' (want EINVAL 0), $warned probe warnings (want 2)"
		fi
	else
		lc_batch_check nodeid_mismatch $P 0 $N "$P/slc_miss,bynodeid=1,nodeid=$bad/|slc_miss|$bad"
	fi
	lc_batch_check nodeid_mismatch $P 0 $N "$P/slc_miss/|slc_miss|*"
	rmmod arm_cmn_hnf
	# where the stock arm-cmn of this kernel puts the false id (its
	# coordinate width from the table; 20-armcmn-crosscheck checks that
	# table against the width arm-cmn logs)
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(lc_armcmn_decode 0 "$bad")
	note "arm-cmn ($(armcmn_kernel), $(lc_armcmn_bits 0)-bit coordinates) decodes $bad to XP index $1 of $((xd * yd)), port $2, device $3; the HN-F is on XP index $own, port $p, device $d"
	if [ "$1" -ge $((xd * yd)) ]; then
		skip corrupt_fw_nodeid_mismatch/armcmn "arm-cmn would read xps[$1] of $((xd * yd)) XPs for node id $bad: an out-of-bounds read inside arm-cmn, undefined"
	elif ! modprobe arm-cmn || ! lc_pmu_wait "$C"; then
		fail corrupt_fw_nodeid_mismatch/armcmn "stock arm-cmn did not register on this image"
	elif [ "$1 $2 $3" = "$own $p $d" ]; then
		LC_NAME=corrupt_fw_nodeid_mismatch/armcmn lc_batch_check - "$C" 0 $N \
			"$C/hnf_cache_miss,bynodeid=1,nodeid=$bad/|hnf_cache_miss|$bad"
	else
		LC_PREDICT=lc_armcmn_pred_zero LC_NAME=corrupt_fw_nodeid_mismatch/armcmn \
			lc_batch_check - "$C" 0 $N \
			"$C/hnf_cache_miss,bynodeid=1,nodeid=$bad/|hnf_cache_miss|$bad"
	fi
	rmmod arm_cmn 2>/dev/null
else
	fail nodeid_mismatch/probe_ok "no $P"
fi

# garbage in the counters at reset
if up garbage_counters && lc_pmu_wait "$P"; then
	pass garbage_counters/probe_ok
	lc_set_rates 0
	lc_batch_check garbage_counters $P 0 $N "$P/slc_miss/|slc_miss|*" "$P/dtc_cycles/|dtc_cycles|*"
	# evidence that exact counts are possible on this image: stock arm-cmn
	rmmod arm_cmn_hnf
	modprobe arm-cmn
	if ! lc_pmu_wait "$C"; then
		fail armcmn/garbage_counters "stock arm-cmn did not register"
	elif bad=$(lc_armcmn_misplaced 0) && [ -n "$bad" ]; then
		LC_PREDICT=lc_armcmn_pred_good LC_ARMCMN_MESH=0 LC_ARMCMN_BAD=$(echo "$bad" | tr '\n' ' ') \
			lc_batch_check armcmn/garbage_counters "$C" 0 $N \
			"$C/hnf_cache_miss/|hnf_cache_miss|*"
		lc_batch_check armcmn/garbage_counters "$C" 0 $N "$C/dtc_cycles/|dtc_cycles|*"
	else
		lc_batch_check armcmn/garbage_counters "$C" 0 $N \
			"$C/hnf_cache_miss/|hnf_cache_miss|*" "$C/dtc_cycles/|dtc_cycles|*"
	fi
	rmmod arm_cmn 2>/dev/null
else
	fail garbage_counters/probe_ok "no $P"
fi
rmmod arm_cmn_hnf 2>/dev/null
finish
