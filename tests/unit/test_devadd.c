// SPDX-License-Identifier: GPL-2.0
/* Several devices in the log (issue 16): DEVADD entries (encode, decode,
 * order rules, R2), extents that name a member (added earlier in the log,
 * in its bounds, else unparseable), the device table a walk builds, and a
 * torn DEVADD append. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "th.h"

static const uint8_t U1[16] = { 0xd1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
static const uint8_t U2[16] = { 0xd2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2 };
#define MSIZE (32 * MiB)

struct seen {
	unsigned n, bad;
	uint64_t idx[16];
	bool ok[16];
	char why[16][FAMFS_REASON_LEN];
};

static int collect(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct seen *s = arg;

	(void)e;
	if (s->n < 16) {
		s->idx[s->n] = idx;
		s->ok[s->n] = ok;
		snprintf(s->why[s->n], FAMFS_REASON_LEN, "%s", reason);
	}
	s->n++;
	s->bad += !ok;
	return 0;
}

static void set_incompat(struct th *t, uint32_t bits)
{
	th_sb_media(t)->feature_incompat = htole32(le32toh(t->fs.sb->feature_incompat) | bits);
	th_sb_commit(t);
}

/* a compact fs with MULTIDEV set */
static int setup(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);

	set_incompat(t, FAMFS_FEATURE_INCOMPAT_MULTIDEV);
	*state = t;
	return 0;
}

static int append_devadd(struct th *t, uint32_t index, const uint8_t *u,
			 uint64_t size)
{
	struct famfs_log_entry e;

	famfs_entry_build_devadd(&e, index, u, size);
	return famfs_log_append(&t->fs, &e);
}

/* a FILE entry of one extent on device dev */
static void build_on(struct famfs_log_entry *e, const char *path,
		     unsigned dev, uint64_t off, uint64_t len)
{
	struct famfs_log_simple_ext x = { htole64(off), htole64(len) };

	assert_int_equal(famfs_entry_build(e, FAMFS_LOG_FILE, path, len, 0644,
					   0, 0, &x, 1), 0);
	e->fm.reserved[0] = (uint8_t)dev;
}

static int append_on(struct th *t, const char *path, unsigned dev,
		     uint64_t off, uint64_t len)
{
	struct famfs_log_entry e;

	build_on(&e, path, dev, off, len);
	return famfs_log_append(&t->fs, &e);
}

/* a reader that has read nothing yet (its device table new) and the
 * entry at slot k not whole here (a byte of its body flipped: its CRC
 * fails): the byte's address, as it was in *keep (unless NULL) */
static uint8_t *unread_slot(struct th *t, uint64_t k, uint8_t *keep)
{
	uint8_t *p = famfs_clog_slot(t->fs.log, k) +
		     sizeof(struct famfs_clog_hdr) + 4;

	if (keep)
		*keep = *p;
	*p ^= 0xff;
	famfs_logdevs_init(&t->fs.devs, t->fs.sb);
	return p;
}

/* s (cleared first): what a walk of t's log sees, its messages not
 * printed */
static void walk_quiet(struct th *t, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	famfs_quiet = 1;
	assert_int_equal(famfs_log_walk(&t->fs, collect, s), 0);
	famfs_quiet = 0;
}

