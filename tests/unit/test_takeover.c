// SPDX-License-Identifier: GPL-2.0
/*
 * A takeover of the master role by another boot of the holder's host
 * (beat.c), against what other boots and other clocks write: two boots
 * that wait at once must not both take the role, and a beat stamped by a
 * clock ahead of this one must not hold the role for ever nor be shown
 * as "0 s ago".
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

static const struct famfs_master_beat *beat(struct th *t)
{
	return (const void *)((char *)t->fs.sbm.addr + FAMFS_MBEAT_OFFSET);
}

/* An instance: its boot id file and its claim directory (/var/lib/famfs) */
struct inst {
	char boot[320], claims[320];
	uint8_t boot_id[16];
};

static void as(const struct inst *i)
{
	setenv("FAMFS_BOOT_ID_FILE", i->boot, 1);
	setenv("FAMFS_CLAIM_DIR", i->claims, 1);
}

/* a: th's instance; x: a copy of a's disk (its host uuid, a copy of its
 * claim file), booted as `name` */
static void inst_of(struct th *t, struct inst *a)
{
	snprintf(a->boot, sizeof(a->boot), "%s", t->bootid);
	snprintf(a->claims, sizeof(a->claims), "%s", t->claimdir);
	assert_int_equal(famfs_read_id(a->boot, a->boot_id), 0);
}

static void clone_of(struct th *t, const struct inst *a, struct inst *x,
		     const char *name)
{
	char cmd[800];

	snprintf(x->boot, sizeof(x->boot), "%s/boot-%s", t->dir, name);
	snprintf(x->claims, sizeof(x->claims), "%s/claims-%s", t->dir, name);
	uuid_generate(x->boot_id);
	th_write_id(x->boot, x->boot_id);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s'", a->claims, x->claims);
	assert_int_equal(system(cmd), 0);
}

static int append_dir_msg(struct th *t, const char *path, char *msg, size_t n)
{
	struct famfs_log_entry e;
	int rc;

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, path, 0, 0755,
					   0, 0, NULL, 0), 0);
	th_stderr_grab();
	rc = famfs_log_append(&t->fs, &e);
	th_stderr_take(msg, n);
	return rc;
}

/* ---- two boots of the holder's host take over at once -------------------------- */
static struct th *race_t;
static const struct inst *race_c;

/* c, another clone of the idle master, announces its own takeover while
 * b waits (what c's famfs_takeover_wait writes: its intent, good CRC) */
static void c_announces(unsigned slept)
{
	struct famfs_master_intent in;
	void *media = (char *)race_t->fs.sbm.addr + FAMFS_MINTENT_OFFSET;

	if (slept != 2)
		return;
	memset(&in, 0, sizeof(in));
	in.magic = htole64(FAMFS_MINTENT_MAGIC);
	in.wait = htole32(FAMFS_MASTER_LEASE_DEFAULT);
	in.generation = rec(race_t)->generation;
	memcpy(in.fs_uuid, race_t->fs.sb->fs_uuid, 16);
	memcpy(in.boot_id, race_c->boot_id, 16);
	in.count_seen = beat(race_t)->count;
	in.intent_time = htole64(th_now);
	in.crc = htole32(famfs_crc32(&in, sizeof(in)));
	memcpy(media, &in, sizeof(in));
}

/* The master a is idle (gone); two copies of its disk, b and c, start a
 * takeover within one lease.  Neither sees a beat move, so each would
 * claim after its wait, and both would append as the master (there is no
 * compare-and-swap between hosts: two appends at one index, one file's
 * memory given twice).  The intent says who announced last: b, whose
 * announcement c overwrote, must step back, naming c. */
static void test_two_boots_race_takeover(void **state)
{
	struct th *t = *state;
	struct inst a, b, c;
	char msg[4096], u[37];
	uint64_t n;
	int rc;

	th_append_dir(t, "d");			/* a claims, and beats */
	inst_of(t, &a);
	clone_of(t, &a, &b, "b");
	clone_of(t, &a, &c, "c");
	th_now += 3 * FAMFS_MASTER_LEASE_DEFAULT;	/* a idle, or gone */
	as(&b);
	assert_int_equal(th_reopen(t), 0);
	n = famfs_log_next(t->fs.log);
	race_t = t, race_c = &c;
	th_during_wait = c_announces;
	rc = append_dir_msg(t, "from-b", msg, sizeof(msg));
	th_during_wait = NULL;
	as(&a);
	if (rc == 0)
		fail_msg("b took the master role although c announced a takeover of it during b's wait (both would append as the master): record generation %llu, held by b",
			 (unsigned long long)le64toh(rec(t)->generation));
	assert_int_equal(rc, -EPERM);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_int_equal(le64toh(rec(t)->generation), 1);
	famfs_uuid_str(c.boot_id, u);
	if (!strstr(msg, u))
		fail_msg("b's refusal does not name the other boot (%s) that announced: %s",
			 u, msg);
}

