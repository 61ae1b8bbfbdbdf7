// SPDX-License-Identifier: GPL-2.0
/*
 * module_ioctl MPT DEV: the v1 map ioctls of famfs.ko on a fresh mount of
 * DEV at MPT: every invalid map gets its own errno, valid maps round-trip
 * through MAP_GET/MAP_GETEXT, overlaps are refused, a failed MAP_CREATE
 * leaves the file unmapped, and only CAP_SYS_ADMIN may create maps.
 *
 * Device layout used (the device must be at least 512 MiB):
 *   0..2M superblock, 2M..10M log, 64M..330M: test files.
 *
 * module_ioctl MPT DEV openers (on a mount of its own, 64M..80M): MAP_CREATE
 * refuses a file that another open file or another name reaches (EBUSY).
 */
#include "module_test.h"
#include <sys/wait.h>

static const char *mpt;
static unsigned long long devsz;
static int nfile;

static int newfile(void)
{
	char name[64];

	snprintf(name, sizeof(name), "f%d", nfile++);
	return mkfile(mpt, name);
}

/* One invalid map on a new file: errno @want, and the file stays unmapped. */
static void bad(const char *name, int want, struct famfs_ioc_map *m)
{
	char n2[128];
	struct famfs_ioc_map got;
	struct stat st;
	int fd = newfile();

	t_errno(name, ioctl(fd, FAMFSIOC_MAP_CREATE, m), want);
	snprintf(n2, sizeof(n2), "%s-still-unmapped", name);
	if (ioctl(fd, FAMFSIOC_MAP_GET, &got) == -1 && errno == ENODATA &&
	    !fstat(fd, &st) && st.st_size == 0)
		t_pass(n2);
	else
		t_fail(n2, "file has a map or a size after a refused MAP_CREATE");
	close(fd);
}

static void test_validation(void)
{
	struct famfs_ioc_map m;
	unsigned long long top = devsz & ~(TWO_MiB - 1);

	m = map_mk(FAMFS_REG, TWO_MiB, 0, 64 * MiB, TWO_MiB, 0, 0);
	bad("count-0", EINVAL, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 3, 64 * MiB, TWO_MiB, 66 * MiB, TWO_MiB);
	bad("count-3", E2BIG, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1ULL << 40, 64 * MiB, TWO_MiB, 0, 0);
	bad("count-huge", E2BIG, &m);

	m = map_mk(FAMFS_REG, TWO_MiB, 1, 64 * MiB, TWO_MiB, 0, 0);
	m.extent_type = INVALID_EXTENT_TYPE;
	bad("extent-type-invalid", EOPNOTSUPP, &m);
	m.extent_type = 0;
	bad("extent-type-0", EOPNOTSUPP, &m);
	m = map_mk(FAMFS_LOG + 1, TWO_MiB, 1, 64 * MiB, TWO_MiB, 0, 0);
	bad("file-type-unknown", EOPNOTSUPP, &m);
	m = map_mk(0xffffffff, TWO_MiB, 1, 64 * MiB, TWO_MiB, 0, 0);
	bad("file-type-ffffffff", EOPNOTSUPP, &m);

	m = map_mk(FAMFS_REG, TWO_MiB, 1, 64 * MiB + 4096, TWO_MiB, 0, 0);
	bad("offset-4k-aligned", EINVAL, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, 64 * MiB + 1, TWO_MiB, 0, 0);
	bad("offset-odd", EINVAL, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, TWO_MiB, 67 * MiB, TWO_MiB);
	bad("offset-second-extent", EINVAL, &m);
	m = map_mk(FAMFS_REG, 0, 1, 64 * MiB, 0, 0, 0);
	bad("length-0", EINVAL, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, TWO_MiB + 4096, 68 * MiB,
	       TWO_MiB);
	bad("length-not-last-unaligned", EINVAL, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, TWO_MiB, 68 * MiB, 0);
	bad("length-last-0", EINVAL, &m);

	m = map_mk(FAMFS_REG, TWO_MiB, 1, ~(TWO_MiB - 1), 4 * MiB, 0, 0);
	bad("offset-len-overflow", EOVERFLOW, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, 64 * MiB, ~0ULL - 4 * MiB, 0, 0);
	bad("len-overflow", EOVERFLOW, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, top - TWO_MiB, 4 * MiB, 0, 0);
	bad("past-device-end", ENXIO, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, top, TWO_MiB, 0, 0);
	bad("at-device-end", ENXIO, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, 1ULL << 50, TWO_MiB, 0, 0);
	bad("far-past-device-end", ENXIO, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, TWO_MiB, top, TWO_MiB);
	bad("second-extent-past-end", ENXIO, &m);

	m = map_mk(FAMFS_REG, TWO_MiB + 1, 1, 64 * MiB, TWO_MiB, 0, 0);
	bad("size-larger-than-extents", EFBIG, &m);
	m = map_mk(FAMFS_REG, 6 * MiB + 1, 2, 64 * MiB, TWO_MiB, 68 * MiB,
	       4 * MiB);
	bad("size-larger-than-2-extents", EFBIG, &m);

	m = map_mk(FAMFS_REG, TWO_MiB, 1, 0, TWO_MiB, 0, 0);
	bad("offset-0-regular", EINVAL, &m);
	m = map_mk(FAMFS_LOG, TWO_MiB, 1, 0, TWO_MiB, 0, 0);
	bad("offset-0-log", EINVAL, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, TWO_MiB, 0, TWO_MiB);
	bad("offset-0-second-extent", EINVAL, &m);
	m = map_mk(FAMFS_SUPERBLOCK, TWO_MiB, 1, TWO_MiB, TWO_MiB, 0, 0);
	bad("superblock-not-at-0", EINVAL, &m);

	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, 4 * MiB, 66 * MiB, TWO_MiB);
	bad("self-overlap", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 64 * MiB, TWO_MiB, 64 * MiB, TWO_MiB);
	bad("self-same-extent", EADDRINUSE, &m);
}

