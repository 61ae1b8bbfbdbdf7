// SPDX-License-Identifier: GPL-2.0
/* Publishing and refreshing metadata: the flushes of a log append and their
 * order, the flush counters (FAMFS_DEBUG_FLUSH), and the reader's retry
 * after a bad CRC: the cached copy is refreshed once (mocked: the refresh
 * hook stands for what the memory holds) before an entry, the superblock or
 * the log header is judged. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "th.h"

/* ---- flush hook: what was flushed, and what next_index was then ---------- */
#define MAXREC 16
static struct rec {
	uintptr_t off;		/* from the start of the map */
	size_t len;
	uint64_t next;		/* the log's next_index at that moment */
} recs[MAXREC];
static int nrec;
static struct famfs_log_header *hook_log;

static void flush_rec(const struct famfs_map *m, const void *addr, size_t len)
{
	if (nrec < MAXREC) {
		recs[nrec].off = (uintptr_t)addr - (uintptr_t)m->addr;
		recs[nrec].len = len;
		recs[nrec].next = hook_log ? famfs_log_next(hook_log) : 0;
	}
	nrec++;
}

static void test_append_flushes_entry_then_header(void **state)
{
	struct th *t = *state;
	uintptr_t slot2 = FAMFS_LOG_HDR_SIZE + 2 * FAMFS_LOG_ENTRY_SIZE;

	th_append_dir(t, "a");
	th_append_dir(t, "b");
	hook_log = t->fs.log;
	famfs_flush_hook = flush_rec;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	th_append_file(t, "c", 4 * MiB, 2 * MiB, 10);
	assert_int_equal(nrec, 2);
	/* 1. the entry, while it is not committed yet */
	assert_int_equal(recs[0].off, slot2);
	assert_int_equal(recs[0].len, FAMFS_LOG_ENTRY_SIZE);
	assert_int_equal(recs[0].next, 2);
	/* 2. the header, after the 8-byte store that commits it */
	assert_int_equal(recs[1].off, 0);
	assert_true(recs[1].len >= 24);
	assert_int_equal(recs[1].next, 3);
	/* a file stands for the device here: both through msync */
	assert_int_equal(famfs_flush_stats.msyncs, 2);
	assert_int_equal(famfs_flush_stats.crc_retries, 0);
}

static void test_cpu_flush_map_counts_lines(void **state)
{
	struct th *t = *state;
	struct famfs_map m = t->fs.logm;

	/* a device-dax map flushes cache lines instead of msync */
	m.cpu_flush = true;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_map_flush(&m, (char *)m.addr + 100, 1000), 0);
	assert_int_equal(famfs_flush_stats.cpu_flushes, 1);
	/* bytes 100..1099: lines 1..17 */
	assert_int_equal(famfs_flush_stats.cpu_lines, 17);
	assert_int_equal(famfs_flush_stats.msyncs, 0);
	/* outside the map: refused, nothing counted */
	assert_int_equal(famfs_map_flush(&m, (char *)m.addr + m.len - 10, 100),
			 -EINVAL);
	assert_int_equal(famfs_flush_stats.cpu_flushes, 1);
}

static void test_flush_stats_print(void **state)
{
	char buf[512] = "";
	FILE *f = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	famfs_flush_stats.msyncs = 3;
	famfs_flush_stats.crc_retries = 1;
	assert_non_null(f);
	famfs_flush_stats_print(f);
	fclose(f);
	assert_non_null(strstr(buf, "msync=3 "));
	assert_non_null(strstr(buf, "crc_retries=1"));
}

/* ---- refresh hook: the memory holds good bytes, the cache had bad ones --- */
static struct {
	const char *img;
	uint64_t dev_off;	/* where good[] lives on the device */
	char good[FAMFS_LOG_ENTRY_SIZE];
	size_t len;
	bool repair;
	int calls;
	int calls_at;		/* calls whose range covered dev_off */
} rf;

static int setup(void **state)
{
	th_setup(state);
	famfs_flush_hook = NULL;
	famfs_refresh_hook = NULL;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	nrec = 0;
	hook_log = NULL;
	memset(&rf, 0, sizeof(rf));
	return 0;
}

static int teardown(void **state)
{
	famfs_flush_hook = NULL;
	famfs_refresh_hook = NULL;
	return th_teardown(state);
}

static void refresh_mock(struct famfs_map *m, void *addr, size_t len)
{
	uint64_t off = m->dev_off + ((uintptr_t)addr - (uintptr_t)m->addr);
	int fd;

	rf.calls++;
	if (rf.dev_off < off || rf.dev_off >= off + len)
		return;
	rf.calls_at++;
	if (!rf.repair)
		return;
	/* what memory holds: write it under the mapping (MAP_SHARED) */
	fd = open(rf.img, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, rf.good, rf.len, (off_t)rf.dev_off),
			 (ssize_t)rf.len);
	close(fd);
}

