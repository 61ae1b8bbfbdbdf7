# profiles: pmem nvdimm-devdax two-hosts
# timeout: 240
# famfs.ko's cache maintenance for memory that is not cache-coherent between
# hosts (fs/famfs/cache.c).  TCG models no CPU cache, so staleness itself
# cannot be produced here: the suite checks the mechanism instead, as exact
# byte counts from the famfs:famfs_cache tracepoint for read(2), write(2),
# fsync, fdatasync, msync(MS_SYNC) and FAMFSIOC_CACHE, in both modes (all
# zero when coherent), across remounts, and on two hosts (the client's reads
# invalidate, the master's writes write back).  The tracepoint says what
# famfs meant to do; a kprobe on arch_invalidate_pmem() counts what the CPU
# was told to drop: exactly the invalidated bytes of each step, 0 for
# writes and on a coherent mount.  progs/cache_test.c does one
# step per call; the expected counts are here.  SIGKILL stops a long
# FAMFSIOC_CACHE or fsync (512 MiB) within one 2 MiB chunk.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-nc
EV=famfs/famfs_cache
DEVOFF=$((64 << 20))
SIZE=$(((5 << 20) + 4096))	# cache_test's NC_SIZE
famfs_loaded || exit 0
if ! trace_have $EV; then
	t_fail tracepoint "no $EV in $TRACE: famfs.ko without tracepoints?"
	exit 0
fi

# The CPU's invalidations: kprobe famfs_invpmem (INV, empty without kprobes).
INV=
if inv_probe_add famfs_invpmem; then
	INV=kprobes/famfs_invpmem
	trap 'wb_probe_del famfs_invpmem' EXIT
else
	trace_missing cpu-invalidated "kprobe events on arch_invalidate_pmem"
fi
# cpu_inv ID EXPECTED: arch_invalidate_pmem() was given the invalidate
# bytes of EXPECTED (a cache_counts string) in the last trace, no more.
cpu_inv() {
	[ -n "$INV" ] || return 0
	t_eq "$1-cpu-invalidated" "$(inv_sum "$2")" "$(wb_probe_bytes famfs_invpmem)"
}
# counted ID EXPECTED ARGS...: cache_test MPT ARGS with the tracepoint on;
# ID is PASS iff the sums of famfs_cache's len per "why/op" are EXPECTED
# (e.g. "read/invalidate=4096", "" for none); ID-cpu-invalidated iff the
# CPU was told to invalidate exactly those bytes.
counted() {
	_id=$1 _want=$2; shift 2
	trace_on $EV $INV
	PFX="$_id-" run_prog cache_test $MPT "$@"
	trace_off $EV $INV
	t_eq "$_id" "$_want" "$(cache_counts)"
	cpu_inv "$_id" "$_want"
}
# lined ID EXPECTED NLINES ARGS...: like counted, and famfs:famfs_fsync_lines
# (a small fsync range written back line by line) fired NLINES times.
lined() {
	_id=$1 _want=$2 _nl=$3; shift 3
	trace_on $EV famfs/famfs_fsync_lines $INV
	PFX="$_id-" run_prog cache_test $MPT "$@"
	trace_off $EV famfs/famfs_fsync_lines $INV
	t_eq "$_id" "$_want" "$(cache_counts)"
	t_eq "$_id-lines" "$_nl" "$(grep -c 'famfs_fsync_lines:' $TRACE/trace)"
	cpu_inv "$_id" "$_want"
}
# wbd ID BYTES ARGS...: on a coherent mount, the bytes arch_wb_cache_pmem()
# wrote back (wb_probe_add) are BYTES.
wbd() {
	_id=$1 _want=$2; shift 2
	if ! wb_probe_add famfs_wbpmem; then
		trace_missing "$_id" "kprobe events on arch_wb_cache_pmem"
		return
	fi
	trace_on kprobes/famfs_wbpmem
	PFX="$_id-" run_prog cache_test $MPT "$@"
	trace_off kprobes/famfs_wbpmem
	t_eq "$_id" "$_want" "$(wb_probe_bytes famfs_wbpmem)"
	wb_probe_del famfs_wbpmem
}
# killed ID ioctl|fsync: a child invalidating all of MPT/big (BIG bytes) is
# killed inside the call; the call's famfs_cache event (the last one, if it
# did anything) must cover less than BIG: it stopped at the signal.  A kill
# that lands in the walk's last 2 MiB chunk cannot stop it early: up to three
# tries, so only a walk that never stops fails (a missed check does, every time).
BIGOFF=$((128 << 20)) BIG=$((512 << 20))
killed() {
	for _try in 1 2 3; do
		trace_on $EV
		cache_test $MPT kill "$2" $BIGOFF $BIG > /tmp/cache_test.out 2>&1
		_rc=$?
		trace_off $EV
		_len=$(grep 'famfs_cache:' $TRACE/trace | tail -n 1 | sed -n 's/.* len \([0-9]*\)$/\1/p')
		echo "$1: try $_try: the killed call did ${_len:-0} of $BIG bytes"
		[ "${_len:-0}" -ge $BIG ] || break
	done
	PFX="$1-" t_prog cache_test /tmp/cache_test.out $_rc
	t_eq "$1-stopped" "yes" "$([ "${_len:-0}" -lt $BIG ] && echo yes || echo "no: all $_len bytes after SIGKILL, three times")"
}
# opt_shown ID yes|no: /proc/mounts shows noncoherent for MPT, or not.
opt_shown() {
	_o=$(awk -v m=$MPT '$2 == m { print $4 }' /proc/mounts)
	case ",$_o," in *,noncoherent,*) _s=yes ;; *) _s=no ;; esac
	t_eq "$1" "$2" "$_s"
}

