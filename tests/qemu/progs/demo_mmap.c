// SPDX-License-Identifier: GPL-2.0
/*
 * demo_mmap - map a famfs file and use it as memory.
 *
 *   demo_mmap write FILE TEXT   through a MAP_SHARED mapping: TEXT (with its
 *                               NUL) at the start of FILE, the rest of the
 *                               file a pattern seeded by TEXT; msync(MS_SYNC)
 *   demo_mmap check FILE TEXT   map FILE and check every byte against what
 *                               "write FILE TEXT" stores; prints the text
 *                               found and the verdict; exit 0 iff all match
 *   demo_mmap read FILE [N]     print the first N bytes (default: up to the
 *                               first NUL, at most 4096) read through a mapping
 *   demo_mmap sum FILE          print an FNV-1a checksum of the whole file,
 *                               read through a mapping
 *
 * Exit status: 0 success, 1 check found other bytes, 2 error.
 *
 * The point of the demo: a famfs file is just memory.  What one host stores
 * through its mapping, another host loads through its own.  The pattern is
 * written and checked 8 bytes at a time (on emulated CXL every access to the
 * window is an MMIO exit).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void *map_file(const char *path, int writable, size_t *len)
{
	struct stat st;
	void *p;
	int fd;

	fd = open(path, writable ? O_RDWR : O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "demo_mmap: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	if (st.st_size == 0) {
		fprintf(stderr, "demo_mmap: %s: empty file\n", path);
		exit(2);
	}
	p = mmap(NULL, st.st_size, PROT_READ | (writable ? PROT_WRITE : 0),
		 MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		fprintf(stderr, "demo_mmap: mmap %s: %s\n", path, strerror(errno));
		exit(2);
	}
	close(fd);
	*len = st.st_size;
	return p;
}

static uint64_t fnv1a(const void *buf, size_t len)
{
	const unsigned char *b = buf;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* The 8-byte word at word index i of the pattern seeded by TEXT. */
static uint64_t pattern(uint64_t seed, size_t i)
{
	uint64_t x = seed + (i + 1) * 0x9e3779b97f4a7c15ULL;

	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Where the pattern starts: after TEXT and its NUL, 8-byte aligned. */
static size_t pattern_start(size_t textlen)
{
	return (textlen + 1 + 7) & ~(size_t)7;
}

static int do_write(const char *path, const char *text)
{
	size_t len, n = strlen(text), i, start = pattern_start(n);
	uint64_t seed = fnv1a(text, n);
	char *p = map_file(path, 1, &len);

	if (start > len) {
		fprintf(stderr, "demo_mmap: %s: text longer than the file\n", path);
		return 2;
	}
	memset(p, 0, start);
	memcpy(p, text, n);
	for (i = start / 8; i < len / 8; i++)
		((volatile uint64_t *)p)[i] = pattern(seed, i);
	for (i = len & ~(size_t)7; i < len; i++)
		p[i] = (char)pattern(seed, i / 8);
	if (msync(p, len, MS_SYNC) < 0) {
		fprintf(stderr, "demo_mmap: msync %s: %s\n", path, strerror(errno));
		return 2;
	}
	return 0;
}

static int do_check(const char *path, const char *text)
{
	size_t len, n = strlen(text), i, start = pattern_start(n), bad = 0;
	size_t first = 0;
	uint64_t seed = fnv1a(text, n);
	const char *p = map_file(path, 0, &len);

	if (start > len) {
		fprintf(stderr, "demo_mmap: %s: %zu bytes, shorter than the text\n", path, len);
		return 2;
	}
	printf("demo_mmap: %s: the text at offset 0: '%.*s'\n", path,
	       (int)strnlen(p, n < 200 ? n : 200), p);
	for (i = 0; i < start; i++) {
		if (p[i] != (i < n ? text[i] : 0) && !bad++)
			first = i;
	}
	for (i = start / 8; i < len / 8; i++) {
		if (((const volatile uint64_t *)p)[i] != pattern(seed, i) && !bad++)
			first = i * 8;
	}
	for (i = len & ~(size_t)7; i < len; i++) {
		if (p[i] != (char)pattern(seed, i / 8) && !bad++)
			first = i;
	}
	if (bad) {
		printf("demo_mmap: %s: NOT what was written: first difference at offset %zu "
		       "(%zu of %zu bytes or words differ)\n", path, first, bad, len);
		return 1;
	}
	printf("demo_mmap: %s: all %zu bytes are what the writer stored\n", path, len);
	return 0;
}

int main(int argc, char **argv)
{
	size_t len, n;
	char *p;

	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "check"))
		return do_check(argv[2], argv[3]);
	if (argc >= 3 && !strcmp(argv[1], "read")) {
		p = map_file(argv[2], 0, &len);
		n = argc > 3 ? strtoul(argv[3], NULL, 0) : strnlen(p, len < 4096 ? len : 4096);
		fwrite(p, 1, n < len ? n : len, stdout);
		putchar('\n');
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "sum")) {
		p = map_file(argv[2], 0, &len);
		printf("%016" PRIx64 "\n", fnv1a(p, len));
		return 0;
	}
	fprintf(stderr, "usage: demo_mmap write FILE TEXT | check FILE TEXT | read FILE [N] | sum FILE\n");
	return 2;
}
