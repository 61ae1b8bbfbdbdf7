/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the PUD test programs share (module_pud.c, module_pud2.c,
 * module_pud_hostile.c): the mount and device under test, files of one
 * extent made with MAP_CREATE, shared mappings, and the 2 MiB markers a
 * read pass checks.  Include after module_test.h.
 */
#ifndef PUD_TEST_H
#define PUD_TEST_H

#define PT_API static inline __attribute__((unused))

#define GiB		(1ULL << 30)

static const char *mpt;
static struct t_dev dev;

PT_API void rmfile(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	if (unlink(path))
		t_fail("unlink", "%s: %s", path, t_errname(errno));
}

/* A file @name of @size bytes in one extent at device @off of @len bytes. */
PT_API int mk1(const char *name, unsigned long long size,
	       unsigned long long off, unsigned long long len)
{
	char id[64];
	int fd = mkfile(mpt, name);

	snprintf(id, sizeof(id), "%s-map", name);
	if (!t_ok(id, map1(fd, size, off, len))) {
		close(fd);
		rmfile(name);
		return -1;
	}
	return fd;
}

/* mmap @len bytes of @fd from @off, shared; FAIL @name and NULL on error. */
PT_API char *map_shared(const char *name, int fd, unsigned long long len,
			unsigned long long off, int prot)
{
	char *p = mmap(NULL, len, prot, MAP_SHARED, fd, off);

	if (p == MAP_FAILED) {
		t_fail(name, "mmap: %s", t_errname(errno));
		return NULL;
	}
	return p;
}

/* One 8-byte marker per 2 MiB of the file, written with pwrite(). */
PT_API int mark(int fd, unsigned long long size)
{
	unsigned long long off;

	for (off = 0; off < size; off += TWO_MiB) {
		uint64_t v = pat(0x31, off);

		if (pwrite(fd, &v, sizeof(v), off) != sizeof(v))
			return 0;
	}
	return 1;
}

/* A load per 2 MiB of [@p, @p+@len) (file offset @foff): the markers. */
PT_API void read_pass(const char *name, const char *p, unsigned long long len,
		      unsigned long long foff)
{
	unsigned long long off;

	for (off = 0; off < len; off += TWO_MiB) {
		uint64_t v = *(const volatile uint64_t *)(p + off);

		if (v != pat(0x31, foff + off)) {
			t_fail(name, "file offset %#llx holds %#llx, not the marker pwrite() put there",
			       foff + off, (unsigned long long)v);
			return;
		}
	}
	t_pass(name);
}

/* main() of a PUD test program @prog: MPT DEV TEST... on a device of 5 GiB
 * or more */
PT_API int pud_main(const char *prog, const struct t_test *tests, size_t n,
		    int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: %s MPT DEV TEST...\n", prog);
		return 2;
	}
	mpt = argv[1];
	t_dev_open(&dev, argv[2], O_RDONLY);
	if (dev.size < 5 * GiB)
		die("device smaller than 5 GiB");
	t_run(tests, n, argc - 3, argv + 3);
	return t_done(0);
}

#endif /* PUD_TEST_H */
