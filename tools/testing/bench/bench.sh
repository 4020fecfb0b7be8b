#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh (make bench): arm_cmn_hnf side by side with Debian's stock
# arm-cmn, in one QEMU guest boot per mesh. Each boot loads the CMN-600
# model (manual clock: counters move only when stepped, so only driver cost
# is timed), measures arm-cmn, unloads it, measures arm_cmn_hnf, then counts
# arm_cmn_hnf's register accesses with its counting build
# (src/count_accesses.h). The guest side is guest/bench.sh (with the
# static helper src/cmn-bench.c); report.py makes the table:
#
#   bench <mesh> <figure> ours=<v> arm-cmn=<v> ratio=<ours/arm-cmn>
#
# Nothing is asserted. Under TCG absolute times mean little: only ratios
# between the two drivers within one boot do. By default QEMU runs with
# -icount (BENCH_ICOUNT): guest time then counts executed instructions, one
# per ns, so times are code path lengths that other guests on a shared host
# cannot disturb; BENCH_ICOUNT=off times in host wall time instead (MTTCG,
# noisy when the host is loaded).
#
# Environment (or make variables):
#   BENCH_MESHES  meshes, one boot each (default "default 8x8-32hnf-4dtc");
#                 MESH=<name|file> runs that one mesh only
#   KERNEL        6.12 (default), 5.10, 6.1 or 7.2 (arm-cmn's access formula
#                 is read from 6.12's arm-cmn.c: n/a on the others)
#   FW            dt (default) or acpi
#   BENCH_N       operations per timing run (default 200; open/close and
#                 enable/disable use a tenth): short runs, so that a host
#                 preemption spoils few of them
#   BENCH_RUNS    timing runs per round, their median counts (default 31)
#   BENCH_ROUNDS  rounds of the timed figures, each arm-cmn then ours; the
#                 table shows the median round (default 3)
#   BENCH_LOADS   load/unload cycles for probe time and memory (default 3)
#   BENCH_SECS    seconds of the multiplexing and duty windows (default 10)
#   BENCH_MUX_MS  perf_event_mux_interval_ms during those (default 100)
#   BENCH_ROT_MS, BENCH_ROT_SECS  rotation interval and traced time (10, 3)
#   BENCH_STAT_SECS  seconds of each CPU-overhead window (default 10)
#   BENCH_DUTY_TERMS extra terms for arm_cmn_hnf's per-HN-F duty events
#   BENCH_FIGURES groups of figures to take (default "probe timing mux
#                 mmio"): probe (probe-us .. module-kB, with where the
#                 slab memory comes from), timing (the timed rounds and the
#                 interval overhead), read (only the read figures of the
#                 timed rounds, for a change of the read path), mux (mux-*
#                 and duty-*), mmio (the counting build); BENCH_FIGURES=probe
#                 takes minutes; the table's "figures" note says which ran
#   BENCH_ICOUNT  QEMU -icount options (default "shift=0,sleep=on"), or off
#   BENCH_TIMEOUT seconds per boot (default 2400)
#
# Output: the table on stdout (also $OUTD/bench/<run>/table.txt), serial
# logs in $OUTD/bench/<run>/. Exit status 0 when every boot gave a table.
# shellcheck source=../vm/common.sh
. "$(dirname "$0")/../vm/common.sh"

BENCH="$REPO/tools/testing/bench"
KERNEL=${KERNEL:-6.12}
FW=${FW:-dt}
# shellcheck disable=SC2206
MESHES=(${MESH:-${BENCH_MESHES:-default 8x8-32hnf-4dtc}})
TIMEOUT=${BENCH_TIMEOUT:-2400}
ICOUNT=${BENCH_ICOUNT:-shift=0,sleep=on}
QEXTRA=${QEMU_EXTRA:-}
[ "$ICOUNT" = off ] || QEXTRA="$QEXTRA -icount $ICOUNT"
CROSS=aarch64-linux-gnu-

ensure_host_packages
resolve_kvers
abi=$(kernel_abi "$KERNEL")
krel="$abi-arm64"

