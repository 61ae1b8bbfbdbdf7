// SPDX-License-Identifier: GPL-2.0
/* A compact log in use: appends of 1..4 slots, walks and rounds of
 * logplay, every torn step of an append, R4 and its bound, an earlier file
 * system's entries on the same memory. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <string.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "th.h"

struct seen {
	uint64_t n, bad;
	uint64_t idx[16];
	bool ok[16];
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)e;
	(void)reason;
	if (s->n < 16) {
		s->idx[s->n] = idx;
		s->ok[s->n] = ok;
	}
	s->n++;
	s->bad += !ok;
	return 0;
}

static int setup(void **state)
{
	*state = th_new_fmt(64 * MiB, 2 * MiB, true);
	return 0;
}

static void gen_path(char *out, size_t len, unsigned tag)
{
	size_t n = (size_t)snprintf(out, len + 1, "t%u", tag);

	for (; n < len; n++)
		out[n] = (n % 100 == 99) ? '/' : 'x';
	if (out[len - 1] == '/')
		out[len - 1] = 'x';
	out[len] = '\0';
}

/* a file entry of plen path bytes at 2 MiB unit u (not appended) */
static void build(struct famfs_log_entry *e, size_t plen, unsigned tag,
		  uint64_t u)
{
	struct famfs_log_simple_ext x = { htole64(u * 2 * MiB), htole64(2 * MiB) };
	char p[FAMFS_LOG_PATH_MAX];

	gen_path(p, plen, tag);
	assert_int_equal(famfs_entry_build(e, FAMFS_LOG_FILE, p, 100, 0644, 0,
					   0, &x, 1), 0);
}

static uint8_t *slot(struct th *t, uint64_t i)
{
	return (uint8_t *)t->fs.log + FAMFS_LOG_HDR_SIZE + i * FAMFS_CLOG_SLOT;
}

/* write e, encoded for slot i, into the log without committing it;
 * returns its slot count */
static unsigned put_raw(struct th *t, struct famfs_log_entry *e, uint64_t i)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	int n = famfs_clog_encode(e, i, t->fs.sb->fs_uuid, buf, NULL);

	assert_true(n > 0);
	memcpy(slot(t, i), buf, (size_t)n * FAMFS_CLOG_SLOT);
	return (unsigned)n;
}

static void set_next(struct th *t, uint64_t n)
{
	t->fs.log->next_index = htole64(n);
}

static void test_append_walk_slots(void **state)
{
	struct th *t = *state;
	static const size_t lens[] = { 10, 200, 450, 99, 500, 3 };
	uint64_t want = 0;
	struct famfs_log_entry e;
	struct seen s = { 0 };

	for (unsigned i = 0; i < 6; i++) {
		build(&e, lens[i], i, 2 + i);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
		assert_int_equal(t->fs.last_append, want);
		assert_int_equal(le64toh(((struct famfs_clog_hdr *)slot(t, want))->seq),
				 want);
		want += ((struct famfs_clog_hdr *)slot(t, want))->nslots;
	}
	assert_int_equal(famfs_log_next(t->fs.log), want);
	assert_int_equal(want, 1 + 2 + 3 + 1 + 3 + 1);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 6);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.idx[1], 1);
	assert_int_equal(s.idx[2], 3);
	assert_int_equal(s.idx[5], 10);
	/* an entry read by its index, as fsck names a sharer */
	assert_int_equal(famfs_log_entry_at(&t->fs, 3, &e), 0);
	assert_int_equal(strlen(e.fm.path), 450);
	assert_int_equal(famfs_log_entry_at(&t->fs, 4, &e), -EINVAL);
}

