#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run.sh (make mutants): does the test suite catch plausible driver bugs?
#
# Each tools/testing/mutants/NN-name.patch is one such bug, a git-apply'able
# patch against the driver with a header (the text before its first
# "diff --git" line, which git apply ignores):
#
#   Mutant: <the bug, one line>
#   ...free text: why it is plausible, which test must kill it...
#   Kill: kunit <suite>[.<case>]...
#   Kill: e2e TESTS=<names> MESH=<mesh> [KERNEL=6.12] [FW=dt] [E2E_EXTRA=<dir>] [RACE=1] <result>...
#   Repeat: <N>
#
# Each "Kill:" line is the smallest run of one test that must see the bug,
# and the results of that run of which one must fail; a header may have several
# (a bug two tests must each catch), and every one of them must kill the
# mutant. "kunit" runs `make kunit` (6.12 KUnit kernel), "e2e ..." runs
# `make e2e` with those variables (KERNEL=6.12 FW=dt unless given; a
# relative E2E_EXTRA is taken from the repository root). RACE=1 runs the
# race pass of the TESTS instead (tools/testing/vm/race-pass.sh: each
# test again with the model in race mode, its results named race/...).
#
# The words after the run (at least one) name those results, as shell
# globs:
#   kunit: <suite>.<case> (result "kunit/<suite>.<case>"), or <suite> for
#           any case of the suite, e.g.
#           "Kill: kunit arm_cmn_hnf_counter.cmn_hnf_test_counter_racing"
#   e2e:    <name>, the name the script prints (or the script's own name
#           for its "did not finish" kind of failure, or "boot" for a
#           kernel error), matched against the result
#           "e2e/<kernel>/<fw>/<mesh>/<name>" without its first four
#           components, e.g. "Kill: e2e TESTS=47-hnf-perf-uses MESH=default
#           open_C_other stat_C_other", "ioctl/*"
#   either: a name starting with "e2e/" or "kunit/" is matched against the
#           whole result name
# A run kills the mutant only if one of these results fails; its other
# FAIL lines are "failed elsewhere" and kill nothing (a mutant can break a
# test that is not meant to see it, or a test can fail for another reason).
#
# "Repeat: N" (default 1, at most 99) makes each e2e run of the mutant N
# times, and each of the N must kill it: for a bug that a timing-dependent
# test sees only when a race goes its way, a kill that one lucky run shows
# is not enough. A kunit run is made once (its cases, counter_racing
# included, simulate the races deterministically).
#
# The work tree (without .git) is copied once to
# $CMN_HNF_CACHE/out/mutants/<tree>/orig/, and from there to
# $CMN_HNF_CACHE/out/mutants/<tree>/src/; the runs are made with that
# copy's own scripts, so the copy's driver is what gets built and tested.
# First each distinct run is made once on the unpatched copy and must
# report at least one PASS and no FAIL: a test failing for another reason
# never counts as a kill (runs that differ only in their TESTS make one
# baseline run, with all their tests). Then, for each mutant, the copy is
# brought back to the work tree's content, the patch applied and its run
# made. The copy is synchronised by content: a file whose content changed
# gets a new time stamp, the others keep theirs, so the harness's
# incremental builds (kept per source tree) rebuild exactly what the patch
# (or its removal) touched.
#
# The verdict (verdict.sh, tested by selftest.sh in make check's harness
# stage): a mutant is killed when each of its runs (repeats included)
# reports a FAIL line of a result its Kill: line names. A patch that does
# not apply, a mutant that does not build, or a run that reports nothing
# is an error (a broken mutant), not a kill.
#
# Output (stdout): "mutant <name>: killed by <result>[, <result>...]" (the
# first killing FAIL of each run) and up to four killing FAIL lines of each
# run, indented; "mutant <name>: SURVIVED", with in parentheses "not killed
# by: <run>[; <run>...]" when it has several runs (a repeat is "<run> (run
# <i> of <N>)") and "failed elsewhere: <result>, ..." when runs that did not
# kill it failed other results; or "mutant <name>: ERROR: <why>"; then
# "N killed, N survived" (", N errors" when there are some). Exit status 0
# only if every mutant was killed. Progress and the total time go to
# stderr; each run's output is kept in $CMN_HNF_CACHE/out/mutants/<tree>/logs/.
#
# MUTANTS=name,...   run only these (NN-name, name or NN)
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=verdict.sh
. "$(dirname "$0")/verdict.sh"

MDIR="$TESTING/mutants"
W="$OUTD/mutants/$(printf '%s' "$REPO" | md5sum | cut -c1-8)"
LOGS="$W/logs"
mkdir -p "$LOGS"
t_start=$(date +%s)

# ---- which mutants ----------------------------------------------------------
all=()
for p in "$MDIR"/[0-9]*.patch; do
	[ -f "$p" ] && all+=("$(basename "$p" .patch)")
