#!/usr/bin/env bash
# Host checks of "make install" (tests/PROTOCOL.md lines, ids install/...):
#  - man/*.8 are what famfs-cli generates (famfs-cli help --man PAGE), render
#    with man -l without warnings, and carry every option, synopsis line and
#    exit code of the matching --help;
#  - make install DESTDIR=build/stage puts the tools, the mount.famfs,
#    mkfs.famfs and fsck.famfs links, the man pages and the module source
#    (dkms.conf) where they belong, and make uninstall removes all of it;
#  - DKMS builds famfs.ko from the installed source for KVER, in a private
#    DKMS tree (--dkmstree/--sourcetree under build/, throwaway signing key):
#    nothing under /var/lib/dkms, /usr/src or /lib/modules changes, and no
#    module is ever loaded here.  The module lands where dkms install puts
#    it on Debian, build/stage/lib/modules/KVER/updates/dkms/famfs.ko, for
#    the guest suite tests/qemu/suites/install.sh, which uses build/stage.
# Runs may overlap (several people's make check): each works in its own
# directories, and build/stage is a symlink switched atomically to a
# complete stage; the previous stage is kept for a guest still reading it.
set -uo pipefail
PATH=$PATH:/usr/sbin:/sbin	# dkms, mkfs, fsck, blkid: not in a user's PATH on Debian
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
KVER=${KVER:-$("$repo/scripts/kver.sh")}
B=$repo/tools/famfs-cli/build
LINK=$repo/build/stage
STAGE=$repo/build/stage.$$		# published as build/stage when complete
work=$repo/build/install-test.$$
fails=0
trap '[ $fails -eq 0 ] && rm -rf "$work"' EXIT	# kept (logs) on failure

pass() { echo "PASS install/$1"; }
fail() { echo "FAIL install/$1: $2"; fails=$((fails + 1)); }
skip() { echo "SKIP install/$1: $2"; }
check() {	# check ID CMD...: PASS iff CMD succeeds
	local id=$1 o; shift
	if o=$("$@" 2>&1); then pass "$id"
	else fail "$id" "'$*' failed${o:+: $(echo "$o" | tail -n 2 | tr '\n' ' ')}"; fi
}
# host state DKMS must leave alone
host_state() {
	find /var/lib/dkms /usr/src -maxdepth 2 2>/dev/null | sort
	ls -la "/lib/modules/$KVER/" 2>/dev/null
	find "/lib/modules/$KVER/updates" "/lib/modules/$KVER/extra" 2>/dev/null | sort
	md5sum "/lib/modules/$KVER/modules.dep" 2>/dev/null
}

mkdir -p "$work"
before=$(host_state)
if ! out=$(make -s -C tools/famfs-cli 2>&1); then
	fail build "make -C tools/famfs-cli: $(echo "$out" | tail -n 1)"; exit 1
fi
for h in mount.famfs mkfs.famfs fsck.famfs; do ln -sf "$B/famfs-cli" "$work/$h"; done

