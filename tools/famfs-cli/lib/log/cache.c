// SPDX-License-Identifier: GPL-2.0
/*
 * The create cache of an open file system (struct famfs_fs): the
 * allocators and the logged paths as of a log index, brought up to the
 * log's end under the log lock before anything is allocated; and the
 * master's summary file that carries it from one process to the next
 * (summary.c).  Also the allocators built from the whole log at once.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/log.h"

/*
 * The create cache.  Every create used to rebuild the bitmap and look for
 * its path in the whole log: O(entries) each, so famfs cp of N files was
 * O(N^2).  Now an opening keeps both, built from the entries [0,
 * cache_next), and each create (under the log lock, so no entry is half
 * written) reads only what was appended since -- by itself, by mkdir or by
 * another process.  What this process allocates but does not log drops it.
 *
 * Between processes the master keeps the same in its summary file
 * (summary.c): a new process loads it when it can be trusted and reads
 * only the entries appended since it was written; else it is rebuilt from
 * the whole log, and written again after the create.
 */
void famfs_fs_cache_drop(struct famfs_fs *fs)
{
	if (fs->cache_alloc)
		famfs_alloc_free(fs->cache_alloc);
	free(fs->cache_alloc);
	famfs_summary_free(fs->cache_sum);
	famfs_names_free(fs->cache_names);
	fs->cache_alloc = NULL;
	fs->cache_sum = NULL;
	fs->cache_names = NULL;
	fs->cache_next = 0;
	fs->cache_unsaved = false;
	fs->cache_unparsed = fs->cache_past = UINT64_MAX;
	fs->cache_dirok_len = 0;
}

/* The paths from the namespace the log builds (names.c), not from the
 * summary's table: a log with deletes or renames (a table of first paths
 * cannot say what they did), or an opening that asked (famfs rm, mv,
 * chmod, chown judge objects, and a directory's contents) */
static bool want_names(const struct famfs_fs *fs)
{
	return fs->cache_names_want ||
	       le32toh(fs->sb->feature_incompat) & (FAMFS_FEATURE_INCOMPAT_DELETE |
						    FAMFS_FEATURE_INCOMPAT_RENAME);
}

/* A cache was just allocated: what the opening (fs/fs.c) and the append
 * (append.c), which are below this file, call to write it out and free
 * it */
static void cache_register(struct famfs_fs *fs)
{
	fs->cache_flush = famfs_fs_cache_flush;
	fs->cache_drop = famfs_fs_cache_drop;
}

/*
 * RECLAIM (issue 29): a RECLAIM the namespace n just applied frees the
 * memory of the files of the DELETEs it names: each FILE entry, read again
 * from the log, given back to a (famfs_alloc_release: its units, its
 * pages; nothing once a diverged log marked memory twice).  Every new
 * file's memory is written whole before the file is logged (ops/fill.c:
 * its bytes, zeros after them, scratch file or its own mapping), so
 * memory freed here is zeroed before a new file gets it (issue 15).
 */
static void reclaim_release(struct famfs_fs *fs, struct famfs_alloc *a,
			    const struct famfs_names *n)
{
	const uint64_t *obj;
	unsigned k = famfs_names_reclaimed(n, &obj);

	for (unsigned i = 0; i < k; i++) {
		struct famfs_log_entry fe;

		if (famfs_log_entry_at(fs, obj[i], &fe) == 0 &&
		    le16toh(fe.type) == FAMFS_LOG_FILE)
			famfs_alloc_release(a, &fe);
	}
}

void famfs_fs_cache_reclaimed(struct famfs_fs *fs)
{
	if (fs->cache_alloc && fs->cache_names)
		reclaim_release(fs, fs->cache_alloc, fs->cache_names);
}

/* the cache's namespace takes a valid entry: a RECLAIM frees memory, or
 * is corrupt (R3: nothing allocated, as for an entry that does not
 * parse); 0 or -ENOMEM */
static int cache_apply(struct famfs_fs *fs, uint64_t idx,
		       const struct famfs_log_entry *e)
{
	char why[FAMFS_NAMES_WHY_LEN];
	int rc = famfs_names_apply(fs->cache_names, idx, e, NULL, why);

	if (le16toh(e->type) != FAMFS_LOG_RECLAIM || rc < 0)
		return rc < 0 ? rc : 0;
	if (rc == FAMFS_NAMES_OK) {
		reclaim_release(fs, fs->cache_alloc, fs->cache_names);
	} else if (fs->cache_unparsed == UINT64_MAX) {
		fs->cache_unparsed = idx;
		snprintf(fs->cache_unparsed_why, sizeof(fs->cache_unparsed_why),
			 "a corrupt RECLAIM entry: %.120s", why);
	}
	return 0;
}