done
[ ${#all[@]} -gt 0 ] || { echo "mutants: no patch in $MDIR"; exit 1; }

sel=()
if [ -n "${MUTANTS:-}" ]; then
	IFS=', ' read -r -a want <<< "$MUTANTS"
	for w in "${want[@]}"; do
		[ -n "$w" ] || continue
		found=
		for m in "${all[@]}"; do
			if [ "$m" = "$w" ] || [ "${m#[0-9][0-9]-}" = "$w" ] ||
			   [ "${m%%-*}" = "$w" ]; then
				sel+=("$m")
				found=1
			fi
		done
		[ -n "$found" ] || { echo "mutants: no mutant called '$w'"; exit 1; }
	done
else
	sel=("${all[@]}")
fi

# kill_specs NAME: the Kill: lines of the mutant's header, one a line
kill_specs() {
	sed -n '/^diff --git /q; s/^Kill:[[:space:]]*//p' "$MDIR/$1.patch" |
		sed 's/[[:space:]]*$//'
}
# repeats NAME: the Repeat: of the mutant's header (empty if none)
repeats() {
	sed -n '/^diff --git /q; s/^Repeat:[[:space:]]*//p' "$MDIR/$1.patch" |
		sed 's/[[:space:]]*$//'
}

# SPEC: the Kill: lines of each mutant; RUN, NAMES: the run and the result
# names of each Kill: line; REP: the repeats of each mutant
declare -A SPEC=() RUN=() NAMES=() REP=()
for m in "${sel[@]}"; do
	SPEC[$m]=$(kill_specs "$m")
	[ -n "${SPEC[$m]}" ] ||
		{ echo "mutants: $m.patch: no 'Kill:' line (kunit ... or e2e ...)"; exit 1; }
	while IFS= read -r s; do
		kill_parse "$s" || { echo "mutants: $m.patch: invalid Kill: line $KP_ERR"; exit 1; }
		RUN[$s]=$KP_RUN
		NAMES[$s]=$KP_NAMES
	done <<< "${SPEC[$m]}"
	REP[$m]=$(repeats "$m")
	case ${REP[$m]} in
	'') REP[$m]=1 ;;
	[1-9] | [1-9][0-9]) ;;
	*) echo "mutants: $m.patch: invalid 'Repeat: ${REP[$m]}' (1 to 99)"; exit 1 ;;
	esac
done

# ---- copies -------------------------------------------------------------------
# copy_tree FROM DIR: DIR becomes FROM's content. Files whose content
# changed get a new mtime (-c, no -t), unchanged ones keep theirs, so the
# incremental builds of the harness see exactly what changed since the
# previous run.
copy_tree() {
	mkdir -p "$2"
	rsync -rlpc --delete --exclude=.git --exclude='*.o' --exclude='*.ko' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
		--exclude=Module.symvers --exclude=modules.order "$1/" "$2/"
}

