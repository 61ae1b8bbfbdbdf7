// SPDX-License-Identifier: GPL-2.0
/*
 * Memory is never given to two files (issue 15 items 1 and 3; the reader
 * rules R2-R4 of famfs_format.h):
 * - an entry that fails its checks but whose extents can be parsed keeps
 *   its memory (and its path stays taken);
 * - a committed entry that cannot be parsed (bad CRC, unknown type or
 *   extent kind, a kind whose feature bit is clear) stops the master from
 *   allocating, with a message naming the entry and fsck;
 * - files with 3..16 simple extents set INCOMPAT_MULTI_EXTENT first; such
 *   an entry in a log without it is corrupt;
 * - next_index damaged downward: fsck reports the valid entries past it,
 *   the allocator keeps their memory, the master refuses to append when
 *   one sits at next_index + 1 or beyond.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

static void flip(void *base, size_t bit)
{
	((uint8_t *)base)[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

static uint64_t ext_off(struct th *t, uint64_t idx, unsigned i)
{
	return le64toh(famfs_log_slot(t->fs.log, idx)->fm.ext.simple[i].offset);
}

/* create rel (size bytes) through the real create path; the fd closed */
static int create(struct th *t, const char *rel, uint64_t size)
{
	int fd = famfs_file_create(&t->fs, rel, size, 0644, 0, 0);

	if (fd >= 0)
		close(fd);
	return fd < 0 ? fd : 0;
}

/* [o1, +l1) and [o2, +l2) apart */
static bool apart(uint64_t o1, uint64_t l1, uint64_t o2, uint64_t l2)
{
	return o1 + l1 <= o2 || o2 + l2 <= o1;
}

/* one flipped bit in a's entry: the next create must not get a's memory */
static void test_bad_crc_entry_stops_allocation(void **state)
{
	struct th *t = *state;
	uint64_t n;

	assert_int_equal(create(t, "a", 4 * MiB), 0);
	assert_int_equal(ext_off(t, 0, 0), 4 * MiB);
	flip(famfs_log_slot(t->fs.log, 0), 8 * 400 + 3);	/* in the path area */
	famfs_fs_cache_drop(&t->fs);
	n = famfs_log_next(t->fs.log);
	if (create(t, "b", 4 * MiB) == 0)
		fail_msg("a create succeeded after a committed entry went bad: b at %llu, a was at %llu",
			 (unsigned long long)ext_off(t, 1, 0),
			 (unsigned long long)4 * MiB);
	assert_int_equal(famfs_log_next(t->fs.log), n);	/* log unchanged */
	assert_false(th_exists(t, "b", false));
	/* a directory takes no memory: still allowed */
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
}

/* the same with a freshly opened fs (no create cache yet) */
static void test_bad_crc_entry_stops_allocation_reopened(void **state)
{
	struct th *t = *state;

	assert_int_equal(create(t, "a", 4 * MiB), 0);
	flip(famfs_log_slot(t->fs.log, 0), 8 * 70 + 1);	/* an extent byte */
	assert_int_equal(th_reopen(t), 0);
	assert_int_not_equal(create(t, "b", 2 * MiB), 0);
	assert_int_equal(famfs_log_next(t->fs.log), 1);
}

/* CRC right, but the entry is refused (a bad mode): its extents stay used,
 * its path stays taken */
static void test_refused_entry_keeps_memory(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry *e;
	struct famfs_bitmap b;

	assert_int_equal(create(t, "a", 4 * MiB), 0);
	e = famfs_log_slot(t->fs.log, 0);
	e->fm.mode = htole32(0100644);	/* type bits: refused */
	famfs_entry_set_crc(e);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(create(t, "b", 4 * MiB), 0);
	if (!apart(ext_off(t, 0, 0), 4 * MiB, ext_off(t, 1, 0), 4 * MiB))
		fail_msg("b got a's memory (%llu): a's entry was refused but its extents parse",
			 (unsigned long long)ext_off(t, 1, 0));
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_true(famfs_bitmap_test(&b, 2) && famfs_bitmap_test(&b, 3));
	famfs_bitmap_free(&b);
}

/* CRC right, an unknown entry type or extent type: cannot be parsed */
static void test_unknown_type_stops_allocation(void **state)
{
	static const struct { int off, width; uint16_t v; } cases[] = {
		{ 12, 2, 7 },		/* type */
		{ 32 + 28, 2, 9 },	/* extent_type */
		{ 32 + 28, 2, FAMFS_LOG_EXT_INTERLEAVED }, /* bit clear */
	};
	struct th *t = *state;

	assert_int_equal(create(t, "a", 4 * MiB), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct famfs_log_entry *e = famfs_log_slot(t->fs.log, 0);
		struct famfs_log_entry save = *e;
		uint16_t v = htole16(cases[i].v);

		memcpy((char *)e + cases[i].off, &v, 2);
		famfs_entry_set_crc(e);
		assert_int_equal(th_reopen(t), 0);
		if (create(t, "b", 2 * MiB) == 0)
			fail_msg("case %zu: created b over an entry that cannot be parsed",
				 i);
		assert_int_equal(famfs_log_next(t->fs.log), 1);
		*e = save;
	}
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(create(t, "b", 2 * MiB), 0);
}

