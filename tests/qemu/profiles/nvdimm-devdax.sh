# Like nvdimm, but the namespace is devdax (align 2 MiB): /dev/dax0.0.
FAMFS_DEV_MODE=devdax
. "$PROFILES/nvdimm.sh"
