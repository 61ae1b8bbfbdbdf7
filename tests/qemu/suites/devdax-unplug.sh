# profiles: nvdimm-devdax nvdimm
# timeout: 300
# famfs.ko when the memory goes away under a mount: a devdax device unbound
# from the famfs driver, rmmod with bound devices, and the namespace disabled
# (devdax; and pmem in fsdax mode on the nvdimm profile, through kill_dax).
# The mount fails (SIGBUS on the next access of a mapping, EIO from read, no
# new mappings), the unbind or removal completes while a process still maps
# a file, unmount works, nothing WARNs, and the data is intact once the
# device is back.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
N=$(basename "$DEV")
M=/mnt/famfs
mkdir -p $M
export FAMFS_HOST_ID_FILE=/tmp/unplug-host-uuid

driver() { dax_driver $N; }
bind_famfs() {
	[ "$(driver)" = famfs ] && return 0
	[ -n "$(driver)" ] && echo "$N" > /sys/bus/dax/devices/$N/driver/unbind
	echo "$N" > /sys/bus/dax/drivers/famfs/new_id
	[ "$(driver)" = famfs ]
}
# no_new_warnings: none since klog_mark (refcount warnings included)
no_new_warnings() { ! klog_since | grep -q 'WARNING\|BUG\|Call Trace\|refcount'; }

# hold PREFIX PROG-ARGS... -- UNPLUG-CMD...: run devdax_test hold in the
# background, unplug once it has its mapping, let it check, collect it.
hold() {
	_id=$1; shift
	rm -rf /tmp/h && mkdir -p /tmp/h
	_args=
	while [ "$1" != -- ]; do _args="$_args $1"; shift; done
	shift
	# shellcheck disable=SC2086
	bg_prog devdax_test $_args /tmp/h
	if ! wait_for /tmp/h/ready 20; then
		t_fail "$_id-ready" "the holder did not start: $(cat /tmp/devdax_test.bg.out)"
		kill $BG_PID; wait $BG_PID
		return
	fi
	t_ok "$_id" "$@"
	touch /tmp/h/go
	PFX=$_id- bg_verdict devdax_test
}

famfs_loaded || exit 0

ns=namespace0.0
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	t_ok bind bind_famfs
	t_ok mkfs famfs mkfs -f "$DEV"
	t_ok mount famfs mount "$DEV" $M
	t_ok mkfile famfs mkfile -s 8m -S 7 $M/f

	# Unbind with a file mapped.
	klog_mark
	hold unbind-mounted hold $M/f -- sh -c "echo $N > /sys/bus/dax/drivers/famfs/unbind"
	t_eq unbound "" "$(driver)"
	t_klog unbind-logged "famfs ($N): the device is going away"
	t_ok names-still-there test -e $M/f
	t_err read-eio 1 'Input/output error' cat $M/f
	t_ok umount-after-unbind umount $M
	t_ok unbind-no-warnings no_new_warnings

	t_ok rebind bind_famfs
	t_ok mount-after-rebind famfs mount "$DEV" $M
	t_ok data-after-rebind famfs verify -S 7 $M/f

	# rmmod: refused while mounted or while the device is open.
	t_not rmmod-mounted rmmod famfs
	t_ok umount umount $M
	exec 3< "$DEV"
	t_not rmmod-open rmmod famfs
	exec 3<&-

	# Unbind with the character device mapped.
	klog_mark
	hold unbind-cdev hold-cdev "$DEV" -- sh -c "echo $N > /sys/bus/dax/drivers/famfs/unbind"
	t_ok unbind-cdev-no-warnings no_new_warnings
	t_ok rebind-after-cdev bind_famfs

	# rmmod unbinds; device_dax can have the device back.
	klog_mark
	t_ok rmmod rmmod famfs
	t_eq unbound-by-rmmod "" "$(driver)"
	t_ok device_dax-bind sh -c "echo $N > /sys/bus/dax/drivers/device_dax/bind"
	t_eq device_dax-again device_dax "$(driver)"
	t_ok fsck-on-device_dax famfs fsck "$DEV"
	t_ok insmod insmod "$FAMFS_KO"
	t_ok rmmod-clean no_new_warnings
	t_ok bind-after-insmod bind_famfs
fi

# The memory goes away under a mount.  devdax: the namespace is disabled,
# which deletes the dax device (and so unbinds it).  fsdax: ndctl refuses to
# disable a mounted namespace, so nd_pmem is unbound from the pfn device
# under it: pmem's kill_dax() tells famfs.
if [ "$FAMFS_DEV_MODE" = fsdax ]; then
	t_ok mkfs famfs mkfs -f "$DEV"
	nd=$(basename "$(readlink -f /sys/block/$N/device)")
	unplug="echo $nd > /sys/bus/nd/drivers/nd_pmem/unbind"
	replug="echo $nd > /sys/bus/nd/drivers/nd_pmem/bind"
else
	unplug="ndctl disable-namespace $ns"
	replug="ndctl enable-namespace $ns"
fi
t_ok mount-for-disable famfs mount "$DEV" $M
t_ok mkfile-for-disable famfs mkfile -s 4m -S 9 $M/g
klog_mark
hold disable hold $M/g -- sh -c "$unplug"
t_klog disable-logged 'famfs (.*): the device is going away'
t_ok names-after-disable test -e $M/g
t_err read-eio-after-disable 1 'Input/output error' cat $M/g
t_ok umount-after-disable umount $M
t_ok disable-no-warnings no_new_warnings
t_ok enable sh -c "$replug"
t_ok device-back wait_for "$DEV" 10
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok bind-after-enable bind_famfs
t_ok mount-after-enable famfs mount "$DEV" $M
t_ok data-after-enable famfs verify -S 9 $M/g
t_ok umount-at-end umount $M
t_ok no-warnings-at-end no_new_warnings
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok leave-on-device_dax famfs bind -u "$DEV"
exit 0
