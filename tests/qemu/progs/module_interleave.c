// SPDX-License-Identifier: GPL-2.0
/*
 * module_interleave MPT DEV [TEST...]: interleaved (striped) files of
 * famfs.ko on a fresh mount of DEV at MPT, created directly with
 * FAMFSIOC_MAP_CREATE_V2.  Tests: seed ragged order two rw reverse (default:
 * all of them), pmd (run separately, so the suite can trace the faults) and
 * poison (last: a memory failure in a strip fails the mount); prefill (on a
 * /dev/daxX.Y only, before the mount: see below).
 *
 * Each file gets a pattern written through a MAP_SHARED mapping (then
 * msync), and the device is checked to hold every chunk at its strip's
 * place, which a naive loop over the chunks works out (one strip after the
 * other, each strip filled in order): not famfs_interleave_pos(), which the
 * module uses.  "reverse" writes the device and reads the file with read(2).
 *
 * DEV is a pmem block device (read and written with O_DIRECT, no O_EXCL:
 * the same memory the DAX mappings use) or a /dev/daxX.Y bound to famfs,
 * which while mounted can only be mapped read-only: there the device write
 * of "reverse" is done before the mount by "prefill" (same layout, same
 * pattern, reported as reverse-dev-write), which maps DEV read-write, and
 * the mounted "reverse" only reads the file and compares.
 *
 * Device layout (at least 512 MiB):
 *   seed     4 strips x 6M at 64M 72M 80M 88M        2M chunks, 24 MiB
 *   ragged   3 strips x 12M at 100M 112M 124M        4M chunks, 25M+12345
 *   order    4 strips x 4M at 170M 150M 160M 140M    2M chunks, 16 MiB
 *   two      3 strips x 4M at 180M 184M 188M         2M chunks, 12 MiB, then
 *            2 strips at 200M (8M) 210M (4M)         4M chunks, 8M+100
 *   rw       2 strips x 4M at 220M 230M, then 1 strip at 240M (2M)
 *   reverse  as two, at 400M..
 *   pmd      4 strips x 16M at 256M 288M 272M 304M   2M chunks, 64 MiB
 *   poison   4 strips x 4M at 700M 710M 720M 730M    2M chunks, 16 MiB
 */
#include "module_test.h"

static const char *mpt;
static int cdev;		/* DEV is a /dev/daxX.Y */
static struct t_dev dev;

/* A striped file: its extents as given to MAP_CREATE_V2. */
struct ifile {
	const char		*name;
	unsigned long long	size;
	unsigned int		n;
	struct famfs_ioc_iext	ie[2];
	int			fd;
	char			*p;	/* MAP_SHARED, read-write */
};

static int ifile_create(struct ifile *f)
{
	char n[128];

	f->fd = mkfile(mpt, f->name);
	f->p = MAP_FAILED;
	snprintf(n, sizeof(n), "%s-map", f->name);
	if (!t_ok(n, mapv2(f->fd, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG,
			   f->size, f->n, f->ie)))
		return 0;
	f->p = mmap(NULL, f->size, PROT_READ | PROT_WRITE, MAP_SHARED, f->fd,
		    0);
	snprintf(n, sizeof(n), "%s-mmap", f->name);
	if (f->p == MAP_FAILED) {
		t_fail(n, "%s", t_errname(errno));
		return 0;
	}
	return 1;
}

static void ifile_close(struct ifile *f)
{
	if (f->p != MAP_FAILED)
		munmap(f->p, f->size);
	close(f->fd);
}

/*
 * Calls @fn for every chunk of @f in file order with the chunk's file
 * offset, device offset and length (up to the end of the file), working the
 * layout out naively: chunk after chunk, strip after strip, each strip
 * filled from its start.  Stops at the first @fn that returns 0.
 */
