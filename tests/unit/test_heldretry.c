// SPDX-License-Identifier: GPL-2.0
/* What a replay from the first entry withholds (fullhold.c), later:
 *  - a follower whose first round withheld the objects made before an
 *    entry not written whole here makes them once that entry verifies
 *    (the replay from the first entry run again), never one a DELETE
 *    there deleted;
 *  - a held directory made only as the way to what is made beneath it is
 *    root's 0700 while held, and gets its logged mode once it is not;
 *  - a big hold is said for the first objects, then counted in one line. */
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

/* a v1 log (famfs_log_slot addresses an entry) with the DELETE bit */
static int setup_v1(void **state)
{
	struct th *t = th_new_fmt(256 * MiB, 8 * MiB, false);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	*state = t;
	return 0;
}

/* entry idx does not verify here any more; flipped again, it does */
static void flip(struct th *t, uint64_t idx)
{
	uint8_t *p = (uint8_t *)famfs_log_slot(t->fs.log, idx);

	p[60] ^= 1;
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	assert_int_equal(th_reopen(t), 0);
}

static uint64_t reclaim(struct th *t, uint64_t d)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_reclaim(&e, &d, 1), 0);
	return th_app(t, &e);
}

static uint64_t dir_mode(struct th *t, const char *rel, uint32_t mode,
			 uint32_t uid)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, rel, 0, mode,
					   uid, uid, NULL, 0), 0);
	return th_app(t, &e);
}

static char said[65536];

/* one round of a follower's replay (lp: famfs_logplay_hold_bad) */
static void round_on(struct famfs_fs *fs, struct famfs_logplay *lp,
		     struct famfs_logplay_result *r)
{
	th_stderr_grab();
	assert_int_equal(famfs_logplay_more(lp, fs, false, r, NULL, NULL), 0);
	th_stderr_take(said, sizeof(said));
}

static void round_(struct th *t, struct famfs_logplay *lp,
		   struct famfs_logplay_result *r)
{
	round_on(&t->fs, lp, r);
}

/* famfs logplay */
static struct famfs_logplay_result play(struct th *t)
{
	struct famfs_logplay_result r;

	th_stderr_grab();
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	th_stderr_take(said, sizeof(said));
	return r;
}

static unsigned count(const char *s)
{
	unsigned n = 0;

	for (const char *p = strstr(said, s); p; p = strstr(p + 1, s))
		n++;
	return n;
}

static struct stat st_of(struct th *t, const char *rel)
{
	struct stat st;
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	assert_int_equal(lstat(p, &st), 0);
	return st;
}

/* The follower's first round withholds what is made before the torn
 * entry; it waits there; once the entry verifies, the withheld objects
 * are made (a directory with its logged mode), and what follows */
static void test_follower_makes_withheld_once_verified(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t bad;

	th_remount(t);
	famfs_logplay_hold_bad(lp);
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	dir_mode(t, "d", 0750, 0);
	th_append_file(t, "d/f", 26 * MiB, 2 * MiB, 100);
	bad = th_append_file(t, "t", 28 * MiB, 2 * MiB, 100);
	th_append_file(t, "z", 30 * MiB, 2 * MiB, 100);
	flip(t, bad);
	round_(t, lp, &r);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "d", true));
	assert_int_equal(r.withheld, 3);
	assert_int_equal(famfs_logplay_next(lp), bad);
	/* still torn: nothing made, nothing said again */
	round_(t, lp, &r);
	assert_false(th_exists(t, "a", false));
	assert_int_equal(count("not made"), 0);
	assert_int_equal(famfs_logplay_next(lp), bad);
	/* it verifies: all of it made */
	flip(t, bad);
	round_(t, lp, &r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "d/f"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "t"), 28 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "z"), 30 * MiB);
	assert_int_equal(st_of(t, "d").st_mode & 07777, 0750);
	assert_int_equal(famfs_logplay_next(lp), famfs_log_next(t->fs.log));
	assert_int_equal(count("not made"), 0);
	assert_int_equal(r.withheld, 3);	/* (the first round's) */
	/* and then on in order */
	th_append_file(t, "n", 32 * MiB, 2 * MiB, 100);
	round_(t, lp, &r);
	assert_int_equal(th_mock_off_or_0(t, "n"), 32 * MiB);
	assert_int_equal(th_mock_map_count(), 5);
	famfs_logplay_free(lp);
}

