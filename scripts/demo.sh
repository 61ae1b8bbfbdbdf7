#!/usr/bin/env bash
# make demo [DEMO=cxl|nvdimm]: build, install into a staging tree, boot two
# emulated hosts on one shared memory device (QEMU, TCG) and show famfs at
# work: both hosts install famfs and mount it with "mount -t famfs"; host a
# makes the file system, copies a file in and fills a file through a mapping;
# on host b an application maps that file and checks every byte.
#   scripts/demo.sh [cxl|nvdimm]   cxl (default): a CXL type-3 memory device
#                                  (profile two-hosts-cxl); nvdimm: an NVDIMM
#                                  (profile two-hosts)
# The story is tests/qemu/suites/demo.sh.  Exit 0 iff every check of both
# hosts passed and each host ran its own key checks (mount -t famfs on both,
# the mapped write on a, the mapped check on b).
# FAMFS_BUILD_ONLY=1: build what the demo needs, boot nothing (tests/fresh).
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo" || exit 1
case ${1:-${DEMO:-cxl}} in
cxl) profile=two-hosts-cxl what="one emulated CXL memory device (cxl-type3)" ;;
nvdimm) profile=two-hosts what="one emulated NVDIMM" ;;
*) echo "usage: scripts/demo.sh [cxl|nvdimm]   (make demo [DEMO=cxl|nvdimm])" >&2; exit 2 ;;
esac
out=${FAMFS_RESULTS:-$repo/results/demo}
stage=build/demo-stage
mkdir -p "$out"

echo "demo: building famfs.ko, famfs-cli and the guest test programs; make install DESTDIR=$stage"
rm -rf "$stage"
make -s all >/dev/null && make -s -C tests/qemu >/dev/null &&
	make -s install DESTDIR="$repo/$stage" DKMS=no >/dev/null || {
	echo "demo: build failed; run 'make' to see why" >&2
	exit 1
}
if [ "${FAMFS_BUILD_ONLY:-0}" != 0 ]; then
	echo "demo: FAMFS_BUILD_ONLY: preparing the guests' build, booting nothing"
	FAMFS_STAGE=$stage FAMFS_RESULTS=$out exec tests/qemu/run.sh -b -p "$profile" demo
fi
echo "demo: booting hosts a and b (QEMU, two guests sharing $what)..."
FAMFS_STAGE=$stage FAMFS_RESULTS=$out tests/qemu/run.sh -p "$profile" demo > "$out.protocol" 2>&1
rc=$?

for h in a b; do
	echo
	tr -d '\r' < "$out/$profile/$h/console.log" 2>/dev/null | grep "^demo\[$h\]"
done
echo
# Each host's own key checks must have run and passed, not just "no FAIL".
for id in a/mount-t-famfs a/mmap-write b/mount-t-famfs b/mmap-check; do
	grep -qx "PASS $profile/demo/$id" "$out.protocol" ||
		{ echo "FAIL $profile/demo/$id: did not pass (not run?)" >> "$out.protocol"; rc=1; }
done
failed=$(grep -c '^FAIL ' "$out.protocol")
passed=$(grep -c '^PASS ' "$out.protocol")
grep '^FAIL ' "$out.protocol"
echo "demo: $passed checks passed, $failed failed (logs: $out/$profile/)"
[ "$failed" = 0 ] || rc=1
exit $rc
