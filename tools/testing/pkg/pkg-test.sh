#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make pkg-test [PKG_TESTS="dkms walk-debian12 walk-debian11"]: the heavy
# packaging tests, in fresh Debian systems made by mmdebstrap from the
# Debian archive only (tools/testing/pkg/lib.sh). Each writes a transcript
# (every command with its output) to $OUTD/pkg-test/<test>.txt and prints
# result lines "pkg-test/<test>/<case>".
#
#   dkms           Debian 12 with Debian's 6.1 and 6.12 amd64 kernels and
#                  headers, plus Debian's 6.12 arm64 kernel tree with its
#                  headers (cross-compiled: kbuild runs on amd64):
#                  dpkg -i of both packages builds the module for all three
#                  (CMN_HNF_DKMS_ARCH='.*' lifts the aarch64 restriction),
#                  dkms status, the modules' architecture, vermagic and
#                  aliases; without the override an amd64 kernel is skipped
#                  and the arm64 one builds; cmn-hnf switch --persistent
#                  --root /; dpkg --purge, and nothing of the packages is
#                  left (file lists and checksums before and after); then
#                  make dkms-install and make dkms-uninstall from the tree,
#                  and make; make install; make uninstall, and make
#                  install-tools (the Grafana dashboard too); make
#                  uninstall-tools (nothing left in /usr/local)
#   walk-debian12  the README quick start, run as written by a sudo user
#   walk-debian11  (the README's "walk:" blocks for that system), as far as
#                  a machine without CMN hardware goes: the steps marked
#                  expect=nohw must fail for want of the CMN-600; before
#                  the purge, cmn-hnf switch --persistent --root / both
#                  ways (not in the README), and the purge must remove
#                  its file. apt's downloads are kept across runs in
#                  $CACHE/pkg/archives/<suite> (apt_archives)
#
# The walks pretend that the system runs Debian's own kernel (a uname
# wrapper reports the release of the installed linux-image-amd64, since the
# container shares the host's kernel), answer yes to apt, and set
# CMN_HNF_DKMS_ARCH='.*' for DKMS (the container is amd64). Nothing else
# differs from what a user types.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

take_lock pkg
ensure_host_packages
ensure_pkg_host_packages

TESTS=${PKG_TESTS:-dkms walk-debian12 walk-debian11}
W="$OUTD/pkg-test"
mkdir -p "$W"
NFAIL=0
pass() { result_pass "pkg-test/$1"; }
fail() { result_fail "pkg-test/$1" "$2"; NFAIL=$((NFAIL + 1)); }

# ---- the packages ----
S="$W/src"
DEB="$W/deb"
src_copy "$S"
build_chroot || { fail deb "no build chroot"; exit 1; }
if ! timed "pkg-test: make deb" make_debs "$S" "$DEB" "$W/make-deb.txt"; then
	fail deb "make deb failed (transcript $W/make-deb.txt)"
	exit 1
