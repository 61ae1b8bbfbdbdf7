# profiles: pmem nvdimm
# timeout: 300
# famfs.ko, the data path (progs/module_data.c): extent math checked on the
# device itself, read/write, EOF rules, truncate/fallocate refused, MAP_PRIVATE
# and MAP_SHARED, fsync, statfs, and 2 MiB (PMD) faults, counted both with
# getrusage in the program and with the fs_dax:dax_pmd_fault_done tracepoint.
. "$FAMFS_SRC/tests/qemu/lib.sh"

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
MPT=/tmp/famfs-data
mkdir -p $MPT
if ! out=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_fail mount "$out"
	exit 0
fi
t_pass mount

# msync/fsync after stores through MAP_SHARED really write back (flush the
# CPU caches of) the dirty DAX entries: dax_writeback_one fires.
# The famfs:famfs_iomap_begin tracepoint shows the extent math: file offset
# 32M of the 'extents' file resolves to device offset 64M (its 2nd extent).
T=/sys/kernel/tracing
wb=$T/events/fs_dax/dax_writeback_one
ib=$T/events/famfs/famfs_iomap_begin
if [ -d $wb ] && [ -d $ib ]; then
	echo 0 > $T/tracing_on
	: > $T/trace
	echo 1 > $wb/enable
	echo 1 > $ib/enable
	echo 1 > $T/tracing_on
fi
run_prog module_data $MPT "$FAMFS_DEV"
if [ -d $wb ] && [ -d $ib ]; then
	echo 0 > $T/tracing_on
	echo 0 > $wb/enable
	echo 0 > $ib/enable
	n=$(grep -c 'dax_writeback_one:' $T/trace)
	echo "module_data: tracepoint: $n dax_writeback_one"
	t_ok fsync-writes-back [ "$n" -gt 0 ]
	grep 'famfs_iomap_begin:.* pos 0x2000000 ' $T/trace | head -n 3
	t_ok trace-iomap-extent-math grep -q 'famfs_iomap_begin:.* pos 0x2000000 .* addr 0x4000000 ' $T/trace
	: > $T/trace
else
	t_skip fsync-writes-back "no fs_dax or famfs tracepoints in $T"
fi

# 64 MiB written then read through 2 MiB-aligned mappings: 32 + 32 PMD faults.
ev=$T/events/fs_dax/dax_pmd_fault_done
if [ -d $ev ]; then
	echo 0 > $T/tracing_on
	: > $T/trace
	echo 1 > $ev/enable
	echo 1 > $T/tracing_on
	run_prog module_data $MPT "$FAMFS_DEV" pmd
	echo 0 > $T/tracing_on
	echo 0 > $ev/enable
	nopage=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $T/trace)
	fallback=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $T/trace)
	echo "module_data: tracepoint: $nopage NOPAGE, $fallback FALLBACK"
	t_eq pmd-trace-nopage 64 "$nopage"
	t_eq pmd-trace-fallback 0 "$fallback"
	: > $T/trace
else
	run_prog module_data $MPT "$FAMFS_DEV" pmd
	t_skip pmd-trace "no fs_dax tracepoints in $T"
fi

t_ok umount umount $MPT
