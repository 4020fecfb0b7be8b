#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dts-check.sh BINDING: the dts/ examples against the upstream binding
# (BINDING is Documentation/devicetree/bindings/perf/arm,cmn.yaml of a
# kernel tree). Result lines:
#
#   pkg/dts/dtc/<file>             dtc compiles it without a warning
#   pkg/dts/binding/<file>         dt-validate (Debian's dt-schema) finds no
#                                  error, and every arm,cmn-600 node was
#                                  matched against arm,cmn.yaml (so it was
#                                  really checked, not skipped)
#   pkg/dts/rejects/<mutation>     the same check flags an example with a
#                                  required property removed (the check can
#                                  fail)
set -uo pipefail
BINDING=$1
REPO=$(cd "$(dirname "$0")/../../.." && pwd)
T=$(mktemp -d /tmp/cmn-hnf-dts.XXXXXX)
trap 'rm -rf "$T"' EXIT
NFAIL=0

pass() { echo "PASS: pkg/dts/$1"; }
fail() { echo "FAIL: pkg/dts/$1: $2"; NFAIL=$((NFAIL + 1)); }

mkdir -p "$T/bindings/perf"
cp "$BINDING" "$T/bindings/perf/"
if ! dt-mk-schema -j "$T/bindings" > "$T/schema.json" 2> "$T/mk.err"; then
	fail schema "dt-mk-schema failed: $(tail -n 1 "$T/mk.err")"
	exit 1
fi

# validate NAME DTS: compile DTS (includes resolved next to it) and check
# it; prints "" when clean, else the first problem
validate() {
	local dtb=$T/$1.dtb cmn matched
	if ! dtc -q -I dts -O dtb -o "$dtb" "$2" 2> "$T/$1.dtc" || [ -s "$T/$1.dtc" ]; then
		echo "dtc: $(head -n 2 "$T/$1.dtc" | tr '\n' ' ')"
		return
	fi
	dt-validate -s "$T/schema.json" "$dtb" > "$T/$1.val" 2>&1
	if [ -s "$T/$1.val" ]; then
		echo "dt-validate: $(grep -v 'From schema' "$T/$1.val" | head -n 2 | tr '\n\t' '  ')"
		return
	fi
	cmn=$(fdtget -l "$dtb" / 2>/dev/null | while read -r n; do
		fdtget "$dtb" "/$n" compatible 2>/dev/null | grep -qx 'arm,cmn-600' && echo "$n"
	done | sort)
	matched=$(dt-validate -M -s "$T/schema.json" "$dtb" 2>&1 |
		awk '/: \/.*matched on schema/ { n = $2; sub("^/", "", n); sub(":$", "", n) }
		     /perf\/arm,cmn.yaml/ { print n }' | sort)
	if [ -z "$cmn" ]; then
		echo "no arm,cmn-600 node"
	elif [ "$cmn" != "$matched" ]; then
		echo "arm,cmn-600 nodes '$(echo $cmn)' but checked against arm,cmn.yaml: '$(echo $matched)'"
	fi
}

for f in "$REPO"/dts/*.dts; do
	name=$(basename "$f")
	if dtc -q -I dts -O dtb -o /dev/null "$f" 2> "$T/dtc.err" && [ ! -s "$T/dtc.err" ]; then
		pass "dtc/$name"
	else
		fail "dtc/$name" "$(head -n 2 "$T/dtc.err" | tr '\n' ' ')"
	fi
	why=$(validate ok "$f")
	if [ -z "$why" ]; then
		pass "binding/$name"
	else
		fail "binding/$name" "$why"
	fi
done

# Mutations of the first example: each must be rejected.
src=$(ls "$REPO"/dts/*.dts | head -n 1)
inc=$(sed -n 's|^[[:space:]]*/include/ "\(.*\)"|\1|p' "$src")
for m in no-root-node:'/arm,root-node/d' no-interrupts:'/interrupts = /d' \
	 no-reg:'/reg = <0x0 0x5/d' five-interrupts:'s/interrupts = <0 47 4>, <0 48 4>;/interrupts = <0 47 4>, <0 48 4>, <0 49 4>, <0 50 4>, <0 51 4>;/'; do
	name=${m%%:*}
	mkdir -p "$T/$name"
	cp "$src" "$T/$name/"
	sed "${m#*:}" "$REPO/dts/$inc" > "$T/$name/$inc"
	if cmp -s "$REPO/dts/$inc" "$T/$name/$inc"; then
		fail "rejects/$name" "the mutation did not apply to dts/$inc"
		continue
	fi
	why=$(validate "$name" "$T/$name/$(basename "$src")")
	if [ -n "$why" ]; then
		pass "rejects/$name"
		echo "    $why"
	else
		fail "rejects/$name" "an example without what the binding requires passed"
	fi
done
[ $NFAIL = 0 ]