/* The torn entry is the DELETE of a, whose memory went to g: once it
 * verifies, b and g are made, a never */
static void test_follower_torn_delete_honoured(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a, d;

	th_remount(t);
	famfs_logplay_hold_bad(lp);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_append_file(t, "b", 26 * MiB, 2 * MiB, 100);
	d = th_del(t, a, F, "a");
	reclaim(t, d);
	th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
	flip(t, d);
	round_(t, lp, &r);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
	assert_false(th_exists(t, "g", false));
	flip(t, d);
	round_(t, lp, &r);
	assert_false(th_exists(t, "a", false));
	assert_int_equal(th_mock_off_or_0(t, "b"), 26 * MiB);
	assert_int_equal(th_mock_off_or_0(t, "g"), 24 * MiB);
	assert_int_equal(th_mock_map_count(), 2);
	assert_int_equal(r.conflicts, 0);
	famfs_logplay_free(lp);
}

/* A held directory made as the way to a file made after the skipped
 * entry: root's, 0700 while held; its logged mode once it is not */
static void test_held_dir_0700_until_released(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t bad;
	struct stat st;

	th_remount(t);
	dir_mode(t, "d", 0755, 0);
	dir_mode(t, "d/e", 0711, 1234);
	th_append_file(t, "d/e/old", 24 * MiB, 2 * MiB, 100);
	bad = th_append_file(t, "x", 26 * MiB, 2 * MiB, 100);
	th_append_file(t, "d/e/new", 28 * MiB, 2 * MiB, 100);
	flip(t, bad);
	r = play(t);
	assert_int_equal(th_mock_off_or_0(t, "d/e/new"), 28 * MiB);
	assert_false(th_exists(t, "d/e/old", false));
	st = st_of(t, "d");
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(st.st_uid, geteuid());
	st = st_of(t, "d/e");
	assert_int_equal(st.st_mode & 07777, 0700);
	assert_int_equal(st.st_uid, geteuid());
	assert_true(r.withheld >= 3);
	/* the entry verifies: no longer held */
	flip(t, bad);
	r = play(t);
	assert_int_equal(r.withheld, 0);
	assert_int_equal(st_of(t, "d").st_mode & 07777, 0755);
	st = st_of(t, "d/e");
	assert_int_equal(st.st_mode & 07777, 0711);
	if (!geteuid())
		assert_int_equal(st.st_uid, 1234);
	assert_int_equal(th_mock_off_or_0(t, "d/e/old"), 24 * MiB);
}

/* 15 objects held: the first 10 said, then one line with the count */
static void test_held_said_first_then_counted(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t bad;
	char s[64];

	th_remount(t);
	for (int i = 0; i < 15; i++) {
		snprintf(s, sizeof(s), "f%d", i);
		th_append_file(t, s, (uint64_t)(24 + 2 * i) * MiB, 2 * MiB, 100);
	}
	bad = th_append_file(t, "x", 60 * MiB, 2 * MiB, 100);
	flip(t, bad);
	r = play(t);
	assert_int_equal(r.withheld, 15);
	assert_int_equal(count(": not made"), 10);
	if (!strstr(said, "15 objects"))
		fail_msg("no count line in:\n%s", said);
}

/* .meta/.log1 over [off, +len) */
static void log1(struct th *t, uint64_t off, uint64_t len)
{
	char a[400];

	snprintf(a, sizeof(a), "%s/.meta/.log1", t->mpt);
	unlink(a);
	assert_int_equal(famfs_meta_create(t->mpt, ".meta/.log1", 0644,
					   FAMFS_LOG, off, len), 0);
}

