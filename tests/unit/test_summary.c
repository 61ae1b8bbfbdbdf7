// SPDX-License-Identifier: GPL-2.0
/*
 * The master's create summary (lib/log/summary.c, issue 17): a create in a new
 * opening (a new process) loads it and reads only the log entries appended
 * since; damaged, stale or foreign, it is not trusted and the cache is
 * rebuilt from the log.  Whatever was done to the file, the cache equals a
 * rebuild from the whole log after the next create, no two files share
 * memory, and a logged path is refused.
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
#include <uuid/uuid.h>

#include "th.h"

/* every test runs on a v1 log, then on a compact one (famfs_format.h):
 * there a summary's last entry starts before next - 1 */
static bool compact;

static struct th *sum_new(void)
{
	return th_new_fmt(64 * MiB, 2 * MiB, compact);
}

static struct th *sum_new3g(void)
{
	return th_new_fmt(3072 * MiB, 2 * MiB, compact);
}

static int sum_setup(void **state)
{
	*state = sum_new();
	return *state ? 0 : -1;
}

/* the cache of fs equals a bitmap rebuilt from the whole log, and fsck
 * finds no two files sharing memory */
static void cache_is_rebuild(struct th *t)
{
	struct famfs_fsck_result r;
	struct famfs_bitmap b;

	assert_non_null(t->fs.cache_alloc);
	assert_int_equal(t->fs.cache_next, famfs_log_next(t->fs.log));
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(b.nfree, t->fs.cache_alloc->dev[0].nfree);
	assert_memory_equal(b.bits, t->fs.cache_alloc->dev[0].bits, (b.nunits + 63) / 64 * 8);
	famfs_bitmap_free(&b);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
}

static void sum_path(struct th *t, char *p)
{
	assert_int_equal(famfs_summary_path(t->fs.sb->fs_uuid, p, PATH_MAX), 0);
}

static off_t file_size(const char *p)
{
	struct stat st;

	return stat(p, &st) ? -1 : st.st_size;
}

/* a new process: reopened, statistics cleared */
static void new_process(struct th *t)
{
	assert_int_equal(th_reopen(t), 0);
	memset(&famfs_summary_stats, 0, sizeof(famfs_summary_stats));
}

/* two files, a directory; the summary written by the last create */
static void populate(struct th *t)
{
	char p[PATH_MAX];

	th_create_ok(&t->fs, "a", 3 * MiB);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	th_create_ok(&t->fs, "d/b", 1);
	sum_path(t, p);
	assert_true(file_size(p) < 0);	/* written when the opening closes */
	assert_int_equal(th_reopen(t), 0);
	assert_true(file_size(p) > 0);
}

/* a new process creates c: the cache rebuilt from the log that many times
 * (-1: whichever), and all is well */
