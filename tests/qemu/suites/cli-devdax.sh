# profiles: nvdimm-devdax
# timeout: 200
# famfs-cli on a device-dax device (/dev/daxX.Y: mmap only, no read/write,
# no fsync): mkfs and fsck through the tool's own mapping (cache-line
# flushes), then bound to famfs.ko (famfs bind) the same through a mount.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
export FAMFS_HOST_ID_FILE=/tmp/cli-host-uuid
mkdir -p $M


size=$(cat /sys/bus/dax/devices/$(basename $DEV)/size)
t_rc mkfs 0 famfs mkfs -f $DEV
t_has mkfs-size-from-sysfs "$DEV: $size bytes"
t_rc mkfs-refuses-existing 2 famfs mkfs $DEV
t_rc fsck-dev 0 famfs fsck $DEV
t_rc mkfs-kill 0 famfs mkfs -k $DEV
t_rc fsck-killed 3 famfs fsck $DEV
t_rc mkfs-loglen 0 famfs mkfs --loglen 16m $DEV
t_has mkfs-loglen-entries "(65532 slots of 256 bytes"
t_rc fsck-again 0 famfs fsck $DEV

# A device-dax instance is mounted once bound to famfs.ko's dax driver.
if [ -d /sys/bus/dax/drivers/famfs ]; then
	t_rc mount-unbound-refused 2 famfs mount $DEV $M
	t_has mount-unbound-says-bind "famfs bind"
	t_rc bind 0 famfs bind $DEV
fi
# famfs.ko mounts /dev/daxX.Y once it is bound to its dax-bus driver.
t_rc bind 0 famfs bind $DEV
OUT=$(famfs mount $DEV $M 2>&1); rc=$?
if [ $rc -ne 0 ] && echo "$OUT" | grep -q "Block device required"; then
	t_skip mount "famfs.ko does not mount device-dax yet: $OUT"
	exit 0
fi
t_eq mount 0 "$rc"
t_rc mkfile 0 famfs mkfile -s 7m -S 3 $M/f
t_rc cp 0 famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/h
t_rc fsck-mounted 0 famfs fsck $DEV
umount $M
t_rc remount 0 famfs mount $DEV $M
t_rc verify 0 famfs verify -S 3 $M/f
t_ok cp-bytes cmp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/h
umount $M
if [ -d /sys/bus/dax/drivers/famfs ]; then
	t_rc unbind 0 famfs bind -u $DEV
	t_eq unbind-back-to-device_dax device_dax \
		"$(basename "$(readlink /sys/bus/dax/devices/$(basename $DEV)/driver)")"
fi
exit 0
