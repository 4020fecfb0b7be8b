# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The mutant runner's judgement (sourced by run.sh, and by selftest.sh,
# which feeds it planted result files):
#
#   kill_parse LINE
#           one "Kill:" line (without "Kill:") into KP_RUN, the run to make
#           ("kunit", or "e2e" and its variables), and KP_NAMES, the result
#           names that must fail (blank-separated globs); status 1 and the
#           reason in KP_ERR if the line is not valid
#   result_matches KIND RESULT NAME...
#           status 0 if the result line name RESULT of a KIND (kunit or
#           e2e) run is one of the NAMEs (see run.sh for the rules)
#   judge_run KIND NAMES OUT
#           one run's output file OUT against the names of its Kill: line:
#           JR_STATE is "killed" (a FAIL line of one of the NAMES), "alive"
#           (none), or "error" (the build failed, or no PASS or FAIL line:
#           the reason in JR_WHY); JR_BY is the first killing result's
#           name, JR_FAILS up to four of its FAIL lines, JR_ELSE the names
#           of the FAIL lines that are not one of the NAMES, comma-separated
#   mutant_verdict MUTANT
#           the verdict on a mutant from its runs, given in the arrays
#           V_KIND, V_NAMES, V_OUT and V_LABEL (one entry per run, repeats
#           included): prints "mutant MUTANT: killed by ...", "...:
#           SURVIVED [(...)]" or "...: ERROR: ..." (run.sh's header) and
#           the killing FAIL lines indented; status 0 killed, 1 survived,
#           2 error
#
# shellcheck disable=SC2034 # KP_*, JR_* are for the caller
# (V_* come from the caller)
# shellcheck disable=SC2153

# Nothing here runs a test or looks at anything but its arguments and files.

# A FAIL line that is the build's, not a test's
build_fail_re='^FAIL: [^ ]*/(modules-build|kernel-build|stage):'

kill_parse() {
	local kind w
	local -a words
	KP_RUN=
	KP_NAMES=
	KP_ERR=
	# words, not globs: a result name may be "ioctl/*"
	read -r -a words <<< "$1"
	kind=${words[0]:-}
	case $kind in
	kunit | e2e) ;;
	*)
		KP_ERR="'$1': a Kill: line is 'kunit NAME...' or 'e2e VAR=VALUE... NAME...'"
		return 1 ;;
	esac
	KP_RUN=$kind
	for w in "${words[@]:1}"; do
		case $kind/$w in
		e2e/TESTS=?* | e2e/MESH=?* | e2e/KERNEL=?* | e2e/FW=?* | e2e/E2E_EXTRA=?* | e2e/RACE=1)
			KP_RUN="$KP_RUN $w" ;;
		*=*)
			KP_ERR="'$1': unknown variable '$w'"
			return 1 ;;
		*)
			KP_NAMES="${KP_NAMES:+$KP_NAMES }$w" ;;
		esac
	done
	if [ "$kind" = e2e ]; then
		case " $KP_RUN " in
		*" TESTS="*) ;;
		*)
			KP_ERR="'$1': an e2e Kill: line needs TESTS="
			return 1 ;;
		esac
	fi
	if [ -z "$KP_NAMES" ]; then
		KP_ERR="'$1': no result name (which result must fail?)"
		return 1
	fi
	return 0
}

result_matches() {
	local kind=$1 res=$2 rel g
	shift 2
	case $kind in
	# kunit/<suite>.<case> (the stage is kunit or kunit-7.2)
	kunit) rel=${res#*/} ;;
	# e2e/<kernel>/<fw>/<mesh>/<name>: the part after the boot's
	# four components (# takes the shortest prefix)
	*) rel=${res#e2e/*/*/*/} ;;
	esac
	for g in "$@"; do
		case $g in
		e2e/* | kunit/* | kunit-*/*)
			# shellcheck disable=SC2053 # g is a glob
			[[ $res == $g ]] && return 0
			continue ;;
		esac
		# shellcheck disable=SC2053 # g is a glob
		[[ $rel == $g ]] && return 0
		# a suite alone: any of its cases
		# shellcheck disable=SC2053
		[ "$kind" = kunit ] && [[ $rel == $g.* ]] && return 0
	done
	return 1
}

judge_run() {
	local kind=$1 names=$2 out=$3 line res
	local -a nl
	JR_STATE=alive
	JR_WHY=
	JR_BY=
	JR_FAILS=
	JR_ELSE=
	if [ ! -f "$out" ] || grep -qE "$build_fail_re" "$out" ||
	   ! grep -qE '^(PASS|FAIL): ' "$out"; then
		JR_STATE=error
		JR_WHY="the mutant did not build or the run reported nothing"
		[ -f "$out" ] && JR_FAILS=$(grep -m 3 -E "$build_fail_re" "$out" || true)
		return 0
	fi
	read -r -a nl <<< "$names"
	local n=0
	while IFS= read -r line; do
		res=${line#FAIL: }
		res=${res%%: *}
		if result_matches "$kind" "$res" "${nl[@]}"; then
			JR_STATE=killed
			[ -n "$JR_BY" ] || JR_BY=$res
			if [ "$n" -lt 4 ]; then
				JR_FAILS="$JR_FAILS${JR_FAILS:+$'\n'}$line"
				n=$((n + 1))
			fi
		else
			JR_ELSE="${JR_ELSE:+$JR_ELSE, }$res"
		fi
	done < <(grep '^FAIL: ' "$out" || true)
	return 0
}

mutant_verdict() {
	local m=$1 i by='' alive='' fails='' elsewhere='' err='' nr=${#V_OUT[@]}
	for ((i = 0; i < nr; i++)); do
		judge_run "${V_KIND[i]}" "${V_NAMES[i]}" "${V_OUT[i]}"
		case $JR_STATE in
		error)
			err="$JR_WHY: '${V_LABEL[i]}' (${V_OUT[i]})"
			fails=$JR_FAILS
			break ;;
		killed)
			case ", $by, " in
			*", $JR_BY, "*) ;;
			*) by="${by:+$by, }$JR_BY" ;;
			esac
			fails="$fails${fails:+$'\n'}$JR_FAILS" ;;
		alive)
			alive="${alive:+$alive; }${V_LABEL[i]}"
			[ -z "$JR_ELSE" ] || elsewhere="${elsewhere:+$elsewhere, }$JR_ELSE" ;;
		esac
	done
	if [ -n "$err" ]; then
		echo "mutant $m: ERROR: $err"
		[ -z "$fails" ] || printf '%s\n' "$fails" | sed 's/^/    /'
		return 2
	fi
	if [ "$nr" -gt 0 ] && [ -z "$alive" ]; then
		echo "mutant $m: killed by $by"
		printf '%s\n' "$fails" | sed 's/^/    /'
		return 0
	fi
	local why=
	[ "$nr" -le 1 ] || why="not killed by: $alive"
	[ -z "$elsewhere" ] || why="${why:+$why; }failed elsewhere: $elsewhere"
	echo "mutant $m: SURVIVED${why:+ ($why)}"
	return 1
}
