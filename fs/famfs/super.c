// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - mount, superblock, statfs, module init
 *
 *   mount -t famfs [-o mode=0755,dax=always,protect] /dev/pmemN|/dev/daxX.Y MPT
 *
 * A mount starts with an empty root directory; user space fills it in from
 * the metadata log.  "mode" is the root directory's mode at mount time
 * (ignored by remount); "dax=always" is accepted because it is what famfs
 * always does, and any other dax value, or any other option, is refused.
 * "protect" (famfs mount and mount.famfs give it; remount may switch it,
 * "noprotect" turns it off) leaves every change of the namespace, chmod
 * and chown to the famfs tool (nsop.c); without it, as the 2024 user space
 * expects, any process may make them.
 *
 * A read-only pmem device (blockdev --setro) mounts read-only only, and
 * remount,rw of it fails with EROFS: the VFS checks that only for file
 * systems with an s_bdev, which get_tree_nodev() does not set.  A mount
 * warns once when the device's dax write cache is off: dax_flush() then
 * writes no CPU cache back, so fsync and msync publish nothing to the memory
 * other hosts read.
 *
 * Layer "super" (scripts/layers.conf), the top: owns the mount, the super
 * block, inode eviction and module init; calls any file below.
 */

#include <linux/blkdev.h>
#include <linux/dax.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/statfs.h>
#include "famfs.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

static struct kmem_cache *famfs_inode_cachep;

static struct inode *famfs_alloc_inode(struct super_block *sb)
{
	struct famfs_inode_info *fi;

	fi = alloc_inode_sb(sb, famfs_inode_cachep, GFP_KERNEL);
	if (!fi)
		return NULL;
	fi->fmap = NULL;
	atomic_set(&fi->unmapped_opens, 0);
	famfs_pud_init(fi);
	return &fi->vfs_inode;
}

static void famfs_free_inode(struct inode *inode)
{
	kmem_cache_free(famfs_inode_cachep, FAMFS_I(inode));
}

static void famfs_evict_inode(struct inode *inode)
{
	struct famfs_inode_info *fi = FAMFS_I(inode);
	struct famfs_fmap *fmap = fi->fmap;
	bool pinned = false;

	/*
	 * Pages still referenced (a pipe, O_DIRECT) keep the memory reserved
	 * after the file is gone (pins.c); their DAX entries go here.
	 */
	if (fmap)
		pinned = famfs_pins_evict(inode);
	famfs_pud_forget(fi);
	truncate_inode_pages_final(&inode->i_data);
	clear_inode(inode);
	if (fmap) {
		/* No file, mapping or fault can reach the map any more. */
		fi->fmap = NULL;
		if (pinned) {
			famfs_zombie_add(FAMFS_SB(inode->i_sb), fmap);
		} else {
			famfs_fmap_remove(FAMFS_SB(inode->i_sb), fmap);
			famfs_fmap_free(fmap);
		}
	}
}

static int famfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	u64 used, size = 0;
	u32 i;

	/* Every device of the mount: the primary and the attached members. */
	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_backing *b = famfs_dev(fsi, i);

		if (b)
			size += b->size;
	}
	mutex_lock(&fsi->map_lock);
	famfs_zombies_reap(fsi);
	used = fsi->mapped_bytes;
	mutex_unlock(&fsi->map_lock);

	buf->f_type = FAMFS_MAGIC;
	buf->f_bsize = PAGE_SIZE;
	buf->f_frsize = PAGE_SIZE;
	buf->f_blocks = size >> PAGE_SHIFT;
	used = DIV_ROUND_UP(used, PAGE_SIZE);
	buf->f_bfree = buf->f_blocks > used ? buf->f_blocks - used : 0;
	buf->f_bavail = buf->f_bfree;
	buf->f_namelen = NAME_MAX;
	if (fsi->backing.bdev)
		buf->f_fsid = u64_to_fsid(huge_encode_dev(fsi->backing.bdev->bd_dev));
	else if (fsi->backing.daxdev)
		buf->f_fsid = u64_to_fsid(huge_encode_dev(fsi->backing.daxdev->devt));
	return 0;
}

