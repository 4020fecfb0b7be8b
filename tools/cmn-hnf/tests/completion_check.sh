#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# completion_check.sh COMPLETION TOOL: the bash completion of cmn-hnf,
# driven the way bash drives it (COMP_WORDS, COMP_CWORD), with TOOL as the
# cmn-hnf in PATH. Prints one line saying what is wrong and exits 1.
set -u
COMPLETION=$1 TOOL=$2
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
ln -s "$TOOL" "$D/cmn-hnf"
PATH="$D:$PATH"
# shellcheck source=/dev/null
. "$COMPLETION"

# comp WORD...: the completions of the last word
comp() {
	COMP_WORDS=("$@")
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_cmn_hnf
	printf '%s\n' "${COMPREPLY[@]}" | sort -u | tr '\n' ' '
}

# expect WANT WORD...: the completions are exactly WANT
expect() {
	local want=$1 got
	shift
	got=$(comp "$@")
	[ "$got" = "$want " ] || { echo "'$*': got '$got', want '$want'"; exit 1; }
}

complete -p cmn-hnf 2>/dev/null | grep -q -- '-F _cmn_hnf' ||
	{ echo "no 'complete -F _cmn_hnf cmn-hnf'"; exit 1; }
expect "stat" cmn-hnf st
expect "top topo" cmn-hnf to
expect "stat" cmn-hnf --sysfs-root /tmp st
expect "--per-hnf --print-perf --prometheus" cmn-hnf stat --p
expect "slc_miss_rate" cmn-hnf stat -I 100 slc_m
expect "pocq_avg_latency pocq_avg_occupancy" cmn-hnf top --metric pocq_avg
expect "perf-json" cmn-hnf metrics --format p
expect "sf_back_invals_per_1k_accesses sf_hit_rate" cmn-hnf report --rank sf_
expect "echo" cmn-hnf stat slc -- ech
expect "arm_cmn" cmn-hnf switch arm
expect "hnf" cmn-hnf switch --persistent h
# every option of every command, and nothing else
for cmd in $("$TOOL" --help | sed -n 's/^  \([a-z]\{2,\}\)  .*/\1/p'); do
	got=$(comp cmn-hnf "$cmd" -)
	want=$("$TOOL" "$cmd" --help | sed -n '/^Options:/,/^$/p' |
		grep -oE '^  +-[^ ]+(, --[^ ]+)?' | tr -d ',' | tr ' ' '\n' |
		grep -- '^-' | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || { echo "$cmd -: got '$got', want '$want'"; exit 1; }
done
exit 0
