#!/usr/bin/env bash
# The README's commands on a fresh machine (PROTOCOL lines, ids fresh/...).
# A fresh clone of this tree (git ls-files: committed and untracked files, no
# build output) under build/fresh.PID; then, for each of make demo, make
# check and make bench, a private mount namespace (unshare -m, private
# propagation) in which empty tmpfs mounts hide /usr/src (kernel headers, the
# unpacked linux-source), /boot and /lib/modules, as on a machine where
# nothing is installed yet.  The target runs as a new user would run it: a
# clean environment, no stdin, CI=true; its set-up step is
# FAMFS_SETUP_DEPS=tests/fresh/setup-stub.sh, which "installs" the packages by
# unmounting the tmpfs mounts and then runs the real scripts/setup-deps.sh;
# FAMFS_BUILD_ONLY=1 makes the target stop after its build (module, tools,
# guest programs, initramfs, kernel: tests/qemu/run.sh -b), booting nothing.
# Anything the Makefile or the scripts evaluate before the set-up step sees
# an empty /usr/src and breaks the build, as it did on the first make demo
# of a new machine (issue 14).  make demo runs first, on the fresh clone
# (a full build); check and bench follow on the same clone.  The host's
# /usr/src, /boot and /lib/modules are only hidden, never written.
# Needs root (mount namespaces); logs in $FAMFS_RESULTS/fresh/.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
HIDE="/usr/src /boot /lib/modules"
# What else scripts/setup-deps.sh installs and a build or a script could
# look for before the set-up step: programs (each covered by a bind mount of
# a script that says it is not installed, exit 127) and development headers
# (directories: empty tmpfs; files: an empty file).  Only those present on
# this host are covered (a missing one is missing in the namespace too).
HIDE_PROGS="/usr/bin/qemu-system-x86_64 /usr/bin/busybox /usr/bin/ndctl /usr/bin/daxctl
	/usr/bin/cxl /usr/bin/sparse /usr/sbin/dkms /usr/bin/pkg-config /usr/bin/gnuplot /usr/bin/cpio"
HIDE_DIRS="/usr/include/ndctl /usr/include/daxctl /usr/include/json-c /usr/include/uuid"
HIDE_FILES="/usr/include/cmocka.h /usr/include/zlib.h /usr/include/libkmod.h"
TAG=famfs-fresh			# the tmpfs source name; setup-stub.sh checks it

# ---- inside the namespace: run.sh --inside DIR TARGET ---------------------------------
if [ "${1:-}" = --inside ]; then
	dir=$2 target=$3
	hidden=$HIDE
	for d in $HIDE; do
		mount -t tmpfs -o size=1m,mode=0755 "$TAG" "$d" || exit 90
	done
	for d in $HIDE; do
		[ -z "$(ls -A "$d")" ] || { echo "fresh: $d is not empty in the namespace" >&2; exit 91; }
	done
	# the stand-ins: names setup-stub.sh recognizes (FSROOT of the bind mount)
	stubs=$dir/build/fresh-stubs
	mkdir -p "$stubs/famfs-fresh-dir"
	printf '#!/bin/sh\necho "$0: command not found (not installed yet: tests/fresh)" >&2\nexit 127\n' \
		> "$stubs/famfs-fresh-absent" && chmod 0755 "$stubs/famfs-fresh-absent"
	: > "$stubs/famfs-fresh-empty"
	for f in $HIDE_PROGS; do
		[ -e "$f" ] || continue
		mount --bind "$stubs/famfs-fresh-absent" "$f" || exit 90
		! "$f" --version >/dev/null 2>&1 || { echo "fresh: $f still runs in the namespace" >&2; exit 91; }
		hidden="$hidden $f"
	done
	for d in $HIDE_DIRS; do
		[ -d "$d" ] || continue
		mount -t tmpfs -o size=1m,mode=0755 "$TAG" "$d" || exit 90
		hidden="$hidden $d"
	done
	for f in $HIDE_FILES; do
		[ -e "$f" ] || continue
		mount --bind "$stubs/famfs-fresh-empty" "$f" || exit 90
		[ ! -s "$f" ] || { echo "fresh: $f is not empty in the namespace" >&2; exit 91; }
		hidden="$hidden $f"
	done
	echo "fresh: hidden: $hidden; make $target in $dir" >&2
	# what a user's login shell has, and nothing of this make check
	exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME="${HOME:-/root}" LANG=C.UTF-8 TERM=dumb CI=true \
		FAMFS_SETUP_DEPS="$dir/tests/fresh/setup-stub.sh" FAMFS_FRESH_HIDDEN="$hidden" \
		FAMFS_BUILD_ONLY=1 make -C "$dir" "$target" </dev/null
fi

results=${FAMFS_RESULTS:-$repo/results}/fresh
mkdir -p "$results"
fails=0
pass() { echo "PASS fresh/$1"; }
fail() { echo "FAIL fresh/$1: $2"; fails=$((fails + 1)); }
skip() { echo "SKIP fresh/$1: $2"; }
hidden_state() {
	local d
	for d in $HIDE $HIDE_DIRS; do [ ! -d "$d" ] || echo "$d: $(ls -A "$d" | md5sum)"; done
	for d in $HIDE_PROGS $HIDE_FILES; do [ ! -e "$d" ] || stat -c '%n %s %Y' "$d"; done
	findmnt -rn -S "$TAG"
}

