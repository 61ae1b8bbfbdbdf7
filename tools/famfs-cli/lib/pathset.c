// SPDX-License-Identifier: GPL-2.0
/* A small open-addressing hash set of log paths -> (entry index, type). */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pathset.h"

static uint64_t hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
	return h;
}

int pathset_init(struct pathset *ps, size_t expect)
{
	size_t cap = 64;

	while (cap < expect * 2)
		cap *= 2;
	ps->slots = calloc(cap, sizeof(*ps->slots));
	ps->cap = ps->slots ? cap : 0;
	ps->count = 0;
	return ps->slots ? 0 : -ENOMEM;
}

void pathset_free(struct pathset *ps)
{
	for (size_t i = 0; i < ps->cap; i++)
		free(ps->slots[i].path);
	free(ps->slots);
	ps->slots = NULL;
	ps->cap = ps->count = 0;
}

static struct pathset_item *find(const struct pathset *ps, const char *p,
				 size_t n)
{
	size_t i = hash(p, n) & (ps->cap - 1);

	for (;;) {
		struct pathset_item *it = &ps->slots[i];

		if (!it->path || (strlen(it->path) == n && !memcmp(it->path, p, n)))
			return it;
		i = (i + 1) & (ps->cap - 1);
	}
}

const struct pathset_item *pathset_lookup_n(const struct pathset *ps,
					    const char *p, size_t n)
{
	struct pathset_item *it = find(ps, p, n);

	return it->path ? it : NULL;
}

const struct pathset_item *pathset_lookup(const struct pathset *ps,
					  const char *p)
{
	return pathset_lookup_n(ps, p, strlen(p));
}

static int grow(struct pathset *ps)
{
	struct pathset old = *ps;

	if (pathset_init(ps, old.cap))
		return -ENOMEM;
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].path) {
			*find(ps, old.slots[i].path, strlen(old.slots[i].path)) =
				old.slots[i];
			ps->count++;
		}
	free(old.slots);
	return 0;
}

int pathset_add(struct pathset *ps, const char *p, uint64_t idx, int type,
		const struct pathset_item **existing)
{
	struct pathset_item *it;

	if ((ps->count + 1) * 2 > ps->cap && grow(ps))
		return -ENOMEM;
	it = find(ps, p, strlen(p));
	if (it->path) {
		if (existing)
			*existing = it;
		return -EEXIST;
	}
	it->path = strdup(p);
	if (!it->path)
		return -ENOMEM;
	it->idx = idx;
	it->type = type;
	ps->count++;
	return 0;
}
