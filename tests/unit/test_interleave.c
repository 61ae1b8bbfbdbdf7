// SPDX-License-Identifier: GPL-2.0
/*
 * Interleaved files, the arithmetic and the log format: famfs_interleave.h
 * against its worked examples and a naive chunk-by-chunk reference, then
 * the encoding of an interleaved log entry and every way it is refused.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

#include <linux/famfs_interleave.h>

/* ---- the arithmetic ------------------------------------------------------ */

static void test_seed_examples(void **s)
{
	struct famfs_ipos p;

	(void)s;
	/* 4 strips, 2 MiB chunks */
	p = famfs_interleave_pos(0, 2 * MiB, 4);
	assert_int_equal(p.strip, 0);
	assert_int_equal(p.strip_off, 0);
	assert_int_equal(p.chunk_left, 2 * MiB);
	p = famfs_interleave_pos(4 * MiB, 2 * MiB, 4);
	assert_int_equal(p.strip, 2);
	assert_int_equal(p.strip_off, 0);
	assert_int_equal(p.chunk_left, 2 * MiB);
	p = famfs_interleave_pos(15 * MiB, 2 * MiB, 4);	/* chunk 7 */
	assert_int_equal(p.strip, 3);
	assert_int_equal(p.strip_off, 3 * MiB);
	assert_int_equal(p.chunk_left, 1 * MiB);
	p = famfs_interleave_pos(8 * MiB, 2 * MiB, 4);	/* chunk 4: stripe 1 */
	assert_int_equal(p.strip, 0);
	assert_int_equal(p.strip_off, 2 * MiB);
	/* 24 MiB = 12 chunks: 3 on every strip; 25 MiB: strip 0 holds 4 */
	for (unsigned k = 0; k < 4; k++)
		assert_int_equal(famfs_interleave_strip_chunks(24 * MiB, 2 * MiB, 4, k), 3);
	assert_int_equal(famfs_interleave_strip_chunks(25 * MiB, 2 * MiB, 4, 0), 4);
	assert_int_equal(famfs_interleave_strip_chunks(25 * MiB, 2 * MiB, 4, 1), 3);
	assert_int_equal(famfs_interleave_strip_chunks(0, 2 * MiB, 4, 0), 0);
	assert_int_equal(famfs_interleave_strip_chunks(1, 2 * MiB, 4, 0), 1);
	assert_int_equal(famfs_interleave_strip_chunks(1, 2 * MiB, 4, 1), 0);
}

/* xorshift64*: reproducible from the printed seed */
static uint64_t rs;
static uint64_t rnd64(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 0x2545f4914f6cdd1dULL;
}

/* the reference: walk the file chunk by chunk, dealing them out in turn */
static struct famfs_ipos ref_pos(uint64_t off, uint64_t chunk, uint32_t ns)
{
	uint64_t base = 0, used[FAMFS_IOC_MAX_STRIPS] = { 0 };
	uint32_t strip = 0;
	struct famfs_ipos p = { 0 };

	while (off - base >= chunk) {
		used[strip]++;
		base += chunk;
		strip = (strip + 1) % ns;
	}
	p.strip = strip;
	p.strip_off = used[strip] * chunk + (off - base);
	p.chunk_left = chunk - (off - base);
	return p;
}

static uint64_t ref_strip_chunks(uint64_t nbytes, uint64_t chunk, uint32_t ns,
				 uint32_t strip)
{
	uint64_t n = 0, k = 0;

	for (uint64_t b = 0; b < nbytes; b += chunk, k++)
		if (k % ns == strip)
			n++;
	return n;
}

