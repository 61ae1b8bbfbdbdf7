// SPDX-License-Identifier: GPL-2.0
/* famfs logplay --follow: the follow loop with a mock clock.  The mount is
 * a directory with .meta/.superblock and .meta/.log files; the "master" is a
 * second opening of the same meta files that appends entries while the
 * follower waits (each wait is one tick of the clock). */
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

#define DEV_SIZE (512 * MiB)

struct fx {
	struct th *t;
	struct famfs_fs m;		/* the master's opening of the mount */
	/* the mock world */
	int ticks;			/* waits so far */
	int files_per_tick, files_total, appended;
	int gone_at;			/* tick at which the mount goes away */
	int stop_after;			/* stop() true after this many calls */
	int stop_calls;
	bool check_latency;		/* each file replayed one tick later */
	int late;			/* files not there one tick later */
};

static void copy_range(int from, const char *to, uint64_t off, uint64_t len)
{
	char *buf = malloc(len);
	int fd = open(to, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_non_null(buf);
	assert_true(fd >= 0);
	assert_int_equal(pread(from, buf, len, (off_t)off), (ssize_t)len);
	assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
	close(fd);
	free(buf);
}

/* the image's superblock and log become the mount's meta files */
static void make_meta(struct th *t)
{
	char p[700];
	int fd = open(t->img, O_RDONLY);

	assert_true(fd >= 0);
	snprintf(p, sizeof(p), "%s/.meta", t->mpt);
	assert_true(!mkdir(p, 0755) || errno == EEXIST);	/* th_new made it */
	snprintf(p, sizeof(p), "%s/.meta/.superblock", t->mpt);
	copy_range(fd, p, 0, FAMFS_SB_REGION_LEN);
	snprintf(p, sizeof(p), "%s/.meta/.log", t->mpt);
	copy_range(fd, p, FAMFS_LOG_OFFSET, 2 * MiB);
	close(fd);
}

static int fx_setup(void **state)
{
	struct fx *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	x->t = th_new(DEV_SIZE, 2 * MiB);
	make_meta(x->t);
	assert_int_equal(famfs_fs_open_mount(x->t->mpt, true, &x->m), 0);
	assert_true(x->m.rw);
	x->gone_at = -1;
	x->stop_after = -1;
	*state = x;
	return 0;
}

static int fx_teardown(void **state)
{
	struct fx *x = *state;

	famfs_fs_close(&x->m);
	th_free(x->t);
	free(x);
	return 0;
}

static uint64_t unit_off(int i)
{
	return FAMFS_LOG_OFFSET + 2 * MiB + (uint64_t)i * 2 * MiB;
}

static void file_name(char *p, size_t n, int i)
{
	snprintf(p, n, "dir%d/f%03d", i / 10, i);
}

/* the master logs file i (and its directory first, every tenth file) */
static void master_append(struct fx *x, int i)
{
	struct famfs_log_simple_ext ext = { htole64(unit_off(i)), htole64(2 * MiB) };
	struct famfs_log_entry e;
	char p[64];

	if (i % 10 == 0) {
		snprintf(p, sizeof(p), "dir%d", i / 10);
		assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, p, 0,
						   0755, 0, 0, NULL, 0), 0);
		assert_int_equal(famfs_log_append(&x->m, &e), 0);
	}
	file_name(p, sizeof(p), i);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, p, 1000 + i,
					   0644, 0, 0, &ext, 1), 0);
	assert_int_equal(famfs_log_append(&x->m, &e), 0);
}

static bool file_ok(struct fx *x, int i)
{
	struct famfs_ioc_map m;
	char rel[64], p[700];

	file_name(rel, sizeof(rel), i);
	snprintf(p, sizeof(p), "%s/%s", x->t->mpt, rel);
	if (th_mock_lookup(p, &m))
		return false;
	return m.file_size == 1000 + (uint64_t)i && m.ext_list_count == 1 &&
	       m.ext_list[0].offset == unit_off(i) && m.ext_list[0].len == 2 * MiB;
}

static int m_wait(struct famfs_follow *f, unsigned ms)
{
	struct fx *x = f->arg;

	assert_int_equal(ms, f->interval_ms);
	if (x->check_latency && x->appended && !file_ok(x, x->appended - 1))
		x->late++;
	x->ticks++;
	if (x->ticks == x->gone_at)
		return 1;
	for (int k = 0; k < x->files_per_tick && x->appended < x->files_total; k++)
		master_append(x, x->appended++);
	return 0;
}

static int m_gone(struct famfs_follow *f)
{
	struct fx *x = f->arg;

	return x->gone_at >= 0 && x->ticks >= x->gone_at;
}

