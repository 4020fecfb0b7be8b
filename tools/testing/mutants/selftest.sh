#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftest.sh: the mutant runner's verdict (verdict.sh) on planted result
# files, without building or booting anything, and the headers of the
# mutants of this directory: a mutant is killed only by a FAIL of a result
# its Kill: line names (e2e and KUnit naming, globs), a mutant that fails
# only elsewhere or not at all survives, each repeat must kill, a broken
# run is an error; every patch applies to the tree, its Kill: and Repeat:
# lines are valid, every KUnit name they give is a case of kunit/manifest
# and every e2e script they run exists. Then run.sh itself on a copy of the tree whose e2e.sh
# and KUnit run.sh are fakes printing planted results, with made-up
# mutants: the baselines it makes, Repeat: repeating e2e runs only, and
# its verdict and summary lines.
#
# Result lines "PASS: harness/mutants/<name>" / "FAIL: harness/mutants/<name>:
# <why>" on stdout (make check stage "harness"). Exit status 0 only if all
# passed.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=verdict.sh
. "$TESTING/mutants/verdict.sh"

T=$(mktemp -d /tmp/cmn-hnf-mutself.XXXXXX)
trap 'rm -rf "$T"' EXIT
rc=0
ok() { result_pass "harness/mutants/$1"; }
bad() { result_fail "harness/mutants/$1" "$2"; rc=1; }

# expect NAME WANT-STATUS WANT-FIRST-LINE: mutant_verdict on the V_ arrays
# must return WANT-STATUS and print WANT-FIRST-LINE first
expect() {
	local got st=0
	got=$(mutant_verdict mx) || st=$?
	if [ "$st" = "$2" ] && [ "$(head -n 1 <<< "$got")" = "$3" ]; then
		ok "$1"
	else
		bad "$1" "status $st (want $2), printed '$(head -n 1 <<< "$got")' (want '$3')"
	fi
}
# runs KIND NAMES FILE...: one run per FILE, all with the same Kill: line
runs() {
	local kind=$1 names=$2 f
	shift 2
	V_KIND=()
	V_NAMES=()
	V_OUT=()
	V_LABEL=()
	for f in "$@"; do
		V_KIND+=("$kind")
		V_NAMES+=("$names")
		V_OUT+=("$T/$f")
		V_LABEL+=("$kind ($f)")
	done
}
P=e2e/6.12/dt/default
printf '%s\n' "PASS: $P/read_monotonic" "FAIL: $P/read_exact: 3 != 4" \
	"FAIL: $P/read_never_overcounts: over" "e2e: 1 passed, 2 failed, 0 skipped" > "$T/named"
printf '%s\n' "PASS: $P/read_exact" "FAIL: $P/boot: WARNING: at x" \
	"FAIL: $P/other_case: 1 != 2" > "$T/elsewhere"
printf '%s\n' "PASS: $P/read_exact" "PASS: $P/other_case" > "$T/clean"
printf '%s\n' "PASS: $P/ioctl/4" "FAIL: $P/ioctl/5: 0 != 7" > "$T/slash"
printf '%s\n' "FAIL: e2e/6.12/dt/4x2-2dtc+dtc1-noirq/irq_count: 0" > "$T/fault"

# ---- e2e naming ----
runs e2e read_exact named
expect e2e/killed 0 "mutant mx: killed by $P/read_exact"
runs e2e 'read_exact read_never_overcounts' named
out=$(mutant_verdict mx) || true
if [ "$(grep -c '^    FAIL: ' <<< "$out")" = 2 ]; then
	ok e2e/killing-lines
else
	bad e2e/killing-lines "the two killing FAIL lines are not shown: $out"
fi
runs e2e read_exact elsewhere
expect e2e/elsewhere 1 "mutant mx: SURVIVED (failed elsewhere: $P/boot, $P/other_case)"
runs e2e read_exact clean
expect e2e/named-passes 1 "mutant mx: SURVIVED"
runs e2e 'read_*' elsewhere
expect e2e/glob-no-match 1 "mutant mx: SURVIVED (failed elsewhere: $P/boot, $P/other_case)"
runs e2e 'read_*' named
expect e2e/glob 0 "mutant mx: killed by $P/read_exact"
runs e2e 'ioctl/*' slash
expect e2e/glob-slash 0 "mutant mx: killed by $P/ioctl/5"
runs e2e 'ioctl' slash
expect e2e/prefix-not-enough 1 "mutant mx: SURVIVED (failed elsewhere: $P/ioctl/5)"
runs e2e 'irq_count' fault
expect e2e/fault-mesh 0 "mutant mx: killed by e2e/6.12/dt/4x2-2dtc+dtc1-noirq/irq_count"
runs e2e 'e2e/6.12/*/other_case' elsewhere
expect e2e/full-name 0 "mutant mx: killed by $P/other_case"
runs e2e 'e2e/7.2/*/other_case' elsewhere
expect e2e/full-name-other 1 "mutant mx: SURVIVED (failed elsewhere: $P/boot, $P/other_case)"

