#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default
# results: 5
# names: model_load driver_load abi_documented abi_not_stale abi_format
#
# The PMU's sysfs files against their ABI document,
# Documentation/ABI/testing/sysfs-bus-event_source-devices-arm_cmn_hnf
# (shipped as /e2e/abi/ by mkinitramfs.sh):
#   abi_documented   every file arm_cmn_hnf_0 has is covered by a What:
#                    line (perf core's type and perf_event_mux_interval_ms,
#                    the driver core's uevent and power/ are documented
#                    upstream)
#   abi_not_stale    every What: line matches a file
#   abi_format       the format/ table of the document is what format/
#                    holds
. /e2e/lib.sh
. /e2e/lib-counts.sh

ABI=/e2e/abi/sysfs-bus-event_source-devices-arm_cmn_hnf
P=$CMN_EVDEV/$(lc_pmu 0)
[ -f "$ABI" ] || { fail abi_documented "no $ABI in the guest"; finish; }
check model_load model_load || finish
check driver_load driver_load || finish
wait_for 2 test -d "$P" || { fail abi_documented "no PMU $(basename "$P")"; finish; }

# the What: paths, relative to the PMU directory, as shell patterns
pats=$(awk '/^What:/ { on = 1; sub(/^What:[ \t]*/, ""); print; next }
	on && /^[ \t]+\/sys\// { sub(/^[ \t]+/, ""); print; next }
	{ on = 0 }' "$ABI" |
	sed -n 's|^/sys/bus/event_source/devices/arm_cmn_hnf_<n>/||p' |
	sed 's/<event>/*/g')
note "documented: $(echo "$pats" | tr '\n' ' ')"

files=$(cd "$P" && find . -type f | sed 's|^\./||' | sort)
undoc=
for f in $files; do
	case $f in
	type|uevent|perf_event_mux_interval_ms|power/*) continue ;;
	esac
	ok=0
	for p in $pats; do
		# shellcheck disable=SC2254 # p is a pattern
		case $f in $p) ok=1; break ;; esac
	done
	[ $ok = 1 ] || undoc="$undoc $f"
done
if [ -z "$undoc" ] && [ -n "$files" ]; then
	pass abi_documented
else
	fail abi_documented "undocumented:$undoc"
fi

stale=
for p in $pats; do
	hit=0
	for f in $files; do
		# shellcheck disable=SC2254
		case $f in $p) hit=1; break ;; esac
	done
	[ $hit = 1 ] || stale="$stale $p"
done
if [ -z "$stale" ] && [ -n "$pats" ]; then
	pass abi_not_stale
else
	fail abi_not_stale "no such file:$stale"
fi

# "<tab><tab><tab>name<tab>...config:a-b" lines of the format table
bad=
n=0
for t in "$P"/format/*; do
	t=${t##*/}
	want=$(awk -v t="$t" '$1 == t && $2 ~ /^config/ { print $2 }' "$ABI")
	got=$(cat "$P/format/$t")
	n=$((n + 1))
	[ "$want" = "$got" ] || bad="$bad $t: '$got' documented as '$want';"
done
if [ -z "$bad" ] && [ $n -gt 0 ]; then
	pass abi_format
else
	fail abi_format "$bad"
fi
finish