static int cache_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		       bool ok, const char *reason)
{
	struct famfs_fs *fs = arg;
	char why[FAMFS_REASON_LEN];
	int rc;

	fs->cache_next = fs->walk_next;
	fs->cache_last_idx = idx;
	fs->cache_last_crc = le32toh(e->crc);
	/* R3: refused, but what it owns is known: that stays used, and its
	 * path (if it is one) taken; not even that: no allocation at all */
	if (!ok && famfs_entry_owned_devs(e, idx, fs->sb, &fs->devs, why)) {
		if (fs->cache_unparsed == UINT64_MAX) {
			fs->cache_unparsed = idx;
			/* a compact run that does not verify comes as a
			 * zero entry: the walk's reason says what it is */
			snprintf(fs->cache_unparsed_why,
				 sizeof(fs->cache_unparsed_why), "%s",
				 famfs_fs_compact(fs) && reason[0] ? reason : why);
		}
		return 0;
	}
	rc = famfs_alloc_sync(fs->cache_alloc, &fs->devs);
	if (rc)
		return rc;
	/* (a DELETE frees nothing: the memory stays its FILE entry's) */
	famfs_alloc_mark(fs->cache_alloc, e);
	/* a file: it may be a prefix of the directory known to have none;
	 * a delete or rename may make or unmake any path */
	if (le16toh(e->type) == FAMFS_LOG_FILE ||
	    famfs_entry_is_ns(le16toh(e->type)))
		fs->cache_dirok_len = 0;
	if (fs->cache_names)
		/* what is refused is not applied (the replay says so) */
		return ok ? cache_apply(fs, idx, e) : 0;
	if (strnlen(e->fm.path, sizeof(e->fm.path)) == sizeof(e->fm.path) ||
	    le16toh(e->type) == FAMFS_LOG_DEVADD ||
	    le16toh(e->type) == FAMFS_LOG_EXTEND ||
	    le16toh(e->type) == FAMFS_LOG_RECLAIM ||
	    le16toh(e->type) == FAMFS_LOG_HOSTS ||
	    famfs_entry_is_ns(le16toh(e->type)))	/* no path of its own */
		return 0;
	/* a path logged twice: the first entry is the one that counts */
	return famfs_summary_add(fs->cache_sum, fs, e->fm.path, idx);
}

/* R4: the entries past next_index keep their memory; one past next + 1
 * stops the master */
static int cache_past(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct famfs_fs *fs = arg;

	(void)reason;
	if (idx > famfs_log_next(fs->log) && fs->cache_past == UINT64_MAX)
		fs->cache_past = idx;
	if (famfs_alloc_sync(fs->cache_alloc, &fs->devs))
		return -ENOMEM;
	if (ok || !famfs_entry_owned_devs(e, idx, fs->sb, &fs->devs, NULL))
		famfs_alloc_mark(fs->cache_alloc, e);
	return 0;
}

/* 0 if the master may allocate from the cache, else -EUCLEAN (printed:
 * "who: what: ...") */
static int cache_usable(struct famfs_fs *fs, const char *who, const char *what)
{
	const char *fsck = fs->mpt[0] ? fs->mpt : fs->name;

	if (fs->cache_unparsed != UINT64_MAX) {
		famfs_err("%s: %s: log entry %llu cannot be parsed (%s), so the memory it owns is unknown; nothing is allocated until the log is repaired (run famfs fsck %s)",
			  who, what, (unsigned long long)fs->cache_unparsed,
			  fs->cache_unparsed_why, fsck);
		return -EUCLEAN;
	}
	if (fs->cache_past != UINT64_MAX) {
		famfs_err("%s: %s: log entry %llu is a valid committed entry past next_index %llu: the log header is damaged (run famfs fsck %s)",
			  who, what, (unsigned long long)fs->cache_past,
			  (unsigned long long)famfs_log_next(fs->log), fsck);
		return -EUCLEAN;
	}
	return 0;
}

/* The master's summary, if it can be trusted: bitmap and paths as of its
 * index, the rest read from the log by the caller.  The slots past
 * next_index were looked at when it was built (R4); since then only the
 * master wrote, at next_index, and roll_forward and the append's tail
 * check see a header that lost entries. */
