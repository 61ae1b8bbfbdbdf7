# profiles: pmem nvdimm-devdax nvdimm-1g
# timeout: 600
# Hostile input to famfs.ko's map ioctls, v1 and v2 (MAP_CREATE_V2 and
# MAP_GET_V2: long extent lists, interleaved extents, the errno of the first
# failing check of the contract, where striped bytes land; small files:
# MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES, page extents sharing 2 MiB units,
# never a page; a quarter of the v3 creates with FAMFS_IOC_MAP_INVALIDATE,
# which the single process must have had accepted) (progs/hostile_fuzz/,
# seeded and reproducible; the seed is printed): on a famfs-cli mount holding
# files with known bytes, one process with an exact model of the mount (with
# files that others hold open, and remounts between the calls), then
# 4 at once racing for the same memory while the tree is scanned, then a read-only
# remount (EROFS), then a bare kernel mount (no .meta files).  FAMFSIOC_HELD
# (calls7.c): live files' extents held whole, broken fields and pointers
# refused with the contract's errno.  FAMFSIOC_UNLINK_MAP (calls8.c): own
# files removed by their map; broken fields, names, pointers, entries and
# maps refused with the contract's errno (ESTALE: the file stays).  The main
# phases run again on a noncoherent mount (FAMFSIOC_CACHE really flushes
# there; its bytes are checked against the famfs:famfs_cache tracepoint).  Afterwards the
# files still hold their bytes, fsck is clean and a remount replays them.
# Last, a memory failure injected while 4 processes fuzz a bare mount.
# CI: 60000 calls in one process, 4 x 15000 at once, 10000 and 4 x 7500
# noncoherent, 5000 read-only, 10000 bare, 4 x 15000 through the failure,
# 10000 as uid 65534 (245000 calls, about 45 s) on pmem; half of each on
# the other profiles (their own fault and mapping paths).  FAMFS_FUZZ_LONG=1 tests/qemu/run.sh -p pmem hostile_fuzz:
# 1000000 in one process, 4 x 250000, ... (3.4 million calls, about 5.5 min).
# FAMFS_FUZZ_SEED, FAMFS_FUZZ_ITER (calls of the single process): repeat a run.
# On nvdimm-1g (a 5 GiB device whose memory is 1 GiB-aligned, issue 31) every
# phase runs with -G: most v2 maps on 1 GiB boundaries (1 GiB chunks, a page
# long or short, partly past the device end), each file faulted through a
# mapping (PUD faults, and PMD ones from 2 MiB in); the single process must
# have taken PUD faults and fallbacks (famfs:famfs_pud_fault).
. "$FAMFS_SRC/tests/qemu/lib.sh"

calls=0
# fuzz ARGS...: run_prog hostile_fuzz, adding its calls to $calls
fuzz() {
	run_prog hostile_fuzz "$@"
	for _c in $(sed -n 's/^info: .*\]\( (uid 65534)\)*: \([0-9]*\) calls: .*/\2/p' /tmp/hostile_fuzz.out); do
		calls=$((calls + _c))
	done
}

famfs_loaded || exit 0
DEV=$FAMFS_DEV
M=/tmp/hostile-fuzz
# devdax: famfs mounts a dax device bound to its own dax-bus driver
rebind=
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	N=$(basename $DEV)
	if [ ! -d /sys/bus/dax/drivers/famfs ]; then
		t_skip devdax "this famfs.ko has no dax-bus driver"
		exit 0
	fi
	if [ ! -e /sys/bus/dax/drivers/famfs/$N ]; then
		echo $N > /sys/bus/dax/drivers/device_dax/unbind 2>/dev/null
		echo $N > /sys/bus/dax/drivers/famfs/new_id
		rebind=1
	fi
	t_ok devdax-bound test -e /sys/bus/dax/drivers/famfs/$N
fi
export FAMFS_HOST_ID_FILE=/tmp/hostile-host-uuid
mkdir -p $M
umount $M 2>/dev/null

# Every ioctl number famfs_ioctl.h defines: the fuzzer must model each.
nrs=$(sed -n 's/.*_IO[RW]*(FAMFSIOC_MAGIC, *\([0-9][0-9]*\).*/\1/p' \
	"$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" | tr '\n' ',' | sed 's/,$//')
