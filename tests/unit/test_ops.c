// SPDX-License-Identifier: GPL-2.0
/* Operations: create, duplicate refusal, concurrent creators, pattern. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "th.h"

static void test_create_logs_and_maps(void **state)
{
	struct th *t = *state;
	struct famfs_ioc_map m;
	struct famfs_log_entry *e;
	char p[700];
	int fd;

	fd = famfs_file_create(&t->fs, "/f//g/../h", 1, 0600, 0, 0);
	assert_int_equal(fd, -EINVAL);		/* '..' refused */
	fd = famfs_file_create(&t->fs, "f", 3 * MiB, 0600, 12, 34);
	assert_true(fd >= 0);
	close(fd);
	e = famfs_log_slot(t->fs.log, 0);
	assert_string_equal(e->fm.path, "f");
	assert_int_equal(le32toh(e->fm.uid), 12);
	assert_int_equal(le64toh(e->fm.size), 3 * MiB);
	snprintf(p, sizeof(p), "%s/f", t->mpt);
	assert_int_equal(th_mock_lookup(p, &m), 0);
	assert_int_equal(m.ext_list[0].offset, 4 * MiB);
	assert_int_equal(m.ext_list[0].len, 4 * MiB);
	/* same path again: refused, log unchanged */
	assert_int_equal(famfs_file_create(&t->fs, "f", 1, 0600, 0, 0), -EEXIST);
	assert_int_equal(famfs_log_next(t->fs.log), 1);
}

static void test_mkdir_parents(void **state)
{
	struct th *t = *state;

	assert_int_equal(famfs_mkdir(&t->fs, "a/b/c", 0755, 0, 0, false), -ENOENT);
	assert_int_equal(famfs_mkdir(&t->fs, "a/b/c", 0755, 0, 0, true), 0);
	assert_int_equal(famfs_log_next(t->fs.log), 3);
	assert_int_equal(famfs_mkdir(&t->fs, "a/b/c", 0755, 0, 0, true), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "a/b", 0755, 0, 0, false), -EEXIST);
	assert_int_equal(famfs_log_next(t->fs.log), 3);
	assert_true(th_exists(t, "a/b/c", true));
}

#define PER_PROC 40

static void creator(struct th *t, int who)
{
	struct famfs_fs fs;
	int bad = 0;

	/* a process of its own, with its own open of the device and lock */
	if (famfs_fs_open_dev(t->img, true, &fs))
		_exit(10);
	snprintf(fs.mpt, sizeof(fs.mpt), "%s", t->mpt);
	for (int i = 0; i < PER_PROC; i++) {
		char p[32];
		int fd;

		snprintf(p, sizeof(p), "p%d-%d", who, i);
		fd = famfs_file_create(&fs, p, 1, 0644, 0, 0);
		if (fd < 0)
			bad++;
		else
			close(fd);
	}
	famfs_fs_close(&fs);
	_exit(bad ? 1 : 0);
}

static void test_concurrent_creators(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	pid_t pid[2];
	int st;

	/* 64 MiB - 4 MiB = 30 units: use a bigger device */
	th_free(t);
	*state = t = th_new(256 * MiB, 2 * MiB);
	for (int i = 0; i < 2; i++) {
		pid[i] = fork();
		assert_true(pid[i] >= 0);
		if (!pid[i])
			creator(t, i);
	}
	for (int i = 0; i < 2; i++) {
		assert_int_equal(waitpid(pid[i], &st, 0), pid[i]);
		assert_true(WIFEXITED(st));
		assert_int_equal(WEXITSTATUS(st), 0);
	}
	assert_int_equal(famfs_log_next(t->fs.log), 2 * PER_PROC);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.files, 2 * PER_PROC);
}

static void test_pattern(void **s)
{
	uint8_t buf[1000];

	(void)s;
	famfs_pattern_fill(buf, sizeof(buf), 42);
	assert_int_equal(famfs_pattern_check(buf, sizeof(buf), 42), -1);
	assert_int_equal(famfs_pattern_check(buf, sizeof(buf), 43) >= 0, 1);
	buf[997] ^= 1;
	assert_int_equal(famfs_pattern_check(buf, sizeof(buf), 42), 997);
}

