// SPDX-License-Identifier: GPL-2.0
/*
 * Interleaved files in a file system (mock famfs.ko): the allocator's
 * strips, famfs_file_create_layout (superblock feature, MAP_CREATE_V2),
 * replay on a client, reading maps back (v2, v1 fallback), fsck and df.
 */
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

/* 64 MiB device, 2 MiB log: units 0 (sb) and 1 (log) reserved, 2..31 free */

static const struct famfs_layout L4 = { .nstrips = 4, .chunk = 2 * MiB };

static void test_alloc_strips(void **state)
{
	struct th *t = *state;
	struct famfs_log_interleave_ext ie;
	struct famfs_bitmap b;

	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	/* 24 MiB over 4 strips of 2 MiB chunks: 3 chunks (6 MiB) a strip */
	assert_int_equal(famfs_alloc_strips(&b, 24 * MiB, 4, 2 * MiB, &ie), 0);
	assert_int_equal(le32toh(ie.nstrips), 4);
	assert_int_equal(le64toh(ie.chunk_size), 2 * MiB);
	assert_int_equal(le64toh(ie.strip_len), 6 * MiB);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(le64toh(ie.strip_off[i]), (4 + 6 * i) * MiB);
	for (unsigned i = 4; i < FAMFS_LOG_MAX_STRIPS; i++)
		assert_int_equal(ie.strip_off[i], 0);
	assert_int_equal(ie.reserved, 0);
	assert_int_equal(b.nfree, 30 - 12);
	/* 1 byte still takes one chunk on every strip; 4 MiB chunks */
	assert_int_equal(famfs_alloc_strips(&b, 1, 2, 4 * MiB, &ie), 0);
	assert_int_equal(le64toh(ie.strip_len), 4 * MiB);
	assert_int_equal(le64toh(ie.strip_off[0]), 28 * MiB);
	assert_int_equal(le64toh(ie.strip_off[1]), 32 * MiB);
	assert_int_equal(b.nfree, 30 - 16);
	/* 0 bytes: one chunk a strip, as a simple file gets one unit */
	assert_int_equal(famfs_alloc_strips(&b, 0, 1, 2 * MiB, &ie), 0);
	assert_int_equal(le64toh(ie.strip_len), 2 * MiB);
	/* bad geometry */
	assert_int_equal(famfs_alloc_strips(&b, 1, 0, 2 * MiB, &ie), -EINVAL);
	assert_int_equal(famfs_alloc_strips(&b, 1, 17, 2 * MiB, &ie), -EINVAL);
	assert_int_equal(famfs_alloc_strips(&b, 1, 2, 3 * MiB, &ie), -EINVAL);
	assert_int_equal(famfs_alloc_strips(&b, 1, 2, 0, &ie), -EINVAL);
	famfs_bitmap_free(&b);
}

/* strips go wherever there is room: holes between files are used */
static void test_alloc_strips_holes(void **state)
{
	struct th *t = *state;
	struct famfs_log_interleave_ext ie;
	struct famfs_bitmap b;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 8 * MiB, 2 * MiB, 1);	/* hole at 6 MiB */
	th_append_file(t, "c", 12 * MiB, 2 * MiB, 1);	/* hole at 10 MiB */
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(famfs_alloc_strips(&b, 6 * MiB, 3, 2 * MiB, &ie), 0);
	assert_int_equal(le64toh(ie.strip_off[0]), 6 * MiB);
	assert_int_equal(le64toh(ie.strip_off[1]), 10 * MiB);
	assert_int_equal(le64toh(ie.strip_off[2]), 14 * MiB);
	famfs_bitmap_free(&b);
}

