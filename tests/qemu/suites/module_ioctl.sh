# profiles: pmem nvdimm
# timeout: 120
# famfs.ko, the map ioctls: every invalid map gets its own errno and leaves
# the file unmapped, maps round-trip through MAP_GET/GETEXT, overlapping maps
# are refused, only CAP_SYS_ADMIN creates maps (progs/module_ioctl.c); the
# same for v2, one check per row of the errno contract, interleaved maps,
# 256 extents, 16 x 16 strips (progs/module_ioctl_v2.c, on the same mount);
# MAP_CREATE_V3 on one device (progs/module_ioctl_v3.c): the order of its
# checks (every check of an extent or strip, its device fields first, before
# the next one's), and a refusal traces the extent it was given
# (famfs:famfs_map_create).  FAMFS_IOC_MAP_INVALIDATE (progs/module_ioctl_v3.c
# inval) on a coherent mount, then on a noncoherent one: there each create
# with it drops this host's cache lines of the map's memory (the extent's
# bytes, a page extent's 4 KiB) before it returns, traced before its
# famfs:famfs_map_create event.
. "$FAMFS_SRC/tests/qemu/lib.sh"

MPT=/tmp/famfs-ioctl
famfs_raw_mount $MPT || exit 0
run_prog module_ioctl $MPT "$FAMFS_DEV"
run_prog module_ioctl_v2 $MPT "$FAMFS_DEV"
run_prog module_ioctl_v3 $MPT "$FAMFS_DEV"
# A MAP_CREATE_V3 refused for its device (ENODEV) traces the first extent
# of the request, not what the freed conversion buffer holds by then.
if trace_have famfs/famfs_map_create; then
	trace_on famfs/famfs_map_create
	PFX=v3- run_prog module_ioctl_v3 $MPT "$FAMFS_DEV" trace
	trace_off famfs/famfs_map_create
	_ev=$(grep 'famfs_map_create:' $TRACE/trace)
	echo "$_ev"
	t_eq v3-trace-refused-first "first 0x6400000+0x200000 rc -19" \
		"$(echo "$_ev" | grep -o 'first .*')"
	: > $TRACE/trace
else
	trace_missing v3-trace-refused-first "the famfs/famfs_map_create tracepoint"
fi
t_ok umount umount $MPT

t_ok inval-mount mount -t famfs -o noncoherent "$FAMFS_DEV" $MPT
if trace_have famfs/famfs_cache famfs/famfs_map_create; then
	trace_on famfs/famfs_cache famfs/famfs_map_create
	PFX=nc- run_prog module_ioctl_v3 $MPT "$FAMFS_DEV" inval
	trace_off famfs/famfs_cache famfs/famfs_map_create
	t_eq inval-noncoherent-dropped "map/invalidate=$((2 * 1024 * 1024 + 4096))" \
		"$(cache_counts)"
	# The trace order shows that the lines were dropped before the
	# create returned (famfs_map_create's event comes at its end), not
	# that no reader could open the file in between: that the map is
	# published only after the drop is famfs.ko's code (ioctl.c), which
	# nothing here races against.
	t_eq inval-dropped-before-mapped "dropped-first dropped-first" \
		"$(awk '/famfs_cache:.* map invalidate/ { for (i = 1; i < NF; i++) if ($i == "ino") c = $(i + 1) }
			/famfs_map_create:.* rc 0$/ { for (i = 1; i < NF; i++) if ($i == "ino") m = $(i + 1)
				printf "%s ", c == m ? "dropped-first" : "not-dropped"; c = "" }' \
			$TRACE/trace | sed 's/ $//')"
	: > $TRACE/trace
else
	trace_missing inval-noncoherent-dropped "the famfs/famfs_cache and famfs/famfs_map_create tracepoints"
fi
t_ok inval-umount umount $MPT

# A refusal is logged with the inode, the extent and the strip (on a new
# mount: the message rate limit is per mount).
t_ok v2-mount-again mount -t famfs "$FAMFS_DEV" $MPT
klog_mark
run_prog module_ioctl_v2 $MPT "$FAMFS_DEV" logline
log=$(klog_since)
if echo "$log" | grep -q 'MAP_CREATE_V2: inode [0-9]*: extent 0 strip 2 has length 0'; then
	t_pass v2-log-names-strip
else
	t_fail v2-log-names-strip "not in the kernel log: $(echo "$log" | tail -n 2 | tr '\n' ' ')"
fi
t_ok v2-umount umount $MPT

# MAP_CREATE only on a file nobody else reaches: another open file (of any
# process) or another name gets EBUSY, and the refusal is one log line.
t_ok openers-mount mount -t famfs "$FAMFS_DEV" $MPT
echo "famfs-test: openers" > /dev/kmsg
run_prog module_ioctl $MPT "$FAMFS_DEV" openers
log=$(dmesg | sed -n '/famfs-test: openers$/,$p')
echo "$log" | grep famfs
t_eq openers-one-line-per-refusal 3 "$(echo "$log" | grep -c 'MAP_CREATE: inode [0-9]*: .*\(open\|name\)')"
t_ok openers-umount umount $MPT
