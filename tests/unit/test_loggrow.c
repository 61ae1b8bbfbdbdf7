// SPDX-License-Identifier: GPL-2.0
/* Log growth (INCOMPAT_LOG_EXTEND): slot numbering across segments, an
 * entry that spans two, EXTEND refusals, a growth torn at every flush, the
 * allocator, the summary, and the automatic growth of a full log. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "th.h"
#include "th_loggrow.h"


static void say(void *arg, const char *msg)
{
	(void)arg;
	fprintf(stderr, "fsck: %s\n", msg);
}

static uint64_t fsck_problems(struct th *t)
{
	struct famfs_fsck_result r;

	assert_int_equal(famfs_fsck_cb(&t->fs, &r, say, NULL), 0);
	return r.problems;
}

/* slot i is at the same address arithmetic in every segment, and the
 * bytes of segment 1 are on the device at its offset */
static void test_slot_mapping(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	uint8_t dev[FAMFS_CLOG_SLOT];
	uint64_t off;
	int fd;

	assert_int_equal(famfs_log_cap(&t->fs), C0);
	assert_int_equal(grow(t, 4 * MiB), 0);
	assert_true(le32toh(t->fs.sb->feature_incompat) &
		    FAMFS_FEATURE_INCOMPAT_LOG_EXTEND);
	assert_int_equal(t->fs.nsegs, 2);
	assert_int_equal(t->fs.seg[1].first, C0);
	assert_int_equal(famfs_log_cap(&t->fs), C0 + 4 * MiB / 256);
	assert_ptr_equal(t->fs.seg[1].m.addr,
			 (uint8_t *)t->fs.log + FAMFS_LOG_HDR_SIZE + C0 * 256);
	/* device-dax maps only at its alignment */
	assert_int_equal((uintptr_t)t->fs.log % (2 * MiB), 0);
	assert_int_equal((uintptr_t)t->fs.seg[1].m.addr % (2 * MiB), 0);
	off = t->fs.seg[1].dev_off;
	assert_true(off >= famfs_data_start(t->fs.sb) && off % (2 * MiB) == 0);
	/* the EXTEND entry: slot 0, one slot */
	assert_int_equal(famfs_log_next(t->fs.log), 1);
	assert_int_equal(famfs_log_entry_at(&t->fs, 0, &e), 0);
	assert_int_equal(le16toh(e.type), FAMFS_LOG_EXTEND);
	assert_int_equal(le64toh(e.fm.ext.simple[0].offset), off);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, NULL), 0);
	/* the first slot of segment 1 through the view lands at off */
	fill_to(t, C0 - 1);
	build_dir(&e, 1, 1);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);	/* C0 - 1 */
	assert_int_equal(famfs_log_append(&t->fs, (build_dir(&e, 2, 1), &e)), 0);
	assert_int_equal(t->fs.last_append, C0);
	fd = open(t->img, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, dev, sizeof(dev), (off_t)off), sizeof(dev));
	close(fd);
	assert_int_equal(le64toh(((struct famfs_clog_hdr *)dev)->seq), C0);
	/* and a new opening (from the device) finds segment 1 by its entry */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_cap(&t->fs), C0);
	assert_int_equal(famfs_log_entry_at(&t->fs, C0, &e), 0);
	assert_int_equal(famfs_log_cap(&t->fs), C0 + 4 * MiB / 256);
	assert_int_equal(strncmp(e.fm.path, "d2x", 3), 0);
}

/* an entry of 3 slots across the end of segment 0 */
static void test_span_boundary(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct seen s = { 0 };

	assert_int_equal(grow(t, 2 * MiB), 0);
	fill_to(t, C0 - 1);
	build_dir(&e, 7, 3);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(t->fs.last_append, C0 - 1);
	assert_int_equal(famfs_log_next(t->fs.log), C0 + 2);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ext, 1);
	assert_int_equal(s.last, C0 - 1);
	assert_int_equal(famfs_log_entry_at(&t->fs, C0 - 1, &e), 0);
	assert_int_equal(strlen(e.fm.path), 492);
	assert_int_equal(fsck_problems(t), 0);
}

