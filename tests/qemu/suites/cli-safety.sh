# profiles: pmem
# timeout: 400
# Tool safety (issue 15): mkfs refuses to destroy another file system, new
# files read as zeros, cp -r refuses to copy a directory into itself, only a
# real famfs mount root is used, famfs mounts are nosuid,nodev unless asked,
# a size with a leading zero is decimal, and a .meta of another user's is
# never taken for the meta files.
. "$FAMFS_SRC/tests/qemu/lib.sh"
famfs_loaded || exit 0
# Its attacks change the tree behind the log (rm, mv, hard links, a .meta
# of a user's), which a mount with the option protect refuses (issue 29,
# suite cli-protect): its mounts for them are -o noprotect, as a mount of
# an older famfs.ko or one made with plain mount(2) is.

DEV=$FAMFS_DEV
M=/mnt/famfs-safety
export FAMFS_HOST_ID_FILE=/tmp/safety-host-uuid
mkdir -p $M
umount $M 2>/dev/null

# mount_opts MPT: the options field of MPT's line in /proc/mounts
mount_opts() {
	awk -v m="$1" '$2 == m && $3 == "famfs" { print $4 }' /proc/mounts
}
has_opt() {	# has_opt OPTS NAME
	case ",$1," in *",$2,"*) return 0 ;; esac
	return 1
}

# ---- 14: mkfs and another file system ------------------------------------
t_ok ext4-made mkfs.ext4 -q -F $DEV
t_rc mkfs-over-ext4-refused 2 famfs mkfs $DEV
t_has mkfs-over-ext4-names-it "ext4"
t_rc mkfs-kill-over-ext4-refused 2 famfs mkfs -k $DEV
t_ok ext4-intact e2fsck -n $DEV
t_rc mkfs-force-over-ext4 0 famfs mkfs -f $DEV
# -f over a famfs whose master is another host: said so
export FAMFS_HOST_ID_FILE=/tmp/safety-other-uuid
t_rc mkfs-force-other-master 0 famfs mkfs -f $DEV
export FAMFS_HOST_ID_FILE=/tmp/safety-host-uuid
t_rc mkfs-force-over-other-master 0 famfs mkfs -f $DEV
t_has mkfs-force-other-master-said "master is another host"

# ---- 9: a new file reads as zeros, not as what the memory held ----------------
# the first 64 MiB (superblock, log, the first files) full of random bytes
dd if=/dev/urandom of=$DEV bs=1M count=64 conv=fsync 2>/dev/null
t_not junk-on-device cmp -n 4194304 /dev/zero $DEV
t_rc mkfs-after-junk 0 famfs mkfs -f $DEV
t_rc mount 0 famfs mount -o noprotect $DEV $M
t_rc mkfile-4m 0 famfs mkfile -s 4M $M/new
t_ok mkfile-reads-zero cmp -n 4194304 $M/new /dev/zero
head -c 5000 /dev/urandom > /tmp/safety-5000
t_rc cp-small 0 famfs cp /tmp/safety-5000 $M/small
t_ok cp-small-bytes cmp /tmp/safety-5000 $M/small
t_rc mkfile-nozero 0 famfs mkfile --nozero -s 2M $M/nozero
t_eq mkfile-nozero-size 2097152 "$(stat -c %s $M/nozero)"

