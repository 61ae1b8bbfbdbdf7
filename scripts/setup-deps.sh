#!/usr/bin/env bash
# Install (as root, with apt) everything famfs needs to build and test.
# Idempotent: when every package is present it only checks and exits.
set -euo pipefail

pkgs=(
	build-essential gcc gcc-multilib make pkg-config git
	linux-image-amd64 linux-headers-amd64 linux-source-6.1
	qemu-system-x86 busybox-static kmod cpio xz-utils
	ndctl daxctl libndctl-dev libdaxctl-dev
	sparse e2fsprogs util-linux libcmocka-dev
	uuid-dev zlib1g-dev libjson-c-dev libblkid-dev
	dkms gnuplot-nox
	man-db groff-base bsdextrautils openssl
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "setup-deps: missing packages: ${missing[*]}; run as root: sudo $0" >&2
		exit 1
	fi
	echo "setup-deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The headers package must match an installed image; pick the newest pair.
kver=$("$(dirname "$0")/kver.sh")
if [ -z "$kver" ] || [ ! -e "/boot/vmlinuz-$kver" ]; then
	echo "setup-deps: no matching linux-image/linux-headers pair installed" >&2
	exit 1
fi

# checkpatch.pl and private dax headers come from the matching source package.
# Unpacked into a temporary directory and renamed into place, so that an
# interrupted run (Ctrl-C, a CI timeout) never leaves a partial tree that a
# later run would take for a complete one; a tree without checkpatch.pl or
# drivers/dax (what such a run left before) is unpacked again.
src=/usr/src/linux-source-6.1
if [ -f "$src.tar.xz" ] && { [ ! -f "$src/scripts/checkpatch.pl" ] || [ ! -d "$src/drivers/dax" ]; }; then
	echo "setup-deps: unpacking $src.tar.xz (scripts/, drivers/dax/, fs/)"
	tmp=$(mktemp -d /usr/src/.linux-source-6.1.unpack.XXXXXX)
	trap 'rm -rf "$tmp"' EXIT
	tar -C "$tmp" -xf "$src.tar.xz" \
		linux-source-6.1/scripts linux-source-6.1/drivers/dax \
		linux-source-6.1/fs/dax.c linux-source-6.1/fs/zonefs linux-source-6.1/fs/erofs \
		linux-source-6.1/fs/ramfs linux-source-6.1/include linux-source-6.1/Documentation/dev-tools
	rm -rf "$src"
	mv "$tmp/linux-source-6.1" "$src"
fi
echo "setup-deps: ok (kernel $kver)"
