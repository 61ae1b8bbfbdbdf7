// SPDX-License-Identifier: GPL-2.0
/*
 * module_ioctl_v3 MPT DEV [TEST...]: FAMFSIOC_MAP_CREATE_V3 on a mount of
 * DEV (one device: devindex 0 is attached, 1..FAMFS_MAX_DEVS-1 are not),
 * for suites/module_ioctl.sh.  Multi-device maps: progs/module_multidev.c.
 *
 * Tests:
 *   order  the first failing check wins, in the order of the contract in
 *          <linux/famfs_ioctl.h>: every check of extent (strip) i, its own
 *          device fields first, before any check of extent (strip) i + 1,
 *          and the whole-map checks after all of them
 *   trace  (named only) one create refused for its device (ENODEV), for
 *          the suite to read the famfs:famfs_map_create event it leaves:
 *          rc -19, first extent TRACE_OFF+TRACE_LEN
 *   inval  FAMFS_IOC_MAP_INVALIDATE: accepted alone and with
 *          FAMFS_IOC_MAP_PAGES, the map as without it (MAP_GET_V3 never
 *          shows it); another unknown flag, and the flag on MAP_CREATE_V2,
 *          EINVAL; the files made are removed again (INV..INV+4M)
 *
 * Every other create here is refused: the file stays unmapped and claims
 * nothing, wherever its extents point (V3B, 340M.., is also module_ioctl_v2's).
 */
#include "module_test.h"

static const char *mpt;
static unsigned long long devsz;
static int nfile;

#define V3B		(340 * MiB)
#define NODEV		5		/* nothing attached there */
#define TRACE_OFF	(100 * MiB)
#define TRACE_LEN	TWO_MiB
#define INV		(334 * MiB)	/* module_ioctl's end at 330M,
					 * module_ioctl_v2's 332M..334M */

static int newfile(void)
{
	char name[64];

	snprintf(name, sizeof(name), "v3-%d-%d", (int)getpid(), nfile++);
	return mkfile(mpt, name);
}

static struct famfs_ioc_dext dx(unsigned int dev, unsigned long long off,
				unsigned long long len)
{
	struct famfs_ioc_dext d;

	memset(&d, 0, sizeof(d));
	d.devindex = dev;
	d.offset = off;
	d.len = len;
	return d;
}

/* MAP_CREATE_V3 of @n entries at @list on a new file: errno @want. */
static void bad3(const char *name, int want, unsigned int etype,
		 unsigned long long size, unsigned int n, const void *list)
{
	struct famfs_ioc_map_v2 m = mapv2_mk(etype, FAMFS_REG, size, n, list);
	struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 0, NULL);
	unsigned long long b0 = t_bfree(mpt);
	char n2[160];
	int fd = newfile();

	t_errno(name, ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m), want);
	snprintf(n2, sizeof(n2), "%s-still-unmapped", name);
	t_true(n2, ioctl(fd, FAMFSIOC_MAP_GET_V3, &g) == -1 &&
	       errno == ENODATA && t_bfree(mpt) == b0,
	       "the file has a map, or statfs changed, after a refused MAP_CREATE_V3");
	close(fd);
}

/* One interleaved extent: @ns strips of 2 MiB at V3B + 2M * j, device 0. */
static struct famfs_ioc_iext_v3 iv3(unsigned int ns)
{
	struct famfs_ioc_iext_v3 ie;
	unsigned int j;

	memset(&ie, 0, sizeof(ie));
	ie.nstrips = ns;
	ie.chunk_size = TWO_MiB;
	ie.nbytes = ns * TWO_MiB;
	for (j = 0; j < ns && j < FAMFS_IOC_MAX_STRIPS; j++)
		ie.strips[j] = dx(0, V3B + j * TWO_MiB, TWO_MiB);
	return ie;
}

