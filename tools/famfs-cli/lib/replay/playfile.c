// SPDX-License-Identifier: GPL-2.0
/*
 * logplay's files (logplay.c): a FILE entry played -- a new file made
 * (O_EXCL), given its owner and mode, then its memory (MAP_CREATE); one
 * already there counted if it has the logged map, else a conflict and
 * never adopted -- and the file or directory of any FILE or MKDIR entry
 * made or found where the entry (or fullplay.c) says.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"

/* the file at fd gets e's owner and mode (a client's without write bits),
 * if it has others */
static void fix_attrs(struct lp_ctx *c, int fd, const char *p,
		      const struct famfs_log_entry *e)
{
	uint32_t mode = famfs_lp_file_mode(c, le32toh(e->fm.mode) & 07777);
	uid_t uid = le32toh(e->fm.uid);
	gid_t gid = le32toh(e->fm.gid);
	struct stat st;
	bool did = false;

	if (fstat(fd, &st))
		return;
	if (st.st_uid != uid || st.st_gid != gid) {
		if (famfs_mnt_fchown(fd, uid, gid) && !geteuid())
			famfs_warn("%s: chown: %s", p, strerror(errno));
		did = true;
	}
	if ((st.st_mode & 07777) != mode || did) {
		if (famfs_mnt_fchmod(fd, mode))
			famfs_warn("%s: chmod: %s", p, strerror(errno));
		did = true;
	}
	if (did)
		c->r->changed++;
}

/*
 * The file of FILE entry other (its identity) at name in pfd, with the map
 * of entry idx (on the same memory): a file the log deleted (its DELETE
 * could not be played here: not at its logged path then) is removed here
 * by famfs.ko, which compares its identity under the directory's lock --
 * never another file made there meanwhile: 1 removed (entry idx's file is
 * made anew); 0 not (a conflict, said)
 */
static int remove_deleted_other(struct lp_ctx *c, const char *p,
				const char *rel, int *pfd, const char **name,
				uint64_t idx, uint64_t other)
{
	struct famfs_log_entry oe;
	struct famfs_names_obj o;
	int rc;

	/* (its directory: kept by lp_ctx, not closed here) */
	if (*pfd < 0 && !c->dry)
		*pfd = famfs_lp_parent_fd_quiet(c, rel, strlen(rel), name);
	if (other >= idx || famfs_names_get(c->names, other, &o, NULL) != 1 ||
	    o.kind != FAMFS_LOG_FILE || o.live ||
	    famfs_log_entry_at(c->fs, other, &oe) ||
	    le16toh(oe.type) != FAMFS_LOG_FILE || (*pfd < 0 && !c->dry)) {
		CONFLICT(c, "%s: the file here is that of log entry %llu (its identity), not of log entry %llu, though on the same memory",
			 p, (unsigned long long)other, (unsigned long long)idx);
		return 0;
	}
	if (c->dry) {
		printf("would remove %s (the file of deleted log entry %llu)\n",
		       p, (unsigned long long)other);
		c->r->removed++;
		return 0;
	}
	rc = famfs_entry_unlink(*pfd, *name, &oe, other);
	if (rc == 1) {
		famfs_lp_ds_off(c);
		c->r->removed++;
		return 1;
	}
	CONFLICT(c, "%s: the file here is that of log entry %llu, deleted by the log (entry %llu), but it cannot be removed here: %s",
		 p, (unsigned long long)other, (unsigned long long)o.gone,
		 rc ? strerror(-rc) : "replaced meanwhile");
	return 0;
}

/* an existing regular file rel: counted if it has the logged map (1: the
 * file of a deleted entry was there and is removed: made anew) */
static int file_there(struct lp_ctx *c, const char *p, const char *rel,
		      int *pfd, const char **name, uint64_t idx,
		      const struct famfs_fmap *want,
		      const struct famfs_log_entry *e)
{
	int fd = dirset_open_beneath(c->rootfd, rel, strlen(rel),
				     O_RDONLY | O_CLOEXEC);
	uint64_t other = 0;
	int rc;

	if (fd < 0) {
		c->r->errors++;
		famfs_err("%s: %s", p, dirset_beneath_why(fd));
		return 0;
	}
	rc = famfs_lp_check_map_other(c, fd, p, idx, want, &other);
	/* fullplay.c: a SETATTR changed them since it was made */
	if (rc > 0 && c->fix_attrs && !c->dry)
		fix_attrs(c, fd, p, e);
	close(fd);
	if (rc > 0)
		c->r->present++;
	else if (rc == 0)
		CONFLICT(c, "%s: a file without a famfs map is already there (log entry %llu); not given the memory, since whoever made it may hold it open: remove it and run famfs logplay again",
			 p, (unsigned long long)idx);
	else if (rc == -2)
		return remove_deleted_other(c, p, rel, pfd, name, idx, other);
	return 0;
}

