# profiles: nvdimm-devdax
# timeout: 300
# famfs.ko on /dev/daxX.Y: the "famfs" dax-bus driver (fs/famfs/devdax.c).
# Binding (refused mounts say what to run), the character device while bound
# (mkfs/fsck), mount, the data path (extent math against the device, mmap vs
# read, 2 MiB faults), exclusion of mounts and writers, memory failure on a
# mounted file and on the character device; a bind refused while a file
# opened under device_dax still holds the device's character device, and
# a file opened under famfs that outlives famfs's binding.
# Unbind/removal: devdax-unplug.sh.
. "$FAMFS_SRC/tests/qemu/lib.sh"
# Its mounts are -o noprotect: devdax_test makes files with open(O_CREAT)
# and maps them itself, as the 2024 user space did (issue 29).

DEV=$FAMFS_DEV
N=$(basename "$DEV")
M=/mnt/famfs
mkdir -p $M
export FAMFS_HOST_ID_FILE=/tmp/devdax-host-uuid

driver() { dax_driver $N; }
# mount_err ID ERRNO: mount -t famfs fails with ERRNO (mount(2) through busybox).
mount_err() {
	if _o=$(mount -t famfs "$DEV" $M 2>&1); then
		umount $M
		t_fail "$1" "mount succeeded, expected $2"
	elif echo "$_o" | grep -qi "$3"; then
		t_pass "$1"
	else
		t_fail "$1" "expected '$3' ($2): $_o"
	fi
}

famfs_loaded || exit 0
t_ok driver-registered test -d /sys/bus/dax/drivers/famfs
# Start (and end) as the profile leaves the device: with device_dax.
[ "$(driver)" = famfs ] && famfs bind -u "$DEV"
t_eq starts-on-device_dax device_dax "$(driver)"

# Bound to device_dax: the tool works on the device, a mount is refused with
# the command to run.
t_ok mkfs-device_dax famfs mkfs -f "$DEV"
klog_mark
mount_err refused-on-device_dax EOPNOTSUPP "not supported"
if klog_since | grep -q "famfs: $DEV: $N is bound to device_dax, not to famfs; run: famfs bind $DEV"; then
	t_pass refused-log-line
else
	t_fail refused-log-line "$(klog_since | tail -n 2 | tr '\n' ' ')"
fi

# Bind: famfs bind (the sysfs way is in devdax-unplug.sh).
klog_mark
t_ok bind famfs bind "$DEV"
t_eq bound famfs "$(driver)"
t_ok bind-again famfs bind "$DEV"
t_klog bind-log-line "famfs $N: bound, "
t_ok fsck-after-bind famfs fsck "$DEV"

# The character device while bound (not mounted): 900M..902M.
run_prog devdax_test cdev "$DEV" 900M

# mkfs and mount through the famfs driver.
t_ok mkfs famfs mkfs -f "$DEV"
t_ok mount famfs mount -o noprotect "$DEV" $M
t_eq mount-source "$DEV $M famfs" "$(grep " $M " /proc/mounts | cut -d' ' -f1-3)"
size=$(cat /sys/bus/dax/devices/$N/size)
t_eq statfs-size $((size / 4096)) "$(stat -f -c %b $M)"
t_ok mkdir famfs mkdir -p $M/d/e
t_ok mkfile famfs mkfile -s 7m -S 3 $M/d/f
t_ok cp famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/d/e/h
t_ok cp-bytes cmp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/d/e/h
t_ok verify famfs verify -S 3 $M/d/f
run_prog devdax_test cmp $M/d/e/h
t_ok mkfile-extent famfs mkfile -s 5m $M/d/x
run_prog devdax_test extent $M/d/x "$DEV"

# Exclusion: a mount and a writer of the device; readers are fine.
klog_mark
mount_err second-mount EBUSY "busy"
t_err mkfs-while-mounted 2 busy famfs mkfs -f "$DEV"
t_ok fsck-while-mounted famfs fsck "$DEV"
t_err unbind-while-mounted 2 'mounted; unmount it first' famfs bind -u "$DEV"
t_eq still-bound famfs "$(driver)"
t_ok no-warnings-yet sh -c "! dmesg | grep -q 'WARNING\|BUG'"

# 2 MiB faults: a 64 MiB file, 2 MiB aligned extents, 32 PMD faults (the
# tracepoint counts them; devdax_test touch only reads every page).
t_ok mkfile-pmd famfs mkfile -s 64m $M/pmd
pmd_faults pmd 32 run_prog devdax_test touch $M/pmd

t_ok umount umount $M
t_ok fsck-after-umount famfs fsck "$DEV"

