// SPDX-License-Identifier: GPL-2.0
/* Attaching members to a mount (issue 16, attach.c) with the mock's
 * DEV_ADD/DEV_GET/MAP_CREATE_V3 (helpers/th_dev.c): members found by
 * device uuid, not by index alone (the orphan of a devadd that crashed
 * before its log entry shares an index with the real member); the members
 * a host has are attached even when another is missing; a follower that
 * lacked a member when its DEVADD came attaches it later and creates the
 * files on it; fsck is not fooled by an orphan either. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

static const uint8_t U1[16] = { 0xd1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t U2[16] = { 0xd2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
static const uint8_t U9[16] = { 0xd9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9 };
#define MSIZE (32 * MiB)

struct ax {
	struct th *t;
	char devs[320];		/* the scan root: this host's "devices" */
};

static int setup(void **state)
{
	struct ax *x = calloc(1, sizeof(*x));

	assert_non_null(x);
	x->t = th_new_fmt(64 * MiB, 2 * MiB, true);
	th_sb_media(x->t)->feature_incompat =
		htole32(le32toh(x->t->fs.sb->feature_incompat) |
			FAMFS_FEATURE_INCOMPAT_MULTIDEV);
	th_sb_commit(x->t);
	snprintf(x->devs, sizeof(x->devs), "%s/dev", x->t->dir);
	assert_int_equal(mkdir(x->devs, 0755), 0);
	famfs_scan_root = x->devs;
	*state = x;
	return 0;
}

static int teardown(void **state)
{
	struct ax *x = *state;
	void *t = x->t;

	famfs_scan_root = "/dev";
	free(x);
	return th_teardown(&t);
}

/* a member superblock of this fs on the plain file devs/name */
static void member_file(struct ax *x, const char *name, const uint8_t *u,
			uint32_t index)
{
	struct famfs_member_sb m;
	char p[400];
	int fd;

	famfs_member_init(&m, x->t->fs.sb->fs_uuid, u, index,
			  le64toh(x->t->fs.sb->ctime), MSIZE);
	snprintf(p, sizeof(p), "%s/%s", x->devs, name);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, MSIZE), 0);
	assert_int_equal(pwrite(fd, &m, sizeof(m), 0), (ssize_t)sizeof(m));
	close(fd);
}

/* is member index attached, and to devs/name? */
static bool attached_to(struct ax *x, unsigned index, const char *name)
{
	char p[400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", x->devs, name);
	assert_int_equal(stat(p, &st), 0);
	return th_mock_devs[index].on && th_mock_devs[index].ino == st.st_ino &&
	       th_mock_devs[index].dev == st.st_dev;
}

static void log_devadd(struct famfs_fs *fs, uint32_t index, const uint8_t *u)
{
	struct famfs_log_entry e;

	famfs_entry_build_devadd(&e, index, u, MSIZE);
	assert_int_equal(famfs_log_append(fs, &e), 0);
}

/* A devadd that crashed after writing the member superblock of pmem4
 * (index 1, device uuid U9) and before its log entry; the next devadd made
 * pmem3 member 1 (U1).  Both superblocks say index 1: the log's uuid
 * decides, pmem4 is not a member and must not stop the mount. */
static void test_orphan_index_resolved_by_uuid(void **state)
{
	struct ax *x = *state;

	member_file(x, "pmem3", U1, 1);
	member_file(x, "pmem4", U9, 1);
	log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), 0);
	assert_true(attached_to(x, 1, "pmem3"));
	/* the same with the orphan scanned first (a hint) */
	th_mock_devs_reset();
	{
		char h[400];
		const char *hints[1] = { h };

		snprintf(h, sizeof(h), "%s/pmem4", x->devs);
		assert_int_equal(famfs_fs_attach_members(&x->t->fs, hints, 1), 0);
	}
	assert_true(attached_to(x, 1, "pmem3"));
}

/* a0bfca0: the first DEVADD of an index takes member 1 in the table once
 * it reads whole, after a later duplicate (the old master's devadd of
 * index 1 again) was added while it did not -- but what was attached
 * meanwhile stays: famfs.ko has the duplicate's device as member 1 (an
 * attach asked famfs.ko about the index only) until the unmount, so this
 * host would map member 1 files on pmem4 while every host that read k
 * whole maps them on pmem3.  The attach compares the device famfs.ko has
 * (DEV_GET's device number, its member superblock) with the table's:
 * -ESTALE, said once (the index, both device uuids, the way out), and no
 * file is placed on member 1 here (this log, with its duplicate, allows
 * no create at all: the placement is asked itself). */
