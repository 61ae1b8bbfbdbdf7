// SPDX-License-Identifier: GPL-2.0
/* The master's reclaim pass (ops/reclaimpass.c): after famfs rm and when a
 * create finds no room, a RECLAIM for every pending DELETE that no
 * registered host can reach any more -- the master's own slot brought up to
 * date first, with what its famfs.ko still holds (FAMFSIOC_HELD, mocked);
 * another host behind, holding, torn or registered at 0 keeps the memory;
 * an unanswered HELD keeps it too.  The tables here are famfs hosts init's
 * (armed); test_arm.c has the unarmed one. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"
#include "th_crash.h"

static struct th *mk(uint64_t size)
{
	struct th *t = th_new_fmt(size, 2 * MiB, true);

	th_fast_settle();
	return t;
}

static int held_fails(struct famfs_ioc_held_range *r)
{
	(void)r;
	return -ENOTTY;
}

/* the master alone: the rm that made the host table frees nothing (a host
 * mounted before has no slot yet), and neither does any rm after it while
 * that table is not armed: a client that mounted before the table and
 * never replays again is in no slot, and may still map the file (review
 * r38; test_arm.c has arming) */
static void test_alone(void **s)
{
	struct th *t = mk(64 * MiB);
	struct famfs_df df;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	famfs_quiet = 0;
	assert_true(le32toh(t->fs.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS);
	assert_int_equal(th_mock_held_calls, 0);
	assert_int_equal(th_df(t).pending_reclaim, 4 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 6 * MiB);
	assert_int_equal(df.reclaimed, 0);
	th_free(t);
}

/* the master's famfs.ko holds the memory (a mapping of the removed file):
 * kept until it lets go, then freed by the next pass */
static void test_master_holds(void **s)
{
	struct th *t = mk(64 * MiB);
	struct famfs_df df;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	th_held_off = th_mock_off_of(t, "a");
	th_held_len = 4 * MiB;
	th_mock_held_hook = th_mock_hold_range;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 4 * MiB);
	assert_int_equal(df.reclaimed, 0);
	th_mock_held_hook = NULL;
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 0);
	assert_int_equal(df.reclaimed, 6 * MiB);
	assert_int_equal(df.bad_entries, 0);
	th_free(t);
}

/* HELD not answered (an older famfs.ko): nothing is known to be let go */
static void test_held_unanswered(void **s)
{
	struct th *t = mk(64 * MiB);

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	th_mock_held_hook = held_fails;
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	famfs_quiet = 0;
	assert_int_equal(th_df(t).pending_reclaim, 4 * MiB);
	th_free(t);
}

/* a device that is full: a create that finds no room reclaims first, once
 * the other host is past the DELETE and holds nothing; before that it
 * fails, and the memory stays the deleted file's */
static void test_enospc(void **s)
{
	struct th *t = mk(64 * MiB);
	struct famfs_df df;
	uint64_t a_off, d;
	unsigned slot = 17;
	int fd;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	a_off = th_mock_off_of(t, "a");
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	thc_other_host(t, slot, 0, 0, FAMFS_HOLDS_NONE);	/* behind */
	df = th_df(t);
	th_create_ok(&t->fs, "fill", df.free);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	d = famfs_log_next(t->fs.log) - 1;		/* the DELETE */
	assert_int_equal(th_df(t).pending_reclaim, 4 * MiB);
	famfs_quiet = 1;
	fd = famfs_file_create(&t->fs, "b", 4 * MiB, 0644, 0, 0);
	famfs_quiet = 0;
	assert_int_equal(fd, -ENOSPC);
	assert_int_equal(th_df(t).pending_reclaim, 4 * MiB);
	/* past it, but still holding it */
	thc_other_host(t, slot, 0, d + 1, d);
	famfs_quiet = 1;
	fd = famfs_file_create(&t->fs, "b", 4 * MiB, 0644, 0, 0);
	famfs_quiet = 0;
	assert_int_equal(fd, -ENOSPC);
	/* let go */
	thc_other_host(t, slot, 0, d + 1, FAMFS_HOLDS_NONE);
	fd = famfs_file_create(&t->fs, "b", 4 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_mock_off_of(t, "b"), a_off);
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 0);
	assert_int_equal(df.reclaimed, 4 * MiB);
	th_free(t);
}

/* a torn slot (a host's write that did not finish, or damage) keeps every
 * DELETE's memory until it is evicted by slot */
static void test_torn_blocks(void **s)
{
	struct th *t = mk(64 * MiB);
	struct famfs_hosttab tab;
	unsigned n = 99;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	famfs_host_slot_at(tab.m.addr, n)[17] = 0x5a;
	assert_int_equal(famfs_map_flush(&tab.m, famfs_host_slot_at(tab.m.addr, n), 256), 0);
	famfs_hosttab_close(&tab);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(th_df(t).pending_reclaim, 4 * MiB);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, n), 0);
	famfs_hosttab_close(&tab);
	th_create_ok(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	assert_int_equal(th_df(t).pending_reclaim, 0);
	th_free(t);
}