/* EXTEND entries the reader refuses */
static void test_extend_refusals(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	char why[FAMFS_REASON_LEN];
	uint64_t ds = famfs_data_start(t->fs.sb);

	/* bit clear: corrupt and unparseable (R2, R3) */
	famfs_entry_build_extend(&e, 1, ds, 2 * MiB);
	e.seq = 0;
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_owned(&e, 0, t->fs.sb, why), -EPROTONOSUPPORT);
	assert_non_null(strstr(why, "log-extend feature"));
	assert_int_not_equal(famfs_entry_check(&e, 0, t->fs.sb, why), 0);
	/* with the bit: good, then each refusal */
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
			 FAMFS_FEATURE_INCOMPAT_LOG_EXTEND, 0), 0);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), 0);
	famfs_entry_build_extend(&e, 1, ds + 4096, 2 * MiB);	/* misaligned */
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_int_not_equal(famfs_entry_owned(&e, 0, t->fs.sb, NULL), 0);
	famfs_entry_build_extend(&e, 1, 2 * MiB, 2 * MiB);	/* the log */
	memcpy(e.fs_uuid, t->fs.sb->fs_uuid, 16);
	famfs_entry_set_crc(&e);
	assert_int_equal(famfs_entry_check(&e, 0, t->fs.sb, why), -EINVAL);
	assert_non_null(strstr(why, "overlaps the superblock or log"));
	/* segment numbers in order; no overlap with an earlier segment */
	assert_int_equal(grow(t, 2 * MiB), 0);
	famfs_entry_build_extend(&e, 3, ds + 20 * MiB, 2 * MiB);
	assert_int_equal(famfs_logseg_add(&t->fs, &e, 5, why), -EINVAL);
	assert_non_null(strstr(why, "the next one is 2"));
	famfs_entry_build_extend(&e, 2, t->fs.seg[1].dev_off, 2 * MiB);
	assert_int_equal(famfs_logseg_add(&t->fs, &e, 5, why), -EINVAL);
	assert_non_null(strstr(why, "overlaps log segment 1"));
	famfs_entry_build_extend(&e, 1, ds + 30 * MiB, 2 * MiB);
	assert_int_equal(famfs_logseg_add(&t->fs, &e, 5, why), -EINVAL);
	assert_int_equal(t->fs.nsegs, 2);
	/* a wrong segment number in the log: a corrupt entry there */
	famfs_entry_build_extend(&e, 5, ds + 40 * MiB, 2 * MiB);
	assert_int_equal(famfs_log_append(&t->fs, &e), 0);
	assert_int_equal(th_reopen(t), 0);
	{
		struct seen s = { 0 };

		assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
		assert_int_equal(s.bad, 1);
		assert_non_null(strstr(s.why, "the next one is 2"));
	}
	/* ... whose memory stays used (R3: its range parses) */
	{
		struct famfs_bitmap b;

		assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
		assert_true(famfs_bitmap_test(&b, (ds + 40 * MiB) / (2 * MiB)));
		famfs_bitmap_free(&b);
	}
	/* a v1 log cannot grow */
	famfs_quiet = 1;
	th_free(t);
	*state = t = th_new_fmt(64 * MiB, 2 * MiB, false);
	assert_int_equal(grow(t, 2 * MiB), -EOPNOTSUPP);
	famfs_quiet = 0;
}

