// SPDX-License-Identifier: GPL-2.0
/*
 * logplay's DELETE, RENAME and SETATTR (format revision 3), in log order
 * on a tree that is the entries before them played (a follower's rounds):
 * the namespace judged the entry already (logplay.c); here the file or
 * directory is found -- a file by its map, so that nothing but the logged
 * one is ever removed, moved or changed -- opened beneath the mount root
 * without following a link, and removed, moved (renameat2, never over
 * anything) or given its mode and owner through a descriptor of itself.
 * What is not here, or not the logged one, is a conflict: said, and the
 * replay goes on.  And what the namespace refused, said.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"

void famfs_lp_refused(struct lp_ctx *c, uint64_t idx,
		      const struct famfs_log_entry *e, int rc, uint64_t other,
		      const char *why)
{
	const char *mpt = c->fs->mpt, *path = famfs_entry_path(e);
	struct famfs_names_obj o;
	struct famfs_ns ns;

	switch (rc) {
	case FAMFS_NAMES_TWICE:
		/* a directory logged twice is harmless; anything else is not */
		if (le16toh(e->type) == FAMFS_LOG_MKDIR &&
		    famfs_names_get(c->names, other, &o, NULL) == 1 &&
		    o.kind == FAMFS_LOG_MKDIR)
			return;
		CONFLICT(c, "%s/%s: logged twice (entries %llu and %llu); entry %llu ignored",
			 mpt, path, (unsigned long long)other,
			 (unsigned long long)idx, (unsigned long long)idx);
		return;
	case FAMFS_NAMES_UNDER_FILE:
		CONFLICT(c, "%s/%s: log entry %llu not played: a file where a directory belongs (%s/%s is a file in the log, entry %llu)",
			 mpt, path, (unsigned long long)idx, mpt, why,
			 (unsigned long long)other);
		return;
	case FAMFS_NAMES_DIR_THERE:
		CONFLICT(c, "%s/%s: log entry %llu not played: it is a file, but the log has a directory there (%s/%s is logged beneath it)",
			 mpt, path, (unsigned long long)idx, mpt, why);
		return;
	default:
		famfs_ns_get(e, &ns);
		CONFLICT(c, "%s/%s: log entry %llu (%s of entry %llu%s%s) not played: %s",
			 mpt, ns.path, (unsigned long long)idx,
			 famfs_ns_name(ns.type), (unsigned long long)ns.object,
			 ns.to ? " to " : "", ns.to ? ns.to : "", why);
	}
}

int famfs_lp_is_file(struct lp_ctx *c, int fd, uint64_t id)
{
	return famfs_lp_is_file_e(c, fd, id, NULL);
}

int famfs_lp_is_file_e(struct lp_ctx *c, int fd, uint64_t id,
		       const struct famfs_log_entry *fe)
{
	struct famfs_fmap *want = malloc(sizeof(*want)), *have = malloc(sizeof(*have));
	struct famfs_log_entry e;
	struct stat st;
	int rc = -1;

	if (!want || !have) {
		famfs_err("out of memory");
		goto out;
	}
	rc = 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    (!fe && famfs_log_entry_at(c->fs, id, &e)) || famfs_fmap_get(fd, have))
		goto out;
	famfs_fmap_from_entry(fe ? fe : &e, want);
	/* the map, and the identity of a file made with one: a later file
	 * on the same memory at the same path is another file */
	rc = famfs_fmap_is_entry(want, have, id);
out:
	free(want);
	free(have);
	return rc;
}

/* ---- an incremental round's look-ahead (replay.h: famfs_lp_round) ---- */

/* the index in a (n pairs, sorted by obj) of obj, or where it would go */
static size_t del_at(const struct lp_del *a, size_t n, uint64_t obj)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a[mid].obj < obj)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static const struct lp_del *del_find(const struct lp_del *a, size_t n,
				     uint64_t obj)
{
	size_t i = del_at(a, n, obj);

	return i < n && a[i].obj == obj ? &a[i] : NULL;
}

