#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test stage of the project:
#
#   lint                 tools/testing/build/lint.sh
#   harness              tools/testing/vm/selftest.sh (the e2e verdict,
#                        result manifest and e2e plan on planted logs and
#                        listings, no boot), tools/testing/mutants/
#                        selftest.sh (make mutants' verdict on planted
#                        result files, the mutants' Kill: lines) and
#                        tools/testing/build/
#                        coldpath.sh (every set-up script's first-time
#                        path, against an empty cache, with fakes;
#                        10000 random meshes through the model's parser)
#   tools                make -C tools/cmn-hnf test (in a copy)
#   pkg                  tools/testing/pkg/run.sh (packaging: make deb,
#                        lintian, dts/, cmn-hnf switch on fake systems)
#   kunit                tools/testing/kunit/run.sh (linux-source-6.12,
#                        the project's debug kernel)
#   kunit-7.2            the same on sid's linux-source-7.2 (KUNIT_KERNEL=7.2)
#   e2e-<kernel>-<fw>    KERNEL in {7.2, 6.12, 6.1, 5.10} x FW in {dt, acpi}
#   e2e-debug-lean-<fw>  KERNEL=debug (the self-built KASAN/lockdep/kmemleak
#                        6.12 of make kunit), FW in {dt, acpi}: the scripts
#                        in which the debug kernel's checkers find what
#                        Debian's kernels cannot: on both firmwares
#                        CHECK_DEBUG_LEAN_TESTS (probe, load and unload
#                        cycles, interrupt faults, the PMU fuzzer, which
#                        then runs here instead of on 6.12), with DT also
#                        CHECK_DEBUG_LEAN_TESTS_DT (CPU hotplug, the perf
#                        glue's errnos, races, interrupts, hotplug with
#                        two meshes), on the default mesh (DT: and
#                        two-mesh; a script without either, as the fuzzer,
#                        on its first mesh), each boot ending with an
#                        empty kmemleak scan. A default stage; measured cost
#                        in Documentation/testing.rst, "The debug kernel"
#   e2e-debug-<fw>       the same kernel, every guest script on the meshes
#                        of CHECK_DEBUG_MESHES (default "default"), else on
#                        its first mesh, each boot ending with an empty
#                        kmemleak scan (opt-in, see CHECK_STAGES; replaces
#                        e2e-debug-lean when both are listed)
#
# The stages run one after the other, but for the e2e ones: the boots of
# every e2e-* stage go into ONE pool, longest first (tools/testing/vm/e2e.sh
# E2E_PLAN), so the two cores stay busy to the end instead of idling behind
# each stage's longest boot. The pool starts at once in the background
# (after the guests' downloads): CHECK_E2E_EARLY_JOBS guests (default 2)
# beside the other stages, then CHECK_E2E_JOBS guests; its output is shown
# once the other stages are done. Each e2e stage still gets its own result lines
# (e2e/<kernel>/<fw>/...), time (the seconds during which at least one of
# its guests ran), host CPU seconds and verdict.
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
# Environment: CHECK_STAGES (default "lint harness tools pkg kunit kunit-7.2
# e2e e2e-debug-lean"; add e2e-debug for the whole suite on the debug
# kernel: measured, its default mesh boots alone project to more host CPU
# than the whole 20-minute budget, see Documentation/testing.rst),
# CHECK_DEBUG_LEAN_TESTS, CHECK_DEBUG_LEAN_TESTS_DT (the scripts of
# e2e-debug-lean, see above), CHECK_DEBUG_LEAN_MESHES (default "default";
# DT adds two-mesh), CHECK_LIST_PLAN=1 (print the e2e pool's E2E_PLAN and
# exit), CHECK_KERNELS (default "7.2 6.12 6.1 5.10"), CHECK_FWS
# (default "dt acpi"), CHECK_PRIMARY (the guest that runs every mesh,
# default 7.2-dt: the newest kernel, whose API, perf and arm-cmn move first;
# 6.12 gets the debug kernel and KUnit besides; the others run the meshes
# in CHECK_MESH_SUBSET, default "default two-mesh numa1", and each test's
# "# subset-meshes:"), CHECK_DEBUG_FWS (default "dt acpi"),
# CHECK_DEBUG_MESHES, CHECK_E2E_JOBS (guests at once in the e2e pool,
# default 2: one guest keeps one core busy, and the host has two),
# CHECK_E2E_EARLY_JOBS (guests at once while other stages run, default 2:
# single-threaded guests and the other stages share the two cores better
# than one guest beside them; measured: make check 2414 s with 2 at
# c2f7fec, 2532 s with 1 at e759ea1, which differs in test scripts only),
# CHECK_RACE_PASS (default 1: the e2e stage of the first of CHECK_KERNELS
# also runs the count tests again with the model in race mode, on both
# firmwares, their results named race/...: tools/testing/vm/race-pass.sh),
# CHECK_RANDOM_MESHES=1 (the primary guest also runs every script on
# generated meshes: the regression seeds of tools/testing/vm/regression-seeds
# and one fresh seed derived from the commit, each boot printing its seed
# and the command that reproduces it; CHECK_FRESH_SEED=<seed> replaces the
# fresh one. Not yet by default: their boots do not fit the 40-minute
# budget, and not every script adapts to every mesh yet, so a fresh seed
# can fail on the suite rather than the driver: issue 23),
# STAGE_TIMEOUT (s per stage, default 3600; an e2e stage's clock runs while
# one of its guests runs), plus whatever the stages take (KVER72, MESH, ...).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

