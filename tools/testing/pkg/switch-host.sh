#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# switch-host.sh TOOL: host tests of "cmn-hnf switch" (TOOL is a host build
# of cmn-hnf). Prints result lines "PASS: pkg/switch/<case>".
#
# The live part runs against a fake system: a sysfs tree
# (CMN_HNF_SYSFS_ROOT), /proc/cmdline (CMN_HNF_PROC_ROOT), lib/modules
# (CMN_HNF_MODULES_ROOT) and a fake "modprobe" first in PATH that loads and
# unloads modules in that tree the way the kernel does (a loaded driver
# binds the unbound CMN-600 devices and registers one PMU per device).
# Nothing on the host changes. The real thing runs in the VM
# (tools/testing/e2e/60-switch.sh).
#
# --persistent runs against fake roots (--root): a static busybox, a fake
# update-initramfs or dracut that log their arguments, and the file
# checked with kmod's own parser (modprobe -C <dir> --showconfig).
set -uo pipefail
TOOL=$(realpath "$1")
T=$(mktemp -d /tmp/cmn-hnf-switch.XXXXXX)
trap 'rm -rf "$T"' EXIT
REL=$(uname -r)
NPASS=0
NFAIL=0

pass() { echo "PASS: pkg/switch/$1"; NPASS=$((NPASS + 1)); }
fail() {
	echo "FAIL: pkg/switch/$1: $2"
	NFAIL=$((NFAIL + 1))
	[ -f "$T/out" ] && sed 's/^/    /' "$T/out"
}

# ---- the fake system ----

