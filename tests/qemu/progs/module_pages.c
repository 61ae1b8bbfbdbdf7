// SPDX-License-Identifier: GPL-2.0
/*
 * module_pages MPT DEV [DEV1] [TEST...]: small files in 4 KiB pages
 * (FAMFSIOC_MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES) on a bare kernel mount
 * of DEV at MPT, for suites/module_pages.sh.
 *
 * Tests (the default ones in this order; the named ones alone, each on a
 * fresh mount):
 *   share    three small files in one 2 MiB unit (one of them with its two
 *            extents in reverse device order) each write and read their own
 *            seeded bytes (pwrite/pread and shared mappings), which lie on
 *            the device where their maps say and nowhere else; statfs and
 *            st_blocks count pages; MAP_GET_V3 shows the flag and the
 *            extents; MAP_GET, MAP_GETEXT and MAP_GET_V2 get EOVERFLOW
 *   overlap  a page of another small file (whole, part, or two extents of
 *            one map on each other) is refused with EADDRINUSE, its
 *            neighbour page is not; a page extent in the 2 MiB unit of a
 *            map made without the flag (its ragged tail included) is
 *            refused, and so is any map without the flag (v1, v2, v3,
 *            interleaved) over a shared unit; each refusal leaves the file
 *            unmapped and statfs unchanged
 *   errno    one refusal per check of the contract in <linux/famfs_ioctl.h>
 *            with its errno, their order, and the limits accepted (a whole
 *            unit, file size 2 MiB - 1, 16 extents)
 *   beyond   a small file mapped over 2 MiB: its pages are its own bytes,
 *            the first byte past them (and the end of the mapping, and a
 *            mapping that starts past EOF) is SIGBUS; the neighbour's bytes
 *            stay where they are; reads stop at EOF, writes there ENOSPC
 *   faults   (named) a small file and a whole-unit one touched through 2 MiB
 *            mappings: one 4 KiB fault per page (getrusage); the suite
 *            counts the fs_dax and famfs fault tracepoints
 *   logline  (named) one refusal (an extent that crosses a 2 MiB boundary)
 *            for the suite to find its log line
 *   pins     (named) a page of a small file with two extents vmsplice'd
 *            into a pipe, the file evicted: only that extent stays reserved
 *            (EADDRINUSE), the other extent and the unit's other pages are
 *            mapped again at once, the neighbour keeps working, the pipe
 *            still shows the evicted file's bytes; once it is closed the
 *            pinned page is free too
 *   member   (named, DEV1 given) page extents on member 1 (attached with
 *            FAMFSIOC_DEV_ADD): overlap is per device, the bytes land on
 *            DEV1, a map may use both devices
 *
 * Device layout (nothing here is formatted), from a base B of 800 MiB on a
 * device of 900 MiB or more, of 400 MiB on a smaller one of 480 MiB or more
 * (the two 512 MiB NVDIMMs of mixed):
 *   share B  overlap B+4M..B+8M (+ B+2M, B+8M for maps without the flag)
 *   errno B+20M..B+28M  faults B+30M, B+32M  beyond B+40M  pins B+50M
 *   member B+60M (both devices)  logline B+70M
 */
#include "module_test.h"
#include <sys/uio.h>

#define PG		4096ULL
#define U_SHARE		(base + 0 * MiB)
#define U_OV		(base + 4 * MiB)
#define U_BIG		(base + 6 * MiB)
#define U_ERR		(base + 20 * MiB)
#define U_FAULT		(base + 30 * MiB)
#define U_FULL		(base + 32 * MiB)
#define U_BEYOND	(base + 40 * MiB)
#define U_PINS		(base + 50 * MiB)
#define U_MEMBER	(base + 60 * MiB)
#define U_LOG		(base + 70 * MiB)
#define NODEV		5

static const char *mpt, *dev0, *dev1;
static unsigned long long devsz, base;
static int nfile;

static struct famfs_ioc_dext px(unsigned int dev, unsigned long long off,
				unsigned long long len)
{
	struct famfs_ioc_dext d;

	memset(&d, 0, sizeof(d));
	d.devindex = dev;
	d.offset = off;
	d.len = len;
	return d;
}

