// SPDX-License-Identifier: GPL-2.0
/*
 * module_data MPT DEV [TEST...]: the data path of famfs.ko on a fresh mount
 * of DEV at MPT.  Tests: extents rw eof truncate unmapped private shared tail
 * statfs (default: all of them) and pmd (run separately, so the suite can
 * trace the faults).
 *
 * The extent math is checked against the device itself: DEV is opened
 * without O_EXCL (the mount holds it exclusively, which only keeps other
 * exclusive openers out) and read with O_DIRECT, which reads the same memory
 * the DAX mappings write.
 *
 * Device layout (the device must be at least 512 MiB):
 *   extents   64M..96M and 128M..160M, one 64 MiB file, extents out of order
 *   pmd       256M..320M
 *   private   384M..388M
 *   tail      400M..402M+100
 *   eof       420M..424M
 *   statfs    440M.., 444M..
 *   shared    460M..464M
 *   unmapped  no memory
 */
#include "module_test.h"

static const char *mpt;
static struct t_dev dev;

static void test_extents(void)
{
	const unsigned long long size = 64 * MiB;
	const uint64_t seed = 0x1111;
	int fd = mkfile(mpt, "extents");
	char *p, *buf;
	long long bad;

	/* File bytes 0..32M live at 128M, 32M..64M at 64M. */
	if (!t_ok("extents-map", map2(fd, FAMFS_REG, size, 2, 128 * MiB,
				      32 * MiB, 64 * MiB, 32 * MiB)))
		goto out;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("extents-mmap", "%s", t_errname(errno));
		goto out;
	}
	fill(p, seed, 0, size);
	t_ok("extents-msync", msync(p, size, MS_SYNC));
	t_devpass(&dev, "extents-dev-ext0", 128 * MiB, 32 * MiB, seed, 0);
	t_devpass(&dev, "extents-dev-ext1", 64 * MiB, 32 * MiB, seed, 32 * MiB);

	/* read() goes through the same map. */
	buf = malloc(size);
	if (pread(fd, buf, size, 0) != (ssize_t)size)
		t_fail("extents-read", "short read");
	else if ((bad = check(buf, seed, 0, size)) >= 0)
		t_fail("extents-read", "file offset %#llx differs", bad);
	else
		t_pass("extents-read");

	/* A write() across the extent boundary lands in both extents. */
	fill(buf, 0x2222, 32 * MiB - 8192, 16384);
	t_equ("extents-write-across", 16384,
	      pwrite(fd, buf, 16384, 32 * MiB - 8192));
	t_devpass(&dev, "extents-write-across-ext0", 160 * MiB - 8192, 8192,
		  0x2222, 32 * MiB - 8192);
	t_devpass(&dev, "extents-write-across-ext1", 64 * MiB, 8192, 0x2222,
		  32 * MiB);
	t_true("extents-write-seen-by-mmap",
	       check(p + 32 * MiB - 8192, 0x2222, 32 * MiB - 8192, 16384) < 0,
	       "mapping does not show what write() wrote");
	munmap(p, size);
	free(buf);
out:
	close(fd);
}

static void test_rw(void)
{
	int fd = mkfile(mpt, "rw");
	char in[300], out[300];
	int i;

	if (!t_ok("rw-map", map1(fd, 4 * MiB, 470 * MiB, 4 * MiB)))
		goto out;
	for (i = 0; i < (int)sizeof(out); i++)
		out[i] = (char)(i * 7 + 3);
	t_equ("rw-unaligned-write", sizeof(out),
	      pwrite(fd, out, sizeof(out), 12345));
	memset(in, 0, sizeof(in));
	t_equ("rw-unaligned-read", sizeof(in), pread(fd, in, sizeof(in),
						      12345));
	t_true("rw-unaligned-same", !memcmp(in, out, sizeof(in)),
	       "read back differs");
out:
	close(fd);
}

