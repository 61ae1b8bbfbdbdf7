// SPDX-License-Identifier: GPL-2.0
/* Which device famfs.ko has as a member (memberhere.c, issue 16), with the
 * mock's DEV_ADD/DEV_GET (helpers/th_dev.c): one attached from a -d hint
 * outside the scan root, by another process, of another size, torn; what
 * a check reads and says, and the verdict it keeps. */
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

/* a member superblock of this fs on the plain file at path (anywhere) */
static void member_at(struct ax *x, const char *path, const uint8_t *u,
		      uint32_t index)
{
	struct famfs_member_sb m;
	int fd;

	famfs_member_init(&m, x->t->fs.sb->fs_uuid, u, index,
			  le64toh(x->t->fs.sb->ctime), MSIZE);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, MSIZE), 0);
	assert_int_equal(pwrite(fd, &m, sizeof(m), 0), (ssize_t)sizeof(m));
	close(fd);
}

/* <dir>/other/name: a node outside the scan root (a container's -d
 * /host-dev/pmem1, a mknod'ed /dev/famfs/m1) */
static void other_path(struct ax *x, const char *name, char *p, size_t n)
{
	snprintf(p, n, "%s/other", x->t->dir);
	(void)mkdir(p, 0755);
	snprintf(p, n, "%s/other/%s", x->t->dir, name);
}

/* famfs.ko has path as member index: attached by another process (a
 * mount with its -d hints), so this one knows no path of it */
static void attached_elsewhere(const char *path, unsigned index)
{
	struct famfs_ioc_dev_add a = { .index = index, .size = MSIZE };

	a.fd = open(path, O_RDONLY);
	assert_true(a.fd >= 0);
	assert_int_equal(th_mock_dev_add(-1, &a), 0);
	close(a.fd);
}

/* what a new opening of the mount has found out: nothing (a follower
 * opens it again every round) */
static void new_opening(struct famfs_fs *fs)
{
	memset(fs->member_seen, 0, sizeof(fs->member_seen));
	fs->devs.dev[1].path[0] = '\0';
}

/* r42b 1: the log's member, attached from a -d hint outside the scan root
 * (no node of it under /dev), is the member: not refused */
static void test_member_from_hint_here(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	char p[400];
	const char *h[1] = { p };

	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U1, 1);
	th_log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(fs, h, 1), 0);
	assert_true(th_mock_devs[1].on);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
}

/* r42b 1, 2: famfs.ko has a device whose node this process cannot find
 * (attached from a hint by the mount), and the log's device has no node
 * here either: this host cannot tell -- said once with a way out, not
 * refused; asked again (famfs_member_recheck_s), once the log's device
 * shows up as another node than famfs.ko's it is refused */
static void test_member_cannot_tell_then_other(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	unsigned saved = famfs_member_recheck_s;
	char p[400], msg[8192], u1[37];
	int rc;

	famfs_uuid_str(U1, u1);
	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U2, 1);
	th_log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	attached_elsewhere(p, 1);
	th_stderr_grab();
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "member 1") || !strstr(msg, u1) || !strstr(msg, "-d ") ||
	    !strstr(msg, "cannot tell"))
		fail_msg("not said (cannot tell, member 1, %s, -d NODE): %s", u1,
			 msg);
	if (strstr(strstr(msg, "cannot tell") + 1, "cannot tell"))
		fail_msg("said twice: %s", msg);
	/* the log's device shows up here: another node than famfs.ko's,
	 * seen once the cannot-tell is asked again */
	th_member_file(x, "pmem3", U1, 1);
	new_opening(fs);
	th_stderr_grab();
	famfs_member_recheck_s = 0;
	rc = famfs_fs_member_here(fs, 1);
	famfs_member_recheck_s = saved;
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(rc, -ESTALE);
	assert_non_null(strstr(msg, "mount again"));
}

/* r42e MED-3: "cannot tell" is kept for famfs_member_recheck_s seconds: a
 * follower opens the mount every round, and each opening must not read
 * every candidate node again; past the interval it is asked again (a node
 * may have come) */
