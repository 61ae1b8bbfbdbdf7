// SPDX-License-Identifier: GPL-2.0
/*
 * module_pud_hostile MPT DEV TEST: the hostile review's cases of 1 GiB (PUD)
 * mappings of famfs files (issue 31), one TEST per run, for suites/pud.sh
 * on the profile nvdimm-1g (DEV: a 5 GiB fsdax device whose data starts
 * 1 GiB-aligned; module_pud.c has the others and says more).  Files are
 * laid out by hand with FAMFSIOC_MAP_CREATE on 1 GiB boundaries.
 *
 * Tests:
 *   mremap  a PUD mapping moved whole to an address that is not congruent
 *           to its file offset modulo 1 GiB, and a 2 MiB piece of one moved
 *           out of it: the data follows (6.1's move_page_tables() takes a
 *           huge PUD for a bad table entry when it cannot move it whole:
 *           "bad pud", cleared without a TLB flush; the suite greps the log)
 *   swapoff a private mapping with a copied-on-write page (an anon_vma) and
 *           a read GiB, the copy swapped out (MADV_PAGEOUT) to $PUD_SWAP
 *           and swapped in again by swapoff(): the walk of swapoff
 *           (unuse_pud_range()) takes a huge PUD for a bad entry too
 *   syncrace  stores through a PUD mapping into GiB 0 and 1, then syncfs()
 *           while another process stores into GiB 0: syncfs() writes both
 *           GiBs back (zapping them), the other process's next store faults
 *           and marks GiB 0 dirty again, and a second syncfs() writes GiB 0
 *           back (the suite counts famfs:famfs_pud_writeback between trace
 *           markers this writes)
 *   poisonmap  a memory failure in a GiB this process maps with a PUD
 *           entry, while another process maps the same file but has not
 *           touched it: only the process that maps the page is signalled
 *           (as memory-failure.c does for PMD and PTE mappings)
 *   mixmap  a GiB mapped whole and in 2 MiB pages by two VMAs at once,
 *           its first page full of words that look like page-table
 *           entries; msync and syncfs of the DAX entry: no oops
 *   holdrace  a thread's PUD fault held by famfs_stall.ko before its
 *           insert while the suite removes the device, then in the zap of
 *           its own GiB (it found the mount failed); once the removal has
 *           returned, a load through the mapping must raise SIGBUS (the
 *           handshake with the suite is in $PUD_HOLD: ready, go, read)
 */
#include "module_test.h"
#include <pthread.h>
#include <sys/swap.h>
#include <sys/wait.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT	21
#endif

#include "pud_test.h"

/* A PROT_NONE reservation of @len bytes; its first 1 GiB-aligned address. */
static char *reserve(unsigned long long len, char **r)
{
	*r = mmap(NULL, len, PROT_NONE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (*r == MAP_FAILED)
		die("mmap the reservation");
	return (char *)(((uintptr_t)*r + GiB - 1) & ~(uintptr_t)(GiB - 1));
}

/*
 * mremap: a PUD-mapped GiB moved whole to an address 2 MiB past a 1 GiB
 * boundary (its file offset is 0: not congruent), then a 2 MiB piece of
 * a PUD-mapped GiB moved out of it.  The data must follow either way.
 */
static void test_mremap(void)
{
	int fd = mk1("mremap", GiB, GiB, GiB);
	char *r, *base, *p, *q;

	if (fd < 0)
		return;
	t_true("mremap-mark", mark(fd, GiB), "pwrite of the markers failed");
	base = reserve(5 * GiB, &r);
	p = mmap(base, GiB, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("mremap-mmap", "mmap: %s", t_errname(errno));
		goto out;
	}
	t_equ("mremap-whole-before", pat(0x31, 0), *(volatile uint64_t *)p);
	q = mremap(p, GiB, GiB, MREMAP_MAYMOVE | MREMAP_FIXED,
		   base + GiB + TWO_MiB);
	if (q == MAP_FAILED) {
		t_fail("mremap-whole", "mremap: %s", t_errname(errno));
		goto out;
	}
	read_pass("mremap-whole-data", q, GiB, 0);
	munmap(q, GiB);

	p = mmap(base, GiB, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("mremap-mmap-again", "mmap: %s", t_errname(errno));
		goto out;
	}
	t_equ("mremap-piece-before", pat(0x31, 0), *(volatile uint64_t *)p);
	q = mremap(p + TWO_MiB, TWO_MiB, TWO_MiB, MREMAP_MAYMOVE | MREMAP_FIXED,
		   base + 3 * GiB + 2 * TWO_MiB);
	if (q == MAP_FAILED) {
		t_fail("mremap-piece", "mremap: %s", t_errname(errno));
		goto out;
	}
	read_pass("mremap-piece-data", q, TWO_MiB, TWO_MiB);
	read_pass("mremap-piece-head", p, TWO_MiB, 0);
	read_pass("mremap-piece-rest", p + 2 * TWO_MiB, GiB - 2 * TWO_MiB,
		  2 * TWO_MiB);
out:
	munmap(r, 5 * GiB);
	close(fd);
	rmfile("mremap");
}

/* KiB of swap used on @dev by /proc/swaps, or -1. */
static long long swap_used(const char *dev)
{
	char line[512], name[256];
	long long size, used;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %*s %lld %lld", name, &size, &used) == 3 &&
		    !strcmp(name, dev)) {
			fclose(f);
			return used;
		}
	}
	fclose(f);
	return -1;
}

