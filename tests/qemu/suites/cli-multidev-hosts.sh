# profiles: two-hosts-rev
# timeout: 300
# One famfs over two devices shared by two hosts that see the devices in
# the opposite order (issue 16): a makes it over its /dev/pmem0 (primary)
# and /dev/pmem1 (member 1) and puts a file on the member; b mounts it as a
# client from its /dev/pmem1, finds member 1 at its /dev/pmem0 by uuid,
# and reads the file's bytes, which are on b's raw /dev/pmem0 where getmap
# says.  Then a makes it again without a member, b follows the log (mount
# -o follow), a adds the member online (famfs devadd) and a file on it: b's
# follower attaches the member and creates the file, whose bytes b reads.
# Last, the README's two-host example ("Several devices"), its lines taken
# from README.md and run as they are: a makes the file system and a file
# striped over both devices, b mounts it and finds the member; the suite
# adds a pattern written on a, read on b, and the strip on the member read
# from b's raw device where b's getmap says.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
M=/mnt/famfs-mdh
mkdir -p $M
two_devs || exit 0
# readme HOST: the famfs commands of README.md's block "# host HOST: ...",
# comments cut
readme() {
	awk -v h="# host $1: " 'index($0, h) == 1 { on = 1; next } /^```/ { on = 0 }
		on && /^famfs / { sub(/ *#.*/, ""); print }' "$FAMFS_SRC/README.md"
}
# run_readme HOST: each line as a check readme-N (at least two lines)
run_readme() {
	readme "$1" > /tmp/readme-$1.sh
	t_eq readme-$1-lines 1 "$([ "$(wc -l < /tmp/readme-$1.sh)" -ge 2 ] && echo 1)"
	_n=0
	while IFS= read -r _l; do
		_n=$((_n + 1))
		echo "$FAMFS_SUITE: README, host $1: $_l"
		t_ok readme-$1-$_n sh -c "$_l < /dev/null"
	done < /tmp/readme-$1.sh
}

if [ "$FAMFS_HOST" = b ]; then
	sync_wait mdh-made 200 || exit 0
	t_rc b-mount 0 famfs mount -v "$P" $M
	t_has b-member-found-by-uuid "member 1 is $MEM"
	t_rc b-getmap 0 famfs getmap $M/f1
	t_has b-getmap-device "0: offset 0x[0-9a-f]* len 0x400000 device 1"
	O1=$(famfs getmap -j $M/f1 | jget .extents[0].offset)
	t_ok b-bytes devpat -m check $M/f1 0 4M 77
	t_eq b-raw-member "$(dev_bytes "$MEM" "${O1:-0}" 64K)" "$(dev_bytes $M/f1 0 64K -m)"
	t_ok b-umount umount $M
	sync_post_verdict mdh-b-read
	# devadd while b follows
	sync_wait mdh-single 200 || exit 0
	t_ok b-mount-follow famfs mount -o follow "$P" $M
	sync_post mdh-following
	sync_wait mdh-added 200 || exit 0
	t_ok b-follower-created wait_for $M/f2 20
	t_rc b-getmap-f2 0 famfs getmap $M/f2
	t_has b-getmap-f2-device "device 1"
	t_ok b-f2-bytes devpat -m check $M/f2 0 2M 79
	# the follower's round may hold the mount for a moment
	t_ok b-umount-2 umount_retry $M
	sync_post_verdict mdh-b-followed
	# the README's example
	sync_wait readme-a 300 || exit 0
	mkdir -p /mnt/famfs
	run_readme B
	t_ok readme-b-bytes devpat -m check /mnt/famfs/striped 0 64M 81
	OUT=$(famfs getmap -j /mnt/famfs/striped)
	t_eq readme-b-strip-devs "0 1" "$(echo "$OUT" | jget .extents[0].strips[0].device) $(echo "$OUT" | jget .extents[0].strips[1].device)"
	O1=$(echo "$OUT" | jget .extents[0].strips[1].offset)
	C=$(echo "$OUT" | jget .extents[0].chunk_size)
	t_eq readme-b-raw-member "$(dev_bytes "$MEM" "${O1:-0}" 64K)" "$(dev_bytes /mnt/famfs/striped "${C:-0}" 64K -m)"
	t_ok readme-b-umount umount /mnt/famfs
	sync_post_verdict readme-b
	exit 0
fi

t_ok mkfs famfs mkfs -f --loglen 2m "$P" "$MEM"
t_ok mount famfs mount "$P" $M
t_ok mkfile-dev1 famfs mkfile --device 1 -s 4M $M/f1
t_ok write devpat -m write $M/f1 0 4M 77
sync_post mdh-made
t_peer b-read mdh-b-read 300
t_ok umount umount $M

t_ok mkfs-single famfs mkfs -f --loglen 2m "$P"
t_ok mount-single famfs mount "$P" $M
sync_post mdh-single
sync_wait mdh-following 200 || exit 0
t_rc devadd 0 famfs devadd -f $M "$MEM"
t_has devadd-said "member 1 is $MEM"
t_ok mkfile-f2-dev1 famfs mkfile --device 1 -s 2M $M/f2
t_ok write-f2 devpat -m write $M/f2 0 2M 79
sync_post mdh-added
t_peer b-followed mdh-b-followed 300
t_ok umount-2 umount $M

# the README's example, on devices that hold no file system yet
t_ok readme-wipe sh -c "devpat fill $P 0 4K 0 && devpat fill $MEM 0 4K 0"
mkdir -p /mnt/famfs
run_readme A
t_ok readme-a-write devpat -m write /mnt/famfs/striped 0 64M 81
sync_post readme-a
t_peer readme-b readme-b 300
t_ok readme-a-umount umount /mnt/famfs
# leave no member superblock behind for the next suite of the boot
t_ok wipe-member devpat fill "$MEM" 0 4K 0
