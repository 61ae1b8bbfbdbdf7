# profiles: pmem nvdimm nvdimm-devdax nvdimm2 mixed cxl2
# timeout: 600
# kmod: famfs_stall
# famfs pages still referenced after their mapping is gone (a page
# vmsplice'd into a pipe; O_DIRECT and other pins hold pages the same way):
# - unlink: the evicted file's memory is not given to the next file while
#   the pipe holds the page, the pipe reads the old bytes, no WARN; once the
#   pipe is drained the memory is free again;
# - trim: a file of two extents with a page of the second in a pipe: the
#   first is given back at once, the second kept until the pipe lets go;
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
# On the profiles with two devices (nvdimm2, mixed, cxl2) every mount also
# has the second device of FAMFS_DEVS attached as member 1 (DEV_ADD; on
# mixed a /dev/daxX.Y bound to famfs), the pinned pages are on the member
# where the single-device profiles have them on the primary, and each
# device is removed under a page of its own; and the removal of one device
# keeps the pins on the other: a page of a primary file in a pipe, the
# member removed (it waits for nothing of its own), the file deleted: the
# unmount still waits for the page and the device stays held (the same
# with the roles swapped).
# The waits name what they wait for: a removal the file (path and inode
# number), an unmount the inode; and the removal of a device that is not
# famfs's does not wait while famfs's removal waits for a page in a pipe.
# Programs: progs/hostile_pins.c.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
N=$(basename "$DEV")
M=/tmp/hostile-pins
M2=/tmp/hostile-pins2
H=/tmp/hostile-pins-h
mkdir -p $M $M2

# Two devices: the member MEM (DAX: its daxX.Y name if a /dev/daxX.Y).
MULTI=
# shellcheck disable=SC2086
set -- $FAMFS_DEVS
if [ -n "${2:-}" ]; then
	two_devs || exit 0
	MULTI=1
fi
# Device offsets (MiB): above what the other suites of these boots use,
# inside the smallest device (512 MiB on mixed and cxl2).
if [ -n "$MULTI" ]; then B=400; else B=700; fi
o() { echo "$((B + $1))M"; }		# o N: offset N MiB past the base, on the primary
mo() { echo "1:$((B + $1))M"; }		# mo N: the same on member 1
# where the pinned pages of the single-device cases go
if [ -n "$MULTI" ]; then p() { mo "$1"; }; else p() { o "$1"; }; fi

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
# stack has a famfs_ frame) within 30 s, one reading of the stack deciding
# (CI's loaded TCG guest once took over 10 s to get there): a removal
# waiting for the device or its pages, before famfs logs anything; or, a
# pmem removal, in
# memunmap_pages(), for the page map reference famfs's worker keeps while
# it waits (removal.c: the wait is not in kill_dax()'s dax_srcu section).
in_famfs() {
	_n=0
	_st=
	while alive "$2" && [ $_n -lt 300 ]; do
		_st=$(cat /proc/$2/stack 2>/dev/null)
		case "$_st" in *famfs_*|*memunmap_pages*) break ;; esac
		sleep 0.1; _n=$((_n + 1))
	done
	case "$_st" in
	*famfs_*|*memunmap_pages*) t_pass "$1" ;;
	*) t_fail "$1" "$3 does not wait in famfs after $((_n / 10)) s: $(echo "$_st" | head -n 3 | tr '\n' '|')" ;;
	esac
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
# gone_within ID PID WHAT: PASS iff PID has exited (or is a zombie) within 10 s.
gone_within() {
	_n=0
	while alive "$2" && [ $_n -lt 100 ]; do sleep 0.1; _n=$((_n + 1)); done
	if alive "$2"; then
		t_fail "$1" "$3 (wchan $(cat /proc/$2/wchan 2>/dev/null))"
		return 1
	fi
	t_pass "$1"
}
# attach ID [MPT]: member 1 attached to the mount at MPT (default $M)
attach() {
	hostile_pins attach "${2:-$M}" "$MEM" 1 > /tmp/hostile-pins-attach.out 2>&1
	PFX=$1- t_prog hostile_pins /tmp/hostile-pins-attach.out $?
}
# fmount ID: mount $DEV at $M, with member 1 on the two-device profiles
fmount() {
	if ! mount -t famfs $DEV $M; then
		t_fail "$1-mount" "mount failed"
		return 1
	fi
	[ -z "$MULTI" ] || attach "$1"
}

famfs_loaded || exit 0
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	t_ok bind dax_bind_famfs "$N" || exit 0
fi
member_was=
if [ -n "$DAX" ]; then
	member_was=$(dax_driver "$DAX")
	t_ok member-bind dax_bind_famfs "$DAX" || exit 0
