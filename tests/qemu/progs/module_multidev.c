// SPDX-License-Identifier: GPL-2.0
/*
 * module_multidev MPT DEV0 DEV1 [TEST...]: one famfs mount over two memory
 * devices (issue 16), driven with the ioctls directly: famfs.ko is mounted
 * on DEV0 (the primary) at MPT by the suite, and DEV1 (a pmem block device
 * or a /dev/daxX.Y bound to famfs) is attached as member 1 with
 * FAMFSIOC_DEV_ADD; files get device-indexed maps with MAP_CREATE_V3.
 * Nothing is formatted: the kernel keeps no metadata of its own.
 *
 * Tests: attach member stripe overlap statfs (default, in this order: the
 * others need "attach"); pmd (64 MiB striped over both devices, run alone
 * so the suite can trace the faults); add-removal and add-poison (on fresh
 * mounts: attach member 1 and make a file on each device, for the suite to
 * remove the member under them; poison: a memory failure in a member page);
 * add-only (attach member 1, nothing else: the read-only member checks);
 * add-fail-once (one DEV_ADD of member 1 asking for more bytes than DEV1
 * has: ENOSPC; the suite traces what it holds meanwhile);
 * add-fail-loop (DEV_ADDs of member 1 asking for more bytes than DEV1 has,
 * DEV1 opened anew each time, until the file STOP exists: the suite removes
 * and plugs DEV1 back meanwhile, once the file READY exists) and add-fail-check (after it: the mount
 * has not failed, member 1 is not attached, a file on device 0 reads);
 * add-noncontig (DEV1 a device whose memory is not one run of pages, e.g.
 * dm-linear over pieces of a namespace: DEV_ADD refused, EOPNOTSUPP).
 *
 * Member 1 is attached with SIZE1 = its size - 64 MiB (the size "the file
 * system records"), so that bounds are per device: an extent that ends
 * past SIZE1 is refused on device 1 and fits device 0.
 *
 * Device layout (both devices at least 480 MiB):
 *   member   dev1 64M (8M)                               simple
 *   overlap  dev0 64M (8M), probes at 66M..96M           simple
 *   stripe   dev0 128M + dev1 128M (16M each), 2M chunks 32 MiB
 *   pmd      dev0 256M + dev1 256M (32M each), 2M chunks 64 MiB
 *   statfs   dev1 200M (2M)
 *   removal  dev0 320M, dev1 320M (4M each)
 *   poison   dev1 300M (4M)
 *   add-fail dev0 360M (2M)
 */
#include "module_test.h"
#include <grp.h>
#include <sys/wait.h>
#include <time.h>

static const char *mpt, *dev0, *dev1;
static int cdev1;		/* DEV1 is a /dev/daxX.Y */
static unsigned long long size0, devsize1, size1;
static struct t_dev raw0, raw1;

/*
 * The raw devices, for the tests that read them.  Not for the others: a
 * /dev/daxX.Y is mapped, and add-fail-loop must not keep it open while the
 * suite unbinds and binds it again.
 */
static void raw_open(void)
{
	static int opened;

	if (opened)
		return;
	t_dev_open(&raw0, dev0, O_RDONLY);
	t_dev_open(&raw1, dev1, O_RDONLY);
	opened = 1;
}

static int dev_add(int fd, int devfd, unsigned int index,
		   unsigned long long size)
{
	struct famfs_ioc_dev_add a;

	memset(&a, 0, sizeof(a));
	a.fd = devfd;
	a.index = index;
	a.size = size;
	return ioctl(fd, FAMFSIOC_DEV_ADD, &a);
}

static int root_fd(void)
{
	int fd = open(mpt, O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		die(mpt);
	return fd;
}

/* DEV1 the way DEV_ADD wants it: a dax device read-only. */
static int open_dev1(void)
{
	int fd = open(dev1, O_RDONLY);

	if (fd < 0)
		die(dev1);
	return fd;
}

static struct famfs_ioc_dext dext(unsigned int dev, unsigned long long off,
				  unsigned long long len)
{
	struct famfs_ioc_dext d;

	memset(&d, 0, sizeof(d));
	d.devindex = dev;
	d.offset = off;
	d.len = len;
	return d;
}

/* MAP_CREATE_V3 of @n simple extents. */
static int mapv3(int fd, unsigned long long size, unsigned int n,
		 const struct famfs_ioc_dext *d)
{
	struct famfs_ioc_map_v2 m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_REG,
					     size, n, d);

	return ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m);
}

