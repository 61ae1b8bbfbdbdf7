# QEMU NVDIMM of 6 GiB (a fresh sparse file each run) whose fsdax namespace is
# made with --align=1G: a 5 GiB /dev/pmem0 whose data starts 1 GiB-aligned in
# guest physical memory (the first GiB goes to the info block and the
# alignment), so device offsets that are multiples of 1 GiB are 1 GiB-aligned
# physical addresses and famfs can map them with one PUD entry (issue 31).
# A second NVDIMM the same (same size: which of the two probes as pmem0 is
# not fixed) is /dev/pmem1: a member with PUD mappings.
# QEMU's -cpu max offers pdpe1gb under TCG; suites/pud.sh checks both in the
# guest and FAILs without them (no silent fall back to 2 MiB).
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/pmem0
FAMFS_DEVS="/dev/pmem0 /dev/pmem1"
KARGS=
host_prepare() {
	rm -f "$WORK/nvdimm-1g.img" "$WORK/nvdimm-1g-m.img" &&
		truncate -s 6G "$WORK/nvdimm-1g.img" "$WORK/nvdimm-1g-m.img"
}
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=32G
	qarg -object "memory-backend-file,id=mem1,share=on,mem-path=$WORK/nvdimm-1g.img,size=6G,align=1G"
	qarg -device nvdimm,id=nv1,memdev=mem1
	qarg -object "memory-backend-file,id=mem2,share=on,mem-path=$WORK/nvdimm-1g-m.img,size=6G,align=1G"
	qarg -device nvdimm,id=nv2,memdev=mem2
}
# --map=mem: struct pages in guest RAM (see nvdimm.sh).
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax &&
		wait_for /sys/bus/nd/devices/namespace0.0 &&
		wait_for /sys/bus/nd/devices/namespace1.0 &&
		ndctl create-namespace -f -e namespace0.0 -m fsdax --map=mem --align=1G >/dev/null &&
		ndctl create-namespace -f -e namespace1.0 -m fsdax --map=mem --align=1G >/dev/null &&
		wait_for /dev/pmem0 && wait_for /dev/pmem1
}
