# Helpers for guest suites (busybox sh).  Source it:  . "$FAMFS_SRC/tests/qemu/lib.sh"
# Every helper prints one PROTOCOL line (tests/PROTOCOL.md) to stdout and
# appends it to $FAMFS_OUT/results.txt.  Ids are prefixed with
# <profile>/<suite>/ (plus <host>/ on two-hosts profiles).
FAMFS_SUITE=${FAMFS_SUITE:-$(basename "$0" .sh)}

t_id() {
	case $FAMFS_PROFILE in
	two-hosts*) echo "$FAMFS_PROFILE/$FAMFS_SUITE/$FAMFS_HOST/$1" ;;
	*) echo "$FAMFS_PROFILE/$FAMFS_SUITE/$1" ;;
	esac
}
t_line() { echo "$1" >> "$FAMFS_OUT/results.txt"; echo "$1"; }
t_pass() { t_line "PASS $(t_id "$1")"; }
t_fail() { t_line "FAIL $(t_id "$1"): $2"; }
t_skip() { t_line "SKIP $(t_id "$1"): $2"; }

# t_ok ID CMD...: PASS iff CMD exits 0; else FAIL with the command and the tail of its output.
t_ok() {
	_id=$1; shift
	if _o=$("$@" 2>&1); then t_pass "$_id"
	else _rc=$?; t_fail "$_id" "'$*' exited $_rc: $(echo "$_o" | tail -n 3 | tr '\n' ' ')"; fi
}
# t_not ID CMD...: PASS iff CMD fails.
t_not() {
	_id=$1; shift
	if _o=$("$@" 2>&1); then t_fail "$_id" "'$*' succeeded but should fail"
	else t_pass "$_id"; fi
}
# t_eq ID EXPECTED ACTUAL
t_eq() {
	if [ "$2" = "$3" ]; then t_pass "$1"; else t_fail "$1" "expected '$2', got '$3'"; fi
}

# t_lines PROG FILE: the lines "PASS name", "FAIL name: why" and "SKIP
# name: why" a test program PROG wrote to FILE become this suite's lines
# (prefixed with $PFX if the suite sets it); other lines are echoed.
t_lines() {
	while IFS= read -r _l; do
		case $_l in
		"PASS "*) t_pass "${PFX:-}${_l#PASS }" ;;
		"FAIL "*) _l=${_l#FAIL }; t_fail "${PFX:-}${_l%%: *}" "${_l#*: }" ;;
		"SKIP "*) _l=${_l#SKIP }; t_skip "${PFX:-}${_l%%: *}" "${_l#*: }" ;;
		*) echo "$1: $_l" ;;
		esac
	done < "$2"
}
# run_prog PROG ARGS...: run a test program, its lines as t_lines says (its
# output is kept in /tmp/PROG.out); an exit status above 1 is a FAIL.
run_prog() {
	_p=$1
	"$@" > /tmp/$_p.out 2>&1
	_rc=$?
	t_lines $_p /tmp/$_p.out
	[ $_rc -le 1 ] || t_fail "${PFX:-}$_p-exit" "$_p exited with status $_rc"
}

# Two-hosts signalling through the shared 9p folder $FAMFS_SYNC.
sync_post() { echo "$FAMFS_HOST" > "$FAMFS_SYNC/$1.tmp" && mv "$FAMFS_SYNC/$1.tmp" "$FAMFS_SYNC/$1"; }
# sync_wait NAME [TIMEOUT_S]: returns 1 (and prints a FAIL line) on timeout.
sync_wait() {
	_n=0
	while [ ! -e "$FAMFS_SYNC/$1" ]; do
		if [ $_n -ge $((${2:-60} * 10)) ]; then
			t_fail "sync-$1" "timed out after ${2:-60}s waiting for '$1'"
			return 1
		fi
		for _f in "$FAMFS_SYNC"/.exited-*; do	# posted by run.sh
			[ -e "$_f" ] && [ ! -e "$FAMFS_SYNC/$1" ] && [ "$_f" != "$FAMFS_SYNC/.exited-$FAMFS_HOST" ] &&
				{ t_fail "sync-$1" "host ${_f##*-} exited before posting '$1'"; return 1; }
		done
		sleep 0.1; _n=$((_n + 1))
	done
}

