// SPDX-License-Identifier: GPL-2.0
/*
 * hostile_hold: keep a famfs file busy, or poison it, for the lifetime
 * suite (suites/hostile_life.sh).
 *
 *   hostile_hold hold FILE READY
 *	open FILE, map it shared and touch its first byte, then create READY
 *	and wait until killed (keeps the mount busy through a mapping).
 *   hostile_hold mapdev DEV LEN READY
 *	open DEV for writing, map LEN bytes shared, close the descriptor (the
 *	mapping alone keeps the device open), touch it, create READY, wait.
 *   hostile_hold touch FILE READY
 *	map FILE and read its first byte every 20 ms; exit 7 on SIGBUS.
 *   hostile_hold poisonat MPT READY DELAY_MS
 *	on a mount at MPT: file "victim" at device 600M..602M (the page
 *	module_poison poisons), then READY, then after DELAY_MS the failure:
 *	MADV_HWPOISON on its page at 8K (PASS fault-sigbus), while other
 *	processes keep working on the mount.
 *   hostile_hold floodpoison MPT
 *	the rate-limit case (fixed in 418e492): 20 refused MAP_CREATEs (each
 *	logged, rate limited per mount), then a memory failure at once (as
 *	poisonat with no delay); the suite then looks for the failure line.
 *   hostile_hold poison MPT
 *	on a bare kernel mount at MPT: files "victim" (device 600M..602M, the
 *	page module_poison poisons too, so no other memory of the boot is
 *	burned) and "bystander" (640M..644M) with known bytes; MADV_HWPOISON
 *	on victim's page at file offset 8K.  PASS lines: the poisoning
 *	process gets SIGBUS (BUS_MCEERR_*); read() of the victim (any page)
 *	and of the bystander get EIO; maps and names stay readable.
 *   hostile_hold mapat FILE OFFSET LEN
 *	create FILE (O_EXCL) and MAP_CREATE it to LEN bytes at device OFFSET,
 *	then exit without logging it: what a creator killed between its
 *	MAP_CREATE and its log append leaves (issue 15, cli-safety).
 *   hostile_hold hwpoison FILE OFFSET
 *	a memory failure in any famfs file: FILE mapped shared, the page at
 *	OFFSET written, then MADV_HWPOISON on it (PASS hwpoison-sigbus: the
 *	process gets SIGBUS); the suite checks what the tool says afterwards.
 *   hostile_hold healthy MPT
 *	after umount, rmmod, insmod and a new mount: map both files again;
 *	the bystander has its bytes, and so has every page of the victim but
 *	the failed one.
 */
#include "module_test.h"

/* Maps @file (all of it, shared, read-only) and reads its first byte. */
static volatile char *map_file(const char *file)
{
	volatile char *p;
	int fd = open(file, O_RDONLY);
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		die(file);
	p = mmap(NULL, st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	(void)p[0];
	return p;
}

static __attribute__((noreturn)) void hold(const char *file,
					     const char *ready)
{
	map_file(file);
	t_post(ready);
	for (;;)
		pause();
}

static int mapdev(const char *dev, unsigned long long len, const char *ready)
{
	volatile char *p;
	int fd = open(dev, O_RDWR);

	if (fd < 0)
		die(dev);
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	close(fd);
	(void)p[0];
	t_post(ready);
	for (;;)
		pause();
}

static void sigbus_exit(int sig)
{
	(void)sig;
	_exit(7);
}

static __attribute__((noreturn)) void touch(const char *file,
					      const char *ready)
{
	volatile char *p;

	signal(SIGBUS, sigbus_exit);
	p = map_file(file);
	t_post(ready);
	for (;;) {
		(void)p[0];
		usleep(20000);
	}
}

static const unsigned long long VICTIM = 600 * MiB, BYSTANDER = 640 * MiB;

static int files(const char *mpt, int create, int *v, int *b)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/victim", mpt);
	*v = open(p, O_RDWR | (create ? O_CREAT | O_EXCL : 0), 0644);
	snprintf(p, sizeof(p), "%s/bystander", mpt);
	*b = open(p, O_RDWR | (create ? O_CREAT | O_EXCL : 0), 0644);
	if (*v < 0 || *b < 0)
		die("open");
	if (map1(*v, TWO_MiB, VICTIM, TWO_MiB) ||
	    map1(*b, 4 * MiB, BYSTANDER, 4 * MiB))
		die("MAP_CREATE");
	return 0;
}

/* The victim mapped, its page at 8K (the one to poison) written. */
static char *map_victim(int v)
{
	char *pv = mmap(NULL, TWO_MiB, PROT_READ | PROT_WRITE, MAP_SHARED, v,
			0);

	if (pv == MAP_FAILED)
		die("mmap");
	pv[8192] = 1;
	return pv;
}

static int poisonat(const char *mpt, const char *ready, int delay_ms)
{
	char p[512], *pv;
	int v;

	if (!t_hwpoison_available("fault")) {
		t_post(ready);
		return 0;
	}
	snprintf(p, sizeof(p), "%s/victim", mpt);
	v = open(p, O_RDWR | O_CREAT | O_EXCL, 0644);
	if (v < 0 || map1(v, TWO_MiB, VICTIM, TWO_MiB))
		die("victim");
	pv = map_victim(v);
	t_post(ready);
	usleep(delay_ms * 1000);
	if (!t_hwpoison("fault", pv + 8192))
		return t_failed;
	t_true("fault-sigbus", t_sigbus_hit,
	       "the poisoning process got no SIGBUS");
	t_errno("fault-read-eio", pread(v, p, 64, 0), EIO);
	munmap(pv, TWO_MiB);
	close(v);
	return t_failed;
}

