#!/usr/bin/env bash
# layers-selftest.sh: scripts/layers.sh finds what it is there to find.
# Three tiny programs are compiled in a temporary folder and checked with a
# layers.conf of their own (FAMFS_LAYERS_CONF):
#   circle   b.c and c.c call each other          -> FAIL .../circles
#   upward   a.c (lowest layer) calls b.c         -> FAIL .../upward
#   clean    b.c calls a.c, c.c calls b.c         -> PASS both
#   unplaced a .c file that no layer names        -> FAIL .../upward
# Output: PROTOCOL lines (tests/PROTOCOL.md), PASS layers-selftest/NAME or
# FAIL layers-selftest/NAME: what layers.sh said instead.
set -uo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
status=0

# fixture NAME 'A_BODY' 'B_BODY' 'C_BODY' [EXTRA_FILE]: sources and objects
fixture() {
	local d=$tmp/$1 f
	mkdir -p "$d/src" "$d/obj"
	printf 'void b(void); void c(void); void a(void) { %s }\n' "$2" > "$d/src/a.c"
	printf 'void a(void); void c(void); void b(void) { %s }\n' "$3" > "$d/src/b.c"
	printf 'void a(void); void b(void); void c(void) { %s }\n' "$4" > "$d/src/c.c"
	[ -z "${5:-}" ] || echo 'void d(void) { }' > "$d/src/$5"
	for f in "$d"/src/*.c; do
		cc -c -o "$d/obj/$(basename "${f%.c}").o" "$f" || return 1
	done
	cat > "$d/layers.conf" <<CONF
group $1 $d/src $d/obj
layer low  $d/src/a.c
layer high $d/src/b.c $d/src/c.c
CONF
}
# expect NAME FIXTURE 'RE'...: every RE is a line of layers.sh's output
expect() {
	local name=$1 fix=$2 out re; shift 2
	out=$(FAMFS_LAYERS_CONF=$tmp/$fix/layers.conf "$repo/scripts/layers.sh" 2>&1)
	for re in "$@"; do
		if ! grep -qE "$re" <<< "$out"; then
			echo "FAIL layers-selftest/$name: no line '$re' in: $(tr '\n' '|' <<< "$out")"
			status=1
			return
		fi
	done
	echo "PASS layers-selftest/$name"
}

fixture circle '' 'c();' 'b();' &&
fixture upward 'b();' '' '' &&
fixture clean '' 'a();' 'b();' &&
fixture unplaced '' 'a();' '' d.c || {
	echo "FAIL layers-selftest/build: cannot compile the fixtures"; exit 1; }
expect circle circle '^circle: circle of 2 files: .*/b\.c .*/c\.c$' \
	'^FAIL layers/circle/circles' '^PASS layers/circle/upward'
expect upward upward '^upward: upward: .*/a\.c \(low\) calls b in .*/b\.c \(high\)$' \
	'^PASS layers/upward/circles' '^FAIL layers/upward/upward'
expect clean clean '^PASS layers/clean/circles$' '^PASS layers/clean/upward$'
expect unplaced unplaced '^unplaced: no layer for .*/d\.c' '^FAIL layers/unplaced/upward'
exit $status