static void test_stuck_duplicate_attached_stays(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	struct famfs_place pl = { .has_dev = true, .dev = 1 };
	char msg[8192], u1[37], u2[37], why[FAMFS_REASON_LEN];
	struct famfs_alloc a;
	uint8_t *p, keep;
	bool skipped;
	uint64_t k;
	int rc;

	member_file(x, "pmem3", U1, 1);
	member_file(x, "pmem4", U2, 1);
	k = famfs_log_next(fs->log);
	log_devadd(fs, 1, U1);
	p = famfs_clog_slot(fs->log, k) + sizeof(struct famfs_clog_hdr) + 4;
	keep = *p;
	*p ^= 0xff;
	famfs_logdevs_init(&fs->devs, fs->sb);
	famfs_quiet = 1;
	log_devadd(fs, 1, U2);
	famfs_logdevs_init(&fs->devs, fs->sb);
	/* this host: k does not read whole (an append under way) */
	famfs_fs_attach_members(fs, NULL, 0);
	famfs_quiet = 0;
	assert_true(attached_to(x, 1, "pmem4"));
	*p = keep;
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	th_stderr_grab();
	rc = famfs_fs_attach_members(fs, NULL, 0);
	th_stderr_take(msg, sizeof(msg));
	assert_memory_equal(fs->devs.dev[1].dev_uuid, U1, 16);
	assert_int_equal(famfs_fs_members_missing(fs), 0);
	/* famfs.ko keeps pmem4 until the unmount */
	assert_true(attached_to(x, 1, "pmem4"));
	assert_int_equal(rc, -ESTALE);
	famfs_uuid_str(U1, u1);
	famfs_uuid_str(U2, u2);
	if (!strstr(msg, "member 1") || !strstr(msg, u1) || !strstr(msg, u2) ||
	    !strstr(msg, "mount again"))
		fail_msg("not said (member 1, %s, %s, mount again): %s", u1, u2,
			 msg);
	/* no new file goes on member 1 here (pmem4's memory): --device 1
	 * refused, the policy does not choose it */
	assert_int_equal(famfs_alloc_init(&a, fs->sb), 0);
	assert_int_equal(famfs_alloc_sync(&a, &fs->devs), 0);
	assert_int_equal(famfs_place_here(fs, &a, &pl, 0, &skipped, why),
			 -ENODEV);
	assert_non_null(strstr(why, "mount again"));
	pl.has_dev = false;
	assert_int_equal(famfs_place_here(fs, &a, &pl, 0, &skipped, why), 0);
	assert_true(pl.absent >> 1 & 1);
	famfs_alloc_free(&a);
}

/* famfs devices: a member superblock at an index the log does not use
 * (famfs devices label's) is listed as that index's member; two such that
 * carry the same device uuid (a copied device) are -ENOTUNIQ -- "two
 * devices that claim the same device uuid are an error" (famfs-devices(8))
 * -- as two claiming the same index are */
static void test_devices_unused_index_dup_uuid(void **state)
{
	struct ax *x = *state;
	struct famfs_devtab *t = malloc(sizeof(*t));
	const char *hints[1] = { x->t->img };

	assert_non_null(t);
	member_file(x, "pmem3", U1, 1);
	log_devadd(&x->t->fs, 1, U1);
	member_file(x, "pmem5", U9, 3);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), 0);
	assert_int_equal(t->nfound, 3);
	assert_true(t->dev[3].present);
	assert_memory_equal(t->dev[3].dev_uuid, U9, 16);
	assert_int_equal(t->norphans, 0);
	/* a copy of it labelled as member 4 */
	member_file(x, "pmem6", U9, 4);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), -ENOTUNIQ);
	/* two at index 3 */
	member_file(x, "pmem6", U2, 3);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), -ENOTUNIQ);
	free(t);
}

/* ... and one of an earlier file system that reused the uuid (another
 * fs_ctime) is not listed as a member, as discovery ignores it */
