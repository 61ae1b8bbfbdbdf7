// SPDX-License-Identifier: GPL-2.0
/* Attaching members to a mount (issue 16, attach.c) with the mock's
 * DEV_ADD/DEV_GET/MAP_CREATE_V3 (helpers/th_dev.c): members found by
 * device uuid, not by index alone (the orphan of a devadd that crashed
 * before its log entry shares an index with the real member); the members
 * a host has are attached even when another is missing; fsck is not
 * fooled by an orphan either.  Which device famfs.ko has as a member:
 * test_attach_member.c; a follower that lacked a member:
 * test_attach_follow.c. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_attach.h"

/* A devadd that crashed after writing the member superblock of pmem4
 * (index 1, device uuid U9) and before its log entry; the next devadd made
 * pmem3 member 1 (U1).  Both superblocks say index 1: the log's uuid
 * decides, pmem4 is not a member and must not stop the mount. */
static void test_orphan_index_resolved_by_uuid(void **state)
{
	struct ax *x = *state;

	th_member_file(x, "pmem3", U1, 1);
	th_member_file(x, "pmem4", U9, 1);
	th_log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), 0);
	assert_true(th_attached_to(x, 1, "pmem3"));
	/* the same with the orphan scanned first (a hint) */
	th_mock_devs_reset();
	{
		char h[400];
		const char *hints[1] = { h };

		snprintf(h, sizeof(h), "%s/pmem4", x->devs);
		assert_int_equal(famfs_fs_attach_members(&x->t->fs, hints, 1), 0);
	}
	assert_true(th_attached_to(x, 1, "pmem3"));
}

/* a0bfca0: the first DEVADD of an index takes member 1 in the table once
 * it reads whole, after a later duplicate (the old master's devadd of
 * index 1 again) was added while it did not -- but what was attached
 * meanwhile stays: famfs.ko has the duplicate's device as member 1 (an
 * attach asked famfs.ko about the index only) until the unmount, so this
 * host would map member 1 files on pmem4 while every host that read k
 * whole maps them on pmem3.  The attach compares the device famfs.ko has
 * (DEV_GET's device number, its member superblock) with the table's:
 * -ESTALE, said once (the index, both device uuids, the way out), and no
 * file is placed on member 1 here (this log, with its duplicate, allows
 * no create at all: the placement is asked itself). */
static void test_stuck_duplicate_attached_stays(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	struct famfs_place pl = { .has_dev = true, .dev = 1 };
	char msg[8192], u1[37], u2[37], why[FAMFS_REASON_LEN];
	struct famfs_alloc a;
	uint8_t *p, keep;
	bool skipped;
	uint64_t k;
	int rc;

	th_member_file(x, "pmem3", U1, 1);
	th_member_file(x, "pmem4", U2, 1);
	k = famfs_log_next(fs->log);
	th_log_devadd(fs, 1, U1);
	p = famfs_clog_slot(fs->log, k) + sizeof(struct famfs_clog_hdr) + 4;
	keep = *p;
	*p ^= 0xff;
	famfs_logdevs_init(&fs->devs, fs->sb);
	famfs_quiet = 1;
	th_log_devadd(fs, 1, U2);
	famfs_logdevs_init(&fs->devs, fs->sb);
	/* this host: k does not read whole (an append under way) */
	famfs_fs_attach_members(fs, NULL, 0);
	famfs_quiet = 0;
	assert_true(th_attached_to(x, 1, "pmem4"));
	*p = keep;
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	th_stderr_grab();
	rc = famfs_fs_attach_members(fs, NULL, 0);
	th_stderr_take(msg, sizeof(msg));
	assert_memory_equal(fs->devs.dev[1].dev_uuid, U1, 16);
	assert_int_equal(famfs_fs_members_missing(fs), 0);
	/* famfs.ko keeps pmem4 until the unmount */
	assert_true(th_attached_to(x, 1, "pmem4"));
	assert_int_equal(rc, -ESTALE);
	famfs_uuid_str(U1, u1);
	famfs_uuid_str(U2, u2);
	if (!strstr(msg, "member 1") || !strstr(msg, u1) || !strstr(msg, u2) ||
	    !strstr(msg, "mount again"))
		fail_msg("not said (member 1, %s, %s, mount again): %s", u1, u2,
			 msg);
	/* no new file goes on member 1 here (pmem4's memory): --device 1
	 * refused, the policy does not choose it */
	assert_int_equal(famfs_alloc_init(&a, fs->sb), 0);
	assert_int_equal(famfs_alloc_sync(&a, &fs->devs), 0);
	assert_int_equal(famfs_place_here(fs, &a, &pl, 0, &skipped, why),
			 -ENODEV);
	assert_non_null(strstr(why, "mount again"));
	pl.has_dev = false;
	assert_int_equal(famfs_place_here(fs, &a, &pl, 0, &skipped, why), 0);
	assert_true(pl.absent >> 1 & 1);
	famfs_alloc_free(&a);
}

/* famfs devices: a member superblock at an index the log does not use
 * (famfs devices label's) is listed as that index's member; two such that
 * carry the same device uuid (a copied device) are -ENOTUNIQ -- "two
 * devices that claim the same device uuid are an error" (famfs-devices(8))
 * -- as two claiming the same index are */
