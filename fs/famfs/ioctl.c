// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - the v1 file ioctls (include/uapi/linux/famfs_ioctl.h)
 *
 * FAMFSIOC_NOP		0; tells a famfs file from any other.
 * FAMFSIOC_MAP_CREATE	give an empty file its memory (CAP_SYS_ADMIN).
 * FAMFSIOC_MAP_GET	the map: header and ext_list[0..ext_list_count).
 * FAMFSIOC_MAP_GETEXT	the extents alone: writes ext_list_count (as from
 *			MAP_GET, at most FAMFS_MAX_EXTENTS) struct
 *			famfs_extent to the argument, as the seed ABI did.
 *
 * MAP_CREATE errors, each logged once (rate limited) with the reason:
 *
 *   EPERM	caller lacks CAP_SYS_ADMIN (not logged)
 *   EFAULT	the argument cannot be read
 *   EROFS	read-only mount
 *   EEXIST	the file already has a map
 *   EIO	the mount had a memory failure
 *   EOPNOTSUPP	unknown extent_type or file_type
 *   EINVAL	ext_list_count is 0; an extent has length 0; an offset is not
 *		2 MiB aligned; a length other than the last is not a multiple
 *		of 2 MiB; a file other than the superblock uses device offset 0;
 *		the superblock file does not start at device offset 0
 *   E2BIG	ext_list_count > FAMFS_MAX_EXTENTS
 *   EOVERFLOW	offset + len of an extent overflows 64 bits
 *   ENXIO	an extent ends past the end of the device
 *   EFBIG	file_size is larger than the extents
 *   EADDRINUSE	an extent overlaps memory another file (or another extent
 *		of this map) is mapped to: see map.c for why that is refused
 *
 * MAP_GET and MAP_GETEXT fail with ENODATA on a file that has no map.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/overflow.h>
#include <linux/uaccess.h>
#include "famfs.h"
#include "trace.h"

/* Check a map from user space against itself and the device. */
static int famfs_map_validate(struct super_block *sb,
			      const struct famfs_ioc_map *imap)
{
	u64 dev_size = FAMFS_SB(sb)->backing.size;
	u64 total = 0;
	u64 i, n;

	if (imap->extent_type != SIMPLE_DAX_EXTENT) {
		famfs_err(sb, "MAP_CREATE: unknown extent type %u",
			  imap->extent_type);
		return -EOPNOTSUPP;
	}
	switch (imap->file_type) {
	case FAMFS_REG:
	case FAMFS_SUPERBLOCK:
	case FAMFS_LOG:
		break;
	default:
		famfs_err(sb, "MAP_CREATE: unknown file type %u",
			  imap->file_type);
		return -EOPNOTSUPP;
	}

	n = imap->ext_list_count;
	if (n == 0) {
		famfs_err(sb, "MAP_CREATE: no extents");
		return -EINVAL;
	}
	if (n > FAMFS_MAX_EXTENTS) {
		famfs_err(sb, "MAP_CREATE: %llu extents, at most %d allowed",
			  n, FAMFS_MAX_EXTENTS);
		return -E2BIG;
	}

	for (i = 0; i < n; i++) {
		u64 off = imap->ext_list[i].offset;
		u64 len = imap->ext_list[i].len;
		u64 end;

		if (len == 0) {
			famfs_err(sb, "MAP_CREATE: extent %llu has length 0", i);
			return -EINVAL;
		}
		if (!IS_ALIGNED(off, FAMFS_EXTENT_ALIGN)) {
			famfs_err(sb, "MAP_CREATE: extent %llu offset %#llx is not 2 MiB aligned",
				  i, off);
			return -EINVAL;
		}
		if (i < n - 1 && !IS_ALIGNED(len, FAMFS_EXTENT_ALIGN)) {
			famfs_err(sb, "MAP_CREATE: extent %llu length %#llx is not a multiple of 2 MiB",
				  i, len);
			return -EINVAL;
		}
		if (check_add_overflow(off, len, &end)) {
			famfs_err(sb, "MAP_CREATE: extent %llu offset %#llx + length %#llx overflows",
				  i, off, len);
			return -EOVERFLOW;
		}
		if (end > dev_size) {
			famfs_err(sb, "MAP_CREATE: extent %llu (%#llx+%#llx) ends past the device (%#llx bytes)",
				  i, off, len, dev_size);
			return -ENXIO;
		}
		if (off == 0 && imap->file_type != FAMFS_SUPERBLOCK) {
			famfs_err(sb, "MAP_CREATE: extent %llu: device offset 0 belongs to the superblock",
				  i);
			return -EINVAL;
		}
		/* Extents are disjoint and on the device, but say so. */
		if (check_add_overflow(total, len, &total))
			return -EOVERFLOW;
	}

	if (imap->file_type == FAMFS_SUPERBLOCK &&
	    imap->ext_list[0].offset != 0) {
		famfs_err(sb, "MAP_CREATE: the superblock must start at device offset 0");
		return -EINVAL;
	}
	if (imap->file_size > total) {
		famfs_err(sb, "MAP_CREATE: file size %llu is larger than its extents (%llu bytes)",
			  (u64)imap->file_size, total);
		return -EFBIG;
	}
	return 0;
}

