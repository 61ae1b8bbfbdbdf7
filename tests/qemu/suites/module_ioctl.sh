# profiles: pmem nvdimm
# timeout: 120
# famfs.ko, the v1 map ioctls: every invalid map gets its own errno and leaves
# the file unmapped, maps round-trip through MAP_GET/GETEXT, overlapping maps
# are refused, only CAP_SYS_ADMIN creates maps (progs/module_ioctl.c).
. "$FAMFS_SRC/tests/qemu/lib.sh"

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
MPT=/tmp/famfs-ioctl
mkdir -p $MPT
if ! out=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_fail mount "$out"
	exit 0
fi
t_pass mount
run_prog module_ioctl $MPT "$FAMFS_DEV"
t_ok umount umount $MPT
