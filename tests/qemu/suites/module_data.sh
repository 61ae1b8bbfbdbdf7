# profiles: pmem nvdimm
# timeout: 300
# famfs.ko, the data path (progs/module_data.c): extent math checked on the
# device itself, read/write, EOF rules, truncate/fallocate refused, MAP_PRIVATE
# and MAP_SHARED, fsync, statfs, and 2 MiB (PMD) faults, counted both with
# getrusage in the program and with the fs_dax:dax_pmd_fault_done tracepoint.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-data
famfs_raw_mount $MPT || exit 0

# msync/fsync after stores through MAP_SHARED really write back (flush the
# CPU caches of) the dirty DAX entries: dax_writeback_one fires.
# The famfs:famfs_iomap_begin tracepoint shows the extent math: file offset
# 32M of the 'extents' file resolves to device offset 64M (its 2nd extent).
ev="fs_dax/dax_writeback_one famfs/famfs_iomap_begin"
if trace_have $ev; then
	trace_on $ev
	run_prog module_data $MPT "$FAMFS_DEV"
	trace_off $ev
	n=$(grep -c 'dax_writeback_one:' $TRACE/trace)
	echo "module_data: tracepoint: $n dax_writeback_one"
	t_ok fsync-writes-back [ "$n" -gt 0 ]
	grep 'famfs_iomap_begin:.* pos 0x2000000 ' $TRACE/trace | head -n 3
	t_ok trace-iomap-extent-math grep -q 'famfs_iomap_begin:.* pos 0x2000000 .* addr 0x4000000 ' $TRACE/trace
	: > $TRACE/trace
else
	run_prog module_data $MPT "$FAMFS_DEV"
	trace_missing fsync-writes-back "the fs_dax or famfs tracepoints"
fi

# 64 MiB written then read through 2 MiB-aligned mappings: 32 + 32 PMD faults.
pmd_faults pmd-trace 64 run_prog module_data $MPT "$FAMFS_DEV" pmd

t_ok umount umount $MPT
