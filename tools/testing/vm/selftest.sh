#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftest.sh: the e2e host verdict (results.sh) and the result manifest
# (manifest.py) on planted serial logs, without booting anything. Each
# kernel-error pattern must fail a log that contains it (and only that
# line), an announced message must not, a script whose result count differs
# from its manifest must fail, so must a result name no "# names:" glob in
# force declares, a glob in force no result matched and a script without
# a "# names:" line, a SKIP must pass only where the manifest
# allows it, kmemleak reports must fail, manifest expressions must be
# evaluated over the mesh facts and nothing else, make check's single
# pool of e2e boots (e2e.sh E2E_PLAN) must boot what its stages would, and
# the KUnit results must be held to the KUnit manifest (kunit/manifest).
# Random meshes: MESHGEN_SEEDS (default 10000) files of randmesh.py must
# pass the model's own parser and hardware rules (meshcheck, the model's
# mesh.c built for userspace) and cover every corner, and a generator
# broken on purpose must fail.
#
# Result lines "PASS: harness/<name>" / "FAIL: harness/<name>: <why>" on
# stdout (make check stage "harness"). Exit status 0 only if all passed.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
# shellcheck source=results.sh
. "$VM/results.sh"

T=$(mktemp -d /tmp/cmn-hnf-selftest.XXXXXX)
trap 'rm -rf "$T"' EXIT
rc=0
ok() { result_pass "harness/$1"; }
bad() { result_fail "harness/$1" "$2"; rc=1; }

# ---- kernel errors: every pattern, planted in an otherwise clean log ----
# (with the pending patterns, if any, as BAD_RE will be once they join)
BAD_RE="$BAD_RE${BAD_RE_PENDING:+|$BAD_RE_PENDING}"
clean_log() {
	printf '%s\n' "[    0.000000] Booting Linux on physical CPU 0x0000000000" \
		"=== CMN-TEST-BEGIN /e2e/x.sh" "CMN-TEST: PASS a" \
		"CMN-TEST: FAIL b: WARNING: in a test name is not a kernel error" \
		"=== CMN-TEST-END /e2e/x.sh rc=1 uptime=1.00"
}
clean_log > "$T/clean.log"
if kernel_errors "$T/clean.log" > /dev/null; then
	bad kmsg/clean "a clean log was reported: $(kernel_errors "$T/clean.log")"
else
	ok kmsg/clean
fi
while IFS='|' read -r name line; do
	{ clean_log; echo "$line"; } > "$T/k.log"
	got=
	if got=$(kernel_errors "$T/k.log") && [ "$got" = "$line" ]; then
		ok "kmsg/$name"
	else
		bad "kmsg/$name" "'$line' not caught (got '${got:-}')"
	fi
