// SPDX-License-Identifier: GPL-2.0
/*
 * replay-icount: what a famfs logplay (host check-in, replay, check-in
 * with this host's holds: cmd_logplay's three steps) costs in user-space
 * instructions on the unit tests' mock (a plain file for the device, a
 * directory for the mount), for the bench's lifecycle logs (issue 29):
 *   empty    a fresh log, an empty tree
 *   create   N creates of 4 KiB files, an empty tree (makes them)
 *   base     N creates, the tree has them (nothing to do)
 *   delete   N creates + N DELETEs (one famfs rm of the N files), the
 *            tree has them (removes them)
 * every log with the host table (famfs hosts init after mkfs).
 * Run under valgrind --tool=callgrind --toggle-collect=measured (the kernel's
 * part, the syscalls, is not counted: scripts/replay-icount.sh).
 * Usage: replay-icount KIND N  (KIND rm: famfs rm of one file and a
 * create of one, measured_rm and measured_create)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "th.h"
#include "ops/ops.h"
#include "replay/replay.h"

/* linked with -Wl,--wrap=mmap,--wrap=munmap: valgrind refuses the log's
 * 64 GiB address space reservation (fs/logseg.c); 1 GiB is room for the
 * bench's logs, and the reservation's tail that fs/logseg.c gives back is
 * then not ours to unmap */
#define SMALL_VA ((1ULL << 30) + FAMFS_ALLOC_UNIT)
static char *resv;
void *__real_mmap(void *a, size_t len, int prot, int flags, int fd, off_t off);
int __real_munmap(void *a, size_t len);
void *__wrap_mmap(void *a, size_t len, int prot, int flags, int fd, off_t off)
{
	void *v;

	if (len != FAMFS_LOG_TOTAL_MAX + FAMFS_ALLOC_UNIT || prot != PROT_NONE)
		return __real_mmap(a, len, prot, flags, fd, off);
	v = __real_mmap(a, SMALL_VA, prot, flags, fd, off);
	resv = v == MAP_FAILED ? NULL : v;
	return v;
}

int __wrap_munmap(void *a, size_t len)
{
	char *p = a;

	if (resv && p >= resv + SMALL_VA &&
	    p < resv + FAMFS_LOG_TOTAL_MAX + FAMFS_ALLOC_UNIT)
		return 0;
	if (resv && p >= resv && p < resv + SMALL_VA && p + len > resv + SMALL_VA)
		len = (size_t)(resv + SMALL_VA - p);
	return __real_munmap(a, len);
}

static void img_copy(const char *from, const char *to)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", from, to);
	if (system(cmd))
		exit(2);
}

/* the image's bytes put back in place (the file stays: its mapping too) */
static void img_put(struct th *t, const char *from)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "dd if='%s' of='%s' bs=1M conv=notrunc status=none",
		 from, t->img);
	if (system(cmd) || th_reopen(t))
		exit(2);
}

/* a fresh mount: an empty tree, the mock forgets every map */
static void remount(struct th *t)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/.meta'", t->mpt, t->mpt);
	if (system(cmd))
		exit(2);
	th_mock_reset();
}

static __attribute__((noinline)) int play3(struct famfs_fs *fs)
{
	struct famfs_logplay_result r = { 0 };
	uint64_t n0 = famfs_log_refresh_next(fs);
	struct famfs_logplay *lp = famfs_logplay_new(n0);
	int rc = famfs_hosts_checkin(fs, false, false, 0, NULL);

	if (!rc)
		rc = famfs_logplay_more(lp, fs, false, &r, NULL, NULL);
	if (!rc)
		rc = famfs_hosts_checkin_lp(fs, false, true, n0, lp, NULL);
	famfs_logplay_free(lp);
	if (rc || r.errors || r.conflicts || r.bad_entries)
		fprintf(stderr, "replay-icount: rc %d, %lu errors, %lu conflicts, %lu bad\n",
			rc, r.errors, r.conflicts, r.bad_entries);
	printf("created %lu removed %lu present %lu\n", r.created_files,
	       r.removed, r.present);
	return rc;
}

/* what callgrind counts (--toggle-collect=measured) */
__attribute__((noinline)) int measured(struct famfs_fs *fs)
{
	return play3(fs);
}

/* famfs rm of one file and a create of one, the host table armed (as the
 * bench's rm part: famfs hosts init, then n files): what rm costs against
 * a create, each from a fresh opening as a famfs process has */
__attribute__((noinline)) int measured_rm(struct famfs_fs *fs, const char *p)
{
	return famfs_remove(fs, p, false);
}

__attribute__((noinline)) int measured_create(struct famfs_fs *fs, const char *p)
{
	int fd = famfs_file_create(fs, p, 4096, 0644, 0, 0);

	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static int rm_vs_create(unsigned n)
{
	struct th *t = th_new_fmt(256 * MiB, 16 * MiB, true);
	char p[64];
	int rc;

	if (famfs_hosts_init(&t->fs) || famfs_mkdir(&t->fs, "l", 0755, 0, 0, false))
		return 2;
	for (unsigned i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "l/f%u", i);
		th_create_ok(&t->fs, p, 4096);
	}
	int step = 0;

	/* the first rm registers the master in the table (a scan of every
	 * slot, once): the one measured is the next one's */
	if ((++step, rc = famfs_remove(&t->fs, "l/f0", false)) ||
	    (++step, rc = th_reopen(t)) ||
	    (++step, rc = measured_create(&t->fs, "l/one")) ||
	    (++step, rc = th_reopen(t)) ||
	    (++step, rc = measured_rm(&t->fs, "l/one")))
		fprintf(stderr, "replay-icount rm: step %d: %d\n", step, rc);
	return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
	char empty[400], create[400], del[400], p[64];
	struct th *t;
	unsigned n;

	if (argc != 3)
		return 2;
	n = (unsigned)atoi(argv[2]);
	famfs_quiet = 1;
	if (!strcmp(argv[1], "rm"))
		return rm_vs_create(n);
	t = th_new_fmt(256 * MiB, 16 * MiB, true);
	snprintf(empty, sizeof(empty), "%s/img.empty", t->dir);
	snprintf(create, sizeof(create), "%s/img.create", t->dir);
	snprintf(del, sizeof(del), "%s/img.delete", t->dir);
	/* the host table made right after mkfs (famfs hosts init), as the
	 * bench's logs have it: every kind's replay registers this host */
	if (famfs_hosts_init(&t->fs))
		return 2;
	img_copy(t->img, empty);
	if (famfs_mkdir(&t->fs, "l", 0755, 0, 0, false))
		return 2;
	for (unsigned i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "l/f%u", i);
		th_create_ok(&t->fs, p, 4096);
	}
	img_copy(t->img, create);
	for (unsigned i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "l/f%u", i);
		if (famfs_remove(&t->fs, p, false))
			return 2;
	}
	img_copy(t->img, del);
	remount(t);
	if (!strcmp(argv[1], "empty")) {
		img_put(t, empty);
	} else {
		img_put(t, create);
		if (strcmp(argv[1], "create")) {
			if (play3(&t->fs))
				return 1;
			if (!strcmp(argv[1], "delete"))
				img_put(t, del);
		}
	}
	return measured(&t->fs) ? 1 : 0;
}
