/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the follower-round tests (test_nsround.c, test_nsround_lag.c,
 * test_nsround_ident.c): the fixture (a file system with DELETE, RENAME and
 * SETATTR), a round played (stopped or not), the switch between this
 * host as a client and as the master, a follower whose first round played
 * z, and what a file is here (its inode, its links).  With a mocked
 * famfs.ko. */
#ifndef TH_NSROUND_H
#define TH_NSROUND_H

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

#define NS_BITS (FAMFS_FEATURE_INCOMPAT_DELETE | FAMFS_FEATURE_INCOMPAT_RENAME | \
		 FAMFS_FEATURE_INCOMPAT_SETATTR)
#define F FAMFS_LOG_FILE

/* the master's host id, kept by to_client for to_master */
static char master_id[128];

static inline int setup(void **state)
{
	struct th *t = th_new_fmt(256 * MiB, 8 * MiB, true);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	*state = t;
	master_id[0] = '\0';
	return 0;
}

static inline uint64_t chmod_of(struct th *t, uint64_t obj, const char *p,
				uint32_t mode)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_setattr(&e, obj, F, p,
						   FAMFS_SETATTR_MODE, mode,
						   0, 0), 0);
	return th_app(t, &e);
}

/* one round, stopped (SIGTERM) before its entry n + 1 (n < 0: not) */
static inline struct famfs_logplay_result round_of(struct th *t,
						   struct famfs_logplay *lp, int n)
{
	struct famfs_logplay_result r;

	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r,
					    n < 0 ? NULL : th_stop_after, &n), 0);
	famfs_quiet = 0;
	assert_int_equal(r.errors + r.bad_entries, 0);
	return r;
}

static inline void to_client(struct th *t)
{
	FILE *f = fopen(t->hostid, "r");

	if (!master_id[0]) {
		assert_non_null(f);
		assert_non_null(fgets(master_id, sizeof(master_id), f));
	}
	if (f)
		fclose(f);
	th_become_client(t);
}

static inline void to_master(struct th *t)
{
	FILE *f = fopen(t->hostid, "w");

	assert_non_null(f);
	fputs(master_id, f);
	fclose(f);
	assert_int_equal(th_reopen(t), 0);
	assert_true(t->fs.master);
}

/* a follower (a client) whose first round played z */
static inline struct famfs_logplay *follower(struct th *t)
{
	struct famfs_logplay *lp = famfs_logplay_new(8);

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	to_client(t);
	round_of(t, lp, -1);
	assert_int_equal(th_mock_off_or_0(t, "z"), 20 * MiB);
	to_master(t);
	return lp;
}

static inline ino_t ino_of(struct th *t, const char *rel)
{
	char p[700];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	if (lstat(p, &st))
		return 0;
	return st.st_ino;
}

static inline nlink_t links_of(int fd)
{
	struct stat st;

	assert_int_equal(fstat(fd, &st), 0);
	return st.st_nlink;
}

#endif