static int poison(const char *mpt)
{
	static char buf[4 * MiB];
	struct famfs_ioc_map got;
	char *pv;
	int v, b;

	if (!t_hwpoison_available("poison"))
		return 0;
	files(mpt, 1, &v, &b);
	fill(buf, 77, 0, 4 * MiB);
	if (pwrite(b, buf, 4 * MiB, 0) != (ssize_t)(4 * MiB) ||
	    pwrite(v, buf, TWO_MiB, 0) != (ssize_t)TWO_MiB)
		die("pwrite");
	pv = map_victim(v);

	if (!t_hwpoison("poison", pv + 8192))
		return t_failed;
	t_true("poison-sigbus", t_sigbus_hit,
	       "the poisoning process got no SIGBUS");
	t_true("poison-sigbus-mceerr", t_sigbus_code == BUS_MCEERR_AR ||
	       t_sigbus_code == BUS_MCEERR_AO, "SIGBUS without BUS_MCEERR_*");
	t_errno("read-poisoned-page-eio", pread(v, buf, 4096, 8192), EIO);
	t_errno("read-victim-other-page-eio", pread(v, buf, 4096, 0), EIO);
	t_errno("read-bystander-eio", pread(b, buf, 4096, 0), EIO);
	t_ok("map-get-victim", ioctl(v, FAMFSIOC_MAP_GET, &got));
	t_equ("map-get-victim-offset", VICTIM, got.ext_list[0].offset);
	munmap(pv, TWO_MiB);
	close(v);
	close(b);
	return t_failed;
}

static int healthy(const char *mpt)
{
	static char buf[4 * MiB];
	int v, b;

	files(mpt, 1, &v, &b);
	t_equ("healthy-read-bystander", 4 * MiB, pread(b, buf, 4 * MiB, 0));
	t_true("healthy-bystander-bytes", check(buf, 77, 0, 4 * MiB) < 0,
	       "the bystander lost its bytes");
	/* Only the failed page may have lost its bytes (it was also written
	 * through the mapping just before the failure). */
	if (t_equ("healthy-read-victim", TWO_MiB, pread(v, buf, TWO_MiB, 0))) {
		t_true("healthy-victim-other-pages", check(buf, 77, 0, 8192) < 0 &&
		       check(buf + 12288, 77, 12288, TWO_MiB - 12288) < 0,
		       "a page of the victim other than the failed one changed");
		printf("info: the failed page reads back %s\n",
		       check(buf + 8192 + 8, 77, 8192 + 8, 4096 - 8) < 0 ?
		       "as before the failure (poisoned by software only)" :
		       "changed");
	}
	close(v);
	close(b);
	return t_failed;
}

static int hwpoison(const char *file, unsigned long long off)
{
	struct stat st;
	char *p;
	int fd = open(file, O_RDWR);

	if (fd < 0 || fstat(fd, &st))
		die(file);
	if (!t_hwpoison_available("hwpoison"))
		return 0;
	if (off + 4096 > (unsigned long long)st.st_size) {
		t_fail("hwpoison", "%s: offset %llu past its end", file, off);
		return t_failed;
	}
	p = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		die("mmap");
	p[off] = 1;
	if (t_hwpoison("hwpoison", p + off))
		t_true("hwpoison-sigbus", t_sigbus_hit, "the poisoning process got no SIGBUS");
	munmap(p, st.st_size);
	close(fd);
	return t_failed;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "hold"))
		hold(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "mapdev"))
		return mapdev(argv[2], strtoull(argv[3], NULL, 0), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "touch"))
		touch(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "poisonat"))
		return t_done(poisonat(argv[2], argv[3], atoi(argv[4])));
	if (argc == 3 && !strcmp(argv[1], "floodpoison")) {
		char p[512];
		int fd, i;

		snprintf(p, sizeof(p), "%s/flood", argv[2]);
		fd = open(p, O_RDWR | O_CREAT | O_EXCL, 0644);
		if (fd < 0)
			die(p);
		for (i = 0; i < 20; i++)
			map1(fd, TWO_MiB, 1, TWO_MiB);	/* EINVAL, logged */
		close(fd);
		snprintf(p, sizeof(p), "%s/flood-ready", argv[2]);
		return t_done(poisonat(argv[2], p, 0));
	}
	if (argc == 3 && !strcmp(argv[1], "poison"))
		return t_done(poison(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "hwpoison"))
		return t_done(hwpoison(argv[2], strtoull(argv[3], NULL, 0)));
	if (argc == 5 && !strcmp(argv[1], "mapat")) {
		unsigned long long len = strtoull(argv[4], NULL, 0);
		int fd = open(argv[2], O_RDWR | O_CREAT | O_EXCL, 0600);

		if (fd < 0)
			die(argv[2]);
		if (map1(fd, len, strtoull(argv[3], NULL, 0), len))
			die("MAP_CREATE");
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "healthy"))
		return t_done(healthy(argv[2]));
	fprintf(stderr, "usage: hostile_hold hold FILE READY | mapdev DEV LEN READY | touch FILE READY |\n"
		"       poisonat MPT READY DELAY_MS | poison MPT | healthy MPT |\n"
		"       mapat FILE OFFSET LEN | hwpoison FILE OFFSET\n");
	return 2;
}
