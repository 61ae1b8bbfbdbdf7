// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - several memory devices under one mount: FAMFSIOC_DEV_ADD, DEV_GET
 *
 * Device 0 of a mount is the primary, the device mount(2) named.  User
 * space, which owns the metadata (and knows which local device is member N
 * from the member's superblock), attaches members 1..FAMFS_MAX_DEVS-1 with
 * FAMFSIOC_DEV_ADD, on any file or directory of the mount, before it maps
 * files on them (FAMFSIOC_MAP_CREATE_V3, ioctl_v3.c).
 *
 * A member is held exactly like the primary (backing.c): a pmem block
 * device is opened exclusively and its dax_device held with famfs's holder
 * operations; a /dev/daxX.Y bound to famfs is claimed (devdax.c).  The
 * holder is the member's own struct famfs_backing, so memory failures and
 * removal name the device; the policy is the primary's: the whole mount
 * fails (EIO, SIGBUS), because a file striped over devices, the log and the
 * metadata cannot be told apart from what they depend on; unmount still
 * works and releases every member (famfs_backing_close()).
 *
 * Members are never detached while mounted: a map may name them, and the
 * data path uses famfs_dev() without a lock.  fsi->dev_lock serializes
 * DEV_ADD, which holds s_umount for read so that a remount does not change
 * sb_rdonly() under it (lock order: s_umount -> dev_lock ->
 * famfs_holder_lock); a member is published (smp_store_release()) only once it is
 * completely set up.  The errors, in the order they are checked, are in
 * <linux/famfs_ioctl.h>.
 *
 * Layer "open" (scripts/layers.conf), with open.c: owns fsi->devs and
 * fsi->dev_lock; calls open.c (famfs_dax_pages()), backing.c to hold a
 * member with removal.c's holder operations.
 */

#include <linux/blkdev.h>
#include <linux/capability.h>
#include <linux/dax.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/pfn_t.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "famfs.h"

#define famfs_dev_err(sb, idx, file, fmt, ...)				\
	famfs_err(sb, "DEV_ADD: device %u (%pD): " fmt, idx, file,	\
		  ##__VA_ARGS__)

/*
 * A pmem block device (fsdax) as member @b, opened exclusively.  Every
 * check comes before @b becomes the holder of its dax_device and is
 * registered (famfs_backing_hold_bdev()): a removal or a memory failure of
 * a device that a failing DEV_ADD looks at does not reach the mount.
 */
static int famfs_member_open_bdev(struct super_block *sb,
				  struct famfs_backing *b, struct file *file,
				  u64 size)
{
	struct block_device *fbdev = I_BDEV(file->f_mapping->host);
	fmode_t mode = FMODE_READ | FMODE_EXCL;
	struct block_device *bdev;
	struct dax_device *dax_dev;
	unsigned long pfn = 0;
	u64 start_off = 0;
	const char *why;
	int rc;

	if (!blk_queue_dax(bdev_get_queue(fbdev))) {
		famfs_dev_err(sb, b->index, file, "device does not support DAX (raw-mode namespace?)");
		return -EOPNOTSUPP;
	}
	if (!sb_rdonly(sb))
		mode |= FMODE_WRITE;
	bdev = blkdev_get_by_dev(fbdev->bd_dev, mode, b);
	if (IS_ERR(bdev)) {
		famfs_dev_err(sb, b->index, file, "cannot open the device exclusively: %pe",
			      bdev);
		return PTR_ERR(bdev);
	}
	/* Looked at, not held: that is the last step. */
	dax_dev = fs_dax_get_by_bdev(bdev, &start_off, NULL, NULL);
	if (!dax_dev) {
		famfs_dev_err(sb, b->index, file, "the device has no live dax device");
		rc = -EOPNOTSUPP;
		goto out_put;
	}
	if (dax_holder(dax_dev)) {
		famfs_dev_err(sb, b->index, file, "its dax device is held by someone else");
		rc = -EBUSY;
		goto out_put_dax;
	}
	if (!sb_rdonly(sb) && bdev_read_only(bdev)) {
		famfs_dev_err(sb, b->index, file, "the device is read-only and the mount is not");
		rc = -EROFS;
		goto out_put_dax;
	}
	/* Up to its end if it is too small: that is the next check. */
	why = famfs_dax_pages(dax_dev, start_off,
			      min_t(u64, size, bdev_nr_bytes(bdev)), &pfn);
	if (why) {
		famfs_dev_err(sb, b->index, file, "%s", why);
		rc = -EOPNOTSUPP;
		goto out_put_dax;
	}
	if (bdev_nr_bytes(bdev) < size) {
		famfs_dev_err(sb, b->index, file, "the device has %llu bytes, fewer than the %llu the file system records",
			      bdev_nr_bytes(bdev), size);
		rc = -ENOSPC;
		goto out_put_dax;
	}
	/* As at mount: earlier buffered writes reach memory, none stay. */
	rc = sync_blockdev(bdev);
	if (rc) {
		famfs_dev_err(sb, b->index, file, "cannot flush the device's page cache: %pe",
			      ERR_PTR(rc));
		goto out_put_dax;
	}
	invalidate_bdev(bdev);

	b->bdev = bdev;
	b->devt = bdev->bd_dev;
	b->bdev_mode = mode;
	b->dax_dev = dax_dev;
	b->dax_start = start_off;
	b->size = size;
	b->pfn = pfn;
	rc = famfs_backing_hold_bdev(b, bdev, &famfs_dax_holder_ops);
	if (!rc)
		return 0;
	famfs_dev_err(sb, b->index, file, "its dax device is held by someone else");
	b->bdev = NULL;
	b->dax_dev = NULL;
out_put_dax:
	put_dax(dax_dev);
out_put:
	blkdev_put(bdev, mode);
	return rc;
}

/* A /dev/daxX.Y bound to famfs as member @b. */
static int famfs_member_open_devdax(struct super_block *sb,
				    struct famfs_backing *b, struct file *file,
				    u64 size)
{
	dev_t devt = file_inode(file)->i_rdev;
	u64 dev_size = 0;
	int rc;

	if (!IS_ENABLED(CONFIG_FAMFS_DEVDAX)) {
		famfs_dev_err(sb, b->index, file, "famfs.ko was built without /dev/daxX.Y support");
		return -EOPNOTSUPP;
	}
	/* @size bytes of it (DEV_ADD checked that it is not 0). */
	rc = famfs_backing_hold_devdax(b, devt,
				       file->f_path.dentry->d_name.name, NULL,
				       size, &dev_size,
				       &famfs_daxdev_holder_ops);
	switch (rc) {
	case 0:
		return 0;
	case -ENODEV:
		famfs_dev_err(sb, b->index, file, "not a dax device bound to famfs (famfs bind DEVICE)");
		return -EOPNOTSUPP;
	case -ENOSPC:
		famfs_dev_err(sb, b->index, file, "the device has %llu bytes, fewer than the %llu the file system records",
			      dev_size, size);
		return -ENOSPC;
	default:
		famfs_dev_err(sb, b->index, file, "device is busy: %pe",
			      ERR_PTR(rc));
		return rc;
	}
}

/* The header checks: reserved fields, index, size. */
static int famfs_dev_add_check(struct super_block *sb,
			       const struct famfs_ioc_dev_add *arg)
{
	if (arg->flags || arg->reserved ||
	    memchr_inv(arg->reserved2, 0, sizeof(arg->reserved2))) {
		famfs_err(sb, "DEV_ADD: flags %#x or reserved fields are not 0",
			  arg->flags);
		return -EINVAL;
	}
	if (!arg->index || arg->index >= FAMFS_MAX_DEVS) {
		famfs_err(sb, "DEV_ADD: index %u is not a member index (1..%d)",
			  arg->index, FAMFS_MAX_DEVS - 1);
		return -EINVAL;
	}
	if (!arg->size || !IS_ALIGNED(arg->size, FAMFS_EXTENT_ALIGN)) {
		famfs_err(sb, "DEV_ADD: device %u: size %#llx is not a non-zero multiple of 2 MiB",
			  arg->index, arg->size);
		return -EINVAL;
	}
	return 0;
}

/* FAMFSIOC_DEV_ADD; the contract is in <linux/famfs_ioctl.h>. */
int famfs_ioc_dev_add(struct file *file, struct famfs_ioc_dev_add __user *uarg)
{
	struct super_block *sb = file_inode(file)->i_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	struct famfs_ioc_dev_add arg;
	struct famfs_backing *b;
	struct inode *dinode;
	struct fd f;
	u32 i;
	int rc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	rc = famfs_dev_add_check(sb, &arg);
	if (rc)
		return rc;
	/* fdget() refuses O_PATH descriptors. */
	f = fdget(arg.fd);
	if (!f.file) {
		famfs_err(sb, "DEV_ADD: device %u: fd %d is not open",
			  arg.index, arg.fd);
		return -EBADF;
	}
	dinode = file_inode(f.file);
	if (!S_ISBLK(dinode->i_mode) && !S_ISCHR(dinode->i_mode)) {
		famfs_dev_err(sb, arg.index, f.file, "neither a block device nor a dax device");
		rc = -ENOTBLK;
		goto out_fdput;
	}

	/*
	 * s_umount for read: a remount (s_umount for write) does not switch
	 * to read-write between the read-only check of the open and the
	 * publication (famfs_reconfigure() checks the attached members).
	 */
	down_read(&sb->s_umount);
	mutex_lock(&fsi->dev_lock);
	if (famfs_sb_failed(fsi)) {
		famfs_dev_err(sb, arg.index, f.file, "the mount has failed");
		rc = -EIO;
		goto out_unlock;
	}
	if (famfs_dev(fsi, arg.index)) {
		famfs_dev_err(sb, arg.index, f.file, "device %u is attached already",
			      arg.index);
		rc = -EEXIST;
		goto out_unlock;
	}
	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		b = famfs_dev(fsi, i);
		if (b && b->devt == dinode->i_rdev) {
			famfs_dev_err(sb, arg.index, f.file, "the device is %s of this mount already",
				      i ? "a member" : "the primary");
			rc = -EALREADY;
			goto out_unlock;
		}
	}

	b = kzalloc(sizeof(*b), GFP_KERNEL);
	if (!b) {
		rc = -ENOMEM;
		goto out_unlock;
	}
	b->fsi = fsi;
	b->index = arg.index;
	if (S_ISBLK(dinode->i_mode))
		rc = famfs_member_open_bdev(sb, b, f.file, arg.size);
	else
		rc = famfs_member_open_devdax(sb, b, f.file, arg.size);
	if (rc) {
		kfree(b);
		goto out_unlock;
	}
	/* Held and registered: nothing fails from here on. */
	if (!IS_ALIGNED(PFN_PHYS(b->pfn), FAMFS_EXTENT_ALIGN))
		famfs_warn(sb, "device %u: memory not 2 MiB aligned: its files get 4 KiB page faults only",
			   arg.index);
	/* Pairs with smp_load_acquire() in famfs_dev(). */
	smp_store_release(&fsi->devs[arg.index], b);
	famfs_info(sb, "device %u (%pD) attached, %llu bytes", arg.index,
		   f.file, b->size);

out_unlock:
	mutex_unlock(&fsi->dev_lock);
	up_read(&sb->s_umount);
out_fdput:
	fdput(f);
	return rc;
}

/* FAMFSIOC_DEV_GET; the contract is in <linux/famfs_ioctl.h>. */
int famfs_ioc_dev_get(struct file *file, struct famfs_ioc_dev_info __user *uarg)
{
	struct famfs_sb_info *fsi = FAMFS_SB(file_inode(file)->i_sb);
	struct famfs_ioc_dev_info info;
	struct famfs_backing *b;

	if (copy_from_user(&info, uarg, sizeof(info)))
		return -EFAULT;
	if (info.flags || info.size || info.major || info.minor ||
	    memchr_inv(info.reserved, 0, sizeof(info.reserved)) ||
	    info.index >= FAMFS_MAX_DEVS)
		return -EINVAL;
	b = famfs_dev(fsi, info.index);
	if (!b)
		return -ENXIO;
	info.flags = (b->daxdev ? FAMFS_DEV_DEVDAX : 0) |
		     (famfs_sb_failed(fsi) ? FAMFS_DEV_FAILED : 0) |
		     (READ_ONCE(b->failed) ? FAMFS_DEV_CAUSE : 0);
	info.size = b->size;
	info.major = MAJOR(b->devt);
	info.minor = MINOR(b->devt);
	if (copy_to_user(uarg, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}