static int del_add(struct lp_del **a, size_t *n, size_t *cap, uint64_t obj,
		   uint64_t del)
{
	if (*n == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		struct lp_del *t = realloc(*a, ncap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		*a = t;
		*cap = ncap;
	}
	(*a)[*n].obj = obj;
	(*a)[(*n)++].del = del;
	return 0;
}

/* by file, then by DELETE (del_find: a file's first DELETE) */
static int del_cmp(const void *x, const void *y)
{
	const struct lp_del *a = x, *b = y;

	if (a->obj != b->obj)
		return a->obj < b->obj ? -1 : 1;
	return a->del < b->del ? -1 : a->del > b->del;
}

bool famfs_lp_ahead_skip(struct lp_ctx *c, uint64_t idx)
{
	const struct lp_del *d = del_find(c->ahead, c->nahead, idx);

	/* (FILE entries come in log order: skip stays sorted; out of
	 * memory, the file is left unmade all the same, its DELETE said) */
	if (d)
		del_add(&c->skip, &c->nskip, &c->cskip, d->obj, d->del);
	return d;
}

/* a file of skip: left unmade (its DELETE follows), so not here */
static bool skipped(const struct lp_ctx *c, uint64_t obj)
{
	return del_find(c->skip, c->nskip, obj);
}

int famfs_lp_unskip(struct lp_ctx *c, uint64_t idx,
		    const struct famfs_log_entry *e)
{
	char rel[FAMFS_LOG_PATH_MAX];
	struct famfs_log_entry fe;
	struct famfs_names_obj o;
	struct famfs_ns ns;
	size_t i, j;

	if (famfs_ns_get(e, &ns) || ns.kind != FAMFS_LOG_FILE)
		return 0;
	i = del_at(c->skip, c->nskip, ns.object);
	if (i == c->nskip || c->skip[i].obj != ns.object)
		return 0;
	/* a later DELETE of it among the round's: it may be applied (r40:
	 * the file's memory may be another's then) -- left unmade for that
	 * one (also by a later round, if this one is stopped before it) */
	for (j = del_at(c->ahead, c->nahead, ns.object);
	     j < c->nahead && c->ahead[j].obj == ns.object; j++)
		if (c->ahead[j].del > idx) {
			c->skip[i].del = c->ahead[j].del;
			return 0;
		}
	/* gone already (an earlier DELETE of it applied): stays unmade */
	if (famfs_names_get(c->names, ns.object, &o, rel) != 1 || !o.live)
		return 0;
	/* every host keeps it: made as the log has it here */
	memmove(c->skip + i, c->skip + i + 1,
		(c->nskip - i - 1) * sizeof(*c->skip));
	c->nskip--;
	if (famfs_log_entry_at(c->fs, ns.object, &fe)) {
		c->r->errors++;
		famfs_lp_trouble_add(c, ns.object);
		famfs_err("%s: log entry %llu cannot be read again (its DELETE, entry %llu, was refused: the file is not made)",
			  c->fs->mpt, (unsigned long long)ns.object,
			  (unsigned long long)idx);
		return 0;
	}
	return famfs_lp_make_now(c, rel, &o, &fe);
}

void famfs_lp_ahead_free(struct lp_ctx *c)
{
	free(c->ahead);
	free(c->skip);
	c->ahead = c->skip = NULL;
	c->nahead = c->cahead = c->nskip = c->cskip = 0;
}

struct ahead_walk {
	struct lp_ctx *c;
	uint64_t end;		/* past the last entry read */
	uint64_t bad;		/* the first that does not verify, or UINT64_MAX */
	uint64_t file;		/* the first FILE read, or UINT64_MAX */
	uint64_t unskip;	/* the first DELETE of a file skip has (one
				 * it may make: famfs_lp_unskip), or
				 * UINT64_MAX */
	char why[FAMFS_REASON_LEN];
	int err;
};

static int ahead_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		       bool ok, const char *reason)
{
	struct ahead_walk *w = arg;
	struct famfs_ns ns;

	w->end = w->c->fs->walk_next;
	/* one not written whole here (CRC, torn slots) may be a DELETE
	 * other hosts read; one whose fields fail their checks reads the
	 * same everywhere (no host applies it): played (skipped) as ever */
	if (!ok && !w->c->fs->walk_torn)
		return 0;
	if (!ok) {
		w->bad = idx;
		snprintf(w->why, sizeof(w->why), "%s", reason);
		return 1;
	}
	if (le16toh(e->type) == FAMFS_LOG_FILE && w->file == UINT64_MAX)
		w->file = idx;
	if (le16toh(e->type) != FAMFS_LOG_DELETE || famfs_ns_get(e, &ns) ||
	    ns.kind != FAMFS_LOG_FILE || ns.object >= idx)
		return 0;
	if (w->unskip == UINT64_MAX && skipped(w->c, ns.object))
		w->unskip = idx;
	w->err = del_add(&w->c->ahead, &w->c->nahead, &w->c->cahead, ns.object,
			 idx);
	return w->err ? 1 : 0;
}

