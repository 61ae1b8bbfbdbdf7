# profiles: pmem two-hosts
# timeout: 600
# Log growth (issue 17): on pmem, a 2 MiB compact log grown by famfs loggrow
# and by itself when full; files made after the growth are there after a
# remount and fsck is clean.  On two-hosts, b follows with famfs logplay
# --follow while a grows the log; b's tree then matches a's.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
mkdir -p $M
famfs_loaded || exit 0

tree() { ( cd $M && find . -path ./.meta -prune -o -print | sort ); }

# mkdir n directories (one slot each) named $2-1..n, in batches
mkdirs() {
	local i=1
	while [ $i -le "$1" ]; do
		famfs mkdir $(seq $i $((i + 499 > $1 ? $1 : i + 499)) | sed "s,^,$M/$2-,") >/dev/null 2>>/tmp/lg.err || return 1
		i=$((i + 500))
	done
}

setup() {
	t_rc mkfs 0 famfs mkfs -f --loglen 2m "$DEV"
	t_rc mount 0 famfs mount "$DEV" $M
}

grow_and_fill() {
	t_rc loggrow-too-big 2 famfs loggrow -s 64g $M
	t_has loggrow-too-big-says "no free run"
	t_rc loggrow 0 famfs loggrow -s 2m $M
	t_has loggrow-says-segment "log segment 1"
	t_ok meta-log1 test -f $M/.meta/.log1
	t_rc df 0 famfs df -j $M
	t_has df-capacity "\"capacity\": $((8188 + 8192)),"
	# fill segment 0 and 1 (16379 usable slots: the smallest growth, 2 MiB,
	# keeps the suite short), then one more: automatic
	mkdirs 16378 a || t_fail fill "$(tail -3 /tmp/lg.err)"
	t_rc autogrow 0 famfs mkdir $M/after-full
	t_has autogrow-says "growing it by"
	t_ok meta-log2 test -f $M/.meta/.log2
	t_rc mkfile-after 0 famfs mkfile -s 4096 $M/file-after
	t_rc fsck 0 famfs fsck $M
	t_rc check 0 famfs check $M
	t_rc df-after 0 famfs df -j $M
	# the automatic growth doubles the log (4 MiB: 16384 slots), a segment
	# of more than one 2 MiB unit counted whole
	t_has df-after-capacity "\"capacity\": $((8188 + 8192 + 16384)),"
}

# issue 27 item 7: the EXTEND entry of segment 1 (slot 0: loggrow right
# after mkfs) damaged on the unmounted device: fsck names it and the slots
# it cannot read (exit 3, not 2), a mount replays what it can read and says
# the rest cannot be read, the master creates nothing; repaired, all is well
damaged_extend() {
	local b=$((2097152 + 1024 + 40))	# a byte of slot 0's body
	t_rc i27-7-flip 0 hostile_corrupt "$DEV" flip $b 4
	t_rc i27-7-fsck 3 famfs fsck "$DEV"
	t_has i27-7-fsck-entry "log entry 0: "
	t_has i27-7-fsck-lost "cannot be read"
	t_rc i27-7-mount 0 famfs mount "$DEV" $M
	t_has i27-7-mount-says "not played"
	t_ok i27-7-mount-some test -d $M/a-1
	t_rc i27-7-logplay 3 famfs logplay $M
	t_rc i27-7-mkfile-refused 2 famfs mkfile -s 4096 $M/while-lost
	t_has i27-7-mkfile-says "cannot be read"
	umount $M
	t_rc i27-7-unflip 0 hostile_corrupt "$DEV" flip $b 4
	t_rc i27-7-fsck-repaired 0 famfs fsck "$DEV"
}