done <<'EOF'
oops|[   12.3] Internal error: Oops: 0000000096000004 [#1] PREEMPT SMP
bug|[   12.3] BUG: KASAN: slab-use-after-free in cmn_hnf_read+0x40/0x90
warning|[   12.3] WARNING: CPU: 1 PID: 7 at drivers/perf/x.c:10 f+0x1/0x2
kasan|[   12.3] KASAN: maybe wild-memory-access in range [0x1-0x2]
recursive|[   12.3] WARNING: possible recursive locking detected
inconsistent|[   12.3] inconsistent lock state
circular|[   12.3] WARNING: possible circular locking dependency detected
panic|[   12.3] Kernel panic - not syncing: Oops: Fatal exception
unable|[   12.3] Unable to handle kernel paging request at virtual address dead
calltrace|[   12.3] Call trace:
rcu|[   33.1] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
infotask|[  245.0] INFO: task sh:123 blocked for more than 120 seconds.
hungtask|[  245.0]       Not tainted 6.12 #1 "echo 0 > /proc/sys/kernel/hung_task_timeout_secs" disables this message.
notcleared|[   12.3] cmn600_model: mesh0 dtc1: overflow 0x1 not cleared within 200 ms
EOF
# an announced message is not an error, once
{ clean_log; echo "=== CMN-EXPECT-KMSG dtc0: overflow 0x100 not cleared within"
  echo "[   5.0] cmn600_model: mesh0 dtc0: overflow 0x100 not cleared within 200 ms"; } > "$T/e.log"
if kernel_errors "$T/e.log" > /dev/null; then
	bad kmsg/expected "an announced message failed the boot"
else
	ok kmsg/expected
fi
{ cat "$T/e.log"
  echo "[   6.0] cmn600_model: mesh0 dtc0: overflow 0x100 not cleared within 200 ms"; } > "$T/e2.log"
if kernel_errors "$T/e2.log" > /dev/null; then
	ok kmsg/expected_once
else
	bad kmsg/expected_once "a second, unannounced message was not caught"
fi

# an announced WARN splat: its WARNING: and Call trace: lines, once, and
# only from the function announced
splat() { # FUNCTION
	printf '%s\n' "[   7.0] ------------[ cut here ]------------" \
		"[   7.0] WARNING: CPU: 0 PID: 0 at drivers/perf/arm_cmn_hnf/pmu.c:921 $1+0x1f4/0x250 [arm_cmn_hnf]" \
		"[   7.0] Modules linked in: arm_cmn_hnf cmn600_model" \
		"[   7.0] Call trace:" \
		"[   7.0]  $1+0x1f4/0x250 [arm_cmn_hnf]" \
		"[   7.0] ---[ end trace 0000000000000000 ]---"
}
{ clean_log; echo "=== CMN-EXPECT-WARN cmn_hnf_irq_handler"; splat cmn_hnf_irq_handler; } > "$T/w.log"
if kernel_errors "$T/w.log" > /dev/null; then
	bad kmsg/expected_warn "an announced WARN failed the boot: $(kernel_errors "$T/w.log")"
else
	ok kmsg/expected_warn
fi
{ cat "$T/w.log"; splat cmn_hnf_irq_handler; } > "$T/w2.log"
if kernel_errors "$T/w2.log" > /dev/null; then
	ok kmsg/expected_warn_once
else
	bad kmsg/expected_warn_once "a second WARN splat was not caught"
fi
{ clean_log; echo "=== CMN-EXPECT-WARN cmn_hnf_irq_handler"; splat cmn_hnf_event_add; } > "$T/w3.log"
if kernel_errors "$T/w3.log" > /dev/null; then
	ok kmsg/expected_warn_other
else
	bad kmsg/expected_warn_other "a WARN from another function passed as announced"
fi
{ clean_log; echo "=== CMN-EXPECT-WARN cmn_hnf_irq_handler"; splat cmn_hnf_irq_handler |
  sed '5a [   7.0] Call trace:'; } > "$T/w4.log"
if kernel_errors "$T/w4.log" > /dev/null; then
	ok kmsg/expected_warn_trace
else
	bad kmsg/expected_warn_trace "a second Call trace: in an announced splat was not caught"
fi

# ---- manifest: counts and SKIP permissions ----
mkdir -p "$T/t"
cat > "$T/t/s1.sh" <<'EOF'
#!/bin/sh
# results: 1 + hnfs
# skip: opt_* if nmesh < 2
# skip: never if nmesh > 100
# names: a b [c-z]*
EOF
cat > "$T/t/s2.sh" <<'EOF'
#!/bin/sh
# meshes: default
EOF
cat > "$T/t/s3.sh" <<'EOF'
#!/bin/sh
# results: __import__("os").system("false")
# names: x
EOF
# s4: result names, one glob line not in force on a one-mesh file
cat > "$T/t/s4.sh" <<'EOF'
#!/bin/sh
# results: 3
# names: one two_*
# names: three if nmesh < 2
# names: four if nmesh > 1
EOF
# s5: no "# names:" line
cat > "$T/t/s5.sh" <<'EOF'
#!/bin/sh
# results: 1
EOF
"$VM/manifest.py" expect --mesh "$MESHDIR/default.mesh" "$T/t/s1.sh" "$T/t/s2.sh" \
	"$T/t/s3.sh" "$T/t/s4.sh" "$T/t/s5.sh" > "$T/exp" 2>&1
if grep -qx 's1 results 5' "$T/exp" && grep -qx 's1 skip opt_\* 1' "$T/exp" &&
   grep -qx 's1 skip never 0' "$T/exp" && grep -q '^s2 error ' "$T/exp" &&
   grep -q '^s3 error ' "$T/exp" && grep -qx 's4 names one 1' "$T/exp" &&
   grep -qx 's4 names two_\* 1' "$T/exp" && grep -qx 's4 names three 1' "$T/exp" &&
   grep -qx 's4 names four 0' "$T/exp" &&
   grep -qx "s5 error no '# names:' header" "$T/exp"; then
	ok manifest/expect
else
	bad manifest/expect "$(tr '\n' '|' < "$T/exp")"
fi
for e in "8x8-32hnf-4dtc|hnfs * 10 + dtcs|324" "two-mesh|sum(m.hnfs for m in mesh)|5" \
	"4x2-2dtc|hnf_xp_max|2" "odd-6x5-3dtc|hnf_xp_max|4" "odd-6x5-3dtc|hnf_xp_min|1" \
	"3x3|hnf_xp_min|1" "1x1|aliases|75" "default|aliases|77" \
	"2x2|armcmn_misplaced|2" "4x2-2dtc|dtc_hnfs|1" "shared-irq|shared_irq|True" \
	"multi-uid|[m.uid for m in mesh]|[3, 7, 12]" "1x1|mismatch_armcmn|oob" \
	"2x2|mismatch_armcmn|other"; do
	IFS='|' read -r m x want <<< "$e"
	got=$("$VM/manifest.py" eval --mesh "$MESHDIR/$m.mesh" "$x" 2>&1) || true
	if [ "$got" = "$want" ]; then
		ok "manifest/fact/$m/${x%% *}"
	else
		bad "manifest/fact/$m/${x%% *}" "'$x' is '$got', want '$want'"
	fi
done

# the race pass (race-pass.sh): each wrapper's manifest is its script's,
# every name and skip glob prefixed race/, on the meshes and kernel asked
mkdir -p "$T/rp"
if ! "$VM/race-pass.sh" "$T/rp" 30-hnf-counts 32-hnf-two-mesh 43-hnf-disabled > "$T/rp.out" 2>&1; then
	bad race_pass/generate "$(tr '\n' '|' < "$T/rp.out")"
else
	for n in 30-hnf-counts 32-hnf-two-mesh; do
		for m in default two-mesh; do
			"$VM/manifest.py" expect --mesh "$MESHDIR/$m.mesh" "$E2E/$n.sh" > "$T/rp.base" 2>&1
			"$VM/manifest.py" expect --mesh "$MESHDIR/$m.mesh" "$T/rp/$n-race.sh" > "$T/rp.race" 2>&1
			# the base manifest with its names prefixed, under the wrapper's name
			want=$(awk -v n="$n" '{ $1 = n "-race"; if ($2 == "names" || $2 == "skip") $3 = "race/" $3; print }' "$T/rp.base")
			if [ -n "$want" ] && ! grep -q ' error ' "$T/rp.base" &&
			   [ "$want" = "$(cat "$T/rp.race")" ]; then
				ok "race_pass/manifest/$n/$m"
			else
				bad "race_pass/manifest/$n/$m" "$(diff <(echo "$want") "$T/rp.race" | head -n 4 | tr '\n' '|')"
			fi
		done
	done
	if grep -qx '# meshes: default' "$T/rp/30-hnf-counts-race.sh" &&
	   grep -qx '# meshes: two-mesh' "$T/rp/32-hnf-two-mesh-race.sh" &&
	   grep -qx '# kernels: 7.2' "$T/rp/30-hnf-counts-race.sh" &&
	   grep -qx 'CMN_RACE_STEPS=1 CMN_RESULT_PREFIX=race/' "$T/rp/30-hnf-counts-race.sh" &&
	   grep -qx '. /e2e/30-hnf-counts.sh' "$T/rp/30-hnf-counts-race.sh" &&
	   grep -qx '# skip: race/interval/exact if True' "$T/rp/43-hnf-disabled-race.sh" &&
	   ! grep -q '^# skip:' "$T/rp/30-hnf-counts-race.sh"; then
		ok race_pass/where
	else
		bad race_pass/where "$(grep -E '^# (meshes|kernels)|^CMN_|^\. ' "$T/rp/30-hnf-counts-race.sh" | tr '\n' '|')"
	fi
fi
if "$VM/race-pass.sh" "$T/rp" no-such-test > /dev/null 2>&1; then
	bad race_pass/unknown_test "a wrapper of a test that does not exist was written"
else
	ok race_pass/unknown_test
fi

# parse_log against the manifest above
run_parse() { # LOG: the verdict lines into $T/out, counts in NPASS...
	NPASS=0 NFAIL=0 NSKIP=0
	parse_log "$1" pre "$T/exp" /e2e/s1.sh:60 > "$T/out"
	out=$(cat "$T/out")
}
base_log() {
	echo "=== CMN-TEST-BEGIN /e2e/s1.sh"
	for c in "$@"; do echo "CMN-TEST: $c"; done
	echo "=== CMN-TEST-END /e2e/s1.sh rc=0 uptime=1.0"
}
base_log "PASS a" "PASS b" "PASS c" "PASS d" "SKIP opt_x: one mesh" > "$T/p1.log"
run_parse "$T/p1.log"
if [ "$NFAIL" = 0 ] && [ "$NPASS" = 4 ] && [ "$NSKIP" = 1 ]; then
	ok parse/count_ok
else
	bad parse/count_ok "$(echo "$out" | tr '\n' '|')"
fi
base_log "PASS a" "PASS b" "PASS c" "PASS d" > "$T/p2.log"
run_parse "$T/p2.log"
if echo "$out" | grep -q '^FAIL: pre/s1: printed 4 results, its manifest says 5'; then
	ok parse/count_short
else
	bad parse/count_short "$(echo "$out" | tr '\n' '|')"
fi
base_log "PASS a" "PASS b" "PASS c" "PASS d" "SKIP never: why" > "$T/p3.log"
run_parse "$T/p3.log"
if echo "$out" | grep -q '^FAIL: pre/never: SKIP where the manifest says it must run'; then
	ok parse/skip_refused
else
	bad parse/skip_refused "$(echo "$out" | tr '\n' '|')"
fi
{ echo "=== CMN-TEST-BEGIN /e2e/s1.sh"; echo "CMN-TEST: PASS a"; } > "$T/p4.log"
run_parse "$T/p4.log"
if echo "$out" | grep -q '^FAIL: pre/s1: script did not finish'; then
	ok parse/unfinished
else
	bad parse/unfinished "$(echo "$out" | tr '\n' '|')"
fi

{ base_log "PASS a" "PASS b" "PASS c" "PASS d" "PASS e"
  echo "=== CMN-ISOLATE-FAIL /e2e/s1.sh: arm_cmn_hnf cannot be unloaded"; } > "$T/p5.log"
run_parse "$T/p5.log"
if echo "$out" | grep -q '^FAIL: pre/isolation: /e2e/s1.sh: arm_cmn_hnf cannot' && [ "$NFAIL" = 1 ]; then
	ok parse/isolation
else
	bad parse/isolation "$(echo "$out" | tr '\n' '|')"
fi

# result names (s4's "# names:" lines)
run_names() { # LOG SCRIPT: parse_log of SCRIPT's log into $T/out and $out
	NPASS=0 NFAIL=0 NSKIP=0
	parse_log "$1" pre "$T/exp" "/e2e/$2.sh:60" > "$T/out"
	out=$(cat "$T/out")
}
names_log() { # SCRIPT RESULT...
	local s=$1
	shift
	echo "=== CMN-TEST-BEGIN /e2e/$s.sh"
	for c in "$@"; do echo "CMN-TEST: $c"; done
	echo "=== CMN-TEST-END /e2e/$s.sh rc=0 uptime=1.0"
}
names_log s4 "PASS one" "PASS two_a" "PASS three" > "$T/n1.log"
run_names "$T/n1.log" s4
if [ "$NFAIL" = 0 ] && [ "$NPASS" = 3 ]; then
	ok names/declared
else
	bad names/declared "$(echo "$out" | tr '\n' '|')"
fi
names_log s4 "PASS one" "PASS two_a" "PASS three" "PASS bogus" > "$T/n2.log"
run_names "$T/n2.log" s4
if echo "$out" | grep -qx "FAIL: pre/bogus: unexpected result name (PASS): no '# names:' glob of s4 matches it" &&
   ! echo "$out" | grep -q 'PASS: pre/bogus' && ! echo "$out" | grep -q 'missing result'; then
	ok names/unexpected
else
	bad names/unexpected "$(echo "$out" | tr '\n' '|')"
fi
# a SKIP (or FAIL) line with an undeclared name fails as unexpected too
names_log s4 "PASS one" "PASS two_a" "PASS three" "SKIP other: why" > "$T/n3.log"
run_names "$T/n3.log" s4
if echo "$out" | grep -qx "FAIL: pre/other: unexpected result name (SKIP: why): no '# names:' glob of s4 matches it"; then
	ok names/unexpected_skip
else
	bad names/unexpected_skip "$(echo "$out" | tr '\n' '|')"
fi
names_log s4 "PASS one" "PASS two_a" "PASS two_b" > "$T/n4.log"
run_names "$T/n4.log" s4
if [ "$NFAIL" = 1 ] &&
   echo "$out" | grep -qx "FAIL: pre/s4: missing result: no result name matches '# names: three'"; then
	ok names/missing
else
	bad names/missing "$(echo "$out" | tr '\n' '|')"
fi
# "four if nmesh > 1" is not in force on a one-mesh file: not required
# (names/declared has no four), and a result named four is unexpected
names_log s4 "PASS one" "PASS two_a" "PASS four" > "$T/n5.log"
run_names "$T/n5.log" s4
if echo "$out" | grep -qx "FAIL: pre/four: unexpected result name (PASS): no '# names:' glob of s4 matches it" &&
   echo "$out" | grep -qx "FAIL: pre/s4: missing result: no result name matches '# names: three'"; then
	ok names/if_false_not_in_force
else
	bad names/if_false_not_in_force "$(echo "$out" | tr '\n' '|')"
fi
names_log s5 "PASS one" > "$T/n6.log"
run_names "$T/n6.log" s5
if [ "$NFAIL" = 1 ] && echo "$out" | grep -qx "FAIL: pre/s5: manifest: no '# names:' header"; then
	ok names/no_header
else
	bad names/no_header "$(echo "$out" | tr '\n' '|')"
fi
# every guest test script declares its result names: on every shipped
# mesh file, kernel and firmware its headers evaluate, and it names no
# more results than its "# results:" count
miss=
for mf in "$MESHDIR"/*.mesh "$MESHDIR"/faults/*.mesh; do
	for kf in 5.10/dt 6.1/acpi 6.12/dt 7.2/acpi debug/dt; do
		"$VM/manifest.py" expect --mesh "$mf" --kernel "${kf%/*}" --fw "${kf#*/}" \
			"$REPO"/tools/testing/e2e/[0-9]*.sh "$REPO"/tools/cmn-hnf/tests/guest/*.sh \
			> "$T/all.exp" 2>&1 || miss="$miss $(basename "$mf"): manifest.py failed;"
		miss="$miss$(awk -v m="$(basename "$mf") $kf" '
			$2 == "error" { printf " %s %s;", m, $0 }
			$2 == "results" { r[$1] = $3 }
			$2 == "names" && $4 == 1 && $3 !~ /[*?[]/ { lit[$1]++ }
			END { for (s in lit) if (lit[s] > r[s])
				printf " %s %s: %d names, %d results;", m, s, lit[s], r[s] }' "$T/all.exp")"
	done
done
if [ -z "$miss" ]; then
	ok names/every_script
else
	bad names/every_script "$miss"
fi

# a kernel message the console spliced into a result line
base_log "PASS a" "PASS b[  145.641829] arm-cmn-hnf 7c000000.cmn: IRQ 19: line disabled" \
	"PASS c" "PASS d" "PASS e" > "$T/p6.log"
run_parse "$T/p6.log"
if [ "$NFAIL" = 0 ] && [ "$NPASS" = 5 ] && grep -qx 'PASS: pre/b' "$T/out"; then
	ok parse/spliced
else
	bad parse/spliced "$(echo "$out" | tr '\n' '|')"
fi
base_log "PASS a" "PASS b[  145.6] WARNING: CPU: 0 PID: 0 at x.c:1 f+0x1/0x2" > "$T/p7.log"
if got=$(kernel_errors "$T/p7.log") && [ "$got" = "[  145.6] WARNING: CPU: 0 PID: 0 at x.c:1 f+0x1/0x2" ]; then
	ok kmsg/spliced
else
	bad kmsg/spliced "a kernel error spliced into a result line was not caught (got '${got:-}')"
fi

# ---- kmemleak ----
{ echo "=== CMN-KMEMLEAK BEGIN"; echo "=== CMN-KMEMLEAK END"; } > "$T/k1.log"
{ echo "=== CMN-KMEMLEAK BEGIN"
  echo 'unreferenced object 0xffff000012345678 (size 64):'
  echo '  comm "insmod", pid 99, jiffies 4294900000'
  echo "=== CMN-KMEMLEAK END"; } > "$T/k2.log"
NPASS=0 NFAIL=0
out=$(kmemleak_verdict "$T/k1.log" pre 1; kmemleak_verdict "$T/k2.log" pre 1
	kmemleak_verdict "$T/clean.log" pre 1; kmemleak_verdict "$T/clean.log" pre 0)
if [ "$(echo "$out" | grep -c '^PASS: pre/kmemleak$')" = 1 ] &&
   echo "$out" | grep -q '^FAIL: pre/kmemleak: 1 unreferenced object' &&
   echo "$out" | grep -q '^FAIL: pre/kmemleak: the guest printed no kmemleak scan' &&
   [ "$(echo "$out" | wc -l)" = 3 ]; then
	ok kmemleak
else
	bad kmemleak "$(echo "$out" | tr '\n' '|')"
fi
# ---- KUnit results held to the manifest (tools/testing/kunit/results.py) ----
kres() { python3 "$TESTING/kunit/results.py" --manifest "$T/km" kunit "$@"; }
kjson() { # FILE SUITE CASES-JSON PARAM-GROUPS-JSON
	printf '{"name": "KUnit Test Group", "test_cases": [], "sub_groups": [{"name": "%s", "test_cases": [%s], "sub_groups": [%s]}]}\n' \
		"$2" "$3" "$4" > "$1"
}
printf '# planted\ns1\n\ta\n\tb\n\tp\n\t\tx 1\n\t\ty\ns2\n\tc\n' > "$T/km"
kjson "$T/s1.json" s1 '{"name": "a", "status": "PASS"}, {"name": "b", "status": "PASS"}' \
	'{"name": "p", "sub_groups": [], "test_cases": [{"name": "x 1", "status": "PASS"}, {"name": "y", "status": "SKIP"}]}'
kjson "$T/s2.json" s2 '{"name": "c", "status": "PASS"}' ''
if out=$(kres "$T/s1.json" "$T/s2.json") &&
   [ "$(echo "$out" | grep -c '^PASS: kunit/s[12]\.[abcp]$')" = 4 ] &&
   [ "$(echo "$out" | grep -c '^FAIL')" = 0 ]; then
	ok kunit-manifest/all
else
	bad kunit-manifest/all "$(echo "$out" | tr '\n' '|')"
fi
kjson "$T/s1b.json" s1 '{"name": "a", "status": "PASS"}, {"name": "z", "status": "PASS"}' \
	'{"name": "p", "sub_groups": [], "test_cases": [{"name": "x 1", "status": "PASS"}, {"name": "w", "status": "PASS"}]}'
out=$(kres "$T/s1b.json") || true
if echo "$out" | grep -qx 'FAIL: kunit/s1.b: did not run' &&
   echo "$out" | grep -qx 'FAIL: kunit/s1.z: not in the manifest' &&
   echo "$out" | grep -q "^FAIL: kunit/s1.p: parameter 'y' did not run; parameter 'w' not in the manifest$" &&
   echo "$out" | grep -qx 'FAIL: kunit/s2.c: did not run (no suite s2)' &&
   echo "$out" | grep -qx 'PASS: kunit/s1.a' && ! kres "$T/s1b.json" > /dev/null; then
	ok kunit-manifest/mismatch
else
	bad kunit-manifest/mismatch "$(echo "$out" | tr '\n' '|')"
fi
kjson "$T/s2b.json" s2 '{"name": "c", "status": "FAIL"}' ''
out=$(kres "$T/s1.json" "$T/s2b.json" "$T/s2b.json") || true
if echo "$out" | grep -qx 'FAIL: kunit/s2.c: FAIL; ran 2 times' && ! kres "$T/s1.json" "$T/s2b.json" > /dev/null; then
	ok kunit-manifest/failed
else
	bad kunit-manifest/failed "$(echo "$out" | tr '\n' '|')"
fi
printf 's1\n\ta\n\ta\n' > "$T/km"
out=$(kres "$T/s1.json") || true
if echo "$out" | grep -q '^FAIL: kunit/manifest: .*twice'; then
	ok kunit-manifest/malformed
else
	bad kunit-manifest/malformed "$(echo "$out" | tr '\n' '|')"
fi
# the project's own manifest reads (with no run, every case is missing)
out=$(python3 "$TESTING/kunit/results.py" --manifest "$REPO/kunit/manifest" kunit) || true
if ! echo "$out" | grep -q '^FAIL: kunit/manifest' &&
   [ "$(echo "$out" | grep -c ': did not run (no suite ')" -gt 50 ]; then
	ok kunit-manifest/project
else
	bad kunit-manifest/project "$(echo "$out" | head -3 | tr '\n' '|')"
fi

# ---- make check's single pool (e2e.sh E2E_PLAN, listed with E2E_LIST) ----
# The pool must boot exactly what the stages boot one by one (MESH_SUBSET
# per stage), the debug stages every script, and the fuzzer only on the
# debug kernel once that is in the run.
# (the caller's own selection, e.g. make check TESTS=..., must not leak in)
list() {
	env -u TESTS -u MESH -u MESH_SUBSET -u MESH_SUBSET_KEEP -u KERNEL -u FW \
		-u E2E_PLAN -u E2E_EXTRA -u E2E_ICOUNT -u E2E_TCG E2E_LIST=1 "$@" "$VM/e2e.sh" 2>/dev/null | sort
}
S="default two-mesh numa1"
P="7.2/dt 6.12/dt=${S// /,} 5.10/acpi=${S// /,}"
{ list KERNEL=7.2 FW=dt MESH_SUBSET=
  list KERNEL=6.12 FW=dt MESH_SUBSET="$S"
  list KERNEL=5.10 FW=acpi MESH_SUBSET="$S"; } | sort > "$T/stages"
list E2E_PLAN="$P" > "$T/pool"
list E2E_PLAN="$P debug/dt=default+keep debug/acpi=default+keep" > "$T/pool-debug"
if [ -s "$T/stages" ] && cmp -s "$T/stages" "$T/pool"; then
	ok pool/same_boots
else
	bad pool/same_boots "$(diff "$T/stages" "$T/pool" | head -n 4 | tr '\n' '|')"
fi
fuzz6=$(grep -c '^6\.12|dt|.*/60-abuse-fuzz\.sh:' "$T/pool" || true)
fuzz6d=$(grep -c '^6\.12|dt|.*/60-abuse-fuzz\.sh:' "$T/pool-debug" || true)
fuzzd=$(grep -c '^debug|dt|.*/60-abuse-fuzz\.sh:' "$T/pool-debug" || true)
if [ "$fuzz6" = 1 ] && [ "$fuzz6d" = 0 ] && [ "$fuzzd" = 1 ]; then
	ok pool/fuzz_on_debug
else
	bad pool/fuzz_on_debug "6.12 without debug $fuzz6, with $fuzz6d, debug $fuzzd (want 1 0 1)"
fi
# every script on each debug firmware its "# kernels:"/"# fw:" allow, once
# on the default mesh if it lists it; nothing else changes
miss=
for f in "$REPO"/tools/testing/e2e/[0-9]*.sh "$REPO"/tools/cmn-hnf/tests/guest/*.sh; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	for fw in dt acpi; do
		h=$(sed -n 's/^# kernels: //p' "$f" | head -n 1)
		[ -z "$h" ] || [[ " $h " == *" debug "* ]] || continue
		h=$(sed -n 's/^# fw: //p' "$f" | head -n 1)
		[ -z "$h" ] || [[ " $h " == *" $fw "* ]] || continue
		c=$(grep -c "^debug|$fw|.*/$n:" "$T/pool-debug" || true)
		[ "$c" = 1 ] || miss="$miss $n@$fw:$c"
		if [[ " $(sed -n 's/^# meshes: //p' "$f" | head -n 1) " == *" default "* ]] &&
		   ! grep -q "^debug|$fw|default|.*/$n:" "$T/pool-debug"; then
			miss="$miss $n@$fw:not-on-default"
		fi
	done
done
# (the other stages' boots, script by script, but for the fuzzer's)
pairs() { # LIST: "<key> <script>" per script of a non-debug boot
	grep -v '^debug|' "$1" | while read -r key _ scripts; do
		for x in $scripts; do echo "$key ${x%:*}"; done
	done | grep -v '/60-abuse-fuzz\.sh$' | sort
}
if [ -z "$miss" ] && [ -n "$(pairs "$T/pool")" ] &&
   [ "$(pairs "$T/pool-debug")" = "$(pairs "$T/pool")" ]; then
	ok pool/debug_every_script
else
	bad pool/debug_every_script "${miss:-the boots of the other stages changed}"
fi
# make check's default debug stages (e2e-debug-lean): the plan check.sh
# builds boots exactly the scripts it lists on each firmware, on the
# debug kernel only, the fuzzer there and not on 6.12; the other stages
# boot what they boot beside the whole-suite debug stages
plan() {
	env -u CHECK_DEBUG_LEAN_TESTS -u CHECK_DEBUG_LEAN_TESTS_DT \
		-u CHECK_DEBUG_LEAN_MESHES -u CHECK_DEBUG_FWS -u CHECK_DEBUG_MESHES \
		-u CHECK_KERNELS -u CHECK_FWS -u CHECK_PRIMARY -u CHECK_MESH_SUBSET -u CHECK_FRESH_SEED \
		-u CHECK_RANDOM_MESHES \
		CHECK_LIST_PLAN=1 "$@" "$REPO/tools/testing/build/check.sh" 2>/dev/null
}
lplan=$(plan CHECK_STAGES="e2e e2e-debug-lean")
list E2E_PLAN="$lplan" > "$T/pool-lean"
list E2E_PLAN="$(plan CHECK_STAGES="e2e e2e-debug")" > "$T/pool-full"
miss=
for fw in dt acpi; do
	# the plan's scripts of debug/<fw> ...
	want=$(tr ' ' '\n' <<<"$lplan" | sed -n "s|^debug/$fw=[^:]*:||p" | tr ',' '\n' | sort)
	# ... and those its boots run
	got=$(grep "^debug|$fw|" "$T/pool-lean" | tr ' ' '\n' |
		sed -n 's|^/e2e/\(.*\)\.sh:[0-9]*$|\1|p' | sort -u)
	[ -n "$want" ] && [ "$want" = "$got" ] ||
		miss="$miss $fw: want $(tr '\n' ' ' <<<"$want")got $(tr '\n' ' ' <<<"$got");"
done
[ "$(grep -c '^debug|acpi|default|' "$T/pool-lean")" = 1 ] ||
	miss="$miss no single debug ACPI default-mesh boot;"
if [ -z "$miss" ]; then
	ok pool/debug_lean_scripts
else
	bad pool/debug_lean_scripts "$miss"
fi
fuzz6=$(grep -c '^6\.12|[a-z]*|.*/60-abuse-fuzz\.sh:' "$T/pool-lean" || true)
fuzzd=$(grep -c '^debug|dt|.*/60-abuse-fuzz\.sh:' "$T/pool-lean" || true)
fuzza=$(grep -c '^debug|acpi|.*/60-abuse-fuzz\.sh:' "$T/pool-lean" || true)
if [ "$fuzz6" = 0 ] && [ "$fuzzd" = 1 ] && [ "$fuzza" = 1 ] &&
   cmp -s <(grep -v '^debug|' "$T/pool-lean") <(grep -v '^debug|' "$T/pool-full"); then
	ok pool/debug_lean_others_same
else
	bad pool/debug_lean_others_same "fuzzer on 6.12 $fuzz6, on debug DT $fuzzd, ACPI $fuzza (want 0 1 1), or the other stages' boots changed"
fi
# generated meshes in make check (CHECK_RANDOM_MESHES=1): the primary
# guest (7.2 DT) boots every seed of tools/testing/vm/regression-seeds and
# one derived from the commit (CHECK_FRESH_SEED overrides it), each with
# exactly the boots and scripts of make e2e MESH=random:<seed>; no other
# guest gets them; without CHECK_RANDOM_MESHES=1, no plan has them
miss=
reg=$(sed -n 's/^\([0-9][0-9]*\)[ \t].*/\1/p' "$VM/regression-seeds")
[ -n "$reg" ] || miss="$miss no regression seed;"
tr ' ' '\n' <<<"$(plan CHECK_STAGES=e2e)" | grep -q '@' &&
	miss="$miss generated meshes without CHECK_RANDOM_MESHES=1;"
# a fresh seed that is no regression seed
fresh=4711
while grep -qw "$fresh" <<<"$reg"; do fresh=$((fresh + 1)); done
fplan=$(plan CHECK_STAGES=e2e CHECK_RANDOM_MESHES=1 CHECK_FRESH_SEED=$fresh)
want=$(tr ' ' '\n' <<<"$fplan" | grep -c '@' || true)
[ "$want" = 1 ] || miss="$miss $want @ entries in the plan;"
list E2E_PLAN="$fplan" > "$T/pool-seeds"
for sd in $reg $fresh; do
	list KERNEL=7.2 FW=dt MESH="random:$sd" > "$T/pool-seed-one"
	[ -s "$T/pool-seed-one" ] || miss="$miss seed $sd lists no boot;"
	grep "^7\.2|dt|random-$sd|" "$T/pool-seeds" | cmp -s - "$T/pool-seed-one" ||
		miss="$miss seed $sd: not the boots of MESH=random:$sd;"
done
grep -v '^7\.2|dt|' "$T/pool-seeds" | grep -q '|random-' &&
	miss="$miss a random mesh off the primary guest;"
h=$(git -C "$REPO" rev-parse HEAD 2>/dev/null || true)
if [ -n "$h" ]; then
	tr ' ' '\n' <<<"$(plan CHECK_STAGES=e2e CHECK_RANDOM_MESHES=1)" |
		grep -q "^7\.2/dt@random:.*,$((16#${h:0:7}))\$" ||
		miss="$miss the fresh seed is not $((16#${h:0:7})) (from $h);"
fi
if [ -z "$miss" ]; then
	ok pool/random_meshes
else
	bad pool/random_meshes "$miss"
fi
# a script of a plan that does not exist is an error, not a boot less
if out=$(env -u TESTS E2E_LIST=1 E2E_PLAN="debug/dt=default+keep:00-smoke,no-such-test" \
	"$VM/e2e.sh" 2>/dev/null 3>/dev/null) || [ "$out" != "e2e: 0 passed, 1 failed, 0 skipped" ]; then
	bad pool/plan_unknown_script "E2E_PLAN with a script that does not exist: '$out'"
else
	ok pool/plan_unknown_script
fi
# "# icount: OPTS": such a script boots only in boots of its own, keyed by
# OPTS (results "<mesh>+icount/..."), on every mesh it lists; with
# E2E_ICOUNT=off it joins the ordinary boots and no boot has -icount
list KERNEL=7.2 FW=dt > "$T/icount-on"
list KERNEL=7.2 FW=dt E2E_ICOUNT=off > "$T/icount-off"
miss=
nic=0
ics=
for f in "$REPO"/tools/testing/e2e/[0-9]*.sh "$REPO"/tools/cmn-hnf/tests/guest/*.sh; do
	[ -f "$f" ] || continue
	o=$(sed -n '1,30s/^# icount: *//p' "$f" | head -n 1)
	[ -n "$o" ] || continue
	n=$(basename "$f")
	nic=$((nic + 1))
	c=$(grep -c "/$n:" "$T/icount-on" || true)
	ics="$ics /e2e/$n"
	ci=$(grep -c "^[^ ]*|${o%% *} .*/$n:" "$T/icount-on" || true)
	[ "$c" -gt 0 ] && [ "$c" = "$ci" ] || miss="$miss $n: $ci of $c boots with -icount $o;"
	[ "$(grep -c "/$n:" "$T/icount-off")" = "$c" ] || miss="$miss $n: not on as many boots with E2E_ICOUNT=off;"
done
# and no other script in those boots
for t in $(grep '^[^ ]*|[^| ]\+ ' "$T/icount-on" | cut -d' ' -f3-); do
	case "$ics " in *" ${t%:*} "*) ;; *) miss="$miss ${t%:*} in an -icount boot;" ;; esac
