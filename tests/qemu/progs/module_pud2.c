// SPDX-License-Identifier: GPL-2.0
/*
 * module_pud2 MPT DEV TEST: more guarantees of 1 GiB (PUD) mappings of famfs
 * files (issue 31) that the PMD path gives: page references (O_DIRECT,
 * unlink of a mapped file, a pipe through a device removal), MAP_SYNC and a
 * non-coherent mount.  As module_pud.c (whose file layout it follows: DEV is
 * the 5 GiB fsdax device of profiles/nvdimm-1g.sh, files are laid out with
 * FAMFSIOC_MAP_CREATE on 1 GiB boundaries, one TEST per run so that
 * suites/pud.sh counts the faults of each, each test unlinks its files).
 * $PUD_NULLB is a null_blk device (memory_backed=1, irqmode=2: each request
 * completes, and lets go of its pages, a fixed time after it was copied),
 * another block device that takes O_DIRECT.
 *
 * Tests (the counts the suite expects are in suites/pud.sh):
 *   odirect   a 1 GiB file mapped whole, read once (one PUD fault, a
 *             read-only entry); an O_DIRECT write(2) from 1 MiB of the
 *             mapping (across a 2 MiB boundary) to $PUD_NULLB: the device
 *             holds the file's bytes; an O_DIRECT read(2) from $PUD_NULLB
 *             into 1 MiB of the mapping (get_user_pages() for writing: a
 *             write fault, the GiB dirty): the mapping and pread() of the
 *             file show the bytes; then fsync writes the GiB back
 *   odunlink  an asynchronous O_DIRECT write (io_submit) of 64 KiB of a
 *             PUD-mapped GiB to $PUD_NULLB, and while it is in flight the
 *             mapping, the descriptor and the name go (the file is
 *             evicted): its memory is not given to a new file (EADDRINUSE)
 *             until the write completed, then it is; the device got the
 *             bytes the file had
 *   unlinkmapped  a PUD-mapped file written, its name and descriptor gone
 *             while the mapping stays: the mapping still reads and writes
 *             the file, its memory is not given to a new file, msync
 *             writes the GiB back (the device holds the bytes); after
 *             munmap the memory is free
 *   pinrm     a page of a PUD-mapped GiB (device 3G) vmsplice'd into a pipe,
 *             then $PUD_HOLD/ready; the suite removes the device (the
 *             removal must wait for the page) and creates $PUD_HOLD/go:
 *             the pipe reads the page's bytes, the mapping is gone (SIGBUS).
 *             With $PUD_MEMBER=N the file is on member N (MAP_CREATE_V3),
 *             which the suite removes instead
 *   sync      mmap(MAP_SHARED_VALIDATE | MAP_SYNC) of a 1 GiB file: accepted,
 *             1 GiB-aligned; a store takes one PUD fault and is in the
 *             device's memory without msync; msync writes the GiB back,
 *             the next store faults again
 *   nc        on a non-coherent mount (-o noncoherent, docs/noncoherent.md):
 *             a store through a PUD mapping, an msync of its page (at most
 *             256 KiB: written back and invalidated line by line, the GiB
 *             stays mapped and dirty), a second store (no fault), fsync
 *             (the GiB written back, the file invalidated), the device
 *             holds both; a third store faults again, msync of the whole
 *             mapping writes back and invalidates again
 *   mremap, mremapmerge  a PUD-mapped GiB moved by mremap() (see below)
 *   poisonstripe  a memory failure (MADV_HWPOISON) in chunk 1 of an
 *             interleaved file of 2 GiB (1 GiB chunks, strips at device 2G
 *             and 4G) mapped whole: SIGBUS at the page's address in chunk
 *             1, si_addr_lsb 30; a process mapping chunk 0 only is not
 *             killed (the failed device bytes are file bytes of chunk 1)
 */
#include "module_test.h"
#include <linux/aio_abi.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>

#include "pud_test.h"

