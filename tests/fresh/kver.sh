#!/usr/bin/env bash
# Which kernel scripts/kver.sh picks (PROTOCOL lines, ids fresh/kver-...):
# in a private mount namespace, empty tmpfs mounts over /usr/src and /boot
# get the header directories and images of each case, and the real
# scripts/kver.sh must name the newest release that has both headers and an
# image (the guests boot /boot/vmlinuz-KVER with the module built against
# those headers), of Debian's plain amd64 flavour (what setup-deps.sh
# installs: linux-image-amd64; -rt and -cloud are other kernels), and fall
# back to the newest headers when no image matches (make alone builds).
# Needs root (unshare -m); tests/fresh/run.sh runs it.  The host's /usr/src
# and /boot are only hidden, never written.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "${1:-}" = --inside ]; then	# --inside "HEADERS..." "IMAGES..."
	mount -t tmpfs -o size=1m famfs-fresh /usr/src && mount -t tmpfs -o size=1m famfs-fresh /boot || exit 90
	for v in $2; do mkdir "/usr/src/linux-headers-$v"; done
	mkdir /usr/src/linux-headers-6.1.0-57-common	# never a candidate
	for v in $3; do : > "/boot/vmlinuz-$v"; done
	exec "$repo/scripts/kver.sh"
fi

if [ "$(id -u)" != 0 ]; then
	echo "SKIP fresh/kver: needs root for a private mount namespace (unshare -m)"; exit 0
fi
fails=0
# kcase ID WANT "HEADERS..." "IMAGES..."
kcase() {
	local id=$1 want=$2 got
	got=$(unshare -m --propagation private "$here/kver.sh" --inside "$3" "$4" 2>&1)
	if [ "$got" = "$want" ]; then echo "PASS fresh/kver-$id"
	else echo "FAIL fresh/kver-$id: headers {$3} images {$4}: scripts/kver.sh said '$got', want '$want'"; fails=$((fails + 1)); fi
}
kcase one 6.1.0-57-amd64 "6.1.0-57-amd64" "6.1.0-57-amd64"
kcase headers-newer-than-image 6.1.0-57-amd64 "6.1.0-57-amd64 6.1.0-58-amd64" "6.1.0-57-amd64"
kcase image-newer-than-headers 6.1.0-57-amd64 "6.1.0-57-amd64" "6.1.0-57-amd64 6.1.0-58-amd64"
kcase version-order 6.1.0-10-amd64 "6.1.0-9-amd64 6.1.0-10-amd64" "6.1.0-9-amd64 6.1.0-10-amd64"
kcase not-rt 6.1.0-57-amd64 "6.1.0-57-amd64 6.1.0-57-rt-amd64" "6.1.0-57-amd64 6.1.0-57-rt-amd64"
kcase not-cloud 6.1.0-57-amd64 "6.1.0-57-cloud-amd64 6.1.0-57-amd64" "6.1.0-57-amd64 6.1.0-57-cloud-amd64"
kcase rt-only 6.1.0-57-rt-amd64 "6.1.0-57-rt-amd64" "6.1.0-57-rt-amd64"
kcase headers-only 6.1.0-58-amd64 "6.1.0-57-amd64 6.1.0-58-amd64" ""
kcase nothing "" "" ""
exit $((fails > 0))