static bool m_stop(struct famfs_follow *f)
{
	struct fx *x = f->arg;

	x->stop_calls++;
	return x->stop_after >= 0 && x->stop_calls > x->stop_after;
}

static const struct famfs_follow_ops mock_ops = {
	.wait = m_wait, .gone = m_gone, .stop = m_stop,
};

static void follower(struct fx *x, struct famfs_follow *f)
{
	assert_int_equal(famfs_follow_init(f, x->t->mpt, 200, &mock_ops), 0);
	f->arg = x;
}

static void test_follow_creates_each_file_by_the_next_tick(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;

	x->files_per_tick = 1;
	x->files_total = 100;
	x->gone_at = 102;
	x->check_latency = true;
	follower(x, &f);
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_UNMOUNTED);
	assert_int_equal(x->late, 0);
	assert_int_equal(f.r.created_files, 100);
	assert_int_equal(f.r.created_dirs, 10);
	assert_int_equal(f.r.conflicts + f.r.bad_entries + f.r.errors, 0);
	assert_int_equal(f.played, 110);
	assert_int_equal(f.rounds, 102);
	for (int i = 0; i < 100; i++)
		assert_true(file_ok(x, i));
	assert_int_equal(th_mock_map_count(), 100);
	famfs_follow_fini(&f);
}

static void test_follow_killed_and_restarted(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f, g;
	struct famfs_logplay_result r;

	x->files_per_tick = 3;
	x->files_total = 100;
	x->gone_at = 15;		/* "SIGKILL": the first follower just ends */
	follower(x, &f);
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_UNMOUNTED);
	famfs_follow_fini(&f);
	assert_true(f.r.created_files > 30 && f.r.created_files < 100);

	x->gone_at = 60;		/* a new follower, and the master goes on */
	follower(x, &g);
	assert_int_equal(famfs_follow(&g), FAMFS_FOLLOW_UNMOUNTED);
	/* everything the first one made is present, the rest created once */
	assert_int_equal(g.r.present, f.r.created_files + f.r.created_dirs);
	assert_int_equal(f.r.created_files + g.r.created_files, 100);
	assert_int_equal(g.r.conflicts + g.r.bad_entries + g.r.errors, 0);
	assert_int_equal(th_mock_map_count(), 100);
	famfs_follow_fini(&g);
	/* a plain logplay afterwards finds nothing to do */
	assert_int_equal(famfs_logplay(&x->m, true, &r), 0);
	assert_int_equal(r.created_files + r.created_dirs, 0);
	assert_int_equal(r.present, 110);
}

static void test_follow_stops_between_entries(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;

	for (int i = 1; i <= 9; i++)	/* nine files, no directory entry */
		master_append(x, i);
	x->stop_after = 4;		/* a signal while the 5th is replayed */
	x->gone_at = 100;
	follower(x, &f);
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_STOPPED);
	assert_int_equal(f.played, 4);
	assert_int_equal(f.r.created_files, 4);
	for (int i = 1; i <= 9; i++)
		assert_int_equal(file_ok(x, i), i <= 4);
	assert_int_equal(x->ticks, 0);	/* it did not wait again */
	famfs_follow_fini(&f);
}

static void test_follow_log_full_reported_once_and_goes_on(void **state)
{
	struct fx *x = *state;
	uint64_t cap = le64toh(x->m.log->capacity);
	struct famfs_log_entry e;
	struct famfs_follow f;
	uint64_t played;

	for (uint64_t i = 0; i < cap; i++) {
		char p[32];

		snprintf(p, sizeof(p), "d%llu", (unsigned long long)i);
		assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, p, 0,
						   0755, 0, 0, NULL, 0), 0);
		assert_int_equal(famfs_log_append(&x->m, &e), 0);
	}
	x->gone_at = 5;
	follower(x, &f);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, cap);
	assert_true(f.full_reported);
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_UNMOUNTED);
	assert_int_equal(f.rounds, 6);	/* kept going while full */
	assert_int_equal(f.r.created_dirs, cap);
	assert_int_equal(f.played, cap);
	famfs_follow_fini(&f);
}

