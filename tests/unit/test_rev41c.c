// SPDX-License-Identifier: GPL-2.0
/* review r41c: a follower on the master whose first round held a file
 * (lp_ctx.trouble) makes it on the retry; the master's famfs rm of it
 * later is no conflict (the trouble mark is stale once it is made). */
#define _GNU_SOURCE
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

static int setup_v1(void **state)
{
	struct th *t = th_new_fmt(256 * MiB, 8 * MiB, false);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	*state = t;
	return 0;
}

static void flip(struct th *t, uint64_t idx)
{
	uint8_t *p = (uint8_t *)famfs_log_slot(t->fs.log, idx);

	p[60] ^= 1;
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	assert_int_equal(th_reopen(t), 0);
}

static char said[65536];

static void round_(struct th *t, struct famfs_logplay *lp,
		   struct famfs_logplay_result *r)
{
	th_stderr_grab();
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, r, NULL, NULL), 0);
	th_stderr_take(said, sizeof(said));
}

static void test_master_follower_rm_after_retry_no_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a, bad;
	char p[700];

	th_remount(t);
	assert_true(t->fs.master);
	famfs_logplay_hold_bad(lp);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	bad = th_append_file(t, "t", 28 * MiB, 2 * MiB, 100);
	flip(t, bad);
	round_(t, lp, &r);
	assert_false(th_exists(t, "a", false));
	flip(t, bad);
	round_(t, lp, &r);		/* the retry: a made */
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	assert_int_equal(r.conflicts, 0);
	/* famfs rm a on the master: removed here, then logged */
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(unlink(p), 0);
	th_del(t, a, FAMFS_LOG_FILE, "a");
	round_(t, lp, &r);
	if (r.conflicts)
		fail_msg("a conflict for the master's own rm of a file the retry made:\n%s",
			 said);
	famfs_logplay_free(lp);
}

/* control: the same without the hold -- no conflict */
static void test_master_follower_rm_no_hold_no_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a;
	char p[700];

	th_remount(t);
	famfs_logplay_hold_bad(lp);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_append_file(t, "t", 28 * MiB, 2 * MiB, 100);
	round_(t, lp, &r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(unlink(p), 0);
	th_del(t, a, FAMFS_LOG_FILE, "a");
	round_(t, lp, &r);
	assert_int_equal(r.conflicts, 0);
	famfs_logplay_free(lp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_master_follower_rm_no_hold_no_conflict, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_follower_rm_after_retry_no_conflict, setup_v1, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
