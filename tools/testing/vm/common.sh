# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the VM harness scripts in tools/testing/vm/. Source it after
# nothing else: it sources ../lib.sh (CACHE, GUEST, OUTD, log, timed,
# kernel_abi, kernel_suite, suite_fetch, kdir, fetch_kernel_headers).
#
# Guest layout under $GUEST (all from Debian arm64 .debs, dpkg -x, never
# installed):
#   $GUEST/<ABI>-arm64/image/   the kernel's image packages (boot/vmlinuz-*,
#                               lib/modules/<krel>/ with modules.dep); the
#                               debug kernel's in image-<its build dir>/
#   $GUEST/user/busybox/        busybox-static:arm64 (the host's suite)
#   $GUEST/perf/<suite>-<ver>/  the kernel's suite's perf + its arm64
#                               library closure (guest_perf_dir)

VM="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
. "$VM/../lib.sh"
E2E="$REPO/tools/testing/e2e"
MESHDIR="$REPO/tools/testing/cmn600-model/meshes"
# Directories of guest test scripts (*.sh but lib*.sh), all shipped to /e2e
# and run by make e2e: the e2e tests and the cmn-hnf tool's guest test.
E2E_DIRS="$E2E $REPO/tools/cmn-hnf/tests/guest"
# The tests' independent alias list (shipped as /e2e/hnf-aliases.list)
ALIAS_LIST="$REPO/tools/testing/hnf-aliases.list"
# Build copies, built modules and binaries of THIS work tree: several
# checkouts (work trees) share one cache, and a build copy or module set
# of another tree must never be mixed into this one's.
OUTW="$OUTD/tree/$(basename "$REPO")-$(echo "$REPO" | sha256sum | cut -c1-8)"
mkdir -p "$OUTW"
export VM E2E MESHDIR E2E_DIRS ALIAS_LIST OUTW

# The guests' CPU is the Neoverse N1 of the servers this driver is for
# (Ampere Altra, Graviton2). Under TCG it also runs the tests about an
# eighth faster than "max" (no SVE, SME, MTE or pointer authentication to
# emulate), measured on the same two scripts and boot.
QEMU_CPU=${QEMU_CPU:-neoverse-n1}
QEMU_SMP=${QEMU_SMP:-2}
QEMU_GIC=${QEMU_GIC:-3}
QEMU_EFI=${QEMU_EFI:-/usr/share/qemu-efi-aarch64/QEMU_EFI.fd}
# RAM per firmware flavour: DT carves regions out of the top of 1 GiB;
# ACPI tells Linux mem=1G and puts regions above it (see meshgen.py).
export DT_MEM_MB=1024
export ACPI_LINUX_MB=1024

# guest_image_dir ABI: unpacked linux-image tree for that ABI. The debug
# kernel's release does not change with its config, so its tree is kept
# per build directory (one per config hash): work trees whose configs
# differ each boot their own build, even at the same time.
guest_image_dir() {
	case $1 in
	*-cmndebug) echo "$GUEST/$1-arm64/image-$(basename "$(debug_kernel_dir)")" ;;
	*) echo "$GUEST/$1-arm64/image" ;;
	esac
}
guest_user_dir() { echo "$GUEST/user"; }

# guest_perf_pkg SERIES: the Debian perf package the guest of that kernel
# runs, as PKG=VERSION: the perf of the kernel's own suite and version
# (bookworm has no 6.12 perf: 6.12 runs bookworm's 6.1 perf, as a Debian 12
# machine with the 6.12 kernel does)
guest_perf_pkg() {
	local s v
	s=$(kernel_suite "$1") || return 1
	case $s in
	host)
		v=$(apt-cache policy linux-perf:arm64 2>/dev/null |
			sed -n 's/^ *Candidate: //p')
		[ -n "$v" ] && [ "$v" != "(none)" ] ||
			{ log "no linux-perf:arm64 in the host's lists"; return 1; }
		echo "linux-perf=$v" ;;
	bullseye)
		# bullseye's perf binary is in linux-perf-5.10 (linux-perf is
		# a wrapper that picks perf_<version> by uname)
		echo "linux-perf-$1=$(kernel_pkgver "$1")" ;;
	*)
		echo "linux-perf=$(kernel_pkgver "$1")" ;;
	esac
}

# guest_perf_dir SERIES: the unpacked perf (+ its arm64 library closure) of
# that kernel's guest, keyed by suite and version
guest_perf_dir() {
	local p
	p=$(guest_perf_pkg "$1") || return 1
	echo "$GUEST/perf/$(kernel_suite "$1")-${p#*=}"
}

