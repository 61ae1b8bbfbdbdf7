// SPDX-License-Identifier: GPL-2.0
/*
 * Small files in the reports (issue 30, tool step 5): famfs df counts the
 * shared units and their pages used and free (JSON too); fsck finds two
 * files sharing a page, and a page extent in a unit a large file claims,
 * and nothing on a log of small files made by the tool.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "th.h"

#define PG	FAMFS_PAGE
#define UNIT	FAMFS_ALLOC_UNIT

static void set_small_bit(struct th *t)
{
	th_sb_media(t)->feature_incompat |=
		htole32(FAMFS_FEATURE_INCOMPAT_SMALL_FILES);
	th_sb_commit(t);
}

static void append_pages(struct th *t, const char *path, uint64_t off,
			 uint64_t len, uint64_t size)
{
	struct famfs_log_simple_ext x = { htole64(off), htole64(len) };
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_pages(&e, path, size, 0644, 0, 0,
						 &x, 1), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
}

static char last_problem[1024];
static unsigned nproblems;

static void note(void *arg, const char *msg)
{
	(void)arg;
	snprintf(last_problem, sizeof(last_problem), "%s", msg);
	nproblems++;
}

static unsigned long fsck_problems(struct th *t)
{
	struct famfs_fsck_result r;

	last_problem[0] = '\0';
	nproblems = 0;
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, note, NULL), 0);
	return r.problems;
}

static void test_df(void **s)
{
	struct th *t = th_new(64 * MiB, 2 * MiB);
	struct famfs_df df;
	struct json_object *o, *sm, *v;

	(void)s;
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.small_units, 0);
	th_create_ok(&t->fs, "a", 100);		/* 1 page */
	th_create_ok(&t->fs, "b", 3 * PG);	/* 3 */
	th_create_ok(&t->fs, "big", 3 * MiB);	/* 2 units */
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.small_units, 1);
	assert_int_equal(df.small_pages_used, 4);
	assert_int_equal(df.small_pages_free, 512 - 4);
	assert_int_equal(df.dev[0].small_units, 1);
	assert_int_equal(df.dev[0].small_pages_used, 4);
	/* a shared unit is used space, as a whole */
	assert_int_equal(df.used, 3 * UNIT);
	o = famfs_json_df("t", t->mpt, "", &t->fs, &df);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "small_files", &sm));
	assert_true(json_object_object_get_ex(sm, "shared_units", &v));
	assert_int_equal(json_object_get_int64(v), 1);
	assert_true(json_object_object_get_ex(sm, "pages_used", &v));
	assert_int_equal(json_object_get_int64(v), 4);
	assert_true(json_object_object_get_ex(sm, "pages_free", &v));
	assert_int_equal(json_object_get_int64(v), 508);
	json_object_put(o);
	assert_int_equal(fsck_problems(t), 0);
	th_free(t);
}

static void test_fsck_shared_page(void **s)
{
	struct th *t = th_new(64 * MiB, 2 * MiB);

	(void)s;
	set_small_bit(t);
	append_pages(t, "x", 20 * UNIT, 2 * PG, 100);
	append_pages(t, "y", 20 * UNIT + 2 * PG, PG, 100);	/* neighbour */
	assert_int_equal(fsck_problems(t), 0);
	append_pages(t, "z", 20 * UNIT + PG, PG, 100);		/* x's page */
	assert_int_equal(fsck_problems(t), 1);
	assert_non_null(strstr(last_problem, "z"));
	assert_non_null(strstr(last_problem, "x"));
	assert_non_null(strstr(last_problem, "page"));
	th_free(t);
}

static void test_fsck_large_in_shared_unit(void **s)
{
	struct th *t = th_new(64 * MiB, 2 * MiB);

	(void)s;
	set_small_bit(t);
	append_pages(t, "x", 20 * UNIT + 7 * PG, PG, 100);
	th_append_file(t, "big", 19 * UNIT, 2 * UNIT, 4 * MiB);	/* 19, 20 */
	assert_int_equal(fsck_problems(t), 1);
	assert_non_null(strstr(last_problem, "big"));
	assert_non_null(strstr(last_problem, "shared unit"));
	th_free(t);
	/* the other order: the large file first */
	t = th_new(64 * MiB, 2 * MiB);
	set_small_bit(t);
	th_append_file(t, "big", 19 * UNIT, 2 * UNIT, 4 * MiB);
	append_pages(t, "x", 20 * UNIT + 7 * PG, PG, 100);
	assert_int_equal(fsck_problems(t), 1);
	assert_non_null(strstr(last_problem, "x"));
	assert_non_null(strstr(last_problem, "big"));
	th_free(t);
}

int main(void)
{
	th_small_files = true;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_df),
		cmocka_unit_test(test_fsck_shared_page),
		cmocka_unit_test(test_fsck_large_in_shared_unit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
