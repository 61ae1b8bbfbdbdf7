// SPDX-License-Identifier: GPL-2.0
/* famfs devices label (famfs_member_label) writes a member superblock and
 * zeroes the rest of the device's first 2 MiB.  Like mkfs and devadd it
 * must not destroy what the device holds (libblkid's probe: an ext4 image
 * stays ext4 without -f), must be run by the instance that holds the
 * master role (not a client, not a clone of the master), and must not copy
 * the identity of a live member -- an index or a device uuid that the log
 * gives a member, that a member attached to the mount has, or that another
 * device on this host holds -- unless forced.  Devices are plain files in a
 * fake scan root (famfs_scan_root). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

static const uint8_t U1[16] = { 0x1a, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t U2[16] = { 0x2a, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
#define DEVSZ (8 * MiB)

struct lt {
	struct th *t;
	char root[400];		/* the fake /dev */
	char dev[4][500];	/* root/pmem1.. pmem4 */
};

static int setup(void **state)
{
	struct lt *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	l->t = th_new_fmt(64 * MiB, 2 * MiB, true);
	snprintf(l->root, sizeof(l->root), "%s/dev", l->t->dir);
	assert_int_equal(mkdir(l->root, 0755), 0);
	for (int i = 0; i < 4; i++) {
		int fd;

		snprintf(l->dev[i], sizeof(l->dev[i]), "%s/pmem%d", l->root, i + 1);
		fd = open(l->dev[i], O_RDWR | O_CREAT | O_TRUNC, 0644);
		assert_true(fd >= 0);
		assert_int_equal(ftruncate(fd, DEVSZ), 0);
		close(fd);
	}
	famfs_scan_root = l->root;
	*state = l;
	return 0;
}

static int teardown(void **state)
{
	struct lt *l = *state;

	famfs_scan_root = "/dev";
	th_free(l->t);
	free(l);
	return 0;
}

/* famfs devices label -i index [-u u] [-f] PRIMARY dev, its messages to
 * msg (may be NULL) */
static int label(struct lt *l, int dev, uint32_t index, const uint8_t *u,
		 bool force, char *msg, size_t n)
{
	char buf[4096];
	uint8_t out[16];
	int rc;

	th_stderr_grab();
	rc = famfs_member_label(&l->t->fs, l->t->img, l->dev[dev], index, u,
				force, out);
	th_stderr_take(buf, sizeof(buf));
	if (msg)
		snprintf(msg, n, "%s", buf);
	if (!rc && u)
		assert_memory_equal(out, u, 16);
	return rc;
}

/* the member superblock on dev: index and device uuid (0: none there) */
static uint32_t member_on(struct lt *l, int dev, uint8_t u[16])
{
	struct famfs_member_sb m;
	uint64_t size;

	assert_int_equal(famfs_dev_read_head(l->dev[dev], &m, sizeof(m), &size), 0);
	if (famfs_member_check(&m, l->t->fs.sb->fs_uuid, size, NULL))
		return 0;
	if (u)
		memcpy(u, m.dev_uuid, 16);
	return le32toh(m.index);
}

static bool head_zero(struct lt *l, int dev)
{
	uint8_t b[4096] = { 0 }, z[4096] = { 0 };
	uint64_t size;

	assert_int_equal(famfs_dev_read_head(l->dev[dev], b, sizeof(b), &size), 0);
	return !memcmp(b, z, sizeof(b));
}

static void test_blank_labelled(void **state)
{
	struct lt *l = *state;
	uint8_t u[16];

	assert_int_equal(label(l, 0, 1, U1, false, NULL, 0), 0);
	assert_int_equal(member_on(l, 0, u), 1);
	assert_memory_equal(u, U1, 16);
}

/* the reviewer's trigger: an ext4 image labelled as member 1 exited 0 and
 * blkid/e2fsck found nothing after */
static void test_ext4_kept(void **state)
{
	struct lt *l = *state;
	char cmd[700], what[256], msg[4096];
	struct famfs_dev d;

	snprintf(cmd, sizeof(cmd),
		 "PATH=$PATH:/sbin:/usr/sbin mkfs.ext4 -q -F -L keepme '%s' >/dev/null 2>&1",
		 l->dev[0]);
	assert_int_equal(system(cmd), 0);
	if (label(l, 0, 1, NULL, false, msg, sizeof(msg)) == 0)
		fail_msg("an ext4 image was labelled as a member without -f");
	assert_non_null(strstr(msg, "ext4"));
	assert_non_null(strstr(msg, "-f"));
	assert_int_equal(famfs_dev_open(l->dev[0], false, &d), 0);
	assert_int_equal(famfs_dev_probe(&d, what, sizeof(what)), 1);
	famfs_dev_close(&d);
	assert_non_null(strstr(what, "ext4 file system"));
	snprintf(cmd, sizeof(cmd),
		 "PATH=$PATH:/sbin:/usr/sbin e2fsck -n -f '%s' >/dev/null 2>&1",
		 l->dev[0]);
	assert_int_equal(system(cmd), 0);
	/* -f overwrites it, and says what */
	assert_int_equal(label(l, 0, 1, NULL, true, msg, sizeof(msg)), 0);
	assert_non_null(strstr(msg, "ext4"));
	assert_int_equal(member_on(l, 0, NULL), 1);
}

