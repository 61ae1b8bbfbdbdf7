# Two guests (FAMFS_HOST a and b) sharing one NVDIMM backing file (share=on)
# and the /sync folder.  Host a configures the namespace and posts "ns-ready";
# host b waits for it and re-probes the region so it sees the new info block.
FAMFS_GUESTS="a b"
. "$PROFILES/nvdimm.sh"
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	wait_for /sys/bus/nd/devices/namespace0.0 || return 1
	if [ "$FAMFS_HOST" = a ]; then
		nvdimm_create_ns && wait_for "$FAMFS_DEV" && sync_post ns-ready
	else
		sync_wait ns-ready 120 || return 1
		ndctl disable-region all >/dev/null && ndctl enable-region all >/dev/null &&
			wait_for "$FAMFS_DEV"
	fi
}
