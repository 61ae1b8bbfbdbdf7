// SPDX-License-Identifier: GPL-2.0
/*
 * Log segments (INCOMPAT_LOG_EXTEND, famfs_format.h): a compact log is one
 * view, a PROT_NONE reservation of FAMFS_LOG_TOTAL_MAX bytes into which
 * segment 0 (mkfs's log) and every segment an EXTEND entry adds are mapped
 * back to back.  Slot i is then at fs->log + 1 KiB + 256 * i whatever its
 * segment, and an entry that spans two segments is contiguous; only cache
 * maintenance goes segment by segment.  Also the master's growth.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)
#define SLOT FAMFS_CLOG_SLOT

static uint8_t *seg_addr(struct famfs_fs *fs, uint64_t first)
{
	return (uint8_t *)fs->log + FAMFS_LOG_HDR_SIZE + first * SLOT;
}

int famfs_logview_init(struct famfs_fs *fs)
{
	uint64_t llen = le64toh(fs->sb->log_len);
	struct famfs_logseg *s = &fs->seg[0];
	bool compact = famfs_fs_compact(fs);
	uintptr_t head;
	void *v;

	s->first = 0;
	s->nslots = famfs_log_capacity_of(llen, compact);
	s->dev_off = le64toh(fs->sb->log_offset);
	s->len = llen;
	s->fd = -1;
	s->logged = true;
	fs->nsegs = 1;
	fs->log_cap = s->nslots;
	if (!compact)
		return 0;
	/* 2 MiB aligned: device-dax maps only at its alignment, and famfs
	 * files fault 2 MiB pages there (every segment starts at a multiple
	 * of 2 MiB from the base) */
	v = mmap(NULL, FAMFS_LOG_TOTAL_MAX + FAMFS_ALLOC_UNIT, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (v == MAP_FAILED) {
		int rc = -errno;

		famfs_err("%s: cannot reserve address space for the log: %s",
			  fs->name, strerror(errno));
		return rc;
	}
	head = (-(uintptr_t)v) & (FAMFS_ALLOC_UNIT - 1);
	if (head)
		munmap(v, head);
	munmap((char *)v + head + FAMFS_LOG_TOTAL_MAX, FAMFS_ALLOC_UNIT - head);
	fs->view = (char *)v + head;
	return 0;
}

static void seg_drop(struct famfs_fs *fs, unsigned k)
{
	struct famfs_logseg *s = &fs->seg[k];

	famfs_map_unmap(&s->m);
	if (s->fd >= 0)
		close(s->fd);
	memset(s, 0, sizeof(*s));
	s->fd = -1;
}

void famfs_logview_fini(struct famfs_fs *fs)
{
	while (fs->nsegs > 1)
		seg_drop(fs, --fs->nsegs);
	if (fs->view)
		munmap(fs->view, FAMFS_LOG_TOTAL_MAX);
	fs->view = NULL;
}

/* room in the view and the format for segment k of len bytes */
static int seg_fits(struct famfs_fs *fs, unsigned k, uint64_t len,
		    char *reason)
{
	uint64_t total = FAMFS_LOG_HDR_SIZE + fs->log_cap * SLOT;

	if (!fs->view) {
		REASON("a log segment in a log that is not compact");
		return -EINVAL;
	}
	if (k >= FAMFS_LOG_MAX_SEGS) {
		REASON("log segment %u: at most %u segments", k,
		       FAMFS_LOG_MAX_SEGS);
		return -EINVAL;
	}
	if (!len || len % FAMFS_ALLOC_UNIT || len > FAMFS_LOG_TOTAL_MAX - total) {
		REASON("log segment %u of %llu bytes: not a multiple of 2 MiB, or the log would pass %llu bytes",
		       k, (unsigned long long)len,
		       (unsigned long long)FAMFS_LOG_TOTAL_MAX);
		return -EINVAL;
	}
	return 0;
}

/* Map segment k (== fs->nsegs) of len bytes at the end of the view: from
 * the device when opened from one, else through fd (.meta/.logK, taken
 * over) */
static int seg_map(struct famfs_fs *fs, unsigned k, uint64_t off,
		   uint64_t len, int fd)
{
	struct famfs_logseg *s = &fs->seg[k];
	void *at = seg_addr(fs, fs->log_cap);
	int rc;

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	if (fs->dev.fd >= 0)
		rc = famfs_dev_map_at(&fs->dev, off, len, at, &s->m);
	else
		rc = famfs_fd_map_at(fd, ".meta/.logN", len, fs->rw, at, &s->m);
	if (rc) {
		if (fd >= 0)
			close(fd);
		s->fd = -1;
		return rc;
	}
	s->first = fs->log_cap;
	s->nslots = len / SLOT;
	s->dev_off = off;
	s->len = len;
	fs->log_cap += s->nslots;
	fs->nsegs = k + 1;
	return 0;
}

