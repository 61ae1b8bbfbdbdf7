# profiles: nvdimm-1g
# timeout: 400
# kmod: famfs_stall
# 1 GiB (PUD) mappings of famfs files (issue 31; progs/module_pud.c says what
# each test does).  First the harness: the guest CPU must offer 1 GiB pages
# (pdpe1gb) and the namespace must be 1 GiB-aligned, else FAIL (no silent
# fall back to 2 MiB mappings).  Then each test runs with its faults
# counted: PUD faults by famfs:famfs_pud_fault (NOPAGE: one 1 GiB mapping,
# FALLBACK: to PMD/PTE), PMD faults by fs_dax:dax_pmd_fault_done (NOPAGE /
# FALLBACK), PTE faults by fs_dax:dax_pte_fault_done; the wb test also sums
# the bytes arch_wb_cache_pmem() wrote back (a kprobe): a writeback writes
# back each dirty GiB, once.  progs/module_pud2.c: the guarantees of the PMD
# path kept by PUD mappings (O_DIRECT to and from a null_blk device whose
# requests complete 2 s late, unlink of a mapped file, a pipe holding a page
# through a device removal, MAP_SYNC, a non-coherent mount).
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-pud
GiB=1073741824

if grep -qw pdpe1gb /proc/cpuinfo; then
	t_pass pdpe1gb
else
	t_fail pdpe1gb "the guest CPU offers no 1 GiB pages (no pdpe1gb in /proc/cpuinfo): QEMU needs -cpu max (or +pdpe1gb)"
fi
# The fsdax (pfn) device under $FAMFS_DEV: align 1 GiB, data 1 GiB-aligned.
_pfn=$(readlink -f /sys/block/${FAMFS_DEV#/dev/}/device)
if [ ! -f "$_pfn/align" ] || [ ! -f "$_pfn/resource" ]; then
	t_fail ns-align-1g "$FAMFS_DEV is not on an fsdax (pfn) device: its device is '$_pfn'"
else
	_al=$(cat "$_pfn/align") _res=$(cat "$_pfn/resource")
	echo "pud: $_pfn of $_ns: align $_al, data at $_res"
	t_eq ns-align-1g "$GiB" "$_al"
	t_eq ns-data-1g-aligned 0 $((_res % GiB))
fi

# Another block device that takes O_DIRECT (module_pud2 odirect, odunlink):
# null_blk, memory backed, each request completing 2 s after its data was
# copied (irqmode=2: a timer), so an asynchronous write holds its pages
# that long.
if modprobe null_blk nr_devices=1 gb=1 bs=4096 memory_backed=1 irqmode=2 \
	completion_nsec=2000000000 && wait_for /dev/nullb0; then
	export PUD_NULLB=/dev/nullb0
else
	t_fail nullb "no null_blk device /dev/nullb0 (modprobe null_blk failed)"
fi

famfs_raw_mount $MPT || exit 0

EV_PUD=famfs/famfs_pud_fault
EV_PMD=fs_dax/dax_pmd_fault_done
EV_PTE=fs_dax/dax_pte_fault_done
if ! trace_have $EV_PMD $EV_PTE; then
	trace_missing tracepoints "the fs_dax tracepoints in $TRACE"
	umount $MPT
	exit 0
fi
trace_have $EV_PUD || t_fail pud-tracepoint "no $EV_PUD in $TRACE (famfs.ko without PUD faults)"

# pud_case ID "pud=N pudfb=N pmd=N pmdfb=N pte=N" [TEST]: module_pud TEST
# (default: ID; $PUD_PROG instead of module_pud if set) with its
# faults counted (pud=missing without the famfs tracepoint); events in
# $PUD_XEV are traced too; PUD fallback lines matching $PUD_FB_SKIP are
# not counted.
pud_case() {
	_t=$1 _want=$2
	_evs="$EV_PMD $EV_PTE $PUD_XEV"
	trace_have $EV_PUD && _evs="$_evs $EV_PUD"
	trace_on $_evs
	run_prog ${PUD_PROG:-module_pud} ${PUD_MPT:-$MPT} "$FAMFS_DEV" ${3:-$_t}
	trace_off $_evs
	_pud=missing _pudfb=missing
	if trace_have $EV_PUD; then
		_pud=$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace)
		_pudfb=$(grep 'famfs_pud_fault:.* FALLBACK' $TRACE/trace |
			 grep -v "${PUD_FB_SKIP:-^$}" | wc -l)
	fi
	_pmd=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $TRACE/trace)
	_pmdfb=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $TRACE/trace)
	_pte=$(grep -c 'dax_pte_fault_done:' $TRACE/trace)
	t_eq $_t-faults "$_want" "pud=$_pud pudfb=$_pudfb pmd=$_pmd pmdfb=$_pmdfb pte=$_pte"
}

