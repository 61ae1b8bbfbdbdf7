// SPDX-License-Identifier: GPL-2.0
/* A small open-addressing hash set of log paths -> (entry index, type). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
	return h;
}

/* the slot table alone (the path chunks are kept) */
static int table_init(struct pathset *ps, size_t expect)
{
	size_t cap = 64;

	while (cap < expect * 2)
		cap *= 2;
	ps->slots = calloc(cap, sizeof(*ps->slots));
	ps->cap = ps->slots ? cap : 0;
	ps->count = 0;
	return ps->slots ? 0 : -ENOMEM;
}

int pathset_init(struct pathset *ps, size_t expect)
{
	ps->chunk = NULL;
	ps->used = ps->room = 0;
	return table_init(ps, expect);
}

void pathset_free(struct pathset *ps)
{
	while (ps->chunk) {
		char *older;

		memcpy(&older, ps->chunk, sizeof(older));
		free(ps->chunk);
		ps->chunk = older;
	}
	free(ps->slots);
	ps->slots = NULL;
	ps->cap = ps->count = 0;
}

/* a copy of p[0..n) and a NUL, in the newest chunk */
static char *store(struct pathset *ps, const char *p, size_t n)
{
	char *out;

	if (ps->used + n + 1 > ps->room) {
		size_t sz = n + 1 + sizeof(char *) > 65536 ?
			    n + 1 + sizeof(char *) : 65536;
		char *c = malloc(sz);

		if (!c)
			return NULL;
		memcpy(c, &ps->chunk, sizeof(char *));
		ps->chunk = c;
		ps->used = sizeof(char *);
		ps->room = sz;
	}
	out = ps->chunk + ps->used;
	memcpy(out, p, n);
	out[n] = '\0';
	ps->used += n + 1;
	return out;
}

static struct pathset_item *find(const struct pathset *ps, const char *p,
				 size_t n, uint64_t h)
{
	size_t i = h & (ps->cap - 1);

	for (;;) {
		struct pathset_item *it = &ps->slots[i];

		if (!it->path || (it->hash == h && it->len == n &&
				  !memcmp(it->path, p, n)))
			return it;
		i = (i + 1) & (ps->cap - 1);
	}
}

const struct pathset_item *pathset_lookup_n(const struct pathset *ps,
					    const char *p, size_t n)
{
	struct pathset_item *it = find(ps, p, n, hash(p, n));

	return it->path ? it : NULL;
}

const struct pathset_item *pathset_lookup(const struct pathset *ps,
					  const char *p)
{
	return pathset_lookup_n(ps, p, strlen(p));
}

static int grow(struct pathset *ps)
{
	struct pathset_item *old = ps->slots;
	size_t cap = ps->cap, count = ps->count;

	if (table_init(ps, cap)) {
		ps->slots = old;
		ps->cap = cap;
		ps->count = count;
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		if (old[i].path) {
			*find(ps, old[i].path, old[i].len, old[i].hash) = old[i];
			ps->count++;
		}
	free(old);
	return 0;
}

int pathset_add(struct pathset *ps, const char *p, uint64_t idx, int type,
		const struct pathset_item **existing)
{
	struct pathset_item *it;
	size_t n = strlen(p);
	uint64_t h = hash(p, n);

	if ((ps->count + 1) * 2 > ps->cap && grow(ps))
		return -ENOMEM;
	it = find(ps, p, n, h);
	if (it->path) {
		if (existing)
			*existing = it;
		return -EEXIST;
	}
	it->path = store(ps, p, n);
	if (!it->path)
		return -ENOMEM;
	it->idx = idx;
	it->hash = h;
	it->len = n;
	it->type = type;
	ps->count++;
	return 0;
}