/*
 * Memory a RECLAIM freed may be a new file's, and this host may have read
 * the deleted file through its CPU caches: on a non-coherent mount none of
 * those lines may serve the new file.  Only memory a DELETE earlier in the
 * log owned can have been reclaimed, so the replay notes the memory of
 * each file a DELETE removes (lp_ctx.gone, units) as it reads the log in
 * order (fullplay.c's first pass: the whole log, before any file is made;
 * a live file cannot share memory with a file deleted after it was made),
 * and drops this host's lines of a new file's memory only when one of its
 * extents meets it: a first mount of a large file system drops nothing but
 * what was reused.  (Review r38; what is left: docs/lifecycle.md.)
 */
/* a DELETE whose file's memory is not known: fail closed -- every file
 * this replay makes from now on gets its lines dropped; counted, said
 * once (gone_all is not set again) */
void famfs_lp_gone_unknown(struct lp_ctx *c, const char *what)
{
	c->gone_unknown++;
	if (c->gone_all)
		return;
	c->gone_all = true;
	famfs_warn("%s: the memory it freed is not known, so every file this replay makes gets this host's cache lines of its memory dropped",
		   what);
}

void famfs_lp_gone(struct lp_ctx *c, const struct famfs_log_entry *e)
{
	struct famfs_log_entry f;
	struct famfs_ns ns;
	char what[80];

	if (famfs_ns_get(e, &ns)) {
		famfs_lp_gone_unknown(c, "a DELETE that cannot be read");
		return;
	}
	if (ns.kind != FAMFS_LOG_FILE)
		return;
	if (famfs_log_entry_at(c->fs, ns.object, &f) ||
	    le16toh(f.type) != FAMFS_LOG_FILE) {
		snprintf(what, sizeof(what),
			 "a DELETE of file %llu, whose FILE entry cannot be read",
			 (unsigned long long)ns.object);
		famfs_lp_gone_unknown(c, what);
		return;
	}
	if (c->gone_all)
		return;
	if (!c->gone) {
		c->gone = calloc(1, sizeof(*c->gone));
		if (!c->gone || famfs_alloc_init(c->gone, c->fs->sb)) {
			free(c->gone);
			c->gone = NULL;
			c->gone_all = true;	/* every file dropped */
			return;
		}
	}
	/* (the devices the DEVADDs before it added) */
	if (famfs_alloc_sync(c->gone, &c->fs->devs)) {
		c->gone_all = true;
		return;
	}
	famfs_alloc_mark_units(c->gone, &f);
}

void famfs_lp_gone_free(struct lp_ctx *c)
{
	if (c->gone)
		famfs_alloc_free(c->gone);
	free(c->gone);
	c->gone = NULL;
}

/* does e's memory meet a deleted file's (may it be reclaimed memory)? */
static bool on_gone_memory(const struct lp_ctx *c,
			   const struct famfs_log_entry *e)
{
	return c->gone_all || (c->gone && famfs_alloc_meets(c->gone, e));
}

/* the new file at fd gets its memory; on memory a deleted file had,
 * with this host's cache lines of it dropped before the map is published
 * (FAMFS_IOC_MAP_INVALIDATE; a no-op in famfs.ko on a coherent mount), or
 * right after it by a famfs.ko without the flag */
static int map_new_file(struct lp_ctx *c, int fd, const char *p,
			const struct famfs_fmap *want,
			const struct famfs_log_entry *e)
{
	int rc, crc;

	if (!on_gone_memory(c, e))
		return famfs_fmap_create(fd, want);
	rc = famfs_fmap_create_fresh(fd, want, &crc);
	/* -ENOTTY: this famfs.ko can drop nothing, which
	 * famfs_fmap_create_fresh said once (famfs_flush_stats.file_stale
	 * counts the files) */
	if (!rc && crc && crc != -ENOTTY)
		famfs_warn("%s: cannot drop this host's cache lines of its memory: %s (famfs flush -i before reading it through a mapping)",
			   p, strerror(-crc));
	return rc;
}

/* a member m uses that famfs.ko has as another device than the log's
 * (-ESTALE) or reports failed (-EIO) (famfs_fs_member_here: said once):
 * its index and *rc, else 0 */
