# profiles: nvdimm nvdimm-1g
# timeout: 300
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
# On nvdimm-1g, the pud part's rows (issue 31) at their smallest size: a
# 1 GiB famfs file on a 1 GiB boundary takes one PUD fault per pass
# (famfs:famfs_pud_fault NOPAGE), a 1 GiB file placed --align none takes 512
# PMD faults, a devdax namespace made with --align=1G one fault per pass, and
# a 2 GiB file mapped in 8 processes takes 2 faults and no page-table page
# per process with 1 GiB mappings, 1024 faults and 3 PMD table pages
# (VmPTE) mapped 2 MiB past a GiB boundary.  The guest must offer pdpe1gb
# and the namespace must be 1 GiB-aligned: FAIL if not.  The small part's
# counts (issue 30): the bytes famfs cp of 4 KiB files stores into shared
# memory (FAMFS_DEBUG_STORES) as small files and in 2 MiB units, its log
# bytes against the slots df counts, the pages df counts.
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
	bench_dax counts -s "$_s" "$_n=$M/$_n" > /tmp/bench-smoke.out 2>&1
	_rc=$?
	if [ $_rc -ne 0 ]; then
		t_fail $_n-counts "bench_dax exited $_rc: $(tail -n 2 /tmp/bench-smoke.out)"
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

# ---- the small part's counts (issue 30) at a small N -------------------------
# famfs cp of 16 files of 4 KiB with FAMFS_DEBUG_STORES=1: 16 x 4 KiB of
# data stored, log bytes = the slots df says the entries took x slot size,
# 16 small-file pages used (df); the same with -T 0 (2 MiB units): 2 MiB of
# data per file; and the stores line in the form suites/bench/small.sh reads.
mkdir -p /tmp/sm-src
i=0; while [ $i -lt 16 ]; do head -c 4096 /dev/urandom > /tmp/sm-src/s$i; i=$((i + 1)); done
_dfj() { famfs df -j $M | jget "$1" 2>/dev/null || echo 0; }
_st() { sed -n 's/^famfs: stores: //p' /tmp/sm-stores | tr ' ' '\n' | sed -n "s/^$1=//p"; }
famfs mkdir $M/sm $M/smu
for _w in small units; do
	_o=; _d=$M/sm _per=4096; [ $_w = units ] && _o="-T 0" _d=$M/smu _per=$((2 * MiB))
	_p0=$(_dfj .small_files.pages_used) _l0=$(_dfj .log.used)
	FAMFS_DEBUG_STORES=1 famfs cp $_o /tmp/sm-src/* $_d/ 2> /tmp/sm-stores
	t_eq small-$_w-cp 0 $?
	cat /tmp/sm-stores
	t_ok small-$_w-stores-line grep -q '^famfs: stores: total=[0-9]* data=[0-9]* zeroed=[0-9]* filled=[0-9]* log=[0-9]* commit=[0-9]* meta=[0-9]*$' /tmp/sm-stores
	t_eq small-$_w-data $((16 * _per)) "$(_st data)"
	t_eq small-$_w-log $((($(_dfj .log.used) - _l0) * $(_dfj .log.slot_size))) "$(_st log)"
	t_eq small-$_w-commit 128 "$(_st commit)"
	[ $_w = small ] && t_eq small-pages-used 16 $(($(_dfj .small_files.pages_used) - _p0))
	for _f in /tmp/sm-src/*; do cmp -s $_f $_d/${_f##*/} || t_fail small-$_w-bytes "$_d/${_f##*/} differs"; done
done
rm -rf /tmp/sm-src

