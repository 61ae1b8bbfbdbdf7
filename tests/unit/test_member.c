// SPDX-License-Identifier: GPL-2.0
/* Member device superblocks (issue 16): encode/verify, and finding the
 * devices of a file system by uuid in a directory of fake devices (plain
 * files named pmemN / daxX.Y standing for /dev). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

static const uint8_t FSID[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t FSID2[16] = { 0xf5, 2, 3 };
static const uint8_t HOST[16] = { 0xaa, 0xbb };
static const uint8_t DU1[16] = { 0xd1, 1 };
static const uint8_t DU2[16] = { 0xd2, 2 };
static const uint8_t DU3[16] = { 0xd3, 3 };
#define DEV (16 * MiB)
#define CTIME 1700000000ULL

static void mk(struct famfs_member_sb *m, uint32_t index)
{
	famfs_member_init(m, FSID, DU1, index, CTIME, DEV);
}

static void test_layout(void **s)
{
	(void)s;
	assert_int_equal(sizeof(struct famfs_member_sb), 512);
	assert_int_equal(offsetof(struct famfs_member_sb, crc), 12);
	assert_int_equal(offsetof(struct famfs_member_sb, index), 20);
	assert_int_equal(offsetof(struct famfs_member_sb, fs_uuid), 24);
	assert_int_equal(offsetof(struct famfs_member_sb, dev_uuid), 40);
	assert_int_equal(offsetof(struct famfs_member_sb, fs_ctime), 56);
	assert_int_equal(offsetof(struct famfs_member_sb, device_size), 64);
	assert_int_equal(offsetof(struct famfs_member_sb, reserved), 88);
	assert_true(FAMFS_MAX_DEVS >= 9);
}

static void test_roundtrip(void **s)
{
	struct famfs_member_sb m;
	const uint8_t *raw = (const uint8_t *)&m;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mk(&m, 3);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), 0);
	assert_int_equal(famfs_member_check(&m, NULL, 0, why), 0);
	assert_memory_equal(raw, "FAMSMEB1", 8);	/* little-endian */
	assert_int_equal(raw[20], 3);
	assert_int_equal(le64toh(m.device_size), DEV);
	assert_int_equal(le64toh(m.fs_ctime), CTIME);
	assert_memory_equal(m.fs_uuid, FSID, 16);
	assert_memory_equal(m.dev_uuid, DU1, 16);
	assert_true(famfs_member_is_member(&m));
}

static void test_corrupt(void **s)
{
	struct famfs_member_sb m;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mk(&m, 1);
	m.dev_uuid[5] ^= 0x10;
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EBADMSG);
	assert_non_null(strstr(why, "CRC"));
	mk(&m, 1);
	m.magic ^= 1;
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "magic"));
	assert_false(famfs_member_is_member(&m));
}

/* A write torn after 256 bytes: the head of a new member over an old one. */
static void test_torn(void **s)
{
	struct famfs_member_sb old, new, torn;
	char why[FAMFS_REASON_LEN];

	(void)s;
	famfs_member_init(&old, FSID2, DU2, 2, CTIME - 5, DEV / 2);
	famfs_member_init(&new, FSID, DU1, 1, CTIME, DEV);
	memcpy(&torn, &new, 64);
	memcpy((char *)&torn + 64, (char *)&old + 64, sizeof(torn) - 64);
	assert_int_equal(famfs_member_check(&torn, FSID, DEV, why), -EBADMSG);
	assert_non_null(strstr(why, "CRC"));
}

static void test_wrong_fs(void **s)
{
	struct famfs_member_sb m;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mk(&m, 1);
	assert_int_equal(famfs_member_check(&m, FSID2, DEV, why), -ESTALE);
	assert_non_null(strstr(why, "another file system"));
}

static void test_future(void **s)
{
	struct famfs_member_sb m;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mk(&m, 1);
	m.version = htole32(FAMFS_MEMBER_VERSION + 1);
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "version"));
	mk(&m, 1);
	m.feature_incompat = htole32(1);
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "incompat"));
}

