# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers of the packaging tests (tools/testing/pkg/), sourced after
# tools/testing/lib.sh. Debian 12 systems are made with mmdebstrap from the
# Debian archive only, into $CACHE/pkg, and entered with chroot in a private
# mount namespace (unshare), so nothing they mount outlives the command.
#
#   PKGC                   $CACHE/pkg
#   ensure_pkg_host_packages   mmdebstrap, dt-schema, ... on the host
#   pkg_chroot NAME SUITE VARIANT PKG...
#                          path of a cached chroot with those packages,
#                          made once per (suite, variant, packages)
#   pkg_fresh NAME BASE    a throw-away copy of chroot BASE in $PKGC/run
#   in_chroot DIR [-b SRC:DST]... -- CMD...
#                          run CMD in DIR with /proc, /dev/pts, /sys,
#                          resolv.conf, and the given bind mounts
#   build_chroot           the Debian 12 build chroot (sets BC)
#   make_debs SRC OUT LOG  make deb DEB_ARCHES="amd64 arm64" of the tree
#                          SRC in the build chroot, packages into OUT
#   src_copy DIR           what make deb packages, copied to DIR
#   apt_archives SUITE     a directory kept across runs for the .debs apt
#                          downloads in chroots of SUITE
#   walk_steps DISTRO      the commands of README.md's "walk:" blocks

PKGC="$CACHE/pkg"
mkdir -p "$PKGC"
export PKGC

