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
# from Debian's meta-packages, unless already pinned in the environment. The
# other series (5.10, 7.2) resolve lazily, through kernel_abi.
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

# apt_download SUITE DIR APT-GET-ARGS...: apt-get (of SUITE, see suite_apt)
# download into DIR through a temporary directory of its own, so that no
# other run ever sees a .deb still being written: make check's guest
# downloads overlap the stages before the e2e pool, and several stages
# fetch the same headers. The .debs that arrived are kept even when apt
# fails on another one.
apt_download() {
	local s=$1 d=$2 t rc=0
	shift 2
	t=$(mktemp -d "$d/.download.XXXXXX")
	chmod 0777 "$t"
	(cd "$t" && suite_apt "$s" apt-get "$@" >/dev/null 2>&1) || rc=$?
	find "$t" -maxdepth 1 -name '*.deb' -exec mv -f {} "$d/" \;
	rm -rf "$t"
	return $rc
}

# fetch_debs PKG[:arch]...: apt-get download into $DEBS unless already there.
fetch_debs() {
	local p n missing=()

	for p in "$@"; do
		n=${p%%:*}
		ls "$DEBS/${n}_"*.deb >/dev/null 2>&1 || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if ! apt_download host "$DEBS" download "${missing[@]}"; then
		[ "$APT_UPDATED" = 1 ] && return 1
		log "apt-get download failed; refreshing the package lists once"
		apt_update
		apt_download host "$DEBS" download "${missing[@]}"
	fi
}

# deb_of PKG: path of the downloaded .deb of PKG.
deb_of() {
	local f
	f=$(ls "$DEBS/${1%%:*}_"*.deb 2>/dev/null | head -1 || true)
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
	file perl shellcheck git patchelf linux-source-6.12)

APT_UPDATED=0
apt_update() {
	[ "$APT_UPDATED" = 1 ] && return 0
	timed "apt-get update" apt-get update -qq
	APT_UPDATED=1
	touch "$CACHE/.apt-updated"
}

# missing_pkgs PKG...: print those of the host packages PKG that are not
# installed, one a line
missing_pkgs() {
	local p

	for p in "$@"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q 'install ok installed' || echo "$p"
	done
}