RUNID=$(date +%Y%m%d-%H%M%S)-$$
RUN="$OUTD/bench/$RUNID"
mkdir -p "$RUN"
ln -sfn "$RUNID" "$OUTD/bench/latest"

# ---- build ------------------------------------------------------------------
# The guest pieces (Debian kernel, busybox, perf) and the base initramfs come
# from the VM harness. What is measured is built here, privately, from this
# tree (a build directory shared with other trees can hold stale objects):
# the driver, its counting build, the model, cmn-hnf, cmn-perf and cmn-bench
# go to /bench in a small archive put in front of the base one, and the guest
# script uses them from there.
exec 9> "$OUTD/.build.lock"
flock 9
"$VM/fetch-guest.sh" "$KERNEL"
timed "mkinitramfs $KERNEL" "$VM/mkinitramfs.sh" "$KERNEL" "$RUN/base.cpio.zst"
flock -u 9
fetch_kernel_headers "$KERNEL" arm64

ST="$RUN/stage"
B="$RUN/build"
mkdir -p "$ST/bench/bin" "$ST/etc/cmn" "$B"
rsync -a --exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
	--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
	--exclude=build/ --exclude=.obj/ --exclude=.test-obj/ "$REPO/" "$B/"
JOBS=${JOBS:-$(nproc)}
# build LABEL CMD...: run CMD with its output in $RUN/build.log; fail loudly
# (kbuild_make: the kernel's own compiler, as build-modules.sh does)
build() {
	local label=$1
	shift
	if ! timed "bench: $label" "$@" >> "$RUN/build.log" 2>&1; then
		tail -n 30 "$RUN/build.log" >&2
		log "bench: $label failed (log $RUN/build.log)"
		exit 1
	fi
}
build "modules $krel" kbuild_make "$KERNEL" arm64 -s -j"$JOBS" M="$B" CMN_HNF_ALL=1 modules
cp "$B/drivers/perf/arm_cmn_hnf/arm_cmn_hnf.ko" \
	"$B/tools/testing/cmn600-model/cmn600_model.ko" "$ST/bench/"
# the counting build: the same sources, hw.c's accessors renamed to the
# counting ones of src/count_accesses.h (the shipped module has no trace
# of it); every accessor of hw.c must have been renamed
HW="$B/drivers/perf/arm_cmn_hnf/hw.c"
cp "$BENCH/src/count_accesses.h" "${HW%/*}/"
sed -i -e 's/\breadq_relaxed(/cmn_bench_readq_relaxed(/g' -e 's/\breadq(/cmn_bench_readq(/g' -e 's/\breadl(/cmn_bench_readl(/g' \
	-e 's/\bwriteq_relaxed(/cmn_bench_writeq_relaxed(/g' \
	-e 's|^#include "hnf.h"$|#include "hnf.h"\n#include "count_accesses.h"|' "$HW"
if ! grep -q '^#include "count_accesses.h"' "$HW" ||
   grep -E '(^|[^_a-z])(read|write)[bwlq](_relaxed)?\(' "$HW"; then
	log "bench: hw.c has an access the counting build does not count"
	exit 1
fi
build "counting arm_cmn_hnf $krel" kbuild_make "$KERNEL" arm64 -s -j"$JOBS" M="$B" modules
cp "$B/drivers/perf/arm_cmn_hnf/arm_cmn_hnf.ko" "$ST/bench/arm_cmn_hnf_count.ko"
build "cmn-hnf (arm64)" make -s -C "$B/tools/cmn-hnf" CROSS_COMPILE=$CROSS STATIC=1 \
	O="$B/tool-out"
cp "$B/tool-out/cmn-hnf" "$ST/bench/bin/"
build "e2e helpers (arm64)" make -s -C "$B/tools/testing/e2e" CROSS_COMPILE=$CROSS \
	O="$ST/bench/bin"
build "cmn-bench (arm64)" make -s -C "$B/tools/testing/bench" CROSS_COMPILE=$CROSS \
	O="$ST/bench/bin"
