// SPDX-License-Identifier: GPL-2.0
/* Long extent lists (up to FAMFS_LOG_MAX_SIMPLE_EXT simple extents): the
 * entry format, a file created in fragmented space (v1 MAP_CREATE for up
 * to 2 extents, MAP_CREATE_V2 beyond), logplay on a client, fsck, df. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

/* An entry of n one-unit extents at units first, first + step, ... */
static void mkentry(struct th *t, struct famfs_log_entry *e, unsigned n,
		    uint64_t first, uint64_t step)
{
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT + 1];

	for (unsigned i = 0; i < n && i <= FAMFS_LOG_MAX_SIMPLE_EXT; i++) {
		x[i].offset = htole64((first + i * step) * 2 * MiB);
		x[i].len = htole64(2 * MiB);
	}
	assert_int_equal(famfs_entry_build(e, FAMFS_LOG_FILE, "f", n * 2 * MiB,
					   0644, 0, 0, x, n), 0);
	e->seq = 0;
	memcpy(e->fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(e);
}

static void test_format(void **state)
{
	struct th *t = *state;
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	/* 3..16 extents only in a log that says so (R2: as an unknown kind) */
	mkentry(t, &e, 3, 2, 1);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "without the multi-extent feature"));
	assert_int_not_equal(famfs_entry_owned(&e, 0, t->fs.sb, why), 0);
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT, 0), 0);
	for (unsigned n = 1; n <= FAMFS_LOG_MAX_SIMPLE_EXT; n++) {
		mkentry(t, &e, n, 2, 1 + (n & 1));
		assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), 0);
		assert_int_equal(famfs_entry_ranges(&e, r), n);
		assert_int_equal(r[n - 1].offset, (2 + (n - 1) * (1 + (n & 1))) * 2 * MiB);
	}
	/* 17 cannot be built, nor read */
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "f", 1, 0644, 0,
					   0, NULL, 17), -EINVAL);
	mkentry(t, &e, 16, 2, 1);
	e.fm.nextents = htole16(17);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_non_null(strstr(why, "bad extent count 17 (1..16)"));
	/* a count beyond the extents written: slot 3 is empty */
	mkentry(t, &e, 3, 2, 1);
	e.fm.nextents = htole16(4);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	/* an extent past the count is not zero */
	mkentry(t, &e, 4, 2, 1);
	e.fm.nextents = htole16(3);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_non_null(strstr(why, "unused extent slots"));
	/* extents of one file overlapping: the same unit twice, and a long
	 * extent holding a later one */
	mkentry(t, &e, 5, 2, 1);
	e.fm.ext.simple[4].offset = e.fm.ext.simple[1].offset;
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_non_null(strstr(why, "extents 1 and 4 overlap"));
	mkentry(t, &e, 3, 10, 4);
	e.fm.ext.simple[0].len = htole64(6 * MiB);	/* units 10..12 */
	e.fm.ext.simple[2].offset = htole64(12 * 2 * MiB);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_non_null(strstr(why, "extents 0 and 2 overlap"));
	/* the extents must hold the size */
	mkentry(t, &e, 3, 2, 2);
	e.fm.size = htole64(6 * MiB + 1);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_non_null(strstr(why, "smaller than the file"));
}

/*
 * 64 MiB: units 2..31 free.  Files at units 2, 4, 6 and 8..27 (hand-made,
 * as an allocator would never leave holes) leave holes 3, 5, 7 and 28..31.
 */
static void fragment(struct th *t)
{
	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 8 * MiB, 2 * MiB, 1);
	th_append_file(t, "c", 12 * MiB, 2 * MiB, 1);
	th_append_file(t, "d", 16 * MiB, 40 * MiB, 40 * MiB);
}

static void fmap_ext_is(const struct famfs_fmap *m, unsigned i, uint64_t unit,
			uint64_t units)
{
	assert_int_equal(m->ext[i].offset, unit * 2 * MiB);
	assert_int_equal(m->ext[i].len, units * 2 * MiB);
}

