# profiles: nvdimm-1g
# timeout: 400
# 1 GiB (PUD) mappings of famfs files (issue 31; progs/module_pud.c says what
# each test does).  First the harness: the guest CPU must offer 1 GiB pages
# (pdpe1gb) and the namespace must be 1 GiB-aligned, else FAIL (no silent
# fall back to 2 MiB mappings).  Then each test runs with its faults
# counted: PUD faults by famfs:famfs_pud_fault (NOPAGE: one 1 GiB mapping,
# FALLBACK: to PMD/PTE), PMD faults by fs_dax:dax_pmd_fault_done (NOPAGE /
# FALLBACK), PTE faults by fs_dax:dax_pte_fault_done; the wb test also sums
# the bytes arch_wb_cache_pmem() wrote back (a kprobe): a writeback writes
# back each dirty GiB, once.
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
# (default: ID) with its
# faults counted (pud=missing without the famfs tracepoint); events in
# $PUD_XEV are traced too.
pud_case() {
	_t=$1 _want=$2
	_evs="$EV_PMD $EV_PTE $PUD_XEV"
	trace_have $EV_PUD && _evs="$_evs $EV_PUD"
	trace_on $_evs
	run_prog module_pud ${PUD_MPT:-$MPT} "$FAMFS_DEV" ${3:-$_t}
	trace_off $_evs
	_pud=missing _pudfb=missing
	if trace_have $EV_PUD; then
		_pud=$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace)
		_pudfb=$(grep -c 'famfs_pud_fault:.* FALLBACK' $TRACE/trace)
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
t_ok umount-raw umount $MPT

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

# Last: a memory failure fails the mount.  pmd=1: the other process maps
# its 2 MiB file.
if _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass mount-again
	pud_case poison "pud=1 pudfb=0 pmd=1 pmdfb=0 pte=0"
else
	t_fail mount-again "$_o"
fi
t_ok umount umount $MPT

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
