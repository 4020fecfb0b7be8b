#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# gen-aliases-h.sh LIST: turn the tests' independent alias list
# (tools/testing/hnf-aliases.list) into a C header for KUnit
# (kunit/events_kunit.c): one line per HN-F event alias that arm_cmn_hnf
# must publish (pmus "hnf" or "both", not the cycle counter):
#
#   CMN_HNF_LIST_ALIAS(name, eventid, occupid, scale, unit, since)
#
# occupid is -1 for "-", scale and unit are strings ("" for "-"), since is
# the CMN-600 revision code (r1p0 = 0 ... r3p1 = 6; 0 for "-").
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 hnf-aliases.list" >&2; exit 2; }
spdx=SPDX-License-Identifier
echo "/* $spdx: GPL-2.0 */"
echo "/* Generated from $(basename "$1") by gen-aliases-h.sh: do not edit. */"
awk '
function fail(msg) { printf "gen-aliases-h.sh: line %d: %s\n", NR, msg > "/dev/stderr"; bad = 1; exit 1 }
BEGIN {
	split("r1p0 r1p1 r1p2 r1p3 r2p0 r3p0 r3p1", revs, " ")
	for (i = 1; i <= 7; i++) rev[revs[i]] = i - 1
}
/^[ \t]*(#|$)/ { next }
{
	if (NF != 7) fail("want 7 columns, got " NF)
	if ($1 != "hnf" && $1 != "cmn" && $1 != "both") fail("bad pmus " $1)
	if ($2 !~ /^[a-z0-9_]+$/) fail("bad name " $2)
	if ($3 != "cycles" && $3 !~ /^0x[0-9a-f][0-9a-f]$/) fail("bad event " $3)
	if ($4 != "-" && $4 !~ /^[0-4]$/) fail("bad occupid " $4)
	if ($7 != "-" && !($7 in rev)) fail("bad since " $7)
	if ($1 == "cmn" || $3 == "cycles") next
	printf "CMN_HNF_LIST_ALIAS(%s, %s, %s, \"%s\", \"%s\", %d)\n", $2, $3,
		$4 == "-" ? -1 : $4, $5 == "-" ? "" : $5, $6 == "-" ? "" : $6,
		$7 == "-" ? 0 : rev[$7]
}
END { if (bad) exit 1 }' "$1"