static int seg_name(struct famfs_fs *fs, unsigned k, char *p, size_t n)
{
	char rel[32];

	snprintf(rel, sizeof(rel), FAMFS_META_LOGSEG, k);
	return famfs_join(p, n, fs->mpt, rel);
}

uint64_t famfs_meta_file_off(int fd, uint64_t len)
{
	struct famfs_fmap *m = calloc(1, sizeof(*m));
	uint64_t off = UINT64_MAX;
	int q = famfs_quiet;

	famfs_quiet = 1;
	if (m && !famfs_fmap_get(fd, m) && m->extent_type == SIMPLE_DAX_EXTENT &&
	    m->count == 1 && m->ext[0].len == len)
		off = m->ext[0].offset;
	famfs_quiet = q;
	free(m);
	return off;
}

/* .meta/.logK's name in .meta (".logK"), and its path for messages */
static const char *seg_base(const char *rel)
{
	return rel + sizeof(FAMFS_META_DIR);
}

int famfs_logview_attach(struct famfs_fs *fs)
{
	char p[PATH_MAX], rel[32], reason[FAMFS_REASON_LEN];
	char why[FAMFS_META_WHY_LEN];
	int mfd, rc = 0;

	if (!fs->view || fs->dev.fd >= 0 || !fs->mpt[0])
		return 0;
	/* beneath the mount root, no link followed, from a .meta only root
	 * can put a name in (metadir.h): never another file as the log */
	mfd = famfs_metadir_open(fs->mpt, why);
	if (mfd < 0) {
		famfs_err("%s/%s: %s: no log segment read", fs->mpt,
			  FAMFS_META_DIR, why);
		return 0;
	}
	for (unsigned k = 1; k < FAMFS_LOG_MAX_SEGS; k++) {
		struct stat st;
		uint64_t len;
		int fd;

		snprintf(rel, sizeof(rel), FAMFS_META_LOGSEG, k);
		if (seg_name(fs, k, p, sizeof(p))) {
			rc = -ENAMETOOLONG;
			break;
		}
		fd = famfs_meta_openat(mfd, seg_base(rel),
				       fs->rw ? O_RDWR : O_RDONLY, 0, why);
		if (fd == -ENOENT)
			break;
		/* one that cannot be used: said, and neither it nor any
		 * after it mapped (the walk reports the slots it cannot
		 * read; famfs check and fsck name the file) */
		if (fd < 0 || fstat(fd, &st)) {
			famfs_err("%s: %s: not read as log segment %u", p,
				  fd < 0 ? why : strerror(errno), k);
			if (fd >= 0)
				close(fd);
			break;
		}
		len = (uint64_t)st.st_size;
		if (seg_fits(fs, k, len, reason)) {
			famfs_err("%s: %s: not read as log segment %u", p,
				  reason, k);
			close(fd);
			break;
		}
		rc = seg_map(fs, k, famfs_meta_file_off(fd, len), len, fd);
		if (rc)
			break;
	}
	close(mfd);
	return rc;
}

int famfs_meta_create(const char *mpt, const char *rel, mode_t mode,
		      uint32_t type, uint64_t off, uint64_t len)
{
	struct famfs_ioc_map map = {
		.extent_type = SIMPLE_DAX_EXTENT,
		.file_type = type,
		.file_size = len,
		.ext_list_count = 1,
		.ext_list = { { .offset = off, .len = len } },
	};
	char p[PATH_MAX], why[FAMFS_META_WHY_LEN];
	const char *slash = strrchr(rel, '/'), *name = slash ? slash + 1 : rel;
	int fd, pfd, rc;

	if (famfs_join(p, sizeof(p), mpt, rel))
		return -ENAMETOOLONG;
	/* in .meta opened beneath the mount root: never made, mapped or
	 * unlinked where a link in its place leads, nor in a .meta that
	 * another user could put a name in (metadir.h) */
	pfd = famfs_metadir_open(mpt, why);
	if (pfd < 0) {
		famfs_err("%s: cannot create: %s", p, why);
		return pfd;
	}
	fd = famfs_mnt_creat(pfd, name, mode);
	if (fd < 0) {
		rc = -errno;
		famfs_err("%s: cannot create: %s", p, errno == ELOOP ?
			  "a symbolic link, not followed" : strerror(errno));
		close(pfd);
		return rc;
	}
	rc = famfs_kernel->map_create(fd, &map);
	if (rc) {
		famfs_err("%s: MAP_CREATE (%s): %s", p,
			  type == FAMFS_SUPERBLOCK ? "superblock" : "log",
			  strerror(-rc));
		famfs_mnt_unlinkat(pfd, name, 0);
	} else if (famfs_mnt_fchmod(fd, mode)) {
		famfs_warn("%s: chmod: %s", p, strerror(errno));
	}
	close(fd);
	close(pfd);
	return rc;
}