static void test_devadd_roundtrip(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e, d;
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	char why[FAMFS_REASON_LEN];
	const struct famfs_clog_devadd *b;

	famfs_entry_build_devadd(&e, 1, U1, MSIZE);
	assert_int_equal(famfs_clog_encode(&e, 7, t->fs.sb->fs_uuid, buf, why), 1);
	b = (const void *)(buf + sizeof(struct famfs_clog_hdr));
	assert_int_equal(le16toh(((struct famfs_clog_hdr *)buf)->type),
			 FAMFS_LOG_DEVADD);
	assert_int_equal(le32toh(b->index), 1);
	assert_memory_equal(b->dev_uuid, U1, 16);
	assert_int_equal(le64toh(b->device_size), MSIZE);
	assert_int_equal(famfs_clog_verify(buf, 7, 1, t->fs.sb->fs_uuid, why), 1);
	assert_int_equal(famfs_clog_decode(buf, 7, t->fs.sb->fs_uuid, &d, why), 0);
	assert_int_equal(famfs_entry_check_devs(&d, 7, t->fs.sb, NULL, why), 0);
	assert_memory_equal(famfs_entry_devadd(&d), b, sizeof(*b));
	/* a reserved byte of the body set: refused */
	buf[sizeof(struct famfs_clog_hdr) + 4] = 1;
	((struct famfs_clog_hdr *)buf)->crc =
		htole32(famfs_clog_crc(buf, 1, t->fs.sb->fs_uuid));
	assert_int_equal(famfs_clog_decode(buf, 7, t->fs.sb->fs_uuid, &d, why), 0);
	assert_int_not_equal(famfs_entry_check_devs(&d, 7, t->fs.sb, NULL, why), 0);
	/* a byte after the body: refused by the decoder */
	buf[sizeof(struct famfs_clog_hdr) + 4] = 0;
	buf[200] = 1;
	((struct famfs_clog_hdr *)buf)->crc =
		htole32(famfs_clog_crc(buf, 1, t->fs.sb->fs_uuid));
	assert_int_equal(famfs_clog_decode(buf, 7, t->fs.sb->fs_uuid, &d, why),
			 -EINVAL);
}

/* R2: without MULTIDEV a DEVADD is corrupt, and so is an extent on a
 * member; the master then allocates nothing (R3) */
static void test_devadd_needs_bit(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct seen s = { 0 };
	char why[FAMFS_REASON_LEN];
	struct famfs_log_entry e;

	(void)state;
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 1);
	assert_false(s.ok[0]);
	assert_non_null(strstr(s.why[0], "multi-device"));
	famfs_entry_build_devadd(&e, 1, U1, MSIZE);
	assert_int_not_equal(famfs_entry_owned(&e, 0, t->fs.sb, why), 0);
	/* an extent on device 1: unparseable, no allocation */
	assert_int_equal(append_on(t, "f", 1, 2 * MiB, 2 * MiB), 0);
	assert_int_equal(famfs_file_create(&t->fs, "g", 100, 0644, 0, 0),
			 -EUCLEAN);
	/* the first famfs devadd (it sets the bit): index 1, the log's
	 * entries no device entries */
	{
		unsigned index = 0;

		assert_int_equal(famfs_fs_devs_next_index(&t->fs, &index), 0);
		assert_int_equal(index, 1);
	}
	th_free(t);
}

static void test_devadd_table(void **state)
{
	struct th *t = *state;
	const struct famfs_logdev *d;
	struct famfs_bitmap b;
	struct famfs_fsck_result r;
	struct seen s = { 0 };

	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	assert_int_equal(append_devadd(t, 2, U2, 2 * MSIZE), 0);
	/* the same offset on two devices is no overlap */
	assert_int_equal(append_on(t, "on1", 1, 4 * MiB, 4 * MiB), 0);
	assert_int_equal(append_on(t, "on2", 2, 4 * MiB, 4 * MiB), 0);
	assert_int_equal(append_on(t, "on0", 0, 4 * MiB, 2 * MiB), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 5);
	assert_int_equal(s.bad, 0);
	assert_int_equal(t->fs.devs.ndevs, 3);
	d = famfs_logdevs_get(&t->fs.devs, 2);
	assert_non_null(d);
	assert_memory_equal(d->dev_uuid, U2, 16);
	assert_int_equal(d->size, 2 * MSIZE);
	assert_int_equal(d->data_start, FAMFS_MEMBER_DATA_OFFSET);
	assert_int_equal(d->log_idx, 1);
	assert_null(famfs_logdevs_get(&t->fs.devs, 3));
	/* device 0's allocator sees only device 0's extents */
	assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
	assert_true(famfs_bitmap_test(&b, 2));
	assert_false(famfs_bitmap_test(&b, 3));
	famfs_bitmap_free(&b);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	/* no overlap; the only problems: the two members are not on this
	 * host (test_place fsck_members has them) */
	assert_int_equal(r.members_bad, 2);
	assert_int_equal(r.problems, 2);
	assert_int_equal(r.files, 3);
	/* a new file still lands on device 0, and is not over "on0" */
	{
		int fd = famfs_file_create(&t->fs, "new", 100, 0644, 0, 0);
		struct famfs_log_entry e;

		assert_true(fd >= 0);
		close(fd);
		assert_int_equal(famfs_log_entry_at(&t->fs, t->fs.last_append, &e), 0);
		assert_int_equal(famfs_entry_devindex(&e, 0), 0);
		assert_int_not_equal(le64toh(e.fm.ext.simple[0].offset), 4 * MiB);
	}
}

