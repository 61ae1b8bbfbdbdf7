// SPDX-License-Identifier: GPL-2.0
/*
 * module_ioctl_v2 MPT DEV: the v2 map ioctls of famfs.ko (MAP_CREATE_V2,
 * MAP_GET_V2) on a mount of DEV at MPT: one check per row of the errno
 * contract in fs/famfs/ioctl.c.  Every refused create leaves the file
 * unmapped (MAP_GET and MAP_GET_V2: ENODATA, size 0) and claims nothing
 * (statfs unchanged).  Maps of 256 simple extents and of 16 interleaved
 * extents x 16 strips are accepted, one more of either refused; v1 MAP_GET
 * and MAP_GETEXT refuse maps they cannot hold with EOVERFLOW.
 *
 * Device layout used (module_ioctl runs first on the same mount and uses
 * 0..330M; the big maps need a device of 960 MiB, else they are skipped):
 *   332M..334M a v1 file the v2 maps must not overlap, 340M..400M: v2 test
 *   files, 400M..912M: the big v2 maps, one at a time.
 */
#include "module_test.h"
#include <sys/mount.h>
#include <sys/wait.h>

static const char *mpt;
static unsigned long long devsz;
static int nfile;

#define VICTIM	(332 * MiB)

static int newfile(void)
{
	char name[64];

	snprintf(name, sizeof(name), "v2-%d", nfile++);
	return mkfile(mpt, name);
}

#define V2B	(340 * MiB)	/* v2 test files */
#define BIG	(400 * MiB)	/* the big maps */

/* Nothing mapped, no size, nothing claimed after a refused create. */
static void unmapped2(const char *name, int fd, unsigned long long bfree)
{
	struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 0, NULL);
	struct famfs_ioc_map got;
	char n2[160];
	struct stat st;

	snprintf(n2, sizeof(n2), "%s-still-unmapped", name);
	if (ioctl(fd, FAMFSIOC_MAP_GET_V2, &g) == -1 && errno == ENODATA &&
	    ioctl(fd, FAMFSIOC_MAP_GET, &got) == -1 && errno == ENODATA &&
	    !fstat(fd, &st) && st.st_size == 0 && t_bfree(mpt) == bfree)
		t_pass(n2);
	else
		t_fail(n2, "file has a map or a size, or statfs changed, after a refused MAP_CREATE_V2");
}

static void bad2h(const char *name, int want, struct famfs_ioc_map_v2 *m)
{
	unsigned long long b0 = t_bfree(mpt);
	int fd = newfile();

	t_errno(name, ioctl(fd, FAMFSIOC_MAP_CREATE_V2, m), want);
	unmapped2(name, fd, b0);
	close(fd);
}

static void bad2(const char *name, int want, unsigned int etype,
		 unsigned int ftype, unsigned long long size,
		 unsigned int count, const void *list)
{
	struct famfs_ioc_map_v2 m = mapv2_mk(etype, ftype, size, count, list);

	bad2h(name, want, &m);
}

/* Interleaved: one extent @ie of a FAMFS_REG file of @size. */
static void badi(const char *name, int want, unsigned long long size,
		 struct famfs_ioc_iext ie)
{
	bad2(name, want, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, size, 1, &ie);
}

/* 4 strips of 2 MiB at V2B + 2M * (0..3), 2 MiB chunks, 8 MiB. */
static struct famfs_ioc_iext ie4(void)
{
	const unsigned long long o[4] = { V2B, V2B + TWO_MiB, V2B + 4 * MiB,
					  V2B + 6 * MiB };

	return iext_mk(4, TWO_MiB, 8 * MiB, TWO_MiB, o);
}

