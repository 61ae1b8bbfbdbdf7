#!/bin/sh
# /init of the famfs test guest (busybox sh).  The host (run.sh) passes the
# run parameters in /out/config over 9p: PROFILE HOST SUITES SUITE_TIMEOUT
# TIMEOUT_PCT (every suite timeout scaled: more guests than host cores)
# INTERACTIVE.  Protocol lines go to /out/results.txt (via lib.sh), ended by
# "END <profile>".  Exit: byte 0 to isa-debug-exit port 0xf4 (QEMU exits 1).
export PATH=/sbin:/bin:/usr/sbin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
exec </dev/console >/dev/console 2>&1

qemu_exit() {	# $1: byte for the isa-debug-exit port
	sync
	printf "\\$(printf %03o "$1")" | dd of=/dev/port bs=1 seek=244 count=1 2>/dev/null
	poweroff -f
}
die() { echo "init: FATAL: $*"; qemu_exit 2; }

for m in virtio_pci 9pnet_virtio 9p; do modprobe $m || die "modprobe $m failed"; done
p9="-t 9p -o trans=virtio,version=9p2000.L,msize=512000"
mount $p9,ro src /src || die "cannot mount /src"
mount $p9 out /out || die "cannot mount /out"
mount $p9 sync /sync 2>/dev/null
. /out/config || die "no /out/config"

export FAMFS_SRC=/src FAMFS_OUT=/out FAMFS_SYNC=/sync FAMFS_PROFILE=$PROFILE FAMFS_HOST=${HOST:-a}
export FAMFS_KO=/src/fs/famfs/famfs.ko FAMFS_SUITE=guest HOME=/tmp
export PATH=$PATH:/src/tools/famfs-cli/build:/src/tests/qemu/build/bin
hostname "famfs-$FAMFS_HOST"
echo 30 > /proc/sys/kernel/hung_task_timeout_secs 2>/dev/null
PROFILES=/src/tests/qemu/profiles
. /src/tests/qemu/lib.sh || die "cannot source lib.sh"
. "$PROFILES/$PROFILE.sh" || die "no profile $PROFILE"
# FAMFS_GUESTS: every host of this boot (lib.sh's sync_peers)
FAMFS_GUESTS=${FAMFS_GUESTS:-$FAMFS_HOST}
export FAMFS_DEV FAMFS_DEV_MODE FAMFS_DEVS FAMFS_GUESTS
: > /out/results.txt

echo "init: profile $PROFILE host $FAMFS_HOST: device setup"
if guest_setup && [ -e "$FAMFS_DEV" ]; then
	t_pass setup
else
	t_fail setup "profile setup did not produce $FAMFS_DEV"
fi
if [ -f "$FAMFS_KO" ]; then
	if out=$(insmod "$FAMFS_KO" 2>&1); then t_pass famfs-ko; else t_fail famfs-ko "insmod: $out"; fi
elif [ "$FAMFS_REQUIRE_KO" = 1 ]; then
	t_fail famfs-ko "$FAMFS_KO is not built"
else
	echo "init: info: $FAMFS_KO not built, not loaded"
fi

if [ "$INTERACTIVE" = 1 ]; then
	echo "init: interactive shell; suites are in /src/tests/qemu/suites; exit to power off"
	setsid cttyhack sh -l
	qemu_exit 0
fi

# uptime: whole seconds since boot
uptime_s() { read -r _up _ < /proc/uptime; echo "${_up%%.*}"; }

# Each suite runs in its own session so that a timeout kills all its
# processes.  One watchdog per suite sleeps for the timeout (a loop of short
# sleeps cost the guest a fork and exec five times a second under TCG).
for s in $SUITES; do
	f=/src/tests/qemu/suites/$s.sh
	to=""
	[ "${FAMFS_LONG:-0}" != 0 ] && to=$(sed -n 's/^# timeout-long: *\([0-9]*\).*/\1/p' "$f" | head -n 1)
	[ -n "$to" ] || to=$(sed -n 's/^# timeout: *\([0-9]*\).*/\1/p' "$f" | head -n 1)
	to=$(( ${to:-$SUITE_TIMEOUT} * ${TIMEOUT_PCT:-100} / 100 ))
	before=$(wc -l < /out/results.txt)
	echo "init: suite $s (timeout ${to}s)"
	rm -f /tmp/.suite-timed-out
	t0=$(uptime_s)
	FAMFS_SUITE=$s setsid sh "$f" </dev/null &
	pid=$!
	setsid sh -c "sleep $to; : > /tmp/.suite-timed-out; kill -KILL -$pid" \
		</dev/null >/dev/null 2>&1 &
	wd=$!
	wait $pid
	rc=$?
	kill -KILL -$wd 2>/dev/null
	wait $wd 2>/dev/null
	if [ -e /tmp/.suite-timed-out ]; then
		FAMFS_SUITE=$s t_fail timeout "suite killed after ${to}s"
	elif [ $rc -ne 0 ]; then
		FAMFS_SUITE=$s t_fail exit "suite exited with status $rc"
	fi
	[ "$(wc -l < /out/results.txt)" -gt "$before" ] || FAMFS_SUITE=$s t_fail results "suite reported nothing"
	echo "init: suite $s took $(($(uptime_s) - t0)) s" | tee -a /out/timings.txt
done

dmesg > /out/dmesg.txt
echo "END $PROFILE $FAMFS_HOST" >> /out/results.txt
echo "END $PROFILE $FAMFS_HOST"
qemu_exit 0
