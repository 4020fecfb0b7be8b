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
#                     test's header lists. A word random:<seed>[,<seed>...]
#                     stands for the files randmesh.py writes for those
#                     seeds (mesh names random-<seed>); each such boot
#                     prints its seed and the command that reproduces it
#   MESH_SUBSET="a b" keep only these of each test's meshes, plus the
#                     ones its "# subset-meshes:" header names; tests with
#                     none are left out (make check uses it on every guest
#                     but the primary one), or with MESH_SUBSET_KEEP=1 run
#                     on their first mesh (and then "# subset-meshes:" and
#                     "# subset-fw:" do not apply: every script runs on
#                     every firmware, as make check wants of the debug
#                     kernel)
#   KERNEL="5.10 6.1 6.12 7.2 debug"  default the four Debian kernels;
#                     debug is the self-built 6.12 with KASAN, lockdep,
#                     kmemleak, debug objects (tools/testing/kunit/
#                     build-kernel.sh, built on first use, cached); each of
#                     its boots must end with an empty kmemleak scan
#                     (result <...>/kmemleak)
#   FW=dt|acpi        default both
#   E2E_JOBS=N        boot N guests at once (default 1), longest first
#                     (by the guest times timings.txt recorded for each
#                     script on the same boot); the results are printed
#                     in that order
#   E2E_JOBS_FILE=F   when F holds a positive number, that many guests at
#                     once instead of E2E_JOBS, read again whenever a slot
#                     could take a boot (make check raises it once its
#                     other stages are done)
#   E2E_PLAN="K/FW[=MESH,...][+keep][:TEST,...] ..."  instead of KERNEL,
#                     FW and MESH_SUBSET: these kernel/firmware pairs
#                     ("stages"), each with its own mesh subset (none: every
#                     mesh; +keep: as MESH_SUBSET_KEEP=1) and, after ":",
#                     its own scripts (exact names, within TESTS; none:
#                     every selected one), all in one pool of E2E_JOBS
#                     guests (make check). An entry K/FW@WORD (a mesh
#                     name or file, or random:<seed>[,<seed>...]) adds
#                     meshes on which every script of pair K/FW runs,
#                     besides its own
#   E2E_STAGE_TIMEOUT=S  a stage's boots stop when S seconds of its own
#                     running time (time with at least one of its boots
#                     running) are used up; later boots are not run (FAIL)
#   E2E_STAGE_REPORT=FILE  append one line per stage: "e2e-stage K/FW
#                     active S cpu S boots N timedout 0|1"
#   E2E_LIST=1        only print the boots this selection makes (key,
#                     summed script timeouts, scripts) and exit
#   E2E_ICOUNT=off    ignore "# icount:" headers: those tests run in the
#                     ordinary boots, guest time following host time (to
#                     see what -icount changes)
#   E2E_TCG=multi|single  every boot with QEMU's multi-threaded TCG (one
#                     host thread per vCPU) or its single-threaded one,
#                     whatever the scripts' "# vcpus:" headers say (to see
#                     what the threading changes); "# vcpus: parallel"
#                     scripts then join the ordinary boots
#   E2E_EXTRA=<dir>   more guest test scripts (*.sh) to ship and select from
#                     (harness development; never needed by `make e2e`)
#
# A guest test is <name>.sh (lib*.sh are sourced libraries). It declares in
# comment lines within its first 30 lines where it runs (all optional but
# "results" and "names") and how many results it gives, and which (see
# tools/testing/vm/manifest.py and Documentation/testing.rst, "Result
# manifest"):
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
#   # subset-kernels: debug                under MESH_SUBSET, only on these
#                                          kernels when the run has one of
#                                          them (make check runs the fuzzer
#                                          on the debug kernel, not on 6.12)
#   # subset: two-mesh                     under MESH_SUBSET, only on these of
#                                          the subset's meshes ("no": not
#                                          at all; a check that does not
#                                          depend on the kernel or the
#                                          firmware runs where every mesh
#                                          runs, the primary guest)
#   # subset-fw: dt                        under MESH_SUBSET, only with these
#                                          firmwares (a test whose subject
#                                          does not depend on the firmware
#                                          runs on the other guests once
#                                          per kernel)
#   # numa: 2                              boot a two-node NUMA guest (boot.sh
#                                          NUMA=2: one CPU per node); such
#                                          tests get boots of their own
#   # icount: shift=0,sleep=on             boot with QEMU -icount and these
#                                          options: guest time counts
#                                          executed instructions, so a vCPU
#                                          the host does not run sees no
#                                          time pass (a check that must not
#                                          depend on the host's load); such
#                                          tests get boots of their own,
#                                          results "<mesh>+icount/..."
#   # vcpus: parallel                      the script's checks need vCPUs
#                                          that run at the same time (the
#                                          model's race threads against a
#                                          reader on another CPU): such
#                                          scripts get boots of their own
#                                          (same result names, log
#                                          "<tag>-mttcg"), with QEMU's
#                                          multi-threaded TCG. Every other
#                                          boot runs single-threaded TCG:
#                                          one host thread runs the vCPUs
#                                          in turn, a vCPU that waits
#                                          (WFE, YIELD) hands over at once,
#                                          and a broadcast TLB flush never
#                                          waits for a vCPU thread the host
#                                          has not scheduled, so two such
#                                          guests on two host cores do
#                                          about 1.7 times the work of two
#                                          multi-threaded ones
#   # results: 4 + 3 * nmesh               REQUIRED: the number of result
#                                          lines, an expression over the facts
#                                          of the boot
#   # names: <glob>... [if <expression>]   REQUIRED (one line or more): the
#                                          result names; each printed name
#                                          must match a glob in force (no
#                                          condition, or a true one), each
#                                          glob in force a printed name
#   # skip: <glob>... if <expression>      these cases may print SKIP when
#                                          the expression is true
#
# Every (kernel, fw, mesh, fault, numa, vcpus, icount) with at least one
# test is
# ONE boot; its
# tests run in name order, each in a fresh sh, with the modules unloaded
# and all CPUs put back online between them. The base initramfs is built
# once per kernel; per boot only a small uncompressed cpio (resolved mesh,
# run.conf, the SSDT for ACPI) is put in front of it.
#
# Output: one line per test case, "PASS: e2e/<kernel>/<fw>/<mesh>/<name>",
# "FAIL: e2e/<kernel>/<fw>/<mesh>/<name>: <why>" or "SKIP: ...: <why>"
# (<mesh> is "<mesh>+<fault>" for a fault boot), plus FAIL lines for a
# script that did not finish, exited non-zero without a FAIL line, printed
# no result, printed another number of results than its manifest says, a
# result name it does not declare, none for a name it declares or a
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
case ${E2E_TCG:-} in '' | multi | single) ;; *)
	log "e2e: E2E_TCG must be multi or single"
	echo "e2e: 0 passed, 1 failed, 0 skipped"
	exit 1 ;;
