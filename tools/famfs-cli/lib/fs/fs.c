// SPDX-License-Identifier: GPL-2.0
/* Open a famfs file system: superblock + log, from a device or a mount. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs/fs.h"

static void fs_init(struct famfs_fs *fs)
{
	memset(fs, 0, sizeof(*fs));
	fs->dev.fd = fs->sb_fd = fs->log_fd = fs->lock_fd = -1;
	for (unsigned k = 0; k < FAMFS_LOG_MAX_SEGS; k++)
		fs->seg[k].fd = -1;
	fs->cache_unparsed = fs->cache_past = UINT64_MAX;
}

bool famfs_fs_multidev(const struct famfs_fs *fs)
{
	return le32toh(fs->sb->feature_incompat) &
	       FAMFS_FEATURE_INCOMPAT_MULTIDEV;
}

static void set_role(struct famfs_fs *fs)
{
	int q = famfs_quiet;

	famfs_quiet = 1;	/* reported by famfs_fs_writable when it matters */
	fs->host_id_ok = famfs_host_id(fs->host_uuid) == 0;
	fs->master = fs->host_id_ok &&
		     !memcmp(fs->host_uuid, fs->sb->master_uuid, 16);
	famfs_quiet = q;
}

/*
 * What an opening mapped and built (the log's length and format, the
 * device's size and data start in fs->devs, the file system whose log it
 * is) came from the superblock it verified: a superblock read again is
 * taken only as a change of its features or master.  Another (another
 * host's mkfs, with a good CRC) would have the log read past its mapping
 * or in the other format.  0, or -ESTALE (reason filled).
 */
static int sb_same_fs(const struct famfs_superblock *kept,
		      const struct famfs_superblock *c, char *reason)
{
	uint32_t fixed = FAMFS_FEATURE_INCOMPAT_COMPACT_LOG;

	if (kept->magic == c->magic && kept->version == c->version &&
	    kept->alloc_unit_shift == c->alloc_unit_shift &&
	    !memcmp(kept->fs_uuid, c->fs_uuid, 16) &&
	    kept->device_size == c->device_size &&
	    kept->log_offset == c->log_offset && kept->log_len == c->log_len &&
	    kept->ctime == c->ctime &&
	    !((kept->feature_incompat ^ c->feature_incompat) & htole32(fixed)))
		return 0;
	if (reason)
		snprintf(reason, FAMFS_REASON_LEN,
			 "superblock read again is of another file system (its uuid, size, log length or log format differ from the one opened: made again?)");
	return -ESTALE;
}

/*
 * The superblock and the log header were written (and flushed) by another
 * host, maybe while this CPU held lines of them: drop those first.  A bad
 * CRC may still be a stale line that came back (or a bounce buffer read
 * while the writer was at it): refresh and check once more before judging.
 * The superblock is copied out of the media, then checked: what verified is
 * what is used (another host's writes reach a mapping at any time).  again:
 * a re-read (sb_same_fs).
 */
static int sb_copy_check(struct famfs_fs *fs, uint64_t dev_size, bool again,
			 char *reason)
{
	struct famfs_superblock *media = fs->sbm.addr;
	struct famfs_superblock c = *media;
	int rc = famfs_sb_check(&c, dev_size, reason);

	/* torn (read while the master wrote it) or a stale line: once more */
	if (rc == -EBADMSG && !famfs_map_refresh(&fs->sbm, media, sizeof(c))) {
		famfs_flush_stats.crc_retries++;
		c = *media;
		rc = famfs_sb_check(&c, dev_size, reason);
	}
	if (!rc && again)
		rc = sb_same_fs(&fs->sb_kept, &c, reason);
	if (!rc)
		fs->sb_kept = c;
	fs->sb = &fs->sb_kept;
	return rc;
}

static int check_sb(struct famfs_fs *fs, uint64_t dev_size)
{
	char reason[FAMFS_REASON_LEN];

	famfs_map_invalidate(&fs->sbm, fs->sbm.addr, sizeof(*fs->sb));
	if (sb_copy_check(fs, dev_size, false, reason)) {
		famfs_err("%s: %s", fs->name, reason);
		return -EBADMSG;
	}
	return 0;
}

