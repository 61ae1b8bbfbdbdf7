// SPDX-License-Identifier: GPL-2.0
/* DELETE, RENAME and SETATTR in a log, v1 and compact: appended after
 * their feature bit, walked, and every torn step of their append -- written
 * but not committed (R4: committed by the next append, never overwritten),
 * torn before the commit (ignored, written over), committed with a part
 * lost (a corrupt entry: R3, the master allocates nothing). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "th.h"

#define NS_BITS (FAMFS_FEATURE_INCOMPAT_DELETE | FAMFS_FEATURE_INCOMPAT_RENAME | \
		 FAMFS_FEATURE_INCOMPAT_SETATTR)

struct seen {
	uint64_t n, bad;
	uint64_t idx[16];
	bool ok[16];
	unsigned type[16];
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)reason;
	if (s->n < 16) {
		s->idx[s->n] = idx;
		s->ok[s->n] = ok;
		s->type[s->n] = le16toh(e->type);
	}
	s->n++;
	s->bad += !ok;
	return 0;
}

static struct th *mk(bool compact)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, compact);

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 NS_BITS, 0), 0);
	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);	/* object 0 */
	th_append_dir(t, "d");
	return t;
}

static void path_of(char *out, size_t len, char tag)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (i % 50 == 48) ? '/' : tag;
	out[len] = '\0';
}

/* an entry of type (long paths: more than one compact slot) naming
 * object 0 */
static void build(struct famfs_log_entry *e, unsigned type)
{
	char a[400], b[400];

	path_of(a, 300, 'a');
	path_of(b, 300, 'b');
	if (type == FAMFS_LOG_DELETE)
		assert_int_equal(famfs_entry_build_delete(e, 0, FAMFS_LOG_FILE, a), 0);
	else if (type == FAMFS_LOG_RENAME)
		assert_int_equal(famfs_entry_build_rename(e, 0, FAMFS_LOG_FILE, a, b), 0);
	else
		assert_int_equal(famfs_entry_build_setattr(e, 0, FAMFS_LOG_FILE, a,
							   FAMFS_SETATTR_MODE, 0600, 0, 0), 0);
}

/* e written for index i, not committed; its slot count */
static unsigned put_raw(struct th *t, struct famfs_log_entry *e, uint64_t i)
{
	if (famfs_fs_compact(&t->fs)) {
		uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
		int n = famfs_clog_encode(e, i, t->fs.sb->fs_uuid, buf, NULL);

		assert_true(n >= 1);
		memcpy(famfs_clog_slot(t->fs.log, i), buf, (size_t)n * FAMFS_CLOG_SLOT);
		return (unsigned)n;
	}
	e->seq = htole64(i);
	memcpy(e->fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(e);
	memcpy(famfs_log_slot(t->fs.log, i), e, sizeof(*e));
	return 1;
}

static void appended_and_walked(bool compact)
{
	for (unsigned type = FAMFS_LOG_DELETE; type <= FAMFS_LOG_SETATTR; type++) {
		struct th *t = mk(compact);
		struct famfs_log_entry e, r;
		struct famfs_ns ns;
		struct seen s = { 0 };
		uint64_t at = famfs_log_next(t->fs.log);

		build(&e, type);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
		assert_int_equal(t->fs.last_append, at);
		assert_int_equal(th_reopen(t), 0);
		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 3);
		assert_int_equal(s.bad, 0);
		assert_int_equal(s.type[2], type);
		assert_int_equal(famfs_log_entry_at(&t->fs, at, &r), 0);
		assert_int_equal(famfs_ns_get(&r, &ns), 0);
		assert_int_equal(ns.type, type);
		assert_int_equal(strlen(ns.path), 300);
		th_free(t);
	}
}

static void test_append_walk_v1(void **s)
{
	(void)s;
	appended_and_walked(false);
}

static void test_append_walk_compact(void **s)
{
	(void)s;
	appended_and_walked(true);
}

/* written whole, next_index not advanced: no committed entry; R4 keeps it;
 * fsck is clean; the next append commits it first */
static void written_not_committed(bool compact)
{
	for (unsigned type = FAMFS_LOG_DELETE; type <= FAMFS_LOG_SETATTR; type++) {
		struct th *t = mk(compact);
		struct famfs_log_entry e;
		struct famfs_fsck_result r;
		struct seen s = { 0 };
		uint64_t at = famfs_log_next(t->fs.log);
		unsigned k;

		build(&e, type);
		k = put_raw(t, &e, at);
		assert_int_equal(th_reopen(t), 0);
		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 2);
		memset(&s, 0, sizeof(s));
		assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 1);
		assert_int_equal(s.idx[0], at);
		assert_true(s.ok[0]);
		assert_int_equal(famfs_fsck(&t->fs, &r), 0);
		assert_int_equal(r.problems, 0);
		th_append_dir(t, "e");
		assert_int_equal(t->fs.last_append, at + k);
		memset(&s, 0, sizeof(s));
		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 4);
		assert_int_equal(s.bad, 0);
		assert_int_equal(s.type[2], type);
		th_free(t);
	}
}

