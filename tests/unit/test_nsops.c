// SPDX-License-Identifier: GPL-2.0
/* famfs rm, mv, chmod, chown in the library (format rev 3): judged by the
 * log's namespace, the entry appended (its feature bit first), then the
 * change here; refusals that log nothing; a client refused as a create is;
 * a deleted path made again gets new memory (none is reclaimed: df shows
 * it pending); the paths judged right in a new process (no summary of
 * first paths); a batch under one lock hold; a full log grown; what a
 * crash between the entry and the change here leaves, made right by
 * famfs logplay; chmod's modes. */
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

struct last {
	uint64_t n, idx;
	unsigned type;
	struct famfs_log_entry e;
};

static int last_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct last *l = arg;

	(void)reason;
	assert_true(ok);
	l->n++;
	l->idx = idx;
	l->type = le16toh(e->type);
	l->e = *e;
	return 0;
}

static struct last walk(struct th *t)
{
	struct last l = { 0 };

	assert_int_equal(famfs_log_walk(&t->fs, last_entry, &l), 0);
	return l;
}

/* the master's famfs.ko holds every deleted file's memory
 * (th_mock_hold_all): rm's reclaim pass frees nothing here, what is deleted
 * stays pending (test_reclaimpass.c frees it) */
static int setup(void **state)
{
	*state = th_new_fmt(256 * MiB, 8 * MiB, true);
	th_mock_held_hook = th_mock_hold_all;
	return 0;
}

static int setup_v1(void **state)
{
	*state = th_new_fmt(256 * MiB, 8 * MiB, false);
	th_mock_held_hook = th_mock_hold_all;
	return 0;
}

static uint32_t incompat(struct th *t)
{
	return le32toh(t->fs.sb->feature_incompat);
}

static int remove_c(struct th *t)
{
	return famfs_remove(&t->fs, "c", false);
}

static void test_rm_file(void **state)
{
	struct th *t = *state;
	struct famfs_ns ns;
	struct famfs_df df;
	struct last l;
	uint64_t a_off, used;

	th_create_nozero(&t->fs, "a", 4 * MiB);
	th_create_nozero(&t->fs, "b", 1000);
	a_off = th_mock_off_or_0(t, "a");
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	used = df.used;
	assert_false(incompat(t) & FAMFS_FEATURE_INCOMPAT_DELETE);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_true(incompat(t) & FAMFS_FEATURE_INCOMPAT_DELETE);
	/* the first DELETE of a file comes after the host table's entry */
	assert_true(incompat(t) & FAMFS_FEATURE_INCOMPAT_HOSTS);
	l = walk(t);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.type, FAMFS_LOG_DELETE);
	assert_int_equal(famfs_ns_get(&l.e, &ns), 0);
	assert_int_equal(ns.object, 0);
	assert_string_equal(ns.path, "a");
	assert_false(th_exists(t, "a", false));
	assert_true(th_exists(t, "b", false));
	th_fsck_clean(t);
	/* its memory stays used: pending reclaim */
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.used, used);
	assert_int_equal(df.files, 1);
	assert_int_equal(df.deleted_files, 1);
	assert_int_equal(df.pending_reclaim, 4 * MiB);
	/* made again: a new file, new memory */
	th_create_nozero(&t->fs, "a", 4 * MiB);
	assert_true(th_mock_off_or_0(t, "a") != 0);
	assert_true(th_mock_off_or_0(t, "a") != a_off);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.used, used + 4 * MiB);
	assert_int_equal(df.files, 2);
	th_fsck_clean(t);
	/* a new process too: no summary hands the deleted memory out */
	assert_int_equal(th_reopen(t), 0);
	th_create_nozero(&t->fs, "c", 4 * MiB);
	assert_true(th_mock_off_or_0(t, "c") != a_off);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.pending_reclaim, 4 * MiB);
	assert_int_equal(remove_c(t), 0);
		/* gone from the log: removing it twice is refused */
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(famfs_remove(&t->fs, "a", false), -ENOENT);
	assert_int_equal(walk(t).n, 8);		/* one of them the HOSTS entry */
}

static void test_rm_file_v1(void **state)
{
	test_rm_file(state);
}