static void test_random_vs_reference(void **s)
{
	uint64_t seed = 0x5eed0003ULL, cases = 0;
	const char *env = getenv("FAMFS_UNIT_SEED");

	(void)s;
	if (env)
		seed = strtoull(env, NULL, 0);
	rs = seed ? seed : 1;
	print_message("# seed 0x%llx (FAMFS_UNIT_SEED=0x%llx to repeat)\n",
		      (unsigned long long)seed, (unsigned long long)seed);
	for (int it = 0; it < 3000; it++) {
		uint32_t ns = 1 + (uint32_t)(rnd64() % FAMFS_IOC_MAX_STRIPS);
		uint64_t chunk = (1 + rnd64() % 4) * 2 * MiB;
		uint64_t nchunks = 1 + rnd64() % 80;
		uint64_t nbytes = nchunks * chunk - (rnd64() % 2 ? rnd64() % chunk : 0);
		uint64_t offs[8];

		/* the first and the last byte, chunk boundaries and a random one */
		offs[0] = 0;
		offs[1] = nbytes - 1;
		offs[2] = (rnd64() % nchunks) * chunk;
		offs[3] = offs[2] ? offs[2] - 1 : 0;
		offs[4] = (rnd64() % nchunks) * chunk + chunk - 1;
		offs[5] = rnd64() % nbytes;
		offs[6] = (nchunks - 1) * chunk;
		offs[7] = (rnd64() % nchunks) * chunk + rnd64() % chunk;
		for (unsigned i = 0; i < 8; i++) {
			uint64_t off = offs[i];
			struct famfs_ipos a, b;

			if (off >= nchunks * chunk)
				continue;
			a = famfs_interleave_pos(off, chunk, ns);
			b = ref_pos(off, chunk, ns);
			if (a.strip != b.strip || a.strip_off != b.strip_off ||
			    a.chunk_left != b.chunk_left)
				fail_msg("seed 0x%llx: off %llu chunk %llu nstrips %u: got strip %u off %llu left %llu, want %u %llu %llu",
					 (unsigned long long)seed,
					 (unsigned long long)off,
					 (unsigned long long)chunk, ns, a.strip,
					 (unsigned long long)a.strip_off,
					 (unsigned long long)a.chunk_left, b.strip,
					 (unsigned long long)b.strip_off,
					 (unsigned long long)b.chunk_left);
			/* a byte of the file lies within its strip's share */
			assert_true(a.strip_off / chunk <
				    famfs_interleave_strip_chunks(nbytes, chunk, ns,
								  a.strip) ||
				    off >= nbytes);
			cases++;
		}
		for (uint32_t k = 0; k < ns; k++) {
			uint64_t got = famfs_interleave_strip_chunks(nbytes, chunk, ns, k);
			uint64_t want = ref_strip_chunks(nbytes, chunk, ns, k);

			if (got != want)
				fail_msg("seed 0x%llx: nbytes %llu chunk %llu nstrips %u strip %u: %llu chunks, want %llu",
					 (unsigned long long)seed,
					 (unsigned long long)nbytes,
					 (unsigned long long)chunk, ns, k,
					 (unsigned long long)got,
					 (unsigned long long)want);
			cases++;
		}
	}
	print_message("# %llu cases\n", (unsigned long long)cases);
	assert_true(cases > 10000);
}

/* large offsets: no overflow in the O(1) path */
static void test_large_offsets(void **s)
{
	uint64_t chunk = 1ULL << 30, off = (1ULL << 62) + 12345;
	struct famfs_ipos p;

	(void)s;
	p = famfs_interleave_pos(off, chunk, 16);
	assert_int_equal(p.strip, (off / chunk) % 16);
	assert_int_equal(p.strip_off, (off / chunk) / 16 * chunk + off % chunk);
	assert_int_equal(famfs_interleave_strip_chunks(UINT64_MAX, 2 * MiB, 3, 0) +
			 famfs_interleave_strip_chunks(UINT64_MAX, 2 * MiB, 3, 1) +
			 famfs_interleave_strip_chunks(UINT64_MAX, 2 * MiB, 3, 2),
			 (UINT64_MAX - 1) / (2 * MiB) + 1);
}