/*
 * Write back every file with stores not written back: dirty DAX entries of
 * 4 KiB and 2 MiB mappings, dirty GiBs of 1 GiB mappings (pud.c).  famfs
 * inodes come from new_inode() and are never hashed, so
 * __mark_inode_dirty() puts none of them on a writeback list: neither
 * sync(2) nor syncfs(2) nor unmount nor the flusher reaches them otherwise.
 * Context: s_umount held.  Returns the first error; the rest is still
 * written back.
 */
static int famfs_sync_inodes(struct super_block *sb)
{
	struct inode *inode, *toput = NULL;
	int rc = 0, err;

	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list) {
		spin_lock(&inode->i_lock);
		if ((inode->i_state & (I_FREEING | I_WILL_FREE | I_NEW)) ||
		    !S_ISREG(inode->i_mode) ||
		    (!famfs_pud_dirty(inode) &&
		     !mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY))) {
			spin_unlock(&inode->i_lock);
			continue;
		}
		__iget(inode);
		spin_unlock(&inode->i_lock);
		spin_unlock(&sb->s_inode_list_lock);

		/* ->writepages: the GiBs, then the DAX entries */
		err = famfs_pud_writeback(inode, 0, LLONG_MAX);
		if (!err)
			err = filemap_fdatawrite(inode->i_mapping);
		if (!rc)
			rc = err;
		iput(toput);
		toput = inode;
		cond_resched();

		spin_lock(&sb->s_inode_list_lock);
	}
	spin_unlock(&sb->s_inode_list_lock);
	iput(toput);
	return rc;
}

/*
 * sync(2), syncfs(2), unmount: every file's stores, then the device flush
 * that fsync does (file.c)
 */
static int famfs_sync_fs(struct super_block *sb, int wait)
{
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	int rc, flush;

	if (!wait || famfs_sb_failed(fsi))
		return 0;
	rc = famfs_sync_inodes(sb);
	flush = famfs_flush_devs(fsi);
	return rc ?: flush;
}

static int famfs_show_options(struct seq_file *m, struct dentry *root)
{
	struct famfs_sb_info *fsi = FAMFS_SB(root->d_sb);

	seq_printf(m, ",mode=%o,dax=always", fsi->root_mode);
	if (famfs_noncoherent(fsi))
		seq_puts(m, ",noncoherent");
	if (READ_ONCE(fsi->protect))
		seq_puts(m, ",protect");
	return 0;
}

static const struct super_operations famfs_super_ops = {
	.alloc_inode	= famfs_alloc_inode,
	.free_inode	= famfs_free_inode,
	.evict_inode	= famfs_evict_inode,
	.drop_inode	= generic_delete_inode,
	.statfs		= famfs_statfs,
	.sync_fs	= famfs_sync_fs,
	.show_options	= famfs_show_options,
};

/* Mount options, parsed into fc->fs_private before the superblock exists. */
struct famfs_fs_context {
	umode_t		mode;
	int		noncoherent;	/* -1: not given, else 0 or 1 */
	int		protect;	/* -1: not given, else 0 or 1 */
};

enum famfs_param {
	FAMFS_OPT_MODE,
	FAMFS_OPT_DAX,
	FAMFS_OPT_COHERENT,
	FAMFS_OPT_NONCOHERENT,
	FAMFS_OPT_PROTECT,
	FAMFS_OPT_NOPROTECT,
};

enum famfs_dax_mode {
	FAMFS_DAX_ALWAYS,
};

static const struct constant_table famfs_dax_modes[] = {
	{ "always",	FAMFS_DAX_ALWAYS },
	{}
};

static const struct fs_parameter_spec famfs_fs_parameters[] = {
	fsparam_u32oct("mode",		FAMFS_OPT_MODE),
	fsparam_enum("dax",		FAMFS_OPT_DAX, famfs_dax_modes),
	fsparam_flag("coherent",	FAMFS_OPT_COHERENT),
	fsparam_flag("noncoherent",	FAMFS_OPT_NONCOHERENT),
	fsparam_flag("protect",		FAMFS_OPT_PROTECT),
	fsparam_flag("noprotect",	FAMFS_OPT_NOPROTECT),
	{}
};