done
grep -q '^[^ ]*|[^| ]\+ ' "$T/icount-off" && miss="$miss a boot with -icount under E2E_ICOUNT=off;"
if [ "$nic" -gt 0 ] && [ -z "$miss" ]; then
	ok pool/icount_own_boots
else
	bad pool/icount_own_boots "${miss:-no script has an '# icount:' header}"
fi
# "# vcpus: parallel": such a script boots only in boots of its own (key
# field 6 "parallel", multi-threaded TCG), on every mesh it lists, and so
# do the race pass's wrappers; with E2E_TCG=multi it joins the ordinary
# boots and no boot is keyed parallel
list KERNEL="7.2 6.12" FW=dt > "$T/pv-on"
list KERNEL="7.2 6.12" FW=dt E2E_TCG=multi > "$T/pv-off"
rp="$T/pv-race-pass"
rm -rf "$rp"
"$VM/race-pass.sh" "$rp" >/dev/null 2>&1 || true
miss=
npv=0
pvs=
for f in "$REPO"/tools/testing/e2e/[0-9]*.sh "$rp"/*.sh; do
	[ -f "$f" ] || continue
	sed -n '1,30p' "$f" | grep -q '^# vcpus: *parallel' || continue
	n=$(basename "$f")
	npv=$((npv + 1))
	pvs="$pvs /e2e/$n"
	case $f in "$rp"/*) continue ;; esac
	c=$(grep -c "/$n:" "$T/pv-on" || true)
	cp=$(awk -v n="/$n:" '{ split($1, k, "|") } k[6] == "parallel" && index($0, n)' "$T/pv-on" | wc -l)
	[ "$c" -gt 0 ] && [ "$c" = "$cp" ] || miss="$miss $n: $cp of $c boots parallel;"
	[ "$(grep -c "/$n:" "$T/pv-off")" = "$c" ] || miss="$miss $n: not on as many boots with E2E_TCG=multi;"
done
[ "$(find "$rp" -name '*-race.sh' 2>/dev/null | wc -l)" -gt 0 ] &&
	[ "$(grep -l '^# vcpus: parallel' "$rp"/*-race.sh | wc -l)" = "$(find "$rp" -name '*-race.sh' | wc -l)" ] ||
	miss="$miss a race-pass wrapper without '# vcpus: parallel';"
# and no other script in those boots
for t in $(awk '{ split($1, k, "|") } k[6] == "parallel"' "$T/pv-on" | cut -d' ' -f3-); do
	case "$pvs " in *" ${t%:*} "*) ;; *) miss="$miss ${t%:*} in a parallel boot;" ;; esac
done
awk '{ split($1, k, "|") } k[6] != "" { bad = 1 } END { exit !bad }' "$T/pv-off" &&
	miss="$miss a parallel boot under E2E_TCG=multi;"
if [ "$npv" -gt 0 ] && [ -z "$miss" ]; then
	ok pool/vcpus_parallel_own_boots
else
	bad pool/vcpus_parallel_own_boots "${miss:-no script has a '# vcpus: parallel' header}"
fi
# ---- DTC interrupts the guest's GIC can raise ----
# meshgen.py's MAX_SPI must be the last SPI the GIC of the QEMU that boots
# the guests implements: GICD_TYPER.ITLinesNumber (distributor at
# 0x08000000 on virt), read through QEMU's monitor without booting. An SPI
# above it is wired but never set up by Linux, and raised it hard-locks its
# CPU; meshgen.py must refuse it, naming the line.
typer=$(printf 'xp /1wx 0x08000004\nquit\n' |
	timeout 30 qemu-system-aarch64 -M "virt,gic-version=$QEMU_GIC" -cpu "$QEMU_CPU" \
		-smp "$QEMU_SMP" -m 256M -S -display none -monitor stdio -serial none 2>&1 |
	tr -d '\033' | grep -ao '0000000008000004: 0x[0-9a-f]*' | sed 's/.*: //' || true)
maxspi=$(python3 -c "import sys; sys.path.insert(0, '$VM'); import meshgen; print(meshgen.MAX_SPI)")
if [ -z "$typer" ]; then
	bad gic/max_spi "could not read GICD_TYPER from qemu-system-aarch64 (gic-version=$QEMU_GIC)"
elif [ $((32 * ((typer & 0x1f) + 1) - 33)) = "$maxspi" ]; then
	ok gic/max_spi
else
	bad gic/max_spi "GICD_TYPER $typer: SPIs 0..$((32 * ((typer & 0x1f) + 1) - 33)), meshgen.py MAX_SPI $maxspi"
fi
spi_mesh() { # SPI
	printf 'mesh x=1 y=1\nnode hn-f 0 0 0 0\nport 0 0 1 hn-d\nnode dtc 0 0 1 0 irq=%s\n' "$1" \
		> "$T/spi.mesh"
}
spi_mesh "$maxspi"
if ! out=$("$VM/meshgen.py" --fw dt --out-dir "$T/spi-ok" "$T/spi.mesh" 2>&1); then
	bad gic/last_spi_placed "irq=$maxspi refused: $out"
else
	ok gic/last_spi_placed
fi
spi_mesh $((maxspi + 1))
for fw in dt acpi; do
	if out=$("$VM/meshgen.py" --fw "$fw" --out-dir "$T/spi-bad" "$T/spi.mesh" 2>&1); then
		bad "gic/spi_above_refused_$fw" "irq=$((maxspi + 1)) placed"
	elif ! grep -q "line 4: irq=$((maxspi + 1)): " <<<"$out"; then
		bad "gic/spi_above_refused_$fw" "not with its line: $out"
	else
		ok "gic/spi_above_refused_$fw"
	fi
done

# ---- random meshes (randmesh.py) against the model's own parser ----
# meshcheck: the model's mesh.c and image.c built for userspace
# (tools/testing/cmn600-model/user); every generated file must parse, pass
# the model's hardware rules (cmn600_model_check_trm()), stay within the
# driver's HN-F limit and say what the generator meant; the seeds must
# cover every corner; a generator broken on purpose must be caught.
MC="$T/mc/meshcheck"
RM="$VM/randmesh.py"
MAXH=$(sed -n 's/^#define[[:space:]]\+CMN_HNF_MAX_HNFS[[:space:]]\+\([0-9]\+\).*/\1/p' \
	"$REPO/include/arm_cmn_hnf/logic.h")
