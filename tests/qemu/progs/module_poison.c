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
 *
 * module_poison MPT unused WHICH (on a fresh mount, device 640M..686M): a memory
 * failure in the part of a strip that holds no file bytes (strip space past
 * its last chunk, the unused end of an extent's last chunk) kills nobody,
 * while one in a used chunk kills whoever maps that file page.  Injected
 * by pfn (/sys/kernel/debug/hwpoison/corrupt-pfn: nothing maps unused strip
 * space), the pfn found through /proc/self/pagemap.
 *
 * module_poison MPT shared (on a fresh mount, device 604M..606M): two small
 * files in one 2 MiB unit (page extents, FAMFS_IOC_MAP_PAGES): "owner" at
 * 604M+4K and "neighbour" at 604M+12K, 8 KiB each, each mapped by a child
 * that asked for early kills (PR_MCE_KILL_EARLY).  MADV_HWPOISON of the
 * owner's second page (604M+8K): the poisoning process and the owner's
 * mapper get SIGBUS at that page, the neighbour's mapper gets none.
 *
 * module_poison MPT unpublished (on a fresh noncoherent mount, device 690M..
 * 692M, 694M..696M and 700M..702M, famfs_stall.ko loaded): a memory
 * failure in the memory of a map that MAP_CREATE has put in the extent tree
 * but not published (held in its cache drop, FAMFS_IOC_MAP_INVALIDATE, by
 * famfs_stall.ko), and that it then does not publish (the failure
 * makes it fail with EIO): the file never had those bytes, so the failure
 * must not be reported as, or killed through, that file's bytes.  The
 * suite checks the log; this says the file's inode number and checks
 * MAP_CREATE's EIO and that the file has no map.  Not reached: another
 * map published on that inode between the kill's copy and its check
 * (only the map id tells the two apart; a failed mount refuses the
 * second MAP_CREATE today).
 */
#include "module_test.h"
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/wait.h>

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

/* The pfn behind the mapped page at @p, or 0. */
static uint64_t pfn_of(void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pread(fd, &e, 8, (off_t)((uintptr_t)p / 4096) * 8) != 8)
		e = 0;
	if (fd >= 0)
		close(fd);
	return e >> 63 ? e & ((1ULL << 55) - 1) : 0;
}

/* memory_failure() of @pfn through hwpoison_inject, SIGBUS caught. */
static int inject(const char *name, uint64_t pfn)
{
	volatile int err = 0;
	char b[32];
	int fd = open("/sys/kernel/debug/hwpoison/corrupt-pfn", O_WRONLY);

	if (fd < 0) {
		t_skip(name, "no /sys/kernel/debug/hwpoison/corrupt-pfn: %s",
		       t_errname(errno));
		return 0;
	}
	snprintf(b, sizeof(b), "%#llx", (unsigned long long)pfn);
	t_catch_sigbus();
	t_sigbus_hit = 0;
	if (sigsetjmp(t_sigbus_jb, 1) == 0 &&
	    write(fd, b, strlen(b)) != (ssize_t)strlen(b))
		err = errno;
	close(fd);
	if (err) {
		t_fail(name, "corrupt-pfn %s: %s", b, t_errname(err));
		return 0;
	}
	return 1;
}

/*
 * One interleaved file of three extents, every page touched through a shared
 * mapping:
 *   E0 file 0..4M    2 strips x 4M (640M, 650M), 2M chunks: each strip holds
 *                    one chunk, its second 2M holds nothing
 *   E1 file 4M..10M  2 strips x 4M (660M, 670M), 4M chunks: strip 1 holds
 *                    the last 2M of the extent in its first half
 *   E2 file 10M..16M 1 strip of 6M (680M)
 * Device 642M+8K (E0 strip 0, past its chunk) would be file 4M+8K if the
 * chunks went on, and 672M+8K (E1 strip 1, the unused end of the last
 * chunk) file 10M+8K: those file pages are E1's and E2's, healthy.
 * @which: past-chunk (642M+8K), end-of-chunk (672M+8K) or used (680M+8K,
 * the control: file 10M+8K gets its SIGBUS).  One per mount: the first
 * failure fails the mount and tears every mapping down, and only a process
 * with the page mapped gets the signal.
 */
