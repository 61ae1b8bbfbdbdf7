// SPDX-License-Identifier: GPL-2.0
/* Small files (format revision 3, INCOMPAT_SMALL_FILES): FILE entries whose
 * extents are page extents (FAMFS_LOG_EXT_PAGES) -- built, checked and
 * CRCed in the v1 form, encoded to and decoded from the compact one (len in
 * 4 KiB pages) byte for byte, refused when not 4 KiB aligned, across a 2 MiB
 * unit, for a file of FAMFS_SMALL_MAX bytes or more, with more than 16
 * extents, on a device no DEVADD added, or without the feature bit; an
 * older tool (its SUPP mask without the bit) refuses the file system. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

#define PG	FAMFS_PAGE
#define UNIT	FAMFS_ALLOC_UNIT
#define SMALL	FAMFS_FEATURE_INCOMPAT_SMALL_FILES
#define COMPACT	FAMFS_FEATURE_INCOMPAT_COMPACT_LOG
#define MULTI	FAMFS_FEATURE_INCOMPAT_MULTIDEV

/* a small file of size bytes in n page extents at off[i], len[i] */
static void mk(struct famfs_log_entry *e, uint64_t size, unsigned n,
	       const uint64_t *off, const uint64_t *len)
{
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];

	for (unsigned i = 0; i < n; i++) {
		x[i].offset = htole64(off[i]);
		x[i].len = htole64(len[i]);
	}
	assert_int_equal(famfs_entry_build_pages(e, "s/f", size, 0644, 0, 0,
						 x, n), 0);
}

static void test_pages_v1(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	char why[FAMFS_REASON_LEN];
	uint64_t off[2] = { 20 * UNIT + 3 * PG, 21 * UNIT }, len[2] = { PG, 2 * PG };

	(void)s;
	th_entry_sb(&sb, SMALL);
	mk(&e, 3 * PG - 100, 2, off, len);
	assert_int_equal(le16toh(e.fm.extent_type), FAMFS_LOG_EXT_PAGES);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), 0);
	assert_int_equal(famfs_entry_owned(&e, 4, &sb, why), 0);
	assert_false(famfs_entry_interleaved(&e));
	assert_true(famfs_entry_pages(&e));
	/* its ranges are its pages, in bytes */
	assert_int_equal(famfs_entry_ranges(&e, r), 2);
	assert_int_equal(r[0].offset, off[0]);
	assert_int_equal(r[0].len, PG);
	assert_int_equal(r[1].offset, off[1]);
	assert_int_equal(r[1].len, 2 * PG);
	/* the map the module gets: simple extents, flagged as pages */
	{
		struct famfs_fmap m;

		famfs_fmap_from_entry(&e, &m);
		assert_true(m.pages);
		assert_int_equal(m.count, 2);
		assert_int_equal(m.ext[1].offset, off[1]);
		assert_int_equal(m.ext[1].len, 2 * PG);
	}
	/* no v1 map (MAP_CREATE): it has no page flag, and would give the
	 * module page extents as 2 MiB extents */
	{
		struct famfs_ioc_map v1;

		assert_int_equal(famfs_map_from_entry(&e, &v1), -EOVERFLOW);
	}
	/* without the bit: corrupt (R2), its memory unknown (R3) */
	th_entry_sb(&sb, 0);
	assert_int_not_equal(famfs_entry_check(&e, 4, &sb, why), 0);
	assert_non_null(strstr(why, "small-file"));
	assert_int_not_equal(famfs_entry_owned(&e, 4, &sb, why), 0);
	/* CRC */
	th_entry_sb(&sb, SMALL);
	((char *)&e)[70] ^= 1;
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), -EBADMSG);
}

/* e refused by the full check with reason containing says; owned (its
 * memory known) as want_owned */
static void refused(const struct famfs_superblock *sb,
		    const struct famfs_logdevs *devs, struct famfs_log_entry *e,
		    const char *says, bool want_owned)
{
	char why[FAMFS_REASON_LEN] = "";

	th_entry_seal(e, 50);
	assert_int_not_equal(famfs_entry_check_devs(e, 50, sb, devs, why), 0);
	if (!strstr(why, says))
		fail_msg("reason '%s' lacks '%s'", why, says);
	assert_int_equal(famfs_entry_owned_devs(e, 50, sb, devs, why) == 0,
			 want_owned);
}

