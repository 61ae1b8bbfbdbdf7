// SPDX-License-Identifier: GPL-2.0
/*
 * famfs devices place: a file at a given place on a given device, for the
 * tests of several devices until per-device allocation lands (issue 16).
 * The caller chooses the memory (no allocator): the entry is checked as
 * every entry is (the device added by the log, the range in its data
 * area), the memory zeroed through a scratch file, the file mapped
 * (MAP_CREATE_V3 on a member) and logged, under the log lock, as the master.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "famfs.h"
#include "master.h"

static int place(struct famfs_fs *fs, const char *rel, unsigned dev,
		 uint64_t off, uint64_t size)
{
	struct famfs_log_simple_ext x;
	char p[PATH_MAX], why[FAMFS_REASON_LEN];
	struct famfs_log_entry e, c;
	struct famfs_fmap *map;
	uint64_t len = (size + FAMFS_ALLOC_UNIT - 1) & ~(FAMFS_ALLOC_UNIT - 1);
	int fd, rc;

	x.offset = htole64(off);
	x.len = htole64(len ? len : FAMFS_ALLOC_UNIT);
	rc = famfs_entry_build(&e, FAMFS_LOG_FILE, rel, size, 0644, getuid(),
			       getgid(), &x, 1);
	if (rc)
		return rc;
	e.fm.reserved[0] = (uint8_t)dev;	/* famfs_entry_devindex */
	rc = famfs_fs_devs_update(fs);
	if (rc)
		return rc;
	/* judged as it will be once logged (at the log's end) */
	c = e;
	c.seq = htole64(famfs_log_next(fs->log));
	memcpy(c.fs_uuid, fs->sb->fs_uuid, 16);
	famfs_entry_set_crc(&c);
	if (famfs_entry_check_devs(&c, famfs_log_next(fs->log), fs->sb,
				   &fs->devs, why)) {
		famfs_err("%s/%s: %s", fs->mpt, rel, why);
		return -EINVAL;
	}
	if (famfs_join(p, sizeof(p), fs->mpt, e.fm.path))
		return -ENAMETOOLONG;
	map = malloc(sizeof(*map));
	if (!map)
		return -ENOMEM;
	famfs_fmap_from_entry(&e, map);
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot create: %s", p, strerror(errno));
		free(map);
		return rc;
	}
	rc = famfs_fill_units(fs, p, map, NULL);
	if (!rc) {
		rc = famfs_fmap_create(fd, map);
		if (rc)
			famfs_err("%s: MAP_CREATE%s: %s", p,
				  dev ? "_V3" : "", strerror(-rc));
	}
	if (!rc && fchmod(fd, 0644))
		famfs_warn("%s: chmod: %s", p, strerror(errno));
	if (!rc)
		rc = famfs_log_append(fs, &e);
	if (rc)
		unlink(p);
	/* the create cache (summary) never saw this memory */
	famfs_fs_cache_drop(fs);
	close(fd);
	free(map);
	return rc;
}

int cli_devices_place(int argc, char **argv)
{
	uint64_t off, size;
	uint32_t dev;
	struct famfs_fs fs;
	int rc;

	if (argc != 5 || famfs_parse_u32(argv[2], 10, &dev) ||
	    dev >= FAMFS_MAX_DEVS || famfs_parse_size(argv[3], &off) ||
	    famfs_parse_size(argv[4], &size)) {
		famfs_err("devices place: want MPT FILE INDEX OFFSET SIZE");
		return FAMFS_EXIT_USAGE;
	}
	if (famfs_fs_open_mount(argv[0], true, &fs))
		return FAMFS_EXIT_ERROR;
	rc = famfs_fs_writable(&fs);
	if (!rc)
		rc = famfs_fs_lock(&fs);
	if (!rc) {
		rc = famfs_master_check(&fs);
		if (!rc)
			rc = place(&fs, argv[1], dev, off, size);
		famfs_fs_unlock(&fs);
	}
	famfs_fs_close(&fs);
	if (!rc)
		printf("%s/%s: %llu bytes at %llu on device %u\n", argv[0],
		       argv[1], (unsigned long long)size,
		       (unsigned long long)off, dev);
	return rc ? FAMFS_EXIT_ERROR : FAMFS_EXIT_OK;
}