static int unused(const char *mpt, const char *which)
{
	static const unsigned long long s0[] = { 640 * MiB, 650 * MiB };
	static const unsigned long long s1[] = { 660 * MiB, 670 * MiB };
	static const unsigned long long s2[] = { 680 * MiB };
	struct famfs_ioc_iext ie[3];
	uint64_t pfn0;
	char *p, name[64];
	int fd = mkfile(mpt, "striped");

	ie[0] = iext_mk(2, TWO_MiB, 4 * MiB, 4 * MiB, s0);
	ie[1] = iext_mk(2, 4 * MiB, 6 * MiB, 4 * MiB, s1);
	ie[2] = iext_mk(1, TWO_MiB, 6 * MiB, 6 * MiB, s2);
	snprintf(name, sizeof(name), "%s-map", which);
	if (!t_ok(name, mapv2(fd, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG,
			      16 * MiB, 3, ie)))
		return t_failed;
	p = mmap(NULL, 16 * MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	memset(p, 0x3e, 16 * MiB);
	/* file 8K is E0 chunk 0: strip 0 (640M) at 8K */
	pfn0 = pfn_of(p + 8192);
	if (!pfn0) {
		t_fail("unused-pfn", "no pfn for the mapped page in /proc/self/pagemap");
		return t_failed;
	}
	printf("info: device 640M+8K is pfn %#llx\n", (unsigned long long)pfn0);

	if (!strcmp(which, "past-chunk") || !strcmp(which, "end-of-chunk")) {
		snprintf(name, sizeof(name), "unused-%s", which);
		if (inject(name, pfn0 + (which[0] == 'p' ? TWO_MiB :
					 32 * MiB) / 4096)) {
			if (t_sigbus_hit)
				printf("info: SIGBUS at file offset %#llx\n",
				       (unsigned long long)((char *)t_sigbus_addr - p));
			snprintf(name, sizeof(name), "unused-%s-no-sigbus", which);
			t_true(name, !t_sigbus_hit,
			       "SIGBUS for strip memory that holds no file bytes");
		}
	} else if (inject("used-chunk", pfn0 + 40 * MiB / 4096)) {
		/* E2's first page, device 680M+8K, is file 10M+8K */
		t_true("used-chunk-sigbus", t_sigbus_hit,
		       "no SIGBUS for a mapped file page");
		t_equ("used-chunk-sigbus-addr", 10 * MiB + 8192,
		      (unsigned long long)((char *)t_sigbus_addr - p));
	}
	munmap(p, 16 * MiB);
	close(fd);
	return t_failed;
}

/*
 * A child mapping @fd's 8 KiB, early-kill: tells @ready, waits for @go,
 * then says (exit status) whether it got SIGBUS at page @want of its
 * mapping (@want < 0: whether it got none).
 */
static pid_t mapper(const char *who, int fd, int ready, int go, int want)
{
	volatile char *p;
	char c = 0;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid)
		return pid;
	p = mmap(NULL, 8192, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED ||
	    prctl(PR_MCE_KILL, PR_MCE_KILL_SET, PR_MCE_KILL_EARLY, 0, 0))
		_exit(3);
	t_catch_sigbus();
	t_sigbus_hit = 0;
	if (sigsetjmp(t_sigbus_jb, 1) == 0) {
		c = p[0] + p[4096];
		if (write(ready, &c, 1) != 1)
			_exit(3);
		while (read(go, &c, 1) < 0 && errno == EINTR && !t_sigbus_hit)
			;
		usleep(300000);
	}
	printf("info: %s's mapper: %s", who, t_sigbus_hit ? "SIGBUS" :
	       "no SIGBUS");
	if (t_sigbus_hit)
		printf(" si_code %d at mapping offset %#lx", (int)t_sigbus_code,
		       (long)((char *)t_sigbus_addr - (char *)p));
	printf("\n");
	fflush(stdout);
	if (want < 0)
		_exit(t_sigbus_hit ? 1 : 0);
	_exit(t_sigbus_hit && t_sigbus_code == BUS_MCEERR_AO &&
	      (char *)t_sigbus_addr - (char *)p == want * 4096 ? 0 : 1);
}

/* A small file of 8 KiB at device @off (a page map). */
static int small(const char *mpt, const char *name, unsigned long long off)
{
	struct famfs_ioc_dext d;
	struct famfs_ioc_map_v2 m;
	int fd = mkfile(mpt, name);

	memset(&d, 0, sizeof(d));
	d.offset = off;
	d.len = 8192;
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, 8192, 1, &d);
	m.flags = FAMFS_IOC_MAP_PAGES;
	if (ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m)) {
		printf("FAIL shared-setup: %s: MAP_CREATE_V3 with FAMFS_IOC_MAP_PAGES: %s\n",
		       name, t_errname(errno));
		exit(1);
	}
	return fd;
}

static int shared(const char *mpt)
{
	int fo, fn, rp[2], gp[2], st;
	pid_t po, pn;
	struct stat so, sn;
	char c, *p;

	if (!t_hwpoison_available("shared"))
		return 0;
	fo = small(mpt, "owner", 604 * MiB + 4096);
	fn = small(mpt, "neighbour", 604 * MiB + 12288);
	if (fstat(fo, &so) || fstat(fn, &sn) || pipe(rp) || pipe(gp))
		die("fstat/pipe");
	printf("info: owner inode %lu, neighbour inode %lu\n",
	       (unsigned long)so.st_ino, (unsigned long)sn.st_ino);
	po = mapper("owner", fo, rp[1], gp[0], 1);
	pn = mapper("neighbour", fn, rp[1], gp[0], -1);
	if (read(rp[0], &c, 1) != 1 || read(rp[0], &c, 1) != 1)
		die("the mappers did not start");
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fo, 0);
	if (p == MAP_FAILED)
		die("mmap");
	memset(p, 0x42, 8192);
	if (t_hwpoison("shared", p + 4096)) {
		t_true("shared-poisoner-sigbus", t_sigbus_hit &&
		       (char *)t_sigbus_addr == p + 4096,
		       "the poisoning process got no SIGBUS at the page");
	}
	if (write(gp[1], "gg", 2) != 2)
		die("write");
	t_true("shared-owner-mapper-sigbus", waitpid(po, &st, 0) == po &&
	       WIFEXITED(st) && !WEXITSTATUS(st),
	       "the owner's mapper got no SIGBUS (BUS_MCEERR_AO) at the failed page");
	t_true("shared-neighbour-mapper-spared", waitpid(pn, &st, 0) == pn &&
	       WIFEXITED(st) && !WEXITSTATUS(st),
	       "the neighbour in the same 2 MiB unit got SIGBUS (or its mapper failed)");
	munmap(p, 8192);
	close(fo);
	close(fn);
	return t_failed;
}

