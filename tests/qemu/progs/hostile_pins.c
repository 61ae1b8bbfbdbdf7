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
 *   hostile_pins trim MPT OFF0 OFF1
 *	file "t" of two 2 MiB extents, at OFF0 and OFF1 (MAP_CREATE_V3),
 *	filled with seed 77; its page at 2 MiB + 8K (extent 1) vmsplice'd
 *	into a pipe; mapping, descriptor and name dropped.  Then extent 0's
 *	memory is given back at once (a new file maps it), extent 1's is
 *	kept (EADDRINUSE) while the pipe shows t's bytes, and is free once
 *	the pipe is closed: an evicted file keeps the extents with a pinned
 *	page only, for every kind of map (map.c famfs_zombie_trim()).
 *   hostile_pins attach MPT DEV INDEX
 *	FAMFSIOC_DEV_ADD of DEV (a pmem block device, or a /dev/daxX.Y bound
 *	to famfs) as member INDEX of the mount at MPT, all of it (rounded down
 *	to 2 MiB): PASS attach.
 *
 * OFF is a byte offset on the primary (device 0), or INDEX:OFF on member
 * INDEX (the file is then mapped with MAP_CREATE_V3), e.g. 1:420M.
 */
#include "module_test.h"
#include <stdbool.h>

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
	char *p = t_pin(fd, 0, TWO_MiB, seed, dev_base, AT, pipefd);

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

/* MAP_CREATE of 2 MiB at @at for @fd: 0, or -1 and errno. */
static int map_at(int fd, struct t_loc at)
{
	if (!at.dev)
		return map1(fd, TWO_MiB, at.off, TWO_MiB);
	return t_map_locs(fd, &at, 1);
}

/* A new 2 MiB file NAME at @at; *@err is MAP_CREATE's errno (0: mapped). */
static int newfile(const char *mpt, const char *name, struct t_loc at, int *err)
{
	int fd = mkfile(mpt, name);

	*err = map_at(fd, at) ? errno : 0;
	return fd;
}

static int do_unlink(const char *mpt, struct t_loc off)
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
		t_ok("memory-free-after-pipe-drained", map_at(b, off));
	}
	close(b);
	return t_failed;
}

static int do_hold(const char *mpt, const char *name, struct t_loc off,
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
	char path[512];
	char *p;

	fd = open(dev, O_RDWR);
	if (fd < 0)
		die(dev);
	p = t_pin(fd, base, TWO_MiB, 55, base, AT, pipefd);
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

static int do_fill(const char *mpt, const char *name, struct t_loc off)
{
	static char buf[TWO_MiB];
	int fd, err;

	fd = newfile(mpt, name, off, &err);
	if (err) {
		printf("info: MAP_CREATE %s at %u:%llu: %s\n", name, off.dev,
		       off.off, t_errname(err));
		return 1;
	}
	fill(buf, 44, 0, TWO_MiB);
	if (pwrite(fd, buf, TWO_MiB, 0) != TWO_MiB)
		die("pwrite");
	close(fd);
	return 0;
}

static int do_trim(const char *mpt, struct t_loc x, struct t_loc y)
{
	const struct t_loc l[2] = { x, y };
	int pipefd[2], fd, f0, f1, err;
	char path[512];
	char *p;

	fd = mkfile(mpt, "t");
	if (t_map_locs(fd, l, 2))
		die("MAP_CREATE_V3 t");
	p = t_pin(fd, 0, 2 * TWO_MiB, 77, 0, TWO_MiB + AT, pipefd);
	print_pfn(p + TWO_MiB + AT);
	if (munmap(p, 2 * TWO_MiB))
		die("munmap");
	close(fd);
	snprintf(path, sizeof(path), "%s/t", mpt);
	if (unlink(path))
		die(path);

	/* t is evicted; extent 1 holds the page in the pipe, extent 0 none. */
	f0 = newfile(mpt, "t0", x, &err);
	errno = err;
	t_ok("trim-unpinned-extent-given-back", err ? -1 : 0);
	f1 = newfile(mpt, "t1", y, &err);
	errno = err;
	t_errno("trim-pinned-extent-kept", err ? -1 : 0, EADDRINUSE);
	check_pipe("trim-pipe-keeps-bytes", pipefd, 77, TWO_MiB);
	if (err)
		t_ok("trim-extent-free-after-pipe", map_at(f1, y));
	close(f0);
	close(f1);
	return t_failed;
}

/* DEV_ADD of all of @dev (rounded down to 2 MiB) as member @index. */
static int do_attach(const char *mpt, const char *dev, unsigned int index)
{
	struct famfs_ioc_dev_add a;
	struct stat st;
	int root, fd;

	if (stat(dev, &st))
		die(dev);
	memset(&a, 0, sizeof(a));
	a.index = index;
	a.size = (S_ISCHR(st.st_mode) ? t_dax_size(dev) : dev_size(dev)) &
		 ~(TWO_MiB - 1);
	root = open(mpt, O_RDONLY | O_DIRECTORY);
	fd = open(dev, O_RDONLY);
	if (root < 0 || fd < 0)
		die("open");
	a.fd = fd;
	t_ok("attach", ioctl(root, FAMFSIOC_DEV_ADD, &a));
	close(fd);
	close(root);
	return t_failed;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "unlink"))
		return t_done(do_unlink(argv[2], t_at(argv[3])));
	if (argc == 5 && !strcmp(argv[1], "trim"))
		return t_done(do_trim(argv[2], t_at(argv[3]), t_at(argv[4])));
	if (argc == 6 && !strcmp(argv[1], "hold"))
		return t_done(do_hold(argv[2], argv[3], t_at(argv[4]),
				      argv[5], true));
	if (argc == 6 && !strcmp(argv[1], "holdexit"))
		return t_done(do_hold(argv[2], argv[3], t_at(argv[4]),
				      argv[5], false));
	if (argc == 4 && !strcmp(argv[1], "holddev"))
		return t_done(do_holddev(argv[2], argv[3]));
	if (argc == 5 && !strcmp(argv[1], "fill"))
		return t_done(do_fill(argv[2], argv[3], t_at(argv[4])));
	if (argc == 5 && !strcmp(argv[1], "attach"))
		return t_done(do_attach(argv[2], argv[3],
					strtoul(argv[4], NULL, 10)));
	fprintf(stderr, "usage: hostile_pins unlink MPT OFF | hold MPT NAME OFF DIR |\n"
		"       holdexit MPT NAME OFF DIR | holddev DEV DIR | fill MPT NAME OFF |\n"
		"       attach MPT DEV INDEX   (OFF: [INDEX:]BYTES)\n");
	return 2;
}
