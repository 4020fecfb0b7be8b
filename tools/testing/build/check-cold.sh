#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-cold.sh (make check-cold): make check as a newcomer's machine runs
# it, with CMN_HNF_CACHE on a new, empty directory, so that every download,
# unpack, chroot and kernel build of a first run happens in it and the
# timings table at the end is that of a cold run. What the machine has
# installed (the host packages make check installs) stays as it is.
#
# Environment: COLD_DIR (where the empty cache is made, default /var/tmp),
# COLD_KEEP=1 (keep the cache afterwards; it is removed otherwise, it
# holds several GiB), and whatever make check takes.
# Output: make check's, then "cold cache: <dir> (<kept|removed>), <s> s".
# Exit status: make check's.
set -euo pipefail
c=$(mktemp -d "${COLD_DIR:-/var/tmp}/cmn-hnf-cold.XXXXXX")
t0=$(date +%s)
rc=0
CMN_HNF_CACHE=$c "$(dirname "$0")/check.sh" || rc=$?
if [ "${COLD_KEEP:-0}" = 1 ]; then
	what=kept
else
	rm -rf "$c"
	what=removed
fi
echo "cold cache: $c ($what), $(($(date +%s) - t0)) s" >&2
exit $rc
