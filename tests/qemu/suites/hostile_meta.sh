# profiles: pmem nvdimm-devdax
# timeout: 360
# Corrupted metadata on the real device (progs/hostile_corrupt.c, O_DIRECT
# on the unmounted device): bit flips and wrong values (CRC made right again)
# in the superblock, the log header, the first, a middle and the last log
# entry, entries that contradict each other, and torn appends (bytes past
# next_index, next_index at a garbage or half-written slot, next_index past
# capacity).  famfs fsck, famfs mount and famfs logplay must name what is
# wrong (message checked), exit 2 or 3 as documented (never a signal), never
# create a file from a corrupt entry, and keep every valid file with its
# bytes.  The same combinatorics, every bit, run on the host in
# tests/unit/test_hostile.c.  The log is a v1 log (1 KiB entries: the byte
# offsets below), then a compact log (256-byte slots, the default): one bit
# of every field of an entry's header and body, of an entry's second slot
# and of the zeros after its path, and wrong values with a right CRC
# (hostile_corrupt crc cSLOT); more in tests/unit/test_clog*.c and cli.sh.
# On devdax a subset of each section runs (every_case below; all of them
# with FAMFS_LONG=1), one SKIP line says so.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/tmp/hostile-meta
IMG=/tmp/hostile-meta.img
SUMS=/tmp/hostile-meta.sums
export FAMFS_HOST_ID_FILE=/tmp/hostile-host-uuid
mkdir -p $M
umount $M 2>/dev/null
# devdax: the device bound to famfs's dax-bus driver (the tool then reads
# and writes metadata through a mapping instead of O_DIRECT)
if [ "$FAMFS_DEV_MODE" = devdax ]; then
	dd=$(basename $DEV)
	t_ok devdax-bound dax_bind_famfs $dd
	DEVSIZE=$(cat /sys/bus/dax/devices/$dd/size)
else
	DEVSIZE=$(( $(cat /sys/block/$(basename $DEV)/size) * 512 ))
fi

C() { hostile_corrupt $DEV "$@" || t_fail corrupt-tool "hostile_corrupt $*"; }
HDR=2097152
E() { echo $((HDR + 1024 + $1 * 1024)); }	# log entry $1 (slot $1 + 1)

# ---- a file system to damage -------------------------------------------------
# entries: 0 f0, 1 d1, 2 d1/f1, 3 d1/d2, 4 d1/d2/f2, 5 f3, 6 f4, 7 f5
famfs mkfs -f --loglen 2m --log-format=v1 $DEV >/dev/null
famfs mount $DEV $M
famfs mkfile -s 1m -S 10 $M/f0 >/dev/null
famfs mkdir $M/d1 >/dev/null
famfs mkfile -s 3145733 -S 11 $M/d1/f1 >/dev/null
famfs mkdir $M/d1/d2 >/dev/null
famfs mkfile -s 4096 -S 12 $M/d1/d2/f2 >/dev/null
famfs mkfile -s 2m -S 13 $M/f3 >/dev/null
famfs mkfile -s 2097153 -S 14 $M/f4 >/dev/null
famfs mkfile -s 100 -S 15 $M/f5 >/dev/null
(cd $M && md5sum f0 d1/f1 d1/d2/f2 f3 f4 f5) > $SUMS
t_eq setup-entries "0 f0 1 d1 2 d1/f1 3 d1/d2 4 d1/d2/f2 5 f3 6 f4 7 f5" \
	"$(famfs fsck -v $M | sed -n 's/^entry \([0-9]*\): [a-z]* \([^ ]*\) .*/\1 \2/p' | tr '\n' ' ' | sed 's/ $//')"
umount $M
C save 0 4m $IMG
F3_OFF=$(hostile_corrupt $DEV get $(( $(E 5) + 64 )) 8)
ncases=0
# every_case: run the whole set.  On devdax, outside FAMFS_LONG=1, a
# representative subset of each section: the checks are the same code as on
# pmem, where every case runs; what devdax changes is how the tool reads and
# writes the metadata (through a mapping, not O_DIRECT), and the subset keeps
# each section's cases that depend on the device (its size, the torn
# appends, the memory of corrupt entries).
every_case() { [ "$FAMFS_DEV_MODE" != devdax ] || [ "${FAMFS_LONG:-0}" != 0 ]; }