static bool cache_from_summary(struct famfs_fs *fs)
{
	char why[FAMFS_REASON_LEN];
	uint64_t next;

	snprintf(why, sizeof(why), "%s", fs->rw && fs->master ?
		 "a file system with member devices (the summary holds one device's bitmap)" :
		 "not the master");
	if (want_names(fs))
		snprintf(why, sizeof(why), "%s",
			 "the paths come from the log's namespace (deletes or renames, or asked for)");
	if (!fs->rw || !fs->master || famfs_fs_multidev(fs) || want_names(fs) ||
	    famfs_summary_load(fs, &fs->cache_sum, &fs->cache_alloc->dev[0],
			       &fs->cache_alloc->pa[0], &next, why)) {
		famfs_summary_stats.rebuilds++;
		snprintf(famfs_summary_stats.last_reason,
			 sizeof(famfs_summary_stats.last_reason), "%s", why);
		return false;
	}
	fs->cache_alloc->ndevs = 1;
	fs->cache_next = next;
	fs->cache_last_crc = famfs_summary_last_crc(fs->cache_sum);
	fs->cache_last_idx = famfs_summary_last(fs->cache_sum);
	fs->tail_checked = true;
	return true;
}

int famfs_fs_cache_update(struct famfs_fs *fs)
{
	static bool rebuilding;
	bool from_summary = false;
	uint64_t next;
	int rc;

	/* R4: an entry at next_index is committed first, so that the walk
	 * below takes its memory and path as any other's */
	rc = famfs_log_roll_forward(fs);
	if (rc < 0)
		return rc;
	next = famfs_log_next(fs->log);

	if (fs->cache_alloc && next < fs->cache_next)
		famfs_fs_cache_drop(fs);	/* a log that shrank: start over */
	/* the paths as the namespace has them, from the first entry */
	if (fs->cache_alloc && want_names(fs) && !fs->cache_names)
		famfs_fs_cache_drop(fs);
	if (!fs->cache_alloc) {
		fs->cache_next = 0;
		fs->cache_unparsed = fs->cache_past = UINT64_MAX;
		fs->cache_alloc = calloc(1, sizeof(*fs->cache_alloc));
		if (!fs->cache_alloc) {
			famfs_err("%s: out of memory", fs->name);
			return -ENOMEM;
		}
		cache_register(fs);
		from_summary = cache_from_summary(fs);
		if (!from_summary) {
			if (want_names(fs))
				fs->cache_names = famfs_names_new();
			else
				fs->cache_sum = famfs_summary_new(fs, next);
			rc = fs->cache_sum || fs->cache_names ?
			     famfs_alloc_init(fs->cache_alloc, fs->sb) : -ENOMEM;
			if (rc) {
				free(fs->cache_alloc);
				fs->cache_alloc = NULL;
				famfs_fs_cache_drop(fs);
				return rc;
			}
			/* once per build: what lies past next_index (R4) */
			rc = famfs_log_walk_past(fs, cache_past, fs);
			if (rc)
				goto fail;
			/* the append under this lock need not scan the tail
			 * again */
			if (fs->cache_past == UINT64_MAX)
				fs->tail_checked = true;
		}
	}
	rc = famfs_log_walk_range(fs, fs->cache_next, UINT64_MAX, cache_entry, fs);
	if (rc == -EBADMSG && from_summary && !rebuilding) {
		/* a damaged page of the summary (removed): from the log */
		famfs_fs_cache_drop(fs);
		rebuilding = true;
		rc = famfs_fs_cache_update(fs);
		rebuilding = false;
		return rc;
	}
fail:
	if (rc == -ENOMEM)
		famfs_err("%s: out of memory", fs->name);
	else if (rc == -EBADMSG)	/* the summary's (a walk never says so) */
		famfs_err("%s: the create cache's path table is damaged",
			  fs->name);
	else if (rc)	/* the walk's (said above: which slots, why) */
		famfs_err("%s: the log cannot be read to its end for the create cache: %s; nothing is allocated",
			  fs->name, strerror(-rc));
	if (rc)
		famfs_fs_cache_drop(fs);
	return rc;
}

static int cache_ready(struct famfs_fs *fs, const char *who,
			const char *what, bool role_checked)
{
	int rc = 0;

	if (!fs->locked) {
		famfs_err("%s: %s: the log lock is not held (a bug: nothing is allocated without it)",
			  who, what);
		return -ENOLCK;
	}
	/* the role first: one that does not hold it (a clone of the master)
	 * would write memory the holder may have just given a file */
	if (!role_checked)
		rc = famfs_master_check(fs);
	if (!rc)
		rc = famfs_fs_cache_update(fs);
	if (!rc)
		rc = cache_usable(fs, who, what);
	/* R4 before any memory is taken and written: a cache from the
	 * summary did not look past next_index */
	if (!rc)
		rc = famfs_log_tail_check(fs);
	return rc;
}

