// SPDX-License-Identifier: GPL-2.0
/*
 * The tool against the 2024 module's ioctl ABI (mock th_mock_kernel_2024):
 * numbers 1..4 only, MAP_GET saying file_size and ext_list_count alone,
 * the extents through MAP_GETEXT, EINVAL without a map.  Maps of 1 and 2
 * extents are read back and replayed; what v1 cannot express (interleaved,
 * more than 2 extents) is refused before anything is logged; an entry a v2
 * module logged is reported by logplay, the rest replayed.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "th.h"

static const struct famfs_layout L2 = { .nstrips = 2, .chunk = 2 * MiB };

/* 64 MiB: units 2..31 free.  Files at units 2, 4, 6 and 8..27 leave holes
 * 3, 5, 7 and 28..31 (as in test_extents.c). */
static void fragment(struct th *t)
{
	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	th_append_file(t, "b", 8 * MiB, 2 * MiB, 1);
	th_append_file(t, "c", 12 * MiB, 2 * MiB, 1);
	th_append_file(t, "d", 16 * MiB, 40 * MiB, 40 * MiB);
}

static int get(struct th *t, const char *rel, struct famfs_fmap *m)
{
	char p[700];
	int fd, rc;

	snprintf(p, sizeof(p), "%s/%s", t->mpt, rel);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	rc = famfs_fmap_get(fd, m);
	close(fd);
	return rc;
}

static void test_probe(void **state)
{
	struct th *t = *state;
	int fd;

	fd = famfs_file_create(&t->fs, "f", 1, 0644, 0, 0);
	assert_true(fd >= 0);
	assert_int_equal(famfs_kernel_v2(fd), 1);
	famfs_kernel = &th_mock_kernel_2024;
	assert_int_equal(famfs_kernel_v2(fd), 0);
	famfs_kernel = &th_mock_kernel_v1;
	assert_int_equal(famfs_kernel_v2(fd), 0);
	famfs_kernel = &th_mock_kernel;
	assert_int_equal(famfs_kernel_v2(fd), 1);
	close(fd);
}

/* maps of 1 and 2 extents read back through MAP_GET + MAP_GETEXT */
static void test_get(void **state)
{
	struct th *t = *state;
	static struct famfs_fmap m, want;
	struct json_object *o, *v;
	int fd;

	fragment(t);
	famfs_kernel = &th_mock_kernel_2024;
	fd = famfs_file_create(&t->fs, "one", 8 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "two", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_mock_v1_creates, 2);
	assert_int_equal(get(t, "two", &m), 0);
	assert_int_equal(m.extent_type, SIMPLE_DAX_EXTENT);
	assert_true(m.file_type_unknown);
	assert_int_equal(m.file_size, 3 * MiB);
	assert_int_equal(m.count, 2);
	assert_int_equal(m.ext[0].offset, 6 * MiB);	/* hole 3 */
	assert_int_equal(m.ext[1].offset, 10 * MiB);	/* hole 5 */
	assert_int_equal(m.ext[1].len, 2 * MiB);
	famfs_fmap_from_entry(famfs_log_slot(t->fs.log, 5), &want);
	assert_true(famfs_fmap_equal(&want, &m));
	assert_int_equal(get(t, "one", &m), 0);
	assert_int_equal(m.count, 1);
	assert_int_equal(m.ext[0].offset, 56 * MiB);
	/* getmap -j says the type is not known */
	o = famfs_json_map("one", &m);
	assert_true(json_object_object_get_ex(o, "type", &v));
	assert_string_equal(json_object_get_string(v), "unknown");
	assert_true(json_object_object_get_ex(o, "extent_type", &v));
	assert_string_equal(json_object_get_string(v), "simple");
	json_object_put(o);
	/* a file without a map: EINVAL from that module, ENODATA here */
	th_touch(t, "plain", "");
	assert_int_equal(get(t, "plain", &m), -ENODATA);
	/* this project's module (v2) reads the same map, with the type */
	famfs_kernel = &th_mock_kernel;
	assert_int_equal(get(t, "two", &want), 0);
	assert_false(want.file_type_unknown);
	famfs_kernel = &th_mock_kernel_2024;
	assert_int_equal(get(t, "two", &m), 0);
	assert_true(famfs_fmap_equal(&want, &m));
}

/* a MAP_GET that fills ext_list in must agree with MAP_GETEXT */
static int bad_get(int fd, struct famfs_ioc_map *map)
{
	int rc = th_mock_kernel_v1.map_get(fd, map);

	map->ext_list[0].offset += 2 * MiB;
	return rc;
}

static int bad_type(int fd, struct famfs_ioc_map *map)
{
	int rc = th_mock_kernel_v1.map_get(fd, map);

	map->extent_type = FAMFS_INTERLEAVED_EXTENT;
	return rc;
}

