# profiles: pmem nvdimm nvdimm-devdax
# timeout: 240
# famfs pages still referenced after their mapping is gone (a page
# vmsplice'd into a pipe; O_DIRECT and other pins hold pages the same way):
# - unlink: the evicted file's memory is not given to the next file while
#   the pipe holds the page, the pipe reads the old bytes, no WARN; once the
#   pipe is drained the memory is free again;
# - umount: waits until the pipe lets go (a new mount of the device is
#   refused meanwhile), then completes; a memory failure while it waits is
#   not reported as recovered; the device removed meanwhile waits for the
#   unmount, then for the page;
# - the device removed (nd_pmem or the namespace, famfs unbind), also with
#   the unbinding process SIGKILLed, and a page of /dev/daxX.Y in a pipe:
#   the removal waits until the pipe is drained, no Oops;
# - umount SIGKILLed while it waits, and a lazily unmounted mount whose last
#   user exits with the page in its pipe: neither hangs; the device stays
#   held (no new mount, no module unload) until the pipe lets go, then is
#   free again.
# Programs: progs/hostile_pins.c.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
N=$(basename "$DEV")
M=/tmp/hostile-pins
M2=/tmp/hostile-pins2
H=/tmp/hostile-pins-h
mkdir -p $M $M2

# no_new_warnings: no WARNING/BUG/Call Trace since klog_mark
no_new_warnings() { ! klog_since | grep -q 'WARNING\|BUG\|Call Trace\|Oops'; }
# alive PID: the process exists and has not exited (a zombie has)
alive() { [ -e /proc/$1/stat ] && ! grep -q '^[0-9]* ([^)]*) Z' /proc/$1/stat; }
# blocked ID PID WHAT: PASS iff PID, which should wait for the pinned page,
# still runs once famfs has logged that it waits.
blocked() {
	_n=0
	while alive "$2" && ! klog_since | grep -q "famfs.*waiting for .*referenced"; do
		[ $_n -ge 300 ] && break
		sleep 0.1; _n=$((_n + 1))
	done
	if alive "$2" && klog_since | grep -q "famfs.*waiting for .*referenced"; then
		t_pass "$1"
	else
		t_fail "$1" "$3 did not wait for the page in the pipe: $(klog_since | grep famfs | tail -n 2 | tr '\n' '|')"
	fi
}
# in_famfs ID PID WHAT: PASS iff PID comes to sleep inside famfs (its kernel
# stack has a famfs_ frame) within 10 s: a removal waiting for the device
# or its pages, before famfs logs anything.
in_famfs() {
	_n=0
	while alive "$2" && ! grep -q "famfs_" /proc/$2/stack 2>/dev/null &&
		[ $_n -lt 100 ]; do
		sleep 0.1; _n=$((_n + 1))
	done
	if grep -q "famfs_" /proc/$2/stack 2>/dev/null; then
		t_pass "$1"
	else
		t_fail "$1" "$3 does not wait in famfs: $(head -n 3 /proc/$2/stack 2>/dev/null | tr '\n' '|')"
	fi
}
# hold NAME OFF: a file with its page in a pipe, held by hostile_pins in
# the background ($HP) until go
hold() {
	rm -rf $H && mkdir -p $H
	hostile_pins hold $M "$1" "$2" $H > /tmp/hostile-pins.out 2>&1 & HP=$!
	wait_for $H/ready 20 || t_fail hold-ready "$(cat /tmp/hostile-pins.out)"
}
release() {	# release ID: let the holder check its pipe, collect it
	touch $H/go
	wait $HP
	PFX=$1- t_prog hostile_pins /tmp/hostile-pins.out $?
}
# kill_pending PID: until PID has a SIGKILL pending (delivered, not acted
# on: it waits uninterruptibly) or is gone; at most 10 s.
kill_pending() {
	_n=0
	while alive "$1" && [ $_n -lt 100 ]; do
		for _p in $(sed -n 's/^\(SigPnd\|ShdPnd\):[[:space:]]*//p' /proc/$1/status 2>/dev/null); do
			[ $((0x$_p & 256)) -ne 0 ] && return 0
		done
		sleep 0.1; _n=$((_n + 1))
	done
}

