// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <endian.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "th.h"

/* ---- mock kernel --------------------------------------------------------- */
#define MOCK_MAX 4096
static struct mock_map {
	dev_t dev;
	ino_t ino;
	char path[512];		/* its name when mapped */
	int keep;		/* a scratch file's (.meta/.new-PID) open
				 * copy: its "memory" outlives its unlink */
	struct famfs_fmap map;
} mock[MOCK_MAX];
static int nmock;
unsigned long th_mock_v1_creates, th_mock_v2_creates, th_mock_v2_gets;
bool th_mock_stale;
void (*th_mock_before_create)(int fd, const struct famfs_fmap *m);

static void mock_drop(int i)
{
	if (mock[i].keep >= 0)
		close(mock[i].keep);
	mock[i] = mock[--nmock];
}

void th_mock_reset(void)
{
	while (nmock)
		mock_drop(nmock - 1);
	th_mock_v1_creates = th_mock_v2_creates = th_mock_v2_gets = 0;
	th_mock_v3_gets = th_mock_v3_ident_gets = 0;
	th_mock_cache_invalidates = 0;
	th_mock_held_hook = NULL;
	th_mock_held_calls = 0;
	th_mock_stale = false;
	th_mock_before_create = NULL;
	th_mock_devs_reset();
}

int th_mock_map_count(void)
{
	return nmock;
}

static struct mock_map *mock_find(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return NULL;
	for (int i = 0; i < nmock; i++) {
		struct stat now;

		if (mock[i].dev != st.st_dev || mock[i].ino != st.st_ino)
			continue;
		/* unlinked (evicted) and its inode number reused: gone */
		if (mock[i].path[0] && (stat(mock[i].path, &now) ||
					now.st_dev != st.st_dev ||
					now.st_ino != st.st_ino)) {
			char l[64], q[sizeof(mock[i].path)];
			ssize_t n;

			/* renamed (famfs.ko keeps the map): its new name */
			snprintf(l, sizeof(l), "/proc/self/fd/%d", fd);
			n = readlink(l, q, sizeof(q) - 1);
			q[n > 0 ? n : 0] = '\0';
			if (n > 0 && !stat(q, &now) && now.st_dev == st.st_dev &&
			    now.st_ino == st.st_ino) {
				memcpy(mock[i].path, q, sizeof(q));
				return &mock[i];
			}
			mock_drop(i--);
			continue;
		}
		return &mock[i];
	}
	return NULL;
}

static int m_mount(const char *d, const char *m, unsigned long f, const char *o)
{
	(void)d; (void)m; (void)f; (void)o;
	return 0;
}

static int m_umount(const char *m)
{
	(void)m;
	return 0;
}

static bool mock_is_scratch(const char *path)
{
	return strstr(path, "/.meta/.new-") != NULL;
}

/* the same memory: the same extents or strips, whatever the file size */
static bool same_memory(const struct famfs_fmap *a, const struct famfs_fmap *b)
{
	struct famfs_fmap x = *a;

	x.file_size = b->file_size;
	x.has_ident = b->has_ident;	/* the file's, not its memory's */
	x.ident = b->ident;
	return !memcmp(&x, b, sizeof(x));
}

/* famfs writes a new file's memory through a scratch file with its map,
 * unlinked before the file's own MAP_CREATE (fill.c): what was written
 * shows in the file, as it would through the device */
static void mock_carry(int fd, const struct famfs_fmap *map)
{
	for (int i = 0; i < nmock; i++) {
		struct mock_map *m = &mock[i];
		struct stat now;
		char buf[65536];

		if (m->keep < 0 || !stat(m->path, &now))
			continue;	/* not a scratch file, or still there */
		for (uint64_t o = 0; same_memory(&m->map, map) &&
				     o < map->file_size; o += sizeof(buf)) {
			size_t n = map->file_size - o < sizeof(buf) ?
				   map->file_size - o : sizeof(buf);

			assert_int_equal(pread(m->keep, buf, n, (off_t)o), n);
			assert_int_equal(pwrite(fd, buf, n, (off_t)o), n);
		}
		mock_drop(i--);
	}
}

