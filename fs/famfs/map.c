// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - file maps: offset translation and the per-mount extent tree
 *
 * A file's map is a list of simple extents, or a list of interleaved extents
 * each striped over up to 16 strips; famfs_fmap_resolve() turns a file
 * offset into a device offset (O(log n), never a walk over chunks).  It and
 * famfs_kext_file_off() are the only places that know the formats.
 *
 * Every mount keeps all extents of all its mapped files in one rbtree ordered
 * by device index, then device offset (a mount may have several devices,
 * members.c; the same offset on two devices is not an overlap).  The kernel
 * is the last line of defence against two files aliasing the same memory
 * (a bug or a race in the user-space allocator, or two hosts' logs
 * diverging): once two files share memory, writes through one silently
 * corrupt the other and nothing can tell afterwards.  So an extent
 * that overlaps any mapped extent (including the superblock and log files,
 * which are mapped files too) is refused.  Every simple extent and every
 * strip of an interleaved extent is a node of the tree.  The extents in the
 * tree never overlap, which makes the overlap test a single O(log n) descent.
 *
 * What an extent keeps from the others is its claim (famfs_kext_claim()):
 * the whole 2 MiB units it touches, or for a small file's page extent
 * (FAMFS_IOC_MAP_PAGES) its pages alone.  So small files share a unit page
 * by page, and a unit that holds a page extent holds nothing else.  The
 * claims in the tree are disjoint; where an extent's bytes are (faults,
 * failures, pins) is its length, never its claim.
 *
 * Layer "map" (scripts/layers.conf): owns the maps, the extent tree,
 * mapped_bytes and the zombie list (fsi->map_lock); calls no other file of
 * famfs (famfs_page_busy() and famfs_dev() are inlines of famfs.h).
 */

#include <linux/bsearch.h>
#include <linux/slab.h>
#include "famfs.h"

/*
 * Device bytes from @ext->dev_off on that @ext keeps from every other
 * extent: a page extent its pages, any other extent the rest of the 2 MiB
 * unit its last byte is in too (no other extent but a page one could start
 * there, and a page one must not: its unit would be shared with a file that
 * may be mapped with PMD entries).
 */
static u64 famfs_kext_claim(const struct famfs_kext *ext)
{
	return famfs_fmap_pages(ext->fmap) ? ext->len :
	       round_up(ext->len, FAMFS_EXTENT_ALIGN);
}

static void famfs_kext_init(struct famfs_fmap *fmap, struct famfs_kext *ext,
			    const struct famfs_extent *uext, u64 file_off,
			    u32 dev)
{
	ext->dev = dev;
	ext->dev_off = uext->offset;
	ext->len = uext->len;
	ext->file_off = file_off;
	ext->fmap = fmap;
	RB_CLEAR_NODE(&ext->node);
	fmap->claim_size += famfs_kext_claim(ext);
}

/**
 * famfs_fmap_alloc() - build the in-kernel map of a validated request
 * @req: the map, validated by ioctl.c (counts, strips, sizes)
 *
 * Return: the map, its extents not yet in the mount's tree, or an ERR_PTR.
 */
struct famfs_fmap *famfs_fmap_alloc(const struct famfs_map_req *req)
{
	bool il = req->extent_type == FAMFS_INTERLEAVED_EXTENT;
	struct famfs_fmap *fmap;
	u64 file_off = 0, nr = 0;
	u32 i, j, k;

	if (WARN_ON_ONCE(!req->count ||
			 req->count > (il ? FAMFS_IOC_MAX_IEXTENTS :
				       FAMFS_IOC_MAX_EXTENTS_V2)))
		return ERR_PTR(-EINVAL);
	if (il) {
		for (i = 0; i < req->count; i++) {
			if (WARN_ON_ONCE(!req->iext[i].nstrips ||
					 req->iext[i].nstrips >
					 FAMFS_IOC_MAX_STRIPS))
				return ERR_PTR(-EINVAL);
			nr += req->iext[i].nstrips;
		}
	} else {
		nr = req->count;
	}

	fmap = kvzalloc(struct_size(fmap, ext, nr), GFP_KERNEL);
	if (!fmap)
		return ERR_PTR(-ENOMEM);
	fmap->file_type = req->file_type;
	fmap->extent_type = req->extent_type;
	fmap->pages = !il && (req->flags & FAMFS_IOC_MAP_PAGES);
	fmap->has_ident = !!(req->flags & FAMFS_IOC_MAP_IDENT);
	fmap->ident = fmap->has_ident ? req->ident : 0;
	fmap->file_size = req->file_size;
	fmap->nr_extents = nr;