static void test_devices_unused_index_earlier_fs(void **state)
{
	struct ax *x = *state;
	struct famfs_devtab *t = malloc(sizeof(*t));
	const char *hints[1] = { x->t->img };
	struct famfs_member_sb m;
	char p[400];
	int fd;

	assert_non_null(t);
	member_file(x, "pmem5", U9, 3);
	famfs_member_init(&m, x->t->fs.sb->fs_uuid, U2, 4,
			  le64toh(x->t->fs.sb->ctime) - 100, MSIZE);
	snprintf(p, sizeof(p), "%s/pmem6", x->devs);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, MSIZE), 0);
	assert_int_equal(pwrite(fd, &m, sizeof(m), 0), (ssize_t)sizeof(m));
	close(fd);
	famfs_quiet = 1;
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), 0);
	famfs_quiet = 0;
	assert_int_equal(t->nfound, 2);
	assert_true(t->dev[3].present);
	assert_false(t->dev[4].present);
	free(t);
}

/* famfs devices lists what mount attaches: the member the log names,
 * and the orphan of the crashed devadd as an orphan -- not "refusing to
 * guess" between the two */
static void test_devices_list_orphan(void **state)
{
	struct ax *x = *state;
	struct famfs_devtab *t = malloc(sizeof(*t));
	const char *hints[1] = { x->t->img };

	assert_non_null(t);
	member_file(x, "pmem3", U1, 1);
	member_file(x, "pmem4", U9, 1);
	log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_devtab(&x->t->fs, hints, 1, t), 0);
	assert_int_equal(t->nfound, 2);
	assert_true(t->dev[0].present);
	assert_true(t->dev[1].present);
	assert_non_null(strstr(t->dev[1].path, "/pmem3"));
	assert_memory_equal(t->dev[1].dev_uuid, U1, 16);
	assert_int_equal(t->norphans, 1);
	assert_non_null(strstr(t->orphan[0].path, "/pmem4"));
	assert_memory_equal(t->orphan[0].dev_uuid, U9, 16);
	assert_int_equal(t->orphan_index[0], 1);
	free(t);
}

/* Two copies of one member (same device uuid) stay a refusal. */
static void test_copied_member_refused(void **state)
{
	struct ax *x = *state;

	member_file(x, "pmem3", U1, 1);
	member_file(x, "pmem5", U1, 1);
	log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), -EEXIST);
	assert_false(th_mock_devs[1].on);
}

/* A CRC-valid member superblock whose index contradicts the log (the
 * log's device uuid, another index): refused, nothing attached */
static void test_contradicting_index_refused(void **state)
{
	struct ax *x = *state;

	member_file(x, "pmem3", U1, 2);
	log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), -ENODEV);
	assert_false(th_mock_devs[1].on);
	assert_false(th_mock_devs[2].on);
}

/* Member 2 is not on this host: member 1 is attached all the same (its
 * files can be mapped), and the call says -ENODEV. */
static void test_partial_attach(void **state)
{
	struct ax *x = *state;

	member_file(x, "dax1.0", U1, 1);
	log_devadd(&x->t->fs, 1, U1);
	log_devadd(&x->t->fs, 2, U2);
	assert_int_equal(famfs_fs_attach_members(&x->t->fs, NULL, 0), -ENODEV);
	assert_true(attached_to(x, 1, "dax1.0"));
	assert_false(th_mock_devs[2].on);
}

/* fsck checks members by the log's uuid: an orphan is no problem */
static void test_fsck_orphan(void **state)
{
	struct ax *x = *state;
	struct famfs_fsck_result r;

	member_file(x, "pmem3", U1, 1);
	member_file(x, "pmem4", U9, 1);
	log_devadd(&x->t->fs, 1, U1);
	assert_int_equal(famfs_fsck(&x->t->fs, &r), 0);
	assert_int_equal(r.members_bad, 0);
	assert_true(r.dev_ok[1]);
	assert_non_null(strstr(r.dev_path[1], "pmem3"));
}

/* ---- which device famfs.ko has as a member (memberhere.c) ------------ */

/* a member superblock of this fs on the plain file at path (anywhere) */
static void member_at(struct ax *x, const char *path, const uint8_t *u,
		      uint32_t index)
{
	struct famfs_member_sb m;
	int fd;

	famfs_member_init(&m, x->t->fs.sb->fs_uuid, u, index,
			  le64toh(x->t->fs.sb->ctime), MSIZE);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, MSIZE), 0);
	assert_int_equal(pwrite(fd, &m, sizeof(m), 0), (ssize_t)sizeof(m));
	close(fd);
}

/* <dir>/other/name: a node outside the scan root (a container's -d
 * /host-dev/pmem1, a mknod'ed /dev/famfs/m1) */
static void other_path(struct ax *x, const char *name, char *p, size_t n)
{
	snprintf(p, n, "%s/other", x->t->dir);
	(void)mkdir(p, 0755);
	snprintf(p, n, "%s/other/%s", x->t->dir, name);
}

