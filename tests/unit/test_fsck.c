// SPDX-License-Identifier: GPL-2.0
/* fsck: clean, overlap, extents outside the device or inside sb/log, bad
 * CRC, a path logged twice, a file where a directory belongs. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

/* Append an entry with arbitrary (possibly invalid) extents. */
static void raw_file(struct th *t, const char *path, uint64_t off, uint64_t len)
{
	struct famfs_log_entry e;
	struct famfs_log_simple_ext x = { htole64(4 * MiB), htole64(2 * MiB) };

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, path, 1, 0644, 0,
					   0, &x, 1), 0);
	e.fm.ext.simple[0].offset = htole64(off);
	e.fm.ext.simple[0].len = htole64(len);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
}

static struct famfs_fsck_result run(struct th *t)
{
	struct famfs_fsck_result r;

	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	return r;
}

/* fsck's problems, each message after the last as it was reported */
static char msgs[4096];

static void note(void *arg, const char *msg)
{
	(void)arg;
	snprintf(msgs + strlen(msgs), sizeof(msgs) - strlen(msgs), "%s%s",
		 msgs[0] ? "\n" : "", msg);
}

/* fsck finds exactly one problem, and it is @want. */
static void one_problem(struct th *t, const char *want)
{
	struct famfs_fsck_result r;

	msgs[0] = '\0';
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, note, NULL), 0);
	assert_string_equal(msgs, want);
	assert_int_equal(r.problems, 1);
}

static void test_clean(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	int fd;

	assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, true), 0);
	fd = famfs_file_create(&t->fs, "d/e/f", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "g", 1, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	r = run(t);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.entries, 4);
	assert_int_equal(r.files, 2);
	assert_int_equal(r.dirs, 2);
	assert_int_equal(r.used_bytes, 6 * MiB);
	assert_int_equal(r.free_bytes, 54 * MiB);
}

static void test_overlap(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;

	th_append_file(t, "a", 4 * MiB, 4 * MiB, 1);
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 1);	/* inside a */
	r = run(t);
	assert_int_equal(r.bad_entries, 0);
	one_problem(t, "b (entry 1) shares memory with a");
}

static void test_out_of_device(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;

	raw_file(t, "a", 62 * MiB, 4 * MiB);
	raw_file(t, "b", 128 * MiB, 2 * MiB);
	r = run(t);
	assert_int_equal(r.bad_entries, 2);
	assert_int_equal(r.problems, 2);
}

static void test_extent_in_sb_or_log(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;

	raw_file(t, "a", 0, 2 * MiB);
	raw_file(t, "b", 2 * MiB, 2 * MiB);
	raw_file(t, "c", 4 * MiB, 2 * MiB);	/* fine */
	r = run(t);
	assert_int_equal(r.bad_entries, 2);
	assert_int_equal(r.problems, 2);
	assert_int_equal(r.files, 1);
}

static void test_bad_crc(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 1);
	famfs_log_slot(t->fs.log, 0)->fm.path[0] = 'z';
	r = run(t);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.problems, 1);
}

static void test_bad_sequence(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct famfs_log_entry *e;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 1);
	e = famfs_log_slot(t->fs.log, 1);
	e->seq = htole64(7);
	famfs_entry_set_crc(e);
	r = run(t);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.problems, 1);
}

static void test_duplicate_path(void **state)
{
	struct th *t = *state;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "a", 6 * MiB, 2 * MiB, 1);
	one_problem(t, "a: logged twice (entry 1 and entry 0)");
}

static void test_file_where_dir_belongs(void **state)
{
	struct th *t = *state;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "a/b", 6 * MiB, 2 * MiB, 1);
	one_problem(t, "a (entry 0): a file where a directory belongs (a/b)");
}

/* issue 15.17: memory shared by files is counted once; free never wraps */
static void test_shared_used_counted_once(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;

	th_append_file(t, "a", 10 * MiB, 4 * MiB, 1);
	th_append_file(t, "b", 10 * MiB, 4 * MiB, 1);	/* the same memory */
	r = run(t);
	assert_int_equal(r.problems, 1);
	assert_int_equal(r.used_bytes, 4 * MiB);
	assert_int_equal(r.free_bytes, 60 * MiB - 4 * MiB);
}

static void test_shared_free_no_wrap(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;

	/* 30 files over the whole 60 MiB data area: 30x what there is */
	for (int i = 0; i < 30; i++) {
		char p[16];

		snprintf(p, sizeof(p), "f%d", i);
		th_append_file(t, p, 4 * MiB, 60 * MiB, 1);
	}
	r = run(t);
	assert_int_equal(r.problems, 29);
	assert_int_equal(r.used_bytes, 60 * MiB);
	assert_int_equal(r.free_bytes, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_shared_used_counted_once, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_shared_free_no_wrap, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_clean, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_overlap, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_out_of_device, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_extent_in_sb_or_log, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bad_crc, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bad_sequence, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_duplicate_path, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_file_where_dir_belongs, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("fsck", tests, NULL, NULL);
}