fi
# How a device goes away (none on legacy pmem): unplug_of DEV sets
# UNPLUG and REPLUG (commands for sh -c).
unplug_of() {
	if [ -c "$1" ]; then
		UNPLUG="echo $(basename "$1") > /sys/bus/dax/drivers/famfs/unbind"
		REPLUG=true	# replugged() binds it to famfs again
	else
		_nd=$(basename "$(readlink -f "/sys/block/$(basename "$1")/device")")
		UNPLUG="echo $_nd > /sys/bus/nd/drivers/nd_pmem/unbind"
		REPLUG="echo $_nd > /sys/bus/nd/drivers/nd_pmem/bind"
	fi
}
unplug=
if [ "$FAMFS_PROFILE" != pmem ]; then
	unplug_of "$DEV"
	unplug=$UNPLUG replug=$REPLUG
fi
if [ -n "$MULTI" ]; then
	unplug_of "$MEM"
	munplug=$UNPLUG mreplug=$REPLUG
fi
# The device the pinned pages of the single-device cases are on.
if [ -n "$MULTI" ]; then
	PDEV=$MEM punplug=$munplug preplug=$mreplug
else
	PDEV=$DEV punplug=$unplug preplug=$replug
fi
# replugged ID DEV CMD: CMD brings DEV back (PASS ID-replug, ID-device-back;
# a /dev/daxX.Y is bound to famfs again: ID-rebind)
replugged() {
	t_ok "$1-replug" sh -c "$3"
	t_ok "$1-device-back" wait_for "$2" 10
	[ -c "$2" ] && t_ok "$1-rebind" dax_bind_famfs "$(basename "$2")"
	return 0
}

# ---- unlink: the memory stays reserved ---------------------------------------------
klog_mark
famfs_raw_mount $M || exit 0
[ -z "$MULTI" ] || attach unlink
hostile_pins unlink $M "$(o 0)" > /tmp/hostile-pins.out 2>&1
PFX=unlink- t_prog hostile_pins /tmp/hostile-pins.out $?
if [ -n "$MULTI" ]; then
	mkdir -p $M/member
	hostile_pins unlink $M/member "$(mo 0)" > /tmp/hostile-pins.out 2>&1
	PFX=unlink-member- t_prog hostile_pins /tmp/hostile-pins.out $?
fi
t_ok unlink-no-warnings no_new_warnings

# ---- trim: an evicted file keeps only the extents with a pinned page -----------
# A file of two 2 MiB extents with its page in extent 1 in a pipe, in both
# orders of the offsets; on two devices an extent on each, either pinned.
klog_mark
if [ -n "$MULTI" ]; then
	T1=$(o 40) T2=$(mo 44) T3=$(mo 48) T4=$(o 52)
else
	T1=$(o 40) T2=$(o 44) T3=$(o 52) T4=$(o 48)
fi
hostile_pins trim $M "$T1" "$T2" > /tmp/hostile-pins.out 2>&1
PFX=trim- t_prog hostile_pins /tmp/hostile-pins.out $?
mkdir -p $M/trim2
hostile_pins trim $M/trim2 "$T3" "$T4" > /tmp/hostile-pins.out 2>&1
PFX=trim2- t_prog hostile_pins /tmp/hostile-pins.out $?
t_ok trim-no-warnings no_new_warnings

# ---- umount waits for the pipe ------------------------------------------------------
klog_mark
hold f "$(p 4)"
pfn=$(sed -n 's/^info: pinned pfn //p' /tmp/hostile-pins.out)
umount $M & UM=$!
blocked umount-waits $UM umount
t_klog umount-names-inode 'famfs (.*): unmount waiting for .*referenced pages.* inode [0-9]'
if mount -t famfs $DEV $M2 2>/dev/null; then
	t_fail umount-device-still-held "a new mount of $DEV succeeded while the old one waits"
	# what the memory would be used for next
	[ -z "$MULTI" ] || attach umount-device-still-held $M2
	hostile_pins fill $M2 g "$(p 4)"
	umount $M2
else
	t_pass umount-device-still-held
fi
if [ -n "$MULTI" ]; then
	if mount -t famfs "$MEM" $M2 2>/dev/null; then
		t_fail umount-member-still-held "a new mount of $MEM succeeded while the old one waits for a page of it"
		umount $M2
	else
		t_pass umount-member-still-held
	fi
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
if [ -n "$punplug" ]; then
	sh -c "$punplug" & UP=$!
	in_famfs umount-unplug-waits $UP "$punplug"