static void test_member_cannot_tell_kept(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	unsigned saved = famfs_member_recheck_s;
	unsigned long first, more;
	char p[400], msg[8192];
	int rc, rcs[4];

	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U2, 1);
	th_log_devadd(fs, 1, U1);
	for (unsigned k = 0; k < 8; k++) {	/* candidates: other devices */
		char n[32];

		snprintf(n, sizeof(n), "pmem%u", 10 + k);
		th_member_file(x, n, U9, 9);
	}
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	attached_elsewhere(p, 1);
	th_stderr_grab();
	famfs_dev_head_reads = 0;
	rc = famfs_fs_member_here(fs, 1);
	first = famfs_dev_head_reads;
	for (int r = 0; r < 3; r++) {
		new_opening(fs);
		rcs[r] = famfs_fs_member_here(fs, 1);
	}
	more = famfs_dev_head_reads - first;
	famfs_member_recheck_s = 0;	/* the interval over */
	new_opening(fs);
	rcs[3] = famfs_fs_member_here(fs, 1);
	famfs_member_recheck_s = saved;
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(rc, 1);
	for (int r = 0; r < 4; r++)
		assert_int_equal(rcs[r], 1);
	if (first < 8)
		fail_msg("the first opening read %lu heads (8 candidates)", first);
	if (more)
		fail_msg("3 more openings within the interval read %lu more heads (0 wanted)",
			 more);
	if (famfs_dev_head_reads - first - more < first)
		fail_msg("past the interval: %lu head reads, not asked again",
			 famfs_dev_head_reads - first - more);
}

/* r42e MED-1: famfs.ko's member size is the DEVADD size user space gave
 * it; another size than the table's DEVADD is another DEVADD's device (a
 * definite mismatch), whether or not a node of either is here: famfs.ko
 * has U2 at 2*MSIZE from a node outside the scan root, the table says U1
 * at MSIZE and has no node of it here -- refused, both sizes named */
static void test_member_other_size_refused(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	struct famfs_ioc_dev_add a = { .index = 1, .size = 2 * MSIZE };
	char p[400], msg[8192], s1[32], s2[32];

	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U2, 1);
	a.fd = open(p, O_RDWR);
	assert_true(a.fd >= 0);
	assert_int_equal(ftruncate(a.fd, 2 * MSIZE), 0);
	assert_int_equal(th_mock_dev_add(-1, &a), 0);
	close(a.fd);
	th_log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_fs_member_here(fs, 1), -ESTALE);
	th_stderr_take(msg, sizeof(msg));
	snprintf(s1, sizeof(s1), "%llu", (unsigned long long)MSIZE);
	snprintf(s2, sizeof(s2), "%llu", (unsigned long long)(2 * MSIZE));
	if (!strstr(msg, s1) || !strstr(msg, s2) || !strstr(msg, "mount again"))
		fail_msg("both sizes (%s, %s) and the way out not named: %s",
			 s1, s2, msg);
}

/* r42e MED-2: a process that did not attach the members (famfs cp, a
 * follower's first round) finds famfs.ko's device by its number (sysfs
 * names one node) and reads it once: whole with the log's device uuid, it
 * is the member -- one head read per member, no scan of every candidate */
static void test_member_check_reads_once(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	static const char *const name[4] = { "pmem1", "pmem2", "pmem3",
					     "pmem4" };
	char p[600], sys[300];
	struct stat st;
	uint8_t u[4][16];
	FILE *f;

	snprintf(sys, sizeof(sys), "%s/sys", x->t->dir);
	assert_int_equal(mkdir(sys, 0755), 0);
	for (unsigned k = 0; k < 4; k++) {
		memcpy(u[k], U1, 16);
		u[k][15] = (uint8_t)(0x40 + k);
		th_member_file(x, name[k], u[k], k + 1);
		th_log_devadd(fs, k + 1, u[k]);
	}
	for (unsigned k = 0; k < 12; k++) {	/* other candidates */
		snprintf(p, sizeof(p), "pmem%u", 10 + k);
		th_member_file(x, p, U9, 9);
	}
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	for (unsigned k = 0; k < 4; k++) {
		uint32_t ma, mi, fl;

		snprintf(p, sizeof(p), "%s/%s", x->devs, name[k]);
		attached_elsewhere(p, k + 1);
		assert_int_equal(stat(p, &st), 0);
		assert_true(th_mock_node_number(&st, &ma, &mi, &fl));
		snprintf(p, sizeof(p), "%s/dev", sys);
		(void)mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/dev/block", sys);
		(void)mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u", sys, ma, mi);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u/uevent", sys, ma, mi);
		f = fopen(p, "w");
		assert_non_null(f);
		fprintf(f, "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\n", ma, mi, name[k]);
		fclose(f);
	}
	famfs_sys_root = sys;
	memset(fs->member_seen, 0, sizeof(fs->member_seen));
	for (unsigned k = 1; k <= 4; k++)
		fs->devs.dev[k].path[0] = '\0';
	famfs_dev_head_reads = 0;
	for (unsigned k = 1; k <= 4; k++)
		assert_int_equal(famfs_fs_member_here(fs, k), 1);
	famfs_sys_root = "/sys";
	if (famfs_dev_head_reads != 4)
		fail_msg("%lu head reads for 4 members (4 wanted)",
			 famfs_dev_head_reads);
}