/* A new file MPT/@name with a one-extent map on device @dev. */
static int v3file(const char *name, unsigned int dev, unsigned long long off,
		  unsigned long long len, int *rc)
{
	struct famfs_ioc_dext d = dext(dev, off, len);
	int fd = mkfile(mpt, name);

	*rc = mapv3(fd, len, 1, &d);
	return fd;
}

/* What ioctl @cmd does as an unprivileged user (fork, drop root). */
static int errno_unprivileged(int fd, unsigned long cmd, void *arg)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(255);
		_exit(ioctl(fd, cmd, arg) ? errno : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* The attach rules, then member 1 attached (SIZE1 bytes). */
static void test_attach(void)
{
	struct famfs_ioc_dev_add a;
	struct famfs_ioc_dev_info info;
	struct stat st;
	int root = root_fd(), fd = open_dev1(), fd0, busy, pfd, reg, e;

	memset(&a, 0, sizeof(a));
	a.fd = fd;
	a.index = 1;
	a.size = size1;
	e = errno_unprivileged(root, FAMFSIOC_DEV_ADD, &a);
	t_equ("add-eperm", EPERM, e);
	t_errno("add-efault", ioctl(root, FAMFSIOC_DEV_ADD, NULL), EFAULT);
	a.reserved = 1;
	t_errno("add-reserved", ioctl(root, FAMFSIOC_DEV_ADD, &a), EINVAL);
	a.reserved = 0;
	a.flags = 1;
	t_errno("add-flags", ioctl(root, FAMFSIOC_DEV_ADD, &a), EINVAL);
	a.flags = 0;
	a.reserved2[2] = 1;
	t_errno("add-reserved2", ioctl(root, FAMFSIOC_DEV_ADD, &a), EINVAL);
	t_errno("add-index-0", dev_add(root, fd, 0, size1), EINVAL);
	t_errno("add-index-max", dev_add(root, fd, FAMFS_MAX_DEVS, size1),
		EINVAL);
	t_errno("add-index-huge", dev_add(root, fd, 0xffffffffu, size1),
		EINVAL);
	t_errno("add-size-0", dev_add(root, fd, 1, 0), EINVAL);
	t_errno("add-size-unaligned", dev_add(root, fd, 1, size1 - 4096),
		EINVAL);
	t_errno("add-bad-fd", dev_add(root, -1, 1, size1), EBADF);
	pfd = open(dev1, O_PATH);
	t_errno("add-opath-fd", dev_add(root, pfd, 1, size1), EBADF);
	close(pfd);
	reg = open("/tmp/multidev-regular", O_RDWR | O_CREAT, 0600);
	t_errno("add-regular-file", dev_add(root, reg, 1, TWO_MiB), ENOTBLK);
	close(reg);
	t_errno("add-mount-dir", dev_add(root, root, 1, TWO_MiB), ENOTBLK);
	fd0 = open(dev0, O_RDONLY);
	if (fd0 < 0)
		die(dev0);
	t_errno("add-primary", dev_add(root, fd0, 1, TWO_MiB), EALREADY);
	close(fd0);
	t_errno("add-too-big", dev_add(root, fd, 1, devsize1 + TWO_MiB),
		ENOSPC);
	/* Held elsewhere: an exclusive opener, or a writer of a dax device. */
	busy = open(dev1, cdev1 ? O_RDWR : O_RDONLY | O_EXCL);
	if (busy < 0)
		die("open DEV1 exclusively");
	t_errno("add-busy", dev_add(root, fd, 1, size1), EBUSY);
	/* Busy and read-only: EBUSY, the earlier row of the contract. */
	if (!cdev1) {
		int ro = 1;

		if (ioctl(busy, BLKROSET, &ro))
			die("BLKROSET 1");
		t_errno("add-busy-before-erofs", dev_add(root, fd, 1, size1),
			EBUSY);
		ro = 0;
		if (ioctl(busy, BLKROSET, &ro))
			die("BLKROSET 0");
	}
	close(busy);

	t_ok("add", dev_add(root, fd, 1, size1));
	t_errno("add-index-twice", dev_add(root, fd, 1, size1), EEXIST);
	t_errno("add-dev-twice", dev_add(root, fd, 2, size1), EALREADY);
	/* Attached exclusively now: nobody else can claim it. */
	busy = open(dev1, cdev1 ? O_RDWR : O_RDONLY | O_EXCL);
	t_errno("member-held-exclusively", busy, EBUSY);
	if (busy >= 0)
		close(busy);

	memset(&info, 0, sizeof(info));
	info.index = 1;
	if (t_ok("get-1", ioctl(root, FAMFSIOC_DEV_GET, &info))) {
		if (stat(dev1, &st))
			die(dev1);
		t_equ("get-1-size", size1, info.size);
		t_equ("get-1-rdev", st.st_rdev,
		      makedev(info.major, info.minor));
		t_equ("get-1-devdax", cdev1 ? FAMFS_DEV_DEVDAX : 0, info.flags);
	}
	memset(&info, 0, sizeof(info));
	t_ok("get-0", ioctl(root, FAMFSIOC_DEV_GET, &info));
	t_equ("get-0-size", size0, info.size);
	memset(&info, 0, sizeof(info));
	info.index = 2;
	t_errno("get-unattached", ioctl(root, FAMFSIOC_DEV_GET, &info), ENXIO);
	info.index = FAMFS_MAX_DEVS;
	t_errno("get-index-max", ioctl(root, FAMFSIOC_DEV_GET, &info), EINVAL);
	/* Directories answer nothing but the device ioctls. */
	t_errno("dir-nop-enotty", ioctl(root, FAMFSIOC_NOP), ENOTTY);
	close(fd);
	close(root);
}

/* A file on member 1: its bytes are on DEV1, not at that offset of DEV0. */
static void test_member(void)
{
	struct famfs_ioc_dext got[2];
	struct famfs_ioc_map_v2 m;
	struct famfs_ioc_map v1;
	unsigned long long len = 8 * MiB;
	const void *p0;
	char *p;
	int rc, fd = v3file("member", 1, 64 * MiB, len, &rc);

	raw_open();
	if (!t_ok("member-map", rc))
		goto out;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("member-mmap", "%s", t_errname(errno));
		goto out;
	}
	fill(p, 0x1111, 0, len);
	msync(p, len, MS_SYNC);
	munmap(p, len);
	t_devpass(&raw1, "member-bytes-on-dev1", 64 * MiB, len, 0x1111, 0);
	p0 = t_devread(&raw0, 64 * MiB, 4096);
	t_true("member-bytes-not-on-dev0", p0 && check(p0, 0x1111, 0, 4096) >= 0,
	       "device 0 holds the member file's bytes at the same offset");

	memset(got, 0xff, sizeof(got));
	m = mapv2_mk(0, 0, 0, 2, got);
	if (t_ok("member-get-v3", ioctl(fd, FAMFSIOC_MAP_GET_V3, &m))) {
		t_equ("member-get-v3-count", 1, m.ext_count);
		t_equ("member-get-v3-dev", 1, got[0].devindex);
		t_equ("member-get-v3-off", 64 * MiB, got[0].offset);
		t_equ("member-get-v3-len", len, got[0].len);
		t_equ("member-get-v3-reserved", 0, got[0].reserved);
	}
	t_errno("member-get-v1-eoverflow", ioctl(fd, FAMFSIOC_MAP_GET, &v1),
		EOVERFLOW);
	m = mapv2_mk(0, 0, 0, 2, got);
	t_errno("member-get-v2-eoverflow", ioctl(fd, FAMFSIOC_MAP_GET_V2, &m),
		EOVERFLOW);
out:
	close(fd);
}

