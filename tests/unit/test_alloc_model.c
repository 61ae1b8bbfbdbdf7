// SPDX-License-Identifier: GPL-2.0
/* The allocator's index of free runs against a naive model: random marks,
 * frees and allocations (one run, several extents, strips) on devices of
 * odd sizes; after every step the bitmap, the free count and the count of
 * wholly free aligned GiBs, and after every fifth (the index's upkeep is
 * deferred: it must hold across steps) every node of the index, both views,
 * must equal what the model says, and the run taken must be the model's:
 * first fit, unless that breaks a wholly free aligned GiB while the free
 * units outside such GiBs hold a run (issue 31): then their first fit. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "th.h"

static const uint8_t uuid_a[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static uint64_t rs = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

struct model {
	uint64_t n;
	bool used[8192];
	bool whole[8192 / 512];	/* model_refresh() */
};

#define AL FAMFS_BM_KEEP_UNITS

/* which aligned GiBs of the model are wholly free, after a change */
static void model_refresh(struct model *m)
{
	for (uint64_t g = 0; g < 8192 / AL; g++) {
		m->whole[g] = (g + 1) * AL <= m->n;
		for (uint64_t k = g * AL; m->whole[g] && k < (g + 1) * AL; k++)
			if (m->used[k])
				m->whole[g] = false;
	}
}

/* unit u of the model lies in a wholly free aligned GiB */
static bool model_in_whole(const struct model *m, uint64_t u)
{
	return u < m->n && m->whole[u / AL];
}

/* pre, suf, best of the model's units [lo, lo + span) (past n: used);
 * keep: units of wholly free aligned GiBs count as used */
static struct famfs_bm_runs model_runs(const struct model *m, uint64_t lo,
				       uint64_t span, bool keep)
{
	struct famfs_bm_runs r = { 0, 0, 0 };
	uint64_t run = 0;
	bool head = true;

	for (uint64_t u = lo; u < lo + span; u++) {
		bool f = u < m->n && !m->used[u] &&
			 !(keep && model_in_whole(m, u));

		if (f) {
			run++;
			if (run > r.best)
				r.best = run;
			if (head)
				r.pre++;
		} else {
			run = 0;
			head = false;
		}
	}
	r.suf = run;
	return r;
}

static struct famfs_bm_node model_node(const struct model *m, uint64_t lo,
				       uint64_t span)
{
	return (struct famfs_bm_node){ { model_runs(m, lo, span, false),
					 model_runs(m, lo, span, true) } };
}

/* first fit (keep: among the units outside wholly free aligned GiBs) */
static uint64_t model_first_fit1(const struct model *m, uint64_t want,
				 bool keep)
{
	uint64_t run = 0;

	for (uint64_t u = 0; u < m->n; u++) {
		run = m->used[u] || (keep && model_in_whole(m, u)) ? 0 : run + 1;
		if (run == want)
			return u + 1 - want;
	}
	return UINT64_MAX;
}

/* where the allocator must put a run of want units */
static uint64_t model_first_fit(struct model *m, uint64_t want)
{
	uint64_t ff, kf;

	model_refresh(m);
	ff = model_first_fit1(m, want, false);
	if (ff == UINT64_MAX)
		return ff;
	for (uint64_t u = ff; u < ff + want; u++)
		if (model_in_whole(m, u)) {
			kf = model_first_fit1(m, want, true);
			return kf == UINT64_MAX ? ff : kf;
		}
	return ff;
}

static uint64_t model_whole(const struct model *m)
{
	uint64_t n = 0;

	for (uint64_t g = 0; g < 8192 / AL; g++)
		n += m->whole[g];
	return n;
}

static void model_take(struct model *m, uint64_t off, uint64_t len)
{
	uint64_t u = off / (2 * MiB), n = len / (2 * MiB);

	assert_true(off % (2 * MiB) == 0 && len % (2 * MiB) == 0 && n);
	assert_true(u + n <= m->n);
	for (uint64_t i = u; i < u + n; i++) {
		if (m->used[i])
			fail_msg("unit %llu given twice", (unsigned long long)i);
		m->used[i] = true;
	}
}

