// SPDX-License-Identifier: GPL-2.0
/* Reclaimed memory on a replay (issue 29, review r38 finding 7, the cost
 * left in docs/lifecycle.md): a replay drops this host's cache lines of
 * the memory of a file it makes only when that memory may have been
 * another file's -- an extent that meets the memory of a file a DELETE
 * earlier in the log removed.  Counted by famfs_flush_stats.file_invalidates
 * on a fresh mount (a whole replay) and in rounds (--follow): one file on
 * reclaimed memory, one beside it, files of a log without a DELETE.  The
 * lines go before the map is published: MAP_CREATE_V3 with
 * FAMFS_IOC_MAP_INVALIDATE; a famfs.ko that refuses the flag (EINVAL) gets
 * the map without it (and FAMFSIOC_CACHE after it), said once. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

/* files of these tests, far from the log and the host table */
#define A_OFF	(40 * MiB)
#define B_OFF	(44 * MiB)
#define D_OFF	(60 * MiB)

static struct th *fs_with_table_fmt(bool compact)
{
	struct th *t = th_new_fmt(256 * MiB, 8 * MiB, compact);

	/* the master's famfs.ko holds what it deleted: no pass frees it */
	th_mock_held_hook = th_mock_hold_all;
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE,
						 0), 0);
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	return t;
}

static struct th *fs_with_table(void)
{
	return fs_with_table_fmt(true);
}

static uint64_t del(struct th *t, uint64_t obj, const char *p)
{
	uint64_t idx = famfs_log_next(t->fs.log);
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_delete(&e, obj, FAMFS_LOG_FILE, p), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return idx;
}

/* a fresh mount: empty directory, the mock forgets every map */
static void remount(struct th *t)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/.meta'", t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	th_mock_held_hook = th_mock_hold_all;
}

/* the invalidations of one whole replay on a fresh mount */
static unsigned long replay_fresh(struct th *t, unsigned long files)
{
	struct famfs_logplay_result r;

	remount(t);
	famfs_flush_stats.file_invalidates = 0;
	famfs_flush_stats.file_stale = 0;
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	th_play_clean(&r);
	assert_int_equal(r.created_files, files);
	/* each by the create itself, or by FAMFSIOC_CACHE after it (a
	 * famfs.ko without the flag) */
	assert_int_equal(th_mock_v3_invalidates + th_mock_cache_invalidates,
			 famfs_flush_stats.file_invalidates);
	return famfs_flush_stats.file_invalidates;
}

/* a removed, reclaimed, its memory c's; d elsewhere: c alone */
static void test_reuse_whole(void **s)
{
	struct th *t = fs_with_table();
	uint64_t a, d;

	(void)s;
	a = th_append_file(t, "a", A_OFF, 2 * MiB, 100);
	th_append_file(t, "b", B_OFF, 2 * MiB, 100);
	d = del(t, a, "a");
	assert_int_equal(famfs_reclaim_append(&t->fs, &d, 1, NULL), 0);
	th_append_file(t, "c", A_OFF, 2 * MiB, 100);
	th_append_file(t, "d", D_OFF, 2 * MiB, 100);
	assert_int_equal(replay_fresh(t, 3), 1);
	assert_int_equal(th_mock_off_of(t, "c"), A_OFF);
	th_free(t);
}

/* part of a file on reclaimed memory (its second extent) counts; a file
 * that only touches the unit after it does not */
static void test_reuse_part(void **s)
{
	struct th *t = fs_with_table();
	uint64_t a, d;

	(void)s;
	a = th_append_file(t, "a", A_OFF, 4 * MiB, 100);
	d = del(t, a, "a");
	assert_int_equal(famfs_reclaim_append(&t->fs, &d, 1, NULL), 0);
	th_append_file(t, "c", A_OFF + 2 * MiB, 2 * MiB, 100);
	th_append_file(t, "e", A_OFF + 4 * MiB, 2 * MiB, 100);
	assert_int_equal(replay_fresh(t, 2), 1);
	th_free(t);
}

