// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - memory failures in a mount's devices, and their removal
 *
 * Memory failure policy: the whole mount fails, whichever device failed.
 * famfs cannot tell which other host wrote what where, a failure report may
 * cover metadata (the superblock or log files) as well as data, and the
 * application data sets famfs is for are consumed whole; so after the first
 * failure every data access on the mount (read, write, fault, fsync,
 * MAP_CREATE) gets EIO or SIGBUS, processes that have the failed range
 * mapped get SIGBUS right away, every existing mapping of every file is
 * torn down, and unmount still works.  The metadata (names, maps) stays
 * readable so user space can see what was lost.
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
 * Both come in through the holder operations here, which the opener of a
 * device registers with it (open.c, members.c): famfs_dax_holder_ops for a
 * pmem device's dax_device, famfs_daxdev_holder_ops for a /dev/daxX.Y
 * (devdax.c).  Each finds the device's holder under famfs_holder_lock
 * (backing.c), or none if the mount let go of it meanwhile.
 *
 * Layer "removal" (scripts/layers.conf): the whole sequence of a failure
 * and of a removal is here, calling down into pins.c (the files' pages),
 * pud.c (who maps a failed page with a 1 GiB mapping), map.c (which file a
 * device range is) and backing.c (the holder, its lock, the wait for an
 * unmount to close the device); nothing below calls up into it.
 */

#include <linux/dax.h>
#include <linux/memremap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include "famfs.h"
#include "trace.h"

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

/*
 * Tear down every user mapping of a file so the next access faults, after
 * the 1 GiB faults in flight (pud.c: they insert without a DAX entry, which
 * nothing here could wait for).
 */
static void famfs_unmap_inode(struct inode *inode, u32 dev)
{
	famfs_pud_quiesce(inode);
	/* Private copies made by COW are not in famfs memory: keep. */
	unmap_mapping_range(inode->i_mapping, 0, 0, 0);
}

/*
 * Device @dev of the mount is going away: drop a file's mappings, all of
 * them (the mount has failed), and its DAX entries for memory of @dev
 * (famfs_detach_dev(): its entries for the other devices stay, and with
 * them the record of which of their pages are referenced).  New faults
 * fail already; the invalidation waits for a fault still in flight from
 * before, famfs_pud_quiesce() for a 1 GiB one (it has no DAX entry), and
 * the second zap takes away a mapping either may have installed.
 * Pages still referenced (a pipe, O_DIRECT) are not waited for here, under
 * s_umount: famfs_backing_gone() waits for every page of the device after.
 */
static void famfs_drop_inode(struct inode *inode, u32 dev)
{
	struct address_space *mapping = inode->i_mapping;

	unmap_mapping_range(mapping, 0, 0, 0);
	famfs_detach_dev(inode, dev);
	famfs_pud_quiesce(inode);
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

/*
 * Send SIGBUS to whoever maps the failed range of each file it hits.
 *
 * An extent in the tree can belong to a map that is not published, and may
 * never be: MAP_CREATE inserts the map with its inode set before it drops
 * this host's cache lines of the memory (FAMFS_IOC_MAP_INVALIDATE), and
 * removes and frees it if that fails, which this very failure can make it
 * do (EIO), while the inode lives on.  A reference on the inode therefore
 * does not keep the extent: what is needed of it is copied under map_lock
 * (famfs_kext_snap()) and only the copy is used after.  The file of an
 * unpublished map has no mapping of it to kill, and the copy's file offsets
 * are not the file's (a later MAP_CREATE may publish another map): the copy
 * is used on the file only if its map is the one the file has published
 * (famfs_kext_copy_published(), with the reference on the inode held).
 */
static void famfs_kill_range(struct famfs_sb_info *fsi, u32 dev, u64 start,
			     u64 end, int mf_flags)
{
	u64 cursor = start;

	while (cursor < end) {
		const struct famfs_kext *found;
		const struct famfs_kext *ext;
		struct famfs_kext_copy copy;
		struct inode *inode = NULL;
		u64 s, e;

		mutex_lock(&fsi->map_lock);
		found = famfs_ext_first_overlap(fsi, dev, cursor, end);
		if (!found) {
			mutex_unlock(&fsi->map_lock);
			break;
		}
		famfs_kext_snap(&copy, found);
		ext = &copy.ext;
		s = max(cursor, ext->dev_off);
		e = min(end, ext->dev_off + ext->len);
		cursor = ext->dev_off + ext->len;
		/*
		 * A deleted file's map kept for its referenced pages has no
		 * inode (pins.c).  @found is not looked at after the unlock.
		 */
		inode = found->fmap->inode ? igrab(found->fmap->inode) : NULL;
		mutex_unlock(&fsi->map_lock);

		if (!inode)
			continue;
		if (!famfs_kext_copy_published(&copy, inode)) {
			famfs_err(fsi->sb, "memory failure in memory of inode %lu whose map is not published: no file bytes to kill (device bytes %llu..%llu)",
				  inode->i_ino, s, e - 1);
			iput(inode);
			continue;
		}
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
	/* Pairs with smp_mb() in famfs_iomap_begin() and famfs_pud_insert(). */
	smp_mb__after_atomic();
	if (sb && atomic_inc_not_zero(&sb->s_active))
		r->sb = sb;
	/*
	 * While @b is the holder, its mount (or the unmount's worker, pins.c)
	 * keeps the module loaded; once the lock is dropped it may let go of
	 * the device, and the module could be unloaded under the rest of
	 * this function and the worker.  So the reference is taken here.
	 */
	__module_get(THIS_MODULE);
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
		/*
		 * Only the return to the caller (kill_dax(), devdax's remove)
		 * is left; devdax's remove also keeps the driver, and with it
		 * the module, until it returns.
		 */
		module_put(THIS_MODULE);
		return;
	}
	/* The worker puts the module reference. */
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

/*
 * A memory failure in a devdax backing: @offset and @len in the device.
 * Return: 0 if a mount was told, -EOPNOTSUPP if the device is not mounted,
 * -EBUSY if its mount is being unmounted (see famfs_fail_range()).
 */
static int famfs_daxdev_notify_failure(struct famfs_daxdev *fdd, u64 offset,
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
static void famfs_daxdev_gone(struct famfs_daxdev *fdd)
{
	famfs_backing_gone(NULL, fdd);
}

/* What devdax.c tells the mount's device that claimed a /dev/daxX.Y. */
const struct famfs_daxdev_holder_ops famfs_daxdev_holder_ops = {
	.notify_failure		= famfs_daxdev_notify_failure,
	.gone			= famfs_daxdev_gone,
};
