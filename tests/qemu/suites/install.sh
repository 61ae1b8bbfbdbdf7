# profiles: nvdimm
# timeout: 200
# The installed famfs, used like a real file system: what "make install"
# staged on the host (tests/install/run.sh: build/stage, with the famfs.ko
# DKMS built) is copied into this guest's root; then the DKMS module is
# loaded by modprobe, and util-linux mount(8) runs /sbin/mount.famfs for
# mount -t famfs and for an fstab line; mount options; umount; the helper
# invoked the way mount(8) and busybox call it; its errors and exit codes;
# mkfs -t famfs and fsck -t famfs through util-linux mkfs(8) and fsck(8).
. "$FAMFS_SRC/tests/qemu/lib.sh"

DEV=$FAMFS_DEV
M=/mnt/famfs
STAGE=$FAMFS_SRC/build/stage
UMOUNT=/usr/bin/umount
export FAMFS_HOST_ID_FILE=/tmp/install-host-uuid
mkdir -p $M

mounted() { grep -q " $M famfs " /proc/mounts; }
mnt_opts() { awk -v m=$M '$2 == m && $3 == "famfs" { print $4 }' /proc/mounts; }
cleanup() { while mounted; do $UMOUNT $M 2>/dev/null || umount $M; done; }

# ---- the stage: present and built from this tree -----------------------------------
kver=$(uname -r)
ko=$STAGE/lib/modules/$kver/updates/dkms/famfs.ko
if [ ! -x $STAGE/usr/local/bin/famfs-cli ] || [ ! -f "$ko" ]; then
	t_fail stage "no staged install with a DKMS-built famfs.ko in $STAGE (run tests/install/run.sh on the host; make check does)"
	exit 0
fi
# make check stages right before the guests boot; others may rebuild the
# tool or edit fs/famfs since: that is reported, the staged install tested.
cmp -s $STAGE/usr/local/bin/famfs-cli $FAMFS_SRC/tools/famfs-cli/build/famfs-cli ||
	echo "install: info: the staged famfs-cli differs from tools/famfs-cli/build (rerun tests/install/run.sh)"
for f in $FAMFS_SRC/fs/famfs/*.c $FAMFS_SRC/fs/famfs/*.h; do
	case $f in *.mod.c) continue ;; esac
	cmp -s "$f" "$STAGE/usr/src/famfs-1.0/fs/famfs/${f##*/}" ||
		echo "install: info: staged module source differs from the tree: ${f##*/}"
done

# ---- install into this guest's root; the DKMS module through modprobe ----------------
t_ok copy-stage cp -a $STAGE/. /
t_ok installed-helper test -x /sbin/mount.famfs
FAMFS=/usr/local/bin/famfs
t_rc installed-famfs 0 $FAMFS --version
rmmod famfs 2>/dev/null
t_eq one-famfs-ko "/lib/modules/$kver/updates/dkms/famfs.ko" "$(find /lib/modules -name famfs.ko)"
t_ok depmod depmod
t_ok modprobe-dkms-module modprobe famfs
t_ok famfs-registered grep -qw famfs /proc/filesystems

# ---- mount -t famfs (util-linux) runs the helper: meta files, log replay -----------
t_rc mkfs 0 $FAMFS mkfs -f $DEV
rmmod famfs	# mount(2) loads it: request_module("fs-famfs") runs modprobe
t_rc mount-t-famfs 0 /usr/bin/mount -t famfs $DEV $M
t_ok mount-autoloaded-module test -d /sys/module/famfs
t_ok mount-t-famfs-mounted mounted
t_ok helper-made-meta-files test -f $M/.meta/.superblock -a -f $M/.meta/.log
t_rc mkfile 0 $FAMFS mkfile -s 3m -S 7 $M/a
t_rc mkdir 0 $FAMFS mkdir -p $M/d/e
t_rc umount 0 $UMOUNT $M
t_ok umount-unmounted sh -c "! grep -q ' $M famfs ' /proc/mounts"
t_rc remount-t-famfs 0 /usr/bin/mount -t famfs $DEV $M
t_rc log-replayed 0 $FAMFS verify -S 7 $M/a
t_ok log-replayed-dir test -d $M/d/e
t_rc fsck-after 0 $FAMFS fsck $M
cleanup

