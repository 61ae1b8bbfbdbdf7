// SPDX-License-Identifier: GPL-2.0
/*
 * devpat: write, check or dump bytes at an offset of a device or file.
 *
 *   devpat [-m|-d|-b] write DEV OFFSET LEN SEED   fill with the pattern of SEED
 *   devpat [-m|-d|-b] check DEV OFFSET LEN SEED   exit 0 iff the bytes match it
 *   devpat [-m|-d|-b] fill  DEV OFFSET LEN BYTE   fill with one byte value
 *   devpat [-m|-d|-b] dump  DEV OFFSET LEN        hex dump to stdout
 *   devpat [-m|-d|-b] copyin DEV OFFSET LEN FILE  read() FILE's bytes at OFFSET
 *                                                 straight into DEV at OFFSET
 *
 * The pattern byte at absolute offset X depends only on SEED and X, so a
 * sub-range written by one host can be checked by another at any offset.
 * Access: -d O_DIRECT pread/pwrite (default for block devices and files;
 * the span is widened to 4 KiB alignment, read-modify-write), -m a shared
 * mmap (default for character devices such as /dev/dax0.0; the mapping is
 * 2 MiB aligned as devdax requires; writes are msync'ed), -b buffered I/O.
 * OFFSET and LEN accept 0x hex and K/M/G suffixes.
 * Exit: 0 ok, 1 check mismatch, 2 usage or I/O error.
 */
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

#define ALIGN_IO  4096ULL
#define ALIGN_MAP (2ULL << 20)

static void die(const char *what)
{
	fprintf(stderr, "devpat: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': case 'g': v <<= 10; /* fall through */
	case 'M': case 'm': v <<= 10; /* fall through */
	case 'K': case 'k': v <<= 10; end++; break;
	}
	if (*end || end == s) {
		fprintf(stderr, "devpat: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static uint8_t pattern(uint64_t seed, uint64_t x)
{
	uint64_t v = (x + 1) * 0x9E3779B97F4A7C15ULL ^ seed;

	v ^= v >> 29;
	v *= 0xBF58476D1CE4E5B9ULL;
	return (uint8_t)(v >> 32);
}
enum { WRITE, CHECK, FILL, DUMP, COPYIN };
static const char *const ops[] = { "write", "check", "fill", "dump", "copyin", NULL };

int main(int argc, char **argv)
{
	int mode = 0, fd, src = -1, opt, op, ret = 0;
	uint64_t off, len, seed = 0, lo, hi, i, bad = 0;
	struct stat st;
	uint8_t *base, *p;

	while ((opt = getopt(argc, argv, "mdb")) != -1)
		mode = opt;
	if (argc - optind != 5 - (argc - optind > 0 && !strcmp(argv[optind], "dump")))
		goto usage;
	for (op = 0; ops[op] && strcmp(argv[optind], ops[op]); op++)
		;
	if (!ops[op])
		goto usage;
	off = num(argv[optind + 2]);
	len = num(argv[optind + 3]);
	if (op == WRITE || op == CHECK)
		for (const char *s = argv[optind + 4]; *s; s++)	/* FNV-1a */
			seed = (seed ^ (uint8_t)*s) * 0x100000001B3ULL;
	if (op == FILL)
		seed = num(argv[optind + 4]) & 0xff;
	if (op == COPYIN && (src = open(argv[optind + 4], O_RDONLY)) < 0)
		die(argv[optind + 4]);

	fd = open(argv[optind + 1], op == CHECK || op == DUMP ? O_RDONLY : O_RDWR);
	if (fd < 0 || fstat(fd, &st))
		die(argv[optind + 1]);
	if (!mode)
		mode = S_ISCHR(st.st_mode) ? 'm' : 'd';
	if (mode == 'd' && fcntl(fd, F_SETFL, O_DIRECT))
		die("O_DIRECT");

	if (mode == 'm') {
		lo = off & ~(ALIGN_MAP - 1);
		hi = (off + len + ALIGN_MAP - 1) & ~(ALIGN_MAP - 1);
		base = mmap(NULL, hi - lo, op == CHECK || op == DUMP ? PROT_READ :
			    PROT_READ | PROT_WRITE, MAP_SHARED, fd, lo);
		if (base == MAP_FAILED)
			die("mmap");
	} else {
		lo = mode == 'd' ? off & ~(ALIGN_IO - 1) : off;
		hi = mode == 'd' ? (off + len + ALIGN_IO - 1) & ~(ALIGN_IO - 1) : off + len;
		if (posix_memalign((void **)&base, ALIGN_IO, hi - lo + 1))
			die("malloc");
		if (pread(fd, base, hi - lo, lo) != (ssize_t)(hi - lo))
			die("pread (short or failed)");
	}
	p = base + (off - lo);

	/* copyin: read() straight into the buffer (a DAX mapping with -m, so
	 * the source file system pins device pages, e.g. 9p zero-copy). */
	if (op == COPYIN && pread(src, p, len, off) != (ssize_t)len)
		die("copyin read (short or failed)");
	for (i = 0; i < len && op != COPYIN; i++) {
		uint8_t want = op == FILL ? (uint8_t)seed : pattern(seed, off + i);

		if (op == WRITE || op == FILL) {
			p[i] = want;
		} else if (op == CHECK) {
			if (p[i] != want && !bad++)
				fprintf(stderr, "devpat: mismatch at 0x%llx: got 0x%02x, expected 0x%02x\n",
					(unsigned long long)(off + i), p[i], want);
		} else {
			if (i % 16 == 0)
				printf("%s%08llx:", i ? "\n" : "", (unsigned long long)(off + i));
			printf(" %02x", p[i]);
		}
	}
	if (op == DUMP && len)
		printf("\n");
	if (bad) {
		fprintf(stderr, "devpat: %llu of %llu bytes differ\n",
			(unsigned long long)bad, (unsigned long long)len);
		ret = 1;
	}
	if (op == CHECK || op == DUMP)
		return ret;
	/* device-dax has no fsync: msync fails with EINVAL there */
	if (mode == 'm' && msync(base, hi - lo, MS_SYNC) && !(S_ISCHR(st.st_mode) && errno == EINVAL))
		die("msync");
	if (mode != 'm' && pwrite(fd, base, hi - lo, lo) != (ssize_t)(hi - lo))
		die("pwrite (short or failed)");
	if (mode == 'b' && fsync(fd))
		die("fsync");
	return ret;
usage:
	fprintf(stderr, "usage: devpat [-m|-d|-b] write|check|fill|copyin DEV OFFSET LEN SEED|BYTE|FILE\n"
		"       devpat [-m|-d|-b] dump DEV OFFSET LEN\n");
	return 2;
}
