# profiles: pmem two-hosts
# timeout: 300
# famfs-cli and memory that is not cache-coherent (issue 18): mkfs
# --noncoherent (famfs mkfs and mkfs.famfs) records it in the superblock,
# every famfs mount / mount.famfs
# (also -o follow) passes noncoherent to famfs.ko, /proc/mounts and df show
# it, it survives umount/mount and a client that mounts later sees it;
# -o coherent / -o noncoherent override it (stderr + kernel log); famfs tune
# flips it (master only).  famfs flush, cp, creat -S and verify are counted
# through the famfs:famfs_cache tracepoint: the whole file on a non-coherent
# mount, nothing on a coherent one.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
EV=famfs/famfs_cache
mkdir -p $M
famfs_loaded || exit 0
if ! trace_have $EV; then
	t_fail tracepoint "no $EV in $TRACE: famfs.ko without tracepoints?"
	exit 0
fi
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"

# traced ID RC WANT CMD...: CMD exits RC (output in $OUT) and the
# famfs_cache bytes it caused, per why/op, are WANT ("" for none)
traced() {
	_tid=$1 _trc=$2 _twant=$3; shift 3	# t_rc uses _id, _want, _rc
	trace_on $EV
	t_rc "$_tid" "$_trc" "$@"
	trace_off $EV
	t_eq "$_tid-counts" "$_twant" "$(cache_counts)"
}
# ioctl_counts: the FAMFSIOC_CACHE part of the last trace only (cp and
# mkfile also msync the log and the file: counted as fsync)
ioctl_counts() { cache_counts | tr ' ' '\n' | grep '^ioctl/' | tr '\n' ' ' | sed 's/ $//'; }
# fsync_inv: the bytes msync/fsync wrote back and dropped in the last trace
fsync_inv() { cache_counts | tr ' ' '\n' | sed -n 's|^fsync/invalidate=||p'; }
# t_between ID LO HI N: LO <= N < HI
t_between() {
	if [ -n "$4" ] && [ "$4" -ge "$2" ] && [ "$4" -lt "$3" ]; then t_pass "$1"
	else t_fail "$1" "expected $2 <= n < $3, got '$4'"; fi
}
# shown ID yes|no: /proc/mounts shows noncoherent for $M, or not
shown() {
	_o=$(awk -v m=$M '$2 == m { print $4 }' /proc/mounts)
	case ",$_o," in *,noncoherent,*) _s=yes ;; *) _s=no ;; esac
	t_eq "$1" "$2" "$_s"
}
jcoh() { famfs df -j "$1" | jget ".$2"; }
# flush_stat NAME: the count NAME=N from FAMFS_DEBUG_FLUSH's line in $OUT
flush_stat() { echo "$OUT" | sed -n "s/.*famfs: flush:.* $1=\([0-9]*\).*/\1/p" | head -n 1; }

if [ "${FAMFS_HOST:-}" = b ]; then
	# ---- the client: mounts after a made it non-coherent ----------------
	sync_wait ncli-a-ready 180 || exit 0
	t_rc b-mount 0 famfs mount $DEV $M
	shown b-mount-shows yes
	t_eq b-df-json noncoherent "$(jcoh $M coherence)"
	t_eq b-df-json-mount noncoherent "$(jcoh $M mount_coherence)"
	t_rc b-tune-refused 2 famfs tune --coherent $M
	t_has b-tune-says-why "is a client; only the master"
	shown b-still-noncoherent yes
	traced b-flush-i 0 "ioctl/invalidate=3145728" famfs flush -i $M/seeded
	traced b-verify 0 "ioctl/invalidate=3145728" famfs verify -S 18 $M/seeded
	t_rc b-umount 0 umount $M
	sync_post ncli-b-checked
	sync_wait ncli-a-tuned 120 || exit 0
	t_rc b-mount-again 0 famfs mount $DEV $M
	shown b-sees-tuned-coherent no
	traced b-flush-coherent 0 "" famfs flush -i $M/seeded
	t_rc b-umount-again 0 umount $M
	sync_post ncli-b-done
	exit 0