static void compare(struct famfs_bitmap *b, struct model *m,
		    unsigned step)
{
	uint64_t nfree = 0;

	model_refresh(m);
	for (uint64_t u = 0; u < m->n; u++) {
		nfree += !m->used[u];
		if (famfs_bitmap_test(b, u) != m->used[u])
			fail_msg("step %u: unit %llu: bitmap %d, model %d", step,
				 (unsigned long long)u, famfs_bitmap_test(b, u),
				 m->used[u]);
	}
	if (b->nfree != nfree)
		fail_msg("step %u: nfree %llu, model %llu", step,
			 (unsigned long long)b->nfree, (unsigned long long)nfree);
	if (b->nwhole != model_whole(m))
		fail_msg("step %u: nwhole %llu, model %llu", step,
			 (unsigned long long)b->nwhole,
			 (unsigned long long)model_whole(m));
	if (!b->tree || step % 5)
		return;
	famfs_bitmap_index_sync(b);
	for (uint64_t i = 1, span = b->nleaves * 64; i < 2 * b->nleaves; i++) {
		uint64_t depth = 63 - (uint64_t)__builtin_clzll(i);
		uint64_t sp = span >> depth, lo = (i - (1ULL << depth)) * sp;
		struct famfs_bm_node want = model_node(m, lo, sp);

		for (unsigned v = 0; v < 2; v++)
			if (memcmp(&want.r[v], &b->tree[i].r[v], sizeof(want.r[v])))
				fail_msg("step %u: index node %llu [%llu, +%llu) view %u: pre %llu suf %llu best %llu, model %llu %llu %llu",
					 step, (unsigned long long)i,
					 (unsigned long long)lo, (unsigned long long)sp, v,
					 (unsigned long long)b->tree[i].r[v].pre,
					 (unsigned long long)b->tree[i].r[v].suf,
					 (unsigned long long)b->tree[i].r[v].best,
					 (unsigned long long)want.r[v].pre,
					 (unsigned long long)want.r[v].suf,
					 (unsigned long long)want.r[v].best);
	}
}

/* noindex: the search a process does before it builds the index (its
 * budget of words reset before every step), all along */
