/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw device access shared by the guest tools that read and write a device
 * (or image file) directly, outside famfs: devpat and hostile_corrupt.
 *
 * A span of the device is reached either through a shared mapping (2 MiB
 * aligned, as device-dax requires) or read into a buffer with pread (the
 * span widened to @align, 4 KiB for O_DIRECT) and written back with pwrite.
 * Errors print "PROGRAM: what: reason" on stderr and exit 2.
 */
#ifndef DEV_TEST_H
#define DEV_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALIGN_IO	4096ULL
#define ALIGN_MAP	(2ULL << 20)

/* Not every program uses every helper. */
#define DT_API		static __attribute__((unused))

DT_API __attribute__((noreturn)) void die(const char *what)
{
	fprintf(stderr, "%s: %s: %s\n", program_invocation_short_name, what,
		strerror(errno));
	exit(2);
}

/* A number: 0x hex or decimal, with an optional K, M or G suffix. */
DT_API uint64_t num(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	}
	if (*end || end == s) {
		fprintf(stderr, "%s: bad number '%s'\n",
			program_invocation_short_name, s);
		exit(2);
	}
	return v;
}

/* Device bytes [off, off+len) at p, inside [lo, hi) at base. */
struct dt_span {
	uint8_t		*base, *p;
	uint64_t	lo, hi;
	int		mapped;
};

/*
 * Reaches [@off, @off+@len) of @fd: mapped shared with @prot if @map, else
 * read into a buffer, the span widened to @align (1: not widened).
 */
DT_API void dt_get(struct dt_span *s, int fd, int map, int prot,
		   uint64_t align, uint64_t off, uint64_t len)
{
	s->mapped = map;
	if (map)
		align = ALIGN_MAP;
	s->lo = off & ~(align - 1);
	s->hi = (off + len + align - 1) & ~(align - 1);
	if (map) {
		s->base = mmap(NULL, s->hi - s->lo, prot, MAP_SHARED, fd,
			       (off_t)s->lo);
		if (s->base == MAP_FAILED)
			die("mmap");
	} else {
		if (posix_memalign((void **)&s->base, ALIGN_IO,
				   s->hi - s->lo + 1))
			die("memory");
		if (pread(fd, s->base, s->hi - s->lo, (off_t)s->lo) !=
		    (ssize_t)(s->hi - s->lo))
			die("pread (short or failed)");
	}
	s->p = s->base + (off - s->lo);
}

/*
 * Writes the span back if @write (msync, or pwrite then fsync if @sync)
 * and lets it go.  device-dax has no fsync: msync fails with EINVAL there.
 */
DT_API void dt_put(struct dt_span *s, int fd, int write, int sync)
{
	size_t n = s->hi - s->lo;

	if (s->mapped) {
		if (write && msync(s->base, n, MS_SYNC) && errno != EINVAL)
			die("msync");
		munmap(s->base, n);
		return;
	}
	if (write && pwrite(fd, s->base, n, (off_t)s->lo) != (ssize_t)n)
		die("pwrite (short or failed)");
	if (write && sync && fsync(fd))
		die("fsync");
	free(s->base);
}

#endif /* DEV_TEST_H */
