// SPDX-License-Identifier: GPL-2.0
/* Crash safety of delete and reclaim (issue 29 item 5), a crash at every
 * flush (famfs_flush_hook, k = 1.. until the operation completes) of:
 * the first famfs rm of a file (it makes the host table: feature bit,
 * table zeroed, header, HOSTS entry; then the DELETE, then the unlink
 * here) and of the master's reclaim pass that frees 31 pending DELETEs
 * (its own slot, then two RECLAIM entries) while a client is past them.
 * After each crash a new opening finds (th_crash.c): every committed file
 * with its extents, no unit of two owners, no DELETE reclaimed twice, no
 * owned memory free in the allocator, fsck clean, a file deleted in the
 * log but still here removed by the next logplay; then the master goes
 * on (the operation again, then a new file on memory nobody has, which
 * reads zero).  Slot writes and creates on reclaimed memory:
 * test_reclaimcrash2.c. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <unistd.h>

#include <sanitizer/lsan_interface.h>

#include "th_crash.h"

static struct th *mk(uint64_t size, bool compact)
{
	struct th *t = th_new_fmt(size, 8 * MiB, compact);

	th_fast_settle();
	return t;
}

/* ---- 1. the rm that makes the host table ---- */
static void rm_first(bool compact)
{
	struct th *volatile t = NULL;
	volatile int done = 0;
	volatile unsigned k;

	for (k = 1; !done && k < 100; k++) {
		struct thc_state before, now;
		int rc;

		th_free(t);
		t = mk(128 * MiB, compact);
		th_create_ok(&t->fs, "a", 2 * MiB);
		th_create_ok(&t->fs, "b", 4 * MiB);
		th_create_ok(&t->fs, "c", 2 * MiB);
		thc_scan(&t->fs, &before);
		thc_flushes = 0;
		thc_crash_at = k;
		famfs_flush_hook = thc_hook;
		__lsan_disable();	/* what a crashed process had is gone */
		if (!setjmp(thc_jmp)) {
			assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
			done = 1;
		}
		__lsan_enable();
		thc_recover(t);
		thc_check(t, &before, "b", &now);
		assert_int_equal(now.reclaims, 0);	/* frees nothing */
		/* the master goes on: the rm again if it did not log */
		if (thc_find(&now, "b", THC_LIVE)) {
			/* -ENOENT: its DELETE was whole at next_index, and
			 * this rm committed it first (R4): b is gone from the
			 * log, still here until the next replay */
			famfs_quiet = 1;
			rc = famfs_remove(&t->fs, "b", false);
			famfs_quiet = 0;
			assert_true(rc == 0 || rc == -ENOENT);
		}
		thc_state_free(&now);
		thc_check(t, &before, "b", &now);
		assert_true(now.hosts);
		assert_null(thc_find(&now, "b", THC_LIVE));
		assert_false(th_exists(t, "b", false));
		thc_state_free(&now);
		thc_new_file(t, "d", 4 * MiB);
		/* armed (the first rm's table is not: famfs hosts arm),
		 * the next rm frees both (the master alone) */
		assert_int_equal(famfs_hosts_arm(&t->fs), 0);
		assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
		thc_check(t, NULL, NULL, &now);
		assert_null(thc_find(&now, "b", THC_PENDING));
		assert_non_null(thc_find(&now, "b", THC_RECLAIMED));
		assert_non_null(thc_find(&now, "a", THC_RECLAIMED));
		thc_state_free(&now);
		thc_new_file(t, "e", 6 * MiB);
		thc_state_free(&before);
	}
	th_free(t);
	assert_true(done);
	/* bit, table zeroed, header, HOSTS entry and its commit, DELETE bit,
	 * DELETE entry and its commit */
	print_message("rm that makes the table: %u crash points\n", k - 1);
	assert_true(k - 1 > 6);
}

static void test_rm_first(void **s)
{
	(void)s;
	rm_first(true);
}

static void test_rm_first_v1(void **s)
{
	(void)s;
	rm_first(false);
}

/* ---- 2. the master's pass: 31 DELETEs, a client past them ---- */
#define NDEL 31		/* FAMFS_RECLAIM_MAX + 2: two RECLAIM entries */

