/* SPDX-License-Identifier: GPL-2.0 */
#ifndef FAMFS_PATHSET_H
#define FAMFS_PATHSET_H
#include <stddef.h>
#include <stdint.h>

struct pathset_item {
	char *path;		/* NULL: a free slot */
	uint64_t idx;
	uint64_t hash;
	size_t len;
	int type;
};
struct pathset {
	struct pathset_item *slots;
	size_t cap, count;
	/* the paths' bytes, in chunks (no malloc per path: issue 17) */
	char *chunk;		/* the newest; its first word links the older */
	size_t used, room;
};
int pathset_init(struct pathset *ps, size_t expect);
void pathset_free(struct pathset *ps);
/* -EEXIST (and *existing) if p is already there */
int pathset_add(struct pathset *ps, const char *p, uint64_t idx, int type,
		const struct pathset_item **existing);
const struct pathset_item *pathset_lookup(const struct pathset *ps,
					  const char *p);
const struct pathset_item *pathset_lookup_n(const struct pathset *ps,
					    const char *p, size_t n);
#endif