static void test_efault_enotty(void)
{
	struct famfs_ioc_map got;
	int fd = newfile();
	int dfd;

	t_errno("create-efault", ioctl(fd, FAMFSIOC_MAP_CREATE, (void *)8),
		EFAULT);
	t_errno("create-efault-unmapped-after", ioctl(fd, FAMFSIOC_MAP_GET,
						      &got), ENODATA);
	t_errno("unknown-ioctl", ioctl(fd, _IO(FAMFSIOC_MAGIC, 99)), ENOTTY);
	t_errno("unknown-ioctl-other-magic", ioctl(fd, _IO('x', 1)), ENOTTY);
	dfd = open(mpt, O_RDONLY | O_DIRECTORY);
	t_errno("dir-nop", ioctl(dfd, FAMFSIOC_NOP), ENOTTY);
	close(dfd);
	close(fd);
}

static void test_unmapped(void)
{
	struct famfs_extent ext[FAMFS_MAX_EXTENTS];
	struct famfs_ioc_map got;
	int fd = newfile();

	t_ok("nop", ioctl(fd, FAMFSIOC_NOP));
	t_errno("get-unmapped", ioctl(fd, FAMFSIOC_MAP_GET, &got), ENODATA);
	t_errno("getext-unmapped", ioctl(fd, FAMFSIOC_MAP_GETEXT, ext),
		ENODATA);
	close(fd);
}

