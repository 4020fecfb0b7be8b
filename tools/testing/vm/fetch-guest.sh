#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-guest.sh [6.12|6.1 ...]: download and unpack the arm64 guest pieces
# from Debian's archive (apt-get download + dpkg -x; nothing arm64 is ever
# installed on the host):
#
#   linux-image-<ABI>-arm64:arm64  -> $GUEST/<ABI>-arm64/image (depmod'ed once)
#   (KERNEL=debug: the project's debug kernel, built by
#   tools/testing/kunit/build-kernel.sh, laid out the same way)
#   busybox-static:arm64           -> $GUEST/user/busybox
#   linux-perf:arm64 + the arm64 lib* packages of its dependency closure
#                                  -> $GUEST/user/perf
#
# Default kernels: $KERNEL if set, else both. Cached: a tree is unpacked only
# once (stamp file .ok), keyed by ABI. Prints nothing on stdout.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
	# shellcheck disable=SC2206
	kernels=(${KERNEL:-6.12 6.1})
fi

# unpack DIR PKG...: dpkg -x every package into a fresh DIR, then stamp it
unpack() {
	local d=$1 p
	shift
	rm -rf "$d"
	mkdir -p "$d"
	for p in "$@"; do
		dpkg -x "$(deb_of "$p")" "$d"
	done
}

perf_closure() {
	apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		linux-perf:arm64 |
		grep -E '^(lib[^ ]*|zlib1g|linux-perf):arm64$' | sort -u
}

U=$(guest_user_dir)
if [ ! -f "$U/.ok" ]; then
	mapfile -t perf_pkgs < <(perf_closure)
	[ ${#perf_pkgs[@]} -gt 0 ] || { log "apt-cache: no linux-perf:arm64 (apt-get update?)"; exit 1; }
	timed "download busybox + perf (arm64)" fetch_debs busybox-static:arm64 "${perf_pkgs[@]}"
	unpack "$U/busybox" busybox-static
	timed "dpkg -x perf closure (${#perf_pkgs[@]} pkgs)" unpack "$U/perf" "${perf_pkgs[@]}"
	printf '%s\n' "${perf_pkgs[@]}" > "$U/perf-packages.txt"
	touch "$U/.ok"
fi

# guest_debug_image: build the debug kernel if needed and lay it out like an
# unpacked Debian image (boot/vmlinuz-<krel>, lib/modules/<krel>, depmod'ed),
# again whenever the debug kernel's build directory changed
guest_debug_image() {
	local b abi krel I
	b=$("$TESTING/kunit/build-kernel.sh") || { log "debug kernel build failed"; return 1; }
	abi=$(kernel_abi debug) || return 1
	krel="$abi-arm64"
	I=$(guest_image_dir "$abi")
	[ -f "$I/.ok" ] && [ "$(cat "$I/.src" 2>/dev/null)" = "$b" ] && return 0
	rm -rf "$I"
	mkdir -p "$I/boot" "$I/lib/modules"
	cp "$b/arch/arm64/boot/Image" "$I/boot/vmlinuz-$krel"
	cp -a "$b/modroot/lib/modules/$krel" "$I/lib/modules/"
	rm -f "$I/lib/modules/$krel/build" "$I/lib/modules/$krel/source"
	timed "depmod $krel" depmod -b "$I" "$krel"
	echo "$krel" > "$I/KERNELRELEASE"
	echo "$b" > "$I/.src"
	touch "$I/.ok"
}

for k in "${kernels[@]}"; do
	if [ "$k" = debug ]; then
		guest_debug_image
		continue
	fi
	abi=$(kernel_abi "$k")
	krel="$abi-arm64"
	I=$(guest_image_dir "$abi")
	[ -f "$I/.ok" ] && continue
	timed "download linux-image-$krel" fetch_debs "linux-image-$krel:arm64"
	timed "dpkg -x linux-image-$krel" unpack "$I" "linux-image-$krel"
	[ -f "$I/boot/vmlinuz-$krel" ] || { log "no boot/vmlinuz-$krel in the image .deb"; exit 1; }
	timed "depmod $krel (once)" depmod -b "$I" "$krel"
	echo "$krel" > "$I/KERNELRELEASE"
	touch "$I/.ok"
done