static int mock_add(int fd, const struct famfs_fmap *map)
{
	struct mock_map nm = { .keep = -1, .map = *map };
	char l[64];
	struct stat st;
	ssize_t n;

	if (fstat(fd, &st))
		return -errno;
	/* an unlinked file's map is gone; its inode number may come back for
	 * a new, empty file (a mapped one has its size) */
	for (int i = 0; !st.st_size && i < nmock; i++)
		if (mock[i].keep < 0 && mock[i].ino == st.st_ino &&
		    mock[i].dev == st.st_dev)
			mock_drop(i--);
	if (st.st_size || mock_find(fd))
		return -EEXIST;		/* the module wants an empty, unmapped file */
	if (nmock == MOCK_MAX)
		return -EINVAL;
	nm.dev = st.st_dev;
	nm.ino = st.st_ino;
	snprintf(l, sizeof(l), "/proc/self/fd/%d", fd);
	n = readlink(l, nm.path, sizeof(nm.path) - 1);
	nm.path[n > 0 ? n : 0] = '\0';
	if (ftruncate(fd, (off_t)map->file_size))
		return -errno;
	if (th_mock_stale) {	/* what an earlier user left in the memory */
		char junk[4096];

		memset(junk, 0xa5, sizeof(junk));
		for (uint64_t o = 0; o < map->file_size; o += sizeof(junk))
			if (pwrite(fd, junk, map->file_size - o < sizeof(junk) ?
				   map->file_size - o : sizeof(junk), (off_t)o) < 0)
				return -errno;
	}
	mock_carry(fd, map);
	if (mock_is_scratch(nm.path))
		nm.keep = dup(fd);
	mock[nmock++] = nm;
	return 0;
}

int th_mock_fmap_of(int fd, struct famfs_fmap *out)
{
	struct mock_map *m = mock_find(fd);

	if (!m)
		return -ENODATA;
	*out = m->map;
	return 0;
}

int th_mock_add(int fd, const struct famfs_fmap *m)
{
	return mock_add(fd, m);
}

static int m_map_create(int fd, const struct famfs_ioc_map *map)
{
	struct famfs_fmap *m;
	int rc;

	if (map->ext_list_count > FAMFS_MAX_EXTENTS)
		return -EINVAL;
	m = malloc(sizeof(*m));
	assert_non_null(m);
	famfs_fmap_from_v1(m, map);
	if (th_mock_before_create)
		th_mock_before_create(fd, m);
	rc = mock_add(fd, m);
	free(m);
	if (!rc && !mock_is_scratch(mock[nmock - 1].path))
		th_mock_v1_creates++;
	return rc;
}

static int m_map_get(int fd, struct famfs_ioc_map *map)
{
	struct mock_map *m = mock_find(fd);

	if (!m)
		return -ENODATA;
	/* v1 cannot express it: no silent truncation */
	if (m->map.extent_type != SIMPLE_DAX_EXTENT ||
	    m->map.count > FAMFS_MAX_EXTENTS || m->map.pages)
		return -EOVERFLOW;
	memset(map, 0, sizeof(*map));
	map->extent_type = m->map.extent_type;
	map->file_type = m->map.file_type;
	map->file_size = m->map.file_size;
	map->ext_list_count = m->map.count;
	for (uint32_t i = 0; i < m->map.count; i++)
		map->ext_list[i] = m->map.ext[i];
	return 0;
}

static int m_map_getext(int fd, struct famfs_extent ext[FAMFS_MAX_EXTENTS])
{
	struct famfs_ioc_map map;
	int rc = m_map_get(fd, &map);

	if (!rc)
		memcpy(ext, map.ext_list,
		       map.ext_list_count * sizeof(map.ext_list[0]));
	return rc;
}

/* the 2024 module: MAP_GET says file_size and ext_list_count only, EINVAL
 * without a map */
static int m_map_get_2024(int fd, struct famfs_ioc_map *map)
{
	int rc = m_map_get(fd, map);

	if (rc == -ENODATA)
		return -EINVAL;
	if (rc)
		return rc;
	map->extent_type = 0;
	map->file_type = 0;
	memset(map->ext_list, 0, sizeof(map->ext_list));
	return 0;
}

static int m_map_getext_2024(int fd, struct famfs_extent ext[FAMFS_MAX_EXTENTS])
{
	int rc = m_map_getext(fd, ext);

	return rc == -ENODATA ? -EINVAL : rc;
}

