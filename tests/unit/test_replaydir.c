// SPDX-License-Identifier: GPL-2.0
/*
 * A replay meets a directory it did not make where the log has one (review
 * r28 of issue 27's fixes).  A file already there is never adopted
 * (logplay.c: file_there); a directory is taken as "present" whoever made
 * it: on a client, a local user who may write a shared logged directory
 * (mode 1777) makes pub/secret, hers and 0777, before the replay reaches
 * the MKDIR of root's 0700 pub/secret -- the replay counts it as present,
 * and root's files under it are created in her directory: she reads
 * those that counted on the directory's 0700, renames or replaces them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

static void test_user_dir_in_place_of_logged_dir(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	char cmd[2000], p[700], k[720];
	struct stat st;
	int fd;

	if (geteuid())
		skip();			/* needs another owner */
	assert_int_equal(famfs_mkdir(&t->fs, "pub", 01777, 0, 0, false), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "pub/secret", 0700, 0, 0, false), 0);
	fd = famfs_file_create(&t->fs, "pub/secret/key", 1000, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	/* a client's mount: pub replayed; uid 1000 makes pub/secret first */
	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' && mkdir -p '%s/.meta' && mkdir -m 1777 '%s/pub' && mkdir -m 0777 '%s/pub/secret' && chown 1000:1000 '%s/pub/secret'",
		 t->mpt, t->mpt, t->mpt, t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	snprintf(p, sizeof(p), "%s/pub/secret", t->mpt);
	snprintf(k, sizeof(k), "%s/key", p);
	assert_int_equal(lstat(p, &st), 0);
	if (st.st_uid == 1000 && !access(k, F_OK))
		fail_msg("the replay took uid 1000's directory (mode %04o) for the log's pub/secret (root's, 0700) and created root's pub/secret/key in it (conflicts %lu, present %lu)",
			 (unsigned)(st.st_mode & 07777), r.conflicts, r.present);
	if (st.st_uid == 1000 && !r.conflicts)
		fail_msg("a directory of uid 1000 where the log has root's 0700 pub/secret is counted as present, no conflict said");
}

/* a directory root made at a logged directory's name (an earlier replay
 * of its parents, an administrator): taken, and given the logged owner
 * and mode, as a directory the replay makes gets them -- not left root's
 * 0755 for uid 1000's logged 0700 pub/u */
static void test_root_dir_gets_logged_owner_and_mode(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	char cmd[2000], p[700];
	struct stat st;

	if (geteuid())
		skip();			/* needs another owner */
	assert_int_equal(famfs_mkdir(&t->fs, "pub", 01777, 0, 0, false), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "pub/u", 0700, 1000, 1000, false), 0);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' && mkdir -p '%s/.meta' && mkdir -m 1777 '%s/pub' && mkdir -m 0755 '%s/pub/u'",
		 t->mpt, t->mpt, t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.conflicts + r.errors, 0);
	snprintf(p, sizeof(p), "%s/pub/u", t->mpt);
	assert_int_equal(lstat(p, &st), 0);
	if (st.st_uid != 1000 || st.st_gid != 1000 || (st.st_mode & 07777) != 0700)
		fail_msg("root's directory at the log's pub/u (uid 1000, 0700) was taken as it was: uid %u, gid %u, mode %04o",
			 (unsigned)st.st_uid, (unsigned)st.st_gid,
			 (unsigned)(st.st_mode & 07777));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_user_dir_in_place_of_logged_dir, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_root_dir_gets_logged_owner_and_mode, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
