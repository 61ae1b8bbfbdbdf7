// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - the memory behind a mount: opening it, holding it, its failures
 *
 * A mount opens its pmem block device exclusively (so a second mount of the
 * same device, or a mount of a device some other file system holds, fails
 * with EBUSY) and becomes the holder of the device's dax_device, which is how
 * it hears about memory failures.
 *
 * Memory failure policy: the whole mount fails.  famfs cannot tell which
 * other host wrote what where, a failure report may cover metadata (the
 * superblock or log files) as well as data, and the application data sets
 * famfs is for are consumed whole; so after the first failure every data
 * access on the mount (read, write, fault, fsync, MAP_CREATE) gets EIO or
 * SIGBUS, processes that have the failed range mapped get SIGBUS right away,
 * every existing mapping of every file is torn down, and unmount still works.
 * The metadata (names, maps) stays readable so user space can see what was
 * lost.
 */

#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/fs_context.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include "famfs.h"
#include "trace.h"

/*
 * Serializes memory failure notifications with the release of the holder at
 * unmount: a notification either sees the mount's famfs_sb_info as holder and
 * finishes with it before unmount frees it, or sees no holder at all.
 */
static DEFINE_MUTEX(famfs_holder_lock);

/* Tear down every user mapping of every file so the next access faults. */
static void famfs_unmap_all(struct super_block *sb)
{
	struct inode *inode, *toput = NULL;

	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		spin_lock(&inode->i_lock);
		if ((inode->i_state & (I_FREEING | I_WILL_FREE | I_NEW)) ||
		    !famfs_inode_fmap(inode)) {
			spin_unlock(&inode->i_lock);
			continue;
		}
		__iget(inode);
		spin_unlock(&inode->i_lock);
		spin_unlock(&sb->s_inode_list_lock);

		/* Private copies made by COW are not in famfs memory: keep. */
		unmap_mapping_range(inode->i_mapping, 0, 0, 0);
		iput(toput);
		toput = inode;
		cond_resched();

		spin_lock(&sb->s_inode_list_lock);
	}
	spin_unlock(&sb->s_inode_list_lock);
	iput(toput);
}

/* Send SIGBUS to whoever maps the failed range of each file it hits. */
static void famfs_kill_range(struct famfs_sb_info *fsi, u64 start, u64 end,
			     int mf_flags)
{
	u64 cursor = start;

	while (cursor < end) {
		const struct famfs_kext *ext;
		struct inode *inode = NULL;
		u64 s, e;

		mutex_lock(&fsi->map_lock);
		ext = famfs_ext_first_overlap(fsi, cursor, end);
		if (!ext) {
			mutex_unlock(&fsi->map_lock);
			break;
		}
		s = max(cursor, ext->dev_off);
		e = min(end, ext->dev_off + ext->len);
		/* Translate to file pages. */
		s = s - ext->dev_off + ext->file_off;
		e = e - ext->dev_off + ext->file_off;
		cursor = ext->dev_off + ext->len;
		inode = igrab(ext->fmap->inode);
		mutex_unlock(&fsi->map_lock);

		if (!inode)
			continue;
		famfs_err(fsi->sb, "memory failure hits inode %lu, file bytes %llu..%llu",
			  inode->i_ino, s, e - 1);
		mf_dax_kill_procs(inode->i_mapping, s >> PAGE_SHIFT,
				  DIV_ROUND_UP(e, PAGE_SIZE) - (s >> PAGE_SHIFT),
				  mf_flags);
		iput(inode);
	}
}