/* issue 15.9: a new file reads as zeros, not as the old memory, and it is
 * so before its entry is in the log (when other hosts can map it) */
static struct th *zt;
static bool zeroed_before_log = true;
static int log_flushes;

static bool file_is_zero(const char *p, uint64_t size)
{
	char buf[4096];
	FILE *f = fopen(p, "r");
	size_t n;
	uint64_t total = 0;

	assert_non_null(f);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		for (size_t i = 0; i < n; i++)
			if (buf[i]) {
				fclose(f);
				return false;
			}
		total += n;
	}
	fclose(f);
	return total == size;
}

static void zero_hook(const struct famfs_map *m, const void *addr, size_t len)
{
	char p[700];

	(void)addr;
	(void)len;
	if (m != &zt->fs.logm)
		return;
	log_flushes++;
	snprintf(p, sizeof(p), "%s/z", zt->mpt);
	if (!file_is_zero(p, 3 * MiB + 5))
		zeroed_before_log = false;
}

static void test_new_file_reads_zero(void **state)
{
	struct th *t = *state;
	char p[700];
	int fd;

	th_mock_stale = true;
	zt = t;
	famfs_flush_hook = zero_hook;
	fd = famfs_file_create(&t->fs, "z", 3 * MiB + 5, 0644, 0, 0);
	famfs_flush_hook = NULL;
	assert_true(fd >= 0);
	close(fd);
	assert_true(log_flushes > 0);
	assert_true(zeroed_before_log);
	snprintf(p, sizeof(p), "%s/z", t->mpt);
	assert_true(file_is_zero(p, 3 * MiB + 5));
}

/* review of issue 15.9: while the new file's bytes go in (after MAP_CREATE,
 * before its last page is zeroed) it is mapped and in the namespace; no one
 * but its creator may open it then, or another user reads the old memory */
static mode_t fill_mode;
static uid_t fill_uid;

static int mode_fill(void *arg, char *a, uint64_t size)
{
	struct stat st;

	assert_int_equal(stat((const char *)arg, &st), 0);
	fill_mode = st.st_mode & 07777;
	fill_uid = st.st_uid;
	memset(a, 'x', size);
	return 0;
}

static void test_private_until_filled(void **state)
{
	struct th *t = *state;
	struct famfs_fill f = { .fn = mode_fill };
	char p[700];
	struct stat st;
	int fd;

	snprintf(p, sizeof(p), "%s/priv", t->mpt);
	f.arg = p;
	th_mock_stale = true;
	fd = famfs_file_create_fill(&t->fs, "priv", MiB + 3, 0644, getuid(),
				    getgid(), NULL, &f);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(fill_mode & 077, 0);	/* not group/other readable */
	assert_int_equal(fill_uid, geteuid());
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);	/* its mode once filled */
}

/* issue 15.9: every byte of the new file's 2 MiB units (every strip of an
 * interleaved file) is its own data or zero before it is mapped: written
 * through a map of the whole allocation with the file's layout */
static int whole_fd = -1;
static struct famfs_fmap whole_map;

static uint64_t alloc_bytes(const struct famfs_fmap *m)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < m->count; i++)
		n += m->extent_type == FAMFS_INTERLEAVED_EXTENT ?
		     m->iext[i].nbytes : m->ext[i].len;
	return n;
}

static void whole_hook(int fd, const struct famfs_fmap *m)
{
	if (whole_fd < 0 && m->file_size == alloc_bytes(m)) {
		whole_fd = dup(fd);	/* read after its unlink */
		whole_map = *m;
	}
}

static int x_fill(void *arg, char *a, uint64_t size)
{
	(void)arg;
	memset(a, 'x', size);
	return 0;
}

/* the new file rel (size bytes, data bytes 'x' then zeros): its whole
 * allocation was written through whole_fd, with the file's own extents */
