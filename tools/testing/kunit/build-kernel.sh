#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once, cached) the minimal arm64 KUnit kernel used by `make kunit`:
# linux-source-6.12 (or, with KUNIT_KERNEL=7.2, sid's linux-source-7.2, the
# source of the newest kernel the guests boot) from Debian's archive,
# configured and built by the kernel's own kunit.py with
# tools/testing/kunit/arm_cmn_hnf.kunitconfig.
#
# The build directory is keyed by the source package version and the hash of
# the kunitconfig; a finished build has a .cmn-hnf-ok stamp and is reused.
# Prints the build directory on stdout.
#
# Environment: KUNIT_KERNEL (6.12 or 7.2, default 6.12), CMN_HNF_CACHE
# (cache root), JOBS (default nproc).
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

KCONF="$TESTING/kunit/arm_cmn_hnf.kunitconfig"
take_lock "kunit-kernel-${KUNIT_KERNEL:-6.12}"
ensure_kernel_source "${KUNIT_KERNEL:-6.12}"
SRCVER=$KSRC_VERSION
SRC=$KSRC
HASH=$(sha256sum "$KCONF" | cut -c1-12)
B="$CACHE/kunit-arm64/$SRCVER-$HASH"

if [ -f "$B/.cmn-hnf-ok" ]; then
	log "KUnit kernel cached: $B"
	echo "$B"
	exit 0
fi

mkdir -p "$B"
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
echo "$SRC" >"$B/.cmn-hnf-src"
touch "$B/.cmn-hnf-ok"
echo "$B"
