// SPDX-License-Identifier: GPL-2.0
/*
 * famfs - the file ioctls (include/uapi/linux/famfs_ioctl.h)
 *
 * FAMFSIOC_NOP		0; tells a famfs file from any other.
 * FAMFSIOC_MAP_CREATE	give an empty file its memory (CAP_SYS_ADMIN), v1:
 *			up to FAMFS_MAX_EXTENTS simple extents.
 * FAMFSIOC_MAP_GET	the map: header and ext_list[0..ext_list_count).
 * FAMFSIOC_MAP_GETEXT	the extents alone: writes ext_list_count (as from
 *			MAP_GET, at most FAMFS_MAX_EXTENTS) struct
 *			famfs_extent to the argument, as the seed ABI did.
 * FAMFSIOC_MAP_CREATE_V2  the same as MAP_CREATE with a separately counted
 *			list: up to FAMFS_IOC_MAX_EXTENTS_V2 simple extents, or
 *			up to FAMFS_IOC_MAX_IEXTENTS interleaved extents.
 * FAMFSIOC_MAP_GET_V2	the map of any file, see below.
 * FAMFSIOC_DEV_ADD, FAMFSIOC_DEV_GET  the devices of the mount (members.c).
 * FAMFSIOC_MAP_CREATE_V3, FAMFSIOC_MAP_GET_V3  maps that name devices
 *			(ioctl_v3.c); with FAMFS_IOC_MAP_PAGES, a small file's
 *			page extents (which v1 and v2 gets cannot show); with
 *			FAMFS_IOC_MAP_INVALIDATE, this host's cache lines of
 *			the map's memory dropped before the map is published
 *			(cache.c).
 * FAMFSIOC_NS		the tool's namespace changes (nsop.c).
 * FAMFSIOC_HELD	whether memory is still referenced here (held.c).
 *
 * Both MAP_CREATEs turn their argument into one struct famfs_map_req and go
 * through the same checks.  The contract (which check gives which errno, in
 * which order) is in include/uapi/linux/famfs_ioctl.h; each refusal but
 * EPERM, EFAULT (header) and EROFS is one log line (rate limited per
 * mount) naming the inode and the check that failed.
 *
 * Layer "ioctl" (scripts/layers.conf): calls ioctl_v3.c, cache.c, map.c
 * and members.c (the device ioctls).
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "famfs.h"
#include "trace.h"

/* The header checks that come before the list is read. */
static int famfs_map_check_header(const struct famfs_mc *mc,
				  const struct famfs_map_req *req, bool v2)
{
	bool il = false;
	u64 max;

	switch (req->extent_type) {
	case SIMPLE_DAX_EXTENT:
		break;
	case FAMFS_INTERLEAVED_EXTENT:
		if (v2) {
			il = true;
			break;
		}
		fallthrough;
	default:
		famfs_mc_err(mc, "unknown extent type %u", req->extent_type);
		return -EOPNOTSUPP;
	}
	switch (req->file_type) {
	case FAMFS_REG:
		break;
	case FAMFS_SUPERBLOCK:
	case FAMFS_LOG:
		if (!il)
			break;
		famfs_mc_err(mc, "file type %u cannot be interleaved",
			     req->file_type);
		return -EOPNOTSUPP;
	default:
		famfs_mc_err(mc, "unknown file type %u", req->file_type);
		return -EOPNOTSUPP;
	}
	/* A small file (MAP_CREATE_V3 only): page extents, ioctl_v3.c */
	if (req->flags & FAMFS_IOC_MAP_PAGES)
		return famfs_map_pages_header(mc, req);

	if (req->count == 0) {
		famfs_mc_err(mc, "no extents");
		return -EINVAL;
	}
	max = !v2 ? FAMFS_MAX_EXTENTS :
	      il ? FAMFS_IOC_MAX_IEXTENTS : FAMFS_IOC_MAX_EXTENTS_V2;
	if (req->count > max) {
		famfs_mc_err(mc, "%llu %sextents, at most %llu allowed",
			     req->count, il ? "interleaved " : "", max);
		return -E2BIG;
	}
	return 0;
}

