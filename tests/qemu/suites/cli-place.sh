# profiles: nvdimm2 mixed cxl2
# timeout: 300
# Where the tool puts files on a famfs over two devices (issue 16): a simple
# file on the device with the most free space, mkfile -D N on device N (a
# device the file system lacks refused, naming the valid indexes), -N 2 with
# one strip on each device -- its bytes on both raw devices at the offsets
# getmap reports, 2 MiB (PMD) faults as many as for the same file on one
# device (512 per GiB) -- and -N 4 over two devices said on stderr; df per
# device (text and JSON), fsck clean, then a damaged member superblock found
# by fsck; a member unbound under the mount as df, fsck and a read see it.
# On mixed the member is a /dev/daxX.Y: bound to famfs to be attached, to
# device_dax for raw access.  On cxl2 (two CXL type-3 devices, MMIO-emulated,
# slow) the striped files are 16 MiB instead of 64 MiB.
. "$FAMFS_SRC/tests/qemu/lib.sh"

famfs_loaded || exit 0
M=/mnt/famfs-place
mkdir -p $M
two_devs || exit 0
j() { echo "$OUT" | jget "$@"; }
MiB=1048576
SZ=64	# MiB per striped file: SZ / 2 PMD faults
case $FAMFS_PROFILE in cxl*) SZ=16 ;; esac

member_raw
t_ok mkfs famfs mkfs -f --loglen 2m "$P" "$MEM"
member_famfs
t_ok mount famfs mount "$P" $M

# -- df per device ----------------------------------------------------------
t_rc df-json 0 famfs df -j $M
t_eq df-ndevs 2 "$(j -n .devices)"
t_eq df-dev1-role member "$(j .devices[1].role)"
t_eq df-dev1-path "$MEM" "$(j .devices[1].path)"
t_eq df-dev1-attached true "$(j .devices[1].attached)"
t_eq df-dev1-not-failed false "$(j .devices[1].failed)"
t_eq df-size-is-sum "$(( $(j .devices[0].size) + $(j .devices[1].size) ))" "$(j .size)"
F0=$(j .devices[0].free) F1=$(j .devices[1].free)
t_rc df-text 0 famfs df $M
t_has df-text-devices "devices      2"
t_has df-text-member " 1 member "

# -- a simple file: the device with the most free space -----------------------
if [ "$F1" -gt "$F0" ]; then MOST=1 LESS=0; else MOST=0 LESS=1; fi
t_ok mkfile-auto famfs mkfile -s 4M $M/auto
t_rc getmap-auto 0 famfs getmap -j $M/auto
t_eq auto-on-most-free "$MOST" "$(j .extents[0].device 2>/dev/null || echo 0)"
t_ok mkfile-dev-less famfs mkfile -D $LESS -s 2M $M/less
t_rc getmap-less 0 famfs getmap -j $M/less
t_eq less-on-its-device "$LESS" "$(j .extents[0].device 2>/dev/null || echo 0)"
t_err mkfile-dev-5-refused 2 "device 5: no such device in this file system (its devices: 0-1)" \
	famfs mkfile -D 5 -s 2M $M/nodev
t_eq mkfile-dev-5-no-file "" "$(ls $M/nodev 2>/dev/null)"
t_err mkfile-dev-99-usage 1 "device index must be a number from 0 to 15" \
	famfs mkfile -D 99 -s 2M $M/nodev

# -- -N 2: a strip on each device, the bytes where getmap says ---------------
t_ok mkfile-n2 famfs mkfile -N 2 -C 2M -s ${SZ}M $M/s2
t_rc getmap-n2 0 famfs getmap -j $M/s2
t_eq n2-strip0-dev 0 "$(j .extents[0].strips[0].device)"
t_eq n2-strip1-dev 1 "$(j .extents[0].strips[1].device)"
O0=$(j .extents[0].strips[0].offset) O1=$(j .extents[0].strips[1].offset)
t_ok n2-write devpat -m write $M/s2 0 ${SZ}M s2
# the same file on one device, for the fault count
t_ok mkfile-n2-one famfs mkfile -D 0 -N 2 -C 2M -s ${SZ}M $M/s1
t_ok n2-one-write devpat -m write $M/s1 0 ${SZ}M s1
pmd_faults pmd-striped-2dev $((SZ / 2)) devpat -m check $M/s2 0 ${SZ}M s2
pmd_faults pmd-striped-1dev $((SZ / 2)) devpat -m check $M/s1 0 ${SZ}M s1
# chunk 0 on strip 0, chunk 1 on strip 1, the last chunk (SZ/2 - 1) at
# strip 1 + SZ/4 - 1 chunks
C0=$(dev_bytes $M/s2 0 64K -m)
C1=$(dev_bytes $M/s2 $((2 * MiB)) 64K -m)
CL=$(dev_bytes $M/s2 $(((SZ - 2) * MiB)) 64K -m)

