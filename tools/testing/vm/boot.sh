#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# boot.sh: boot Debian's arm64 kernel in qemu-system-aarch64 (TCG) with an
# initramfs whose /init runs the tests and powers off.
#
# Environment:
#   KERNEL   6.12 (default), 6.1, 5.10 or 7.2
#   FW       dt (default): -m ${MEM_MB:-1024}M, -dtb $DTB (required)
#            acpi: UEFI (QEMU_EFI.fd) direct kernel boot, -m ${MEM_MB:-2048}M,
#            "acpi=force mem=1G nokaslr" appended (the SSDT travels in INITRD)
#   INITRD   initramfs (required)
#   LOG      serial log (default $OUTD/logs/boot.log)
#   TIMEOUT  seconds before qemu is killed (default 300)
#   APPEND   extra kernel command line (default "loglevel=5": warnings on
#            the console, so WARN/lockdep splats reach the log)
#   ECHO=1   also copy the serial output to stdout
#   QEMU_EXTRA  more qemu arguments
#   E2E_STARVE=1  run qemu on one host core (the last), so that its vCPUs
#            take turns: each is descheduled for milliseconds at a time, as
#            on a loaded host, on demand (a check that must not depend on
#            the host's load can be run this way)
#   QEMU_TCG  single or multi: TCG with one host thread for all vCPUs, or
#            one per vCPU (default: QEMU's, multi unless -icount)
#   NUMA=2   a two-node guest (numa_args in common.sh: -smp 2, node 0 = CPU 0
#            + the first 512 MiB, node 1 = CPU 1 + the rest of -m; QEMU then
#            puts numa-node-id in the DTB, an SRAT in the ACPI tables)
#
# Exit status: 0 when the guest printed "=== CMN-GUEST-EXIT rc=0", 124 on
# timeout, 1 otherwise. Prints "boot-to-poweroff <s>" on fd 3 and appends
# the wall time and the host CPU seconds (user + sys of qemu and the log
# pipe) to $OUTD/timings.txt; the same two numbers go to $LOG.time.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

KERNEL=${KERNEL:-6.12}
FW=${FW:-dt}
: "${INITRD:?INITRD=initramfs required}"
abi=$(kernel_abi "$KERNEL")
krel="$abi-arm64"
I=$(guest_image_dir "$abi")
LOG=${LOG:-$OUTD/logs/boot.log}
mkdir -p "$(dirname "$LOG")"
# iomem=relaxed: /dev/mem may read a bound driver's registers (Debian has
# IO_STRICT_DEVMEM), which the tests use to see the DTM counters arm-cmn
# left (lib-counts.sh lc_dtm_counter).
# rcu_cpu_stall_timeout=100: a TCG vCPU on a loaded 2-core host can go 20 s
# without running (the debug kernel's TLB flushes under KASAN most of all);
# the default 21 s reports that as an RCU stall, a boot failure. A CPU
# stuck for good is still reported, after 100 s. Likewise a task blocked
# for 300 s (not 120 s) is a hung task.
cmdline="console=ttyAMA0 rdinit=/init panic=-1 iomem=relaxed rcupdate.rcu_cpu_stall_timeout=100 sysctl.kernel.hung_task_timeout_secs=300 ${APPEND:-loglevel=5}"

args=(-M "virt,gic-version=$QEMU_GIC" -cpu "$QEMU_CPU" -smp "$QEMU_SMP"
	-nographic -no-reboot -kernel "$I/boot/vmlinuz-$krel" -initrd "$INITRD")
case $FW in
dt)
	: "${DTB:?DTB= required for FW=dt}"
	args+=(-m "${MEM_MB:-$DT_MEM_MB}M" -dtb "$DTB" -append "$cmdline")
	;;
acpi)
	args+=(-m "${MEM_MB:-2048}M" -bios "$QEMU_EFI"
		-append "acpi=force mem=${ACPI_LINUX_MB}M nokaslr $cmdline")
	;;
*)
	log "boot.sh: FW must be dt or acpi"
	exit 2
	;;
esac
if [ -n "${NUMA:-}" ]; then
	case $FW in dt) mem=${MEM_MB:-$DT_MEM_MB} ;; *) mem=${MEM_MB:-2048} ;; esac
	na=$(numa_args "$mem") || exit 2
	# shellcheck disable=SC2206
	args+=($na)
fi
# QEMU_TCG=single|multi: QEMU's TCG threading (e2e.sh: single, but for a
# "# vcpus: parallel" script's boot); unset: QEMU's default (multi, or
# single under -icount)
case ${QEMU_TCG:-} in
'') ;;
single | multi) args+=(-accel "tcg,thread=$QEMU_TCG") ;;
*)
	log "boot.sh: QEMU_TCG must be single or multi"
	exit 2
	;;
esac
# shellcheck disable=SC2206
[ -n "${QEMU_EXTRA:-}" ] && args+=($QEMU_EXTRA)

qemu=(qemu-system-aarch64)
[ "${E2E_STARVE:-0}" = 1 ] && qemu=(taskset -c "$(($(nproc) - 1))" "${qemu[@]}")
echo "${qemu[*]} ${args[*]}" > "$LOG.cmd"
t0=$(date +%s.%N)
out=/dev/null
[ "${ECHO:-0}" = 1 ] && out=/dev/stdout
# cpu_children: CPU= user + sys seconds of this shell's waited-for
# children (call it in this shell, not in $(...): a subshell has its own)
cpu_children() {
	times > "$LOG.times"
	CPU=$(awk 'NR == 2 {
		n = 0
		for (i = 1; i <= 2; i++) {
			split($i, a, /[ms]/)
			n += a[1] * 60 + a[2]
		}
		printf "%.1f\n", n
	}' "$LOG.times")
	rm -f "$LOG.times"
}
cpu_children
c0=$CPU
set +e
timeout "${TIMEOUT:-300}" "${qemu[@]}" "${args[@]}" < /dev/null 2>&1 |
	tr -d '\r' | tee "$LOG" > "$out"
rc=${PIPESTATUS[0]}
set -e
dt=$(echo "$(date +%s.%N) - $t0" | bc)
cpu_children
cpu=$(echo "$CPU - $c0" | bc)
echo "$dt $cpu" > "$LOG.time"
printf '%-44s %8.1f s  cpu %7.1f s\n' "boot-to-poweroff ${LABEL:-$KERNEL/$FW}" "$dt" "$cpu" >> "$OUTD/timings.txt"
printf 'boot %s: %.1f s\n' "${LABEL:-$KERNEL/$FW}" "$dt" >&3
[ "$rc" = 124 ] && { echo "=== HOST: TIMEOUT after ${TIMEOUT:-300} s" >> "$LOG"; exit 124; }
grep -q '^=== CMN-GUEST-EXIT rc=0' "$LOG"