/* famfs.ko has path as member index: attached by another process (a
 * mount with its -d hints), so this one knows no path of it */
static void attached_elsewhere(const char *path, unsigned index)
{
	struct famfs_ioc_dev_add a = { .index = index, .size = MSIZE };

	a.fd = open(path, O_RDONLY);
	assert_true(a.fd >= 0);
	assert_int_equal(th_mock_dev_add(-1, &a), 0);
	close(a.fd);
}

/* what a new opening of the mount has found out: nothing (a follower
 * opens it again every round) */
static void new_opening(struct famfs_fs *fs)
{
	memset(fs->member_seen, 0, sizeof(fs->member_seen));
	fs->devs.dev[1].path[0] = '\0';
}

/* r42b 1: the log's member, attached from a -d hint outside the scan root
 * (no node of it under /dev), is the member: not refused */
static void test_member_from_hint_here(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	char p[400];
	const char *h[1] = { p };

	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U1, 1);
	log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(fs, h, 1), 0);
	assert_true(th_mock_devs[1].on);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
}

/* r42b 1, 2: famfs.ko has a device whose node this process cannot find
 * (attached from a hint by the mount), and the log's device has no node
 * here either: this host cannot tell -- said once with a way out, not
 * refused; asked again (famfs_member_recheck_s), once the log's device
 * shows up as another node than famfs.ko's it is refused */
static void test_member_cannot_tell_then_other(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	unsigned saved = famfs_member_recheck_s;
	char p[400], msg[8192], u1[37];
	int rc;

	famfs_uuid_str(U1, u1);
	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U2, 1);
	log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	attached_elsewhere(p, 1);
	th_stderr_grab();
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "member 1") || !strstr(msg, u1) || !strstr(msg, "-d ") ||
	    !strstr(msg, "cannot tell"))
		fail_msg("not said (cannot tell, member 1, %s, -d NODE): %s", u1,
			 msg);
	if (strstr(strstr(msg, "cannot tell") + 1, "cannot tell"))
		fail_msg("said twice: %s", msg);
	/* the log's device shows up here: another node than famfs.ko's,
	 * seen once the cannot-tell is asked again */
	member_file(x, "pmem3", U1, 1);
	new_opening(fs);
	th_stderr_grab();
	famfs_member_recheck_s = 0;
	rc = famfs_fs_member_here(fs, 1);
	famfs_member_recheck_s = saved;
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(rc, -ESTALE);
	assert_non_null(strstr(msg, "mount again"));
}

/* r42e MED-3: "cannot tell" is kept for famfs_member_recheck_s seconds: a
 * follower opens the mount every round, and each opening must not read
 * every candidate node again; past the interval it is asked again (a node
 * may have come) */
static void test_member_cannot_tell_kept(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	unsigned saved = famfs_member_recheck_s;
	unsigned long first, more;
	char p[400], msg[8192];
	int rc, rcs[4];

	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U2, 1);
	log_devadd(fs, 1, U1);
	for (unsigned k = 0; k < 8; k++) {	/* candidates: other devices */
		char n[32];

		snprintf(n, sizeof(n), "pmem%u", 10 + k);
		member_file(x, n, U9, 9);
	}
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	attached_elsewhere(p, 1);
	th_stderr_grab();
	famfs_dev_head_reads = 0;
	rc = famfs_fs_member_here(fs, 1);
	first = famfs_dev_head_reads;
	for (int r = 0; r < 3; r++) {
		new_opening(fs);
		rcs[r] = famfs_fs_member_here(fs, 1);
	}
	more = famfs_dev_head_reads - first;
	famfs_member_recheck_s = 0;	/* the interval over */
	new_opening(fs);
	rcs[3] = famfs_fs_member_here(fs, 1);
	famfs_member_recheck_s = saved;
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(rc, 1);
	for (int r = 0; r < 4; r++)
		assert_int_equal(rcs[r], 1);
	if (first < 8)
		fail_msg("the first opening read %lu heads (8 candidates)", first);
	if (more)
		fail_msg("3 more openings within the interval read %lu more heads (0 wanted)",
			 more);
	if (famfs_dev_head_reads - first - more < first)
		fail_msg("past the interval: %lu head reads, not asked again",
			 famfs_dev_head_reads - first - more);
}

