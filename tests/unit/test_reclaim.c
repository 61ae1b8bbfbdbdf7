// SPDX-License-Identifier: GPL-2.0
/* RECLAIM (format rev 3, issue 29): the entry in both logs (built,
 * encoded, decoded, its CRC) and every corrupt form of it, fuzzed; the
 * replay order (delete, reclaim, a create that reuses the memory; a DELETE
 * reclaimed twice or an index that is no DELETE of a file: corrupt, R3);
 * the allocator giving back units and pages of shared units; a new process
 * (the summary is not used with deletes: the cache is rebuilt, the same);
 * a torn RECLAIM append (written, not committed: rolled forward); df and
 * fsck; the library API (candidates, append). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "th.h"

/* Here the RECLAIMs are appended by hand: the master's famfs.ko holds every
 * deleted file's memory (th_mock_hold_all), so the pass after each rm
 * (test_reclaimpass.c) frees nothing on its own */
static struct th *held_fmt(uint64_t size, uint64_t loglen, bool compact)
{
	struct th *t = th_new_fmt(size, loglen, compact);

	th_mock_held_hook = th_mock_hold_all;
	return t;
}


#define PG 4096ULL

static struct famfs_log_reclaim *rbody(struct famfs_log_entry *e)
{
	return (void *)((uint8_t *)e + FAMFS_NS_BODY_OFF);
}

static void sb_with_delete(struct famfs_superblock *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_DELETE);
}

/* ---- the entry ---- */
static void test_build_get(void **s)
{
	uint64_t d[FAMFS_RECLAIM_MAX], out[FAMFS_RECLAIM_MAX];
	struct famfs_superblock sb;
	struct famfs_log_entry e;

	(void)s;
	sb_with_delete(&sb);
	for (unsigned i = 0; i < FAMFS_RECLAIM_MAX; i++)
		d[i] = 3 + 2 * i;
	famfs_quiet = 1;
	assert_int_equal(famfs_entry_build_reclaim(&e, d, 0), -EINVAL);
	assert_int_equal(famfs_entry_build_reclaim(&e, d, FAMFS_RECLAIM_MAX + 1), -EINVAL);
	famfs_quiet = 0;
	assert_int_equal(famfs_entry_build_reclaim(&e, d, FAMFS_RECLAIM_MAX), 0);
	assert_int_equal(le16toh(e.type), FAMFS_LOG_RECLAIM);
	assert_int_equal(famfs_reclaim_get(&e, out), FAMFS_RECLAIM_MAX);
	assert_memory_equal(out, d, sizeof(d));
	assert_int_equal(famfs_reclaim_check(&e, 100, &sb, NULL), 0);
	assert_true(famfs_entry_is_body(FAMFS_LOG_RECLAIM));
	assert_false(famfs_entry_is_ns(FAMFS_LOG_RECLAIM));
	assert_string_equal(famfs_ns_name(FAMFS_LOG_RECLAIM), "RECLAIM");
	/* its index must be past every DELETE it names */
	assert_int_equal(famfs_reclaim_check(&e, d[FAMFS_RECLAIM_MAX - 1], &sb, NULL), -EINVAL);
}

/* every corrupt form: the check refuses it, with a reason */
static void test_corrupt_variants(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e, b;
	uint64_t d[3] = { 2, 5, 7 };
	char why[FAMFS_REASON_LEN];

	(void)s;
	sb_with_delete(&sb);
	assert_int_equal(famfs_entry_build_reclaim(&b, d, 3), 0);
	assert_int_equal(famfs_entry_check_fields(&b, 10, &sb, NULL, why), 0);
	/* the bit clear: R2 */
	{
		struct famfs_superblock none;

		memset(&none, 0, sizeof(none));
		assert_int_equal(famfs_reclaim_check(&b, 10, &none, why), -EPROTONOSUPPORT);
	}
	e = b; rbody(&e)->count = 0;
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; rbody(&e)->count = htole32(FAMFS_RECLAIM_MAX + 1);
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; rbody(&e)->reserved = htole32(1);
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; rbody(&e)->deletes[3] = htole64(4);	/* past its count */
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; rbody(&e)->deletes[FAMFS_RECLAIM_MAX - 1] = htole64(1);
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; rbody(&e)->deletes[1] = htole64(2);	/* named twice */
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; rbody(&e)->deletes[2] = htole64(10);	/* not earlier */
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; e.flags = htole16(1);
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; ((uint8_t *)&e)[FAMFS_NS_BODY_OFF + sizeof(struct famfs_log_reclaim)] = 1;
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	e = b; ((uint8_t *)&e)[FAMFS_LOG_ENTRY_SIZE - 1] = 1;
	assert_int_equal(famfs_reclaim_check(&e, 10, &sb, why), -EINVAL);
	/* refused by the walk: its memory is unknown, never "owned" */
	e = b;
	memcpy(e.fs_uuid, sb.fs_uuid, 16);
	e.seq = htole64(10);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 10, &sb, why), 0);
	assert_true(famfs_entry_owned(&e, 10, &sb, why) != 0);
	rbody(&e)->count = 0;
	famfs_entry_set_crc(&e);
	assert_true(famfs_entry_check(&e, 10, &sb, why) != 0);
	assert_true(famfs_entry_owned(&e, 10, &sb, why) != 0);
}