/* r42b 2: famfs.ko's device (found by its number) has a torn member
 * superblock and the log's device no node here: cannot tell, not
 * refused, and the check that failed is named (not "no member
 * superblock") */
static void test_member_torn_cannot_tell(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	char p[400], msg[8192];
	uint8_t b;
	int fd;

	th_member_file(x, "pmem4", U2, 1);
	th_log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	snprintf(p, sizeof(p), "%s/pmem4", x->devs);
	attached_elsewhere(p, 1);
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, 40), 1);
	b ^= 0xff;
	assert_int_equal(pwrite(fd, &b, 1, 40), 1);
	close(fd);
	th_stderr_grab();
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "CRC") || strstr(msg, "no member superblock"))
		fail_msg("the failed check not named: %s", msg);
	/* r42e LOW: the way out fits the cause -- famfs.ko's device has a
	 * node here (pmem4), so "give this host a node" does not help */
	if (strstr(msg, "give this host a node") || !strstr(msg, "famfs fsck"))
		fail_msg("the way out does not fit a member superblock that does not verify: %s",
			 msg);
}

/* r42b 5: a member famfs.ko reports failed (FAMFS_DEV_FAILED, its removal
 * the cause) is said so, not "cannot tell ... mount again"; the placement
 * says the same */
static void test_member_failed_said(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	struct famfs_place pl = { .has_dev = true, .dev = 1 };
	char msg[8192], why[FAMFS_REASON_LEN];
	struct famfs_alloc a;
	bool skipped;

	th_member_file(x, "pmem3", U1, 1);
	th_log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(fs, NULL, 0), 0);
	th_mock_devs[1].flags |= FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE;
	new_opening(fs);
	th_stderr_grab();
	assert_int_not_equal(famfs_fs_member_here(fs, 1), 1);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "failed") || strstr(msg, "mount again"))
		fail_msg("not said as failed: %s", msg);
	assert_int_equal(famfs_alloc_init(&a, fs->sb), 0);
	assert_int_equal(famfs_alloc_sync(&a, &fs->devs), 0);
	assert_int_equal(famfs_place_here(fs, &a, &pl, 0, &skipped, why),
			 -ENODEV);
	if (!strstr(why, "failed") || strstr(why, "another device"))
		fail_msg("placement reason: %s", why);
	famfs_alloc_free(&a);
}

/* r42b 4: famfs.ko keeps a member until the unmount: a verdict holds for
 * the process while DEV_GET says the same device (a follower opens the
 * mount every round) -- the next opening asks DEV_GET only, no node is
 * looked at or read */
static void test_member_verdict_kept(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	unsigned long nodes, gets;

	th_member_file(x, "pmem3", U1, 1);
	th_log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(fs, NULL, 0), 0);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	nodes = th_mock_node_numbers;
	gets = th_mock_dev_gets;
	new_opening(fs);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	assert_int_equal(th_mock_node_numbers, nodes);
	assert_int_equal(th_mock_dev_gets, gets + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_member_from_hint_here, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_cannot_tell_then_other, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_cannot_tell_kept, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_torn_cannot_tell, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_other_size_refused, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_check_reads_once, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_failed_said, th_ax_setup, th_ax_teardown),
		cmocka_unit_test_setup_teardown(test_member_verdict_kept, th_ax_setup, th_ax_teardown),
	};

	return cmocka_run_group_tests_name("attach_member", tests, NULL, NULL);
}
