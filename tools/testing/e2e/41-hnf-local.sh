#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc 8x8-32hnf-4dtc
# timeout: 400
# results: 12 + 3 * hnfs + (19 if hnfs_alone > 0 and hnf_xps >= 3 else 3)
# skip: per_hnf* if hnfs_shared > 8
# skip: local64* if hnfs_alone == 0 or hnf_xps < 3
# names: model_load modprobe_arm_cmn_hnf pmu_en_idle pmu_en_counting pmu_en_after
# names: config_zero config1 config2 per_hnf/slc_miss@0x* per_hnf/slc_access@0x*
# names: per_hnf_occupancy/pocq_occupancy_write@0x* four_on_one/slc_miss@0x*
# names: four_on_one/slc_access@0x* four_on_one/mc_reqs@0x* four_on_one/sf_hit@0x*
# names: local64/*@0x* local64/slc_miss@0x* local64_offline/*@0x* local64_offline/slc_miss@0x* if hnfs_alone > 0 and hnf_xps >= 3
# names: local64 local64_offline if not (hnfs_alone > 0 and hnf_xps >= 3)
# names: local64_reread
#
# Per-HN-F counting and the driver's placement rules
# (Documentation/internals.rst, "Where an event counts"). A bynodeid event
# takes a global counter while one of the eight is free, else the four DTM
# counters of its XP as one 64-bit counter (which cannot wrap):
#   per_hnf/<alias>@<id>      slc_miss with bynodeid=1 on every HN-F of the
#                             mesh in one perf run, the HN-Fs that share an
#                             XP first (they need global counters), then
#                             the same with slc_access: every event at 100%
#                             running, every count exact. SKIP where more
#                             than 8 HN-Fs share XPs (the mesh cannot host
#                             them all at once: 8 global counters)
#   per_hnf_occupancy/...     pocq_occupancy_write on every HN-F likewise
#   four_on_one/<alias>@<id>  four events on one HN-F in one run (four
#                             global counters), exact and at 100%
#   local64/<alias>@<id>      eight bynodeid events on other HN-Fs take the
#                             eight global counters, and slc_miss on an HN-F
#                             alone on its XP gets its 64-bit counter: more
#                             than 2^32 events in one step (a 32-bit counter
#                             would lose a period), every event exact and at
#                             100%. SKIP on a mesh with no HN-F alone on its
#                             XP or fewer than three XPs with HN-Fs
#   local64_offline/...       the same set while the PMU's CPU goes offline
#                             between two steps: exact
#   local64_reread            the same set enabled one by one (the eight
#                             globals first), then the 64-bit counter's
#                             event read after each of two steps in one
#                             run (cmn-hostile seq): both reads exact, so a
#                             read takes only what came since the one
#                             before
#   pmu_en_idle, pmu_en_counting, pmu_en_after
#                             PMCR.pmu_en of the DTCs, by its effect: their
#                             cycle counters do not run (no overflow
#                             interrupt in 2^41 cycles) after probe, run while
#                             an event is open, stop after the last one closed
#   config_zero, config1, config2
#                             a non-zero config1 or config2: EINVAL, both
#                             zero: accepted (cmn-drv open)
. /e2e/lib.sh
. /e2e/lib-counts.sh

N=200000
P=$(lc_pmu 0)

check model_load model_load || finish
check modprobe_arm_cmn_hnf modprobe arm_cmn_hnf || finish
lc_pmu_wait $P || { fail registered "no $P"; finish; }
lc_set_rates 0
hnfs=$(lc_hnfs 0)
# shellcheck disable=SC2086 # word splitting wanted
set -- $hnfs
first=$1

# ---- PMCR.pmu_en, by its effect ---------------------------------------------
# (The registers cannot be read from here: the driver owns the region.) A
# DTC's 40-bit cycle counter runs only while dt_en and pmu_en are set, and
# its wrap raises an overflow interrupt, which the model counts. 2^41
# cycles wrap it at least once: no interrupt means pmu_en was clear.
BIG=2199023255552
irqs0=$(model_irqs 0)
lc_step $BIG
irqs1=$(model_irqs 0)
check_eq pmu_en_idle "$((irqs1 - irqs0))" 0
cmn-drv hold $P 0x1 0 "echo $BIG > $LC_M/step" > "$LC_TMP/en.out" 2>&1
irqs2=$(model_irqs 0)
if [ $((irqs2 - irqs1)) -gt 0 ]; then
	pass pmu_en_counting
else
	fail pmu_en_counting "no overflow interrupt in 2^41 cycles with an event open: $(cat "$LC_TMP/en.out")"
fi
lc_step $BIG
check_eq pmu_en_after "$(($(model_irqs 0) - irqs2))" 0

# ---- config1 / config2 ------------------------------------------------------
check_eq config_zero "$(cmn-drv open $P 0x1 0 0)" OK
check_eq config1 "$(cmn-drv open $P 0x1 1 0)" EINVAL
check_eq config2 "$(cmn-drv open $P 0x1 0 0x8000000000000000)" EINVAL