# install_pkgs PKG...: apt-get install (without recommends) those of the
# host packages PKG that are missing, after one apt-get update
install_pkgs() {
	local missing

	mapfile -t missing < <(missing_pkgs "$@")
	[ ${#missing[@]} -eq 0 ] && return 0
	apt_update
	log "installing host packages: ${missing[*]}"
	timed "apt-get install ${missing[*]}" apt-get install -y -qq \
		--no-install-recommends "${missing[@]}" >/dev/null
}

# ensure_host_packages: add the arm64 foreign architecture, then apt-get
# update once and install HOST_PKGS if any is missing. Quick when all present.
ensure_host_packages() {
	local missing added=0

	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		dpkg --add-architecture arm64
		added=1
	fi
	mapfile -t missing < <(missing_pkgs "${HOST_PKGS[@]}")
	# Package lists older than a day may name .debs the archive no longer
	# has (security updates move the kernel ABI): refresh them.
	if [ ${#missing[@]} -eq 0 ] && [ $added -eq 0 ] &&
	   [ -n "$(find "$CACHE/.apt-updated" -mmin -1440 2>/dev/null)" ] &&
	   [ -n "$(ls /var/lib/apt/lists/*_Packages* 2>/dev/null | head -1)" ]; then
		return 0
	fi
	apt_update
	install_pkgs "${missing[@]}"
}

# unpack_headers ABI FLAVOUR KBUILD-PKG: dpkg -x the flavour, common and kbuild
# packages (of suite $DEB_SUITE, default the host's) into $HDR/<ABI>-<FLAVOUR>
# and point the flavour Makefile's absolute include of the common tree at that
# private root.
unpack_headers() {
	local abi=$1 fl=$2 kb=$3 p
	local root="$HDR/$abi-$fl"
	local kd="$root/usr/src/linux-headers-$abi-$fl"

	[ -f "$kd/.cmn-hnf-ok" ] && return 0
	rm -rf "$root"
	mkdir -p "$root"
	for p in "linux-headers-$abi-$fl:$fl" "linux-headers-$abi-common" "$kb"; do
		dpkg -x "$(suite_deb_of "${DEB_SUITE:-host}" "$p")" "$root"
	done
	# (7.x flavour Makefiles also name their own directory, KBUILD_OUTPUT)
	sed -i -e "s|^include /usr/src/|include $root/usr/src/|" \
		-e "s|^KBUILD_OUTPUT=/usr/src/|KBUILD_OUTPUT=$root/usr/src/|" "$kd/Makefile"
	# 6.1's arm64 headers only cross-compile when dpkg-architecture says
	# so; set the prefix like 6.12's do, so a plain make -C KDIR works.
	if [ "$fl" = arm64 ] && [ "$(uname -m)" != aarch64 ] &&
	   ! grep -q '^override CROSS_COMPILE = aarch64' "$kd/.kernelvariables"; then
		echo 'override CROSS_COMPILE = aarch64-linux-gnu-' >>"$kd/.kernelvariables"
	fi
	# Another suite's kbuild tools (fixdep, modpost, objtool) run with that
	# suite's C library, from its toolchain root (ensure_toolchain).
	if [ "${DEB_SUITE:-host}" != host ]; then
		local tc
		tc=$(ensure_toolchain "$DEB_SUITE" "$(kernel_cc_major "$kd")") || return 1
		_patch_kbuild "$root" "$tc" || return 1
	fi
	touch "$kd/.cmn-hnf-ok"
}

# fetch_headers: Debian headers for 6.12 arm64, 6.1 arm64, 6.12 amd64 and
# 6.1 amd64 (ABIs from resolve_kvers). Prints nothing; use kdir afterwards.
# (The other series: fetch_kernel_headers.)
fetch_headers() {
	resolve_kvers
	fetch_kernel_headers 6.12 arm64 amd64
	fetch_kernel_headers 6.1 arm64 amd64
}

# ensure_kernel_source [SERIES]: extract Debian's linux-source-<SERIES>
# (default 6.12, the host's; 7.2 from sid, downloaded into the cache) once
# into $CACHE/src/linux-source-<SERIES>-<package version> and set KSRC to it
# (for checkpatch.pl and the KUnit kernel builds) and KSRC_VERSION.
ensure_kernel_source() {
	local k=${1:-6.12} s ver deb tarball

	s=$(kernel_suite "$k") || return 1
	if [ "$s" = host ]; then
		tarball=/usr/src/linux-source-$k.tar.xz
		if [ ! -f "$tarball" ]; then
			timed "apt-get install linux-source-$k" apt-get install -y -qq \
				--no-install-recommends "linux-source-$k" >/dev/null
		fi
		ver=$(dpkg-query -W -f='${Version}' "linux-source-$k")
	else
		# the source of the kernel the guests boot
		ver=$(kernel_pkgver "$k") || return 1
		timed "download linux-source-$k $ver ($s)" \
			suite_fetch "$s" "linux-source-$k=$ver" || return 1
		deb=$(suite_deb_of "$s" "linux-source-$k=$ver") || return 1
	fi
	KSRC="$CACHE/src/linux-source-$k-$ver"
	KSRC_VERSION=$ver
	lock_open kernel-source
	if [ ! -f "$KSRC/.cmn-hnf-ok" ]; then
		rm -rf "$KSRC" "$KSRC.tmp"
		mkdir -p "$KSRC.tmp"
		if [ -n "${deb:-}" ]; then
			timed "extract linux-source-$k $ver" _extract_source_deb \
				"$deb" "$k" "$KSRC.tmp"
		else
			timed "extract linux-source-$k $ver" \
				tar -xJf "$tarball" -C "$KSRC.tmp" --strip-components=1
		fi
		mv "$KSRC.tmp" "$KSRC"
		touch "$KSRC/.cmn-hnf-ok"
	fi
	lock_close
	export KSRC KSRC_VERSION
}

# _extract_source_deb DEB SERIES DIR: the kernel tree inside a
# linux-source-<SERIES> package, unpacked into DIR
_extract_source_deb() {
	dpkg-deb --fsys-tarfile "$1" | tar -xO "./usr/src/linux-source-$2.tar.xz" |
		tar -xJ -C "$3" --strip-components=1
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

# ---------------------------------------------------------------- kernels
# The kernel series the project builds and tests, and where each comes from.
# Debian 12 (the host's own suite) has 6.1 and 6.12; the others come from
# other Debian suites through a private apt configuration (suite_apt), never
# through the host's sources.
#
#   series  suite                          pin variable  example ABI
#   5.10    bullseye + bullseye-security   KVER510       5.10.0-32
#   6.1     the host's (bookworm)          KVER61        6.1.0-57
#   6.12    the host's (bookworm-security) KVER12        6.12.117+deb12
#   7.2     sid                            KVER72        7.2.13+deb14
#
# Functions: kernel_series_all, kernel_suite, kernel_abi, kernel_pkgver,
# suite_apt, suite_update, suite_fetch, suite_deb_of, suite_unpack_headers,
# fetch_kernel_headers.
KERNEL_SERIES_ALL="5.10 6.1 6.12 7.2"
kernel_series_all() { echo "$KERNEL_SERIES_ALL"; }

# kernel_suite SERIES: "host", "bullseye" or "sid"
kernel_suite() {
	case $1 in
	5.10) echo bullseye ;;
	6.1 | 6.12 | debug) echo host ;;
	7.2) echo sid ;;
	*) log "unknown kernel series '$1' (want one of $KERNEL_SERIES_ALL)"; return 1 ;;
	esac
}

# kernel_pin_var SERIES: name of the environment variable that pins its ABI
kernel_pin_var() {
	case $1 in
	5.10) echo KVER510 ;;
	6.1) echo KVER61 ;;
	6.12) echo KVER12 ;;
	7.2) echo KVER72 ;;
	*) return 1 ;;
	esac
}

