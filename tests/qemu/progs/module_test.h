/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the famfs.ko guest test programs (progs/module_*.c).
 *
 * A program prints one line per check: "PASS name", "FAIL name: why" or
 * "SKIP name: why"; the suite (suites/module*.sh) turns them into PROTOCOL
 * lines with its own prefix.  The exit status is 1 if anything failed.
 * Its last line is "DONE <program>" (t_done()): the suite's run_prog FAILs
 * a program without it, which stopped before its end.
 * Also used by devdax_test, hostile_hold and compat32 (built with -m32).
 */
#ifndef MODULE_TEST_H
#define MODULE_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <linux/fs.h>
#include <linux/famfs_ioctl.h>

#ifndef MADV_HWPOISON
#define MADV_HWPOISON	100
#endif

#define MiB		(1ULL << 20)
#define TWO_MiB		(2 * MiB)

/* Not every program uses every helper. */
#define T_API		static __attribute__((unused))

T_API int t_failed;

/* Prints "KIND name: why". */
T_API void t_vline(const char *kind, const char *name, const char *fmt,
		   va_list ap)
{
	printf("%s %s: ", kind, name);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
}

T_API void __attribute__((format(printf, 2, 3)))
t_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t_vline("FAIL", name, fmt, ap);
	va_end(ap);
	t_failed = 1;
}

T_API void t_pass(const char *name)
{
	printf("PASS %s\n", name);
	fflush(stdout);
}

T_API void __attribute__((format(printf, 2, 3)))
t_skip(const char *name, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	t_vline("SKIP", name, fmt, ap);
	va_end(ap);
}

/*
 * The end of a program that ran to its end: "DONE <program>" (lib.sh's
 * t_prog FAILs without it); returns the exit status, @rc or 1 if a check
 * failed.  Not from a forked child: only the program's own end says DONE.
 */
T_API int t_done(int rc)
{
	printf("DONE %s\n", program_invocation_short_name);
	fflush(stdout);
	return rc ? rc : t_failed;
}

T_API const char *t_errname(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "E?";
}

/* PASS iff rc == 0 (rc is a syscall result; errno is read on failure). */
T_API int t_ok(const char *name, long rc)
{
	if (rc >= 0) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "failed with %s", t_errname(errno));
	return 0;
}

/* PASS iff the call failed (rc == -1) with errno @want. */
T_API int t_errno(const char *name, long rc, int want)
{
	int e = errno;

	if (rc == -1 && e == want) {
		t_pass(name);
		return 1;
	}
	if (rc == -1)
		t_fail(name, "expected %s, got %s", t_errname(want),
		       t_errname(e));
	else
		t_fail(name, "expected %s, but it returned %ld",
		       t_errname(want), rc);
	return 0;
}

/* PASS iff @got == @want. */
T_API int t_equ(const char *name, unsigned long long want,
		 unsigned long long got)
{
	if (want == got) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "expected %llu (%#llx), got %llu (%#llx)", want, want,
	       got, got);
	return 0;
}

/* PASS iff @lo <= @got <= @hi; @what says what @got counts. */
T_API int t_between(const char *name, long long lo, long long hi,
		    long long got, const char *what)
{
	if (got >= lo && got <= hi) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "%lld %s, expected %lld..%lld", got, what, lo, hi);
	return 0;
}

T_API int t_true(const char *name, int cond, const char *what)
{
	if (cond) {
		t_pass(name);
		return 1;
	}
	t_fail(name, "%s", what);
	return 0;
}

T_API __attribute__((noreturn)) void die(const char *what)
{
	printf("FAIL setup: %s: %s\n", what, t_errname(errno));
	exit(1);
}

T_API unsigned long long dev_size(const char *dev)
{
	unsigned long long sz;
	int fd = open(dev, O_RDONLY);

	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &sz))
		die(dev);
	close(fd);
	return sz;
}

/* The size of block device @dev, which must be at least @min bytes. */
T_API unsigned long long dev_size_min(const char *dev, unsigned long long min)
{
	unsigned long long sz = dev_size(dev);

	if (sz < min) {
		printf("FAIL setup: %s: %llu bytes, smaller than %llu MiB\n",
		       dev, sz, min / MiB);
		exit(1);
	}
	return sz;
}

