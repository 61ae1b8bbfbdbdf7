# profiles: two-hosts
# timeout: 180
# famfs logplay --follow while the master fills the log (issue 9): a makes a
# file system with the smallest log (2 MiB, compact: 8187 of its 8188 slots, one per
# directory here: paths of at most 100 bytes) and fills it with
# directories (famfs mkdir -p, 50 levels at a time) while b follows.  The
# master's next mkdir fails (log full); b's follower replays all 8187
# entries, reports the full log exactly once, keeps running, and exits 0
# when b unmounts.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
CAP=8187		# 8188 slots, the last kept for a growth
export FAMFS_LOG_AUTOGROW=0	# a full log, not a grown one
DEPTH=50
mkdir -p $M

ndirs() { find $M -path $M/.meta -prune -o -type d -print | grep -vc "^$M\$"; }

famfs_loaded || exit 0
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok bind famfs bind "$DEV"

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f -l 2m "$DEV"
	t_rc mount 0 famfs mount "$DEV" $M
	sync_post full-a-ready
	sync_wait full-b-following 120 || exit 0
	# chains c1/x/x/... of DEPTH directories each, the last one shorter
	left=$CAP c=1 bad=0
	while [ $left -gt 0 ]; do
		n=$DEPTH
		[ $n -gt $left ] && n=$left
		p=c$c k=1
		while [ $k -lt $n ]; do p=$p/x; k=$((k + 1)); done
		famfs mkdir -p $M/$p || bad=$((bad + 1))
		left=$((left - n)) c=$((c + 1))
	done
	t_eq fill 0 $bad
	t_eq master-dirs $CAP "$(ndirs)"
	t_rc mkdir-log-full 2 famfs mkdir $M/one-more
	case $OUT in
	*"log full"*) t_pass mkdir-says-log-full ;;
	*) t_fail mkdir-says-log-full "$OUT" ;;
	esac
	t_rc df 0 famfs df $M
	sync_post full-a-done
	sync_wait full-b-done 150
	t_ok umount umount $M
	t_ok no-warnings no_warnings
	exit 0
fi

# host b: the client
sync_wait full-a-ready 180 || exit 0
t_rc client-mount 0 famfs mount "$DEV" $M
famfs logplay --follow -i 100 $M > /tmp/full.out 2>&1 &
fp=$!
n=0
until grep -q '^famfs logplay: following' /tmp/full.out || [ $n -ge 100 ]; do sleep 0.1; n=$((n + 1)); done
sync_post full-b-following
sync_wait full-a-done 150 || { kill $fp; exit 0; }
n=0
while [ "$(ndirs)" -lt $CAP ] && [ $n -lt 300 ]; do sleep 0.2; n=$((n + 1)); done
t_eq client-dirs $CAP "$(ndirs)"
sleep 1		# several more rounds on a full log
t_ok follower-still-running kill -0 $fp
t_eq log-full-reported-once 1 "$(grep -c 'the log is full' /tmp/full.out)"
n=0
until umount $M 2>/dev/null || [ $n -ge 20 ]; do sleep 0.1; n=$((n + 1)); done
t_ok client-umount sh -c "! grep -q ' $M ' /proc/mounts"
n=0
while kill -0 $fp 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 $fp 2>/dev/null; then
	t_fail follower-exit-on-umount "still running 5 s after umount"
	kill -KILL $fp
else
	wait $fp
	t_eq follower-exit-on-umount 0 $?
fi
grep -v '^famfs logplay: .*entries [0-9]*\.\.' /tmp/full.out | head -n 10
t_ok follower-played-all grep -q "$CAP directories created" /tmp/full.out
t_ok client-no-warnings no_warnings
sync_post full-b-done
exit 0
