// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - opening the memory of a mount (its primary device)
 *
 * mount(2) names a pmem block device in fsdax mode or a /dev/daxX.Y bound
 * to famfs's dax-bus driver (devdax.c); it is opened and held here, and
 * what holding it means is in backing.c (closing) and removal.c (failures,
 * removal).
 * Members that FAMFSIOC_DEV_ADD attaches are opened in members.c.
 *
 * Every check comes first; becoming the holder (of the dax_device, or the
 * devdax claim) and being registered are the last step, one step under
 * famfs_holder_lock, after which nothing fails (backing.c).
 *
 * Layer "open" (scripts/layers.conf), with members.c: calls backing.c to
 * hold the device, passing removal.c's holder operations, and devdax.c to
 * explain a device that is not bound to famfs.
 */

#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/fs_context.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/pfn_t.h>
#include "famfs.h"

/**
 * famfs_dax_pages() - the pages of a device's memory, one run of them
 * @dax_dev: the device's dax_device (a reference; not held)
 * @start_off: where the device starts in @dax_dev
 * @size: the bytes of it that famfs uses
 * @pfn: returns the page frame of device offset 0
 *
 * famfs finds the page of a device offset as the device's first page plus
 * the offset (the page references of pins.c: an evicted file's, a
 * removal's wait), so the memory must have struct pages and be one run of
 * them: a pmem namespace is, a device-mapper device over pieces of
 * namespaces need not be (the page famfs would look at for a device offset
 * is another one, and a page in a pipe would be missed).
 *
 * Return: NULL, or why the device cannot be used (for the log line; the
 * caller fails with EOPNOTSUPP).
 */
const char *famfs_dax_pages(struct dax_device *dax_dev, u64 start_off,
			    u64 size, unsigned long *pfn)
{
	u64 done = 0, left = size >> PAGE_SHIFT;
	unsigned long first = 0;

	while (left) {
		pfn_t run;
		long nr;
		int id;

		/*
		 * Recovery mode: a bad block ends a run, it fails nothing.  At
		 * most 1 GiB a call: pmem counts its sectors in an unsigned int.
		 */
		id = dax_read_lock();
		nr = dax_direct_access(dax_dev, PHYS_PFN(start_off) + done,
				       min_t(u64, left, SZ_1G >> PAGE_SHIFT),
				       DAX_RECOVERY_WRITE, NULL, &run);
		dax_read_unlock(id);
		if (nr < 1 || !pfn_t_has_page(run))
			return "device memory without struct pages";
		if (!done)
			first = pfn_t_to_pfn(run);
		else if (pfn_t_to_pfn(run) != first + done)
			return "device memory is not one contiguous run of pages";
		nr = min_t(u64, nr, left);
		done += nr;
		left -= nr;
		cond_resched();
	}
	*pfn = first;
	return NULL;
}

/* Buffered writes to @bdev (e.g. by mkfs) reach memory; no cached copy stays. */
static int famfs_backing_open_bdev(struct famfs_sb_info *fsi,
				   struct fs_context *fc)
{
	struct famfs_backing *b = &fsi->backing;
	fmode_t mode = FMODE_READ | FMODE_EXCL;
	struct block_device *bdev;
	struct dax_device *dax_dev;
	unsigned long pfn = 0;
	u64 start_off = 0;
	const char *why;
	int rc;

	if (!(fc->sb_flags & SB_RDONLY))
		mode |= FMODE_WRITE;

	bdev = blkdev_get_by_path(fc->source, mode, b);
	if (IS_ERR(bdev)) {
		rc = PTR_ERR(bdev);
		switch (rc) {
		case -ENOENT:
			errorfc(fc, "%s: no such device", fc->source);
			break;
		case -ENOTBLK:
			errorfc(fc, "%s: not a block device", fc->source);
			break;
		case -EBUSY:
			errorfc(fc, "%s: device is busy (already mounted?)",
				fc->source);
			break;
		default:
			errorfc(fc, "%s: cannot open device: %pe", fc->source,
				bdev);
			break;
		}
		return rc;
	}

	/* Every check before the hold (famfs_backing_hold_bdev()). */
	dax_dev = fs_dax_get_by_bdev(bdev, &start_off, NULL, NULL);
	if (!dax_dev) {
		errorfc(fc, "%s: device does not support DAX (raw-mode namespace?)",
			fc->source);
		rc = -EOPNOTSUPP;
		goto out_put;
	}
	if (dax_holder(dax_dev)) {
		errorfc(fc, "%s: its dax device is held by someone else",
			fc->source);
		rc = -EBUSY;
		goto out_put_dax;
	}

