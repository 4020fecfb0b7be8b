#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: two-mesh
# results: 4 + 3 * nmesh
# names: model_load modprobe_arm_cmn_hnf meshes merged
# names: registered_0 mesh0/slc_miss no_merge_0
# names: registered_1 mesh1/slc_miss no_merge_1 if nmesh > 1
# names: registered_[2-9] mesh[2-9]/slc_miss no_merge_[2-9] if nmesh > 2
#
# Several meshes, one PMU instance each (arm_cmn_hnf_<n>: ACPI _UID, DT
# index in address order; lib-counts.sh lc_pmu). perf merges
# arm_cmn_hnf/slc_miss/ over all instances: the count must be the sum of
# every mesh's truth; --no-merge shows each instance with its own mesh's
# truth. (On a one-mesh file the same holds with one instance.)
#   meshes              the model built every mesh of the file
#   registered_<i>      mesh i's PMU exists
#   mesh<i>/slc_miss    each instance alone, exact against its own mesh
#   merged              the merged count is the sum of all meshes' truth
#   no_merge_<i>        --no-merge: mesh i's line equals its truth
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
nm=$(mesh_count)
check_eq meshes "$(lc_nmeshes)" "$nm"
i=0
while [ $i -lt "$nm" ]; do
	if lc_pmu_wait "$(lc_pmu $i)"; then
		pass "registered_$i"
	else
		fail "registered_$i" "no $(lc_pmu $i) (PMUs: $(pmus arm_cmn_hnf | tr '\n' ' '))"
	fi
	lc_set_rates $i $((i + 1))
	i=$((i + 1))
done

# each instance alone, exact against its own mesh
i=0
while [ $i -lt "$nm" ]; do
	p=$(lc_pmu $i)
	lc_batch_check "mesh$i" "$p" $i $N "$p/slc_miss/|slc_miss|*"
	i=$((i + 1))
done

snap() { # 0|1: truth of every mesh
	local j=0
	while [ $j -lt "$nm" ]; do lc_snap $j "$LC_TMP/s$j.$1"; j=$((j + 1)); done
}
delta() { # MESH: slc_miss truth delta between the two snaps
	echo $(( $(cmn-perf truth -f "$LC_TMP/s$1.1" 1 all) - $(cmn-perf truth -f "$LC_TMP/s$1.0" 1 all) ))
}

# merged
snap 0
perf stat -x, -a -o "$LC_TMP/merged.csv" -e arm_cmn_hnf/slc_miss/ -- \
	sh -c "echo $N > $LC_M/step" > "$LC_TMP/merged.out" 2>&1
snap 1
got=$(lc_count1 "$LC_TMP/merged.csv")
want=0
allpos=1
i=0
while [ $i -lt "$nm" ]; do
	d=$(delta $i)
	[ "$d" -gt 0 ] || allpos=0
	want=$((want + d))
	i=$((i + 1))
done
if [ $allpos = 1 ] && [ "$got" = "$want" ]; then
	pass merged
else
	fail merged "count '$got', truth of all meshes $want; $(grep -v '^#' "$LC_TMP/merged.csv" | head -n 3)"
fi

# --no-merge: one line per instance
snap 0
perf stat -x, -a --no-merge -o "$LC_TMP/nomerge.csv" -e arm_cmn_hnf/slc_miss/ -- \
	sh -c "echo $N > $LC_M/step" > "$LC_TMP/nomerge.out" 2>&1
snap 1
i=0
while [ $i -lt "$nm" ]; do
	# count,unit,event: perf 7.x prefixes --no-merge lines with the CPU
	# ("CPU0,count,,event,..."), 5.10 and 6.1 do not
	got=$(awk -F, -v pmu="$(lc_pmu $i)/" '!/^#/ {
		for (f = 3; f <= NF; f++)
			if (index($f, pmu) == 1) { print $(f - 2); break }
	}' "$LC_TMP/nomerge.csv")
	want=$(delta $i)
	if [ -n "$got" ] && [ "$want" -gt 0 ] && [ "$got" = "$want" ]; then
		pass "no_merge_$i"
	else
		fail "no_merge_$i" "$(lc_pmu $i) counted '$got', mesh $i truth $want; $(grep -v '^#' "$LC_TMP/nomerge.csv" | tr '\n' ' ')"
	fi
	i=$((i + 1))
done
rmmod arm_cmn_hnf 2>/dev/null
finish
