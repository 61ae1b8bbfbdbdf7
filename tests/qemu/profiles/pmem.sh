# Legacy pmem carved out of guest RAM (memmap=1G!1G): /dev/pmem0, fsdax.
# Profile files are sourced by run.sh (bash: host_prepare, host_args, KARGS)
# and by the guest /init (busybox sh: guest_setup, FAMFS_DEV, FAMFS_DEV_MODE).
FAMFS_DEV=/dev/pmem0
FAMFS_DEV_MODE=fsdax
KARGS='memmap=1G!1G'
host_prepare() { :; }
host_args() { qarg -m 3G; }
guest_setup() {
	modprobe_all nd_e820 nd_pmem dax_pmem device_dax && wait_for /dev/pmem0
}
