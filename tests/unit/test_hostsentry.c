// SPDX-License-Identifier: GPL-2.0
/* The HOSTS entry (type 9, INCOMPAT_HOSTS, format revision 3): built,
 * checked and owned in the v1 form, its compact form byte for byte, its
 * refusals (bit clear: R2; a range not aligned or out of the data area:
 * what it owns unknown, R3; a wrong len, nslots or reserved byte: refused
 * but its range owned), appended and walked in both logs with its table's
 * memory kept used, and an older tool refusing the file system. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "th.h"

static struct famfs_log_hosts *body(struct famfs_log_entry *e)
{
	return (struct famfs_log_hosts *)((uint8_t *)e + 32);
}

static void test_v1_form(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	char why[FAMFS_REASON_LEN];

	(void)s;
	th_entry_sb(&sb, FAMFS_FEATURE_INCOMPAT_HOSTS);
	famfs_entry_build_hosts(&e, 64 * MiB);
	th_entry_seal(&e, 4);
	assert_int_equal(le16toh(e.type), FAMFS_LOG_HOSTS);
	assert_int_equal(le64toh(body(&e)->offset), 64 * MiB);
	assert_int_equal(le64toh(body(&e)->len), FAMFS_HOSTS_LEN);
	assert_int_equal(le32toh(body(&e)->nslots), FAMFS_HOST_SLOTS);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), 0);
	assert_int_equal(famfs_entry_owned(&e, 4, &sb, why), 0);
	assert_int_equal(famfs_entry_ranges(&e, r), 1);
	assert_int_equal(r[0].offset, 64 * MiB);
	assert_int_equal(r[0].len, FAMFS_HOSTS_LEN);
	assert_int_equal(famfs_entry_ranges_on(&e, 0, r), 1);
	assert_int_equal(famfs_entry_ranges_on(&e, 1, r), 0);
	assert_string_equal(famfs_entry_path(&e), "");
	/* CRC */
	((uint8_t *)&e)[40] ^= 1;
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EBADMSG);
}

static void test_refusals(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	(void)s;
	/* R2: the bit clear */
	th_entry_sb(&sb, 0);
	famfs_entry_build_hosts(&e, 64 * MiB);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EPROTONOSUPPORT);
	assert_int_equal(famfs_entry_owned(&e, 4, &sb, why), -EPROTONOSUPPORT);
	th_entry_sb(&sb, FAMFS_FEATURE_INCOMPAT_HOSTS);
	/* not aligned, in the superblock or log, past the end: memory unknown */
	{
		static const uint64_t bad[] = { 64 * MiB + 4096, 0, 2 * MiB,
						1024 * MiB - FAMFS_HOSTS_LEN + 2 * MiB,
						1024 * MiB };

		for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			famfs_entry_build_hosts(&e, bad[i]);
			th_entry_seal(&e, 4);
			assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
			assert_int_equal(famfs_entry_owned(&e, 4, &sb, why), -EINVAL);
		}
	}
	/* the last 2 MiB of the device: fine */
	famfs_entry_build_hosts(&e, 1024 * MiB - FAMFS_HOSTS_LEN);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), 0);
	/* refused, but its range known: owned (R3) */
	famfs_entry_build_hosts(&e, 64 * MiB);
	body(&e)->len = htole64(4 * MiB);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
	famfs_entry_build_hosts(&e, 64 * MiB);
	body(&e)->nslots = htole32(64);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
	assert_int_equal(famfs_entry_owned(&e, 4, &sb, why), 0);
	famfs_entry_build_hosts(&e, 64 * MiB);
	body(&e)->reserved = htole32(1);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
	assert_int_equal(famfs_entry_owned(&e, 4, &sb, why), 0);
	famfs_entry_build_hosts(&e, 64 * MiB);
	((uint8_t *)&e)[32 + 24 + 100] = 1;
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
	famfs_entry_build_hosts(&e, 64 * MiB);
	e.flags = htole16(1);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EINVAL);
}

