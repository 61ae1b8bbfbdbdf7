# profiles: two-hosts
# timeout: 900
# timeout-long: 2400
# Small files (issue 30): files below 2 MiB take 4 KiB pages in 2 MiB units
# that several files share.  Host a (the master) copies N
# files of 4 KiB (20,000; FAMFS_LONG=1: 100,000 on a 64 MiB log) with one
# famfs cp -r, each file's 512-byte blocks naming it, and compares every
# file with its source (diff -r); then a mix of 1 KiB..3 MiB files; a 2 MiB
# (PMD-sized) mapping of a 4 KiB file reads its own page and never its
# neighbour's (a SIGBUS past its page); df counts the shared units and
# their pages, fsck is clean, getmap shows page extents, and a remount
# (a replay of the whole log) shows every file again.  On two-hosts, host b
# mounts before a copies, follows with famfs logplay, and compares every
# file with the same sources made on its side.  Phase times (s) are printed
# as "small: ..." lines.
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
S=$FAMFS_SYNC
SRC=/tmp/small-src
N=20000 LOGLEN=8M
if [ "${FAMFS_LONG:-0}" != 0 ]; then N=100000 LOGLEN=64M; fi
mkdir -p $M
[ "$FAMFS_DEV_MODE" = devdax ] && famfs bind "$DEV"

now() { read -r _u _ < /proc/uptime; echo "${_u%.*}${_u#*.}"; }
phase() { _t=$(now); echo "small: N=$N $1 $(( (_t - $2) / 100 )).$(printf %02d $(( (_t - $2) % 100 ))) s"; }

# the sources: $SRC/small/d<k>/f<i>, 1000 to a directory, 4096 bytes each:
# eight 512-byte blocks, each starting with the file's number (one awk)
make_sources() {
	rm -rf $SRC; mkdir -p $SRC/small
	awk -v n=$N -v d=$SRC/small 'BEGIN {
		pad = "";
		for (k = 0; k < 504; k++) pad = pad sprintf("%c", 97 + k % 26);
		for (k = 0; k * 1000 < n; k++) system("mkdir -p " d "/d" k);
		for (i = 0; i < n; i++) {
			b = sprintf("%08d", i) pad; s = b b b b b b b b;
			f = d "/d" int(i / 1000) "/f" i;
			printf "%s", s > f; close(f);
		}
	}'
}
# the mix: sizes from 1 KiB to 3 MiB, bytes from /dev/urandom (a's only)
MIX="1024 4095 4096 4097 12345 65536 100000 524288 1048575 1048576 2093056 2093057 2097151 2097152 2097153 3145728"