/* all or nothing: a layout that does not fit takes nothing */
static void test_alloc_strips_enospc(void **state)
{
	struct th *t = *state;
	struct famfs_log_interleave_ext ie;
	struct famfs_bitmap b;
	uint64_t before;

	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	before = b.nfree;
	/* 30 units free: 4 strips of 8 units = 32 do not fit (3 would) */
	assert_int_equal(famfs_alloc_strips(&b, 64 * MiB, 4, 2 * MiB, &ie), -ENOSPC);
	assert_int_equal(b.nfree, before);
	for (uint64_t u = 2; u < b.nunits; u++)
		assert_false(famfs_bitmap_test(&b, u));
	/* sizes near 2^64 and huge chunks: no room, nothing wraps */
	assert_int_equal(famfs_alloc_strips(&b, UINT64_MAX, 16, 2 * MiB, &ie), -ENOSPC);
	assert_int_equal(famfs_alloc_strips(&b, 1, 16, 1ULL << 62, &ie), -ENOSPC);
	assert_int_equal(b.nfree, before);
	/* exactly all: 3 strips of 10 units */
	assert_int_equal(famfs_alloc_strips(&b, 60 * MiB, 3, 2 * MiB, &ie), 0);
	assert_int_equal(b.nfree, 0);
	famfs_bitmap_free(&b);
}

static void test_create_sets_feature(void **state)
{
	struct th *t = *state;
	static struct famfs_fmap m;
	struct famfs_bitmap b;
	char p[700];
	int fd;

	/* a simple file: no feature, v1 MAP_CREATE (a famfs.ko without
	 * identities; with them every file is made by MAP_CREATE_V3) */
	famfs_kernel = &th_mock_kernel_noinval;
	fd = famfs_file_create(&t->fs, "plain", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat), 0);
	assert_int_equal(th_mock_v1_creates, 1);
	assert_int_equal(th_mock_v2_creates, 0);
	fd = famfs_file_create_layout(&t->fs, "s", 24 * MiB, 0640, 0, 0, &L4);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_mock_v2_creates, 1);
	/* the superblock says so, with a good CRC, on the media too */
	assert_int_equal(le32toh(t->fs.sb->feature_incompat),
			 FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat),
			 FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
	snprintf(p, sizeof(p), "%s/s", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_int_equal(m.extent_type, FAMFS_INTERLEAVED_EXTENT);
	assert_int_equal(m.file_size, 24 * MiB);
	assert_int_equal(m.iext[0].nstrips, 4);
	assert_int_equal(m.iext[0].nbytes, 24 * MiB);
	assert_int_equal(m.iext[0].strips[0].offset, 8 * MiB);	/* after plain */
	assert_int_equal(m.iext[0].strips[3].offset, 26 * MiB);
	/* the strips are taken in the rebuilt bitmap */
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(b.nfree, 30 - 2 - 12);
	famfs_bitmap_free(&b);
	/* a second one: the feature is not written again */
	fd = famfs_file_create_layout(&t->fs, "s2", 1, 0640, 0, 0, &L4);
	assert_true(fd >= 0);
	close(fd);
}

static void test_create_rejects(void **state)
{
	struct th *t = *state;
	struct famfs_layout bad = { .nstrips = 17, .chunk = 2 * MiB };
	uint64_t n = famfs_log_next(t->fs.log);

	assert_int_equal(famfs_file_create_layout(&t->fs, "x", 1, 0644, 0, 0, &bad),
			 -EINVAL);
	bad.nstrips = 2;
	bad.chunk = 3 * MiB;
	assert_int_equal(famfs_file_create_layout(&t->fs, "x", 1, 0644, 0, 0, &bad),
			 -EINVAL);
	/* no room: nothing logged, no file left, no feature set */
	assert_int_equal(famfs_file_create_layout(&t->fs, "x", 64 * MiB, 0644, 0,
						  0, &L4), -ENOSPC);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_false(th_exists(t, "x", false));
	assert_int_equal(le32toh(t->fs.sb->feature_incompat), 0);
}