STAGES=${CHECK_STAGES:-lint harness tools pkg kunit kunit-7.2 e2e e2e-debug-lean}
# e2e-debug-lean: the scripts on the debug kernel that exercise what its
# checkers (KASAN, lockdep, atomic sleep, debug objects, kmemleak) see and
# Debian's kernels cannot: probe and unload cycles, the perf glue and its
# errors, CPU hotplug, interrupts and their faults, races, the fuzzer
LEAN_MESHES=${CHECK_DEBUG_LEAN_MESHES:-default}
LEAN_MESHES_DT=two-mesh
# on both firmwares what depends on them (probe, interrupts from the
# firmware, unload); the rest, and what needs two meshes, with DT only
LEAN_TESTS=${CHECK_DEBUG_LEAN_TESTS:-00-smoke 34-hnf-module 44-hnf-irq-faults 60-abuse-fuzz 61-abuse-lifecycle}
LEAN_TESTS_DT=${CHECK_DEBUG_LEAN_TESTS_DT:-33-hnf-hotplug 35-hnf-errno 41-hnf-race 42-hnf-irq 62-abuse-hotplug}

# mesh_seeds: the random meshes (randmesh.py seeds) of the primary guest:
# the regression seeds kept in tools/testing/vm/regression-seeds, then one
# fresh seed derived from the commit (CHECK_FRESH_SEED: that one instead)
mesh_seeds() {
	local reg fresh h
	reg=$(sed -n 's/^\([0-9][0-9]*\)[ \t].*/\1/p' "$TESTING/vm/regression-seeds" 2>/dev/null |
		tr '\n' ' ')
	fresh=${CHECK_FRESH_SEED:-}
	if [ -z "$fresh" ]; then
		# the commit's id; out of git, the tree's contents (what of
		# it there is: never a reason to stop)
		h=$(git -C "$REPO" rev-parse HEAD 2>/dev/null) ||
			h=$(cd "$REPO" && find drivers include tools -type f 2>/dev/null |
				LC_ALL=C sort | xargs cat 2>/dev/null | sha256sum) || true
		h=${h:-0}
		fresh=$((16#${h:0:7}))
	fi
	echo "$reg$fresh"
}

# commas WORD...: the words joined by commas
commas() {
	local IFS=,
	echo "$*"
}

# e2e_plan: PLAN (e2e.sh E2E_PLAN) and PSTAGES (kernel/fw) of the e2e stages
# in STAGES; LEAN=1 when the debug stages are the lean ones
e2e_plan() {
	local st k fw sub tl
	PLAN=''
	PSTAGES=()
	LEAN=''
	for st in $STAGES; do
		case $st in
		e2e)
			for k in ${CHECK_KERNELS:-7.2 6.12 6.1 5.10}; do
				for fw in ${CHECK_FWS:-dt acpi}; do
					# every mesh on the primary guest, the
					# default, two-mesh and NUMA systems elsewhere
					sub="=${CHECK_MESH_SUBSET:-default two-mesh numa1}"
					sub=${sub// /,}
					[ "$k-$fw" = "${CHECK_PRIMARY:-7.2-dt}" ] && sub=
					if [ -z "$sub" ] && [ "${CHECK_RANDOM_MESHES:-0}" = 1 ]; then
						# shellcheck disable=SC2046 # seeds
						sub=" $k/$fw@random:$(commas $(mesh_seeds))"
					fi
					PLAN="$PLAN $k/$fw$sub"
					PSTAGES+=("$k/$fw")
				done
			done ;;
		e2e-debug)
			for fw in ${CHECK_DEBUG_FWS-dt acpi}; do
				sub=${CHECK_DEBUG_MESHES:-default}
				PLAN="$PLAN debug/$fw=${sub// /,}+keep"
				PSTAGES+=("debug/$fw")
			done ;;
		e2e-debug-lean)
			# the whole-suite debug stages include these scripts
			case " $STAGES " in *" e2e-debug "*) continue ;; esac
			for fw in ${CHECK_DEBUG_FWS-dt acpi}; do
				sub=$LEAN_MESHES
				tl=$LEAN_TESTS
				if [ "$fw" = dt ]; then
					sub="$sub $LEAN_MESHES_DT"
					tl="$tl $LEAN_TESTS_DT"
				fi
				# shellcheck disable=SC2086 # lists of words
				PLAN="$PLAN debug/$fw=$(commas $sub)+keep:$(commas $tl)"
				PSTAGES+=("debug/$fw")
				LEAN=1
			done ;;
		esac
	done
	PLAN=${PLAN# }
}

