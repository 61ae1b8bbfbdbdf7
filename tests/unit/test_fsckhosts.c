// SPDX-License-Identifier: GPL-2.0
/* famfs fsck and the host table (issue 29 item 5: "fsck finds and names
 * any leftover"): a slot with no verifying copy that is not all zero (a
 * first claim cut by a crash) blocks every reclaim until the master evicts
 * it by slot number; fsck names it (a note, not a problem: a claim being
 * written at that moment reads torn too) and counts none once evicted. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static void tear(struct th *t, unsigned slot)
{
	struct famfs_hosttab tab;
	uint8_t *p;

	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	p = famfs_host_slot_at(tab.m.addr, slot);
	p[17] = 0x5a;
	assert_int_equal(famfs_map_flush(&tab.m, p, FAMFS_HOST_SLOT_SIZE), 0);
	famfs_hosttab_close(&tab);
}

static void test_torn_slots_named(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_fsck_result r;
	struct famfs_hosttab tab;

	(void)s;
	th_fast_settle();
	/* no table: nothing to say */
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.torn_slots, 0);
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.torn_slots, 0);
	tear(t, 7);
	tear(t, FAMFS_HOST_SLOTS - 1);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.torn_slots, 2);
	assert_int_equal(r.torn_slot[0], 7);
	assert_int_equal(r.torn_slot[1], FAMFS_HOST_SLOTS - 1);
	/* the administrator's fence: evicted by slot, zeroed */
	assert_int_equal(famfs_hosttab_open(&t->fs, true, &tab), 0);
	assert_int_equal(famfs_hosts_evict_slot(&t->fs, &tab, 7), 0);
	famfs_hosttab_close(&tab);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.torn_slots, 1);
	assert_int_equal(r.torn_slot[0], FAMFS_HOST_SLOTS - 1);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_torn_slots_named),
	};

	return cmocka_run_group_tests_name("fsckhosts", tests, NULL, NULL);
}