	if (!il) {
		for (i = 0; i < nr; i++) {
			famfs_kext_init(fmap, &fmap->ext[i], &req->ext[i],
					file_off, req->devs[i]);
			file_off += req->ext[i].len;
		}
		fmap->alloc_size = file_off;
		return fmap;
	}

	fmap->iext = kcalloc(req->count, sizeof(*fmap->iext), GFP_KERNEL);
	if (!fmap->iext) {
		kvfree(fmap);
		return ERR_PTR(-ENOMEM);
	}
	fmap->nr_iext = req->count;
	for (i = 0, k = 0; i < req->count; i++) {
		const struct famfs_ioc_iext *uie = &req->iext[i];
		struct famfs_kiext *ie = &fmap->iext[i];

		ie->file_off = file_off;
		ie->nbytes = uie->nbytes;
		ie->chunk_size = uie->chunk_size;
		ie->nstrips = uie->nstrips;
		ie->strips = &fmap->ext[k];
		for (j = 0; j < uie->nstrips; j++, k++) {
			famfs_kext_init(fmap, &fmap->ext[k], &uie->strips[j],
					file_off,
					req->devs[FAMFS_DEVS_IDX(i, j)]);
			fmap->ext[k].iext = ie;
			fmap->ext[k].strip = j;
		}
		file_off += uie->nbytes;
	}
	fmap->alloc_size = file_off;
	return fmap;
}

void famfs_fmap_free(struct famfs_fmap *fmap)
{
	if (!fmap)
		return;
	kfree(fmap->iext);
	kvfree(fmap);
}

static int famfs_kext_cmp(const void *key, const void *elt)
{
	u64 off = *(const u64 *)key;
	const struct famfs_kext *ext = elt;

	if (off < ext->file_off)
		return -1;
	return off - ext->file_off < ext->len ? 0 : 1;
}

static int famfs_kiext_cmp(const void *key, const void *elt)
{
	u64 off = *(const u64 *)key;
	const struct famfs_kiext *ie = elt;

	if (off < ie->file_off)
		return -1;
	return off - ie->file_off < ie->nbytes ? 0 : 1;
}

/**
 * famfs_fmap_resolve() - translate a file offset into a device offset
 * @fmap: the file's map
 * @file_off: byte offset in the file
 * @dev: returns the index of the device that holds it
 * @dev_off: returns the device offset that holds @file_off
 * @len: returns how many bytes from there on are contiguous on the device,
 *	 rounded up to a page: the tail of a file's last extent is never
 *	 shared with another extent, since every extent starts 2 MiB aligned
 *	 and keeps its whole last unit (famfs_kext_claim()); a small file's
 *	 page extent is whole pages, and this is exactly the rest of it, never
 *	 a byte of a neighbour's page.  In an interleaved extent that is the
 *	 rest of the chunk, at most to the end of the extent (rounded up to a
 *	 page).
 *
 * O(log n) in the number of extents: a binary search on the file offset
 * (extents follow each other in the file), then, in an interleaved extent,
 * famfs_interleave_pos().
 *
 * Return: 0, or -ENXIO if @file_off is past the end of the map.
 */
int famfs_fmap_resolve(const struct famfs_fmap *fmap, u64 file_off,
		       u32 *dev, u64 *dev_off, u64 *len)
{
	const struct famfs_kiext *ie;
	const struct famfs_kext *ext;
	struct famfs_ipos pos;
	u64 rel;

	if (!famfs_fmap_interleaved(fmap)) {
		ext = bsearch(&file_off, fmap->ext, fmap->nr_extents,
			      sizeof(*ext), famfs_kext_cmp);
		if (!ext)
			return -ENXIO;
		rel = file_off - ext->file_off;
		*dev = ext->dev;
		*dev_off = ext->dev_off + rel;
		*len = round_up(ext->len, PAGE_SIZE) - rel;
		return 0;
	}

	ie = bsearch(&file_off, fmap->iext, fmap->nr_iext, sizeof(*ie),
		     famfs_kiext_cmp);
	if (!ie)
		return -ENXIO;
	rel = file_off - ie->file_off;
	pos = famfs_interleave_pos(rel, ie->chunk_size, ie->nstrips);
	/* Validation made every strip hold all of its chunks. */
	*dev = ie->strips[pos.strip].dev;
	*dev_off = ie->strips[pos.strip].dev_off + pos.strip_off;
	*len = min(pos.chunk_left, round_up(ie->nbytes, PAGE_SIZE) - rel);
	return 0;
}

