# profiles: cxl2 two-hosts-rev mixed
# timeout: 240
# famfs devices (issue 16): a file system's devices are found by what they
# hold, never by name.  mkfs on the first device of the profile, a member
# superblock (famfs devices label) on the second, then the listing by fs uuid
# and by primary: every device at its index, an -e member that is there and
# one that is not (named by its device uuid), a copy of the member (a -d
# hint) refused as a duplicate naming both (label makes that copy only with
# -f, overwrites an ext4 image only with -f, and labels nothing on a
# client), the primary read while mounted,
# a devdax member read through device_dax and through famfs's driver
# (mixed).  two-hosts-rev: host b finds a's primary at its /dev/pmem1 and the
# member at its /dev/pmem0.
. "$FAMFS_SRC/tests/qemu/lib.sh"

export FAMFS_HOST_ID_FILE=/tmp/devices-host-uuid
M=/mnt/famfs
U1=5eed0001-1600-4000-8000-000000000001
U2=5eed0002-1600-4000-8000-000000000002
two_devs || exit 0

# listed ID INDEX KIND DEV [DEV-UUID]: the last listing ($OUT) has the line
listed() {
	_pat="^index $2 $3 $4 size [0-9]*"
	[ -n "${5:-}" ] && _pat="$_pat dev-uuid $5"
	t_has "$1" "$_pat\$"
}

if [ "$FAMFS_HOST" = b ]; then
	sync_wait devices-labelled 200 || exit 0
	FSU=$(cat "$FAMFS_SYNC/devices-labelled")
	t_rc b-list 0 famfs devices "$FSU"
	echo "$OUT"
	listed b-primary-is-pmem1 0 primary /dev/pmem1
	listed b-member-is-pmem0 1 member /dev/pmem0 $U1
	t_has b-count "$FSU: 2 device(s) found"
	t_rc b-list-by-primary 0 famfs devices /dev/pmem1
	listed b-by-primary-member 1 member /dev/pmem0 $U1
	t_rc b-expect-found 0 famfs devices -e 1:$U1 "$FSU"
	t_err b-expect-missing 3 "member 2, device uuid $U2, is not on this host" \
		famfs devices -e 1:$U1 -e 2:$U2 "$FSU"
	# a client labels nothing: it writes for the file system
	rm -f /tmp/b-label.img && truncate -s 8M /tmp/b-label.img
	t_err b-label-client-refused 2 "is a client of /dev/pmem1; only the master" \
		famfs devices label -i 3 /dev/pmem1 /tmp/b-label.img
	t_eq b-label-client-wrote-nothing "$(dev_bytes /tmp/b-label.img 0 16)" \
		"$(dev_bytes /tmp/b-label.img 4096 16)"
	rm -f /tmp/b-label.img
	sync_post_verdict devices-checked
	exit 0
fi

t_ok mkfs famfs mkfs -f --loglen 2m "$P"
t_rc list-primary-only 0 famfs devices "$P"
FSU=$(echo "$OUT" | sed -n 's/^file system \([0-9a-f-]*\): .*/\1/p')
listed primary-only 0 primary "$P"
t_has primary-only-count ": 1 device(s) found"
t_err label-primary-itself 2 "is the primary device" famfs devices label -i 1 "$P" "$P"
t_rc label 0 famfs devices label -i 1 -u $U1 "$P" "$MEM"
t_has label-says "member 1, dev-uuid $U1, of file system $FSU"
t_err label-twice-refused 2 "holds a famfs member superblock" famfs devices label -i 2 "$P" "$MEM"

t_rc list 0 famfs devices "$FSU"
echo "$OUT"
listed list-primary 0 primary "$P"
listed list-member 1 member "$MEM" $U1
t_has list-count ": 2 device(s) found"
t_rc list-by-primary 0 famfs devices "$P"
listed by-primary-member 1 member "$MEM" $U1
t_rc expect-found 0 famfs devices -e 1:$U1 "$FSU"
t_err expect-missing 3 "member 2, device uuid $U2, is not on this host" \
	famfs devices -e 1:$U1 -e 2:$U2 "$FSU"