static int walk(const struct ifile *f,
		int (*fn)(const struct ifile *f, unsigned long long foff,
			  unsigned long long doff, unsigned long long len,
			  void *arg), void *arg)
{
	unsigned long long foff = 0;
	unsigned int i;

	for (i = 0; i < f->n; i++) {
		const struct famfs_ioc_iext *ie = &f->ie[i];
		unsigned long long used[FAMFS_IOC_MAX_STRIPS] = { 0 };
		unsigned long long done = 0, len;
		unsigned int s = 0;

		while (done < ie->nbytes && foff + done < f->size) {
			len = ie->chunk_size;
			if (len > ie->nbytes - done)
				len = ie->nbytes - done;
			if (len > f->size - foff - done)
				len = f->size - foff - done;
			if (!fn(f, foff + done, ie->strips[s].offset + used[s],
				len, arg))
				return 0;
			used[s] += ie->chunk_size;
			done += ie->chunk_size;
			if (++s == ie->nstrips)
				s = 0;
		}
		foff += ie->nbytes;
	}
	return 1;
}

static int chk_chunk(const struct ifile *f, unsigned long long foff,
		     unsigned long long doff, unsigned long long len, void *arg)
{
	char n[128];

	snprintf(n, sizeof(n), "%s-dev-chunk@%#llx", f->name, foff);
	/* Whole 8-byte words only: the ragged tail is checked by check(). */
	return t_devcheck(&dev, n, doff, len & ~7ULL, *(uint64_t *)arg, foff);
}

/* Every chunk of @f is at its place on the device. */
static void check_dev(const struct ifile *f, const char *what, uint64_t seed)
{
	char n[128];

	snprintf(n, sizeof(n), "%s-%s", f->name, what);
	if (walk(f, chk_chunk, &seed))
		t_pass(n);
}

/* Writes pattern @seed through the mapping (and msyncs): checks the device. */
static void write_map(struct ifile *f, uint64_t seed)
{
	char n[128];

	fill(f->p, seed, 0, f->size & ~7ULL);
	snprintf(n, sizeof(n), "%s-msync", f->name);
	t_ok(n, msync(f->p, f->size, MS_SYNC));
	check_dev(f, "mmap-on-device", seed);
}

/* read(2) of the whole file shows pattern @seed. */
static void read_all(const struct ifile *f, const char *what, uint64_t seed)
{
	char *buf = malloc(f->size), n[128];
	long long bad;

	snprintf(n, sizeof(n), "%s-%s", f->name, what);
	if (pread(f->fd, buf, f->size, 0) != (ssize_t)f->size)
		t_fail(n, "short read");
	else if ((bad = check(buf, seed, 0, f->size & ~7ULL)) >= 0)
		t_fail(n, "file offset %#llx differs", bad);
	else
		t_pass(n);
	free(buf);
}

static void strips(struct famfs_ioc_iext *ie, unsigned int nstrips,
		   unsigned long long chunk, unsigned long long nbytes,
		   unsigned long long strip_len,
		   const unsigned long long *offs)
{
	*ie = iext_mk(nstrips, chunk, nbytes, strip_len, offs);
}

static void test_seed(void)
{
	static const unsigned long long o[] = { 64 * MiB, 72 * MiB, 80 * MiB,
						88 * MiB };
	struct ifile f = { .name = "seed", .size = 24 * MiB, .n = 1 };
	const uint64_t seed = 0x5eed;

	strips(&f.ie[0], 4, TWO_MiB, 24 * MiB, 6 * MiB, o);
	if (ifile_create(&f)) {
		write_map(&f, seed);
		/* The seed examples, by hand. */
		t_devpass(&dev, "seed-offset-0", 64 * MiB, 4096, seed, 0);
		t_devpass(&dev, "seed-offset-4M", 80 * MiB, 4096, seed,
			  4 * MiB);
		t_devpass(&dev, "seed-offset-15M", 88 * MiB + 3 * MiB, 4096,
			  seed, 15 * MiB);
		read_all(&f, "read", seed);
	}
	ifile_close(&f);
}