static void check_whole(struct th *t, const char *rel, uint64_t size,
			uint64_t data)
{
	struct famfs_fmap real;
	char p[700], buf[4096];
	uint64_t len, off;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	assert_int_equal(th_mock_lookup_fmap(p, &real), 0);
	assert_int_equal(real.file_size, size);
	assert_true(whole_fd >= 0);
	len = alloc_bytes(&real);
	assert_int_equal(whole_map.file_size, len);
	assert_true(len > size);
	whole_map.file_size = real.file_size;
	/* the identity is the file's (its FILE entry's), not the memory's */
	assert_false(whole_map.has_ident);
	whole_map.has_ident = real.has_ident;
	whole_map.ident = real.ident;
	assert_memory_equal(&whole_map, &real, sizeof(real));
	for (off = 0; off < len; off += sizeof(buf)) {
		assert_int_equal(pread(whole_fd, buf, sizeof(buf), (off_t)off),
				 sizeof(buf));
		for (size_t i = 0; i < sizeof(buf); i++)
			if (buf[i] != (off + i < data ? 'x' : 0))
				fail_msg("%s: byte %llu of its memory is %#x", rel,
					 (unsigned long long)(off + i),
					 (unsigned char)buf[i]);
	}
	close(whole_fd);
	whole_fd = -1;
	/* and the scratch file is gone */
	snprintf(p, sizeof(p), "%s/.meta", t->mpt);
	assert_int_equal(th_count_entries(p), 0);
}

static void test_new_alloc_reads_zero(void **state)
{
	struct th *t = *state;
	struct famfs_layout lay = { .nstrips = 2, .chunk = 2 * MiB };
	struct famfs_fill f = { .fn = x_fill };
	int fd;

	th_mock_stale = true;
	th_mock_before_create = whole_hook;
	fd = famfs_file_create(&t->fs, "u4k", 4096, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	check_whole(t, "u4k", 4096, 0);
	fd = famfs_file_create_fill(&t->fs, "u5000", 5000, 0644, 0, 0, NULL, &f);
	assert_true(fd >= 0);
	close(fd);
	check_whole(t, "u5000", 5000, 5000);
	fd = famfs_file_create_fill(&t->fs, "uil", 5 * MiB, 0644, 0, 0, &lay, &f);
	assert_true(fd >= 0);
	close(fd);
	check_whole(t, "uil", 5 * MiB, 5 * MiB);
	th_mock_before_create = NULL;
}

/* issue 15: a creator killed between the MAP_CREATEs and the log append
 * leaves a mapped file not in the log; SIGTERM (and the like) raised
 * meanwhile arrives only once the entry is in the log */
static struct th *sig_th;
static volatile sig_atomic_t term_at = -1;

static void on_term(int sig)
{
	(void)sig;
	term_at = (sig_atomic_t)famfs_log_next(sig_th->fs.log);
}

static int term_fill(void *arg, char *a, uint64_t size)
{
	(void)arg;
	raise(SIGTERM);
	raise(SIGINT);
	memset(a, 't', size);
	return 0;
}

static void test_signals_held_until_logged(void **state)
{
	struct th *t = *state;
	struct sigaction sa = { .sa_handler = on_term }, oterm, oint;
	struct famfs_fill f = { .fn = term_fill };
	sigset_t now;
	int fd;

	sig_th = t;
	assert_int_equal(sigaction(SIGTERM, &sa, &oterm), 0);
	assert_int_equal(sigaction(SIGINT, &sa, &oint), 0);
	fd = famfs_file_create_fill(&t->fs, "sig", 4096, 0644, 0, 0, NULL, &f);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(term_at, 1);	/* delivered after the append */
	/* and the mask is the caller's again */
	assert_int_equal(sigprocmask(SIG_BLOCK, NULL, &now), 0);
	assert_false(sigismember(&now, SIGTERM));
	assert_false(sigismember(&now, SIGINT));
	sigaction(SIGTERM, &oterm, NULL);
	sigaction(SIGINT, &oint, NULL);
}

/* issue 27 item 3: a create is judged by the log, not by the local tree
 * (a file removed here is still logged; a directory made here without
 * famfs is not): a path the log has already, or one under a path the log
 * has as a file, is refused with a message naming what the log has
 * there.  Else clients see "logged twice", a file where a directory
 * belongs, and memory they cannot reach. */
static void rel_mkdir(struct th *t, const char *rel)
{
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void rel_rm(struct th *t, const char *rel, bool dir)
{
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	assert_int_equal(dir ? rmdir(p) : unlink(p), 0);
}

static void judged_by_log(struct th *t)
{
	struct famfs_fsck_result r;
	char msg[8192];
	uint64_t n;

	th_create_ok(&t->fs, "f", 1);					/* 0 */
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);	/* 1 */
	rel_rm(t, "f", false);
	rel_rm(t, "d", true);
	n = famfs_log_next(t->fs.log);
	/* this opening's cache, then a new opening's (the summary) */
	for (int round = 0; round < 2; round++) {
		th_stderr_grab();
		/* f is a file in the log: no directory there, nothing under it */
		assert_int_equal(famfs_mkdir(&t->fs, "f", 0755, 0, 0, false), -EEXIST);
		assert_int_equal(famfs_mkdir(&t->fs, "f", 0755, 0, 0, true), -EEXIST);
		rel_mkdir(t, "f");	/* a plain mkdir: not logged */
		assert_int_equal(famfs_file_create(&t->fs, "f/x", 1, 0644, 0, 0),
				 -ENOTDIR);
		assert_int_equal(famfs_mkdir(&t->fs, "f/y", 0755, 0, 0, false),
				 -ENOTDIR);
		assert_int_equal(famfs_mkdir(&t->fs, "f/y/z", 0755, 0, 0, true),
				 -ENOTDIR);
		rel_rm(t, "f", true);
		/* d is a directory in the log, not here: not logged again */
		assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), -EEXIST);
		assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, true), -EEXIST);
		assert_int_equal(famfs_file_create(&t->fs, "d", 1, 0644, 0, 0), -EEXIST);
		th_stderr_take(msg, sizeof(msg));
		assert_non_null(strstr(msg, "/f: already in the log, as a file (entry 0)"));
		assert_non_null(strstr(msg, "/f/x: not created: f is a file in the log (entry 0)"));
		assert_non_null(strstr(msg, "/f/y: not created: f is a file in the log (entry 0)"));
		assert_non_null(strstr(msg, "/d: already in the log, as a directory (entry 1)"));
		assert_int_equal(famfs_log_next(t->fs.log), n);
		assert_false(th_exists(t, "f", true) || th_exists(t, "d", true));
		assert_int_equal(th_reopen(t), 0);
	}
	/* d made again here (as a replay does): it is there, and under it
	 * may be created */
	rel_mkdir(t, "d");
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, true), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), -EEXIST);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, false), 0);
	th_create_ok(&t->fs, "d/e/g", 1);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.files, 2);
	assert_int_equal(r.dirs, 2);
}

