// SPDX-License-Identifier: GPL-2.0
/*
 * A master whose tree lags the log after a hand-over (review r39 D): the
 * old master made and removed files that the new master's mount has not
 * replayed yet; its follower would make them a moment before it applies
 * their DELETE, possibly on memory the new master reclaimed meanwhile.
 * The instance that takes a record another instance held replays the log
 * into its mount to the end, under the log lock, before its first append
 * (and so before any reclaim pass appends): at famfs master claim, and at
 * the claim an append makes.
 *
 * One mount stands for both hosts here: what the old master logs with
 * th_append_dir, or a DELETE appended by hand, is in the log and not in
 * the tree -- the tree of a host that has not replayed it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uuid/uuid.h>

#include "th.h"

/* this process as host `host` with its own /var/lib/famfs (claims) */
static void as_host(struct th *t, const uint8_t host[16], const char *claims)
{
	snprintf(t->claimdir, sizeof(t->claimdir), "%.250s/%.40s", t->dir, claims);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	th_write_id(t->hostid, host);
	assert_int_equal(th_reopen(t), 0);
}

/* a (this host, the master) logs a directory and the DELETE of file x
 * that no tree has replayed, and hands the role to b; this process is
 * b then, its tree behind the log */
static void hand_over_behind(struct th *t)
{
	struct famfs_log_entry e;
	uint64_t id;
	uint8_t b[16];
	int kind;

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&t->fs), 0);	/* not armed */
	th_create_ok(&t->fs, "x", 2 * MiB);
	t->fs.cache_names_want = true;
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	assert_true(famfs_names_lookup(t->fs.cache_names, "x", &id, &kind));
	th_append_dir(t, "d-old");
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0), 0);
	assert_int_equal(famfs_entry_build_delete(&e, id, FAMFS_LOG_FILE, "x"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	uuid_generate(b);
	assert_int_equal(famfs_master_set(&t->fs, b), 0);
	as_host(t, b, "claims-b");
	assert_true(t->fs.master);
	assert_false(t->fs.master_instance);
	/* b's tree: not replayed past x */
	assert_false(th_exists(t, "d-old", true));
	assert_true(th_exists(t, "x", false));
}

/* famfs master claim (cmd_master.c: under the log lock) */
static void test_claim_replays(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	(void)s;
	hand_over_behind(t);
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	assert_int_equal(famfs_master_claim(&t->fs, false), 0);
	famfs_fs_unlock(&t->fs);
	assert_true(t->fs.master_instance);
	assert_true(th_exists(t, "d-old", true));
	assert_false(th_exists(t, "x", false));
	th_free(t);
}

/* the claim made by b's first append: the tree at the log's end before
 * the entry goes in */
static void test_first_append_replays(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	(void)s;
	hand_over_behind(t);
	th_append_dir(t, "from-b");
	assert_true(t->fs.master_instance);
	assert_true(th_exists(t, "d-old", true));
	assert_false(th_exists(t, "x", false));
	/* replayed before it was appended: not made by the replay */
	assert_false(th_exists(t, "from-b", true));
	th_free(t);
}

/* b's first act a reclaim pass (famfs hosts reclaim): the role claimed,
 * and the tree replayed, before the pass decides anything */
static void test_reclaim_pass_replays(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_reclaim_pass pass = { 0 };

	(void)s;
	hand_over_behind(t);
	famfs_quiet = 1;
	assert_int_equal(famfs_reclaim_pass(&t->fs, &pass), 0);
	famfs_quiet = 0;
	assert_true(t->fs.master_instance);
	assert_true(th_exists(t, "d-old", true));
	assert_false(th_exists(t, "x", false));
	th_free(t);
}

/* this instance's own record: nothing replayed at a check */
static void test_own_record_no_replay(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	(void)s;
	th_append_dir(t, "d1");			/* a claims (at open: mine) */
	th_append_dir(t, "d2");
	assert_false(th_exists(t, "d1", true));
	assert_false(th_exists(t, "d2", true));
	th_free(t);
}

/* b's first act after the hand-over: famfs rm of a file a made that b's
 * tree has not replayed yet -- the claim (and its replay) before rm
 * looks at the tree, so the file is there to remove (review r39 1) */
static void test_rm_lagging(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	uint8_t b[16];

	(void)s;
	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	th_create_ok(&t->fs, "x", 2 * MiB);
	th_append_file(t, "y", 20 * MiB, 2 * MiB, 1);	/* a's, not replayed by b */
	uuid_generate(b);
	assert_int_equal(famfs_master_set(&t->fs, b), 0);
	as_host(t, b, "claims-b");
	assert_false(th_exists(t, "y", false));
	assert_int_equal(famfs_remove(&t->fs, "y", false), 0);
	assert_true(t->fs.master_instance);
	assert_false(th_exists(t, "y", false));
	th_free(t);
}

/* the same for famfs mv: the file moved, not left at its old path */
static void test_mv_lagging(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	uint8_t b[16];

	(void)s;
	th_fast_settle();
	th_create_ok(&t->fs, "x", 2 * MiB);
	th_append_file(t, "y", 20 * MiB, 2 * MiB, 1);
	uuid_generate(b);
	assert_int_equal(famfs_master_set(&t->fs, b), 0);
	as_host(t, b, "claims-b");
	assert_int_equal(famfs_rename(&t->fs, "y", "z"), 0);
	assert_false(th_exists(t, "y", false));
	assert_true(th_exists(t, "z", false));
	th_free(t);
}

/* b's mount claims the role after the hand-over (claim_no_replay, under
 * the log lock); replayed: the mount's own replay is done */
static void mount_claim(struct th *t, bool replayed)
{
	hand_over_behind(t);
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	t->fs.claim_no_replay = true;
	assert_int_equal(famfs_master_claim(&t->fs, false), 0);
	t->fs.claim_no_replay = false;
	if (replayed)
		famfs_master_caught_up(&t->fs);
	famfs_fs_unlock(&t->fs);
}

/* a mount's claim (claim_no_replay: the mount replays itself after it
 * registers): the replay stays owed until the mount's own replay is done
 * -- one that failed (the mount left up: its undo's umount failed) leaves
 * it to the next append, which replays first (review r39b MED-1) */
static void test_mount_claim_owed(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	(void)s;
	mount_claim(t, false);
	assert_false(th_exists(t, "d-old", true));	/* not replayed */
	assert_int_equal(th_reopen(t), 0);		/* the next process */
	th_append_dir(t, "from-b");
	assert_true(th_exists(t, "d-old", true));
	assert_false(th_exists(t, "x", false));
	assert_false(th_exists(t, "from-b", true));
	th_free(t);
}

/* ...and once the mount's own replay is done (famfs_master_caught_up),
 * nothing is owed: the next append replays nothing */
static void test_mount_claim_paid(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	(void)s;
	mount_claim(t, true);
	assert_int_equal(th_reopen(t), 0);
	th_append_dir(t, "from-b");
	assert_false(th_exists(t, "d-old", true));
	th_free(t);
}

static int fail_calls;
static int fail_hook(struct famfs_fs *fs)
{
	(void)fs;
	fail_calls++;
	return -EIO;
}

/* a catch-up that fails: nothing is appended, by this process (the next
 * append tries the replay again) nor by the next one on this host (the
 * claim file says the replay is owed); the first that replays appends
 * (review r39 2) */
static void test_catchup_fail_owed(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	int (*saved)(struct famfs_fs *) = famfs_claim_catch_up;

	(void)s;
	hand_over_behind(t);
	fail_calls = 0;
	famfs_claim_catch_up = fail_hook;
	assert_int_not_equal(famfs_mkdir(&t->fs, "m1", 0755, 0, 0, false), 0);
	assert_int_not_equal(famfs_mkdir(&t->fs, "m2", 0755, 0, 0, false), 0);
	assert_int_equal(fail_calls, 2);
	/* the next process on this host */
	assert_int_equal(th_reopen(t), 0);
	assert_int_not_equal(famfs_mkdir(&t->fs, "m3", 0755, 0, 0, false), 0);
	assert_int_equal(fail_calls, 3);
	famfs_claim_catch_up = saved;
	assert_false(th_exists(t, "d-old", true));
	/* the replay at last: then the append */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "m4", 0755, 0, 0, false), 0);
	assert_true(th_exists(t, "d-old", true));
	assert_false(th_exists(t, "x", false));
	/* owed no more: a failing hook is not called again */
	famfs_claim_catch_up = fail_hook;
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "m5", 0755, 0, 0, false), 0);
	famfs_claim_catch_up = saved;
	assert_int_equal(fail_calls, 3);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_claim_replays),
		cmocka_unit_test(test_first_append_replays),
		cmocka_unit_test(test_reclaim_pass_replays),
		cmocka_unit_test(test_own_record_no_replay),
		cmocka_unit_test(test_rm_lagging),
		cmocka_unit_test(test_mv_lagging),
		cmocka_unit_test(test_catchup_fail_owed),
		cmocka_unit_test(test_mount_claim_owed),
		cmocka_unit_test(test_mount_claim_paid),
	};

	return cmocka_run_group_tests_name("claimplay", tests, NULL, NULL);
}