/* The size of a dax character device (/dev/daxX.Y), from sysfs. */
T_API unsigned long long t_dax_size(const char *dev)
{
	char p[256];
	struct stat st;
	unsigned long long sz = 0;
	FILE *f;

	if (stat(dev, &st))
		die(dev);
	snprintf(p, sizeof(p), "/sys/dev/char/%u:%u/size", major(st.st_rdev),
		 minor(st.st_rdev));
	f = fopen(p, "r");
	if (!f || fscanf(f, "%llu", &sz) != 1)
		die(p);
	fclose(f);
	return sz;
}

/* Creates the empty file @path (a "ready" or "go" flag); dies on failure. */
T_API void t_post(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0)
		die(path);
	close(fd);
}

/* A new empty file MPT/name opened read-write. */
T_API int mkfile(const char *mpt, const char *name)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		die(path);
	return fd;
}

/* A FAMFSIOC_MAP_CREATE argument with up to two extents (@n: the count). */
T_API struct famfs_ioc_map map_mk(unsigned int ftype,
				    unsigned long long size,
				    unsigned long long n,
				    unsigned long long off0,
				    unsigned long long len0,
				    unsigned long long off1,
				    unsigned long long len1)
{
	struct famfs_ioc_map m;

	memset(&m, 0, sizeof(m));
	m.extent_type = SIMPLE_DAX_EXTENT;
	m.file_type = ftype;
	m.file_size = size;
	m.ext_list_count = n;
	m.ext_list[0].offset = off0;
	m.ext_list[0].len = len0;
	m.ext_list[1].offset = off1;
	m.ext_list[1].len = len1;
	return m;
}

/* FAMFSIOC_MAP_CREATE with up to two extents; returns the ioctl result. */
T_API int map2(int fd, unsigned int ftype, unsigned long long size,
		unsigned long long n, unsigned long long off0,
		unsigned long long len0, unsigned long long off1,
		unsigned long long len1)
{
	struct famfs_ioc_map m = map_mk(ftype, size, n, off0, len0, off1,
					  len1);

	return ioctl(fd, FAMFSIOC_MAP_CREATE, &m);
}

T_API int map1(int fd, unsigned long long size, unsigned long long off,
		unsigned long long len)
{
	return map2(fd, FAMFS_REG, size, 1, off, len, 0, 0);
}

/* The 64-bit word the pattern @seed has at byte offset @off of a file. */
T_API uint64_t pat(uint64_t seed, uint64_t off)
{
	return (off * 0x9e3779b97f4a7c15ULL) ^ seed;
}

T_API void fill(void *buf, uint64_t seed, uint64_t off, size_t len)
{
	uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = pat(seed, off + 8 * i);
}

/* Returns the offset of the first mismatching word, or -1. */
T_API long long check(const void *buf, uint64_t seed, uint64_t off,
		       size_t len)
{
	const uint64_t *p = buf;
	size_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i] != pat(seed, off + 8 * i))
			return off + 8 * i;
	return -1;
}

/* A v2 header (MAP_CREATE_V2 / MAP_GET_V2) of @count entries at @list. */
T_API struct famfs_ioc_map_v2 mapv2_mk(unsigned int etype,
					 unsigned int ftype,
					 unsigned long long size,
					 unsigned int count, const void *list)
{
	struct famfs_ioc_map_v2 m;

	memset(&m, 0, sizeof(m));
	m.extent_type = etype;
	m.file_type = ftype;
	m.file_size = size;
	m.ext_count = count;
	m.ext_list = (uintptr_t)list;
	return m;
}

/* FAMFSIOC_MAP_CREATE_V2 of @count entries at @list. */
T_API int mapv2(int fd, unsigned int etype, unsigned int ftype,
		unsigned long long size, unsigned int count, const void *list)
{
	struct famfs_ioc_map_v2 m = mapv2_mk(etype, ftype, size, count,
					       list);

	return ioctl(fd, FAMFSIOC_MAP_CREATE_V2, &m);
}

/*
 * An interleaved extent of @nbytes over @nstrips strips of @strip_len bytes
 * at the device offsets @offs.
 */