/* a slot is torn by any one byte of it that is not zero, wherever it is
 * (a claim or an eviction cut short may leave any line of it written; the
 * pass looks at free slots in place, not byte by byte): each such slot
 * blocks the pass, and is told by its own slot number */
static unsigned torn_seen, torn_slot_told;
static void torn_told(void *arg, size_t di, unsigned slot,
		      enum famfs_host_block why)
{
	(void)arg;
	(void)di;
	if (why == FAMFS_HB_TORN) {
		torn_seen++;
		torn_slot_told = slot;
	}
}

static void test_torn_any_byte(void **s)
{
	static const unsigned at[] = { 255, 0, 15, 16, 63, 64, 127, 128, 129,
				       191, 192, 240, 254 };
	struct th *t = mk(64 * MiB);
	struct famfs_reclaim_pass p = { .blocked = torn_told };
	struct famfs_hosttab tab;
	const unsigned n = FAMFS_HOST_SLOTS - 1;
	uint8_t *slot;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	slot = famfs_host_slot_at(tab.m.addr, n);
	for (unsigned k = 0; k < sizeof(at) / sizeof(at[0]); k++) {
		slot[at[k]] = 0x01;
		assert_int_equal(famfs_map_flush(&tab.m, slot, 256), 0);
		if (!k)
			assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
		torn_seen = 0;
		torn_slot_told = 0;
		assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
		assert_int_equal(p.reclaimed, 0);
		assert_int_equal(torn_seen, 1);
		assert_int_equal(torn_slot_told, n);
		assert_int_equal(th_df(t).pending_reclaim, 4 * MiB);
		slot[at[k]] = 0;
		assert_int_equal(famfs_map_flush(&tab.m, slot, 256), 0);
	}
	famfs_hosttab_close(&tab);
	/* all zero again: free, nothing blocks */
	assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	assert_int_equal(p.reclaimed, 1);
	assert_int_equal(th_df(t).pending_reclaim, 0);
	th_free(t);
}

/* a host registered later than the DELETE never had the file */
static void test_registered_after(void **s)
{
	struct th *t = mk(64 * MiB);
	uint64_t d;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	th_mock_held_hook = th_mock_hold_range;		/* the master holds a, */
	th_held_off = th_mock_off_of(t, "a");
	th_held_len = 4 * MiB;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	d = famfs_log_next(t->fs.log) - 1;
	/* a host registered after it, not replayed anything yet: its
	 * replay may yet stop below a's DELETE (a lost segment) and make a */
	thc_other_host(t, 200, d + 1, 0, FAMFS_HOLDS_NONE);
	th_mock_held_hook = NULL;		/* and lets go */
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	assert_int_equal(th_df(t).pending_reclaim, 6 * MiB);
	assert_int_equal(th_df(t).reclaimed, 0);
	/* its replay read past a's DELETE, not b's: a is free, b blocked */
	thc_other_host(t, 200, d + 1, d + 1, FAMFS_HOLDS_NONE);
	{
		struct famfs_reclaim_pass p = { 0 };

		assert_int_equal(famfs_reclaim_pass(&t->fs, &p), 0);
	}
	assert_int_equal(th_df(t).pending_reclaim, 2 * MiB);
	assert_int_equal(th_df(t).reclaimed, 4 * MiB);
	th_free(t);
}

/* the quiet first allocation (a create may reclaim and try again) silences
 * only "no room": another refusal (--device of a device the file system
 * lacks) is still said */
static int said;
static void count_said(void *arg, const char *msg)
{
	(void)arg;
	(void)msg;
	if (!famfs_quiet)
		said++;
}

static void test_quiet_only_enospc(void **s)
{
	struct th *t = mk(64 * MiB);
	struct famfs_layout lay = { .place = { .has_dev = true, .dev = 1 } };

	(void)s;
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	said = 0;
	famfs_err_hook = count_said;
	famfs_quiet = 0;
	assert_int_equal(famfs_file_create_layout(&t->fs, "x", 1, 0644, 0, 0,
						  &lay), -ENODEV);
	famfs_err_hook = NULL;
	assert_true(said > 0);
	th_free(t);
}

/* a full device and no host table yet: the first rm of a file cannot take
 * the table's 2 MiB -- the file is removed all the same (its memory stays
 * used: nothing is reclaimed without a table), said, not refused: a full
 * file system is where rm is needed */
