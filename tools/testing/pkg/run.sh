#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The "pkg" stage of make check: the quick, deterministic packaging checks.
# Result lines (Documentation/testing.rst):
#
#   pkg/version                 dkms.conf, debian/changelog and cmn-hnf
#                               --version name the same version
#   pkg/switch/<case>           cmn-hnf switch on a fake system and fake
#                               roots (switch-host.sh)
#   pkg/dts/...                 dts/ with dtc and the upstream binding
#                               (dts-check.sh)
#   pkg/abi/validate            Documentation/ABI passes the kernel's
#                               scripts/get_abi.pl validate
#   pkg/maintscripts            shellcheck of debian/*.postinst, *.postrm
#   pkg/deb/build               make deb DEB_ARCHES="amd64 arm64" in a Debian
#                               12 build chroot (arm64 cross-built)
#   pkg/docs/arm_cmn_hnf.rst    the admin guide renders without a warning
#   pkg/deb/contents/<package>  the DKMS package holds exactly the driver's
#                               sources and dkms.conf; cmn-hnf holds
#                               exactly what tools/cmn-hnf's make install
#                               installs (and its copyright and changelog),
#                               among them the Grafana dashboard in
#                               /usr/share/cmn-hnf/grafana, built for the
#                               right architecture
#   pkg/lintian/<package>       lintian finds no error or warning
#   pkg/install-tools           make install-tools DESTDIR= installs the tool,
#                               its man pages, completion, unit and Grafana
#                               dashboard; make uninstall-tools DESTDIR=
#                               leaves no file (install-tools-check.sh)
#   pkg/readme-walk/<distro>    README.md's "walk:" blocks for Debian 12
#                               and 11 (what make pkg-test runs) still hold
#                               every step of the quick start
#
# The packages are left in $OUTD/pkg/deb for make pkg-test.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

take_lock pkg
ensure_host_packages
ensure_pkg_host_packages
ensure_kernel_source

W="$OUTD/pkg"
S="$W/src"
DEB="$W/deb"
mkdir -p "$W"
NFAIL=0
pass() { result_pass "pkg/$1"; }
fail() { result_fail "pkg/$1" "$2"; NFAIL=$((NFAIL + 1)); }

src_copy "$S"

# ---- the host build of the tool, its version ----
if ! timed "pkg: build cmn-hnf (host)" make -s -C "$S/tools/cmn-hnf" \
	O="$W/tool" > "$W/tool.log" 2>&1; then
	fail tool-build "tools/cmn-hnf did not build: $(tail -n 1 "$W/tool.log")"
	exit 1
fi
TOOL="$W/tool/cmn-hnf"

v_dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$S/dkms.conf")
v_deb=$(dpkg-parsechangelog -l "$S/debian/changelog" -S Version)
v_tool=$("$TOOL" --version | awk '{ print $NF }')
if [ -n "$v_dkms" ] && [ "$v_dkms" = "${v_deb%%-*}" ] && [ "$v_dkms" = "$v_tool" ]; then
	pass version
else
	fail version "dkms.conf '$v_dkms', debian/changelog '$v_deb', cmn-hnf --version '$v_tool'"
fi

# ---- quick host checks ----
"$TESTING/pkg/switch-host.sh" "$TOOL" || NFAIL=$((NFAIL + 1))
"$TESTING/pkg/dts-check.sh" "$KSRC/Documentation/devicetree/bindings/perf/arm,cmn.yaml" ||
	NFAIL=$((NFAIL + 1))

# the ABI documents, with the kernel's own checker (it only warns)
out=$(perl "$KSRC/scripts/get_abi.pl" --dir "$S/Documentation/ABI" validate 2>&1)
if [ -z "$out" ] && [ -n "$(ls "$S"/Documentation/ABI/testing/ 2>/dev/null)" ]; then
	pass abi/validate
else
	fail abi/validate "get_abi.pl validate: $(echo "$out" | head -n 2 | tr '\n\t' '  ')"
