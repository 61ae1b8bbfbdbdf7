// SPDX-License-Identifier: GPL-2.0
/*
 * module_pud MPT DEV TEST: 1 GiB (PUD) mappings of famfs files (issue 31),
 * one TEST per run so that suites/pud.sh can count the faults of each with
 * tracepoints (famfs:famfs_pud_fault, fs_dax:dax_pmd_fault_done,
 * fs_dax:dax_pte_fault_done).  DEV is a 5 GiB fsdax device whose data starts
 * 1 GiB-aligned in physical memory (profiles/nvdimm-1g.sh), so device offsets
 * that are multiples of 1 GiB can be mapped with one PUD entry.  Files are
 * laid out by hand with FAMFSIOC_MAP_CREATE on 1 GiB boundaries; every test
 * unlinks its file(s) at its end.
 *
 * Tests (the counts the suite expects are in suites/pud.sh):
 *   cold4g  a 4 GiB file at device 1G, a cold read pass over a shared
 *           mapping (one load per 2 MiB); the loads see what pwrite() put
 *           there, and the mapping is 1 GiB-aligned
 *   off2m   the same file mapped from file offset 2 MiB: the address is
 *           congruent to the offset modulo 1 GiB, so the unaligned head
 *           takes PMD faults and every whole GiB one PUD fault
 *   tail    a file of 1 GiB + 4 KiB (one extent of 1 GiB + 2 MiB), mapped
 *           alone in a reserved 3 GiB of address space: one PUD
 *           fault, then PTE faults for the tail
 *   nohuge  a 1 GiB file, MADV_NOHUGEPAGE, 16 pages touched: PTE faults only
 *   wb      writes through a PUD mapping into GiB 0 and GiB 2 of a 4 GiB
 *           file; msync of GiB 2 only, then fsync, then a write into GiB 0
 *           again and fsync: each writeback writes the dirty GiBs only, the
 *           write after a writeback faults again (it was write-protected),
 *           and the device holds every byte written (read with O_DIRECT)
 *   pins    a page of a PUD-mapped GiB vmsplice'd into a pipe, the mapping,
 *           the file and its name gone: its memory is not given to a new
 *           file (EADDRINUSE) until the pipe is drained, and the pipe reads
 *           the bytes the page had
 *   stripe1g  an interleaved file of 2 GiB, 2 strips (device 1G, 3G),
 *           1 GiB chunks: one PUD fault per chunk
 *   stripe2m  the same layout with 2 MiB chunks (1 GiB): the GiB is not in
 *           one run, so FALLBACK ("extent") and 2 MiB faults
 *   hold    a PUD mapping held while the suite removes the device: SIGBUS
 *           after (the file is not unlinked: the mount is gone)
 *   mprotect  a written PUD mapping made read-only (6.1 would log "bad
 *           pud" and drop the entry unflushed), then read: it faults again
 *   read    a cold read pass over the file $PUD_READ (made by the tool)
 *   write   the pattern of famfs mkfile -S $PUD_SEED written through a shared
 *           mapping of the whole file $PUD_WRITE (a store per word), then
 *           fsync: famfs verify (here, or on another host) reads it back
 *   poison  a memory failure (MADV_HWPOISON) in a PUD-mapped GiB of a 2 GiB
 *           file mapped whole by two processes: SIGBUS to both, each at
 *           its own address of the poisoned page, si_addr_lsb 30; a
 *           process mapping the file's other GiB only, one mapping another
 *           1 GiB file (PUD, device 4G) and one mapping a 2 MiB file (PMD,
 *           device 3G) are not signalled
 */
#include "module_test.h"
#include <sys/uio.h>
#include <sys/wait.h>

#include "pud_test.h"

static void test_cold4g(void)
{
	const unsigned long long size = 4 * GiB;
	int fd = mk1("cold4g", size, GiB, size);
	char *p;

	if (fd < 0)
		return;
	t_true("cold4g-mark", mark(fd, size), "pwrite of the markers failed");
	p = map_shared("cold4g-mmap", fd, size, 0, PROT_READ);
	if (p) {
		t_true("cold4g-mmap-1g-aligned", ((uintptr_t)p & (GiB - 1)) == 0,
		       "mmap of a 4 GiB file did not return a 1 GiB-aligned address");
		read_pass("cold4g-data", p, size, 0);
		munmap(p, size);
	}
	close(fd);
	rmfile("cold4g");
}