/* The v1 rules for simple extent @i, on its device (attached). */
static int famfs_check_simple(const struct famfs_mc *mc,
			      const struct famfs_map_req *req, u64 i)
{
	u64 dev_size = famfs_dev(FAMFS_SB(mc->sb), req->devs[i])->size;
	u64 off = req->ext[i].offset;
	u64 len = req->ext[i].len;
	u64 end;

	if (len == 0) {
		famfs_mc_err(mc, "extent %llu has length 0", i);
		return -EINVAL;
	}
	if (!IS_ALIGNED(off, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu offset %#llx is not 2 MiB aligned",
			     i, off);
		return -EINVAL;
	}
	if (i < req->count - 1 && !IS_ALIGNED(len, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu length %#llx is not a multiple of 2 MiB",
			     i, len);
		return -EINVAL;
	}
	if (check_add_overflow(off, len, &end)) {
		famfs_mc_err(mc, "extent %llu offset %#llx + length %#llx overflows",
			     i, off, len);
		return -EOVERFLOW;
	}
	if (end > dev_size) {
		famfs_mc_err(mc, "extent %llu (%#llx+%#llx) ends past the device (%#llx bytes)",
			     i, off, len, dev_size);
		return -ENXIO;
	}
	if (off == 0 && req->file_type != FAMFS_SUPERBLOCK) {
		famfs_mc_err(mc, "extent %llu: device offset 0 belongs to the superblock",
			     i);
		return -EINVAL;
	}
	return 0;
}

/* Strip @j of interleaved extent @i. */
static int famfs_check_strip(const struct famfs_mc *mc,
			     const struct famfs_ioc_iext *ie, u64 i, u32 j,
			     u64 dev_size)
{
	u64 off = ie->strips[j].offset;
	u64 len = ie->strips[j].len;
	u64 end, need;

	if (len == 0) {
		famfs_mc_err(mc, "extent %llu strip %u has length 0", i, j);
		return -EINVAL;
	}
	if (!IS_ALIGNED(off, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu strip %u offset %#llx is not 2 MiB aligned",
			     i, j, off);
		return -EINVAL;
	}
	if (!IS_ALIGNED(len, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu strip %u length %#llx is not a multiple of 2 MiB",
			     i, j, len);
		return -EINVAL;
	}
	if (off == 0) {
		famfs_mc_err(mc, "extent %llu strip %u: device offset 0 belongs to the superblock",
			     i, j);
		return -EINVAL;
	}
	if (check_add_overflow(off, len, &end)) {
		famfs_mc_err(mc, "extent %llu strip %u offset %#llx + length %#llx overflows",
			     i, j, off, len);
		return -EOVERFLOW;
	}
	if (end > dev_size) {
		famfs_mc_err(mc, "extent %llu strip %u (%#llx+%#llx) ends past the device (%#llx bytes)",
			     i, j, off, len, dev_size);
		return -ENXIO;
	}
	need = famfs_interleave_strip_chunks(ie->nbytes, ie->chunk_size,
					     ie->nstrips, j);
	if (div64_u64(len, ie->chunk_size) < need) {
		famfs_mc_err(mc, "extent %llu strip %u (%#llx bytes) holds fewer than its %llu chunks of %#llx bytes",
			     i, j, len, need, (u64)ie->chunk_size);
		return -EFBIG;
	}
	return 0;
}

