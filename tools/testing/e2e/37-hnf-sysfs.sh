#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc two-mesh
# subset: two-mesh
# timeout: 300
# results: 34 + hnfs + sum(m.aliases + 1 for m in mesh)
# skip: parent if kernel in ("5.10", "6.1")
# skip: e_other_mesh if nmesh < 2
# names: model_load owner_msg modprobe registered fmt_eventid fmt_occupid fmt_bynodeid
# names: fmt_nodeid fmt_type list/* list/slc_miss list/dtc_cycles list_extra mesh dtcs
# names: hnfs_lines hnfs_has_0x* cpumask_online parent e_sampling perfcore_e_task
# names: perfcore_e_exclude e_eventid0 e_eventid20 e_occ_other e_occ5 e_notnode e_type7
# names: ok_cycles e_2cycles ok_sw_group ok_sw_sib e_hw_group ok_nine e_other_mesh
# names: rmmod gone reload reregistered
# names: mesh1/list/* mesh1/list/slc_miss mesh1/list_extra if nmesh > 1
# names: mesh[2-9]/list/* mesh[2-9]/list_extra if nmesh > 2
#
# The driver's sysfs ABI and probe behaviour:
#   owner_msg             the one-line message when the stock arm-cmn
#                         already owns the device
#   fmt_*                 format/ strings as documented in internals.rst
#   [mesh<i>/]list/<name> every alias of the tests' own list is published by
#                         that mesh's PMU with the list's encoding, .scale
#                         and .unit (a missing or wrongly encoded alias
#                         fails)
#   [mesh<i>/]list_extra  the PMU publishes no alias beyond the list
#   mesh, dtcs, hnfs_*    the topology files against the model's description
#   cpumask_online        the cpumask is one online CPU
#   parent                the PMU's parent device (struct pmu.parent, 6.5+;
#                         SKIP on older kernels)
#   e_*, ok_*             event_init errnos (perfcore_*: the core enforces
#                         them), e_other_mesh: a group across two meshes'
#                         PMUs (SKIP with one mesh)
#   rmmod, gone, reload, reregistered   unload and reload
. /e2e/lib.sh
. /e2e/lib-counts.sh
P=$(lc_pmu 0)
D=/sys/bus/event_source/devices/$P
check model_load model_load || finish
# arm-cmn first: it must own the device, and we must say so
modprobe arm-cmn 2>/dev/null
if pmu_exists "$(lc_cmn_pmu 0)"; then
	modprobe arm_cmn_hnf
	n=$(dmesg | grep -c 'is owned by arm-cmn; rmmod arm_cmn')
	check_eq owner_msg "$n" "$(mesh_count)"
	dmesg | grep 'owned by' | sed 's/^/# /'
	rmmod arm_cmn_hnf; rmmod arm_cmn
else
	fail owner_msg "arm_cmn did not bind"
	rmmod arm_cmn 2>/dev/null
fi
check modprobe modprobe arm_cmn_hnf || finish
if lc_pmu_wait "$P"; then
	pass registered
else
	fail registered "no $P"
	finish
fi
dmesg | grep -i 'arm_cmn_hnf\|cmn-hnf\|\.cmn\|ARMHC600' | sed 's/^/# /'
check_eq fmt_eventid "$(cat "$D/format/eventid")" config:0-7
check_eq fmt_occupid "$(cat "$D/format/occupid")" config:8-11
check_eq fmt_bynodeid "$(cat "$D/format/bynodeid")" config:12
check_eq fmt_nodeid "$(cat "$D/format/nodeid")" config:16-31
check_eq fmt_type "$(cat "$D/format/type")" config:32-35

# sysfs_alias FILE: "kind eventid occupid" of an events/ file, normalised
# (kind hnf or cycles; occupid 0 when absent, as attr.config encodes it)
sysfs_alias() {
	local kv ev=- oc=0 ty=0
	for kv in $(tr ',' ' ' < "$1"); do
		case $kv in
		eventid=*) ev=$((${kv#eventid=})) ;;
		occupid=*) oc=$((${kv#occupid=})) ;;
		type=*) ty=$((${kv#type=})) ;;
		*) ev="?$kv" ;;
		esac
	done
	case $ty in 3) echo "cycles - 0" ;; 0 | 5) echo "hnf $ev $oc" ;; *) echo "type$ty $ev $oc" ;; esac
}

m=0
while [ $m -lt "$(mesh_count)" ]; do
	p=$(lc_pmu $m)
	d=/sys/bus/event_source/devices/$p
	pre=
	[ $m -eq 0 ] || pre=mesh$m/
	lc_pmu_wait "$p"
	lc_list hnf $m > "$LC_TMP/list.$m"
	while read -r name ev oc sc un; do
		f=$d/events/$name
		if [ ! -r "$f" ]; then
			fail "${pre}list/$name" "$p has no alias $name"
			continue
		fi
		if [ "$ev" = cycles ]; then
			want="cycles - 0"
		else
			[ "$oc" = - ] && oc=0
			want="hnf $(($ev)) $oc"
		fi
		got=$(sysfs_alias "$f")
		gsc=-
		[ -e "$f.scale" ] && gsc=$(cat "$f.scale")
		gun=-
		[ -e "$f.unit" ] && gun=$(cat "$f.unit")
		if [ "$got" != "$want" ]; then
			fail "${pre}list/$name" "'$(cat "$f")' is ($got), the list says ($want)"
		elif [ "$gsc" != "$sc" ] || [ "$gun" != "$un" ]; then
			fail "${pre}list/$name" "scale '$gsc' unit '$gun', the list says '$sc' '$un'"
		else
			pass "${pre}list/$name"
		fi
	done < "$LC_TMP/list.$m"
	extra=
	for f in "$d"/events/*; do
		a=${f##*/}
		case $a in *.scale | *.unit) a=${a%.*} ;; esac
		grep -q "^$a " "$LC_TMP/list.$m" || extra="$extra ${f##*/}"
	done
	if [ -z "$extra" ]; then
		pass "${pre}list_extra"
	else
		fail "${pre}list_extra" "$p publishes what the list does not have:$extra"
	fi
	m=$((m + 1))