static int famfs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct famfs_fs_context *ctx = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	/*
	 * Unknown options come back as -ENOPARAM; the VFS then takes "source"
	 * and refuses anything else with -EINVAL and a log line.
	 */
	opt = fs_parse(fc, famfs_fs_parameters, param, &result);
	if (opt < 0)
		return opt;

	switch (opt) {
	case FAMFS_OPT_MODE:
		if (result.uint_32 & ~S_IALLUGO)
			return invalfc(fc, "mode %o has bits other than permissions",
				       result.uint_32);
		ctx->mode = result.uint_32;
		break;
	case FAMFS_OPT_DAX:
		/* "always" is the only value the table lets through. */
		break;
	case FAMFS_OPT_COHERENT:
	case FAMFS_OPT_NONCOHERENT:
		ctx->noncoherent = opt == FAMFS_OPT_NONCOHERENT;
		break;
	case FAMFS_OPT_PROTECT:
	case FAMFS_OPT_NOPROTECT:
		/* the legacy-ABI test module answers as the 2024 one did */
		if (IS_ENABLED(CONFIG_FAMFS_LEGACY_ABI))
			return invalfc(fc, "Unknown parameter '%s'", param->key);
		ctx->protect = opt == FAMFS_OPT_PROTECT;
		break;
	}
	return 0;
}

static int famfs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct famfs_fs_context *ctx = fc->fs_private;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	struct inode *root;
	int rc;

	fsi->sb = sb;
	fsi->root_mode = ctx->mode;
	fsi->noncoherent = ctx->noncoherent > 0;
	fsi->protect = ctx->protect > 0;

	sb->s_maxbytes = MAX_LFS_FILESIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_magic = FAMFS_MAGIC;
	sb->s_op = &famfs_super_ops;
	sb->s_time_gran = 1;

	rc = famfs_backing_open(fsi, fc);
	if (rc)
		return rc;
	if (fsi->backing.bdev)
		snprintf(sb->s_id, sizeof(sb->s_id), "%pg", fsi->backing.bdev);
	else
		strscpy(sb->s_id, fsi->backing.daxdev->name, sizeof(sb->s_id));

	/* A bdi that can write back, so fsync reaches dax writepages. */
	rc = super_setup_bdi(sb);
	if (rc)
		return rc;

	root = famfs_new_inode(sb, NULL, S_IFDIR | fsi->root_mode);
	if (IS_ERR(root))
		return PTR_ERR(root);
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;

	if (!dax_write_cache_enabled(fsi->backing.dax_dev))
		famfs_warn(sb, "the device's dax write cache is off: fsync and msync write no CPU cache back, so other hosts may not see data written through mappings");
	famfs_info(sb, "mounted, %llu bytes of memory%s%s", fsi->backing.size,
		   fsi->noncoherent ? ", not cache-coherent" : "",
		   fsi->protect ? ", protected" : "");
	return 0;
}

static int famfs_get_tree(struct fs_context *fc)
{
	struct famfs_sb_info *fsi;

	fsi = kzalloc(sizeof(*fsi), GFP_KERNEL);
	if (!fsi)
		return -ENOMEM;
	mutex_init(&fsi->map_lock);
	mutex_init(&fsi->dev_lock);
	mutex_init(&fsi->ns_lock);
	fsi->devs[0] = &fsi->backing;
	fsi->ext_tree = RB_ROOT;
	INIT_LIST_HEAD(&fsi->zombies);
	init_rwsem(&fsi->pages_rwsem);
	ratelimit_state_init(&fsi->msg_rs, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);

	/*
	 * Every mount gets a superblock of its own; the exclusive open of the
	 * device (holder: this fsi) is what refuses a second mount of it.
	 * From here on the superblock owns fsi (famfs_kill_sb frees it).
	 */
	fc->s_fs_info = fsi;
	return get_tree_nodev(fc, famfs_fill_super);
}

