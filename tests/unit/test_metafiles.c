// SPDX-License-Identifier: GPL-2.0
/*
 * Whose meta files a mount's opening reads and writes.  .meta/.superblock,
 * .meta/.log and the log segments .meta/.logK are what every replay (root,
 * on every host: mount, logplay, each round of --follow) and every create
 * of the master trust.  famfs has hard links and renames, and its root may
 * be writable by others (mode=1777): a user who can put a name in .meta --
 * or make .meta her own directory before the mount makes it, or after
 * renaming root's away -- can put there a famfs file she owns and writes
 * (one the master created for her), and her bytes become the log.  So the
 * meta files are taken only from a .meta that is root's (or this user's)
 * and that nobody else may write, opened beneath the mount root without
 * following a link (the log segments too, not only when they are made).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"
#include "th_loggrow.h"

static const char *at_mpt(struct th *t, const char *rel, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", t->mpt, rel);
	return out;
}

static int open_mount_msg(struct th *t, bool rw, struct famfs_fs *fs,
			  char *msg, size_t n)
{
	int rc;

	th_stderr_grab();
	rc = famfs_fs_open_mount(t->mpt, rw, fs);
	th_stderr_take(msg, n);
	return rc;
}

/* .meta made by alice (uid 1000) -- before the mount's mkdir of it, on a
 * root of mode 1777, or after renaming root's away on one of mode 0777 --
 * holding her own files: not opened */
static void test_meta_dir_of_another_user(void **state)
{
	struct th *t = *state;
	const char *rel[] = { ".meta", ".meta/.superblock", ".meta/.log" };
	char p[400], msg[2048];
	struct famfs_fs fs;

	th_fake_meta(t);
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), 0);
	famfs_fs_close(&fs);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(chown(at_mpt(t, rel[i], p, sizeof(p)), 1000, 1000), 0);
	if (!open_mount_msg(t, false, &fs, msg, sizeof(msg))) {
		famfs_fs_close(&fs);
		fail_msg("a mount's meta files were read from a .meta owned by uid 1000 (her files would be the log root replays)");
	}
	if (!strstr(msg, ".meta") || !strstr(msg, "1000"))
		fail_msg("the refusal does not name .meta and its owner: %s", msg);
}

/* root's .meta, but writable by others (1777): a user can add a name
 * there (.meta/.log1, a segment of her own) -- not opened either */
static void test_meta_dir_writable_by_others(void **state)
{
	struct th *t = *state;
	char p[400], msg[2048];
	struct famfs_fs fs;

	th_fake_meta(t);
	assert_int_equal(chmod(at_mpt(t, ".meta", p, sizeof(p)), 01777), 0);
	if (!open_mount_msg(t, false, &fs, msg, sizeof(msg))) {
		famfs_fs_close(&fs);
		fail_msg("a mount's meta files were read from a .meta that others may write (mode 1777)");
	}
	if (!strstr(msg, ".meta") || !strstr(msg, "write"))
		fail_msg("the refusal does not say .meta is writable by others: %s",
			 msg);
}

/* A log segment's file (.meta/.log1) is a symbolic link to a file outside
 * the mount, of the size a segment has: the opening must not map it (the
 * master's appends into segment 1 would write log entries into that
 * file), nor a walk read the log through it. */
static void test_segment_file_link(void **state)
{
	struct th *t = *state;
	char p[400], victim[400], msg[4096];
	struct seen s = { 0 };
	struct famfs_fs fs;
	int fd, rc;

	fill_to(t, 3);
	assert_int_equal(grow(t, 4 * MiB), 0);
	fill_to(t, C0 + 10);			/* entries in segment 1 */
	th_fake_meta(t);
	snprintf(victim, sizeof(victim), "%s/victim", t->dir);
	fd = open(victim, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 4 * MiB), 0);
	close(fd);
	at_mpt(t, ".meta/.log1", p, sizeof(p));
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink(victim, p), 0);
	rc = open_mount_msg(t, true, &fs, msg, sizeof(msg));
	assert_int_equal(rc, 0);		/* the log is read up to it */
	if (fs.nsegs != 1) {
		famfs_fs_close(&fs);
		fail_msg("a symbolic link .meta/.log1 (to a file outside the mount) was mapped as log segment 1");
	}
	famfs_quiet = 1;
	rc = famfs_log_walk(&fs, collect, &s);
	famfs_quiet = 0;
	assert_int_equal(fs.nsegs, 1);
	famfs_fs_close(&fs);
	assert_int_equal(rc, -ENXIO);		/* segment 1: not read */
	assert_int_equal(s.bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_meta_dir_of_another_user, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_meta_dir_writable_by_others, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_segment_file_link, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
