# SPDX-License-Identifier: GPL-2.0
#
# arm_cmn_hnf: out-of-tree build of the CMN-600 HN-F PMU driver, and the
# entry points of the test suites. The real build rules are in Kbuild.
#
#   make                      build arm_cmn_hnf.ko for KDIR (default: running kernel)
#   make install              modules_install + depmod (KDIR's kernel)
#   make uninstall            remove what make install installed, depmod
#   make dkms-install         copy the sources to /usr/src, build and install
#                             with DKMS for the running kernel (and later ones)
#   make dkms-uninstall       dkms remove --all, remove the sources
#   make deb                  Debian packages into build/deb (DEB_OUT=),
#                             DEB_ARCHES="amd64 arm64" to cross-build
#   make tools                build the cmn-hnf userspace tool
#   make install-tools        install it (PREFIX=/usr/local, DESTDIR=): the
#                             binary, man pages, bash completion, systemd unit,
#                             Grafana dashboard (PREFIX/share/cmn-hnf/grafana)
#   make uninstall-tools      remove what make install-tools installed
#   make test-browser         the cmn-hnf report SVG in headless Chromium (not in check)
#   make lint                 W=1 + sparse on Debian 5.10, 6.1, 6.12, 7.2 (arm64,
#                             amd64) and the two KUnit kernels (debug, 7.2; with
#                             the KUnit module) + checkpatch + shellcheck
#   make kunit                KUnit tests in a self-built arm64 kernel (QEMU;
#                             KUNIT_KERNEL=6.12|7.2)
#   make e2e                  end-to-end tests in QEMU (KERNEL=5.10|6.1|6.12|7.2,
#                             FW=, MESH=<name|file|random:<seed>,...>, TESTS=)
#   make meshes N=<n>         the e2e suite on n random meshes (randmesh.py seeds
#                             SEED.., default a random SEED; KERNEL=, FW=,
#                             TESTS= as for make e2e); make e2e
#                             MESH=random:<seed>[,<seed>...] boots given seeds
#   make demo                 boot the demo guest with the model and perf
#   make fuzz                 long PMU fuzzer run in QEMU (FUZZ_SEED=, FUZZ_ITERS=)
#   make stress               lifecycle/hotplug/privilege tests, full counts
#   make check                everything above that tests; ends "N passed, N failed"
#   make check-cold           make check with an empty cache (CMN_HNF_CACHE on a
#                             new directory): what a newcomer's first run does
#   make bench                arm_cmn_hnf vs Debian's arm-cmn in QEMU (not in check;
#                             MESH=, BENCH_MESHES=, KERNEL=, FW=, BENCH_*)
#   make pkg-test             install/purge the packages with DKMS in a fresh
#                             Debian 12 chroot, and walk the README quick start
#                             in fresh Debian 12 and 11 chroots (not in check)
#   make mutants              does each bug of tools/testing/mutants/ fail a test? (not in check)
#
# Caches (downloads, headers, kernel builds, logs) go to $CMN_HNF_CACHE
# (default /var/cache/arm-cmn-hnf), never into this tree.

KDIR ?= /lib/modules/$(shell uname -r)/build
PWD := $(CURDIR)
TESTING := $(CURDIR)/tools/testing
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' $(CURDIR)/dkms.conf 2>/dev/null)

# KERNEL, FW, MESH, TESTS, KUNIT_KERNEL, KVER510, KVER61, KVER12, KVER72,
# CMN_HNF_CACHE and the other variables the test scripts read reach them from
# the make command line or the environment (make exports command-line
# variables to recipes).

all: modules

# Without KDIR's build tree make would stop with a bare "No such file or
# directory"; say which headers package to install instead.
kdir-check:
	@if [ ! -f $(KDIR)/Makefile ]; then \
		if [ -x tools/packaging/kdir-hint.sh ]; then \
			tools/packaging/kdir-hint.sh $(KDIR); \
		else \
			echo "arm_cmn_hnf: no kernel build tree at $(KDIR)" >&2; exit 1; \
		fi; \
	fi

modules: kdir-check
	$(MAKE) -C $(KDIR) M=$(PWD) modules

# Without the kernel's build tree, remove the kbuild outputs by name.
clean:
	@if [ -f $(KDIR)/Makefile ]; then \
		$(MAKE) -C $(KDIR) M=$(PWD) clean; \
	else \
		find . -path ./.git -prune -o -type f \( -name '*.o' -o -name '*.ko' \
			-o -name '*.mod' -o -name '*.mod.c' -o -name '.*.cmd' \
			-o -name modules.order -o -name Module.symvers \) -print0 | \
			xargs -0r rm -f; \
	fi
	@if [ -f tools/cmn-hnf/Makefile ]; then $(MAKE) -C tools/cmn-hnf clean; fi

