// SPDX-License-Identifier: GPL-2.0
/* Mutating operations on a mounted file system (master only). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "libfamfs.h"

int famfs_map_from_entry(const struct famfs_log_entry *e,
			 struct famfs_ioc_map *map)
{
	unsigned n = le16toh(e->fm.nextents);

	memset(map, 0, sizeof(*map));
	if (famfs_entry_interleaved(e) || n > FAMFS_MAX_EXTENTS)
		return -EOVERFLOW;	/* v1 cannot express it */
	map->extent_type = SIMPLE_DAX_EXTENT;
	map->file_type = FAMFS_REG;
	map->file_size = le64toh(e->fm.size);
	map->ext_list_count = n;
	for (unsigned i = 0; i < n; i++) {
		map->ext_list[i].offset = le64toh(e->fm.ext.simple[i].offset);
		map->ext_list[i].len = le64toh(e->fm.ext.simple[i].len);
	}
	return 0;
}

void famfs_fmap_from_entry(const struct famfs_log_entry *e,
			   struct famfs_fmap *m)
{
	const struct famfs_log_interleave_ext *ie = &e->fm.ext.interleave;

	memset(m, 0, sizeof(*m));
	m->file_type = FAMFS_REG;
	m->file_size = le64toh(e->fm.size);
	if (famfs_entry_interleaved(e)) {
		struct famfs_ioc_iext *x = &m->iext[0];
		uint32_t ns = le32toh(ie->nstrips);

		m->extent_type = FAMFS_INTERLEAVED_EXTENT;
		m->count = 1;
		x->nstrips = ns;
		x->chunk_size = le64toh(ie->chunk_size);
		x->nbytes = (uint64_t)ns * le64toh(ie->strip_len);
		for (uint32_t i = 0; i < ns && i < FAMFS_IOC_MAX_STRIPS; i++) {
			x->strips[i].offset = le64toh(ie->strip_off[i]);
			x->strips[i].len = le64toh(ie->strip_len);
		}
		return;
	}
	m->extent_type = SIMPLE_DAX_EXTENT;
	m->count = le16toh(e->fm.nextents);
	if (m->count > FAMFS_LOG_MAX_SIMPLE_EXT)
		m->count = FAMFS_LOG_MAX_SIMPLE_EXT;
	for (uint32_t i = 0; i < m->count; i++) {
		m->ext[i].offset = le64toh(e->fm.ext.simple[i].offset);
		m->ext[i].len = le64toh(e->fm.ext.simple[i].len);
	}
}

int famfs_layout_check(const struct famfs_layout *lay, char *reason)
{
	if (!lay || !lay->nstrips)
		return 0;
	if (lay->nstrips > FAMFS_LOG_MAX_STRIPS) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "%u strips: the strip count must be 1..%u",
				 lay->nstrips, FAMFS_LOG_MAX_STRIPS);
		return -EINVAL;
	}
	if (!lay->chunk || lay->chunk % FAMFS_ALLOC_UNIT) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "chunk size %llu: must be a non-zero multiple of 2 MiB (2M, 4M, ...)",
				 (unsigned long long)lay->chunk);
		return -EINVAL;
	}
	return 0;
}

struct dup_ctx {
	const char *rel;
	uint64_t found;
};

static int find_path(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		     bool ok, const char *reason)
{
	struct dup_ctx *d = arg;

	(void)reason;
	if (ok && !strcmp(e->fm.path, d->rel)) {
		d->found = idx + 1;
		return 1;
	}
	return 0;
}

/* 0 if rel is not in the log yet, else -EEXIST (message printed) */
static int not_logged(struct famfs_fs *fs, const char *rel)
{
	struct dup_ctx d = { .rel = rel };

	famfs_log_walk(fs, find_path, &d);
	if (d.found) {
		famfs_err("%s/%s: already in the log (entry %llu)", fs->mpt, rel,
			  (unsigned long long)d.found - 1);
		return -EEXIST;
	}
	return 0;
}

static void set_owner(int fd, const char *p, uint32_t mode, uint32_t uid,
		      uint32_t gid)
{
	if (fchown(fd, uid, gid) && (uid != getuid() || gid != getgid()))
		famfs_warn("%s: chown %u:%u: %s", p, uid, gid, strerror(errno));
	if (fchmod(fd, mode & 07777))
		famfs_warn("%s: chmod 0%o: %s", p, mode, strerror(errno));
}

int famfs_file_create(struct famfs_fs *fs, const char *rel, uint64_t size,
		      uint32_t mode, uint32_t uid, uint32_t gid)
{
	return famfs_file_create_layout(fs, rel, size, mode, uid, gid, NULL);
}

/* allocate and build the entry of a new file */
static int alloc_entry(struct famfs_fs *fs, const char *p, const char *norm,
		       uint64_t size, uint32_t mode, uint32_t uid, uint32_t gid,
		       const struct famfs_layout *lay, struct famfs_log_entry *e)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_log_simple_ext ext[FAMFS_LOG_MAX_SIMPLE_EXT];
	struct famfs_bitmap bm = { 0 };
	unsigned next = 0;
	int rc;

	rc = famfs_bitmap_build(fs, &bm);
	if (rc)
		goto out;
	if (lay && lay->nstrips)
		rc = famfs_alloc_strips(&bm, size, lay->nstrips, lay->chunk, &ie);
	else
		rc = famfs_alloc_extents(&bm, size, FAMFS_LOG_MAX_SIMPLE_EXT,
					 ext, &next);
	if (rc) {
		if (lay && lay->nstrips)
			famfs_err("%s: device full: no room for %u strips of %llu-byte chunks holding %llu bytes (%llu bytes free in 2 MiB units)",
				  p, lay->nstrips, (unsigned long long)lay->chunk,
				  (unsigned long long)size,
				  (unsigned long long)(bm.nfree * FAMFS_ALLOC_UNIT));
		else
			famfs_err("%s: device full: %llu bytes fit neither in one free run nor in the %u longest ones together (%llu bytes free in 2 MiB units)",
				  p, (unsigned long long)size,
				  (unsigned)FAMFS_LOG_MAX_SIMPLE_EXT,
				  (unsigned long long)(bm.nfree * FAMFS_ALLOC_UNIT));
		goto out;
	}
	if (lay && lay->nstrips) {
		rc = famfs_entry_build_interleaved(e, norm, size, mode, uid, gid,
						   &ie);
		/* the superblock says so before the first such entry */
		if (!rc)
			rc = famfs_fs_set_incompat(fs, FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
	} else {
		rc = famfs_entry_build(e, FAMFS_LOG_FILE, norm, size, mode, uid,
				       gid, ext, next);
	}
out:
	famfs_bitmap_free(&bm);
	return rc;
}