/* r42e MED-1: famfs.ko's member size is the DEVADD size user space gave
 * it; another size than the table's DEVADD is another DEVADD's device (a
 * definite mismatch), whether or not a node of either is here: famfs.ko
 * has U2 at 2*MSIZE from a node outside the scan root, the table says U1
 * at MSIZE and has no node of it here -- refused, both sizes named */
static void test_member_other_size_refused(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	struct famfs_ioc_dev_add a = { .index = 1, .size = 2 * MSIZE };
	char p[400], msg[8192], s1[32], s2[32];

	other_path(x, "famfs-m1", p, sizeof(p));
	member_at(x, p, U2, 1);
	a.fd = open(p, O_RDWR);
	assert_true(a.fd >= 0);
	assert_int_equal(ftruncate(a.fd, 2 * MSIZE), 0);
	assert_int_equal(th_mock_dev_add(-1, &a), 0);
	close(a.fd);
	log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	th_stderr_grab();
	assert_int_equal(famfs_fs_member_here(fs, 1), -ESTALE);
	th_stderr_take(msg, sizeof(msg));
	snprintf(s1, sizeof(s1), "%llu", (unsigned long long)MSIZE);
	snprintf(s2, sizeof(s2), "%llu", (unsigned long long)(2 * MSIZE));
	if (!strstr(msg, s1) || !strstr(msg, s2) || !strstr(msg, "mount again"))
		fail_msg("both sizes (%s, %s) and the way out not named: %s",
			 s1, s2, msg);
}

/* r42e MED-2: a process that did not attach the members (famfs cp, a
 * follower's first round) finds famfs.ko's device by its number (sysfs
 * names one node) and reads it once: whole with the log's device uuid, it
 * is the member -- one head read per member, no scan of every candidate */
static void test_member_check_reads_once(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	static const char *const name[4] = { "pmem1", "pmem2", "pmem3",
					     "pmem4" };
	char p[600], sys[300];
	struct stat st;
	uint8_t u[4][16];
	FILE *f;

	snprintf(sys, sizeof(sys), "%s/sys", x->t->dir);
	assert_int_equal(mkdir(sys, 0755), 0);
	for (unsigned k = 0; k < 4; k++) {
		memcpy(u[k], U1, 16);
		u[k][15] = (uint8_t)(0x40 + k);
		member_file(x, name[k], u[k], k + 1);
		log_devadd(fs, k + 1, u[k]);
	}
	for (unsigned k = 0; k < 12; k++) {	/* other candidates */
		snprintf(p, sizeof(p), "pmem%u", 10 + k);
		member_file(x, p, U9, 9);
	}
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	for (unsigned k = 0; k < 4; k++) {
		uint32_t ma, mi, fl;

		snprintf(p, sizeof(p), "%s/%s", x->devs, name[k]);
		attached_elsewhere(p, k + 1);
		assert_int_equal(stat(p, &st), 0);
		assert_true(th_mock_node_number(&st, &ma, &mi, &fl));
		snprintf(p, sizeof(p), "%s/dev", sys);
		(void)mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/dev/block", sys);
		(void)mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u", sys, ma, mi);
		assert_int_equal(mkdir(p, 0755), 0);
		snprintf(p, sizeof(p), "%s/dev/block/%u:%u/uevent", sys, ma, mi);
		f = fopen(p, "w");
		assert_non_null(f);
		fprintf(f, "MAJOR=%u\nMINOR=%u\nDEVNAME=%s\n", ma, mi, name[k]);
		fclose(f);
	}
	famfs_sys_root = sys;
	memset(fs->member_seen, 0, sizeof(fs->member_seen));
	for (unsigned k = 1; k <= 4; k++)
		fs->devs.dev[k].path[0] = '\0';
	famfs_dev_head_reads = 0;
	for (unsigned k = 1; k <= 4; k++)
		assert_int_equal(famfs_fs_member_here(fs, k), 1);
	famfs_sys_root = "/sys";
	if (famfs_dev_head_reads != 4)
		fail_msg("%lu head reads for 4 members (4 wanted)",
			 famfs_dev_head_reads);
}

/* r42b 2: famfs.ko's device (found by its number) has a torn member
 * superblock and the log's device no node here: cannot tell, not
 * refused, and the check that failed is named (not "no member
 * superblock") */