#define STALL_P "/sys/module/famfs_stall/parameters/"

static int param_put(const char *name, const char *val)
{
	int fd = open(name, O_WRONLY);
	int ok = fd >= 0 && write(fd, val, strlen(val)) == (ssize_t)strlen(val);

	if (fd >= 0)
		close(fd);
	return ok;
}

static int param_get(const char *name)
{
	char b[32] = "";
	int fd = open(name, O_RDONLY);

	if (fd < 0 || read(fd, b, sizeof(b) - 1) < 0)
		b[0] = 0;
	if (fd >= 0)
		close(fd);
	return atoi(b);
}

static int unpublished(const char *mpt)
{
	struct famfs_ioc_map_v2 g = mapv2_mk(0, 0, 0, 0, NULL);
	struct famfs_ioc_map_v2 m;
	struct famfs_ioc_dext d[2];
	uint64_t pfn700;
	struct stat st;
	int fp, fv, i, status = 0;
	pid_t pid;
	char *p;

	if (access("/sys/kernel/debug/hwpoison/corrupt-pfn", W_OK)) {
		t_skip("unpublished", "no /sys/kernel/debug/hwpoison/corrupt-pfn");
		return 0;
	}
	/* Device 700M's pfn, through a mapped page of a file there. */
	fp = mkfile(mpt, "probe");
	if (!t_ok("unpublished-probe-map", map1(fp, TWO_MiB, 700 * MiB, TWO_MiB)))
		return t_failed;
	p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fp, 0);
	if (p == MAP_FAILED)
		die("mmap");
	p[0] = 1;
	pfn700 = pfn_of(p);
	munmap(p, TWO_MiB);
	close(fp);
	if (!pfn700) {
		t_fail("unpublished-pfn", "no pfn for the mapped page in /proc/self/pagemap");
		return t_failed;
	}

	fv = mkfile(mpt, "unpublished");
	if (fstat(fv, &st))
		die("fstat");
	printf("info: unpublished inode %llu\n", (unsigned long long)st.st_ino);
	memset(d, 0, sizeof(d));
	d[0].offset = 690 * MiB;
	d[0].len = TWO_MiB;
	d[1].offset = 694 * MiB;
	d[1].len = TWO_MiB;
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, 4 * MiB, 2, d);
	m.flags = FAMFS_IOC_MAP_INVALIDATE;
	if (!t_true("unpublished-armed", param_put(STALL_P "armed", "1"),
		    "cannot arm famfs_stall.ko"))
		return t_failed;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid)
		_exit(ioctl(fv, FAMFSIOC_MAP_CREATE_V3, &m) ? errno : 0);
	for (i = 0; i < 100 && param_get(STALL_P "stalled") < 1; i++)
		usleep(100000);
	t_equ("unpublished-stalled", 1, param_get(STALL_P "stalled"));
	/* device 690M+8K: the would-be file bytes 8192..12287 */
	if (inject("unpublished-inject",
		   pfn700 - 10 * MiB / 4096 + 2))
		t_true("unpublished-inject-no-sigbus", !t_sigbus_hit,
		       "SIGBUS for memory this process does not map");
	param_put(STALL_P "go", "1");
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	t_true("unpublished-map-create-eio",
	       WIFEXITED(status) && WEXITSTATUS(status) == EIO,
	       "MAP_CREATE_V3 did not fail with EIO");
	t_true("unpublished-no-map",
	       ioctl(fv, FAMFSIOC_MAP_GET_V3, &g) == -1 && errno == ENODATA,
	       "the file has a map after a failed MAP_CREATE_V3");
	close(fv);
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
	if (argc == 4 && !strcmp(argv[2], "unused"))
		return t_done(unused(argv[1], argv[3]));
	if (argc == 3 && !strcmp(argv[2], "shared"))
		return t_done(shared(argv[1]));
	if (argc == 3 && !strcmp(argv[2], "unpublished"))
		return t_done(unpublished(argv[1]));
	if (argc != 2) {
		fprintf(stderr, "usage: module_poison MPT [healthy|unused past-chunk|end-of-chunk|used|shared|unpublished]\n");
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