int famfs_file_create_layout(struct famfs_fs *fs, const char *rel,
			     uint64_t size, uint32_t mode, uint32_t uid,
			     uint32_t gid, const struct famfs_layout *lay)
{
	char norm[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN], p[PATH_MAX];
	struct famfs_log_entry e;
	struct famfs_fmap *map = NULL;
	int fd = -1, rc;

	rc = famfs_fs_writable(fs);
	if (rc)
		return rc;
	if (famfs_layout_check(lay, reason)) {
		famfs_err("%s/%s: %s", fs->mpt, rel, reason);
		return -EINVAL;
	}
	if (famfs_relpath_normalize(rel, norm, reason)) {
		famfs_err("%s: %s", fs->mpt, reason);
		return -EINVAL;
	}
	if (famfs_join(p, sizeof(p), fs->mpt, norm))
		return -ENAMETOOLONG;
	rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	rc = not_logged(fs, norm);
	if (rc)
		goto out;
	fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot create: %s", p, strerror(errno));
		goto out;
	}
	rc = alloc_entry(fs, p, norm, size, mode, uid, gid, lay, &e);
	if (rc)
		goto undo;
	map = malloc(sizeof(*map));
	if (!map) {
		famfs_err("%s: out of memory", p);
		rc = -ENOMEM;
		goto undo;
	}
	rc = famfs_log_append(fs, &e);
	if (rc)
		goto undo;
	/* logged: from here on the file exists for every host */
	set_owner(fd, p, mode, uid, gid);
	famfs_fmap_from_entry(&e, map);
	rc = famfs_fmap_create(fd, map);
	if (rc) {
		bool v2 = map->extent_type == FAMFS_INTERLEAVED_EXTENT ||
			  map->count > FAMFS_MAX_EXTENTS;

		famfs_err("%s: %s: %s%s (logged; famfs logplay retries)", p,
			  v2 ? "MAP_CREATE_V2" : "MAP_CREATE", strerror(-rc),
			  rc == -ENOTTY ? (map->extent_type == FAMFS_INTERLEAVED_EXTENT ?
					   ": this famfs.ko has no interleaved files" :
					   ": this famfs.ko takes at most 2 extents per file") : "");
		close(fd);
		fd = -1;
		goto out;
	}
	free(map);
	famfs_fs_unlock(fs);
	return fd;
undo:
	if (fd >= 0) {
		close(fd);
		unlink(p);
	}
out:
	free(map);
	famfs_fs_unlock(fs);
	return rc;
}

/* mkdir one directory and log it; -EEXIST if present as a directory */
static int mkdir_one(struct famfs_fs *fs, const char *rel, uint32_t mode,
		     uint32_t uid, uint32_t gid)
{
	char p[PATH_MAX];
	struct famfs_log_entry e;
	struct stat st;
	int fd, rc;

	if (famfs_join(p, sizeof(p), fs->mpt, rel))
		return -ENAMETOOLONG;
	if (lstat(p, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return -EEXIST;
		famfs_err("%s: exists and is not a directory", p);
		return -ENOTDIR;
	}
	rc = famfs_entry_build(&e, FAMFS_LOG_MKDIR, rel, 0, mode, uid, gid,
			       NULL, 0);
	if (rc)
		return rc;
	if (mkdir(p, 0700)) {
		rc = -errno;
		famfs_err("%s: mkdir: %s", p, strerror(errno));
		return rc;
	}
	rc = famfs_log_append(fs, &e);
	if (rc) {
		rmdir(p);
		return rc;
	}
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		set_owner(fd, p, mode, uid, gid);
		close(fd);
	}
	return 0;
}

int famfs_mkdir(struct famfs_fs *fs, const char *rel, uint32_t mode,
		uint32_t uid, uint32_t gid, bool parents)
{
	char norm[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN];
	int rc;

	rc = famfs_fs_writable(fs);
	if (rc)
		return rc;
	if (famfs_relpath_normalize(rel, norm, reason)) {
		famfs_err("%s: %s", fs->mpt, reason);
		return -EINVAL;
	}
	rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	if (parents) {
		for (char *s = strchr(norm, '/'); s; s = strchr(s + 1, '/')) {
			*s = '\0';
			rc = mkdir_one(fs, norm, 0755, uid, gid);
			*s = '/';
			if (rc && rc != -EEXIST)
				goto out;
		}
	}
	rc = mkdir_one(fs, norm, mode, uid, gid);
	if (rc == -EEXIST) {
		if (parents)
			rc = 0;
		else
			famfs_err("%s/%s: already exists", fs->mpt, norm);
	}
out:
	famfs_fs_unlock(fs);
	return rc;
}