static void test_member_torn_cannot_tell(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	char p[400], msg[8192];
	uint8_t b;
	int fd;

	member_file(x, "pmem4", U2, 1);
	log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_devs_update(fs), 0);
	snprintf(p, sizeof(p), "%s/pmem4", x->devs);
	attached_elsewhere(p, 1);
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &b, 1, 40), 1);
	b ^= 0xff;
	assert_int_equal(pwrite(fd, &b, 1, 40), 1);
	close(fd);
	th_stderr_grab();
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "CRC") || strstr(msg, "no member superblock"))
		fail_msg("the failed check not named: %s", msg);
	/* r42e LOW: the way out fits the cause -- famfs.ko's device has a
	 * node here (pmem4), so "give this host a node" does not help */
	if (strstr(msg, "give this host a node") || !strstr(msg, "famfs fsck"))
		fail_msg("the way out does not fit a member superblock that does not verify: %s",
			 msg);
}

/* r42b 5: a member famfs.ko reports failed (FAMFS_DEV_FAILED, its removal
 * the cause) is said so, not "cannot tell ... mount again"; the placement
 * says the same */
static void test_member_failed_said(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	struct famfs_place pl = { .has_dev = true, .dev = 1 };
	char msg[8192], why[FAMFS_REASON_LEN];
	struct famfs_alloc a;
	bool skipped;

	member_file(x, "pmem3", U1, 1);
	log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(fs, NULL, 0), 0);
	th_mock_devs[1].flags |= FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE;
	new_opening(fs);
	th_stderr_grab();
	assert_int_not_equal(famfs_fs_member_here(fs, 1), 1);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "failed") || strstr(msg, "mount again"))
		fail_msg("not said as failed: %s", msg);
	assert_int_equal(famfs_alloc_init(&a, fs->sb), 0);
	assert_int_equal(famfs_alloc_sync(&a, &fs->devs), 0);
	assert_int_equal(famfs_place_here(fs, &a, &pl, 0, &skipped, why),
			 -ENODEV);
	if (!strstr(why, "failed") || strstr(why, "another device"))
		fail_msg("placement reason: %s", why);
	famfs_alloc_free(&a);
}

/* r42b 4: famfs.ko keeps a member until the unmount: a verdict holds for
 * the process while DEV_GET says the same device (a follower opens the
 * mount every round) -- the next opening asks DEV_GET only, no node is
 * looked at or read */
static void test_member_verdict_kept(void **state)
{
	struct ax *x = *state;
	struct famfs_fs *fs = &x->t->fs;
	unsigned long nodes, gets;

	member_file(x, "pmem3", U1, 1);
	log_devadd(fs, 1, U1);
	assert_int_equal(famfs_fs_attach_members(fs, NULL, 0), 0);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	nodes = th_mock_node_numbers;
	gets = th_mock_dev_gets;
	new_opening(fs);
	assert_int_equal(famfs_fs_member_here(fs, 1), 1);
	assert_int_equal(th_mock_node_numbers, nodes);
	assert_int_equal(th_mock_dev_gets, gets + 1);
}

/* ---- a follower that lacks the member when its DEVADD comes ---------- */

static void copy_range(int from, const char *to, uint64_t off, uint64_t len)
{
	char *buf = malloc(len);
	int fd = open(to, O_RDWR | O_CREAT | O_TRUNC, 0644);

	assert_non_null(buf);
	assert_true(fd >= 0);
	assert_int_equal(pread(from, buf, len, (off_t)off), (ssize_t)len);
	assert_int_equal(pwrite(fd, buf, len, 0), (ssize_t)len);
	close(fd);
	free(buf);
}

/* the mount's meta files (the image's superblock and log), opened as the
 * mount in *ms */
static void mount_meta(struct ax *x, struct famfs_fs *ms)
{
	char p[400];
	int fd;

	assert_int_equal(msync(th_sb_media(x->t), sizeof(*x->t->fs.sb), MS_SYNC), 0);
	fd = open(x->t->img, O_RDONLY);
	assert_true(fd >= 0);
	snprintf(p, sizeof(p), "%s/.meta/.superblock", x->t->mpt);
	copy_range(fd, p, 0, FAMFS_SB_REGION_LEN);
	snprintf(p, sizeof(p), "%s/.meta/.log", x->t->mpt);
	copy_range(fd, p, FAMFS_LOG_OFFSET, 2 * MiB);
	close(fd);
	assert_int_equal(famfs_fs_open_mount(x->t->mpt, true, ms), 0);
}

static int w_wait(struct famfs_follow *f, unsigned ms)
{
	(void)f;
	(void)ms;
	return 0;
}

static int w_gone(struct famfs_follow *f)
{
	(void)f;
	return 0;
}

static bool w_stop(struct famfs_follow *f)
{
	(void)f;
	return false;
}

