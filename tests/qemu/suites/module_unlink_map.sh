# profiles: pmem nvdimm mixed cxl2
# timeout: 120
# FAMFSIOC_UNLINK_MAP (progs/unlink_map.c): a file removed only if its map
# is the one given, in one call on its directory (a DELETE's replay):
# - errors: every refusal in its documented order (EFAULT, EINVAL, E2BIG,
#   ENOTDIR, the name, the list, each entry), one log line for the
#   EINVAL/E2BIG ones; ENOENT, EISDIR and ESTALE (a map that differs in any
#   field: the file stays); the exact map removes a simple and an
#   interleaved file; EPERM for a user without CAP_SYS_ADMIN;
# - a protected mount: unlink(2) refused, the call removes the file;
# - a read-only mount: EROFS;
# - a file's identity (FAMFS_IOC_MAP_IDENT): made, reported, compared
#   (the right one removes, another or none is ESTALE, a file made
#   without one is removed by its map).
. "$FAMFS_SRC/tests/qemu/lib.sh"

M=/tmp/famfs-um
no_new_warnings() { ! klog_since | grep -q 'WARNING\|BUG\|Call Trace\|Oops'; }
klog_mark
famfs_raw_mount $M || exit 0
run_prog unlink_map errors $M 300M
t_klog errors-logged 'famfs (.*): UNLINK_MAP: '
run_prog unlink_map ident $M 340M
run_prog unlink_map identmore $M 360M
run_prog unlink_map identold $M 380M
chmod 0755 $M
runas 65534 unlink_map eperm $M > /tmp/um-eperm.out 2>&1
PFX=eperm- t_prog unlink_map /tmp/um-eperm.out $?
run_prog unlink_map prep $M 320M
t_ok remount-protect mount -o remount,protect $M
run_prog unlink_map protected $M
t_ok remount-ro mount -o remount,ro $M
run_prog unlink_map erofs $M
t_ok remount-rw mount -o remount,rw,noprotect $M
t_ok no-warnings no_new_warnings
t_ok umount umount $M
exit 0
