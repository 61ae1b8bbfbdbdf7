// SPDX-License-Identifier: GPL-2.0
/*
 * What every step of a replay does (logplay.c, playfile.c, playdir.c,
 * nsplay.c, fullplay.c): the names read of the mounted tree, a path's
 * directory opened beneath the mount root without following a link (kept
 * for the next entry in it), missing parents made, owner and mode judged,
 * a file's map compared with its entry's, what lies beneath a directory
 * the replay did not take; the objects it left not as the log has them,
 * and a start from the first entry again.
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

/*
 * What is at rel[0..len): a d_type from the names read (replay.h), 0 if
 * nothing, -1 if unknown (look with lstat); *psgid: its directory has
 * S_ISGID (only when >= 0).
 */
int famfs_lp_known_type(struct lp_ctx *c, const char *rel, size_t len,
		      bool *psgid)
{
	int t;

	if (!c->ds_ok)
		return -1;
	t = dirset_type(&c->ds, rel, len, psgid);
	return t < 0 ? -1 : t;
}

/* rel[0..len) as a string in out (PATH_MAX) */
static const char *prefix(char *out, const char *rel, size_t len)
{
	memcpy(out, rel, len);
	out[len] = '\0';
	return out;
}

/* c->pfd still the directory c->pdir names (not renamed, neither it nor a
 * directory above it replaced by a symbolic link meanwhile)?  fstatat
 * follows a link anywhere but in the last component: each directory
 * above is looked at first (a link back to the same directory, a -> a.real,
 * would lead to the same inode).  No open: lookups only.  (A swap between
 * two looks is a race as after any open: c->pfd is still the directory
 * once opened beneath the root.) */
static bool pdir_same(struct lp_ctx *c)
{
	struct stat st;
	char *s = c->pdir;
	int rc;

	if (c->pfd < 0)
		return false;
	while ((s = strchr(s, '/'))) {
		*s = '\0';
		rc = fstatat(c->rootfd, c->pdir, &st, AT_SYMLINK_NOFOLLOW);
		*s++ = '/';
		if (rc || !S_ISDIR(st.st_mode))
			return false;
	}
	return !fstatat(c->rootfd, c->pdir, &st, AT_SYMLINK_NOFOLLOW) &&
	       st.st_ino == c->pino && st.st_dev == c->pdev;
}

/*
 * The directory that holds rel[0..len) (the mount root for a name of the
 * root), opened without following a symbolic link on the way or leaving
 * the mount (dirset_open_beneath): fd, *name its last component.  Else
 * -errno, reported (p: rel's full path) unless only missing in a dry run.
 * The fd is the round's, not to be closed: kept for the next entry in the
 * same directory (a batch's entries are) while its path still leads to
 * it, and closed by round_end.
 */
int famfs_lp_parent_fd_quiet(struct lp_ctx *c, const char *rel, size_t len,
			     const char **name)
{
	const char *slash = memrchr(rel, '/', len);
	size_t n = slash ? (size_t)(slash - rel) : 0;
	struct stat st;
	int fd;

	*name = slash ? slash + 1 : rel;
	if (!n)
		return c->rootfd;
	if (!strncmp(c->pdir, rel, n) && !c->pdir[n] && pdir_same(c))
		return c->pfd;
	fd = dirset_open_beneath(c->rootfd, rel, n, DIRSET_DIR);
	if (fd < 0)
		return fd;
	if (c->pfd >= 0)
		close(c->pfd);
	c->pfd = fd;
	if (fstat(fd, &st))
		memset(&st, 0, sizeof(st));	/* no inode 0: never reused */
	c->pino = st.st_ino;
	c->pdev = st.st_dev;
	memcpy(c->pdir, rel, n);
	c->pdir[n] = '\0';
	return fd;
}

