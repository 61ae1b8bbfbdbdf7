/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the log growth unit tests (test_loggrow.c, test_loggrow_mount.c):
 * a compact-log fixture, growth under the lock, and directory entries that
 * fill the log to a given slot. */
#ifndef TH_LOGGROW_H
#define TH_LOGGROW_H

#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "th.h"

#define C0 FAMFS_CLOG_CAPACITY(2 * MiB)		/* 8188 */

static inline int setup(void **state)
{
	*state = th_new_fmt(64 * MiB, 2 * MiB, true);
	return 0;
}

static inline int grow(struct th *t, uint64_t len)
{
	int rc;

	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	rc = famfs_log_grow(&t->fs, len);
	famfs_fs_unlock(&t->fs);
	return rc;
}

/* a MKDIR entry "d<i>" padded to take nslots slots */
static inline void build_dir(struct famfs_log_entry *e, unsigned i, unsigned nslots)
{
	char p[FAMFS_LOG_PATH_MAX];
	size_t len = nslots == 1 ? 20 : nslots == 4 ? 500 :
		     256 * (nslots - 1) - 20;
	int n = snprintf(p, sizeof(p), "d%u", i);

	memset(p + n, 'x', len - (size_t)n);
	for (size_t k = 100; k < len - 1; k += 100)
		p[k] = '/';	/* components of at most 255 bytes */
	p[len] = '\0';
	assert_int_equal(famfs_entry_build(e, FAMFS_LOG_MKDIR, p, 0, 0755, 0, 0,
					   NULL, 0), 0);
}

/* append 1-slot dirs until next_index is at */
static inline void fill_to(struct th *t, uint64_t at)
{
	static unsigned i = 100000;	/* never the same path twice */
	struct famfs_log_entry e;

	/* 4-slot entries while they fit: a quarter of the appends */
	while (famfs_log_next(t->fs.log) < at) {
		build_dir(&e, i++, famfs_log_next(t->fs.log) + 4 <= at ? 4 : 1);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	}
}

struct seen {
	uint64_t n, bad, ext, last;
	char why[FAMFS_REASON_LEN];
};

static inline int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	s->n++;
	s->last = idx;
	if (!ok) {
		s->bad++;
		snprintf(s->why, sizeof(s->why), "%s", reason);
	}
	s->ext += ok && le16toh(e->type) == FAMFS_LOG_EXTEND;
	return 0;
}

#endif /* TH_LOGGROW_H */