/* The same on member device @devindex (FAMFSIOC_MAP_CREATE_V3). */
static int mk1_on(const char *name, unsigned int devindex,
		  unsigned long long size, unsigned long long off,
		  unsigned long long len)
{
	struct famfs_ioc_map_v2 m;
	struct famfs_ioc_dext d;
	char id[64];
	int fd;

	if (!devindex)
		return mk1(name, size, off, len);
	fd = mkfile(mpt, name);
	memset(&d, 0, sizeof(d));
	d.devindex = devindex;
	d.offset = off;
	d.len = len;
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG, size, 1, &d);
	snprintf(id, sizeof(id), "%s-map", name);
	if (!t_ok(id, ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m))) {
		close(fd);
		rmfile(name);
		return -1;
	}
	return fd;
}

/* mmap @len bytes of @fd from 0 with @flags; FAIL @name and NULL on error. */
static char *map_at0(const char *name, int fd, unsigned long long len,
		     int flags)
{
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, 0);

	if (p == MAP_FAILED) {
		t_fail(name, "mmap: %s", t_errname(errno));
		return NULL;
	}
	return p;
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

/* The null_blk device, O_DIRECT, or NULL (FAIL @name). */
static struct t_dev *nullb(const char *name)
{
	static struct t_dev nb;
	const char *path = getenv("PUD_NULLB");

	if (!path) {
		t_fail(name, "PUD_NULLB (a null_blk device) is not set");
		return NULL;
	}
	if (!nb.buf)
		t_dev_open(&nb, path, O_RDWR);
	return &nb;
}

static void test_odirect(void)
{
	const unsigned long long at = 5 * MiB + 8192, at2 = 300 * MiB + 4096;
	struct t_dev *nb = nullb("odirect-nullb");
	int fd = nb ? mk1("odirect", GiB, GiB, GiB) : -1;
	static char buf[MiB];
	long long bad;
	char *p;

	if (fd < 0)
		return;
	fill(buf, 0x3111, at, MiB);
	t_equ("odirect-pwrite", MiB, pwrite(fd, buf, MiB, at));
	p = map_at0("odirect-mmap", fd, GiB, MAP_SHARED);
	if (!p)
		goto out;
	printf("info: sum %d\n", *(volatile char *)p);	/* a read fault */

	/* the device reads the mapping */
	t_equ("odirect-write-from-mapping", MiB, pwrite(nb->fd, p + at, MiB, 0));
	t_devpass(nb, "odirect-device-has-file-bytes", 0, MiB, 0x3111, at);

	/* the device writes into the mapping */
	if (t_devfill(nb, MiB, MiB, 0x3112, at2))
		die("write the null_blk device");
	t_equ("odirect-read-into-mapping", MiB, pread(nb->fd, p + at2, MiB, MiB));
	bad = check(p + at2, 0x3112, at2, MiB);
	t_true("odirect-mapping-has-device-bytes", bad < 0,
	       "the mapping shows other bytes than the O_DIRECT read put there");
	if (pread(fd, buf, MiB, at2) != MiB)
		t_fail("odirect-file-has-device-bytes", "pread: %s",
		       t_errname(errno));
	else
		t_true("odirect-file-has-device-bytes",
		       check(buf, 0x3112, at2, MiB) < 0,
		       "read(2) of the file shows other bytes than the O_DIRECT read into its mapping put there");
	/* the GiB the device wrote into is dirty: written back here */
	printf("info: fsync\n");
	t_ok("odirect-fsync", fsync(fd));
	munmap(p, GiB);
out:
	close(fd);
	rmfile("odirect");
}