/* reading maps back: v2, and v1 when the module has no v2 */
static void test_fmap_get(void **state)
{
	struct th *t = *state;
	static struct famfs_fmap m;
	char p[700];
	uint64_t n;
	int fd;

	fd = famfs_file_create_layout(&t->fs, "s", 5 * MiB, 0640, 0, 0, &L4);
	assert_true(fd >= 0);
	th_mock_v2_gets = th_mock_v3_gets = 0;
	assert_int_equal(famfs_fmap_get(fd, &m), 0);
	/* v3 when the module has it (v2's refusals are logged by famfs.ko) */
	assert_int_equal(th_mock_v2_gets, 0);
	assert_int_equal(th_mock_v3_gets, 2);	/* the count, then the list */
	assert_int_equal(m.extent_type, FAMFS_INTERLEAVED_EXTENT);
	assert_int_equal(m.iext[0].strips[2].offset, 8 * MiB);
	/* a module with v2 and no v3 */
	famfs_kernel = &th_mock_kernel_v2;
	memset(&m, 0, sizeof(m));
	th_mock_v2_gets = 0;
	assert_int_equal(famfs_fmap_get(fd, &m), 0);
	assert_int_equal(th_mock_v2_gets, 2 + 1);	/* the probe, count, list */
	assert_int_equal(m.extent_type, FAMFS_INTERLEAVED_EXTENT);
	assert_int_equal(m.iext[0].strips[2].offset, 8 * MiB);
	famfs_kernel = &th_mock_kernel;
	{
		struct famfs_ioc_map v1;

		/* v1 refuses what it cannot express */
		assert_int_equal(th_mock_kernel.map_get(fd, &v1), -EOVERFLOW);
	}
	close(fd);
	fd = famfs_file_create(&t->fs, "p", 1, 0640, 0, 0);
	assert_true(fd >= 0);
	famfs_kernel = &th_mock_kernel_v1;
	assert_int_equal(famfs_fmap_get(fd, &m), 0);
	assert_int_equal(m.extent_type, SIMPLE_DAX_EXTENT);
	assert_int_equal(m.count, 1);
	assert_int_equal(m.ext[0].offset, 12 * MiB);
	close(fd);
	/* an older module cannot map an interleaved file: refused, not
	 * logged (test_legacy.c has more) */
	n = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_file_create_layout(&t->fs, "old", 1, 0640, 0, 0,
						  &L4), -EOPNOTSUPP);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	snprintf(p, sizeof(p), "%s/s", t->mpt);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(famfs_fmap_get(fd, &m), -EOVERFLOW);
	close(fd);
	famfs_kernel = &th_mock_kernel;
}

static void test_replay_client(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	static struct famfs_fmap want, have;
	char p[700];
	struct stat st;
	int fd;

	famfs_kernel = &th_mock_kernel_noinval;	/* v1 and v2 counted */
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	fd = famfs_file_create_layout(&t->fs, "d/s", 13 * MiB, 0640, 0, 0, &L4);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "p", 1, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/d/s", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &want), 0);
	th_remount(t);
	th_become_client(t);
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.created_files, 2);
	assert_int_equal(r.conflicts + r.bad_entries + r.errors, 0);
	assert_int_equal(th_mock_v2_creates, 1);
	assert_int_equal(th_mock_v1_creates, 1);
	assert_int_equal(th_mock_lookup_fmap(p, &have), 0);
	assert_true(famfs_fmap_equal(&want, &have));
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, 13 * MiB);
	assert_int_equal(st.st_mode & 0777, 0440);	/* a client's: read-only */
	/* idempotent: the map read back (v2) equals the log's */
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.present, 3);
	assert_int_equal(r.created_files + r.conflicts + r.errors, 0);
}

/* a map that differs from the log's (another strip) is a conflict */
static void test_replay_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	static struct famfs_fmap m;
	char p[700];
	int fd;

	fd = famfs_file_create_layout(&t->fs, "s", 4 * MiB, 0640, 0, 0, &L4);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/s", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	th_remount(t);
	m.iext[0].strips[1].offset += 40 * MiB;
	fd = open(p, O_RDWR | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(famfs_fmap_create(fd, &m), 0);
	close(fd);
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.conflicts, 1);
}