# ---- 9: every byte of a new file's 2 MiB units is zero or its own data --------
# The memory a file gets is whole 2 MiB units (and, interleaved, whole
# strips); only the bytes up to the page past EOF are reached through the
# file, the rest through the device (or a later file system's file over the
# same memory).  An earlier file system's bytes (0xa5 here) must be gone
# from all of it before the file is visible.
# unit_dump NAME OFF LEN: the device bytes [OFF, OFF+LEN) into /tmp/unit-NAME
unit_dump() { hostile_corrupt $DEV save "$2" "$3" /tmp/unit-$1; }
# unit_zero ID NAME OFF LEN: PASS iff the device bytes are all zero
unit_zero() {
	if unit_dump "$2" "$3" "$4" && cmp -n "$4" /tmp/unit-$2 /dev/zero >/dev/null; then
		t_pass "$1"
	else
		t_fail "$1" "device bytes $3+$4 of $2 are not all zero: $(od -An -tx1 /tmp/unit-$2 | grep -v ' 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00' | head -n 2 | tr '\n' ' ')"
	fi
}
umount $M
devpat fill $DEV 0 64M 165
t_rc unit-mkfs 0 famfs mkfs -f $DEV
t_rc unit-mount 0 famfs mount -o noprotect $DEV $M
# -T 0: the 4 KiB file in a whole 2 MiB unit (not small-file pages), all
# of which must read zero below
t_rc mkfile-4k 0 famfs mkfile -T 0 -s 4k $M/u4k
t_rc cp-5000 0 famfs cp /tmp/safety-5000 $M/u5000
t_rc mkfile-interleaved 0 famfs mkfile -N 2 -C 2M -s 5M $M/uil
t_rc unit-getmap-4k 0 famfs getmap -j $M/u4k
o4k=$(echo "$OUT" | jget .extents[0].offset); l4k=$(echo "$OUT" | jget .extents[0].length)
t_rc unit-getmap-5000 0 famfs getmap -j $M/u5000
o5k=$(echo "$OUT" | jget .extents[0].offset); l5k=$(echo "$OUT" | jget .extents[0].length)
t_rc unit-getmap-il 0 famfs getmap -j $M/uil
il=$OUT
umount $M
t_eq mkfile-4k-unit-is-2m 2097152 "$l4k"
unit_zero mkfile-4k-unit-zero u4k "$o4k" "$l4k"
{ cat /tmp/safety-5000; head -c $((l5k - 5000)) /dev/zero; } > /tmp/unit-5000-want
if unit_dump u5000 "$o5k" "$l5k" && cmp /tmp/unit-u5000 /tmp/unit-5000-want >/dev/null; then
	t_pass cp-5000-unit-data-then-zero
else
	t_fail cp-5000-unit-data-then-zero "device bytes $o5k+$l5k: not the 5000 copied bytes then zeros"
fi
t_eq mkfile-interleaved-2-strips 2 "$(echo "$il" | jget .extents[0].nstrips)"
for i in 0 1; do
	unit_zero mkfile-interleaved-strip$i-zero uil$i \
		"$(echo "$il" | jget .extents[0].strips[$i].offset)" \
		"$(echo "$il" | jget .extents[0].strips[$i].length)"
done
t_rc unit-remount 0 famfs mount -o noprotect $DEV $M

# ---- a creator killed between MAP_CREATE and its log append ------------------
# leaves a file that is mapped but not in the log, over memory the log says
# is free (hostile_hold mapat does what such a creator did): famfs check
# lists it, the create that meets it says what it means, rm frees it.
t_rc orphan-probe 0 famfs mkfile -s 2M $M/probe
t_rc orphan-probe-getmap 0 famfs getmap -j $M/probe
next=$(( $(echo "$OUT" | jget .extents[0].offset) + 2097152 ))
t_ok orphan-made hostile_hold mapat $M/orphan $next 2097152
t_rc check-lists-orphan 3 famfs check $M
t_has check-says-not-in-log "orphan: mapped but not in the log"
t_rc mkfile-over-orphan-refused 2 famfs mkfile -s 2M $M/after
t_has mkfile-over-orphan-says-why "mapped by a file in this mount that is not in the log"
t_has mkfile-over-orphan-says-check "famfs check"
t_not mkfile-over-orphan-nothing-left test -e $M/after
t_ok orphan-removed rm $M/orphan
t_rc mkfile-after-orphan-removed 0 famfs mkfile -s 2M $M/after
t_rc check-clean-again 0 famfs check $M
# a creator killed while its scratch file (.meta/.new-PID) was mapped: the
# next creator holds the log lock, which every creator holds from its
# scratch file's creation to its unlink, so a scratch file it finds is a
# dead creator's: it is removed, and its memory is free again
t_ok scratch-orphan-made hostile_hold mapat $M/.meta/.new-99999 $((next + 2097152)) 2097152
t_rc check-lists-scratch-orphan 3 famfs check $M
t_rc mkfile-over-scratch-orphan 0 famfs mkfile -s 2M $M/after2
t_not scratch-orphan-removed test -e $M/.meta/.new-99999
t_rc check-clean-after-scratch 0 famfs check $M

