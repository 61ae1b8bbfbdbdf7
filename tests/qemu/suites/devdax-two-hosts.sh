# profiles: two-hosts two-hosts-devdax two-hosts-cxl two-hosts-cxl-devdax
# timeout: 300
# Sharing between hosts, on fsdax (/dev/pmem0) and on devdax (/dev/dax0.0
# bound to famfs on each host): a is the master, b a client of the same
# memory.  b mounts and replays, reads a's bytes with read(2) and through
# mappings; b's attempts to create or write are refused; a creates more and
# b sees it after famfs logplay; a mapping b holds keeps working while a
# adds to the log, and shows what a writes into the file meanwhile.
# (cli-two-hosts.sh covers the tool's side in more detail.)
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
mkdir -p $M


famfs_loaded || exit 0
# Each host binds its own view of the device.
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok bind famfs bind "$DEV"

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f "$DEV"
	t_rc mount 0 famfs mount "$DEV" $M
	t_rc mkdir 0 famfs mkdir -p $M/data/sub
	t_rc mkfile 0 famfs mkfile -s 6m $M/data/x
	PFX=x- run_prog devdax_test fill $M/data/x 101
	t_rc cp 0 famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $M/data/sub/h
	md5sum < $M/data/sub/h > "$S/share-h-sum"
	sync_post share-a-ready
	sync_wait share-b-mapped 120 || exit 0

	# More files while b holds a mapping; and new bytes in the mapped file.
	t_rc mkdir-more 0 famfs mkdir $M/data/more
	t_rc mkfile-more 0 famfs mkfile -s 2m -S 77 $M/data/more/y
	t_rc cp-more 0 famfs cp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/data/more/z
	PFX=x2- run_prog devdax_test fill $M/data/x 102
	sync_post share-a-more
	sync_wait share-b-done 120
	t_rc fsck-end 0 famfs fsck $M
	t_ok umount umount $M
	t_ok no-warnings no_warnings
	[ "$FAMFS_DEV_MODE" = devdax ] && t_ok unbind famfs bind -u "$DEV"
	exit 0
fi

# host b: the client
sync_wait share-a-ready 180 || exit 0
t_rc client-mount 0 famfs mount "$DEV" $M
t_eq client-cp-bytes "$(cat "$S/share-h-sum")" "$(md5sum < $M/data/sub/h)"
PFX=client-h- run_prog devdax_test cmp $M/data/sub/h
PFX=client-x- run_prog devdax_test check $M/data/x 101

# Refused: creating (the tool: b is a client) and writing (files are 0444).
t_rc client-mkfile-refused 2 famfs mkfile -s 1m $M/data/from-b
t_rc client-cp-refused 2 famfs cp "$FAMFS_SRC/README.md" $M/data/from-b
t_rc client-mkdir-refused 2 famfs mkdir $M/data/dir-from-b
t_ok client-created-nothing test ! -e $M/data/from-b -a ! -e $M/data/dir-from-b
t_eq client-file-mode 444 "$(stat -c %a $M/data/x)"
PFX=client- run_prog devdax_test nobody-write $M/data/x

# Hold a mapping of x while a adds files and rewrites x.
rm -rf /tmp/watch && mkdir -p /tmp/watch
bg_prog devdax_test watch $M/data/x /tmp/watch 101 102
wp=$BG_PID
if wait_for /tmp/watch/ready 20; then
	t_pass client-mapped
else
	t_fail client-mapped "$(cat /tmp/devdax_test.bg.out)"
fi
sync_post share-b-mapped
sync_wait share-a-more 120 || { kill $wp; sync_post share-b-done; exit 0; }
t_ok client-not-yet test ! -e $M/data/more
t_rc client-logplay 0 famfs logplay $M
t_rc client-sees-more 0 famfs verify -S 77 $M/data/more/y
PFX=client-y- run_prog devdax_test cmp $M/data/more/y
t_ok client-z-bytes cmp "$FAMFS_SRC/include/uapi/linux/famfs_format.h" $M/data/more/z
touch /tmp/watch/go
PFX=client- bg_verdict devdax_test
PFX=client-x2- run_prog devdax_test check $M/data/x 102
t_rc client-logplay-again 0 famfs logplay -n $M
t_ok client-umount umount $M
t_ok client-no-warnings no_warnings
[ "$FAMFS_DEV_MODE" = devdax ] && t_ok client-unbind famfs bind -u "$DEV"
sync_post share-b-done
exit 0
