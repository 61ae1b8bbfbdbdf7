// SPDX-License-Identifier: GPL-2.0
/*
 * cache_test: one cache-maintenance step of famfs.ko per call, for
 * suites/noncoherent.sh, which counts what the famfs:famfs_cache tracepoint
 * says each step did (the expected byte counts are the suite's).
 *
 *   cache_test MPT setup DEVOFF     file MPT/nc (NC_SIZE bytes, one extent
 *                                   at DEVOFF) written with pattern SEED,
 *                                   and MPT/unmapped (no map)
 *   cache_test MPT attach DEVOFF    the same file, mapped only (a second host)
 *   cache_test MPT read LEN OFF     pread, bytes checked against the pattern
 *   cache_test MPT write LEN OFF    pwrite of the pattern
 *   cache_test MPT fsync|fdatasync
 *   cache_test MPT msync OFF LEN    a store through a shared mapping, then
 *                                   msync(MS_SYNC) of [OFF, OFF + LEN)
 *   cache_test MPT ioctl wb|inv|both OFF LEN   FAMFSIOC_CACHE
 *   cache_test MPT bad              every refusal of FAMFSIOC_CACHE
 *   cache_test MPT loop LEN N       N preads of LEN (for the bench)
 *   cache_test MPT kill ioctl|fsync DEVOFF LEN
 *                                   MPT/big (LEN bytes at DEVOFF, mapped
 *                                   on first use); a child invalidates all
 *                                   of it (FAMFSIOC_CACHE, or fsync) and is
 *                                   sent SIGKILL while in that call (seen in
 *                                   /proc/PID/stack before and after the
 *                                   kill; else again, up to 5 times): it
 *                                   must die by it;
 *                                   how far the call got is the suite's to
 *                                   read (famfs_cache tracepoint)
 *
 * Prints PASS/FAIL lines and "DONE cache_test" last; exit 1 on a FAIL.
 */
#include "module_test.h"
#include <sys/wait.h>
#include <time.h>

#define NC_SIZE		(5 * MiB + 4096)	/* ragged: the last unit is short */
#define NC_ALLOC	(6 * MiB)
#define SEED		0x5eedcafeULL

static const char *mpt;

static int open_nc(const char *name, int flags)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", mpt, name);
	fd = open(path, flags);
	if (fd < 0)
		die(path);
	return fd;
}

static unsigned long long num(const char *s)
{
	return strtoull(s, NULL, 0);
}

static void do_setup(unsigned long long devoff, int write)
{
	int fd = mkfile(mpt, "nc");
	char *buf = malloc(NC_SIZE);

	if (!buf)
		die("malloc");
	if (t_ok("setup-map", map1(fd, NC_SIZE, devoff, NC_ALLOC)) && write) {
		fill(buf, SEED, 0, NC_SIZE);
		t_equ("setup-write", NC_SIZE, pwrite(fd, buf, NC_SIZE, 0));
	}
	close(mkfile(mpt, "unmapped"));
	close(fd);
	free(buf);
}

static void do_read(size_t len, unsigned long long off)
{
	int fd = open_nc("nc", O_RDONLY);
	size_t want = off >= NC_SIZE ? 0 :
		      len < NC_SIZE - off ? len : NC_SIZE - off;
	char *buf = malloc(len + 8);
	ssize_t n;

	if (!buf)
		die("malloc");
	n = pread(fd, buf, len, off);
	if (t_equ("read-len", want, n) && check(buf, SEED, off, n) >= 0)
		t_fail("read-data", "bytes at %lld are not the pattern",
		       check(buf, SEED, off, n));
	else if (n == (ssize_t)want)
		t_pass("read-data");
	free(buf);
	close(fd);
}

static void do_write(size_t len, unsigned long long off)
{
	int fd = open_nc("nc", O_RDWR);
	char *buf = malloc(len);

	if (!buf)
		die("malloc");
	fill(buf, SEED, off, len);
	/* cut at EOF: famfs never extends a file */
	t_equ("write-len", off >= NC_SIZE ? 0 : len < NC_SIZE - off ? len :
	      NC_SIZE - off, pwrite(fd, buf, len, off));
	free(buf);
	close(fd);
}