/* compact form: one slot, its CRC seeded with the fs uuid, decoded to the
 * v1 form it stands for; a changed byte fails the CRC; bytes past the
 * body are refused */
static void test_clog_roundtrip(void **s)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY], uuid[16] = { 1, 2, 3 }, other[16] = { 9 };
	struct famfs_superblock sb;
	struct famfs_log_entry e, v;
	uint64_t d[2] = { 4, 8 };
	char why[FAMFS_REASON_LEN];

	(void)s;
	sb_with_delete(&sb);
	memcpy(sb.fs_uuid, uuid, 16);
	assert_int_equal(famfs_entry_build_reclaim(&e, d, 2), 0);
	assert_int_equal(famfs_clog_encode(&e, 12, uuid, buf, why), 1);
	assert_int_equal(famfs_clog_verify(buf, 12, 1, uuid, why), 1);
	assert_true(famfs_clog_verify(buf, 12, 1, other, why) < 0);
	assert_int_equal(famfs_clog_decode(buf, 12, uuid, &v, why), 0);
	assert_int_equal(le16toh(v.type), FAMFS_LOG_RECLAIM);
	assert_memory_equal((uint8_t *)&v + FAMFS_NS_BODY_OFF,
			    (uint8_t *)&e + FAMFS_NS_BODY_OFF,
			    FAMFS_NS_BODY_LEN);
	assert_int_equal(famfs_entry_check(&v, 12, &sb, why), 0);
	/* a flipped byte: CRC */
	buf[20] ^= 1;
	assert_int_equal(famfs_clog_verify(buf, 12, 1, uuid, why), -EBADMSG);
	buf[20] ^= 1;
	/* the body fills its slot (16 + 240 bytes); an index past its
	 * count, CRC made right: decoded, refused by the check */
	assert_int_equal(sizeof(struct famfs_clog_hdr) +
			 sizeof(struct famfs_log_reclaim), FAMFS_CLOG_SLOT);
	buf[sizeof(struct famfs_clog_hdr) + 8 + 2 * 8] = 7;
	((struct famfs_clog_hdr *)buf)->crc = 0;
	((struct famfs_clog_hdr *)buf)->crc = htole32(famfs_clog_crc(buf, 1, uuid));
	assert_int_equal(famfs_clog_verify(buf, 12, 1, uuid, why), 1);
	assert_int_equal(famfs_clog_decode(buf, 12, uuid, &v, why), 0);
	assert_int_equal(famfs_entry_check(&v, 12, &sb, why), -EINVAL);
	assert_true(famfs_entry_owned(&v, 12, &sb, why) != 0);
	/* a compact entry of two slots, the second not zero: refused */
	assert_int_equal(famfs_clog_encode(&e, 12, uuid, buf, why), 1);
	((struct famfs_clog_hdr *)buf)->nslots = 2;
	buf[FAMFS_CLOG_SLOT + 5] = 1;
	((struct famfs_clog_hdr *)buf)->crc = 0;
	((struct famfs_clog_hdr *)buf)->crc = htole32(famfs_clog_crc(buf, 2, uuid));
	assert_int_equal(famfs_clog_verify(buf, 12, 2, uuid, why), 2);
	assert_int_equal(famfs_clog_decode(buf, 12, uuid, &v, why), -EINVAL);
	assert_true(famfs_entry_owned(&v, 12, &sb, why) != 0);
	/* two slots, the second zero: still not a RECLAIM (one slot) */
	buf[FAMFS_CLOG_SLOT + 5] = 0;
	((struct famfs_clog_hdr *)buf)->crc = 0;
	((struct famfs_clog_hdr *)buf)->crc = htole32(famfs_clog_crc(buf, 2, uuid));
	assert_int_equal(famfs_clog_decode(buf, 12, uuid, &v, why), -EINVAL);
	/* v1: the CRC covers the whole entry */
	v = e;
	v.seq = htole64(12);
	memcpy(v.fs_uuid, uuid, 16);
	famfs_entry_set_crc(&v);
	assert_int_equal(famfs_entry_check(&v, 12, &sb, why), 0);
	rbody(&v)->deletes[0] = htole64(5);
	assert_int_equal(famfs_entry_check(&v, 12, &sb, why), -EBADMSG);
}