esac
# the debug kernel (KASAN, lockdep, kmemleak under TCG) is this many times
# slower: its scripts' and boots' timeouts are scaled by it
DEBUG_SLOWDOWN=${DEBUG_SLOWDOWN:-4}

in_list() { # WORD LIST...
	local w=$1 x
	shift
	for x in "$@"; do [ "$x" = "$w" ] && return 0; done
	return 1
}

# The run's (kernel, firmware) pairs and each one's mesh subset: E2E_PLAN
# (make check's single pool of every e2e stage) or KERNEL x FW with
# MESH_SUBSET and MESH_SUBSET_KEEP
declare -A PSUB=() PKEEP=() PTESTS=() PEXTRA=()
if [ -n "${E2E_PLAN:-}" ]; then
	KERNELS=()
	FWS=()
	for e in $E2E_PLAN; do
		case $e in */*@*)
			# K/FW@WORD: every script of the pair also on WORD's meshes
			PEXTRA[${e%%@*}]="${PEXTRA[${e%%@*}]:-} ${e#*@}"
			continue ;;
		esac
		tl=
		case $e in *:*)
			tl=${e#*:}
			e=${e%%:*} ;;
		esac
		kf=${e%%=*}
		kf=${kf%+keep}
		k=${kf%/*}
		fw=${kf#*/}
		case $kf in */*) ;; *)
			log "e2e: E2E_PLAN entry '$e' is not KERNEL/FW[=MESH,...][+keep]"
			echo "e2e: 0 passed, 1 failed, 0 skipped"
			exit 1 ;;
		esac
		sub=
		case $e in *=*) sub=${e#*=} ;; esac
		sub=${sub%+keep}
		PSUB[$kf]=${sub//,/ }
		PKEEP[$kf]=0
		case $e in *+keep) PKEEP[$kf]=1 ;; esac
		PTESTS[$kf]=${tl//,/ }
		in_list "$k" "${KERNELS[@]}" || KERNELS+=("$k")
		in_list "$fw" "${FWS[@]}" || FWS+=("$fw")
	done
else
	for k in "${KERNELS[@]}"; do
		for fw in "${FWS[@]}"; do
			PSUB[$k/$fw]=${MESH_SUBSET:-}
			PKEEP[$k/$fw]=${MESH_SUBSET_KEEP:-0}
		done
	done
fi

if [ "${E2E_LIST:-0}" != 1 ]; then
	ensure_host_packages
	resolve_kvers
fi

RUNID=$(date +%Y%m%d-%H%M%S)-$$
RUN="$OUTD/logs/e2e-$RUNID"
if [ "${E2E_LIST:-0}" = 1 ]; then
	# a listing leaves no run directory behind
	RUN=$(mktemp -d /tmp/cmn-hnf-e2e-list.XXXXXX)
	trap 'rm -rf "$RUN"' EXIT
else
	mkdir -p "$RUN"
	ln -sfn "e2e-$RUNID" "$OUTD/logs/e2e-latest"
fi
# keep the logs of the last 20 runs, of any run younger than an hour and of
# any run still going (its directory ends in the pid of its e2e.sh, and a
# debug-kernel run lasts hours). A first run (or a listing on a new
# machine) has no logs at all.
old_logs=()
for d in "$OUTD"/logs/e2e-2*; do
	if [ -d "$d" ]; then old_logs+=("$d"); fi
done
for ((j = 0; j < ${#old_logs[@]} - 20; j++)); do
	d=${old_logs[$j]}
	kill -0 "${d##*-}" 2>/dev/null && continue
	if [ -n "$(find "$d" -maxdepth 0 -mmin +60)" ]; then rm -rf "$d"; fi
done

# ---- random meshes (MESH=random:<seed>[,<seed>...]) ------------------------
# randmesh.py writes each seed's file into the run; the word becomes those
# paths. SEEDOF[<mesh name>] keeps the seed for the boot's messages.
declare -A SEEDOF=()
# resolve_meshes WORD...: WORDS= the words, each random:<seeds> replaced by
# its files; exits the run (one FAIL) on a word that is not a seed list
resolve_meshes() {
	local m sd seeds
	WORDS=
	for m in "$@"; do
		case $m in
		random:*)
			mkdir -p "$RUN/meshes"
			IFS=, read -r -a seeds <<< "${m#random:}"
			[ ${#seeds[@]} -gt 0 ] || seeds=('')
			for sd in "${seeds[@]}"; do
				if ! [[ $sd =~ ^(0|[1-9][0-9]*)$ ]] ||
				   ! "$VM/randmesh.py" "$sd" -o "$RUN/meshes/random-$sd.mesh"; then
					log "e2e: $m: '$sd' is not a seed (an integer >= 0)"
					echo "e2e: 0 passed, 1 failed, 0 skipped"
					exit 1
				fi
				SEEDOF[random-$sd]=$sd
				WORDS="$WORDS $RUN/meshes/random-$sd.mesh"
			done ;;
		*) WORDS="$WORDS $m" ;;
		esac
	done
	WORDS=${WORDS# }
}
if [ -n "${MESH:-}" ]; then
	# shellcheck disable=SC2086 # a list of words
	resolve_meshes $MESH
	MESH=$WORDS
fi
for kf in "${!PEXTRA[@]}"; do
	# shellcheck disable=SC2086 # lists of words
	resolve_meshes ${PEXTRA[$kf]}
	PEXTRA[$kf]=$WORDS
done
# seed_note MESHNAME K FW: for a random mesh, its seed, what it holds and
# the command that boots it again
seed_note() {
	local sd=${SEEDOF[$1]:-}
	[ -n "$sd" ] || return 0
	printf 'seed %s %s; reproduce: make e2e MESH=random:%s KERNEL=%s FW=%s%s\n' \
		"$sd" "$("$VM/randmesh.py" --summary "$sd" | sed 's/^seed [0-9]* //')" \
		"$sd" "$2" "$3" "${TESTS:+ TESTS='$TESTS'}"
}

# ---- build (serialised between concurrent runs) ----------------------------
if [ "${E2E_LIST:-0}" != 1 ]; then
	exec 9> "$OUTD/.build.lock"
	flock 9
	"$VM/fetch-guest.sh" "${KERNELS[@]}"
	"$VM/build-modules.sh" "${KERNELS[@]}"
	for k in "${KERNELS[@]}"; do
		E2E_EXTRA=${E2E_EXTRA:-} timed "mkinitramfs $k" "$VM/mkinitramfs.sh" "$k" "$RUN/base-$k.cpio.zst"
	done
	flock -u 9
fi

# ---- select tests ----------------------------------------------------------
# headers FILE: every "# KEY: value" of the first 30 lines into HDR[KEY]
# (the first of each key; bash alone, no fork: many scripts x stages)
declare -A HDR=()
headers() {
	local l n=0 re='^#[[:space:]]*([a-z-]+):[[:space:]]*(.*)$'
	HDR=()
	while [ $n -lt 30 ] && IFS= read -r l; do
		n=$((n + 1))
		[[ $l =~ $re ]] || continue
		[ -n "${HDR[${BASH_REMATCH[1]}]+set}" ] ||
			HDR[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
	done < "$1"
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

# script_meshes K/FW: SM= the meshes the current script (H_* headers) runs
# on with K and FW; none when the pair's subset leaves it out
script_meshes() {
	local sub=${PSUB[$1]} keep=${PKEEP[$1]} fw=${1#*/} m mn out=''
	SM=
	if [ -z "$sub" ]; then
		SM="${H_meshes:-default}${PEXTRA[$1]:+ ${PEXTRA[$1]}}"
		return 0
	fi
	if [ "$keep" != 1 ]; then
		# "# subset-kernels:" and "# subset-fw:" narrow a subset run
		# shellcheck disable=SC2086
		[ -n "$H_subk" ] && ! in_list "${1%/*}" $H_subk && return 0
		# shellcheck disable=SC2086
		[ -n "$H_subfw" ] && ! in_list "$fw" $H_subfw && return 0
	elif [ -n "$H_subk" ]; then
		# shellcheck disable=SC2086
		in_list "${1%/*}" $H_subk || return 0
	fi
	for m in ${H_meshes:-default}; do
		mn=${m##*/}
		# shellcheck disable=SC2086
		in_list "${mn%.mesh}" $sub || continue
		# shellcheck disable=SC2086
		[ "$keep" = 1 ] || [ -z "$H_sub" ] || in_list "${mn%.mesh}" $H_sub || continue
		out="$out $m"
	done
	# plus the script's own "# subset-meshes:" (MESH[@FW]...), unless
	# MESH= chose the meshes or the pair keeps every script
	if [ -z "${MESH:-}" ] && [ "$keep" != 1 ]; then
		for m in $H_subx; do
			case $m in *@*)
				[ "${m#*@}" = "$fw" ] || continue
				m=${m%@*} ;;
			esac
			# shellcheck disable=SC2086
			in_list "$m" $out || out="$out $m"
		done
	fi
	# keep: a script with none of the subset's meshes runs on its first
	if [ -z "$out" ] && [ "$keep" = 1 ]; then
		m=${H_meshes%% *}
		out=${m:-default}
	fi
	SM="${out# }${PEXTRA[$1]:+ ${PEXTRA[$1]}}"
	SM=${SM# }
}

