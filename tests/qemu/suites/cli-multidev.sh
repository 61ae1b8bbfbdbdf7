# profiles: nvdimm2 mixed
# timeout: 300
# One famfs over two devices through the tool (issue 16): famfs mkfs with a
# member (and its refusals: the primary, twice, v1 log, a member holding
# famfs or another fs's member superblock), famfs mount attaching it by
# uuid, a file on the member (famfs mkfile --device 1) whose bytes land on
# the raw member where getmap (text and JSON) says, past the member's
# superblock, and not on the primary, logplay of it after a remount, famfs
# devadd online (and its refusals), and a mount that lacks its member
# refused naming the member's index and device uuid (exit 4).  On mixed the
# member is a /dev/daxX.Y: bound to famfs to be attached, to device_dax
# for raw access.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
M=/mnt/famfs-md
mkdir -p $M
two_devs || exit 0

member_raw
# refusals: nothing is written (the member is vetted before the primary)
t_err mkfs-member-is-primary 2 "is the primary device" famfs mkfs -f "$P" "$P"
t_err mkfs-member-twice 2 "given twice as a member" famfs mkfs -f "$P" "$MEM" "$MEM"
t_err mkfs-v1-refused 1 "members need the compact log" \
	famfs mkfs -f --log-format=v1 "$P" "$MEM"
t_ok mkfs-famfs-on-member famfs mkfs -f --loglen 2m "$MEM"
t_err mkfs-member-holds-famfs 2 "$MEM: already holds a famfs file system" \
	famfs mkfs "$P" "$MEM"

t_rc mkfs 0 famfs mkfs -f --loglen 2m "$P" "$MEM"
t_has mkfs-member-said "member 1: $MEM, [0-9]* bytes, device uuid"
DU=$(echo "$OUT" | sed -n 's/.*member 1: .*device uuid \([0-9a-f-]*\)$/\1/p')
t_err mkfs-member-of-other-fs 2 "$MEM: already a member (index 1) of famfs" \
	famfs mkfs "$P" "$MEM"
t_rc fsck 0 famfs fsck "$P"

member_famfs
t_rc mount 0 famfs mount -v "$P" $M
t_has mount-found-member "member 1 is $MEM"
# a file on member 1 (the member's data starts at 2 MiB, past its superblock)
t_ok mkfile-dev1 famfs mkfile --device 1 -s 4M $M/f1
# a small msync of a file on the member is written back line by line on the
# member's memory (famfs:famfs_fsync_lines; a kprobe on arch_wb_cache_pmem
# counts the bytes: 4096 + 8192 across its first 2 MiB unit)
t_ok md-dir famfs mkdir $M/md
t_ok md-mkfile famfs mkfile --device 1 -s $(((5 << 20) + 4096)) $M/md/nc
if wb_probe_add famfs_wbmd; then
	trace_on kprobes/famfs_wbmd famfs/famfs_fsync_lines
	PFX=md-first- run_prog cache_test $M/md msync 0 4096
	PFX=md-straddle- run_prog cache_test $M/md msync $(((2 << 20) - 4096)) 8192
	trace_off kprobes/famfs_wbmd famfs/famfs_fsync_lines
	t_eq md-msync-lines 2 "$(grep -c 'famfs_fsync_lines:' $TRACE/trace)"
	t_eq md-msync-written-back 12288 "$(wb_probe_bytes famfs_wbmd)"
	wb_probe_del famfs_wbmd
else
	trace_missing md-msync-written-back "kprobe events on arch_wb_cache_pmem"
fi
t_err mkfile-unknown-dev-refused 2 "device 2: no such device in this file system" \
	famfs mkfile --device 2 -s 2M $M/f9