famfs_loaded || exit 0
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	t_ok bind dax_bind_famfs "$N" || exit 0
fi
# How the device goes away on this profile (none on legacy pmem).
unplug=
if [ "$FAMFS_PROFILE" = nvdimm ]; then
	nd=$(basename "$(readlink -f /sys/block/$N/device)")
	unplug="echo $nd > /sys/bus/nd/drivers/nd_pmem/unbind"
	replug="echo $nd > /sys/bus/nd/drivers/nd_pmem/bind"
elif [ "$FAMFS_DEV_MODE" = devdax ]; then
	unplug="echo $N > /sys/bus/dax/drivers/famfs/unbind"
	replug="true"
fi

# ---- unlink: the memory stays reserved ---------------------------------------------
klog_mark
famfs_raw_mount $M || exit 0
hostile_pins unlink $M 700M > /tmp/hostile-pins.out 2>&1
PFX=unlink- t_prog hostile_pins /tmp/hostile-pins.out $?
t_ok unlink-no-warnings no_new_warnings

# ---- umount waits for the pipe ------------------------------------------------------
klog_mark
hold f 704M
pfn=$(sed -n 's/^info: pinned pfn //p' /tmp/hostile-pins.out)
umount $M & UM=$!
blocked umount-waits $UM umount
if mount -t famfs $DEV $M2 2>/dev/null; then
	t_fail umount-device-still-held "a new mount of $DEV succeeded while the old one waits"
	# what the memory would be used for next
	hostile_pins fill $M2 g 704M
	umount $M2
else
	t_pass umount-device-still-held
fi
# A memory failure in the mount's memory while unmount waits: famfs can no
# longer kill through the mount, so it must not let it pass as recovered.
if [ -n "$pfn" ] && [ -e /sys/devices/system/memory/hard_offline_page ]; then
	echo $(((pfn + 1) * 4096)) > /sys/devices/system/memory/hard_offline_page
	if klog_since | grep -q 'recovery action for dax page: Recovered'; then
		t_fail umount-failure-not-recovered "$(klog_since | grep -i 'memory failure' | tail -n 3 | tr '\n' '|')"
	else
		t_pass umount-failure-not-recovered
	fi
	t_klog umount-failure-logged 'famfs (.*): memory failure .* while the mount is going away'
else
	t_fail umount-failure "no pfn from hostile_pins ($pfn) or no hard_offline_page"
fi
# The device removed while unmount waits: removal waits for the unmount,
# then for the pages.
if [ -n "$unplug" ]; then
	sh -c "$unplug" & UP=$!
	in_famfs umount-unplug-waits $UP "$unplug"
fi
release umount
wait $UM
t_eq umount-completes 0 $?
if [ -n "$unplug" ]; then
	wait $UP
	t_ok umount-unplug-replug sh -c "$replug"
	t_ok umount-unplug-device-back wait_for "$DEV" 10
	[ "$FAMFS_DEV_MODE" = devdax ] && t_ok umount-unplug-rebind dax_bind_famfs "$N"
fi
t_ok umount-no-warnings no_new_warnings

# ---- the device goes away under a mount -----------------------------------------------
unplug_cycle() {	# unplug_cycle ID KILL: unplug while a page is in a pipe
	if ! mount -t famfs $DEV $M; then
		t_fail "$1-mount" "mount failed"
		return
	fi
	klog_mark
	hold "u$1" 708M
	sh -c "$unplug" & UP=$!
	blocked "$1-waits" $UP "$unplug"
	if [ "$2" = kill ]; then
		kill -9 $UP
		# The page stays in use: a SIGKILL must not end the wait.  Wait
		# until the kill is delivered, not for a while.
		kill_pending $UP
		blocked "$1-killed-still-waits" $UP "$unplug (SIGKILLed)"
	fi
	release "$1"
	wait $UP
	t_ok "$1-umount" umount $M
	t_ok "$1-no-warnings" no_new_warnings
	t_ok "$1-replug" sh -c "$replug"
	t_ok "$1-device-back" wait_for "$DEV" 10
	[ "$FAMFS_DEV_MODE" = devdax ] && t_ok "$1-rebind" dax_bind_famfs "$N"
}
if [ "$FAMFS_PROFILE" = nvdimm ]; then
	unplug_cycle unplug-pmem
	unplug_cycle unplug-pmem-sigkill kill