static void test_off2m(void)
{
	const unsigned long long size = 4 * GiB;
	int fd = mk1("off2m", size, GiB, size);
	char *p;

	if (fd < 0)
		return;
	t_true("off2m-mark", mark(fd, size), "pwrite of the markers failed");
	p = map_shared("off2m-mmap", fd, size - TWO_MiB, TWO_MiB, PROT_READ);
	if (p) {
		t_true("off2m-congruent",
		       ((uintptr_t)p & (GiB - 1)) == TWO_MiB,
		       "the address of a mapping from file offset 2 MiB is not 2 MiB past a 1 GiB boundary");
		read_pass("off2m-data", p, size - TWO_MiB, TWO_MiB);
		munmap(p, size - TWO_MiB);
	}
	close(fd);
	rmfile("off2m");
}

/*
 * The mapping goes 1 GiB-aligned into a PROT_NONE reservation of 3 GiB: no
 * other mapping shares the GiB (or the 2 MiB) after its end, so nothing else
 * has made the page tables there, and the tail's faults start at the PUD.
 */
static void test_tail(void)
{
	const unsigned long long size = GiB + 4096;
	int fd = mk1("tail", size, GiB, GiB + TWO_MiB);
	uint64_t v = pat(0x31, GiB);
	char *r, *p;

	if (fd < 0)
		return;
	t_true("tail-mark", mark(fd, GiB) &&
	       pwrite(fd, &v, sizeof(v), GiB) == sizeof(v),
	       "pwrite of the markers failed");
	r = mmap(NULL, 3 * GiB, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		die("mmap the reservation");
	p = mmap((void *)(((uintptr_t)r + GiB - 1) & ~(uintptr_t)(GiB - 1)),
		 size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("tail-mmap", "mmap: %s", t_errname(errno));
	} else {
		read_pass("tail-data", p, GiB, 0);
		t_equ("tail-last-page", v, *(volatile uint64_t *)(p + GiB));
	}
	munmap(r, 3 * GiB);
	close(fd);
	rmfile("tail");
}

static void test_nohuge(void)
{
	int fd = mk1("nohuge", GiB, GiB, GiB);
	unsigned long long off;
	unsigned long s = 0;
	char *p;

	if (fd < 0)
		return;
	p = map_shared("nohuge-mmap", fd, GiB, 0, PROT_READ);
	if (p) {
		t_ok("nohuge-madvise", madvise(p, GiB, MADV_NOHUGEPAGE));
		for (off = 0; off < 16 * 4096; off += 4096)
			s += *(volatile unsigned char *)(p + off);
		printf("info: sum %lu\n", s);
		munmap(p, GiB);
	}
	close(fd);
	rmfile("nohuge");
}

/* Device byte @off holds @want (read with O_DIRECT)? */
static void dev_has(const char *name, unsigned long long off, uint64_t want)
{
	const void *b = t_devread(&dev, off & ~4095ULL, 4096);
	uint64_t v;

	if (!b) {
		t_fail(name, "cannot read the device at %#llx: %s", off,
		       t_errname(errno));
		return;
	}
	memcpy(&v, (const char *)b + (off & 4095), sizeof(v));
	t_equ(name, want, v);
}

static void test_wb(void)
{
	const unsigned long long size = 4 * GiB;
	int fd = mk1("wb", size, GiB, size);
	volatile uint64_t *w0, *w2;
	char *p;

	if (fd < 0)
		return;
	p = map_shared("wb-mmap", fd, size, 0, PROT_READ | PROT_WRITE);
	if (!p)
		goto out;
	w0 = (volatile uint64_t *)(p + 4096);
	w2 = (volatile uint64_t *)(p + 2 * GiB + 8192);
	*w0 = 0x3101;
	*w2 = 0x3102;
	/* GiB 2 only */
	printf("info: msync of GiB 2\n");
	t_ok("wb-msync-gib2", msync(p + 2 * GiB, GiB, MS_SYNC));
	printf("info: fsync\n");
	t_ok("wb-fsync", fsync(fd));
	dev_has("wb-dev-gib0", GiB + 4096, 0x3101);
	dev_has("wb-dev-gib2", 3 * GiB + 8192, 0x3102);
	*w0 = 0x3103;
	printf("info: fsync after the second write\n");
	t_ok("wb-fsync-again", fsync(fd));
	dev_has("wb-dev-gib0-again", GiB + 4096, 0x3103);
	munmap(p, size);
out:
	close(fd);
	rmfile("wb");
}

static void test_pins(void)
{
	const unsigned long long at = 5 * MiB + 8192;
	static char buf[4096];
	int pipefd[2], fd, fd2, err;
	struct iovec iov;
	char *p;

	fd = mk1("pins", GiB, GiB, GiB);
	if (fd < 0)
		return;
	p = map_shared("pins-mmap", fd, GiB, 0, PROT_READ | PROT_WRITE);
	if (!p) {
		close(fd);
		rmfile("pins");
		return;
	}
	memset(p + at, 0x5a, 4096);
	if (pipe(pipefd))
		die("pipe");
	iov.iov_base = p + at;
	iov.iov_len = 4096;
	if (vmsplice(pipefd[1], &iov, 1, 0) != 4096)
		die("vmsplice");
	munmap(p, GiB);
	close(fd);
	rmfile("pins");

	/* The evicted file's memory is still referenced by the pipe. */
	fd2 = mkfile(mpt, "pins2");
	err = map1(fd2, GiB, GiB, GiB) ? errno : 0;
	t_errno("pins-memory-not-reused", err ? -1 : 0, EADDRINUSE);
	if (!err) {
		/* It was given out: show what the pipe reads now. */
		memset(buf, 0, sizeof(buf));
		t_equ("pins-new-file-write", 4096,
		      pwrite(fd2, buf, sizeof(buf), at));
	}
	if (read(pipefd[0], buf, sizeof(buf)) != sizeof(buf))
		t_fail("pins-pipe-read", "%s", t_errname(errno));
	else
		t_true("pins-pipe-bytes", buf[0] == 0x5a && buf[4095] == 0x5a,
		       "the pipe shows other bytes than the pinned page had");
	close(pipefd[0]);
	close(pipefd[1]);
	if (err)
		t_ok("pins-memory-free-after-drain", map1(fd2, GiB, GiB, GiB));
	close(fd2);
	rmfile("pins2");
}

/*
 * poison: a process that maps the poisoned file, in the background: @kind
 * 's' maps GiB 0 of @fd (the poisoned page's) at an address of its own,
 * 'g' maps GiB 1 only, 'o' maps another file's first @len bytes; each
 * touches its mapping (one fault), says ready on @ready, and waits for @go
 * to close.  It writes what it got to @res: a SIGBUS (with its code,
 * address and address lsb) or none, and the address of the poisoned page
 * in its mapping ('s').
 */
struct poison_res {
	int		hit, code, lsb, ok;
	uintptr_t	addr, want;
};

static pid_t poison_child(char kind, int fd, unsigned long long len,
			  unsigned long long at, int ready, const int go[2],
			  int res)
{
	static struct poison_res r;
	volatile char *m = NULL;
	char c = 1;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid)
		return pid;
	close(go[1]);	/* EOF when the parent closes its end */
	memset(&r, 0, sizeof(r));
	if (kind == 's') {
		/*
		 * 1 GiB-aligned in the lowest GiB of a reservation of 3: not
		 * where the parent's mmap() (which pads by 1 GiB) puts its own
		 */
		char *rsv = mmap(NULL, 3 * GiB, PROT_NONE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
				 -1, 0);

		if (rsv != MAP_FAILED)
			m = mmap((void *)(((uintptr_t)rsv + GiB - 1) &
					  ~(uintptr_t)(GiB - 1)),
				 GiB, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0);
		r.want = (uintptr_t)m + at;
	} else if (kind == 'g') {
		m = mmap(NULL, GiB, PROT_READ, MAP_SHARED, fd, GiB);
	} else {
		m = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	}
	if (m == MAP_FAILED || !m)
		_exit(3);
	c = m[kind == 's' ? at : 0];
	r.ok = 1;
	t_catch_sigbus();
	t_sigbus_hit = 0;
	if (sigsetjmp(t_sigbus_jb, 1) == 0) {
		if (write(ready, &c, 1) != 1)
			_exit(4);
		/* returns at EOF, or not at all if the SIGBUS comes */
		while (read(go[0], &c, 1) > 0)
			;
	}
	r.hit = t_sigbus_hit;
	r.code = t_sigbus_code;
	r.lsb = t_sigbus_lsb;
	r.addr = (uintptr_t)t_sigbus_addr;
	_exit(write(res, &r, sizeof(r)) == sizeof(r) ? 0 : 5);
}