# guest_perf_bin DIR: the perf executable inside an unpacked perf tree
# (usr/bin/perf, or bullseye's usr/bin/perf_<major.minor>)
guest_perf_bin() {
	local f
	for f in "$1"/usr/bin/perf_[0-9]* "$1/usr/bin/perf"; do
		[ -f "$f" ] && file -b "$f" | grep -q '^ELF' && { echo "$f"; return 0; }
	done
	log "no perf executable in $1"
	return 1
}

# numa_args MEM_MB: with NUMA=2 in the environment, the qemu arguments for
# a two-node guest (one CPU per node; node 0 gets the first 512 MiB of RAM,
# node 1 the rest, so with ACPI's mem=1G both nodes still have memory in
# Linux and the mesh regions, at the top of 1 GiB (DT) or above it (ACPI),
# lie in node 1). Nothing without NUMA. Fails for other NUMA values.
numa_args() {
	case ${NUMA:-} in
	'') return 0 ;;
	2) ;;
	*) log "NUMA=$NUMA: only NUMA=2 is supported"; return 1 ;;
	esac
	[ "$1" -gt 512 ] || { log "NUMA=2 needs more than 512 MiB"; return 1; }
	echo "-smp 2 -object memory-backend-ram,id=m0,size=512M" \
		"-object memory-backend-ram,id=m1,size=$(($1 - 512))M" \
		"-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,cpus=1,memdev=m1"
}

# numa_srat_asl MEM_MB: (NUMA=2, ACPI) the source of an SRAT that replaces
# QEMU's own (same OEM ID and table ID, higher OEM revision: the kernel's
# initrd table upgrade, like the mesh SSDT). QEMU's SRAT lists only RAM, but
# EDK2 reports the virt flash at 0x04000000 as WC memory, which Linux adds to
# memblock (nomap); uncovered by any node, Linux gives up on NUMA ("no nodes
# coverage") and fakes one node. This SRAT is QEMU's layout (GICC: CPU n in
# node n; node 1 = RAM from 0x60000000) with node 0 starting at 0, so that
# it covers the flash as well.
_srat_gicc() { # NODE: CPU NODE (ACPI processor UID = MPIDR Aff0 on virt)
	printf '[0001] Subtable Type : 03\n[0001] Length : 12\n'
	printf '[0004] Proximity Domain : %08X\n[0004] Acpi Processor UID : %08X\n' "$1" "$1"
	printf '[0004] Flags (decoded below) : 00000001\n Enabled : 1\n'
	printf '[0004] Clock Domain : 00000000\n\n'
}
_srat_mem() { # NODE BASE LENGTH
	printf '[0001] Subtable Type : 01\n[0001] Length : 28\n'
	printf '[0004] Proximity Domain : %08X\n[0002] Reserved1 : 0000\n' "$1"
	printf '[0008] Base Address : %016X\n[0008] Address Length : %016X\n' "$2" "$3"
	printf '[0004] Reserved2 : 00000000\n[0004] Flags (decoded below) : 00000001\n'
	printf ' Enabled : 1\n Hot Pluggable : 0\n Non-Volatile : 0\n'
	printf '[0008] Reserved3 : 0000000000000000\n\n'
}
numa_srat_asl() {
	cat <<-HDR
		/* SRAT for a NUMA=2 guest of $1 MiB (common.sh numa_srat_asl) */
		[0004] Signature : "SRAT"
		[0004] Table Length : 00000000
		[0001] Revision : 03
		[0001] Checksum : 00
		[0006] Oem ID : "BOCHS "
		[0008] Oem Table ID : "BXPC    "
		[0004] Oem Revision : 00000002
		[0004] Asl Compiler ID : "INTL"
		[0004] Asl Compiler Revision : 00000000
		[0004] Table Revision : 00000001
		[0008] Reserved : 0000000000000000

	HDR
	_srat_gicc 0
	_srat_gicc 1
	_srat_mem 0 0 $((0x60000000))
	_srat_mem 1 $((0x60000000)) $((($1 - 512) << 20))
}