/* Overlap, bounds and device rules, per device. */
static void test_overlap(void)
{
	struct famfs_ioc_dext d[2];
	struct famfs_ioc_iext_v3 ie;
	struct famfs_ioc_map_v2 m;
	int fd, rc;

	/* "member" has 64M..72M of device 1; the same range of device 0: */
	fd = mkfile(mpt, "same-offset-dev0");
	t_ok("same-offset-other-dev", map1(fd, 8 * MiB, 64 * MiB, 8 * MiB));
	close(fd);
	fd = v3file("ov-dev1", 1, 68 * MiB, TWO_MiB, &rc);
	t_errno("overlap-dev1", rc, EADDRINUSE);
	close(fd);
	fd = v3file("ov-dev0", 0, 70 * MiB, TWO_MiB, &rc);
	t_errno("overlap-dev0", rc, EADDRINUSE);
	close(fd);
	fd = v3file("adjacent-dev1", 1, 72 * MiB, TWO_MiB, &rc);
	t_ok("adjacent-dev1", rc);
	close(fd);

	/* One map, the same offset on both devices: no overlap. */
	d[0] = dext(0, 80 * MiB, TWO_MiB);
	d[1] = dext(1, 80 * MiB, TWO_MiB);
	fd = mkfile(mpt, "both-80m");
	t_ok("one-map-same-offset-two-devs", mapv3(fd, 4 * MiB, 2, d));
	close(fd);
	d[0] = dext(1, 90 * MiB, 4 * MiB);
	d[1] = dext(1, 92 * MiB, TWO_MiB);
	fd = mkfile(mpt, "self-overlap");
	t_errno("one-map-overlap-itself", mapv3(fd, 6 * MiB, 2, d),
		EADDRINUSE);
	close(fd);

	/* Devices and bounds. */
	fd = mkfile(mpt, "rules");
	d[0] = dext(2, 96 * MiB, TWO_MiB);
	t_errno("v3-unattached-dev", mapv3(fd, TWO_MiB, 1, d), ENODEV);
	d[0] = dext(FAMFS_MAX_DEVS, 96 * MiB, TWO_MiB);
	t_errno("v3-dev-max", mapv3(fd, TWO_MiB, 1, d), ENODEV);
	d[0] = dext(1, 96 * MiB, TWO_MiB);
	d[0].reserved = 7;
	t_errno("v3-reserved", mapv3(fd, TWO_MiB, 1, d), EINVAL);
	d[0] = dext(1, 0, TWO_MiB);
	t_errno("v3-dev1-offset-0", mapv3(fd, TWO_MiB, 1, d), EINVAL);
	/* .meta files live on the primary: not over a member's superblock */
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_SUPERBLOCK, TWO_MiB, 1, d);
	t_errno("v3-superblock-on-dev1", ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m),
		EINVAL);
	d[0] = dext(1, 96 * MiB, TWO_MiB);
	m = mapv2_mk(SIMPLE_DAX_EXTENT, FAMFS_LOG, TWO_MiB, 1, d);
	t_errno("v3-log-on-dev1", ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m), EINVAL);
	d[0] = dext(1, 96 * MiB + 4096, TWO_MiB);
	t_errno("v3-dev1-unaligned", mapv3(fd, TWO_MiB, 1, d), EINVAL);
	d[0] = dext(1, size1 - TWO_MiB, 4 * MiB);
	t_errno("v3-past-dev1-size", mapv3(fd, 4 * MiB, 1, d), ENXIO);
	d[0] = dext(1, size1, TWO_MiB);
	t_errno("v3-at-dev1-size", mapv3(fd, TWO_MiB, 1, d), ENXIO);
	/* An unused strip must be all 0, devindex included. */
	memset(&ie, 0, sizeof(ie));
	ie.nstrips = 1;
	ie.chunk_size = TWO_MiB;
	ie.nbytes = TWO_MiB;
	ie.strips[0] = dext(1, 96 * MiB, TWO_MiB);
	ie.strips[1].devindex = 1;
	m = mapv2_mk(FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, TWO_MiB, 1, &ie);
	t_errno("v3-unused-strip-dev", ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m),
		EINVAL);
	ie.strips[1].devindex = 0;
	ie.strips[0].devindex = 5;
	t_errno("v3-strip-unattached", ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m),
		ENODEV);
	ie.strips[0].devindex = 1;
	ie.strips[0].reserved = 1;
	t_errno("v3-strip-reserved", ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m),
		EINVAL);
	/* Still unmapped after all that: now past SIZE1 on device 0 fits. */
	d[0] = dext(0, size1 - TWO_MiB, 4 * MiB);
	t_ok("v3-dev0-past-dev1-size", mapv3(fd, 4 * MiB, 1, d));
	close(fd);
}

