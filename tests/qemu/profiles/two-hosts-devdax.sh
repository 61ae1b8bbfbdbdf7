# Like two-hosts, with a devdax namespace (align 2 MiB): /dev/dax0.0 on both.
FAMFS_DEV_MODE=devdax
. "$PROFILES/two-hosts.sh"