static void test_judged_by_log(void **state)
{
	judged_by_log(*state);
}

static int setup_compact(void **state)
{
	*state = th_new_fmt(64 * MiB, 2 * MiB, true);
	return 0;
}

/* (uid_t)-1 and (gid_t)-1 are chown(2)'s "no change", never an owner:
 * -u/-g 4294967295 was logged while the chown left the file the creator's
 * (every other host gives it whatever its replay's chown does).  Refused
 * before anything is made: no entry, no file. */
static void test_owner_minus_one_refused(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	uint64_t n = famfs_log_next(t->fs.log);
	int fd;

	if (famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755, UINT32_MAX, 0,
			      NULL, 0) != -EINVAL)
		fail_msg("an entry with uid 4294967295 ((uid_t)-1) was built");
	if (famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755, 0, UINT32_MAX,
			      NULL, 0) != -EINVAL)
		fail_msg("an entry with gid 4294967295 ((gid_t)-1) was built");
	fd = famfs_file_create(&t->fs, "u", 2 * MiB, 0644, UINT32_MAX, 0);
	if (fd >= 0) {
		close(fd);
		fail_msg("a file with uid 4294967295 was created");
	}
	assert_int_equal(fd, -EINVAL);
	fd = famfs_file_create(&t->fs, "g", 2 * MiB, 0644, 0, UINT32_MAX);
	if (fd >= 0) {
		close(fd);
		fail_msg("a file with gid 4294967295 was created");
	}
	assert_int_equal(fd, -EINVAL);
	assert_int_equal(famfs_mkdir(&t->fs, "du", 0755, UINT32_MAX, 0, false),
			 -EINVAL);
	assert_int_equal(famfs_mkdir(&t->fs, "p/dg", 0755, 0, UINT32_MAX, true),
			 -EINVAL);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_false(th_exists(t, "u", false));
	assert_false(th_exists(t, "g", false));
	assert_false(th_exists(t, "du", true));
	assert_false(th_exists(t, "p", true));
	/* the id below it is an owner like any other */
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755,
					   UINT32_MAX - 1, UINT32_MAX - 1,
					   NULL, 0), 0);
}

