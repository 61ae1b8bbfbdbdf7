// SPDX-License-Identifier: GPL-2.0
/*
 * famfs_store_stats (issue 30's bench): the bytes a command stores into
 * shared memory, counted where the stores happen, against what a new file
 * writes seen independently -- the memory of the map its bytes go through
 * (the mock famfs.ko records every MAP_CREATE: of .meta/.new-PID, or of the
 * file itself when its mapping reaches all of it) and the log slots its entry
 * took (next_index before and after).  A new 4 KiB small file stores its
 * page and its log slot (goal: at most 8 KiB plus the slot); the same file
 * in a 2 MiB unit (small files off) stores the unit.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

#define PG	4096ULL

static bool compact;
static uint64_t scratch_bytes;	/* memory of every scratch map */
static unsigned nscratch, nown;
static struct famfs_fmap own;	/* the new file's own map */

static void record_scratch(int fd, const struct famfs_fmap *m)
{
	char l[64], path[PATH_MAX];
	ssize_t n;

	snprintf(l, sizeof(l), "/proc/self/fd/%d", fd);
	n = readlink(l, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = '\0';
	if (strstr(path, "/.meta/.new-")) {
		scratch_bytes += famfs_fmap_alloc_bytes(m);
		nscratch++;
	} else {
		own = *m;
		nown++;
	}
}

/* bytes of the log slots [a, b) */
static uint64_t slot_bytes(uint64_t a, uint64_t b)
{
	return (b - a) * (compact ? FAMFS_CLOG_SLOT :
			  sizeof(struct famfs_log_entry));
}

struct counted {
	struct famfs_store_stats s;
	uint64_t slots;		/* log bytes by next_index */
};

/* create rel (size bytes, lay, fill) alone and count what it stored */
static void create_counted(struct th *t, const char *rel, uint64_t size,
			   const struct famfs_layout *lay,
			   const struct famfs_fill *fill, struct counted *c)
{
	uint64_t before = famfs_log_next(t->fs.log);
	int fd;

	memset(&famfs_store_stats, 0, sizeof(famfs_store_stats));
	scratch_bytes = 0;
	nscratch = nown = 0;
	th_mock_before_create = record_scratch;
	fd = famfs_file_create_fill(&t->fs, rel, size, 0644, 0, 0, lay, fill);
	th_mock_before_create = NULL;
	assert_true(fd >= 0);
	close(fd);
	c->s = famfs_store_stats;
	c->slots = slot_bytes(before, famfs_log_next(t->fs.log));
	/* the counter's data bytes are the memory of the one map they went
	 * through: a scratch map, or the file's own when its mapping reaches
	 * all of it (then no scratch file at all) */
	assert_int_equal(nown, 1);
	if (famfs_fill_through_file(&own)) {
		assert_int_equal(nscratch, 0);
		scratch_bytes = famfs_fmap_alloc_bytes(&own);
	} else {
		assert_int_equal(nscratch, 1);
	}
	assert_int_equal(c->s.zeroed + c->s.filled, scratch_bytes);
	/* its log bytes are the slots the entry took, one commit */
	assert_int_equal(c->s.log, c->slots);
	assert_int_equal(c->s.commit, 8);
}

static uint64_t total(const struct counted *c)
{
	return c->s.zeroed + c->s.filled + c->s.log + c->s.commit + c->s.meta;
}

static struct th *snew(void)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, compact);

	assert_non_null(t);
	return t;
}

/* a new 4 KiB small file: its page zeroed, its slot, the commit */
static void test_small_file(void **s)
{
	struct th *t = snew();
	struct famfs_layout lay = { 0 };
	struct counted c;

	(void)s;
	/* the first small file sets the feature bit: the superblock too */
	create_counted(t, "first", 100, &lay, NULL, &c);
	assert_int_equal(c.s.zeroed, PG);
	assert_true(c.s.meta >= sizeof(struct famfs_superblock));
	/* the next one stores its page, its entry and next_index alone */
	create_counted(t, "second", PG, &lay, NULL, &c);
	assert_int_equal(c.s.zeroed, PG);
	assert_int_equal(c.s.filled, 0);
	assert_int_equal(c.s.meta, 0);
	assert_int_equal(total(&c), PG + c.slots + 8);
	assert_true(total(&c) - c.slots <= 8192 + 8);	/* the bench's goal */
	th_free(t);
}

/* the same 4 KiB file in a 2 MiB unit (small files off): the unit */
static void test_unit_file(void **s)
{
	struct th *t = snew();
	struct famfs_layout lay = { 0 };
	struct counted c;

	(void)s;
	lay.small_max = FAMFS_SMALL_NONE;
	create_counted(t, "u0", 100, &lay, NULL, &c);
	create_counted(t, "u1", PG, &lay, NULL, &c);
	assert_int_equal(c.s.zeroed, FAMFS_ALLOC_UNIT);
	assert_int_equal(total(&c), FAMFS_ALLOC_UNIT + c.slots + 8);
	th_free(t);
}

static int fill5a(void *arg, char *addr, uint64_t size)
{
	(void)arg;
	memset(addr, 0x5a, size);
	return 0;
}

/* a filled file (famfs cp, mkfile -S): its bytes filled, the rest of its
 * last page zeroed */
static void test_filled(void **s)
{
	struct th *t = snew();
	struct famfs_layout lay = { 0 };
	struct famfs_fill f = { .fn = fill5a };
	struct counted c;

	(void)s;
	create_counted(t, "f0", 100, &lay, &f, &c);
	create_counted(t, "f1", PG, &lay, &f, &c);
	assert_int_equal(c.s.filled, PG);
	assert_int_equal(c.s.zeroed, 0);
	create_counted(t, "f2", 5000, &lay, &f, &c);
	assert_int_equal(c.s.filled, 5000);
	assert_int_equal(c.s.zeroed, 2 * PG - 5000);
	th_free(t);
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
		cmocka_unit_test_setup(test_small_file, v1),
		cmocka_unit_test_setup(test_unit_file, v1),
		cmocka_unit_test_setup(test_filled, v1),
		cmocka_unit_test_setup(test_small_file, cmp),
		cmocka_unit_test_setup(test_unit_file, cmp),
		cmocka_unit_test_setup(test_filled, cmp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
