// SPDX-License-Identifier: GPL-2.0
/*
 * compat32 - the famfs ioctls from a 32-bit (i386) process
 *
 * Built with -m32 (see the Makefile) and run on the 64-bit guest kernel, so
 * every call goes through famfs's compat_ioctl.  The ABI promises the same
 * layout for 32- and 64-bit callers (fixed-width fields, explicit padding,
 * user pointers as __u64); this proves it at run time: maps made here
 * round-trip through MAP_GET / MAP_GET_V2 and the data lands where the map
 * says.
 *
 * Usage: compat32 MOUNTPOINT DEVICE
 *
 * Uses device offsets from 64 MiB on; the device must be at least 160 MiB
 * and nothing else mapped there.
 */
#include "module_test.h"

_Static_assert(sizeof(void *) == 4, "compat32 must be built with -m32");

#define BASE	(64 * MiB)

static const char *dev;

/* Read @len bytes of the device at @off (O_DIRECT: not the page cache). */
static void *dev_read(unsigned long long off, size_t len)
{
	void *buf;
	int fd = open(dev, O_RDONLY | O_DIRECT);

	if (fd < 0 || posix_memalign(&buf, 4096, len))
		die(dev);
	if (pread(fd, buf, len, off) != (ssize_t)len)
		die("pread device");
	close(fd);
	return buf;
}

static void test_v1(const char *mpt)
{
	struct famfs_ioc_map m, g;
	struct famfs_extent ext[FAMFS_MAX_EXTENTS];
	int fd = mkfile(mpt, "v1");

	t_ok("v1/nop", ioctl(fd, FAMFSIOC_NOP, 0));
	t_ok("v1/create", map2(fd, FAMFS_REG, 3 * MiB, 2, BASE, TWO_MiB,
			       BASE + 4 * MiB, TWO_MiB));
	memset(&g, 0xa5, sizeof(g));
	if (t_ok("v1/get", ioctl(fd, FAMFSIOC_MAP_GET, &g))) {
		memset(&m, 0, sizeof(m));
		m.extent_type = SIMPLE_DAX_EXTENT;
		m.file_type = FAMFS_REG;
		m.file_size = 3 * MiB;
		m.ext_list_count = 2;
		m.ext_list[0].offset = BASE;
		m.ext_list[0].len = TWO_MiB;
		m.ext_list[1].offset = BASE + 4 * MiB;
		m.ext_list[1].len = TWO_MiB;
		t_true("v1/get-same", !memcmp(&m, &g, sizeof(m)),
		       "MAP_GET differs from the map created");
	}
	if (t_ok("v1/getext", ioctl(fd, FAMFSIOC_MAP_GETEXT, ext)))
		t_true("v1/getext-same",
		       ext[1].offset == BASE + 4 * MiB && ext[1].len == TWO_MiB,
		       "MAP_GETEXT differs from the map created");
	close(fd);
}

static int map_v2(int fd, unsigned int etype, unsigned long long size,
		  const void *list, unsigned int n)
{
	struct famfs_ioc_map_v2 m;

	memset(&m, 0, sizeof(m));
	m.extent_type = etype;
	m.file_type = FAMFS_REG;
	m.file_size = size;
	m.ext_count = n;
	m.ext_list = (uintptr_t)list;
	return ioctl(fd, FAMFSIOC_MAP_CREATE_V2, &m);
}