int famfs_lp_parent_fd(struct lp_ctx *c, const char *p, const char *rel,
		     size_t len, uint64_t idx, const char **name)
{
	int fd = famfs_lp_parent_fd_quiet(c, rel, len, name);

	if (fd < 0 && !(c->dry && fd == -ENOENT)) {
		c->r->errors++;
		famfs_err("%s: log entry %llu not played: %s", p,
			  (unsigned long long)idx, dirset_beneath_why(fd));
	}
	return fd;
}

/* rel[0..n) made a directory (mode, the replayer's) if nothing is there;
 * -ENOTDIR if something else is (said) */
static int make_one(struct lp_ctx *c, const char *rel, size_t n, uint64_t idx,
		    mode_t mode)
{
	char p[PATH_MAX], r[PATH_MAX];
	const char *name;
	struct stat st;
	bool psgid;
	int pfd, rc, t = famfs_lp_known_type(c, rel, n, &psgid);

	if (t == DT_DIR)
		return 0;
	prefix(r, rel, n);
	if (famfs_join(p, sizeof(p), c->fs->mpt, r))
		return -ENAMETOOLONG;
	if (t != 0 && fstatat(c->rootfd, r, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISDIR(st.st_mode))
			return 0;
		CONFLICT(c, "%s: log entry %llu (%s): a %s where a directory belongs",
			 p, (unsigned long long)idx, rel,
			 S_ISLNK(st.st_mode) ? "symbolic link (not followed)" : "file");
		return -ENOTDIR;
	}
	if (c->dry) {
		printf("would create directory %s\n", p);
		c->r->created_dirs++;
		return 0;
	}
	pfd = famfs_lp_parent_fd(c, p, r, n, idx, &name);
	if (pfd < 0)
		return pfd;
	rc = famfs_mnt_mkdirat(pfd, name, mode) ? -errno : 0;
	if (rc == -EEXIST)
		return 0;	/* made meanwhile */
	if (rc) {
		c->r->errors++;
		famfs_err("%s: mkdir: %s", p, strerror(-rc));
		return rc;
	}
	if (t == 0 && c->ds_ok)	/* empty; S_ISGID from its parent */
		dirset_note(&c->ds, r, DT_DIR, true, psgid);
	c->r->created_dirs++;
	return 0;
}

/* create missing ancestors of rel; -ENOTDIR if one is not a directory */
int famfs_lp_ensure_parents(struct lp_ctx *c, const char *rel, uint64_t idx)
{
	for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
		int rc = make_one(c, rel, (size_t)(s - rel), idx, 0755);

		if (rc)
			return rc;
	}
	return 0;
}

int famfs_lp_make_dir(struct lp_ctx *c, const char *rel, mode_t mode)
{
	int rc = famfs_lp_ensure_parents(c, rel, 0);

	return rc ? rc : make_one(c, rel, strlen(rel), 0, mode);
}

/* mkdir/open gave the owner and mode wanted (no chown, no chmod needed)?
 * The creator's ids, no bits the umask takes or mkdir drops, and a
 * parent without S_ISGID (which gives its group, and S_ISGID to a
 * directory) */
bool famfs_lp_owner_right(struct lp_ctx *c, const struct famfs_log_entry *e,
			bool psgid)
{
	return !psgid && le32toh(e->fm.uid) == c->euid &&
	       le32toh(e->fm.gid) == c->egid;
}

bool famfs_lp_mode_right(struct lp_ctx *c, uint32_t mode, bool psgid)
{
	return !psgid && !(mode & (S_ISUID | S_ISGID)) && !(mode & c->umask);
}

uint32_t famfs_lp_file_mode(struct lp_ctx *c, uint32_t mode)
{
	return (c->fs->master_instance && !c->fs->ro_mount) ? mode : mode & ~0222U;
}

/* fd's map (if it has one) against the logged one: 1 if it has the logged
 * map, 0 if it has none, -1 if another one (reported).  With an identity
 * in want (the FILE entry's index), a file that has another one is
 * another entry's file on the same memory (-1; with other, that entry's
 * index in *other and -2, not reported); one made without (an older tool
 * or famfs.ko) is judged by its map */
