// SPDX-License-Identifier: GPL-2.0
/*
 * The master role moving between instances (review r28 of issue 27's
 * fixes): what an instance may skip because "it wrote everything" holds
 * only for what it wrote since its own claim, and a hand-over is the
 * holder's to make, not a clone's.
 *
 *  - A hand-over of the live master's role by a disk clone of it (its
 *    host uuid and claim file, another boot) is a takeover without the
 *    wait: famfs master set from the clone releases the live holder's
 *    record and names another master, and the holder is refused from its
 *    next append on.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "th.h"
#include "master.h"

static const struct famfs_master_record *rec(struct th *t)
{
	return (const void *)((char *)t->fs.sbm.addr + FAMFS_MREC_OFFSET);
}

/* a disk clone of the live holder (its host uuid, a copy of its claim
 * file, another boot) hands the role over: refused, as its append or its
 * claim would be -- the holder's beat is live */
static void test_master_set_by_live_clone_refused(void **state)
{
	struct th *t = *state;
	uint8_t b_boot[16], other[16], before_master[16];
	char claims_b[300], cmd[1000], msg[4096];
	struct famfs_master_record before;
	int rc;

	th_append_dir(t, "d");			/* a claims, and beats */
	before = *rec(t);
	memcpy(before_master, t->fs.sb->master_uuid, 16);
	/* b: a copy of a's disk (its claim file too), booted */
	snprintf(claims_b, sizeof(claims_b), "%.250s/claims-b", t->dir);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", t->claimdir, claims_b);
	assert_int_equal(system(cmd), 0);
	snprintf(t->claimdir, sizeof(t->claimdir), "%s", claims_b);
	setenv("FAMFS_CLAIM_DIR", claims_b, 1);
	uuid_generate(b_boot);
	th_write_id(t->bootid, b_boot);
	th_now += 2;				/* a beat 2 s ago: live */
	assert_int_equal(th_reopen(t), 0);
	assert_false(t->fs.master_instance);
	uuid_generate(other);
	th_stderr_grab();
	rc = famfs_master_set(&t->fs, other);
	th_stderr_take(msg, sizeof(msg));
	if (rc == 0)
		fail_msg("a disk clone of the live master (beat 2 s ago) handed its role over with famfs master set: record now %s, superblock master changed: %s",
			 le32toh(rec(t)->flags) & FAMFS_MREC_HELD ? "held" : "released",
			 memcmp(t->fs.sb->master_uuid, before_master, 16) ? "yes" : "no");
	assert_int_equal(rc, -EPERM);
	if (!strstr(msg, "last beat 2 s ago"))
		fail_msg("the refusal does not name the live holder's beat: %s", msg);
	assert_memory_equal(rec(t), &before, sizeof(before));
	assert_memory_equal(th_sb_media(t)->master_uuid, before_master, 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_master_set_by_live_clone_refused, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