static void test_follow_conflict_reported_not_rewritten(void **state)
{
	struct fx *x = *state;
	struct famfs_ioc_map m = { .extent_type = SIMPLE_DAX_EXTENT,
		.file_type = FAMFS_REG, .file_size = 7, .ext_list_count = 1,
		.ext_list = { { 300 * MiB, 2 * MiB } } };
	struct famfs_ioc_map have;
	struct famfs_follow f;
	char p[700];
	int fd;

	snprintf(p, sizeof(p), "%s/dir0", x->t->mpt);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/dir0/f003", x->t->mpt);
	fd = open(p, O_RDWR | O_CREAT, 0644);
	assert_true(fd >= 0);
	assert_int_equal(th_mock_kernel.map_create(fd, &m), 0);
	close(fd);
	x->files_per_tick = 2;
	x->files_total = 6;
	x->gone_at = 5;
	follower(x, &f);
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_UNMOUNTED);
	assert_int_equal(f.r.conflicts, 1);
	assert_int_equal(f.r.created_files, 5);
	assert_int_equal(f.r.present, 1);	/* dir0 was there */
	assert_int_equal(th_mock_lookup(p, &have), 0);
	assert_int_equal(have.file_size, 7);
	assert_int_equal(have.ext_list[0].offset, 300 * MiB);
	famfs_follow_fini(&f);
}

static void test_follow_path_logged_twice_across_rounds(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	uint64_t played;

	master_append(x, 1);
	follower(x, &f);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 1);
	master_append(x, 1);		/* the same path again, later */
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 1);
	assert_int_equal(f.r.conflicts, 1);
	assert_int_equal(f.r.created_files, 1);
	famfs_follow_fini(&f);
}

static void test_follow_real_gone_when_meta_goes(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	char p[700], q[700];
	uint64_t played;

	master_append(x, 1);
	assert_int_equal(famfs_follow_init(&f, x->t->mpt, 10, NULL), 0);
	assert_int_equal(f.ops->gone(&f), 0);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 1);
	snprintf(p, sizeof(p), "%s/.meta/.log", x->t->mpt);
	snprintf(q, sizeof(q), "%s/.meta/.log.away", x->t->mpt);
	assert_int_equal(rename(p, q), 0);
	assert_int_equal(f.ops->gone(&f), 1);
	assert_int_equal(famfs_follow_round(&f, &played), FAMFS_FOLLOW_UNMOUNTED);
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_UNMOUNTED);
	assert_int_equal(rename(q, p), 0);
	famfs_follow_fini(&f);
}

static void test_follow_real_stop_flag(void **state)
{
	struct fx *x = *state;
	volatile sig_atomic_t flag = 0;
	struct famfs_follow f;
	uint64_t played;

	master_append(x, 1);
	master_append(x, 2);
	assert_int_equal(famfs_follow_init(&f, x->t->mpt, 10, NULL), 0);
	f.stop_flag = &flag;
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 2);
	master_append(x, 3);
	flag = SIGTERM;
	assert_int_equal(famfs_follow(&f), FAMFS_FOLLOW_STOPPED);
	assert_int_equal(f.played, 2);	/* stopped before entry 2 */
	assert_false(file_ok(x, 3));
	famfs_follow_fini(&f);
}

static void test_follow_real_wait_times_out(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;

	assert_int_equal(famfs_follow_init(&f, x->t->mpt, 10, NULL), 0);
	assert_true(f.ino_fd >= 0);
	assert_int_equal(f.ops->wait(&f, 20), 0);
	famfs_follow_fini(&f);
}