static void test_first_rm_full(void **s)
{
	struct th *t = mk(64 * MiB);
	struct famfs_df df;

	(void)s;
	th_create_ok(&t->fs, "a", 4 * MiB);
	df = th_df(t);
	th_create_ok(&t->fs, "fill", df.free);
	assert_int_equal(th_df(t).free, 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	famfs_quiet = 0;
	assert_false(th_exists(t, "a", false));
	df = th_df(t);
	assert_int_equal(df.pending_reclaim, 4 * MiB);
	assert_false(famfs_fs_has_hosts(&t->fs));
	th_free(t);
}

/* the FILE entry of a pending DELETE does not verify here (a poisoned
 * line): this host cannot ask famfs.ko about its memory, so it counts as
 * holding it (review r40 3) -- from the master's namespace (the file was
 * read before) and from a walk of the log (the DELETE cannot be applied) */
static void test_unread_file_held(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, false);
	struct famfs_log_entry e;
	struct famfs_ns ns;
	uint64_t del, from, bytes;
	uint8_t *p;

	(void)s;
	th_fast_settle();
	th_create_ok(&t->fs, "a", 4 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	th_held_off = th_mock_off_of(t, "a");
	th_held_len = 4 * MiB;
	th_mock_held_hook = th_mock_hold_range;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	th_mock_held_hook = NULL;
	del = famfs_log_next(t->fs.log) - 1;
	assert_int_equal(famfs_log_entry_at(&t->fs, del, &e), 0);
	assert_int_equal(le16toh(e.type), FAMFS_LOG_DELETE);
	assert_int_equal(famfs_ns_get(&e, &ns), 0);
	/* famfs.ko lets go: nothing held */
	assert_int_equal(famfs_holds_kernel(&t->fs, &from, &bytes), 0);
	assert_true(from == FAMFS_HOLDS_NONE);
	p = (uint8_t *)famfs_log_slot(t->fs.log, ns.object);
	p[40] ^= 0x5a;
	assert_int_equal(famfs_map_flush(&t->fs.logm, p, 64), 0);
	famfs_quiet = 1;
	assert_non_null(t->fs.cache_names);
	assert_int_equal(famfs_holds_of(&t->fs, t->fs.cache_names, &from,
					&bytes), 0);
	assert_int_equal(from, del);
	assert_int_equal(famfs_holds_kernel(&t->fs, &from, &bytes), 0);
	assert_int_equal(from, del);
	famfs_quiet = 0;
	th_free(t);
}

/* a DELETE the namespace refuses -- a path its file is not at, while the
 * file lives (every host keeps it; no RECLAIM may name it) -- is no
 * candidate: what this host's famfs.ko holds of that live file holds no
 * DELETE, and a later DELETE's memory is let go (review of the r40 fixes,
 * MED 2) -- unlike a DELETE of a file whose entry does not verify here
 * (unread_file_held) */
static void test_refused_delete_not_held(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, false);
	struct famfs_reclaim_cand *c;
	struct famfs_log_entry e;
	uint64_t a, refused, from, bytes;
	size_t n;

	(void)s;
	th_fast_settle();
	th_create_ok(&t->fs, "a", 4 * MiB);
	a = famfs_log_next(t->fs.log) - 1;
	assert_int_equal(famfs_log_entry_at(&t->fs, a, &e), 0);
	assert_int_equal(le16toh(e.type), FAMFS_LOG_FILE);
	th_create_ok(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_hosts_init(&t->fs), 0);
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0), 0);
	refused = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_entry_build_delete(&e, a, FAMFS_LOG_FILE, "x"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	/* a stays, mapped here: famfs.ko holds its memory */
	th_held_off = th_mock_off_of(t, "a");
	th_held_len = 4 * MiB;
	th_mock_held_hook = th_mock_hold_range;
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	assert_true(th_exists(t, "a", false));
	assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
	for (size_t i = 0; i < n; i++)
		if (c[i].del == refused)
			fail_msg("the refused DELETE %llu of live file a is a candidate",
				 (unsigned long long)refused);
	free(c);
	assert_int_equal(famfs_holds_kernel(&t->fs, &from, &bytes), 0);
	famfs_quiet = 0;
	th_mock_held_hook = NULL;
	if (from != FAMFS_HOLDS_NONE)
		fail_msg("this host holds from %llu (the refused DELETE is %llu): every later reclaim blocked",
			 (unsigned long long)from, (unsigned long long)refused);
	assert_int_equal(th_df(t).pending_reclaim, 0);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_master_holds),
		cmocka_unit_test(test_unread_file_held),
		cmocka_unit_test(test_refused_delete_not_held),
		cmocka_unit_test(test_held_unanswered),
		cmocka_unit_test(test_enospc),
		cmocka_unit_test(test_torn_blocks),
		cmocka_unit_test(test_torn_any_byte),
		cmocka_unit_test(test_registered_after),
		cmocka_unit_test(test_quiet_only_enospc),
		cmocka_unit_test(test_first_rm_full),
	};

	return cmocka_run_group_tests_name("reclaimpass", tests, NULL, NULL);
}