# ---- fstab -----------------------------------------------------------------------------
echo "$DEV $M famfs defaults,noauto 0 0" > /etc/fstab
t_rc fstab-mount 0 /usr/bin/mount $M
t_ok fstab-mounted mounted
t_rc fstab-replayed 0 $FAMFS verify -S 7 $M/a
t_rc fstab-umount 0 $UMOUNT $M
t_rc fstab-mount-a 0 /usr/bin/mount -a
t_ok fstab-noauto-not-mounted sh -c "! grep -q ' $M famfs ' /proc/mounts"
echo "$DEV $M famfs noauto,noexec,nosuid,mode=0750 0 0" > /etc/fstab
t_rc fstab-options 0 /usr/bin/mount $M
t_ok fstab-noexec sh -c "echo ',$(mnt_opts),' | grep -q ',noexec,'"
t_ok fstab-nosuid sh -c "echo ',$(mnt_opts),' | grep -q ',nosuid,'"
t_eq fstab-mode 750 "$(stat -c %a $M)"
cleanup
rm -f /etc/fstab

# ---- -o ro: the log and the mount read-only --------------------------------------------
t_rc mount-ro 0 /usr/bin/mount -t famfs -o ro $DEV $M
t_ok mount-ro-is-ro sh -c "echo ',$(mnt_opts),' | grep -q ',ro,'"
t_rc mount-ro-reads 0 $FAMFS verify -S 7 $M/a
t_rc mount-ro-mkfile-refused 2 $FAMFS mkfile -s 1m $M/b
t_not mount-ro-touch-refused touch $M/c
cleanup

# ---- the helper called as mount(8) and busybox call it ----------------------------------
t_rc helper-as-util-linux 0 /sbin/mount.famfs $DEV $M -o rw
t_ok helper-as-util-linux-meta test -f $M/.meta/.log
cleanup
t_rc helper-as-busybox 0 /sbin/mount.famfs -n $DEV $M -o noatime
t_ok helper-as-busybox-noatime sh -c "echo ',$(mnt_opts),' | grep -q ',noatime,'"
cleanup
t_rc helper-fake 0 /sbin/mount.famfs -f $DEV $M
t_ok helper-fake-mounts-nothing sh -c "! grep -q ' $M famfs ' /proc/mounts"
t_rc helper-verbose 0 /sbin/mount.famfs -v -t famfs $DEV $M
t_has helper-verbose-says "famfs mount: $DEV on $M (master): 1 files, 2 directories"
cleanup

# ---- errors: named, with mount(8)'s exit codes ------------------------------------------
t_rc helper-usage 1 /sbin/mount.famfs $DEV
t_rc helper-bad-option 1 /sbin/mount.famfs $DEV $M -o bogus
t_has helper-bad-option-named "unknown mount option 'bogus'"
t_rc helper-sloppy 0 /sbin/mount.famfs -s $DEV $M -o bogus
cleanup
t_rc helper-not-a-dir 32 /sbin/mount.famfs $DEV /etc/passwd
t_has helper-not-a-dir-named "/etc/passwd: mount point is not a directory"
t_rc mount8-passes-helper-error 1 /usr/bin/mount -t famfs -o bogus $DEV $M
t_has mount8-shows-helper-message "bogus"
t_rc helper-once 0 /sbin/mount.famfs $DEV $M
t_rc helper-twice 32 /sbin/mount.famfs $DEV $M

# ---- mount -o remount: flags only ----------------------------------------------------------
t_rc remount-ro 0 /usr/bin/mount -o remount,ro $M
t_ok remount-ro-is-ro sh -c "echo ',$(mnt_opts),' | grep -q ',ro,'"
t_rc remount-ro-mkfile-refused 2 $FAMFS mkfile -s 1m $M/r
t_rc remount-rw 0 /usr/bin/mount -o remount,rw $M
t_ok remount-rw-is-rw sh -c "echo ',$(mnt_opts),' | grep -q ',rw,'"
t_rc remount-rw-mkfile 0 $FAMFS mkfile -s 1m $M/r
t_rc helper-remount-ro 0 /sbin/mount.famfs $DEV $M -o remount,ro
t_ok helper-remount-ro-is-ro sh -c "echo ',$(mnt_opts),' | grep -q ',ro,'"
t_rc helper-remount-not-mounted 32 /sbin/mount.famfs $DEV /tmp -o remount
cleanup
t_rc kill 0 $FAMFS mkfs -k $DEV
t_rc helper-no-famfs 32 /sbin/mount.famfs $DEV $M
t_has helper-no-famfs-names-dev "$DEV"
t_rc mount8-no-famfs 32 /usr/bin/mount -t famfs $DEV $M
t_ok no-famfs-not-mounted sh -c "! grep -q ' $M famfs ' /proc/mounts"