/* DEVADD order: the next index only, no duplicate device uuid */
static void test_devadd_order(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	assert_int_equal(append_devadd(t, 2, U2, MSIZE), 0);	/* skips 1 */
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	assert_int_equal(append_devadd(t, 2, U1, MSIZE), 0);	/* uuid again */
	assert_int_equal(append_devadd(t, 2, U2, MSIZE), 0);
	assert_int_equal(append_devadd(t, 3, U2, MSIZE), 0);	/* uuid again */
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 5);
	assert_false(s.ok[0]);
	assert_non_null(strstr(s.why[0], "next index is 1"));
	assert_true(s.ok[1]);
	assert_false(s.ok[2]);
	assert_non_null(strstr(s.why[2], "added as index 1"));
	assert_true(s.ok[3]);
	assert_false(s.ok[4]);
	assert_int_equal(t->fs.devs.ndevs, 3);
	assert_memory_equal(t->fs.devs.dev[2].dev_uuid, U2, 16);
	assert_int_equal(t->fs.devs.dev[2].log_idx, 3);
}

/* an extent on a device no DEVADD *before it* added, or outside the
 * member's data area: unparseable (R3: the master allocates nothing) */
static void test_devindex_unknown(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };
	char why[FAMFS_REASON_LEN];
	struct famfs_log_entry e;

	assert_int_equal(append_on(t, "early", 1, 4 * MiB, 2 * MiB), 0);
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	assert_int_equal(append_on(t, "late", 1, 4 * MiB, 2 * MiB), 0);
	assert_int_equal(append_on(t, "unknown", 5, 4 * MiB, 2 * MiB), 0);
	assert_int_equal(append_on(t, "sb", 1, 0, 2 * MiB), 0);
	assert_int_equal(append_on(t, "past", 1, MSIZE - 2 * MiB, 4 * MiB), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.n, 6);
	assert_false(s.ok[0]);
	assert_non_null(strstr(s.why[0], "no device entry before it"));
	assert_true(s.ok[2]);
	assert_false(s.ok[3]);
	assert_false(s.ok[4]);
	assert_non_null(strstr(s.why[4], "member superblock"));
	assert_false(s.ok[5]);
	assert_non_null(strstr(s.why[5], "outside device 1"));
	/* each one is unparseable, not only refused */
	for (unsigned i = 0; i < 6; i++) {
		if (s.ok[i])
			continue;
		assert_int_equal(famfs_log_entry_at(&t->fs, s.idx[i], &e), 0);
		assert_int_not_equal(famfs_entry_owned_devs(&e, s.idx[i], t->fs.sb,
							    &t->fs.devs, why), 0);
	}
	assert_int_equal(famfs_file_create(&t->fs, "g", 100, 0644, 0, 0),
			 -EUCLEAN);
}

/* a DEVADD written but not committed (a crash between the two flushes)
 * adds nothing; the next append commits it first, and then it counts */
