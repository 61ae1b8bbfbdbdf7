/* SPDX-License-Identifier: GPL-2.0 */
/*
 * famfs - a file system for memory that several hosts share
 *
 * Internal definitions shared by the files of famfs.ko.
 *
 * famfs keeps no metadata of its own on the memory device: user space (which
 * owns the metadata log) creates files and directories through the ordinary
 * namespace calls and then gives each file its memory with the
 * FAMFSIOC_MAP_CREATE ioctl.  The kernel keeps those maps in memory, resolves
 * faults and read/write through them, and never reads or writes the shared
 * memory itself except on behalf of a read(2)/write(2) of a mapped file.
 *
 * The files are layers, lowest first (scripts/layers.conf, checked by
 * scripts/layers.sh): dev (devdax.c, pages.c), hold (backing.c), map,
 * pins, removal, open (open.c, members.c), ioctl (cache.c, ioctl_v3.c,
 * ioctl.c), file, inode, super.  A file calls its own layer and those
 * below it; what goes up (a device's failure or removal) goes through
 * holder operations that the upper layer registers when it holds the
 * device (dax_holder_operations, struct famfs_daxdev_holder_ops).
 */
#ifndef _FS_FAMFS_FAMFS_H
#define _FS_FAMFS_FAMFS_H

#include <linux/fs.h>
#include <linux/iomap.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/ratelimit.h>
#include <linux/rbtree.h>
#include <linux/rwsem.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <linux/workqueue.h>
#include <linux/famfs_ioctl.h>
#include <linux/famfs_interleave.h>

#define FAMFS_MAGIC		0x87b282ff
#define FAMFS_DEFAULT_MODE	0755

/*
 * Every extent starts on a 2 MiB boundary of the device, and every extent
 * but the last of a file is a whole number of 2 MiB: that is what lets a
 * 2 MiB-aligned file be mapped with PMD entries, and it keeps the tail of
 * one file's last extent from sharing a page with any other extent.
 *
 * Except in a small file's map (FAMFS_IOC_MAP_PAGES, famfs_fmap_pages()):
 * its extents are 4 KiB pages inside one 2 MiB unit each, which other
 * small files share page by page; such a unit holds no other extent (each
 * of those keeps its whole units, see famfs_kext_claim() in map.c), and
 * such a file is mapped with 4 KiB faults only.
 */
#define FAMFS_EXTENT_ALIGN	SZ_2M

/*
 * The memory a mount is backed by: a pmem block device in fsdax mode
 * (@bdev), or a /dev/daxX.Y bound to famfs's own dax-bus driver (@daxdev,
 * devdax.c).  Nothing outside backing.c, open.c and members.c looks at
 * either except to print its name; everything else uses @dax_dev,
 * @dax_start and @size.
 *
 * Device offsets used everywhere else in famfs (extents, statfs, failure
 * ranges) run from 0 to @size; famfs_backing_daddr() turns one into the
 * dax_device offset that iomap wants.
 *
 * A mount has up to FAMFS_MAX_DEVS of them (members.c): device 0, the
 * primary (famfs_sb_info.backing), and members that FAMFSIOC_DEV_ADD
 * attaches.  Each is the holder of its block device, dax_device or devdax
 * claim, so a failure report names the device; @fsi finds the mount.
 */
struct famfs_backing {
	struct famfs_sb_info	*fsi;
	u32			index;		/* 0: primary */
	dev_t			devt;		/* of the device node */
	struct block_device	*bdev;		/* NULL for a devdax backing */
	fmode_t			bdev_mode;
	struct famfs_daxdev	*daxdev;	/* NULL for a pmem backing */
	struct dax_device	*dax_dev;
	u64			dax_start;	/* where the device starts in @dax_dev */
	u64			size;		/* usable bytes */
	unsigned long		pfn;		/* page frame of device offset 0 */
	u64			id;		/* unique per mount, see backing.c */
	/* Removed: its pages are gone (pins.c); under fsi->pages_rwsem. */
	bool			pages_gone;
	/* Its removal or a memory failure in it failed the mount (DEV_GET). */
	bool			failed;
	struct list_head	live;		/* famfs_backings, see backing.c */
};