T_API struct famfs_ioc_iext iext_mk(unsigned int nstrips,
				    unsigned long long chunk,
				    unsigned long long nbytes,
				    unsigned long long strip_len,
				    const unsigned long long *offs)
{
	struct famfs_ioc_iext ie;
	unsigned int j;

	memset(&ie, 0, sizeof(ie));
	ie.nstrips = nstrips;
	ie.chunk_size = chunk;
	ie.nbytes = nbytes;
	for (j = 0; j < nstrips && j < FAMFS_IOC_MAX_STRIPS; j++) {
		ie.strips[j].offset = offs[j];
		ie.strips[j].len = strip_len;
	}
	return ie;
}

/* Free 4 KiB blocks of the mount at @mpt. */
T_API unsigned long long t_bfree(const char *mpt)
{
	struct statfs s;

	if (statfs(mpt, &s))
		die("statfs");
	return s.f_bfree;
}

/*
 * Where a file's 2 MiB goes: OFF on device DEV, written [INDEX:]OFF on the
 * command line (OFF: digits with an optional K, M or G suffix; INDEX: a
 * member, 1 to FAMFS_MAX_DEVS - 1); e.g. 1:420M.
 */
struct t_loc {
	unsigned int dev;
	unsigned long long off;
};

/* A byte count: digits with an optional K, M or G suffix (else FAIL setup). */
T_API unsigned long long t_num(const char *s)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);

	switch (*end) {
	case 'G':
		n <<= 10;
		/* fall through */
	case 'M':
		n <<= 10;
		/* fall through */
	case 'K':
		n <<= 10;
		end++;
		break;
	}
	if (end == s || *end) {
		printf("FAIL setup: bad size '%s'\n", s);
		exit(1);
	}
	return n;
}

/* [INDEX:]OFF (else FAIL setup) */
T_API struct t_loc t_at(const char *s)
{
	struct t_loc l = { 0, 0 };
	const char *colon = strchr(s, ':');

	if (colon) {
		l.dev = strtoul(s, NULL, 10);
		if (!l.dev || l.dev >= FAMFS_MAX_DEVS) {
			printf("FAIL setup: bad device index in '%s'\n", s);
			exit(1);
		}
		s = colon + 1;
	}
	l.off = t_num(s);
	return l;
}

/* FAMFSIOC_MAP_CREATE_V3 of @n (1 or 2) 2 MiB extents at @l[] for @fd: a
 * file of n * 2 MiB; 0, or -1 and errno. */
T_API int t_map_locs(int fd, const struct t_loc *l, unsigned int n)
{
	struct famfs_ioc_dext d[2];
	struct famfs_ioc_map_v2 m;
	unsigned int i;

	memset(d, 0, sizeof(d));
	for (i = 0; i < n && i < 2; i++) {
		d[i].devindex = l[i].dev;
		d[i].offset = l[i].off;
		d[i].len = TWO_MiB;
	}
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, n * TWO_MiB, n, d);
	return ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m);
}

/*
 * A page pinned: @len bytes of @fd from @off mapped shared and filled with
 * @seed's pattern (fill() from device byte @base), the 4 KiB page at @at of
 * the mapping vmsplice'd into a new pipe @pfd -- it stays referenced until
 * the pipe lets go of it, whatever happens to the mapping, the file or the
 * mount.  Returns the mapping: the caller unmaps it.
 */
T_API char *t_pin(int fd, off_t off, size_t len, uint64_t seed, off_t base,
		  size_t at, int pfd[2])
{
	struct iovec iov;
	char *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off);
	if (p == MAP_FAILED)
		die("mmap");
	fill(p, seed, base, len);
	if (pipe(pfd))
		die("pipe");
	iov.iov_base = p + at;
	iov.iov_len = 4096;
	if (vmsplice(pfd[1], &iov, 1, 0) != 4096)
		die("vmsplice");
	return p;
}

/*
 * The device under a mount, to check what the files' DAX mappings wrote: a
 * pmem device read (and written) with O_DIRECT, which reaches the same
 * memory (the mount holds it exclusively, which only keeps other exclusive
 * openers out), or a /dev/daxX.Y bound to famfs, which while mounted can
 * only be mapped read-only (famfs refuses a writable open with EBUSY): it
 * is mapped read-write only when opened O_RDWR, before the mount.
 */
#define T_DBUF	(4 * MiB)

struct t_dev {
	int			fd;
	unsigned long long	size;
	void			*buf;	/* T_DBUF, O_DIRECT aligned */
	const unsigned char	*map;	/* devdax: all */
	unsigned char		*wmap;	/* devdax O_RDWR: map, writable */
};

