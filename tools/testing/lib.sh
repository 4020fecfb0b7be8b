# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Common helpers for the arm_cmn_hnf build and test scripts. Source it:
#
#   . "$(dirname "$0")/../lib.sh"
#
# Everything big (downloads, unpacked headers, kernel builds, logs) lives under
# $CACHE, never inside the repository.
#
#   CACHE   ${CMN_HNF_CACHE:-/var/cache/arm-cmn-hnf}
#   DEBS    $CACHE/debs      downloaded .deb files
#   HDR     $CACHE/headers   private dpkg -x roots, one per kernel
#   GUEST   $CACHE/guest     arm64 guest userspace/kernel pieces
#   OUTD    $CACHE/out       build copies, logs, initramfs images, timings
#
# Functions: log, timed, resolve_kvers, fetch_debs, deb_of, kdir,
# ensure_host_packages, fetch_headers, ensure_kernel_source, result_pass,
# result_fail.

set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

# Repository root (this file is tools/testing/lib.sh).
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
TESTING="$REPO/tools/testing"
CACHE="${CMN_HNF_CACHE:-/var/cache/arm-cmn-hnf}"
DEBS="$CACHE/debs"
HDR="$CACHE/headers"
GUEST="$CACHE/guest"
OUTD="$CACHE/out"
mkdir -p "$DEBS" "$HDR" "$GUEST" "$OUTD"
# apt-get download drops privileges to _apt when it can.
chmod 0777 "$DEBS" 2>/dev/null || true
export REPO TESTING CACHE DEBS HDR GUEST OUTD

# Logs and timings go to fd 3 (the original stderr), so they stay visible
# even when a step's stdout/stderr is redirected to a file.
if ! { true >&3; } 2>/dev/null; then
	exec 3>&2
fi

log() { printf '[%s] %s\n' "$(date +%T)" "$*" >&3; }

# timed LABEL CMD...: run CMD, print and append "LABEL <seconds>" to
# $OUTD/timings.txt; returns CMD's status.
timed() {
	local label=$1 t0 ms rc=0
	shift
	t0=$(date +%s%N)
	"$@" || rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	printf '%-44s %6d.%d s\n' "$label" $((ms / 1000)) $((ms % 1000 / 100)) |
		tee -a "$OUTD/timings.txt" >&3
	return $rc
}

# Result lines, the convention shared by every stage (see
# Documentation/testing.rst):   PASS: <stage>/<name>
#                               FAIL: <stage>/<name>: <why>
result_pass() { printf 'PASS: %s\n' "$1"; }
result_fail() { printf 'FAIL: %s: %s\n' "$1" "${2:-failed}"; }

# resolve_kvers: set KVER12 (e.g. 6.12.117+deb12) and KVER61 (e.g. 6.1.0-57)
# from Debian's meta-packages, unless already pinned in the environment.
resolve_kvers() {
	: "${KVER12:=$(apt-cache depends linux-headers-6.12-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-headers-\(.*\)-amd64$/\1/p' | head -1)}"
	: "${KVER61:=$(apt-cache depends linux-headers-amd64 2>/dev/null |
		sed -n 's/.*Depends: linux-headers-\(6\.1\..*\)-amd64$/\1/p' | head -1)}"
	if [ -z "$KVER12" ] || [ -z "$KVER61" ]; then
		log "cannot resolve kernel ABI versions (run apt-get update?)"
		return 1
	fi
	export KVER12 KVER61
}

# fetch_debs PKG[:arch]...: apt-get download into $DEBS unless already there.
fetch_debs() {
	local p n missing=()

	for p in "$@"; do
		n=${p%%:*}
		ls "$DEBS/${n}_"*.deb >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if ! (cd "$DEBS" && apt-get download "${missing[@]}" >/dev/null); then
		[ "$APT_UPDATED" = 1 ] && return 1
		log "apt-get download failed; refreshing the package lists once"
		apt_update
		(cd "$DEBS" && apt-get download "${missing[@]}" >/dev/null)
	fi
}

# deb_of PKG: path of the downloaded .deb of PKG.
deb_of() {
	local f
	f=$(ls "$DEBS/${1%%:*}_"*.deb 2>/dev/null | head -1)
	[ -n "$f" ] || { log "no .deb for $1 in $DEBS"; return 1; }
	echo "$f"
}

# kdir ABI FLAVOUR: the private kbuild directory made by fetch_headers.
kdir() { echo "$HDR/$1-$2/usr/src/linux-headers-$1-$2"; }

# Host packages needed by every stage (never an arm64 package: those are
# downloaded and unpacked, see fetch_headers and the VM harness).
HOST_PKGS=(qemu-system-arm qemu-efi-aarch64 ipxe-qemu gcc-aarch64-linux-gnu
	gcc-12-aarch64-linux-gnu libc6-dev-arm64-cross sparse busybox-static
	device-tree-compiler acpica-tools cpio zstd xz-utils kmod pahole flex
	bison bc libelf-dev libssl-dev rsync make gcc gcc-12 libc6-dev python3
	file perl shellcheck git linux-source-6.12)

APT_UPDATED=0
apt_update() {
	[ "$APT_UPDATED" = 1 ] && return 0
	timed "apt-get update" apt-get update -qq
	APT_UPDATED=1
	touch "$CACHE/.apt-updated"
}