# ---- 5 (tool side): a file made at a logged path before the replay ------------
# The log holds pub/victim; here it was removed locally, and a user who can
# write pub creates the path and keeps it open.  logplay must not give that
# file the victim's memory (it used to map it: the user's descriptor then
# read the victim's bytes).
famfs mkdir -m 0777 $M/pub && famfs mkfile -s 2M -S 77 $M/pub/victim && rm $M/pub/victim
rm -f /tmp/pc-ready /tmp/pc-go
precreate $M/pub/victim /tmp/pc-ready /tmp/pc-go > /tmp/pc.out 2>&1 &
pc=$!
if wait_for /tmp/pc-ready 30; then
	t_rc logplay-precreated-not-adopted 3 famfs logplay $M
	t_has logplay-precreated-says-why "not given the memory"
else
	t_fail logplay-precreated-not-adopted "precreate did not start: $(cat /tmp/pc.out)"
fi
touch /tmp/pc-go
wait $pc
t_prog precreate /tmp/pc.out $?

# ---- 27.2: no chmod or chown of what took a new directory's name -------------
# A logged directory whose mode has bits the umask takes (0777) and another
# owner is chowned and chmodded by the replay that makes it.  A user who can
# write its parent (sw is 0777) swaps it for something else between the
# mkdir and the chmod -- linkswap does it under ptrace the moment the mkdir
# returns.  famfs.ko has no symbolic links, but it has hard links: the new
# directory swapped for a hard link to root's 0600 file used to make that
# file 0777 and the logged owner's.  Now the file keeps its mode and owner,
# and logplay says why (exit 2).  On the master, famfs mkdir -u reopened the
# path after its append: another directory renamed there (root's, with
# files in it) used to be handed to the user; now it is refused, not logged.
umask 022
rm -f $M/pub/victim	# section 5's (not mapped): the replays below make it
t_rc mkdir-sw 0 famfs mkdir -m 0777 $M/sw
t_rc mkfile-secret 0 famfs mkfile -m 0600 -s 2M $M/sw/secret
t_rc mkdir-swapd 0 famfs mkdir -m 0777 -u 1234 -g 1234 $M/sw/swapd
rmdir $M/sw/swapd
secret=$(stat -c '%a %u:%g' $M/sw/secret)
t_eq secret-is-root-0600 "600 0:0" "$secret"
t_rc logplay-swapped-dir 2 linkswap -l $M/sw swapd $M/sw/secret famfs logplay $M
t_has logplay-swapped-dir-swapped "linkswap: swapped"
t_has logplay-swapped-dir-says-why "sw/swapd: .*replaced by a file that is not a directory"
t_eq logplay-swapped-target-kept "$secret" "$(stat -c '%a %u:%g' $M/sw/secret)"
rm $M/sw/swapd && rmdir $M/sw/swapd.real
t_rc logplay-after-swap 0 famfs logplay $M
t_eq logplay-dir-owner-mode "777 1234:1234" "$(stat -c '%a %u:%g' $M/sw/swapd)"
t_rc mkdir-keep 0 famfs mkdir -m 0700 $M/sw/keep
t_rc mkfile-keep 0 famfs mkfile -s 2M $M/sw/keep/f
before=$(famfs df -j $M | jget .log.entries)
t_rc mkdir-u-swapped-refused 2 linkswap -d $M/sw alice $M/sw/keep famfs mkdir -m 0750 -u 1234 -g 1234 $M/sw/alice
t_has mkdir-u-swapped-swapped "linkswap: swapped"
t_has mkdir-u-swapped-says-why "sw/alice: .*replaced by another directory"
t_eq mkdir-u-swapped-target-kept "700 0:0" "$(stat -c '%a %u:%g' $M/sw/alice)"
t_eq mkdir-u-swapped-not-logged "$before" "$(famfs df -j $M | jget .log.entries)"
mv $M/sw/alice $M/sw/keep && rmdir $M/sw/alice.real
t_rc logplay-after-mkdir-swap 0 famfs logplay $M

