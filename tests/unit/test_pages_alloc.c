// SPDX-License-Identifier: GPL-2.0
/*
 * Small files (issue 30, tool steps 2-4): a file below the threshold
 * (FAMFS_SMALL_MAX, or the layout's small_max) gets page extents inside a
 * shared 2 MiB unit, the small-file bit set before its entry; a large file
 * never lands in a shared unit; only the new file's own pages are written
 * (through a scratch map of those pages alone); the module gets a page map
 * (MAP_CREATE_V3 + FAMFS_IOC_MAP_PAGES) and the tool reads it back; a new
 * process (the master's summary, or the log) knows every shared unit's
 * pages, and the summary's page state is checked like the rest of it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"

#define PG	FAMFS_PAGE
#define UNIT	FAMFS_ALLOC_UNIT

static bool compact;

static struct th *pnew(void)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, compact);

	assert_non_null(t);
	return t;
}

/* the entry of the last append */
static void last_entry(struct th *t, struct famfs_log_entry *e)
{
	assert_int_equal(famfs_log_entry_at(&t->fs, t->fs.last_append, e), 0);
}

static bool small_bit(struct th *t)
{
	return le32toh(t->fs.sb->feature_incompat) &
	       FAMFS_FEATURE_INCOMPAT_SMALL_FILES;
}

/* every page extent and every unit of a large file in the log: no page
 * in two files, no large file in a unit that holds a page extent */
struct own {
	uint64_t off[4096], len[4096];
	bool page[4096];
	unsigned n;
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct own *o = arg;
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	unsigned nr;

	(void)idx;
	(void)reason;
	if (!ok || le16toh(e->type) != FAMFS_LOG_FILE)
		return 0;
	nr = famfs_entry_ranges(e, r);
	for (unsigned i = 0; i < nr && o->n < 4096; i++) {
		o->off[o->n] = r[i].offset;
		o->len[o->n] = r[i].len;
		o->page[o->n++] = famfs_entry_pages(e);
	}
	return 0;
}

static void no_sharing(struct th *t)
{
	struct own *o = calloc(1, sizeof(*o));

	assert_non_null(o);
	assert_int_equal(famfs_log_walk(&t->fs, collect, o), 0);
	for (unsigned i = 0; i < o->n; i++)
		for (unsigned j = 0; j < i; j++) {
			uint64_t a = o->off[i], al = o->len[i];
			uint64_t b = o->off[j], bl = o->len[j];

			/* a large file claims whole units */
			if (!o->page[i]) {
				a = a / UNIT * UNIT;
				al = (al + UNIT - 1) / UNIT * UNIT;
			}
			if (!o->page[j]) {
				b = b / UNIT * UNIT;
				bl = (bl + UNIT - 1) / UNIT * UNIT;
			}
			if (o->page[i] != o->page[j]) {	/* whole units */
				al = (a % UNIT + al + UNIT - 1) / UNIT * UNIT;
				a = a / UNIT * UNIT;
				bl = (b % UNIT + bl + UNIT - 1) / UNIT * UNIT;
				b = b / UNIT * UNIT;
			}
			if (a < b + bl && b < a + al)
				fail_msg("extents [%llu,+%llu) and [%llu,+%llu) overlap",
					 (unsigned long long)o->off[i],
					 (unsigned long long)o->len[i],
					 (unsigned long long)o->off[j],
					 (unsigned long long)o->len[j]);
		}
	free(o);
}

