// SPDX-License-Identifier: GPL-2.0
/* The superblock read again (famfs_fs_sb_reread) and rewritten (a feature
 * change, the master role) when the media no longer verifies: through a
 * mapping, not only through a bounce buffer.  The copy kept must be the
 * one that verified; a superblock that does not verify is never re-CRCed
 * (that would bless the damage for every host). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"
#include "master.h"

/* a reserved byte of the superblock on the media (a bad CRC), through the
 * file -- a mapping of it sees the byte at once */
static void damage(struct th *t)
{
	uint8_t junk = 0x5a;
	int fd = open(t->img, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &junk, 1, 200), 1);
	close(fd);
}

static int media_check(struct th *t)
{
	struct famfs_superblock sb;
	int fd = open(t->img, O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	close(fd);
	return famfs_sb_check(&sb, 0, NULL);
}

/* a reader with a mapping (no bounce buffer): the re-read fails, and what
 * it keeps is the superblock it verified at open, not the damaged bytes
 * the mapping shows */
static void test_reread_mapped_keeps_verified(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	char why[FAMFS_REASON_LEN] = "";

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	damage(t);
	assert_int_not_equal(famfs_fs_sb_reread(&r, why), 0);
	assert_non_null(strstr(why, "CRC"));
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	/* twice: the kept copy stays the verified one */
	assert_int_not_equal(famfs_fs_sb_reread(&r, NULL), 0);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* the master changes a feature bit while the superblock on the media does
 * not verify: refused, naming the device, and the media left as it was
 * (still failing its check), not re-CRCed with the damage in it */
static void test_feature_change_on_bad_sb_refused(void **state)
{
	struct th *t = *state;
	char msg[4096];
	int rc;

	assert_true(t->fs.master);
	damage(t);
	th_stderr_grab();
	rc = famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
				     FAMFS_FEATURE_INCOMPAT_MULTIDEV, 0);
	th_stderr_take(msg, sizeof(msg));
	assert_int_not_equal(rc, 0);
	assert_int_not_equal(media_check(t), 0);
	assert_non_null(strstr(msg, t->img));
	assert_int_equal(famfs_sb_check(t->fs.sb, 0, NULL), 0);
	assert_false(le32toh(t->fs.sb->feature_incompat) &
		     FAMFS_FEATURE_INCOMPAT_MULTIDEV);
}

/* the same for the master role's write (famfs master claim -f) */
static void test_master_claim_on_bad_sb_refused(void **state)
{
	struct th *t = *state;
	int rc;

	damage(t);
	famfs_quiet = 1;
	rc = famfs_master_claim(&t->fs, true);
	famfs_quiet = 0;
	assert_int_not_equal(rc, 0);
	assert_int_not_equal(media_check(t), 0);
}

/* a superblock that verifies again after a bad read is taken again */
static void test_reread_good_again(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	uint8_t zero = 0;
	int fd;

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	damage(t);
	assert_int_not_equal(famfs_fs_sb_reread(&r, NULL), 0);
	fd = open(t->img, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &zero, 1, 200), 1);
	close(fd);
	assert_int_equal(famfs_fs_sb_reread(&r, NULL), 0);
	assert_false(r.sb_reread_bad);
	assert_ptr_equal(r.sb, &r.sb_kept);
	assert_memory_equal(r.sb, r.sbm.addr, sizeof(*r.sb));
	famfs_fs_close(&r);
}

/* after a re-read that verified, fs->sb is what was verified: damage
 * written since (another host's torn or bad write, seen through a
 * mapping at once) does not reach it until it is read and verified again */
static void test_reread_good_is_a_copy(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	assert_int_equal(famfs_fs_sb_reread(&r, NULL), 0);
	damage(t);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* the same from the opening on: what an opening verified is what fs->sb
 * shows until a re-read verifies (an opening of the device) */
static void test_open_is_a_copy(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	damage(t);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* a feature change judged on a copy that is out of date: another opening
 * of the same master set the bit since; clearing it must still clear it
 * on the media, not return "nothing to write" from the old copy */
static void test_feature_change_judged_on_media(void **state)
{
	struct th *t = *state;
	const uint32_t nc = FAMFS_FEATURE_INCOMPAT_NONCOHERENT;
	struct famfs_fs r;
	struct famfs_superblock sb;
	int fd;

	assert_int_equal(famfs_fs_open_dev(t->img, true, &r), 0);
	assert_int_equal(famfs_fs_change_feature(&r, FAMFS_FEAT_INCOMPAT, nc, 0), 0);
	famfs_fs_close(&r);
	assert_false(le32toh(t->fs.sb->feature_incompat) & nc);	/* stale */
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, 0, nc), 0);
	fd = open(t->img, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	close(fd);
	assert_false(le32toh(sb.feature_incompat) & nc);
	assert_false(le32toh(t->fs.sb->feature_incompat) & nc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reread_mapped_keeps_verified, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_feature_change_on_bad_sb_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_claim_on_bad_sb_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reread_good_again, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reread_good_is_a_copy, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_open_is_a_copy, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_feature_change_judged_on_media, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
