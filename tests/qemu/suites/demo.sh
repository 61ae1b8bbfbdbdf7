# profiles: two-hosts-cxl two-hosts
# timeout: 180
# The demo (make demo): two hosts on one shared memory device, emulated CXL
# (two-hosts-cxl; make demo DEMO=nvdimm: an NVDIMM, two-hosts).  Each host
# installs what "make install" staged on the build machine ($FAMFS_STAGE,
# default build/stage) and mounts with util-linux "mount -t famfs", which
# runs the installed /sbin/mount.famfs.  Host a makes the file system, copies
# a file in and fills a file through a mapping; host b mounts the same
# memory, and an application maps a's file and checks every byte a stored.
# Lines "demo[HOST]: " are the narrative scripts/demo.sh shows; the checks
# (both hosts' own) make it a test.  CXL is slow: a few MiB of data only.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/mnt/famfs
STAGE=$FAMFS_SRC/${FAMFS_STAGE:-build/stage}
MOUNT=/usr/bin/mount	# util-linux (busybox mount first tries mount(2) alone)
say() { echo "demo[$FAMFS_HOST]: $*"; }
run() { say "\$ $*"; "$@" 2>&1 | sed "s/^/demo[$FAMFS_HOST]:   /"; }
# t_run ID CMD...: run, narrated (as $SHOW if set), and a check that CMD exits 0.
t_run() {
	_id=$1; shift
	say "\$ ${SHOW:-$*}"
	SHOW=
	"$@" > /tmp/demo.out 2>&1
	_rc=$?
	sed "s/^/demo[$FAMFS_HOST]:   /" /tmp/demo.out
	if [ $_rc = 0 ]; then t_pass "$_id"
	else t_fail "$_id" "'$*' exited $_rc: $(tail -n 2 /tmp/demo.out | tr '\n' ' ')"; fi
}
# The mount is famfs's, made through the helper: it created the meta files.
mounted_famfs() { grep -q " $MPT famfs " /proc/mounts && test -f $MPT/.meta/.log; }
mkdir -p $MPT

# Both hosts: famfs as "make install" put it; famfs.ko is loaded.
famfs_loaded || exit 0
if [ ! -L "$STAGE/sbin/mount.famfs" ]; then
	t_fail install "no staged install in $STAGE (make demo and make check stage one)"
	exit 0
fi
t_ok install cp -a "$STAGE/." /
t_ok installed-helper test -x /sbin/mount.famfs
export PATH=/usr/local/bin:$PATH	# the installed famfs first
t_eq installed-famfs /usr/local/bin/famfs "$(command -v famfs)"

if [ -d /sys/bus/cxl/devices/region0 ]; then
	mem="CXL memory device mem0 (QEMU cxl-type3) -> region0 -> $FAMFS_DEV"
else
	mem="NVDIMM nmem0 -> $FAMFS_DEV"
fi

if [ "$FAMFS_HOST" = a ]; then
	say "host a: $mem, shared with host b; famfs installed by 'make install'"
	t_run mkfs famfs mkfs -f "$FAMFS_DEV"
	SHOW="mount -v -t famfs $FAMFS_DEV $MPT   (util-linux mount runs /sbin/mount.famfs)"
	t_run mount-t-famfs $MOUNT -v -t famfs "$FAMFS_DEV" $MPT
	t_ok mounted-by-helper mounted_famfs
	run famfs mkdir $MPT/docs
	t_run cp famfs cp "$FAMFS_SRC/README.md" $MPT/docs/
	t_run mkfile famfs mkfile -s 2m $MPT/greeting
	msg="hello from host a, written through mmap at $(date)"
	SHOW="demo_mmap write $MPT/greeting '$msg'"
	t_run mmap-write demo_mmap write $MPT/greeting "$msg"
	run ls -l $MPT $MPT/docs
	run famfs getmap $MPT/greeting
	echo "$msg" > "$FAMFS_SYNC/demo-msg"
	sync_post demo-a-ready
	t_peer peer-done demo-b-done 150	# b posts its verdict
	t_run fsck famfs fsck $MPT
	t_ok umount umount $MPT
else
	sync_wait demo-a-ready 150 || exit 0
	say "host b: the same memory ($mem), a client of host a's famfs"
	SHOW="mount -v -t famfs $FAMFS_DEV $MPT"
	t_run mount-t-famfs $MOUNT -v -t famfs "$FAMFS_DEV" $MPT
	t_ok mounted-by-helper mounted_famfs
	run ls -l $MPT $MPT/docs
	msg=$(cat "$FAMFS_SYNC/demo-msg")
	say "an application maps $MPT/greeting and checks the bytes host a stored:"
	SHOW="demo_mmap check $MPT/greeting '$msg'"
	t_run mmap-check demo_mmap check $MPT/greeting "$msg"
	t_ok same-bytes-copy cmp "$FAMFS_SRC/README.md" $MPT/docs/README.md
	say "\$ famfs mkfile -s 2m $MPT/from-b   (only the master creates files)"
	t_err client-refused 2 'is a client' famfs mkfile -s 2m $MPT/from-b
	echo "$OUT" | sed "s/^/demo[b]:   /"
	t_ok umount umount $MPT
	sync_post_verdict demo-b-done
fi
exit 0
