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
 *
 * libblkid is loaded here, when mkfs probes (dlopen), not linked into the
 * tool: every other famfs command is a process that would pay for loading
 * and relocating it at start and never use it (issue 17).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <blkid/blkid.h>

#include "dev/dev.h"

#define PROBE_HEAD	(8ULL << 20)	/* btrfs at 64 KiB, iso9660 at 32 KiB... */
#define PROBE_TAIL	(2ULL << 20)	/* GPT backup, md 0.90/1.0, ZFS labels */

/* the libblkid calls the probe makes, from the library loaded at run time */
static struct {
	blkid_probe (*new_probe)(void);
	int (*set_device)(blkid_probe, int, blkid_loff_t, blkid_loff_t);
	int (*enable_superblocks)(blkid_probe, int);
	int (*set_superblocks_flags)(blkid_probe, int);
	int (*enable_partitions)(blkid_probe, int);
	int (*do_probe)(blkid_probe);
	int (*lookup_value)(blkid_probe, const char *, const char **, size_t *);
	void (*free_probe)(blkid_probe);
} bk;

#define FAMFS_BLKID_SONAME	"libblkid.so.1"

static int blkid_load(const char *dev)
{
	static void *h;
	const char *why;

	if (h)
		return 0;
	h = dlopen(FAMFS_BLKID_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		famfs_err("%s: probing for other file systems: cannot load %s: %s",
			  dev, FAMFS_BLKID_SONAME, dlerror());
		return -ENOENT;
	}
#define SYM(f, name) (*(void **)&bk.f = dlsym(h, name))
	if (!SYM(new_probe, "blkid_new_probe") ||
	    !SYM(set_device, "blkid_probe_set_device") ||
	    !SYM(enable_superblocks, "blkid_probe_enable_superblocks") ||
	    !SYM(set_superblocks_flags, "blkid_probe_set_superblocks_flags") ||
	    !SYM(enable_partitions, "blkid_probe_enable_partitions") ||
	    !SYM(do_probe, "blkid_do_probe") ||
	    !SYM(lookup_value, "blkid_probe_lookup_value") ||
	    !SYM(free_probe, "blkid_free_probe")) {
#undef SYM
		why = dlerror();
		famfs_err("%s: probing for other file systems: %s: %s", dev,
			  FAMFS_BLKID_SONAME, why ? why : "a function is missing");
		dlclose(h);
		h = NULL;
		return -ENOENT;
	}
	return 0;
}

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
	rc = blkid_load(d->path);
	if (rc)
		return rc;
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
	pr = bk.new_probe();
	if (!pr || bk.set_device(pr, fd, 0, (blkid_loff_t)d->size)) {
		famfs_err("%s: probing for other file systems: libblkid failed",
			  d->path);
		rc = -EIO;
		goto out;
	}
	bk.enable_superblocks(pr, 1);
	bk.set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE |
				       BLKID_SUBLKS_LABEL);
	bk.enable_partitions(pr, 1);
	/* every signature, as wipefs lists them (blkid_do_fullprobe stops at
	 * the first: ext4 with an iso9660 in it was named "ext4" only) */
	while ((rc = bk.do_probe(pr)) == 0) {
		const char *type = NULL, *usage = NULL, *label = NULL;
		const char *pttype = NULL;

		bk.lookup_value(pr, "TYPE", &type, NULL);
		bk.lookup_value(pr, "USAGE", &usage, NULL);
		bk.lookup_value(pr, "LABEL", &label, NULL);
		bk.lookup_value(pr, "PTTYPE", &pttype, NULL);
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
		bk.free_probe(pr);
	if (fd >= 0)
		close(fd);
	return rc;
}