static void test_follow_another_fs_replayed_from_start(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	uint64_t played;
	char p[700];
	int fd;

	master_append(x, 1);
	master_append(x, 2);
	follower(x, &f);
	famfs_flush_stats.file_invalidates = 0;
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 2);
	assert_int_equal(famfs_flush_stats.file_invalidates, 0);
	/* another file system appears at MPT: a new uuid, one entry */
	famfs_fs_close(&x->m);
	th_mock_reset();
	snprintf(p, sizeof(p), "rm -rf '%s'/dir0 '%s'/.meta", x->t->mpt, x->t->mpt);
	assert_int_equal(system(p), 0);
	fd = open(x->t->img, O_RDWR);
	assert_true(fd >= 0);
	{
		struct famfs_superblock sb;
		struct famfs_log_header h;
		uint8_t id[16] = { 1, 2, 3 }, master[16];

		assert_int_equal(pread(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
		memcpy(master, sb.master_uuid, 16);
		famfs_sb_init(&sb, id, master, DEV_SIZE, 2 * MiB);
		famfs_log_hdr_init(&h, id, 2 * MiB);
		assert_int_equal(pwrite(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
		assert_int_equal(pwrite(fd, &h, sizeof(h), FAMFS_LOG_OFFSET),
				 (ssize_t)sizeof(h));
	}
	close(fd);
	make_meta(x->t);
	assert_int_equal(famfs_fs_open_mount(x->t->mpt, true, &x->m), 0);
	master_append(x, 5);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 1);
	assert_true(file_ok(x, 5));
	assert_int_equal(f.r.created_files, 3);
	/* this host may hold lines of the memory from the file system
	 * before, which the new log does not know of: dropped, by the
	 * create */
	assert_int_equal(famfs_flush_stats.file_invalidates, 1);
	assert_int_equal(th_mock_v3_invalidates, 1);
	famfs_follow_fini(&f);
}

/* a follower whose host has no slot (its mount came before the host table,
 * or its registration failed: here the table is full) does not replay: a
 * file it mapped without a slot would be invisible to the master's reclaim
 * decision, which would hand that memory to a new file once it is deleted */
static void test_follow_unregistered_does_not_replay(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	struct famfs_hosttab tab;
	uint64_t played;
	int q = famfs_quiet;

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&x->m), 0);
	assert_int_equal(famfs_hosttab_open(&x->m, true, &tab), 0);
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		struct famfs_host h = { .state = FAMFS_HOST_VALID,
					.flags = FAMFS_HOST_REGISTERED,
					.generation = 1,
					.holds_from = FAMFS_HOLDS_NONE };

		memcpy(h.host_uuid, &i, sizeof(i));
		h.host_uuid[15] = 0xee;
		h.boot_id[0] = 1;
		assert_int_equal(famfs_hosttab_write(&tab, i, &h), 0);
	}
	famfs_hosttab_close(&tab);
	follower(x, &f);
	master_append(x, 0);
	famfs_quiet = 1;
	assert_true(famfs_follow_round(&f, &played) < 0);
	famfs_quiet = q;
	assert_false(file_ok(x, 0));
	famfs_follow_fini(&f);
}

/* a table a newer famfs armed with a flag this build does not know: the
 * follower takes no part -- its round stops, as an evicted one does,
 * instead of replaying on with a slot it can no longer report in */
static void test_follow_newer_table_stops(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	struct famfs_hosttab tab;
	struct famfs_hosts_ev ev;
	char why[FAMFS_REASON_LEN];
	uint64_t played;
	int q = famfs_quiet;

	th_fast_settle();
	assert_int_equal(famfs_hosts_create(&x->m), 0);
	follower(x, &f);
	master_append(x, 0);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_true(file_ok(x, 0));
	assert_int_equal(famfs_hosttab_open(&x->m, true, &tab), 0);
	assert_int_equal(famfs_hosttab_read_hdr(&tab, &ev, why), 0);
	ev.flags |= 1U << 5;
	th_hdr_plant(&tab, &ev);
	famfs_hosttab_close(&tab);
	master_append(x, 1);
	famfs_quiet = 1;
	assert_int_equal(famfs_follow_round(&f, &played), -EPROTONOSUPPORT);
	famfs_quiet = q;
	famfs_follow_fini(&f);
}

/* flip a byte of the path of entry idx in the master's log (v1: at 32 +
 * 24 on): it no longer verifies; flipped again, it does */
static void flip(struct fx *x, uint64_t idx)
{
	uint8_t *p = (uint8_t *)famfs_log_slot(x->m.log, idx);

	p[60] ^= 1;
	assert_int_equal(famfs_map_flush(&x->m.logm, p, 64), 0);
}

/* an entry that does not verify here (the master mid-append, a torn
 * line): the follower stops before it, re-reads it every round (said once,
 * counted once, not every poll), and once it verifies plays it and what
 * came after it, in order, each once */