static void test_rm_dir(void **state)
{
	struct th *t = *state;
	uint64_t n;

	assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, true), 0);
	th_create_nozero(&t->fs, "d/f", 100);
	th_create_nozero(&t->fs, "d/e/g", 100);
	n = walk(t).n;
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "d", false), -EISDIR);
	assert_int_equal(walk(t).n, n);
	assert_int_equal(famfs_remove(&t->fs, "d", true), 0);
	assert_int_equal(walk(t).n, n + 1 + 4);	/* HOSTS, 4 DELETEs */
	assert_false(th_exists(t, "d", true));
	th_fsck_clean(t);
	/* the paths are free again */
	assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, true), 0);
	th_create_nozero(&t->fs, "d/e/g", 100);
	th_fsck_clean(t);
}

/* what the log does not have, or has otherwise, is not removed and
 * nothing is logged */
static void test_rm_refused(void **state)
{
	struct th *t = *state;
	char p[700], q[700];
	uint64_t n;

	th_create_nozero(&t->fs, "a", 100);
	th_touch(t, "x", "not famfs's");
	n = walk(t).n;
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "x", false), -ENOENT);
	assert_true(th_exists(t, "x", false));
	/* the file at a is not the logged one (a new inode: made before the
	 * logged one goes) */
	th_touch(t, "a.new", "another one");
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(unlink(p), 0);
	snprintf(q, sizeof(q), "%s/a.new", t->mpt);
	assert_int_equal(rename(q, p), 0);
	assert_int_equal(famfs_remove(&t->fs, "a", false), -EEXIST);
	assert_true(th_exists(t, "a", false));
	assert_int_equal(walk(t).n, n);
	assert_false(incompat(t) & FAMFS_FEATURE_INCOMPAT_DELETE);
}

/* rident 1 (the master's side): the file at a has the logged map but
 * another file's identity (a file of another FILE entry on the same
 * memory): not the logged one, so neither logged nor removed */
static void test_rm_other_identity(void **state)
{
	struct th *t = *state;
	struct famfs_fmap m;
	char p[700];
	uint64_t n;
	int fd;

	th_create_nozero(&t->fs, "a", 100);
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_true(m.has_ident);
	assert_int_equal(unlink(p), 0);
	fd = open(p, O_CREAT | O_EXCL | O_RDWR, 0600);
	assert_true(fd >= 0);
	m.ident += 1000;
	assert_int_equal(th_mock_add(fd, &m), 0);
	close(fd);
	n = walk(t).n;
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a", false), -EEXIST);
	famfs_quiet = 0;
	assert_true(th_exists(t, "a", false));
	assert_int_equal(walk(t).n, n);
}

static void test_mv_file(void **state)
{
	struct th *t = *state;
	struct famfs_ns ns;
	struct last l;
	uint64_t a_off;

	th_create_nozero(&t->fs, "a", 100);
	a_off = th_mock_off_or_0(t, "a");
	assert_int_equal(famfs_rename(&t->fs, "a", "b"), 0);
	assert_true(incompat(t) & FAMFS_FEATURE_INCOMPAT_RENAME);
	l = walk(t);
	assert_int_equal(l.type, FAMFS_LOG_RENAME);
	assert_int_equal(famfs_ns_get(&l.e, &ns), 0);
	assert_string_equal(ns.path, "a");
	assert_string_equal(ns.to, "b");
	assert_false(th_exists(t, "a", false));
	assert_int_equal(th_mock_off_or_0(t, "b"), a_off);
	/* a is free, b is taken */
	th_create_nozero(&t->fs, "a", 100);
	famfs_quiet = 1;
	assert_int_equal(famfs_file_create(&t->fs, "b", 100, 0644, 0, 0), -EEXIST);
	/* into a directory, as mv(1) */
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	assert_int_equal(famfs_rename(&t->fs, "b", "d"), 0);
	assert_int_equal(th_mock_off_or_0(t, "d/b"), a_off);
	th_fsck_clean(t);
}

static void test_mv_file_v1(void **state)
{
	test_mv_file(state);
}

static void test_mv_dir(void **state)
{
	struct th *t = *state;
	char rel[64];

	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	for (int i = 0; i < 100; i++) {
		snprintf(rel, sizeof(rel), "d/f%d", i);
		th_create_nozero(&t->fs, rel, 100);
	}
	assert_int_equal(famfs_rename(&t->fs, "d", "e"), 0);
	assert_false(th_exists(t, "d", true));
	for (int i = 0; i < 100; i++) {
		snprintf(rel, sizeof(rel), "e/f%d", i);
		assert_true(th_mock_off_or_0(t, rel) != 0);
	}
	/* judged by the log: d and d/f0 are free, e/f0 is not */
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	th_create_nozero(&t->fs, "d/f0", 100);
	famfs_quiet = 1;
	assert_int_equal(famfs_file_create(&t->fs, "e/f0", 100, 0644, 0, 0), -EEXIST);
	th_fsck_clean(t);
}