static void test_small_create(void **s)
{
	struct th *t = pnew();
	struct famfs_log_entry e;
	struct famfs_fmap m;
	char p[PATH_MAX];
	uint64_t unit_a;

	(void)s;
	th_create_ok(&t->fs, "big0", 3 * MiB);
	assert_false(small_bit(t));	/* large files alone: no bit */
	th_create_ok(&t->fs, "a", 100);
	assert_true(small_bit(t));	/* set before its entry */
	last_entry(t, &e);
	assert_true(famfs_entry_pages(&e));
	assert_int_equal(le16toh(e.fm.nextents), 1);
	assert_int_equal(le64toh(e.fm.ext.simple[0].len), PG);
	unit_a = le64toh(e.fm.ext.simple[0].offset) / UNIT;
	/* the module got a page map */
	snprintf(p, sizeof(p), "%s/a", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_true(m.pages);
	assert_int_equal(m.file_size, 100);
	/* and the tool reads it back through MAP_GET_V3 */
	{
		struct famfs_fmap back;
		int fd = open(p, O_RDONLY);

		assert_true(fd >= 0);
		th_mock_v2_gets = 0;
		assert_int_equal(famfs_fmap_get(fd, &back), 0);
		close(fd);
		/* never v2 first: famfs.ko logs its refusal of a page map */
		assert_int_equal(th_mock_v2_gets, 0);
		assert_true(back.pages);
		assert_true(famfs_fmap_equal(&back, &m));
	}
	th_create_ok(&t->fs, "b", 5000);		/* 2 pages, same unit */
	last_entry(t, &e);
	assert_true(famfs_entry_pages(&e));
	assert_int_equal(le64toh(e.fm.ext.simple[0].len), 2 * PG);
	assert_int_equal(le64toh(e.fm.ext.simple[0].offset) / UNIT, unit_a);
	th_create_ok(&t->fs, "big", 3 * MiB);	/* never in a shared unit */
	last_entry(t, &e);
	assert_false(famfs_entry_pages(&e));
	th_create_ok(&t->fs, "c", 1 * MiB + 1);	/* 257 pages */
	last_entry(t, &e);
	assert_true(famfs_entry_pages(&e));
	th_create_ok(&t->fs, "d", 2 * MiB - 1);	/* 512 pages: units */
	last_entry(t, &e);
	assert_false(famfs_entry_pages(&e));
	th_create_ok(&t->fs, "z", 0);		/* one page */
	last_entry(t, &e);
	assert_true(famfs_entry_pages(&e));
	no_sharing(t);
	th_free(t);
}

/* the threshold: lower, or none */
static void test_small_max(void **s)
{
	struct th *t = pnew();
	struct famfs_layout lay = { 0 };
	struct famfs_log_entry e;
	int fd;

	(void)s;
	lay.small_max = 8192;
	fd = famfs_file_create_layout(&t->fs, "x", 10000, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	last_entry(t, &e);
	assert_false(famfs_entry_pages(&e));
	assert_false(small_bit(t));
	fd = famfs_file_create_layout(&t->fs, "y", 5000, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	last_entry(t, &e);
	assert_true(famfs_entry_pages(&e));
	lay.small_max = FAMFS_SMALL_NONE;
	fd = famfs_file_create_layout(&t->fs, "w", 10, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	last_entry(t, &e);
	assert_false(famfs_entry_pages(&e));
	/* an interleaved file is never small */
	lay.small_max = 0;
	lay.nstrips = 2;
	lay.chunk = 2 * MiB;
	fd = famfs_file_create_layout(&t->fs, "v", 10, 0644, 0, 0, &lay);
	assert_true(fd >= 0);
	close(fd);
	last_entry(t, &e);
	assert_false(famfs_entry_pages(&e));
	no_sharing(t);
	th_free(t);
}

/* only the new file's pages are written: the map they are written through
 * is its pages -- a scratch file's (.meta/.new-PID), or the file's own
 * when its mapping reaches all its memory (famfs_fill_through_file: a
 * small file's always does, so it has no scratch file) */
static struct famfs_fmap scratch[8];
static unsigned nscratch, nscratch_files;

static void record_scratch(int fd, const struct famfs_fmap *m)
{
	char l[64], path[PATH_MAX];
	ssize_t n;
	bool sf;

	snprintf(l, sizeof(l), "/proc/self/fd/%d", fd);
	n = readlink(l, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	sf = strstr(path, "/.meta/.new-");
	nscratch_files += sf;
	if ((sf || famfs_fill_through_file(m)) && nscratch < 8)
		scratch[nscratch++] = *m;
}

static void test_zero_only_new(void **s)
{
	struct th *t = pnew();

	(void)s;
	nscratch = nscratch_files = 0;
	th_mock_before_create = record_scratch;
	th_create_ok(&t->fs, "a", 100);
	th_create_ok(&t->fs, "b", 3 * PG + 1);
	th_mock_before_create = NULL;
	assert_int_equal(nscratch_files, 0);
	assert_int_equal(nscratch, 2);
	assert_true(scratch[0].pages);
	/* what the map reaches: its pages up to EOF's */
	assert_int_equal((scratch[0].file_size + PG - 1) / PG * PG, PG);
	assert_int_equal(famfs_fmap_alloc_bytes(&scratch[0]), PG);
	assert_true(scratch[1].pages);
	assert_int_equal(famfs_fmap_alloc_bytes(&scratch[1]), 4 * PG);
	th_free(t);
}

/* the page state of a cache equals one built from the whole log */
static void pages_are_rebuild(struct th *t)
{
	struct famfs_alloc a;
	struct famfs_pagealloc_stats x, y;
	const struct famfs_pagealloc *c;

	assert_non_null(t->fs.cache_alloc);
	assert_int_equal(famfs_alloc_build(&t->fs, &a), 0);
	assert_non_null(a.pa[0]);
	c = t->fs.cache_alloc->pa[0];
	assert_non_null(c);
	famfs_pagealloc_stats(a.pa[0], &x);
	famfs_pagealloc_stats(c, &y);
	assert_int_equal(x.shared, y.shared);
	assert_int_equal(x.pages_used, y.pages_used);
	for (uint64_t u = 0; u < a.dev[0].nunits; u++) {
		assert_int_equal(famfs_pagealloc_shared(a.pa[0], u),
				 famfs_pagealloc_shared(c, u));
		if (!famfs_pagealloc_shared(c, u))
			continue;
		for (uint64_t off = u * UNIT; off < (u + 1) * UNIT; off += PG)
			assert_int_equal(famfs_pagealloc_test(a.pa[0], off),
					 famfs_pagealloc_test(c, off));
	}
	assert_int_equal(a.dev[0].nfree, t->fs.cache_alloc->dev[0].nfree);
	famfs_alloc_free(&a);
}

static void populate(struct th *t)
{
	th_create_ok(&t->fs, "s1", 100);
	th_create_ok(&t->fs, "big", 3 * MiB);
	th_create_ok(&t->fs, "s2", 9000);
	th_create_ok(&t->fs, "s3", 700 * 1024);
	assert_int_equal(th_reopen(t), 0);	/* the summary written */
}

/* a new process: the summary's pages, then more small files */
static void after(struct th *t, unsigned long rebuilds)
{
	assert_int_equal(th_reopen(t), 0);
	memset(&famfs_summary_stats, 0, sizeof(famfs_summary_stats));
	th_create_ok(&t->fs, "n1", 100);
	th_create_ok(&t->fs, "n2", 20000);
	assert_int_equal(famfs_summary_stats.rebuilds, rebuilds);
	pages_are_rebuild(t);
	no_sharing(t);
}

static void test_new_process(void **s)
{
	struct th *t = pnew();

	(void)s;
	populate(t);
	after(t, 0);
	th_free(t);
}

static void sum_path(struct th *t, char *p)
{
	assert_int_equal(famfs_summary_path(t->fs.sb->fs_uuid, p, PATH_MAX), 0);
}

/* a bit flipped in the summary's page state, or the file cut there: not
 * trusted, rebuilt from the log */
static void test_summary_damage(void **s)
{
	char p[PATH_MAX];
	struct stat st;
	off_t size;

	(void)s;
	{
		struct th *t = pnew();

		populate(t);
		sum_path(t, p);
		assert_int_equal(stat(p, &st), 0);
		size = st.st_size;
		th_free(t);
	}
	/* the page state is at the end: count, CRC, one unit (16 + 80 bytes) */
	for (off_t off = size - 96; off < size; off += 3) {
		struct th *t = pnew();
		uint8_t c;
		int fd;

		populate(t);
		sum_path(t, p);
		fd = open(p, O_RDWR);
		assert_true(fd >= 0);
		assert_int_equal(pread(fd, &c, 1, off), 1);
		c ^= (uint8_t)(1u << (off % 8));
		assert_int_equal(pwrite(fd, &c, 1, off), 1);
		close(fd);
		after(t, 1);
		th_free(t);
	}
	{
		struct th *t = pnew();

		populate(t);
		sum_path(t, p);
		assert_int_equal(truncate(p, size - 1), 0);
		after(t, 1);
		th_free(t);
	}
}

/* a process that loads the summary knows a sealed unit (a large file's
 * extent replayed over a shared unit: test_large_after_small) as sealed:
 * a small file's page given back there stays used, as it does in a cache
 * rebuilt from the log.  The flag was not saved: the loaded unit had all
 * its pages used but was no longer sealed, so the page given back was the
 * next small file's, inside the large file. */
static void test_sealed_in_summary(void **s)
{
	struct th *t = pnew();
	struct famfs_log_entry e;
	struct famfs_alloc a;
	uint64_t off, got, u;
	char why[FAMFS_REASON_LEN];

	(void)s;
	th_create_ok(&t->fs, "s1", 100);
	last_entry(t, &e);
	off = le64toh(e.fm.ext.simple[0].offset);
	u = off / UNIT;
	/* a diverged log: a large file over the shared unit */
	th_append_file(t, "large", u * UNIT, UNIT, UNIT);
	assert_int_equal(th_reopen(t), 0);
	/* a process replays it over the summary's pages: sealed; saved */
	th_create_ok(&t->fs, "s2", 100);
	last_entry(t, &e);
	assert_int_not_equal(le64toh(e.fm.ext.simple[0].offset) / UNIT, u);
	assert_int_equal(th_reopen(t), 0);
	/* the next process: from the summary, nothing rebuilt */
	memset(&famfs_summary_stats, 0, sizeof(famfs_summary_stats));
	th_create_ok(&t->fs, "s3", 100);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	assert_non_null(t->fs.cache_alloc);
	assert_non_null(t->fs.cache_alloc->pa[0]);
	/* s1's page given back (what a reclaim would do): the unit is the
	 * large file's as well, the page stays used, as in a rebuild */
	assert_int_equal(famfs_alloc_build(&t->fs, &a), 0);
	assert_int_equal(famfs_pagealloc_give(a.pa[0], off, PG, NULL), 0);
	assert_true(famfs_pagealloc_test(a.pa[0], off));
	famfs_alloc_free(&a);
	assert_int_equal(famfs_pagealloc_give(t->fs.cache_alloc->pa[0], off,
					      PG, NULL), 0);
	assert_true(famfs_pagealloc_test(t->fs.cache_alloc->pa[0], off));
	assert_int_equal(famfs_pagealloc_take(t->fs.cache_alloc->pa[0], 1,
					      &got, why), 0);
	assert_int_not_equal(got / UNIT, u);
	assert_true(famfs_bitmap_test(&t->fs.cache_alloc->dev[0], u));
	famfs_pagealloc_give(t->fs.cache_alloc->pa[0], got, PG, NULL);
	th_free(t);
}

/* a summary of version 4 (its page records have no flags: a sealed unit
 * cannot be told) is not read: rebuilt from the log */
static void test_summary_v4_rebuilt(void **s)
{
	struct th *t = pnew();
	char p[PATH_MAX];
	uint32_t v;
	int fd;

	(void)s;
	populate(t);
	sum_path(t, p);
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &v, 4, 8), 4);	/* magic, version */
	assert_int_equal(v, 5);
	v = 4;
	assert_int_equal(pwrite(fd, &v, 4, 8), 4);
	close(fd);
	after(t, 1);
	th_free(t);
}

/* several devices: a small file on any member (--device), each device's
 * pages of its own */
static void test_members(void **s)
{
	struct famfs_superblock sb;
	struct famfs_alloc a;
	struct famfs_place pl = { 0 };
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT];
	char why[FAMFS_REASON_LEN];
	unsigned n;

	(void)s;
	famfs_sb_init(&sb, (const uint8_t *)"0123456789abcdef",
		      (const uint8_t *)"fedcba9876543210", 64 * MiB, 8 * MiB);
	assert_int_equal(famfs_alloc_init(&a, &sb), 0);
	assert_int_equal(famfs_alloc_add_dev(&a, 1, UNIT, 256 * MiB), 0);
	pl.has_dev = true;
	pl.dev = 1;
	assert_int_equal(famfs_alloc_place_pages(&a, &pl, 3 * PG, x, &n, devs,
						 why), 0);
	assert_int_equal(n, 1);
	assert_int_equal(devs[0], 1);
	assert_true(le64toh(x[0].offset) >= UNIT);
	assert_non_null(a.pa[1]);
	assert_true(famfs_pagealloc_test(a.pa[1], le64toh(x[0].offset)));
	/* no device asked for: the one with the most free units (1) */
	pl.has_dev = false;
	assert_int_equal(famfs_alloc_place_pages(&a, &pl, PG, x, &n, devs,
						 why), 0);
	assert_int_equal(devs[0], 1);
	/* the log's entry marks the member's pages */
	{
		struct famfs_alloc b;
		struct famfs_log_entry e;

		assert_int_equal(famfs_alloc_init(&b, &sb), 0);
		assert_int_equal(famfs_alloc_add_dev(&b, 1, UNIT, 256 * MiB), 0);
		assert_int_equal(famfs_entry_build_pages(&e, "f", PG, 0644, 0, 0,
							 x, 1), 0);
		e.fm.reserved[0] = 1;
		famfs_alloc_mark(&b, &e);
		assert_non_null(b.pa[1]);
		assert_true(famfs_pagealloc_test(b.pa[1], le64toh(x[0].offset)));
		assert_true(famfs_bitmap_test(&b.dev[1],
					      le64toh(x[0].offset) / UNIT));
		famfs_alloc_free(&b);
	}
	famfs_alloc_free(&a);
}

/* a device whose page allocator cannot be set up (unit 0 free in its unit
 * allocator: a member added with no reserved unit) refuses a small file
 * with the set-up's errno and reason, naming the device -- not -ENOMEM;
 * nothing taken on any device */
static void test_pagealloc_setup_refused(void **s)
{
	struct famfs_superblock sb;
	struct famfs_alloc a;
	struct famfs_place pl = { 0 };
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT];
	uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT];
	char why[FAMFS_REASON_LEN] = "";
	uint64_t nfree;
	unsigned n;

	(void)s;
	famfs_sb_init(&sb, (const uint8_t *)"0123456789abcdef",
		      (const uint8_t *)"fedcba9876543210", 64 * MiB, 8 * MiB);
	assert_int_equal(famfs_alloc_init(&a, &sb), 0);
	assert_int_equal(famfs_alloc_add_dev(&a, 1, 0, 256 * MiB), 0);
	nfree = famfs_alloc_nfree(&a);
	pl.has_dev = true;
	pl.dev = 1;
	assert_int_equal(famfs_alloc_place_pages(&a, &pl, PG, x, &n, devs,
						 why), -EINVAL);
	assert_non_null(strstr(why, "device 1"));
	assert_non_null(strstr(why, "unit 0 is free"));
	assert_null(a.pa[1]);
	assert_int_equal(famfs_alloc_nfree(&a), nfree);
	/* device 0 is fine */
	pl.dev = 0;
	assert_int_equal(famfs_alloc_place_pages(&a, &pl, PG, x, &n, devs,
						 why), 0);
	assert_int_equal(devs[0], 0);
	famfs_alloc_free(&a);
}

