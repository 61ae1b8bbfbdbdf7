// SPDX-License-Identifier: GPL-2.0
/* The namespace calls on a mount (lib/dev/nscall.c, issue 29): through
 * famfs.ko's FAMFSIOC_NS (famfs_kernel->ns) with the fields the contract
 * asks for, the plain system call when the module has none (NULL, ENOTTY)
 * or refuses the caller (EPERM), any other answer as the call's own; and
 * the mount options protect / noprotect. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

static char dir[64];
static int dfd;
static struct famfs_kernel_ops ops;
static struct famfs_ioc_ns seen[8];
static char seen_name[8][64], seen_new[8][64];
static int nseen, answer;

static int m_ns(int fd, const struct famfs_ioc_ns *a)
{
	(void)fd;
	if (nseen < 8) {
		seen[nseen] = *a;
		if (a->name_len && a->name_len < 64)
			memcpy(seen_name[nseen], (const void *)(uintptr_t)a->name,
			       a->name_len);
		if (a->new_name_len && a->new_name_len < 64)
			memcpy(seen_new[nseen], (const void *)(uintptr_t)a->new_name,
			       a->new_name_len);
		nseen++;
	}
	return answer;
}

static int setup(void **state)
{
	(void)state;
	th_tmpl(dir, sizeof(dir), "famfs-nscall");
	if (!mkdtemp(dir))
		return -1;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ops = th_mock_kernel;
	ops.ns = m_ns;
	famfs_kernel = &ops;
	nseen = 0;
	memset(seen, 0, sizeof(seen));
	memset(seen_name, 0, sizeof(seen_name));
	memset(seen_new, 0, sizeof(seen_new));
	return dfd < 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	close(dfd);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	famfs_kernel = &th_mock_kernel;
	return system(cmd) ? -1 : 0;
}

static bool there(const char *name)
{
	struct stat st;

	return !fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW);
}

/* famfs.ko took them: nothing is made here, the fields are the contract's */
static void test_through_ioctl(void **state)
{
	int fd;

	(void)state;
	answer = 7;		/* CREATE's new descriptor */
	fd = famfs_mnt_creat(dfd, "f", 0640);
	assert_int_equal(fd, 7);
	answer = 0;
	assert_int_equal(famfs_mnt_mkdirat(dfd, "d", 0750), 0);
	assert_int_equal(famfs_mnt_unlinkat(dfd, "f", 0), 0);
	assert_int_equal(famfs_mnt_unlinkat(dfd, "d", AT_REMOVEDIR), 0);
	assert_int_equal(famfs_mnt_renameat2(dfd, "a", dfd, "b", RENAME_NOREPLACE), 0);
	assert_int_equal(famfs_mnt_fchmod(dfd, 01755), 0);
	assert_int_equal(famfs_mnt_fchown(dfd, 12, (gid_t)-1), 0);
	assert_int_equal(nseen, 7);
	assert_false(there("f") || there("d"));

	assert_int_equal(seen[0].op, FAMFS_NS_CREATE);
	assert_string_equal(seen_name[0], "f");
	assert_int_equal(seen[0].name_len, 1);
	assert_int_equal(seen[0].valid, FAMFS_NS_MODE);
	assert_int_equal(seen[0].mode, 0640);
	assert_int_equal(seen[1].op, FAMFS_NS_MKDIR);
	assert_int_equal(seen[1].mode, 0750);
	assert_int_equal(seen[2].op, FAMFS_NS_UNLINK);
	assert_int_equal(seen[2].valid, 0);
	assert_int_equal(seen[3].op, FAMFS_NS_RMDIR);
	assert_int_equal(seen[4].op, FAMFS_NS_RENAME);
	assert_string_equal(seen_name[4], "a");
	assert_string_equal(seen_new[4], "b");
	assert_int_equal(seen[4].new_dir_fd, dfd);
	assert_int_equal(seen[4].flags, FAMFS_NS_NOREPLACE);
	assert_int_equal(seen[5].op, FAMFS_NS_SETATTR);
	assert_int_equal(seen[5].valid, FAMFS_NS_MODE);
	assert_int_equal(seen[5].mode, 01755);
	assert_int_equal(seen[5].name_len, 0);
	assert_int_equal(seen[6].valid, FAMFS_NS_UID);	/* gid -1: unchanged */
	assert_int_equal(seen[6].uid, 12);
	assert_int_equal(seen[6].gid, 0);
	/* reserved and unused fields stay 0 */
	for (int i = 0; i < 7; i++) {
		assert_int_equal(seen[i].reserved0, 0);
		assert_int_equal(seen[i].reserved[0] | seen[i].reserved[1], 0);
		if (seen[i].op != FAMFS_NS_RENAME)
			assert_int_equal(seen[i].new_dir_fd | seen[i].new_name_len |
					 seen[i].flags, 0);
	}
}