restore() { C restore 0 $IMG; ncases=$((ncases + 1)); }
not_mounted() { ! grep -q " $M famfs " /proc/mounts; }

# bad_meta ID PATTERN: superblock or log header damaged: fsck 3 and mount 2,
# both saying PATTERN; nothing stays mounted.
bad_meta() {
	t_rc "$1-fsck" 3 famfs fsck $DEV
	t_has "$1-fsck-says" "$2"
	t_rc "$1-mount-refused" 2 famfs mount $DEV $M
	t_has "$1-mount-says" "$2"
	not_mounted || { t_fail "$1-left-mounted" "famfs mount failed but $M is mounted"; umount $M; }
}

# files_ok ID LOST...: mounted; every file but LOST has its bytes, LOST and
# nothing else is missing.
files_ok() {
	_id=$1; shift
	_sums=$(cat $SUMS)
	for _l in "$@"; do
		_sums=$(echo "$_sums" | grep -v "  $_l\$")
		[ -e "$M/$_l" ] && t_fail "$_id-no-file-from-corrupt-entry" "$M/$_l exists"
	done
	if _o=$(cd $M && echo "$_sums" | md5sum -c 2>&1); then t_pass "$_id-valid-files-intact"
	else t_fail "$_id-valid-files-intact" "$(echo "$_o" | grep -v ': OK' | head -n 3 | tr '\n' ' ')"; fi
	_n=$(cd $M && find . -path ./.meta -prune -o -type f -print | wc -l)
	t_eq "$_id-file-count" "$(echo "$_sums" | grep -c .)" "$_n"
}

# bad_entry ID IDX PATTERN LOST: log entry IDX is corrupt: fsck 3 names it,
# mount works and skips it, logplay 3 names it, LOST is missing, the rest
# intact.
bad_entry() {
	t_rc "$1-fsck" 3 famfs fsck $DEV
	t_has "$1-fsck-says" "log entry $2: .*$3"
	t_rc "$1-mount" 0 famfs mount $DEV $M
	t_has "$1-mount-warns" "corrupt entries skipped"
	t_rc "$1-logplay" 3 famfs logplay $M
	t_has "$1-logplay-says" "log entry $2 skipped: .*$3"
	files_ok "$1" $4
	umount $M
}

# finish: the untouched image is clean again; what was tried, what survived.
finish() {
	restore
	t_rc restored-fsck-clean 0 famfs fsck $DEV
	t_rc restored-mount 0 famfs mount $DEV $M
	files_ok restored
	umount $M
	nfail=$(grep -c "^FAIL $FAMFS_PROFILE/$FAMFS_SUITE/" "$FAMFS_OUT/results.txt")
	npass=$(grep -c "^PASS $FAMFS_PROFILE/$FAMFS_SUITE/" "$FAMFS_OUT/results.txt")
	if every_case; then
		echo "hostile_meta: $ncases corruptions tried ($1); $npass checks held, $nfail failed"
	else
		t_skip every-case "on devdax $ncases of the corruptions run (a subset of each section; pmem runs all of them, FAMFS_LONG=1 here too)"
		echo "hostile_meta: $ncases corruptions tried (a subset on devdax); $npass checks held, $nfail failed"
	fi
	exit 0
}

# ---- superblock ------------------------------------------------------------
restore; C flip 0 0;		bad_meta sb-magic-bit "bad magic"
if every_case; then
	restore; C flip 12 3;		bad_meta sb-crc-bit "superblock CRC mismatch"
	restore; C flip 40 0;		bad_meta sb-uuid-bit "superblock CRC mismatch"
	restore; C flip 66 1;		bad_meta sb-devsize-bit "superblock CRC mismatch"
	restore; C set 8 4 2; C crc sb;	bad_meta sb-version "unsupported format version 2"
fi
# a still unknown incompat bit (0x1 interleave and 0x2 multi-extent are known)
if every_case; then
	restore; C set 20 4 0x80000000; C crc sb; bad_meta sb-incompat "unknown incompatible features 0x80000000"
	restore; C set 28 4 20; C crc sb; bad_meta sb-alloc-shift "unsupported allocation unit shift 20"
	restore; C set 72 8 4194304; C crc sb; bad_meta sb-log-offset "bad log location"
	restore; C set 80 8 3145728; C crc sb; bad_meta sb-log-len "bad log location"
