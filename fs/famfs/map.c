// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - file maps: offset translation and the per-mount extent tree
 *
 * A file's map is a list of extents; famfs_fmap_resolve() turns a file offset
 * into a device offset.  It is the only place that knows the list format, so
 * other formats (e.g. interleaved extents) only add a case there.
 *
 * Every mount keeps all extents of all its mapped files in one rbtree ordered
 * by device offset.  The kernel is the last line of defence against two files
 * aliasing the same memory (a bug or a race in the user-space allocator, or
 * two hosts' logs diverging): once two files share memory, writes through one
 * silently corrupt the other and nothing can tell afterwards.  So an extent
 * that overlaps any mapped extent (including the superblock and log files,
 * which are mapped files too) is refused.  The extents in the tree never
 * overlap, which makes the overlap test a single O(log n) descent.
 */

#include <linux/slab.h>
#include "famfs.h"

struct famfs_fmap *famfs_fmap_alloc(const struct famfs_ioc_map *imap)
{
	struct famfs_fmap *fmap;
	u64 file_off = 0;
	u32 i;

	/* The caller has validated imap, including ext_list_count. */
	if (WARN_ON_ONCE(!imap->ext_list_count ||
			 imap->ext_list_count > FAMFS_MAX_EXTENTS))
		return ERR_PTR(-EINVAL);

	fmap = kzalloc(struct_size(fmap, ext, imap->ext_list_count),
		       GFP_KERNEL);
	if (!fmap)
		return ERR_PTR(-ENOMEM);

	fmap->file_type = imap->file_type;
	fmap->extent_type = imap->extent_type;
	fmap->file_size = imap->file_size;
	fmap->nr_extents = imap->ext_list_count;
	for (i = 0; i < fmap->nr_extents; i++) {
		struct famfs_kext *ext = &fmap->ext[i];

		ext->dev_off = imap->ext_list[i].offset;
		ext->len = imap->ext_list[i].len;
		ext->file_off = file_off;
		ext->fmap = fmap;
		RB_CLEAR_NODE(&ext->node);
		file_off += ext->len;
		fmap->claim_size += round_up(ext->len, FAMFS_EXTENT_ALIGN);
	}
	fmap->alloc_size = file_off;
	return fmap;
}

void famfs_fmap_free(struct famfs_fmap *fmap)
{
	kfree(fmap);
}

/**
 * famfs_fmap_resolve() - translate a file offset into a device offset
 * @fmap: the file's map
 * @file_off: byte offset in the file
 * @dev_off: returns the device offset that holds @file_off
 * @len: returns how many bytes from there on are contiguous on the device,
 *	 rounded up to a page: the tail of a file's last extent is never
 *	 shared with another extent, since every extent starts 2 MiB aligned.
 *
 * Return: 0, or -ENXIO if @file_off is past the end of the map.
 */
int famfs_fmap_resolve(const struct famfs_fmap *fmap, u64 file_off,
		       u64 *dev_off, u64 *len)
{
	u32 i;

	for (i = 0; i < fmap->nr_extents; i++) {
		const struct famfs_kext *ext = &fmap->ext[i];
		u64 rel;

		if (file_off >= ext->file_off + ext->len)
			continue;
		rel = file_off - ext->file_off;
		*dev_off = ext->dev_off + rel;
		*len = round_up(ext->len, PAGE_SIZE) - rel;
		return 0;
	}
	return -ENXIO;
}

static struct famfs_kext *famfs_ext_of(struct rb_node *n)
{
	return rb_entry(n, struct famfs_kext, node);
}

/* The extent in the tree with the largest dev_off below @end, or NULL. */
static struct famfs_kext *famfs_ext_last_before(struct famfs_sb_info *fsi,
						u64 end)
{
	struct rb_node *n = fsi->ext_tree.rb_node;
	struct famfs_kext *cand = NULL;

	while (n) {
		struct famfs_kext *ext = famfs_ext_of(n);

		if (ext->dev_off < end) {
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
 * @start: first byte of the range (device offset)
 * @end: one past its last byte
 *
 * Caller holds fsi->map_lock.
 *
 * Return: the extent, or NULL if no mapped extent meets [@start, @end).
 */
const struct famfs_kext *
famfs_ext_first_overlap(struct famfs_sb_info *fsi, u64 start, u64 end)
{
	struct famfs_kext *ext, *first = NULL;
	struct rb_node *n;

	lockdep_assert_held(&fsi->map_lock);

	/* Extents in the tree are disjoint: walk down from the last one. */
	ext = famfs_ext_last_before(fsi, end);
	while (ext && ext->dev_off + ext->len > start) {
		first = ext;
		n = rb_prev(&ext->node);
		ext = n ? famfs_ext_of(n) : NULL;
	}
	return first;
}

static void famfs_ext_link(struct famfs_sb_info *fsi, struct famfs_kext *new)
{
	struct rb_node **p = &fsi->ext_tree.rb_node, *parent = NULL;

	while (*p) {
		parent = *p;
		if (new->dev_off < famfs_ext_of(parent)->dev_off)
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
 *
 * All or nothing: either every extent of @fmap goes into the tree, or none.
 *
 * Return: 0, or -EADDRINUSE if any extent overlaps a mapped extent.
 */
int famfs_fmap_insert(struct famfs_sb_info *fsi, struct famfs_fmap *fmap,
		      struct famfs_extent *clash)
{
	u32 i, j;
	int rc = 0;

	memset(clash, 0, sizeof(*clash));
	mutex_lock(&fsi->map_lock);
	for (i = 0; i < fmap->nr_extents; i++) {
		struct famfs_kext *ext = &fmap->ext[i];
		const struct famfs_kext *other;

		/* The map's own extents already inserted are checked too. */
		other = famfs_ext_first_overlap(fsi, ext->dev_off,
						ext->dev_off + ext->len);
		if (other) {
			if (other->fmap != fmap) {
				clash->offset = other->dev_off;
				clash->len = other->len;
			}
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
	u32 i;

	mutex_lock(&fsi->map_lock);
	for (i = 0; i < fmap->nr_extents; i++) {
		struct famfs_kext *ext = &fmap->ext[i];

		if (WARN_ON_ONCE(RB_EMPTY_NODE(&ext->node)))
			continue;
		rb_erase(&ext->node, &fsi->ext_tree);
		RB_CLEAR_NODE(&ext->node);
	}
	if (!WARN_ON_ONCE(fsi->mapped_bytes < fmap->claim_size))
		fsi->mapped_bytes -= fmap->claim_size;
	mutex_unlock(&fsi->map_lock);
}
