# profiles: pmem nvdimm
# timeout: 180
# kmod: famfs_stall
# famfs.ko, memory failure (progs/module_poison.c): MADV_HWPOISON on a mapped
# page fails the whole mount (SIGBUS, EIO), one log line says so, unmount
# still works and a new mount of the device is healthy; small files sharing
# a 2 MiB unit: only the failed page's file is killed; a failure in the
# memory of a map that MAP_CREATE has not published (and then does not) is
# no failure of that file's bytes.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-poison
famfs_raw_mount $MPT || exit 0
klog_mark
run_prog module_poison $MPT
log=$(klog_since)
echo "$log" | grep -i 'famfs\|memory failure'
if grep -q '^SKIP poison' /tmp/module_poison.out; then	# no injection in this kernel
	umount $MPT
	exit 0
fi
t_eq failure-logged-once 1 "$(echo "$log" | grep -c 'famfs (.*): memory failure at device bytes')"
t_ok umount-after-failure umount $MPT

# A new mount starts healthy (the failed page, 602M-, is not used again).
if out=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass remount
	run_prog module_poison $MPT healthy
	t_ok umount-again umount $MPT
else
	t_fail remount "$out"
fi

# Interleaved files: a failure in strip memory that holds no file bytes
# kills nobody (it once went to another extent's file pages), and is logged
# as such; one in a used chunk names the file bytes it holds.
modprobe hwpoison_inject 2>/dev/null
for c in past-chunk end-of-chunk used; do
	if ! mount -t famfs "$FAMFS_DEV" $MPT; then
		t_fail mount-for-$c "mount -t famfs failed"
		continue
	fi
	klog_mark
	run_prog module_poison $MPT unused $c
	log=$(klog_since | grep famfs)
	echo "$log"
	if [ $c = used ]; then
		t_eq used-file-bytes-logged 1 "$(echo "$log" | grep -c 'hits inode [0-9]*, file bytes 10493952\.\.10498047$')"
	else
		t_eq unused-$c-not-attributed 0 "$(echo "$log" | grep -c 'hits inode')"
		t_eq unused-$c-logged-as-unused 1 "$(echo "$log" | grep -c 'holds no file bytes')"
	fi
	t_ok umount-after-$c umount $MPT
done

# Small files (page extents, FAMFS_IOC_MAP_PAGES) sharing a 2 MiB unit: a
# memory failure in a page of one of them SIGBUSes that file's mappers only
# (early kill asked by both mappers) and names that file alone.
if mount -t famfs "$FAMFS_DEV" $MPT; then
	klog_mark
	run_prog module_poison $MPT shared
	log=$(klog_since | grep famfs)
	echo "$log"
	if ! grep -q '^SKIP shared' /tmp/module_poison.out; then
		set -- $(sed -n 's/^info: owner inode \([0-9]*\), neighbour inode \([0-9]*\)$/\1 \2/p' /tmp/module_poison.out)
		t_eq shared-owner-named 1 "$(echo "$log" | grep -c "hits inode ${1:-none}, file bytes 4096\.\.8191$")"
		t_eq shared-neighbour-not-named 0 "$(echo "$log" | grep -c "hits inode ${2:-none},")"
	fi
	t_ok umount-after-shared umount $MPT
else
	t_fail mount-for-shared "mount -t famfs failed"
fi

# A memory failure in the memory of a map in the extent tree that MAP_CREATE
# has not published yet (famfs_stall.ko holds it in its cache drop,
# FAMFS_IOC_MAP_INVALIDATE on a noncoherent mount) and then does not publish
# (EIO): famfs_kill_range() must not report or kill it as bytes of that file.
STALLC=$FAMFS_SRC/tests/qemu/kmod/famfs_stall.ko
if ! mount -t famfs -o noncoherent "$FAMFS_DEV" $MPT; then
	t_fail mount-for-unpublished "mount -t famfs -o noncoherent failed"
elif ! insmod "$STALLC" target=dax_direct_access path=famfs_cache_fmap \
	armed=0 once=1; then
	t_fail unpublished-stall-load "insmod $STALLC failed"
	umount $MPT
else
	klog_mark
	run_prog module_poison $MPT unpublished
	log=$(klog_since | grep famfs)
	echo "$log"
	if ! grep -q '^SKIP unpublished' /tmp/module_poison.out; then
		ino=$(sed -n 's/^info: unpublished inode \([0-9]*\)$/\1/p' /tmp/module_poison.out)
		[ -n "$ino" ] || t_fail unpublished-ino "no inode number in module_poison's output"
		t_eq unpublished-failure-logged 1 "$(echo "$log" | grep -c 'famfs (.*): memory failure at device bytes')"
		t_eq unpublished-not-attributed 0 "$(echo "$log" | grep -c "hits inode ${ino:-none},")"
	fi
	echo 1 > /sys/module/famfs_stall/parameters/go
	t_ok umount-after-unpublished umount $MPT
	t_ok unpublished-stall-unload rmmod famfs_stall
fi