fi
restore; C set 64 8 $((DEVSIZE * 2)); C crc sb; bad_meta sb-devsize-big "exceeds the device"
restore; C set 64 8 4194304; C crc sb; bad_meta sb-devsize-small "too small for its log"
if every_case; then
	restore; C set 200 1 1; C crc sb; bad_meta sb-reserved "reserved superblock bytes"
fi
restore; C fill 0 512 0;	bad_meta sb-zeroed "bad magic"
if every_case; then
	restore; C random 0 512 7;	bad_meta sb-random "bad magic"
fi
# an unknown read-only-compatible feature (0x1, the master record, is known):
# readable, but nothing is created
restore; C set 24 4 0x80000001; C crc sb
t_rc sb-ro-compat-fsck 0 famfs fsck $DEV
t_rc sb-ro-compat-mount 0 famfs mount $DEV $M
t_rc sb-ro-compat-mkfile-refused 2 famfs mkfile -s 1 $M/new
t_has sb-ro-compat-says "unknown read-only-compatible features 0x80000000"
files_ok sb-ro-compat
umount $M

# ---- log header --------------------------------------------------------------
restore; C flip $HDR 0;		bad_meta hdr-magic-bit "no famfs log header"
if every_case; then
	restore; C flip $((HDR + 8)) 0;	bad_meta hdr-crc-bit "log header CRC mismatch"
	restore; C flip $((HDR + 40)) 2; bad_meta hdr-uuid-bit "log header CRC mismatch"
	restore; C set $((HDR + 12)) 4 512; C crc hdr; bad_meta hdr-entry-size "log header geometry"
	restore; C set $((HDR + 24)) 8 4095; C crc hdr; bad_meta hdr-capacity "log header geometry"
	restore; C set $((HDR + 32)) 8 4194304; C crc hdr; bad_meta hdr-log-len "log header geometry"
fi
restore; C flip $((HDR + 40)) 0; C crc hdr; bad_meta hdr-uuid "belongs to another file system"
if every_case; then
	restore; C set $((HDR + 100)) 1 1; C crc hdr; bad_meta hdr-reserved "reserved log header bytes"
fi
restore; C set $((HDR + 16)) 8 2048; bad_meta hdr-next-past-capacity "next index 2048 beyond capacity 2047"
restore; C fill $HDR 1024 0;	bad_meta hdr-zeroed "no famfs log header"

# ---- one bit of the first, a middle and the last entry -------------------------
restore; C flip $(E 0) 0;		bad_entry first-seq-bit 0 "CRC mismatch" f0
if every_case; then
	restore; C flip $(( $(E 0) + 330 )) 5;	bad_entry first-path-bit 0 "CRC mismatch" f0
	restore; C flip $(( $(E 0) + 67 )) 4;	bad_entry first-extent-bit 0 "CRC mismatch" f0
	restore; C flip $(( $(E 5) + 12 )) 0;	bad_entry middle-type-bit 5 "CRC mismatch" f3
	restore; C flip $(( $(E 5) + 33 )) 7;	bad_entry middle-size-bit 5 "CRC mismatch" f3
	restore; C flip $(( $(E 5) + 900 )) 1;	bad_entry middle-reserved-bit 5 "CRC mismatch" f3
fi
restore; C random $(E 5) 1024 5;	bad_entry middle-random 5 "CRC mismatch" f3
if every_case; then
	restore; C flip $(( $(E 7) + 8 )) 6;	bad_entry last-crc-bit 7 "CRC mismatch" f5
	restore; C flip $(( $(E 7) + 48 )) 2;	bad_entry last-mode-bit 7 "CRC mismatch" f5
fi
restore; C flip $(( $(E 7) + 1023 )) 7;	bad_entry last-final-byte-bit 7 "CRC mismatch" f5

# ---- wrong values with a right CRC (entry 5, f3) -----------------------------
E5=$(E 5)
mid() { restore; "$@"; C crc 5; }
mid C set $E5 8 9;			bad_entry seq 5 "sequence number 9 at index 5" f3
mid C flip $((E5 + 16)) 0;		bad_entry fs-uuid 5 "another file system" f3
if every_case; then
	mid C set $((E5 + 12)) 2 200;		bad_entry type-unknown 5 "unknown entry type 200" f3
	mid C set $((E5 + 12)) 2 9;		bad_entry type-hosts-no-bit 5 "HOSTS entry in a log without the host table feature" f3
