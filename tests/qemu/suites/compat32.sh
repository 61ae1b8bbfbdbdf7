# profiles: pmem
# timeout: 60
# famfs.ko from a 32-bit process: the v1 and v2 map ioctls through
# compat_ioctl round-trip and put data where the map says (progs/compat32.c).
. "$FAMFS_SRC/tests/qemu/lib.sh"

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
MPT=/tmp/famfs-compat32
mkdir -p $MPT
if ! out=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_fail mount "$out"
	exit 0
fi
t_pass mount
run_prog compat32 $MPT "$FAMFS_DEV"
t_ok umount umount $MPT