# -- -N 4 over 2 devices: said, one line ------------------------------------
t_rc mkfile-n4 0 famfs mkfile -N 4 -C 2M -s 16M $M/s4
t_has n4-said "4 strips over 2 devices: strip i is on device i % 2"
t_eq n4-one-line 1 "$(echo "$OUT" | grep -c 'strips share devices')"
t_rc getmap-n4 0 famfs getmap -j $M/s4
t_eq n4-strip-devs "0 1 0 1" "$(j .extents[0].strips[0].device) $(j .extents[0].strips[1].device) $(j .extents[0].strips[2].device) $(j .extents[0].strips[3].device)"

# -- df and fsck after --------------------------------------------------------
t_rc df-after 0 famfs df -j $M
t_eq df-dev1-used-grew 1 "$([ "$(j .devices[1].used)" -gt 0 ] && echo 1)"
t_eq df-used-is-sum "$(( $(j .devices[0].used) + $(j .devices[1].used) ))" "$(j .used)"
t_rc fsck-mounted 0 famfs fsck -j $M
t_eq fsck-clean true "$(j .clean)"
t_eq fsck-member-ok true "$(j .devices[1].ok)"
t_ok umount umount $M

# the raw devices hold the strips where getmap said
member_raw
t_eq raw-strip0-chunk0 "$C0" "$(dev_bytes "$P" "$O0" 64K)"
t_eq raw-strip1-chunk1 "$C1" "$(dev_bytes "$MEM" "$O1" 64K)"
t_eq raw-strip1-last-chunk "$CL" "$(dev_bytes "$MEM" $((O1 + (SZ / 2 - 2) * MiB)) 64K)"
t_eq raw-chunk1-not-on-primary 1 "$([ "$C1" != "$(dev_bytes "$P" "$O1" 64K)" ] && echo 1)"

# -- a member unbound (fsdax: nd_pmem) or unplugged under the mount ------------
member_famfs
t_ok mount-2 famfs mount "$P" $M
if [ -z "$DAX" ]; then
	nd=$(basename "$(readlink -f /sys/block/$(basename "$MEM")/device)")
	unplug="echo $nd > /sys/bus/nd/drivers/nd_pmem/unbind"
	replug="echo $nd > /sys/bus/nd/drivers/nd_pmem/bind"
else
	unplug="echo $DAX > /sys/bus/dax/drivers/famfs/unbind"
fi
t_ok unplug sh -c "$unplug"
t_err unplugged-read-eio 1 'Input/output error' cat $M/s2
# df and fsck cannot read the failed mount (EIO) and name the member that
# went away (exit 2)
said="device 1 (member, [a-z0-9.]*) failed: removed or poisoned"
t_err unplugged-df 2 "$said" famfs df $M
t_err unplugged-fsck 2 "$said" famfs fsck $M
t_ok unplugged-umount umount $M
if [ -z "$DAX" ]; then t_ok replug sh -c "$replug"; else t_ok replug dax_bind_famfs "$DAX"; fi
t_ok replug-device wait_for "$MEM" 10

# -- a damaged member superblock: fsck names the member ----------------------
member_raw
t_rc fsck-before-damage 0 famfs fsck "$P"
t_ok damage-member devpat fill "$MEM" 300 1 120
t_rc fsck-damaged 3 famfs fsck "$P"
t_has fsck-damaged-names-member "member 1 (device uuid [0-9a-f-]*, [0-9]* bytes): no device on this host has its superblock"
t_has fsck-damaged-says-refused "member superblock of file system .* refused"
JS=$(famfs fsck -j "$P" 2>/dev/null)
t_eq fsck-damaged-json-member false "$(echo "$JS" | jget .devices[1].ok)"
t_eq fsck-damaged-json-clean false "$(echo "$JS" | jget .clean)"
t_ok wipe-member devpat fill "$MEM" 0 4K 0