static bool v2_hdr_clean(const struct famfs_ioc_map_v2 *h)
{
	return !h->flags && !h->reserved[0] && !h->reserved[1] &&
	       !h->reserved[2] && !h->reserved[3];
}

/* the interleaved rules of MAP_CREATE_V2 (famfs_ioctl.h), in its order */
static int iext_check(const struct famfs_ioc_iext *x, bool last)
{
	uint64_t stripe;

	if (x->reserved)
		return -EINVAL;
	for (uint32_t k = x->nstrips; k < FAMFS_IOC_MAX_STRIPS; k++)
		if (x->strips[k].offset || x->strips[k].len)
			return -EINVAL;
	if (!x->nstrips)
		return -EINVAL;
	if (x->nstrips > FAMFS_IOC_MAX_STRIPS)
		return -E2BIG;
	if (!x->chunk_size || x->chunk_size % FAMFS_ALLOC_UNIT)
		return -EINVAL;
	if (__builtin_mul_overflow(x->chunk_size, (uint64_t)x->nstrips, &stripe))
		return -EOVERFLOW;
	if (!x->nbytes || (!last && x->nbytes % FAMFS_ALLOC_UNIT))
		return -EINVAL;
	for (uint32_t k = 0; k < x->nstrips; k++) {
		const struct famfs_extent *s = &x->strips[k];

		if (!s->len || s->offset % FAMFS_ALLOC_UNIT ||
		    s->len % FAMFS_ALLOC_UNIT || !s->offset)
			return -EINVAL;
		if (s->offset + s->len < s->offset)
			return -EOVERFLOW;
		if (s->len / x->chunk_size <
		    famfs_interleave_strip_chunks(x->nbytes, x->chunk_size,
						  x->nstrips, k))
			return -EFBIG;
	}
	return 0;
}

static int m_map_create_v2(int fd, const struct famfs_ioc_map_v2 *h)
{
	struct famfs_fmap *m;
	uint64_t total = 0;
	int rc;

	if (mock_find(fd))
		return -EEXIST;
	if (!v2_hdr_clean(h))
		return -EINVAL;
	if ((h->extent_type != SIMPLE_DAX_EXTENT &&
	     h->extent_type != FAMFS_INTERLEAVED_EXTENT) ||
	    h->file_type > FAMFS_LOG ||
	    (h->extent_type == FAMFS_INTERLEAVED_EXTENT && h->file_type != FAMFS_REG))
		return -EOPNOTSUPP;
	if (!h->ext_count)
		return -EINVAL;
	if (h->ext_count > (h->extent_type == SIMPLE_DAX_EXTENT ?
			    FAMFS_IOC_MAX_EXTENTS_V2 : FAMFS_IOC_MAX_IEXTENTS))
		return -E2BIG;
	if (!h->ext_list)
		return -EFAULT;
	m = calloc(1, sizeof(*m));
	assert_non_null(m);
	m->extent_type = h->extent_type;
	m->file_type = h->file_type;
	m->file_size = h->file_size;
	m->count = h->ext_count;
	if (h->extent_type == SIMPLE_DAX_EXTENT)
		memcpy(m->ext, (const void *)(uintptr_t)h->ext_list,
		       h->ext_count * sizeof(m->ext[0]));
	else
		memcpy(m->iext, (const void *)(uintptr_t)h->ext_list,
		       h->ext_count * sizeof(m->iext[0]));
	rc = 0;
	for (uint32_t i = 0; !rc && i < m->count; i++) {
		if (h->extent_type == SIMPLE_DAX_EXTENT) {
			if (!m->ext[i].len || m->ext[i].offset % FAMFS_ALLOC_UNIT)
				rc = -EINVAL;
			total += m->ext[i].len;
		} else {
			rc = iext_check(&m->iext[i], i + 1 == m->count);
			total += m->iext[i].nbytes;
		}
	}
	if (!rc && h->file_size > total)
		rc = -EFBIG;
	if (!rc && th_mock_before_create)
		th_mock_before_create(fd, m);
	if (!rc)
		rc = mock_add(fd, m);
	if (!rc && !mock_is_scratch(mock[nmock - 1].path))
		th_mock_v2_creates++;
	free(m);
	return rc;
}

