// SPDX-License-Identifier: GPL-2.0
/* A follower's rounds (famfs_logplay_more): a DELETE that does not verify
 * here, or an entry of another file system where it is, stops the round
 * (host-local) and nothing ahead of it is reported as replayed.  An
 * incremental round (famfs_lp_round) leaves unmade a file a DELETE among
 * its new entries names -- but only while that DELETE may be applied: one
 * the namespace refuses (a wrong path for the object, as every host and
 * the master judge it) keeps the file on every other host, so the round
 * makes it too, as the log has it there (review of the r40 fixes, MED 1 /
 * LOW); a later DELETE of it that is applied still keeps it unmade (r40).
 * A lagging round: test_nsround_lag.c; files told by their identity:
 * test_nsround_ident.c.  With a mocked famfs.ko. */
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

/* what a replay from the first entry makes of the log (a fresh mount):
 * rel at off, with mode */
static void full_agrees(struct th *t, const char *rel, uint64_t off,
			unsigned mode)
{
	struct famfs_logplay_result r;

	th_remount(t);
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	famfs_quiet = 0;
	assert_int_equal(th_mock_off_or_0(t, rel), off);
	assert_int_equal(th_mode_of(t, rel), mode);
}

/* a DELETE of a with a path a is not at: refused by the namespace (every
 * host keeps a), said as a conflict -- and a is made by the round, stopped
 * between a and the DELETE or not */
static void test_refused_delete_file_made(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp;
	struct famfs_logplay_result r;
	uint64_t a;

	for (int stop = 0; stop < 2; stop++) {
		lp = follower(t);
		a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
		th_del(t, a, F, "x");
		th_append_file(t, "b", 28 * MiB, 2 * MiB, 100);
		to_client(t);
		if (stop) {
			r = round_of(t, lp, 1);		/* a, then SIGTERM */
			assert_int_equal(famfs_logplay_next(lp), a + 1);
		}
		r = round_of(t, lp, -1);
		assert_int_equal(famfs_logplay_next(lp), famfs_log_next(t->fs.log));
		if (!th_exists(t, "a", false))
			fail_msg("a, which every host keeps (its DELETE refused), not made by the round (stopped %d)",
				 stop);
		assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
		assert_int_equal(th_mock_off_or_0(t, "b"), 28 * MiB);
		assert_int_equal(r.conflicts, 1);	/* the DELETE's */
		famfs_logplay_free(lp);
		to_master(t);
		th_free(t);
		setup(state);
		t = *state;
	}
}

/* moved and given a mode before the refused DELETE (which names its old
 * path): made where the log has it, with the mode it has there -- as a
 * replay from the first entry makes it */
static void test_refused_delete_after_rename(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	unsigned mode;
	uint64_t a;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	chmod_of(t, a, "a", 0640);
	th_ren(t, a, F, "a", "d/b");
	th_del(t, a, F, "a");			/* it is at d/b: refused */
	to_client(t);
	round_of(t, lp, 2);		/* a and its SETATTR, then SIGTERM */
	round_of(t, lp, -1);
	assert_false(th_exists(t, "a", false));
	if (!th_exists(t, "d/b", false))
		fail_msg("d/b (entry %llu, its DELETE refused) not made",
			 (unsigned long long)a);
	assert_int_equal(th_mock_off_or_0(t, "d/b"), 24 * MiB);
	mode = th_mode_of(t, "d/b");
	famfs_logplay_free(lp);
	full_agrees(t, "d/b", 24 * MiB, mode);
}

/* a refused DELETE, then one that is applied: a is never made by the
 * round (r40: its memory may be g's now), stopped between any two of them
 * or not */
static void test_refused_then_applied_delete(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_logplay *lp;
	uint64_t a;

	for (int stop = 0; stop < 4; stop++) {
		lp = follower(t);
		a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
		th_del(t, a, F, "x");			/* refused */
		th_del(t, a, F, "a");			/* applied */
		th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
		to_client(t);
		for (int k = 0; k < stop; k++) {
			round_of(t, lp, 1);
			if (th_exists(t, "a", false))
				fail_msg("a made after %d stopped rounds", k + 1);
		}
		r = round_of(t, lp, -1);
		if (th_exists(t, "a", false))
			fail_msg("a made (its DELETE applied later in the round), stopped %d times",
				 stop);
		assert_int_equal(th_mock_off_or_0(t, "g"), 24 * MiB);
		(void)r;
		famfs_logplay_free(lp);
		to_master(t);
		th_free(t);
		setup(state);
		t = *state;
	}
}

static int setup_v1(void **state)
{
	struct th *t = th_new_fmt(256 * MiB, 8 * MiB, false);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	*state = t;
	master_id[0] = '\0';
	return 0;
}

/* a left unmade by a round stopped before its refused DELETE; the next
 * round reads that DELETE but stops at an entry that does not verify
 * here, after which a DELETE of a that is applied may be (another
 * replayer here may have read past both, the master reclaimed a's memory
 * for g): a is not made before that entry verifies and the round sees
 * what follows it, as a file before such an entry is not */
