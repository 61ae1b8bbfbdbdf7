// SPDX-License-Identifier: GPL-2.0
/* The compact log decoder against arbitrary bytes: a deterministic fuzz loop
 * (random and mutated entries, hostile field values).  The decoder must
 * never read past the slots it is given (ASan), and whatever it accepts must
 * be a well-formed entry: extents aligned, in the data area, not overlapping,
 * and exactly the bytes the encoder makes of its v1 form. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static const uint8_t uuid_a[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
static const uint8_t uuid_b[16] = { 16, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 1 };

static uint64_t rs = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static uint64_t pick(const uint64_t *v, unsigned n)
{
	return v[rnd() % n];
}

/* hostile 64-bit values: offsets and sizes near every boundary */
static const uint64_t v64[] = {
	0, 1, 2 * MiB, 4 * MiB, 6 * MiB, 64 * MiB, 1022 * MiB, 1024 * MiB,
	1026 * MiB, (1ULL << 41), UINT64_MAX, UINT64_MAX - 2 * MiB + 1,
	UINT64_MAX & ~(2 * MiB - 1), 1ULL << 63, (1ULL << 43) - 2 * MiB,
};
static const uint64_t v32[] = {
	0, 1, 2, 3, 511, 512, 0x7ff, 0x800, 0xffff, 0x10000, 0x7fffffff,
	0x80000000, 0xffffffff, 0xfffffffe,
};

static void random_entry(uint8_t *buf, const struct famfs_superblock *sb)
{
	struct famfs_log_entry e;
	struct famfs_log_simple_ext ext[FAMFS_LOG_MAX_SIMPLE_EXT];
	char path[FAMFS_LOG_PATH_MAX], why[FAMFS_REASON_LEN];
	unsigned next = 1 + (unsigned)(rnd() % FAMFS_LOG_MAX_SIMPLE_EXT);
	size_t plen = 1 + rnd() % (FAMFS_LOG_PATH_MAX - 2);
	uint64_t dstart = famfs_data_start(sb);

	for (size_t i = 0; i < plen; i++)
		path[i] = (i % 50 == 49) ? '/' : (char)('a' + rnd() % 26);
	path[0] = 'p';
	path[plen - 1] = 'z';
	path[plen] = '\0';
	for (unsigned i = 0; i < next; i++) {
		ext[i].offset = htole64(dstart + 2 * MiB * (rnd() % 400));
		ext[i].len = htole64(2 * MiB * (1 + rnd() % 4));
	}
	switch (rnd() % 3) {
	case 0:
		assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, path, 0,
						   0755, 1, 2, NULL, 0), 0);
		break;
	case 1:
		assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, path,
						   rnd() % (8 * MiB), 0644, 1,
						   2, ext, next), 0);
		break;
	default: {
		struct famfs_log_interleave_ext ie;

		memset(&ie, 0, sizeof(ie));
		ie.nstrips = htole32(next);
		ie.chunk_size = htole64(2 * MiB);
		ie.strip_len = htole64(2 * MiB * (1 + rnd() % 3));
		for (unsigned i = 0; i < next; i++)
			ie.strip_off[i] = ext[i].offset;
		assert_int_equal(famfs_entry_build_interleaved(&e, path, 4 * MiB,
							       0644, 1, 2, &ie), 0);
	}
	}
	assert_true(famfs_clog_encode(&e, 7, uuid_a, buf, why) > 0);
}

static void mutate(uint8_t *buf)
{
	struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)buf;
	struct famfs_clog_fmeta *cm = (struct famfs_clog_fmeta *)(buf + 16);
	unsigned nx = 1 + (unsigned)(rnd() % 6);

	for (unsigned k = 0; k < nx; k++) {
		/* an extent (or the ilv word) anywhere in the extent area */
		uint8_t *xp = buf + 48 + 8 * (rnd() % 66);
		uint64_t v;

		switch (rnd() % 14) {
		case 0:
			buf[rnd() % FAMFS_CLOG_MAX_ENTRY] ^= (uint8_t)(1u << (rnd() % 8));
			break;
		case 1:
			buf[rnd() % FAMFS_CLOG_MAX_ENTRY] = (uint8_t)rnd();
			break;
		case 2: {
			static const uint8_t ns[] = { 0, 1, 2, 3, 4, 5, 255 };

			h->nslots = ns[rnd() % sizeof(ns)];
			break;
		}
		case 3:
			cm->path_len = htole16((uint16_t)pick(v32, sizeof(v32) / 8));
			break;
		case 4:
			cm->nextents = (uint8_t)pick(v32, sizeof(v32) / 8);
			break;
		case 5:
			cm->extent_type = (uint8_t)(rnd() % 4);
			break;
		case 6:
			v = htole64(pick(v64, sizeof(v64) / 8));
			if (xp + 8 <= buf + FAMFS_CLOG_MAX_ENTRY)
				memcpy(xp, &v, 8);
			break;
		case 7: {
			uint32_t w = htole32((uint32_t)pick(v32, sizeof(v32) / 8));

			if (xp + 12 <= buf + FAMFS_CLOG_MAX_ENTRY)
				memcpy(xp + 8, &w, 4);
			break;
		}
		case 8:
			if (xp + 13 <= buf + FAMFS_CLOG_MAX_ENTRY)
				xp[12] = (uint8_t)(rnd() % 3);
			break;
		case 9:
			h->type = htole16((uint16_t)(rnd() % 5));
			break;
		case 10:
			h->flags = (uint8_t)(rnd() % 2);
			break;
		case 11:
			cm->size = htole64(pick(v64, sizeof(v64) / 8));
			break;
		case 12: {	/* the chunk of an interleaved entry */
			uint32_t w = htole32((uint32_t)pick(v32, sizeof(v32) / 8));

			memcpy(buf + 48, &w, 4);
			break;
		}
		default:	/* a slot of an earlier entry left behind */
			memset(buf + 256 * (1 + rnd() % 3), (int)(rnd() & 1), 256);
			break;
		}
	}
}

