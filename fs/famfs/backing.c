// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - the memory behind a mount: holding it, its failures, its removal
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
 * Memory failure policy: the whole mount fails, whichever device failed.  famfs cannot tell which
 * other host wrote what where, a failure report may cover metadata (the
 * superblock or log files) as well as data, and the application data sets
 * famfs is for are consumed whole; so after the first failure every data
 * access on the mount (read, write, fault, fsync, MAP_CREATE) gets EIO or
 * SIGBUS, processes that have the failed range mapped get SIGBUS right away,
 * every existing mapping of every file is torn down, and unmount still works.
 * The metadata (names, maps) stays readable so user space can see what was
 * lost.
 *
 * Removal of the device while mounted (namespace disabled, devdax unbound):
 * the mount fails the same way, except that nobody is sent SIGBUS before it
 * touches the memory, and every file also drops its DAX entries for that
 * device's memory before its pages go away, so nothing (eviction at unmount
 * included) looks at them afterwards; its entries for the mount's other
 * devices stay, for the page pins there (pins.c); and the removal waits
 * until no page of the device is referenced (pins.c; where it waits:
 * famfs_backing_gone()).
 *
 * A device becomes the holder of its dax_device (or devdax claim) and is
 * registered in one step, after every check of the open (open.c,
 * members.c): a removal or a memory failure that finds it as holder finds
 * a device of the mount, never one that a failing mount or DEV_ADD is
 * about to free.
 */

#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include "famfs.h"
#include "trace.h"

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
static void famfs_wait_backing_closed(u64 id, const char *who)
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
 * Call @fn on every inode of @sb that has a map, holding a reference; @dev
 * is passed on.
 */
static void famfs_apply_mapped(struct super_block *sb,
			       void (*fn)(struct inode *inode, u32 dev),
			       u32 dev)
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

		fn(inode, dev);
		iput(toput);
		toput = inode;
		cond_resched();

		spin_lock(&sb->s_inode_list_lock);
	}
	spin_unlock(&sb->s_inode_list_lock);
	iput(toput);
}

/* Tear down every user mapping of a file so the next access faults. */
static void famfs_unmap_inode(struct inode *inode, u32 dev)
{
	/* Private copies made by COW are not in famfs memory: keep. */
	unmap_mapping_range(inode->i_mapping, 0, 0, 0);
}

/*
 * Device @dev of the mount is going away: drop a file's mappings, all of
 * them (the mount has failed), and its DAX entries for memory of @dev
 * (famfs_detach_dev(): its entries for the other devices stay, and with
 * them the record of which of their pages are referenced).  New faults
 * fail already; the invalidation waits for a fault still in flight from
 * before, and the second zap takes away a mapping it may have installed.
 * Pages still referenced (a pipe, O_DIRECT) are not waited for here, under
 * s_umount: famfs_backing_gone() waits for every page of the device after.
 */
static void famfs_drop_inode(struct inode *inode, u32 dev)
{
	struct address_space *mapping = inode->i_mapping;

	unmap_mapping_range(mapping, 0, 0, 0);
	famfs_detach_dev(inode, dev);
	unmap_mapping_range(mapping, 0, 0, 0);
}

/*
 * Inodes being evicted are skipped by famfs_apply_mapped(), but their DAX
 * entries name pages of the device too: wait until each has dropped them
 * (famfs_evict_inode() does, waiting for nothing this caller holds).
 */
static void famfs_wait_evictions(struct super_block *sb)
{
	struct inode *inode;
	bool busy;

	do {
		busy = false;
		spin_lock(&sb->s_inode_list_lock);
		list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
			if ((READ_ONCE(inode->i_state) & (I_FREEING | I_WILL_FREE)) &&
			    !mapping_empty(&inode->i_data)) {
				busy = true;
				break;
			}
		}
		spin_unlock(&sb->s_inode_list_lock);
		if (busy)
			schedule_timeout_uninterruptible(1);
	} while (busy);
}

