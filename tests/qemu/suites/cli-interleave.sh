# profiles: pmem nvdimm-devdax two-hosts two-hosts-devdax
# timeout: 400
# Interleaved (striped) files through famfs-cli: creat/cp -N NSTRIPS -C CHUNK,
# getmap (text and JSON), data written through a mapping and every chunk
# found on the device at its strip's offset (stripe_check, which walks the
# chunks itself), fsck/check/df, a remount (log replay) with the same map
# and bytes, bad -N/-C values refused as usage errors.  On two-hosts, a
# creates and b replays (mount, logplay, logplay --follow) and reads the
# same bytes.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
SRC=/tmp/ci-src
MiB=1048576
mkdir -p $M $SRC

j() { echo "$OUT" | jget "$@"; }	# j [-t|-k|-n] PATH: from the last t_rc
strips() {	# strips FILE: the strip offsets of its map, space-separated
	_m=$(famfs getmap -j "$1") || return 1
	_n=$(echo "$_m" | jget .extents[0].nstrips) || return 1
	_i=0 _s=""
	while [ $_i -lt "$_n" ]; do
		_s="$_s $(echo "$_m" | jget .extents[0].strips[$_i].offset)"
		_i=$((_i + 1))
	done
	echo $_s
}
entries() { famfs fsck -j $M | jget .entries; }

# devdax: famfs mounts /dev/daxX.Y only while it is bound to famfs.ko; the
# device check maps it back under device_dax after the umount.
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV" >/dev/null
check_on_device() {	# check_on_device ID SIZE SEED CHUNK OFFSETS...: unmounted
	_id=$1; shift
	t_rc "$_id" 0 stripe_check dev $DEV "$@"
}

dd if=/dev/urandom of=$SRC/odd bs=1000 count=5300 2>/dev/null	# 5.05 MiB
dd if=/dev/urandom of=$SRC/small bs=1 count=777 2>/dev/null
mkdir -p $SRC/tree/sub
dd if=/dev/urandom of=$SRC/tree/a bs=65536 count=70 2>/dev/null
dd if=/dev/urandom of=$SRC/tree/sub/b bs=4096 count=3 2>/dev/null

