# profiles: nvdimm
# timeout: 60
# Benchmark smoke test (seconds): the exact fault counts of famfs mmap passes,
# which are deterministic even under TCG (timings are not, so none is
# checked).  A cold pass over a fresh shared mapping of a famfs file takes one
# 2 MiB fault (fs_dax:dax_pmd_fault_done NOPAGE) per 2 MiB and no 4 KiB fault;
# a warm pass takes none.  A file whose size ends inside a 2 MiB unit falls
# back to 4 KiB pages there: one FALLBACK, then one 4 KiB fault per page of
# the tail.  The nc part's path too (issue 18): pread() through bench_dax rw
# -R after mount -o remount,coherent|noncoherent, with the exact
# famfs:famfs_cache counts of each mode (the whole file invalidated when
# noncoherent, nothing when coherent) and the BENCH lines the report reads.
# scripts/bench.sh has the full benchmark.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/tmp/bench-smoke
export FAMFS_HOST_ID_FILE=/tmp/bench-smoke-host-uuid
MiB=1048576

if ! grep -q '^famfs ' /proc/modules; then
	t_skip loaded "famfs.ko is not loaded"
	exit 0
fi
if [ ! -d /sys/kernel/tracing/events/fs_dax/dax_pmd_fault_done ]; then
	t_fail tracepoint "no fs_dax:dax_pmd_fault_done in tracefs"
	exit 0
fi
# An earlier suite may have left famfs mounted on the device.
awk -v d="$DEV" '$1 == d { print $2 }' /proc/mounts | while read -r m; do umount "$m"; done
mkdir -p $M
t_ok mkfs famfs mkfs -f "$DEV"
t_ok mount famfs mount "$DEV" $M

# check NAME SIZE COLD_NOPAGE COLD_FALLBACK COLD_PTE: famfs mkfile, then the
# four passes of bench_dax counts and their expected counts.  NAME must not
# end in "-4k": bench_dax maps such targets with 4 KiB pages only.
check() {
	_n=$1 _s=$2 _np=$3 _fb=$4 _pte=$5
	_flt=$((_np + _pte))
	if ! famfs mkfile -s "$_s" $M/$_n > /tmp/bench-smoke.out 2>&1; then
		t_fail $_n-mkfile "$(cat /tmp/bench-smoke.out)"
		return
	fi
	if ! bench_dax counts -s "$_s" "$_n=$M/$_n" > /tmp/bench-smoke.out 2>&1; then
		t_fail $_n-counts "bench_dax exited $?: $(tail -n 2 /tmp/bench-smoke.out)"
		return
	fi
	cat /tmp/bench-smoke.out
	for _want in "cold-read $_np $_fb $_pte $_flt" "warm-read 0 0 0 0" \
		"cold-write $_np $_fb $_pte $_flt" "warm-write 0 0 0 0"; do
		set -- $_want
		_l=$(grep "^BENCH counts target=$_n .* pass=$1 " /tmp/bench-smoke.out)
		_got=$(echo "$_l" | sed -n 's/.* minflt=\([0-9]*\) pmd_nopage=\([0-9]*\) pmd_fallback=\([0-9]*\) pmd_other=[0-9]* pte=\([0-9]*\) .*/\2 \3 \4 \1/p')
		t_eq "$_n-$1" "nopage=$2 fallback=$3 pte=$4 minflt=$5" \
			"$(echo "$_got" | awk '{ if (NF == 4) printf "nopage=%s fallback=%s pte=%s minflt=%s", $1, $2, $3, $4; else printf "no counts line" }')"
	done
}
check aligned-64m $((64 * MiB)) 32 0 0
check tail-short-4096 $((64 * MiB - 4096)) 31 1 511
check tail-long-4096 $((64 * MiB + 4096)) 32 1 1

# nc: 4 MiB read at 4 KiB, 64 KiB and 2 MiB in each mode
if trace_have famfs/famfs_cache; then
	t_ok nc-mkfile famfs mkfile -s 4M $M/nc
	for mode in coherent noncoherent; do
		t_ok nc-$mode-remount mount -o remount,$mode $M
		_o=$(awk -v m=$M '$2 == m { print $4 }' /proc/mounts)
		case ",$_o,:$mode" in
		*,noncoherent,*:noncoherent|*:coherent) t_pass nc-$mode-shown ;;
		*) t_fail nc-$mode-shown "/proc/mounts says '$_o' after remount,$mode" ;;
		esac
		want=; [ $mode = coherent ] || want="read/invalidate=$((4 * MiB))"
		for b in 4K:4096 64K:65536 2M:$((2 * MiB)); do
			trace_on famfs/famfs_cache
			bench_dax rw -R -s 4M -b ${b%:*} famfs=$M/nc > /tmp/bench-smoke.out 2>&1
			_rc=$?
			trace_off famfs/famfs_cache
			t_eq nc-$mode-${b%:*}-rc 0 $_rc
			t_eq nc-$mode-${b%:*}-traced "$want" "$(cache_counts)"
			t_ok nc-$mode-${b%:*}-line grep -q "^BENCH rw-min target=famfs size=$((4 * MiB)) bs=${b#*:} reps=1 op=read ns=[0-9]* ops=$((4 * MiB / ${b#*:}))\$" /tmp/bench-smoke.out
			t_ok nc-$mode-${b%:*}-reads-only sh -c "! grep -q 'op=write' /tmp/bench-smoke.out"
		done
	done
else
	trace_missing nc-traced "the famfs:famfs_cache tracepoint"
fi

# The metadata path of the bench (issue 17) at a small N: directories via
# xargs famfs mkdir, one file after them (the master's create summary is
# used and kept), logplay with nothing to do, and a remount that replays it.
_ls() { ls -d $M/sd* 2>/dev/null | wc -l; }
i=0; while [ $i -lt 40 ]; do echo $M/sd$i; i=$((i + 1)); done | xargs famfs mkdir
t_eq meta-dirs 40 "$(_ls)"
t_ok meta-mkfile famfs mkfile -s 4K $M/probe
t_ok meta-summary-kept sh -c 'ls /var/lib/famfs/*.summary'
t_ok meta-mkfile-after famfs mkfile -s 4K $M/probe2
if famfs mkfile -s 4K $M/sd7 > /dev/null 2>&1; then
	t_fail meta-logged-path-refused "famfs mkfile over a logged directory succeeded"
else
	t_pass meta-logged-path-refused
fi
t_ok meta-logplay-noop famfs logplay $M
umount $M
t_ok meta-remount famfs mount "$DEV" $M
t_eq meta-remount-dirs 40 "$(_ls)"

umount $M
famfs mkfs -k "$DEV" > /dev/null 2>&1	# leave no file system behind
exit 0