/*
 * famfs_interleave_strip_off(), the inverse the kernel uses to trace a
 * memory failure in a strip back to the file: every byte of every strip
 * (and a few chunks past what the strip needs) of small geometries, against
 * a table filled by dealing the extent's bytes out chunk by chunk.  Strip
 * bytes that no extent byte lands on (past the strip's chunks, the unused
 * end of the last chunk) must say so: run 0.
 */
static void test_strip_off_inverse(void **s)
{
	enum { MAXB = 16 * 40 * 5 };
	static int64_t at[FAMFS_IOC_MAX_STRIPS][MAXB];
	uint64_t cases = 0;

	(void)s;
	for (uint64_t chunk = 1; chunk <= 4; chunk++)
	for (uint32_t ns = 1; ns <= 5; ns++)
	for (uint64_t nbytes = 1; nbytes <= 40; nbytes++) {
		uint64_t slen = (nbytes / chunk / ns + 3) * chunk;

		for (uint32_t k = 0; k < ns; k++)
			for (uint64_t o = 0; o < slen; o++)
				at[k][o] = -1;
		for (uint64_t x = 0; x < nbytes; x++) {	/* deal the bytes */
			uint64_t c = x / chunk;

			at[c % ns][c / ns * chunk + x % chunk] = (int64_t)x;
		}
		for (uint32_t k = 0; k < ns; k++) {
			for (uint64_t o = 0; o < slen; o++) {
				__u64 run, want_run = 0, got;

				got = famfs_interleave_strip_off(o, chunk, ns, k,
								 nbytes, &run);
				while (o + want_run < slen &&
				       (o + want_run) / chunk == o / chunk &&
				       at[k][o + want_run] >= 0 &&
				       at[k][o + want_run] == at[k][o] +
				       (int64_t)want_run)
					want_run++;
				if (at[k][o] < 0 ? run != 0 || got != nbytes :
				    got != (uint64_t)at[k][o] || run != want_run)
					fail_msg("chunk %llu nstrips %u nbytes %llu: strip %u offset %llu: got %llu run %llu, want %lld run %llu",
						 (unsigned long long)chunk, ns,
						 (unsigned long long)nbytes, k,
						 (unsigned long long)o,
						 (unsigned long long)got,
						 (unsigned long long)run,
						 (long long)at[k][o],
						 (unsigned long long)want_run);
				cases++;
			}
		}
	}
	print_message("# %llu strip bytes\n", (unsigned long long)cases);
	assert_true(cases > 10000);
}

#define KiB (1ULL << 10)

/* the worked example of famfs_interleave.h, and the failures of issue 15 */
static void test_strip_off_examples(void **s)
{
	__u64 run;

	(void)s;
	/* 2 strips, 2 MiB chunks, 3 MiB */
	assert_int_equal(famfs_interleave_strip_off(512 * KiB, 2 * MiB, 2, 1,
						    3 * MiB, &run), 2 * MiB + 512 * KiB);
	assert_int_equal(run, 512 * KiB);
	assert_int_equal(famfs_interleave_strip_off(1 * MiB, 2 * MiB, 2, 1,
						    3 * MiB, &run), 3 * MiB);
	assert_int_equal(run, 0);
	assert_int_equal(famfs_interleave_strip_off(2 * MiB, 2 * MiB, 2, 0,
						    3 * MiB, &run), 3 * MiB);
	assert_int_equal(run, 0);
	/* module_poison unused: E0 (2 x 2M chunks, 4 MiB) strip 0 at 2M+8K
	 * held no byte (once: file 4M+8K, the next extent's); E1 (4M chunks,
	 * 6 MiB) strip 1 at 2M+8K neither (once: 10M+8K) */
	famfs_interleave_strip_off(2 * MiB + 8192, 2 * MiB, 2, 0, 4 * MiB, &run);
	assert_int_equal(run, 0);
	famfs_interleave_strip_off(2 * MiB + 8192, 4 * MiB, 2, 1, 6 * MiB, &run);
	assert_int_equal(run, 0);
	assert_int_equal(famfs_interleave_strip_off(8192, 4 * MiB, 2, 1, 6 * MiB,
						    &run), 4 * MiB + 8192);
	assert_int_equal(run, 2 * MiB - 8192);
	/* huge strips, huge offsets: no overflow */
	famfs_interleave_strip_off(UINT64_MAX - 4095, 2 * MiB, 16, 15, 64 * MiB,
				   &run);
	assert_int_equal(run, 0);
	assert_int_equal(famfs_interleave_strip_off((1ULL << 40) + 5, 1ULL << 30, 16,
						    3, 1ULL << 62, &run),
			 (((1ULL << 10) * 16 + 3) << 30) + 5);
	assert_int_equal(run, (1ULL << 30) - 5);
}

