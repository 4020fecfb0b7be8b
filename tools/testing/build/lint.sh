#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make lint: build every project module with W=1 and sparse (C=2) against
# Debian's 5.10 (bullseye), 6.1 and 6.12 (bookworm) and 7.2 (sid) headers for
# arm64 (cross) and amd64, each with the compiler its kernel was built with
# (the driver and the CMN-600 model: Debian's kernels have no CONFIG_KUNIT),
# and against the project's two self-built KUnit kernels, the debug kernel
# (6.12, "debug-arm64") and the 7.2 KUnit kernel ("kunit-7.2-arm64"), where
# the driver, the model and the KUnit module are built (both kernels are
# built on first use and cached, tools/testing/kunit/build-kernel.sh, and
# make kunit then reuses them); failing on any warning and on a module that
# was not built; then checkpatch.pl --strict on every C file, and every
# shell script through shellcheck.
#
# Environment:
#   KVER510, KVER61, KVER12, KVER72   pin the Debian ABIs (default: the
#                    newest of each series its suite serves)
#   LINT_KERNELS     subset, e.g. "6.12-arm64 5.10-amd64 debug-arm64"
#                    (default: all ten)
#   LINT_SKIP        any of "build checkpatch shellcheck" to skip a part
#   JOBS             make -j (default nproc)
#
# Output: result lines "PASS: lint/<name>" / "FAIL: lint/<name>: <why>"
# (Documentation/testing.rst), one summary line per kernel and per checker.
# Exit status: 0 only if every result passed.
# shellcheck source=../lib.sh
. "$(dirname "$0")/../lib.sh"

STAGE=lint
rc=0
fail() { result_fail "$STAGE/$1" "$2"; rc=1; }
pass() { result_pass "$STAGE/$1"; }
skipping() { case " ${LINT_SKIP:-} " in *" $1 "*) return 0 ;; esac; return 1; }

# Lines that mean a warning from gcc (incl. W=1), sparse, modpost, objtool or
# make itself.
WARN_RE=': (warning|error|fatal error):|^(WARNING|ERROR):|WARNING: modpost|^make.*(Error|\*\*\*)|^Error'

ensure_host_packages
take_lock lint

# ---------------------------------------------------------------- builds
# lint_build NAME DIR WANT CMD...: build the modules in a fresh copy of
# the tree ($OUTD/lint-DIR) with CMD (a make; M= and the flags appended),
# result build-NAME: fail on a warning or a module of WANT (paths in the
# tree) that was not built
lint_build() {
	local name=$1 bd="$OUTD/lint-$2" blog="$OUTD/lint-$2.log" want=$3 n kos k
	shift 3
	# kbuild M= writes objects next to the sources: build in a copy.
	rm -rf "$bd"
	mkdir -p "$bd"
	rsync -a --exclude=.git --exclude='*.o' --exclude='*.ko' \
		--exclude='.*.cmd' "$REPO/" "$bd/"
	if ! timed "lint build $name" "$@" M="$bd" CMN_HNF_ALL=1 \
		W=1 C=2 -j"${JOBS:-$(nproc)}" modules >"$blog" 2>&1; then
		grep -E "$WARN_RE" "$blog" | sed "s|$bd/||g; s|^|  $name: |" | head -50 || true
		tail -5 "$blog" | sed "s|^|  $name: |"
		fail "build-$name" "make modules failed (log: $blog)"
		return
	fi
	n=$(grep -cE "$WARN_RE" "$blog" || true)
	if [ "$n" -gt 0 ]; then
		grep -E "$WARN_RE" "$blog" | sed "s|$bd/||g; s|^|  $name: |"
		fail "build-$name" "$n warning line(s) (log: $blog)"
		return
	fi
	kos=$(cd "$bd" && find . -name '*.ko' -printf '%P\n' | sort | xargs)
	for k in $want; do
		if [ ! -f "$bd/$k" ]; then
			fail "build-$name" "$k was not built (built: ${kos:-nothing}; log: $blog)"
			return
		fi
	done
	log "$name: clean build, modules: $kos"
	pass "build-$name"
}