# ---- busybox mount: mount(2) first, helper only on failure (documented) ----------------
t_rc mkfs-again 0 $FAMFS mkfs -f $DEV
if busybox mount -t famfs $DEV $M 2>/dev/null; then
	t_ok busybox-mount-skips-helper test ! -e $M/.meta
else
	t_fail busybox-mount-skips-helper "busybox mount -t famfs failed"
fi
cleanup

# ---- mkfs -t famfs, fsck -t famfs: util-linux runs /sbin/{mkfs,fsck}.famfs --------------
# fsck(8) exits 0 without checking when it finds no helper: every fsck below
# also checks fsck.famfs's own output.
MKFS=/usr/sbin/mkfs FSCK=/usr/sbin/fsck
t_ok installed-mkfs-helper test -x /sbin/mkfs.famfs
t_ok installed-fsck-helper test -x /sbin/fsck.famfs
t_rc mkfs8-existing-refused 1 $MKFS -t famfs $DEV
t_has mkfs8-existing-named "$DEV: already holds a famfs file system"
t_rc mkfs8 0 $MKFS -t famfs -f -l 4m $DEV
t_has mkfs8-ran-helper "famfs mkfs: $DEV: .*log 4194304 bytes"
t_rc mkfs8-size-refused 1 $MKFS -t famfs -f $DEV 1024
t_has mkfs8-size-named "size argument '1024' refused"
t_rc mkfs8-bad-option 1 $MKFS -t famfs -Q $DEV
t_has mkfs8-bad-option-helper-usage "usage: mkfs.famfs"
t_rc mkfs-helper-verbose 0 /sbin/mkfs.famfs -V -f $DEV
t_has mkfs-helper-verbose-says "mkfs.famfs (famfs .*): famfs mkfs -f --loglen 8388608 --log-format compact $DEV"
t_rc fsck8-clean 0 $FSCK -t famfs $DEV
t_has fsck8-ran-helper "fsck.famfs: $DEV: 0 log entries .* 0 problems"
t_rc fsck8-n 0 $FSCK -t famfs -n $DEV
t_has fsck8-n-ran-helper "fsck.famfs: $DEV: .* 0 problems"
t_rc fsck8-y-clean 0 $FSCK -t famfs -y $DEV
t_has fsck8-y-says-check-only "fsck.famfs: $DEV: -y: famfs fsck does not repair; checking only"
t_rc fsck8-a-clean 0 $FSCK -t famfs -a -f $DEV
t_has fsck8-a-says-check-only "-a: famfs fsck does not repair"
t_rc fsck8-two-modes 16 $FSCK -t famfs -n -y $DEV
t_has fsck8-two-modes-named "only one of -n, -y, -a/-p"
t_rc fsck8-bad-option 16 $FSCK -t famfs -Z $DEV
t_has fsck8-bad-option-helper-usage "usage: fsck.famfs"
t_rc fsck-helper-no-device 8 /sbin/fsck.famfs /dev/no-such-device
t_has fsck-helper-no-device-named "/dev/no-such-device"
t_rc fsck-helper-version 0 /sbin/fsck.famfs -V
t_has fsck-helper-version-says "fsck.famfs (famfs "
# a corrupted log entry (entry 2's ctime): found, left uncorrected, with -y too
/usr/bin/mount -t famfs $DEV $M
for i in 0 1 2 3; do $FAMFS mkfile -s 1m -S $i $M/f$i; done
cleanup
t_rc fsck8-before-corruption 0 $FSCK -t famfs $DEV
poke $((2097152 + 1024 + 2 * 256 + 28)) 255 $DEV	# compact: byte 4 of entry 2 ctime (0 until 2106)
t_rc fsck8-corrupt 4 $FSCK -t famfs $DEV
t_has fsck8-corrupt-names-entry "log entry 2"
t_rc fsck8-corrupt-n 4 $FSCK -t famfs -n $DEV
sum=$(head -c 4194304 $DEV | md5sum)
t_rc fsck8-corrupt-y 4 $FSCK -t famfs -y $DEV
t_eq fsck8-y-changed-nothing "$sum" "$(head -c 4194304 $DEV | md5sum)"
t_rc fsck8-corrupt-p 4 $FSCK -t famfs -p $DEV
$FAMFS mkfs -k $DEV >/dev/null
t_rc fsck8-no-superblock 4 $FSCK -t famfs $DEV
t_has fsck8-no-superblock-says "fsck.famfs: $DEV: superblock or log header invalid"

# back to the tree's module for the suites that follow
rmmod famfs && insmod "$FAMFS_KO"
exit 0
