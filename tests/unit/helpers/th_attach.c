// SPDX-License-Identifier: GPL-2.0
/* Unit-test helpers of the member attach tests (test_attach.c,
 * test_attach_member.c, test_attach_follow.c; th_attach.h): a file system
 * with members (MULTIDEV) whose scan root is a directory of plain files, a
 * member superblock on one of them, whether the mock (th_dev.c) has a
 * member attached to it, a DEVADD logged. */
#define _GNU_SOURCE
#include <endian.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th_attach.h"

int th_ax_setup(void **state)
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

int th_ax_teardown(void **state)
{
	struct ax *x = *state;
	void *t = x->t;

	famfs_scan_root = "/dev";
	free(x);
	return th_teardown(&t);
}

/* a member superblock of this fs on the plain file devs/name */
void th_member_file(struct ax *x, const char *name, const uint8_t *u,
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
bool th_attached_to(struct ax *x, unsigned index, const char *name)
{
	char p[400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", x->devs, name);
	assert_int_equal(stat(p, &st), 0);
	return th_mock_devs[index].on && th_mock_devs[index].ino == st.st_ino &&
	       th_mock_devs[index].dev == st.st_dev;
}

void th_log_devadd(struct famfs_fs *fs, uint32_t index, const uint8_t *u)
{
	struct famfs_log_entry e;

	famfs_entry_build_devadd(&e, index, u, MSIZE);
	assert_int_equal(famfs_log_append(fs, &e), 0);
}