/**
 * famfs_kext_file_off() - the file offset a device offset of an extent holds
 * @ext: a simple extent or a strip
 * @dev_off: a device offset in @ext
 * @file_off: returns the file offset (if there is one)
 * @dev_end: returns where the run of device bytes from @dev_off on ends that
 *	     hold consecutive file bytes (in a strip: at most to the end of
 *	     the chunk and of the extent's bytes); or, if @dev_off holds no
 *	     file bytes, the end of @ext
 *
 * For memory failures: the inverse of famfs_fmap_resolve().  A strip may be
 * longer than the chunks it holds, and the last chunk of an extent may be
 * partly used: those device bytes belong to no file offset, in particular
 * not to the offsets of the next extent that the chunk arithmetic would run
 * on into.
 *
 * Return: true if @dev_off holds a byte of the file, false if it (and the
 * rest of @ext) holds none.
 */
bool famfs_kext_file_off(const struct famfs_kext *ext, u64 dev_off,
			 u64 *file_off, u64 *dev_end)
{
	const struct famfs_kiext *ie = ext->iext;
	u64 rel = dev_off - ext->dev_off, off, run;

	if (!ie) {
		*file_off = ext->file_off + rel;
		*dev_end = ext->dev_off + ext->len;
		return true;
	}
	off = famfs_interleave_strip_off(rel, ie->chunk_size, ie->nstrips,
					 ext->strip, ie->nbytes, &run);
	if (!run) {
		*dev_end = ext->dev_off + ext->len;
		return false;
	}
	*file_off = ie->file_off + off;
	*dev_end = dev_off + run;
	return true;
}

/**
 * famfs_kext_snap() - copy an extent of the tree, to use without map_lock
 * @dst: the copy
 * @src: an extent in fsi->ext_tree; the caller holds fsi->map_lock
 *
 * An extent in the tree is freed with its map, and a map does not always
 * live as long as its inode: MAP_CREATE inserts it (@fmap->inode set) and
 * may still remove and free it before publishing it (ioctl.c: the cache
 * drop of FAMFS_IOC_MAP_INVALIDATE failing with EIO or EINTR), a file's
 * eviction moves it to the zombies or frees it.  So whoever found @src
 * under the lock uses the copy after dropping it, never @src, and needs
 * nothing of the copy but famfs_kext_file_off() and its fields.  Whether
 * the copy's file offsets are the file's at all is for
 * famfs_kext_copy_published() to say.
 */
void famfs_kext_snap(struct famfs_kext_copy *dst, const struct famfs_kext *src)
{
	dst->map_id = src->fmap->id;
	dst->ext = *src;
	RB_CLEAR_NODE(&dst->ext.node);
	dst->ext.fmap = NULL;
	if (src->iext) {
		dst->iext = *src->iext;
		dst->iext.strips = NULL;
		dst->ext.iext = &dst->iext;
	} else {
		memset(&dst->iext, 0, sizeof(dst->iext));
	}
}

/**
 * famfs_kext_copy_published() - is a copied extent one of a file's map?
 * @copy: a copy of an extent (famfs_kext_snap()) whose map's inode was
 *	  @inode
 * @inode: the inode, a reference on it held (igrab())
 *
 * The map the extent was in may not have been published: MAP_CREATE puts
 * it in the tree before it publishes it, and may still fail (ioctl.c), and
 * then a later MAP_CREATE may publish another map, whose file offsets are
 * others, possibly at the same address.  Only a published map has file
 * bytes anything can map, and a published map is the file's until its
 * eviction, which the reference on @inode keeps off: so the copy's file
 * offsets are the file's, for as long as the reference is held, iff the
 * map published now is the one the extent was copied from (by its id,
 * which no other map of the mount ever has, not by its address).
 *
 * Return: true if @copy is an extent of @inode's published map.
 */
bool famfs_kext_copy_published(const struct famfs_kext_copy *copy,
			       const struct inode *inode)
{
	const struct famfs_fmap *fmap = famfs_inode_fmap(inode);

	/* @fmap->id was set before the map was published (release). */
	return fmap && fmap->id == copy->map_id;
}