# issue 27 item 1 through the command line: famfs cp lets the log lock go
# while it reads a FIFO; meanwhile another creator makes b1 and fills the
# log to its last slot; the FIFO is over the bound (the read fails), and cp
# -r goes on with a directory: its mkdir meets the full log and grows it.
# The segment must not be b1's memory (it was zeroed, and the log written
# into b1, when the allocator had not seen b1).  b1 is removed on the
# master (it stays logged: clients keep it), so famfs.ko has no map of it
# here to refuse the segment with; a replay makes it again afterwards.
stale_cache_growth() {
	local used cp n
	t_rc i27-1-mkfs 0 famfs mkfs -f --loglen 2m "$DEV"
	t_rc i27-1-mount 0 famfs mount "$DEV" $M
	famfs mkdir $M/dst
	rm -rf /tmp/i27src /tmp/i27ff
	mkdir -p /tmp/i27src/sub
	echo a > /tmp/i27src/s1
	echo b > /tmp/i27src/sub/x
	mkfifo /tmp/i27ff
	# a writer first (read-write: never blocks), so that cp's open of the
	# FIFO does not wait under the lock; its read waits without it
	exec 9<>/tmp/i27ff
	famfs cp -r /tmp/i27src/s1 /tmp/i27ff /tmp/i27src/sub $M/dst \
		> /tmp/i27cp.out 2>&1 &
	cp=$!
	n=0
	until [ -e $M/dst/s1 ] || [ $n -ge 300 ]; do sleep 0.1; n=$((n + 1)); done
	sleep 1		# s1 logged; cp waits on the FIFO, the lock let go
	t_rc i27-1-b1 0 famfs mkfile -s 2m -S 7 $M/b1
	used=$(famfs df -j $M | jget .log.used)
	mkdirs $((8188 - 1 - used)) fill || t_fail i27-1-fill "$(tail -3 /tmp/lg.err)"
	t_eq i27-1-full 8187 "$(famfs df -j $M | jget .log.used)"
	famfs mount -o remount,noprotect $DEV $M	# rm behind the log
	t_ok i27-1-rm-b1 rm $M/b1
	famfs mount -o remount,protect $DEV $M
	# one byte over the bound: cp's read of it fails
	head -c $((64 * 1048576 + 1)) /dev/zero >&9
	exec 9>&-
	wait $cp
	t_eq i27-1-cp-rc 2 "$?"
	OUT=$(cat /tmp/i27cp.out)
	t_has i27-1-cp-says-bound "more than"
	t_ok i27-1-cp-grew grep -q "growing it by" /tmp/i27cp.out
	t_ok i27-1-sub test -f $M/dst/sub/x
	t_rc i27-1-fsck 0 famfs fsck $M
	t_rc i27-1-replay 0 famfs logplay $M
	t_rc i27-1-b1-intact 0 famfs verify -S 7 $M/b1
	umount $M
	rm -rf /tmp/i27src /tmp/i27ff
}

if [ "$FAMFS_PROFILE" = pmem ] || [ -z "$FAMFS_HOST" ]; then
	setup
	grow_and_fill
	before=$(tree)
	umount $M
	t_rc remount 0 famfs mount "$DEV" $M
	t_eq remount-tree "$before" "$(tree)"
	t_ok remount-after-full test -d $M/after-full
	t_rc remount-fsck 0 famfs fsck $M
	t_rc remount-check 0 famfs check $M
	# a .meta/.log1 removed on a live mount: the walk of the next command
	# (famfs check's own) makes it again from its EXTEND entry
	famfs mount -o remount,noprotect $DEV $M	# .meta changed by hand
	t_ok rm-log1 rm $M/.meta/.log1
	t_rc check-remakes-log1 0 famfs check $M
	t_ok log1-remade test -f $M/.meta/.log1
	# a .meta/.log3.new (an unfinished growth's name; an empty file
	# here): famfs check names it
	t_ok touch-log3-new touch $M/.meta/.log3.new
	t_rc check-log3-new 3 famfs check $M
	t_has check-log3-new-says "left by a log growth that did not finish"
	rm -f $M/.meta/.log3.new
	famfs mount -o remount,protect $DEV $M
	umount $M
	damaged_extend
	stale_cache_growth
	exit 0
fi

S=$FAMFS_SYNC
if [ "$FAMFS_HOST" = a ]; then
	setup
	sync_post lg-a-ready
	sync_wait lg-b-following 120 || exit 0
	grow_and_fill
	tree > $S/lg-a-tree
	sync_post lg-a-done
	sync_wait lg-b-done 600
	umount $M
else
	sync_wait lg-a-ready 180 || exit 0
	t_rc mount 0 famfs mount "$DEV" $M
	famfs logplay --follow -i 100 $M > /tmp/lgf.out 2>&1 &
	fp=$!
	sync_post lg-b-following
	sync_wait lg-a-done 900 || { kill $fp; exit 0; }
	n=0
	until [ "$(tree)" = "$(cat $S/lg-a-tree)" ] || [ $n -ge 300 ]; do
		sleep 1; n=$((n + 1))
	done
	t_eq b-tree-matches "$(cat $S/lg-a-tree)" "$(tree)"
	t_ok b-meta-log1 test -f $M/.meta/.log1
	t_ok b-meta-log2 test -f $M/.meta/.log2
	kill $fp; wait $fp
	# (every round's line counts conflicts, corrupt entries and errors)
	t_eq b-follow-no-conflict "" \
	     "$(grep -E ' [1-9][0-9]* (conflicts|corrupt|errors)' /tmp/lgf.out)"
	umount $M
	sync_post lg-b-done
fi