if [ "$(id -u)" != 0 ]; then
	skip make-demo "needs root for a private mount namespace (unshare -m)"; exit 0
fi
command -v unshare >/dev/null || { fail make-demo "unshare (util-linux) not installed"; exit 1; }
if ! git -C "$repo" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	skip make-demo "not a git checkout: cannot make a fresh clone of it"; exit 0
fi

# ---- which kernel scripts/kver.sh picks (two kernels, headers newer than the image, flavours)
"$here/kver.sh" || fails=$((fails + 1))
# ---- an interrupted unpack of linux-source is finished by the next set-up
"$here/unpack.sh" || fails=$((fails + 1))

# ---- the fresh clone: the tree's files as git sees them, no build output -------------------
# clone DIR: the tree's files into DIR
clone() {
	(cd "$repo" && git ls-files -z --cached --others --exclude-standard |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -xf - -C "$1"
}
work=$repo/build/fresh.$$
nonroot=			# the clone make demo runs in as a user (below)
trap 'rm -rf "$work" ${nonroot:+"$nonroot"}' EXIT
mkdir -p "$work"
clone "$work" || { fail copy "copying the tree to $work failed"; exit 1; }
before=$(hidden_state)

for target in demo check bench; do
	log=$results/make-$target.log
	t0=$SECONDS
	# each target must build these itself, not find what the one before built
	built="fs/famfs/famfs.ko tools/famfs-cli/build/famfs-cli tests/qemu/build/initramfs.cpio"
	for f in $built; do rm -f "$work/$f"; done
	unshare -m --propagation private "$here/run.sh" --inside "$work" "$target" > "$log" 2>&1
	rc=$?
	dt=$((SECONDS - t0))
	echo "fresh: make $target: exit $rc in $dt s (log: $log)" >&2
	if [ $rc = 90 ] || [ $rc = 91 ]; then
		fail "make-$target" "could not hide $HIDE in a mount namespace: $(tail -n 1 "$log")"
		continue
	fi
	if [ "$(grep -c '^setup-stub: ' "$log")" != 1 ]; then
		fail "make-$target-setup-ran" "the set-up step (FAMFS_SETUP_DEPS stub) did not run once (log: $log)"
	else
		pass "make-$target-setup-ran"
	fi
	if [ $rc = 0 ]; then
		pass "make-$target"
	else
		fail "make-$target" "exit $rc on a fresh machine: $(grep -m1 -E 'no kernel headers|error|Error|FAIL ' "$log" ||
			tail -n 1 "$log") (log: $log)"
		continue
	fi
	missing=()
	for f in $built; do
		[ -s "$work/$f" ] || missing+=("$f")
	done
	if [ ${#missing[@]} = 0 ]; then pass "make-$target-built"
	else fail "make-$target-built" "make $target did not build ${missing[*]} (log: $log)"; fi
done

# ---- make demo as a user other than root, once the packages are installed -------------
# (README: both commands work for any user then).  A clone owned by that user,
# the PATH Debian gives a user (no /usr/sbin, /sbin), the real set-up step
# (it only checks); build only, as above.
user=nobody
if ! id "$user" >/dev/null 2>&1 || ! command -v runuser >/dev/null; then
	skip make-demo-nonroot "no user '$user' or no runuser (util-linux) on this host"
else
	nonroot=$(mktemp -d /tmp/famfs-fresh-nonroot.XXXXXX)
	chmod 0755 "$nonroot"
	log=$results/make-demo-nonroot.log
	if ! clone "$nonroot" || ! chown -R "$user:" "$nonroot"; then
		fail make-demo-nonroot "copying the tree to $nonroot failed"
	elif runuser -u "$user" -- env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$nonroot" \
		LANG=C.UTF-8 TERM=dumb CI=true FAMFS_BUILD_ONLY=1 make -C "$nonroot" demo \
		</dev/null > "$log" 2>&1; then
		missing=()
		for f in $built; do [ -s "$nonroot/$f" ] || missing+=("$f"); done
		if [ ${#missing[@]} = 0 ]; then pass make-demo-nonroot
		else fail make-demo-nonroot "make demo as $user did not build ${missing[*]} (log: $log)"; fi
	else
		fail make-demo-nonroot "make demo as $user (packages installed) failed: $(grep -m1 -E 'not found|FAIL |error|Error' "$log" ||
			tail -n 1 "$log") (log: $log)"
	fi
fi

after=$(hidden_state)
if [ "$before" = "$after" ]; then pass host-untouched
else fail host-untouched "$HIDE changed on the host: $(diff <(echo "$before") <(echo "$after") | tr '\n' ' ')"; fi
[ $fails = 0 ] || trap - EXIT		# keep the clone to look at
exit $((fails > 0))
