# timeout: 3000
# Benchmarks, guest side; run by scripts/bench.sh on the bench and
# bench-icount profiles (no "profiles" header on purpose: never part of
# make check).  Needs six devices (profiles/bench.sh): $BENCH_DEVDAX raw
# device-dax, $FAMFS_DEV for famfs, $BENCH_EXT4_DEV for ext4 -o dax,
# $BENCH_FAMFS_MEMBER for famfs's member device (the multidev part),
# $BENCH_DEVDAX_1G device-dax with align=1G and $BENCH_PUD_DEV an fsdax
# namespace with --align=1G for famfs with 1 GiB mappings (the pud part).
# Parameters come as kernel command line words that the kernel hands to /init
# as environment (profiles/bench.sh puts $FAMFS_BENCH_ARGS there):
#   BENCH_SIZE (1G)       mmap/fsync file size
#   BENCH_RW_SIZE (256M)  bytes per read()/write() pass
#   BENCH_REPS (5)        repetitions of the alternating passes
#   BENCH_REPS_ICOUNT     the same on the bench-icount profile (default BENCH_REPS)
#   BENCH_PARTS           counts,mmap,rw,fsync,meta,stripe,multidev,nc,scale,pud,small,lifecycle
#                         (default: all)
#   BENCH_PUD_SIZE (1G)   the pud part's file size (whole GiBs)
#   BENCH_PUD_BIG (16G)   the pud part's file mapped in BENCH_PUD_PROCS (8)
#                         processes (whole GiBs; profiles/bench.sh sizes the
#                         devices from both)
#   BENCH_NC_SIZE (64M)   bytes per read() pass of the nc part (at most
#                         BENCH_RW_SIZE)
#   BENCH_META_MKFILE (100) BENCH_META_CP (300) BENCH_META_LOG (1000,10000)
#   BENCH_META_LOGFMT     famfs mkfs --log-format of the meta part (compact
#                         or v1; default: mkfs's default), printed as logfmt=
#   BENCH_SCALE (1000,10000,100000) BENCH_SCALE_CP (20): the scale part's
#                         steps (log entries) and files copied per step
#   BENCH_SMALL_N (100) BENCH_SMALL_EXACT (512) BENCH_SMALL_UNITS (20)
#   BENCH_SMALL_LARGE (64M) BENCH_SMALL_EXEC (20): the small part's
#                         (issue 30; suites/bench/small.sh says what they are)
#   BENCH_LIFE_N (100) BENCH_LIFE_BATCH (20): the lifecycle part's (issue
#                         29; suites/bench/lifecycle.sh says what they are)
# (lists comma-separated: the kernel command line splits at spaces)
# Machine-readable lines (bench_dax.c and "BENCH meta ...") go to
# $FAMFS_OUT/bench.txt; exact fault counts are also checked (PASS/FAIL).
. "$FAMFS_SRC/tests/qemu/lib.sh"

SIZE=${BENCH_SIZE:-1G}
REPS=${BENCH_REPS:-5}
PARTS=$(echo "${BENCH_PARTS:-counts,mmap,rw,fsync,meta,stripe,multidev,nc,scale,pud,small,lifecycle}" | tr , " ")
N_MKFILE=${BENCH_META_MKFILE:-100}
N_CP=${BENCH_META_CP:-300}
N_LOG=$(echo "${BENCH_META_LOG:-1000,10000}" | tr , " ")
LOGFMT=${BENCH_META_LOGFMT:-}
OUT=$FAMFS_OUT/bench.txt
M=/mnt/famfs
E=/mnt/ext4
MiB=1048576
export FAMFS_HOST_ID_FILE=/tmp/bench-host-uuid
: > "$OUT"
mkdir -p $M $E /tmp/bin

# The tool runs from tmpfs, not over 9p, so that exec costs what it would.
cp "$FAMFS_SRC/tools/famfs-cli/build/famfs-cli" /tmp/bin/famfs 2>/dev/null ||
	cp "$(command -v famfs)" /tmp/bin/famfs
cp "$FAMFS_SRC/tests/qemu/build/bin/bench_dax" /tmp/bin/
# the scale part's "before": the tool of an earlier main (scripts/bench.sh)
cp "$FAMFS_SRC/build/bench-base/famfs-cli" /tmp/bin/famfs-before 2>/dev/null
export PATH=/tmp/bin:$PATH

log() { echo "$*" >> "$OUT"; echo "$*"; }
now() { bench_dax now; }
bytes() { bench_dax_size "$1"; }
bench_dax_size() {	# SIZE with K/M/G -> bytes (busybox sh arithmetic)
	case $1 in
	*G) echo $((${1%G} * 1073741824)) ;; *M) echo $((${1%M} * MiB)) ;;
	*K) echo $((${1%K} * 1024)) ;; *) echo "$1" ;;
	esac
}
# run ID CMD...: run a bench_dax command, its BENCH lines to $OUT (as
# "BENCH $TAG<what> ..." when TAG is set, so that the report can tell parts apart)
run() {
	_id=$1; shift
	if "$@" > /tmp/bench.out 2>&1; then
		grep '^BENCH ' /tmp/bench.out | sed "s/^BENCH /BENCH ${TAG:-}/" >> "$OUT"
		t_pass "$_id"
	else
		t_fail "$_id" "'$*' exited $?: $(tail -n 2 /tmp/bench.out | tr '\n' ' ')"
	fi
	cat /tmp/bench.out
}
# field FILE PATTERN KEY: KEY=value of the first line of FILE matching PATTERN
field() { grep -- "$2" "$1" | head -n 1 | tr ' ' '\n' | sed -n "s/^$3=//p"; }