static void test_devices_unused_index_dup_uuid(void **state)
{
	struct ax *x = *state;
	struct famfs_devtab *t = malloc(sizeof(*t));
	const char *hints[1] = { x->t->img };

	assert_non_null(t);
	th_member_file(x, "pmem3", U1, 1);
	th_log_devadd(&x->t->fs, 1, U1);
	th_member_file(x, "pmem5", U9, 3);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), 0);
	assert_int_equal(t->nfound, 3);
	assert_true(t->dev[3].present);
	assert_memory_equal(t->dev[3].dev_uuid, U9, 16);
	assert_int_equal(t->norphans, 0);
	/* a copy of it labelled as member 4 */
	th_member_file(x, "pmem6", U9, 4);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), -ENOTUNIQ);
	/* two at index 3 */
	th_member_file(x, "pmem6", U2, 3);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), -ENOTUNIQ);
	free(t);
}

/* ... and one of an earlier file system that reused the uuid (another
 * fs_ctime) is not listed as a member, as discovery ignores it */
static void test_devices_unused_index_earlier_fs(void **state)
{
	struct ax *x = *state;
	struct famfs_devtab *t = malloc(sizeof(*t));
	const char *hints[1] = { x->t->img };
	struct famfs_member_sb m;
	char p[400];
	int fd;

	assert_non_null(t);
	th_member_file(x, "pmem5", U9, 3);
	famfs_member_init(&m, x->t->fs.sb->fs_uuid, U2, 4,
			  le64toh(x->t->fs.sb->ctime) - 100, MSIZE);
	snprintf(p, sizeof(p), "%s/pmem6", x->devs);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, MSIZE), 0);
	assert_int_equal(pwrite(fd, &m, sizeof(m), 0), (ssize_t)sizeof(m));
	close(fd);
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), 0);
	famfs_quiet = 0;
	assert_int_equal(t->nfound, 2);
	assert_true(t->dev[3].present);
	assert_false(t->dev[4].present);
	free(t);
}

/* famfs devices lists what mount attaches: the member the log names,
 * and the orphan of the crashed devadd as an orphan -- not "refusing to
 * guess" between the two */
static void test_devices_list_orphan(void **state)
{
	struct ax *x = *state;
	struct famfs_devtab *t = malloc(sizeof(*t));
	const char *hints[1] = { x->t->img };

	assert_non_null(t);
	th_member_file(x, "pmem3", U1, 1);
	th_member_file(x, "pmem4", U9, 1);
	th_log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), 0);
	assert_int_equal(t->nfound, 2);
	assert_true(t->dev[0].present);
	assert_true(t->dev[1].present);
	assert_non_null(strstr(t->dev[1].path, "/pmem3"));
	assert_memory_equal(t->dev[1].dev_uuid, U1, 16);
	assert_int_equal(t->norphans, 1);
	assert_non_null(strstr(t->orphan[0].path, "/pmem4"));
	assert_memory_equal(t->orphan[0].dev_uuid, U9, 16);
	assert_int_equal(t->orphan_index[0], 1);
	free(t);
}

/* Two copies of one member (same device uuid) stay a refusal. */
static void test_copied_member_refused(void **state)
{
	struct ax *x = *state;

	th_member_file(x, "pmem3", U1, 1);
	th_member_file(x, "pmem5", U1, 1);
	th_log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), -EEXIST);
	assert_false(th_mock_devs[1].on);
}

/* A CRC-valid member superblock whose index contradicts the log (the
 * log's device uuid, another index): refused, nothing attached */
static void test_contradicting_index_refused(void **state)
{
	struct ax *x = *state;

	th_member_file(x, "pmem3", U1, 2);
	th_log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), -ENODEV);
	assert_false(th_mock_devs[1].on);
	assert_false(th_mock_devs[2].on);
}

/* Member 2 is not on this host: member 1 is attached all the same (its
 * files can be mapped), and the call says -ENODEV. */
static void test_partial_attach(void **state)
{
	struct ax *x = *state;

	th_member_file(x, "dax1.0", U1, 1);
	th_log_devadd(&x->t->fs, 1, U1);
	th_log_devadd(&x->t->fs, 2, U2);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), -ENODEV);
	assert_true(th_attached_to(x, 1, "dax1.0"));
	assert_false(th_mock_devs[2].on);
}

/* fsck checks members by the log's uuid: an orphan is no problem */
static void test_fsck_orphan(void **state)
{
	struct ax *x = *state;
	struct famfs_fsck_result r;

	th_member_file(x, "pmem3", U1, 1);
	th_member_file(x, "pmem4", U9, 1);
	th_log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fsck(&x->t->fs, &r), 0);
	assert_int_equal(r.members_bad, 0);
	assert_true(r.dev_ok[1]);
	assert_non_null(strstr(r.dev_path[1], "pmem3"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_orphan_index_resolved_by_uuid, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_devices_list_orphan, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_devices_unused_index_dup_uuid, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_devices_unused_index_earlier_fs, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_copied_member_refused, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_contradicting_index_refused, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_partial_attach, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_stuck_duplicate_attached_stays, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_fsck_orphan, th_ax_setup, th_ax_teardown),
	};

	return cmocka_run_group_tests_name("attach", tests, NULL, NULL);
}