/* ---- the log entry ------------------------------------------------------- */

static const uint8_t FSID[16] = { 9, 8, 7, 6, 5, 4, 3, 2, 1 };
#define DEV (256 * MiB)		/* data from 10 MiB (8 MiB log) */

static void mksb(struct famfs_superblock *sb, bool feature)
{
	static const uint8_t host[16] = { 1 };

	famfs_sb_init(sb, FSID, host, DEV, 8 * MiB);
	if (feature) {
		sb->feature_incompat = htole32(FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
		famfs_sb_set_crc(sb);
	}
}

/* 4 strips of 6 MiB at 20, 40, 60, 80 MiB, 2 MiB chunks: 24 MiB */
static void mkie(struct famfs_log_interleave_ext *ie)
{
	memset(ie, 0, sizeof(*ie));
	ie->nstrips = htole32(4);
	ie->chunk_size = htole64(2 * MiB);
	ie->strip_len = htole64(6 * MiB);
	for (unsigned i = 0; i < 4; i++)
		ie->strip_off[i] = htole64((20 + 20 * i) * MiB);
}

static void seal(struct famfs_log_entry *e)
{
	e->seq = htole64(5);
	memcpy(e->fs_uuid, FSID, 16);
	famfs_entry_set_crc(e);
}

static void mkentry(struct famfs_log_entry *e, uint64_t size,
		    const struct famfs_log_interleave_ext *ie)
{
	assert_int_equal(famfs_entry_build_interleaved(e, "s/f", size, 0640, 3, 4,
						       ie), 0);
	seal(e);
}

static void test_layout(void **s)
{
	(void)s;
	assert_int_equal(sizeof(struct famfs_log_interleave_ext), 152);
	assert_int_equal(offsetof(struct famfs_log_interleave_ext, chunk_size), 8);
	assert_int_equal(offsetof(struct famfs_log_interleave_ext, strip_len), 16);
	assert_int_equal(offsetof(struct famfs_log_interleave_ext, strip_off), 24);
	assert_true(sizeof(struct famfs_log_interleave_ext) <= FAMFS_LOG_EXT_AREA);
	assert_int_equal(sizeof(struct famfs_ioc_iext), FAMFS_IOC_IEXT_SIZE);
	assert_int_equal(sizeof(struct famfs_ioc_map_v2), FAMFS_IOC_MAP_V2_SIZE);
}

static void test_entry_roundtrip(void **s)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	static struct famfs_fmap m;
	char why[FAMFS_REASON_LEN] = "";
	const uint8_t *raw = (const uint8_t *)&e;

	(void)s;
	mksb(&sb, true);
	mkie(&ie);
	mkentry(&e, 24 * MiB, &ie);
	assert_int_equal(famfs_entry_check(&e, 5, &sb, why), 0);
	assert_true(famfs_entry_interleaved(&e));
	assert_int_equal(le16toh(e.fm.extent_type), FAMFS_LOG_EXT_INTERLEAVED);
	assert_int_equal(le16toh(e.fm.nextents), 1);
	/* little-endian at the documented offsets: ext at 64 in the entry */
	assert_int_equal(raw[64], 4);				/* nstrips */
	assert_int_equal(raw[64 + 8 + 2], 0x20);		/* 2 MiB */
	assert_int_equal(le64toh(e.fm.ext.interleave.strip_off[3]), 80 * MiB);
	assert_int_equal(famfs_entry_ranges(&e, r), 4);
	assert_int_equal(r[2].offset, 60 * MiB);
	assert_int_equal(r[2].len, 6 * MiB);
	famfs_fmap_from_entry(&e, &m);
	assert_int_equal(m.extent_type, FAMFS_INTERLEAVED_EXTENT);
	assert_int_equal(m.count, 1);
	assert_int_equal(m.file_size, 24 * MiB);
	assert_int_equal(m.iext[0].nstrips, 4);
	assert_int_equal(m.iext[0].nbytes, 24 * MiB);
	assert_int_equal(m.iext[0].strips[1].offset, 40 * MiB);
	assert_int_equal(m.iext[0].strips[1].len, 6 * MiB);
	assert_int_equal(m.iext[0].strips[4].len, 0);
	/* the v1 map cannot express it */
	{
		struct famfs_ioc_map v1;

		assert_int_equal(famfs_map_from_entry(&e, &v1), -EOVERFLOW);
	}
	/* smaller files fit too: 18 MiB + 1 still needs 3 chunks a strip */
	mkentry(&e, 18 * MiB + 1, &ie);
	assert_int_equal(famfs_entry_check(&e, 5, &sb, why), 0);
	mkentry(&e, 0, &ie);
	assert_int_equal(famfs_entry_check(&e, 5, &sb, why), 0);
}

