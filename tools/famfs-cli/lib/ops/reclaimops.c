// SPDX-License-Identifier: GPL-2.0
/*
 * RECLAIM (format revision 3, issue 29): the DELETEs of files whose memory
 * is still theirs (pending reclaim), and the master's RECLAIM entries that
 * make it free.  Which of them no host can still reach is not judged here
 * (the host table's, lib/role); this is the log's side.
 *
 * Memory a RECLAIM frees is zeroed before a new file gets it: every
 * create writes its whole allocation before the file is logged (fill.c:
 * the file's bytes, zeros after them -- through a scratch file, or a
 * small file's own pages through its own mapping), whatever the memory
 * held before.  Nothing is zeroed here.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ops/ops.h"

struct cand_ctx {
	struct famfs_fs *fs;
	bool nopath;		/* the DELETE's path not wanted (not read) */
	struct famfs_names *names;
	struct famfs_reclaim_cand *c;
	size_t n, cap;
	/* the walk's entries not written whole here (fs->walk_torn), as
	 * [from, to) slots, in log order */
	struct torn { uint64_t from, to; } *torn;
	size_t ntorn, ctorn;
	int err;
};

static int add(void *arg, uint64_t del, uint64_t object);

/* object (a log index) in an entry the walk found not written whole here */
static bool torn_at(const struct cand_ctx *c, uint64_t object)
{
	size_t lo = 0, hi = c->ntorn;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->torn[mid].to <= object)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->ntorn && c->torn[lo].from <= object;
}

static int apply(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		 bool ok, const char *reason)
{
	struct cand_ctx *c = arg;
	struct famfs_ns ns;
	int rc;

	(void)reason;
	/* what is refused or corrupt is not applied (every replay skips it);
	 * one not written whole here, only here (it may be a FILE entry
	 * every other host read) */
	if (!ok && c->fs->walk_torn) {
		if (c->ntorn == c->ctorn) {
			size_t cap = c->ctorn ? 2 * c->ctorn : 16;
			struct torn *t = realloc(c->torn, cap * sizeof(*t));

			if (!t)
				return -ENOMEM;
			c->torn = t;
			c->ctorn = cap;
		}
		c->torn[c->ntorn].from = idx;
		c->torn[c->ntorn++].to = c->fs->walk_next > idx ?
					 c->fs->walk_next : idx + 1;
	}
	if (!ok)
		return 0;
	rc = famfs_names_apply(c->names, idx, e, NULL, NULL);
	if (rc < 0)
		return -ENOMEM;
	/* a DELETE of a file whose FILE entry was not read here (not written
	 * whole here): every other host may have applied it -- a candidate
	 * with no ranges, held by whoever asks (fail closed); add() finds its
	 * FILE entry unread.  Refused for what every host reads alike (a
	 * path the file is not at, while it lives; an object no entry
	 * made): no host applies it, no RECLAIM may name it, and it holds
	 * nothing */
	if (rc == FAMFS_NAMES_REFUSED && le16toh(e->type) == FAMFS_LOG_DELETE &&
	    !famfs_ns_get(e, &ns) && ns.kind == FAMFS_LOG_FILE &&
	    torn_at(c, ns.object))
		return add(c, idx, ns.object);
	return 0;
}

/* the file's memory and where it was, from its FILE and DELETE entries */
static void fill(struct famfs_fs *fs, struct famfs_reclaim_cand *r,
		 bool nopath)
{
	struct famfs_extent rg[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry e;

	if (!nopath && !famfs_log_entry_at(fs, r->del, &e))
		snprintf(r->path, sizeof(r->path), "%s", famfs_entry_path(&e));
	/* verified: a FILE entry that does not read here gives no ranges to
	 * ask famfs.ko about, and a host holds what it cannot ask about */
	if (famfs_log_entry_checked(fs, r->object, &e)) {
		r->unread = true;
		return;
	}
	r->pages = famfs_entry_pages(&e);
	r->nranges = famfs_entry_ranges(&e, rg);
	for (unsigned i = 0; i < r->nranges; i++) {
		r->range[i].dev = famfs_entry_devindex(&e, i);
		r->range[i].offset = rg[i].offset;
		r->range[i].len = rg[i].len;
		r->bytes += rg[i].len;
	}
}

static int add(void *arg, uint64_t del, uint64_t object)
{
	struct cand_ctx *c = arg;
	struct famfs_reclaim_cand *r;

	if (c->n == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;

		r = realloc(c->c, cap * sizeof(*r));
		if (!r)
			return -ENOMEM;
		c->c = r;
		c->cap = cap;
	}
	r = &c->c[c->n++];
	memset(r, 0, sizeof(*r));
	r->del = del;
	r->object = object;
	fill(c->fs, r, c->nopath);
	return 0;
}

int famfs_reclaim_candidates_of(struct famfs_fs *fs,
				const struct famfs_names *names,
				struct famfs_reclaim_cand **out, size_t *n)
{
	struct cand_ctx c = { .fs = fs, .nopath = names != NULL };
	int rc;

	*out = NULL;
	*n = 0;
	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE))
		return 0;		/* no DELETE, nothing pending */
	if (!names) {
		c.names = famfs_names_new();
		if (!c.names) {
			famfs_err("%s: out of memory", fs->name);
			return -ENOMEM;
		}
		rc = famfs_log_walk(fs, apply, &c);
		free(c.torn);
		names = c.names;
	} else {
		rc = 0;
	}
	if (!rc)
		rc = famfs_names_pending(names, add, &c);
	famfs_names_free(c.names);
	if (rc) {
		if (rc == -ENOMEM)
			famfs_err("%s: out of memory", fs->name);
		free(c.c);
		return rc;
	}
	*out = c.c;
	*n = c.n;
	return 0;
}

