#!/usr/bin/env bash
# make demo: build, boot two emulated hosts on one shared NVDIMM (QEMU, TCG)
# and show famfs at work: host a makes a famfs, copies files in and writes
# through a mapping; host b mounts the same memory and reads the same bytes.
# The story is tests/qemu/suites/demo.sh; its checks decide the exit status.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
out=${FAMFS_RESULTS:-$repo/results/demo}
mkdir -p "$out"

echo "demo: building famfs.ko, famfs-cli and the guest test programs"
make -s all >/dev/null && make -s -C tests/qemu >/dev/null || {
	echo "demo: build failed; run 'make' to see why" >&2
	exit 1
}
echo "demo: booting hosts a and b (QEMU, two guests sharing one NVDIMM file)..."
FAMFS_RESULTS=$out tests/qemu/run.sh -p two-hosts demo > "$out.protocol" 2>&1
rc=$?

for h in a b; do
	echo
	tr -d '\r' < "$out/two-hosts/$h/console.log" 2>/dev/null | grep "^demo\[$h\]"
done
echo
failed=$(grep -c '^FAIL ' "$out.protocol")
passed=$(grep -c '^PASS ' "$out.protocol")
grep '^FAIL ' "$out.protocol"
echo "demo: $passed checks passed, $failed failed (logs: $out/two-hosts/)"
exit $rc