static int m_map_get_v2(int fd, struct famfs_ioc_map_v2 *h)
{
	struct mock_map *m = mock_find(fd);
	uint32_t room = h->ext_count;
	uint64_t list = h->ext_list;

	th_mock_v2_gets++;
	if (!m)
		return -ENODATA;
	if (!v2_hdr_clean(h))
		return -EINVAL;
	if (m->map.pages)	/* page extents: MAP_GET_V3 only */
		return -EOVERFLOW;
	memset(h, 0, sizeof(*h));
	h->extent_type = m->map.extent_type;
	h->file_type = m->map.file_type;
	h->file_size = m->map.file_size;
	h->ext_count = m->map.count;
	h->ext_list = list;
	if (!room)
		return 0;
	if (room < m->map.count)
		return -E2BIG;
	if (!list)
		return -EFAULT;
	if (m->map.extent_type == SIMPLE_DAX_EXTENT)
		memcpy((void *)(uintptr_t)list, m->map.ext,
		       m->map.count * sizeof(m->map.ext[0]));
	else
		memcpy((void *)(uintptr_t)list, m->map.iext,
		       m->map.count * sizeof(m->map.iext[0]));
	return 0;
}

/* the mock's tables: each kernel's ioctls are the older one's and more */
#define TH_MOCK_V1 \
	.node_number = th_mock_node_number, \
	.mount = m_mount, \
	.umount = m_umount, \
	.map_create = m_map_create, \
	.map_get = m_map_get, \
	.map_getext = m_map_getext
#define TH_MOCK_V2 TH_MOCK_V1, \
	.map_create_v2 = m_map_create_v2, \
	.map_get_v2 = m_map_get_v2

const struct famfs_kernel_ops th_mock_kernel = {
	TH_MOCK_V2,
	.dev_add = th_mock_dev_add,
	.dev_get = th_mock_dev_get,
	.map_create_v3 = th_mock_map_create_v3,
	.map_get_v3 = th_mock_map_get_v3,
	.held = th_mock_held,
	.unlink_map = th_mock_unlink_map,
};

unsigned long th_mock_cache_invalidates;

int th_mock_cache(int fd, const struct famfs_ioc_cache *c)
{
	(void)fd;
	if (c->flags & FAMFS_CACHE_INVALIDATE)
		th_mock_cache_invalidates++;
	return 0;
}

/* the same without FAMFS_IOC_MAP_INVALIDATE (nor FAMFS_IOC_MAP_IDENT): a
 * famfs.ko of issue 29's first reclaim (with FAMFSIOC_CACHE) */
const struct famfs_kernel_ops th_mock_kernel_noinval = {
	TH_MOCK_V2,
	.cache = th_mock_cache,
	.dev_add = th_mock_dev_add,
	.dev_get = th_mock_dev_get,
	.map_create_v3 = th_mock_map_create_v3_old,
	.map_get_v3 = th_mock_map_get_v3_old,
	.held = th_mock_held,
	.unlink_map = th_mock_unlink_map_old,
};

/* the same without v3: a famfs.ko of issue 11's time */
const struct famfs_kernel_ops th_mock_kernel_v2 = { TH_MOCK_V2 };

/* the same without v2: an older famfs.ko */
const struct famfs_kernel_ops th_mock_kernel_v1 = { TH_MOCK_V1 };

const struct famfs_kernel_ops th_mock_kernel_2024 = {
	.mount = m_mount,
	.umount = m_umount,
	.map_create = m_map_create,
	.map_get = m_map_get_2024,
	.map_getext = m_map_getext_2024,
};

int th_mock_lookup(const char *path, struct famfs_ioc_map *map)
{
	int fd = open(path, O_RDONLY), rc;

	if (fd < 0)
		return -errno;
	rc = m_map_get(fd, map);
	close(fd);
	return rc;
}

int th_mock_lookup_fmap(const char *path, struct famfs_fmap *map)
{
	int fd = open(path, O_RDONLY);
	struct mock_map *m;

	if (fd < 0)
		return -errno;
	m = mock_find(fd);
	close(fd);
	if (!m)
		return -ENODATA;
	*map = m->map;
	return 0;
}

uint64_t th_mock_off_of(struct th *t, const char *rel)
{
	struct famfs_fmap m;
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	return m.ext[0].offset;
}