static void test_bad_fields(void **s)
{
	struct famfs_member_sb m;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mk(&m, 0);	/* 0 is the primary */
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "index"));
	mk(&m, FAMFS_MAX_DEVS);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "index"));
	mk(&m, FAMFS_MAX_DEVS - 1);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), 0);
	mk(&m, 1);
	memset(m.dev_uuid, 0, 16);
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "nil"));
	mk(&m, 1);
	m.reserved[100] = 1;
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "reserved"));
	mk(&m, 1);
	m.pad[1] = 1;
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
	mk(&m, 1);	/* recorded size larger than the device */
	assert_int_equal(famfs_member_check(&m, FSID, DEV - 2 * MiB, why), -EINVAL);
	assert_non_null(strstr(why, "size"));
	famfs_member_init(&m, FSID, DU1, 1, CTIME, 2 * MiB);	/* no data unit */
	assert_int_equal(famfs_member_check(&m, FSID, 0, why), -EINVAL);
	mk(&m, 1);
	m.alloc_unit_shift = htole32(12);
	famfs_member_set_crc(&m);
	assert_int_equal(famfs_member_check(&m, FSID, DEV, why), -EINVAL);
}

/* ---- finding devices: a directory of fake devices -------------------- */

struct fake {
	char root[256];
	char cap[300];		/* captured stderr */
	int saved_err;
};

static void fake_file(struct fake *f, const char *name, const void *head, size_t n)
{
	char p[600];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", f->root, name);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, DEV), 0);
	if (head)
		assert_int_equal(pwrite(fd, head, n, 0), (ssize_t)n);
	close(fd);
}

static void fake_member(struct fake *f, const char *name, const uint8_t fs[16],
			const uint8_t du[16], uint32_t index)
{
	struct famfs_member_sb m;

	famfs_member_init(&m, fs, du, index, CTIME, DEV);
	fake_file(f, name, &m, sizeof(m));
}

static void fake_primary(struct fake *f, const char *name)
{
	struct famfs_superblock sb;

	famfs_sb_init(&sb, FSID, HOST, DEV, 2 * MiB);
	sb.ctime = htole64(CTIME);
	famfs_sb_set_crc(&sb);
	fake_file(f, name, &sb, sizeof(sb));
}

static struct fake *fake_new(void)
{
	struct fake *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	th_tmpl(f->root, sizeof(f->root), "famfs-ut-member");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->cap, sizeof(f->cap), "%s.err", f->root);
	famfs_scan_root = f->root;
	return f;
}

static void fake_free(struct fake *f)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", f->root, f->cap);
	assert_int_equal(system(cmd), 0);
	famfs_scan_root = "/dev";
	free(f);
}

/* stderr into f->cap while a call runs */
static void cap_begin(struct fake *f)
{
	int fd = open(f->cap, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	assert_true(fd >= 0);
	fflush(stderr);
	f->saved_err = dup(2);
	dup2(fd, 2);
	close(fd);
}

static char *cap_end(struct fake *f)
{
	static char buf[4096];
	int fd;
	ssize_t n;

	fflush(stderr);
	dup2(f->saved_err, 2);
	close(f->saved_err);
	fd = open(f->cap, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

static const char *base(const char *p)
{
	const char *b = strrchr(p, '/');

	return b ? b + 1 : p;
}

static void test_scan_finds_by_uuid(void **s)
{
	struct fake *f = fake_new();
	struct famfs_devtab t;

	(void)s;
	fake_primary(f, "pmem1");
	fake_member(f, "pmem0", FSID, DU2, 2);	/* names do not give order */
	fake_member(f, "dax3.0", FSID, DU1, 1);
	fake_member(f, "pmem7", FSID2, DU3, 1);	/* another file system */
	fake_member(f, "notes", FSID, DU3, 3);	/* not a candidate name */
	fake_member(f, "pmem0p1", FSID, DU3, 3);	/* a partition: not scanned */
	fake_member(f, "pmem0s", FSID, DU3, 3);	/* btt (no DAX): not scanned */
	fake_member(f, "pmem2.1", FSID, DU3, 4);	/* 2nd namespace of region 2 */
	fake_file(f, "pmem4", NULL, 0);		/* zeros */
	fake_file(f, "dax0.1", "junk", 4);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), 0);
	assert_true(t.dev[0].present);
	assert_string_equal(base(t.dev[0].path), "pmem1");
	assert_true(t.dev[1].present);
	assert_string_equal(base(t.dev[1].path), "dax3.0");
	assert_memory_equal(t.dev[1].dev_uuid, DU1, 16);
	assert_true(t.dev[2].present);
	assert_string_equal(base(t.dev[2].path), "pmem0");
	assert_memory_equal(t.dev[2].dev_uuid, DU2, 16);
	assert_false(t.dev[3].present);
	assert_true(t.dev[4].present);
	assert_string_equal(base(t.dev[4].path), "pmem2.1");
	assert_int_equal(t.nfound, 4);
	/* the other file system's view */
	assert_int_equal(famfs_devtab_scan(FSID2, NULL, 0, &t), 0);
	assert_false(t.dev[0].present);
	assert_string_equal(base(t.dev[1].path), "pmem7");
	assert_int_equal(t.nfound, 1);
	fake_free(f);
}

static void test_scan_duplicate_index(void **s)
{
	struct fake *f = fake_new();
	struct famfs_devtab t;
	char *msg;

	(void)s;
	fake_member(f, "pmem0", FSID, DU1, 1);
	fake_member(f, "pmem1", FSID, DU2, 1);
	cap_begin(f);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), -EEXIST);
	msg = cap_end(f);
	assert_non_null(strstr(msg, "pmem0"));
	assert_non_null(strstr(msg, "pmem1"));
	assert_non_null(strstr(msg, "index 1"));
	fake_free(f);
}