static int famfs_reconfigure(struct fs_context *fc)
{
	struct famfs_fs_context *ctx = fc->fs_private;
	struct super_block *sb = fc->root->d_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	u32 i;

	/*
	 * What reconfigure_super() checks only when s_bdev is set, for every
	 * device: a member attached to a read-only mount was not checked
	 * (members.c).  DEV_ADD holds s_umount for read, this runs under it
	 * for write: no member is attached while the mount changes.
	 */
	if ((fc->sb_flags_mask & SB_RDONLY) && !(fc->sb_flags & SB_RDONLY)) {
		for (i = 0; i < FAMFS_MAX_DEVS; i++) {
			struct famfs_backing *b = famfs_dev(fsi, i);

			if (!b || !famfs_backing_read_only(b))
				continue;
			if (i)
				errorfc(fc, "%s: member device %u (%pg) is read-only",
					sb->s_id, i, b->bdev);
			else
				errorfc(fc, "%s: the device is read-only",
					sb->s_id);
			return -EROFS;
		}
	}
	sync_filesystem(sb);
	if (ctx->noncoherent >= 0 &&
	    ctx->noncoherent != famfs_noncoherent(fsi)) {
		WRITE_ONCE(fsi->noncoherent, ctx->noncoherent);
		famfs_info(sb, "now %s", ctx->noncoherent ?
			   "not cache-coherent" : "cache-coherent");
	}
	if (ctx->protect >= 0 && ctx->protect != READ_ONCE(fsi->protect)) {
		WRITE_ONCE(fsi->protect, ctx->protect);
		famfs_info(sb, "now %s", ctx->protect ?
			   "protected: the namespace, chmod and chown are the famfs tool's" :
			   "not protected");
	}
	return 0;
}

static void famfs_free_fc(struct fs_context *fc)
{
	/* fsi is still here only if get_tree failed before sget. */
	kfree(fc->s_fs_info);
	kfree(fc->fs_private);
}

static const struct fs_context_operations famfs_context_ops = {
	.free		= famfs_free_fc,
	.parse_param	= famfs_parse_param,
	.get_tree	= famfs_get_tree,
	.reconfigure	= famfs_reconfigure,
};

static int famfs_init_fs_context(struct fs_context *fc)
{
	struct famfs_fs_context *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->mode = FAMFS_DEFAULT_MODE;
	ctx->noncoherent = -1;
	ctx->protect = -1;
	fc->fs_private = ctx;
	fc->ops = &famfs_context_ops;
	return 0;
}

static void famfs_kill_sb(struct super_block *sb)
{
	struct famfs_sb_info *fsi = FAMFS_SB(sb);

	/*
	 * Stores not written back yet, first: generic_shutdown_super() syncs
	 * only after the dentries go, and with them (unhashed) every inode.
	 */
	if (fsi && sb->s_root)
		sync_filesystem(sb);
	/*
	 * Drops the dentries pinned at creation and evicts every inode, which
	 * gives every map's memory back.
	 */
	kill_litter_super(sb);
	if (!fsi)
		return;
	/*
	 * Deleted files' pages still referenced: the memory is not free yet.
	 * If this task cannot wait for them, a worker does (pins.c).
	 */
	if (!famfs_zombies_unmount(fsi))
		return;
	WARN_ON_ONCE(!RB_EMPTY_ROOT(&fsi->ext_tree) || fsi->mapped_bytes);
	famfs_backing_close(fsi);
	kfree(fsi);
}

static struct file_system_type famfs_fs_type = {
	.owner			= THIS_MODULE,
	.name			= "famfs",
	.init_fs_context	= famfs_init_fs_context,
	.parameters		= famfs_fs_parameters,
	.kill_sb		= famfs_kill_sb,
};
MODULE_ALIAS_FS("famfs");

static void famfs_inode_init_once(void *obj)
{
	struct famfs_inode_info *fi = obj;

	inode_init_once(&fi->vfs_inode);
}

