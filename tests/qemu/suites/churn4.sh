# profiles: four-hosts-churn
# timeout: 900
# timeout-long: 2700
# Churn on four hosts (issue 29): a file system that holds only CAP (64)
# files of 2 MiB at once -- the rest of the device taken by a ballast file
# sized from famfs df, not hard-coded -- and N creates (100 in make check,
# past the 64 the device holds; FAMFS_LONG=1: 1,000; FAMFS_CHURN_N another
# count) on the master, a, each file c/f<i>
# with its own seed (mkfile -S 1000+i), each removed (famfs rm) once LIVE
# (CAP / 2) newer ones exist, so that at most LIVE files are there at once
# and the memory of the removed ones must be reclaimed for the churn to go
# on.  A create the device is full for is tried again for up to
# FAMFS_CHURN_WAIT s (30: the followers may not have let go yet); after
# that it is a FAIL and the churn stops.  b and c follow with famfs mount
# -o follow, d with famfs logplay --follow; each verifies every file it
# sees with its seed while the file exists, and each round the oldest
# file it has again (the next one a removes: its memory is the first a
# reclaim could hand out too early); a mismatch is a FAIL (bytes of
# another file).  At the end each client's tree equals a's (paths, modes,
# sizes, maps, md5s) and every file left verifies.  Lines "churn: ..."
# give the counts and times.  a makes the host table (famfs hosts init,
# armed) before the clients mount.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
N=100
[ "${FAMFS_LONG:-0}" != 0 ] && N=1000
[ -n "${FAMFS_CHURN_N:-}" ] && N=$FAMFS_CHURN_N
FSIZE=2097152
CAP=64
LIVE=$((CAP / 2))
WAIT=${FAMFS_CHURN_WAIT:-30}
SEED0=1000
mkdir -p $M
famfs_loaded || exit 0

