// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_pins: a famfs page kept referenced (vmsplice'd into a pipe) after
 * its mapping, its file or its whole mount is gone, for
 * suites/hostile_pins.sh.  The page must not be handed to another file, and
 * the device under it must not go away, until the pipe lets go of it.
 *
 *   hostile_pins unlink MPT OFF
 *	on a bare kernel mount: file "a" at device OFF (2 MiB) filled with
 *	seed 11 through a mapping; its page at 8K vmsplice'd into a pipe; the
 *	mapping, the file descriptor and the name dropped (the inode is
 *	evicted).  Then: "b" must not get a's memory while the pipe holds the
 *	page (EADDRINUSE); the pipe must still read a's bytes; once the pipe
 *	is drained and closed, "b" gets the memory.
 *   hostile_pins hold MPT NAME OFF DIR
 *	file NAME at device OFF (2 MiB, seed 33), its page at 8K in a pipe,
 *	mapping and descriptor dropped (the file stays); creates DIR/ready,
 *	waits for DIR/go, then checks that the pipe reads NAME's bytes.
 *	Prints "info: pinned pfn N" (the page's frame) first.
 *   hostile_pins holdexit MPT NAME OFF DIR
 *	the same, from MPT as working directory (keeping a lazily unmounted
 *	mount alive), but on DIR/go it exits with the page still in the
 *	pipe: the exit drops the mount before the pipe.
 *   hostile_pins holddev DEV DIR
 *	the same through a MAP_SHARED mapping of /dev/daxX.Y (bound to famfs)
 *	at device offset 64M, written with seed 55.
 *   hostile_pins fill MPT NAME OFF
 *	file NAME at device OFF (2 MiB) written with seed 44: what a later
 *	file would put in memory that a pipe still shows.
 */
#include "module_test.h"
#include <stdbool.h>
#include <sys/uio.h>

#define PAGE		4096
#define AT		8192	/* the page of the file put in the pipe */

/* "info: pinned pfn N" for the page mapped at @addr (from pagemap). */
static void print_pfn(const void *addr)
{
	uint64_t ent = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd < 0 || pread(fd, &ent, 8, (uintptr_t)addr / PAGE * 8) != 8)
		die("/proc/self/pagemap");
	close(fd);
	if ((ent >> 63) & 1)
		printf("info: pinned pfn %llu\n",
		       (unsigned long long)(ent & ((1ULL << 55) - 1)));
	fflush(stdout);
}

/* Maps 2 MiB of @fd at 0, writes @seed's pattern, vmsplices the page at AT. */
static void pin_page(int fd, uint64_t seed, int pipefd[2], off_t dev_base)
{
	struct iovec iov;
	char *p;

	p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	fill(p, seed, dev_base, TWO_MiB);
	if (pipe(pipefd))
		die("pipe");
	iov.iov_base = p + AT;
	iov.iov_len = PAGE;
	if (vmsplice(pipefd[1], &iov, 1, 0) != PAGE)
		die("vmsplice");
	print_pfn(p + AT);
	if (munmap(p, TWO_MiB))
		die("munmap");
}

/* Reads the page from the pipe: PASS @name iff it holds @seed's bytes. */
static void check_pipe(const char *name, int pipefd[2], uint64_t seed,
		       off_t dev_base)
{
	static char buf[PAGE];
	long long bad;

	if (read(pipefd[0], buf, PAGE) != PAGE) {
		t_fail(name, "read from the pipe: %s", t_errname(errno));
		return;
	}
	bad = check(buf, seed, dev_base + AT, PAGE);
	if (bad < 0)
		t_pass(name);
	else
		t_fail(name, "the pipe shows other bytes than the pinned page had (first at device byte %lld)",
		       bad);
	close(pipefd[0]);
	close(pipefd[1]);
}

static int newfile(const char *mpt, const char *name, unsigned long long off,
		   int *err)
{
	int fd = mkfile(mpt, name);

	*err = 0;
	if (map1(fd, TWO_MiB, off, TWO_MiB))
		*err = errno;
	return fd;
}