# The release modules_install installs for: UTS_RELEASE (Debian's headers
# have the upstream version, e.g. 6.1.192, in include/config/kernel.release)
KRELEASE = $(or $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(shell uname -r))

# updates/ on every kernel (5.10 and 6.1 default to extra/ for M= builds)
INSTALL_MOD_DIR ?= updates

install: kdir-check modules
	$(MAKE) -C $(KDIR) M=$(PWD) INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)

# The files DKMS builds from; the Debian package installs the same set.
DKMS_FILES := Kbuild Makefile dkms.conf include drivers
DKMS_SRC := /usr/src/arm_cmn_hnf-$(DKMS_VERSION)

uninstall:
	find /lib/modules/$(KRELEASE) -name 'arm_cmn_hnf.ko*' -print -delete
	-cd /lib/modules/$(KRELEASE)/$(INSTALL_MOD_DIR) 2>/dev/null && \
		rmdir -p drivers/perf/arm_cmn_hnf 2>/dev/null
	depmod -a $(KRELEASE)

dkms-install:
	@test -n "$(DKMS_VERSION)" || { echo "dkms.conf: no PACKAGE_VERSION"; exit 1; }
	@command -v dkms >/dev/null || { echo "dkms is not installed (apt install dkms)"; exit 1; }
	-dkms remove -m arm_cmn_hnf -v $(DKMS_VERSION) --all >/dev/null 2>&1
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r $(DKMS_FILES) $(DKMS_SRC)/
	dkms install -m arm_cmn_hnf -v $(DKMS_VERSION)

dkms-uninstall:
	-dkms remove -m arm_cmn_hnf -v $(DKMS_VERSION) --all
	rm -rf $(DKMS_SRC)

DEB_OUT ?= $(CURDIR)/build/deb
DEB_ARCHES ?=

deb:
	tools/packaging/make-deb.sh $(DEB_OUT) $(DEB_ARCHES)

tools:
	@if [ -f tools/cmn-hnf/Makefile ]; then \
		$(MAKE) -C tools/cmn-hnf; \
	else \
		echo "tools/cmn-hnf: not present yet"; exit 1; \
	fi

PREFIX ?= /usr/local

install-tools:
	$(MAKE) -C tools/cmn-hnf install PREFIX=$(PREFIX)

# The files to remove are those the same install puts into a scratch tree;
# then the dashboard's directory, the one directory that is the tool's own.
uninstall-tools:
	@t=$$(mktemp -d) && \
	$(MAKE) -s -C tools/cmn-hnf install PREFIX=$(PREFIX) DESTDIR=$$t > /dev/null && \
	(cd $$t && find . ! -type d | sed 's|^\.||') | while read -r f; do \
		if [ -e "$(DESTDIR)$$f" ]; then rm -v "$(DESTDIR)$$f"; fi; \
	done; rc=$$?; rm -rf $$t; \
	for d in grafana ''; do \
		if [ -d "$(DESTDIR)$(PREFIX)/share/cmn-hnf/$$d" ]; then \
			rmdir -v --ignore-fail-on-non-empty \
				"$(DESTDIR)$(PREFIX)/share/cmn-hnf/$$d" || rc=1; \
		fi; \
	done; exit $$rc

test-browser:
	$(MAKE) -C tools/cmn-hnf test-browser

lint:
	$(TESTING)/build/lint.sh

kunit:
	$(TESTING)/kunit/run.sh

e2e:
	$(TESTING)/vm/e2e.sh

meshes:
	$(TESTING)/vm/meshes.sh

demo:
	$(TESTING)/vm/demo.sh

check:
	$(TESTING)/build/check.sh

check-cold:
	$(TESTING)/build/check-cold.sh

fuzz:
	$(TESTING)/fuzz/run.sh

stress:
	$(TESTING)/stress/run.sh

bench:
	$(TESTING)/bench/bench.sh

pkg-test:
	$(TESTING)/pkg/pkg-test.sh

mutants:
	$(TESTING)/mutants/run.sh

.PHONY: all kdir-check modules clean install uninstall dkms-install dkms-uninstall \
	deb tools install-tools uninstall-tools test-browser lint kunit e2e meshes demo check check-cold \
	pkg-test fuzz stress bench mutants
