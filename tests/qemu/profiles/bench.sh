# Benchmarks (scripts/bench.sh): six QEMU NVDIMMs in one guest, each its
# own label-less region, backed by host memory (slots 0-3: memfd, share=on,
# prealloc: no host first touch, no host writeback write-protecting the
# mapping; slots 4 and 5: see below):
#   slot 0: devdax, align 2 MiB  -> $BENCH_DEVDAX (/dev/daxN.0): raw baseline
#   slot 1: fsdax                -> $FAMFS_DEV (/dev/pmemN): famfs
#   slot 2: fsdax                -> $BENCH_EXT4_DEV (/dev/pmemN): ext4 -o dax
#   slot 3: fsdax                -> $BENCH_FAMFS_MEMBER (/dev/pmemN): famfs's
#                                   member 1 in the multidev part (issue 16)
#   slot 4: devdax, align 1 GiB  -> $BENCH_DEVDAX_1G (/dev/daxN.0): the pud
#                                   part's device-dax baseline (issue 31)
#   slot 5: fsdax, align 1 GiB   -> $BENCH_PUD_DEV (/dev/pmemN): famfs with
#                                   1 GiB mappings (the pud part)
# Regions are matched to slots by NFIT handle (QEMU: handle = slot + 1), not by
# probe order.  Sizes: $FAMFS_BENCH_NVDIMM_MIB each (default 1280) for slots
# 0-3.  Slots 4 and 5 are 1 GiB-aligned in guest physical memory (backend
# align=1G) and sized from the pud part's parameters in $FAMFS_BENCH_ARGS
# (BENCH_PUD_SIZE, default 1G, BENCH_PUD_BIG, default 16G): slot 4
# BENCH_PUD_SIZE + 1 GiB, slot 5 2 x BENCH_PUD_SIZE + BENCH_PUD_BIG + 2 GiB (a
# namespace with --align=1G gives its first GiB to its info block and the
# alignment).  They are sparse files on tmpfs (mem-path a directory: QEMU
# makes an unlinked file there), not preallocated: the host gives memory
# only to what the guest touches (the share test of BENCH_PUD_BIG reads one
# byte per 2 MiB), so 20 GiB of emulated memory costs the host about 3 GiB.
# bench-icount.sh adds -icount shift=0,sleep=off (guest time = instructions).
FAMFS_DEV_MODE=fsdax
FAMFS_DEV=/dev/famfs-bench-unset
BENCH_NV_MIB=${FAMFS_BENCH_NVDIMM_MIB:-1280}
# Parameters for suites/bench.sh: the kernel passes unknown NAME=VALUE words
# of its command line to /init as environment.
KARGS=${FAMFS_BENCH_ARGS:-}
host_prepare() { :; }
# bench_gib NAME DEFAULT: the GiB of NAME=<N>G in $KARGS (else DEFAULT)
bench_gib() {
	_v=$(echo " $KARGS " | sed -n "s/.* $1=\([0-9]*\)[Gg] .*/\1/p")
	echo "${_v:-$2}"
}
host_args() {
	_pg=$(bench_gib BENCH_PUD_SIZE 1) _big=$(bench_gib BENCH_PUD_BIG 16)
	_s4=$((_pg + 1)) _s5=$((2 * _pg + _big + 2))
	qarg -machine pc,nvdimm=on -m "2G,slots=6,maxmem=$((2 + 5 + _s4 + _s5 + 8))G"
	for _i in 0 1 2 3; do
		qarg -object "memory-backend-memfd,id=bmem$_i,size=${BENCH_NV_MIB}M,share=on,prealloc=on"
		qarg -device "nvdimm,id=bnv$_i,memdev=bmem$_i,slot=$_i"
	done
	qarg -object "memory-backend-file,id=bmem4,mem-path=/dev/shm,size=${_s4}G,share=on,align=1G"
	qarg -device "nvdimm,id=bnv4,memdev=bmem4,slot=4"
	qarg -object "memory-backend-file,id=bmem5,mem-path=/dev/shm,size=${_s5}G,share=on,align=1G"
	qarg -device "nvdimm,id=bnv5,memdev=bmem5,slot=5"
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
	while [ "$(ls -d /sys/bus/nd/devices/region* 2>/dev/null | wc -l)" -lt 6 ]; do
		[ $_n -ge 100 ] && { echo "bench: fewer than 6 nd regions" >&2; return 1; }
		sleep 0.1; _n=$((_n + 1))
	done
	BENCH_DEVDAX=$(bench_ns 0 devdax --align=2M) &&
		FAMFS_DEV=$(bench_ns 1 fsdax --align=2M) &&
		BENCH_EXT4_DEV=$(bench_ns 2 fsdax --align=2M) &&
		BENCH_FAMFS_MEMBER=$(bench_ns 3 fsdax --align=2M) &&
		BENCH_DEVDAX_1G=$(bench_ns 4 devdax --align=1G) &&
		BENCH_PUD_DEV=$(bench_ns 5 fsdax --align=1G) || return 1
	export BENCH_DEVDAX BENCH_EXT4_DEV FAMFS_DEV BENCH_FAMFS_MEMBER BENCH_DEVDAX_1G BENCH_PUD_DEV
	for _r in /sys/bus/nd/devices/region*; do
		_nmem=$(cut -d, -f1 "$_r/mapping0")
		echo "bench: $(basename "$_r") $_nmem handle $(cat "/sys/bus/nd/devices/$_nmem/nfit/handle")"
	done
	echo "bench: devdax $BENCH_DEVDAX, famfs $FAMFS_DEV (member $BENCH_FAMFS_MEMBER), ext4-dax $BENCH_EXT4_DEV," \
		"devdax align 1G $BENCH_DEVDAX_1G, famfs with 1 GiB mappings $BENCH_PUD_DEV"
}
