// SPDX-License-Identifier: GPL-2.0
/*
 * Unit-test helpers: a scratch file system (an image, a "mount point"
 * directory, this host's ids) opened with the mock kernel of th.c, and
 * what the tests do to it (files, the superblock, another host's view).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "th.h"

void th_create_ok(struct famfs_fs *fs, const char *rel, uint64_t size)
{
	int fd = famfs_file_create(fs, rel, size, 0644, 0, 0);

	assert_true(fd >= 0);
	close(fd);
}

void th_create_nozero(struct famfs_fs *fs, const char *rel, uint64_t size)
{
	static const struct famfs_fill nozero = { .nozero = true };
	int fd = famfs_file_create_fill(fs, rel, size, 0644, 0, 0, NULL,
					&nozero);

	assert_true(fd >= 0);
	close(fd);
}

int th_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* ---- images -------------------------------------------------------------- */
void th_write_id(const char *path, const uint8_t uuid[16])
{
	char s[37];
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	uuid_unparse_lower(uuid, s);
	fprintf(f, "%s\n", s);
	fclose(f);
}

/* the scratch "mount" is a plain directory: any directory will do */
uint64_t th_now;
unsigned th_slept;
void (*th_during_wait)(unsigned slept);

static uint64_t th_clock(void)
{
	return th_now;
}

static void th_sleep(unsigned s)
{
	th_now += s;
	th_slept += s;
	if (th_during_wait)
		th_during_wait(th_slept);
}

static int th_any_root(const char *dir, char *reason)
{
	(void)dir;
	(void)reason;
	return 0;
}

struct th *th_new(uint64_t size, uint64_t loglen)
{
	return th_new_fmt(size, loglen, false);
}

bool th_small_files;

struct th *th_new_fmt(uint64_t size, uint64_t loglen, bool compact)
{
	struct th *t = calloc(1, sizeof(*t));
	struct famfs_superblock sb;
	struct famfs_log_header h;
	uint8_t fsid[16], host[16], boot[16];
	char meta[320];
	int fd;

	assert_non_null(t);
	/* the tests written before small files (issue 30) see files in 2 MiB
	 * units; test_pages_*.c turn them on (th_small_files) */
	famfs_small_max = th_small_files ? FAMFS_SMALL_MAX : FAMFS_SMALL_NONE;
	th_tmpl(t->dir, sizeof(t->dir), "famfs-unit");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->img, sizeof(t->img), "%s/img", t->dir);
	snprintf(t->mpt, sizeof(t->mpt), "%s/mnt", t->dir);
	snprintf(t->hostid, sizeof(t->hostid), "%s/host-uuid", t->dir);
	assert_int_equal(mkdir(t->mpt, 0755), 0);
	snprintf(meta, sizeof(meta), "%s/.meta", t->mpt);
	assert_int_equal(mkdir(meta, 0755), 0);
	uuid_generate(host);
	th_write_id(t->hostid, host);
	setenv("FAMFS_HOST_ID_FILE", t->hostid, 1);
	/* this boot, and the local claim of the master role (master.c) */
	snprintf(t->bootid, sizeof(t->bootid), "%s/boot-id", t->dir);
	snprintf(t->claimdir, sizeof(t->claimdir), "%s/claims", t->dir);
	uuid_generate(boot);
	th_write_id(t->bootid, boot);
	setenv("FAMFS_BOOT_ID_FILE", t->bootid, 1);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);

	uuid_generate(fsid);
	famfs_sb_init(&sb, fsid, host, size, loglen);
	if (compact) {
		sb.feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
		famfs_sb_set_crc(&sb);
	}
	famfs_log_hdr_init_fmt(&h, fsid, loglen, compact);
	fd = open(t->img, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)size), 0);
	assert_int_equal(pwrite(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	assert_int_equal(pwrite(fd, &h, sizeof(h), FAMFS_LOG_OFFSET),
			 (ssize_t)sizeof(h));
	close(fd);

	famfs_quiet = getenv("FAMFS_UNIT_VERBOSE") ? 0 : 1;
	famfs_kernel = &th_mock_kernel;
	/* never the build host's sysfs: its device numbers are not the
	 * mock's */
	famfs_sys_root = "/nonexistent-famfs-unit-sys";
	famfs_mount_root_check = th_any_root;
	th_now = (uint64_t)time(NULL);
	th_slept = 0;
	th_during_wait = NULL;
	famfs_master_clock_hook = th_clock;
	famfs_master_sleep_hook = th_sleep;
	th_mock_reset();
	assert_int_equal(th_reopen(t), 0);
	return t;
}

struct famfs_superblock *th_sb_media(struct th *t)
{
	assert_true(t->open);
	return t->fs.sbm.addr;
}

void th_sb_commit(struct th *t)
{
	famfs_sb_set_crc(th_sb_media(t));
	assert_int_equal(famfs_fs_sb_reread(&t->fs, NULL), 0);
}

int th_reopen(struct th *t)
{
	int rc;

	if (t->open)
		famfs_fs_close(&t->fs);
	t->open = false;
	rc = famfs_fs_open_dev(t->img, true, &t->fs);
	if (rc)
		return rc;
	snprintf(t->fs.mpt, sizeof(t->fs.mpt), "%s", t->mpt);
	t->open = true;
	return 0;
}

void th_become_client(struct th *t)
{
	uint8_t other[16];

	uuid_generate(other);
	th_write_id(t->hostid, other);
	assert_int_equal(th_reopen(t), 0);
	assert_false(t->fs.master);
}

void th_open_client(struct th *t, struct famfs_fs *r)
{
	uint8_t me[16], other[16];

	memcpy(me, t->fs.sb->master_uuid, 16);
	uuid_generate(other);
	th_write_id(t->hostid, other);
	famfs_dev_bounce_files = true;
	assert_int_equal(famfs_fs_open_dev(t->img, false, r), 0);
	famfs_dev_bounce_files = false;
	th_write_id(t->hostid, me);
}

void th_damage_sb(struct th *t)
{
	uint8_t junk = 0x5a;
	int fd = open(t->img, O_RDWR);

	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &junk, 1, 200), 1);
	close(fd);
}

