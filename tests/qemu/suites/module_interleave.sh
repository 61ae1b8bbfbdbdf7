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
# back to device_dax after), and only read (mapped) while mounted.
. "$FAMFS_SRC/tests/qemu/lib.sh"

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
MPT=/tmp/famfs-interleave
mkdir -p $MPT
rebind=0
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	N=$(basename "$FAMFS_DEV")
	drv=$(basename "$(readlink /sys/bus/dax/devices/$N/driver 2>/dev/null)" 2>/dev/null)
	if [ "$drv" != famfs ]; then
		t_ok bind famfs bind "$FAMFS_DEV"
		rebind=1
	fi
fi
if ! out=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_fail mount "$out"
	[ $rebind = 0 ] || famfs bind -u "$FAMFS_DEV"
	exit 0
fi
t_pass mount

T=/sys/kernel/tracing
mc=$T/events/famfs/famfs_map_create
ib=$T/events/famfs/famfs_iomap_begin
if [ -d $mc ] && [ -d $ib ]; then
	echo 0 > $T/tracing_on
	: > $T/trace
	echo 1 > $mc/enable
	echo 1 > $ib/enable
	echo 1 > $T/tracing_on
fi
run_prog module_interleave $MPT "$FAMFS_DEV"
if [ -d $mc ] && [ -d $ib ]; then
	echo 0 > $T/tracing_on
	echo 0 > $mc/enable
	echo 0 > $ib/enable
	grep 'famfs_map_create:.*extent_type 15 ' $T/trace | head -n 2
	t_ok trace-map-create-v2 grep -q 'famfs_map_create:.*extent_type 15 size 26226745 extents 1 first 0x6400000+0xc00000 rc 0' $T/trace
	# 'seed': file offset 14M is chunk 7, strip 3 at 88M, 2M in: 0x5a00000.
	if [ "$FAMFS_DEV_MODE" = fsdax ]; then
		grep 'famfs_iomap_begin:.* pos 0xe00000 .* addr 0x5a00000 ' $T/trace | head -n 2
		t_ok trace-iomap-strip-math grep -q 'famfs_iomap_begin:.* pos 0xe00000 .* addr 0x5a00000 length 0x200000' $T/trace
	fi
	: > $T/trace
else
	t_skip trace "no famfs tracepoints in $T"
fi

# 64 MiB striped in 2 MiB chunks, written then read: 32 + 32 PMD faults.
ev=$T/events/fs_dax/dax_pmd_fault_done
if [ -d $ev ]; then
	echo 0 > $T/tracing_on
	: > $T/trace
	echo 1 > $ev/enable
	echo 1 > $T/tracing_on
	run_prog module_interleave $MPT "$FAMFS_DEV" pmd
	echo 0 > $T/tracing_on
	echo 0 > $ev/enable
	nopage=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $T/trace)
	fallback=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $T/trace)
	echo "module_interleave: tracepoint: $nopage NOPAGE, $fallback FALLBACK"
	t_eq pmd-trace-nopage 64 "$nopage"
	t_eq pmd-trace-fallback 0 "$fallback"
	: > $T/trace
else
	run_prog module_interleave $MPT "$FAMFS_DEV" pmd
	t_skip pmd-trace "no fs_dax tracepoints in $T"
fi

# Last: a memory failure in a strip (fsdax only) is traced back to the file
# bytes it holds: file 'poison', page 6M+8K (strip 3, 730M + 8K).
if [ "$FAMFS_DEV_MODE" = fsdax ]; then
	echo "famfs-test: interleave poison begin" > /dev/kmsg
	run_prog module_interleave $MPT "$FAMFS_DEV" poison
	log=$(dmesg | sed -n '/famfs-test: interleave poison begin$/,$p')
	echo "$log" | grep 'famfs'
	if ! grep -q '^SKIP' /tmp/module_interleave.out; then
		if echo "$log" | grep -q 'memory failure hits inode [0-9]*, file bytes 6299648\.\.6303743$'; then
			t_pass poison-log-file-bytes
		else
			t_fail poison-log-file-bytes "no 'file bytes 6299648..6303743' in the kernel log"
		fi
	fi
fi

t_ok umount umount $MPT
[ $rebind = 0 ] || t_ok unbind famfs bind -u "$FAMFS_DEV"