# ---- KUnit naming ----
K=kunit/arm_cmn_hnf_counter
printf '%s\n' "PASS: $K.cmn_hnf_test_counter_racing" "FAIL: $K.cmn_hnf_test_counter_wrap: x" \
	"PASS: kunit/kernel-log" > "$T/kother"
printf '%s\n' "FAIL: $K.cmn_hnf_test_counter_racing: 5 != 6" "PASS: kunit/kernel-log" > "$T/kracing"
sed 's|^\([A-Z]*\): kunit/|\1: kunit-7.2/|' "$T/kracing" > "$T/kracing72"
runs kunit arm_cmn_hnf_counter.cmn_hnf_test_counter_racing kracing
expect kunit/case 0 "mutant mx: killed by $K.cmn_hnf_test_counter_racing"
runs kunit arm_cmn_hnf_counter.cmn_hnf_test_counter_racing kother
expect kunit/other-case 1 "mutant mx: SURVIVED (failed elsewhere: $K.cmn_hnf_test_counter_wrap)"
runs kunit arm_cmn_hnf_counter kother
expect kunit/suite 0 "mutant mx: killed by $K.cmn_hnf_test_counter_wrap"
runs kunit arm_cmn_hnf_count kother
expect kunit/suite-prefix 1 "mutant mx: SURVIVED (failed elsewhere: $K.cmn_hnf_test_counter_wrap)"
runs kunit arm_cmn_hnf_counter.cmn_hnf_test_counter_racing kracing72
expect kunit/stage-7.2 0 "mutant mx: killed by kunit-7.2/arm_cmn_hnf_counter.cmn_hnf_test_counter_racing"

# ---- repeats and several Kill: lines: each run must kill ----
runs e2e read_exact named named named
expect repeat/all-kill 0 "mutant mx: killed by $P/read_exact"
runs e2e read_exact named elsewhere named
expect repeat/one-alive 1 "mutant mx: SURVIVED (not killed by: e2e (elsewhere); failed elsewhere: $P/boot, $P/other_case)"
runs e2e read_exact named clean named
expect repeat/one-clean 1 "mutant mx: SURVIVED (not killed by: e2e (clean))"
runs e2e read_exact named
V_KIND+=(kunit)
V_NAMES+=(arm_cmn_hnf_counter.cmn_hnf_test_counter_racing)
V_OUT+=("$T/kracing")
V_LABEL+=(kunit)
expect two-lines/both 0 "mutant mx: killed by $P/read_exact, $K.cmn_hnf_test_counter_racing"
V_OUT[1]=$T/kother
expect two-lines/one 1 "mutant mx: SURVIVED (not killed by: kunit; failed elsewhere: $K.cmn_hnf_test_counter_wrap)"

# ---- broken runs are errors, never kills ----
printf '%s\n' "FAIL: e2e/modules-build: 6.12: error: x" > "$T/build"
: > "$T/empty"
runs e2e read_exact build
expect error/build 2 "mutant mx: ERROR: the mutant did not build or the run reported nothing: 'e2e (build)' ($T/build)"
runs e2e read_exact empty
expect error/empty 2 "mutant mx: ERROR: the mutant did not build or the run reported nothing: 'e2e (empty)' ($T/empty)"
runs e2e read_exact named missing
expect error/missing 2 "mutant mx: ERROR: the mutant did not build or the run reported nothing: 'e2e (missing)' ($T/missing)"

# ---- Kill: lines ----
# kp NAME LINE WANT: kill_parse's "RUN|NAMES", or "error" when it refuses
kp() {
	local got
	if kill_parse "$2"; then got="$KP_RUN|$KP_NAMES"; else got=error; fi
	if [ "$got" = "$3" ]; then
		ok "parse/$1"
	else
		bad "parse/$1" "'$2' gave '$got', want '$3' ${KP_ERR:-}"
	fi
}
kp kunit 'kunit arm_cmn_hnf_counter.cmn_hnf_test_counter_racing' \
	'kunit|arm_cmn_hnf_counter.cmn_hnf_test_counter_racing'
