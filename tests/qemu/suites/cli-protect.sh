# profiles: pmem two-hosts
# timeout: 300
# Ordinary tools never change a famfs mount behind the log (issue 29,
# item 3).  A mount made by famfs mount, mount.famfs or -o follow has the
# option "protect" (/proc/mounts): rm, rmdir, mv, chmod, chown, touch of a
# new name, mkdir, ln, ln -s and mknod fail with EPERM and one kernel line
# naming the famfs command to use, on the master and on a client; the tree
# stays what the log says (logplay changes nothing after them); famfs's own
# commands still work; .meta is untouchable.  Without the option
# (-o noprotect, or plain mount(2)) the seed's contract holds: the 2024
# user space's open(O_CREAT) + v1 MAP_CREATE works.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
mkdir -p $M /tmp/prot
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"

# refused ID KLOG CMD...: CMD fails with EPERM ("Operation not permitted");
# KLOG (if not empty): the kernel line since just before CMD.
refused() {
	_id=$1 _k=$2; shift 2
	klog_mark
	OUT=$("$@" 2>&1); _rc=$?
	if [ $_rc = 0 ]; then t_fail "$_id" "'$*' succeeded"
	elif echo "$OUT" | grep -q "Operation not permitted"; then t_pass "$_id"
	else t_fail "$_id" "'$*' exited $_rc without EPERM: $(echo "$OUT" | tail -n 2 | tr '\n' ' ')"; fi
	[ -z "$_k" ] || t_klog "$_id-klog" "$_k"
}
tree() { find $M | sort | while read -r _p; do stat -c '%n %F %a %u:%g %s' "$_p"; done; }
protected() { grep " $M famfs " /proc/mounts | grep -q "[ ,]protect[ ,]"; }

