# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the VM harness scripts in tools/testing/vm/. Source it after
# nothing else: it sources ../lib.sh (CACHE, GUEST, OUTD, log, timed,
# resolve_kvers, fetch_debs, deb_of, kdir, fetch_headers).
#
# Guest layout under $GUEST (all from Debian arm64 .debs, dpkg -x, never
# installed):
#   $GUEST/<ABI>-arm64/image/   linux-image-<ABI>-arm64 (boot/vmlinuz-*,
#                               lib/modules/<krel>/ with modules.dep)
#   $GUEST/user/busybox/        busybox-static:arm64
#   $GUEST/user/perf/           linux-perf:arm64 + its arm64 library closure

VM="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib.sh
. "$VM/../lib.sh"
E2E="$REPO/tools/testing/e2e"
MESHDIR="$REPO/tools/testing/cmn600-model/meshes"
export VM E2E MESHDIR

QEMU_CPU=${QEMU_CPU:-max,pauth-impdef=on}
QEMU_SMP=${QEMU_SMP:-2}
QEMU_GIC=${QEMU_GIC:-3}
QEMU_EFI=${QEMU_EFI:-/usr/share/qemu-efi-aarch64/QEMU_EFI.fd}
# RAM per firmware flavour: DT carves regions out of the top of 1 GiB;
# ACPI tells Linux mem=1G and puts regions above it (see meshgen.py).
export DT_MEM_MB=1024
export ACPI_LINUX_MB=1024

# kernel_abi 6.12|6.1 -> Debian ABI (e.g. 6.12.117+deb12, 6.1.0-57)
kernel_abi() {
	resolve_kvers
	case $1 in
	6.12) echo "$KVER12" ;;
	6.1) echo "$KVER61" ;;
	*) log "unknown KERNEL '$1' (want 6.12 or 6.1)"; return 1 ;;
	esac
}

# guest_image_dir ABI: unpacked linux-image tree for that ABI
guest_image_dir() { echo "$GUEST/$1-arm64/image"; }
guest_user_dir() { echo "$GUEST/user"; }

# dump_dts OUT.dts: QEMU's own DTB for the DT boot, dumped with the SAME
# machine options boot.sh uses (CPU, SMP, GIC, memory), decompiled
dump_dts() {
	local raw
	raw=$(mktemp /tmp/cmn-hnf-virt.XXXXXX.dtb)
	qemu-system-aarch64 -M "virt,gic-version=$QEMU_GIC,dumpdtb=$raw" -cpu "$QEMU_CPU" \
		-smp "$QEMU_SMP" -m "${DT_MEM_MB}M" -nographic > /dev/null 2>&1
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
		dump_dts "$d/virt-raw.dts"
		cat "$d/virt-raw.dts" "$d/cmn.dtsi" > "$d/virt.dts"
		dtc -q -I dts -O dtb -o "$d/virt.dtb" "$d/virt.dts" > "$d/dtc.log" 2>&1 ||
			{ echo "dtc: $(tail -n 1 "$d/dtc.log")"; return 1; }
	else
		iasl -p "$d/ssdt-cmn" "$d/ssdt-cmn.asl" > "$d/iasl.log" 2>&1 ||
			{ echo "iasl: $(grep -m1 -i error "$d/iasl.log")"; return 1; }
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
		paths=(kernel etc)
	fi
	(cd "$s" && find "${paths[@]}" | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out"
	cat "$base" >> "$out"
	rm -rf "$s"
}
