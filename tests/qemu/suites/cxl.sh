# profiles: cxl
# timeout: 400
# famfs on emulated CXL memory (QEMU cxl-type3 -> cxl create-region ->
# namespace): first the fsdax namespace the profile makes (/dev/pmem0), then
# the same region as a devdax namespace bound to famfs (/dev/dax0.0).  mkfs,
# mount, cp, a mapped file read back both ways, remount, fsck.  The CXL
# window is MMIO-emulated (slow): a few MiB of data only.
. "$FAMFS_SRC/tests/qemu/lib.sh"
# Its mounts are -o noprotect: devdax_test makes files with open(O_CREAT)
# and maps them itself, as the 2024 user space did (issue 29).

M=/mnt/famfs
mkdir -p $M
export FAMFS_HOST_ID_FILE=/tmp/cxl-host-uuid

# famfs_on DEV PREFIX: the file system checks on one device.
famfs_on() {
	DEV=$1 PFX=$2
	t_ok ${PFX}mkfs famfs mkfs -f --loglen 2m "$DEV"
	t_ok ${PFX}mount famfs mount -o noprotect "$DEV" $M
	t_ok ${PFX}mkdir famfs mkdir -p $M/a/b
	t_ok ${PFX}cp famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/a/b/h
	t_ok ${PFX}cp-bytes cmp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/a/b/h
	t_ok ${PFX}mkfile famfs mkfile -s 2m -S 5 $M/a/f
	t_ok ${PFX}verify famfs verify -S 5 $M/a/f
	run_prog devdax_test cmp $M/a/f
	t_ok ${PFX}mkfile-extent famfs mkfile -s 2m $M/a/x
	[ "$DEV" != "${DEV#/dev/dax}" ] && run_prog devdax_test extent $M/a/x "$DEV"
	t_ok ${PFX}umount umount $M
	t_ok ${PFX}fsck famfs fsck "$DEV"
	t_ok ${PFX}remount famfs mount -o noprotect "$DEV" $M
	t_ok ${PFX}verify-after-remount famfs verify -S 5 $M/a/f
	t_ok ${PFX}cp-bytes-after-remount cmp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/a/b/h
	t_ok ${PFX}umount-again umount $M
}

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
t_ok cxl-region test -d /sys/bus/cxl/devices/region0
echo "cxl: $(cat /sys/bus/cxl/devices/region0/size 2>/dev/null) bytes in region0; $FAMFS_DEV"

# The fsdax namespace of the profile.
if [ "$FAMFS_DEV_MODE" = fsdax ]; then
	famfs_on /dev/pmem0 fsdax-
	ns=$(basename "$(readlink -f /sys/block/pmem0/device/..)")
	case $ns in namespace*) ;; *) ns=$(ls /sys/bus/nd/devices | grep '^namespace' | head -n 1) ;; esac
	t_ok devdax-namespace ndctl create-namespace -f -e "$ns" -m devdax --map=mem
	wait_for /dev/dax0.0 10
fi

# The same memory as a devdax namespace, bound to famfs.
N=$(ls /sys/bus/dax/devices 2>/dev/null | head -n 1)
if [ -z "$N" ]; then
	t_fail devdax-device "no dax device on the CXL region"
	exit 0
fi
t_ok bind famfs bind "$N"
famfs_on /dev/$N devdax-
t_ok unbind famfs bind -u "$N"

# Leave the namespace as the profile made it, for the suites after this one.
if [ "$FAMFS_DEV_MODE" = fsdax ]; then
	t_ok fsdax-again ndctl create-namespace -f -e "$ns" -m fsdax --map=mem
	t_ok pmem-again wait_for /dev/pmem0 10
fi
exit 0
