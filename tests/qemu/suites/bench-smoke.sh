# profiles: nvdimm
# timeout: 60
# Benchmark smoke test (seconds): the exact fault counts of famfs mmap passes,
# which are deterministic even under TCG (timings are not, so none is
# checked).  A cold pass over a fresh shared mapping of a famfs file takes one
# 2 MiB fault (fs_dax:dax_pmd_fault_done NOPAGE) per 2 MiB and no 4 KiB fault;
# a warm pass takes none.  A file whose size ends inside a 2 MiB unit falls
# back to 4 KiB pages there: one FALLBACK, then one 4 KiB fault per page of
# the tail.  scripts/bench.sh has the full benchmark.
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

umount $M
famfs mkfs -k "$DEV" > /dev/null 2>&1	# leave no file system behind
exit 0