# CHECK_LIST_PLAN=1: print the e2e pool's E2E_PLAN and stop
# (tools/testing/vm/selftest.sh checks it)
if [ "${CHECK_LIST_PLAN:-0}" = 1 ]; then
	e2e_plan
	echo "$PLAN"
	exit 0
fi

# One make check at a time: a second one waits (stages share build dirs).
take_lock check
RES="$OUTD/check"
rm -rf "$RES"
mkdir -p "$RES"
: >"$RES/results.txt"
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
	finish_stage "$name" $(($(date +%s) - t0)) "$src" "$out"
}

# finish_stage NAME SECONDS STATUS OUT: count and keep a stage's result lines
finish_stage() {
	local name=$1 dt=$2 src=$3 out=$4 extra=${5:-} lines
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
		"$(grep -c '^PASS: ' <<<"$lines") passed, $(grep -c '^FAIL: ' <<<"$lines") failed, $(grep -c '^SKIP: ' <<<"$lines") skipped${extra:+; $extra}")")
	printf '%-44s %8d s\n' "check stage $name" "$dt" >>"$OUTD/timings.txt"
}

# e2e_pool_start: every boot of the e2e and debug stages in one pool
# (tools/testing/vm/e2e.sh E2E_PLAN), longest first, started in the
# background at once, after the guest downloads (fetch-guest.sh, under the
# lock e2e.sh takes for it; what it could not fetch, e2e.sh fetches again and
# reports): CHECK_E2E_EARLY_JOBS guests while the other stages run one
# after the other, CHECK_E2E_JOBS guests once they are done
# (e2e_pool_wait). Its output goes to $RES/e2e-pool.out and is
# shown when the other stages are done.
e2e_pool_start() {
	local plan tmo
	e2e_plan
	POOL_STAGES=("${PSTAGES[@]}")
	[ ${#POOL_STAGES[@]} -gt 0 ] || return 0
	plan=" $PLAN"
	echo "$1" >"$RES/e2e-jobs"
	: >"$RES/e2e-stages.txt"
	POOL_T0=$(date +%s)
	log "===== e2e pool (${#POOL_STAGES[@]} stages, $1 guest(s) at once beside the other stages, then $EJOBS; output in $RES/e2e-pool.out):$plan"
	# the stages' own timeouts are enforced inside; this one only bounds
	# the pool as a whole
	tmo=$((TMO * ${#POOL_STAGES[@]}))
	(
		exec >"$RES/e2e-pool.out" 2>&1 3>&1 </dev/null
		if [ ! -x "$TESTING/vm/e2e.sh" ]; then
			echo "FAIL: e2e/stage: tools/testing/vm/e2e.sh is missing"
			exit 1
		fi
		# shellcheck disable=SC2086 # a list of kernels
		{ resolve_kvers && flock "$OUTD/.build.lock" \
			"$TESTING/vm/fetch-guest.sh" ${CHECK_KERNELS:-7.2 6.12 6.1 5.10}; } ||
			log "guest downloads failed (e2e.sh tries again)"
		# the race pass of the count tests on the newest kernel, both
		# firmwares (tools/testing/vm/race-pass.sh)
		if [ "${CHECK_RACE_PASS:-1}" = 1 ]; then
			# shellcheck disable=SC2086 # a list of kernels
			set -- ${CHECK_KERNELS:-7.2 6.12 6.1 5.10}
			RACE_PASS_KERNELS=${RACE_PASS_KERNELS:-$1} \
				"$TESTING/vm/race-pass.sh" "$RES/race-pass" ||
				echo "FAIL: e2e/stage: tools/testing/vm/race-pass.sh failed"
			E2E_EXTRA="${E2E_EXTRA:-} $RES/race-pass"
			export E2E_EXTRA
		fi
		timeout "$tmo" env E2E_PLAN="${plan# }" E2E_JOBS="$EJOBS" \
			E2E_JOBS_FILE="$RES/e2e-jobs" E2E_STAGE_TIMEOUT="$TMO" \
			E2E_STAGE_REPORT="$RES/e2e-stages.txt" "$TESTING/vm/e2e.sh"
	) &
	POOL_PID=$!
}

# e2e_pool_wait: CHECK_E2E_JOBS guests from now on; the pool's output so far
# and to its end; then each stage's result lines, time (the time at least one
# of its guests ran) and verdict, as if it had run alone
e2e_pool_wait() {
	local k fw st src=0 out="$RES/e2e-pool.out" rep="$RES/e2e-stages.txt"
	local l active cpu nb tmo sst sn
	[ -n "$POOL_PID" ] || return 0
	echo "$EJOBS" >"$RES/e2e-jobs"
	log "===== e2e pool: the other stages are done, $EJOBS guests at once from now on; its output:"
	tail -n +1 -f --pid="$POOL_PID" "$out"
	wait "$POOL_PID" || src=$?
	POOL_PID=
	printf '%-44s %8d s\n' "check e2e pool" $(($(date +%s) - POOL_T0)) >>"$OUTD/timings.txt"
	for st in "${POOL_STAGES[@]}"; do
		k=${st%/*}
		fw=${st#*/}
		l=$(grep "^e2e-stage $st " "$rep" || true)
		active=$(awk '{ print $4 }' <<<"$l")
		cpu=$(awk '{ print $6 }' <<<"$l")
		nb=$(awk '{ print $8 }' <<<"$l")
		tmo=$(awk '{ print $10 }' <<<"$l")
		{
			grep -E "^(PASS|FAIL|SKIP): e2e/$k/$fw/" "$out" || true
			grep '^FAIL: e2e/stage: ' "$out" | sed "s|e2e/stage|e2e-$k-$fw/stage|" || true
			[ "${tmo:-0}" = 1 ] &&
				echo "FAIL: e2e-$k-$fw/stage: timed out after $TMO s"
		} >"$RES/e2e-$k-$fw.out"
		sn=e2e-$k-$fw
		[ "$k" = debug ] && [ -n "$LEAN" ] && sn=e2e-debug-lean-$fw
		# the pool's own status counts for a stage only when the pool
		# timed out or failed without a FAIL line of any stage
		sst=0
		if [ "$src" = 124 ]; then
			sst=124
		elif [ "$src" != 0 ] && ! grep -q '^FAIL: ' "$out"; then
			sst=$src
		fi
		finish_stage "$sn" "${active:-0}" "$sst" "$RES/e2e-$k-$fw.out" \
			"${nb:-0} boots, cpu ${cpu:-0} s"
	done
}

# lint_modules NAME: the tree lint built against KUnit kernel NAME in this
# run, if that build passed (the kunit stages take its modules: the same
# sources, and W=1 and sparse change no object); else nothing
lint_modules() {
	if grep -qx "PASS: lint/build-$1" "$RES/results.txt" 2>/dev/null; then
		echo "$OUTD/lint-$1"
	fi
}

T0=$(date +%s)
ensure_host_packages
# The e2e pool starts at once, beside the other stages (e2e_pool_start)
POOL_PID=
case " $STAGES " in *" e2e "* | *" e2e-debug "* | *" e2e-debug-lean "*)
	others=0
	for st in $STAGES; do
		case $st in e2e | e2e-debug | e2e-debug-lean) ;; *) others=1 ;; esac
	done
	if [ $others = 1 ]; then
		e2e_pool_start "${CHECK_E2E_EARLY_JOBS:-2}"
	else
		e2e_pool_start "$EJOBS"
	fi ;;
esac
for st in $STAGES; do
	case $st in
	lint)
		run_stage lint "$TESTING/build/lint.sh" ;;
	harness)
		# every script, whatever the others' status
		run_stage harness bash -c '"$0"; a=$?; "$1"; b=$?; "$2" && [ $a = 0 ] && [ $b = 0 ]' \
			"$TESTING/vm/selftest.sh" "$TESTING/mutants/selftest.sh" \
			"$TESTING/build/coldpath.sh" ;;
	tools)
		if [ -f "$REPO/tools/cmn-hnf/Makefile" ]; then
			# in a copy: the work tree stays clean
			rsync -a --delete --exclude=.git "$REPO/" "$RES/src/"
			run_stage tools make -s -C "$RES/src/tools/cmn-hnf" test
		else
			run_stage tools missing tools/cmn-hnf/Makefile
		fi ;;
	pkg)
		run_stage pkg "$TESTING/pkg/run.sh" ;;
	kunit)
		run_stage kunit env KUNIT_MODULES="$(lint_modules debug-arm64)" \
			"$TESTING/kunit/run.sh" ;;
	kunit-7.2)
		run_stage kunit-7.2 env KUNIT_KERNEL=7.2 \
			KUNIT_MODULES="$(lint_modules kunit-7.2-arm64)" "$TESTING/kunit/run.sh" ;;
	e2e | e2e-debug | e2e-debug-lean)
		# the pool runs in the background (e2e_pool_start)
		;;
	*)
		echo "FAIL: check/$st: unknown stage" | tee -a "$RES/results.txt" ;;
	esac
done
e2e_pool_wait

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
