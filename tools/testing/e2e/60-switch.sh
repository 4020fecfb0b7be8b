#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: two-mesh
# timeout: 300
# results: 10
# names: model_load to_arm_cmn arm_cmn_counts refused_in_use to_hnf hnf_counts
# names: back_to_arm_cmn orphan_probe persistent_hnf persistent_arm_cmn
#
# "cmn-hnf switch" on the real drivers: Debian's arm_cmn and arm_cmn_hnf,
# both matching the model's CMN-600 devices. Every direction is checked by
# the binding of each device, the PMUs, the modules loaded, and an exact
# count against the model's truth through the PMU the switch handed over:
#   to_arm_cmn             nothing loaded -> arm_cmn owns every mesh
#   arm_cmn_counts         arm_cmn_0/hnf_cache_miss/ == truth (where
#                          arm-cmn misplaces HN-Fs, the truth of the others,
#                          as 20-armcmn-crosscheck predicts)
#   refused_in_use         an open perf event on arm_cmn: exit 1, "in use",
#                          nothing changed
#   to_hnf                 arm_cmn unloaded, arm_cmn_hnf owns every mesh
#   hnf_counts             arm_cmn_hnf_0/slc_miss/ and the arm_cmn name
#                          arm_cmn_hnf_0/hnf_cache_miss/ == truth
#   back_to_arm_cmn        and back again
#   orphan_probe           both modules loaded, arm_cmn bound: the switch
#                          unloads it and binds the devices through
#                          /sys/bus/platform/drivers_probe
#   persistent_hnf         --persistent writes /etc/modprobe.d/arm_cmn_hnf.conf;
#                          a load by modalias (what udev does at boot) then
#                          brings arm_cmn_hnf only
#   persistent_arm_cmn     the same the other way
. /e2e/lib.sh
. /e2e/lib-counts.sh
. /e2e/lib-armcmn.sh

N=200000
P0=$(lc_pmu 0)
CONF=/etc/modprobe.d/arm_cmn_hnf.conf
OUT=$LC_TMP/switch.out

