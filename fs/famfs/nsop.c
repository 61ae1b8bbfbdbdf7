// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - a protected namespace, and the tool's way to change it
 *
 * The metadata log is the namespace of a famfs file system: every host
 * builds its tree by replaying it.  A change made behind the log (rm, mv,
 * chmod, touch of a new name from any program) is seen by this host only,
 * and replaying the log later brings back or refuses what it changed.  So
 * a mount with the option "protect" (super.c; famfs mount, mount.famfs and
 * -o follow set it) refuses them: unlink, rmdir, rename, link, mkdir,
 * create (open(O_CREAT) of a new name, mknod of a regular file) and the
 * mode and owner of setattr (chmod, chown) fail with EPERM and one
 * rate-limited line that names the famfs command to use.  Symbolic links
 * and device nodes are refused on every mount (the log cannot describe
 * them); they get the line too.
 *
 * The famfs tool, which logs a change before it makes it, makes it with
 * FAMFSIOC_NS (<linux/famfs_ioctl.h>): the same VFS calls a system call
 * makes (lookup_one_len(), vfs_create(), vfs_unlink(), vfs_rename(),
 * notify_change(), ...), with their permission, lease and fsnotify steps,
 * while fsi->ns_owner names the task doing it.  The inode operations let a
 * change through when fsi->ns_owner is current.  ns_lock serializes these
 * calls per mount (the tool holds its log lock around them anyway), so
 * ns_owner is set only by the task that holds ns_lock, and another task --
 * another thread of the tool included -- never sees itself there.  Lock
 * order: sb_writers (mnt_want_write) -> ns_lock -> i_rwsem.  Nothing else
 * takes ns_lock.
 *
 * Why not a flag in the task (current->journal_info, as the brief of issue
 * 29 suggested): a memory allocation inside vfs_create() may enter direct
 * reclaim, whose shrinkers can evict another file system's inodes, and
 * ext4 and xfs read a non-NULL journal_info there as their own open
 * transaction.  A field of our own superblock has no such reader.
 *
 * Layer "ioctl" (scripts/layers.conf): calls members.c (the device ioctls
 * of a directory) and the VFS; inode.c calls famfs_ns_refused().
 */

#include <linux/cred.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "famfs.h"

static const struct {
	const char *what;
	const char *use;
} famfs_ns_msgs[] = {
	[FAMFS_REFUSE_CREATE]	= { "create", "use famfs creat or famfs cp" },
	[FAMFS_REFUSE_MKDIR]	= { "mkdir", "use famfs mkdir" },
	[FAMFS_REFUSE_UNLINK]	= { "rm", "use famfs rm" },
	[FAMFS_REFUSE_RMDIR]	= { "rmdir", "use famfs rm -r" },
	[FAMFS_REFUSE_RENAME]	= { "rename", "use famfs mv" },
	[FAMFS_REFUSE_CHMOD]	= { "chmod", "use famfs chmod" },
	[FAMFS_REFUSE_CHOWN]	= { "chown", "use famfs chown" },
	[FAMFS_REFUSE_LINK]	= { "link",
				    "famfs has no hard links (famfs cp copies)" },
	[FAMFS_REFUSE_SYMLINK]	= { "symlink", "famfs has no symbolic links" },
	[FAMFS_REFUSE_MKNOD]	= { "mknod",
				    "famfs holds files and directories only" },
};

static bool famfs_is_meta(const char *path)
{
	return !strncmp(path, "/" FAMFS_META_NAME, sizeof(FAMFS_META_NAME)) &&
	       (path[sizeof(FAMFS_META_NAME)] == '/' ||
		!path[sizeof(FAMFS_META_NAME)]);
}

/*
 * 0 if the change @what of @dentry may go on: the mount is not protected,
 * or the famfs tool makes it (FAMFSIOC_NS).  Else -EPERM and one
 * rate-limited line.  Symlinks and device nodes: always -EPERM.
 */
int famfs_ns_refused(struct dentry *dentry, enum famfs_refuse what)
{
	struct super_block *sb = dentry->d_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	const char *path = NULL;
	char *buf;

	if (what != FAMFS_REFUSE_SYMLINK && what != FAMFS_REFUSE_MKNOD &&
	    (!READ_ONCE(fsi->protect) || READ_ONCE(fsi->ns_owner) == current))
		return 0;
	if (WARN_ON_ONCE(what >= ARRAY_SIZE(famfs_ns_msgs)) ||
	    !famfs_msg_ok(sb))
		return -EPERM;
	buf = __getname();
	if (buf)
		path = dentry_path_raw(dentry, buf, PATH_MAX);
	if (IS_ERR_OR_NULL(path))
		path = dentry->d_name.name;	/* best effort */
	pr_warn("famfs (%s): %s of %s refused: %s\n", sb->s_id,
		famfs_ns_msgs[what].what, path,
		famfs_is_meta(path) ? FAMFS_META_NAME " is famfs's own" :
		famfs_ns_msgs[what].use);
	if (buf)
		__putname(buf);
	return -EPERM;
}