/* famfs mv d/b MPT: the mount root names no path (rel ""): into it, as
 * mv(1) moves into a directory */
static void test_mv_into_root(void **state)
{
	struct th *t = *state;
	uint64_t off;

	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	th_create_nozero(&t->fs, "d/b", 100);
	off = th_mock_off_or_0(t, "d/b");
	assert_int_equal(famfs_rename(&t->fs, "d/b", ""), 0);
	assert_int_equal(th_mock_off_or_0(t, "b"), off);
	assert_false(th_exists(t, "d/b", false));
	famfs_quiet = 1;
	assert_int_equal(famfs_rename(&t->fs, "b", ""), -EINVAL);	/* itself */
	th_fsck_clean(t);
}

static void test_mv_refused(void **state)
{
	struct th *t = *state;
	uint64_t n;

	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	assert_int_equal(famfs_mkdir(&t->fs, "d/s", 0755, 0, 0, true), 0);
	th_touch(t, "c", "not famfs's");
	n = walk(t).n;
	famfs_quiet = 1;
	assert_int_equal(famfs_rename(&t->fs, "a", "b"), -EEXIST);	/* logged */
	assert_int_equal(famfs_rename(&t->fs, "a", "c"), -EEXIST);	/* here */
	assert_int_equal(famfs_rename(&t->fs, "d", "d/s/x"), -EINVAL);	/* into itself */
	assert_int_equal(famfs_rename(&t->fs, "a", "nodir/x"), -ENOENT);
	assert_int_equal(famfs_rename(&t->fs, "a", "b/x"), -ENOTDIR);
	assert_int_equal(famfs_rename(&t->fs, "x", "y"), -ENOENT);	/* not logged */
	assert_int_equal(famfs_rename(&t->fs, "a", "a"), -EINVAL);
	assert_int_equal(walk(t).n, n);
	assert_true(th_exists(t, "a", false));
}

/* famfs mv with a trailing / (cmd_mv.c passes it on), as mv(1): a DST
 * of "b/" names a directory -- a file is not moved to a b that is not
 * one (Not a directory), a directory is renamed to it; a SRC of "a/"
 * that the log has as a file is refused; nothing logged for those */
/* rm(1) refuses "FILE/": a trailing slash names a directory */
static void test_rm_trailing_slash(void **state)
{
	struct th *t = *state;
	uint64_t n;

	th_create_nozero(&t->fs, "a", 100);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	n = walk(t).n;
	famfs_quiet = 1;
	assert_int_equal(famfs_remove(&t->fs, "a/", false), -ENOTDIR);
	assert_int_equal(famfs_remove(&t->fs, "a/", true), -ENOTDIR);
	famfs_quiet = 0;
	assert_int_equal(walk(t).n, n);
	assert_true(th_exists(t, "a", false));
	assert_int_equal(famfs_remove(&t->fs, "d/", true), 0);
	assert_false(th_exists(t, "d", true));
}

static void test_mv_trailing_slash(void **state)
{
	struct th *t = *state;
	uint64_t n, off;

	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "e", 0755, 0, 0, false), 0);
	off = th_mock_off_or_0(t, "a");
	n = walk(t).n;
	famfs_quiet = 1;
	assert_int_equal(famfs_rename(&t->fs, "a", "nob/"), -ENOTDIR);
	assert_int_equal(famfs_rename(&t->fs, "a", "b/"), -ENOTDIR);
	assert_int_equal(famfs_rename(&t->fs, "a/", "z"), -ENOTDIR);
	assert_int_equal(walk(t).n, n);
	assert_true(th_exists(t, "a", false));
	assert_false(th_exists(t, "nob", false));
	assert_false(th_exists(t, "z", false));
	famfs_quiet = 0;
	/* into a directory of the log; a directory renamed, slashes or not */
	assert_int_equal(famfs_rename(&t->fs, "a", "d/"), 0);
	assert_int_equal(th_mock_off_or_0(t, "d/a"), off);
	assert_int_equal(famfs_rename(&t->fs, "e/", "f/"), 0);
	assert_true(th_exists(t, "f", true));
	assert_false(th_exists(t, "e", true));
	th_fsck_clean(t);
}