/* the mock maps nothing: the segment's bytes into .meta/.log1 */
static void copy_seg(struct th *t, uint64_t off, uint64_t len)
{
	char a[400], *buf = malloc(len);
	int img, fd;

	assert_non_null(buf);
	snprintf(a, sizeof(a), "%s/.meta/.log1", t->mpt);
	img = open(t->img, O_RDONLY);
	fd = open(a, O_RDWR);
	assert_true(img >= 0 && fd >= 0);
	assert_int_equal(pread(img, buf, len, (off_t)off), (ssize_t)len);
	assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
	close(fd);
	close(img);
	free(buf);
}

/* A lost segment (.meta/.log1 unusable here) in a big log: everything
 * held, 10 objects said; once it can be read, the follower makes them */
static void test_follower_lost_segment_then_read(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	struct famfs_fs fs;
	uint64_t off;
	char p[64];

	th_remount(t);
	famfs_logplay_hold_bad(lp);
	for (int i = 0; i < 20; i++) {
		snprintf(p, sizeof(p), "d%d", i);
		th_append_dir(t, p);
	}
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	assert_int_equal(famfs_log_grow(&t->fs, 4 * MiB), 0);
	famfs_fs_unlock(&t->fs);
	off = t->fs.seg[1].dev_off;
	while (famfs_log_next(t->fs.log) < FAMFS_CLOG_CAPACITY(2 * MiB) + 5) {
		static unsigned k;

		snprintf(p, sizeof(p), "e%u", k++);
		th_append_dir(t, p);
	}
	th_fake_meta(t);
	log1(t, off, 2 * MiB);		/* the wrong size: not read */
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_logplay_more(lp, &fs, false, &r, NULL, NULL), 0);
	th_stderr_take(said, sizeof(said));
	famfs_fs_close(&fs);
	assert_false(th_exists(t, "d0", true));
	assert_true(r.withheld > 20);
	assert_int_equal(count(": not made"), 10);
	assert_non_null(strstr(said, "a lost segment"));
	/* still lost: nothing */
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_logplay_more(lp, &fs, false, &r, NULL, NULL), 0);
	th_stderr_take(said, sizeof(said));
	famfs_fs_close(&fs);
	assert_false(th_exists(t, "d0", true));
	/* read now: made */
	log1(t, off, 4 * MiB);
	copy_seg(t, off, 4 * MiB);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_logplay_more(lp, &fs, false, &r, NULL, NULL), 0);
	th_stderr_take(said, sizeof(said));
	assert_true(th_exists(t, "d0", true));
	assert_true(th_exists(t, "d19", true));
	assert_true(th_exists(t, "e0", true));
	assert_int_equal(famfs_logplay_next(lp), famfs_log_next(fs.log));
	famfs_fs_close(&fs);
	famfs_logplay_free(lp);
}

/* the log grown by a 4 MiB segment 1 and directories e0, e1... appended
 * until n entries are in it: its offset */
static uint64_t grow_past(struct th *t, uint64_t n)
{
	static unsigned k;
	char p[64];

	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	assert_int_equal(famfs_log_grow(&t->fs, 4 * MiB), 0);
	famfs_fs_unlock(&t->fs);
	while (famfs_log_next(t->fs.log) < FAMFS_CLOG_CAPACITY(2 * MiB) + n) {
		snprintf(p, sizeof(p), "e%u", k++);
		th_append_dir(t, p);
	}
	return t->fs.seg[1].dev_off;
}

/* review r41e, MED 1: a (fullplay.c) replay whose walk stops at a lost
 * segment that holds a's RECLAIM and a new a at the same path on a's
 * memory (the same map), which another replayer here (the master's own
 * opening) made: the pass read a and its DELETE only, a pending DELETE --
 * gone_file must not take the new a for the deleted one and unlink it */