/* The ioctl ABI is frozen; compat_ptr_ioctl relies on this layout. */
static void __init famfs_check_abi(void)
{
	BUILD_BUG_ON(sizeof(struct famfs_extent) != FAMFS_IOC_EXTENT_SIZE);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_cache) != FAMFS_IOC_CACHE_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_extent, offset) != 0);
	BUILD_BUG_ON(offsetof(struct famfs_extent, len) != 8);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_map) != FAMFS_IOC_MAP_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map, extent_type) != 0);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map, file_type) != 4);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map, file_size) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map, ext_list_count) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map, ext_list) != 24);
	BUILD_BUG_ON(FAMFS_IOC_MAP_SIZE % 8);
	BUILD_BUG_ON(_IOC_SIZE(FAMFSIOC_MAP_CREATE) != FAMFS_IOC_MAP_SIZE);
	BUILD_BUG_ON(_IOC_SIZE(FAMFSIOC_MAP_GET) != FAMFS_IOC_MAP_SIZE);
	BUILD_BUG_ON(_IOC_SIZE(FAMFSIOC_MAP_GETEXT) != FAMFS_IOC_EXTENT_SIZE);

	/* v2: fixed-width fields, explicit padding, a __u64 pointer. */
	BUILD_BUG_ON(sizeof(struct famfs_ioc_iext) != FAMFS_IOC_IEXT_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_iext, nstrips) != 0);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_iext, reserved) != 4);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_iext, chunk_size) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_iext, nbytes) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_iext, strips) != 24);
	BUILD_BUG_ON(FAMFS_IOC_IEXT_SIZE !=
		     24 + FAMFS_IOC_MAX_STRIPS * FAMFS_IOC_EXTENT_SIZE);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_map_v2) != FAMFS_IOC_MAP_V2_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, extent_type) != 0);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, file_type) != 4);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, file_size) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, ext_count) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, flags) != 20);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, ext_list) != 24);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_map_v2, reserved) != 32);
	BUILD_BUG_ON(FAMFS_IOC_IEXT_SIZE % 8 || FAMFS_IOC_MAP_V2_SIZE % 8);
	BUILD_BUG_ON(_IOC_SIZE(FAMFSIOC_MAP_CREATE_V2) != FAMFS_IOC_MAP_V2_SIZE);
	BUILD_BUG_ON(_IOC_SIZE(FAMFSIOC_MAP_GET_V2) != FAMFS_IOC_MAP_V2_SIZE);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_MAP_CREATE_V2) != 5 ||
		     _IOC_DIR(FAMFSIOC_MAP_CREATE_V2) != _IOC_WRITE);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_MAP_GET_V2) != 6 ||
		     _IOC_DIR(FAMFSIOC_MAP_GET_V2) != (_IOC_READ | _IOC_WRITE));
	/* v3 (issue 16): several devices; map lists with device indexes. */
	BUILD_BUG_ON(sizeof(struct famfs_ioc_dev_add) != FAMFS_IOC_DEV_ADD_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_add, fd) != 0);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_add, index) != 4);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_add, size) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_add, flags) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_add, reserved2) != 24);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_dext) != FAMFS_IOC_DEXT_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dext, devindex) != 16);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_iext_v3) != FAMFS_IOC_IEXT_V3_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_iext_v3, strips) != 24);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_dev_info) != FAMFS_IOC_DEV_INFO_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_info, size) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_dev_info, reserved) != 24);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_ns) != FAMFS_IOC_NS_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, name) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, new_name) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, name_len) != 24);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, new_dir_fd) != 32);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, mode) != 40);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, reserved0) != 52);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_ns, reserved) != 56);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_NS) != 12 ||
		     _IOC_DIR(FAMFSIOC_NS) != _IOC_WRITE ||
		     _IOC_SIZE(FAMFSIOC_NS) != FAMFS_IOC_NS_SIZE);
	/* FAMFSIOC_HELD: the same layout for 32- and 64-bit callers */
	BUILD_BUG_ON(sizeof(struct famfs_ioc_held) != FAMFS_IOC_HELD_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_held, flags) != 4);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_held, ranges) != 8);
	BUILD_BUG_ON(sizeof(struct famfs_ioc_held_range) !=
		     FAMFS_IOC_HELD_RANGE_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_held_range, flags) != 4);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_held_range, offset) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_held_range, len) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_held_range, held) != 24);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_HELD) != 13 ||
		     _IOC_DIR(FAMFSIOC_HELD) != (_IOC_READ | _IOC_WRITE) ||
		     _IOC_SIZE(FAMFSIOC_HELD) != FAMFS_IOC_HELD_SIZE);
	/* FAMFSIOC_UNLINK_MAP: the same layout for 32- and 64-bit callers */
	BUILD_BUG_ON(sizeof(struct famfs_ioc_unlink_map) !=
		     FAMFS_IOC_UNLINK_MAP_SIZE);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_unlink_map, name_len) != 8);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_unlink_map, flags) != 12);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_unlink_map, reserved) != 16);
	BUILD_BUG_ON(offsetof(struct famfs_ioc_unlink_map, map) != 32);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_UNLINK_MAP) != 14 ||
		     _IOC_DIR(FAMFSIOC_UNLINK_MAP) != _IOC_WRITE ||
		     _IOC_SIZE(FAMFSIOC_UNLINK_MAP) !=
		     FAMFS_IOC_UNLINK_MAP_SIZE);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_DEV_ADD) != 8 ||
		     _IOC_SIZE(FAMFSIOC_DEV_ADD) != FAMFS_IOC_DEV_ADD_SIZE);
	BUILD_BUG_ON(_IOC_NR(FAMFSIOC_MAP_CREATE_V3) != 9 ||
		     _IOC_NR(FAMFSIOC_MAP_GET_V3) != 10 ||
		     _IOC_NR(FAMFSIOC_DEV_GET) != 11);
	/* famfs_map_req.devs: a u8 per simple extent or strip. */
	BUILD_BUG_ON(FAMFS_MAX_DEVS > 256 ||
		     FAMFS_IOC_MAX_IEXTENTS * FAMFS_IOC_MAX_STRIPS >
		     FAMFS_IOC_MAX_EXTENTS_V2);
	/* famfs_interleave_pos() returns its strip index as a __u32. */
	BUILD_BUG_ON(sizeof(struct famfs_ipos) != 24);
}