/* Interleaved extent @i and its strips. */
static int famfs_check_iext(const struct famfs_mc *mc,
			    const struct famfs_map_req *req, u64 i)
{
	struct famfs_sb_info *fsi = FAMFS_SB(mc->sb);
	const struct famfs_ioc_iext *ie = &req->iext[i];
	u64 width;
	u32 j;
	int rc;

	for (j = min_t(u32, ie->nstrips, FAMFS_IOC_MAX_STRIPS);
	     j < FAMFS_IOC_MAX_STRIPS; j++)
		if (ie->strips[j].offset || ie->strips[j].len ||
		    !famfs_map_v3_unused_zero(req, i, j))
			break;
	if (ie->reserved) {
		famfs_mc_err(mc, "extent %llu: reserved field %#x is not 0",
			     i, ie->reserved);
		return -EINVAL;
	}
	if (j < FAMFS_IOC_MAX_STRIPS) {
		famfs_mc_err(mc, "extent %llu: unused strip %u (of %u) is not 0",
			     i, j, ie->nstrips);
		return -EINVAL;
	}
	if (ie->nstrips == 0) {
		famfs_mc_err(mc, "extent %llu has no strips", i);
		return -EINVAL;
	}
	if (ie->nstrips > FAMFS_IOC_MAX_STRIPS) {
		famfs_mc_err(mc, "extent %llu has %u strips, at most %d allowed",
			     i, ie->nstrips, FAMFS_IOC_MAX_STRIPS);
		return -E2BIG;
	}
	if (!ie->chunk_size || !IS_ALIGNED(ie->chunk_size, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu chunk size %#llx is not a non-zero multiple of 2 MiB",
			     i, (u64)ie->chunk_size);
		return -EINVAL;
	}
	if (check_mul_overflow((u64)ie->chunk_size, (u64)ie->nstrips,
			       &width)) {
		famfs_mc_err(mc, "extent %llu chunk size %#llx x %u strips overflows",
			     i, (u64)ie->chunk_size, ie->nstrips);
		return -EOVERFLOW;
	}
	if (ie->nbytes == 0) {
		famfs_mc_err(mc, "extent %llu holds 0 bytes", i);
		return -EINVAL;
	}
	if (i < req->count - 1 && !IS_ALIGNED(ie->nbytes, FAMFS_EXTENT_ALIGN)) {
		famfs_mc_err(mc, "extent %llu size %#llx is not a multiple of 2 MiB",
			     i, (u64)ie->nbytes);
		return -EINVAL;
	}
	for (j = 0; j < ie->nstrips; j++) {
		u32 dev = req->devs[FAMFS_DEVS_IDX(i, j)];

		rc = famfs_map_v3_check(mc, req, i, j);
		if (!rc)
			rc = famfs_check_strip(mc, ie, i, j,
					       famfs_dev(fsi, dev)->size);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Check a map whose header passed famfs_map_check_header(), extent by
 * extent (strip by strip), each against its own device once its device
 * fields (MAP_CREATE_V3) passed; then the whole map.
 */
static int famfs_map_validate(const struct famfs_mc *mc,
			      const struct famfs_map_req *req)
{
	bool il = req->extent_type == FAMFS_INTERLEAVED_EXTENT;
	u64 total = 0;
	u64 i;
	int rc;

	for (i = 0; i < req->count; i++) {
		if (il) {
			rc = famfs_check_iext(mc, req, i);
		} else {
			rc = famfs_map_v3_check(mc, req, i, 0);
			if (!rc && (req->flags & FAMFS_IOC_MAP_PAGES))
				rc = famfs_check_page(mc, req, i);
			else if (!rc)
				rc = famfs_check_simple(mc, req, i);
		}
		if (rc)
			return rc;
	}
	/* .meta files (never interleaved) live on the primary */
	for (i = 0; req->file_type != FAMFS_REG && i < req->count; i++) {
		if (req->devs[i]) {
			famfs_mc_err(mc, "extent %llu: a superblock or log file must be on device 0",
				     i);
			return -EINVAL;
		}
	}
	if (req->file_type == FAMFS_SUPERBLOCK && req->ext[0].offset != 0) {
		famfs_mc_err(mc, "the superblock must start at device offset 0");
		return -EINVAL;
	}
	for (i = 0; i < req->count; i++) {
		u64 n = il ? req->iext[i].nbytes : req->ext[i].len;

		if (check_add_overflow(total, n, &total)) {
			famfs_mc_err(mc, "the extents' sizes overflow 64 bits");
			return -EOVERFLOW;
		}
	}
	if (req->file_size > total) {
		famfs_mc_err(mc, "file size %llu is larger than its extents (%llu bytes)",
			     req->file_size, total);
		return -EFBIG;
	}
	return 0;
}

/*
 * v2, v3: read the list at @ulist into a buffer that req then points to
 * (v3: req->v3, converted to the v2 entries and req->devs, ioctl_v3.c;
 * the caller frees req->v3 as well).
 */
static void *famfs_map_read_list(const struct famfs_mc *mc,
				 struct famfs_map_req *req, u64 ulist,
				 int version)
{
	bool il = req->extent_type == FAMFS_INTERLEAVED_EXTENT;
	size_t esz = il ? sizeof(*req->iext) : sizeof(*req->ext);
	void *buf;

	if (version == 3)
		esz = il ? sizeof(struct famfs_ioc_iext_v3) :
			   sizeof(struct famfs_ioc_dext);
	/* count was checked against the maximum: at most 6.4 KiB. */
	buf = memdup_user(u64_to_user_ptr(ulist), req->count * esz);
	if (IS_ERR(buf)) {
		if (PTR_ERR(buf) == -EFAULT)
			famfs_mc_err(mc, "cannot read the list of %llu extents at %#llx",
				     req->count, ulist);
		return buf;
	}
	if (version == 3) {
		req->v3 = buf;
		return famfs_map_v3_convert(req);
	}
	if (il)
		req->iext = buf;
	else
		req->ext = buf;
	return buf;
}

/*
 * MAP_CREATE, MAP_CREATE_V2 and MAP_CREATE_V3 (@version) after reading the
 * header.  @v2 is the v2 header (NULL for v1, whose extents req already
 * points to), which v3 shares.
 */
int famfs_map_create(struct file *file, struct famfs_map_req *req,
		     const struct famfs_ioc_map_v2 *v2, int version)
{
	static const char * const ops[] = {
		"MAP_CREATE", "MAP_CREATE_V2", "MAP_CREATE_V3",
	};
	struct inode *inode = file_inode(file);
	struct super_block *sb = inode->i_sb;
	struct famfs_sb_info *fsi = FAMFS_SB(sb);
	struct famfs_mc mc = {
		.sb = sb,
		.ino = inode->i_ino,
		.op = ops[clamp(version, 1, 3) - 1],
	};
	struct famfs_fmap *fmap = NULL;
	struct famfs_extent clash;
	void *list = NULL;
	u32 idx = 0;
	int rc, opens;

	rc = mnt_want_write_file(file);
	if (rc)
		return rc;
	inode_lock(inode);

	if (famfs_inode_fmap(inode)) {
		famfs_mc_err(&mc, "already has a map");
		rc = -EEXIST;
		goto out_unlock;
	}
	/*
	 * Memory only for a file the caller alone reaches.  i_rwsem, held from
	 * here until the map is in place, keeps new opens out of the count
	 * (famfs_file_open()); a name added meanwhile would need it too.
	 */
	opens = atomic_read(&FAMFS_I(inode)->unmapped_opens);
	if (opens > 1 || inode->i_nlink > 1) {
		famfs_mc_err(&mc, "another open file or name reaches it (%d open files, %u names)",
			     opens, inode->i_nlink);
		rc = -EBUSY;
		goto out_unlock;
	}
	if (famfs_sb_failed(fsi)) {
		famfs_mc_err(&mc, "the mount had a memory failure");
		rc = -EIO;
		goto out_unlock;
	}
	/* Writes are refused and truncate keeps size 0 until a map exists. */
	if (WARN_ON_ONCE(i_size_read(inode))) {
		rc = -EIO;
		goto out_unlock;
	}
	/*
	 * MAP_CREATE_V3's flags: small files, memory to drop from caches, an
	 * identity (in reserved[0])
	 */
	if (v2 && ((v2->flags & ~(version == 3 ? FAMFS_MAP_V3_FLAGS : 0)) ||
		   (v2->reserved[0] && !(v2->flags & FAMFS_IOC_MAP_IDENT)) ||
		   memchr_inv(&v2->reserved[1], 0,
			      sizeof(v2->reserved) - sizeof(v2->reserved[0])))) {
		famfs_mc_err(&mc, "flags %#x or reserved fields are not 0%s",
			     v2->flags, version == 3 ?
			     " (the v3 flags, reserved[0] with _IDENT aside)" :
			     "");
		rc = -EINVAL;
		goto out_unlock;
	}
	req->flags = v2 ? v2->flags : 0;
	req->ident = v2 ? v2->reserved[0] : 0;
	rc = famfs_map_check_header(&mc, req, v2);
	if (rc)
		goto out_unlock;
	if (v2) {
		list = famfs_map_read_list(&mc, req, v2->ext_list, version);
		if (IS_ERR(list)) {
			rc = PTR_ERR(list);
			list = NULL;
			goto out_unlock;
		}
	}
	rc = famfs_map_validate(&mc, req);
	if (rc)
		goto out_unlock;

	fmap = famfs_fmap_alloc(req);
	if (IS_ERR(fmap)) {
		rc = PTR_ERR(fmap);
		fmap = NULL;
		goto out_unlock;
	}
	fmap->inode = inode;

	rc = famfs_fmap_insert(fsi, fmap, &clash, &idx);
	if (rc) {
		const struct famfs_kext *e = &fmap->ext[idx];
		char what[48];

		if (e->iext)
			snprintf(what, sizeof(what), "extent %td strip %u",
				 e->iext - fmap->iext, e->strip);
		else
			snprintf(what, sizeof(what), "extent %u", idx);
		if (clash.len)
			famfs_mc_err(&mc, "%s (%#llx+%#llx) overlaps mapped memory %#llx+%#llx",
				     what, e->dev_off, e->len,
				     (u64)clash.offset, (u64)clash.len);
		else
			famfs_mc_err(&mc, "%s (%#llx+%#llx) overlaps another extent of the map",
				     what, e->dev_off, e->len);
		goto out_unlock;
	}
	/*
	 * The memory is the file's now; nothing reaches it through the file
	 * until the map is published below (i_rwsem held, fmap not set):
	 * this host's lines of it go first, so no load finds what they held
	 * of the memory's former file.
	 */
	if (req->flags & FAMFS_IOC_MAP_INVALIDATE) {
		rc = famfs_cache_fmap(inode, fmap);
		if (rc) {
			famfs_mc_err(&mc, "cannot drop this host's cache lines of its memory: %d",
				     rc);
			famfs_fmap_remove(fsi, fmap);
			goto out_unlock;
		}
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
	trace_famfs_map_create(inode, req, rc);
	kfree(list);
	kfree(req->v3);
	return rc;
}

static int famfs_ioc_map_create(struct file *file,
				struct famfs_ioc_map __user *uarg)
{
	struct famfs_ioc_map imap;
	struct famfs_map_req req;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&imap, uarg, sizeof(imap)))
		return -EFAULT;
	req = (struct famfs_map_req) {
		.extent_type = imap.extent_type,
		.file_type = imap.file_type,
		.file_size = imap.file_size,
		.count = imap.ext_list_count,
		.ext = imap.ext_list,
	};
	return famfs_map_create(file, &req, NULL, 1);
}

/* MAP_CREATE_V2 and MAP_CREATE_V3: one header, v2 or v3 list entries */
static int famfs_ioc_map_create_hdr(struct file *file,
				    struct famfs_ioc_map_v2 __user *uarg,
				    int version)
{
	struct famfs_ioc_map_v2 hdr;
	struct famfs_map_req req;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (copy_from_user(&hdr, uarg, sizeof(hdr)))
		return -EFAULT;
	req = (struct famfs_map_req) {
		.extent_type = hdr.extent_type,
		.file_type = hdr.file_type,
		.file_size = hdr.file_size,
		.count = hdr.ext_count,
	};
	return famfs_map_create(file, &req, &hdr, version);
}

/* The map in the v1 structure, if it fits. */
static int famfs_fmap_to_v1(struct file *file, const struct famfs_fmap *fmap,
			    struct famfs_ioc_map *imap, const char *op)
{
	struct inode *inode = file_inode(file);
	u32 i;

	if (famfs_fmap_pages(fmap)) {
		famfs_err(inode->i_sb, "%s: inode %lu: the v1 ABI cannot express a small file's page extents; use MAP_GET_V3",
			  op, inode->i_ino);
		return -EOVERFLOW;
	}
	if (famfs_fmap_interleaved(fmap) ||
	    fmap->nr_extents > FAMFS_MAX_EXTENTS) {
		famfs_err(inode->i_sb, "%s: inode %lu: the v1 ABI cannot express its map (%s, %u extents); use MAP_GET_V2",
			  op, inode->i_ino,
			  famfs_fmap_interleaved(fmap) ? "interleaved" :
			  "simple", fmap->nr_extents);
		return -EOVERFLOW;
	}
	if (!famfs_fmap_single_dev(fmap)) {
		famfs_err(inode->i_sb, "%s: inode %lu: the v1 ABI cannot express a map on member devices; use MAP_GET_V3",
			  op, inode->i_ino);
		return -EOVERFLOW;
	}
	memset(imap, 0, sizeof(*imap));
	imap->extent_type = fmap->extent_type;
	imap->file_type = fmap->file_type;
	imap->file_size = fmap->file_size;
	imap->ext_list_count = fmap->nr_extents;
	for (i = 0; i < fmap->nr_extents; i++) {
		imap->ext_list[i].offset = fmap->ext[i].dev_off;
		imap->ext_list[i].len = fmap->ext[i].len;
	}
	return 0;
}

static int famfs_ioc_map_get(struct file *file,
			     struct famfs_ioc_map __user *uarg)
{
	struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	struct famfs_ioc_map imap;
	int rc;

	if (!fmap)
		return -ENODATA;
	rc = famfs_fmap_to_v1(file, fmap, &imap, "MAP_GET");
	if (rc)
		return rc;
	if (copy_to_user(uarg, &imap, sizeof(imap)))
		return -EFAULT;
	return 0;
}

static int famfs_ioc_map_getext(struct file *file,
				struct famfs_extent __user *uarg)
{
	struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	struct famfs_ioc_map imap;
	int rc;

	if (!fmap)
		return -ENODATA;
	rc = famfs_fmap_to_v1(file, fmap, &imap, "MAP_GETEXT");
	if (rc)
		return rc;
	if (copy_to_user(uarg, imap.ext_list,
			 imap.ext_list_count * sizeof(imap.ext_list[0])))
		return -EFAULT;
	return 0;
}

/* The entries of a map in the v2 list format; kfree() the result. */
static void *famfs_fmap_list_v2(const struct famfs_fmap *fmap, size_t *size)
{
	struct famfs_ioc_iext *iext;
	struct famfs_extent *ext;
	u32 i, j;

	if (!famfs_fmap_interleaved(fmap)) {
		*size = fmap->nr_extents * sizeof(*ext);
		ext = kcalloc(fmap->nr_extents, sizeof(*ext), GFP_KERNEL);
		if (!ext)
			return NULL;
		for (i = 0; i < fmap->nr_extents; i++) {
			ext[i].offset = fmap->ext[i].dev_off;
			ext[i].len = fmap->ext[i].len;
		}
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
		for (j = 0; j < ie->nstrips; j++) {
			iext[i].strips[j].offset = ie->strips[j].dev_off;
			iext[i].strips[j].len = ie->strips[j].len;
		}
	}
	return iext;
}

/* MAP_GET_V2 and MAP_GET_V3: one header, the list in v2 or v3 entries */
static int famfs_ioc_map_get_list(struct file *file,
				  struct famfs_ioc_map_v2 __user *uarg, bool v3)
{
	struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	struct famfs_ioc_map_v2 hdr;
	bool want_ident;
	u32 room, count;
	size_t size;
	void *list;
	int rc = 0;

	if (!fmap)
		return -ENODATA;
	if (copy_from_user(&hdr, uarg, sizeof(hdr)))
		return -EFAULT;
	/*
	 * v3: the identity only for a caller that asks (one that knows
	 * only the flags before it would refuse the answer)
	 */
	want_ident = v3 && hdr.flags == FAMFS_IOC_MAP_IDENT;
	if ((hdr.flags && !want_ident) ||
	    memchr_inv(hdr.reserved, 0, sizeof(hdr.reserved)))
		return -EINVAL;
	if (!v3 && !famfs_fmap_single_dev(fmap)) {
		famfs_err(file_inode(file)->i_sb, "MAP_GET_V2: inode %lu: the v2 ABI cannot express a map on member devices; use MAP_GET_V3",
			  file_inode(file)->i_ino);
		return -EOVERFLOW;
	}
	if (!v3 && famfs_fmap_pages(fmap)) {
		famfs_err(file_inode(file)->i_sb, "MAP_GET_V2: inode %lu: the v2 ABI cannot express a small file's page extents; use MAP_GET_V3",
			  file_inode(file)->i_ino);
		return -EOVERFLOW;
	}

	room = hdr.ext_count;
	count = famfs_fmap_interleaved(fmap) ? fmap->nr_iext :
		fmap->nr_extents;
	hdr.extent_type = fmap->extent_type;
	hdr.file_type = fmap->file_type;
	hdr.file_size = fmap->file_size;
	hdr.ext_count = count;
	hdr.flags = famfs_fmap_pages(fmap) ? FAMFS_IOC_MAP_PAGES : 0;
	if (want_ident && fmap->has_ident) {
		hdr.flags |= FAMFS_IOC_MAP_IDENT;
		hdr.reserved[0] = fmap->ident;
	}

	if (room && room < count) {
		rc = -E2BIG;
	} else if (room) {
		list = v3 ? famfs_fmap_list_v3(fmap, &size) :
			    famfs_fmap_list_v2(fmap, &size);
		if (!list)
			return -ENOMEM;
		if (copy_to_user(u64_to_user_ptr(hdr.ext_list), list, size))
			rc = -EFAULT;
		kfree(list);
		if (rc)
			return rc;
	}
	if (copy_to_user(uarg, &hdr, sizeof(hdr)))
		return -EFAULT;
	return rc;
}

/*
 * CONFIG_FAMFS_LEGACY_ABI (Kbuild: FAMFS_LEGACY_ABI=y) builds a test module
 * that answers as the 2024 famfs RFC module did, so that the tool can be
 * tested against that ABI (tests/qemu/suites/legacy-abi.sh); never for real
 * use.  That module had numbers 1..4 only (ENOTTY for the rest); its MAP_GET
 * filled in file_size and ext_list_count alone, with extent_type, file_type
 * and ext_list left 0; the extents came only from MAP_GETEXT; and a file
 * without a map got EINVAL from both.  MAP_CREATE and NOP are the same.
 */
static long famfs_legacy_ioctl(struct file *file, unsigned int cmd,
			       void __user *argp)
{
	struct famfs_fmap *fmap = famfs_inode_fmap(file_inode(file));
	struct famfs_ioc_map imap;
	int rc;

	switch (cmd) {
	case FAMFSIOC_NOP:
		return 0;
	case FAMFSIOC_MAP_CREATE:
		return famfs_ioc_map_create(file, argp);
	case FAMFSIOC_MAP_GET:
	case FAMFSIOC_MAP_GETEXT:
		break;
	default:
		return -ENOTTY;
	}
	if (!fmap)
		return -EINVAL;
	rc = famfs_fmap_to_v1(file, fmap, &imap, cmd == FAMFSIOC_MAP_GET ?
			      "MAP_GET" : "MAP_GETEXT");
	if (rc)
		return rc;
	if (cmd == FAMFSIOC_MAP_GETEXT)
		return copy_to_user(argp, imap.ext_list, imap.ext_list_count *
				    sizeof(imap.ext_list[0])) ? -EFAULT : 0;
	imap.extent_type = 0;
	imap.file_type = 0;
	memset(imap.ext_list, 0, sizeof(imap.ext_list));
	return copy_to_user(argp, &imap, sizeof(imap)) ? -EFAULT : 0;
}

long famfs_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (IS_ENABLED(CONFIG_FAMFS_LEGACY_ABI))
		return famfs_legacy_ioctl(file, cmd, argp);

	switch (cmd) {
	case FAMFSIOC_NOP:
		return 0;
	case FAMFSIOC_MAP_CREATE:
		return famfs_ioc_map_create(file, argp);
	case FAMFSIOC_MAP_GET:
		return famfs_ioc_map_get(file, argp);
	case FAMFSIOC_MAP_GETEXT:
		return famfs_ioc_map_getext(file, argp);
	case FAMFSIOC_MAP_CREATE_V2:
		return famfs_ioc_map_create_hdr(file, argp, 2);
	case FAMFSIOC_MAP_GET_V2:
		return famfs_ioc_map_get_list(file, argp, false);
	case FAMFSIOC_CACHE:
		return famfs_ioc_cache(file, argp);
	case FAMFSIOC_DEV_ADD:
		return famfs_ioc_dev_add(file, argp);
	case FAMFSIOC_MAP_CREATE_V3:
		return famfs_ioc_map_create_hdr(file, argp, 3);
	case FAMFSIOC_MAP_GET_V3:
		return famfs_ioc_map_get_list(file, argp, true);
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
