// SPDX-License-Identifier: GPL-2.0
/*
 * logplay: make the mounted namespace match the log.  Idempotent: creates
 * what is missing, leaves what matches, reports conflicts (a file whose map
 * differs from the log, a path logged twice, a file where a directory
 * belongs, a directory of another user where the log has one: nothing
 * beneath it played) and skips corrupt entries.  On a client, and on a read-only
 * mount, files are created without write permission.  It holds the log
 * lock exclusively (famfs_fs_lock) while it plays, so replayers and the
 * master's creates on this host never act on one file at once.  Each entry
 * is judged by the log's namespace first (log/names.c); files are played
 * by playfile.c, directories by playdir.c, DELETE, RENAME and SETATTR by
 * nsplay.c, a replay from the first entry of a log with deletes or
 * renames by fullplay.c; what they share is lpbase.c.
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

static int play(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		bool ok, const char *reason)
{
	struct lp_ctx *c = arg;
	char why[FAMFS_NAMES_WHY_LEN];
	int type = le16toh(e->type), rc;
	uint64_t other, obj;
	unsigned long bad;

	c->verdict = FAMFS_NAMES_OK;
	if (c->stop && c->stop(c->stop_arg))
		return 1;		/* stopped before this entry */
	c->next = c->fs->walk_next;
	if (!ok && c->hold_bad && c->fs->walk_torn) {
		/* the follower: waited for, read again next round (replay.h) */
		c->next = idx;
		c->halted = true;
		if (c->held != idx) {
			c->held = idx;
			c->r->bad_entries++;
			famfs_err("%s: log entry %llu skipped for now: %s; it is read again every round (the master may still have been writing it), and nothing after it is played until it verifies",
				  c->fs->name, (unsigned long long)idx, reason);
		}
		return 1;
	}
	if (!ok) {
		/* reported as replayed no further than one not written whole
		 * here (it may be a DELETE other hosts read); one whose fields
		 * fail their checks no host applies (the master's namespace
		 * neither): never pending, so never reclaimed */
		if (c->fs->walk_torn && idx < c->skipped)
			c->skipped = idx;
		c->r->bad_entries++;
		famfs_err("%s: log entry %llu skipped: %s", c->fs->name,
			  (unsigned long long)idx, reason);
		/* it may have been a DELETE whose file's memory a later file
		 * has (reclaimed): fail closed for the cache lines */
		snprintf(why, sizeof(why),
			 "log entry %llu, skipped (it may be a DELETE)",
			 (unsigned long long)idx);
		famfs_lp_gone_unknown(c, why);
		return 0;
	}
	if (type == FAMFS_LOG_EXTEND)	/* a log segment, mapped by the walk */
		return 0;
	if (type == FAMFS_LOG_HOSTS)	/* the host table: .meta/.hosts */
		return famfs_lp_hosts(c, idx, e);
	if (type == FAMFS_LOG_DEVADD)
		return play_devadd(c, idx, e);
	if (type == FAMFS_LOG_RECLAIM) {
		/* memory the master may give again: nothing to do here;
		 * one that names what it may not is corrupt (R3) */
		rc = famfs_names_apply(c->names, idx, e, NULL, why);
		if (rc < 0) {
			famfs_err("out of memory");
			return rc;
		}
		if (rc) {
			c->r->bad_entries++;
			famfs_err("%s: log entry %llu skipped: a corrupt RECLAIM entry: %s",
				  c->fs->name, (unsigned long long)idx, why);
		}
		return 0;
	}
	/* a DELETE of an entry that is not a file or directory: corrupt,
	 * skipped as one that does not verify is (but read the same on
	 * every host: no host applies it, so the replayed position goes on) */
	if (famfs_delete_object_bad(c->fs, e, why, sizeof(why))) {
		char what[64];

		c->r->bad_entries++;
		famfs_err("%s: log entry %llu skipped: a corrupt DELETE entry: %s",
			  c->fs->name, (unsigned long long)idx, why);
		snprintf(what, sizeof(what), "log entry %llu, a corrupt DELETE",
			 (unsigned long long)idx);
		famfs_lp_gone_unknown(c, what);
		return 0;
	}
	/* judged against the log's namespace first: a path logged twice, a
	 * DELETE or RENAME of what is not there, are said and skipped */
	rc = famfs_names_apply(c->names, idx, e, &other, why);
	if (rc < 0) {
		famfs_err("out of memory");
		return rc;
	}
	c->verdict = rc;
	if (rc) {
		famfs_lp_refused(c, idx, e, rc, other, why);
		/* a file a round left unmade for this DELETE: every host
		 * keeps it (famfs_lp_round) */
		if (type == FAMFS_LOG_DELETE && !c->pass1)
			return famfs_lp_unskip(c, idx, e);
		return 0;
	}
	/* (fullplay.c's first pass too: a file made at the end of the log
	 * on a deleted file's memory is on reclaimed memory) */
	if (type == FAMFS_LOG_DELETE)
		famfs_lp_gone(c, e);
	if (c->pass1)		/* fullplay.c: the whole log first */
		return 0;
	/* the object a conflict or an error here leaves not as the log has
	 * it: remembered (lp_ctx.trouble) */
	bad = c->r->conflicts + c->r->errors;
	obj = idx;
	if (famfs_entry_is_ns(type)) {
		struct famfs_ns ns;

		famfs_ns_get(e, &ns);
		obj = ns.object;
		rc = famfs_lp_ns(c, idx, e);
	} else if (type == FAMFS_LOG_FILE && famfs_lp_ahead_skip(c, idx)) {
		rc = 0;		/* its DELETE follows (famfs_lp_round) */
	} else {
		rc = famfs_lp_make(c, idx, e);
	}
	if (c->r->conflicts + c->r->errors != bad)
		famfs_lp_trouble_add(c, obj);
	return rc;
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