static void test_v2_header(void)
{
	struct famfs_extent e[2] = { { V2B, TWO_MiB }, { 0, 0 } };
	struct famfs_ioc_iext ie = ie4();
	struct famfs_ioc_map_v2 m;
	char *pg;
	int fd;

	fd = newfile();
	t_errno("v2-create-efault", ioctl(fd, FAMFSIOC_MAP_CREATE_V2,
					  (void *)8), EFAULT);
	unmapped2("v2-create-efault", fd, t_bfree(mpt));
	close(fd);

	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, e);
	m.flags = 1;
	bad2h("v2-flags", EINVAL, &m);
	m.flags = 0x80000000;
	bad2h("v2-flags-high", EINVAL, &m);
	m.flags = 0;
	m.reserved[3] = 1;
	bad2h("v2-reserved", EINVAL, &m);
	m.reserved[3] = 0;
	m.reserved[0] = ~0ULL;
	m.extent_type = 99;
	bad2h("v2-reserved-before-type", EINVAL, &m);

	bad2("v2-extent-type-0", EOPNOTSUPP, 0, FAMFS_REG, TWO_MiB, 1, e);
	bad2("v2-extent-type-14", EOPNOTSUPP, 14, FAMFS_REG, TWO_MiB, 1, e);
	bad2("v2-extent-type-16", EOPNOTSUPP, 16, FAMFS_REG, TWO_MiB, 1, e);
	bad2("v2-file-type-unknown", EOPNOTSUPP, SIMPLE_DAX_EXTENT,
	     FAMFS_LOG + 1, TWO_MiB, 1, e);
	bad2("v2-il-superblock", EOPNOTSUPP, FAMFS_INTERLEAVED_EXTENT,
	     FAMFS_SUPERBLOCK, TWO_MiB, 1, &ie);
	bad2("v2-il-log", EOPNOTSUPP, FAMFS_INTERLEAVED_EXTENT, FAMFS_LOG,
	     TWO_MiB, 1, &ie);
	bad2("v2-type-before-count", EOPNOTSUPP, 0, FAMFS_REG, TWO_MiB, 0,
	     NULL);

	bad2("v2-count-0", EINVAL, SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 0,
	     e);
	bad2("v2-il-count-0", EINVAL, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG,
	     TWO_MiB, 0, &ie);
	bad2("v2-count-0-before-efault", EINVAL, SIMPLE_DAX_EXTENT, FAMFS_REG,
	     TWO_MiB, 0, NULL);
	bad2("v2-count-257", E2BIG, SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB,
	     FAMFS_IOC_MAX_EXTENTS_V2 + 1, NULL);
	bad2("v2-count-ffffffff", E2BIG, SIMPLE_DAX_EXTENT, FAMFS_REG,
	     TWO_MiB, 0xffffffff, (void *)8);
	bad2("v2-il-count-17", E2BIG, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG,
	     TWO_MiB, FAMFS_IOC_MAX_IEXTENTS + 1, NULL);

	bad2("v2-list-null", EFAULT, SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1,
	     NULL);
	bad2("v2-list-8", EFAULT, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG,
	     TWO_MiB, 1, (void *)8);
	/* A list whose second half is in an unreadable page. */
	pg = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED)
		die("mmap");
	mprotect(pg + 4096, 4096, PROT_NONE);
	memcpy(pg + 4096 - sizeof(e[0]), e, sizeof(e[0]));
	bad2("v2-list-half-readable", EFAULT, SIMPLE_DAX_EXTENT, FAMFS_REG,
	     TWO_MiB, 2, pg + 4096 - sizeof(e[0]));
	memcpy(pg + 4096 - 100, &ie, 100);
	bad2("v2-il-list-half-readable", EFAULT, FAMFS_INTERLEAVED_EXTENT,
	     FAMFS_REG, TWO_MiB, 1, pg + 4096 - 100);
	munmap(pg, 8192);
}

static void test_v2_simple(void)
{
	struct famfs_extent e[3];
	unsigned long long top = devsz & ~(TWO_MiB - 1);

#define E3(a, b, c, d, f, g) do {					\
		e[0].offset = (a); e[0].len = (b);			\
		e[1].offset = (c); e[1].len = (d);			\
		e[2].offset = (f); e[2].len = (g);			\
	} while (0)