/* ---- a beat from another clock ------------------------------------------------- */
/* This host rebooted, and its clock is now an hour behind the one that
 * stamped the last beat (an RTC reset before NTP, or the old boot's clock
 * ran ahead).  The beat's age by this clock is unknown, not 0: shown as
 * in the future, not live, and the takeover waits a lease watching it
 * (the clock-free test) instead of refusing at once until the clock
 * catches up.  A beat a few seconds ahead (skew within a lease) still
 * refuses at once. */
static void test_beat_from_the_future(void **state)
{
	struct th *t = *state;
	char msg[4096], out[FAMFS_MREC_REASON_LEN];
	uint64_t t0;
	uint8_t b[16];
	int rc;

	th_append_dir(t, "d");			/* the old boot claims and beats */
	t0 = th_now;
	uuid_generate(b);
	th_write_id(t->bootid, b);		/* a reboot */
	/* a small skew: refused at once, as a young beat is */
	th_now = t0 - 3;
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(append_dir_msg(t, "e", msg, sizeof(msg)), -EPERM);
	assert_int_equal(th_slept, 0);
	/* an hour behind */
	th_now = t0 - 3600;
	assert_int_equal(th_reopen(t), 0);
	famfs_mrec_refresh(&t->fs);
	famfs_beat_show(&t->fs, &t->fs.mrec, out, sizeof(out));
	if (strstr(out, " 0 s ago") || !strstr(out, "future"))
		fail_msg("a beat stamped an hour ahead of this clock shown as: %s",
			 out);
	if (famfs_beat_live(&t->fs, &t->fs.mrec))
		fail_msg("a beat stamped an hour ahead of this clock is taken as live (its age is unknown)");
	rc = append_dir_msg(t, "f", msg, sizeof(msg));
	if (rc)
		fail_msg("this host after a reboot, its clock an hour behind the last beat, was refused (%d, after %u s): %s",
			 rc, th_slept, msg);
	assert_int_equal(th_slept, FAMFS_MASTER_LEASE_DEFAULT);
	assert_int_equal(le64toh(rec(t)->generation), 2);
	assert_memory_equal(rec(t)->boot_id, b, 16);
}

/* ---- a create by an instance that does not hold the role --------------------- */
static unsigned creates_seen;

static void count_create(int fd, const struct famfs_fmap *m)
{
	(void)fd, (void)m;
	creates_seen++;
}

/* A clone of the master (its host uuid, another boot; a holds the role)
 * runs famfs mkfile.  It is refused -- and must be before it writes a byte
 * of shared memory: its allocation comes from its own view of the log, so
 * it may be the very memory the live master has just given a new file,
 * and the scratch file a create zeroes (or copies cp's data) through is a
 * MAP_CREATE over that memory.  The role was checked only at the append,
 * after the memory had been written.  (Likewise a master whose idle role
 * a clone took over: its next mkfile.) */
static void test_clone_writes_no_memory(void **state)
{
	struct th *t = *state;
	char msg[4096];
	uint64_t n;
	int fd;

	th_append_dir(t, "d");			/* a holds the role */
	th_become_clone(t);
	n = famfs_log_next(t->fs.log);
	creates_seen = 0;
	th_mock_before_create = count_create;
	th_stderr_grab();
	fd = famfs_file_create(&t->fs, "f", 2 * MiB, 0644, 0, 0);
	th_stderr_take(msg, sizeof(msg));
	th_mock_before_create = NULL;
	if (fd >= 0)
		fail_msg("a clone of the master created a file");
	assert_int_equal(famfs_log_next(t->fs.log), n);
	if (creates_seen)
		fail_msg("a clone of the master (not the holder) mapped memory and wrote it (%u MAP_CREATE: the scratch file over its allocation) before it was refused: %s",
			 creates_seen, msg);
	assert_non_null(strstr(msg, "another master holds the log"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_two_boots_race_takeover, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_beat_from_the_future, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_clone_writes_no_memory, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
