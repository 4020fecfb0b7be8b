#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# meshes: default 4x2-2dtc
# vcpus: parallel
# timeout: 300
# results: 13
# names: model_load race_mode race/reads race/monotonic race/never_over race/final_exact
# names: race_iv/sum race_iv/each race_group/reads race_group/monotonic
# names: race_group/never_over race_group/final_exact race_model/late_carry
#
# Race mode (Documentation/cmn600-model.rst, "Race mode"): the model's race
# threads move the counters continuously from every CPU while the driver
# reads, carries reach the global counters after the local wraps (often an
# iteration later) and near_wrap keeps every counting local counter close
# to its wrap, so most reads race a carry. Event: slc_miss, all HN-Fs.
#   race/reads              the reader made at least 100 reads (it goes on
#                           past SECS to 400 if it can) and the model
#                           delivered carries meanwhile (the run is not void)
#   race/monotonic          no read below the one before it
#   race/never_over         no read above the truth sampled right after it
#   race/final_exact        after the clock stopped: count == truth exactly
#   race_iv/sum             perf stat -I 10 over a racing run: the intervals
#                           add up to the truth of the run exactly (and
#                           there are at least 50 of them: not void)
#   race_iv/each            no interval above that total (a count that went
#                           down shows as a huge interval)
# A driver that reads without its consistency logic (global counters, local
# counters, global again; drop a sample behind the previous one) fails
# race/monotonic and race_iv/*.
#   race_group/reads        a group {slc_miss and slc_sf_cache_access of all
#                           HN-Fs, slc_miss of one HN-F alone (bynodeid),
#                           cycles} read whole (PERF_FORMAT_GROUP: one read
#                           transaction, one sample of the mesh for all
#                           members): not void. Sized to the mesh: each
#                           member counts in a DTM counter of every XP it
#                           covers, four per XP, so with more than two
#                           HN-Fs on the busiest XP only slc_miss covers
#                           all HN-Fs, and the lone HN-F is one of the XP
#                           with the fewest (left out when every XP with
#                           an HN-F has four)
#   race_group/monotonic    no member's read below its read before
#   race_group/never_over   no member's read above its truth after it
#   race_group/final_exact  after the clock stopped: the members of all
#                           HN-Fs == their truth exactly. Not the lone
#                           HN-F's (checked never over only: near_wrap
#                           moves one counter in bursts far beyond what
#                           the hardware can count between two polls; its
#                           exactness is 41-hnf-local's, without race mode),
#                           nor cycles, which has no truth here
#   race_model/late_carry   a /dev/mem reader sees a local wrap ahead of its
#                           carry (the model alone races)
. /e2e/lib.sh
. /e2e/lib-counts.sh

P=$(lc_pmu 0)
SECS=${RACE_SECS:-6}
# The reader runs on the PMU's CPU, so a read needs no IPI: the race
# threads keep interrupts off for whole iterations and spin on the mesh's
# lock, and on a host that deschedules the vCPU holding it an IPI waits
# for that vCPU (CI saw 76 reads in 6 s). The driver's read() runs on
# that CPU either way, racing the threads of the other CPUs. The reader
# also goes on past SECS (up to 8 * SECS) until it has made MINREADS
# reads: a starved guest's run gets longer, race/reads keeps its bar.
MINREADS=400

check model_load model_load || finish
if ! { modprobe arm_cmn_hnf && lc_pmu_wait $P; }; then
	fail race/reads "no $P"
	finish
fi
lc_set_rates 0
# A slow model clock (about 500..1700 events per ms per HN-F at these
# rates): near_wrap takes a counter close to its wrap, a later iteration
# wraps it after a few events, and its carry is often deferred by up to
# 20 ms, during which the count barely moves: a driver that takes such a
# read at face value sees its count go down by about 2^16 per HN-F.
echo 1 > "$LC_M/freq_mhz"
check race_mode sh -c "echo 'on near_wrap' > $LC_M/mesh0/race" || finish