static struct th *pending31(bool compact)
{
	struct th *t = mk(128 * MiB, compact);
	struct famfs_log_entry e;
	uint64_t idx[NDEL];
	char p[16], q[PATH_MAX];

	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	th_create_ok(&t->fs, "keep", 2 * MiB);
	for (unsigned i = 0; i < NDEL; i++) {
		snprintf(p, sizeof(p), "f%u", i);
		idx[i] = famfs_log_next(t->fs.log);
		th_create_ok(&t->fs, p, 2 * MiB);
	}
	/* famfs rm's DELETEs without its passes (test_reclaimpass.c) */
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0), 0);
	for (unsigned i = 0; i < NDEL; i++) {
		snprintf(p, sizeof(p), "f%u", i);
		assert_int_equal(famfs_entry_build_delete(&e, idx[i],
							  FAMFS_LOG_FILE, p), 0);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
		snprintf(q, sizeof(q), "%s/%s", t->mpt, p);
		assert_int_equal(unlink(q), 0);
	}
	/* a client registered at the start, past every DELETE, holding
	 * nothing */
	thc_other_host(t, 17, 0, famfs_log_next(t->fs.log), FAMFS_HOLDS_NONE);
	return t;
}

static unsigned count(const struct thc_state *s, int state)
{
	unsigned n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->f[i].state == state;
	return n;
}

static void pass_crash(bool compact)
{
	struct th *volatile t = NULL;
	volatile int done = 0;
	volatile unsigned k;

	for (k = 1; !done && k < 100; k++) {
		struct famfs_reclaim_pass pass = { 0 };
		struct thc_state before, now;

		th_free(t);
		t = pending31(compact);
		thc_scan(&t->fs, &before);
		assert_int_equal(count(&before, THC_PENDING), NDEL);
		thc_flushes = 0;
		thc_crash_at = k;
		famfs_flush_hook = thc_hook;
		__lsan_disable();
		if (!setjmp(thc_jmp)) {
			assert_int_equal(famfs_reclaim_pass(&t->fs, &pass), 0);
			done = 1;
		}
		__lsan_enable();
		thc_recover(t);
		thc_check(t, &before, NULL, &now);
		assert_int_equal(count(&now, THC_PENDING) +
				 count(&now, THC_RECLAIMED), NDEL);
		if (done) {
			assert_int_equal(pass.reclaimed, NDEL);
			assert_int_equal(pass.freed, NDEL * 2 * MiB);
		}
		thc_state_free(&now);
		/* the master goes on: a new pass frees the rest, once */
		memset(&pass, 0, sizeof(pass));
		assert_int_equal(famfs_reclaim_pass(&t->fs, &pass), 0);
		thc_check(t, &before, NULL, &now);
		assert_int_equal(count(&now, THC_RECLAIMED), NDEL);
		assert_int_equal(now.reclaims, 2);
		thc_state_free(&now);
		thc_new_file(t, "new", 4 * MiB);	/* on the freed memory */
		thc_state_free(&before);
	}
	th_free(t);
	assert_true(done);
	/* the master's slot, two RECLAIM entries and their commits */
	print_message("reclaim pass of %u DELETEs: %u crash points\n", NDEL,
		      k - 1);
	assert_true(k - 1 > 4);
}

static void test_pass(void **s)
{
	(void)s;
	pass_crash(true);
}

static void test_pass_v1(void **s)
{
	(void)s;
	pass_crash(false);
}

/* ---- the DELETE logged, the file still here ---- */
static void test_delete_not_unlinked(void **s)
{
	struct th *t = mk(64 * MiB, true);
	struct famfs_logplay_result r;
	struct thc_state before, now;
	struct famfs_log_entry e;

	(void)s;
	th_create_ok(&t->fs, "a", 2 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	thc_scan(&t->fs, &before);
	/* what famfs rm does up to its unlink */
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0), 0);
	assert_int_equal(famfs_entry_build_delete(&e, 0, FAMFS_LOG_FILE, "a"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(th_reopen(t), 0);
	assert_true(th_exists(t, "a", false));
	/* a pass meanwhile: the memory of a file still here is held by this
	 * host's famfs.ko (mocked: the master holds it) */
	th_mock_held_hook = thc_hold_all;
	{
		struct famfs_reclaim_pass pass = { 0 };

		assert_int_equal(famfs_reclaim_pass(&t->fs, &pass), 0);
		assert_int_equal(pass.pending, 1);
		assert_int_equal(pass.reclaimed, 0);
	}
	th_mock_held_hook = NULL;
	/* the next replay removes it (thc_check runs one) */
	thc_check(t, &before, "a", &now);
	assert_false(th_exists(t, "a", false));
	assert_non_null(thc_find(&now, "a", THC_PENDING));
	thc_state_free(&now);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.removed + r.conflicts + r.errors, 0);
	/* and the rm of the path again: not in the log any more */
	famfs_quiet = 1;
	assert_int_not_equal(famfs_remove(&t->fs, "a", false), 0);
	famfs_quiet = 0;
	thc_new_file(t, "c", 2 * MiB);
	thc_state_free(&before);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rm_first),
		cmocka_unit_test(test_rm_first_v1),
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_pass_v1),
		cmocka_unit_test(test_delete_not_unlinked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
