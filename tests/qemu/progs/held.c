// SPDX-License-Identifier: GPL-2.0
/*
 * held: FAMFSIOC_HELD, whether memory of the mount is still referenced on
 * this host, for suites/held.sh.
 *
 *   held errors MPT
 *	every refusal with its errno (EPERM is "held eperm", as a user
 *	without CAP_SYS_ADMIN): E2BIG, EINVAL (header flags, range flags, bad
 *	device, misaligned, length 0, overflow), EFAULT (header, ranges,
 *	answers unwritable); count 0 is 0; a range no file has memory in is
 *	held 0.
 *   held eperm MPT
 *	EPERM, on the mount root and on a file (run as a user).
 *   held live MPT OFF [OTHERDEV]
 *	a 2 MiB file at OFF: held whole (LIVE) while it has a name, while it
 *	is mapped after unlink and close, while it is open after unlink; 0
 *	once the last mapping or descriptor is gone; half a range, the range
 *	next to it (0) and the same offset on device OTHERDEV (0) in one call.
 *   held pipe MPT OFF0 OFF1
 *	a file of two 2 MiB extents at OFF0 and OFF1, its page at 2 MiB + 8K
 *	(extent 1) vmsplice'd into a pipe, mapping, descriptor and name
 *	dropped: extent 1 held (ZOMBIE, not LIVE), extent 0 not; the pipe
 *	drained and closed: 0.
 *   held loop MPT SECS DEVS...
 *	HELD on the mount root for SECS seconds over random ranges of the
 *	devices DEVS (indexes): every answer sane (held <= len, flags known,
 *	held 0 iff flags 0).  Its descriptor keeps the mount alive through a
 *	lazy unmount.
 *   held churn MPT OFF SECS
 *	for SECS seconds: a 2 MiB file at OFF made, mapped, written, now and
 *	then a page put in a pipe, unlinked, unmapped, closed (the pipe
 *	closed one round later): evictions and zombies for "loop" to race.
 *
 * OFF is a byte offset on the primary, or INDEX:OFF on member INDEX, with
 * a K, M or G suffix (e.g. 1:420M).
 */
#include "module_test.h"
#include <stdbool.h>
#include <sys/uio.h>
#include <time.h>

#define PAGE		4096ULL
#define AT		8192	/* the page put in the pipe, in extent 1 */

/* FAMFSIOC_HELD of @n ranges on @fd: the ioctl's result. */
static int held(int fd, struct famfs_ioc_held_range *r, unsigned int n)
{
	struct famfs_ioc_held h = { .count = n, .ranges = (uintptr_t)r };

	return ioctl(fd, FAMFSIOC_HELD, &h);
}

static struct famfs_ioc_held_range rng(unsigned int dev,
				       unsigned long long off,
				       unsigned long long len)
{
	struct famfs_ioc_held_range r;

	memset(&r, 0, sizeof(r));
	r.dev = dev;
	r.offset = off;
	r.len = len;
	r.held = 0xdeadbeef;	/* an output: must be overwritten */
	return r;
}

/* PASS @name iff range @l (2 MiB from @l.off + @skip) is held @want bytes
 * with flags @flags. */
static void expect(const char *name, int fd, struct t_loc l,
		   unsigned long long skip, unsigned long long len,
		   unsigned long long want, unsigned int flags)
{
	struct famfs_ioc_held_range r = rng(l.dev, l.off + skip, len);

	if (held(fd, &r, 1)) {
		t_fail(name, "HELD failed with %s", t_errname(errno));
		return;
	}
	if (r.held != want || r.flags != flags)
		t_fail(name, "held %llu flags %#x, expected %llu flags %#x",
		       (unsigned long long)r.held, r.flags, want, flags);
	else
		t_pass(name);
}

