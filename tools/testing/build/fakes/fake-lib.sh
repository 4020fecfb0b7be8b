# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# The fake archive of tools/testing/build/fakes/: which packages exist, in
# which versions, and what each contains. Sourced by the fakes.

FAKE_KVER612=6.12.900+deb12
FAKE_KVER61=6.1.0-90
FAKE_KVER510=5.10.0-90
FAKE_KVER72=7.2.900+deb14
: "${FAKE_SRCVER:=6.12.900-1~deb12u1}"
FAKE_REAL_PATH=$(printf '%s' "$PATH" | tr ':' '\n' | grep -vxF "$FAKES" | paste -sd:)

fake_log() { printf '%s\n' "$*" >> "${FAKE_LOG:-/dev/null}"; }

# real CMD ARGS...: the command of that name after the fakes on PATH
real() { PATH=$FAKE_REAL_PATH "$@"; }

# pkg_version NAME: the version of a package of the fake archive
pkg_version() {
	case $1 in
	linux-*"$FAKE_KVER612"* | linux-source-6.12) echo "6.12.900-1~deb12u1" ;;
	linux-*"$FAKE_KVER61"* | linux-kbuild-6.1) echo "6.1.900-1" ;;
	linux-*"$FAKE_KVER510"* | linux-*-5.10) echo "5.10.900-1" ;;
	linux-*"$FAKE_KVER72"* | linux-source-7.2) echo "7.2.900-1" ;;
	linux-perf) echo "6.1.900-1" ;;
	*) echo "1.0-1" ;;
	esac
}

# skeleton_source DIR: the parts of a kernel source tree the scripts use
# (kunit.py, checkpatch.pl)
skeleton_source() {
	mkdir -p "$1/tools/testing/kunit" "$1/scripts"
	cat > "$1/tools/testing/kunit/kunit.py" <<'PY'
#!/usr/bin/env python3
# fake kunit.py: "build" writes what build-kernel.sh looks for
import os, sys
args = dict(a.split('=', 1) for a in sys.argv[2:] if a.startswith('--') and '=' in a)
b = args['--build_dir']
with open(os.environ.get('FAKE_LOG', os.devnull), 'a') as f:
    f.write('kunit.py ' + ' '.join(sys.argv[1:]) + '\n')
os.makedirs(b + '/arch/arm64/boot', exist_ok=True)
os.makedirs(b + '/include/config', exist_ok=True)
open(b + '/arch/arm64/boot/Image', 'w').write('fake Image\n')
open(b + '/Module.symvers', 'w').write('')
open(b + '/include/config/kernel.release', 'w').write('6.12.900-cmndebug-arm64\n')
open(b + '/.config', 'w').write(open(args['--kunitconfig']).read())
PY
	chmod +x "$1/tools/testing/kunit/kunit.py"
	printf '#!/bin/sh\nexit 0\n' > "$1/scripts/checkpatch.pl"
	chmod +x "$1/scripts/checkpatch.pl"
	echo "VERSION = 6" > "$1/Makefile"
}

# fixture NAME VERSION ARCH DIR: the files of that package, into DIR
fixture() {
	local n=$1 v=$2 a=$3 d=$4 abi fl krel
	case $n in
	linux-headers-*-common)
		abi=${n#linux-headers-}
		abi=${abi%-common}
		mkdir -p "$d/usr/src/$n"
		echo "# common headers of $abi" > "$d/usr/src/$n/Makefile" ;;
	linux-headers-*)
		fl=${n##*-}
		abi=${n#linux-headers-}
		abi=${abi%-"$fl"}
		mkdir -p "$d/usr/src/$n"
		printf 'include /usr/src/linux-headers-%s-common/Makefile\n' "$abi" \
			> "$d/usr/src/$n/Makefile"
		case $abi in
		"$FAKE_KVER72") echo "CC = aarch64-linux-gnu-gcc-16" ;;
		"$FAKE_KVER510") echo "CC = aarch64-linux-gnu-gcc-10" ;;
		*) echo "CC = aarch64-linux-gnu-gcc-12" ;;
		esac > "$d/usr/src/$n/.kernelvariables" ;;
	linux-kbuild-*)
		mkdir -p "$d/usr/lib/$n/scripts/basic"
		echo "fixdep" > "$d/usr/lib/$n/scripts/basic/fixdep" ;;
	linux-source-*)
		local t
		t=$(mktemp -d)
		skeleton_source "$t/$n"
		mkdir -p "$d/usr/src"
		real tar -cJf "$d/usr/src/$n.tar.xz" -C "$t" "$n"
		rm -rf "$t" ;;
	linux-image-*)
		krel=${n#linux-image-}
		# sid's image package only depends on base, binary and modules
		[ "$krel" = "$FAKE_KVER72-arm64" ] && return 0
		mkdir -p "$d/boot" "$d/lib/modules/$krel/kernel/drivers/perf"
		echo "fake vmlinuz" > "$d/boot/vmlinuz-$krel"
		: > "$d/lib/modules/$krel/kernel/drivers/perf/arm-cmn.ko"
		echo kernel/drivers/perf/arm-cmn.ko > "$d/lib/modules/$krel/modules.order"
		: > "$d/lib/modules/$krel/modules.builtin"
		: > "$d/lib/modules/$krel/modules.builtin.modinfo" ;;
	linux-binary-*)
		krel=${n#linux-binary-}
		mkdir -p "$d/usr/lib/modules/$krel"
		echo "fake vmlinuz" > "$d/usr/lib/modules/$krel/vmlinuz" ;;
	linux-modules-*)
		krel=${n#linux-modules-}
		mkdir -p "$d/usr/lib/modules/$krel/kernel/drivers/perf"
		: > "$d/usr/lib/modules/$krel/kernel/drivers/perf/arm-cmn.ko"
		echo kernel/drivers/perf/arm-cmn.ko > "$d/usr/lib/modules/$krel/modules.order"
		: > "$d/usr/lib/modules/$krel/modules.builtin"
		: > "$d/usr/lib/modules/$krel/modules.builtin.modinfo" ;;
	linux-base-*)
		mkdir -p "$d/usr/share/doc/$n" ;;
	busybox-static)
		mkdir -p "$d/bin"
		cp /bin/busybox "$d/bin/busybox" ;;
	linux-perf | linux-perf-*)
		mkdir -p "$d/usr/bin"
		if [ "$n" = linux-perf ]; then
			cp /bin/busybox "$d/usr/bin/perf"
		else
			cp /bin/busybox "$d/usr/bin/perf_${n#linux-perf-}"
		fi ;;
	libc6)
		mkdir -p "$d/lib"
		if [ "$a" = arm64 ]; then
			: > "$d/lib/ld-linux-aarch64.so.1"
		fi ;;
	gcc-*-aarch64-linux-gnu | gcc-[0-9]*)
		local b=$n
		case $n in *-aarch64-linux-gnu)
			b=${n%-aarch64-linux-gnu}
			b=aarch64-linux-gnu-$b ;;
		esac
		mkdir -p "$d/usr/bin"
		printf '#!/bin/sh\necho "%s (fake) %s"\n' "$b" "$v" > "$d/usr/bin/$b"
		chmod +x "$d/usr/bin/$b" ;;
	*)
		mkdir -p "$d/usr/share/doc/$n" ;;
	esac
}