static void test_refused_delete_before_unverified(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = follower(t);
	uint64_t a, y;
	uint8_t *p;

	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_del(t, a, F, "x");			/* refused */
	to_client(t);
	round_of(t, lp, 1);		/* a, then SIGTERM */
	assert_false(th_exists(t, "a", false));
	to_master(t);
	y = th_append_file(t, "y", 28 * MiB, 2 * MiB, 100);
	th_del(t, a, F, "a");			/* applied */
	th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
	p = (uint8_t *)famfs_log_slot(t->fs.log, y);
	p[60] ^= 1;			/* y's path: not written whole here */
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	to_client(t);
	famfs_quiet = 1;
	{
		struct famfs_logplay_result r = { 0 };

		assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r,
						    NULL, NULL), 0);
		assert_int_equal(r.bad_entries, 1);
	}
	famfs_quiet = 0;
	if (th_exists(t, "a", false))
		fail_msg("a made at its refused DELETE while an entry that does not verify here (%llu) hides the DELETE that is applied",
			 (unsigned long long)y);
	p[60] ^= 1;
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	round_of(t, lp, -1);
	assert_false(th_exists(t, "a", false));
	assert_int_equal(th_mock_off_or_0(t, "y"), 28 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "g"), 24 * MiB);
	famfs_logplay_free(lp);
}

/* a DELETE that does not verify on this host is skipped (said), and the
 * replay reports as replayed no more than that entry: its check-in must
 * not tell the master it is past a DELETE of a file it still has (the
 * master would free memory mapped here) */
static void test_skipped_delete_not_replayed(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a, d;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d = th_del(t, a, F, "a");
	th_append_file(t, "b", 28 * MiB, 2 * MiB, 100);
	{
		uint8_t *p = (uint8_t *)famfs_log_slot(t->fs.log, d);

		p[60] ^= 1;	/* the DELETE's path (v1: at 32 + 24) */
		assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	}
	assert_int_equal(th_reopen(t), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	assert_int_equal(r.bad_entries, 1);
	/* (fullplay.c: made before an entry that did not verify, which
	 * may be a DELETE of it: not made) */
	assert_false(th_exists(t, "a", false));
	assert_true(th_exists(t, "b", false));
	assert_int_equal(famfs_logplay_next(lp), d + 2);
	assert_int_equal(famfs_logplay_replayed(lp), d);
	famfs_logplay_free(lp);
}

/* Fail closed: an entry that does not verify at a round's start may be
 * the DELETE of a file before it: nothing from it on is played (said and
 * counted once), nor from the first file before it (its memory may be
 * another file's: another replayer here may have read that DELETE and
 * reported past it); the round stands there, and plays on once it
 * verifies */
static void test_round_stops_at_unverified(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	uint64_t a, d;
	uint8_t *p;

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d = th_del(t, a, F, "a");
	th_append_file(t, "b", 28 * MiB, 2 * MiB, 100);
	p = (uint8_t *)famfs_log_slot(t->fs.log, d);
	p[60] ^= 1;	/* the DELETE's path (v1: at 32 + 24) */
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.bad_entries, 1);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
	assert_int_equal(famfs_logplay_next(lp), a);
	assert_int_equal(famfs_logplay_replayed(lp), a);
	memset(&r, 0, sizeof(r));	/* again: not said again */
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	assert_int_equal(r.bad_entries, 0);
	assert_int_equal(famfs_logplay_next(lp), a);
	p[60] ^= 1;
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	th_more(t, lp, &r);
	th_play_clean(&r);
	assert_false(th_exists(t, "a", false));
	assert_int_equal(th_mock_off_or_0(t, "b"), 28 * MiB);
	famfs_logplay_free(lp);
}

/* a CRC-valid entry of another file system (a stale line of memory an
 * earlier famfs used, or of this host's cache) where this log's DELETE
 * is: not written whole as this host reads it, so host-local -- it may be
 * the DELETE other hosts read (review of the merge, MED 2 / HIGH 1): a
 * round stops before it and before the file ahead of it, as for a CRC
 * mismatch; never skipped as a malformed entry every host skips */
static void test_round_stops_at_foreign_entry(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	struct famfs_log_entry *p;
	uint64_t a, d;

	th_remount(t);
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	th_more(t, lp, &r);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d = th_del(t, a, F, "a");
	p = famfs_log_slot(t->fs.log, d);
	p->fs_uuid[0] ^= 0xff;
	famfs_entry_set_crc(p);
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, sizeof(*p)), 0);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	assert_false(th_exists(t, "a", false));
	assert_int_equal(famfs_logplay_replayed(lp), a);
	famfs_logplay_free(lp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_skipped_delete_not_replayed, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_round_stops_at_unverified, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_round_stops_at_foreign_entry, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_refused_delete_file_made, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_refused_delete_after_rename, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_refused_then_applied_delete, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_refused_delete_before_unverified, setup_v1, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