int famfs_lp_check_map_other(struct lp_ctx *c, int fd, const char *p,
			     uint64_t idx, const struct famfs_fmap *want,
			     uint64_t *other)
{
	struct famfs_fmap *have = malloc(sizeof(*have));
	int rc;

	if (!have) {
		c->r->errors++;
		famfs_err("%s: out of memory", p);
		return -1;
	}
	rc = famfs_fmap_get(fd, have);
	if (rc) {
		free(have);
		return 0;
	}
	rc = famfs_fmap_equal(want, have) ? 1 : -1;
	if (rc < 0)
		CONFLICT(c, "%s: its map differs from log entry %llu",
			 p, (unsigned long long)idx);
	else if (want->has_ident && have->has_ident &&
		 have->ident != want->ident && other) {
		rc = -2;
		*other = have->ident;
	} else if (want->has_ident && have->has_ident &&
		   have->ident != want->ident) {
		rc = -1;
		CONFLICT(c, "%s: the file here is that of log entry %llu (its identity), not of log entry %llu, though on the same memory",
			 p, (unsigned long long)have->ident,
			 (unsigned long long)idx);
	}
	free(have);
	return rc;
}

int famfs_lp_check_map(struct lp_ctx *c, int fd, const char *p, uint64_t idx,
		       const struct famfs_fmap *want)
{
	return famfs_lp_check_map_other(c, fd, p, idx, want, NULL);
}

void famfs_lp_ds_off(struct lp_ctx *c)
{
	if (c->ds_ok)
		dirset_free(&c->ds);
	c->ds_ok = false;
}

/* rel beneath a directory dir_there did not take: said (skipped), 1 */
int famfs_lp_beneath_refused(struct lp_ctx *c, const char *p, const char *rel,
			   uint64_t idx)
{
	if (!c->refused.count)
		return 0;
	for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
		size_t n = (size_t)(s - rel);

		if (!pathset_lookup_n(&c->refused, rel, n))
			continue;
		CONFLICT(c, "%s: log entry %llu skipped: beneath %s/%.*s, a directory the replay did not take for the log's (said above)",
			 p, (unsigned long long)idx, c->fs->mpt, (int)n, rel);
		return 1;
	}
	return 0;
}

/* ---- the objects a replay left not as the log has them ---- */
/* the sorted index of id in c->trouble, or where it would go */
static size_t trouble_at(const struct lp_ctx *c, uint64_t id)
{
	size_t lo = 0, hi = c->ntrouble;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->trouble[mid] < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

void famfs_lp_trouble_add(struct lp_ctx *c, uint64_t id)
{
	size_t i = trouble_at(c, id);

	if (i < c->ntrouble && c->trouble[i] == id)
		return;
	if (c->ntrouble == c->ctrouble) {
		size_t cap = c->ctrouble ? 2 * c->ctrouble : 16;
		uint64_t *t = realloc(c->trouble, cap * sizeof(*t));

		if (!t)		/* then a DELETE not here is a conflict */
			return;
		c->trouble = t;
		c->ctrouble = cap;
	}
	memmove(c->trouble + i + 1, c->trouble + i,
		(c->ntrouble - i) * sizeof(*c->trouble));
	c->trouble[i] = id;
	c->ntrouble++;
}

bool famfs_lp_trouble(const struct lp_ctx *c, uint64_t id)
{
	size_t i = trouble_at(c, id);

	return i < c->ntrouble && c->trouble[i] == id;
}

int famfs_lp_from_first(struct lp_ctx *c)
{
	c->restarts++;
	c->ntrouble = 0;	/* (what the log says is made again) */
	famfs_names_free(c->names);
	c->names = famfs_names_new();
	c->next = 0;
	c->skipped = UINT64_MAX;
	if (!c->names) {
		famfs_err("out of memory");
		return -ENOMEM;
	}
	return 0;
}