static void test_create_fragmented(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct famfs_fmap m, want;
	struct famfs_df df;
	char p[700];
	int fd;

	/* which ioctl a famfs.ko without identities is given (with them,
	 * every logged file goes through MAP_CREATE_V3: create_identity) */
	famfs_kernel = &th_mock_kernel_noinval;
	fragment(t);
	/* 4 units fit in the tail run: one extent, v1 */
	fd = famfs_file_create(&t->fs, "one", 8 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_mock_v1_creates, 1);
	/* now only holes 3, 5, 7: 2 units in 2 extents, still v1 */
	fd = famfs_file_create(&t->fs, "two", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_mock_v1_creates, 2);
	assert_int_equal(th_mock_v2_creates, 0);
	snprintf(p, sizeof(p), "%s/two", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_int_equal(m.count, 2);
	fmap_ext_is(&m, 0, 3, 1);
	fmap_ext_is(&m, 1, 5, 1);
	/* one unit left (7): a 2-unit file does not fit, log unchanged */
	assert_int_equal(famfs_file_create(&t->fs, "no", 2 * MiB + 1, 0644, 0, 0),
			 -ENOSPC);
	assert_int_equal(famfs_log_next(t->fs.log), 6);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.used_bytes, (3 + 20 + 4 + 2) * 2 * MiB);
	assert_int_equal(r.free_bytes, 2 * MiB);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.free, 2 * MiB);
	/* the log entry and the map agree */
	famfs_fmap_from_entry(famfs_log_slot(t->fs.log, 5), &want);
	assert_true(famfs_fmap_equal(&want, &m));
}

static void test_create_v2_and_replay(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fsck_result r;
	struct famfs_fmap m, m2;
	char p[700], cmd[700];
	int fd;

	famfs_kernel = &th_mock_kernel_noinval;	/* as create_fragmented */
	fragment(t);
	/* holes 3, 5, 7 (1 unit each), 28..31 (4): 7 units need 4 extents */
	fd = famfs_file_create(&t->fs, "big", 13 * MiB, 0600, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_mock_v1_creates, 0);
	assert_int_equal(th_mock_v2_creates, 1);
	snprintf(p, sizeof(p), "%s/big", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_int_equal(m.extent_type, SIMPLE_DAX_EXTENT);
	assert_int_equal(m.file_size, 13 * MiB);
	assert_int_equal(m.count, 4);
	fmap_ext_is(&m, 0, 3, 1);
	fmap_ext_is(&m, 1, 5, 1);
	fmap_ext_is(&m, 2, 7, 1);
	fmap_ext_is(&m, 3, 28, 4);
	/* read back through MAP_GET_V2; v1 MAP_GET cannot say it */
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(famfs_fmap_get(fd, &m2), 0);
	close(fd);
	assert_true(famfs_fmap_equal(&m, &m2));
	{
		struct famfs_ioc_map v1;

		assert_int_equal(th_mock_lookup(p, &v1), -EOVERFLOW);
	}
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.free_bytes, 0);
	/* a client replays it: the same map, with MAP_CREATE_V2 */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s/.meta'", t->mpt, t->mpt);
	assert_int_equal(system(cmd), 0);
	th_mock_reset();
	th_become_client(t);
	assert_int_equal(famfs_logplay(&t->fs, false, &lr), 0);
	assert_int_equal(lr.created_files, 5);
	assert_int_equal(lr.conflicts + lr.errors + lr.bad_entries, 0);
	assert_int_equal(th_mock_v2_creates, 1);
	assert_int_equal(th_mock_lookup_fmap(p, &m2), 0);
	assert_true(famfs_fmap_equal(&m, &m2));
	/* and again: present, nothing created */
	assert_int_equal(famfs_logplay(&t->fs, false, &lr), 0);
	assert_int_equal(lr.present, 5);
	assert_int_equal(lr.created_files, 0);
}

/* an older famfs.ko (no v2): a 4-extent file is refused before it is
 * logged or mapped (test_legacy.c has more) */
