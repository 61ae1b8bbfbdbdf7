# profiles: pmem
# timeout: 400
# famfs-cli end to end on one host: mkfs, mount, mkfile/cp/mkdir, remount
# with the same tree and bytes, fsck/check/getmap/verify, device full, log
# full, a bad superblock CRC refused by mount, a corrupt log entry reported
# by fsck and skipped by logplay, client refusal, concurrent creators.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
SRC=/tmp/cli-src
export FAMFS_HOST_ID_FILE=/tmp/cli-host-uuid
mkdir -p $M

tree_sums() {	# path, size and md5 of every file under $M but .meta, sorted
	(cd $M && find . -path ./.meta -prune -o -type f -print | sort |
		while read -r f; do echo "$f $(stat -c %s "$f") $(md5sum < "$f" | cut -d' ' -f1)"; done
	 find . -path ./.meta -prune -o -type d -print | sort)
}
fresh() {	# fresh [mkfs args]: unmounted, new file system, mounted
	umount $M 2>/dev/null
	famfs mkfs -f "$@" $DEV >/dev/null && famfs mount $DEV $M
}

t_rc help-exit-codes 0 famfs --help
t_has help-documents-codes "3  the command ran to the end"
t_rc mkfile-help 0 famfs mkfile --help
t_rc usage-error 1 famfs mkfile
t_rc unknown-command 1 famfs frobnicate

# ---- mkfs -------------------------------------------------------------------
umount $M 2>/dev/null
t_rc mkfs-kill 0 famfs mkfs -k $DEV
t_rc mkfs 0 famfs mkfs $DEV
t_has mkfs-prints-uuid "master uuid $(cat $FAMFS_HOST_ID_FILE)"
t_rc mkfs-refuses-existing 2 famfs mkfs $DEV
t_has mkfs-refusal-says-why "already holds a famfs"
t_rc mkfs-loglen-not-pow2 1 famfs mkfs -f --loglen 3M $DEV
t_rc fsck-fresh-dev 0 famfs fsck $DEV

# ---- mount, populate ----------------------------------------------------------
t_rc mount 0 famfs mount $DEV $M
t_ok meta-files test -f $M/.meta/.superblock -a -f $M/.meta/.log
t_rc getmap-log 0 famfs getmap $M/.meta/.log
t_has getmap-log-type "type: log"
t_rc mount-twice-refused 2 famfs mount $DEV $M

rm -rf $SRC; mkdir -p $SRC/sub/deeper
dd if=/dev/urandom of=$SRC/three-mib bs=1024 count=3072 2>/dev/null
dd if=/dev/urandom of=$SRC/sub/odd bs=1 count=12345 2>/dev/null
echo hello > $SRC/sub/deeper/hello
: > $SRC/empty
dd if=/dev/urandom of=/tmp/cli-a bs=4096 count=3 2>/dev/null
dd if=/dev/urandom of=/tmp/cli-b bs=4096 count=5 2>/dev/null

t_rc mkdir-p 0 famfs mkdir -p $M/d1/d2/d3
t_rc mkdir-exists 2 famfs mkdir $M/d1
t_rc mkfile-seed 0 famfs mkfile -s 5m -m 0640 -S 77 $M/d1/seeded
t_rc creat-alias 0 famfs creat -s 4096 $M/d1/d2/small
t_rc mkfile-exists 2 famfs mkfile -s 1 $M/d1/seeded
t_rc mkfile-outside-famfs 2 famfs mkfile -s 1 /tmp/not-famfs
t_rc mkfile-dotdot 2 famfs mkfile -s 1 $M/d1/nothere/../x
long=$(printf '%0200d' 0)
t_rc mkfile-path-too-long 2 famfs mkfile -s 1 $M/$long/$long/$long
t_has mkfile-path-too-long-says-so "longer than 511 bytes"
t_eq mkfile-size 5242880 "$(stat -c %s $M/d1/seeded)"
t_eq mkfile-mode 640 "$(stat -c %a $M/d1/seeded)"
t_rc verify-seed 0 famfs verify -S 77 $M/d1/seeded
t_rc verify-wrong-seed 3 famfs verify -S 78 $M/d1/seeded
t_rc cp-recursive 0 famfs cp -r $SRC $M/tree
t_rc cp-several 0 famfs cp /tmp/cli-a /tmp/cli-b $M/d1/d2
t_rc cp-dir-without-r 2 famfs cp $SRC $M/tree2
t_ok cp-bytes cmp $SRC/three-mib $M/tree/three-mib
t_ok cp-bytes-odd cmp $SRC/sub/odd $M/tree/sub/odd
t_ok cp-bytes-several cmp /tmp/cli-b $M/d1/d2/cli-b
# from 9p (a read() straight into DAX pages oopsed 9p's zero-copy path)
t_rc cp-from-9p 0 famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/d1/format.h
t_ok cp-from-9p-bytes cmp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/d1/format.h
t_eq cp-empty 0 "$(stat -c %s $M/tree/empty)"
t_rc getmap-file 0 famfs getmap $M/tree/three-mib
t_has getmap-extent "0: offset 0x"
t_rc check-clean 0 famfs check $M
t_rc fsck-mounted-mpt 0 famfs fsck $M
t_rc fsck-mounted-dev 0 famfs fsck $DEV
before=$(tree_sums)

