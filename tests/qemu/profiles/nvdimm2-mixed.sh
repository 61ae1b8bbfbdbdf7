# Like nvdimm2, but the second namespace is devdax (align 2 MiB): a mixed
# famfs, /dev/pmem0 the primary and /dev/dax1.0 a member.
FAMFS_DEV1_MODE=devdax
. "$PROFILES/nvdimm2.sh"