# race_verdict PREFIX CARRIES "<cmn-hostile race output>": its four results
# (reads, monotonic, never_over, final_exact); CARRIES is the number of
# carries the model delivered meanwhile. final and truth are one value per
# event, comma-separated.
race_verdict() {
	local __p=$1 __c=$2 __r=$3 __n
	__n=$(lc_field "$__r" reads)
	if ! is_uint "$__n"; then
		fail "$__p/reads" "cmn-hostile race: $__r"
		return
	fi
	if [ "$__n" -ge 100 ] && [ "$__c" -ge 100 ]; then
		pass "$__p/reads"
	else
		fail "$__p/reads" "void run: $__n reads, $__c carries"
	fi
	check_eq "$__p/monotonic" "$(lc_field "$__r" nonmono)" 0 ||
		note "largest drop $(lc_field "$__r" maxdrop)"
	check_eq "$__p/never_over" "$(lc_field "$__r" over)" 0 ||
		note "largest excess $(lc_field "$__r" maxover)"
	case ,$(lc_field "$__r" truth), in
	*,0,*) fail "$__p/final_exact" "a truth delta is 0: nothing counted, void" ;;
	*) check_eq "$__p/final_exact" "$(lc_field "$__r" final)" "$(lc_field "$__r" truth)" ;;
	esac
}

c0=$(lc_race_stat 0 carries)
r=$(taskset -c "$(lc_pmu_cpu $P)" cmn-hostile race -s "$SECS" -n $MINREADS -m 0 1 "$P:0x1")
c1=$(lc_race_stat 0 carries)
note "arm_cmn_hnf: $r; carries $c0 -> $c1"
race_verdict race $((c1 - c0)) "$r"

# perf stat -I 10 (the shortest interval perf allows) around a racing run;
# the clock runs only inside perf's window, so the truth over the window
# is exact. Like the reader above, the run goes on past SECS (up to
# 8 * SECS) until perf has printed MINIVS intervals (it flushes each).
MINIVS=100
cat > "$LC_TMP/iv-run.sh" <<EOT
echo 'free constant' > $LC_M/clock
sleep $SECS
i=$SECS
while [ \$i -lt $((8 * SECS)) ] &&
	[ \$(grep -c '^ *[0-9]' "$LC_TMP/iv.csv") -lt $MINIVS ]; do
	sleep 1
	i=\$((i + 1))
done
echo manual > $LC_M/clock
sleep 0.5
EOT
t0=$(lc_truth 0 1)
perf stat -I 10 -x, -a -e "$P/slc_miss/" -o "$LC_TMP/iv.csv" -- \
	sh "$LC_TMP/iv-run.sh" > "$LC_TMP/iv.out" 2>&1
prc=$?
t1=$(lc_truth 0 1)
tot=$(lc_u64 sub "$t1" "$t0")
if [ $prc -ne 0 ]; then
	fail race_iv/sum "perf stat rc=$prc: $(tail -n 2 "$LC_TMP/iv.out")"
elif [ "$tot" = 0 ] || [ "$tot" -ge $((1 << 52)) ]; then
	fail race_iv/sum "truth $tot: void run, or beyond exact double arithmetic"
