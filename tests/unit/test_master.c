// SPDX-License-Identifier: GPL-2.0
/*
 * The master record (issue 15.2): of two instances with the superblock's
 * master host uuid (a cloned VM, a container image), only the one that
 * holds the record appends; the other is refused before it writes.  The
 * decision table of famfs_mrec_decide, then the same through opened file
 * systems: claim, reboot, clone, hand-over, corrupt record.
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

/* ---- the decision ----------------------------------------------------------- */
struct world {
	struct famfs_superblock sb;
	struct famfs_master_record r;
	struct famfs_me me;
	struct famfs_claim c;
	char why[FAMFS_MREC_REASON_LEN];
};

/* sb with the bit, a record held by me (generation 5), my claim file */
static void world(struct world *w)
{
	uint8_t fsid[16];

	memset(w, 0, sizeof(*w));
	uuid_generate(fsid);
	uuid_generate(w->me.host);
	uuid_generate(w->me.boot);
	famfs_sb_init(&w->sb, fsid, w->me.host, 64 * MiB, 2 * MiB);
	w->sb.feature_ro_compat = htole32(FAMFS_FEATURE_RO_COMPAT_MASTER_REC);
	famfs_sb_set_crc(&w->sb);
	w->r.magic = htole64(FAMFS_MREC_MAGIC);
	w->r.flags = htole32(FAMFS_MREC_HELD);
	w->r.generation = htole64(5);
	memcpy(w->r.fs_uuid, fsid, 16);
	memcpy(w->r.host_uuid, w->me.host, 16);
	memcpy(w->r.boot_id, w->me.boot, 16);
	memcpy(w->r.hostname, "hosta", 5);
	famfs_mrec_set_crc(&w->r);
	w->c.present = true;
	memcpy(w->c.host, w->me.host, 16);
	memcpy(w->c.boot, w->me.boot, 16);
	w->c.generation = 5;
}

static enum famfs_mrec_state decide(struct world *w)
{
	return famfs_mrec_decide(&w->sb, &w->r, &w->me, &w->c, w->why);
}

static void test_decide_same_host_same_boot(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	assert_int_equal(decide(&w), FAMFS_MREC_MINE);
	/* the same host and boot but another claim (a container from the
	 * same image on the same kernel: same boot id) */
	w.c.generation = 4;
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
	assert_non_null(strstr(w.why, "another master holds the log: host "));
	assert_non_null(strstr(w.why, "hosta"));
	w.c.present = false;
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
}

static void test_decide_same_host_other_boot(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	uuid_generate(w.me.boot);	/* rebooted since the claim */
	assert_int_equal(decide(&w), FAMFS_MREC_REBOOT);
	/* no claim file: a clone of the host (same uuid, its own boot) */
	w.c.present = false;
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
	assert_non_null(strstr(w.why, "cloned"));
	/* a claim file of another claim */
	w.c.present = true;
	w.c.generation = 6;
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
	w.c.generation = 5;
	uuid_generate(w.c.boot);
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
}

static void test_decide_other_host(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	uuid_generate(w.r.host_uuid);
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
	assert_non_null(strstr(w.why, "generation 5"));
}

static void test_decide_free(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	w.r.flags = 0;			/* released */
	famfs_mrec_set_crc(&w.r);
	uuid_generate(w.r.host_uuid);
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_FREE);
	memset(&w.r, 0, sizeof(w.r));	/* never claimed */
	assert_int_equal(decide(&w), FAMFS_MREC_FREE);
	/* a file system made before master records: whatever is there */
	world(&w);
	memset(&w.r, 0xa5, sizeof(w.r));
	w.sb.feature_ro_compat = 0;
	assert_int_equal(decide(&w), FAMFS_MREC_FREE);
}

static void test_decide_corrupt(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	w.r.generation ^= htole64(1 << 20);	/* CRC not redone */
	assert_int_equal(decide(&w), FAMFS_MREC_BAD);
	assert_non_null(strstr(w.why, "master record CRC mismatch"));
	world(&w);
	w.r.magic ^= 1;
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_BAD);
	assert_non_null(strstr(w.why, "bad magic"));
	world(&w);
	w.r.fs_uuid[3] ^= 1;
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_BAD);
	world(&w);
	w.r.reserved[7] = 1;
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_BAD);
	/* bytes where magic 0 says "never claimed" */
	world(&w);
	memset(&w.r, 0, sizeof(w.r));
	w.r.generation = htole64(1);
	assert_int_equal(decide(&w), FAMFS_MREC_BAD);
}