# ---- remount: same tree, same bytes ------------------------------------------
t_ok umount umount $M
t_rc fsck-unmounted 0 famfs fsck -v $DEV
t_rc remount 0 famfs mount $DEV $M
after=$(tree_sums)
if [ -n "$before" ] && [ "$before" = "$after" ]; then t_pass remount-same-tree
else t_fail remount-same-tree "tree or checksums differ after remount"; fi
t_rc remount-verify 0 famfs verify -S 77 $M/d1/seeded
t_eq remount-mode-kept 640 "$(stat -c %a $M/d1/seeded)"
t_rc remount-still-writable 0 famfs mkfile -s 1 $M/d1/after-remount
t_rc logplay-idempotent 0 famfs logplay $M
t_rc logplay-dryrun 0 famfs logplay -n $M
t_has logplay-dryrun-nothing "0 files and 0 directories to create"

# ---- unmapped file found by check ---------------------------------------------
# (made behind the log: only on a mount without the option protect)
famfs mount -o remount,noprotect $DEV $M
if : > $M/plain 2>/dev/null; then
	t_rc check-unmapped 3 famfs check $M
	t_has check-names-file "$M/plain: not mapped"
	rm -f $M/plain
else
	t_skip check-unmapped "this famfs mount does not allow plain file creation"
fi
famfs mount -o remount,protect $DEV $M

# ---- client refusal -----------------------------------------------------------
echo 11111111-2222-3333-4444-555555555555 > /tmp/cli-other-host
t_rc client-mkfile-refused 2 env FAMFS_HOST_ID_FILE=/tmp/cli-other-host famfs mkfile -s 1 $M/client-file
t_has client-says-why "is a client; only the master (uuid $(cat $FAMFS_HOST_ID_FILE)) can create files"
t_rc client-mkdir-refused 2 env FAMFS_HOST_ID_FILE=/tmp/cli-other-host famfs mkdir $M/client-dir
t_rc client-cp-refused 2 env FAMFS_HOST_ID_FILE=/tmp/cli-other-host famfs cp /tmp/cli-a $M/client-cp
t_ok client-created-nothing test ! -e $M/client-file -a ! -e $M/client-dir -a ! -e $M/client-cp
umount $M
t_rc client-mount 0 env FAMFS_HOST_ID_FILE=/tmp/cli-other-host famfs mount $DEV $M
t_eq client-files-readonly 440 "$(stat -c %a $M/d1/seeded)"
t_eq client-log-readonly 444 "$(stat -c %a $M/.meta/.log)"
t_rc client-verify 0 famfs verify -S 77 $M/d1/seeded
t_rc master-on-client-mount-refused 2 famfs mkfile -s 1 $M/x
t_has master-on-client-mount-says-why "read-only"
umount $M
t_rc mount-r 0 famfs mount -r $DEV $M
t_rc mount-r-refuses-mkfile 2 famfs mkfile -s 1 $M/x
umount $M; famfs mount $DEV $M

