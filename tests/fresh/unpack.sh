#!/usr/bin/env bash
# scripts/setup-deps.sh unpacks /usr/src/linux-source-6.1.tar.xz (checkpatch,
# the private dax headers famfs.ko is built with).  A first make demo that
# is interrupted (Ctrl-C, a CI timeout) while tar runs leaves a partial
# tree; the next run must finish the job, not take the partial tree for a
# complete one.  PROTOCOL lines, ids fresh/unpack-...  In a private mount
# namespace: an empty tmpfs over /usr/src gets a small stand-in tarball, a
# headers directory for scripts/kver.sh (the host's /boot has the image) and
# the partial tree, and the real setup-deps.sh runs.  Needs root and every
# package setup-deps.sh checks for (it must not install anything here).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "${1:-}" = --inside ]; then	# --inside KVER
	mount -t tmpfs -o size=8m famfs-fresh /usr/src || exit 90
	cd /usr/src || exit 90
	mkdir "linux-headers-$2"
	s=linux-source-6.1
	mkdir -p $s/scripts $s/drivers/dax $s/fs/zonefs $s/fs/erofs $s/fs/ramfs $s/include/linux \
		$s/Documentation/dev-tools
	echo '#!/usr/bin/perl' > $s/scripts/checkpatch.pl
	echo '/* stand-in */' > $s/drivers/dax/dax-private.h
	echo '/* stand-in */' > $s/fs/dax.c
	tar -cJf $s.tar.xz $s && rm -rf $s
	# what an interrupted tar leaves: some of scripts/, nothing else
	mkdir -p $s/scripts
	"$repo/scripts/setup-deps.sh" >/dev/null 2>&1 || { echo "setup-deps.sh failed"; exit 0; }
	for f in scripts/checkpatch.pl drivers/dax/dax-private.h fs/dax.c; do
		[ -f "$s/$f" ] || echo "missing $s/$f"
	done
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "SKIP fresh/unpack-resumed: needs root for a private mount namespace (unshare -m)"; exit 0
fi
kver=$("$repo/scripts/kver.sh")
if [ -z "$kver" ] || [ ! -e "/boot/vmlinuz-$kver" ]; then
	echo "FAIL fresh/unpack-resumed: no kernel headers and image installed (scripts/setup-deps.sh)"; exit 1
fi
out=$(unshare -m --propagation private "$here/unpack.sh" --inside "$kver" 2>&1)
if [ -z "$out" ]; then echo "PASS fresh/unpack-resumed"
else echo "FAIL fresh/unpack-resumed: after an interrupted unpack, setup-deps.sh left: $(echo "$out" | tr '\n' ' ')"; exit 1; fi