static void test_order_simple(void)
{
	unsigned long long top = devsz & ~(TWO_MiB - 1);
	struct famfs_ioc_dext d[2];

	/* An extent's device fields come before its own v2 checks. */
	d[0] = dx(NODEV, V3B, 0);
	bad3("order-dev-before-len", ENODEV, SIMPLE_DAX_EXTENT, TWO_MiB, 1, d);
	d[0] = dx(0, V3B + 4096, TWO_MiB);
	d[0].reserved = 1;
	bad3("order-reserved-before-align", EINVAL, SIMPLE_DAX_EXTENT,
	     TWO_MiB, 1, d);
	d[0] = dx(NODEV, top, TWO_MiB);
	d[0].reserved = 1;
	bad3("order-reserved-before-dev", EINVAL, SIMPLE_DAX_EXTENT, TWO_MiB,
	     1, d);
	/* ... and every check of extent 0 before extent 1's device fields. */
	d[0] = dx(0, V3B, 0);
	d[1] = dx(NODEV, V3B + TWO_MiB, TWO_MiB);
	bad3("order-ext0-len-before-ext1-dev", EINVAL, SIMPLE_DAX_EXTENT,
	     TWO_MiB, 2, d);
	d[0] = dx(0, top - TWO_MiB, 4 * MiB);
	d[1] = dx(0, V3B, TWO_MiB);
	d[1].reserved = 1;
	bad3("order-ext0-bounds-before-ext1-reserved", ENXIO,
	     SIMPLE_DAX_EXTENT, TWO_MiB, 2, d);
	d[0] = dx(0, 0, TWO_MiB);
	d[1] = dx(FAMFS_MAX_DEVS, V3B, TWO_MiB);
	bad3("order-ext0-offset-0-before-ext1-dev", EINVAL, SIMPLE_DAX_EXTENT,
	     TWO_MiB, 2, d);
	/* The whole-map checks come after every extent's. */
	d[0] = dx(0, V3B, TWO_MiB);
	d[1] = dx(NODEV, V3B + TWO_MiB, TWO_MiB);
	bad3("order-ext1-dev-before-size", ENODEV, SIMPLE_DAX_EXTENT,
	     100 * MiB, 2, d);
}

static void test_order_interleaved(void)
{
	struct famfs_ioc_iext_v3 ie, two[2];

	/* An extent's own checks come before its strips' device fields. */
	ie = iv3(2);
	ie.nstrips = FAMFS_IOC_MAX_STRIPS + 1;
	ie.strips[0].devindex = NODEV;
	bad3("order-nstrips-before-strip-dev", E2BIG,
	     FAMFS_INTERLEAVED_EXTENT, TWO_MiB, 1, &ie);
	ie = iv3(2);
	ie.chunk_size = 0;
	ie.strips[1].devindex = NODEV;
	bad3("order-chunk-before-strip-dev", EINVAL, FAMFS_INTERLEAVED_EXTENT,
	     TWO_MiB, 1, &ie);
	ie = iv3(2);
	ie.reserved = 1;
	ie.strips[0].reserved = 1;
	ie.strips[0].devindex = NODEV;
	bad3("order-ext-reserved-first", EINVAL, FAMFS_INTERLEAVED_EXTENT,
	     TWO_MiB, 1, &ie);
	/* A strip's device fields before its own checks... */
	ie = iv3(2);
	ie.strips[0] = dx(NODEV, V3B, 0);
	bad3("order-strip-dev-before-len", ENODEV, FAMFS_INTERLEAVED_EXTENT,
	     4 * MiB, 1, &ie);
	/* ... and every check of strip 0 before strip 1's device fields. */
	ie = iv3(2);
	ie.strips[0].len = 0;
	ie.strips[1].devindex = NODEV;
	bad3("order-strip0-len-before-strip1-dev", EINVAL,
	     FAMFS_INTERLEAVED_EXTENT, 4 * MiB, 1, &ie);
	ie = iv3(2);
	ie.strips[0].offset = ~(TWO_MiB - 1);
	ie.strips[1].reserved = 1;
	bad3("order-strip0-overflow-before-strip1-reserved", EOVERFLOW,
	     FAMFS_INTERLEAVED_EXTENT, 4 * MiB, 1, &ie);
	ie = iv3(2);
	ie.strips[0].offset = devsz & ~(TWO_MiB - 1);
	ie.strips[1].devindex = NODEV;
	bad3("order-strip0-bounds-before-strip1-dev", ENXIO,
	     FAMFS_INTERLEAVED_EXTENT, 4 * MiB, 1, &ie);
	/* Every check of extent 0 before any of extent 1. */
	two[0] = iv3(2);
	two[0].strips[1].len = 0;
	two[1] = iv3(2);
	two[1].strips[0].devindex = NODEV;
	bad3("order-ext0-strip-before-ext1-dev", EINVAL,
	     FAMFS_INTERLEAVED_EXTENT, 8 * MiB, 2, two);
	/* An unused strip's devindex is one of the extent's first checks. */
	ie = iv3(1);
	ie.strips[1].devindex = 1;
	ie.strips[0].devindex = NODEV;
	bad3("order-unused-strip-before-strip-dev", EINVAL,
	     FAMFS_INTERLEAVED_EXTENT, TWO_MiB, 1, &ie);
}