/* The child's verdict: @sig says whether it must have had the SIGBUS. */
static void poison_verdict(const char *name, pid_t pid, int res, int sig)
{
	struct poison_res r;
	char id[96];
	int status;

	memset(&r, 0, sizeof(r));
	if (read(res, &r, sizeof(r)) != sizeof(r))
		r.ok = 0;
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	snprintf(id, sizeof(id), "%s-%s", name, sig ? "sigbus" : "not-killed");
	if (r.want)
		printf("info: %s maps the poisoned page at %#lx\n", name,
		       (unsigned long)r.want);
	if (!r.ok || !WIFEXITED(status) || WEXITSTATUS(status)) {
		t_fail(id, "the process was killed or failed (status %#x)",
		       status);
		return;
	}
	if (!sig) {
		t_true(id, !r.hit, "a process that does not map the poisoned page got SIGBUS (it would have been killed)");
		return;
	}
	if (!t_true(id, r.hit, "no SIGBUS to a process that maps the poisoned page"))
		return;
	snprintf(id, sizeof(id), "%s-sigbus-addr", name);
	if (!t_true(id, r.addr == r.want,
		    "SIGBUS names another address than the poisoned page's in this process"))
		printf("info: %s: SIGBUS at %#lx, poisoned page at %#lx\n",
		       name, (unsigned long)r.addr, (unsigned long)r.want);
	snprintf(id, sizeof(id), "%s-sigbus-lsb", name);
	t_equ(id, 30, r.lsb);
	snprintf(id, sizeof(id), "%s-sigbus-mceerr", name);
	t_true(id, r.code == BUS_MCEERR_AR || r.code == BUS_MCEERR_AO,
	       "SIGBUS without BUS_MCEERR_*");
}

