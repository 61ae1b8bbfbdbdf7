# A dynamic device-dax instance, as CXL RAM regions give: 512 MiB of guest
# RAM turned "soft reserved" (memmap=512M%1G-1+0xefffffff, E820 type RAM to
# SOFT_RESERVED), which dax_hmem makes into a dynamic dax region with one
# device, /dev/dax0.0 (its page map is allocated at each probe, unlike the
# static one of an NVDIMM devdax namespace).  Guest RAM: not shared.
FAMFS_DEV=/dev/dax0.0
FAMFS_DEV_MODE=devdax
KARGS='memmap=512M%1G-1+0xefffffff'
host_prepare() { :; }
host_args() { qarg -m 3G; }
guest_setup() {
	modprobe_all dax_hmem device_dax && wait_for /dev/dax0.0
}