static void check_after(struct th *t, int rebuilds)
{
	new_process(t);
	th_create_ok(&t->fs, "c", 2 * MiB);
	if (rebuilds >= 0)
		assert_int_equal(famfs_summary_stats.rebuilds, rebuilds);
	assert_int_equal(famfs_file_create(&t->fs, "a", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_file_create(&t->fs, "d/b", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_file_create(&t->fs, "d", 1, 0644, 0, 0), -EEXIST);
	cache_is_rebuild(t);
}

static void test_used_by_next_process(void **state)
{
	struct th *t = *state;

	populate(t);
	check_after(t, 0);
	/* and it reads one page of the table per lookup, not the log */
	new_process(t);
	th_create_ok(&t->fs, "e", 1);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	assert_true(famfs_summary_stats.pages_read <= 2);
	cache_is_rebuild(t);
}

/* the count of wholly free aligned GiBs (famfs df, and what the allocator
 * keeps whole: issue 31) of a cache read back from the summary is the
 * count of the bitmap it holds: a 3 GiB device, a file in GiB 1 */
static void test_whole_gibs_counted(void **state)
{
	struct th *t = sum_new3g();
	struct famfs_bitmap b;

	(void)state;
	assert_non_null(t);
	th_create_ok(&t->fs, "a", 1024 * MiB);	/* at 1 GiB: aligned */
	th_create_ok(&t->fs, "b", 2 * MiB);
	assert_int_equal(th_reopen(t), 0);	/* the summary written */
	new_process(t);
	th_create_ok(&t->fs, "c", 2 * MiB);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_int_equal(b.nwhole, 1);		/* GiB 2 */
	assert_int_equal(t->fs.cache_alloc->dev[0].nwhole, 1);
	assert_int_equal(famfs_bitmap_free_aligned(&t->fs.cache_alloc->dev[0],
						   FAMFS_BM_KEEP_UNITS), 1);
	famfs_bitmap_free(&b);
	th_free(t);
}

/* entries appended by others (mkdir, a hand-made file entry: another
 * process or the master before a move) are read from the log */
static void test_tail_replayed(void **state)
{
	struct th *t = *state;

	populate(t);
	th_append_dir(t, "x");
	th_append_file(t, "y", 20 * MiB, 4 * MiB, 1);
	new_process(t);
	assert_int_equal(famfs_file_create(&t->fs, "y", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_file_create(&t->fs, "x", 1, 0644, 0, 0), -EEXIST);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	check_after(t, 0);
}

/* an older copy of the summary: the tail since it is replayed */
static void test_older_copy(void **state)
{
	struct th *t = *state;
	char p[PATH_MAX], cmd[2 * PATH_MAX + 32];

	th_create_ok(&t->fs, "a", 3 * MiB);
	assert_int_equal(th_reopen(t), 0);
	sum_path(t, p);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s.old'", p, p);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "d", 0755, 0, 0, false), 0);
	th_create_ok(&t->fs, "d/b", 1);
	th_create_ok(&t->fs, "big", 8 * MiB);
	assert_int_equal(th_reopen(t), 0);
	snprintf(cmd, sizeof(cmd), "mv '%s.old' '%s'", p, p);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(famfs_file_create(&t->fs, "big", 1, 0644, 0, 0), -EEXIST);
	check_after(t, 0);
}

/* the header patched and its CRC made right again: only the identity
 * checks can refuse it */
struct hdr_view {		/* the first fields of summary.c's header */
	uint64_t magic;
	uint32_t version, crc;
	uint8_t fs_uuid[16], boot[16];
	uint32_t sb_crc, last_crc;
	uint64_t dev_size, capacity, next, last, nunits, nwords, nfree;
	uint64_t file_id, npages, used, table_off, mrec_gen;
};

static void patch_hdr(struct th *t, void (*fn)(struct hdr_view *h, struct th *t))
{
	char p[PATH_MAX];
	uint8_t buf[65536];
	struct hdr_view *h = (struct hdr_view *)buf;
	size_t hsz = 152;	/* sizeof(struct sum_hdr) */
	uint32_t crc;
	int fd;

	sum_path(t, p);
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_true(pread(fd, buf, sizeof(buf), 0) > (ssize_t)hsz);
	fn(h, t);
	h->crc = 0;
	crc = famfs_crc32(buf, hsz + h->nwords * 8);
	/* zlib's crc32 of the two parts is the crc32 of the concatenation */
	h->crc = crc;
	assert_int_equal(pwrite(fd, buf, hsz, 0), (ssize_t)hsz);
	close(fd);
}

static void same(struct hdr_view *h, struct th *t)
{
	(void)h;
	(void)t;
}

static void wrong_uuid(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->fs_uuid[3] ^= 1;
}

static void wrong_sb(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->sb_crc ^= 0x100;	/* another mkfs, same uuid */
}

static void past_next(struct hdr_view *h, struct th *t)
{
	h->next = famfs_log_next(t->fs.log) + 5;
}

static void behind_wrong_last(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->next -= 1;		/* last_crc now names another entry */
}

static void wrong_last(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->last -= 1;		/* not where the last entry starts */
}

static void last_not_at_end(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->next += 1;		/* the last entry does not end there */
}

static void other_boot(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->boot[0] ^= 0xff;
}

static void other_claim(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->mrec_gen -= 1;	/* written under the claim before this one */
}

static void more_free(struct hdr_view *h, struct th *t)
{
	(void)t;
	h->nfree += 1;
}

static void test_patched_header(void **state)
{
	static void (*const fn[])(struct hdr_view *, struct th *) = {
		wrong_uuid, wrong_sb, past_next, behind_wrong_last, wrong_last,
		last_not_at_end, other_boot, other_claim, more_free,
	};

	(void)state;
	/* the patch tool itself is right: an unchanged header is trusted */
	{
		struct th *t = sum_new();

		populate(t);
		patch_hdr(t, same);
		check_after(t, 0);
		th_free(t);
	}
	for (unsigned i = 0; i < sizeof(fn) / sizeof(fn[0]); i++) {
		struct th *t = sum_new();

		populate(t);
		patch_hdr(t, fn[i]);
		check_after(t, 1);
		th_free(t);
	}
}

/* one bit flipped at a time, all over the file */
/* the next byte test_bit_flips flips: every third of the header, a sample
 * of the rest of its page (padding nobody reads; it was 45 % of the flips,
 * each a new file system), every 61st of the table and bitmap */
static off_t next_flip(off_t off)
{
	if (off < 152 + 8)
		return off + 3;
	if (off < 4096)
		return off + 487 < 4096 ? off + 487 : 4096;
	return off + 61;
}

static void test_bit_flips(void **state)
{
	char p[PATH_MAX];
	off_t size;

	(void)state;
	{
		struct th *t = sum_new();

		populate(t);
		sum_path(t, p);
		size = file_size(p);
		th_free(t);
	}
	for (off_t off = 0; off < size; off = next_flip(off)) {
		struct th *t = sum_new();
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
		/* a flip in the header or bitmap is always seen, one in the
		 * table's only page at the first lookup; the rest of the
		 * header's page is padding nobody reads */
		check_after(t, off >= 152 + 8 && off < 4096 ? 0 : 1);
		th_free(t);
	}
}

static void test_truncated(void **state)
{
	static const off_t len[] = { 0, 7, 100, 151, 152, 4095, 4096, 6000 };

	(void)state;
	for (unsigned i = 0; i < sizeof(len) / sizeof(len[0]); i++) {
		struct th *t = sum_new();
		char p[PATH_MAX];

		populate(t);
		sum_path(t, p);
		assert_int_equal(truncate(p, len[i]), 0);
		check_after(t, 1);
		th_free(t);
	}
}

/* the summary of another file system, renamed to this one's */
static void test_other_fs(void **state)
{
	struct th *t = *state, *o = sum_new();
	char p[PATH_MAX], q[PATH_MAX], cmd[2 * PATH_MAX + 16];

	th_create_ok(&o->fs, "x", 20 * MiB);	/* other memory used there */
	sum_path(o, q);
	famfs_fs_close(&o->fs);			/* writes its summary */
	o->open = false;
	/* th_new pointed the environment at o's directories: t's again */
	setenv("FAMFS_HOST_ID_FILE", t->hostid, 1);
	setenv("FAMFS_BOOT_ID_FILE", t->bootid, 1);
	setenv("FAMFS_CLAIM_DIR", t->claimdir, 1);
	populate(t);
	sum_path(t, p);
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", q, p);
	assert_int_equal(system(cmd), 0);
	check_after(t, 1);
	th_free(o);
}

/* a damaged page of the table, found by the lookup of a create: the
 * summary is dropped and the create goes on from the log */
static void test_damaged_table_page(void **state)
{
	struct th *t = *state;
	char p[PATH_MAX];
	uint8_t junk[4096];
	int fd;

	populate(t);
	sum_path(t, p);
	memset(junk, 0x5a, sizeof(junk));
	fd = open(p, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, junk, sizeof(junk), 4096), (ssize_t)sizeof(junk));
	close(fd);
	check_after(t, 1);	/* the load passed; the page did not */
	assert_int_equal(th_reopen(t), 0);
	assert_true(file_size(p) > 0);	/* written again */
}

/* many paths: the table grows (while replaying a long tail), and every
 * path is still found after the next load */
static void test_grows(void **state)
{
	struct th *t = *state;
	char name[32];

	populate(t);
	for (int i = 0; i < 1500; i++) {
		snprintf(name, sizeof(name), "dir%d", i);
		th_append_dir(t, name);
	}
	new_process(t);
	th_create_ok(&t->fs, "after", 1);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	new_process(t);
	for (int i = 0; i < 1500; i += 37) {
		snprintf(name, sizeof(name), "dir%d", i);
		assert_int_equal(famfs_file_create(&t->fs, name, 1, 0644, 0, 0),
				 -EEXIST);
	}
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	check_after(t, 0);
}

/* a crash while a grown table is saved: its pages are written, the header
 * and bitmap (before the table, table_off = 4096 here) are still the old
 * ones, which name the smaller table: not trusted */
static void test_grow_torn(void **state)
{
	struct th *t = *state;
	uint8_t old[4096];
	char name[32], p[PATH_MAX];
	int fd;

	populate(t);
	sum_path(t, p);
	fd = open(p, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, old, sizeof(old), 0), (ssize_t)sizeof(old));
	close(fd);
	for (int i = 0; i < 1500; i++) {
		snprintf(name, sizeof(name), "dir%d", i);
		th_append_dir(t, name);
	}
	new_process(t);
	th_create_ok(&t->fs, "after", 1);
	assert_int_equal(th_reopen(t), 0);	/* the grown table written */
	fd = open(p, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, old, sizeof(old), 0), (ssize_t)sizeof(old));
	close(fd);
	/* only the entries up to the old header's index count: "after" and
	 * the directories are replayed from the log */
	check_after(t, 1);
}

