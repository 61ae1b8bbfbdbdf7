// SPDX-License-Identifier: GPL-2.0
/* Format: encode/decode, CRC, rejection of bad superblocks, headers, entries. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "th.h"

static const uint8_t FSID[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t HOST[16] = { 0xaa, 0xbb };
#define DEV (64 * MiB)

static void mksb(struct famfs_superblock *sb)
{
	famfs_sb_init(sb, FSID, HOST, DEV, 8 * MiB);
}

static void test_crc32_vector(void **s)
{
	(void)s;
	assert_int_equal(famfs_crc32("123456789", 9), 0xcbf43926);
}

static void test_layout(void **s)
{
	(void)s;
	assert_int_equal(sizeof(struct famfs_superblock), 512);
	assert_int_equal(sizeof(struct famfs_log_header), 1024);
	assert_int_equal(sizeof(struct famfs_log_entry), 1024);
	assert_int_equal(offsetof(struct famfs_superblock, crc), 12);
	assert_int_equal(offsetof(struct famfs_superblock, fs_uuid), 32);
	assert_int_equal(offsetof(struct famfs_superblock, device_size), 64);
	assert_int_equal(offsetof(struct famfs_log_header, next_index), 16);
	assert_int_equal(offsetof(struct famfs_log_entry, fm), 32);
	assert_int_equal(offsetof(struct famfs_log_entry, fm.ext), 64);
	assert_int_equal(offsetof(struct famfs_log_entry, fm.path), 328);
	assert_int_equal(FAMFS_LOG_MAX_SIMPLE_EXT, 16);
	assert_int_equal(FAMFS_LOG_CAPACITY(8 * MiB), 8191);
}

static void test_sb_roundtrip(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];
	const uint8_t *raw = (const uint8_t *)&sb;

	(void)s;
	mksb(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), 0);
	/* little-endian on the media, whatever the host */
	assert_int_equal(raw[0], 'F');
	assert_int_equal(raw[7], '1');
	assert_int_equal(le64toh(sb.device_size), DEV);
	assert_int_equal(le64toh(sb.log_offset), 2 * MiB);
	assert_int_equal(le64toh(sb.log_len), 8 * MiB);
	assert_memory_equal(sb.fs_uuid, FSID, 16);
	assert_memory_equal(sb.master_uuid, HOST, 16);
	assert_int_equal(famfs_data_start(&sb), 10 * MiB);
}

static void test_sb_bad_magic(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	sb.magic ^= 1;
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "magic"));
}

static void test_sb_bad_crc(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	sb.log_len = htole64(16 * MiB);		/* changed without new CRC */
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EBADMSG);
	assert_non_null(strstr(why, "CRC"));
	mksb(&sb);
	sb.crc ^= htole32(1);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EBADMSG);
}

static void test_sb_bad_version(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	sb.version = htole32(FAMFS_FORMAT_VERSION + 1);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "version"));
}

static void test_sb_unknown_incompat(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	/* (bit 7 was the example until format rev 3 made it RENAME's) */
	sb.feature_incompat = htole32(1U << 11);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "incompatible"));
	assert_non_null(strstr(why, "0x800"));	/* names the bits */
	/* interleave and multi-extent are supported now; bit 30 is not */
	sb.feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_INTERLEAVE |
				      FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), 0);
	sb.feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_INTERLEAVE | 1U << 30);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "0x40000000"));
}

/* issue 18: the non-coherent bit is supported, alone and with interleave */
static void test_sb_noncoherent_supported(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	sb.feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_NONCOHERENT);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), 0);
	sb.feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_NONCOHERENT |
				      FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), 0);
}

static void test_sb_unknown_compat_ok(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	sb.feature_compat = htole32(0xffffffff);
	sb.feature_ro_compat = htole32(0x10);	/* read-only use allowed */
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), 0);
}