fi
# types 3 (DEVADD) and 4 (EXTEND) need their feature bits
if every_case; then
	mid C set $((E5 + 12)) 2 3;		bad_entry type-devadd-no-bit 5 "without the multi-device feature" f3
	mid C set $((E5 + 12)) 2 4;		bad_entry type-extend-no-bit 5 "without the log-extend feature" f3
	mid C set $((E5 + 12)) 2 2;		bad_entry file-as-dir 5 "directory entry with size or extents" f3
	mid C set $((E5 + 14)) 2 1;		bad_entry flags 5 "reserved entry bytes" f3
	mid C set $((E5 + 48)) 4 33188;		bad_entry mode-type-bits 5 "bad mode" f3
fi
path5() { C str $((E5 + 328)) 512 "$1"; C set $((E5 + 320)) 2 ${#1}; }
if every_case; then
	mid path5 ../f3;			bad_entry path-dotdot 5 "'..' is not allowed" f3
	mid path5 .meta/.log;			bad_entry path-meta 5 "reserved .meta directory" f3
	mid path5 d1//f3;			bad_entry path-not-normal 5 "not in normal form" f3
	mid path5 d1/$(printf '%0256d' 0);	bad_entry path-name-256 5 "a name is longer than 255 bytes" f3
	mid C set $((E5 + 320)) 2 7;		bad_entry path-len 5 "path_len mismatch" f3
	mid C fill $((E5 + 328)) 512 97;	bad_entry path-no-nul 5 "not NUL-terminated" f3
	mid C set $((E5 + 428)) 1 65;		bad_entry path-tail-bytes 5 "bytes after the path" f3
	mid C set $((E5 + 64)) 8 $((F3_OFF + 4096)); bad_entry extent-unaligned 5 "not 2 MiB aligned" f3
	mid C set $((E5 + 64)) 8 0;		bad_entry extent-in-superblock 5 "overlaps the superblock or log" f3
	mid C set $((E5 + 64)) 8 2097152;	bad_entry extent-in-log 5 "overlaps the superblock or log" f3
fi
mid C set $((E5 + 64)) 8 $DEVSIZE;	bad_entry extent-past-device 5 "outside the device" f3
mid C set $((E5 + 72)) 8 0xffffffffffe00000; bad_entry extent-len-wraps 5 "outside the device" f3
if every_case; then
	mid C set $((E5 + 62)) 2 0;		bad_entry extent-count-0 5 "bad extent count 0" f3
	mid C set $((E5 + 62)) 2 17;		bad_entry extent-count-17 5 "bad extent count 17" f3
	mid C set $((E5 + 62)) 2 65535;		bad_entry extent-count-huge 5 "bad extent count 65535" f3
	mid C set $((E5 + 60)) 2 2;		bad_entry extent-type-interleaved 5 "without the interleave feature" f3
fi
# type 4: no such extent type (3 is a small file's pages since issue 30)
if every_case; then
	mid C set $((E5 + 60)) 2 4;		bad_entry extent-type-unknown 5 "unsupported extent type 4" f3
	mid C set $((E5 + 88)) 8 2097152;	bad_entry extent-unused-slot 5 "unused extent slots are not zero" f3
	mid C set $((E5 + 62)) 2 3;		bad_entry extent-count-3-no-feature 5 "3 extents in a log without the multi-extent feature" f3
fi
mid C set $((E5 + 32)) 8 2097153;	bad_entry size-past-extents 5 "smaller than the file" f3

# ---- memory of a corrupt entry is never handed out (R3, issue 15.1) -----------
NEXT() { hostile_corrupt $DEV get $((HDR + 16)) 8; }
# f3's entry with a bad CRC: what it owned is unknown, so the master
# allocates nothing (a directory takes no memory: still fine)
restore; C flip $(( $(E 5) + 400 )) 3
t_rc r3-unparsed-mount 0 famfs mount $DEV $M
t_rc r3-unparsed-mkfile-refused 2 famfs mkfile -s 2m $M/new
t_has r3-unparsed-says "log entry 5 cannot be parsed"
t_has r3-unparsed-says-fsck "run famfs fsck"
t_ok r3-unparsed-no-file test ! -e $M/new
t_rc r3-unparsed-mkdir 0 famfs mkdir $M/newdir
# df: what that entry may own is unknown, not free (and it says so)
t_rc r3-unparsed-df 0 famfs df $M
t_has r3-unparsed-df-warns "cannot be parsed"
t_eq r3-unparsed-df-free-0 0 "$(famfs df -j $M | jget .free)"
t_ok r3-unparsed-df-unknown [ "$(famfs df -j $M | jget .unknown)" -gt 0 ]
umount $M
t_eq r3-unparsed-one-entry-added 9 "$(NEXT)"
# f3's entry refused for its mode, CRC right: its extent still parses, so
# f3's memory stays taken (first fit would hand it out: it is the first hole)
mid C set $((E5 + 48)) 4 33188
t_rc r3-refused-mount 0 famfs mount $DEV $M
t_rc r3-refused-mkfile 0 famfs mkfile -s 2m -S 21 $M/new
t_rc r3-refused-getmap 0 famfs getmap -j $M/new
off=$(echo "$OUT" | jget .extents[0].offset)
t_ok r3-refused-offset-read [ -n "$off" ] && [ -n "$F3_OFF" ]
t_not r3-refused-not-f3-memory [ "$off" = "$F3_OFF" ]
umount $M

# ---- next_index damaged downward (R4, issue 15.3) -------------------------------
# next_index 5: entry 5 may be an uncommitted append (kept, not reported),
# 6 and 7 are committed entries past it: fsck names them, the master appends
# nothing, f3..f5 keep their memory
restore; C set $((HDR + 16)) 8 5
t_rc r4-fsck 3 famfs fsck $DEV
t_has r4-fsck-says-6 "log entry 6: committed entry past next_index 5"
t_has r4-fsck-says-7 "log entry 7: committed entry past next_index 5"
t_rc r4-mount 0 famfs mount $DEV $M
t_rc r4-mkfile-refused 2 famfs mkfile -s 2m $M/new
t_has r4-mkfile-says "log entry 6 is a valid committed entry past next_index 5"
t_rc r4-mkdir-refused 2 famfs mkdir $M/newdir
t_has r4-mkdir-says "past next_index 5"
files_ok r4 f3 f4 f5
umount $M
t_eq r4-log-unchanged 5 "$(NEXT)"

# ---- entries that contradict each other (each valid alone) --------------------
# f3's extent moved onto d1/f1's memory: fsck reports the sharing; the first
# logged file keeps its memory and bytes, f3 gets none.
mid C copy $(( $(E 2) + 64 )) $((E5 + 64)) 16
t_rc overlap-fsck 3 famfs fsck $DEV
t_has overlap-fsck-says "f3 (entry 5) shares memory with d1/f1"
t_rc overlap-mount 0 famfs mount $DEV $M
t_rc overlap-logplay-reports 2 famfs logplay $M
t_has overlap-logplay-says "f3: MAP_CREATE: Address already in use"
files_ok overlap f3
umount $M
# f3 logged under f0's name: the first entry wins
mid path5 f0
t_rc dup-fsck 3 famfs fsck $DEV
t_has dup-fsck-says "f0: logged twice (entry 5 and entry 0)"
t_rc dup-mount 0 famfs mount $DEV $M
t_rc dup-logplay 3 famfs logplay $M
t_has dup-logplay-says "logged twice (entries 0 and 5); entry 5 ignored"
files_ok dup f3
umount $M
# a file under a file
mid path5 f0/x
t_rc under-file-fsck 3 famfs fsck $DEV
t_has under-file-fsck-says "a file where a directory belongs"
t_rc under-file-mount 0 famfs mount $DEV $M
t_rc under-file-logplay 3 famfs logplay $M
t_has under-file-logplay-says "a file where a directory belongs"
files_ok under-file f3
umount $M

# ---- torn appends ---------------------------------------------------------------
# bytes in slot 8, past next_index (8): ignored
restore; C random $(E 8) 700 3
t_rc torn-past-next-fsck 0 famfs fsck $DEV
t_rc torn-past-next-mount 0 famfs mount $DEV $M
files_ok torn-past-next
umount $M
# a whole valid entry in slot 8, never committed: no file
restore; C copy $E5 $(E 8) 1024; C set $(E 8) 8 8
C str $(( $(E 8) + 328 )) 512 ghost; C set $(( $(E 8) + 320 )) 2 5; C crc 8
t_rc uncommitted-fsck 0 famfs fsck $DEV
t_rc uncommitted-mount 0 famfs mount $DEV $M
t_ok uncommitted-no-file test ! -e $M/ghost
files_ok uncommitted
umount $M
# next_index one past the last entry, at a zeroed slot / a half-written one
restore; C set $((HDR + 16)) 8 9;	bad_entry next-at-zeroes 8 "CRC mismatch"
restore; C copy $E5 $(E 8) 512; C set $(E 8) 8 8; C set $((HDR + 16)) 8 9
bad_entry next-at-half-entry 8 "CRC mismatch"
# next_index short of the last entry: f5 was never committed
restore; C set $((HDR + 16)) 8 7
t_rc next-short-fsck 0 famfs fsck $DEV
t_rc next-short-mount 0 famfs mount $DEV $M
files_ok next-short f5
umount $M
# next_index at capacity: 2039 slots of zeroes, each reported, files kept
restore; C set $((HDR + 16)) 8 2047
t_rc next-at-capacity-fsck 3 famfs fsck $DEV
t_has next-at-capacity-counts "2047 log entries (6 files, 2 directories, 2039 corrupt)"
t_rc next-at-capacity-mount 0 famfs mount $DEV $M
t_has next-at-capacity-mount-warns "2039 corrupt entries skipped"
files_ok next-at-capacity
umount $M

# ---- a compact log ----------------------------------------------------------------
# slots: 0 f0, 1 d1, 2-3 d1/L... (a 203-byte path: two slots), 4 f3, 5 f4, 6 f5
# Slot i is at 2 MiB + 1 KiB + 256 i: header seq 0, crc 8, type 12, nslots 14,
# flags 15; size 16, ctime 24, mode 32, uid 36, gid 40, extent_type 44,
# nextents 45, path_len 46; extent 0 at 48 (offset 48, len 56 in 2 MiB
# units, devindex 60); the path at 64, then zeros to the end of the entry.
S() { echo $((HDR + 1024 + $1 * 256)); }
LONG=d1/$(printf '%0200d' 0 | tr 0 L)
IMG=/tmp/hostile-meta-clog.img
SUMS=/tmp/hostile-meta-clog.sums
famfs mkfs -f --loglen 2m $DEV >/dev/null
famfs mount $DEV $M
famfs mkfile -s 1m -S 30 $M/f0 >/dev/null
famfs mkdir $M/d1 >/dev/null
famfs mkfile -s 3145733 -S 31 $M/$LONG >/dev/null
famfs mkfile -s 2m -S 33 $M/f3 >/dev/null
famfs mkfile -s 2097153 -S 34 $M/f4 >/dev/null
famfs mkfile -s 100 -S 35 $M/f5 >/dev/null
(cd $M && md5sum f0 $LONG f3 f4 f5) > $SUMS
t_eq c-setup-slots "0 f0 1 d1 2 $LONG 4 f3 5 f4 6 f5" \
	"$(famfs fsck -v $M | sed -n 's/^entry \([0-9]*\): [a-z]* \([^ ]*\) .*/\1 \2/p' | tr '\n' ' ' | sed 's/ $//')"
umount $M
C save 0 4m $IMG

# one bit of each field of the first entry (f0)
S0=$(S 0)
restore; C flip $S0 0;			bad_entry c-seq-bit 0 "sequence number 1 at slot 0" f0
if every_case; then
	restore; C flip $((S0 + 9)) 3;		bad_entry c-crc-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 12)) 2;		bad_entry c-type-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 14)) 1;		bad_entry c-nslots-bit 0 "CRC mismatch" f0