static void test_eof(void)
{
	const unsigned long long size = 4 * MiB - 1000;
	char path[512], buf[100], *p;
	struct stat st;
	int fd = mkfile(mpt, "eof"), afd;

	snprintf(path, sizeof(path), "%s/eof", mpt);
	if (!t_ok("eof-map", map1(fd, size, 420 * MiB, 4 * MiB)))
		goto out;
	memset(buf, 'x', sizeof(buf));
	t_equ("eof-read-at-eof", 0, pread(fd, buf, sizeof(buf), size));
	t_equ("eof-read-past-eof", 0, pread(fd, buf, sizeof(buf),
					    size + MiB));
	t_equ("eof-read-far-past-eof", 0, pread(fd, buf, sizeof(buf),
						1ULL << 40));
	t_equ("eof-read-straddling", 8, pread(fd, buf, sizeof(buf),
					      size - 8));
	lseek(fd, size - 10, SEEK_SET);
	t_equ("eof-read-seq", 10, read(fd, buf, sizeof(buf)));
	t_equ("eof-read-seq-then-0", 0, read(fd, buf, sizeof(buf)));

	t_errno("eof-write-at-eof", pwrite(fd, buf, sizeof(buf), size),
		ENOSPC);
	t_errno("eof-write-past-eof", pwrite(fd, buf, sizeof(buf),
					     size + MiB), ENOSPC);
	t_equ("eof-write-straddling-short", 8, pwrite(fd, buf, sizeof(buf),
						      size - 8));
	afd = open(path, O_WRONLY | O_APPEND);
	t_errno("eof-write-append", write(afd, buf, sizeof(buf)), ENOSPC);
	close(afd);
	fstat(fd, &st);
	t_equ("eof-size-unchanged", size, st.st_size);

	/* Truncate, fallocate: refused, size unchanged. */
	t_errno("truncate-grow", ftruncate(fd, size + 1), EPERM);
	t_errno("truncate-shrink", ftruncate(fd, size - 1), EPERM);
	t_errno("truncate-zero", ftruncate(fd, 0), EPERM);
	t_errno("truncate-path", truncate(path, 4096), EPERM);
	t_ok("truncate-same-size", ftruncate(fd, size));
	t_errno("open-o-trunc", open(path, O_RDWR | O_TRUNC), EPERM);
	t_errno("fallocate", fallocate(fd, 0, 0, 4096), EOPNOTSUPP);
	t_errno("fallocate-grow", fallocate(fd, 0, size, MiB), EOPNOTSUPP);
	t_errno("fallocate-punch", fallocate(fd, FALLOC_FL_PUNCH_HOLE |
					     FALLOC_FL_KEEP_SIZE, 0, 4096),
		EOPNOTSUPP);
	t_errno("fallocate-zero-range", fallocate(fd, FALLOC_FL_ZERO_RANGE,
						  0, 4096), EOPNOTSUPP);
	fstat(fd, &st);
	t_equ("truncate-size-unchanged", size, st.st_size);

	/* A mapping past EOF: the page holding EOF works, the next SIGBUS. */
	p = mmap(NULL, 8 * MiB, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("eof-mmap", "%s", t_errname(errno));
		goto out;
	}
	t_true("eof-mmap-last-page", !t_sigbus_at(p + size + 10),
	       "SIGBUS in the page that holds EOF");
	t_true("eof-mmap-past-eof-sigbus", t_sigbus_at(p + 4 * MiB),
	       "no SIGBUS past EOF");
	munmap(p, 8 * MiB);
out:
	close(fd);
}

static void test_unmapped(void)
{
	char path[512], buf[16] = "x";
	struct stat st;
	int fd = mkfile(mpt, "unmapped"), fd2;

	snprintf(path, sizeof(path), "%s/unmapped", mpt);
	t_equ("unmapped-read", 0, read(fd, buf, sizeof(buf)));
	t_errno("unmapped-write", write(fd, buf, sizeof(buf)), ENOSPC);
	t_errno("unmapped-mmap", (long)mmap(NULL, 4096, PROT_READ, MAP_SHARED,
					    fd, 0), ENODEV);
	t_ok("unmapped-truncate-0", ftruncate(fd, 0));
	t_errno("unmapped-truncate-grow", ftruncate(fd, 4096), EPERM);
	t_errno("unmapped-fallocate", fallocate(fd, 0, 0, 4096), EOPNOTSUPP);
	t_ok("unmapped-fsync", fsync(fd));
	fd2 = open(path, O_RDWR | O_TRUNC);
	t_ok("unmapped-o-trunc", fd2);
	close(fd2);
	fstat(fd, &st);
	t_equ("unmapped-size-0", 0, st.st_size);
	close(fd);
}

