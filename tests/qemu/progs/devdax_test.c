// SPDX-License-Identifier: GPL-2.0
/*
 * devdax_test: checks of famfs.ko on /dev/daxX.Y bound to its "famfs" dax-bus
 * driver (suites/devdax*.sh).  One line per check, as module_test.h prints.
 *
 *   devdax_test cdev DEV OFF          the character device, not mounted:
 *                                     MAP_SHARED works (bytes written through
 *                                     one mapping are in another), private and
 *                                     out-of-range mappings, read and write are
 *                                     refused; uses [OFF, OFF+2M)
 *   devdax_test extent FILE DEV       FILE's bytes are the device's bytes at
 *                                     FILE's extents (MAP_GET), written both
 *                                     with write(2) and through a mapping, read
 *                                     back through a read-only mapping of DEV
 *   devdax_test cmp FILE              mmap and read(2) of FILE agree
 *   devdax_test touch FILE            read one byte per 4 KiB through a shared
 *                                     mapping (for counting PMD faults)
 *   devdax_test cdev-poison DEV OFF   MADV_HWPOISON on the page at OFF of a
 *                                     mapping of DEV: SIGBUS there, in a new
 *                                     mapping too, the next page still works
 *   devdax_test poisoned MPT OFF BAD  a new file at device [OFF, OFF+2M) whose
 *                                     page at BAD was poisoned earlier: read
 *                                     and write of it EIO, its fault SIGBUS,
 *                                     other pages work
 *   devdax_test hold FILE DIR         map FILE, touch it, create DIR/ready,
 *                                     wait for DIR/go, then expect SIGBUS on
 *                                     the mapping and EIO from read (the
 *                                     device was unbound meanwhile)
 *   devdax_test hold-cdev DEV DIR     the same with a mapping of DEV
 *   devdax_test writer DEV DIR        open DEV for writing, create DIR/ready,
 *                                     wait for DIR/go
 *   devdax_test fill FILE SEED        write FILE whole with pattern SEED, fsync
 *   devdax_test check FILE SEED       FILE holds pattern SEED, through read(2)
 *                                     and through a mapping
 *   devdax_test watch FILE DIR S1 S2  map FILE, check pattern S1 through the
 *                                     mapping, create DIR/ready, wait for
 *                                     DIR/go, then the same mapping (no new
 *                                     fault needed) holds pattern S2
 *   devdax_test nobody-write FILE     as uid 65534, opening FILE for writing
 *                                     fails with EACCES
 */
#include "module_test.h"

static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 0);

	switch (*end) {
	case 'G': v <<= 10; /* fall through */
	case 'M': v <<= 10; /* fall through */
	case 'K': v <<= 10; end++; break;
	}
	if (*end) {
		fprintf(stderr, "devdax_test: bad number '%s'\n", s);
		exit(2);
	}
	return v;
}

static uint64_t dpat(uint64_t seed, uint64_t off)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ULL + (off & ~7ULL);

	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ULL;
	return x ^ (x >> 32);
}

static unsigned char dpatb(uint64_t seed, uint64_t off)
{
	return (unsigned char)(dpat(seed, off) >> ((off & 7) * 8));
}

/* First offset in [0, len) where p differs from pattern seed at base; -1. */
static long long patcheck(const unsigned char *p, size_t len, uint64_t seed,
			  uint64_t base)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != dpatb(seed, base + i))
			return (long long)i;
	return -1;
}

static void patfill(unsigned char *p, size_t len, uint64_t seed, uint64_t base)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = dpatb(seed, base + i);
}

static void *map(int fd, size_t len, int prot, int flags, off_t off)
{
	return mmap(NULL, len, prot, flags, fd, off);
}