static void test_ragged(void)
{
	static const unsigned long long o[] = { 100 * MiB, 112 * MiB,
						124 * MiB };
	struct ifile f = { .name = "ragged", .size = 25 * MiB + 12345,
			   .n = 1 };
	struct stat st;

	strips(&f.ie[0], 3, 4 * MiB, 25 * MiB + 12345, 12 * MiB, o);
	if (ifile_create(&f)) {
		fstat(f.fd, &st);
		t_equ("ragged-size", 25 * MiB + 12345, st.st_size);
		t_equ("ragged-blocks", 36 * MiB / 512, st.st_blocks);
		write_map(&f, 0x4a66);
		read_all(&f, "read", 0x4a66);
		/* The last bytes, past the last whole word. */
		memset(f.p + f.size - 1, 0x77, 1);
		msync(f.p, f.size, MS_SYNC);
		{
			unsigned char c = 0;

			pread(f.fd, &c, 1, f.size - 1);
			t_equ("ragged-last-byte", 0x77, c);
		}
	}
	ifile_close(&f);
}

static void test_order(void)
{
	static const unsigned long long o[] = { 170 * MiB, 150 * MiB,
						160 * MiB, 140 * MiB };
	struct ifile f = { .name = "order", .size = 16 * MiB, .n = 1 };

	strips(&f.ie[0], 4, TWO_MiB, 16 * MiB, 4 * MiB, o);
	if (ifile_create(&f)) {
		write_map(&f, 0x0bde);
		/* Chunk 3 (file 6M) is the first chunk of the 4th strip. */
		t_devpass(&dev, "order-chunk-3", 140 * MiB, 4096, 0x0bde,
			  6 * MiB);
		read_all(&f, "read", 0x0bde);
	}
	ifile_close(&f);
}

static void mk_two(struct ifile *f, const char *name,
		   unsigned long long base)
{
	const unsigned long long a[] = { base, base + 4 * MiB,
					 base + 8 * MiB };
	const unsigned long long b[] = { base + 20 * MiB, base + 30 * MiB };

	memset(f, 0, sizeof(*f));
	f->name = name;
	f->size = 20 * MiB + 100;
	f->n = 2;
	strips(&f->ie[0], 3, TWO_MiB, 12 * MiB, 4 * MiB, a);
	strips(&f->ie[1], 2, 4 * MiB, 8 * MiB + 100, 0, b);
	f->ie[1].strips[0].len = 8 * MiB;
	f->ie[1].strips[1].len = 4 * MiB;
}

static void test_two(void)
{
	struct ifile f;

	mk_two(&f, "two", 180 * MiB);
	if (ifile_create(&f)) {
		write_map(&f, 0x2222);
		read_all(&f, "read", 0x2222);
	}
	ifile_close(&f);
}