static inline u64 famfs_backing_daddr(const struct famfs_backing *b, u64 off)
{
	return b->dax_start + off;
}

/*
 * One contiguous range of device memory a mapped file uses: a simple extent,
 * or one strip of an interleaved extent.  Every one of them is a node in the
 * per-mount tree of mapped memory (map.c), from before its map is published
 * (a walker of the tree copies it: famfs_kext_snap()).
 */
struct famfs_kext {
	u64			dev_off;	/* byte offset on the device */
	u64			len;		/* bytes */
	/* simple: where it starts in the file; strip: where its extent does */
	u64			file_off;
	/* in famfs_sb_info.ext_tree, ordered by (@dev, @dev_off) */
	struct rb_node		node;		/* in famfs_sb_info.ext_tree */
	struct famfs_fmap	*fmap;		/* the map it belongs to */
	/* a strip: its interleaved extent and its index there; else NULL */
	struct famfs_kiext	*iext;
	u32			strip;
	u32			dev;		/* device index, < FAMFS_MAX_DEVS */
};

/*
 * An interleaved extent: @nbytes of the file from @file_off on, striped in
 * @chunk_size chunks over @nstrips strips (<linux/famfs_interleave.h>).
 */
struct famfs_kiext {
	u64			file_off;
	u64			nbytes;
	u64			chunk_size;
	u32			nstrips;
	struct famfs_kext	*strips;	/* nstrips entries of fmap->ext */
};

/*
 * The map of one file: set once by FAMFSIOC_MAP_CREATE(_V2) and never
 * changed until the inode is evicted, so readers need no lock once they have
 * seen the pointer (published with smp_store_release(), read with
 * famfs_inode_fmap()).
 *
 * A simple map has @nr_extents extents in file order in @ext (at most
 * FAMFS_IOC_MAX_EXTENTS_V2); an interleaved map has @nr_iext interleaved
 * extents in file order in @iext, and all their strips, in order, in @ext.
 */
struct famfs_fmap {
	struct inode		*inode;		/* back pointer, for failures */
	/*
	 * Unique in the mount, never reused (fsi->map_ids): names the map
	 * in a copy of one of its extents (struct famfs_kext_copy), where
	 * its address could be a later map's.  Set by famfs_fmap_insert().
	 */
	u64			id;
	u32			file_type;	/* enum famfs_file_type */
	u32			extent_type;	/* SIMPLE_ or INTERLEAVED_ */
	bool			pages;		/* FAMFS_IOC_MAP_PAGES: small */
	/*
	 * FAMFS_IOC_MAP_IDENT: the file's identity (the log index of the
	 * FILE entry that made it), compared by FAMFSIOC_UNLINK_MAP.
	 */
	bool			has_ident;
	u64			ident;
	u64			file_size;
	u64			alloc_size;	/* file bytes the extents hold */
	/*
	 * Device bytes the map keeps from every other file: each extent
	 * rounded up to FAMFS_EXTENT_ALIGN, since no other extent can start
	 * in the rest of a 2 MiB block that a ragged last extent ends in;
	 * the pages of a small file's extents exactly.
	 */
	u64			claim_size;
	u32			nr_iext;
	struct famfs_kiext	*iext;		/* NULL for a simple map */
	/*
	 * Evicted while some of its pages were still referenced (pins.c):
	 * in fsi->zombies (map.c), @inode NULL, the pages in @busy_pfns;
	 * under fsi->map_lock.
	 */
	struct list_head	zombie;
	unsigned long		ino;		/* its inode's number, for the log */
	unsigned long		*busy_pfns;
	unsigned int		nr_busy;
	unsigned int		max_busy;
	u32			nr_extents;	/* entries in @ext */
	struct famfs_kext	ext[];
};

/*
 * A copy of one extent of the tree and of its interleaved extent, taken
 * under fsi->map_lock, for a walker that uses it after dropping the lock
 * (famfs_kext_snap()): only @ext.iext (pointing at @iext) is a pointer
 * left in it; @ext.fmap and @iext.strips are NULL.  @map_id is the id of
 * the map it was an extent of (famfs_kext_copy_published()).
 */
