#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh [5.10|6.1|6.12|7.2|debug ...]: build the project's modules for
# Debian's arm64 guest kernel(s) and the arm64 userspace pieces the guest
# needs.
#
#   modules  make -C <Debian arm64 headers> M=<copy> CMN_HNF_ALL=1 modules,
#            with the kernel's own compiler (kbuild_make in ../lib.sh)
#            in an rsync'ed copy of the repository ($OUTW/build/<krel>), so
#            the work tree stays clean; the .ko files are collected in
#            $OUTW/modules/<krel>/ (arm_cmn_hnf.ko, cmn600_model.ko, ...)
#   tools    make -C tools/cmn-hnf CROSS_COMPILE=aarch64-linux-gnu- STATIC=1 O=..
#            (in a copy) -> $OUTW/bin/cmn-hnf
#   e2e bin  if tools/testing/e2e/Makefile exists:
#            make -C tools/testing/e2e CROSS_COMPILE=aarch64-linux-gnu- O=<dir>
#            -> every executable in $OUTW/bin/e2e/ is shipped in /e2e/bin/
#
# A part whose sources do not exist yet is reported on stderr ("not built")
# and simply missing from the outputs; tests needing it then fail in the
# guest. A part that exists but fails to build fails this script.
# Default kernels: $KERNEL if set, else all four.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
	# shellcheck disable=SC2206
	kernels=(${KERNEL:-$(kernel_series_all)})
fi
JOBS=${JOBS:-$(nproc)}
# Build copies, modules and binaries are kept per source tree ($OUTW,
# common.sh): two work trees sharing the cache must never see each other's
# objects, whose timestamps can be newer than the other tree's sources.
CROSS=aarch64-linux-gnu-

# Kbuild subdirectories the top-level Kbuild descends into for CMN_HNF_ALL=1.
SUBDIRS=(drivers/perf/arm_cmn_hnf tools/testing/cmn600-model)

for k in "${kernels[@]}"; do
	abi=$(kernel_abi "$k")
	krel="$abi-arm64"
	fetch_kernel_headers "$k" arm64
	B="$OUTW/build/$krel"
	M="$OUTW/modules/$krel"
	mkdir -p "$B" "$M"
	rsync -a --delete --exclude=.git --exclude='*.o' --exclude='*.ko' \
		--exclude='*.mod*' --exclude='.*.cmd' --exclude=Module.symvers \
		--exclude=modules.order --filter='P .*.cmd' --filter='P *.o' \
		--filter='P *.mod*' --filter='P *.ko' --filter='P Module.symvers' \
		--filter='P modules.order' "$REPO/" "$B/"
	# A subdirectory that does not exist yet gets an empty Kbuild in the
	# copy, so the rest still builds (reported, never counted as a pass).
	for d in "${SUBDIRS[@]}"; do
		if [ ! -f "$REPO/$d/Kbuild" ] && [ ! -f "$REPO/$d/Makefile" ]; then
			log "build-modules: $d does not exist yet: not built"
			mkdir -p "$B/$d"
			: > "$B/$d/Kbuild"
		fi
	done
	if ! timed "build modules $krel" kbuild_make "$k" arm64 -s -j"$JOBS" M="$B" \
		CMN_HNF_ALL=1 modules > "$OUTW/build-$krel.log" 2>&1; then
		cat "$OUTW/build-$krel.log" >&2
		log "build-modules: module build for $krel failed (log: $OUTW/build-$krel.log)"
		exit 1
	fi
	grep -v '^$' "$OUTW/build-$krel.log" | grep -vE 'Skipping BTF|^  (CC|LD|MODPOST|BTF)' >&2 || true
	# swap in the new set at once (a reader never sees a half-empty dir)
	rm -rf "$M.new"
	mkdir -p "$M.new"
	find "$B" -name '*.ko' -exec cp {} "$M.new/" \;
	rm -rf "$M.old"
	mv "$M" "$M.old"
	mv "$M.new" "$M"
	rm -rf "$M.old"
	log "modules for $krel: $(cd "$M" && ls -- *.ko 2>/dev/null | tr '\n' ' ')"
done

# arm64 userspace: the cmn-hnf tool and the e2e helper binaries (kernel
# independent, built once, also in a copy).
BIN="$OUTW/bin"
mkdir -p "$BIN"
rm -f "$BIN/cmn-hnf"
TB="$OUTW/build/user"
TO="$OUTW/build/user-out"
mkdir -p "$TB" "$TO"
rsync -a --delete --exclude=.git "$REPO/" "$TB/"
if [ -f "$TB/tools/cmn-hnf/Makefile" ]; then
	if ! timed "build cmn-hnf (arm64 static)" make -s -C "$TB/tools/cmn-hnf" \
		CROSS_COMPILE=$CROSS STATIC=1 O="$TO" > "$OUTW/build-cmn-hnf.log" 2>&1; then
		cat "$OUTW/build-cmn-hnf.log" >&2
		log "build-modules: tools/cmn-hnf failed to build"
		exit 1
	fi
	f="$TO/cmn-hnf"
	[ -f "$f" ] || { log "build-modules: tools/cmn-hnf built no $f"; exit 1; }
	file "$f" | grep -q 'ARM aarch64' ||
		{ log "build-modules: $f is not an arm64 binary: $(file -b "$f")"; exit 1; }
	cp "$f" "$BIN/cmn-hnf"
else
	log "build-modules: tools/cmn-hnf/Makefile does not exist yet: cmn-hnf not built"
fi

rm -rf "$BIN/e2e"
mkdir -p "$BIN/e2e"
if [ -f "$TB/tools/testing/e2e/Makefile" ]; then
	if ! timed "build e2e helpers (arm64)" make -s -C "$TB/tools/testing/e2e" \
		CROSS_COMPILE=$CROSS O="$BIN/e2e" > "$OUTW/build-e2e.log" 2>&1; then
		cat "$OUTW/build-e2e.log" >&2
		log "build-modules: tools/testing/e2e helpers failed to build"
		exit 1
	fi
fi
