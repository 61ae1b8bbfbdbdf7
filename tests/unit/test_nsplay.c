// SPDX-License-Identifier: GPL-2.0
/* Replay of DELETE, RENAME and SETATTR (format rev 3), with a mocked
 * famfs.ko: a fresh mount's replay, a follower's rounds (log order), and a
 * replay from the first entry on a tree an earlier replay made up to some
 * entry; delete then create of one path, a rename chain, a directory of
 * 1,000 files renamed, a setattr after a rename; a DELETE of what is not
 * there and a RENAME onto a path that is, reported by replay and fsck
 * while the replay goes on. */
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

#define NS_BITS (FAMFS_FEATURE_INCOMPAT_DELETE | FAMFS_FEATURE_INCOMPAT_RENAME | \
		 FAMFS_FEATURE_INCOMPAT_SETATTR)
#define F FAMFS_LOG_FILE
#define D FAMFS_LOG_MKDIR

static struct th *mk(uint64_t size, bool compact)
{
	struct th *t = th_new_fmt(size, 8 * MiB, compact);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	return t;
}

static int setup(void **state)
{
	*state = mk(256 * MiB, true);
	return 0;
}

static int setup_v1(void **state)
{
	*state = mk(256 * MiB, false);
	return 0;
}

/* room for 1,000 files of 2 MiB (a sparse image) */
static int setup_big(void **state)
{
	*state = mk(4096 * MiB, true);
	return 0;
}

static uint64_t attr(struct th *t, uint64_t obj, unsigned kind, const char *p,
		     uint32_t valid, uint32_t mode, uint32_t uid)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_setattr(&e, obj, kind, p, valid, mode,
						   uid, 0), 0);
	return th_app(t, &e);
}

/* ---- a DELETE's file removed in one call (FAMFSIOC_UNLINK_MAP), in a
 * follower's round and in a replay from the first entry; the old way
 * (open, MAP_GET, unlink) with a famfs.ko without the call ---- */
static void test_delete_by_unlink_map(void **state)
{
	const struct famfs_kernel_ops *was = famfs_kernel;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	struct famfs_kernel_ops old;
	struct th *t = *state;
	uint64_t a, b, c, d;
	unsigned long n;

	old = *was;
	old.unlink_map = NULL;
	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	b = th_append_file(t, "b", 28 * MiB, 2 * MiB, 100);
	c = th_append_file(t, "c", 32 * MiB, 2 * MiB, 100);
	d = th_append_file(t, "d", 36 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	assert_int_equal(r.created_files, 4);

	/* a follower's round: one call */
	n = th_mock_unlink_maps;
	th_del(t, a, F, "a");
	th_more(t, lp, &r);
	assert_int_equal(r.removed, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_unlink_maps, n + 1);
	assert_false(th_exists(t, "a", false));
	/* without the call */
	famfs_kernel = &old;
	th_del(t, c, F, "c");
	th_more(t, lp, &r);
	famfs_kernel = was;
	assert_int_equal(r.removed, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_unlink_maps, n + 1);
	assert_false(th_exists(t, "c", false));
	famfs_logplay_free(lp);

	/* a replay from the first entry: one call */
	th_del(t, b, F, "b");
	r = th_replay(t);
	assert_int_equal(r.removed, 1);
	th_play_clean(&r);
	assert_true(th_mock_unlink_maps > n + 1);
	assert_false(th_exists(t, "b", false));
	/* without the call */
	n = th_mock_unlink_maps;
	famfs_kernel = &old;
	th_del(t, d, F, "d");
	r = th_replay(t);
	famfs_kernel = was;
	assert_int_equal(r.removed, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_unlink_maps, n);
	assert_false(th_exists(t, "d", false));
	th_fsck_clean(t);
}

/* ---- a path deleted and made again: a new file, new memory ---- */
static void test_delete_then_create(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	uint64_t a;

	/* a follower's rounds, each entry as it comes */
	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	assert_int_equal(r.created_files, 1);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	th_del(t, a, F, "a");
	th_more(t, lp, &r);
	assert_int_equal(r.removed, 1);
	th_play_clean(&r);
	assert_false(th_exists(t, "a", false));
	th_append_file(t, "a", 28 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	assert_int_equal(r.created_files, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 28 * MiB);
	famfs_logplay_free(lp);
	th_fsck_clean(t);

	/* a fresh mount: the deleted file is never made */
	th_remount(t);
	r = th_replay(t);
	assert_int_equal(r.created_files, 1);
	assert_int_equal(r.removed, 0);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 28 * MiB);
	/* again: nothing to do */
	r = th_replay(t);
	assert_int_equal(r.present, 1);
	assert_int_equal(r.created_files + r.removed + r.moved, 0);
	th_play_clean(&r);
}

/* a replay from the first entry on a tree played up to the first entry
 * only (the old file still here): it is removed, the new one made */
static void test_delete_then_create_replay_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);

	th_remount(t);
	r = th_replay(t);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	th_del(t, a, F, "a");
	th_append_file(t, "a", 28 * MiB, 2 * MiB, 100);
	r = th_replay(t);
	assert_int_equal(r.removed, 1);
	assert_int_equal(r.created_files, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 28 * MiB);
}

