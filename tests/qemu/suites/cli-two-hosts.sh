# profiles: two-hosts two-hosts-devdax two-hosts-cxl two-hosts-cxl-devdax
# timeout: 300
# famfs-cli across two hosts on one memory: a is the master (mkfs), b a
# client.  Each host has its own host id (/etc/famfs/host-uuid, created on
# first use).  b sees a's files byte for byte, cannot create any, and
# logplay picks up what a adds after b mounted.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
mkdir -p $M
# devdax: famfs mounts /dev/daxX.Y only while it is bound to famfs.ko.
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"


if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc mkdir 0 famfs mkdir -p $M/data/sub
	t_rc mkfile-seed 0 famfs mkfile -s 9m -S 1234 $M/data/seeded
	t_rc cp 0 famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/data/sub
	md5sum < $M/data/sub/famfs_format.h > "$FAMFS_SYNC/cli-a-sum"
	sync_post cli-a-ready
	sync_wait cli-b-mounted 120 || exit 0
	t_rc mkfile-after-b 0 famfs mkfile -s 3m -S 99 $M/data/later
	t_rc mkfile-secret 0 famfs mkfile -m 0600 -s 2m $M/data/secret
	t_rc mkdir-after-b 0 famfs mkdir -m 0777 -u 1234 -g 1234 $M/data/swapd
	sync_post cli-a-more
	sync_wait cli-b-done 120
	t_rc fsck-end 0 famfs fsck $M
	umount $M
	exit 0
fi

# host b: the client
sync_wait cli-a-ready 180 || exit 0
t_rc client-mount 0 famfs mount $DEV $M
t_rc client-verify 0 famfs verify -S 1234 $M/data/seeded
t_eq client-cp-bytes "$(cat "$FAMFS_SYNC/cli-a-sum")" "$(md5sum < $M/data/sub/famfs_format.h)"
t_eq client-file-readonly 444 "$(stat -c %a $M/data/seeded)"
t_rc client-mkfile-refused 2 famfs mkfile -s 1m $M/from-b
t_has client-says-why "is a client; only the master"
t_ok client-created-nothing test ! -e $M/from-b
t_rc client-fsck 0 famfs fsck $M
t_rc client-check 0 famfs check $M
sync_post cli-b-mounted
sync_wait cli-a-more 120 || { sync_post cli-b-done; exit 0; }
t_ok client-not-yet test ! -e $M/data/later
# the replay's new directory swapped for a hard link to root's file between
# its mkdir and its chmod (issue 27.2; linkswap, under ptrace): the file
# keeps its mode and owner; then, the link removed, the replay makes it right
umask 022
t_rc client-logplay-secret 0 famfs logplay $M
famfs mount -o remount,noprotect $DEV $M	# the attack: behind the log
rmdir $M/data/swapd
secret=$(stat -c '%a %u:%g' $M/data/secret)
t_rc client-logplay-swapped 2 linkswap -l $M/data swapd $M/data/secret famfs logplay $M
t_has client-logplay-swapped-swapped "linkswap: swapped"
t_has client-logplay-swapped-says-why "data/swapd: .*replaced by a file that is not a directory"
t_eq client-swapped-target-kept "$secret" "$(stat -c '%a %u:%g' $M/data/secret)"
rm $M/data/swapd && rmdir $M/data/swapd.real
famfs mount -o remount,protect $DEV $M
t_rc client-logplay 0 famfs logplay $M
t_eq client-dir-owner-mode "777 1234:1234" "$(stat -c '%a %u:%g' $M/data/swapd)"
t_rc client-sees-later 0 famfs verify -S 99 $M/data/later
t_rc client-logplay-again 0 famfs logplay -n $M
t_has client-logplay-idempotent "0 files and 0 directories to create"
umount $M
sync_post cli-b-done
exit 0
