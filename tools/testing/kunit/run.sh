#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit: run the project's KUnit tests in a self-built arm64 kernel with
# KASAN, lockdep, atomic-sleep checks and kmemleak, under QEMU (TCG).
#
#  1. build-kernel.sh: linux-source-6.12 (KUNIT_KERNEL=7.2: sid's
#     linux-source-7.2) + arm_cmn_hnf.kunitconfig (cached)
#  2. build the driver and kunit/arm_cmn_hnf_kunit.ko against that kernel
#  3. busybox initramfs with guest-init.sh as /init; boot qemu-system-aarch64
#  4. parse each suite's KTAP (from debugfs) with the kernel's kunit.py parse
#  5. fail on a failed/crashed case, a suite, case or parameter missing from
#     the run or from the manifest (kunit/manifest, see results.py), a
#     kernel warning/oops/KASAN/lockdep report, a kmemleak report, a
#     load/unload failure or a timeout
#
# Environment: KUNIT_KERNEL (6.12, the default, or 7.2), KUNIT_TIMEOUT (s,
# default 1200), JOBS, KUNIT_MODULES (a directory with this tree's modules
# built for the KUnit kernel already, as make check passes lint's; used
# only when their vermagic names that kernel).
# Output: result lines "PASS: kunit/<suite>.<case>", "FAIL: kunit/...: why"
# (Documentation/testing.rst); with KUNIT_KERNEL=7.2 the stage is
# "kunit-7.2". Exit status 0 only if everything passed.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

KUNIT_KERNEL=${KUNIT_KERNEL:-6.12}
case $KUNIT_KERNEL in
6.12) STAGE=kunit W="$OUTD/kunit" ;;
7.2) STAGE=kunit-7.2 W="$OUTD/kunit-7.2" ;;
*) echo "FAIL: kunit/kernel: KUNIT_KERNEL=$KUNIT_KERNEL (want 6.12 or 7.2)"; exit 1 ;;
esac
export KUNIT_KERNEL
HERE="$TESTING/kunit"
rc=0
fail() { result_fail "$STAGE/$1" "$2"; rc=1; }