devices() {
	for d in /sys/bus/platform/devices/*; do
		case $(cat "$d/modalias" 2>/dev/null) in
		*arm,cmn-600*|*ARMHC600*) echo "$d" ;;
		esac
	done
}

# bound_to DRIVER: every CMN-600 device is bound to DRIVER
bound_to() {
	for d in $(devices); do
		[ "$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)" = "$1" ] ||
			return 1
	done
}

drivers_now() {
	for d in $(devices); do
		printf '%s=%s ' "$(basename "$d")" \
			"$(basename "$(readlink "$d/driver" 2>/dev/null)" 2>/dev/null)"
	done
}

loaded() { grep -q "^$1 " /proc/modules; }
modules_now() { grep -E '^arm_cmn' /proc/modules | cut -d' ' -f1 | tr '\n' ' '; }

# pmus_ok PREFIX: one PMU PREFIX<n> per mesh
pmus_ok() {
	[ "$(ls -d "$LC_PMUS/$1"[0-9]* 2>/dev/null | wc -l)" -eq "$NMESH" ]
}

unload_all() {
	loaded arm_cmn_hnf && rmmod arm_cmn_hnf
	loaded arm_cmn && rmmod arm_cmn
	return 0
}

# switched NAME TARGET DRIVER MODULE OTHER PMU-PREFIX RC: result of a switch
switched() {
	if [ "$7" = 0 ] && bound_to "$3" && loaded "$4" && ! loaded "$5" &&
	   pmus_ok "$6" && grep -q "^Switched to $4\.$" "$OUT"; then
		pass "$1"
	else
		fail "$1" "switch $2 exited $7; devices: $(drivers_now); modules: $(modules_now); $(tail -n 3 "$OUT")"
	fi
}

# counts NAME EVENT...: each EVENT (on mesh 0) counts exactly the truth of
# HN-F event 0x01 over N cycles
# counts_try EVENT...: one perf run of the events over N steps of mesh 0;
# prints nothing when each counted its truth, else why not
counts_try() {
	lc_snap 0 "$LC_TMP/s0"
	lc_perf_step "$LC_TMP/c.csv" $N "$@"
	lc_snap 0 "$LC_TMP/s1"
	__truth=$(($(lc_snap_sum "$LC_TMP/s1" 1 - '*') - $(lc_snap_sum "$LC_TMP/s0" 1 - '*')))
	__want=$__truth
	if [ -n "${ARMCMN_BAD:-}" ]; then
		# what stock arm-cmn counts where it misplaces HN-Fs (the
		# predictor of 20-armcmn-crosscheck); 0 where it misplaces
		# every HN-F (2x2)
		__want=$(LC_ARMCMN_MESH=0 LC_ARMCMN_BAD=$ARMCMN_BAD lc_armcmn_pred_good - \
			"$LC_TMP/s0" "$LC_TMP/s1" 1 - '*')
	fi
	__got=$(lc_counts "$LC_TMP/c.csv" | cut -d' ' -f1 | tr '\n' ' ')
	__ok=1
	# the mesh moved: a count of 0 proves nothing unless there was traffic
	[ "$__truth" -gt 0 ] || __ok=0
	[ "$(echo "$__got" | wc -w)" -eq $# ] || __ok=0
	for __c in $__got; do
		[ "$__c" = "$__want" ] || __ok=0
	done
	[ $__ok = 1 ] ||
		echo "counts '$__got' for $*, expected $__want (truth $__truth); $(head -c 300 "$LC_TMP/c.csv.stdout")"
}

# counts NAME EVENT...: every event counts the truth of event 0x01 of mesh 0,
# in one perf run when they fit together (an aggregated event takes one of
# the four DTM counters of an XP per HN-F there), else one run each
counts() {
	__n=$1
	shift
	__why=
	if [ $(($# * $(lc_hnfs_per_xp_max 0))) -le 4 ]; then
		__why=$(counts_try "$@")
	else
		note "$__n: $# events do not fit on one XP's DTM at once: one run each"
		for __e in "$@"; do
			[ -n "$__why" ] || __why=$(counts_try "$__e")
		done
	fi
	if [ -z "$__why" ]; then
		pass "$__n"
	else
		fail "$__n" "$__why"
	fi
}

check model_load model_load || finish
NMESH=$(lc_nmeshes)
note "meshes: $NMESH; devices: $(devices | tr '\n' ' ')"
rm -f "$CONF"
unload_all

cmn-hnf switch arm_cmn > "$OUT" 2>&1
switched to_arm_cmn arm_cmn arm-cmn arm_cmn arm_cmn_hnf arm_cmn_ $?
sed 's/^/# /' "$OUT"
lc_set_rates 0
# on a mesh whose HN-Fs arm-cmn misplaces, what it must count instead
ARMCMN_BAD=$(lc_armcmn_misplaced 0 | tr '\n' ' ')
[ -z "$ARMCMN_BAD" ] || note "arm-cmn misplaces HN-Fs $ARMCMN_BAD: their events are not counted"
counts arm_cmn_counts arm_cmn_0/hnf_cache_miss/
ARMCMN_BAD=

# an open event pins arm_cmn: refused, nothing changes
perf stat -a -e arm_cmn_0/hnf_cache_miss/ -o "$LC_TMP/busy.txt" -- \
	sh -c "cmn-hnf switch hnf > $OUT 2>&1; echo \$? > $LC_TMP/busy.rc" > /dev/null 2>&1
rc=$(cat "$LC_TMP/busy.rc")
if [ "$rc" = 1 ] && grep -q "arm_cmn is in use" "$OUT" && grep -q "Nothing was changed" "$OUT" &&
   bound_to arm-cmn && loaded arm_cmn && ! loaded arm_cmn_hnf; then
	pass refused_in_use
else
	fail refused_in_use "exit $rc; devices: $(drivers_now); modules: $(modules_now); $(tail -n 2 "$OUT")"
fi

cmn-hnf switch hnf > "$OUT" 2>&1
switched to_hnf hnf arm-cmn-hnf arm_cmn_hnf arm_cmn arm_cmn_hnf_ $?
sed 's/^/# /' "$OUT"
counts hnf_counts "$P0/slc_miss/" "$P0/hnf_cache_miss/"

cmn-hnf switch arm_cmn > "$OUT" 2>&1
switched back_to_arm_cmn arm_cmn arm-cmn arm_cmn arm_cmn_hnf arm_cmn_ $?

# arm_cmn got there first while arm_cmn_hnf is loaded too (its probe never
# ran): the switch must unload arm_cmn and have the bus probe the devices
unload_all
modprobe arm_cmn
modprobe arm_cmn_hnf
note "before: devices: $(drivers_now); modules: $(modules_now)"
cmn-hnf switch hnf > "$OUT" 2>&1
rc=$?
if grep -q "run: modprobe -r arm_cmn$" "$OUT" && grep -q "drivers_probe" "$OUT" &&
   ! grep -q "run: modprobe arm_cmn_hnf" "$OUT"; then
	switched orphan_probe hnf arm-cmn-hnf arm_cmn_hnf arm_cmn arm_cmn_hnf_ $rc
else
	fail orphan_probe "switch hnf did not take the drivers_probe path (exit $rc): $(tr '\n' ' ' < "$OUT")"
fi

# --persistent, then what udev does at boot: modprobe by the modalias
boot_load() {
	unload_all
	for d in $(devices); do
		modprobe "$(cat "$d/modalias")" 2>/dev/null
	done
}

cmn-hnf switch arm_cmn > /dev/null 2>&1
cmn-hnf switch hnf --persistent > "$OUT" 2>&1
rc=$?
rules=$(grep -v '^#' "$CONF" 2>/dev/null | tr '\n' ';')
boot_load
if [ $rc = 0 ] && [ "$rules" = "blacklist arm_cmn;" ] && bound_to arm-cmn-hnf &&
   loaded arm_cmn_hnf && ! loaded arm_cmn && pmus_ok arm_cmn_hnf_; then
	pass persistent_hnf
else
	fail persistent_hnf "exit $rc; $CONF: '$rules'; after a load by modalias: devices: $(drivers_now); modules: $(modules_now)"
fi

cmn-hnf switch arm_cmn --persistent > "$OUT" 2>&1
rc=$?
rules=$(grep -v '^#' "$CONF" 2>/dev/null | tr '\n' ';')
boot_load
if [ $rc = 0 ] && [ "$rules" = "blacklist arm_cmn_hnf;" ] && bound_to arm-cmn &&
   loaded arm_cmn && ! loaded arm_cmn_hnf && pmus_ok arm_cmn_; then
	pass persistent_arm_cmn
else
	fail persistent_arm_cmn "exit $rc; $CONF: '$rules'; after a load by modalias: devices: $(drivers_now); modules: $(modules_now)"
fi

rm -f "$CONF"
unload_all
finish
