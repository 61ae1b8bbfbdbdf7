// SPDX-License-Identifier: GPL-2.0
/* Log: append order and sequence, torn and corrupt entries, log full. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

struct seen {
	uint64_t n, bad;
	uint64_t idx[8];
	char path[8][32];
	bool ok[8];
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)reason;
	if (s->n < 8) {
		s->idx[s->n] = idx;
		s->ok[s->n] = ok;
		snprintf(s->path[s->n], 32, "%.20s", ok ? e->fm.path : "?");
	}
	s->n++;
	s->bad += !ok;
	return 0;
}

static void test_append_sequence(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	assert_int_equal(famfs_log_next(t->fs.log), 0);
	th_append_dir(t, "d");
	th_append_file(t, "d/a", 4 * MiB, 2 * MiB, 100);
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 200);
	assert_int_equal(famfs_log_next(t->fs.log), 3);
	for (uint64_t i = 0; i < 3; i++)
		assert_int_equal(le64toh(famfs_log_slot(t->fs.log, i)->seq), i);
	/* what was appended is durable: reopen from the image file */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 0);
	assert_string_equal(s.path[0], "d");
	assert_string_equal(s.path[1], "d/a");
	assert_string_equal(s.path[2], "b");
}

static void test_torn_entry_ignored(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry *slot;
	struct seen s = { 0 };

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	/* a crash after writing half of the next entry, before the commit */
	slot = famfs_log_slot(t->fs.log, 1);
	memset(slot, 0x5a, sizeof(*slot) / 2);
	assert_int_equal(famfs_map_flush(&t->fs.logm, slot, sizeof(*slot)), 0);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_true(s.ok[0]);
	/* the next append simply overwrites the torn slot */
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 1);
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.bad, 0);
}

static void test_corrupt_entry_reported(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry *slot;
	struct seen s = { 0 };

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 1);
	th_append_file(t, "c", 8 * MiB, 2 * MiB, 1);
	slot = famfs_log_slot(t->fs.log, 1);
	slot->fm.size ^= htole64(1);		/* bit flip inside "b" */
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 1);
	assert_true(s.ok[0]);
	assert_false(s.ok[1]);
	assert_true(s.ok[2]);
	assert_string_equal(s.path[2], "c");
}

static void test_log_full_keeps_log_valid(void **state)
{
	struct th *t = *state;
	uint64_t cap = le64toh(t->fs.log->capacity);
	struct famfs_log_entry e, before;
	struct seen s = { 0 };
	char why[FAMFS_REASON_LEN];

	assert_int_equal(cap, 2047);		/* 2 MiB log */
	for (uint64_t i = 0; i < cap; i++) {
		char p[32];

		snprintf(p, sizeof(p), "d%llu", (unsigned long long)i);
		assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, p, 0, 0755,
						   0, 0, NULL, 0), 0);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	}
	memcpy(&before, famfs_log_slot(t->fs.log, cap - 1), sizeof(before));
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "one-more", 0,
					   0755, 0, 0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -ENOSPC);
	assert_int_equal(famfs_log_next(t->fs.log), cap);
	assert_memory_equal(&before, famfs_log_slot(t->fs.log, cap - 1),
			    sizeof(before));
	/* still valid: header checks, every entry replays */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_hdr_check(t->fs.log, t->fs.sb, why), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, cap);
	assert_int_equal(s.bad, 0);
	/* and mkdir through the library reports it */
	assert_int_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), -ENOSPC);
	assert_false(th_exists(t, "x", true));
}

static void test_readonly_refuses_append(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;

	famfs_fs_close(&t->fs);
	assert_int_equal(famfs_fs_open_dev(t->img, false, &t->fs), 0);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EROFS);
	assert_int_equal(famfs_log_next(t->fs.log), 0);
}

static void test_bad_sb_refused_at_open(void **state)
{
	struct th *t = *state;

	/* corrupt the superblock CRC in the image: open must refuse */
	th_sb_media(t)->log_len ^= htole64(1ULL << 40);
	assert_int_equal(famfs_map_flush(&t->fs.sbm, th_sb_media(t), 512), 0);
	famfs_fs_close(&t->fs);
	t->open = false;
	assert_int_equal(famfs_fs_open_dev(t->img, false, &t->fs), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_append_sequence, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_torn_entry_ignored, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_entry_reported, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_log_full_keeps_log_valid, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_readonly_refuses_append, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bad_sb_refused_at_open, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("log", tests, NULL, NULL);
}