fi
VER=$(dpkg-parsechangelog -l "$S/debian/changelog" -S Version)
chmod -R a+rX "$DEB"
for ch in "$DEB"/*.changes; do
	{
		echo "\$ lintian -I -E --pedantic --show-overrides $(basename "$ch")"
		in_chroot "$BC" -b "$DEB:/out" -- setpriv --reuid=65534 --regid=65534 \
			--clear-groups env HOME=/tmp sh -c "cd /out && lintian -I -E --pedantic --show-overrides $(basename "$ch")" 2>&1
		echo "[exit $?]"
	} >> "$W/make-deb.txt"
done

# ---- transcripts ----

# cx DIR LOG [-u USER] CMD: run the shell command line CMD in chroot DIR
# (as root, or USER through runuser), in ~; write "<prompt> CMD" and its
# output to LOG. BINDS (array of -b SRC:DST) are mounted. Returns CMD's
# status.
cx() {
	local dir=$1 log=$2 user=root rc=0 home=/root prompt='#'
	shift 2
	if [ "$1" = -u ]; then
		user=$2 home=/home/$2 prompt='$'
		shift 2
	fi
	printf '%s@%s:%s%s %s\n' "$user" "$HOSTLABEL" "${CX_DIR:-~}" "$prompt" "${CX_SHOW:-$1}" >> "$log"
	if [ "$user" = root ]; then
		in_chroot "$dir" "${BINDS[@]}" -- env -i HOME=/root TERM=dumb \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			bash -c "cd $home && $1" >> "$log" 2>&1 || rc=$?
	else
		in_chroot "$dir" "${BINDS[@]}" -- runuser -l "$user" -c "$1" \
			>> "$log" 2>&1 || rc=$?
	fi
	[ $rc = 0 ] || echo "[exit status $rc]" >> "$log"
	return $rc
}
note() { printf '\n# %s\n' "$*" >> "$LOG"; }

# snapshot DIR FILE: every path outside the volatile places, with type,
# size (not of directories: ext4 never shrinks one its entries grew) and
# mode, and checksums of /etc and of the module indexes
snapshot() {
	in_chroot "$1" -- sh -c '
		find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp \
			-o -path /run -o -path /var/cache -o -path /var/lib/apt \
			-o -path /var/log -o -path /var/lib/dpkg -o -path /root \
			-o -path /var/lib/systemd \) -prune -o \
			-type d -printf "%p %y - %m\n" -o -printf "%p %y %s %m\n" | sort
		find /etc /lib/modules -xdev -type f \( -path "/etc/*" -o -name "modules.*" \) \
			-exec md5sum {} + | sort -k2' > "$2" 2>/dev/null
}

# leftovers BEFORE AFTER: the differences, minus what is not ours (shown
# in the transcript with the reason)
leftovers() {
	{ diff "$1" "$2" || true; } | grep '^[<>]' |
		grep -vE ' /var/lib/dkms/mok\.(key|pub) |[ /]boot/initrd\.img-|^[<>] [0-9a-f]{32}  /boot/' || true
}

# ---- dkms: install, status, modules, restriction, purge ----

t_dkms() {
	local F LOG=$W/dkms.txt K61 K12 KARM kd rc st k bad
	: > "$LOG"
	HOSTLABEL=debian-12
	BASE=$(pkg_chroot base12 bookworm minbase sudo linux-image-amd64 linux-image-6.12-amd64) ||
		{ fail dkms/setup "no Debian 12 chroot"; return; }
	F=$(pkg_fresh dkms "$BASE")
	fetch_headers
	"$TESTING/vm/fetch-guest.sh" 6.12 > /dev/null
	KARM="$KVER12-arm64"
	kd=$(kdir "$KVER12" arm64)
	[ -d "$GUEST/$KARM/image/lib/modules/$KARM" ] ||
		{ fail dkms/setup "no Debian arm64 kernel tree in $GUEST/$KARM"; return; }
	# Debian's arm64 6.12 kernel: its modules, and its headers at the
	# host path the unpacked tree refers to
	cp -a "$GUEST/$KARM/image/lib/modules/$KARM" "$F/lib/modules/"
	ln -sfn "$kd" "$F/lib/modules/$KARM/build"
	BINDS=(-b "$DEB:/debs" -b "$HDR:$HDR" -b "$(apt_archives bookworm):/var/cache/apt/archives")

	note "setup: the kernels' headers, DKMS (with openssl, to make its signing key), file, and the
# arm64 cross compiler Debian's arm64 headers call"
	cx "$F" "$LOG" "apt-get update -qq && apt-get install -y -qq dkms openssl file python3-docutils linux-headers-amd64 linux-headers-6.12-amd64 gcc-12-aarch64-linux-gnu > /dev/null" ||
		{ fail dkms/setup "apt-get install failed (transcript $LOG)"; return; }
	K61=$(cd "$F/lib/modules" && ls -d 6.1.*-amd64 | sort -V | tail -n 1)
	K12=$(cd "$F/lib/modules" && ls -d 6.12.*-amd64 | sort -V | tail -n 1)
	cx "$F" "$LOG" "ls -l /lib/modules/*/build"
	snapshot "$F" "$W/dkms.before"

	note "install both packages. uname -r says $K61, as on a machine running Debian's 6.1 kernel (in a
