#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh OUTDIR [ARCH...]: make deb. Builds the Debian packages with
# dpkg-buildpackage in a copy of the tree, OUTDIR/arm-cmn-hnf-<version>,
# so that the work tree stays clean; the .deb files land in OUTDIR:
#
#   arm-cmn-hnf-dkms_<version>_all.deb   the driver's source, for DKMS
#   cmn-hnf_<version>_<arch>.deb         the tool, for each ARCH
#
# ARCH defaults to this machine's; another one is cross-built (it needs
# crossbuild-essential-<arch> and libc6-dev:<arch>). The build runs a smoke
# test of the tool where it can run (DEB_BUILD_OPTIONS=nocheck skips it);
# its unit tests run in make check.
set -eu
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS-}"

out=${1:?usage: make-deb.sh OUTDIR [ARCH...]}
shift
top=$(cd "$(dirname "$0")/../.." && pwd)
[ $# -gt 0 ] || set -- "$(dpkg --print-architecture)"

if ! command -v dpkg-buildpackage > /dev/null || ! command -v dh > /dev/null; then
	echo "make deb needs Debian's packaging tools:" >&2
	echo "  sudo apt install dpkg-dev debhelper dh-dkms python3-docutils" >&2
	echo "(Debian 11 and Ubuntu 22.04 have no dh-dkms: install dkms instead)" >&2
	exit 1
fi

ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
src="$out/arm-cmn-hnf-$ver"
mkdir -p "$out"
out=$(cd "$out" && pwd)
src="$out/arm-cmn-hnf-$ver"
rm -rf "$src"
mkdir -p "$src"

# The files git knows (committed or not, minus ignored ones), or, outside a
# git checkout, the tree without build outputs.
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		cpio -0 -pdm --quiet "$src")
else
	(cd "$top" && tar -cf - --exclude=./.git --exclude=./build \
		--exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
		--exclude=tools/cmn-hnf/.obj --exclude=tools/cmn-hnf/.test-obj \
		--exclude=tools/cmn-hnf/cmn-hnf . | tar -xf - -C "$src")
fi

first=1
for arch in "$@"; do
	if [ $first = 1 ]; then
		what=-b		# this arch's packages and the arch-independent one
	else
		what=-B
	fi
	echo "make deb: dpkg-buildpackage $what -a$arch in $src"
	if [ "$arch" = "$(dpkg --print-architecture)" ]; then
		case " $DEB_BUILD_OPTIONS " in
		*" nocheck "*) prof=-Pnocheck ;;
		*) prof= ;;
		esac
		(cd "$src" && dpkg-buildpackage -us -uc "$what" "-a$arch" $prof)
	else
		# a cross build cannot run the tool's unit tests
		cc=$(dpkg-architecture "-a$arch" -qDEB_HOST_GNU_TYPE 2>/dev/null)-gcc
		(cd "$src" && CC=$cc DEB_BUILD_OPTIONS="nocheck $DEB_BUILD_OPTIONS" \
			dpkg-buildpackage -us -uc "$what" "-a$arch" -Pcross,nocheck)
	fi
	first=0
done
rm -rf "$src"
echo "make deb: packages in $out:"
ls "$out"/*.deb | sed 's/^/  /'
