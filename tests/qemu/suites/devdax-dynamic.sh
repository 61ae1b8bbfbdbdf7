# profiles: hmem
# timeout: 300
# famfs.ko on a dynamic device-dax instance (a dax_hmem region, as CXL RAM
# regions are): the famfs driver allocates the page map at each probe and
# must leave none behind at unbind, or the next probe (ours or device_dax's)
# fails.  Bind/mount/unbind cycles, unbind while mounted, a device with two
# memory ranges refused (with a message), a smaller device of the same
# region, and a device online as system RAM (kmem) refused.
. "$FAMFS_SRC/tests/qemu/lib.sh"
# Its mounts are -o noprotect: devdax_test makes files with open(O_CREAT)
# and maps them itself, as the 2024 user space did (issue 29).

DEV=$FAMFS_DEV
N=$(basename "$DEV")
M=/mnt/famfs
mkdir -p $M
export FAMFS_HOST_ID_FILE=/tmp/dynamic-host-uuid


famfs_loaded || exit 0
R=$(readlink -f /sys/bus/dax/devices/$N/..)/dax_region
t_ok dynamic-region test -e $R/create
echo "dynamic: $R, $(cat $R/size) bytes, $N $(cat /sys/bus/dax/devices/$N/size) bytes"

# Bind, mkfs, mount, data, 2 MiB faults.
t_ok bind famfs bind "$DEV"
t_ok mkfs famfs mkfs -f "$DEV"
t_ok mount famfs mount -o noprotect "$DEV" $M
t_ok mkfile famfs mkfile -s 8m -S 4 $M/f
t_ok cp famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/h
t_ok cp-bytes cmp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/h
t_ok mkfile-x famfs mkfile -s 4m $M/x
run_prog devdax_test extent $M/x "$DEV"
ev=fs_dax/dax_pmd_fault_done
if trace_have $ev; then
	trace_on $ev
	run_prog devdax_test touch $M/f
	trace_off $ev
	t_eq pmd-nopage 4 "$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $TRACE/trace)"
	: > $TRACE/trace
else
	trace_missing pmd-nopage "the $ev tracepoint"
fi
t_ok umount umount $M

# Bind/unbind cycles: each probe gets a fresh page map, device_dax too.
i=0
while [ $i -lt 3 ]; do
	i=$((i + 1))
	t_ok cycle$i-unbind famfs bind -u "$DEV"
	t_eq cycle$i-device_dax device_dax "$(dax_driver $N)"
	t_ok cycle$i-fsck famfs fsck "$DEV"
	t_ok cycle$i-bind famfs bind "$DEV"
	t_ok cycle$i-mount famfs mount -o noprotect "$DEV" $M
	t_ok cycle$i-verify famfs verify -S 4 $M/f
	t_ok cycle$i-umount umount $M
done

# Unbind while mounted (-f): the mount fails, the next probe is clean.
t_ok mount-for-unbind famfs mount -o noprotect "$DEV" $M
t_ok unbind-mounted famfs bind -u -f "$DEV"
t_err read-after-unbind 1 "Input/output error" cat $M/h
t_ok umount-after-unbind umount $M
t_ok bind-after-unbind famfs bind "$DEV"
t_ok mount-after-unbind famfs mount -o noprotect "$DEV" $M
t_ok verify-after-unbind famfs verify -S 4 $M/f
t_ok umount-2 umount $M
t_ok no-warnings no_warnings pre-populated

# Two ranges: shrink dax0.0 to 256M, give 128M to a new device, grow dax0.0
# back to 384M: its third quarter is not next to the first half.
t_ok unbind-for-resize famfs bind -u "$DEV"
echo "$N" > /sys/bus/dax/drivers/device_dax/unbind
t_ok shrink sh -c "echo $((256 << 20)) > /sys/bus/dax/devices/$N/size"
t_ok create sh -c "echo 1 > $R/create"
N2=$(cat $R/seed)
t_ok seed test -n "$N2"
t_ok size2 sh -c "echo $((128 << 20)) > /sys/bus/dax/devices/$N2/size"
t_ok grow sh -c "echo $((384 << 20)) > /sys/bus/dax/devices/$N/size"
t_eq two-ranges "mapping0 mapping1" "$(cd /sys/bus/dax/devices/$N && echo mapping[0-9]*)"
klog_mark
t_rc_out=$(famfs bind "$DEV" 2>&1); rc=$?
t_eq two-ranges-refused 2 "$rc"
t_klog two-ranges-says-why "famfs $N: the device has 2 memory ranges; famfs needs exactly one"
t_eq two-ranges-restored device_dax "$(dax_driver $N)"
echo "$t_rc_out"

# The one-range device next to it works.
t_ok bind-second famfs bind "/dev/$N2"
t_ok mkfs-second famfs mkfs -f "/dev/$N2"
t_ok mount-second famfs mount "/dev/$N2" $M
t_ok mkfile-second famfs mkfile -s 4m -S 8 $M/g
t_ok verify-second famfs verify -S 8 $M/g
run_prog devdax_test extent $M/g "/dev/$N2"
t_ok umount-second umount $M

# Online as system RAM: refused, and the mount says what to run.
t_ok unbind-second famfs bind -u "/dev/$N2"
if daxctl reconfigure-device -m system-ram "$N2" > /tmp/kmem.out 2>&1; then
	t_eq kmem-bound kmem "$(dax_driver $N2)"
	t_err bind-kmem-refused 2 'online as system RAM (kmem)' famfs bind "/dev/$N2"
	klog_mark
	t_not mount-kmem-refused mount -t famfs "/dev/$N2" $M
	t_klog mount-kmem-says-why 'is online as system RAM (kmem)'
else
	t_skip kmem "daxctl reconfigure-device -m system-ram: $(tail -n 1 /tmp/kmem.out)"
fi
t_ok no-warnings-at-end no_warnings pre-populated
exit 0
