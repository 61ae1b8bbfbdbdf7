#!/bin/sh
# The set-up step of a fresh machine, for tests/fresh/run.sh only: in its
# private mount namespace the packages "get installed" by unmounting the
# empty tmpfs mounts that hide them (FAMFS_FRESH_HIDDEN); then the real
# scripts/setup-deps.sh runs and finds everything in place.  Refuses to
# unmount anything that is not one of those tmpfs mounts.
set -eu
echo "setup-stub: installing the packages (uncovering ${FAMFS_FRESH_HIDDEN:?})"
for d in $FAMFS_FRESH_HIDDEN; do
	if [ "$(findmnt -rn -o SOURCE,FSTYPE --mountpoint "$d")" != "famfs-fresh tmpfs" ]; then
		echo "setup-stub: $d is not the tmpfs tests/fresh/run.sh mounted; refusing" >&2
		exit 1
	fi
	umount "$d"
done
exec "$(dirname "$0")/../../scripts/setup-deps.sh"