/* deletes without reuse, and a log without any: nothing invalidated */
static void test_no_reuse(void **s)
{
	struct th *t = fs_with_table();
	uint64_t a;

	(void)s;
	th_append_file(t, "x", A_OFF, 2 * MiB, 100);
	th_append_file(t, "y", B_OFF, 2 * MiB, 100);
	assert_int_equal(replay_fresh(t, 2), 0);
	a = th_append_file(t, "a", D_OFF, 2 * MiB, 100);
	del(t, a, "a");
	th_append_file(t, "z", D_OFF + 8 * MiB, 2 * MiB, 100);
	assert_int_equal(replay_fresh(t, 3), 0);
	th_free(t);
}

/* in rounds (famfs logplay --follow): the DELETE of one round is known in
 * the next, where the file on its memory is made */
static void test_reuse_rounds(void **s)
{
	struct th *t = fs_with_table();
	struct famfs_logplay_result r;
	struct famfs_logplay *lp;
	uint64_t a, d;

	(void)s;
	a = th_append_file(t, "a", A_OFF, 2 * MiB, 100);
	th_append_file(t, "b", B_OFF, 2 * MiB, 100);
	remount(t);
	famfs_flush_stats.file_invalidates = 0;
	lp = famfs_logplay_new(0);
	assert_non_null(lp);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	th_play_clean(&r);
	assert_int_equal(r.created_files, 2);
	/* a round with the DELETE and the RECLAIM alone */
	d = del(t, a, "a");
	assert_int_equal(famfs_reclaim_append(&t->fs, &d, 1, NULL), 0);
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	th_play_clean(&r);
	assert_int_equal(r.created_files, 2);
	assert_int_equal(r.removed, 1);
	assert_int_equal(famfs_flush_stats.file_invalidates, 0);
	/* the next round: the file on its memory */
	th_append_file(t, "c", A_OFF, 2 * MiB, 100);
	th_append_file(t, "e", D_OFF, 2 * MiB, 100);
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	th_play_clean(&r);
	assert_int_equal(r.created_files, 4);
	assert_int_equal(r.removed, 1);
	assert_int_equal(famfs_flush_stats.file_invalidates, 1);
	famfs_logplay_free(lp);
	th_free(t);
}

/* a and b deleted and reclaimed, c and e made on their memory */
static void reuse_both(struct th *t)
{
	uint64_t a, b, d[2];

	a = th_append_file(t, "a", A_OFF, 2 * MiB, 100);
	b = th_append_file(t, "b", B_OFF, 2 * MiB, 100);
	d[0] = del(t, a, "a");
	d[1] = del(t, b, "b");
	assert_int_equal(famfs_reclaim_append(&t->fs, d, 2, NULL), 0);
	th_append_file(t, "c", A_OFF, 2 * MiB, 100);
	th_append_file(t, "e", B_OFF, 2 * MiB, 100);
}

/* a famfs.ko without FAMFS_IOC_MAP_INVALIDATE: the files on reclaimed
 * memory made all the same, then FAMFSIOC_CACHE (the mock's, counted),
 * and said once, not per file */
static void test_old_module(void **s)
{
	struct th *t = fs_with_table();
	char buf[4096];
	const char *p;
	int n = 0;

	(void)s;
	reuse_both(t);
	famfs_kernel = &th_mock_kernel_noinval;
	th_stderr_grab();
	assert_int_equal(replay_fresh(t, 2), 2);
	th_stderr_take(buf, sizeof(buf));
	assert_int_equal(th_mock_cache_invalidates, 2);
	assert_int_equal(th_mock_v3_invalidates, 0);
	assert_int_equal(famfs_flush_stats.file_stale, 0);
	assert_int_equal(th_mock_off_of(t, "c"), A_OFF);
	assert_int_equal(th_mock_off_of(t, "e"), B_OFF);
	for (p = buf; (p = strstr(p, "FAMFS_IOC_MAP_INVALIDATE")); p++)
		n++;
	assert_int_equal(n, 1);
	assert_non_null(strstr(buf, "dropped only after it is mapped"));
	assert_null(strstr(buf, "cannot drop"));
	/* the same module in a later replay: not asked again, nothing said */
	th_stderr_grab();
	assert_int_equal(replay_fresh(t, 2), 2);
	assert_int_equal(th_mock_cache_invalidates, 2);
	th_stderr_take(buf, sizeof(buf));
	assert_null(strstr(buf, "FAMFS_IOC_MAP_INVALIDATE"));
	famfs_kernel = &th_mock_kernel;
	th_free(t);
}