# ---- concurrent creators lose nothing -------------------------------------------
famfs mkdir $M/conc
for w in a b; do
	( for i in $(seq 1 25); do famfs mkfile -s 4096 $M/conc/$w$i || echo "FAILED $w$i"; done ) > /tmp/cli-conc-$w 2>&1 &
done
wait
t_eq concurrent-no-failures "" "$(cat /tmp/cli-conc-a /tmp/cli-conc-b | grep FAILED)"
t_eq concurrent-all-present 50 "$(ls $M/conc | wc -l)"
t_rc concurrent-fsck 0 famfs fsck $M
umount $M; famfs mount $DEV $M
t_eq concurrent-after-remount 50 "$(ls $M/conc | wc -l)"

# ---- batches: many paths in one command (issue 17) --------------------------------
# Each path is created as if alone, with the same options; one that fails is
# named and does not stop the others (exit 2); options are checked first.
famfs mkdir $M/batch
t_rc batch-mkfile-some-fail 2 famfs mkfile -s 4096 -m 0600 -S 3 $M/batch/b1 \
	$M/d1/seeded $M/batch/b2 /tmp/not-famfs $M/batch/b3
t_has batch-names-existing "d1/seeded: already"
t_has batch-names-outside "/tmp/not-famfs"
t_eq batch-others-created "b1 b2 b3" "$(ls $M/batch | tr '\n' ' ' | sed 's/ $//')"
t_eq batch-same-mode "600 600 600" "$(stat -c %a $M/batch/b1 $M/batch/b2 $M/batch/b3 | tr '\n' ' ' | sed 's/ $//')"
t_rc batch-verify 0 famfs verify -S 3 $M/batch/b3
t_rc batch-bad-size 1 famfs mkfile -s 12q $M/batch/x1 $M/batch/x2
t_has batch-bad-size-says "12q"
t_eq batch-bad-size-nothing 3 "$(ls $M/batch | wc -l)"
t_rc batch-mkdir 0 famfs mkdir -p $M/batch/d1/e $M/batch/d2 $M/batch/d1/f
t_rc batch-mkdir-some-exist 2 famfs mkdir $M/batch/d3 $M/batch/d2 $M/batch/d4
t_has batch-mkdir-names "batch/d2: already exists"
t_ok batch-mkdir-others [ -d $M/batch/d3 -a -d $M/batch/d4 -a -d $M/batch/d1/f ]
# two batches at once: one waits for the other's lock; nothing lost
( seq 1 20 | sed "s|^|$M/batch/p|" | xargs famfs mkfile -s 4096 ) > /tmp/cli-batch-p 2>&1 &
( seq 1 20 | sed "s|^|$M/batch/q|" | xargs famfs mkfile -s 4096 ) > /tmp/cli-batch-q 2>&1 &
wait
t_eq batch-concurrent-quiet "" "$(cat /tmp/cli-batch-p /tmp/cli-batch-q)"
t_eq batch-concurrent-all 40 "$(ls $M/batch | grep -c '^[pq]')"
t_rc batch-fsck 0 famfs fsck $M
umount $M; famfs mount $DEV $M
t_eq batch-after-remount 47 "$(ls $M/batch | wc -l)"
famfs mount -o remount,noprotect $DEV $M	# rm behind the log
rm -rf $M/batch; famfs logplay $M > /dev/null
famfs mount -o remount,protect $DEV $M
t_eq batch-logplay 47 "$(ls $M/batch | wc -l)"

# ---- logplay on the master's own mount while it creates files ------------------
# logplay holds the log lock shared, mkfile exclusively from its append to
# its MAP_CREATE: logplay never maps a file mkfile is still creating.
famfs mkdir $M/race
rm -f /tmp/cli-race-done
( for i in $(seq 1 60); do famfs mkfile -s 4096 $M/race/f$i || echo "FAILED f$i"; done
  touch /tmp/cli-race-done ) > /tmp/cli-race-mk 2>&1 &
( n=0; while [ ! -e /tmp/cli-race-done ]; do
	famfs logplay $M > /tmp/cli-race-lp1 2>&1 || { echo "LOGPLAY FAILED:"; cat /tmp/cli-race-lp1; }
	n=$((n + 1)); done; echo "$n rounds" > /tmp/cli-race-rounds ) > /tmp/cli-race-lp 2>&1 &