static void test_torn_written_v1(void **s)
{
	(void)s;
	written_not_committed(false);
}

static void test_torn_written_compact(void **s)
{
	(void)s;
	written_not_committed(true);
}

/* torn before the commit: a part of it only (v1: half the slot; compact:
 * its first slot): nothing verifies, nothing is kept, fsck is clean, the
 * next append writes over it */
static void torn_partial(bool compact)
{
	for (unsigned type = FAMFS_LOG_DELETE; type <= FAMFS_LOG_SETATTR; type++) {
		struct th *t = mk(compact);
		struct famfs_log_entry e;
		struct famfs_fsck_result r;
		struct seen s = { 0 };
		uint64_t at = famfs_log_next(t->fs.log);
		unsigned k;

		build(&e, type);
		k = put_raw(t, &e, at);
		if (compact)
			memset(famfs_clog_slot(t->fs.log, at + 1), 0,
			       (size_t)(k - 1) * FAMFS_CLOG_SLOT);
		else
			memset((char *)famfs_log_slot(t->fs.log, at) + 512, 0x5a, 512);
		assert_int_equal(th_reopen(t), 0);
		assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 0);
		assert_int_equal(famfs_fsck(&t->fs, &r), 0);
		assert_int_equal(r.problems, 0);
		th_append_dir(t, "e");
		assert_int_equal(t->fs.last_append, at);
		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 3);
		assert_int_equal(s.bad, 0);
		th_free(t);
	}
}

static void test_torn_partial_v1(void **s)
{
	(void)s;
	torn_partial(false);
}

static void test_torn_partial_compact(void **s)
{
	(void)s;
	torn_partial(true);
}

/* committed, but a part of it did not reach the memory: one corrupt
 * entry, reported; the entries after it still read; the master allocates
 * nothing (R3: what a corrupt entry owns is unknown), mkdir still works */
static void committed_part_lost(bool compact)
{
	for (unsigned type = FAMFS_LOG_DELETE; type <= FAMFS_LOG_SETATTR; type++) {
		struct th *t = mk(compact);
		struct famfs_log_entry e;
		struct famfs_fsck_result r;
		struct seen s = { 0 };
		uint64_t at = famfs_log_next(t->fs.log);
		unsigned k;
		int fd;

		build(&e, type);
		k = put_raw(t, &e, at);
		if (compact)
			memset(famfs_clog_slot(t->fs.log, at + k - 1), 0,
			       FAMFS_CLOG_SLOT);
		else
			memset((char *)famfs_log_slot(t->fs.log, at) + 700, 0x5a, 300);
		t->fs.log->next_index = htole64(at + k);
		th_append_file(t, "b", 10 * MiB, 2 * MiB, 1);
		assert_int_equal(t->fs.last_append, at + k);
		assert_int_equal(th_reopen(t), 0);
		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.n, 4);
		assert_int_equal(s.bad, 1);
		assert_false(s.ok[2]);
		assert_true(s.ok[3]);
		assert_int_equal(famfs_fsck(&t->fs, &r), 0);
		assert_int_equal(r.bad_entries, 1);
		assert_true(r.problems >= 1);
		famfs_quiet = 1;
		fd = famfs_file_create(&t->fs, "new", 100, 0644, 0, 0);
		assert_int_equal(fd, -EUCLEAN);
		th_append_dir(t, "dirs-own-nothing");
		th_free(t);
	}
}

static void test_torn_committed_v1(void **s)
{
	(void)s;
	committed_part_lost(false);
}

static void test_torn_committed_compact(void **s)
{
	(void)s;
	committed_part_lost(true);
}

/* R2 in a log: a valid DELETE entry in a file system whose superblock
 * lacks its bit (written by a tool that did not set it): corrupt, and the
 * master allocates nothing until it is repaired */
static void test_entry_without_bit(void **s)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_log_entry e;
	struct seen sn = { 0 };
	uint64_t at;

	(void)s;
	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	at = famfs_log_next(t->fs.log);
	assert_int_equal(famfs_entry_build_delete(&e, 0, FAMFS_LOG_FILE, "a"), 0);
	t->fs.log->next_index = htole64(at + put_raw(t, &e, at) );
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &sn), 0);
	assert_int_equal(sn.n, 2);
	assert_false(sn.ok[1]);
	famfs_quiet = 1;
	assert_int_equal(famfs_file_create(&t->fs, "new", 100, 0644, 0, 0), -EUCLEAN);
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_append_walk_v1),
		cmocka_unit_test(test_append_walk_compact),
		cmocka_unit_test(test_torn_written_v1),
		cmocka_unit_test(test_torn_written_compact),
		cmocka_unit_test(test_torn_partial_v1),
		cmocka_unit_test(test_torn_partial_compact),
		cmocka_unit_test(test_torn_committed_v1),
		cmocka_unit_test(test_torn_committed_compact),
		cmocka_unit_test(test_entry_without_bit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