MIRROR=${CMN_HNF_MIRROR:-http://deb.debian.org}
APTD="$CACHE/apt"

# suite_sources SUITE: the sources.list of a private suite (amd64 for the
# kbuild tools and headers, arm64 for the guest)
suite_sources() {
	local o="[arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg]"
	case $1 in
	bullseye)
		echo "deb $o $MIRROR/debian bullseye main"
		echo "deb $o $MIRROR/debian-security bullseye-security main" ;;
	sid)
		echo "deb $o $MIRROR/debian sid main" ;;
	*) return 1 ;;
	esac
}

# suite_init SUITE: create $APTD/SUITE (sources.list, lists, cache, an empty
# dpkg status, apt.conf). Nothing of the host's apt state is read or written
# except its keyring and its apt.conf.d (proxies).
suite_init() {
	local d="$APTD/$1" conf t
	mkdir -p "$d/lists/partial" "$d/cache/archives/partial" "$d/etc/sources.list.d" \
		"$d/etc/preferences.d"
	conf=$(cat <<-CONF
		// private apt configuration for Debian $1 (tools/testing/lib.sh)
		Dir::State::Lists "$d/lists";
		Dir::State::status "$d/status";
		Dir::Cache "$d/cache";
		Dir::Cache::pkgcache "";
		Dir::Cache::srcpkgcache "";
		Dir::Etc::SourceList "$d/etc/sources.list";
		Dir::Etc::SourceParts "$d/etc/sources.list.d";
		Dir::Etc::Preferences "$d/etc/preferences";
		Dir::Etc::PreferencesParts "$d/etc/preferences.d";
		APT::Architecture "amd64";
		APT::Architectures { "amd64"; "arm64"; };
		Acquire::Languages "none";
		Acquire::Check-Valid-Until "false";
		APT::Get::List-Cleanup "true";
	CONF
	)
	[ -f "$d/apt.conf" ] && [ "$(cat "$d/apt.conf")" = "$conf" ] &&
		[ "$(cat "$d/etc/sources.list")" = "$(suite_sources "$1")" ] && return 0
	# written whole and renamed: other runs may read them at the same time
	[ -f "$d/status" ] || : >"$d/status"
	t=$(mktemp "$d/.sources.XXXXXX")
	suite_sources "$1" >"$t"
	mv "$t" "$d/etc/sources.list"
	t=$(mktemp "$d/.conf.XXXXXX")
	printf '%s\n' "$conf" >"$t"
	mv "$t" "$d/apt.conf"
}

# suite_apt SUITE apt-get|apt-cache ARGS...: run an apt command with the
# private configuration of SUITE ("host": the host's own).
suite_apt() {
	local s=$1 cmd=$2
	shift 2
	if [ "$s" = host ]; then
		"$cmd" "$@"
		return
	fi
	suite_init "$s"
	"$cmd" -c "$APTD/$s/apt.conf" "$@"
}

