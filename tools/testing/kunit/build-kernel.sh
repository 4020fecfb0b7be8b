#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once, cached) the project's arm64 debug kernel, used by `make kunit`
# and by `make e2e KERNEL=debug`: linux-source-6.12 from Debian's archive,
# configured and built by the kernel's own kunit.py with
# tools/testing/kunit/arm_cmn_hnf.kunitconfig (KASAN, lockdep, kmemleak,
# debug objects, ACPI + UEFI, ARM_CMN=m, ...), then its modules installed
# into <build dir>/modroot (for the e2e guest: arm-cmn.ko, modules.dep).
# With KUNIT_KERNEL=7.2: sid's linux-source-7.2 (the source of the newest
# kernel the guests boot) with arm_cmn_hnf-7.2.kunitconfig, a KUnit-only
# kernel (KASAN, lockdep, kmemleak; no ACPI, no e2e guest).
#
# The build directory is keyed by the source package version and the hash of
# the kunitconfig; a finished build has a .cmn-hnf-ok stamp and is reused.
# Prints the build directory on stdout. "--dir" prints it without building
# (it may not exist yet).
#
# Environment: KUNIT_KERNEL (6.12 or 7.2, default 6.12), CMN_HNF_CACHE
# (cache root), JOBS (default nproc).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

KCONF="$TESTING/kunit/arm_cmn_hnf.kunitconfig"
[ "${KUNIT_KERNEL:-6.12}" = 6.12 ] || KCONF="$TESTING/kunit/arm_cmn_hnf-$KUNIT_KERNEL.kunitconfig"
[ -f "$KCONF" ] || { log "no KUnit kernel config for KUNIT_KERNEL=$KUNIT_KERNEL"; exit 1; }
ensure_kernel_source "${KUNIT_KERNEL:-6.12}"
SRCVER=$KSRC_VERSION
SRC=$KSRC
HASH=$(sha256sum "$KCONF" | cut -c1-12)
B="$CACHE/kunit-arm64/$SRCVER-$HASH"
if [ "${1:-}" = --dir ]; then
	echo "$B"
	exit 0
fi
take_lock "kunit-kernel-${KUNIT_KERNEL:-6.12}"

if [ -f "$B/.cmn-hnf-ok" ]; then
	log "KUnit kernel cached: $B"
	echo "$B"
	exit 0
fi

mkdir -p "$B"
# A new config of the same source: start from the newest finished build of
# that source, so that kbuild rebuilds only what the changed options touch
# (a fresh machine has none and builds from scratch).
prev=$(ls -1dt "$CACHE/kunit-arm64/$SRCVER"-*/.cmn-hnf-ok 2>/dev/null | head -n 1 || true)
if [ -n "$prev" ] && [ -z "$(ls -A "$B")" ]; then
	prev=$(dirname "$prev")
	log "seeding $B from $prev (incremental build)"
	cp -a "$prev/." "$B/"
	rm -rf "$B/.cmn-hnf-ok" "$B/modroot"
fi
BLOG="$OUTD/kunit-kernel-build.log"
[ "${KUNIT_KERNEL:-6.12}" = 6.12 ] || BLOG="$OUTD/kunit-kernel-build-$KUNIT_KERNEL.log"
log "building KUnit arm64 kernel in $B (log: $BLOG)"
if ! PYTHONDONTWRITEBYTECODE=1 timed "kunit.py build arm64 kernel" \
	python3 "$SRC/tools/testing/kunit/kunit.py" build \
	--arch=arm64 --cross_compile=aarch64-linux-gnu- --build_dir="$B" \
	--kunitconfig="$KCONF" --jobs="${JOBS:-$(nproc)}" >"$BLOG" 2>&1; then
	log "KUnit kernel build failed; tail of $BLOG:"
	tail -30 "$BLOG" >&3
	exit 1
fi
# Kbuild needs the prepared tree to build external modules against it.
if [ ! -f "$B/arch/arm64/boot/Image" ] || [ ! -f "$B/Module.symvers" ]; then
	log "KUnit kernel build produced no Image/Module.symvers in $B"
	exit 1
fi
rm -rf "$B/modroot"
if ! timed "debug kernel: modules_install" make -s -C "$B" ARCH=arm64 \
	CROSS_COMPILE=aarch64-linux-gnu- INSTALL_MOD_PATH="$B/modroot" \
	INSTALL_MOD_STRIP=1 modules_install >>"$BLOG" 2>&1; then
	log "modules_install of the debug kernel failed; tail of $BLOG:"
	tail -30 "$BLOG" >&3
	exit 1
fi
echo "$SRC" >"$B/.cmn-hnf-src"
touch "$B/.cmn-hnf-ok"
echo "$B"
