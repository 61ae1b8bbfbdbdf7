# profiles: two-hosts-1g
# timeout: 300
# 1 GiB (PUD) mappings on two hosts of one memory (issue 31): host a (the
# master) makes a 2 GiB file (on 1 GiB boundaries: --align auto), writes the
# pattern of famfs mkfile -S 31 through a shared mapping of all of it (2 PUD
# faults) and fsyncs; host b (a client) follows with famfs logplay, maps
# the file (2 PUD faults) and famfs verify -S 31 finds every byte (its own
# mapping: 2 PUD faults).  Each host first checks pdpe1gb and that its
# namespace is 1 GiB-aligned (else FAIL: no silent fall back to 2 MiB).
. "$FAMFS_SRC/tests/qemu/lib.sh"

M=/mnt/famfs
GiB=1073741824
mkdir -p $M

if grep -qw pdpe1gb /proc/cpuinfo; then
	t_pass pdpe1gb
else
	t_fail pdpe1gb "the guest CPU offers no 1 GiB pages (no pdpe1gb in /proc/cpuinfo): QEMU needs -cpu max (or +pdpe1gb)"
fi
_pfn=$(readlink -f /sys/block/${FAMFS_DEV#/dev/}/device)
if [ ! -f "$_pfn/align" ] || [ ! -f "$_pfn/resource" ]; then
	t_fail ns-align-1g "$FAMFS_DEV is not on an fsdax (pfn) device: its device is '$_pfn'"
else
	t_eq ns-align-1g "$GiB" "$(cat "$_pfn/align")"
	t_eq ns-data-1g-aligned 0 $(($(cat "$_pfn/resource") % GiB))
fi
famfs_loaded || exit 0

EV_PUD=famfs/famfs_pud_fault
EV_PMD=fs_dax/dax_pmd_fault_done
EV_PTE=fs_dax/dax_pte_fault_done
if ! trace_have $EV_PUD $EV_PMD $EV_PTE; then
	trace_missing tracepoints "$EV_PUD and the fs_dax tracepoints in $TRACE"
	exit 0
fi
# faults_of ID "pud=N pudfb=N pmd=N pmdfb=N pte=N" CMD...: CMD must succeed;
# its faults counted by tracepoint
faults_of() {
	_id=$1 _want=$2; shift 2
	trace_on $EV_PUD $EV_PMD $EV_PTE
	"$@"
	trace_off $EV_PUD $EV_PMD $EV_PTE
	t_eq "$_id-faults" "$_want" "pud=$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace) pudfb=$(grep -c 'famfs_pud_fault:.* FALLBACK' $TRACE/trace) pmd=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $TRACE/trace) pmdfb=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $TRACE/trace) pte=$(grep -c 'dax_pte_fault_done:' $TRACE/trace)"
}
j() { echo "$OUT" | jget "$@"; }

if [ "$FAMFS_HOST" = a ]; then
	t_ok mkfs famfs mkfs -f "$FAMFS_DEV"
	t_ok mount famfs mount "$FAMFS_DEV" $M
	sync_post pud-a-fs
	sync_wait pud-b-mounted 180 || exit 0
	t_ok mkfile-2g famfs mkfile -s 2g $M/big
	t_rc getmap-big 0 famfs getmap -j $M/big
	t_eq big-at-1g $GiB "$(j .extents[0].offset)"
	export PUD_WRITE=big PUD_SEED=31
	faults_of write "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" \
		run_prog module_pud $M "$FAMFS_DEV" write
	sync_post pud-a-written
	t_peer client-verified pud-b-done 240
	umount $M
	exit 0
fi

# host b: the client, mounted before the file exists: logplay brings it
sync_wait pud-a-fs 180 || exit 0
t_ok client-mount famfs mount "$FAMFS_DEV" $M
sync_post pud-b-mounted
sync_wait pud-a-written 240 || { sync_post_verdict pud-b-done; exit 0; }
t_ok client-not-yet test ! -e $M/big
t_ok client-logplay famfs logplay $M
export PUD_READ=big
faults_of read "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" \
	run_prog module_pud $M "$FAMFS_DEV" read
faults_of verify "pud=2 pudfb=0 pmd=0 pmdfb=0 pte=0" \
	t_ok client-verify famfs verify -S 31 $M/big
umount $M
sync_post_verdict pud-b-done
exit 0