/* random bodies, compact and v1: never a crash; what passes the check
 * keeps every rule */
static void test_fuzz(void **s)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY], uuid[16] = { 7 };
	struct famfs_superblock sb;
	struct famfs_log_entry e, v;
	unsigned long seed = 29, passed = 0;
	char why[FAMFS_REASON_LEN];

	(void)s;
	sb_with_delete(&sb);
	memcpy(sb.fs_uuid, uuid, 16);
	for (unsigned it = 0; it < 20000; it++) {
		uint64_t d[FAMFS_RECLAIM_MAX];
		unsigned n = 1 + it % FAMFS_RECLAIM_MAX, k;

		for (unsigned i = 0; i < n; i++)
			d[i] = 1 + i;
		assert_int_equal(famfs_entry_build_reclaim(&e, d, n), 0);
		assert_int_equal(famfs_clog_encode(&e, 100, uuid, buf, why), 1);
		/* a few random bytes of the slot, the CRC made right */
		for (unsigned j = 0; j < 1 + it % 4; j++) {
			seed = seed * 6364136223846793005UL + 1442695040888963407UL;
			buf[16 + (seed >> 33) % (FAMFS_CLOG_SLOT - 16)] = (uint8_t)(seed >> 17);
		}
		((struct famfs_clog_hdr *)buf)->crc = 0;
		((struct famfs_clog_hdr *)buf)->crc = htole32(famfs_clog_crc(buf, 1, uuid));
		if (famfs_clog_verify(buf, 100, 1, uuid, why) != 1 ||
		    famfs_clog_decode(buf, 100, uuid, &v, why) ||
		    famfs_entry_check(&v, 100, &sb, why)) {
			assert_true(famfs_entry_owned(&v, 100, &sb, why) != 0);
			continue;
		}
		passed++;
		k = famfs_reclaim_get(&v, d);
		assert_true(k >= 1 && k <= FAMFS_RECLAIM_MAX);
		for (unsigned i = 0; i < k; i++) {
			assert_true(d[i] < 100);
			for (unsigned j = 0; j < i; j++)
				assert_true(d[i] != d[j]);
		}
		/* and its v1 form, as a v1 log holds it */
		v.seq = htole64(100);
		famfs_entry_set_crc(&v);
		assert_int_equal(famfs_entry_check(&v, 100, &sb, why), 0);
	}
	assert_true(passed > 0);
}

/* ---- in a file system ---- */
static unsigned long fsck_problems(struct th *t)
{
	struct famfs_fsck_result r;

	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	return r.problems;
}

/* the DELETE index of the only pending file */
static uint64_t only_pending(struct th *t, uint64_t bytes)
{
	struct famfs_reclaim_cand *c;
	uint64_t d;
	size_t n;

	assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(c[0].bytes, bytes);
	assert_true(c[0].nranges >= 1);
	d = c[0].del;
	free(c);
	return d;
}

static int pattern(void *arg, char *addr, uint64_t size)
{
	(void)arg;
	memset(addr, 0xab, size);
	return 0;
}

/* a create of rel told not to zero (mkfile -Z): the bytes it zeroed
 * (famfs_store_stats; the mock's files are not the device's memory, the
 * guest suite cli-reclaim reads the memory itself) */