/* Send SIGBUS to whoever maps the failed range of each file it hits. */
static void famfs_kill_range(struct famfs_sb_info *fsi, u32 dev, u64 start,
			     u64 end, int mf_flags)
{
	u64 cursor = start;

	while (cursor < end) {
		const struct famfs_kext *ext;
		struct inode *inode = NULL;
		u64 s, e;

		mutex_lock(&fsi->map_lock);
		ext = famfs_ext_first_overlap(fsi, dev, cursor, end);
		if (!ext) {
			mutex_unlock(&fsi->map_lock);
			break;
		}
		s = max(cursor, ext->dev_off);
		e = min(end, ext->dev_off + ext->len);
		cursor = ext->dev_off + ext->len;
		/*
		 * The map (and @ext) lives as long as the inode; a deleted
		 * file's map kept for its referenced pages has none (pins.c).
		 */
		inode = ext->fmap->inode ? igrab(ext->fmap->inode) : NULL;
		mutex_unlock(&fsi->map_lock);

		if (!inode)
			continue;
		/* A strip: one run of file bytes per chunk, unused space none. */
		while (s < e) {
			u64 run_end, fs, fe;
			bool used = famfs_kext_file_off(ext, s, &fs, &run_end);

			run_end = min(run_end, e);
			if (!used) {
				famfs_err(fsi->sb, "memory failure in strip memory of inode %lu that holds no file bytes (device bytes %llu..%llu)",
					  inode->i_ino, s, run_end - 1);
				s = run_end;
				continue;
			}
			fe = fs + (run_end - s);
			s = run_end;
			famfs_err(fsi->sb, "memory failure hits inode %lu, file bytes %llu..%llu",
				  inode->i_ino, fs, fe - 1);
			mf_dax_kill_procs(inode->i_mapping, fs >> PAGE_SHIFT,
					  DIV_ROUND_UP(fe, PAGE_SIZE) -
					  (fs >> PAGE_SHIFT), mf_flags);
			/* 1 GiB mappings have no DAX entry to find them by */
			famfs_pud_kill(inode, fs, fe, mf_flags);
		}
		iput(inode);
	}
}

/* " (member device N)" for a member's messages, "" for the primary's. */
static const char *famfs_which(const struct famfs_backing *b, char *buf,
			       size_t size)
{
	if (!b->index)
		return "";
	snprintf(buf, size, " (member device %u)", b->index);
	return buf;
}

/*
 * Fail the mount for a memory failure in bytes [@start, @end) of device @b,
 * and kill whoever maps them.
 *
 * Context: called with famfs_holder_lock held, returns with it released.
 * Lock order: s_umount -> famfs_holder_lock (unmount holds s_umount while
 * famfs_backing_close() waits for famfs_holder_lock), so s_umount is taken
 * only once famfs_holder_lock is dropped, with an active reference keeping
 * the mount alive meanwhile; a remount in progress is waited for (and if
 * the mount is unmounted meanwhile, that unmount completes here).
 *
 * Return: 0, or -EBUSY if the mount is being unmounted: it has no open file
 * left to kill through, and its pages may be in the middle of eviction.  The
 * caller then lets the kernel's generic handler have the failure (it finds
 * the page's file itself, under the DAX entry lock), rather than report it
 * as recovered.
 */
static int famfs_fail_range(struct famfs_backing *b, u64 start, u64 end,
			    int mf_flags)
{
	struct famfs_sb_info *fsi = b->fsi;
	struct super_block *sb = fsi->sb;
	char buf[32];

	lockdep_assert_held(&famfs_holder_lock);
	WRITE_ONCE(b->failed, true);
	/* Once per mount: not subject to the mount's message rate limit. */
	if (!test_and_set_bit(FAMFS_SB_FAILED, &fsi->flags))
		pr_err("famfs (%s): memory failure at device bytes %llu..%llu%s: all data access on this mount now fails with EIO\n",
		       sb ? sb->s_id : fsi->id, start, end - 1,
		       famfs_which(b, buf, sizeof(buf)));
	/* No super block: an unmount left it to a worker (pins.c). */
	if (!sb || !atomic_inc_not_zero(&sb->s_active)) {
		/* Before the unlock: then @fsi and @sb may go. */
		pr_err("famfs (%s): memory failure at device bytes %llu..%llu%s while the mount is going away: left to the kernel's handler\n",
		       sb ? sb->s_id : fsi->id, start, end - 1,
		       famfs_which(b, buf, sizeof(buf)));
		mutex_unlock(&famfs_holder_lock);
		return -EBUSY;
	}
	mutex_unlock(&famfs_holder_lock);

	down_read(&sb->s_umount);
	if (sb->s_root) {
		famfs_kill_range(fsi, b->index, start, end, mf_flags);
		famfs_apply_mapped(sb, famfs_unmap_inode, 0);
	}
	up_read(&sb->s_umount);
	deactivate_super(sb);
	return 0;
}

/*
 * What a removal waits for once the mount has let go of the device's DAX
 * entries: until no page of the device is referenced.  @sb holds an active
 * reference on the mount, or is NULL if an unmount had the mount (then the
 * wait starts once it has closed the device).  @pgmap, if set, is a
 * reference on the device's page map that keeps its struct pages: the
 * removal is waited for by a worker, see famfs_backing_gone().
 */