/*
 * swapoff: a private mapping of a 2 GiB file, a store into GiB 0 (a copy
 * on write: the mapping gets an anon_vma), a load from GiB 1; the copy goes
 * to swap on $PUD_SWAP and swapoff() brings it back, walking every page
 * table of the mapping.  Both bytes read back.
 */
static void test_swapoff(void)
{
	const char *swapdev = getenv("PUD_SWAP");
	int fd, on = 0;
	char *p;

	if (!swapdev) {
		t_fail("swapoff", "PUD_SWAP (a device made with mkswap) is not set");
		return;
	}
	fd = mk1("swapoff", 2 * GiB, GiB, 2 * GiB);
	if (fd < 0)
		return;
	t_true("swapoff-mark", mark(fd, 2 * GiB), "pwrite of the markers failed");
	/* not accounted: 2 GiB of copies would not fit the guest's memory */
	p = mmap(NULL, 2 * GiB, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_NORESERVE, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("swapoff-mmap", "mmap: %s", t_errname(errno));
		goto out;
	}
	if (!t_ok("swapoff-swapon", swapon(swapdev, 0)))
		goto out_unmap;
	on = 1;
	*(volatile uint64_t *)(p + 4096) = 0x3111;
	t_equ("swapoff-gib1", pat(0x31, GiB), *(volatile uint64_t *)(p + GiB));
	t_ok("swapoff-pageout", madvise(p + 4096, 4096, MADV_PAGEOUT));
	t_true("swapoff-swapped", swap_used(swapdev) > 0,
	       "MADV_PAGEOUT put nothing in swap: swapoff would walk nothing");
	on = !t_ok("swapoff", swapoff(swapdev));
	t_equ("swapoff-copy-back", 0x3111, *(volatile uint64_t *)(p + 4096));
	t_equ("swapoff-gib1-again", pat(0x31, GiB),
	      *(volatile uint64_t *)(p + GiB));
out_unmap:
	munmap(p, 2 * GiB);
	if (on)
		swapoff(swapdev);
out:
	close(fd);
	rmfile("swapoff");
}