# chroot DKMS would otherwise build for every kernel by itself): DKMS' postinst builds for
# the running and the newest kernel, the package's own postinst for the arm64 one. The
# environment lifts the aarch64-only restriction for the two amd64 kernels."
	printf '#!/bin/sh\ncase "$*" in -r) echo %s ;; *) exec /usr/bin/uname.real "$@" ;; esac\n' "$K61" > "$W/uname"
	chmod 755 "$W/uname"
	cp -a "$F/usr/bin/uname" "$F/usr/bin/uname.real"
	rc=0
	BINDS+=(-b "$W/uname:/usr/bin/uname")
	cx "$F" "$LOG" "CMN_HNF_DKMS_ARCH='.*' dpkg -i /debs/arm-cmn-hnf-dkms_${VER}_all.deb /debs/cmn-hnf_${VER}_amd64.deb" || rc=$?
	unset 'BINDS[-1]' 'BINDS[-1]'
	rm -f "$F/usr/bin/uname.real"
	if [ $rc = 0 ] && grep -q "^arm_cmn_hnf $VER: built and installed for $KARM" "$LOG"; then
		pass dkms/dpkg-install
	else
		fail dkms/dpkg-install "dpkg -i exited $rc, or the package's postinst did not build for $KARM"
	fi
	cx "$F" "$LOG" "dkms status"
	st=$(in_chroot "$F" -- dkms status 2>/dev/null)
	bad=
	for k in "$K61" "$K12" "$KARM"; do
		echo "$st" | grep -q "^arm_cmn_hnf/$VER, $k, [^:]*: installed" || bad="$bad $k"
	done
	if [ -z "$bad" ] && [ -n "$K61" ] && [ -n "$K12" ]; then
		pass dkms/status-every-kernel
	else
		fail dkms/status-every-kernel "not installed for:$bad ($(echo "$st" | tr '\n' ';'))"
	fi

	note "the modules DKMS built: architecture, vermagic, the device aliases"
	bad=
	for k in "$K61" "$K12" "$KARM"; do
		cx "$F" "$LOG" "modinfo -k $k -F filename arm_cmn_hnf | xargs file -bz; modinfo -k $k -F vermagic arm_cmn_hnf; grep -E 'ARMHC600|cmn-600' /lib/modules/$k/modules.alias"
		in_chroot "$F" -- sh -c "modinfo -k $k -F vermagic arm_cmn_hnf | grep -q '^$k ' &&
			modinfo -k $k -F filename arm_cmn_hnf | xargs file -bz | grep -q '$(case $k in *arm64) echo 'ARM aarch64' ;; *) echo 'x86-64' ;; esac)' &&
			grep -q 'acpi\*:ARMHC600:\* arm_cmn_hnf' /lib/modules/$k/modules.alias" 2>/dev/null || bad="$bad $k"
	done
	if [ -z "$bad" ]; then pass dkms/modules; else fail dkms/modules "wrong or missing module for:$bad"; fi

	note "without the override: the amd64 kernel is skipped, the arm64 kernel (aarch64) builds"
	cx "$F" "$LOG" "dkms remove arm_cmn_hnf/$VER -k $K61 -k $KARM"
	rc=0
	cx "$F" "$LOG" "dkms install arm_cmn_hnf/$VER -k $K61" || rc=$?
	local rc2=0
	cx "$F" "$LOG" "dkms install arm_cmn_hnf/$VER -k $KARM/aarch64" || rc2=$?
	if [ $rc = 77 ] && [ $rc2 = 0 ] && ! in_chroot "$F" -- dkms status -k "$K61" 2>/dev/null | grep -q installed &&
	   in_chroot "$F" -- dkms status -k "$KARM" 2>/dev/null | grep -q installed; then
		pass dkms/arch-restriction
	else
		fail dkms/arch-restriction "amd64 install exited $rc (want 77: skipped), arm64 exited $rc2 (want 0)"
	fi

	note "cmn-hnf switch --persistent into this system (no live change: a container has no CMN-600)"
	cx "$F" "$LOG" "cmn-hnf switch hnf --persistent --root /"
	cx "$F" "$LOG" "cat /etc/modprobe.d/arm_cmn_hnf.conf"

	note "purge; then nothing of the packages may be left"
	cx "$F" "$LOG" "dpkg -l arm-cmn-hnf-dkms cmn-hnf | tail -n 2"
	local both
	both=$(in_chroot "$F" -- dpkg-query -W -f='${Status}\n' arm-cmn-hnf-dkms cmn-hnf 2>/dev/null |
		grep -c 'install ok installed' || true)
	rc=0
	cx "$F" "$LOG" "dpkg --purge arm-cmn-hnf-dkms cmn-hnf" || rc=$?
	cx "$F" "$LOG" "dkms status; ls /usr/src /var/lib/dkms /etc/modprobe.d; find / -xdev -name '*arm_cmn_hnf*' -not -path '/proc/*'"
	snapshot "$F" "$W/dkms.after"
	{
		echo
		echo "# file list and checksums, before installing and after purging (diff):"
		{ diff "$W/dkms.before" "$W/dkms.after" || true; } | grep '^[<>]' || echo "(no difference)"
		echo "# not ours: /var/lib/dkms/mok.{key,pub} (the key DKMS made to sign modules, kept for all"
		echo "# DKMS modules), /boot/initrd.img-* (update-initramfs ran after the blacklist was removed)"
	} >> "$LOG"
	bad=$(leftovers "$W/dkms.before" "$W/dkms.after" | head -n 5 | tr '\n' ';')
	if [ "$both" = 2 ] && [ $rc = 0 ] && [ -z "$bad" ]; then
		pass dkms/purge-leaves-nothing
	else
		fail dkms/purge-leaves-nothing "$both of 2 packages installed before; purge exited $rc; left: $bad"
	fi

	note "from the source tree without packages: make dkms-install, then make dkms-uninstall
