# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers of the abuse tests (60-abuse-*.sh and up), after lib.sh and
# lib-counts.sh:
#
#   ab_results PREFIX FILE  turn the "check <name> ok|fail|skip <why>"
#                           lines of cmn-fuzz/cmn-stress output FILE into
#                           results PREFIX<name> (PASS, FAIL, SKIP); "#" and
#                           "total" lines become notes.
#                           Fails (result PREFIXrun) when FILE has no check.
#   ab_run PREFIX CMD...    run CMD (cmn-stress ...) into a file, then
#                           ab_results; returns CMD's status
#   ab_platform_dev         sysfs path of the arm,cmn-600/ARMHC600 device
#                           bound to arm-cmn-hnf (first one)

ab_results() {
	local __pre=$1 __f=$2 __w __n __v __why __k=0
	grep -E '^(#|total )' "$__f" | sed 's/^# //' | while IFS= read -r __w; do
		note "$__w"
	done
	while read -r __w __n __v __why; do
		[ "$__w" = check ] || continue
		__k=$((__k + 1))
		if [ "$__v" = ok ]; then
			pass "$__pre$__n"
		elif [ "$__v" = skip ]; then
			skip "$__pre$__n" "$__why"
		else
			fail "$__pre$__n" "$__why"
		fi
	done < "$__f"
	if [ $__k -eq 0 ]; then
		fail "${__pre}run" "no check reported: $(tail -n 3 "$__f" | tr '\n' ' ')"
		return 1
	fi
	return 0
}

ab_run() {
	local __pre=$1 __rc
	shift
	"$@" > "$LC_TMP/ab.out" 2>&1
	__rc=$?
	ab_results "$__pre" "$LC_TMP/ab.out"
	return $__rc
}

ab_platform_dev() {
	local __d
	for __d in /sys/bus/platform/devices/*; do
		case $(cat "$__d/modalias" 2>/dev/null) in
		*arm,cmn-600* | *ARMHC600*)
			[ "$(basename "$(readlink "$__d/driver" 2>/dev/null)")" = arm-cmn-hnf ] &&
				{ echo "$__d"; return 0; }
			;;
		esac
	done
	return 1
}