/* The naive layout: chunk c on strip c % 2, at stripe c / 2 of it. */
static void check_stripes(const char *name, unsigned long long base,
			  unsigned long long nbytes, uint64_t seed)
{
	unsigned long long c, nchunks = nbytes / TWO_MiB;
	char n[64];

	for (c = 0; c < nchunks; c++) {
		struct t_dev *d = c % 2 ? &raw1 : &raw0;

		snprintf(n, sizeof(n), "%s-chunk-%llu", name, c);
		if (!t_devcheck(d, n, base + (c / 2) * TWO_MiB, TWO_MiB, seed,
				c * TWO_MiB))
			return;
	}
	t_pass(name);
}

static int stripe_file(const char *name, unsigned long long base,
		       unsigned long long strip_len, int *rc)
{
	struct famfs_ioc_iext_v3 ie;
	struct famfs_ioc_map_v2 m;
	int fd = mkfile(mpt, name);

	memset(&ie, 0, sizeof(ie));
	ie.nstrips = 2;
	ie.chunk_size = TWO_MiB;
	ie.nbytes = 2 * strip_len;
	ie.strips[0] = dext(0, base, strip_len);
	ie.strips[1] = dext(1, base, strip_len);
	m = mapv2_mk(FAMFS_INTERLEAVED_EXTENT, FAMFS_REG, 2 * strip_len, 1,
		     &ie);
	*rc = ioctl(fd, FAMFSIOC_MAP_CREATE_V3, &m);
	return fd;
}

