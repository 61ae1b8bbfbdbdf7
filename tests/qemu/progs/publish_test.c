// SPDX-License-Identifier: GPL-2.0
/*
 * publish_test: writing and reading a famfs file the way another host must
 * (suites/publish.sh).  Exit 0 on success, 1 on a failure (with a message
 * on stderr), 2 for "not supported here" (mapsync).
 *
 *   publish_test write FILE SEED HOW   fill FILE with pattern SEED through a
 *                                      shared mapping, then publish it:
 *                                      HOW = msync | fsync | fdatasync | none
 *   publish_test pwrite FILE SEED      fill FILE with pattern SEED by write(2)
 *                                      (published when write returns)
 *   publish_test dirty FILE HOW [OFF...] store one byte at each offset through
 *                                      a shared mapping, then HOW (as above);
 *                                      prints the number of distinct 4 KiB
 *                                      and 2 MiB units dirtied
 *   publish_test check FILE SEED HOW   FILE holds pattern SEED; HOW = mmap:
 *                                      drop this CPU's lines of the mapping
 *                                      (clflush) and read through it; read:
 *                                      pread(2)
 *   publish_test mapsync FILE          mmap(MAP_SHARED_VALIDATE|MAP_SYNC):
 *                                      0 if offered (and a store + clflush
 *                                      through it works), 2 if EOPNOTSUPP
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

static int fail(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "publish_test: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return 1;
}

/* byte i of pattern seed */
static uint8_t pat(uint64_t seed, uint64_t i)
{
	uint64_t x = (seed + 1) * 0x9e3779b97f4a7c15ULL ^ (i / 8) * 0xbf58476d1ce4e5b9ULL;

	x ^= x >> 31;
	return (uint8_t)(x >> ((i % 8) * 8));
}

static void cpu_drop(const void *p, size_t len)
{
#if defined(__x86_64__)
	for (uintptr_t a = (uintptr_t)p & ~63UL; a < (uintptr_t)p + len; a += 64)
		__builtin_ia32_clflush((const void *)a);
	__builtin_ia32_mfence();
#else
	(void)p;
	(void)len;
	__sync_synchronize();
#endif
}

static int publish(int fd, void *a, size_t len, const char *how)
{
	int rc;

	if (!strcmp(how, "msync"))
		rc = msync(a, len, MS_SYNC);
	else if (!strcmp(how, "fsync"))
		rc = fsync(fd);
	else if (!strcmp(how, "fdatasync"))
		rc = fdatasync(fd);
	else if (!strcmp(how, "none"))
		rc = 0;
	else
		return fail("unknown way to publish '%s'%s", how, "");
	if (rc)
		return fail("%s: %s", how, strerror(errno));
	return 0;
}