static void test_torn_devadd(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	uint8_t *slot1 = (uint8_t *)t->fs.log + FAMFS_LOG_HDR_SIZE;

	th_append_dir(t, "d");
	famfs_entry_build_devadd(&e, 1, U1, MSIZE);
	assert_int_equal(famfs_clog_encode(&e, 1, t->fs.sb->fs_uuid, buf, NULL), 1);
	memcpy(slot1 + FAMFS_CLOG_SLOT, buf, FAMFS_CLOG_SLOT);
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	assert_int_equal(t->fs.devs.ndevs, 1);
	/* an extent on it now would be unparseable; a directory rolls it
	 * forward */
	th_append_dir(t, "e");
	assert_int_equal(famfs_log_next(t->fs.log), 3);
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	assert_int_equal(t->fs.devs.ndevs, 2);
	assert_int_equal(append_on(t, "f", 1, 4 * MiB, 2 * MiB), 0);
	{
		struct seen s = { 0 };

		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.bad, 0);
		assert_int_equal(s.n, 4);
	}
	/* only its first bytes written: nothing verifies, nothing added */
	famfs_entry_build_devadd(&e, 2, U2, MSIZE);
	assert_int_equal(famfs_clog_encode(&e, 4, t->fs.sb->fs_uuid, buf, NULL), 1);
	memcpy(slot1 + 4 * FAMFS_CLOG_SLOT, buf, 24);
	th_append_dir(t, "g");
	assert_int_equal(t->fs.last_append, 4);
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	assert_int_equal(t->fs.devs.ndevs, 2);
}

/* a reader that meets a committed DEVADD before it reads whole here (a
 * stale line, a bounce read torn by a write near it): host-local, read
 * again -- and when it verifies, the member is added and the files on it
 * are judged with it, not refused for good because the device table was
 * past it already (devs.next) */
static void test_devadd_read_torn(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };
	uint8_t *p, keep;
	uint64_t k;

	th_append_dir(t, "d");
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	k = famfs_log_next(t->fs.log) - 1;
	assert_int_equal(append_on(t, "f", 1, 4 * MiB, 2 * MiB), 0);
	p = unread_slot(t, k, &keep);
	walk_quiet(t, &s);
	assert_int_equal(s.n, 3);
	assert_false(s.ok[1]);
	assert_false(s.ok[2]);
	*p = keep;
	walk_quiet(t, &s);
	assert_int_equal(s.n, 3);
	if (s.bad)
		fail_msg("read whole now, but refused: %s / %s", s.why[1], s.why[2]);
	assert_int_equal(t->fs.devs.ndevs, 2);
}

/* a walk whose callback runs another (famfs_fs_devs_update; the log's
 * discovery): what the walk said of its entry -- fs->walk_torn, as
 * fs->walk_next -- is the same after it, not what the inner walk's last
 * entry was */
struct nested {
	struct famfs_fs *fs;
	uint64_t idx;
	bool before, after, seen;
};

static int nest(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		bool ok, const char *reason)
{
	struct nested *w = arg;

	(void)e, (void)ok, (void)reason;
	if (idx != w->idx)
		return 0;
	w->seen = true;
	w->before = w->fs->walk_torn;
	/* as a reader that has not read the devices yet */
	famfs_logdevs_init(&w->fs->devs, w->fs->sb);
	assert_int_equal(famfs_fs_devs_update(w->fs), 0);
	w->after = w->fs->walk_torn;
	return 0;
}

static void test_nested_walk_keeps_torn(void **state)
{
	struct th *t = *state;
	struct nested w = { .fs = &t->fs };

	th_append_dir(t, "d");
	/* an extent on a device no entry added: host-local (-EPROTO) */
	assert_int_equal(append_on(t, "f", 1, 4 * MiB, 2 * MiB), 0);
	w.idx = famfs_log_next(t->fs.log) - 1;
	th_append_dir(t, "e");
	famfs_quiet = 1;
	assert_int_equal(famfs_log_walk(&t->fs, nest, &w), 0);
	famfs_quiet = 0;
	assert_true(w.seen);
	assert_true(w.before);
	if (!w.after)
		fail_msg("the inner walk changed walk_torn of entry %llu",
			 (unsigned long long)w.idx);
}

/* an entry that never verifies (a CRC-bad slot on the media, corrupt on
 * every host for good -- not a DEVADD, no DEVADD in it) before a DEVADD:
 * the later member is still added (devs.next may wait at a DEVADD read
 * torn, not at any corrupt entry for ever): else every file on it is
 * refused on every host, and the master's next devadd takes its index */