/* 32 MiB striped over device 0 and device 1 in 2 MiB chunks. */
static void test_stripe(void)
{
	unsigned long long len = 32 * MiB;
	struct famfs_ioc_iext_v3 got;
	struct famfs_ioc_map_v2 m;
	char *p, *buf;
	int rc, fd = stripe_file("stripe", 128 * MiB, 16 * MiB, &rc);

	raw_open();
	if (!t_ok("stripe-map", rc))
		goto out;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("stripe-mmap", "%s", t_errname(errno));
		goto out;
	}
	fill(p, 0x2222, 0, len);
	msync(p, len, MS_SYNC);
	munmap(p, len);
	check_stripes("stripe-bytes-on-both-devs", 128 * MiB, len, 0x2222);
	buf = malloc(len);
	if (!buf)
		die("malloc");
	t_equ("stripe-read-len", len, pread(fd, buf, len, 0));
	t_true("stripe-read-pattern", check(buf, 0x2222, 0, len) < 0,
	       "read(2) does not give the pattern written through mmap");
	free(buf);

	memset(&got, 0, sizeof(got));
	m = mapv2_mk(0, 0, 0, 1, &got);
	if (t_ok("stripe-get-v3", ioctl(fd, FAMFSIOC_MAP_GET_V3, &m))) {
		t_equ("stripe-get-v3-type", FAMFS_INTERLEAVED_EXTENT,
		      m.extent_type);
		t_equ("stripe-get-v3-strips", 2, got.nstrips);
		t_equ("stripe-get-v3-dev0", 0, got.strips[0].devindex);
		t_equ("stripe-get-v3-dev1", 1, got.strips[1].devindex);
		t_equ("stripe-get-v3-off1", 128 * MiB, got.strips[1].offset);
	}
out:
	close(fd);
}

/* f_blocks sums both devices; a member file's memory is counted. */
static void test_statfs(void)
{
	struct statfs s;
	unsigned long long before;
	int rc, fd;

	if (statfs(mpt, &s))
		die("statfs");
	t_equ("statfs-blocks-sum", (size0 + size1) / 4096, s.f_blocks);
	before = t_bfree(mpt);
	fd = v3file("statfs", 1, 200 * MiB, TWO_MiB, &rc);
	t_ok("statfs-map", rc);
	t_equ("statfs-member-file-used", TWO_MiB / 4096,
	      before - t_bfree(mpt));
	close(fd);
}

/* 64 MiB striped: 32 PMD faults writing, 32 reading (the suite traces). */
static void test_pmd(void)
{
	unsigned long long len = 64 * MiB;
	unsigned long sum;
	long nf;
	char *p;
	int rc, fd = stripe_file("pmd", 256 * MiB, 32 * MiB, &rc);

	if (!t_ok("pmd-map", rc))
		goto out;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("pmd-mmap", "%s", t_errname(errno));
		goto out;
	}
	t_true("pmd-mmap-aligned", ((uintptr_t)p & (TWO_MiB - 1)) == 0,
	       "mapping not 2 MiB aligned");
	nf = t_touch_faults(p, len, 1, NULL);
	printf("info: %ld minor faults writing 64 MiB striped over 2 devices\n",
	       nf);
	t_between("pmd-write-faults", 32, 40, nf,
		  "faults for 64 MiB (16384 means 4 KiB faults)");
	munmap(p, len);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("pmd-mmap-read", "%s", t_errname(errno));
		goto out;
	}
	nf = t_touch_faults(p, len, 0, &sum);
	printf("info: %ld minor faults reading 64 MiB, sum %lu\n", nf, sum);
	t_between("pmd-read-faults", 32, 40, nf, "faults for 64 MiB");
	munmap(p, len);
