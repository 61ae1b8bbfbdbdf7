# Four guests (FAMFS_HOST a, b, c and d) sharing one NVDIMM backing file
# (share=on) of 256 MiB and the /sync folder, as two-hosts.sh does for two:
# a configures the namespace and posts "ns-ready"; b, c and d wait for it
# and re-probe the region so they see the new info block.  Each guest has
# 2 GiB of RAM, as on two-hosts; the four share the machine's two cores
# (run.sh gives the boot 45 s more per guest beyond two), so the suites keep
# their data small.  NVDIMM, not CXL: accesses to QEMU's CXL window are
# MMIO-emulated (5-60x slower than NVDIMM, see two-hosts-cxl.sh), and four
# TCG guests on two cores would each get half a core for that; a churn of
# 1,000 files of 2 MiB would not fit in any timeout.  Each CXL guest would
# also need its own label area and region set up in turn.
FAMFS_GUESTS="a b c d"
. "$PROFILES/nvdimm.sh"
host_prepare() { rm -f "$WORK/nvdimm.img" && truncate -s 256M "$WORK/nvdimm.img"; }
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=16G
	qarg -object "memory-backend-file,id=mem1,share=on,mem-path=$WORK/nvdimm.img,size=256M"
	qarg -device nvdimm,id=nv1,memdev=mem1
}
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	wait_for /sys/bus/nd/devices/namespace0.0 || return 1
	if [ "$FAMFS_HOST" = a ]; then
		nvdimm_create_ns && wait_for "$FAMFS_DEV" && sync_post ns-ready
	else
		sync_wait ns-ready 240 a || return 1
		ndctl disable-region all >/dev/null && ndctl enable-region all >/dev/null &&
			wait_for "$FAMFS_DEV"
	fi
}