#define BADS(name, want, size)						\
	bad2(name, want, SIMPLE_DAX_EXTENT, FAMFS_REG, size, 3, e)
	E3(V2B, TWO_MiB, V2B + 4 * MiB, 0, V2B + 8 * MiB, TWO_MiB);
	BADS("v2-len-0", EINVAL, TWO_MiB);
	E3(V2B, TWO_MiB, V2B + 4 * MiB + 4096, TWO_MiB, V2B + 8 * MiB, 1);
	BADS("v2-offset-unaligned", EINVAL, TWO_MiB);
	E3(V2B, TWO_MiB, V2B + 4 * MiB, TWO_MiB + 4096, V2B + 8 * MiB, 1);
	BADS("v2-nonlast-len-unaligned", EINVAL, TWO_MiB);
	E3(V2B, TWO_MiB, V2B + 4 * MiB, TWO_MiB, ~(TWO_MiB - 1), 4 * MiB);
	BADS("v2-offset-len-overflow", EOVERFLOW, TWO_MiB);
	E3(V2B, TWO_MiB, V2B + 4 * MiB, TWO_MiB, top - TWO_MiB, 4 * MiB);
	BADS("v2-past-device-end", ENXIO, TWO_MiB);
	E3(V2B, TWO_MiB, 0, TWO_MiB, V2B + 8 * MiB, TWO_MiB);
	BADS("v2-offset-0-regular", EINVAL, TWO_MiB);
	E3(V2B, TWO_MiB, V2B + 4 * MiB, TWO_MiB, V2B + 8 * MiB, 4096);
	BADS("v2-size-larger", EFBIG, 4 * MiB + 4097);
	E3(V2B, TWO_MiB, V2B + 4 * MiB, 4 * MiB, V2B + 6 * MiB, 4096);
	BADS("v2-self-overlap", EADDRINUSE, TWO_MiB);
	E3(V2B, TWO_MiB, VICTIM, TWO_MiB, V2B + 8 * MiB, 4096);
	BADS("v2-overlap-file", EADDRINUSE, TWO_MiB);
	E3(TWO_MiB * 300, TWO_MiB, 0, 0, 0, 0);
	bad2("v2-superblock-not-at-0", EINVAL, SIMPLE_DAX_EXTENT,
	     FAMFS_SUPERBLOCK, TWO_MiB, 1, e);
#undef BADS
#undef E3
}