/* the compact form of an EXTEND entry: one slot, round trip, refusals */
static void test_extend_codec(void **state)
{
	struct th *t = *state;
	const uint8_t *u = t->fs.sb->fs_uuid;
	struct famfs_log_entry e, d;
	struct famfs_clog_hdr *h;
	struct famfs_clog_extend *x;
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	char why[FAMFS_REASON_LEN];

	famfs_entry_build_extend(&e, 3, 40 * MiB, 6 * MiB);
	assert_int_equal(famfs_clog_encode(&e, 77, u, buf, why), 1);
	h = (void *)buf;
	x = (void *)(buf + sizeof(*h));
	assert_int_equal(le16toh(h->type), FAMFS_LOG_EXTEND);
	assert_int_equal(le64toh(x->offset), 40 * MiB);
	assert_int_equal(le64toh(x->len), 6 * MiB);
	assert_int_equal(le32toh(x->segment), 3);
	assert_int_equal(famfs_clog_verify(buf, 77, 4, u, why), 1);
	assert_int_equal(famfs_clog_decode(buf, 77, u, &d, why), 0);
	assert_int_equal(le64toh(d.fm.size), 3);
	assert_int_equal(le64toh(d.fm.ext.simple[0].offset), 40 * MiB);
	assert_int_equal(le64toh(d.fm.ext.simple[0].len), 6 * MiB);
	/* a reserved byte: decoded (its memory known), refused */
	x->pad[3] = 1;
	h->crc = htole32(famfs_clog_crc(buf, 1, u));
	assert_int_equal(famfs_clog_decode(buf, 77, u, &d, why), -EINVAL);
	assert_int_equal(le64toh(d.fm.ext.simple[0].offset), 40 * MiB);
	x->pad[3] = 0;
	buf[200] = 1;		/* past the body */
	h->crc = htole32(famfs_clog_crc(buf, 1, u));
	assert_int_equal(famfs_clog_decode(buf, 77, u, &d, why), -EINVAL);
	buf[200] = 0;
	/* two slots: no such EXTEND entry, its memory unknown */
	h->nslots = 2;
	h->crc = htole32(famfs_clog_crc(buf, 2, u));
	assert_int_equal(famfs_clog_verify(buf, 77, 4, u, why), 2);
	assert_int_equal(famfs_clog_decode(buf, 77, u, &d, why), -EPROTO);
}

/* ---- a growth torn at every flush ---- */
static jmp_buf crash;
static int crash_at, flushes;

static void crash_hook(const struct famfs_map *m, const void *a, size_t n)
{
	(void)m, (void)a, (void)n;
	if (++flushes == crash_at)
		longjmp(crash, 1);
}

static void test_torn_growth(void **state)
{
	struct th *volatile t = *state;
	volatile int done = 0;

	famfs_quiet = 1;
	for (crash_at = 1; !done && crash_at < 20; crash_at++) {
		struct famfs_log_entry e;
		struct famfs_bitmap b;
		uint64_t u;
		bool owned;

		th_free(t);
		*state = t = th_new_fmt(64 * MiB, 2 * MiB, true);
		fill_to(t, 3);
		flushes = 0;
		famfs_flush_hook = crash_hook;
		if (!setjmp(crash)) {
			assert_int_equal(grow(t, 4 * MiB), 0);
			done = 1;
		}
		famfs_flush_hook = NULL;
		famfs_fs_unlock(&t->fs);
		/* the host came back: a new opening of the memory */
		t->fs.locked = false;
		assert_int_equal(th_reopen(t), 0);
		/* the memory of a segment whose EXTEND entry verifies
		 * (committed or at next_index, R4) is used, else free */
		assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
		owned = famfs_log_entry_at(&t->fs, 3, &e) == 0 &&
			le16toh(e.type) == FAMFS_LOG_EXTEND;
		u = owned ? le64toh(e.fm.ext.simple[0].offset) / (2 * MiB) :
			    famfs_data_start(t->fs.sb) / (2 * MiB);
		assert_int_equal(famfs_bitmap_test(&b, u), owned);
		famfs_bitmap_free(&b);
		assert_int_equal(fsck_problems(t), 0);
		/* and the master goes on: a growth (or the one it rolls
		 * forward) and entries into segment 1 */
		assert_int_equal(famfs_fs_lock(&t->fs), 0);
		assert_int_equal(famfs_fs_cache_update(&t->fs), 0);
		if (t->fs.nsegs < 2)
			assert_int_equal(famfs_log_grow(&t->fs, 4 * MiB), 0);
		famfs_fs_unlock(&t->fs);
		assert_int_equal(t->fs.nsegs, 2);
		fill_to(t, famfs_log_next(t->fs.log) + 3);
		assert_int_equal(th_reopen(t), 0);
		assert_int_equal(fsck_problems(t), 0);
	}
	famfs_quiet = 0;
	assert_true(done);
	assert_true(crash_at > 4);	/* bit, zeroing, entry, commit */
}