int famfs_reclaim_candidates(struct famfs_fs *fs, struct famfs_reclaim_cand **out,
			     size_t *n)
{
	return famfs_reclaim_candidates_of(fs, NULL, out, n);
}

/* the bytes of the file of DELETE del */
static uint64_t bytes_of(struct famfs_fs *fs, uint64_t object)
{
	struct famfs_extent rg[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry e;
	uint64_t b = 0;

	if (famfs_log_entry_at(fs, object, &e))
		return 0;
	for (unsigned i = 0, k = famfs_entry_ranges(&e, rg); i < k; i++)
		b += rg[i].len;
	return b;
}

/* each of d[0..k) pending (a DELETE of a file, applied, not reclaimed) and
 * named once: 0, or -EINVAL (printed) */
static int recheck(struct famfs_fs *fs, const uint64_t *d, unsigned k,
		   uint64_t *bytes)
{
	*bytes = 0;
	for (unsigned i = 0; i < k; i++) {
		uint64_t obj;
		int st = famfs_names_delete_state(fs->cache_names, d[i], &obj);

		for (unsigned j = 0; j < i; j++)
			if (d[j] == d[i]) {
				famfs_err("%s: reclaim: DELETE %llu named twice",
					  fs->name, (unsigned long long)d[i]);
				return -EINVAL;
			}
		if (st) {
			famfs_err("%s: reclaim: log entry %llu is %s",
				  fs->name, (unsigned long long)d[i],
				  st > 0 ? "a DELETE whose memory was reclaimed already" :
				  "not a DELETE of a file that the log applied");
			return -EINVAL;
		}
		*bytes += bytes_of(fs, obj);
	}
	return 0;
}

/* one RECLAIM entry of d[0..k): 0 or -errno (printed) */
static int append_one(struct famfs_fs *fs, const uint64_t *d, unsigned k,
		      uint64_t *freed)
{
	char why[FAMFS_NAMES_WHY_LEN];
	struct famfs_log_entry e;
	uint64_t bytes;
	int rc;

	fs->cache_names_want = true;
	rc = famfs_fs_cache_ready(fs, "reclaim", "RECLAIM");
	if (!rc && !fs->cache_names)
		rc = -ENOMEM;
	if (!rc)
		rc = recheck(fs, d, k, &bytes);
	if (!rc)
		rc = famfs_entry_build_reclaim(&e, d, k);
	if (rc)
		return rc;
	rc = famfs_fs_append_judged(fs, &e, FAMFS_FEATURE_INCOMPAT_DELETE, why);
	if (rc == -EINVAL)
		famfs_err("%s: reclaim: %s", fs->name, why);
	if (rc)
		return rc;
	famfs_fs_cache_reclaimed(fs);
	if (freed)
		*freed += bytes;
	return 0;
}

int famfs_reclaim_append(struct famfs_fs *fs, const uint64_t *deletes,
			 unsigned n, uint64_t *freed)
{
	int rc;

	if (freed)
		*freed = 0;
	if (!n)
		return 0;
	rc = famfs_fs_writable(fs);
	if (!rc)
		rc = famfs_fs_lock(fs);
	if (rc)
		return rc;
	rc = famfs_reclaim_append_locked(fs, deletes, n, freed);
	famfs_fs_unlock(fs);
	return rc;
}

int famfs_reclaim_append_locked(struct famfs_fs *fs, const uint64_t *deletes,
				unsigned n, uint64_t *freed)
{
	int rc = 0;

	for (unsigned i = 0; !rc && i < n; i += FAMFS_RECLAIM_MAX) {
		unsigned k = n - i < FAMFS_RECLAIM_MAX ? n - i : FAMFS_RECLAIM_MAX;

		/* every one of them, before the first entry */
		if (!i) {
			uint64_t b;

			fs->cache_names_want = true;
			rc = famfs_fs_cache_ready(fs, "reclaim", "RECLAIM");
			for (unsigned j = 0; !rc && j < n; j += FAMFS_RECLAIM_MAX)
				rc = recheck(fs, deletes + j, n - j < FAMFS_RECLAIM_MAX ?
					     n - j : FAMFS_RECLAIM_MAX, &b);
			for (unsigned j = 0; !rc && j < n; j++)
				for (unsigned m = 0; m < j; m++)
					if (deletes[m] == deletes[j]) {
						famfs_err("%s: reclaim: DELETE %llu named twice",
							  fs->name,
							  (unsigned long long)deletes[j]);
						rc = -EINVAL;
						break;
					}
		}
		if (!rc)
			rc = append_one(fs, deletes + i, k, freed);
	}
	return rc;
}