/* free space in 2 MiB holes only: a 6 MiB file takes 3 extents and the
 * superblock says so first */
static void test_multi_extent_sets_feature(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry *e;
	char reason[FAMFS_REASON_LEN];
	uint64_t idx;

	/* units 2..31: files at 2 (a0) 3 (h) 4 (a1) 5 (h) 6 (a2) 7 (h)
	 * and 8..31 taken */
	th_append_file(t, "a0", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "a1", 8 * MiB, 2 * MiB, 1);
	th_append_file(t, "a2", 12 * MiB, 2 * MiB, 1);
	th_append_file(t, "rest", 16 * MiB, 48 * MiB, 1);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat) &
			 FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT, 0);
	idx = famfs_log_next(t->fs.log);
	assert_int_equal(create(t, "two", 4 * MiB), 0);	/* 2 extents: no bit */
	assert_int_equal(le16toh(famfs_log_slot(t->fs.log, idx)->fm.nextents), 2);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat) &
			 FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT, 0);
	/* give the two back: a fresh fs with three holes */
	t->fs.log->next_index = htole64(idx);
	famfs_fs_cache_drop(&t->fs);
	memset(famfs_log_slot(t->fs.log, idx), 0, FAMFS_LOG_ENTRY_SIZE);
	assert_int_equal(create(t, "three", 6 * MiB), 0);
	e = famfs_log_slot(t->fs.log, idx);
	assert_int_equal(le16toh(e->fm.nextents), 3);
	if (!(le32toh(t->fs.sb->feature_incompat) &
	      FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT))
		fail_msg("a 3-extent file was logged without INCOMPAT_MULTI_EXTENT");
	assert_int_equal(famfs_entry_check(e, idx, t->fs.sb, reason), 0);
	/* the same entry in a log without the bit is corrupt (R2) */
	t->fs.sb->feature_incompat = htole32(le32toh(t->fs.sb->feature_incompat) &
					     ~FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT);
	famfs_sb_set_crc(t->fs.sb);
	if (famfs_entry_check(e, idx, t->fs.sb, reason) == 0)
		fail_msg("a 3-extent entry passes in a log without the multi-extent feature");
	assert_non_null(strstr(reason, "multi-extent"));
}

/* ---- R4: next_index damaged downward ------------------------------------ */
struct probs { int n; char first[1600]; int past; };

static void on_problem(void *arg, const char *msg)
{
	struct probs *p = arg;

	if (!p->n++)
		snprintf(p->first, sizeof(p->first), "%s", msg);
	if (strstr(msg, "committed entry past next_index"))
		p->past++;
}

static void three_files(struct th *t)
{
	assert_int_equal(create(t, "a", 2 * MiB), 0);
	assert_int_equal(create(t, "b", 4 * MiB), 0);
	assert_int_equal(create(t, "c", 2 * MiB), 0);
	assert_int_equal(famfs_log_next(t->fs.log), 3);
}

static void test_next_index_down_fsck_reports(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct probs p = { 0 };

	three_files(t);
	t->fs.log->next_index = htole64(1);	/* b and c drop out */
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, on_problem, &p), 0);
	if (p.past != 1)
		fail_msg("fsck with next_index 1 and valid entries 1, 2: %d 'committed entry past next_index' reports (want 1, for entry 2; entry 1 may be an uncommitted append), %lu problems",
			 p.past, r.problems);
	assert_true(r.problems >= 1);
	/* the used memory counts both */
	assert_int_equal(r.used_bytes, 8 * MiB);
}

/* a whole entry at next_index that was never committed, over c's memory:
 * reserved, no problem (hostile_meta's "uncommitted" case) */
static void test_uncommitted_append_no_problem(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct famfs_log_entry *e;
	struct probs p = { 0 };

	three_files(t);
	e = famfs_log_slot(t->fs.log, 3);
	*e = *famfs_log_slot(t->fs.log, 2);
	e->seq = htole64(3);
	famfs_entry_set_crc(e);
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, on_problem, &p), 0);
	if (r.problems)
		fail_msg("an uncommitted append is reported: %s", p.first);
	assert_int_equal(r.used_bytes, 8 * MiB);
}