# suite_update SUITE [force]: apt-get update of the private lists, at most
# once a day (or when forced, once per script)
declare -A SUITE_UPDATED=()
suite_update() {
	local s=$1 d="$APTD/$1"
	if [ "$s" = host ]; then
		apt_update
		return
	fi
	[ -n "${SUITE_UPDATED[$s]:-}" ] && return 0
	suite_init "$s"
	if [ "${2:-}" != force ] &&
	   [ -n "$(find "$d/.updated" -mmin -1440 2>/dev/null)" ] &&
	   [ -n "$(ls "$d"/lists/*_Packages* 2>/dev/null | head -1)" ]; then
		return 0
	fi
	lock_open "apt-$s"
	timed "apt-get update ($s, private)" suite_apt "$s" apt-get update -qq ||
		{ lock_close; log "apt-get update of Debian $s failed"; return 1; }
	lock_close
	touch "$d/.updated"
	SUITE_UPDATED[$s]=1
}

# suite_debs SUITE: where the .debs of SUITE are kept
suite_debs() {
	if [ "$1" = host ]; then echo "$DEBS"; else echo "$DEBS/$1"; fi
}

# _debs_of DIR PKG[:arch][=version]: the cached .debs of that package (of
# that architecture, default amd64, or "all"), oldest version first
_debs_of() {
	local n=${2%%[:=]*} a=amd64 v='' f
	case $2 in *:*) a=${2#*:}; a=${a%%=*} ;; esac
	case $2 in *=*) v=${2#*=}; v=${v//:/%3a} ;; esac
	if [ -n "$v" ]; then
		set -- "$1/${n}_${v}_$a.deb" "$1/${n}_${v}_all.deb"
	else
		set -- "$1/${n}_"*"_$a.deb" "$1/${n}_"*"_all.deb"
	fi
	for f in "$@"; do
		if [ -f "$f" ]; then echo "$f"; fi
	done | sort -V
}

# suite_fetch SUITE PKG[:arch][=version]...: apt-get download into
# suite_debs unless a .deb of that package (and architecture and version)
# is already there.
suite_fetch() {
	local s=$1 p d missing=()
	shift
	d=$(suite_debs "$s")
	mkdir -p "$d"
	chmod 0777 "$d" 2>/dev/null || true
	for p in "$@"; do
		[ -n "$(_debs_of "$d" "$p")" ] || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	suite_update "$s"
	apt_download "$s" "$d" download "${missing[@]}" && return 0
	if [ -z "${SUITE_UPDATED[$s]:-}" ]; then
		log "apt-get download ($s) failed; refreshing the package lists once"
		suite_update "$s" force
	fi
	# one by one; a version the archive lists but does not serve (404:
	# bullseye-security's arm64 files) falls back to an older one
	for p in "${missing[@]}"; do
		[ -n "$(_debs_of "$d" "$p")" ] && continue
		_fetch_one "$s" "$d" "$p" || return 1
	done
}

# _fetch_one SUITE DIR PKG[:arch][=version]: apt-get download one package;
# without a version, try every version the suite lists, newest first
_fetch_one() {
	local s=$1 d=$2 p=$3 v
	# (no retries: a 404 stays a 404)
	apt_download "$s" "$d" -o Acquire::Retries=0 download "$p" && return 0
	if [[ $p != *=* ]]; then
		for v in $(suite_apt "$s" apt-cache madison "$p" 2>/dev/null |
			awk -F'|' '{gsub(/ /, "", $2); print $2}' | sort -urV); do
			if apt_download "$s" "$d" -o Acquire::Retries=0 \
				download "$p=$v"; then
				log "Debian $s: $p from version $v (newer ones not served)"
				return 0
			fi
		done
	fi
	log "cannot download $p from Debian $s"
	return 1
}

# suite_deb_of SUITE PKG[:arch][=version]: path of the downloaded .deb (the
# newest version when several are cached and none is asked for)
suite_deb_of() {
	local d f
	d=$(suite_debs "$1")
	f=$(_debs_of "$d" "$2" | tail -1)
	[ -n "$f" ] || { log "no .deb for $2 in $d"; return 1; }
	echo "$f"
}

# _abi_candidates SUITE SERIES: the ABIs of SERIES the suite's index has,
# newest first (from the linux-headers-<ABI>-common package names)
_abi_candidates() {
	suite_apt "$1" apt-cache pkgnames "linux-headers-$2" 2>/dev/null |
		sed -n "s/^linux-headers-\\($2[.+-][^ ]*\\)-common\$/\\1/p" |
		sort -rV
}