fi
restore; C flip $((S0 + 14)) 0;		bad_entry c-nslots-zero 0 "bad slot count 0 at slot 0" f0
if every_case; then
	restore; C flip $((S0 + 15)) 4;		bad_entry c-flags-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 18)) 1;		bad_entry c-size-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 24)) 0;		bad_entry c-ctime-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 33)) 1;		bad_entry c-mode-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 38)) 0;		bad_entry c-uid-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 41)) 2;		bad_entry c-gid-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 44)) 1;		bad_entry c-extent-type-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 45)) 0;		bad_entry c-nextents-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 46)) 3;		bad_entry c-path-len-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 53)) 5;		bad_entry c-extent-offset-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 56)) 0;		bad_entry c-extent-len-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 60)) 0;		bad_entry c-devindex-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 62)) 6;		bad_entry c-extent-reserved-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 64)) 2;		bad_entry c-path-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 66)) 0;		bad_entry c-path-nul-bit 0 "CRC mismatch" f0
	restore; C flip $((S0 + 255)) 7;	bad_entry c-final-byte-bit 0 "CRC mismatch" f0
fi
# the two-slot entry: its second slot, its last byte, its slot count
S2=$(S 2)
restore; C flip $((S2 + 300)) 3;	bad_entry c-second-slot-bit 2 "CRC mismatch" $LONG
if every_case; then
	restore; C flip $((S2 + 511)) 0;	bad_entry c-second-slot-final-bit 2 "CRC mismatch" $LONG
	restore; C flip $((S2 + 14)) 0;		bad_entry c-two-slots-as-three 2 "CRC mismatch" $LONG