declare -A GROUP=() GTIME=() MESHFILE=() SRC=()
# script_path /e2e/NAME.sh: the host file the guest script came from
script_path() { echo "${SRC[$1]:-$1}"; }
ntests=0
# shellcheck disable=SC2153 # E2E_DIRS comes from common.sh
for d in $E2E_DIRS ${E2E_EXTRA:-}; do
	for f in "$d"/*.sh; do
		[ -f "$f" ] || continue
		name=${f##*/}
		name=${name%.sh}
		case $name in lib | lib-*) continue ;; esac
		selected "$name" || continue
		if [ -n "${SRC[/e2e/$name.sh]:-}" ]; then
			log "e2e: $f: a guest test named $name already exists: ignored"
			continue
		fi
		SRC[/e2e/$name.sh]=$f
		ntests=$((ntests + 1))
		headers "$f"
		if [ -n "${MESH:-}" ]; then
			H_meshes=$MESH
		else
			H_meshes=${HDR[meshes]:-}
		fi
		H_subfw=${HDR[subset-fw]:-}
		H_sub=${HDR[subset]:-}
		H_subx=${HDR[subset-meshes]:-}
		# the kernels of "# subset-kernels:" that run this script
		H_subk=
		for x in ${HDR[subset-kernels]:-}; do
			for fw in "${FWS[@]}"; do
				[ -n "${PSUB[$x/$fw]+set}" ] || continue
				# shellcheck disable=SC2086 # a list of names
				[ -z "${PTESTS[$x/$fw]:-}" ] ||
					in_list "$name" ${PTESTS[$x/$fw]} || continue
				H_subk="$H_subk $x"
				break
			done
		done
		faults=${HDR[faults]:-}
		tk=${HDR[kernels]:-}
		tf=${HDR[fw]:-}
		to=${HDR[timeout]:-}
		nu=${HDR[numa]:-}
		nu=${nu%% *}
		case $nu in '' | 2) ;; *)
			log "e2e: $name: '# numa: $nu' unsupported (only 2)"
			nu=bad ;;
		esac
		ic=${HDR[icount]:-}
		ic=${ic%% *}
		[ "${E2E_ICOUNT:-}" = off ] && ic=
		if [ -n "$ic" ] && ! [[ $ic =~ ^[a-z0-9=,]+$ ]]; then
			log "e2e: $name: bad '# icount: $ic' header"
			ic=bad
		fi
		pv=${HDR[vcpus]:-}
		pv=${pv%% *}
		case $pv in '' | parallel) ;; *)
			log "e2e: $name: '# vcpus: $pv' unsupported (only parallel)"
			pv=bad ;;
		esac
		[ -n "${E2E_TCG:-}" ] && [ "$pv" != bad ] && pv=
		[ -n "$ic" ] && [ "$pv" = parallel ] && pv=bad
		[[ $to =~ ^[0-9]+$ ]] || to=$TEST_TIMEOUT_DEFAULT
		for k in "${KERNELS[@]}"; do
			# shellcheck disable=SC2086
			[ -n "$tk" ] && ! in_list "$k" $tk && continue
			for fw in "${FWS[@]}"; do
				# shellcheck disable=SC2086
				[ -n "$tf" ] && ! in_list "$fw" $tf && continue
				[ -n "${PSUB[$k/$fw]+set}" ] || continue
				# shellcheck disable=SC2086 # a list of names
				[ -z "${PTESTS[$k/$fw]:-}" ] ||
					in_list "$name" ${PTESTS[$k/$fw]} || continue
				script_meshes "$k/$fw"
				for m in $SM; do
					mn=${m##*/}
					mn=${mn%.mesh}
					if [ -f "$m" ]; then
						MESHFILE[$mn]=$m
					else
						MESHFILE[$mn]=$MESHDIR/$m.mesh
					fi
					tok=$to
					[ "$k" = debug ] && tok=$((to * DEBUG_SLOWDOWN))
					for flt in ${faults:-none}; do
						key="$k|$fw|$mn|$flt|$nu|$pv|$ic"
						GROUP[$key]="${GROUP[$key]:-} /e2e/$name.sh:$tok"
						GTIME[$key]=$(( ${GTIME[$key]:-0} + tok ))
					done
				done
			done
		done
	done
done
# a plan's script that does not exist would silently not run
for kf in "${!PTESTS[@]}"; do
	# shellcheck disable=SC2086 # a list of names
	for x in ${PTESTS[$kf]}; do
		[ -n "${SRC[/e2e/$x.sh]:-}" ] || selected "$x" || continue
		[ -n "${SRC[/e2e/$x.sh]:-}" ] && continue
		log "e2e: E2E_PLAN $kf: no guest test named $x"
		echo "e2e: 0 passed, 1 failed, 0 skipped"
		exit 1
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
		IFS='|' read -r k fw mn flt nu pv ic <<< "$key"
		ki=0; for x in "${KERNELS[@]}"; do [ "$x" = "$k" ] && break; ki=$((ki + 1)); done
		fi=0; for x in "${FWS[@]}"; do [ "$x" = "$fw" ] && break; fi=$((fi + 1)); done
		printf '%d %d %s %s %s %s %s\t%s\n' "$ki" "$fi" "$mn" "$flt" "$nu" "$pv" "$ic" "$key"
	done | sort | cut -f2)
