# SPDX-License-Identifier: GPL-2.0
#
# famfs: the kernel module (fs/famfs, built out of tree by Kbuild) and the
# famfs-cli tool (tools/famfs-cli).  See README.md.
#
#   make            module + tools
#   make check      host unit tests and every guest suite (QEMU); last line
#                   is "N passed, N failed[, N skipped]"
#   make demo       the two-host demo on emulated shared memory
#   make bench      benchmarks (see scripts/bench.sh)
#
# The kernel is the newest Debian linux-headers-*-amd64 installed, never the
# running kernel: modules are only ever loaded inside QEMU guests.

KVER ?= $(shell ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | \
	  sed 's,.*/linux-headers-,,' | sort -V | tail -n 1)
KDIR ?= /usr/src/linux-headers-$(KVER)
export KVER KDIR

.PHONY: all module tools unit check guest demo bench clean checkpatch sparse

all: module tools

module:
	@test -d "$(KDIR)" || { echo "famfs: no kernel headers at '$(KDIR)'; run scripts/setup-deps.sh" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=$(W) C=$(C) modules

tools:
	$(MAKE) -C tools/famfs-cli

unit:
	$(MAKE) -C tools/famfs-cli check

check:
	scripts/setup-deps.sh
	scripts/check.sh

demo:
	scripts/setup-deps.sh
	scripts/demo.sh

bench:
	scripts/bench.sh

checkpatch:
	scripts/checkpatch.sh

clean:
	-$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C tools/famfs-cli clean
	rm -rf tests/qemu/build