/* MAP_CREATE_V3 (or @cmd) with header @flags over @n entries at @list. */
static int pmap_raw(int fd, unsigned long cmd, unsigned int flags,
		    unsigned int etype, unsigned int ftype,
		    unsigned long long size, unsigned int n, const void *list)
{
	struct famfs_ioc_map_v2 m = mapv2_mk(etype, ftype, size, n, list);

	m.flags = flags;
	return ioctl(fd, cmd, &m);
}

/* A page map of @n extents for @fd. */
static int pmap(int fd, unsigned long long size, unsigned int n,
		const struct famfs_ioc_dext *d)
{
	return pmap_raw(fd, FAMFSIOC_MAP_CREATE_V3, FAMFS_IOC_MAP_PAGES,
			SIMPLE_DAX_EXTENT, FAMFS_REG, size, n, d);
}

static int newfile(const char *what)
{
	char name[96];

	snprintf(name, sizeof(name), "%s-%d-%d", what, (int)getpid(), nfile++);
	return mkfile(mpt, name);
}

/* A new small file with a page map; dies if it is refused. */
static int pfile(const char *what, unsigned long long size, unsigned int n,
		 const struct famfs_ioc_dext *d)
{
	int fd = newfile(what);

	if (pmap(fd, size, n, d)) {
		printf("FAIL setup: %s: MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES: %s\n",
		       what, t_errname(errno));
		exit(1);
	}
	return fd;
}

/* Is @fd without a map (MAP_GET_V3: ENODATA)? */
static int unmapped(int fd)
{
	struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 0, NULL);

	return ioctl(fd, FAMFSIOC_MAP_GET_V3, &g) == -1 && errno == ENODATA;
}

/* A map on a new file must fail with @want, leaving nothing claimed. */
static void refused(const char *name, int want, unsigned long cmd,
		    unsigned int flags, unsigned int etype, unsigned int ftype,
		    unsigned long long size, unsigned int n, const void *list)
{
	unsigned long long b0 = t_bfree(mpt);
	char n2[160];
	int fd = newfile(name);

	t_errno(name, pmap_raw(fd, cmd, flags, etype, ftype, size, n, list),
		want);
	snprintf(n2, sizeof(n2), "%s-left-unmapped", name);
	t_true(n2, unmapped(fd) && t_bfree(mpt) == b0,
	       "the file has a map, or statfs changed, after a refusal");
	close(fd);
}

/* A page map that must be refused with @want. */
static void pbad(const char *name, int want, unsigned long long size,
		 unsigned int n, const struct famfs_ioc_dext *d)
{
	refused(name, want, FAMFSIOC_MAP_CREATE_V3, FAMFS_IOC_MAP_PAGES,
		SIMPLE_DAX_EXTENT, FAMFS_REG, size, n, d);
}

/* @len bytes of @seed's pattern at file offset 0 of @fd: pwrite. */
static void pwrite_seed(const char *name, int fd, uint64_t seed, size_t len)
{
	static char buf[TWO_MiB];

	fill(buf, seed, 0, len);
	if (pwrite(fd, buf, len, 0) != (ssize_t)len)
		t_fail(name, "pwrite of %zu bytes: %s", len, t_errname(errno));
}

/* PASS @name iff pread of the file's @size bytes shows @seed's pattern. */
static void pread_seed(const char *name, int fd, uint64_t seed, size_t size)
{
	static char buf[TWO_MiB];
	ssize_t n = pread(fd, buf, sizeof(buf), 0);
	long long bad;

	if (n != (ssize_t)size) {
		t_fail(name, "pread returned %zd of %zu bytes (%s)", n, size,
		       n < 0 ? t_errname(errno) : "short");
		return;
	}
	bad = check(buf, seed, 0, size & ~7ULL);
	if (bad < 0)
		t_pass(name);
	else
		t_fail(name, "file offset %#llx does not hold its seed", bad);
}