int famfs_fs_cache_ready(struct famfs_fs *fs, const char *who,
			 const char *what)
{
	return cache_ready(fs, who, what, false);
}

int famfs_fs_cache_ready_checked(struct famfs_fs *fs, const char *who,
				 const char *what)
{
	return cache_ready(fs, who, what, true);
}

/* After an append of this process: the summary file is to say so, when
 * the opening closes (famfs_fs_cache_flush) */
static void cache_save(struct famfs_fs *fs)
{
	if (fs->cache_sum && fs->master)
		fs->cache_unsaved = true;
}

/* as of cache_next (the log may be further on by then: the next load
 * replays the rest), only if nothing stops creates; under the log lock */
static void save_locked(struct famfs_fs *fs)
{
	if (fs->cache_sum && fs->cache_next <= famfs_log_next(fs->log))
		famfs_summary_save(fs->cache_sum, fs, &fs->cache_alloc->dev[0],
				   fs->cache_alloc->pa[0],
				   fs->cache_next, fs->cache_last_idx,
				   fs->cache_last_crc);
}

void famfs_fs_cache_flush(struct famfs_fs *fs)
{
	if (!fs->cache_unsaved || !fs->cache_sum || !fs->cache_alloc ||
	    famfs_fs_multidev(fs))
		return;
	fs->cache_unsaved = false;
	if (fs->cache_unparsed != UINT64_MAX || fs->cache_past != UINT64_MAX ||
	    famfs_fs_lock(fs))
		return;
	save_locked(fs);
	famfs_fs_unlock(fs);
}

void famfs_fs_cache_remake(struct famfs_fs *fs)
{
	famfs_summary_remove(fs);
	famfs_fs_cache_drop(fs);
	if (!fs->master || famfs_fs_cache_update(fs))
		goto out;
	if (fs->cache_unparsed == UINT64_MAX && fs->cache_past == UINT64_MAX)
		save_locked(fs);
out:
	famfs_fs_cache_drop(fs);
}

/* After this opening's create of norm was appended: the cache knows the
 * allocation already; now the entry and its path too (dropped if another
 * entry came first) */
void famfs_fs_cache_logged(struct famfs_fs *fs)
{
	struct famfs_log_entry le;
	int n;

	if (!fs->cache_alloc || !fs->cache_names ||
	    fs->last_append != fs->cache_next ||
	    (n = famfs_log_entry_span(fs, fs->cache_next, &le)) <= 0 ||
	    cache_apply(fs, fs->cache_next, &le) < 0) {
		famfs_fs_cache_drop(fs);
		return;
	}
	fs->cache_last_idx = fs->cache_next;
	fs->cache_last_crc = le32toh(le.crc);
	fs->cache_next += (unsigned)n;
	fs->cache_dirok_len = 0;
}

void famfs_fs_cache_created(struct famfs_fs *fs, const char *norm)
{
	if (fs->cache_names) {
		famfs_fs_cache_logged(fs);
		return;
	}
	if (fs->last_append == fs->cache_next &&
	    !famfs_summary_add(fs->cache_sum, fs, norm, fs->cache_next)) {
		struct famfs_log_entry le;

		fs->cache_last_idx = fs->cache_next;
		fs->cache_next = famfs_log_next(fs->log);
		/* a prefix of the directory known to have no file: no more */
		if (!strncmp(fs->cache_dirok, norm, strlen(norm)) &&
		    (fs->cache_dirok[strlen(norm)] == '/' ||
		     !fs->cache_dirok[strlen(norm)]))
			fs->cache_dirok_len = 0;
		/* what the summary's check reads back (compact: decoded) */
		if (famfs_log_entry_at(fs, fs->cache_last_idx, &le) == 0) {
			fs->cache_last_crc = le32toh(le.crc);
			cache_save(fs);
		} else {
			famfs_fs_cache_drop(fs);
		}
	} else {
		famfs_fs_cache_drop(fs);
	}
}

/* After famfs mkdir appended: the master's summary follows, if there is a
 * trusted one (never a rebuild from the log here: mkdir needs no cache),
 * so that the next create does not read those entries again */
