#!/usr/bin/env bash
# Instructions per allocation (issue 17: "allocation cost independent of
# device size and fullness within 2x, 1 GiB vs 16 TiB, 95 % full,
# fragmented"), counted on the host with callgrind: famfs_alloc's
# inclusive instructions, the first allocation of a process (which builds
# the search index over the whole bitmap) apart from the next ones.
# Usage: scripts/alloc-icount.sh   (needs valgrind; builds the tool's
# library with -O2 as famfs-cli is built)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "alloc-icount: valgrind is not installed" >&2; exit 2; }
make -s -C "$top/tools/famfs-cli" build/libfamfs.a
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cc -std=c11 -O2 -I"$top/include/uapi" -I"$top/tools/famfs-cli/lib" \
	-o "$tmp/a" "$top/tests/unit/alloc_icount.c" \
	"$top/tools/famfs-cli/build/libfamfs.a" -luuid -lz -ljson-c
ir() {	# GIB FULL WANT N: famfs_alloc's instructions
	valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		--toggle-collect=famfs_alloc "$tmp/a" "$@" 2>&1 |
		sed -n 's/.*Collected : //p'
}
N=8
printf '%-6s %-5s %-5s %14s %14s %16s %16s %8s\n' state want "" "first 1 GiB" "first 16 TiB" "per-alloc 1 GiB" "per-alloc 16 TiB" ratio
for full in 1 0; do
	for want in 1 2 8; do
		s0=$(ir 1 $full $want 0) s1=$(ir 1 $full $want $N)
		b0=$(ir 16384 $full $want 0) b1=$(ir 16384 $full $want $N)
		ps=$(( (s1 - s0) / N )) pb=$(( (b1 - b0) / N ))
		printf '%-6s %-5s %-5s %14s %14s %16s %16s %8s\n' \
			"$([ $full = 1 ] && echo 95%frag || echo empty)" "$want" "" \
			"$s0" "$b0" "$ps" "$pb" \
			"$(awk -v a="$pb" -v b="$ps" 'BEGIN { printf "%.2fx", a / b }')"
	done
done
