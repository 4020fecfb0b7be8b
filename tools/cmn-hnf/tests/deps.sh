#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What the cmn-hnf tests need on the host, installed by the project (the
# tools-stage counterpart of ensure_host_packages in tools/testing/lib.sh):
#
#   deps.sh host       apt-get install tmux, python3-docutils (rst2man) and
#                      systemd (systemd-analyze) if missing
#   deps.sh promtool   print the path of promtool: Debian's prometheus
#                      package is downloaded and unpacked privately under
#                      $CMN_HNF_CACHE/tools (never installed: its postinst
#                      would create a user and start a server)
#   deps.sh ksrc [SERIES]
#                      print the kernel source tree the project unpacks
#                      (ensure_kernel_source; 6.12 by default, 6.1 for the
#                      perf --exact-compat is for), for perf's jevents.py
#   deps.sh chromium   apt-get install chromium (the screenshot test only)
#
# Progress goes to stderr; a failure exits non-zero and the test that needed
# the tool fails (it is never skipped).
# shellcheck source=../../testing/lib.sh
. "$(dirname "$0")/../../testing/lib.sh"

case ${1:-} in
host)
	install_pkgs tmux python3-docutils systemd ;;
promtool)
	lock_open cmn-hnf-promtool
	arch=$(dpkg --print-architecture)
	deb=$(ls "$DEBS"/prometheus_*_"$arch".deb 2>/dev/null | head -1 || true)
	if [ -z "$deb" ]; then
		fetch_debs "prometheus:$arch" >&2 || { lock_close; exit 1; }
		deb=$(ls "$DEBS"/prometheus_*_"$arch".deb 2>/dev/null | head -1 || true)
		[ -n "$deb" ] || { lock_close; exit 1; }
	fi
	dir="$CACHE/tools/$(basename "$deb" .deb)"
	if [ ! -x "$dir/usr/bin/promtool" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		timed "unpack $(basename "$deb")" dpkg -x "$deb" "$dir"
	fi
	lock_close
	[ -x "$dir/usr/bin/promtool" ] || exit 1
	echo "$dir/usr/bin/promtool" ;;
ksrc)
	ensure_kernel_source "${2:-6.12}" >&2
	echo "$KSRC" ;;
chromium)
	install_pkgs chromium fonts-dejavu-core ;;
*)
	echo "usage: $0 host|promtool|ksrc [SERIES]|chromium" >&2
	exit 2 ;;
esac
