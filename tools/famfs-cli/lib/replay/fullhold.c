// SPDX-License-Identifier: GPL-2.0
/*
 * What a replay from the first entry (fullplay.c) does not make: no host
 * ever sees another file's bytes.
 *
 * With the DELETE bit, a DELETE this host cannot read leaves the file it
 * deleted alive in the namespace pass 1 built -- and that file's memory
 * may have been reclaimed (every other host was past the DELETE) and
 * given to a newer file: made, it would show the newer file's bytes (or
 * its MAP_CREATE meet the newer file's map).  Which entry that did not
 * verify was a DELETE is not known, and a DELETE only names an object an
 * earlier entry made: so no object whose entry is below the last entry
 * pass 1 skipped is made; and after a lost segment (nothing after it
 * read: any DELETE may be there) none at all.  A directory held so is
 * made only as the way to what a later entry made beneath it: the
 * replayer's, 0700, its mode and owner not given (a later replay that
 * does not hold it gives them).  Without the DELETE bit no entry deletes
 * anything: what could be read is made, as before.
 *
 * A follower waits at such an entry (or lost segment) instead: once it
 * can read past it, the replay from the first entry is run again
 * (famfs_lp_hold_retry), which makes what was held for it.
 *
 * And, whatever the bits (a corrupt log): two live files whose memory
 * overlaps are not made, neither of them.
 *
 * Each object held is said once, with the reason -- the first
 * FAMFS_HOLD_SAID of them, then one line with the count (a lost segment
 * in a big log holds every object) --; the replay counts it
 * (famfs_logplay_result.withheld; an overlap also as a conflict).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

struct range {
	uint64_t off, end, id;
	unsigned dev;
};

struct ranges {
	const struct lp_hold *h;
	struct lp_ctx *c;
	struct range *r;
	size_t n, cap;
	int rc;
};

static int by_place(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

static int by_id(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* the ranges of each live file not held already */
static int file_ranges(void *arg, const char *path,
		       const struct famfs_names_obj *o)
{
	struct ranges *s = arg;
	struct famfs_extent ex[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry e;
	unsigned n;

	(void)path;
	if (!o->live || o->kind != FAMFS_LOG_FILE || o->id < s->h->cut ||
	    famfs_log_entry_at(s->c->fs, o->id, &e) ||
	    le16toh(e.type) != FAMFS_LOG_FILE)
		return 0;
	n = famfs_entry_ranges(&e, ex);
	for (unsigned i = 0; i < n; i++) {
		if (!ex[i].len)
			continue;
		if (s->n == s->cap) {
			size_t cap = s->cap ? 2 * s->cap : 64;
			struct range *r = realloc(s->r, cap * sizeof(*r));

			if (!r)
				return -ENOMEM;
			s->r = r;
			s->cap = cap;
		}
		s->r[s->n++] = (struct range){
			.off = ex[i].offset,
			.end = ex[i].offset + ex[i].len < ex[i].offset ?
			       UINT64_MAX : ex[i].offset + ex[i].len,
			.id = o->id,
			.dev = famfs_entry_devindex(&e, i),
		};
	}
	return 0;
}

static int over_add(struct lp_hold *h, uint64_t id, size_t *cap)
{
	if (h->nover == *cap) {
		size_t nc = *cap ? 2 * *cap : 16;
		uint64_t *o = realloc(h->over, nc * sizeof(*o));

		if (!o)
			return -ENOMEM;
		h->over = o;
		*cap = nc;
	}
	h->over[h->nover++] = id;
	return 0;
}

/* the files whose ranges overlap another's (sorted by start: one that
 * starts before the furthest end so far meets the range that has it) */
static int overlaps(struct lp_ctx *c, struct lp_hold *h)
{
	struct ranges s = { .h = h, .c = c };
	size_t cap = 0, k = 0;
	int rc = famfs_names_each(c->names, file_ranges, &s);

	if (rc)
		goto out;
	if (s.n)
		qsort(s.r, s.n, sizeof(*s.r), by_place);
	for (size_t i = 1; i < s.n && !rc; i++) {
		if (s.r[i].dev != s.r[k].dev || s.r[i].off >= s.r[k].end) {
			if (s.r[i].dev != s.r[k].dev || s.r[i].end > s.r[k].end)
				k = i;
			continue;
		}
		/* (a file's own ranges: not another's) */
		if (s.r[i].id != s.r[k].id) {
			rc = over_add(h, s.r[k].id, &cap);
			if (!rc)
				rc = over_add(h, s.r[i].id, &cap);
		}
		if (s.r[i].end > s.r[k].end)
			k = i;
	}
	if (h->nover)
		qsort(h->over, h->nover, sizeof(*h->over), by_id);
out:
	free(s.r);
	if (rc)
		famfs_err("out of memory");
	return rc;
}

int famfs_lp_hold_init(struct lp_ctx *c, struct lp_hold *h, uint64_t bad,
		       uint64_t lost)
{
	memset(h, 0, sizeof(*h));
	if (le32toh(c->fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE) {
		if (lost != UINT64_MAX) {
			h->cut = UINT64_MAX;
			h->why = lost;
			h->lost = true;
		} else if (bad != UINT64_MAX) {
			h->cut = bad;
			h->why = bad;
		}
	}
	return overlaps(c, h);
}

int famfs_lp_hold_add(struct lp_ctx *c, struct lp_hold *h,
		      const uint64_t *id, size_t n)
{
	uint64_t *t;

	if (!n || !(le32toh(c->fs->sb->feature_incompat) &
		    FAMFS_FEATURE_INCOMPAT_DELETE))
		return 0;
	t = malloc(n * sizeof(*t));
	if (!t) {
		famfs_err("out of memory");
		return -ENOMEM;
	}
	memcpy(t, id, n * sizeof(*t));
	qsort(t, n, sizeof(*t), by_id);
	h->refd = t;
	h->nrefd = n;
	return 0;
}

static bool refd(const struct lp_hold *h, uint64_t id)
{
	return h->nrefd && bsearch(&id, h->refd, h->nrefd, sizeof(id), by_id);
}

void famfs_lp_hold_free(struct lp_hold *h)
{
	free(h->over);
	free(h->refd);
	h->over = h->refd = NULL;
	h->nover = h->nrefd = 0;
}

static bool overlapped(const struct lp_hold *h, uint64_t id)
{
	return h->nover && bsearch(&id, h->over, h->nover, sizeof(id), by_id);
}

bool famfs_lp_held(const struct lp_hold *h, uint64_t id)
{
	return id != FAMFS_NAMES_IMPLIED &&
	       (id < h->cut || overlapped(h, id) || refd(h, id));
}

/* anything beneath a held directory that is made? */
static int made_beneath(void *arg, const char *path,
			const struct famfs_names_obj *o)
{
	(void)path;
	return o->id != FAMFS_NAMES_IMPLIED && !famfs_lp_held(arg, o->id);
}

bool famfs_lp_hold_empty(struct lp_ctx *c, const struct lp_hold *h,
			 const char *rel)
{
	if (!h->cut && !h->nover && !h->nrefd)
		return false;
	return famfs_names_beneath(c->names, rel, made_beneath, (void *)h) != 1;
}

/* one more object held: said if among the first FAMFS_HOLD_SAID */
static bool say(struct lp_ctx *c, struct lp_hold *h, uint64_t id)
{
	famfs_lp_trouble_add(c, id);
	c->r->withheld++;
	return ++h->nheld <= FAMFS_HOLD_SAID;
}

int famfs_lp_hold_live(struct lp_ctx *c, struct lp_hold *h,
		       const char *rel, const struct famfs_names_obj *o)
{
	char p[PATH_MAX], why[160];
	bool said;

	if (!famfs_lp_held(h, o->id))
		return 0;
	famfs_join(p, sizeof(p), c->fs->mpt, rel);
	said = say(c, h, o->id);
	if (o->id >= h->cut && !overlapped(h, o->id)) {
		if (said)
			famfs_err("%s: not made (log entry %llu): a DELETE of it was refused after log entry %llu, which does not verify here: the namespace may be off, the DELETE real (famfs fsck names it)",
				  p, (unsigned long long)o->id,
				  (unsigned long long)h->why);
		return 1;
	}
	if (o->id >= h->cut) {
		c->r->conflicts++;
		if (said)
			famfs_err("%s: not made: the memory of log entry %llu's file overlaps another live file's (a corrupt log: neither is made; famfs fsck)",
				  p, (unsigned long long)o->id);
		return 1;
	}
	h->ncut++;
	if (h->lost)
		snprintf(why, sizeof(why),
			 "the log entries from slot %llu on cannot be read here (a lost segment), and one of them may have deleted it",
			 (unsigned long long)h->why);
	else
		snprintf(why, sizeof(why),
			 "log entry %llu, after it, does not verify here and may have deleted it",
			 (unsigned long long)h->why);
	/* the way to what is made beneath it: the replayer's, 0700 -- no
	 * one else looks in before it is known to be the log's (a later
	 * replay that does not hold it gives it its mode and owner) */
	if (o->kind == FAMFS_LOG_MKDIR &&
	    famfs_names_beneath(c->names, rel, made_beneath, (void *)h) == 1) {
		if (said)
			famfs_err("%s: made only as the directory of what later log entries made in it, mode 0700, not with its mode and owner until it is no longer held (log entry %llu): %s (famfs fsck names it)",
				  p, (unsigned long long)o->id, why);
		famfs_lp_make_dir(c, rel, 0700);
		return 1;
	}
	if (said)
		famfs_err("%s: not made (log entry %llu): %s (famfs fsck names it)",
			  p, (unsigned long long)o->id, why);
	return 1;
}

void famfs_lp_hold_end(struct lp_ctx *c, const struct lp_hold *h)
{
	if (h->nheld > FAMFS_HOLD_SAID)
		famfs_err("%s: %lu objects of the log held in all, not made here or not as the log has them (the first %d said above, %lu more for the same reasons; famfs fsck names them)",
			  c->fs->mpt, h->nheld, FAMFS_HOLD_SAID,
			  h->nheld - FAMFS_HOLD_SAID);
}

/* the first entry a walk from c->next meets: as it reads here */
struct probe {
	struct famfs_fs *fs;
	bool ok, torn;
};

static int probe_one(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		     bool ok, const char *reason)
{
	struct probe *p = arg;

	(void)idx;
	(void)e;
	(void)reason;
	p->ok = ok;
	p->torn = p->fs->walk_torn;
	return 1;
}

int famfs_lp_hold_retry(struct lp_ctx *c)
{
	struct probe p = { .fs = c->fs };
	uint64_t at = c->next;

	if (!c->withheld || !c->next || !c->hold_bad)
		return 0;
	/* still not written whole here, or not read (lost, or nothing
	 * there): it waits */
	if (famfs_log_walk_range(c->fs, at, UINT64_MAX, probe_one, &p) != 1 ||
	    (!p.ok && p.torn))
		return 0;
	if (c->lost == at)
		famfs_warn("%s: the log entries from slot %llu on can be read here now: the log is replayed from its first entry again, to make what was withheld for them",
			   c->fs->mpt, (unsigned long long)at);
	else
		famfs_warn("%s: log entry %llu verifies here now: the log is replayed from its first entry again, to make what was withheld for it",
			   c->fs->mpt, (unsigned long long)at);
	c->withheld = false;
	famfs_lp_ahead_free(c);
	if (famfs_lp_from_first(c))
		return -ENOMEM;
	return 1;
}