static int do_unlink(const char *mpt, unsigned long long off)
{
	static char buf[TWO_MiB];
	int pipefd[2], a, b, err;
	char path[512];

	a = newfile(mpt, "a", off, &err);
	if (err)
		die("MAP_CREATE a");
	pin_page(a, 11, pipefd, 0);
	close(a);
	snprintf(path, sizeof(path), "%s/a", mpt);
	if (unlink(path))
		die(path);

	/* a is evicted now; its page is still in the pipe. */
	b = newfile(mpt, "b", off, &err);
	errno = err;
	t_errno("pinned-memory-not-reused", err ? -1 : 0, EADDRINUSE);
	if (!err) {
		/* What a new file does with memory it is given. */
		fill(buf, 44, 0, TWO_MiB);
		if (pwrite(b, buf, TWO_MiB, 0) != TWO_MiB)
			die("pwrite b");
	}
	check_pipe("pipe-keeps-unlinked-files-bytes", pipefd, 11, 0);
	if (err) {
		/* The pipe let go: the memory is free again. */
		t_ok("memory-free-after-pipe-drained", map1(b, TWO_MiB, off,
							     TWO_MiB));
	}
	close(b);
	return t_failed;
}

static int do_hold(const char *mpt, const char *name, unsigned long long off,
		   const char *dir, bool drain)
{
	char path[512];
	int pipefd[2], fd, err;

	if (!drain && chdir(mpt))
		die(mpt);
	fd = newfile(mpt, name, off, &err);
	if (err)
		die("MAP_CREATE");
	pin_page(fd, 33, pipefd, 0);
	close(fd);
	snprintf(path, sizeof(path), "%s/ready", dir);
	t_post(path);
	snprintf(path, sizeof(path), "%s/go", dir);
	while (access(path, F_OK))
		usleep(20000);
	if (drain)
		check_pipe("pipe-keeps-pinned-bytes", pipefd, 33, 0);
	return t_failed;
}

static int do_holddev(const char *dev, const char *dir)
{
	const off_t base = 64 * MiB;
	int pipefd[2], fd;
	struct iovec iov;
	char path[512];
	char *p;

	fd = open(dev, O_RDWR);
	if (fd < 0)
		die(dev);
	p = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, fd, base);
	if (p == MAP_FAILED)
		die("mmap");
	fill(p, 55, base, TWO_MiB);
	if (pipe(pipefd))
		die("pipe");
	iov.iov_base = p + AT;
	iov.iov_len = PAGE;
	if (vmsplice(pipefd[1], &iov, 1, 0) != PAGE)
		die("vmsplice");
	munmap(p, TWO_MiB);
	close(fd);
	snprintf(path, sizeof(path), "%s/ready", dir);
	t_post(path);
	snprintf(path, sizeof(path), "%s/go", dir);
	while (access(path, F_OK))
		usleep(20000);
	check_pipe("pipe-keeps-pinned-device-bytes", pipefd, 55, base);
	return t_failed;
}

static int do_fill(const char *mpt, const char *name, unsigned long long off)
{
	static char buf[TWO_MiB];
	int fd, err;

	fd = newfile(mpt, name, off, &err);
	if (err) {
		printf("info: MAP_CREATE %s at %llu: %s\n", name, off,
		       t_errname(err));
		return 1;
	}
	fill(buf, 44, 0, TWO_MiB);
	if (pwrite(fd, buf, TWO_MiB, 0) != TWO_MiB)
		die("pwrite");
	close(fd);
	return 0;
}

/* A byte count: digits with an optional K, M or G suffix. */
static unsigned long long num(const char *s)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);

	switch (*end) {
	case 'G':
		n <<= 10;
		/* fall through */
	case 'M':
		n <<= 10;
		/* fall through */
	case 'K':
		n <<= 10;
		end++;
		break;
	}
	if (end == s || *end) {
		printf("FAIL setup: bad size '%s'\n", s);
		exit(1);
	}
	return n;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "unlink"))
		return t_done(do_unlink(argv[2], num(argv[3])));
	if (argc == 6 && !strcmp(argv[1], "hold"))
		return t_done(do_hold(argv[2], argv[3], num(argv[4]),
				      argv[5], true));
	if (argc == 6 && !strcmp(argv[1], "holdexit"))
		return t_done(do_hold(argv[2], argv[3], num(argv[4]),
				      argv[5], false));
	if (argc == 4 && !strcmp(argv[1], "holddev"))
		return t_done(do_holddev(argv[2], argv[3]));
	if (argc == 5 && !strcmp(argv[1], "fill"))
		return t_done(do_fill(argv[2], argv[3], num(argv[4])));
	fprintf(stderr, "usage: hostile_pins unlink MPT OFF | hold MPT NAME OFF DIR |\n"
		"       holdexit MPT NAME OFF DIR | holddev DEV DIR | fill MPT NAME OFF\n");
	return 2;
}