static void test_next_index_down_master_refuses(void **state)
{
	struct th *t = *state;

	three_files(t);
	t->fs.log->next_index = htole64(1);
	assert_int_equal(th_reopen(t), 0);
	if (create(t, "d", 2 * MiB) == 0)
		fail_msg("the master appended at index 1 while a valid entry sits at 2 (next_index damaged): d at %llu",
			 (unsigned long long)ext_off(t, 1, 0));
	assert_int_equal(famfs_log_next(t->fs.log), 1);
	assert_int_not_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), 0);
	assert_int_equal(famfs_log_next(t->fs.log), 1);
}

/* next_index one short: entry 2 may be an uncommitted append; its memory
 * stays reserved, and the next append commits it (rolls it forward) rather
 * than overwriting it */
static void test_next_index_one_short_reserves(void **state)
{
	struct th *t = *state;
	struct famfs_bitmap b;

	three_files(t);
	t->fs.log->next_index = htole64(2);	/* c (unit 5) past it */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	if (!famfs_bitmap_test(&b, 5))
		fail_msg("the memory of the valid entry at next_index (c, unit 5) is free");
	famfs_bitmap_free(&b);
	assert_int_equal(create(t, "d", 2 * MiB), 0);
	assert_string_equal(famfs_log_slot(t->fs.log, 3)->fm.path, "d");
	if (ext_off(t, 3, 0) == 10 * MiB)
		fail_msg("d got c's memory");
}

/* next_index one short (bit 0 of an odd next_index flipped): c is committed
 * and clients map it.  Overwriting its slot with the next append loses c's
 * entry, and the next opening gives c's memory to another file.  A whole,
 * valid entry at next_index must be kept (rolled forward), never
 * overwritten. */
static void test_next_index_one_short_not_overwritten(void **state)
{
	struct th *t = *state;

	three_files(t);
	t->fs.log->next_index = htole64(2);	/* c (unit 5) at next_index */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(create(t, "d", 2 * MiB), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), 0);
	if (strcmp(famfs_log_slot(t->fs.log, 2)->fm.path, "c"))
		fail_msg("c's entry (slot 2, at next_index) was overwritten by '%s'",
			 famfs_log_slot(t->fs.log, 2)->fm.path);
	/* a later opening: c's memory is still c's */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(create(t, "e", 2 * MiB), 0);
	for (uint64_t i = 3; i < famfs_log_next(t->fs.log); i++)
		if (famfs_log_slot(t->fs.log, i)->type == htole16(FAMFS_LOG_FILE) &&
		    ext_off(t, i, 0) == 10 * MiB)
			fail_msg("%s (entry %llu) got c's memory (10 MiB)",
				 famfs_log_slot(t->fs.log, i)->fm.path,
				 (unsigned long long)i);
}

/* the same through a mkdir first (no allocation: rolled forward, then
 * appended after it), in a process whose create cache exists */
static void test_next_index_one_short_mkdir_rolls(void **state)
{
	struct th *t = *state;

	three_files(t);
	t->fs.log->next_index = htole64(2);
	assert_int_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), 0);
	assert_string_equal(famfs_log_slot(t->fs.log, 2)->fm.path, "c");
	assert_string_equal(famfs_log_slot(t->fs.log, 3)->fm.path, "x");
	assert_int_equal(famfs_log_next(t->fs.log), 4);
	assert_int_equal(create(t, "e", 2 * MiB), 0);
	assert_string_equal(famfs_log_slot(t->fs.log, 4)->fm.path, "e");
	if (ext_off(t, 4, 0) == 10 * MiB)
		fail_msg("e got c's memory");
}

/* R3 and df: the memory of an entry that cannot be parsed is unknown, not
 * free; df says so (free 0, the rest unknown) instead of promising it */
static void test_df_unparsed_not_free(void **state)
{
	struct th *t = *state;
	struct famfs_df df;
	uint64_t free0;

	assert_int_equal(create(t, "a", 4 * MiB), 0);
	assert_int_equal(create(t, "b", 2 * MiB), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	free0 = df.free;
	assert_int_equal(df.used, 6 * MiB);
	assert_int_equal(df.unknown, 0);
	flip(famfs_log_slot(t->fs.log, 0), 8 * 400 + 3);	/* a's CRC */
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.bad_entries, 1);
	assert_int_equal(df.unparsed_entries, 1);
	assert_int_equal(df.free, 0);
	assert_int_equal(df.used, 2 * MiB);	/* b's, known */
	assert_int_equal(df.unknown, free0 + 4 * MiB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_bad_crc_entry_stops_allocation, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bad_crc_entry_stops_allocation_reopened, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_refused_entry_keeps_memory, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_type_stops_allocation, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_multi_extent_sets_feature, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_down_fsck_reports, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_uncommitted_append_no_problem, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_down_master_refuses, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_one_short_reserves, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_one_short_not_overwritten, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_one_short_mkdir_rolls, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_df_unparsed_not_free, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