done

rev=$(model_info 0 rev)
note "model rev '$rev' identifier $(cat "$D/identifier")"
check_eq mesh "$(cat "$D/mesh")" "$(model_info 0 x) $(model_info 0 y)"
check_eq dtcs "$(cat "$D/dtcs")" "$(model_info 0 dtcs)"
check_eq hnfs_lines "$(($(wc -l < "$D/hnfs") - 1))" "$(model_info 0 hnfs)"
sed 's/^/# /' "$D/hnfs"
for n in $(lc_hnfs 0); do
	if grep -q " $(printf '0x%04x' "$n") " "$D/hnfs"; then
		pass "hnfs_has_$n"
	else
		fail "hnfs_has_$n" "missing"
	fi
done
c=$(cat "$D/cpumask")
if lc_cpu_online "$c"; then
	pass cpumask_online
else
	fail cpumask_online "cpumask '$c' is not one online CPU (online: $(cat /sys/devices/system/cpu/online))"
fi
case $(uname -r) in
[1-5].* | 6.[0-4].*) skip parent "no struct pmu.parent before 6.5: no parent device" ;;
*) check_eq parent "$(basename "$(readlink -f "$D/..")" | grep -c 'cmn\|ARMHC600')" 1 ;;
esac
readlink -f "$D" | sed 's/^/# path /'
# errnos
check_eq e_sampling "$(cmn-perf open -P 1000 "$P:1")" "EOPNOTSUPP 0"
check_eq perfcore_e_task "$(cmn-perf open -p $$ -c -1 "$P:1")" "EINVAL 0"
check_eq perfcore_e_exclude "$(cmn-perf open -x user "$P:1")" "EINVAL 0"
check_eq e_eventid0 "$(cmn-perf open "$P:0")" "EINVAL 0"
check_eq e_eventid20 "$(cmn-perf open "$P:0x20")" "EINVAL 0"
check_eq e_occ_other "$(cmn-perf open "$P:0x201")" "EINVAL 0"
check_eq e_occ5 "$(cmn-perf open "$P:0x50f")" "EINVAL 0"
unused=
for id in 0 7 3 15 0x1ff; do
	lc_hnfs 0 | grep -qx "$(printf '0x%x' $((id)))" && continue
	unused=$((id))
	break
done
check_eq e_notnode "$(cmn-perf open "$P:$(printf '0x%x' $((0x1001 | (unused << 16))))")" "EINVAL 0"
check_eq e_type7 "$(cmn-perf open "$P:0x700000001")" "EINVAL 0"
check_eq ok_cycles "$(cmn-perf open "$P:0x300000000")" OK
check_eq e_2cycles "$(cmn-perf open -g "$P:0x300000000" "$P:0x300000000")" "EINVAL 1"
check_eq ok_sw_group "$(cmn-perf open -g sw:0 "$P:1")" OK
check_eq ok_sw_sib "$(cmn-perf open -g "$P:1" sw:0)" OK
hw=$(cmn-perf open hw:0)
if [ "$hw" = OK ]; then
	check_eq e_hw_group "$(cmn-perf open -g hw:0 "$P:1")" "EINVAL 1"
else
	fail e_hw_group "a hardware cycles event does not open alone: $hw"
fi
evs=
for i in 1 2 3 4 5 6 7 8 9; do evs="$evs $P:$i"; done
# 9 single events: all open (what does not fit multiplexes)
# shellcheck disable=SC2086
check_eq ok_nine "$(cmn-perf open $evs)" OK
# another instance's event in the group
if [ "$(mesh_count)" -ge 2 ]; then
	check_eq e_other_mesh "$(cmn-perf open -g "$P:1" "$(lc_pmu 1):1")" "EINVAL 1"
else
	skip e_other_mesh "one mesh: no other PMU instance"
fi
check rmmod rmmod arm_cmn_hnf
check_eq gone "$(pmu_exists "$P" && echo yes || echo no)" no
check reload modprobe arm_cmn_hnf
if lc_pmu_wait "$P"; then pass reregistered; else fail reregistered "no $P"; fi
rmmod arm_cmn_hnf
finish