# the refusals on a mount whose log holds d/, d/f, d/g and d/e/
refusals() {
	tree > /tmp/prot/before
	sleep 5		# a new window of the per-mount rate limit
	refused rm "rm of /d/f refused: use famfs rm" rm -f $M/d/f
	refused rmdir "rmdir of /d/e refused: use famfs rm" rmdir $M/d/e
	refused mv "rename of /d/f refused: use famfs mv" mv $M/d/f $M/d/moved
	refused chmod "chmod of /d/f refused: use famfs chmod" chmod 600 $M/d/f
	refused chown "chown of /d/f refused: use famfs chown" chown 12:12 $M/d/f
	refused touch-new "create of /d/new refused: use famfs creat" touch $M/d/new
	refused mkdir "mkdir of /d/newdir refused: use famfs mkdir" mkdir $M/d/newdir
	refused ln "link of /d/f refused" ln $M/d/f $M/d/hard
	refused ln-s "symlink of /d/sym refused" ln -s f $M/d/sym
	sleep 5
	refused mknod "mknod of /d/fifo refused" mknod $M/d/fifo p
	refused cp-new "" cp /proc/version $M/d/copy
	refused mv-over "" mv $M/d/g $M/d/f
	refused chmod-dir "" chmod 700 $M/d
	refused meta-rm "rm of /.meta/.log refused: .meta is famfs.s own" rm -f $M/.meta/.log
	refused meta-mv "" mv $M/.meta $M/meta2
	refused meta-chmod "" chmod 666 $M/.meta/.superblock
	refused meta-new "" touch $M/.meta/x
	t_ok touch-existing touch $M/d/f	# times only: allowed
	tree > /tmp/prot/after
	t_ok tree-unchanged cmp /tmp/prot/before /tmp/prot/after
	t_rc logplay 0 famfs logplay $M
	tree > /tmp/prot/played
	t_ok logplay-changes-nothing cmp /tmp/prot/after /tmp/prot/played
	t_ok no-warnings no_warnings
}

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f $DEV
	t_rc mount 0 famfs mount $DEV $M
	t_ok proc-mounts-protect protected
	t_rc mkdir 0 famfs mkdir -p $M/d/e
	t_rc mkfile 0 famfs mkfile -s 2m -S 1 $M/d/f $M/d/g
	sync_post prot-a-ready
	refusals
	# the client's refusals first: its tree must not move meanwhile
	case $FAMFS_PROFILE in two-hosts*) sync_wait prot-b-refused 240 || exit 0 ;; esac
	# famfs's own commands still do all of it
	t_rc famfs-mkdir 0 famfs mkdir $M/d/dir2
	t_rc famfs-creat 0 famfs creat -s 1m -S 3 $M/d/new
	echo protect > /tmp/prot/src
	t_rc famfs-cp 0 famfs cp /tmp/prot/src $M/d/copy
	t_ok famfs-cp-bytes cmp /tmp/prot/src $M/d/copy
	t_rc famfs-mv 0 famfs mv $M/d/g $M/d/g2
	t_rc famfs-chmod 0 famfs chmod 600 $M/d/g2
	t_eq famfs-chmod-mode 600 "$(stat -c %a $M/d/g2)"
	t_rc famfs-chown 0 famfs chown 12:13 $M/d/g2
	t_eq famfs-chown-owner 12:13 "$(stat -c %u:%g $M/d/g2)"
	t_rc famfs-rm 0 famfs rm $M/d/new
	t_rc famfs-rm-dir 0 famfs rm -r $M/d/dir2
	t_ok famfs-gone test ! -e $M/d/new -a ! -e $M/d/dir2
	t_rc verify 0 famfs verify -S 1 $M/d/f
	t_rc fsck 0 famfs fsck $M
	sync_post prot-a-done
	case $FAMFS_PROFILE in two-hosts*) sync_wait prot-b-done 240; umount $M; exit 0 ;; esac

	# mount.famfs (mount -t famfs, fstab) protects too
	t_ok umount umount $M
	mkdir -p /tmp/prot/bin && ln -sf "$(command -v famfs-cli)" /tmp/prot/bin/mount.famfs
	t_rc mount-helper 0 /tmp/prot/bin/mount.famfs $DEV $M
	t_ok helper-protect protected
	t_ok umount2 umount $M
	# -o noprotect: the option is off, ordinary tools work (and diverge)
	t_rc mount-noprotect 0 famfs mount -o noprotect $DEV $M
	t_not noprotect-not-shown protected
	t_ok noprotect-touch touch $M/d/local
	t_ok noprotect-rm rm $M/d/local
	# remount switches it
	t_rc remount-protect 0 famfs mount -o remount,protect $DEV $M
	t_ok remount-protect-shown protected
	refused remount-protect-refuses "" touch $M/d/local
	t_ok umount3 umount $M
	# plain mount(2), no option: the 2024 user space's O_CREAT + v1 map
	famfs_raw_mount $M || exit 0
	t_not raw-not-protected protected
	run_prog seed_v1 $M/seedfile 0x30000000
	t_ok raw-mkdir mkdir $M/rawdir
	t_ok raw-rmdir rmdir $M/rawdir
	t_ok umount4 umount $M
else
	sync_wait prot-a-ready 180 || exit 0
	t_rc mount-follow 0 famfs mount -o follow $DEV $M
	t_ok follow-protect protected
	refusals
	sync_post prot-b-refused
	sync_wait prot-a-done 180 || exit 0
	# the follower still applies the master's changes
	_n=0
	while [ -e $M/d/new -o ! -e $M/d/g2 ] && [ $_n -lt 300 ]; do sleep 0.1; _n=$((_n + 1)); done
	t_ok follow-applied test ! -e $M/d/new -a -f $M/d/g2 -a ! -e $M/d/g
	t_eq follow-chmod 400 "$(stat -c %a $M/d/g2)"	# a client's: no write bits
	t_eq follow-chown 12:13 "$(stat -c %u:%g $M/d/g2)"
	t_ok umount umount $M
	sync_post prot-b-done
fi