/* the allocator never gives a segment to a file; the summary after
 * growth is rebuilt (superblock changed), then trusted */
static void test_alloc_and_summary(void **state)
{
	struct th *t = *state;
	struct famfs_fsck_result r;
	uint64_t seg, u;
	int fd;

	fd = famfs_file_create(&t->fs, "a", 2 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(grow(t, 8 * MiB), 0);
	seg = t->fs.seg[1].dev_off / (2 * MiB);
	famfs_summary_stats.rebuilds = 0;
	for (unsigned i = 0; i < 3; i++) {
		char p[8];

		assert_int_equal(th_reopen(t), 0);
		snprintf(p, sizeof(p), "f%u", i);
		fd = famfs_file_create(&t->fs, p, 4 * MiB, 0644, 0, 0);
		assert_true(fd >= 0);
		close(fd);
	}
	/* the first create after the growth rebuilt, the next ones loaded */
	assert_int_equal(famfs_summary_stats.rebuilds, 1);
	assert_int_equal(famfs_fsck(&t->fs, &r), 0);
	assert_int_equal(r.problems, 0);
	assert_int_equal(r.files, 4);
	{
		struct famfs_bitmap b;

		assert_int_equal(famfs_bitmap_build(&t->fs, &b), 0);
		for (u = seg; u < seg + 4; u++)
			assert_true(famfs_bitmap_test(&b, u));
		famfs_bitmap_free(&b);
	}
	/* df: the total capacity, the segment reserved, not used */
	{
		struct famfs_df df;

		assert_int_equal(famfs_df(&t->fs, &df), 0);
		assert_int_equal(df.log_capacity, C0 + 8 * MiB / 256);
		assert_int_equal(df.log_segments, 1);
		assert_int_equal(df.log_len, 10 * MiB);
		assert_int_equal(df.used, (2 + 3 * 4) * MiB);
	}
}

/* a full log grows by itself, once, and says so */
static void test_autogrow(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_df df;

	fill_to(t, C0 - 1);
	/* without the lock (no master append path): full, last slot kept */
	build_dir(&e, 1, 1);
	famfs_quiet = 1;
	assert_int_equal(famfs_log_append(&t->fs, &e), -ENOSPC);
	/* FAMFS_LOG_AUTOGROW=0: refused */
	setenv("FAMFS_LOG_AUTOGROW", "0", 1);
	assert_int_equal(famfs_mkdir(&t->fs, "x0", 0755, 0, 0, false), -ENOSPC);
	unsetenv("FAMFS_LOG_AUTOGROW");
	famfs_quiet = 0;
	assert_int_equal(t->fs.nsegs, 1);
	assert_int_equal(famfs_mkdir(&t->fs, "x1", 0755, 0, 0, false), 0);
	assert_int_equal(t->fs.nsegs, 2);
	assert_int_equal(t->fs.seg[1].len, 2 * MiB);	/* doubled */
	assert_int_equal(famfs_mkdir(&t->fs, "x2", 0755, 0, 0, false), 0);
	assert_int_equal(t->fs.nsegs, 2);
	assert_int_equal(famfs_df(&t->fs, &df), 0);
	assert_int_equal(df.log_capacity, 2 * C0 + 4);
	assert_int_equal(df.log_used, C0 + 2);
	assert_int_equal(famfs_df_log_warn("x", &df), 0);	/* 50 % */
	assert_true(th_exists(t, "x2", true));
	assert_int_equal(fsck_problems(t), 0);
}

/* a file made when the log is full: the log grows before famfs.ko is
 * given the file's map, whose identity is the index its FILE entry gets
 * (grown at the append, the EXTEND entry took that index) */
static void test_autogrow_file_identity(void **state)
{
	struct th *t = *state;
	struct famfs_fmap m;
	char p[700];
	int fd;

	fill_to(t, C0 - 1);
	famfs_quiet = 1;
	fd = famfs_file_create(&t->fs, "f", 2 * MiB, 0644, 0, 0);
	famfs_quiet = 0;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(t->fs.nsegs, 2);
	snprintf(p, sizeof(p), "%s/f", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	assert_true(m.has_ident);
	assert_int_equal(m.ident, t->fs.last_append);
}

/* no free run of the size asked: refused, nothing written */
static void test_no_room(void **state)
{
	struct th *t = *state;
	uint64_t next = famfs_log_next(t->fs.log);
	uint32_t inc = le32toh(t->fs.sb->feature_incompat);

	famfs_quiet = 1;
	assert_int_equal(grow(t, 128 * MiB), -ENOSPC);
	famfs_quiet = 0;
	assert_int_equal(famfs_log_next(t->fs.log), next);
	assert_int_equal(le32toh(t->fs.sb->feature_incompat), inc);
	assert_int_equal(t->fs.nsegs, 1);
}

/* bytes read from the device (bounce buffers, as on /dev/pmemN) by an
 * opening, 100 appends, a new opening, a walk, fsck and a create */
static uint64_t cost(uint64_t loglen)
{
	struct th *t;
	struct seen s = { 0 };
	uint64_t c;
	int fd;

	famfs_dev_bounce_files = true;
	famfs_bounce_bytes = 0;
	t = th_new_fmt(loglen + 64 * MiB, loglen, true);
	fill_to(t, 100);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(fsck_problems(t), 0);
	fd = famfs_file_create(&t->fs, "f", 2 * MiB, 0644, 0, 0);
	assert_true(fd >= 0);
	close(fd);
	c = famfs_bounce_bytes;
	th_free(t);
	famfs_dev_bounce_files = false;
	return c;
}

/* mount's check before mount(2) reads the superblock and the log header
 * from a block device, not the whole 2 MiB superblock region (6.2 M of an
 * empty mount's 12.2 M guest instructions went to that read) */
static void test_mount_check_reads_heads(void **state)
{
	struct famfs_fs r;
	struct th *t;
	int rc;

	(void)state;
	t = th_new_fmt(64 * MiB, 8 * MiB, true);
	famfs_dev_bounce_files = true;
	famfs_bounce_bytes = 0;
	rc = famfs_fs_open_dev_head(t->img, &r);
	famfs_dev_bounce_files = false;	/* whatever is asserted below */
	assert_int_equal(rc, 0);
	assert_true(r.master);
	assert_int_equal(le64toh(r.sb->log_len), 8 * MiB);
	famfs_fs_close(&r);
	assert_int_equal(famfs_bounce_bytes, 2 * 4096);
	th_free(t);
}

/* at least 1M entries without slowing a small file system down: a 1 GiB
 * log (4,194,300 slots) costs what an 8 MiB one does */
static void test_big_log_same_cost(void **state)
{
	uint64_t small = cost(8 * MiB), big = cost(1ULL << 30);

	(void)state;
	assert_int_equal(FAMFS_CLOG_CAPACITY(1ULL << 30), 4194300);
	assert_int_equal(big, small);
	assert_true(small <= 8 * MiB);
}

/* issue 27 item 1: an opening keeps its create cache after a create and
 * lets the lock go; another opening (another process) creates b1 and fills
 * the log; the first one's mkdir then meets a full log and grows it inside
 * its append.  The segment must come from an allocator that saw b1: else
 * it lands on b1's memory, zeroes it, and the log is written into it. */
static void test_grow_sees_other_opening(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_fmap m;
	struct famfs_fs b;
	uint64_t boff, off, len;
	char p[400];

	th_create_ok(&t->fs, "a", 2 * MiB);
	assert_non_null(t->fs.cache_alloc);	/* kept, the lock let go */
	assert_int_equal(famfs_fs_open_dev(t->img, true, &b), 0);
	snprintf(b.mpt, sizeof(b.mpt), "%s", t->mpt);
	th_create_ok(&b, "b1", 2 * MiB);
	for (unsigned i = 0; famfs_log_next(b.log) < C0 - 1; i++) {
		build_dir(&e, 300000 + i,
			  famfs_log_next(b.log) + 4 <= C0 - 1 ? 4 : 1);
		assert_int_equal(famfs_log_append(&b, &e), 0);
	}
	famfs_fs_close(&b);
	snprintf(p, sizeof(p), "%s/b1", t->mpt);
	assert_int_equal(th_mock_lookup_fmap(p, &m), 0);
	boff = m.ext[0].offset;
	/* the first opening's mkdir: the log is full, it grows */
	assert_int_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), 0);
	assert_int_equal(t->fs.nsegs, 2);
	off = t->fs.seg[1].dev_off;
	len = t->fs.seg[1].len;
	assert_false(off < boff + 2 * MiB && boff < off + len);
	assert_int_equal(fsck_problems(t), 0);
}