static int test_cdev(const char *dev, unsigned long long off)
{
	unsigned long long sz = t_dax_size(dev);
	int fd = open(dev, O_RDWR), rfd;
	unsigned char *a, *b, buf[64];
	long long bad;

	if (fd < 0)
		die(dev);
	a = map(fd, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, off);
	b = map(fd, TWO_MiB, PROT_READ, MAP_SHARED, off);
	if (a == MAP_FAILED || b == MAP_FAILED) {
		t_fail("cdev-mmap", "mmap: %s", t_errname(errno));
		return 1;
	}
	t_pass("cdev-mmap");
	patfill(a, TWO_MiB, 11, off);
	bad = patcheck(b, TWO_MiB, 11, off);
	t_true("cdev-shared", bad < 0, "second mapping differs");
	munmap(a, TWO_MiB);
	munmap(b, TWO_MiB);

	/* Read-only opens map read-only, and only that. */
	rfd = open(dev, O_RDONLY);
	if (rfd < 0)
		die(dev);
	b = map(rfd, TWO_MiB, PROT_READ, MAP_SHARED, off);
	t_true("cdev-readonly-map", b != MAP_FAILED &&
	       patcheck(b, TWO_MiB, 11, off) < 0, "read-only mapping");
	if (b != MAP_FAILED)
		munmap(b, TWO_MiB);
	errno = 0;
	t_errno("cdev-readonly-no-write-map",
		(long)map(rfd, TWO_MiB, PROT_WRITE, MAP_SHARED, off), EACCES);
	close(rfd);

	errno = 0;
	t_errno("cdev-private-refused",
		(long)map(fd, TWO_MiB, PROT_READ, MAP_PRIVATE, off), EINVAL);
	errno = 0;
	t_errno("cdev-past-end-refused",
		(long)map(fd, 2 * TWO_MiB, PROT_READ, MAP_SHARED,
			  sz - TWO_MiB), ENXIO);
	t_errno("cdev-read-refused", read(fd, buf, sizeof(buf)), EINVAL);
	t_errno("cdev-write-refused", write(fd, buf, sizeof(buf)), EINVAL);
	close(fd);
	return 0;
}

static int get_map(const char *file, struct famfs_ioc_map *m)
{
	int fd = open(file, O_RDONLY);

	if (fd < 0 || ioctl(fd, FAMFSIOC_MAP_GET, m)) {
		t_fail("map-get", "%s: %s", file, t_errname(errno));
		return -1;
	}
	close(fd);
	return 0;
}

/* FILE's extents hold pattern @seed as the file's offsets see it. */
static void check_extents(const char *name, const char *dev,
			  const struct famfs_ioc_map *m, uint64_t seed)
{
	int fd = open(dev, O_RDONLY);
	uint64_t foff = 0, i;

	if (fd < 0) {
		t_fail(name, "open %s read-only while mounted: %s", dev,
		       t_errname(errno));
		return;
	}
	for (i = 0; i < m->ext_list_count; i++) {
		uint64_t off = m->ext_list[i].offset, len = m->ext_list[i].len;
		uint64_t n = len < m->file_size - foff ? len : m->file_size - foff;
		unsigned char *p = map(fd, len, PROT_READ, MAP_SHARED, off);
		long long bad;

		if (p == MAP_FAILED) {
			t_fail(name, "mmap %s at %#llx: %s", dev,
			       (unsigned long long)off, t_errname(errno));
			close(fd);
			return;
		}
		bad = patcheck(p, n, seed, foff);
		munmap(p, len);
		if (bad >= 0) {
			t_fail(name, "device byte %#llx (file %#llx) differs",
			       (unsigned long long)(off + bad),
			       (unsigned long long)(foff + bad));
			close(fd);
			return;
		}
		foff += len;
	}
	close(fd);
	t_pass(name);
}

