# profiles: two-hosts
# timeout: 300
# famfs rm, mv, chmod, chown across two hosts (issue 29, its first step):
# (also: a swap of two files replayed from the first entry on a tree
# played part way; chown drops a file's set-uid bit on every host)
# a is the master, b a client.  What a changes reaches b with famfs
# logplay and with logplay --follow; b's own famfs rm is refused with
# mkfile's message; a's remount shows the changes; a path removed and
# made again is a new file (a deleted file's memory is pending reclaim in
# df until no host can reach it: the first rm makes the host table, not
# armed, so nothing is reclaimed (df and hosts reclaim say why); b
# registers at its logplay, a arms the table once famfs hosts lists b,
# and the next rm's pass frees it; famfs-reclaim-test
# appends a RECLAIM of the rest, which b follows and a's remount replays).
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
mkdir -p $M
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"

off() { famfs getmap -j "$1" | jget .extents[0].offset; }
ident() { famfs getmap -j "$1" | jget .identity; }
mode() { stat -c %a "$1"; }
# gone ID PATH [TIMEOUT_S]: PASS once PATH is not there
gone() {
	_n=0
	while [ -e "$2" ] && [ $_n -lt $((${3:-1} * 10)) ]; do sleep 0.1; _n=$((_n + 1)); done
	if [ -e "$2" ]; then t_fail "$1" "$2 is still there"; else t_pass "$1"; fi
}

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc mkdir 0 famfs mkdir -p $M/d/sub
	t_rc mkfile 0 famfs mkfile -s 2m -S 1 $M/d/gone
	t_rc mkfile-batch 0 famfs mkfile -s 2m -S 2 $M/d/moved $M/d/mode $M/own
	t_rc mkfile-sub 0 famfs mkfile -s 1m -S 4 $M/d/sub/f1 $M/d/sub/f2
	t_rc mkfile-swap1 0 famfs mkfile -s 2m -S 11 $M/s1
	t_rc mkfile-swap2 0 famfs mkfile -s 2m -S 12 $M/s2
	gone_off=$(off $M/d/gone)
	gone_id=$(ident $M/d/gone)
	t_ok getmap-identity test -n "$gone_id"
	t_rc getmap-identity-text 0 famfs getmap $M/d/gone
	t_has getmap-identity-says "identity: log entry $gone_id\$"
	sync_post lc-a-ready
	sync_wait lc-b-mounted 120 || exit 0

	# the commands, on the master
	t_rc rm 0 famfs rm $M/d/gone
	t_ok rm-here test ! -e $M/d/gone
	t_rc mv 0 famfs mv $M/d/moved $M/d/renamed
	t_ok mv-here test -f $M/d/renamed -a ! -e $M/d/moved
	t_rc chmod 0 famfs chmod 600 $M/d/mode
	t_eq chmod-here 600 "$(mode $M/d/mode)"
	t_rc chmod-setuid 0 famfs chmod 4755 $M/own
	t_rc chown 0 famfs chown 1234:1234 $M/own
	t_eq chown-here 1234:1234 "$(stat -c %u:%g $M/own)"
	t_eq chown-drops-setuid 755 "$(mode $M/own)"	# as chown(2), logged too
	t_err chown-number-no-user 1 "no login group" famfs chown 3999999: $M/own
	# a swap through a third name: b's replay from the first entry, on
	# the tree its mount played, must end as in-order replay does
	t_rc swap 0 sh -c "famfs mv $M/s1 $M/s3 && famfs mv $M/s2 $M/s1 && famfs mv $M/s3 $M/s2"
	t_rc swap-here 0 famfs verify -S 12 $M/s1
	t_rc mv-dir 0 famfs mv $M/d/sub $M/sub2
	t_rc verify-moved-dir 0 famfs verify -S 4 $M/sub2/f1
	# refusals: nothing logged
	t_err rm-dir-needs-r 2 "is a directory" famfs rm $M/d
	# a file behind the log: only without the option protect
	famfs mount -o remount,noprotect $DEV $M
	touch $M/local
	t_err rm-not-logged 2 "not in the log" famfs rm $M/local
	t_err mv-onto-logged 2 "exists in the log" famfs mv $M/d/renamed $M/d/mode
	t_err mv-into-itself 2 "into itself" famfs mv $M/d $M/d/x
	t_err chmod-bad-mode 1 "mode 'u+q'" famfs chmod u+q $M/d/mode
	rm -f $M/local
	famfs mount -o remount,protect $DEV $M
	t_rc df 0 famfs df $M
	t_has df-pending "deleted *1 files, 0 directories: 2097152 bytes .* pending reclaim"
	# the first rm's table is not armed (b mounted before it): it waits
	t_has df-pending-unarmed "reclaim *waits: the host table is not armed"
	t_rc fsck 0 famfs fsck $M
	sync_post lc-a-changed
	sync_wait lc-b-following 120 || exit 0

	# while b follows: more, and a path made again
	# the first rm made the host table, not armed (and reclaimed nothing:
	# b had no slot yet); b registered at its logplay, which replayed
	# that rm and left it nothing of d/gone -- still nothing is reclaimed
	# until the table is armed; once famfs hosts lists b, a arms it, and
	# this rm's pass frees d/gone's memory
	t_rc reclaim-unarmed 0 famfs hosts reclaim $M
	t_has reclaim-unarmed-why "none reclaimed: the host table is not armed"
	t_eq reclaim-unarmed-none 0 "$(famfs df -j $M | jget .deleted.reclaimed_bytes)"
	t_rc hosts-lists-b 0 famfs hosts $M
	t_has hosts-lists-b-client "registered .*client"
	t_has hosts-unarmed "armed no"
	t_rc arm 0 famfs hosts arm $M
	t_rc rm-r 0 famfs rm -r $M/sub2
	t_ok rm-r-reclaims-gone test "$(famfs df -j $M | jget .deleted.reclaimed_bytes)" -ge 2097152
	t_rc mkfile-again 0 famfs mkfile -s 2m -S 7 $M/d/gone
	new_off=$(off $M/d/gone)
	new_id=$(ident $M/d/gone)
	t_ok new-memory test -n "$new_off"
	t_ok new-identity test "${new_id:-0}" -gt "$gone_id"
	# the rest by a RECLAIM appended whatever the hosts say (the test
	# tool): b follows it with no conflict, a remount replays it with
	# nothing corrupt
	t_rc reclaim 0 famfs-reclaim-test all $M
	t_has reclaim-freed "^reclaimed [0-9]"
	t_eq reclaim-none-pending 0 "$(famfs df -j $M | jget .deleted.pending_bytes)"
	t_rc mv-again 0 famfs mv $M/d/renamed $M/d/renamed2
	t_rc chmod-symbolic 0 famfs chmod g+r $M/d/mode
	t_eq chmod-symbolic-here 640 "$(mode $M/d/mode)"
	t_rc fsck-more 0 famfs fsck $M
	sync_post lc-a-more
	sync_wait lc-b-done 120

	# a remount replays it all: the changes are in the log
	umount $M
	t_rc remount 0 famfs mount $DEV $M
	t_rc remount-gone 0 famfs verify -S 7 $M/d/gone
	t_eq remount-gone-memory "$new_off" "$(off $M/d/gone)"
	t_eq remount-gone-identity "$new_id" "$(ident $M/d/gone)"
	t_rc remount-renamed 0 famfs verify -S 2 $M/d/renamed2
	t_ok remount-old-names test ! -e $M/d/moved -a ! -e $M/d/renamed -a ! -e $M/sub2 -a ! -e $M/d/sub
	t_eq remount-mode 640 "$(mode $M/d/mode)"
	t_eq remount-owner 1234:1234 "$(stat -c %u:%g $M/own)"
	t_eq remount-owner-mode 755 "$(mode $M/own)"
	t_rc remount-swap1 0 famfs verify -S 12 $M/s1
	t_rc remount-swap2 0 famfs verify -S 11 $M/s2
	t_rc remount-logplay 0 famfs logplay -n $M
	t_has remount-logplay-nothing "0 files and 0 directories to create, 7 present, 0 conflicts, 0 corrupt entries skipped, 0 errors, 0 to remove, 0 to move, 0 to change"
	# as chmod(1): a numeric mode of 4 digits or fewer keeps a
	# directory's set-gid bit; 5 digits clear it
	t_rc chmod-dir-setgid 0 famfs chmod 2755 $M/d
	t_rc chmod-dir-755 0 famfs chmod 755 $M/d
	t_eq chmod-dir-755-keeps-setgid 2755 "$(mode $M/d)"
	t_rc chmod-dir-00755 0 famfs chmod 00755 $M/d
	t_eq chmod-dir-00755-clears 755 "$(mode $M/d)"
	# as mv(1): DST/ names a directory, a file is not renamed to it
	t_err mv-file-to-slash 2 "$M/nodir/: Not a directory" famfs mv $M/s1 $M/nodir/
	t_ok mv-file-to-slash-kept test -f $M/s1 -a ! -e $M/nodir
	t_rc mv-dir-to-slash 0 famfs mv $M/d/ $M/d2/
	t_ok mv-dir-to-slash-renamed test -d $M/d2 -a ! -e $M/d
	t_rc fsck-end 0 famfs fsck $M
	umount $M
	exit 0