struct famfs_kext_copy {
	struct famfs_kext	ext;
	struct famfs_kiext	iext;
	u64			map_id;
};

static inline bool famfs_fmap_interleaved(const struct famfs_fmap *fmap)
{
	return fmap->extent_type == FAMFS_INTERLEAVED_EXTENT;
}

/* A small file's map: page extents (FAMFS_IOC_MAP_PAGES). */
static inline bool famfs_fmap_pages(const struct famfs_fmap *fmap)
{
	return fmap->pages;
}

/*
 * A map as MAP_CREATE, MAP_CREATE_V2 and MAP_CREATE_V3 give it, once the
 * ioctl has read it from user space: ioctl.c validates it, map.c builds the
 * fmap.  @count entries at @ext (simple) or @iext (interleaved); the device
 * of simple extent i is @devs[i], of strip j of interleaved extent i
 * @devs[FAMFS_DEVS_IDX(i, j)] (all 0 but for MAP_CREATE_V3, whose list as
 * read is @v3, for the checks of its device fields; famfs_map_v3_check()).
 * @flags: the v3 header's (FAMFS_MAP_V3_FLAGS), 0 for v1 and v2; with
 * FAMFS_IOC_MAP_IDENT, @ident is the file's identity (the header's
 * reserved[0]).
 */
#define FAMFS_DEVS_IDX(i, j)	((i) * FAMFS_IOC_MAX_STRIPS + (j))
#define FAMFS_MAP_V3_FLAGS	(FAMFS_IOC_MAP_PAGES | FAMFS_IOC_MAP_INVALIDATE | \
				 FAMFS_IOC_MAP_IDENT)
struct famfs_map_req {
	u32				extent_type;
	u32				file_type;
	u32				flags;
	u64				ident;
	u64				file_size;
	u64				count;
	const struct famfs_extent	*ext;
	const struct famfs_ioc_iext	*iext;
	const void			*v3;
	u8				devs[FAMFS_IOC_MAX_EXTENTS_V2];
};

/* famfs_sb_info.flags */
enum {
	FAMFS_SB_FAILED,	/* memory failure: every data access gets EIO */
};

struct famfs_sb_info {
	struct super_block	*sb;
	struct famfs_backing	backing;	/* set at mount, then read-only */
	/*
	 * Every device: [0] is &backing, members are added by DEV_ADD under
	 * dev_lock and stay until the unmount (famfs_dev() reads them).
	 */
	struct famfs_backing	*devs[FAMFS_MAX_DEVS];
	struct mutex		dev_lock;	/* serializes DEV_ADD */
	umode_t			root_mode;	/* mount option "mode" */
	bool			noncoherent;	/* "noncoherent", see cache.c */
	bool			protect;	/* "protect", see nsop.c */
	/*
	 * FAMFSIOC_NS (nsop.c): ns_lock serializes the tool's namespace
	 * changes; ns_owner is the task making one (set and cleared only by
	 * the holder of ns_lock), whose changes the inode operations let
	 * through on a protected mount.  Lock order: sb_writers -> ns_lock ->
	 * i_rwsem.
	 */
	struct mutex		ns_lock;
	struct task_struct	*ns_owner;
	unsigned long		flags;		/* FAMFS_SB_*, atomic bitops */

	/*
	 * map_lock protects ext_tree, mapped_bytes, map_ids and zombies.
	 * Lock order: famfs_holder_lock -> inode->i_rwsem -> map_lock.
	 */
	struct mutex		map_lock;
	struct rb_root		ext_tree;	/* every mapped extent, by dev_off */
	u64			mapped_bytes;	/* sum of the maps' claim_size */
	u64			map_ids;	/* the last famfs_fmap.id given */
	struct list_head	zombies;	/* maps of evicted files, map.c */
	/* Read while eviction looks at the device's pages, see pins.c. */
	struct rw_semaphore	pages_rwsem;
	/*
	 * An unmount that could not wait for its zombies hands the rest to
	 * a worker (pins.c); @sb is NULL from then on, @id names the mount.
	 */
	struct work_struct	zombie_work;
	char			id[32];