static void test_chmod_chown(void **state)
{
	struct th *t = *state;
	struct famfs_modespec m;
	struct famfs_ns ns;
	struct last l;
	char p[700];
	struct stat st;

	th_create_nozero(&t->fs, "a", 100);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0700, 0, 0, false), 0);
	assert_int_equal(famfs_mode_parse("600", &m, NULL), 0);
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_MODE, &m, 0, 0), 0);
	assert_true(incompat(t) & FAMFS_FEATURE_INCOMPAT_SETATTR);
	assert_false(incompat(t) & FAMFS_FEATURE_INCOMPAT_DELETE);
	l = walk(t);
	assert_int_equal(l.type, FAMFS_LOG_SETATTR);
	assert_int_equal(famfs_ns_get(&l.e, &ns), 0);
	assert_int_equal(ns.valid, FAMFS_SETATTR_MODE);
	assert_int_equal(ns.mode, 0600);
	assert_int_equal(th_mode_of(t, "a"), 0600);
	/* symbolic: applied to the mode the log has */
	assert_int_equal(famfs_mode_parse("g+r,o+X", &m, NULL), 0);
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_MODE, &m, 0, 0), 0);
	assert_int_equal(th_mode_of(t, "a"), 0640);
	assert_int_equal(famfs_setattr(&t->fs, "d", FAMFS_SETATTR_MODE, &m, 0, 0), 0);
	assert_int_equal(th_mode_of(t, "d"), 0741);
	/* owner (as root: the uid here too) */
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_UID | FAMFS_SETATTR_GID,
				       NULL, 1234, 4321), 0);
	l = walk(t);
	assert_int_equal(famfs_ns_get(&l.e, &ns), 0);
	assert_int_equal(ns.uid, 1234);
	assert_int_equal(ns.gid, 4321);
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(stat(p, &st), 0);
	if (!geteuid()) {
		assert_int_equal(st.st_uid, 1234);
		assert_int_equal(st.st_gid, 4321);
	}
	/* (uid_t)-1 is no owner */
	famfs_quiet = 1;
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_UID, NULL,
				       UINT32_MAX, 0), -EINVAL);
	th_fsck_clean(t);
}

/* chown of a set-id file: the kernel drops S_ISUID (and S_ISGID with
 * group execute) here, as chown(2) does; the log must say the same, or
 * every other host (and this one's remount) gives the new owner a set-id
 * file the master does not have */
static void test_chown_drops_setid(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_modespec m;
	char cmd[700];

	if (geteuid())
		skip();
	th_create_nozero(&t->fs, "a", 100);
	assert_int_equal(famfs_mode_parse("6755", &m, NULL), 0);
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_MODE, &m, 0, 0), 0);
	assert_int_equal(th_mode_of(t, "a"), 06755);
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_UID, NULL,
				       0, 0), 0);
	assert_int_equal(th_mode_of(t, "a"), 0755);
	/* what the log says: a remount's replay */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/.meta'", t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.conflicts + r.errors, 0);
	assert_int_equal(th_mode_of(t, "a"), 0755);
}

/* another opening (another process) removes and renames while this one
 * holds a create cache built before the log had deletes or renames: this
 * one's next create judges the paths as the log has them now -- the
 * renamed-to path taken, the removed one free -- not by its table of
 * first paths */
static void test_other_process_stale_cache(void **state)
{
	struct th *t = *state;
	struct famfs_fs other;

	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	assert_non_null(t->fs.cache_alloc);
	assert_int_equal(famfs_fs_open_dev(t->img, true, &other), 0);
	snprintf(other.mpt, sizeof(other.mpt), "%s", t->mpt);
	assert_int_equal(famfs_rename(&other, "b", "x"), 0);
	assert_int_equal(famfs_remove(&other, "a", false), 0);
	famfs_fs_close(&other);
	famfs_quiet = 1;
	assert_int_equal(famfs_file_create(&t->fs, "x", 100, 0644, 0, 0), -EEXIST);
	famfs_quiet = 0;
	th_create_nozero(&t->fs, "a", 100);
	th_fsck_clean(t);
}

