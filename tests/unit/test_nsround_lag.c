// SPDX-License-Identifier: GPL-2.0
/* A lagging follower's round (famfs_logplay_more): it does not make a file
 * another replayer on this host reported past the DELETE of (review r40:
 * scenarios A and B), nor does its DELETE of a file it never made remove
 * the live file at that path on the same memory; the r42d review probes
 * (a RENAME into the path, the last FILE at the path, the old inode's
 * mode kept).  With a mocked famfs.ko. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_nsround.h"

/*
 * Scenario A of the lagging follower (review r40): a follower's round
 * stands at z; the master logs FILE a and its DELETE; a full replay on
 * this host (famfs logplay) never makes a and reports past the DELETE
 * (its slot is the host's: last writer wins), the master reclaims a's
 * memory and a new file g gets it.  The follower's next round must not
 * make a on g's memory -- not even while it is stopped (SIGTERM) between
 * a and its DELETE -- and its DELETE is then no conflict.  Client: a
 * DELETE of what is not here is said otherwise.
 */
static void test_lagging_round_ahead_delete(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	uint64_t a, d;
	int n;

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	to_client(t);
	th_more(t, lp, &r);		/* the follower's first round */
	assert_int_equal(th_mock_off_or_0(t, "z"), 20 * MiB);
	to_master(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d = th_del(t, a, F, "a");
	to_client(t);
	r = th_replay(t);			/* famfs logplay: never makes a */
	th_play_clean(&r);
	assert_false(th_exists(t, "a", false));
	to_master(t);		/* reclaimed; g on a's memory */
	th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	/* the follower, stopped (SIGTERM) between a and its DELETE */
	n = 1;
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, th_stop_after, &n), 0);
	if (th_exists(t, "a", false))
		fail_msg("a made by the lagging round at %llu (g's memory)",
			 (unsigned long long)th_mock_off_or_0(t, "a"));
	assert_int_equal(famfs_logplay_next(lp), d);
	assert_int_equal(r.created_files, 0);
	th_play_clean(&r);
	/* its next round: the DELETE of what it never made says nothing */
	th_more(t, lp, &r);
	th_play_clean(&r);
	assert_false(th_exists(t, "a", false));
	assert_int_equal(th_mock_off_or_0(t, "g"), 24 * MiB);
	famfs_logplay_free(lp);
}

/* Scenario B: the master instance's follower lags its own passes (which
 * report its slot replayed to the log's end): a file created and deleted
 * meanwhile, its memory reclaimed and given to g, is not made by the
 * follower's round, stopped or not; a RENAME and a SETATTR of it are no
 * conflicts either */
static void test_lagging_master_round_ahead_delete(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	uint64_t a;
	int n;

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_ren(t, a, F, "a", "b");
	chmod_of(t, a, "b", 0600);
	th_del(t, a, F, "b");
	th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
	n = 1;
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, th_stop_after, &n), 0);
	assert_false(th_exists(t, "a", false));
	th_play_clean(&r);
	n = 1;				/* stopped after the RENAME */
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, th_stop_after, &n), 0);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
	th_play_clean(&r);
	th_more(t, lp, &r);
	th_play_clean(&r);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
	assert_int_equal(th_mock_off_or_0(t, "g"), 24 * MiB);
	famfs_logplay_free(lp);
}

/* A lagging round whose DELETE names a file it left unmade (skip: its
 * DELETE was ahead) -- the file's memory reclaimed and given to a new
 * file at the same path, same size (the same map), which another replayer
 * here (famfs logplay) made: play_delete tries FAMFSIOC_UNLINK_MAP
 * (remove_by_map) before it asks skipped(), so famfs.ko compares the old
 * file's map with the new file's, equal, and unlinks the live file.
 * Stopped (SIGTERM) after the DELETE, the live file is gone here until
 * the next round makes it again (a new inode: open ones are orphaned) */
static void test_lagging_delete_unlinks_reused(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	uint64_t a;
	int n;

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	to_client(t);
	th_more(t, lp, &r);		/* the follower's first round */
	to_master(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_del(t, a, F, "a");
	to_master(t);		/* reclaimed; a new a on the old a's memory */
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	r = th_replay(t);		/* famfs logplay: the new a made */
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	/* the follower, stopped (SIGTERM) after the DELETE */
	n = 2;
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, th_stop_after, &n), 0);
	famfs_quiet = 0;
	if (!th_exists(t, "a", false) || r.removed)
		fail_msg("the lagging round's DELETE of the old a (never made by it) removed the live a at the same path with the same map (%lu removed; a %s)",
			 r.removed, th_exists(t, "a", false) ? "there" : "gone");
	famfs_logplay_free(lp);
}


/* ---- r42d review probes ---- */
/* an fd kept open on rel: unlinked later, its st_nlink is 0 */
static int hold_open(struct th *t, const char *rel)
{
	char p[700];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

static uint64_t file_mode_at(struct th *t, const char *path, uint64_t off,
			     uint32_t mode, uint32_t uid)
{
	struct famfs_log_simple_ext ext = { htole64(off), htole64(2 * MiB) };
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, path, 100, mode,
					   uid, uid, &ext, 1), 0);
	return th_app(t, &e);
}

/* r42d 1: rm a; reclaim; create tmp (a's memory); mv tmp a.  Another
 * replayer here made the new a.  A lagging round's DELETE of the old a
 * sees no FILE at "a" (the new one came by a RENAME) and UNLINK_MAP
 * unlinks the live a: a new inode after the round. */