static void test_v2_interleaved(void)
{
	unsigned long long top = devsz & ~(TWO_MiB - 1);
	struct famfs_ioc_iext ie, two[2];

	ie = ie4();
	ie.reserved = 1;
	badi("v2-il-reserved", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.strips[4].len = TWO_MiB;
	badi("v2-il-unused-strip", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.strips[15].offset = 1;
	badi("v2-il-unused-strip-15", EINVAL, TWO_MiB, ie);
	ie = iext_mk(0, TWO_MiB, 8 * MiB, 0, NULL);
	badi("v2-il-nstrips-0", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.nstrips = FAMFS_IOC_MAX_STRIPS + 1;
	badi("v2-il-nstrips-17", E2BIG, TWO_MiB, ie);
	ie.nstrips = 0xffffffff;
	badi("v2-il-nstrips-ffffffff", E2BIG, TWO_MiB, ie);
	ie = ie4();
	ie.chunk_size = 0;
	badi("v2-il-chunk-0", EINVAL, TWO_MiB, ie);
	ie.chunk_size = MiB;
	badi("v2-il-chunk-1M", EINVAL, TWO_MiB, ie);
	ie.chunk_size = TWO_MiB + 4096;
	badi("v2-il-chunk-2M+4K", EINVAL, TWO_MiB, ie);
	ie.chunk_size = 1ULL << 63;
	badi("v2-il-chunk-x-nstrips-overflow", EOVERFLOW, TWO_MiB, ie);
	ie = ie4();
	ie.nbytes = 0;
	badi("v2-il-nbytes-0", EINVAL, 0, ie);
	two[0] = ie4();
	two[0].nbytes = 8 * MiB - 4096;
	two[1] = ie4();
	two[1].strips[0].offset += 8 * MiB;
	two[1].strips[1].offset += 8 * MiB;
	two[1].strips[2].offset += 8 * MiB;
	two[1].strips[3].offset += 8 * MiB;
	bad2("v2-il-nonlast-nbytes-ragged", EINVAL, FAMFS_INTERLEAVED_EXTENT,
	     FAMFS_REG, TWO_MiB, 2, two);

	ie = ie4();
	ie.strips[2].len = 0;
	badi("v2-il-strip-len-0", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.strips[2].offset += 4096;
	badi("v2-il-strip-offset-unaligned", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.strips[3].len = TWO_MiB + 4096;
	badi("v2-il-strip-len-unaligned", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.strips[1].offset = 0;
	badi("v2-il-strip-offset-0", EINVAL, TWO_MiB, ie);
	ie = ie4();
	ie.strips[3].offset = ~(TWO_MiB - 1);
	ie.strips[3].len = 4 * MiB;
	badi("v2-il-strip-overflow", EOVERFLOW, TWO_MiB, ie);
	ie = ie4();
	ie.strips[3].offset = top - TWO_MiB;
	ie.strips[3].len = 4 * MiB;
	badi("v2-il-strip-past-device-end", ENXIO, TWO_MiB, ie);
	ie = ie4();
	ie.strips[0].offset = top;
	badi("v2-il-strip-at-device-end", ENXIO, TWO_MiB, ie);
	ie = ie4();
	ie.nbytes = 10 * MiB;	/* 5 chunks: strip 0 needs 2 */
	badi("v2-il-strip-too-short", EFBIG, TWO_MiB, ie);
	ie.nbytes = 8 * MiB + 1;
	badi("v2-il-strip-too-short-ragged", EFBIG, TWO_MiB, ie);
	ie = ie4();
	badi("v2-il-size-larger", EFBIG, 8 * MiB + 1, ie);

	ie = ie4();
	ie.strips[3].offset = ie.strips[1].offset;
	badi("v2-il-strips-overlap", EADDRINUSE, TWO_MiB, ie);
	two[0] = ie4();
	two[1] = ie4();
	two[1].strips[0].offset += 8 * MiB;
	two[1].strips[1].offset += 8 * MiB;
	two[1].strips[2].offset += 2 * MiB;	/* = two[0].strips[3] */
	two[1].strips[3].offset += 8 * MiB;
	bad2("v2-il-extents-overlap", EADDRINUSE, FAMFS_INTERLEAVED_EXTENT,
	     FAMFS_REG, TWO_MiB, 2, two);
	ie = ie4();
	ie.strips[2].offset = VICTIM;
	badi("v2-il-overlap-file", EADDRINUSE, TWO_MiB, ie);

	/* A refused map claimed nothing: the same strips map now. */
	ie = ie4();
	{
		int fd = newfile();

		struct famfs_extent e = { V2B + 6 * MiB, TWO_MiB };

		t_ok("v2-il-after-refusals", mapv2(fd, FAMFS_INTERLEAVED_EXTENT,
						   FAMFS_REG, 8 * MiB, 1, &ie));
		close(fd);
		/* Its strips are in the tree: a simple extent overlaps one. */
		bad2("v2-overlap-strip", EADDRINUSE, SIMPLE_DAX_EXTENT,
		     FAMFS_REG, TWO_MiB, 1, &e);
		ie.strips[0].offset = V2B + 8 * MiB;
		ie.strips[1].offset = V2B + 10 * MiB;
		ie.strips[2].offset = V2B + 4 * MiB;
		ie.strips[3].offset = V2B + 12 * MiB;
		badi("v2-il-overlap-strip", EADDRINUSE, TWO_MiB, ie);
	}
}

/* GET_V2 on a file whose map is @n entries of @esz bytes like @want. */
static void get2(const char *pfx, int fd, unsigned int etype,
		 unsigned long long size, unsigned int n, size_t esz,
		 const void *want)
{
	size_t room = (n + 1) * esz;
	unsigned char *buf = malloc(room), *canary = malloc(room);
	struct famfs_ioc_map_v2 g;
	char name[160];

#define N(x) (snprintf(name, sizeof(name), "%s-%s", pfx, x), name)
	memset(canary, 0xa5, room);
	memcpy(buf, canary, room);
	g = mapv2_mk(0, 0, 0, 0, buf);
	if (t_ok(N("get-count-0"), ioctl(fd, FAMFSIOC_MAP_GET_V2, &g))) {
		t_equ(N("get-count-0-count"), n, g.ext_count);
		t_equ(N("get-count-0-type"), etype, g.extent_type);
		t_equ(N("get-count-0-size"), size, g.file_size);
		t_equ(N("get-count-0-list-kept"), (uintptr_t)buf, g.ext_list);
		t_true(N("get-count-0-list-untouched"),
		       !memcmp(buf, canary, room), "list written");
	}
	if (n > 1) {
		g = mapv2_mk(0, 0, 0, n - 1, buf);
		t_errno(N("get-room-short"), ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
			E2BIG);
		t_equ(N("get-room-short-count"), n, g.ext_count);
		t_true(N("get-room-short-untouched"),
		       !memcmp(buf, canary, room), "list written");
	}
	g = mapv2_mk(0, 0, 0, n + 1, buf);
	if (t_ok(N("get-room-more"), ioctl(fd, FAMFSIOC_MAP_GET_V2, &g))) {
		t_equ(N("get-count"), n, g.ext_count);
		t_equ(N("get-file-type"), FAMFS_REG, g.file_type);
		t_equ(N("get-flags"), 0, g.flags);
		t_true(N("get-entries"), !memcmp(buf, want, n * esz),
		       "entries differ from the map created");
		t_true(N("get-past-count-untouched"),
		       !memcmp(buf + n * esz, canary, esz),
		       "wrote past ext_count entries");
	}
	g = mapv2_mk(0, 0, 0, n, (void *)8);
	t_errno(N("get-list-efault"), ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
		EFAULT);
	t_errno(N("get-hdr-efault"), ioctl(fd, FAMFSIOC_MAP_GET_V2,
					   (void *)8), EFAULT);
	g = mapv2_mk(0, 0, 0, n, buf);
	g.flags = 4;
	t_errno(N("get-flags-einval"), ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
		EINVAL);
	g.flags = 0;
	g.reserved[1] = 1;
	t_errno(N("get-reserved-einval"), ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
		EINVAL);
#undef N
	free(buf);
	free(canary);
}

static void test_v2_get(void)
{
	struct famfs_extent e[3] = { { V2B + 20 * MiB, 4 * MiB },
				     { V2B + 16 * MiB, TWO_MiB },
				     { V2B + 26 * MiB, 12345 } };
	const unsigned long long o[3] = { V2B + 34 * MiB, V2B + 30 * MiB,
					  V2B + 38 * MiB };
	struct famfs_ioc_iext ie[2];
	struct famfs_ioc_map v1;
	struct famfs_extent x[4];
	struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 0, NULL);
	unsigned long long b0;
	struct stat st;
	int fd;

	fd = newfile();
	t_errno("v2-get-unmapped", ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
		ENODATA);
	t_errno("v2-get-unmapped-bad-hdr", ioctl(fd, FAMFSIOC_MAP_GET_V2,
						 (void *)8), ENODATA);
	b0 = t_bfree(mpt);
	t_ok("v2-simple-3", mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG,
				  6 * MiB + 12345, 3, e));
	t_equ("v2-simple-3-statfs", b0 - 8 * MiB / 4096, t_bfree(mpt));
	get2("v2-simple-3", fd, SIMPLE_DAX_EXTENT, 6 * MiB + 12345, 3,
	     sizeof(e[0]), e);
	t_errno("v2-simple-3-v1-get-eoverflow",
		ioctl(fd, FAMFSIOC_MAP_GET, &v1), EOVERFLOW);
	t_errno("v2-simple-3-v1-getext-eoverflow",
		ioctl(fd, FAMFSIOC_MAP_GETEXT, x), EOVERFLOW);
	t_errno("v2-create-after-map", mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG,
					     TWO_MiB, 1, e), EEXIST);
	g = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, e);
	g.flags = 1;
	t_errno("v2-eexist-before-flags", ioctl(fd, FAMFSIOC_MAP_CREATE_V2,
						&g), EEXIST);
	close(fd);

	/* Two extents from v2 read back through v1 too. */
	fd = newfile();
	e[0].offset = V2B + 42 * MiB;
	e[1].offset = V2B + 46 * MiB;
	if (t_ok("v2-simple-2", mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG,
				      6 * MiB, 2, e)) &&
	    t_ok("v2-simple-2-v1-get", ioctl(fd, FAMFSIOC_MAP_GET, &v1))) {
		t_equ("v2-simple-2-v1-count", 2, v1.ext_list_count);
		t_equ("v2-simple-2-v1-ext1", V2B + 46 * MiB,
		      v1.ext_list[1].offset);
	}
	close(fd);

	/* A v1 map through GET_V2. */
	fd = newfile();
	t_ok("v1-map-for-get-v2", map2(fd, FAMFS_REG, 3 * MiB, 2,
				       V2B + 48 * MiB, TWO_MiB,
				       V2B + 52 * MiB, TWO_MiB));
	x[0].offset = V2B + 48 * MiB;
	x[0].len = TWO_MiB;
	x[1].offset = V2B + 52 * MiB;
	x[1].len = TWO_MiB;
	get2("v1-map", fd, SIMPLE_DAX_EXTENT, 3 * MiB, 2, sizeof(x[0]), x);
	close(fd);

	/* Interleaved: 2 extents, 3 strips of 4 MiB chunks, then 1 strip. */
	fd = newfile();
	ie[0] = iext_mk(3, 4 * MiB, 12 * MiB, 4 * MiB, o);
	ie[1] = iext_mk(1, TWO_MiB, TWO_MiB + 100, 4 * MiB,
			(const unsigned long long[]){ V2B + 54 * MiB });
	b0 = t_bfree(mpt);
	if (t_ok("v2-il-2", mapv2(fd, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG,
				  14 * MiB + 50, 2, ie))) {
		t_equ("v2-il-2-statfs", b0 - 16 * MiB / 4096, t_bfree(mpt));
		fstat(fd, &st);
		t_equ("v2-il-2-size", 14 * MiB + 50, st.st_size);
		t_equ("v2-il-2-blocks", 16 * MiB / 512, st.st_blocks);
		get2("v2-il-2", fd, FAMFS_INTERLEAVED_EXTENT, 14 * MiB + 50, 2,
		     sizeof(ie[0]), ie);
		t_errno("v2-il-v1-get-eoverflow",
			ioctl(fd, FAMFSIOC_MAP_GET, &v1), EOVERFLOW);
		t_errno("v2-il-v1-getext-eoverflow",
			ioctl(fd, FAMFSIOC_MAP_GETEXT, x), EOVERFLOW);
	}
	close(fd);
}

/* Creates a file of @n entries in BIG.., checks it, frees it. */
static void big(const char *name, unsigned int etype, unsigned int n,
		const void *list, size_t esz, unsigned long long size,
		unsigned long long claim)
{
	unsigned long long b0 = t_bfree(mpt);
	struct famfs_ioc_map_v2 g;
	char path[512], n2[160];
	void *buf = calloc(n, esz);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (fd < 0)
		die(path);
	if (t_ok(name, mapv2(fd, etype, FAMFS_REG, size, n, list))) {
		snprintf(n2, sizeof(n2), "%s-statfs", name);
		t_equ(n2, b0 - claim / 4096, t_bfree(mpt));
		g = mapv2_mk(0, 0, 0, n, buf);
		snprintf(n2, sizeof(n2), "%s-get", name);
		t_true(n2, !ioctl(fd, FAMFSIOC_MAP_GET_V2, &g) &&
		       g.ext_count == n && !memcmp(buf, list, n * esz),
		       "MAP_GET_V2 does not return the map");
	}
	unlink(path);
	close(fd);
	snprintf(n2, sizeof(n2), "%s-freed", name);
	t_equ(n2, b0, t_bfree(mpt));
	free(buf);
}

static void test_v2_big(void)
{
	enum { N = FAMFS_IOC_MAX_EXTENTS_V2, S = FAMFS_IOC_MAX_STRIPS };
	static struct famfs_extent e[N + 1];
	static struct famfs_ioc_iext ie[FAMFS_IOC_MAX_IEXTENTS + 1];
	unsigned long long o[S];
	int i, j;

	if (devsz < 960 * MiB) {
		t_skip("v2-256-extents", "device smaller than 960 MiB");
		return;
	}
	/* 256 extents in reverse device order, the last one ragged. */
	for (i = 0; i <= N; i++) {
		e[i].offset = BIG + (unsigned long long)(N - 1 - i) * TWO_MiB;
		e[i].len = TWO_MiB;
	}
	e[N - 1].len = 4096;
	big("v2-256-extents", SIMPLE_DAX_EXTENT, N, e, sizeof(e[0]),
	    (N - 1) * TWO_MiB + 4096, N * TWO_MiB);
	bad2("v2-257-extents", E2BIG, SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB,
	     N + 1, e);

	/* 16 extents x 16 strips of 2 MiB, strip j of extent i at 16j+i. */
	for (i = 0; i < FAMFS_IOC_MAX_IEXTENTS + 1; i++) {
		for (j = 0; j < S; j++)
			o[j] = BIG + (unsigned long long)(j * S + i) * TWO_MiB;
		ie[i] = iext_mk(S, TWO_MiB, S * TWO_MiB, TWO_MiB, o);
	}
	big("v2-16x16", FAMFS_INTERLEAVED_EXTENT, FAMFS_IOC_MAX_IEXTENTS, ie,
	    sizeof(ie[0]), 512 * MiB, 512 * MiB);
	bad2("v2-17x16", E2BIG, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, TWO_MiB,
	     FAMFS_IOC_MAX_IEXTENTS + 1, ie);
}

/* EROFS on a read-only bind mount; EPERM and GET_V2 as nobody. */
static void test_v2_access(void)
{
	struct famfs_extent e = { V2B + 58 * MiB, TWO_MiB };
	const char *ro = "/tmp/famfs-ioctl-ro";
	unsigned long long b0;
	char path[512];
	int fd, rfd, st;
	pid_t pid;

	fd = newfile();
	mkdir(ro, 0755);
	if (mount(mpt, ro, NULL, MS_BIND, NULL) ||
	    mount(NULL, ro, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL)) {
		t_fail("v2-erofs", "read-only bind mount: %s",
		       t_errname(errno));
	} else {
		snprintf(path, sizeof(path), "%s/v2-%d", ro, nfile - 1);
		rfd = open(path, O_RDONLY);
		b0 = t_bfree(mpt);
		t_errno("v2-erofs", mapv2(rfd, SIMPLE_DAX_EXTENT, FAMFS_REG,
					  TWO_MiB, 1, &e), EROFS);
		unmapped2("v2-erofs", fd, b0);
		close(rfd);
		umount(ro);
	}

	b0 = t_bfree(mpt);
	pid = fork();
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		_exit(mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1,
			    &e) == -1 && errno == EPERM ? 0 : 1);
	}
	t_true("v2-nonroot-create-eperm", pid > 0 &&
	       waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0, "not EPERM");
	unmapped2("v2-nonroot-create-eperm", fd, b0);

	t_ok("v2-root-create", mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB,
				     1, &e));
	pid = fork();
	if (pid == 0) {
		struct famfs_extent got;
		struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 1, &got);

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		_exit(ioctl(fd, FAMFSIOC_MAP_GET_V2, &g) == 0 &&
		      got.offset == e.offset ? 0 : 1);
	}
	t_true("v2-nonroot-get", pid > 0 && waitpid(pid, &st, 0) == pid &&
	       WIFEXITED(st) && WEXITSTATUS(st) == 0, "MAP_GET_V2 as nobody failed");
	close(fd);
}

int main(int argc, char **argv)
{
	int fd;

	if (argc != 3 && !(argc == 4 && !strcmp(argv[3], "logline"))) {
		fprintf(stderr, "usage: module_ioctl_v2 MPT DEV [logline]\n");
		return 2;
	}
	mpt = argv[1];
	devsz = dev_size_min(argv[2], 512 * MiB);
	if (argc == 4) {	/* one refusal, for the suite to find in dmesg */
		struct famfs_ioc_iext ie = ie4();

		ie.strips[2].len = 0;
		badi("v2-logline-strip-len-0", EINVAL, TWO_MiB, ie);
		return t_done(0);
	}
	fd = newfile();
	if (map1(fd, TWO_MiB, VICTIM, TWO_MiB))
		die("map the v1 file at 332M");
	close(fd);

	test_v2_header();
	test_v2_simple();
	test_v2_interleaved();
	test_v2_get();
	test_v2_big();
	test_v2_access();
	return t_done(0);
}
