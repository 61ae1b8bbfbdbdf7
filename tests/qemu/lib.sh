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

# run_prog PROG ARGS...: run a test program that prints PROTOCOL lines with
# bare test names; they become this suite's lines (prefixed with $PFX if the
# suite sets it).  Other output is echoed; an exit status above 1 is a FAIL.
run_prog() {
	_p=$1
	"$@" > /tmp/$_p.out 2>&1
	_rc=$?
	while IFS= read -r _l; do
		case $_l in
		"PASS "*) t_pass "${PFX:-}${_l#PASS }" ;;
		"FAIL "*) _l=${_l#FAIL }; t_fail "${PFX:-}${_l%%: *}" "${_l#*: }" ;;
		"SKIP "*) _l=${_l#SKIP }; t_skip "${PFX:-}${_l%%: *}" "${_l#*: }" ;;
		*) echo "$_p: $_l" ;;
		esac
	done < /tmp/$_p.out
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
