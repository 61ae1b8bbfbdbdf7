// SPDX-License-Identifier: GPL-2.0
/* A follower's rounds and full replays that tell files by their identity
 * (FAMFS_IOC_MAP_IDENT, FAMFSIOC_UNLINK_MAP): a file of one FILE entry not
 * taken as another's with the same map (rident), no unlink by name in the
 * window of another replayer, and a lagging round's DELETE, RENAME and
 * SETATTR over the log's later file at the path (rident 3, review rev1).
 * With a mocked famfs.ko. */
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

/* rident 1: a FILE's replay over a file already at its path takes it by
 * its map alone (file_there, famfs_lp_check_map), not its identity: the
 * file of FILE i left at "a" (its RENAME and DELETE could not be played
 * here: something not in the log at "b") is counted as the file of FILE
 * k, made at "a" on i's reclaimed memory.  famfs.ko still knows it as
 * i's, so the DELETE of k never removes it (UNLINK_MAP: ESTALE; here():
 * "not the logged one"): the log deletes every file, "a" stays forever. */
static void test_rident_adopted_other_identity(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	struct famfs_logplay_result r;
	struct famfs_fmap m;
	uint64_t a, k;
	char p[700], q[700];
	int fd;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	round_of(t, lp, -1);		/* the follower made a (FILE a) */
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	to_master(t);
	th_ren(t, a, F, "a", "b");
	th_del(t, a, F, "b");
	k = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);	/* reclaimed */
	/* something not in the log at b here */
	snprintf(q, sizeof(q), "%s/b", t->mpt);
	fd = open(q, O_CREAT | O_EXCL | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	to_client(t);
	round_of(t, lp, -1);		/* RENAME, DELETE: conflicts */
	assert_int_equal(unlink(q), 0);
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	/* k deleted too: the log has no file left */
	to_master(t);
	th_del(t, k, F, "a");
	to_client(t);
	r = round_of(t, lp, -1);
	if (th_exists(t, "a", false))
		fail_msg("a stays after the log deleted every file: FILE %llu's replay counted the file of FILE %llu (identity %llu, same map) as its own, and the DELETE of %llu cannot remove it (%lu conflicts, %lu removed)",
			 (unsigned long long)k, (unsigned long long)a,
			 (unsigned long long)m.ident, (unsigned long long)k,
			 r.conflicts, r.removed);
	famfs_logplay_free(lp);
}

/* rident 2: another replayer here, in the window of a replay from the
 * first entry (famfs logplay: gone_file) -- the old way's check and its
 * unlink by name.  The log: FILE i at a, DELETE i, FILE k at a on i's
 * reclaimed memory; here: i at a.  Because the log's end has a file at a
 * (reuse_possible), gone_file does not ask famfs.ko (UNLINK_MAP with i's
 * identity, which could never remove k) but opens a, compares (i: yes,
 * k: no) and unlinks the name.  Meanwhile the other replayer removed i and
 * made k: the name unlinked is k's, the live file (held open by a reader,
 * its st_nlink 0 after), and the round makes k again on a new inode. */
static const struct famfs_kernel_ops *race_real;
static struct famfs_kernel_ops race_ops;
static char race_path[700];
static ino_t race_ino;
static int race_lists, race_fd = -1;
static uint64_t race_k;

static int race_get(int fd, struct famfs_ioc_map_v2 *h)
{
	int rc = race_real->map_get_v3(fd, h);
	struct famfs_fmap m;
	struct stat st;

	if (rc || !h->ext_list || race_fd >= 0 || fstat(fd, &st) ||
	    st.st_ino != race_ino)
		return rc;
	/* the 2nd full read of i: reused_here's (is it k? no); then the
	 * other replayer: i removed, k made at a on the same memory */
	if (++race_lists != 2)
		return rc;
	assert_int_equal(th_mock_lookup_fmap(race_path, &m), 0);
	assert_int_equal(unlink(race_path), 0);
	race_fd = open(race_path, O_CREAT | O_EXCL | O_RDWR, 0600);
	assert_true(race_fd >= 0);
	m.has_ident = true;
	m.ident = race_k;
	assert_int_equal(th_mock_add(race_fd, &m), 0);
	return rc;
}

/* the log: FILE i at a (made here), DELETE i, its RECLAIM, FILE k at a
 * on i's memory; this host, a client, has i at a.  i's index, k's in *k */
static uint64_t deleted_then_reused(struct th *t, uint64_t *k)
{
	struct famfs_logplay_result r;
	struct famfs_log_entry e;
	uint64_t a, d;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	r = th_replay(t);		/* i made at a here */
	th_play_clean(&r);
	to_master(t);
	d = th_del(t, a, F, "a");
	assert_int_equal(famfs_entry_build_reclaim(&e, &d, 1), 0);
	th_app(t, &e);		/* reclaimed; k at a on i's memory */
	*k = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	return a;
}

static void test_rident_full_unlinks_raced_live(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = deleted_then_reused(t, &race_k);

	snprintf(race_path, sizeof(race_path), "%s/a", t->mpt);
	race_ino = ino_of(t, "a");
	race_real = famfs_kernel;
	race_ops = *famfs_kernel;
	race_ops.map_get_v3 = race_get;
	famfs_kernel = &race_ops;
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	famfs_quiet = 0;
	famfs_kernel = race_real;
	if (race_fd < 0)
		fail_msg("window not met: %d list reads of i, %lu UNLINK_MAPs, removed %lu created %lu present %lu", race_lists, th_mock_unlink_maps, r.removed, r.created_files, r.present);
	if (!links_of(race_fd))
		fail_msg("the other replayer's live a (FILE %llu, made in the window) was unlinked by this replay's old-way removal of FILE %llu's file (removed %lu, created %lu): the check and the unlink are two steps though famfs.ko could compare the identity in one call",
			 (unsigned long long)race_k, (unsigned long long)a,
			 r.removed, r.created_files);
	close(race_fd);
	race_fd = -1;
}

