// SPDX-License-Identifier: GPL-2.0
/* Path handling: normal form, refusals, locating the mount. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "th.h"

static void norm_ok(const char *in, const char *want)
{
	char out[FAMFS_LOG_PATH_MAX], why[FAMFS_REASON_LEN];

	assert_int_equal(famfs_relpath_normalize(in, out, why), 0);
	assert_string_equal(out, want);
}

static void norm_bad(const char *in, int err, const char *what)
{
	char out[FAMFS_LOG_PATH_MAX], why[FAMFS_REASON_LEN] = "";

	assert_int_equal(famfs_relpath_normalize(in, out, why), err);
	assert_non_null(strstr(why, what));
}

static void test_normalize(void **s)
{
	(void)s;
	norm_ok("a", "a");
	norm_ok("/a/b/", "a/b");
	norm_ok("a//b///c", "a/b/c");
	norm_ok("./a/./b/.", "a/b");
	norm_ok("a/.b/..c", "a/.b/..c");
	norm_ok(".metadata", ".metadata");
}

static void test_dotdot_refused(void **s)
{
	(void)s;
	norm_bad("..", -EINVAL, "..");
	norm_bad("a/../b", -EINVAL, "..");
	norm_bad("a/..", -EINVAL, "..");
}

static void test_root_and_meta_refused(void **s)
{
	(void)s;
	norm_bad("", -EINVAL, "root");
	norm_bad("/./", -EINVAL, "root");
	norm_bad(".meta", -EINVAL, ".meta");
	norm_bad(".meta/.log", -EINVAL, ".meta");
}

static void test_too_long_refused(void **s)
{
	char p[FAMFS_LOG_PATH_MAX + 10];

	(void)s;
	memset(p, 'x', FAMFS_LOG_PATH_MAX - 1);		/* 511 bytes: fits */
	p[200] = p[400] = '/';				/* names <= 255 bytes */
	p[FAMFS_LOG_PATH_MAX - 1] = '\0';
	norm_ok(p, p);
	memset(p, 'x', FAMFS_LOG_PATH_MAX);		/* 512: refused */
	p[200] = p[400] = '/';
	p[FAMFS_LOG_PATH_MAX] = '\0';
	norm_bad(p, -ENAMETOOLONG, "longer than 511");
	memset(p, 'x', 256);				/* a 256-byte name */
	p[256] = '\0';
	norm_bad(p, -ENAMETOOLONG, "longer than 255");
	p[255] = '\0';					/* 255: fits */
	norm_ok(p, p);
	/* long only before normalization is fine */
	memset(p, '/', FAMFS_LOG_PATH_MAX + 5);
	p[FAMFS_LOG_PATH_MAX + 5] = '\0';
	p[3] = 'a';
	norm_ok(p, "a");
}

static void test_locate(void **state)
{
	struct th *t = *state;
	char mpt[PATH_MAX], rel[FAMFS_LOG_PATH_MAX], p[PATH_MAX], real[PATH_MAX];

	snprintf(p, sizeof(p), "%s/.meta", t->mpt);
	assert_true(!mkdir(p, 0755) || errno == EEXIST);	/* th_new made it */
	th_touch(t, ".meta/.log", "");
	snprintf(p, sizeof(p), "%s/sub", t->mpt);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_non_null(realpath(t->mpt, real));

	snprintf(p, sizeof(p), "%s/sub/new", t->mpt);
	assert_int_equal(famfs_locate(p, false, mpt, rel), 0);
	assert_string_equal(mpt, real);
	assert_string_equal(rel, "sub/new");
	/* missing parents are kept as a tail */
	snprintf(p, sizeof(p), "%s//sub/x/y/z", t->mpt);
	assert_int_equal(famfs_locate(p, false, mpt, rel), 0);
	assert_string_equal(rel, "sub/x/y/z");
	/* the root itself */
	assert_int_equal(famfs_locate(t->mpt, true, mpt, rel), 0);
	assert_string_equal(rel, "");
	assert_int_equal(famfs_locate(t->mpt, false, mpt, rel), -EINVAL);
	/* .. that escapes the mount is resolved, then not found */
	snprintf(p, sizeof(p), "%s/sub/../../elsewhere", t->mpt);
	assert_int_equal(famfs_locate(p, false, mpt, rel), -ENOENT);
	/* .. in the not-yet-existing tail is refused */
	snprintf(p, sizeof(p), "%s/sub/x/../y", t->mpt);
	assert_int_equal(famfs_locate(p, false, mpt, rel), -EINVAL);
}

static void test_locate_outside(void **state)
{
	char mpt[PATH_MAX], rel[FAMFS_LOG_PATH_MAX];

	(void)state;
	assert_int_equal(famfs_locate("/proc/self/none", false, mpt, rel), -ENOENT);
}

/* issue 15.16: a directory holding .meta/.log is not a famfs root unless
 * it is a famfs mount's root (statfs magic, the root of its mount) */