static int famfs_dax_notify_failure(struct dax_device *dax_dev, u64 offset,
				    u64 len, int mf_flags)
{
	struct famfs_sb_info *fsi;
	u64 start, end;
	int rc = 0;

	mutex_lock(&famfs_holder_lock);
	fsi = dax_holder(dax_dev);
	if (!fsi) {
		rc = -EOPNOTSUPP;
		goto out;
	}
	trace_famfs_notify_failure(fsi->sb, offset, len, mf_flags);

	/* Clip the range to this mount's part of the dax_device. */
	if (check_add_overflow(offset, len, &end))
		end = U64_MAX;
	start = max(offset, fsi->backing.dax_start);
	end = min(end, fsi->backing.dax_start + fsi->backing.size);
	if (start >= end) {
		rc = -ENXIO;
		goto out;
	}
	start -= fsi->backing.dax_start;
	end -= fsi->backing.dax_start;

	if (!test_and_set_bit(FAMFS_SB_FAILED, &fsi->flags))
		famfs_err(fsi->sb, "memory failure at device bytes %llu..%llu: all data access on this mount now fails with EIO",
			  start, end - 1);
	/*
	 * Unmount (which holds s_umount while it waits for famfs_holder_lock)
	 * must not meet inode references taken here; if it or a remount is
	 * under way, the failed flag alone has to do.
	 */
	if (down_read_trylock(&fsi->sb->s_umount)) {
		if (fsi->sb->s_root) {
			famfs_kill_range(fsi, start, end, mf_flags);
			famfs_unmap_all(fsi->sb);
		}
		up_read(&fsi->sb->s_umount);
	}
out:
	mutex_unlock(&famfs_holder_lock);
	return rc;
}

static const struct dax_holder_operations famfs_dax_holder_ops = {
	.notify_failure		= famfs_dax_notify_failure,
};

/**
 * famfs_backing_open_bdev() - open the mount's pmem device and hold its dax
 * @fsi: the new mount (the holder of both the block and the dax device)
 * @fc: its context; fc->source is the device path
 *
 * Every failure gets its own errno and one kernel log line.
 *
 * Return: 0, -ENOENT (no such path), -ENOTBLK (not a block device), -EBUSY
 * (already mounted, or held by someone else), -EOPNOTSUPP (no DAX, e.g. a
 * raw-mode namespace), -EINVAL, or another error from opening the device.
 */
int famfs_backing_open_bdev(struct famfs_sb_info *fsi, struct fs_context *fc)
{
	struct famfs_backing *b = &fsi->backing;
	fmode_t mode = FMODE_READ | FMODE_EXCL;
	struct block_device *bdev;
	struct dax_device *dax_dev;
	u64 start_off = 0;
	int rc;

	if (!fc->source || !*fc->source)
		return invalfc(fc, "no source device given");
	if (!(fc->sb_flags & SB_RDONLY))
		mode |= FMODE_WRITE;

	bdev = blkdev_get_by_path(fc->source, mode, fsi);
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

	if (!blk_queue_dax(bdev_get_queue(bdev))) {
		errorfc(fc, "%s: device does not support DAX (raw-mode namespace?)",
			fc->source);
		rc = -EOPNOTSUPP;
		goto out_put;
	}

	dax_dev = fs_dax_get_by_bdev(bdev, &start_off, fsi,
				     &famfs_dax_holder_ops);
	if (!dax_dev) {
		errorfc(fc, "%s: its dax device is held by someone else",
			fc->source);
		rc = -EBUSY;
		goto out_put;
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
		fs_put_dax(dax_dev, fsi);
		goto out_put;
	}
	invalidate_bdev(bdev);

	b->bdev = bdev;
	b->bdev_mode = mode;
	b->dax_dev = dax_dev;
	b->dax_start = start_off;
	b->size = bdev_nr_bytes(bdev);
	if (b->size < FAMFS_EXTENT_ALIGN) {
		errorfc(fc, "%s: device too small (%llu bytes)", fc->source,
			b->size);
		famfs_backing_close(fsi);
		return -EINVAL;
	}
	return 0;

out_put:
	blkdev_put(bdev, mode);
	return rc;
}

/* Undo famfs_backing_open_bdev(); fine on a backing that was never opened. */
void famfs_backing_close(struct famfs_sb_info *fsi)
{
	struct famfs_backing *b = &fsi->backing;

	if (b->dax_dev) {
		mutex_lock(&famfs_holder_lock);
		fs_put_dax(b->dax_dev, fsi);
		mutex_unlock(&famfs_holder_lock);
		b->dax_dev = NULL;
	}
	if (b->bdev) {
		/* Let later buffered reads of the device see the files' data. */
		invalidate_bdev(b->bdev);
		blkdev_put(b->bdev, b->bdev_mode);
		b->bdev = NULL;
	}
}