struct famfs_removal {
	struct work_struct	work;
	struct super_block	*sb;
	struct famfs_sb_info	*fsi;
	struct famfs_backing	*b;
	struct dev_pagemap	*pgmap;
	u64			id;
	unsigned long		pfn, nr;
	char			name[32];
};

static void famfs_removal_wait(struct famfs_removal *r)
{
	if (!r->sb) {
		famfs_wait_backing_closed(r->id, r->name);
		famfs_wait_range_idle(NULL, r->name, r->pfn, r->nr);
		return;
	}
	famfs_wait_range_idle(r->fsi, r->name, r->pfn, r->nr);
	famfs_zombies_gone(r->fsi, r->b);
	deactivate_super(r->sb);
}

static void famfs_removal_work(struct work_struct *work)
{
	struct famfs_removal *r = container_of(work, struct famfs_removal,
					       work);

	famfs_removal_wait(r);
	/* The device's struct pages may go now (memunmap_pages()). */
	put_dev_pagemap(r->pgmap);
	kfree(r);
	/* famfs_pins_exit() waits for the rest of this function. */
	module_put(THIS_MODULE);
}

/*
 * A reference on the page map of the device's pages [@pfn, @pfn + @nr),
 * or NULL if one page map does not cover them all.
 */
static struct dev_pagemap *famfs_hold_pgmap(unsigned long pfn,
					    unsigned long nr)
{
	struct dev_pagemap *pgmap = nr ? get_dev_pagemap(pfn, NULL) : NULL;

	if (pgmap && (pgmap->nr_range != 1 ||
		      PFN_PHYS(pfn + nr) - 1 > pgmap->range.end)) {
		put_dev_pagemap(pgmap);
		pgmap = NULL;
	}
	return pgmap;
}

/*
 * The device behind a mount is going away: fail the mount, drop every DAX
 * entry of every file for that device's memory (see famfs_drop_inode()),
 * and wait until no page of the device is referenced any more, before the
 * device's pages go.  One of the mount's devices is the holder of @dax_dev
 * (pmem) or of @fdd (devdax); there may be none.
 *
 * famfs_holder_lock is dropped before waiting for s_umount, which unmount
 * holds while it waits for famfs_holder_lock; an active reference keeps the
 * mount alive meanwhile.  If there is none left, an unmount is evicting
 * every inode and waiting for deleted files' referenced pages (pins.c):
 * wait for it to let go of the device, then for the pages.
 *
 * Where the wait runs.  devdax (famfs's own driver, devdax.c): here, in
 * the unbinding task, which holds the device lock.  pmem: this runs inside
 * kill_dax()'s dax_srcu read section (dax_holder_notify_failure() holds
 * it around the call), and kill_dax() is the only synchronize_srcu() of
 * dax_srcu: a wait here would stall every other dax removal on the
 * machine, whatever device it is, for as long as a pipe holds a page of
 * this one.  So it only drops the entries here, takes a reference on the
 * device's page map, and leaves the wait to a worker; the page map
 * reference is what keeps the struct pages: pmem's removal frees them in
 * memunmap_pages() after kill_dax() returns, and memunmap_pages() waits
 * until the worker puts the reference.  The remover then waits there
 * (uninterruptibly, with the device lock held; the kernel's hung task
 * detector names it after 2 minutes), the worker logs what it waits for
 * every 10 s.  Without the page map reference (no memory for the worker,
 * or an unexpected page map) it waits here, as devdax does.
 *
 * The wait holds no famfs lock and not s_umount, and is not interruptible,
 * not even by SIGKILL: the pages would be freed while in use.
 */
static void famfs_backing_gone(struct dax_device *dax_dev,
			       struct famfs_daxdev *fdd)
{
	struct famfs_removal here = { 0 }, *r = &here;
	struct famfs_sb_info *fsi;
	struct famfs_backing *b;
	struct super_block *sb;
	char buf[32];

	/* pmem: what the worker needs (if this fails, wait here). */
	if (dax_dev)
		r = kzalloc(sizeof(*r), GFP_KERNEL) ?: &here;
	mutex_lock(&famfs_holder_lock);
	b = fdd ? fdd->holder : dax_holder(dax_dev);
	if (!b) {
		mutex_unlock(&famfs_holder_lock);
		if (r != &here)
			kfree(r);
		return;
	}
	fsi = b->fsi;
	/* NULL if an unmount left @fsi to a worker (pins.c). */
	sb = fsi->sb;
	r->fsi = fsi;
	r->b = b;
	r->id = b->id;
	r->pfn = b->pfn;
	r->nr = b->size >> PAGE_SHIFT;
	strscpy(r->name, sb ? sb->s_id : fsi->id, sizeof(r->name));
	trace_famfs_notify_failure(sb, 0, U64_MAX, 0);
	WRITE_ONCE(b->failed, true);
	if (!test_and_set_bit(FAMFS_SB_FAILED, &fsi->flags))
		pr_err("famfs (%s): the device%s is going away: all data access on this mount now fails with EIO\n",
		       r->name, famfs_which(b, buf, sizeof(buf)));
	/* Pairs with smp_mb() in famfs_iomap_begin(). */
	smp_mb__after_atomic();
	if (sb && atomic_inc_not_zero(&sb->s_active))
		r->sb = sb;
	mutex_unlock(&famfs_holder_lock);

