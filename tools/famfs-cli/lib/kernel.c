// SPDX-License-Identifier: GPL-2.0
/* The only code that talks to famfs.ko: mount(2) and the ioctls (v1 and
 * v2).  Unit tests replace famfs_kernel with a mock.
 *
 * A famfs.ko without the v2 ioctls (the 2024 module: numbers 1..4) is
 * found once per process (famfs_kernel_v2).  Its MAP_GET filled in
 * file_size and ext_list_count only -- extent_type, file_type and ext_list
 * stayed 0 -- and a file without a map got EINVAL; the extents come from
 * MAP_GETEXT.  What v1 cannot express (interleaved, more than
 * FAMFS_MAX_EXTENTS extents) is refused by the callers before they log it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "libfamfs.h"

static int real_mount(const char *dev, const char *mpt, unsigned long flags,
		      const char *opts)
{
	return mount(dev, mpt, "famfs", flags, opts) ? -errno : 0;
}

static int real_umount(const char *mpt)
{
	return umount(mpt) ? -errno : 0;
}

static int real_map_create(int fd, const struct famfs_ioc_map *map)
{
	return ioctl(fd, FAMFSIOC_MAP_CREATE, map) ? -errno : 0;
}

static int real_map_get(int fd, struct famfs_ioc_map *map)
{
	memset(map, 0, sizeof(*map));
	return ioctl(fd, FAMFSIOC_MAP_GET, map) ? -errno : 0;
}

static int real_map_getext(int fd, struct famfs_extent ext[FAMFS_MAX_EXTENTS])
{
	return ioctl(fd, FAMFSIOC_MAP_GETEXT, ext) ? -errno : 0;
}

static int real_map_create_v2(int fd, const struct famfs_ioc_map_v2 *map)
{
	return ioctl(fd, FAMFSIOC_MAP_CREATE_V2, map) ? -errno : 0;
}

static int real_map_get_v2(int fd, struct famfs_ioc_map_v2 *map)
{
	return ioctl(fd, FAMFSIOC_MAP_GET_V2, map) ? -errno : 0;
}

static int real_cache(int fd, const struct famfs_ioc_cache *c)
{
	return ioctl(fd, FAMFSIOC_CACHE, c) ? -errno : 0;
}

int famfs_file_cache(int fd, bool invalidate)
{
	struct famfs_ioc_cache c = {
		.flags = invalidate ? FAMFS_CACHE_INVALIDATE : FAMFS_CACHE_WRITEBACK,
	};
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size <= 0)
		return 0;
	if (!famfs_kernel->cache)
		return -ENOTTY;
	c.length = (uint64_t)st.st_size;
	return famfs_kernel->cache(fd, &c);
}

const struct famfs_kernel_ops famfs_kernel_real = {
	.mount = real_mount,
	.umount = real_umount,
	.map_create = real_map_create,
	.map_get = real_map_get,
	.map_getext = real_map_getext,
	.map_create_v2 = real_map_create_v2,
	.map_get_v2 = real_map_get_v2,
	.cache = real_cache,
};

const struct famfs_kernel_ops *famfs_kernel = &famfs_kernel_real;

void famfs_fmap_from_v1(struct famfs_fmap *m, const struct famfs_ioc_map *v1)
{
	memset(m, 0, sizeof(*m));
	m->extent_type = v1->extent_type;
	m->file_type = v1->file_type;
	m->file_size = v1->file_size;
	m->count = (uint32_t)(v1->ext_list_count > FAMFS_MAX_EXTENTS ?
			      FAMFS_MAX_EXTENTS : v1->ext_list_count);
	for (uint32_t i = 0; i < m->count; i++)
		m->ext[i] = v1->ext_list[i];
}

int famfs_fmap_create(int fd, const struct famfs_fmap *m)
{
	struct famfs_ioc_map_v2 v2;

	if (m->extent_type == SIMPLE_DAX_EXTENT && m->count <= FAMFS_MAX_EXTENTS) {
		struct famfs_ioc_map v1;

		/* v1 stays the way for what it can express */
		memset(&v1, 0, sizeof(v1));
		v1.extent_type = m->extent_type;
		v1.file_type = m->file_type;
		v1.file_size = m->file_size;
		v1.ext_list_count = m->count;
		for (uint32_t i = 0; i < m->count; i++)
			v1.ext_list[i] = m->ext[i];
		return famfs_kernel->map_create(fd, &v1);
	}
	if (!famfs_kernel->map_create_v2)
		return -ENOTTY;
	memset(&v2, 0, sizeof(v2));
	v2.extent_type = m->extent_type;
	v2.file_type = m->file_type;
	v2.file_size = m->file_size;
	v2.ext_count = m->count;
	v2.ext_list = (uint64_t)(uintptr_t)(m->extent_type == FAMFS_INTERLEAVED_EXTENT ?
					    (const void *)m->iext :
					    (const void *)m->ext);
	return famfs_kernel->map_create_v2(fd, &v2);
}

/* Set by the first famfs_kernel_v2 that learnt something, for the
 * famfs_kernel it asked (a unit test that swaps famfs_kernel asks again). */
static const struct famfs_kernel_ops *probed_ops;
static bool probed_v2;

