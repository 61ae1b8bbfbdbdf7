// SPDX-License-Identifier: GPL-2.0
/* A reader of a v1 log whose copy of the superblock predates a feature bit
 * the master set before it wrote an entry that needs it (bounce buffers, a
 * non-coherent CPU's lines): MULTI_EXTENT, INTERLEAVE.  The walk reads the
 * superblock again before it calls the entry refused; when that re-read
 * fails, the entry is host-local (fs->walk_torn: waited for, not skipped
 * for good as one every host skips), as for any bit it lacks. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

struct seen {
	struct famfs_fs *fs;
	uint64_t idx;		/* the entry looked for */
	bool found, ok, torn;
	char why[FAMFS_REASON_LEN];
};

static int look(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)e;
	if (idx != s->idx)
		return 0;
	s->found = true;
	s->ok = ok;
	s->torn = s->fs->walk_torn;
	snprintf(s->why, sizeof(s->why), "%s", reason);
	return 0;
}

static void walk_for(struct famfs_fs *r, uint64_t idx, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	s->fs = r;
	s->idx = idx;
	famfs_quiet = 1;
	assert_int_equal(famfs_log_walk(r, look, s), 0);
	famfs_quiet = 0;
	assert_true(s->found);
}

/* the master sets MULTI_EXTENT, then logs a file of 3 extents: the index */
static uint64_t multi_extent_file(struct th *t)
{
	struct famfs_log_simple_ext x[3];
	struct famfs_log_entry e;

	for (unsigned i = 0; i < 3; i++) {
		x[i].offset = htole64((4 + 2 * i) * 2 * MiB);
		x[i].len = htole64(2 * MiB);
	}
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT, 0), 0);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "m", 6 * MiB,
					   0644, 0, 0, x, 3), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return famfs_log_next(t->fs.log) - 1;
}

/* the master logs an interleaved file (it sets INTERLEAVE): the index */
static uint64_t interleaved_file(struct th *t)
{
	const struct famfs_layout l = { .nstrips = 2, .chunk = 2 * MiB };
	int fd = famfs_file_create_layout(&t->fs, "s", 4 * MiB, 0644, 0, 0, &l);

	assert_true(fd >= 0);
	close(fd);
	assert_true(le32toh(t->fs.sb->feature_incompat) &
		    FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
	return famfs_log_next(t->fs.log) - 1;
}

/* the bit, not on this reader's copy: the walk reads the superblock again
 * and takes the entry -- a follower would skip it for good otherwise */
static void reread_takes(struct th *t, uint64_t (*make)(struct th *),
			 uint32_t bit)
{
	struct famfs_fs r;
	struct seen s;
	uint64_t idx;

	th_append_dir(t, "d");
	th_open_client(t, &r);
	idx = make(t);
	assert_false(le32toh(r.sb->feature_incompat) & bit);
	walk_for(&r, idx, &s);
	if (!s.ok)
		fail_msg("entry %llu refused: %s", (unsigned long long)idx, s.why);
	assert_true(le32toh(r.sb->feature_incompat) & bit);
	famfs_fs_close(&r);
}

static void test_multi_extent_reread(void **state)
{
	reread_takes(*state, multi_extent_file,
		     FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT);
}

static void test_interleave_reread(void **state)
{
	reread_takes(*state, interleaved_file, FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
}

/* the same, but the superblock read again does not verify: the copy is
 * kept and the entry refused, but as this host's own (host-local), not
 * as one every host skips */
static void reread_bad_local(struct th *t, uint64_t (*make)(struct th *))
{
	struct famfs_fs r;
	struct seen s;
	uint64_t idx;

	th_append_dir(t, "d");
	th_open_client(t, &r);
	idx = make(t);
	th_damage_sb(t);
	walk_for(&r, idx, &s);
	assert_false(s.ok);
	assert_non_null(strstr(s.why, "feature"));
	if (!s.torn)
		fail_msg("entry %llu (%s) refused as one every host skips",
			 (unsigned long long)idx, s.why);
	famfs_fs_close(&r);
}

static void test_multi_extent_reread_bad(void **state)
{
	reread_bad_local(*state, multi_extent_file);
}

static void test_interleave_reread_bad(void **state)
{
	reread_bad_local(*state, interleaved_file);
}

/* R2: a kind of entry this superblock's bits do not allow is one of a
 * famfs this copy cannot judge (-EPROTONOSUPPORT), as an unknown extent
 * type is: every "feature bit clear" refusal alike */
static void test_bit_clear_codes(void **state)
{
	struct th *t = *state;
	struct famfs_log_simple_ext x[3];
	struct famfs_log_interleave_ext ie = { 0 };
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	for (unsigned i = 0; i < 3; i++) {
		x[i].offset = htole64((4 + 2 * i) * 2 * MiB);
		x[i].len = htole64(2 * MiB);
	}
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "m", 6 * MiB,
					   0644, 0, 0, x, 3), 0);
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EPROTONOSUPPORT);
	assert_int_equal(famfs_entry_owned(&e, 0, t->fs.sb, why), -EPROTONOSUPPORT);
	ie.nstrips = htole32(2);
	ie.chunk_size = htole64(2 * MiB);
	ie.strip_len = htole64(2 * MiB);
	ie.strip_off[0] = htole64(4 * MiB);
	ie.strip_off[1] = htole64(8 * MiB);
	assert_int_equal(famfs_entry_build_interleaved(&e, "s", 4 * MiB, 0644,
						       0, 0, &ie), 0);
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EPROTONOSUPPORT);
	assert_int_equal(famfs_entry_owned(&e, 0, t->fs.sb, why), -EPROTONOSUPPORT);
	/* a device entry without MULTIDEV */
	famfs_entry_build_devadd(&e, 1, t->fs.sb->fs_uuid, 64 * MiB);
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check_devs(&e, 0, t->fs.sb, NULL, why),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "multi-device feature"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_multi_extent_reread, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_interleave_reread, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_multi_extent_reread_bad, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_interleave_reread_bad, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bit_clear_codes, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("featbit", tests, NULL, NULL);
}
