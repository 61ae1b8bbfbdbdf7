# profiles: nvdimm2 mixed
# timeout: 300
# famfs devadd interrupted after its attach (issue 16): the log append
# fails (a full log, growth off), so the device stays attached to the
# master's mount at the next index with no DEVADD naming it.  devadd of the
# same device again finishes it (same index, the superblock it wrote); the
# member then works like any other and survives a remount.  A DEVADD
# left uncommitted is rolled forward by the master's next append, which
# then attaches that member as well.  famfs devices lists an orphan member
# superblock at member 1's index as an orphan.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
M=/mnt/famfs-mdt
mkdir -p $M
two_devs || exit 0

member_raw
t_ok mkfs famfs mkfs -f --loglen 2m "$P"
t_ok mount famfs mount "$P" $M
# 8187 of the 8188 slots (the last is kept for a growth): full
FAMFS_LOG_AUTOGROW=0 famfs mkdir $(seq 1 8187 | sed "s,^,$M/c,") >/dev/null 2>&1
t_err devadd-log-full 2 "log full" env FAMFS_LOG_AUTOGROW=0 famfs devadd -f $M "$MEM"
t_has devadd-log-full-says-attached "is attached to this mount until it is unmounted"
# again, growth allowed: the same device finishes its devadd
t_rc devadd-again 0 famfs devadd $M "$MEM"
t_has devadd-again-member-1 "member 1 is $MEM"
t_ok mkfile-on-member famfs mkfile --device 1 -s 2M $M/f1
t_ok write-f1 devpat -m write $M/f1 0 2M 91
t_rc fsck-after 0 famfs fsck $M
# an orphan member superblock at member 1's index (a devadd that crashed
# before its entry, here a file given as a hint): famfs devices tells the
# two apart by the log's device uuids, as mount does, and does not fail
rm -f /tmp/orphan.img && truncate -s 8M /tmp/orphan.img
# (label refuses to give it the index of the log's member 1 without -f)
t_err orphan-label-refused 2 "not labelled as member 1: member 1 of file system .* is added by its log" \
	famfs devices label -i 1 "$P" /tmp/orphan.img
t_ok orphan-label famfs devices label -f -i 1 "$P" /tmp/orphan.img
t_rc devices-orphan 0 famfs devices -d /tmp/orphan.img "$P"
t_has devices-orphan-member "^index 1 member $MEM "
t_has devices-orphan-listed "^orphan /tmp/orphan.img index 1 "
rm -f /tmp/orphan.img
t_ok umount umount $M
member_famfs
t_rc remount 0 famfs mount -v "$P" $M
t_has remount-member "member 1 is $MEM"
t_ok f1-after-remount devpat -m check $M/f1 0 2M 91
t_ok umount-2 umount $M

# A devadd whose entry is written but not committed (a crash between the
# two flushes: next_index put back by hand): the master's next append
# commits it (R4 roll-forward; the mount does not), and must then attach
# that member too, or every create placed on it fails (ENODEV)
member_raw
t_ok mkfs-2 famfs mkfs -f --loglen 2m "$P"
t_ok mount-3 famfs mount "$P" $M
t_rc devadd-2 0 famfs devadd -f $M "$MEM"
t_ok umount-3 umount $M
# next_index (log header at 2 MiB, +16): 1 -> 0; not in the header CRC
poke $((2 * 1024 * 1024 + 16)) 0 "$P"
member_famfs
t_rc mount-uncommitted 0 famfs mount "$P" $M
t_rc mkfile-after-roll 0 famfs mkfile --device 1 -s 2M $M/r1
t_has mkfile-rolled "committed now"
t_rc getmap-r1 0 famfs getmap $M/r1
t_has getmap-r1-on-member "device 1"
t_rc fsck-roll 0 famfs fsck $M
t_ok umount-4 umount $M
# leave no member superblock behind for the next suite of the boot
member_raw
t_ok wipe-member devpat fill "$MEM" 0 4K 0