DRIVER_KO=drivers/perf/arm_cmn_hnf/arm_cmn_hnf.ko
MODEL_KO=tools/testing/cmn600-model/cmn600_model.ko
KUNIT_KO=kunit/arm_cmn_hnf_kunit.ko

build_one() { # SERIES FLAVOUR NAME
	local k=$1 fl=$2 name=$3 abi

	abi=$(kernel_abi "$k") || { fail "build-$name" "no Debian $k kernel"; return; }
	if ! fetch_kernel_headers "$k" "$fl"; then
		fail "build-$name" "cannot fetch the $abi-$fl headers"
		return
	fi
	lint_build "$name" "$abi-$fl" "$DRIVER_KO $MODEL_KO" kbuild_make "$k" "$fl"
}

# build_kunit_one KUNIT_KERNEL NAME: against a self-built KUnit kernel
# (arm64), whose CONFIG_KUNIT lets the KUnit module build too
build_kunit_one() {
	local kk=$1 name=$2 kd

	if ! kd=$(KUNIT_KERNEL=$kk "$TESTING/kunit/build-kernel.sh"); then
		fail "build-$name" "the KUnit kernel (KUNIT_KERNEL=$kk) does not build"
		return
	fi
	log "$name: the KUnit kernel in $kd"
	lint_build "$name" "$name" "$DRIVER_KO $MODEL_KO $KUNIT_KO" \
		make -C "$kd" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
}

if ! skipping build; then
	sel=${LINT_KERNELS:-}
	if [ -z "$sel" ]; then
		for k in $(kernel_series_all); do
			sel="$sel $k-arm64 $k-amd64"
		done
		sel="$sel debug-arm64 kunit-7.2-arm64"
	fi
	for k in $sel; do
		case $k in
		debug-arm64) build_kunit_one 6.12 "$k"; continue ;;
		kunit-7.2-arm64) build_kunit_one 7.2 "$k"; continue ;;
		debug-* | kunit-7.2-*)
			fail "build-$k" "the KUnit kernels are arm64 only"; continue ;;
		esac
		case ${k##*-} in
		arm64 | amd64) ;;
		*) fail "build-$k" "unknown architecture (want arm64 or amd64)"; continue ;;
		esac
		if ! kernel_suite "${k%-*}" >/dev/null; then
			fail "build-$k" "unknown kernel (want one of $(kernel_series_all))"
			continue
		fi
		build_one "${k%-*}" "${k##*-}" "$k"
	done
fi

