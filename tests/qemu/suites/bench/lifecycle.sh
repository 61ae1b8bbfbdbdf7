# The lifecycle part of suites/bench.sh (issue 29, first half), sourced by
# it: what removing a file costs against what creating it costs, in one
# boot.  docs/bench-lifecycle.md says what each figure is; the report is
# scripts/bench-lifecycle.awk (section 9).  Parameters (kernel command line):
#   BENCH_LIFE_N (100)     entries of each kind in the replay logs
#   BENCH_LIFE_BATCH (20)  files per batch command (famfs cp / famfs rm)
# Lines (to $OUT):
#   BENCH life-config n=N batch=B reps=R
#   BENCH life-time what=W size=S n=N rep=R ns=NS     (timed; W below)
#   BENCH life-play what=K n=N rep=R ns=NS entries=E  (a timed famfs logplay)
# Commands, per repetition and size (4K, 2M), one process each:
#   mkfile  famfs mkfile -s S of one new file
#   rm      famfs rm of that file
#   cp      famfs cp of B files of S bytes from tmpfs (n=B)
#   rmb     famfs rm of those B files, one command (n=B)
#   floor   now; now (the clock's own exec, taken off every figure)
# Replay: logs are made on this host, saved (superblock and log: the first
# 2 MiB + 16 MiB of the device) and put back under a mounted tree, as a
# client sees the master's new entries; then one famfs logplay, timed:
#   empty   log: nothing; tree: nothing                  (noop)
#   create  log: N creates (4 KiB files); tree: nothing  (makes N files)
#   base    log: N creates; tree: the N files            (noop)
#   delete  log: N creates + N DELETEs; tree: the N files (removes them)
#   rename  log: N creates + N RENAMEs; tree: the N files (moves them)
#   setattr log: N creates + N SETATTRs (chmod); tree: the N files
# Per entry: create (create - empty) / N; delete, rename, setattr
# (K - base) / N.  A log with a DELETE or RENAME is replayed whole from its
# first entry (lib/replay/fullplay.c: pass 1 over the log, then the tree
# made what its end says), as famfs logplay and a mount do; the SETATTR
# log is played in order.
LN=${BENCH_LIFE_N:-100}
LB=${BENCH_LIFE_BATCH:-20}
LIMG=/tmp/life-img
LSRC=/tmp/life-src

# lt WHAT SIZE N T0 T1: one timed figure of repetition $r
lt() { log "BENCH life-time what=$1 size=$2 n=$3 rep=$r ns=$(($5 - $4))"; }
# life_save NAME: the superblock and log of the unmounted $FAMFS_DEV, and
# this host's famfs state that goes with them (/var/lib/famfs: the master
# claim and the create summary)
life_save() {
	sync; echo 3 > /proc/sys/vm/drop_caches
	dd if="$FAMFS_DEV" of=$LIMG/$1 bs=1M count=18 2>/dev/null
	rm -rf $LIMG/$1.var; cp -a /var/lib/famfs $LIMG/$1.var 2>/dev/null || mkdir -p $LIMG/$1.var
}
# life_put NAME: write them back (the file system may be mounted: its tree
# stays, the log becomes NAME's, as on a client when the master appends)
life_put() {
	rm -rf /var/lib/famfs; mkdir -p /var/lib; cp -a $LIMG/$1.var /var/lib/famfs
	dd if=$LIMG/$1 of="$FAMFS_DEV" bs=1M conv=fsync 2>/dev/null || return 1
	sync; echo 3 > /proc/sys/vm/drop_caches
}
# life_tree NAME: $M mounted with NAME's log and tree (the mount replays it)
life_tree() { umount $M 2>/dev/null; life_put "$1" && famfs mount "$FAMFS_DEV" $M; }
# life_play KIND ENTRIES: one timed famfs logplay
life_play() {
	t0=$(now); famfs logplay $M > /tmp/life-play.out 2>&1; _rc=$?; t1=$(now)
	t_eq life-r$r-play-$1-rc 0 $_rc
	[ $_rc = 0 ] || cat /tmp/life-play.out
	log "BENCH life-play what=$1 n=$LN rep=$r ns=$((t1 - t0)) entries=$2"
}
# life_count: regular files under $M/l
life_count() { ls $M/l 2>/dev/null | wc -l; }

