// SPDX-License-Identifier: GPL-2.0
/* Log growth (INCOMPAT_LOG_EXTEND) as a mount and other hosts see it:
 * .meta/.logK (made under the name .meta/.logK.new until its EXTEND entry
 * is committed) against its entry, famfs check and fsck on it, and a
 * reader whose superblock predates the growth. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "th.h"
#include "th_loggrow.h"

/* fs's log walked into s, its messages not printed: the walk's return */
static int walk_quiet(struct famfs_fs *fs, struct seen *s)
{
	int rc;

	famfs_quiet = 1;
	rc = famfs_log_walk(fs, collect, s);
	famfs_quiet = 0;
	return rc;
}

static int no_op_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		       bool ok, const char *reason)
{
	(void)arg, (void)idx, (void)e, (void)ok, (void)reason;
	return 0;
}

static jmp_buf crash;

static bool meta_exists(struct th *t, const char *rel)
{
	char p[400];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	return access(p, F_OK) == 0;
}

/* the growth's zeroing (a flush of the whole new segment) */
static void crash_at_zero(const struct famfs_map *m, const void *a, size_t n)
{
	(void)m, (void)a;
	if (n == 4 * MiB)
		longjmp(crash, 1);
}

/* A growth killed before its EXTEND entry leaves no .meta/.logK that a
 * later opening of the mount takes for a logged segment: the master
 * would write entries into it, or log the next growth as segment 2 */
static void test_mount_unfinished_growth(void **state)
{
	struct th *volatile t = *state;
	struct famfs_fs fs;
	struct seen s = { 0 };

	fill_to(t, 3);
	famfs_flush_hook = crash_at_zero;
	famfs_quiet = 1;
	if (!setjmp(crash)) {
		grow(t, 4 * MiB);
		fail_msg("the growth did not reach its zeroing");
	}
	famfs_flush_hook = NULL;
	famfs_quiet = 0;
	famfs_fs_unlock(&t->fs);
	t->fs.locked = false;
	assert_int_equal(famfs_log_next(t->fs.log), 3);
	assert_false(meta_exists(t, ".meta/.log1"));
	/* the mount: one segment; its growth is segment 1 */
	th_fake_meta(t);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_int_equal(fs.nsegs, 1);
	assert_int_equal(famfs_fs_lock(&fs), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_log_grow(&fs, 4 * MiB), 0);
	famfs_quiet = 0;
	famfs_fs_unlock(&fs);
	assert_int_equal(fs.nsegs, 2);
	famfs_fs_close(&fs);
	assert_true(meta_exists(t, ".meta/.log1"));
	assert_false(meta_exists(t, ".meta/.log1.new"));
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	assert_int_equal(famfs_log_walk(&fs, collect, &s), 0);
	famfs_fs_close(&fs);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ext, 1);
	/* killed after the commit, before the rename: the next walk that
	 * meets the EXTEND entry takes .meta/.log1.new as its segment */
	{
		char a[400], b[400];

		snprintf(a, sizeof(a), "%s/.meta/.log1", t->mpt);
		snprintf(b, sizeof(b), "%s/.meta/.log1.new", t->mpt);
		assert_int_equal(rename(a, b), 0);
	}
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	assert_int_equal(fs.nsegs, 1);
	assert_int_equal(famfs_log_walk(&fs, collect, &s), 0);
	assert_int_equal(fs.nsegs, 2);
	famfs_fs_close(&fs);
	assert_int_equal(s.bad, 0);
	assert_true(meta_exists(t, ".meta/.log1"));
	assert_false(meta_exists(t, ".meta/.log1.new"));
}

static unsigned nsaid;
static char said[4][FAMFS_REASON_LEN];

static void note(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "check: %s\n", msg);
	if (nsaid < 4)
		snprintf(said[nsaid], sizeof(said[0]), "%s", msg);
	nsaid++;
}

static bool said_has(const char *what)
{
	for (unsigned i = 0; i < nsaid && i < 4; i++)
		if (strstr(said[i], what))
			return true;
	return false;
}

/* .meta/.logK against its EXTEND entry: famfs fsck on a mount (and
 * famfs check, through famfs_logseg_check_files) say when it maps other
 * memory, is missing, or is not in the log; a walk never reads the log
 * through a file that maps other memory, and does not blame the entry */
