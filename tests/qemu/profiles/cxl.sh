# CXL type-3 persistent memory (QEMU 7.2): one host bridge with two root ports
# (the second, empty one is required or the window is dead), a 512 MiB memdev
# with a label area, and a fixed memory window.  Decoders reset at every boot,
# so the guest zeroes the labels and creates region + namespace each time.
# Window accesses are MMIO-emulated: slow, keep data small.
# (two-hosts-cxl.sh shares the memdev file between two guests.)
FAMFS_DEV_MODE=${FAMFS_DEV_MODE:-fsdax}
[ "$FAMFS_DEV_MODE" = devdax ] && FAMFS_DEV=/dev/dax0.0 || FAMFS_DEV=/dev/pmem0
KARGS=
host_prepare() {
	rm -f "$WORK/cxl.img" "$WORK/cxl-lsa.img"
	truncate -s 512M "$WORK/cxl.img" && truncate -s 256K "$WORK/cxl-lsa.img"
}
# cxl_args LSA: the machine, with $WORK/cxl.img as the device's memory and
# the file LSA as its label storage area.
cxl_args() {
	qarg -machine q35,cxl=on -m 2G,maxmem=8G,slots=8
	qarg -object "memory-backend-file,id=cxl-mem1,share=on,mem-path=$WORK/cxl.img,size=512M"
	qarg -object "memory-backend-file,id=cxl-lsa1,share=on,mem-path=$1,size=256K"
	qarg -device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1
	qarg -device cxl-rp,port=0,bus=cxl.1,id=root_port13,chassis=0,slot=2
	qarg -device cxl-rp,port=1,bus=cxl.1,id=root_port14,chassis=0,slot=3
	qarg -device cxl-type3,bus=root_port13,memdev=cxl-mem1,lsa=cxl-lsa1,id=cxl-pmem0
	qarg -M cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G
}
host_args() { cxl_args "$WORK/cxl-lsa.img"; }
cxl_modules() {
	modprobe_all cxl_acpi cxl_pci cxl_mem cxl_pmem nd_pmem dax_pmem device_dax &&
		wait_for /sys/bus/cxl/devices/mem0 && wait_for /sys/bus/nd/devices/nmem0
}
# cxl_region_ns: fresh labels, region0 over mem0 and one $FAMFS_DEV_MODE
# namespace filling it (devdax: align 2 MiB); the same parameters give the
# same layout on every host.
cxl_region_ns() {
	_align=
	[ "$FAMFS_DEV_MODE" = devdax ] && _align="--align=2M"
	ndctl zero-labels nmem0 >/dev/null 2>&1	# also prints a count on stderr
	cxl create-region -m -t pmem -d decoder0.0 -w 1 -g 256 mem0 >/dev/null || return 1
	wait_for /sys/bus/nd/devices/region0 || return 1
	ndctl create-namespace -r region0 -m "$FAMFS_DEV_MODE" --map=mem $_align >/dev/null &&
		wait_for "$FAMFS_DEV"
}
guest_setup() { cxl_modules && cxl_region_ns; }