t_err expect-other-uuid 3 "member 1 should be device uuid $U2, but $MEM has device uuid $U1" \
	famfs devices -e 1:$U2 "$FSU"
t_rc other-fs 0 famfs devices 5eed0003-1600-4000-8000-000000000003
t_has other-fs-none ": 0 device(s) found"

# a copy of the member (same index, same device uuid), given as a hint:
# label refuses to make one without -f, naming the member it would copy
rm -f /tmp/dup.img && truncate -s 8M /tmp/dup.img
t_err dup-label-refused 2 "member 1 of file system $FSU (device uuid $U1) is on $MEM" \
	famfs devices label -i 1 -u $U1 "$P" /tmp/dup.img
t_err dup-index-label-refused 2 "not labelled as member 1: member 1 of file system $FSU" \
	famfs devices label -i 1 "$P" /tmp/dup.img
t_eq dup-label-refused-wrote-nothing "$(dev_bytes /tmp/dup.img 0 16)" \
	"$(dev_bytes /tmp/dup.img 4096 16)"
t_ok dup-label famfs devices label -f -i 1 -u $U1 "$P" /tmp/dup.img
t_err dup-refused 2 "index 1 claimed by both /tmp/dup.img and $MEM" \
	famfs devices -d /tmp/dup.img "$FSU"
# the same device uuid at another index: refused too, naming both
rm -f /tmp/dup.img && truncate -s 8M /tmp/dup.img
t_err dup-uuid-label-refused 2 "member 1 of file system $FSU (device uuid $U1) is on $MEM" \
	famfs devices label -i 2 -u $U1 "$P" /tmp/dup.img
t_ok dup-uuid-label famfs devices label -f -i 2 -u $U1 "$P" /tmp/dup.img
t_err dup-uuid-refused 2 "device uuid $U1 claimed by both" \
	famfs devices -d /tmp/dup.img "$FSU"
t_has dup-uuid-names-dup "/tmp/dup.img"
t_has dup-uuid-names-member "$MEM"
rm -f /tmp/dup.img
# what libblkid knows is not destroyed without -f (an ext4 image labelled
# as a member used to exit 0, and e2fsck found nothing after)
rm -f /tmp/ext4.img && truncate -s 8M /tmp/ext4.img
t_ok ext4-made mkfs.ext4 -q -F -L keepme /tmp/ext4.img
t_err label-ext4-refused 2 "holds ext4 file system labelled 'keepme'" \
	famfs devices label -i 3 "$P" /tmp/ext4.img
t_ok label-ext4-intact e2fsck -n -f /tmp/ext4.img
t_rc label-ext4-forced 0 famfs devices label -f -i 3 "$P" /tmp/ext4.img
t_has label-ext4-forced-says "overwriting ext4"
rm -f /tmp/ext4.img

if famfs_loaded; then
	# the scan reads a mounted primary (no exclusive open)
	mkdir -p $M
	t_ok mount famfs mount "$P" $M
	t_rc list-mounted 0 famfs devices "$FSU"
	listed mounted-primary 0 primary "$P"
	listed mounted-member 1 member "$MEM" $U1
	t_ok umount umount $M
	case $MEM in /dev/dax*)
		N=${MEM#/dev/}
		t_ok bind-member dax_bind_famfs $N
		t_rc list-member-on-famfs 0 famfs devices "$FSU"
		listed member-on-famfs 1 member "$MEM" $U1
		t_ok unbind-member famfs bind -u "$MEM"
		;;
	esac
fi

if [ "$FAMFS_PROFILE" = two-hosts-rev ]; then
	sync_post devices-labelled "$FSU"
	t_peer devices-peer-checked devices-checked 200
fi
