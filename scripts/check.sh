#!/usr/bin/env bash
# make check: build everything, run host unit tests and every guest suite,
# and summarize the PROTOCOL lines (tests/PROTOCOL.md).  Output is kept in
# results/ (summary.txt, check-*.log); the last line is
#   N passed, N failed[, N skipped]
# Exit status is non-zero iff something failed or nothing ran.
# FAMFS_BUILD_ONLY=1: stop after the build (module, tools, test programs and
# what tests/qemu/run.sh -b prepares); tests/fresh/run.sh uses it.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
results=${FAMFS_RESULTS:-$repo/results}
export FAMFS_RESULTS=$results
# The module is part of every guest run now: a missing famfs.ko is a FAIL.
export FAMFS_REQUIRE_KO=${FAMFS_REQUIRE_KO:-1}
mkdir -p "$results"
summary=$results/summary.txt
: > "$summary"
t0=$SECONDS

info() { echo "check: $*" >&2; }
# record LINE...: a PROTOCOL line of check.sh itself.
record() { echo "$*" | tee -a "$summary"; }
# step NAME CMD...: run a build step; a failure is a FAIL build/NAME line.
step() {
	local name=$1 log=$results/check-build-$1.log; shift
	if "$@" > "$log" 2>&1; then
		record "PASS build/$name"
	else
		record "FAIL build/$name: '$*' failed: $(grep -m1 -E 'error:|Error [0-9]|No rule' "$log" ||
			tail -n 1 "$log") (log: $log)"
	fi
}
# runner NAME CMD...: run a test runner, keep its PROTOCOL lines; a runner
# that fails without saying why adds a FAIL line of its own.
runner() {
	local name=$1 log=$results/check-$1.log rc; shift
	# PROTOCOL lines to stdout and the summary, progress lines to stderr.
	# Each summary line is flushed alone: the unit and fresh runners
	# append side by side, and mawk's buffered blocks cut lines in two
	# (a PASS, or a FAIL, lost from the count: seen in one run).
	"$@" 2>&1 | tee "$log" | awk -v sum="$summary" '
		/^(PASS|FAIL|SKIP) / { print; print >> sum; fflush(sum); fflush(); next }
		/^(run\.sh|mkinitramfs): / { print > "/dev/stderr"; fflush("/dev/stderr") }'
	rc=${PIPESTATUS[0]}
	if [ "$rc" -ne 0 ] && ! grep -qE '^FAIL ' "$log"; then
		record "FAIL $name/runner: '$*' exited $rc without a FAIL line (log: $log)"
	elif ! grep -qE '^(PASS|FAIL|SKIP) ' "$log"; then
		record "FAIL $name/runner: '$*' reported nothing (log: $log)"
	fi
}

# Build.  The module and the tool are optional until their sources exist.
if ls fs/famfs/*.c >/dev/null 2>&1; then
	step module make module
else
	info "no fs/famfs/*.c yet: module not built"
fi
if [ -f tools/famfs-cli/Makefile ]; then
	step tools make tools
else
	info "no tools/famfs-cli/Makefile yet: tool not built"
fi
step tests-qemu make -C tests/qemu

# finish: repeat the FAIL and SKIP lines, print the last line, exit.
finish() {
	local fails passes skips line
	fails=$(grep -cE '^FAIL ' "$summary")
	passes=$(grep -cE '^PASS ' "$summary")
	skips=$(grep -cE '^SKIP ' "$summary")
	if [ $((fails + skips)) -gt 0 ]; then
		echo
		echo "check: FAIL and SKIP lines (all output in $results/):"
		grep -E '^(FAIL|SKIP) ' "$summary"
	fi
	info "took $((SECONDS - t0)) s"
	line="$passes passed, $fails failed"
	[ "$skips" -eq 0 ] || line="$line, $skips skipped"
	echo "$line"
	[ "$fails" -eq 0 ] && [ "$passes" -gt 0 ]
	exit
}
if [ "${FAMFS_BUILD_ONLY:-0}" != 0 ]; then
	step guest-build tests/qemu/run.sh -b
	info "FAMFS_BUILD_ONLY: built; no tests run"
	finish
fi

# run.sh's guest scheduler, with boots that only sleep (alone: its order
# depends on sleeps of 0.2 and 0.6 s)
runner sched-selftest tests/qemu/sched-selftest.sh

# Host checks, in three streams side by side (each keeps about one core
# busy at times and leaves it idle at others; the guest suites after them
# keep both cores busy):
#  - the host unit tests (make -C tools/famfs-cli check prints PROTOCOL
#    lines);
#  - the layers (scripts/layers.conf: no circle, no upward call, in the
#    objects just built) and the script's own test that it sees both; then
#    make install into build/stage (and a DKMS build in a private tree):
#    host checks, and the stage the guest suite "install" uses;
#  - the README's commands on a fresh machine: /usr/src hidden until the
#    set-up step has run (tests/fresh/run.sh), in a mount namespace of its
#    own (the other streams see the host's).
unit_pid=
if [ -f tools/famfs-cli/Makefile ] &&
	! make -n -C tools/famfs-cli check 2>&1 | grep -q "No rule to make target 'check'"; then
	runner unit make -s -j2 -C tools/famfs-cli check &
	unit_pid=$!
else
	info "no 'check' target in tools/famfs-cli yet: host unit tests skipped"
fi
(
	runner layers scripts/layers.sh
	runner layers-selftest scripts/layers-selftest.sh
	if [ -x tests/install/run.sh ]; then
		runner install tests/install/run.sh
	fi
) &
host_pid=$!
if [ -x tests/fresh/run.sh ]; then
	runner fresh tests/fresh/run.sh
fi
wait $host_pid
[ -z "$unit_pid" ] || wait "$unit_pid"

# Guest suites on every profile.  run.sh prints its progress on stderr.
runner qemu tests/qemu/run.sh

finish