static uint64_t create_nozero_zeroed(struct th *t, const char *rel,
				     uint64_t size)
{
	uint64_t before = famfs_store_stats.zeroed;

	th_create_nozero(&t->fs, rel, size);
	return famfs_store_stats.zeroed - before;
}

static void delete_reclaim_reuse(bool compact)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, compact);
	struct famfs_reclaim_cand *c;
	struct famfs_df df;
	uint64_t a_off, used, del, freed, obj;
	size_t n;

	/* the host table first (the first rm of a file makes it): the
	 * placements below are the files' alone */
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	{
		static const struct famfs_fill pat = { .fn = pattern };
		int fd = famfs_file_create_fill(&t->fs, "a", 4 * MiB, 0644, 0,
						0, NULL, &pat);

		assert_true(fd >= 0);
		close(fd);
	}
	th_create_nozero(&t->fs, "b", 2 * MiB);
	a_off = th_mock_off_of(t, "a");
	/* no RECLAIM yet: -Z zeroes nothing */
	assert_int_equal(create_nozero_zeroed(t, "z", 2 * MiB), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	used = df.used;
	/* nothing deleted yet: no candidates */
	assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	del = only_pending(t, 4 * MiB);
	assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
	assert_string_equal(c[0].path, "a");
	assert_int_equal(c[0].object, 1);	/* after the HOSTS entry */
	assert_int_equal(c[0].range[0].offset, a_off);
	assert_int_equal(c[0].range[0].len, 4 * MiB);
	assert_int_equal(c[0].range[0].dev, 0);
	obj = c[0].object;
	free(c);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.pending_reclaim, 4 * MiB);
	assert_int_equal(df.used, used);
	/* reclaimed: free from that entry on */
	assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, &freed), 0);
	assert_int_equal(freed, 4 * MiB);
	assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
	assert_int_equal(n, 0);
	free(c);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.pending_reclaim, 0);
	assert_int_equal(df.reclaimed, 4 * MiB);
	assert_int_equal(df.reclaimed_files, 1);
	assert_int_equal(df.deleted_files, 1);
	assert_int_equal(df.used, used - 4 * MiB);
	assert_int_equal(df.bad_entries, 0);
	{
		struct json_object *o = famfs_json_df("t", t->mpt, "", &t->fs, &df);
		struct json_object *d, *v;

		assert_non_null(o);
		assert_true(json_object_object_get_ex(o, "deleted", &d));
		assert_true(json_object_object_get_ex(d, "files", &v));
		assert_int_equal(json_object_get_int64(v), 1);
		assert_true(json_object_object_get_ex(d, "dirs", &v));
		assert_int_equal(json_object_get_int64(v), 0);
		assert_true(json_object_object_get_ex(d, "pending_bytes", &v));
		assert_int_equal(json_object_get_int64(v), 0);
		assert_true(json_object_object_get_ex(d, "reclaimed_bytes", &v));
		assert_int_equal(json_object_get_int64(v), 4 * MiB);
		json_object_put(o);
	}
	assert_int_equal(fsck_problems(t), 0);
	/* named again: refused, nothing appended */
	famfs_quiet = 1;
	assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, &freed), -EINVAL);
	/* an index that is no DELETE: refused */
	assert_int_equal(famfs_reclaim_append(&t->fs, &obj, 1, &freed), -EINVAL);
	famfs_quiet = 0;
	/* the next file of that size gets that memory (this opening's cache),
	 * zeroed: a's bytes never show, even through a create told not to
	 * zero (th_create_nozero: mkfile -Z) */
	assert_int_equal(create_nozero_zeroed(t, "c", 4 * MiB), 4 * MiB);
	assert_int_equal(th_mock_off_of(t, "c"), a_off);
	assert_int_equal(fsck_problems(t), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.used, used);
	/* a new process: the log says the same (no summary with deletes) */
	assert_int_equal(famfs_remove(&t->fs, "c", false), 0);
	del = only_pending(t, 4 * MiB);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, &freed), 0);
	assert_int_equal(th_reopen(t), 0);
	famfs_summary_stats.rebuilds = 0;
	th_create_nozero(&t->fs, "d", 4 * MiB);
	assert_int_equal(th_mock_off_of(t, "d"), a_off);
	assert_int_equal(fsck_problems(t), 0);
	/* the summary file (bitmap and first paths) never stands for a log
	 * with deletes: rebuilt from the log, RECLAIMs and all */
	assert_int_equal(famfs_summary_stats.rebuilds, 1);
	assert_non_null(strstr(famfs_summary_stats.last_reason, "deletes"));
	th_free(t);
}