fi

umount $M 2>/dev/null
# mkfs.famfs (mkfs -t famfs's helper: famfs called mkfs.famfs) passes
# --noncoherent through like famfs mkfs
ln -sf "$(command -v famfs)" /tmp/mkfs.famfs
t_rc mkfs8-help 0 /tmp/mkfs.famfs --help
t_has mkfs8-help-option "--noncoherent"
t_rc mkfs8-noncoherent 0 /tmp/mkfs.famfs -V -f --noncoherent $DEV
t_has mkfs8-verbose-says "famfs mkfs -f --noncoherent --loglen 8388608 --log-format compact $DEV"
t_has mkfs8-says-noncoherent "not cache-coherent"
t_rc mkfs8-sb 0 famfs tune $DEV
t_has mkfs8-sb-noncoherent ": noncoherent"
t_rc mkfs8-coherent 0 /tmp/mkfs.famfs -f $DEV
t_rc mkfs8-coherent-sb 0 famfs tune $DEV
t_has mkfs8-coherent-sb-says ": coherent"
t_rc mkfs-help 0 famfs mkfs --help
t_has mkfs-help-option "--noncoherent"
t_rc mkfs-noncoherent 0 famfs mkfs -f --noncoherent $DEV
t_has mkfs-says-noncoherent "not cache-coherent"
t_rc df-dev 0 famfs df $DEV
t_has df-dev-text "coherence    noncoherent (superblock)"
t_rc mount 0 famfs mount $DEV $M
shown mount-shows yes
t_rc df 0 famfs df $M
t_has df-text "coherence    noncoherent (superblock), this mount noncoherent"
t_eq df-json noncoherent "$(jcoh $M coherence)"
t_eq df-json-mount noncoherent "$(jcoh $M mount_coherence)"

# ---- data: the whole file on a non-coherent mount --------------------------
trace_on $EV
t_rc creat-seeded 0 famfs creat -s 3m -S 18 $M/seeded
trace_off $EV
# the whole allocation is written (the pattern, then zeros to the end of
# its last 2 MiB unit) through the scratch file (issue 15.9); the zeros go
# to memory with non-temporal stores, so the scratch file's msync writes
# back (and drops) the bytes stored through the cache: the 3 MiB pattern
# (+ the log's lines), not the 4 MiB unit, and no FAMFSIOC_CACHE after it
t_eq creat-seeded-no-ioctl "" "$(ioctl_counts)"
t_between creat-seeded-writeback 3145728 4194304 "$(fsync_inv)"
dd if=/dev/urandom of=/tmp/ncli-src bs=1 count=12345 2>/dev/null
trace_on $EV
t_rc cp 0 famfs cp /tmp/ncli-src $M/copied
trace_off $EV
t_eq cp-no-ioctl "" "$(ioctl_counts)"
t_between cp-writeback 12345 2097152 "$(fsync_inv)"
t_eq cp-bytes "$(md5sum < /tmp/ncli-src)" "$(md5sum < $M/copied)"
traced flush 0 "ioctl/writeback=3145728" famfs flush $M/seeded
traced flush-i 0 "ioctl/invalidate=3145728" famfs flush --invalidate $M/seeded
traced flush-two 0 "ioctl/writeback=3158073" famfs flush $M/seeded $M/copied
traced verify 0 "ioctl/invalidate=3145728" famfs verify -S 18 $M/seeded
t_rc flush-missing 2 famfs flush $M/seeded $M/nonexistent
t_has flush-missing-names "$M/nonexistent"
t_rc flush-not-famfs 2 famfs flush /tmp/ncli-src
t_has flush-not-famfs-why "not a famfs file"
# ... nor one whose size is 0 (no range to flush: it reported success)
t_rc flush-proc-not-famfs 2 famfs flush /proc/self/status
t_has flush-proc-not-famfs-why "/proc/self/status: .*not a famfs file"
: > /tmp/ncli-empty
t_rc flush-empty-not-famfs 2 famfs flush -i /tmp/ncli-empty
t_has flush-empty-not-famfs-why "not a famfs file"
t_rc flush-usage 1 famfs flush
t_rc flush-help 0 famfs flush --help

