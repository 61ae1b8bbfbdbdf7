# profiles: two-hosts two-hosts-devdax
# timeout: 240
# famfs logplay --follow between two hosts (issue 9): a (master) creates 100
# files one by one (and a directory every ten) while b (client) follows the
# log in the background.  Midway b's follower is killed with SIGKILL and a
# new one started while a goes on: b ends with exactly a's tree (paths,
# sizes, maps, content checksums), nothing created twice, no conflict.  A
# file a creates last shows up on b within a second or two (TCG).  The
# follower exits 0 when b unmounts, on SIGTERM and on SIGINT.  famfs mount
# -o follow starts one that lasts until umount.  Long directory and file
# names make entries of 1..3 slots of the compact log (the default).
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
N=100
mkdir -p $M

# one line per path under $M (not .meta): type, size, md5 and map of files
tree_sig() {
	( cd $M && find . -path ./.meta -prune -o -print | sort | while IFS= read -r p; do
		[ "$p" = . ] && continue
		if [ -d "$p" ]; then
			echo "d $p"
		else
			echo "f $p $(stat -c %s "$p") $(md5sum < "$p" | cut -d' ' -f1)" \
			     "$(famfs getmap "$p" | tail -n +2 | tr -s ' \n' ' ')"
		fi
	done )
}
nfiles() { find $M -path $M/.meta -prune -o -type f -print | wc -l; }
# wait_exit PID SECONDS: 0 once PID has exited (its status in $RC), else 1
wait_exit() {
	_n=0
	while kill -0 "$1" 2>/dev/null; do
		[ $_n -ge $(($2 * 10)) ] && return 1
		sleep 0.1; _n=$((_n + 1))
	done
	wait "$1"; RC=$?
	return 0
}
# start_follower OUT: famfs logplay --follow in the background, $FP its pid
start_follower() {
	famfs logplay --follow -v -i 100 $M > "$1" 2>&1 &
	FP=$!
	_n=0
	until grep -q '^famfs logplay: following' "$1"; do
		[ $_n -ge 100 ] && { t_fail follower-start "$(cat "$1")"; return 1; }
		sleep 0.1; _n=$((_n + 1))
	done
}

famfs_loaded || exit 0
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok bind famfs bind "$DEV"

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f "$DEV"
	t_rc mount 0 famfs mount "$DEV" $M
	sync_post fol-a-ready
	sync_wait fol-b-following 120 || exit 0
	bad=0 i=1
	while [ $i -le $N ]; do
		# odd directories and every third file have long names: log
		# entries of 1, 2 and 3 compact slots, followed across rounds
		d=$M/d$(((i - 1) / 10))
		[ $((((i - 1) / 10) % 2)) = 1 ] && d=${d}_$(printf '%0190d' 0)
		f=f$i
		[ $((i % 3)) = 0 ] && f=f${i}_$(printf '%0240d' 0)
		if [ $((i % 10)) = 1 ]; then
			famfs mkdir $d || bad=$((bad + 1))
		fi
		famfs mkfile -s $((i * 3))k -S $i $d/$f || bad=$((bad + 1))
		[ $i = 40 ] && sync_post fol-a-40
		i=$((i + 1))
	done
	t_eq create-all 0 $bad
	used=$(famfs df -j $M | jget .log.used) ents=$(famfs df -j $M | jget .log.entries)
	t_eq compact-log compact "$(famfs df -j $M | jget .log.format)"
	t_ok multi-slot-entries [ "$used" -gt "$ents" ]
	tree_sig > /tmp/tree
	cp /tmp/tree "$S/fol-a-tree"
	t_eq master-files $N "$(nfiles)"
	sync_post fol-a-done
	sync_wait fol-b-caught-up 120 || exit 0
	sync_post fol-a-late
	t_rc mkfile-late 0 famfs mkfile -s 1m -S 7 $M/late
	sync_wait fol-b-auto 120 || exit 0
	t_rc mkfile-auto 0 famfs mkfile -s 1m -S 8 $M/auto
	sync_post fol-a-auto
	sync_wait fol-b-done 180
	t_rc fsck-end 0 famfs fsck $M
	t_ok umount umount $M
	t_ok no-warnings no_warnings
	exit 0
fi

