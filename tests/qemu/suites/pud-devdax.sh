# profiles: nvdimm-devdax-1g
# timeout: 300
# 1 GiB (PUD) mappings of famfs files on a devdax backing (issue 31):
# /dev/dax0.0 of a namespace made with --align=1G, bound to famfs's dax
# driver (fs/famfs/devdax.c: its own dax_device, MEMORY_DEVICE_FS_DAX pages
# of order 0 with struct pages in guest RAM).  First the harness: pdpe1gb
# and the device's alignment (else FAIL, no silent fall back).  Then, as in
# suites/pud.sh (progs/module_pud.c says what each test does), faults
# counted by tracepoint: a cold read of a 4 GiB file, writeback of GiBs
# written through a PUD mapping, 1 GiB chunks, a vmsplice'd page; the
# tool's placement (a 1 GiB file and interleaved 1 GiB chunks, one PUD
# fault per GiB) and famfs verify of bytes written through a PUD mapping;
# last a memory failure in a PUD-mapped GiB.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-pud
M=/tmp/famfs-pud-tool
GiB=1073741824
N=${FAMFS_DEV#/dev/}

if grep -qw pdpe1gb /proc/cpuinfo; then
	t_pass pdpe1gb
else
	t_fail pdpe1gb "the guest CPU offers no 1 GiB pages (no pdpe1gb in /proc/cpuinfo): QEMU needs -cpu max (or +pdpe1gb)"
fi
_dd=/sys/bus/dax/devices/$N
if [ ! -f "$_dd/align" ] || [ ! -f "$_dd/resource" ]; then
	t_fail dax-align-1g "$FAMFS_DEV is not a device-dax instance ($_dd)"
else
	_al=$(cat "$_dd/align") _res=$(cat "$_dd/resource")
	echo "pud-devdax: $_dd: align $_al, memory at $_res"
	t_eq dax-align-1g "$GiB" "$_al"
	t_eq dax-memory-1g-aligned 0 $((_res % GiB))
fi
famfs_loaded || exit 0
t_ok bind-famfs dax_bind_famfs "$N"

EV_PUD=famfs/famfs_pud_fault
EV_PMD=fs_dax/dax_pmd_fault_done
EV_PTE=fs_dax/dax_pte_fault_done
if ! trace_have $EV_PMD $EV_PTE $EV_PUD; then
	trace_missing tracepoints "$EV_PUD and the fs_dax tracepoints in $TRACE"
	exit 0
fi
# counts: the faults in the trace, as "pud=N pudfb=N pmd=N pmdfb=N pte=N"
# (PUD NOPAGE/FALLBACK, PMD NOPAGE/FALLBACK, PTE); the PUD fallbacks' lines
# are printed
counts() {
	grep 'famfs_pud_fault:.* FALLBACK' $TRACE/trace | sed 's/^ */info: /' | head -n 4
	echo "pud=$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace) pudfb=$(grep -c 'famfs_pud_fault:.* FALLBACK' $TRACE/trace) pmd=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $TRACE/trace) pmdfb=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $TRACE/trace) pte=$(grep -c 'dax_pte_fault_done:' $TRACE/trace)"
}
# pud_case ID "pud=N pudfb=N pmd=N pmdfb=N pte=N" [TEST] [MPT]: module_pud
# TEST (default: ID) with its faults counted
pud_case() {
	trace_on $EV_PUD $EV_PMD $EV_PTE $PUD_XEV
	run_prog module_pud "${4:-$MPT}" "$FAMFS_DEV" "${3:-$1}"
	trace_off $EV_PUD $EV_PMD $EV_PTE $PUD_XEV
	_c=$(counts)
	echo "$_c" | grep '^info:'
	t_eq "$1-faults" "$2" "$(echo "$_c" | tail -n 1)"
}
# faults_of ID "pud=N pudfb=N pmd=N pmdfb=N pte=N" CMD...: the same for CMD
faults_of() {
	_id=$1 _want=$2; shift 2
	trace_on $EV_PUD $EV_PMD $EV_PTE
	t_ok "$_id" "$@"
	trace_off $EV_PUD $EV_PMD $EV_PTE
	_c=$(counts)
	echo "$_c" | grep '^info:'
	t_eq "$_id-faults" "$_want" "$(echo "$_c" | tail -n 1)"
}

# Files laid out by hand (MAP_CREATE) on 1 GiB boundaries of the device.
famfs_raw_mount $MPT || exit 0
PUD_XEV=
pud_case cold4g "pud=4 pudfb=0 pmd=0 pmdfb=0 pte=0"
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
klog_mark
pud_case pins "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0"
t_eq pins-no-warning 0 "$(klog_since | grep -c 'WARNING\|BUG')"
t_ok umount-raw umount $MPT

# The tool on the devdax backing: a 1 GiB file on GiB 1, an interleaved
# file of 2 GiB in 1 GiB chunks (auto: both strips on this one device, on
# GiBs 2 and 3), one PUD fault per GiB; bytes written through a PUD mapping
# and fsync'ed, read back by famfs verify (its mapping: PUD faults too).
j() { echo "$OUT" | jget "$@"; }
mkdir -p $M
t_ok tool-mkfs famfs mkfs -f "$FAMFS_DEV"
t_ok tool-mount famfs mount "$FAMFS_DEV" $M
t_ok mkfile-1g famfs mkfile -s 1g $M/a1
t_rc getmap-a1 0 famfs getmap -j $M/a1
t_eq a1-at-1g $GiB "$(j .extents[0].offset)"
t_ok mkfile-stripe famfs mkfile -N 2 -C 1g -s 2g $M/s1
t_rc getmap-s1 0 famfs getmap -j $M/s1
t_eq s1-strips-at-2g-3g "$((2 * GiB)) $((3 * GiB))" "$(j .extents[0].strips[0].offset) $(j .extents[0].strips[1].offset)"
export PUD_READ=a1
pud_case read "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0" read $M
export PUD_READ=s1
pud_case read-stripe "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" read $M
export PUD_WRITE=a1 PUD_SEED=31
pud_case write "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0" write $M
faults_of verify "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0" famfs verify -S 31 $M/a1
t_ok tool-umount umount $M

# Last: a memory failure fails the mount.  pud=4: this process and another
# map the poisoned GiB, a third the file's other GiB, a fourth another
# 1 GiB file; pmd=1: a fifth maps a 2 MiB file; where that mapping is the first in its GiB of address
# space (no page table there yet) the kernel asks for a PUD first, and
# famfs falls back ("vma": the VMA holds no whole GiB), whatever the layout.
if _o=$(mount -t famfs "$FAMFS_DEV" $MPT 2>&1); then
	t_pass mount-again
	trace_on $EV_PUD $EV_PMD $EV_PTE
	run_prog module_pud $MPT "$FAMFS_DEV" poison
	trace_off $EV_PUD $EV_PMD $EV_PTE
	_c=$(counts)
	echo "$_c" | grep '^info:'
	t_eq poison-faults "pud=4 pmd=1 pmdfb=0 pte=0" \
		"$(echo "$_c" | tail -n 1 | sed 's/ pudfb=[0-9]*//')"
	t_eq poison-pud-fallbacks-vma 0 \
		"$(grep 'famfs_pud_fault:.* FALLBACK' $TRACE/trace | grep -vc ' vma$')"
else
	t_fail mount-again "$_o"
fi
t_ok umount umount $MPT