case $FAMFS_PROFILE in two-hosts*) two=1 ;; *) two= ;; esac
if [ -z "$two" ]; then
	# an interleaved file (2 strips, 2 MiB chunks): a small msync across
	# a chunk boundary is written back on both strips, line by line
	# (famfs:famfs_fsync_lines); cache_test maps MPT/nc of 5 MiB + 4 KiB
	t_rc ilv-dir 0 famfs mkdir $M/ilv
	t_rc ilv-mkfile 0 famfs mkfile -N 2 -C 2M -s $(((5 << 20) + 4096)) $M/ilv/nc
	trace_on $EV famfs/famfs_fsync_lines
	PFX=ilv-straddle- run_prog cache_test $M/ilv msync $(((2 << 20) - 4096)) 8192
	PFX=ilv-last- run_prog cache_test $M/ilv msync $((5 << 20)) 4096
	trace_off $EV famfs/famfs_fsync_lines
	t_eq ilv-msync-lines "fsync/invalidate=12288" "$(cache_counts)"
	t_eq ilv-msync-lines-events 2 "$(grep -c 'famfs_fsync_lines:' $TRACE/trace)"
fi
if [ -n "$two" ]; then
	# ---- two hosts: b mounts later, sees it, cannot change it ----------
	t_rc a-umount 0 umount $M
	t_rc a-mount 0 famfs mount $DEV $M
	sync_post ncli-a-ready
	sync_wait ncli-b-checked 180 || exit 0
	t_rc a-tune-coherent 0 famfs tune --coherent $M
	shown a-tuned-coherent no
	sync_post ncli-a-tuned
	sync_wait ncli-b-done 120
	t_rc a-umount-end 0 umount $M
	exit 0
fi

# ---- the property survives umount and mount (famfs mount and mount.famfs) ---
t_rc umount 0 umount $M
t_rc remount-famfs 0 famfs mount $DEV $M
shown remount-famfs-shows yes
t_rc umount2 0 umount $M
# the helper as mount(8) runs it (util-linux is only installed by the install
# suite; the helper is famfs called mount.famfs)
ln -sf "$(command -v famfs)" /tmp/mount.famfs
t_rc mount-helper 0 /tmp/mount.famfs $DEV $M
shown mount-helper-shows yes
t_rc umount3 0 umount $M
t_rc mount-follow 0 /tmp/mount.famfs $DEV $M -o follow
shown mount-follow-shows yes
t_ok umount-follow umount_retry $M

# ---- the user's option overrides it, and that is logged ---------------------
klog_mark
t_rc override-coherent 0 famfs mount -o coherent $DEV $M
t_has override-on-stderr "-o coherent overrides it"
shown override-wins no
OUT=$(klog_since)
t_has override-in-klog "famfs: $DEV on $M: the superblock says the memory is not cache-coherent; -o coherent overrides it"
# a mount that fails (the device is mounted already) overrode nothing: no
# "overrides it" line, neither on stderr nor in the kernel log
mkdir -p /tmp/ncli-m2
klog_mark
t_rc override-failed-mount 2 famfs mount -o coherent $DEV /tmp/ncli-m2
if echo "$OUT" | grep -q "overrides it"; then
	t_fail override-failed-not-on-stderr "a failed mount said it overrode the superblock: $(echo "$OUT" | grep "overrides it")"
else
	t_pass override-failed-not-on-stderr
fi
OUT=$(klog_since)
if echo "$OUT" | grep -q "ncli-m2: .*overrides it"; then
	t_fail override-failed-not-logged "a failed mount was logged as an override: $(echo "$OUT" | grep "overrides it")"
else
	t_pass override-failed-not-logged
fi
t_rc df-overridden 0 famfs df $M
t_has df-says-overridden "noncoherent (superblock), this mount coherent (overridden)"
traced flush-coherent 0 "" famfs flush -i $M/seeded
traced verify-coherent 0 "" famfs verify -S 18 $M/seeded
t_rc umount4 0 umount $M

