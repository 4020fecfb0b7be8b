#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmn-hnf top in a real terminal: tmux on the host, the tool on the fake
# PMU (cmn-hnf-fake) and the unit tests' two-mesh sysfs tree.
#
#   top-tmux.sh FAKE SYSFS_ROOT GOLDEN_DIR WORK_DIR MESH_DIR
#
# Checks, in an 80x24 pane: the screen equals GOLDEN_DIR/top-80x24.txt; hot
# cells are coloured on the absolute scale; the m key changes the metric;
# space pauses; a resize to 120x40 redraws wider; q, ^C and SIGTERM each
# give the terminal back (stty settings as before, alternate screen left);
# NO_COLOR=1 and TERM=dumb give no colour. Then, for every mesh file of
# MESH_DIR (the CMN-600 model's shipped meshes, made into sysfs trees by
# mesh-sysfs.sh), the screen at 80x24, 120x40 and 200x60 equals
# GOLDEN_DIR/top/<mesh>-<size>.txt. Prints one line saying what is wrong
# and exits 1, or exits 0. GOLDEN_UPDATE=1 writes the golden files instead
# of comparing.
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

# golden NAME: the screen now against GOLDEN_DIR/NAME.txt
golden() {
	mkdir -p "$(dirname "$D/$1.txt")"
	cap > "$D/$1.txt"
	if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
		mkdir -p "$(dirname "$GOLDEN/$1.txt")"
		cp "$D/$1.txt" "$GOLDEN/$1.txt"
	elif ! diff -u "$GOLDEN/$1.txt" "$D/$1.txt" > "$D/top.diff" 2>&1; then
		fail "$1: the screen differs from the golden file: $(grep '^[-+][^-+]' "$D/top.diff" | head -n 4 | tr '\n' '|')"
	fi
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
T send-keys -t top m
wait_for 5 screen_has "pocq_avg_latency [cycles]" || fail "m did not change the metric"
T resize-window -t top -x 120 -y 40
wait_for 5 keys_at_bottom || fail "no redraw at 120x40: $(cap | tail -n 2 | tr '\n' '|')"
T resize-window -t top -x 80 -y 24
T send-keys -t top q
ended q

# every shipped mesh at three sizes, against golden screens
for mf in "$MESHES"/*.mesh; do
	n=$(basename "$mf" .mesh)
	rm -rf "$D/trees/$n"
	"$HERE/mesh-sysfs.sh" "$mf" "$D/trees/$n" || fail "mesh-sysfs.sh $mf failed"
	T resize-window -t top -x 80 -y 24
	start_on "$D/trees/$n" TERM=xterm-256color
	for size in 80x24 120x40 200x60; do
		T resize-window -t top -x "${size%x*}" -y "${size#*x}"
		wait_for 10 keys_at_bottom || fail "$n: no redraw at $size"
		wait_for 10 stable || fail "$n at $size: the screen does not settle"
		golden "top/$n-$size"
	done
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