/* a diverged or corrupt log: a large file's extent replayed after a small
 * file's page extent in the same 2 MiB unit.  The unit is the large file's
 * too: no new small file gets a page of it (the kernel would refuse each
 * with EADDRINUSE), and giving the small file's pages back never hands it
 * to the unit allocator while the large file holds it. */
static void test_large_after_small(void **s)
{
	struct famfs_superblock sb;
	struct famfs_alloc a, b;
	struct famfs_place pl = { 0 };
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT], big;
	struct famfs_log_entry e1, e2;
	uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT];
	char why[FAMFS_REASON_LEN];
	uint64_t off, u;
	unsigned n;

	(void)s;
	famfs_sb_init(&sb, (const uint8_t *)"0123456789abcdef",
		      (const uint8_t *)"fedcba9876543210", 64 * MiB, 8 * MiB);
	assert_int_equal(famfs_alloc_init(&a, &sb), 0);
	assert_int_equal(famfs_alloc_place_pages(&a, &pl, PG, x, &n, devs,
						 why), 0);
	off = le64toh(x[0].offset);
	u = off / UNIT;
	famfs_alloc_free(&a);
	assert_int_equal(famfs_entry_build_pages(&e1, "small", PG, 0644, 0, 0,
						 x, 1), 0);
	big.offset = htole64(u * UNIT);
	big.len = htole64(UNIT);
	assert_int_equal(famfs_entry_build(&e2, FAMFS_LOG_FILE, "large", UNIT,
					   0644, 0, 0, &big, 1), 0);

	assert_int_equal(famfs_alloc_init(&b, &sb), 0);
	famfs_alloc_mark(&b, &e1);
	famfs_alloc_mark(&b, &e2);
	for (unsigned k = 0; k < FAMFS_UNIT_PAGES; k++) {
		assert_int_equal(famfs_alloc_place_pages(&b, &pl, PG, x, &n,
							 devs, why), 0);
		assert_int_not_equal(le64toh(x[0].offset) / UNIT, u);
	}
	/* the small file's page given back: the unit stays the large file's,
	 * and that page is not handed out either */
	famfs_pagealloc_give(b.pa[0], off, PG, NULL);
	assert_true(famfs_bitmap_test(&b.dev[0], u));
	for (unsigned k = 0; k < 4; k++) {
		assert_int_equal(famfs_alloc_place_pages(&b, &pl, PG, x, &n,
							 devs, why), 0);
		assert_int_not_equal(le64toh(x[0].offset) / UNIT, u);
	}
	famfs_alloc_free(&b);
}

