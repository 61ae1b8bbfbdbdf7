// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - the memory behind a mount: holding its devices and letting go
 *
 * A mount's memory is a pmem block device in fsdax mode, opened exclusively
 * (so a second mount of the same device, or a mount of a device some other
 * file system holds, fails with EBUSY), whose dax_device the mount holds to
 * hear about memory failures; or a /dev/daxX.Y bound to famfs's dax-bus
 * driver (devdax.c), which the mount claims the same way and which tells
 * the mount about failures itself.
 *
 * A mount may have several devices (members.c): each is held the same way,
 * as its own holder (struct famfs_backing), and what follows holds for each.
 *
 * A device becomes the holder of its dax_device (or devdax claim) and is
 * registered in one step, after every check of the open (open.c,
 * members.c): a removal or a memory failure that finds it as holder finds
 * a device of the mount, never one that a failing mount or DEV_ADD is
 * about to free.  What the holder is told of failures and of the removal
 * (removal.c) is the holder operations its opener passes in: they are
 * called through the dax_device (pmem) or by devdax.c, never from here.
 *
 * Layer "hold" (scripts/layers.conf): owns famfs_holder_lock, the list of
 * open devices (what a removal waits on while an unmount closes them) and
 * the per-device helpers (flush, read-only, the write-back dax_device);
 * calls devdax.c only.
 */

#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/slab.h>
#include "famfs.h"

/*
 * Serializes memory failure notifications with the release of the holder at
 * unmount: a notification either sees the mount's famfs_sb_info as holder and
 * finishes with it before unmount frees it, or sees no holder at all.  Also
 * protects famfs_backings and famfs_backing_ids.
 */
DEFINE_MUTEX(famfs_holder_lock);

/* Every open backing, by id: what removal waits on while an unmount runs. */
static LIST_HEAD(famfs_backings);
static u64 famfs_backing_ids;
static DECLARE_WAIT_QUEUE_HEAD(famfs_backing_wq);

static bool famfs_backing_is_open(u64 id)
{
	struct famfs_backing *b;
	bool open = false;

	mutex_lock(&famfs_holder_lock);
	list_for_each_entry(b, &famfs_backings, live)
		if (b->id == id)
			open = true;
	mutex_unlock(&famfs_holder_lock);
	return open;
}

/*
 * Wait until the backing @id is closed (famfs_backing_close() wakes us).
 * famfs_backing_is_open() takes a mutex, so it cannot be a wait_event()
 * condition (evaluated in TASK_UNINTERRUPTIBLE); wait_woken() lets it run
 * in TASK_RUNNING without missing the wakeup.  The unmount may wait for
 * pages held by user space for as long as it likes (pins.c): log every 10 s,
 * which also keeps the hung task detector quiet, as the page waits do.
 */
void famfs_wait_backing_closed(u64 id, const char *who)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	unsigned long secs = 0;

	add_wait_queue(&famfs_backing_wq, &wait);
	while (famfs_backing_is_open(id)) {
		if (wait_woken(&wait, TASK_UNINTERRUPTIBLE, 10 * HZ))
			continue;
		secs += 10;
		pr_warn("famfs (%s): removal still waiting after %lus for the unmount to let go of the device\n",
			who, secs);
	}
	remove_wait_queue(&famfs_backing_wq, &wait);
}

/*
 * A device is open and held: removal may wait for it to be closed.
 * Context: famfs_holder_lock held, in the step that makes @b a holder.
 */
static void famfs_backing_register(struct famfs_backing *b)
{
	lockdep_assert_held(&famfs_holder_lock);
	b->id = ++famfs_backing_ids;
	list_add(&b->live, &famfs_backings);
}

/**
 * famfs_backing_hold_bdev() - become the holder of a pmem device's dax_device
 * @b: the device's backing, every field set (@b->dax_dev: a reference the
 *     caller took without holding it, for its checks)
 * @bdev: the block device, opened exclusively
 * @ops: what the holder is told of memory failures and of the removal
 *
 * The last step of opening a pmem device, after every check: holding the
 * dax_device and registering @b are one step under famfs_holder_lock, and
 * nothing fails after it, so a removal or memory failure that finds @b as
 * holder finds a device of the mount (see the top of this file).
 *
 * Return: 0, @b holds @b->dax_dev (the caller's reference is now the
 * holder's); or -EBUSY if another holder took it since the caller looked
 * (the caller's reference is still the caller's).
 */
int famfs_backing_hold_bdev(struct famfs_backing *b, struct block_device *bdev,
			    const struct dax_holder_operations *ops)
{
	struct dax_device *held;
	u64 start_off;

	mutex_lock(&famfs_holder_lock);
	held = fs_dax_get_by_bdev(bdev, &start_off, b, ops);
	if (held && WARN_ON_ONCE(held != b->dax_dev ||
				 start_off != b->dax_start)) {
		fs_put_dax(held, b);
		held = NULL;
	}
	if (held)
		famfs_backing_register(b);
	mutex_unlock(&famfs_holder_lock);
	if (!held)
		return -EBUSY;
	/* One reference is enough: the holder's, b->dax_dev. */
	put_dax(held);
	return 0;
}

