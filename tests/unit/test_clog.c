// SPDX-License-Identifier: GPL-2.0
/* The compact log entry: encoding, decoding, CRC seeded by the fs uuid,
 * refusals, and the capacity a compact log gives. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <uuid/uuid.h>

#include "th.h"

static const uint8_t uuid_a[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t uuid_b[16] = { 16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1 };

/* a path of exactly len bytes, components of at most 99, unique by tag */
static void gen_path(char *out, size_t len, unsigned tag)
{
	size_t n = (size_t)snprintf(out, len + 1, "t%u", tag);

	for (; n < len; n++)
		out[n] = (n % 100 == 99) ? '/' : 'x';
	if (out[len - 1] == '/')
		out[len - 1] = 'x';
	out[len] = '\0';
}

static void build_file(struct famfs_log_entry *e, const char *path,
		       unsigned next, uint64_t first)
{
	struct famfs_log_simple_ext ext[FAMFS_LOG_MAX_SIMPLE_EXT];

	for (unsigned i = 0; i < next; i++) {
		ext[i].offset = htole64(first + 4 * MiB * i);
		ext[i].len = htole64(2 * MiB);
	}
	assert_int_equal(famfs_entry_build(e, FAMFS_LOG_FILE, path,
					   next * 2 * MiB - 1, 0640, 7, 8,
					   ext, next), 0);
}

/* encode at slot, verify, decode: the decoded entry is e, sequenced */
static unsigned roundtrip(struct famfs_log_entry *e, uint64_t slot)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	struct famfs_log_entry d, want = *e;
	char why[FAMFS_REASON_LEN];
	int n = famfs_clog_encode(e, slot, uuid_a, buf, why);

	assert_true(n >= 1 && n <= FAMFS_CLOG_MAX_SLOTS);
	assert_int_equal(famfs_clog_verify(buf, slot, FAMFS_CLOG_MAX_SLOTS,
					   uuid_a, why), n);
	assert_int_equal(famfs_clog_decode(buf, slot, uuid_a, &d, why), 0);
	want.seq = htole64(slot);
	memcpy(want.fs_uuid, uuid_a, 16);
	famfs_entry_set_crc(&want);
	assert_memory_equal(&d, &want, sizeof(d));
	return (unsigned)n;
}

static void test_typical_entry_one_slot(void **state)
{
	struct famfs_log_entry e;
	char p[128];

	(void)state;
	gen_path(p, 99, 1);
	build_file(&e, p, 2, 64 * MiB);
	assert_int_equal(roundtrip(&e, 5), 1);
	build_file(&e, p, 1, 64 * MiB);
	assert_int_equal(roundtrip(&e, 0), 1);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, p, 0, 0755, 1,
					   2, NULL, 0), 0);
	assert_int_equal(roundtrip(&e, 77), 1);
	/* the goal: a third of a v1 entry, or less */
	assert_true(FAMFS_CLOG_SLOT * 3 <= FAMFS_LOG_ENTRY_SIZE);
}

static void test_large_entries_roundtrip(void **state)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_log_entry e;
	char p[FAMFS_LOG_PATH_MAX];

	(void)state;
	gen_path(p, 200, 2);
	build_file(&e, p, 1, 64 * MiB);
	assert_int_equal(roundtrip(&e, 1), 2);
	gen_path(p, FAMFS_LOG_PATH_MAX - 1, 3);
	build_file(&e, p, FAMFS_LOG_MAX_SIMPLE_EXT, 64 * MiB);
	assert_int_equal(roundtrip(&e, 9), 4);
	/* interleaved, 16 strips, the longest path */
	memset(&ie, 0, sizeof(ie));
	ie.nstrips = htole32(FAMFS_LOG_MAX_STRIPS);
	ie.chunk_size = htole64(2 * MiB);
	ie.strip_len = htole64(4 * MiB);
	for (unsigned i = 0; i < FAMFS_LOG_MAX_STRIPS; i++)
		ie.strip_off[i] = htole64(64 * MiB + 8 * MiB * i);
	assert_int_equal(famfs_entry_build_interleaved(&e, p, 60 * MiB, 0600, 0,
						       0, &ie), 0);
	assert_int_equal(roundtrip(&e, 4000), 4);
	gen_path(p, 20, 4);
	ie.nstrips = htole32(3);
	for (unsigned i = 3; i < FAMFS_LOG_MAX_STRIPS; i++)
		ie.strip_off[i] = 0;
	assert_int_equal(famfs_entry_build_interleaved(&e, p, 10 * MiB, 0600, 0,
						       0, &ie), 0);
	assert_int_equal(roundtrip(&e, 3), 1);
}

