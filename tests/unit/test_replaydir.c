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
 *
 * A follower keeps its refusals for as long as it runs: after the
 * directory was removed and famfs logplay made it as the log has it, new
 * entries beneath it are still skipped (test_follow_refusal_not_forever).
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

/* a follower (mount -o follow) that refused a user's directory at the
 * log's pub/secret: the administrator does as the conflict says (removes
 * it, runs famfs logplay, which makes root's 0700 pub/secret and its
 * files), and the master goes on creating beneath pub/secret -- the
 * follower's next rounds must replay those, not skip them for a refusal
 * of a directory that is gone */
static void test_follow_refusal_not_forever(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r, r1;
	struct famfs_logplay *lp;
	char cmd[2000];
	struct stat st;
	char k2[720];

	if (geteuid())
		skip();			/* needs another owner */
	assert_int_equal(famfs_mkdir(&t->fs, "pub", 01777, 0, 0, false), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "pub/secret", 0700, 0, 0, false), 0);
	/* a client's mount: pub replayed; uid 1000 makes pub/secret first */
	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' && mkdir -p '%s/.meta' && mkdir -m 1777 '%s/pub' && mkdir -m 0777 '%s/pub/secret' && chown 1000:1000 '%s/pub/secret'",
		 t->mpt, t->mpt, t->mpt, t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	lp = famfs_logplay_new(8);
	assert_non_null(lp);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_true(r.conflicts >= 1);		/* refused, said */
	/* the administrator: removes it and runs famfs logplay */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/pub/secret'", t->mpt);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(famfs_logplay(&t->fs, false, &r1), 0);
	assert_true(th_exists(t, "pub/secret", true));
	/* the master creates beneath it; the follower's next round */
	th_append_file(t, "pub/secret/key2", 8 * MiB, 2 * MiB, 1);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_logplay_free(lp);
	snprintf(k2, sizeof(k2), "%s/pub/secret/key2", t->mpt);
	if (lstat(k2, &st))
		fail_msg("the follower refused uid 1000's pub/secret once and skips everything logged beneath it for as long as it runs: the directory was removed and famfs logplay made root's 0700 pub/secret as the log has it, yet the new pub/secret/key2 is not replayed (round: conflicts %lu, created files %lu)",
			 r.conflicts, r.created_files);
}

/* a follower refused uid 1000's directory at the log's pub/secret; the
 * master then renames pub/secret and gives it an owner: the replay must
 * neither move her directory to the new name (root's files logged beneath
 * it would then be made in hers: the refusal is by path) nor chown it to
 * root (which would take it for the log's) -- each a conflict */
static void test_follow_refused_dir_renamed(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_log_entry e;
	struct famfs_logplay *lp;
	char cmd[2000], p[700], k[720];
	struct stat st;
	uint64_t sid;
	ino_t hers;

	if (geteuid())
		skip();			/* needs another owner */
	assert_int_equal(famfs_mkdir(&t->fs, "pub", 01777, 0, 0, false), 0);
	sid = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_mkdir(&t->fs, "pub/secret", 0700, 0, 0, false), 0);
	snprintf(cmd, sizeof(cmd),
		 "rm -rf '%s' && mkdir -p '%s/.meta' && mkdir -m 1777 '%s/pub' && mkdir -m 0777 '%s/pub/secret' && chown 1000:1000 '%s/pub/secret'",
		 t->mpt, t->mpt, t->mpt, t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	snprintf(p, sizeof(p), "%s/pub/secret", t->mpt);
	assert_int_equal(lstat(p, &st), 0);
	hers = st.st_ino;
	lp = famfs_logplay_new(8);
	assert_non_null(lp);
	famfs_quiet = 1;
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_true(r.conflicts >= 1);		/* refused, said */
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_RENAME |
						 FAMFS_FEATURE_INCOMPAT_SETATTR, 0), 0);
	assert_int_equal(famfs_entry_build_setattr(&e, sid, FAMFS_LOG_MKDIR,
						   "pub/secret", FAMFS_SETATTR_UID,
						   0, 0, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(famfs_entry_build_rename(&e, sid, FAMFS_LOG_MKDIR,
						  "pub/secret", "pub/s2"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	th_append_file(t, "pub/s2/key", 8 * MiB, 2 * MiB, 1);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	famfs_logplay_free(lp);
	snprintf(p, sizeof(p), "%s/pub/s2", t->mpt);
	snprintf(k, sizeof(k), "%s/key", p);
	if (!lstat(p, &st) && st.st_ino == hers && !access(k, F_OK))
		fail_msg("the follower moved uid 1000's directory (refused at pub/secret) to pub/s2 (now uid %u) and made root's pub/s2/key in it",
			 (unsigned)st.st_uid);
	snprintf(p, sizeof(p), "%s/pub/secret", t->mpt);
	if (!lstat(p, &st) && st.st_uid != 1000)
		fail_msg("the follower gave uid 1000's refused pub/secret to uid %u (a SETATTR of the log's directory)",
			 (unsigned)st.st_uid);
	if (r.conflicts < 2)
		fail_msg("the SETATTR and RENAME of a refused directory are not conflicts (%lu)",
			 r.conflicts);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_user_dir_in_place_of_logged_dir, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_root_dir_gets_logged_owner_and_mode, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_follow_refusal_not_forever, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_follow_refused_dir_renamed, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