static void test_meta_and_overlap(void)
{
	struct famfs_ioc_map m;
	int fd, sb, log;

	/* Superblock at 0 and log at 2M..10M, as famfs-cli lays them out. */
	sb = newfile();
	t_ok("superblock-at-0", map2(sb, FAMFS_SUPERBLOCK, 4096, 1, 0,
				     TWO_MiB, 0, 0));
	log = newfile();
	t_ok("log-at-2M", map2(log, FAMFS_LOG, 8 * MiB, 1, TWO_MiB, 8 * MiB,
			       0, 0));

	m = map_mk(FAMFS_SUPERBLOCK, TWO_MiB, 1, 0, TWO_MiB, 0, 0);
	bad("second-superblock", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, 4 * MiB, TWO_MiB, 0, 0);
	bad("overlap-log", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 1, 8 * MiB, 4 * MiB, 0, 0);
	bad("overlap-log-end", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 80 * MiB, TWO_MiB, 8 * MiB, TWO_MiB);
	bad("overlap-log-second-extent", EADDRINUSE, &m);

	/* A at 100M..104M; B and C overlap it, D is adjacent. */
	fd = newfile();
	t_ok("file-a", map1(fd, 4 * MiB, 100 * MiB, 4 * MiB));
	close(fd);
	m = map_mk(FAMFS_REG, 4 * MiB, 1, 98 * MiB, 4 * MiB, 0, 0);
	bad("overlap-start", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, TWO_MiB, 1, 102 * MiB, TWO_MiB, 0, 0);
	bad("overlap-inside", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, 8 * MiB, 1, 98 * MiB, 8 * MiB, 0, 0);
	bad("overlap-covering", EADDRINUSE, &m);
	m = map_mk(FAMFS_REG, 4 * MiB, 1, 102 * MiB, 4 * MiB, 0, 0);
	bad("overlap-end", EADDRINUSE, &m);
	fd = newfile();
	t_ok("adjacent-after", map1(fd, TWO_MiB, 104 * MiB, TWO_MiB));
	close(fd);
	fd = newfile();
	t_ok("adjacent-before", map1(fd, TWO_MiB, 98 * MiB, TWO_MiB));
	close(fd);

	/* A refused map claims nothing: its free extent is still free. */
	m = map_mk(FAMFS_REG, 4 * MiB, 2, 110 * MiB, TWO_MiB, 100 * MiB,
		   TWO_MiB);
	bad("overlap-rollback", EADDRINUSE, &m);
	fd = newfile();
	t_ok("rollback-freed", map1(fd, TWO_MiB, 110 * MiB, TWO_MiB));
	close(fd);

	/* A ragged last extent; the next 2M-aligned extent is still free. */
	fd = newfile();
	t_ok("last-extent-ragged", map2(fd, FAMFS_REG, 4 * MiB + 100, 2,
					120 * MiB, TWO_MiB, 124 * MiB,
					TWO_MiB + 100));
	close(fd);
	fd = newfile();
	t_ok("after-ragged-free", map1(fd, TWO_MiB, 128 * MiB, TWO_MiB));
	close(fd);

	/* Unlinking a mapped file gives its memory back once closed. */
	fd = mkfile(mpt, "gone");
	t_ok("map-before-unlink", map1(fd, TWO_MiB, 130 * MiB, TWO_MiB));
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/gone", mpt);
		unlink(p);
	}
	m = map_mk(FAMFS_REG, TWO_MiB, 1, 130 * MiB, TWO_MiB, 0, 0);
	bad("unlinked-but-open-still-owns", EADDRINUSE, &m);
	close(fd);
	fd = newfile();
	t_ok("unlinked-closed-freed", map1(fd, TWO_MiB, 130 * MiB, TWO_MiB));
	close(fd);

	close(sb);
	close(log);
}

static void test_roundtrip(void)
{
	struct famfs_extent ext[FAMFS_MAX_EXTENTS + 1];
	struct famfs_ioc_map got;
	struct stat st;
	struct statx stx;
	int fd = newfile();

	if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx))
		t_fail("unmapped-not-dax", "statx: %s", t_errname(errno));
	else
		t_true("unmapped-not-dax", !(stx.stx_attributes & STATX_ATTR_DAX),
		       "a new file has STATX_ATTR_DAX");
	t_ok("create-2-extents", map2(fd, FAMFS_REG, 6 * MiB - 12345, 2,
				      200 * MiB, 4 * MiB, 140 * MiB,
				      TWO_MiB));
	memset(&got, 0xa5, sizeof(got));
	if (t_ok("get", ioctl(fd, FAMFSIOC_MAP_GET, &got))) {
		t_equ("get-extent-type", SIMPLE_DAX_EXTENT, got.extent_type);
		t_equ("get-file-type", FAMFS_REG, got.file_type);
		t_equ("get-file-size", 6 * MiB - 12345, got.file_size);
		t_equ("get-count", 2, got.ext_list_count);
		t_equ("get-ext0-offset", 200 * MiB, got.ext_list[0].offset);
		t_equ("get-ext0-len", 4 * MiB, got.ext_list[0].len);
		t_equ("get-ext1-offset", 140 * MiB, got.ext_list[1].offset);
		t_equ("get-ext1-len", TWO_MiB, got.ext_list[1].len);
	}
	memset(ext, 0xa5, sizeof(ext));
	if (t_ok("getext", ioctl(fd, FAMFSIOC_MAP_GETEXT, ext))) {
		t_equ("getext-0-offset", 200 * MiB, ext[0].offset);
		t_equ("getext-0-len", 4 * MiB, ext[0].len);
		t_equ("getext-1-offset", 140 * MiB, ext[1].offset);
		t_equ("getext-1-len", TWO_MiB, ext[1].len);
		t_equ("getext-writes-only-count", 0xa5a5a5a5a5a5a5a5ULL,
		      ext[2].offset);
	}
	if (fstat(fd, &st)) {
		t_fail("size-after-create", "fstat: %s", t_errname(errno));
		t_fail("blocks-after-create", "fstat: %s", t_errname(errno));
	} else {
		t_equ("size-after-create", 6 * MiB - 12345, st.st_size);
		t_equ("blocks-after-create", 6 * MiB / 512, st.st_blocks);
	}
	if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &stx))
		t_fail("mapped-is-dax", "statx: %s", t_errname(errno));
	else
		t_true("mapped-is-dax", stx.stx_attributes & STATX_ATTR_DAX,
		       "a mapped file lacks STATX_ATTR_DAX");
	t_errno("get-efault", ioctl(fd, FAMFSIOC_MAP_GET, (void *)8), EFAULT);

	/* A second MAP_CREATE, valid or not, is EEXIST. */
	t_errno("second-create", map1(fd, TWO_MiB, 300 * MiB, TWO_MiB),
		EEXIST);
	t_errno("second-create-same", map2(fd, FAMFS_REG, 6 * MiB - 12345, 2,
					   200 * MiB, 4 * MiB, 140 * MiB,
					   TWO_MiB), EEXIST);
	t_errno("second-create-invalid", map2(fd, FAMFS_REG, 0, 0, 0, 0, 0,
					      0), EEXIST);
	t_ok("nop-mapped", ioctl(fd, FAMFSIOC_NOP));
	close(fd);

	/* One extent: GETEXT writes one extent and nothing more. */
	fd = newfile();
	t_ok("create-1-extent", map1(fd, TWO_MiB, 150 * MiB, TWO_MiB));
	memset(ext, 0xa5, sizeof(ext));
	if (t_ok("getext-1", ioctl(fd, FAMFSIOC_MAP_GETEXT, ext))) {
		t_equ("getext-1-offset", 150 * MiB, ext[0].offset);
		t_equ("getext-1-untouched", 0xa5a5a5a5a5a5a5a5ULL,
		      ext[1].offset);
	}
	close(fd);
}