# ---- per-HN-F views ---------------------------------------------------------
# HN-Fs that share an XP first: they need global counters; the others get
# their XP's 64-bit counter once the global counters are taken
shared=
alone=
for n in $hnfs; do
	xp=$(lc_xp_of 0 "$n")
	c=0
	for m in $hnfs; do
		[ "$(lc_xp_of 0 "$m")" = "$xp" ] && c=$((c + 1))
	done
	if [ $c -gt 1 ]; then shared="$shared $n"; else alone="$alone $n"; fi
done
# shellcheck disable=SC2086 # word splitting wanted
nshared=$(echo $shared | wc -w)
for al in slc_miss slc_access pocq_occupancy_write; do
	pre=per_hnf
	[ $al != pocq_occupancy_write ] || pre=per_hnf_occupancy
	items=
	for n in $shared $alone; do
		items="$items $P/$al,bynodeid=1,nodeid=$n/|$al|$n"
		[ "$nshared" -le 8 ] ||
			skip "$pre/$al@$n" "$nshared HN-Fs share XPs: more than the 8 global counters"
	done
	# shellcheck disable=SC2086 # word splitting wanted
	[ "$nshared" -gt 8 ] || lc_batch_check $pre $P 0 $N $items
done

items=
for al in slc_miss slc_access mc_reqs sf_hit; do
	items="$items $P/$al,bynodeid=1,nodeid=$first/|$al|$first"
done
# shellcheck disable=SC2086 # word splitting wanted
lc_batch_check four_on_one $P 0 $N $items

# ---- the 64-bit local counter -----------------------------------------------
# Eight events on the HN-Fs other than the target take the global
# counters first: at most four on an XP (its DTM counters), one alias per
# round so that no HN-F gets one twice.
target=
for n in $alone; do
	target=$n
	break
done
fill=
nf=0
used=" "
for al in slc_access mc_reqs sf_hit cache_fill; do
	for n in $hnfs; do
		[ $nf -lt 8 ] && [ -n "$target" ] || break
		[ "$n" != "$target" ] || continue
		xp=$(lc_xp_of 0 "$n" | tr ' ' ,)
		k=$(echo "$used" | tr ' ' '\n' | grep -cx "$xp" || true)
		[ "$k" -lt 4 ] || continue
		used="$used$xp "
		fill="$fill $P/$al,bynodeid=1,nodeid=$n/|$al|$n"
		nf=$((nf + 1))
	done
done
if [ -z "$target" ] || [ $nf -lt 8 ]; then
	for c in local64 local64_offline local64_reread; do
		skip "$c" "no HN-F alone on its XP, or too few other XPs to take the 8 global counters"
	done
	rmmod arm_cmn_hnf 2>/dev/null
	finish
fi
# 4 events per cycle on the target: more than 2^32 in a step of S cycles
lc_rate 0 "node=$target event=1 rate=4000"
S=1200000000
# shellcheck disable=SC2086 # word splitting wanted
lc_batch_check local64 $P 0 $S $fill "$P/slc_miss,bynodeid=1,nodeid=$target/|slc_miss|$target"

cpu=$(lc_pmu_cpu $P)
if [ -w /sys/devices/system/cpu/cpu$cpu/online ]; then
	# shellcheck disable=SC2086 # word splitting wanted
	LC_STEP_SCRIPT="echo $S > $LC_M/step; echo 0 > /sys/devices/system/cpu/cpu$cpu/online;
		sleep 0.2; echo $S > $LC_M/step" \
		lc_batch_check local64_offline $P 0 $S $fill \
		"$P/slc_miss,bynodeid=1,nodeid=$target/|slc_miss|$target"
	echo 1 > /sys/devices/system/cpu/cpu$cpu/online
else
	fail local64_offline "cpu$cpu cannot be offlined"
fi

evs=
ons=
i=0
for it in $fill "$P/slc_miss,bynodeid=1,nodeid=$target/|slc_miss|$target"; do
	al=${it#*|}
	al=${al%%|*}
	n=${it##*|}
	e=$(lc_alias "$P" "$al" | cut -d' ' -f1)
	evs="$evs $P:$(printf '0x%x' $((e | 1 << 12 | n << 16)))@$e,-,$n"
	ons="$ons on:$i"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # word splitting wanted
out=$(cmn-hostile seq -m 0 $evs -- $ons step:$S check:8 step:$S check:8 2>&1)
echo "$out" | sed 's/^/# /'
if [ "$(echo "$out" | grep -c '^check 8 .* ok$')" = 2 ]; then
	pass local64_reread
else
	fail local64_reread "$(echo "$out" | grep '^check 8 ' | tr '\n' ' ')$(echo "$out" | tail -n 1)"
fi

rmmod arm_cmn_hnf 2>/dev/null
finish