# run_spec DIR SPEC OUT: make the run SPEC with the scripts of tree DIR,
# stdout (result lines) to OUT, stderr to OUT.err; returns its status
run_spec() {
	local dir=$1 spec=$2 out=$3 kv kernel=6.12 fw=dt tests="" mesh="" extra="" race="" t
	# shellcheck disable=SC2086
	set -- $spec
	case $1 in
	kunit)
		KUNIT_KERNEL=6.12 "$dir/tools/testing/kunit/run.sh" > "$out" 2> "$out.err"
		return
		;;
	esac
	shift
	for kv in "$@"; do
		case $kv in
		TESTS=*) tests="$tests ${kv#TESTS=}" ;;
		MESH=*) mesh=${kv#MESH=} ;;
		KERNEL=*) kernel=${kv#KERNEL=} ;;
		FW=*) fw=${kv#FW=} ;;
		E2E_EXTRA=*)
			extra=${kv#E2E_EXTRA=}
			case $extra in /*) ;; *) extra="$dir/$extra" ;; esac ;;
		RACE=1) race=1 ;;
		*) echo "FAIL: mutants/spec: unknown word '$kv' in '$spec'" > "$out"; return 1 ;;
		esac
	done
	tests=${tests# }
	tests=${tests//,/ }
	if [ -n "$race" ]; then
		# the wrappers of the race pass, made by this tree's race-pass.sh
		extra="$out.race"
		rm -rf "$extra"
		# shellcheck disable=SC2086 # a list of names
		RACE_PASS_KERNELS=$kernel "$dir/tools/testing/vm/race-pass.sh" "$extra" $tests \
			> "$out" 2> "$out.err" || return 1
		race=
		for t in $tests; do race="$race $t-race"; done
		tests=${race# }
	fi
	TESTS="$tests" MESH="$mesh" KERNEL="$kernel" FW="$fw" E2E_EXTRA="$extra" \
		MESH_SUBSET='' "$dir/tools/testing/vm/e2e.sh" > "$out" 2> "$out.err"
}

spec_key() { printf '%s' "$1" | md5sum | cut -c1-8; }

# ---- baseline: every distinct run on the unpatched tree -------------------------
# Runs that differ only in TESTS share one baseline run (one boot) with the
# union of their tests; it must pass as a whole.
# base_key SPEC: SPEC without its TESTS= words
base_key() {
	local w k=
	for w in $1; do
		case $w in TESTS=*) ;; *) k="$k $w" ;; esac
	done
	echo "${k# }"
}
# base_tests SPEC: its TESTS= words
base_tests() {
	local w t=
	for w in $1; do
		case $w in TESTS=*) t="$t $w" ;; esac
	done
	echo "${t# }"
}

declare -A BASE_OK=() BASE_WHY=() BKEY=() BTESTS=()
BORDER=()
for m in "${sel[@]}"; do
	while IFS= read -r s; do
		k=$(base_key "${RUN[$s]}")
		BKEY[$s]=$k
		[ -n "${BTESTS[$k]+set}" ] || { BTESTS[$k]=""; BORDER+=("$k"); }
		for t in $(base_tests "${RUN[$s]}"); do
			case " ${BTESTS[$k]} " in *" $t "*) ;; *) BTESTS[$k]="${BTESTS[$k]} $t" ;; esac
		done
	done <<< "${SPEC[$m]}"
done
# the work tree as it is now, for the whole run (it may change meanwhile)
orig="$W/orig"
copy_tree "$REPO" "$orig"
src="$W/src"
copy_tree "$orig" "$src"
for k in "${BORDER[@]}"; do
	# the kind first, then the TESTS, then the rest
	bs="${k%% *}${BTESTS[$k]:-}"
	[ "$k" = "${k%% *}" ] || bs="$bs ${k#* }"
	out="$LOGS/base-$(spec_key "$bs").out"
	log "mutants: baseline: $bs"
	rc=0
	timed "mutants: baseline $bs" run_spec "$src" "$bs" "$out" || rc=$?
	np=$(grep -c '^PASS: ' "$out" || true)
	nf=$(grep -c '^FAIL: ' "$out" || true)
	if [ "$rc" = 0 ] && [ "$nf" = 0 ] && [ "$np" -gt 0 ]; then
		BASE_OK[$k]=1
		log "mutants: baseline '$bs': $np passed, 0 failed"
	else
		BASE_OK[$k]=0
		BASE_WHY[$k]="the unpatched tree does not pass '$bs' ($np passed, $nf failed, exit $rc; $out)"
		log "mutants: ${BASE_WHY[$k]}"
		grep '^FAIL: ' "$out" | head -n 5 | sed 's/^/  /' >&3 || true
	fi
done

# ---- the mutants ------------------------------------------------------------------
nk=0
ns=0
ne=0
for m in "${sel[@]}"; do
	mapfile -t specs <<< "${SPEC[$m]}"
	why=
	for s in "${specs[@]}"; do
		k=${BKEY[$s]}
		[ "${BASE_OK[$k]}" = 1 ] || { why=${BASE_WHY[$k]}; break; }
	done
	if [ -n "$why" ]; then
		echo "mutant $m: ERROR: $why"
		ne=$((ne + 1))
		continue
	fi
	copy_tree "$orig" "$src"
	if ! (cd "$src" && git apply -p1 "$MDIR/$m.patch") 2> "$LOGS/$m.apply"; then
		echo "mutant $m: ERROR: the patch does not apply: $(head -n 1 "$LOGS/$m.apply")"
		ne=$((ne + 1))
		continue
	fi
	# every run of the mutant, each Repeat: times, into the V_ arrays of
	# mutant_verdict (verdict.sh)
	V_KIND=()
	V_NAMES=()
	V_OUT=()
	V_LABEL=()
	i=0
	for s in "${specs[@]}"; do
		# KUnit is deterministic: its run is made once
		nrep=${REP[$m]}
		[ "${RUN[$s]%% *}" = e2e ] || nrep=1
		for ((r = 1; r <= nrep; r++)); do
			out="$LOGS/$m.out"
			[ "$i" = 0 ] || out="$LOGS/$m.$i.out"
			i=$((i + 1))
			label=${RUN[$s]}
			[ "$nrep" = 1 ] || label="$label (run $r of $nrep)"
			log "mutants: $m: $label"
			rc=0
			timed "mutants: $m" run_spec "$src" "${RUN[$s]}" "$out" || rc=$?
			V_KIND+=("${RUN[$s]%% *}")
			V_NAMES+=("${NAMES[$s]}")
			V_OUT+=("$out")
			V_LABEL+=("$label")
			# a broken mutant: no use in running it again
			judge_run "${RUN[$s]%% *}" "${NAMES[$s]}" "$out"
			if [ "$JR_STATE" = error ]; then
				log "mutants: $m: exit $rc ($out.err)"
				break 2
			fi
		done
	done
	rc=0
	mutant_verdict "$m" || rc=$?
	case $rc in
	0) nk=$((nk + 1)) ;;
	1) ns=$((ns + 1)) ;;
	*) ne=$((ne + 1)) ;;
	esac
done

# leave the copy as the work tree, not as the last mutant
copy_tree "$orig" "$src"
log "mutants: ${#sel[@]} mutant(s) in $(( $(date +%s) - t_start )) s; logs in $LOGS"
if [ "$ne" -gt 0 ]; then
	echo "$nk killed, $ns survived, $ne errors"
else
	echo "$nk killed, $ns survived"
fi
[ "$ns" = 0 ] && [ "$ne" = 0 ]