static void test_lost_segment_keeps_remade(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r = { 0 };
	struct famfs_fs fs;
	struct stat before;
	uint64_t off, a, d;
	char p[64];

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	d = th_del(t, a, F, "a");
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	assert_int_equal(famfs_log_grow(&t->fs, 4 * MiB), 0);
	famfs_fs_unlock(&t->fs);
	off = t->fs.seg[1].dev_off;
	while (famfs_log_next(t->fs.log) < FAMFS_CLOG_CAPACITY(2 * MiB) + 2) {
		static unsigned k;

		snprintf(p, sizeof(p), "e%u", k++);
		th_append_dir(t, p);
	}
	reclaim(t, d);
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	r = play(t);			/* the other replayer: the new a */
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	before = st_of(t, "a");
	th_fake_meta(t);
	log1(t, off, 2 * MiB);		/* lost here */
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_logplay(&fs, false, &r), 0);
	th_stderr_take(said, sizeof(said));
	famfs_fs_close(&fs);
	assert_non_null(strstr(said, "a lost segment"));
	if (!th_exists(t, "a", false) || r.removed ||
	    st_of(t, "a").st_ino != before.st_ino)
		fail_msg("a replay stopped at a lost segment removed the live a, made on the deleted a's memory at its path by a later FILE in that segment (%lu removed; a %s)",
			 r.removed, th_exists(t, "a", false) ? "there" : "gone");
}

/* The same for a follower's round (nsplay.c): its look-ahead stops at
 * the lost segment, which holds a's RECLAIM and the new a; the DELETE of
 * a before it must not be played (it would unlink the live a) until the
 * segment can be read -- then the round reads the new a and keeps it */
static void test_round_lost_segment_keeps_remade(void **state)
{
	static const uint8_t other[16] = { 0x5e, 0x9a, 0x11, 0x7c };
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	struct famfs_fs fs;
	struct stat before, hst;
	uint64_t off, a, d;
	char pa[700];
	int hfd;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	round_(t, lp, &r);		/* the follower's first round: a */
	d = th_del(t, a, F, "a");
	off = grow_past(t, 2);
	reclaim(t, d);
	th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	r = play(t);		/* the other replayer: a is the new a */
	before = st_of(t, "a");
	th_fake_meta(t);
	log1(t, off, 2 * MiB);		/* lost for the follower's opening */
	th_write_id(t->hostid, other);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_false(fs.master);
	round_on(&fs, lp, &r);
	famfs_fs_close(&fs);
	if (!th_exists(t, "a", false) || st_of(t, "a").st_ino != before.st_ino)
		fail_msg("a round stopped at a lost segment played a's DELETE before it and unlinked the live a, made on a's memory at its path by a later FILE in that segment (a %s)",
			 th_exists(t, "a", false) ? "made again" : "gone");
	/* the segment read: the DELETE is played, the new a kept */
	snprintf(pa, sizeof(pa), "%s/a", t->mpt);
	hfd = open(pa, O_RDONLY | O_CLOEXEC);
	assert_true(hfd >= 0);
	log1(t, off, 4 * MiB);
	copy_seg(t, off, 4 * MiB);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	round_on(&fs, lp, &r);
	assert_int_equal(famfs_logplay_next(lp), famfs_log_next(fs.log));
	famfs_fs_close(&fs);
	assert_int_equal(st_of(t, "a").st_ino, before.st_ino);
	assert_int_equal(fstat(hfd, &hst), 0);
	if (!hst.st_nlink)
		fail_msg("r42d: the open new a was unlinked and made again (st_ino alone did not tell)");
	close(hfd);
	famfs_logplay_free(lp);
}


/* r42d: a deleted file left by gone_file for an entry after its DELETE
 * that does not verify (hold.why > gone) is never removed by the
 * follower once that entry verifies, when nothing live was cut
 * (withheld needs ncut): its rounds go on from the torn entry */