static struct famfs_kext *famfs_ext_of(struct rb_node *n)
{
	return rb_entry(n, struct famfs_kext, node);
}

/* The tree's order: is (@d1, @o1) before (@d2, @o2)? */
static bool famfs_key_lt(u32 d1, u64 o1, u32 d2, u64 o2)
{
	return d1 < d2 || (d1 == d2 && o1 < o2);
}

/*
 * The extent of device @dev in the tree with the largest dev_off below
 * @end, or NULL.
 */
static struct famfs_kext *famfs_ext_last_before(struct famfs_sb_info *fsi,
						u32 dev, u64 end)
{
	struct rb_node *n = fsi->ext_tree.rb_node;
	struct famfs_kext *cand = NULL;

	while (n) {
		struct famfs_kext *ext = famfs_ext_of(n);

		if (famfs_key_lt(ext->dev, ext->dev_off, dev, end)) {
			cand = ext;
			n = n->rb_right;
		} else {
			n = n->rb_left;
		}
	}
	return cand;
}

/**
 * famfs_ext_first_overlap() - the lowest mapped extent that meets a range
 * @fsi: the mount
 * @dev: the device
 * @start: first byte of the range (device offset)
 * @end: one past its last byte
 *
 * Caller holds fsi->map_lock.
 *
 * Return: the extent, or NULL if no mapped extent meets [@start, @end).
 */
const struct famfs_kext *
famfs_ext_first_overlap(struct famfs_sb_info *fsi, u32 dev, u64 start,
			u64 end)
{
	struct famfs_kext *ext, *first = NULL;
	struct rb_node *n;

	lockdep_assert_held(&fsi->map_lock);

	/* Extents in the tree are disjoint: walk down from the last one. */
	ext = famfs_ext_last_before(fsi, dev, end);
	while (ext && ext->dev == dev && ext->dev_off + ext->len > start) {
		first = ext;
		n = rb_prev(&ext->node);
		ext = n ? famfs_ext_of(n) : NULL;
	}
	return first;
}

/*
 * The mapped extent of device @dev whose claim (famfs_kext_claim()) meets
 * [@start, @end), or NULL.  The claims in the tree are disjoint and in the
 * tree's order, so only the one that starts last before @end can.  Caller
 * holds fsi->map_lock.
 */
static const struct famfs_kext *
famfs_ext_claim_overlap(struct famfs_sb_info *fsi, u32 dev, u64 start,
			u64 end)
{
	struct famfs_kext *ext = famfs_ext_last_before(fsi, dev, end);

	if (ext && ext->dev == dev &&
	    ext->dev_off + famfs_kext_claim(ext) > start)
		return ext;
	return NULL;
}

static void famfs_ext_link(struct famfs_sb_info *fsi, struct famfs_kext *new)
{
	struct rb_node **p = &fsi->ext_tree.rb_node, *parent = NULL;

	while (*p) {
		parent = *p;
		if (famfs_key_lt(new->dev, new->dev_off,
				 famfs_ext_of(parent)->dev,
				 famfs_ext_of(parent)->dev_off))
			p = &parent->rb_left;
		else
			p = &parent->rb_right;
	}
	rb_link_node(&new->node, parent, p);
	rb_insert_color(&new->node, &fsi->ext_tree);
}

/**
 * famfs_fmap_insert() - claim the memory of a map for one file
 * @fsi: the mount
 * @fmap: a validated map whose extents are not yet in the tree
 * @clash: on -EADDRINUSE, a copy of the mapped extent that was in the way;
 *	   its length is 0 if two extents of @fmap overlap each other
 * @index: on -EADDRINUSE, the index in @fmap->ext of the extent (or strip)
 *	   that overlaps
 *
 * All or nothing: either every extent of @fmap goes into the tree, or none.
 *
 * Return: 0, or -EADDRINUSE if any extent overlaps a mapped extent.
 */
int famfs_fmap_insert(struct famfs_sb_info *fsi, struct famfs_fmap *fmap,
		      struct famfs_extent *clash, u32 *index)
{
	u32 i, j;
	int rc = 0;

