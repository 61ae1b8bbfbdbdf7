/* SPDX-License-Identifier: GPL-2.0 */
/* libfamfs (included by libfamfs.h): one allocator per device, and where a
 * new file goes (place.c, issue 16). */
#ifndef FAMFS_PLACE_H
#define FAMFS_PLACE_H

/* The allocators of devices 0..ndevs-1 (0: the primary; i: the member a
 * DEVADD entry added, its data from FAMFS_MEMBER_DATA_OFFSET).  Overlap is
 * per device: the same offset on two devices is two different units. */
struct famfs_alloc {
	unsigned ndevs;
	struct famfs_bitmap dev[FAMFS_MAX_DEVS];
};
/* Device 0 only, from the superblock */
int famfs_alloc_init(struct famfs_alloc *a, const struct famfs_superblock *sb);
/* Device dev (== a->ndevs: devices are added in order) covering
 * [data_start, size); -EINVAL out of order, -ENOMEM */
int famfs_alloc_add_dev(struct famfs_alloc *a, unsigned dev,
			uint64_t data_start, uint64_t size);
/* Every device's allocator from the whole log (famfs_bitmap_build for
 * each device) */
int famfs_alloc_build(struct famfs_fs *fs, struct famfs_alloc *a);
/* Add the devices of t that a lacks (the log's DEVADD entries) */
int famfs_alloc_sync(struct famfs_alloc *a, const struct famfs_logdevs *t);
void famfs_alloc_free(struct famfs_alloc *a);
uint64_t famfs_alloc_nfree(const struct famfs_alloc *a);	/* units */
/* Mark every extent or strip of a FILE entry used on the device its
 * device index names (a device this set does not have: nothing) */
void famfs_alloc_mark(struct famfs_alloc *a, const struct famfs_log_entry *e);
/* Where a new file goes: any device (the policy below) or one */
struct famfs_place {
	bool has_dev;		/* --device N */
	uint32_t dev;
	uint32_t absent;	/* bit i: device i is not attached on this
				 * host, never chosen (famfs_place_here) */
};
/* "device N: no such device in this file system (its devices: 0-2)":
 * 0, or -ENODEV with reason filled */
int famfs_place_check(const struct famfs_alloc *a,
		      const struct famfs_place *pl, char *reason);
/* Which devices of a (the log's) are not attached to the mount at fs->mpt
 * (FAMFSIOC_DEV_GET; none known without it) into pl->absent.  pl's device
 * among them: -ENODEV, reason naming its index and device uuid.  Else 0,
 * and *skipped: the policy below would have chosen one of them for a file
 * of nstrips strips (0: a simple file). */
struct famfs_fs;
int famfs_place_here(struct famfs_fs *fs, const struct famfs_alloc *a,
		     struct famfs_place *pl, uint32_t nstrips, bool *skipped,
		     char *reason);
/* A simple file: on pl's device, else on the device with the most free
 * units that is not absent (ties: the lowest index; one that cannot hold
 * it: the next).
 * famfs_alloc_extents on it; *dev says which. */
int famfs_alloc_place(struct famfs_alloc *a, const struct famfs_place *pl,
		      uint64_t size, unsigned max_ext,
		      struct famfs_log_simple_ext *ext, unsigned *next,
		      unsigned *dev);
/* An interleaved file (famfs_alloc_strips' geometry): strip i on devs[i].
 * pl's device: all strips there.  Else, with at least nstrips devices
 * (not absent), each strip on another device (those with the most free
 * units, in index order); with fewer, strip i on the (i % n)th of the n
 * devices, and *shared set.  All or nothing: -ENOSPC leaves every device
 * as it was. */
int famfs_alloc_place_strips(struct famfs_alloc *a,
			     const struct famfs_place *pl, uint64_t size,
			     uint32_t nstrips, uint64_t chunk,
			     struct famfs_log_interleave_ext *ie,
			     uint8_t devs[FAMFS_LOG_MAX_STRIPS], bool *shared);

#endif /* FAMFS_PLACE_H */