/* a follower on the master's own mount (mount -o follow everywhere, or a
 * client that took the master role): what famfs rm, mv, chmod did here
 * already is what the log says -- no conflict */
static void test_own_follower_quiet(void **state)
{
	struct th *t = *state;
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_logplay_result r;
	struct famfs_modespec m;

	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	th_create_nozero(&t->fs, "c", 100);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(famfs_remove(&t->fs, "d", true), 0);
	assert_int_equal(famfs_rename(&t->fs, "b", "x"), 0);
	assert_int_equal(famfs_mode_parse("600", &m, NULL), 0);
	assert_int_equal(famfs_setattr(&t->fs, "c", FAMFS_SETATTR_MODE, &m, 0, 0), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.conflicts + r.errors, 0);
	assert_false(th_exists(t, "a", false));
	assert_true(th_exists(t, "x", false));
	famfs_logplay_free(lp);
}

static void test_modes(void **state)
{
	static const struct { const char *s; unsigned old, file, dir; } c[] = {
		{ "755", 0, 0755, 0755 },
		/* chmod(1) on a directory: a numeric mode of at most 4
		 * digits keeps the set-id bits it does not name (5 digits,
		 * or =, - with an octal, clear them); a file takes it all */
		{ "0640", 07777, 0640, 06640 },
		{ "755", 02755, 0755, 02755 },
		{ "0755", 06755, 0755, 06755 },
		{ "2700", 04755, 02700, 06700 },
		{ "00755", 06755, 0755, 0755 },
		{ "000755", 02755, 0755, 0755 },
		{ "=755", 06755, 0755, 0755 },
		{ "-2000", 06755, 04755, 04755 },
		{ "+2000", 0755, 02755, 02755 },
		{ "u=rwx", 06755, 02755, 06755 },
		{ "u+x", 0644, 0744, 0744 },
		{ "go-r", 0644, 0600, 0600 },
		{ "a=rX", 0700, 0555, 0555 },
		{ "a=rX", 0600, 0444, 0555 },
		{ "u=rwx,g=rx,o=", 0, 0750, 0750 },
		{ "+t", 0755, 01755, 01755 },
		{ "ug+s", 0755, 06755, 06755 },
		{ "o+w-x", 0775, 0776, 0776 },
	};
	static const char *const bad[] = { "8", "77777", "u+q", "z+x", "u", "", "u+x,", "+x y",
					   "u=755", "=7a", "=77777", "+644r" };
	struct famfs_modespec m;

	(void)state;
	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		assert_int_equal(famfs_mode_parse(c[i].s, &m, NULL), 0);
		if (famfs_mode_apply(&m, c[i].old, false) != c[i].file ||
		    famfs_mode_apply(&m, c[i].old, true) != c[i].dir)
			fail_msg("%s on 0%o: 0%o 0%o", c[i].s, c[i].old,
				 famfs_mode_apply(&m, c[i].old, false),
				 famfs_mode_apply(&m, c[i].old, true));
	}
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (famfs_mode_parse(bad[i], &m, NULL) != -EINVAL)
			fail_msg("'%s' accepted", bad[i]);
}

/* a client: refused with a create's message, nothing logged */
static void test_client_refused(void **state)
{
	struct th *t = *state;
	struct famfs_modespec m;
	char err[4096], mk[4096];
	uint64_t n;

	th_create_nozero(&t->fs, "a", 100);
	n = walk(t).n;
	th_become_client(t);
	th_stderr_grab();
	assert_int_equal(famfs_file_create(&t->fs, "z", 100, 0644, 0, 0), -EPERM);
	th_stderr_take(mk, sizeof(mk));
	assert_non_null(strstr(mk, "is a client; only the master"));
	th_stderr_grab();
	assert_int_equal(famfs_remove(&t->fs, "a", false), -EPERM);
	th_stderr_take(err, sizeof(err));
	assert_string_equal(err, mk);
	assert_int_equal(famfs_mode_parse("600", &m, NULL), 0);
	famfs_quiet = 1;
	assert_int_equal(famfs_rename(&t->fs, "a", "b"), -EPERM);
	assert_int_equal(famfs_setattr(&t->fs, "a", FAMFS_SETATTR_MODE, &m, 0, 0), -EPERM);
	assert_int_equal(walk(t).n, n);
	assert_true(th_exists(t, "a", false));
}

