#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmn-hnf top in a real terminal: tmux on the host, the tool on the fake
# PMU (cmn-hnf-fake) and the unit tests' two-mesh sysfs tree.
#
#   top-tmux.sh FAKE SYSFS_ROOT GOLDEN_DIR WORK_DIR MESH_DIR
#
# Checks, in an 80x24 pane: the screen equals GOLDEN_DIR/top-80x24.txt; hot
# cells are coloured on the absolute scale; at 60x15 the screen equals
# GOLDEN_DIR/top-60x15.txt; the m key changes the metric;
# space pauses; a resize to 120x40 redraws wider; q, ^C and SIGTERM each
# give the terminal back (stty settings as before, alternate screen left);
# NO_COLOR=1 and TERM=dumb give no colour. Then, for every mesh file of
# MESH_DIR (the CMN-600 model's shipped meshes, made into sysfs trees by
# mesh-sysfs.sh), the screen at 80x24, 120x40, 200x60 and 60x15 equals
# GOLDEN_DIR/top/<mesh>-<size>.txt; on two-mesh, the s key gives the
# shown mesh's own scale on line 2, and p the next mesh's. No screen compared with a golden file
# may have a panel's heading without a line under it. Prints one line
# saying what is wrong and exits 1, or exits 0. GOLDEN_UPDATE=1 writes the
# golden files instead of comparing (after the heading check).
set -u
FAKE=$1 ROOT=$2 GOLDEN=$3 D=$4 MESHES=$5
HERE=$(cd "$(dirname "$0")" && pwd)
SOCK="cmn-hnf-top-$$"
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
fail() { echo "$*"; T kill-server 2>/dev/null; exit 1; }
cap() { T capture-pane -p "$@" -t top; }

# wait_for SECONDS CMD...: until CMD succeeds, every 0.2 s
wait_for() {
	local n=$(($1 * 5))
	shift
	while [ $n -gt 0 ]; do
		"$@" && return 0
		sleep 0.2
		n=$((n - 1))
	done
	return 1
}
screen_has() { cap | grep -qF -- "$1"; }
screen_lacks() { ! cap | grep -qF -- "$1"; }
line2_is() { cap | sed -n 2p | grep -qE -- "$1"; }

# stable: the same screen twice, 0.5 s apart
stable() {
	local a b
	a=$(cap)
	sleep 0.5
	b=$(cap)
	[ "$a" = "$b" ]
}

# start ENV...: run top in the pane's shell, its pid in $D/pid
start() { start_on "$ROOT" "$@"; }

# start_on ROOT ENV...: the same on another sysfs tree
start_on() {
	local root=$1
	shift
	rm -f "$D/rc" "$D/pid" "$D/before" "$D/after"
	T send-keys -t top -l "stty -g > $D/before; env $* sh -c 'echo \$\$ > $D/pid; exec $FAKE --sysfs-root $root top -I 300 -m pocq_avg_occupancy slc pocq'; echo rc=\$? > $D/rc; stty -g > $D/after; clear"
	T send-keys -t top Enter
	wait_for 20 screen_has "q quit" || fail "top did not draw: $(cap | head -n 3 | tr '\n' '|')"
}

# the key bar is on the last line: top drew at the pane's size
keys_at_bottom() { cap | tail -n 1 | grep -q 'q quit'; }

# heading_alone FILE: the first heading of a panel in the screen FILE
# that has not its first line under it (the ranking's heading its first
# row, the totals' heading, the PMU's name or "all meshes" last on its
# line, its first metric), or nothing
heading_alone() {
	sed '$d' "$1" | awk '
		prev != "" {
			s = substr($0, col > 2 ? col - 2 : 1)
			if (rank)
				ok = match(s, /1 m[0-9]/) && RSTART <= 5
			else
				ok = match(s, /[a-z][a-z]/) && RSTART <= 5
			if (!ok) {
				print (rank ? "ranking: " : "totals: ") prev
				prev = ""
				exit
			}
			prev = ""
		}
		match($0, /top HN-Fs by /) { prev = $0; col = RSTART; rank = 1; next }
		match($0, /(arm_cmn_hnf_[0-9]+|all meshes) *$/) {
			prev = $0; col = RSTART; rank = 0
		}
		END { if (prev != "") print "over the key bar: " prev }' 2>&1 ||
		echo "awk failed"
}

# golden NAME: the screen now against GOLDEN_DIR/NAME.txt, and no heading
# alone on it. Top redraws every 300 ms: a screen caught in the middle of
# a redraw (a loaded machine) is taken again, up to five times, before a
# difference counts.
golden() {
	local try bad
	mkdir -p "$(dirname "$D/$1.txt")"
	for try in 1 2 3 4 5; do
		[ $try = 1 ] || sleep 0.4
		cap > "$D/$1.txt"
		bad=$(heading_alone "$D/$1.txt")
		[ -z "$bad" ] || continue
		if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
			mkdir -p "$(dirname "$GOLDEN/$1.txt")"
			cp "$D/$1.txt" "$GOLDEN/$1.txt"
			return 0
		fi
		diff -u "$GOLDEN/$1.txt" "$D/$1.txt" > "$D/top.diff" 2>&1 && return 0
	done
	[ -z "$bad" ] || fail "$1: a heading without its lines ($bad)"
	fail "$1: the screen differs from the golden file: $(grep '^[-+][^-+]' "$D/top.diff" | head -n 4 | tr '\n' '|')"
}