else
	# "time,count,unit,event,run,pct,...": sum, intervals above the
	# total, lines without a count (all exact: every value < 2^53)
	r=$(awk -F, -v tot="$tot" '
		/^#/ || NF < 4 { next }
		$2 !~ /^[0-9]+$/ { bad++; next }
		{ n++; sum += $2; if ($2 + 0 > tot + 0) { big++; if ($2 + 0 > max) max = $2 + 0 } }
		END { printf "n=%d sum=%.0f big=%d bad=%d max=%.0f\n", n, sum, big, bad, max }' \
		"$LC_TMP/iv.csv")
	note "intervals: $r, truth $tot"
	if [ "$(lc_field "$r" n)" -lt 50 ]; then
		fail race_iv/sum "void run: $r"
	else
		check_eq race_iv/sum "$(lc_field "$r" sum)" "$tot"
		check_eq race_iv/each "$(( $(lc_field "$r" big) + $(lc_field "$r" bad) ))" 0
	fi
fi

# A group read samples the whole group at once: the same race, every
# member checked on its own. The group fits the mesh's XPs (see above):
# per HN-Fs on the busiest XP, q0 on the XP of the lone HN-F n0.
per=$(lc_hnfs_per_xp_max 0)
# shellcheck disable=SC2046 # word splitting wanted
set -- $(lc_hnf_fewest 0)
q0=$1 n0=$2
# m members of all HN-Fs (two if they leave room for the lone one), then
# the lone one if its XP has a counter left
m=1
[ $((2 * per)) -le 4 ] && [ $((2 * q0 + 1)) -le 4 ] && m=2
members="1 $P:0x1"
[ $m = 1 ] || members="$members 2 $P:0x2"
[ $((m * q0 + 1)) -gt 4 ] ||
	members="$members <1,-,$n0 $P:$(printf '0x%x' $((1 | 1 << 12 | n0 << 16)))"
note "group: busiest XP $per HN-Fs, HN-F $n0 on an XP of $q0: $members - $P:0x300000000"
c0=$(lc_race_stat 0 carries)
# shellcheck disable=SC2086 # the members' words
r=$(taskset -c "$(lc_pmu_cpu $P)" cmn-hostile race -g -s "$SECS" -n $MINREADS -m 0 $members \
	- "$P:0x300000000")
c1=$(lc_race_stat 0 carries)
note "arm_cmn_hnf group: $r; carries $c0 -> $c1"
race_verdict race_group $((c1 - c0)) "$r"

rmmod arm_cmn_hnf
note "race model: $(cat "$LC_M/mesh0/race"); $(tr '\n' ' ' < "$LC_M/mesh0/irqs")"

# The model alone (no driver: /dev/mem may not touch a region a driver
# claimed): the first HN-F's slot 0 counts slc_miss into DTM counter 0 of
# its XP, paired with global counter 0, programmed by hand as in
# 05-model-selftest; a /dev/mem reader reads global, local, global in a
# loop while the race threads run.
#   race_model/late_carry   it saw a local wrap whose carry had not reached
#                           the global counter yet (the mode is not gentle)
id=$(lc_hnfs 0 | head -n 1)
b=$(lc_coord_bits 0)
base=$(lc_info 0 base)
xy=$(( ((id >> (3 + b)) << b) | ((id >> 3) & ((1 << b) - 1)) ))
p=$(( (id >> 2) & 1 )) dv=$((id & 3))
xp=$((base + (xy << 20)))
hnf=$((xp + 0x4000 * (1 + 2 * p + dv)))
devmem $((hnf + 0x2000)) 64 1
devmem $((xp + 0x2210)) 64 $((1 | 1 << 4 | (0x10 + 0x10 * p + 4 * dv) << 32))
# ctr x y addr n width value dtc global node event class
# shellcheck disable=SC2046 # word splitting wanted
set -- $(grep "^ctr [0-9]* [0-9]* 0x[0-9a-f]* 0 16 [0-9]* [0-9] 0 $id 0x01 -\$" \
	"$LC_M/mesh0/counters" | head -n 1)
d=${8:-0}
daddr=$(sed -n "s/^dtc $d addr=\(0x[0-9a-f]*\) .*/\1/p" "$LC_M/mesh0/counters")
if [ -n "$daddr" ] && [ "${4:-}" = "$(printf '0x%x' $((xp + 0x2220)))" ]; then
	devmem $((daddr + 0xa00)) 64 1
	devmem $((daddr + 0x2100)) 64 1
	echo 'free constant' > "$LC_M/clock"
	r=$(cmn-hostile regrace -s 2 $((xp + 0x2220)) 0 $((daddr + 0x2000)) 0)
	echo manual > "$LC_M/clock"
	note "/dev/mem reader of HN-F $id: $r; race model: $(cat "$LC_M/mesh0/race")"
	late=$(lc_field "$r" late)
	if is_uint "$late" && [ "$late" -gt 0 ]; then
		pass race_model/late_carry
	else
		fail race_model/late_carry "no wrap seen ahead of its carry: $r"
	fi
else
	fail race_model/late_carry "HN-F $id: counter not programmed: $(grep -v ' - - -$' "$LC_M/mesh0/counters" | tr '\n' '|' | cut -c1-300)"
fi
echo "off" > "$LC_M/mesh0/race"
finish
