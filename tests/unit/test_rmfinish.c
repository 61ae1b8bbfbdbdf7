// SPDX-License-Identifier: GPL-2.0
/* famfs rm again after a crash between its DELETE entry and the local
 * unlink (issue 29 item 5; crash38 found the message misleading: "not in
 * the log (a file made here without famfs...)"): the rm finishes the
 * removal here -- the file is the one the DELETE named (its map) -- and
 * logs nothing more.  A path the log never had is still refused; a file
 * at a deleted path that is not the deleted one is left alone. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static void delete_logged(struct th *t, uint64_t id, const char *rel)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0), 0);
	assert_int_equal(famfs_entry_build_delete(&e, id, FAMFS_LOG_FILE, rel), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
}

static void test_rm_finishes(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	uint64_t next;

	(void)s;
	th_fast_settle();
	th_create_ok(&t->fs, "a", 2 * MiB);		/* entry 0 */
	th_create_ok(&t->fs, "b", 2 * MiB);		/* entry 1 */
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	delete_logged(t, 0, "a");	/* the crash: not unlinked here */
	assert_true(th_exists(t, "a", false));
	next = famfs_log_refresh_next(&t->fs);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_false(th_exists(t, "a", false));
	assert_int_equal(famfs_log_refresh_next(&t->fs), next);
	/* again: nothing here, nothing in the log */
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), -ENOENT);
	assert_int_equal(famfs_remove(&t->fs, "never", false), -ENOENT);
	famfs_quiet = 0;
	assert_true(th_exists(t, "b", false));
	th_free(t);
}

/* the path removed, made again, removed again (the crash): the pending
 * DELETE of the file here is the newer one (review r38b finding 3) */
static void test_rm_finishes_reused_path(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	uint64_t id, next;
	int kind;

	(void)s;
	th_fast_settle();
	th_create_ok(&t->fs, "p", 2 * MiB);
	assert_int_equal(famfs_hosts_create(&t->fs), 0);	/* not armed */
	assert_int_equal(famfs_remove(&t->fs, "p", false), 0);
	th_create_ok(&t->fs, "p", 4 * MiB);
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	assert_true(famfs_names_lookup(t->fs.cache_names, "p", &id, &kind));
	delete_logged(t, id, "p");	/* the crash */
	next = famfs_log_refresh_next(&t->fs);
	assert_int_equal(famfs_remove(&t->fs, "p", false), 0);
	assert_false(th_exists(t, "p", false));
	assert_int_equal(famfs_log_refresh_next(&t->fs), next);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rm_finishes),
		cmocka_unit_test(test_rm_finishes_reused_path),
	};

	return cmocka_run_group_tests_name("rmfinish", tests, NULL, NULL);
}
