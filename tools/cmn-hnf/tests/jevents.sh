#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmn-hnf's perf-json export through perf's own tooling:
#
#   jevents.sh KSRC TOOL WORK [--exact-compat]
#
# Copies perf's pmu-events/arch (arm64 and test) from the kernel source
# tree KSRC (6.12, or 6.1, whose jevents.py and tables differ), adds the export in perf's layout (metrics --output-dir), runs
# perf's jevents.py over it, compiles the C it generates and links it with
# jevents_check.c, which lists the arm_cmn_hnf metrics perf would know and
# how their Compat matches. check_json.py jevents compares that with the
# tool's metric table. Prints one line saying what is wrong and exits 1.
set -u
KSRC=$1 TOOL=$2 W=$3 EXACT=${4:-}
HERE=$(cd "$(dirname "$0")" && pwd)
PE="$KSRC/tools/perf/pmu-events"
fail() { echo "$*"; exit 1; }

[ -f "$PE/jevents.py" ] || fail "no $PE/jevents.py"
rm -rf "$W"
mkdir -p "$W/arch"
cp -r "$PE/arch/test" "$PE/arch/arm64" "$W/arch/" || fail "cannot copy $PE/arch"
# shellcheck disable=SC2086
"$TOOL" metrics --format perf-json --output-dir "$W/arch" $EXACT > "$W/path" ||
	fail "cmn-hnf metrics --output-dir failed"
[ "$(cat "$W/path")" = "$W/arch/arm64/arm/cmn600-hnf/sys/metrics.json" ] ||
	fail "export written to $(cat "$W/path")"
# perf 6.1's jevents.py takes no model argument, and its tables hold
# metrics as events with a metric name (no struct pmu_metric)
MODEL=(all) DEFS=()
grep -q "'model'" "$PE/jevents.py" || MODEL=()
grep -q 'struct pmu_metric' "$PE/pmu-events.h" || DEFS=(-DCMN_PERF_EVENTS_61)
(cd "$PE" && python3 jevents.py arm64 "${MODEL[@]}" "$W/arch" "$W/pmu-events.c") \
	> "$W/jevents.log" 2>&1 || fail "jevents.py: $(tail -n 1 "$W/jevents.log")"
TABLE=pmu_metrics__arm_cmn600_hnf_sys
[ ${#DEFS[@]} = 0 ] || TABLE=pme_arm_cmn600_hnf_sys
grep -q "$TABLE" "$W/pmu-events.c" ||
	fail "jevents.py made no sys metric table for arm/cmn600-hnf"
P="$KSRC/tools"
INC=(-I"$P/perf" -I"$P/perf/util" -I"$P/include" -I"$P/arch/x86/include"
	-I"$P/arch/x86/include/uapi" -I"$P/include/uapi" -I"$P/lib"
	-I"$P/lib/perf/include" -I"$P/lib/api" -D_GNU_SOURCE)
gcc -c -o "$W/pmu-events.o" "${INC[@]}" "$W/pmu-events.c" > "$W/cc.log" 2>&1 ||
	fail "the generated pmu-events.c does not compile: $(grep -m1 error "$W/cc.log")"
gcc -Wall -Werror "${DEFS[@]}" -o "$W/check" "${INC[@]}" "$HERE/jevents_check.c" \
	"$W/pmu-events.o" > "$W/ld.log" 2>&1 ||
	fail "linking jevents_check: $(grep -m1 -E 'error|undefined' "$W/ld.log")"
"$W/check" 43400 43402 43406 43800 43c00 434020 > "$W/metrics.txt" ||
	fail "jevents_check failed"
"$TOOL" list --json > "$W/list.json" || fail "cmn-hnf list --json failed"
python3 "$HERE/check_json.py" jevents "$W/metrics.txt" "$W/list.json" \
	"${EXACT:-regex}"