static void test_nonroot(void)
{
	struct famfs_ioc_map got;
	int fd = newfile();
	int st;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		int rc;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		rc = map1(fd, TWO_MiB, 160 * MiB, TWO_MiB);
		_exit(rc == -1 && errno == EPERM ? 0 : rc == -1 ? 1 : 2);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		t_fail("nonroot-create-eperm", "child did not run");
	else if (WEXITSTATUS(st) == 0)
		t_pass("nonroot-create-eperm");
	else
		t_fail("nonroot-create-eperm", "child status %d (1: other errno, 2: succeeded, 3: setresuid)",
		       WEXITSTATUS(st));
	t_errno("nonroot-left-unmapped", ioctl(fd, FAMFSIOC_MAP_GET, &got),
		ENODATA);

	/* Reading a map needs no privilege. */
	t_ok("root-create", map1(fd, TWO_MiB, 160 * MiB, TWO_MiB));
	pid = fork();
	if (pid == 0) {
		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		_exit(ioctl(fd, FAMFSIOC_MAP_GET, &got) == 0 &&
		      got.ext_list[0].offset == 160 * MiB ? 0 : 1);
	}
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	    WEXITSTATUS(st) == 0)
		t_pass("nonroot-get");
	else
		t_fail("nonroot-get", "MAP_GET as nobody failed");
	close(fd);
}

/* Racing creators: exactly one of N wins, the others get @want. */
static void race(const char *name, int same_file, int want)
{
	enum { N = 8 };
	int fds[N], i, st, wins = 0, losses = 0, other = 0;
	pid_t pids[N];

	fds[0] = newfile();
	for (i = 1; i < N; i++)
		fds[i] = same_file ? fds[0] : newfile();
	for (i = 0; i < N; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			/* Same file: different memory; else the same memory. */
			unsigned long long off = same_file ?
				(300 + 2 * i) * MiB : 290 * MiB;
			int rc = map1(fds[i], TWO_MiB, off, TWO_MiB);

			_exit(rc == 0 ? 0 : errno == want ? 1 : 2);
		}
	}
	for (i = 0; i < N; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &st, 0) != pids[i] ||
		    !WIFEXITED(st))
			other++;
		else if (WEXITSTATUS(st) == 0)
			wins++;
		else if (WEXITSTATUS(st) == 1)
			losses++;
		else
			other++;
	}
	if (wins == 1 && losses == N - 1)
		t_pass(name);
	else
		t_fail(name, "%d won, %d lost with %s, %d other", wins, losses,
		       t_errname(want), other);
	for (i = 0; i < N; i++)
		if (!same_file || i == 0)
			close(fds[i]);
}

