# profiles: nvdimm2 mixed
# timeout: 240
# famfs.ko over two memory devices (issue 16), driven with the ioctls
# (progs/module_multidev.c): FAMFSIOC_DEV_ADD attaches the second device of
# $FAMFS_DEVS as member 1 of a mount of $FAMFS_DEV (every refusal with its errno), files on
# the member and striped over both devices land on the raw devices where
# their maps (MAP_CREATE_V3) say, overlap and bounds are per device, statfs
# sums both; 2 MiB (PMD) faults on a file striped over both devices; the
# removal of the member under a mount fails the mount and umount still
# works and releases it; a memory failure in a member page (fsdax).  Last,
# the same memory failure seen through the tool (fsdax): a famfs made by
# famfs mkfs over both devices, a file on each device, a page of the
# member's file poisoned: reads of both files fail with EIO, famfs df (text
# and JSON) and famfs fsck of the mount cannot read it and say that member 1
# failed (exit 2), umount works.  A DEV_ADD refused for the device's size
# while the device is removed and plugged back leaves the mount healthy.
# A device whose memory is not one run of pages (dm-linear over pieces of
# the member namespace, fsdax) is refused as a mount and as a member.
# On mixed the member is a /dev/daxX.Y bound to famfs for the suite.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
MPT=/tmp/famfs-multidev
# shellcheck disable=SC2086
set -- $FAMFS_DEVS
D1=${2:-}
if [ -z "$D1" ]; then
	t_fail devices "profile $FAMFS_PROFILE has no second device in FAMFS_DEVS"
	exit 0
fi
[ -c "$D1" ] && DEV1_MODE=devdax || DEV1_MODE=fsdax
rebind=0
if [ "$DEV1_MODE" = devdax ] && [ "$(dax_driver "$(basename "$D1")")" != famfs ]; then
	t_ok bind dax_bind_famfs "$(basename "$D1")"
	rebind=1
fi
famfs_raw_mount $MPT || exit 0
run_prog module_multidev $MPT "$FAMFS_DEV" "$D1"
# 64 MiB striped over both devices in 2 MiB chunks: 32 + 32 PMD faults.
pmd_faults pmd-trace 64 run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" pmd
t_ok umount umount $MPT

# The unmount released the member: it mounts on its own.
mkdir -p /tmp/famfs-member
t_ok member-released mount -t famfs "$D1" /tmp/famfs-member
t_ok member-released-umount umount /tmp/famfs-member

# The member goes away under a mount: the whole mount fails (EIO on files
# of either device), names stay, umount works.  fsdax: nd_pmem is unbound
# from the member's pfn device (ndctl refuses to disable a held namespace);
# devdax: the member is unbound from famfs.
t_ok removal-mount mount -t famfs "$FAMFS_DEV" $MPT
run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-removal
if [ "$DEV1_MODE" = devdax ]; then
	N=$(basename "$D1")
	unplug="echo $N > /sys/bus/dax/drivers/famfs/unbind"
else
	nd=$(basename "$(readlink -f /sys/block/$(basename "$D1")/device)")
	unplug="echo $nd > /sys/bus/nd/drivers/nd_pmem/unbind"
	replug="echo $nd > /sys/bus/nd/drivers/nd_pmem/bind"
fi
klog_mark
t_ok removal sh -c "$unplug"
t_klog removal-logged 'famfs (.*): the device (member device 1) is going away'
t_ok removal-names test -e $MPT/r1
t_err removal-member-file-eio 1 'Input/output error' cat $MPT/r1
t_err removal-primary-file-eio 1 'Input/output error' cat $MPT/r0
t_ok removal-umount umount $MPT
if [ "$DEV1_MODE" = devdax ]; then
	t_ok replug dax_bind_famfs "$N"
else
	t_ok replug sh -c "$replug"
fi
t_ok replug-device wait_for "$D1" 10

# A DEV_ADD that fails its checks never holds the device, not even for a
# moment (a removal or a memory failure would find it as the holder): no
# hold during one refused for the device's size (ENOSPC).  Kprobe events on
# the hold of a pmem device's dax device (fs_dax_get_by_bdev() with a
# holder) or on the undoing of a devdax claim (famfs_daxdev_unclaim());
# a DEV_ADD that succeeds (pmem) and the umount after it (devdax) show that
# the probe fires.
held_probe=
if [ "$DEV1_MODE" = devdax ]; then
	held_probe="p:famfs_t_held famfs:famfs_daxdev_unclaim"