fi
release umount
wait $UM
t_eq umount-completes 0 $?
if [ -n "$punplug" ]; then
	wait $UP
	replugged umount-unplug "$PDEV" "$preplug"
fi
t_ok umount-no-warnings no_new_warnings

# ---- the device goes away under a mount -----------------------------------------------
# unplug_cycle ID KILL OFF UNPLUG REPLUG DEV: unplug while a page at OFF is
# in a pipe; the removal waits and names the file.
unplug_cycle() {
	fmount "$1" || return
	klog_mark
	hold "u$1" "$3"
	sh -c "$4" & UP=$!
	blocked "$1-waits" $UP "$4"
	t_klog "$1-names-file" "famfs (.*): removal .*waiting for referenced pages.* file /u$1 (inode [0-9]*)"
	if [ "$2" = kill ]; then
		kill -9 $UP
		# The page stays in use: a SIGKILL must not end the wait.  Wait
		# until the kill is delivered, not for a while.
		kill_pending $UP
		blocked "$1-killed-still-waits" $UP "$4 (SIGKILLed)"
	fi
	release "$1"
	wait $UP
	t_ok "$1-umount" umount $M
	t_ok "$1-no-warnings" no_new_warnings
	replugged "$1" "$6" "$5"
}
if [ -n "$MULTI" ]; then
	unplug_cycle unplug-primary - "$(o 8)" "$unplug" "$replug" "$DEV"
	unplug_cycle unplug-member - "$(mo 8)" "$munplug" "$mreplug" "$MEM"
	unplug_cycle unplug-member-sigkill kill "$(mo 8)" "$munplug" "$mreplug" "$MEM"
elif [ "$FAMFS_PROFILE" = nvdimm ]; then
	unplug_cycle unplug-pmem - "$(o 8)" "$unplug" "$replug" "$DEV"
	unplug_cycle unplug-pmem-sigkill kill "$(o 8)" "$unplug" "$replug" "$DEV"
elif [ "$FAMFS_DEV_MODE" = devdax ]; then
	unplug_cycle unbind - "$(o 8)" "$unplug" "$replug" "$DEV"
	unplug_cycle unbind-sigkill kill "$(o 8)" "$unplug" "$replug" "$DEV"

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

# ---- one device removed, a page of the other in a pipe --------------------------------
# cross ID OFF UNPLUG REPLUG GONE HELD: a file at OFF (on the device HELD)
# with its page in a pipe, the other device GONE removed (it has no
# referenced page: the removal completes), the file deleted: the unmount
# waits for the page, HELD cannot be mounted meanwhile (else a new file
# there shows its bytes through the old pipe), then all completes.
cross() {
	fmount "$1" || return
	klog_mark
	hold x "$2"
	sh -c "$3" & UP=$!
	gone_within "$1-removal-completes" $UP "the removal of $5 waits, but no page of it is referenced"
	wait $UP
	rm -f $M/x
	umount $M & UM=$!
	blocked "$1-umount-waits" $UM "umount (after rm of the file whose page is in the pipe)"
	if mount -t famfs "$6" $M2 2>/dev/null; then
		t_fail "$1-device-still-held" "a new mount of $6 succeeded while a page of it is in a pipe"
		# the same memory, device 0 of the new mount
		hostile_pins fill $M2 g "${2#1:}" > /dev/null 2>&1
		umount $M2
	else
		t_pass "$1-device-still-held"
	fi
	release "$1"
	wait $UM
	t_eq "$1-umount-completes" 0 $?
	t_ok "$1-no-warnings" no_new_warnings
	replugged "$1" "$5" "$4"
}
if [ -n "$MULTI" ]; then
	cross member-gone-primary-page "$(o 12)" "$munplug" "$mreplug" "$MEM" "$DEV"
	cross primary-gone-member-page "$(mo 12)" "$unplug" "$replug" "$DEV" "$MEM"
fi

# ---- the removal of a device that is not famfs's does not wait for famfs's ---------
# The primary removed (no member attached) while a page of it is in a pipe:
# its removal waits; the other device (not famfs's) is removed meanwhile and
# must not wait for it.
if [ -n "$MULTI" ]; then
	if mount -t famfs $DEV $M; then
		klog_mark
		hold o "$(o 16)"
		sh -c "$unplug" & UP=$!
		blocked other-primary-waits $UP "$unplug"
		sh -c "$munplug" & UO=$!
		gone_within other-removal-not-blocked $UO "the removal of $MEM (not famfs's) waits while famfs's removal of $DEV waits for a page in a pipe"
		release other
		wait $UO
		wait $UP
		t_ok other-umount umount $M
		t_ok other-no-warnings no_new_warnings
		replugged other "$MEM" "$mreplug"
		replugged other-primary "$DEV" "$replug"
	else
		t_fail other-mount "mount failed"
	fi
