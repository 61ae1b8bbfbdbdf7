// SPDX-License-Identifier: GPL-2.0
/* The namespace entries of format revision 3 (DELETE, RENAME, SETATTR):
 * built, checked and CRCed in the v1 form, encoded to and decoded from the
 * compact one byte for byte, refused when their feature bit is clear or a
 * field is wrong, an older tool (its SUPP mask without the bits) refusing
 * the file system, and their decoder against arbitrary bytes. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

#define NS_BITS (FAMFS_FEATURE_INCOMPAT_DELETE | FAMFS_FEATURE_INCOMPAT_RENAME | \
		 FAMFS_FEATURE_INCOMPAT_SETATTR)
/* what a tool from before format revision 3 knows */
#define OLD_SUPP (FAMFS_FEATURE_INCOMPAT_SUPP & ~(uint32_t)NS_BITS)

static void long_path(char *out, size_t len, char tag)
{
	for (size_t i = 0; i < len; i++)
		out[i] = (i % 60 == 59) ? '/' : tag;
	out[0] = tag;
	out[len - 1] = tag;
	out[len] = '\0';
}

static void test_delete_v1(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	struct famfs_ns ns;
	char why[FAMFS_REASON_LEN];

	(void)s;
	th_entry_sb(&sb, NS_BITS);
	assert_int_equal(famfs_entry_build_delete(&e, 3, FAMFS_LOG_FILE, "d//f/"), 0);
	th_entry_seal(&e, 9);
	assert_int_equal(famfs_entry_check(&e, 9, &sb, why), 0);
	assert_int_equal(famfs_ns_get(&e, &ns), 0);
	assert_int_equal(ns.type, FAMFS_LOG_DELETE);
	assert_int_equal(ns.object, 3);
	assert_int_equal(ns.kind, FAMFS_LOG_FILE);
	assert_string_equal(ns.path, "d/f");		/* normalized */
	assert_string_equal(famfs_entry_path(&e), "d/f");
	/* the body is at byte 32, as a v1 log holds it */
	assert_int_equal(le64toh(((struct famfs_log_delete *)((char *)&e + 32))->object), 3);
	assert_int_equal(famfs_entry_owned(&e, 9, &sb, why), 0);
	/* it owns no memory of its own */
	{
		struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];

		assert_int_equal(famfs_entry_ranges(&e, r), 0);
	}
	/* CRC */
	((char *)&e)[60] ^= 1;
	assert_int_equal(famfs_entry_check(&e, 9, &sb, why), -EBADMSG);
}

static void test_rename_v1(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	struct famfs_ns ns;
	char why[FAMFS_REASON_LEN], a[600], b[600];

	(void)s;
	th_entry_sb(&sb, NS_BITS);
	assert_int_equal(famfs_entry_build_rename(&e, 0, FAMFS_LOG_MKDIR, "a/b", "c"), 0);
	th_entry_seal(&e, 1);
	assert_int_equal(famfs_entry_check(&e, 1, &sb, why), 0);
	assert_int_equal(famfs_ns_get(&e, &ns), 0);
	assert_int_equal(ns.kind, FAMFS_LOG_MKDIR);
	assert_string_equal(ns.path, "a/b");
	assert_string_equal(ns.to, "c");
	/* the largest: 960 bytes of paths */
	long_path(a, 480, 'a');
	long_path(b, 478, 'b');
	assert_int_equal(famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, a, b), 0);
	th_entry_seal(&e, 4);
	assert_int_equal(famfs_entry_check(&e, 4, &sb, why), 0);
	assert_int_equal(famfs_ns_get(&e, &ns), 0);
	assert_string_equal(ns.to, b);
	/* one byte more does not fit */
	long_path(b, 479, 'b');
	famfs_quiet = 1;
	assert_int_equal(famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, a, b),
			 -ENAMETOOLONG);
}

