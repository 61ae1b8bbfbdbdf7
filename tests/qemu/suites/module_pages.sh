# profiles: pmem nvdimm2 mixed
# timeout: 180
# famfs.ko, small files in 4 KiB pages (MAP_CREATE_V3 with
# FAMFS_IOC_MAP_PAGES; progs/module_pages.c says what each test does): small
# files sharing a 2 MiB unit each hold their own bytes, on the device where
# their maps say; a page of another file, or the unit of a map made without
# the flag, is refused (EADDRINUSE), as is any such map over a shared unit;
# every check of the contract has its errno, in its order; nothing past a
# small file's pages is reachable through its mapping (SIGBUS); its faults
# are 4 KiB ones only (fs_dax and famfs tracepoints: no PMD or PUD
# mapping); a refusal is one log line; an evicted small file with a page in
# a pipe keeps that extent only, its neighbour keeps working.  On nvdimm2
# and mixed also on member 1 (page extents per device; on mixed a
# /dev/daxX.Y bound to famfs for the suite, and the program's offsets start
# at 400 MiB instead of 800 MiB on its 512 MiB devices).
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-pages
famfs_raw_mount $MPT || exit 0
run_prog module_pages $MPT "$FAMFS_DEV"

# Faults: 5 pages of a small file and the 512 of a whole-unit one, each
# through a 2 MiB mapping: 517 PTE faults, no PMD or PUD mapping, not even
# tried (a small file's 2 MiB and 1 GiB faults fall back in famfs).
EV_PUD=famfs/famfs_pud_fault
EV_PMD=fs_dax/dax_pmd_fault_done
EV_PTE=fs_dax/dax_pte_fault_done
if trace_have $EV_PMD $EV_PTE; then
	_evs="$EV_PMD $EV_PTE"
	trace_have $EV_PUD && _evs="$_evs $EV_PUD"
	trace_on $_evs
	run_prog module_pages $MPT "$FAMFS_DEV" faults
	trace_off $_evs
	_pud=$(grep -c 'famfs_pud_fault:' $TRACE/trace)
	_pmd=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $TRACE/trace)
	_pmdfb=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $TRACE/trace)
	_pte=$(grep -c 'dax_pte_fault_done:.*NOPAGE' $TRACE/trace)
	t_eq faults-traced "pud=0 pmd=0 pmdfb=0 pte=517" "pud=$_pud pmd=$_pmd pmdfb=$_pmdfb pte=$_pte"
	: > $TRACE/trace
else
	run_prog module_pages $MPT "$FAMFS_DEV" faults
	trace_missing faults-traced "the fs_dax tracepoints in $TRACE"
fi
t_ok umount umount $MPT

# One log line per refusal (a fresh mount: the rate limit is per mount).
t_ok logline-mount mount -t famfs "$FAMFS_DEV" $MPT
klog_mark
run_prog module_pages $MPT "$FAMFS_DEV" logline
log=$(klog_since | grep famfs)
echo "$log"
# the extent at the logline base (870 MiB, or 470 MiB on small devices) + 2 MiB - 4K
t_eq logline-one-line 1 "$(echo "$log" | grep -c 'MAP_CREATE_V3: inode [0-9]*: extent 0 (0x\(367\|1d7\)ff000+0x2000) crosses a 2 MiB boundary')"
t_ok logline-umount umount $MPT

# Pins (a fresh mount): only the pinned extent of an evicted small file
# stays reserved; unmount does not wait once the pipe is closed.
t_ok pins-mount mount -t famfs "$FAMFS_DEV" $MPT
klog_mark
run_prog module_pages $MPT "$FAMFS_DEV" pins
t_ok pins-umount umount $MPT
t_eq pins-no-warning 0 "$(klog_since | grep -c 'WARNING\|BUG\|refcount')"

# nvdimm2: page extents on member 1 too.
# shellcheck disable=SC2086
set -- $FAMFS_DEVS
if [ -n "${2:-}" ]; then
	rebind=0
	if [ -c "$2" ] && [ "$(dax_driver "$(basename "$2")")" != famfs ]; then
		t_ok member-bind dax_bind_famfs "$(basename "$2")"
		rebind=1
	fi
	t_ok member-mount mount -t famfs "$FAMFS_DEV" $MPT
	run_prog module_pages $MPT "$FAMFS_DEV" "$2" member
	t_ok member-umount umount $MPT
	# back to device_dax, as it came
	[ $rebind = 0 ] || t_ok member-unbind famfs bind -u "$2"
fi