/* Both names of a RENAME, NUL-terminated. */
struct famfs_ns_names {
	char	name[FAMFS_NS_NAME_MAX + 1];
	char	new_name[FAMFS_NS_NAME_MAX + 1];
};

/* One path component of 1..FAMFS_NS_NAME_MAX bytes from user space. */
static int famfs_ns_get_name(char *buf, u64 uptr, u32 len)
{
	if (!len || len > FAMFS_NS_NAME_MAX)
		return -EINVAL;
	if (copy_from_user(buf, u64_to_user_ptr(uptr), len))
		return -EFAULT;
	buf[len] = '\0';
	if (memchr(buf, '/', len) || strlen(buf) != len)
		return -EINVAL;
	if (buf[0] == '.' && (len == 1 || (len == 2 && buf[1] == '.')))
		return -EINVAL;
	return 0;
}

/* Every field an op does not use is 0; see <linux/famfs_ioctl.h>. */
static int famfs_ns_check(const struct famfs_ioc_ns *a)
{
	const u32 all = FAMFS_NS_MODE | FAMFS_NS_UID | FAMFS_NS_GID;

	if (a->reserved0 || a->reserved[0] || a->reserved[1])
		return -EINVAL;
	switch (a->op) {
	case FAMFS_NS_CREATE:
	case FAMFS_NS_MKDIR:
		if (a->valid != FAMFS_NS_MODE)
			return -EINVAL;
		break;
	case FAMFS_NS_UNLINK:
	case FAMFS_NS_RMDIR:
		if (a->valid)
			return -EINVAL;
		break;
	case FAMFS_NS_RENAME:
		if (a->valid || (a->flags & ~FAMFS_NS_NOREPLACE))
			return -EINVAL;
		break;
	case FAMFS_NS_SETATTR:
		if (!a->valid || (a->valid & ~all) || a->name || a->name_len)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	if (a->op != FAMFS_NS_RENAME &&
	    (a->flags || a->new_name || a->new_name_len || a->new_dir_fd))
		return -EINVAL;
	if ((a->mode & ~(u32)S_IALLUGO) ||
	    (!(a->valid & FAMFS_NS_MODE) && a->mode) ||
	    (!(a->valid & FAMFS_NS_UID) && a->uid) ||
	    (!(a->valid & FAMFS_NS_GID) && a->gid))
		return -EINVAL;
	return 0;
}

static bool famfs_um_same(const struct famfs_fmap *fmap,
			  const struct famfs_ioc_map_v2 *m, const void *list);

/*
 * UNLINK of @name (@len bytes) in the directory @file, as do_unlinkat(),
 * for FAMFSIOC_NS and FAMFSIOC_UNLINK_MAP.  With @m (UNLINK_MAP: its map
 * header and @list, checked), the name must be a regular file whose
 * published map is that one, or -ESTALE; without, any non-directory.
 * The unlinked inode is left held in *@victim: the caller puts it once
 * it has dropped ns_lock, as do_unlinkat() puts it after the directory's
 * lock (an eviction may wait for the pins of the file's pages).
 */
static int famfs_ns_unlink(struct file *file, const char *name, u32 len,
			   const struct famfs_ioc_map_v2 *m, const void *list,
			   struct inode **victim)
{
	struct dentry *parent = file->f_path.dentry;
	struct inode *dir = d_inode(parent);
	struct dentry *dentry;
	int rc;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = lookup_one_len(name, parent, len);
	if (IS_ERR(dentry)) {
		rc = PTR_ERR(dentry);
		goto out_unlock;
	}
	if (d_is_negative(dentry)) {
		rc = -ENOENT;
	} else if (d_is_dir(dentry)) {
		rc = -EISDIR;
	} else if (m && (!d_is_reg(dentry) ||
			 !famfs_um_same(famfs_inode_fmap(d_inode(dentry)),
					m, list))) {
		rc = -ESTALE;
	} else {
		*victim = d_inode(dentry);
		ihold(*victim);
		rc = vfs_unlink(file_mnt_user_ns(file), dir, dentry, NULL);
	}
	dput(dentry);
out_unlock:
	inode_unlock(dir);
	return rc;
}

/*
 * CREATE, MKDIR, RMDIR of @name in the directory @file, as
 * filename_create() and do_rmdir() do it.  CREATE leaves the new
 * dentry (a reference) in *@created.
 */
static int famfs_ns_one(struct file *file, const struct famfs_ioc_ns *a,
			const char *name, struct dentry **created)
{
	struct user_namespace *userns = file_mnt_user_ns(file);
	struct dentry *parent = file->f_path.dentry;
	struct inode *dir = d_inode(parent);
	struct dentry *dentry;
	int rc;

	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = lookup_one_len(name, parent, a->name_len);
	if (IS_ERR(dentry)) {
		rc = PTR_ERR(dentry);
		goto out_unlock;
	}
	switch (a->op) {
	case FAMFS_NS_CREATE:
	case FAMFS_NS_MKDIR:
		if (d_is_positive(dentry)) {
			rc = -EEXIST;
			break;
		}
		if (a->op == FAMFS_NS_MKDIR) {
			rc = vfs_mkdir(userns, dir, dentry, a->mode);
			break;
		}
		rc = vfs_create(userns, dir, dentry, a->mode, true);
		if (!rc)
			*created = dget(dentry);
		break;
	default:	/* FAMFS_NS_RMDIR */
		if (d_is_negative(dentry))
			rc = -ENOENT;
		else
			rc = vfs_rmdir(userns, dir, dentry);
		break;
	}
	dput(dentry);
out_unlock:
	inode_unlock(dir);
	return rc;
}

/* RENAME of @n->name in @file to @n->new_name in @to, as do_renameat2(). */
static int famfs_ns_rename(struct file *file, struct file *to,
			   const struct famfs_ioc_ns *a,
			   const struct famfs_ns_names *n)
{
	struct user_namespace *userns = file_mnt_user_ns(file);
	struct dentry *old_parent = file->f_path.dentry;
	struct dentry *new_parent = to->f_path.dentry;
	struct dentry *trap, *old, *new;
	struct renamedata rd = {};
	int rc;

	trap = lock_rename(new_parent, old_parent);
	old = lookup_one_len(n->name, old_parent, a->name_len);
	rc = PTR_ERR(old);
	if (IS_ERR(old))
		goto out_unlock;
	rc = -ENOENT;
	if (d_is_negative(old))
		goto out_old;
	rc = -EINVAL;		/* a directory into itself */
	if (old == trap)
		goto out_old;
	new = lookup_one_len(n->new_name, new_parent, a->new_name_len);
	rc = PTR_ERR(new);
	if (IS_ERR(new))
		goto out_old;
	rc = -EEXIST;
	if ((a->flags & FAMFS_NS_NOREPLACE) && d_is_positive(new))
		goto out_new;
	rc = -ENOTEMPTY;	/* onto an ancestor of the source */
	if (new == trap)
		goto out_new;
	rd.old_mnt_userns = userns;
	rd.old_dir = d_inode(old_parent);
	rd.old_dentry = old;
	rd.new_mnt_userns = userns;
	rd.new_dir = d_inode(new_parent);
	rd.new_dentry = new;
	rd.flags = a->flags & FAMFS_NS_NOREPLACE ? RENAME_NOREPLACE : 0;
	rc = vfs_rename(&rd);
out_new:
	dput(new);
out_old:
	dput(old);
out_unlock:
	unlock_rename(new_parent, old_parent);
	return rc;
}

/* SETATTR of the file or directory @file itself, as chmod_common(). */
static int famfs_ns_setattr(struct file *file, const struct famfs_ioc_ns *a)
{
	struct dentry *dentry = file->f_path.dentry;
	struct inode *inode = d_inode(dentry);
	struct iattr ia = { .ia_valid = ATTR_CTIME };
	kuid_t uid = make_kuid(current_user_ns(), a->uid);
	kgid_t gid = make_kgid(current_user_ns(), a->gid);
	int rc;

	if (a->valid & FAMFS_NS_UID) {
		if (!uid_valid(uid))
			return -EINVAL;
		ia.ia_valid |= ATTR_UID;
		ia.ia_vfsuid = VFSUIDT_INIT(uid);
	}
	if (a->valid & FAMFS_NS_GID) {
		if (!gid_valid(gid))
			return -EINVAL;
		ia.ia_valid |= ATTR_GID;
		ia.ia_vfsgid = VFSGIDT_INIT(gid);
	}
	inode_lock(inode);
	if (a->valid & FAMFS_NS_MODE) {
		ia.ia_valid |= ATTR_MODE;
		ia.ia_mode = a->mode | (inode->i_mode & ~S_IALLUGO);
	}
	rc = notify_change(file_mnt_user_ns(file), dentry, &ia, NULL);
	inode_unlock(inode);
	return rc;
}

/* The new file of a CREATE as a descriptor (O_RDWR, close-on-exec). */
static int famfs_ns_open(struct file *file, struct dentry *dentry, int fd)
{
	struct path path = { .mnt = file->f_path.mnt, .dentry = dentry };
	struct file *f;

	f = dentry_open(&path, O_RDWR | O_LARGEFILE, current_cred());
	if (IS_ERR(f)) {
		put_unused_fd(fd);
		return PTR_ERR(f);
	}
	fd_install(fd, f);
	return fd;
}

/* FAMFSIOC_NS; the contract is in <linux/famfs_ioctl.h>. */
long famfs_ioc_ns(struct file *file, struct famfs_ioc_ns __user *uarg)
{
	struct famfs_sb_info *fsi = FAMFS_SB(file_inode(file)->i_sb);
	struct dentry *created = NULL;
	struct famfs_ns_names *n = NULL;
	struct inode *victim = NULL;
	struct famfs_ioc_ns a;
	struct fd to = {};
	int fd = -1;
	long rc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	rc = famfs_ns_check(&a);
	if (rc)
		return rc;
	if (a.op != FAMFS_NS_SETATTR) {
		if (!d_is_dir(file->f_path.dentry))
			return -ENOTDIR;
		n = kmalloc(sizeof(*n), GFP_KERNEL);
		if (!n)
			return -ENOMEM;
		rc = famfs_ns_get_name(n->name, a.name, a.name_len);
		if (!rc && a.op == FAMFS_NS_RENAME)
			rc = famfs_ns_get_name(n->new_name, a.new_name,
					       a.new_name_len);
		if (rc)
			goto out_free;
	}
	if (a.op == FAMFS_NS_RENAME) {
		to = fdget(a.new_dir_fd);
		rc = -EBADF;
		if (!to.file)
			goto out_free;
		rc = -EXDEV;
		if (to.file->f_path.mnt != file->f_path.mnt)
			goto out_fdput;
		rc = -ENOTDIR;
		if (!d_is_dir(to.file->f_path.dentry))
			goto out_fdput;
	}
	if (a.op == FAMFS_NS_CREATE) {
		fd = get_unused_fd_flags(O_CLOEXEC);
		rc = fd;
		if (fd < 0)
			goto out_fdput;
	}
	rc = mnt_want_write_file(file);
	if (rc)
		goto out_putfd;
	rc = mutex_lock_killable(&fsi->ns_lock);
	if (rc)
		goto out_drop;
	WRITE_ONCE(fsi->ns_owner, current);
	if (a.op == FAMFS_NS_RENAME)
		rc = famfs_ns_rename(file, to.file, &a, n);
	else if (a.op == FAMFS_NS_SETATTR)
		rc = famfs_ns_setattr(file, &a);
	else if (a.op == FAMFS_NS_UNLINK)
		rc = famfs_ns_unlink(file, n->name, a.name_len, NULL, NULL,
				     &victim);
	else
		rc = famfs_ns_one(file, &a, n->name, &created);
	WRITE_ONCE(fsi->ns_owner, NULL);
	mutex_unlock(&fsi->ns_lock);
	if (victim)
		iput(victim);
out_drop:
	mnt_drop_write_file(file);
out_putfd:
	if (created) {
		rc = famfs_ns_open(file, created, fd);
		dput(created);
		fd = -1;
	}
	if (fd >= 0)
		put_unused_fd(fd);
out_fdput:
	fdput(to);
out_free:
	kfree(n);
	return rc;
}

/*
 * FAMFSIOC_UNLINK_MAP: the header's checks, in the contract's order (one
 * log line for each refusal).
 */
static int famfs_um_check(struct super_block *sb,
			  const struct famfs_ioc_unlink_map *a)
{
	const struct famfs_ioc_map_v2 *m = &a->map;
	u32 max;

	if (a->flags || a->reserved[0] || a->reserved[1] ||
	    (m->flags & ~(FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_IDENT)) ||
	    (m->reserved[0] && !(m->flags & FAMFS_IOC_MAP_IDENT)) ||
	    m->reserved[1] || m->reserved[2] || m->reserved[3]) {
		famfs_err(sb, "UNLINK_MAP: flags %#x, map flags %#x or a reserved field not 0",
			  a->flags, m->flags);
		return -EINVAL;
	}
	if (m->extent_type == SIMPLE_DAX_EXTENT) {
		max = FAMFS_IOC_MAX_EXTENTS_V2;
	} else if (m->extent_type == FAMFS_INTERLEAVED_EXTENT) {
		max = FAMFS_IOC_MAX_IEXTENTS;
	} else {
		famfs_err(sb, "UNLINK_MAP: unknown extent type %u",
			  m->extent_type);
		return -EINVAL;
	}
	if (!m->ext_count) {
		famfs_err(sb, "UNLINK_MAP: no extents");
		return -EINVAL;
	}
	if (m->ext_count > max) {
		famfs_err(sb, "UNLINK_MAP: %u extents, more than %u",
			  m->ext_count, max);
		return -E2BIG;
	}
	return 0;
}

static bool famfs_um_dext_ok(const struct famfs_ioc_dext *d)
{
	return !d->reserved && d->devindex < FAMFS_MAX_DEVS;
}

/* Each entry of the list, in order (one log line for a refusal). */
static int famfs_um_check_list(struct super_block *sb, const void *list,
			       const struct famfs_ioc_map_v2 *m)
{
	static const struct famfs_ioc_dext zero;
	const struct famfs_ioc_iext_v3 *x = list;
	const struct famfs_ioc_dext *d = list;
	u32 i, j;

	for (i = 0; i < m->ext_count; i++) {
		if (m->extent_type == SIMPLE_DAX_EXTENT) {
			if (famfs_um_dext_ok(&d[i]))
				continue;
			famfs_err(sb, "UNLINK_MAP: extent %u: reserved %#x or device %u",
				  i, d[i].reserved, d[i].devindex);
			return -EINVAL;
		}
		if (x[i].reserved || !x[i].nstrips ||
		    x[i].nstrips > FAMFS_IOC_MAX_STRIPS) {
			famfs_err(sb, "UNLINK_MAP: extent %u: reserved %#x or %u strips",
				  i, x[i].reserved, x[i].nstrips);
			return -EINVAL;
		}
		for (j = 0; j < FAMFS_IOC_MAX_STRIPS; j++) {
			const struct famfs_ioc_dext *s = &x[i].strips[j];

			if (j < x[i].nstrips ? famfs_um_dext_ok(s) :
			    !memcmp(s, &zero, sizeof(zero)))
				continue;
			famfs_err(sb, "UNLINK_MAP: extent %u strip %u: reserved %#x or device %u%s",
				  i, j, s->reserved, s->devindex,
				  j < x[i].nstrips ? "" : ", an unused strip not 0");
			return -EINVAL;
		}
	}
	return 0;
}

static bool famfs_um_kext_eq(const struct famfs_ioc_dext *d,
			     const struct famfs_kext *k)
{
	return d->offset == k->dev_off && d->len == k->len &&
	       d->devindex == k->dev;
}

/*
 * Is @fmap (the published map of a file, or NULL) what MAP_GET_V3 would
 * report as @m and @list (checked)?  A file that has an identity must have
 * @m's (FAMFS_IOC_MAP_IDENT, reserved[0]); one made without is known by
 * its map alone, whatever @m says of an identity.
 */
static bool famfs_um_same(const struct famfs_fmap *fmap,
			  const struct famfs_ioc_map_v2 *m, const void *list)
{
	const struct famfs_ioc_iext_v3 *x = list;
	const struct famfs_ioc_dext *d = list;
	u32 i, j;

	if (!fmap || fmap->extent_type != m->extent_type ||
	    (fmap->has_ident && (!(m->flags & FAMFS_IOC_MAP_IDENT) ||
				 fmap->ident != m->reserved[0])) ||
	    fmap->file_type != m->file_type ||
	    fmap->file_size != m->file_size ||
	    famfs_fmap_pages(fmap) != !!(m->flags & FAMFS_IOC_MAP_PAGES))
		return false;
	if (!famfs_fmap_interleaved(fmap)) {
		if (fmap->nr_extents != m->ext_count)
			return false;
		for (i = 0; i < m->ext_count; i++)
			if (!famfs_um_kext_eq(&d[i], &fmap->ext[i]))
				return false;
		return true;
	}
	if (fmap->nr_iext != m->ext_count)
		return false;
	for (i = 0; i < m->ext_count; i++) {
		const struct famfs_kiext *ie = &fmap->iext[i];

		if (x[i].nstrips != ie->nstrips ||
		    x[i].chunk_size != ie->chunk_size ||
		    x[i].nbytes != ie->nbytes)
			return false;
		for (j = 0; j < ie->nstrips; j++)
			if (!famfs_um_kext_eq(&x[i].strips[j], &ie->strips[j]))
				return false;
	}
	return true;
}

/* FAMFSIOC_UNLINK_MAP; the contract is in <linux/famfs_ioctl.h>. */
long famfs_ioc_unlink_map(struct file *file,
			  struct famfs_ioc_unlink_map __user *uarg)
{
	struct super_block *sb = file_inode(file)->i_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	struct famfs_ioc_dext small[4];	/* most files: no allocation */
	struct famfs_ioc_unlink_map a;
	struct inode *victim = NULL;
	char *name = NULL;
	void *list = small;
	size_t size;
	long rc;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&a, uarg, sizeof(a)))
		return -EFAULT;
	rc = famfs_um_check(sb, &a);
	if (rc)
		return rc;
	if (!d_is_dir(file->f_path.dentry))
		return -ENOTDIR;
	name = kmalloc(FAMFS_NS_NAME_MAX + 1, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	rc = famfs_ns_get_name(name, a.name, a.name_len);
	if (rc) {
		if (rc == -EINVAL)
			famfs_err(sb, "UNLINK_MAP: a bad name (%u bytes)",
				  a.name_len);
		goto out_free;
	}
	/* ext_count is at most 256 (simple) or 16 (interleaved): no overflow */
	size = (size_t)a.map.ext_count *
	       (a.map.extent_type == SIMPLE_DAX_EXTENT ?
		sizeof(struct famfs_ioc_dext) :
		sizeof(struct famfs_ioc_iext_v3));
	if (size > sizeof(small)) {
		list = kmalloc(size, GFP_KERNEL);
		if (!list) {
			rc = -ENOMEM;
			goto out_free;
		}
	}
	rc = -EFAULT;
	if (copy_from_user(list, u64_to_user_ptr(a.map.ext_list), size))
		goto out_free;
	rc = famfs_um_check_list(sb, list, &a.map);
	if (rc)
		goto out_free;
	rc = mnt_want_write_file(file);
	if (rc)
		goto out_free;
	rc = mutex_lock_killable(&fsi->ns_lock);
	if (rc)
		goto out_drop;
	WRITE_ONCE(fsi->ns_owner, current);
	rc = famfs_ns_unlink(file, name, a.name_len, &a.map, list, &victim);
	WRITE_ONCE(fsi->ns_owner, NULL);
	mutex_unlock(&fsi->ns_lock);
	if (victim)
		iput(victim);
out_drop:
	mnt_drop_write_file(file);
out_free:
	if (list != small)
		kfree(list);
	kfree(name);
	return rc;
}

