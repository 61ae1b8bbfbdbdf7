// SPDX-License-Identifier: GPL-2.0
/* famfs mkfs looks for other file systems first (issue 15.14): libblkid's
 * probe through famfs_dev_probe finds ext4 on an image mkfs.ext4 made, and
 * nothing on a blank one or on famfs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

static int probe(const char *img, char *what, size_t n)
{
	struct famfs_dev d;
	int rc;

	assert_int_equal(famfs_dev_open(img, false, &d), 0);
	rc = famfs_dev_probe(&d, what, n);
	famfs_dev_close(&d);
	return rc;
}

static void test_blank_and_famfs(void **state)
{
	struct th *t = *state;
	char what[256];

	/* th's image: a famfs superblock and log, libblkid knows neither */
	assert_int_equal(probe(t->img, what, sizeof(what)), 0);
	assert_string_equal(what, "");
}

static void test_ext4_found(void **state)
{
	struct th *t = *state;
	char cmd[600], what[256];

	snprintf(cmd, sizeof(cmd),
		 "PATH=$PATH:/sbin:/usr/sbin mkfs.ext4 -q -F -L unitlabel '%s' >/dev/null 2>&1",
		 t->img);
	/* e2fsprogs is in scripts/setup-deps.sh: its absence is a failure */
	assert_int_equal(system(cmd), 0);
	assert_int_equal(probe(t->img, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "ext4 file system"));
	assert_non_null(strstr(what, "unitlabel"));
}

/* review of issue 15.14: two signatures at once (blkid -p: "ambivalent
 * result"): mkfs names everything it would destroy, not the first only */
static void test_ambivalent_found(void **state)
{
	struct th *t = *state;
	char cmd[1400], what[256];

	snprintf(cmd, sizeof(cmd),
		 "PATH=$PATH:/sbin:/usr/sbin mkfs.ext4 -q -F '%s' >/dev/null 2>&1 && "
		 "printf '\\001CD001' | dd of='%s' bs=1 seek=32768 conv=notrunc 2>/dev/null",
		 t->img, t->img);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(probe(t->img, what, sizeof(what)), 1);
	assert_non_null(strstr(what, "ext4 file system"));
	assert_non_null(strstr(what, "iso9660"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_blank_and_famfs, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_ext4_found, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_ambivalent_found, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("probe", tests, NULL, NULL);
}