fi

# host b: the client
sync_wait lc-a-ready 180 || exit 0
t_rc client-mount 0 famfs mount $DEV $M
t_rc client-verify 0 famfs verify -S 1 $M/d/gone
# refused as mkfile is: the same message
mk=$(famfs mkfile -s 2m $M/x 2>&1)
t_err client-rm-refused 2 "is a client; only the master" famfs rm $M/d/gone
t_eq client-rm-says-as-mkfile "$mk" "$OUT"
t_err client-mv-refused 2 "is a client; only the master" famfs mv $M/d/gone $M/d/x
t_err client-chmod-refused 2 "is a client; only the master" famfs chmod 777 $M/d/gone
t_err client-chown-refused 2 "is a client; only the master" famfs chown 0 $M/d/gone
t_rc client-nothing-changed 0 famfs verify -S 1 $M/d/gone
sync_post lc-b-mounted
sync_wait lc-a-changed 120 || { sync_post lc-b-following; sync_post lc-b-done; exit 0; }

# famfs logplay: what a did
t_rc client-logplay 0 famfs logplay -v $M
t_has client-logplay-counts "1 removed, 4 moved, 2 changed"
t_ok client-removed test ! -e $M/d/gone
t_ok client-moved test ! -e $M/d/moved
t_rc client-renamed 0 famfs verify -S 2 $M/d/renamed
t_eq client-mode 400 "$(mode $M/d/mode)"		# no write bit on a client
t_eq client-owner 1234:1234 "$(stat -c %u:%g $M/own)"
t_eq client-owner-mode 555 "$(mode $M/own)"	# no set-uid bit: chown dropped it
t_rc client-swap1 0 famfs verify -S 12 $M/s1
t_rc client-swap2 0 famfs verify -S 11 $M/s2
t_ok client-nothing-aside test -z "$(ls -A $M | grep famfs-mv)"
t_rc client-moved-dir 0 famfs verify -S 4 $M/sub2/f2
t_ok client-moved-dir-old test ! -e $M/d/sub
t_rc client-logplay-again 0 famfs logplay -n $M
t_has client-logplay-idempotent "0 files and 0 directories to create, 9 present, 0 conflicts, 0 corrupt entries skipped, 0 errors, 0 to remove, 0 to move, 0 to change"
t_rc client-fsck 0 famfs fsck $M
t_rc client-check 0 famfs check $M

# logplay --follow: what a does next
famfs logplay --follow -i 50 -v $M > /tmp/lcf.out 2>&1 &
fpid=$!
sleep 1
sync_post lc-b-following
sync_wait lc-a-more 120
t_ok follow-renamed wait_for $M/d/renamed2 30
gone follow-removed-dir $M/sub2 10
gone follow-renamed-old $M/d/renamed 10
t_ok follow-made-again wait_for $M/d/gone 10
t_rc follow-made-again-bytes 0 famfs verify -S 7 $M/d/gone
t_rc follow-renamed-bytes 0 famfs verify -S 2 $M/d/renamed2
_n=0; while [ "$(mode $M/d/mode)" != 440 ] && [ $_n -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
t_eq follow-mode 440 "$(mode $M/d/mode)"
kill -TERM $fpid; wait $fpid
OUT=$(cat /tmp/lcf.out)
t_has follow-no-conflicts " 0 conflicts, 0 corrupt entries skipped, 0 errors"
t_has follow-did "removed, .* moved"
umount $M
sync_post lc-b-done
exit 0