mkdir -p "$T/bin"
cat > "$T/bin/modprobe" <<'EOF'
#!/bin/bash
# fake modprobe over $FAKE/sys: [-r] MODULE
S=$FAKE/sys
echo "$*" >> "$FAKE/modprobe.log"
[ -n "${FAKE_MODPROBE_FAIL:-}" ] && { echo "modprobe: FATAL: fake failure" >&2; exit 1; }
rm=0
[ "$1" = -r ] && { rm=1; shift; }
m=$1
case $m in
arm_cmn) drv=arm-cmn pmu=arm_cmn_ ;;
arm_cmn_hnf) drv=arm-cmn-hnf pmu=arm_cmn_hnf_ ;;
*) echo "modprobe: FATAL: Module $m not found" >&2; exit 1 ;;
esac
if [ $rm = 1 ]; then
	[ -d "$S/module/$m" ] || exit 0
	[ "$(cat "$S/module/$m/refcnt")" = 0 ] ||
		{ echo "modprobe: FATAL: Module $m is in use." >&2; exit 1; }
	for d in "$S"/bus/platform/devices/*; do
		[ "$(basename "$(readlink "$d/driver" 2>/dev/null)")" = "$drv" ] &&
			rm "$d/driver"
	done
	rm -rf "$S/module/$m" "$S/bus/platform/drivers/$drv"
	rm -rf "$S/bus/event_source/devices/$pmu"[0-9]*
	exit 0
fi
[ -d "$S/module/$m" ] && exit 0
mkdir -p "$S/module/$m" "$S/bus/platform/drivers/$drv"
echo live > "$S/module/$m/initstate"
echo 0 > "$S/module/$m/refcnt"
ln -s "../../../module/$m" "$S/bus/platform/drivers/$drv/module"
n=0
for d in "$S"/bus/platform/devices/*; do
	[ -L "$d/driver" ] && continue
	case $(cat "$d/modalias") in *ARMHC600*|*arm,cmn-600*) ;; *) continue ;; esac
	ln -s "../../drivers/$drv" "$d/driver"
	mkdir -p "$S/bus/event_source/devices/$pmu$n"
	n=$((n + 1))
done
EOF
chmod +x "$T/bin/modprobe"

# fake_system NAME: a fresh tree in $T/NAME, exported as the tool's roots
fake_system() {
	FAKE=$T/$1
	rm -rf "$FAKE"
	mkdir -p "$FAKE/sys/bus/platform/devices" "$FAKE/sys/bus/platform/drivers" \
		"$FAKE/sys/bus/event_source/devices" "$FAKE/sys/module" \
		"$FAKE/proc" "$FAKE/modules/$REL"
	: > "$FAKE/sys/bus/platform/drivers_probe"
	echo "BOOT_IMAGE=/vmlinuz-$REL root=/dev/vda1 ro quiet" > "$FAKE/proc/cmdline"
	printf '%s\n' "kernel/drivers/perf/arm-cmn.ko.xz:" \
		"updates/dkms/arm_cmn_hnf.ko.xz:" \
		"kernel/drivers/perf/arm_pmu.ko.xz:" > "$FAKE/modules/$REL/modules.dep"
	printf '%s\n' "kernel/drivers/perf/arm_pmuv3.ko" > "$FAKE/modules/$REL/modules.builtin"
	: > "$FAKE/modprobe.log"
	export FAKE CMN_HNF_SYSFS_ROOT=$FAKE/sys CMN_HNF_PROC_ROOT=$FAKE/proc \
		CMN_HNF_MODULES_ROOT=$FAKE/modules
}

# add_device NAME MODALIAS: a firmware-described device, unbound
add_device() {
	mkdir -p "$FAKE/sys/bus/platform/devices/$1"
	echo "$2" > "$FAKE/sys/bus/platform/devices/$1/modalias"
}

# load MODULE: the state after the kernel loaded MODULE (fake modprobe)
load() { PATH=$T/bin:$PATH modprobe "$1" && : > "$FAKE/modprobe.log"; }

# sw ARGS...: run the tool against the fake system, output in $T/out
sw() { PATH=$T/bin:$PATH "$TOOL" switch "$@" > "$T/out" 2>&1; }

driver_of() { basename "$(readlink "$FAKE/sys/bus/platform/devices/$1/driver" 2>/dev/null)" 2>/dev/null; }
calls() { paste -sd';' "$FAKE/modprobe.log"; }
has() { grep -q -- "$1" "$T/out"; }
pmus() { (cd "$FAKE/sys/bus/event_source/devices" && echo *); }

# ---- live switching ----

fake_system to_hnf
add_device ARMHC600:00 acpi:ARMHC600:
load arm_cmn
sw hnf; rc=$?
if [ $rc = 0 ] && [ "$(calls)" = "-r arm_cmn;arm_cmn_hnf" ] &&
   [ "$(driver_of ARMHC600:00)" = arm-cmn-hnf ] && [ "$(pmus)" = arm_cmn_hnf_0 ] &&
   has "ok: ARMHC600:00 bound to arm-cmn-hnf" && has "Switched to arm_cmn_hnf"; then
	pass arm_cmn_to_hnf
else
	fail arm_cmn_to_hnf "rc $rc, modprobe calls '$(calls)', driver '$(driver_of ARMHC600:00)', PMUs '$(pmus)'"
fi

: > "$FAKE/modprobe.log"
sw arm_cmn; rc=$?
if [ $rc = 0 ] && [ "$(calls)" = "-r arm_cmn_hnf;arm_cmn" ] &&
   [ "$(driver_of ARMHC600:00)" = arm-cmn ] && [ "$(pmus)" = arm_cmn_0 ] &&
   has "Switched to arm_cmn"; then
	pass hnf_to_arm_cmn
else
	fail hnf_to_arm_cmn "rc $rc, modprobe calls '$(calls)', driver '$(driver_of ARMHC600:00)', PMUs '$(pmus)'"
fi

: > "$FAKE/modprobe.log"
sw arm_cmn; rc=$?
if [ $rc = 0 ] && [ -z "$(calls)" ] && has "Switched to arm_cmn"; then
	pass already_switched
else
	fail already_switched "rc $rc, modprobe calls '$(calls)'"
fi

# two meshes, one of them described by DT, nothing loaded yet
fake_system two_meshes
add_device ARMHC600:00 acpi:ARMHC600:
add_device 50000000.pmu 'of:NpmuT(null)Carm,cmn-600'
add_device 60000000.serial 'of:NserialT(null)Carm,pl011'
sw hnf; rc=$?
if [ $rc = 0 ] && [ "$(calls)" = arm_cmn_hnf ] &&
   [ "$(driver_of ARMHC600:00)" = arm-cmn-hnf ] &&
   [ "$(driver_of 50000000.pmu)" = arm-cmn-hnf ] &&
   [ -z "$(driver_of 60000000.serial)" ] && has "2 arm_cmn_hnf_<n> PMUs for 2 devices"; then
	pass two_meshes_acpi_and_dt
else
	fail two_meshes_acpi_and_dt "rc $rc, modprobe calls '$(calls)', PMUs '$(pmus)'"
fi

# both modules loaded, arm_cmn won the race: unload it, probe the orphan
fake_system orphan
add_device ARMHC600:00 acpi:ARMHC600:
load arm_cmn
load arm_cmn_hnf
sw hnf; rc=$?
# the fake kernel does not act on drivers_probe: the write is what counts,
# and the verification must then report the unbound device
if [ "$(calls)" = "-r arm_cmn" ] &&
   [ "$(cat "$FAKE/sys/bus/platform/drivers_probe")" = ARMHC600:00 ] &&
   [ $rc = 1 ] && has "FAIL: ARMHC600:00 bound to no driver" && has "FAILED"; then
	pass probe_orphan_and_verify
else
	fail probe_orphan_and_verify "rc $rc, modprobe calls '$(calls)', drivers_probe '$(cat "$FAKE/sys/bus/platform/drivers_probe")'"
fi

# ---- refusals change nothing ----

# unchanged NAME: the fake system is as it was, and nothing was loaded
snapshot() { (cd "$FAKE/sys" && find . -printf '%p %l\n' | sort) > "$T/before"; }
unchanged() {
	(cd "$FAKE/sys" && find . -printf '%p %l\n' | sort) | cmp -s - "$T/before" &&
		[ -z "$(calls)" ] && has "Nothing was changed"
}

fake_system in_use
add_device ARMHC600:00 acpi:ARMHC600:
load arm_cmn
echo 2 > "$FAKE/sys/module/arm_cmn/refcnt"
snapshot
sw hnf; rc=$?
if [ $rc = 1 ] && unchanged && has "arm_cmn is in use (2 references"; then
	pass refuse_in_use
else
	fail refuse_in_use "rc $rc, modprobe calls '$(calls)'"
fi

fake_system builtin
add_device ARMHC600:00 acpi:ARMHC600:
echo kernel/drivers/perf/arm-cmn.ko >> "$FAKE/modules/$REL/modules.builtin"
mkdir -p "$FAKE/sys/bus/platform/drivers/arm-cmn" "$FAKE/sys/bus/event_source/devices/arm_cmn_0"
ln -s ../../drivers/arm-cmn "$FAKE/sys/bus/platform/devices/ARMHC600:00/driver"
snapshot
sw hnf --persistent; rc=$?
if [ $rc = 1 ] && unchanged && has "built into kernel" &&
   has "initcall_blacklist=arm_cmn_init" && has "grubby --update-kernel=ALL --args=initcall_blacklist=arm_cmn_init"; then
	pass refuse_builtin_explains_parameter
else
	fail refuse_builtin_explains_parameter "rc $rc, modprobe calls '$(calls)'"
fi

# built in but kept off by the parameter: hnf may own it, cannot go back live
fake_system builtin_off
add_device ARMHC600:00 acpi:ARMHC600:
echo kernel/drivers/perf/arm-cmn.ko >> "$FAKE/modules/$REL/modules.builtin"
echo "root=/dev/vda1 initcall_blacklist=foo_init,arm_cmn_init quiet" > "$FAKE/proc/cmdline"
sw hnf; rc=$?
if [ $rc = 0 ] && [ "$(calls)" = arm_cmn_hnf ] && [ "$(driver_of ARMHC600:00)" = arm-cmn-hnf ]; then
	pass builtin_blacklisted_to_hnf
else
	fail builtin_blacklisted_to_hnf "rc $rc, modprobe calls '$(calls)'"
fi
: > "$FAKE/modprobe.log"
snapshot
sw arm_cmn; rc=$?
if [ $rc = 1 ] && unchanged && has "remove initcall_blacklist=arm_cmn_init" &&
   has -- "--remove-args=initcall_blacklist=arm_cmn_init"; then
	pass refuse_builtin_blacklisted_back
else
	fail refuse_builtin_blacklisted_back "rc $rc, modprobe calls '$(calls)'"
fi

fake_system not_installed
add_device ARMHC600:00 acpi:ARMHC600:
sed -i '/arm_cmn_hnf/d' "$FAKE/modules/$REL/modules.dep"
load arm_cmn
snapshot
sw hnf; rc=$?
if [ $rc = 1 ] && unchanged && has "arm_cmn_hnf is not installed for kernel $REL"; then
	pass refuse_hnf_not_installed
else
	fail refuse_hnf_not_installed "rc $rc, modprobe calls '$(calls)'"
fi

fake_system no_arm_cmn
add_device ARMHC600:00 acpi:ARMHC600:
sed -i '/arm-cmn/d' "$FAKE/modules/$REL/modules.dep"
load arm_cmn_hnf
snapshot
sw arm_cmn; rc=$?
if [ $rc = 1 ] && unchanged && has "linux-modules-extra-$REL"; then
	pass refuse_arm_cmn_not_installed
else
	fail refuse_arm_cmn_not_installed "rc $rc, modprobe calls '$(calls)'"
fi

fake_system cmdline
add_device ARMHC600:00 acpi:ARMHC600:
echo "root=/dev/vda1 module_blacklist=arm-cmn-hnf" > "$FAKE/proc/cmdline"
load arm_cmn
snapshot
sw hnf; rc=$?
if [ $rc = 1 ] && unchanged && has "module_blacklist=arm_cmn_hnf"; then
	pass refuse_module_blacklist
else
	fail refuse_module_blacklist "rc $rc, modprobe calls '$(calls)'"
fi

fake_system no_device
snapshot
sw hnf; rc=$?
if [ $rc = 1 ] && unchanged && has "no CMN-600 device" && has "metal"; then
	pass refuse_no_device
else
	fail refuse_no_device "rc $rc"
fi

fake_system dry_run
add_device ARMHC600:00 acpi:ARMHC600:
load arm_cmn
snapshot
sw hnf -n --persistent; rc=$?
if [ $rc = 0 ] && (cd "$FAKE/sys" && find . -printf '%p %l\n' | sort) | cmp -s - "$T/before" &&
   [ -z "$(calls)" ] && has "would run: modprobe -r arm_cmn" &&
   has "would run: modprobe arm_cmn_hnf" && has "would write /etc/modprobe.d/arm_cmn_hnf.conf" &&
   has "nothing was changed"; then
	pass dry_run_changes_nothing
else
	fail dry_run_changes_nothing "rc $rc, modprobe calls '$(calls)'"
fi

fake_system modprobe_fails
add_device ARMHC600:00 acpi:ARMHC600:
load arm_cmn
FAKE_MODPROBE_FAIL=1 sw hnf; rc=$?
if [ $rc = 1 ] && has "failed: modprobe -r arm_cmn exited with 1" && [ "$(calls)" = "-r arm_cmn" ]; then
	pass modprobe_failure_reported
else
	fail modprobe_failure_reported "rc $rc, modprobe calls '$(calls)'"
fi

fake_system not_root
add_device ARMHC600:00 acpi:ARMHC600:
load arm_cmn
chmod -R a+rX "$T"
PATH=$T/bin:$PATH setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$TOOL" switch hnf > "$T/out" 2>&1; rc=$?
if [ $rc = 1 ] && [ -z "$(calls)" ] && has "needs root"; then
	pass refuse_not_root
else
	fail refuse_not_root "rc $rc, modprobe calls '$(calls)'"
fi

for bad in "" "cmn" "hnf arm_cmn" "--root /tmp hnf" "--bogus hnf"; do
	# shellcheck disable=SC2086 # word splitting wanted
	sw $bad; rc=$?
	[ $rc = 2 ] || { fail usage_errors "'switch $bad' exited $rc, want 2"; break; }
done
[ $rc = 2 ] && pass usage_errors

# ---- --persistent against fake roots ----

# fake_root NAME TOOL: $T/NAME with a static busybox and TOOL (a path such
# as /usr/sbin/update-initramfs, or "none") logging its arguments
fake_root() {
	R=$T/$1
	mkdir -p "$R/bin" "$R/etc"
	cp /bin/busybox "$R/bin/busybox"
	if [ "$2" != none ]; then
		mkdir -p "$R$(dirname "$2")"
		printf '#!/bin/busybox sh\necho "$*" >> /initramfs.log\nexit %s\n' \
			"${3:-0}" > "$R$2"
		chmod +x "$R$2"
	fi
}
CONF=etc/modprobe.d/arm_cmn_hnf.conf
# rules ROOT: the blacklist kmod reads from ROOT's modprobe.d (the rest of
# --showconfig also has the host's /proc/cmdline options)
rules() { modprobe -C "$1/etc/modprobe.d" --showconfig 2>/dev/null | grep -E '^blacklist ' | paste -sd';'; }

fake_root uit /usr/sbin/update-initramfs
sw hnf --persistent --root "$R"; rc=$?
if [ $rc = 0 ] && [ "$(rules "$R")" = "blacklist arm_cmn" ] &&
   [ "$(cat "$R/initramfs.log" 2>/dev/null)" = "-u -k all" ] &&
   has "run: chroot $R /usr/sbin/update-initramfs -u -k all"; then
	pass persistent_hnf_update_initramfs
else
	fail persistent_hnf_update_initramfs "rc $rc, rules '$(rules "$R")', initramfs '$(cat "$R/initramfs.log" 2>/dev/null)'"
fi
sw arm_cmn --persistent --root "$R"; rc=$?
if [ $rc = 0 ] && [ "$(rules "$R")" = "blacklist arm_cmn_hnf" ] &&
   [ "$(paste -sd';' "$R/initramfs.log")" = "-u -k all;-u -k all" ]; then
	pass persistent_back_to_arm_cmn
else
	fail persistent_back_to_arm_cmn "rc $rc, rules '$(rules "$R")'"
fi

fake_root dracut /usr/bin/dracut
sw hnf --persistent --root "$R"; rc=$?
if [ $rc = 0 ] && [ "$(rules "$R")" = "blacklist arm_cmn" ] &&
   [ "$(cat "$R/initramfs.log" 2>/dev/null)" = "-f --regenerate-all" ]; then
	pass persistent_dracut
else
	fail persistent_dracut "rc $rc, rules '$(rules "$R")', dracut '$(cat "$R/initramfs.log" 2>/dev/null)'"
fi

fake_root noinitramfs none
sw hnf --persistent --root "$R"; rc=$?
if [ $rc = 0 ] && [ "$(rules "$R")" = "blacklist arm_cmn" ] && has "no initramfs tool"; then
	pass persistent_without_initramfs
else
	fail persistent_without_initramfs "rc $rc, rules '$(rules "$R")'"
fi

fake_root uitfail /usr/sbin/update-initramfs 1
sw hnf --persistent --root "$R"; rc=$?
if [ $rc = 1 ] && has "failed: /usr/sbin/update-initramfs exited with 1"; then
	pass persistent_initramfs_failure
else
	fail persistent_initramfs_failure "rc $rc"
fi

fake_root dry /usr/sbin/update-initramfs
sw hnf --persistent --root "$R" --dry-run; rc=$?
if [ $rc = 0 ] && [ ! -e "$R/$CONF" ] && [ ! -e "$R/initramfs.log" ] &&
   has "would write $R/$CONF: blacklist arm_cmn"; then
	pass persistent_dry_run
else
	fail persistent_dry_run "rc $rc"
fi

sw hnf --persistent --root "$T/does-not-exist"; rc=$?
if [ $rc = 1 ] && [ ! -e "$T/does-not-exist" ] && has "not a directory"; then
	pass persistent_bad_root
else
	fail persistent_bad_root "rc $rc"
fi

echo "switch-host: $NPASS passed, $NFAIL failed" >&2
[ $NFAIL = 0 ]
