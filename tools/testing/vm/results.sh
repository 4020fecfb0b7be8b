# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The host's verdict on one e2e boot, from its serial log (sourced by e2e.sh
# and by selftest.sh, which feeds it planted logs):
#
#   emit_pass NAME / emit_fail NAME WHY / emit_skip NAME WHY
#           print a result line and count it in NPASS / NFAIL / NSKIP
#   parse_log LOG PREFIX EXPECT SCRIPT[:TIMEOUT]...
#           the guest's "CMN-TEST: PASS|FAIL|SKIP <name>" lines of each
#           script become result lines PREFIX/<name>; EXPECT is the output
#           of "manifest.py expect" for these scripts: a script that printed
#           another number of results than its manifest says, a SKIP that
#           the manifest does not allow, a result whose name no "# names:"
#           glob in force matches ("unexpected result name"), a glob in
#           force that no printed name matches ("missing result"), a
#           script without a "# names:" line, a script that did not start, did
#           not finish, was killed, exited non-zero without a FAIL line or
#           printed nothing is a FAIL; so is a module /init could not
#           unload after a script ("=== CMN-ISOLATE-FAIL")
#   kmemleak_verdict LOG PREFIX REQUIRED
#           PREFIX/kmemleak: PASS when the guest's kmemleak scan (between
#           "=== CMN-KMEMLEAK BEGIN" and "END") lists no unreferenced
#           object, FAIL when it lists one, or when REQUIRED is 1 and the
#           log has no scan; nothing for a kernel without kmemleak
#   kernel_errors LOG
#           the first line of LOG matching BAD_RE (not counting guest test
#           output and lines a test announced); status 0 if there is one
#
# A guest test that provokes a kernel message on purpose announces it first
# with a line "=== CMN-EXPECT-KMSG <text>" (lib.sh expect_kmsg): the next
# log line containing <text> is then not a kernel error. A WARN_ON it
# provokes on purpose is announced with "=== CMN-EXPECT-WARN <function>"
# (lib.sh expect_warn): the next "WARNING:" line whose location is
# <function>+<offset> and the first "Call trace:" of that splat (up to its
# "---[ end trace") are then not kernel errors; anything else in the splat
# still is, and so is a second one.

NPASS=0
NFAIL=0
NSKIP=0

# Kernel log lines that fail a boot: oopses, BUG/WARNING splats, KASAN,
# lockdep, panics, a fault the kernel could not handle, backtraces, RCU
# stalls, hung tasks.
BAD_RE='Oops|BUG:|WARNING:|KASAN|possible recursive locking|inconsistent lock state|circular locking|Kernel panic|Unable to handle|Call trace:|rcu: INFO|INFO: task|hung_task|not cleared within'
# The model's overflow interrupt that no driver cleared ("not cleared
# within") joined BAD_RE once the tests stopped stepping the cycle counters
# across dozens of 2^40-cycle periods at once (Documentation/testing.rst).
# Pending (a known failure, printed as a note on fd 3, never a pass): none
# now. selftest.sh proves every pattern of both lists.
BAD_RE_PENDING=

emit_pass() { echo "PASS: $1"; NPASS=$((NPASS + 1)); }
emit_fail() { echo "FAIL: $1: $2"; NFAIL=$((NFAIL + 1)); }
emit_skip() { echo "SKIP: $1: $2"; NSKIP=$((NSKIP + 1)); }

# skip_ok EXPECT SCRIPT CASE: the manifest lets CASE of SCRIPT be skipped
skip_ok() {
	local n k g v
	while read -r n k g v; do
		[ "$n" = "$2" ] && [ "$k" = skip ] && [ "$v" = 1 ] || continue
		# shellcheck disable=SC2053 # g is a glob
		[[ $3 == $g ]] && return 0
	done < "$1"
	return 1
}

# name_check SCRIPT NAME: is NAME a result name of SCRIPT (a glob of its
# "# names:" lines in force matches it, or its manifest is in error)?
# Marks every glob that matches it as seen. Uses parse_log's globs, seen
# and merr.
name_check() {
	local g found=1
	local -a gs
	[ -z "${merr[$1]:-}" ] || return 0
	read -r -a gs <<< "${globs[$1]:-}"
	for g in "${gs[@]}"; do
		# shellcheck disable=SC2053 # g is a glob
		if [[ $2 == $g ]]; then
			seen[$1 $g]=1
			found=0
		fi
	done
	return $found
}

