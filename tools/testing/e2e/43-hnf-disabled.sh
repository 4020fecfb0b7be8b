#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc 8x8-32hnf-4dtc
# timeout: 300
# results: 12 + 9 * min(8, 4 // max(1, hnf_xp_max))
# names: model_load ioctl/1 ioctl/2 ioctl/3 ioctl/4 ioctl/5 ioctl/6 ioctl/7
# names: hw_quiet/A hw_quiet/B interval/exact mux_rotated mux/* mux/1 mux/3
# names: mux/*/truth mux/*/hnfs
# names: mux/6 if 4 // max(1, hnf_xp_max) >= 2
# names: mux/12 if 4 // max(1, hnf_xp_max) >= 4
# race-skip: interval/exact
#
# Disabled means disabled: with the model's clock manual, events happen
# only in steps, so each step is counted by exactly the events enabled
# during it, and by nothing else.
#   ioctl/<n>           cmn-hostile seq: slc_miss over all HN-Fs (A) and
#                       sf_hit on the last HN-F (B) opened disabled; steps
#                       while A was never enabled, enabled, disabled (read
#                       only after the disable, and read while disabled), B
#                       enabled on the counters A left; each read equals
#                       the truth of the steps during which it was enabled
#                       (a stop that does not stop counts too much, a stop
#                       that does not read loses a step)
#   hw_quiet/<ev>       the model's counted totals: no DTM counter counted
#                       A's or B's events while they were disabled, and
#                       every event produced while they were enabled was
#                       counted
#   interval/exact      perf stat -I 100 around steps taken between sleeps:
#                       each interval equals the truth of the steps it
#                       contains (the intervals, in order, split the steps,
#                       in order, exactly)
#   mux/<eventid>       three times more events than fit (the first event
#                       ids of the alias list), rotated by perf every 4 ms
#                       around many short steps: each raw count equals the
#                       model's counted total of its source (nothing leaks
#                       across rotation)
#   mux/<eventid>/truth ... and the truth of every HN-F of the mesh over the
#                       windows in which the model counted the source on
#                       any HN-F (mesh0/windowed)
#   mux/<eventid>/hnfs  ... and the model counted it on every HN-F of the
#                       mesh and on no other
#   mux_rotated         perf did rotate (some event ran less than enabled)
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
	fail ioctl/registered "no $P"
	finish
fi
lc_set_rates 0
B=$(lc_hnfs 0 | tail -n 1)

# --- ioctl sequence --------------------------------------------------------
out=$(cmn-hostile seq -m 0 "$P:0x1@1" "$P:$((0x6 | 1 << 12 | B << 16))@6,-,$B" -- \
	step:100000 \
	on:0 step:200000 check:0 \
	off:0 check:0 \
	step:300000 check:0 \
	on:1 step:150000 check:1 \
	off:1 on:0 step:250000 off:0 check:0 \
	step:120000 on:0 check:0 \
	step:350000 check:0)
note "$out"
k=0
echo "$out" | grep '^check ' > "$LC_TMP/checks"
while read -r _ i got want verdict; do
	k=$((k + 1))
	if [ "$verdict" = ok ] && [ "$want" != 0 ]; then
		pass "ioctl/$k"
	else
		fail "ioctl/$k" "event $i: count $got, truth of its enabled steps $want"
	fi
done < "$LC_TMP/checks"
[ $k -eq 7 ] || fail ioctl/all "$k checks reported, want 7: $(echo "$out" | tail -n 2)"
for ev in A B; do
	i=0
	[ $ev = A ] || i=1
	l=$(echo "$out" | grep "^hardware $i ")
	case $l in
	*" ok") pass "hw_quiet/$ev" ;;
	*) fail "hw_quiet/$ev" "${l:-no hardware line}" ;;
	esac
done

# --- perf stat -I around steps ---------------------------------------------
# the truth after each step (and before the first), one line each
cat > "$LC_TMP/steps.sh" <<EOF
cmn-perf truth 0 1 > $LC_TMP/steps.t
for n in 110000 0 230000 170000 90000 310000 60000 270000 140000 200000; do
	sleep 0.13
	[ \$n = 0 ] || echo \$n > $LC_M/step
	cmn-perf truth 0 1 >> $LC_TMP/steps.t