if echo " $PARTS " | grep -q ' lifecycle '; then
	log "BENCH setup lifecycle=\"famfs mkfs --loglen 16M ($FAMFS_DEV); rm vs mkfile/cp of 4 KiB and 2 MiB files, one process each; replay: famfs logplay of a log of N creates + N DELETE/RENAME/SETATTR put back under the mounted tree of the N creates\""
	log "BENCH life-config n=$LN batch=$LB reps=$REPS"
	rm -rf $LSRC $LIMG; mkdir -p $LSRC/4K $LSRC/2M $LIMG
	i=0
	while [ $i -lt "$LB" ]; do
		head -c 4096 /dev/urandom > $LSRC/4K/s$i
		head -c 2097152 /dev/urandom > $LSRC/2M/s$i
		i=$((i + 1))
	done

	# ---- rm against create, side by side in every repetition
	t_ok life-mkfs famfs_fresh
	# the host table armed (famfs hosts init): each rm's pass reclaims, as
	# on a file system set up before its clients mount
	t_ok life-hosts-init famfs hosts init $M
	r=1
	while [ $r -le "$REPS" ]; do
		for s in 4K 2M; do
			d=$M/r$r-$s
			famfs mkdir $d $d-b
			t0=$(now); famfs mkfile -s $s $d/one; rc=$?; t1=$(now)
			t_eq life-r$r-mkfile-$s 0 $rc; lt mkfile $s 1 "$t0" "$t1"
			t0=$(now); famfs rm $d/one; rc=$?; t1=$(now)
			t_eq life-r$r-rm-$s "0 no" "$rc $([ -e $d/one ] && echo yes || echo no)"
			lt rm $s 1 "$t0" "$t1"
			t0=$(now); famfs cp $LSRC/$s/* $d-b/; rc=$?; t1=$(now)
			t_eq life-r$r-cp-$s "0 $LB" "$rc $(ls $d-b | wc -l)"; lt cp $s "$LB" "$t0" "$t1"
			t0=$(now); famfs rm $d-b/*; rc=$?; t1=$(now)
			t_eq life-r$r-rmb-$s "0 0" "$rc $(ls $d-b | wc -l)"; lt rmb $s "$LB" "$t0" "$t1"
		done
		t0=$(now); t1=$(now); lt floor - 1 "$t0" "$t1"
		r=$((r + 1))
	done
	t_ok life-fsck famfs fsck $M

	# ---- the logs: empty, creates, creates + each kind
	names=; i=0
	while [ $i -lt "$LN" ]; do names="$names $M/l/f$i"; i=$((i + 1)); done
	t_ok life-log-mkfs famfs_fresh
	# the host table right after mkfs, as a file system is set up (README):
	# every log below has it, so each replay registers this host alike
	# (the first registration reads every slot: a fixed cost, in base too)
	t_ok life-log-hosts-init famfs hosts init $M
	umount $M; life_save empty
	life_tree empty && famfs mkdir $M/l && famfs mkfile -s 4K $names
	t_eq life-log-creates "$LN" "$(life_count)"
	umount $M; life_save create
	life_tree create && famfs rm $names
	t_eq life-log-deletes 0 "$(life_count)"
	umount $M; life_save delete
	life_tree create
	i=0; while [ $i -lt "$LN" ]; do famfs mv $M/l/f$i $M/l/g$i || break; i=$((i + 1)); done
	t_eq life-log-renames "$LN" "$i"
	umount $M; life_save rename
	life_tree create && famfs chmod 600 $names
	t_eq life-log-setattrs 600 "$(stat -c %a $M/l/f0)"
	umount $M; life_save setattr

	# ---- replay, every repetition
	r=1
	while [ $r -le "$REPS" ]; do
		life_tree empty
		life_play empty 0
		life_put create && life_play create "$LN"
		t_eq life-r$r-play-create-made "$LN" "$(life_count)"
		life_play base "$LN"
		life_put delete && life_play delete $((2 * LN))
		t_eq life-r$r-play-delete-removed 0 "$(life_count)"
		life_tree create && life_put rename && life_play rename $((2 * LN))
		t_eq life-r$r-play-rename-moved "$LN" "$(ls $M/l | grep -c '^g')"
		life_tree create && life_put setattr && life_play setattr $((2 * LN))
		t_eq life-r$r-play-setattr-mode 600 "$(stat -c %a $M/l/f$((LN - 1)))"
		r=$((r + 1))
	done
	t_ok life-play-fsck famfs fsck $M
	umount $M
	rm -rf $LSRC $LIMG
fi
