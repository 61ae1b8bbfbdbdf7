// SPDX-License-Identifier: GPL-2.0
/*
 * compat32 - the famfs ioctls from a 32-bit (i386) process
 *
 * Built with -m32 (see the Makefile) and run on the 64-bit guest kernel, so
 * every call goes through famfs's compat_ioctl.  The ABI promises the same
 * layout for 32- and 64-bit callers (fixed-width fields, explicit padding,
 * user pointers as __u64); this proves it at run time: maps made here
 * round-trip through MAP_GET / MAP_GET_V2 and the data lands where the map
 * says; FAMFSIOC_HELD reads its ranges and writes its answers.
 *
 * Usage: compat32 MOUNTPOINT DEVICE
 *
 * Uses device offsets from 64 MiB on; the device must be at least 160 MiB
 * and nothing else mapped there.
 */
#include "module_test.h"

_Static_assert(sizeof(void *) == 4, "compat32 must be built with -m32");

#define BASE	(64 * MiB)

static struct t_dev dev;	/* read with O_DIRECT: not the page cache */

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
		m = map_mk(FAMFS_REG, 3 * MiB, 2, BASE, TWO_MiB,
			   BASE + 4 * MiB, TWO_MiB);
		t_true("v1/get-same", !memcmp(&m, &g, sizeof(m)),
		       "MAP_GET differs from the map created");
	}
	if (t_ok("v1/getext", ioctl(fd, FAMFSIOC_MAP_GETEXT, ext)))
		t_true("v1/getext-same",
		       ext[1].offset == BASE + 4 * MiB && ext[1].len == TWO_MiB,
		       "MAP_GETEXT differs from the map created");
	close(fd);
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

	t_ok("v2-simple/create", mapv2(fd, SIMPLE_DAX_EXTENT, FAMFS_REG,
				       6 * MiB, 3, ext));

	g = mapv2_mk(0, 0, 0, 1, back);
	t_errno("v2-simple/get-small-room",
		ioctl(fd, FAMFSIOC_MAP_GET_V2, &g), E2BIG);
	t_equ("v2-simple/get-small-room-count", 3, g.ext_count);

	memset(back, 0, sizeof(back));
	g = mapv2_mk(0, 0, 0, 3, back);
	if (t_ok("v2-simple/get", ioctl(fd, FAMFSIOC_MAP_GET_V2, &g)))
		t_true("v2-simple/get-same",
		       g.extent_type == SIMPLE_DAX_EXTENT &&
		       g.file_size == 6 * MiB && g.ext_count == 3 &&
		       !memcmp(ext, back, sizeof(ext)),
		       "MAP_GET_V2 differs from the map created");

	/* A list pointer unmapped in a 32-bit process. */
	g = mapv2_mk(0, 0, 0, 3, (const void *)0xfffff000u);
	t_errno("v2-simple/get-efault", ioctl(fd, FAMFSIOC_MAP_GET_V2, &g),
		EFAULT);
	close(fd);
}

/* A 2-strip, 2 MiB-chunk file: written with pwrite, found on the device. */
static void test_v2_interleaved(const char *mpt)
{
	const unsigned long long chunk = TWO_MiB, size = 8 * MiB;
	const unsigned long long strips[] = {
		BASE + 40 * MiB, BASE + 32 * MiB	/* out of device order */
	};
	struct famfs_ioc_iext ie, back;
	struct famfs_ioc_map_v2 g;
	unsigned long long off;
	const void *dbuf;
	void *buf;
	int fd = mkfile(mpt, "v2-interleaved"), bad = 0;

	ie = iext_mk(2, chunk, size, 4 * MiB, strips);
	if (!t_ok("v2-interleaved/create",
		  mapv2(fd, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, size, 1, &ie)))
		goto out;

	memset(&back, 0, sizeof(back));
	g = mapv2_mk(0, 0, 0, 1, &back);
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

		dbuf = t_devread(&dev, d, chunk);
		if (!dbuf)
			die("pread device");
		if (check(dbuf, 32, off, chunk) != -1 && !bad++)
			t_fail("v2-interleaved/on-device",
			       "file chunk %llu is not at device offset %#llx",
			       c, d);
	}
	if (!bad)
		t_pass("v2-interleaved/on-device");
out:
	close(fd);
}

/* FAMFSIOC_HELD: the header's pointer to the ranges, answers written back */
static void test_held(const char *mpt)
{
	struct famfs_ioc_held_range r[2];
	struct famfs_ioc_held h;
	int root = open(mpt, O_RDONLY | O_DIRECTORY);

	if (root < 0)
		die(mpt);
	memset(r, 0, sizeof(r));
	r[0].offset = BASE;		/* extent 0 of "v1", which has a name */
	r[0].len = TWO_MiB;
	r[1].offset = BASE + 96 * MiB;	/* nothing */
	r[1].len = TWO_MiB;
	r[1].held = 77;
	memset(&h, 0, sizeof(h));
	h.count = 2;
	h.ranges = (uintptr_t)r;
	if (t_ok("held/call", ioctl(root, FAMFSIOC_HELD, &h))) {
		t_equ("held/live", TWO_MiB, r[0].held);
		t_equ("held/live-flags", FAMFS_HELD_LIVE, r[0].flags);
		t_equ("held/none", 0, r[1].held);
		t_equ("held/none-flags", 0, r[1].flags);
	}
	h.count = FAMFS_HELD_MAX + 1;
	t_errno("held/e2big", ioctl(root, FAMFSIOC_HELD, &h), E2BIG);
	close(root);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: compat32 MOUNTPOINT DEVICE\n");
		return 2;
	}
	t_dev_open(&dev, argv[2], O_RDONLY);
	if (dev.size < BASE + 96 * MiB) {
		t_skip("device", "%s is smaller than %llu MiB", argv[2],
		       (BASE + 96 * MiB) / MiB);
		return t_done(0);
	}
	test_v1(argv[1]);
	test_v2_simple(argv[1]);
	test_v2_interleaved(argv[1]);
	test_held(argv[1]);
	return t_done(0);
}