/* famfs flush (famfs_file_cache) of a file that is not on famfs: an error
 * (it reported success for /proc/self/status and any empty file: their
 * size 0 skipped the ioctl) */
static void test_cache_not_famfs_refused(void **state)
{
	char tmpl[PATH_MAX];
	int fd;

	(void)state;
	th_tmpl(tmpl, sizeof(tmpl), "famfs-ut-notfamfs");
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	if (famfs_file_cache(fd, false) == 0)
		fail_msg("/proc/self/status flushed as if it were a famfs file");
	assert_int_equal(famfs_file_cache(fd, true), -ENOTTY);
	close(fd);
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	unlink(tmpl);
	assert_int_equal(famfs_file_cache(fd, false), -ENOTTY);	/* empty */
	assert_int_equal(write(fd, "x", 1), 1);
	assert_int_equal(famfs_file_cache(fd, true), -ENOTTY);
	close(fd);
}

/*
 * review rev1 LOW: the master role away and back while a create fills its
 * file (another instance's entries appended meanwhile, the record left
 * released): the append's check claims the record again, and next_index
 * is past the index famfs.ko was given as the file's identity.  The
 * create fails, nothing left of it (its allocation came from a view from
 * before the claim too); never a file famfs.ko knows as another entry's,
 * which famfs rm would refuse until a remount.
 */
static struct th *away;

static void role_away_and_back(int fd, const struct famfs_fmap *m)
{
	(void)fd;
	(void)m;
	th_mock_before_create = NULL;
	th_append_dir(away, "other");	/* stands for the other's entry */
	assert_int_equal(famfs_master_set(&away->fs, away->fs.host_uuid), 0);
}

static void test_role_back_during_create(void **state)
{
	struct th *t = *state;
	uint64_t id;
	int fd, kind, rc;

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_DELETE, 0), 0);
	away = t;
	th_mock_before_create = role_away_and_back;
	famfs_quiet = 1;
	fd = famfs_file_create(&t->fs, "f", 3 * MiB, 0644, 0, 0);
	th_mock_before_create = NULL;
	if (fd >= 0) {
		close(fd);
		rc = famfs_remove(&t->fs, "f", false);
		famfs_quiet = 0;
		fail_msg("created with the identity of log entry %llu but logged as entry %llu; famfs rm of it: %d",
			 (unsigned long long)famfs_log_next(t->fs.log) - 2,
			 (unsigned long long)t->fs.last_append, rc);
	}
	famfs_quiet = 0;
	assert_int_equal(fd, -EAGAIN);
	assert_true(th_exists(t, "other", true));	/* the claim's replay */
	assert_false(th_exists(t, "f", false));
	t->fs.cache_names_want = true;
	assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
	assert_false(famfs_names_lookup(t->fs.cache_names, "f", &id, &kind));
	/* again: made, and removed */
	th_create_ok(&t->fs, "f", 3 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "f", false), 0);
	assert_false(th_exists(t, "f", false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_create_logs_and_maps, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mkdir_parents, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_judged_by_log, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_judged_by_log, setup_compact, th_teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_creators, th_setup, th_teardown),
		cmocka_unit_test(test_pattern),
		cmocka_unit_test_setup_teardown(test_new_file_reads_zero, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_private_until_filled, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_new_alloc_reads_zero, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_signals_held_until_logged, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_owner_minus_one_refused, th_setup, th_teardown),
		cmocka_unit_test(test_cache_not_famfs_refused),
		cmocka_unit_test_setup_teardown(test_role_back_during_create, setup_compact, th_teardown),
	};

	return cmocka_run_group_tests_name("ops", tests, NULL, NULL);
}