static void test_locate_plain_dir_refused(void **state)
{
	char d[256], p[PATH_MAX];
	char mpt[PATH_MAX], rel[FAMFS_LOG_PATH_MAX];
	FILE *f;

	(void)state;
	th_tmpl(d, sizeof(d), "famfs-unit-fake");
	assert_non_null(mkdtemp(d));
	snprintf(p, sizeof(p), "%s/.meta", d);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/.meta/.log", d);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/new", d);
	famfs_quiet = 1;
	assert_int_equal(famfs_locate(p, false, mpt, rel), -ENOENT);
	famfs_quiet = 0;
	snprintf(p, sizeof(p), "rm -rf '%s'", d);
	assert_int_equal(system(p), 0);
}

/* ... and a copy of the meta files is not opened as a mount */
static void test_open_mount_copy_refused(void **state)
{
	char d[256], p[PATH_MAX], cmd[3 * PATH_MAX];
	struct famfs_fs fs;
	struct th *t = th_new(64 * MiB, 2 * MiB);

	(void)state;
	th_tmpl(d, sizeof(d), "famfs-unit-copy");
	assert_non_null(mkdtemp(d));
	snprintf(cmd, sizeof(cmd),
		 "mkdir '%s/.meta' && dd if='%s' of='%s/.meta/.superblock' bs=2M count=1 2>/dev/null &&"
		 " dd if='%s' of='%s/.meta/.log' bs=2M skip=1 count=1 2>/dev/null",
		 d, t->img, d, t->img, d);
	assert_int_equal(system(cmd), 0);
	th_free(t);		/* the real checks again */
	famfs_quiet = 1;
	assert_true(famfs_fs_open_mount(d, true, &fs) < 0);
	famfs_quiet = 0;
	snprintf(p, sizeof(p), "rm -rf '%s'", d);
	assert_int_equal(system(p), 0);
}

/* issue 15.15: cp -r refuses a destination inside its source */
static void test_path_within(void **state)
{
	(void)state;
	assert_true(famfs_path_within("/m/d", "/m/d"));
	assert_true(famfs_path_within("/m/d/sub", "/m/d"));
	assert_true(famfs_path_within("/m/d/sub/x", "/m/d"));
	assert_false(famfs_path_within("/m/d2", "/m/d"));
	assert_false(famfs_path_within("/m/d2/sub", "/m/d"));
	assert_false(famfs_path_within("/m", "/m/d"));
	assert_true(famfs_path_within("/anything", "/"));
	assert_true(famfs_path_within("/", "/"));
}

static int mi_check(const char *mi, const char *path, dev_t dev, char *reason)
{
	FILE *f = fmemopen((void *)mi, strlen(mi), "r");
	int rc;

	assert_non_null(f);
	rc = famfs_mountinfo_root(f, path, dev, reason);
	fclose(f);
	return rc;
}

/* review of issue 15.16: a bind mount of a famfs directory is on famfs and
 * its parent is on another device, yet it is no famfs root; mountinfo's
 * root field tells (the last mount listed at a path is the one seen) */
static void test_mountinfo_bind_refused(void **state)
{
	const char *mi =
		"22 1 8:1 / / rw - ext4 /dev/sda1 rw\n"
		"40 22 0:50 / /mnt/famfs rw,nosuid,nodev - famfs /dev/dax0.0 rw\n"
		"41 22 0:50 /d /mnt/x rw - famfs /dev/dax0.0 rw\n"
		"42 22 0:50 / /mnt/with\\040space rw - famfs /dev/dax0.0 rw\n"
		"43 22 0:51 / /mnt/stack rw - famfs /dev/dax1.0 rw\n"
		"44 22 0:50 /d /mnt/stack rw - famfs /dev/dax0.0 rw\n";
	char reason[FAMFS_REASON_LEN];

	(void)state;
#define MI(path, maj, min) mi_check(mi, path, makedev(maj, min), reason)
	assert_int_equal(MI("/mnt/famfs", 0, 50), 0);
	assert_int_equal(MI("/mnt/with space", 0, 50), 0);
	assert_int_equal(MI("/mnt/x", 0, 50), -ENOENT);
	assert_non_null(strstr(reason, "/d"));
	assert_int_equal(MI("/mnt/stack", 0, 50), -ENOENT);
	assert_int_equal(MI("/mnt/stack", 0, 51), -ENOENT);
	assert_int_equal(MI("/mnt/none", 0, 50), -ENOENT);
#undef MI
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_dotdot_refused),
		cmocka_unit_test(test_root_and_meta_refused),
		cmocka_unit_test(test_too_long_refused),
		cmocka_unit_test_setup_teardown(test_locate, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_locate_outside, th_setup, th_teardown),
		cmocka_unit_test(test_locate_plain_dir_refused),
		cmocka_unit_test(test_open_mount_copy_refused),
		cmocka_unit_test(test_path_within),
		cmocka_unit_test(test_mountinfo_bind_refused),
	};

	return cmocka_run_group_tests_name("path", tests, NULL, NULL);
}
