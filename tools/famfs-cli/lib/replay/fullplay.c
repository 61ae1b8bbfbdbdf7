// SPDX-License-Identifier: GPL-2.0
/*
 * A replay from the first entry of a log that has deletes or renames
 * (famfs logplay, a mount, a follower's first round): the tree here may be
 * what any earlier replay made -- up to some entry that nobody recorded --
 * so playing the entries one by one on it would make files that a later
 * DELETE removes, or look for a file where a later RENAME already moved
 * it.  Instead the whole log is read first (pass 1: its namespace, with
 * every refusal, corrupt entry and member said as a replay says them),
 * then the tree is made what the log says at its end:
 *   1. a deleted file still here (at any path it had; found by its map:
 *      nothing else is ever removed) is removed; a live file found at a
 *      path it had that the log's end gives to another object (or that
 *      has a file of the log on its way) is moved aside first, to
 *      .famfs-mv.ID in the root (a swap; a rename, then a new file at the
 *      old name): what in-order replay would put there can then be made;
 *   2. every live object, directories before what is in them, is found
 *      where it ends (played as its FILE or MKDIR entry is, with the mode
 *      and owner the log gives it now), or moved there from a path it
 *      had before (a file found by its map; renameat2, never over
 *      anything), or made;
 *   3. directories left where a deleted or moved one was are removed if
 *      empty (else a conflict: what is in them is not in the log).
 * A mount's first replay finds the tree empty and does 2 only; a replay
 * with nothing to do finds everything where it is.
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

struct full {
	struct lp_ctx *c;
	bool fresh;		/* nothing here but .meta: nothing to find */
	bool stopped;
	char *hbuf;		/* the paths of one object, NUL-ended */
	size_t hlen, hcap;
	size_t *hoff;		/* where each starts in hbuf, oldest first */
	int nhist, chist;
	char **dirs;		/* 3: directories to remove if empty */
	size_t ndirs, cdirs;
	bool nomem;
	struct lp_hold hold;	/* what is not made (fullhold.c) */
};

static bool stop_now(struct full *f)
{
	struct lp_ctx *c = f->c;

	if (!f->stopped && c->stop && c->stop(c->stop_arg))
		f->stopped = true;
	return f->stopped;
}

#define HIST(f, i) ((const char *)(f)->hbuf + (f)->hoff[i])

/* one more path in the history (out of memory: f->nomem, the history
 * stops there) */
static bool hist_add(struct full *f, const char *s)
{
	size_t n = strlen(s) + 1;

	if (f->nhist == f->chist) {
		int cap = f->chist ? 2 * f->chist : 16;
		size_t *o = realloc(f->hoff, (size_t)cap * sizeof(*o));

		if (!o) {
			f->nomem = true;
			return false;
		}
		f->hoff = o;
		f->chist = cap;
	}
	if (f->hlen + n > f->hcap) {
		size_t cap = f->hcap ? 2 * f->hcap : 4096;
		char *b;

		while (cap < f->hlen + n)
			cap *= 2;
		b = realloc(f->hbuf, cap);
		if (!b) {
			f->nomem = true;
			return false;
		}
		f->hbuf = b;
		f->hcap = cap;
	}
	memcpy(f->hbuf + f->hlen, s, n);
	f->hoff[f->nhist++] = f->hlen;
	f->hlen += n;
	return true;
}

/* the paths object o had, oldest first, in the history (its path when
 * its entry made it, then after each RENAME that moved it or a directory
 * above it, until its DELETE) -- all of them: the tree here may have been
 * played up to any entry */
static void history(struct full *f, const struct famfs_names_obj *o,
		    const char *made)
{
	struct famfs_names *n = f->c->names;
	size_t nren = famfs_names_nrenames(n);
	char cur[FAMFS_LOG_PATH_MAX];

	f->nhist = 0;
	f->hlen = 0;
	snprintf(cur, sizeof(cur), "%s", made);
	if (!hist_add(f, cur))
		return;
	for (size_t i = 0; i < nren; i++) {
		struct famfs_names_rename r;
		char next[FAMFS_LOG_PATH_MAX];
		size_t fl;

		famfs_names_rename_at(n, i, &r);
		if (r.idx <= o->id)
			continue;
		if (!o->live && r.idx > o->gone)
			break;
		fl = strlen(r.from);
		if (strncmp(cur, r.from, fl) || (cur[fl] && cur[fl] != '/'))
			continue;
		if ((size_t)snprintf(next, sizeof(next), "%s%s", r.to, cur + fl) >=
		    sizeof(next))
			break;
		memcpy(cur, next, sizeof(cur));
		if (!hist_add(f, cur))
			return;
	}
}