/* the mode of .meta/.log: new segments get the same */
static mode_t log_mode(struct famfs_fs *fs)
{
	struct stat st;

	if (fs->log_fd >= 0 && !fstat(fs->log_fd, &st))
		return st.st_mode & 07777;
	return fs->rw ? 0644 : 0444;
}

/* p (rel) + ".new": the grower's name of .meta/.logK until its EXTEND
 * entry is committed (famfs_logseg_publish) */
static int new_name(char *out, size_t n, const char *p)
{
	int w = snprintf(out, n, "%s.new", p);

	return w < 0 || (size_t)w >= n ? -ENAMETOOLONG : 0;
}

/* A committed EXTEND entry for segment k and no .meta/.logK (name, in
 * mfd): a grower that died after the commit left .meta/.logK.new; renamed
 * to .meta/.logK if it maps [off, +len), else removed */
static void adopt_new(int mfd, unsigned k, uint64_t off, uint64_t len,
		      const char *name, const char *p)
{
	char q[64], why[FAMFS_META_WHY_LEN];
	int fd;

	if (new_name(q, sizeof(q), name))
		return;
	fd = famfs_meta_openat(mfd, q, O_RDONLY, 0, why);
	if (fd < 0)
		return;
	if (famfs_meta_file_off(fd, len) == off && !famfs_mnt_renameat2(mfd, q, mfd, name, 0)) {
		close(fd);
		return;
	}
	close(fd);
	if (!famfs_mnt_unlinkat(mfd, q, 0))
		famfs_warn("%s.new: removed: it does not map log segment %u as its EXTEND entry says",
			   p, k);
}

/* .meta/.logK of a mount, created over [off, +len) if missing: an open fd */
static int seg_file(struct famfs_fs *fs, unsigned k, uint64_t off,
		    uint64_t len)
{
	char p[PATH_MAX], rel[32], why[FAMFS_META_WHY_LEN];
	int flags = fs->rw ? O_RDWR : O_RDONLY, fd, mfd, rc;
	const char *name;

	snprintf(rel, sizeof(rel), FAMFS_META_LOGSEG, k);
	name = seg_base(rel);
	if (famfs_join(p, sizeof(p), fs->mpt, rel))
		return -ENAMETOOLONG;
	/* (as famfs_logview_attach: a file of root's in root's .meta) */
	mfd = famfs_metadir_open(fs->mpt, why);
	if (mfd < 0) {
		famfs_err("%s: %s", p, why);
		return mfd;
	}
	fd = famfs_meta_openat(mfd, name, flags, 0, why);
	if (fd == -ENOENT) {
		adopt_new(mfd, k, off, len, name, p);
		fd = famfs_meta_openat(mfd, name, flags, 0, why);
	}
	if (fd == -ENOENT) {
		rc = famfs_meta_create(fs->mpt, rel, log_mode(fs), FAMFS_LOG,
				       off, len);
		if (rc && rc != -EEXIST) {
			close(mfd);
			return rc;
		}
		fd = famfs_meta_openat(mfd, name, flags, 0, why);
	}
	close(mfd);
	if (fd < 0) {
		famfs_err("%s: %s", p, why);
		return fd;
	}
	/* the log is never read through other memory */
	if (famfs_meta_file_off(fd, len) != off) {
		famfs_err("%s: does not map log segment %u [%llu, +%llu) as its EXTEND entry says: the log is not read through it (famfs check; remount, or remove it and run famfs logplay)",
			  p, k, (unsigned long long)off,
			  (unsigned long long)len);
		close(fd);
		return -EIO;
	}
	return fd;
}