static void test_corrupt_entry_before_devadd(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };
	uint64_t k;

	th_append_dir(t, "d");
	th_append_dir(t, "x");
	k = famfs_log_next(t->fs.log) - 1;
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	assert_int_equal(append_on(t, "f", 1, 4 * MiB, 2 * MiB), 0);
	/* directory x's slot corrupt for good */
	unread_slot(t, k, NULL);
	walk_quiet(t, &s);
	assert_int_equal(s.n, 4);
	assert_false(s.ok[1]);
	if (!s.ok[3])
		fail_msg("file on member 1 refused after a corrupt directory entry: %s",
			 s.why[3]);
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	assert_int_equal(t->fs.devs.ndevs, 2);
}

/* a walk whose device table stopped at a DEVADD read torn when the walk
 * began (devs.next, 562f795) and which then reads it whole: a later DEVADD
 * -- whole, committed, applied by every other host -- is judged against
 * the table without the first ("the next index is 1"): -EINVAL of a
 * written entry, so said corrupt as every host reads it (walk_torn
 * false), not host-local */
struct race {
	struct famfs_fs *fs;
	uint8_t *p, keep;
	uint64_t dev2;
	bool seen, ok2, torn2;
	char why[FAMFS_REASON_LEN];
};

static int race_cb(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		   bool ok, const char *reason)
{
	struct race *r = arg;

	(void)e;
	if (!idx)
		*r->p = r->keep;	/* the line read whole from now on */
	if (idx == r->dev2) {
		r->seen = true;
		r->ok2 = ok;
		r->torn2 = r->fs->walk_torn;
		snprintf(r->why, sizeof(r->why), "%s", reason);
	}
	return 0;
}

static void test_devadd_after_stuck_is_local(void **state)
{
	struct th *t = *state;
	struct race r = { .fs = &t->fs };
	uint64_t k;

	th_append_dir(t, "d");
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	k = famfs_log_next(t->fs.log) - 1;
	r.dev2 = famfs_log_next(t->fs.log);
	assert_int_equal(append_devadd(t, 2, U2, MSIZE), 0);
	r.p = unread_slot(t, k, &r.keep);
	famfs_quiet = 1;
	assert_int_equal(famfs_log_walk(&t->fs, race_cb, &r), 0);
	famfs_quiet = 0;
	assert_true(r.seen);
	if (!r.ok2 && !r.torn2)
		fail_msg("DEVADD 2 judged corrupt as every host reads it: %s", r.why);
}

/* the table of a reader with a slot that never verifies: updated again,
 * the member added after it is the same (not added twice, no error); the
 * master's devadd refuses (the slot may be a DEVADD: its index may be
 * taken) until the slot reads, and then takes the next index */
static void test_stuck_update_again(void **state)
{
	struct th *t = *state;
	uint8_t *p, keep;
	unsigned index = 99;
	uint64_t k, d1;

	th_append_dir(t, "d");
	th_append_dir(t, "x");
	k = famfs_log_next(t->fs.log) - 1;
	d1 = famfs_log_next(t->fs.log);
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	th_append_dir(t, "y");
	p = unread_slot(t, k, &keep);
	famfs_quiet = 1;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
		assert_int_equal(t->fs.devs.ndevs, 2);
		assert_int_equal(t->fs.devs.dev[1].log_idx, d1);
		assert_memory_equal(t->fs.devs.dev[1].dev_uuid, U1, 16);
		assert_int_equal(t->fs.devs.next, k);
		assert_int_equal(famfs_fs_devs_next_index(&t->fs, &index),
				 -EBADMSG);
		assert_int_equal(index, 99);
	}
	famfs_quiet = 0;
	*p = keep;
	assert_int_equal(famfs_fs_devs_next_index(&t->fs, &index), 0);
	assert_int_equal(index, 2);
	assert_int_equal(t->fs.devs.next, famfs_log_next(t->fs.log));
}

/* a DEVADD that does not read whole here, and the next one whole: that
 * one's index is past the next one here -- host-local (a device this
 * host has not seen), not added, the files on it wait; when the first
 * reads, both are added.  With every entry before it read, an index
 * past the next one is corrupt as every host reads it (devadd_order) */