if [ "$FAMFS_HOST" = a ]; then
	t_rc mkfs 0 famfs mkfs -f --loglen $LOGLEN $DEV
	t_rc mount 0 famfs mount $DEV $M
	t0=$(now); make_sources; phase sources $t0
	t_eq sources-made "$N" "$(find $SRC/small -type f | wc -l)"
	if [ "$FAMFS_PROFILE" = two-hosts ]; then
		sync_post small-a-ready
		sync_wait small-b-mounted 300 || exit 0
	fi
	t0=$(now)
	t_rc cp-small 0 famfs cp -r $SRC/small $M/
	phase cp $t0
	t0=$(now)
	t_ok small-all-same diff -r $SRC/small $M/small
	phase compare $t0
	# every 4 KiB file is one page extent
	famfs getmap $M/small/d0/f0 > /tmp/gm0 2>&1
	t_ok getmap-page-extent grep -q "extent type: pages" /tmp/gm0
	t_ok getmap-one-page grep -q "len 0x1000$" /tmp/gm0
	# df: N pages in shared units, none wasted by 2 MiB units
	famfs df -j $M > /tmp/df.json 2>&1
	used=$(sed -n 's/.*"pages_used": *\([0-9]*\).*/\1/p' /tmp/df.json | head -n 1)
	t_eq df-pages-used "$N" "$used"
	units=$(sed -n 's/.*"shared_units": *\([0-9]*\).*/\1/p' /tmp/df.json | head -n 1)
	t_ok df-shared-units test "$units" -eq $(( (N + 511) / 512 ))
	t_rc df 0 famfs df $M
	t_has df-says-small "small files"
	# the mix
	rm -rf /tmp/small-mix; mkdir -p /tmp/small-mix
	for s in $MIX; do head -c $s /dev/urandom > /tmp/small-mix/m$s; done
	t_rc cp-mix 0 famfs cp -r /tmp/small-mix $M/
	t_ok mix-same diff -r /tmp/small-mix $M/small-mix
	(cd $M/small-mix && md5sum m* > "$S/small-mix-sums")
	famfs getmap $M/small-mix/m2097152 > /tmp/gm1 2>&1
	t_ok mix-2m-in-units grep -q "extent type: simple" /tmp/gm1
	famfs getmap $M/small-mix/m1048575 > /tmp/gm2 2>&1
	t_ok mix-1m-in-pages grep -q "extent type: pages" /tmp/gm2
	# a 2 MiB mapping of a 4 KiB file: its page, then SIGBUS, never the
	# neighbour's bytes (two files side by side in one unit)
	t_rc creat-p1 0 famfs creat -s 4096 $M/p1
	t_rc creat-p2 0 famfs creat -s 4096 $M/p2
	o1=$(famfs getmap $M/p1 | sed -n 's/.*0: offset \(0x[0-9a-f]*\) .*/\1/p')
	o2=$(famfs getmap $M/p2 | sed -n 's/.*0: offset \(0x[0-9a-f]*\) .*/\1/p')
	t_eq neighbours-side-by-side "$((o1 + 4096))" "$((o2))"
	t_rc pmd-write-p1 0 devpat -m write $M/p1 0 4096 71
	t_rc pmd-write-p2 0 devpat -m write $M/p2 0 4096 72
	t_rc pmd-check-p1 0 devpat -m check $M/p1 0 4096 71
	t_rc pmd-check-p2 0 devpat -m check $M/p2 0 4096 72
	devpat -m dump $M/p1 4096 4096 > /tmp/past 2>&1; rc=$?
	t_ok pmd-past-page-sigbus test $rc -gt 128
	t_ok pmd-no-neighbour-bytes test ! -s /tmp/past -o "$(grep -c . /tmp/past)" -le 1
	# -T: the threshold lower, or none
	t_rc creat-no-small 0 famfs creat -T 0 -s 4096 $M/u1
	famfs getmap $M/u1 > /tmp/gm3 2>&1
	t_ok no-small-in-units grep -q "extent type: simple" /tmp/gm3
	t_rc creat-small-max-8k 0 famfs creat -T 8k -s 8192 $M/u2
	famfs getmap $M/u2 > /tmp/gm4 2>&1
	t_ok small-max-8k-in-units grep -q "extent type: simple" /tmp/gm4
	t_rc small-max-too-big 1 famfs creat -T 3m -s 4096 $M/u3
	t_rc fsck 0 famfs fsck $M
	if [ "$FAMFS_PROFILE" = two-hosts ]; then
		sync_post small-a-done
		sync_wait small-b-done 1500
	fi
	# a replay of the whole log on this host
	umount $M
	t0=$(now)
	t_rc remount 0 famfs mount $DEV $M
	phase remount $t0
	t_ok remount-small-same diff -r $SRC/small $M/small
	t_ok remount-mix-same diff -r /tmp/small-mix $M/small-mix
	t_rc remount-pmd-check-p2 0 devpat -m check $M/p2 0 4096 72
	t_rc fsck-end 0 famfs fsck $M
	umount $M
	exit 0
fi

# host b (two-hosts): a client that follows
sync_wait small-a-ready 300 || exit 0
t_rc client-mount 0 famfs mount $DEV $M
sync_post small-b-mounted
t0=$(now); make_sources; phase client-sources $t0
sync_wait small-a-done 1500 || { sync_post small-b-done; exit 0; }
t0=$(now)
t_rc client-logplay 0 famfs logplay $M
phase client-logplay $t0
t0=$(now)
t_ok client-small-same diff -r $SRC/small $M/small
phase client-compare $t0
t_eq client-mix-sums "$(cat "$S/small-mix-sums")" "$(cd $M/small-mix && md5sum m*)"
t_rc client-pmd-check-p1 0 devpat -m check $M/p1 0 4096 71
t_rc client-pmd-check-p2 0 devpat -m check $M/p2 0 4096 72
t_rc client-fsck 0 famfs fsck $M
sync_post small-b-done
umount $M