static int __init famfs_init(void)
{
	int rc;

	famfs_check_abi();

	famfs_inode_cachep = kmem_cache_create("famfs_inode_cache",
					       sizeof(struct famfs_inode_info),
					       0, SLAB_RECLAIM_ACCOUNT |
					       SLAB_MEM_SPREAD | SLAB_ACCOUNT,
					       famfs_inode_init_once);
	if (!famfs_inode_cachep)
		return -ENOMEM;

	/*
	 * The dax-bus driver for /dev/daxX.Y (devdax.c) first: a mount of a
	 * /dev/daxX.Y may come as soon as the file system is registered.
	 */
	rc = famfs_pins_init();
	if (rc)
		goto out_cache;
	rc = famfs_devdax_init();
	if (rc)
		goto out_pins;
	rc = register_filesystem(&famfs_fs_type);
	if (rc)
		goto out_devdax;
	return 0;

out_devdax:
	famfs_devdax_exit();
out_pins:
	famfs_pins_exit();
out_cache:
	kmem_cache_destroy(famfs_inode_cachep);
	return rc;
}

static void __exit famfs_exit(void)
{
	/* No mount can exist (each pins the module): no new one either. */
	unregister_filesystem(&famfs_fs_type);
	famfs_devdax_exit();
	famfs_pins_exit();
	/* Inodes are freed after an RCU grace period. */
	rcu_barrier();
	kmem_cache_destroy(famfs_inode_cachep);
}

module_init(famfs_init);
module_exit(famfs_exit);

MODULE_DESCRIPTION("famfs: a file system for memory shared between hosts");
MODULE_LICENSE("GPL");
