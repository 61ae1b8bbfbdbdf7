// SPDX-License-Identifier: GPL-2.0
/*
 * module_poison MPT: a memory failure in a famfs file, on a fresh mount at
 * MPT.  MADV_HWPOISON on a mapped page of one file goes memory_failure() ->
 * pmem -> dax_holder_notify_failure() -> famfs, which fails the whole mount:
 * the poisoning process gets SIGBUS, the other file's existing mapping is
 * torn down (its next access is SIGBUS), and read, write, mmap, fsync and
 * MAP_CREATE get EIO, while names and maps stay readable.
 *
 * Uses device 600M..602M (the poisoned file) and 610M..612M.
 */
#include "module_test.h"
#include <sys/statfs.h>

/* After a remount: maps, writes and reads work again. */
static int healthy(const char *mpt)
{
	char out[4096], in[4096];
	int fd = mkfile(mpt, "healthy");

	t_ok("healthy-map", map1(fd, TWO_MiB, 620 * MiB, TWO_MiB));
	memset(out, 0x7c, sizeof(out));
	t_equ("healthy-write", sizeof(out), pwrite(fd, out, sizeof(out), 0));
	t_equ("healthy-read", sizeof(in), pread(fd, in, sizeof(in), 0));
	t_true("healthy-same", !memcmp(in, out, sizeof(in)), "data differs");
	close(fd);
	return t_failed;
}

int main(int argc, char **argv)
{
	const char *mpt;
	struct famfs_ioc_map got;
	struct statfs sfs;
	char *pf, *pg, buf[4096];
	int f, g, h;

	if (argc == 3 && !strcmp(argv[2], "healthy"))
		return t_done(healthy(argv[1]));
	if (argc != 2) {
		fprintf(stderr, "usage: module_poison MPT [healthy]\n");
		return 2;
	}
	mpt = argv[1];
	if (!t_hwpoison_available("poison"))
		return t_done(0);
	t_catch_sigbus();

	f = mkfile(mpt, "poisoned");
	g = mkfile(mpt, "bystander");
	if (map1(f, TWO_MiB, 600 * MiB, TWO_MiB) ||
	    map1(g, TWO_MiB, 610 * MiB, TWO_MiB))
		die("map");
	pf = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	pg = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, g, 0);
	if (pf == MAP_FAILED || pg == MAP_FAILED)
		die("mmap");
	memset(pf, 0x5a, TWO_MiB);
	memset(pg, 0x6b, TWO_MiB);
	t_equ("before-read", sizeof(buf), pread(g, buf, sizeof(buf), 0));

	if (!t_hwpoison("poison", pf + 8192))
		return t_done(0);
	printf("info: SIGBUS %s, si_code %d\n", t_sigbus_hit ? "yes" : "no",
	       (int)t_sigbus_code);
	t_true("poison-sigbus", t_sigbus_hit,
	       "the poisoning process got no SIGBUS");
	t_true("poison-sigbus-mceerr", t_sigbus_code == BUS_MCEERR_AR ||
	       t_sigbus_code == BUS_MCEERR_AO, "SIGBUS without BUS_MCEERR_*");

	/* The whole mount has failed. */
	t_true("bystander-mapping-sigbus", t_sigbus_at(pg + 4096),
	       "the other file's old mapping still works");
	t_true("poisoned-mapping-sigbus", t_sigbus_at(pf),
	       "the poisoned file's mapping still works");
	t_errno("read-eio", pread(g, buf, sizeof(buf), 0), EIO);
	t_errno("write-eio", pwrite(g, buf, sizeof(buf), 0), EIO);
	t_errno("mmap-eio", (long)mmap(NULL, TWO_MiB, PROT_READ, MAP_SHARED,
				       g, 0), EIO);
	t_errno("fsync-eio", fsync(g), EIO);
	h = mkfile(mpt, "after");
	t_errno("map-create-eio", map1(h, TWO_MiB, 620 * MiB, TWO_MiB), EIO);
	t_ok("map-get-still-works", ioctl(g, FAMFSIOC_MAP_GET, &got));
	t_ok("statfs-still-works", statfs(mpt, &sfs));
	t_equ("read-past-eof-still-0", 0, pread(g, buf, sizeof(buf),
						 TWO_MiB));

	munmap(pf, TWO_MiB);
	munmap(pg, TWO_MiB);
	close(f);
	close(g);
	close(h);
	return t_done(0);
}