static int test_extent(const char *file, const char *dev)
{
	struct famfs_ioc_map m;
	unsigned char *buf, *p;
	int fd;

	if (get_map(file, &m))
		return 1;
	printf("%s: %llu bytes, %llu extents, first at %#llx\n", file,
	       (unsigned long long)m.file_size,
	       (unsigned long long)m.ext_list_count,
	       (unsigned long long)m.ext_list[0].offset);
	fd = open(file, O_RDWR);
	buf = malloc(m.file_size);
	if (fd < 0 || !buf)
		die(file);
	patfill(buf, m.file_size, 21, 0);
	t_equ("extent-write", m.file_size, pwrite(fd, buf, m.file_size, 0));
	check_extents("extent-write-on-device", dev, &m, 21);

	p = map(fd, m.file_size, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	if (p == MAP_FAILED)
		die("mmap file");
	patfill(p, m.file_size, 22, 0);
	t_ok("extent-msync", msync(p, m.file_size, MS_SYNC));
	check_extents("extent-mmap-on-device", dev, &m, 22);
	t_equ("extent-read", m.file_size, pread(fd, buf, m.file_size, 0));
	t_true("extent-read-bytes", patcheck(buf, m.file_size, 22, 0) < 0,
	       "read(2) differs from what the mapping wrote");
	munmap(p, m.file_size);
	free(buf);
	close(fd);
	return 0;
}

static int test_cmp(const char *file)
{
	int fd = open(file, O_RDONLY);
	struct stat st;
	unsigned char *p, *buf;

	if (fd < 0 || fstat(fd, &st))
		die(file);
	buf = malloc(st.st_size ? st.st_size : 1);
	p = map(fd, st.st_size, PROT_READ, MAP_SHARED, 0);
	if (!buf || p == MAP_FAILED)
		die("mmap");
	t_equ("cmp-read", st.st_size, pread(fd, buf, st.st_size, 0));
	t_true("cmp-bytes", !memcmp(p, buf, st.st_size),
	       "mmap and read(2) differ");
	munmap(p, st.st_size);
	free(buf);
	close(fd);
	return 0;
}

static int test_touch(const char *file)
{
	int fd = open(file, O_RDONLY);
	volatile unsigned char *p;
	struct stat st;
	unsigned long sum = 0;
	off_t o;

	if (fd < 0 || fstat(fd, &st))
		die(file);
	p = map(fd, st.st_size, PROT_READ, MAP_SHARED, 0);
	if (p == MAP_FAILED)
		die("mmap");
	printf("touch: %s mapped at %p (%s 2 MiB aligned)\n", file, (void *)p,
	       ((uintptr_t)p & (TWO_MiB - 1)) ? "not" : "");
	for (o = 0; o < st.st_size; o += 4096)
		sum += p[o];
	/* No check of its own: the suite counts the faults (pmd_faults) and
	 * run_prog the exit status and the DONE line. */
	printf("touch: %lld bytes, sum %lu\n", (long long)st.st_size, sum);
	return 0;
}

static int test_cdev_poison(const char *dev, unsigned long long off)
{
	int fd = open(dev, O_RDWR);
	volatile char *p, *q;

	if (fd < 0)
		die(dev);
	if (!t_hwpoison_available("cdev-poison"))
		return 0;
	t_catch_sigbus();
	p = map(fd, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, off);
	if (p == MAP_FAILED)
		die("mmap");
	p[0] = 1;
	p[4096] = 2;
	if (!t_ok("cdev-poison-inject", madvise((void *)p, 4096, MADV_HWPOISON)))
		return 1;
	t_true("cdev-poison-sigbus", t_sigbus_at(p),
	       "no SIGBUS on the poisoned page");
	t_equ("cdev-poison-code", BUS_MCEERR_AR, t_sigbus_code);
	t_true("cdev-poison-next-page-ok",
	       !t_sigbus_at(p + 4096) && p[4096] == 2,
	       "the next page is gone too");
	q = map(fd, TWO_MiB, PROT_READ, MAP_SHARED, off);
	t_true("cdev-poison-new-map-sigbus", q != MAP_FAILED && t_sigbus_at(q),
	       "a new mapping of the poisoned page reads");
	close(fd);
	return 0;
}

static int test_poisoned(const char *mpt, unsigned long long off,
			 unsigned long long bad)
{
	struct famfs_ioc_map m = {
		.extent_type = SIMPLE_DAX_EXTENT, .file_type = FAMFS_REG,
		.file_size = TWO_MiB, .ext_list_count = 1,
		.ext_list = { { .offset = off, .len = TWO_MiB } },
	};
	char path[512], buf[4096];
	unsigned long long good;
	volatile char *p;
	int fd;

	t_catch_sigbus();
	snprintf(path, sizeof(path), "%s/poisoned", mpt);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0 || ioctl(fd, FAMFSIOC_MAP_CREATE, &m))
		die(path);
	/*
	 * Not a page next to it: when the poisoned page was mapped by a PMD
	 * entry, mf_dax_kill_procs() marks the entry's first page as well.
	 */
	good = bad < MiB ? MiB + 4096 : 0;
	t_errno("poisoned-read-eio", pread(fd, buf, sizeof(buf), bad), EIO);
	t_errno("poisoned-write-eio", pwrite(fd, buf, sizeof(buf), bad), EIO);
	t_equ("poisoned-good-page-read", sizeof(buf),
	      pread(fd, buf, sizeof(buf), good));
	p = map(fd, TWO_MiB, PROT_READ, MAP_SHARED, 0);
	if (p == MAP_FAILED)
		die("mmap");
	t_true("poisoned-fault-sigbus", t_sigbus_at(p + bad),
	       "the poisoned page maps");
	t_true("poisoned-good-page-maps", !t_sigbus_at(p + good),
	       "a good page of the file does not map");
	close(fd);
	return 0;
}