int famfs_kernel_v2(int fd)
{
	struct famfs_ioc_map_v2 h;
	struct famfs_ioc_map v1;
	int rc;

	if (probed_ops == famfs_kernel)
		return probed_v2;
	/* ext_count 0: the header only; any answer but ENOTTY is v2's */
	memset(&h, 0, sizeof(h));
	rc = famfs_kernel->map_get_v2 ? famfs_kernel->map_get_v2(fd, &h) :
					-ENOTTY;
	if (rc != -ENOTTY) {
		probed_v2 = true;
	} else {
		/* ENOTTY from v1 too: fd is no famfs file, nothing learnt */
		if (famfs_kernel->map_get(fd, &v1) == -ENOTTY)
			return -ENOTTY;
		probed_v2 = false;
	}
	probed_ops = famfs_kernel;
	return probed_v2;
}

const char *famfs_fmap_needs_v2(const struct famfs_fmap *m)
{
	if (m->extent_type == FAMFS_INTERLEAVED_EXTENT)
		return "an interleaved file";
	if (m->count > FAMFS_MAX_EXTENTS)
		return "more than 2 extents";
	return NULL;
}

/* The map through v1: MAP_GET, then the extents from MAP_GETEXT. */
static int fmap_get_v1(int fd, struct famfs_fmap *m)
{
	static const struct famfs_extent zero[FAMFS_MAX_EXTENTS];
	struct famfs_extent ext[FAMFS_MAX_EXTENTS];
	struct famfs_ioc_map v1;
	uint32_t n;
	int rc;

	rc = famfs_kernel->map_get(fd, &v1);
	if (rc == -EINVAL)
		return -ENODATA;	/* the 2024 module: no map */
	if (rc)
		return rc;
	/* the only kind v1 maps; 0: not said */
	if (v1.extent_type && v1.extent_type != SIMPLE_DAX_EXTENT)
		return -EPROTO;
	if (v1.ext_list_count > FAMFS_MAX_EXTENTS)
		return -E2BIG;
	n = (uint32_t)v1.ext_list_count;
	memset(ext, 0, sizeof(ext));
	if (n) {
		rc = famfs_kernel->map_getext(fd, ext);
		if (rc)
			return rc;
	}
	/* a module that fills ext_list in as well must agree with itself */
	if (memcmp(v1.ext_list, zero, sizeof(zero)) &&
	    memcmp(v1.ext_list, ext, sizeof(ext)))
		return -EBADE;
	m->extent_type = SIMPLE_DAX_EXTENT;
	m->file_type = v1.file_type;
	m->file_type_unknown = v1.file_type == FAMFS_REG;
	m->file_size = v1.file_size;
	m->count = n;
	memcpy(m->ext, ext, n * sizeof(ext[0]));
	return 0;
}

int famfs_fmap_get(int fd, struct famfs_fmap *m)
{
	struct famfs_ioc_map_v2 v2;
	uint32_t room;
	int rc;

	memset(m, 0, sizeof(*m));
	rc = famfs_kernel_v2(fd);
	if (rc < 0)
		return rc;
	if (!rc)
		return fmap_get_v1(fd, m);
	memset(&v2, 0, sizeof(v2));
	rc = famfs_kernel->map_get_v2(fd, &v2);
	if (rc)
		return rc;
	switch (v2.extent_type) {
	case SIMPLE_DAX_EXTENT:
		room = FAMFS_IOC_MAX_EXTENTS_V2;
		break;
	case FAMFS_INTERLEAVED_EXTENT:
		room = FAMFS_IOC_MAX_IEXTENTS;
		break;
	default:
		return -EPROTO;		/* a map this tool cannot read */
	}
	if (v2.ext_count > room)
		return -E2BIG;
	m->extent_type = v2.extent_type;
	m->file_type = v2.file_type;
	m->file_size = v2.file_size;
	m->count = v2.ext_count;
	if (!v2.ext_count)
		return 0;
	memset(&v2, 0, sizeof(v2));
	v2.ext_count = m->count;
	v2.ext_list = (uint64_t)(uintptr_t)(m->extent_type == FAMFS_INTERLEAVED_EXTENT ?
					    (void *)m->iext : (void *)m->ext);
	rc = famfs_kernel->map_get_v2(fd, &v2);
	if (rc)
		return rc;
	if (v2.extent_type != m->extent_type || v2.ext_count != m->count ||
	    v2.file_size != m->file_size || v2.file_type != m->file_type)
		return -EBADE;		/* the two calls disagree */
	return 0;
}

bool famfs_fmap_equal(const struct famfs_fmap *a, const struct famfs_fmap *b)
{
	if (a->extent_type != b->extent_type || a->file_type != b->file_type ||
	    a->file_size != b->file_size || a->count != b->count)
		return false;
	if (a->extent_type == FAMFS_INTERLEAVED_EXTENT)
		return a->count <= FAMFS_IOC_MAX_IEXTENTS &&
		       !memcmp(a->iext, b->iext, a->count * sizeof(a->iext[0]));
	return a->count <= FAMFS_IOC_MAX_EXTENTS_V2 &&
	       !memcmp(a->ext, b->ext, a->count * sizeof(a->ext[0]));
}