case $FAMFS_PROFILE in two-hosts*) two=1 ;; *) two=0 ;; esac
if [ $two = 0 ]; then
	export FAMFS_HOST_ID_FILE=/tmp/ci-host-uuid
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M

	# superblock feature_incompat (offset 20): INTERLEAVE (0x01) is set by
	# the first interleaved file; COMPACT_LOG (0x04) by mkfs (the default
	# log format).  Read with O_DIRECT from the memory; not on device-dax,
	# which is bound to famfs.ko while mounted.
	incompat() { devpat -d dump $DEV 20 4 | cut -d' ' -f2-; }
	[ "$FAMFS_DEV_MODE" = fsdax ] && t_eq sb-incompat-before "04 00 00 00" "$(incompat)"

	# -- the seed's example: 4 strips of 2 MiB chunks, 24 MiB ----------------
	t_rc creat 0 famfs creat -N 4 -C 2M -s 24M $M/s
	[ "$FAMFS_DEV_MODE" = fsdax ] && t_eq sb-incompat-interleave "05 00 00 00" "$(incompat)"
	t_rc getmap-json 0 famfs getmap -j $M/s
	MAP=$OUT
	t_eq json-extent-type interleaved "$(j .extent_type)"
	t_eq json-size $((24 * MiB)) "$(j .size)"
	t_eq json-one-extent 1 "$(j -n .extents)"
	t_eq json-nstrips 4 "$(j .extents[0].nstrips)"
	t_eq json-chunk $((2 * MiB)) "$(j .extents[0].chunk_size)"
	t_eq json-nbytes $((24 * MiB)) "$(j .extents[0].length)"
	t_eq json-strips 4 "$(j -n .extents[0].strips)"
	t_eq json-strip-len $((6 * MiB)) "$(j .extents[0].strips[3].length)"
	S=$(strips $M/s)
	t_rc getmap-text 0 famfs getmap $M/s
	t_has getmap-text-type "extent type: interleaved"
	t_has getmap-text-geometry "4 strips, chunk size 0x200000"
	t_has getmap-text-strip "strip 3: offset 0x"
	t_rc write-mmap 0 stripe_check write $M/s 11
	t_rc read-back 0 stripe_check check $M/s 11

	# -- cp -N/-C, mkfile -S with -N, -N 1 -----------------------------------
	t_rc cp 0 famfs cp -N 3 -C 4M $SRC/odd $M/odd
	t_ok cp-bytes cmp $SRC/odd $M/odd
	t_rc cp-getmap 0 famfs getmap -j $M/odd
	t_eq cp-nstrips "3 $((4 * MiB)) $((4 * MiB))" \
		"$(j .extents[0].nstrips) $(j .extents[0].chunk_size) $(j .extents[0].strips[2].length)"
	ODD=$(strips $M/odd)
	t_rc cp-one-strip 0 famfs cp -N 1 $SRC/small $M/small
	t_ok cp-one-strip-bytes cmp $SRC/small $M/small
	t_rc cp-one-strip-map 0 famfs getmap -j $M/small
	t_eq cp-one-strip-interleaved "interleaved 1 $((2 * MiB))" \
		"$(j .extent_type) $(j .extents[0].nstrips) $(j .extents[0].chunk_size)"
	t_rc cp-r 0 famfs cp -r -N 2 $SRC/tree $M/
	t_ok cp-r-bytes sh -c "cmp $SRC/tree/a $M/tree/a && cmp $SRC/tree/sub/b $M/tree/sub/b"
	t_rc mkfile-seed 0 famfs creat -N 5 -C 6M -s 29m -S 77 $M/seeded
	t_rc verify-seed 0 famfs verify -S 77 $M/seeded
	t_rc plain 0 famfs creat -s 3m -S 5 $M/plain
	t_rc plain-simple 0 famfs getmap -j $M/plain
	t_eq plain-still-simple simple "$(j .extent_type)"

	# -- bad -N/-C: usage errors, nothing created or logged ---------------------
	n=$(entries)
	t_rc bad-n0 1 famfs creat -N 0 -s 1m $M/bad
	t_has bad-n0-says "1 to 16"
	t_rc bad-n17 1 famfs creat -N 17 -s 1m $M/bad
	t_rc bad-n-junk 1 famfs creat -N two -s 1m $M/bad
	t_rc bad-c3m 1 famfs creat -N 2 -C 3M -s 1m $M/bad
	t_has bad-c3m-says "multiple of 2 MiB"
	t_rc bad-c0 1 famfs creat -N 2 -C 0 -s 1m $M/bad
	t_rc bad-c-alone 1 famfs creat -C 4M -s 1m $M/bad
	t_has bad-c-alone-says "needs -N"
	t_rc bad-cp-n 1 famfs cp -N 99 $SRC/small $M/bad
	t_rc bad-cp-c 1 famfs cp -N 2 -C 1k $SRC/small $M/bad
	t_ok bad-nothing-created test ! -e $M/bad
	t_eq bad-nothing-logged "$n" "$(entries)"
	# no room: all or nothing
	t_rc full 2 famfs creat -N 16 -C 64M -s 2G $M/huge
	t_has full-says "device full"
	t_ok full-nothing-created test ! -e $M/huge
	t_eq full-nothing-logged "$n" "$(entries)"

	# -- fsck, check, df ------------------------------------------------------
	t_rc fsck 0 famfs fsck $M
	t_rc fsck-json 0 famfs fsck -j $M
	t_eq fsck-clean true "$(j .clean)"
	used=$(j .used)
	# s 24 + odd 12 + small 2 + a 2*4 + b 2*2 + seeded 5*6 + plain 4 MiB
	t_eq fsck-used-counts-strips $(((24 + 12 + 2 + 8 + 4 + 30 + 4) * MiB)) "$used"
	t_rc df 0 famfs df -j $M
	t_eq df-used-counts-strips "$used" "$(j .used)"
	t_rc check 0 famfs check -v $M
	t_has check-interleaved "s: ok (25165824 bytes, interleaved)"

	# -- remount: log replay gives the same maps and bytes ------------------------
	umount $M
	t_rc remount 0 famfs mount $DEV $M
	t_rc remount-getmap 0 famfs getmap -j $M/s
	t_eq remount-same-map "$MAP" "$OUT"
	t_rc remount-read 0 stripe_check check $M/s 11
	t_ok remount-cp-bytes cmp $SRC/odd $M/odd
	t_rc remount-verify 0 famfs verify -S 77 $M/seeded
	t_rc remount-fsck 0 famfs fsck $M
	t_rc remount-logplay 0 famfs logplay -n $M
	t_has remount-logplay-nothing "0 files and 0 directories to create"
	umount $M

	# -- every chunk on the device at its strip's offset -----------------------
	[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind -u "$DEV" >/dev/null
	check_on_device dev-chunks $((24 * MiB)) 11 2M $S
	set -- $S
	t_rc dev-chunks-elsewhere-fail 1 stripe_check dev $DEV $((24 * MiB)) 11 2M $2 $1 $3 $4
	exit 0
fi

# ---- two hosts: a is the master, b a client -----------------------------------
if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc creat 0 famfs creat -N 4 -C 2M -s 24M $M/s
	t_rc write-mmap 0 stripe_check write $M/s 21
	t_rc cp 0 famfs cp -N 3 -C 4M $SRC/odd $M/odd
	md5sum < $M/odd > "$FAMFS_SYNC/ci-a-sum"
	famfs getmap -j $M/s > "$FAMFS_SYNC/ci-a-map"
	sync_post ci-a-ready
	sync_wait ci-b-mounted 180 || exit 0
	t_rc creat-later 0 famfs creat -N 2 -C 4M -s 13m -S 99 $M/later
	sync_post ci-a-more
	sync_wait ci-b-following 180 || exit 0
	t_rc creat-followed 0 famfs creat -N 16 -s 40m -S 55 $M/followed
	sync_post ci-a-followed
	sync_wait ci-b-done 180
	t_rc fsck-end 0 famfs fsck $M
	umount $M
	exit 0
fi

sync_wait ci-a-ready 240 || exit 0
t_rc client-mount 0 famfs mount $DEV $M
t_rc client-getmap 0 famfs getmap -j $M/s
t_eq client-same-map "$(cat "$FAMFS_SYNC/ci-a-map")" "$OUT"
t_rc client-read 0 stripe_check check $M/s 21
t_eq client-cp-bytes "$(cat "$FAMFS_SYNC/ci-a-sum")" "$(md5sum < $M/odd)"
t_rc client-creat-refused 2 famfs creat -N 2 -s 1m $M/from-b
t_has client-says-why "is a client; only the master"
t_rc client-fsck 0 famfs fsck $M
t_rc client-check 0 famfs check $M
sync_post ci-b-mounted
sync_wait ci-a-more 180 || { sync_post ci-b-done; exit 0; }
t_ok client-not-yet test ! -e $M/later
t_rc client-logplay 0 famfs logplay $M
t_rc client-later-bytes 0 famfs verify -S 99 $M/later
t_rc client-later-map 0 famfs getmap -j $M/later
t_eq client-later-geometry "interleaved 2 $((4 * MiB))" \
	"$(j .extent_type) $(j .extents[0].nstrips) $(j .extents[0].chunk_size)"
t_rc client-logplay-again 0 famfs logplay -n $M
t_has client-logplay-idempotent "0 files and 0 directories to create"

# logplay --follow picks up the next interleaved file as it is logged
famfs logplay --follow -i 100 $M > /tmp/ci-follow.out 2>&1 &
FP=$!
n=0
until grep -q '^famfs logplay: following' /tmp/ci-follow.out || [ $n -ge 100 ]; do
	sleep 0.1; n=$((n + 1))
done
sync_post ci-b-following
sync_wait ci-a-followed 180
n=0	# mapped, not only created: the follower makes the file, then maps it
until famfs getmap -q $M/followed || [ $n -ge 200 ]; do sleep 0.1; n=$((n + 1)); done
t_ok client-follow-sees-file famfs getmap -q $M/followed
t_rc client-follow-bytes 0 famfs verify -S 55 $M/followed
t_rc client-follow-map 0 famfs getmap -j $M/followed
t_eq client-follow-geometry "16 16" "$(j .extents[0].nstrips) $(j -n .extents[0].strips)"
n=0
until umount $M 2>/dev/null || [ $n -ge 50 ]; do sleep 0.1; n=$((n + 1)); done
n=0
while kill -0 $FP 2>/dev/null && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
if kill -0 $FP 2>/dev/null; then
	t_fail client-follow-exit "still following 5 s after umount"
	kill -KILL $FP
else
	wait $FP
	t_eq client-follow-exit 0 $?
fi
t_ok client-follow-no-conflicts sh -c "! grep -i 'conflict\|differs\|MAP_CREATE' /tmp/ci-follow.out | grep -v ' 0 conflicts'"
sync_post ci-b-done
exit 0
