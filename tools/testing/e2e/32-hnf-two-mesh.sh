#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: two-mesh
#
# Two meshes, two PMU instances (arm_cmn_hnf_0 = mesh 0, arm_cmn_hnf_1 =
# mesh 1: DT instance = index in address order = mesh order; ACPI instance =
# _UID = mesh index). perf merges arm_cmn_hnf/slc_miss/ over both: the count
# must be the sum of both meshes' truth; --no-merge shows each instance with
# its own mesh's truth.
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
check two_meshes [ "$(lc_nmeshes)" -eq 2 ]
for i in 0 1; do
	if lc_pmu_wait arm_cmn_hnf_$i; then
		pass "registered_$i"
	else
		fail "registered_$i" "no arm_cmn_hnf_$i"
		finish
	fi
	lc_set_rates $i $((i + 1))
done

# each instance alone, exact against its own mesh
for i in 0 1; do
	lc_batch_check "mesh$i" arm_cmn_hnf_$i $i $N "arm_cmn_hnf_$i/slc_miss/|slc_miss|*"
done

snap() { lc_snap 0 "$LC_TMP/a$1"; lc_snap 1 "$LC_TMP/b$1"; }
delta() { # EVENTID MESH(a|b)
	echo $(( $(cmn-perf truth -f "$LC_TMP/${2}1" "$1" all) - $(cmn-perf truth -f "$LC_TMP/${2}0" "$1" all) ))
}

# merged
snap 0
perf stat -x, -a -o "$LC_TMP/merged.csv" -e arm_cmn_hnf/slc_miss/ -- \
	sh -c "echo $N > $LC_M/step" > "$LC_TMP/merged.out" 2>&1
snap 1
got=$(lc_count1 "$LC_TMP/merged.csv")
da=$(delta 1 a)
db=$(delta 1 b)
if [ "$da" -gt 0 ] && [ "$db" -gt 0 ] && [ "$got" = $((da + db)) ]; then
	pass merged
else
	fail merged "count '$got', truth $da + $db = $((da + db)); $(grep -v '^#' "$LC_TMP/merged.csv" | head -n 3)"
fi

# --no-merge: one line per instance
snap 0
perf stat -x, -a --no-merge -o "$LC_TMP/nomerge.csv" -e arm_cmn_hnf/slc_miss/ -- \
	sh -c "echo $N > $LC_M/step" > "$LC_TMP/nomerge.out" 2>&1
snap 1
da=$(delta 1 a)
db=$(delta 1 b)
for i in 0 1; do
	# count,unit,event: perf 7.x prefixes --no-merge lines with the CPU
	# ("CPU0,count,,event,..."), 5.10 and 6.1 do not
	got=$(awk -F, -v pmu="arm_cmn_hnf_$i/" '!/^#/ {
		for (f = 3; f <= NF; f++)
			if (index($f, pmu) == 1) { print $(f - 2); break }
	}' "$LC_TMP/nomerge.csv")
	[ $i = 0 ] && want=$da || want=$db
	if [ -n "$got" ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		pass "no_merge_$i"
	else
		fail "no_merge_$i" "arm_cmn_hnf_$i counted '$got', mesh $i truth $want; $(grep -v '^#' "$LC_TMP/nomerge.csv" | tr '\n' ' ')"
	fi
done
rmmod arm_cmn_hnf 2>/dev/null
finish