cp "$BENCH/guest/bench.sh" "$ST/bench/bench.sh"
for v in N RUNS ROUNDS LOADS SECS MUX_MS ROT_MS ROT_SECS STAT_SECS DUTY_TERMS FIGURES; do
	eval "x=\${BENCH_$v:-}"
	# shellcheck disable=SC2154 # x is set by the eval
	[ -n "$x" ] && printf "BENCH_%s='%s'\n" "$v" "$x"
done > "$ST/etc/cmn/bench.conf"
(cd "$ST" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$RUN/bench.cpio"
cat "$RUN/bench.cpio" "$RUN/base.cpio.zst" > "$RUN/base+bench.cpio"
rm -rf "$B"

# ---- one boot per mesh -----------------------------------------------------
TABLE="$RUN/table.txt"
{
	echo "# make bench $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo '?')," \
		"$(date -u +%Y-%m-%dT%H:%MZ), kernel $krel, firmware $FW"
	echo "# command: $(env | grep -E '^(BENCH_[A-Z_]+|MESH|KERNEL|FW|QEMU_EXTRA)=' |
		LC_ALL=C sort | tr '\n' ' ')make bench"
	echo "# Under TCG (no KVM) absolute times mean little: only the ratios"
	echo "# between the two drivers from one boot mean anything."
	if [ "$ICOUNT" = off ]; then
		echo "# Times are host wall time (BENCH_ICOUNT=off): they drift with the"
		echo "# load of a shared host; compare the rounds in the notes."
	else
		echo "# QEMU -icount $ICOUNT: guest time counts executed instructions"
		echo "# (shift=0: one per ns), so times are code path lengths, immune to"
		echo "# host load; an MMIO access costs one instruction here, far less"
		echo "# than on the mesh: read the mmio-* counts alongside."
	fi
	echo "# ns/us: median round of medians over runs; mmio-*: register accesses"
	echo "# per operation (ours: counting build; arm-cmn: formula from its source)."
} | tee "$TABLE"
nok=0
for m in "${MESHES[@]}"; do
	if [ -f "$m" ]; then mf=$m; else mf="$MESHDIR/$m.mesh"; fi
	mn=$(basename "$mf" .mesh)
	fwd="$RUN/fw-$FW-$mn"
	if ! why=$(prepare_fw "$FW" "$mf" "$fwd"); then
		log "bench: $mn: $why"
		continue
	fi
	# shellcheck disable=SC1091
	. "$fwd/boot.env"
	initrd="$RUN/$mn.cpio"
	boot_initrd "$RUN/base+bench.cpio" "$initrd" "$fwd" "$FW" "$KERNEL" "$mn" none \
		"$TIMEOUT" "/bench/bench.sh:$TIMEOUT"
	blog="$RUN/$mn.log"
	log "bench: booting $KERNEL/$FW with mesh $mn (serial log $blog)"
	KERNEL=$KERNEL FW=$FW INITRD=$initrd DTB="$fwd/virt.dtb" MEM_MB=$MEM_MB LOG=$blog \
		QEMU_EXTRA=$QEXTRA LABEL="bench $mn" TIMEOUT=$((TIMEOUT + 120)) \
		"$VM/boot.sh" || true
	rm -f "$initrd"
	cite=()
	[ "$m" = "${MESHES[-1]}" ] && cite=(--cite)
	if python3 "$BENCH/report.py" --mesh "$mn" --mesh-file "$fwd/mesh" --log "$blog" \
		--event-table "$REPO/include/arm_cmn_hnf/event_table.h" "${cite[@]}" |
		tee -a "$TABLE"; then
		nok=$((nok + 1))
	else
		log "bench: $mn: incomplete (serial log $blog)"
	fi
done
rm -f "$RUN/base.cpio.zst" "$RUN/base+bench.cpio" "$RUN/bench.cpio"
log "bench: table in $TABLE"
[ "$nok" -eq "${#MESHES[@]}" ]