fi

# ---- unmount that cannot wait: SIGKILLed, or the exit of the last user ---------------
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
fmount kill && t_pass kill-mount
hold k "$(p 12)"
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
if [ -n "$punplug" ]; then
	sh -c "$punplug" & UP=$!
	in_famfs umount-killed-unplug-waits $UP "$punplug"
fi
release umount-kill
wait $UM
if [ -n "$punplug" ]; then
	wait $UP
	replugged umount-killed "$PDEV" "$preplug"
fi
device_freed umount-killed-device-freed
t_ok umount-killed-no-warnings no_new_warnings

# ---- a pmem removal while the unmount's worker lets go: famfs.ko stays ----------------
# The device removed while an unmount that could not wait (SIGKILLed) still
# holds it through its worker, for a page in a pipe: the removal finds the
# device as holder, with no super block.  famfs_stall.ko stops the removal
# just after famfs let go of its holder lock (famfs_hold_pgmap()); the pipe
# is drained meanwhile, so the worker closes the device and puts its module
# reference.  The removal still runs famfs code: it must hold a module
# reference of its own, taken while it held the lock, or rmmod unloads
# famfs.ko under it (and the stalled call returns into freed memory).
# refcnt_at_most N: famfs.ko's reference count is N or less within 10 s.
refcnt_at_most() {
	_n=0
	while [ "$(cat /sys/module/famfs/refcnt 2>/dev/null || echo 0)" -gt "$1" ]; do
		[ $_n -ge 100 ] && return 1
		sleep 0.1; _n=$((_n + 1))
	done
}
STALL=$FAMFS_SRC/tests/qemu/kmod/famfs_stall.ko
STALLED=/sys/module/famfs_stall/parameters/stalled
if [ -n "$punplug" ] && [ -b "$PDEV" ]; then
	klog_mark
	fmount window && t_pass window-mount
	hold w "$(p 20)"
	umount $M & UM=$!
	blocked window-umount-waits $UM umount
	kill -9 $UM
	gone_within window-umount-killed $UM "a SIGKILLed umount waiting for a page in a pipe still blocks"
	if insmod "$STALL" target=get_dev_pagemap; then
		sh -c "$punplug" & UP=$!
		_n=0
		while [ "$(cat $STALLED)" -lt 1 ] && [ $_n -lt 100 ]; do
			sleep 0.1; _n=$((_n + 1))
		done
		t_eq window-removal-stalled 1 "$(cat $STALLED)"
		release window
		t_ok window-worker-done refcnt_at_most 1
		if rmmod famfs 2>/dev/null; then
			t_fail window-module-held "famfs.ko unloaded while the removal of $PDEV ran famfs code: it took no module reference while it held the lock"
		else
			t_pass window-module-held
		fi
		echo 1 > /sys/module/famfs_stall/parameters/go
		wait $UP
		t_ok window-stall-unload rmmod famfs_stall
		[ -e /sys/module/famfs ] || insmod "$FAMFS_KO"
		replugged window "$PDEV" "$preplug"
		device_freed window-device-freed
		t_ok window-no-warnings no_new_warnings
	else
		t_fail window-stall "cannot load $STALL: $(dmesg | tail -n 2 | tr '\n' '|')"
	fi
fi

# Last: on a kernel without the fix, the exit below never ends.
klog_mark
fmount exit && t_pass exit-mount
rm -rf $H && mkdir -p $H
hostile_pins holdexit $M e "$(p 16)" $H > /tmp/hostile-pins.out 2>&1 & HP=$!
wait_for $H/ready 20 || t_fail holdexit-ready "$(cat /tmp/hostile-pins.out)"
t_ok exit-lazy-umount umount -l $M
touch $H/go
if gone_within lazy-umount-exit-returns $HP "the last user of a lazily unmounted mount, exiting with a page of it in a pipe, hangs"; then
	wait $HP
	device_freed lazy-umount-exit-device-freed
fi
t_ok lazy-umount-exit-no-warnings no_new_warnings
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok leave-on-device_dax famfs bind -u "$DEV"
[ -n "$DAX" ] && [ "$member_was" != famfs ] && t_ok member-leave-on-device_dax famfs bind -u "$MEM"
exit 0