/* a client writes no member superblock */
static void test_client_refused(void **state)
{
	struct lt *l = *state;
	char msg[4096];

	th_become_client(l->t);
	if (label(l, 0, 1, NULL, false, msg, sizeof(msg)) == 0)
		fail_msg("a client labelled a member");
	assert_true(head_zero(l, 0));
	assert_non_null(strstr(msg, "master"));
}

/* nor a clone of the master (its host uuid, its own boot, no claim) */
static void test_clone_refused(void **state)
{
	struct lt *l = *state;
	struct th *t = l->t;
	char msg[4096];

	th_append_dir(t, "d");			/* the master claims the role */
	th_become_clone(t);
	if (label(l, 0, 1, NULL, false, msg, sizeof(msg)) == 0)
		fail_msg("a clone of the master (same host uuid, another boot) labelled a member");
	assert_true(head_zero(l, 0));
	assert_non_null(strstr(msg, "another master holds the log"));
}

/* a member superblock on another device of this host: its index and its
 * device uuid are that device's */
static void test_copy_of_present_member(void **state)
{
	struct lt *l = *state;
	char msg[4096];
	uint8_t u[16];

	assert_int_equal(label(l, 0, 1, U1, false, NULL, 0), 0);
	if (label(l, 1, 1, NULL, false, msg, sizeof(msg)) == 0)
		fail_msg("member 1's index copied to another device without -f");
	assert_non_null(strstr(msg, l->dev[0]));
	assert_true(head_zero(l, 1));
	if (label(l, 1, 2, U1, false, msg, sizeof(msg)) == 0)
		fail_msg("member 1's device uuid copied to another device without -f");
	assert_non_null(strstr(msg, l->dev[0]));
	assert_true(head_zero(l, 1));
	/* a new identity is fine; a copy with -f too */
	assert_int_equal(label(l, 1, 2, U2, false, NULL, 0), 0);
	assert_int_equal(label(l, 2, 1, U1, true, NULL, 0), 0);
	assert_int_equal(member_on(l, 2, u), 1);
	assert_memory_equal(u, U1, 16);
}

/* a member the log added (its device not on this host) */
static void test_copy_of_logged_member(void **state)
{
	struct lt *l = *state;
	struct th *t = l->t;
	struct famfs_log_entry e;
	char msg[4096];

	th_sb_media(t)->feature_incompat =
		htole32(le32toh(t->fs.sb->feature_incompat) |
			FAMFS_FEATURE_INCOMPAT_MULTIDEV);
	th_sb_commit(t);
	famfs_entry_build_devadd(&e, 1, U2, DEVSZ);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	if (label(l, 0, 1, NULL, false, msg, sizeof(msg)) == 0)
		fail_msg("the index of a member the log added was labelled on another device without -f");
	assert_non_null(strstr(msg, "member 1"));
	assert_true(head_zero(l, 0));
	if (label(l, 0, 2, U2, false, msg, sizeof(msg)) == 0)
		fail_msg("the device uuid of a member the log added was labelled on another device without -f");
	assert_non_null(strstr(msg, "member 1"));
	assert_true(head_zero(l, 0));
	assert_int_equal(label(l, 0, 2, U1, false, NULL, 0), 0);
	assert_int_equal(label(l, 1, 1, U2, true, NULL, 0), 0);
}

/* a member attached to the mount at that index (a devadd whose entry is
 * not written yet) */
static void test_index_attached(void **state)
{
	struct lt *l = *state;
	char msg[4096];

	th_mock_devs[3] = (struct th_mock_dev){ .on = true, .size = DEVSZ };
	if (label(l, 0, 3, NULL, false, msg, sizeof(msg)) == 0)
		fail_msg("the index of a member attached to the mount was labelled on another device without -f");
	assert_non_null(strstr(msg, "attached"));
	assert_true(head_zero(l, 0));
	th_mock_devs_reset();
	assert_int_equal(label(l, 0, 3, NULL, false, NULL, 0), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_blank_labelled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ext4_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_client_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clone_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_of_present_member, setup, teardown),
		cmocka_unit_test_setup_teardown(test_copy_of_logged_member, setup, teardown),
		cmocka_unit_test_setup_teardown(test_index_attached, setup, teardown),
	};

	return cmocka_run_group_tests_name("label", tests, NULL, NULL);
}