# ensure_host_packages: add the arm64 foreign architecture, then apt-get
# update once and install HOST_PKGS if any is missing. Quick when all present.
ensure_host_packages() {
	local p missing=() added=0

	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		added=1
	fi
	for p in "${HOST_PKGS[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || missing+=("$p")
	done
	# Package lists older than a day may name .debs the archive no longer
	# has (security updates move the kernel ABI): refresh them.
	if [ ${#missing[@]} -eq 0 ] && [ $added -eq 0 ] &&
	   [ -n "$(find "$CACHE/.apt-updated" -mmin -1440 2>/dev/null)" ] &&
	   [ -n "$(ls /var/lib/apt/lists/*_Packages* 2>/dev/null | head -1)" ]; then
		return 0
	fi
	apt_update
	if [ ${#missing[@]} -gt 0 ]; then
		log "installing host packages: ${missing[*]}"
		timed "apt-get install host packages" apt-get install -y -qq \
			--no-install-recommends "${missing[@]}" >/dev/null
	fi
}

# unpack_headers ABI FLAVOUR KBUILD-PKG: dpkg -x the flavour, common and kbuild
# packages into $HDR/<ABI>-<FLAVOUR> and point the flavour Makefile's absolute
# include of the common tree at that private root.
unpack_headers() {
	local abi=$1 fl=$2 kb=$3 p
	local root="$HDR/$abi-$fl"
	local kd="$root/usr/src/linux-headers-$abi-$fl"

	[ -f "$kd/.cmn-hnf-ok" ] && return 0
	rm -rf "$root"
	mkdir -p "$root"
	for p in "linux-headers-$abi-$fl" "linux-headers-$abi-common" "$kb"; do
		dpkg -x "$(deb_of "$p")" "$root"
	done
	sed -i "s|^include /usr/src/|include $root/usr/src/|" "$kd/Makefile"
	# 6.1's arm64 headers only cross-compile when dpkg-architecture says
	# so; set the prefix like 6.12's do, so a plain make -C KDIR works.
	if [ "$fl" = arm64 ] && [ "$(uname -m)" != aarch64 ] &&
	   ! grep -q '^override CROSS_COMPILE = aarch64' "$kd/.kernelvariables"; then
		echo 'override CROSS_COMPILE = aarch64-linux-gnu-' >>"$kd/.kernelvariables"
	fi
	touch "$kd/.cmn-hnf-ok"
}

# fetch_headers: Debian headers for 6.12 arm64, 6.1 arm64, 6.12 amd64 and
# 6.1 amd64 (ABIs from resolve_kvers). Prints nothing; use kdir afterwards.
fetch_headers() {
	resolve_kvers
	local kb12="linux-kbuild-$KVER12" kb61="linux-kbuild-6.1"

	lock_open headers
	timed "download headers (4 kernels)" fetch_debs \
		"linux-headers-$KVER12-arm64:arm64" "linux-headers-$KVER12-amd64" \
		"linux-headers-$KVER12-common" "$kb12" \
		"linux-headers-$KVER61-arm64:arm64" "linux-headers-$KVER61-amd64" \
		"linux-headers-$KVER61-common" "$kb61"
	unpack_headers "$KVER12" arm64 "$kb12"
	unpack_headers "$KVER12" amd64 "$kb12"
	unpack_headers "$KVER61" arm64 "$kb61"
	unpack_headers "$KVER61" amd64 "$kb61"
	lock_close
}

# ensure_kernel_source: extract Debian's linux-source-6.12 once into
# $CACHE/src/linux-source-6.12-<package version> and set KSRC to it (for
# checkpatch.pl and the KUnit kernel build).
ensure_kernel_source() {
	local tarball=/usr/src/linux-source-6.12.tar.xz ver

	if [ ! -f "$tarball" ]; then
		timed "apt-get install linux-source-6.12" apt-get install -y -qq \
			--no-install-recommends linux-source-6.12 >/dev/null
	fi
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
	KSRC="$CACHE/src/linux-source-6.12-$ver"
	KSRC_VERSION=$ver
	lock_open kernel-source
	if [ ! -f "$KSRC/.cmn-hnf-ok" ]; then
		rm -rf "$KSRC" "$KSRC.tmp"
		mkdir -p "$KSRC.tmp"
		timed "extract linux-source-6.12 $ver" \
			tar -xJf "$tarball" -C "$KSRC.tmp" --strip-components=1
		mv "$KSRC.tmp" "$KSRC"
		touch "$KSRC/.cmn-hnf-ok"
	fi
	lock_close
	export KSRC KSRC_VERSION
}

# lock_open NAME / lock_close: a lock held only around a critical section
# (downloads, unpacking), for scripts that run at the same time (make lint
# and make e2e both fetch headers). Not nestable.
lock_open() {
	exec {LOCK_FD}>"$CACHE/.$1.lock"
	flock "$LOCK_FD"
}
lock_close() { exec {LOCK_FD}>&-; }

# take_lock NAME: hold $OUTD/.NAME.lock until the calling script exits, so
# two runs of the same stage (e.g. make lint from two shells) never share
# their build directories.
take_lock() {
	local fd
	exec {fd}>"$OUTD/.$1.lock"
	if ! flock -n "$fd"; then
		log "waiting for another run holding $OUTD/.$1.lock"
		flock "$fd"
	fi
}