int famfs_logseg_add(struct famfs_fs *fs, const struct famfs_log_entry *e,
		     uint64_t idx, char *reason)
{
	uint64_t k64 = le64toh(e->fm.size);
	uint64_t off = le64toh(e->fm.ext.simple[0].offset);
	uint64_t len = le64toh(e->fm.ext.simple[0].len);
	unsigned k = k64 < FAMFS_LOG_MAX_SEGS ? (unsigned)k64 : FAMFS_LOG_MAX_SEGS;
	struct famfs_logseg *s;
	int fd = -1, rc;

	if (k && k < fs->nsegs && fs->seg[k].logged) {
		s = &fs->seg[k];
		if (s->ext_idx == idx)	/* the same entry, read again */
			return 0;
		REASON("EXTEND entry at slot %llu adds log segment %u, added twice (also by the entry at slot %llu)",
		       (unsigned long long)idx, k,
		       (unsigned long long)s->ext_idx);
		return -EINVAL;
	}
	if (k && k < fs->nsegs) {	/* mapped already (.meta/.logK) */
		s = &fs->seg[k];
		if (s->len != len || s->dev_off != off) {
			char p[PATH_MAX];

			/* the file is wrong, not the entry: not read
			 * through (famfs check and fsck say so too) */
			seg_name(fs, k, p, sizeof(p));
			famfs_err("%s: maps [%llu, +%llu), but log segment %u is [%llu, +%llu) by its EXTEND entry at slot %llu: the log is not read through it (remount, or remove it and run famfs logplay)",
				  p, (unsigned long long)s->dev_off,
				  (unsigned long long)s->len, k,
				  (unsigned long long)off,
				  (unsigned long long)len,
				  (unsigned long long)idx);
			while (fs->nsegs > k) {
				fs->log_cap -= fs->seg[fs->nsegs - 1].nslots;
				seg_drop(fs, --fs->nsegs);
			}
			return -EIO;
		}
		s->logged = true;
		s->ext_idx = idx;
		return 0;
	}
	if (k != fs->nsegs) {
		REASON("EXTEND entry at slot %llu adds log segment %llu, but the next one is %u",
		       (unsigned long long)idx, (unsigned long long)k64,
		       fs->nsegs);
		return -EINVAL;
	}
	rc = seg_fits(fs, k, len, reason);
	if (rc)
		return rc;
	for (unsigned j = 0; j < k; j++) {
		s = &fs->seg[j];
		if (s->dev_off != UINT64_MAX && off < s->dev_off + s->len &&
		    s->dev_off < off + len) {
			REASON("EXTEND entry at slot %llu: log segment %u [%llu, +%llu) overlaps log segment %u",
			       (unsigned long long)idx, k,
			       (unsigned long long)off,
			       (unsigned long long)len, j);
			return -EINVAL;
		}
	}
	if (fs->dev.fd < 0) {
		if (!fs->mpt[0])
			return -ENXIO;
		fd = seg_file(fs, k, off, len);
		if (fd < 0)
			return fd == -EINVAL ? -EIO : fd;
	}
	rc = seg_map(fs, k, off, len, fd);
	if (rc)
		return rc == -EINVAL ? -EIO : rc;
	fs->seg[k].logged = true;
	fs->seg[k].ext_idx = idx;
	/* a reader (not the master instance): what it may hold of this
	 * memory is stale (the rest is dropped as the walk reads it); an
	 * instance that claimed another's record in this opening reads it as
	 * its own from now on: dropped whole */
	if (!fs->master_instance || fs->lines_forgotten)
		famfs_map_invalidate(&fs->seg[k].m, fs->seg[k].m.addr,
				     len < FAMFS_ALLOC_UNIT || fs->lines_forgotten ?
				     len : FAMFS_ALLOC_UNIT);
	return 0;
}

/* ---- cache maintenance, segment by segment ---- */
typedef int (*seg_op)(struct famfs_map *m, void *addr, size_t len);

static int each_seg(struct famfs_fs *fs, const void *addr, size_t len,
		    seg_op op)
{
	uintptr_t s = (uintptr_t)addr, e = s + len;
	int rc = 0;

	for (unsigned k = 0; k < fs->nsegs && s < e; k++) {
		struct famfs_map *m = k ? &fs->seg[k].m : &fs->logm;
		uintptr_t b = (uintptr_t)m->addr, end = b + m->len;
		uintptr_t from = s > b ? s : b, to = e < end ? e : end;

		if (!m->addr || from >= to)
			continue;
		rc = op(m, (void *)from, to - from);
		if (rc)
			return rc;
	}
	return rc;
}

static int op_flush(struct famfs_map *m, void *a, size_t n)
{
	return famfs_map_flush(m, a, n);
}