# _abi_cached SERIES: the newest ABI of SERIES whose headers are unpacked in
# the cache (a pin that the archive has dropped still works from there)
_abi_cached() {
	local d
	for d in "$HDR/$1"[.+-]*-amd64; do
		[ -f "$d/usr/src/linux-headers-${d##*/}/.cmn-hnf-ok" ] && basename "$d" -amd64
	done 2>/dev/null | sort -rV | head -1
}

# _abi_fetchable SUITE ABI: the archive really serves the ABI's arm64 files
# (bullseye-security lists versions whose arm64 pool files answer 404, while
# their amd64 and arch-all files are there)
_abi_fetchable() {
	suite_fetch "$1" "linux-headers-$2-arm64:arm64"
}

# kernel_abi SERIES: the Debian ABI to use for SERIES (e.g. 5.10.0-32,
# 7.2.13+deb14): the pin (KVER510 ...) if set, else the newest ABI of that
# series in the suite's index whose files the archive serves, else the
# newest one in the cache. Remembered per run in KVER<NN>.
kernel_abi() {
	local k=$1 s var abi c
	[ "$k" = debug ] && { debug_kernel_abi; return; }
	s=$(kernel_suite "$k") || return 1
	var=$(kernel_pin_var "$k")
	if [ -n "${!var:-}" ]; then
		echo "${!var}"
		return 0
	fi
	if [ "$s" = host ]; then
		resolve_kvers >/dev/null || return 1
		echo "${!var}"
		return 0
	fi
	# resolved once a day per suite (with its package lists)
	local memo="$APTD/$s/abi-$k"
	if [ -s "$memo" ] && [ "$memo" -nt "$APTD/$s/.updated" ]; then
		abi=$(cat "$memo")
	else
		suite_update "$s" >&2 || true
		abi=
		for c in $(_abi_candidates "$s" "$k"); do
			if _abi_fetchable "$s" "$c"; then
				abi=$c
				break
			fi
			log "Debian $s lists $k ABI $c but does not serve it; trying older"
		done
		[ -n "$abi" ] || abi=$(_abi_cached "$k")
		[ -n "$abi" ] || { log "no $k kernel in Debian $s or the cache"; return 1; }
		echo "$abi" >"$memo"
	fi
	printf -v "$var" '%s' "$abi"
	export "${var?}"
	echo "$abi"
}

# kunit_prebuilt DIR KREL KO...: DIR holds every KO (paths under DIR), each
# built for kernel release KREL (the first word of its vermagic): prints
# DIR; else (no DIR, a KO missing or built for another kernel) fails.
kunit_prebuilt() {
	local d=$1 krel=$2 k v
	shift 2
	[ -n "$d" ] || return 1
	for k in "$@"; do
		[ -f "$d/$k" ] || return 1
		v=$(modinfo -F vermagic "$d/$k" 2>/dev/null) || return 1
		[ "${v%% *}" = "$krel" ] || return 1
	done
	echo "$d"
}

# KERNEL=debug: the project's own arm64 debug kernel (linux-source-6.12
# with KASAN, lockdep, kmemleak, debug objects; tools/testing/kunit/
# build-kernel.sh, the same kernel as make kunit). Its userspace is the
# host suite's, like 6.12. debug_kernel_dir prints its build directory
# (built by fetch-guest.sh debug when missing); debug_kernel_abi its
# release without -arm64 (CONFIG_LOCALVERSION ends in -arm64 like Debian's).
debug_kernel_dir() { KUNIT_KERNEL=6.12 "$TESTING/kunit/build-kernel.sh" --dir; }
debug_kernel_abi() {
	local r
	r=$(cat "$(debug_kernel_dir)/include/config/kernel.release" 2>/dev/null) ||
		{ log "the debug kernel is not built (fetch-guest.sh debug builds it)"; return 1; }
	echo "${r%-arm64}"
}

# kernel_pkgver SERIES: the Debian package version of the kernel of SERIES
# (e.g. 5.10.223-1), read from its cached arm64 headers .deb
kernel_pkgver() {
	local abi s f
	abi=$(kernel_abi "$1") || return 1
	s=$(kernel_suite "$1")
	suite_fetch "$s" "linux-headers-$abi-arm64:arm64" || return 1
	f=$(suite_deb_of "$s" "linux-headers-$abi-arm64:arm64") || return 1
	f=${f##*/}
	f=${f#*_}
	echo "${f%_*}" | sed 's/%3a/:/g'
}

# kbuild_pkg SERIES ABI: the linux-kbuild package of that kernel; where its
# name does not carry the ABI, with the kernel's version (bullseye's index
# has two linux-kbuild-5.10, of two ABIs)
kbuild_pkg() {
	case $1 in
	5.10) echo "linux-kbuild-$1=$(kernel_pkgver "$1")" ;;
	6.1) echo "linux-kbuild-$1" ;;
	*) echo "linux-kbuild-$2" ;;
	esac
}