static unsigned wrong_member(struct lp_ctx *c, const struct famfs_fmap *m,
			     int *rc)
{
	uint32_t asked = 1;

	for (unsigned i = 0; i < FAMFS_IOC_MAX_EXTENTS_V2; i++) {
		unsigned d = m->dev[i];

		if (d >= FAMFS_MAX_DEVS || (asked >> d & 1))
			continue;
		asked |= 1U << d;
		*rc = famfs_fs_member_here(c->fs, d);
		if (*rc == -ESTALE || *rc == -EIO)
			return d;
	}
	return 0;
}

/*
 * The file of a FILE entry.  A file already there is left alone: counted
 * if it has the logged map, else a conflict -- also when it has no map at
 * all: whoever made it may hold it open and would reach the memory once it
 * is mapped, so it is never adopted.  A new file is created here (O_EXCL),
 * gets its owner and mode, and only then its memory.
 */
static int play_file(struct lp_ctx *c, const char *p, const char *rel,
		     int pfd, const char *name, uint64_t idx,
		     const struct famfs_log_entry *e)
{
	struct famfs_fmap want;
	uint32_t mode = famfs_lp_file_mode(c, le32toh(e->fm.mode));
	const char *ioc, *why;
	bool psgid, own, mod, replaced = false;
	struct stat st;
	unsigned wrong;
	int fd, rc, t;

	famfs_fmap_from_entry(e, &want);
	/* the file of entry idx: a DELETE of another file on the same
	 * memory at the same path leaves it (FAMFS_IOC_MAP_IDENT) */
	want.has_ident = true;
	want.ident = idx;
	why = famfs_fmap_needs_v2(&want);
	ioc = want.pages ? "MAP_CREATE_V3 (page extents)" :
	      famfs_fmap_multidev(&want) ? "MAP_CREATE_V3" :
	      why ? "MAP_CREATE_V2" : "MAP_CREATE";
	t = famfs_lp_known_type(c, rel, strlen(rel), &psgid);
again:
	if (t < 0 && pfd >= 0 && fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		t = S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : T_OTHER;
	else if (t < 0 && pfd >= 0 && errno != ENOENT) {
		c->r->errors++;
		famfs_err("%s: %s", p, strerror(errno));
		return 0;
	}
	if (t == DT_REG && !replaced) {
		if (file_there(c, p, rel, &pfd, &name, idx, &want, e) != 1)
			return 0;
		replaced = true;	/* a deleted file's, removed: made anew */
		t = -1;
		goto again;
	}
	if (t == DT_REG) {	/* another file made there meanwhile */
		CONFLICT(c, "%s: a file was made here meanwhile (log entry %llu); left alone",
			 p, (unsigned long long)idx);
		return 0;
	}
	if (t > 0) {
		CONFLICT(c, "%s: log entry %llu is a file, but a %s is there",
			 p, (unsigned long long)idx,
			 t == DT_DIR ? "directory" : "non-file");
		return 0;
	}
	/* its memory would be another device's than every other host's */
	wrong = wrong_member(c, &want, &rc);
	if (wrong && rc == -EIO) {
		c->r->errors++;
		if (!c->failed_files++)
			c->failed_first = idx;
		c->failed_members |= 1U << wrong;
		return 0;	/* said by round_end */
	}
	if (wrong) {
		c->r->errors++;
		if (!c->wrong_files++)
			c->wrong_first = idx;
		c->wrong_members |= 1U << wrong;
		return 0;	/* said by round_end */
	}
	if (c->dry) {
		printf("would create file %s (%llu bytes)\n", p,
		       (unsigned long long)want.file_size);
		c->r->created_files++;
		return 0;
	}
	/* (t < 0 here: lstat found nothing, so the parent's S_ISGID is not
	 * known: chown and chmod as always) */
	own = t == 0 && famfs_lp_owner_right(c, e, psgid);
	mod = own && famfs_lp_mode_right(c, mode, psgid);
	/* O_EXCL: the file is this run's, and what is unlinked below */
	fd = famfs_mnt_creat(pfd, name, mod ? mode : 0600);
	if (fd < 0 && errno == EEXIST && t == 0) {
		t = -1;		/* made meanwhile: look at it */
		goto again;
	}
	if (fd < 0) {
		c->r->errors++;
		famfs_err("%s: cannot create: %s", p, strerror(errno));
		return 0;
	}
	/* owner and mode before the memory: no moment with the wrong ones */
	if (!own && famfs_mnt_fchown(fd, le32toh(e->fm.uid), le32toh(e->fm.gid)) && !geteuid())
		famfs_warn("%s: chown: %s", p, strerror(errno));
	if (!mod && famfs_mnt_fchmod(fd, mode))
		famfs_warn("%s: chmod: %s", p, strerror(errno));
	rc = map_new_file(c, fd, p, &want, e);
	if (rc == 0) {
		c->r->created_files++;
		close(fd);
		return 0;
	}
	if (rc == -ENOTTY && why) {
		c->r->errors++;
		famfs_mnt_unlinkat(pfd, name, 0);
		famfs_err("%s: log entry %llu is %s, and " FAMFS_NO_V2_MSG "; not created",
			  p, (unsigned long long)idx, why);
		close(fd);
		return 0;
	}
	/*
	 * Not mapped by this call.  If the file has a map anyway, someone else
	 * (a replayer without the lock: an older tool) mapped it meanwhile:
	 * keep it, whatever happens -- it may be in use.
	 */
	switch (famfs_lp_check_map(c, fd, p, idx, &want)) {
	case 1:
		c->r->present++;
		close(fd);
		return 0;
	case -1:
		close(fd);
		return 0;
	}
	c->r->errors++;
	/* no empty, unmapped file for an entry that got no memory (its memory
	 * taken by an earlier entry, a failed mount...): the next logplay
	 * creates it again */
	if (famfs_mnt_unlinkat(pfd, name, 0) == 0)
		famfs_err("%s: %s: %s%s (log entry %llu; not created)", p, ioc,
			  strerror(-rc), rc == -EBUSY ?
			  ": another process opened the new file before it was mapped (famfs.ko maps a file only for its only opener); run famfs logplay again" :
			  rc == -ENODEV ?
			  ": a member device it uses is not attached to this mount (see famfs mount -d)" : "",
			  (unsigned long long)idx);
	else
		famfs_err("%s: %s: %s", p, ioc, strerror(-rc));
	close(fd);
	return 0;
}

int famfs_lp_make(struct lp_ctx *c, uint64_t idx, const struct famfs_log_entry *e)
{
	int type = le16toh(e->type), pfd;
	const char *name = NULL;
	bool there, psgid;
	char p[PATH_MAX];

	if (famfs_join(p, sizeof(p), c->fs->mpt, e->fm.path)) {
		c->r->errors++;
		return 0;
	}
	if (famfs_lp_beneath_refused(c, p, e->fm.path, idx))
		return 0;
	if (famfs_lp_ensure_parents(c, e->fm.path, idx))
		return 0;
	/*
	 * Its parent is opened to look at it or make it.  Already there as
	 * the names read say (all of a replay with nothing to do), the
	 * parent is not opened: only the file for a file, the directory for
	 * a directory (whose owner is judged: dir_there).
	 * (-ENOENT only in a dry run: its parents are not made.)
	 */
	there = famfs_lp_known_type(c, e->fm.path, strlen(e->fm.path), &psgid) ==
		(type == FAMFS_LOG_FILE ? DT_REG : DT_DIR);
	pfd = there ? -1 :
	      famfs_lp_parent_fd(c, p, e->fm.path, strlen(e->fm.path), idx, &name);
	if (!there && pfd < 0 && !(c->dry && pfd == -ENOENT))
		return 0;
	return type == FAMFS_LOG_FILE ?
	       play_file(c, p, e->fm.path, pfd, name, idx, e) :
	       famfs_lp_play_dir(c, p, e->fm.path, pfd, name, idx, e);
}

int famfs_lp_make_now(struct lp_ctx *c, const char *rel,
		      const struct famfs_names_obj *o,
		      struct famfs_log_entry *e)
{
	unsigned long bad = c->r->conflicts + c->r->errors;
	size_t n = strlen(rel);
	int rc;

	/* its entry as the log has it now: where, mode, owner */
	memset(e->fm.path, 0, sizeof(e->fm.path));
	memcpy(e->fm.path, rel, n);
	e->fm.path_len = htole16((uint16_t)n);
	e->fm.mode = htole32(o->mode);
	e->fm.uid = htole32(o->uid);
	e->fm.gid = htole32(o->gid);
	c->fix_attrs = o->attr_set;
	rc = famfs_lp_make(c, o->id, e);
	c->fix_attrs = false;
	if (c->r->conflicts + c->r->errors != bad)
		famfs_lp_trouble_add(c, o->id);
	return rc;
}