# host b: the client
sync_wait fol-a-ready 180 || exit 0
t_rc client-mount 0 famfs mount "$DEV" $M
start_follower /tmp/f1.out || { sync_post fol-b-following; exit 0; }
t_pass follower-started
sync_post fol-b-following
sync_wait fol-a-40 180 || exit 0
# SIGKILL midway: a goes on creating while no follower runs
kill -KILL $FP
wait $FP; rc=$?
t_eq follower-killed 137 $rc
echo "follow: $(nfiles) files when the first follower was killed"
sleep 1
start_follower /tmp/f2.out || exit 0
t_pass follower-restarted
sync_wait fol-a-done 300 || exit 0
n=0
while [ "$(nfiles)" -lt $N ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
t_eq client-files $N "$(nfiles)"
n=0	# the follower's round that made the last file may still be mapping it
until tree_sig > /tmp/tree && cmp -s /tmp/tree "$S/fol-a-tree" || [ $n -ge 100 ]; do
	sleep 0.1; n=$((n + 1))
done
if cmp -s /tmp/tree "$S/fol-a-tree"; then
	t_pass client-same-tree
else
	t_fail client-same-tree "$(diff "$S/fol-a-tree" /tmp/tree | head -n 5 | tr '\n' ' ')"
fi
t_eq client-tree-lines $((N + N / 10)) "$(wc -l < /tmp/tree)"
sync_post fol-b-caught-up

# a file a creates now shows up within a second or two (TCG): timed from
# a's signal, posted just before its famfs mkfile starts
sync_wait fol-a-late 120 || exit 0
ms=0
while [ ! -e $M/late ] && [ $ms -lt 5000 ]; do usleep 20000; ms=$((ms + 20)); done
echo "follow: a's last file appeared ${ms} ms after a started famfs mkfile"
t_ok client-late-file test -e $M/late
t_ok client-late-within-2s [ $ms -le 2000 ]
t_rc client-late-bytes 0 famfs verify -S 7 $M/late

# nothing duplicated, nothing in conflict
t_ok no-conflicts sh -c "! grep -i 'conflict\|logged twice\|differs' /tmp/f1.out /tmp/f2.out | grep -v ' 0 conflicts'"
t_rc client-nothing-left 0 famfs logplay -n $M
case $OUT in
*"0 files and 0 directories to create"*) t_pass client-nothing-left-says ;;
*) t_fail client-nothing-left-says "logplay -n: $OUT" ;;
esac
t_rc client-fsck 0 famfs fsck $M

# umount stops the follower (exit 0, with a message)
t_ok umount-while-following umount_retry
if wait_exit $FP 5; then
	t_eq follower-exit-on-umount 0 $RC
else
	t_fail follower-exit-on-umount "still running 5 s after umount"
	kill -KILL $FP
fi
t_ok follower-says-unmounted grep -q 'was unmounted' /tmp/f2.out
cat /tmp/f1.out /tmp/f2.out | grep -v '^famfs logplay: .*entries [0-9]*\.\.' | head -n 20

# SIGTERM and SIGINT stop it too
t_rc client-remount 0 famfs mount "$DEV" $M
for sig in TERM INT; do
	start_follower /tmp/f-$sig.out || break
	kill -$sig $FP
	if wait_exit $FP 5; then
		t_eq follower-exit-on-$sig 0 $RC
	else
		t_fail follower-exit-on-$sig "still running 5 s after SIG$sig"
		kill -KILL $FP
	fi
	t_ok follower-says-stopped-$sig grep -q 'stopped by' /tmp/f-$sig.out
done
t_ok client-umount umount_retry

# famfs mount -o follow: the same, started by the mount, until umount
daemon() { ps -o pid,args | grep 'famfs mount -o follow' | grep -v grep | sed 's/^ *\([0-9]*\).*/\1/'; }
klog_mark
t_rc client-mount-follow 0 famfs mount -o follow "$DEV" $M
dp=$(daemon)
t_ok follow-daemon-running test -n "$dp"
sync_post fol-b-auto
sync_wait fol-a-auto 120 || exit 0
n=0
while ! famfs getmap -q $M/auto 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
t_rc client-auto-bytes 0 famfs verify -S 8 $M/auto
t_ok client-umount-follow umount_retry
n=0
while [ -n "$(daemon)" ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
t_eq follow-daemon-exits-on-umount "" "$(daemon)"
t_klog follow-daemon-logged "famfs logplay: $M was unmounted"
klog_since | grep 'famfs logplay' | tail -n 4
t_ok client-no-warnings no_warnings
sync_post fol-b-done
exit 0