	memset(clash, 0, sizeof(*clash));
	mutex_lock(&fsi->map_lock);
	/* Before any extent is in the tree: famfs_kext_snap() copies it. */
	fmap->id = ++fsi->map_ids;
	/* Memory of evicted files whose pages were referenced (below). */
	famfs_zombies_reap(fsi);
	for (i = 0; i < fmap->nr_extents; i++) {
		struct famfs_kext *ext = &fmap->ext[i];
		const struct famfs_kext *other;

		/*
		 * Claims, not bytes: a page extent in the unit of another
		 * kind of extent (its ragged tail included), or the reverse,
		 * is refused.  The map's own extents already inserted are
		 * checked too.
		 */
		other = famfs_ext_claim_overlap(fsi, ext->dev, ext->dev_off,
						ext->dev_off +
						famfs_kext_claim(ext));
		if (other) {
			if (other->fmap != fmap) {
				clash->offset = other->dev_off;
				clash->len = other->len;
			}
			*index = i;
			rc = -EADDRINUSE;
			break;
		}
		famfs_ext_link(fsi, ext);
	}
	if (rc) {
		for (j = 0; j < i; j++) {
			rb_erase(&fmap->ext[j].node, &fsi->ext_tree);
			RB_CLEAR_NODE(&fmap->ext[j].node);
		}
	} else {
		fsi->mapped_bytes += fmap->claim_size;
	}
	mutex_unlock(&fsi->map_lock);
	return rc;
}

/* Give the memory of a map back; the map must have been inserted. */
void famfs_fmap_remove(struct famfs_sb_info *fsi, struct famfs_fmap *fmap)
{
	mutex_lock(&fsi->map_lock);
	__famfs_fmap_remove(fsi, fmap);
	mutex_unlock(&fsi->map_lock);
}

/* Give the memory of extent @ext (in the tree) back.  Under map_lock. */
static void famfs_kext_release(struct famfs_sb_info *fsi,
			       struct famfs_kext *ext)
{
	u64 claim = famfs_kext_claim(ext);

	rb_erase(&ext->node, &fsi->ext_tree);
	RB_CLEAR_NODE(&ext->node);
	if (!WARN_ON_ONCE(fsi->mapped_bytes < claim))
		fsi->mapped_bytes -= claim;
}

/* famfs_fmap_remove() with fsi->map_lock held. */
void __famfs_fmap_remove(struct famfs_sb_info *fsi, struct famfs_fmap *fmap)
{
	u32 i;

	lockdep_assert_held(&fsi->map_lock);
	for (i = 0; i < fmap->nr_extents; i++) {
		struct famfs_kext *ext = &fmap->ext[i];

		/* A zombie gave back its extents without a referenced page. */
		if (RB_EMPTY_NODE(&ext->node)) {
			WARN_ON_ONCE(fmap->inode);
			continue;
		}
		famfs_kext_release(fsi, ext);
	}
}

/*
 * Zombies: the maps of evicted files some of whose pages were still
 * referenced (pins.c records which).  Their extents that hold a recorded
 * page stay in the tree, so statfs counts them and MAP_CREATE cannot have
 * their memory, until the last recorded page in them is idle; no new
 * reference can appear, so reaping looks at the recorded pages only.  An
 * extent with no recorded page is given back at once (famfs_zombie_trim()):
 * a small file with a page in a pipe keeps that page extent only, never its
 * other pages or its unit.  The list is under map_lock.
 */

/* Is @pfn a page of a device of @fsi that is gone?  Under map_lock. */
static bool famfs_pfn_gone(struct famfs_sb_info *fsi, unsigned long pfn)
{
	u32 i;

	for (i = 0; i < FAMFS_MAX_DEVS; i++) {
		struct famfs_backing *b = famfs_dev(fsi, i);

		if (b && b->pages_gone && pfn >= b->pfn &&
		    pfn - b->pfn < (b->size >> PAGE_SHIFT))
			return true;
	}
	return false;
}

/* Does extent @ext of zombie @fmap hold one of its recorded pages? */
static bool famfs_kext_pinned(struct famfs_sb_info *fsi,
			      const struct famfs_fmap *fmap,
			      const struct famfs_kext *ext)
{
	const struct famfs_backing *b = famfs_dev(fsi, ext->dev);
	unsigned long first, nr;
	unsigned int i;

	if (WARN_ON_ONCE(!b))
		return true;
	first = b->pfn + (ext->dev_off >> PAGE_SHIFT);
	nr = DIV_ROUND_UP(ext->len, PAGE_SIZE);
	for (i = 0; i < fmap->nr_busy; i++)
		if (fmap->busy_pfns[i] - first < nr)
			return true;
	return false;
}