static void wait_file(const char *dir, const char *name)
{
	char p[512];
	int n;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	for (n = 0; access(p, F_OK); n++) {
		if (n > 600) {
			t_fail("wait", "no %s after 60 s", p);
			exit(1);
		}
		usleep(100000);
	}
}

/* Creates DIR/NAME. */
static void post_file(const char *dir, const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	t_post(p);
}

static int test_hold(const char *file, const char *dir, int cdev)
{
	int fd = open(file, cdev ? O_RDWR : O_RDONLY);
	volatile char *p;
	char buf[64];

	if (fd < 0)
		die(file);
	t_catch_sigbus();
	p = map(fd, TWO_MiB, PROT_READ, MAP_SHARED, 0);
	if (p == MAP_FAILED)
		die("mmap");
	t_true("hold-before", !t_sigbus_at(p) && !t_sigbus_at(p + TWO_MiB - 1),
	       "the mapping faults before unbind");
	post_file(dir, "ready");
	wait_file(dir, "go");
	t_true("hold-sigbus-after", t_sigbus_at(p) && t_sigbus_at(p + 4096),
	       "the mapping still reads after unbind");
	if (!cdev)
		t_errno("hold-read-eio", pread(fd, buf, sizeof(buf), 0), EIO);
	errno = 0;
	t_true("hold-new-map-refused",
	       map(fd, TWO_MiB, PROT_READ, MAP_SHARED, 0) == MAP_FAILED,
	       "a new mapping succeeds after unbind");
	close(fd);
	return 0;
}

static int test_writer(const char *dev, const char *dir)
{
	int fd = open(dev, O_RDWR);

	if (!t_ok("writer-open", fd))
		return 1;
	post_file(dir, "ready");
	wait_file(dir, "go");
	close(fd);
	return 0;
}

static int test_fill(const char *file, uint64_t seed)
{
	int fd = open(file, O_RDWR);
	unsigned char *buf;
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		die(file);
	buf = malloc(st.st_size ? st.st_size : 1);
	if (!buf)
		die("malloc");
	patfill(buf, st.st_size, seed, 0);
	t_equ("fill-write", st.st_size, pwrite(fd, buf, st.st_size, 0));
	t_ok("fill-fsync", fsync(fd));
	free(buf);
	close(fd);
	return 0;
}