static int open_root(const char *mpt)
{
	int fd = open(mpt, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		die(mpt);
	return fd;
}

static void path_of(char *buf, size_t n, const char *mpt, const char *name)
{
	snprintf(buf, n, "%s/%s", mpt, name);
}

static int do_errors(const char *mpt)
{
	static struct famfs_ioc_held_range big[FAMFS_HELD_MAX + 1];
	struct famfs_ioc_held_range r;
	struct famfs_ioc_held h;
	int root = open_root(mpt);
	void *ro;
	unsigned int i;

	t_ok("count-0", held(root, NULL, 0));
	memset(&h, 0, sizeof(h));
	h.count = 1;
	h.flags = 1;
	r = rng(0, 0, PAGE);
	h.ranges = (uintptr_t)&r;
	t_errno("header-flags", ioctl(root, FAMFSIOC_HELD, &h), EINVAL);
	h.flags = 0x80000000u;
	t_errno("header-flags-high", ioctl(root, FAMFSIOC_HELD, &h), EINVAL);
	t_errno("header-efault", ioctl(root, FAMFSIOC_HELD, (void *)8), EFAULT);

	for (i = 0; i <= FAMFS_HELD_MAX; i++)
		big[i] = rng(0, 1023 * MiB, PAGE);
	t_errno("e2big", held(root, big, FAMFS_HELD_MAX + 1), E2BIG);
	t_errno("e2big-huge", held(root, big, ~0u), E2BIG);
	t_ok("max-count", held(root, big, FAMFS_HELD_MAX));
	t_equ("max-count-answered", 0, big[FAMFS_HELD_MAX - 1].held);

	t_errno("ranges-efault", held(root, (void *)8, 1), EFAULT);
	/* the second range is past a PROT_NONE page */
	ro = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED)
		die("mmap");
	memset(ro, 0, PAGE);
	mprotect((char *)ro + PAGE, PAGE, PROT_NONE);
	t_errno("ranges-straddle-efault",
		held(root, (void *)((char *)ro + PAGE - sizeof(r)), 2), EFAULT);

	r = rng(0, 0, PAGE);
	r.flags = FAMFS_HELD_LIVE;
	t_errno("range-flags", held(root, &r, 1), EINVAL);
	r = rng(FAMFS_MAX_DEVS, 0, PAGE);
	t_errno("dev-max", held(root, &r, 1), EINVAL);
	r = rng(~0u, 0, PAGE);
	t_errno("dev-huge", held(root, &r, 1), EINVAL);
	r = rng(FAMFS_MAX_DEVS - 1, 0, PAGE);
	t_errno("dev-unattached", held(root, &r, 1), EINVAL);
	r = rng(0, 100, PAGE);
	t_errno("offset-misaligned", held(root, &r, 1), EINVAL);
	r = rng(0, 0, 100);
	t_errno("len-misaligned", held(root, &r, 1), EINVAL);
	r = rng(0, 0, 0);
	t_errno("len-0", held(root, &r, 1), EINVAL);
	r = rng(0, ~0ULL - PAGE + 1, 2 * PAGE);
	t_errno("overflow", held(root, &r, 1), EINVAL);
	/* offset + len is 2^64: that overflows too */
	r = rng(0, ~0ULL - PAGE + 1, PAGE);
	t_errno("overflow-2-64", held(root, &r, 1), EINVAL);
	r = rng(0, ~0ULL - 2 * PAGE + 1, PAGE);
	t_ok("end-of-u64", held(root, &r, 1));
	t_equ("end-of-u64-held-0", 0, r.held);
	/* a bad second range refuses the whole call, writes nothing */
	big[0] = rng(0, 0, PAGE);
	big[1] = rng(0, 1, PAGE);
	t_errno("second-range-bad", held(root, big, 2), EINVAL);
	t_equ("second-range-bad-wrote-nothing", 0xdeadbeef, big[0].held);

	/* answers that cannot be written: a read-only page */
	memcpy(ro, &(struct famfs_ioc_held_range){ .len = PAGE }, sizeof(r));
	mprotect(ro, PAGE, PROT_READ);
	t_errno("answer-efault", held(root, ro, 1), EFAULT);

	/* nothing of any file in the last page of the first GiB */
	r = rng(0, 1023 * MiB, MiB);
	t_ok("unrelated", held(root, &r, 1));
	t_equ("unrelated-held-0", 0, r.held);
	t_equ("unrelated-flags-0", 0, r.flags);
	close(root);
	return t_failed;
}

static int do_eperm(const char *mpt)
{
	struct famfs_ioc_held_range r = rng(0, 0, PAGE);
	int root = open_root(mpt);

	t_errno("eperm-root", held(root, &r, 1), EPERM);
	/* EPERM comes before every other check */
	t_errno("eperm-before-efault", ioctl(root, FAMFSIOC_HELD, (void *)8),
		EPERM);
	close(root);
	return t_failed;
}

