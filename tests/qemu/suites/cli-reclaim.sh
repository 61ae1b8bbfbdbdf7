# profiles: pmem nvdimm-devdax
# timeout: 300
# RECLAIM (issue 29 item 4): a deleted file's memory is pending while any
# host can reach it -- here this host's shell holds the file open (famfs.ko
# answers FAMFSIOC_HELD: live) -- and famfs hosts reclaim says which slot
# keeps it; once let go, the pass (famfs hosts reclaim, or the next famfs rm)
# appends a RECLAIM, and the next file of that size gets the memory,
# reading zeros, not the deleted file's bytes (every create writes its
# whole allocation, issue 15; mkfile -Z too once the log has a RECLAIM).
# The first rm makes the host table, not armed: nothing is reclaimed (df,
# famfs hosts and hosts reclaim say why) until famfs hosts arm.  famfs-reclaim-test
# lists what is pending and refuses a DELETE named again.  df (text and -j)
# shows pending and reclaimed bytes, fsck is clean, getmap shows the reuse,
# a remount (a replay of the whole log) accepts it; small files: a
# reclaimed file's pages go to the next small file, and the unit back to
# whole files with its last page.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
RT=famfs-reclaim-test
mkdir -p $M
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"

off() { famfs getmap -j "$1" | jget .extents[0].offset; }
zeros() { head -c "$1" /dev/zero | md5sum | cut -d' ' -f1; }
sum() { md5sum < "$1" | cut -d' ' -f1; }

t_rc mkfs 0 famfs mkfs -f $DEV
t_rc mount 0 famfs mount $DEV $M
t_rc mkfile-a 0 famfs mkfile -s 4m -S 7 $M/a
t_rc mkfile-b 0 famfs mkfile -s 2m -S 8 $M/b
a_off=$(off $M/a)
exec 3< $M/a			# held here: open
t_rc rm-a 0 famfs rm $M/a
t_has rm-a-makes-table "host table"
t_has rm-a-says-arm "famfs hosts arm"
t_rc list 0 $RT list $M
t_has list-a " 4194304 a 0:$a_off:4194304\$"
del=$(echo "$OUT" | cut -d' ' -f1)
t_rc df-pending 0 famfs df $M
t_has df-pending-line "deleted *1 files, 0 directories: 4194304 bytes .* pending reclaim"
# that table is not armed (a client that mounted before it would have no
# slot): nothing is reclaimed, and df, hosts and hosts reclaim say why
t_has df-pending-unarmed "reclaim *waits: the host table is not armed"
t_rc df-json-unarmed 0 famfs df -j $M
t_eq df-json-unarmed-table "not armed" "$(echo "$OUT" | jget .deleted.host_table)"
t_rc hosts-unarmed 0 famfs hosts $M
t_has hosts-unarmed-line "armed no"
t_rc hosts-json-unarmed 0 famfs hosts -j $M
t_eq hosts-json-unarmed-false false "$(echo "$OUT" | jget .armed)"
t_rc reclaim-unarmed 0 famfs hosts reclaim $M
t_has reclaim-unarmed-why "1 deleted files pending, none reclaimed: the host table is not armed: famfs hosts arm"
t_rc reclaim-unarmed-df 0 famfs df -j $M
t_eq reclaim-unarmed-pending 4194304 "$(echo "$OUT" | jget .deleted.pending_bytes)"
t_rc arm 0 famfs hosts arm $M
t_has arm-said "host table armed"
t_rc arm-again 0 famfs hosts arm $M
t_has arm-again-said "armed already"
t_rc hosts-armed 0 famfs hosts -j $M
t_eq hosts-json-armed-true true "$(echo "$OUT" | jget .armed)"
t_rc init-exists 2 famfs hosts init $M
t_has init-exists-msg "exists already"
t_rc reclaim-held 0 famfs hosts reclaim $M
t_has reclaim-held-kept "DELETE $del: kept by slot [0-9]* (holding)"
t_has reclaim-held-none "1 deleted files pending, 0 reclaimed"
exec 3<&-			# let go
t_rc reclaim 0 famfs hosts reclaim $M
t_has reclaim-bytes "1 deleted files pending, 1 reclaimed (4194304 bytes"
t_rc list-empty 0 $RT list $M
t_eq list-none "" "$OUT"
t_rc reclaim-again 1 $RT del $M "$del"
t_has reclaim-again-msg "reclaimed already"
t_rc df-json 0 famfs df -j $M
t_eq df-json-pending 0 "$(echo "$OUT" | jget .deleted.pending_bytes)"
t_eq df-json-reclaimed 4194304 "$(echo "$OUT" | jget .deleted.reclaimed_bytes)"
t_eq df-json-files 1 "$(echo "$OUT" | jget .deleted.files)"
t_rc df-text 0 famfs df $M
t_has df-text-reclaimed "4194304 bytes reclaimed"
t_rc fsck 0 famfs fsck $M

# the memory goes to the next file of that size, zeroed -- even one told
# not to zero (-Z): a deleted file's bytes never show
t_rc mkfile-c 0 famfs mkfile -Z -s 4m $M/c
t_eq reuse-offset "$a_off" "$(off $M/c)"
t_eq reuse-zero "$(zeros 4194304)" "$(sum $M/c)"
t_rc verify-b 0 famfs verify -S 8 $M/b
t_rc fsck-reuse 0 famfs fsck $M

# a remount replays the whole log: the same files, the same memory
t_rc umount 0 umount $M
t_rc remount 0 famfs mount $DEV $M
t_eq remount-offset "$a_off" "$(off $M/c)"
t_rc verify-b-again 0 famfs verify -S 8 $M/b
t_rc fsck-remount 0 famfs fsck $M

# small files: pages of a shared unit
t_rc mkfile-s1 0 famfs mkfile -s 12k -S 21 $M/s1
t_rc mkfile-s2 0 famfs mkfile -s 8k -S 22 $M/s2
s1_off=$(off $M/s1)
exec 3< $M/s1
t_rc rm-s1 0 famfs rm $M/s1
t_eq rm-s1-pending 12288 "$(famfs df -j $M | jget .deleted.pending_bytes)"
exec 3<&-
t_rc reclaim-s1 0 famfs hosts reclaim $M
t_has reclaim-s1-bytes "1 reclaimed (12288 bytes"
t_rc mkfile-s3 0 famfs mkfile -s 12k $M/s3
t_eq small-reuse "$s1_off" "$(off $M/s3)"
t_eq small-zero "$(zeros 12288)" "$(sum $M/s3)"
t_rc verify-s2 0 famfs verify -S 22 $M/s2
t_rc fsck-small 0 famfs fsck $M
t_rc rm-small 0 famfs rm $M/s2 $M/s3	# nothing holds them: its pass frees them
t_eq reclaim-small-pending 0 "$(famfs df -j $M | jget .deleted.pending_bytes)"
t_eq reclaim-small-bytes $((4194304 + 12288 + 20480)) "$(famfs df -j $M | jget .deleted.reclaimed_bytes)"
t_rc df-small 0 famfs df -j $M
t_eq small-units 0 "$(echo "$OUT" | jget .small_files.shared_units)"
t_rc fsck-end 0 famfs fsck $M
t_ok no-warnings no_warnings
umount $M