# ---- man pages ------------------------------------------------------------------
pages=$("$B/famfs-cli" help --man-pages)
want="famfs famfs-mkfs famfs-mount famfs-logplay famfs-mkfile famfs-cp famfs-mkdir
famfs-fsck famfs-getmap famfs-check famfs-verify famfs-df mount.famfs mkfs.famfs fsck.famfs"
missing=$(for p in $want; do echo "$pages" | grep -qx "$p" || echo "$p"; done)
check man-pages-listed test -z "$missing"
have_man=0; command -v man >/dev/null && have_man=1
for p in $pages; do
	"$B/famfs-cli" help --man "$p" > "$work/$p.8"
	if cmp -s "$work/$p.8" "man/$p.8"; then pass "man-up-to-date/$p"
	else fail "man-up-to-date/$p" "man/$p.8 differs from 'famfs-cli help --man $p' (run make man)"; fi
	case $p in
	famfs) help=$("$B/famfs-cli" --help) ;;
	*.famfs) help=$("$work/$p" --help) ;;
	*) help=$("$B/famfs-cli" "${p#famfs-}" --help) ;;
	esac
	[ -n "$help" ] || fail "help/$p" "no --help output"
	if [ $have_man = 0 ]; then
		skip "man-renders/$p" "man(1) not installed (scripts/setup-deps.sh installs man-db)"
		continue
	fi
	warn=$(LC_ALL=C MANWIDTH=80 man --warnings -l "$work/$p.8" 2>&1 >/dev/null)
	if [ -z "$warn" ]; then pass "man-renders/$p"
	else fail "man-renders/$p" "man -l warns: $(echo "$warn" | head -n 2 | tr '\n' ' ')"; fi
	text=$(LC_ALL=C MANWIDTH=200 man -l "$work/$p.8" 2>/dev/null | col -b)
	bad=()
	# every option label of --help ("-l, --loglen N") starts a line of the page
	while IFS= read -r label; do
		echo "$text" | awk -v l="       $label" 'index($0, l) == 1 {
			r = substr($0, length(l) + 1); if (r == "" || r ~ /^  /) f = 1 }
			END { exit !f }' || bad+=("option '$label'")
	done < <(echo "$help" | sed -n '/^Options:/,/^$/p' | grep -E '^  +-' |
		sed -E 's/^ +//; s/  .*//')
	# every synopsis line, whitespace-normalized, is in SYNOPSIS
	syn=$(echo "$text" | sed -n '/^SYNOPSIS/,/^[A-Z]/p' | tr -s ' \n' ' ')
	while IFS= read -r line; do
		echo "$syn" | grep -qF -- "$line" || bad+=("synopsis '$line'")
	done < <(echo "$help" | sed -n 's/^\(usage:\|      \) \([a-z].*\)/\2/p' | tr -s ' ')
	# every exit code
	while IFS= read -r code; do
		echo "$text" | sed -n '/^EXIT STATUS/,/^[A-Z]/p' | grep -qE "^ +$code +[^ ]" ||
			bad+=("exit code $code")
	done < <(echo "$help" | sed -n '/^Exit codes/,$p' | sed -nE 's/^  ([0-9]+) .*/\1/p')
	if [ ${#bad[@]} -eq 0 ]; then pass "man-matches-help/$p"
	else fail "man-matches-help/$p" "the man page lacks: ${bad[*]}"; fi
done

# ---- make install / uninstall into staging trees ------------------------------------
if ! out=$(make -s install DESTDIR="$work/u" 2>&1); then
	fail install-uninstall-dir "make install DESTDIR=$work/u: $(echo "$out" | tail -n 1)"
else
	make -s uninstall DESTDIR="$work/u" > "$work/uninstall.log" 2>&1
	left=$(find "$work/u" -type f -o -type l)
	if [ -z "$left" ]; then pass uninstall-removes-all
	else fail uninstall-removes-all "left behind: $(echo "$left" | head -n 3 | tr '\n' ' ')"; fi
fi
if ! out=$(make -s install DESTDIR="$STAGE" 2>&1); then
	fail make-install "make install DESTDIR=$STAGE: $(echo "$out" | tail -n 3 | tr '\n' ' ')"
	rm -rf "$STAGE"
	exit 1
fi
pass make-install
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
src=$STAGE/usr/src/famfs-$ver
check installed-famfs-cli test -x "$STAGE/usr/local/bin/famfs-cli"
check installed-famfs-link test "$(readlink "$STAGE/usr/local/bin/famfs")" = famfs-cli
for h in mount mkfs fsck; do
	check installed-$h-helper test "$(readlink "$STAGE/sbin/$h.famfs")" = /usr/local/bin/famfs-cli
done
check installed-binary-is-built cmp -s "$STAGE/usr/local/bin/famfs-cli" "$B/famfs-cli"
n=$(ls "$STAGE/usr/local/share/man/man8/"*.8 2>/dev/null | wc -l)
check installed-man-pages test "$n" = "$(echo "$pages" | wc -l)"
check installed-runs "$STAGE/usr/local/bin/famfs-cli" --version
check installed-version-matches-dkms sh -c "'$STAGE/usr/local/bin/famfs-cli' --version | grep -q '^famfs $ver '"
check installed-module-source test -f "$src/dkms.conf" -a -f "$src/Kbuild" -a -f "$src/fs/famfs/Kbuild" \
	-a -f "$src/fs/famfs/super.c" -a -f "$src/include/uapi/linux/famfs_ioctl.h"
check installed-no-build-artifacts test -z "$(find "$src" -name '*.o' -o -name '*.ko' -o -name '*.mod*' \
	-o -name '.*.cmd' -o -name dax_abi.h -o -name modules.order)"
conf_ok=1
for kv in 'PACKAGE_NAME="famfs"' 'BUILT_MODULE_NAME\[0\]="famfs"' 'BUILT_MODULE_LOCATION\[0\]="fs/famfs/"' \
	'DEST_MODULE_LOCATION\[0\]="/(extra|kernel/fs/famfs|updates)"' 'AUTOINSTALL="yes"' 'MAKE\[0\]=.*M=\$\{dkms_tree\}'; do
	grep -qE "^$kv" dkms.conf || { conf_ok=0; fail dkms-conf "dkms.conf lacks $kv"; }
done
[ $conf_ok = 0 ] || pass dkms-conf

# ---- util-linux mkfs -t famfs / fsck -t famfs on a file, through the links -------------
# (the guest suite "install" does the same on a real device).  mkfs(8) and
# fsck(8) look in /sbin before PATH: a host with its own /sbin/*.famfs is
# not this tree's.  fsck(8) exits 0 when it finds no helper, so the helper's
# own output is checked too.
h8() {	# h8 ID RC PATTERN CMD...: exit code RC and PATTERN (grep -E) in the output
	local id=$1 want=$2 pat=$3 o rc; shift 3
	o=$(PATH="$work:$PATH" FAMFS_HOST_ID_FILE=$work/host-uuid "$@" 2>&1); rc=$?
	if [ "$rc" = "$want" ] && echo "$o" | grep -qE -- "$pat"; then pass "$id"
	else fail "$id" "'$*' exited $rc (want $want, output matching '$pat'): $(echo "$o" | tail -n 2 | tr '\n' ' ')"; fi
}
if [ -e /sbin/mkfs.famfs ] || [ -e /sbin/fsck.famfs ]; then
	skip mkfs8-fsck8-host "this host has its own /sbin/mkfs.famfs or /sbin/fsck.famfs (make uninstall removes them)"
elif ! command -v mkfs >/dev/null || ! command -v fsck >/dev/null; then
	fail mkfs8-fsck8-host "util-linux mkfs/fsck not installed (scripts/setup-deps.sh installs util-linux)"
else
	img=$work/fs8.img
	truncate -s 64M "$img"
	h8 mkfs8-host 0 "famfs mkfs: $img: .*log 4194304 bytes" mkfs -t famfs -l 4m "$img"
	h8 mkfs8-host-existing 1 "already holds a famfs" mkfs -t famfs "$img"
	h8 mkfs8-host-size 1 "size argument '99' refused" mkfs -t famfs -f "$img" 99
	h8 fsck8-host-clean 0 "fsck.famfs: $img: 0 log entries .* 0 problems" fsck -t famfs "$img"
	h8 fsck8-host-n 0 "fsck.famfs: $img: .* 0 problems" fsck -t famfs -n "$img"
	h8 fsck8-host-y 0 "-y: famfs fsck does not repair" fsck -t famfs -y "$img"
	h8 fsck8-host-usage 16 "only one of -n, -y, -a/-p" fsck -t famfs -n -a "$img"
	h8 mkfs8-host-kill 0 "superblock destroyed" mkfs -t famfs -k "$img"
	h8 fsck8-host-no-fs 4 "fsck.famfs: $img: superblock or log header invalid" fsck -t famfs -p "$img"
	h8 fsck8-host-no-file 8 "$work/none" fsck.famfs "$work/none"
fi

# ---- DKMS build in a private tree ----------------------------------------------------
if ! command -v dkms >/dev/null; then
	fail dkms-build "dkms not installed (scripts/setup-deps.sh installs it)"
else
	tree=$work/dkms
	mkdir -p "$tree/keys" "$tree/tree"
	# signing: a throwaway key here, not /var/lib/dkms/mok.key
	dk() { mok_signing_key=$tree/keys/mok.key mok_certificate=$tree/keys/mok.pub \
		dkms "$@" --dkmstree "$tree/tree" --sourcetree "$STAGE/usr/src" >> "$work/dkms.log" 2>&1; }
	ko=$tree/tree/famfs/$ver/$KVER/x86_64/module/famfs.ko
	if dk add -m famfs -v "$ver" && dk build -m famfs -v "$ver" -k "$KVER" && [ -f "$ko" ]; then
		pass dkms-build
		check dkms-vermagic sh -c "modinfo -F vermagic '$ko' | grep -q '^$KVER '"
		check dkms-module-name test "$(modinfo -F name "$ko")" = famfs
		install -D -m 0644 "$ko" "$STAGE/lib/modules/$KVER/updates/dkms/famfs.ko"
		check dkms-status sh -c "dkms status -m famfs -v '$ver' --dkmstree '$tree/tree' --sourcetree '$STAGE/usr/src' | grep -q 'built'"
		dk remove -m famfs -v "$ver" --all
		check dkms-remove-all test -z "$(ls -A "$tree/tree" 2>/dev/null)"
	else
		fail dkms-build "dkms add/build failed: $(grep -m1 -iE 'error|failed' "$work/dkms.log") (log: $work/dkms.log)"
	fi
fi

# publish: build/stage -> stage.$$ (rename(2) of a symlink), keep one older
[ -L "$LINK" ] || rm -rf "$LINK"
prev=$(readlink "$LINK" 2>/dev/null)
ln -sfn "stage.$$" "$LINK.lnk.$$" && mv -T "$LINK.lnk.$$" "$LINK"
for d in "$repo"/build/stage.*; do
	case ${d##*/} in "stage.$$"|"$prev") ;; *) [ -d "$d" ] && rm -rf "$d" ;; esac
done

after=$(host_state)
if [ "$before" = "$after" ]; then pass host-untouched
else fail host-untouched "/var/lib/dkms, /usr/src or /lib/modules/$KVER changed: $(diff <(echo "$before") <(echo "$after") | head -n 4 | tr '\n' ' ')"; fi
check no-famfs-loaded-on-host test ! -e /sys/module/famfs
echo "install: stage for the guest suite: $LINK -> stage.$$" >&2
[ $fails -eq 0 ]