static void test_crc_seeded_by_uuid(void **state)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	(void)state;
	build_file(&e, "a/b", 2, 64 * MiB);
	assert_int_equal(famfs_clog_encode(&e, 12, uuid_a, buf, why), 1);
	assert_int_equal(famfs_clog_verify(buf, 12, 4, uuid_a, why), 1);
	/* the same bytes, another file system: refused (an entry of an
	 * earlier file system on the same memory) */
	assert_int_equal(famfs_clog_verify(buf, 12, 4, uuid_b, why), -EBADMSG);
	assert_non_null(strstr(why, "CRC"));
	/* another slot: its seq does not match */
	assert_int_equal(famfs_clog_verify(buf, 13, 4, uuid_a, why), -EINVAL);
	/* any bit of the slot flipped fails */
	for (size_t bit = 0; bit < FAMFS_CLOG_SLOT * 8; bit += 7) {
		buf[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		assert_true(famfs_clog_verify(buf, 12, 4, uuid_a, NULL) < 0);
		buf[bit / 8] ^= (uint8_t)(1 << (bit % 8));
	}
	/* an entry cut short by the end of the log */
	build_file(&e, "x", FAMFS_LOG_MAX_SIMPLE_EXT, 64 * MiB);
	assert_int_equal(famfs_clog_encode(&e, 12, uuid_a, buf, why), 2);
	assert_int_equal(famfs_clog_verify(buf, 12, 1, uuid_a, why), -EINVAL);
}

/* re-CRC an edited compact entry */
static void recrc(uint8_t *buf)
{
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)buf;

	h->crc = htole32(famfs_clog_crc(buf, h->nslots, uuid_a));
}