/* logplay --follow: rounds pick up interleaved entries as they come */
static void test_follow_rounds(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r = { 0 };
	struct famfs_logplay *lp;
	int fd;

	fd = famfs_file_create_layout(&t->fs, "one", 5 * MiB, 0644, 0, 0, &L4);
	assert_true(fd >= 0);
	close(fd);
	th_remount(t);
	lp = famfs_logplay_new(16);
	assert_non_null(lp);
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.created_files, 1);
	assert_int_equal(famfs_logplay_next(lp), 1);
	fd = famfs_file_create_layout(&t->fs, "two", 9 * MiB, 0644, 0, 0, &L4);
	assert_true(fd >= 0);	/* created here too: the round finds it present */
	close(fd);
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.created_files, 1);
	assert_int_equal(r.present, 1);
	assert_int_equal(r.conflicts + r.errors + r.bad_entries, 0);
	assert_int_equal(famfs_logplay_next(lp), 2);
	famfs_logplay_free(lp);
}

/* fsck: strips that overlap another file, outside the device, a missing
 * feature bit; df and fsck count strips */
static void raw_il(struct th *t, const char *path, uint64_t size,
		   const uint64_t *offs, uint32_t ns, uint64_t slen)
{
	struct famfs_log_interleave_ext ie = { 0 };
	struct famfs_log_entry e;

	ie.nstrips = htole32(ns);
	ie.chunk_size = htole64(2 * MiB);
	ie.strip_len = htole64(slen);
	for (uint32_t i = 0; i < ns; i++)
		ie.strip_off[i] = htole64(offs[i]);
	assert_int_equal(famfs_entry_build_interleaved(&e, path, size, 0644, 0, 0,
						       &ie), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
}

static void test_fsck(void **state)
{
	struct th *t = *state;
	static const uint64_t ok[3] = { 20 * MiB, 8 * MiB, 40 * MiB };
	static const uint64_t clash[2] = { 50 * MiB, 10 * MiB };	/* 10: ok[1] */
	static const uint64_t out[2] = { 56 * MiB, 62 * MiB };		/* past 64 */
	struct famfs_fsck_result r;
	struct famfs_df df;

	/* without the feature bit, an interleaved entry is corrupt */
	raw_il(t, "early", 1, ok, 1, 2 * MiB);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.problems, 1);
	assert_int_equal(r.used_bytes, 0);
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, FAMFS_FEATURE_INCOMPAT_INTERLEAVE, 0), 0);
	/* ... and fine once the superblock has it */
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.used_bytes, 2 * MiB);
	raw_il(t, "s", 12 * MiB, ok, 3, 4 * MiB);	/* 20..24: overlaps early */
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 1);
	assert_int_equal(r.files, 2);
	assert_int_equal(r.used_bytes, 12 * MiB);	/* early's unit once */
	raw_il(t, "t", 8 * MiB, clash, 2, 4 * MiB);	/* strip 1 in s's strip 1 */
	raw_il(t, "u", 1, out, 2, 4 * MiB);		/* outside: corrupt */
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.problems, 3);
	assert_int_equal(r.used_bytes, 18 * MiB);	/* t: 4 + 2 unshared */
	/* df counts every strip of every valid entry once */
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.used, 18 * MiB);
	assert_int_equal(df.files, 3);
	assert_int_equal(df.bad_entries, 1);
}

/* fsck finds nothing in what the tool made */
static void test_fsck_clean(void **state)
{
	struct th *t = *state;
	struct famfs_layout l = { .nstrips = 3, .chunk = 4 * MiB };
	struct famfs_fsck_result r;
	int fd;

	fd = famfs_file_create_layout(&t->fs, "a", 9 * MiB, 0644, 0, 0, &l);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "b", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create_layout(&t->fs, "c", 2 * MiB, 0644, 0, 0, &L4);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.files, 3);
	assert_int_equal(r.used_bytes, (12 + 4 + 8) * MiB);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, th_setup, th_teardown)
	const struct CMUnitTest tests[] = {
		T(test_alloc_strips),
		T(test_alloc_strips_holes),
		T(test_alloc_strips_enospc),
		T(test_create_sets_feature),
		T(test_create_rejects),
		T(test_fmap_get),
		T(test_replay_client),
		T(test_replay_conflict),
		T(test_follow_rounds),
		T(test_fsck),
		T(test_fsck_clean),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
