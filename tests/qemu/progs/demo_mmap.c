// SPDX-License-Identifier: GPL-2.0
/*
 * demo_mmap - map a famfs file and use it as memory.
 *
 *   demo_mmap write FILE TEXT   store TEXT at the start of FILE through a
 *                               MAP_SHARED mapping, then msync(MS_SYNC)
 *   demo_mmap read FILE [N]     print the first N bytes (default: up to the
 *                               first NUL, at most 4096) read through a mapping
 *   demo_mmap sum FILE          print an FNV-1a checksum of the whole file,
 *                               read through a mapping
 *
 * The point of the demo: a famfs file is just memory.  What one host stores
 * through its mapping, another host loads through its own.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
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

int main(int argc, char **argv)
{
	size_t len, n, i;
	char *p;

	if (argc >= 4 && !strcmp(argv[1], "write")) {
		p = map_file(argv[2], 1, &len);
		n = strlen(argv[3]) + 1;
		if (n > len) {
			fprintf(stderr, "demo_mmap: %s: text longer than the file\n", argv[2]);
			return 2;
		}
		memcpy(p, argv[3], n);
		if (msync(p, len, MS_SYNC) < 0) {
			fprintf(stderr, "demo_mmap: msync %s: %s\n", argv[2], strerror(errno));
			return 2;
		}
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "read")) {
		p = map_file(argv[2], 0, &len);
		n = argc > 3 ? strtoul(argv[3], NULL, 0) : strnlen(p, len < 4096 ? len : 4096);
		fwrite(p, 1, n < len ? n : len, stdout);
		putchar('\n');
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "sum")) {
		uint64_t h = 0xcbf29ce484222325ULL;

		p = map_file(argv[2], 0, &len);
		for (i = 0; i < len; i++)
			h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
		printf("%016" PRIx64 "\n", h);
		return 0;
	}
	fprintf(stderr, "usage: demo_mmap write FILE TEXT | read FILE [N] | sum FILE\n");
	return 1;
}
