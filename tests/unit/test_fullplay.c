// SPDX-License-Identifier: GPL-2.0
/* A replay from the first entry of a log with deletes or renames
 * (fullplay.c: the tree made what the log says at its end) on a tree an
 * earlier replay made up to some entry: the result must be what playing
 * the rest of the entries in log order gives.  Files whose paths another
 * file takes (a swap; a rename, then a new file at the old name; a
 * directory renamed and one of the same name made, with a file of the
 * same name in it), and a file renamed more times than the replay looked
 * back. */
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
#define F FAMFS_LOG_FILE
#define D FAMFS_LOG_MKDIR

static int setup(void **state)
{
	struct th *t = th_new_fmt(256 * MiB, 8 * MiB, true);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	*state = t;
	return 0;
}

static struct famfs_logplay_result play(struct th *t)
{
	struct famfs_logplay_result r;

	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	return r;
}

/* only the names given (and .meta) at the mount root */
static void root_holds(struct th *t, unsigned n)
{
	assert_int_equal(th_count_entries(t->mpt), n + 1);
}

/* a and b swapped through t, the tree played before the swap */
static void test_swap_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	uint64_t b = th_append_file(t, "b", 26 * MiB, 2 * MiB, 100);

	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	th_ren(t, a, F, "a", "t");
	th_ren(t, b, F, "b", "a");
	th_ren(t, a, F, "t", "b");
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "b"), 24 * MiB);
	assert_false(th_exists(t, "t", false));
	root_holds(t, 2);
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(r.moved + r.created_files + r.removed, 0);
}

/* a renamed to b, then a new a: both there */
static void test_rename_then_new_at_old_name_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);

	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	th_ren(t, a, F, "a", "b");
	th_append_file(t, "a", 26 * MiB, 2 * MiB, 100);
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "b"), 24 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "a"), 26 * MiB);
	root_holds(t, 2);
}

/* d (with f) renamed to e, a new d with a new f in it */
static void test_dir_renamed_then_new_same_names_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t d = th_append_dir(t, "d");

	th_append_file(t, "d/f", 24 * MiB, 2 * MiB, 100);
	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	th_ren(t, d, D, "d", "e");
	th_append_dir(t, "d");
	th_append_file(t, "d/f", 26 * MiB, 2 * MiB, 100);
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "e/f"), 24 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "d/f"), 26 * MiB);
	root_holds(t, 2);
}

/* d (with f) renamed to e, then a file at d */
static void test_dir_renamed_then_file_at_its_name_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t d = th_append_dir(t, "d");

	th_append_file(t, "d/f", 24 * MiB, 2 * MiB, 100);
	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	th_ren(t, d, D, "d", "e");
	th_append_file(t, "d", 26 * MiB, 2 * MiB, 100);
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "e/f"), 24 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "d"), 26 * MiB);
	root_holds(t, 2);
}

/* renamed 40 times after the tree here was played: found and moved, not
 * made again beside the old one (two files on one memory); then deleted:
 * removed */
#define HOPS 40

static void test_many_renames_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = th_append_file(t, "n0", 24 * MiB, 2 * MiB, 100);
	char from[32], to[32];

	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	for (int i = 0; i < HOPS; i++) {
		snprintf(from, sizeof(from), "n%d", i);
		snprintf(to, sizeof(to), "n%d", i + 1);
		th_ren(t, a, F, from, to);
	}
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(r.moved, 1);
	assert_int_equal(r.created_files, 0);
	assert_int_equal(th_mock_off_or_0(t, to), 24 * MiB);
	root_holds(t, 1);
}

static void test_many_renames_then_delete_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = th_append_file(t, "n0", 24 * MiB, 2 * MiB, 100);
	char from[32], to[32];

	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	for (int i = 0; i < HOPS; i++) {
		snprintf(from, sizeof(from), "n%d", i);
		snprintf(to, sizeof(to), "n%d", i + 1);
		th_ren(t, a, F, from, to);
	}
	th_del(t, a, F, to);
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(r.removed, 1);
	root_holds(t, 0);
}

/* a replay stopped after 1 moved a file aside: the next one finds it
 * there (where it ends, or removed if deleted) */
static void test_aside_found_again(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	uint64_t b = th_append_file(t, "b", 26 * MiB, 2 * MiB, 100);
	char x[700], y[700];

	th_remount(t);
	r = play(t);
	th_play_clean(&r);
	th_ren(t, a, F, "a", "c");
	th_del(t, b, F, "b");
	snprintf(x, sizeof(x), "%s/a", t->mpt);
	snprintf(y, sizeof(y), "%s/.famfs-mv.%llu", t->mpt, (unsigned long long)a);
	assert_int_equal(rename(x, y), 0);
	snprintf(x, sizeof(x), "%s/b", t->mpt);
	snprintf(y, sizeof(y), "%s/.famfs-mv.%llu", t->mpt, (unsigned long long)b);
	assert_int_equal(rename(x, y), 0);
	r = play(t);
	th_play_clean(&r);
	assert_int_equal(r.moved, 1);
	assert_int_equal(r.removed, 1);
	assert_int_equal(th_mock_off_or_0(t, "c"), 24 * MiB);
	root_holds(t, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_swap_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_then_new_at_old_name_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_dir_renamed_then_new_same_names_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_dir_renamed_then_file_at_its_name_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_many_renames_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_many_renames_then_delete_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_aside_found_again, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