/*
 * The poisoned page is in GiB 0 of file a (2 GiB at device 1G), mapped
 * whole (PUD) by this process and by another ("same"); a third maps a's
 * GiB 1 only ("other-gib"), a fourth another 1 GiB file (device 4G, PUD:
 * "other-pud-file"), a fifth a 2 MiB file (device 3G, PMD: "other-file").
 * Only the first two get SIGBUS, each at its own address of the page,
 * si_addr_lsb 30 (the 1 GiB mapping).
 */
static void test_poison(void)
{
	const unsigned long long at = 5 * MiB + 8192;
	static const struct {
		const char	*name;
		char		kind;
		int		file, sig;
	} kids[] = {
		{ "poison-same-file", 's', 0, 1 },
		{ "poison-other-gib", 'g', 0, 0 },
		{ "poison-other-pud-file", 'o', 2, 0 },
		{ "poison-other-file", 'o', 1, 0 },
	};
	const unsigned long long lens[] = { 2 * GiB, TWO_MiB, GiB };
	int fds[3], go[2], ready[2], res[4][2];
	pid_t pids[4];
	volatile char *pa;
	unsigned int i;
	char c;

	if (!t_hwpoison_available("poison"))
		return;
	fds[0] = mk1("poison-a", 2 * GiB, GiB, 2 * GiB);
	fds[1] = mk1("poison-b", TWO_MiB, 3 * GiB, TWO_MiB);
	fds[2] = mk1("poison-c", GiB, 4 * GiB, GiB);
	if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0)
		return;
	if (pipe(go) || pipe(ready))
		die("pipe");
	for (i = 0; i < 4; i++) {
		if (pipe(res[i]))
			die("pipe");
		pids[i] = poison_child(kids[i].kind, fds[kids[i].file],
				       lens[kids[i].file], at, ready[1], go,
				       res[i][1]);
		close(res[i][1]);
		printf("info: %s: pid %d\n", kids[i].name, (int)pids[i]);
	}
	close(go[0]);
	close(ready[1]);
	/* the others have mapped before the failure fails the mount */
	for (i = 0; i < 4; i++)
		if (read(ready[0], &c, 1) != 1)
			t_fail("poison-others-ready", "a process did not map its file");
	pa = map_shared("poison-mmap", fds[0], GiB, 0, PROT_READ | PROT_WRITE);
	printf("info: pid %d maps the poisoned GiB at %p\n", (int)getpid(),
	       (void *)pa);
	fflush(stdout);
	if (pa) {
		pa[at] = 1;
		if (t_hwpoison("poison-inject", (void *)(pa + at))) {
			t_true("poison-sigbus", t_sigbus_hit,
			       "no SIGBUS for a memory failure in a page this process maps");
			t_true("poison-sigbus-addr",
			       (char *)t_sigbus_addr == (char *)pa + at,
			       "SIGBUS names another address than the poisoned page's");
			if ((char *)t_sigbus_addr != (char *)pa + at)
				printf("info: SIGBUS at %p, poisoned page at %p\n",
				       t_sigbus_addr, (void *)(pa + at));
			if (t_sigbus_hit)
				t_equ("poison-sigbus-lsb", 30, t_sigbus_lsb);
		}
	}
	close(go[1]);
	for (i = 0; i < 4; i++) {
		poison_verdict(kids[i].name, pids[i], res[i][0], kids[i].sig);
		close(res[i][0]);
	}
	for (i = 0; i < 3; i++)
		close(fds[i]);
}

