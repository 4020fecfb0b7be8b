# SPDX-License-Identifier: GPL-2.0
#
# arm_cmn_hnf: out-of-tree build of the CMN-600 HN-F PMU driver, and the
# entry points of the test suites. The real build rules are in Kbuild.
#
#   make                      build arm_cmn_hnf.ko for KDIR (default: running kernel)
#   make install              modules_install + depmod (KDIR's kernel)
#   make dkms-install         register, build and install with DKMS
#   make tools                build the cmn-hnf userspace tool
#   make test-browser         the cmn-hnf report SVG in headless Chromium (not in check)
#   make lint                 W=1 + sparse on Debian 5.10, 6.1, 6.12, 7.2 (arm64,
#                             amd64) + checkpatch + shellcheck
#   make kunit                KUnit tests in a self-built arm64 kernel (QEMU;
#                             KUNIT_KERNEL=6.12|7.2)
#   make e2e                  end-to-end tests in QEMU (KERNEL=5.10|6.1|6.12|7.2,
#                             FW=, MESH=, TESTS=)
#   make demo                 boot the demo guest with the model and perf
#   make check                everything above that tests; ends "N passed, N failed"
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

modules:
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

KRELEASE = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null || uname -r)

install: modules
	$(MAKE) -C $(KDIR) M=$(PWD) modules_install
	depmod -a $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KRELEASE)

dkms-install:
	@test -n "$(DKMS_VERSION)" || { echo "dkms.conf: no PACKAGE_VERSION"; exit 1; }
	rm -rf /usr/src/arm_cmn_hnf-$(DKMS_VERSION)
	mkdir -p /usr/src/arm_cmn_hnf-$(DKMS_VERSION)
	cp -r Kbuild Makefile dkms.conf include drivers /usr/src/arm_cmn_hnf-$(DKMS_VERSION)/
	dkms add -m arm_cmn_hnf -v $(DKMS_VERSION) || true
	dkms build -m arm_cmn_hnf -v $(DKMS_VERSION)
	dkms install -m arm_cmn_hnf -v $(DKMS_VERSION)

tools:
	@if [ -f tools/cmn-hnf/Makefile ]; then \
		$(MAKE) -C tools/cmn-hnf; \
	else \
		echo "tools/cmn-hnf: not present yet"; exit 1; \
	fi

test-browser:
	$(MAKE) -C tools/cmn-hnf test-browser

lint:
	$(TESTING)/build/lint.sh

kunit:
	$(TESTING)/kunit/run.sh

e2e:
	$(TESTING)/vm/e2e.sh

demo:
	$(TESTING)/vm/demo.sh

check:
	$(TESTING)/build/check.sh

mutants: ; $(TESTING)/mutants/run.sh

.PHONY: all modules clean install dkms-install tools test-browser lint kunit e2e demo check mutants
