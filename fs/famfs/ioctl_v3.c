// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - maps that name devices: FAMFSIOC_MAP_CREATE_V3, FAMFSIOC_MAP_GET_V3
 *
 * A mount may have several devices (members.c).  The v3 map ioctls take the
 * v2 header, but their entries (struct famfs_ioc_dext, struct
 * famfs_ioc_iext_v3) give each extent and each strip a device index.
 * MAP_CREATE_V3 turns the list into the v2 entries and famfs_map_req's
 * devs[], keeps the list (req->v3), and goes through the checks of
 * MAP_CREATE_V2 (ioctl.c), which check each extent and strip against its own
 * device, each after the checks of its device fields here
 * (famfs_map_v3_check()): the first failing check of the first failing
 * extent or strip wins, as <linux/famfs_ioctl.h> says.
 *
 * Small files come through MAP_CREATE_V3 alone (flag FAMFS_IOC_MAP_PAGES):
 * their header and page extents are checked here too
 * (famfs_map_pages_header(), famfs_check_page()), in the order of the
 * contract.
 *
 * Layer "ioctl" (scripts/layers.conf): the v3 lists only; calls no other
 * file of famfs (ioctl.c calls it).
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include "famfs.h"

/* Extent @i (or its strip @j if @strip): reserved 0, a device attached. */
static int famfs_dext_check(const struct famfs_mc *mc,
			    const struct famfs_ioc_dext *d, u64 i, u32 j,
			    bool strip)
{
	char what[40];

	if (strip)
		snprintf(what, sizeof(what), "extent %llu strip %u", i, j);
	else
		snprintf(what, sizeof(what), "extent %llu", i);
	if (d->reserved) {
		famfs_mc_err(mc, "%s: reserved field %#x is not 0", what,
			     d->reserved);
		return -EINVAL;
	}
	if (!famfs_dev(FAMFS_SB(mc->sb), d->devindex)) {
		famfs_mc_err(mc, "%s: no device %u is attached", what,
			     d->devindex);
		return -ENODEV;
	}
	return 0;
}

/**
 * famfs_map_v3_check() - the device fields of one extent or strip
 * @mc: for the log line
 * @req: the request
 * @i: simple extent @i, or interleaved extent @i...
 * @j: ...its strip @j (< nstrips, <= FAMFS_IOC_MAX_STRIPS)
 *
 * Called just before the extent's (strip's) own checks, so that the order
 * of the checks is extent by extent (strip by strip).
 *
 * Return: 0 (also for v1 and v2 requests), -EINVAL (reserved not 0),
 * -ENODEV (devindex names no attached device).
 */
int famfs_map_v3_check(const struct famfs_mc *mc,
		       const struct famfs_map_req *req, u64 i, u32 j)
{
	if (!req->v3)
		return 0;
	if (req->extent_type != FAMFS_INTERLEAVED_EXTENT)
		return famfs_dext_check(mc,
				&((const struct famfs_ioc_dext *)req->v3)[i],
				i, 0, false);
	return famfs_dext_check(mc,
			&((const struct famfs_ioc_iext_v3 *)req->v3)[i].strips[j],
			i, j, true);
}

/**
 * famfs_map_pages_header() - the header checks of a small file's map
 * @mc: for the log line
 * @req: a request with FAMFS_IOC_MAP_PAGES, its extent and file types known
 *
 * Page extents are 4 KiB pages of the device that other small files' pages
 * sit beside: they need 4 KiB kernel pages (the smallest fault), and are
 * for a regular file below FAMFS_IOC_SMALL_MAX bytes in a simple map of
 * 1..FAMFS_IOC_MAX_PAGE_EXTENTS extents.
 *
 * Return: 0, -EOPNOTSUPP, -EINVAL, -E2BIG or -EFBIG.
 */
