// SPDX-License-Identifier: GPL-2.0
/* dirset_open_beneath (logplay's and dirset's walk): the same refusals
 * through openat2(2) RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH and through its
 * fallback, one O_NOFOLLOW component at a time -- forced by the test hook,
 * and by a seccomp filter that makes openat2 fail as a kernel without it
 * (ENOSYS) or a sandbox that does not allow it (EPERM: Docker before 20.10,
 * a default-deny profile) does. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>

#include "th.h"

struct tree {
	char dir[64];
	int root;
};

static void mk(struct tree *t, const char *rel, bool dir)
{
	if (dir) {
		assert_int_equal(mkdirat(t->root, rel, 0755), 0);
	} else {
		int fd = openat(t->root, rel, O_CREAT | O_WRONLY, 0644);

		assert_true(fd >= 0);
		close(fd);
	}
}

static int setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char out[200];

	assert_non_null(t);
	th_tmpl(t->dir, sizeof(t->dir), "famfs-beneath");
	assert_non_null(mkdtemp(t->dir));
	snprintf(out, sizeof(out), "%s/outside", t->dir);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(out, sizeof(out), "%s/root", t->dir);
	assert_int_equal(mkdir(out, 0755), 0);
	t->root = open(out, O_RDONLY | O_DIRECTORY);
	assert_true(t->root >= 0);
	mk(t, "a", true);
	mk(t, "a/b", true);
	mk(t, "f", false);
	assert_int_equal(symlinkat("../outside", t->root, "a/ln"), 0);
	assert_int_equal(symlinkat("b", t->root, "a/lb"), 0);
	assert_int_equal(symlinkat("../f", t->root, "a/lf"), 0);
	*state = t;
	return 0;
}

static int teardown(void **state)
{
	struct tree *t = *state;
	char cmd[100];

	close(t->root);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

/* what dirset_open_beneath says of rel opened with flags: 0 (opened) or
 * -errno */
static int beneath_f(struct tree *t, const char *rel, int flags)
{
	int fd = dirset_open_beneath(t->root, rel, strlen(rel), flags);

	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

static int beneath(struct tree *t, const char *rel)
{
	return beneath_f(t, rel, DIRSET_DIR);
}

static const struct {
	const char *rel;
	int want;
} cases[] = {
	{ "", 0 }, { "a", 0 }, { "a/b", 0 }, { "./a//b/", 0 },
	{ "a/ln", -ELOOP },		/* the last component a symlink */
	{ "a/ln/x", -ELOOP },		/* one in the middle */
	{ "a/lb", -ELOOP },		/* even to a directory beneath */
	{ "..", -EXDEV }, { "a/../..", -EXDEV },
	{ "f", -ENOTDIR }, { "f/x", -ENOTDIR },	/* a file for a directory */
	{ "nope", -ENOENT }, { "a/nope/x", -ENOENT },
};

/* a file opened as the last component (logplay's file_there) */
static const struct {
	const char *rel;
	int want;
} file_cases[] = {
	{ "f", 0 }, { "a/lf", -ELOOP }, { "a/ln/x", -ELOOP },
	{ "../root/f", -EXDEV },
	/* ("a/../f": openat2 opens it, the fallback refuses every ".."; a
	 * logged path never has one: famfs_relpath_normalize) */
};

/* the cases that are not refused as expected, each said on stderr (no
 * cmocka assert: also run in a forked child) */
static int check_all(struct tree *t, const char *how)
{
	char big[5000];
	int bad = 0, rc;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = beneath(t, cases[i].rel);
		if (rc != cases[i].want) {
			fprintf(stderr, "%s: '%s': %d (%s), expected %d\n", how,
				cases[i].rel, rc, strerror(-rc), cases[i].want);
			bad++;
		}
	}
	for (size_t i = 0; i < sizeof(file_cases) / sizeof(file_cases[0]); i++) {
		rc = beneath_f(t, file_cases[i].rel, O_RDONLY | O_CLOEXEC);
		if (rc != file_cases[i].want) {
			fprintf(stderr, "%s: file '%s': %d (%s), expected %d\n",
				how, file_cases[i].rel, rc, strerror(-rc),
				file_cases[i].want);
			bad++;
		}
	}
	/* a component over NAME_MAX; a path over PATH_MAX */
	memset(big, 'x', 300);
	big[300] = '\0';
	rc = beneath(t, big);
	bad += rc != -ENAMETOOLONG;
	memset(big, 'x', sizeof(big) - 1);
	for (size_t i = 100; i < sizeof(big) - 1; i += 100)
		big[i] = '/';
	big[sizeof(big) - 1] = '\0';
	rc = beneath(t, big);
	bad += rc != -ENAMETOOLONG;
	return bad;
}

static void test_openat2(void **state)
{
	assert_int_equal(check_all(*state, "openat2"), 0);
}

static void test_fallback_hook(void **state)
{
	dirset_no_openat2 = true;
	int bad = check_all(*state, "fallback");

	dirset_no_openat2 = false;
	assert_int_equal(bad, 0);
}

/* in a child: openat2 fails with err (seccomp), then every case */
static void under_seccomp(struct tree *t, int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
			_exit(77);
		/* the filter is there */
		if (syscall(SYS_openat2, AT_FDCWD, ".", NULL, 0) != -1 ||
		    errno != err)
			_exit(78);
		_exit(check_all(t, err == ENOSYS ? "seccomp ENOSYS" :
					      "seccomp EPERM") ? 1 : 0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 77)
		skip();
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_seccomp_enosys(void **state)
{
	under_seccomp(*state, ENOSYS);
}

static void test_seccomp_eperm(void **state)
{
	under_seccomp(*state, EPERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_openat2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback_hook, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seccomp_enosys, setup, teardown),
		cmocka_unit_test_setup_teardown(test_seccomp_eperm, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