static int check_log(struct famfs_fs *fs)
{
	char reason[FAMFS_REASON_LEN];
	int rc;

	famfs_map_invalidate(&fs->logm, fs->log, sizeof(*fs->log));
	rc = famfs_log_hdr_check(fs->log, fs->sb, reason);
	if (rc == -EBADMSG &&
	    !famfs_map_refresh(&fs->logm, fs->log, sizeof(*fs->log))) {
		famfs_flush_stats.crc_retries++;
		rc = famfs_log_hdr_check(fs->log, fs->sb, reason);
	}
	if (rc) {
		famfs_err("%s: %s", fs->name, reason);
		return -EBADMSG;
	}
	famfs_logdevs_init(&fs->devs, fs->sb);
	return 0;
}

/* head: the superblock and the log's header only (famfs_fs_open_dev_head);
 * one O_DIRECT block holds each */
#define HEAD_LEN 4096
_Static_assert(FAMFS_SB_SIZE <= HEAD_LEN && FAMFS_LOG_HDR_SIZE <= HEAD_LEN,
	       "a head read holds the superblock and the log header");

static int open_dev(const char *path, bool want_rw, bool head,
		    struct famfs_fs *fs)
{
	uint64_t llen;
	int rc;

	fs_init(fs);
	fs->name = path;
	rc = famfs_dev_open(path, want_rw, &fs->dev);
	if (rc)
		return rc;
	if (fs->dev.size < FAMFS_SB_REGION_LEN) {
		famfs_err("%s: device too small to hold famfs (%llu bytes)", path,
			  (unsigned long long)fs->dev.size);
		rc = -EBADMSG;
		goto fail;
	}
	rc = famfs_dev_map(&fs->dev, 0, head && famfs_dev_bounced(&fs->dev) ?
			   HEAD_LEN : FAMFS_SB_REGION_LEN, &fs->sbm);
	if (rc)
		goto fail;
	rc = check_sb(fs, fs->dev.size);
	if (rc)
		goto fail;
	rc = famfs_logview_init(fs);
	if (rc)
		goto fail;
	llen = le64toh(fs->sb->log_len);
	/* (a block device's map is a copy, read whole, so a head opening
	 * reads one block of each; a mapping costs nothing until touched,
	 * and device-dax maps whole 2 MiB only) */
	if (head && famfs_dev_bounced(&fs->dev) && llen > HEAD_LEN)
		llen = HEAD_LEN;
	rc = famfs_dev_map_at(&fs->dev, le64toh(fs->sb->log_offset), llen,
			      fs->view, &fs->logm);
	if (rc)
		goto fail;
	fs->log = fs->logm.addr;
	rc = check_log(fs);
	if (rc)
		goto fail;
	fs->lock_fd = fs->dev.fd;
	fs->rw = want_rw;
	set_role(fs);
	/* (the role is judged by famfs_fs_open_dev, master.c; a head
	 * opening reads nothing past the superblock: not the record; it
	 * replays nothing either) */
	return 0;
fail:
	famfs_fs_close(fs);
	return rc;
}

int famfs_fs_map_dev(const char *path, bool want_rw, struct famfs_fs *fs)
{
	return open_dev(path, want_rw, false, fs);
}

int famfs_fs_open_dev_head(const char *path, struct famfs_fs *fs)
{
	return open_dev(path, false, true, fs);
}

static int open_meta(struct famfs_fs *fs, const char *rel, int flags)
{
	char p[PATH_MAX], why[FAMFS_META_WHY_LEN];
	int fd;

	if (famfs_join(p, sizeof(p), fs->mpt, rel))
		return -ENAMETOOLONG;
	/* beneath the mount root: not mapped where a link there leads; and
	 * from a .meta only root can put a name in (metadir.h) */
	fd = famfs_meta_open(fs->mpt, rel, flags, why);
	if (fd < 0)
		famfs_err("%s: %s", p, why);
	return fd;
}