int famfs_map_pages_header(const struct famfs_mc *mc,
			   const struct famfs_map_req *req)
{
	if (PAGE_SIZE != FAMFS_IOC_PAGE_SIZE) {
		famfs_mc_err(mc, "page extents need 4 KiB pages, this kernel's are %lu bytes",
			     PAGE_SIZE);
		return -EOPNOTSUPP;
	}
	if (req->extent_type != SIMPLE_DAX_EXTENT ||
	    req->file_type != FAMFS_REG) {
		famfs_mc_err(mc, "page extents are for a regular file's simple map, not extent type %u, file type %u",
			     req->extent_type, req->file_type);
		return -EINVAL;
	}
	if (!req->count) {
		famfs_mc_err(mc, "no extents");
		return -EINVAL;
	}
	if (req->count > FAMFS_IOC_MAX_PAGE_EXTENTS) {
		famfs_mc_err(mc, "%llu page extents, at most %d allowed",
			     req->count, FAMFS_IOC_MAX_PAGE_EXTENTS);
		return -E2BIG;
	}
	if (req->file_size >= FAMFS_IOC_SMALL_MAX) {
		famfs_mc_err(mc, "file size %llu is too large for page extents (below %llu)",
			     req->file_size, FAMFS_IOC_SMALL_MAX);
		return -EFBIG;
	}
	return 0;
}

/**
 * famfs_check_page() - page extent @i of a small file's map
 * @mc: for the log line
 * @req: the request (FAMFS_IOC_MAP_PAGES), extent @i's device attached
 * @i: the extent
 *
 * Whole 4 KiB pages, no wrap, inside one 2 MiB unit of the device (the
 * unit is what maps without the flag keep whole, map.c), inside the device
 * and not in its first unit (device offset 0's: its superblock's).
 *
 * Return: 0, -EINVAL, -EOVERFLOW or -ENXIO.
 */
