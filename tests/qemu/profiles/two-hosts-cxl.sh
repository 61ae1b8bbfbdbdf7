# Two guests (FAMFS_HOST a and b) on one emulated CXL type-3 device: the same
# memdev file (share=on), but each guest its own label storage area (with a
# shared one, b's region gets another uuid and ignores a's labels).  Each host
# makes its own region and namespace with the same parameters (cxl.sh), b only
# after a posted "ns-ready"; a starts its suites once b posted "ns-ready-b",
# so b's namespace set-up never races a's first writes.  Slow (MMIO-emulated
# window): suites listing this profile keep their data to a few MiB.
FAMFS_GUESTS="a b"
. "$PROFILES/cxl.sh"
host_prepare() {
	rm -f "$WORK"/cxl.img "$WORK"/cxl-lsa-*.img
	truncate -s 512M "$WORK/cxl.img" &&
		truncate -s 256K "$WORK/cxl-lsa-a.img" "$WORK/cxl-lsa-b.img"
}
host_args() { cxl_args "$WORK/cxl-lsa-$GUEST.img"; }
guest_setup() {
	cxl_modules || return 1
	if [ "$FAMFS_HOST" = a ]; then
		cxl_region_ns && sync_post ns-ready && sync_wait ns-ready-b 120
	else
		sync_wait ns-ready 120 && cxl_region_ns && sync_post ns-ready-b
	fi
}
