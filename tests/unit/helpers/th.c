// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "th.h"

/* ---- mock kernel --------------------------------------------------------- */
#define MOCK_MAX 4096
static struct mock_map {
	dev_t dev;
	ino_t ino;
	struct famfs_ioc_map map;
} mock[MOCK_MAX];
static int nmock;

void th_mock_reset(void)
{
	nmock = 0;
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
	for (int i = 0; i < nmock; i++)
		if (mock[i].dev == st.st_dev && mock[i].ino == st.st_ino)
			return &mock[i];
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

static int m_map_create(int fd, const struct famfs_ioc_map *map)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (st.st_size || mock_find(fd))
		return -EEXIST;		/* the module wants an empty, unmapped file */
	if (nmock == MOCK_MAX || map->ext_list_count > FAMFS_MAX_EXTENTS)
		return -EINVAL;
	mock[nmock].dev = st.st_dev;
	mock[nmock].ino = st.st_ino;
	mock[nmock].map = *map;
	nmock++;
	if (ftruncate(fd, (off_t)map->file_size))
		return -errno;
	return 0;
}

static int m_map_get(int fd, struct famfs_ioc_map *map)
{
	struct mock_map *m = mock_find(fd);

	if (!m)
		return -ENODATA;
	*map = m->map;
	return 0;
}

const struct famfs_kernel_ops th_mock_kernel = {
	.mount = m_mount,
	.umount = m_umount,
	.map_create = m_map_create,
	.map_get = m_map_get,
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

/* ---- images -------------------------------------------------------------- */
static void write_id(const char *path, uint8_t uuid[16])
{
	char s[37];
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	uuid_unparse_lower(uuid, s);
	fprintf(f, "%s\n", s);
	fclose(f);
}

struct th *th_new(uint64_t size, uint64_t loglen)
{
	struct th *t = calloc(1, sizeof(*t));
	struct famfs_superblock sb;
	struct famfs_log_header h;
	uint8_t fsid[16], host[16];
	int fd;

	assert_non_null(t);
	snprintf(t->dir, sizeof(t->dir), "/tmp/famfs-unit-XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->img, sizeof(t->img), "%s/img", t->dir);
	snprintf(t->mpt, sizeof(t->mpt), "%s/mnt", t->dir);
	snprintf(t->hostid, sizeof(t->hostid), "%s/host-uuid", t->dir);
	assert_int_equal(mkdir(t->mpt, 0755), 0);
	uuid_generate(host);
	write_id(t->hostid, host);
	setenv("FAMFS_HOST_ID_FILE", t->hostid, 1);

	uuid_generate(fsid);
	famfs_sb_init(&sb, fsid, host, size, loglen);
	famfs_log_hdr_init(&h, fsid, loglen);
	fd = open(t->img, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(pwrite(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	assert_int_equal(pwrite(fd, &h, sizeof(h), FAMFS_LOG_OFFSET),
			 (ssize_t)sizeof(h));
	close(fd);

	famfs_quiet = getenv("FAMFS_UNIT_VERBOSE") ? 0 : 1;
	famfs_kernel = &th_mock_kernel;
	th_mock_reset();
	assert_int_equal(th_reopen(t), 0);
	return t;
}

int th_reopen(struct th *t)
{
	int rc;

	if (t->open)
		famfs_fs_close(&t->fs);
	t->open = false;
	rc = famfs_fs_open_dev(t->img, true, &t->fs);
	if (rc)
		return rc;
	snprintf(t->fs.mpt, sizeof(t->fs.mpt), "%s", t->mpt);
	t->open = true;
	return 0;
}

void th_become_client(struct th *t)
{
	uint8_t other[16];

	uuid_generate(other);
	write_id(t->hostid, other);
	assert_int_equal(th_reopen(t), 0);
	assert_false(t->fs.master);
}

void th_free(struct th *t)
{
	char cmd[400];

	if (!t)
		return;
	if (t->open)
		famfs_fs_close(&t->fs);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
	free(t);
}

uint64_t th_append_file(struct th *t, const char *path, uint64_t off,
			uint64_t len, uint64_t size)
{
	struct famfs_log_simple_ext ext = { htole64(off), htole64(len) };
	struct famfs_log_entry e;
	uint64_t idx = famfs_log_next(t->fs.log);

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, path, size, 0644,
					   0, 0, &ext, 1), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return idx;
}

uint64_t th_append_dir(struct th *t, const char *path)
{
	struct famfs_log_entry e;
	uint64_t idx = famfs_log_next(t->fs.log);

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, path, 0, 0755,
					   0, 0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return idx;
}

void th_touch(struct th *t, const char *rel, const char *content)
{
	char p[700];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

bool th_exists(struct th *t, const char *rel, bool dir)
{
	char p[700];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	if (stat(p, &st))
		return false;
	return dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

int th_setup(void **state)
{
	*state = th_new(64 * MiB, 2 * MiB);
	return 0;
}

int th_teardown(void **state)
{
	th_free(*state);
	return 0;
}