out:
	close(fd);
}

/* Attach member 1 on a fresh mount; a file on each device, filled. */
static void add_with_files(const char *id)
{
	int root = root_fd(), fd = open_dev1(), rc, f;
	char n[64];
	char *buf = malloc(4 * MiB);

	if (!buf)
		die("malloc");
	t_ok(id, dev_add(root, fd, 1, size1));
	close(fd);
	close(root);
	fill(buf, 0x3333, 0, 4 * MiB);
	f = v3file("r0", 0, 320 * MiB, 4 * MiB, &rc);
	snprintf(n, sizeof(n), "%s-r0", id);
	if (t_ok(n, rc)) {
		snprintf(n, sizeof(n), "%s-r0-write", id);
		t_equ(n, 4 * MiB, pwrite(f, buf, 4 * MiB, 0));
	}
	close(f);
	f = v3file("r1", 1, 320 * MiB, 4 * MiB, &rc);
	snprintf(n, sizeof(n), "%s-r1", id);
	if (t_ok(n, rc)) {
		snprintf(n, sizeof(n), "%s-r1-write", id);
		t_equ(n, 4 * MiB, pwrite(f, buf, 4 * MiB, 0));
	}
	close(f);
	free(buf);
}

static void test_add_removal(void)
{
	add_with_files("add-removal");
}

/* After a memory failure in member 1: both devices say the mount failed,
 * only member 1 that it caused it (FAMFS_DEV_CAUSE). */
static void poison_flags(void)
{
	const unsigned int both = FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE;
	struct famfs_ioc_dev_info i0 = { .index = 0 }, i1 = { .index = 1 };
	int root = root_fd();

	if (t_ok("poison-get-0", ioctl(root, FAMFSIOC_DEV_GET, &i0)))
		t_equ("poison-flags-0", FAMFS_DEV_FAILED, i0.flags & both);
	if (t_ok("poison-get-1", ioctl(root, FAMFSIOC_DEV_GET, &i1)))
		t_equ("poison-flags-1", both, i1.flags & both);
	close(root);
}

/* A memory failure in a page of member 1 (fsdax): SIGBUS, the mount fails. */
static void test_add_poison(void)
{
	struct famfs_ioc_dext e = dext(0, 340 * MiB, TWO_MiB);
	unsigned long long len = 4 * MiB;
	char *p;
	int rc, fd;

	if (cdev1) {
		t_skip("poison", "memory failure is tested on fsdax only");
		return;
	}
	if (!t_hwpoison_available("poison"))
		return;
	add_with_files("add-poison");
	fd = v3file("poison", 1, 300 * MiB, len, &rc);
	if (!t_ok("poison-map", rc))
		goto out;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		t_fail("poison-mmap", "%s", t_errname(errno));
		goto out;
	}
	fill(p, 0x4444, 0, len);
	if (t_hwpoison("poison", p + 8192)) {
		t_true("poison-sigbus", t_sigbus_hit, "no SIGBUS");
		t_equ("poison-sigbus-addr", 8192,
		      (unsigned long long)((char *)t_sigbus_addr - p));
	}
	munmap(p, len);
	close(fd);
	poison_flags();
	fd = mkfile(mpt, "after-poison");
	t_errno("poison-create-v3-eio", mapv3(fd, TWO_MiB, 1, &e), EIO);
out:
	close(fd);
}

/* Attach member 1 only (a read-only mount takes no maps): see the suite. */
static void test_add_only(void)
{
	int root = root_fd(), fd = open_dev1();

	t_ok("add-only", dev_add(root, fd, 1, size1));
	close(fd);
	close(root);
}