/* review r43d A1: where the log's end has a file at the deleted file's
 * path, gone_file removes the deleted file only by famfs.ko's check of its
 * identity; a failure of that call (EINTR, ENOMEM, ...) is an error, not a
 * reason to unlink the name after a check of its own (the race above) --
 * that is for a famfs.ko without identities or the call only */
static int intr_unlink_map(int dfd, const struct famfs_ioc_unlink_map *a)
{
	(void)dfd;
	(void)a;
	return -EINTR;
}

static void test_rident_full_error_no_name_unlink(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t k;
	ino_t ino;

	deleted_then_reused(t, &k);
	ino = ino_of(t, "a");
	race_real = famfs_kernel;
	race_ops = *famfs_kernel;
	race_ops.unlink_map = intr_unlink_map;
	famfs_kernel = &race_ops;
	famfs_quiet = 1;
	(void)famfs_logplay(&t->fs, false, &r);
	famfs_quiet = 0;
	famfs_kernel = race_real;
	if (!th_exists(t, "a", false) || ino_of(t, "a") != ino)
		fail_msg("UNLINK_MAP failed (EINTR) and the deleted file was unlinked by its name all the same (removed %lu, created %lu, errors %lu)",
			 r.removed, r.created_files, r.errors);
	assert_true(r.errors >= 1);
}

/* rident 3: the lagging round of lagging_delete_unlinks_reused (in
 * test_nsround_lag.c), to its end: the DELETE of the old a (never made by
 * this round) now leaves the live a -- but says a conflict ("deletes
 * entry i, a file that is not the logged one"; famfs logplay exits 3) for
 * what is the log's own later file at that path, identified as such by
 * famfs.ko (ESTALE: identity k) */
/* the follower's first round before FILE i at a (RENAME i to b: ren),
 * DELETE i, FILE k at a on i's memory, made here by another replayer (famfs
 * logplay); then the lagging round.  i's index, the round's result in *r */
static uint64_t lagging_over_later(struct th *t, bool ren,
				   struct famfs_logplay_result *r)
{
	struct famfs_logplay *lp = famfs_logplay_new(8);
	uint64_t a;

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	to_client(t);
	th_more(t, lp, r);		/* the follower's first round */
	to_master(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	if (ren)
		th_ren(t, a, F, "a", "b");
	th_del(t, a, F, ren ? "b" : "a");
	to_master(t);		/* a new a on the old a's memory */
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	*r = th_replay(t);		/* famfs logplay: the new a made */
	th_play_clean(r);
	*r = round_of(t, lp, -1);
	famfs_logplay_free(lp);
	return a;
}

static void test_rident_lagging_delete_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = lagging_over_later(t, false, &r);

	assert_true(th_exists(t, "a", false));
	if (r.conflicts)
		fail_msg("the lagging round reports %lu conflict(s) for the DELETE of FILE %llu, whose path holds the log's later file (its identity says so); nothing is wrong here",
			 r.conflicts, (unsigned long long)a);
}

/* rident 3b: the same for a RENAME: FILE i at a, RENAME i to b, DELETE
 * i, FILE k at a on i's memory, made here by another replayer; the
 * lagging round's RENAME of i finds k at a (identity k): moved already,
 * no conflict */
static void test_rident_lagging_rename_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a = lagging_over_later(t, true, &r);

	assert_true(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
	if (r.conflicts)
		fail_msg("the lagging round reports %lu conflict(s) for the RENAME of FILE %llu, whose path holds the log's later file (its identity says so); nothing is wrong here",
			 r.conflicts, (unsigned long long)a);
}

/* review rev1: a lagging round's SETATTR of FILE i whose path holds the
 * log's later FILE k on i's memory (made by another replayer here) is a
 * conflict (famfs_lp_is_file: identity k), though DELETE and RENAME of i
 * count as done there (later_file_at) */
static void test_rev1_lagging_setattr_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	struct famfs_logplay_result r;
	unsigned mode;
	uint64_t a;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	to_client(t);
	round_of(t, lp, -1);		/* i made at a by the follower */
	to_master(t);
	chmod_of(t, a, "a", 0640);
	th_del(t, a, F, "a");
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);	/* k, i's memory */
	to_client(t);
	r = th_replay(t);		/* famfs logplay: i removed, k made */
	th_play_clean(&r);
	mode = th_mode_of(t, "a");
	r = round_of(t, lp, -1);
	famfs_logplay_free(lp);
	assert_true(th_exists(t, "a", false));
	assert_int_equal(th_mode_of(t, "a"), mode);	/* not given i's */
	if (r.conflicts)
		fail_msg("the lagging round reports %lu conflict(s) for the SETATTR of FILE %llu, whose path holds the log's later file (DELETE and RENAME count that as done)",
			 r.conflicts, (unsigned long long)a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rident_adopted_other_identity, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rident_full_unlinks_raced_live, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rident_full_error_no_name_unlink, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rident_lagging_delete_conflict, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rident_lagging_rename_conflict, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rev1_lagging_setattr_conflict, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
