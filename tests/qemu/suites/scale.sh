# profiles: two-hosts
# timeout: 300
# timeout-long: 900
# Metadata at scale (issue 17): host a (the master) makes a famfs with a log
# large enough and creates N log entries in batches, one command per batch
# through xargs: famfs mkdir -p of many directories, famfs mkfile -S of many
# files, famfs cp of many small files.  Host b (a client) follows with
# famfs logplay --follow from before the first entry.  Then both trees must
# match: every path, type, mode (files without write bits: a client's are
# read-only), owner and size (ls -lnR), the data of
# every copied file (md5) and of a sample of the seeded ones (famfs
# verify).  b then unmounts and mounts again (a replay of the whole log)
# and compares once more.  A file takes at least one 2 MiB unit, so on the
# 1 GiB device about 330 entries are files and the rest directories.
# N = 10000 (make check: 48 s in the guest, 62 s the whole boot);
# FAMFS_LONG=1 (tests/qemu/README.md): N = 100000 on a 32 MiB log, with
# the "timeout-long" above (280 s in the guest, 310 s the boot).  FAMFS_SCALE_N
# sets another N.  Phase times (s) are printed as "scale: ..." lines.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
N=10000 LOGLEN=8M
if [ "${FAMFS_LONG:-0}" != 0 ]; then N=100000 LOGLEN=32M; fi
[ -n "${FAMFS_SCALE_N:-}" ] && N=$FAMFS_SCALE_N
[ "$N" -gt 30000 ] && LOGLEN=32M
NSEED=180	# famfs mkfile -S files, in batches of 30 (seed = batch)
NCP=150		# famfs cp files, one command
NDIR=$((N - NSEED - NCP - 1))	# and the directory cp/
mkdir -p $M

# centiseconds since boot
now() { read -r _u _ < /proc/uptime; echo "${_u%.*}${_u#*.}"; }
secs() { echo "$(($1 / 100)).$(printf %02d $(($1 % 100)))"; }
phase() {	# phase NAME T0: print the time since T0
	_t=$(now)
	echo "scale: N=$N $1 $(secs $((_t - $2))) s"
}
# every path under $M but .meta: mode, links, owner, group, size, name
# (ls -lnR: one process for the whole tree; dates left out).  A client's
# files are read-only (logplay drops their write bits), so files are
# listed without them on both hosts.
tree_list() {
	ls -lnR $M | awk '/^total /{next} /:$/{print; next}
		NF>=9{m = $1; if (m ~ /^-/) gsub(/w/, "-", m); print m, $2, $3, $4, $5, $9}'
}
tree_diff() {	# tree_diff ID: FAIL ID-same-tree with the first lines that differ
	cp /tmp/tree "$S/scale-b-tree-$1"
	t_fail "$1-same-tree" "$(diff "$S/scale-a-tree" /tmp/tree | grep '^[-+][^-+]' | head -n 4 | tr '\n' ' ')"
}
# the directories: t<i> (parents) and t<i>/s<j>, 100 to a parent
dir_list() {
	awk -v n=$NDIR -v m=$M 'BEGIN { for (k = 0; k < n; k++)
		if (k % 100 == 0) print m "/t" int(k / 100);
		else print m "/t" int(k / 100) "/s" k % 100 }'
}
# the seeded files of batch b (30 of them, spread over the parents)
seed_list() {
	awk -v b=$1 -v p=$(((NDIR + 99) / 100)) -v m=$M 'BEGIN {
		for (i = b * 30; i < b * 30 + 30; i++) print m "/t" i % p "/f" i }'
}
seed_size() { echo $((($1 % 4) * 5000 + 1000 + ($1 == 3) * 3 * 1048576)); }