static void test_decide_future_flags(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	w.r.flags = htole32(FAMFS_MREC_HELD | 1U << 4);
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_BAD);
	assert_non_null(strstr(w.why, "unknown flags 0x10"));
}

/* the host name is another host's bytes: messages show no control
 * characters from it (a newline, a terminal escape) */
static void test_describe_sanitizes_hostname(void **s)
{
	struct world w;

	(void)s;
	world(&w);
	uuid_generate(w.r.host_uuid);
	memset(w.r.hostname, 0, sizeof(w.r.hostname));
	memcpy(w.r.hostname, "evil\n\x1b[2Jx\x7f", 12);
	famfs_mrec_set_crc(&w.r);
	assert_int_equal(decide(&w), FAMFS_MREC_OTHER);
	for (const char *p = w.why; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			fail_msg("control character 0x%02x from the record's host name in: %s",
				 (unsigned char)*p, w.why);
	assert_non_null(strstr(w.why, "evil"));
}

/* famfs master shows a corrupt record as corrupt, never as "never claimed"
 * or as a holder read from garbage */
static void test_show_corrupt_record(void **s)
{
	char out[FAMFS_MREC_REASON_LEN + 64];
	struct world w;

	(void)s;
	world(&w);
	famfs_mrec_show(&w.sb, &w.r, out, sizeof(out));
	assert_non_null(strstr(out, "held: host "));
	w.r.magic = htole64(0x58585858);	/* bytes written over it */
	famfs_mrec_show(&w.sb, &w.r, out, sizeof(out));
	if (strncmp(out, "corrupt: ", 9))
		fail_msg("a record with a bad magic shown as: %s", out);
	world(&w);
	w.r.generation ^= htole64(8);		/* CRC not redone */
	famfs_mrec_show(&w.sb, &w.r, out, sizeof(out));
	if (strncmp(out, "corrupt: ", 9))
		fail_msg("a record with a bad CRC shown as: %s", out);
	memset(&w.r, 0, sizeof(w.r));
	famfs_mrec_show(&w.sb, &w.r, out, sizeof(out));
	assert_string_equal(out, "never claimed");
}

/* ---- through opened file systems ------------------------------------------------- */
static const struct famfs_master_record *rec(struct th *t)
{
	return (const void *)((char *)t->fs.sbm.addr + FAMFS_MREC_OFFSET);
}

static void new_boot(struct th *t)
{
	uint8_t b[16];

	uuid_generate(b);
	th_write_id(t->bootid, b);
}

/* the first append claims a free record; the superblock says so */
static void test_first_append_claims(void **state)
{
	struct th *t = *state;
	struct famfs_claim c;

	assert_int_equal(le32toh(t->fs.sb->feature_ro_compat) &
			 FAMFS_FEATURE_RO_COMPAT_MASTER_REC, 0);
	th_append_dir(t, "d");
	assert_int_not_equal(le32toh(t->fs.sb->feature_ro_compat) &
			     FAMFS_FEATURE_RO_COMPAT_MASTER_REC, 0);
	assert_int_equal(le32toh(rec(t)->flags), FAMFS_MREC_HELD);
	assert_int_equal(le64toh(rec(t)->generation), 1);
	assert_memory_equal(rec(t)->host_uuid, t->fs.host_uuid, 16);
	assert_int_equal(famfs_claim_read(t->fs.sb->fs_uuid, &c), 0);
	assert_true(c.present);
	assert_int_equal(c.generation, 1);
	th_append_dir(t, "e");			/* still mine: no new claim */
	assert_int_equal(le64toh(rec(t)->generation), 1);
}

/* a clone: the same host uuid, its own boot and no claim file; it must be
 * refused before it writes, until the role is handed over */
static void test_clone_refused_before_append(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	char claims_a[400];
	uint64_t n;

	th_append_dir(t, "d");			/* a holds the role */
	/* b: another boot, another /var/lib/famfs */
	snprintf(claims_a, sizeof(claims_a), "%s", t->claimdir);
	snprintf(t->claimdir, sizeof(t->claimdir), "%s/claims-b", t->dir);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	new_boot(t);
	assert_int_equal(th_reopen(t), 0);
	assert_true(t->fs.master);		/* by its host uuid */
	n = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "b", 0, 0755, 0,
					   0, NULL, 0), 0);
	if (famfs_log_append(&t->fs, &e) == 0)
		fail_msg("a clone of the master (same host uuid, another boot) appended");
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_int_equal(famfs_master_claim(&t->fs, false), -EPERM);
	/* a hands the role over (to the same host uuid: whichever instance
	 * claims first) */
	setenv("FAMFS_CLAIM_DIR", claims_a, 1);
	{
		/* a's boot id is the one in the record */
		FILE *f = fopen(t->bootid, "w");
		char u[37];

		assert_non_null(f);
		famfs_uuid_str(rec(t)->boot_id, u);
		fprintf(f, "%s\n", u);
		fclose(f);
	}
	assert_int_equal(famfs_master_set(&t->fs, t->fs.host_uuid), 0);
	assert_int_equal(le32toh(rec(t)->flags), 0);
	/* b again: claims the free record and appends */
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	new_boot(t);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(famfs_log_next(t->fs.log), n + 1);
	assert_int_equal(le64toh(rec(t)->generation), 2);
	/* and a, with its old claim, is refused now */
	setenv("FAMFS_CLAIM_DIR", claims_a, 1);
	{
		FILE *f = fopen(t->bootid, "w");

		assert_non_null(f);
		fprintf(f, "%s\n", "0b7e11b3-6d4c-4a5e-9c1d-2f0e8a7b6c5d");
		fclose(f);
	}
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "a2", 0, 0755,
					   0, 0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EPERM);
	assert_int_equal(famfs_log_next(t->fs.log), n + 1);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
}

