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
 *  - An instance that gets the role back from another host (a hand-over
 *    round trip, or famfs master claim -f after the holder died) reads the
 *    log that host wrote as if it had written it itself: no cache line
 *    dropped (non-coherent memory: stale next_index and entries, an
 *    append over the other host's committed entries).
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

static const struct famfs_master_record *rec(struct th *t)
{
	return (const void *)((char *)t->fs.sbm.addr + FAMFS_MREC_OFFSET);
}

static int count(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		 bool ok, const char *reason)
{
	(void)idx, (void)e, (void)ok, (void)reason;
	(*(unsigned *)arg)++;
	return 0;
}

/* this process as host `host` with its own /var/lib/famfs (claims) */
static void as_host(struct th *t, const uint8_t host[16], const char *claims)
{
	snprintf(t->claimdir, sizeof(t->claimdir), "%.250s/%.40s", t->dir, claims);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	th_write_id(t->hostid, host);
	assert_int_equal(th_reopen(t), 0);
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

/* a hands the role to host b, b appends and hands it back: a's CPU may
 * hold lines of the log from before b wrote it, so a reads it as a
 * client does until it has dropped them */
static void test_role_back_from_other_host_reads_fresh(void **state)
{
	struct th *t = *state;
	uint8_t a[16], b[16];
	unsigned n = 0;

	th_append_dir(t, "d");			/* a claims */
	memcpy(a, t->fs.host_uuid, 16);
	uuid_generate(b);
	assert_int_equal(famfs_master_set(&t->fs, b), 0);
	as_host(t, b, "claims-b");
	assert_true(t->fs.master);
	th_append_dir(t, "from-b");		/* b claims the free record */
	th_append_dir(t, "from-b2");
	assert_int_equal(famfs_master_set(&t->fs, a), 0);
	as_host(t, a, "claims-a");
	assert_true(t->fs.master);
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_log_walk(&t->fs, count, &n), 0);
	assert_int_equal(n, 3);
	if (!famfs_flush_stats.invalidates)
		fail_msg("a got the master role back from host b (a free record, last held by b) and read the log b wrote without dropping its cache lines (master_instance %d): on non-coherent memory a's stale lines of next_index and of b's entries are taken as the log",
			 t->fs.master_instance);
}

/* b holds the role and dies; a, a client that read the log before b's
 * last append, takes the role with famfs master claim -f: what it reads
 * next must not come from the lines it held as a client */
static void test_forced_claim_reads_fresh(void **state)
{
	struct th *t = *state;
	uint8_t a[16], b[16];
	unsigned n = 0;

	memcpy(a, t->fs.host_uuid, 16);
	uuid_generate(b);
	assert_int_equal(famfs_master_set(&t->fs, b), 0);
	as_host(t, b, "claims-b");
	th_append_dir(t, "from-b");		/* b holds the role */
	as_host(t, a, "claims-a");		/* a: a client now */
	assert_false(t->fs.master_instance);
	assert_int_equal(famfs_log_walk(&t->fs, count, &n), 0);
	assert_int_equal(n, 1);
	as_host(t, b, "claims-b");
	th_append_dir(t, "from-b2");		/* then b dies */
	as_host(t, a, "claims-a");
	memset(&famfs_flush_stats, 0, sizeof(famfs_flush_stats));
	assert_int_equal(famfs_master_claim(&t->fs, true), 0);
	assert_true(t->fs.master_instance);
	n = 0;
	assert_int_equal(famfs_log_walk(&t->fs, count, &n), 0);
	assert_int_equal(n, 2);
	if (!famfs_flush_stats.invalidates)
		fail_msg("a took the master role from host b with -f and read the log b wrote without dropping any cache line (neither at the claim nor before the walk): lines a held as a client (next_index, b's last entries) are taken as the log it appends to");
}

/* a's create summary, written while it held the role, read again after
 * the role went to b and came back: the superblock is the same bytes
 * again (master uuid a), so only the record's generation tells that b
 * held it meanwhile -- a summary of another claim is rebuilt from the
 * log, never trusted on what the holder of that claim left */
static void test_summary_not_trusted_across_hand_over(void **state)
{
	struct th *t = *state;
	uint8_t a[16], b[16];
	uint64_t gen;

	memcpy(a, t->fs.host_uuid, 16);		/* the master host */
	as_host(t, a, "claims-a");
	th_create_ok(&t->fs, "f1", 4096);	/* a claims; its summary */
	assert_int_equal(th_reopen(t), 0);	/* written at close */
	famfs_summary_stats.rebuilds = 0;
	th_create_ok(&t->fs, "f2", 4096);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);	/* trusted */
	assert_int_equal(th_reopen(t), 0);
	gen = le64toh(rec(t)->generation);
	uuid_generate(b);
	assert_int_equal(famfs_master_set(&t->fs, b), 0);
	as_host(t, b, "claims-b");
	th_append_dir(t, "from-b");		/* b claims the free record */
	assert_int_equal(famfs_master_set(&t->fs, a), 0);
	as_host(t, a, "claims-a");
	famfs_summary_stats.rebuilds = 0;
	th_create_ok(&t->fs, "f3", 4096);	/* a claims again */
	if (!famfs_summary_stats.rebuilds)
		fail_msg("a trusted the create summary it wrote under its claim before the hand-over to b (record generation then %llu, now %llu): a summary of another claim was loaded",
			 (unsigned long long)gen,
			 (unsigned long long)le64toh(rec(t)->generation));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_master_set_by_live_clone_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_role_back_from_other_host_reads_fresh, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_forced_claim_reads_fresh, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_summary_not_trusted_across_hand_over, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