wait
t_eq race-mkfile-all-ok "" "$(grep FAILED /tmp/cli-race-mk)"
echo "race: logplay $(cat /tmp/cli-race-rounds) during 60 creates"
if [ "$(sed -n 's/^\([0-9]*\) rounds$/\1/p' /tmp/cli-race-rounds)" -gt 0 ] 2>/dev/null; then
	t_eq race-logplay-all-ok "" "$(cat /tmp/cli-race-lp)"
else
	t_fail race-logplay-all-ok "logplay ran no round during the creates: '$(cat /tmp/cli-race-rounds)'"
fi
t_eq race-all-present 60 "$(ls $M/race | wc -l)"
t_rc race-fsck 0 famfs fsck $M
t_rc race-check 0 famfs check $M

# ---- cp of sources of unknown size ------------------------------------------------
# A famfs file cannot grow: a source reporting 0 bytes (/proc), a FIFO, a
# character device is read to its end first (up to 64 MiB).
t_eq proc-cpuinfo-says-0 0 "$(stat -c %s /proc/cpuinfo)"
t_rc cp-proc 0 famfs cp /proc/cpuinfo $M/cpuinfo
grep -v MHz /proc/cpuinfo > /tmp/cli-cpuinfo
t_ok cp-proc-not-empty test -s $M/cpuinfo
t_ok cp-proc-bytes sh -c "grep -v MHz $M/cpuinfo | cmp - /tmp/cli-cpuinfo"
t_rc cp-proc-version 0 famfs cp /proc/version $M/version
t_ok cp-proc-version-bytes cmp /proc/version $M/version
rm -f /tmp/cli-fifo; mkfifo /tmp/cli-fifo
head -c 3000001 /dev/urandom > /tmp/cli-fifo-data
cat /tmp/cli-fifo-data > /tmp/cli-fifo &
t_rc cp-fifo 0 famfs cp /tmp/cli-fifo $M/fifo
wait
t_ok cp-fifo-bytes cmp /tmp/cli-fifo-data $M/fifo
t_rc cp-dev-zero-refused 2 famfs cp /dev/zero $M/zero
t_has cp-dev-zero-says-why "/dev/zero: a character device with more than 67108864 bytes"
t_ok cp-dev-zero-nothing test ! -e $M/zero
rm -rf /tmp/cli-fdir; mkdir /tmp/cli-fdir; mkfifo /tmp/cli-fdir/p; echo x > /tmp/cli-fdir/a
t_rc cp-r-skips-fifo 2 famfs cp -r /tmp/cli-fdir $M/fdir
t_has cp-r-skips-fifo-says-why "/tmp/cli-fdir/p: a FIFO; skipped"
t_ok cp-r-copied-the-rest cmp /tmp/cli-fdir/a $M/fdir/a

# ---- device full --------------------------------------------------------------
size=$(( $(cat /sys/block/$(basename $DEV)/size) * 512 ))
n0=$(famfs fsck -v $M | grep -c '^entry ')
t_rc device-full 2 famfs mkfile -s $size $M/too-big
t_has device-full-says-so "device full"
t_ok device-full-no-file test ! -e $M/too-big
t_eq device-full-log-unchanged "$n0" "$(famfs fsck -v $M | grep -c '^entry ')"
t_rc device-full-fsck-clean 0 famfs fsck $M
t_rc device-still-usable 0 famfs mkfile -s 2m $M/after-full

# ---- log full (2 MiB v1 log: 2047 entries) ---------------------------------------
if fresh --loglen 2m --log-format=v1; then
	dirs=$(seq 1 2048 | sed "s,^,$M/l,")
	t_rc log-full 2 famfs mkdir $dirs
	t_has log-full-says-so "log full"
	t_eq log-full-entries 2047 "$(ls $M | grep -c '^l')"
	t_rc log-full-fsck-clean 0 famfs fsck $M
	t_rc log-full-mkfile-refused 2 famfs mkfile -s 1 $M/f
	umount $M
	t_rc log-full-remount 0 famfs mount $DEV $M
	t_eq log-full-replayed 2047 "$(ls $M | grep -c '^l')"