	struct ratelimit_state	msg_rs;		/* for famfs_err() and co */
};

struct famfs_inode_info {
	/* NULL until MAP_CREATE; see struct famfs_fmap */
	struct famfs_fmap	*fmap;
	/*
	 * Open files (struct file) of the inode made while it had no map:
	 * raised under i_rwsem in famfs_file_open(), lowered at their release.
	 * MAP_CREATE (under i_rwsem) needs it to be 1, the caller's own.
	 */
	atomic_t		unmapped_opens;
	/* GiBs mapped with a PUD entry, FAMFS_PUD_DIRTY marks; see pud.c */
	struct xarray		pud_gibs;
	/* GiBs faulted in 2 MiB or 4 KiB pages: never mapped whole (pud.c) */
	struct xarray		pud_small;
	/* serializes a GiB's PUD faults with its writeback */
	struct mutex		pud_lock;
	struct inode		vfs_inode;
};

static inline struct famfs_sb_info *FAMFS_SB(const struct super_block *sb)
{
	return sb->s_fs_info;
}

/*
 * Device @i of a mount, or NULL if none is attached there.  A map names
 * only attached devices, and they stay until the unmount: the data path
 * may use the result of famfs_dev() for a device its map names unchecked.
 */
static inline struct famfs_backing *famfs_dev(const struct famfs_sb_info *fsi,
					      u32 i)
{
	if (i >= FAMFS_MAX_DEVS)
		return NULL;
	/* Pairs with smp_store_release() in famfs_ioc_dev_add(). */
	return smp_load_acquire(&fsi->devs[i]);
}

static inline struct famfs_inode_info *FAMFS_I(const struct inode *inode)
{
	return container_of(inode, struct famfs_inode_info, vfs_inode);
}

/* The file's map, or NULL if it has none yet. */
static inline struct famfs_fmap *famfs_inode_fmap(const struct inode *inode)
{
	/* Pairs with smp_store_release() in famfs_ioc_map_create(). */
	return smp_load_acquire(&FAMFS_I(inode)->fmap);
}

/* Remount may change it: read once per call. */
static inline bool famfs_noncoherent(const struct famfs_sb_info *fsi)
{
	return READ_ONCE(fsi->noncoherent);
}

static inline bool famfs_sb_failed(const struct famfs_sb_info *fsi)
{
	return test_bit(FAMFS_SB_FAILED, &fsi->flags);
}

/*
 * Per-mount log messages, prefixed with the device name and rate limited per
 * mount, so one misbehaving mount cannot silence the others.
 */
static inline bool famfs_msg_ok(const struct super_block *sb)
{
	return __ratelimit(&FAMFS_SB(sb)->msg_rs);
}

