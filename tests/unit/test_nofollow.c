// SPDX-License-Identifier: GPL-2.0
/*
 * No metadata change through a symbolic link (issue 27.2): a replay, the
 * master's mkdir and create, the meta files of a mount, the scratch file
 * a create zeroes through, the claim and summary files.  Each change is
 * made on a descriptor opened beneath the mount root without following a
 * link; a name swapped for a link (or for another directory) between the
 * make and the change is refused, and what the link points to is left as
 * it was.
 */
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

/* path = t->dir/rel */
static const char *at_dir(struct th *t, const char *rel, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", t->dir, rel);
	return out;
}

static const char *at_mpt(struct th *t, const char *rel, char *out, size_t n)
{
	snprintf(out, n, "%s/%s", t->mpt, rel);
	return out;
}

/* a file outside the mount standing for /etc/shadow: 0600, root's */
static void make_victim_file(const char *p, const char *content)
{
	FILE *f = fopen(p, "w");

	assert_non_null(f);
	fputs(content, f);
	fclose(f);
	assert_int_equal(chmod(p, 0600), 0);
	assert_int_equal(chown(p, 0, 0), 0);
}

static void same_owner_mode(const char *p, uid_t uid, gid_t gid, mode_t mode,
			    const char *what)
{
	struct stat st;

	assert_int_equal(stat(p, &st), 0);
	if ((st.st_mode & 07777) != mode || st.st_uid != uid || st.st_gid != gid)
		fail_msg("%s: %s is now 0%o %u:%u (was 0%o %u:%u)", what, p,
			 st.st_mode & 07777, st.st_uid, st.st_gid, mode, uid, gid);
}