/* one mutation, CRC fixed, refused with errno and a reason saying why */
static void refused(const struct famfs_superblock *sb,
		    struct famfs_log_entry *e, int err, const char *word)
{
	char why[FAMFS_REASON_LEN] = "";

	seal(e);
	assert_int_equal(famfs_entry_check(e, 5, sb, why), err);
	if (!strstr(why, word))
		fail_msg("reason '%s' does not mention '%s'", why, word);
}

static void test_entry_rejects(void **s)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_superblock sb, nofeat;
	struct famfs_log_entry e;
	struct famfs_log_interleave_ext *x = &e.fm.ext.interleave;

	(void)s;
	mksb(&sb, true);
	mksb(&nofeat, false);
	mkie(&ie);
#define AGAIN() mkentry(&e, 24 * MiB, &ie)
	AGAIN();
	refused(&nofeat, &e, -EPROTONOSUPPORT, "interleave feature");
	AGAIN(); e.fm.nextents = htole16(2);
	refused(&sb, &e, -EINVAL, "count 2");
	AGAIN(); e.fm.nextents = 0;
	refused(&sb, &e, -EINVAL, "count 0");
	AGAIN(); x->reserved = htole32(1);
	refused(&sb, &e, -EINVAL, "reserved");
	AGAIN(); e.fm.ext.raw[sizeof(*x) + 3] = 1;		/* past the struct */
	refused(&sb, &e, -EINVAL, "reserved");
	AGAIN(); x->nstrips = 0;
	refused(&sb, &e, -EINVAL, "strip count 0");
	AGAIN(); x->nstrips = htole32(17);
	refused(&sb, &e, -EINVAL, "strip count 17");
	AGAIN(); x->strip_off[4] = htole64(100 * MiB);		/* unused slot */
	refused(&sb, &e, -EINVAL, "unused strip slot 4");
	AGAIN(); x->strip_off[15] = htole64(1);
	refused(&sb, &e, -EINVAL, "unused strip slot 15");
	AGAIN(); x->chunk_size = 0;
	refused(&sb, &e, -EINVAL, "chunk size");
	AGAIN(); x->chunk_size = htole64(3 * MiB);
	refused(&sb, &e, -EINVAL, "chunk size");
	AGAIN(); x->chunk_size = htole64(4096);
	refused(&sb, &e, -EINVAL, "chunk size");
	AGAIN(); x->strip_len = 0;
	refused(&sb, &e, -EINVAL, "strip length");
	AGAIN(); x->chunk_size = htole64(4 * MiB);		/* 6 MiB strips */
	refused(&sb, &e, -EINVAL, "strip length");
	AGAIN(); x->strip_off[1] = htole64(40 * MiB + 4096);
	refused(&sb, &e, -EINVAL, "not 2 MiB aligned");
	AGAIN(); x->strip_off[2] = htole64(4 * MiB);		/* in the log */
	refused(&sb, &e, -EINVAL, "superblock or log");
	AGAIN(); x->strip_off[0] = 0;				/* superblock */
	refused(&sb, &e, -EINVAL, "superblock or log");
	AGAIN(); x->strip_off[3] = htole64(DEV - 4 * MiB);	/* past the end */
	refused(&sb, &e, -EINVAL, "outside the device");
	AGAIN(); x->strip_off[3] = htole64(DEV);
	refused(&sb, &e, -EINVAL, "outside the device");
	AGAIN(); x->strip_off[3] = htole64(UINT64_MAX - 2 * MiB + 1); /* wraps */
	refused(&sb, &e, -EINVAL, "");
	AGAIN(); x->strip_len = htole64(UINT64_MAX - 2 * MiB + 1);
	x->chunk_size = htole64(2 * MiB);
	refused(&sb, &e, -EINVAL, "");
	AGAIN(); x->strip_off[2] = htole64(44 * MiB);		/* in strip 1 */
	refused(&sb, &e, -EINVAL, "strips 1 and 2 overlap");
	AGAIN(); x->strip_off[3] = htole64(20 * MiB);		/* = strip 0 */
	refused(&sb, &e, -EINVAL, "overlap");
	mkentry(&e, 24 * MiB + 1, &ie);				/* too big */
	refused(&sb, &e, -EINVAL, "smaller than the file");
	mkentry(&e, UINT64_MAX, &ie);
	refused(&sb, &e, -EINVAL, "smaller than the file");
	AGAIN(); e.fm.extent_type = htole16(7);
	refused(&sb, &e, -EPROTONOSUPPORT, "extent type 7");
	/* a bit flip without a new CRC is a CRC error first */
	AGAIN();
	x->strip_len ^= htole64(1);
	{
		char why[FAMFS_REASON_LEN];

		assert_int_equal(famfs_entry_check(&e, 5, &sb, why), -EBADMSG);
	}