# dump_dts OUT.dts: QEMU's own DTB for the DT boot, dumped with the SAME
# machine options boot.sh uses (CPU, SMP, GIC, memory, NUMA), decompiled
dump_dts() {
	local raw na
	na=$(numa_args "$DT_MEM_MB") || return 1
	raw=$(mktemp /tmp/cmn-hnf-virt.XXXXXX.dtb)
	# shellcheck disable=SC2086
	qemu-system-aarch64 -M "virt,gic-version=$QEMU_GIC,dumpdtb=$raw" -cpu "$QEMU_CPU" \
		-smp "$QEMU_SMP" -m "${DT_MEM_MB}M" $na -nographic > /dev/null 2>&1
	dtc -q -I dtb -O dts -o "$1" "$raw"
	rm -f "$raw"
}

# prepare_fw FW MESHFILE DIR: meshgen.py for FW into DIR (mesh, boot.env,
# cmn.dtsi or ssdt-cmn.asl), then DIR/virt.dtb (QEMU's dumped DTB + the
# meshes) or DIR/ssdt-cmn.aml (iasl). Done once per DIR. On failure prints
# one line why on stdout and returns 1.
prepare_fw() {
	local fw=$1 src=$2 d=$3
	[ -f "$d/.ok" ] && return 0
	[ -f "$src" ] || { echo "mesh file $src does not exist"; return 1; }
	mkdir -p "$d"
	"$VM/meshgen.py" --fw "$fw" --out-dir "$d" "$src" > "$d/meshgen.log" 2>&1 ||
		{ echo "meshgen: $(tail -n 1 "$d/meshgen.log")"; return 1; }
	if [ "$fw" = dt ]; then
		dump_dts "$d/virt-raw.dts" || { echo "dump_dts failed (NUMA=${NUMA:-})"; return 1; }
		cat "$d/virt-raw.dts" "$d/cmn.dtsi" > "$d/virt.dts"
		dtc -q -I dts -O dtb -o "$d/virt.dtb" "$d/virt.dts" > "$d/dtc.log" 2>&1 ||
			{ echo "dtc: $(tail -n 1 "$d/dtc.log")"; return 1; }
	else
		iasl -p "$d/ssdt-cmn" "$d/ssdt-cmn.asl" > "$d/iasl.log" 2>&1 ||
			{ echo "iasl: $(grep -m1 -i error "$d/iasl.log")"; return 1; }
		if [ -n "${NUMA:-}" ]; then
			numa_args 2048 > /dev/null || { echo "NUMA=$NUMA unsupported"; return 1; }
			numa_srat_asl "$(sed -n 's/^MEM_MB=//p' "$d/boot.env")" > "$d/srat-numa.asl"
			iasl -p "$d/srat-numa" "$d/srat-numa.asl" > "$d/iasl-srat.log" 2>&1 ||
				{ echo "iasl srat: $(grep -m1 -i error "$d/iasl-srat.log")"; return 1; }
		fi
	fi
	touch "$d/.ok"
}

# boot_initrd BASE OUT FWDIR FW KERNEL MESHNAME FAULT TIMEOUT SCRIPT...:
# OUT = a small uncompressed cpio with the per-boot files followed by BASE
# (mkinitramfs.sh). /etc/cmn/mesh is FWDIR's resolved mesh, /etc/cmn/run.conf
# tells /init what to run; for ACPI the SSDT goes to kernel/firmware/acpi/ in
# this first, uncompressed archive (CONFIG_ACPI_TABLE_UPGRADE wants it there).
boot_initrd() {
	local base=$1 out=$2 fwd=$3 fw=$4 k=$5 mn=$6 flt=$7 to=$8 s
	shift 8
	s=$(mktemp -d /tmp/cmn-hnf-stage.XXXXXX)
	mkdir -p "$s/etc/cmn"
	cp "$fwd/mesh" "$s/etc/cmn/mesh"
	[ "$flt" = none ] && flt=
	cat > "$s/etc/cmn/run.conf" <<-CONF
		CMN_TESTS="$*"
		CMN_KERNEL=$k
		CMN_FW=$fw
		CMN_MESH_NAME=$mn
		CMN_FAULT=$flt
		CMN_TIMEOUT=$to
	CONF
	local paths=(etc)
	if [ "$fw" = acpi ]; then
		mkdir -p "$s/kernel/firmware/acpi"
		cp "$fwd/ssdt-cmn.aml" "$s/kernel/firmware/acpi/"
		# NUMA boots: the SRAT that replaces QEMU's (numa_srat_asl)
		[ -f "$fwd/srat-numa.aml" ] && cp "$fwd/srat-numa.aml" "$s/kernel/firmware/acpi/"
		paths=(kernel etc)
	fi
	(cd "$s" && find "${paths[@]}" | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
	cat "$base" >> "$out"
	rm -rf "$s"
}