/* One DEV_ADD refused for DEV1's size. */
static void test_add_fail_once(void)
{
	int root = root_fd(), fd = open_dev1();

	t_errno("add-fail-once", dev_add(root, fd, 1, devsize1 + TWO_MiB),
		ENOSPC);
	close(fd);
	close(root);
}

/*
 * A DEV_ADD of DEV1 (here a device whose memory is not one run of pages: a
 * device-mapper device over pieces of a namespace) refused: EOPNOTSUPP.
 */
static void test_add_noncontig(void)
{
	int root = root_fd(), fd = open_dev1();

	t_errno("add-noncontig-refused", dev_add(root, fd, 1, size1),
		EOPNOTSUPP);
	close(fd);
	close(root);
}

#define READY	"/tmp/module_multidev.ready"
#define STOP	"/tmp/module_multidev.stop"

/*
 * Failing DEV_ADDs (ENOSPC) of DEV1 until STOP exists (at most 5 min);
 * READY once DEV1 was looked at (the suite removes it only then).
 */
static void test_add_fail_loop(void)
{
	unsigned long n = 0, enospc = 0;
	time_t end = time(NULL) + 300;
	int root = root_fd(), fd;

	t_post(READY);
	while (access(STOP, F_OK) && time(NULL) < end) {
		fd = open(dev1, O_RDONLY);
		if (fd < 0) {		/* removed: back soon */
			usleep(1000);
			continue;
		}
		n++;
		if (!dev_add(root, fd, 1, devsize1 + TWO_MiB))
			t_fail("add-fail-loop-refused",
			       "a DEV_ADD of %llu bytes of a device of %llu succeeded",
			       devsize1 + TWO_MiB, devsize1);
		else if (errno == ENOSPC)
			enospc++;
		close(fd);
	}
	printf("info: %lu DEV_ADDs, %lu refused with ENOSPC\n", n, enospc);
	t_true("add-fail-loop-enospc", enospc > 0,
	       "no DEV_ADD was refused for the device's size");
	close(root);
}

/* After add-fail-loop: a DEV_ADD that failed changed nothing. */
static void test_add_fail_check(void)
{
	struct famfs_ioc_dev_info i0 = { .index = 0 }, i1 = { .index = 1 };
	int root = root_fd(), rc, fd;
	char buf[4096];

	if (t_ok("add-fail-get-0", ioctl(root, FAMFSIOC_DEV_GET, &i0)))
		t_equ("add-fail-mount-not-failed", 0, i0.flags &
		      (FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE));
	t_errno("add-fail-not-attached", ioctl(root, FAMFSIOC_DEV_GET, &i1),
		ENXIO);
	fd = v3file("after-add-fail", 0, 360 * MiB, TWO_MiB, &rc);
	if (t_ok("add-fail-map", rc))
		t_equ("add-fail-read", sizeof(buf), pread(fd, buf, sizeof(buf), 0));
	close(fd);
	close(root);
}

static const struct t_test tests[] = {
	{ "attach", test_attach, 0 },
	{ "member", test_member, 0 },
	{ "overlap", test_overlap, 0 },
	{ "stripe", test_stripe, 0 },
	{ "statfs", test_statfs, 0 },
	{ "pmd", test_pmd, 1 },
	{ "add-removal", test_add_removal, 1 },
	{ "add-poison", test_add_poison, 1 },
	{ "add-only", test_add_only, 1 },
	{ "add-fail-once", test_add_fail_once, 1 },
	{ "add-fail-loop", test_add_fail_loop, 1 },
	{ "add-fail-check", test_add_fail_check, 1 },
	{ "add-noncontig", test_add_noncontig, 1 },
};

int main(int argc, char **argv)
{
	struct stat st;

	if (argc < 4) {
		fprintf(stderr, "usage: module_multidev MPT DEV0 DEV1 [TEST...]\n");
		return 2;
	}
	mpt = argv[1];
	dev0 = argv[2];
	dev1 = argv[3];
	if (stat(dev1, &st))
		die(dev1);
	cdev1 = S_ISCHR(st.st_mode);
	size0 = dev_size_min(dev0, 480 * MiB);
	devsize1 = cdev1 ? t_dax_size(dev1) : dev_size_min(dev1, 480 * MiB);
	size1 = (devsize1 - 64 * MiB) & ~(TWO_MiB - 1);
	t_run(tests, sizeof(tests) / sizeof(tests[0]), argc - 4, argv + 4);
	return t_done(0);
}
