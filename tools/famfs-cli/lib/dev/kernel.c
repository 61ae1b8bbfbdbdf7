// SPDX-License-Identifier: GPL-2.0
/* The only code that talks to famfs.ko: mount(2) and the ioctls (v1, v2 and
 * v3; FAMFSIOC_NS for nscall.c; FAMFSIOC_HELD for famfs_kernel_held()).
 * Unit tests replace famfs_kernel with a mock.  This file: the real
 * ioctls (famfs_kernel_real), FAMFSIOC_CACHE, FAMFSIOC_HELD and a mount's
 * members (DEV_GET, DEV_ADD); a file's map given and read is fmap.c's, a
 * log entry's map and FAMFSIOC_UNLINK_MAP entrymap.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "dev/dev.h"

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
	struct statfs sf;
	struct stat st;

	/* not famfs: nothing this could flush (an empty file or one of
	 * /proc, size 0, never reached the ioctl and "succeeded"); a unit
	 * test's mock FAMFSIOC_CACHE answers for its files, which are not */
	if (fstatfs(fd, &sf) || fstat(fd, &st))
		return -errno;
	if ((uint32_t)sf.f_type != FAMFS_SUPER_MAGIC &&
	    (!famfs_kernel->cache || famfs_kernel->cache == real_cache))
		return -ENOTTY;
	if (st.st_size <= 0)
		return 0;
	if (!famfs_kernel->cache)
		return -ENOTTY;
	c.length = (uint64_t)st.st_size;
	return famfs_kernel->cache(fd, &c);
}

static int real_dev_add(int fd, const struct famfs_ioc_dev_add *a)
{
	return ioctl(fd, FAMFSIOC_DEV_ADD, a) ? -errno : 0;
}

static int real_dev_get(int fd, struct famfs_ioc_dev_info *i)
{
	return ioctl(fd, FAMFSIOC_DEV_GET, i) ? -errno : 0;
}

static int real_map_create_v3(int fd, const struct famfs_ioc_map_v2 *map)
{
	return ioctl(fd, FAMFSIOC_MAP_CREATE_V3, map) ? -errno : 0;
}

static int real_map_get_v3(int fd, struct famfs_ioc_map_v2 *map)
{
	return ioctl(fd, FAMFSIOC_MAP_GET_V3, map) ? -errno : 0;
}

static int real_ns(int fd, const struct famfs_ioc_ns *a)
{
	int rc = ioctl(fd, FAMFSIOC_NS, a);

	return rc < 0 ? -errno : rc;
}

static int real_held(int fd, struct famfs_ioc_held *h)
{
	return ioctl(fd, FAMFSIOC_HELD, h) ? -errno : 0;
}

static int real_unlink_map(int dfd, const struct famfs_ioc_unlink_map *a)
{
	return ioctl(dfd, FAMFSIOC_UNLINK_MAP, a) ? -errno : 0;
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
	.dev_add = real_dev_add,
	.dev_get = real_dev_get,
	.map_create_v3 = real_map_create_v3,
	.map_get_v3 = real_map_get_v3,
	.ns = real_ns,
	.held = real_held,
	.unlink_map = real_unlink_map,
	.node_number = famfs_node_number,
};

const struct famfs_kernel_ops *famfs_kernel = &famfs_kernel_real;

bool famfs_kernel_node_number(const struct stat *st, uint32_t *major,
			      uint32_t *minor, uint32_t *flags)
{
	if (famfs_kernel->node_number)
		return famfs_kernel->node_number(st, major, minor, flags);
	return famfs_node_number(st, major, minor, flags);
}

int famfs_kernel_held(int fd, struct famfs_ioc_held_range *r, unsigned n)
{
	struct famfs_ioc_held h;

	if (n > FAMFS_HELD_MAX)
		return -E2BIG;
	if (!n)
		return 0;
	if (!famfs_kernel->held)
		return -ENOTTY;
	for (unsigned i = 0; i < n; i++) {
		r[i].flags = 0;
		r[i].held = 0;
	}
	memset(&h, 0, sizeof(h));
	h.count = n;
	h.ranges = (uint64_t)(uintptr_t)r;
	return famfs_kernel->held(fd, &h);
}

/* ---- the members of a mount (FAMFSIOC_DEV_GET, FAMFSIOC_DEV_ADD) ---- */
int famfs_mount_dev_get(const char *mpt, unsigned index,
			struct famfs_ioc_dev_info *i)
{
	int fd, rc;

	if (!famfs_kernel->dev_get)
		return -ENOTTY;
	fd = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(i, 0, sizeof(*i));
	i->index = index;
	rc = famfs_kernel->dev_get(fd, i);
	close(fd);
	return rc;
}

int famfs_mount_dev_attached(const char *mpt, unsigned index)
{
	struct famfs_ioc_dev_info i;
	int rc = famfs_mount_dev_get(mpt, index, &i);

	if (rc == -ENXIO)
		return 0;
	return rc ? rc : 1;
}

int famfs_mount_dev_add(const char *mpt, const char *path, unsigned index,
			uint64_t size)
{
	struct famfs_ioc_dev_add a;
	int mfd, dfd, rc;

	if (!famfs_kernel->dev_add) {
		famfs_err("%s: this famfs.ko cannot attach member devices (no FAMFSIOC_DEV_ADD)",
			  mpt);
		return -ENOTTY;
	}
	mfd = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0) {
		rc = -errno;
		famfs_err("%s: %s", mpt, strerror(errno));
		return rc;
	}
	/* read-only: a writable open of a /dev/daxX.Y makes it busy */
	dfd = open(path, O_RDONLY | O_CLOEXEC);
	if (dfd < 0) {
		rc = -errno;
		famfs_err("%s: %s", path, strerror(errno));
		close(mfd);
		return rc;
	}
	memset(&a, 0, sizeof(a));
	a.fd = dfd;
	a.index = index;
	a.size = size;
	rc = famfs_kernel->dev_add(mfd, &a);
	if (rc)
		famfs_err("%s: cannot attach %s as member %u (%llu bytes): %s%s",
			  mpt, path, index, (unsigned long long)size,
			  strerror(-rc), rc == -EOPNOTSUPP ?
			  " (a device-dax instance must be bound to famfs first: famfs bind DEV)" :
			  rc == -EBUSY ? " (held by another mount or opener)" : "");
	close(dfd);
	close(mfd);
	return rc;
}