# ---- 17: a size with a leading zero is decimal ------------------------------
t_rc mkfile-010M 0 famfs mkfile -s 010M $M/ten
t_eq mkfile-010M-is-10MiB 10485760 "$(stat -c %s $M/ten)"

# ---- 15: cp -r of a directory into itself ------------------------------------
famfs mkdir $M/d && famfs cp /tmp/safety-5000 $M/d/x
t_rc cp-into-itself-refused 2 famfs cp -r $M/d $M/d/sub
t_has cp-into-itself-says-why "into itself"
t_not cp-into-itself-nothing-copied test -e $M/d/sub
t_rc cp-into-itself-same-refused 2 famfs cp -r $M/d $M
t_rc cp-into-own-dir-refused 2 famfs cp -r $M/d $M/d
t_not cp-into-own-dir-nothing-copied test -e $M/d/d
# the same directory through a bind mount (another path, same dev/ino)
mkdir -p /tmp/safety-bind && mount --bind $M/d /tmp/safety-bind
t_rc cp-into-itself-bind-refused 2 famfs cp -r /tmp/safety-bind $M/d/sub
t_has cp-into-itself-bind-says-why "into itself"
t_not cp-into-itself-bind-nothing-copied test -e $M/d/sub
t_rc cp-into-itself-bind-dest-refused 2 famfs cp -r $M/d /tmp/safety-bind/sub
t_not cp-into-itself-bind-dest-nothing-copied test -e $M/d/sub
umount /tmp/safety-bind
# a directory found by -r that is the copy or above it (a bind mount of the
# destination inside SRC): each level would create the next one to copy,
# until the path limit, allocating memory for every file at every level
famfs mkdir $M/bd
rm -rf /tmp/safety-src && mkdir -p /tmp/safety-src/x && cp /tmp/safety-5000 /tmp/safety-src/a
mount --bind $M/bd /tmp/safety-src/x
t_rc cp-into-itself-nested-bind-refused 2 famfs cp -r /tmp/safety-src $M/bd
t_has cp-into-itself-nested-bind-says-why "into itself"
t_not cp-into-itself-nested-bind-no-loop test -e $M/bd/safety-src/x/safety-src
umount /tmp/safety-src/x
t_rc cp-sibling-ok 0 famfs cp -r $M/d $M/d2
t_ok cp-sibling-copied cmp /tmp/safety-5000 $M/d2/x

# ---- 16: only a famfs mount's root holds the log ---------------------------------
before=$(famfs df -j $M | jget .log.entries)
rm -rf /tmp/fake; mkdir -p /tmp/fake/.meta
cp $M/.meta/.superblock $M/.meta/.log /tmp/fake/.meta/
t_rc fake-root-refused 2 famfs mkfile -s 2M /tmp/fake/x
t_not fake-root-nothing-created test -e /tmp/fake/x
t_rc fake-root-fsck-refused 2 famfs fsck /tmp/fake
famfs mkdir $M/nest && mkdir $M/nest/.meta && : > $M/nest/.meta/.log
t_rc nested-meta-not-a-root 0 famfs mkfile -s 2M $M/nest/y
t_rc nested-file-logged 0 famfs getmap $M/nest/y
t_eq log-grew-by-mkfiles-only $((before + 2)) "$(famfs df -j $M | jget .log.entries)"

# ---- 10: nosuid,nodev unless asked for ---------------------------------------
o=$(mount_opts $M)
t_ok mount-nosuid has_opt "$o" nosuid
t_ok mount-nodev has_opt "$o" nodev
umount $M
t_rc mount-suid-dev 0 famfs mount -o suid,dev $DEV $M
o=$(mount_opts $M)
t_not mount-suid-not-nosuid has_opt "$o" nosuid
t_not mount-dev-not-nodev has_opt "$o" nodev
umount $M
mkdir -p /tmp/safety-bin && ln -sf "$(command -v famfs-cli)" /tmp/safety-bin/mount.famfs
t_rc mount-helper 0 /tmp/safety-bin/mount.famfs $DEV $M
o=$(mount_opts $M)
t_ok mount-helper-nosuid has_opt "$o" nosuid
t_ok mount-helper-nodev has_opt "$o" nodev
t_rc remount-ro 0 famfs mount -o remount,ro $DEV $M
o=$(mount_opts $M)
t_ok remount-keeps-nosuid has_opt "$o" nosuid
umount $M
t_rc mount-follow 0 famfs mount -o follow $DEV $M
o=$(mount_opts $M)
t_ok mount-follow-nosuid has_opt "$o" nosuid
t_ok mount-follow-nodev has_opt "$o" nodev
t_ok mount-follow-umount umount_retry	# a follow round holds the mount a moment

