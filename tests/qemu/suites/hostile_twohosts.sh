# profiles: two-hosts two-hosts-devdax
# timeout: 180
# A client replaying the log while the master appends to it: host a (the
# master) creates files and directories in a loop; host b runs famfs logplay
# (and now and then fsck and check) on its own mount of the same memory as
# fast as it can.  b must never see a half-written entry (no corrupt entry,
# no conflict, no error, ever), and must end with exactly a's tree: the same
# paths, sizes and bytes.  Then b follows the log (famfs logplay --follow)
# while a commits a corrupt entry (garbage named "ghost", written through
# its .meta/.log, next_index advanced) and then a valid file: the follower
# reports the entry, skips it, goes on, creates the valid file and never
# "ghost"; fsck on both hosts names the entry.  The corrupt entry has a
# right CRC and a bad mode: its extents still parse, so the master keeps
# allocating around them (an entry that cannot be parsed at all stops the
# master's allocations: hostile_meta's r3-unparsed).
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/tmp/hostile-2h
export FAMFS_HOST_ID_FILE=/tmp/hostile-host-uuid
mkdir -p $M
S=$FAMFS_SYNC

listing() {	# every path (dirs too), with size and md5 for files
	(cd $M && find . -path ./.meta -prune -o -print | sed -n 's,^\./,,p' | sort |
		while read -r p; do
			if [ -f "$p" ]; then echo "$p $(stat -c %s "$p") $(md5sum < "$p" | cut -d' ' -f1)"
			else echo "$p/"; fi
		done)
}
N=60

# devdax: each host binds its /dev/daxX.Y to famfs's dax-bus driver
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	t_ok devdax-bound dax_bind_famfs "$(basename $DEV)"
fi

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f --log-format=v1 $DEV	# v1 entries edited below
	t_rc mount 0 famfs mount $DEV $M
	sync_post h2-ready
	sync_wait h2-b-mounted 120 || exit 0
	fails=0
	for i in $(seq 1 $N); do
		case $((i % 6)) in
		0) famfs mkdir -p $M/d$((i / 6))/sub >/dev/null || fails=$((fails + 1)) ;;
		*) famfs mkfile -s $((i * 37000 + 1)) -S $i $M/f$i >/dev/null || fails=$((fails + 1)) ;;
		esac
	done
	t_eq appends-all-worked 0 "$fails"
	listing > "$S/h2-a-tree"
	sync_post h2-a-done
	sync_wait h2-b-done 120 || exit 0
	t_rc fsck-end 0 famfs fsck $M

	# a committed corrupt entry while b follows, then a valid file
	sync_wait h2-b-following 60 || exit 0
	L=$M/.meta/.log
	n=$(hostile_corrupt $L get 16 8)
	e() { echo $((1024 + $1 * 1024)); }
	hostile_corrupt $L copy $(e $((n - 1))) $(e $n) 1024 &&
		hostile_corrupt $L set $(e $n) 8 $n &&
		hostile_corrupt $L str $(( $(e $n) + 328 )) 512 ghost &&
		hostile_corrupt $L set $(( $(e $n) + 320 )) 2 5 &&
		hostile_corrupt $L set $(( $(e $n) + 48 )) 4 33188 &&
		HOSTILE_LOG_BASE=0 hostile_corrupt $L crc $n &&
		hostile_corrupt $L set 16 8 $((n + 1)) ||
		t_fail corrupt-entry "could not write the corrupt entry through $L"
	echo $n > "$S/h2-ghost-index"
	t_rc mkfile-after-corrupt-entry 0 famfs mkfile -s 3m -S 303 $M/after-ghost
	listing > "$S/h2-a-tree2"
	sync_post h2-a-done2
	sync_wait h2-b-done2 120
	t_rc fsck-names-corrupt-entry 3 famfs fsck $M
	case $OUT in *"log entry $n: bad mode"*) t_pass fsck-says-bad-mode ;;
	*) t_fail fsck-says-bad-mode "$(echo "$OUT" | head -n 3 | tr '\n' ' ')" ;; esac
	umount $M
	exit 0
fi

# host b: the client, replaying while a appends
sync_wait h2-ready 180 || exit 0
t_rc client-mount 0 famfs mount $DEV $M
sync_post h2-b-mounted
runs=0 bad=0 first=
while [ ! -e "$S/h2-a-done" ]; do
	out=$(famfs logplay -v $M 2>&1); rc=$?
	runs=$((runs + 1))
	if [ $rc != 0 ] || echo "$out" | grep -q 'log entry'; then
		bad=$((bad + 1)); [ -n "$first" ] || first="logplay run $runs: rc $rc: $out"
	fi
	if [ $((runs % 4)) = 0 ]; then
		out=$(famfs fsck $M 2>&1) ||
			{ bad=$((bad + 1)); [ -n "$first" ] || first="fsck during appends: $out"; }
		out=$(famfs check $M 2>&1) ||
			{ bad=$((bad + 1)); [ -n "$first" ] || first="check during appends: $out"; }
	fi
	for f in /sync/.exited-a; do [ -e "$f" ] && break 2; done
done
echo "hostile_twohosts: b replayed the log $runs times while a appended $N entries"
t_ok replays-ran [ "$runs" -ge 3 ]
t_eq never-a-half-entry "0" "$bad${first:+: $first}"
t_rc final-logplay 0 famfs logplay $M
t_rc final-fsck 0 famfs fsck $M
t_rc final-check 0 famfs check $M
t_eq same-tree-as-master "$(cat "$S/h2-a-tree")" "$(listing)"
t_eq tree-size $((N + N / 6)) "$(listing | grep -c .)"
sync_post h2-b-done

# follow while a commits a corrupt entry and then a valid file
famfs logplay --follow -i 100 $M > /tmp/hostile-follow.out 2>&1 & FP=$!
n=0
until grep -q '^famfs logplay: following' /tmp/hostile-follow.out; do
	[ $n -ge 100 ] && break; sleep 0.1; n=$((n + 1))
done
sync_post h2-b-following
sync_wait h2-a-done2 120
n=0
# mapped, not only created: the follower makes the file, then maps it
while ! famfs getmap -q $M/after-ghost 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
t_ok follower-created-later-file test -e $M/after-ghost
t_rc follower-later-file-bytes 0 famfs verify -S 303 $M/after-ghost
t_ok follower-no-ghost test ! -e $M/ghost
t_ok follower-still-running kill -0 $FP
gi=$(cat "$S/h2-ghost-index")
t_eq follower-same-tree-as-master "$(cat "$S/h2-a-tree2")" "$(listing)"
n=0; until umount $M 2>/dev/null; do [ $n -ge 50 ] && break; sleep 0.1; n=$((n + 1)); done
n=0; while kill -0 $FP 2>/dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
wait $FP; rc=$?
t_eq follower-exit-corrupt-seen 3 "$rc"
if grep -q "log entry $gi skipped: bad mode" /tmp/hostile-follow.out; then
	t_pass follower-reports-entry
else
	t_fail follower-reports-entry "$(tail -n 3 /tmp/hostile-follow.out | tr '\n' ' ')"
fi
sync_post h2-b-done2
exit 0