/* logplay in rounds (logplay --follow) resumes at entry boundaries */
static void test_logplay_rounds(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r = { 0 };
	struct famfs_logplay *lp = famfs_logplay_new(8);
	struct famfs_log_entry e;

	for (unsigned i = 0; i < 3; i++) {
		build(&e, 150 + 150 * i, i, 2 + i);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	}
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.created_files, 3);
	assert_int_equal(famfs_logplay_next(lp), famfs_log_next(t->fs.log));
	for (unsigned i = 3; i < 5; i++) {
		build(&e, 30 * i, i, 2 + i);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	}
	assert_int_equal(famfs_logplay_more(lp, &t->fs, false, &r, NULL, NULL), 0);
	assert_int_equal(r.created_files, 5);
	assert_int_equal(r.present + r.conflicts + r.bad_entries + r.errors, 0);
	famfs_logplay_free(lp);
}

/* step 1 of an append done, step 2 (commit) not: the entry is whole at
 * next_index.  Its memory stays reserved, fsck is clean, the next append
 * commits it first. */
static void test_torn_written_not_committed(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	struct famfs_bitmap b;
	struct seen s = { 0 };
	unsigned k;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	build(&e, 300, 1, 3);			/* 2 slots */
	k = put_raw(t, &e, 1);
	assert_int_equal(k, 2);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.idx[0], 1);
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_true(famfs_bitmap_test(&b, 3));	/* reserved */
	famfs_bitmap_free(&b);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	/* a directory append rolls it forward, then goes after it */
	th_append_dir(t, "d");
	assert_int_equal(t->fs.last_append, 3);
	assert_int_equal(famfs_log_next(t->fs.log), 4);
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 0);
}

/* step 1 torn: only the first slot of a 3-slot entry reached memory, no
 * commit.  Nothing verifies there: nothing reserved, the next append
 * writes over it, and what is left of it is never taken for an entry. */
static void test_torn_partial_not_committed(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	struct seen s = { 0 };

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	build(&e, 450, 1, 3);
	assert_int_equal(put_raw(t, &e, 1), 3);
	memset(slot(t, 2), 0, 2 * FAMFS_CLOG_SLOT);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	th_append_dir(t, "d");
	assert_int_equal(t->fs.last_append, 1);
	th_append_dir(t, "e");
	assert_int_equal(t->fs.last_append, 2);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
}

/* the commit reached memory but a slot of the entry did not (a write-back
 * out of order): one corrupt entry, the entries after it still read, and
 * the master allocates nothing (R3) until it is repaired */
static void test_torn_committed(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	struct seen s = { 0 };
	unsigned k;
	int fd;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	build(&e, 450, 1, 3);
	k = put_raw(t, &e, 1);
	memset(slot(t, 3), 0, FAMFS_CLOG_SLOT);	/* its last slot lost */
	set_next(t, 1 + k);
	th_append_file(t, "b", 10 * MiB, 2 * MiB, 1);
	assert_int_equal(t->fs.last_append, 4);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(s.bad, 1);
	assert_false(s.ok[1]);
	assert_int_equal(s.idx[1], 1);
	assert_true(s.ok[2]);
	assert_int_equal(s.idx[2], 4);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.bad_entries, 1);
	assert_true(r.problems >= 1);
	fd = famfs_file_create(&t->fs, "new", 100, 0644, 0, 0);
	assert_int_equal(fd, -EUCLEAN);
	th_append_dir(t, "dirs-own-nothing");
}

/* next_index lost entries (a damaged header): a run of valid entries
 * starts at it; the bounded R4 scan follows the whole run (longer than
 * its bound), fsck reports it, the master refuses to append */
static void test_next_index_lost_many(void **state)
{
	struct th *t = *state;
	const unsigned nent = FAMFS_CLOG_SCAN + 500;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	struct seen s = { 0 };

	for (unsigned i = 0; i < nent; i++) {
		char p[32];

		snprintf(p, sizeof(p), "d%u", i);
		assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, p, 0, 0755,
						   0, 0, NULL, 0), 0);
		assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	}
	build(&e, 40, 9, 20);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);	/* slot nent */
	set_next(t, 10);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, nent + 1 - 10);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, nent - 10);	/* all but the first */
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "x", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	assert_int_equal(famfs_log_next(t->fs.log), 10);
}