#define famfs_log(prfn, sb, fmt, ...)					\
do {									\
	const struct super_block *__sb = (sb);				\
									\
	if (famfs_msg_ok(__sb))						\
		prfn("famfs (%s): " fmt "\n", __sb->s_id, ##__VA_ARGS__);	\
} while (0)

#define famfs_err(sb, fmt, ...)		famfs_log(pr_err, sb, fmt, ##__VA_ARGS__)
#define famfs_warn(sb, fmt, ...)	famfs_log(pr_warn, sb, fmt, ##__VA_ARGS__)
#define famfs_info(sb, fmt, ...)	famfs_log(pr_info, sb, fmt, ##__VA_ARGS__)

/*
 * A /dev/daxX.Y bound to the "famfs" dax-bus driver (devdax.c).  The binding,
 * each open file of the character device and each mount hold a reference, so
 * a mount or an open file can outlive an unbind: every access then fails, and
 * nothing touches freed memory.
 */
struct dev_dax;
struct dev_pagemap;
struct famfs_daxdev;

/*
 * What the holder of a /dev/daxX.Y (a mount's device, backing.c) is told,
 * as a pmem device's holder is told through its dax_holder_operations:
 * the holder passes them with its claim (famfs_daxdev_claim()), and the
 * driver (devdax.c) calls them without a lock of its own, so each looks up
 * @fdd's holder again under the holder's lock and finds none if it let go
 * meanwhile.
 *
 * @notify_failure: a memory failure in device bytes [@offset, @offset +
 *	@len); returns -EBUSY if the holder cannot handle it (its mount is
 *	going away: memory_failure()'s generic handler then runs)
 * @gone: the device is being unbound; returns once the holder let go of
 *	every page (the driver then waits for the pages' other references)
 */
struct famfs_daxdev_holder_ops {
	int (*notify_failure)(struct famfs_daxdev *fdd, u64 offset, u64 len,
			      int mf_flags);
	void (*gone)(struct famfs_daxdev *fdd);
};

struct famfs_daxdev {
	struct kref		kref;
	struct list_head	list;		/* famfs_daxdevs, while bound */
	char			name[32];	/* "daxX.Y" */
	dev_t			devt;		/* of /dev/daxX.Y */
	phys_addr_t		phys;		/* the device's one memory range */
	u64			size;
	struct dax_device	*dax_dev;	/* ours, with dax_operations */
	struct dev_dax		*dev_dax;	/* only while bound */
	struct dev_pagemap	*pgmap;		/* only while bound */
	struct inode		*cdev_inode;	/* dax inode of /dev/daxX.Y */
	atomic_t		nr_poison;	/* pages we marked HWPoison */
	/*
	 * @writers, @holder and @holder_ops are written under famfs_dax_lock;
	 * @holder also under the holder's lock (famfs_holder_lock: it claims
	 * and unclaims with that held), so either lock is enough to read it.
	 */
	int			writers;	/* writable opens of /dev/daxX.Y */
	void			*holder;	/* the mount's device, or NULL */
	const struct famfs_daxdev_holder_ops *holder_ops;
};

/* open.c */
struct fs_context;
int famfs_backing_open(struct famfs_sb_info *fsi, struct fs_context *fc);
const char *famfs_dax_pages(struct dax_device *dax_dev, u64 start_off,
			    u64 size, unsigned long *pfn);

/* backing.c */
struct dax_holder_operations;
extern struct mutex famfs_holder_lock;
void famfs_backing_close(struct famfs_sb_info *fsi);
bool famfs_backing_read_only(const struct famfs_backing *b);
int famfs_backing_flush(const struct famfs_backing *b);
int famfs_flush_devs(struct famfs_sb_info *fsi);
void famfs_backing_close_one(struct famfs_backing *b);
int famfs_backing_hold_bdev(struct famfs_backing *b, struct block_device *bdev,
			    const struct dax_holder_operations *ops);
int famfs_backing_hold_devdax(struct famfs_backing *b, dev_t devt,
			      const char *path, struct fs_context *fc,
			      u64 size, u64 *dev_size,
			      const struct famfs_daxdev_holder_ops *ops);
void famfs_wait_backing_closed(u64 id, const char *who);
struct dax_device *famfs_wb_dax_dev(struct famfs_sb_info *fsi);

/* removal.c: what a device's holder is told */
extern const struct dax_holder_operations famfs_dax_holder_ops;
extern const struct famfs_daxdev_holder_ops famfs_daxdev_holder_ops;

/* members.c */
int famfs_ioc_dev_add(struct file *file, struct famfs_ioc_dev_add __user *uarg);
int famfs_ioc_dev_get(struct file *file, struct famfs_ioc_dev_info __user *uarg);

/* pud.c */
void famfs_pud_init(struct famfs_inode_info *fi);
void famfs_pud_forget(struct famfs_inode_info *fi);
bool famfs_pud_tracked(struct inode *inode);
void famfs_pud_quiesce(struct inode *inode);
unsigned long famfs_get_unmapped_area(struct file *filp, unsigned long addr,
				      unsigned long len, unsigned long pgoff,
				      unsigned long flags);
vm_fault_t famfs_pud_fault(struct vm_fault *vmf);
vm_fault_t famfs_pud_exclude(struct vm_fault *vmf);
int famfs_pud_writeback(struct inode *inode, loff_t start, loff_t end);
bool famfs_pud_dirty(struct inode *inode);
int famfs_pud_mprotect(struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, unsigned long newflags);
int famfs_pud_may_split(struct vm_area_struct *vma, unsigned long addr);
void famfs_pud_vma_open(struct vm_area_struct *vma);
void famfs_pud_vma_close(struct vm_area_struct *vma);
struct page *famfs_pud_next_busy(struct inode *inode, pgoff_t *index);
void famfs_pud_kill(struct inode *inode, u64 start, u64 end, int mf_flags);

/* devdax.c (stubs without CONFIG_FAMFS_DEVDAX) */
#ifdef CONFIG_FAMFS_DEVDAX
int famfs_devdax_init(void);
void famfs_devdax_exit(void);
struct famfs_daxdev *
famfs_daxdev_claim(dev_t devt, const char *path, void *holder,
		   const struct famfs_daxdev_holder_ops *ops,
		   struct fs_context *fc, u64 min_size, u64 *size);
void famfs_daxdev_unclaim(struct famfs_daxdev *fdd);
int famfs_daxdev_explain(dev_t devt, const char *path, struct fs_context *fc);
#else
static inline int famfs_devdax_init(void)
{
	return 0;
}

static inline void famfs_devdax_exit(void)
{
}

static inline struct famfs_daxdev *
famfs_daxdev_claim(dev_t devt, const char *path, void *holder,
		   const struct famfs_daxdev_holder_ops *ops,
		   struct fs_context *fc, u64 min_size, u64 *size)
{
	return ERR_PTR(-ENOTBLK);
}

static inline void famfs_daxdev_unclaim(struct famfs_daxdev *fdd)
{
}

static inline int famfs_daxdev_explain(dev_t devt, const char *path,
				       struct fs_context *fc)
{
	return -ENOTBLK;
}
#endif

/* map.c */
struct famfs_fmap *famfs_fmap_alloc(const struct famfs_map_req *req);
void famfs_fmap_free(struct famfs_fmap *fmap);
int famfs_fmap_resolve(const struct famfs_fmap *fmap, u64 file_off,
		       u32 *dev, u64 *dev_off, u64 *len);
int famfs_fmap_insert(struct famfs_sb_info *fsi, struct famfs_fmap *fmap,
		      struct famfs_extent *clash, u32 *index);
void famfs_fmap_remove(struct famfs_sb_info *fsi, struct famfs_fmap *fmap);
void __famfs_fmap_remove(struct famfs_sb_info *fsi, struct famfs_fmap *fmap);
const struct famfs_kext *
famfs_ext_first_overlap(struct famfs_sb_info *fsi, u32 dev, u64 start,
			u64 end);
bool famfs_kext_file_off(const struct famfs_kext *ext, u64 dev_off,
			 u64 *file_off, u64 *dev_end);
void famfs_kext_snap(struct famfs_kext_copy *dst, const struct famfs_kext *src);
bool famfs_kext_copy_published(const struct famfs_kext_copy *copy,
			       const struct inode *inode);
void famfs_zombie_add(struct famfs_sb_info *fsi, struct famfs_fmap *fmap);
void famfs_zombies_reap(struct famfs_sb_info *fsi);
u64 famfs_ext_held(struct famfs_sb_info *fsi, u32 dev, u64 start, u64 end,
		   u32 *flags);

/*
 * pages.c: an fs-dax page is idle when only its owner holds it; anything
 * more (a pipe, O_DIRECT in flight) is a reference famfs waits for.
 */
static inline bool famfs_page_busy(struct page *page)
{
	return page_ref_count(page) > 1;
}

/* Buffer for the @describe callback of famfs_wait_pages_idle() */
#define FAMFS_OWNER_LEN		256

int famfs_wait_page_idle(struct page *page, const char *who, const char *what,
			 bool killable);
void famfs_wait_pages_idle(const char *who, unsigned long pfn,
			   unsigned long nr,
			   void (*describe)(void *ctx, unsigned long pfn,
					    char *buf, size_t size),
			   void *ctx);

/* pins.c */
void famfs_detach_dev(struct inode *inode, u32 dev);
bool famfs_pins_evict(struct inode *inode);
bool famfs_zombies_unmount(struct famfs_sb_info *fsi);
int famfs_pins_init(void);
void famfs_pins_exit(void);
void famfs_zombies_gone(struct famfs_sb_info *fsi, struct famfs_backing *b);
void famfs_wait_range_idle(struct famfs_sb_info *fsi, const char *who,
			   unsigned long pfn, unsigned long nr);
void famfs_pins_queue(struct work_struct *work);

/* cache.c */
int famfs_cache_range(struct inode *inode, const char *why, unsigned int op,
		      u64 pos, u64 len);
int famfs_ioc_cache(struct file *file, struct famfs_ioc_cache __user *uarg);
int famfs_cache_fmap(struct inode *inode, const struct famfs_fmap *fmap);

/* inode.c */
extern const struct inode_operations famfs_dir_inode_operations;
extern const struct inode_operations famfs_file_inode_operations;
struct inode *famfs_new_inode(struct super_block *sb, const struct inode *dir,
			      umode_t mode);

/* file.c */
extern const struct file_operations famfs_file_operations;
extern const struct address_space_operations famfs_dax_aops;
extern const struct iomap_ops famfs_iomap_ops;

/* Who is being refused what: for the log lines of the map ioctls. */
struct famfs_mc {
	struct super_block	*sb;
	unsigned long		ino;
	const char		*op;
};

#define famfs_mc_err(mc, fmt, ...)					\
do {									\
	const struct famfs_mc *__mc = (mc);				\
									\
	famfs_err(__mc->sb, "%s: inode %lu: " fmt, __mc->op, __mc->ino,	\
		  ##__VA_ARGS__);					\
} while (0)

/* nsop.c: what a protected mount refuses, and FAMFSIOC_NS */
#define FAMFS_META_NAME		".meta"
enum famfs_refuse {
	FAMFS_REFUSE_CREATE,
	FAMFS_REFUSE_MKDIR,
	FAMFS_REFUSE_UNLINK,
	FAMFS_REFUSE_RMDIR,
	FAMFS_REFUSE_RENAME,
	FAMFS_REFUSE_CHMOD,
	FAMFS_REFUSE_CHOWN,
	FAMFS_REFUSE_LINK,
	FAMFS_REFUSE_SYMLINK,
	FAMFS_REFUSE_MKNOD,
};

int famfs_ns_refused(struct dentry *dentry, enum famfs_refuse what);
long famfs_ioc_ns(struct file *file, struct famfs_ioc_ns __user *uarg);
long famfs_ioc_unlink_map(struct file *file,
			  struct famfs_ioc_unlink_map __user *uarg);
extern const struct file_operations famfs_dir_operations;

/* held.c */
long famfs_ioc_held(struct file *file, struct famfs_ioc_held __user *uarg);

/* ioctl.c */
long famfs_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg);
int famfs_map_create(struct file *file, struct famfs_map_req *req,
		     const struct famfs_ioc_map_v2 *v2, int version);

/* ioctl_v3.c */
void *famfs_fmap_list_v3(const struct famfs_fmap *fmap, size_t *size);
bool famfs_fmap_single_dev(const struct famfs_fmap *fmap);
void *famfs_map_v3_convert(struct famfs_map_req *req);
int famfs_map_v3_check(const struct famfs_mc *mc,
		       const struct famfs_map_req *req, u64 i, u32 j);
bool famfs_map_v3_unused_zero(const struct famfs_map_req *req, u64 i, u32 j);
int famfs_map_pages_header(const struct famfs_mc *mc,
			   const struct famfs_map_req *req);
int famfs_check_page(const struct famfs_mc *mc,
		     const struct famfs_map_req *req, u64 i);

#endif /* _FS_FAMFS_FAMFS_H */