done
sleep 0.35
EOF
if [ "${CMN_RACE_STEPS:-0}" = 1 ]; then
	skip interval/exact "race pass: a step lasts 20 ms on the race threads, so an interval can end inside one"
elif perf stat -I 100 -x, -a -e "$P/slc_miss/" -o "$LC_TMP/iv.csv" -- sh "$LC_TMP/steps.sh" \
	> "$LC_TMP/iv.out" 2>&1; then
	# step deltas, then the interval counts: the intervals must consume
	# the steps in order, each interval exactly a run of whole steps
	r=$(awk -F, '
		FNR == NR { if (FNR > 1) d[nd++] = $1 - prev; prev = $1; next }
		/^#/ || NF < 4 { next }
		{
			if ($2 !~ /^[0-9]+$/) { bad = bad " interval " ni ": " $2; ni++; next }
			c = $2; s = 0
			while (s < c && j < nd) s += d[j++]
			if (s != c) bad = bad " interval " ni ": " c " != steps " s
			ni++
		}
		END {
			if (j < nd) bad = bad " steps " j ".." nd - 1 " in no interval"
			print (bad == "" ? "ok" : "BAD" bad), ni, nd
		}' "$LC_TMP/steps.t" "$LC_TMP/iv.csv")
	note "intervals: $r; steps: $(tr '\n' ' ' < "$LC_TMP/steps.t")"
	case $r in
	ok*) pass interval/exact ;;
	*) fail interval/exact "$r" ;;
	esac
else
	fail interval/exact "perf stat: $(tail -n 2 "$LC_TMP/iv.out")"
fi

# --- rotation ---------------------------------------------------------------
per=$(lc_hnfs_per_xp_max 0)
cap=$((4 / per))
[ $cap -le 8 ] || cap=8
want=$((3 * cap))
# the first $want event ids of the alias list (one alias each; not the
# cycle counter, not occupancy, which has one filter per HN-F)
lc_list "$(lc_kind "$P")" 0 |
	awk '$2 != "cycles" && $2 != "0x0f" && !seen[$2]++ { print $1, $2 }' |
	head -n $want > "$LC_TMP/mux.al"
evs='' ids=''
while read -r _ e; do
	evs="$evs $P:$((e))"
	ids="$ids $((e))"
done < "$LC_TMP/mux.al"
echo 4 > "$LC_PMUS/$P/perf_event_mux_interval_ms"
lc_totals 0 "$LC_TMP/k0"
# shellcheck disable=SC2086 # one word per event
cmn-perf run $evs -- "for i in \$(seq 40); do echo 150000 > $LC_M/step; sleep 0.02; done" \
	> "$LC_TMP/mux.out" 2> "$LC_TMP/mux.err"
lc_totals 0 "$LC_TMP/k1"
echo 100 > "$LC_PMUS/$P/perf_event_mux_interval_ms"
note "$want events ($cap fit at once): $(tr '\n' '|' < "$LC_TMP/mux.out")"
i=0 rotated=0
for e in $ids; do
	i=$((i + 1))
	# shellcheck disable=SC2046 # word splitting wanted
	set -- $(sed -n "${i}p" "$LC_TMP/mux.out")
	got=${1:-NA} ena=${2:-0} run=${3:-0}
	al=$(sed -n "${i}p" "$LC_TMP/mux.al" | cut -d' ' -f1)
	w=$(lc_u64 sub "$(cmn-perf truth -f "$LC_TMP/k1.counted" "$e")" \
		"$(cmn-perf truth -f "$LC_TMP/k0.counted" "$e")")
	[ "$run" -lt "$ena" ] && rotated=$((rotated + 1))
	if ! is_uint "$got"; then
		fail "mux/$e" "no count: $(cat "$LC_TMP/mux.err")"
	elif [ "$got" = "$w" ] && [ "$w" != 0 ]; then
		pass "mux/$e"
	else
		fail "mux/$e" "raw count $got, counted by the hardware $w (ran $run of $ena ns)"
	fi
	lc_truth_exact "mux/$e/truth" "$got" "$P" "$al" '*' "$LC_TMP/k0.windowed" "$LC_TMP/k1.windowed"
	lc_counted_hnfs "mux/$e/hnfs" 0 "$P" "$al" '*' "$LC_TMP/k0.counted" "$LC_TMP/k1.counted"
done
check_range mux_rotated "$rotated" 1 "$want"
finish