static int do_live(const char *mpt, struct t_loc l, int otherdev)
{
	struct famfs_ioc_held_range r[4];
	char path[512];
	int root = open_root(mpt), fd;
	char *p;

	fd = mkfile(mpt, "live");
	if (t_map_locs(fd, &l, 1))
		die("MAP_CREATE live");
	expect("named", root, l, 0, TWO_MiB, TWO_MiB, FAMFS_HELD_LIVE);
	expect("named-on-file", fd, l, 0, TWO_MiB, TWO_MiB, FAMFS_HELD_LIVE);

	r[0] = rng(l.dev, l.off + MiB, TWO_MiB);	/* half of it */
	r[1] = rng(l.dev, l.off + TWO_MiB, TWO_MiB);	/* the next 2 MiB */
	r[2] = rng(l.dev, l.off - TWO_MiB, TWO_MiB);	/* the 2 MiB before */
	r[3] = rng(otherdev >= 0 ? (unsigned int)otherdev : l.dev,
		   otherdev >= 0 ? l.off : l.off + 64 * MiB, TWO_MiB);
	if (t_ok("four-ranges", held(root, r, 4))) {
		t_equ("half-held", MiB, r[0].held);
		t_equ("half-flags", FAMFS_HELD_LIVE, r[0].flags);
		t_equ("next-0", 0, r[1].held + r[1].flags);
		t_equ("before-0", 0, r[2].held + r[2].flags);
		t_equ("other-0", 0, r[3].held + r[3].flags);
	}

	p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	fill(p, 5, 0, TWO_MiB);
	path_of(path, sizeof(path), mpt, "live");
	if (unlink(path))
		die(path);
	close(fd);
	expect("mapped-after-unlink", root, l, 0, TWO_MiB, TWO_MiB,
	       FAMFS_HELD_LIVE);
	if (munmap(p, TWO_MiB))
		die("munmap");
	expect("released-after-munmap", root, l, 0, TWO_MiB, 0, 0);

	/* open after unlink, no mapping */
	fd = mkfile(mpt, "open");
	if (t_map_locs(fd, &l, 1))
		die("MAP_CREATE open");
	path_of(path, sizeof(path), mpt, "open");
	if (unlink(path))
		die(path);
	expect("open-after-unlink", root, l, 0, TWO_MiB, TWO_MiB,
	       FAMFS_HELD_LIVE);
	close(fd);
	expect("released-after-close", root, l, 0, TWO_MiB, 0, 0);
	close(root);
	return t_failed;
}

static int do_pipe(const char *mpt, struct t_loc l0, struct t_loc l1)
{
	struct t_loc l[2] = { l0, l1 };
	char path[512], buf[PAGE];
	int root = open_root(mpt), fd, pfd[2];
	char *p;

	fd = mkfile(mpt, "pipe");
	if (t_map_locs(fd, l, 2))
		die("MAP_CREATE pipe");
	p = t_pin(fd, 0, 2 * TWO_MiB, 9, 0, TWO_MiB + AT, pfd);
	if (munmap(p, 2 * TWO_MiB))
		die("munmap");
	close(fd);
	expect("pinned-named", root, l1, 0, TWO_MiB, TWO_MiB, FAMFS_HELD_LIVE);
	path_of(path, sizeof(path), mpt, "pipe");
	if (unlink(path))
		die(path);
	/* evicted now: the extent with the pinned page is a zombie */
	expect("zombie-extent", root, l1, 0, TWO_MiB, TWO_MiB,
	       FAMFS_HELD_ZOMBIE);
	expect("zombie-page", root, l1, AT, PAGE, PAGE, FAMFS_HELD_ZOMBIE);
	expect("unpinned-extent-free", root, l0, 0, TWO_MiB, 0, 0);
	if (read(pfd[0], buf, PAGE) != (ssize_t)PAGE)
		die("read pipe");
	t_true("pipe-bytes", check(buf, 9, TWO_MiB + AT, PAGE) < 0,
	       "the pipe shows other bytes");
	close(pfd[0]);
	close(pfd[1]);
	expect("released-after-pipe", root, l1, 0, TWO_MiB, 0, 0);
	close(root);
	return t_failed;
}

