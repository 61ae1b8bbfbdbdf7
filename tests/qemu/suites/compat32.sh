# profiles: pmem
# timeout: 60
# famfs.ko from a 32-bit process: the v1 and v2 map ioctls through
# compat_ioctl round-trip and put data where the map says; FAMFSIOC_HELD
# answers through it (progs/compat32.c).
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-compat32
famfs_raw_mount $MPT || exit 0
run_prog compat32 $MPT "$FAMFS_DEV"
t_ok umount umount $MPT
