# Helpers for guest suites (busybox sh).  Source it:  . "$FAMFS_SRC/tests/qemu/lib.sh"
# Every helper prints one PROTOCOL line (tests/PROTOCOL.md) to stdout and
# appends it to $FAMFS_OUT/results.txt.  Ids are prefixed with
# <profile>/<suite>/ (plus <host>/ on two-hosts and four-hosts profiles).
FAMFS_SUITE=${FAMFS_SUITE:-$(basename "$0" .sh)}

t_id() {
	case $FAMFS_PROFILE in
	two-hosts*|four-hosts*) echo "$FAMFS_PROFILE/$FAMFS_SUITE/$FAMFS_HOST/$1" ;;
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
# t_signal RC: 0 iff exit status RC is a death by a signal (128 + 1..64;
# not 255, busybox mount's plain failure).
t_signal() { [ "$1" -gt 128 ] && [ "$1" -le 192 ]; }
# t_not ID CMD...: PASS iff CMD fails; killed by a signal (a crash) is a
# FAIL.  Where a tool refuses with a documented code and message, use t_err.
t_not() {
	_id=$1; shift
	if _o=$("$@" 2>&1); then t_fail "$_id" "'$*' succeeded but should fail"
	else
		_rc=$?
		if t_signal $_rc; then t_fail "$_id" "'$*' killed by signal $((_rc - 128))"
		else t_pass "$_id"; fi
	fi
}
# t_err ID RC PATTERN CMD...: PASS iff CMD exits RC and its output matches
# PATTERN (grep basic regex): a refusal with its documented exit code and
# message (e.g. 'Input/output error' for EIO).  Output in $OUT.
t_err() {
	_id=$1 _want=$2 _pat=$3; shift 3
	OUT=$("$@" 2>&1); _rc=$?
	if [ "$_rc" != "$_want" ]; then
		if t_signal "$_rc"; then t_fail "$_id" "'$*' killed by signal $((_rc - 128))"
		else t_fail "$_id" "'$*' exited $_rc, expected $_want: $(echo "$OUT" | tail -n 3 | tr '\n' ' ')"; fi
	elif echo "$OUT" | grep -q -- "$_pat"; then t_pass "$_id"
	else t_fail "$_id" "'$*' exited $_rc but its output lacks '$_pat': $(echo "$OUT" | tail -n 3 | tr '\n' ' ')"; fi
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
# t_prog PROG FILE RC: the verdict of a test program that wrote FILE and
# exited RC: its lines as t_lines says; then a FAIL PROG-exit if RC is above 1
# (a crash, a signal, a usage error), else a FAIL PROG-done if FILE lacks the
# line "DONE PROG" every program prints last (module_test.h's t_done()): it
# stopped before its end, and its later checks never ran.
t_prog() {
	t_lines "$1" "$2"
	if t_signal "$3"; then t_fail "${PFX:-}$1-exit" "$1 killed by signal $(($3 - 128))"
	elif [ "$3" -gt 1 ]; then t_fail "${PFX:-}$1-exit" "$1 exited with status $3"
	elif ! grep -qx "DONE $1" "$2"; then t_fail "${PFX:-}$1-done" "$1 (status $3) stopped before its end: no 'DONE $1' line"
	fi
}
# run_prog PROG ARGS...: run a test program (its output is kept in
# /tmp/PROG.out) and take its verdict (t_prog).
run_prog() {
	_p=$1
	"$@" > /tmp/$_p.out 2>&1
	t_prog $_p /tmp/$_p.out $?
}
# bg_prog PROG ARGS...: run a test program in the background (pid in
# $BG_PID, output in /tmp/PROG.bg.out); bg_verdict PROG (after making it
# end) waits for it and takes its verdict (t_prog).
bg_prog() { "$@" > /tmp/$1.bg.out 2>&1 & BG_PID=$!; }
bg_verdict() { wait $BG_PID; t_prog "$1" /tmp/$1.bg.out $?; }

# Signalling between the guests of a two-hosts or four-hosts profile,
# through the shared 9p folder $FAMFS_SYNC.
sync_post() { echo "${2:-$FAMFS_HOST}" > "$FAMFS_SYNC/$1.tmp" && mv "$FAMFS_SYNC/$1.tmp" "$FAMFS_SYNC/$1"; }
# sync_wait NAME [TIMEOUT_S] [HOST]: returns 1 (and prints a FAIL line) on
# timeout, or at once when a host that exited (run.sh's .exited-HOST) did
# not post NAME: any other host, or HOST alone when given (the one that
# posts NAME; four-hosts: the others may be done already).
sync_wait() {
	_n=0
	while [ ! -e "$FAMFS_SYNC/$1" ]; do
		if [ $_n -ge $((${2:-60} * 10)) ]; then
			t_fail "sync-$1" "timed out after ${2:-60}s waiting for '$1'"
			return 1
		fi
		for _f in "$FAMFS_SYNC"/.exited-${3:-*}; do	# posted by run.sh
			[ -e "$_f" ] && [ ! -e "$FAMFS_SYNC/$1" ] && [ "$_f" != "$FAMFS_SYNC/.exited-$FAMFS_HOST" ] &&
				{ t_fail "sync-$1" "host ${_f##*-} exited before posting '$1'"; return 1; }
		done
		sleep 0.1; _n=$((_n + 1))
	done
}

# sync_post_verdict NAME: post NAME with this host's verdict of this suite
# so far ("PASSED FAILED" counts), for the peer's t_peer.
sync_post_verdict() {
	sync_post "$1" "$(grep -c "^PASS $(t_id '')" "$FAMFS_OUT/results.txt") $(grep -c "^FAIL $(t_id '')" "$FAMFS_OUT/results.txt")"
}
# t_peer ID NAME [TIMEOUT_S] [HOST]: wait for the peer's sync_post_verdict
# NAME (posted by HOST, as sync_wait); PASS iff the peer's checks passed
# (some PASS, no FAIL), else FAIL (also on timeout, as sync_wait).  The
# peer's own lines say which check failed.
t_peer() {
	sync_wait "$2" "${3:-60}" ${4:-} || return 1
	read -r _np _nf < "$FAMFS_SYNC/$2"
	if [ "${_nf:-x}" = 0 ] && [ "${_np:-0}" -gt 0 ] 2>/dev/null; then t_pass "$1"
	else t_fail "$1" "the peer's checks: '${_np:-?}' passed, '${_nf:-?}' failed (posted '$(cat "$FAMFS_SYNC/$2")')"; fi
}
# Several peers (four-hosts: a b c d).  sync_peers: the other hosts of
# this boot (FAMFS_GUESTS, from the profile), one a line.
sync_peers() { for _h in $FAMFS_GUESTS; do [ "$_h" = "$FAMFS_HOST" ] || echo "$_h"; done; }
# sync_wait_all NAME [TIMEOUT_S]: wait for NAME-<host> from every peer;
# returns 1 if any timed out (each a FAIL line, as sync_wait).
sync_wait_all() {
	_r=0
	for _h in $(sync_peers); do sync_wait "$1-$_h" "${2:-60}" "$_h" || _r=1; done
	return $_r
}
# t_peers ID NAME [TIMEOUT_S]: t_peer ID-<host> NAME-<host> for every peer
# (each posted sync_post_verdict NAME-<its host>).
t_peers() {
	for _h in $(sync_peers); do t_peer "$1-$_h" "$2-$_h" "${3:-60}" "$_h"; done
}

# famfs_tree MPT [NOSUM]: one line per path under the famfs mount MPT (not
# .meta), sorted, the same on every host that has the same tree: "d PATH
# MODE UID:GID" and "f PATH MODE UID:GID SIZE MD5 MAP" (MODE octal, a
# file's without write bits: a client's files have none; MAP getmap's
# extents).  Files whose path matches the grep regex NOSUM get "-" for
# MD5 (a large file that would take long to read under TCG).
famfs_tree() {
	( cd "$1" && find . -path ./.meta -prune -o -print | sort | while IFS= read -r _p; do
		[ "$_p" = . ] && continue
		_st=$(stat -c '%f %u:%g %s' "$_p")
		_raw=${_st%% *} _st=${_st#* }
		if [ -d "$_p" ]; then
			echo "d $_p $(printf %o $((0x$_raw & 0xfff))) ${_st% *}"
			continue
		fi
		_sum=-
		if [ -z "${2:-}" ] || ! echo "$_p" | grep -q -- "$2"; then
			_sum=$(md5sum < "$_p" | cut -d' ' -f1)
		fi
		echo "f $_p $(printf %o $((0x$_raw & 0xf6d))) $_st $_sum" \
		     "$(famfs getmap "$_p" 2>&1 | tail -n +2 | tr -s ' \n' ' ')"
	done )
}
# t_tree ID MPT FILE [TIMEOUT_S] [NOSUM]: PASS once famfs_tree MPT equals
# FILE (another host's famfs_tree, e.g. in $FAMFS_SYNC), polled for up to
# TIMEOUT_S (default 60: a follower may still be replaying); else FAIL with
# the first differences.  The last tree is kept in /tmp/tree.ID.
t_tree() {
	_n=0
	until famfs_tree "$2" "${5:-}" > "/tmp/tree.$1" && cmp -s "/tmp/tree.$1" "$3"; do
		if [ $_n -ge $((${4:-60} * 2)) ]; then
			t_fail "$1" "$(diff "$3" "/tmp/tree.$1" | grep '^[-+][^-+]' | head -n 6 | tr '\n' '|')"
			return 1
		fi
		sleep 0.5; _n=$((_n + 1))
	done
	t_pass "$1"
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
# klog_mark, then klog_since: the kernel log lines since the mark (a unique
# line written to /dev/kmsg: robust to dmesg -c and a wrapped ring buffer;
# klog_since prints nothing if the mark is gone).  t_klog ID PATTERN: PASS
# iff a line since the mark matches PATTERN (grep basic regex).  Never grep
# all of dmesg for a message: an earlier suite of the boot may have logged it.
klog_mark() {
	KLOG_MARK="famfs-test: mark $FAMFS_SUITE $$ $(cat /proc/sys/kernel/random/uuid)"
	echo "$KLOG_MARK" > /dev/kmsg
}
klog_since() {
	dmesg | awk -v m="$KLOG_MARK" 'p { print } index($0, m) { p = 1 }'
}
t_klog() {
	if klog_since | grep -q -- "$2"; then t_pass "$1"
	else t_fail "$1" "no kernel log line since the mark matches '$2': $(klog_since | tail -n 3 | tr '\n' '|')"; fi
}
# wait_holds PID PATH [TIMEOUT_S]: wait until process PID holds PATH open
# (one of /proc/PID/fd/*) or as its cwd: a background holder started with
# '&' may not have opened it yet.  0 when it does; else a message and 1.
wait_holds() {
	_n=0 _want=$(readlink -f "$2")
	while :; do
		for _f in /proc/$1/fd/* /proc/$1/cwd; do
			[ "$(readlink "$_f" 2>/dev/null)" = "$_want" ] && return 0
		done
		[ $_n -ge $((${3:-10} * 10)) ] && { echo "wait_holds: process $1 does not hold $2" >&2; return 1; }
		sleep 0.1; _n=$((_n + 1))
	done
}

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

# Two devices (FAMFS_DEVS: nvdimm2, mixed, cxl2, two-hosts-rev): P the
# primary, MEM the member, DAX its name when it is a /dev/daxX.Y.  Returns
# 1 after a FAIL when the profile lists fewer than two.
two_devs() {
	# shellcheck disable=SC2086
	set -- $FAMFS_DEVS
	P=${1:-} MEM=${2:-} DAX=
	if [ -z "$MEM" ]; then
		t_fail devs "profile $FAMFS_PROFILE lists fewer than two devices in FAMFS_DEVS ('$FAMFS_DEVS')"
		return 1
	fi
	[ -c "$MEM" ] && DAX=${MEM#/dev/}
	return 0
}
# the member as a mount wants it (famfs's dax driver) or raw (device_dax)
member_famfs() { [ -z "$DAX" ] || dax_bind_famfs "$DAX"; }
member_raw() { [ -z "$DAX" ] || famfs bind -u "$MEM" >/dev/null 2>&1 || true; }
# dev_bytes DEV OFF LEN [-m]: LEN bytes at OFF of DEV, hex without offsets
dev_bytes() { devpat $4 dump "$1" "$2" "$3" | cut -d' ' -f2-; }

# Kernel tracing.  trace_have EVENT...: every event (e.g.
# fs_dax/dax_pmd_fault_done) exists; trace_on EVENT...: an empty trace, the
# events enabled, tracing on; trace_off EVENT...: tracing off, events
# disabled (the trace is kept for grep in $TRACE/trace).
TRACE=/sys/kernel/tracing
trace_have() { for _e; do [ -d $TRACE/events/$_e ] || return 1; done; }
# trace_missing ID WHAT: kernel tracing (WHAT: events, kprobes) is not there.
# A SKIP only on a kernel without tracing; on the Debian kernel (built with
# CONFIG_FTRACE, CONFIG_KPROBE_EVENTS, CONFIG_FS_DAX) or with tracefs
# mounted, the checks it would carry are missing: a FAIL.
trace_missing() {
	if grep -q Debian /proc/version || [ -d $TRACE/events ]; then
		t_fail "$1" "$2 missing on a kernel that has tracing: $(uname -r)"
	else
		t_skip "$1" "$2 missing: no kernel tracing in $(uname -r)"
	fi
}
# wb_probe_add NAME: a kprobe NAME on arch_wb_cache_pmem() recording the
# bytes it writes back (x86-64: size is its second argument), 1 if kprobe
# events cannot be added; wb_probe_bytes NAME: the bytes it saw in
# $TRACE/trace; wb_probe_del NAME.
wb_probe_add() { echo "p:$1 arch_wb_cache_pmem size=%si:u64" >> $TRACE/kprobe_events 2>/dev/null; }
wb_probe_bytes() {
	awk -v e="$1:" 'index($0, e) { for (i = 1; i <= NF; i++) if ($i ~ /^size=/) n += substr($i, 6) }
		END { print n + 0 }' $TRACE/trace
}
wb_probe_del() { echo "-:$1" >> $TRACE/kprobe_events; }
# inv_probe_add NAME: the same on arch_invalidate_pmem() (x86-64: clflushopt
# of size bytes, its second argument): the bytes the CPU was told to write
# back and drop, whatever a tracepoint says was asked.  wb_probe_bytes and
# wb_probe_del work on it.  inv_sum COUNTS: the invalidate bytes of a
# cache_counts string ("read/invalidate=4096 ioctl/writeback=8192": 4096).
inv_probe_add() {
	echo "-:$1" >> $TRACE/kprobe_events 2>/dev/null	# left by an earlier suite
	echo "p:$1 arch_invalidate_pmem size=%si:u64" >> $TRACE/kprobe_events 2>/dev/null
}
inv_sum() {
	echo "$1" | tr ' ' '\n' | sed -n 's|^[a-z]*/invalidate=||p' | awk '{ n += $1 } END { print n + 0 }'
}
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
		END { for (k in n) printf "%s=%.0f\n", k, n[k] }' $TRACE/trace | sort | tr '\n' ' ' | sed 's/ $//'
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
# runs and ID is a trace_missing SKIP (FAIL on a kernel with tracing).
pmd_faults() {
	_id=$1 _want=$2; shift 2
	if ! trace_have fs_dax/dax_pmd_fault_done; then
		"$@"
		trace_missing "$_id" "the fs_dax tracepoints in $TRACE"
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