/* issue 27 item 6: an opening whose create cache came from the summary
 * never read the EXTEND entries before the summary's index, so (opened
 * from the device, next_index inside segment 0) it has not mapped segment
 * 1.  Its growth must still be segment 2: a second EXTEND entry for
 * segment 1 is refused by every reader, and the entries this opening
 * writes into its segment afterwards go where nobody reads them. */
static void test_grow_after_summary(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	assert_int_equal(grow(t, 2 * MiB), 0);
	th_create_ok(&t->fs, "a", 2 * MiB);	/* the summary, saved at close */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(t->fs.nsegs, 1);	/* segment 1 not met yet */
	famfs_summary_stats.rebuilds = 0;
	assert_int_equal(grow(t, 2 * MiB), 0);
	assert_int_equal(famfs_summary_stats.rebuilds, 0);	/* loaded */
	assert_int_equal(t->fs.nsegs, 3);
	/* entries into segment 2, all read back by a new opening */
	fill_to(t, C0 + 8192 + 10);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ext, 2);
	assert_true(s.last >= C0 + 8192);
	assert_int_equal(fsck_problems(t), 0);
}

/* the same opening (segment 1 not met, next_index at the end of segment
 * 0): the log is not full, segment 1 has room.  An append goes on into
 * it -- neither "log full" without the lock, nor a needless growth (a
 * segment of memory taken for nothing) with it. */