static void one_device(uint64_t units, unsigned steps, bool noindex)
{
	struct famfs_superblock sb;
	struct famfs_bitmap b;
	struct model *m = calloc(1, sizeof(*m));
	uint64_t reserved;

	assert_non_null(m);
	assert_true(units <= 8192);
	famfs_sb_init(&sb, uuid_a, uuid_a, units * 2 * MiB, 2 * MiB);
	assert_int_equal(famfs_bitmap_init(&b, &sb), 0);
	m->n = units;
	reserved = famfs_data_start(&sb) / (2 * MiB);
	for (uint64_t u = 0; u < reserved && u < units; u++)
		m->used[u] = true;
	compare(&b, m, 0);
	for (unsigned step = 1; step <= steps; step++) {
		uint64_t r = rnd() % 100, u = rnd() % (units + 3);

		/* (strips: several searches in one step) */
		if (noindex) {
			b.scanned = 0;
			r = r < 90 ? r : r - 20;
		}

		if (r < 25) {		/* a unit freed (not a reserved one) */
			if (u >= reserved) {
				famfs_bitmap_clear(&b, u);
				if (u < units)
					m->used[u] = false;
			}
		} else if (r < 40) {	/* a unit marked */
			famfs_bitmap_set(&b, u);
			if (u < units)
				m->used[u] = true;
		} else if (r < 50) {	/* a range freed, as a failed create */
			uint64_t n = 1 + rnd() % 200;

			for (uint64_t i = u; i < u + n && i < units; i++)
				if (i >= reserved) {
					famfs_bitmap_clear(&b, i);
					m->used[i] = false;
				}
		} else if (r < 60) {	/* an entry's extents marked */
			struct famfs_log_entry e;
			struct famfs_log_simple_ext x[2];
			uint64_t n = 1 + rnd() % 150;

			x[0].offset = htole64(u * 2 * MiB);
			x[0].len = htole64(n * 2 * MiB);
			x[1].offset = htole64(((u + n + rnd() % 70) % (units + 5)) * 2 * MiB);
			x[1].len = htole64((1 + rnd() % 3) * 2 * MiB);
			assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "f",
							   1, 0644, 0, 0, x, 2), 0);
			famfs_bitmap_mark(&b, &e);
			for (unsigned k = 0; k < 2; k++)
				for (uint64_t i = le64toh(x[k].offset) / (2 * MiB),
				     j = le64toh(x[k].len) / (2 * MiB); j && i < units;
				     i++, j--)
					m->used[i] = true;
		} else if (r < 80) {	/* one run */
			struct famfs_log_simple_ext x;
			uint64_t want = 1 + (rnd() % 4 ? rnd() % 70 : rnd() % 600);
			uint64_t ff = model_first_fit(m, want);
			int rc = famfs_alloc(&b, want * 2 * MiB - rnd() % 1000, &x);

			if (ff == UINT64_MAX) {
				if (rc != -ENOSPC)
					fail_msg("step %u: %llu units allocated, the model has no run", step,
						 (unsigned long long)want);
			} else {
				if (rc || le64toh(x.offset) != ff * 2 * MiB)
					fail_msg("step %u: a run of %llu: rc %d at unit %llu, model %llu",
						 step, (unsigned long long)want, rc,
						 (unsigned long long)(le64toh(x.offset) / (2 * MiB)),
						 (unsigned long long)ff);
				model_take(m, le64toh(x.offset), le64toh(x.len));
			}
		} else if (r < 90) {	/* several extents */
			struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
			unsigned max = 1 + (unsigned)(rnd() % 16), n = 0;
			uint64_t want = 1 + rnd() % 300, sum = 0;
			int rc = famfs_alloc_extents(&b, want * 2 * MiB, max, x, &n);

			if (!rc) {
				assert_true(n >= 1 && n <= max);
				for (unsigned k = 0; k < n; k++) {
					model_take(m, le64toh(x[k].offset),
						   le64toh(x[k].len));
					sum += le64toh(x[k].len) / (2 * MiB);
				}
				assert_int_equal(sum, want);
			} else {
				assert_int_equal(rc, -ENOSPC);
			}
		} else {		/* strips */
			struct famfs_log_interleave_ext ie;
			uint32_t ns = 1 + (uint32_t)(rnd() % 16);
			uint64_t chunk = (1 + rnd() % 3) * 2 * MiB;
			int rc = famfs_alloc_strips(&b, (rnd() % 200) * 2 * MiB,
						    ns, chunk, &ie);

			if (!rc)
				for (uint32_t k = 0; k < ns; k++)
					model_take(m, le64toh(ie.strip_off[k]),
						   le64toh(ie.strip_len));
			else
				assert_int_equal(rc, -ENOSPC);
		}
		compare(&b, m, step);
	}
	/* the index was built and checked, and allocations happened */
	if (noindex)
		assert_null(b.tree);
	else if (units > 8)
		assert_non_null(b.tree);
	print_message("%llu units: %llu free at the end\n",
		      (unsigned long long)units, (unsigned long long)b.nfree);
	famfs_bitmap_free(&b);
	free(m);
}

static void test_index_matches_model(void **state)
{
	static const uint64_t sizes[] = { 2, 3, 5, 63, 64, 65, 127, 129, 200,
					  1000, 1024, 1500, 4095, 4097, 8192 };

	(void)state;
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		one_device(sizes[i], sizes[i] > 2000 ? 1500 : 4000, false);
}

static void test_scan_matches_model(void **state)
{
	static const uint64_t sizes[] = { 3, 64, 65, 129, 1000, 4097 };

	(void)state;
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		one_device(sizes[i], 3000, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_index_matches_model),
		cmocka_unit_test(test_scan_matches_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
