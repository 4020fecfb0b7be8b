#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# coldpath.sh: the first-time paths of the set-up scripts, in seconds, on
# every make check (harness stage). A newcomer's machine has nothing in
# the cache, while CI and the developers' machines have everything: the
# branches that run only when nothing is cached yet (no earlier build, no
# package list, no stamp, a download another stage has not finished) are
# run here against a new, empty cache (CMN_HNF_CACHE), with the slow and
# networked tools replaced by the fakes of tools/testing/build/fakes/
# (first on PATH): apt-get download builds tiny .debs, kunit.py "builds" a
# kernel by writing Image and Module.symvers, mmdebstrap makes an empty
# root. The scripts themselves are the real ones, run from a copy of the
# tree (so a case may change a kernel config).
#
# Cases (each "PASS: harness/cold/<name>" or "FAIL: harness/cold/<name>:
# why"; each also checks that a second run finds everything cached):
#
#   host-packages         ensure_host_packages with no .apt-updated stamp
#   host-debs             fetch_debs + deb_of (make kunit's busybox)
#   headers/<k>           fetch_kernel_headers <k> arm64 amd64, the four
#                         series (5.10 and 7.2 from the private suites,
#                         with their toolchain roots)
#   toolchain/<suite>     ensure_toolchain (sid gcc-16, bullseye gcc-10)
#   kernel-source/<k>     ensure_kernel_source 6.12 (host) and 7.2 (sid)
#   build-kernel/<k>      build-kernel.sh 6.12 and 7.2 with no earlier build
#   build-kernel/seeded   a new config of a source already built starts
#                         from that build
#   fetch-guest/<k>       fetch-guest.sh for each kernel and the debug one
#   mkinitramfs/<k>       the base initramfs right after fetch-guest.sh
#   pkg-chroot            pkg_chroot (the package tests' chroots)
#   e2e-plan              e2e.sh E2E_LIST=1 (the pool listing of selftest.sh)
#                         and check.sh CHECK_LIST_PLAN=1
#   kunit-modules         kunit_prebuilt: make kunit takes lint's modules
#                         only when both were built for its kernel
#   race/headers          a guest fetch and a header fetch of the same
#                         kernel at once, the first download still being
#                         written when the second stage starts (make
#                         check's guest prefetch and lint)
#
# Exit status 0 only if every case passed.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

FAKES="$TESTING/build/fakes"
ensure_host_packages
T=$(mktemp -d /tmp/cmn-hnf-coldpath.XXXXXX)
trap 'rm -rf "$T"' EXIT
rc=0
ok() { result_pass "harness/cold/$1"; }
bad() { result_fail "harness/cold/$1" "$2"; rc=1; }

# the tree the scripts run from: a copy, so that cases may change it
TREE="$T/tree"
rsync -a --exclude=.git --exclude='*.o' --exclude='*.ko' "$REPO/" "$TREE/"
TT="$TREE/tools/testing"

# in_cache DIR CMD...: CMD with DIR as the cache (created empty if it does
# not exist), the fakes first on PATH and their log in DIR.log; its
# output in $IO.out (stdout) and $IO.err (stderr and the scripts' log),
# IO defaulting to DIR
in_cache() {
	local c=$1 o=${IO:-$1}
	shift
	mkdir -p "$c"
	env -u KVER510 -u KVER61 -u KVER12 -u KVER72 -u KERNEL -u JOBS -u IO \
		CMN_HNF_CACHE="$c" PATH="$FAKES:$PATH" FAKE_LOG="$c.log" \
		"$@" > "$o.out" 2> "$o.err" 3>&2
}

# $T/lib CMD: a shell command with the copy's tools/testing/lib.sh and
# vm/common.sh sourced (a script, so that in_cache can run it)
cat > "$T/lib" <<EOF
#!/bin/bash
. '$TT/vm/common.sh'
eval "\$1"
EOF
chmod +x "$T/lib"

# why DIR: the last lines of a case's log, for a FAIL line
why() { tail -n 3 "$1.err" 2>/dev/null | tr '\n' '|'; }

# downloads DIR: how many packages the fake apt-get downloaded so far
downloads() { grep -c '^apt-get .*download' "$1.log" 2>/dev/null || true; }

