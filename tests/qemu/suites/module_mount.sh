# profiles: pmem nvdimm
# timeout: 300
# famfs.ko, mount and unmount: options and /proc/mounts, each mount error with
# its errno and exactly one kernel log line, 100 mount/umount cycles that leak
# nothing, rmmod after unmount, and a device without DAX (progs/module_mount.c).
. "$FAMFS_SRC/tests/qemu/lib.sh"

# mount_err NAME ERRNO SRC [OPTS]: the mount fails with ERRNO and logs one line.
mount_err() {
	klog_mark
	run_prog module_mount try "$1" "$2" "$3" $MPT2 $4
	_log=$(klog_since)
	echo "module_mount: $1: kernel log: $_log"
	t_eq "$1-one-log-line" 1 "$(echo "$_log" | grep -c 'famfs')"
}

famfs_loaded || exit 0
MPT=/tmp/famfs-mnt MPT2=/tmp/famfs-mnt2
mkdir -p $MPT $MPT2

# A plain mount: source and options in /proc/mounts, root directory 0755.
run_prog module_mount try mount 0 "$FAMFS_DEV" $MPT
line=$(grep " $MPT famfs " /proc/mounts)
echo "module_mount: /proc/mounts: $line"
t_eq proc-mounts-source "$FAMFS_DEV" "${line%% *}"
case $line in
*" famfs rw,"*",mode=755,dax=always "*) t_pass proc-mounts-options ;;
*) t_fail proc-mounts-options "got '$line'" ;;
esac
t_eq root-mode 755 "$(stat -c %a $MPT)"
t_eq root-empty "" "$(ls -A $MPT)"

# Errors while it is mounted.
mount_err second-mount EBUSY "$FAMFS_DEV"
major=$(stat -c %t "$FAMFS_DEV") minor=$(stat -c %T "$FAMFS_DEV")
mknod /tmp/famfs-alias b $((0x$major)) $((0x$minor))
mount_err second-mount-alias EBUSY /tmp/famfs-alias
rm -f /tmp/famfs-alias
t_not rmmod-while-mounted rmmod famfs
t_ok still-loaded grep -q '^famfs ' /proc/modules
t_ok umount umount $MPT

# Options.
run_prog module_mount try mount-mode-0700 0 "$FAMFS_DEV" $MPT mode=0700,dax=always
t_eq mode-0700 700 "$(stat -c %a $MPT)"
case $(grep " $MPT famfs " /proc/mounts) in
*",mode=700,dax=always "*) t_pass proc-mounts-mode-0700 ;;
*) t_fail proc-mounts-mode-0700 "$(grep " $MPT famfs " /proc/mounts)" ;;
esac
umount $MPT
run_prog module_mount try mount-dax-always 0 "$FAMFS_DEV" $MPT dax=always
# Remount read-only and back: the namespace follows.
t_ok remount-ro mount -o remount,ro $MPT
t_not remount-ro-no-create touch $MPT/x
t_ok remount-rw mount -o remount,rw $MPT
t_ok remount-rw-create touch $MPT/x
umount $MPT 2>/dev/null

# A read-only device (blockdev --setro): a read-write mount is refused, a
# read-only one works, and neither remount,rw of it nor of a read-write mount
# whose device went read-only since gets past the device (EROFS); remount,ro
# does.  get_tree_nodev leaves s_bdev NULL, so the VFS does not check this.
if [ "$FAMFS_DEV_MODE" = fsdax ]; then
	t_ok setro blockdev --setro "$FAMFS_DEV"
	run_prog module_mount try rw-mount-of-ro-device EACCES "$FAMFS_DEV" $MPT
	run_prog module_mount try-ro ro-mount-of-ro-device 0 "$FAMFS_DEV" $MPT
	klog_mark
	run_prog module_mount remount ro-device-remount-rw EROFS $MPT rw
	t_eq ro-device-remount-rw-one-line 1 "$(klog_since | grep -c 'famfs')"
	case $(grep " $MPT famfs " /proc/mounts) in
	*" famfs ro,"*) t_pass ro-device-still-ro ;;
	*) t_fail ro-device-still-ro "$(grep " $MPT famfs " /proc/mounts)" ;;
	esac
	t_not ro-device-no-create touch $MPT/x
	t_ok setrw blockdev --setrw "$FAMFS_DEV"
	run_prog module_mount remount rw-device-remount-rw 0 $MPT rw
	t_ok rw-device-create touch $MPT/x
	t_ok setro-mounted blockdev --setro "$FAMFS_DEV"
	run_prog module_mount remount went-ro-remount-rw EROFS $MPT rw
	run_prog module_mount remount went-ro-remount-ro 0 $MPT ro
	run_prog module_mount remount went-ro-remount-rw-again EROFS $MPT rw
	blockdev --setrw "$FAMFS_DEV"
	umount $MPT 2>/dev/null