/* Map @fd shared, @len bytes. */
static char *mapf(int fd, size_t len, int prot)
{
	char *p = mmap(NULL, len, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		die("mmap");
	return p;
}

/* ---- share ---------------------------------------------------------------- */
static void test_share(void)
{
	struct famfs_ioc_dext a[1] = { px(0, U_SHARE, 2 * PG) };
	struct famfs_ioc_dext b[1] = { px(0, U_SHARE + 2 * PG, 3 * PG) };
	struct famfs_ioc_dext c[2] = { px(0, U_SHARE + 16 * PG, PG),
				       px(0, U_SHARE + 5 * PG, 2 * PG) };
	const unsigned long long bsz = 3 * PG - 100;
	unsigned long long b0 = t_bfree(mpt);
	struct famfs_ioc_dext got[4];
	struct famfs_ioc_map_v2 g;
	struct famfs_ioc_map m1;
	struct famfs_extent e1[FAMFS_MAX_EXTENTS];
	struct t_dev raw;
	struct stat st;
	int fa, fb, fc;
	char *pb, *pc;

	fa = newfile("share-a");
	if (!t_ok("share-a-mapped", pmap(fa, 2 * PG, 1, a)))
		return;
	fb = pfile("share-b", bsz, 1, b);
	fc = pfile("share-c", 3 * PG, 2, c);
	t_equ("share-statfs-counts-pages", b0 - 8, t_bfree(mpt));
	t_true("share-st-blocks", !fstat(fc, &st) && st.st_blocks == 24 &&
	       st.st_size == (off_t)(3 * PG), "st_blocks/st_size of c");

	/* a: pwrite; b: a shared mapping (its whole last page); c: both */
	pwrite_seed("share-a-write", fa, 0xa1, 2 * PG);
	pb = mapf(fb, 3 * PG, PROT_READ | PROT_WRITE);
	fill(pb, 0xb2, 0, 3 * PG);
	pwrite_seed("share-c-write", fc, 0xc3, PG);
	pc = mapf(fc, 3 * PG, PROT_READ | PROT_WRITE);
	fill(pc + PG, 0xc3, PG, 2 * PG);
	t_ok("share-msync", msync(pb, 3 * PG, MS_SYNC));

	pread_seed("share-a-reads-own", fa, 0xa1, 2 * PG);
	pread_seed("share-b-reads-own", fb, 0xb2, bsz);
	pread_seed("share-c-reads-own", fc, 0xc3, 3 * PG);
	t_true("share-c-mapping", check(pc, 0xc3, 0, 3 * PG) < 0,
	       "c's mapping does not show its bytes");
	t_true("share-b-mapping", check(pb, 0xb2, 0, 3 * PG) < 0,
	       "b's mapping does not show its bytes");

	/* On the device: each file where its map says. */
	t_dev_open(&raw, dev0, O_RDONLY);
	t_devpass(&raw, "share-a-on-device", U_SHARE, 2 * PG, 0xa1, 0);
	t_devpass(&raw, "share-b-on-device", U_SHARE + 2 * PG, 3 * PG, 0xb2, 0);
	if (t_devcheck(&raw, "share-c-on-device", U_SHARE + 16 * PG, PG, 0xc3,
		       0))
		t_devpass(&raw, "share-c-on-device", U_SHARE + 5 * PG, 2 * PG,
			  0xc3, PG);

	/* The maps read back: v3 with the flag, v1 and v2 cannot say it. */
	memset(got, 0x77, sizeof(got));
	g = mapv2_mk(0, 0, 0, 4, got);
	if (t_ok("share-get-v3", ioctl(fc, FAMFSIOC_MAP_GET_V3, &g))) {
		t_equ("share-get-v3-flags", FAMFS_IOC_MAP_PAGES, g.flags);
		t_equ("share-get-v3-count", 2, g.ext_count);
		t_true("share-get-v3-extents", !memcmp(got, c, sizeof(c)),
		       "the extents read back differ");
		t_equ("share-get-v3-size", 3 * PG, g.file_size);
	}
	t_errno("share-get-v1-eoverflow", ioctl(fc, FAMFSIOC_MAP_GET, &m1),
		EOVERFLOW);
	t_errno("share-getext-eoverflow", ioctl(fc, FAMFSIOC_MAP_GETEXT, e1),
		EOVERFLOW);
	g = mapv2_mk(0, 0, 0, 4, got);
	t_errno("share-get-v2-eoverflow", ioctl(fc, FAMFSIOC_MAP_GET_V2, &g),
		EOVERFLOW);
	munmap(pb, 3 * PG);
	munmap(pc, 3 * PG);
	close(fa);
	close(fb);
	close(fc);
}

/* ---- overlap -------------------------------------------------------------- */
static void test_overlap(void)
{
	struct famfs_ioc_dext x[1] = { px(0, U_OV + 4 * PG, 2 * PG) };
	struct famfs_ioc_dext d[2];
	struct famfs_extent se;
	struct famfs_ioc_iext ie;
	unsigned long long offs[2] = { base + 8 * MiB, U_OV };
	int fx, fe, fn;

	fx = pfile("ov-x", 2 * PG, 1, x);
	d[0] = px(0, U_OV + 5 * PG, PG);
	pbad("ov-same-page", EADDRINUSE, PG, 1, d);
	d[0] = px(0, U_OV + 3 * PG, 2 * PG);
	pbad("ov-part", EADDRINUSE, 2 * PG, 1, d);
	d[0] = px(0, U_OV + 2 * PG, 4 * PG);
	pbad("ov-around", EADDRINUSE, PG, 1, d);
	d[0] = px(0, U_OV + 20 * PG, 2 * PG);
	d[1] = px(0, U_OV + 21 * PG, PG);
	pbad("ov-own-extents", EADDRINUSE, 3 * PG, 2, d);
	d[0] = px(0, U_OV + 6 * PG, PG);
	fn = newfile("ov-neighbour");
	t_ok("ov-neighbour-page-accepted", pmap(fn, PG, 1, d));
	close(fn);

	/* A map without the flag keeps its whole units: a ragged one too. */
	fe = newfile("ov-big");
	if (!t_ok("ov-ragged-map", map1(fe, 5000, U_BIG, 5000)))
		return;
	d[0] = px(0, U_BIG + 256 * PG, PG);
	pbad("ov-in-unit-of-2m-map", EADDRINUSE, PG, 1, d);
	d[0] = px(0, U_BIG + 2 * PG, PG);
	pbad("ov-ragged-tail", EADDRINUSE, PG, 1, d);
	d[0] = px(0, U_BIG, PG);
	pbad("ov-first-page-of-2m-map", EADDRINUSE, PG, 1, d);

	/* ... and none of them may enter a shared unit. */
	fn = newfile("ov-v1-over-shared");
	t_errno("ov-v1-over-shared", map1(fn, TWO_MiB, U_OV, TWO_MiB),
		EADDRINUSE);
	t_true("ov-v1-over-shared-left-unmapped", unmapped(fn),
	       "the file has a map after a refusal");
	close(fn);
	se.offset = U_OV;
	se.len = TWO_MiB;
	refused("ov-v2-over-shared", EADDRINUSE, FAMFSIOC_MAP_CREATE_V2, 0,
		SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, &se);
	se.offset = base + 2 * MiB;
	se.len = 4 * MiB;
	refused("ov-v2-two-units-over-shared", EADDRINUSE,
		FAMFSIOC_MAP_CREATE_V2, 0, SIMPLE_DAX_EXTENT, FAMFS_REG,
		4 * MiB, 1, &se);
	d[0] = px(0, U_OV, TWO_MiB);
	refused("ov-v3-over-shared", EADDRINUSE, FAMFSIOC_MAP_CREATE_V3, 0,
		SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, d);
	ie = iext_mk(2, TWO_MiB, 4 * MiB, TWO_MiB, offs);
	refused("ov-strip-over-shared", EADDRINUSE, FAMFSIOC_MAP_CREATE_V2, 0,
		FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, 4 * MiB, 1, &ie);
	close(fe);
	close(fx);
}

/* ---- errno ---------------------------------------------------------------- */
static void test_errno(void)
{
	const unsigned long long u = U_ERR;
	struct famfs_ioc_dext d[FAMFS_IOC_MAX_PAGE_EXTENTS + 1];
	struct famfs_ioc_iext_v3 ie;
	unsigned int i;
	struct stat st;
	int fd;

	d[0] = px(0, u, PG);
	refused("errno-v2-flag", EINVAL, FAMFSIOC_MAP_CREATE_V2,
		FAMFS_IOC_MAP_PAGES, SIMPLE_DAX_EXTENT, FAMFS_REG, PG, 1,
		(struct famfs_extent[]){ { u, PG } });
	/* (FAMFS_IOC_MAP_INVALIDATE and _IDENT are the other flags v3 takes) */
	refused("errno-other-flag", EINVAL, FAMFSIOC_MAP_CREATE_V3,
		FAMFS_IOC_MAP_PAGES | (FAMFS_IOC_MAP_IDENT << 1),
		SIMPLE_DAX_EXTENT, FAMFS_REG, PG, 1, d);
	refused("errno-unknown-type-first", EOPNOTSUPP, FAMFSIOC_MAP_CREATE_V3,
		FAMFS_IOC_MAP_PAGES, 99, FAMFS_REG, PG, 1, d);
	memset(&ie, 0, sizeof(ie));
	ie.nstrips = 1;
	ie.chunk_size = TWO_MiB;
	ie.nbytes = PG;
	ie.strips[0] = px(0, u, PG);
	refused("errno-interleaved", EINVAL, FAMFSIOC_MAP_CREATE_V3,
		FAMFS_IOC_MAP_PAGES, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, PG, 1,
		&ie);
	refused("errno-log-file", EINVAL, FAMFSIOC_MAP_CREATE_V3,
		FAMFS_IOC_MAP_PAGES, SIMPLE_DAX_EXTENT, FAMFS_LOG, PG, 1, d);
	pbad("errno-no-extents", EINVAL, PG, 0, d);
	for (i = 0; i <= FAMFS_IOC_MAX_PAGE_EXTENTS; i++)
		d[i] = px(0, u + 2 * i * PG, PG);
	pbad("errno-17-extents", E2BIG, PG, FAMFS_IOC_MAX_PAGE_EXTENTS + 1, d);
	d[0] = px(0, u, TWO_MiB);
	pbad("errno-size-2m", EFBIG, TWO_MiB, 1, d);
	d[0] = px(0, u, PG);
	refused("errno-list-unreadable", EFAULT, FAMFSIOC_MAP_CREATE_V3,
		FAMFS_IOC_MAP_PAGES, SIMPLE_DAX_EXTENT, FAMFS_REG, PG, 1,
		(void *)16);
	/* Each extent: its device fields, then its own checks. */
	d[0] = px(0, u, PG);
	d[0].reserved = 1;
	pbad("errno-reserved", EINVAL, PG, 1, d);
	d[0] = px(NODEV, u, PG);
	pbad("errno-no-device", ENODEV, PG, 1, d);
	d[0] = px(0, u, 0);
	pbad("errno-len-0", EINVAL, PG, 1, d);
	d[0] = px(0, u + 512, PG);
	pbad("errno-offset-unaligned", EINVAL, PG, 1, d);
	d[0] = px(0, u, PG + 100);
	pbad("errno-len-unaligned", EINVAL, PG, 1, d);
	d[0] = px(0, u, 2 * PG);
	d[1] = px(0, u + 4 * PG, 5000);
	pbad("errno-last-len-unaligned", EINVAL, 2 * PG + 5000, 2, d);
	d[0] = px(0, ~(PG - 1), 2 * PG);
	pbad("errno-overflow", EOVERFLOW, PG, 1, d);
	d[0] = px(0, u + TWO_MiB - PG, 2 * PG);
	pbad("errno-crosses-unit", EINVAL, PG, 1, d);
	d[0] = px(0, devsz & ~(TWO_MiB - 1), PG);
	pbad("errno-past-device", ENXIO, PG, 1, d);
	d[0] = px(0, (devsz & ~(TWO_MiB - 1)) - PG, 2 * PG);
	pbad("errno-crosses-device-end", EINVAL, PG, 1, d);
	d[0] = px(0, 16 * PG, PG);
	pbad("errno-superblock-unit", EINVAL, PG, 1, d);
	d[0] = px(0, u, PG);
	pbad("errno-size-past-extents", EFBIG, PG + 1, 1, d);
	/* The order: extent 0's checks before extent 1's device fields. */
	d[0] = px(0, u + TWO_MiB - PG, 2 * PG);
	d[1] = px(NODEV, u + 8 * PG, PG);
	pbad("errno-order-ext0-first", EINVAL, PG, 2, d);
	d[0] = px(0, u, PG);
	d[1] = px(0, u + 2 * PG, 0);
	pbad("errno-order-ext1-before-whole-map", EINVAL, 3 * PG, 2, d);
	/* The header's checks before the list is read. */
	pbad("errno-order-e2big-before-list", E2BIG, PG,
	     FAMFS_IOC_MAX_PAGE_EXTENTS + 1, NULL);
	pbad("errno-order-size-before-list", EFBIG, TWO_MiB, 1, NULL);

	/* The limits: a whole unit for 2 MiB - 1 bytes, 16 extents. */
	d[0] = px(0, u + 2 * TWO_MiB, TWO_MiB);
	fd = newfile("errno-whole-unit");
	if (t_ok("errno-whole-unit-accepted", pmap(fd, TWO_MiB - 1, 1, d)))
		t_true("errno-whole-unit-blocks", !fstat(fd, &st) &&
		       st.st_blocks == TWO_MiB / 512, "st_blocks");
	close(fd);
	for (i = 0; i < FAMFS_IOC_MAX_PAGE_EXTENTS; i++)
		d[i] = px(0, u + TWO_MiB + (FAMFS_IOC_MAX_PAGE_EXTENTS - i) *
			  2 * PG, PG);
	fd = newfile("errno-16-extents");
	t_ok("errno-16-extents-accepted",
	     pmap(fd, FAMFS_IOC_MAX_PAGE_EXTENTS * PG - 1,
		  FAMFS_IOC_MAX_PAGE_EXTENTS, d));
	close(fd);
}

/* ---- beyond --------------------------------------------------------------- */
static void test_beyond(void)
{
	struct famfs_ioc_dext a[1] = { px(0, U_BEYOND, 2 * PG) };
	struct famfs_ioc_dext b[1] = { px(0, U_BEYOND + 2 * PG, 2 * PG) };
	struct t_dev raw;
	char buf[4096], *p, *q;
	int fa, fb;

	fa = pfile("beyond-a", 5000, 1, a);
	fb = pfile("beyond-b", 2 * PG, 1, b);
	pwrite_seed("beyond-b-write", fb, 0xbb, 2 * PG);
	p = mapf(fa, TWO_MiB, PROT_READ | PROT_WRITE);
	/* Its own two pages, past EOF's byte too, are its own memory. */
	fill(p, 0xaa, 0, 2 * PG);
	t_true("beyond-a-own-pages", check(p, 0xaa, 0, 2 * PG) < 0,
	       "a's mapping does not show what was written to it");
	t_true("beyond-next-page-sigbus", t_sigbus_at(p + 2 * PG),
	       "the page after a small file's last page is mapped");
	t_true("beyond-neighbour-page-sigbus", t_sigbus_at(p + 3 * PG + 8),
	       "the neighbour's second page is reachable through a");
	t_true("beyond-mapping-end-sigbus", t_sigbus_at(p + TWO_MiB - 1),
	       "the end of a 2 MiB mapping of a small file is mapped");
	q = mmap(NULL, PG, PROT_READ, MAP_SHARED, fa, 2 * PG);
	if (q == MAP_FAILED) {
		t_pass("beyond-mmap-past-eof");
	} else {
		t_true("beyond-mmap-past-eof", t_sigbus_at(q),
		       "a mapping of file page 2 (past EOF) reads memory");
		munmap(q, PG);
	}
	t_equ("beyond-pread-at-eof", 0, pread(fa, buf, sizeof(buf), 2 * PG));
	t_equ("beyond-pread-cut-at-eof", 5000 - PG,
	      pread(fa, buf, sizeof(buf), PG));
	t_errno("beyond-pwrite-at-eof", pwrite(fa, buf, 100, 5000), ENOSPC);
	/* The neighbour's bytes are where they were. */
	t_dev_open(&raw, dev0, O_RDONLY);
	t_devpass(&raw, "beyond-a-on-device", U_BEYOND, 2 * PG, 0xaa, 0);
	t_devpass(&raw, "beyond-b-untouched", U_BEYOND + 2 * PG, 2 * PG, 0xbb,
		  0);
	pread_seed("beyond-b-reads-own", fb, 0xbb, 2 * PG);
	munmap(p, TWO_MiB);
	close(fa);
	close(fb);
}

/* ---- faults --------------------------------------------------------------- */
static void test_faults(void)
{
	struct famfs_ioc_dext s[1] = { px(0, U_FAULT + 3 * PG, 5 * PG) };
	struct famfs_ioc_dext w[1] = { px(0, U_FULL, TWO_MiB) };
	int fs = pfile("faults-small", 5 * PG - 10, 1, s);
	int fw = pfile("faults-whole-unit", TWO_MiB - 1, 1, w);
	char *ps = mapf(fs, TWO_MiB, PROT_READ | PROT_WRITE);
	char *pw = mapf(fw, TWO_MiB, PROT_READ | PROT_WRITE);

	printf("info: whole-unit mapping at %p (%s 2 MiB aligned)\n", pw,
	       (uintptr_t)pw % TWO_MiB ? "not" : "");
	t_between("faults-small-4k-only", 5, 5,
		  t_touch_faults(ps, 5 * PG, 1, NULL), "faults");
	t_between("faults-whole-unit-4k-only", 512, 512,
		  t_touch_faults(pw, TWO_MiB, 1, NULL), "faults");
	munmap(ps, TWO_MiB);
	munmap(pw, TWO_MiB);
	close(fs);
	close(fw);
}

static void test_logline(void)
{
	struct famfs_ioc_dext d[1] = { px(0, U_LOG + TWO_MiB - PG, 2 * PG) };

	pbad("logline-crosses-unit", EINVAL, PG, 1, d);
}

/* ---- pins ----------------------------------------------------------------- */
static void test_pins(void)
{
	struct famfs_ioc_dext n[1] = { px(0, U_PINS, 2 * PG) };
	struct famfs_ioc_dext z[2] = { px(0, U_PINS + 4 * PG, PG),
				       px(0, U_PINS + 8 * PG, PG) };
	struct famfs_ioc_dext d[1];
	static char buf[PG];
	unsigned long long b0;
	int fn, fz, fd, pipefd[2];
	struct iovec iov;
	char path[512], *p;

	fn = pfile("pins-neighbour", 2 * PG, 1, n);
	pwrite_seed("pins-neighbour-write", fn, 0x11, 2 * PG);
	snprintf(path, sizeof(path), "%s/pins-z", mpt);
	fz = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fz < 0 || pmap(fz, 2 * PG, 2, z))
		die("pins-z");
	p = mapf(fz, 2 * PG, PROT_READ | PROT_WRITE);
	fill(p, 0x22, 0, 2 * PG);
	if (pipe(pipefd))
		die("pipe");
	iov.iov_base = p;	/* file page 0: extent 0, U_PINS + 16K */
	iov.iov_len = PG;
	if (vmsplice(pipefd[1], &iov, 1, 0) != (ssize_t)PG)
		die("vmsplice");
	munmap(p, 2 * PG);
	b0 = t_bfree(mpt);
	close(fz);
	if (unlink(path))
		die(path);

	/* Evicted: only the extent with the pinned page stays reserved. */
	t_equ("pins-statfs-one-page-kept", b0 + 1, t_bfree(mpt));
	d[0] = z[0];
	pbad("pins-pinned-page-reserved", EADDRINUSE, PG, 1, d);
	d[0] = z[1];
	fd = newfile("pins-other-extent");
	t_ok("pins-other-extent-free", pmap(fd, PG, 1, d));
	close(fd);
	d[0] = px(0, U_PINS + 5 * PG, 3 * PG);
	fd = newfile("pins-between");
	t_ok("pins-unit-pages-free", pmap(fd, 3 * PG, 1, d));
	close(fd);
	pread_seed("pins-neighbour-reads-own", fn, 0x11, 2 * PG);
	pwrite_seed("pins-neighbour-writes", fn, 0x12, 2 * PG);
	pread_seed("pins-neighbour-reads-new", fn, 0x12, 2 * PG);
	if (read(pipefd[0], buf, PG) != (ssize_t)PG)
		t_fail("pins-pipe-shows-bytes", "read: %s", t_errname(errno));
	else
		t_true("pins-pipe-shows-bytes", check(buf, 0x22, 0, PG) < 0,
		       "the pipe shows other bytes than the pinned page had");
	close(pipefd[0]);
	close(pipefd[1]);
	d[0] = z[0];
	fd = newfile("pins-after-pipe");
	t_ok("pins-page-free-after-pipe", pmap(fd, PG, 1, d));
	close(fd);
	close(fn);
}

