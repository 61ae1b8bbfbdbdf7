// SPDX-License-Identifier: GPL-2.0
/* Small files in 4 KiB pages inside shared 2 MiB units (issue 30): not
 * written yet, every call refused */
#include <errno.h>
#include <string.h>

#include "space/space.h"

int famfs_pagealloc_init(struct famfs_pagealloc *pa, struct famfs_bitmap *b,
			 char *reason)
{
	memset(pa, 0, sizeof(*pa));
	pa->b = b;
	(void)reason;
	return 0;
}

void famfs_pagealloc_free(struct famfs_pagealloc *pa)
{
	(void)pa;
}

int famfs_pagealloc_take(struct famfs_pagealloc *pa, uint32_t npages,
			 uint64_t *off, char *reason)
{
	(void)pa, (void)npages, (void)off, (void)reason;
	return -ENOSYS;
}

int famfs_pagealloc_give(struct famfs_pagealloc *pa, uint64_t off,
			 uint64_t len, char *reason)
{
	(void)pa, (void)off, (void)len, (void)reason;
	return -ENOSYS;
}

int famfs_pagealloc_mark(struct famfs_pagealloc *pa, uint64_t off,
			 uint64_t len, char *reason)
{
	(void)pa, (void)off, (void)len, (void)reason;
	return -ENOSYS;
}

bool famfs_pagealloc_test(const struct famfs_pagealloc *pa, uint64_t off)
{
	(void)pa, (void)off;
	return false;
}

bool famfs_pagealloc_shared(const struct famfs_pagealloc *pa, uint64_t unit)
{
	(void)pa, (void)unit;
	return false;
}

void famfs_pagealloc_stats(const struct famfs_pagealloc *pa,
			   struct famfs_pagealloc_stats *st)
{
	(void)pa;
	memset(st, 0, sizeof(*st));
}