/* ---- a rename chain a -> b -> c ---- */
static void test_rename_chain(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;

	uint64_t a;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	th_ren(t, a, F, "a", "b");
	th_more(t, lp, &r);
	assert_int_equal(r.moved, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "b"), 24 * MiB);
	assert_false(th_exists(t, "a", false));
	th_ren(t, a, F, "b", "c");
	th_more(t, lp, &r);
	assert_int_equal(r.moved, 1);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "c"), 24 * MiB);
	assert_false(th_exists(t, "b", false));
	famfs_logplay_free(lp);
	th_fsck_clean(t);

	/* fresh: made where it ends */
	th_remount(t);
	r = th_replay(t);
	assert_int_equal(r.created_files, 1);
	assert_int_equal(r.moved, 0);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "c"), 24 * MiB);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
}

/* the tree played up to the middle of the chain: from there */
static void test_rename_chain_replay_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;

	uint64_t d = th_append_dir(t, "d");
	uint64_t a;

	th_append_file(t, "d/f", 24 * MiB, 2 * MiB, 100);
	a = th_append_file(t, "a", 26 * MiB, 2 * MiB, 100);
	th_ren(t, a, F, "a", "b");
	th_remount(t);
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(th_mock_off_or_0(t, "b"), 26 * MiB);
	th_ren(t, a, F, "b", "d/c");
	th_ren(t, d, D, "d", "e");
	th_ren(t, d, D, "e", "g");
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(r.moved, 2);	/* b to d/c, then d to g */
	assert_int_equal(th_mock_off_or_0(t, "g/c"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "g/f"), 24 * MiB);
	assert_false(th_exists(t, "b", false));
	assert_false(th_exists(t, "d", true));
	assert_false(th_exists(t, "e", true));
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(r.moved + r.created_files + r.created_dirs, 0);
	th_fsck_clean(t);
}

/* ---- a directory of 1,000 files renamed ---- */
#define NF 1000

static uint64_t thousand(struct th *t)
{
	uint64_t d = th_append_dir(t, "d");
	char rel[64];

	for (unsigned i = 0; i < NF; i++) {
		snprintf(rel, sizeof(rel), "d/f%u", i);
		th_append_file(t, rel, 16 * MiB + 2 * MiB * i, 2 * MiB, 10);
	}
	return d;
}

static void all_there(struct th *t, const char *dir)
{
	char rel[64], p[700];

	for (unsigned i = 0; i < NF; i++) {
		snprintf(rel, sizeof(rel), "%s/f%u", dir, i);
		if (th_mock_off_or_0(t, rel) != 16 * MiB + 2 * MiB * i)
			fail_msg("%s: not there with its map", rel);
	}
	snprintf(p, sizeof(p), "%s/%s", t->mpt, dir);
	assert_int_equal(th_count_entries(p), NF);
}