kp e2e 'e2e TESTS=41-hnf-race MESH=default read_* other' \
	'e2e TESTS=41-hnf-race MESH=default|read_* other'
kp e2e-vars 'e2e TESTS=47-hnf-perf-uses MESH=2x2 KERNEL=7.2 FW=acpi E2E_EXTRA=x open_C_other' \
	'e2e TESTS=47-hnf-perf-uses MESH=2x2 KERNEL=7.2 FW=acpi E2E_EXTRA=x|open_C_other'
kp kunit-bare 'kunit' error
kp e2e-no-name 'e2e TESTS=41-hnf-race MESH=default' error
kp e2e-no-tests 'e2e MESH=default read_exact' error
kp e2e-unknown 'e2e TESTS=41-hnf-race MSEH=default read_exact' error
kp kunit-var 'kunit MESH=x arm_cmn_hnf_counter' error
kp other 'boot read_exact' error

# ---- the headers of the mutants here ----
# every KUnit case of the manifest, as <suite>.<case>
kcases=$(awk '/^[^#\t]/ { s = $1; next } /^\t[^\t]/ { sub(/^\t/, ""); print s "." $0 }' \
	"$REPO/kunit/manifest")
for p in "$TESTING"/mutants/[0-9]*.patch; do
	m=$(basename "$p" .patch)
	why=
	hdr=$(sed -n '/^diff --git /q; p' "$p")
	grep -q '^Kill:' <<< "$hdr" || why="no Kill: line"
	r=$(sed -n 's/^Repeat:[[:space:]]*//p' <<< "$hdr")
	case $r in '' | [1-9] | [1-9][0-9]) ;; *) why="invalid Repeat: '$r'" ;; esac
	while IFS= read -r l; do
		[ -n "$l" ] || continue
		if ! kill_parse "$l"; then
			why="invalid Kill: line $KP_ERR"
			break
		fi
		read -r -a nl <<< "$KP_NAMES"
		if [ "$KP_RUN" = kunit ]; then
			for n in "${nl[@]}"; do
				while IFS= read -r c; do
					result_matches kunit "kunit/$c" "$n" && continue 2
				done <<< "$kcases"
				why="Kill: kunit $n: no such case in kunit/manifest"
			done
		else
			for w in $KP_RUN; do
				case $w in TESTS=*)
					w=${w#TESTS=}
					for t in ${w//,/ }; do
						[ -f "$TESTING/e2e/$t.sh" ] ||
							why="Kill: e2e: no script tools/testing/e2e/$t.sh"
					done ;;
				esac
			done
		fi
	done <<< "$(sed -n 's/^Kill:[[:space:]]*//p' <<< "$hdr" | sed 's/[[:space:]]*$//')"
	# a mutant the driver has moved away from is no mutant: it must apply
	[ -n "$why" ] || (cd "$REPO" && git apply --check -p1 "$p") > "$T/apply" 2>&1 ||
		why="does not apply to the tree: $(head -n 1 "$T/apply")"
	if [ -z "$why" ]; then
		ok "header/$m"
	else
		bad "header/$m" "$why"
	fi
done

# ---- run.sh itself, on a copy of the tree whose e2e.sh and KUnit run.sh
# are fakes: baseline runs, repeats of e2e runs only, the verdict lines ----
R=$T/tree
S=$T/state
mkdir -p "$R" "$S"
rsync -a --exclude=.git --exclude='*.o' --exclude='*.ko' "$REPO/" "$R/"
rm -f "$R"/tools/testing/mutants/[0-9]*.patch
# the fake: no planted file = the unpatched tree, which passes; else the
# next planted output of that mutant ($S/<mutant>.<n>)
cat > "$R/tools/testing/vm/e2e.sh" <<'FAKE'
#!/bin/bash
d=$(cd "$(dirname "$0")/../../.." && pwd)/drivers/perf/arm_cmn_hnf
echo "${KIND:-e2e} ${TESTS:-} ${MESH:-}" >> "$FAKE_STATE/calls"
# RACE=1: the race pass's wrappers must be there
for t in ${E2E_EXTRA:+$TESTS}; do
	[ -f "$E2E_EXTRA/$t.sh" ] || { echo "FAIL: e2e/fake/x/x/no-wrapper-$t"; exit 0; }
done
m=$(cd "$d" && ls mut-* 2>/dev/null) || { echo "PASS: e2e/6.12/dt/${MESH:-x}/ok"; exit 0; }
n=$(( $(cat "$FAKE_STATE/$m.n" 2>/dev/null || echo 0) + 1 ))
echo $n > "$FAKE_STATE/$m.n"
cat "$FAKE_STATE/$m.$n"
FAKE
sed 's/^echo "\${KIND:-e2e}/KIND=kunit; &/' "$R/tools/testing/vm/e2e.sh" > "$R/tools/testing/kunit/run.sh"
chmod +x "$R/tools/testing/vm/e2e.sh" "$R/tools/testing/kunit/run.sh"
# mkmut NAME HEADER-LINE...: a mutant that adds drivers/.../mut-NAME
mkmut() {
	local n=$1
	shift
	{
		echo "Mutant: $n"
		printf '%s\n' "$@"
		printf '%s\n' "diff --git a/drivers/perf/arm_cmn_hnf/mut-$n b/drivers/perf/arm_cmn_hnf/mut-$n" \
			"new file mode 100644" "--- /dev/null" "+++ b/drivers/perf/arm_cmn_hnf/mut-$n" \
			"@@ -0,0 +1 @@" "+$n"
	} > "$R/tools/testing/mutants/$n.patch"
}
E=e2e/6.12/dt/default
mkmut 01-a "Kill: e2e TESTS=41-hnf-race MESH=default race/*" \
	"Kill: kunit arm_cmn_hnf_counter.cmn_hnf_test_counter_racing" "Repeat: 3"
for i in 1 2 3; do echo "FAIL: $E/race/monotonic: down" > "$S/mut-01-a.$i"; done
echo "FAIL: kunit/arm_cmn_hnf_counter.cmn_hnf_test_counter_racing: 1 != 2" > "$S/mut-01-a.4"
mkmut 02-b "Kill: e2e TESTS=41-hnf-race MESH=default race/*" "Repeat: 2"
echo "FAIL: $E/race/monotonic: down" > "$S/mut-02-b.1"
printf '%s\n' "PASS: $E/race/monotonic" "FAIL: $E/boot: WARNING: x" > "$S/mut-02-b.2"
mkmut 03-c "Kill: e2e TESTS=35-hnf-errno MESH=default perfcore_exclude_*"
printf '%s\n' "PASS: $E/perfcore_exclude_user" "FAIL: $E/sampling: 0" > "$S/mut-03-c.1"
mkmut 04-d "Kill: e2e TESTS=33-hnf-hotplug MESH=default KERNEL=7.2 RACE=1 race/misplaced/*"
echo "FAIL: e2e/7.2/dt/default/race/misplaced/others_exact: low" > "$S/mut-04-d.1"
st=0
out=$(FAKE_STATE=$S CMN_HNF_CACHE=$T/cache "$R/tools/testing/mutants/run.sh" 2> "$T/run.err" 3>&2) || st=$?
want="mutant 01-a: killed by $E/race/monotonic, kunit/arm_cmn_hnf_counter.cmn_hnf_test_counter_racing
mutant 02-b: SURVIVED (not killed by: e2e TESTS=41-hnf-race MESH=default (run 2 of 2); failed elsewhere: $E/boot)
mutant 03-c: SURVIVED (failed elsewhere: $E/sampling)
mutant 04-d: killed by e2e/7.2/dt/default/race/misplaced/others_exact
2 killed, 2 survived"
if [ "$st" != 0 ] && [ "$(grep -v '^    ' <<< "$out")" = "$want" ]; then
	ok runner/verdicts
else
	bad runner/verdicts "exit $st, printed: $(tr '\n' '|' <<< "$out") $(tail -n 3 "$T/run.err" | tr '\n' '|')"
fi
# the baselines: one boot for the runs that differ only in TESTS, one
# KUnit run, one race pass (RACE=1); then 01-a: three e2e runs, one KUnit
# run; 02-b: two; 03-c: one; 04-d: one race pass
wantc="e2e 41-hnf-race 35-hnf-errno default
kunit
e2e 33-hnf-hotplug-race default
e2e 41-hnf-race default
e2e 41-hnf-race default
e2e 41-hnf-race default
kunit
e2e 41-hnf-race default
e2e 41-hnf-race default
e2e 35-hnf-errno default
e2e 33-hnf-hotplug-race default"
if [ "$(sed 's/ *$//' "$S/calls" 2>/dev/null)" = "$wantc" ]; then
	ok runner/repeats
else
	bad runner/repeats "runs made: $(tr '\n' '|' < "$S/calls" 2>/dev/null)"
fi

exit $rc
