#!/usr/bin/env bash
# Run cmocka unit-test binaries and print one protocol line per test
# (tests/PROTOCOL.md): "PASS unit/<file>/<test>" or "FAIL unit/<file>/<test>:
# reason".  A binary that crashes, or reports fewer results than its plan,
# adds a FAIL line of its own: silence is never a pass.
# Ends with "N passed, N failed"; exits non-zero if anything failed.
set -u
pass=0 fail=0 skipped=0 pending="" reason="" file=""

# The tests' files (mock devices, mount trees) on a tmpfs, /dev/shm, unless
# TMPDIR is set: on a disk file system, inode and block work made them five
# times slower (helpers/th.h th_tmpl).  Only with 2 GiB free there (a
# container's 64 MiB /dev/shm would fail tests for want of room: review
# rev7 6); else where TMPDIR says (/tmp).
shm_free_kb() { df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }'; }
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ] &&
	[ "$(shm_free_kb)" -ge 2097152 ] 2>/dev/null &&
	TMPDIR=$(mktemp -d /dev/shm/famfs-unit.XXXXXX); then
	export TMPDIR
	trap 'rm -rf "$TMPDIR"' EXIT
fi

flush() {
	if [ -n "$pending" ]; then
		echo "FAIL unit/$file/$pending: ${reason:-failed}"
		fail=$((fail + 1)) seen=$((seen + 1))
	fi
	pending="" reason=""
}

for bin in "$@"; do
	file=$(basename "$bin"); file=${file#test_}
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>"$bin.stderr")
	rc=$?
	plan=0 seen=0 fail0=$fail	# this binary's FAILs: fail - fail0
	while IFS= read -r line; do
		case "$line" in
		"#"*)
			[ -n "$pending" ] && reason="$reason${reason:+; }${line#\#}"
			continue ;;
		esac
		flush
		case "$line" in
		1..*) plan=${line#1..} ;;
		"ok "*)
			name=${line#ok * - }; echo "PASS unit/$file/${name#test_}"
			pass=$((pass + 1)) seen=$((seen + 1)) ;;
		"not ok "*"# SKIP "*)	# cmocka's skip(): said, never a pass
			name=${line##*# SKIP }
			echo "SKIP unit/$file/${name#test_}: skipped by the test (its comment says why)"
			skipped=$((skipped + 1)) seen=$((seen + 1)) ;;
		"not ok "*) pending=${line#not ok * - }; pending=${pending#test_} ;;
		esac
	done <<< "$out"
	flush
	if [ "$plan" = 0 ] || [ "$seen" -lt "$plan" ] || [ "$rc" -gt 127 ] ||
	   { [ "$rc" -ne 0 ] && [ "$fail" -eq "$fail0" ]; }; then
		msg=$(grep -m1 -E "ERROR|runtime error|Sanitizer" "$bin.stderr" | head -c 300)
		echo "FAIL unit/$file/run: exited $rc after $seen of $plan tests${msg:+: $msg}"
		fail=$((fail + 1))
	fi
done
line="$pass passed, $fail failed"
[ "$skipped" -eq 0 ] || line="$line, $skipped skipped"
echo "$line"
[ "$fail" -eq 0 ]