/* A marker line in the trace: the suite counts events between markers. */
static void trace_marker(const char *what)
{
	int fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (fd < 0 || write(fd, what, strlen(what)) < 0)
		printf("info: no trace marker %s: %s\n", what, t_errname(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * syncrace: GiB 0 and 1 of a 2 GiB file stored into through a PUD mapping;
 * a child stores into GiB 0 through its own mapping every 500 us during a
 * syncfs(), which must write both GiBs back (the suite counts the
 * famfs:famfs_pud_writeback events between the markers famfs-syncrace-1
 * and famfs-syncrace-2) and zaps their mappings, so the child's next store
 * faults and marks GiB 0 dirty again while the writeback runs.  The child
 * stops once syncfs() returned; a second syncfs() must write GiB 0 back
 * (between famfs-syncrace-2 and famfs-syncrace-end).
 */
static void test_syncrace(void)
{
	int fd = mk1("syncrace", 2 * GiB, GiB, 2 * GiB);
	int stop[2], ready[2], status;
	volatile uint64_t *p;
	pid_t pid;
	char c;

	if (fd < 0)
		return;
	p = (volatile uint64_t *)map_shared("syncrace-mmap", fd, 2 * GiB, 0,
					    PROT_READ | PROT_WRITE);
	if (!p)
		goto out;
	p[0] = 1;
	p[GiB / 8] = 1;
	if (pipe(stop) || pipe(ready))
		die("pipe");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		volatile uint64_t *cp = mmap(NULL, 2 * GiB, PROT_READ | PROT_WRITE,
					     MAP_SHARED, fd, 0);
		uint64_t i = 0;

		if (cp == MAP_FAILED)
			_exit(3);
		cp[1] = i;
		close(stop[1]);
		fcntl(stop[0], F_SETFL, O_NONBLOCK);
		if (write(ready[1], &c, 1) != 1)
			_exit(4);
		while (read(stop[0], &c, 1) < 0 && errno == EAGAIN) {
			cp[1] = ++i;
			usleep(500);
		}
		printf("info: the child stored %llu times\n",
		       (unsigned long long)i);
		fflush(stdout);
		_exit(0);
	}
	close(stop[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		t_fail("syncrace-child-ready", "the child did not map the file");
	trace_marker("famfs-syncrace-1");
	t_ok("syncrace-syncfs", syncfs(fd));
	close(stop[1]);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	t_true("syncrace-child", WIFEXITED(status) && !WEXITSTATUS(status),
	       "the storing child failed");
	trace_marker("famfs-syncrace-2");
	t_ok("syncrace-syncfs-again", syncfs(fd));
	trace_marker("famfs-syncrace-end");
	munmap((void *)p, 2 * GiB);
out:
	close(fd);
	rmfile("syncrace");
}

/*
 * poisonmap: a 1 GiB file at device 4G mapped whole by this process (one
 * PUD fault) and by a child that never touches it; a memory failure in a
 * page this process maps.  This process gets SIGBUS; the child, which maps
 * no page of the file, is not signalled (it exits 0 when told to).
 */
static void test_poisonmap(void)
{
	const unsigned long long at = 7 * MiB + 4096;
	int fd, go[2], ready[2], status;
	volatile char *pa;
	pid_t pid;
	char c;

	if (!t_hwpoison_available("poisonmap"))
		return;
	fd = mk1("poisonmap", GiB, 4 * GiB, GiB);
	if (fd < 0)
		return;
	if (pipe(go) || pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		void *cp = mmap(NULL, GiB, PROT_READ, MAP_SHARED, fd, 0);

		if (cp == MAP_FAILED)
			_exit(3);
		close(go[1]);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) < 0)
			_exit(4);
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		t_fail("poisonmap-other-ready", "the other process did not map the file");
	pa = map_shared("poisonmap-mmap", fd, GiB, 0, PROT_READ | PROT_WRITE);
	if (pa) {
		pa[at] = 1;
		if (t_hwpoison("poisonmap-inject", (void *)(pa + at)))
			t_true("poisonmap-sigbus", t_sigbus_hit,
			       "no SIGBUS for a memory failure in a page this process maps");
	}
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	t_true("poisonmap-unmapped-not-killed",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a process that maps the file but no page of it was signalled");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		printf("info: other process status %#x\n", status);
	close(fd);
}

/* SIGBUS for holdrace: per thread, as two threads may take one. */
static __thread sigjmp_buf hr_jb;
static __thread volatile sig_atomic_t hr_hit;

static void hr_on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	hr_hit = 1;
	siglongjmp(hr_jb, 1);
}

/* 1 if this thread's load of *@p raises SIGBUS. */
static int hr_sigbus_at(volatile char *p)
{
	hr_hit = 0;
	if (sigsetjmp(hr_jb, 1) == 0)
		(void)*p;
	return hr_hit;
}

static void *hr_fault(void *p)
{
	return (void *)(uintptr_t)hr_sigbus_at(p);
}

/* Create $PUD_HOLD/@name. */
static void hr_post(const char *dir, const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	close(open(path, O_WRONLY | O_CREAT, 0644));
}

/*
 * holdrace: a 1 GiB file at device 3G mapped whole; a thread loads from it
 * (a PUD fault, which famfs_stall.ko holds), then $PUD_HOLD/ready.  Once
 * $PUD_HOLD/go appears (the suite removed the device and its removal
 * returned), a load of another page of the GiB must raise SIGBUS, then
 * $PUD_HOLD/read; the thread's fault ends in SIGBUS too.
 */
static void test_holdrace(void)
{
	const char *dir = getenv("PUD_HOLD");
	struct sigaction sa;
	char path[512];
	pthread_t t;
	void *hit;
	char *p;
	int fd;

	if (!dir) {
		t_fail("holdrace", "PUD_HOLD (the directory to signal in) is not set");
		return;
	}
	/* the device goes away under us: hold the file only */
	if (dev.fd >= 0)
		close(dev.fd);
	dev.fd = -1;
	fd = mk1("holdrace", GiB, 3 * GiB, GiB);
	if (fd < 0)
		return;
	p = map_shared("holdrace-mmap", fd, GiB, 0, PROT_READ);
	if (!p)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = hr_on_sigbus;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
	if (pthread_create(&t, NULL, hr_fault, p))
		die("pthread_create");
	hr_post(dir, "ready");
	snprintf(path, sizeof(path), "%s/go", dir);
	while (access(path, F_OK))
		usleep(10000);
	t_true("holdrace-sigbus-after-removal", hr_sigbus_at(p + 4096),
	       "the 1 GiB mapping still reads after the removal of its device returned");
	hr_post(dir, "read");
	if (pthread_join(t, &hit))
		die("pthread_join");
	t_true("holdrace-fault-sigbus", hit != NULL,
	       "the held PUD fault did not end in SIGBUS");
	close(fd);
}

/*
 * mixmap: a GiB mapped whole by one VMA (a read: a PUD fault) and its first
 * 2 MiB by another (a store: a PMD fault, a DAX entry), the GiB's first page
 * full of words that read as page-table entries (0x61..: present, not
 * huge); msync of the 2 MiB, then syncfs: writing the DAX entry back walks
 * every VMA of its range (pfn_mkclean_range()), which must never meet the
 * 1 GiB entry (6.1 would take the file's bytes for a page table: an oops).
 * The bytes read right through both mappings after.  (mk1() does not zero
 * the file: every byte checked is one written here.)
 */
static void test_mixmap(void)
{
	int fd = mk1("mixmap", GiB, GiB, GiB);
	unsigned char v[4096];
	char *whole, *part;

	if (fd < 0)
		return;
	memset(v, 0x61, sizeof(v));
	t_true("mixmap-fill", pwrite(fd, v, sizeof(v), 0) == sizeof(v) &&
	       pwrite(fd, "\x3c", 1, GiB / 2 + 8) == 1,
	       "pwrite of the first page or the mid-GiB byte failed");
	whole = map_shared("mixmap-whole", fd, GiB, 0, PROT_READ | PROT_WRITE);
	part = map_shared("mixmap-part", fd, TWO_MiB, 0, PROT_READ | PROT_WRITE);
	if (whole && part) {
		t_true("mixmap-whole-read", whole[GiB / 2 + 8] == 0x3c,
		       "the GiB read wrong through the whole mapping");
		part[8192] = 0x5a;
		t_true("mixmap-msync", !msync(part, TWO_MiB, MS_SYNC),
		       "msync of the 2 MiB mapping failed");
		t_true("mixmap-syncfs", !syncfs(fd), "syncfs failed");
		t_true("mixmap-bytes", whole[8192] == 0x5a &&
		       whole[0] == 0x61 && part[0] == 0x61,
		       "the bytes differ between the two mappings");
	}
	if (part)
		munmap(part, TWO_MiB);
	if (whole)
		munmap(whole, GiB);
	close(fd);
	rmfile("mixmap");
}

static const struct t_test tests[] = {
	{ "mixmap", test_mixmap, 1 },
	{ "mremap", test_mremap, 1 },
	{ "swapoff", test_swapoff, 1 },
	{ "syncrace", test_syncrace, 1 },
	{ "poisonmap", test_poisonmap, 1 },
	{ "holdrace", test_holdrace, 1 },
};

int main(int argc, char **argv)
{
	return pud_main("module_pud_hostile", tests, sizeof(tests) / sizeof(tests[0]),
			argc, argv);
}
