#!/bin/sh
# Print the kernel release famfs builds and tests against: the newest Debian
# linux-headers-*-amd64 under /usr/src, never the running kernel (modules are
# only ever loaded inside QEMU guests).  Prints nothing when none is installed.
# Callers run it when they need the answer, never before scripts/setup-deps.sh
# has had its chance to install the headers (tests/fresh checks that).
ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's,.*/linux-headers-,,' | sort -V | tail -n 1