echo "hostile_fuzz: ioctl numbers in famfs_ioctl.h: $nrs"
seed=${FAMFS_FUZZ_SEED:-$(date +%s)}
if [ "${FAMFS_FUZZ_LONG:-0}" != 0 ]; then n=${FAMFS_FUZZ_ITER:-1000000}
elif [ "$FAMFS_PROFILE" = pmem ]; then n=${FAMFS_FUZZ_ITER:-60000}
else n=${FAMFS_FUZZ_ITER:-30000}; fi	# the device's own paths: half
echo "hostile_fuzz: seed $seed, $n calls per process (FAMFS_FUZZ_SEED=$seed FAMFS_FUZZ_ITER=$n repeats it)"

# A file system with files whose bytes are known.
famfs mkfs -f $DEV >/dev/null
# -o noprotect: the fuzzer makes and removes files as the 2024 user space
# did, with open(O_CREAT) and unlink (issue 29: the seed's contract)
t_rc setup-mount 0 famfs mount -o noprotect $DEV $M
famfs mkdir -p $M/keep/deep >/dev/null
i=0
for spec in keep/a:1m keep/deep/b:3m keep/c:4097 d:2m e:7m; do
	famfs mkfile -s "${spec#*:}" -S $((100 + i)) "$M/${spec%%:*}" >/dev/null ||
		t_fail setup-mkfile "mkfile $spec failed"
	i=$((i + 1))
done
verify_all() {	# verify_all ID: every kept file holds its bytes
	_ok=0 _i=0
	for _s in keep/a keep/deep/b keep/c d e; do
		famfs verify -S $((100 + _i)) "$M/$_s" >/dev/null 2>&1 && _ok=$((_ok + 1))
		_i=$((_i + 1))
	done
	t_eq "$1" 5 "$_ok"
}
verify_all setup-files

t0=$(date +%s)
# one process: also MAP_CREATE on files another open file or name reaches
# (EBUSY), and read-only/read-write remounts between the calls (on pmem the
# device itself goes read-only now and then: remount,rw gets EROFS)
devopt=
[ "$FAMFS_DEV_MODE" != fsdax ] || devopt="-D $DEV"
G=
EV_PUD=famfs/famfs_pud_fault
if [ "$FAMFS_PROFILE" = nvdimm-1g ]; then
	G=-G
	trace_have $EV_PUD && trace_on $EV_PUD
fi
fuzz -s "$seed" -n "$n" -k "$nrs" -l single -R $devopt $G $M
_inv=$(sed -n 's/^info: single\[[0-9]*\]: reused memory: .* (accepted \([0-9]*\))$/\1/p' /tmp/hostile_fuzz.out | head -n 1)
echo "hostile_fuzz: MAP_CREATE_V3 with FAMFS_IOC_MAP_INVALIDATE accepted: ${_inv:-none}"
t_eq single-invalidate-accepted 1 "$((${_inv:-0} > 0))"
if [ -n "$G" ]; then
	if trace_have $EV_PUD; then
		trace_off $EV_PUD
		_pud=$(grep -c 'famfs_pud_fault:.* NOPAGE' $TRACE/trace)
		_fb=$(grep -c 'famfs_pud_fault:.* FALLBACK' $TRACE/trace)
		echo "hostile_fuzz: -G: $_pud 1 GiB mappings, $_fb fallbacks"
		t_eq single-pud-faults 1 "$((_pud > 0))"
		t_eq single-pud-fallbacks 1 "$((_fb > 0))"
	else
		t_fail single-pud-faults "no $EV_PUD in $TRACE (famfs.ko without PUD faults)"
	fi
fi
t1=$(date +%s)
fuzz -s $((seed + 1)) -n $((n / 4)) -j 4 -l conc -q $G $M
t2=$(date +%s)
echo "hostile_fuzz: one process: $((t1 - t0)) s; four at once: $((t2 - t1)) s"
verify_all files-intact-after-fuzz
t_rc fsck-after-fuzz 0 famfs fsck $M
t_rc check-after-fuzz 0 famfs check $M