/* a new process (no summary of first paths is trusted any more): the
 * deleted and renamed paths are free, the new ones taken */
static void test_new_process_judges(void **state)
{
	struct th *t = *state;

	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	th_create_nozero(&t->fs, "c", 100);
	assert_int_equal(th_reopen(t), 0);	/* a summary is written */
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(famfs_rename(&t->fs, "b", "x"), 0);
	assert_int_equal(th_reopen(t), 0);
	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	famfs_quiet = 1;
	assert_int_equal(famfs_file_create(&t->fs, "x", 100, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_file_create(&t->fs, "c", 100, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), -EEXIST);
	th_fsck_clean(t);
}

/* one lock hold for a batch: rm of many paths in it */
static void test_batch(void **state)
{
	struct th *t = *state;
	char rel[32];

	for (int i = 0; i < 10; i++) {
		snprintf(rel, sizeof(rel), "f%d", i);
		th_create_nozero(&t->fs, rel, 100);
	}
	assert_int_equal(famfs_fs_hold(&t->fs), 0);
	for (int i = 0; i < 10; i++) {
		snprintf(rel, sizeof(rel), "f%d", i);
		assert_int_equal(famfs_remove(&t->fs, rel, false), 0);
		assert_true(t->fs.held && t->fs.locked);
	}
	famfs_fs_release(&t->fs);
	assert_int_equal(th_count_entries(t->mpt), 1);	/* .meta */
	th_fsck_clean(t);
}

/* a full compact log grows for a RENAME (4 slots) as for a create */
static void test_log_grows(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	char a[300], b[300], rel[32];
	uint64_t cap;

	(void)state;
	th_create_nozero(&t->fs, "a", 100);
	cap = famfs_log_cap(&t->fs);
	for (unsigned i = 0; famfs_log_next(t->fs.log) + 2 < cap; i++) {
		snprintf(rel, sizeof(rel), "d%u", i);
		th_append_dir(t, rel);
	}
	memset(a, 'a', 250);
	a[250] = '\0';
	memset(b, 'b', 250);
	b[250] = '\0';
	famfs_quiet = 1;
	assert_int_equal(famfs_rename(&t->fs, "a", a), 0);
	assert_int_equal(famfs_rename(&t->fs, a, b), 0);
	assert_true(famfs_log_cap(&t->fs) > cap);
	assert_true(th_mock_off_or_0(t, b) != 0);
	th_fsck_clean(t);
	th_free(t);
}

/* the entry in the log, the change here not made (a crash in between):
 * famfs logplay makes the tree what the log says */
static void test_crash_after_entry(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_log_entry e;
	uint64_t a, b;

	th_create_nozero(&t->fs, "a", 100);
	th_create_nozero(&t->fs, "b", 100);
	a = 0;
	b = walk(t).idx;
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE |
						 FAMFS_FEATURE_INCOMPAT_RENAME |
						 FAMFS_FEATURE_INCOMPAT_SETATTR, 0), 0);
	assert_int_equal(famfs_entry_build_delete(&e, a, FAMFS_LOG_FILE, "a"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(famfs_entry_build_rename(&e, b, FAMFS_LOG_FILE, "b", "c"), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(famfs_entry_build_setattr(&e, b, FAMFS_LOG_FILE, "c",
						   FAMFS_SETATTR_MODE, 0600, 0, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_true(th_exists(t, "a", false));
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.conflicts + r.errors, 0);
	assert_int_equal(r.removed, 1);
	assert_int_equal(r.moved, 1);
	assert_false(th_exists(t, "a", false));
	assert_false(th_exists(t, "b", false));
	assert_int_equal(th_mode_of(t, "c"), 0600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rm_file, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rm_file_v1, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_rm_dir, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rm_refused, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rm_other_identity, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mv_file, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mv_file_v1, setup_v1, th_teardown),
		cmocka_unit_test_setup_teardown(test_mv_dir, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mv_into_root, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mv_refused, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_rm_trailing_slash, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mv_trailing_slash, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_chmod_chown, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_chown_drops_setid, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_other_process_stale_cache, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_own_follower_quiet, setup, th_teardown),
		cmocka_unit_test(test_modes),
		cmocka_unit_test_setup_teardown(test_client_refused, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_new_process_judges, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_batch, setup, th_teardown),
		cmocka_unit_test(test_log_grows),
		cmocka_unit_test_setup_teardown(test_crash_after_entry, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
