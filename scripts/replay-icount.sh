#!/usr/bin/env bash
# User-space instructions of a famfs logplay (cmd_logplay's three steps:
# check in, replay, check in with this host's holds) and of famfs rm
# against a create, counted on the host with callgrind on the unit tests'
# mock (tests/unit/replay_icount.c says what each kind is); the kernel's
# part (the syscalls) is not in them: the guest figures are make bench's
# lifecycle part.  Finds where a DELETE's replay spends its instructions:
#   scripts/replay-icount.sh [N]        per entry: create, DELETE; rm, create
#   KEEP=DIR scripts/replay-icount.sh   keeps the callgrind files in DIR
#                                       (callgrind_annotate --inclusive=yes)
# Needs valgrind; builds libfamfs.a with -O2 as famfs-cli is built.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-100}
command -v valgrind >/dev/null || { echo "replay-icount: valgrind is not installed" >&2; exit 2; }
make -s -C "$top/tools/famfs-cli" build/libfamfs.a
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
keep=${KEEP:-$tmp}
mkdir -p "$keep"
cc -std=c11 -O2 -g -I"$top/include/uapi" -I"$top/tools/famfs-cli/lib" -I"$top/tests/unit/helpers" \
	-o "$tmp/ri" "$top/tests/unit/replay_icount.c" "$top"/tests/unit/helpers/*.c \
	"$top/tools/famfs-cli/build/libfamfs.a" -Wl,--wrap=mmap,--wrap=munmap \
	-lcmocka -luuid -lz -ljson-c
ir() {	# KIND FUNCTION
	valgrind --tool=callgrind --callgrind-out-file="$keep/cg.$1.$2" --toggle-collect="$2" \
		"$tmp/ri" "$1" "$n" 2>&1 | sed -n 's/.*Collected : //p'
}
empty=$(ir empty measured) create=$(ir create measured) base=$(ir base measured) del=$(ir delete measured)
rm=$(ir rm measured_rm) mk=$(ir rm measured_create)
echo "logplay, N=$n: empty $empty, create $create, base $base, delete $del"
echo "per entry: create $(( (create - empty) / n )), DELETE $(( (del - base) / n ))"
echo "famfs rm of one file $rm, a create of one $mk (the host table armed, $n files)"