# key_vars KEY: the boot's names (k fw mn flt nu pv ic label pre tag fwd
# tmo)
key_vars() {
	IFS='|' read -r k fw mn flt nu pv ic <<< "$1"
	label=$mn
	[ "$flt" = none ] || label="$mn+$flt"
	[ -z "$ic" ] || label="$label+icount"
	pre="e2e/$k/$fw/$label"
	tag="$k-$fw-$label"
	# a NUMA boot has its own firmware (DTB dumped with -numa) and files
	[ -n "$nu" ] && tag="$tag-numa$nu"
	[ "$pv" = parallel ] && tag="$tag-mttcg"
	# firmware files per boot: boots may run at once (E2E_JOBS)
	fwd="$RUN/fw-$tag"
	tmo=$(( ${GTIME[$1]} + 90 ))
	[ "$k" = debug ] && tmo=$(( ${GTIME[$1]} + 90 * DEBUG_SLOWDOWN ))
	return 0
}

# longest boot first, so that the pool of E2E_JOBS guests ends together:
# a boot's estimate is the sum over its scripts of the last recorded guest
# time of the script on the same boot (timings.txt, e2e-script lines),
# else of half its timeout (an unknown script counts long: it starts early)
declare -A LAST=()
while read -r lt lv; do
	LAST[$lt]=$lv