void famfs_fs_cache_follow(struct famfs_fs *fs)
{
	if (!fs->rw || !fs->master)
		return;
	if (!fs->cache_alloc) {
		if (want_names(fs))	/* no summary to follow */
			return;
		fs->cache_alloc = calloc(1, sizeof(*fs->cache_alloc));
		if (!fs->cache_alloc)
			return;
		cache_register(fs);
		fs->cache_unparsed = fs->cache_past = UINT64_MAX;
		if (!cache_from_summary(fs)) {
			free(fs->cache_alloc);
			fs->cache_alloc = NULL;
			fs->cache_next = 0;
			return;
		}
	}
	if (famfs_log_walk_range(fs, fs->cache_next, UINT64_MAX, cache_entry, fs)) {
		famfs_fs_cache_drop(fs);
		return;
	}
	cache_save(fs);
}

/* ---- the allocators from the whole log (df, fsck, tests) ---- */
struct mark_ctx {
	struct famfs_bitmap *b;
	const struct famfs_superblock *sb;
	const struct famfs_logdevs *devs;
};

static int mark_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct mark_ctx *c = arg;

	(void)reason;
	/* R3: a refused entry whose extents parse keeps them */
	if (ok || !famfs_entry_owned_devs(e, idx, c->sb, c->devs, NULL))
		famfs_bitmap_mark(c->b, e);
	return 0;
}

static int build_primary(struct famfs_fs *fs, struct famfs_bitmap *b);

int famfs_bitmap_build(struct famfs_fs *fs, struct famfs_bitmap *b)
{
	struct mark_ctx c = { b, fs->sb, &fs->devs };
	int rc;

	/* RECLAIMs free memory: the allocators' replay (pages too) */
	if (le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE)
		return build_primary(fs, b);
	rc = famfs_bitmap_init(b, fs->sb);

	if (rc)
		return rc;
	/* an entry that cannot be parsed owns nothing we could mark (the
	 * master refuses to allocate then, ops.c); entries past next_index
	 * keep their memory (R4) */
	rc = famfs_log_walk(fs, mark_entry, &c);
	if (!rc)
		rc = famfs_log_walk_past(fs, mark_entry, &c);
	if (rc)
		famfs_bitmap_free(b);
	return rc;
}

struct build_ctx {
	struct famfs_fs *fs;
	struct famfs_alloc *a;
	struct famfs_names *names;	/* INCOMPAT_DELETE: RECLAIMs free */
	bool past;			/* R4's walk: nothing applied */
};

/* Replay: the devices as the log adds them, each entry's memory on its
 * devices; R3 as famfs_bitmap_build; a RECLAIM's files' memory freed */
static int build_mark(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct build_ctx *c = arg;
	struct famfs_fs *fs = c->fs;

	(void)reason;
	if (famfs_alloc_sync(c->a, &fs->devs))
		return -ENOMEM;
	if (ok || !famfs_entry_owned_devs(e, idx, fs->sb, &fs->devs, NULL))
		famfs_alloc_mark(c->a, e);
	if (ok && c->names && !c->past) {
		int rc = famfs_names_apply(c->names, idx, e, NULL, NULL);

		if (rc < 0)
			return rc;
		if (rc == FAMFS_NAMES_OK && le16toh(e->type) == FAMFS_LOG_RECLAIM)
			reclaim_release(fs, c->a, c->names);
	}
	return 0;
}

int famfs_alloc_build(struct famfs_fs *fs, struct famfs_alloc *a)
{
	struct build_ctx c = { fs, a, NULL, false };
	int rc = famfs_alloc_init(a, fs->sb);

	if (rc)
		return rc;
	if (le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE &&
	    !(c.names = famfs_names_new()))
		rc = -ENOMEM;
	if (!rc)
		rc = famfs_log_walk(fs, build_mark, &c);
	c.past = true;
	if (!rc)
		rc = famfs_log_walk_past(fs, build_mark, &c);
	if (!rc)
		rc = famfs_alloc_sync(a, &fs->devs);
	famfs_names_free(c.names);
	if (rc) {
		if (rc == -ENOMEM)
			famfs_err("%s: out of memory for the allocators", fs->name);
		famfs_alloc_free(a);
	}
	return rc;
}

/* famfs_bitmap_build of a log with RECLAIMs: the primary's unit bitmap of
 * famfs_alloc_build (a shared unit used while a page of it is) */
static int build_primary(struct famfs_fs *fs, struct famfs_bitmap *b)
{
	struct famfs_alloc *a = malloc(sizeof(*a));
	int rc;

	if (!a)
		return -ENOMEM;
	rc = famfs_alloc_build(fs, a);
	if (!rc) {
		*b = a->dev[0];
		memset(&a->dev[0], 0, sizeof(a->dev[0]));
		famfs_alloc_free(a);
	}
	free(a);
	return rc;
}