BYTES=$(bytes "$SIZE")
PMDS=$((BYTES / (2 * MiB)))
RW_BYTES=$(bytes "${BENCH_RW_SIZE:-256M}")
[ "$RW_BYTES" -le "$BYTES" ] || RW_BYTES=$BYTES
# Targets alternate every STEP bytes.  Under -icount every 2 MiB: a chunk is
# one fault, and the per-chunk minimum over the repetitions drops the timer
# ticks (one every 4M instructions at HZ=250) that land in a chunk.
clock=realtime STEP=8M
[ "$FAMFS_PROFILE" = bench-icount ] && clock=icount STEP=2M REPS=${BENCH_REPS_ICOUNT:-$REPS}
log "BENCH config profile=$FAMFS_PROFILE clock=$clock size=$BYTES rw_size=$RW_BYTES step=$STEP reps=$REPS parts=$(echo $PARTS | tr ' ' ,)" \
	"devdax=$BENCH_DEVDAX famfs=$FAMFS_DEV ext4=$BENCH_EXT4_DEV kernel=$(uname -r)"

# Quiet machine: no periodic writeback, one CPU.
sysctl -qw vm.dirty_writeback_centisecs=0 2>/dev/null
echo never > /sys/kernel/mm/transparent_hugepage/khugepaged/defrag 2>/dev/null

# ---- set up the peers -------------------------------------------------------
famfs_fresh() {	# famfs_fresh: new famfs with a 16 MiB log (room for 10k entries)
	umount $M 2>/dev/null
	famfs mkfs -f --loglen 16M "$FAMFS_DEV" > /dev/null && famfs mount "$FAMFS_DEV" $M
}
ext4_fresh() {
	umount $E 2>/dev/null
	mkfs.ext4 -q -F -b 4096 -O ^resize_inode -E stride=512,stripe_width=512 "$BENCH_EXT4_DEV" &&
		mount -t ext4 -o dax "$BENCH_EXT4_DEV" $E
}
# ext4_file PATH SIZE: preallocated in whole 2 MiB units (with the stride
# hint ext4 then places them 2 MiB-aligned, as famfs does), written, and cut to
# SIZE (a size that is not a multiple of 2 MiB made ext4 start the extent
# unaligned: every fault fell back to 4 KiB)
ext4_file() {
	fallocate -l $((($2 + 2 * MiB - 1) / (2 * MiB) * 2 * MiB)) "$1" &&
		bench_dax prep -s "$2" "$1" && truncate -s "$2" "$1"
}
# famfs_file PATH SIZE: allocated by famfs mkfile, then written like ext4's
# (-Z: no zeroing first, prep writes all of it)
famfs_file() { famfs mkfile -Z -s "$2" "$1" && bench_dax prep -s "$2" "$1"; }

t_ok famfs-mkfs famfs_fresh
t_ok ext4-mkfs ext4_fresh
t_ok ext4-dax-on sh -c "grep ' $E ext4 ' /proc/mounts | grep -q dax"
log "BENCH setup devdax=\"$BENCH_DEVDAX: ndctl create-namespace -m devdax --align=2M --map=mem; mmap at offset 0\""
log "BENCH setup famfs=\"$FAMFS_DEV: fsdax --align=2M --map=mem; famfs mkfs --loglen 16M; famfs mkfile -Z -s SIZE, then written with pwrite\""
log "BENCH setup ext4=\"$BENCH_EXT4_DEV: fsdax --align=2M --map=mem; mkfs.ext4 -b 4096 -O ^resize_inode -E stride=512,stripe_width=512; mount -o dax; fallocate -l SIZE rounded up to 2 MiB, written with pwrite, truncated to SIZE\""

DATA_PARTS=
for p in $PARTS; do case $p in counts|mmap|rw|fsync) DATA_PARTS=1 ;; esac; done
if [ -n "$DATA_PARTS" ]; then
	t_ok famfs-file famfs_file $M/big "$BYTES"
	t_ok ext4-file ext4_file $E/big "$BYTES"
	# entries in both file systems' DAX mappings exist before any pass
	bench_dax counts -W -s "$BYTES" f=$M/big > /dev/null
	bench_dax counts -W -s "$BYTES" e=$E/big > /dev/null
	T="devdax=$BENCH_DEVDAX famfs=$M/big ext4=$E/big"
fi

# ---- exact counts -------------------------------------------------------------
# check_counts ID FILE TARGET SIZE KEY=VALUE...: the counts lines of TARGET
check_counts() {
	_id=$1 _f=$2 _t=$3 _s=$4; shift 4
	for _kv in "$@"; do
		_pass=${_kv%%:*} _kv=${_kv#*:}
		_l="target=$_t size=$_s pass=$_pass "
		t_eq "$_id-$_pass-${_kv%%=*}" "${_kv#*=}" "$(field "$_f" "$_l" "${_kv%%=*}")"
	done
}
if echo " $PARTS " | grep -q ' counts '; then
	for tgt in $T; do
		run counts-${tgt%%=*} bench_dax counts -s "$BYTES" "$tgt"
		grep '^BENCH counts' /tmp/bench.out > /tmp/counts-${tgt%%=*}
	done
	for t in devdax famfs ext4; do
		c="cold-read:minflt=$PMDS warm-read:minflt=0 cold-write:minflt=$PMDS warm-write:minflt=0"
		[ $t = devdax ] || c="$c cold-read:pmd_nopage=$PMDS cold-read:pmd_fallback=0 cold-read:pte=0
			cold-write:pmd_nopage=$PMDS cold-write:pmd_fallback=0 cold-write:pte=0"
		check_counts count-$t /tmp/counts-$t $t "$BYTES" $c
	done
	# Odd tails: the last 2 MiB of the file is only partly inside i_size, so
	# its PMD fault falls back (once) and every 4 KiB page in it faults.
	for odd in "64M-4K 31 1 511" "64M+4K 32 1 1"; do
		set -- $odd
		ob=$(bench_dax_size "${1%[-+]*}")
		case $1 in *-4K) ob=$((ob - 4096)) ;; *) ob=$((ob + 4096)) ;; esac
		flt=$(($2 + $4))
		t_ok famfs-odd-$1 famfs mkfile -s "$ob" $M/odd$1
		t_ok ext4-odd-$1 ext4_file $E/odd$1 "$ob"
		for t in famfs:$M ext4:$E; do
			n=${t%%:*}-odd
			run counts-$n-$1 bench_dax counts -s "$ob" "$n=${t#*:}/odd$1"
			grep '^BENCH counts' /tmp/bench.out > /tmp/counts-odd
			check_counts count-$n$1 /tmp/counts-odd $n "$ob" \
				cold-read:pmd_nopage=$2 cold-read:pmd_fallback=$3 cold-read:pte=$4 \
				cold-read:minflt=$flt warm-read:minflt=0 cold-write:minflt=$flt warm-write:minflt=0
		done
	done
	# 4 KiB mappings forced (madvise MADV_NOHUGEPAGE) for scale: 512 per 2 MiB
	for t in famfs:$M ext4:$E; do
		n=${t%%:*}-4k
		run counts-$n bench_dax counts -4 -s "$BYTES" "$n=${t#*:}/big"
		grep '^BENCH counts' /tmp/bench.out > /tmp/counts-4k
		check_counts count-$n /tmp/counts-4k $n "$BYTES" \
			cold-read:pte=$((BYTES / 4096)) cold-read:minflt=$((BYTES / 4096)) warm-read:minflt=0
	done