SEEDS=${MESHGEN_SEEDS:-10000}
if ! out=$(make -s -C "$REPO/tools/testing/cmn600-model/user" O="$T/mc" 2>&1); then
	bad meshgen/build "meshcheck does not build: $(echo "$out" | head -n 5 | tr '\n' '|')"
elif [ -z "$MAXH" ]; then
	bad meshgen/build "no CMN_HNF_MAX_HNFS in include/arm_cmn_hnf/logic.h"
else
	ok meshgen/build
	# the seeds in two halves at once (two cores)
	t0=$(date +%s%N)
	h=$((SEEDS / 2))
	"$RM" --stream 0 "$h" | "$MC" --max-hnfs "$MAXH" > "$T/mc1.out" 2>&1 &
	p1=$!
	"$RM" --stream "$h" $((SEEDS - h)) | "$MC" --max-hnfs "$MAXH" > "$T/mc2.out" 2>&1 &
	p2=$!
	r1=0 r2=0
	wait $p1 || r1=$?
	wait $p2 || r2=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	files=$(cat "$T/mc1.out" "$T/mc2.out" | sed -n 's/^meshcheck: \([0-9]*\) files, .*/\1/p' |
		awk '{ n += $1 } END { print n + 0 }')
	log "meshgen: $files random mesh files checked by the model's parser in $((ms / 1000)).$((ms % 1000 / 100)) s"
	if [ "$r1" = 0 ] && [ "$r2" = 0 ] && [ "$files" = "$SEEDS" ]; then
		ok "meshgen/model_accepts_${SEEDS}_seeds"
	else
		bad "meshgen/model_accepts_${SEEDS}_seeds" \
			"$(grep -h -v coverage "$T/mc1.out" "$T/mc2.out" | head -n 4 | tr '\n' '|')"
	fi
	# every corner in the first thousand seeds already
	if out=$("$RM" --stream 0 1000 | "$MC" --max-hnfs "$MAXH" --coverage --build-every 0); then
		ok meshgen/coverage
	else
		bad meshgen/coverage "$(echo "$out" | grep -v '^meshcheck: coverage' | tr '\n' '|')"
	fi
	# the same seed, the same file, whichever way it is asked for
	if [ "$("$RM" 4242)" = "$("$RM" --stream 4242 1 | tail -n +2)" ] &&
	   [ "$("$RM" 4242)" = "$("$RM" 4242)" ]; then
		ok meshgen/reproducible
	else
		bad meshgen/reproducible "seed 4242 gave two different files"
	fi
	# the harness places every file for both firmwares (meshgen.py)
	if out=$(python3 - "$VM" <<'EOF' 2>&1
import sys
sys.path.insert(0, sys.argv[1])
import meshgen  # noqa: E402
import randmesh  # noqa: E402

bad = 0
for seed in range(1000):
    text = randmesh.generate(seed)[0]
    for fw in ("dt", "acpi"):
        try:
            meshgen.resolve(meshgen.parse(text)[1], fw)
        except meshgen.MeshError as e:
            bad += 1
            if bad <= 3:
                print(f"seed {seed} {fw}: {e}")
sys.exit(1 if bad else 0)
EOF
	); then
		ok meshgen/placed
	else
		bad meshgen/placed "meshgen.py cannot place: $(echo "$out" | tr '\n' '|')"
	fi
	# each rule broken on purpose is caught
	for b in overlap domains dtc-port hnf-max lids; do
		case $b in
		overlap) want="overlaps the one of line" ;;
		domains) want="not one connected region" ;;
		dtc-port) want="cannot sit on a port of connect type 0x9" ;;
		hnf-max) want="$((MAXH + 1)) HN-Fs, not 1..$MAXH" ;;
		lids) want="of a hn-f: the" ;;
		esac
		if out=$("$RM" --break "$b" --stream 0 200 | "$MC" --max-hnfs "$MAXH"); then
			bad "meshgen/catches_broken/$b" "a generator that breaks '$b' passed"
		elif ! grep -qF "$want" <<<"$out"; then
			bad "meshgen/catches_broken/$b" "not for the reason: $(head -n 2 <<<"$out" | tr '\n' '|')"
		else
			ok "meshgen/catches_broken/$b"
		fi
	done
	# the shipped meshes obey the hardware rules too
	if out=$("$MC" --max-hnfs "$MAXH" --build-every 1 "$MESHDIR"/*.mesh); then
		ok meshgen/shipped_meshes
	else
		bad meshgen/shipped_meshes "$(echo "$out" | grep -v '^meshcheck: coverage' | head -n 3 | tr '\n' '|')"
	fi
	# the model's hardware rules, one broken at a time
	while IFS='|' read -r name want text; do
		printf '%b' "$text" > "$T/trm.mesh"
		if out=$("$MC" "$T/trm.mesh"); then
			bad "meshgen/trm_rejects/$name" "accepted: $text"
		elif ! grep -qF "$want" <<<"$out"; then
			bad "meshgen/trm_rejects/$name" "not for the reason: $(head -n 1 <<<"$out")"
		else
			ok "meshgen/trm_rejects/$name"
		fi
	done <<'EOF'
no_dtc|no DTC|mesh x=1 y=1\nnode hn-f 0 0 0 0\n
node_port|a hn-f node (0x5) cannot sit on a port of connect type 0x9|mesh x=2 y=1\nnode dtc 0 0 0 0\nport 1 0 0 hn-i\nnode hn-f 1 0 0 0\n
port_node|connect type 0xe without its node|mesh x=2 y=1\nnode dtc 0 0 0 0\nnode hn-f 0 0 1 0\nport 1 0 1 hn-f\n
raw_port|connect type 0x1f is not a CMN-600 device|mesh x=2 y=1\nnode dtc 0 0 0 0\nnode hn-f 1 0 0 0\nport 1 0 1 raw:1f\n
raw_node|a raw node (0x77) cannot sit|mesh x=2 y=1\nnode dtc 0 0 0 0\nnode hn-f 1 0 0 0\nport 1 0 1 hn-i\nnode raw:77 1 0 1 0\n
lid_gap|logical id 2 of a hn-f|mesh x=2 y=1\nnode dtc 0 0 0 0\nnode hn-f 1 0 0 0\nnode hn-f 1 0 1 0 lid=2\n
domain_split|DTC domain 1 are not one connected region|mesh x=3 y=1\nnode dtc 1 0 0 0\nnode dtc 0 0 0 0 lid=1\nnode hn-f 2 0 1 0\ndomain 2 0 1\n
EOF
fi
exit $rc
