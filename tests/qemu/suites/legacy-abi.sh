# profiles: pmem nvdimm-devdax
# timeout: 400
# famfs-cli against the ioctl ABI of the 2024 famfs module, as that module
# implemented it: famfs.ko built with FAMFS_LEGACY_ABI=y (tests/qemu/Makefile,
# target legacy; fs/famfs/ioctl.c, famfs_legacy_ioctl) has numbers 1..4
# only, its MAP_GET fills in file_size and ext_list_count alone and the
# extents come from MAP_GETEXT.  What v1 expresses works: files of 1 and 2
# extents (mkfile, cp), getmap (text, -j), check, logplay (twice), fsck,
# remount.  What it cannot (interleaved, more than 2 extents) is refused
# before anything is logged, naming the missing v2 ioctls.  A log entry
# that a v2 famfs.ko wrote is reported by mount and logplay with the same
# reason.  The real famfs.ko is loaded again at the end.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
MiB=1048576
LEGACY_KO=$FAMFS_SRC/tests/qemu/build/legacy/fs/famfs/famfs.ko
REAL_KO=$FAMFS_KO
SRC=/tmp/legacy-src
export FAMFS_HOST_ID_FILE=/tmp/legacy-host-uuid
mkdir -p $M $SRC

j() { echo "$OUT" | jget "$@"; }	# j [-n] PATH: from the last t_rc
entries() { famfs fsck -j $M | jget .entries; }
# the log header's next_index (bytes 16..23 of .meta/.log), not through the tool
next_index() { devpat -b dump $M/.meta/.log 16 8 | cut -d' ' -f2-; }
# dir_entry I: rewrite log entry I (CRC right) as a directory, which owns
# no memory, through .meta/.log (as cli.sh's fragmented case does on DEV)
dir_entry() {
	_e=$((1024 + $1 * 1024))
	export HOSTILE_LOG_BASE=0
	_l=$M/.meta/.log
	hostile_corrupt $_l set $((_e + 12)) 2 2 && hostile_corrupt $_l set $((_e + 32)) 8 0 &&
		hostile_corrupt $_l set $((_e + 48)) 4 493 &&
		hostile_corrupt $_l set $((_e + 60)) 2 0 && hostile_corrupt $_l set $((_e + 62)) 2 0 &&
		hostile_corrupt $_l fill $((_e + 64)) 16 0 && hostile_corrupt $_l crc $1
}
# load KO: famfs.ko from KO instead of the loaded one (nothing mounted)
load() {
	umount $M 2>/dev/null
	rmmod famfs && insmod "$1" || return 1
	[ "$FAMFS_DEV_MODE" = devdax ] || return 0
	famfs bind $DEV >/dev/null
}
fresh() {	# new file system, mounted
	umount $M 2>/dev/null
	famfs mkfs -f --log-format=v1 $DEV >/dev/null && famfs mount $DEV $M
}

famfs_loaded || exit 0
if [ ! -f "$LEGACY_KO" ]; then
	t_fail legacy-ko "$LEGACY_KO is not built (run.sh builds it: make -C tests/qemu legacy)"
	exit 0
fi
t_ok load-legacy load "$LEGACY_KO"

# ---- the module answers as the 2024 one did ----------------------------------
t_ok mkfs famfs mkfs -f $DEV
t_rc mount 0 famfs mount $DEV $M
PFX=abi/ run_prog legacy_abi $M
PFX=

# ---- what v1 expresses --------------------------------------------------------
t_ok mkfs-again fresh
dd if=/dev/urandom of=$SRC/odd bs=1000 count=5300 2>/dev/null	# 5.05 MiB
echo hello > $SRC/hello
t_rc mkfile 0 famfs mkfile -s 3m -S 7 $M/one
t_rc cp 0 famfs cp $SRC/odd $M/odd
t_rc mkdir 0 famfs mkdir -p $M/d/e
t_rc cp-small 0 famfs cp $SRC/hello $M/d/e/hello
t_rc getmap 0 famfs getmap $M/one
t_has getmap-size "size: 3145728"
t_has getmap-simple "extent type: simple"
t_has getmap-extent "0: offset 0x"
t_rc getmap-json 0 famfs getmap -j $M/odd
t_eq json-size 5300000 "$(j .size)"
t_eq json-simple simple "$(j .extent_type)"
t_eq json-one-extent 1 "$(j -n .extents)"
t_eq json-length $((6 * MiB)) "$(j .extents[0].length)"
t_rc getmap-log 0 famfs getmap $M/.meta/.log
t_rc getmap-unmapped 2 sh -c ": > $M/plain && famfs getmap $M/plain"
t_has getmap-unmapped-says "not mapped"
rm -f $M/plain
t_rc check 0 famfs check $M
t_rc logplay 0 famfs logplay $M
t_rc logplay-again 0 famfs logplay $M
t_rc fsck 0 famfs fsck $M
t_rc verify 0 famfs verify -S 7 $M/one
t_ok cp-bytes cmp $SRC/odd $M/odd
umount $M
t_rc remount 0 famfs mount $DEV $M
t_rc remount-verify 0 famfs verify -S 7 $M/one
t_ok remount-cp-bytes cmp $SRC/hello $M/d/e/hello
t_rc remount-check 0 famfs check $M
t_rc remount-logplay 0 famfs logplay $M

