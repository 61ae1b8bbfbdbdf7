// SPDX-License-Identifier: GPL-2.0
/*
 * devpat: write, check or dump bytes at an offset of a device or file.
 *
 *   devpat [-m|-M|-d|-b] write DEV OFFSET LEN SEED   fill with the pattern of SEED
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
 * 2 MiB aligned as devdax requires; writes are msync'ed), -M the same
 * mapping with no msync (stores left for sync(2) or umount), -b buffered I/O.
 * OFFSET and LEN accept 0x hex and K/M/G suffixes.
 * Exit: 0 ok, 1 check mismatch, 2 usage or I/O error.
 */
#include "dev_test.h"

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
	uint64_t off, len, seed = 0, i, bad = 0;
	struct dt_span sp;
	struct stat st;
	uint8_t *p;

	while ((opt = getopt(argc, argv, "mMdb")) != -1)
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

	dt_get(&sp, fd, mode == 'm' || mode == 'M',
	       op == CHECK || op == DUMP ? PROT_READ : PROT_READ | PROT_WRITE, mode == 'd' ? ALIGN_IO : 1, off, len);
	p = sp.p;

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
	dt_put(&sp, fd, op != CHECK && op != DUMP && mode != 'M', mode == 'b');
	return ret;
usage:
	fprintf(stderr, "usage: devpat [-m|-M|-d|-b] write|check|fill|copyin DEV OFFSET LEN SEED|BYTE|FILE\n"
		"       devpat [-m|-d|-b] dump DEV OFFSET LEN\n");
	return 2;
}
