# One host, two NVDIMMs of both kinds (issue 16): the first as an fsdax
# namespace (/dev/pmem0), the second as a devdax namespace (align 2 MiB,
# /dev/dax1.0) for famfs's dax driver.  famfs.ko is loaded after the set-up,
# so the suites bind dax1.0 to it (famfs bind, or lib.sh's dax_bind_famfs).
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/pmem0
FAMFS_DEVS="/dev/pmem0 /dev/dax1.0"
KARGS=
host_prepare() {
	rm -f "$WORK"/nv-*.img
	truncate -s 512M "$WORK/nv-0.img" "$WORK/nv-1.img"
}
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=16G
	for _i in 0 1; do
		qarg -object "memory-backend-file,id=mem$_i,share=on,mem-path=$WORK/nv-$_i.img,size=512M"
		qarg -device nvdimm,id=nv$_i,memdev=mem$_i
	done
}
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	wait_for /sys/bus/nd/devices/namespace0.0 && wait_for /sys/bus/nd/devices/namespace1.0 || return 1
	ndctl create-namespace -f -e namespace0.0 -m fsdax --map=mem >/dev/null &&
		ndctl create-namespace -f -e namespace1.0 -m devdax --map=mem --align=2M >/dev/null &&
		wait_for /dev/pmem0 && wait_for /dev/dax1.0
}
