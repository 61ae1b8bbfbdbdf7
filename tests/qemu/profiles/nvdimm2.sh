# Two QEMU NVDIMMs of 1 GiB each (one famfs over several devices, issue 16):
# namespace0.0 is /dev/pmem0 (fsdax, the primary, $FAMFS_DEV) and
# namespace1.0 is $FAMFS_DEV1: /dev/pmem1 (fsdax), or /dev/dax1.0 with
# FAMFS_DEV1_MODE=devdax (nvdimm2-mixed.sh).  Each is a fresh file per run.
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/pmem0
FAMFS_DEV1_MODE=${FAMFS_DEV1_MODE:-fsdax}
[ "$FAMFS_DEV1_MODE" = devdax ] && FAMFS_DEV1=/dev/dax1.0 || FAMFS_DEV1=/dev/pmem1
export FAMFS_DEV1 FAMFS_DEV1_MODE
KARGS=
host_prepare() {
	rm -f "$WORK/nvdimm0.img" "$WORK/nvdimm1.img" &&
		truncate -s 1G "$WORK/nvdimm0.img" && truncate -s 1G "$WORK/nvdimm1.img"
}
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=16G
	qarg -object "memory-backend-file,id=mem1,share=on,mem-path=$WORK/nvdimm0.img,size=1G"
	qarg -device nvdimm,id=nv1,memdev=mem1
	qarg -object "memory-backend-file,id=mem2,share=on,mem-path=$WORK/nvdimm1.img,size=1G"
	qarg -device nvdimm,id=nv2,memdev=mem2
}
# --map=mem: struct pages in guest RAM (see nvdimm.sh).
guest_setup() {
	_align=
	[ "$FAMFS_DEV1_MODE" = devdax ] && _align="--align=2M"
	modprobe_all nfit nd_pmem dax_pmem device_dax &&
		wait_for /sys/bus/nd/devices/namespace0.0 && wait_for /sys/bus/nd/devices/namespace1.0 &&
		ndctl create-namespace -f -e namespace0.0 -m fsdax --map=mem >/dev/null &&
		ndctl create-namespace -f -e namespace1.0 -m "$FAMFS_DEV1_MODE" --map=mem $_align >/dev/null &&
		wait_for "$FAMFS_DEV" && wait_for "$FAMFS_DEV1"
}