struct seen {
	uint64_t n, bad;
	char reason[FAMFS_REASON_LEN];
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)idx;
	(void)e;
	s->n++;
	if (!ok) {
		s->bad++;
		snprintf(s->reason, sizeof(s->reason), "%s", reason);
	}
	return 0;
}

/* make entry 1's cached copy stale: its CRC no longer matches */
static struct famfs_log_entry *stale_entry(struct th *t, bool repair)
{
	struct famfs_log_entry *slot;

	th_append_dir(t, "a");
	th_append_file(t, "f", 4 * MiB, 2 * MiB, 10);
	th_append_dir(t, "b");
	slot = famfs_log_slot(t->fs.log, 1);
	rf.img = t->img;
	rf.dev_off = FAMFS_LOG_OFFSET + FAMFS_LOG_HDR_SIZE + FAMFS_LOG_ENTRY_SIZE;
	rf.len = sizeof(*slot);
	memcpy(rf.good, slot, sizeof(*slot));
	rf.repair = repair;
	/* the stale copy: what the cache had before the master wrote it */
	memset(slot, 0, sizeof(*slot));
	famfs_refresh_hook = refresh_mock;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	return slot;
}

static void test_entry_bad_crc_refreshed_then_good(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	stale_entry(t, true);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 0);
	assert_int_equal(rf.calls_at, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 1);
	assert_int_equal(famfs_flush_stats.refreshes, 1);
}

static void test_entry_still_bad_after_one_retry(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	stale_entry(t, false);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 1);
	assert_non_null(strstr(s.reason, "CRC"));
	/* exactly one retry, then judged */
	assert_int_equal(rf.calls_at, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 1);
}

static void test_logplay_uses_the_refreshed_entry(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;

	stale_entry(t, true);
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.bad_entries, 0);
	assert_int_equal(r.created_files, 1);
	assert_true(th_exists(t, "f", false));
}

/* the same on a compact log: entry 1's cached copy is what the line held
 * before the master wrote it (zeros: its sequence number is wrong, not
 * only its CRC).  The reader refreshes it once and reads it. */
static void test_compact_stale_entry_refreshed(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_logplay_result r;
	struct seen s = { 0 };
	uint8_t *slot;

	(void)state;
	th_append_dir(t, "a");
	th_append_file(t, "f", 4 * MiB, 2 * MiB, 10);
	th_append_dir(t, "b");
	assert_int_equal(famfs_log_next(t->fs.log), 3);
	slot = (uint8_t *)t->fs.log + FAMFS_LOG_HDR_SIZE + FAMFS_CLOG_SLOT;
	rf.img = t->img;
	rf.dev_off = FAMFS_LOG_OFFSET + FAMFS_LOG_HDR_SIZE + FAMFS_CLOG_SLOT;
	rf.len = FAMFS_CLOG_SLOT;
	memcpy(rf.good, slot, FAMFS_CLOG_SLOT);
	rf.repair = true;
	memset(slot, 0, FAMFS_CLOG_SLOT);
	famfs_refresh_hook = refresh_mock;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	if (s.bad)
		fail_msg("stale entry not refreshed: %s", s.reason);
	assert_int_equal(s.n, 3);
	assert_int_equal(rf.calls_at, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 1);
	/* and logplay creates the file */
	memset(slot, 0, FAMFS_CLOG_SLOT);
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.bad_entries, 0);
	assert_int_equal(r.created_files, 1);
	famfs_refresh_hook = NULL;
	th_free(t);
}

static void test_other_failures_not_retried(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry *slot;
	struct seen s = { 0 };

	th_append_dir(t, "a");
	th_append_dir(t, "b");
	/* a wrong sequence number with a matching CRC: no stale line did
	 * that, no refresh */
	slot = famfs_log_slot(t->fs.log, 1);
	slot->seq = htole64(7);
	famfs_entry_set_crc(slot);
	famfs_refresh_hook = refresh_mock;
	rf.dev_off = 0;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 0);
	assert_int_equal(famfs_flush_stats.refreshes, 0);
}