int famfs_fs_map_mount(const char *mpt, bool want_rw, struct famfs_fs *fs)
{
	char reason[FAMFS_REASON_LEN] = "";
	struct stat st;
	char *r;
	int rc;

	fs_init(fs);
	r = realpath(mpt, fs->mpt);
	if (!r) {
		rc = -errno;
		famfs_err("%s: %s", mpt, strerror(errno));
		return rc;
	}
	fs->name = fs->mpt;
	/* meta files elsewhere (a copy) are not a file system to write to */
	rc = famfs_mount_root_check(fs->mpt, reason);
	if (rc) {
		famfs_err("%s", reason);
		goto fail;
	}
	rc = fs->sb_fd = open_meta(fs, FAMFS_META_SB, O_RDONLY);
	if (rc < 0)
		goto fail;
	rc = famfs_fd_map(fs->sb_fd, FAMFS_META_SB, FAMFS_SB_REGION_LEN, false,
			  &fs->sbm);
	if (rc)
		goto fail;
	rc = check_sb(fs, 0);
	if (rc)
		goto fail;
	set_role(fs);
	rc = fs->log_fd = open_meta(fs, FAMFS_META_LOG, O_RDONLY);
	if (rc < 0)
		goto fail;
	if (fstat(fs->log_fd, &st)) {
		rc = -errno;
		goto fail;
	}
	/* a client or a read-only mount (-r) has a log without write bits */
	fs->ro_mount = !(st.st_mode & 0222);
	if (want_rw && fs->master && !fs->ro_mount) {
		close(fs->log_fd);
		rc = fs->log_fd = open_meta(fs, FAMFS_META_LOG, O_RDWR);
		if (rc < 0)
			goto fail;
		fs->rw = true;
	}
	if ((uint64_t)st.st_size < le64toh(fs->sb->log_len)) {
		famfs_err("%s/%s: %llu bytes, smaller than the log (%llu bytes)",
			  fs->mpt, FAMFS_META_LOG, (unsigned long long)st.st_size,
			  (unsigned long long)le64toh(fs->sb->log_len));
		rc = -EBADMSG;
		goto fail;
	}
	rc = famfs_logview_init(fs);
	if (rc)
		goto fail;
	rc = famfs_fd_map_at(fs->log_fd, FAMFS_META_LOG, le64toh(fs->sb->log_len),
			     fs->rw, fs->view, &fs->logm);
	if (rc)
		goto fail;
	fs->log = fs->logm.addr;
	rc = check_log(fs);
	if (rc)
		goto fail;
	/* the segments this mount has met (.meta/.log1..) */
	rc = famfs_logview_attach(fs);
	if (rc)
		goto fail;
	fs->lock_fd = fs->log_fd;
	return 0;
fail:
	famfs_fs_close(fs);
	return rc;
}

static void root_close(struct famfs_fs *fs)
{
	if (fs->root_open)
		close(fs->root_fd);
	fs->root_open = false;
}

void famfs_fs_close(struct famfs_fs *fs)
{
	/* the create cache, if this opening has one: its owner (cache.c)
	 * registered how it is written out and freed */
	if (fs->cache_flush)
		fs->cache_flush(fs);
	if (fs->cache_drop)
		fs->cache_drop(fs);
	famfs_map_unmap(&fs->logm);
	famfs_logview_fini(fs);
	famfs_map_unmap(&fs->sbm);
	if (fs->sb_fd >= 0)
		close(fs->sb_fd);
	if (fs->log_fd >= 0)
		close(fs->log_fd);
	famfs_dev_close(&fs->dev);
	root_close(fs);
	fs->sb_fd = fs->log_fd = fs->lock_fd = -1;
	fs->locked = fs->held = false;
	fs->sb = NULL;
	fs->log = NULL;
}

int famfs_fs_writable(struct famfs_fs *fs)
{
	char host[37], master[37];
	uint32_t ro = le32toh(fs->sb->feature_ro_compat) &
		      ~FAMFS_FEATURE_RO_COMPAT_SUPP;

	famfs_uuid_str(fs->host_uuid, host);
	famfs_uuid_str(fs->sb->master_uuid, master);
	if (ro) {
		famfs_err("%s: read-only: unknown read-only-compatible features 0x%x",
			  fs->name, ro);
		return -EROFS;
	}
	if (!fs->host_id_ok) {
		famfs_host_id(fs->host_uuid);	/* prints why */
		famfs_err("%s: this host's id is unknown, so it cannot be the master (uuid %s)",
			  fs->name, master);
		return -EPERM;
	}
	if (!fs->master) {
		famfs_err("%s: this host (uuid %s) is a client; only the master (uuid %s) can create files",
			  fs->name, host, master);
		return -EPERM;
	}
	if (!fs->rw) {
		famfs_err("%s: the log is read-only here%s", fs->name,
			  fs->ro_mount ? " (mounted with famfs mount -r)" : "");
		return -EROFS;
	}
	return 0;
}

int famfs_fs_lock(struct famfs_fs *fs)
{
	if (fs->held)
		return 0;
	while (flock(fs->lock_fd, LOCK_EX)) {
		if (errno == EINTR)
			continue;
		famfs_err("%s: cannot lock the log: %s", fs->name, strerror(errno));
		return -errno;
	}
	fs->locked = true;
	return 0;
}

int famfs_fs_lock_shared(struct famfs_fs *fs)
{
	if (fs->held)	/* exclusive already: never downgraded */
		return 0;
	while (flock(fs->lock_fd, LOCK_SH)) {
		if (errno == EINTR)
			continue;
		famfs_err("%s: cannot lock the log (shared): %s", fs->name,
			  strerror(errno));
		return -errno;
	}
	return 0;
}