static void test_setattr_v1(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	struct famfs_ns ns;
	char why[FAMFS_REASON_LEN];

	(void)s;
	th_entry_sb(&sb, NS_BITS);
	assert_int_equal(famfs_entry_build_setattr(&e, 2, FAMFS_LOG_FILE, "x",
						   FAMFS_SETATTR_MODE | FAMFS_SETATTR_GID,
						   04750, 77, 88), 0);
	th_entry_seal(&e, 5);
	assert_int_equal(famfs_entry_check(&e, 5, &sb, why), 0);
	assert_int_equal(famfs_ns_get(&e, &ns), 0);
	assert_int_equal(ns.valid, FAMFS_SETATTR_MODE | FAMFS_SETATTR_GID);
	assert_int_equal(ns.mode, 04750);
	assert_int_equal(ns.uid, 0);		/* not valid: zero */
	assert_int_equal(ns.gid, 88);
	famfs_quiet = 1;
	assert_int_equal(famfs_entry_build_setattr(&e, 2, FAMFS_LOG_FILE, "x",
						   FAMFS_SETATTR_UID, 0,
						   UINT32_MAX, 0), -EINVAL);
	assert_int_equal(famfs_entry_build_setattr(&e, 2, FAMFS_LOG_FILE, "x",
						   0, 0, 0, 0), -EINVAL);
	assert_int_equal(famfs_entry_build_setattr(&e, 2, FAMFS_LOG_FILE, "x",
						   FAMFS_SETATTR_MODE, 010000, 0, 0),
			 -EINVAL);
}

/* e (v1 form, sealed at slot) and its compact form: the encoder's slot
 * count is want, it verifies, and decodes to e byte for byte */
static void compact_roundtrip(struct famfs_log_entry *e, uint64_t slot,
			      int want, const struct famfs_superblock *sb)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	struct famfs_log_entry d;
	char why[FAMFS_REASON_LEN];
	int n;

	th_entry_seal(e, slot);
	n = famfs_clog_encode(e, slot, th_uuid_a, buf, why);
	assert_int_equal(n, want);
	assert_int_equal(famfs_clog_verify(buf, slot, n, th_uuid_a, why), n);
	assert_int_equal(famfs_clog_decode(buf, slot, th_uuid_a, &d, why), 0);
	assert_memory_equal(&d, e, sizeof(d));
	assert_int_equal(famfs_entry_check_fields(&d, slot, sb, NULL, why), 0);
	/* CRC: a flipped bit, another file system's uuid */
	buf[16 + (slot % 20)] ^= 4;
	assert_int_equal(famfs_clog_verify(buf, slot, n, th_uuid_a, why), -EBADMSG);
	buf[16 + (slot % 20)] ^= 4;
	assert_int_equal(famfs_clog_verify(buf, slot, n, th_uuid_b, why), -EBADMSG);
	/* a slot count that is not the one written */
	if (n > 1) {
		((struct famfs_clog_hdr *)buf)->nslots--;
		assert_true(famfs_clog_verify(buf, slot, n, th_uuid_a, why) < 0);
	}
}