int famfs_lp_round(struct lp_ctx *c, famfs_entry_fn play)
{
	struct ahead_walk w = { .c = c, .end = c->next, .bad = UINT64_MAX,
				.file = UINT64_MAX, .unskip = UINT64_MAX };
	uint64_t lost, stop;
	size_t i, n = 0;
	int rc, ahead;

	if (!(le32toh(c->fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE))
		return famfs_log_walk_range(c->fs, c->next, UINT64_MAX, play, c);
	/* the files skipped whose DELETE was played are done with */
	for (i = 0; i < c->nskip; i++)
		if (c->skip[i].del >= c->next)
			c->skip[n++] = c->skip[i];
	c->nskip = n;
	c->nahead = 0;
	ahead = famfs_log_walk_range(c->fs, c->next, UINT64_MAX, ahead_entry, &w);
	lost = c->fs->walk_lost;
	if (w.err || (ahead < 0 && ahead != -ENXIO)) {
		c->nahead = 0;
		if (w.err)
			famfs_err("out of memory");
		return w.err ? w.err : ahead;
	}
	if (c->nahead)
		qsort(c->ahead, c->nahead, sizeof(*c->ahead), del_cmp);
	/* a lost segment (its slots cannot be read here) as an entry that
	 * does not verify: a DELETE of a file before it may be there */
	if (ahead == -ENXIO && lost != UINT64_MAX)
		w.bad = lost;
	/* nothing from an entry that does not verify on, nor from the first
	 * file before it (that entry may be its DELETE) -- nor from the
	 * first DELETE of a file an earlier round left unmade, which may
	 * make it (refused) while that entry hides a DELETE of it that is
	 * applied --, nor past what was read (the master may append
	 * meanwhile) */
	stop = w.bad < w.end ? w.bad : w.end;
	if (w.bad != UINT64_MAX && w.file < stop)
		stop = w.file;
	if (w.bad != UINT64_MAX && w.unskip < stop)
		stop = w.unskip;
	rc = famfs_log_walk_range(c->fs, c->next, stop, play, c);
	c->nahead = 0;
	if (rc)
		return rc;
	/* said once, also when the follower's first round said it */
	if (w.bad != UINT64_MAX && c->held != w.bad && ahead == -ENXIO) {
		c->held = w.bad;	/* (counted by the caller) */
		famfs_err("%s: log slots from %llu on cannot be read here (a lost segment): one may be the DELETE of a file before it, whose memory may be another file's now, so this replay plays nothing from entry %llu on",
			  c->fs->name, (unsigned long long)w.bad,
			  (unsigned long long)stop);
	} else if (w.bad != UINT64_MAX && c->held != w.bad) {
		c->held = w.bad;
		c->r->bad_entries++;
		famfs_err("%s: log entry %llu does not verify here (%s): it may be the DELETE of a file before it, whose memory may be another file's now, so this replay plays nothing from entry %llu on for now and reads it again next time",
			  c->fs->name, (unsigned long long)w.bad, w.why,
			  (unsigned long long)stop);
	}
	if (ahead == -ENXIO)
		c->fs->walk_lost = lost;
	return ahead == -ENXIO ? ahead : 0;
}

/* What is at rel here: 1 the object (kind; a file: id's), 0 nothing, -1
 * something else (what in *what) */
static int here(struct lp_ctx *c, const char *rel, int kind, uint64_t id,
		const char **what)
{
	int fd = dirset_open_beneath(c->rootfd, rel, strlen(rel),
				     kind == FAMFS_LOG_MKDIR ? DIRSET_DIR :
				     O_RDONLY | O_CLOEXEC);
	int rc;

	*what = "";
	if (fd == -ENOENT)
		return 0;
	if (fd < 0) {
		*what = dirset_beneath_why(fd);
		return -1;
	}
	rc = kind == FAMFS_LOG_MKDIR ? 1 : famfs_lp_is_file(c, fd, id);
	close(fd);
	if (rc != 1)
		*what = "a file that is not the logged one (another map, or none)";
	return rc == 1 ? 1 : -1;
}

/* Is the file at rel the log's own later file on the same memory as
 * FILE entry id's: its identity (famfs.ko's) a later FILE entry, whose
 * map it has?  Then id's file is not here, and nothing is wrong: a
 * DELETE, RENAME or SETATTR of id is done (another replayer played it,
 * and made the later file there on the memory a RECLAIM gave back) */
static bool later_file_at(struct lp_ctx *c, const char *rel, uint64_t id)
{
	int fd = dirset_open_beneath(c->rootfd, rel, strlen(rel),
				     O_RDONLY | O_CLOEXEC);
	struct famfs_fmap *want = NULL, *have = NULL;
	struct famfs_log_entry e;
	bool rc = false;

	if (fd < 0)
		return false;
	want = malloc(sizeof(*want));
	have = malloc(sizeof(*have));
	if (want && have && !famfs_fmap_get(fd, have) && have->has_ident &&
	    have->ident > id && !famfs_log_entry_at(c->fs, have->ident, &e) &&
	    le16toh(e.type) == FAMFS_LOG_FILE) {
		famfs_fmap_from_entry(&e, want);
		rc = famfs_fmap_equal(want, have);
	}
	free(want);
	free(have);
	close(fd);
	return rc;
}

/* the logged file removed in one call (famfs.ko looks it up, compares
 * its map and unlinks it: famfs_entry_unlink): 1 removed; else not (0
 * not here or not it, -errno: the old way tells which) */
static int remove_by_map(struct lp_ctx *c, const struct famfs_ns *ns)
{
	struct famfs_log_entry e;
	const char *name;
	int pfd;

	if (famfs_log_entry_at(c->fs, ns->object, &e))
		return -EIO;
	pfd = famfs_lp_parent_fd_quiet(c, ns->path, strlen(ns->path), &name);
	return pfd < 0 ? pfd : famfs_entry_unlink(pfd, name, &e, ns->object);
}

static int play_delete(struct lp_ctx *c, uint64_t idx, const struct famfs_ns *ns,
		       const char *p)
{
	const char *what, *name;
	int rc, pfd;

	if (c->dry) {
		printf("would remove %s\n", p);
		c->r->removed++;
		return 0;
	}
	if (ns->kind == FAMFS_LOG_FILE && remove_by_map(c, ns) == 1) {
		famfs_lp_ds_off(c);
		c->r->removed++;
		return 0;
	}
	rc = here(c, ns->path, (int)ns->kind, ns->object, &what);
	if (!rc && skipped(c, ns->object))
		return 0;	/* never made: this DELETE was ahead */
	/* the log's later file there (UNLINK_MAP: ESTALE): done already */
	if (rc < 0 && ns->kind == FAMFS_LOG_FILE &&
	    later_file_at(c, ns->path, ns->object)) {
		c->r->present++;
		return 0;
	}
	/* not here on the master: its famfs rm removed it (as a RENAME it
	 * made is found where it goes) -- unless this replay met trouble
	 * with it before (never made here, not moved where the log has it) */
	if (!rc && c->fs->master && !famfs_lp_trouble(c, ns->object)) {
		c->r->present++;
		return 0;
	}
	if (rc <= 0) {
		CONFLICT(c, "%s: log entry %llu deletes entry %llu, %s; not removed",
			 p, (unsigned long long)idx,
			 (unsigned long long)ns->object,
			 rc ? what : "which is not here");
		return 0;
	}
	pfd = famfs_lp_parent_fd(c, p, ns->path, strlen(ns->path), idx, &name);
	if (pfd < 0)
		return 0;
	if (famfs_mnt_unlinkat(pfd, name, ns->kind == FAMFS_LOG_MKDIR ? AT_REMOVEDIR : 0)) {
		if (errno == ENOTEMPTY || errno == EEXIST)
			CONFLICT(c, "%s: log entry %llu deletes the directory, but it is not empty here (what is in it is not in the log); not removed",
				 p, (unsigned long long)idx);
		else {
			c->r->errors++;
			famfs_err("%s: log entry %llu: cannot remove it: %s", p,
				  (unsigned long long)idx, strerror(errno));
		}
		return 0;
	}
	famfs_lp_ds_off(c);
	c->r->removed++;
	return 0;
}

static int play_rename(struct lp_ctx *c, uint64_t idx, const struct famfs_ns *ns,
		       const char *p)
{
	const char *slash = strrchr(ns->path, '/'), *fname, *tname, *what;
	char q[PATH_MAX];
	int rc, fpfd, tpfd;

	if (famfs_join(q, sizeof(q), c->fs->mpt, ns->to) ||
	    famfs_lp_beneath_refused(c, q, ns->to, idx))
		return 0;
	if (c->dry) {
		printf("would move %s to %s\n", p, q);
		c->r->moved++;
		return 0;
	}
	rc = here(c, ns->path, (int)ns->kind, ns->object, &what);
	if (!rc && skipped(c, ns->object))
		return 0;	/* never made: its DELETE follows */
	/* the log's later file where it was: moved already */
	if (rc < 0 && ns->kind == FAMFS_LOG_FILE &&
	    later_file_at(c, ns->path, ns->object)) {
		c->r->present++;
		return 0;
	}
	if (rc <= 0) {
		/* there already (this mount played it: its own master) */
		if (!rc && here(c, ns->to, (int)ns->kind, ns->object, &what) == 1) {
			c->r->present++;
			return 0;
		}
		CONFLICT(c, "%s: log entry %llu moves entry %llu to %s, %s; not moved",
			 p, (unsigned long long)idx, (unsigned long long)ns->object,
			 q, rc ? what : "but it is not here");
		return 0;
	}
	if (famfs_lp_ensure_parents(c, ns->to, idx))
		return 0;
	/* the source's directory is this call's own (parent_fd keeps one) */
	fpfd = dirset_open_beneath(c->rootfd, ns->path,
				   slash ? (size_t)(slash - ns->path) : 0, DIRSET_DIR);
	fname = slash ? slash + 1 : ns->path;
	if (fpfd < 0) {
		c->r->errors++;
		famfs_err("%s: log entry %llu not played: %s", p,
			  (unsigned long long)idx, dirset_beneath_why(fpfd));
		return 0;
	}
	tpfd = famfs_lp_parent_fd(c, q, ns->to, strlen(ns->to), idx, &tname);
	if (tpfd >= 0 && famfs_mnt_renameat2(fpfd, fname, tpfd, tname, RENAME_NOREPLACE)) {
		if (errno == EEXIST)
			CONFLICT(c, "%s: log entry %llu moves entry %llu to %s, but something not in the log is there; not moved",
				 p, (unsigned long long)idx,
				 (unsigned long long)ns->object, q);
		else {
			c->r->errors++;
			famfs_err("%s: log entry %llu: cannot move it to %s: %s",
				  p, (unsigned long long)idx, q, strerror(errno));
		}
	} else if (tpfd >= 0) {
		famfs_lp_ds_off(c);
		c->r->moved++;
	}
	close(fpfd);
	return 0;
}

static int play_setattr(struct lp_ctx *c, uint64_t idx,
			const struct famfs_ns *ns, const char *p)
{
	bool dir = ns->kind == FAMFS_LOG_MKDIR;
	int fd, rc = 1;

	if (c->dry) {
		printf("would change the mode or owner of %s\n", p);
		c->r->changed++;
		return 0;
	}
	/* on the object itself: no name is followed or looked up again */
	fd = dirset_open_beneath(c->rootfd, ns->path, strlen(ns->path),
				 dir ? DIRSET_DIR : O_RDONLY | O_CLOEXEC);
	if (fd == -ENOENT && skipped(c, ns->object))
		return 0;	/* never made: its DELETE follows */
	if (fd >= 0 && !dir)
		rc = famfs_lp_is_file(c, fd, ns->object);
	/* the log's later file there: the file changed is gone (its DELETE
	 * played by another replayer); the later file is not changed (rev1) */
	if (fd >= 0 && rc != 1 && later_file_at(c, ns->path, ns->object)) {
		close(fd);
		c->r->present++;
		return 0;
	}
	if (fd < 0 || rc != 1) {
		CONFLICT(c, "%s: log entry %llu changes entry %llu, %s; not changed",
			 p, (unsigned long long)idx, (unsigned long long)ns->object,
			 fd == -ENOENT ? "which is not here" :
			 fd < 0 ? dirset_beneath_why(fd) :
			 "but the file here is not the logged one");
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (ns->valid & (FAMFS_SETATTR_UID | FAMFS_SETATTR_GID) &&
	    famfs_mnt_fchown(fd, ns->valid & FAMFS_SETATTR_UID ? ns->uid : (uid_t)-1,
		   ns->valid & FAMFS_SETATTR_GID ? ns->gid : (gid_t)-1) &&
	    !geteuid())
		famfs_warn("%s: chown: %s", p, strerror(errno));
	/* a client's files keep no write bit; a chown dropped set-id bits */
	if ((ns->valid & FAMFS_SETATTR_MODE || !dir)) {
		struct famfs_names_obj o;
		uint32_t m = ns->valid & FAMFS_SETATTR_MODE ? ns->mode :
			     famfs_names_get(c->names, ns->object, &o, NULL) == 1 ?
			     o.mode : 0;

		if (famfs_mnt_fchmod(fd, dir ? m : famfs_lp_file_mode(c, m)))
			famfs_warn("%s: chmod: %s", p, strerror(errno));
	}
	close(fd);
	c->r->changed++;
	return 0;
}

int famfs_lp_ns(struct lp_ctx *c, uint64_t idx, const struct famfs_log_entry *e)
{
	struct famfs_ns ns;
	char p[PATH_MAX];

	famfs_ns_get(e, &ns);
	if (famfs_join(p, sizeof(p), c->fs->mpt, ns.path)) {
		c->r->errors++;
		return 0;
	}
	if (famfs_lp_beneath_refused(c, p, ns.path, idx))
		return 0;
	/* a directory here the replay did not take for the log's (dir_there:
	 * someone else's): never changed, moved or removed as if it were */
	if (pathset_lookup_n(&c->refused, ns.path, strlen(ns.path))) {
		CONFLICT(c, "%s: log entry %llu (%s) skipped: the directory here is not the log's (said above)",
			 p, (unsigned long long)idx, famfs_ns_name(ns.type));
		return 0;
	}
	switch (ns.type) {
	case FAMFS_LOG_DELETE:
		return play_delete(c, idx, &ns, p);
	case FAMFS_LOG_RENAME:
		return play_rename(c, idx, &ns, p);
	default:
		return play_setattr(c, idx, &ns, p);
	}
}