static void test_devadd_gap_waits(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };
	uint8_t *p, keep;
	uint64_t k;

	th_append_dir(t, "d");
	k = famfs_log_next(t->fs.log);
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	assert_int_equal(append_devadd(t, 2, U2, MSIZE), 0);
	assert_int_equal(append_on(t, "f", 2, 4 * MiB, 2 * MiB), 0);
	p = unread_slot(t, k, &keep);
	walk_quiet(t, &s);
	assert_int_equal(s.n, 4);
	assert_false(s.ok[1]);
	assert_false(s.ok[2]);
	assert_non_null(strstr(s.why[2], "has not seen"));
	assert_false(s.ok[3]);
	assert_int_equal(t->fs.devs.ndevs, 1);
	assert_int_equal(t->fs.devs.next, k);
	*p = keep;
	memset(&s, 0, sizeof(s));
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(t->fs.devs.ndevs, 3);
	assert_int_equal(t->fs.devs.next, famfs_log_next(t->fs.log));
}

/* a log with a duplicate index behind an entry a host cannot read yet (as
 * the master before 8a6572e wrote it: its table stuck at a DEVADD read
 * torn, devadd reused index 1): a host that reads k whole has member 1 =
 * U1 (entry k) and the later DEVADD 1 corrupt (a duplicate); a host whose
 * table was built while k did not read whole adds the later one as member
 * 1 (U2), and once k reads whole it is met again and dropped by the
 * idempotent add -- the hosts disagree on member 1 for good */
static void test_stuck_then_duplicate_agrees(void **state)
{
	struct th *t = *state;
	struct famfs_logdevs fresh;
	uint8_t *p, keep;
	uint64_t k, k2;

	th_append_dir(t, "d");
	k = famfs_log_next(t->fs.log);
	assert_int_equal(append_devadd(t, 1, U1, MSIZE), 0);
	p = unread_slot(t, k, &keep);
	famfs_quiet = 1;
	/* (the old master: index 1 again) */
	k2 = famfs_log_next(t->fs.log);
	assert_int_equal(append_devadd(t, 1, U2, MSIZE), 0);
	famfs_logdevs_init(&t->fs.devs, t->fs.sb);
	/* host B: its table built while k does not read whole */
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	*p = keep;
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	famfs_quiet = 0;
	assert_int_equal(t->fs.devs.next, famfs_log_next(t->fs.log));
	/* host A: every entry read whole */
	fresh = t->fs.devs;
	famfs_logdevs_init(&t->fs.devs, t->fs.sb);
	assert_int_equal(famfs_fs_devs_update(&t->fs), 0);
	assert_memory_equal(t->fs.devs.dev[1].dev_uuid, U1, 16);
	assert_int_equal(t->fs.devs.dev[1].log_idx, k);
	if (memcmp(fresh.dev[1].dev_uuid, U1, 16) || fresh.dev[1].log_idx != k)
		fail_msg("member 1 is the DEVADD at %llu (duplicate, corrupt on a host that read %llu whole) on a host whose table once stuck at %llu",
			 (unsigned long long)k2, (unsigned long long)k,
			 (unsigned long long)k);
}

/* a v1 log never names a member: nonzero bytes there are unparseable */
static void test_v1_no_devindex(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, false);
	struct famfs_superblock sb;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];

	(void)state;
	build_on(&e, "x", 1, 4 * MiB, 2 * MiB);
	e.seq = 0;
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_not_equal(famfs_entry_check(&e, 0, t->fs.sb, why), 0);
	assert_int_not_equal(famfs_entry_owned(&e, 0, t->fs.sb, why), 0);
	/* MULTIDEV without a compact log is refused */
	sb = *t->fs.sb;
	sb.feature_incompat |= htole32(FAMFS_FEATURE_INCOMPAT_MULTIDEV);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, 0, why), -EINVAL);
	assert_non_null(strstr(why, "compact"));
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_devadd_roundtrip, setup, th_teardown),
		cmocka_unit_test(test_devadd_needs_bit),
		cmocka_unit_test_setup_teardown(test_devadd_table, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_devadd_order, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_devindex_unknown, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_torn_devadd, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_devadd_read_torn, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_nested_walk_keeps_torn, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_corrupt_entry_before_devadd, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_devadd_after_stuck_is_local, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_stuck_update_again, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_devadd_gap_waits, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_stuck_then_duplicate_agrees, setup, th_teardown),
		cmocka_unit_test(test_v1_no_devindex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
