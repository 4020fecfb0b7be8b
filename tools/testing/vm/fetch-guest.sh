#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fetch-guest.sh [5.10|6.1|6.12|7.2|debug ...]: download and unpack the arm64 guest
# pieces from Debian's archive (apt-get download + dpkg -x; nothing arm64 is
# ever installed on the host; 5.10 and 7.2 come from bullseye and sid through
# the private apt configuration of tools/testing/lib.sh):
#
#   the kernel's image packages     -> $GUEST/<ABI>-arm64/image (depmod'ed
#     (linux-image-<ABI>-arm64; sid    once; boot/vmlinuz-<krel>, and
#     splits it into linux-base-,      lib/modules/<krel> also where the
#     linux-binary- and                packages use /usr/lib/modules)
#     linux-modules-<ABI>-arm64)
#   busybox-static:arm64            -> $GUEST/user/busybox
#   the perf of the kernel's suite  -> $GUEST/perf/<suite>-<version>
#     and version (guest_perf_pkg)     (guest_perf_dir)
#     + the arm64 lib* packages of
#     its dependency closure
#   (debug: the project's debug kernel, built by
#   tools/testing/kunit/build-kernel.sh and laid out like an image tree;
#   its perf is the host suite's)
#
# Default kernels: $KERNEL if set, else all four. Cached: a tree is
# unpacked only once (stamp file .ok), keyed by ABI or perf version. Prints
# nothing on stdout.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

kernels=("$@")
if [ ${#kernels[@]} -eq 0 ]; then
	# shellcheck disable=SC2206
	kernels=(${KERNEL:-$(kernel_series_all)})
fi

# unpack SUITE DIR PKG...: dpkg -x every package into a fresh DIR
unpack() {
	local s=$1 d=$2 p
	shift 2
	rm -rf "$d"
	mkdir -p "$d"
	for p in "$@"; do
		dpkg -x "$(suite_deb_of "$s" "$p")" "$d"
	done
}

# perf_closure SUITE PKG=VERSION: the perf package and the arm64 libraries
# of its dependency closure (the perf package itself pinned to VERSION)
perf_closure() {
	local n=${2%%=*}
	suite_apt "$1" apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		"$n:arm64=${2#*=}" |
		grep -E '^(lib[^ ]*|zlib1g):arm64$' | sort -u
	echo "$n:arm64=${2#*=}"
}

# image_pkgs SUITE KREL: the packages that make up the kernel image: the
# linux-image package and, where it is only a meta package (sid), its
# linux-base, linux-binary and linux-modules; from the cache when the
# archive has moved on
image_pkgs() {
	local s=$1 krel=$2 d f deps
	d=$(suite_debs "$s")
	echo "linux-image-$krel:arm64"
	suite_update "$s" >&2
	if deps=$(suite_apt "$s" apt-cache depends "linux-image-$krel:arm64" 2>/dev/null); then
		sed -n "s/^ *Depends: \\(linux-\\(base\\|binary\\|modules\\)-$krel\\)\\(:arm64\\)\\?\$/\\1:arm64/p" \
			<<<"$deps"
		return 0
	fi
	for f in "$d"/linux-{base,binary,modules}-"${krel}"_*.deb; do
		[ -f "$f" ] || continue
		f=${f##*/}
		echo "${f%%_*}:arm64"
	done
}

U=$(guest_user_dir)
if [ ! -f "$U/.ok" ]; then
	timed "download busybox (arm64)" suite_fetch host busybox-static:arm64
	unpack host "$U/busybox" busybox-static:arm64
	touch "$U/.ok"
fi

# guest_debug_image: build the debug kernel if needed and lay it out like an
# unpacked Debian image (boot/vmlinuz-<krel>, lib/modules/<krel>, depmod'ed),
# again whenever the debug kernel's build directory changed
guest_debug_image() {
	local b abi krel I
	b=$(KUNIT_KERNEL=6.12 "$TESTING/kunit/build-kernel.sh") || { log "debug kernel build failed"; return 1; }
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
	# the debug kernel first: its ABI is its build's release
	if [ "$k" = debug ]; then
		guest_debug_image || exit 1
	fi
	s=$(kernel_suite "$k")
	abi=$(kernel_abi "$k")
	krel="$abi-arm64"

	# perf of the kernel's suite
	pp=$(guest_perf_pkg "$k")
	P=$(guest_perf_dir "$k")
	if [ ! -f "$P/.ok" ]; then
		suite_update "$s"
		mapfile -t perf_pkgs < <(perf_closure "$s" "$pp")
		[ ${#perf_pkgs[@]} -gt 1 ] ||
			{ log "apt-cache ($s): no arm64 closure for $pp"; exit 1; }
		timed "download $pp (arm64, $s) + ${#perf_pkgs[@]} pkgs" \
			suite_fetch "$s" "${perf_pkgs[@]}"
		timed "dpkg -x perf closure $k (${#perf_pkgs[@]} pkgs)" unpack "$s" "$P" "${perf_pkgs[@]}"
		guest_perf_bin "$P" >/dev/null || exit 1
		printf '%s\n' "${perf_pkgs[@]}" > "$P/perf-packages.txt"
		touch "$P/.ok"
	fi

	[ "$k" = debug ] && continue
	I=$(guest_image_dir "$abi")
	[ -f "$I/.ok" ] && continue
	mapfile -t ipkgs < <(image_pkgs "$s" "$krel")
	timed "download linux-image-$krel ($s)" suite_fetch "$s" "${ipkgs[@]}"
	timed "dpkg -x linux-image-$krel" unpack "$s" "$I" "${ipkgs[@]}"
	# usr-merged packages (sid): modules and vmlinuz under /usr/lib/modules
	if [ ! -e "$I/lib" ] && [ -d "$I/usr/lib/modules" ]; then
		ln -s usr/lib "$I/lib"
	fi
	if [ ! -f "$I/boot/vmlinuz-$krel" ] && [ -f "$I/lib/modules/$krel/vmlinuz" ]; then
		mkdir -p "$I/boot"
		ln -s "../lib/modules/$krel/vmlinuz" "$I/boot/vmlinuz-$krel"
	fi
	[ -f "$I/boot/vmlinuz-$krel" ] || { log "no boot/vmlinuz-$krel in ${ipkgs[*]}"; exit 1; }
	timed "depmod $krel (once)" depmod -b "$I" "$krel"
	echo "$krel" > "$I/KERNELRELEASE"
	touch "$I/.ok"
done
