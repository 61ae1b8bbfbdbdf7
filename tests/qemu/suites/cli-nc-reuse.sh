# profiles: two-hosts
# timeout: 180
# Memory reused on non-coherent memory (issue 29, review r38 finding 7): b
# reads file f through its mapping (its CPU caches may keep f's lines), a
# removes f, b replays the DELETE and lets go, a's pass reclaims f's memory
# and gives it to a new file g.  When b's replay makes g it drops its cache
# lines of g's memory before the map is published (MAP_CREATE_V3 with
# FAMFS_IOC_MAP_INVALIDATE: a famfs:famfs_cache "map" event of g's 2 MiB;
# FAMFS_DEBUG_FLUSH counts file_invalidates), so no load of b ever serves
# f's bytes as g's: before reclaim, a new file's memory was never in any
# host's caches.  Only a
# file on memory a DELETE earlier in the log owned is dropped: b's new
# mount replays h (never reclaimed memory) and g, and drops g's alone.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs-ncr
mkdir -p $M
famfs_loaded || exit 0
off() { famfs getmap -j "$1" | jget .extents[0].offset; }
flush_stat() { echo "$OUT" | sed -n "s/.*famfs: flush:.* $1=\([0-9]*\).*/\1/p" | head -n 1; }

if [ "$FAMFS_HOST" = b ]; then
	sync_wait ncr-a-ready 180 a || exit 0
	t_rc b-mount 0 famfs mount $DEV $M
	t_rc b-read-f 0 famfs verify -S 31 $M/d/f
	sync_post ncr-b-read
	sync_wait ncr-a-rm 120 a || exit 0
	t_rc b-play-delete 0 famfs logplay $M
	t_ok b-f-gone test ! -e $M/d/f
	sync_post ncr-b-played
	sync_wait ncr-a-g 120 a || exit 0
	trace_have famfs/famfs_cache && trace_on famfs/famfs_cache
	OUT=$(FAMFS_DEBUG_FLUSH=1 famfs logplay $M 2>&1)
	t_eq b-play-g 1 "$(echo "$OUT" | grep -c 'famfs: flush:')"
	t_eq b-g-invalidated 1 "$(flush_stat file_invalidates)"
	if trace_have famfs/famfs_cache; then
		trace_off famfs/famfs_cache
		t_eq b-g-dropped-by-create "map/invalidate=2097152" \
			"$(cache_counts | tr ' ' '\n' | grep '^map/')"
	else
		trace_missing b-g-dropped-by-create "the famfs/famfs_cache tracepoint"
	fi
	t_rc b-g-verifies 0 famfs verify -S 32 $M/d/g
	t_rc b-f-seed-not-g 3 famfs verify -S 31 $M/d/g
	# a replay that makes nothing drops nothing
	OUT=$(FAMFS_DEBUG_FLUSH=1 famfs logplay $M 2>&1)
	t_eq b-play-nothing 0 "$(flush_stat file_invalidates)"
	t_ok b-umount umount_retry
	OUT=$(FAMFS_DEBUG_FLUSH=1 famfs mount $DEV $M 2>&1)
	t_eq b-remount-h-g-made 1 "$(echo "$OUT" | grep -c 'famfs: flush:')"
	t_eq b-remount-g-alone 1 "$(flush_stat file_invalidates)"
	t_rc b-remount-g-verifies 0 famfs verify -S 32 $M/d/g
	t_rc b-remount-h-verifies 0 famfs verify -S 33 $M/d/h
	t_ok b-umount-again umount_retry
	t_ok b-no-warnings no_warnings
	sync_post_verdict ncr-b-done
	exit 0
fi

t_rc mkfs 0 famfs mkfs -f --noncoherent $DEV
t_rc mount 0 famfs mount $DEV $M
t_rc hosts-init 0 famfs hosts init $M
t_rc mkdir 0 famfs mkdir $M/d
t_rc mkfile-f 0 famfs mkfile -s 2m -S 31 $M/d/f
t_rc mkfile-h 0 famfs mkfile -s 2m -S 33 $M/d/h
f_off=$(off $M/d/f)
sync_post ncr-a-ready
sync_wait ncr-b-read 180 b || exit 0
t_rc rm-f 0 famfs rm $M/d/f
sync_post ncr-a-rm
sync_wait ncr-b-played 120 b || exit 0
t_rc reclaim 0 famfs hosts reclaim $M
t_rc mkfile-g 0 famfs mkfile -s 2m -S 32 $M/d/g
t_eq g-on-f-memory "$f_off" "$(off $M/d/g)"
sync_post ncr-a-g
t_peer b-checks ncr-b-done 180
t_ok umount umount_retry
t_ok no-warnings no_warnings
exit 0
