# Like two-hosts-cxl, with a devdax namespace (align 2 MiB): /dev/dax0.0 on
# both hosts, which the suites bind to famfs's dax driver (famfs bind).
FAMFS_DEV_MODE=devdax
. "$PROFILES/two-hosts-cxl.sh"