static int op_inval(struct famfs_map *m, void *a, size_t n)
{
	famfs_map_invalidate(m, a, n);
	return 0;
}

/* a memory mapping's lines dropped, a bounce buffer read again */
static void map_forget(struct famfs_map *m)
{
	if (!m->addr)
		return;
	if (m->bounce)
		famfs_map_refresh(m, m->addr, m->len);
	else
		famfs_map_invalidate(m, m->addr, m->len);
}

void famfs_fs_forget_lines(struct famfs_fs *fs)
{
	map_forget(&fs->sbm);
	for (unsigned k = 0; k < fs->nsegs; k++)
		map_forget(k ? &fs->seg[k].m : &fs->logm);
	fs->lines_forgotten = true;
	/* what was seen past next_index was seen through those lines */
	fs->tail_checked = false;
	fs->own_next = 0;
}

int famfs_log_flush(struct famfs_fs *fs, const void *addr, size_t len)
{
	return each_seg(fs, addr, len, op_flush);
}

void famfs_log_invalidate(struct famfs_fs *fs, const void *addr, size_t len)
{
	each_seg(fs, addr, len, op_inval);
}

static int op_load(struct famfs_map *m, void *a, size_t n)
{
	return famfs_map_load(m, a, n);
}

int famfs_log_load(struct famfs_fs *fs, const void *addr, size_t len)
{
	return each_seg(fs, addr, len, op_load);
}

int famfs_log_refresh(struct famfs_fs *fs, void *addr, size_t len)
{
	return each_seg(fs, addr, len, famfs_map_refresh);
}

/* (the rest of growth, the master's side, is in loggrow.c) */
int famfs_logseg_map_new(struct famfs_fs *fs, unsigned k, uint64_t off,
			 uint64_t len, char *reason)
{
	char p[PATH_MAX], rel[32], why[FAMFS_META_WHY_LEN];
	int fd = -1, mfd = -1, rc;

	rc = seg_fits(fs, k, len, reason);
	if (rc)
		return rc;
	if (fs->mpt[0]) {
		/* names in .meta opened beneath the root (metadir.h), never
		 * removed or made where a link in its place leads */
		mfd = famfs_metadir_open(fs->mpt, why);
		if (mfd < 0) {
			famfs_err("%s/%s: %s: the log cannot grow here",
				  fs->mpt, FAMFS_META_DIR, why);
			return mfd;
		}
		/* under the log lock, with segments 0..k-1 logged: a
		 * .meta/.logK is a grower's that died before its EXTEND
		 * entry was written; its memory is free in the log */
		snprintf(rel, sizeof(rel), FAMFS_META_LOGSEG, k);
		if (seg_name(fs, k, p, sizeof(p))) {
			close(mfd);
			return -ENAMETOOLONG;
		}
		if (famfs_mnt_unlinkat(mfd, seg_base(rel), 0) == 0)
			famfs_warn("%s: removed: a log growth that did not finish", p);
		/* .meta/.logK.new until the EXTEND entry is committed: a
		 * later opening of the mount never takes it for a segment */
		strcat(rel, ".new");
		strcat(p, ".new");
		if (famfs_mnt_unlinkat(mfd, seg_base(rel), 0) == 0)
			famfs_warn("%s: removed: a log growth that did not finish", p);
		rc = famfs_meta_create(fs->mpt, rel, log_mode(fs), FAMFS_LOG,
				       off, len);
		if (rc) {
			close(mfd);
			return rc;
		}
		if (fs->dev.fd < 0) {
			fd = famfs_meta_openat(mfd, seg_base(rel), O_RDWR, 0, why);
			if (fd < 0) {
				famfs_err("%s: %s", p, why);
				famfs_mnt_unlinkat(mfd, seg_base(rel), 0);
				close(mfd);
				return fd;
			}
		}
	}
	rc = seg_map(fs, k, off, len, fd);
	if (rc && mfd >= 0)
		famfs_mnt_unlinkat(mfd, seg_base(rel), 0);
	if (mfd >= 0)
		close(mfd);
	return rc;
}

void famfs_logseg_unmap_new(struct famfs_fs *fs, unsigned k)
{
	char rel[32], q[40], why[FAMFS_META_WHY_LEN];
	int mfd;

	if (k != fs->nsegs - 1 || !k)
		return;
	fs->log_cap -= fs->seg[k].nslots;
	seg_drop(fs, k);
	fs->nsegs = k;
	if (!fs->mpt[0])
		return;
	snprintf(rel, sizeof(rel), FAMFS_META_LOGSEG, k);
	mfd = famfs_metadir_open(fs->mpt, why);
	if (mfd >= 0 && !new_name(q, sizeof(q), seg_base(rel)))
		famfs_mnt_unlinkat(mfd, q, 0);
	if (mfd >= 0)
		close(mfd);
}