static void test_compact_form(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e, d;
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	char why[FAMFS_REASON_LEN];

	(void)s;
	th_entry_sb(&sb, FAMFS_FEATURE_INCOMPAT_HOSTS | FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
	famfs_entry_build_hosts(&e, 64 * MiB);
	assert_int_equal(famfs_clog_encode(&e, 7, th_uuid_a, buf, why), 1);
	assert_int_equal(le16toh(((struct famfs_clog_hdr *)buf)->type), FAMFS_LOG_HOSTS);
	/* the body right after the header, the rest of the slot zero */
	assert_memory_equal(buf + 16, (uint8_t *)&e + 32, 24);
	assert_true(famfs_all_zero(buf + 40, FAMFS_CLOG_SLOT - 40));
	assert_int_equal(famfs_clog_verify(buf, 7, 1, th_uuid_a, why), 1);
	assert_int_equal(famfs_clog_decode(buf, 7, th_uuid_a, &d, why), 0);
	assert_int_equal(famfs_entry_check(&d, 7, &sb, why), 0);
	assert_memory_equal((uint8_t *)&d + 32, (uint8_t *)&e + 32, 24);
	/* a byte after the body: refused, its memory known */
	buf[100] = 1;
	((struct famfs_clog_hdr *)buf)->crc =
		htole32(famfs_clog_crc(buf, 1, th_uuid_a));
	assert_int_equal(famfs_clog_decode(buf, 7, th_uuid_a, &d, why), -EINVAL);
	assert_int_equal(famfs_entry_owned(&d, 7, &sb, why), 0);
	/* two slots: refused */
	famfs_clog_encode(&e, 7, th_uuid_a, buf, why);
	((struct famfs_clog_hdr *)buf)->nslots = 2;
	((struct famfs_clog_hdr *)buf)->crc =
		htole32(famfs_clog_crc(buf, 2, th_uuid_a));
	assert_int_not_equal(famfs_clog_decode(buf, 7, th_uuid_a, &d, why), 0);
}

struct seen {
	unsigned n, bad, hosts;
	uint64_t at;
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)reason;
	s->n++;
	s->bad += !ok;
	if (ok && le16toh(e->type) == FAMFS_LOG_HOSTS) {
		s->hosts++;
		s->at = idx;
	}
	return 0;
}

/* appended after its bit, walked, its memory kept from the allocator */
static void appended(bool compact)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, compact);
	struct famfs_log_entry e;
	struct seen sn = { 0 };
	uint64_t at;

	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
						 FAMFS_FEATURE_INCOMPAT_HOSTS, 0), 0);
	at = famfs_log_next(t->fs.log);
	famfs_entry_build_hosts(&e, 40 * MiB);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &sn), 0);
	assert_int_equal(sn.bad, 0);
	assert_int_equal(sn.hosts, 1);
	assert_int_equal(sn.at, at);
	/* the allocator never hands it out (R3, like a log segment) */
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	assert_int_equal(famfs_fs_cache_ready(&t->fs, "test", "allocate"), 0);
	assert_true(famfs_bitmap_test(&t->fs.cache_alloc->dev[0],
				      40 * MiB / FAMFS_ALLOC_UNIT));
	assert_false(famfs_bitmap_test(&t->fs.cache_alloc->dev[0],
				       42 * MiB / FAMFS_ALLOC_UNIT));
	famfs_fs_unlock(&t->fs);
	th_free(t);
}

static void test_append_v1(void **s)
{
	(void)s;
	appended(false);
}

static void test_append_compact(void **s)
{
	(void)s;
	appended(true);
}

/* a tool from before HOSTS refuses the file system; this one takes it */
static void test_older_tool(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	th_entry_sb(&sb, FAMFS_FEATURE_INCOMPAT_HOSTS);
	assert_int_equal(famfs_sb_check(&sb, 0, why), 0);
	assert_int_equal(famfs_sb_check_known(&sb, 0, FAMFS_FEATURE_INCOMPAT_SUPP &
					      ~(uint32_t)FAMFS_FEATURE_INCOMPAT_HOSTS,
					      why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "0x200"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_v1_form),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_compact_form),
		cmocka_unit_test(test_append_v1),
		cmocka_unit_test(test_append_compact),
		cmocka_unit_test(test_older_tool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