/* MAP_CREATE of @fd at @off: EBUSY (@busy) or success, each its own test. */
static void create_as(const char *name, int fd, int busy,
		      unsigned long long off)
{
	char n2[128];
	struct famfs_ioc_map got;

	if (!busy) {
		t_ok(name, map1(fd, TWO_MiB, off, TWO_MiB));
		return;
	}
	t_errno(name, map1(fd, TWO_MiB, off, TWO_MiB), EBUSY);
	snprintf(n2, sizeof(n2), "%s-left-unmapped", name);
	t_errno(n2, ioctl(fd, FAMFSIOC_MAP_GET, &got), ENODATA);
}

/*
 * Memory only for a file the caller alone reaches: another open file of it
 * (any process, any mode) or another name makes MAP_CREATE fail with EBUSY;
 * descriptors that share the caller's open file (dup, fork) and O_PATH
 * handles (no data access) do not count.  The scenario: a user pre-creates
 * the path logplay will map and keeps an fd to read the victim's memory.
 */
static void test_openers(void)
{
	char path[512], path2[512], c = 0;
	int fd, fd2, st, up[2], down[2];
	pid_t pid;

	snprintf(path, sizeof(path), "%s/o-second-open", mpt);
	fd = mkfile(mpt, "o-second-open");
	fd2 = open(path, O_RDONLY);
	create_as("openers-second-open-ebusy", fd, 1, 64 * MiB);
	close(fd2);
	create_as("openers-second-closed-ok", fd, 0, 64 * MiB);
	close(fd);

	/* the attack: another user pre-created it and holds it open */
	snprintf(path, sizeof(path), "%s/o-other-user", mpt);
	fd = mkfile(mpt, "o-other-user");
	if (fchmod(fd, 0666) || pipe(up) || pipe(down))
		die("setup");
	pid = fork();
	if (pid == 0) {
		int h;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		h = open(path, O_RDWR);
		c = h >= 0 ? 'y' : 'n';
		if (write(up[1], &c, 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(4);
		_exit(h >= 0 ? 0 : 1);
	}
	if (pid < 0 || read(up[0], &c, 1) != 1 || c != 'y') {
		t_fail("openers-other-user-ebusy", "uid 65534 could not open the file");
	} else {
		create_as("openers-other-user-ebusy", fd, 1, 66 * MiB);
		/* the holder leaves: its file is released before waitpid */
		if (write(down[1], &c, 1) != 1 || waitpid(pid, &st, 0) != pid)
			die("child");
		create_as("openers-other-user-gone-ok", fd, 0, 66 * MiB);
	}
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
	close(fd);

	/* dup and fork share the caller's open file: the caller's own */
	fd = mkfile(mpt, "o-dup");
	fd2 = dup(fd);
	pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	create_as("openers-dup-and-fork-ok", fd, 0, 68 * MiB);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	close(fd2);
	close(fd);

	/* O_PATH reaches no data; a later open through it is an open */
	snprintf(path, sizeof(path), "%s/o-path", mpt);
	fd = mkfile(mpt, "o-path");
	fd2 = open(path, O_PATH);
	create_as("openers-opath-ok", fd, 0, 70 * MiB);
	close(fd2);
	close(fd);

	/* a second name */
	snprintf(path, sizeof(path), "%s/o-link", mpt);
	snprintf(path2, sizeof(path2), "%s/o-link-2", mpt);
	fd = mkfile(mpt, "o-link");
	t_ok("openers-link", link(path, path2));
	create_as("openers-hardlink-ebusy", fd, 1, 72 * MiB);
	t_ok("openers-unlink-2", unlink(path2));
	create_as("openers-hardlink-gone-ok", fd, 0, 72 * MiB);
	close(fd);

	/* a mapped file is open to everyone the permissions let in */
	fd2 = open(path, O_RDONLY);
	t_true("openers-mapped-open-ok", fd2 >= 0, "open of a mapped file failed");
	close(fd2);
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[3], "openers")) {
		mpt = argv[1];
		test_openers();
		return t_done(0);
	}
	if (argc != 3) {
		fprintf(stderr, "usage: module_ioctl MPT DEV [openers]\n");
		return 2;
	}
	mpt = argv[1];
	devsz = dev_size_min(argv[2], 512 * MiB);

	test_unmapped();
	test_validation();
	test_efault_enotty();
	test_meta_and_overlap();
	test_roundtrip();
	test_nonroot();
	race("race-same-memory", 0, EADDRINUSE);
	race("race-same-file", 1, EEXIST);
	return t_done(0);
}
