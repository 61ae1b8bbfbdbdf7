# profiles: four-hosts
# timeout: 300
# One memory, four hosts (issue 29): a is the master, b, c and d clients
# that follow its log: b and c with famfs mount -o follow, d with famfs
# mount and famfs logplay --follow.  a makes the file system and files of
# 4 KiB (pages of a shared unit) to 5 MiB, each with a seed of its own
# (mkfile -S); every client mounts and verifies every file with its seed.
# While they follow, a adds files, removes one, makes a removed path again
# (new memory, a new seed), renames a file and a directory and changes
# modes (famfs rm, mv, chmod).  At the end every client's tree equals a's
# (paths, modes, owners, sizes, maps and each file's md5: famfs_tree) and
# every file verifies with its own seed: no client reads another file's
# bytes, nor the bytes a removed file had at a path made again.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
mkdir -p $M
famfs_loaded || exit 0

# mk SIZE SEED PATH...: one famfs mkfile per file, each listed in
# /tmp/c4-files as "PATH SEED" (PATH relative to $M)
mk() {
	_s=$1 _seed=$2; shift 2
	for _f; do
		t_rc "mkfile-$(echo "$_f" | tr / -)" 0 famfs mkfile -s "$_s" -S "$_seed" "$M/$_f"
		echo "$_f $_seed" >> /tmp/c4-files
		_seed=$((_seed + 1))
	done
}
# verify_all PFX LIST: famfs verify every "PATH SEED" of LIST, ids PFX-PATH
verify_all() {
	while read -r _f _seed; do
		t_rc "$1-$(echo "$_f" | tr / -)" 0 famfs verify -S "$_seed" "$M/$_f"
	done < "$2"
}

if [ "$FAMFS_HOST" = a ]; then
	: > /tmp/c4-files
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_rc mkdir 0 famfs mkdir -p $M/d/sub $M/e
	mk 2m 1 d/f1
	mk 3m 2 d/f2
	mk 4k 3 d/f3 d/f4 e/p1		# small files: pages side by side
	mk 100k 6 d/sub/g1
	mk 1m 7 d/sub/g2
	mk 5m 8 e/h1
	cp /tmp/c4-files "$S/c4-files-1"
	sync_post c4-a-ready
	sync_wait_all c4-mounted 240 || exit 0

	# while b, c and d follow
	mk 2m 11 d/late1
	mk 4k 12 e/late2
	t_rc rm 0 famfs rm $M/d/f2
	t_rc rm-again-path 0 famfs rm $M/d/f1
	# the first rm made the host table after b, c and d mounted: not
	# armed, nothing reclaimed (review r38: a client that mounted before
	# it and never replayed again would have no slot)
	t_rc df-unarmed 0 famfs df $M
	t_has df-unarmed-waits "reclaim *waits: the host table is not armed"
	t_eq df-unarmed-none 0 "$(famfs df -j $M | jget .deleted.reclaimed_bytes)"
	t_rc mkfile-again 0 famfs mkfile -s 2m -S 21 $M/d/f1
	t_rc mv 0 famfs mv $M/d/f3 $M/d/f3m
	t_rc mv-dir 0 famfs mv $M/d/sub $M/sub2
	t_rc chmod 0 famfs chmod 600 $M/d/f4
	t_rc chmod-dir 0 famfs chmod 750 $M/e
	t_rc chmod-small 0 famfs chmod 640 $M/e/p1
	# the list now: d/f2 and the old d/f1 gone, renames, d/f1 seed 21
	sed -e '/^d\/f[12] /d' -e 's|^d/f3 |d/f3m |' -e 's|^d/sub/|sub2/|' /tmp/c4-files > /tmp/c4-final
	echo "d/f1 21" >> /tmp/c4-final
	t_eq files-listed 9 "$(wc -l < /tmp/c4-final)"
	verify_all master-verify /tmp/c4-final
	t_eq mode-here 600 "$(stat -c %a $M/d/f4)"
	t_rc fsck 0 famfs fsck $M
	cp /tmp/c4-final "$S/c4-files-2"
	famfs_tree $M > /tmp/c4-tree
	t_eq tree-lines 12 "$(wc -l < /tmp/c4-tree)"	# 9 files, 3 directories
	cp /tmp/c4-tree "$S/c4-tree-a"
	sync_post c4-a-done
	t_peers client-checks c4-checked 240
	t_rc fsck-end 0 famfs fsck $M
	t_ok umount umount_retry
	t_ok no-warnings no_warnings
	exit 0
fi

# b, c, d: clients that follow
sync_wait c4-a-ready 240 a || exit 0
case $FAMFS_HOST in
d)	t_rc client-mount 0 famfs mount $DEV $M
	famfs logplay --follow -v -i 100 $M > /tmp/c4-follow.out 2>&1 &
	FP=$!
	_n=0
	until grep -q '^famfs logplay: following' /tmp/c4-follow.out || [ $_n -ge 300 ]; do
		sleep 0.1; _n=$((_n + 1))
	done
	t_ok follower-started grep -q '^famfs logplay: following' /tmp/c4-follow.out ;;
*)	t_rc client-mount-follow 0 famfs mount -o follow $DEV $M ;;
esac
verify_all client-verify "$S/c4-files-1"
# a seed of another file's is a mismatch (verify tells files apart)
t_rc client-other-seed 3 famfs verify -S 2 $M/d/f1
t_err client-mkfile-refused 2 "is a client; only the master" famfs mkfile -s 2m $M/x
t_err client-rm-refused 2 "is a client; only the master" famfs rm $M/d/f1
sync_post c4-mounted-$FAMFS_HOST
sync_wait c4-a-done 300 a || { sync_post_verdict c4-checked-$FAMFS_HOST; exit 0; }

# the follower brings the tree to a's: paths, modes, sizes, maps, md5s
t_tree client-same-tree $M "$S/c4-tree-a" 90
verify_all client-verify-end "$S/c4-files-2"
t_ok client-removed test ! -e $M/d/f2
t_ok client-moved test ! -e $M/d/f3 -a ! -e $M/d/sub
t_rc client-again-not-old 3 famfs verify -S 1 $M/d/f1
t_eq client-mode 400 "$(stat -c %a $M/d/f4)"	# a's 600, no write bit here
t_eq client-dir-mode 750 "$(stat -c %a $M/e)"
t_rc client-fsck 0 famfs fsck $M
t_ok client-umount umount_retry
if [ "$FAMFS_HOST" = d ]; then
	_n=0
	while kill -0 $FP 2>/dev/null && [ $_n -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
	if kill -0 $FP 2>/dev/null; then
		t_fail follower-exit "still running 5 s after umount"; kill -KILL $FP
	else
		wait $FP; t_eq follower-exit 0 $?
	fi
	t_ok follower-no-conflicts sh -c "! grep -i 'conflict\|logged twice\|differs' /tmp/c4-follow.out | grep -v ' 0 conflicts'"
else
	_n=0
	while ps -o args | grep -q '[f]amfs mount -o follow' && [ $_n -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
	t_eq follow-daemon-exits "" "$(ps -o pid,args | grep '[f]amfs mount -o follow')"
fi
t_ok client-no-warnings no_warnings
sync_post_verdict c4-checked-$FAMFS_HOST
exit 0