static void test_refusals(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	uint64_t off[17], len[17];

	(void)s;
	th_entry_sb(&sb, SMALL);
	/* not 4 KiB aligned: offset, length */
	off[0] = 20 * UNIT + 100; len[0] = PG;
	mk(&e, 10, 1, off, len);
	refused(&sb, NULL, &e, "4 KiB", false);
	off[0] = 20 * UNIT; len[0] = PG + 512;
	mk(&e, 10, 1, off, len);
	refused(&sb, NULL, &e, "4 KiB", false);
	/* across a 2 MiB unit */
	off[0] = 21 * UNIT - PG; len[0] = 2 * PG;
	mk(&e, 10, 1, off, len);
	refused(&sb, NULL, &e, "2 MiB unit", false);
	/* a whole unit is no page extent either */
	off[0] = 21 * UNIT; len[0] = UNIT + PG;
	mk(&e, 10, 1, off, len);
	refused(&sb, NULL, &e, "2 MiB unit", false);
	/* the file is not small: its memory is known */
	off[0] = 20 * UNIT; len[0] = UNIT - PG;
	mk(&e, UNIT - PG, 1, off, len);
	th_entry_seal(&e, 50);
	{
		char why[FAMFS_REASON_LEN];

		assert_int_equal(famfs_entry_check(&e, 50, &sb, why), 0);
	}
	mk(&e, FAMFS_SMALL_MAX, 1, off, len);
	refused(&sb, NULL, &e, "small", true);
	/* extents smaller than the file */
	off[0] = 20 * UNIT; len[0] = PG;
	mk(&e, PG + 1, 1, off, len);
	refused(&sb, NULL, &e, "smaller than the file", true);
	/* two extents sharing a page */
	off[0] = 20 * UNIT; len[0] = 2 * PG;
	off[1] = 20 * UNIT + PG; len[1] = PG;
	mk(&e, 100, 2, off, len);
	refused(&sb, NULL, &e, "overlap", true);
	/* in the superblock or log */
	off[0] = 2 * UNIT; len[0] = PG;
	mk(&e, 100, 1, off, len);
	refused(&sb, NULL, &e, "superblock or log", false);
	/* past the device */
	off[0] = 512 * UNIT; len[0] = PG;
	mk(&e, 100, 1, off, len);
	refused(&sb, NULL, &e, "outside", false);
	/* 17 extents: the builder refuses, and so does the check */
	for (unsigned i = 0; i < 17; i++) {
		off[i] = 20 * UNIT + i * 2 * PG;
		len[i] = PG;
	}
	mk(&e, 100, 16, off, len);
	th_entry_seal(&e, 50);
	{
		char why[FAMFS_REASON_LEN];
		struct famfs_log_simple_ext x[17];

		assert_int_equal(famfs_entry_check(&e, 50, &sb, why), 0);
		memset(x, 0, sizeof(x));
		assert_int_equal(famfs_entry_build_pages(&e, "s/f", 100, 0644,
							 0, 0, x, 17), -EINVAL);
	}
	mk(&e, 100, 16, off, len);
	e.fm.nextents = htole16(17);
	refused(&sb, NULL, &e, "extent count", false);
	mk(&e, 100, 1, off, len);
	e.fm.nextents = htole16(0);
	refused(&sb, NULL, &e, "extent count", false);
}

/* a device index beyond the members the log added: unparseable */
static void test_devices(void **s)
{
	struct famfs_superblock sb;
	struct famfs_logdevs t;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];
	uint64_t off[2] = { 20 * UNIT, 3 * UNIT + 5 * PG }, len[2] = { PG, PG };

	(void)s;
	th_entry_sb(&sb, SMALL | COMPACT | MULTI);
	famfs_logdevs_init(&t, &sb);
	t.ndevs = 2;
	t.dev[1].added = true;
	t.dev[1].size = 64 * UNIT;
	t.dev[1].data_start = UNIT;
	t.dev[1].log_idx = 1;
	mk(&e, 2 * PG, 2, off, len);
	e.fm.reserved[1] = 1;
	th_entry_seal(&e, 50);
	assert_int_equal(famfs_entry_check_devs(&e, 50, &sb, &t, why), 0);
	/* the same offsets on two devices do not overlap */
	off[1] = 20 * UNIT;
	mk(&e, 2 * PG, 2, off, len);
	e.fm.reserved[1] = 1;
	th_entry_seal(&e, 50);
	assert_int_equal(famfs_entry_check_devs(&e, 50, &sb, &t, why), 0);
	/* device 2: no DEVADD added it */
	e.fm.reserved[1] = 2;
	th_entry_seal(&e, 50);
	assert_int_equal(famfs_entry_check_devs(&e, 50, &sb, &t, why), -EPROTO);
	assert_int_equal(famfs_entry_owned_devs(&e, 50, &sb, &t, why), -EPROTO);
	/* a member's first unit is its superblock's */
	off[1] = 5 * PG;
	mk(&e, 2 * PG, 2, off, len);
	e.fm.reserved[1] = 1;
	refused(&sb, &t, &e, "member superblock", false);
	/* past the member's size */
	off[1] = 64 * UNIT;
	mk(&e, 2 * PG, 2, off, len);
	e.fm.reserved[1] = 1;
	refused(&sb, &t, &e, "outside device 1", false);
}