/* read(2)/write(2) at odd offsets across chunk and extent boundaries. */
static void test_rw(void)
{
	static const unsigned long long a[] = { 220 * MiB, 230 * MiB };
	static const unsigned long long b[] = { 240 * MiB };
	static const struct { unsigned long long off, len; } io[] = {
		{ TWO_MiB - 1001, 5003 },		/* chunk 0 -> 1 */
		{ TWO_MiB - 7, 2 * TWO_MiB + 77 },	/* 4 chunks */
		{ 8 * MiB - 4097, 8195 },		/* extent 0 -> 1 */
		{ 1, 9 * MiB + 99 },			/* nearly all */
	};
	struct ifile f = { .name = "rw", .size = 9 * MiB + 100, .n = 2 };
	unsigned char *buf = malloc(10 * MiB), *in = malloc(10 * MiB);
	unsigned long long i, j;
	char n[64];

	strips(&f.ie[0], 2, TWO_MiB, 8 * MiB, 4 * MiB, a);
	strips(&f.ie[1], 1, TWO_MiB, MiB + 100, TWO_MiB, b);
	if (!ifile_create(&f))
		goto out;
	for (i = 0; i < sizeof(io) / sizeof(io[0]); i++) {
		for (j = 0; j < io[i].len; j++)
			buf[j] = (unsigned char)(j * 13 + i + 1);
		snprintf(n, sizeof(n), "rw-write-%llu", i);
		t_equ(n, io[i].len, pwrite(f.fd, buf, io[i].len, io[i].off));
		memset(in, 0, io[i].len);
		snprintf(n, sizeof(n), "rw-read-%llu", i);
		t_equ(n, io[i].len, pread(f.fd, in, io[i].len, io[i].off));
		snprintf(n, sizeof(n), "rw-same-%llu", i);
		t_true(n, !memcmp(in, buf, io[i].len), "read back differs");
		snprintf(n, sizeof(n), "rw-mmap-sees-%llu", i);
		t_true(n, !memcmp(f.p + io[i].off, buf, io[i].len),
		       "the mapping does not show what write() wrote");
	}
	/* A pattern by write(2) of the whole file, found on the device. */
	fill(buf, 0x3333, 0, f.size & ~7ULL);
	t_equ("rw-write-all", f.size, pwrite(f.fd, buf, f.size, 0));
	check_dev(&f, "write-on-device", 0x3333);
	t_equ("rw-read-past-eof", 100, pread(f.fd, in, 1000, f.size - 100));
out:
	ifile_close(&f);
	free(buf);
	free(in);
}

static int fill_chunk(const struct ifile *f, unsigned long long foff,
		      unsigned long long doff, unsigned long long len,
		      void *arg)
{
	(void)f;
	return !t_devfill(&dev, doff, len, *(uint64_t *)arg, foff);
}

/* The pattern of "reverse" (and of "prefill"). */
static const uint64_t reverse_seed = 0x7e7e;

static void mk_reverse(struct ifile *f)
{
	mk_two(f, "reverse", 400 * MiB);
	f->size = 20 * MiB;	/* whole 4 KiB blocks for O_DIRECT */
	f->ie[1].nbytes = 8 * MiB;
}

/* Writes the pattern of "reverse" on the device, chunk by chunk. */
static int reverse_dev_write(const struct ifile *f)
{
	uint64_t seed = reverse_seed;

	if (!walk(f, fill_chunk, &seed)) {
		t_fail("reverse-dev-write", "%s", t_errname(errno));
		return 0;
	}
	t_pass("reverse-dev-write");
	return 1;
}

/*
 * The device written chunk by chunk (on a /dev/daxX.Y by "prefill", before
 * the mount); read(2) and the mapping see it.
 */
static void test_reverse(void)
{
	uint64_t seed = reverse_seed;
	struct ifile f;

	mk_reverse(&f);
	if (!ifile_create(&f))
		goto out;
	if (!cdev && !reverse_dev_write(&f))
		goto out;
	read_all(&f, "read", seed);
	t_true("reverse-mmap", check(f.p, seed, 0, f.size) < 0,
	       "the mapping does not show the device");
out:
	ifile_close(&f);
}

/*
 * A /dev/daxX.Y, not mounted, mapped read-write: the device write of
 * "reverse", which runs once it is mounted.
 */
static void test_prefill(void)
{
	struct ifile f;

	if (!cdev) {
		t_skip("prefill", "for a /dev/daxX.Y (a pmem device is written while mounted)");
		return;
	}
	mk_reverse(&f);
	reverse_dev_write(&f);
}