# ---- famfs tune: master only; flips the superblock and this mount -----------
t_rc mount-for-tune 0 famfs mount $DEV $M
t_rc tune-client-refused 2 env FAMFS_HOST_ID_FILE=/tmp/ncli-other-host famfs tune --coherent $M
t_has tune-client-why "is a client; only the master"
shown tune-refused-unchanged yes
# a clone of the master: its host uuid, another boot, no claim of the
# master record (master_twohosts.sh): refused before the superblock is
# written, naming the mount and the instance that holds the role
cat /proc/sys/kernel/random/uuid > /tmp/ncli-clone-boot
rm -rf /tmp/ncli-clone-claims
clone() { env FAMFS_BOOT_ID_FILE=/tmp/ncli-clone-boot FAMFS_CLAIM_DIR=/tmp/ncli-clone-claims "$@"; }
holder=$(cat "${FAMFS_HOST_ID_FILE:-/etc/famfs/host-uuid}" 2>/dev/null)
t_rc tune-clone-refused 2 clone famfs tune --coherent $M
t_has tune-clone-names-mount "$M: another master holds the log: host $holder"
t_has tune-clone-nothing-written "nothing was written"
shown tune-clone-unchanged yes
t_rc tune-clone-sb-unchanged 0 famfs tune $M
t_has tune-clone-sb-still-noncoherent ": noncoherent"
# ... and reads the log as a client does: it drops its cache lines of the
# entries before it reads them (the master instance alone skips that: it
# wrote them), and its mount replays files without write bits
t_rc logplay-master 0 env FAMFS_DEBUG_FLUSH=1 famfs logplay $M
inv_master=$(flush_stat invalidates)
t_rc logplay-clone 0 clone env FAMFS_DEBUG_FLUSH=1 famfs logplay $M
inv_clone=$(flush_stat invalidates)
if [ -n "$inv_master" ] && [ "${inv_clone:-0}" -gt "$inv_master" ]; then
	t_pass logplay-clone-invalidates
else
	t_fail logplay-clone-invalidates "a clone's logplay dropped ${inv_clone:-?} ranges, the master's ${inv_master:-?}: the clone must drop the entries' lines too"
fi
t_rc umount-for-clone 0 umount $M
t_rc mount-clone 0 clone famfs mount $DEV $M
t_has mount-clone-not-master "does not hold the master role"
t_eq clone-replays-read-only 444 "$(stat -c %a $M/seeded)"
t_rc umount-clone 0 umount $M
t_rc mount-master-again 0 famfs mount $DEV $M
t_eq master-replays-writable 644 "$(stat -c %a $M/seeded)"
t_rc tune-coherent 0 famfs tune --coherent $M
t_has tune-remounted "coherent, remounted here"
shown tune-remounted-coherent no
t_rc tune-show 0 famfs tune $M
t_has tune-show-coherent ": coherent"
traced tune-flush-coherent 0 "" famfs flush $M/seeded
t_rc umount5 0 umount $M
t_rc mount-after-tune 0 famfs mount $DEV $M
shown mount-after-tune-coherent no
t_rc umount6 0 umount $M
t_rc tune-dev-clone-refused 2 clone famfs tune --noncoherent $DEV
t_has tune-dev-clone-names-dev "$DEV: another master holds the log: host $holder"
t_rc tune-dev-clone-unchanged 0 famfs tune $DEV
t_has tune-dev-clone-still-coherent ": coherent"
t_rc tune-dev-noncoherent 0 famfs tune --noncoherent $DEV
klog_mark
t_rc override-noncoherent 0 famfs mount -o noncoherent $DEV $M
OUT=$(klog_since)
if echo "$OUT" | grep -q "overrides"; then
	t_fail mount-agreeing-not-logged "an -o noncoherent that agrees with the superblock was logged as an override"
else
	t_pass mount-agreeing-not-logged
fi
shown tuned-back-noncoherent yes
traced flush-after-tune 0 "ioctl/writeback=3145728" famfs flush $M/seeded
t_rc fsck-end 0 famfs fsck $M
t_rc umount-end 0 umount $M