PUD_XEV=
pud_case cold4g "pud=4 pudfb=0 pmd=0 pmdfb=0 pte=0"
pud_case off2m "pud=3 pudfb=1 pmd=511 pmdfb=0 pte=0"
pud_case tail "pud=1 pudfb=1 pmd=0 pmdfb=1 pte=1"
pud_case nohuge "pud=0 pudfb=0 pmd=0 pmdfb=0 pte=16"
if wb_probe_add pudwb; then
	PUD_XEV=kprobes/pudwb
	pud_case wb "pud=3 pudfb=0 pmd=0 pmdfb=0 pte=0"
	PUD_XEV=
	t_eq wb-bytes $((3 * GiB)) "$(wb_probe_bytes pudwb)"
	wb_probe_del pudwb
else
	pud_case wb "pud=3 pudfb=0 pmd=0 pmdfb=0 pte=0"
	trace_missing wb-bytes "a kprobe on arch_wb_cache_pmem"
fi
pud_case stripe1g "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0"
pud_case stripe2m "pud=0 pudfb=1 pmd=512 pmdfb=0 pte=0"
klog_mark
pud_case mprotect "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0"
t_eq mprotect-no-bad-pud 0 "$(klog_since | grep -c 'bad pud')"
klog_mark
pud_case pins "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0"
t_eq pins-no-warning 0 "$(klog_since | grep -c 'WARNING\|BUG')"
# mremap of a PUD mapping, whole to an address not congruent to its file
# offset and a 2 MiB piece out of it: 6.1's move_page_tables() would take
# the huge PUD for a bad table ('bad pud', cleared without a TLB flush).
klog_mark
run_prog module_pud_hostile $MPT "$FAMFS_DEV" mremap
t_eq mremap-split-no-bad-pud 0 "$(klog_since | grep -c 'bad pud')"
# syncfs writes back the GiBs stored into through PUD mappings (GiB 0 and
# 1, once each), and a GiB another process's store dirtied again during
# that writeback is written back by the next syncfs
# (famfs:famfs_pud_writeback events between the prog's trace markers).
# pud_wb_between FROM TO [POS]: those events (of file offset POS, as the
# kernel prints it: 0x0, 0x40000000).
pud_wb_between() {
	awk -v a="$1" -v b="$2" -v pos="${3:-}" 'index($0, a) { p = 1 } index($0, b) { p = 0 }
		p && /famfs_pud_writeback:/ && (pos == "" || index($0, " pos " pos " "))' \
		$TRACE/trace | wc -l
}
if trace_have famfs/famfs_pud_writeback $EV_PUD; then
	trace_on famfs/famfs_pud_writeback $EV_PUD
	run_prog module_pud_hostile $MPT "$FAMFS_DEV" syncrace
	trace_off famfs/famfs_pud_writeback $EV_PUD
	t_eq syncrace-sync-writes-back-gibs "1 1" \
		"$(pud_wb_between famfs-syncrace-1 famfs-syncrace-2 0x0) $(pud_wb_between famfs-syncrace-1 famfs-syncrace-2 0x40000000)"
	_n=$(awk '/famfs-syncrace-1/ { p = 1 } /famfs-syncrace-2/ { p = 0 }
		p && /famfs_pud_fault:.* write NOPAGE/' $TRACE/trace | wc -l)
	t_eq syncrace-refaulted-during-sync 1 "$((_n > 0))"
	t_eq syncrace-second-sync-writes-back "1 0" \
		"$(pud_wb_between famfs-syncrace-2 famfs-syncrace-end 0x0) $(pud_wb_between famfs-syncrace-2 famfs-syncrace-end 0x40000000)"
else
	trace_missing syncrace "famfs:famfs_pud_writeback in $TRACE"
fi
# A GiB mapped whole and in pages at once: the DAX entry's writeback walks
# the VMA of the 1 GiB entry too (module_pud_hostile mixmap): no oops.
# The whole mapping's read is a PUD fault (NOPAGE); after the store in
# pages, its next fault falls back (small).
klog_mark
trace_have $EV_PUD && trace_on $EV_PUD
run_prog module_pud_hostile $MPT "$FAMFS_DEV" mixmap
trace_have $EV_PUD && trace_off $EV_PUD
t_eq mixmap-no-oops 0 "$(klog_since | grep -c 'BUG\|Oops\|WARNING\|bad pud\|general protection\|Call Trace\|RIP:')"
t_eq mixmap-pud-then-small "1 1" \
	"$(($(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace) >= 1)) $(($(grep -c 'famfs_pud_fault:.* FALLBACK.* small$' $TRACE/trace) >= 1))"
# swapoff walks the page tables of a private mapping that has an anon_vma
# (a copied page) and a GiB read: no 'bad pud' (the second device is the
# swap; the tool's part below makes it a member again).
set -- $FAMFS_DEVS
if [ -n "${2:-}" ] && t_ok swap-mkswap mkswap "$2"; then
	klog_mark
	export PUD_SWAP=$2
	run_prog module_pud_hostile $MPT "$FAMFS_DEV" swapoff
	swapoff "$2" 2>/dev/null
	t_eq swapoff-no-bad-pud 0 "$(klog_since | grep -c 'bad pud')"
fi

# wb_case ID FAULTS BYTES: module_pud2 ID with its faults counted, and the
# bytes arch_wb_cache_pmem() wrote back (BYTES: each dirty GiB, once).
wb_case() {
	PUD_PROG=module_pud2
	if wb_probe_add pudwb; then
		PUD_XEV=kprobes/pudwb
		pud_case "$1" "$2"
		t_eq "$1-wb-bytes" "$3" "$(wb_probe_bytes pudwb)"
		wb_probe_del pudwb
	else
		pud_case "$1" "$2"
		trace_missing "$1-wb-bytes" "a kprobe on arch_wb_cache_pmem"
	fi
	PUD_XEV= PUD_PROG=
}
# Pins: O_DIRECT from and into a PUD mapping (the read into it is a write
# fault that dirties the GiB, which fsync then writes back), an O_DIRECT
# write in flight while its file is deleted (the memory stays reserved
# until it completes), a mapped file deleted (the mapping keeps it, msync
# writes it back).  MAP_SYNC: a PUD fault, msync writes the GiB back.
klog_mark
if [ -n "${PUD_NULLB:-}" ]; then
	wb_case odirect "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" $GiB
	wb_case odunlink "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0" 0
fi
wb_case unlinkmapped "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0" $GiB
wb_case sync "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" $GiB
t_eq pins2-no-warning 0 "$(klog_since | grep -c 'WARNING\|BUG\|Call Trace')"
# mremap() of a PUD mapping (6.1's move_page_tables() took the 1 GiB entry
# for a bad page table): pud=3, the write before the move, a read and a
# write after it (the entry does not move); the moved GiB written back.
for t in mremap mremapmerge; do
	klog_mark
	wb_case $t "pud=3 pudfb=0 pmd=0 pmdfb=0 pte=0" $GiB
	t_eq $t-no-bad-pud 0 "$(klog_since | grep -c 'bad pud')"
done
t_ok umount-raw umount $MPT

# A non-coherent mount (docs/noncoherent.md): a store through a PUD
# mapping, an msync of its page (one small range: written back and
# invalidated line by line, famfs:famfs_fsync_lines), a second store,
# fsync (the dirty GiB written back, then the whole file invalidated), a
# third store (faults again), msync of the mapping (the same again).
# Counted: the faults, famfs:famfs_cache's bytes, and what the CPU was told
# to write back (arch_wb_cache_pmem: the GiB twice; x86's invalidation is
# clflushopt, which writes back itself) and to invalidate
# (arch_invalidate_pmem: the page, then the file twice).
if _o=$(mount -t famfs -o noncoherent "$FAMFS_DEV" $MPT 2>&1); then
	t_pass nc-mount
	t_ok nc-mount-noncoherent grep -q " $MPT famfs .*noncoherent" /proc/mounts
	if wb_probe_add pudwb && inv_probe_add pudinv; then
		PUD_XEV="kprobes/pudwb kprobes/pudinv famfs/famfs_cache famfs/famfs_fsync_lines"
		PUD_PROG=module_pud2
		pud_case nc "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0"
		PUD_XEV= PUD_PROG=
		t_eq nc-cache "fsync/invalidate=$((2 * GiB + 4096))" "$(cache_counts)"
		t_eq nc-lines 1 "$(grep -c 'famfs_fsync_lines:' $TRACE/trace)"
		t_eq nc-wb-bytes $((2 * GiB)) "$(wb_probe_bytes pudwb)"
		t_eq nc-inv-bytes $((2 * GiB + 4096)) "$(wb_probe_bytes pudinv)"
		wb_probe_del pudwb
		wb_probe_del pudinv
	else
		trace_missing nc "kprobes on arch_wb_cache_pmem and arch_invalidate_pmem"
	fi
	t_ok nc-umount umount $MPT
else
	t_fail nc-mount "$_o"
fi

# The tool (issue 31, item 1): files of 1 GiB or more go on 1 GiB boundaries
# by default, --align 1g asks for it (and fails clearly without room),
# --align none turns it off, famfs df counts the free aligned GiBs; a file
# the tool placed takes one PUD fault per GiB, on the primary and on a
# member (/dev/pmem1, another 5 GiB: aligned GiBs from 1 GiB on).  Before the memory failure
# below, which leaves a poisoned page in GiB 1.
M=/tmp/famfs-pud-tool
j() { echo "$OUT" | jget "$@"; }
mkdir -p $M
set -- $FAMFS_DEVS
MEM=${2:-}
[ -n "$MEM" ] || t_fail tool-member "profile $FAMFS_PROFILE lists no second device in FAMFS_DEVS"
t_ok tool-mkfs famfs mkfs -f "$FAMFS_DEV" $MEM
t_ok tool-mount famfs mount "$FAMFS_DEV" $M
t_rc tool-df 0 famfs df -j $M
t_eq tool-df-free-1g-runs "8 4 4" "$(j .free_1g_runs) $(j .devices[0].free_1g_runs) $(j .devices[1].free_1g_runs)"
t_ok mkfile-align-1g famfs mkfile --align 1g -s 1g $M/a1
t_rc getmap-a1 0 famfs getmap -j $M/a1
t_eq a1-at-1g $GiB "$(j .extents[0].offset)"
t_ok mkfile-auto-2g famfs mkfile -Z -s 2g $M/a2
t_rc getmap-a2 0 famfs getmap -j $M/a2
t_eq a2-at-2g $((2 * GiB)) "$(j .extents[0].offset)"
t_err mkfile-align-no-room 2 "no free run of 2147483648 bytes starting on a 1 GiB boundary on that --device" \
	famfs mkfile -D 0 --align 1g -s 2g $M/a3
t_eq mkfile-align-no-room-no-file "" "$(ls $M/a3 2>/dev/null)"
t_err mkfile-align-bad 1 "say 1g" famfs mkfile --align 2m -s 2m $M/a4
t_ok mkfile-align-none famfs mkfile --align none -s 4m $M/small
t_rc getmap-small 0 famfs getmap -j $M/small
t_eq small-first-fit 1 "$(($(j .extents[0].offset) < GiB))"
echo hello > /tmp/pud-cp-src
t_ok cp-align-1g famfs cp --align 1g /tmp/pud-cp-src $M/c1
t_rc getmap-c1 0 famfs getmap -j $M/c1
t_eq c1-at-4g $((4 * GiB)) "$(j .extents[0].offset)"
t_ok mkfile-member-align-1g famfs mkfile -D 1 --align 1g -s 1g $M/m1
t_rc getmap-m1 0 famfs getmap -j $M/m1
t_eq m1-at-1g-on-member "1 $GiB" "$(j .extents[0].device) $(j .extents[0].offset)"
t_rc tool-df-after 0 famfs df $M
t_has tool-df-text-1g-runs "free 1g runs 3 "
export PUD_READ=a1
PUD_MPT=$M
pud_case read "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0"
export PUD_READ=m1
pud_case read-member "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0" read
PUD_MPT=
t_ok tool-umount umount $M

# Interleaved files with 1 GiB chunks (issue 31): --align 1g, and auto for
# files of 1 GiB or more, put every strip on a 1 GiB boundary of its device,
# so each chunk is one PUD fault, here with a strip on each device; no room
# so: refused, exit 2, naming the file and the free aligned GiBs of the
# strips' devices; --align 1g with a chunk that is not a multiple of 1 GiB:
# a usage error; 2 MiB chunks are placed as before (first fit: GiB 0 here).
s() { j ".extents[0].strips[$1].${2:-offset}"; }
t_ok stripe-mkfs famfs mkfs -f "$FAMFS_DEV" $MEM
t_ok stripe-mount famfs mount "$FAMFS_DEV" $M
t_ok mkfile-stripe-align-1g famfs mkfile -N 2 -C 1g --align 1g -s 2g $M/s1
t_rc getmap-s1 0 famfs getmap -j $M/s1
t_eq s1-strips-at-1g "0 $GiB 1 $GiB" "$(s 0 device) $(s 0) $(s 1 device) $(s 1)"
export PUD_READ=s1
PUD_MPT=$M
pud_case read-stripe "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" read
PUD_MPT=
t_ok mkfile-stripe-auto famfs mkfile -N 2 -C 1g -s 1g $M/s2
t_rc getmap-s2 0 famfs getmap -j $M/s2
t_eq s2-strips-at-2g "$((2 * GiB)) $((2 * GiB))" "$(s 0) $(s 1)"
t_err mkfile-stripe-no-room 2 "s3: --align 1g: no room for 2 strips of 3221225472 bytes each starting on a 1 GiB boundary" \
	famfs mkfile -N 2 -C 1g --align 1g -s 6g $M/s3
t_has mkfile-stripe-no-room-says-free "device 0: 2, device 1: 2"
t_eq mkfile-stripe-no-room-no-file "" "$(ls $M/s3 2>/dev/null)"
t_err mkfile-stripe-align-chunk-2m 1 "chunk (-C) that is a multiple of 1 GiB" \
	famfs mkfile -N 2 -C 2m --align 1g -s 1g $M/s4
t_ok mkfile-stripe-2m famfs mkfile -N 2 -C 2m -s 1g $M/s5
t_rc getmap-s5 0 famfs getmap -j $M/s5
t_eq s5-first-fit "1 1" "$(($(s 0) < GiB)) $(($(s 1) < GiB))"
t_rc stripe-df 0 famfs df -j $M
t_eq stripe-df-free-1g-runs "4 2 2" "$(j .free_1g_runs) $(j .devices[0].free_1g_runs) $(j .devices[1].free_1g_runs)"
t_ok stripe-umount umount $M

# Last: a memory failure fails the mount.  pud=4: this process and another
# map the poisoned GiB, a third the file's other GiB, a fourth another
# 1 GiB file; pmd=1: a fifth maps a 2 MiB file.
# (PUD fallbacks for "vma" -- a VMA that holds no whole GiB, as the 2 MiB
# file's, asked or not by the layout -- are not counted here.)
if _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass mount-again
	PUD_FB_SKIP=' vma$' pud_case poison "pud=4 pudfb=0 pmd=1 pmdfb=0 pte=0"
else
	t_fail mount-again "$_o"
fi
t_ok umount umount $MPT
# A memory failure in a PUD-mapped GiB signals the processes that map the
# page, not one that maps the file without touching it.
if _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass mount-poisonmap
	PUD_PROG=module_pud_hostile
	pud_case poisonmap "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0"
	PUD_PROG=
	t_ok umount-poisonmap umount $MPT
else
	t_fail mount-poisonmap "$_o"
fi
# A failure in chunk 1 of an interleaved file with 1 GiB chunks (device
# 4G): pud=3, this process maps both chunks, another chunk 0 only.
if _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass mount-poisonstripe
	PUD_PROG=module_pud2
	pud_case poisonstripe "pud=3 pudfb=0 pmd=0 pmdfb=0 pte=0"
	PUD_PROG=
	t_ok umount-poisonstripe umount $MPT
else
	t_fail mount-poisonstripe "$_o"
fi

# Device removal under a 1 GiB mapping: nd_pmem unbound from the pfn device
# (ndctl refuses to disable a mounted namespace); pmem's kill_dax() tells
# famfs, which zaps every mapping: the holder gets SIGBUS, no warning, and
# the device comes back.
if _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass mount-for-removal
	rm -rf /tmp/pud-h && mkdir -p /tmp/pud-h
	export PUD_HOLD=/tmp/pud-h
	klog_mark
	trace_on $EV_PUD
	bg_prog module_pud $MPT "$FAMFS_DEV" hold
	if wait_for /tmp/pud-h/ready 60; then
		trace_off $EV_PUD
		t_eq removal-pud-faults 1 "$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace)"
		nd=$(basename "$(readlink -f /sys/block/${FAMFS_DEV#/dev/}/device)")
		t_ok removal-unbind sh -c "echo $nd > /sys/bus/nd/drivers/nd_pmem/unbind"
		touch /tmp/pud-h/go
		PFX=removal- bg_verdict module_pud
		t_klog removal-logged 'famfs (.*): the device is going away'
		t_ok removal-umount umount $MPT
		t_eq removal-no-warnings 0 "$(klog_since | grep -c 'WARNING\|BUG\|Call Trace\|refcount')"
		t_ok removal-rebind sh -c "echo $nd > /sys/bus/nd/drivers/nd_pmem/bind"
		t_ok removal-device-back wait_for "$FAMFS_DEV" 10
	else
		trace_off $EV_PUD
		t_fail removal-ready "the holder did not start: $(cat /tmp/module_pud.bg.out)"
		kill $BG_PID
		wait $BG_PID
		umount $MPT
	fi
else
	t_fail mount-for-removal "$_o"
fi

# A PUD fault racing the removal: famfs_stall.ko holds a thread's
# fault just before its insert (it has seen the mount alive) while nd_pmem
# is unbound, then in the zap of its own GiB (it found the mount failed
# after inserting).  The removal must not return while that entry is
# still mapped: once it has, a load through the mapping is a SIGBUS.
# sp_count NAME N: /sys/module/famfs_stall/parameters/NAME reaches N
# within 10 s.
SP=/sys/module/famfs_stall/parameters
sp_count() {
	_n=0
	while [ "$(cat $SP/$1 2>/dev/null || echo 0)" -lt "$2" ]; do
		[ $_n -ge 100 ] && return 1
		sleep 0.1; _n=$((_n + 1))
	done
}
STALLP=$FAMFS_SRC/tests/qemu/kmod/famfs_stall.ko
if ! _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_fail mount-holdrace "$_o"
elif ! insmod "$STALLP" target=vmf_insert_pfn_pud_prot \
	target2=unmap_mapping_range caller2=famfs_pud_insert,famfs_pud_fault; then
	t_fail holdrace-stall "cannot load $STALLP: $(dmesg | tail -n 2 | tr '\n' '|')"
	umount $MPT
else
	t_pass mount-holdrace
	rm -rf /tmp/pud-r && mkdir -p /tmp/pud-r
	export PUD_HOLD=/tmp/pud-r
	klog_mark
	bg_prog module_pud_hostile $MPT "$FAMFS_DEV" holdrace
	wait_for /tmp/pud-r/ready 60
	t_ok holdrace-insert-held sp_count stalled 1
	nd=$(basename "$(readlink -f /sys/block/${FAMFS_DEV#/dev/}/device)")
	(echo $nd > /sys/bus/nd/drivers/nd_pmem/unbind; touch /tmp/pud-r/unbound) &
	_n=0
	until klog_since | grep -q 'famfs (.*): the device is going away'; do
		[ $_n -ge 100 ] && break
		sleep 0.1; _n=$((_n + 1))
	done
	t_klog holdrace-removal-started 'famfs (.*): the device is going away'
	echo 1 > $SP/go
	t_ok holdrace-own-zap-held sp_count stalled2 1
	if wait_for /tmp/pud-r/unbound 15; then
		t_fail holdrace-removal-waits-for-fault "the removal of $nd returned while a PUD fault still had its entry mapped"
		touch /tmp/pud-r/go
		wait_for /tmp/pud-r/read 10
		echo 1 > $SP/go2
	else
		t_pass holdrace-removal-waits-for-fault
		echo 1 > $SP/go2
		t_ok holdrace-removal-returns wait_for /tmp/pud-r/unbound 60
		touch /tmp/pud-r/go
	fi
	bg_verdict module_pud_hostile
	t_ok holdrace-umount umount $MPT
	t_ok holdrace-stall-unload rmmod famfs_stall
	t_eq holdrace-no-warnings 0 "$(klog_since | grep -c 'WARNING\|BUG\|Call Trace\|refcount')"
	t_ok holdrace-rebind sh -c "echo $nd > /sys/bus/nd/drivers/nd_pmem/bind"
	t_ok holdrace-device-back wait_for "$FAMFS_DEV" 10
fi
# The same with a page of the 1 GiB mapping in a pipe (module_pud2 pinrm):
# the removal waits until the pipe lets go of it (and says whose page it
# waits for), then completes; the pipe reads the page's bytes meanwhile, no
# warning, the device comes back.  Once with the file on the primary, once
# on member 1 (/dev/pmem1, attached with DEV_ADD): the member is removed
# under a mount that stays, and the unmount after it evicts a file with a
# 1 GiB mapping record on the gone member (whose pages it must not look at).
# alive PID: the process exists and is not a zombie
alive() { [ -e /proc/$1/stat ] && ! grep -q '^[0-9]* ([^)]*) Z' /proc/$1/stat; }
# pinrm_cycle ID DEV [MEMBER]: module_pud2 pinrm with the file on DEV
# (member MEMBER, attached first), DEV removed meanwhile.
pinrm_cycle() {
	pr_id=$1 pr_dev=$2 pr_mem=${3:-}
	if ! _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
		t_fail $pr_id-mount "$_o"
		return
	fi
	t_pass $pr_id-mount
	if [ -n "$pr_mem" ]; then
		hostile_pins attach $MPT "$pr_dev" "$pr_mem" > /tmp/pud-attach.out 2>&1
		PFX=$pr_id- t_prog hostile_pins /tmp/pud-attach.out $?
	fi
	rm -rf /tmp/pud-h && mkdir -p /tmp/pud-h
	klog_mark
	trace_on $EV_PUD
	export PUD_HOLD=/tmp/pud-h PUD_MEMBER=$pr_mem
	bg_prog module_pud2 $MPT "$FAMFS_DEV" pinrm
	if ! wait_for /tmp/pud-h/ready 60; then
		trace_off $EV_PUD
		t_fail $pr_id-ready "the holder did not start: $(cat /tmp/module_pud2.bg.out)"
		kill $BG_PID
		wait $BG_PID
		umount $MPT
		return
	fi
	trace_off $EV_PUD
	t_eq $pr_id-pud-faults 1 "$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace)"
	pr_nd=$(basename "$(readlink -f /sys/block/${pr_dev#/dev/}/device)")
	sh -c "echo $pr_nd > /sys/bus/nd/drivers/nd_pmem/unbind" & UP=$!
	pr_n=0
	while alive $UP && ! klog_since | grep -q 'famfs.*waiting for .*referenced' &&
		[ $pr_n -lt 300 ]; do
		sleep 0.1; pr_n=$((pr_n + 1))
	done
	if alive $UP && klog_since | grep -q 'famfs.*waiting for .*referenced'; then
		t_pass $pr_id-removal-waits
	else
		t_fail $pr_id-removal-waits "the unbind did not wait for the page in the pipe: $(klog_since | grep famfs | tail -n 2 | tr '\n' '|')"
	fi
	t_klog $pr_id-names-file 'famfs (.*): removal .*waiting for referenced pages.* file /pinrm (inode [0-9]*)'
	touch /tmp/pud-h/go
	PFX=$pr_id- bg_verdict module_pud2
	wait $UP
	t_eq $pr_id-unbind-done 0 $?
	t_ok $pr_id-umount umount $MPT
	t_eq $pr_id-no-warnings 0 "$(klog_since | grep -c 'WARNING\|BUG\|Call Trace\|refcount\|Oops')"
	t_ok $pr_id-rebind sh -c "echo $pr_nd > /sys/bus/nd/drivers/nd_pmem/bind"
	t_ok $pr_id-device-back wait_for "$pr_dev" 10
}
pinrm_cycle pinrm "$FAMFS_DEV"
[ -z "$MEM" ] || pinrm_cycle pinrm-member "$MEM" 1