int famfs_check_page(const struct famfs_mc *mc,
		     const struct famfs_map_req *req, u64 i)
{
	u64 dev_size = famfs_dev(FAMFS_SB(mc->sb), req->devs[i])->size;
	u64 off = req->ext[i].offset;
	u64 len = req->ext[i].len;
	u64 end;

	if (!len || !IS_ALIGNED(off, FAMFS_IOC_PAGE_SIZE) ||
	    !IS_ALIGNED(len, FAMFS_IOC_PAGE_SIZE)) {
		famfs_mc_err(mc, "page extent %llu (%#llx+%#llx) is not whole 4 KiB pages",
			     i, off, len);
		return -EINVAL;
	}
	if (check_add_overflow(off, len, &end)) {
		famfs_mc_err(mc, "extent %llu offset %#llx + length %#llx overflows",
			     i, off, len);
		return -EOVERFLOW;
	}
	if (round_down(off, FAMFS_EXTENT_ALIGN) !=
	    round_down(end - 1, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu (%#llx+%#llx) crosses a 2 MiB boundary",
			     i, off, len);
		return -EINVAL;
	}
	if (end > dev_size) {
		famfs_mc_err(mc, "extent %llu (%#llx+%#llx) ends past the device (%#llx bytes)",
			     i, off, len, dev_size);
		return -ENXIO;
	}
	if (off < FAMFS_EXTENT_ALIGN) {
		famfs_mc_err(mc, "extent %llu (%#llx+%#llx) lies in the device's first 2 MiB, its superblock's",
			     i, off, len);
		return -EINVAL;
	}
	return 0;
}

/*
 * Are the device fields of unused strip @j (>= nstrips) of interleaved
 * extent @i 0?  (Its offset and length are checked as in v2.)
 */
bool famfs_map_v3_unused_zero(const struct famfs_map_req *req, u64 i, u32 j)
{
	const struct famfs_ioc_dext *d;

	if (!req->v3)
		return true;
	d = &((const struct famfs_ioc_iext_v3 *)req->v3)[i].strips[j];
	return !d->devindex && !d->reserved;
}

static void famfs_dext_to_ext(struct famfs_extent *e,
			      const struct famfs_ioc_dext *d)
{
	e->offset = d->offset;
	e->len = d->len;
}

/**
 * famfs_map_v3_convert() - the v3 list req->v3 into v2 entries and req->devs
 * @req: the request (count checked); req->ext or req->iext points to the
 *	 result on success only
 *
 * Nothing is checked here: the device fields are checked extent by extent
 * with the v2 checks (famfs_map_v3_check()); until then a device index in
 * req->devs is only a number (clamped to a u8).
 *
 * Return: the buffer to kfree() with the v2 entries, or ERR_PTR(-ENOMEM).
 */
void *famfs_map_v3_convert(struct famfs_map_req *req)
{
	bool il = req->extent_type == FAMFS_INTERLEAVED_EXTENT;
	struct famfs_ioc_iext *ie;
	struct famfs_extent *ext;
	void *out;
	u64 i;
	u32 j;

	out = kcalloc(req->count, il ? sizeof(*ie) : sizeof(*ext), GFP_KERNEL);
	if (!out)
		return ERR_PTR(-ENOMEM);
	if (!il) {
		const struct famfs_ioc_dext *d = req->v3;

		ext = out;
		for (i = 0; i < req->count; i++) {
			famfs_dext_to_ext(&ext[i], &d[i]);
			req->devs[i] = min_t(u32, d[i].devindex, U8_MAX);
		}
		req->ext = ext;
		return out;
	}

	ie = out;
	for (i = 0; i < req->count; i++) {
		const struct famfs_ioc_iext_v3 *v =
			&((const struct famfs_ioc_iext_v3 *)req->v3)[i];

		ie[i].nstrips = v->nstrips;
		ie[i].reserved = v->reserved;
		ie[i].chunk_size = v->chunk_size;
		ie[i].nbytes = v->nbytes;
		for (j = 0; j < FAMFS_IOC_MAX_STRIPS; j++) {
			famfs_dext_to_ext(&ie[i].strips[j], &v->strips[j]);
			req->devs[FAMFS_DEVS_IDX(i, j)] =
				min_t(u32, v->strips[j].devindex, U8_MAX);
		}
	}
	req->iext = ie;
	return out;
}

/* Does every extent and strip of @fmap lie on the primary? */
bool famfs_fmap_single_dev(const struct famfs_fmap *fmap)
{
	u32 i;

	for (i = 0; i < fmap->nr_extents; i++)
		if (fmap->ext[i].dev)
			return false;
	return true;
}

static void famfs_kext_to_dext(struct famfs_ioc_dext *d,
			       const struct famfs_kext *k)
{
	d->offset = k->dev_off;
	d->len = k->len;
	d->devindex = k->dev;
}

/* The entries of a map in the v3 list format; kfree() the result. */
void *famfs_fmap_list_v3(const struct famfs_fmap *fmap, size_t *size)
{
	struct famfs_ioc_iext_v3 *iext;
	struct famfs_ioc_dext *ext;
	u32 i, j;

	if (!famfs_fmap_interleaved(fmap)) {
		*size = fmap->nr_extents * sizeof(*ext);
		ext = kcalloc(fmap->nr_extents, sizeof(*ext), GFP_KERNEL);
		if (!ext)
			return NULL;
		for (i = 0; i < fmap->nr_extents; i++)
			famfs_kext_to_dext(&ext[i], &fmap->ext[i]);
		return ext;
	}
	*size = fmap->nr_iext * sizeof(*iext);
	iext = kcalloc(fmap->nr_iext, sizeof(*iext), GFP_KERNEL);
	if (!iext)
		return NULL;
	for (i = 0; i < fmap->nr_iext; i++) {
		const struct famfs_kiext *ie = &fmap->iext[i];

		iext[i].nstrips = ie->nstrips;
		iext[i].chunk_size = ie->chunk_size;
		iext[i].nbytes = ie->nbytes;
		for (j = 0; j < ie->nstrips; j++)
			famfs_kext_to_dext(&iext[i].strips[j], &ie->strips[j]);
	}
	return iext;
}
