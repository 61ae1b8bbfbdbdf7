# Two QEMU NVDIMMs of 1 GiB each, both fsdax (one famfs over several
# devices, issue 16): namespace0.0 is /dev/pmem0 (the primary, $FAMFS_DEV),
# namespace1.0 /dev/pmem1.  Each is a fresh file per run.  (mixed.sh is the
# same with the second one devdax.)
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/pmem0
FAMFS_DEVS="/dev/pmem0 /dev/pmem1"
KARGS=
host_prepare() {
	rm -f "$WORK"/nv-*.img
	truncate -s 1G "$WORK/nv-0.img" "$WORK/nv-1.img"
}
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=16G
	for _i in 0 1; do
		qarg -object "memory-backend-file,id=mem$_i,share=on,mem-path=$WORK/nv-$_i.img,size=1G"
		qarg -device nvdimm,id=nv$_i,memdev=mem$_i
	done
}
# --map=mem: struct pages in guest RAM (see nvdimm.sh).
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	wait_for /sys/bus/nd/devices/namespace0.0 && wait_for /sys/bus/nd/devices/namespace1.0 || return 1
	ndctl create-namespace -f -e namespace0.0 -m fsdax --map=mem >/dev/null &&
		ndctl create-namespace -f -e namespace1.0 -m fsdax --map=mem >/dev/null &&
		wait_for /dev/pmem0 && wait_for /dev/pmem1
}