/* ENOTTY (no FAMFSIOC_NS) and EPERM (not CAP_SYS_ADMIN): the plain call */
static void test_fallback(void **state)
{
	int fd;

	(void)state;
	for (int k = 0; k < 2; k++) {
		answer = k ? -EPERM : -ENOTTY;
		fd = famfs_mnt_creat(dfd, "f", 0600);
		assert_true(fd >= 0);
		assert_true(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		assert_int_equal(fcntl(fd, F_GETFL) & O_ACCMODE, O_RDWR);
		assert_int_equal(famfs_mnt_fchmod(fd, 0604), 0);
		close(fd);
		assert_int_equal(famfs_mnt_creat(dfd, "f", 0600), -1);
		assert_int_equal(errno, EEXIST);
		assert_int_equal(famfs_mnt_mkdirat(dfd, "d", 0755), 0);
		assert_int_equal(famfs_mnt_renameat2(dfd, "f", dfd, "d", RENAME_NOREPLACE), -1);
		assert_int_equal(errno, EEXIST);
		assert_int_equal(famfs_mnt_renameat2(dfd, "f", dfd, "g", 0), 0);
		assert_true(there("g") && !there("f"));
		assert_int_equal(famfs_mnt_unlinkat(dfd, "g", 0), 0);
		assert_int_equal(famfs_mnt_unlinkat(dfd, "d", AT_REMOVEDIR), 0);
		assert_false(there("g") || there("d"));
	}
	/* a module without the op at all */
	ops.ns = NULL;
	assert_int_equal(famfs_mnt_mkdirat(dfd, "d", 0755), 0);
	assert_true(there("d"));
}

/* any other answer is the call's own: no second try */
static void test_errors_are_final(void **state)
{
	(void)state;
	answer = -EEXIST;
	assert_int_equal(famfs_mnt_creat(dfd, "f", 0600), -1);
	assert_int_equal(errno, EEXIST);
	answer = -EROFS;
	assert_int_equal(famfs_mnt_unlinkat(dfd, "f", 0), -1);
	assert_int_equal(errno, EROFS);
	assert_false(there("f"));
}

/* what FAMFSIOC_NS cannot take goes to the plain call, never to it */
static void test_not_one_name(void **state)
{
	(void)state;
	answer = -EIO;	/* would fail the test if asked */
	assert_int_equal(mkdirat(dfd, "sub", 0755), 0);
	assert_int_equal(famfs_mnt_mkdirat(dfd, "sub/x", 0755), 0);
	assert_int_equal(famfs_mnt_unlinkat(dfd, "sub/x", AT_REMOVEDIR), 0);
	assert_int_equal(famfs_mnt_renameat2(dfd, "sub", AT_FDCWD, "/nonexistent/x", 0), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(famfs_mnt_fchown(dfd, (uid_t)-1, (gid_t)-1), 0);
	assert_int_equal(nseen, 0);
}

static void test_mount_option(void **state)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_mount_opts o;

	(void)state;
	assert_int_equal(famfs_mount_opts_parse("mode=0755", false, &o, reason), 0);
	assert_int_equal(famfs_mount_opts_protect(&o, false, reason), 0);
	assert_string_equal(o.data, "mode=0755,protect");	/* the default */
	assert_int_equal(famfs_mount_opts_parse("noprotect", false, &o, reason), 0);
	assert_int_equal(famfs_mount_opts_protect(&o, false, reason), 0);
	assert_string_equal(o.data, "");	/* famfs.ko's own default */
	assert_int_equal(famfs_mount_opts_parse("remount", false, &o, reason), 0);
	assert_int_equal(famfs_mount_opts_protect(&o, true, reason), 0);
	assert_string_equal(o.data, "");	/* a remount keeps it */
	assert_int_equal(famfs_mount_opts_parse("remount,noprotect", false, &o, reason), 0);
	assert_int_equal(famfs_mount_opts_protect(&o, true, reason), 0);
	assert_string_equal(o.data, "noprotect");
	assert_int_equal(famfs_mount_opts_parse("remount,noprotect,protect", false, &o, reason), 0);
	assert_int_equal(famfs_mount_opts_protect(&o, true, reason), 0);
	assert_string_equal(o.data, "protect");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_through_ioctl, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_errors_are_final, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_one_name, setup, teardown),
		cmocka_unit_test(test_mount_option),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