/* an entry the summary covers, damaged since: what it owned stays used
 * (the summary knows it), its path stays taken */
static void test_entry_damaged_since(void **state)
{
	struct th *t = *state;
	uint64_t a_unit;
	struct famfs_log_entry e;

	populate(t);
	assert_int_equal(famfs_log_entry_at(&t->fs, 0, &e), 0);
	a_unit = le64toh(e.fm.ext.simple[0].offset) / FAMFS_ALLOC_UNIT;
	/* a's entry: v1, its ctime; compact, a byte of its first slot past
	 * the 16-byte entry header (famfs_clog_hdr) */
	((uint8_t *)famfs_log_slot(t->fs.log, 0))[compact ? 24 : 40] ^= 1;
	new_process(t);
	th_create_ok(&t->fs, "c", 40 * MiB);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	assert_true(famfs_bitmap_test(&t->fs.cache_alloc->dev[0], a_unit));
	assert_true(famfs_bitmap_test(&t->fs.cache_alloc->dev[0], a_unit + 1));
	/* v1: the path is read from the slot as it is; compact: a's entry no
	 * longer decodes, the lookup drops the summary and the rebuild finds
	 * an entry that cannot be parsed (R3): no create at all */
	assert_int_equal(famfs_file_create(&t->fs, "a", 1, 0644, 0, 0),
			 compact ? -EUCLEAN : -EEXIST);
	/* c is nowhere near a */
	assert_int_equal(famfs_log_entry_at(&t->fs, t->fs.last_append, &e), 0);
	assert_string_equal(e.fm.path, "c");
	assert_true(le64toh(e.fm.ext.simple[0].offset) / FAMFS_ALLOC_UNIT >
		    a_unit + 1);
}

