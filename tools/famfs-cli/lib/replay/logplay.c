// SPDX-License-Identifier: GPL-2.0
/*
 * logplay: make the mounted namespace match the log.  Idempotent: creates
 * what is missing, leaves what matches, reports conflicts (a file whose map
 * differs from the log, a path logged twice, a file where a directory
 * belongs, a directory of another user where the log has one: nothing
 * beneath it played) and skips corrupt entries.  On a client, and on a read-only
 * mount, files are created without write permission.  It holds the log
 * lock exclusively (famfs_fs_lock) while it plays, so replayers and the
 * master's creates on this host never act on one file at once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "replay/replay.h"


void (*famfs_logplay_mkdir_hook)(int pfd, const char *name);


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
int famfs_lp_parent_fd(struct lp_ctx *c, const char *p, const char *rel,
		     size_t len, uint64_t idx, const char **name)
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
	if (fd < 0) {
		if (!(c->dry && fd == -ENOENT)) {
			c->r->errors++;
			famfs_err("%s: log entry %llu not played: %s", p,
				  (unsigned long long)idx,
				  dirset_beneath_why(fd));
		}
		return fd;
	}
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

/* create missing ancestors of rel; -ENOTDIR if one is not a directory */
int famfs_lp_ensure_parents(struct lp_ctx *c, const char *rel, uint64_t idx)
{
	char p[PATH_MAX], r[PATH_MAX];
	const char *name;
	struct stat st;
	bool psgid;
	int pfd, rc;

	for (const char *s = strchr(rel, '/'); s; s = strchr(s + 1, '/')) {
		size_t n = (size_t)(s - rel);
		int t = famfs_lp_known_type(c, rel, n, &psgid);

		if (t == DT_DIR)
			continue;
		prefix(r, rel, n);
		if (famfs_join(p, sizeof(p), c->fs->mpt, r))
			return -ENAMETOOLONG;
		if (t != 0 && fstatat(c->rootfd, r, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			if (S_ISDIR(st.st_mode))
				continue;
			CONFLICT(c, "%s: log entry %llu (%s): a %s where a directory belongs",
				 p, (unsigned long long)idx, rel,
				 S_ISLNK(st.st_mode) ? "symbolic link (not followed)" : "file");
			return -ENOTDIR;
		}
		if (c->dry) {
			printf("would create directory %s\n", p);
			c->r->created_dirs++;
			continue;
		}
		pfd = famfs_lp_parent_fd(c, p, r, n, idx, &name);
		if (pfd < 0)
			return pfd;
		rc = mkdirat(pfd, name, 0755) ? -errno : 0;
		if (rc == -EEXIST)
			continue;	/* made meanwhile */
		if (rc) {
			c->r->errors++;
			famfs_err("%s: mkdir: %s", p, strerror(-rc));
			return rc;
		}
		if (t == 0 && c->ds_ok)	/* empty; S_ISGID from its parent */
			dirset_note(&c->ds, r, DT_DIR, true, psgid);
		c->r->created_dirs++;
	}
	return 0;
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
 * map, 0 if it has none, -1 if another one (reported) */
int famfs_lp_check_map(struct lp_ctx *c, int fd, const char *p, uint64_t idx,
		     const struct famfs_fmap *want)
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
	free(have);
	if (rc < 0)
		CONFLICT(c, "%s: its map differs from log entry %llu",
			 p, (unsigned long long)idx);
	return rc;
}

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
		if (fchown(fd, uid, gid) && !geteuid())
			famfs_warn("%s: chown: %s", p, strerror(errno));
		did = true;
	}
	if ((st.st_mode & 07777) != mode || did) {
		if (fchmod(fd, mode))
			famfs_warn("%s: chmod: %s", p, strerror(errno));
		did = true;
	}
	if (did)
		c->r->changed++;
}