static void test_mount_segment_files(void **state)
{
	struct th *t = *state;
	uint64_t ds = famfs_data_start(t->fs.sb), off;
	struct famfs_fsck_result r;
	struct famfs_log_entry e;
	struct famfs_fs fs;
	struct seen s = { 0 };
	char a[400];

	fill_to(t, 3);
	assert_int_equal(grow(t, 4 * MiB), 0);
	off = t->fs.seg[1].dev_off;
	fill_to(t, 6);
	th_fake_meta(t);
	assert_true(meta_exists(t, ".meta/.log1"));
	/* all as the log says: no problem */
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	nsaid = 0;
	assert_int_equal(famfs_fsck_cb(&fs, &r, note, NULL), 0);
	famfs_fs_close(&fs);
	assert_int_equal(r.problems, 0);
	/* .meta/.log1 replaced by one over other memory */
	snprintf(a, sizeof(a), "%s/.meta/.log1", t->mpt);
	assert_int_equal(unlink(a), 0);
	assert_int_equal(famfs_meta_create(t->mpt, ".meta/.log1", 0644,
					   FAMFS_LOG, ds + 40 * MiB, 4 * MiB), 0);
	assert_int_not_equal(off, ds + 40 * MiB);
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	assert_int_equal(walk_quiet(&fs, &s), 0);
	assert_int_equal(s.bad, 0);		/* the entry is right */
	assert_int_equal(fs.nsegs, 1);		/* the file not read */
	nsaid = 0;
	famfs_quiet = 1;
	assert_int_equal(famfs_fsck_cb(&fs, &r, note, NULL), 0);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	assert_int_equal(r.problems, 1);
	assert_true(said_has(".meta/.log1: maps ["));
	/* a stray .meta/.log2 and an unfinished growth's .meta/.log2.new */
	assert_int_equal(unlink(a), 0);
	assert_int_equal(famfs_meta_create(t->mpt, ".meta/.log2", 0644,
					   FAMFS_LOG, ds + 40 * MiB, 2 * MiB), 0);
	assert_int_equal(famfs_meta_create(t->mpt, ".meta/.log2.new", 0644,
					   FAMFS_LOG, ds + 50 * MiB, 2 * MiB), 0);
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	nsaid = 0;
	famfs_quiet = 1;
	assert_int_equal(famfs_fsck_cb(&fs, &r, note, NULL), 0);
	famfs_quiet = 0;
	/* (.meta/.log1 was made again by the walk, as a replay does) */
	assert_int_equal(r.problems, 2);
	assert_true(meta_exists(t, ".meta/.log1"));
	assert_true(said_has(".meta/.log2: not in the log"));
	assert_true(said_has(".meta/.log2.new: left by a log growth"));
	famfs_fs_close(&fs);
	/* a second EXTEND entry for segment 1, same range: corrupt */
	famfs_entry_build_extend(&e, 1, off, 4 * MiB);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(th_reopen(t), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 1);
	assert_non_null(strstr(s.why, "added twice"));
}

/* A reader (th_open_client) of 3 entries, then the master's growth by 4 MiB
 * and, with more, entries up to 6 */
static void client_then_grow(struct th *t, struct famfs_fs *r, bool more)
{
	fill_to(t, 3);
	th_open_client(t, r);
	assert_int_equal(grow(t, 4 * MiB), 0);
	if (more)
		fill_to(t, 6);
}

/* A reader whose copy of the superblock predates the growth (bounce
 * buffers, or a non-coherent CPU's lines): the EXTEND entry it meets
 * needs a bit its copy lacks.  The bit was set before the entry was
 * written, so the reader looks at the superblock again before it calls
 * the entry corrupt -- else a follower skips it for good, and stops at
 * the segment it never maps. */