static void test_sb_geometry(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV / 2, why), -EINVAL);
	assert_non_null(strstr(why, "exceeds the device"));
	sb.log_len = htole64(3 * MiB);		/* not a power of two */
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EINVAL);
	mksb(&sb);
	sb.reserved[100] = 1;
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, DEV, why), -EINVAL);
	assert_non_null(strstr(why, "reserved"));
}

static void test_loglen_limits(void **s)
{
	(void)s;
	assert_true(famfs_loglen_valid(FAMFS_LOG_LEN_MIN));
	assert_true(famfs_loglen_valid(FAMFS_LOG_LEN_DEFAULT));
	assert_true(famfs_loglen_valid(FAMFS_LOG_LEN_MAX));
	assert_false(famfs_loglen_valid(1 * MiB));
	assert_false(famfs_loglen_valid(2 * FAMFS_LOG_LEN_MAX));
	assert_false(famfs_loglen_valid(12 * MiB));
}

static void test_log_hdr(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_header h;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	famfs_log_hdr_init(&h, FSID, 8 * MiB);
	assert_int_equal(famfs_log_hdr_check(&h, &sb, why), 0);
	assert_int_equal(le64toh(h.capacity), 8191);
	/* next_index moves without a CRC update */
	h.next_index = htole64(5);
	assert_int_equal(famfs_log_hdr_check(&h, &sb, why), 0);
	h.next_index = htole64(8192);
	assert_int_equal(famfs_log_hdr_check(&h, &sb, why), -EINVAL);
	h.next_index = 0;
	h.capacity = htole64(9000);
	assert_int_equal(famfs_log_hdr_check(&h, &sb, why), -EBADMSG);
	famfs_log_hdr_init(&h, HOST, 8 * MiB);		/* other fs uuid */
	assert_int_equal(famfs_log_hdr_check(&h, &sb, why), -EINVAL);
	h.magic = 0;
	assert_int_equal(famfs_log_hdr_check(&h, &sb, why), -EINVAL);
}

static void mkentry(struct famfs_log_entry *e, uint64_t off, uint64_t len,
		    uint64_t size)
{
	struct famfs_log_simple_ext x = { htole64(off), htole64(len) };

	assert_int_equal(famfs_entry_build(e, FAMFS_LOG_FILE, "d/f", size, 0644,
					   1, 2, &x, 1), 0);
	e->seq = htole64(3);
	memcpy(e->fs_uuid, FSID, 16);
	famfs_entry_set_crc(e);
}

static void test_entry_roundtrip(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	mkentry(&e, 10 * MiB, 4 * MiB, 3 * MiB + 1);
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), 0);
	assert_string_equal(e.fm.path, "d/f");
	assert_int_equal(le16toh(e.fm.path_len), 3);
	assert_int_equal(le32toh(e.fm.uid), 1);
	assert_int_equal(le32toh(e.fm.gid), 2);
	assert_int_equal(le16toh(e.fm.extent_type), FAMFS_LOG_EXT_SIMPLE);
	assert_int_equal(le64toh(e.fm.ext.simple[0].len), 4 * MiB);
}

static void test_entry_rejects(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	mkentry(&e, 10 * MiB, 2 * MiB, 1);
	e.fm.path[0] = 'x';			/* bit rot */
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EBADMSG);
	mkentry(&e, 10 * MiB, 2 * MiB, 1);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
	assert_non_null(strstr(why, "sequence"));
	mkentry(&e, 10 * MiB, 2 * MiB, 1);
	e.fs_uuid[0] ^= 1;
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
	mkentry(&e, 10 * MiB, 2 * MiB, 1);
	e.type = htole16(200);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
	assert_non_null(strstr(why, "type"));
	mkentry(&e, 10 * MiB, 2 * MiB, 1);
	e.fm.extent_type = htole16(3);		/* unknown extent type */
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "extent type 3"));
	/* interleaved, but the superblock lacks the feature: a kind this
	 * copy cannot judge (R2, as an unknown one: read again, host-local) */
	mkentry(&e, 10 * MiB, 2 * MiB, 1);
	e.fm.extent_type = htole16(FAMFS_LOG_EXT_INTERLEAVED);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "interleave feature"));
}