static void test_compact_forms(void **s)
{
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	char a[600], b[600];

	(void)s;
	th_entry_sb(&sb, NS_BITS | FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
	assert_int_equal(famfs_entry_build_delete(&e, 3, FAMFS_LOG_FILE, "d/f"), 0);
	compact_roundtrip(&e, 11, 1, &sb);
	long_path(a, 511, 'q');
	assert_int_equal(famfs_entry_build_delete(&e, 3, FAMFS_LOG_MKDIR, a), 0);
	compact_roundtrip(&e, 12, 3, &sb);	/* 16 + 24 + 512 */
	assert_int_equal(famfs_entry_build_rename(&e, 1, FAMFS_LOG_FILE, "x", "y/z"), 0);
	compact_roundtrip(&e, 20, 1, &sb);
	long_path(a, 480, 'a');
	long_path(b, 478, 'b');
	assert_int_equal(famfs_entry_build_rename(&e, 1, FAMFS_LOG_MKDIR, a, b), 0);
	compact_roundtrip(&e, 30, 4, &sb);	/* 16 + 24 + 960 */
	assert_int_equal(famfs_entry_build_setattr(&e, 5, FAMFS_LOG_MKDIR, "d",
						   FAMFS_SETATTR_UID, 0, 1000, 0), 0);
	compact_roundtrip(&e, 40, 1, &sb);
	long_path(a, 300, 's');
	assert_int_equal(famfs_entry_build_setattr(&e, 5, FAMFS_LOG_FILE, a,
						   FAMFS_SETATTR_MODE, 0600, 0, 0), 0);
	compact_roundtrip(&e, 41, 2, &sb);	/* 16 + 40 + 301 */
}

static void refused(const struct famfs_superblock *sb, struct famfs_log_entry *e,
		    uint64_t idx, int want, const char *says)
{
	char why[FAMFS_REASON_LEN] = "";

	th_entry_seal(e, idx);
	assert_int_equal(famfs_entry_check(e, idx, sb, why), want);
	if (!strstr(why, says))
		fail_msg("'%s' does not say '%s'", why, says);
}

static void test_refusals(void **s)
{
	struct famfs_superblock sb, nobit;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];
	uint8_t *body = (uint8_t *)&e + 32;

	(void)s;
	th_entry_sb(&sb, NS_BITS);
	/* R2: each type's own bit */
	for (unsigned t = FAMFS_LOG_DELETE; t <= FAMFS_LOG_SETATTR; t++) {
		th_entry_sb(&nobit, NS_BITS & ~famfs_ns_feature(t));
		if (t == FAMFS_LOG_DELETE)
			famfs_entry_build_delete(&e, 0, FAMFS_LOG_FILE, "a");
		else if (t == FAMFS_LOG_RENAME)
			famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, "a", "b");
		else
			famfs_entry_build_setattr(&e, 0, FAMFS_LOG_FILE, "a",
						  FAMFS_SETATTR_MODE, 0, 0, 0);
		refused(&nobit, &e, 1, -EPROTONOSUPPORT, "feature");
		/* R3: corrupt, not ignorable: what it owns is unknown */
		assert_int_equal(famfs_entry_owned(&e, 1, &nobit, why),
				 -EPROTONOSUPPORT);
		refused(&sb, &e, 1, 0, "");
	}
	/* the object is an earlier entry */
	famfs_entry_build_delete(&e, 5, FAMFS_LOG_FILE, "a");
	refused(&sb, &e, 5, -EINVAL, "earlier");
	/* a kind that is neither a file nor a directory */
	famfs_entry_build_delete(&e, 0, FAMFS_LOG_FILE, "a");
	((struct famfs_log_delete *)body)->kind = htole16(3);
	refused(&sb, &e, 1, -EINVAL, "kind");
	/* a path that is not in normal form, one that does not end */
	famfs_entry_build_delete(&e, 0, FAMFS_LOG_FILE, "abc");
	body[24 + 1] = '/';
	body[24 + 2] = '.';			/* "a/." */
	refused(&sb, &e, 1, -EINVAL, "normal");
	famfs_entry_build_delete(&e, 0, FAMFS_LOG_FILE, "ab");
	((struct famfs_log_delete *)body)->path_len = htole16(1);
	refused(&sb, &e, 1, -EINVAL, "NUL");
	/* bytes after the paths, padding, flags */
	famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, "a", "b");
	body[FAMFS_NS_BODY_LEN - 1] = 1;
	refused(&sb, &e, 1, -EINVAL, "after its paths");
	famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, "a", "b");
	((struct famfs_log_rename *)body)->pad[1] = 1;
	refused(&sb, &e, 1, -EINVAL, "reserved");
	famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, "a", "b");
	e.flags = htole16(1);
	refused(&sb, &e, 1, -EINVAL, "flags");
	/* lengths beyond the rename's room */
	famfs_entry_build_rename(&e, 0, FAMFS_LOG_FILE, "a", "b");
	((struct famfs_log_rename *)body)->new_len = htole16(959);
	refused(&sb, &e, 1, -EINVAL, "");
	/* setattr: a field it does not set is zero; a mode beyond 07777 */
	famfs_entry_build_setattr(&e, 0, FAMFS_LOG_FILE, "a", FAMFS_SETATTR_MODE,
				  0644, 0, 0);
	((struct famfs_log_setattr *)body)->uid = htole32(5);
	refused(&sb, &e, 1, -EINVAL, "attributes");
	famfs_entry_build_setattr(&e, 0, FAMFS_LOG_FILE, "a", FAMFS_SETATTR_MODE,
				  0644, 0, 0);
	((struct famfs_log_setattr *)body)->mode = htole32(0100644);
	refused(&sb, &e, 1, -EINVAL, "attributes");
	famfs_entry_build_setattr(&e, 0, FAMFS_LOG_FILE, "a", FAMFS_SETATTR_MODE,
				  0644, 0, 0);
	((struct famfs_log_setattr *)body)->valid = htole32(8);
	refused(&sb, &e, 1, -EINVAL, "attributes");
}

/* A tool from before format revision 3 (its SUPP mask without the bits)
 * refuses a file system that has any of them, naming the bits (R1); this
 * tool knows them. */