static bool ranges_ok(const struct famfs_log_entry *e,
		      const struct famfs_superblock *sb)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned n = famfs_entry_ranges(e, r);
	uint64_t ds = famfs_data_start(sb), dz = famfs_sb_dev_size(sb);

	for (unsigned i = 0; i < n; i++) {
		if (!r[i].len || (r[i].offset | r[i].len) % (2 * MiB) ||
		    r[i].offset < ds || r[i].offset > dz ||
		    r[i].len > dz - r[i].offset)
			return false;
	}
	return true;
}

static bool no_overlap(const struct famfs_log_entry *e)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned n = famfs_entry_ranges(e, r);

	for (unsigned i = 0; i < n; i++)
		for (unsigned j = 0; j < i; j++)
			if (r[i].offset < r[j].offset + r[j].len &&
			    r[j].offset < r[i].offset + r[i].len)
				return false;
	return true;
}

static void test_decoder_fuzz(void **state)
{
	struct famfs_superblock sb;
	unsigned accepted = 0, owned = 0, refused = 0;

	(void)state;
	famfs_sb_init(&sb, uuid_a, uuid_b, 1024 * MiB, 8 * MiB);
	sb.feature_incompat |= htole32(FAMFS_FEATURE_INCOMPAT_INTERLEAVE |
				       FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT |
				       FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
	for (unsigned it = 0; it < 200000; it++) {
		uint8_t src[FAMFS_CLOG_MAX_ENTRY], *buf;
		struct famfs_clog_hdr *h = (struct famfs_clog_hdr *)src;
		struct famfs_log_entry d;
		char why[FAMFS_REASON_LEN];
		unsigned avail = 1 + (unsigned)(rnd() % FAMFS_CLOG_MAX_SLOTS);
		int n, rc;

		if (rnd() % 8 == 0) {
			for (unsigned i = 0; i < sizeof(src); i++)
				src[i] = (uint8_t)rnd();
			h->seq = htole64(7);
		} else {
			random_entry(src, &sb);
			mutate(src);
		}
		/* most of them: a CRC that matches (the master could have
		 * written it, or another host with the same uuid) */
		if (rnd() % 16 && h->nslots >= 1 && h->nslots <= FAMFS_CLOG_MAX_SLOTS)
			h->crc = htole32(famfs_clog_crc(src, h->nslots, uuid_a));
		/* exactly the slots the reader may read: ASan sees past */
		buf = malloc((size_t)avail * FAMFS_CLOG_SLOT);
		assert_non_null(buf);
		memcpy(buf, src, (size_t)avail * FAMFS_CLOG_SLOT);
		n = famfs_clog_verify(buf, 7, avail, uuid_a, why);
		if (n <= 0) {
			free(buf);
			continue;
		}
		assert_true(n <= (int)avail);
		rc = famfs_clog_decode(buf, 7, uuid_a, &d, why);
		if (!rc && !famfs_entry_check(&d, 7, &sb, why)) {
			uint8_t re[FAMFS_CLOG_MAX_ENTRY];

			accepted++;
			if (!ranges_ok(&d, &sb) || !no_overlap(&d))
				fail_msg("iteration %u: accepted an entry with bad extents", it);
			/* canonical: what was accepted is what the encoder
			 * makes of it, byte for byte */
			/* (more slots than needed, zero, are allowed) */
			rc = famfs_clog_encode(&d, 7, uuid_a, re, why);
			if (rc > 0 && rc <= n)
				((struct famfs_clog_hdr *)re)->nslots = (uint8_t)n;
			for (size_t i = 0; rc > 0 && rc <= n &&
			     i < (size_t)n * FAMFS_CLOG_SLOT; i++)
				if (i != 8 && i != 9 && i != 10 && i != 11 &&
				    re[i] != buf[i]) {
					rc = -(int)i - 1000;
					break;
				}
			if (rc <= 0 || rc > n)
				fail_msg("iteration %u: accepted a non-canonical entry (%d slots, re-encoded: %d (-1000 - first differing byte), type %u)",
					 it, n, rc, le16toh(d.type));
		} else if (!famfs_entry_owned(&d, 7, &sb, why)) {
			/* R3: memory known: it must be real memory */
			owned++;
			if (rc == -EPROTO)
				fail_msg("iteration %u: no v1 form but owned", it);
			if (!ranges_ok(&d, &sb))
				fail_msg("iteration %u: owned memory out of bounds", it);
		} else {
			refused++;
		}
		free(buf);
	}
	/* the loop exercised every outcome */
	print_message("accepted %u, owned %u, refused %u\n", accepted, owned,
		      refused);
	assert_true(accepted > 1000 && owned > 1000 && refused > 1000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decoder_fuzz),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
