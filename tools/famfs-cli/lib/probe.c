// SPDX-License-Identifier: GPL-2.0
/*
 * What else a device holds, before famfs mkfs overwrites it: libblkid's
 * probes, as mkfs.xfs and mkfs.ext4 use them (file systems, RAID and LVM
 * members, swap, partition tables).  libblkid reads with read(), which a
 * device-dax instance does not have, so the device's head and tail are
 * copied through famfs_dev_map (mmap, or a bounce buffer) into a sparse
 * memfd of the device's size, and that is probed: every kind of device the
 * same way.  famfs itself is not known to libblkid; cmd_mkfs looks for its
 * magic.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <blkid/blkid.h>

#include "libfamfs.h"

#define PROBE_HEAD	(8ULL << 20)	/* btrfs at 64 KiB, iso9660 at 32 KiB... */
#define PROBE_TAIL	(2ULL << 20)	/* GPT backup, md 0.90/1.0, ZFS labels */

static int copy_range(struct famfs_dev *d, int out, uint64_t off, uint64_t len)
{
	struct famfs_map m;
	int rc;

	if (!len)
		return 0;
	rc = famfs_dev_map(d, off, len, &m);
	if (rc)
		return rc;
	famfs_map_invalidate(&m, m.addr, len);
	if (pwrite(out, m.addr, len, (off_t)off) != (ssize_t)len) {
		rc = -errno;
		famfs_err("%s: probing: cannot copy %llu bytes: %s", d->path,
			  (unsigned long long)len, strerror(errno));
	}
	famfs_map_unmap(&m);
	return rc;
}

static void append(char *what, size_t n, const char *s)
{
	size_t have = strlen(what);

	snprintf(what + have, n - have, "%s%s", have ? ", " : "", s);
}

int famfs_dev_probe(struct famfs_dev *d, char *what, size_t n)
{
	uint64_t head = d->size < PROBE_HEAD ? d->size : PROBE_HEAD;
	uint64_t tail_off = 0, tail_len = 0;
	blkid_probe pr = NULL;
	char s[256];
	int fd, rc;

	what[0] = '\0';
	if (d->size > head + PROBE_TAIL) {
		tail_off = (d->size - PROBE_TAIL) & ~(FAMFS_ALLOC_UNIT - 1);
		tail_len = d->size - tail_off;
	}
	fd = memfd_create("famfs-probe", MFD_CLOEXEC);
	if (fd < 0 || ftruncate(fd, (off_t)d->size)) {
		rc = -errno;
		famfs_err("%s: probing for other file systems: %s", d->path,
			  strerror(errno));
		goto out;
	}
	rc = copy_range(d, fd, 0, head);
	if (!rc)
		rc = copy_range(d, fd, tail_off, tail_len);
	if (rc)
		goto out;
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, (blkid_loff_t)d->size)) {
		famfs_err("%s: probing for other file systems: libblkid failed",
			  d->path);
		rc = -EIO;
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE |
					  BLKID_SUBLKS_USAGE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	/* every signature, as wipefs lists them (blkid_do_fullprobe stops at
	 * the first: ext4 with an iso9660 in it was named "ext4" only) */
	while ((rc = blkid_do_probe(pr)) == 0) {
		const char *type = NULL, *usage = NULL, *label = NULL;
		const char *pttype = NULL;

		blkid_probe_lookup_value(pr, "TYPE", &type, NULL);
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		blkid_probe_lookup_value(pr, "LABEL", &label, NULL);
		blkid_probe_lookup_value(pr, "PTTYPE", &pttype, NULL);
		if (type) {
			snprintf(s, sizeof(s), "%s %s%s%s%s", type,
				 usage && !strcmp(usage, "filesystem") ? "file system" :
				 usage && !strcmp(usage, "raid") ? "RAID member" :
				 usage && !strcmp(usage, "crypto") ? "encrypted volume" :
				 "signature",
				 label ? " labelled '" : "", label ? label : "",
				 label ? "'" : "");
			append(what, n, s);
		}
		if (pttype) {
			snprintf(s, sizeof(s), "a %s partition table", pttype);
			append(what, n, s);
		}
	}
	if (rc < 0) {
		famfs_err("%s: probing for other file systems: libblkid failed",
			  d->path);
		rc = -EIO;
		goto out;
	}
	rc = what[0] ? 1 : 0;
out:
	if (pr)
		blkid_free_probe(pr);
	if (fd >= 0)
		close(fd);
	return rc;
}