static int do_loop(const char *mpt, int secs, char **devs, int ndevs)
{
	struct famfs_ioc_held_range r[16];
	time_t end = time(NULL) + secs;
	long calls = 0, nheld = 0;
	int root = open_root(mpt), i, bad = 0;

	srand(getpid());
	while (time(NULL) < end && !bad) {
		for (i = 0; i < 16; i++) {
			unsigned int dev = strtoul(devs[rand() % ndevs],
						   NULL, 10);
			unsigned long long off = (rand() % 1024) * TWO_MiB;

			r[i] = rng(dev, off, (1 + rand() % 512) * PAGE * 4);
		}
		if (held(root, r, 16)) {
			t_fail("loop", "HELD failed with %s after %ld calls",
			       t_errname(errno), calls);
			bad = 1;
			break;
		}
		calls++;
		for (i = 0; i < 16; i++) {
			if (r[i].held > r[i].len ||
			    (r[i].flags & ~(FAMFS_HELD_LIVE | FAMFS_HELD_ZOMBIE)) ||
			    !r[i].held != !r[i].flags) {
				t_fail("loop", "range %u:%llu+%llu: held %llu flags %#x",
				       r[i].dev, (unsigned long long)r[i].offset,
				       (unsigned long long)r[i].len,
				       (unsigned long long)r[i].held, r[i].flags);
				bad = 1;
			}
			nheld += !!r[i].held;
		}
	}
	printf("info: loop: %ld calls, %ld ranges held\n", calls, nheld);
	if (!bad)
		t_pass("loop");
	/*
	 * root is left to the exit: after a lazy unmount its close may be the
	 * mount's last reference, and a close() would wait in the unmount
	 * for pages still in a pipe (pins.c), an exit does not.
	 */
	return t_failed;
}

static int do_churn(const char *mpt, struct t_loc l, int secs)
{
	time_t end = time(NULL) + secs;
	int oldpipe[2] = { -1, -1 };
	long rounds = 0, pins = 0, busy = 0;
	const char *path = "churn";

	/* relative to the mount's root: it goes on through a lazy unmount */
	if (chdir(mpt))
		die(mpt);
	mpt = ".";
	while (time(NULL) < end) {
		int fd = mkfile(mpt, "churn"), pfd[2] = { -1, -1 };
		char *p;

		if (t_map_locs(fd, &l, 1)) {
			/* last round's pinned page: its pipe closes below */
			if (errno != EADDRINUSE)
				die("MAP_CREATE churn");
			busy++;
			goto drop;
		}
		p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED,
			 fd, 0);
		if (p == MAP_FAILED)
			die("mmap");
		p[rounds % TWO_MiB] = 1;
		if (rounds % 3 == 0) {
			struct iovec iov = { p + AT, PAGE };

			if (pipe(pfd) || vmsplice(pfd[1], &iov, 1, 0) != (ssize_t)PAGE)
				die("vmsplice");
			pins++;
		}
		if (rounds & 1) {
			munmap(p, TWO_MiB);
			unlink(path);
		} else {
			unlink(path);
			munmap(p, TWO_MiB);
		}
drop:
		unlink(path);
		close(fd);
		if (oldpipe[0] >= 0) {
			close(oldpipe[0]);
			close(oldpipe[1]);
		}
		oldpipe[0] = pfd[0];
		oldpipe[1] = pfd[1];
		rounds++;
	}
	if (oldpipe[0] >= 0) {
		close(oldpipe[0]);
		close(oldpipe[1]);
	}
	printf("info: churn: %ld rounds, %ld pins, %ld EADDRINUSE\n", rounds,
	       pins, busy);
	t_true("churn", rounds > busy, "no round mapped its file");
	return t_failed;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "errors"))
		return t_done(do_errors(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "eperm"))
		return t_done(do_eperm(argv[2]));
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "live"))
		return t_done(do_live(argv[2], t_at(argv[3]),
				      argc == 5 ? atoi(argv[4]) : -1));
	if (argc == 5 && !strcmp(argv[1], "pipe"))
		return t_done(do_pipe(argv[2], t_at(argv[3]), t_at(argv[4])));
	if (argc >= 5 && !strcmp(argv[1], "loop"))
		return t_done(do_loop(argv[2], atoi(argv[3]), argv + 4,
				      argc - 4));
	if (argc == 5 && !strcmp(argv[1], "churn"))
		return t_done(do_churn(argv[2], t_at(argv[3]), atoi(argv[4])));
	fprintf(stderr, "usage: held errors MPT | eperm MPT | live MPT OFF [OTHERDEV] |\n"
		"       pipe MPT OFF0 OFF1 | loop MPT SECS DEV... | churn MPT OFF SECS\n"
		"       (OFF: [INDEX:]BYTES[KMG])\n");
	return 2;
}