/*
 * An interleaved file over two strips at device 1G and 3G: chunk @chunk,
 * @size bytes (a whole number of chunk pairs); its markers read back through
 * a shared mapping.
 */
static void stripe(const char *name, unsigned long long chunk,
		   unsigned long long size)
{
	static const unsigned long long offs[] = { GiB, 3 * GiB };
	struct famfs_ioc_iext ie = iext_mk(2, chunk, size, size / 2, offs);
	char id[64];
	int fd = mkfile(mpt, name);
	char *p;

	snprintf(id, sizeof(id), "%s-map", name);
	if (!t_ok(id, mapv2(fd, FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, size, 1,
			    &ie)))
		goto out;
	snprintf(id, sizeof(id), "%s-mark", name);
	t_true(id, mark(fd, size), "pwrite of the markers failed");
	snprintf(id, sizeof(id), "%s-mmap", name);
	p = map_shared(id, fd, size, 0, PROT_READ);
	if (p) {
		snprintf(id, sizeof(id), "%s-data", name);
		read_pass(id, p, size, 0);
		munmap(p, size);
	}
out:
	close(fd);
	rmfile(name);
}

/* 1 GiB chunks: each chunk one PUD mapping */
static void test_stripe1g(void)
{
	stripe("stripe1g", GiB, 2 * GiB);
}

/* 2 MiB chunks: no GiB is in one run, PMD mappings */
static void test_stripe2m(void)
{
	stripe("stripe2m", TWO_MiB, GiB);
}

/*
 * hold: a 1 GiB file at device 3G mapped whole and read (one PUD fault),
 * then $PUD_HOLD/ready; once $PUD_HOLD/go appears (the suite removed the
 * device meanwhile) the mapping must be gone: SIGBUS at both ends.
 */
static void test_hold(void)
{
	const char *dir = getenv("PUD_HOLD");
	char path[512];
	volatile char *p;
	int fd;

	if (!dir) {
		t_fail("hold", "PUD_HOLD (the directory to signal in) is not set");
		return;
	}
	/* the device may go away under us: hold the file only */
	if (dev.fd >= 0)
		close(dev.fd);
	dev.fd = -1;
	fd = mk1("hold", GiB, 3 * GiB, GiB);
	if (fd < 0)
		return;
	p = map_shared("hold-mmap", fd, GiB, 0, PROT_READ);
	if (!p)
		return;
	t_true("hold-before", !t_sigbus_at(p) && !t_sigbus_at(p + GiB - 1),
	       "the mapping faults before the removal");
	snprintf(path, sizeof(path), "%s/ready", dir);
	close(open(path, O_WRONLY | O_CREAT, 0644));
	snprintf(path, sizeof(path), "%s/go", dir);
	while (access(path, F_OK))
		usleep(10000);
	t_true("hold-sigbus-after", t_sigbus_at(p) && t_sigbus_at(p + GiB - 1),
	       "the 1 GiB mapping still reads after the device went away");
	close(fd);
}

