# SPDX-License-Identifier: GPL-2.0
#
# famfs: the kernel module (fs/famfs, built out of tree by Kbuild) and the
# famfs-cli tool (tools/famfs-cli).  See README.md.
#
#   make            module + tools
#   make check      host unit tests and every guest suite (QEMU); last line
#                   is "N passed, N failed[, N skipped]"
#   make demo       the two-host demo on emulated CXL memory (DEMO=nvdimm:
#                   on an emulated NVDIMM)
#   make bench      benchmarks (see scripts/bench.sh)
#   make install    famfs-cli, famfs, /sbin/mount.famfs and the man pages
#                   (DESTDIR, PREFIX=/usr/local, SBINDIR=/sbin), the module
#                   source in DESTDIR/usr/src/famfs-VERSION (dkms.conf) and,
#                   without DESTDIR, the module through DKMS (dkms add, then
#                   dkms install for KVER; DKMS=no skips it)
#   make uninstall  removes what make install installed (dkms remove --all)
#   make man        regenerates man/*.8 from the tool's --help tables
#
# The kernel is the newest Debian linux-headers-*-amd64 installed, never the
# running kernel: modules are only ever loaded inside QEMU guests.
# KVER and KDIR are expanded only where a recipe uses them (module, clean,
# install), never while the Makefile is parsed, and are not exported: check,
# demo and bench install the headers first (scripts/setup-deps.sh), and every
# make and script they run finds the kernel itself (scripts/kver.sh), after
# that.  KVER=/KDIR= given on the command line or in the environment win.
ifeq ($(strip $(KVER)),)
KVER = $(shell $(CURDIR)/scripts/kver.sh)
unexport KVER
endif
ifeq ($(strip $(KDIR)),)
KDIR = /usr/src/linux-headers-$(KVER)
unexport KDIR
endif

# depmod, dkms, mkfs, fsck live in /usr/sbin, which a user's PATH on Debian
# lacks: make demo and make check as a user other than root find them.
export PATH := $(PATH):/usr/sbin:/sbin

# make install: the module's source as DKMS builds it (see dkms.conf)
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
PREFIX  ?= /usr/local
DKMS    ?= $(if $(DESTDIR),no,yes)
DKMS_SRC = $(DESTDIR)/usr/src/famfs-$(VERSION)
# (not what the build generates: *.mod.c, dax_abi.h)
MOD_SRC := dkms.conf Kbuild fs/famfs/Kbuild \
	   $(filter-out %.mod.c fs/famfs/dax_abi.h,$(wildcard fs/famfs/*.[ch])) \
	   $(wildcard include/uapi/linux/famfs_*.h)

.PHONY: all module tools unit check guest demo bench clean checkpatch sparse \
	install uninstall man

all: module tools

module:
	@test -d "$(KDIR)" || { echo "famfs: no kernel headers at '$(KDIR)'; run scripts/setup-deps.sh" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) C=$(C) modules

tools:
	$(MAKE) -C tools/famfs-cli

unit:
	$(MAKE) -C tools/famfs-cli check

# check, demo and bench run the set-up step first (tests/fresh replaces it
# with a stub through FAMFS_SETUP_DEPS); FAMFS_BUILD_ONLY=1 stops each of them
# after its build (tests/fresh/run.sh).
FAMFS_SETUP_DEPS ?= scripts/setup-deps.sh

check:
	$(FAMFS_SETUP_DEPS)
	scripts/check.sh

demo:
	$(FAMFS_SETUP_DEPS)
	scripts/demo.sh $(DEMO)

bench:
	$(FAMFS_SETUP_DEPS)
	scripts/bench.sh

man:
	$(MAKE) -C tools/famfs-cli man

install: tools
	$(MAKE) -C tools/famfs-cli install PREFIX=$(PREFIX)
	install -d $(DKMS_SRC)
	for f in $(MOD_SRC); do install -D -m 0644 $$f $(DKMS_SRC)/$$f; done
ifeq ($(DKMS),yes)
	dkms status -m famfs -v $(VERSION) | grep -q . || dkms add -m famfs -v $(VERSION)
	dkms install -m famfs -v $(VERSION) -k $(KVER)
endif

uninstall:
ifeq ($(DKMS),yes)
	-dkms remove -m famfs -v $(VERSION) --all
endif
	rm -rf $(DKMS_SRC)
	$(MAKE) -C tools/famfs-cli uninstall PREFIX=$(PREFIX)

checkpatch:
	scripts/checkpatch.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/famfs-cli clean
	rm -rf tests/qemu/build