fi

# ---- mmap passes, alternating targets every 8 MiB -------------------------
if echo " $PARTS " | grep -q ' mmap '; then
	# famfs-4k: the famfs file again, with 4 KiB mappings forced, for scale
	run mmap bench_dax mmap ${BENCH_VERBOSE:+-v} -s "$BYTES" -r "$REPS" -k $STEP $T famfs-4k=$M/big
fi

# ---- read()/write() at 4 KiB, 64 KiB, 2 MiB: famfs vs ext4-dax -----------
if echo " $PARTS " | grep -q ' rw '; then
	for b in 4K 64K 2M; do
		run rw-$b bench_dax rw -s "$RW_BYTES" -b $b -r "$REPS" -k $STEP famfs=$M/big ext4=$E/big
	done
fi

# ---- fsync after dirtying the whole mapping --------------------------------
if echo " $PARTS " | grep -q ' fsync '; then
	run fsync bench_dax fsync -s "$BYTES" -r "$REPS" famfs=$M/big ext4=$E/big
fi

# ---- metadata ----------------------------------------------------------------
# meta KEY N T0 T1 [k=v...]: one metadata figure (every k=v printed)
meta() { _w=$1 _n=$2 _ns=$(($4 - $3)); shift 4; log "BENCH meta what=$_w n=$_n ns=$_ns${*:+ $*}${LOGFMT:+ logfmt=$LOGFMT}"; }
if echo " $PARTS " | grep -q ' meta '; then
	umount $M; rm -f $E/big
	t0=$(now); famfs mkfs -f ${LOGFMT:+--log-format $LOGFMT} --loglen 16M "$FAMFS_DEV" > /dev/null; t1=$(now)
	meta famfs-mkfs 1 "$t0" "$t1"
	t0=$(now); famfs mount "$FAMFS_DEV" $M; t1=$(now)
	meta famfs-mount-empty 1 "$t0" "$t1" entries=0
	# A new file is zeroed (through its mapping, then msync) before it is
	# logged; -Z skips that.  Four 32 MiB files each way, side by side.
	famfs mkdir $M/z
	for z in yes no; do
		zopt=; [ $z = no ] && zopt=-Z
		t0=$(now)
		i=0; while [ $i -lt 4 ]; do famfs mkfile $zopt -s 32M $M/z/$z$i || break; i=$((i + 1)); done
		t1=$(now)
		t_eq meta-mkfile-32M-zero-$z 4 "$i"
		meta famfs-mkfile-32M "$i" "$t0" "$t1" zeroed=$z
	done
	t_ok meta-mkfile-zeroed-reads-zero cmp -n 33554432 $M/z/yes0 /dev/zero
	umount $M	# the rest on a fresh file system, as before
	famfs mkfs -f ${LOGFMT:+--log-format $LOGFMT} --loglen 16M "$FAMFS_DEV" > /dev/null && famfs mount "$FAMFS_DEV" $M
	famfs mkdir $M/mk $M/cp
	# famfs mkfile one at a time (each file takes a 2 MiB unit)
	t0=$(now)
	i=0; while [ $i -lt "$N_MKFILE" ]; do famfs mkfile -s 4K $M/mk/f$i || break; i=$((i + 1)); done
	t1=$(now)
	t_eq meta-mkfile-all "$N_MKFILE" "$i"
	meta famfs-mkfile "$i" "$t0" "$t1"
	mkdir -p $E/mk $E/cp
	t0=$(now)
	i=0; while [ $i -lt "$N_MKFILE" ]; do fallocate -l 4096 $E/mk/f$i || break; i=$((i + 1)); done
	t1=$(now)
	meta ext4-fallocate "$i" "$t0" "$t1"
	# famfs cp of many 4 KiB files, one invocation
	rm -rf /tmp/cpsrc; mkdir /tmp/cpsrc
	i=0; while [ $i -lt "$N_CP" ]; do head -c 4096 /dev/urandom > /tmp/cpsrc/s$i; i=$((i + 1)); done
	t0=$(now); famfs cp /tmp/cpsrc/* $M/cp/; rc=$?; t1=$(now)
	t_eq meta-cp-rc 0 $rc
	t_eq meta-cp-all "$N_CP" "$(ls $M/cp | wc -l)"
	meta famfs-cp "$N_CP" "$t0" "$t1"
	t0=$(now); cp /tmp/cpsrc/* $E/cp/; t1=$(now)
	meta ext4-cp "$N_CP" "$t0" "$t1"
	# open+close of an existing file
	run open bench_dax open -n 20000 -r "$REPS" famfs=$M/mk/f0 ext4=$E/mk/f0
	entries=$((N_MKFILE + N_CP + 2))
	t0=$(now); umount $M; t1=$(now)
	meta famfs-umount 1 "$t0" "$t1" entries=$entries
	t0=$(now); famfs mount "$FAMFS_DEV" $M; t1=$(now)
	meta famfs-mount "$entries" "$t0" "$t1" entries=$entries files=$((N_MKFILE + N_CP))
	t_eq meta-remount-files "$N_CP" "$(ls $M/cp | wc -l)"

	# The log: fresh famfs, directory entries (a file takes 2 MiB, so 10k
	# files do not fit; directories are log entries without data), in steps.
	# A 16 MiB log holds 16k entries: a step past that starts over on a
	# 128 MiB log, with its own empty-mount figure.  famfs-mkfile-at entries=0 is the create at an
	# empty log that the issue 17 goals compare with.
	log_fresh() {	# log_fresh LOGLEN
		loglen=$1
		umount $M 2>/dev/null
		famfs mkfs -f ${LOGFMT:+--log-format $LOGFMT} --loglen "$loglen" "$FAMFS_DEV" > /dev/null || return 1
		t0=$(now); famfs mount "$FAMFS_DEV" $M; t1=$(now)
		meta famfs-mount-empty 1 "$t0" "$t1" entries=0 loglen=$loglen
		have=0 ndirs=0	# log entries, directories among them
	}
	log_fresh 16M
	t0=$(now); famfs mkfile -s 4K $M/probe0; t1=$(now)
	meta famfs-mkfile-at 1 "$t0" "$t1" entries=0 loglen=$loglen
	have=1
	for n in $N_LOG; do
		if [ "$n" -gt 16000 ] && [ "$loglen" = 16M ]; then
			log_fresh 128M
		fi
		t0=$(now)
		while [ $have -lt $((n - 1)) ]; do
			echo $M/d$ndirs; have=$((have + 1)); ndirs=$((ndirs + 1))
		done | xargs famfs mkdir
		t1=$(now)
		meta famfs-mkdir-xargs $((n - 1 - have)) "$t0" "$t1" entries_before=$have
		ndirs=$((ndirs + n - 1 - have)) have=$((n - 1))
		t_eq meta-log-$n-dirs "$ndirs" "$(ls -d $M/d* | wc -l)"
		# one file created alone with this many entries in the log
		t0=$(now); famfs mkfile -s 4K $M/probe$n; t1=$(now)
		meta famfs-mkfile-at 1 "$t0" "$t1" entries=$have loglen=$loglen
		have=$((have + 1))
		t0=$(now); famfs logplay $M > /dev/null; t1=$(now)
		meta famfs-logplay-noop "$have" "$t0" "$t1" entries=$have loglen=$loglen
		# the tree removed behind the log (famfs rm would log it): the
		# mount protects its tree, so for this step only it does not
		mount -o remount,noprotect $M && rm -rf $M/d* $M/probe* &&
			mount -o remount,protect $M
		t_eq meta-log-$n-removed 0 "$(ls -d $M/d* 2>/dev/null | wc -l)"
		t0=$(now); famfs logplay $M > /dev/null; rc=$?; t1=$(now)
		t_eq meta-logplay-$n-rc 0 $rc
		t_eq meta-logplay-$n-dirs "$ndirs" "$(ls -d $M/d* | wc -l)"
		meta famfs-logplay "$have" "$t0" "$t1" entries=$have dirs=$ndirs loglen=$loglen
		umount $M
		t0=$(now); famfs mount "$FAMFS_DEV" $M; t1=$(now)
		meta famfs-mount "$have" "$t0" "$t1" entries=$have dirs=$ndirs loglen=$loglen
	done
fi

# ---- interleaved against simple famfs files -------------------------------
# The same size twice on a fresh famfs: one simple extent, and 16 strips of
# 2 MiB chunks (famfs creat -N 16 -C 2M).  Faults must stay 2 MiB (checked);
# the passes show what resolving a striped offset costs per fault and per
# read()/write() (ratios in the report's section 5).
if echo " $PARTS " | grep -q ' stripe '; then
	SB=$BYTES; [ "$SB" -le $((512 * MiB)) ] || SB=$((512 * MiB))
	SRW=$RW_BYTES; [ "$SRW" -le "$SB" ] || SRW=$SB
	t_ok stripe-mkfs famfs_fresh
	t_ok stripe-simple-file famfs_file $M/simple "$SB"
	t_ok stripe-striped-file sh -c "famfs creat -N 16 -C 2M -s $SB $M/striped && bench_dax prep -s $SB $M/striped"
	log "BENCH setup stripe=\"famfs mkfs --loglen 16M; simple: famfs mkfile -s SIZE; striped16: famfs creat -N 16 -C 2M -s SIZE; both written with pwrite\""
	S="simple=$M/simple striped16=$M/striped"
	for tgt in $S; do
		bench_dax counts -W -s "$SB" "$tgt" > /dev/null
		run counts-${tgt%%=*} bench_dax counts -s "$SB" "$tgt"
		grep '^BENCH counts' /tmp/bench.out > /tmp/counts-s
		n=$((SB / (2 * MiB)))
		check_counts count-${tgt%%=*} /tmp/counts-s ${tgt%%=*} "$SB" \
			cold-read:minflt=$n cold-read:pmd_nopage=$n cold-read:pmd_fallback=0 cold-read:pte=0 \
			cold-write:minflt=$n cold-write:pmd_nopage=$n cold-write:pmd_fallback=0 warm-read:minflt=0
	done
	TAG=stripe- run stripe-mmap bench_dax mmap -s "$SB" -r "$REPS" -k $STEP $S
	for b in 4K 2M; do
		TAG=stripe- run stripe-rw-$b bench_dax rw -s "$SRW" -b $b -r "$REPS" -k $STEP $S
	done
fi

# ---- striped over two devices against one device (issue 16) ---------------
# famfs over $FAMFS_DEV and member 1 $BENCH_FAMFS_MEMBER; two files of the
# same size and layout, two strips of 2 MiB chunks: 2dev with a strip on
# each device (famfs mkfile -N 2), 1dev with both strips on device 0 (-N 2
# --device 0).  getmap says where the strips are (checked); faults must stay
# 2 MiB, one per 2 MiB (512 per GiB, checked); the mmap and read()/write()
# passes (ratios in the report's section 5b) show what resolving an offset
# on a member costs.  Under TCG both devices are host memory: the figures
# are path lengths, not the bandwidth that a second device buys on hardware.
# strip_devs FILE: the device of each strip of FILE's first extent (getmap
# names no device for a file wholly on the primary: 0)
strip_devs() {
	famfs getmap -j "$1" > /tmp/getmap.json || return 1
	_n=$(jget -n .extents[0].strips < /tmp/getmap.json) _i=0 _d=
	while [ "$_i" -lt "${_n:-0}" ]; do
		_v=$(jget .extents[0].strips[$_i].device < /tmp/getmap.json 2>/dev/null)
		_d="$_d${_d:+ }${_v:-0}"
		_i=$((_i + 1))
	done
	echo "$_d"
}
if echo " $PARTS " | grep -q ' multidev '; then
	DB=$BYTES; [ "$DB" -le $((512 * MiB)) ] || DB=$((512 * MiB))
	DRW=$RW_BYTES; [ "$DRW" -le "$DB" ] || DRW=$DB
	umount $M 2>/dev/null
	t_ok multidev-mkfs famfs mkfs -f --loglen 16M "$FAMFS_DEV" "$BENCH_FAMFS_MEMBER"
	t_ok multidev-mount famfs mount "$FAMFS_DEV" $M
	t_ok multidev-2dev-file sh -c "famfs mkfile -Z -N 2 -C 2M -s $DB $M/two && bench_dax prep -s $DB $M/two"
	t_ok multidev-1dev-file sh -c "famfs mkfile -Z -N 2 -C 2M --device 0 -s $DB $M/one && bench_dax prep -s $DB $M/one"
	t_eq multidev-1dev-strips "0 0" "$(strip_devs $M/one)"
	t_eq multidev-2dev-strips "0 1" "$(strip_devs $M/two)"
	log "BENCH setup multidev=\"famfs mkfs --loglen 16M PRIMARY MEMBER (two NVDIMMs, fsdax); 1dev: famfs mkfile -Z -N 2 -C 2M --device 0 -s SIZE; 2dev: famfs mkfile -Z -N 2 -C 2M -s SIZE (a strip on each device); both written with pwrite\""
	D="1dev=$M/one 2dev=$M/two"
	n=$((DB / (2 * MiB)))
	for tgt in $D; do
		bench_dax counts -W -s "$DB" "$tgt" > /dev/null
		run counts-${tgt%%=*} bench_dax counts -s "$DB" "$tgt"
		grep '^BENCH counts' /tmp/bench.out > /tmp/counts-d
		check_counts count-${tgt%%=*} /tmp/counts-d ${tgt%%=*} "$DB" \
			cold-read:minflt=$n cold-read:pmd_nopage=$n cold-read:pmd_fallback=0 cold-read:pte=0 \
			cold-write:minflt=$n cold-write:pmd_nopage=$n cold-write:pmd_fallback=0 cold-write:pte=0 \
			warm-read:minflt=0 warm-write:minflt=0
	done
	TAG=multidev- run multidev-mmap bench_dax mmap -s "$DB" -r "$REPS" -k $STEP $D
	for b in 4K 2M; do
		TAG=multidev- run multidev-rw-$b bench_dax rw -s "$DRW" -b $b -r "$REPS" -k $STEP $D
	done
	umount $M
fi

# ---- read() on a noncoherent mount against a coherent one (issue 18) ------
# One famfs file, read with pread() at 4 KiB, 64 KiB and 2 MiB in each mode,
# the mode switched by remount (mount -o remount,coherent|noncoherent) right
# before each measurement.  Under -icount the figures are instructions, so
# the noncoherent cost is the invalidation's path length (one clflush per
# 64-byte line plus the loop), not what a flush costs on real hardware.
# Baseline for "coherent costs nothing extra": the same reads with the
# famfs.ko of main before issue 18 (no cache code at all), if scripts/bench.sh
# built it ($FAMFS_SRC/build/bench-base/famfs.ko, see there).
# The famfs:famfs_cache tracepoint proves each mode did what it says: one
# more pass of the 2 MiB request size counts the whole file as read
# invalidations in noncoherent mode and nothing in coherent mode.
BASE_KO=$FAMFS_SRC/build/bench-base/famfs.ko
nc_mode() {	# nc_mode MODE: remount famfs in MODE, checked in /proc/mounts
	mount -o remount,$1 $M || return 1
	case ",$(awk -v m=$M '$2 == m { print $4 }' /proc/mounts)," in
	*,noncoherent,*) [ $1 = noncoherent ] ;; *) [ $1 = coherent ] ;;
	esac
}
if echo " $PARTS " | grep -q ' nc '; then
	NB=$(bytes "${BENCH_NC_SIZE:-64M}"); [ "$NB" -le "$RW_BYTES" ] || NB=$RW_BYTES
	t_ok nc-mkfs famfs_fresh
	t_ok nc-file famfs_file $M/nc "$NB"
	log "BENCH setup nc=\"famfs mkfs --loglen 16M; famfs mkfile -Z -s SIZE, written with pwrite; read with pread, mount -o remount,coherent|noncoherent before each size\""
	for b in 4K 64K 2M; do
		for mode in coherent noncoherent; do
			t_ok nc-$mode-$b-remount nc_mode $mode
			TAG=nc-$mode- run nc-$mode-$b bench_dax rw -R -s "$NB" -b $b -r "$REPS" -k $STEP famfs=$M/nc
		done
	done
	if trace_have famfs/famfs_cache; then
		for mode in coherent noncoherent; do
			want=; [ $mode = coherent ] || want="read/invalidate=$NB"
			nc_mode $mode
			trace_on famfs/famfs_cache
			bench_dax rw -R -s "$NB" -b 2M famfs=$M/nc > /dev/null
			trace_off famfs/famfs_cache
			t_eq nc-$mode-traced "$want" "$(cache_counts)"
		done
	else
		trace_missing nc-traced "the famfs:famfs_cache tracepoint"
	fi
	nc_mode coherent
	if [ -f "$BASE_KO" ]; then
		# the same file, the same reads, under the famfs.ko before issue 18
		log "BENCH setup nc-base=\"the famfs.ko of main before issue 18: $(cat "${BASE_KO%.ko}.rev" 2>/dev/null)\""
		umount $M
		if rmmod famfs && insmod "$BASE_KO"; then
			t_ok nc-base-mount famfs mount "$FAMFS_DEV" $M
			for b in 4K 64K 2M; do
				TAG=nc-base- run nc-base-$b bench_dax rw -R -s "$NB" -b $b -r "$REPS" -k $STEP famfs=$M/nc
			done
			umount $M
		else
			t_fail nc-base-insmod "the baseline famfs.ko did not load"
		fi
		rmmod famfs 2>/dev/null
		t_ok nc-famfs-ko-back insmod "$FAMFS_KO"
	fi
fi

# ---- scale (issue 17): before -> after at 1k, 10k, 100k log entries ---------
# First a small file system (two files) on logs of 8 MiB, 256 MiB (1M
# compact slots) and 1 GiB, three times over, this tree's tool only: what a
# large log costs when it holds little ("BENCH scale-loglen what=...
# loglen=L ns=..."; the report takes each figure's minimum, as a guest's
# timer work now and then lands in one run: +1.2 M seen).
# Then one famfs with a 32 MiB log (room for 100k short entries).  Entries are
# directories (famfs mkdir, many per command through xargs; a file takes a
# 2 MiB unit), plus the files below.  At each step, with the tool of this
# tree (after) and the tool of an earlier main (before, when
# build/bench-base/famfs-cli was built; same boot, same log): one famfs
# mkfile in a new process, famfs logplay with nothing to do, famfs mount
# (after umount: a whole replay), famfs cp of BENCH_SCALE_CP 4 KiB files.
# Lines: "BENCH scale what=... tool=before|after step=S entries=E n=ITEMS
# ns=..." (E: the entries in the log when it ran).
if echo " $PARTS " | grep -q ' scale '; then
	STEPS=$(echo "${BENCH_SCALE:-1000,10000,100000}" | tr , " ")
	SCP=${BENCH_SCALE_CP:-20}
	# sc WHAT TOOL N T0 T1: one figure at $have entries
	sc() { log "BENCH scale what=$1 tool=$2 step=$step entries=$have n=$3 ns=$(($5 - $4))"; }
	tools=after; [ -x /tmp/bin/famfs-before ] && tools="before after"
	log "BENCH scale-setup tools=\"$tools\" before=\"$(cat "$FAMFS_SRC/build/bench-base/famfs-cli.rev" 2>/dev/null)\""
	tool() { [ "$1" = before ] && echo famfs-before || echo famfs; }
	umount $M 2>/dev/null
	for r in 1 2 3; do for L in 8M 256M 1G; do
		ll() { log "BENCH scale-loglen what=$1 loglen=$L ns=$(($3 - $2))"; }
		c=scale-loglen-$L-$r
		t_ok $c-mkfs sh -c "famfs mkfs -f --loglen $L $FAMFS_DEV > /dev/null"
		t0=$(now); famfs mount "$FAMFS_DEV" $M; rc=$?; t1=$(now)
		t_eq $c-mount-empty 0 $rc; ll mount-empty "$t0" "$t1"
		t0=$(now); famfs mkfile -s 4K $M/f0; rc=$?; t1=$(now)
		t_eq $c-create-first 0 $rc; ll create-first "$t0" "$t1"
		t0=$(now); famfs mkfile -s 4K $M/f1; rc=$?; t1=$(now)
		t_eq $c-create 0 $rc; ll create "$t0" "$t1"
		t0=$(now); famfs logplay $M > /dev/null; rc=$?; t1=$(now)
		t_eq $c-logplay-noop 0 $rc; ll logplay-noop "$t0" "$t1"
		umount $M
		t0=$(now); famfs mount "$FAMFS_DEV" $M; rc=$?; t1=$(now)
		t_eq $c-mount 0 $rc; ll mount "$t0" "$t1"
		umount $M
	done; done
	t_ok scale-mkfs sh -c "famfs mkfs -f --loglen 32M $FAMFS_DEV > /dev/null"
	t_ok scale-mount famfs mount "$FAMFS_DEV" $M
	rm -rf /tmp/scsrc; mkdir /tmp/scsrc
	i=0; while [ $i -lt "$SCP" ]; do head -c 4096 /dev/urandom > /tmp/scsrc/s$i; i=$((i + 1)); done
	have=0 ndirs=0 step=0
	for w in $tools; do	# at an empty log
		t0=$(now); $(tool $w) mkfile -s 4K $M/e-$w; rc=$?; t1=$(now)
		t_eq scale-create-empty-$w 0 $rc
		sc create $w 1 "$t0" "$t1"; have=$((have + 1))
	done
	# many paths per command: 200 directories through xargs with each tool
	# (before: one opening per directory), 20 files in one famfs mkfile
	for w in $tools; do
		t0=$(now)
		seq 0 199 | sed "s|^|$M/x$w|" | xargs $(tool $w) mkdir
		rc=$?; t1=$(now)
		t_eq scale-mkdir-xargs-$w 0 $rc
		sc mkdir-xargs $w 200 "$t0" "$t1"; have=$((have + 200))
	done
	t0=$(now); famfs mkfile -s 4K $(seq 0 19 | sed "s|^|$M/mb|"); rc=$?; t1=$(now)
	t_eq scale-mkfile-batch 0 $rc
	sc mkfile-batch after 20 "$t0" "$t1"; have=$((have + 20))
	for n in $STEPS; do
		step=$n
		# directories up to n entries, 2000 to a command
		t0=$(now)
		seq $ndirs $((ndirs + n - have - 1)) | sed "s|^|$M/d|" | xargs -n 2000 famfs mkdir
		rc=$?; t1=$(now)
		t_eq scale-$n-mkdir 0 $rc
		sc mkdir-batch after $((n - have)) "$t0" "$t1"
		ndirs=$((ndirs + n - have)) have=$n
		t_eq scale-$n-entries $n "$(famfs df -j $M | jget .log.entries)"
		for w in $tools; do
			f=$(tool $w)
			t0=$(now); $f mkfile -s 4K $M/c$n-$w; rc=$?; t1=$(now)
			t_eq scale-$n-create-$w 0 $rc
			sc create $w 1 "$t0" "$t1"; have=$((have + 1))
			t0=$(now); $f logplay $M > /dev/null; rc=$?; t1=$(now)
			t_eq scale-$n-logplay-noop-$w 0 $rc
			sc logplay-noop $w $have "$t0" "$t1"
			umount $M
			t0=$(now); $f mount "$FAMFS_DEV" $M; rc=$?; t1=$(now)
			t_eq scale-$n-mount-$w 0 $rc
			sc mount $w $have "$t0" "$t1"
			famfs mkdir $M/cp$n-$w; have=$((have + 1))
			t0=$(now); $f cp /tmp/scsrc/* $M/cp$n-$w/; rc=$?; t1=$(now)
			t_eq scale-$n-cp-$w "0 $SCP" "$rc $(ls $M/cp$n-$w | wc -l)"
			sc cp $w "$SCP" "$t0" "$t1"; have=$((have + SCP))
		done
	done
	umount $M
fi

# ---- 1 GiB (PUD) mappings (issue 31) -------------------------------------
# famfs with 1 GiB mappings (famfs-1g: a file on a GiB boundary, famfs
# mkfile --align 1g) against device-dax with align=1G (devdax-1g, the
# physical limit at that page size) and famfs with 2 MiB mappings (famfs-2m:
# the same size placed --align none, first fit after the log, at no GiB
# boundary: famfs.ko falls back to 2 MiB faults), all on the same kind of
# memory (slots 4 and 5 of profiles/bench.sh).  Exact counts (faults per
# GiB: 1 vs 512, checked), the mmap passes side by side in one bench_dax run
# (instructions per GiB under -icount), the first fault of a mapping timed
# alone (instructions per fault), and the cost of mapping a
# BENCH_PUD_BIG file in BENCH_PUD_PROCS processes (bench_dax share): faults,
# page-table pages (VmPTE of the processes, exact; the guest's PageTables
# from /proc/meminfo, machine-wide), 1 GiB mappings against the same file
# mapped 2 MiB past a GiB boundary (2 MiB mappings).  The guest must offer
# pdpe1gb and both namespaces must be 1 GiB-aligned: FAIL, and nothing
# measured, if not.
GiB=1073741824
pud_ready() {	# the harness gives 1 GiB pages, or FAIL
	_ok=0
	if grep -qw pdpe1gb /proc/cpuinfo; then
		t_pass pud-pdpe1gb
	else
		t_fail pud-pdpe1gb "the guest CPU offers no 1 GiB pages (no pdpe1gb in /proc/cpuinfo): QEMU needs -cpu max (or +pdpe1gb)"
		_ok=1
	fi
	_d=/sys/bus/dax/devices/${BENCH_DEVDAX_1G#/dev/}
	t_eq pud-devdax-align-1g "$GiB" "$(cat $_d/align 2>/dev/null)"
	t_eq pud-devdax-data-1g-aligned 0 $(($(cat $_d/resource 2>/dev/null || echo 1) % GiB))
	_pfn=$(readlink -f /sys/block/${BENCH_PUD_DEV#/dev/}/device)
	t_eq pud-fsdax-align-1g "$GiB" "$(cat $_pfn/align 2>/dev/null)"
	t_eq pud-fsdax-data-1g-aligned 0 $(($(cat $_pfn/resource 2>/dev/null || echo 1) % GiB))
	[ "$(cat $_d/align 2>/dev/null)" = $GiB ] && [ "$(cat $_pfn/align 2>/dev/null)" = $GiB ] &&
		[ $(($(cat $_d/resource) % GiB)) = 0 ] && [ $(($(cat $_pfn/resource) % GiB)) = 0 ] || _ok=1
	_dsz=$(cat $_d/size 2>/dev/null || echo 0)
	t_eq pud-devdax-room 1 $((_dsz >= PB))
	[ "$_dsz" -ge "$PB" ] || _ok=1
	echo "pud: devdax-1g $BENCH_DEVDAX_1G: $_dsz bytes at $(cat $_d/resource 2>/dev/null); famfs $BENCH_PUD_DEV on $_pfn at $(cat $_pfn/resource 2>/dev/null)"
	return $_ok
}
# pud_off FILE: the device offset of FILE's first extent
pud_off() { famfs getmap -j "$1" | jget .extents[0].offset; }
if echo " $PARTS " | grep -q ' pud '; then
	PB=$(bytes "${BENCH_PUD_SIZE:-1G}") BIGB=$(bytes "${BENCH_PUD_BIG:-16G}")
	NP=${BENCH_PUD_PROCS:-8}
	P=/mnt/famfs-pud
	mkdir -p $P
	if [ $((PB % GiB)) != 0 ] || [ $((BIGB % GiB)) != 0 ] || [ "$PB" = 0 ] || [ "$BIGB" = 0 ]; then
		t_fail pud-sizes "BENCH_PUD_SIZE ($PB) and BENCH_PUD_BIG ($BIGB) must be whole GiBs"
	elif pud_ready; then
		n=$((PB / GiB)) nb=$((BIGB / GiB))
		t_ok pud-mkfs sh -c "famfs mkfs -f --loglen 16M $BENCH_PUD_DEV > /dev/null"
		t_ok pud-mount famfs mount "$BENCH_PUD_DEV" $P
		# famfs-2m first: first fit right after the log
		t_ok pud-2m-file sh -c "famfs mkfile -Z --align none -s $PB $P/f2m && bench_dax prep -s $PB $P/f2m"
		t_ok pud-1g-file sh -c "famfs mkfile -Z --align 1g -s $PB $P/f1g && bench_dax prep -s $PB $P/f1g"
		t_ok pud-big-file famfs mkfile -Z --align 1g -s "$BIGB" $P/big
		o2=$(pud_off $P/f2m) o1=$(pud_off $P/f1g) ob=$(pud_off $P/big)
		t_eq pud-2m-not-on-a-gib 1 $((o2 % GiB != 0))
		t_eq pud-1g-on-a-gib 0 $((o1 % GiB))
		t_eq pud-big-on-a-gib 0 $((ob % GiB))
		log "BENCH setup pud=\"devdax-1g: $BENCH_DEVDAX_1G, ndctl create-namespace -m devdax --align=1G --map=mem, mmap at offset 0;" \
			"famfs-1g and famfs-2m: $BENCH_PUD_DEV, fsdax --align=1G --map=mem, famfs mkfs --loglen 16M;" \
			"famfs-2m: famfs mkfile -Z --align none -s SIZE (device offset $o2); famfs-1g: famfs mkfile -Z --align 1g -s SIZE (offset $o1); both written with pwrite;" \
			"share: famfs mkfile -Z --align 1g -s $BIGB (offset $ob), mapped in $NP processes\""
		log "BENCH pud-config size=$PB big=$BIGB procs=$NP devdax1g=$BENCH_DEVDAX_1G famfs=$BENCH_PUD_DEV"
		# the DAX entries of both files exist, and the device-dax memory
		# is touched (the host gives it memory then, not in a pass)
		bench_dax counts -W -s "$PB" f=$P/f1g > /dev/null
		bench_dax counts -W -s "$PB" f=$P/f2m > /dev/null
		U="devdax-1g=$BENCH_DEVDAX_1G famfs-1g=$P/f1g famfs-2m=$P/f2m"
		for tgt in $U; do
			TAG=pud- run pud-counts-${tgt%%=*} bench_dax counts -s "$PB" "$tgt"
			grep '^BENCH counts' /tmp/bench.out > /tmp/counts-${tgt%%=*}
		done
		check_counts pud-count-devdax-1g /tmp/counts-devdax-1g devdax-1g "$PB" \
			cold-read:minflt=$n warm-read:minflt=0 cold-write:minflt=$n warm-write:minflt=0
		for p in cold-read cold-write; do
			check_counts pud-count-famfs-1g /tmp/counts-famfs-1g famfs-1g "$PB" \
				$p:minflt=$n $p:pud_nopage=$n $p:pud_fallback=0 $p:pmd_nopage=0 $p:pmd_fallback=0 $p:pte=0
			check_counts pud-count-famfs-2m /tmp/counts-famfs-2m famfs-2m "$PB" \
				$p:minflt=$((n * 512)) $p:pud_nopage=0 $p:pud_fallback=$n $p:pmd_nopage=$((n * 512)) $p:pmd_fallback=0 $p:pte=0
		done
		for t in famfs-1g famfs-2m; do
			check_counts pud-count-$t /tmp/counts-$t $t "$PB" warm-read:minflt=0 warm-write:minflt=0
		done
		TAG=pud- run pud-mmap bench_dax mmap -s "$PB" -r "$REPS" -k $STEP $U
		# one first fault alone (a pass's noise is a few thousand
		# instructions: more than one 1 GiB fault costs)
		TAG=pud- run pud-fault bench_dax fault -s "$PB" -r 20 $U
		for t in devdax-1g famfs-1g famfs-2m; do
			for op in read write; do
				t_eq pud-fault-$t-$op-faults 1 "$(field /tmp/bench.out "^BENCH fault target=$t .* op=$op " minflt)"
			done
		done
		# the cost of mapping BIGB in NP processes: 1 GiB mappings where
		# famfs puts them, 2 MiB mappings 2 MiB past a GiB boundary
		TAG=pud- run pud-share-1g bench_dax share -n "$NP" -s "$BIGB" famfs-1g=$P/big
		grep '^BENCH share' /tmp/bench.out > /tmp/share-1g
		TAG=pud- run pud-share-2m bench_dax share -n "$NP" -s "$BIGB" -o 2M famfs-2m=$P/big
		grep '^BENCH share' /tmp/bench.out > /tmp/share-2m
		for v in 1g:$((NP * nb)):$((NP * nb)):0:0:0 2m:$((NP * nb * 512)):0:$((NP * (nb + 1))):$((NP * nb * 512)):$((NP * (nb + 1) * 4)); do
			set -- $(echo "$v" | tr : ' ')
			w=$1 f=$2 pn=$3 pf=$4 mn=$5 vk=$6
			l=$(cat /tmp/share-$w)
			g() { echo "$l" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
			t_eq pud-share-$w-counts "minflt=$f pud=$pn/$pf pmd=$mn/0 pte=0 vmpte_kb=+$vk" \
				"minflt=$(g minflt) pud=$(g pud_nopage)/$(g pud_fallback) pmd=$(g pmd_nopage)/$(g pmd_fallback) pte=$(g pte) vmpte_kb=+$(($(g vmpte_kb_after) - $(g vmpte_kb_before)))"
		done
		umount $P
	fi
fi

# ---- small files (issue 30): suites/bench/small.sh ---------------------------
. "$FAMFS_SRC/tests/qemu/suites/bench/small.sh"

# ---- rm, and the replay of DELETE, RENAME, SETATTR (issue 29): suites/bench/lifecycle.sh
. "$FAMFS_SRC/tests/qemu/suites/bench/lifecycle.sh"

umount $M 2>/dev/null
umount $E 2>/dev/null
exit 0