static void test_reader_sb_older_than_growth(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	struct seen s = { 0 };

	fill_to(t, 3);
	th_open_client(t, &r);
	assert_false(r.master);
	assert_false(le32toh(r.sb->feature_incompat) &
		     FAMFS_FEATURE_INCOMPAT_LOG_EXTEND);
	assert_int_equal(grow(t, 4 * MiB), 0);
	fill_to(t, 6);
	assert_int_equal(walk_quiet(&r, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ext, 1);
	assert_int_equal(r.nsegs, 2);
	famfs_fs_close(&r);
}

/* The same reader, but the superblock it reads again to judge the EXTEND
 * entry does not verify (damaged on the media since it first read it): it
 * must keep the superblock it verified -- never judge with one that failed
 * its check -- and the entry stays refused. */
static void test_reader_sb_reread_bad(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	struct seen s = { 0 };

	client_then_grow(t, &r, false);
	th_damage_sb(t);
	walk_quiet(&r, &s);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	assert_false(le32toh(r.sb->feature_incompat) &
		     FAMFS_FEATURE_INCOMPAT_LOG_EXTEND);
	assert_int_equal(s.ext, 0);
	assert_int_equal(s.bad, 1);
	famfs_fs_close(&r);
}

/* the superblock region of the reader below; its first re-read is torn
 * (read while the master wrote it) */
static void *torn_sb;
static int torn_left;

static void tear_once(struct famfs_map *m, void *addr, size_t len)
{
	(void)len;
	if (m->addr != torn_sb || addr != torn_sb || !torn_left)
		return;
	torn_left--;
	((uint8_t *)addr)[200] ^= 0x5a;
}

/* The same reader, but the superblock it reads again is of a newer famfs
 * (an incompat bit this tool does not know, CRC good): R1 -- the walk
 * stops with -EPROTONOSUPPORT, as an open would refuse it; it does not
 * call the entry corrupt and go on playing the entries after it with the
 * superblock it had. */
static void test_reader_sb_reread_future(void **state)
{
	struct th *t = *state;
	struct famfs_superblock sb;
	struct famfs_fs r;
	struct seen s = { 0 };
	int fd;

	client_then_grow(t, &r, true);
	fd = open(t->img, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	sb.feature_incompat = htole32(le32toh(sb.feature_incompat) | (1u << 30));
	famfs_sb_set_crc(&sb);
	assert_int_equal(pwrite(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	close(fd);
	assert_int_equal(walk_quiet(&r, &s), -EPROTONOSUPPORT);
	assert_int_equal(s.ext, 0);
	famfs_fs_close(&r);
}

/* The reader of test_reader_sb_older_than_growth re-reads the superblock
 * while the master writes it: a torn read fails its CRC once.  As at open
 * (check_sb), it is read once more before the copy kept is used -- else
 * the EXTEND entry is refused and a follower skips it for good. */
static void test_reader_sb_reread_torn(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	struct seen s = { 0 };

	client_then_grow(t, &r, true);
	torn_sb = r.sbm.addr;
	torn_left = 1;
	famfs_refresh_hook = tear_once;
	assert_int_equal(walk_quiet(&r, &s), 0);
	famfs_refresh_hook = NULL;
	assert_int_equal(torn_left, 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ext, 1);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* entries in segment 1, read on a mount: through a .meta/.log1 that maps
 * the segment, all good; through one that maps other memory, the walk
 * stops at segment 1 (nothing read from the wrong memory) and fsck names
 * the file */
static void test_mount_segment_file_in_use(void **state)
{
	struct th *t = *state;
	uint64_t ds = famfs_data_start(t->fs.sb), off;
	struct famfs_fsck_result r;
	struct famfs_fs fs;
	struct seen s = { 0 };
	char a[400], *buf = malloc(4 * MiB);
	int img, fd;

	assert_non_null(buf);
	assert_int_equal(grow(t, 4 * MiB), 0);
	off = t->fs.seg[1].dev_off;
	fill_to(t, C0 + 10);
	th_fake_meta(t);
	/* the mock maps nothing: segment 1's bytes into .meta/.log1 */
	snprintf(a, sizeof(a), "%s/.meta/.log1", t->mpt);
	img = open(t->img, O_RDONLY);
	fd = open(a, O_RDWR);
	assert_true(img >= 0 && fd >= 0);
	assert_int_equal(pread(img, buf, 4 * MiB, (off_t)off), (ssize_t)(4 * MiB));
	assert_int_equal(pwrite(fd, buf, 4 * MiB, 0), (ssize_t)(4 * MiB));
	close(fd);
	close(img);
	free(buf);
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	assert_int_equal(famfs_log_walk(&fs, collect, &s), 0);
	famfs_fs_close(&fs);
	assert_int_equal(s.bad, 0);
	assert_true(s.last >= C0);
	/* .meta/.log1 over other memory */
	assert_int_equal(unlink(a), 0);
	assert_int_equal(famfs_meta_create(t->mpt, ".meta/.log1", 0644,
					   FAMFS_LOG, ds + 40 * MiB, 4 * MiB), 0);
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(walk_quiet(&fs, &s), -ENXIO);
	assert_int_equal(s.bad, 0);
	assert_true(s.last < C0);
	nsaid = 0;
	famfs_quiet = 1;
	/* (issue 27 item 7: reported as problems -- the file, and the slots
	 * that cannot be read -- not an operational error) */
	assert_int_equal(famfs_fsck_cb(&fs, &r, note, NULL), 0);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	assert_true(r.problems >= 2);
	assert_true(said_has(".meta/.log1: maps ["));
}

/* ---- issue 27 item 7: a segment that cannot be mapped is reported, not
 * an operational error ---- */

/* flip a byte of the log's slot `slot` (segment 0) on the device */
static void damage_slot(struct th *t, uint64_t slot, unsigned at)
{
	off_t o = (off_t)(le64toh(t->fs.sb->log_offset) + FAMFS_LOG_HDR_SIZE +
			  slot * FAMFS_CLOG_SLOT + at);
	uint8_t b;
	int fd = open(t->img, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, o), 1);
	b ^= 0x10;
	assert_int_equal(pwrite(fd, &b, 1, o), 1);
	close(fd);
}

/* entries to 3, a growth by 2 MiB (its EXTEND entry at slot 3) and
 * entries to C0 + 10; the EXTEND entry damaged on the device (reopened):
 * its segment cannot be mapped */
static void extend_damaged(struct th *t)
{
	fill_to(t, 3);
	assert_int_equal(grow(t, 2 * MiB), 0);
	fill_to(t, C0 + 10);
	damage_slot(t, 3, 40);
	assert_int_equal(th_reopen(t), 0);
}

/* a new mount's replay (no .meta/.log1 yet: the walk makes it from the
 * EXTEND entry, which is damaged), fs left open, its messages in msg */
static void replay_fresh_mount(struct th *t, struct famfs_fs *fs,
			       struct famfs_logplay_result *lr, char *msg,
			       size_t n)
{
	th_fake_meta(t);
	snprintf(msg, n, "%s/.meta/.log1", t->mpt);
	assert_int_equal(unlink(msg), 0);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_logplay(fs, false, lr), 0);
	th_stderr_take(msg, n);
}

/* One damaged EXTEND entry: its segment cannot be mapped, so no entry
 * after it can be read.  fsck reports the entry and the slots it cannot
 * read as problems (exit 3 / fsck(8)'s 4), not as an operational error;
 * a replay (mount, famfs logplay) reports them, plays what it can read
 * and goes on; the master creates nothing meanwhile. */
static void test_damaged_extend_reported(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fsck_result r;
	struct famfs_fs fs;
	char msg[8192];
	int fd;

	extend_damaged(t);
	nsaid = 0;
	famfs_quiet = 1;
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, note, NULL), 0);
	famfs_quiet = 0;
	assert_true(r.problems >= 2);
	assert_true(r.bad_entries >= 2);
	assert_true(said_has("log entry 3: "));
	assert_true(said_has("cannot be read"));
	replay_fresh_mount(t, &fs, &lr, msg, sizeof(msg));
	assert_true(lr.bad_entries >= 2);
	assert_true(lr.created_dirs > 0);	/* what could be read */
	assert_non_null(strstr(msg, "cannot be read"));
	/* nothing is created while the log cannot be read to its end */
	famfs_quiet = 1;
	fd = famfs_file_create(&fs, "new", 1, 0644, 0, 0);
	famfs_quiet = 0;
	assert_true(fd < 0);
	famfs_fs_close(&fs);
}

/* The same in a file system with the DELETE bit: nothing after the lost
 * segment is read, and a DELETE there may have deleted anything read
 * before it (its memory given to another file since): nothing is made,
 * each object said (fullhold.c) */
static void test_damaged_extend_with_delete(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fs fs;
	char msg[16384];

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0),
			 0);
	extend_damaged(t);
	replay_fresh_mount(t, &fs, &lr, msg, sizeof(msg));
	famfs_fs_close(&fs);
	assert_true(lr.bad_entries >= 2);
	assert_int_equal(lr.created_dirs, 0);
	assert_int_equal(lr.created_files, 0);
	assert_true(lr.withheld > 0);
	assert_non_null(strstr(msg, "not made"));
	assert_non_null(strstr(msg, "a lost segment"));
	assert_int_equal(th_count_entries(t->mpt), 1);	/* .meta */
}