# ---- a .meta of another user's is never the log root replays -----------------
# famfs has renames, and its root may be writable by others (mode=0777): a
# user renames root's .meta away and makes her own, holding famfs files she
# owns and writes (the master made them for her) -- here copies of the real
# meta files, so that they verify.  root's replay took her bytes as the
# superblock and the log (exit 0); now it refuses her .meta, naming its
# owner (exit 2), and plays again once root's .meta is back.
t_rc metaown-mount 0 famfs mount -o mode=0777,noprotect $DEV $M
loglen=$(stat -c %s $M/.meta/.log)
t_rc metaown-her-sb 0 famfs mkfile -u 1000 -g 1000 -m 0644 -s 2M $M/her-sb
t_rc metaown-her-log 0 famfs mkfile -u 1000 -g 1000 -m 0644 -s "$loglen" $M/her-log
# (a famfs file keeps its size: written over, never truncated)
t_ok metaown-her-meta runas 1000 sh -c "
	dd if=$M/.meta/.superblock of=$M/her-sb bs=1M conv=notrunc 2>/dev/null &&
	dd if=$M/.meta/.log of=$M/her-log bs=1M conv=notrunc 2>/dev/null &&
	mv $M/.meta $M/.meta-root && mkdir $M/.meta &&
	mv $M/her-sb $M/.meta/.superblock && mv $M/her-log $M/.meta/.log"
t_eq metaown-her-meta-owner 1000 "$(stat -c %u $M/.meta)"
t_rc metaown-logplay-refused 2 famfs logplay $M
t_has metaown-logplay-says-owner "\.meta is owned by uid 1000"
t_rc metaown-mkfile-refused 2 famfs mkfile -s 2M $M/metaown-f
t_not metaown-mkfile-nothing-made test -e $M/metaown-f
rm -rf $M/.meta && mv $M/.meta-root $M/.meta
t_rc metaown-logplay-root 0 famfs logplay $M
umount $M

# ---- -u/-g 4294967295: (uid_t)-1 is chown(2)'s "no change", never an owner --
# (it was logged while the file stayed the creator's): a usage error on
# every command that takes -u/-g, nothing created, nothing logged
t_rc ids-mount 0 famfs mount $DEV $M
before=$(famfs df -j $M | jget .log.entries)
echo data > /tmp/safety-ids-src
for o in -u -g; do
	t_err "mkfile$o-minus-one" 1 "$o 4294967295: " \
		famfs mkfile $o 4294967295 -s 2M $M/ids-f$o
	t_err "mkdir$o-minus-one" 1 "$o 4294967295: " \
		famfs mkdir $o 4294967295 $M/ids-d$o
	t_err "cp$o-minus-one" 1 "$o 4294967295: " \
		famfs cp $o 4294967295 /tmp/safety-ids-src $M/ids-c$o
	t_not "mkfile$o-nothing-made" test -e $M/ids-f$o
	t_not "mkdir$o-nothing-made" test -e $M/ids-d$o
	t_not "cp$o-nothing-made" test -e $M/ids-c$o
done
t_eq ids-nothing-logged "$before" "$(famfs df -j $M | jget .log.entries)"
# the id below it is an owner like any other
t_ok mkfile-uid-4294967294 famfs mkfile -u 4294967294 -g 4294967294 -s 2M $M/ids-max
t_eq mkfile-uid-4294967294-owner "4294967294:4294967294" "$(stat -c %u:%g $M/ids-max)"
umount $M