static void member_list(uint32_t bits, char *list, size_t len)
{
	size_t n = 0;

	list[0] = '\0';
	for (unsigned i = 1; i < FAMFS_MAX_DEVS && n < len; i++)
		if (bits >> i & 1)
			n += (size_t)snprintf(list + n, len - n, "%s%u",
					      n ? ", " : "", i);
}

/* the files of one round not made on members of one kind (@why), said
 * once and cleared */
static void say_unmade(struct lp_ctx *c, uint64_t *files, uint64_t first,
		       uint32_t *members, const char *why)
{
	char list[FAMFS_MAX_DEVS * 4];

	if (!*files)
		return;
	member_list(*members, list, sizeof(list));
	famfs_err("%s: %llu file(s) of the log (the first at log entry %llu) on member(s) %s, which %s: not created",
		  c->fs->mpt, (unsigned long long)*files,
		  (unsigned long long)first, list, why);
	*files = 0;
	*members = 0;
}

static void round_end(struct lp_ctx *c)
{
	/* (the member's own line is said once per process, so not pointed
	 * at: famfs devices names both devices) */
	say_unmade(c, &c->wrong_files, c->wrong_first, &c->wrong_members,
		   "famfs.ko has as another device than the log's here (famfs devices names both; unmount and mount again to attach the log's)");
	say_unmade(c, &c->failed_files, c->failed_first, &c->failed_members,
		   "famfs.ko reports failed or removed");
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
	c->skipped = UINT64_MAX;
	c->held = UINT64_MAX;
	return (struct famfs_logplay *)c;
}

void famfs_logplay_free(struct famfs_logplay *lp)
{
	struct lp_ctx *c = (struct lp_ctx *)lp;

	if (!c)
		return;
	famfs_names_free(c->names);
	pathset_free(&c->refused);
	free(c->trouble);
	famfs_lp_ahead_free(c);
	famfs_lp_gone_free(c);
	free(c);
}