static void test_private(void)
{
	const unsigned long long size = 4 * MiB;
	char *buf = malloc(size), *p;
	int fd = mkfile(mpt, "private");

	if (!t_ok("private-map", map1(fd, size, 384 * MiB, size)))
		goto out;
	fill(buf, 0xaaaa, 0, size);
	t_equ("private-write-a", size, pwrite(fd, buf, size, 0));
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("private-mmap", "%s", t_errname(errno));
		goto out;
	}
	t_true("private-sees-file", check(p, 0xaaaa, 0, size) < 0,
	       "a private mapping does not show the file");
	fill(p, 0xbbbb, 0, size);
	t_true("private-sees-own-writes", check(p, 0xbbbb, 0, size) < 0,
	       "private writes do not stick");
	memset(buf, 0, size);
	pread(fd, buf, size, 0);
	t_true("private-file-unchanged", check(buf, 0xaaaa, 0, size) < 0,
	       "private writes reached the file");
	t_devpass(&dev, "private-device-unchanged", 384 * MiB, size, 0xaaaa, 0);
	munmap(p, size);
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	t_true("private-shared-after", p != MAP_FAILED &&
	       check(p, 0xaaaa, 0, size) < 0,
	       "a shared mapping shows private writes");
	if (p != MAP_FAILED)
		munmap(p, size);
out:
	free(buf);
	close(fd);
}

static void test_shared(void)
{
	const unsigned long long size = 4 * MiB;
	char path[512], buf[4096], *p, *q;
	int fd = mkfile(mpt, "shared"), fd2;

	snprintf(path, sizeof(path), "%s/shared", mpt);
	if (!t_ok("shared-map", map1(fd, size, 460 * MiB, size)))
		goto out;
	fd2 = open(path, O_RDWR);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	q = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
	if (p == MAP_FAILED || q == MAP_FAILED) {
		t_fail("shared-mmap", "%s", t_errname(errno));
		goto out;
	}
	fill(p, 0xcccc, 0, size);
	t_true("shared-two-mappings", check(q, 0xcccc, 0, size) < 0,
	       "one shared mapping does not see the other's writes");
	fill(buf, 0xdddd, MiB, sizeof(buf));
	pwrite(fd2, buf, sizeof(buf), MiB);
	t_true("shared-write-seen", check(p + MiB, 0xdddd, MiB,
					  sizeof(buf)) < 0,
	       "a shared mapping does not see write()");
	t_ok("msync-sync", msync(p, size, MS_SYNC));
	t_ok("msync-async", msync(p, size, MS_ASYNC));
	t_ok("fsync", fsync(fd));
	t_ok("fdatasync", fdatasync(fd));
	t_ok("syncfs", syncfs(fd));
	t_devpass(&dev, "shared-on-device", 460 * MiB, MiB, 0xcccc, 0);
	munmap(p, size);
	munmap(q, size);
	close(fd2);
out:
	close(fd);
}

static void test_tail(void)
{
	const unsigned long long size = TWO_MiB + 100;
	unsigned char buf[200], *p;
	const unsigned char *dp;
	int fd = mkfile(mpt, "tail"), i, ok = 1;

	if (!t_ok("tail-map", map1(fd, size, 400 * MiB, size)))
		goto out;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("tail-mmap", "%s", t_errname(errno));
		goto out;
	}
	for (i = 0; i < 100; i++)
		p[TWO_MiB + i] = (unsigned char)(i + 1);
	munmap(p, size);
	dp = t_devread(&dev, 400 * MiB + TWO_MiB, 4096);
	if (dp) {
		for (i = 0; i < 100; i++)
			if (dp[i] != i + 1)
				ok = 0;
		t_true("tail-on-device", ok, "the last 100 bytes are not on the device");
	} else {
		t_fail("tail-on-device", "cannot read the device");
	}
	t_equ("tail-read-short", 40, pread(fd, buf, sizeof(buf),
					   TWO_MiB + 60));
	t_equ("tail-read-byte", 61, buf[0]);