# ---- the pud part's rows (issue 31), nvdimm-1g only ------------------------
GiB=1073741824
# pud_counts NAME PASS...: the counts of NAME's passes in /tmp/bench-smoke.out
# as "PASS:minflt/pud NOPAGE/pud FALLBACK/pmd NOPAGE/pmd FALLBACK/pte ..."
pud_counts() {
	_n=$1; shift
	for _p; do
		_l=$(grep "^BENCH counts target=$_n .* pass=$_p " /tmp/bench-smoke.out)
		printf '%s:%s/%s/%s/%s/%s/%s ' $_p "$(echo "$_l" | field_of minflt)" \
			"$(echo "$_l" | field_of pud_nopage)" "$(echo "$_l" | field_of pud_fallback)" \
			"$(echo "$_l" | field_of pmd_nopage)" "$(echo "$_l" | field_of pmd_fallback)" \
			"$(echo "$_l" | field_of pte)"
	done | sed 's/ $//'
}
field_of() { tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1; }
# pud_share ID WANT ARGS...: bench_dax share ARGS; its line's faults,
# traced faults and the page-table pages it added (VmPTE of the processes,
# kB, summed) as "minflt=.. pud=NOPAGE/FALLBACK pmd=NOPAGE/FALLBACK pte=..
# vmpte_kb=.."
pud_share() {
	_id=$1 _want=$2; shift 2
	bench_dax share "$@" > /tmp/bench-smoke.out 2>&1
	_rc=$?
	if [ $_rc != 0 ]; then
		t_fail $_id "bench_dax share $* exited $_rc: $(tail -n 2 /tmp/bench-smoke.out | tr '\n' ' ')"
		return
	fi
	cat /tmp/bench-smoke.out
	_l=$(grep '^BENCH share ' /tmp/bench-smoke.out)
	_g() { echo "$_l" | field_of $1; }
	t_eq $_id "$_want" "minflt=$(_g minflt) pud=$(_g pud_nopage)/$(_g pud_fallback) pmd=$(_g pmd_nopage)/$(_g pmd_fallback) pte=$(_g pte) vmpte_kb=$(($(_g vmpte_kb_after) - $(_g vmpte_kb_before)))"
	t_ok $_id-pagetables-shown sh -c "echo '$_l' | grep -q ' pagetables_kb_before=[0-9]* pagetables_kb_after=[0-9]* '"
}
if [ "$FAMFS_PROFILE" = nvdimm-1g ]; then
	if grep -qw pdpe1gb /proc/cpuinfo; then
		t_pass pud-pdpe1gb
	else
		t_fail pud-pdpe1gb "the guest CPU offers no 1 GiB pages (no pdpe1gb in /proc/cpuinfo)"
	fi
	_pfn=$(readlink -f /sys/block/${DEV#/dev/}/device)
	t_eq pud-ns-align-1g "$GiB" "$(cat "$_pfn/align" 2>/dev/null)"
	t_eq pud-ns-data-1g-aligned 0 $(($(cat "$_pfn/resource" 2>/dev/null || echo 1) % GiB))
	umount $M
	t_ok pud-mkfs famfs mkfs -f --loglen 16M "$DEV"
	t_ok pud-mount famfs mount "$DEV" $M
	# famfs-2m first: first fit after the log, at no GiB boundary
	t_ok pud-2m-mkfile famfs mkfile -Z --align none -s 1G $M/p2m
	t_ok pud-1g-mkfile famfs mkfile -Z --align 1g -s 1G $M/p1g
	t_ok pud-big-mkfile famfs mkfile -Z --align 1g -s 2G $M/pbig
	famfs getmap -j $M/p2m > /tmp/getmap.json
	t_eq pud-2m-off-unaligned 1 $(($(jget .extents[0].offset < /tmp/getmap.json) % GiB != 0))
	famfs getmap -j $M/p1g > /tmp/getmap.json
	t_eq pud-1g-off-aligned 0 $(($(jget .extents[0].offset < /tmp/getmap.json) % GiB))
	if bench_dax counts -s 1G famfs-1g=$M/p1g > /tmp/bench-smoke.out 2>&1; then
		cat /tmp/bench-smoke.out
		t_eq pud-1g-counts "cold-read:1/1/0/0/0/0 warm-read:0/0/0/0/0/0 cold-write:1/1/0/0/0/0 warm-write:0/0/0/0/0/0" \
			"$(pud_counts famfs-1g cold-read warm-read cold-write warm-write)"
	else
		t_fail pud-1g-counts "bench_dax failed: $(tail -n 2 /tmp/bench-smoke.out)"
	fi
	if bench_dax counts -W -s 1G famfs-2m=$M/p2m > /tmp/bench-smoke.out 2>&1; then
		cat /tmp/bench-smoke.out
		t_eq pud-2m-counts "cold-read:512/0/1/512/0/0 warm-read:0/0/0/0/0/0" \
			"$(pud_counts famfs-2m cold-read warm-read)"
	else
		t_fail pud-2m-counts "bench_dax failed: $(tail -n 2 /tmp/bench-smoke.out)"
	fi
	# the first fault alone: one per access, each line complete
	if bench_dax fault -s 1G -r 2 famfs-1g=$M/p1g famfs-2m=$M/p2m > /tmp/bench-smoke.out 2>&1; then
		cat /tmp/bench-smoke.out
		for _t in famfs-1g famfs-2m; do
			for _op in read write; do
				t_ok pud-fault-$_t-$_op grep -q "^BENCH fault target=$_t size=$GiB reps=2 op=$_op minflt=1 min_ns=[0-9]* median_ns=[0-9]* again_min_ns=[0-9]* again_median_ns=[0-9]*\$" /tmp/bench-smoke.out
			done
		done
	else
		t_fail pud-fault "bench_dax failed: $(tail -n 2 /tmp/bench-smoke.out)"
	fi
	# 8 processes map 2 GiB: one PUD fault per GiB, no table page; mapped
	# 2 MiB past a GiB boundary: 512 PMD faults per GiB and a PMD table for
	# each of the 3 GiB regions it touches, per process
	pud_share pud-share-1g "minflt=16 pud=16/0 pmd=0/0 pte=0 vmpte_kb=0" -n 8 -s 2G famfs-1g=$M/pbig
	pud_share pud-share-2m "minflt=8192 pud=0/24 pmd=8192/0 pte=0 vmpte_kb=96" -n 8 -s 2G -o 2M famfs-2m=$M/pbig
	umount $M
	# device-dax with align=1G: the second NVDIMM's namespace as devdax for
	# a moment (pud.sh uses it as a member afterwards: back to fsdax)
	_ns=$(cat /sys/block/pmem1/device/namespace 2>/dev/null)
	case $_ns in
	namespace*)
		_j=$(ndctl create-namespace -f -e "$_ns" -m devdax --map=mem --align=1G 2>&1)
		_dd=$(echo "$_j" | sed -n 's/.*"chardev":"\([^"]*\)".*/\1/p' | head -n 1)
		if [ -n "$_dd" ] && wait_for /dev/$_dd 10; then
			t_pass pud-devdax-ns
			t_eq pud-devdax-align-1g "$GiB" "$(cat /sys/bus/dax/devices/$_dd/align)"
			t_eq pud-devdax-1g-aligned 0 $(($(cat /sys/bus/dax/devices/$_dd/resource) % GiB))
			if bench_dax counts -W -s 1G devdax-1g=/dev/$_dd > /tmp/bench-smoke.out 2>&1; then
				cat /tmp/bench-smoke.out
				t_eq pud-devdax-counts "cold-read:1 warm-read:0" \
					"$(for _p in cold-read warm-read; do printf '%s:%s ' $_p "$(grep "^BENCH counts target=devdax-1g .* pass=$_p " /tmp/bench-smoke.out | field_of minflt)"; done | sed 's/ $//')"
			else
				t_fail pud-devdax-counts "bench_dax failed: $(tail -n 2 /tmp/bench-smoke.out)"
			fi
		else
			t_fail pud-devdax-ns "no dax device for $_ns: $(echo "$_j" | tail -n 2 | tr '\n' ' ')"
		fi
		t_ok pud-fsdax-again ndctl create-namespace -f -e "$_ns" -m fsdax --map=mem --align=1G
		t_ok pud-pmem1-again wait_for /dev/pmem1 10
		;;
	*) t_fail pud-devdax-ns "no namespace under /dev/pmem1 ('$_ns')" ;;
	esac
	t_ok pud-remount famfs mount "$DEV" $M
fi

umount $M
famfs mkfs -k "$DEV" > /dev/null 2>&1	# leave no file system behind
exit 0