/* the compact form: len in pages, decodes to the v1 form byte for byte */
static void test_compact(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e, d;
	struct famfs_clog_ext *x;
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	char why[FAMFS_REASON_LEN];
	uint64_t off[16], len[16];
	int n;

	(void)s;
	th_entry_sb(&sb, SMALL | COMPACT);
	off[0] = 20 * UNIT + 7 * PG; len[0] = 3 * PG;
	off[1] = 30 * UNIT + 511 * PG; len[1] = PG;
	mk(&e, 4 * PG, 2, off, len);
	th_entry_seal(&e, 77);
	n = famfs_clog_encode(&e, 77, th_uuid_a, buf, why);
	assert_int_equal(n, 1);
	x = (struct famfs_clog_ext *)(buf + 16 + 32);
	assert_int_equal(((struct famfs_clog_fmeta *)(buf + 16))->extent_type,
			 FAMFS_LOG_EXT_PAGES);
	assert_int_equal(le64toh(x[0].offset), off[0]);
	assert_int_equal(le32toh(x[0].len), 3);		/* pages */
	assert_int_equal(le32toh(x[1].len), 1);
	assert_int_equal(famfs_clog_verify(buf, 77, n, th_uuid_a, why), 1);
	assert_int_equal(famfs_clog_decode(buf, 77, th_uuid_a, &d, why), 0);
	assert_memory_equal(&d, &e, sizeof(d));
	assert_int_equal(famfs_entry_check_fields(&d, 77, &sb, NULL, why), 0);
	/* 16 extents */
	for (unsigned i = 0; i < 16; i++) {
		off[i] = 40 * UNIT + i * 8 * PG;
		len[i] = (i + 1) % 8 * PG + PG;
	}
	mk(&e, 16 * PG, 16, off, len);
	th_entry_seal(&e, 78);
	n = famfs_clog_encode(&e, 78, th_uuid_a, buf, why);
	assert_int_equal(n, 2);		/* 16 + 32 + 256 + 4 */
	assert_int_equal(famfs_clog_decode(buf, 78, th_uuid_a, &d, why), 0);
	assert_memory_equal(&d, &e, sizeof(d));
	/* a length not in pages has no compact form */
	e.fm.ext.simple[0].len = htole64(PG + 8);
	assert_int_equal(famfs_clog_encode(&e, 78, th_uuid_a, buf, why), -EINVAL);
	/* a decoded entry whose page extents are wrong is refused by the
	 * check, as the v1 form is (across a unit) */
	off[0] = 21 * UNIT - PG; len[0] = 2 * PG;
	mk(&e, 100, 1, off, len);
	th_entry_seal(&e, 79);
	n = famfs_clog_encode(&e, 79, th_uuid_a, buf, why);
	assert_int_equal(n, 1);
	assert_int_equal(famfs_clog_decode(buf, 79, th_uuid_a, &d, why), 0);
	assert_int_not_equal(famfs_entry_check_fields(&d, 79, &sb, NULL, why), 0);
	assert_non_null(strstr(why, "2 MiB unit"));
}

static void test_older_tool_refuses(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];

	(void)s;
	assert_true(FAMFS_FEATURE_INCOMPAT_SUPP & SMALL);
	th_entry_sb(&sb, SMALL);
	assert_int_equal(famfs_sb_check(&sb, 0, why), 0);
	assert_int_equal(famfs_sb_check_known(&sb, 0,
			 FAMFS_FEATURE_INCOMPAT_SUPP & ~(uint32_t)SMALL, why),
			 -EPROTONOSUPPORT);
	/* the ioctl's constants are the format's */
	assert_int_equal(FAMFS_IOC_PAGE_SIZE, FAMFS_PAGE);
	assert_int_equal(FAMFS_IOC_SMALL_MAX, FAMFS_SMALL_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pages_v1),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_devices),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_older_tool_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
