#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e.sh (make e2e): end-to-end tests in QEMU on Debian's real arm64 kernels
# and on the project's debug kernel.
#
# Selection (environment or make variables):
#   TESTS=<glob> ...  guest test scripts by name (<name>.sh in a directory of
#                     E2E_DIRS: tools/testing/e2e/ and
#                     tools/cmn-hnf/tests/guest/); a word without * ? [
#                     matches as *word*. Default: every script.
#   MESH="<name|file> ..."  run every selected test on each of these meshes
#                     (a name in tools/testing/cmn600-model/meshes/ or a
#                     path to any valid mesh file). Default: the meshes each
#                     test's header lists.
#   MESH_SUBSET="a b" keep only these of each test's meshes, plus the
#                     ones its "# subset-meshes:" header names; tests with
#                     none are left out (make check uses it on every guest
#                     but the primary one), or with MESH_SUBSET_KEEP=1 run
#                     on their first mesh
#   KERNEL="5.10 6.1 6.12 7.2 debug"  default the four Debian kernels;
#                     debug is the self-built 6.12 with KASAN, lockdep,
#                     kmemleak, debug objects (tools/testing/kunit/
#                     build-kernel.sh, built on first use, cached); each of
#                     its boots must end with an empty kmemleak scan
#                     (result <...>/kmemleak)
#   FW=dt|acpi        default both
#   E2E_JOBS=N        boot N guests at once (default 1); the results are
#                     printed in boot order all the same
#   E2E_EXTRA=<dir>   more guest test scripts (*.sh) to ship and select from
#                     (harness development; never needed by `make e2e`)
#
# A guest test is <name>.sh (lib*.sh are sourced libraries). It declares in
# comment lines within its first 30 lines where it runs (all optional but
# "results") and how many results it gives (see tools/testing/vm/
# manifest.py and Documentation/testing.rst, "Result manifest"):
#
#   # meshes: default 2x2 8x8-32hnf-4dtc   mesh names (default: default)
#   # faults: child_loop no_dtc            one boot per fault: the model is
#                                          loaded with fault=<name>
#                                          ($CMN_FAULT, model_load); "none"
#                                          = a boot without a fault
#   # kernels: 6.12                        restrict to these kernels
#   # fw: dt                               restrict to these firmwares
#   # timeout: 120                         seconds for this script (default 120)
#   # subset-meshes: 2x2@dt 4x2-2dtc       under MESH_SUBSET, also these
#                                          meshes (MESH@FW: with that
#                                          firmware only), so a test whose
#                                          point is per kernel (the arm-cmn
#                                          cross-check) runs them on every
#                                          kernel
#   # subset-fw: dt                        under MESH_SUBSET, only with these
#                                          firmwares (a test whose subject
#                                          does not depend on the firmware
#                                          runs on the other guests once
#                                          per kernel)
#   # numa: 2                              boot a two-node NUMA guest (boot.sh
#                                          NUMA=2: one CPU per node); such
#                                          tests get boots of their own
#   # results: 4 + 3 * nmesh               REQUIRED: the number of result
#                                          lines, an expression over the facts
#                                          of the boot
#   # skip: <glob>... if <expression>      these cases may print SKIP when
#                                          the expression is true
#
# Every (kernel, fw, mesh, fault, numa) with at least one test is ONE boot; its
# tests run in name order, each in a fresh sh, with the modules unloaded
# and all CPUs put back online between them. The base initramfs is built
# once per kernel; per boot only a small uncompressed cpio (resolved mesh,
# run.conf, the SSDT for ACPI) is put in front of it.
#
# Output: one line per test case, "PASS: e2e/<kernel>/<fw>/<mesh>/<name>",
# "FAIL: e2e/<kernel>/<fw>/<mesh>/<name>: <why>" or "SKIP: ...: <why>"
# (<mesh> is "<mesh>+<fault>" for a fault boot), plus FAIL lines for a
# script that did not finish, exited non-zero without a FAIL line, printed
# no result, printed another number of results than its manifest says or a
# SKIP its manifest does not allow, and for a boot that timed out, did not
# print "=== CMN-GUEST-EXIT" or printed a kernel error (results.sh BAD_RE:
# Oops, BUG:, WARNING:, KASAN, lockdep, Kernel panic, Unable to handle,
# Call trace:, rcu: INFO, INFO: task, hung_task, the model's "not cleared
# within"). A failed boot's log is kept (path printed) and its last 60
# lines are shown. Last line: "e2e: N passed, N failed, N skipped". Exit
# status 0 only if nothing failed and at least one case passed.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

