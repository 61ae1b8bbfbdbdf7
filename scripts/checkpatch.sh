#!/usr/bin/env bash
# Kernel style check of the famfs module sources (fs/famfs) with the
# checkpatch.pl of the matching kernel source package, in --strict mode.
# Exit status is non-zero if checkpatch reports anything.
#
# No check is ignored: the sources are written to pass as they are.
set -euo pipefail

cd "$(dirname "$0")/.."
cp=${CHECKPATCH:-/usr/src/linux-source-6.1/scripts/checkpatch.pl}
if [ ! -f "$cp" ]; then
	echo "checkpatch.sh: $cp not found (apt-get install linux-source-6.1)" >&2
	exit 2
fi

# Only the sources in git's view: not the generated famfs.mod.c.
mapfile -t files < <(git ls-files -co --exclude-standard 'fs/famfs/*.[ch]' |
		     grep -v '\.mod\.c$')
# checkpatch leaves a CamelCase cache in the top of a git tree.
trap 'rm -f .checkpatch-camelcase.*' EXIT
perl "$cp" --no-tree --strict --terse --show-types -f "${files[@]}"