/* an existing regular file rel: counted if it has the logged map */
static void file_there(struct lp_ctx *c, const char *p, const char *rel,
		       uint64_t idx, const struct famfs_fmap *want,
		       const struct famfs_log_entry *e)
{
	int fd = dirset_open_beneath(c->rootfd, rel, strlen(rel),
				     O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0) {
		c->r->errors++;
		famfs_err("%s: %s", p, dirset_beneath_why(fd));
		return;
	}
	rc = famfs_lp_check_map(c, fd, p, idx, want);
	/* fullplay.c: a SETATTR changed them since it was made */
	if (rc > 0 && c->fix_attrs && !c->dry)
		fix_attrs(c, fd, p, e);
	close(fd);
	if (rc > 0)
		c->r->present++;
	else if (rc == 0)
		CONFLICT(c, "%s: a file without a famfs map is already there (log entry %llu); not given the memory, since whoever made it may hold it open: remove it and run famfs logplay again",
			 p, (unsigned long long)idx);
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
	bool psgid, own, mod;
	struct stat st;
	int fd, rc, t;

	famfs_fmap_from_entry(e, &want);
	why = famfs_fmap_needs_v2(&want);
	ioc = famfs_fmap_multidev(&want) ? "MAP_CREATE_V3" :
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
	if (t == DT_REG) {
		file_there(c, p, rel, idx, &want, e);
		return 0;
	}
	if (t > 0) {
		CONFLICT(c, "%s: log entry %llu is a file, but a %s is there",
			 p, (unsigned long long)idx,
			 t == DT_DIR ? "directory" : "non-file");
		return 0;
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
	fd = openat(pfd, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		    mod ? mode : 0600);
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
	if (!own && fchown(fd, le32toh(e->fm.uid), le32toh(e->fm.gid)) && !geteuid())
		famfs_warn("%s: chown: %s", p, strerror(errno));
	if (!mod && fchmod(fd, mode))
		famfs_warn("%s: chmod: %s", p, strerror(errno));
	rc = famfs_fmap_create(fd, &want);
	if (rc == 0) {
		c->r->created_files++;
		close(fd);
		return 0;
	}
	if (rc == -ENOTTY && why) {
		c->r->errors++;
		unlinkat(pfd, name, 0);
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
	if (unlinkat(pfd, name, 0) == 0)
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

/* A member the master added: attached before the entries after it (the
 * files on it) are played.  Not on this host: said (its uuid), and the
 * files on it fail to map (ENODEV) until a later logplay finds it (a
 * follower looks for it every round: follow.c). */
static int play_devadd(struct lp_ctx *c, uint64_t idx,
		       const struct famfs_log_entry *e)
{
	const struct famfs_clog_devadd *d = famfs_entry_devadd(e);
	char u[37];
	int rc;

	if (c->dry) {
		famfs_uuid_str(d->dev_uuid, u);
		printf("would attach member %u (device uuid %s)\n",
		       le32toh(d->index), u);
		return 0;
	}
	/* attaches every member found (a later one missing does not keep
	 * this one out): only this entry's own member counts here */
	rc = famfs_fs_attach_members(c->fs, NULL, 0);
	if (rc && famfs_mount_dev_attached(c->fs->mpt, le32toh(d->index)) == 1)
		rc = 0;
	if (rc) {
		c->r->errors++;
		famfs_uuid_str(d->dev_uuid, u);
		famfs_err("%s: log entry %llu adds member %u (device uuid %s), which cannot be attached here; files on it are not created",
			  c->fs->mpt, (unsigned long long)idx,
			  le32toh(d->index), u);
	}
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

static int play(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		bool ok, const char *reason)
{
	struct lp_ctx *c = arg;
	char why[FAMFS_NAMES_WHY_LEN];
	int type = le16toh(e->type), rc;
	uint64_t other;

	if (c->stop && c->stop(c->stop_arg))
		return 1;		/* stopped before this entry */
	c->next = c->fs->walk_next;
	if (!ok) {
		c->r->bad_entries++;
		famfs_err("%s: log entry %llu skipped: %s", c->fs->name,
			  (unsigned long long)idx, reason);
		return 0;
	}
	if (type == FAMFS_LOG_EXTEND)	/* a log segment, mapped by the walk */
		return 0;
	if (type == FAMFS_LOG_DEVADD)
		return play_devadd(c, idx, e);
	/* judged against the log's namespace first: a path logged twice, a
	 * DELETE or RENAME of what is not there, are said and skipped */
	rc = famfs_names_apply(c->names, idx, e, &other, why);
	if (rc < 0) {
		famfs_err("out of memory");
		return rc;
	}
	if (rc) {
		famfs_lp_refused(c, idx, e, rc, other, why);
		return 0;
	}
	if (c->pass1)		/* fullplay.c: the whole log first */
		return 0;
	if (famfs_entry_is_ns(type))
		return famfs_lp_ns(c, idx, e);
	return famfs_lp_make(c, idx, e);
}

/*
 * A round's view of the namespace: the mount root (paths are opened
 * relative to it) and the names read from it (replay.h), fresh each
 * round: under --follow others change the tree between rounds.
 */
static int round_start(struct lp_ctx *c)
{
	c->pfd = -1;
	c->rootfd = open(c->fs->mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (c->rootfd < 0) {
		int rc = -errno;

		famfs_err("%s: %s", c->fs->mpt, strerror(errno));
		return rc;
	}
	c->ds_ok = !dirset_init(&c->ds, c->rootfd);
	c->umask = umask(022);
	umask(c->umask);
	c->euid = geteuid();
	c->egid = getegid();
	return 0;
}

static void round_end(struct lp_ctx *c)
{
	if (c->ds_ok)
		dirset_free(&c->ds);
	c->ds_ok = false;
	if (c->pfd >= 0)
		close(c->pfd);
	c->pfd = -1;
	if (c->rootfd >= 0)
		close(c->rootfd);
	c->rootfd = -1;
}

void famfs_lp_ds_off(struct lp_ctx *c)
{
	if (c->ds_ok)
		dirset_free(&c->ds);
	c->ds_ok = false;
}

struct famfs_logplay *famfs_logplay_new(uint64_t expect)
{
	struct lp_ctx *c = calloc(1, sizeof(*c));

	(void)expect;
	if (!c || !(c->names = famfs_names_new())) {
		free(c);
		famfs_err("out of memory");
		return NULL;
	}
	if (pathset_init(&c->refused, 4)) {
		famfs_names_free(c->names);
		free(c);
		famfs_err("out of memory");
		return NULL;
	}
	c->lost = UINT64_MAX;
	return (struct famfs_logplay *)c;
}

void famfs_logplay_free(struct famfs_logplay *lp)
{
	struct lp_ctx *c = (struct lp_ctx *)lp;

	if (!c)
		return;
	famfs_names_free(c->names);
	pathset_free(&c->refused);
	free(c);
}

uint64_t famfs_logplay_next(const struct famfs_logplay *lp)
{
	return ((const struct lp_ctx *)lp)->next;
}

/*
 * A directory refused in an earlier round (dir_there) that is gone now, or
 * that the replay would take now (root's, the logged owner's or its own:
 * the administrator did what the conflict said, or famfs logplay made it):
 * the entries skipped beneath it were consumed, so the replay starts again
 * from the first entry -- a whole replay is idempotent, what is there as
 * the log has it counts as present.  1 if so (and the refusals forgotten).
 */
static int refusals_lifted(struct lp_ctx *c)
{
	struct famfs_log_entry e;
	struct stat st;
	size_t i;

	for (i = 0; i < c->refused.cap; i++) {
		const struct pathset_item *it = &c->refused.slots[i];

		if (!it->path)
			continue;
		if (fstatat(c->rootfd, it->path, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT)
				break;
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		if (!st.st_uid || st.st_uid == c->euid ||
		    (!famfs_log_entry_at(c->fs, it->idx, &e) &&
		     st.st_uid == le32toh(e.fm.uid)))
			break;
	}
	if (i == c->refused.cap)
		return 0;
	pathset_free(&c->refused);
	famfs_names_free(c->names);
	c->names = famfs_names_new();
	if (pathset_init(&c->refused, 4) || !c->names)
		return -ENOMEM;
	c->next = 0;
	return 1;
}

int famfs_logplay_more(struct famfs_logplay *lp, struct famfs_fs *fs,
		       bool dry_run, struct famfs_logplay_result *r,
		       bool (*stop)(void *arg), void *stop_arg)
{
	struct lp_ctx *c = (struct lp_ctx *)lp;
	int rc;

	if (!fs->mpt[0]) {
		famfs_err("%s: logplay needs a mounted file system", fs->name);
		return -EINVAL;
	}
	c->fs = fs;
	c->r = r;
	c->dry = dry_run;
	c->stop = stop;
	c->stop_arg = stop_arg;
	/*
	 * The log lock, exclusive: a create (mkfile, cp) on the master's own
	 * mount and another replayer (mount -o follow beside a manual famfs
	 * logplay) could otherwise act on the same new file in between: both
	 * create it, one maps it, the other's MAP_CREATE fails.  (On a client
	 * the lock is local and never contended by the master.)
	 */
	rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	rc = round_start(c);
	if (!rc && c->refused.count && refusals_lifted(c) < 0) {
		famfs_err("out of memory");
		rc = -ENOMEM;
	}
	/* from the first entry of a log with deletes or renames: the whole
	 * log read first, the tree made what it says (fullplay.c); else each
	 * entry played in order on the tree the ones before it made */
	if (!rc && !c->next &&
	    le32toh(fs->sb->feature_incompat) & (FAMFS_FEATURE_INCOMPAT_DELETE |
						 FAMFS_FEATURE_INCOMPAT_RENAME))
		rc = famfs_lp_full(c, play);
	else if (!rc)
		rc = famfs_log_walk_range(fs, c->next, UINT64_MAX, play, c);
	/* a segment not mapped here (its EXTEND entry damaged, or its
	 * .meta/.logK unusable): what could be read is played, the rest
	 * reported once (a round of --follow tries again) as corrupt */
	if (rc == -ENXIO && fs->walk_lost != UINT64_MAX) {
		if (c->lost != fs->walk_lost) {
			c->lost = fs->walk_lost;
			r->bad_entries++;
			famfs_err("%s: log entries from slot %llu on not played: they are in a log segment that cannot be read here (see above); entries after a lost segment cannot be read (famfs fsck)",
				  fs->name, (unsigned long long)fs->walk_lost);
		}
		rc = 0;
	}
	round_end(c);
	famfs_fs_unlock(fs);
	c->fs = NULL;
	c->r = NULL;
	return rc == 1 ? 0 : rc;
}

int famfs_logplay(struct famfs_fs *fs, bool dry_run,
		  struct famfs_logplay_result *r)
{
	struct famfs_logplay *lp;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!fs->mpt[0]) {
		famfs_err("%s: logplay needs a mounted file system", fs->name);
		return -EINVAL;
	}
	lp = famfs_logplay_new(famfs_log_next(fs->log));
	if (!lp)
		return -ENOMEM;
	rc = famfs_logplay_more(lp, fs, dry_run, r, NULL, NULL);
	famfs_logplay_free(lp);
	return rc;
}