/*
 * Directories answer the device ioctls, FAMFSIOC_NS, FAMFSIOC_HELD and
 * FAMFSIOC_UNLINK_MAP (ENOTTY for the rest, as before); the legacy-ABI
 * test module has none of them.
 */
static long famfs_dir_ioctl(struct file *file, unsigned int cmd,
			    unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (IS_ENABLED(CONFIG_FAMFS_LEGACY_ABI))
		return -ENOTTY;
	switch (cmd) {
	case FAMFSIOC_DEV_ADD:
		return famfs_ioc_dev_add(file, argp);
	case FAMFSIOC_DEV_GET:
		return famfs_ioc_dev_get(file, argp);
	case FAMFSIOC_NS:
		return famfs_ioc_ns(file, argp);
	case FAMFSIOC_HELD:
		return famfs_ioc_held(file, argp);
	case FAMFSIOC_UNLINK_MAP:
		return famfs_ioc_unlink_map(file, argp);
	default:
		return -ENOTTY;
	}
}

/* simple_dir_operations, and the ioctls. */
const struct file_operations famfs_dir_operations = {
	.open		= dcache_dir_open,
	.release	= dcache_dir_close,
	.llseek		= dcache_dir_lseek,
	.read		= generic_read_dir,
	.iterate_shared	= dcache_readdir,
	.fsync		= noop_fsync,
	.unlocked_ioctl	= famfs_dir_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};