/* R4's bound: a valid entry within FAMFS_CLOG_SCAN slots of next_index
 * counts, one further away (after nothing but empty slots) is not looked
 * for -- the documented cost limit for huge logs */
static void test_r4_scan_bound(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	struct seen s = { 0 };
	uint64_t n;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	n = famfs_log_next(t->fs.log);
	build(&e, 20, 1, 5);
	put_raw(t, &e, n + FAMFS_CLOG_SCAN - 1);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 1);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "x", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	/* one slot further: past the bound */
	memset(slot(t, n + FAMFS_CLOG_SCAN - 1), 0, FAMFS_CLOG_SLOT);
	build(&e, 20, 1, 5);
	put_raw(t, &e, n + FAMFS_CLOG_SCAN);
	assert_int_equal(th_reopen(t), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
}

/* mkfs again over the same memory: the earlier file system's entries are
 * still in the slots, with the right seq, but fail the CRC (seeded with
 * the fs uuid): the new log is empty, and appends go on from slot 0 */
static void test_earlier_fs_entries_ignored(void **state)
{
	struct th *t = *state;
	struct famfs_superblock sb = *t->fs.sb;
	struct famfs_log_header h;
	struct famfs_fsck_result r;
	struct seen s = { 0 };
	uint8_t fsid[16];
	int fd;

	for (unsigned i = 0; i < 5; i++) {
		char p[16];

		snprintf(p, sizeof(p), "f%u", i);
		th_append_file(t, p, (2 + i) * 2 * MiB, 2 * MiB, 1);
	}
	uuid_generate(fsid);
	memcpy(sb.fs_uuid, fsid, 16);
	famfs_sb_set_crc(&sb);
	famfs_log_hdr_init_fmt(&h, fsid, 2 * MiB, true);
	fd = open(t->img, O_RDWR);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, &sb, sizeof(sb), 0), (ssize_t)sizeof(sb));
	assert_int_equal(pwrite(fd, &h, sizeof(h), FAMFS_LOG_OFFSET),
			 (ssize_t)sizeof(h));
	close(fd);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems + r.entries, 0);
	th_append_dir(t, "new");
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.bad, 0);
}

/* every bit of a committed 3-slot entry flipped: that entry, and only it,
 * is reported corrupt; the entries before and after it still read */
static void test_every_bit_flip(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	build(&e, 450, 1, 3);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	th_append_file(t, "b", 8 * MiB, 2 * MiB, 1);
	assert_int_equal(famfs_log_next(t->fs.log), 5);
	for (size_t bit = 0; bit < 3 * FAMFS_CLOG_SLOT * 8; bit++) {
		uint8_t *b = slot(t, 1) + bit / 8;
		struct seen s = { 0 };

		*b ^= (uint8_t)(1 << (bit % 8));
		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		if (s.n != 3 || s.bad != 1 || !s.ok[0] || s.ok[1] || !s.ok[2] ||
		    s.idx[2] != 4)
			fail_msg("bit %zu: %llu entries, %llu bad", bit,
				 (unsigned long long)s.n,
				 (unsigned long long)s.bad);
		*b ^= (uint8_t)(1 << (bit % 8));
	}
}

/* the same damage in a batch (the log lock held across appends, where an
 * append whose next_index is the one this process's last append left skips
 * the tail check): a next_index not its own is checked, and refused */
static void test_next_index_mid_entry_held(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	uint8_t keep[3 * FAMFS_CLOG_SLOT];

	assert_int_equal(famfs_fs_hold(&t->fs), 0);
	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	build(&e, 450, 1, 3);			/* 3 slots: 1..3 */
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(t->fs.own_next, 4);
	memcpy(keep, slot(t, 1), sizeof(keep));
	set_next(t, 2);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "x", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	assert_memory_equal(slot(t, 1), keep, sizeof(keep));
	/* a valid entry past its own next_index: seen again once the lock
	 * was let go (another creator may have appended meanwhile) */
	set_next(t, 4);
	build(&e, 20, 2, 5);
	put_raw(t, &e, 5);
	famfs_fs_release(&t->fs);
	assert_int_equal(t->fs.own_next, 0);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "y", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	assert_int_equal(famfs_log_next(t->fs.log), 4);
}