static void test_decode_refusals(void **state)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY], good[FAMFS_CLOG_MAX_ENTRY];
	struct famfs_superblock sb;
	struct famfs_log_entry e, d;
	struct famfs_clog_ext *x = (struct famfs_clog_ext *)(good + 48);
	char why[FAMFS_REASON_LEN];

	(void)state;
	famfs_sb_init(&sb, uuid_a, uuid_b, 1024 * MiB, 8 * MiB);
	build_file(&e, "f", 2, 64 * MiB);
	assert_int_equal(famfs_clog_encode(&e, 0, uuid_a, good, why), 1);
	assert_int_equal(le64toh(x[1].offset), 68 * MiB);
	assert_int_equal(le32toh(x[1].len), 1);
	/* a device index: decoded (famfs_entry_devindex), but without
	 * MULTIDEV and a DEVADD before it, memory unknown (R2, R3) */
	memcpy(buf, good, sizeof(buf));
	((struct famfs_clog_ext *)(buf + 48))[1].devindex = 1;
	recrc(buf);
	assert_int_equal(famfs_clog_verify(buf, 0, 4, uuid_a, why), 1);
	assert_int_equal(famfs_clog_decode(buf, 0, uuid_a, &d, why), 0);
	assert_int_equal(famfs_entry_devindex(&d, 1), 1);
	assert_int_not_equal(famfs_entry_check(&d, 0, &sb, why), 0);
	assert_non_null(strstr(why, "device 1"));
	assert_int_not_equal(famfs_entry_owned(&d, 0, &sb, NULL), 0);
	/* an unknown type: no v1 form either (9 is HOSTS since format rev 3) */
	memcpy(buf, good, sizeof(buf));
	((struct famfs_clog_hdr *)buf)->type = htole16(200);
	recrc(buf);
	assert_int_equal(famfs_clog_decode(buf, 0, uuid_a, &d, why), -EPROTO);
	assert_int_not_equal(famfs_entry_owned(&d, 0, &sb, NULL), 0);
	/* reserved bytes: refused, but its memory is known (R3) */
	memcpy(buf, good, sizeof(buf));
	buf[200] = 1;
	recrc(buf);
	assert_int_equal(famfs_clog_decode(buf, 0, uuid_a, &d, why), -EINVAL);
	assert_non_null(strstr(why, "reserved"));
	assert_int_equal(famfs_entry_owned(&d, 0, &sb, why), 0);
	memcpy(buf, good, sizeof(buf));
	((struct famfs_clog_ext *)(buf + 48))[0].reserved[2] = 1;
	recrc(buf);
	assert_int_equal(famfs_clog_decode(buf, 0, uuid_a, &d, why), -EINVAL);
	/* a path without its NUL, or longer than the entry */
	memcpy(buf, good, sizeof(buf));
	((struct famfs_clog_fmeta *)(buf + 16))->path_len = htole16(300);
	recrc(buf);
	assert_int_equal(famfs_clog_decode(buf, 0, uuid_a, &d, why), -EINVAL);
	assert_int_equal(famfs_entry_owned(&d, 0, &sb, why), 0);
	assert_int_not_equal(famfs_entry_check(&d, 0, &sb, why), 0);
	/* more extents than the slots hold */
	memcpy(buf, good, sizeof(buf));
	((struct famfs_clog_fmeta *)(buf + 16))->nextents = 16;
	recrc(buf);
	assert_int_equal(famfs_clog_decode(buf, 0, uuid_a, &d, why), -EPROTO);
	/* a bad slot count never reads past what it is given */
	memcpy(buf, good, sizeof(buf));
	((struct famfs_clog_hdr *)buf)->nslots = 5;
	assert_int_equal(famfs_clog_verify(buf, 0, 4, uuid_a, why), -EINVAL);
	((struct famfs_clog_hdr *)buf)->nslots = 0;
	assert_int_equal(famfs_clog_verify(buf, 0, 4, uuid_a, why), -EINVAL);
}

static void test_capacity_three_times(void **state)
{
	struct th *t;
	struct famfs_log_entry e;
	uint64_t n = 0, v1 = FAMFS_LOG_CAPACITY(2 * MiB);
	char p[128];
	int rc;

	(void)state;
	assert_true(FAMFS_CLOG_CAPACITY(FAMFS_LOG_LEN_DEFAULT) >=
		    3 * FAMFS_LOG_CAPACITY(FAMFS_LOG_LEN_DEFAULT));
	assert_int_equal(FAMFS_CLOG_CAPACITY(FAMFS_LOG_LEN_DEFAULT), 32764);
	/* >= 1M entries fit the largest log */
	assert_true(FAMFS_CLOG_CAPACITY(FAMFS_LOG_LEN_MAX) >= 4 * 1000000ULL);
	/* fill a 2 MiB compact log with typical files: 99-byte paths, two
	 * extents each */
	t = th_new_fmt(64 * MiB, 2 * MiB, true);
	assert_int_equal(le64toh(t->fs.log->capacity), FAMFS_CLOG_CAPACITY(2 * MiB));
	{
		struct famfs_df df;

		assert_int_equal(famfs_df(&t->fs, &df), 0);
		assert_int_equal(famfs_df_log_warn("x", &df), 0);
	}
	assert_int_equal(le32toh(t->fs.log->entry_size), FAMFS_CLOG_SLOT);
	for (;; n++) {
		gen_path(p, 99, (unsigned)n);
		build_file(&e, p, 2, 4 * MiB);
		rc = famfs_log_append(&t->fs, &e);
		if (rc)
			break;
		/* df warns from 90% on, not before */
		if (n + 1 == FAMFS_CLOG_CAPACITY(2 * MiB) * 9 / 10 - 1 ||
		    n + 1 == (FAMFS_CLOG_CAPACITY(2 * MiB) * 9 + 9) / 10) {
			struct famfs_df df;

			assert_int_equal(famfs_df(&t->fs, &df), 0);
			assert_int_equal(df.log_used, n + 1);
			assert_int_equal(famfs_df_log_warn("x", &df),
					 (n + 1) * 10 >= df.log_capacity * 9);
		}
	}
	assert_int_equal(rc, -ENOSPC);
	assert_true(n >= 3 * v1);
	/* the last slot is kept for the EXTEND entry of a growth */
	assert_int_equal(n, FAMFS_CLOG_CAPACITY(2 * MiB) - 1);
	/* a full log: df counts, the header still checks */
	assert_int_equal(th_reopen(t), 0);
	{
		struct famfs_df df;

		assert_int_equal(famfs_df(&t->fs, &df), 0);
		assert_int_equal(df.files, n);
		assert_int_equal(df.log_capacity, FAMFS_CLOG_CAPACITY(2 * MiB));
		assert_int_equal(df.log_used, n);
		assert_int_equal(famfs_df_log_warn("x", &df), 1);
	}
	th_free(t);
}