else
	t_fail log-full "mkfs/mount with --loglen 2m failed"
fi

# ---- log full, compact (the default; 2 MiB: 8188 slots, one per directory, the
# last kept for the entry that records a growth; automatic growth off) ---------
export FAMFS_LOG_AUTOGROW=0
umount $M 2>/dev/null
t_rc clog-mkfs 0 famfs mkfs -f --loglen 2m $DEV
t_has clog-mkfs-says-slots "8188 slots of 256 bytes"
if famfs mount $DEV $M; then
	dirs=$(seq 1 8189 | sed "s,^,$M/c,")
	t_rc clog-full 2 famfs mkdir $dirs
	t_has clog-full-says-so "log full"
	t_has clog-full-says-what-to-do "larger --loglen"
	t_eq clog-full-entries 8187 "$(ls $M | grep -c '^c')"
	t_rc clog-full-fsck-clean 0 famfs fsck $M
	t_rc clog-full-df-warns 0 famfs df $M
	t_has clog-full-df-says-full "the log is 99% full"
	t_rc clog-full-mkfile-refused 2 famfs mkfile -s 1 $M/f
	umount $M
	t_rc clog-full-remount 0 famfs mount $DEV $M
	t_eq clog-full-replayed 8187 "$(ls $M | grep -c '^c')"
else
	t_fail clog-full "mount of a 2m compact log failed"
fi
unset FAMFS_LOG_AUTOGROW

# ---- bad superblock CRC refused by mount ----------------------------------------
fresh
famfs mkfile -s 1m -S 5 $M/keep
umount $M
poke 200 1			# a reserved superblock byte: the CRC no longer matches
t_rc mount-bad-sb-crc 2 famfs mount $DEV $M
t_has mount-bad-sb-says-crc "CRC"
t_rc fsck-bad-sb 3 famfs fsck $DEV
poke 200 0
t_rc mount-after-sb-repair 0 famfs mount $DEV $M
t_rc sb-repair-data-intact 0 famfs verify -S 5 $M/keep

# ---- corrupt log entry: fsck reports it, logplay skips it (v1 log) ----------------
fresh --log-format=v1
for i in 0 1 2 3 4; do famfs mkfile -s 1m -S $i $M/f$i; done
umount $M
# a torn append: bytes in slot 5, past next_index (5): ignored
poke $((2097152 + 1024 + 5 * 1024 + 100)) 7
t_rc torn-entry-ignored 0 famfs fsck $DEV
# entry 2 sits at 2 MiB (log) + 1 KiB (header) + 2 KiB; its ctime (le64) is
# at +40: its byte 4 is 0 until 2106, so writing 255 there always changes it
# (the low byte is the current time's and was 255 one run in 256)
poke $((2097152 + 1024 + 2 * 1024 + 44)) 255
t_rc fsck-corrupt-entry 3 famfs fsck $DEV
t_has fsck-names-entry "log entry 2"
t_rc mount-with-corrupt-entry 0 famfs mount $DEV $M
t_ok corrupt-entry-skipped test ! -e $M/f2
ok=0; for i in 0 1 3 4; do famfs verify -S $i $M/f$i && ok=$((ok + 1)); done
t_eq valid-entries-replayed 4 "$ok"
t_rc logplay-reports-corrupt 3 famfs logplay $M
t_has logplay-says-skipped "log entry 2 skipped"