# ended HOW: top exited and gave the terminal back
ended() {
	wait_for 10 test -s "$D/after" || fail "$1: top did not exit: $(cap | head -n 2 | tr '\n' '|')"
	grep -q '^rc=0$' "$D/rc" || fail "$1: exit status $(cat "$D/rc")"
	cmp -s "$D/before" "$D/after" || fail "$1: terminal settings not restored"
	wait_for 5 screen_lacks "top HN-Fs by" || fail "$1: the screen was not given back"
}

mkdir -p "$D"
T new-session -d -s top -x 80 -y 24 "env -i PATH=/usr/bin:/bin HOME=$D TERM=screen PS1='$ ' bash --norc --noprofile" ||
	fail "cannot start tmux"

# 80x24, colour
start TERM=xterm-256color
wait_for 10 stable || fail "the screen does not settle"
golden top-80x24
# the absolute scale, 0 to 1 entries (0.8 rounded up): H3 (0.80) in the
# hottest step, red; H0 (0.20) in the second, cyan
cap -e | grep -q '41mH3 0.80' || fail "no colour on the hot cell: $(cap -e | grep H3 | head -n 1 | cat -v)"
cap -e | grep -q '46mH0 0.20' || fail "H0 not in the second step: $(cap -e | grep H0 | head -n 1 | cat -v)"
cap | sed -n 2p | grep -q '^pocq_avg_occupancy \[entries\]  0.00 .* 0.20 .* 0.80 .* 1.00$' ||
	fail "no scale 0 to 1 entries: $(cap | sed -n 2p)"
# space pauses the screen (and says so), again resumes
T send-keys -t top ' '
wait_for 5 screen_has "PAUSED" || fail "space did not pause: $(cap | head -n 1)"
T send-keys -t top ' '
wait_for 5 screen_lacks "PAUSED" || fail "space did not resume"
# 60x15: the map alone, no heading left without its lines
T resize-window -t top -x 60 -y 15
wait_for 5 keys_at_bottom || fail "no redraw at 60x15: $(cap | tail -n 2 | tr '\n' '|')"
wait_for 10 stable || fail "the screen does not settle at 60x15"
golden top-60x15
T resize-window -t top -x 80 -y 24
wait_for 5 keys_at_bottom || fail "no redraw at 80x24: $(cap | tail -n 2 | tr '\n' '|')"
T send-keys -t top m
wait_for 5 screen_has "pocq_avg_latency [cycles]" || fail "m did not change the metric"
T resize-window -t top -x 120 -y 40
wait_for 5 keys_at_bottom || fail "no redraw at 120x40: $(cap | tail -n 2 | tr '\n' '|')"
T resize-window -t top -x 80 -y 24
T send-keys -t top q
ended q

# every shipped mesh at four sizes, against golden screens
for mf in "$MESHES"/*.mesh; do
	n=$(basename "$mf" .mesh)
	rm -rf "$D/trees/$n"
	"$HERE/mesh-sysfs.sh" "$mf" "$D/trees/$n" || fail "mesh-sysfs.sh $mf failed"
	T resize-window -t top -x 80 -y 24
	start_on "$D/trees/$n" TERM=xterm-256color
	for size in 80x24 120x40 200x60 60x15; do
		T resize-window -t top -x "${size%x*}" -y "${size#*x}"
		wait_for 10 keys_at_bottom || fail "$n: no redraw at $size"
		wait_for 10 stable || fail "$n at $size: the screen does not settle"
		golden "top/$n-$size"
	done
	if [ "$n" = two-mesh ]; then
		# relative: line 2 is the shown mesh's own scale, mesh 0's
		# 0.40 to 0.80, then (p) mesh 1's 0.80 to 1.80
		T resize-window -t top -x 80 -y 24
		T send-keys -t top s
		wait_for 5 screen_has "relative scale" || fail "s: no relative scale"
		wait_for 5 line2_is '^pocq_avg_occupancy \[entries\]  0\.40 .* 0\.80$' ||
			fail "relative, mesh 0: $(cap | sed -n 2p)"
		T send-keys -t top p
		wait_for 5 screen_has "arm_cmn_hnf_1 (2/2, 2x2)" || fail "p: mesh 1 not shown"
		wait_for 5 line2_is '^pocq_avg_occupancy \[entries\]  0\.80 .* 1\.80$' ||
			fail "relative, mesh 1: $(cap | sed -n 2p)"
	fi
	T send-keys -t top q
	ended "$n: q"
done
T resize-window -t top -x 80 -y 24

# ^C
start TERM=xterm
T send-keys -t top C-c
ended "^C"

# SIGTERM
start TERM=xterm
kill -TERM "$(cat "$D/pid")"
ended SIGTERM

# no colour when NO_COLOR asks, or TERM is dumb
for how in NO_COLOR=1 TERM=dumb; do
	start TERM=xterm "$how"
	wait_for 5 screen_has "#H3 0.80" || fail "$how: no heat character: $(cap | grep H3 | head -n 1)"
	if cap -e | grep -q $'\033\\[4[0-7]'; then
		fail "$how: colours on the screen"
	fi
	T send-keys -t top q
	ended "$how"
done
T kill-server
exit 0