# cached NAME DIR CMD...: run CMD again in DIR; it must download and
# build nothing
cached() {
	local n=$1 c=$2 d0 k0 IO
	shift 2
	d0=$(downloads "$c")
	k0=$(grep -c '^kunit.py ' "$c.log" 2>/dev/null || true)
	if ! in_cache "$c" "$@"; then
		bad "$n" "second run failed: $(why "$c")"
		return 1
	fi
	if [ "$(downloads "$c")" != "$d0" ] ||
	   [ "$(grep -c '^kunit.py ' "$c.log" 2>/dev/null || true)" != "$k0" ]; then
		bad "$n" "second run downloaded or built again (log: $(tail -n 2 "$c.log" | tr '\n' '|'))"
		return 1
	fi
}

# ---- host packages and host .debs
c="$T/host-packages"
if ! in_cache "$c" "$T/lib" ensure_host_packages; then
	bad host-packages "$(why "$c")"
elif ! grep -q '^apt-get update' "$c.log" || [ ! -f "$c/.apt-updated" ]; then
	bad host-packages "no apt-get update without a stamp"
else
	ok host-packages
fi
c="$T/host-debs"
if ! in_cache "$c" "$T/lib" 'fetch_debs busybox-static:arm64 && deb_of busybox-static'; then
	bad host-debs "$(why "$c")"
elif ! dpkg-deb --info "$(cat "$c.out")" > /dev/null 2>&1; then
	bad host-debs "deb_of printed '$(cat "$c.out")'"
elif cached host-debs "$c" "$T/lib" 'fetch_debs busybox-static:arm64 && deb_of busybox-static'; then
	ok host-debs
fi

# ---- headers and toolchains
for k in 5.10 6.1 6.12 7.2; do
	c="$T/headers-$k"
	cmd="fetch_kernel_headers $k arm64 amd64 && kdir \$(kernel_abi $k) arm64 && kdir \$(kernel_abi $k) amd64"
	if ! in_cache "$c" "$T/lib" "$cmd"; then
		bad "headers/$k" "$(why "$c")"
		continue
	fi
	miss=
	while read -r kd; do
		[ -f "$kd/.cmn-hnf-ok" ] || miss="$miss $kd: no stamp;"
		grep -q "^include $c/headers/" "$kd/Makefile" 2>/dev/null ||
			miss="$miss $kd: Makefile not pointed at the private root;"
	done < <(tail -n 2 "$c.out")
	[ "$(wc -l < "$c.out")" = 2 ] || miss="$miss printed '$(tr '\n' ' ' < "$c.out")';"
	if [ -n "$miss" ]; then
		bad "headers/$k" "$miss"
	elif cached "headers/$k" "$c" "$T/lib" "$cmd"; then
		ok "headers/$k"
	fi
