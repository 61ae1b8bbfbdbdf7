// SPDX-License-Identifier: GPL-2.0
/* The only code that talks to famfs.ko: mount(2) and the v1 ioctls.
 * Unit tests replace famfs_kernel with a mock. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>

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
	struct famfs_extent ext[FAMFS_MAX_EXTENTS];

	memset(map, 0, sizeof(*map));
	if (ioctl(fd, FAMFSIOC_MAP_GET, map))
		return -errno;
	if (map->ext_list_count > FAMFS_MAX_EXTENTS)
		return -E2BIG;
	/* MAP_GETEXT copies ext_list_count extents to the array */
	memset(ext, 0, sizeof(ext));
	if (map->ext_list_count && ioctl(fd, FAMFSIOC_MAP_GETEXT, ext) == 0 &&
	    memcmp(ext, map->ext_list, map->ext_list_count * sizeof(ext[0])))
		return -EBADE;	/* MAP_GET and MAP_GETEXT disagree */
	return 0;
}

const struct famfs_kernel_ops famfs_kernel_real = {
	.mount = real_mount,
	.umount = real_umount,
	.map_create = real_map_create,
	.map_get = real_map_get,
};

const struct famfs_kernel_ops *famfs_kernel = &famfs_kernel_real;