static void test_older_tool_refuses(void **s)
{
	struct famfs_superblock sb;
	char why[FAMFS_REASON_LEN];
	static const struct { uint32_t bit; const char *hex; } b[] = {
		{ FAMFS_FEATURE_INCOMPAT_DELETE, "0x40 " },
		{ FAMFS_FEATURE_INCOMPAT_RENAME, "0x80 " },
		{ FAMFS_FEATURE_INCOMPAT_SETATTR, "0x100 " },
	};

	(void)s;
	for (unsigned i = 0; i < 3; i++) {
		th_entry_sb(&sb, b[i].bit | FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
		assert_int_equal(famfs_sb_check_known(&sb, 0, OLD_SUPP, why),
				 -EPROTONOSUPPORT);
		assert_non_null(strstr(why, "unknown incompatible features"));
		if (!strstr(why, b[i].hex))
			fail_msg("'%s' does not name %s", why, b[i].hex);
		assert_int_equal(famfs_sb_check(&sb, 0, why), 0);
	}
	/* HOSTS (issue 29 item 4) and SMALL_FILES (issue 30): this tool
	 * takes them, one from before them refuses them (test_hostsentry) */
	th_entry_sb(&sb, FAMFS_FEATURE_INCOMPAT_HOSTS);
	assert_int_equal(famfs_sb_check(&sb, 0, why), 0);
	assert_int_equal(famfs_sb_check_known(&sb, 0, FAMFS_FEATURE_INCOMPAT_SUPP &
					      ~(uint32_t)FAMFS_FEATURE_INCOMPAT_HOSTS,
					      why), -EPROTONOSUPPORT);
	th_entry_sb(&sb, FAMFS_FEATURE_INCOMPAT_SMALL_FILES);
	assert_int_equal(famfs_sb_check(&sb, 0, why), 0);
	assert_int_equal(famfs_sb_check_known(&sb, 0, FAMFS_FEATURE_INCOMPAT_SUPP &
					      ~(uint32_t)FAMFS_FEATURE_INCOMPAT_SMALL_FILES,
					      why), -EPROTONOSUPPORT);
}

/* ---- the decoders against arbitrary bytes ---- */
static uint64_t rs = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static const uint16_t lens[] = { 0, 1, 2, 23, 24, 255, 256, 479, 480, 510,
				 511, 512, 959, 960, 991, 992, 0xffff };

static void random_ns(struct famfs_log_entry *e)
{
	char a[FAMFS_LOG_PATH_MAX], b[FAMFS_LOG_PATH_MAX];
	unsigned kind = rnd() % 2 ? FAMFS_LOG_FILE : FAMFS_LOG_MKDIR;
	uint64_t obj = rnd() % 9;

	long_path(a, 1 + rnd() % 480, 'a' + (char)(rnd() % 3));
	long_path(b, 1 + rnd() % 478, 'x');
	switch (rnd() % 3) {
	case 0:
		assert_int_equal(famfs_entry_build_delete(e, obj, kind, a), 0);
		break;
	case 1:
		assert_int_equal(famfs_entry_build_rename(e, obj, kind, a, b), 0);
		break;
	default:
		assert_int_equal(famfs_entry_build_setattr(e, obj, kind, a,
							   1 + (uint32_t)(rnd() % 7),
							   0755, 7, 8), 0);
		/* (fields it does not set are zeroed by the builder) */
		break;
	}
}

static void mutate(uint8_t *p, size_t n)
{
	unsigned k = 1 + (unsigned)(rnd() % 4);

	for (unsigned i = 0; i < k; i++) {
		switch (rnd() % 6) {
		case 0:
			p[rnd() % n] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1:
			p[rnd() % n] = (uint8_t)rnd();
			break;
		case 2: {	/* a length field: at 16..22 or 32..34 */
			uint16_t v = htole16(lens[rnd() % (sizeof(lens) / 2)]);
			size_t at = (rnd() % 2 ? 16 : 32) + 2 * (rnd() % 3);

			if (at + 2 <= n)
				memcpy(p + at, &v, 2);
			break;
		}
		case 3:
			p[rnd() % n] = 0;
			break;
		case 4:
			p[rnd() % n] = '/';
			break;
		default:
			p[rnd() % n] = '.';
			break;
		}
	}
}

/* what was accepted is whole: its paths end inside the body and are in
 * normal form, its object earlier, its kind a file or a directory */
static void accepted_ok(const struct famfs_log_entry *d, uint64_t idx,
			unsigned it)
{
	struct famfs_ns ns;
	char norm[FAMFS_LOG_PATH_MAX];
	const char *end = (const char *)d + sizeof(*d);

	assert_int_equal(famfs_ns_get(d, &ns), 0);
	if (!memchr(ns.path, 0, (size_t)(end - ns.path)) ||
	    (ns.to && !memchr(ns.to, 0, (size_t)(end - ns.to))))
		fail_msg("iteration %u: a path that does not end", it);
	if (famfs_relpath_normalize(ns.path, norm, NULL) || strcmp(norm, ns.path) ||
	    (ns.to && (famfs_relpath_normalize(ns.to, norm, NULL) ||
		       strcmp(norm, ns.to))))
		fail_msg("iteration %u: a path not in normal form", it);
	if (ns.object >= idx ||
	    (ns.kind != FAMFS_LOG_FILE && ns.kind != FAMFS_LOG_MKDIR))
		fail_msg("iteration %u: object %llu kind %u", it,
			 (unsigned long long)ns.object, ns.kind);
}

static void test_decoder_fuzz(void **s)
{
	struct famfs_superblock sb;
	unsigned acc_c = 0, acc_v1 = 0, ref = 0;

	(void)s;
	th_entry_sb(&sb, NS_BITS | FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
	for (unsigned it = 0; it < 100000; it++) {
		struct famfs_log_entry e, d;
		uint8_t src[FAMFS_CLOG_MAX_ENTRY], *buf;
		struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)src;
		char why[FAMFS_REASON_LEN];
		unsigned avail = 1 + (unsigned)(rnd() % FAMFS_CLOG_MAX_SLOTS);
		int n, rc;

		/* the compact form */
		random_ns(&e);
		assert_true(famfs_clog_encode(&e, 9, th_uuid_a, src, why) > 0);
		mutate(src, sizeof(src));
		if (rnd() % 4 == 0)
			h->nslots = (uint8_t)(1 + rnd() % FAMFS_CLOG_MAX_SLOTS);
		if (rnd() % 16 && h->nslots >= 1 && h->nslots <= FAMFS_CLOG_MAX_SLOTS)
			h->crc = htole32(famfs_clog_crc(src, h->nslots, th_uuid_a));
		buf = malloc((size_t)avail * FAMFS_CLOG_SLOT);
		assert_non_null(buf);
		memcpy(buf, src, (size_t)avail * FAMFS_CLOG_SLOT);
		n = famfs_clog_verify(buf, 9, avail, th_uuid_a, why);
		if (n > 0) {
			rc = famfs_clog_decode(buf, 9, th_uuid_a, &d, why);
			if (!rc && !famfs_entry_check(&d, 9, &sb, why)) {
				uint8_t re[FAMFS_CLOG_MAX_ENTRY];
				int m;

				acc_c++;
				accepted_ok(&d, 9, it);
				/* canonical: the encoder makes the same bytes
				 * (more slots than needed, zero, allowed) */
				m = famfs_clog_encode(&d, 9, th_uuid_a, re, why);
				if (m <= 0 || m > n ||
				    memcmp(re + 16, buf + 16, (size_t)m * FAMFS_CLOG_SLOT - 16) ||
				    !famfs_all_zero(buf + (size_t)m * FAMFS_CLOG_SLOT,
						    (size_t)(n - m) * FAMFS_CLOG_SLOT))
					fail_msg("iteration %u: accepted a non-canonical entry", it);
			} else {
				ref++;
			}
			/* it owns no memory, whatever it says */
			if (!famfs_entry_owned(&d, 9, &sb, why)) {
				struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];

				if (famfs_entry_is_ns(le16toh(d.type)) &&
				    famfs_entry_ranges(&d, r))
					fail_msg("iteration %u: owns memory", it);
			}
		}
		free(buf);
		/* the v1 form: the same mutations in a 1 KiB slot */
		random_ns(&e);
		mutate((uint8_t *)&e + 32, FAMFS_NS_BODY_LEN);
		if (rnd() % 8 == 0)
			e.flags = htole16((uint16_t)(rnd() % 2));
		th_entry_seal(&e, 9);
		if (!famfs_entry_check(&e, 9, &sb, why)) {
			acc_v1++;
			accepted_ok(&e, 9, it);
		} else {
			ref++;
		}
	}
	print_message("accepted %u compact, %u v1; refused %u\n", acc_c, acc_v1,
		      ref);
	assert_true(acc_c > 1000 && acc_v1 > 1000 && ref > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delete_v1),
		cmocka_unit_test(test_rename_v1),
		cmocka_unit_test(test_setattr_v1),
		cmocka_unit_test(test_compact_forms),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_older_tool_refuses),
		cmocka_unit_test(test_decoder_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