else
	held_probe="p:famfs_t_held fs_dax_get_by_bdev holder=%dx:x64"
fi
held_count() { grep 'famfs_t_held:' $TRACE/trace | grep -vc 'holder=0x0$'; }
t_ok held-mount mount -t famfs "$FAMFS_DEV" $MPT
if echo "$held_probe" >> $TRACE/kprobe_events 2>/dev/null; then
	trace_on kprobes/famfs_t_held
	run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-fail-once
	t_eq failed-add-never-held 0 "$(held_count)"
	run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-only
	t_ok held-umount umount $MPT
	if [ "$(held_count)" -gt 0 ]; then
		t_pass held-probe-fires
	else
		t_fail held-probe-fires "no famfs_t_held event for a DEV_ADD that succeeded and its umount"
	fi
	trace_off kprobes/famfs_t_held
	echo "-:famfs_t_held" >> $TRACE/kprobe_events
else
	trace_missing failed-add-never-held "kprobe events ($held_probe)"
	t_ok held-umount umount $MPT
fi

# A DEV_ADD that fails its checks (more bytes than the device has) leaves
# the mount as it was, also while the device is being removed: a device
# that never became a member must not fail the mount when it goes away,
# nor may its removal use what the failed DEV_ADD freed.  A loop of such
# DEV_ADDs in the background while the member device is removed and
# plugged back 20 times (the window is short: a race, more likely caught
# the more cycles run).
t_ok failadd-mount mount -t famfs "$FAMFS_DEV" $MPT
rm -f /tmp/module_multidev.stop /tmp/module_multidev.ready
bg_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-fail-loop
wait_for /tmp/module_multidev.ready 20
i=0
while [ $i -lt 20 ]; do
	sh -c "$unplug" || break
	if [ "$DEV1_MODE" = devdax ]; then
		# A DEV_ADD of the loop may hold the unbound device open for a
		# moment, and a bind refuses until it is closed (EBUSY).
		_t=0
		until dax_bind_famfs "$N" 2>/dev/null; do
			_t=$((_t + 1))
			[ $_t -lt 20 ] || break 2
			sleep 0.1
		done
	else
		sh -c "$replug" || break
	fi
	wait_for "$D1" 10 || break
	i=$((i + 1))
done
t_eq failadd-cycles 20 $i
touch /tmp/module_multidev.stop
bg_verdict module_multidev
run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-fail-check
t_ok failadd-umount umount $MPT

# A read-only member (blockdev --setro) keeps the mount read-only, as a
# read-only primary does (module_mount): remount,rw of a read-only mount
# with it attached, and of a read-write mount whose member went read-only
# since, are refused with EROFS (one log line naming the member).
if [ "$DEV1_MODE" = fsdax ]; then
	t_ok ro-member-mount mount -o ro -t famfs "$FAMFS_DEV" $MPT
	t_ok ro-member-setro blockdev --setro "$D1"
	run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-only
	klog_mark
	run_prog module_mount remount ro-member-remount-rw EROFS $MPT rw
	t_klog ro-member-remount-rw-logged 'member device 1 .*is read-only'
	case $(grep " $MPT famfs " /proc/mounts) in
	*" famfs ro,"*) t_pass ro-member-still-ro ;;
	*) t_fail ro-member-still-ro "$(grep " $MPT famfs " /proc/mounts)" ;;
	esac
	t_ok ro-member-umount umount $MPT
	t_ok ro-member-setrw blockdev --setrw "$D1"
	t_ok went-ro-mount mount -t famfs "$FAMFS_DEV" $MPT
	run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-only
	t_ok went-ro-setro blockdev --setro "$D1"
	run_prog module_mount remount went-ro-member-remount-ro 0 $MPT ro
	run_prog module_mount remount went-ro-member-remount-rw EROFS $MPT rw
	t_ok went-ro-umount umount $MPT
	t_ok went-ro-setrw blockdev --setrw "$D1"
fi

# Last: a memory failure in a page of the member fails the mount (fsdax).
t_ok poison-mount mount -t famfs "$FAMFS_DEV" $MPT
klog_mark
run_prog module_multidev $MPT "$FAMFS_DEV" "$D1" add-poison
if ! grep -q '^SKIP poison' /tmp/module_multidev.out; then
	t_klog poison-logged 'memory failure at device bytes .* (member device 1): all data access'