static const struct famfs_follow_ops ops = {
	.wait = w_wait, .gone = w_gone, .stop = w_stop,
};

static void test_follower_attaches_late_member(void **state)
{
	struct ax *x = *state;
	struct famfs_log_simple_ext ext = { htole64(4 * MiB), htole64(2 * MiB) };
	struct famfs_log_entry e;
	struct famfs_follow f;
	struct famfs_fmap m;
	struct famfs_fs ms;
	uint64_t played;
	char p[400];

	mount_meta(x, &ms);
	/* the master adds member 1 and a file on it */
	log_devadd(&ms, 1, U1);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	/* this host does not have it yet */
	assert_int_equal(famfs_follow_init(&f, x->t->mpt, 100, &ops), 0);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(played, 2);
	snprintf(p, sizeof(p), "%s/onm1", x->t->mpt);
	assert_int_not_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_false(th_mock_devs[1].on);
	/* the device shows up (hot-plugged, bound): the next round, with
	 * nothing new in the log, attaches it and creates the file */
	member_file(x, "pmem2", U1, 1);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_true(attached_to(x, 1, "pmem2"));
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_int_equal(m.file_size, 1000);
	assert_int_equal(m.dev[0], 1);
	assert_int_equal(m.ext[0].offset, 4 * MiB);
	/* and once done, later rounds do not scan again */
	th_mock_devs_reset();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_false(th_mock_devs[1].on);
	famfs_follow_fini(&f);
	famfs_fs_close(&ms);
}

/* the same, with an entry after the file that does not verify here (torn,
 * a stale line): the follower waits at it, said and counted once; the
 * replay from the start when the member comes meets it again -- not said
 * or counted again while it is the one waited at */
static void test_follower_member_came_held_once(void **state)
{
	struct ax *x = *state;
	struct famfs_log_simple_ext ext = { htole64(4 * MiB), htole64(2 * MiB) };
	struct famfs_log_entry e;
	struct famfs_follow f;
	struct famfs_fs ms;
	uint64_t played, bad;
	uint8_t *b;
	char p[400], msg[8192];

	mount_meta(x, &ms);
	log_devadd(&ms, 1, U1);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755,
					   0, 0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	bad = famfs_log_next(ms.log) - 1;
	b = famfs_clog_slot(ms.log, bad) + sizeof(struct famfs_clog_hdr) + 8;
	*b ^= 1;
	assert_int_equal(famfs_map_flush(&ms.logm, b, 1), 0);
	assert_int_equal(famfs_follow_init(&f, x->t->mpt, 100, &ops), 0);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_non_null(strstr(msg, "skipped for now"));
	assert_int_equal(f.r.bad_entries, 1);
	assert_int_equal(famfs_logplay_next(f.lp), bad);
	member_file(x, "pmem2", U1, 1);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_true(attached_to(x, 1, "pmem2"));
	snprintf(p, sizeof(p), "%s/onm1", x->t->mpt);
	assert_true(access(p, F_OK) == 0);
	if (strstr(msg, "skipped for now"))
		fail_msg("said again: %s", msg);
	assert_int_equal(f.r.bad_entries, 1);
	assert_int_equal(famfs_logplay_next(f.lp), bad);
	/* it verifies: played */
	*b ^= 1;
	assert_int_equal(famfs_map_flush(&ms.logm, b, 1), 0);
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	assert_int_equal(famfs_logplay_next(f.lp), bad + 1);
	assert_int_equal(f.r.bad_entries, 1);
	famfs_follow_fini(&f);
	famfs_fs_close(&ms);
}

/* The follower's round: a0bfca0's case as a follower meets it.  The old
 * master logged member 1 twice (U1 at k, U2 after it) and a file on member
 * 1; k did not read whole on this host when its mount attached members
 * (pmem4, U2).  Once k reads whole the round replays from it: the table
 * says member 1 is U1, famfs.ko has U2 -- said once (the index, both
 * device uuids, mount again), and the file on member 1 is not created
 * (it would be pmem4's memory); a later round does not say it again. */