void th_become_clone(struct th *t)
{
	uint8_t boot[16];

	snprintf(t->claimdir, sizeof(t->claimdir), "%s/claims-clone", t->dir);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	uuid_generate(boot);
	th_write_id(t->bootid, boot);
	assert_int_equal(th_reopen(t), 0);
	assert_true(t->fs.master);	/* by its host uuid */
}

void th_free(struct th *t)
{
	char cmd[400];

	if (!t)
		return;
	if (t->open)
		famfs_fs_close(&t->fs);
	famfs_mount_root_check = famfs_is_mount_root;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
	assert_int_equal(system(cmd), 0);
	free(t);
}

uint64_t th_append_file(struct th *t, const char *path, uint64_t off,
			uint64_t len, uint64_t size)
{
	struct famfs_log_simple_ext ext = { htole64(off), htole64(len) };
	struct famfs_log_entry e;
	uint64_t idx = famfs_log_next(t->fs.log);

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, path, size, 0644,
					   0, 0, &ext, 1), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return idx;
}

uint64_t th_append_dir(struct th *t, const char *path)
{
	struct famfs_log_entry e;
	uint64_t idx = famfs_log_next(t->fs.log);

	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, path, 0, 0755,
					   0, 0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	return idx;
}

void th_touch(struct th *t, const char *rel, const char *content)
{
	char p[700];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(content, f);
	fclose(f);
}

bool th_exists(struct th *t, const char *rel, bool dir)
{
	char p[700];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	if (stat(p, &st))
		return false;
	return dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

static int grab_saved = -1, grab_fd = -1, grab_quiet;

void th_tmpl(char *buf, size_t n, const char *name)
{
	const char *d = getenv("TMPDIR");
	int len = snprintf(buf, n, "%s/%s-XXXXXX", d && d[0] ? d : "/tmp",
			   name);

	assert_true(len > 0 && (size_t)len < n);
}

void th_stderr_grab(void)
{
	char tmpl[PATH_MAX];

	th_tmpl(tmpl, sizeof(tmpl), "famfs-ut-stderr");
	fflush(stderr);
	grab_fd = mkstemp(tmpl);
	assert_true(grab_fd >= 0);
	unlink(tmpl);
	grab_saved = dup(2);
	assert_true(grab_saved >= 0);
	assert_int_equal(dup2(grab_fd, 2), 2);
	grab_quiet = famfs_quiet;
	famfs_quiet = 0;
}

void th_stderr_take(char *buf, size_t n)
{
	ssize_t got;

	fflush(stderr);
	famfs_quiet = grab_quiet;
	assert_int_equal(dup2(grab_saved, 2), 2);
	close(grab_saved);
	got = pread(grab_fd, buf, n - 1, 0);
	close(grab_fd);
	buf[got > 0 ? got : 0] = '\0';
	if (getenv("FAMFS_UNIT_VERBOSE"))
		fprintf(stderr, "%s", buf);
}

int th_setup(void **state)
{
	*state = th_new(64 * MiB, 2 * MiB);
	return 0;
}

int th_teardown(void **state)
{
	th_free(*state);
	return 0;
}
