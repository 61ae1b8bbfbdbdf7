// SPDX-License-Identifier: GPL-2.0
/* -j output: getmap, fsck and df objects parse back with the documented
 * keys and values; df's space and log accounting; fsck's problem list. */
#define _GNU_SOURCE
#include <endian.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "th.h"

/* serialize, parse back strictly, and return the parsed copy */
static struct json_object *roundtrip(struct json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	struct json_tokener *tok = json_tokener_new();
	struct json_object *back;

	assert_non_null(s);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
			       JSON_TOKENER_VALIDATE_UTF8);
	back = json_tokener_parse_ex(tok, s, (int)strlen(s));
	assert_non_null(back);
	assert_int_equal(json_tokener_get_error(tok), json_tokener_success);
	json_tokener_free(tok);
	json_object_put(o);
	return back;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, k, &v));
	return v;
}

static uint64_t u64(struct json_object *o, const char *k)
{
	return json_object_get_uint64(get(o, k));
}

/* o has exactly these keys */
static void keys(struct json_object *o, const char *const *want)
{
	size_t n = 0;

	for (; want[n]; n++)
		get(o, want[n]);
	assert_int_equal(json_object_object_length(o), n);
}

static void test_map(void **state)
{
	static const char *const k[] = { "path", "type", "size", "extent_type",
					  "extents", NULL };
	struct famfs_ioc_map v1 = {
		.extent_type = SIMPLE_DAX_EXTENT, .file_type = FAMFS_REG,
		.file_size = 5 * MiB, .ext_list_count = 2,
		.ext_list = { { 4 * MiB, 4 * MiB }, { 1ULL << 40, 2 * MiB } },
	};
	static struct famfs_fmap m;
	const char *path = "/mnt/f \"q\"\n\\ \xc3\xa9";
	struct json_object *o, *e;

	(void)state;
	famfs_fmap_from_v1(&m, &v1);
	o = roundtrip(famfs_json_map(path, &m));
	keys(o, k);
	assert_string_equal(json_object_get_string(get(o, "path")), path);
	assert_string_equal(json_object_get_string(get(o, "type")), "regular");
	assert_string_equal(json_object_get_string(get(o, "extent_type")), "simple");
	assert_int_equal(u64(o, "size"), 5 * MiB);
	e = get(o, "extents");
	assert_int_equal(json_object_array_length(e), 2);
	assert_int_equal(u64(json_object_array_get_idx(e, 1), "offset"), 1ULL << 40);
	assert_int_equal(u64(json_object_array_get_idx(e, 1), "length"), 2 * MiB);
	json_object_put(o);
	m.file_type = FAMFS_LOG;
	m.count = 0;
	o = roundtrip(famfs_json_map("l", &m));
	assert_string_equal(json_object_get_string(get(o, "type")), "log");
	assert_int_equal(json_object_array_length(get(o, "extents")), 0);
	json_object_put(o);
}

/* a file's identity (FAMFS_IOC_MAP_IDENT: the log index of the FILE entry
 * that made it) is "identity"; a map without one has no such key */
static void test_map_identity(void **state)
{
	static const char *const k[] = { "path", "type", "size", "extent_type",
					  "extents", "identity", NULL };
	static struct famfs_fmap m;
	struct json_object *o;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.extent_type = SIMPLE_DAX_EXTENT;
	m.file_type = FAMFS_REG;
	m.file_size = 2 * MiB;
	m.count = 1;
	m.ext[0] = (struct famfs_extent){ 8 * MiB, 2 * MiB };
	m.has_ident = true;
	m.ident = 1ULL << 40;
	o = roundtrip(famfs_json_map("/mnt/f", &m));
	keys(o, k);
	assert_true(u64(o, "identity") == 1ULL << 40);
	json_object_put(o);
	m.has_ident = false;
	o = roundtrip(famfs_json_map("/mnt/f", &m));
	assert_false(json_object_object_get_ex(o, "identity", NULL));
	json_object_put(o);
}

/* interleaved: the same keys; each extent has length, nstrips, chunk_size
 * and strips [{offset, length}] */