#undef AGAIN
}

static void test_build_rejects(void **s)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_log_entry e;

	(void)s;
	famfs_quiet = 1;
	mkie(&ie);
	ie.nstrips = htole32(17);
	assert_int_equal(famfs_entry_build_interleaved(&e, "f", 1, 0644, 0, 0, &ie),
			 -EINVAL);
	ie.nstrips = 0;
	assert_int_equal(famfs_entry_build_interleaved(&e, "f", 1, 0644, 0, 0, &ie),
			 -EINVAL);
	mkie(&ie);
	assert_int_equal(famfs_entry_build_interleaved(&e, "../f", 1, 0644, 0, 0, &ie),
			 -EINVAL);
}

static uint64_t boundary(void)
{
	static const uint64_t v[] = { 0, 1, 2 * MiB - 1, 2 * MiB, 2 * MiB + 1,
		4 * MiB, 6 * MiB, 10 * MiB, DEV - 2 * MiB, DEV, DEV + 2 * MiB,
		1ULL << 32, 1ULL << 63, UINT64_MAX - 2 * MiB + 1, UINT64_MAX };

	return rnd64() % 4 ? v[rnd64() % (sizeof(v) / sizeof(v[0]))] :
			     (rnd64() % 128) * 2 * MiB;
}

/* what an accepted interleaved entry must obey, checked on its own */
static void obeys_rules(const struct famfs_log_entry *e)
{
	const struct famfs_log_interleave_ext *x = &e->fm.ext.interleave;
	uint32_t ns = le32toh(x->nstrips);
	uint64_t chunk = le64toh(x->chunk_size), slen = le64toh(x->strip_len);
	unsigned __int128 total = (unsigned __int128)ns * slen;

	assert_int_equal(le16toh(e->fm.nextents), 1);
	assert_int_equal(x->reserved, 0);
	assert_true(ns >= 1 && ns <= 16);
	assert_true(chunk && chunk % (2 * MiB) == 0);
	assert_true(slen && slen % chunk == 0);
	assert_true(total >= le64toh(e->fm.size));
	for (unsigned i = 0; i < 16; i++) {
		uint64_t o = le64toh(x->strip_off[i]);

		if (i >= ns) {
			assert_int_equal(o, 0);
			continue;
		}
		assert_int_equal(o % (2 * MiB), 0);
		assert_true(o >= 10 * MiB && o <= DEV && slen <= DEV - o);
		for (unsigned j = 0; j < i; j++) {
			uint64_t p = le64toh(x->strip_off[j]);

			assert_true(o + slen <= p || p + slen <= o);
		}
	}
	for (size_t i = sizeof(*x); i < sizeof(e->fm.ext); i++)
		assert_int_equal(e->fm.ext.raw[i], 0);
}

