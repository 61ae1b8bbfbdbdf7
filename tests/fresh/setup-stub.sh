#!/bin/sh
# The set-up step of a fresh machine, for tests/fresh/run.sh only: in its
# private mount namespace the packages "get installed" by unmounting what
# hides them (FAMFS_FRESH_HIDDEN: the empty tmpfs mounts over /usr/src,
# /boot, /lib/modules and header directories, the bind mounts of stand-ins
# over programs and header files); then the real scripts/setup-deps.sh runs
# and finds everything in place.  Refuses to unmount anything that is not
# one of those mounts.
set -eu
echo "setup-stub: installing the packages (uncovering ${FAMFS_FRESH_HIDDEN:?})"
for d in $FAMFS_FRESH_HIDDEN; do
	case $(findmnt -rn -o SOURCE,FSTYPE,FSROOT --mountpoint "$d") in
	"famfs-fresh tmpfs /") ;;
	*/famfs-fresh-absent | */famfs-fresh-empty) ;;
	*)
		echo "setup-stub: $d is not a mount tests/fresh/run.sh made; refusing" >&2
		exit 1 ;;
	esac
	umount "$d"
done
exec "$(dirname "$0")/../../scripts/setup-deps.sh"
