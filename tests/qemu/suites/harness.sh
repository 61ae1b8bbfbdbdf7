# profiles: pmem nvdimm nvdimm-devdax cxl two-hosts two-hosts-devdax two-hosts-cxl two-hosts-cxl-devdax cxl2 two-hosts-rev mixed four-hosts
# timeout: 120
# Checks of the test harness itself: the profile's device is what the suites
# expect, data goes through it, and famfs.ko is loaded when it was built.
. "$FAMFS_SRC/tests/qemu/lib.sh"

t_ok dev-exists test -e "$FAMFS_DEV"
case $FAMFS_DEV_MODE in
fsdax)
	t_eq fsdax-dax-supported 1 "$(cat /sys/block/pmem0/queue/dax 2>&1)"
	;;
devdax)
	t_ok devdax-sysfs test -d /sys/bus/dax/devices/dax0.0
	t_eq devdax-align 2097152 "$(cat /sys/bus/dax/devices/dax0.0/align 2>&1)"
	;;
*)
	t_fail dev-mode "unknown FAMFS_DEV_MODE '$FAMFS_DEV_MODE'"
	;;
esac
t_ok out-writable touch "$FAMFS_OUT/.harness-$FAMFS_HOST"
t_ok devpat-built test -x "$FAMFS_SRC/tests/qemu/build/bin/devpat"

# Bytes written through the device read back (CXL: a dead window reads 0 and
# loses writes; check the start, the middle and near the end).
size=$(cat "/sys/block/pmem0/size" 2>/dev/null)	# 512-byte sectors
[ -n "$size" ] && size=$((size * 512)) || size=$(cat /sys/bus/dax/devices/dax0.0/size 2>/dev/null)
if [ -z "$size" ]; then
	t_fail readback "cannot find the size of $FAMFS_DEV"
else
	n=0
	for off in 0 $((size / 2 + 4096)) $((size - 2 * 1048576)); do
		n=$((n + 1))
		[ "$FAMFS_HOST" = a ] || continue	# b (c, d) checks what a wrote, below
		t_ok readback-$n sh -c "devpat write $FAMFS_DEV $off 64K h$off && devpat check $FAMFS_DEV $off 64K h$off"
	done
fi

# Two hosts: a writes through the device (O_DIRECT or devdax mmap), b checks.
# Four hosts: b, c and d check, and a takes each one's verdict.
case $FAMFS_PROFILE in two-hosts*|four-hosts*)
	v=harness-checked
	case $FAMFS_PROFILE in four-hosts*) v=harness-checked-$FAMFS_HOST ;; esac
	if [ "$FAMFS_HOST" = a ]; then
		t_ok shared-write devpat write "$FAMFS_DEV" 4M 1M shared-from-a
		sync_post harness-written
		case $FAMFS_PROFILE in
		four-hosts*)
			t_eq peers "b c d" "$(sync_peers | tr '\n' ' ' | sed 's/ $//')"
			t_peers shared-peer-checked harness-checked 120 ;;
		*) t_peer shared-peer-checked harness-checked 60 ;;
		esac
	else
		if sync_wait harness-written 120 a; then
			t_ok shared-readback devpat check "$FAMFS_DEV" 4M 1M shared-from-a
			t_not shared-other-seed devpat check "$FAMFS_DEV" 4M 4K not-written
		fi
		sync_post_verdict $v
	fi
	;;
esac

if [ -f "$FAMFS_KO" ]; then
	t_ok famfs-ko-loaded grep -q '^famfs ' /proc/modules
else
	t_skip famfs-ko-loaded "fs/famfs/famfs.ko is not built"
fi

# read() from a 9p file straight into a devdax mapping: 9p zero-copy pins the
# device pages (get_user_pages) and releases them.  On two hosts this breaks
# if the struct pages live on the shared device (ndctl --map=dev): each
# kernel overwrites the other's.  Both hosts do it after b has probed.
# Not on CXL: QEMU 7.2 emulates the CXL window as MMIO, and virtio-9p's DMA
# into it never completes (the guest's read hangs, unkillable).
if [ "$FAMFS_DEV_MODE" = devdax ] && [ -d /sys/bus/cxl/devices/region0 ]; then
	t_skip gup-copyin "QEMU 7.2 cannot DMA (virtio-9p) into the MMIO-emulated CXL window"
