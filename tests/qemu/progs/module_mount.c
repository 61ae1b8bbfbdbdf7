// SPDX-License-Identifier: GPL-2.0
/*
 * module_mount: mount(2) checks for famfs.ko with exact errnos.
 *
 *   module_mount try NAME EXPECT SRC MPT [OPTS]
 *	mount SRC ("-" for none) on MPT; PASS NAME if the result is EXPECT
 *	("0" or an errno name such as EBUSY); a successful mount that was
 *	not expected is undone.
 *   module_mount try-ro NAME EXPECT SRC MPT
 *	the same, read-only (MS_RDONLY)
 *   module_mount remount NAME EXPECT MPT ro|rw
 *	mount(2) MS_REMOUNT of MPT, read-only or read-write: PASS NAME if
 *	the result is EXPECT
 *   module_mount lazy SRC MPT
 *	lazy unmount while a mapped file is open and mapped.
 *   module_mount cycles N SRC MPT
 *	N times: mount, create a directory and a file, map the file, write
 *	it through mmap, unmount.  PASS "cycles" if every step works.
 */
#include "module_test.h"
#include <sys/mman.h>
#include <sys/mount.h>

static int try(const char *name, const char *expect, const char *src,
	       const char *mpt, const char *opts, unsigned long flags)
{
	int rc = mount(strcmp(src, "-") ? src : NULL, mpt, "famfs", flags,
		       opts);
	const char *got = rc ? t_errname(errno) : "0";

	if (!rc && strcmp(expect, "0"))
		umount(mpt);
	if (!strcmp(got, expect))
		t_pass(name);
	else
		t_fail(name, "mount %s %s -o '%s': expected %s, got %s", src,
		       mpt, opts ? opts : "", expect, got);
	return 0;
}

static int remount(const char *name, const char *expect, const char *mpt,
		   const char *how)
{
	unsigned long flags = MS_REMOUNT | (strcmp(how, "ro") ? 0 : MS_RDONLY);
	int rc = mount(NULL, mpt, NULL, flags, NULL);
	const char *got = rc ? t_errname(errno) : "0";

	if (!strcmp(got, expect))
		t_pass(name);
	else
		t_fail(name, "remount,%s %s: expected %s, got %s", how, mpt,
		       expect, got);
	return 0;
}

static int cycles(int n, const char *src, const char *mpt)
{
	char path[512];
	int i, fd;
	char *p;

	for (i = 0; i < n; i++) {
		if (mount(src, mpt, "famfs", 0, i & 1 ? "mode=0700" : NULL)) {
			t_fail("cycles", "cycle %d: mount: %s", i,
			       t_errname(errno));
			return 1;
		}
		snprintf(path, sizeof(path), "%s/dir", mpt);
		if (mkdir(path, 0755)) {
			t_fail("cycles", "cycle %d: mkdir: %s", i,
			       t_errname(errno));
			return 1;
		}
		snprintf(path, sizeof(path), "%s/dir/file", mpt);
		fd = open(path, O_RDWR | O_CREAT, 0644);
		if (fd < 0 || map1(fd, TWO_MiB, 64 * MiB, TWO_MiB)) {
			t_fail("cycles", "cycle %d: create and map: %s", i,
			       t_errname(errno));
			return 1;
		}
		p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
		if (p == MAP_FAILED) {
			t_fail("cycles", "cycle %d: mmap: %s", i,
			       t_errname(errno));
			return 1;
		}
		memset(p, i, TWO_MiB);
		munmap(p, TWO_MiB);
		close(fd);
		if (umount(mpt)) {
			t_fail("cycles", "cycle %d: umount: %s", i,
			       t_errname(errno));
			return 1;
		}
	}
	t_pass("cycles");
	return 0;
}

/*
 * Lazy unmount with a mapped file open: the mapping keeps working, and the
 * superblock (with the device and its dax holder) goes away at the last
 * close, so the device mounts again right after.
 */
static int lazy(const char *src, const char *mpt)
{
	char path[512];
	char *p;
	int fd;

	if (mount(src, mpt, "famfs", 0, NULL))
		die("mount");
	snprintf(path, sizeof(path), "%s/file", mpt);
	fd = open(path, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || map1(fd, TWO_MiB, 64 * MiB, TWO_MiB))
		die("create and map");
	p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	t_ok("lazy-umount", umount2(mpt, MNT_DETACH));
	memset(p, 0x3c, TWO_MiB);
	t_true("lazy-mapping-works", p[TWO_MiB - 1] == 0x3c,
	       "mapping broken after lazy umount");
	t_errno("lazy-device-still-busy", mount(src, mpt, "famfs", 0, NULL),
		EBUSY);
	munmap(p, TWO_MiB);
	close(fd);
	if (t_ok("lazy-mount-after-close", mount(src, mpt, "famfs", 0, NULL)))
		umount(mpt);
	return t_failed;
}

int main(int argc, char **argv)
{
	if (argc >= 6 && !strcmp(argv[1], "try"))
		return t_done(try(argv[2], argv[3], argv[4], argv[5],
				  argc > 6 ? argv[6] : NULL, 0));
	if (argc == 6 && !strcmp(argv[1], "try-ro"))
		return t_done(try(argv[2], argv[3], argv[4], argv[5], NULL,
				  MS_RDONLY));
	if (argc == 6 && !strcmp(argv[1], "remount"))
		return t_done(remount(argv[2], argv[3], argv[4], argv[5]));
	if (argc == 4 && !strcmp(argv[1], "lazy"))
		return t_done(lazy(argv[2], argv[3]));
	if (argc == 5 && !strcmp(argv[1], "cycles"))
		return t_done(cycles(atoi(argv[2]), argv[3], argv[4]));
	fprintf(stderr, "usage: module_mount try NAME EXPECT SRC MPT [OPTS]\n"
		"       module_mount try-ro NAME EXPECT SRC MPT\n"
		"       module_mount remount NAME EXPECT MPT ro|rw\n"
		"       module_mount cycles N SRC MPT\n"
		"       module_mount lazy SRC MPT\n");
	return 2;
}