/* FILE holds pattern @seed: @name-read through read(2), @name-map mapped. */
static void check_pattern(const char *name, int fd, const unsigned char *p,
			  size_t len, uint64_t seed)
{
	unsigned char *buf = malloc(len ? len : 1);
	char id[64];
	long long bad;

	if (!buf)
		die("malloc");
	snprintf(id, sizeof(id), "%s-read", name);
	if (pread(fd, buf, len, 0) != (ssize_t)len) {
		t_fail(id, "pread: %s", t_errname(errno));
	} else {
		bad = patcheck(buf, len, seed, 0);
		if (bad < 0)
			t_pass(id);
		else
			t_fail(id, "byte %lld differs from pattern %llu", bad,
			       (unsigned long long)seed);
	}
	free(buf);
	snprintf(id, sizeof(id), "%s-map", name);
	bad = patcheck(p, len, seed, 0);
	if (bad < 0)
		t_pass(id);
	else
		t_fail(id, "byte %lld differs from pattern %llu", bad,
		       (unsigned long long)seed);
}

static int test_check(const char *file, uint64_t seed)
{
	int fd = open(file, O_RDONLY);
	struct stat st;
	unsigned char *p;

	if (fd < 0 || fstat(fd, &st))
		die(file);
	p = map(fd, st.st_size, PROT_READ, MAP_SHARED, 0);
	if (p == MAP_FAILED)
		die("mmap");
	check_pattern("check", fd, p, st.st_size, seed);
	munmap(p, st.st_size);
	close(fd);
	return 0;
}

static int test_watch(const char *file, const char *dir, uint64_t s1,
		      uint64_t s2)
{
	int fd = open(file, O_RDONLY);
	struct stat st;
	unsigned char *p;

	if (fd < 0 || fstat(fd, &st))
		die(file);
	t_catch_sigbus();
	p = map(fd, st.st_size, PROT_READ, MAP_SHARED, 0);
	if (p == MAP_FAILED)
		die("mmap");
	check_pattern("watch-before", fd, p, st.st_size, s1);
	post_file(dir, "ready");
	wait_file(dir, "go");
	t_true("watch-no-sigbus", !t_sigbus_at((volatile char *)p) &&
	       !t_sigbus_at((volatile char *)p + st.st_size - 1),
	       "the mapping faults");
	check_pattern("watch-after", fd, p, st.st_size, s2);
	munmap(p, st.st_size);
	close(fd);
	return 0;
}

static int test_nobody_write(const char *file)
{
	if (setgid(65534) || setuid(65534))
		die("setuid 65534");
	t_errno("nobody-write-eacces", open(file, O_WRONLY), EACCES);
	return 0;
}

int main(int argc, char **argv)
{
	const char *t = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(t, "cdev"))
		test_cdev(argv[2], num(argv[3]));
	else if (argc == 4 && !strcmp(t, "extent"))
		test_extent(argv[2], argv[3]);
	else if (argc == 3 && !strcmp(t, "cmp"))
		test_cmp(argv[2]);
	else if (argc == 3 && !strcmp(t, "touch"))
		test_touch(argv[2]);
	else if (argc == 4 && !strcmp(t, "cdev-poison"))
		test_cdev_poison(argv[2], num(argv[3]));
	else if (argc == 5 && !strcmp(t, "poisoned"))
		test_poisoned(argv[2], num(argv[3]), num(argv[4]));
	else if (argc == 4 && !strcmp(t, "hold"))
		test_hold(argv[2], argv[3], 0);
	else if (argc == 4 && !strcmp(t, "hold-cdev"))
		test_hold(argv[2], argv[3], 1);
	else if (argc == 4 && !strcmp(t, "writer"))
		test_writer(argv[2], argv[3]);
	else if (argc == 4 && !strcmp(t, "fill"))
		test_fill(argv[2], num(argv[3]));
	else if (argc == 4 && !strcmp(t, "check"))
		test_check(argv[2], num(argv[3]));
	else if (argc == 6 && !strcmp(t, "watch"))
		test_watch(argv[2], argv[3], num(argv[4]), num(argv[5]));
	else if (argc == 3 && !strcmp(t, "nobody-write"))
		test_nobody_write(argv[2]);
	else {
		fprintf(stderr, "usage: see the comment at the top of devdax_test.c\n");
		return 2;
	}
	return t_done(0);
}
