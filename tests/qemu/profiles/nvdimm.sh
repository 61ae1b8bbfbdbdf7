# QEMU NVDIMM backed by a 1 GiB file (fresh each run); the label-less raw
# namespace is switched to $FAMFS_DEV_MODE (fsdax here; see nvdimm-devdax.sh).
FAMFS_DEV_MODE=${FAMFS_DEV_MODE:-fsdax}
[ "$FAMFS_DEV_MODE" = devdax ] && FAMFS_DEV=/dev/dax0.0 || FAMFS_DEV=/dev/pmem0
KARGS=
host_prepare() { rm -f "$WORK/nvdimm.img" && truncate -s 1G "$WORK/nvdimm.img"; }
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=16G
	qarg -object "memory-backend-file,id=mem1,share=on,mem-path=$WORK/nvdimm.img,size=1G"
	qarg -device nvdimm,id=nv1,memdev=mem1
}
# --map=mem: struct pages in guest RAM.  With the default (dev) they live on the
# device itself, and two hosts sharing it overwrite each other's struct pages
# (oops in __put_devmap_managed_page_refs once pages are pinned, e.g. by 9p).
nvdimm_create_ns() {	# switch namespace0.0 to $FAMFS_DEV_MODE
	_align=
	[ "$FAMFS_DEV_MODE" = devdax ] && _align="--align=2M"
	ndctl create-namespace -f -e namespace0.0 -m "$FAMFS_DEV_MODE" --map=mem $_align >/dev/null
}
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax &&
		wait_for /sys/bus/nd/devices/namespace0.0 && nvdimm_create_ns && wait_for "$FAMFS_DEV"
}
