// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - maps that name devices: FAMFSIOC_MAP_CREATE_V3, FAMFSIOC_MAP_GET_V3
 *
 * A mount may have several devices (members.c).  The v3 map ioctls take the
 * v2 header, but their entries (struct famfs_ioc_dext, struct
 * famfs_ioc_iext_v3) give each extent and each strip a device index.
 * MAP_CREATE_V3 checks the device fields of every entry (reserved 0, the
 * device attached), turns the list into the v2 entries and famfs_map_req's
 * devs[], and goes through the checks of MAP_CREATE_V2 (ioctl.c), which
 * check each extent and strip against its own device.
 */

#include <linux/capability.h>
#include <linux/fs.h>
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

static void famfs_dext_to_ext(struct famfs_extent *e,
			      const struct famfs_ioc_dext *d)
{
	e->offset = d->offset;
	e->len = d->len;
}

/**
 * famfs_map_v3_convert() - a v3 list into v2 entries and req->devs
 * @mc: for the log lines
 * @req: the request (count checked); points to the result on success
 * @v3: the list read from user space; freed here
 *
 * Return: the buffer to kfree() with the v2 entries, or an ERR_PTR:
 * -EINVAL (reserved or unused strip fields not 0), -ENODEV (no such
 * device), -ENOMEM.
 */
void *famfs_map_v3_convert(const struct famfs_mc *mc,
			   struct famfs_map_req *req, void *v3)
{
	bool il = req->extent_type == FAMFS_INTERLEAVED_EXTENT;
	struct famfs_ioc_iext *ie = NULL;
	struct famfs_extent *ext = NULL;
	void *out;
	u64 i;
	u32 j;
	int rc = 0;

	out = kcalloc(req->count, il ? sizeof(*ie) : sizeof(*ext), GFP_KERNEL);
	if (!out) {
		kfree(v3);
		return ERR_PTR(-ENOMEM);
	}
	if (!il) {
		const struct famfs_ioc_dext *d = v3;

		ext = out;
		for (i = 0; i < req->count && !rc; i++) {
			rc = famfs_dext_check(mc, &d[i], i, 0, false);
			famfs_dext_to_ext(&ext[i], &d[i]);
			req->devs[i] = d[i].devindex;
		}
		req->ext = ext;
		goto out;
	}

	ie = out;
	for (i = 0; i < req->count && !rc; i++) {
		const struct famfs_ioc_iext_v3 *v =
			&((const struct famfs_ioc_iext_v3 *)v3)[i];
		u32 used = min_t(u32, v->nstrips, FAMFS_IOC_MAX_STRIPS);

		ie[i].nstrips = v->nstrips;
		ie[i].reserved = v->reserved;
		ie[i].chunk_size = v->chunk_size;
		ie[i].nbytes = v->nbytes;
		for (j = 0; j < FAMFS_IOC_MAX_STRIPS; j++)
			famfs_dext_to_ext(&ie[i].strips[j], &v->strips[j]);
		for (j = 0; j < used && !rc; j++) {
			rc = famfs_dext_check(mc, &v->strips[j], i, j, true);
			req->devs[FAMFS_DEVS_IDX(i, j)] = v->strips[j].devindex;
		}
		/* Unused strips: offset and length are checked as in v2. */
		for (; j < FAMFS_IOC_MAX_STRIPS && !rc; j++) {
			if (v->strips[j].devindex || v->strips[j].reserved) {
				famfs_mc_err(mc, "extent %llu: unused strip %u (of %u) is not 0",
					     i, j, v->nstrips);
				rc = -EINVAL;
			}
		}
	}
	req->iext = ie;
out:
	kfree(v3);
	if (rc) {
		kfree(out);
		return ERR_PTR(rc);
	}
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
