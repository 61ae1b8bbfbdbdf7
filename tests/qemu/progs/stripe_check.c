// SPDX-License-Identifier: GPL-2.0
/*
 * stripe_check: where the bytes of an interleaved famfs file really are.
 *
 *   stripe_check write FILE SEED     fill FILE through a shared mapping with
 *                                    the pattern of SEED, then msync
 *   stripe_check check FILE SEED     compare FILE with it, through a mapping
 *                                    and with read(2)
 *   stripe_check dev DEV SIZE SEED CHUNK OFF0 [OFF1 ...]
 *                                    find every chunk of a SIZE-byte file on
 *                                    DEV: chunk c is chunk c / n of strip
 *                                    c % n, i.e. at OFFk + (c / n) * CHUNK
 *                                    with k = c % n (n strips at OFF0..)
 *
 * The pattern byte at file offset X depends only on SEED and X.  "dev"
 * walks the chunks one by one (deliberately not with famfs_interleave.h,
 * which it checks); it reads a block device with O_DIRECT and maps a
 * character device (device-dax) 2 MiB-aligned.  Numbers take 0x and K/M/G.
 * Exit: 0 all bytes right, 1 a mismatch (the first one is named), 2 usage
 * or I/O error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_STRIPS 16

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	}
	if (errno || end == s || *end) {
		fprintf(stderr, "stripe_check: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static uint8_t pat(uint64_t seed, uint64_t off)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (off >> 3) + 1;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return (uint8_t)(z >> ((off & 7) * 8));
}

/* the first offset in [0, len) where buf differs from the pattern at base */
static int64_t mismatch(const uint8_t *buf, uint64_t len, uint64_t seed,
			uint64_t base)
{
	for (uint64_t i = 0; i < len; i++)
		if (buf[i] != pat(seed, base + i))
			return (int64_t)i;
	return -1;
}

static void *map_file(const char *path, int flags, uint64_t *size, int *fd)
{
	struct stat st;
	void *a;

	*fd = open(path, flags);
	if (*fd < 0 || fstat(*fd, &st)) {
		fprintf(stderr, "stripe_check: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	*size = (uint64_t)st.st_size;
	if (!*size) {
		fprintf(stderr, "stripe_check: %s: empty\n", path);
		exit(2);
	}
	a = mmap(NULL, *size, PROT_READ | (flags == O_RDWR ? PROT_WRITE : 0),
		 MAP_SHARED, *fd, 0);
	if (a == MAP_FAILED) {
		fprintf(stderr, "stripe_check: %s: mmap: %s\n", path, strerror(errno));
		exit(2);
	}
	return a;
}

static int do_write(const char *path, uint64_t seed)
{
	uint64_t size;
	int fd;
	uint8_t *a = map_file(path, O_RDWR, &size, &fd);

	for (uint64_t i = 0; i < size; i++)
		a[i] = pat(seed, i);
	if (msync(a, size, MS_SYNC)) {
		fprintf(stderr, "stripe_check: %s: msync: %s\n", path, strerror(errno));
		return 2;
	}
	munmap(a, size);
	close(fd);
	return 0;
}

static int do_check(const char *path, uint64_t seed)
{
	uint64_t size;
	int fd;
	uint8_t *a = map_file(path, O_RDONLY, &size, &fd), *buf;
	int64_t bad = mismatch(a, size, seed, 0);

	munmap(a, size);
	if (bad >= 0) {
		fprintf(stderr, "stripe_check: %s: mapping differs at byte %lld\n",
			path, (long long)bad);
		return 1;
	}
	buf = malloc(size);
	if (!buf || pread(fd, buf, size, 0) != (ssize_t)size) {
		fprintf(stderr, "stripe_check: %s: read: %s\n", path, strerror(errno));
		return 2;
	}
	bad = mismatch(buf, size, seed, 0);
	free(buf);
	close(fd);
	if (bad >= 0) {
		fprintf(stderr, "stripe_check: %s: read(2) differs at byte %lld\n",
			path, (long long)bad);
		return 1;
	}
	return 0;
}

/* len bytes of dev at off (2 MiB aligned) into a buffer */
static int dev_read(int fd, bool chr, uint64_t off, uint64_t len, uint8_t *buf)
{
	uint64_t rlen = (len + 4095) & ~4095ULL;

	if (chr) {	/* device-dax: 2 MiB-aligned mappings only */
		uint64_t mlen = (len + (2ULL << 20) - 1) & ~((2ULL << 20) - 1);
		void *a = mmap(NULL, mlen, PROT_READ, MAP_SHARED, fd, (off_t)off);

		if (a == MAP_FAILED)
			return -errno;
		memcpy(buf, a, len);
		munmap(a, mlen);
		return 0;
	}
	if (pread(fd, buf, rlen, (off_t)off) != (ssize_t)rlen)
		return errno ? -errno : -EIO;
	return 0;
}

static int do_dev(int argc, char **argv)
{
	uint64_t size = num(argv[3]), seed = num(argv[4]), chunk = num(argv[5]);
	uint64_t off[MAX_STRIPS], nchunks;
	unsigned n = (unsigned)(argc - 6);
	struct stat st;
	uint8_t *buf;
	bool chr;
	int fd;

	if (!n || n > MAX_STRIPS || !chunk || chunk % (2ULL << 20) || !size) {
		fprintf(stderr, "stripe_check dev: 1..16 strips, chunk a multiple of 2 MiB, size > 0\n");
		return 2;
	}
	for (unsigned k = 0; k < n; k++)
		off[k] = num(argv[6 + k]);
	fd = open(argv[2], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "stripe_check: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	chr = S_ISCHR(st.st_mode);
	if (!chr) {		/* the memory, not a page cache of it */
		close(fd);
		fd = open(argv[2], O_RDONLY | O_DIRECT);
		if (fd < 0) {
			fprintf(stderr, "stripe_check: %s: O_DIRECT: %s\n", argv[2],
				strerror(errno));
			return 2;
		}
	}
	if (posix_memalign((void **)&buf, 4096, chunk + 4096)) {
		fprintf(stderr, "stripe_check: out of memory\n");
		return 2;
	}
	nchunks = size / chunk + (size % chunk != 0);
	for (uint64_t c = 0; c < nchunks; c++) {
		unsigned k = (unsigned)(c % n);
		uint64_t at = off[k] + (c / n) * chunk;
		uint64_t len = c + 1 < nchunks ? chunk : size - c * chunk;
		int64_t bad;
		int rc = dev_read(fd, chr, at, len, buf);

		if (rc) {
			fprintf(stderr, "stripe_check: %s: read at %llu: %s\n",
				argv[2], (unsigned long long)at, strerror(-rc));
			return 2;
		}
		bad = mismatch(buf, len, seed, c * chunk);
		if (bad >= 0) {
			fprintf(stderr, "stripe_check: chunk %llu (file offset %llu) is not at strip %u + %llu = device offset %llu: byte %lld differs\n",
				(unsigned long long)c,
				(unsigned long long)(c * chunk), k,
				(unsigned long long)((c / n) * chunk),
				(unsigned long long)at, (long long)bad);
			return 1;
		}
	}
	printf("stripe_check: %llu chunks found at their strips' offsets\n",
	       (unsigned long long)nchunks);
	free(buf);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], num(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "check"))
		return do_check(argv[2], num(argv[3]));
	if (argc >= 7 && !strcmp(argv[1], "dev"))
		return do_dev(argc, argv);
	fprintf(stderr, "usage: stripe_check write|check FILE SEED\n"
			"       stripe_check dev DEV SIZE SEED CHUNK OFF0 [OFF1 ...]\n");
	return 2;
}
