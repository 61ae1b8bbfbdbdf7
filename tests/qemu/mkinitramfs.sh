#!/usr/bin/env bash
# Build tests/qemu/build/initramfs.cpio: static busybox, /init (init.sh), the
# Debian kernel modules the profiles need (closure over modules.dep), the
# memory-device tools with their shared libraries, and the shared libraries of
# tools/famfs-cli/build/famfs-cli if it exists (the binary itself is run from
# /src over 9p).  Skips the work when a signature of all inputs is unchanged.
set -euo pipefail
# depmod is in /usr/sbin, which a user's PATH on Debian lacks (make demo as a
# user other than root: tests/fresh make-demo-nonroot)
PATH=$PATH:/usr/sbin:/sbin
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
KVER=${KVER:-$("$repo/scripts/kver.sh")}
moddir=/lib/modules/$KVER
build=$here/build
out=$build/initramfs.cpio

modules="virtio_pci 9pnet_virtio 9p nd_e820 nfit libnvdimm nd_pmem nd_btt dax_pmem
	device_dax dax_hmem kmem cxl_acpi cxl_pci cxl_mem cxl_pmem ext4 crc32c_generic crc32c-intel
	hwpoison_inject dm_mod null_blk"
tools="/usr/bin/ndctl /usr/bin/daxctl /usr/bin/cxl /usr/sbin/mkfs.ext4 /usr/sbin/e2fsck"
# dmsetup: a device-mapper device over pieces of a namespace (module_multidev)
tools="$tools /usr/sbin/dmsetup"
# util-linux mount/umount as /usr/bin/{mount,umount} (busybox's stay first in
# PATH): the install suite checks mount -t famfs runs /sbin/mount.famfs,
# which busybox mount only does when mount(2) fails.
tools="$tools /usr/bin/mount /usr/bin/umount"
# util-linux mkfs and fsck as /usr/sbin/{mkfs,fsck}: the install suite checks
# that mkfs -t famfs and fsck -t famfs run /sbin/{mkfs,fsck}.famfs.  This
# busybox has no mkfs or fsck applet; the suite calls them by full path.
tools="$tools /usr/sbin/mkfs /usr/sbin/fsck"
cli=$repo/tools/famfs-cli/build/famfs-cli
[ -x "$cli" ] && extra=$cli || extra=
# libraries famfs-cli loads at run time (dlopen), which ldd does not list:
# libblkid for famfs mkfs's probe (lib/dev/probe.c)
# (awk reads to the end: an early exit made ldconfig die of SIGPIPE now and
# then, and with pipefail and set -e this script then stopped without a word)
dlopened=$(ldconfig -p 2>/dev/null | awk '$1 == "libblkid.so.1" && /x86-64/ && !n++ { print $NF }')

[ -d "$moddir" ] || { echo "mkinitramfs: no $moddir (KVER=$KVER)" >&2; exit 1; }
mkdir -p "$build"
exec 8>"$build/.initramfs.lock" && flock 8	# one builder at a time

# Signature: every input file's name, size and mtime, plus the cli's libraries.
sig=$( { echo "$KVER $modules"; stat -c '%n %s %Y' "$0" "$here/init.sh" /bin/busybox \
	$tools $moddir/modules.dep $extra $dlopened; [ -z "$extra" ] || ldd "$extra" | sed "s/ (0x.*//"; } | md5sum)
if [ -f "$out" ] && [ "$(cat "$out.sig" 2>/dev/null)" = "$sig" ]; then
	exit 0
fi

stage=$build/initramfs.d
rm -rf "$stage"
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,src,out,sync,lib64,usr/bin,usr/sbin}
cp /bin/busybox "$stage/bin/"
for a in $(/bin/busybox --list); do
	[ -e "$stage/bin/$a" ] || ln -s busybox "$stage/bin/$a"
done
for a in modprobe insmod rmmod lsmod depmod poweroff; do ln -sf ../bin/busybox "$stage/sbin/$a"; done
install -m 0755 "$here/init.sh" "$stage/init"

# Kernel modules: the requested ones plus everything modules.dep pulls in.
mods=$(awk -v want=" $(echo $modules | tr '-' '_') " '
	{ n = $1; sub(/:$/, "", n); m = n; sub(/.*\//, "", m); sub(/\.ko.*/, "", m); gsub("-", "_", m)
	  if (index(want, " " m " ")) { print n; for (i = 2; i <= NF; i++) print $i } }' \
	"$moddir/modules.dep" | sort -u)
for m in $mods; do
	mkdir -p "$stage$moddir/$(dirname "$m")"
	cp "$moddir/$m" "$stage$moddir/$m"
done
cp "$moddir"/modules.{order,builtin,builtin.modinfo,softdep} "$stage$moddir/" 2>/dev/null || true
depmod -b "$stage" "$KVER"

# Dynamically linked tools and their libraries (plus the ASan/UBSan runtimes
# and anything else ldd lists for famfs-cli).
for t in $tools; do cp "$t" "$stage$t"; done
for lib in $( (ldd $tools $extra $dlopened 2>/dev/null | awk '/=> \//{print $3} /^\t\/.*ld-linux/{print $1}'
		echo $dlopened) | sort -u); do
	mkdir -p "$stage$(dirname "$lib")"
	cp -L "$lib" "$stage$lib"
done
# Debian's merged /usr: make /lib and /usr/lib paths both resolve.
[ -d "$stage/usr/lib" ] || ln -s ../lib "$stage/usr/lib"
echo "root:x:0:0:root:/root:/bin/sh" > "$stage/etc/passwd"

(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "$sig" > "$out.sig"
echo "mkinitramfs: $out ($(du -h "$out" | cut -f1), $(echo "$mods" | wc -w) modules)"
