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

# pud_case TEST "pud=N pudfb=N pmd=N pmdfb=N pte=N": module_pud TEST with its
# faults counted (pud=missing without the famfs tracepoint); events in
# $PUD_XEV are traced too.
pud_case() {
	_t=$1 _want=$2
	_evs="$EV_PMD $EV_PTE $PUD_XEV"
	trace_have $EV_PUD && _evs="$_evs $EV_PUD"
	trace_on $_evs
	run_prog module_pud $MPT "$FAMFS_DEV" $_t
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
klog_mark
pud_case pins "pud=1 pudfb=0 pmd=0 pmdfb=0 pte=0"
t_eq pins-no-warning 0 "$(klog_since | grep -c 'WARNING\|BUG')"
# Last: a memory failure fails the mount.  pmd=1: the other process maps
# its 2 MiB file.
pud_case poison "pud=1 pudfb=0 pmd=1 pmdfb=0 pte=0"
t_ok umount umount $MPT
