# profiles: two-hosts
# timeout: 400
# The master role (issue 15.2) on two hosts of one memory.  Host b is made a
# clone of the master a: the same host uuid (a's host id file copied), its
# own boot id and no claim.  b mounts (with a warning) but is refused before
# it appends -- mkfile and mkdir exit 2 naming the holder, the log's next
# index is unchanged, nothing is created -- and famfs master on b says so
# (exit 3).  Then a hands the role over (famfs master set with its own uuid:
# whichever instance of that host claims first); b's next mkfile claims the
# record, replays what a logged meanwhile into b's mount (its tree was
# behind) and appends; now a is refused, and fsck is clean on both.
#
# Then (issue 27.4) a becomes a full disk clone of b, the holder: b's claim
# file too, so that "claim file matches, boot id differs" -- what a reboot
# of b looks like.  While b beat a moment ago, a is refused at once, naming
# b's boot, the beat's age and -f.  With b idle for longer than the lease,
# a announces a takeover and watches b's beat for a lease: b runs a command
# meanwhile (and is told of the announcement), so a is refused ("beat
# moved").  With b idle again, a waits a lease and takes the role (the
# documented trade-off); b's next append is refused, naming a's boot.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/tmp/master-2h
S=$FAMFS_SYNC
export FAMFS_HOST_ID_FILE=/tmp/master-2h-host-uuid
export FAMFS_CLAIM_DIR=/tmp/master-2h-claims
export FAMFS_MASTER_LEASE=8	# the takeover's wait (default 10 s)
LEASE=8
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
	t_rc mkdir-a-late 0 famfs mkdir $M/a-late
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
	sync_post m2-a-done
	# ---- 27.4: a, a full clone of b (the holder, live) -------------------
	sync_wait m4-b-beat 120 || exit 0
	rm -rf $FAMFS_CLAIM_DIR && mkdir -p $FAMFS_CLAIM_DIR
	cp "$S"/m4-claims/* $FAMFS_CLAIM_DIR/
	bboot=$(cat "$S/m4-b-boot")
	n=$(next)
	t_rc clone-live-refused 2 famfs mkfile -s 2m $M/c1
	t_has clone-live-names-holder "boot $bboot"
	t_has clone-live-says-beat "last beat [0-9]* s ago"
	t_has clone-live-says-force "famfs master claim -f"
	t_eq clone-live-log-unchanged "$n" "$(next)"
	t_ok clone-live-created-nothing test ! -e $M/c1
	t_rc clone-live-show 3 famfs master $M
	t_has clone-live-show-beat "last beat"
	# b idle for longer than the lease; then a watches b's beat for a lease
	sleep $((LEASE + 3))
	sync_post m4-a-waiting
	t_rc clone-beat-moved-refused 2 famfs mkfile -s 2m $M/c2
	t_has clone-beat-moved-says "beat moved"
	t_eq clone-beat-moved-log-unchanged "$((n + 1))" "$(next)"
	sync_post m4-a-refused
	# b idle again: a waits a lease and takes the role
	sync_wait m4-b-idle 120 || exit 0
	sleep $((LEASE + 3))
	cat /proc/sys/kernel/random/boot_id > "$S/m4-a-boot"
	t_rc clone-takes-idle-role 0 famfs mkfile -s 2m -S 5 $M/c3
	t_has clone-takes-says-wait "waiting $LEASE s"
	t_rc clone-show-holds 0 famfs master $M
	t_has clone-show-holds-says "this instance:     this instance holds the role"
	sync_post m4-a-took
	sync_wait m4-b-done 120
	t_rc fsck-a-end 0 famfs fsck $M
	umount $M
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
# b's tree is behind the log a wrote (no follower here): its claim, at
# its first append, replays it to the end first (review r39 D)
t_ok b-behind test ! -e $M/a2 -a ! -e $M/a-late
t_rc clone-mkfile-after-hand-over 0 famfs mkfile -s 2m -S 3 $M/b1
t_has b-claim-replayed "its mount replayed to the end of the log first"
t_rc b-sees-a2 0 famfs verify -S 2 $M/a2
t_ok b-sees-a-late test -d $M/a-late
t_eq clone-appended "$((n + 3))" "$(next)"
t_rc logplay-b 0 famfs logplay $M
t_rc clone-show-holds 0 famfs master $M
t_has clone-show-holds-says "this instance:     this instance holds the role"
sync_post m2-b-appended
sync_wait m2-a-done 120 || exit 0
t_rc fsck-b 0 famfs fsck $M
# ---- 27.4: b holds the role; a becomes a full clone of b --------------------
mkdir -p "$S/m4-claims" && cp $FAMFS_CLAIM_DIR/*.claim "$S/m4-claims/"
cat /proc/sys/kernel/random/boot_id > "$S/m4-b-boot"
t_rc b-beats 0 famfs mkfile -s 2m $M/b2
sync_post m4-b-beat
sync_wait m4-a-waiting 120 || exit 0
sleep 3		# a has read the beat and announced its takeover
t_rc b-command-during-wait 0 famfs mkdir $M/b-alive
t_has b-told-of-takeover "announced"
sync_wait m4-a-refused 120 || exit 0
t_rc b-keeps-role 0 famfs mkdir $M/b-alive2
sync_post m4-b-idle
sync_wait m4-a-took 120 || exit 0
n=$(next)
t_rc b-refused-after-takeover 2 famfs mkfile -s 2m $M/b3
t_has b-refusal-names-new-holder "boot $(cat "$S/m4-a-boot")"
t_eq b-refused-log-unchanged "$n" "$(next)"
t_rc logplay-b-end 0 famfs logplay $M
t_rc b-sees-c3 0 famfs verify -S 5 $M/c3
t_rc fsck-b-end 0 famfs fsck $M
sync_post m4-b-done
umount $M
exit 0
