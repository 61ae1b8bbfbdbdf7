#!/bin/sh
# Print the kernel release famfs builds and tests against, never the running
# kernel (modules are only ever loaded inside QEMU guests): among the Debian
# linux-headers-*-amd64 under /usr/src, the newest release that also has its
# image /boot/vmlinuz-RELEASE (the guests boot it with the module built
# against those headers), of the plain amd64 flavour (what setup-deps.sh
# installs; -rt-amd64 and -cloud-amd64 only when there is nothing else);
# without any image, the newest headers (make alone needs no image).  Prints
# nothing when no headers are installed.  Callers run it when they need the
# answer, never before scripts/setup-deps.sh has had its chance to install
# the headers (tests/fresh checks that; tests/fresh/kver.sh checks the pick).
all=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sed 's,.*/linux-headers-,,' | sort -V)
booted=$(for v in $all; do [ -e "/boot/vmlinuz-$v" ] && echo "$v"; done)
plain=$(echo "$booted" | grep -E '^[0-9][0-9.]*-[0-9]+-amd64$')
for pick in "$plain" "$booted" "$all"; do
	[ -z "$pick" ] || { echo "$pick" | tail -n 1; exit 0; }
done
