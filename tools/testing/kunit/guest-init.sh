#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the KUnit guest (busybox): load the modules listed in
# /modules/order (driver first, then the KUnit module, whose suites run at
# load), print the KTAP results of every suite that appeared, unload the
# modules, run a kmemleak scan, print dmesg, power off. The host
# (tools/testing/kunit/run.sh) parses the serial log; markers start with
# "=== CMN-KUNIT".
/bin/busybox --install -s /bin
export PATH=/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t debugfs debugfs /sys/kernel/debug
KL=/sys/kernel/debug/kmemleak
echo "=== CMN-KUNIT INIT kernel=$(uname -r) uptime=$(cut -d' ' -f1 /proc/uptime)"
ls /sys/kernel/debug/kunit >/tmp/suites-before 2>/dev/null
# Forget what boot itself leaked: report it now, then mark it grey.
if [ -w $KL ]; then
	echo scan >$KL
	echo clear >$KL
fi
echo "CMN-KUNIT: start" >/dev/kmsg
echo "=== CMN-KUNIT START"
rc=0
loaded=
for m in $(cat /modules/order); do
	if insmod "/modules/$m"; then
		loaded="$m $loaded"
	else
		echo "=== CMN-KUNIT INSMOD-FAIL $m"
		rc=1
	fi
done
for d in /sys/kernel/debug/kunit/*; do
	[ -d "$d" ] || continue
	s=${d##*/}
	grep -qx "$s" /tmp/suites-before && continue
	echo "=== CMN-KUNIT SUITE $s"
	cat "$d/results"
	echo "=== CMN-KUNIT END-SUITE $s"
done
for m in $loaded; do
	if ! rmmod "${m%.ko}"; then
		echo "=== CMN-KUNIT RMMOD-FAIL $m"
		rc=1
	fi
done
if [ -w $KL ]; then
	# kmemleak ignores objects younger than 5 s; scan twice, as advised.
	sleep 6
	echo scan >$KL
	echo scan >$KL
	echo "=== CMN-KUNIT KMEMLEAK BEGIN"
	cat $KL
	echo "=== CMN-KUNIT KMEMLEAK END"
else
	echo "=== CMN-KUNIT KMEMLEAK MISSING"
fi
echo "=== CMN-KUNIT DMESG BEGIN"
dmesg
echo "=== CMN-KUNIT DMESG END"
echo "=== CMN-KUNIT EXIT rc=$rc uptime=$(cut -d' ' -f1 /proc/uptime)"
sync
poweroff -f
