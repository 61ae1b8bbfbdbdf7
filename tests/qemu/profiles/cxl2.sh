# One host, two emulated CXL type-3 devices (issue 16).  QEMU 7.2's CXL
# components have one HDM decoder each, so two regions cannot share a host
# bridge: each device has its own host bridge (with the second, empty root
# port that cxl.sh explains), its own fixed memory window and its own label
# area.  Each device becomes one region and one $FAMFS_DEV_MODE namespace:
# /dev/pmem0 and /dev/pmem1 (fsdax).  Which memdev is which name depends on
# probing: the suites find devices by uuid.  Slow (MMIO-emulated): keep data
# to a few MiB.
FAMFS_DEV_MODE=${FAMFS_DEV_MODE:-fsdax}
FAMFS_DEV=/dev/pmem0
FAMFS_DEVS="/dev/pmem0 /dev/pmem1"
KARGS=
host_prepare() {
	rm -f "$WORK"/cxl2-*.img
	truncate -s 512M "$WORK/cxl2-mem0.img" "$WORK/cxl2-mem1.img" &&
		truncate -s 256K "$WORK/cxl2-lsa0.img" "$WORK/cxl2-lsa1.img"
}
host_args() {
	qarg -machine q35,cxl=on -m 2G,maxmem=8G,slots=8
	for _i in 0 1; do
		qarg -object "memory-backend-file,id=cxl-mem$_i,share=on,mem-path=$WORK/cxl2-mem$_i.img,size=512M"
		qarg -object "memory-backend-file,id=cxl-lsa$_i,share=on,mem-path=$WORK/cxl2-lsa$_i.img,size=256K"
	done
	qarg -device pxb-cxl,bus_nr=12,bus=pcie.0,id=cxl.1
	qarg -device cxl-rp,port=0,bus=cxl.1,id=root_port13,chassis=0,slot=2
	qarg -device cxl-rp,port=1,bus=cxl.1,id=root_port14,chassis=0,slot=3
	qarg -device cxl-type3,bus=root_port13,memdev=cxl-mem0,lsa=cxl-lsa0,id=cxl-pmem0
	qarg -device pxb-cxl,bus_nr=222,bus=pcie.0,id=cxl.2
	qarg -device cxl-rp,port=0,bus=cxl.2,id=root_port15,chassis=0,slot=4
	qarg -device cxl-rp,port=1,bus=cxl.2,id=root_port16,chassis=0,slot=5
	qarg -device cxl-type3,bus=root_port15,memdev=cxl-mem1,lsa=cxl-lsa1,id=cxl-pmem1
	qarg -M cxl-fmw.0.targets.0=cxl.1,cxl-fmw.0.size=4G,cxl-fmw.1.targets.0=cxl.2,cxl-fmw.1.size=4G
}
# cxl2_region MEM: a pmem region over memdev MEM, on whichever root decoder
# (fixed memory window) reaches its host bridge.
cxl2_region() {
	for _d in decoder0.0 decoder0.1; do
		cxl create-region -m -t pmem -d $_d -w 1 -g 256 "$1" >/dev/null 2>&1 && return 0
	done
	echo "cxl2: no root decoder takes a region over $1" >&2
	return 1
}
guest_setup() {
	_align=
	[ "$FAMFS_DEV_MODE" = devdax ] && _align="--align=2M"
	modprobe_all cxl_acpi cxl_pci cxl_mem cxl_pmem nd_pmem dax_pmem device_dax || return 1
	for _p in /sys/bus/cxl/devices/mem0 /sys/bus/cxl/devices/mem1 \
		/sys/bus/nd/devices/nmem0 /sys/bus/nd/devices/nmem1; do
		wait_for $_p || return 1
	done
	ndctl zero-labels nmem0 nmem1 >/dev/null 2>&1	# decoders reset at boot: stale labels
	cxl2_region mem0 && cxl2_region mem1 || return 1
	wait_for /sys/bus/nd/devices/region0 && wait_for /sys/bus/nd/devices/region1 || return 1
	for _r in region0 region1; do
		ndctl create-namespace -r $_r -m "$FAMFS_DEV_MODE" --map=mem $_align >/dev/null || return 1
	done
	for _p in $FAMFS_DEVS; do wait_for $_p || return 1; done
}