static void test_rename_dir_1000(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;

	uint64_t d = thousand(t);

	th_remount(t);
	th_more(t, lp, &r);
	assert_int_equal(r.created_files, NF);
	th_ren(t, d, D, "d", "e");
	th_more(t, lp, &r);
	assert_int_equal(r.moved, 1);		/* one rename: the directory */
	th_play_clean(&r);
	all_there(t, "e");
	assert_false(th_exists(t, "d", true));
	famfs_logplay_free(lp);
	th_fsck_clean(t);
	/* fresh */
	th_remount(t);
	r = th_replay(t);
	assert_int_equal(r.created_files, NF);
	th_play_clean(&r);
	all_there(t, "e");
	assert_false(th_exists(t, "d", true));
}

static void test_rename_dir_1000_replay_behind(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;

	uint64_t d = thousand(t);

	th_remount(t);
	r = th_replay(t);
	assert_int_equal(r.created_files, NF);
	th_ren(t, d, D, "d", "e");
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(r.moved, 1);
	assert_int_equal(r.created_files, 0);
	assert_int_equal(r.present, NF + 1);
	all_there(t, "e");
	assert_false(th_exists(t, "d", true));
}

/* ---- setattr after rename ---- */
static void test_setattr_after_rename(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;

	uint64_t a, d, x;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);	/* 0644 */
	d = th_append_dir(t, "d");
	th_more(t, lp, &r);
	assert_int_equal(th_mode_of(t, "a"), 0644);
	th_ren(t, a, F, "a", "b");
	attr(t, a, F, "b", FAMFS_SETATTR_MODE, 0600, 0);
	attr(t, d, D, "d", FAMFS_SETATTR_MODE, 0711, 0);
	th_more(t, lp, &r);
	th_play_clean(&r);
	assert_int_equal(r.moved, 1);
	assert_int_equal(r.changed, 2);
	assert_int_equal(th_mode_of(t, "b"), 0600);
	assert_int_equal(th_mode_of(t, "d"), 0711);
	famfs_logplay_free(lp);
	/* fresh: made with them */
	th_remount(t);
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(th_mode_of(t, "b"), 0600);
	assert_int_equal(th_mode_of(t, "d"), 0711);
	/* behind: the file here with its old mode gets the new one */
	th_remount(t);
	x = th_append_file(t, "x", 26 * MiB, 2 * MiB, 100);
	r = th_replay(t);
	attr(t, x, F, "x", FAMFS_SETATTR_MODE, 0640, 0);
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(th_mode_of(t, "x"), 0640);
	assert_int_equal(r.changed, 1);
	/* a client's files keep no write bit */
	th_become_client(t);
	th_remount(t);
	r = th_replay(t);
	th_play_clean(&r);
	assert_int_equal(th_mode_of(t, "x"), 0440);
	assert_int_equal(th_mode_of(t, "b"), 0400);
}

