// SPDX-License-Identifier: GPL-2.0
/* A host that registers only after its replay (hostile review r38, its
 * test 1): a client's famfs mount found no host table at its first
 * check-in, replayed (and an application mapped file a), then the master's
 * first rm of a made the table.  The mount's check-in after its replay
 * registers the client then, past a's DELETE, while its famfs.ko holds a's
 * memory and says so in the slot: the master's next pass must keep that
 * memory.  Both ways of the mount's check-in (cmd_mount.c) are tried. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static void late_registration(bool fresh)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	uint8_t master[16], client[16];
	struct famfs_df df;
	uint64_t n0;

	th_fast_settle();
	assert_int_equal(famfs_host_id(master), 0);
	memset(client, 0x42, 16);
	th_create_ok(&t->fs, "a", 4 * MiB);
	th_create_ok(&t->fs, "b", 2 * MiB);
	th_held_off = th_mock_off_of(t, "a");
	th_held_len = 4 * MiB;

	/* C's mount: no table at its first check-in; its replay maps a */
	th_write_id(t->hostid, client);
	n0 = famfs_log_refresh_next(&t->fs);
	assert_int_equal(famfs_hosts_checkin(&t->fs, true, false, 0, NULL), 0);
	/* the master: rm a makes the table and frees nothing */
	th_write_id(t->hostid, master);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	/* C's check-in after its replay: famfs.ko holds a */
	th_write_id(t->hostid, client);
	th_mock_held_hook = th_mock_hold_range;
	assert_int_equal(famfs_hosts_checkin(&t->fs, fresh, true, n0, NULL), 0);
	th_mock_held_hook = NULL;
	/* the master: famfs hosts lists C now, so the administrator arms
	 * the table; then rm b, and its pass */
	th_write_id(t->hostid, master);
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_true(df.pending_reclaim >= 4 * MiB);
	th_free(t);
}

static void test_late_fresh(void **s)
{
	(void)s;
	late_registration(true);
}

static void test_late_not_fresh(void **s)
{
	(void)s;
	late_registration(false);
}

/* ---- a mount whose slot cannot be written after its replay (review r39
 * C): with the table armed the master trusts that every host that maps
 * the file system is registered, so the check-in fails (the mount is
 * undone: cmd_mount.c); not armed, it is said and the mount stays.  The
 * write fails here as at the counters' end: this host's slot at the last
 * seq. */
static void slot_at_end(struct th *t)
{
	struct famfs_hosttab tab;
	struct famfs_host h;
	unsigned slot;
	uint8_t *p;

	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_host_register(&t->fs, &tab, &slot, false), 0);
	assert_int_equal(famfs_hosttab_slot(&tab, slot, &h), FAMFS_HOST_VALID);
	h.seq = UINT64_MAX - 1;
	p = famfs_host_slot_at(tab.m.addr, slot);
	memset(p, 0, FAMFS_HOST_SLOT_SIZE);
	famfs_host_rec_encode((struct famfs_host_rec *)p, &h, tab.fs_uuid);
	assert_int_equal(famfs_map_flush(&tab.m, p, FAMFS_HOST_SLOT_SIZE), 0);
	famfs_hosttab_close(&tab);
}

static void unwritten_slot(bool armed)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	char msg[2048];
	uint64_t n0;
	int rc;

	th_fast_settle();
	th_create_ok(&t->fs, "a", 2 * MiB);
	if (armed)
		assert_int_equal(famfs_hosts_init(&t->fs), 0);
	else
		assert_int_equal(famfs_hosts_create(&t->fs), 0);
	assert_int_equal(famfs_hosts_armed(&t->fs), armed);
	n0 = famfs_log_refresh_next(&t->fs);
	assert_int_equal(famfs_hosts_checkin(&t->fs, true, false, 0, NULL), 0);
	slot_at_end(t);
	th_stderr_grab();
	rc = famfs_hosts_mount_checkin(&t->fs, t->mpt, n0, NULL, true);
	th_stderr_take(msg, sizeof(msg));
	if (armed) {
		assert_int_equal(rc, -ENOLINK);
		assert_non_null(strstr(msg, "not mounted"));
		assert_non_null(strstr(msg, "armed"));
	} else {
		assert_int_equal(rc, 0);
		assert_non_null(strstr(msg, "mounted, but"));
	}
	th_free(t);
}

static void test_unwritten_slot_armed(void **s)
{
	(void)s;
	unwritten_slot(true);
}

static void test_unwritten_slot_unarmed(void **s)
{
	(void)s;
	unwritten_slot(false);
}

/* the table made and armed while a mount replayed (review r40 5): the
 * mount found no table at its first check-in, so it registers only after
 * a replay that may have made a file whose DELETE the master reclaimed
 * meanwhile (this host had no slot to block it): the check-in says so
 * and asks for the replay again (-EAGAIN; cmd_mount.c replays once more,
 * registered now); a table there before the replay, or one not armed
 * (nothing is reclaimed before arming), is checked in as before */
static void test_armed_during_replay(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	uint8_t master[16], client[16];
	char msg[2048];
	uint64_t n0;
	int rc;

	(void)s;
	th_fast_settle();
	assert_int_equal(famfs_host_id(master), 0);
	memset(client, 0x42, 16);
	th_create_ok(&t->fs, "a", 2 * MiB);
	th_write_id(t->hostid, client);
	n0 = famfs_log_refresh_next(&t->fs);
	assert_false(famfs_hosts_present(&t->fs));
	assert_int_equal(famfs_hosts_checkin(&t->fs, true, false, 0, NULL), 0);
	/* the master: hosts create (not armed) */
	th_write_id(t->hostid, master);
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	th_write_id(t->hostid, client);
	assert_true(famfs_hosts_present(&t->fs));
	assert_int_equal(famfs_hosts_mount_checkin(&t->fs, t->mpt, n0, NULL,
						   false), 0);
	/* armed now: the replay is done again */
	th_write_id(t->hostid, master);
	assert_int_equal(famfs_hosts_arm(&t->fs), 0);
	th_write_id(t->hostid, client);
	th_stderr_grab();
	rc = famfs_hosts_mount_checkin(&t->fs, t->mpt, n0, NULL, false);
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(rc, -EAGAIN);
	assert_non_null(strstr(msg, "again"));
	assert_int_equal(famfs_hosts_mount_checkin(&t->fs, t->mpt, n0, NULL,
						   true), 0);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_late_fresh),
		cmocka_unit_test(test_late_not_fresh),
		cmocka_unit_test(test_unwritten_slot_armed),
		cmocka_unit_test(test_unwritten_slot_unarmed),
		cmocka_unit_test(test_armed_during_replay),
	};

	return cmocka_run_group_tests_name("mountreg", tests, NULL, NULL);
}
