#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test stage of the project, one after the other:
#
#   lint                 tools/testing/build/lint.sh
#   harness              tools/testing/vm/selftest.sh (the e2e verdict and
#                        result manifest on planted logs, no boot)
#   tools                make -C tools/cmn-hnf test (in a copy)
#   kunit                tools/testing/kunit/run.sh (linux-source-6.12,
#                        the project's debug kernel)
#   kunit-7.2            the same on sid's linux-source-7.2 (KUNIT_KERNEL=7.2)
#   e2e-<kernel>-<fw>    tools/testing/vm/e2e.sh, KERNEL in {7.2, 6.12,
#                        6.1, 5.10} x FW in {dt, acpi}
#   e2e-debug-<fw>       tools/testing/vm/e2e.sh KERNEL=debug (the
#                        self-built KASAN/lockdep/kmemleak kernel of make
#                        kunit), FW in {dt, acpi}: every guest script, on
#                        its meshes among CHECK_DEBUG_MESHES (default
#                        "default 4x2-2dtc 8x8-32hnf-4dtc"), else its first
#
# Each stage prints result lines ("PASS: <stage>/<name>",
# "FAIL: <stage>/<name>: <why>", "SKIP: <stage>/<name>: <why>", see
# Documentation/testing.rst). This script counts them over all stages and
# ends with exactly one line
#
#   <N> passed, <N> failed, <N> skipped
#
# A stage that exits non-zero without printing a FAIL line, prints no result
# line at all, is missing or times out adds a FAIL line of its own: a stage
# that did not run is never a pass. Exit status: 0 only if nothing failed.
#
# Environment: CHECK_STAGES (default "lint harness tools kunit kunit-7.2
# e2e"; add e2e-debug for the debug-kernel stages, which do not fit the
# CI time budget yet: see Documentation/testing.rst),
# CHECK_KERNELS (default "7.2 6.12 6.1 5.10"), CHECK_FWS (default "dt acpi"),
# CHECK_PRIMARY
# (the guest that runs every mesh, default 7.2-dt: the newest kernel, whose
# API, perf and arm-cmn move first; 6.12 gets the debug kernel and KUnit
# besides; the others run the meshes in CHECK_MESH_SUBSET, default "default
# two-mesh numa1", and each test's "# subset-meshes:"), CHECK_DEBUG_FWS
# (default "dt acpi"), CHECK_DEBUG_MESHES, CHECK_E2E_JOBS (guests booted at
# once by each e2e stage, E2E_JOBS, default 2: under TCG a guest leaves
# much of the CPU idle in its tests' sleeps), STAGE_TIMEOUT (s per stage,
# default 3600), plus whatever the stages take (KVER72, MESH, ...).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

# One make check at a time: a second one waits (stages share build dirs).
take_lock check
RES="$OUTD/check"
rm -rf "$RES"
mkdir -p "$RES"
: >"$RES/results.txt"
STAGES=${CHECK_STAGES:-lint harness tools kunit kunit-7.2 e2e}
EJOBS=${CHECK_E2E_JOBS:-2}
TMO=${STAGE_TIMEOUT:-3600}
declare -a TIMES=()