# ---- interleaved: refused before it is logged ---------------------------------
n=$(entries) ni=$(next_index)
t_ok next-index-readable test -n "$ni" -a -n "$n"
t_rc creat-n2 2 famfs creat -N 2 -s 4m $M/striped
t_has creat-n2-says-v2 "lacks the v2 ioctls"
t_rc cp-n2 2 famfs cp -N 2 $SRC/hello $M/striped-cp
t_has cp-n2-says-v2 "lacks the v2 ioctls"
t_ok interleave-nothing-created test ! -e $M/striped -a ! -e $M/striped-cp
t_eq interleave-nothing-logged "$n" "$(entries)"
t_eq interleave-next-index-unchanged "$ni" "$(next_index)"
t_rc interleave-fsck 0 famfs fsck $M
t_rc interleave-logplay 0 famfs logplay $M

# ---- fragmented free space: 2 extents work, more are refused ------------------
# famfs has no delete, and a corrupt entry keeps its memory: twelve 2 MiB
# files, entries 1 3 5 7 9 rewritten as directories: five one-unit holes,
# the tail filled.  4 MiB fits in 2 extents (v1); 6 MiB needs 3.
t_ok frag-fresh fresh
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do famfs mkfile -s 2m -S $i $M/f$i; done
for i in 1 3 5 7 9; do dir_entry $i || t_fail frag-holes "could not turn entry $i into a directory"; done
umount $M
t_rc frag-mount 0 famfs mount $DEV $M
t_ok frag-holes test -d $M/f1 -a -f $M/f2
free=$(famfs df -j $M | jget .free)
t_rc frag-fill 0 famfs mkfile -s $((free - 10 * MiB)) $M/fill
t_rc frag-two 0 famfs mkfile -s 4m -S 42 $M/two
t_rc frag-two-getmap 0 famfs getmap -j $M/two
t_eq frag-two-extents 2 "$(j -n .extents)"
t_rc frag-two-verify 0 famfs verify -S 42 $M/two
n=$(entries) ni=$(next_index)
t_rc frag-three 2 famfs mkfile -s 6m $M/three
t_has frag-three-says-v2 "lacks the v2 ioctls"
t_has frag-three-says-extents "3 extents"
t_ok frag-three-not-created test ! -e $M/three
t_eq frag-three-nothing-logged "$n" "$(entries)"
t_eq frag-three-next-index-unchanged "$ni" "$(next_index)"
# the memory it did not take is still there: one 2 MiB hole each
t_rc frag-after-one 0 famfs cp $SRC/hello $M/after
t_rc frag-check 0 famfs check $M
t_rc frag-logplay 0 famfs logplay $M
t_rc frag-fsck 0 famfs fsck $M
t_eq frag-no-multi-extent-feature 0 "$(hostile_corrupt $M/.meta/.superblock get 20 4)"
umount $M
t_rc frag-remount 0 famfs mount $DEV $M
t_rc frag-remount-verify 0 famfs verify -S 42 $M/two

# ---- an entry a v2 famfs.ko logged: reported, the rest replayed ---------------
t_ok v2-load-real load "$REAL_KO"
t_ok v2-fresh fresh
t_rc v2-creat 0 famfs creat -N 2 -s 4m $M/striped
# -T 0: 2 MiB units, which a v1-only famfs.ko maps (page extents need
# MAP_CREATE_V3)
t_rc v2-plain 0 famfs mkfile -T 0 -s 1m -S 3 $M/plain
umount $M
t_ok v2-load-legacy load "$LEGACY_KO"
t_rc v2-mount-reports 0 famfs mount $DEV $M
t_has v2-mount-says-v2 "lacks the v2 ioctls"
t_rc v2-plain-replayed 0 famfs verify -S 3 $M/plain
t_ok v2-striped-not-created test ! -e $M/striped
t_rc v2-logplay-reports 2 famfs logplay $M
t_has v2-logplay-says-v2 "lacks the v2 ioctls"

umount $M 2>/dev/null
t_ok load-real load "$REAL_KO"
t_ok no-kernel-warnings no_warnings
exit 0