out:
	close(fd);
}

static void test_statfs(void)
{
	struct statfs s0, s1, s2, s3;
	char path[512];
	int a, b;

	if (!t_ok("statfs", statfs(mpt, &s0)))
		return;
	t_equ("statfs-type", 0x87b282ff, (unsigned long)s0.f_type);
	t_equ("statfs-bsize", 4096, s0.f_bsize);
	t_equ("statfs-size", dev.size, (unsigned long long)s0.f_blocks *
	      s0.f_bsize);
	t_equ("statfs-bavail", s0.f_bfree, s0.f_bavail);

	a = mkfile(mpt, "statfs-a");
	map1(a, TWO_MiB, 440 * MiB, TWO_MiB);
	statfs(mpt, &s1);
	t_equ("statfs-map-2M", s0.f_bfree - 512, s1.f_bfree);
	b = mkfile(mpt, "statfs-b");
	map1(b, TWO_MiB + 1, 444 * MiB, TWO_MiB + 1);
	statfs(mpt, &s2);
	/* A ragged extent keeps the rest of its 2 MiB block from others. */
	t_equ("statfs-map-2M+1", s1.f_bfree - 1024, s2.f_bfree);
	snprintf(path, sizeof(path), "%s/statfs-a", mpt);
	unlink(path);
	snprintf(path, sizeof(path), "%s/statfs-b", mpt);
	unlink(path);
	statfs(mpt, &s3);
	t_equ("statfs-unlinked-open", s2.f_bfree, s3.f_bfree);
	close(a);
	close(b);
	statfs(mpt, &s3);
	t_equ("statfs-freed", s0.f_bfree, s3.f_bfree);
}

/* 64 MiB of 2 MiB aligned mappings: 32 PMD faults writing, 32 reading. */
static void test_pmd(void)
{
	const unsigned long long size = 64 * MiB;
	volatile char *p;
	unsigned long long off;
	unsigned long sum;
	long n;
	int fd = mkfile(mpt, "pmd");

	if (!t_ok("pmd-map", map1(fd, size, 256 * MiB, size)))
		goto out;

	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("pmd-mmap", "%s", t_errname(errno));
		goto out;
	}
	t_true("pmd-mmap-aligned", ((uintptr_t)p & (TWO_MiB - 1)) == 0,
	       "mmap did not return a 2 MiB aligned address");
	n = t_touch_faults(p, size, 1, NULL);
	printf("info: %ld minor faults writing 64 MiB through MAP_SHARED\n",
	       n);
	t_between("pmd-write-faults", 32, 40, n,
		  "faults for 64 MiB (16384 means 4 KiB faults)");
	munmap((void *)p, size);

	/* Read faults, through a private mapping this time. */
	p = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("pmd-mmap-private", "%s", t_errname(errno));
		goto out;
	}
	n = t_touch_faults(p, size, 0, &sum);
	for (off = 0; off < size; off += 4096)
		if (p[off] != (char)(off >> 12))
			break;
	t_equ("pmd-read-data", size, off);
	printf("info: %ld minor faults reading 64 MiB through MAP_PRIVATE\n",
	       n);
	t_between("pmd-read-faults", 32, 40, n, "faults for 64 MiB");
	munmap((void *)p, size);
out:
	close(fd);
}

static const struct t_test tests[] = {
	{ "extents", test_extents, 0 },
	{ "rw", test_rw, 0 },
	{ "eof", test_eof, 0 },
	{ "unmapped", test_unmapped, 0 },
	{ "private", test_private, 0 },
	{ "shared", test_shared, 0 },
	{ "tail", test_tail, 0 },
	{ "statfs", test_statfs, 0 },
	{ "pmd", test_pmd, 1 },
};

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: module_data MPT DEV [TEST...]\n");
		return 2;
	}
	mpt = argv[1];
	t_dev_open(&dev, argv[2], O_RDONLY);
	if (dev.size < 512 * MiB)
		die("device smaller than 512 MiB");

	t_run(tests, sizeof(tests) / sizeof(tests[0]), argc - 3, argv + 3);
	return t_done(0);
}