static void do_msync(size_t off, size_t len)
{
	int fd = open_nc("nc", O_RDWR);
	char *p = mmap(NULL, NC_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		       fd, 0);

	if (p == MAP_FAILED)
		die("mmap");
	/* the same byte back: the pattern stays, the page gets dirty (volatile:
	 * a plain p[off] = p[off] is no store at all once compiled) */
	*(volatile char *)(p + off) = p[off];
	t_ok("msync", msync(p + off, len, MS_SYNC));
	munmap(p, NC_SIZE);
	close(fd);
}

static int cache(int fd, const void *arg)
{
	return ioctl(fd, FAMFSIOC_CACHE, arg);
}

static struct famfs_ioc_cache cache_arg(unsigned int flags, unsigned long long off,
				   unsigned long long len)
{
	struct famfs_ioc_cache c = {
		.offset = off, .length = len, .flags = flags,
	};

	return c;
}

static void do_ioctl(const char *how, unsigned long long off,
		     unsigned long long len)
{
	unsigned int flags = !strcmp(how, "wb") ? FAMFS_CACHE_WRITEBACK :
			     !strcmp(how, "inv") ? FAMFS_CACHE_INVALIDATE :
			     FAMFS_CACHE_WRITEBACK | FAMFS_CACHE_INVALIDATE;
	int fd = open_nc("nc", O_RDONLY);	/* any fd will do */
	struct famfs_ioc_cache c = cache_arg(flags, off, len);

	t_ok("ioctl", cache(fd, &c));
	close(fd);
}

static void do_bad(void)
{
	int fd = open_nc("nc", O_RDONLY), ufd = open_nc("unmapped", O_RDONLY);
	const unsigned int wb = FAMFS_CACHE_WRITEBACK;
	struct famfs_ioc_cache c;
	void *none = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	c = cache_arg(0, 0, 4096);
	t_errno("bad-flags-0", cache(fd, &c), EINVAL);
	c = cache_arg(4, 0, 4096);
	t_errno("bad-flags-unknown", cache(fd, &c), EINVAL);
	c = cache_arg(wb, 0, 4096);
	c.reserved = 1;
	t_errno("bad-reserved", cache(fd, &c), EINVAL);
	c = cache_arg(wb, 0, 0);
	t_errno("bad-length-0", cache(fd, &c), EINVAL);
	c = cache_arg(wb, NC_SIZE - 4096, 4097);
	t_errno("bad-past-eof", cache(fd, &c), EINVAL);
	c = cache_arg(wb, NC_SIZE + 4096, 1);
	t_errno("bad-offset-past-eof", cache(fd, &c), EINVAL);
	c = cache_arg(wb, 4096, ~0ULL);
	t_errno("bad-wraps", cache(fd, &c), EINVAL);
	c = cache_arg(wb, 0, 4096);
	t_errno("bad-unmapped", cache(ufd, &c), ENODEV);
	t_errno("bad-null", cache(fd, NULL), EFAULT);
	t_errno("bad-prot-none", cache(fd, none), EFAULT);
	c = cache_arg(wb, NC_SIZE - 1, 1);
	t_ok("last-byte-ok", cache(fd, &c));
	munmap(none, 4096);
	close(ufd);
	close(fd);
}

static void do_loop(size_t len, unsigned long n)
{
	int fd = open_nc("nc", O_RDONLY);
	char *buf = malloc(len);
	unsigned long i, bad = 0;

	if (!buf)
		die("malloc");
	for (i = 0; i < n; i++)
		bad += pread(fd, buf, len, 0) != (ssize_t)len;
	t_equ("loop-reads-short", 0, bad);
	free(buf);
	close(fd);
}

/* The open MPT/big, LEN bytes at DEVOFF: mapped on first use. */
static int open_big(unsigned long long devoff, unsigned long long len)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/big", mpt);
	fd = open(path, O_RDWR);
	if (fd >= 0)
		return fd;
	fd = mkfile(mpt, "big");
	if (map1(fd, len, devoff, len))
		die("map MPT/big");
	return fd;
}

/*
 * Is @pid inside famfs's cache walk?  Its kernel stack says so (root; it is
 * not running while this one reads: one guest CPU).  /proc/PID/syscall
 * cannot: it says "running" for a task preempted inside a call.
 */
static int in_cache_walk(pid_t pid)
{
	char p[64], buf[4096];
	ssize_t n;
	int fd;

	snprintf(p, sizeof(p), "/proc/%d/stack", (int)pid);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	return strstr(buf, "famfs_cache_range") != NULL;
}