/* 64 MiB of 2 MiB chunks: 32 PMD faults writing, 32 reading. */
static void test_pmd(void)
{
	static const unsigned long long o[] = { 256 * MiB, 288 * MiB,
						272 * MiB, 304 * MiB };
	struct ifile f = { .name = "pmd", .size = 64 * MiB, .n = 1 };
	unsigned long sum;
	char *p;
	long nf;

	strips(&f.ie[0], 4, TWO_MiB, 64 * MiB, 16 * MiB, o);
	if (!ifile_create(&f))
		goto out;
	t_true("pmd-mmap-aligned", ((uintptr_t)f.p & (TWO_MiB - 1)) == 0,
	       "mmap did not return a 2 MiB aligned address");
	nf = t_touch_faults(f.p, f.size, 1, NULL);
	printf("info: %ld minor faults writing 64 MiB through MAP_SHARED\n",
	       nf);
	t_between("pmd-write-faults", 32, 40, nf,
		  "faults for 64 MiB (16384 means 4 KiB faults)");
	p = mmap(NULL, f.size, PROT_READ, MAP_SHARED, f.fd, 0);
	if (p == MAP_FAILED) {
		t_fail("pmd-mmap-read", "%s", t_errname(errno));
		goto out;
	}
	nf = t_touch_faults(p, f.size, 0, &sum);
	printf("info: %ld minor faults reading 64 MiB, sum %lu\n", nf, sum);
	t_between("pmd-read-faults", 32, 40, nf, "faults for 64 MiB");
	munmap(p, f.size);
out:
	ifile_close(&f);
}

/*
 * MADV_HWPOISON of file page 6M+8K: chunk 3, so strip 3 (730M) at 8K.  The
 * module finds the file offset from the strip (the suite checks its log
 * line); the SIGBUS names the address of that page; the mount has failed.
 */
static void test_poison(void)
{
	static const unsigned long long o[] = { 700 * MiB, 710 * MiB,
						720 * MiB, 730 * MiB };
	struct ifile f = { .name = "poison", .size = 16 * MiB, .n = 1 };
	struct famfs_extent e = { 740 * MiB, TWO_MiB };
	int fd;

	if (cdev) {
		t_skip("poison", "memory failure is tested on fsdax only");
		return;
	}
	if (!t_hwpoison_available("poison"))
		return;
	strips(&f.ie[0], 4, TWO_MiB, 16 * MiB, 4 * MiB, o);
	if (!ifile_create(&f))
		goto out;
	fill(f.p, 0x9999, 0, f.size);
	if (!t_hwpoison("poison", f.p + 6 * MiB + 8192))
		goto out;
	t_true("poison-sigbus", t_sigbus_hit, "no SIGBUS");
	printf("info: SIGBUS at file offset %#llx\n",
	       (unsigned long long)((char *)t_sigbus_addr - f.p));
	t_equ("poison-sigbus-addr", 6 * MiB + 8192,
	      (unsigned long long)((char *)t_sigbus_addr - f.p));
	fd = mkfile(mpt, "after-poison");
	t_errno("poison-create-v2-eio", mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG,
					      TWO_MiB, 1, &e), EIO);
	close(fd);
out:
	ifile_close(&f);
}

static const struct t_test tests[] = {
	{ "seed", test_seed, 0 },
	{ "ragged", test_ragged, 0 },
	{ "order", test_order, 0 },
	{ "two", test_two, 0 },
	{ "rw", test_rw, 0 },
	{ "reverse", test_reverse, 0 },
	{ "pmd", test_pmd, 1 },
	{ "poison", test_poison, 1 },
	{ "prefill", test_prefill, 1 },
};

int main(int argc, char **argv)
{
	struct stat st;

	if (argc < 3) {
		fprintf(stderr, "usage: module_interleave MPT DEV [TEST...]\n");
		return 2;
	}
	mpt = argv[1];
	/*
	 * A pmem device is written while mounted; a mounted /dev/daxX.Y
	 * cannot be opened for writing: only "prefill" (alone, before the
	 * mount) asks for it.
	 */
	if (stat(argv[2], &st))
		die(argv[2]);
	t_dev_open(&dev, argv[2], !S_ISCHR(st.st_mode) ||
		   (argc == 4 && !strcmp(argv[3], "prefill")) ?
		   O_RDWR : O_RDONLY);
	cdev = dev.map != NULL;
	if (dev.size < 512 * MiB)
		die("device smaller than 512 MiB");

	t_run(tests, sizeof(tests) / sizeof(tests[0]), argc - 3, argv + 3);
	return t_done(0);
}