/* ---- reported, and the replay goes on ---- */
static void test_delete_missing_reported(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_fsck_result f;
	char err[8192], w1[200], w2[200], w3[200];
	uint64_t a, d1, d2, d;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d1 = th_del(t, a, F, "x");		/* a path where it is not */
	d2 = th_del(t, d1, F, "a");	/* an entry that made nothing: corrupt */
	d = th_append_dir(t, "d");
	th_append_file(t, "d/f", 26 * MiB, 2 * MiB, 100);
	th_del(t, d, D, "d");		/* not empty */
	th_append_file(t, "z", 28 * MiB, 2 * MiB, 100);
	snprintf(w1, sizeof(w1), "x: log entry %llu (DELETE of entry %llu) not played: nothing is there",
		 (unsigned long long)d1, (unsigned long long)a);
	snprintf(w2, sizeof(w2), "log entry %llu skipped: a corrupt DELETE entry: it names entry %llu, a DELETE",
		 (unsigned long long)d2, (unsigned long long)d1);
	snprintf(w3, sizeof(w3), "log entry %llu: DELETE of entry %llu (x) does not apply",
		 (unsigned long long)d1, (unsigned long long)a);
	th_remount(t);
	th_stderr_grab();
	r = th_replay(t);
	th_stderr_take(err, sizeof(err));
	assert_int_equal(r.conflicts, 2);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.errors, 0);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "d/f"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "z"), 28 * MiB);	/* the rest still plays */
	if (!strstr(err, w1) || !strstr(err, w2) || !strstr(err, "not empty"))
		fail_msg("not said: %s", err);
	th_stderr_grab();
	assert_int_equal(famfs_fsck(&t->fs, &f), 0);
	th_stderr_take(err, sizeof(err));
	assert_int_equal(f.problems, 3);
	if (!strstr(err, w3))
		fail_msg("not said by fsck: %s", err);
	/* in rounds, the same */
	th_remount(t);
	{
		struct famfs_logplay *lp = famfs_logplay_new(8);

		famfs_quiet = 1;
		memset(&r, 0, sizeof(r));
		/* a follower's first round */
		assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
		famfs_logplay_free(lp);
	}
	assert_int_equal(r.conflicts, 2);
	assert_int_equal(r.bad_entries, 1);
}

/* a DELETE of a file this replayer never had: a file not the logged one
 * (here before the replay, no map) is a conflict, and never removed */
static void test_delete_not_the_logged_file(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;

	uint64_t a;

	th_remount(t);
	th_touch(t, "a", "someone's own");
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	famfs_quiet = 1;
	th_more(t, lp, &r);
	assert_int_equal(r.conflicts, 1);	/* not adopted */
	th_del(t, a, F, "a");
	th_more(t, lp, &r);
	assert_int_equal(r.conflicts, 1);
	assert_int_equal(r.removed, 0);
	assert_true(th_exists(t, "a", false));
	famfs_logplay_free(lp);
}

static void test_rename_onto_existing_reported(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp;
	struct famfs_logplay_result r;
	struct famfs_fsck_result f;
	char err[8192];

	uint64_t a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);

	th_append_file(t, "b", 26 * MiB, 2 * MiB, 100);
	th_ren(t, a, F, "a", "b");
	th_append_file(t, "z", 28 * MiB, 2 * MiB, 100);
	th_remount(t);
	th_stderr_grab();
	r = th_replay(t);
	th_stderr_take(err, sizeof(err));
	assert_int_equal(r.conflicts, 1);
	assert_non_null(strstr(err, "onto an existing path"));
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "b"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "z"), 28 * MiB);
	th_stderr_grab();
	assert_int_equal(famfs_fsck(&t->fs, &f), 0);
	th_stderr_take(err, sizeof(err));
	assert_int_equal(f.problems, 1);
	assert_non_null(strstr(err, "(a to b) does not apply: onto an existing path"));
	/* onto a path that is here but not in the log: a conflict too; the
	 * file stays where it was */
	th_remount(t);
	lp = famfs_logplay_new(8);
	famfs_quiet = 1;
	th_more(t, lp, &r);
	th_touch(t, "c", "someone's own");
	th_ren(t, a, F, "a", "c");
	th_more(t, lp, &r);
	assert_int_equal(r.conflicts, 1);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	famfs_logplay_free(lp);
}

/* A symbolic link where the log has a directory is never followed: the
 * DELETE, RENAME and SETATTR of a file beneath it are conflicts, and
 * nothing where it points is removed, moved or changed (openat2
 * RESOLVE_BENEATH, and one O_NOFOLLOW component at a time without it). */