/**
 * famfs_backing_hold_devdax() - claim a /dev/daxX.Y bound to famfs
 * @b: the device's backing (@b->fsi and @b->index set)
 * @devt: the device's dev_t
 * @path: its path, for messages
 * @fc: the mount's context, for messages; NULL for a member (DEV_ADD)
 * @size: the bytes the mount uses; 0: all of the device (at least
 *	  FAMFS_EXTENT_ALIGN)
 * @dev_size: returns the device's size, if it is bound to famfs
 * @ops: what the holder is told of memory failures and of the unbind
 *
 * The last step of opening a devdax device: the claim checks the size, and
 * the claim and registering @b are one step under famfs_holder_lock, as in
 * famfs_backing_hold_bdev().
 *
 * Return: 0, @b holds the device; or famfs_daxdev_claim()'s error (-EBUSY,
 * -ENODEV: not bound to famfs, -ENOSPC: fewer than @size bytes).
 */
int famfs_backing_hold_devdax(struct famfs_backing *b, dev_t devt,
			      const char *path, struct fs_context *fc,
			      u64 size, u64 *dev_size,
			      const struct famfs_daxdev_holder_ops *ops)
{
	struct famfs_daxdev *fdd;

	mutex_lock(&famfs_holder_lock);
	fdd = famfs_daxdev_claim(devt, path, b, ops, fc,
				 size ?: FAMFS_EXTENT_ALIGN, dev_size);
	if (!IS_ERR(fdd)) {
		b->daxdev = fdd;
		b->devt = fdd->devt;
		b->dax_dev = fdd->dax_dev;
		b->dax_start = 0;
		b->size = size ?: fdd->size;
		b->pfn = PHYS_PFN(fdd->phys);
		famfs_backing_register(b);
	}
	mutex_unlock(&famfs_holder_lock);
	return PTR_ERR_OR_ZERO(fdd);
}

/*
 * Undo famfs_backing_open() (or a member's open); fine on a backing that
 * was never opened.
 */
void famfs_backing_close_one(struct famfs_backing *b)
{
	mutex_lock(&famfs_holder_lock);
	if (b->daxdev) {
		famfs_daxdev_unclaim(b->daxdev);
		b->daxdev = NULL;
	} else if (b->dax_dev) {
		fs_put_dax(b->dax_dev, b);
	}
	b->dax_dev = NULL;
	if (b->id)
		list_del(&b->live);
	mutex_unlock(&famfs_holder_lock);
	if (b->bdev) {
		/* Let later buffered reads of the device see the files' data. */
		invalidate_bdev(b->bdev);
		blkdev_put(b->bdev, b->bdev_mode);
		b->bdev = NULL;
	}
	if (b->id) {
		b->id = 0;
		wake_up_all(&famfs_backing_wq);
	}
}

/* Close every device of the mount, members first, and free the members. */
void famfs_backing_close(struct famfs_sb_info *fsi)
{
	u32 i;

	for (i = FAMFS_MAX_DEVS - 1; i > 0; i--) {
		struct famfs_backing *b = fsi->devs[i];

		if (!b)
			continue;
		famfs_backing_close_one(b);
		WRITE_ONCE(fsi->devs[i], NULL);
		kfree(b);
	}
	famfs_backing_close_one(&fsi->backing);
}

/*
 * Is the memory read-only?  A pmem block device can be (blockdev --setro, a
 * read-only region); a /dev/daxX.Y has no such state on this kernel.
 */
bool famfs_backing_read_only(const struct famfs_backing *b)
{
	return b->bdev && bdev_read_only(b->bdev);
}

/*
 * Make what reached the memory durable, as fsync on ext4 or xfs does: on
 * pmem an empty REQ_PREFLUSH bio, which the pmem driver turns into
 * nvdimm_flush() (the region's flush hints: a write to each DIMM's flush
 * address, where the platform needs it; a virtio-pmem host flush).  The
 * caller has written the CPU caches back first.  device-dax has no such
 * flush (nor has device_dax itself): nothing to do there.
 */
int famfs_backing_flush(const struct famfs_backing *b)
{
	if (!b->bdev)
		return 0;
	return blkdev_issue_flush(b->bdev);
}

/* famfs_backing_flush() of every device of the mount; the first error. */
int famfs_flush_devs(struct famfs_sb_info *fsi)
{
	int rc = 0, err;
	u32 i;

	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_backing *b = famfs_dev(fsi, i);

		if (!b)
			continue;
		err = famfs_backing_flush(b);
		if (!rc)
			rc = err;
	}
	return rc;
}

/*
 * The dax_device for writing a file's dirty DAX entries back: the first
 * device with a write cache (dax_flush() flushes nothing for the others),
 * so every device's CPU cache lines are written back when any needs it.
 */
struct dax_device *famfs_wb_dax_dev(struct famfs_sb_info *fsi)
{
	u32 i;

	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_backing *b = famfs_dev(fsi, i);

		if (b && b->dax_dev && dax_write_cache_enabled(b->dax_dev))
			return b->dax_dev;
	}
	return fsi->backing.dax_dev;
}
