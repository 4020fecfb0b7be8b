#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kdir-hint.sh KDIR: called by the top-level Makefile when KDIR is not a
# kernel build tree. Says which package holds the running kernel's build
# tree on this distribution, and the two ways around it. Always exits 1.

kdir=$1
rel=$(uname -r)
id=
name=
if [ -r /etc/os-release ]; then
	# shellcheck disable=SC1091
	id=$(. /etc/os-release && echo "${ID:-}")
	# shellcheck disable=SC1091
	name=$(. /etc/os-release && echo "${PRETTY_NAME:-$ID}")
fi

# Amazon Linux 2023 names the packages of its newer kernels kernelX.Y-*
amzn_devel() {
	case $rel in
	6.1.*) echo "kernel-devel-$rel" ;;
	*) echo "kernel$(echo "$rel" | cut -d. -f1-2)-devel-$rel" ;;
	esac
}

{
	if [ "$kdir" = "/lib/modules/$rel/build" ]; then
		echo "arm_cmn_hnf: no kernel build tree for the running kernel $rel"
		echo "  ($kdir is missing: its headers package is not installed)."
	else
		echo "arm_cmn_hnf: KDIR=$kdir is not a kernel build tree (no Makefile there)."
	fi
	echo
	case $id in
	debian|ubuntu)
		echo "  Install the running kernel's headers ($name):"
		echo "    sudo apt install linux-headers-$rel" ;;
	amzn)
		echo "  Install the running kernel's headers ($name):"
		echo "    sudo dnf install $(amzn_devel)" ;;
	*)
		echo "  Install the running kernel's headers:"
		echo "    Debian 11/12, Ubuntu:  sudo apt install linux-headers-$rel"
		echo "    Amazon Linux 2023:     sudo dnf install $(amzn_devel)" ;;
	esac
	echo
	echo "  or build against another kernel's build tree:"
	echo "    make KDIR=/lib/modules/<version>/build"
	echo "  or try the driver without headers or hardware (Debian 12, in QEMU):"
	echo "    make demo"
} >&2
exit 1