int famfs_logseg_publish(struct famfs_fs *fs, unsigned k)
{
	char p[PATH_MAX], q[PATH_MAX], rel[32], qn[40], why[FAMFS_META_WHY_LEN];
	struct stat st;
	int mfd, rc;

	if (!fs->mpt[0])
		return 0;
	snprintf(rel, sizeof(rel), FAMFS_META_LOGSEG, k);
	if (seg_name(fs, k, p, sizeof(p)) || new_name(q, sizeof(q), p) ||
	    new_name(qn, sizeof(qn), seg_base(rel)))
		return -ENAMETOOLONG;
	/* renamed in .meta opened beneath the root (metadir.h) */
	mfd = famfs_metadir_open(fs->mpt, why);
	if (mfd < 0) {
		famfs_warn("%s: cannot rename to %s: %s (the next replay does)",
			   q, p, why);
		return mfd;
	}
	rc = famfs_mnt_renameat2(mfd, qn, mfd, seg_base(rel), 0) ? -errno : 0;
	/* a reader without the lock met the entry first and renamed it */
	if (rc == -ENOENT &&
	    !fstatat(mfd, seg_base(rel), &st, AT_SYMLINK_NOFOLLOW))
		rc = 0;
	close(mfd);
	if (rc)
		famfs_warn("%s: cannot rename to %s: %s (the next replay does)",
			   q, p, strerror(-rc));
	return rc;
}

/* famfs check and fsck on a mount: .meta/.log1.. against the EXTEND
 * entries (ext[k], k = 1..n-1: segment k by the log) */
static unsigned say_file(void (*fn)(void *, const char *), void *arg,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static unsigned say_file(void (*fn)(void *, const char *), void *arg,
			 const char *fmt, ...)
{
	char msg[PATH_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(arg, msg);
	return 1;
}

unsigned famfs_logseg_check_files(struct famfs_fs *fs,
				  const struct famfs_extent *ext, unsigned n,
				  void (*fn)(void *arg, const char *msg),
				  void *arg)
{
	char p[PATH_MAX], q[PATH_MAX];
	unsigned bad = 0;

	if (!fs->mpt[0] || fs->dev.fd >= 0)	/* a mount's files only */
		return 0;
	for (unsigned k = 1; k < FAMFS_LOG_MAX_SEGS; k++) {
		uint64_t len = k < n ? ext[k].len : 0, off;
		struct stat st;
		int fd;

		if (seg_name(fs, k, p, sizeof(p)) || new_name(q, sizeof(q), p))
			break;
		if (!lstat(q, &st))
			bad += say_file(fn, arg, "%s: left by a log growth that did not finish (or a file in its place): the next famfs loggrow on the master removes it; its memory is free in the log",
					q);
		fd = open(p, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 && k >= n) {
			if (errno == ENOENT)
				continue;
		}
		if (fd < 0) {
			bad += say_file(fn, arg, "%s: missing or unreadable (%s): log segment %u [%llu, +%llu) has no meta file here",
					p, strerror(errno), k,
					(unsigned long long)ext[k].offset,
					(unsigned long long)len);
			continue;
		}
		if (k >= n) {
			bad += say_file(fn, arg, "%s: not in the log (it adds %u log segments): a meta file of no segment",
					p, n ? n - 1 : 0);
			close(fd);
			continue;
		}
		off = fstat(fd, &st) || (uint64_t)st.st_size != len ?
		      UINT64_MAX : famfs_meta_file_off(fd, len);
		close(fd);
		if (off == UINT64_MAX)
			bad += say_file(fn, arg, "%s: not one extent of %llu bytes, but log segment %u is [%llu, +%llu) by its EXTEND entry",
					p, (unsigned long long)len, k,
					(unsigned long long)ext[k].offset,
					(unsigned long long)len);
		else if (off != ext[k].offset)
			bad += say_file(fn, arg, "%s: maps [%llu, +%llu), but log segment %u is [%llu, +%llu) by its EXTEND entry",
					p, (unsigned long long)off,
					(unsigned long long)len, k,
					(unsigned long long)ext[k].offset,
					(unsigned long long)len);
	}
	return bad;
}