/* a corrupt log: a small file's page extent over another's page.  Its
 * entry keeps its pages (R3: a refused entry whose extents parse keeps
 * them), the ones no other file has too: none of them is given to a new
 * small file (fsck names the two files; the tool never makes a third). */
static void test_pages_over_pages(void **s)
{
	struct famfs_superblock sb;
	struct famfs_alloc a, b;
	struct famfs_place pl = { 0 };
	struct famfs_log_simple_ext x[FAMFS_LOG_MAX_SIMPLE_EXT], two;
	struct famfs_log_entry e1, e2;
	uint8_t devs[FAMFS_LOG_MAX_SIMPLE_EXT];
	char why[FAMFS_REASON_LEN];
	uint64_t off;
	unsigned n;

	(void)s;
	famfs_sb_init(&sb, (const uint8_t *)"0123456789abcdef",
		      (const uint8_t *)"fedcba9876543210", 64 * MiB, 8 * MiB);
	assert_int_equal(famfs_alloc_init(&a, &sb), 0);
	assert_int_equal(famfs_alloc_place_pages(&a, &pl, PG, x, &n, devs,
						 why), 0);
	off = le64toh(x[0].offset);
	assert_int_equal(off % UNIT, 0);
	famfs_alloc_free(&a);
	assert_int_equal(famfs_entry_build_pages(&e1, "one", PG, 0644, 0, 0,
						 x, 1), 0);
	two.offset = htole64(off);
	two.len = htole64(2 * PG);
	assert_int_equal(famfs_entry_build_pages(&e2, "two", 2 * PG, 0644, 0,
						 0, &two, 1), 0);

	assert_int_equal(famfs_alloc_init(&b, &sb), 0);
	famfs_alloc_mark(&b, &e1);
	famfs_alloc_mark(&b, &e2);
	for (unsigned k = 0; k < FAMFS_UNIT_PAGES; k++) {
		assert_int_equal(famfs_alloc_place_pages(&b, &pl, PG, x, &n,
							 devs, why), 0);
		assert_int_not_equal(le64toh(x[0].offset), off + PG);
	}
	famfs_alloc_free(&b);
}

static int v1(void **s)
{
	(void)s;
	compact = false;
	return 0;
}

static int cmp(void **s)
{
	(void)s;
	compact = true;
	return 0;
}

int main(void)
{
	th_small_files = true;
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_small_create, v1),
		cmocka_unit_test_setup(test_small_max, v1),
		cmocka_unit_test_setup(test_zero_only_new, v1),
		cmocka_unit_test_setup(test_new_process, v1),
		cmocka_unit_test_setup(test_summary_damage, v1),
		cmocka_unit_test_setup(test_small_create, cmp),
		cmocka_unit_test_setup(test_new_process, cmp),
		cmocka_unit_test_setup(test_summary_damage, cmp),
		cmocka_unit_test_setup(test_sealed_in_summary, v1),
		cmocka_unit_test_setup(test_sealed_in_summary, cmp),
		cmocka_unit_test_setup(test_summary_v4_rebuilt, cmp),
		cmocka_unit_test(test_members),
		cmocka_unit_test(test_pagealloc_setup_refused),
		cmocka_unit_test(test_large_after_small),
		cmocka_unit_test(test_pages_over_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