parse_log() {
	local logf=$1 pre=$2 exp=$3 line rest cur="" cs="" t rc name why kind want n k g v
	local -a gs
	shift 3
	declare -A began=() ended=() nres=() nfl=() globs=() seen=() merr=()
	# the result-name globs in force of each script (a script whose
	# manifest is in error fails once for that, below, not per result)
	while read -r n k g v; do
		if [ "$k" = names ] && [ "$v" = 1 ]; then
			globs[$n]="${globs[$n]:-} $g"
		elif [ "$k" = error ]; then
			merr[$n]=1
		fi
	done < "$exp"
	while IFS= read -r line; do
		case $line in
		*"=== CMN-TEST-BEGIN "*)
			cur=${line##*=== CMN-TEST-BEGIN }
			cur=${cur%% *}
			cs=${cur##*/}
			cs=${cs%.sh}
			began[$cur]=1
			nres[$cur]=0
			nfl[$cur]=0
			;;
		*"=== CMN-TEST-END "*)
			t=${line##*=== CMN-TEST-END }
			rc=${t#* rc=}
			rc=${rc%% *}
			ended[${t%% *}]=$rc
			cur=
			;;
		*"=== CMN-ISOLATE-FAIL "*)
			emit_fail "$pre/isolation" "${line##*=== CMN-ISOLATE-FAIL }: the next script would inherit it"
			;;
		*"CMN-TEST: "*)
			rest=${line#*CMN-TEST: }
			# the console may splice a kernel message into the line
			# before its newline ("PASS x[  12.3] ..."): kernel_errors
			# judges that message, the result is the part before it
			if [[ $rest =~ ^(PASS\ [^[:space:]:\[]+)\[\ *[0-9]+\.[0-9]+\]\  ]]; then
				rest=${BASH_REMATCH[1]}
			fi
			if [[ $rest =~ ^PASS\ ([^[:space:]:]+)[[:space:]]*$ ]]; then
				name=${BASH_REMATCH[1]}
				if [ -n "$cur" ] && ! name_check "$cs" "$name"; then
					emit_fail "$pre/$name" "unexpected result name (PASS): no '# names:' glob of $cs matches it"
					nfl[$cur]=$((nfl[$cur] + 1))
				else
					emit_pass "$pre/$name"
				fi
			elif [[ $rest =~ ^(FAIL|SKIP)\ ([^[:space:]:]+):?[[:space:]]*(.*)$ ]]; then
				kind=${BASH_REMATCH[1]}
				name=${BASH_REMATCH[2]}
				why=${BASH_REMATCH[3]}
				if [ -n "$cur" ] && ! name_check "$cs" "$name"; then
					emit_fail "$pre/$name" "unexpected result name ($kind${why:+: $why}): no '# names:' glob of $cs matches it"
					nfl[$cur]=$((nfl[$cur] + 1))
				elif [ "$kind" = FAIL ]; then
					emit_fail "$pre/$name" "${why:-no reason given}"
					[ -n "$cur" ] && nfl[$cur]=$((nfl[$cur] + 1))
				elif [ -n "$cur" ] && skip_ok "$exp" "$cs" "$name"; then
					emit_skip "$pre/$name" "${why:-no reason given}"
				else
					emit_fail "$pre/$name" "SKIP where the manifest says it must run: ${why:-no reason given}"
					[ -n "$cur" ] && nfl[$cur]=$((nfl[$cur] + 1))
				fi
			else
				emit_fail "$pre/protocol" "malformed line: $rest"
			fi
			[ -n "$cur" ] && nres[$cur]=$((nres[$cur] + 1))
			;;
		esac
	done < "$logf"
	for t in "$@"; do
		t=${t%:*}
		name=$(basename "$t" .sh)
		want=$(awk -v n="$name" '$1 == n && $2 == "results" { print $3 }' "$exp")
		why=$(awk -v n="$name" '$1 == n && $2 == "error" { $1 = $2 = ""; sub(/^ */, ""); print }' "$exp")
		if [ -z "${began[$t]:-}" ]; then
			emit_fail "$pre/$name" "script did not start"
		elif [ -z "${ended[$t]:-}" ]; then
			emit_fail "$pre/$name" "script did not finish (guest died or hung)"
		elif [ "${ended[$t]}" = 137 ]; then
			emit_fail "$pre/$name" "script killed after its timeout"
		elif [ "${ended[$t]}" != 0 ] && [ "${nfl[$t]}" = 0 ]; then
			emit_fail "$pre/$name" "script exited ${ended[$t]} without a FAIL line"
		elif [ "${nres[$t]}" = 0 ]; then
			emit_fail "$pre/$name" "script printed no CMN-TEST result"
		elif [ -n "$why" ] || [ -z "$want" ]; then
			emit_fail "$pre/$name" "manifest: ${why:-no entry for the script}"
		elif [ "${nres[$t]}" != "$want" ]; then
			emit_fail "$pre/$name" "printed ${nres[$t]} results, its manifest says $want"
		fi
		# a glob in force that no result matched, once the script ran
		# to its end (a killed or unfinished one failed above)
		if [ -z "${began[$t]:-}" ] || [ -z "${ended[$t]:-}" ] ||
		   [ "${ended[$t]}" = 137 ] || [ -n "$why" ]; then
			continue
		fi
		read -r -a gs <<< "${globs[$name]:-}"
		for g in "${gs[@]}"; do
			[ -n "${seen[$name $g]:-}" ] ||
				emit_fail "$pre/$name" "missing result: no result name matches '# names: $g'"
		done
	done
}

kmemleak_verdict() {
	local n
	if ! grep -q '^=== CMN-KMEMLEAK BEGIN' "$1"; then
		[ "$3" = 1 ] && emit_fail "$2/kmemleak" "the guest printed no kmemleak scan"
		return 0
	fi
	if ! grep -q '^=== CMN-KMEMLEAK END' "$1"; then
		emit_fail "$2/kmemleak" "the kmemleak scan did not finish"
		return 0
	fi
	n=$(sed -n '/^=== CMN-KMEMLEAK BEGIN/,/^=== CMN-KMEMLEAK END/p' "$1" |
		grep -c 'unreferenced object' || true)
	if [ "$n" -eq 0 ]; then
		emit_pass "$2/kmemleak"
	else
		emit_fail "$2/kmemleak" "$n unreferenced object(s): $(sed -n '/^=== CMN-KMEMLEAK BEGIN/,/^=== CMN-KMEMLEAK END/p' "$1" |
			grep -m3 -A6 'unreferenced object' | tr -s ' \n' ' ' | cut -c1-300)"
	fi
}

kernel_errors() {
	awk -v re="$BAD_RE" '
		/=== CMN-EXPECT-KMSG / {
			t = $0; sub(/.*=== CMN-EXPECT-KMSG /, "", t); want[t] = 1; next
		}
		/=== CMN-EXPECT-WARN / {
			t = $0; sub(/.*=== CMN-EXPECT-WARN /, "", t); warn[t] = 1; next
		}
		# a result line; a kernel message the console spliced into it
		# counts from its time stamp on
		/CMN-TEST: / {
			if (!match($0, /\[ *[0-9]+\.[0-9]+\] /))
				next
			$0 = substr($0, RSTART)
		}
		# an announced splat: its WARNING: line and its first Call trace:
		splat && /---\[ end trace/ { splat = 0 }
		splat && !trace && /Call trace:/ { trace = 1; next }
		!splat && /WARNING:/ {
			for (t in warn)
				if (index($0, " " t "+")) {
					delete warn[t]; splat = 1; trace = 0; break
				}
			if (splat)
				next
		}
		{
			for (t in want)
				if (index($0, t)) { delete want[t]; next }
			if ($0 ~ re) { print; found = 1; exit }
		}
		END { exit !found }' "$1"
}

# pending_errors LOG: the lines of LOG matching BAD_RE_PENDING (unannounced)
pending_errors() {
	[ -n "$BAD_RE_PENDING" ] || return 1
	BAD_RE=$BAD_RE_PENDING kernel_errors "$1"
}