# _patch_kbuild ROOT TOOLCHAIN: point the kbuild tools unpacked in ROOT at the
# toolchain root's C library (remembered in ROOT/.cmn-hnf-toolchain)
_patch_kbuild() {
	# shellcheck disable=SC2046
	_patch_elf "$2" $(find "$1/usr/lib" -path '*/linux-kbuild-*' -type f) ||
		return 1
	echo "$2" >"$1/.cmn-hnf-toolchain"
}

# fetch_kernel_headers SERIES FLAVOUR...: download and unpack the headers of
# SERIES for each flavour (arm64, amd64); use kdir "$(kernel_abi SERIES)"
# FLAVOUR afterwards. Prints nothing.
fetch_kernel_headers() {
	local k=$1 s abi kb fl pkgs=()
	shift
	# the debug kernel is built, with its own build tree (build-kernel.sh)
	[ "$k" = debug ] && return 0
	s=$(kernel_suite "$k") || return 1
	abi=$(kernel_abi "$k") || return 1
	kb=$(kbuild_pkg "$k" "$abi")
	for fl in "$@"; do
		[ -f "$(kdir "$abi" "$fl")/.cmn-hnf-ok" ] && continue
		pkgs+=("linux-headers-$abi-$fl:$fl")
	done
	[ ${#pkgs[@]} -eq 0 ] && return 0
	if [ "$s" != host ]; then
		# the compiler root first (it takes a lock of its own); its gcc
		# version is in the arm64 headers
		suite_fetch "$s" "linux-headers-$abi-arm64:arm64" "linux-headers-$abi-common" ||
			return 1
		local v
		v=$(dpkg-deb --fsys-tarfile "$(suite_deb_of "$s" "linux-headers-$abi-arm64:arm64")" |
			tar -xO --wildcards '*/.kernelvariables' |
			sed -n 's/^CC = .*gcc-\([0-9][0-9]*\)[[:space:]]*$/\1/p' | head -1)
		ensure_toolchain "$s" "$v" >/dev/null || return 1
	fi
	lock_open headers
	if ! timed "download headers $k ($abi $*)" suite_fetch "$s" "${pkgs[@]}" \
		"linux-headers-$abi-common" "$kb"; then
		lock_close
		log "cannot download the $k ($abi) headers from Debian $s"
		return 1
	fi
	for fl in "$@"; do
		DEB_SUITE=$s unpack_headers "$abi" "$fl" "$kb" || { lock_close; return 1; }
	done
	lock_close
}

# ---------------------------------------------------------------- compilers
# A kernel from another suite is built with that suite's compiler, the one
# its headers name (gcc-10 for bullseye's 5.10, gcc-16 for sid's 7.2), like
# DKMS does on the machine itself. Those compilers, binutils and the kbuild
# tools of their suite are dpkg -x'ed into a private root together with the
# suite's own C library, and patchelf points every executable at that library
# (sid's tools need a newer glibc than Debian 12's). Nothing is installed.

# kernel_cc_major KDIR: the gcc major version named by the headers (e.g. 16)
kernel_cc_major() {
	sed -n 's/^CC = .*gcc-\([0-9][0-9]*\)[[:space:]]*$/\1/p' "$1/.kernelvariables" | head -1
}

# toolchain_dir SUITE VER: where ensure_toolchain puts the root (the suffix
# changes with the list of packages below)
toolchain_dir() { echo "$CACHE/toolchain/$1-gcc$2-r2"; }

# _toolchain_closure SUITE VER: the packages of gcc-VER (native amd64 and
# cross arm64), binutils, pahole (module BTF) and libelf, with their library
# dependencies
_toolchain_closure() {
	local extra
	case $1 in
	sid) extra="libelf1t64 pahole" ;;
	*) extra="libelf1 dwarves" ;;
	esac
	# shellcheck disable=SC2086
	suite_apt "$1" apt-cache depends --recurse --no-recommends --no-suggests \
		--no-conflicts --no-breaks --no-replaces --no-enhances \
		"gcc-$2" "gcc-$2-aarch64-linux-gnu" $extra 2>/dev/null |
		grep -vE '^ |^<' | grep -vE ':(i386|arm64)$' | sort -u
}