done
for e in sid:16 bullseye:10; do
	s=${e%:*}
	v=${e#*:}
	c="$T/toolchain-$s"
	if ! in_cache "$c" "$T/lib" "ensure_toolchain $s $v"; then
		bad "toolchain/$s" "$(why "$c")"
	elif ! "$(cat "$c.out")/usr/bin/aarch64-linux-gnu-gcc-$v" --version > /dev/null 2>&1; then
		bad "toolchain/$s" "no runnable aarch64-linux-gnu-gcc-$v in '$(cat "$c.out")'"
	elif cached "toolchain/$s" "$c" "$T/lib" "ensure_toolchain $s $v"; then
		ok "toolchain/$s"
	fi
done

# ---- kernel sources and the KUnit/debug kernels
for k in 6.12 7.2; do
	c="$T/kernel-source-$k"
	if ! in_cache "$c" "$T/lib" "ensure_kernel_source $k && echo \$KSRC"; then
		bad "kernel-source/$k" "$(why "$c")"
	elif ! [ -f "$(cat "$c.out")/.cmn-hnf-ok" ] ||
	     ! [ -x "$(cat "$c.out")/tools/testing/kunit/kunit.py" ]; then
		bad "kernel-source/$k" "no extracted tree at '$(cat "$c.out")'"
	elif cached "kernel-source/$k" "$c" "$T/lib" "ensure_kernel_source $k"; then
		ok "kernel-source/$k"
	fi
done
for k in 6.12 7.2; do
	c="$T/build-kernel-$k"
	b=
	if ! in_cache "$c" env KUNIT_KERNEL=$k "$TT/kunit/build-kernel.sh"; then
		bad "build-kernel/$k" "failed: $(why "$c")"
	elif ! b=$(tail -n 1 "$c.out") || [ ! -f "$b/.cmn-hnf-ok" ] ||
	     [ ! -f "$b/arch/arm64/boot/Image" ]; then
		bad "build-kernel/$k" "printed '$(cat "$c.out")', no finished build there"
	elif cached "build-kernel/$k" "$c" env KUNIT_KERNEL=$k "$TT/kunit/build-kernel.sh"; then
		ok "build-kernel/$k"
	fi
	if [ "$k" = 6.12 ]; then b612=$b; fi
done
# a changed config of the 6.12 source builds in a new directory, seeded
# from the build above (kbuild then rebuilds only what changed)
c="$T/build-kernel-6.12"
echo "# coldpath.sh: a changed config" >> "$TT/kunit/arm_cmn_hnf.kunitconfig"
if ! in_cache "$c" env KUNIT_KERNEL=6.12 "$TT/kunit/build-kernel.sh"; then
	bad build-kernel/seeded "$(why "$c")"
elif ! grep -q 'seeding .* (incremental build)' "$c.err" ||
     [ "$(tail -n 1 "$c.out")" = "${b612:-}" ] || [ ! -f "$(tail -n 1 "$c.out")/.cmn-hnf-ok" ]; then
	bad build-kernel/seeded "no seeded build in a new directory: $(why "$c")"
else
	ok build-kernel/seeded
fi
cp "$REPO/tools/testing/kunit/arm_cmn_hnf.kunitconfig" "$TT/kunit/"

# ---- guests and their initramfs
for k in 5.10 6.1 6.12 7.2 debug; do
	c="$T/guest-$k"
	if ! in_cache "$c" "$TT/vm/fetch-guest.sh" "$k"; then
		bad "fetch-guest/$k" "$(why "$c")"
		continue
	fi
	miss=
	IO=$c.dirs in_cache "$c" "$T/lib" \
		"abi=\$(kernel_abi $k) && guest_image_dir \$abi && guest_perf_dir $k && guest_user_dir" ||
		miss="the guest's directories are unknown: $(why "$c.dirs")"
	for d in $(cat "$c.dirs.out"); do
		[ -f "$d/.ok" ] || miss="$miss $d: no stamp;"
	done
	if [ -n "$miss" ]; then
		bad "fetch-guest/$k" "$miss"
		continue
	fi
	cached "fetch-guest/$k" "$c" "$TT/vm/fetch-guest.sh" "$k" || continue
	ok "fetch-guest/$k"
	# the base initramfs: nothing built yet but what fetch-guest.sh unpacked
	if ! in_cache "$c" "$TT/vm/mkinitramfs.sh" "$k" "$c/base.cpio.zst"; then
		bad "mkinitramfs/$k" "$(why "$c")"
	elif ! zstd -qdc "$c/base.cpio.zst" | cpio -t --quiet 2>/dev/null | grep -qx init; then
		bad "mkinitramfs/$k" "no /init in $c/base.cpio.zst"
	else
		ok "mkinitramfs/$k"
	fi
done

# ---- the package tests' chroots
c="$T/pkg-chroot"
cmd=". '$TT/pkg/lib.sh'; pkg_chroot build bookworm buildd debhelper dkms"
if ! in_cache "$c" "$T/lib" "$cmd"; then
	bad pkg-chroot "$(why "$c")"
elif ! [ -f "$(tail -n 1 "$c.out")/.cmn-hnf-ok" ] ||
     ! [ -f "$(tail -n 1 "$c.out")/etc/fake-mmdebstrap" ]; then
	bad pkg-chroot "no chroot at '$(cat "$c.out")'"
elif ! in_cache "$c" "$T/lib" "$cmd"; then
	bad pkg-chroot "second run: $(why "$c")"
elif [ "$(grep -c '^mmdebstrap' "$c.log")" != 1 ]; then
	bad pkg-chroot "mmdebstrap ran again for a cached chroot"
else
	ok pkg-chroot
fi

# ---- the e2e planner and make check's plan, on a machine with no run yet
c="$T/e2e-plan"
if ! in_cache "$c" env -u TESTS -u MESH -u E2E_PLAN E2E_LIST=1 KERNEL=7.2 FW=dt "$TT/vm/e2e.sh"; then
	bad e2e-plan "e2e.sh E2E_LIST=1 failed: $(why "$c")"
elif ! grep -q '^7\.2|dt|default|' "$c.out"; then
	bad e2e-plan "no 7.2 DT boot on the default mesh listed: $(head -n 2 "$c.out" | tr '\n' '|')"
elif ! in_cache "$c" env -u CHECK_STAGES -u CHECK_KERNELS -u CHECK_FWS -u CHECK_PRIMARY \
		CHECK_LIST_PLAN=1 "$TT/build/check.sh" || ! grep -q '7.2/dt' "$c.out"; then
	bad e2e-plan "check.sh CHECK_LIST_PLAN=1 failed: $(why "$c")"
else
	ok e2e-plan
fi

# ---- two stages fetching one kernel's headers at once: the guest fetch
# (make check's prefetch) is still writing the 7.2 arm64 headers .deb
# when the header fetch (lint) starts; both must end with whole packages
c="$T/race"
mkdir -p "$c"
(IO=$c.a in_cache "$c" env FAKE_SLOW='linux-headers-*-arm64' FAKE_SLOW_S=3 \
	"$TT/vm/fetch-guest.sh" 7.2; echo $? > "$c.a.rc") &
pa=$!
for _ in $(seq 100); do
	[ -n "$(find "$c/debs" -name 'linux-headers-*arm64_*.deb' 2>/dev/null)" ] && break
	sleep 0.1
done
if IO=$c.b in_cache "$c" "$T/lib" "fetch_kernel_headers 7.2 arm64"; then rb=0; else rb=1; fi
wait "$pa" || true
ra=$(cat "$c.a.rc" 2>/dev/null || echo none)
if [ "$ra" != 0 ] || [ "$rb" != 0 ]; then
	bad race/headers "guest fetch exited $ra ($(why "$c.a")), header fetch $rb ($(why "$c.b"))"
else
	miss=
	while read -r f; do
		dpkg-deb --info "$f" > /dev/null 2>&1 || miss="$miss ${f##*/}"
	done < <(find "$c/debs" -name '*.deb')
	if [ -n "$miss" ]; then
		bad race/headers "broken packages in the cache:$miss"
	else
		ok race/headers
	fi
fi

# ---- make kunit's modules: those of lint's build in the same make check
# when they were built for the KUnit kernel, else its own build (the first
# time: no lint build; a lint build for another kernel or missing one)
c="$T/kmods"
KO1=drivers/perf/arm_cmn_hnf/arm_cmn_hnf.ko KO2=kunit/arm_cmn_hnf_kunit.ko
fake_ko() { # FILE VERMAGIC: an object with a .modinfo vermagic, as modinfo reads it
	mkdir -p "${1%/*}"
	printf 'const char m[] __attribute__((section(".modinfo"), used)) = "vermagic=%s SMP aarch64";\n' \
		"$2" | gcc -x c -c -o "$1" -
}
kp() { kunit_prebuilt "$1" 6.12.0-k "$KO1" "$KO2" 2>&1 || echo "(none)"; }
fake_ko "$c/half/$KO1" "6.12.0-k"
fake_ko "$c/other/$KO1" "6.12.0-k"
fake_ko "$c/other/$KO2" "7.2.0-k"
fake_ko "$c/good/$KO1" "6.12.0-k"
fake_ko "$c/good/$KO2" "6.12.0-k"
got="$(kp '')|$(kp "$c/none")|$(kp "$c/half")|$(kp "$c/other")|$(kp "$c/good")"
if [ "$got" = "(none)|(none)|(none)|(none)|$c/good" ]; then
	ok kunit-modules
else
	bad kunit-modules "kunit_prebuilt for no dir, a missing dir, one module, another kernel's, both: $got"
fi

exit $rc
