// SPDX-License-Identifier: GPL-2.0
/* Unit-test helpers: the replay tests' log building (an entry appended,
 * a DELETE, a RENAME, all through famfs_log_append), their fresh mount,
 * where a file's map starts in the mock, and their checks of a replay. */
#define _GNU_SOURCE
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

uint64_t th_app(struct th *t, struct famfs_log_entry *e)
{
	uint64_t idx = famfs_log_next(t->fs.log);

	assert_int_equal(famfs_log_append(&t->fs, e), 0);
	return idx;
}

uint64_t th_del(struct th *t, uint64_t obj, unsigned kind, const char *p)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_delete(&e, obj, kind, p), 0);
	return th_app(t, &e);
}

uint64_t th_ren(struct th *t, uint64_t obj, unsigned kind, const char *a,
		const char *b)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_rename(&e, obj, kind, a, b), 0);
	return th_app(t, &e);
}

void th_remount(struct th *t)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/.meta'", t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
}

uint64_t th_mock_off_or_0(struct th *t, const char *rel)
{
	struct famfs_ioc_map m;
	char p[700];

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	if (th_mock_lookup(p, &m))
		return 0;
	return m.ext_list[0].offset;
}

struct famfs_logplay_result th_replay(struct th *t)
{
	struct famfs_logplay_result r;

	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	return r;
}

void th_more(struct th *t, struct famfs_logplay *lp,
	     struct famfs_logplay_result *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, r, NULL, NULL), 0);
	assert_int_equal(famfs_logplay_next(lp), famfs_log_next(t->fs.log));
}

void th_play_clean(const struct famfs_logplay_result *r)
{
	if (r->conflicts + r->errors + r->bad_entries)
		fail_msg("replay not clean: %u conflicts, %u errors, %u bad entries",
			 (unsigned)r->conflicts, (unsigned)r->errors,
			 (unsigned)r->bad_entries);
}

void th_fsck_clean(struct th *t)
{
	struct famfs_fsck_result f;

	assert_int_equal(famfs_fsck(&t->fs, &f), 0);
	assert_int_equal(f.problems, 0);
}

unsigned th_mode_of(struct th *t, const char *rel)
{
	char p[700];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	assert_int_equal(lstat(p, &st), 0);
	return st.st_mode & 07777;
}

bool th_stop_after(void *arg)
{
	int *n = arg;

	return (*n)-- <= 0;
}

void th_fake_meta(struct th *t)
{
	char p[400];
	int fd;

	snprintf(p, sizeof(p), "%s/.meta/.superblock", t->mpt);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0444);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t->fs.sbm.addr, 2 * MiB), (ssize_t)(2 * MiB));
	close(fd);
	snprintf(p, sizeof(p), "%s/.meta/.log", t->mpt);
	fd = open(p, O_RDWR | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, t->fs.logm.addr, 2 * MiB), (ssize_t)(2 * MiB));
	close(fd);
}

void th_hdr_plant(struct famfs_hosttab *tab, struct famfs_hosts_ev *ev)
{
	struct famfs_hosts_hdr *h = calloc(1, sizeof(*h));
	uint8_t *p;
	unsigned c;

	assert_non_null(h);
	c = famfs_hosts_hdr_next(tab->m.addr, tab->fs_uuid, &ev->seq);
	famfs_hosts_hdr_encode(h, ev, tab->fs_uuid);
	p = (uint8_t *)tab->m.addr + (size_t)c * FAMFS_HOSTS_HDR_SIZE;
	memcpy(p, h, sizeof(*h));
	assert_int_equal(famfs_map_flush(&tab->m, p, FAMFS_HOSTS_HDR_SIZE), 0);
	free(h);
}