/* where 1 moves a live file aside: .famfs-mv.ID in the root */
static void aside_name(char *out, size_t n, uint64_t id)
{
	snprintf(out, n, ".famfs-mv.%llu", (unsigned long long)id);
}

/* the file of entry id (fe: that entry, or NULL) at rel here?  (opened
 * beneath the root) */
static bool file_at_e(struct lp_ctx *c, const char *rel, uint64_t id,
		      const struct famfs_log_entry *fe)
{
	int fd = dirset_open_beneath(c->rootfd, rel, strlen(rel),
				     O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return false;
	rc = famfs_lp_is_file_e(c, fd, id, fe);
	close(fd);
	return rc == 1;
}

static bool file_at(struct lp_ctx *c, const char *rel, uint64_t id)
{
	return file_at_e(c, rel, id, NULL);
}

static bool dir_at(struct lp_ctx *c, const char *rel)
{
	struct stat st;

	return !fstatat(c->rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) &&
	       S_ISDIR(st.st_mode);
}

/* remove rel here (a file, or an empty directory): 0 or -errno.  Its
 * directory's fd is the round's (famfs_lp_parent_fd): kept across the
 * DELETEs of one directory, as across a batch's creates -- an open and a
 * close less per removed file */
static int remove_here(struct lp_ctx *c, const char *rel, bool dir)
{
	const char *name;
	int pfd = famfs_lp_parent_fd_quiet(c, rel, strlen(rel), &name);
	int rc;

	if (pfd < 0)
		return pfd;
	rc = famfs_mnt_unlinkat(pfd, name, dir ? AT_REMOVEDIR : 0) ? -errno : 0;
	if (!rc)
		famfs_lp_ds_off(c);
	return rc;
}

/* the log's end has a file at h, and o's memory may be another file's:
 * reused_here asks which of the two is there */
static bool reuse_possible(struct lp_ctx *c, const struct famfs_names_obj *o,
			   const char *h, uint64_t *id)
{
	int kind;

	return famfs_names_delete_state(c->names, o->gone, NULL) == 1 &&
	       famfs_names_lookup(c->names, h, id, &kind) &&
	       kind == FAMFS_LOG_FILE;
}

/* Its memory reclaimed, a newer file may have it, at the same path even:
 * the file at h with the deleted one's map is the live file the log has
 * at h, not removed (a map is an identity only until a RECLAIM) */
static bool reused_here(struct lp_ctx *c, const struct famfs_names_obj *o,
			const char *h)
{
	uint64_t id;

	return reuse_possible(c, o, h, &id) && file_at(c, h, id);
}

/* the file of FILE entry fe (at index id) removed from h in one call
 * (famfs.ko looks it up, compares its map and identity and unlinks it:
 * famfs_entry_unlink): 1 removed, 0 not here (or another file: a later
 * one on the same memory), -errno to do it the old way (an older
 * famfs.ko: -ENOTTY).  strict: by the identity only, never by the map
 * alone (-EOPNOTSUPP: a famfs.ko without identities) */
static int remove_one(struct lp_ctx *c, const char *h,
		      const struct famfs_log_entry *fe, uint64_t id, bool strict)
{
	const char *name;
	int pfd = famfs_lp_parent_fd_quiet(c, h, strlen(h), &name);
	int rc;

	if (pfd < 0)
		return pfd == -ENOENT ? 0 : pfd;
	rc = strict ? famfs_entry_unlink_ident(pfd, name, fe, id) :
		      famfs_entry_unlink(pfd, name, fe, id);
	if (rc == 1)
		famfs_lp_ds_off(c);
	return rc;
}

/* 1: a deleted file still here (at any path it had) is removed */
static int gone_file(void *arg, const char *path, const struct famfs_names_obj *o)
{
	struct full *f = arg;
	struct lp_ctx *c = f->c;
	struct famfs_log_entry e;
	char p[PATH_MAX], aside[64];

	(void)path;
	if (o->live || o->kind != FAMFS_LOG_FILE)
		return 0;
	if (stop_now(f))
		return 1;
	if (famfs_log_entry_at(c->fs, o->id, &e))
		return 0;
	history(f, o, e.fm.path);
	aside_name(aside, sizeof(aside), o->id);
	for (int i = f->nhist; i >= 0; i--) {
		/* first where 1 moves it aside (a replay stopped after; only
		 * a log with a RENAME moves anything aside: else not looked
		 * for, an open less per deleted file) */
		const char *h = i == f->nhist ? aside : HIST(f, i);
		int rc;

		if (i == f->nhist && !famfs_names_nrenames(c->names))
			continue;

		/* one call where famfs.ko can (the file looked up, its map
		 * compared and unlinked), unless a live file of the log may
		 * have its memory there */
		if (!c->dry && !reuse_possible(c, o, h, &(uint64_t){ 0 })) {
			rc = remove_one(c, h, &e, o->id, false);
			if (rc == 1) {
				c->r->removed++;
				break;
			}
			if (!rc)
				continue;
		}
		/* its FILE entry read once (the map compared at each path) */
		if (!file_at_e(c, h, o->id, &e) || reused_here(c, o, h))
			continue;
		famfs_join(p, sizeof(p), c->fs->mpt, h);
		if (c->dry) {
			printf("would remove %s\n", p);
			c->r->removed++;
			break;
		}
		/* checked i's, not the later file's: removed by famfs.ko,
		 * which compares i's identity under the directory's lock (a
		 * later file made there meanwhile, another replayer's, stays:
		 * the name is not unlinked after the check); by the name
		 * only with a famfs.ko without identities (or the call) */
		rc = remove_one(c, h, &e, o->id, true);
		if (rc == 1) {
			c->r->removed++;
			break;
		}
		if (!rc)
			continue;
		if (rc != -EOPNOTSUPP && rc != -ENOTTY) {
			c->r->errors++;
			famfs_err("%s: log entry %llu deleted it: cannot remove it: %s",
				  p, (unsigned long long)o->gone, strerror(-rc));
			break;
		}
		rc = remove_here(c, h, false);
		if (rc) {
			c->r->errors++;
			famfs_err("%s: log entry %llu deleted it: cannot remove it: %s",
				  p, (unsigned long long)o->gone,
				  dirset_beneath_why(rc));
		} else {
			c->r->removed++;
		}
		break;
	}
	return 0;
}

/* the parent directory of h here, opened beneath the root (h's last name
 * in *name): a descriptor, or -errno */
static int parent_of(struct lp_ctx *c, const char *h, const char **name)
{
	const char *slash = strrchr(h, '/');

	*name = slash ? slash + 1 : h;
	if (!slash) {
		int fd = dup(c->rootfd);

		return fd < 0 ? -errno : fd;
	}
	return dirset_open_beneath(c->rootfd, h, (size_t)(slash - h), DIRSET_DIR);
}

/* does the log's end have an object at h, or a file on the way to it? */
static bool taken_at_end(struct lp_ctx *c, const char *h)
{
	char pre[FAMFS_LOG_PATH_MAX];
	uint64_t id;
	int kind;

	if (famfs_names_lookup(c->names, h, &id, &kind))
		return true;
	snprintf(pre, sizeof(pre), "%s", h);
	for (char *s = strchr(pre, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (famfs_names_lookup(c->names, pre, &id, &kind) &&
		    kind == FAMFS_LOG_FILE)
			return true;
		*s = '/';
	}
	return false;
}

/*
 * 1: a live file not where the log has it, found at a path it had that
 * the log's end gives to another object (or that has a file of the log on
 * its way): moved aside, to .famfs-mv.ID in the root, before anything is
 * made -- else what in-order replay puts there (the other file of a swap,
 * a new file at a renamed one's old name, a file where a renamed
 * directory was) would meet it and be refused.  2 finds it there.  A path
 * nothing takes is left alone: 2 moves it (or the directory above it)
 * where it ends.
 */
static int aside(void *arg, const char *path, const struct famfs_names_obj *o)
{
	struct full *f = arg;
	struct lp_ctx *c = f->c;
	struct famfs_log_entry e;
	char p[PATH_MAX], tmp[64];
	const char *name;
	uint64_t id;
	int kind, pfd;

	if (!o->live || o->kind != FAMFS_LOG_FILE || famfs_lp_held(&f->hold, o->id))
		return 0;
	if (stop_now(f))
		return 1;
	if (famfs_log_entry_at(c->fs, o->id, &e))
		return 0;
	/* only a path it had is looked at: one it never left, no more */
	history(f, o, e.fm.path);
	if (f->nhist < 2 || file_at(c, path, o->id))
		return 0;
	aside_name(tmp, sizeof(tmp), o->id);
	/* a logged path (someone named a file so): not used */
	if (famfs_names_lookup(c->names, tmp, &id, &kind))
		return 0;
	for (int i = f->nhist - 1; i >= 0; i--) {
		const char *h = HIST(f, i);

		if (!strcmp(h, path) || !file_at(c, h, o->id))
			continue;
		if (!taken_at_end(c, h) || c->dry)
			return 0;
		pfd = parent_of(c, h, &name);
		if (pfd < 0)
			return 0;
		if (!famfs_mnt_renameat2(pfd, name, c->rootfd, tmp,
					 RENAME_NOREPLACE)) {
			famfs_lp_ds_off(c);
		} else {
			famfs_join(p, sizeof(p), c->fs->mpt, h);
			c->r->errors++;
			famfs_err("%s: log entry %llu's file, whose place is %s/%s now: cannot move it aside (to %s/%s) for what the log has here: %s",
				  p, (unsigned long long)o->id, c->fs->mpt, path,
				  c->fs->mpt, tmp, strerror(errno));
		}
		close(pfd);
		return 0;
	}
	return 0;
}

/* 2: a live object not at rel here, found where 1 moved it aside or at a
 * path it had, and moved */
static void move_here(struct full *f, const char *rel,
		      const struct famfs_names_obj *o, const char *made)
{
	struct lp_ctx *c = f->c;
	char p[PATH_MAX], q[PATH_MAX], tmp[64];
	const char *name, *fname;
	int fpfd, tpfd;

	history(f, o, made);
	aside_name(tmp, sizeof(tmp), o->id);
	for (int i = f->nhist; i >= 0; i--) {
		const char *h = i == f->nhist ? tmp : HIST(f, i);
		uint64_t id;
		int kind;

		if (i == f->nhist && o->kind != FAMFS_LOG_FILE)
			continue;
		if (!strcmp(h, rel))
			continue;
		if (o->kind == FAMFS_LOG_FILE ? !file_at(c, h, o->id) :
		    (!dir_at(c, h) ||
		     (famfs_names_lookup(c->names, h, &id, &kind) &&
		      kind == FAMFS_LOG_MKDIR)))
			continue;
		famfs_join(p, sizeof(p), c->fs->mpt, h);
		famfs_join(q, sizeof(q), c->fs->mpt, rel);
		if (c->dry) {
			printf("would move %s to %s\n", p, q);
			c->r->moved++;
			return;
		}
		if (famfs_lp_ensure_parents(c, rel, o->id))
			return;
		fpfd = parent_of(c, h, &fname);
		tpfd = famfs_lp_parent_fd(c, q, rel, strlen(rel), o->id, &name);
		if (fpfd >= 0 && tpfd >= 0 &&
		    !famfs_mnt_renameat2(fpfd, fname, tpfd, name,
					 RENAME_NOREPLACE)) {
			famfs_lp_ds_off(c);
			c->r->moved++;
		} else if (fpfd >= 0 && tpfd >= 0) {
			c->r->errors++;
			famfs_err("%s: cannot move it to %s, where the log has it: %s",
				  p, q, strerror(errno));
		}
		if (fpfd >= 0)
			close(fpfd);
		return;
	}
}

/* 2: every live object where the log has it, a directory first */
static int live(void *arg, const char *rel, const struct famfs_names_obj *o)
{
	struct full *f = arg;
	struct lp_ctx *c = f->c;
	struct famfs_log_entry e;
	char sub[FAMFS_LOG_PATH_MAX + 2];
	unsigned long bad;
	struct stat st;

	if (stop_now(f))
		return 1;
	if (o->id == FAMFS_NAMES_IMPLIED) {
		/* a directory no entry made: one beneath it makes it (not
		 * when all beneath it is held: fullhold.c) */
		if (famfs_lp_hold_empty(c, &f->hold, rel))
			return 0;
		snprintf(sub, sizeof(sub), "%s/x", rel);
		famfs_lp_ensure_parents(c, sub, 0);
		return 0;
	}
	/* not made: it may be deleted, or on another file's memory */
	if (famfs_lp_hold_live(c, &f->hold, rel, o))
		return 0;
	if (famfs_log_entry_at(c->fs, o->id, &e)) {
		c->r->errors++;
		famfs_err("%s: log entry %llu cannot be read again", c->fs->mpt,
			  (unsigned long long)o->id);
		return 0;
	}
	bad = c->r->conflicts + c->r->errors;
	if (!f->fresh && fstatat(c->rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) &&
	    errno == ENOENT)
		move_here(f, rel, o, e.fm.path);
	if (c->r->conflicts + c->r->errors != bad)
		famfs_lp_trouble_add(c, o->id);
	famfs_lp_make_now(c, rel, o, &e);	/* (said, counted) */
	return 0;
}

static int dir_add(struct full *f, const char *rel)
{
	if (f->ndirs == f->cdirs) {
		size_t cap = f->cdirs ? 2 * f->cdirs : 16;
		char **d = realloc(f->dirs, cap * sizeof(*d));

		if (!d) {
			f->nomem = true;
			return -ENOMEM;
		}
		f->dirs = d;
		f->cdirs = cap;
	}
	f->dirs[f->ndirs] = strdup(rel);
	if (!f->dirs[f->ndirs]) {
		f->nomem = true;
		return -ENOMEM;
	}
	f->ndirs++;
	return 0;
}

/* 3: the paths a deleted or moved directory had that are directories
 * here and nothing of the log's is (or a file of it: the directory is in
 * its way) */
static int stale_dirs(void *arg, const char *path, const struct famfs_names_obj *o)
{
	struct full *f = arg;
	struct lp_ctx *c = f->c;
	struct famfs_log_entry e;

	if (o->kind != FAMFS_LOG_MKDIR || famfs_log_entry_at(c->fs, o->id, &e))
		return 0;
	history(f, o, e.fm.path);
	for (int i = 0; i < f->nhist; i++) {
		const char *h = HIST(f, i);
		uint64_t id;
		int kind;

		if ((o->live && !strcmp(h, path)) || !dir_at(c, h) ||
		    (famfs_names_lookup(c->names, h, &id, &kind) &&
		     kind == FAMFS_LOG_MKDIR))
			continue;
		if (dir_add(f, h))
			return -ENOMEM;
	}
	return 0;
}

static int depth(const char *p)
{
	int d = 0;

	for (; *p; p++)
		d += *p == '/';
	return d;
}

static int deeper_first(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int d = depth(y) - depth(x);

	return d ? d : strcmp(x, y);
}

/* 3: remove them, deepest first; report: what is not empty is said */
static void remove_dirs(struct full *f, bool report)
{
	struct lp_ctx *c = f->c;
	char p[PATH_MAX];

	if (f->ndirs)
		qsort(f->dirs, f->ndirs, sizeof(*f->dirs), deeper_first);
	for (size_t i = 0; i < f->ndirs; i++) {
		int rc;

		if (i && !strcmp(f->dirs[i], f->dirs[i - 1]))
			continue;
		if (!dir_at(c, f->dirs[i]))
			continue;
		famfs_join(p, sizeof(p), c->fs->mpt, f->dirs[i]);
		if (c->dry) {
			if (report) {
				printf("would remove directory %s\n", p);
				c->r->removed++;
			}
			continue;
		}
		rc = remove_here(c, f->dirs[i], true);
		if (!rc)
			c->r->removed++;
		else if (report && (rc == -ENOTEMPTY || rc == -EEXIST))
			CONFLICT(c, "%s: a directory the log deleted or moved away is not empty here (what is in it is not in the log); not removed",
				 p);
		else if (report) {
			c->r->errors++;
			famfs_err("%s: cannot remove it: %s", p,
				  dirset_beneath_why(rc));
		}
	}
	for (size_t i = 0; i < f->ndirs; i++)
		free(f->dirs[i]);
	free(f->dirs);
	f->dirs = NULL;
	f->ndirs = f->cdirs = 0;
}

/* nothing here but .meta (a mount's first replay) */
static bool only_meta(struct lp_ctx *c)
{
	int fd = openat(c->rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	bool only = d != NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	while (only && (de = readdir(d)))
		only = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		       !strcmp(de->d_name, ".meta");
	closedir(d);
	return only;
}

/* pass 1: play, and the last entry skipped because it did not verify */
struct pass1 {
	struct lp_ctx *c;
	int (*play)(void *, uint64_t, const struct famfs_log_entry *, bool,
		    const char *);
	uint64_t bad;
	/* objects a DELETE names that the namespace refused after an entry
	 * skipped: the skip may have thrown the namespace off (a RENAME it
	 * missed), and the DELETE be real -- its file reclaimed */
	uint64_t *refused;
	size_t nref, cref;
	int err;
};

static void refused_delete(struct pass1 *p, const struct famfs_log_entry *e)
{
	struct famfs_ns ns;
	uint64_t *t;

	/* (a directory holds no memory) */
	if (famfs_ns_get(e, &ns) || ns.kind != FAMFS_LOG_FILE)
		return;
	if (p->nref == p->cref) {
		p->cref = p->cref ? 2 * p->cref : 16;
		t = realloc(p->refused, p->cref * sizeof(*t));
		if (!t) {
			p->err = -ENOMEM;
			return;
		}
		p->refused = t;
	}
	p->refused[p->nref++] = ns.object;
}

static int pass1_play(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct pass1 *p = arg;
	int rc = p->play(p->c, idx, e, ok, reason);

	/* the namespace's own verdict on it (a corrupt DELETE is never
	 * judged: every host skips it) */
	if (ok && !rc && p->bad != UINT64_MAX &&
	    le16toh(e->type) == FAMFS_LOG_DELETE &&
	    p->c->verdict == FAMFS_NAMES_REFUSED)
		refused_delete(p, e);
	if (p->err)
		return p->err;

	/* one not written whole here (CRC, torn slots) may be a DELETE
	 * other hosts read; one whose fields fail their checks reads the
	 * same everywhere (no host, the master included, applies it) */
	if (!ok && !rc && p->c->fs->walk_torn &&
	    (p->bad == UINT64_MAX || idx > p->bad))
		p->bad = idx;
	return rc;
}

int famfs_lp_full(struct lp_ctx *c, int (*play)(void *, uint64_t,
		  const struct famfs_log_entry *, bool, const char *))
{
	struct full f = { .c = c };
	struct pass1 p1 = { .c = c, .play = play, .bad = UINT64_MAX };
	uint64_t end = famfs_log_refresh_next(c->fs);
	int rc, lost = 0;

	/* pass 1: the whole log's namespace; nothing is made here yet */
	c->withheld = false;
	c->pass1 = true;
	rc = famfs_log_walk_range(c->fs, 0, end, pass1_play, &p1);
	c->pass1 = false;
	/* the follower stopped before an entry not written whole here: what
	 * is before it is made -- with the DELETE bit, nothing created
	 * before it (it may be a DELETE: fullhold.c) -- and the rest waits
	 * for it (c->next is it) */
	if (rc == 1 && c->halted) {
		rc = 0;
		if (p1.bad == UINT64_MAX || c->next > p1.bad)
			p1.bad = c->next;
	}
	/* a lost segment: what could be read is made (the caller says it)
	 * -- with the DELETE bit, none of it (fullhold.c) */
	if (rc == -ENXIO && c->fs->walk_lost != UINT64_MAX) {
		lost = rc;
		rc = 0;
	}
	/* what is not made: made before an entry pass 1 skipped or a lost
	 * segment (a DELETE of it there?), or on another file's memory */
	if (!rc)
		rc = famfs_lp_hold_init(c, &f.hold, p1.bad,
					lost ? c->fs->walk_lost : UINT64_MAX);
	if (!rc)
		rc = famfs_lp_hold_add(c, &f.hold, p1.refused, p1.nref);
	free(p1.refused);
	if (rc)
		goto restart;
	f.fresh = only_meta(c);
	if (!f.fresh) {
		rc = famfs_names_each(c->names, gone_file, &f);
		/* files in the way of what is made: moved aside first (only
		 * a RENAME leaves one where another goes) */
		if (!rc && famfs_names_nrenames(c->names))
			rc = famfs_names_each(c->names, aside, &f);
		/* directories in the way of what is made: removed first */
		if (!rc)
			rc = famfs_names_each(c->names, stale_dirs, &f);
		if (!rc)
			remove_dirs(&f, false);
	}
	if (!rc)
		rc = famfs_names_tree(c->names, live, &f);
	famfs_lp_hold_end(c, &f.hold);
	/* a follower waits at what held them: once past it, this again */
	c->withheld = !rc && c->hold_bad && f.hold.ncut && (c->halted || lost);
	if (!rc && !f.fresh) {
		rc = famfs_names_each(c->names, stale_dirs, &f);
		if (!rc)
			remove_dirs(&f, true);
	}
	remove_dirs(&f, false);		/* (freed) */
	famfs_lp_hold_free(&f.hold);
	free(f.hbuf);
	free(f.hoff);
	if (f.nomem && !rc) {
		famfs_err("out of memory");
		rc = -ENOMEM;
	}
	if (rc)
		goto restart;
	return lost;
restart:
	famfs_lp_hold_free(&f.hold);
	/* stopped, or failed: the next round starts from the first entry */
	return famfs_lp_from_first(c) ? -ENOMEM : rc;
}
