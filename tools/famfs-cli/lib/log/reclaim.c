// SPDX-License-Identifier: GPL-2.0
/*
 * RECLAIM's rules (format revision 3, issue 29), judged in log order with
 * the namespace (names.c keeps one of these): the DELETEs of files it
 * applied, and which a RECLAIM named.  A RECLAIM must name only such
 * DELETEs, each one once in the whole log; else it is corrupt (R3: what is
 * free is unknown, the master allocates nothing) and changes nothing.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log/log.h"

#define WHY(...) do { if (why) snprintf(why, FAMFS_NAMES_WHY_LEN, __VA_ARGS__); } while (0)

int famfs_dels_add(struct famfs_dels *s, uint64_t idx, uint64_t object)
{
	size_t at = s->n;

	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct famfs_del *d = realloc(s->d, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		s->d = d;
		s->cap = cap;
	}
	/* fed in log order: at the end (kept sorted all the same) */
	while (at && s->d[at - 1].idx > idx)
		at--;
	memmove(&s->d[at + 1], &s->d[at], (s->n - at) * sizeof(*s->d));
	s->d[at].idx = idx;
	s->d[at].object = object;
	s->d[at].reclaimed = false;
	s->n++;
	return 0;
}

void famfs_dels_free(struct famfs_dels *s)
{
	free(s->d);
	memset(s, 0, sizeof(*s));
}

/* the slot of the DELETE at idx, or SIZE_MAX */
static size_t find(const struct famfs_dels *s, uint64_t idx)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->d[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->n && s->d[lo].idx == idx ? lo : SIZE_MAX;
}

int famfs_dels_reclaim(struct famfs_dels *s, const struct famfs_log_entry *e,
		       char *why)
{
	uint64_t d[FAMFS_RECLAIM_MAX];
	size_t at[FAMFS_RECLAIM_MAX];
	unsigned k = famfs_reclaim_get(e, d);

	s->nrecl = 0;
	if (!k) {
		WHY("it names no DELETE");
		return FAMFS_NAMES_CORRUPT;
	}
	for (unsigned i = 0; i < k; i++) {
		at[i] = find(s, d[i]);
		if (at[i] == SIZE_MAX) {
			WHY("entry %llu is not a DELETE of a file that the log applied",
			    (unsigned long long)d[i]);
			return FAMFS_NAMES_CORRUPT;
		}
		if (s->d[at[i]].reclaimed) {
			WHY("DELETE %llu was reclaimed already",
			    (unsigned long long)d[i]);
			return FAMFS_NAMES_CORRUPT;
		}
		for (unsigned j = 0; j < i; j++)
			if (d[j] == d[i]) {
				WHY("it names DELETE %llu twice",
				    (unsigned long long)d[i]);
				return FAMFS_NAMES_CORRUPT;
			}
	}
	for (unsigned i = 0; i < k; i++) {
		s->d[at[i]].reclaimed = true;
		s->recl[i] = s->d[at[i]].object;
	}
	s->nrecl = k;
	return FAMFS_NAMES_OK;
}

unsigned famfs_dels_reclaimed(const struct famfs_dels *s,
			      const uint64_t **objects)
{
	*objects = s->recl;
	return s->nrecl;
}

int famfs_dels_state(const struct famfs_dels *s, uint64_t del,
		     uint64_t *object)
{
	size_t i = find(s, del);

	if (i == SIZE_MAX)
		return -ENOENT;
	if (object)
		*object = s->d[i].object;
	return s->d[i].reclaimed ? 1 : 0;
}

int famfs_dels_pending(const struct famfs_dels *s, famfs_pending_fn fn,
		       void *arg)
{
	for (size_t i = 0; i < s->n; i++) {
		int rc;

		if (s->d[i].reclaimed)
			continue;
		rc = fn(arg, s->d[i].idx, s->d[i].object);
		if (rc)
			return rc;
	}
	return 0;
}