fi

# make install-tools and make uninstall-tools of the source tree, into a
# scratch root (the tool built above is reused: O=)
if out=$("$TESTING/pkg/install-tools-check.sh" "$S" "$W/tool" "$W/install-tools"); then
	pass install-tools
else
	fail install-tools "$out"
fi

# the README walks make pkg-test runs: every step of the quick start
for d in debian12 debian11; do
	steps=$(walk_steps "$d" | cut -f3)
	lacks=
	for want in 'apt install .*linux-headers-\$\(uname -r\).*linux-perf' '^make deb$' \
		'apt install \./build/deb/arm-cmn-hnf-dkms_' 'dkms status' \
		'cmn-hnf switch hnf --persistent' '^sudo cmn-hnf check$' 'perf stat -e arm_cmn_hnf/' \
		'cmn-hnf switch arm_cmn --persistent' 'apt purge arm-cmn-hnf-dkms cmn-hnf'; do
		echo "$steps" | grep -qE "$want" || lacks="$lacks '$want'"
	done
	bad=$(walk_steps "$d" | cut -f2 | grep -vxE 'ok|nohw' | head -n 1 || true)
	if [ -n "$steps" ] && [ -z "$lacks" ] && [ -z "$bad" ]; then
		pass "readme-walk/$d"
	else
		fail "readme-walk/$d" "README.md's walk blocks for $d lack:${lacks:- -}${bad:+; unknown expect=$bad}"
	fi
done

