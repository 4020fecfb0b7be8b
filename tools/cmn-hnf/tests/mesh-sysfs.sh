#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A fake sysfs tree of arm_cmn_hnf PMUs from a mesh file of the CMN-600
# model (tools/testing/cmn600-model/meshes), as the driver would publish
# it (Documentation/ABI/testing/sysfs-bus-event_source-devices-arm_cmn_hnf):
#
#   mesh-sysfs.sh MESHFILE ROOT
#
# One PMU per "mesh" line, arm_cmn_hnf_<uid> (uid= or the mesh's index),
# perf type 9, 10, ...; identifier, mesh, dtcs, the five format files and
# hnfs: the HN-Fs in logical id order (lid=, else the order of their node
# lines, as the model numbers them) with the node id of the CMN-600 rule
# of Documentation/internals.rst. No event aliases: the tool takes the
# event table's encodings.
set -eu
MESH=$1 ROOT=$2
D="$ROOT/bus/event_source/devices"
mkdir -p "$D"
awk -v D="$D" '
function rev(r) {
	if (r == "r1p0") return "00"; if (r == "r1p1") return "01"
	if (r == "r1p2") return "02"; if (r == "r1p3") return "03"
	if (r == "r2p0") return "04"; if (r == "r3p0") return "05"
	if (r == "r3p1") return "06"; return "00"
}
function flush(   dir, i, b, f) {
	if (m < 0) return
	dir = D "/arm_cmn_hnf_" uid
	system("mkdir -p " dir "/format")
	print 9 + m > (dir "/type"); close(dir "/type")
	print "0" > (dir "/cpumask"); close(dir "/cpumask")
	print "434" rv > (dir "/identifier"); close(dir "/identifier")
	print mx " " my > (dir "/mesh"); close(dir "/mesh")
	print (ndtc ? ndtc : 1) > (dir "/dtcs"); close(dir "/dtcs")
	f = dir "/format/"
	print "config:0-7" > (f "eventid"); close(f "eventid")
	print "config:8-11" > (f "occupid"); close(f "occupid")
	print "config:12" > (f "bynodeid"); close(f "bynodeid")
	print "config:16-31" > (f "nodeid"); close(f "nodeid")
	print "config:32-35" > (f "type"); close(f "type")
	b = (mx <= 4 && my <= 4) ? 2 : 3
	f = dir "/hnfs"
	print "logical_id node_id xp_x xp_y port dev" > f
	for (i = 0; i < nh; i++)
		printf "%d 0x%04x %d %d %d %d\n", i,
			hx[i] * 2^(3 + b) + hy[i] * 8 + hp[i] * 4 + hd[i],
			hx[i], hy[i], hp[i], hd[i] > f
	close(f)
}
BEGIN { m = -1 }
/^mesh / {
	flush()
	m++; uid = m; nh = 0; ndtc = 0; rv = "00"
	for (i = 2; i <= NF; i++) {
		split($i, kv, "=")
		if (kv[1] == "x") mx = kv[2]
		if (kv[1] == "y") my = kv[2]
		if (kv[1] == "uid") uid = kv[2]
		if (kv[1] == "rev") rv = rev(kv[2])
	}
	seq = 0
	next
}
/^node dtc / { ndtc++; next }
/^node hn-f / {
	lid = seq++
	for (i = 7; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "lid") lid = kv[2] }
	hx[lid] = $3; hy[lid] = $4; hp[lid] = $5; hd[lid] = $6
	if (lid + 1 > nh) nh = lid + 1
}
END { flush() }
' "$MESH"