/* fsck: the memory of a deleted file no RECLAIM freed is said, no
 * problem; gone once reclaimed */
static void test_fsck_pending(void **s)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, true);
	struct famfs_fsck_result r;
	uint64_t del;

	(void)s;
	th_create_nozero(&t->fs, "a", 4 * MiB);
	th_create_nozero(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	assert_int_equal(famfs_remove(&t->fs, "b", false), 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.pending_files, 2);
	assert_int_equal(r.pending_bytes, 6 * MiB);
	/* every owned unit: the files' and the host table the first rm made */
	assert_int_equal(r.used_bytes, 6 * MiB + FAMFS_HOSTS_LEN);
	{
		struct famfs_reclaim_cand *c;
		size_t n;

		assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
		assert_int_equal(n, 2);
		del = c[0].del;
		free(c);
	}
	assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, NULL), 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.pending_files, 1);
	assert_int_equal(r.pending_bytes, 2 * MiB);
	assert_int_equal(r.used_bytes, 2 * MiB + FAMFS_HOSTS_LEN);
	th_free(t);
}

static void test_reuse_v1(void **s)
{
	(void)s;
	delete_reclaim_reuse(false);
}

static void test_reuse_compact(void **s)
{
	(void)s;
	delete_reclaim_reuse(true);
}

/* a RECLAIM appended as is (not judged): corrupt by the log before it */
static void forged(struct th *t, const uint64_t *d, unsigned n)
{
	struct famfs_log_entry e;

	assert_int_equal(famfs_entry_build_reclaim(&e, d, n), 0);
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	famfs_fs_unlock(&t->fs);
}

static void corrupt_in_log(bool compact, int what)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, compact);
	struct famfs_fsck_result r;
	struct famfs_df df;
	uint64_t del, d[2];
	int fd;

	th_create_nozero(&t->fs, "a", 2 * MiB);
	th_create_nozero(&t->fs, "b", 2 * MiB);
	assert_int_equal(famfs_mkdir(&t->fs, "dir", 0755, 0, 0, false), 0);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	del = only_pending(t, 2 * MiB);
	if (what == 0) {		/* reclaimed twice */
		assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, NULL), 0);
		forged(t, &del, 1);
	} else if (what == 1) {		/* a FILE entry, not a DELETE */
		d[0] = 0;
		forged(t, d, 1);
	} else if (what == 2) {		/* a DELETE of a directory */
		assert_int_equal(famfs_remove(&t->fs, "dir", true), 0);
		d[0] = famfs_log_next(t->fs.log) - 1;
		forged(t, d, 1);
	} else {			/* a good one and a bad one: nothing */
		d[0] = del;
		d[1] = 1;
		forged(t, d, 2);
	}
	th_stderr_grab();
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_true(r.problems >= 1);
	assert_true(r.bad_entries >= 1);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_true(df.unparsed_entries >= 1);
	assert_int_equal(df.free, 0);
	/* R3: the master allocates nothing */
	famfs_quiet = 1;
	fd = famfs_file_create(&t->fs, "x", 2 * MiB, 0644, 0, 0);
	assert_int_equal(fd, -EUCLEAN);
	assert_int_equal(th_reopen(t), 0);
	fd = famfs_file_create(&t->fs, "x", 2 * MiB, 0644, 0, 0);
	assert_int_equal(fd, -EUCLEAN);
	famfs_quiet = 0;
	{
		char buf[4096];

		th_stderr_take(buf, sizeof(buf));
		assert_non_null(strstr(buf, "RECLAIM"));
	}
	th_free(t);
}

static void test_corrupt_twice(void **s)
{
	(void)s;
	corrupt_in_log(false, 0);
	corrupt_in_log(true, 0);
}

static void test_corrupt_not_delete(void **s)
{
	(void)s;
	corrupt_in_log(false, 1);
	corrupt_in_log(true, 1);
}

static void test_corrupt_dir_delete(void **s)
{
	(void)s;
	corrupt_in_log(true, 2);
}