/*
 * Give back the extents (strips) of zombie @fmap that hold none of its
 * recorded pages: nothing references their pages, and nothing can any
 * more.  Context: map_lock held.
 */
static void famfs_zombie_trim(struct famfs_sb_info *fsi,
			      struct famfs_fmap *fmap)
{
	u32 i;

	for (i = 0; i < fmap->nr_extents; i++) {
		struct famfs_kext *ext = &fmap->ext[i];

		if (!RB_EMPTY_NODE(&ext->node) &&
		    !famfs_kext_pinned(fsi, fmap, ext))
			famfs_kext_release(fsi, ext);
	}
}

/* Free the zombies whose pages are all idle.  Context: map_lock held. */
void famfs_zombies_reap(struct famfs_sb_info *fsi)
{
	struct famfs_fmap *fmap, *tmp;

	lockdep_assert_held(&fsi->map_lock);
	list_for_each_entry_safe(fmap, tmp, &fsi->zombies, zombie) {
		unsigned int was = fmap->nr_busy;

		/* An idle page stays idle: drop it from the record. */
		while (fmap->nr_busy) {
			unsigned long pfn = fmap->busy_pfns[fmap->nr_busy - 1];

			if (!famfs_pfn_gone(fsi, pfn) &&
			    famfs_page_busy(pfn_to_page(pfn)))
				break;
			fmap->nr_busy--;
		}
		if (fmap->nr_busy) {
			if (fmap->nr_busy != was)
				famfs_zombie_trim(fsi, fmap);
			continue;
		}
		list_del(&fmap->zombie);
		__famfs_fmap_remove(fsi, fmap);
		kvfree(fmap->busy_pfns);
		famfs_fmap_free(fmap);
	}
}

/**
 * famfs_zombie_add() - keep an evicted file's memory until its pages are idle
 * @fsi: the mount
 * @fmap: the file's map, in the extent tree, with its referenced pages
 *	  recorded by famfs_pins_evict() (pins.c)
 */
void famfs_zombie_add(struct famfs_sb_info *fsi, struct famfs_fmap *fmap)
{
	mutex_lock(&fsi->map_lock);
	/* Memory failures find no file to kill through (famfs_kill_range()). */
	fmap->ino = fmap->inode->i_ino;
	fmap->inode = NULL;
	list_add_tail(&fmap->zombie, &fsi->zombies);
	famfs_zombie_trim(fsi, fmap);
	/* The device may be gone already: then it waited for the pages. */
	famfs_zombies_reap(fsi);
	mutex_unlock(&fsi->map_lock);
}

/**
 * famfs_ext_held() - how many bytes of a device range the mount's maps hold
 * @fsi: the mount
 * @dev: the device
 * @start: first byte of the range (device offset, 4 KiB aligned)
 * @end: one past its last byte (4 KiB aligned)
 * @flags: returns FAMFS_HELD_LIVE if a map of a live inode meets the range,
 *	   FAMFS_HELD_ZOMBIE if a zombie's does (both if both), else 0
 *
 * For FAMFSIOC_HELD.  Every map of an inode still in memory and every
 * extent a zombie keeps is in the tree, so the tree alone answers; an
 * extent's bytes are its length rounded up to 4 KiB (where it ends in a
 * page it holds the page).  Caller holds fsi->map_lock (and reaped the
 * zombies first, or a released one still counts).
 *
 * Return: the bytes of [@start, @end) in extents of the tree.
 */
u64 famfs_ext_held(struct famfs_sb_info *fsi, u32 dev, u64 start, u64 end,
		   u32 *flags)
{
	const struct famfs_kext *ext;
	struct rb_node *n;
	u64 held = 0;

	lockdep_assert_held(&fsi->map_lock);
	*flags = 0;
	for (ext = famfs_ext_first_overlap(fsi, dev, start, end);
	     ext && ext->dev == dev && ext->dev_off < end;
	     ext = n ? famfs_ext_of(n) : NULL) {
		u64 s = max(start, ext->dev_off);
		u64 e = min(end, ext->dev_off + round_up(ext->len, SZ_4K));

		if (e > s) {
			held += e - s;
			*flags |= ext->fmap->inode ? FAMFS_HELD_LIVE :
						     FAMFS_HELD_ZOMBIE;
		}
		n = rb_next(&ext->node);
	}
	return held;
}