/* 30000 entries with one or two fields set to boundary values, CRC fixed:
 * every accepted one obeys the rules */
static void test_entry_mutations(void **s)
{
	struct famfs_log_interleave_ext ie;
	struct famfs_superblock sb;
	unsigned accepted = 0;

	(void)s;
	rs = 0x17e5ULL;
	mksb(&sb, true);
	mkie(&ie);
	for (int it = 0; it < 30000; it++) {
		struct famfs_log_entry e;
		struct famfs_log_interleave_ext *x = &e.fm.ext.interleave;
		char why[FAMFS_REASON_LEN];

		mkentry(&e, 24 * MiB, &ie);
		for (int m = 0; m < 1 + (int)(rnd64() % 2); m++) {
			switch (rnd64() % 8) {
			case 0: x->nstrips = htole32((uint32_t)(rnd64() % 20)); break;
			case 1: x->chunk_size = htole64(boundary()); break;
			case 2: x->strip_len = htole64(boundary()); break;
			case 3: x->strip_off[rnd64() % 16] = htole64(boundary()); break;
			case 4: e.fm.size = htole64(boundary()); break;
			case 5: e.fm.nextents = htole16((uint16_t)(rnd64() % 3)); break;
			case 6: x->reserved = htole32((uint32_t)(rnd64() % 2)); break;
			default: e.fm.ext.raw[sizeof(*x) + rnd64() % 104] = 1; break;
			}
		}
		seal(&e);
		if (famfs_entry_check(&e, 5, &sb, why) == 0) {
			accepted++;
			obeys_rules(&e);
		} else {
			assert_true(why[0] != '\0');
		}
	}
	print_message("# %u of 30000 mutated entries accepted, each obeying the rules\n",
		      accepted);
	assert_true(accepted > 100);
}

/* a simple entry's ranges are its extents */
static void test_simple_ranges(void **s)
{
	struct famfs_log_simple_ext x[2] = { { htole64(10 * MiB), htole64(2 * MiB) },
					     { htole64(30 * MiB), htole64(4 * MiB) } };
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry e;

	(void)s;
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "f", 5 * MiB, 0644,
					   0, 0, x, 2), 0);
	assert_false(famfs_entry_interleaved(&e));
	assert_int_equal(famfs_entry_ranges(&e, r), 2);
	assert_int_equal(r[1].offset, 30 * MiB);
	assert_int_equal(r[1].len, 4 * MiB);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "d", 0, 0755, 0, 0,
					   NULL, 0), 0);
	assert_int_equal(famfs_entry_ranges(&e, r), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_examples),
		cmocka_unit_test(test_random_vs_reference),
		cmocka_unit_test(test_large_offsets),
		cmocka_unit_test(test_strip_off_inverse),
		cmocka_unit_test(test_strip_off_examples),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_entry_roundtrip),
		cmocka_unit_test(test_entry_rejects),
		cmocka_unit_test(test_build_rejects),
		cmocka_unit_test(test_entry_mutations),
		cmocka_unit_test(test_simple_ranges),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