static void test_r42d_kept_forever(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a, bad;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	play(t);				/* a made here */
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	th_del(t, a, F, "a");
	bad = dir_mode(t, "x", 0755, 0);
	flip(t, bad);
	famfs_logplay_hold_bad(lp);
	round_(t, lp, &r);
	flip(t, bad);
	round_(t, lp, &r);
	round_(t, lp, &r);
	assert_int_equal(famfs_logplay_next(lp), famfs_log_next(t->fs.log));
	if (th_exists(t, "a", false))
		fail_msg("r42d: deleted a still here after the torn entry verifies and the follower read to the log's end (removed %lu); said: %s",
			 r.removed, said);
	famfs_logplay_free(lp);
}

/* r42d: gone_file leaves a deleted file whose RECLAIM it read (so
 * famfs.ko's hold protects nothing) and whose memory a later FILE gave
 * to g at another path, because some entry after it does not verify */
static void test_r42d_kept_after_reclaim_read(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	uint64_t a, d, bad;

	th_remount(t);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	play(t);				/* a made here (stale later) */
	d = th_del(t, a, F, "a");
	reclaim(t, d);
	th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
	bad = dir_mode(t, "x", 0755, 0);
	flip(t, bad);
	r = play(t);
	if (th_exists(t, "a", false))
		fail_msg("r42d: a (deleted, its RECLAIM read, its memory g's: g %s) left by famfs logplay because entry %llu after it does not verify (removed %lu); said: %s",
			 th_exists(t, "g", false) ? "made" : "held",
			 (unsigned long long)bad, r.removed, said);
}

/* review r41c, LOW 2: a follower on the master whose first round held a
 * file makes it on the retry; the master's famfs rm of it later is no
 * conflict (the trouble mark is stale once it is made) */
static void test_master_follower_rm_after_retry_no_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a, bad;
	char p[700];

	th_remount(t);
	assert_true(t->fs.master);
	famfs_logplay_hold_bad(lp);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	bad = th_append_file(t, "t", 28 * MiB, 2 * MiB, 100);
	flip(t, bad);
	round_(t, lp, &r);
	assert_false(th_exists(t, "a", false));
	flip(t, bad);
	round_(t, lp, &r);		/* the retry: a made */
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	assert_int_equal(r.conflicts, 0);
	/* famfs rm a on the master: removed here, then logged */
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(unlink(p), 0);
	th_del(t, a, FAMFS_LOG_FILE, "a");
	round_(t, lp, &r);
	if (r.conflicts)
		fail_msg("a conflict for the master's own rm of a file the retry made:\n%s",
			 said);
	famfs_logplay_free(lp);
}

/* control: the same without the hold -- no conflict */
static void test_master_follower_rm_no_hold_no_conflict(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r = { 0 };
	uint64_t a;
	char p[700];

	th_remount(t);
	famfs_logplay_hold_bad(lp);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_append_file(t, "t", 28 * MiB, 2 * MiB, 100);
	round_(t, lp, &r);
	assert_int_equal(th_mock_off_or_0(t, "a"), 24 * MiB);
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(unlink(p), 0);
	th_del(t, a, FAMFS_LOG_FILE, "a");
	round_(t, lp, &r);
	assert_int_equal(r.conflicts, 0);
	famfs_logplay_free(lp);
}

static int setup_compact(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	*state = t;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_follower_makes_withheld_once_verified, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_follower_torn_delete_honoured, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_kept_forever, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_r42d_kept_after_reclaim_read, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_held_dir_0700_until_released, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_held_said_first_then_counted, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_follower_lost_segment_then_read, setup_compact, th_teardown),
		cmocka_unit_test_setup_teardown(test_lost_segment_keeps_remade, setup_compact, th_teardown),
		cmocka_unit_test_setup_teardown(test_round_lost_segment_keeps_remade, setup_compact, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_follower_rm_no_hold_no_conflict, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_follower_rm_after_retry_no_conflict, setup_v1, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