# shellcheck disable=SC2206
KERNELS=(${KERNEL:-$(kernel_series_all)})
# shellcheck disable=SC2206
FWS=(${FW:-dt acpi})
TEST_TIMEOUT_DEFAULT=120
# the debug kernel (KASAN, lockdep, kmemleak under TCG) is this many times
# slower: its scripts' and boots' timeouts are scaled by it
DEBUG_SLOWDOWN=${DEBUG_SLOWDOWN:-4}

ensure_host_packages
resolve_kvers

RUNID=$(date +%Y%m%d-%H%M%S)-$$
RUN="$OUTD/logs/e2e-$RUNID"
mkdir -p "$RUN"
ln -sfn "e2e-$RUNID" "$OUTD/logs/e2e-latest"
# keep the logs of the last 20 runs (and of any run younger than an hour)
# shellcheck disable=SC2012
ls -1d "$OUTD"/logs/e2e-2* 2>/dev/null | sort | head -n -20 |
	while read -r d; do
		if [ -n "$(find "$d" -maxdepth 0 -mmin +60)" ]; then rm -rf "$d"; fi
	done

# ---- build (serialised between concurrent runs) ----------------------------
exec 9> "$OUTD/.build.lock"
flock 9
"$VM/fetch-guest.sh" "${KERNELS[@]}"
"$VM/build-modules.sh" "${KERNELS[@]}"
for k in "${KERNELS[@]}"; do
	E2E_EXTRA=${E2E_EXTRA:-} timed "mkinitramfs $k" "$VM/mkinitramfs.sh" "$k" "$RUN/base-$k.cpio.zst"
done
flock -u 9

# ---- select tests ----------------------------------------------------------
header() { # FILE KEY: value of "# KEY: ..." in the first 30 lines
	head -n 30 "$1" | sed -n "s/^#[[:space:]]*$2:[[:space:]]*//p" | head -n 1
}
selected() { # NAME
	local p
	[ -z "${TESTS:-}" ] && return 0
	for p in $TESTS; do
		case $p in *[*?[]*) ;; *) p="*$p*" ;; esac
		# shellcheck disable=SC2053
		[[ $1 == $p ]] && return 0
	done
	return 1
}
in_list() { # WORD LIST...
	local w=$1 x
	shift
	for x in "$@"; do [ "$x" = "$w" ] && return 0; done
	return 1
}
mesh_path() { # NAME-OR-FILE
	if [ -f "$1" ]; then
		echo "$1"
	else
		echo "$MESHDIR/$1.mesh"
	fi
}

