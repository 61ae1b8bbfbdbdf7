# profiles: two-hosts two-hosts-devdax
# timeout: 150
# Publishing between hosts (issue 9): a (master) writes a file and publishes
# it with msync(MS_SYNC), fsync, fdatasync or write(2); b (client) reads the
# bytes, through a mapping whose lines it drops first (clflush) and with
# read(2).  TCG does not model caches, so the flush path is shown to run
# (the counts are FAILs, not SKIPs, when the tracing they need is missing on
# a kernel that has tracing, as Debian's: lib.sh's trace_missing):
#  - fs_dax:dax_writeback_one fires once per dirtied DAX entry (2 MiB or
#    4 KiB) on msync/fsync/fdatasync, not at all when nothing is dirty, and
#    covers every page after a whole-file write;
#  - write(2) copies with cache-bypassing stores: a kprobe on
#    __copy_user_flushcache counts them, and fsync after it has nothing left
#    to write back;
#  - the tool's metadata: FAMFS_DEBUG_FLUSH=1 counts what famfs mkfs, mkdir
#    and logplay flushed or refreshed, and mkdir's msyncs of .meta/.log (a
#    few lines each) are written back line by line (famfs:famfs_fsync_lines),
#    not as whole DAX entries (2 MiB each under a PMD mapping).
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
T=$TRACE
EV="fs_dax/dax_writeback_one fs_dax/dax_writeback_range famfs/famfs_fsync_lines"
mkdir -p $M

# flush_stat NAME: the count NAME=N from FAMFS_DEBUG_FLUSH's line in $OUT
flush_stat() { echo "$OUT" | sed -n "s/.*famfs: flush:.* $1=\([0-9]*\).*/\1/p; s/.*famfs: flush: $1=\([0-9]*\).*/\1/p" | head -n 1; }
t_ge() {	# t_ge ID MIN ACTUAL
	if [ -n "$3" ] && [ "$3" -ge "$2" ]; then t_pass "$1"
	else t_fail "$1" "expected at least $2, got '$3'"; fi
}

have_trace=0
trace_have $EV && have_trace=1
trace_start() { trace_on $EV; }
trace_stop() {	# events of inode $1 in /tmp/ev
	trace_off $EV
	grep "ino $(printf '%#x' "$1") " $T/trace > /tmp/ev
	: > $T/trace
}
n_one() { grep -c 'dax_writeback_one:' /tmp/ev; }
n_range() { grep -c 'dax_writeback_range:' /tmp/ev; }
# pages written back: the sum of the pglen fields
pages_one() {
	_s=0
	for _l in $(sed -n 's/.*dax_writeback_one:.* pglen \(0x[0-9a-f]*\).*/\1/p' /tmp/ev); do
		_s=$((_s + _l))
	done
	echo $_s
}

famfs_loaded || exit 0
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok bind famfs bind "$DEV"

