// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - namespace: directories and regular files, as ramfs keeps them
 *
 * The namespace lives only in memory (dentries pinned as in ramfs); user
 * space rebuilds it at each mount from the metadata log, which describes
 * regular files and directories only.
 *
 * Symlinks, device nodes, FIFOs, sockets and O_TMPFILE are refused (EPERM
 * from ->symlink and ->mknod, with a line; no ->tmpfile, so EOPNOTSUPP).
 * The log could not describe them, so they would silently be missing on
 * every other host and after a remount; and a device node on a file system
 * shared between hosts would be a way around the device permissions of
 * each of them.
 *
 * On a mount with the option "protect", every other change of the
 * namespace, and chmod and chown, is the famfs tool's alone (nsop.c).
 *
 * A new regular file is empty and is not a DAX file until FAMFSIOC_MAP_CREATE
 * gives it memory.  After that its size never changes: any size change is
 * refused with EPERM, which is what truncate(2) documents for a file system
 * that cannot change a file's size that way.  chmod, chown and utimes work
 * (chmod and chown through the tool on a protected mount).
 *
 * Layer "inode" (scripts/layers.conf): calls file.c and nsop.c (the
 * directory operations, what a protected mount refuses).
 */

#include <linux/fs.h>
#include <linux/pagemap.h>
#include "famfs.h"

struct inode *famfs_new_inode(struct super_block *sb, const struct inode *dir,
			      umode_t mode)
{
	struct inode *inode;

	if (WARN_ON_ONCE(!S_ISREG(mode) && !S_ISDIR(mode)))
		return ERR_PTR(-EPERM);

	inode = new_inode(sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);

	inode->i_ino = get_next_ino();
	inode_init_owner(&init_user_ns, inode, dir, mode);
	inode->i_mtime = current_time(inode);
	inode->i_atime = inode->i_mtime;
	inode->i_ctime = inode->i_mtime;

	if (S_ISREG(mode)) {
		inode->i_op = &famfs_file_inode_operations;
		inode->i_fop = &famfs_file_operations;
		inode->i_mapping->a_ops = &famfs_dax_aops;
	} else {
		inode->i_op = &famfs_dir_inode_operations;
		inode->i_fop = &famfs_dir_operations;
		/* "." */
		inc_nlink(inode);
	}
	return inode;
}

static int famfs_add_entry(struct inode *dir, struct dentry *dentry,
			   umode_t mode)
{
	struct inode *inode;

	inode = famfs_new_inode(dir->i_sb, dir, mode);
	if (IS_ERR(inode))
		return PTR_ERR(inode);

	d_instantiate(dentry, inode);
	dget(dentry);	/* pinned, as in ramfs */
	dir->i_mtime = current_time(dir);
	dir->i_ctime = dir->i_mtime;
	return 0;
}

static int famfs_create(struct user_namespace *mnt_userns, struct inode *dir,
			struct dentry *dentry, umode_t mode, bool excl)
{
	int rc = famfs_ns_refused(dentry, FAMFS_REFUSE_CREATE);

	return rc ?: famfs_add_entry(dir, dentry, (mode & ~S_IFMT) | S_IFREG);
}

static int famfs_mkdir(struct user_namespace *mnt_userns, struct inode *dir,
		       struct dentry *dentry, umode_t mode)
{
	int rc = famfs_ns_refused(dentry, FAMFS_REFUSE_MKDIR);

	if (rc)
		return rc;
	rc = famfs_add_entry(dir, dentry, (mode & ~S_IFMT) | S_IFDIR);
	if (!rc)
		inc_nlink(dir);	/* ".." */
	return rc;
}

static int famfs_setattr(struct user_namespace *mnt_userns,
			 struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	int rc;

	/*
	 * ATTR_MODE also when notify_change() turned ATTR_KILL_SUID or
	 * ATTR_KILL_SGID into it (a write or a chown clearing set-id bits):
	 * on a protected mount the mode stays what the log says, so such a
	 * write is refused too.
	 */
	if (attr->ia_valid & (ATTR_UID | ATTR_GID))
		rc = famfs_ns_refused(dentry, FAMFS_REFUSE_CHOWN);
	else if (attr->ia_valid & ATTR_MODE)
		rc = famfs_ns_refused(dentry, FAMFS_REFUSE_CHMOD);
	else
		rc = 0;
	if (rc)
		return rc;
	rc = setattr_prepare(mnt_userns, dentry, attr);
	if (rc)
		return rc;

	/*
	 * Only FAMFSIOC_MAP_CREATE sets a size.  i_rwsem (held by our caller,
	 * as by MAP_CREATE) keeps the size stable here.
	 */
	if ((attr->ia_valid & ATTR_SIZE) &&
	    attr->ia_size != i_size_read(inode))
		return -EPERM;

	setattr_copy(mnt_userns, inode, attr);
	mark_inode_dirty(inode);
	return 0;
}

static int famfs_link(struct dentry *old_dentry, struct inode *dir,
		      struct dentry *dentry)
{
	int rc = famfs_ns_refused(old_dentry, FAMFS_REFUSE_LINK);

	return rc ?: simple_link(old_dentry, dir, dentry);
}

static int famfs_unlink(struct inode *dir, struct dentry *dentry)
{
	int rc = famfs_ns_refused(dentry, FAMFS_REFUSE_UNLINK);

	return rc ?: simple_unlink(dir, dentry);
}

static int famfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	int rc = famfs_ns_refused(dentry, FAMFS_REFUSE_RMDIR);

	return rc ?: simple_rmdir(dir, dentry);
}

static int famfs_rename(struct user_namespace *mnt_userns,
			struct inode *old_dir, struct dentry *old_dentry,
			struct inode *new_dir, struct dentry *new_dentry,
			unsigned int flags)
{
	int rc = famfs_ns_refused(old_dentry, FAMFS_REFUSE_RENAME);

	return rc ?: simple_rename(mnt_userns, old_dir, old_dentry, new_dir,
				   new_dentry, flags);
}

/* Refused on every mount, as before, now with a line. */
static int famfs_symlink(struct user_namespace *mnt_userns, struct inode *dir,
			 struct dentry *dentry, const char *target)
{
	return famfs_ns_refused(dentry, FAMFS_REFUSE_SYMLINK);
}

/* Device nodes, FIFOs, sockets; mknod of a regular file is ->create. */
static int famfs_mknod(struct user_namespace *mnt_userns, struct inode *dir,
		       struct dentry *dentry, umode_t mode, dev_t dev)
{
	return famfs_ns_refused(dentry, FAMFS_REFUSE_MKNOD);
}

/* Unlike simple_getattr(), keep i_blocks: the memory the map holds. */
static int famfs_getattr(struct user_namespace *mnt_userns,
			 const struct path *path, struct kstat *stat,
			 u32 request_mask, unsigned int query_flags)
{
	generic_fillattr(mnt_userns, d_inode(path->dentry), stat);
	return 0;
}

const struct inode_operations famfs_file_inode_operations = {
	.setattr	= famfs_setattr,
	.getattr	= famfs_getattr,
};

const struct inode_operations famfs_dir_inode_operations = {
	.create		= famfs_create,
	.lookup		= simple_lookup,
	.link		= famfs_link,
	.unlink		= famfs_unlink,
	.symlink	= famfs_symlink,
	.mkdir		= famfs_mkdir,
	.rmdir		= famfs_rmdir,
	.mknod		= famfs_mknod,
	.rename		= famfs_rename,
	.setattr	= famfs_setattr,
	.getattr	= famfs_getattr,
};