static void test_full_seg0_after_summary(void **state)
{
	struct th *t = *state;
	struct seen s = { 0 };

	assert_int_equal(grow(t, 2 * MiB), 0);
	th_create_ok(&t->fs, "a", 2 * MiB);
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(t->fs.nsegs, 1);
	fill_to(t, C0 - 1);		/* without the lock: no growth */
	assert_int_equal(t->fs.nsegs, 1);
	fill_to(t, C0 + 2);		/* the rest goes into segment 1 */
	assert_int_equal(t->fs.nsegs, 2);
	assert_int_equal(famfs_mkdir(&t->fs, "x", 0755, 0, 0, false), 0);
	assert_int_equal(t->fs.nsegs, 2);	/* not grown */
	assert_int_equal(th_reopen(t), 0);
	assert_int_equal(famfs_log_walk(&t->fs, collect, &s), 0);
	assert_int_equal(s.bad, 0);
	assert_int_equal(s.ext, 1);
	assert_true(s.last >= C0 + 2);
	assert_int_equal(fsck_problems(t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_slot_mapping, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_span_boundary, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_extend_refusals, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_extend_codec, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_torn_growth, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_alloc_and_summary, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_autogrow, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_autogrow_file_identity, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_no_room, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_grow_sees_other_opening, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_grow_after_summary, setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_full_seg0_after_summary, setup, th_teardown),
		cmocka_unit_test(test_big_log_same_cost),
		cmocka_unit_test(test_mount_check_reads_heads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