	if (r->sb) {
		down_read(&sb->s_umount);
		if (sb->s_root) {
			famfs_apply_mapped(sb, famfs_drop_inode, b->index);
			famfs_wait_evictions(sb);
		}
		up_read(&sb->s_umount);
	}
	/* pmem: the wait goes to a worker, outside dax_srcu. */
	if (r != &here)
		r->pgmap = famfs_hold_pgmap(r->pfn, r->nr);
	if (!r->pgmap) {
		famfs_removal_wait(r);
		if (r != &here)
			kfree(r);
		return;
	}
	__module_get(THIS_MODULE);
	INIT_WORK(&r->work, famfs_removal_work);
	famfs_pins_queue(&r->work);
}

/* Clip a dax_device range to the device's part of it; false if outside. */
static bool famfs_clip(const struct famfs_backing *b, u64 offset, u64 len,
		       u64 *start, u64 *end)
{
	if (check_add_overflow(offset, len, end))
		*end = U64_MAX;
	*start = max(offset, b->dax_start);
	*end = min(*end, b->dax_start + b->size);
	if (*start >= *end)
		return false;
	*start -= b->dax_start;
	*end -= b->dax_start;
	return true;
}

static int famfs_dax_notify_failure(struct dax_device *dax_dev, u64 offset,
				    u64 len, int mf_flags)
{
	struct famfs_backing *b;
	u64 start, end;
	int rc = -EOPNOTSUPP;

	/* kill_dax(): the pmem device is being removed. */
	if (offset == 0 && len == U64_MAX) {
		famfs_backing_gone(dax_dev, NULL);
		return 0;
	}

	mutex_lock(&famfs_holder_lock);
	b = dax_holder(dax_dev);
	if (!b)
		goto out_unlock;
	trace_famfs_notify_failure(b->fsi->sb, offset, len, mf_flags);
	rc = -ENXIO;
	if (!famfs_clip(b, offset, len, &start, &end))
		goto out_unlock;
	/* Unmounting: memory_failure()'s generic handler then runs. */
	rc = famfs_fail_range(b, start, end, mf_flags);
	return rc == -EBUSY ? -EOPNOTSUPP : rc;

out_unlock:
	mutex_unlock(&famfs_holder_lock);
	return rc;
}

const struct dax_holder_operations famfs_dax_holder_ops = {
	.notify_failure		= famfs_dax_notify_failure,
};

/**
 * famfs_backing_devdax_failure() - a memory failure in a devdax backing
 * @fdd: the device
 * @offset: first failed byte of the device
 * @len: bytes
 * @mf_flags: memory failure flags
 *
 * Return: 0 if a mount was told, -EOPNOTSUPP if the device is not mounted,
 * -EBUSY if its mount is being unmounted (see famfs_fail_range()).
 */
int famfs_backing_devdax_failure(struct famfs_daxdev *fdd, u64 offset,
				 u64 len, int mf_flags)
{
	struct famfs_backing *b;
	u64 start, end;

	mutex_lock(&famfs_holder_lock);
	b = fdd->holder;
	if (!b) {
		mutex_unlock(&famfs_holder_lock);
		return -EOPNOTSUPP;
	}
	trace_famfs_notify_failure(b->fsi->sb, offset, len, mf_flags);
	if (!famfs_clip(b, offset, len, &start, &end)) {
		mutex_unlock(&famfs_holder_lock);
		return 0;
	}
	return famfs_fail_range(b, start, end, mf_flags);
}

/* A devdax backing is being unbound: see famfs_backing_gone(). */
void famfs_backing_devdax_gone(struct famfs_daxdev *fdd)
{
	famfs_backing_gone(NULL, fdd);
}

/*
 * A device is open and held: removal may wait for it to be closed.
 * Context: famfs_holder_lock held, in the step that makes @b a holder.
 */
void famfs_backing_register(struct famfs_backing *b)
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
int famfs_backing_hold_bdev(struct famfs_backing *b, struct block_device *bdev)
{
	struct dax_device *held;
	u64 start_off;

	mutex_lock(&famfs_holder_lock);
	held = fs_dax_get_by_bdev(bdev, &start_off, b, &famfs_dax_holder_ops);
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