# (uname -r says $K61 again)"
	mkdir -p "$F/root/arm_cmn_hnf"
	cp -a "$S/." "$F/root/arm_cmn_hnf/"
	cp -a "$F/usr/bin/uname" "$F/usr/bin/uname.real"
	BINDS+=(-b "$W/uname:/usr/bin/uname")
	local rc3=0 rc4=0 st2
	cx "$F" "$LOG" "cd arm_cmn_hnf && CMN_HNF_DKMS_ARCH='.*' make dkms-install" || rc3=$?
	st2=$(in_chroot "$F" -- dkms status 2>/dev/null)
	cx "$F" "$LOG" "dkms status"
	cx "$F" "$LOG" "cd arm_cmn_hnf && make dkms-uninstall" || rc4=$?

	note "by hand, as on Amazon Linux 2023: make, make install, make uninstall"
	local rc5=0 rc6=0 found gone
	cx "$F" "$LOG" "cd arm_cmn_hnf && make -s && make install && modinfo -k \$(uname -r) -F filename arm_cmn_hnf" || rc5=$?
	found=$(in_chroot "$F" -- modinfo -k "$K61" -F filename arm_cmn_hnf 2>/dev/null)
	cx "$F" "$LOG" "cd arm_cmn_hnf && make uninstall && make clean" || rc6=$?
	gone=$(in_chroot "$F" -- sh -c "modinfo -k $K61 arm_cmn_hnf 2>&1 | head -n 1")
	if [ $rc5 = 0 ] && [ $rc6 = 0 ] && [ "${found#/lib/modules/$K61/updates/}" != "$found" ] &&
	   echo "$gone" | grep -q 'not found'; then
		pass dkms/make-install
	else
		fail dkms/make-install "make install exited $rc5 ('$found'), make uninstall $rc6 ('$gone')"
	fi
	note "the tool by hand: make install-tools, make uninstall-tools (nothing left in /usr/local)"
	# (Debian's /usr/local/man symlink is there before and after)
	local rc7=0 rc8=0 nbase ninst nleft
	nbase=$(in_chroot "$F" -- find /usr/local ! -type d 2>/dev/null | wc -l)
	cx "$F" "$LOG" "cd arm_cmn_hnf && make -s install-tools > /dev/null && find /usr/local ! -type d | sort && test -f /usr/local/share/cmn-hnf/grafana/cmn-hnf.json && cmn-hnf --version" || rc7=$?
	ninst=$(( $(in_chroot "$F" -- find /usr/local ! -type d 2>/dev/null | wc -l) - nbase ))
	cx "$F" "$LOG" "cd arm_cmn_hnf && make uninstall-tools && find /usr/local ! -type d && ! test -e /usr/local/share/cmn-hnf" || rc8=$?
	nleft=$(( $(in_chroot "$F" -- find /usr/local ! -type d 2>/dev/null | wc -l) - nbase ))
	if [ $rc7 = 0 ] && [ $rc8 = 0 ] && [ "$ninst" -ge 4 ] && [ "$nleft" = 0 ]; then
		pass dkms/make-install-tools
	else
		fail dkms/make-install-tools "install-tools exited $rc7 ($ninst files; 1 if no Grafana dashboard), uninstall-tools $rc8 ($nleft files left in /usr/local; 1 if /usr/local/share/cmn-hnf is left)"
	fi
	unset 'BINDS[-1]' 'BINDS[-1]'
	rm -f "$F/usr/bin/uname.real"
	cx "$F" "$LOG" "dkms status; ls /usr/src; find /lib/modules -name 'arm_cmn_hnf*'"
	left=$(in_chroot "$F" -- sh -c "ls -d /usr/src/arm_cmn_hnf* /var/lib/dkms/arm_cmn_hnf 2>/dev/null; find /lib/modules -name 'arm_cmn_hnf*'" 2>/dev/null | tr '\n' ' ')
	if [ $rc3 = 0 ] && [ $rc4 = 0 ] && echo "$st2" | grep -q "^arm_cmn_hnf/$VER, $K61, [^:]*: installed" &&
	   [ -z "$left" ]; then
		pass dkms/make-dkms-install
	else
		fail dkms/make-dkms-install "dkms-install exited $rc3, dkms-uninstall $rc4; status '$(echo "$st2" | tr '\n' ';')'; left: $left"
	fi
	in_chroot "$F" "${BINDS[@]}" -- apt-get autoclean -qq > /dev/null 2>&1 || true
	rm -rf "$F"
}