static void test_order(void)
{
	test_order_simple();
	test_order_interleaved();
}

/* A create refused for its device: the suite reads its tracepoint. */
static void test_trace(void)
{
	struct famfs_ioc_dext d = dx(NODEV, TRACE_OFF, TRACE_LEN);

	bad3("trace-refused", ENODEV, SIMPLE_DAX_EXTENT, TRACE_LEN, 1, &d);
}

/* MAP_CREATE_V3 of one extent @d with @flags on a new file: errno @want
 * (0: mapped, and MAP_GET_V3 shows that extent with @shown flags); the
 * file (@keep: its name under mpt) is left for the caller */
static void inval3(const char *name, unsigned int flags, int want,
		   unsigned long long size, struct famfs_ioc_dext d,
		   unsigned int shown, char *keep, size_t n)
{
	struct famfs_ioc_map_v2 m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG,
					     size, 1, &d);
	struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 0, NULL);
	struct famfs_ioc_dext got;
	char n2[160];
	int fd;

	snprintf(keep, n, "v3-%d-%d", (int)getpid(), nfile);
	fd = newfile();
	m.flags = flags;
	if (want)
		t_errno(name, ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m), want);
	else
		t_ok(name, ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m));
	snprintf(n2, sizeof(n2), "%s-get", name);
	if (want) {
		t_true(n2, ioctl(fd, FAMFSIOC_MAP_GET_V3, &g) == -1 &&
		       errno == ENODATA, "the file has a map after a refused MAP_CREATE_V3");
	} else {
		memset(&got, 0, sizeof(got));
		g.ext_count = 1;
		g.ext_list = (uintptr_t)&got;
		t_true(n2, !ioctl(fd, FAMFSIOC_MAP_GET_V3, &g) &&
		       g.flags == shown && g.ext_count == 1 &&
		       g.file_size == size && got.offset == d.offset &&
		       got.len == d.len && !got.devindex,
		       "MAP_GET_V3 shows another map or flags");
	}
	close(fd);
}

static void unlink_kept(const char *name)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/%s", mpt, name);
	if (unlink(p))
		die(p);
}

static void test_inval(void)
{
	struct famfs_ioc_map_v2 m;
	struct famfs_extent e = { INV + 4 * MiB, TWO_MiB };
	char a[64], b[64], c[64];
	int fd;

	inval3("inval-simple", FAMFS_IOC_MAP_INVALIDATE, 0, TWO_MiB,
	       dx(0, INV, TWO_MiB), 0, a, sizeof(a));
	inval3("inval-pages", FAMFS_IOC_MAP_INVALIDATE | FAMFS_IOC_MAP_PAGES, 0,
	       4096, dx(0, INV + TWO_MiB + 4096, 4096), FAMFS_IOC_MAP_PAGES,
	       b, sizeof(b));
	/* (refused before their memory is looked at) */
	inval3("inval-unknown-flag", FAMFS_IOC_MAP_IDENT << 1, EINVAL,
	       TWO_MiB, dx(0, INV + 4 * MiB, TWO_MiB), 0, c, sizeof(c));
	unlink_kept(c);
	/* (the flag checks no extent the less) */
	inval3("inval-len-0", FAMFS_IOC_MAP_INVALIDATE, EINVAL, TWO_MiB,
	       dx(0, INV + 4 * MiB, 0), 0, c, sizeof(c));
	unlink_kept(c);
	/* v2 takes no flag */
	fd = newfile();
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, TWO_MiB, 1, &e);
	m.flags = FAMFS_IOC_MAP_INVALIDATE;
	t_errno("inval-v2-refused", ioctl(fd, FAMFSIOC_MAP_CREATE_V2, &m),
		EINVAL);
	close(fd);
	unlink_kept(a);
	unlink_kept(b);
}

static const struct t_test tests[] = {
	{ "order", test_order, 0 },
	{ "trace", test_trace, 1 },
	{ "inval", test_inval, 0 },
};

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: module_ioctl_v3 MPT DEV [TEST...]\n");
		return 2;
	}
	mpt = argv[1];
	devsz = dev_size_min(argv[2], 512 * MiB);
	t_run(tests, sizeof(tests) / sizeof(tests[0]), argc - 3, argv + 3);
	return t_done(0);
}