/* next_index points into the middle of a committed multi-slot entry (a
 * damaged header): the entry must not be overwritten by the next append --
 * not even a directory's, which R3 would otherwise let through -- and fsck
 * reports it */
static void test_next_index_mid_entry(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	uint8_t keep[3 * FAMFS_CLOG_SLOT];

	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1);
	build(&e, 450, 1, 3);			/* 3 slots: 1..3 */
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(famfs_log_next(t->fs.log), 4);
	memcpy(keep, slot(t, 1), sizeof(keep));
	set_next(t, 2);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_true(r.problems >= 1);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_MKDIR, "x", 0, 0755, 0,
					   0, NULL, 0), 0);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	assert_memory_equal(slot(t, 1), keep, sizeof(keep));
	assert_int_equal(famfs_log_next(t->fs.log), 2);
	/* one short of the end of it, and one slot into it */
	set_next(t, 3);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	set_next(t, 1 + 1);
	assert_int_equal(famfs_log_append(&t->fs, &e), -EUCLEAN);
	assert_memory_equal(slot(t, 1), keep, sizeof(keep));
	/* repaired: appends go on after it */
	set_next(t, 4);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(t->fs.last_append, 4);
}

/* A client reads a full log whose last slot holds an entry past next_index
 * (an append to the last slot that crashed before its commit): dropping
 * its cache lines must stay inside the log's mapping (an unmapped page
 * right after it: a fault otherwise) */
static void test_client_last_slot(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fsck_result r;
	struct seen s = { 0 };
	uint64_t cap, len;
	uint8_t *res;
	void *mv;

	th_become_client(t);
	cap = le64toh(t->fs.log->capacity);
	len = t->fs.logm.len;
	build(&e, 20, 1, 5);
	assert_int_equal(put_raw(t, &e, cap - 1), 1);
	set_next(t, cap - 1);
	/* the log mapping moved in front of a page that is not mapped */
	res = mmap(NULL, len + 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		   -1, 0);
	assert_true(res != MAP_FAILED);
	mv = mremap(t->fs.logm.addr, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
		    res);
	assert_true(mv == res);
	t->fs.logm.addr = mv;
	t->fs.log = mv;
	assert_int_equal(famfs_log_walk_past(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.idx[0], cap - 1);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	munmap(res + len, 4096);
}

/* the master's creates through the library: allocation, cache, log */
static void test_creates_through_cache(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	char p[300];

	for (unsigned i = 0; i < 20; i++) {
		int fd;

		/* one component (no parents to make): 12 or 200 bytes */
		memset(p, 'y', sizeof(p));
		snprintf(p, sizeof(p), "f%02u", i);
		p[3] = 'y';
		p[i % 2 ? 200 : 12] = '\0';
		fd = famfs_file_create(&t->fs, p, 1000, 0644, 0, 0);
		assert_true(fd >= 0);
		close(fd);
	}
	assert_int_equal(famfs_mkdir(&t->fs, "dd", 0755, 0, 0, false), 0);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.files, 20);
	assert_int_equal(r.dirs, 1);
	assert_int_equal(famfs_log_next(t->fs.log), 10 + 10 * 2 + 1);
	/* a path twice is refused by the cache */
	assert_true(famfs_file_create(&t->fs, p, 1, 0644, 0, 0) < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_append_walk_slots, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_logplay_rounds, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_torn_written_not_committed, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_torn_partial_not_committed, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_torn_committed, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_lost_many, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_mid_entry, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_mid_entry_held, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_client_last_slot, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_r4_scan_bound, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_earlier_fs_entries_ignored, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_creates_through_cache, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_every_bit_flip, setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