now() { read -r _u _ < /proc/uptime; echo "${_u%.*}"; }

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	# the host table before any client mounts: armed, so the master
	# reclaims once every registered host let go
	t_rc hosts-init 0 famfs hosts init $M
	t_eq hosts-armed true "$(famfs hosts -j $M | jget .armed)"
	t_rc mkdir 0 famfs mkdir $M/c
	# the ballast: all but CAP files' worth of the free memory
	free=$(famfs df -j $M | jget .free)
	unit=$(famfs df -j $M | jget .alloc_unit)
	t_eq unit-is-2m $FSIZE "$unit"
	ballast=$((free - CAP * FSIZE))
	echo "churn: N=$N free $free bytes: ballast $ballast, room for $CAP files of $FSIZE, $LIVE live"
	if [ "$ballast" -lt 0 ]; then
		t_fail device-too-small "$free bytes free, $((CAP * FSIZE)) needed"
		exit 0
	fi
	[ "$ballast" = 0 ] || t_rc ballast 0 famfs mkfile -s $ballast $M/ballast
	t_eq holds-cap $((CAP * FSIZE)) "$(famfs df -j $M | jget .free)"
	sync_post churn-a-ready
	sync_wait_all churn-following 240 || exit 0

	t0=$(now) made=0 removed=0 retried=0 i=1
	while [ $i -le $N ]; do
		w=0 t1=$(now)
		until out=$(famfs mkfile -s $FSIZE -S $((SEED0 + i)) $M/c/f$i 2>&1); do
			if ! echo "$out" | grep -q 'full\|No space' || [ $(($(now) - t1)) -ge $WAIT ]; then
				t_fail create-$i "famfs mkfile c/f$i (after $made created, $removed removed; $(($(now) - t1)) s of retries): $(echo "$out" | tail -n 2 | tr '\n' ' ')df: $(famfs df $M 2>&1 | grep -i 'free\|pending\|waits' | tr -s ' \n' ' ')"
				break 2
			fi
			[ $w = 0 ] && retried=$((retried + 1))
			sleep 0.2; w=$((w + 1))
		done
		made=$((made + 1))
		if [ $i -gt $LIVE ]; then
			if out=$(famfs rm $M/c/f$((i - LIVE)) 2>&1); then removed=$((removed + 1))
			else t_fail rm-$((i - LIVE)) "$out"; break; fi
		fi
		[ $((i % 50)) = 0 ] && echo "churn: $i created, $removed removed, $((($(now) - t0))) s"
		i=$((i + 1))
	done
	echo "churn: a: $made created, $removed removed, $retried creates waited for memory, $(($(now) - t0)) s"
	t_eq created $N $made
	t_eq removed $((N - LIVE)) $removed
	t_eq live-files $((made - removed)) "$(ls $M/c | wc -l)"
	ok=0
	for f in $(ls $M/c); do famfs verify -S $((SEED0 + ${f#f})) $M/c/$f >/dev/null 2>&1 && ok=$((ok + 1)); done
	t_eq master-verify $((made - removed)) $ok
	t_rc fsck 0 famfs fsck $M
	famfs_tree $M ballast > "$S/churn-tree-a"
	sync_post churn-a-done "$made"
	t_peers client-checks churn-checked $((WAIT + 600))
	t_rc fsck-end 0 famfs fsck $M
	t_ok umount umount_retry
	t_ok no-warnings no_warnings
	exit 0
fi

# b, c, d: follow, and verify every file seen while it is there
sync_wait churn-a-ready 240 a || exit 0
case $FAMFS_HOST in
d)	t_rc client-mount 0 famfs mount $DEV $M
	famfs logplay --follow -v -i 100 $M > /tmp/churn-follow.out 2>&1 &
	FP=$! ;;
*)	t_rc client-mount-follow 0 famfs mount -o follow $DEV $M ;;
esac
sync_post churn-following-$FAMFS_HOST
rm -rf /tmp/v /tmp/tries; mkdir -p /tmp/v /tmp/tries
ok=0 bad=0 gone=0 again=0 last=0 t0=$(now)
while :; do
	[ -e "$S/churn-a-done" ] && last=1
	for f in $(ls $M/c 2>/dev/null); do
		[ -e /tmp/v/$f ] && continue
		# the follower makes the file, then maps it: not yet its size
		sz=$(stat -c %s $M/c/$f 2>/dev/null)
		if [ "$sz" = $FSIZE ]; then
			famfs verify -S $((SEED0 + ${f#f})) $M/c/$f > /tmp/vout 2>&1
			rc=$?
		else
			rc=-1
		fi
		if [ $rc = 0 ]; then
			ok=$((ok + 1)); touch /tmp/v/$f
		elif [ $rc = 3 ]; then
			bad=$((bad + 1)); touch /tmp/v/$f
			t_fail verify-$f "another file's bytes? $(tail -n 2 /tmp/vout | tr '\n' ' ')"
		elif [ ! -e $M/c/$f ]; then
			gone=$((gone + 1)); touch /tmp/v/$f	# removed before it was read
		else
			echo x >> /tmp/tries/$f
			if [ "$(wc -l < /tmp/tries/$f)" -ge 50 ]; then
				bad=$((bad + 1)); touch /tmp/v/$f
				t_fail verify-$f "still there, size $sz, and not verifiable after 50 tries: $(tail -n 2 /tmp/vout 2>/dev/null | tr '\n' ' ')"
			fi
		fi
	done
	# and again the oldest one here, whose rm this host has not
	# replayed yet: its memory must not be a new file's already
	o=$(ls $M/c 2>/dev/null | sed 's/^f//' | sort -n | head -n 1)
	if [ -n "$o" ] && [ -e /tmp/v/f$o ] && [ ! -e /tmp/tries/f$o.bad ]; then
		famfs verify -S $((SEED0 + o)) $M/c/f$o > /tmp/vout 2>&1
		rc=$?
		if [ $rc = 0 ]; then
			again=$((again + 1))
		elif [ $rc = 3 ]; then
			bad=$((bad + 1)); touch /tmp/tries/f$o.bad
			t_fail verify-again-f$o "its memory given to another file while this host has it? $(tail -n 2 /tmp/vout | tr '\n' ' ')"
		fi
	fi
	[ $last = 1 ] && break
	sleep 0.2
done
echo "churn: $FAMFS_HOST: $ok files verified ($again times the oldest again), $gone removed before it read them, $bad failed, $(($(now) - t0)) s; $(awk '/^(MemFree|Cached):/ { printf "%s %d MiB ", $1, $2 / 1024 }' /proc/meminfo)"
# the follower has everything: the same tree as a's, every file verified
t_tree client-same-tree $M "$S/churn-tree-a" 120 ballast
left=0 leftok=0
for f in $(ls $M/c); do
	left=$((left + 1))
	famfs verify -S $((SEED0 + ${f#f})) $M/c/$f >/dev/null 2>&1 && leftok=$((leftok + 1))
done
t_eq client-left-verified $left $leftok
t_eq client-verify-failures 0 $bad
t_ok client-verified-during-churn [ $ok -ge $LIVE ]	# it followed, not only at the end
t_ok client-umount umount_retry
if [ "$FAMFS_HOST" = d ]; then
	_n=0
	while kill -0 $FP 2>/dev/null && [ $_n -lt 50 ]; do sleep 0.1; _n=$((_n + 1)); done
	kill -0 $FP 2>/dev/null && { t_fail follower-exit "still running 5 s after umount"; kill -KILL $FP; }
	t_ok follower-no-conflicts sh -c "! grep -i 'conflict\|logged twice\|differs' /tmp/churn-follow.out | grep -v ' 0 conflicts'"
fi
t_ok client-no-warnings no_warnings
sync_post_verdict churn-checked-$FAMFS_HOST
exit 0
