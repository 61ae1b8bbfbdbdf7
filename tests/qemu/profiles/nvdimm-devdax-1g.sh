# Like nvdimm-1g, but one NVDIMM of 6 GiB whose namespace is devdax, made
# with --align=1G: /dev/dax0.0 of 5 GiB whose memory starts 1 GiB-aligned in
# guest physical memory (issue 31: famfs on a devdax backing maps a GiB with
# one PUD entry).  The suites bind it to famfs's dax driver.  QEMU's -cpu
# max offers pdpe1gb under TCG; suites/pud.sh checks both in the guest.
FAMFS_DEV_MODE=devdax
FAMFS_DEV=/dev/dax0.0
KARGS=
host_prepare() {
	rm -f "$WORK/nvdimm-devdax-1g.img" &&
		truncate -s 6G "$WORK/nvdimm-devdax-1g.img"
}
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=32G
	qarg -object "memory-backend-file,id=mem1,share=on,mem-path=$WORK/nvdimm-devdax-1g.img,size=6G,align=1G"
	qarg -device nvdimm,id=nv1,memdev=mem1
}
# --map=mem: struct pages in guest RAM (see nvdimm.sh).
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax &&
		wait_for /sys/bus/nd/devices/namespace0.0 &&
		ndctl create-namespace -f -e namespace0.0 -m devdax --map=mem --align=1G >/dev/null &&
		wait_for /dev/dax0.0
}
