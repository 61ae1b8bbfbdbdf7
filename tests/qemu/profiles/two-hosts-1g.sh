# Two guests (FAMFS_HOST a and b) sharing one NVDIMM backing file of 6 GiB
# (share=on, align=1G) and the /sync folder, as two-hosts.sh, with the
# namespace of nvdimm-1g.sh: fsdax --map=mem --align=1G, a 5 GiB /dev/pmem0
# whose data starts 1 GiB-aligned in guest physical memory on both hosts, so
# both map a file's GiBs with one PUD entry each (issue 31).  Host a makes
# the namespace and posts "ns-ready"; host b waits for it and re-probes the
# region so it sees the new info block.
FAMFS_GUESTS="a b"
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/pmem0
KARGS=
host_prepare() {
	rm -f "$WORK/two-hosts-1g.img" && truncate -s 6G "$WORK/two-hosts-1g.img"
}
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=32G
	qarg -object "memory-backend-file,id=mem1,share=on,mem-path=$WORK/two-hosts-1g.img,size=6G,align=1G"
	qarg -device nvdimm,id=nv1,memdev=mem1
}
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	wait_for /sys/bus/nd/devices/namespace0.0 || return 1
	if [ "$FAMFS_HOST" = a ]; then
		ndctl create-namespace -f -e namespace0.0 -m fsdax --map=mem --align=1G >/dev/null &&
			wait_for "$FAMFS_DEV" && sync_post ns-ready
	else
		sync_wait ns-ready 120 || return 1
		ndctl disable-region all >/dev/null && ndctl enable-region all >/dev/null &&
			wait_for "$FAMFS_DEV"
	fi
}
