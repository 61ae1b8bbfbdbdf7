// SPDX-License-Identifier: GPL-2.0
/*
 * module_ioctl_v3 MPT DEV [TEST...]: FAMFSIOC_MAP_CREATE_V3 on a mount of
 * DEV (one device: devindex 0 is attached, 1..FAMFS_MAX_DEVS-1 are not),
 * for suites/module_ioctl.sh.  Multi-device maps: progs/module_multidev.c.
 *
 * Tests:
 *   trace  (named only) one create refused for its device (ENODEV), for
 *          the suite to read the famfs:famfs_map_create event it leaves:
 *          rc -19, first extent TRACE_OFF+TRACE_LEN
 *
 * Every create here is refused: the file stays unmapped and claims
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

/* A create refused for its device: the suite reads its tracepoint. */
static void test_trace(void)
{
	struct famfs_ioc_dext d = dx(NODEV, TRACE_OFF, TRACE_LEN);

	bad3("trace-refused", ENODEV, SIMPLE_DAX_EXTENT, TRACE_LEN, 1, &d);
}

static const struct t_test tests[] = {
	{ "trace", test_trace, 1 },
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
