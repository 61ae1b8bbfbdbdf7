/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the famfs.ko guest test programs (progs/module_*.c).
 *
 * A program prints one line per check: "PASS name", "FAIL name: why" or
 * "SKIP name: why"; the suite (suites/module*.sh) turns them into PROTOCOL
 * lines with its own prefix.  The exit status is 1 if anything failed.
 */
#ifndef MODULE_TEST_H
#define MODULE_TEST_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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
#include <sys/types.h>
#include <linux/fs.h>
#include <linux/famfs_ioctl.h>

#define MiB		(1ULL << 20)
#define TWO_MiB		(2 * MiB)

/* Not every program uses every helper. */
#define T_API		static __attribute__((unused))

T_API int t_failed;

T_API void __attribute__((format(printf, 2, 3)))
t_fail(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
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

	printf("SKIP %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
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

/* FAMFSIOC_MAP_CREATE with up to two extents; returns the ioctl result. */
T_API int map2(int fd, unsigned int ftype, unsigned long long size,
		unsigned long long n, unsigned long long off0,
		unsigned long long len0, unsigned long long off1,
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

/* FAMFSIOC_MAP_CREATE_V2 of @count entries at @list. */
T_API int mapv2(int fd, unsigned int etype, unsigned int ftype,
		unsigned long long size, unsigned int count, const void *list)
{
	struct famfs_ioc_map_v2 m;

	memset(&m, 0, sizeof(m));
	m.extent_type = etype;
	m.file_type = ftype;
	m.file_size = size;
	m.ext_count = count;
	m.ext_list = (uintptr_t)list;
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
 * The device, read with O_DIRECT (the mount holds a pmem device
 * exclusively, which only keeps other exclusive openers out): the same
 * memory the DAX mappings of the files write.
 */
#define T_DBUF	(4 * MiB)

struct t_dev {
	int	fd;
	void	*buf;		/* T_DBUF, aligned for O_DIRECT */
};

T_API void t_dev_open(struct t_dev *d, const char *dev, int flags)
{
	d->fd = open(dev, flags | O_DIRECT);
	if (d->fd < 0)
		die("open the device O_DIRECT (no O_EXCL)");
	if (posix_memalign(&d->buf, 4096, T_DBUF))
		die("posix_memalign");
}

/* Checks that device bytes [@off, @off+@len) hold pattern @seed from @foff. */
T_API int t_devcheck(struct t_dev *d, const char *name,
		     unsigned long long off, unsigned long long len,
		     uint64_t seed, uint64_t foff)
{
	unsigned long long done;

	for (done = 0; done < len; done += T_DBUF) {
		size_t n = len - done < T_DBUF ? len - done : T_DBUF;
		/* O_DIRECT reads whole blocks; T_DBUF is a multiple. */
		size_t rn = (n + 4095) & ~(size_t)4095;
		long long bad;

		if (pread(d->fd, d->buf, rn, off + done) != (ssize_t)rn) {
			t_fail(name, "cannot read the device at %#llx: %s",
			       off + done, t_errname(errno));
			return 0;
		}
		bad = check(d->buf, seed, foff + done, n);
		if (bad >= 0) {
			t_fail(name, "file offset %#llx (device %#llx) does not hold the pattern",
			       bad, off + (bad - foff));
			return 0;
		}
	}
	return 1;
}

/*
 * Writes pattern @seed from @foff to device bytes [@off, @off+@len); @off
 * and @len are multiples of 4 KiB (O_DIRECT).
 */
T_API int t_devfill(struct t_dev *d, unsigned long long off,
		    unsigned long long len, uint64_t seed, uint64_t foff)
{
	unsigned long long done;

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

#endif /* MODULE_TEST_H */