/* this host as the master again (its host id, id) */
static void back_to_master(struct th *t, const char *id)
{
	FILE *f = fopen(t->hostid, "w");

	assert_non_null(f);
	fputs(id, f);
	fclose(f);
	assert_int_equal(th_reopen(t), 0);
	assert_true(t->fs.master);
}

/* the mount's meta files (th_fake_meta), with .meta/.log1 (its path in
 * a, n bytes) made again over [at, +len) of the device */
static void log1_over(struct th *t, char *a, size_t n, uint64_t at,
		      uint64_t len)
{
	th_fake_meta(t);
	snprintf(a, n, "%s/.meta/.log1", t->mpt);
	assert_int_equal(unlink(a), 0);
	assert_int_equal(famfs_meta_create(t->mpt, ".meta/.log1", 0644,
					   FAMFS_LOG, at, len), 0);
}

/* Segment 1 (4 MiB) and entries to C0 + 10, the last ones in it; then a
 * mount's meta files through which segment 1 cannot be read: .meta/.log1
 * (log1_over) over the segment's first 2 MiB (the wrong size) or, with
 * elsewhere, over 4 MiB of other memory */
static void segment1_lost(struct th *t, char *a, size_t n, bool elsewhere)
{
	uint64_t off;

	assert_int_equal(grow(t, 4 * MiB), 0);
	off = t->fs.seg[1].dev_off;
	fill_to(t, C0 + 10);
	if (elsewhere)
		log1_over(t, a, n, famfs_data_start(t->fs.sb) + 40 * MiB,
			  4 * MiB);
	else
		log1_over(t, a, n, off, 2 * MiB);
}