static void test_corrupt_partly(void **s)
{
	(void)s;
	corrupt_in_log(true, 3);
}

/* small files: a reclaimed file's pages free in its shared unit; the unit
 * back to the unit allocator with its last page */
static void test_pages(void **s)
{
	struct th *t;
	struct famfs_df df;
	uint64_t d[2], s1, used;

	(void)s;
	th_small_files = true;
	t = held_fmt(64 * MiB, 2 * MiB, true);
	/* the host table first (the first rm of a file makes it): the
	 * placements below are the files' alone */
	assert_int_equal(famfs_hosts_create(&t->fs), 0);
	th_create_ok(&t->fs, "s1", 3 * PG);
	th_create_ok(&t->fs, "s2", 2 * PG);
	s1 = th_mock_off_of(t, "s1");
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.small_units, 1);
	assert_int_equal(df.small_pages_used, 5);
	used = df.used;
	assert_int_equal(famfs_remove(&t->fs, "s1", false), 0);
	d[0] = only_pending(t, 3 * PG);
	assert_int_equal(famfs_reclaim_append(&t->fs, d, 1, NULL), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.small_units, 1);
	assert_int_equal(df.small_pages_used, 2);
	assert_int_equal(df.used, used);
	assert_int_equal(fsck_problems(t), 0);
	/* a new small file takes the freed pages */
	th_create_ok(&t->fs, "s3", 3 * PG);
	assert_int_equal(th_mock_off_of(t, "s3"), s1);
	assert_int_equal(fsck_problems(t), 0);
	/* every page free: the unit is the unit allocator's again */
	assert_int_equal(famfs_remove(&t->fs, "s2", false), 0);
	assert_int_equal(famfs_remove(&t->fs, "s3", false), 0);
	{
		struct famfs_reclaim_cand *c;
		size_t n;

		assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
		assert_int_equal(n, 2);
		assert_true(c[0].pages);
		d[0] = c[0].del;
		d[1] = c[1].del;
		free(c);
	}
	assert_int_equal(famfs_reclaim_append(&t->fs, d, 2, NULL), 0);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.small_units, 0);
	assert_int_equal(df.used, used - 2 * MiB);
	assert_int_equal(fsck_problems(t), 0);
	/* a large file may have the unit now */
	th_create_ok(&t->fs, "big", 2 * MiB);
	assert_int_equal(th_mock_off_of(t, "big"), s1 / (2 * MiB) * (2 * MiB));
	assert_int_equal(fsck_problems(t), 0);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(fsck_problems(t), 0);
	th_free(t);
	th_small_files = false;
}

/* more DELETEs than one entry holds: chunks of FAMFS_RECLAIM_MAX */
static void test_chunks(void **s)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, true);
	struct famfs_reclaim_cand *c;
	uint64_t d[40], freed;
	struct famfs_df df;
	char p[16];
	size_t n;

	(void)s;
	for (unsigned i = 0; i < 40; i++) {
		snprintf(p, sizeof(p), "f%u", i);
		th_create_nozero(&t->fs, p, 2 * MiB);
	}
	for (unsigned i = 0; i < 40; i++) {
		snprintf(p, sizeof(p), "f%u", i);
		assert_int_equal(famfs_remove(&t->fs, p, false), 0);
	}
	assert_int_equal(famfs_reclaim_candidates(&t->fs, &c, &n), 0);
	assert_int_equal(n, 40);
	for (unsigned i = 0; i < 40; i++)
		d[i] = c[i].del;
	free(c);
	assert_int_equal(famfs_reclaim_append(&t->fs, d, 40, &freed), 0);
	assert_int_equal(freed, 80 * MiB);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.reclaimed, 80 * MiB);
	assert_int_equal(df.used, 0);
	assert_int_equal(fsck_problems(t), 0);
	th_free(t);
}

/* written whole, next_index not advanced (a crash between the flushes):
 * R4 keeps it, fsck is clean, and the next append commits it first -- the
 * memory it frees is then free */