static void symlink_not_followed(void **state, bool no_openat2)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	char out[700], lnk[700], real[700], p[800];
	struct stat st;
	uint64_t d, f;

	th_remount(t);
	d = th_append_dir(t, "d");
	f = th_append_file(t, "d/f", 24 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	th_play_clean(&r);
	/* d swapped for a link to a directory outside with its own f */
	snprintf(out, sizeof(out), "%s/outside", t->dir);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(p, sizeof(p), "%s/f", out);
	assert_int_equal(close(open(p, O_CREAT | O_WRONLY, 0644)), 0);
	snprintf(lnk, sizeof(lnk), "%s/d", t->mpt);
	snprintf(real, sizeof(real), "%s/d.real", t->mpt);
	assert_int_equal(rename(lnk, real), 0);
	assert_int_equal(symlink(out, lnk), 0);
	dirset_no_openat2 = no_openat2;
	attr(t, f, F, "d/f", FAMFS_SETATTR_MODE, 0600, 0);
	th_ren(t, f, F, "d/f", "g");
	th_del(t, f, F, "g");
	(void)d;
	famfs_quiet = 1;
	th_more(t, lp, &r);
	dirset_no_openat2 = false;
	/* the SETATTR and the RENAME (a link on the way), the DELETE (not
	 * at g here) */
	assert_int_equal(r.conflicts, 3);
	assert_int_equal(r.moved + r.changed, 0);
	assert_int_equal(stat(p, &st), 0);	/* still there, still 0644 */
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_false(th_exists(t, "g", false));
	/* and a replay from the first entry */
	r = th_replay(t);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	famfs_logplay_free(lp);
}

static void test_symlink_not_followed(void **state)
{
	symlink_not_followed(state, false);
}

static void test_symlink_not_followed_no_openat2(void **state)
{
	symlink_not_followed(state, true);
}

static void test_delete_then_create_v1(void **state)
{
	test_delete_then_create(state);
}

static void test_rename_chain_v1(void **state)
{
	test_rename_chain(state);
}

/* a DELETE naming an earlier entry that is not a file or directory (here
 * another DELETE) is corrupt, not a conflict: said, counted as a bad
 * entry, nothing removed, the rest played (also in rounds); fsck says the
 * same */
static void test_delete_of_no_object_corrupt(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_fsck_result f;
	struct famfs_logplay *lp;
	char err[8192], w[200];
	uint64_t a, d1, d2;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d1 = th_del(t, a, F, "a");
	th_append_file(t, "b", 26 * MiB, 2 * MiB, 100);
	d2 = th_del(t, d1, F, "b");	/* entry d1 is a DELETE */
	th_append_file(t, "z", 28 * MiB, 2 * MiB, 100);
	snprintf(w, sizeof(w), "log entry %llu skipped: a corrupt DELETE entry: it names entry %llu, a DELETE",
		 (unsigned long long)d2, (unsigned long long)d1);
	th_remount(t);
	th_stderr_grab();
	r = th_replay(t);
	th_stderr_take(err, sizeof(err));
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.conflicts + r.errors, 0);
	assert_int_equal(th_mock_off_or_0(t, "b"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "z"), 28 * MiB);
	if (!strstr(err, w))
		fail_msg("not said: %s", err);
	th_remount(t);
	lp = famfs_logplay_new(8);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	famfs_logplay_free(lp);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.conflicts + r.errors, 0);
	assert_int_equal(th_mock_off_or_0(t, "b"), 26 * MiB);
	th_stderr_grab();
	assert_int_equal(famfs_fsck(&t->fs, &f), 0);
	th_stderr_take(err, sizeof(err));
	assert_int_equal(f.bad_entries, 1);
	assert_int_equal(f.problems, 1);
	snprintf(w, sizeof(w), "log entry %llu: a corrupt DELETE entry: it names entry %llu, a DELETE",
		 (unsigned long long)d2, (unsigned long long)d1);
	if (!strstr(err, w))
		fail_msg("not said by fsck: %s", err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_delete_then_create, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_delete_by_unlink_map, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_delete_then_create_v1, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_delete_then_create_replay_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_chain, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_chain_v1, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_chain_replay_behind, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_dir_1000, setup_big, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_dir_1000_replay_behind, setup_big, th_teardown),
		cmocka_unit_test_setup_teardown(test_setattr_after_rename, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_delete_missing_reported, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_delete_of_no_object_corrupt, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_delete_not_the_logged_file, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rename_onto_existing_reported, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_symlink_not_followed_no_openat2, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