static long io_setup(unsigned int nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long io_submit(aio_context_t ctx, long nr, struct iocb **iocbs)
{
	return syscall(SYS_io_submit, ctx, nr, iocbs);
}

static long io_getevents(aio_context_t ctx, long min, long nr,
			 struct io_event *ev, struct timespec *t)
{
	return syscall(SYS_io_getevents, ctx, min, nr, ev, t);
}

static long io_destroy(aio_context_t ctx)
{
	return syscall(SYS_io_destroy, ctx);
}

/* The asynchronous O_DIRECT write still in flight? */
static int in_flight(aio_context_t ctx, struct io_event *ev)
{
	struct timespec zero = { 0, 0 };

	return io_getevents(ctx, 0, 1, ev, &zero) == 0;
}

static void test_odunlink(void)
{
	const unsigned long long at = 64 * MiB + 4096, len = 64 * 1024;
	struct t_dev *nb = nullb("odunlink-nullb");
	int fd = nb ? mk1("odunlink", GiB, GiB, GiB) : -1, fd2, err, i;
	static char buf[64 * 1024];
	aio_context_t ctx = 0;
	struct io_event ev;
	struct iocb cb, *cbs[1] = { &cb };
	char *p;

	if (fd < 0)
		return;
	fill(buf, 0x3113, at, len);
	t_equ("odunlink-pwrite", len, pwrite(fd, buf, len, at));
	p = map_at0("odunlink-mmap", fd, GiB, MAP_SHARED);
	if (!p) {
		close(fd);
		rmfile("odunlink");
		return;
	}
	printf("info: sum %d\n", *(volatile char *)p);	/* a read fault */
	if (io_setup(1, &ctx))
		die("io_setup");
	memset(&cb, 0, sizeof(cb));
	cb.aio_lio_opcode = IOCB_CMD_PWRITE;
	cb.aio_fildes = nb->fd;
	cb.aio_buf = (uintptr_t)(p + at);
	cb.aio_nbytes = len;
	cb.aio_offset = 2 * MiB;
	if (io_submit(ctx, 1, cbs) != 1)
		die("io_submit");
	munmap(p, GiB);
	close(fd);
	rmfile("odunlink");

	/* Evicted, its page in the write in flight. */
	t_true("odunlink-in-flight-at-unlink", in_flight(ctx, &ev),
	       "the write completed before the file was gone (null_blk not delayed?): nothing tested");
	fd2 = mkfile(mpt, "odunlink2");
	err = map1(fd2, GiB, GiB, GiB) ? errno : 0;
	t_errno("odunlink-memory-not-reused", err ? -1 : 0, EADDRINUSE);
	t_true("odunlink-in-flight-after-check", in_flight(ctx, &ev),
	       "the write completed before MAP_CREATE was refused: nothing tested");
	if (io_getevents(ctx, 1, 1, &ev, NULL) != 1)
		die("io_getevents");
	t_equ("odunlink-write-done", len, ev.res);
	t_devpass(nb, "odunlink-device-has-file-bytes", 2 * MiB, len, 0x3113,
		  at);
	/* the page reference goes just after the completion is posted */
	for (i = 0; err && i < 100; i++) {
		err = map1(fd2, GiB, GiB, GiB) ? errno : 0;
		if (err)
			usleep(10000);
	}
	errno = err;
	t_ok("odunlink-memory-free-after-write", err ? -1 : 0);
	io_destroy(ctx);
	close(fd2);
	rmfile("odunlink2");
}

static void test_unlinkmapped(void)
{
	const unsigned long long at = 7 * MiB + 64;
	int fd = mk1("unlinkmapped", GiB, GiB, GiB), fd2, err;
	volatile uint64_t *w;
	char *p;

	if (fd < 0)
		return;
	p = map_at0("unlinkmapped-mmap", fd, GiB, MAP_SHARED);
	if (!p) {
		close(fd);
		rmfile("unlinkmapped");
		return;
	}
	w = (volatile uint64_t *)(p + at);
	*w = 0x3121;	/* a write fault */
	close(fd);
	rmfile("unlinkmapped");

	/* The mapping keeps the file: it reads and writes it. */
	t_equ("unlinkmapped-reads", 0x3121, *w);
	w[1] = 0x3122;
	fd2 = mkfile(mpt, "unlinkmapped2");
	err = map1(fd2, GiB, GiB, GiB) ? errno : 0;
	t_errno("unlinkmapped-memory-not-reused", err ? -1 : 0, EADDRINUSE);
	printf("info: msync\n");
	t_ok("unlinkmapped-msync", msync(p, GiB, MS_SYNC));
	dev_has("unlinkmapped-dev", GiB + at, 0x3121);
	dev_has("unlinkmapped-dev-after-unlink", GiB + at + 8, 0x3122);
	munmap(p, GiB);
	/* the last mapping gone: the file is evicted, its memory free */
	if (err)
		t_ok("unlinkmapped-memory-free-after-munmap",
		     map1(fd2, GiB, GiB, GiB));
	close(fd2);
	rmfile("unlinkmapped2");
}

/*
 * pinrm: see the header.  The file stays (the mount is gone by the end);
 * the device may go away under us: hold the file only.
 */
static void test_pinrm(void)
{
	const unsigned long long at = 9 * MiB + 8192;
	const char *dir = getenv("PUD_HOLD"), *mem = getenv("PUD_MEMBER");
	static char buf[4096];
	int pipefd[2], fd;
	struct iovec iov;
	char path[512];
	char *p;

	if (!dir) {
		t_fail("pinrm", "PUD_HOLD (the directory to signal in) is not set");
		return;
	}
	if (dev.fd >= 0)
		close(dev.fd);
	dev.fd = -1;
	fd = mk1_on("pinrm", mem ? (unsigned int)atoi(mem) : 0, GiB, 3 * GiB,
		    GiB);
	if (fd < 0)
		return;
	p = map_at0("pinrm-mmap", fd, GiB, MAP_SHARED);
	if (!p)
		return;
	fill(p + at, 0x3131, at, 4096);		/* a write fault */
	if (pipe(pipefd))
		die("pipe");
	iov.iov_base = p + at;
	iov.iov_len = 4096;
	if (vmsplice(pipefd[1], &iov, 1, 0) != 4096)
		die("vmsplice");
	close(fd);
	snprintf(path, sizeof(path), "%s/ready", dir);
	t_post(path);
	snprintf(path, sizeof(path), "%s/go", dir);
	while (access(path, F_OK))
		usleep(10000);
	if (read(pipefd[0], buf, sizeof(buf)) != sizeof(buf))
		t_fail("pinrm-pipe-read", "%s", t_errname(errno));
	else
		t_true("pinrm-pipe-bytes", check(buf, 0x3131, at, 4096) < 0,
		       "the pipe shows other bytes than the pinned page had");
	close(pipefd[0]);
	close(pipefd[1]);
	t_true("pinrm-sigbus-after", t_sigbus_at(p + at),
	       "the 1 GiB mapping still reads after the device went away");
}

static void test_sync(void)
{
	const unsigned long long at = 11 * MiB + 128;
	int fd = mk1("sync", GiB, GiB, GiB);
	volatile uint64_t *w;
	char *p;

	if (fd < 0)
		return;
	p = map_at0("sync-mmap", fd, GiB, MAP_SHARED_VALIDATE | MAP_SYNC);
	if (!p)
		goto out;
	t_pass("sync-mmap");
	t_true("sync-mmap-1g-aligned", ((uintptr_t)p & (GiB - 1)) == 0,
	       "mmap(MAP_SYNC) of a 1 GiB file did not return a 1 GiB-aligned address");
	w = (volatile uint64_t *)(p + at);
	*w = 0x3141;	/* a write fault, MAP_SYNC */
	/* no metadata to sync: the store is in the memory already */
	dev_has("sync-dev-without-msync", GiB + at, 0x3141);
	printf("info: msync\n");
	t_ok("sync-msync", msync(p, GiB, MS_SYNC));
	*w = 0x3142;	/* written back and unmapped: faults again */
	dev_has("sync-dev-again", GiB + at, 0x3142);
	munmap(p, GiB);
out:
	close(fd);
	rmfile("sync");
}

static void test_nc(void)
{
	const unsigned long long at = 13 * MiB + 256;
	int fd = mk1("nc", GiB, GiB, GiB);
	volatile uint64_t *w;
	char *p;

	if (fd < 0)
		return;
	p = map_at0("nc-mmap", fd, GiB, MAP_SHARED);
	if (!p)
		goto out;
	w = (volatile uint64_t *)(p + at);
	*w = 0x3151;	/* a write fault */
	printf("info: msync of a page\n");
	t_ok("nc-msync-page", msync(p + (at & ~4095ULL), 4096, MS_SYNC));
	w[1] = 0x3152;	/* still mapped writable: no fault */
	printf("info: fsync\n");
	t_ok("nc-fsync", fsync(fd));
	dev_has("nc-dev", GiB + at, 0x3151);
	dev_has("nc-dev-second", GiB + at + 8, 0x3152);
	*w = 0x3153;	/* written back and unmapped: faults again */
	printf("info: msync\n");
	t_ok("nc-msync", msync(p, GiB, MS_SYNC));
	dev_has("nc-dev-third", GiB + at, 0x3153);
	munmap(p, GiB);
out:
	close(fd);
	rmfile("nc");
}

static void test_poisonstripe(void)
{
	static const unsigned long long offs[] = { 2 * GiB, 4 * GiB };
	const unsigned long long at = GiB + 7 * MiB + 4096;
	struct famfs_ioc_iext ie = iext_mk(2, GiB, 2 * GiB, GiB, offs);
	int fd, go[2], ready[2], status;
	volatile char *p;
	pid_t pid;
	char c;

	if (!t_hwpoison_available("poisonstripe"))
		return;
	fd = mkfile(mpt, "poisonstripe");
	if (!t_ok("poisonstripe-map", mapv2(fd, FAMFS_INTERLEAVED_EXTENT,
					    FAMFS_REG, 2 * GiB, 1, &ie)))
		return;
	if (pipe(go) || pipe(ready))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		/* chunk 0 only: no SIGBUS (the default action would kill) */
		volatile char *q = mmap(NULL, GiB, PROT_READ, MAP_SHARED, fd, 0);

		if (q == MAP_FAILED)
			_exit(3);
		c = q[7 * MiB + 4096];
		close(go[1]);
		if (write(ready[1], &c, 1) != 1)
			_exit(4);
		while (read(go[0], &c, 1) > 0)
			;
		_exit(0);
	}
	close(go[0]);
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1)
		t_fail("poisonstripe-other-ready", "the other process did not map chunk 0");
	p = mmap(NULL, 2 * GiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("poisonstripe-mmap", "mmap: %s", t_errname(errno));
	} else {
		printf("info: sum %d\n", p[0]);	/* chunk 0: a PUD fault */
		p[at] = 1;			/* chunk 1: a PUD fault */
		if (t_hwpoison("poisonstripe-inject", (void *)(p + at))) {
			t_true("poisonstripe-sigbus", t_sigbus_hit,
			       "no SIGBUS for a memory failure in a page of chunk 1 this process maps");
			if (!t_true("poisonstripe-sigbus-addr",
				    (char *)t_sigbus_addr == (char *)p + at,
				    "SIGBUS names another address than the poisoned page's"))
				printf("info: SIGBUS at %p, poisoned page at %p\n",
				       t_sigbus_addr, (void *)(p + at));
			if (t_sigbus_hit)
				t_equ("poisonstripe-sigbus-lsb", 30, t_sigbus_lsb);
		}
	}
	close(go[1]);
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	if (!t_true("poisonstripe-chunk0-mapper-not-killed",
		    WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "the process that maps chunk 0 only was killed or failed"))
		printf("info: other process status %#x\n", status);
	close(fd);
}

