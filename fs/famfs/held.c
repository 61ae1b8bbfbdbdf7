// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - FAMFSIOC_HELD: is memory of the mount still referenced here?
 *
 * The memory of a file deleted from the log may go to another file only
 * once no host references it any more (docs/lifecycle.md, "Reclaim across
 * hosts"); each host's replayer asks its famfs.ko with this call and says
 * so in its slot of the host table.  What this host can still reach is
 * exactly what the mount's extent tree holds (map.c): the maps of the
 * inodes still in memory (a file not removed here yet, or unlinked but
 * open or mapped), and the extents the zombies keep while a pipe,
 * O_DIRECT or another pin references one of their pages (pins.c).  Once
 * such an inode is evicted with no page referenced, or the last pin of a
 * zombie is dropped, its memory leaves the tree, and no reference to it
 * can appear again on this host.
 *
 * The contract (checks, errno, order) is in <linux/famfs_ioctl.h>.
 *
 * Locking: the tree and the zombies are read under fsi->map_lock, the lock
 * that eviction (famfs_zombie_add(), famfs_fmap_remove()) and MAP_CREATE
 * change them under; the zombies are reaped first, as statfs does, so a
 * pin dropped before the call counts no more.  Reaping looks at a page
 * only while its device's pages are not gone, which device removal
 * declares under the same lock (famfs_zombies_gone()).  The caller's open
 * file keeps the super block, and with it every attached device
 * (famfs_dev(): members stay until the unmount), so neither unmount nor
 * removal can free what the walk reads.  Nothing is allocated under the
 * lock, which is a mutex anyway; the ranges are copied in and out around
 * it.
 *
 * Layer "ioctl" (scripts/layers.conf): calls map.c.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/overflow.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "famfs.h"

/* The checks of range @i, in the contract's order: 0 or -EINVAL. */
static int famfs_held_check(struct super_block *sb,
			    const struct famfs_ioc_held_range *r, u32 i)
{
	u64 end;

	if (r->flags) {
		famfs_err(sb, "HELD: range %u: flags %#x, not 0", i, r->flags);
		return -EINVAL;
	}
	if (!famfs_dev(FAMFS_SB(sb), r->dev)) {
		famfs_err(sb, "HELD: range %u: no device %u in the mount", i,
			  r->dev);
		return -EINVAL;
	}
	if (!r->len || !IS_ALIGNED(r->offset, SZ_4K) ||
	    !IS_ALIGNED(r->len, SZ_4K)) {
		famfs_err(sb, "HELD: range %u: offset %llu length %llu, not whole 4 KiB pages",
			  i, r->offset, r->len);
		return -EINVAL;
	}
	if (check_add_overflow(r->offset, r->len, &end)) {
		famfs_err(sb, "HELD: range %u: offset %llu length %llu overflows",
			  i, r->offset, r->len);
		return -EINVAL;
	}
	return 0;
}

/* FAMFSIOC_HELD; the contract is in <linux/famfs_ioctl.h>. */
long famfs_ioc_held(struct file *file, struct famfs_ioc_held __user *uarg)
{
	struct super_block *sb = file_inode(file)->i_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	struct famfs_ioc_held_range *r;
	struct famfs_ioc_held h;
	size_t size;
	long rc = 0;
	u32 i;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&h, uarg, sizeof(h)))
		return -EFAULT;
	if (h.flags) {
		famfs_err(sb, "HELD: flags %#x, not 0", h.flags);
		return -EINVAL;
	}
	if (h.count > FAMFS_HELD_MAX) {
		famfs_err(sb, "HELD: %u ranges, more than %u", h.count,
			  FAMFS_HELD_MAX);
		return -E2BIG;
	}
	if (!h.count)
		return 0;
	size = array_size(h.count, sizeof(*r));
	r = kvmalloc(size, GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	if (copy_from_user(r, u64_to_user_ptr(h.ranges), size)) {
		rc = -EFAULT;
		goto out;
	}
	for (i = 0; i < h.count; i++) {
		rc = famfs_held_check(sb, &r[i], i);
		if (rc)
			goto out;
	}

	mutex_lock(&fsi->map_lock);
	famfs_zombies_reap(fsi);
	for (i = 0; i < h.count; i++) {
		r[i].held = famfs_ext_held(fsi, r[i].dev, r[i].offset,
					   r[i].offset + r[i].len,
					   &r[i].flags);
		cond_resched();
	}
	mutex_unlock(&fsi->map_lock);

	if (copy_to_user(u64_to_user_ptr(h.ranges), r, size))
		rc = -EFAULT;
out:
	kvfree(r);
	return rc;
}
