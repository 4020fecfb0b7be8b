#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh (make demo): build everything, boot Debian's 6.12 arm64 kernel in
# QEMU with device tree and the default mesh, run the CMN-600 model in
# "free stream" mode, load arm_cmn_hnf and show perf and cmn-hnf at work
# (tools/testing/vm/guest/demo.sh). Output goes to the terminal.
#
# Environment: KERNEL (6.12), FW (dt), MESH (default), CMN_HNF_CACHE.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

KERNEL=${KERNEL:-6.12}
FW=${FW:-dt}
MESH=${MESH:-default}
if [ -f "$MESH" ]; then
	meshfile=$MESH
else
	meshfile="$MESHDIR/$MESH.mesh"
fi
mn=$(basename "$meshfile" .mesh)

ensure_host_packages
W="$OUTD/demo"
rm -rf "$W"
mkdir -p "$W"
exec 9> "$OUTD/.build.lock"
flock 9
"$VM/fetch-guest.sh" "$KERNEL"
"$VM/build-modules.sh" "$KERNEL"
timed "mkinitramfs $KERNEL" "$VM/mkinitramfs.sh" "$KERNEL" "$W/base.cpio.zst"
flock -u 9

if ! why=$(prepare_fw "$FW" "$meshfile" "$W/fw"); then
	log "demo: $why"
	exit 1
fi
# shellcheck disable=SC1091
. "$W/fw/boot.env"
boot_initrd "$W/base.cpio.zst" "$W/demo.cpio" "$W/fw" "$FW" "$KERNEL" "$mn" none 240 \
	/vm/demo.sh
log "demo: booting $KERNEL/$FW with mesh $mn (serial log: $W/serial.log)"
rc=0
KERNEL=$KERNEL FW=$FW INITRD="$W/demo.cpio" DTB="$W/fw/virt.dtb" MEM_MB=$MEM_MB \
	LOG="$W/serial.log" LABEL="demo" TIMEOUT=300 APPEND="quiet" ECHO=1 \
	"$VM/boot.sh" | sed -u -n '/=== CMN-GUEST-INIT/,$p' || rc=$?
exit "$rc"