/* A follower round whose look-ahead meets a lost segment (.meta/.log1
 * over other memory: the EXTEND entry reads whole, the slots past it
 * cannot be read here): a file an earlier round left unmade for a DELETE
 * ahead of it that is refused (every host keeps the file) is not made at
 * that DELETE, for a DELETE of it that is applied may lie in the lost
 * segment (its memory another file's since): as before an entry that
 * does not verify, nothing from that DELETE on is played */
static void test_lost_segment_hides_delete(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_logplay *lp;
	struct famfs_fs fs;
	char id[128], a1[400];
	uint8_t other[16];
	uint64_t a;
	FILE *f;
	int n = 1;

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0),
			 0);
	f = fopen(t->hostid, "r");
	assert_non_null(f);
	assert_non_null(fgets(id, sizeof(id), f));
	fclose(f);
	lp = famfs_logplay_new(8);
	assert_non_null(lp);
	/* a client's first round: z */
	th_append_file(t, "z", 20 * MiB, 2 * MiB, 100);
	th_become_client(t);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	assert_true(th_exists(t, "z", false));
	back_to_master(t, id);
	a = th_append_file(t, "a", 24 * MiB, 2 * MiB, 100);
	th_del(t, a, FAMFS_LOG_FILE, "x");		/* refused */
	/* its next round: a, then SIGTERM (a left unmade) */
	th_become_client(t);
	memset(&r, 0, sizeof(r));
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r,
					    th_stop_after, &n), 0);
	famfs_quiet = 0;
	assert_false(th_exists(t, "a", false));
	assert_int_equal(famfs_logplay_next(lp), a + 1);
	back_to_master(t, id);
	/* the master: a's DELETE applied, in segment 1; g in a's memory */
	assert_int_equal(grow(t, 4 * MiB), 0);
	fill_to(t, C0 + 2);
	assert_true(th_del(t, a, FAMFS_LOG_FILE, "a") >= C0);
	th_append_file(t, "g", 24 * MiB, 2 * MiB, 100);
	/* the client's mount, segment 1 lost */
	log1_over(t, a1, sizeof(a1), famfs_data_start(t->fs.sb) + 40 * MiB,
		  4 * MiB);
	uuid_generate(other);
	th_write_id(t->hostid, other);
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_false(fs.master);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &fs, false, &r, NULL, NULL), 0);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	famfs_logplay_free(lp);
	assert_true(r.bad_entries >= 1);
	if (th_exists(t, "a", false))
		fail_msg("a made at its refused DELETE while a lost log segment after it may hold a DELETE of it that is applied");
}

/* .meta/.log1 of the wrong size (another segment's file, a damaged one):
 * the mount still opens (it is said), and fsck and a replay report the
 * slots that cannot be read through it */