/*
 * Opens @dev: a block device O_DIRECT with @flags, a dax device mapped
 * (read-write if @flags is O_RDWR, else read-only).
 */
T_API void t_dev_open(struct t_dev *d, const char *dev, int flags)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	if (stat(dev, &st))
		die(dev);
	if (S_ISCHR(st.st_mode)) {
		int rw = (flags & O_ACCMODE) == O_RDWR;
		void *m;

		d->size = t_dax_size(dev);
		d->fd = open(dev, rw ? O_RDWR : O_RDONLY);
		if (d->fd < 0)
			die(rw ? "open the devdax device read-write (mounted?)"
			       : "open the devdax device read-only");
		m = mmap(NULL, d->size, PROT_READ | (rw ? PROT_WRITE : 0),
			 MAP_SHARED, d->fd, 0);
		if (m == MAP_FAILED)
			die(rw ? "mmap the devdax device read-write"
			       : "mmap the devdax device read-only");
		d->map = m;
		if (rw)
			d->wmap = m;
		close(d->fd);
		d->fd = -1;
		return;
	}
	d->size = dev_size(dev);
	d->fd = open(dev, flags | O_DIRECT);
	if (d->fd < 0)
		die("open the device O_DIRECT (no O_EXCL)");
	if (posix_memalign(&d->buf, 4096, T_DBUF))
		die("posix_memalign");
}

/*
 * Device bytes [@off, @off+@len) (@len <= T_DBUF): read into d->buf (whole
 * 4 KiB blocks, as O_DIRECT wants) or in the mapping.  NULL (errno set) if
 * they cannot be read.
 */
T_API const void *t_devread(struct t_dev *d, unsigned long long off,
			    size_t len)
{
	size_t rn = (len + 4095) & ~(size_t)4095;
	ssize_t n;

	if (d->map)
		return d->map + off;
	n = pread(d->fd, d->buf, rn, off);
	if (n == (ssize_t)rn)
		return d->buf;
	if (n >= 0)
		errno = EIO;	/* short */
	return NULL;
}

/* Checks that device bytes [@off, @off+@len) hold pattern @seed from @foff. */
T_API int t_devcheck(struct t_dev *d, const char *name,
		     unsigned long long off, unsigned long long len,
		     uint64_t seed, uint64_t foff)
{
	unsigned long long done;

	for (done = 0; done < len; done += T_DBUF) {
		size_t n = len - done < T_DBUF ? len - done : T_DBUF;
		const void *p = t_devread(d, off + done, n);
		long long bad;

		if (!p) {
			t_fail(name, "cannot read the device at %#llx: %s",
			       off + done, t_errname(errno));
			return 0;
		}
		bad = check(p, seed, foff + done, n);
		if (bad >= 0) {
			t_fail(name, "file offset %#llx (device %#llx) does not hold the pattern",
			       bad, off + (bad - foff));
			return 0;
		}
	}
	return 1;
}

/* t_devcheck(), and PASS @name if it holds. */
T_API int t_devpass(struct t_dev *d, const char *name,
		    unsigned long long off, unsigned long long len,
		    uint64_t seed, uint64_t foff)
{
	if (!t_devcheck(d, name, off, len, seed, foff))
		return 0;
	t_pass(name);
	return 1;
}

/*
 * Writes pattern @seed from @foff to device bytes [@off, @off+@len); @off
 * and @len are multiples of 4 KiB (O_DIRECT).  A dax device is written
 * through its mapping, if opened O_RDWR (else EROFS).
 */
T_API int t_devfill(struct t_dev *d, unsigned long long off,
		    unsigned long long len, uint64_t seed, uint64_t foff)
{
	unsigned long long done;

	if (d->map) {
		if (!d->wmap) {
			errno = EROFS;
			return -1;
		}
		if (off > d->size || len > d->size - off) {
			errno = ENXIO;
			return -1;
		}
		fill(d->wmap + off, seed, foff, len);
		return 0;
	}

	for (done = 0; done < len; done += T_DBUF) {
		size_t n = len - done < T_DBUF ? len - done : T_DBUF;

		fill(d->buf, seed, foff + done, n);
		if (pwrite(d->fd, d->buf, n, off + done) != (ssize_t)n)
			return -1;
	}
	return 0;
}