if [ "$FAMFS_HOST" = a ]; then
	# the tool's metadata: mkfs flushes through the device
	t_rc mkfs 0 env FAMFS_DEBUG_FLUSH=1 famfs mkfs -f -l 2m "$DEV"
	echo "publish: mkfs: $(echo "$OUT" | grep 'flush:')"
	if [ "$FAMFS_DEV_MODE" = devdax ]; then
		t_ge mkfs-cpu-flushes 3 "$(flush_stat cpu_flushes)"
		t_ge mkfs-cpu-lines 32768 "$(flush_stat cpu_lines)"	# the 2 MiB log area
	else
		t_ge mkfs-dio-writes 3 "$(flush_stat dio_writes)"	# pmem: flushing copies
	fi
	t_rc mount 0 famfs mount "$DEV" $M
	# a log append: entry, then header, both through msync of .meta/.log;
	# and the master's beat (one per command) through .meta/.superblock
	logino=$(stat -c %i $M/.meta/.log)
	[ $have_trace = 1 ] && trace_start
	t_rc mkdir 0 env FAMFS_DEBUG_FLUSH=1 famfs mkdir $M/d
	echo "publish: mkdir: $(echo "$OUT" | grep 'flush:')"
	t_eq mkdir-msyncs 3 "$(flush_stat msync)"
	if [ $have_trace = 1 ]; then
		trace_stop "$logino"
		t_ge mkdir-log-written-back 2 "$(grep -c 'famfs_fsync_lines:' /tmp/ev)"
		t_eq mkdir-log-no-whole-entry 0 "$(n_one)"
	fi
	t_rc mkfile 0 famfs mkfile -s 8m $M/pub
	ino=$(stat -c %i $M/pub)
	sync_post pub-a-file
	sync_wait pub-b-mounted 120 || exit 0

	if [ $have_trace = 1 ]; then
		# one dirty entry per dirtied 2 MiB (PMD mapping) or 4 KiB page
		trace_start
		t_rc dirty-msync 0 publish_test dirty $M/pub msync 0 0x200064 0x402000
		trace_stop "$ino"
		pglen=$(sed -n 's/.*dax_writeback_one:.* pglen \(0x[0-9a-f]*\).*/\1/p' /tmp/ev | sort -u)
		echo "publish: entries of $pglen pages; $(n_one) written back"
		t_ok entry-size [ "$pglen" = 0x1 -o "$pglen" = 0x200 ]
		t_eq dirty-msync-entries 3 "$(n_one)"
		t_eq dirty-msync-ranges 1 "$(n_range)"
		# nothing dirty: nothing to write back (no dirty tag: the DAX
		# writeback is not even entered)
		trace_start
		t_rc clean-msync 0 publish_test dirty $M/pub msync
		trace_stop "$ino"
		t_eq clean-msync-entries 0 "$(n_one)"
		# two pages of one 2 MiB unit: one PMD entry, or two 4 KiB ones
		trace_start
		t_rc dirty-fsync 0 publish_test dirty $M/pub fsync 0x600000 0x602000
		trace_stop "$ino"
		[ "$pglen" = 0x200 ] && want=1 || want=2
		t_eq dirty-fsync-entries $want "$(n_one)"
		trace_start
		t_rc dirty-fdatasync 0 publish_test dirty $M/pub fdatasync 0x1000
		trace_stop "$ino"
		t_eq dirty-fdatasync-entries 1 "$(n_one)"
		trace_start
	else
		trace_missing writeback-trace "the fs_dax tracepoints ($EV)"
	fi
	# the whole file through a mapping, published by msync
	t_rc write-msync 0 publish_test write $M/pub 42 msync
	if [ $have_trace = 1 ]; then
		trace_stop "$ino"
		t_eq write-msync-pages 2048 "$(pages_one)"
	fi
	sync_post pub-a-42
	sync_wait pub-b-42 120 || exit 0

	# write(2): flushing copies, nothing left for fsync
	KP=kprobes/famfs_flushcopy
	if echo 'p:famfs_flushcopy __copy_user_flushcache' >> $T/kprobe_events 2>/dev/null; then
		if [ $have_trace = 1 ]; then trace_on $KP $EV; else trace_on $KP; fi
		t_rc write-syscall 0 publish_test pwrite $M/pub 43
		n=$(grep -c 'famfs_flushcopy:' $T/trace)
		: > $T/trace
		t_rc fsync-after-write 0 publish_test dirty $M/pub fsync
		trace_off $KP
		echo "publish: write(2) of 8 MiB: $n __copy_user_flushcache calls"
		t_ge write-flushcache-copies 1 "$n"
		if [ $have_trace = 1 ]; then
			trace_stop "$ino"
			t_eq write-then-fsync-nothing-dirty 0 "$(n_one)"
		fi
		echo '-:famfs_flushcopy' >> $T/kprobe_events
	else
		trace_missing write-flushcache-copies "kprobe events on __copy_user_flushcache (CONFIG_KPROBE_EVENTS)"
		t_rc write-syscall 0 publish_test pwrite $M/pub 43
	fi
	sync_post pub-a-43
	sync_wait pub-b-43 120 || exit 0
	t_rc write-fsync 0 publish_test write $M/pub 44 fsync
	sync_post pub-a-44
	sync_wait pub-b-44 120 || exit 0
	t_rc write-fdatasync 0 publish_test write $M/pub 45 fdatasync
	sync_post pub-a-45
	sync_wait pub-b-45 120 || exit 0

	# MAP_SYNC: both QEMU NVDIMM pmem and famfs's devdax driver are
	# synchronous DAX (a cache flush reaches the memory), so it is offered.
	t_rc map-sync-offered 0 publish_test mapsync $M/pub
	t_rc fsck-end 0 famfs fsck $M
	t_ok umount umount $M
	t_ok no-warnings no_warnings
	exit 0
fi

# host b: the client
sync_wait pub-a-file 180 || exit 0
t_rc client-mount 0 famfs mount "$DEV" $M
# reading the log: the header's line refreshed, the entries' dropped
t_rc client-logplay 0 env FAMFS_DEBUG_FLUSH=1 famfs logplay $M
echo "publish: client logplay: $(echo "$OUT" | grep 'flush:')"
t_ge client-logplay-refreshes 1 "$(flush_stat refreshes)"
t_ge client-logplay-invalidates 1 "$(flush_stat invalidates)"
t_eq client-logplay-writes-nothing 0 "$(flush_stat msync)"
t_ok client-has-file test -f $M/pub
# read it once, as a reader that already holds lines of it would
cat $M/pub > /dev/null
sync_post pub-b-mounted
sync_wait pub-a-42 120 || exit 0
t_rc client-msync-mmap 0 publish_test check $M/pub 42 mmap
t_rc client-msync-read 0 publish_test check $M/pub 42 read
sync_post pub-b-42
sync_wait pub-a-43 120 || exit 0
t_rc client-write-mmap 0 publish_test check $M/pub 43 mmap
t_rc client-write-read 0 publish_test check $M/pub 43 read
sync_post pub-b-43
sync_wait pub-a-44 120 || exit 0
t_rc client-fsync-mmap 0 publish_test check $M/pub 44 mmap
sync_post pub-b-44
sync_wait pub-a-45 120 || exit 0
t_rc client-fdatasync-read 0 publish_test check $M/pub 45 read
sync_post pub-b-45
t_ok client-umount umount $M
t_ok client-no-warnings no_warnings
exit 0