# ---- the README walks ----

t_walk() {
	local distro=$1 suite F LOG=$W/walk-$1.txt steps blk exp cmd rc
	local kver cwd=/home/admin nsteps=0 prev=0 out n0
	: > "$LOG"
	case $distro in
	debian12) suite=bookworm HOSTLABEL=debian-12 ;;
	debian11) suite=bullseye HOSTLABEL=debian-11 ;;
	*) fail "walk-$distro/setup" "unknown system"; return ;;
	esac
	steps=$(walk_steps "$distro")
	[ -n "$steps" ] || { fail "walk-$distro/readme" "README.md has no walk: block for $distro"; return; }
	# the same system as the dkms test's for Debian 12 (two kernels)
	case $suite in
	bookworm) BASE=$(pkg_chroot base12 bookworm minbase sudo linux-image-amd64 linux-image-6.12-amd64) ;;
	*) BASE=$(pkg_chroot "base-$suite" "$suite" minbase sudo linux-image-amd64) ;;
	esac
	[ -n "$BASE" ] || { fail "walk-$distro/setup" "no $suite chroot"; return; }
	F=$(pkg_fresh "walk-$distro" "$BASE")
	# the kernel linux-image-amd64 brings: the oldest series installed
	kver=$(cd "$F/lib/modules" && ls | sort -V | head -n 1)
	BINDS=(-b "$(apt_archives "$suite"):/var/cache/apt/archives")
	note "setup (not in the README): a sudo user 'admin' holding the source tree in ~/arm_cmn_hnf;