/*
 * One attempt: a child walks all of MPT/big (@fsync_call: fsync, else
 * FAMFSIOC_CACHE) and gets SIGKILL once seen inside the walk.  Returns 1 if
 * it was still inside the walk after the kill (the signal came during the
 * call: the suite's verdict holds), 0 if not (the parent was preempted
 * between look and kill and the walk ended meanwhile: try again), -1 if it
 * was never seen inside; *st is its wait status.
 */
static int kill_once(int fd, int fsync_call, unsigned long long len, int *st,
		     double *ms)
{
	struct famfs_ioc_cache c = cache_arg(FAMFS_CACHE_INVALIDATE, 0, len);
	struct timespec t0, t1;
	int p[2], caught = 0, landed = 0;
	pid_t pid;
	char b;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		if (write(p[1], "r", 1) != 1)
			_exit(3);
		if (fsync_call)
			fsync(fd);
		else
			ioctl(fd, FAMFSIOC_CACHE, &c);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &b, 1) != 1)
		die("the child did not start");
	close(p[0]);
	/* Until it is seen inside the walk (a sleep lets it run), or gone. */
	while (!caught && waitpid(pid, st, WNOHANG) == 0) {
		if (in_cache_walk(pid)) {
			clock_gettime(CLOCK_MONOTONIC, &t0);
			caught = !kill(pid, SIGKILL);
			landed = caught && in_cache_walk(pid);
		} else {
			usleep(200);
		}
	}
	if (!caught)
		return -1;
	if (waitpid(pid, st, 0) != pid)
		die("waitpid");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
	return landed;
}

static void do_kill(const char *how, unsigned long long devoff,
		    unsigned long long len)
{
	int fd = open_big(devoff, len), st = 0, n, rc = 0;
	double ms = 0;

	for (n = 1; n <= 5; n++) {
		rc = kill_once(fd, !strcmp(how, "fsync"), len, &st, &ms);
		if (rc)
			break;
		printf("info: attempt %d: the walk had ended when SIGKILL came; again\n",
		       n);
	}
	close(fd);
	if (rc <= 0) {
		t_fail("kill-in-call", "the child was never %s famfs_cache_range() (/proc/PID/stack) during %s over %llu bytes",
		       rc ? "seen inside" : "still inside, after SIGKILL,",
		       how, len);
		return;
	}
	t_pass("kill-in-call");
	printf("info: %s over %llu bytes: dead %.1f ms after SIGKILL\n", how,
	       len, ms);
	t_true("killed-by-sigkill", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	       "the child did not die by SIGKILL");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 2 ? argv[2] : "";

	if (argc < 3)
		goto usage;
	mpt = argv[1];
	if (!strcmp(cmd, "setup") && argc == 4)
		do_setup(num(argv[3]), 1);
	else if (!strcmp(cmd, "attach") && argc == 4)
		do_setup(num(argv[3]), 0);
	else if (!strcmp(cmd, "read") && argc == 5)
		do_read(num(argv[3]), num(argv[4]));
	else if (!strcmp(cmd, "write") && argc == 5)
		do_write(num(argv[3]), num(argv[4]));
	else if (!strcmp(cmd, "fsync") || !strcmp(cmd, "fdatasync")) {
		int fd = open_nc("nc", O_RDWR);

		t_ok(cmd, *cmd == 'f' && cmd[1] == 's' ? fsync(fd) :
		     fdatasync(fd));
		close(fd);
	} else if (!strcmp(cmd, "msync") && argc == 5)
		do_msync(num(argv[3]), num(argv[4]));
	else if (!strcmp(cmd, "ioctl") && argc == 6)
		do_ioctl(argv[3], num(argv[4]), num(argv[5]));
	else if (!strcmp(cmd, "bad"))
		do_bad();
	else if (!strcmp(cmd, "loop") && argc == 5)
		do_loop(num(argv[3]), num(argv[4]));
	else if (!strcmp(cmd, "kill") && argc == 6)
		do_kill(argv[3], num(argv[4]), num(argv[5]));
	else
		goto usage;
	printf("DONE cache_test\n");
	return t_failed;
usage:
	fprintf(stderr, "usage: see the head of cache_test.c\n");
	return 2;
}
