# profiles: pmem nvdimm
# timeout: 120
# famfs.ko, the namespace (progs/module_ns.c): files and directories as in
# ramfs; symlinks, device nodes, FIFOs and sockets refused with EPERM,
# O_TMPFILE with EOPNOTSUPP; a mapped file keeps its map through rename.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-ns
famfs_raw_mount $MPT || exit 0
run_prog module_ns $MPT

# The same through busybox, as a user would type it.
t_ok sh-mkdir-p mkdir -p $MPT/a/b/c
t_ok sh-touch touch $MPT/a/b/c/file
t_ok sh-mv mv $MPT/a/b/c/file $MPT/a/file2
t_not sh-ln-s ln -s file2 $MPT/a/link
t_not sh-mkfifo mkfifo $MPT/a/fifo
t_ok sh-rm-r rm -r $MPT/a
t_eq sh-empty "" "$(ls -A $MPT)"
t_ok umount umount $MPT
