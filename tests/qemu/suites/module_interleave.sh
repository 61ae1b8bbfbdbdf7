# profiles: pmem nvdimm nvdimm-devdax
# timeout: 300
# famfs.ko, interleaved (striped) files made with MAP_CREATE_V2
# (progs/module_interleave.c): every chunk written through a shared mapping
# is found at its strip's place on the device (a naive reference loop, not
# the module's arithmetic), and the reverse; read/write across chunk and
# extent boundaries; 2 MiB (PMD) faults on a striped file, counted with
# getrusage and the fs_dax:dax_pmd_fault_done tracepoint; the
# famfs_map_create and famfs_iomap_begin tracepoints show the striping; last,
# a memory failure in a strip is traced back to the file bytes it holds.
# On nvdimm-devdax the device is bound to famfs for the mount (and given
# back to device_dax after), and only read (mapped) while mounted: the
# device write of the "reverse" test is done before the mount ("prefill",
# /dev/daxX.Y mapped read-write), the mounted "reverse" reads and compares.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
MPT=/tmp/famfs-interleave
rebind=0
if [ "$FAMFS_DEV_MODE" = devdax ] && [ "$(dax_driver "$(basename "$FAMFS_DEV")")" != famfs ]; then
	t_ok bind famfs bind "$FAMFS_DEV"
	rebind=1
fi
[ "$FAMFS_DEV_MODE" != devdax ] || run_prog module_interleave $MPT "$FAMFS_DEV" prefill
if ! famfs_raw_mount $MPT; then
	[ $rebind = 0 ] || famfs bind -u "$FAMFS_DEV"
	exit 0
fi

ev="famfs/famfs_map_create famfs/famfs_iomap_begin"
if trace_have $ev; then
	trace_on $ev
	run_prog module_interleave $MPT "$FAMFS_DEV"
	trace_off $ev
	grep 'famfs_map_create:.*extent_type 15 ' $TRACE/trace | head -n 2
	t_ok trace-map-create-v2 grep -q 'famfs_map_create:.*extent_type 15 size 26226745 extents 1 first 0x6400000+0xc00000 rc 0' $TRACE/trace
	# 'seed': file offset 14M is chunk 7, strip 3 at 88M, 2M in: 0x5a00000.
	if [ "$FAMFS_DEV_MODE" = fsdax ]; then
		grep 'famfs_iomap_begin:.* pos 0xe00000 .* addr 0x5a00000 ' $TRACE/trace | head -n 2
		t_ok trace-iomap-strip-math grep -q 'famfs_iomap_begin:.* pos 0xe00000 .* addr 0x5a00000 length 0x200000' $TRACE/trace
	fi
	: > $TRACE/trace
else
	run_prog module_interleave $MPT "$FAMFS_DEV"
	trace_missing trace "the famfs tracepoints"
fi

# 64 MiB striped in 2 MiB chunks, written then read: 32 + 32 PMD faults.
pmd_faults pmd-trace 64 run_prog module_interleave $MPT "$FAMFS_DEV" pmd

# Last: a memory failure in a strip (fsdax only) is traced back to the file
# bytes it holds: file 'poison', page 6M+8K (strip 3, 730M + 8K).
if [ "$FAMFS_DEV_MODE" = fsdax ]; then
	klog_mark
	run_prog module_interleave $MPT "$FAMFS_DEV" poison
	log=$(klog_since)
	echo "$log" | grep 'famfs'
	if ! grep -q '^SKIP poison' /tmp/module_interleave.out; then	# no injection
		if echo "$log" | grep -q 'memory failure hits inode [0-9]*, file bytes 6299648\.\.6303743$'; then
			t_pass poison-log-file-bytes
		else
			t_fail poison-log-file-bytes "no 'file bytes 6299648..6303743' in the kernel log"
		fi
	fi
fi

t_ok umount umount $MPT
[ $rebind = 0 ] || t_ok unbind famfs bind -u "$FAMFS_DEV"