static void skipped_reread(struct fx *x, bool ns)
{
	struct famfs_follow f;
	uint64_t played, bad;
	char buf[8192];

	if (ns)		/* a first round from the first entry (fullplay.c) */
		assert_int_equal(famfs_fs_change_feature(&x->m, FAMFS_FEAT_INCOMPAT,
							 FAMFS_FEATURE_INCOMPAT_DELETE,
							 0), 0);
	master_append(x, 1);
	bad = famfs_log_next(x->m.log);
	master_append(x, 2);
	master_append(x, 3);
	flip(x, bad);
	follower(x, &f);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(buf, sizeof(buf));
	assert_non_null(strstr(buf, "skipped"));
	assert_int_equal(f.r.bad_entries, 1);
	/* a first round from the first entry, with the DELETE bit, makes
	 * nothing created before it (it may be a DELETE: fullhold.c); on a
	 * follower the mount's replay made it (here the tree is new) */
	assert_true(file_ok(x, 1) == !ns);
	assert_false(file_ok(x, 2));
	assert_false(file_ok(x, 3));	/* not before the one ahead of it */
	assert_int_equal(famfs_logplay_replayed(f.lp), bad);
	assert_int_equal(famfs_logplay_next(f.lp), bad);
	/* still not verifying: the position stays, nothing said again */
	for (int i = 0; i < 3; i++) {
		th_stderr_grab();
		assert_int_equal(famfs_follow_round(&f, &played), 0);
		th_stderr_take(buf, sizeof(buf));
		assert_null(strstr(buf, "skipped"));
		assert_int_equal(played, 0);
		assert_int_equal(f.r.bad_entries, 1);
		assert_int_equal(famfs_logplay_replayed(f.lp), bad);
	}
	/* the append completes: played, and the one after it -- and what
	 * the first round withheld for it (the replay from the first entry
	 * again: fullhold.c) */
	flip(x, bad);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	/* (with the DELETE bit a replay from the first entry again: every
	 * entry counted) */
	assert_int_equal(played, ns ? famfs_logplay_next(f.lp) : 2);
	assert_true(file_ok(x, 1));
	assert_true(file_ok(x, 2));
	assert_true(file_ok(x, 3));
	assert_int_equal(f.r.created_files, 3);
	assert_int_equal(f.r.present, 0);
	assert_int_equal(f.r.bad_entries, 1);
	assert_int_equal(famfs_logplay_replayed(f.lp), famfs_log_next(x->m.log));
	assert_int_equal(th_mock_map_count(), 3);
	famfs_follow_fini(&f);
}

static void test_follow_rereads_skipped_entry(void **state)
{
	skipped_reread(*state, false);
}

static void test_follow_rereads_skipped_entry_first_round_full(void **state)
{
	skipped_reread(*state, true);
}

/* the retry's start: with the DELETE bit, the file of entry 1, an entry
 * that does not verify (returned) and the file of entry 2; the follower's
 * first round stops at the one that does not verify, which then does: the
 * next round is the retry, the replay from the first entry again */
static uint64_t retry_setup(struct fx *x, struct famfs_follow *f)
{
	uint64_t played, bad;
	char buf[8192];

	assert_int_equal(famfs_fs_change_feature(&x->m, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE,
						 0), 0);
	master_append(x, 1);
	bad = famfs_log_next(x->m.log);
	master_append(x, 2);
	flip(x, bad);
	follower(x, f);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(f, &played), 0);
	th_stderr_take(buf, sizeof(buf));
	assert_int_equal(famfs_logplay_next(f->lp), bad);
	flip(x, bad);
	return bad;
}

/* the retry not stopped: the replay from the first entry plays every
 * entry to the log's end; the round's count is next - before (355862d:
 * only a position below before counts from 0), the entries before the
 * one waited at left out */
static void test_follow_retry_count_whole(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	uint64_t played;
	char buf[8192];

	retry_setup(x, &f);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(buf, sizeof(buf));
	assert_int_equal(famfs_logplay_next(f.lp), famfs_log_next(x->m.log));
	if (played != famfs_logplay_next(f.lp))
		fail_msg("the retry replayed entries 0..%llu, the round counts %llu",
			 (unsigned long long)famfs_logplay_next(f.lp) - 1,
			 (unsigned long long)played);
	famfs_follow_fini(&f);
}

/* review r41c: the retry (the replay from the first entry again, once the
 * entry waited at verifies) stopped by a signal: the round's count of
 * entries played is not the position's fall to 0 wrapped around */
static void test_follow_retry_stopped_count(void **state)
{
	struct fx *x = *state;
	struct famfs_follow f;
	uint64_t played, bad;
	char buf[8192];

	bad = retry_setup(x, &f);
	x->stop_after = x->stop_calls + 1;	/* during the retry's pass 1 */
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(buf, sizeof(buf));
	if (played > famfs_log_next(x->m.log))
		fail_msg("played %llu entries (position %llu, was %llu)",
			 (unsigned long long)played,
			 (unsigned long long)famfs_logplay_next(f.lp),
			 (unsigned long long)bad);
	famfs_follow_fini(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_follow_creates_each_file_by_the_next_tick, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_killed_and_restarted, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_stops_between_entries, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_log_full_reported_once_and_goes_on, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_conflict_reported_not_rewritten, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_path_logged_twice_across_rounds, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_real_gone_when_meta_goes, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_real_stop_flag, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_real_wait_times_out, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_another_fs_replayed_from_start, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_unregistered_does_not_replay, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_newer_table_stops, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_rereads_skipped_entry, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_retry_stopped_count, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_retry_count_whole, fx_setup, fx_teardown),
		cmocka_unit_test_setup_teardown(test_follow_rereads_skipped_entry_first_round_full, fx_setup, fx_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