# Kernel traces that a test provokes on purpose: the host ignores WARNING/Call
# Trace lines between these markers.  Use: expect_trace_begin; ...; expect_trace_end
expect_trace_begin() { echo "famfs-test: expect-trace-begin" > /dev/kmsg; }
expect_trace_end() { echo "famfs-test: expect-trace-end" > /dev/kmsg; }

# Reload famfs.ko (e.g. between test groups).
famfs_reload() {
	rmmod famfs 2>/dev/null
	insmod "$FAMFS_KO"
}

modprobe_all() { for _m in "$@"; do modprobe "$_m" || return 1; done; }
# wait_for PATH [TIMEOUT_S]: device probing is asynchronous.
wait_for() {
	_n=0
	while [ ! -e "$1" ]; do
		[ $_n -ge $((${2:-10} * 10)) ] && { echo "wait_for: no $1" >&2; return 1; }
		sleep 0.1; _n=$((_n + 1))
	done
}

# famfs_loaded: 0 if famfs.ko is loaded, else SKIP 'loaded' and 1.
# Use: famfs_loaded || exit 0
famfs_loaded() {
	grep -q '^famfs ' /proc/modules && return 0
	t_skip loaded "famfs.ko is not loaded"
	return 1
}
# famfs_raw_mount MPT: mount -t famfs "$FAMFS_DEV" at MPT (created), not
# through the tool: PASS 'mount', or FAIL 'mount' (SKIP 'loaded' without
# famfs.ko) and return 1.  Use: famfs_raw_mount $MPT || exit 0
famfs_raw_mount() {
	famfs_loaded || return 1
	mkdir -p "$1"
	if ! _o=$(mount -t famfs "$FAMFS_DEV" "$1" 2>&1); then
		t_fail mount "$_o"
		return 1
	fi
	t_pass mount
}

# t_rc ID EXPECTED_RC CMD...: PASS iff CMD exits EXPECTED_RC; its output is in $OUT.
t_rc() {
	_id=$1 _want=$2; shift 2
	OUT=$("$@" 2>&1); _rc=$?
	if [ "$_rc" = "$_want" ]; then t_pass "$_id"
	elif [ "$_rc" -gt 128 ]; then t_fail "$_id" "'$*' killed by signal $((_rc - 128))"
	else t_fail "$_id" "'$*' exited $_rc, expected $_want: $(echo "$OUT" | tail -n 3 | tr '\n' ' ')"; fi
}
# t_has ID PATTERN: the output of the last t_rc matches PATTERN (grep).
t_has() {
	if echo "$OUT" | grep -q -- "$2"; then t_pass "$1"
	else t_fail "$1" "output lacks '$2': $(echo "$OUT" | tail -n 3 | tr '\n' ' ')"; fi
}

# poke OFFSET BYTE [DEV]: one byte on DEV (default $FAMFS_DEV), written through
poke() {
	printf "\\$(printf %03o "$2")" | dd of="${3:-$FAMFS_DEV}" bs=1 seek="$1" conv=notrunc,fsync 2>/dev/null
}

# no_warnings [PATTERN]: 0 iff the kernel log has no WARNING, BUG, Call
# Trace (nor PATTERN, a grep basic regex).
no_warnings() {
	_p='WARNING\|BUG\|Call Trace'
	[ -n "${1:-}" ] && _p="$_p\\|$1"
	! dmesg | grep -q "$_p"
}
# klog_mark, then klog_since: the kernel log lines since the mark.
klog_mark() { dmesg | wc -l > "/tmp/$FAMFS_SUITE.klog"; }
klog_since() { dmesg | tail -n +$(($(cat "/tmp/$FAMFS_SUITE.klog") + 1)); }