famfs_loaded || exit 0
[ "$NDIR" -gt 0 ] || { t_fail n "N=$N: too small (at least $((NSEED + NCP + 2)))"; exit 0; }

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f --loglen $LOGLEN "$DEV"
	t_rc mount 0 famfs mount "$DEV" $M
	mkdir -p /tmp/src
	i=0
	while [ $i -lt $NCP ]; do
		head -c $((i * 37 + 1)) /dev/urandom > /tmp/src/c$i
		i=$((i + 1))
	done
	sync_post scale-a-ready
	sync_wait scale-b-following 120 || exit 0
	t0=$(now)
	dir_list | xargs -n 2000 famfs mkdir -p
	t_eq mkdir-batches 0 $?
	phase mkdir-$NDIR $t0
	t0=$(now) b=0 bad=0
	while [ $b -lt $((NSEED / 30)) ]; do
		seed_list $b | xargs famfs mkfile -s "$(seed_size $b)" -S $b ||
			bad=$((bad + 1))
		b=$((b + 1))
	done
	t_eq mkfile-batches 0 $bad
	phase mkfile-$NSEED $t0
	t0=$(now)
	t_rc mkdir-cp 0 famfs mkdir $M/cp
	t_rc cp-batch 0 famfs cp /tmp/src/* $M/cp/
	phase cp-$NCP $t0
	t_eq log-entries $N "$(famfs df -j $M | jget .log.entries)"
	t_eq dirs $((NDIR + 2)) "$(find $M -path $M/.meta -prune -o -type d -print | grep -c /)"
	t_eq files $((NSEED + NCP)) "$(find $M -path $M/.meta -prune -o -type f -print | wc -l)"
	t0=$(now)
	tree_list > /tmp/tree && cp /tmp/tree "$S/scale-a-tree"
	(cd $M/cp && md5sum *) > "$S/scale-a-md5"
	phase list $t0
	# a header line per directory (and the root's), a line per entry
	t_eq tree-lines $((N + NDIR + 2)) "$(wc -l < /tmp/tree)"
	sync_post scale-a-done
	sync_wait scale-b-done $(( (N / 1000 + 1) * 20 ))
	t_peer client-ok scale-b-verdict 30
	t0=$(now)
	t_rc fsck-end 0 famfs fsck $M
	phase fsck $t0
	t_ok umount umount $M
	t_ok no-warnings no_warnings
	exit 0
fi

# host b: the client, following from before the first entry
sync_wait scale-a-ready 300 || exit 0
t_rc client-mount 0 famfs mount "$DEV" $M
famfs logplay --follow -i 200 $M > /tmp/follow.out 2>&1 &
FP=$!
n=0
until grep -q '^famfs logplay: following' /tmp/follow.out || [ $n -ge 100 ]; do
	sleep 0.1; n=$((n + 1))
done
t_ok follower-started grep -q '^famfs logplay: following' /tmp/follow.out
sync_post scale-b-following
sync_wait scale-a-done $(( (N / 1000 + 1) * 25 )) || { kill $FP; exit 0; }
# the follower catches up: cp/ (a's last command) complete, within a
# bound; then the tree listed as a's (the last file may still be mapping)
t0=$(now) n=0 limit=$(( (N / 1000 + 1) * 20 ))
until [ "$(ls $M/cp 2>/dev/null | wc -l)" = $NCP ] || [ $n -ge $limit ]; do
	sleep 1; n=$((n + 1))
done
phase follow-catch-up $t0
t_eq follow-cp-files $NCP "$(ls $M/cp 2>/dev/null | wc -l)"
n=0
until tree_list > /tmp/tree && cmp -s /tmp/tree "$S/scale-a-tree" || [ $n -ge 5 ]; do
	sleep 1; n=$((n + 1))
done
if cmp -s /tmp/tree "$S/scale-a-tree"; then
	t_pass follow-same-tree
else
	tree_diff follow
fi
check_data() {	# check_data ID: the copied files' md5, seeded files verified
	(cd $M/cp && md5sum *) > /tmp/md5
	if cmp -s /tmp/md5 "$S/scale-a-md5"; then t_pass "$1-cp-md5"
	else t_fail "$1-cp-md5" "$(diff "$S/scale-a-md5" /tmp/md5 | head -n 4 | tr '\n' ' ')"; fi
	b=0 bad=0
	while [ $b -lt $((NSEED / 30)) ]; do
		for f in $(seed_list $b | sed -n '1p;17p;30p'); do
			famfs verify -S $b "$f" > /dev/null 2>&1 || { bad=$((bad + 1)); echo "scale: $f: famfs verify -S $b failed"; }
		done
		b=$((b + 1))
	done
	t_eq "$1-seeded-verify" 0 $bad
}
check_data follow
kill $FP
wait $FP
t_eq follower-sigterm 0 $?
t_ok client-umount umount $M
# a new mount replays the whole log
t0=$(now)
t_rc client-remount 0 famfs mount "$DEV" $M
phase client-mount-replay $t0
tree_list > /tmp/tree
if cmp -s /tmp/tree "$S/scale-a-tree"; then
	t_pass remount-same-tree
else
	tree_diff remount
fi
check_data remount
t0=$(now)
t_rc logplay-noop 0 famfs logplay $M
phase client-logplay-noop $t0
t_ok client-umount-end umount $M
t_ok no-warnings no_warnings
sync_post_verdict scale-b-verdict
sync_post scale-b-done
exit 0
