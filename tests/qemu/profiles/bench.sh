# Benchmarks (scripts/bench.sh): four QEMU NVDIMMs in one guest, each its
# own label-less region, backed by host memory (memfd, share=on, prealloc:
# no host first touch, no host writeback write-protecting the mapping):
#   slot 0: devdax, align 2 MiB  -> $BENCH_DEVDAX (/dev/daxN.0): raw baseline
#   slot 1: fsdax                -> $FAMFS_DEV (/dev/pmemN): famfs
#   slot 2: fsdax                -> $BENCH_EXT4_DEV (/dev/pmemN): ext4 -o dax
#   slot 3: fsdax                -> $BENCH_FAMFS_MEMBER (/dev/pmemN): famfs's
#                                   member 1 in the multidev part (issue 16)
# Regions are matched to slots by NFIT handle (QEMU: handle = slot + 1), not by
# probe order.  Sizes: $FAMFS_BENCH_NVDIMM_MIB each (default 1280).
# bench-icount.sh adds -icount shift=0,sleep=off (guest time = instructions).
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/famfs-bench-unset
BENCH_NV_MIB=${FAMFS_BENCH_NVDIMM_MIB:-1280}
# Parameters for suites/bench.sh: the kernel passes unknown NAME=VALUE words
# of its command line to /init as environment.
KARGS=${FAMFS_BENCH_ARGS:-}
host_prepare() { :; }
host_args() {
	qarg -machine pc,nvdimm=on -m 2G,slots=4,maxmem=32G
	for _i in 0 1 2 3; do
		qarg -object "memory-backend-memfd,id=bmem$_i,size=${BENCH_NV_MIB}M,share=on,prealloc=on"
		qarg -device "nvdimm,id=bnv$_i,memdev=bmem$_i,slot=$_i"
	done
	[ -z "${BENCH_ICOUNT:-}" ] || qarg -icount shift=0,sleep=off
}
# bench_region SLOT: the nd region of the NVDIMM in SLOT (e.g. region1)
bench_region() {
	for _r in /sys/bus/nd/devices/region*; do
		_nmem=$(cut -d, -f1 "$_r/mapping0" 2>/dev/null)
		[ -n "$_nmem" ] || continue
		_h=$(cat "/sys/bus/nd/devices/$_nmem/nfit/handle" 2>/dev/null)
		[ -n "$_h" ] && [ $((_h)) -eq $(($1 + 1)) ] && { basename "$_r"; return 0; }
	done
	echo "bench: no region for NVDIMM slot $1" >&2
	return 1
}
# bench_ns SLOT MODE [ARGS]: make the region's namespace MODE, print its device
bench_ns() {
	_reg=$(bench_region "$1") || return 1
	_ns=namespace${_reg#region}.0
	wait_for "/sys/bus/nd/devices/$_ns" || return 1
	_j=$(ndctl create-namespace -f -e "$_ns" -m "$2" --map=mem $3) || return 1
	_d=$(echo "$_j" | sed -n 's/.*"\(chardev\|blockdev\)":"\([^"]*\)".*/\2/p' | head -n 1)
	[ -n "$_d" ] || { echo "bench: no device in: $_j" >&2; return 1; }
	wait_for "/dev/$_d" && echo "/dev/$_d"
}
guest_setup() {
	modprobe_all nfit nd_pmem dax_pmem device_dax || return 1
	_n=0
	while [ "$(ls -d /sys/bus/nd/devices/region* 2>/dev/null | wc -l)" -lt 4 ]; do
		[ $_n -ge 100 ] && { echo "bench: fewer than 4 nd regions" >&2; return 1; }
		sleep 0.1; _n=$((_n + 1))
	done
	BENCH_DEVDAX=$(bench_ns 0 devdax --align=2M) &&
		FAMFS_DEV=$(bench_ns 1 fsdax --align=2M) &&
		BENCH_EXT4_DEV=$(bench_ns 2 fsdax --align=2M) &&
		BENCH_FAMFS_MEMBER=$(bench_ns 3 fsdax --align=2M) || return 1
	export BENCH_DEVDAX BENCH_EXT4_DEV FAMFS_DEV BENCH_FAMFS_MEMBER
	for _r in /sys/bus/nd/devices/region*; do
		_nmem=$(cut -d, -f1 "$_r/mapping0")
		echo "bench: $(basename "$_r") $_nmem handle $(cat "/sys/bus/nd/devices/$_nmem/nfit/handle")"
	done
	echo "bench: devdax $BENCH_DEVDAX, famfs $FAMFS_DEV (member $BENCH_FAMFS_MEMBER), ext4-dax $BENCH_EXT4_DEV"
}