/* famfs mkdir keeps a trusted summary current (the next create reads no
 * tail), and makes none when there is none */
static uint64_t hdr_next(struct th *t)
{
	char p[PATH_MAX];
	struct hdr_view h;
	int fd;

	sum_path(t, p);
	fd = open(p, O_RDONLY);
	if (fd < 0)
		return UINT64_MAX;
	assert_int_equal(pread(fd, &h, sizeof(h), 0), (ssize_t)sizeof(h));
	close(fd);
	return h.next;
}

static void test_mkdir_follows(void **state)
{
	struct th *t = *state;

	assert_int_equal(famfs_mkdir(&t->fs, "before", 0755, 0, 0, false), 0);
	assert_int_equal(hdr_next(t), UINT64_MAX);	/* none made */
	populate(t);
	new_process(t);
	assert_int_equal(famfs_mkdir(&t->fs, "e", 0755, 0, 0, false), 0);
	assert_int_equal(famfs_mkdir(&t->fs, "e/f/g", 0755, 0, 0, true), 0);
	assert_int_equal(th_reopen(t), 0);	/* written at close */
	assert_int_equal(hdr_next(t), famfs_log_next(t->fs.log));
	assert_int_equal(famfs_summary_stats.rebuilds, 0);
	new_process(t);
	assert_int_equal(famfs_file_create(&t->fs, "e/f", 1, 0644, 0, 0), -EEXIST);
	check_after(t, 0);
}