/* a clone must be refused before it writes anything to the shared memory:
 * not only the log, the superblock too (a file that needs a feature bit --
 * interleaved, or more than 2 extents -- sets it before its entry is
 * appended) */
static void test_clone_writes_no_superblock(void **state)
{
	struct th *t = *state;
	struct famfs_layout lay = { .nstrips = 2, .chunk = 2 * MiB };
	struct famfs_superblock before;
	uint64_t n;
	int fd;

	th_append_dir(t, "d");			/* a holds the role */
	snprintf(t->claimdir, sizeof(t->claimdir), "%s/claims-b", t->dir);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	new_boot(t);
	assert_int_equal(th_reopen(t), 0);
	memcpy(&before, th_sb_media(t), sizeof(before));	/* the media: fs.sb is a copy */
	n = famfs_log_next(t->fs.log);
	fd = famfs_file_create_layout(&t->fs, "i", 4 * MiB, 0644, 0, 0, &lay);
	if (fd >= 0)
		fail_msg("a clone of the master created an interleaved file");
	assert_int_equal(famfs_log_next(t->fs.log), n);
	if (memcmp(th_sb_media(t), &before, sizeof(before)))
		fail_msg("a clone that does not hold the master role rewrote the superblock (incompat 0x%x -> 0x%x) before it was refused",
			 le32toh(before.feature_incompat),
			 le32toh(th_sb_media(t)->feature_incompat));
}

/* this host after a reboot: its claim file matches, it claims again */
static void test_reboot_reclaims(void **state)
{
	struct th *t = *state;

	th_append_dir(t, "d");
	new_boot(t);
	assert_int_equal(th_reopen(t), 0);
	th_append_dir(t, "e");
	assert_int_equal(le64toh(rec(t)->generation), 2);
}