static void test_bad_segment_file_reported(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fsck_result r;
	struct famfs_fs fs;
	char a[400];
	int fd;

	segment1_lost(t, a, sizeof(a), false);
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	nsaid = 0;
	assert_int_equal(famfs_fsck_cb(&fs, &r, note, NULL), 0);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	assert_true(r.problems >= 2);
	assert_true(said_has(".meta/.log1: not one extent of"));
	assert_true(said_has("cannot be read"));
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_int_equal(famfs_logplay(&fs, false, &lr), 0);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	assert_true(lr.bad_entries >= 1);
	assert_true(lr.created_dirs > 0);
	/* one that is no segment at all (empty): the same, not a mount
	 * that cannot be opened */
	assert_int_equal(unlink(a), 0);
	fd = open(a, O_RDWR | O_CREAT | O_EXCL, 0644);
	assert_true(fd >= 0);
	close(fd);
	nsaid = 0;
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	assert_int_equal(famfs_fsck_cb(&fs, &r, note, NULL), 0);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	assert_true(r.problems >= 2);
	assert_true(said_has("cannot be read"));
}

/* the same on a MULTIDEV file system (the first devadd sets the bit):
 * a replay still plays what can be read before the lost segment -- the
 * device table's update (every walk does it first) meets the lost slots
 * and fails the walk with -ENXIO before it reads any entry */
static void test_bad_segment_multidev_plays(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fs fs;
	char a[400];

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_MULTIDEV, 0),
			 0);
	segment1_lost(t, a, sizeof(a), false);
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	memset(&lr, 0, sizeof(lr));
	famfs_logplay(&fs, false, &lr);
	famfs_quiet = 0;
	famfs_fs_close(&fs);
	if (!lr.created_dirs)
		fail_msg("MULTIDEV, a lost segment: nothing before it played (bad %llu)",
			 (unsigned long long)lr.bad_entries);
}

/* MULTIDEV, a lost segment: the device table's update (every walk) meets
 * it too -- since a0bfca0 it goes on, but its clog_walk says the segment
 * each time and leaves fs->walk_lost set on a walk that ended before it
 * (fs.h: UINT64_MAX unless -ENXIO) */
static void test_lost_segment_said_per_walk(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fs fs;
	char a[400], msg[16384];
	const char *p;
	uint64_t lost;
	int n = 0, rc;

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_MULTIDEV, 0),
			 0);
	segment1_lost(t, a, sizeof(a), false);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	/* a walk of the first entries only: 0, walk_lost as it says */
	famfs_quiet = 1;
	rc = famfs_log_walk_range(&fs, 0, 1, no_op_entry, NULL);
	famfs_quiet = 0;
	assert_int_equal(rc, 0);
	lost = fs.walk_lost;
	th_stderr_grab();
	memset(&lr, 0, sizeof(lr));
	famfs_logplay(&fs, false, &lr);
	th_stderr_take(msg, sizeof(msg));
	famfs_fs_close(&fs);
	for (p = msg; (p = strstr(p, "cannot be read: they are in a log segment")); p++)
		n++;
	if (n > 1 || lost != UINT64_MAX)
		fail_msg("a walk of entry 0 only returned 0 with walk_lost %llu (set by the device table's update); one replay says the lost segment %d times (each walk's device table update)",
			 (unsigned long long)lost, n);
}

/* a create whose log walk fails says why, not "the create cache's path
 * table is damaged" (said for any walk error): here segment 1 is not
 * mapped (.meta/.log1 over other memory) */
static void test_cache_walk_error_named(void **state)
{
	struct th *t = *state;
	struct famfs_fs fs;
	char msg[4096], a[400];
	int rc;

	segment1_lost(t, a, sizeof(a), true);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_int_equal(famfs_fs_lock(&fs), 0);
	th_stderr_grab();
	rc = famfs_fs_cache_update(&fs);
	th_stderr_take(msg, sizeof(msg));
	famfs_fs_unlock(&fs);
	famfs_fs_close(&fs);
	assert_int_equal(rc, -ENXIO);
	assert_non_null(strstr(msg, "not mapped here"));
	if (strstr(msg, "path table is damaged"))
		fail_msg("a walk error (ENXIO: a segment not mapped) reported as a damaged path table: %s",
			 msg);
	assert_non_null(strstr(msg, strerror(ENXIO)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mount_unfinished_growth, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mount_segment_files, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reader_sb_older_than_growth, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reader_sb_reread_bad, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reader_sb_reread_future, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reader_sb_reread_torn, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mount_segment_file_in_use, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_damaged_extend_reported, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_damaged_extend_with_delete, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_lost_segment_hides_delete, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bad_segment_file_reported, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bad_segment_multidev_plays, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_cache_walk_error_named, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_lost_segment_said_per_walk, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