DEBIAN_MIRROR=${CMN_HNF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
DEBIAN_SECURITY=${CMN_HNF_DEBIAN_SECURITY:-http://deb.debian.org/debian-security}

PKG_HOST_PKGS=(mmdebstrap dt-schema device-tree-compiler util-linux kmod
	busybox-static shellcheck dpkg-dev)

ensure_pkg_host_packages() { install_pkgs "${PKG_HOST_PKGS[@]}"; }

# sources SUITE: the archive lines of a Debian suite (and its security
# and updates suites)
sources() {
	local s=$1
	echo "deb $DEBIAN_MIRROR $s main"
	echo "deb $DEBIAN_MIRROR $s-updates main"
	echo "deb $DEBIAN_SECURITY $s-security main"
}

# pkg_chroot NAME SUITE VARIANT PKG...: echo the path of a chroot made by
# mmdebstrap (--variant=VARIANT) with PKGs (name:arch adds that foreign
# architecture). Kept in $PKGC/chroot/NAME-<hash of the arguments>; made
# in a temporary directory and renamed, under a lock, so that concurrent
# runs share one.
pkg_chroot() {
	local name=$1 suite=$2 variant=$3 key dir tmp archs p inc=""
	shift 3
	key=$(printf '%s\n' v1 "$suite" "$variant" "$@" "$DEBIAN_MIRROR" | sha256sum | cut -c1-12)
	dir="$PKGC/chroot/$name-$key"
	mkdir -p "$PKGC/chroot"
	lock_open "pkg-chroot-$name"
	if [ ! -f "$dir/.cmn-hnf-ok" ]; then
		archs=$(dpkg --print-architecture)
		for p in "$@"; do
			case $p in *:*) archs="$archs,${p##*:}" ;; esac
			inc="$inc${inc:+,}$p"
		done
		archs=$(echo "$archs" | tr ',' '\n' | awk '!s[$0]++' | paste -sd,)
		tmp="$dir.tmp"
		rm -rf "$tmp"
		log "pkg: making the $name chroot ($suite, $variant: $*)"
		if ! timed "mmdebstrap $name ($suite)" mmdebstrap --quiet \
			--variant="$variant" --architectures="$archs" \
			${inc:+--include="$inc"} "$suite" "$tmp" \
			"$(sources "$suite")" > "$PKGC/chroot/$name.log" 2>&1; then
			lock_close
			tail -n 20 "$PKGC/chroot/$name.log" >&2
			rm -rf "$tmp"
			return 1
		fi
		mv "$tmp" "$dir"
		touch "$dir/.cmn-hnf-ok"
		# other versions of this chroot nobody used for two days
		find "$PKGC/chroot" -maxdepth 2 -path "$PKGC/chroot/$name-*/.cmn-hnf-used" \
			-mtime +2 -printf '%h\n' | xargs -r rm -rf
	fi
	touch "$dir/.cmn-hnf-used"
	lock_close
	echo "$dir"
}

# pkg_fresh NAME BASE: echo the path of a fresh copy of the chroot BASE
pkg_fresh() {
	local dir="$PKGC/run/$1"
	rm -rf "$dir"
	mkdir -p "$PKGC/run"
	cp -a "$2" "$dir"
	rm -f "$dir/.cmn-hnf-ok" "$dir/.cmn-hnf-used"
	echo "$dir"
}

# in_chroot DIR [-b SRC:DST]... -- CMD...: CMD (a command and its
# arguments) as root inside DIR, in a private mount namespace.
in_chroot() {
	local dir=$1 mounts="" b
	shift
	while [ "$1" = -b ]; do
		b=$2
		if [ -d "${b%%:*}" ]; then
			mkdir -p "$dir${b#*:}"
		else
			[ -e "$dir${b#*:}" ] || touch "$dir${b#*:}"
		fi
		mounts="$mounts mount --bind '${b%%:*}' '$dir${b#*:}' &&"
		shift 2
	done
	[ "$1" = -- ] && shift
	cp -L /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --mount --propagation private -- sh -c "
		mount -t proc proc '$dir/proc' &&
		mount -t sysfs sysfs '$dir/sys' &&
		mount -t devpts -o newinstance devpts '$dir/dev/pts' &&
		$mounts
		exec chroot '$dir' \"\$@\"" sh "$@"
}

# src_copy DIR: the files git knows in this tree (committed or not, minus
# ignored ones), copied to DIR (what make deb packages)
src_copy() {
	rm -rf "$1"
	mkdir -p "$1"
	(cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		cpio -0 -pdm --quiet "$1")
}

# build_chroot: set BC to the Debian 12 chroot that builds the packages:
# Debian's packaging tools, lintian, and an arm64 cross toolchain with the
# arm64 libc (multiarch), so that dpkg-shlibdeps sees real arm64 libraries.
BUILD_PKGS=(debhelper dh-dkms lintian python3 python3-docutils
	crossbuild-essential-arm64 libc6-dev:arm64)
build_chroot() {
	BC=$(pkg_chroot build bookworm buildd "${BUILD_PKGS[@]}")
}

# make_debs SRC OUT LOG: build the packages of tree SRC into OUT (amd64, all,
# and arm64 cross-built), with the package's smoke test of the tool; its unit
# tests are left to the tools stage.
make_debs() {
	rm -rf "$2"
	mkdir -p "$2"
	in_chroot "$BC" -b "$1:/src" -b "$2:/out" -- \
		env DEB_BUILD_OPTIONS="parallel=2" sh -c \
		'cd /src && tools/packaging/make-deb.sh /out amd64 arm64' > "$3" 2>&1
}

# apt_archives SUITE: the directory (made if need be) that chroots of SUITE
# bind-mount on /var/cache/apt/archives, so that the .debs apt downloads
# are fetched once, not on every run. What the package lists no longer name
# goes with "apt-get autoclean" at the end of a run.
apt_archives() {
	mkdir -p "$PKGC/archives/$1/partial"
	echo "$PKGC/archives/$1"
}

# walk_steps DISTRO: the README's blocks for DISTRO, one command per line:
# "<block>\t<expect>\t<command>" (backslash continuations joined)
walk_steps() {
	awk -v d="$1" '
		/^<!-- walk:/ {
			on = 0; ex = "ok"
			for (i = 3; i <= NF; i++) {
				if ($i == d) on = 1
				if ($i ~ /^expect=/) ex = substr($i, 8)
			}
			if (on) { want = 1; blk++ }
			next
		}
		want && /^```/ && !inblk { inblk = 1; next }
		inblk && /^```/ { inblk = 0; want = 0; next }
		inblk {
			line = $0
			if (cont != "") { line = cont " " line; cont = "" }
			if (line ~ /\\$/) { cont = substr(line, 1, length(line) - 1); next }
			sub(/^[ \t]+/, "", line)
			if (line == "" || line ~ /^#/) next
			printf "%d\t%s\t%s\n", blk, ex, line
		}' "$REPO/README.md"
}