static void test_v2_simple(const char *mpt)
{
	struct famfs_extent ext[3] = {
		{ BASE + 8 * MiB, TWO_MiB },
		{ BASE + 12 * MiB, TWO_MiB },
		{ BASE + 16 * MiB, TWO_MiB },
	}, back[3];
	struct famfs_ioc_map_v2 g;
	int fd = mkfile(mpt, "v2-simple");

	t_ok("v2-simple/create", map_v2(fd, SIMPLE_DAX_EXTENT, 6 * MiB, ext, 3));

	memset(&g, 0, sizeof(g));
	g.ext_list = (uintptr_t)back;
	g.ext_count = 1;
	t_errno("v2-simple/get-small-room",
		ioctl(fd, FAMFSIOC_MAP_GET_V2, &g), E2BIG);
	t_equ("v2-simple/get-small-room-count", 3, g.ext_count);

	memset(&g, 0, sizeof(g));
	memset(back, 0, sizeof(back));
	g.ext_list = (uintptr_t)back;
	g.ext_count = 3;
	if (t_ok("v2-simple/get", ioctl(fd, FAMFSIOC_MAP_GET_V2, &g)))
		t_true("v2-simple/get-same",
		       g.extent_type == SIMPLE_DAX_EXTENT &&
		       g.file_size == 6 * MiB && g.ext_count == 3 &&
		       !memcmp(ext, back, sizeof(ext)),
		       "MAP_GET_V2 differs from the map created");

	memset(&g, 0, sizeof(g));
	g.ext_list = 0xfffff000u;	/* unmapped in a 32-bit process */
	g.ext_count = 3;
	t_errno("v2-simple/get-efault", ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
		EFAULT);
	close(fd);
}

/* A 2-strip, 2 MiB-chunk file: written with pwrite, found on the device. */
static void test_v2_interleaved(const char *mpt)
{
	const unsigned long long chunk = TWO_MiB, size = 8 * MiB;
	struct famfs_ioc_iext ie, back;
	struct famfs_ioc_map_v2 g;
	unsigned long long off;
	void *buf;
	int fd = mkfile(mpt, "v2-interleaved"), bad = 0;

	memset(&ie, 0, sizeof(ie));
	ie.nstrips = 2;
	ie.chunk_size = chunk;
	ie.nbytes = size;
	ie.strips[0].offset = BASE + 40 * MiB;	/* out of device order */
	ie.strips[0].len = 4 * MiB;
	ie.strips[1].offset = BASE + 32 * MiB;
	ie.strips[1].len = 4 * MiB;
	if (!t_ok("v2-interleaved/create",
		  map_v2(fd, FAMFS_INTERLEAVED_EXTENT, size, &ie, 1)))
		goto out;

	memset(&g, 0, sizeof(g));
	memset(&back, 0, sizeof(back));
	g.ext_list = (uintptr_t)&back;
	g.ext_count = 1;
	if (t_ok("v2-interleaved/get", ioctl(fd, FAMFSIOC_MAP_GET_V2, &g)))
		t_true("v2-interleaved/get-same",
		       g.extent_type == FAMFS_INTERLEAVED_EXTENT &&
		       g.ext_count == 1 && !memcmp(&ie, &back, sizeof(ie)),
		       "MAP_GET_V2 differs from the map created");

	buf = malloc(size);
	if (!buf)
		die("malloc");
	fill(buf, 32, 0, size);
	if (pwrite(fd, buf, size, 0) != (ssize_t)size)
		die("pwrite");
	fsync(fd);
	free(buf);

	/* Chunk c is chunk c / 2 of strip c % 2 (counted here by hand). */
	for (off = 0; off < size; off += chunk) {
		unsigned long long c = off / chunk;
		unsigned long long d = ie.strips[c % 2].offset + c / 2 * chunk;

		buf = dev_read(d, chunk);
		if (check(buf, 32, off, chunk) != -1 && !bad++)
			t_fail("v2-interleaved/on-device",
			       "file chunk %llu is not at device offset %#llx",
			       c, d);
		free(buf);
	}
	if (!bad)
		t_pass("v2-interleaved/on-device");
out:
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: compat32 MOUNTPOINT DEVICE\n");
		return 2;
	}
	dev = argv[2];
	if (dev_size(dev) < BASE + 96 * MiB) {
		t_skip("device", "%s is smaller than %llu MiB", dev,
		       (BASE + 96 * MiB) / MiB);
		return 0;
	}
	test_v1(argv[1]);
	test_v2_simple(argv[1]);
	test_v2_interleaved(argv[1]);
	return t_failed;
}