void famfs_fs_unlock(struct famfs_fs *fs)
{
	if (fs->held)
		return;
	flock(fs->lock_fd, LOCK_UN);
	fs->locked = false;
	fs->scratch_swept = false;
	fs->own_next = 0;	/* another creator may append now */
}

/* What is rewritten must verify: re-CRCing a damaged superblock would make
 * its damage good for every host.  0, or -EBADMSG (printed, w put). */
static int sb_writable(struct famfs_fs *fs, struct famfs_sbw *w,
		       const char *why)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_superblock c = *(struct famfs_superblock *)w->base;
	int rc = famfs_sb_check(&c, 0, reason);

	if (rc) {
		famfs_err("%s: the superblock on the media does not verify (%s): not rewritten (to %s); see famfs fsck",
			  fs->name, reason, why);
		famfs_fs_sb_put(w);
		return -EBADMSG;
	}
	/* one that verifies but is not the one this opening was built from
	 * (another host's mkfs) gets no bit of this one, nor a fresh CRC */
	rc = sb_same_fs(&fs->sb_kept, &c, reason);
	if (rc) {
		famfs_err("%s: not rewritten (to %s): %s", fs->name, why, reason);
		famfs_fs_sb_put(w);
	}
	return rc;
}

int famfs_fs_sb_get(struct famfs_fs *fs, struct famfs_sbw *w, const char *why)
{
	char p[PATH_MAX], mwhy[FAMFS_META_WHY_LEN];
	int rc;

	memset(w, 0, sizeof(*w));
	w->fd = -1;
	if (fs->sb_fd < 0) {
		if (!fs->sbm.rw) {
			famfs_err("%s: opened read-only: cannot %s", fs->name, why);
			return -EROFS;
		}
		w->map = &fs->sbm;
		w->base = fs->sbm.addr;
		return sb_writable(fs, w, why);
	}
	/* mounted: .meta/.superblock is read-only for everyone but the
	 * master's root, and mapped read-only in fs->sbm */
	if (famfs_join(p, sizeof(p), fs->mpt, FAMFS_META_SB))
		return -ENAMETOOLONG;
	w->fd = famfs_meta_open(fs->mpt, FAMFS_META_SB, O_RDWR, mwhy);
	if (w->fd < 0) {
		rc = w->fd;
		w->fd = -1;
		famfs_err("%s: cannot open for writing (to %s): %s", p, why,
			  mwhy);
		return rc;
	}
	rc = famfs_fd_map(w->fd, FAMFS_META_SB, FAMFS_SB_REGION_LEN, true, &w->m);
	if (rc) {
		close(w->fd);
		w->fd = -1;
		return rc;
	}
	w->map = &w->m;
	w->base = w->m.addr;
	return sb_writable(fs, w, why);
}

void famfs_fs_sb_put(struct famfs_sbw *w)
{
	if (w->fd >= 0) {
		famfs_map_unmap(&w->m);
		close(w->fd);
	}
	w->fd = -1;
	w->map = NULL;
	w->base = NULL;
}

int famfs_fs_sb_reread(struct famfs_fs *fs, char *reason)
{
	int rc = famfs_map_refresh(&fs->sbm, fs->sbm.addr, sizeof(*fs->sb));

	if (rc) {
		if (reason)
			snprintf(reason, FAMFS_REASON_LEN,
				 "superblock cannot be read again: %s",
				 strerror(-rc));
		fs->sb = &fs->sb_kept;
	} else {
		rc = sb_copy_check(fs, 0, true, reason);
	}
	fs->sb_reread_bad = rc != 0;
	fs->sb_other = rc == -ESTALE;
	return rc;
}

int famfs_fs_root(struct famfs_fs *fs)
{
	int fd;

	if (fs->root_open)
		return fs->root_fd;
	if (!fs->mpt[0])
		return -ENOENT;
	fd = open(fs->mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	fs->root_fd = fd;
	fs->root_open = true;
	return fd;
}

int famfs_fs_hold(struct famfs_fs *fs)
{
	int rc;

	if (fs->held)
		return 0;
	rc = famfs_fs_lock(fs);
	if (!rc)
		fs->held = true;
	return rc;
}

void famfs_fs_release(struct famfs_fs *fs)
{
	if (!fs->held)
		return;
	root_close(fs);
	fs->held = false;
	famfs_fs_unlock(fs);
}
