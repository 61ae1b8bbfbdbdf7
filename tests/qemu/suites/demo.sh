# profiles: two-hosts
# timeout: 240
# The demo (make demo): host a makes a famfs on the shared NVDIMM, copies files
# in and writes through a mapping; host b mounts the same memory, replays the
# log and reads the same bytes.  Lines starting "demo:" are the narrative that
# scripts/demo.sh shows; the t_* checks make it a test as well.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/mnt/famfs
say() { echo "demo[$FAMFS_HOST]: $*"; }
run() { say "\$ $*"; "$@" 2>&1 | sed "s/^/demo[$FAMFS_HOST]:   /"; }
mkdir -p $MPT

if [ "$FAMFS_HOST" = a ]; then
	say "host a (master): a famfs on $FAMFS_DEV, shared with host b"
	run famfs mkfs "$FAMFS_DEV"
	t_ok mount famfs mount "$FAMFS_DEV" $MPT
	say "\$ famfs mount $FAMFS_DEV $MPT"
	run famfs mkdir $MPT/docs
	run famfs cp "$FAMFS_SRC/README.md" "$FAMFS_SRC/include/uapi/linux/famfs_ioctl.h" $MPT/docs
	run famfs mkfile -s 8m $MPT/greeting
	msg="hello from host a, written through mmap at $(date)"
	t_ok mmap-write demo_mmap write $MPT/greeting "$msg"
	say "\$ demo_mmap write $MPT/greeting '$msg'"
	run ls -lR $MPT
	run famfs getmap $MPT/greeting
	demo_mmap sum $MPT/docs/README.md > "$FAMFS_SYNC/demo-readme.sum"
	echo "$msg" > "$FAMFS_SYNC/demo-msg"
	sync_post demo-a-ready
	sync_wait demo-b-done 180 && t_pass peer-done
	run famfs fsck $MPT
	t_ok umount umount $MPT
else
	sync_wait demo-a-ready 180 || exit 0
	say "host b (client): the same memory, replayed from the log"
	t_ok mount famfs mount "$FAMFS_DEV" $MPT
	say "\$ famfs mount $FAMFS_DEV $MPT"
	run ls -lR $MPT
	say "\$ demo_mmap read $MPT/greeting"
	got=$(demo_mmap read $MPT/greeting)
	say "  $got"
	t_eq same-bytes-mmap "$(cat "$FAMFS_SYNC/demo-msg")" "$got"
	t_eq same-bytes-copy "$(cat "$FAMFS_SYNC/demo-readme.sum")" "$(demo_mmap sum $MPT/docs/README.md)"
	t_ok same-bytes-read cmp "$FAMFS_SRC/README.md" $MPT/docs/README.md
	say "\$ famfs mkfile -s 2m $MPT/from-b   (a client may not create files)"
	t_not client-refused famfs mkfile -s 2m $MPT/from-b
	famfs mkfile -s 2m $MPT/from-b 2>&1 | sed "s/^/demo[b]:   /"
	t_ok umount umount $MPT
	sync_post demo-b-done
fi