/* a famfs.ko without v3 and without FAMFSIOC_CACHE: nothing drops the
 * lines; said once (not that they are dropped after the map), counted in
 * file_stale, no file_invalidates */
static void test_no_v3_module(void **s)
{
	struct th *t = fs_with_table();
	char buf[4096];
	const char *p;
	int n = 0;

	(void)s;
	reuse_both(t);
	famfs_kernel = &th_mock_kernel_v2;
	th_stderr_grab();
	assert_int_equal(replay_fresh(t, 2), 0);
	th_stderr_take(buf, sizeof(buf));
	assert_int_equal(famfs_flush_stats.file_stale, 2);
	assert_null(strstr(buf, "dropped only after it is mapped"));
	for (p = buf; (p = strstr(p, "no FAMFSIOC_CACHE")); p++)
		n++;
	assert_int_equal(n, 1);
	assert_non_null(strstr(buf, "are not dropped"));
	famfs_kernel = &th_mock_kernel;
	th_free(t);
}

/* a DELETE that does not verify on this host is skipped: it may have been
 * the DELETE of a file whose memory a later file has (reclaimed), so the
 * replay fails closed -- every file it makes after the skip gets its lines
 * dropped, as after a DELETE whose FILE entry cannot be read; said once.
 * A whole replay (fresh mount) and in rounds (--follow's state, played
 * past the skip as famfs logplay does) */
static void skipped_delete(struct th *t)
{
	uint64_t a, d;
	uint8_t *p;

	a = th_append_file(t, "a", A_OFF, 2 * MiB, 100);
	d = del(t, a, "a");
	assert_int_equal(famfs_reclaim_append(&t->fs, &d, 1, NULL), 0);
	th_append_file(t, "c", A_OFF, 2 * MiB, 100);
	p = (uint8_t *)famfs_log_slot(t->fs.log, d);
	p[60] ^= 1;	/* the DELETE's path (v1: at 32 + 24) */
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	assert_int_equal(th_reopen(t), 0);
}

static void test_skipped_delete_drops_all(void **s)
{
	struct th *t = fs_with_table_fmt(false);
	struct famfs_logplay_result r;
	struct famfs_logplay *lp;
	char buf[8192];

	(void)s;
	skipped_delete(t);
	remount(t);
	famfs_flush_stats.file_invalidates = 0;
	th_stderr_grab();
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	th_stderr_take(buf, sizeof(buf));
	/* the DELETE, and the RECLAIM that names it; a, created before the
	 * DELETE that is not read here, is withheld (fullhold.c) */
	assert_true(r.bad_entries >= 1);
	assert_int_equal(r.created_files, 1);
	assert_int_equal(r.withheld, 1);
	assert_true(famfs_flush_stats.file_invalidates >= 1);
	assert_non_null(strstr(buf, "cache lines"));
	/* in rounds: the skip in one round, the file in the next */
	remount(t);
	famfs_flush_stats.file_invalidates = 0;
	lp = famfs_logplay_new(0);
	assert_non_null(lp);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	assert_true(r.bad_entries >= 1);
	th_append_file(t, "e", D_OFF, 2 * MiB, 100);
	famfs_flush_stats.file_invalidates = 0;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.created_files, 2);
	assert_int_equal(famfs_flush_stats.file_invalidates, 1);
	famfs_logplay_free(lp);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reuse_whole),
		cmocka_unit_test(test_reuse_part),
		cmocka_unit_test(test_no_reuse),
		cmocka_unit_test(test_reuse_rounds),
		cmocka_unit_test(test_old_module),
		cmocka_unit_test(test_no_v3_module),
		cmocka_unit_test(test_skipped_delete_drops_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