static void test_r42d_rename_into_path(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	struct famfs_logplay_result r;
	uint64_t a, n2;
	ino_t before;
	int fd;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_del(t, a, F, "a");
	n2 = th_append_file(t, "tmp", 24 * MiB, 2 * MiB, 100);
	th_ren(t, n2, F, "tmp", "a");
	to_client(t);
	r = th_replay(t);		/* famfs logplay: the new a made */
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	before = ino_of(t, "a");
	fd = hold_open(t, "a");
	r = round_of(t, lp, -1);
	if (!links_of(fd))
		fail_msg("r42d 1: the live a (came by RENAME tmp->a) was unlinked by the lagging DELETE of the old a and made again (removed %lu, created %lu, moved %lu)", r.removed, r.created_files, r.moved);
	if (!th_exists(t, "a", false) || ino_of(t, "a") != before)
		fail_msg("the lagging DELETE of the old a unlinked the live a that came by a RENAME (a %s, ino %lu -> %lu)",
			 th_exists(t, "a", false) ? "there" : "gone",
			 (unsigned long)before, (unsigned long)ino_of(t, "a"));
	close(fd);
	famfs_logplay_free(lp);
}

/* r42d 2: refile keeps the LAST FILE at the path: DELETE A; FILE B at a
 * (another map); mv a b; FILE C at a on A's memory.  The follower made A
 * and lags: its DELETE of A compares A with C (same map) and keeps A,
 * so B cannot be made at a, its RENAME fails, and b is missing. */
static void test_r42d_last_file_keeps_stale(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	struct famfs_logplay_result r;
	uint64_t a, b;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	round_of(t, lp, -1);		/* the follower made A */
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	to_master(t);
	th_del(t, a, F, "a");
	b = th_append_file(t, "a", 40 * MiB, 2 * MiB, 100);
	th_ren(t, b, F, "a", "b");
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);	/* reclaimed */
	to_client(t);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	if (!th_exists(t, "b", false) || r.conflicts)
		fail_msg("b missing after the round (%lu conflicts; b at %llu; a at %llu)",
			 r.conflicts,
			 (unsigned long long)th_mock_off_or_0(t, "b"),
			 (unsigned long long)th_mock_off_or_0(t, "a"));
	famfs_logplay_free(lp);
}

/* r42d 3: the intermediate FILE has A's map, the last one does not:
 * DELETE A; FILE B at a on A's memory; (another replayer here makes B);
 * mv a b; FILE C at a (another map).  The lagging DELETE of A compares
 * with C only, and UNLINK_MAP unlinks the live B. */
static void test_r42d_first_same_last_other(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	struct famfs_logplay_result r;
	uint64_t a, b;
	ino_t before;
	int fd;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_del(t, a, F, "a");
	b = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	r = th_replay(t);		/* another replayer: B made at a */
	th_play_clean(&r);
	before = ino_of(t, "a");
	fd = hold_open(t, "a");
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	to_master(t);
	th_ren(t, b, F, "a", "b");
	th_append_file(t, "a", 40 * MiB, 2 * MiB, 100);
	to_client(t);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	if (!links_of(fd))
		fail_msg("r42d 3: the live B (A's map, made here at a) was unlinked by the lagging DELETE of A and made again (removed %lu, created %lu)", r.removed, r.created_files);
	if (ino_of(t, "b") != before)
		fail_msg("the lagging DELETE of A unlinked the live B (A's map, made here at a): b ino %lu, was %lu",
			 (unsigned long)ino_of(t, "b"), (unsigned long)before);
	close(fd);
	famfs_logplay_free(lp);
}

/* r42d 4: the kept old inode keeps the old file's mode and owner: A
 * 0644 uid 1000; rm; C at a on A's memory 0600 uid 2000.  The lagging
 * follower's round keeps A as C: "a" readable by all, owned by 1000. */
static void test_r42d_kept_old_mode(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	struct famfs_logplay_result r;
	uint64_t a;
	char p[700];
	struct stat st;

	a = file_mode_at(t, "a", 24 * MiB, 0644, 0);
	to_client(t);
	round_of(t, lp, -1);
	to_master(t);
	th_del(t, a, F, "a");
	file_mode_at(t, "a", 24 * MiB, 0600, 0);
	to_client(t);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(lstat(p, &st), 0);
	if ((st.st_mode & 0077) != 0)
		fail_msg("a kept with the deleted file's mode %o; the log's new a is 0600 (client: 0400)",
			 st.st_mode & 07777);
	famfs_logplay_free(lp);
}


/* r42d 4b: the same in a replay from the first entry (remade_at) */
static void test_r42d_full_kept_old_mode(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a;

	th_remount(t);
	a = file_mode_at(t, "a", 24 * MiB, 0644, 0);
	to_client(t);
	r = th_replay(t);
	to_master(t);
	th_del(t, a, F, "a");
	file_mode_at(t, "a", 24 * MiB, 0600, 0);
	to_client(t);
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	famfs_quiet = 0;
	if (th_mode_of(t, "a") & 0077)
		fail_msg("famfs logplay kept the deleted a's inode as the new a with mode %o (the log: 0600, client 0400)",
			 th_mode_of(t, "a"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lagging_round_ahead_delete, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_lagging_master_round_ahead_delete, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_lagging_delete_unlinks_reused, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_rename_into_path, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_last_file_keeps_stale, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_first_same_last_other, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_kept_old_mode, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_full_kept_old_mode, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