/* ---- member --------------------------------------------------------------- */
static void test_member(void)
{
	struct famfs_ioc_dext d[2];
	struct famfs_ioc_dev_add a;
	struct famfs_ioc_map_v2 g;
	struct famfs_ioc_dext got[2];
	struct t_dev raw0, raw1;
	int root, dfd, f0, f1, f2;
	struct stat st;

	if (!dev1) {
		t_fail("member", "no DEV1 given");
		return;
	}
	root = open(mpt, O_RDONLY | O_DIRECTORY);
	dfd = open(dev1, O_RDONLY);
	if (root < 0 || dfd < 0)
		die("open the mount or DEV1");
	memset(&a, 0, sizeof(a));
	a.fd = dfd;
	a.index = 1;
	if (stat(dev1, &st))
		die(dev1);
	a.size = (S_ISCHR(st.st_mode) ? t_dax_size(dev1) : dev_size(dev1)) &
		 ~(TWO_MiB - 1);
	if (!t_ok("member-attach", ioctl(root, FAMFSIOC_DEV_ADD, &a)))
		return;
	d[0] = px(0, U_MEMBER, 2 * PG);
	f0 = pfile("member-dev0", 2 * PG, 1, d);
	d[0] = px(1, U_MEMBER, 2 * PG);
	f1 = newfile("member-dev1");
	t_ok("member-same-offsets-other-device", pmap(f1, 2 * PG, 1, d));
	d[0] = px(1, U_MEMBER + PG, PG);
	pbad("member-overlap-on-member", EADDRINUSE, PG, 1, d);
	d[0] = px(0, U_MEMBER + 2 * PG, PG);
	d[1] = px(1, U_MEMBER + 2 * PG, PG);
	f2 = newfile("member-both");
	t_ok("member-both-devices", pmap(f2, 2 * PG, 2, d));
	pwrite_seed("member-dev0-write", f0, 0x30, 2 * PG);
	pwrite_seed("member-dev1-write", f1, 0x31, 2 * PG);
	pwrite_seed("member-both-write", f2, 0x32, 2 * PG);
	t_dev_open(&raw0, dev0, O_RDONLY);
	t_dev_open(&raw1, dev1, O_RDONLY);
	t_devpass(&raw0, "member-dev0-on-dev0", U_MEMBER, 2 * PG, 0x30, 0);
	t_devpass(&raw1, "member-dev1-on-dev1", U_MEMBER, 2 * PG, 0x31, 0);
	if (t_devcheck(&raw0, "member-both-on-devices", U_MEMBER + 2 * PG, PG,
		       0x32, 0))
		t_devpass(&raw1, "member-both-on-devices", U_MEMBER + 2 * PG,
			  PG, 0x32, PG);
	g = mapv2_mk(0, 0, 0, 2, got);
	if (t_ok("member-get-v3", ioctl(f2, FAMFSIOC_MAP_GET_V3, &g)))
		t_true("member-get-v3-map", g.flags == FAMFS_IOC_MAP_PAGES &&
		       g.ext_count == 2 && !memcmp(got, d, sizeof(got)),
		       "MAP_GET_V3 differs from the map made");
	close(f0);
	close(f1);
	close(f2);
	close(dfd);
	close(root);
}

static const struct t_test tests[] = {
	{ "share", test_share, 0 },
	{ "overlap", test_overlap, 0 },
	{ "errno", test_errno, 0 },
	{ "beyond", test_beyond, 0 },
	{ "faults", test_faults, 1 },
	{ "logline", test_logline, 1 },
	{ "pins", test_pins, 1 },
	{ "member", test_member, 1 },
};

int main(int argc, char **argv)
{
	int first = 3;

	if (argc < 3) {
		fprintf(stderr, "usage: module_pages MPT DEV [DEV1] [TEST...]\n");
		return 2;
	}
	mpt = argv[1];
	dev0 = argv[2];
	if (argc > 3 && !strncmp(argv[3], "/dev/", 5))
		dev1 = argv[first++];
	devsz = dev_size_min(dev0, 480 * MiB);
	base = devsz >= 900 * MiB ? 800 * MiB : 400 * MiB;
	t_run(tests, sizeof(tests) / sizeof(tests[0]), argc - first,
	      argv + first);
	return t_done(0);
}