# ---------------------------------------------------------------- checkpatch
if ! skipping checkpatch; then
	ensure_kernel_source
	CP="$KSRC/scripts/checkpatch.pl"
	mapfile -t cfiles < <(cd "$REPO" && git ls-files -co --exclude-standard \
		-- '*.c' '*.h' 2>/dev/null | sort -u)
	if [ ${#cfiles[@]} -eq 0 ]; then
		mapfile -t cfiles < <(cd "$REPO" && find . -path ./.git -prune -o \
			-name '*.[ch]' -type f -printf '%P\n' | sort)
	fi
	# Files generated by an in-tree build (kbuild, gen-meshes.sh) are not
	# sources.
	mapfile -t cfiles < <(printf '%s\n' "${cfiles[@]}" | grep -vE \
		'(\.mod\.c|/meshes_gen\.c|^kunit/model_meshes\.c)$' || true)
	# checkpatch writes a camelcase cache into a git work tree: run it in a
	# copy without .git.
	CPD="$OUTD/lint-checkpatch"
	rm -rf "$CPD"
	mkdir -p "$CPD"
	rsync -a --exclude=.git "$REPO/" "$CPD/"
	# Every file in one checkpatch run per job (its start is a good part of
	# the cost of a small file): the --terse findings of file F are the
	# lines "F:<line>: ...". The two version shims run on their own.
	CPO="$CPD/.results"
	mkdir -p "$CPO"
	declare -a cpfiles=()
	for f in "${cfiles[@]}"; do
		[ -f "$CPD/$f" ] && cpfiles+=("$f")
	done
	nj=${JOBS:-$(nproc)}
	# checkpatch_run NAME [OPTION...] -- FILE...: one run, output and status kept
	checkpatch_run() {
		local name=$1 st=0
		shift
		local opts=()
		while [ "$1" != -- ]; do opts+=("$1"); shift; done
		shift
		[ $# -gt 0 ] || return 0
		(cd "$CPD" && perl "$CP" --strict --no-tree --terse --show-types \
			"${opts[@]}" -f "$@") >"$CPO/$name.out" 2>&1 || st=$?
		echo "$st" >"$CPO/$name.rc"
	}
	bad=0
	t0=$(date +%s)
	shims=() rest=()
	for f in "${cpfiles[@]}"; do
		case $f in
		include/arm_cmn_hnf/compat.h | tools/testing/cmn600-model/kcompat.h) shims+=("$f") ;;
		*) rest+=("$f") ;;
		esac
	done
	checkpatch_run shims --ignore LINUX_VERSION_CODE -- "${shims[@]}" &
	for ((j = 0; j < nj; j++)); do
		part=()
		for ((i = j; i < ${#rest[@]}; i += nj)); do part+=("${rest[$i]}"); done
		checkpatch_run "part$j" -- "${part[@]}" &
	done
	wait
	# the run each file was in
	for f in "${cpfiles[@]}"; do
		run=shims
		for ((i = 0; i < ${#rest[@]}; i++)); do
			[ "${rest[$i]}" = "$f" ] && run=part$((i % nj))
		done
		ef=${f//./\\.}
		n=$(grep -cE "^$ef:[0-9]+: (ERROR|WARNING|CHECK):" "$CPO/$run.out" || true)
		if [ ! -f "$CPO/$run.rc" ]; then
			fail "checkpatch/$f" "checkpatch did not run"
		elif [ "$n" -gt 0 ]; then
			grep -E "^$ef:[0-9]+: " "$CPO/$run.out" | sed 's|^|  |'
			fail "checkpatch/$f" "$n finding(s)"
			bad=$((bad + 1))
		elif [ "$(cat "$CPO/$run.rc")" != 0 ] &&
		     ! grep -qE '^[^ ]+:[0-9]+: (ERROR|WARNING|CHECK):' "$CPO/$run.out"; then
			# a failed run with no finding of any file: checkpatch itself
			fail "checkpatch/$f" "checkpatch exited $(cat "$CPO/$run.rc"): $(tail -n 2 "$CPO/$run.out" | tr '\n' ' ')"
			bad=$((bad + 1))
		else
			pass "checkpatch/$f"
		fi
	done
	printf '%-44s %8d s\n' "checkpatch ${#cfiles[@]} files, $bad bad" \
		$(($(date +%s) - t0)) | tee -a "$OUTD/timings.txt" >&3
fi

# ---------------------------------------------------------------- shellcheck
if ! skipping shellcheck; then
	mapfile -t sfiles < <(cd "$REPO" && { git ls-files -co --exclude-standard \
		-- '*.sh' 2>/dev/null || find . -path ./.git -prune -o \
		-name '*.sh' -type f -printf '%P\n'; echo .ci/run
		# the fakes of coldpath.sh are shell scripts without .sh
		find tools/testing/build/fakes -type f ! -name README; } | sort -u)
	bad=0
	for f in "${sfiles[@]}"; do
		[ -f "$REPO/$f" ] || continue
		if out=$(cd "$REPO/$(dirname "$f")" &&
			shellcheck -x -S warning -e SC3043 -f gcc "$(basename "$f")" 2>&1); then
			pass "shellcheck/$f"
		else
			printf '%s\n' "$out" | sed "s|^|  $(dirname "$f")/|"
			fail "shellcheck/$f" "$(printf '%s\n' "$out" | grep -c .) finding(s)"
			bad=$((bad + 1))
		fi
	done
	log "shellcheck: ${#sfiles[@]} scripts, $bad with findings"
fi

exit $rc