	/* The pages, to wait for their references (pins.c). */
	why = famfs_dax_pages(dax_dev, start_off, bdev_nr_bytes(bdev), &pfn);
	if (why) {
		errorfc(fc, "%s: %s", fc->source, why);
		rc = -EOPNOTSUPP;
		goto out_put_dax;
	}
	if (bdev_nr_bytes(bdev) < FAMFS_EXTENT_ALIGN) {
		errorfc(fc, "%s: device too small (%llu bytes)", fc->source,
			bdev_nr_bytes(bdev));
		rc = -EINVAL;
		goto out_put_dax;
	}

	/*
	 * Buffered writes to the device made before the mount (e.g. by mkfs)
	 * must reach the memory now, not be written back later over what the
	 * files hold; and no cached copy may outlive the mount.
	 */
	rc = sync_blockdev(bdev);
	if (rc) {
		errorfc(fc, "%s: cannot flush the device's page cache: %pe",
			fc->source, ERR_PTR(rc));
		goto out_put_dax;
	}
	invalidate_bdev(bdev);

	b->bdev = bdev;
	b->devt = bdev->bd_dev;
	b->bdev_mode = mode;
	b->dax_dev = dax_dev;
	b->dax_start = start_off;
	b->size = bdev_nr_bytes(bdev);
	b->pfn = pfn;
	rc = famfs_backing_hold_bdev(b, bdev, &famfs_dax_holder_ops);
	if (!rc)
		return 0;
	errorfc(fc, "%s: its dax device is held by someone else", fc->source);
	b->bdev = NULL;
	b->dax_dev = NULL;
out_put_dax:
	put_dax(dax_dev);
out_put:
	blkdev_put(bdev, mode);
	return rc;
}

static int famfs_backing_open_devdax(struct famfs_sb_info *fsi,
				     struct fs_context *fc, dev_t devt)
{
	u64 size = 0;
	int rc;

	/* All of the device, at least FAMFS_EXTENT_ALIGN bytes. */
	rc = famfs_backing_hold_devdax(&fsi->backing, devt, fc->source, fc, 0,
				       &size, &famfs_daxdev_holder_ops);
	if (rc == -ENODEV)
		return famfs_daxdev_explain(devt, fc->source, fc);
	if (rc == -ENOSPC) {
		errorfc(fc, "%s: device too small (%llu bytes)", fc->source,
			size);
		return -EINVAL;
	}
	return rc;
}

/**
 * famfs_backing_open() - open the mount's memory and hold it
 * @fsi: the new mount (the holder of the device)
 * @fc: its context; fc->source is the device path
 *
 * fc->source names a pmem block device (fsdax mode) or a /dev/daxX.Y bound to
 * famfs.  Every failure gets its own errno and one kernel log line.
 *
 * Return: 0, -ENOENT (no such path), -ENOTBLK (neither a block device nor a
 * dax device), -EACCES (device node on a nodev mount), -EBUSY (already
 * mounted, held by someone else, or a dax device that is open), -EOPNOTSUPP
 * (no DAX: a raw-mode namespace, or a dax device not bound to famfs; memory
 * without struct pages, or not one run of them: famfs_dax_pages()), -EINVAL,
 * or another error from opening the device.
 */
int famfs_backing_open(struct famfs_sb_info *fsi, struct fs_context *fc)
{
	struct famfs_backing *b = &fsi->backing;
	struct inode *inode;
	struct path path;
	umode_t mode;
	dev_t rdev;
	int rc;

	if (!fc->source || !*fc->source)
		return invalfc(fc, "no source device given");
	b->fsi = fsi;
	b->index = 0;

	rc = kern_path(fc->source, LOOKUP_FOLLOW, &path);
	if (rc) {
		errorfc(fc, "%s: no such device: %pe", fc->source, ERR_PTR(rc));
		return rc;
	}
	inode = d_backing_inode(path.dentry);
	mode = inode->i_mode;
	rdev = inode->i_rdev;
	if ((S_ISCHR(mode) || S_ISBLK(mode)) &&
	    ((path.mnt->mnt_flags & MNT_NODEV) ||
	     (path.mnt->mnt_sb->s_iflags & SB_I_NODEV))) {
		path_put(&path);
		errorfc(fc, "%s: device node on a nodev mount", fc->source);
		return -EACCES;
	}
	path_put(&path);

	if (S_ISCHR(mode) && !IS_ENABLED(CONFIG_FAMFS_DEVDAX)) {
		errorfc(fc,
			"%s: not a block device (famfs.ko was built without /dev/daxX.Y support)",
			fc->source);
		return -ENOTBLK;
	}
	if (S_ISCHR(mode))
		return famfs_backing_open_devdax(fsi, fc, rdev);
	return famfs_backing_open_bdev(fsi, fc);
}
