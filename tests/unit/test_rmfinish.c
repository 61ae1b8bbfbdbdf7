// SPDX-License-Identifier: GPL-2.0
/* famfs rm again after a crash between its DELETE entry and the local
 * unlink (issue 29 item 5; crash38 found the message misleading: "not in
 * the log (a file made here without famfs...)"): the rm finishes the
 * removal here -- the file is the one the DELETE named (its map) -- and
 * logs nothing more.  A path the log never had is still refused; a file
 * at a deleted path that is not the deleted one is left alone.  A path
 * component swapped between the check and the unlink (or, for famfs mv,
 * the rename) is not followed to another file (review r39 A). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* ---- a path component swapped between the check and the unlink (review
 * r39 A): the first map read of the check (the file checked is open)
 * renames what is at swap_from to swap_to and puts an impostor -- a plain
 * file, at swap_from or at swap_from/f when a directory -- in its place */
static struct th *swap_t;
static const char *swap_from, *swap_to;
static bool swap_dir;
static int swaps;

static void swap_now(void)
{
	char a[600], b[600];

	if (!swap_from || swaps)
		return;
	swaps = 1;
	snprintf(a, sizeof(a), "%s/%s", swap_t->mpt, swap_from);
	snprintf(b, sizeof(b), "%s/%s", swap_t->mpt, swap_to);
	assert_int_equal(rename(a, b), 0);
	if (swap_dir) {
		assert_int_equal(mkdir(a, 0755), 0);
		snprintf(b, sizeof(b), "%s/f", swap_from);
		th_touch(swap_t, b, "impostor");
	} else {
		th_touch(swap_t, swap_from, "impostor");
	}
}

static int swap_get_v2(int fd, struct famfs_ioc_map_v2 *h)
{
	int rc = th_mock_kernel.map_get_v2(fd, h);

	swap_now();
	return rc;
}

static int swap_get_v3(int fd, struct famfs_ioc_map_v2 *h)
{
	int rc = th_mock_kernel.map_get_v3(fd, h);

	swap_now();
	return rc;
}

static int swap_get(int fd, struct famfs_ioc_map *m)
{
	int rc = th_mock_kernel.map_get(fd, m);

	swap_now();
	return rc;
}

static struct famfs_kernel_ops swap_kernel;

static void swap_arm(struct th *t, const char *from, const char *to, bool dir)
{
	swap_kernel = th_mock_kernel;
	swap_kernel.map_get = swap_get;
	swap_kernel.map_get_v2 = swap_get_v2;
	swap_kernel.map_get_v3 = swap_get_v3;
	famfs_kernel = &swap_kernel;
	swap_t = t;
	swap_from = from;
	swap_to = to;
	swap_dir = dir;
	swaps = 0;
}

static void swap_disarm(void)
{
	famfs_kernel = &th_mock_kernel;
	swap_from = NULL;
}

/* A file system with d/f (parent) or a, a host table if table. */
static struct th *swap_fs(bool parent, bool table)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	th_fast_settle();
	if (parent)
		assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	th_create_ok(&t->fs, parent ? "d/f" : "a", 2 * MiB);
	if (table)
		assert_int_equal(famfs_hosts_create(&t->fs), 0);
	return t;
}

/* op on path with d (parent) or a swapped for an impostor between the
 * check and the act: the swap happened once, the impostor is still
 * there; op's result */
static int swap_run(struct th *t, bool parent,
		    int (*op)(struct th *t, const char *path))
{
	const char *path = parent ? "d/f" : "a";
	int rc;

	swap_arm(t, parent ? "d" : "a", parent ? "d.old" : "a.old", parent);
	famfs_quiet = 1;
	rc = op(t, path);
	famfs_quiet = 0;
	swap_disarm();
	assert_int_equal(swaps, 1);
	assert_true(th_exists(t, path, false));		/* the impostor */
	return rc;
}

static int op_rm(struct th *t, const char *path)
{
	return famfs_remove(&t->fs, path, false);
}

static int op_mv(struct th *t, const char *path)
{
	return famfs_rename(&t->fs, path, "g");
}

/* d/f deleted in the log, still here; between the check of d/f and its
 * unlink, d is renamed away and another d with another f put there: the
 * f checked goes (through the directory it was checked in), the impostor
 * stays */
static void test_rm_finishes_parent_swapped(void **s)
{
	struct th *t = swap_fs(true, true);
	uint64_t id;
	int kind;

	(void)s;
	t->fs.cache_names_want = true;
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	assert_true(famfs_names_lookup(t->fs.cache_names, "d/f", &id, &kind));
	delete_logged(t, id, "d/f");	/* the crash */
	(void)swap_run(t, true, op_rm);
	assert_false(th_exists(t, "d.old/f", false));	/* the one checked */
	th_free(t);
}

/* the same with the file itself replaced in its directory: not removed
 * (it is not the file checked), said */
static void test_rm_finishes_file_swapped(void **s)
{
	struct th *t = swap_fs(false, true);

	(void)s;
	delete_logged(t, 0, "a");	/* entry 0 */
	assert_int_not_equal(swap_run(t, false, op_rm), 0);
	assert_true(th_exists(t, "a.old", false));
	th_free(t);
}

/* a plain famfs rm: its check (before the DELETE is logged) and its
 * unlink (after) with d swapped in between: the impostor stays */
static void test_rm_parent_swapped(void **s)
{
	struct th *t = swap_fs(true, true);

	(void)s;
	(void)swap_run(t, true, op_rm);
	th_free(t);
}

static void test_rm_file_swapped(void **s)
{
	struct th *t = swap_fs(false, true);

	(void)s;
	assert_int_not_equal(swap_run(t, false, op_rm), 0);
	th_free(t);
}

/* famfs mv has the same check (before its RENAME is logged) and move
 * (after): the source swapped in between is not moved */
static void test_mv_parent_swapped(void **s)
{
	struct th *t = swap_fs(true, false);

	(void)s;
	(void)swap_run(t, true, op_mv);
	assert_false(th_exists(t, "g", false));
	th_free(t);
}

static void test_mv_file_swapped(void **s)
{
	struct th *t = swap_fs(false, false);

	(void)s;
	assert_int_not_equal(swap_run(t, false, op_mv), 0);
	assert_false(th_exists(t, "g", false));
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rm_finishes),
		cmocka_unit_test(test_rm_finishes_reused_path),
		cmocka_unit_test(test_rm_finishes_parent_swapped),
		cmocka_unit_test(test_rm_finishes_file_swapped),
		cmocka_unit_test(test_rm_parent_swapped),
		cmocka_unit_test(test_rm_file_swapped),
		cmocka_unit_test(test_mv_parent_swapped),
		cmocka_unit_test(test_mv_file_swapped),
	};

	return cmocka_run_group_tests_name("rmfinish", tests, NULL, NULL);
}