# run_stage NAME CMD...: run a stage, keep its result lines.
run_stage() {
	local name=$1 t0 dt src=0 out="$RES/$1.out"
	shift
	log "===== stage $name: $*"
	t0=$(date +%s)
	# stdout (result lines, diagnostics) is shown and kept; stderr is shown.
	if [ "$1" = missing ]; then
		echo "FAIL: $name/stage: $2 is missing" >"$out"
		src=1
	else
		{ timeout "$TMO" "$@" </dev/null || echo $? >"$RES/$name.rc"; } |
			tee "$out"
		[ -f "$RES/$name.rc" ] && src=$(cat "$RES/$name.rc")
	fi
	dt=$(($(date +%s) - t0))
	local lines
	lines=$(grep -E '^(PASS|FAIL|SKIP): ' "$out" || true)
	if [ "$src" -eq 124 ]; then
		lines+=$'\n'"FAIL: $name/stage: timed out after $TMO s"
	elif [ "$src" -ne 0 ] && ! grep -q '^FAIL: ' <<<"$lines"; then
		lines+=$'\n'"FAIL: $name/stage: exited with status $src without a FAIL line"
	elif ! grep -qE '^(PASS|FAIL): ' <<<"$lines"; then
		lines="FAIL: $name/stage: printed no result line"
	fi
	grep -E '^(PASS|FAIL|SKIP): ' <<<"$lines" >>"$RES/results.txt" || true
	# Show the lines the stage did not print itself.
	grep -E '^FAIL: [^ ]+/stage: ' <<<"$lines" || true
	TIMES+=("$(printf '%-24s %6d s  %s' "$name" "$dt" \
		"$(grep -c '^PASS: ' <<<"$lines") passed, $(grep -c '^FAIL: ' <<<"$lines") failed, $(grep -c '^SKIP: ' <<<"$lines") skipped")")
	printf '%-44s %8d s\n' "check stage $name" "$dt" >>"$OUTD/timings.txt"
}

T0=$(date +%s)
ensure_host_packages
for st in $STAGES; do
	case $st in
	lint)
		run_stage lint "$TESTING/build/lint.sh" ;;
	harness)
		run_stage harness "$TESTING/vm/selftest.sh" ;;
	tools)
		if [ -f "$REPO/tools/cmn-hnf/Makefile" ]; then
			# in a copy: the work tree stays clean
			rsync -a --delete --exclude=.git "$REPO/" "$RES/src/"
			run_stage tools make -s -C "$RES/src/tools/cmn-hnf" test
		else
			run_stage tools missing tools/cmn-hnf/Makefile
		fi ;;
	kunit)
		run_stage kunit "$TESTING/kunit/run.sh" ;;
	kunit-7.2)
		run_stage kunit-7.2 env KUNIT_KERNEL=7.2 "$TESTING/kunit/run.sh" ;;
	e2e)
		for k in ${CHECK_KERNELS:-7.2 6.12 6.1 5.10}; do
			for fw in ${CHECK_FWS:-dt acpi}; do
				if [ -x "$TESTING/vm/e2e.sh" ]; then
					# every mesh on the primary guest, the
					# default, two-mesh and NUMA systems elsewhere
					subset=
					[ "$k-$fw" = "${CHECK_PRIMARY:-7.2-dt}" ] ||
						subset=${CHECK_MESH_SUBSET:-default two-mesh numa1}
					run_stage "e2e-$k-$fw" env KERNEL="$k" FW="$fw" \
						MESH_SUBSET="$subset" E2E_JOBS="$EJOBS" \
						"$TESTING/vm/e2e.sh"
				else
					run_stage "e2e-$k-$fw" missing \
						tools/testing/vm/e2e.sh
				fi
			done
		done ;;
	e2e-debug)
		for fw in ${CHECK_DEBUG_FWS-dt acpi}; do
			run_stage "e2e-debug-$fw" env KERNEL=debug FW="$fw" \
				MESH_SUBSET="${CHECK_DEBUG_MESHES:-default 4x2-2dtc 8x8-32hnf-4dtc}" \
				MESH_SUBSET_KEEP=1 E2E_JOBS="$EJOBS" "$TESTING/vm/e2e.sh"
		done ;;
	*)
		echo "FAIL: check/$st: unknown stage" | tee -a "$RES/results.txt" ;;
	esac
done

log "===== timings"
for t in "${TIMES[@]}"; do
	log "$t"
done
log "total $(($(date +%s) - T0)) s; results: $RES/results.txt"
npass=$(grep -c '^PASS: ' "$RES/results.txt" || true)
nfail=$(grep -c '^FAIL: ' "$RES/results.txt" || true)
nskip=$(grep -c '^SKIP: ' "$RES/results.txt" || true)
if [ "$nfail" -gt 0 ]; then
	echo "Failed:"
	grep '^FAIL: ' "$RES/results.txt" | sed 's/^/  /'
fi
echo "$npass passed, $nfail failed, $nskip skipped"
[ "$nfail" -eq 0 ]