fi
t_ok poison-umount umount $MPT

# The tool over a member with a memory failure (fsdax; the poisoned page is
# in a fresh file near the member's start: nothing after this uses it).
if [ "$DEV1_MODE" = fsdax ]; then
	t_ok tool-mkfs famfs mkfs -f --loglen 2m "$FAMFS_DEV" "$D1"
	t_ok tool-mount famfs mount "$FAMFS_DEV" $MPT
	t_ok tool-file-dev0 famfs mkfile --device 0 -s 2M $MPT/on0
	t_ok tool-file-dev1 famfs mkfile --device 1 -s 2M $MPT/on1
	t_rc tool-df-before 0 famfs df -j $MPT
	j() { echo "$OUT" | jget "$1"; }
	t_eq tool-df-before-not-failed "false false false false" \
		"$(j .devices[0].failed) $(j .devices[0].mount_failed) $(j .devices[1].failed) $(j .devices[1].mount_failed)"
	klog_mark
	PFX=tool- run_prog hostile_hold hwpoison $MPT/on1 8192
	if ! grep -q '^SKIP hwpoison' /tmp/hostile_hold.out; then
		t_klog tool-poison-logged 'memory failure at device bytes .* (member device 1): all data access'
		t_err tool-member-file-eio 1 'Input/output error' cat $MPT/on1
		t_err tool-primary-file-eio 1 'Input/output error' cat $MPT/on0
		said='device 1 (member, pmem[0-9]*) failed: removed or poisoned'
		t_err tool-df-names-member 2 "$said" famfs df $MPT
		t_err tool-df-json-names-member 2 "$said" famfs df -j $MPT
		t_eq tool-df-json-no-json "" "$(famfs df -j $MPT 2>/dev/null)"
		t_err tool-fsck-names-member 2 "$said" famfs fsck $MPT
		t_err tool-fsck-dev-names-member 2 "$said" famfs fsck "$FAMFS_DEV"
	fi
	t_ok tool-umount umount $MPT
else
	t_skip tool-poison "memory failure is tested on fsdax only"
fi
# A device whose memory is not one run of pages: famfs finds the page of a
# device offset from the device's first page (the page pins of an evicted
# file, the waits of a removal), so such a device is refused, as a mount
# and as a member (EOPNOTSUPP; attach each namespace as a member instead).
# Here a device-mapper device over the member namespace with its first two
# 256 MiB swapped.  Without the check the pinned page at 356 MiB (the
# namespace's 100 MiB) is looked for at the namespace's 612 MiB: found
# idle, the file's memory goes to the next file while a pipe shows it.
if [ "$DEV1_MODE" = fsdax ]; then
	modprobe dm_mod 2>/dev/null
	DM=/dev/mapper/famfs-swap
	q=524288	# 256 MiB in sectors
	if printf '0 %s linear %s %s\n%s %s linear %s 0\n' $q "$D1" $q $q $q "$D1" |
		DM_DISABLE_UDEV=1 dmsetup create famfs-swap; then
		klog_mark
		if mount -t famfs $DM $MPT 2>/dev/null; then
			t_fail noncontig-mount-refused "a mount of $DM (dm-linear over $D1, two pieces swapped) succeeded"
			hostile_pins unlink $MPT 356M > /tmp/hostile_pins.out 2>&1
			PFX=noncontig- t_prog hostile_pins /tmp/hostile_pins.out $?
			umount $MPT
		else
			t_pass noncontig-mount-refused
		fi
		t_klog noncontig-mount-says-why "famfs: $DM: .*not one contiguous run of pages"
		t_ok noncontig-primary-mount mount -t famfs "$FAMFS_DEV" $MPT
		klog_mark
		run_prog module_multidev $MPT "$FAMFS_DEV" "$DM" add-noncontig
		t_klog noncontig-add-says-why "DEV_ADD: device 1 .*not one contiguous run of pages"
		t_ok noncontig-umount umount $MPT
		t_ok noncontig-dm-remove env DM_DISABLE_UDEV=1 dmsetup remove famfs-swap
	else
		t_fail noncontig-dm "dmsetup create over $D1 failed"
	fi
	t_ok noncontig-no-warnings no_warnings
fi
[ $rebind = 0 ] || t_ok unbind famfs bind -u "$D1"	# back to device_dax, as it came
exit 0