static void test_follower_wrong_member_refused(void **state)
{
	struct ax *x = *state;
	struct famfs_log_simple_ext ext = { htole64(4 * MiB), htole64(2 * MiB) };
	struct famfs_log_entry e;
	struct famfs_follow f;
	struct famfs_fmap m;
	struct famfs_fs ms;
	uint64_t played, k;
	uint8_t *b;
	char p[400], msg[8192], u1[37], u2[37];

	mount_meta(x, &ms);
	member_file(x, "pmem3", U1, 1);
	member_file(x, "pmem4", U2, 1);
	k = famfs_log_next(ms.log);
	log_devadd(&ms, 1, U1);
	b = famfs_clog_slot(ms.log, k) + sizeof(struct famfs_clog_hdr) + 4;
	*b ^= 0xff;
	famfs_logdevs_init(&ms.devs, ms.sb);
	famfs_quiet = 1;
	log_devadd(&ms, 1, U2);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	ext.offset = htole64(6 * MiB);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1b", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	/* this host's mount: k does not read whole */
	famfs_logdevs_init(&ms.devs, ms.sb);
	famfs_fs_attach_members(&ms, NULL, 0);
	famfs_quiet = 0;
	assert_true(attached_to(x, 1, "pmem4"));
	*b ^= 0xff;
	assert_int_equal(famfs_map_flush(&ms.logm, b, 1), 0);
	assert_int_equal(famfs_follow_init(&f, x->t->mpt, 100, &ops), 0);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(msg, sizeof(msg));
	famfs_uuid_str(U1, u1);
	famfs_uuid_str(U2, u2);
	assert_true(attached_to(x, 1, "pmem4"));
	snprintf(p, sizeof(p), "%s/onm1", x->t->mpt);
	if (!th_mock_lookup_fmap(p, &m))
		fail_msg("onm1 mapped on member 1, which is pmem4 (%s) here, not the log's %s",
			 u2, u1);
	if (!strstr(msg, "member 1") || !strstr(msg, u1) || !strstr(msg, u2) ||
	    !strstr(msg, "mount again"))
		fail_msg("not said (member 1, %s, %s, mount again): %s", u1, u2,
			 msg);
	/* r42b 7: the files not created are said in one summary per round */
	if (!strstr(msg, "2 file") || !strstr(msg, "not created") ||
	    strstr(strstr(msg, "not created") + 1, "not created"))
		fail_msg("not one summary of 2 files: %s", msg);
	/* the next round that replays says it no more */
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755,
					   0, 0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	th_stderr_grab();
	assert_int_equal(famfs_follow_round(&f, &played), 0);
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(played, 1);
	if (strstr(msg, u2))
		fail_msg("said again: %s", msg);
	/* r42e LOW-2: a later round's summary does not point at a line not
	 * said again */
	ext.offset = htole64(8 * MiB);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1c", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	th_stderr_grab();
	famfs_follow_round(&f, &played);
	th_stderr_take(msg, sizeof(msg));
	if (!strstr(msg, "1 file") || strstr(msg, "said above"))
		fail_msg("the summary points at a line not said: %s", msg);
	/* r42e LOW-3: a member famfs.ko reports failed: its files are not
	 * created either (one summary, its own words), not one error each */
	th_mock_devs[1].flags |= FAMFS_DEV_FAILED | FAMFS_DEV_CAUSE;
	ext.offset = htole64(10 * MiB);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1d", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	ext.offset = htole64(12 * MiB);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "onm1e", 1000,
					   0644, 0, 0, &ext, 1), 0);
	e.fm.reserved[0] = 1;
	assert_int_equal(famfs_log_append(&ms, &e), 0);
	th_stderr_grab();
	famfs_follow_round(&f, &played);
	th_stderr_take(msg, sizeof(msg));
	snprintf(p, sizeof(p), "%s/onm1d", x->t->mpt);
	if (!access(p, F_OK))
		fail_msg("onm1d created on a failed member: %s", msg);
	if (!strstr(msg, "2 file") || !strstr(msg, "failed or removed"))
		fail_msg("not one summary of 2 files on a failed member: %s",
			 msg);
	famfs_follow_fini(&f);
	famfs_fs_close(&ms);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_orphan_index_resolved_by_uuid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices_list_orphan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices_unused_index_dup_uuid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices_unused_index_earlier_fs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copied_member_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_contradicting_index_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial_attach, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stuck_duplicate_attached_stays, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fsck_orphan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_follower_attaches_late_member, setup, teardown),
		cmocka_unit_test_setup_teardown(test_follower_member_came_held_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_follower_wrong_member_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_from_hint_here, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_cannot_tell_then_other, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_cannot_tell_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_torn_cannot_tell, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_other_size_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_check_reads_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_failed_said, setup, teardown),
		cmocka_unit_test_setup_teardown(test_member_verdict_kept, setup, teardown),
	};

	return cmocka_run_group_tests_name("attach", tests, NULL, NULL);
}