# The same on a noncoherent mount (famfs tune remounts it so; remounts keep
# it): the same errno for every call, and now each valid FAMFSIOC_CACHE call
# really writes back or invalidates.  The famfs:famfs_cache tracepoint
# (ioctl events only) must count exactly the bytes the fuzzer's valid calls
# asked for; then 4 at once, and back to coherent.
EV=famfs/famfs_cache
t_rc tune-noncoherent 0 famfs tune --noncoherent $M
if trace_have $EV; then
	echo 'why == "ioctl"' > $TRACE/events/$EV/filter
	trace_on $EV
	fuzz -s $((seed + 5)) -n $((n / 6)) -l noncoherent -N -R $devopt -q $G $M
	trace_off $EV
	echo 0 > $TRACE/events/$EV/filter
	set -- $(sed -n 's/^info: noncoherent: cache: \([0-9]*\) valid calls, \([0-9]*\) bytes written back, \([0-9]*\) invalidated.*/\1 \2 \3/p' /tmp/hostile_fuzz.out)
	if [ $# -ne 3 ] || [ "$1" -eq 0 ]; then
		t_fail noncoherent-cache-calls "the fuzzer made no valid FAMFSIOC_CACHE call (or printed no count): ${1:-none}"
	else
		want=
		[ "$3" -eq 0 ] || want="ioctl/invalidate=$3"
		[ "$2" -eq 0 ] || want="${want:+$want }ioctl/writeback=$2"
		echo "hostile_fuzz: noncoherent: $1 valid FAMFSIOC_CACHE calls: $want"
		t_eq noncoherent-cache-traced "$want" "$(cache_counts)"
	fi
else
	trace_missing noncoherent-cache-traced "the famfs:famfs_cache tracepoint"
	fuzz -s $((seed + 5)) -n $((n / 6)) -l noncoherent -N -R $devopt -q $G $M
fi
fuzz -s $((seed + 6)) -n $((n / 8)) -j 4 -l noncoherent-conc -N -q $G $M
t_rc tune-coherent 0 famfs tune --coherent $M
verify_all files-intact-after-noncoherent-fuzz
t_rc fsck-after-noncoherent-fuzz 0 famfs fsck $M

# Read-only: MAP_CREATE refused with EROFS; maps still read back.
for k in 1 2 3 4 5 6; do : > $M/ro-empty-$k; done
if mount -o remount,ro $M; then
	fuzz -s $((seed + 2)) -n $((n / 12)) -r -l ro -q $G $M
	mount -o remount,rw $M
else
	t_fail ro-remount "mount -o remount,ro failed"
fi
rm -f $M/ro-empty-*

t_rc umount-after-fuzz 0 umount $M
t_rc remount-after-fuzz 0 famfs mount -o noprotect $DEV $M
verify_all files-intact-after-remount
t_rc fsck-after-remount 0 famfs fsck $M
umount $M

# A bare kernel mount: no .meta files, so a superblock map at 0 can exist.
if mount -t famfs $DEV $M; then
	fuzz -s $((seed + 3)) -n $((n / 6)) -l bare -P -q $G $M
	t_ok bare-umount umount $M
else
	t_fail bare-mount "mount -t famfs failed"
fi
t_rc files-survive-bare-mount 0 famfs mount -o noprotect $DEV $M
verify_all files-intact-at-end
umount $M

# A memory failure while 4 processes fuzz (bare mount, famfs-cli files no
# longer needed): EIO from then on, no oops, no overlap, umount works.
if mount -t famfs $DEV $M; then
	rm -f /tmp/hostile-ready
	klog_mark
	bg_prog hostile_hold poisonat $M /tmp/hostile-ready 1500
	wait_for /tmp/hostile-ready 10 ||
		t_fail fault-ready "hostile_hold did not start: $(cat /tmp/hostile_hold.bg.out)"
	fuzz -s $((seed + 4)) -n $((n / 4)) -j 4 -F -l fault -q $G $M
	bg_verdict hostile_hold
	# The mount's one failure line is not rate limited (it once was, and
	# the fuzzers' refused MAP_CREATEs had used the limit up: 418e492);
	# only this boot's earlier suites logged one before the mark.
	t_klog fault-failure-logged 'famfs (.*): memory failure at device bytes'
	t_ok fault-umount umount $M
else
	t_fail fault-mount "mount -t famfs failed"
fi
if [ -n "$rebind" ]; then
	echo $N > /sys/bus/dax/drivers/famfs/unbind
	echo $N > /sys/bus/dax/drivers/device_dax/bind
fi
# what was tried, what survived
nfail=$(grep -c "^FAIL $(t_id '')" "$FAMFS_OUT/results.txt")
npass=$(grep -c "^PASS $(t_id '')" "$FAMFS_OUT/results.txt")
echo "hostile_fuzz: $calls calls fuzzed (seed $seed: one process, 4 at once, uid 65534, read-only, bare mount, 4 at once through a memory failure); $npass checks held, $nfail failed"
exit 0