fi
restore; C flip $((S2 + 14)) 1;		bad_entry c-two-slots-as-zero 2 "bad slot count 0 at slot 2" $LONG
# a middle and the last entry
if every_case; then
	restore; C flip $(( $(S 4) + 100 )) 1;	bad_entry c-middle-tail-bit 4 "CRC mismatch" f3
fi
restore; C random $(S 4) 256 5;		bad_entry c-middle-random 4 "at slot 4" f3
if every_case; then
	restore; C flip $(( $(S 6) + 8 )) 6;	bad_entry c-last-crc-bit 6 "CRC mismatch" f5
fi
restore; C flip $(( $(S 6) + 255 )) 7;	bad_entry c-last-final-byte-bit 6 "CRC mismatch" f5

# wrong values with a right CRC (slot 4, f3)
S4=$(S 4)
cmid() { restore; "$@"; C crc c4; }
cmid C set $S4 8 9;			bad_entry c-seq 4 "sequence number 9 at slot 4" f3
if every_case; then
	cmid C set $((S4 + 12)) 2 200;		bad_entry c-type-unknown 4 "unknown entry type 200" f3
	cmid C set $((S4 + 15)) 1 1;		bad_entry c-flags 4 "reserved entry bytes are not zero" f3
	cmid C set $((S4 + 255)) 1 65;		bad_entry c-tail-byte 4 "reserved entry bytes are not zero" f3