elif [ "$FAMFS_DEV_MODE" = devdax ]; then
	[ "$FAMFS_HOST" = b ] && off=66M || off=64M
	f=$FAMFS_OUT/pat.bin
	t_ok gup-copyin sh -c "truncate -s 68M $f && devpat -b write $f $off 1M gup$FAMFS_HOST &&
		devpat copyin $FAMFS_DEV $off 1M $f && devpat check $FAMFS_DEV $off 1M gup$FAMFS_HOST"
fi

# Struct pages must be in RAM (see profiles/nvdimm.sh); legacy pmem has none.
[ "$FAMFS_PROFILE" = pmem ] || t_ok map-mem sh -c "ndctl list -N | grep -q '\"map\":\"mem\"'"

# Several devices (FAMFS_DEVS: cxl2, two-hosts-rev, mixed): each is there, of
# its kind, and is its own memory: what is written on one is on no other.
# On two hosts, a writes and b checks that its i-th device (the same backing
# file) holds what a wrote on a's i-th, whatever its name.
if [ -n "${FAMFS_DEVS:-}" ]; then
	i=0
	for d in $FAMFS_DEVS; do
		i=$((i + 1)) n=${d#/dev/}
		t_ok devs-$i-exists test -e "$d"
		case $n in
		pmem*) t_eq devs-$i-fsdax-dax 1 "$(cat /sys/block/$n/queue/dax 2>&1)" ;;
		dax*) t_eq devs-$i-devdax-align 2097152 "$(cat /sys/bus/dax/devices/$n/align 2>&1)" ;;
		*) t_fail devs-$i-kind "$d: neither /dev/pmemN nor /dev/daxX.Y" ;;
		esac
	done
	t_eq devs-count 2 "$i"
	[ "$FAMFS_PROFILE" = cxl2 ] && t_eq cxl2-regions 2 \
		"$(ls /sys/bus/cxl/devices 2>/dev/null | grep -c '^region')"
	if [ "$FAMFS_HOST" = a ]; then
		i=0
		for d in $FAMFS_DEVS; do
			i=$((i + 1))
			t_ok devs-$i-write devpat write "$d" 8M 64K devs-$i
		done
		[ "$FAMFS_PROFILE" = two-hosts-rev ] && sync_post devs-written
	elif sync_wait devs-written 60; then
		# b's /dev/pmem0 is a's /dev/pmem1 and the other way round
		t_ok rev-pmem0-is-peer-pmem1 devpat check /dev/pmem0 8M 64K devs-2
		t_ok rev-pmem1-is-peer-pmem0 devpat check /dev/pmem1 8M 64K devs-1
	fi
	i=0
	for d in $FAMFS_DEVS; do
		i=$((i + 1)) j=0
		t_ok devs-$i-readback devpat check "$d" 8M 64K devs-$i
		for o in $FAMFS_DEVS; do
			j=$((j + 1))
			[ $j = $i ] || t_not devs-$i-not-on-$j devpat check "$o" 8M 64K devs-$i
		done
	done
	[ "$FAMFS_PROFILE" = two-hosts-rev ] && [ "$FAMFS_HOST" = b ] && sync_post_verdict devs-checked
	[ "$FAMFS_PROFILE" = two-hosts-rev ] && [ "$FAMFS_HOST" = a ] &&
		t_peer devs-peer-checked devs-checked 60
fi

# mixed: its devdax device binds to famfs's dax driver and stays readable.
if [ "$FAMFS_PROFILE" = mixed ] && grep -q '^famfs ' /proc/modules; then
	t_ok mixed-bind-famfs dax_bind_famfs dax1.0
	t_eq mixed-driver famfs "$(dax_driver dax1.0)"
	t_ok mixed-readback-bound devpat check /dev/dax1.0 8M 64K devs-2
	t_ok mixed-unbind famfs bind -u /dev/dax1.0
	t_eq mixed-driver-back device_dax "$(dax_driver dax1.0)"
fi
