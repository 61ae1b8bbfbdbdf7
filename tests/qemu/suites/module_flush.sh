# profiles: pmem nvdimm
# timeout: 120
# famfs.ko, durability on pmem: fsync(2) and msync(2) of a famfs file reach
# the device's flush (nvdimm_flush() through blkdev_issue_flush(), as on ext4
# and xfs), counted as empty REQ_PREFLUSH bios on the block layer's
# block_bio_queue tracepoint; a mount warns once when the dax write cache is
# off (dax/write_cache 0: dax_flush() then writes no CPU cache back, so
# msync publishes nothing to other hosts).
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
M=/tmp/famfs-flush
D=$(basename "$FAMFS_DEV")
mkdir -p $M
export FAMFS_HOST_ID_FILE=/tmp/flush-host-uuid
t_rc mkfs 0 famfs mkfs -f "$FAMFS_DEV"
t_rc mount 0 famfs mount "$FAMFS_DEV" $M
t_rc mkfile 0 famfs mkfile -s 4m $M/f

# block_bio_queue lines of an empty flush of the famfs device: "MAJ,MIN F..."
dev=$(printf '%d,%d' 0x$(stat -c %t "$FAMFS_DEV") 0x$(stat -c %T "$FAMFS_DEV"))
flushes() { grep -c "block_bio_queue: $dev F[A-Z]* 0 + 0 " $TRACE/trace; }
if trace_have block/block_bio_queue; then
	trace_on block/block_bio_queue
	sync $M/f				# busybox sync FILE: fsync(2)
	trace_off block/block_bio_queue
	grep block_bio_queue $TRACE/trace | head -n 3
	t_eq fsync-flushes-device 1 "$(flushes)"
	trace_on block/block_bio_queue
	devpat -m write $M/f 0 64K 7		# a shared mapping, msync(MS_SYNC)
	trace_off block/block_bio_queue
	n=$(flushes)
	echo "module_flush: devpat -m write (msync): $n flushes"
	if [ "$n" -ge 1 ]; then t_pass msync-flushes-device
	else t_fail msync-flushes-device "no flush of $FAMFS_DEV ($dev) traced"; fi
	: > $TRACE/trace
else
	t_skip fsync-flushes-device "no block/block_bio_queue tracepoint in $TRACE"
fi
# Stores through a shared mapping with no msync or fsync: sync(2), then
# unmount, write them back (fs/dax.c's dax_writeback_one per dirty entry).
# famfs inodes are on no writeback list (never hashed), so only famfs's
# ->sync_fs can reach their dirty DAX entries.
wb_ones() { grep -c 'dax_writeback_one:' $TRACE/trace; }
if trace_have fs_dax/dax_writeback_one; then
	t_rc mkfile-sync 0 famfs mkfile -s 4m $M/s
	t_ok store-unfsynced devpat -M write $M/s 0 4M 10
	trace_on fs_dax/dax_writeback_one
	sync $M/s				# busybox sync FILE: fsync(2)
	trace_off fs_dax/dax_writeback_one
	n=$(wb_ones)
	echo "module_flush: fsync(2) after stores through a mapping: $n dax_writeback_one"
	t_eq fsync-writes-back-mapping 1 "$((n > 0))"
	t_ok store-unsynced devpat -M write $M/s 0 4M 11
	trace_on fs_dax/dax_writeback_one
	sync
	trace_off fs_dax/dax_writeback_one
	n=$(wb_ones)
	echo "module_flush: sync(2) after stores through a mapping: $n dax_writeback_one"
	t_eq sync-writes-back-mapping 1 "$((n > 0))"
	t_ok store-unsynced-2 devpat -M write $M/s 0 4M 12
	trace_on fs_dax/dax_writeback_one
	t_ok umount-after-stores umount $M
	trace_off fs_dax/dax_writeback_one
	n=$(wb_ones)
	echo "module_flush: umount after stores through a mapping: $n dax_writeback_one"
	t_eq umount-writes-back-mapping 1 "$((n > 0))"
	t_rc remount-after-stores 0 famfs mount "$FAMFS_DEV" $M
	t_ok stores-kept devpat check $M/s 0 4M 12
else
	trace_missing sync-writes-back-mapping "fs_dax/dax_writeback_one in $TRACE"
fi
t_ok umount umount $M

# The dax write cache off: one warning at mount, none with it on.
wc=/sys/block/$D/dax/write_cache
if [ -w $wc ]; then
	t_eq write-cache-default-on 1 "$(cat $wc)"
	echo 0 > $wc
	klog_mark
	t_rc mount-wc-off 0 famfs mount "$FAMFS_DEV" $M
	log=$(klog_since | grep 'famfs')
	echo "$log"
	t_eq write-cache-off-warned-once 1 "$(echo "$log" | grep -c 'famfs ('"$D"'): .*write cache is off')"
	umount $M
	echo 1 > $wc
	klog_mark
	t_rc mount-wc-on 0 famfs mount "$FAMFS_DEV" $M
	t_eq write-cache-on-no-warning 0 "$(klog_since | grep -c 'write cache is off')"
	umount $M
else
	t_skip write-cache "no writable $wc"
fi
