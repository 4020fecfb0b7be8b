#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# e2e.sh (make e2e): end-to-end tests in QEMU on Debian's real arm64 kernels.
#
# Selection (environment or make variables):
#   TESTS=<glob> ...  guest test scripts by name (tools/testing/e2e/<name>.sh,
#                     name without .sh); a word without * ? [ matches as
#                     *word*. Default: every script.
#   MESH=<name|file>  run every selected test on this mesh only (a name in
#                     tools/testing/cmn600-model/meshes/ or a path).
#                     Default: the meshes each test's header lists.
#   MESH_SUBSET="a b" keep only these of each test's meshes, plus the
#                     ones its "# subset-meshes:" header names; tests with
#                     none are left out (make check uses it on every guest
#                     but the primary one)
#   KERNEL=5.10|6.1|6.12|7.2   default all four   FW=dt|acpi   default both
#   E2E_EXTRA=<dir>   more guest test scripts (*.sh) to ship and select from
#                     (harness development; never needed by `make e2e`)
#
# Guest tests are tools/testing/e2e/*.sh except lib*.sh (sourced libraries).
# A guest test declares where it runs in comment lines within its first 30
# lines (all optional):
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
#
# Every (kernel, fw, mesh, fault, numa) with at least one test is ONE boot; its
# tests run in name order, each in a fresh sh, with the modules unloaded
# and all CPUs put back online between them. The base initramfs is built
# once per kernel; per boot only a small uncompressed cpio (resolved mesh,
# run.conf, the SSDT for ACPI) is put in front of it.
#
# Output: one line per test case, "PASS: e2e/<kernel>/<fw>/<mesh>/<name>" or
# "FAIL: e2e/<kernel>/<fw>/<mesh>/<name>: <why>" (<mesh> is "<mesh>+<fault>"
# for a fault boot), plus FAIL lines for a script that did not finish, exited
# non-zero without a FAIL line or printed no result, and for a boot that
# timed out, did not print "=== CMN-GUEST-EXIT" or printed a kernel error
# (Oops, BUG:, WARNING:, KASAN, lockdep, Kernel panic). A failed boot's log
# is kept (path printed) and its last 60 lines are shown. Last line:
# "e2e: N passed, N failed". Exit status 0 only if nothing failed and at
# least one case passed.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"

# shellcheck disable=SC2206
KERNELS=(${KERNEL:-$(kernel_series_all)})
# shellcheck disable=SC2206
FWS=(${FW:-dt acpi})
TEST_TIMEOUT_DEFAULT=120
BAD_RE='Oops|BUG:|WARNING:|KASAN|possible recursive locking|inconsistent lock state|circular locking|Kernel panic'

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

