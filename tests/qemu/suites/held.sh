# profiles: pmem nvdimm2 nvdimm-devdax mixed
# timeout: 300
# FAMFSIOC_HELD (issue 29): whether memory of the mount is still referenced
# on this host, for the replayer that reports it in its host-table slot
# (progs/held.c):
# - errors: every refusal with its errno (E2BIG, EINVAL for flags, device,
#   alignment, length and overflow, EFAULT for header, ranges and answers;
#   EPERM for a user without CAP_SYS_ADMIN), one log line each; a range no
#   file uses is held 0;
# - live: a file's range held (LIVE) while it has a name, while mapped or
#   open after unlink; 0 after munmap and close; half ranges, neighbours
#   and the same offset on another device in one call;
# - pipe: a page vmsplice'd into a pipe keeps its extent held as a zombie
#   (ZOMBIE) after the file is evicted, the file's other extent is not; 0
#   once the pipe is closed;
# - races: HELD in a loop (two processes) while files are made, pinned,
#   unlinked and evicted; then while the mount is lazily unmounted with a
#   page in a pipe; no WARN, BUG or Oops.
# On nvdimm2 and mixed the files are on member 1 (DEV_ADD; on mixed a
# /dev/daxX.Y bound to famfs) and device 0 is asked about too.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
DEV=$FAMFS_DEV
M=/tmp/famfs-held
mkdir -p $M
no_new_warnings() { ! klog_since | grep -q 'WARNING\|BUG\|Call Trace\|Oops'; }

MULTI=
# shellcheck disable=SC2086
set -- $FAMFS_DEVS
if [ -n "${2:-}" ]; then
	two_devs || exit 0
	MULTI=1
fi
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	t_ok bind dax_bind_famfs "$(basename "$DEV")" || exit 0
fi
member_was=
if [ -n "$DAX" ]; then
	member_was=$(dax_driver "$DAX")
	t_ok member-bind dax_bind_famfs "$DAX" || exit 0
fi
# where the files go (MiB from B on): member 1 on two devices
B=300
if [ -n "$MULTI" ]; then
	p() { echo "1:$((B + $1))M"; }
	DEVS="0 1" OTHER=0
else
	p() { echo "$((B + $1))M"; }
	DEVS=0 OTHER=
fi
attach() {
	[ -z "$MULTI" ] && return 0
	hostile_pins attach $M "$MEM" 1 > /tmp/held-attach.out 2>&1
	PFX=$1- t_prog hostile_pins /tmp/held-attach.out $?
}

klog_mark
famfs_raw_mount $M || exit 0
attach attach
run_prog held errors $M
t_klog errors-logged 'famfs (.*): HELD: .*1025 ranges'
chmod 0755 $M
runas 65534 held eperm $M > /tmp/held-eperm.out 2>&1
PFX=eperm- t_prog held /tmp/held-eperm.out $?
# shellcheck disable=SC2086
held live $M "$(p 0)" $OTHER > /tmp/held-live.out 2>&1
PFX=live- t_prog held /tmp/held-live.out $?
held pipe $M "$(p 4)" "$(p 8)" > /tmp/held-pipe.out 2>&1
PFX=pipe- t_prog held /tmp/held-pipe.out $?
t_ok no-warnings no_new_warnings

# ---- races --------------------------------------------------------------------------
klog_mark
# shellcheck disable=SC2086
held loop $M 20 $DEVS > /tmp/held-loop1.out 2>&1 & L1=$!
# shellcheck disable=SC2086
held loop $M 20 $DEVS > /tmp/held-loop2.out 2>&1 & L2=$!
held churn $M "$(p 12)" 18 > /tmp/held-churn.out 2>&1
PFX=race-churn- t_prog held /tmp/held-churn.out $?
wait $L1
PFX=race-loop1- t_prog held /tmp/held-loop1.out $?
wait $L2
PFX=race-loop2- t_prog held /tmp/held-loop2.out $?
t_ok race-no-warnings no_new_warnings

# HELD while the mount goes away: a page in a pipe (the unmount waits for
# it in the worker), the loops keep their descriptors through a lazy
# unmount, then exit; the pipe lets go last.
klog_mark
rm -rf /tmp/held-h && mkdir -p /tmp/held-h
hostile_pins hold $M f "$(p 16)" /tmp/held-h > /tmp/held-hold.out 2>&1 & HP=$!
wait_for /tmp/held-h/ready 20 || t_fail umount-hold-ready "$(cat /tmp/held-hold.out)"
# shellcheck disable=SC2086
held loop $M 8 $DEVS > /tmp/held-loop3.out 2>&1 & L3=$!
held churn $M "$(p 20)" 4 > /tmp/held-churn2.out 2>&1 & C2=$!
sleep 2
t_ok umount-lazy umount -l $M
wait $C2
PFX=umount-churn- t_prog held /tmp/held-churn2.out $?
wait $L3
PFX=umount-loop- t_prog held /tmp/held-loop3.out $?
touch /tmp/held-h/go
wait $HP
PFX=umount-hold- t_prog hostile_pins /tmp/held-hold.out $?
# the device is free again once the pipe let go (the worker's release)
n=0
while ! mount -t famfs $DEV $M 2>/dev/null; do
	[ $n -ge 100 ] && break
	sleep 0.1; n=$((n + 1))
done
if grep -q " $M famfs " /proc/mounts; then
	t_pass umount-device-free
	attach remount
	held live $M "$(p 16)" > /tmp/held-live2.out 2>&1
	PFX=remount-live- t_prog held /tmp/held-live2.out $?
	t_ok umount umount $M
else
	t_fail umount-device-free "no new mount of $DEV within 10 s"
fi
t_ok umount-no-warnings no_new_warnings
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok leave-on-device_dax famfs bind -u "$DEV"
[ -n "$DAX" ] && [ "$member_was" != famfs ] && t_ok member-leave-on-device_dax famfs bind -u "$MEM"
exit 0