done < <(awk '$1 == "e2e-script" && $4 ~ /^[0-9.]+$/ {
	print $2 "/" $3, int($4) + 1 }' "$OUTD/timings.txt" 2>/dev/null)
mapfile -t KEYS < <(
	i=0
	for key in "${KEYS[@]}"; do
		key_vars "$key"
		est=0
		for t in ${GROUP[$key]}; do
			n=${t%:*}
			n=${n##*/}
			n=${n%.sh}
			est=$((est + ${LAST[$tag/$n]:-$((${t##*:} / 2))}))
		done
		printf '%d %d\t%s\n' "$est" "$i" "$key"
		i=$((i + 1))
	done | sort -k1,1nr -k2,2n | cut -f2)
log "e2e: ${#KEYS[@]} boot(s), $ntests test script(s); logs in $RUN"
# E2E_LIST=1: print the boots ("<key> <timeout> <scripts>") and stop
if [ "${E2E_LIST:-0}" = 1 ]; then
	for key in "${KEYS[@]}"; do
		echo "$key ${GTIME[$key]}${GROUP[$key]}"
	done
	exit 0
fi

# launch KEY: in the background, the firmware, the per-boot initramfs and
# the boot of KEY; leaves $RUN/<tag>.rc (boot.sh's status), or
# $RUN/<tag>.why when it could not boot
declare -A PIDS=() CAPPED=()
launch() {
	local st rem note out=
	key_vars "$1"
	st=$k/$fw
	STARTED[$st]=${STARTED[$st]:-$(date +%s)}
	SBOOTS[$st]=$(( ${SBOOTS[$st]:-0} + 1 ))
	# E2E_STAGE_TIMEOUT: a stage's boots get what is left of its time
	if [ -n "$STMO" ]; then
		rem=$((STMO - ${ACTIVE[$st]:-0}))
		if [ "$rem" -le 0 ]; then
			out="the stage's $STMO s ran out before this boot"
			STIMEDOUT[$st]=1
		elif [ "$rem" -lt "$tmo" ]; then
			tmo=$rem
			CAPPED[$1]=$tmo
		fi
	fi
	note=$(seed_note "$mn" "$k" "$fw")
	[ -z "$note" ] || log "e2e: $pre: $note"
	(
		# shellcheck disable=SC2086
		set -- ${GROUP[$1]}
		if [ -n "$out" ]; then
			echo "$out" > "$RUN/$tag.why"
			exit 0
		fi
		if [ "$nu" = bad ]; then
			echo "bad '# numa:' header" > "$RUN/$tag.why"
			exit 0
		fi
		if [ "$ic" = bad ]; then
			echo "bad '# icount:' header" > "$RUN/$tag.why"
			exit 0
		fi
		if [ "$pv" = bad ]; then
			echo "bad '# vcpus:' header (or with '# icount:')" > "$RUN/$tag.why"
			exit 0
		fi
		tcg=${E2E_TCG:-single}
		[ "$pv" = parallel ] && tcg=multi
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
			LOG="$RUN/$tag.log" NUMA=$nu LABEL="e2e $tag" TIMEOUT=$tmo QEMU_TCG=$tcg \
			QEMU_EXTRA="${QEMU_EXTRA:-}${ic:+ -icount $ic}" \
			"$VM/boot.sh" || brc=$?
		rm -f "$initrd"
		echo "$brc" > "$RUN/$tag.rc"
	) &
	PIDS[$1]=$!
}

# script_times LOG TAG: one timings.txt line per guest script: guest wall
# seconds and guest CPU-busy seconds (both from the guest's own clock, so
# the host's other load does not count), from the end of the previous
# script (the isolation between scripts goes to the next one)
script_times() {
	awk -v tag="$2" '
	/=== CMN-GUEST-INIT / || /=== CMN-TEST-END / {
		u = b = ""
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^uptime=/) u = substr($i, 8)
			if ($i ~ /^busy=/) b = substr($i, 6)
		}
		if (u == "" || b == "") next
		if ($2 == "CMN-TEST-END" && pu != "") {
			n = $3; sub(/.*\//, "", n); sub(/\.sh$/, "", n)
			printf "%-44s %8.1f s  busy %6.1f s\n",
				"e2e-script " tag " " n, u - pu, b - pb
		}
		pu = u; pb = b
	}' "$1"
}

# collect KEY: wait for KEY's boot and print its results
collect() {
	local key=$1 t why note
	key_vars "$key"
	wait "${PIDS[$key]}" || true
	note=$(seed_note "$mn" "$k" "$fw")
	[ -z "$note" ] || echo "  $pre: random mesh $note"
	# shellcheck disable=SC2086
	set -- ${GROUP[$key]}
	if [ -f "$RUN/$tag.why" ] || [ ! -f "$RUN/$tag.rc" ]; then
		why=$(cat "$RUN/$tag.why" 2>/dev/null || echo "no boot status (preparing the boot failed; see the log above)")
		for t in "$@"; do emit_fail "$pre/$(basename "${t%:*}" .sh)" "not run: $why"; done
		return 0
	fi
	blog="$RUN/$tag.log"
	brc=$(cat "$RUN/$tag.rc")
	script_times "$blog" "$tag" >> "$OUTD/timings.txt"
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
	if [ -f "$blog.time" ]; then
		read -r _ c < "$blog.time"
		SCPU[$k/$fw]=$(echo "${SCPU[$k/$fw]:-0} + $c" | bc)
	fi
	if [ "$brc" = 124 ] && [ -n "${CAPPED[$key]:-}" ]; then
		tmo=${CAPPED[$key]}
		STIMEDOUT[$k/$fw]=1
		bad="timed out after $tmo s, what was left of the stage's $STMO s${bad:+; $bad}"
	elif [ "$brc" = 124 ]; then
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
# njobs: NJOBS, or what E2E_JOBS_FILE holds when it holds a positive number
# (make check starts the pool with one guest beside its other stages and
# writes the full number there when they are done)
njobs() {
	local n=''
	[ -z "${E2E_JOBS_FILE:-}" ] || n=$(cat "$E2E_JOBS_FILE" 2>/dev/null || true)
	case $n in '' | *[!0-9]* | 0) n=$NJOBS ;; esac
	echo "$n"
}
# running: boots launched and not finished yet
running() {
	local j n=0
	for ((j = 0; j < nl; j++)); do
		kill -0 "${PIDS[${KEYS[$j]}]}" 2>/dev/null && n=$((n + 1))
	done
	echo "$n"
}
# Per stage (kernel/firmware pair): ACTIVE seconds during which at least one
# of its boots ran (what the stage would take alone; E2E_STAGE_TIMEOUT
# bounds it), SCPU host CPU seconds of its boots, STARTED, SBOOTS,
# STIMEDOUT. E2E_STAGE_REPORT=<file> gets one line per stage.
STMO=${E2E_STAGE_TIMEOUT:-}
case $STMO in *[!0-9]*) STMO= ;; esac
declare -A ACTIVE=() SCPU=() STARTED=() SBOOTS=() STIMEDOUT=()
t_tick=$(date +%s)
# tick: add the time since the last tick to every stage with a boot running
tick() {
	local j now key k fw
	declare -A on=()
	now=$(date +%s)
	for ((j = 0; j < nl; j++)); do
		key=${KEYS[$j]}
		kill -0 "${PIDS[$key]}" 2>/dev/null || continue
		IFS='|' read -r k fw _ <<< "$key"
		on[$k/$fw]=1
	done
	for j in "${!on[@]}"; do
		ACTIVE[$j]=$(( ${ACTIVE[$j]:-0} + now - t_tick ))
	done
	t_tick=$now
}
t_all=$(date +%s)
nl=0
for ((i = 0; i < ${#KEYS[@]}; i++)); do
	# keep NJOBS boots running (a free slot takes the next boot) until
	# boot i has finished
	while :; do
		tick
		while [ $nl -lt ${#KEYS[@]} ] && [ "$(running)" -lt "$(njobs)" ]; do
			launch "${KEYS[$nl]}"
			nl=$((nl + 1))
		done
		kill -0 "${PIDS[${KEYS[$i]}]}" 2>/dev/null || break
		sleep 1
	done
	collect "${KEYS[$i]}"
done
tick
for k in "${KERNELS[@]}"; do
	for fw in "${FWS[@]}"; do
		st=$k/$fw
		[ -n "${STARTED[$st]:-}" ] || continue
		line=$(printf 'e2e-stage %s active %d cpu %.0f boots %d timedout %d' \
			"$st" "${ACTIVE[$st]:-0}" "${SCPU[$st]:-0}" "${SBOOTS[$st]}" \
			"${STIMEDOUT[$st]:-0}")
		log "$line"
		[ -n "${E2E_STAGE_REPORT:-}" ] && echo "$line" >> "$E2E_STAGE_REPORT"
		printf '%-44s %8d s  cpu %7.0f s\n' "e2e stage $k-$fw (active)" \
			"${ACTIVE[$st]:-0}" "${SCPU[$st]:-0}" >> "$OUTD/timings.txt"
	done
done
log "e2e: boots took $(( $(date +%s) - t_all )) s, $(njobs) at once at the end; logs in $RUN"
rm -f "$RUN"/base-*.cpio.zst
echo "e2e: $NPASS passed, $NFAIL failed, $NSKIP skipped"
[ "$NFAIL" -eq 0 ] && [ "$NPASS" -gt 0 ]
