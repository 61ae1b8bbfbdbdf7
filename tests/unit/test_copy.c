// SPDX-License-Identifier: GPL-2.0
/* famfs cp of one source (famfs_copy_fd): sized files streamed; sources of
 * unknown size (a 0-byte /proc file with data, a pipe, a character device)
 * read to EOF first, bounded; other kinds refused. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "th.h"

/* the bytes of the famfs file rel (a plain file under the mock) */
static char *famfs_bytes(struct th *t, const char *rel, size_t *len)
{
	char p[700], *buf;
	struct stat st;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	buf = malloc((size_t)st.st_size + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)st.st_size, 0), st.st_size);
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static int copy_path(struct th *t, const char *src, const char *rel)
{
	int in = open(src, O_RDONLY), rc;

	assert_true(in >= 0);
	rc = famfs_copy_fd(&t->fs, in, src, rel, -1, 0, 0, NULL);
	close(in);
	return rc;
}

static void pattern(char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (char)(i * 7 + i / 251);
}

/* a pipe whose writer (a child) writes n pattern bytes and closes */
static int pipe_of(size_t n, pid_t *pid)
{
	int p[2];

	assert_int_equal(pipe(p), 0);
	*pid = fork();
	assert_true(*pid >= 0);
	if (!*pid) {
		char *b = malloc(n + 1);
		size_t off = 0;

		close(p[0]);
		pattern(b, n);
		while (off < n) {
			ssize_t w = write(p[1], b + off, n - off);

			if (w <= 0)
				_exit(1);	/* the reader gave up */
			off += (size_t)w;
		}
		_exit(0);
	}
	close(p[1]);
	return p[0];
}

static void test_regular(void **state)
{
	struct th *t = *state;
	char src[400], want[3 * 1048576 / 2 + 5], *got;
	size_t n;
	FILE *f;

	snprintf(src, sizeof(src), "%s/src", t->dir);
	pattern(want, sizeof(want));
	f = fopen(src, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(want, 1, sizeof(want), f), sizeof(want));
	fclose(f);
	assert_int_equal(copy_path(t, src, "copy"), 0);
	got = famfs_bytes(t, "copy", &n);
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(got, want, n);
	free(got);
	/* an empty file stays empty */
	f = fopen(src, "w");
	fclose(f);
	assert_int_equal(copy_path(t, src, "empty"), 0);
	got = famfs_bytes(t, "empty", &n);
	assert_int_equal(n, 0);
	free(got);
}

/* /proc/version: st_size 0, a line of text */
static void test_proc_file(void **state)
{
	struct th *t = *state;
	char want[4096], *got;
	struct stat st;
	ssize_t w;
	size_t n;
	int fd;

	fd = open("/proc/version", O_RDONLY);
	if (fd < 0)
		skip();
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_size, 0);	/* what the test is about */
	w = read(fd, want, sizeof(want));
	assert_true(w > 0);
	close(fd);
	assert_int_equal(copy_path(t, "/proc/version", "version"), 0);
	got = famfs_bytes(t, "version", &n);
	assert_int_equal(n, (size_t)w);
	assert_memory_equal(got, want, n);
	free(got);
}

static void test_pipe(void **state)
{
	struct th *t = *state;
	size_t n, len = 300 * 1024 + 17;
	char *want = malloc(len), *got;
	pid_t pid;
	int in, st;

	pattern(want, len);
	in = pipe_of(len, &pid);
	assert_int_equal(famfs_copy_fd(&t->fs, in, "a pipe", "piped", 0600, 0,
				       0, NULL), 0);
	close(in);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	got = famfs_bytes(t, "piped", &n);
	assert_int_equal(n, len);
	assert_memory_equal(got, want, n);
	free(got);
	free(want);
}

/* more than the bound: refused, nothing created, log unchanged */
static void test_bound(void **state)
{
	struct th *t = *state;
	uint64_t before = famfs_log_next(t->fs.log);
	char *got;
	pid_t pid;
	size_t n;
	int in, st;

	famfs_copy_unsized_max = 100000;
	in = pipe_of(100001, &pid);
	assert_int_equal(famfs_copy_fd(&t->fs, in, "a pipe", "big", 0600, 0, 0,
				       NULL), -EFBIG);
	close(in);
	waitpid(pid, &st, 0);
	assert_false(th_exists(t, "big", false));
	assert_int_equal(famfs_log_next(t->fs.log), before);
	/* exactly the bound is fine */
	in = pipe_of(100000, &pid);
	assert_int_equal(famfs_copy_fd(&t->fs, in, "a pipe", "max", 0600, 0, 0,
				       NULL), 0);
	close(in);
	waitpid(pid, &st, 0);
	got = famfs_bytes(t, "max", &n);
	assert_int_equal(n, 100000);
	free(got);
	/* a device that never ends */
	assert_int_equal(copy_path(t, "/dev/zero", "zero"), -EFBIG);
	assert_false(th_exists(t, "zero", false));
	famfs_copy_unsized_max = FAMFS_COPY_UNSIZED_MAX;
	/* one that is empty */
	assert_int_equal(copy_path(t, "/dev/null", "null"), 0);
	got = famfs_bytes(t, "null", &n);
	assert_int_equal(n, 0);
	free(got);
}

static void test_refused(void **state)
{
	struct th *t = *state;
	uint64_t before = famfs_log_next(t->fs.log);
	int fd = open(t->dir, O_RDONLY | O_DIRECTORY);

	assert_true(fd >= 0);
	assert_int_equal(famfs_copy_fd(&t->fs, fd, t->dir, "dir", -1, 0, 0, NULL),
			 -EINVAL);
	close(fd);
	assert_false(th_exists(t, "dir", false));
	assert_int_equal(famfs_log_next(t->fs.log), before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_regular, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_proc_file, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_pipe, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_bound, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_refused, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("copy", tests, NULL, NULL);
}