static int famfs_ioc_map_create(struct file *file,
				struct famfs_ioc_map __user *uarg)
{
	struct inode *inode = file_inode(file);
	struct super_block *sb = inode->i_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	struct famfs_fmap *fmap = NULL;
	struct famfs_ioc_map imap;
	struct famfs_extent clash;
	int rc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&imap, uarg, sizeof(imap)))
		return -EFAULT;

	rc = mnt_want_write_file(file);
	if (rc)
		return rc;
	inode_lock(inode);

	if (famfs_inode_fmap(inode)) {
		famfs_err(sb, "MAP_CREATE: inode %lu already has a map",
			  inode->i_ino);
		rc = -EEXIST;
		goto out_unlock;
	}
	if (famfs_sb_failed(fsi)) {
		rc = -EIO;
		goto out_unlock;
	}
	/* Writes are refused and truncate keeps size 0 until a map exists. */
	if (WARN_ON_ONCE(i_size_read(inode))) {
		rc = -EIO;
		goto out_unlock;
	}

	rc = famfs_map_validate(sb, &imap);
	if (rc)
		goto out_unlock;

	fmap = famfs_fmap_alloc(&imap);
	if (IS_ERR(fmap)) {
		rc = PTR_ERR(fmap);
		fmap = NULL;
		goto out_unlock;
	}
	fmap->inode = inode;

	rc = famfs_fmap_insert(fsi, fmap, &clash);
	if (rc) {
		if (clash.len)
			famfs_err(sb, "MAP_CREATE: inode %lu: an extent overlaps mapped memory %#llx+%#llx",
				  inode->i_ino, (u64)clash.offset,
				  (u64)clash.len);
		else
			famfs_err(sb, "MAP_CREATE: inode %lu: its extents overlap each other",
				  inode->i_ino);
		goto out_unlock;
	}

	i_size_write(inode, fmap->file_size);
	inode->i_blocks = fmap->claim_size >> SECTOR_SHIFT;
	inode->i_flags |= S_DAX;
	inode->i_mtime = current_time(inode);
	inode->i_ctime = inode->i_mtime;
	mark_inode_dirty(inode);
	/* Pairs with smp_load_acquire() in famfs_inode_fmap(). */
	smp_store_release(&FAMFS_I(inode)->fmap, fmap);
	fmap = NULL;

out_unlock:
	inode_unlock(inode);
	mnt_drop_write_file(file);
	famfs_fmap_free(fmap);
	trace_famfs_map_create(inode, &imap, rc);
	return rc;
}

static void famfs_fmap_to_user(const struct famfs_fmap *fmap,
			       struct famfs_ioc_map *imap)
{
	u32 i;

	memset(imap, 0, sizeof(*imap));
	imap->extent_type = fmap->extent_type;
	imap->file_type = fmap->file_type;
	imap->file_size = fmap->file_size;
	imap->ext_list_count = fmap->nr_extents;
	for (i = 0; i < fmap->nr_extents && i < FAMFS_MAX_EXTENTS; i++) {
		imap->ext_list[i].offset = fmap->ext[i].dev_off;
		imap->ext_list[i].len = fmap->ext[i].len;
	}
}

static int famfs_ioc_map_get(struct file *file,
			     struct famfs_ioc_map __user *uarg)
{
	struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	struct famfs_ioc_map imap;

	if (!fmap)
		return -ENODATA;
	famfs_fmap_to_user(fmap, &imap);
	if (copy_to_user(uarg, &imap, sizeof(imap)))
		return -EFAULT;
	return 0;
}

static int famfs_ioc_map_getext(struct file *file,
				struct famfs_extent __user *uarg)
{
	struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	struct famfs_ioc_map imap;

	if (!fmap)
		return -ENODATA;
	famfs_fmap_to_user(fmap, &imap);
	if (copy_to_user(uarg, imap.ext_list,
			 min_t(u64, imap.ext_list_count, FAMFS_MAX_EXTENTS) *
			 sizeof(imap.ext_list[0])))
		return -EFAULT;
	return 0;
}

long famfs_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	switch (cmd) {
	case FAMFSIOC_NOP:
		return 0;
	case FAMFSIOC_MAP_CREATE:
		return famfs_ioc_map_create(file, argp);
	case FAMFSIOC_MAP_GET:
		return famfs_ioc_map_get(file, argp);
	case FAMFSIOC_MAP_GETEXT:
		return famfs_ioc_map_getext(file, argp);
	default:
		return -ENOTTY;
	}
}