ensure_host_packages
take_lock "$STAGE"
B=$("$HERE/build-kernel.sh") || { fail kernel-build "KUnit kernel build failed"; exit 1; }
KSRC=$(cat "$B/.cmn-hnf-src")
KREL=$(cat "$B/include/config/kernel.release")
mkdir -p "$W"
rm -f "$W"/*.ktap "$W"/*.json "$W"/*.parse.log "$W/serial.log"

# ---- modules: those of KUNIT_MODULES when they were built for $KREL (make
# check passes lint's build of the same tree against this kernel: W=1 and
# sparse change no object); else built here, in a copy so the work tree
# stays clean
KOS=(drivers/perf/arm_cmn_hnf/arm_cmn_hnf.ko kunit/arm_cmn_hnf_kunit.ko)
if MB=$(kunit_prebuilt "${KUNIT_MODULES:-}" "$KREL" "${KOS[@]}"); then
	log "modules: those built for $KREL in $MB"
else
	[ -z "${KUNIT_MODULES:-}" ] ||
		log "modules: none built for $KREL in $KUNIT_MODULES: building them"
	MB="$W/build"
	rm -rf "$MB"
	mkdir -p "$MB"
	rsync -a --exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='.*.cmd' \
		"$REPO/" "$MB/"
	if ! timed "kunit: build modules for $KREL" make -C "$B" M="$MB" \
		ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CMN_HNF_KUNIT=1 \
		-j"${JOBS:-$(nproc)}" modules >"$W/modules.log" 2>&1; then
		grep -E ': (error|warning):|\*\*\*' "$W/modules.log" | head -30 || true
		fail modules-build "make modules failed (log: $W/modules.log)"
		exit 1
	fi
	for k in "${KOS[@]}"; do
		[ -f "$MB/$k" ] || { fail modules-build "$k was not built"; exit 1; }
	done
fi

# ---- busybox (arm64, from the Debian archive, unpacked once)
BB="$GUEST/kunit-busybox"
if [ ! -x "$BB/bin/busybox" ]; then
	fetch_debs busybox-static:arm64
	rm -rf "$BB"
	dpkg -x "$(deb_of busybox-static)" "$BB"
fi

# ---- initramfs
R=$(mktemp -d "$W/initramfs.XXXXXX")
trap 'rm -rf "$R"' EXIT
mkdir -p "$R"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,modules}
cp "$BB/bin/busybox" "$R/bin/busybox"
ln -s busybox "$R/bin/sh"
install -m 0755 "$HERE/guest-init.sh" "$R/init"
: >"$R/modules/order"
for k in "${KOS[@]}"; do
	cp "$MB/$k" "$R/modules/"
	basename "$k" >>"$R/modules/order"
done
INITRD="$W/initramfs.cpio.zst"
(cd "$R" && find . -print0 | sort -z | cpio --null -o -H newc --quiet) |
	zstd -q -T0 -f -o "$INITRD"

# ---- boot
L="$W/serial.log"
TMO=${KUNIT_TIMEOUT:-1200}
qargs=(-M "virt,gic-version=3" -cpu neoverse-n1 -smp 2 -m 1G
	-nographic -no-reboot -kernel "$B/arch/arm64/boot/Image"
	-initrd "$INITRD"
	-append "console=ttyAMA0 rdinit=/init panic=-1 quiet kasan.fault=report")
log "booting $KREL in QEMU (TCG), serial log: $L"
qrc=0
timed "kunit: boot + tests ($KREL)" timeout "$TMO" \
	qemu-system-aarch64 "${qargs[@]}" </dev/null >"$L" 2>&1 || qrc=$?
sed -i 's/\r$//' "$L"
if [ $qrc -eq 124 ]; then
	fail guest "timeout after $TMO s"
elif [ $qrc -ne 0 ]; then
	fail guest "qemu exited with status $qrc"
fi
if ! grep -q '^=== CMN-KUNIT EXIT rc=' "$L"; then
	fail guest "the guest did not finish (crash or hang)"
fi
while read -r _ _ _ m; do
	fail "load/$m" "insmod failed"
done < <(grep '^=== CMN-KUNIT INSMOD-FAIL' "$L")
while read -r _ _ _ m; do
	fail "unload/$m" "rmmod failed"
done < <(grep '^=== CMN-KUNIT RMMOD-FAIL' "$L")

# ---- KTAP, one document per suite, parsed by the kernel's kunit.py
mapfile -t suites < <(sed -n 's/^=== CMN-KUNIT SUITE //p' "$L")
if [ ${#suites[@]} -eq 0 ]; then
	fail suites "no KUnit suite appeared after loading the modules"
fi
jsons=()
for s in "${suites[@]}"; do
	sed -n "/^=== CMN-KUNIT SUITE $s\$/,/^=== CMN-KUNIT END-SUITE $s\$/p" "$L" |
		sed '1d;$d' >"$W/$s.ktap"
	if ! PYTHONDONTWRITEBYTECODE=1 python3 "$KSRC/tools/testing/kunit/kunit.py" \
		parse --json="$W/$s.json" <"$W/$s.ktap" >"$W/$s.parse.log" 2>&1; then
		sed 's/^/  /' "$W/$s.parse.log" | grep -vE '^\s*$' | tail -40 || true
		rc=1
	fi
	if [ ! -s "$W/$s.json" ]; then
		fail "$s" "kunit.py parse produced no result"
		continue
	fi
	jsons+=("$W/$s.json")
done
# one line per case, held to the manifest: a case or suite that is listed
# and did not run, or ran and is not listed, fails
python3 "$HERE/results.py" --manifest "$REPO/kunit/manifest" "$STAGE" "${jsons[@]}" || rc=1

# ---- kernel log: anything the debug options reported while our code ran
after_start() { sed -n '/^=== CMN-KUNIT START$/,$p' "$L"; }
BAD_RE='BUG:|WARNING:|Oops|KASAN|Kernel panic|Unable to handle|possible recursive locking|possible circular locking|inconsistent lock state|DEBUG_LOCKS_WARN_ON|suspicious RCU usage|Call trace:'
# The dmesg dump repeats boot messages: only its part after our marker counts.
report=$(after_start | awk '
	/^=== CMN-KUNIT DMESG BEGIN/ { indmesg = 1; seen = 0; next }
	/^=== CMN-KUNIT DMESG END/ { indmesg = 0; next }
	indmesg && /CMN-KUNIT: start/ { seen = 1; next }
	indmesg && !seen { next }
	{ print }' | grep -E "$BAD_RE" | sort -u || true)
if [ -n "$report" ]; then
	printf '%s\n' "$report" | head -40 | sed 's/^/  /'
	fail kernel-log "kernel reported problems (serial log: $L)"
else
	result_pass "$STAGE/kernel-log"
fi

# ---- kmemleak
if grep -q '^=== CMN-KUNIT KMEMLEAK MISSING' "$L"; then
	fail kmemleak "no /sys/kernel/debug/kmemleak in the guest"
elif grep -q '^=== CMN-KUNIT KMEMLEAK BEGIN' "$L"; then
	leaks=$(sed -n '/^=== CMN-KUNIT KMEMLEAK BEGIN/,/^=== CMN-KUNIT KMEMLEAK END/p' "$L" |
		grep -c 'unreferenced object' || true)
	if [ "$leaks" -gt 0 ]; then
		sed -n '/^=== CMN-KUNIT KMEMLEAK BEGIN/,/^=== CMN-KUNIT KMEMLEAK END/p' "$L" |
			head -60 | sed 's/^/  /'
		fail kmemleak "$leaks unreferenced object(s)"
	else
		result_pass "$STAGE/kmemleak"
	fi
else
	fail kmemleak "the guest did not reach the kmemleak scan"
fi

if [ $rc -ne 0 ]; then
	log "kunit: FAILED; serial log tail ($L):"
	tail -40 "$L" >&3
fi
exit $rc