/* corrupt the superblock (or log header) in the image, reopen */
static void stale_meta(struct th *t, bool sb, bool repair)
{
	uint64_t off = sb ? 0 : FAMFS_LOG_OFFSET;
	size_t len = sb ? FAMFS_SB_SIZE : FAMFS_LOG_HDR_SIZE;
	char bad[FAMFS_LOG_HDR_SIZE];
	int fd;

	famfs_fs_close(&t->fs);
	t->open = false;
	fd = open(t->img, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, rf.good, len, (off_t)off), (ssize_t)len);
	memcpy(bad, rf.good, len);
	bad[40] ^= 0x10;		/* inside fs_uuid: covered by the CRC */
	assert_int_equal(pwrite(fd, bad, len, (off_t)off), (ssize_t)len);
	close(fd);
	rf.img = t->img;
	rf.dev_off = off;
	rf.len = len;
	rf.repair = repair;
	famfs_refresh_hook = refresh_mock;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
}

static void test_sb_bad_crc_refreshed_then_good(void **state)
{
	struct th *t = *state;

	stale_meta(t, true, true);
	assert_int_equal(famfs_fs_open_dev(t->img, false, &t->fs), 0);
	t->open = true;
	assert_int_equal(rf.calls_at, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 1);
}

static void test_sb_still_bad_refused(void **state)
{
	struct th *t = *state;

	stale_meta(t, true, false);
	assert_int_equal(famfs_fs_open_dev(t->img, false, &t->fs), -EBADMSG);
	assert_int_equal(rf.calls_at, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 1);
}

static void test_log_header_bad_crc_refreshed_then_good(void **state)
{
	struct th *t = *state;

	stale_meta(t, false, true);
	assert_int_equal(famfs_fs_open_dev(t->img, false, &t->fs), 0);
	t->open = true;
	assert_int_equal(rf.calls_at, 1);
	assert_int_equal(famfs_flush_stats.crc_retries, 1);
}

static void test_log_header_still_bad_refused(void **state)
{
	struct th *t = *state;

	stale_meta(t, false, false);
	assert_int_equal(famfs_fs_open_dev(t->img, false, &t->fs), -EBADMSG);
	assert_int_equal(rf.calls_at, 1);
}

static void test_client_refreshes_header_before_reading(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	th_append_dir(t, "a");
	th_become_client(t);
	famfs_refresh_hook = refresh_mock;
	rf.dev_off = FAMFS_LOG_OFFSET + 16;	/* next_index */
	rf.repair = false;
	rf.calls = rf.calls_at = 0;
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(rf.calls_at, 1);	/* the header's line */
	assert_true(famfs_flush_stats.invalidates >= 1);	/* the entries */
}

/* A clone of the master (its host uuid, its own boot, no claim) did not
 * write the log: it drops its lines before it reads, as a client does.
 * Only the instance that holds the role skips that (it wrote them). */
static void test_clone_invalidates_before_reading(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	th_append_dir(t, "a");			/* the master claims the role */
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(famfs_flush_stats.invalidates, 0);
	th_become_clone(t);
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	if (!famfs_flush_stats.invalidates)
		fail_msg("a clone of the master (same host uuid, another boot, no claim) read the log without dropping its cache lines");
}

static void test_bounce_refresh_rereads(void **state)
{
	struct th *t = *state;
	struct famfs_map m;
	char *buf = calloc(1, 8192);
	int fd = open(t->img, O_RDWR);

	(void)state;
	assert_non_null(buf);
	assert_true(fd >= 0);
	memset(&m, 0, sizeof(m));
	m.addr = buf;
	m.len = 8192;
	m.dev_off = FAMFS_LOG_OFFSET;
	m.fd = fd;
	m.bounce = true;
	m.name = "bounce";
	assert_int_equal(pwrite(fd, "fresh", 5, FAMFS_LOG_OFFSET + 4096 + 10), 5);
	assert_int_equal(famfs_map_refresh(&m, buf + 4096 + 10, 5), 0);
	assert_memory_equal(buf + 4096 + 10, "fresh", 5);
	/* only the 4 KiB blocks asked for were read */
	assert_int_equal(buf[0], 0);
	assert_int_equal(famfs_map_refresh(&m, buf + 8000, 500), -EINVAL);
	close(fd);
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_append_flushes_entry_then_header, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpu_flush_map_counts_lines, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flush_stats_print, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entry_bad_crc_refreshed_then_good, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entry_still_bad_after_one_retry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_logplay_uses_the_refreshed_entry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_failures_not_retried, setup, teardown),
		cmocka_unit_test_setup_teardown(test_compact_stale_entry_refreshed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sb_bad_crc_refreshed_then_good, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sb_still_bad_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log_header_bad_crc_refreshed_then_good, setup, teardown),
		cmocka_unit_test_setup_teardown(test_log_header_still_bad_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_refreshes_header_before_reading, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone_invalidates_before_reading, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounce_refresh_rereads, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