static void test_map_interleaved(void **state)
{
	static const char *const k[] = { "path", "type", "size", "extent_type",
					  "extents", NULL };
	static const char *const xk[] = { "length", "nstrips", "chunk_size",
					   "strips", NULL };
	static struct famfs_fmap m;
	struct json_object *o, *x, *st;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.extent_type = FAMFS_INTERLEAVED_EXTENT;
	m.file_type = FAMFS_REG;
	m.file_size = 24 * MiB;
	m.count = 1;
	m.iext[0].nstrips = 4;
	m.iext[0].chunk_size = 2 * MiB;
	m.iext[0].nbytes = 24 * MiB;
	for (unsigned i = 0; i < 4; i++)
		m.iext[0].strips[i] = (struct famfs_extent){ (20 + 10 * i) * MiB,
							     6 * MiB };
	o = roundtrip(famfs_json_map("/mnt/s", &m));
	keys(o, k);
	assert_string_equal(json_object_get_string(get(o, "extent_type")),
			    "interleaved");
	assert_int_equal(json_object_array_length(get(o, "extents")), 1);
	x = json_object_array_get_idx(get(o, "extents"), 0);
	keys(x, xk);
	assert_int_equal(u64(x, "length"), 24 * MiB);
	assert_int_equal(u64(x, "nstrips"), 4);
	assert_int_equal(u64(x, "chunk_size"), 2 * MiB);
	st = get(x, "strips");
	assert_int_equal(json_object_array_length(st), 4);
	assert_int_equal(u64(json_object_array_get_idx(st, 3), "offset"), 50 * MiB);
	assert_int_equal(u64(json_object_array_get_idx(st, 3), "length"), 6 * MiB);
	json_object_put(o);
}

static void collect(void *arg, const char *msg)
{
	json_object_array_add(arg, json_object_new_string(msg));
}

static void test_fsck(void **state)
{
	static const char *const k[] = { "target", "clean", "superblock_valid",
		"entries", "files", "directories", "corrupt_entries", "problems",
		"used", "free", "problem_list", "devices", NULL };
	struct th *t = *state;
	struct famfs_fsck_result r;
	struct json_object *p = json_object_new_array(), *o;
	const char *msg;

	th_append_file(t, "a", 4 * MiB, 4 * MiB, 1);
	th_append_file(t, "b", 6 * MiB, 2 * MiB, 1);	/* inside a */
	famfs_quiet = 1;
	assert_int_equal(famfs_fsck_cb(&t->fs, &r, collect, p), 0);
	famfs_quiet = 0;
	o = roundtrip(famfs_json_fsck("/dev/x", true, &r, p));
	keys(o, k);
	assert_false(json_object_get_boolean(get(o, "clean")));
	assert_true(json_object_get_boolean(get(o, "superblock_valid")));
	assert_int_equal(u64(o, "problems"), 1);
	assert_int_equal(u64(o, "files"), 2);
	assert_int_equal(json_object_array_length(get(o, "problem_list")), 1);
	msg = json_object_get_string(json_object_array_get_idx(get(o, "problem_list"), 0));
	assert_non_null(strstr(msg, "b (entry 1) shares memory with a"));
	json_object_put(o);

	memset(&r, 0, sizeof(r));		/* superblock invalid */
	o = roundtrip(famfs_json_fsck("/dev/x", false, &r, NULL));
	assert_false(json_object_get_boolean(get(o, "clean")));
	assert_int_equal(u64(o, "problems"), 1);
	assert_int_equal(json_object_array_length(get(o, "problem_list")), 0);
	json_object_put(o);
}