static void same_content(const char *p, const char *want)
{
	char buf[256] = "";
	FILE *f = fopen(p, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	if (strcmp(buf, want))
		fail_msg("%s was written through a symbolic link: \"%s\" (was \"%s\")",
			 p, buf, want);
}

/* ---- replay ------------------------------------------------------------------ */
/* the hook between the replay's mkdirat and the directory's owner and
 * mode: name is renamed away and replaced by a symbolic link to swap_to
 * ('s'), a hard link to it ('l', a file of the same mount) or the
 * directory swap_to of the same mount itself ('d') */
static char swap_name[64], swap_to[700];
static char swap_how;

static void swap_made_dir(int pfd, const char *name)
{
	char real[128];

	if (strcmp(name, swap_name))
		return;
	swap_name[0] = '\0';
	snprintf(real, sizeof(real), "%s.real", name);
	assert_int_equal(renameat(pfd, name, pfd, real), 0);
	if (swap_how == 'd')
		assert_int_equal(renameat(AT_FDCWD, swap_to, pfd, name), 0);
	else if (swap_how == 'l')
		assert_int_equal(linkat(AT_FDCWD, swap_to, pfd, name, 0), 0);
	else
		assert_int_equal(symlinkat(swap_to, pfd, name), 0);
}

static int play_swapping(struct th *t, const char *name, const char *to,
			 char how, struct famfs_logplay_result *r, char *msg,
			 size_t n)
{
	mode_t old = umask(022);
	int rc;

	snprintf(swap_name, sizeof(swap_name), "%s", name);
	snprintf(swap_to, sizeof(swap_to), "%s", to);
	swap_how = how;
	famfs_logplay_mkdir_hook = swap_made_dir;
	th_stderr_grab();
	rc = famfs_logplay(&t->fs, false, r);
	th_stderr_take(msg, n);
	famfs_logplay_mkdir_hook = NULL;
	umask(old);
	if (swap_name[0])
		fail_msg("the replay never made %s", name);
	return rc;
}

/* A logged directory whose mode has bits the umask takes (0777) and
 * another owner: the replay chowns and chmods it.  Swapped for a link to
 * a root file between the mkdir and the chmod, the file keeps its owner
 * and mode, and the replay says why the directory got neither. */
static void test_replay_dir_swapped_for_link(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	char shadow[400], msg[8192], p[800];

	assert_int_equal(famfs_mkdir(&t->fs, "d", 0777, 1234, 1234, false), 0);
	th_remount(t);
	make_victim_file(at_dir(t, "shadow", shadow, sizeof(shadow)), "secret\n");
	assert_int_equal(play_swapping(t, "d", shadow, 's', &r, msg, sizeof(msg)), 0);
	same_owner_mode(shadow, 0, 0, 0600,
			"a replay's chmod/chown of a new directory swapped for a symbolic link");
	assert_true(r.errors >= 1);
	assert_non_null(strstr(msg, at_mpt(t, "d: ", p, sizeof(p))));
	assert_non_null(strstr(msg, "symbolic link"));
}

/* famfs.ko has no symbolic links, but it has hard links: the new directory
 * swapped for a hard link to root's 0600 file of the mount.  The file
 * keeps its owner and mode (fchmodat and fchownat change a hard link's
 * file whatever their flags). */
static void test_replay_dir_swapped_for_hard_link(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	char secret[400], msg[8192];

	assert_int_equal(famfs_mkdir(&t->fs, "d", 0777, 1234, 1234, false), 0);
	th_remount(t);
	make_victim_file(at_mpt(t, "secret", secret, sizeof(secret)), "secret\n");
	assert_int_equal(play_swapping(t, "d", secret, 'l', &r, msg, sizeof(msg)), 0);
	same_owner_mode(secret, 0, 0, 0600,
			"a replay's chmod/chown of a new directory swapped for a hard link");
	assert_true(r.errors >= 1);
	assert_non_null(strstr(msg, "not a directory"));
}

/* The same when the name is swapped for another directory of the mount
 * (someone else's): it keeps its owner and mode. */
static void test_replay_dir_swapped_for_other_dir(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	char victim[400], moved[400], msg[8192];

	assert_int_equal(famfs_mkdir(&t->fs, "d", 0777, 1234, 1234, false), 0);
	th_remount(t);
	at_mpt(t, "victim", victim, sizeof(victim));
	assert_int_equal(mkdir(victim, 0700), 0);
	assert_int_equal(chown(victim, 4321, 4321), 0);
	assert_int_equal(chmod(victim, 0700), 0);
	assert_int_equal(play_swapping(t, "d", victim, 'd', &r, msg, sizeof(msg)), 0);
	same_owner_mode(at_mpt(t, "d", moved, sizeof(moved)), 4321, 4321, 0700,
			"another's directory swapped in for a replay's new one");
	assert_true(r.errors >= 1);
}

/* ---- the master's mkdir -------------------------------------------------------- */
/* at the first flush after fl_dir exists as a directory (the append that
 * logs it), fl_dir is renamed away and replaced by a link to fl_to */
static char fl_dir[700], fl_to[700];

static void swap_on_flush(const struct famfs_map *m, const void *a, size_t l)
{
	char real[760];
	struct stat st;

	(void)m, (void)a, (void)l;
	if (!fl_dir[0] || lstat(fl_dir, &st) || !S_ISDIR(st.st_mode))
		return;
	snprintf(real, sizeof(real), "%s.real", fl_dir);
	assert_int_equal(rename(fl_dir, real), 0);
	assert_int_equal(symlink(fl_to, fl_dir), 0);
	fl_dir[0] = '\0';
}

/* famfs mkdir -u 1234 pub/alice, pub/alice swapped for a link to an
 * outside directory (standing for /etc) while the entry is appended: the
 * outside directory keeps its owner and mode; the directory made gets
 * them */
static void test_master_mkdir_swapped_during_append(void **state)
{
	struct th *t = *state;
	char etc[400], real[400];

	assert_int_equal(famfs_mkdir(&t->fs, "pub", 0777, 0, 0, false), 0);
	at_dir(t, "etc", etc, sizeof(etc));
	assert_int_equal(mkdir(etc, 0700), 0);
	assert_int_equal(chmod(etc, 0700), 0);
	at_mpt(t, "pub/alice", fl_dir, sizeof(fl_dir));
	snprintf(fl_to, sizeof(fl_to), "%s", etc);
	famfs_flush_hook = swap_on_flush;
	assert_int_equal(famfs_mkdir(&t->fs, "pub/alice", 0750, 1234, 1234, false), 0);
	famfs_flush_hook = NULL;
	if (fl_dir[0])
		fail_msg("the append of pub/alice flushed nothing");
	same_owner_mode(etc, 0, 0, 0700,
			"the master's mkdir -u of a directory swapped for a symbolic link during its append");
	same_owner_mode(at_mpt(t, "pub/alice.real", real, sizeof(real)),
			1234, 1234, 0750, "the directory the master made");
}

/* a link in the middle of the path: nothing made where it points, nothing
 * logged */
static void test_master_mkdir_through_link(void **state)
{
	struct th *t = *state;
	char out[400], ln[400], p[500];
	uint64_t n = famfs_log_next(t->fs.log);
	int rc;

	assert_int_equal(mkdir(at_dir(t, "outside", out, sizeof(out)), 0755), 0);
	assert_int_equal(symlink(out, at_mpt(t, "ln", ln, sizeof(ln))), 0);

	th_stderr_grab();
	rc = famfs_mkdir(&t->fs, "ln/d", 0755, 0, 0, false);
	th_stderr_take(p, sizeof(p));
	if (rc == 0)
		fail_msg("famfs mkdir ln/d through a symbolic link ln succeeded");
	assert_non_null(strstr(p, "symbolic link"));
	assert_int_equal(th_count_entries(out), 0);
	assert_int_equal(famfs_log_next(t->fs.log), n);
}

static void test_master_create_through_link(void **state)
{
	struct th *t = *state;
	char out[400], ln[400], msg[1024];
	uint64_t n = famfs_log_next(t->fs.log);
	int fd;

	assert_int_equal(mkdir(at_dir(t, "outside", out, sizeof(out)), 0755), 0);
	assert_int_equal(symlink(out, at_mpt(t, "ln", ln, sizeof(ln))), 0);
	th_stderr_grab();
	fd = famfs_file_create(&t->fs, "ln/f", MiB, 0644, 0, 0);
	th_stderr_take(msg, sizeof(msg));
	if (fd >= 0)
		fail_msg("famfs mkfile ln/f through a symbolic link ln succeeded");
	assert_non_null(strstr(msg, "symbolic link"));
	assert_int_equal(th_count_entries(out), 0);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_int_equal(th_mock_map_count(), 0);
}

/* ---- .meta ---------------------------------------------------------------------- */
/* .meta replaced by a link to an outside directory */
static void meta_link(struct th *t, char *out, size_t n)
{
	char meta[400], real[420];

	at_dir(t, "outside", out, n);
	assert_int_equal(mkdir(out, 0755), 0);
	at_mpt(t, ".meta", meta, sizeof(meta));
	snprintf(real, sizeof(real), "%s.real", meta);
	assert_int_equal(rename(meta, real), 0);
	assert_int_equal(symlink(out, meta), 0);
}

/* a mount's meta files (.meta/.superblock, .meta/.log, a log segment) */
static void test_meta_create_through_link(void **state)
{
	struct th *t = *state;
	char out[400], msg[1024];
	int rc;

	meta_link(t, out, sizeof(out));
	th_stderr_grab();
	rc = famfs_meta_create(t->mpt, FAMFS_META_LOG, 0644, FAMFS_LOG,
			       2 * MiB, 2 * MiB);
	th_stderr_take(msg, sizeof(msg));
	if (rc == 0)
		fail_msg("a meta file was created and mapped through a symbolic link .meta");
	assert_non_null(strstr(msg, "symbolic link"));
	assert_int_equal(th_count_entries(out), 0);
	assert_int_equal(th_mock_map_count(), 0);
}

/* the scratch file a create zeroes the memory through (.meta/.new-PID),
 * and the sweep of dead creators' scratch files */
static void test_scratch_through_link(void **state)
{
	struct th *t = *state;
	char out[400], dead[460], msg[2048];
	int fd;

	meta_link(t, out, sizeof(out));
	snprintf(dead, sizeof(dead), "%s/.new-999999", out);
	make_victim_file(dead, "not famfs's\n");
	th_stderr_grab();
	fd = famfs_file_create(&t->fs, "f", MiB, 0644, 0, 0);
	th_stderr_take(msg, sizeof(msg));
	if (fd >= 0)
		fail_msg("a create zeroed its memory through a scratch file under a symbolic link .meta");
	assert_int_equal(access(dead, F_OK), 0);
	assert_int_equal(th_count_entries(out), 1);
	assert_non_null(strstr(msg, "symbolic link"));
}

/* ---- files outside the mount ------------------------------------------------------ */
/* the temporary file of a claim (claim file + "." + pid), planted as a
 * link to a root file: the file stays as it was, the claim is made */
static void test_claim_tmp_link(void **state)
{
	struct th *t = *state;
	char p[600], tmp[700], victim[400];
	struct famfs_claim c;

	make_victim_file(at_dir(t, "victim", victim, sizeof(victim)), "keep\n");
	assert_int_equal(mkdir(t->claimdir, 0755), 0);
	assert_int_equal(famfs_claim_path(t->fs.sb->fs_uuid, p, sizeof(p)), 0);
	snprintf(tmp, sizeof(tmp), "%s.%d", p, (int)getpid());
	assert_int_equal(symlink(victim, tmp), 0);
	th_append_dir(t, "d");			/* the first append claims */
	same_content(victim, "keep\n");
	assert_int_equal(famfs_claim_read(t->fs.sb->fs_uuid, &c), 0);
	assert_true(c.present);
}

/* the master's create summary, its path a link to a root file */
static void test_summary_link(void **state)
{
	struct th *t = *state;
	char p[600], victim[400];

	make_victim_file(at_dir(t, "victim", victim, sizeof(victim)), "keep\n");
	assert_int_equal(mkdir(t->claimdir, 0755), 0);
	assert_int_equal(famfs_summary_path(t->fs.sb->fs_uuid, p, sizeof(p)), 0);
	assert_int_equal(symlink(victim, p), 0);
	th_create_ok(&t->fs, "f", MiB);
	assert_int_equal(th_reopen(t), 0);	/* the close saves the summary */
	th_create_ok(&t->fs, "g", MiB);
	assert_int_equal(th_reopen(t), 0);
	same_content(victim, "keep\n");
	same_owner_mode(victim, 0, 0, 0600, "the summary's path, a symbolic link");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_replay_dir_swapped_for_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_replay_dir_swapped_for_hard_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_replay_dir_swapped_for_other_dir, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_mkdir_swapped_during_append, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_mkdir_through_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_create_through_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_meta_create_through_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_scratch_through_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_claim_tmp_link, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_summary_link, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