fi

# Errors, each with its errno and one log line.
mount_err unknown-option EINVAL "$FAMFS_DEV" bogus=1
mount_err unknown-flag-option EINVAL "$FAMFS_DEV" bogus
mount_err dax-never EINVAL "$FAMFS_DEV" dax=never
mount_err dax-inode EINVAL "$FAMFS_DEV" dax=inode
mount_err mode-not-octal EINVAL "$FAMFS_DEV" mode=abc
mount_err mode-type-bits EINVAL "$FAMFS_DEV" mode=040755
mount_err missing-path ENOENT /dev/no-such-pmem
: > /tmp/famfs-regular-file
mount_err regular-file ENOTBLK /tmp/famfs-regular-file
mount_err char-device ENOTBLK /dev/null
mount_err no-source EINVAL -

run_prog module_mount lazy "$FAMFS_DEV" $MPT

# 100 cycles with a directory and a mapped, written file each time.
klog_mark
run_prog module_mount cycles 100 "$FAMFS_DEV" $MPT
t_eq cycles-no-warnings "" "$(klog_since | grep -v 'famfs (.*): mounted' | grep -i 'warn\|bug\|leak\|busy')"
t_eq cycles-no-bdi-left 0 "$(ls /sys/class/bdi | grep -c '^famfs-')"
t_eq cycles-no-mount-left "" "$(grep ' famfs ' /proc/mounts)"
t_eq module-refcount 0 "$(awk '$1 == "famfs" { print $3 }' /proc/modules)"

# rmmod after unmount; nothing left behind (kmem_cache_destroy complains).
klog_mark
t_ok rmmod rmmod famfs
t_not unloaded grep -q '^famfs ' /proc/modules
t_eq rmmod-clean "" "$(klog_since | grep -i 'objects remaining\|kmem_cache\|bug\|warn')"
t_ok reload insmod "$FAMFS_KO"
run_prog module_mount try mount-after-reload 0 "$FAMFS_DEV" $MPT
umount $MPT 2>/dev/null

# A device without DAX.  A namespace nothing claims (legacy e820 pmem) goes
# raw through its force_raw attribute; a claimed one (an fsdax pfn device on
# an NVDIMM) is recreated in raw mode with ndctl.  Then back to fsdax.
ns=/sys/bus/nd/devices/namespace0.0
rebind_raw() {	# 1 or 0
	echo namespace0.0 > $ns/driver/unbind && echo "$1" > $ns/force_raw &&
		echo namespace0.0 > /sys/bus/nd/drivers/nd_pmem/bind
}
if [ -z "$(cat $ns/holder 2>/dev/null)" ]; then
	rebind_raw 1
	raw_undo="rebind_raw 0"
else
	ndctl create-namespace -f -e namespace0.0 -m raw >/dev/null
	raw_undo="ndctl create-namespace -f -e namespace0.0 -m fsdax"
fi
if wait_for /dev/pmem0 && [ "$(cat /sys/block/pmem0/queue/dax)" = 0 ]; then
	mount_err raw-namespace EOPNOTSUPP /dev/pmem0
else
	t_fail raw-namespace "could not put namespace0.0 in raw mode"
fi
$raw_undo >/dev/null
wait_for /dev/pmem0
t_eq fsdax-restored 1 "$(cat /sys/block/pmem0/queue/dax 2>&1)"
run_prog module_mount try mount-after-restore 0 "$FAMFS_DEV" $MPT
umount $MPT 2>/dev/null
