#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-tools-check.sh SRC O WORK: make install-tools, then make
# uninstall-tools, of the source tree SRC into the scratch root WORK/root,
# reusing the tool built with O=O (pkg/install-tools of run.sh, and the
# tool's unit test tools/install).
#
# With the default PREFIX (/usr/local), install-tools must install the
# binary, a man page for each page of Documentation/man, the bash
# completion, the systemd unit, and the Grafana dashboard with its
# provisioning file (share/cmn-hnf/grafana, which the provisioning file
# must name); uninstall-tools must leave no file and no share/cmn-hnf.
# Prints one line saying what is wrong and exits 1, or exits 0.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: $0 SRC O WORK" >&2; exit 2; }
SRC=$1 O=$2 WORK=$3
P=/usr/local
G=$P/share/cmn-hnf/grafana
R=$WORK/root
LOG=$WORK/install-tools.log

rm -rf "$R"
mkdir -p "$WORK"
rc=0
make -s -C "$SRC" install-tools DESTDIR="$R" O="$O" > "$LOG" 2>&1 || rc=$?
if [ $rc != 0 ]; then
	echo "make install-tools exited $rc: $(tail -n 1 "$LOG")"
	exit 1
fi
want="$P/bin/cmn-hnf $P/share/bash-completion/completions/cmn-hnf
	$P/lib/systemd/system/cmn-hnf-prometheus.service
	$G/cmn-hnf.json $G/cmn-hnf-dashboards.yaml"
for m in "$SRC"/Documentation/man/*.rst; do
	want="$want $P/share/man/man1/$(basename "$m" .rst).1"
done
lacks=
for f in $want; do
	[ -f "$R$f" ] || lacks="$lacks $f"
done
if [ -n "$lacks" ]; then
	echo "make install-tools did not install:$lacks"
	exit 1
fi
if ! grep -q "^ *path: $G\$" "$R$G/cmn-hnf-dashboards.yaml"; then
	echo "$G/cmn-hnf-dashboards.yaml does not name $G"
	exit 1
fi
make -s -C "$SRC" uninstall-tools DESTDIR="$R" O="$O" >> "$LOG" 2>&1 || rc=$?
left=$(cd "$R" && find . ! -type d | sed 's|^\.||' | tr '\n' ' ')
[ -d "$R$P/share/cmn-hnf" ] && left="$left$P/share/cmn-hnf/"
if [ $rc != 0 ] || [ -n "$left" ]; then
	echo "make uninstall-tools exited $rc; left: ${left:--}"
	exit 1
fi
exit 0