static void torn(bool compact)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, compact);
	struct famfs_log_entry e;
	struct famfs_df df;
	uint64_t del, i, a_off;

	th_create_nozero(&t->fs, "a", 2 * MiB);
	th_create_nozero(&t->fs, "b", 2 * MiB);
	a_off = th_mock_off_of(t, "a");
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	del = only_pending(t, 2 * MiB);
	assert_int_equal(famfs_entry_build_reclaim(&e, &del, 1), 0);
	i = famfs_log_next(t->fs.log);
	if (compact) {
		uint8_t buf[FAMFS_CLOG_MAX_ENTRY];

		assert_int_equal(famfs_clog_encode(&e, i, t->fs.sb->fs_uuid, buf, NULL), 1);
		memcpy(famfs_clog_slot(t->fs.log, i), buf, FAMFS_CLOG_SLOT);
	} else {
		e.seq = htole64(i);
		memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
		famfs_entry_set_crc(&e);
		memcpy(famfs_log_slot(t->fs.log, i), &e, sizeof(e));
	}
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(fsck_problems(t), 0);
	/* not committed: still pending */
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.pending_reclaim, 2 * MiB);
	/* the next create commits it first, then takes the memory */
	th_create_nozero(&t->fs, "c", 2 * MiB);
	assert_int_equal(famfs_log_next(t->fs.log), i + 1 + (compact ? 1 : 1));
	assert_int_equal(th_mock_off_of(t, "c"), a_off);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.pending_reclaim, 0);
	assert_int_equal(df.reclaimed, 2 * MiB);
	assert_int_equal(fsck_problems(t), 0);
	th_free(t);
}

static void test_torn_v1(void **s)
{
	(void)s;
	torn(false);
}

static void test_torn_compact(void **s)
{
	(void)s;
	torn(true);
}

/* a client's replay accepts a RECLAIM; reports a corrupt one */
static void test_client_replay(void **s)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, true);
	struct famfs_logplay_result r;
	uint64_t del;

	(void)s;
	th_create_nozero(&t->fs, "a", 2 * MiB);
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	del = only_pending(t, 2 * MiB);
	assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, NULL), 0);
	memset(&r, 0, sizeof(r));
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.bad_entries, 0);
	forged(t, &del, 1);
	famfs_quiet = 1;
	memset(&r, 0, sizeof(r));
	famfs_logplay(&t->fs, false, &r);
	famfs_quiet = 0;
	assert_int_equal(r.bad_entries, 1);
	th_free(t);
}

/* a diverged log (two files on one unit): a RECLAIM of one of them frees
 * nothing the other may hold -- no allocator gives that memory again */
static void test_overlap_keeps(void **s)
{
	struct th *t = held_fmt(256 * MiB, 8 * MiB, true);
	struct famfs_df df;
	uint64_t a_off, del;

	(void)s;
	th_create_nozero(&t->fs, "a", 2 * MiB);
	a_off = th_mock_off_of(t, "a");
	th_append_file(t, "x", a_off, 2 * MiB, 100);	/* on a's unit */
	assert_int_equal(famfs_remove(&t->fs, "a", false), 0);
	del = only_pending(t, 2 * MiB);
	assert_int_equal(famfs_reclaim_append(&t->fs, &del, 1, NULL), 0);
	th_create_nozero(&t->fs, "b", 2 * MiB);
	assert_true(th_mock_off_of(t, "b") != a_off);
	assert_int_equal(th_reopen(t), 0);
	th_create_nozero(&t->fs, "c", 2 * MiB);
	assert_true(th_mock_off_of(t, "c") != a_off);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.used, 6 * MiB);	/* x's, b's, c's */
	th_stderr_grab();
	assert_true(fsck_problems(t) >= 1);	/* x shares a's memory */
	{
		char buf[2048];

		th_stderr_take(buf, sizeof(buf));
	}
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_get),
		cmocka_unit_test(test_corrupt_variants),
		cmocka_unit_test(test_clog_roundtrip),
		cmocka_unit_test(test_fuzz),
		cmocka_unit_test(test_reuse_v1),
		cmocka_unit_test(test_reuse_compact),
		cmocka_unit_test(test_corrupt_twice),
		cmocka_unit_test(test_corrupt_not_delete),
		cmocka_unit_test(test_corrupt_dir_delete),
		cmocka_unit_test(test_corrupt_partly),
		cmocka_unit_test(test_pages),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_torn_v1),
		cmocka_unit_test(test_torn_compact),
		cmocka_unit_test(test_client_replay),
		cmocka_unit_test(test_fsck_pending),
		cmocka_unit_test(test_overlap_keeps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