# A writer keeps the mount out.
rm -rf /tmp/w && mkdir -p /tmp/w
bg_prog devdax_test writer "$DEV" /tmp/w
wait_for /tmp/w/ready 10 ||
	t_fail writer-ready "the writer did not start: $(cat /tmp/devdax_test.bg.out)"
mount_err mount-while-writer EBUSY "busy"
touch /tmp/w/go
bg_verdict devdax_test
t_ok remount famfs mount -o noprotect "$DEV" $M
t_ok verify-after-remount famfs verify -S 3 $M/d/f

# Memory failure in a mounted file: module_poison uses device 600M..612M.
t_ok umount-for-poison umount $M
MPT=/tmp/famfs-poison
mkdir -p $MPT
if out=$(mount -t famfs "$DEV" $MPT 2>&1); then
	klog_mark
	run_prog module_poison $MPT
	t_eq failure-logged-once 1 "$(klog_since | grep -c 'famfs (.*): memory failure at device bytes')"
	t_ok umount-after-failure umount $MPT
	if out=$(mount -t famfs "$DEV" $MPT 2>&1); then
		run_prog module_poison $MPT healthy
		# The page module_poison poisoned (600M + 8K) stays poisoned.
		run_prog devdax_test poisoned $MPT 600M 8K
		t_ok umount-healthy umount $MPT
	else
		t_fail remount-after-failure "$out"
	fi
else
	t_fail mount-for-poison "$out"
fi

# Memory failure in a mapping of the character device (not mounted).
run_prog devdax_test cdev-poison "$DEV" 950M

# The file system survived all of it.
t_ok fsck-at-end famfs fsck "$DEV"
t_ok mount-at-end famfs mount -o noprotect "$DEV" $M
t_ok verify-at-end famfs verify -S 3 $M/d/f
t_ok umount-at-end umount $M

# Back to device_dax and again, by name.
t_ok unbind famfs bind -u "$DEV"
t_eq device_dax-again device_dax "$(driver)"
t_ok fsck-on-device_dax famfs fsck "$DEV"
t_ok bind-by-name famfs bind "$N"
t_eq bound-by-name famfs "$(driver)"
t_err bind-not-dax 2 'not a dax device' famfs bind /dev/null
t_ok leave-on-device_dax famfs bind -u "$DEV"

# /dev/daxX.Y held open from device_dax's time: the cdev embedded in the
# dax device is still that open file's; famfs's probe must not initialise
# it again (the file's close would then drop famfs's cdev, and unbind put it
# once more).  The bind is refused with a message, the device stays without
# a driver until the file is closed, then it binds.  (The sysfs way: famfs
# bind would give the device back to device_dax, whose own probe does the
# same to the held cdev.)
sleep 600 < "$DEV" &
H=$!
t_ok held-open wait_holds $H "$DEV"
t_ok held-unbind-device_dax sh -c "echo $N > /sys/bus/dax/drivers/device_dax/unbind"
klog_mark
t_not held-bind-refused dax_bind_famfs $N
t_klog held-bind-says-why "famfs $N: .*still open .*device_dax"
t_eq held-no-driver "" "$(driver)"
kill $H; wait $H 2>/dev/null
t_ok held-closed-bind dax_bind_famfs $N
t_eq held-closed-bound famfs "$(driver)"
t_ok held-closed-fsck famfs fsck "$DEV"
t_ok held-leave-on-device_dax famfs bind -u "$DEV"
t_ok held-no-warnings no_warnings

# The other way round: /dev/daxX.Y held open while bound to famfs, then
# given back to device_dax (famfs bind -u, the tool's own way back).  The
# file keeps the character device it was opened through; device_dax's
# probe initialises the cdev embedded in the dax device again, so famfs's
# must not be that one: else the file's close drops device_dax's cdev
# (/dev/daxX.Y then fails every open with ENXIO), puts device_dax's module
# for famfs's (famfs.ko can never be unloaded again), and device_dax's
# unbind puts the cdev once more (refcount_t underflow WARNING).
t_ok famheld-bind famfs bind "$DEV"
ref0=$(cat /sys/module/famfs/refcnt)
sleep 600 < "$DEV" &
H=$!
t_ok famheld-open wait_holds $H "$DEV"
t_ok famheld-unbind famfs bind -u "$DEV"
t_eq famheld-device_dax device_dax "$(driver)"
kill $H; wait $H 2>/dev/null
t_eq famheld-module-refcnt "$ref0" "$(cat /sys/module/famfs/refcnt)"
t_ok famheld-fsck-on-device_dax famfs fsck "$DEV"
t_ok famheld-rebind famfs bind "$DEV"
t_ok famheld-fsck-on-famfs famfs fsck "$DEV"
t_ok famheld-leave-on-device_dax famfs bind -u "$DEV"
t_ok famheld-no-warnings no_warnings
exit 0