static void test_scan_duplicate_uuid(void **s)
{
	struct fake *f = fake_new();
	struct famfs_devtab t;
	char *msg;

	(void)s;
	fake_member(f, "dax0.0", FSID, DU1, 1);
	fake_member(f, "dax1.0", FSID, DU1, 2);	/* a copied device */
	cap_begin(f);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), -EEXIST);
	msg = cap_end(f);
	assert_non_null(strstr(msg, "dax0.0"));
	assert_non_null(strstr(msg, "dax1.0"));
	assert_non_null(strstr(msg, "d1010000-0000-0000-0000-000000000000"));
	fake_free(f);
}

static void test_scan_duplicate_primary(void **s)
{
	struct fake *f = fake_new();
	struct famfs_devtab t;
	char *msg;

	(void)s;
	fake_primary(f, "pmem0");
	fake_primary(f, "pmem1");
	cap_begin(f);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), -EEXIST);
	msg = cap_end(f);
	assert_non_null(strstr(msg, "pmem0"));
	assert_non_null(strstr(msg, "pmem1"));
	fake_free(f);
}

/* A hint outside the scan root is read first; the same device named by a
 * hint and found by the scan is one device, not a duplicate. */
static void test_scan_hints(void **s)
{
	struct fake *f = fake_new();
	struct famfs_devtab t;
	char hint[600], same[600], sub[600];
	const char *hints[3];

	(void)s;
	snprintf(sub, sizeof(sub), "%s/other", f->root);
	assert_int_equal(mkdir(sub, 0755), 0);
	fake_member(f, "other/member-b", FSID, DU2, 2);
	fake_member(f, "pmem3", FSID, DU1, 1);
	snprintf(hint, sizeof(hint), "%s/other/member-b", f->root);
	snprintf(same, sizeof(same), "%s/pmem3", f->root);
	hints[0] = hint;
	hints[1] = same;
	hints[2] = "/nonexistent/famfs-hint";
	cap_begin(f);
	assert_int_equal(famfs_devtab_scan(FSID, hints, 3, &t), 0);
	(void)cap_end(f);
	assert_int_equal(t.nfound, 2);
	assert_string_equal(t.dev[2].path, hint);
	assert_string_equal(t.dev[1].path, same);
	fake_free(f);
}

/* A damaged member superblock that names this file system is reported. */
static void test_scan_damaged(void **s)
{
	struct fake *f = fake_new();
	struct famfs_member_sb m;
	struct famfs_devtab t;
	char *msg;

	(void)s;
	famfs_member_init(&m, FSID, DU2, 2, CTIME, DEV);
	m.ctime ^= 1;	/* CRC now wrong */
	fake_file(f, "pmem2", &m, sizeof(m));
	fake_member(f, "pmem0", FSID, DU1, 1);
	cap_begin(f);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), 0);
	msg = cap_end(f);
	assert_int_equal(t.nfound, 1);
	assert_int_equal(t.ndamaged, 1);
	assert_false(t.dev[2].present);
	assert_non_null(strstr(msg, "pmem2"));
	assert_non_null(strstr(msg, "CRC"));
	fake_free(f);
}