t_rc getmap 0 famfs getmap $M/f1
t_has getmap-device "0: offset 0x[0-9a-f]* len 0x400000 device 1"
t_rc getmap-json 0 famfs getmap -j $M/f1
t_has getmap-json-device '"device": *1'
O1=$(echo "$OUT" | jget .extents[0].offset)
t_eq f1-past-member-sb 1 "$([ "${O1:-0}" -ge $((2 * 1048576)) ] && echo 1)"
# a file on the primary still gets the primary and no "device" in getmap
t_ok mkfile-primary famfs mkfile -s 2M $M/p1
t_rc getmap-primary 0 famfs getmap $M/p1
t_eq getmap-primary-no-device "" "$(echo "$OUT" | grep device)"
t_ok write devpat -m write $M/f1 0 4M 77
t_ok write-primary devpat -m write $M/p1 0 2M 78
# a small file (issue 30) on the member: a page extent there
t_ok mkfile-small-dev1 famfs mkfile --device 1 -s 4096 $M/s1
t_rc getmap-small-dev1 0 famfs getmap $M/s1
t_has getmap-small-dev1-pages "extent type: pages"
t_has getmap-small-dev1-device "0: offset 0x[0-9a-f]* len 0x1000 device 1"
t_ok write-small-dev1 devpat -m write $M/s1 0 4096 80
t_rc fsck-mounted 0 famfs fsck $M
# a devdax member attached to the mount is not given back to device_dax
# without -f (bind -u looked at mount sources only): the refusal names the
# mount
if [ -n "$DAX" ]; then
	t_err unbind-member-refused 2 "member 1 of the famfs mount at $M" \
		famfs bind -u "$MEM"
	t_eq unbind-member-still-famfs famfs "$(dax_driver $DAX)"
	t_ok unbind-member-mount-works devpat -m check $M/f1 0 4M 77
fi
t_ok umount umount $M

# the bytes are on the raw member where getmap said, not on the primary
member_raw
RAW_HEAD=$(dev_bytes "$MEM" "$O1" 64K)
RAW_TAIL=$(dev_bytes "$MEM" $((O1 + 4032 * 1024)) 64K)
PRI=$(dev_bytes "$P" "$O1" 64K)
member_famfs
t_ok remount famfs mount "$P" $M
t_ok logplay-f1-pattern devpat -m check $M/f1 0 4M 77
t_ok logplay-p1-pattern devpat -m check $M/p1 0 2M 78
t_ok logplay-small-dev1-pattern devpat -m check $M/s1 0 4096 80
t_eq raw-member-head "$RAW_HEAD" "$(dev_bytes $M/f1 0 64K -m)"
t_eq raw-member-tail "$RAW_TAIL" "$(dev_bytes $M/f1 4032K 64K -m)"
t_eq not-on-primary 1 "$([ "$PRI" != "$RAW_HEAD" ] && echo 1)"
t_ok umount-2 umount $M

# devadd online: a file system made without members gets one
member_raw
t_ok mkfs-single famfs mkfs -f --loglen 2m "$P"
member_famfs
t_ok mount-single famfs mount "$P" $M
t_err devadd-primary-refused 2 "is the primary device" famfs devadd $M "$P"
member_raw	# devadd writes its superblock, then binds it to famfs itself
t_rc devadd 0 famfs devadd -f $M "$MEM"
t_has devadd-said "member 1 is $MEM"
DU=$(echo "$OUT" | sed -n 's/.*device uuid \([0-9a-f-]*\)$/\1/p')
t_err devadd-twice-refused 2 "is member 1 of this file system already" \
	famfs devadd $M "$MEM"
t_ok mkfile-dev1-after-devadd famfs mkfile --device 1 -s 2M $M/f2
t_rc getmap-f2 0 famfs getmap $M/f2
t_has getmap-f2-device "0: offset 0x[0-9a-f]* len 0x200000 device 1"
t_ok write-f2 devpat -m write $M/f2 0 2M 79
t_ok umount-3 umount $M
t_ok mount-after-devadd famfs mount "$P" $M
t_ok f2-after-remount devpat -m check $M/f2 0 2M 79
t_ok umount-4 umount $M

# a host without the member (its superblock wiped): the mount is refused,
# naming member 1 and its device uuid, and nothing stays mounted
member_raw
t_ok wipe-member devpat fill "$MEM" 0 4K 0
t_err mount-missing-member 4 "member 1, device uuid $DU, is not on this host" \
	famfs mount "$P" $M
t_eq missing-not-mounted "" "$(grep " $M " /proc/mounts)"