/* mprotect: a written PUD mapping made read-only, then read */
static void test_mprotect(void)
{
	int fd = mk1("mprot", GiB, GiB, GiB);
	volatile char *p;

	if (fd < 0)
		return;
	p = map_shared("mprotect-mmap", fd, GiB, 0, PROT_READ | PROT_WRITE);
	if (p) {
		p[4096] = 0x31;
		t_ok("mprotect-ro", mprotect((void *)p, GiB, PROT_READ));
		t_equ("mprotect-read-back", 0x31, p[4096]);
		munmap((void *)p, GiB);
	}
	close(fd);
	rmfile("mprot");
}

/* read: a cold read pass (a load per 2 MiB) over a shared mapping of the
 * whole file $PUD_READ (relative to MPT), e.g. one famfs mkfile made */
static void test_read(void)
{
	const char *name = getenv("PUD_READ");
	char path[512], id[96];
	struct stat st;
	unsigned long long off;
	unsigned long s = 0;
	char *p;
	int fd;

	if (!name) {
		t_fail("read", "PUD_READ (the file to read) is not set");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(id, sizeof(id), "read-%s-open", name);
		t_fail(id, "%s: %s", path, t_errname(errno));
		return;
	}
	snprintf(id, sizeof(id), "read-%s-mmap", name);
	p = map_shared(id, fd, st.st_size, 0, PROT_READ);
	if (p) {
		for (off = 0; off < (unsigned long long)st.st_size; off += TWO_MiB)
			s += *(volatile unsigned char *)(p + off);
		printf("info: %s: sum %lu\n", path, s);
		t_pass(id);
		munmap(p, st.st_size);
	}
	close(fd);
}

/* The pattern of famfs mkfile -S (tools/famfs-cli/lib/base/pattern.c):
 * word i of the file is splitmix64(seed, i) */
static uint64_t seed_word(uint64_t seed, uint64_t i)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ULL + (i + 1) * 0xbf58476d1ce4e5b9ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* write: $PUD_SEED's pattern into the file $PUD_WRITE (relative to MPT)
 * through a shared writable mapping of all of it, then fsync */
static void test_write(void)
{
	const char *name = getenv("PUD_WRITE"), *seed_s = getenv("PUD_SEED");
	char path[512];
	struct stat st;
	uint64_t seed, n, i;
	uint64_t *p;
	int fd;

	if (!name || !seed_s) {
		t_fail("write", "PUD_WRITE (the file) or PUD_SEED is not set");
		return;
	}
	seed = strtoull(seed_s, NULL, 0);
	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	fd = open(path, O_RDWR);
	if (fd < 0 || fstat(fd, &st)) {
		t_fail("write-open", "%s: %s", path, t_errname(errno));
		return;
	}
	p = (uint64_t *)map_shared("write-mmap", fd, st.st_size, 0,
				   PROT_READ | PROT_WRITE);
	if (p) {
		n = (uint64_t)st.st_size / 8;
		for (i = 0; i < n; i++)
			p[i] = seed_word(seed, i);
		t_ok("write-fsync", fsync(fd));
		munmap(p, st.st_size);
	}
	close(fd);
}

static const struct t_test tests[] = {
	{ "cold4g", test_cold4g, 1 },
	{ "off2m", test_off2m, 1 },
	{ "tail", test_tail, 1 },
	{ "nohuge", test_nohuge, 1 },
	{ "wb", test_wb, 1 },
	{ "pins", test_pins, 1 },
	{ "poison", test_poison, 1 },
	{ "read", test_read, 1 },
	{ "write", test_write, 1 },
	{ "mprotect", test_mprotect, 1 },
	{ "hold", test_hold, 1 },
	{ "stripe1g", test_stripe1g, 1 },
	{ "stripe2m", test_stripe2m, 1 },
};

int main(int argc, char **argv)
{
	return pud_main("module_pud", tests, sizeof(tests) / sizeof(tests[0]),
			argc, argv);
}