declare -A GROUP=() GTIME=() MESHFILE=() SRC=()
# script_path /e2e/NAME.sh: the host file the guest script came from
script_path() { echo "${SRC[$1]:-$1}"; }
ntests=0
# shellcheck disable=SC2153 # E2E_DIRS comes from common.sh
for d in $E2E_DIRS ${E2E_EXTRA:-}; do
	for f in "$d"/*.sh; do
		[ -f "$f" ] || continue
		name=$(basename "$f" .sh)
		case $name in lib | lib-*) continue ;; esac
		selected "$name" || continue
		if [ -n "${SRC[/e2e/$name.sh]:-}" ]; then
			log "e2e: $f: a guest test named $name already exists: ignored"
			continue
		fi
		SRC[/e2e/$name.sh]=$f
		ntests=$((ntests + 1))
		if [ -n "${MESH:-}" ]; then
			meshes=$MESH
		else
			meshes=$(header "$f" meshes)
		fi
		# MESH_SUBSET: keep only these of the test's meshes (make check
		# runs every mesh on its primary guest and a subset elsewhere),
		# plus the test's own "# subset-meshes:" (MESH[@FW]...)
		subx=
		subfw=
		if [ -n "${MESH_SUBSET:-}" ]; then
			subfw=$(header "$f" subset-fw)
			keep=
			for m in ${meshes:-default}; do
				# shellcheck disable=SC2086
				in_list "$(basename "$m" .mesh)" $MESH_SUBSET && keep="$keep $m"
			done
			meshes=${keep# }
			[ -z "${MESH:-}" ] && subx=$(header "$f" subset-meshes)
			# MESH_SUBSET_KEEP=1: a script with none of them still
			# runs, on its first mesh (the whole suite runs)
			if [ -z "$meshes" ] && [ -z "$subx" ] && [ "${MESH_SUBSET_KEEP:-0}" = 1 ]; then
				meshes=$(header "$f" meshes)
				meshes=${meshes%% *}
				meshes=${meshes:-default}
			fi
			[ -n "$meshes" ] || [ -n "$subx" ] || continue
		fi
		faults=$(header "$f" faults)
		tk=$(header "$f" kernels)
		tf=$(header "$f" fw)
		to=$(header "$f" timeout)
		nu=$(header "$f" numa)
		nu=${nu%% *}
		case $nu in '' | 2) ;; *)
			log "e2e: $name: '# numa: $nu' unsupported (only 2)"
			nu=bad ;;
		esac
		[[ $to =~ ^[0-9]+$ ]] || to=$TEST_TIMEOUT_DEFAULT
		for k in "${KERNELS[@]}"; do
			# shellcheck disable=SC2086
			[ -n "$tk" ] && ! in_list "$k" $tk && continue
			for fw in "${FWS[@]}"; do
				# shellcheck disable=SC2086
				[ -n "$tf" ] && ! in_list "$fw" $tf && continue
				# shellcheck disable=SC2086
				[ -n "$subfw" ] && ! in_list "$fw" $subfw && continue
				fm=${meshes:-default}
				if [ -n "${MESH_SUBSET:-}" ]; then
					fm=$meshes
					for m in $subx; do
						case $m in *@*)
							[ "${m#*@}" = "$fw" ] || continue
							m=${m%@*} ;;
						esac
						# shellcheck disable=SC2086
						in_list "$m" $fm || fm="$fm $m"
					done
				fi
				for m in $fm; do
					mn=$(basename "$m" .mesh)
					MESHFILE[$mn]=$(mesh_path "$m")
					tok=$to
					[ "$k" = debug ] && tok=$((to * DEBUG_SLOWDOWN))
					for flt in ${faults:-none}; do
						key="$k|$fw|$mn|$flt|$nu"
						GROUP[$key]="${GROUP[$key]:-} /e2e/$name.sh:$tok"
						GTIME[$key]=$(( ${GTIME[$key]:-0} + tok ))
					done
				done
			done
		done
	done
done
if [ "$ntests" -eq 0 ]; then
	log "e2e: no guest test matches TESTS='${TESTS:-}'"
	echo "e2e: 0 passed, 1 failed, 0 skipped"
	exit 1
fi

# ---- per-boot pieces -------------------------------------------------------
# shellcheck source=results.sh
. "$VM/results.sh"

# ---- boots -----------------------------------------------------------------
mapfile -t KEYS < <(
	for key in "${!GROUP[@]}"; do
		IFS='|' read -r k fw mn flt nu <<< "$key"
		ki=0; for x in "${KERNELS[@]}"; do [ "$x" = "$k" ] && break; ki=$((ki + 1)); done
		fi=0; for x in "${FWS[@]}"; do [ "$x" = "$fw" ] && break; fi=$((fi + 1)); done
		printf '%d %d %s %s %s\t%s\n' "$ki" "$fi" "$mn" "$flt" "$nu" "$key"
	done | sort | cut -f2)
log "e2e: ${#KEYS[@]} boot(s), $ntests test script(s); logs in $RUN"

# key_vars KEY: the boot's names (k fw mn flt nu label pre tag fwd tmo)
key_vars() {
	IFS='|' read -r k fw mn flt nu <<< "$1"
	label=$mn
	[ "$flt" = none ] || label="$mn+$flt"
	pre="e2e/$k/$fw/$label"
	tag="$k-$fw-$label"
	# a NUMA boot has its own firmware (DTB dumped with -numa) and files
	[ -n "$nu" ] && tag="$tag-numa$nu"
	# firmware files per boot: boots may run at once (E2E_JOBS)
	fwd="$RUN/fw-$tag"
	tmo=$(( ${GTIME[$1]} + 90 ))
	[ "$k" = debug ] && tmo=$(( ${GTIME[$1]} + 90 * DEBUG_SLOWDOWN ))
	return 0
}

# launch KEY: in the background, the firmware, the per-boot initramfs and
# the boot of KEY; leaves $RUN/<tag>.rc (boot.sh's status), or
# $RUN/<tag>.why when it could not boot
declare -A PIDS=()
launch() {
	key_vars "$1"
	(
		# shellcheck disable=SC2086
		set -- ${GROUP[$1]}
		if [ "$nu" = bad ]; then
			echo "bad '# numa:' header" > "$RUN/$tag.why"
			exit 0
		fi
		if ! why=$(NUMA=$nu prepare_fw "$fw" "${MESHFILE[$mn]}" "$fwd"); then
			echo "$why" > "$RUN/$tag.why"
			exit 0
		fi
		# shellcheck disable=SC1091
		. "$fwd/boot.env"
		initrd="$RUN/$tag.cpio"
		boot_initrd "$RUN/base-$k.cpio.zst" "$initrd" "$fwd" "$fw" "$k" "$mn" "$flt" \
			"$TEST_TIMEOUT_DEFAULT" "$@"
		brc=0
		KERNEL=$k FW=$fw INITRD=$initrd DTB="$fwd/virt.dtb" MEM_MB=$MEM_MB \
			LOG="$RUN/$tag.log" NUMA=$nu LABEL="e2e $tag" TIMEOUT=$tmo \
			"$VM/boot.sh" || brc=$?
		rm -f "$initrd"
		echo "$brc" > "$RUN/$tag.rc"
	) &
	PIDS[$1]=$!
}

# collect KEY: wait for KEY's boot and print its results
collect() {
	local key=$1 t why
	key_vars "$key"
	wait "${PIDS[$key]}" || true
	# shellcheck disable=SC2086
	set -- ${GROUP[$key]}
	if [ -f "$RUN/$tag.why" ] || [ ! -f "$RUN/$tag.rc" ]; then
		why=$(cat "$RUN/$tag.why" 2>/dev/null || echo "no boot status (preparing the boot failed; see the log above)")
		for t in "$@"; do emit_fail "$pre/$(basename "${t%:*}" .sh)" "not run: $why"; done
		return 0
	fi
	blog="$RUN/$tag.log"
	brc=$(cat "$RUN/$tag.rc")
	# what each script must report on this boot (its manifest headers)
	exp="$RUN/$tag.expect"
	scripts=()
	for t in "$@"; do scripts+=("$(script_path "${t%:*}")"); done
	"$VM/manifest.py" expect --mesh "$fwd/mesh" --kernel "$k" --fw "$fw" \
		--fault "${flt#none}" --numa "${nu:-0}" "${scripts[@]}" > "$exp" 2> "$exp.err" ||
		for t in "$@"; do
			echo "$(basename "${t%:*}" .sh) error $(tail -n 1 "$exp.err")"
		done >> "$exp"
	parse_log "$blog" "$pre" "$exp" "$@"
	# the debug kernel must show an empty kmemleak scan after every boot
	kl=0
	[ "$k" = debug ] && grep -q '^=== CMN-GUEST-EXIT' "$blog" && kl=1
	kmemleak_verdict "$blog" "$pre" $kl
	bad=
	if kerr=$(kernel_errors "$blog"); then
		bad="kernel error: $kerr"
	fi
	if kerr=$(pending_errors "$blog"); then
		log "e2e: $pre: pending kernel-log pattern (not a failure yet, see results.sh BAD_RE_PENDING): $kerr"
	fi
	if [ "$brc" = 124 ]; then
		bad="timed out after $tmo s${bad:+; $bad}"
	elif ! grep -q '^=== CMN-GUEST-EXIT rc=' "$blog"; then
		bad="${bad:-guest did not print === CMN-GUEST-EXIT}"
	fi
	if [ -n "$bad" ]; then
		emit_fail "$pre/boot" "$bad"
		{
			echo "  ---- last 60 lines of $blog ----"
			tail -n 60 "$blog" | sed 's/^/  | /'
			echo "  ---- end of $blog ----"
		} >&3
	fi
}

# E2E_JOBS boots at once (default 1): guests under TCG spend much of their
# time in sleeps, so a second guest uses what the first leaves idle. The
# results are printed in boot order all the same.
NJOBS=${E2E_JOBS:-1}
case $NJOBS in '' | *[!0-9]* | 0) NJOBS=1 ;; esac
# running: boots launched and not finished yet
running() {
	local j n=0
	for ((j = 0; j < nl; j++)); do
		kill -0 "${PIDS[${KEYS[$j]}]}" 2>/dev/null && n=$((n + 1))
	done
	echo "$n"
}
t_all=$(date +%s)
nl=0
for ((i = 0; i < ${#KEYS[@]}; i++)); do
	# keep NJOBS boots running (a free slot takes the next boot) until
	# boot i has finished
	while :; do
		while [ $nl -lt ${#KEYS[@]} ] && [ "$(running)" -lt "$NJOBS" ]; do
			launch "${KEYS[$nl]}"
			nl=$((nl + 1))
		done
		kill -0 "${PIDS[${KEYS[$i]}]}" 2>/dev/null || break
		sleep 1
	done
	collect "${KEYS[$i]}"
done
log "e2e: boots took $(( $(date +%s) - t_all )) s; logs in $RUN"
rm -f "$RUN"/base-*.cpio.zst
echo "e2e: $NPASS passed, $NFAIL failed, $NSKIP skipped"
[ "$NFAIL" -eq 0 ] && [ "$NPASS" -gt 0 ]
