# profiles: nvdimm-devdax
# timeout: 180
# Hostile use of a /dev/daxX.Y mount (famfs's own dax-bus driver):
# - famfs mkfs (a writer) of the mounted device is refused, a reader (fsck)
#   is let in, and nothing is lost;
# - a writable mapping of the character device whose descriptor is closed
#   still keeps the mount out (EBUSY) until it goes;
# - unbind while mounted, with a process touching a mapped file: it gets
#   SIGBUS, reads get EIO, umount works, rebind and mount find every byte;
# - rmmod refused while the character device is open, fine while merely
#   bound (the device is unbound on the way out);
# - a memory failure (MADV_HWPOISON) through the driver's memory_failure
#   handler: SIGBUS, EIO, then umount, rmmod, insmod, rebind, healthy mount.
. "$FAMFS_SRC/tests/qemu/lib.sh"
# Its mounts are -o noprotect: hostile_hold makes files with open(O_CREAT)
# and maps them itself, as the 2024 user space did (issue 29).

DEV=$FAMFS_DEV
N=$(basename $DEV)
M=/tmp/hostile-devdax
D=/sys/bus/dax/drivers
export FAMFS_HOST_ID_FILE=/tmp/hostile-host-uuid
mkdir -p $M
umount $M 2>/dev/null

bound() { [ -e $D/famfs/$N ]; }
bind_famfs() { dax_bind_famfs $N; }
ready() {
	rm -f /tmp/hostile-ready; "$@" & HOLDER=$!
	wait_for /tmp/hostile-ready 10 || t_fail "$2-ready" "'$*' did not get ready"
}

if [ ! -d $D/famfs ]; then
	t_skip devdax "this famfs.ko has no dax-bus driver"
	exit 0
fi
t_ok bind bind_famfs
famfs mkfs -f $DEV >/dev/null
t_rc mount 0 famfs mount -o noprotect $DEV $M
famfs mkfile -s 3m -S 41 $M/a >/dev/null
famfs mkfile -s 5m -S 42 $M/b >/dev/null

# ---- writers and readers of the mounted device ---------------------------------------
t_rc mkfs-while-mounted-refused 2 famfs mkfs -f $DEV
t_has mkfs-while-mounted-says-busy "busy"
t_rc fsck-while-mounted 0 famfs fsck $DEV
t_rc mounted-data-intact 0 famfs verify -S 42 $M/b
umount $M

# ---- a mapping of the character device outliving its descriptor --------------------
ready hostile_hold mapdev $DEV 2097152 /tmp/hostile-ready
t_not mount-while-device-mapped mount -t famfs $DEV $M
kill $HOLDER; wait $HOLDER 2>/dev/null
t_rc mount-after-mapping-gone 0 famfs mount -o noprotect $DEV $M

# ---- unbind while mounted, with a file being touched through a mapping ------------
ready hostile_hold touch $M/a /tmp/hostile-ready
echo $N > $D/famfs/unbind
t_not unbound bound
n=0; while kill -0 $HOLDER 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
wait $HOLDER; rc=$?
t_eq unbind-toucher-got-sigbus 7 "$rc"
t_err unbind-read-fails 1 "Input/output error" cat $M/b
t_ok unbind-names-readable test -f $M/a
t_ok unbind-umount umount $M
t_ok rebind bind_famfs
t_rc rebind-mount 0 famfs mount -o noprotect $DEV $M
t_rc rebind-data-a 0 famfs verify -S 41 $M/a
t_rc rebind-data-b 0 famfs verify -S 42 $M/b
t_rc rebind-fsck 0 famfs fsck $M
umount $M

# ---- rmmod while the character device is open, and while merely bound ---------------
sleep 1000 < $DEV & HOLDER=$!
wait_holds $HOLDER $DEV || t_fail device-open-holder "the holder did not open $DEV"
t_not rmmod-while-device-open rmmod famfs
kill $HOLDER; wait $HOLDER 2>/dev/null
t_ok rmmod-while-bound rmmod famfs
t_not rmmod-unbound-the-device test -e /sys/bus/dax/devices/$N/driver
t_ok insmod insmod "$FAMFS_KO"
t_ok bind-after-reload bind_famfs
t_rc mount-after-reload 0 famfs mount -o noprotect $DEV $M
t_rc data-after-reload 0 famfs verify -S 42 $M/b
umount $M

# ---- memory failure on the devdax backing, then umount, rmmod, insmod ----------------
if mount -t famfs $DEV $M; then
	run_prog hostile_hold poison $M
	t_ok poison-umount umount $M
	t_ok poison-rmmod rmmod famfs
	t_ok poison-insmod insmod "$FAMFS_KO"
	t_ok poison-rebind bind_famfs
	if mount -t famfs $DEV $M; then
		run_prog hostile_hold healthy $M
		t_ok poison-umount-healthy umount $M
	else
		t_fail poison-remount "mount after rmmod/insmod failed"
	fi
else
	t_fail poison-mount "mount -t famfs $DEV failed"
fi

# back to device_dax for whatever runs next
echo $N > $D/famfs/unbind 2>/dev/null
echo $N > $D/device_dax/bind 2>/dev/null
t_ok device-dax-again test -e $D/device_dax/$N
# what was tried, what survived
nfail=$(grep -c "^FAIL $(t_id '')" "$FAMFS_OUT/results.txt")
npass=$(grep -c "^PASS $(t_id '')" "$FAMFS_OUT/results.txt")
echo "hostile_devdax: tried a writer and a reader of the mounted device, a mount under a mapping of the device, unbind under a live mapping, rmmod while open and while bound, a memory failure then umount/rmmod/insmod/rebind; $npass checks held, $nfail failed"
exit 0