static void test_entry_bad_extents(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	(void)s;
	mksb(&sb);
	mkentry(&e, 10 * MiB + 4096, 2 * MiB, 1);
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
	assert_non_null(strstr(why, "aligned"));
	mkentry(&e, 4 * MiB, 2 * MiB, 1);	/* inside the log */
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
	assert_non_null(strstr(why, "superblock or log"));
	mkentry(&e, 0, 2 * MiB, 1);		/* the superblock */
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
	mkentry(&e, 62 * MiB, 4 * MiB, 1);	/* past the end */
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
	assert_non_null(strstr(why, "outside the device"));
	mkentry(&e, 10 * MiB, 2 * MiB, 2 * MiB + 1);	/* file > extents */
	assert_int_equal(famfs_entry_check(&e, 3, &sb, why), -EINVAL);
}

static void test_entry_build_refuses(void **s)
{
	struct famfs_log_simple_ext x = { htole64(10 * MiB), htole64(2 * MiB) };
	struct famfs_log_entry e;
	char longp[600];

	(void)s;
	famfs_quiet = 1;
	memset(longp, 'a', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, longp, 1, 0644, 0,
					   0, &x, 1), -ENAMETOOLONG);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "a/../b", 1, 0644,
					   0, 0, &x, 1), -EINVAL);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "f", 1, 0644, 0, 0,
					   &x, 0), -EINVAL);
}

static void test_parse_size(void **s)
{
	uint64_t v;

	(void)s;
	assert_int_equal(famfs_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(famfs_parse_size("4k", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(famfs_parse_size("2M", &v), 0);
	assert_int_equal(v, 2 * MiB);
	assert_int_equal(famfs_parse_size("1g", &v), 0);
	assert_int_equal(v, 1024 * MiB);
	assert_int_equal(famfs_parse_size("0x10", &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(famfs_parse_size("12q", &v), -EINVAL);
	assert_int_equal(famfs_parse_size("-1", &v), -EINVAL);
	assert_int_equal(famfs_parse_size("", &v), -EINVAL);
}

/* issue 15.17: a leading zero is decimal ("010M" is 10 MiB, not octal 8) */
static void test_parse_size_leading_zero(void **s)
{
	uint64_t v;

	(void)s;
	assert_int_equal(famfs_parse_size("010M", &v), 0);
	assert_int_equal(v, 10 * MiB);
	assert_int_equal(famfs_parse_size("08", &v), 0);
	assert_int_equal(v, 8);
	assert_int_equal(famfs_parse_size("0", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(famfs_parse_size("0x10", &v), 0);	/* hex stays */
	assert_int_equal(v, 16);
	assert_int_equal(famfs_parse_size("0X1k", &v), 0);
	assert_int_equal(v, 1024);
	assert_int_equal(famfs_parse_size(" 5", &v), -EINVAL);
	assert_int_equal(famfs_parse_size("+5", &v), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32_vector),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_sb_roundtrip),
		cmocka_unit_test(test_sb_bad_magic),
		cmocka_unit_test(test_sb_bad_crc),
		cmocka_unit_test(test_sb_bad_version),
		cmocka_unit_test(test_sb_unknown_incompat),
		cmocka_unit_test(test_sb_noncoherent_supported),
		cmocka_unit_test(test_sb_unknown_compat_ok),
		cmocka_unit_test(test_sb_geometry),
		cmocka_unit_test(test_loglen_limits),
		cmocka_unit_test(test_log_hdr),
		cmocka_unit_test(test_entry_roundtrip),
		cmocka_unit_test(test_entry_rejects),
		cmocka_unit_test(test_entry_bad_extents),
		cmocka_unit_test(test_entry_build_refuses),
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_size_leading_zero),
	};

	return cmocka_run_group_tests_name("format", tests, NULL, NULL);
}