static void test_old_module(void **state)
{
	struct th *t = *state;

	fragment(t);
	famfs_kernel = &th_mock_kernel_v1;
	assert_int_equal(famfs_file_create(&t->fs, "big", 13 * MiB, 0600, 0, 0),
			 -EOPNOTSUPP);
	famfs_kernel = &th_mock_kernel;
	assert_int_equal(famfs_log_next(t->fs.log), 4);	/* not logged */
	assert_false(th_exists(t, "big", false));
}

/* a logged file's identity: the index of its FILE entry, given to
 * MAP_CREATE_V3 (FAMFS_IOC_MAP_IDENT) by the master's create and by a
 * replay; a famfs.ko that refuses the flag makes it without one, asked
 * once (the next file goes the old way at once) */
static void test_create_identity(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result lr;
	struct famfs_fmap m;
	unsigned long v1 = th_mock_v1_creates, v3 = th_mock_v3_creates;
	uint64_t idx;
	char p[700];
	int fd;

	idx = famfs_log_next(t->fs.log);
	fd = famfs_file_create(&t->fs, "a", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(t->fs.last_append, idx);
	assert_int_equal(th_mock_v3_creates, v3 + 1);
	assert_int_equal(th_mock_v1_creates, v1);
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_true(m.has_ident);
	assert_int_equal(m.ident, idx);
	/* famfs_fmap_get reads it back (MAP_GET_V3) */
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	memset(&m, 0, sizeof(m));
	assert_int_equal(famfs_fmap_get(fd, &m), 0);
	close(fd);
	assert_true(m.has_ident);
	assert_int_equal(m.ident, idx);
	/* asked for (FAMFS_IOC_MAP_IDENT in): a caller that does not ask
	 * (an older tool) is never shown it */
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	{
		struct famfs_ioc_map_v2 h;

		memset(&h, 0, sizeof(h));
		assert_int_equal(th_mock_map_get_v3(fd, &h), 0);
		assert_int_equal(h.flags, 0);
		assert_int_equal(h.reserved[0], 0);
		h.ext_count = 0;
		h.flags = FAMFS_IOC_MAP_IDENT;
		assert_int_equal(th_mock_map_get_v3(fd, &h), 0);
		assert_int_equal(h.flags, FAMFS_IOC_MAP_IDENT);
		assert_int_equal(h.reserved[0], idx);
	}
	/* a famfs.ko that refuses the flag on MAP_GET_V3 (EINVAL): the map
	 * read without it, the flag asked once per famfs.ko */
	famfs_kernel = &th_mock_kernel_noinval;
	th_mock_v3_ident_gets = 0;
	for (int i = 0; i < 2; i++) {
		memset(&m, 0, sizeof(m));
		assert_int_equal(famfs_fmap_get(fd, &m), 0);
		assert_false(m.has_ident);
		assert_int_equal(m.file_size, 3 * MiB);
	}
	assert_int_equal(th_mock_v3_ident_gets, 1);
	famfs_kernel = &th_mock_kernel;
	memset(&m, 0, sizeof(m));
	assert_int_equal(famfs_fmap_get(fd, &m), 0);
	assert_true(m.has_ident);
	close(fd);
	/* a replay gives the same identity */
	th_remount(t);
	th_become_client(t);
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay(&t->fs, false, &lr), 0);
	famfs_quiet = 0;
	assert_int_equal(lr.created_files, 1);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_true(m.has_ident);
	assert_int_equal(m.ident, idx);
	/* a famfs.ko without identities: made without, by the old way */
	th_remount(t);
	th_mock_reset();
	v3 = th_mock_v3_creates;
	famfs_kernel = &th_mock_kernel_noinval;
	famfs_quiet = 1;
	assert_int_equal(famfs_logplay(&t->fs, false, &lr), 0);
	famfs_quiet = 0;
	assert_int_equal(lr.created_files, 1);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_false(m.has_ident);
	assert_int_equal(th_mock_v1_creates, 1);
	assert_int_equal(th_mock_v3_creates, v3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_format, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_create_fragmented, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_create_identity, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_create_v2_and_replay, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_old_module, th_setup, th_teardown),
	};

	return cmocka_run_group_tests_name("extents", tests, NULL, NULL);
}
