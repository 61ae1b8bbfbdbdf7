# profiles: two-hosts
# timeout: 240
# The master role (issue 15.2) on two hosts of one memory.  Host b is made a
# clone of the master a: the same host uuid (a's host id file copied), its
# own boot id and no claim.  b mounts (with a warning) but is refused before
# it appends -- mkfile and mkdir exit 2 naming the holder, the log's next
# index is unchanged, nothing is created -- and famfs master on b says so
# (exit 3).  Then a hands the role over (famfs master set with its own uuid:
# whichever instance of that host claims first); b's next mkfile claims the
# record and appends; now a is refused, and fsck is clean on both.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/tmp/master-2h
S=$FAMFS_SYNC
export FAMFS_HOST_ID_FILE=/tmp/master-2h-host-uuid
export FAMFS_CLAIM_DIR=/tmp/master-2h-claims
rm -rf $FAMFS_HOST_ID_FILE $FAMFS_CLAIM_DIR
mkdir -p $M
next() { famfs df -j $M | jget .log.entries; }

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc show-a 0 famfs master $M
	t_has show-a-holds "this instance:     this instance holds the role"
	t_rc mkfile-a 0 famfs mkfile -s 2m -S 1 $M/a1
	cp $FAMFS_HOST_ID_FILE "$S/master-2h-host-uuid"
	sync_post m2-a-ready
	sync_wait m2-b-refused 120 || exit 0
	t_rc mkfile-a-still-master 0 famfs mkfile -s 2m -S 2 $M/a2
	t_rc hand-over 0 famfs master set "$(cat $FAMFS_HOST_ID_FILE)" $M
	t_rc show-a-released 0 famfs master $M
	t_has show-a-says-released "master record:     released"
	sync_post m2-a-released
	sync_wait m2-b-appended 120 || exit 0
	n=$(next)
	t_rc mkfile-a-refused 2 famfs mkfile -s 2m $M/a3
	t_has a-says-holder "another master holds the log: host $(cat $FAMFS_HOST_ID_FILE)"
	t_eq a-log-unchanged "$n" "$(next)"
	t_ok a-created-nothing test ! -e $M/a3
	t_rc show-a-other 3 famfs master $M
	t_rc logplay-a 0 famfs logplay $M
	t_rc a-sees-b1 0 famfs verify -S 3 $M/b1
	t_rc fsck-a 0 famfs fsck $M
	umount $M
	sync_post m2-a-done
	exit 0
fi

# host b: a clone of a
sync_wait m2-a-ready 180 || exit 0
cp "$S/master-2h-host-uuid" $FAMFS_HOST_ID_FILE
t_rc clone-mount 0 famfs mount $DEV $M
t_has clone-mount-warns "another master holds the log"
n=$(next)
t_ok clone-log-read [ -n "$n" ]
t_rc clone-mkfile-refused 2 famfs mkfile -s 2m $M/b1
t_has clone-says-holder "another master holds the log: host $(cat $FAMFS_HOST_ID_FILE)"
t_has clone-says-cloned "a cloned host or container"
t_rc clone-mkdir-refused 2 famfs mkdir $M/bd
t_eq clone-log-unchanged "$n" "$(next)"
t_ok clone-created-nothing test ! -e $M/b1 -o -e $M/bd
t_rc clone-show 3 famfs master $M
t_has clone-show-says "held by another instance"
t_rc clone-claim-refused 2 famfs master claim $M
t_eq clone-claim-log-unchanged "$n" "$(next)"
sync_post m2-b-refused
sync_wait m2-a-released 120 || exit 0
t_rc logplay-b 0 famfs logplay $M
t_rc b-sees-a2 0 famfs verify -S 2 $M/a2
t_rc clone-mkfile-after-hand-over 0 famfs mkfile -s 2m -S 3 $M/b1
t_eq clone-appended "$((n + 2))" "$(next)"
t_rc clone-show-holds 0 famfs master $M
t_has clone-show-holds-says "this instance:     this instance holds the role"
sync_post m2-b-appended
sync_wait m2-a-done 120
t_rc fsck-b 0 famfs fsck $M
umount $M
exit 0