# _patch_elf ROOT FILE...: run FILE with ROOT's dynamic loader and libraries
_patch_elf() {
	local root=$1 f ld rp
	shift
	ld="$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	[ -e "$ld" ] || ld="$root/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2"
	rp="$root/usr/lib/x86_64-linux-gnu:$root/lib/x86_64-linux-gnu"
	for f in "$@"; do
		[ -f "$f" ] && [ ! -L "$f" ] || continue
		[ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
		readelf -l "$f" 2>/dev/null | grep -q 'program interpreter' || continue
		patchelf --set-interpreter "$ld" --force-rpath --set-rpath "$rp" "$f" ||
			return 1
	done
}

# ensure_toolchain SUITE VER: the root with SUITE's gcc-VER (once, cached);
# prints its directory. Its usr/bin goes first in PATH for kbuild.
ensure_toolchain() {
	local s=$1 v=$2 d pkgs=() p
	d=$(toolchain_dir "$s" "$v")
	if [ -f "$d/.cmn-hnf-ok" ]; then
		echo "$d"
		return 0
	fi
	suite_update "$s" >&2 || return 1
	mapfile -t pkgs < <(_toolchain_closure "$s" "$v")
	[ ${#pkgs[@]} -gt 5 ] ||
		{ log "Debian $s has no gcc-$v (apt-cache found ${#pkgs[*]} packages)"; return 1; }
	lock_open "toolchain-$s"
	if [ ! -f "$d/.cmn-hnf-ok" ]; then
		timed "download gcc-$v of Debian $s (${#pkgs[@]} pkgs)" \
			suite_fetch "$s" "${pkgs[@]}" ||
			{ lock_close; log "cannot download gcc-$v from Debian $s"; return 1; }
		rm -rf "$d"
		mkdir -p "$d"
		for p in "${pkgs[@]}"; do
			dpkg -x "$(suite_deb_of "$s" "$p")" "$d" ||
				{ lock_close; return 1; }
		done
		# shellcheck disable=SC2046
		if ! _patch_elf "$d" $(find "$d/usr/bin" "$d/usr/libexec" \
			"$d/usr/aarch64-linux-gnu/bin" "$d/usr/x86_64-linux-gnu/bin" \
			-type f 2>/dev/null); then
			lock_close
			log "patchelf failed in $d"
			return 1
		fi
		"$d/usr/bin/aarch64-linux-gnu-gcc-$v" --version >/dev/null 2>&1 &&
			"$d/usr/bin/gcc-$v" --version >/dev/null 2>&1 ||
			{ lock_close; log "gcc-$v of Debian $s does not run from $d"; return 1; }
		printf '%s\n' "${pkgs[@]}" >"$d/packages.txt"
		touch "$d/.cmn-hnf-ok"
	fi
	lock_close
	echo "$d"
}

# kbuild_make SERIES FLAVOUR MAKE-ARGS...: make -C <its headers> with the
# compiler the kernel was built with (the host's gcc-12 for 6.1 and 6.12,
# the suite's for the others)
kbuild_make() {
	local k=$1 fl=$2 s abi kd v tc
	shift 2
	s=$(kernel_suite "$k") || return 1
	if [ "$k" = debug ]; then
		make -C "$(debug_kernel_dir)" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "$@"
		return
	fi
	abi=$(kernel_abi "$k") || return 1
	kd=$(kdir "$abi" "$fl")
	if [ "$s" = host ]; then
		make -C "$kd" "$@"
		return
	fi
	v=$(kernel_cc_major "$kd")
	[ -n "$v" ] || { log "$kd/.kernelvariables names no gcc"; return 1; }
	tc=$(ensure_toolchain "$s" "$v") || return 1
	# headers unpacked for another toolchain root: re-point their tools
	if [ "$(cat "$HDR/$abi-$fl/.cmn-hnf-toolchain" 2>/dev/null)" != "$tc" ]; then
		lock_open headers
		_patch_kbuild "$HDR/$abi-$fl" "$tc" || { lock_close; return 1; }
		lock_close
	fi
	PATH="$tc/usr/bin:$PATH" make -C "$kd" "$@"
}
