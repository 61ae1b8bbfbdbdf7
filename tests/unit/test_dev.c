// SPDX-License-Identifier: GPL-2.0
/* Device access, host id, opening a mounted fs through its meta files. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

static void test_dev_open_file(void **state)
{
	struct th *t = *state;
	struct famfs_dev d;
	struct famfs_map m;

	assert_int_equal(famfs_dev_open(t->img, false, &d), 0);
	assert_int_equal(d.kind, FAMFS_DEV_FILE);
	assert_int_equal(d.size, 64 * MiB);
	assert_int_equal(famfs_dev_map(&d, 62 * MiB, 4 * MiB, &m), -ERANGE);
	assert_int_equal(famfs_dev_map(&d, 0, 2 * MiB, &m), 0);
	assert_true(famfs_sb_is_famfs(m.addr));
	assert_int_equal(famfs_map_flush(&m, m.addr, 512), -EROFS);
	famfs_map_unmap(&m);
	famfs_dev_close(&d);
	assert_int_equal(famfs_dev_open("/nonexistent/dev", false, &d), -ENOENT);
	/* a character device that is not device-dax: no size in sysfs */
	assert_true(famfs_dev_open("/dev/null", false, &d) < 0);
	assert_int_equal(d.fd, -1);
}

static void test_host_id_created_once(void **state)
{
	struct th *t = *state;
	uint8_t a[16], b[16];
	char p[400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/new-id", t->dir);
	setenv("FAMFS_HOST_ID_FILE", p, 1);
	assert_int_equal(famfs_host_id(a), 0);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(famfs_host_id(b), 0);
	assert_memory_equal(a, b, 16);
}

static void test_host_id_machine_id_format(void **state)
{
	struct th *t = *state;
	uint8_t a[16];
	char p[400];
	FILE *f;

	snprintf(p, sizeof(p), "%s/machine-id", t->dir);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("00112233445566778899aabbccddeeff\n", f);
	fclose(f);
	setenv("FAMFS_HOST_ID_FILE", p, 1);
	assert_int_equal(famfs_host_id(a), 0);
	assert_int_equal(a[0], 0x00);
	assert_int_equal(a[1], 0x11);
	assert_int_equal(a[15], 0xff);
	f = fopen(p, "w");
	fputs("junk\n", f);
	fclose(f);
	assert_int_equal(famfs_host_id(a), -EINVAL);
}

/* meta files as plain copies of the superblock and log regions */
static void fake_meta(struct th *t, mode_t logmode)
{
	char p[400];
	int fd;

	snprintf(p, sizeof(p), "%s/.meta", t->mpt);
	assert_true(!mkdir(p, 0755) || errno == EEXIST);	/* th_new made it */
	snprintf(p, sizeof(p), "%s/.meta/.superblock", t->mpt);
	fd = open(p, O_RDWR | O_CREAT, 0444);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t->fs.sbm.addr, 2 * MiB), (ssize_t)(2 * MiB));
	close(fd);
	snprintf(p, sizeof(p), "%s/.meta/.log", t->mpt);
	fd = open(p, O_RDWR | O_CREAT, logmode);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t->fs.logm.addr, 2 * MiB), (ssize_t)(2 * MiB));
	assert_int_equal(fchmod(fd, logmode), 0);
	close(fd);
}

static void test_open_mount_master(void **state)
{
	struct th *t = *state;
	struct famfs_fs fs;

	th_append_dir(t, "d");
	fake_meta(t, 0644);
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_true(fs.master);
	assert_true(fs.rw);
	assert_false(fs.ro_mount);
	assert_int_equal(famfs_log_next(fs.log), 1);
	assert_int_equal(famfs_fs_writable(&fs), 0);
	famfs_fs_close(&fs);
}

static void test_open_mount_readonly(void **state)
{
	struct th *t = *state;
	struct famfs_fs fs;

	fake_meta(t, 0444);		/* famfs mount -r */
	assert_int_equal(famfs_fs_open_mount(t->mpt, true, &fs), 0);
	assert_true(fs.master);
	assert_false(fs.rw);
	assert_true(fs.ro_mount);
	assert_int_equal(famfs_fs_writable(&fs), -EROFS);
	famfs_fs_close(&fs);
}

static void test_open_mount_bad_sb(void **state)
{
	struct th *t = *state;
	struct famfs_fs fs;

	th_sb_media(t)->version = 99;	/* in the image: the copy is bad */
	fake_meta(t, 0644);
	assert_int_equal(famfs_fs_open_mount(t->mpt, false, &fs), -EBADMSG);
	assert_int_equal(famfs_fs_open_mount("/nonexistent", false, &fs), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dev_open_file, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_host_id_created_once, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_host_id_machine_id_format, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_open_mount_master, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_open_mount_readonly, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_open_mount_bad_sb, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("dev", tests, NULL, NULL);
}