mkdir -p $MPT
rebind=0
if [ "$FAMFS_DEV_MODE" = devdax ] && [ "$(dax_driver "$(basename "$FAMFS_DEV")")" != famfs ]; then
	t_ok bind famfs bind "$FAMFS_DEV"
	rebind=1
fi
case $FAMFS_PROFILE in two-hosts*) two=$FAMFS_HOST ;; *) two= ;; esac
if [ "$two" = b ]; then
	# Client: maps what a wrote; its reads invalidate, and see a's bytes.
	sync_wait nc-written 120 || exit 0
	t_ok b-mount mount -t famfs -o noncoherent "$FAMFS_DEV" $MPT
	grep -q " $MPT famfs " /proc/mounts || { sync_post nc-b-done; exit 0; }
	PFX=b-attach- run_prog cache_test $MPT attach $DEVOFF
	counted b-read-4k "read/invalidate=4096" read 4096 0
	counted b-read-all "read/invalidate=$SIZE" read $((8 << 20)) 0
	counted b-fsync "fsync/invalidate=$SIZE" fsync	# nothing dirty; the range is dropped all the same
	t_ok b-umount umount $MPT
	sync_post nc-b-done
	exit 0
fi

klog_mark
t_ok mount-noncoherent mount -t famfs -o noncoherent "$FAMFS_DEV" $MPT
grep -q " $MPT famfs " /proc/mounts || exit 0
opt_shown shown-noncoherent yes
OUT=$(klog_since); t_has mount-logged 'mounted, .* not cache-coherent' 
PFX=setup- run_prog cache_test $MPT setup $DEVOFF

if [ "$two" = a ]; then
	counted a-write "write/writeback=65536" write 65536 8192
	sync_post nc-written
	sync_wait nc-b-done 180
	t_ok a-umount umount $MPT
	exit 0
fi