static void test_df(void **state)
{
	static const char *const k[] = { "target", "mount_point", "device",
		"fs_uuid", "master_uuid", "role", "size", "reserved", "used", "free", "unknown",
		"free_1g_runs", "alloc_unit", "log", "files", "directories", "corrupt_entries",
		"devices", NULL };
	static const char *const kd[] = { "index", "role", "path", "attached",
					  "failed", "mount_failed", "size",
					  "reserved", "used", "free", "unknown",
					  "free_1g_runs", NULL };
	static const char *const kl[] = { "size", "entries", "capacity",
					  "free_entries", "format", "slot_size",
					  "used", NULL };
	struct th *t = *state;
	struct famfs_df df;
	struct json_object *o;
	char u[37];
	int fd;

	assert_int_equal(famfs_df(&t->fs, &df), 0);	/* empty */
	assert_int_equal(df.size, 64 * MiB);
	assert_int_equal(df.reserved, 4 * MiB);	/* 2 MiB sb + 2 MiB log */
	assert_int_equal(df.used, 0);
	assert_int_equal(df.free, 60 * MiB);
	assert_int_equal(df.free_1g, 0);	/* 64 MiB: no whole GiB */
	assert_int_equal(df.log_capacity, 2047);
	assert_int_equal(df.log_entries, 0);

	assert_int_equal(famfs_mkdir(&t->fs, "d/e", 0755, 0, 0, true), 0);
	fd = famfs_file_create(&t->fs, "d/e/f", 3 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	fd = famfs_file_create(&t->fs, "g", 1, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.used, 6 * MiB);
	assert_int_equal(df.free, 54 * MiB);
	assert_int_equal(df.log_entries, 4);
	assert_int_equal(df.files, 2);
	assert_int_equal(df.dirs, 2);
	assert_int_equal(df.bad_entries, 0);

	o = roundtrip(famfs_json_df(t->mpt, t->mpt, "", &t->fs, &df));
	keys(o, k);
	keys(get(o, "log"), kl);
	/* one device: the primary, the same figures as the sums */
	assert_int_equal(json_object_array_length(get(o, "devices")), 1);
	{
		struct json_object *d = json_object_array_get_idx(get(o, "devices"), 0);

		keys(d, kd);
		assert_string_equal(json_object_get_string(get(d, "role")), "primary");
		assert_int_equal(u64(d, "size"), 64 * MiB);
		assert_int_equal(u64(d, "used"), 6 * MiB);
		assert_int_equal(u64(d, "free"), 54 * MiB);
	}
	assert_true(json_object_is_type(get(o, "device"), json_type_null));
	assert_string_equal(json_object_get_string(get(o, "role")), "master");
	famfs_uuid_str(t->fs.sb->fs_uuid, u);
	assert_string_equal(json_object_get_string(get(o, "fs_uuid")), u);
	assert_int_equal(u64(o, "size"), 64 * MiB);
	assert_int_equal(u64(o, "used") + u64(o, "free") + u64(o, "reserved"), 64 * MiB);
	assert_int_equal(u64(o, "alloc_unit"), 2 * MiB);
	assert_int_equal(u64(get(o, "log"), "entries"), 4);
	assert_string_equal(json_object_get_string(get(get(o, "log"), "format")),
			    "v1");
	assert_int_equal(u64(get(o, "log"), "slot_size"), 1024);
	assert_int_equal(u64(get(o, "log"), "used"), 4);
	assert_int_equal(u64(get(o, "log"), "free_entries"), 2043);
	json_object_put(o);
}

static void test_df_corrupt_entry(void **state)
{
	struct th *t = *state;
	struct famfs_df df;
	uint64_t i;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	i = th_append_file(t, "b", 6 * MiB, 4 * MiB, 1);
	famfs_log_slot(t->fs.log, i)->crc ^= htole32(1);	/* corrupt b */
	famfs_quiet = 1;
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	famfs_quiet = 0;
	assert_int_equal(df.log_entries, 2);
	assert_int_equal(df.files, 1);
	assert_int_equal(df.bad_entries, 1);
	assert_int_equal(df.used, 2 * MiB);		/* a's */
	/* R3: b cannot be parsed, so what it owns is unknown: not free */
	assert_int_equal(df.unparsed_entries, 1);
	assert_int_equal(df.free, 0);
	assert_int_equal(df.unknown, 58 * MiB);
}

/* issue 15.17: a name that is not UTF-8 still gives valid JSON: each byte
 * of an invalid sequence becomes U+00XX; valid UTF-8 is kept as it is */
static void test_non_utf8_name(void **state)
{
	struct famfs_fmap m = { .extent_type = SIMPLE_DAX_EXTENT,
				.file_type = FAMFS_REG, .file_size = 1,
				.count = 1, .ext = { { 4 * MiB, 2 * MiB } } };
	struct famfs_fsck_result r = { 0 };
	struct json_object *o;

	(void)state;
	o = roundtrip(famfs_json_map("/m/bad\xff\xfe-\xc3\xa9-\xc3-\xe2\x82", &m));
	assert_string_equal(json_object_get_string(get(o, "path")),
			    "/m/bad\xc3\xbf\xc3\xbe-\xc3\xa9-\xc3\x83-\xc3\xa2\xc2\x82");
	json_object_put(o);
	o = roundtrip(famfs_json_fsck("/m/\x80", true, &r, NULL));
	assert_string_equal(json_object_get_string(get(o, "target")), "/m/\xc2\x80");
	json_object_put(o);
}

/* famfs rm, mv, chmod, chown -j: the namespace entries a command appended,
 * [start, end) of the log, each with the same keys (null where the
 * action has no such field), paths under the mount point, mode octal */
static void test_ns_entries(void **state)
{
	static const char *const k[] = { "index", "action", "type", "path",
					  "to", "mode", "uid", "gid", NULL };
	struct th *t = *state;
	struct famfs_modespec m;
	struct json_object *a, *e;
	uint64_t start;
	char p[700];
	int fd;

	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	fd = famfs_file_create(&t->fs, "d/f", 100, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	start = famfs_log_refresh_next(&t->fs);
	assert_int_equal(famfs_mode_parse("2750", &m, NULL), 0);
	assert_int_equal(famfs_setattr(&t->fs, "d", FAMFS_SETATTR_MODE, &m, 0, 0), 0);
	assert_int_equal(famfs_setattr(&t->fs, "d/f", FAMFS_SETATTR_UID |
				       FAMFS_SETATTR_GID, NULL, 7, 8), 0);
	assert_int_equal(famfs_rename(&t->fs, "d/f", "g"), 0);
	assert_int_equal(famfs_remove(&t->fs, "d", true), 0);
	a = roundtrip(famfs_json_ns_entries(&t->fs, start,
					    famfs_log_refresh_next(&t->fs)));
	assert_int_equal(json_object_array_length(a), 4);
	for (size_t i = 0; i < 4; i++)
		keys(json_object_array_get_idx(a, i), k);
	e = json_object_array_get_idx(a, 0);
	assert_int_equal(u64(e, "index"), start);
	assert_string_equal(json_object_get_string(get(e, "action")), "setattr");
	assert_string_equal(json_object_get_string(get(e, "type")), "directory");
	snprintf(p, sizeof(p), "%s/d", t->mpt);
	assert_string_equal(json_object_get_string(get(e, "path")), p);
	assert_null(get(e, "to"));
	assert_string_equal(json_object_get_string(get(e, "mode")), "2750");
	assert_null(get(e, "uid"));
	assert_null(get(e, "gid"));
	e = json_object_array_get_idx(a, 1);
	assert_string_equal(json_object_get_string(get(e, "type")), "file");
	assert_null(get(e, "mode"));
	assert_int_equal(u64(e, "uid"), 7);
	assert_int_equal(u64(e, "gid"), 8);
	e = json_object_array_get_idx(a, 2);
	assert_string_equal(json_object_get_string(get(e, "action")), "rename");
	snprintf(p, sizeof(p), "%s/d/f", t->mpt);
	assert_string_equal(json_object_get_string(get(e, "path")), p);
	snprintf(p, sizeof(p), "%s/g", t->mpt);
	assert_string_equal(json_object_get_string(get(e, "to")), p);
	e = json_object_array_get_idx(a, 3);
	assert_string_equal(json_object_get_string(get(e, "action")), "delete");
	assert_string_equal(json_object_get_string(get(e, "type")), "directory");
	assert_true(u64(e, "index") > start);
	json_object_put(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_map_identity),
		cmocka_unit_test(test_map_interleaved),
		cmocka_unit_test(test_non_utf8_name),
		cmocka_unit_test_setup_teardown(test_fsck, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_df, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_ns_entries, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_df_corrupt_entry, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