# dax_driver NAME: the driver /dev/NAME (daxX.Y) is bound to, or nothing.
dax_driver() { basename "$(readlink /sys/bus/dax/devices/$1/driver 2>/dev/null)" 2>/dev/null; }
# dax_bind_famfs NAME: from device_dax (or no driver) to famfs's dax-bus
# driver, the sysfs way (bind, else new_id); 0 iff bound.
dax_bind_famfs() {
	_d=/sys/bus/dax/drivers
	[ -e $_d/device_dax/$1 ] && echo $1 > $_d/device_dax/unbind
	[ -e $_d/famfs/$1 ] || echo $1 > $_d/famfs/bind 2>/dev/null || echo $1 > $_d/famfs/new_id
	[ -e $_d/famfs/$1 ]
}

# Kernel tracing.  trace_have EVENT...: every event (e.g.
# fs_dax/dax_pmd_fault_done) exists; trace_on EVENT...: an empty trace, the
# events enabled, tracing on; trace_off EVENT...: tracing off, events
# disabled (the trace is kept for grep in $TRACE/trace).
TRACE=/sys/kernel/tracing
trace_have() { for _e; do [ -d $TRACE/events/$_e ] || return 1; done; }
trace_on() {
	echo 0 > $TRACE/tracing_on
	: > $TRACE/trace
	for _e; do echo 1 > $TRACE/events/$_e/enable; done
	echo 1 > $TRACE/tracing_on
}
trace_off() {
	echo 0 > $TRACE/tracing_on
	for _e; do echo 0 > $TRACE/events/$_e/enable; done
}
# cache_counts: the bytes of the famfs:famfs_cache events in the trace, summed
# per why/op, as "why/op=N ..." sorted ("" for none), e.g.
# "ioctl/writeback=4096 read/invalidate=8192".
cache_counts() {
	awk '/famfs_cache:/ { for (i = 1; i < NF; i++) if ($i == "len") n[$(i - 4) "/" $(i - 3)] += $(i + 1) }
		END { for (k in n) printf "%s=%d\n", k, n[k] }' $TRACE/trace | sort | tr '\n' ' ' | sed 's/ $//'
}
# umount_retry [MPT]: umount MPT (default $M), retrying for 2 s while a
# follower's round holds it for a moment
umount_retry() {
	_n=0
	until umount "${1:-$M}" 2>/tmp/umount.err; do
		_n=$((_n + 1))
		[ $_n -ge 20 ] && { cat /tmp/umount.err; return 1; }
		sleep 0.1
	done
	[ $_n -gt 0 ] && echo "umount ${1:-$M}: busy $_n time(s)"
	return 0
}
# pmd_faults ID NOPAGE CMD...: run CMD with the PMD faults of fs_dax traced:
# ID-nopage is NOPAGE, ID-fallback 0.  Without the tracepoint CMD still
# runs and ID is a SKIP.
pmd_faults() {
	_id=$1 _want=$2; shift 2
	if ! trace_have fs_dax/dax_pmd_fault_done; then
		"$@"
		t_skip "$_id" "no fs_dax tracepoints in $TRACE"
		return
	fi
	trace_on fs_dax/dax_pmd_fault_done
	"$@"
	trace_off fs_dax/dax_pmd_fault_done
	_np=$(grep -c 'dax_pmd_fault_done:.*NOPAGE' $TRACE/trace)
	_fb=$(grep -c 'dax_pmd_fault_done:.*FALLBACK' $TRACE/trace)
	echo "$FAMFS_SUITE: tracepoint: $_np NOPAGE, $_fb FALLBACK"
	t_eq "$_id-nopage" "$_want" "$_np"
	t_eq "$_id-fallback" 0 "$_fb"
	: > $TRACE/trace
}