fi
cmid C set $((S4 + 45)) 1 17;		bad_entry c-nextents-17 4 "does not fit" f3
if every_case; then
	cmid C set $((S4 + 46)) 2 300;		bad_entry c-path-len-300 4 "path length 300" f3
	cmid C set $((S4 + 60)) 1 1;		bad_entry c-devindex-no-multidev 4 "an extent on device 1 in a log without the multi-device feature" f3
fi
cmid C set $((S4 + 56)) 4 0x7fffffff;	bad_entry c-extent-past-device 4 "outside the device" f3
# entries of another file system (a compact CRC is seeded with the fs
# uuid): the superblock and log header carry another uuid (byte 0 flipped
# in both), the entries are left as they were: every slot fails its CRC,
# all of them one corrupt entry; no file is created
restore; C flip 32 0; C crc sb; C flip $((HDR + 40)) 0; C crc hdr
t_rc c-other-fs-fsck 3 famfs fsck $DEV
t_has c-other-fs-fsck-says "log entry 0: CRC mismatch .*another file system's entry"
t_has c-other-fs-fsck-counts "1 log entries (0 files, 0 directories, 1 corrupt)"
t_rc c-other-fs-mount 0 famfs mount $DEV $M
t_eq c-other-fs-no-files 0 "$(cd $M && find . -path ./.meta -prune -o -print | grep -vc '^\.$\|^\./\.meta$')"
umount $M

finish "superblock 15, log header 10, entry bit flips 10, wrong values with a right CRC 25, memory of corrupt entries 2, next_index damaged down 1, contradicting entries 3, torn appends 6; compact log: bit flips 29, wrong values with a right CRC 8, another file system's entries 1"