declare -A GROUP=() GTIME=() MESHFILE=()
dirs=("$E2E")
[ -n "${E2E_EXTRA:-}" ] && dirs+=("$E2E_EXTRA")
ntests=0
for d in "${dirs[@]}"; do
	for f in "$d"/*.sh; do
		[ -f "$f" ] || continue
		name=$(basename "$f" .sh)
		case $name in lib | lib-*) continue ;; esac
		selected "$name" || continue
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
					for flt in ${faults:-none}; do
						key="$k|$fw|$mn|$flt|$nu"
						GROUP[$key]="${GROUP[$key]:-} /e2e/$name.sh:$to"
						GTIME[$key]=$(( ${GTIME[$key]:-0} + to ))
					done
				done
			done
		done
	done
done
if [ "$ntests" -eq 0 ]; then
	log "e2e: no guest test matches TESTS='${TESTS:-}'"
	echo "e2e: 0 passed, 1 failed"
	exit 1
fi

# ---- per-boot pieces -------------------------------------------------------
npass=0
nfail=0
emit_pass() { echo "PASS: $1"; npass=$((npass + 1)); }
emit_fail() { echo "FAIL: $1: $2"; nfail=$((nfail + 1)); }

# parse_log LOG PREFIX SCRIPTS...: emit the PASS/FAIL lines of one boot
parse_log() {
	local logf=$1 pre=$2 line rest cur="" t rc name why
	shift 2
	declare -A began=() ended=() nres=() nfl=()
	while IFS= read -r line; do
		case $line in
		*"=== CMN-TEST-BEGIN "*)
			cur=${line##*=== CMN-TEST-BEGIN }
			cur=${cur%% *}
			began[$cur]=1
			nres[$cur]=0
			nfl[$cur]=0
			;;
		*"=== CMN-TEST-END "*)
			t=${line##*=== CMN-TEST-END }
			rc=${t#* rc=}
			rc=${rc%% *}
			ended[${t%% *}]=$rc
			cur=
			;;
		*"CMN-TEST: "*)
			rest=${line#*CMN-TEST: }
			if [[ $rest =~ ^PASS\ ([^[:space:]:]+)[[:space:]]*$ ]]; then
				emit_pass "$pre/${BASH_REMATCH[1]}"
			elif [[ $rest =~ ^FAIL\ ([^[:space:]:]+):?[[:space:]]*(.*)$ ]]; then
				name=${BASH_REMATCH[1]}
				why=${BASH_REMATCH[2]}
				emit_fail "$pre/$name" "${why:-no reason given}"
				[ -n "$cur" ] && nfl[$cur]=$((nfl[$cur] + 1))
			else
				emit_fail "$pre/protocol" "malformed line: $rest"
			fi
			[ -n "$cur" ] && nres[$cur]=$((nres[$cur] + 1))
			;;
		esac
	done < "$logf"
	for t in "$@"; do
		t=${t%:*}
		name=$(basename "$t" .sh)
		if [ -z "${began[$t]:-}" ]; then
			emit_fail "$pre/$name" "script did not start"
		elif [ -z "${ended[$t]:-}" ]; then
			emit_fail "$pre/$name" "script did not finish (guest died or hung)"
		elif [ "${ended[$t]}" = 137 ]; then
			emit_fail "$pre/$name" "script killed after its timeout"
		elif [ "${ended[$t]}" != 0 ] && [ "${nfl[$t]}" = 0 ]; then
			emit_fail "$pre/$name" "script exited ${ended[$t]} without a FAIL line"
		elif [ "${nres[$t]}" = 0 ]; then
			emit_fail "$pre/$name" "script printed no CMN-TEST result"
		fi
	done
}

# ---- boots -----------------------------------------------------------------
mapfile -t KEYS < <(
	for key in "${!GROUP[@]}"; do
		IFS='|' read -r k fw mn flt nu <<< "$key"
		ki=0; for x in "${KERNELS[@]}"; do [ "$x" = "$k" ] && break; ki=$((ki + 1)); done
		fi=0; for x in "${FWS[@]}"; do [ "$x" = "$fw" ] && break; fi=$((fi + 1)); done
		printf '%d %d %s %s %s\t%s\n' "$ki" "$fi" "$mn" "$flt" "$nu" "$key"
	done | sort | cut -f2)
log "e2e: ${#KEYS[@]} boot(s), $ntests test script(s); logs in $RUN"

t_all=$(date +%s)
for key in "${KEYS[@]}"; do
	IFS='|' read -r k fw mn flt nu <<< "$key"
	label=$mn
	[ "$flt" = none ] || label="$mn+$flt"
	pre="e2e/$k/$fw/$label"
	tag="$k-$fw-$label"
	fwd="$RUN/fw-$fw-$mn"
	# a NUMA boot has its own firmware (DTB dumped with -numa) and files
	[ -n "$nu" ] && tag="$tag-numa$nu" && fwd="$fwd-numa$nu"
	# shellcheck disable=SC2086
	set -- ${GROUP[$key]}
	if [ "$nu" = bad ]; then
		for t in "$@"; do emit_fail "$pre/$(basename "${t%:*}" .sh)" "not run: bad '# numa:' header"; done
		continue
	fi
	if ! why=$(NUMA=$nu prepare_fw "$fw" "${MESHFILE[$mn]}" "$fwd"); then
		for t in "$@"; do emit_fail "$pre/$(basename "${t%:*}" .sh)" "not run: $why"; done
		continue
	fi
	# shellcheck disable=SC1091
	. "$fwd/boot.env"
	initrd="$RUN/$tag.cpio"
	boot_initrd "$RUN/base-$k.cpio.zst" "$initrd" "$fwd" "$fw" "$k" "$mn" "$flt" \
		"$TEST_TIMEOUT_DEFAULT" "$@"
	blog="$RUN/$tag.log"
	brc=0
	tmo=$(( ${GTIME[$key]} + 90 ))
	KERNEL=$k FW=$fw INITRD=$initrd DTB="$fwd/virt.dtb" MEM_MB=$MEM_MB LOG=$blog NUMA=$nu \
		LABEL="e2e $tag" TIMEOUT=$tmo "$VM/boot.sh" || brc=$?
	rm -f "$initrd"
	parse_log "$blog" "$pre" "$@"
	bad=
	if kerr=$(grep -v 'CMN-TEST: ' "$blog" | grep -m1 -E "$BAD_RE"); then
		bad="kernel error: $kerr"
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
done
log "e2e: boots took $(( $(date +%s) - t_all )) s; logs in $RUN"
rm -f "$RUN"/base-*.cpio.zst
echo "e2e: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ] && [ "$npass" -gt 0 ]