# uname -r says $kver (the container runs on the host's kernel); apt answers yes and keeps
# the .debs it downloads (in a cache kept across runs); CMN_HNF_DKMS_ARCH='.*' lets DKMS
# build on amd64"
	cat > "$F/usr/local/bin/uname" <<-EOF
	#!/bin/sh
	# the walk's stand-in: the release of the installed Debian kernel
	case "\$*" in
	-r) echo $kver ;;
	*) exec /bin/uname "\$@" ;;
	esac
	EOF
	chmod 755 "$F/usr/local/bin/uname"
	printf '%s\n' 'APT::Get::Assume-Yes "true";' \
		'Binary::apt::APT::Keep-Downloaded-Packages "true";' > "$F/etc/apt/apt.conf.d/90walk"
	printf '%s\n' 'admin ALL=(ALL) NOPASSWD: ALL' \
		'Defaults env_keep += "CMN_HNF_DKMS_ARCH"' > "$F/etc/sudoers.d/walk"
	chmod 440 "$F/etc/sudoers.d/walk"
	echo "127.0.1.1 $(hostname)" >> "$F/etc/hosts"
	in_chroot "$F" -- useradd -m -s /bin/bash admin
	echo "export CMN_HNF_DKMS_ARCH='.*'" >> "$F/home/admin/.profile"
	mkdir -p "$F/home/admin/arm_cmn_hnf"
	cp -a "$S/." "$F/home/admin/arm_cmn_hnf/"
	in_chroot "$F" -- chown -R admin:admin /home/admin/arm_cmn_hnf
	cx "$F" "$LOG" "apt-get update -qq"
	snapshot "$F" "$W/walk-$distro.before"

	# one shell per command, in the directory the previous one ended in
	# (a "cd" carries over, as in a terminal)
	local switched=0
	while IFS=$'\t' read -r blk exp cmd; do
		if [ "$blk" != "$prev" ]; then
			[ $prev = 0 ] || walk_block_result
			# before the packages go: the files of the switch
			if [ $switched = 0 ] && [[ $cmd == *"apt purge"* ]]; then
				walk_switch_root
				switched=1
			fi
			prev=$blk bfail=0 bwhy=
			note "README block $blk (expect: $exp)"
		fi
		nsteps=$((nsteps + 1))
		[ $bfail = 0 ] || continue
		rc=0
		n0=$(wc -l < "$LOG")
		CX_SHOW=$cmd CX_DIR=${cwd/#\/home\/admin/\~} \
			cx "$F" "$LOG" -u admin "cd $cwd && $cmd; r=\$?; pwd > /tmp/walk.cwd; exit \$r" || rc=$?
		cwd=$(cat "$F/tmp/walk.cwd" 2>/dev/null || echo "$cwd")
		out=$(tail -n +"$((n0 + 1))" "$LOG")
		if [ "$exp" = nohw ]; then
			# must fail, and for want of the CMN-600 or its PMU
			if [ $rc = 0 ] || [ $rc = 127 ] ||
			   ! echo "$out" | grep -qiE 'CMN-600|arm_cmn_hnf|unknown pmu|event syntax error'; then
				bfail=1 bwhy="'$cmd' exited $rc, not a missing-hardware failure"
			fi
		elif [ $rc != 0 ]; then
			bfail=1 bwhy="'$cmd' exited $rc"
			for ml in "$F"/var/lib/dkms/arm_cmn_hnf/*/build/make.log; do
				[ -f "$ml" ] || continue
				{ echo "# ${ml#"$F"} (the failed DKMS build):"; tail -n 40 "$ml"; } >> "$LOG"
			done
		fi
	done <<< "$steps"
	walk_block_result

	# "dkms status must say installed for the running kernel"
	# (DKMS 3 prints "arm_cmn_hnf/0.1, <kernel>, ...", DKMS 2.8 of Debian 11
	# "arm_cmn_hnf, 0.1, <kernel>, ...")
	if grep -qE "^arm_cmn_hnf(/|, )[^,]*, $kver, [^:]*: installed" "$LOG"; then
		pass "walk-$distro/dkms-installed-for-running-kernel"
	else
		fail "walk-$distro/dkms-installed-for-running-kernel" "no 'installed' line for $kver in dkms status"
	fi

	note "after the walk: nothing of the packages may be left outside the source tree"
	cx "$F" "$LOG" "find / -xdev \\( -path /home -o -path /proc \\) -prune -o -name '*arm_cmn_hnf*' -print; ls /etc/modprobe.d; dkms status"
	snapshot "$F" "$W/walk-$distro.after"
	{
		echo
		echo "# file list and checksums, before the README and after it (diff):"
		{ diff "$W/walk-$distro.before" "$W/walk-$distro.after" || true; } | grep '^[<>]' || echo "(no difference)"
	} >> "$LOG"
	# the README installs packages (headers, dkms, perf, ...): only ours
	# must be gone
	local left
	left=$(in_chroot "$F" -- sh -c "find / -xdev \\( -path /home -o -path /proc -o -path /var/lib/dpkg \\) -prune -o \\( -name '*arm_cmn_hnf*' -o -name 'cmn-hnf*' -o -name 'arm-cmn-hnf*' \\) -print" 2>/dev/null | tr '\n' ' ')
	if [ -z "$left" ]; then
		pass "walk-$distro/clean-after-purge"
	else
		fail "walk-$distro/clean-after-purge" "left: $left"
	fi
	echo "# $nsteps README commands" >> "$LOG"
	in_chroot "$F" "${BINDS[@]}" -- apt-get autoclean -qq > /dev/null 2>&1 || true
	rm -rf "$F"
}

# walk_switch_root: not in the README (the switch needs a CMN-600 to change
# the running system): cmn-hnf switch --persistent --root / in the walked
# system, hnf then arm_cmn (the rollback) then hnf again, so that the purge
# that follows must remove the file
walk_switch_root() {
	local conf=$F/etc/modprobe.d/arm_cmn_hnf.conf rc=0 bad=
	note "not in the README: the switch's files without a live change, --persistent --root /
# (modprobe.d file, initramfs update): to arm_cmn_hnf, back to arm_cmn, and to arm_cmn_hnf
# again, so that the purge below must remove the file"
	cx "$F" "$LOG" -u admin "sudo cmn-hnf switch hnf --persistent --root / && cat /etc/modprobe.d/arm_cmn_hnf.conf" || rc=$?
	[ $rc = 0 ] && grep -qx 'blacklist arm_cmn' "$conf" || bad="hnf (exit $rc)"
	rc=0
	cx "$F" "$LOG" -u admin "sudo cmn-hnf switch arm_cmn --persistent --root / && cat /etc/modprobe.d/arm_cmn_hnf.conf" || rc=$?
	[ $rc = 0 ] && grep -qx 'blacklist arm_cmn_hnf' "$conf" && ! grep -qx 'blacklist arm_cmn' "$conf" ||
		bad="$bad arm_cmn (exit $rc)"
	rc=0
	cx "$F" "$LOG" -u admin "sudo cmn-hnf switch hnf --persistent --root /" || rc=$?
	[ $rc = 0 ] && grep -qx 'blacklist arm_cmn' "$conf" || bad="$bad hnf-again (exit $rc)"
	if [ -z "$bad" ]; then
		pass "walk-$distro/switch-persistent-root"
	else
		fail "walk-$distro/switch-persistent-root" "wrong /etc/modprobe.d/arm_cmn_hnf.conf after:$bad"
	fi
}

walk_block_result() {
	if [ $bfail = 0 ]; then
		pass "walk-$distro/block$prev"
	else
		fail "walk-$distro/block$prev" "$bwhy"
	fi
}

for t in $TESTS; do
	case $t in
	dkms) timed "pkg-test dkms" t_dkms ;;
	walk-*) timed "pkg-test $t" t_walk "${t#walk-}" ;;
	*) fail "$t" "unknown test" ;;
	esac
done
log "pkg-test: transcripts in $W"
[ $NFAIL = 0 ]