static int open_map(const char *file, int flags, void **a, size_t *len)
{
	struct stat st;
	int fd = open(file, flags);

	if (fd < 0 || fstat(fd, &st)) {
		fail("%s: %s", file, strerror(errno));
		return -1;
	}
	*len = (size_t)st.st_size;
	*a = mmap(NULL, *len, PROT_READ | (flags == O_RDWR ? PROT_WRITE : 0),
		  MAP_SHARED, fd, 0);
	if (*a == MAP_FAILED) {
		fail("%s: mmap: %s", file, strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int cmd_write(const char *file, uint64_t seed, const char *how)
{
	size_t len;
	void *a;
	int fd = open_map(file, O_RDWR, &a, &len), rc;

	if (fd < 0)
		return 1;
	for (size_t i = 0; i < len; i++)
		((uint8_t *)a)[i] = pat(seed, i);
	rc = publish(fd, a, len, how);
	munmap(a, len);
	close(fd);
	return rc;
}

static int cmd_pwrite(const char *file, uint64_t seed)
{
	struct stat st;
	uint8_t *buf;
	int fd = open(file, O_WRONLY);
	ssize_t n;

	if (fd < 0 || fstat(fd, &st))
		return fail("%s: %s", file, strerror(errno));
	buf = malloc((size_t)st.st_size);
	if (!buf)
		return fail("%s: %s", file, "out of memory");
	for (off_t i = 0; i < st.st_size; i++)
		buf[i] = pat(seed, (uint64_t)i);
	n = pwrite(fd, buf, (size_t)st.st_size, 0);
	free(buf);
	close(fd);
	if (n != st.st_size)
		return fail("%s: write: %s", file, n < 0 ? strerror(errno) : "short");
	return 0;
}

static int cmd_dirty(const char *file, const char *how, int n, char **offs)
{
	uint64_t pages[64], pmds[64];
	int np = 0, nm = 0, rc;
	size_t len;
	void *a;
	int fd = open_map(file, O_RDWR, &a, &len);

	if (fd < 0)
		return 1;
	for (int i = 0; i < n && i < 64; i++) {
		uint64_t off = strtoull(offs[i], NULL, 0);
		bool seen;

		if (off >= len)
			return fail("offset %s beyond %s", offs[i], file);
		((volatile uint8_t *)a)[off] ^= 0x5a;
		seen = false;
		for (int k = 0; k < np; k++)
			seen |= pages[k] == off >> 12;
		if (!seen)
			pages[np++] = off >> 12;
		seen = false;
		for (int k = 0; k < nm; k++)
			seen |= pmds[k] == off >> 21;
		if (!seen)
			pmds[nm++] = off >> 21;
	}
	rc = publish(fd, a, len, how);
	printf("pages %d pmds %d\n", np, nm);
	munmap(a, len);
	close(fd);
	return rc;
}

static int cmd_check(const char *file, uint64_t seed, const char *how)
{
	struct stat st;
	uint8_t *buf;
	size_t len;
	void *a = NULL;
	int fd;

	if (!strcmp(how, "mmap")) {
		fd = open_map(file, O_RDONLY, &a, &len);
		if (fd < 0)
			return 1;
		cpu_drop(a, len);
		buf = a;
	} else {
		fd = open(file, O_RDONLY);
		if (fd < 0 || fstat(fd, &st))
			return fail("%s: %s", file, strerror(errno));
		len = (size_t)st.st_size;
		buf = malloc(len);
		if (!buf || pread(fd, buf, len, 0) != (ssize_t)len)
			return fail("%s: read: %s", file, strerror(errno));
	}
	for (size_t i = 0; i < len; i++)
		if (buf[i] != pat(seed, i)) {
			char at[64];

			snprintf(at, sizeof(at), "%zu", i);
			return fail("%s: pattern differs at byte %s", file, at);
		}
	if (a)
		munmap(a, len);
	else
		free(buf);
	close(fd);
	return 0;
}

static int cmd_mapsync(const char *file)
{
	struct stat st;
	uint8_t *a;
	int fd = open(file, O_RDWR);

	if (fd < 0 || fstat(fd, &st))
		return fail("%s: %s", file, strerror(errno));
	a = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		 MAP_SHARED_VALIDATE | MAP_SYNC, fd, 0);
	if (a == MAP_FAILED) {
		int e = errno;

		close(fd);
		fprintf(stderr, "publish_test: %s: mmap MAP_SYNC: %s\n", file,
			strerror(e));
		return e == EOPNOTSUPP ? 2 : 1;
	}
	a[0] ^= 1;
	cpu_drop(a, 64);
	a[0] ^= 1;
	cpu_drop(a, 64);
	munmap(a, (size_t)st.st_size);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], strtoull(argv[3], NULL, 0), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "pwrite"))
		return cmd_pwrite(argv[2], strtoull(argv[3], NULL, 0));
	if (argc >= 4 && !strcmp(argv[1], "dirty"))
		return cmd_dirty(argv[2], argv[3], argc - 4, argv + 4);
	if (argc == 5 && !strcmp(argv[1], "check"))
		return cmd_check(argv[2], strtoull(argv[3], NULL, 0), argv[4]);
	if (argc == 3 && !strcmp(argv[1], "mapsync"))
		return cmd_mapsync(argv[2]);
	fprintf(stderr, "usage: publish_test write|pwrite|dirty|check|mapsync ... (see the source)\n");
	return 1;
}
