# Two guests (FAMFS_HOST a and b) sharing two NVDIMM backing files, plugged
# in the opposite order: the memory that is /dev/pmem0 on a is /dev/pmem1 on
# b and the other way round, so only a device's contents (its uuid) can tell
# which one it is (issue 16).  Host a switches both label-less namespaces to
# fsdax and posts "ns-ready"; b waits and re-probes.  FAMFS_DEV is the same
# memory on both hosts (nv-0.img): a's /dev/pmem0, b's /dev/pmem1.
FAMFS_GUESTS="a b"
FAMFS_DEV_MODE=fsdax
FAMFS_DEVS="/dev/pmem0 /dev/pmem1"
if [ "${FAMFS_HOST:-a}" = b ]; then
	FAMFS_DEV=/dev/pmem1
	FAMFS_DEVS="/dev/pmem1 /dev/pmem0"
else
	FAMFS_DEV=/dev/pmem0
fi
KARGS=
host_prepare() {
	rm -f "$WORK"/nv-*.img
	truncate -s 512M "$WORK/nv-0.img" "$WORK/nv-1.img"
}
host_args() {	# GUEST a: nv-0 then nv-1; b: nv-1 then nv-0
	_order="0 1"
	[ "$GUEST" = b ] && _order="1 0"
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=16G
	_n=0
	for _i in $_order; do
		_n=$((_n + 1))
		qarg -object "memory-backend-file,id=mem$_n,share=on,mem-path=$WORK/nv-$_i.img,size=512M"
		qarg -device nvdimm,id=nv$_n,memdev=mem$_n
	done
}
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	wait_for /sys/bus/nd/devices/namespace0.0 && wait_for /sys/bus/nd/devices/namespace1.0 || return 1
	if [ "$FAMFS_HOST" = a ]; then
		for _ns in namespace0.0 namespace1.0; do
			ndctl create-namespace -f -e $_ns -m fsdax --map=mem >/dev/null || return 1
		done
		wait_for /dev/pmem0 && wait_for /dev/pmem1 && sync_post ns-ready
	else
		sync_wait ns-ready 120 || return 1
		ndctl disable-region all >/dev/null && ndctl enable-region all >/dev/null &&
			wait_for /dev/pmem0 && wait_for /dev/pmem1
	fi
}