/*
 * Minor faults taken by touching one byte of every 4 KiB page of
 * [@p, @p+@len): a write if @write, else a read (whose sum goes to
 * *@sum so the reads cannot be optimised away).
 */
T_API long t_touch_faults(volatile char *p, unsigned long long len, int write,
			  unsigned long *sum)
{
	struct rusage r0, r1;
	unsigned long long off;
	unsigned long s = 0;

	getrusage(RUSAGE_SELF, &r0);
	for (off = 0; off < len; off += 4096) {
		if (write)
			p[off] = (char)(off >> 12);
		else
			s += (unsigned char)p[off];
	}
	getrusage(RUSAGE_SELF, &r1);
	if (sum)
		*sum = s;
	return r1.ru_minflt - r0.ru_minflt;
}

/* A test of a program that runs a chosen few of its tests. */
struct t_test {
	const char	*name;
	void		(*fn)(void);
	int		named_only;	/* run only when named */
};

/*
 * Runs the tests of @t (@nt of them) named in @names (@n of them), or if
 * none is named, every one that is not named_only.
 */
T_API void t_run(const struct t_test *t, size_t nt, int n, char **names)
{
	size_t i;
	int a;

	for (i = 0; i < nt; i++) {
		int run = !n && !t[i].named_only;

		for (a = 0; a < n; a++)
			run |= !strcmp(names[a], t[i].name);
		if (run)
			t[i].fn();
	}
}

/*
 * SIGBUS caught: t_sigbus_at() and t_hwpoison() jump back from the handler
 * and say what the signal was (t_sigbus_code, t_sigbus_addr, and
 * t_sigbus_lsb: si_addr_lsb, the log2 of the size of a memory failure's
 * mapping).
 */
T_API sigjmp_buf t_sigbus_jb;
T_API volatile sig_atomic_t t_sigbus_hit, t_sigbus_code, t_sigbus_lsb;
T_API void *volatile t_sigbus_addr;

T_API void t_on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	t_sigbus_code = si->si_code;
	t_sigbus_addr = si->si_addr;
	t_sigbus_lsb = si->si_addr_lsb;
	t_sigbus_hit = 1;
	siglongjmp(t_sigbus_jb, 1);
}

/* From now on SIGBUS goes to t_on_sigbus(). */
T_API void t_catch_sigbus(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = t_on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
}

/* 1 if reading *@p raises SIGBUS. */
T_API int t_sigbus_at(volatile char *p)
{
	t_catch_sigbus();
	t_sigbus_hit = 0;
	if (sigsetjmp(t_sigbus_jb, 1) == 0)
		(void)*p;
	return t_sigbus_hit;
}

/*
 * 1 if this kernel can inject memory failures: CONFIG_MEMORY_FAILURE (its
 * sysctl vm.memory_failure_early_kill exists; without it madvise() says
 * EINVAL to MADV_HWPOISON) and CAP_SYS_ADMIN (root).  Else SKIP @name, 0.
 */
T_API int t_hwpoison_available(const char *name)
{
	if (access("/proc/sys/vm/memory_failure_early_kill", F_OK)) {
		t_skip(name, "no memory failure injection: this kernel lacks CONFIG_MEMORY_FAILURE");
		return 0;
	}
	if (geteuid()) {
		t_skip(name, "MADV_HWPOISON needs root");
		return 0;
	}
	return 1;
}

/*
 * MADV_HWPOISON of the 4 KiB page at @p (a memory failure there), catching
 * the SIGBUS it raises (t_sigbus_hit).  Call t_hwpoison_available() before
 * setting up: with injection available, madvise failing without a SIGBUS is
 * a FAIL @name (0), e.g. a memory_failure path that refused the page.
 */
T_API int t_hwpoison(const char *name, void *p)
{
	volatile int err = 0;

	t_catch_sigbus();
	t_sigbus_hit = 0;
	if (sigsetjmp(t_sigbus_jb, 1) == 0 &&
	    madvise(p, 4096, MADV_HWPOISON))
		err = errno;
	if (err && !t_sigbus_hit) {
		t_fail(name, "madvise(MADV_HWPOISON) failed with %s and raised no SIGBUS",
		       t_errname(err));
		return 0;
	}
	return 1;
}

#endif /* MODULE_TEST_H */