/*
 * mremap: a PUD-mapped GiB moved to another 1 GiB-aligned address: the new
 * address shows the file (and takes its stores, which msync writes back),
 * the old one is gone (SIGSEGV).  6.1's move_page_tables() must not meet
 * the 1 GiB entry: get_old_pud() takes it for a bad table ("bad pud") and
 * clears it without a TLB flush, and the old address kept reading the
 * memory; the suite checks the kernel log.  mremapmerge: the same, moved
 * right after a mapping of the GiB before it in the file (a VMA the moved
 * one could merge with, which copy_vma() then does without a word to the
 * file system).
 */
static sigjmp_buf segv_jb;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(segv_jb, 1);
}

/* 1 if reading *@p raises SIGSEGV. */
static int segv_at(volatile char *p)
{
	struct sigaction sa, old;
	volatile int hit = 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, &old);
	if (sigsetjmp(segv_jb, 1) == 0)
		(void)*p;
	else
		hit = 1;
	sigaction(SIGSEGV, &old, NULL);
	return hit;
}

/* GiB 1 of a 2 GiB file (device 1G) mapped and written, then moved to a
 * 1 GiB-aligned address, after a mapping of GiB 0 if @merge. */
static void mremap_case(const char *name, int merge)
{
	const unsigned long long at = 15 * MiB + 512;
	int fd = mk1(name, 2 * GiB, GiB, 2 * GiB);
	char id[64], *p, *r, *dst, *q = MAP_FAILED;

	if (fd < 0)
		return;
	r = mmap(NULL, 4 * GiB, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		die("mmap the reservation");
	dst = (char *)(((uintptr_t)r + GiB - 1) & ~(uintptr_t)(GiB - 1));
	if (merge && mmap(dst, GiB, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED)
		die("mmap GiB 0");
	p = mmap(NULL, GiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, GiB);
	snprintf(id, sizeof(id), "%s-mmap", name);
	if (p == MAP_FAILED) {
		t_fail(id, "mmap: %s", t_errname(errno));
		goto out;
	}
	*(volatile uint64_t *)(p + at) = 0x3161;	/* a write fault */
	q = mremap(p, GiB, GiB, MREMAP_MAYMOVE | MREMAP_FIXED, dst + GiB);
	snprintf(id, sizeof(id), "%s-move", name);
	if (q == MAP_FAILED) {
		t_fail(id, "mremap: %s", t_errname(errno));
		goto out;
	}
	t_pass(id);
	snprintf(id, sizeof(id), "%s-new-address-reads", name);
	t_equ(id, 0x3161, *(volatile uint64_t *)(q + at));
	snprintf(id, sizeof(id), "%s-old-address-gone", name);
	t_true(id, segv_at(p + at),
	       "the old address of a moved 1 GiB mapping still reads the file (a stale TLB entry)");
	*(volatile uint64_t *)(q + at + 8) = 0x3162;
	snprintf(id, sizeof(id), "%s-msync", name);
	t_ok(id, msync(q, GiB, MS_SYNC));
	snprintf(id, sizeof(id), "%s-dev", name);
	dev_has(id, 2 * GiB + at + 8, 0x3162);
out:
	munmap(r, 4 * GiB);
	close(fd);
	rmfile(name);
}

static void test_mremap(void)
{
	mremap_case("mremap", 0);
}

static void test_mremapmerge(void)
{
	mremap_case("mremapmerge", 1);
}

static const struct t_test tests[] = {
	{ "odirect", test_odirect, 1 },
	{ "odunlink", test_odunlink, 1 },
	{ "unlinkmapped", test_unlinkmapped, 1 },
	{ "pinrm", test_pinrm, 1 },
	{ "sync", test_sync, 1 },
	{ "nc", test_nc, 1 },
	{ "poisonstripe", test_poisonstripe, 1 },
	{ "mremap", test_mremap, 1 },
	{ "mremapmerge", test_mremapmerge, 1 },
};

int main(int argc, char **argv)
{
	return pud_main("module_pud2", tests, sizeof(tests) / sizeof(tests[0]),
			argc, argv);
}
