#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: 1x1
# vcpus: parallel
# timeout: 180
# results: 6
# names: model_load clock_free race_mode armcmn_bug_read_race read_never_overcounts read_monotonic
#
# Single reads racing local counter wraps, in the model's race mode
# (Documentation/cmn600-model.rst, "Race mode": clock threads on every CPU
# move the counters while perf reads, near_wrap keeps each local counter
# close to its wrap, and a carry reaches its global counter right after the
# wrap, a little later or much later). cmn-perf race reads one aggregated
# event in a tight loop for SECS seconds and samples the model's truth
# after each read; a correct driver's count never decreases and never
# exceeds the truth delta at read time.
#   read_monotonic, read_never_overcounts   arm_cmn_hnf, not void (more
#                                           than 1000 reads, and a count)
#   armcmn_bug_read_race                    upstream arm-cmn (every kernel
#                                           here, lib-armcmn.sh has no fix
#                                           for it) reads the DTM local
#                                           counters, then the DTC global
#                                           one, without stopping the PMU:
#                                           a carry that lands in between
#                                           adds 2^16 early (transient
#                                           over-count), a carry not yet
#                                           landed after a local wrap reads
#                                           2^16 short (a count that goes
#                                           down). Race mode makes both
#                                           frequent: predicted, and PASS
#                                           only when seen (over or
#                                           nonmono above 0, in a run that
#                                           is not void)
. /e2e/lib.sh
. /e2e/lib-counts.sh

SECS=${RACE_SECS:-8}
# ~10 events per 1000 cycles at 2000 MHz: ~20 events per microsecond, far
# from 2^16 in one race iteration (20..60 us plus the iteration), so an
# early or late carry shows against the truth and as a count going down;
# near_wrap's bursts bring each local counter to its wrap.
RATE=10

check model_load model_load || finish
lc_rate 0 "node=* event=1 rate=$RATE"
check clock_free sh -c "echo 'free constant' > $LC_M/clock" || finish
check race_mode sh -c "echo 'on near_wrap' > $LC_M/mesh0/race" || finish

# upstream first
C=$(lc_cmn_pmu 0)
P=$(lc_pmu 0)
if modprobe arm-cmn && lc_pmu_wait "$C"; then
	# arm-cmn config: type (HN-F 5) in 0-15, eventid in 16-26
	r=$(cmn-perf race -s "$SECS" -m 0 -E 1 "$C:0x10005")
	note "arm-cmn: $r"
	case $r in
	reads=*)
		reads=$(lc_field "$r" reads)
		over=$(lc_field "$r" over)
		nonmono=$(lc_field "$r" nonmono)
		if [ "$reads" -le 1000 ]; then
			fail armcmn_bug_read_race "too few reads ($reads): void"
		elif [ $((over + nonmono)) -gt 0 ]; then
			pass armcmn_bug_read_race
		else
			fail armcmn_bug_read_race "predicted transient errors, none seen in $reads reads under race mode ($r)"
		fi ;;
	*) fail armcmn_bug_read_race "cmn-perf race: $r" ;;
	esac
	rmmod arm_cmn
else
	fail armcmn_bug_read_race "stock arm-cmn did not register"
fi

if modprobe arm_cmn_hnf && lc_pmu_wait "$P"; then
	r=$(cmn-perf race -s "$SECS" -m 0 -E 1 "$P:0x1")
	note "arm_cmn_hnf: $r"
	case $r in
	reads=*) ;;
	*) fail read_never_overcounts "cmn-perf race: $r"; finish ;;
	esac
	reads=$(lc_field "$r" reads)
	over=$(lc_field "$r" over)
	nonmono=$(lc_field "$r" nonmono)
	last=$(lc_field "$r" last)
	if [ "$reads" -gt 1000 ] && [ "$last" -gt 0 ]; then
		check_eq read_never_overcounts "$over" 0
		check_eq read_monotonic "$nonmono" 0 ||
			note "a count went down: a read was transiently wrong ($r)"
	else
		fail read_never_overcounts "too few reads ($reads) or nothing counted ($last): void"
	fi
	rmmod arm_cmn_hnf
else
	fail read_never_overcounts "arm_cmn_hnf did not register"
fi
note "race model: $(cat "$LC_M/mesh0/race")"
echo off > "$LC_M/mesh0/race"
echo manual > "$LC_M/clock"
finish