/* A member of an earlier mkfs with the same fs uuid (fs_ctime differs from
 * the primary's) is not taken. */
static void test_scan_stale_member(void **s)
{
	struct fake *f = fake_new();
	struct famfs_member_sb m;
	struct famfs_devtab t;

	(void)s;
	fake_primary(f, "pmem0");
	famfs_member_init(&m, FSID, DU1, 1, CTIME - 100, DEV);
	fake_file(f, "pmem1", &m, sizeof(m));
	cap_begin(f);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), 0);
	(void)cap_end(f);
	assert_false(t.dev[1].present);
	assert_int_equal(t.ndamaged, 1);
	fake_free(f);
}

static void test_require_missing(void **s)
{
	struct fake *f = fake_new();
	struct famfs_devtab t;
	struct famfs_member_want want[3] = { { .index = 1 }, { .index = 2 }, { .index = 3 } };
	char *msg;

	(void)s;
	memcpy(want[0].dev_uuid, DU1, 16);
	memcpy(want[1].dev_uuid, DU2, 16);
	memcpy(want[2].dev_uuid, DU3, 16);
	fake_member(f, "pmem1", FSID, DU1, 1);
	fake_member(f, "pmem0", FSID, DU3, 3);
	assert_int_equal(famfs_devtab_scan(FSID, NULL, 0, &t), 0);
	cap_begin(f);
	assert_int_equal(famfs_devtab_require(&t, want, 3), -ENODEV);
	msg = cap_end(f);
	assert_non_null(strstr(msg, "d2020000-0000-0000-0000-000000000000"));
	assert_null(strstr(msg, "d1010000"));
	assert_int_equal(famfs_devtab_require(&t, want, 1), 0);
	/* index 3 found, but the log names another device there */
	memcpy(want[2].dev_uuid, DU2, 16);
	cap_begin(f);
	assert_int_equal(famfs_devtab_require(&t, &want[2], 1), -ENODEV);
	msg = cap_end(f);
	assert_non_null(strstr(msg, "pmem0"));
	fake_free(f);
}

static void test_write_and_read(void **s)
{
	struct fake *f = fake_new();
	struct famfs_member_sb m, back;
	char p[600], why[FAMFS_REASON_LEN];
	uint64_t size;

	(void)s;
	fake_file(f, "pmem5", NULL, 0);
	snprintf(p, sizeof(p), "%s/pmem5", f->root);
	famfs_member_init(&m, FSID, DU3, 4, CTIME, DEV);
	assert_int_equal(famfs_member_write(p, &m), 0);
	assert_int_equal(famfs_dev_read_head(p, &back, sizeof(back), &size), 0);
	assert_int_equal(size, DEV);
	assert_int_equal(famfs_member_check(&back, FSID, size, why), 0);
	assert_memory_equal(&back, &m, sizeof(m));
	/* a member larger than the device is refused before writing */
	famfs_member_init(&m, FSID, DU3, 4, CTIME, 2 * DEV);
	famfs_quiet = 1;
	assert_int_equal(famfs_member_write(p, &m), -EINVAL);
	famfs_quiet = 0;
	fake_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_torn),
		cmocka_unit_test(test_wrong_fs),
		cmocka_unit_test(test_future),
		cmocka_unit_test(test_bad_fields),
		cmocka_unit_test(test_scan_finds_by_uuid),
		cmocka_unit_test(test_scan_duplicate_index),
		cmocka_unit_test(test_scan_duplicate_uuid),
		cmocka_unit_test(test_scan_duplicate_primary),
		cmocka_unit_test(test_scan_hints),
		cmocka_unit_test(test_scan_damaged),
		cmocka_unit_test(test_scan_stale_member),
		cmocka_unit_test(test_require_missing),
		cmocka_unit_test(test_write_and_read),
	};

	return cmocka_run_group_tests_name("member", tests, NULL, NULL);
}