void famfs_logplay_drop_all(struct famfs_logplay *lp)
{
	((struct lp_ctx *)lp)->gone_all = true;
}

void famfs_logplay_hold_bad(struct famfs_logplay *lp)
{
	((struct lp_ctx *)lp)->hold_bad = true;
}

void famfs_logplay_held_from(struct famfs_logplay *lp,
			     const struct famfs_logplay *from)
{
	((struct lp_ctx *)lp)->held = ((const struct lp_ctx *)from)->held;
}

uint64_t famfs_logplay_restarts(const struct famfs_logplay *lp)
{
	return ((const struct lp_ctx *)lp)->restarts;
}

uint64_t famfs_logplay_next(const struct famfs_logplay *lp)
{
	return ((const struct lp_ctx *)lp)->next;
}

uint64_t famfs_logplay_replayed(const struct famfs_logplay *lp)
{
	const struct lp_ctx *c = (const struct lp_ctx *)lp;

	return c->skipped < c->next ? c->skipped : c->next;
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
	if (pathset_init(&c->refused, 4)) {
		famfs_err("out of memory");
		return -ENOMEM;
	}
	if (famfs_lp_from_first(c))
		return -ENOMEM;
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
	c->halted = false;
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
	if (!rc && c->refused.count && refusals_lifted(c) < 0)
		rc = -ENOMEM;		/* (said) */
	/* what the follower's replay from the first entry withheld for the
	 * entry it waits at: that replay again once past it (fullhold.c) */
	if (!rc && famfs_lp_hold_retry(c) < 0)
		rc = -ENOMEM;
	/* from the first entry of a log with deletes or renames: the whole
	 * log read first, the tree made what it says (fullplay.c); else each
	 * entry played in order on the tree the ones before it made */
	if (!rc && !c->next &&
	    le32toh(fs->sb->feature_incompat) & (FAMFS_FEATURE_INCOMPAT_DELETE |
						 FAMFS_FEATURE_INCOMPAT_RENAME))
		rc = famfs_lp_full(c, play);
	else if (!rc && !c->withheld)
		rc = famfs_lp_round(c, play);
	/* (withheld: the entry it waits at did not verify when the retry
	 * looked; were it to verify by now, a round would play past it on
	 * a tree without what was withheld -- the next round's retry) */
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

/* role/'s famfs_claim_catch_up: the log lock the claim holds is kept (a
 * hold for the replay: its lock and unlock are no-ops) */
static int claim_catch_up(struct famfs_fs *fs)
{
	struct famfs_logplay_result r;
	bool held = fs->held;
	int rc;

	fs->held = held || fs->locked;
	rc = famfs_logplay(fs, false, &r);
	fs->held = held;
	/* entries not played (a lost segment, an entry that failed): the
	 * tree still lags the log; a conflict is the log's own (said) */
	if (!rc && (r.bad_entries || r.errors))
		rc = -EIO;
	if (rc)
		famfs_err("%s: this instance took the master role, but its mount is not replayed to the end of the log the other instance wrote (see above): nothing is appended until a replay of it succeeds (tried again before each append; famfs logplay %s shows what stops it)",
			  fs->mpt, fs->mpt);
	else if (r.created_files || r.created_dirs || r.removed || r.moved ||
		 r.changed)
		famfs_note("%s: this instance took the master role: its mount replayed to the end of the log first (%lu files and %lu directories made, %lu removed, %lu moved, %lu changed)",
			   fs->mpt, r.created_files, r.created_dirs, r.removed,
			   r.moved, r.changed);
	return rc;
}

void famfs_replay_install(void)
{
	famfs_claim_catch_up = claim_catch_up;
}

/* the unit tests link the objects (a static link of libfamfs.a leaves
 * this file out unless main calls famfs_replay_install: review r39 3b) */
__attribute__((constructor)) static void claim_catch_up_install(void)
{
	famfs_replay_install();
}