elif [ "$FAMFS_DEV_MODE" = devdax ]; then
	unplug_cycle unbind
	unplug_cycle unbind-sigkill kill

	# A page of /dev/daxX.Y itself (no mount) in a pipe.
	klog_mark
	rm -rf $H && mkdir -p $H
	hostile_pins holddev "$DEV" $H > /tmp/hostile-pins.out 2>&1 & HP=$!
	wait_for $H/ready 20 || t_fail holddev-ready "$(cat /tmp/hostile-pins.out)"
	sh -c "$unplug" & UP=$!
	blocked cdev-unbind-waits $UP "famfs unbind"
	release cdev
	wait $UP
	t_ok cdev-no-warnings no_new_warnings
	t_ok cdev-rebind dax_bind_famfs "$N"
fi

# ---- unmount that cannot wait: SIGKILLed, or the exit of the last user ---------------
# gone_within ID PID: PASS iff PID has exited (or is a zombie) within 10 s.
gone_within() {
	_n=0
	while alive "$2" && [ $_n -lt 100 ]; do sleep 0.1; _n=$((_n + 1)); done
	if alive "$2"; then
		t_fail "$1" "$3 (wchan $(cat /proc/$2/wchan 2>/dev/null))"
		return 1
	fi
	t_pass "$1"
}
# device_held ID: PASS iff the device cannot be mounted (still held).
device_held() {
	if mount -t famfs $DEV $M2 2>/dev/null; then
		umount $M2
		t_fail "$1" "a new mount of $DEV succeeded while a pipe holds a page of the old one"
	else
		t_pass "$1"
	fi
}
# device_freed ID: PASS iff the device can be mounted again within 10 s.
device_freed() {
	_n=0
	until mount -t famfs $DEV $M2 2>/dev/null; do
		[ $_n -ge 100 ] && { t_fail "$1" "$DEV still held after the pipe let go"; return 1; }
		sleep 0.1; _n=$((_n + 1))
	done
	umount $M2
	t_pass "$1"
}

klog_mark
t_ok kill-mount mount -t famfs $DEV $M
hold k 712M
umount $M & UM=$!
blocked umount-kill-waits $UM umount
kill -9 $UM
gone_within umount-killed-returns $UM "a SIGKILLed umount waiting for a page in a pipe still blocks"
device_held umount-killed-device-held
if rmmod famfs 2>/dev/null; then
	t_fail umount-killed-module-held "famfs.ko unloaded while it still holds $DEV for a page in a pipe"
	insmod "$FAMFS_KO"
else
	t_pass umount-killed-module-held
fi
# The device removed meanwhile: removal waits (in famfs) for the worker
# that holds the device.
if [ -n "$unplug" ]; then
	sh -c "$unplug" & UP=$!
	in_famfs umount-killed-unplug-waits $UP "$unplug"
fi
release umount-kill
wait $UM
if [ -n "$unplug" ]; then
	wait $UP
	t_ok umount-killed-replug sh -c "$replug"
	t_ok umount-killed-device-back wait_for "$DEV" 10
	[ "$FAMFS_DEV_MODE" = devdax ] && t_ok umount-killed-rebind dax_bind_famfs "$N"
fi
device_freed umount-killed-device-freed
t_ok umount-killed-no-warnings no_new_warnings

# Last: on a kernel without the fix, the exit below never ends.
klog_mark
t_ok exit-mount mount -t famfs $DEV $M
rm -rf $H && mkdir -p $H
hostile_pins holdexit $M e 716M $H > /tmp/hostile-pins.out 2>&1 & HP=$!
wait_for $H/ready 20 || t_fail holdexit-ready "$(cat /tmp/hostile-pins.out)"
t_ok exit-lazy-umount umount -l $M
touch $H/go
if gone_within lazy-umount-exit-returns $HP "the last user of a lazily unmounted mount, exiting with a page of it in a pipe, hangs"; then
	wait $HP
	device_freed lazy-umount-exit-device-freed
fi
t_ok lazy-umount-exit-no-warnings no_new_warnings
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok leave-on-device_dax famfs bind -u "$DEV"
exit 0