if out=$(shellcheck -s sh -S warning "$S"/debian/*.postinst "$S"/debian/*.postrm 2>&1); then
	pass maintscripts
else
	fail maintscripts "$(echo "$out" | grep -m1 'SC[0-9]')"
fi

# ---- the packages, built with Debian's tools in a Debian 12 chroot ----
if ! build_chroot; then
	fail deb/build "could not make the build chroot (log: $PKGC/chroot/build.log)"
	exit 1
fi
if timed "pkg: make deb amd64 arm64" make_debs "$S" "$DEB" "$W/deb.log"; then
	pass deb/build
else
	fail deb/build "make deb failed: $(grep -m1 -iE 'error|failed' "$W/deb.log")"
	tail -n 20 "$W/deb.log" | sed 's/^/    /'
	exit 1
fi

# the admin guide renders without a docutils warning (Debian's docutils)
if out=$(in_chroot "$BC" -b "$S:/src" -- python3 -m docutils --halt=warning \
	/src/Documentation/arm_cmn_hnf.rst 2>&1 > /dev/null); then
	pass docs/arm_cmn_hnf.rst
else
	fail docs/arm_cmn_hnf.rst "$(echo "$out" | head -n 1)"
fi

# deb_files DEB: the regular files and symlinks of a package, sorted
deb_files() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ { sub("^\\./", "/", $6); print $6 }' | sort; }

D="$DEB/arm-cmn-hnf-dkms_${v_deb}_all.deb"
want=$( (cd "$S" && git -C "$REPO" ls-files Kbuild Makefile dkms.conf include drivers) |
	sed "s|^|/usr/src/arm_cmn_hnf-$v_dkms/|"
	printf '%s\n' /usr/share/doc/arm-cmn-hnf-dkms/changelog.gz \
		/usr/share/doc/arm-cmn-hnf-dkms/copyright)
want=$(echo "$want" | sort)
got=$(deb_files "$D" 2>/dev/null)
dpkg-deb --fsys-tarfile "$D" 2>/dev/null | tar -xOf - "./usr/src/arm_cmn_hnf-$v_dkms/dkms.conf" > "$W/dkms.conf" 2>/dev/null
if [ -n "$got" ] && [ "$got" = "$want" ] && cmp -s "$W/dkms.conf" "$S/dkms.conf"; then
	pass deb/contents/arm-cmn-hnf-dkms
else
	fail deb/contents/arm-cmn-hnf-dkms "$(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | head -n 3 | tr '\n' ' ')"
fi

# what the tool's own install target installs, with PREFIX=/usr
rm -rf "$W/inst"
make -s -C "$S/tools/cmn-hnf" O="$W/tool" install DESTDIR="$W/inst" PREFIX=/usr > /dev/null
inst=$(cd "$W/inst" && find . ! -type d | sed 's|^\.||' | sort)
for arch in amd64 arm64; do
	D="$DEB/cmn-hnf_${v_deb}_$arch.deb"
	got=$(deb_files "$D" 2>/dev/null)
	lacks=$(comm -23 <(echo "$inst") <(echo "$got" | sed 's/\.gz$//' | sort) |
		grep -v '^$' | tr '\n' ' ' || true)
	extra=$(comm -13 <( (echo "$inst"; printf '%s\n' /usr/share/doc/cmn-hnf/changelog \
		/usr/share/doc/cmn-hnf/copyright) | sort) <(echo "$got" | sed 's/\.gz$//' | sort) |
		grep -v '^$' | tr '\n' ' ' || true)
	rm -rf "$W/x"
	dpkg-deb -x "$D" "$W/x" 2>/dev/null
	case $arch in amd64) magic='x86-64' ;; arm64) magic='ARM aarch64' ;; esac
	if [ -z "$got" ]; then
		fail "deb/contents/cmn-hnf_$arch" "no package $D"
	elif [ -n "$lacks" ]; then
		fail "deb/contents/cmn-hnf_$arch" "make install installs what the package lacks: $lacks"
	elif ! echo "$got" | grep -qx /usr/share/cmn-hnf/grafana/cmn-hnf.json ||
	     ! echo "$got" | grep -qx /usr/share/cmn-hnf/grafana/cmn-hnf-dashboards.yaml; then
		fail "deb/contents/cmn-hnf_$arch" "no Grafana dashboard in /usr/share/cmn-hnf/grafana"
	elif [ -n "$extra" ]; then
		fail "deb/contents/cmn-hnf_$arch" "the package holds what make install does not install: $extra"
	elif ! file "$W/x/usr/bin/cmn-hnf" | grep -q "$magic"; then
		fail "deb/contents/cmn-hnf_$arch" "usr/bin/cmn-hnf is $(file -b "$W/x/usr/bin/cmn-hnf")"
	else
		pass "deb/contents/cmn-hnf_$arch"
	fi
done

# lintian, as an unprivileged user, once per .changes (per architecture);
# exit status 2 means it could not check
chmod -R a+rX "$DEB"
for ch in "$DEB"/*.changes; do
	a=$(basename "$ch" .changes)
	a=${a##*_}
	rc=0
	in_chroot "$BC" -b "$DEB:/out" -- setpriv --reuid=65534 --regid=65534 \
		--clear-groups env HOME=/tmp lintian -I -E --pedantic --show-overrides \
		"/out/$(basename "$ch")" > "$W/lintian-$a.txt" 2>&1 || rc=$?
	sed 's/^/    /' "$W/lintian-$a.txt"
	for d in $(sed -n 's/^ [0-9a-f]\{32\} [0-9]* [^ ]* [^ ]* \(.*\.deb\)$/\1/p' "$ch"); do
		p=$(dpkg-deb -f "$DEB/$d" Package)
		pa=$(dpkg-deb -f "$DEB/$d" Architecture)
		case $p in *-dbgsym) continue ;; esac
		bad=$(grep -E "^[EW]: $p( \\([^)]*\\))?: " "$W/lintian-$a.txt" | head -n 3 | tr '\n' ' ' || true)
		if [ $rc -ge 2 ]; then
			fail "lintian/${p}_$pa" "lintian could not check $(basename "$ch") (exit $rc)"
		elif [ -n "$bad" ]; then
			fail "lintian/${p}_$pa" "$bad"
		else
			pass "lintian/${p}_$pa"
		fi
	done
done
[ $NFAIL = 0 ]