# ---- the same in a compact log: entry N of one slot each at 2 MiB + 1 KiB + N * 256 -
fresh
for i in 0 1 2 3 4; do famfs mkfile -s 1m -S $i $M/f$i; done
umount $M
# a torn append: bytes in slot 5, past next_index (5): ignored
poke $((2097152 + 1024 + 5 * 256 + 100)) 7
t_rc clog-torn-entry-ignored 0 famfs fsck $DEV
# entry 2's ctime (le64) is at +24: its byte 4 (+28) is 0 until 2106, so
# writing 255 there always changes the entry (see the v1 case above)
poke $((2097152 + 1024 + 2 * 256 + 28)) 255
t_rc clog-fsck-corrupt-entry 3 famfs fsck $DEV
t_has clog-fsck-names-entry "log entry 2"
t_rc clog-mount-with-corrupt-entry 0 famfs mount $DEV $M
t_ok clog-corrupt-entry-skipped test ! -e $M/f2
ok=0; for i in 0 1 3 4; do famfs verify -S $i $M/f$i && ok=$((ok + 1)); done
t_eq clog-valid-entries-replayed 4 "$ok"
t_rc clog-mkfile-refused-unparsed 2 famfs mkfile -s 1m $M/new
t_has clog-refusal-says-fsck "cannot be parsed"
t_rc clog-mkdir-still-works 0 famfs mkdir $M/newdir

# ---- fragmented free space: a file in several extents ------------------------
# famfs has no delete, and a corrupt entry never frees memory (issue 15.1),
# so ten 2 MiB files are made, and entries 1, 3 and 5 rewritten (CRC right)
# as directories, which own no memory: three one-unit holes; the tail
# filled: a 5 MiB file can only be 3 extents (MAP_CREATE_V2), and the
# superblock gets the multi-extent feature first.  (v1 entries edited here.)
fresh --log-format=v1
for i in 0 1 2 3 4 5 6 7 8 9; do famfs mkfile -s 2m -S $i $M/f$i; done
umount $M
for i in 1 3 5; do
	e=$((2097152 + 1024 + i * 1024))
	hostile_corrupt $DEV set $((e + 12)) 2 2 && hostile_corrupt $DEV set $((e + 32)) 8 0 &&
		hostile_corrupt $DEV set $((e + 48)) 4 493 &&
		hostile_corrupt $DEV set $((e + 60)) 2 0 && hostile_corrupt $DEV set $((e + 62)) 2 0 &&
		hostile_corrupt $DEV fill $((e + 64)) 16 0 && hostile_corrupt $DEV crc $i ||
		t_fail frag-holes "could not turn entry $i into a directory"
done
t_eq frag-no-multi-extent-yet 0 "$(hostile_corrupt $DEV get 20 4)"
famfs mount $DEV $M
free=$(famfs df -j $M | jget .free)
t_rc frag-fill 0 famfs mkfile -s $((free - 6 * 1048576)) $M/fill
t_rc frag-too-big 2 famfs mkfile -s $((6 * 1048576 + 1)) $M/frag-no
t_has frag-too-big-says-so "device full"
t_rc frag-mkfile 0 famfs mkfile -s 5m -S 99 $M/frag
t_rc frag-getmap 0 famfs getmap $M/frag
t_eq frag-three-extents 3 "$(echo "$OUT" | grep -c ': offset 0x')"
t_eq frag-json-three "3" "$(famfs getmap -j $M/frag | jget -n .extents)"
t_rc frag-verify 0 famfs verify -S 99 $M/frag
t_rc frag-check 0 famfs check $M
t_rc frag-fsck 0 famfs fsck $M
t_eq frag-fsck-no-sharing "" "$(echo "$OUT" | grep 'shares memory')"
t_eq frag-multi-extent-feature 2 "$(hostile_corrupt $M/.meta/.superblock get 20 4)"
t_eq frag-df-full 0 "$(famfs df -j $M | jget .free)"
ok=0; for i in 0 2 4 6 7 8 9; do famfs verify -S $i $M/f$i && ok=$((ok + 1)); done
t_eq frag-neighbours-intact 7 "$ok"
umount $M
t_rc frag-remount 0 famfs mount $DEV $M
t_rc frag-remount-verify 0 famfs verify -S 99 $M/frag
umount $M
t_rc frag-client-mount 0 env FAMFS_HOST_ID_FILE=/tmp/cli-other-host famfs mount $DEV $M
t_rc frag-client-verify 0 famfs verify -S 99 $M/frag
t_rc frag-client-logplay 0 env FAMFS_HOST_ID_FILE=/tmp/cli-other-host famfs logplay $M
t_ok frag-client-holes-are-dirs test -d $M/f1 -a -d $M/f3 -a -d $M/f5

umount $M
exit 0
