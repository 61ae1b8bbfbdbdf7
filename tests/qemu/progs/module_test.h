/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the famfs.ko guest test programs (progs/module_*.c).
 *
 * A program prints one line per check: "PASS name", "FAIL name: why" or
 * "SKIP name: why"; the suite (suites/module*.sh) turns them into PROTOCOL
 * lines with its own prefix.  The exit status is 1 if anything failed.
 */
#ifndef MODULE_TEST_H
#define MODULE_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <linux/fs.h>
#include <linux/famfs_ioctl.h>

#define MiB		(1ULL << 20)
#define TWO_MiB		(2 * MiB)

/* Not every program uses every helper. */
#define T_API		static __attribute__((unused))

T_API int t_failed;

T_API void __attribute__((format(printf, 2, 3)))
t_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	t_failed = 1;
}

T_API void t_pass(const char *name)
{
	printf("PASS %s\n", name);
	fflush(stdout);
}

T_API void __attribute__((format(printf, 2, 3)))
t_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("SKIP %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

T_API const char *t_errname(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "E?";
}

/* PASS iff rc == 0 (rc is a syscall result; errno is read on failure). */
T_API int t_ok(const char *name, long rc)
{
	if (rc >= 0) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "failed with %s", t_errname(errno));
	return 0;
}

/* PASS iff the call failed (rc == -1) with errno @want. */
T_API int t_errno(const char *name, long rc, int want)
{
	int e = errno;

	if (rc == -1 && e == want) {
		t_pass(name);
		return 1;
	}
	if (rc == -1)
		t_fail(name, "expected %s, got %s", t_errname(want),
		       t_errname(e));
	else
		t_fail(name, "expected %s, but it returned %ld",
		       t_errname(want), rc);
	return 0;
}

/* PASS iff @got == @want. */
T_API int t_equ(const char *name, unsigned long long want,
		 unsigned long long got)
{
	if (want == got) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "expected %llu (%#llx), got %llu (%#llx)", want, want,
	       got, got);
	return 0;
}

T_API int t_true(const char *name, int cond, const char *what)
{
	if (cond) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "%s", what);
	return 0;
}

T_API __attribute__((noreturn)) void die(const char *what)
{
	printf("FAIL setup: %s: %s\n", what, t_errname(errno));
	exit(1);
}

T_API unsigned long long dev_size(const char *dev)
{
	unsigned long long sz;
	int fd = open(dev, O_RDONLY);

	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &sz))
		die(dev);
	close(fd);
	return sz;
}

/* A new empty file MPT/name opened read-write. */
T_API int mkfile(const char *mpt, const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		die(path);
	return fd;
}

/* FAMFSIOC_MAP_CREATE with up to two extents; returns the ioctl result. */
T_API int map2(int fd, unsigned int ftype, unsigned long long size,
		unsigned long long n, unsigned long long off0,
		unsigned long long len0, unsigned long long off1,
		unsigned long long len1)
{
	struct famfs_ioc_map m;

	memset(&m, 0, sizeof(m));
	m.extent_type = SIMPLE_DAX_EXTENT;
	m.file_type = ftype;
	m.file_size = size;
	m.ext_list_count = n;
	m.ext_list[0].offset = off0;
	m.ext_list[0].len = len0;
	m.ext_list[1].offset = off1;
	m.ext_list[1].len = len1;
	return ioctl(fd, FAMFSIOC_MAP_CREATE, &m);
}

T_API int map1(int fd, unsigned long long size, unsigned long long off,
		unsigned long long len)
{
	return map2(fd, FAMFS_REG, size, 1, off, len, 0, 0);
}

/* The 64-bit word the pattern @seed has at byte offset @off of a file. */
T_API uint64_t pat(uint64_t seed, uint64_t off)
{
	return (off * 0x9e3779b97f4a7c15ULL) ^ seed;
}

T_API void fill(void *buf, uint64_t seed, uint64_t off, size_t len)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = pat(seed, off + 8 * i);
}

/* Returns the offset of the first mismatching word, or -1. */
T_API long long check(const void *buf, uint64_t seed, uint64_t off,
		       size_t len)
{
	const uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i] != pat(seed, off + 8 * i))
			return off + 8 * i;
	return -1;
}

#endif /* MODULE_TEST_H */