/* famfs mount makes the summary again from the log: an entry damaged
 * while unmounted then stops creates (R3), as without a summary */
static void remake(struct th *t)
{
	assert_int_equal(famfs_fs_lock(&t->fs), 0);
	famfs_fs_cache_remake(&t->fs);
	famfs_fs_unlock(&t->fs);
}

static void test_mount_remakes(void **state)
{
	struct th *t = *state;
	char p[PATH_MAX];

	populate(t);
	remake(t);
	sum_path(t, p);
	assert_true(file_size(p) > 0);
	check_after(t, 0);
	famfs_log_slot(t->fs.log, 0)->fm.ctime ^= 1;	/* a: bad CRC */
	new_process(t);
	remake(t);
	assert_true(file_size(p) < 0);			/* none made */
	new_process(t);
	assert_int_equal(famfs_file_create(&t->fs, "n", 1, 0644, 0, 0), -EUCLEAN);
	assert_int_equal(famfs_summary_stats.rebuilds, 1);
}

/* the memory of units [lost_lo, lost_hi): what the lost entries own */
static uint64_t lost_lo, lost_hi;
static unsigned lost_maps;

static void lost_create(int fd, const struct famfs_fmap *m)
{
	(void)fd;
	for (uint32_t i = 0; i < m->count && i < FAMFS_LOG_MAX_SIMPLE_EXT; i++) {
		uint64_t u = m->ext[i].offset / FAMFS_ALLOC_UNIT;
		uint64_t n = m->ext[i].len / FAMFS_ALLOC_UNIT;

		if (u < lost_hi && lost_lo < u + n)
			lost_maps++;
	}
}

/* next_index lost two committed entries (a damaged header) after the
 * summary was written: the summary is still consistent with the log, but
 * those files' memory must not be given (and written: famfs_fill_units)
 * to a new file before the append finds the damage */
static void test_lost_entries_not_reused(void **state)
{
	struct th *t = *state;
	uint64_t n;
	int fd;

	populate(t);
	n = famfs_log_next(t->fs.log);
	/* a: units 2-3, d/b: unit 4; these two: units 5 and 6 */
	th_append_file(t, "p1", 10 * MiB, 2 * MiB, 1);
	th_append_file(t, "p2", 12 * MiB, 2 * MiB, 1);
	t->fs.log->next_index = htole64(n);
	new_process(t);
	lost_lo = 5;
	lost_hi = 7;
	lost_maps = 0;
	th_mock_before_create = lost_create;
	fd = famfs_file_create(&t->fs, "c", 2 * MiB, 0644, 0, 0);
	th_mock_before_create = NULL;
	if (fd >= 0)
		close(fd);
	assert_int_equal(fd, -EUCLEAN);
	if (lost_maps)
		fail_msg("a committed file's memory was mapped to the new file (%u extents) before the append was refused",
			 lost_maps);
	assert_int_equal(famfs_log_next(t->fs.log), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_used_by_next_process, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_tail_replayed, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_older_copy, sum_setup, th_teardown),
		cmocka_unit_test(test_patched_header),
		cmocka_unit_test(test_bit_flips),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test_setup_teardown(test_other_fs, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_damaged_table_page, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_grows, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_grow_torn, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_entry_damaged_since, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mkdir_follows, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_mount_remakes, sum_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_lost_entries_not_reused, sum_setup, th_teardown),
		cmocka_unit_test(test_whole_gibs_counted),
	};

	enum { N = sizeof(tests) / sizeof(tests[0]) };
	struct CMUnitTest ctests[N];
	static char names[N][64];
	int fails = cmocka_run_group_tests_name("summary (v1 log)", tests, NULL, NULL);

	for (unsigned i = 0; i < N; i++) {
		ctests[i] = tests[i];
		snprintf(names[i], sizeof(names[i]), "compact_%s", tests[i].name + 5);
		ctests[i].name = names[i];
	}
	compact = true;
	return fails + cmocka_run_group_tests_name("summary (compact log)", ctests,
						   NULL, NULL);
}