static void test_get_disagree(void **state)
{
	struct th *t = *state;
	struct famfs_kernel_ops ops = th_mock_kernel_v1;
	static struct famfs_fmap m;
	int fd;

	fd = famfs_file_create(&t->fs, "f", 1, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	famfs_kernel = &th_mock_kernel_v1;	/* fills ext_list in: agrees */
	assert_int_equal(get(t, "f", &m), 0);
	assert_int_equal(m.count, 1);
	ops.map_get = bad_get;
	famfs_kernel = &ops;
	assert_int_equal(get(t, "f", &m), -EBADE);
	ops.map_get = bad_type;
	assert_int_equal(get(t, "f", &m), -EPROTO);
	famfs_kernel = &th_mock_kernel;
}

/* interleaved: refused before the entry is logged or the feature set */
static void test_refuse_interleaved(void **state)
{
	struct th *t = *state;
	static struct famfs_fmap m;
	uint64_t n = famfs_log_next(t->fs.log);
	int fd;

	famfs_kernel = &th_mock_kernel_2024;
	assert_int_equal(famfs_file_create_layout(&t->fs, "s", 4 * MiB, 0644, 0,
						  0, &L2), -EOPNOTSUPP);
	assert_int_equal(famfs_log_next(t->fs.log), n);
	assert_false(th_exists(t, "s", false));
	assert_int_equal(le32toh(t->fs.sb->feature_incompat), 0);
	assert_int_equal(th_mock_v1_creates + th_mock_v2_creates, 0);
	/* nothing was taken: the next file gets the first unit */
	fd = famfs_file_create(&t->fs, "p", 1, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(get(t, "p", &m), 0);
	assert_int_equal(m.ext[0].offset, 4 * MiB);
	famfs_kernel = &th_mock_kernel;
}

/* more than 2 extents: refused before it is logged, its memory not kept */
static void test_refuse_fragmented(void **state)
{
	struct th *t = *state;
	static struct famfs_fmap m;
	int fd;

	fragment(t);
	famfs_kernel = &th_mock_kernel_2024;
	/* 7 units: holes 28..31, 3, 5, 7 -- 4 extents */
	assert_int_equal(famfs_file_create(&t->fs, "big", 13 * MiB, 0644, 0, 0),
			 -EOPNOTSUPP);
	assert_int_equal(famfs_log_next(t->fs.log), 4);
	assert_false(th_exists(t, "big", false));
	assert_int_equal(th_mock_v1_creates + th_mock_v2_creates, 0);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat), 0);	/* untouched */
	/* the same space is there: 4 units in one run, then 2 in 2 holes */
	fd = famfs_file_create(&t->fs, "one", 8 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "two", 4 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(get(t, "one", &m), 0);
	assert_int_equal(m.ext[0].offset, 56 * MiB);
	assert_int_equal(get(t, "two", &m), 0);
	assert_int_equal(m.count, 2);
	/* one unit left: 2 units fit in no 2 runs -- device full, as with v2 */
	assert_int_equal(famfs_file_create(&t->fs, "x", 3 * MiB, 0644, 0, 0),
			 -ENOSPC);
	assert_int_equal(famfs_log_next(t->fs.log), 6);
	famfs_kernel = &th_mock_kernel;
}

/* logplay twice; an entry a v2 module logged is an error, the rest plays */
static void test_logplay(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	static struct famfs_fmap m, want;
	int fd;

	fragment(t);
	fd = famfs_file_create_layout(&t->fs, "s", 4 * MiB, 0644, 0, 0, &L2);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "two", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	th_remount(t);
	famfs_kernel = &th_mock_kernel_2024;
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.created_files, 5);
	assert_int_equal(r.errors, 1);
	assert_int_equal(r.conflicts + r.bad_entries, 0);
	assert_false(th_exists(t, "s", false));
	assert_int_equal(get(t, "two", &m), 0);
	famfs_fmap_from_entry(famfs_log_slot(t->fs.log, 5), &want);
	assert_true(famfs_fmap_equal(&want, &m));
	/* again: present, no conflict (the maps read back match the log) */
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.present, 5);
	assert_int_equal(r.created_files + r.conflicts + r.bad_entries, 0);
	assert_int_equal(r.errors, 1);
	famfs_kernel = &th_mock_kernel;
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, th_setup, th_teardown)
	const struct CMUnitTest tests[] = {
		T(test_probe),
		T(test_get),
		T(test_get_disagree),
		T(test_refuse_interleaved),
		T(test_refuse_fragmented),
		T(test_logplay),
	};

	return cmocka_run_group_tests_name("legacy", tests, NULL, NULL);
}