# Non-coherent: every path counts exactly the bytes it touches.
counted nc-read-4k "read/invalidate=4096" read 4096 0
counted nc-read-64k "read/invalidate=65536" read 65536 4096
counted nc-read-2m "read/invalidate=2097152" read 2097152 2097152
counted nc-read-eof "read/invalidate=$((SIZE - (4 << 20)))" read 2097152 $((4 << 20))
counted nc-read-past-eof "" read 4096 $((SIZE + 4096))
counted nc-write "write/writeback=65536" write 65536 8192
counted nc-write-eof "write/writeback=4096" write 65536 $((SIZE - 4096))
counted nc-fsync "fsync/invalidate=$SIZE" fsync
counted nc-fdatasync "fsync/invalidate=$SIZE" fdatasync
counted nc-msync "fsync/invalidate=65536" msync 2097152 65536
counted nc-ioctl-wb "ioctl/writeback=8192" ioctl wb 4096 8192
# small ranges (< 256 KiB) line by line: across a 2 MiB unit, the threshold
lined nc-msync-straddle "fsync/invalidate=8192" 1 msync $(((2 << 20) - 4096)) 8192
lined nc-msync-256k "fsync/invalidate=262144" 1 msync 4096 262144
lined nc-msync-260k "fsync/invalidate=266240" 0 msync 4096 266240
lined nc-msync-last "fsync/invalidate=4096" 1 msync $((SIZE - 4096)) 4096
counted nc-ioctl-inv "ioctl/invalidate=4096" ioctl inv 0 4096
counted nc-ioctl-both "ioctl/invalidate=1048576" ioctl both 1048576 1048576
counted nc-bad "ioctl/writeback=1" bad
killed nc-kill-ioctl ioctl
killed nc-kill-fsync fsync

# Coherent (remount): the same calls do no cache maintenance at all.
klog_mark
t_ok remount-coherent mount -o remount,coherent $MPT
opt_shown shown-coherent no
OUT=$(klog_since); t_has remount-logged 'now cache-coherent' 
counted co-read-4k "" read 4096 0
counted co-read-2m "" read 2097152 2097152
counted co-write "" write 65536 8192
counted co-fsync "" fsync
counted co-msync "" msync 2097152 65536
lined co-msync-straddle "" 1 msync $(((2 << 20) - 4096)) 8192
wbd co-msync-straddle-wb 8192 msync $(((2 << 20) - 4096)) 8192
wbd co-msync-last-wb 4096 msync $((SIZE - 4096)) 4096
lined co-msync-260k "" 0 msync 4096 266240
# cache_test's msync dirties the page it syncs: the whole-entry path (a
# range over 256 KiB) finds it dirty and writes it back (dax_writeback_one)
if trace_have fs_dax/dax_writeback_one; then
	trace_on fs_dax/dax_writeback_one
	PFX=co-dirty- run_prog cache_test $MPT msync 4096 266240
	trace_off fs_dax/dax_writeback_one
	_n=$(grep -c 'dax_writeback_one:' $TRACE/trace)
	t_eq co-msync-store-dirties "written back" "$([ "$_n" -ge 1 ] && echo "written back" || echo "$_n entries written back")"
else
	trace_missing co-msync-store-dirties "fs_dax/dax_writeback_one"
fi
# a small msync leaves its entry dirty (file.c): the next fsync of the
# whole file still finds it and writes it back
if trace_have fs_dax/dax_writeback_one; then
	PFX=co-small- run_prog cache_test $MPT msync 4096 4096
	trace_on fs_dax/dax_writeback_one
	PFX=co-then-fsync- run_prog cache_test $MPT fsync
	trace_off fs_dax/dax_writeback_one
	_n=$(grep -c 'dax_writeback_one:' $TRACE/trace)
	t_eq co-lines-then-fsync "written back" "$([ "$_n" -ge 1 ] && echo "written back" || echo "$_n entries written back")"
fi
counted co-ioctl "" ioctl both 0 4096
counted co-bad "" bad

# ... and back: remount flips it again; a remount without the option keeps it.
t_ok remount-noncoherent mount -o remount,noncoherent $MPT
counted nc2-read-4k "read/invalidate=4096" read 4096 0
t_ok remount-plain mount -o remount $MPT
opt_shown kept-noncoherent yes
counted nc3-read-4k "read/invalidate=4096" read 4096 0
t_ok umount umount $MPT

# A mount without the option is coherent.
t_ok mount-default mount -t famfs "$FAMFS_DEV" $MPT
opt_shown shown-default no
PFX=setup2- run_prog cache_test $MPT setup $DEVOFF
counted default-read "" read 65536 0
t_ok umount-default umount $MPT
[ $rebind = 0 ] || t_ok unbind famfs bind -u "$FAMFS_DEV"