/* a corrupt record: refused with a message; claim -f rewrites it */
static void test_corrupt_record_refused(void **state)
{
	struct th *t = *state;
	struct famfs_master_record *r;
	struct famfs_log_entry e;

	th_append_dir(t, "d");
	r = (void *)((char *)t->fs.sbm.addr + FAMFS_MREC_OFFSET);
	r->generation ^= htole64(4);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "x", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	assert_int_equal(famfs_log_next(t->fs.log), 1);
	assert_int_equal(famfs_master_claim(&t->fs, false), -EUCLEAN);
	assert_int_equal(famfs_master_claim(&t->fs, true), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
}

/* claim -f on a host that is not the superblock's master makes it one */
static void test_claim_force_other_host(void **state)
{
	struct th *t = *state;
	uint8_t old[16];

	th_append_dir(t, "d");
	memcpy(old, t->fs.sb->master_uuid, 16);
	th_become_client(t);
	assert_int_equal(famfs_master_claim(&t->fs, false), -EPERM);
	assert_int_equal(famfs_master_set(&t->fs, t->fs.host_uuid), -EPERM);
	assert_int_equal(famfs_master_claim(&t->fs, true), 0);
	assert_true(t->fs.master);
	assert_memory_not_equal(t->fs.sb->master_uuid, old, 16);
	th_append_dir(t, "e");
}

/* famfs tune changes the superblock's feature bits: refused, before any
 * byte of the superblock is written, on a clone that does not hold the
 * master record and on a client (issue 18) */
static void test_clone_tune_writes_no_superblock(void **state)
{
	struct th *t = *state;
	struct famfs_superblock before;

	th_append_dir(t, "d");			/* a holds the role */
	snprintf(t->claimdir, sizeof(t->claimdir), "%s/claims-b", t->dir);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	new_boot(t);
	assert_int_equal(th_reopen(t), 0);
	assert_true(t->fs.master);		/* by its host uuid */
	memcpy(&before, th_sb_media(t), sizeof(before));	/* the media: fs.sb is a copy */
	if (famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, FAMFS_FEATURE_INCOMPAT_NONCOHERENT, 0) != -EPERM)
		fail_msg("a clone that does not hold the master role was not refused (-EPERM) by famfs tune's superblock write");
	if (memcmp(th_sb_media(t), &before, sizeof(before)))
		fail_msg("a clone that does not hold the master role rewrote the superblock (incompat 0x%x -> 0x%x)",
			 le32toh(before.feature_incompat),
			 le32toh(th_sb_media(t)->feature_incompat));
}

static void test_client_tune_writes_no_superblock(void **state)
{
	struct th *t = *state;
	struct famfs_superblock before;

	th_append_dir(t, "d");
	th_become_client(t);
	memcpy(&before, th_sb_media(t), sizeof(before));	/* the media: fs.sb is a copy */
	if (famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, FAMFS_FEATURE_INCOMPAT_NONCOHERENT, 0) != -EPERM)
		fail_msg("a client was not refused (-EPERM) by famfs tune's superblock write");
	if (memcmp(th_sb_media(t), &before, sizeof(before)))
		fail_msg("a client rewrote the superblock (incompat 0x%x -> 0x%x)",
			 le32toh(before.feature_incompat),
			 le32toh(th_sb_media(t)->feature_incompat));
}

/* the master that holds the role: set, unchanged, clear */
static void test_master_tune_changes_superblock(void **state)
{
	struct th *t = *state;
	const uint32_t nc = FAMFS_FEATURE_INCOMPAT_NONCOHERENT;
	char why[FAMFS_REASON_LEN];

	th_append_dir(t, "d");
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, nc, 0), 0);
	assert_int_not_equal(le32toh(t->fs.sb->feature_incompat) & nc, 0);
	assert_int_equal(famfs_sb_check(t->fs.sb, 64 * MiB, why), 0);
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, nc, 0), 0);
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, 0, nc), 0);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat) & nc, 0);
	assert_int_equal(famfs_sb_check(t->fs.sb, 64 * MiB, why), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_same_host_same_boot),
		cmocka_unit_test(test_decide_same_host_other_boot),
		cmocka_unit_test(test_decide_other_host),
		cmocka_unit_test(test_decide_free),
		cmocka_unit_test(test_decide_corrupt),
		cmocka_unit_test(test_decide_future_flags),
		cmocka_unit_test(test_describe_sanitizes_hostname),
		cmocka_unit_test(test_show_corrupt_record),
		cmocka_unit_test_setup_teardown(test_first_append_claims, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_clone_refused_before_append, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_clone_writes_no_superblock, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_clone_tune_writes_no_superblock, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_client_tune_writes_no_superblock, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_tune_changes_superblock, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reboot_reclaims, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_record_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_claim_force_other_host, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
