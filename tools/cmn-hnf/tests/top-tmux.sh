#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# cmn-hnf top in a real terminal: tmux on the host, the tool on the fake
# PMU (cmn-hnf-fake) and the unit tests' two-mesh sysfs tree.
#
#   top-tmux.sh FAKE SYSFS_ROOT GOLDEN_DIR WORK_DIR
#
# Checks, in an 80x24 pane: the screen equals GOLDEN_DIR/top-80x24.txt; hot
# cells are coloured; the m key changes the metric; a resize to 120x40
# redraws wider; q, ^C and SIGTERM each give the terminal back (stty
# settings as before, alternate screen left); NO_COLOR=1 and TERM=dumb give
# no colour. Prints one line saying what is wrong and exits 1, or exits 0.
# GOLDEN_UPDATE=1 writes the golden file instead of comparing.
set -u
FAKE=$1 ROOT=$2 GOLDEN=$3 D=$4
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
start() {
	rm -f "$D/rc" "$D/pid" "$D/before" "$D/after"
	T send-keys -t top -l "stty -g > $D/before; env $* sh -c 'echo \$\$ > $D/pid; exec $FAKE --sysfs-root $ROOT top -I 300 -m pocq_avg_occupancy slc pocq'; echo rc=\$? > $D/rc; stty -g > $D/after; clear"
	T send-keys -t top Enter
	wait_for 20 screen_has "top HN-Fs by" || fail "top did not draw: $(cap | head -n 3 | tr '\n' '|')"
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
cap > "$D/top-80x24.txt"
if [ "${GOLDEN_UPDATE:-0}" = 1 ]; then
	cp "$D/top-80x24.txt" "$GOLDEN/top-80x24.txt"
elif ! diff -u "$GOLDEN/top-80x24.txt" "$D/top-80x24.txt" > "$D/top.diff"; then
	fail "80x24 screen differs from the golden file: $(grep '^[-+][^-+]' "$D/top.diff" | head -n 4 | tr '\n' '|')"
fi
# the hottest HN-F (H3, 0.80) on red, the coldest (H0) on blue
cap -e | grep -q '41mH3 0.80' || fail "no colour on the hot cell: $(cap -e | grep H3 | head -n 1 | cat -v)"
cap -e | grep -q '44mH0 0.20' || fail "no colour on the cold cell"
T send-keys -t top m
wait_for 5 screen_has "pocq_avg_latency [cycles]" || fail "m did not change the metric"
T resize-window -t top -x 120 -y 40
wait_for 5 eval 'cap | grep -q "^.\{84\}all meshes"' ||
	fail "no redraw at 120x40: $(cap | sed -n 4p)"
T resize-window -t top -x 80 -y 24
T send-keys -t top q
ended q

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
