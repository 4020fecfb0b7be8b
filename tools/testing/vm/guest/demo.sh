#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of `make demo` (run by /init): the CMN-600 model runs freely
# with the "stream" workload profile, our driver is loaded, and perf and the
# cmn-hnf tool show what the PMU sees. Not a test: it prints no CMN-TEST
# lines; a step that fails is shown and the demo goes on.
. /e2e/lib.sh

step() {
	echo
	echo "==== \$ $*"
	sh -c "$*" 2>&1
	_r=$?
	[ $_r -eq 0 ] || echo "==== (exit status $_r)"
}
say() {
	echo
	echo "==== $*"
}

say "guest: $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs, firmware $CMN_FW, mesh $CMN_MESH_NAME"
step "cat /etc/cmn/mesh | grep -v '^#' | grep -v '^\$' | head -n 12"
if ! model_load; then
	say "the CMN-600 model did not load: nothing to show"
	exit 1
fi
step "cat $CMN_DBG/mesh0/info"
model_clock free stream
step "cat $CMN_DBG/clock $CMN_DBG/freq_mhz"
if ! driver_load; then
	say "arm_cmn_hnf did not load"
	dmesg | tail -n 20
	exit 1
fi
step "dmesg | grep -i -E 'arm_cmn_hnf|cmn600' | tail -n 8"
step "ls /sys/bus/event_source/devices/ | grep cmn"
step "perf list 2>/dev/null | grep arm_cmn_hnf | head -n 40"
step "perf stat -e arm_cmn_hnf/slc_miss/ -a sleep 1"
step "perf stat -e arm_cmn_hnf/slc_access/,arm_cmn_hnf/slc_miss/,arm_cmn_hnf/slc_fill/,arm_cmn_hnf/sf_hit/,arm_cmn_hnf/dtc_cycles/ -a sleep 1"
step "perf stat -e arm_cmn_hnf/pocq_occupancy,occupid=1/,arm_cmn_hnf/pocq_occupancy,occupid=2/,arm_cmn_hnf/mc_reqs/ -a sleep 1"
step "perf stat -I 250 -e arm_cmn_hnf/slc_miss/ -a sleep 1"
if command -v cmn-hnf > /dev/null; then
	step "cmn-hnf --help"
	step "cmn-hnf topo"
	step "cmn-hnf list | head -n 40"
	step "cmn-hnf stat"
	step "cmn-hnf stat --per-hnf slc"
	step "cmn-hnf check"
else
	say "cmn-hnf is not in this initramfs (tools/cmn-hnf not built)"
fi
say "model truth after the demo (mesh0, first lines)"
head -n 8 "$CMN_DBG/mesh0/truth"
model_clock manual
driver_unload
exit 0