/*
 * The race of a reader with another host's writer: the reader reads the
 * slot count from the shared log (k), the writer changes the entry, the
 * reader copies.  Every byte verify's CRC covers (the copy's own count)
 * must be copied, never the reader's stack (poisoned here).
 */
static void test_copy_count_changed(void **state)
{
	uint8_t shared[FAMFS_CLOG_MAX_ENTRY], buf[FAMFS_CLOG_MAX_ENTRY];
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN], p[FAMFS_LOG_PATH_MAX];
	int n;

	(void)state;
	gen_path(p, 500, 3);
	build_file(&e, p, 1, 64 * MiB);
	n = famfs_clog_encode(&e, 9, uuid_a, shared, why);
	assert_int_equal(n, 3);
	/* k = 1 read before the writer made it a 3-slot entry */
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(famfs_clog_copy(buf, shared, 1, 4), 3 * FAMFS_CLOG_SLOT);
	assert_memory_equal(buf, shared, 3 * FAMFS_CLOG_SLOT);
	assert_int_equal(famfs_clog_verify(buf, 9, 4, uuid_a, why), 3);
	/* a count past what may be read: nothing past avail is copied, and
	 * verify refuses the count before its CRC reads anything */
	memset(buf, 0xa5, sizeof(buf));
	assert_int_equal(famfs_clog_copy(buf, shared, 1, 2), FAMFS_CLOG_SLOT);
	assert_int_equal(buf[FAMFS_CLOG_SLOT], 0xa5);
	assert_int_equal(famfs_clog_verify(buf, 9, 2, uuid_a, why), -EINVAL);
	/* k = 4, then a 1-slot entry: more copied than needed, fine */
	gen_path(p, 20, 4);
	build_file(&e, p, 1, 64 * MiB);
	memset(shared, 0, sizeof(shared));
	assert_int_equal(famfs_clog_encode(&e, 9, uuid_a, shared, why), 1);
	assert_int_equal(famfs_clog_copy(buf, shared, 4, 4), 4 * FAMFS_CLOG_SLOT);
	assert_int_equal(famfs_clog_verify(buf, 9, 4, uuid_a, why), 1);
	/* k out of range (a torn or zero slot read): one slot, then the rest */
	memset(buf, 0xa5, sizeof(buf));
	shared[offsetof(struct famfs_clog_hdr, nslots)] = 3;
	assert_int_equal(famfs_clog_copy(buf, shared, 0, 4), 3 * FAMFS_CLOG_SLOT);
	assert_memory_equal(buf, shared, 3 * FAMFS_CLOG_SLOT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typical_entry_one_slot),
		cmocka_unit_test(test_large_entries_roundtrip),
		cmocka_unit_test(test_crc_seeded_by_uuid),
		cmocka_unit_test(test_decode_refusals),
		cmocka_unit_test(test_capacity_three_times),
		cmocka_unit_test(test_copy_count_changed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
