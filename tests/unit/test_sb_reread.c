// SPDX-License-Identifier: GPL-2.0
/* The superblock read again (famfs_fs_sb_reread) and rewritten (a feature
 * change, the master role) when the media no longer verifies: through a
 * mapping, not only through a bounce buffer.  The copy kept must be the
 * one that verified; a superblock that does not verify is never re-CRCed
 * (that would bless the damage for every host). */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

/* len bytes at off of the image, read or written through the file (not
 * a mapping; a mapping of it sees a write at once) */
static void img_io(struct th *t, bool wr, void *buf, size_t len, off_t off)
{
	int fd = open(t->img, wr ? O_RDWR : O_RDONLY);

	assert_true(fd >= 0);
	assert_int_equal(wr ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off),
			 (ssize_t)len);
	close(fd);
}

/* a reserved byte of the superblock on the media (a bad CRC) */
static void damage(struct th *t)
{
	uint8_t junk = 0x5a;

	img_io(t, true, &junk, 1, 200);
}

static int media_check(struct th *t)
{
	struct famfs_superblock sb;

	img_io(t, false, &sb, sizeof(sb), 0);
	return famfs_sb_check(&sb, 0, NULL);
}

/* a reader with a mapping (no bounce buffer): the re-read fails, and what
 * it keeps is the superblock it verified at open, not the damaged bytes
 * the mapping shows */
static void test_reread_mapped_keeps_verified(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	char why[FAMFS_REASON_LEN] = "";

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	damage(t);
	assert_int_not_equal(famfs_fs_sb_reread(&r, why), 0);
	assert_non_null(strstr(why, "CRC"));
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	/* twice: the kept copy stays the verified one */
	assert_int_not_equal(famfs_fs_sb_reread(&r, NULL), 0);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* the master changes a feature bit while the superblock on the media does
 * not verify: refused, naming the device, and the media left as it was
 * (still failing its check), not re-CRCed with the damage in it */
static void test_feature_change_on_bad_sb_refused(void **state)
{
	struct th *t = *state;
	char msg[4096];
	int rc;

	assert_true(t->fs.master);
	damage(t);
	th_stderr_grab();
	rc = famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
				     FAMFS_FEATURE_INCOMPAT_MULTIDEV, 0);
	th_stderr_take(msg, sizeof(msg));
	assert_int_not_equal(rc, 0);
	assert_int_not_equal(media_check(t), 0);
	assert_non_null(strstr(msg, t->img));
	assert_int_equal(famfs_sb_check(t->fs.sb, 0, NULL), 0);
	assert_false(le32toh(t->fs.sb->feature_incompat) &
		     FAMFS_FEATURE_INCOMPAT_MULTIDEV);
}

/* the same for the master role's write (famfs master claim -f) */
static void test_master_claim_on_bad_sb_refused(void **state)
{
	struct th *t = *state;
	int rc;

	damage(t);
	famfs_quiet = 1;
	rc = famfs_master_claim(&t->fs, true);
	famfs_quiet = 0;
	assert_int_not_equal(rc, 0);
	assert_int_not_equal(media_check(t), 0);
}

/* a superblock that verifies again after a bad read is taken again */
static void test_reread_good_again(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;
	uint8_t zero = 0;

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	damage(t);
	assert_int_not_equal(famfs_fs_sb_reread(&r, NULL), 0);
	img_io(t, true, &zero, 1, 200);
	assert_int_equal(famfs_fs_sb_reread(&r, NULL), 0);
	assert_false(r.sb_reread_bad);
	assert_ptr_equal(r.sb, &r.sb_kept);
	assert_memory_equal(r.sb, r.sbm.addr, sizeof(*r.sb));
	famfs_fs_close(&r);
}

/* after a re-read that verified, fs->sb is what was verified: damage
 * written since (another host's torn or bad write, seen through a
 * mapping at once) does not reach it until it is read and verified again */
static void test_reread_good_is_a_copy(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	assert_int_equal(famfs_fs_sb_reread(&r, NULL), 0);
	damage(t);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* the same from the opening on: what an opening verified is what fs->sb
 * shows until a re-read verifies (an opening of the device) */
static void test_open_is_a_copy(void **state)
{
	struct th *t = *state;
	struct famfs_fs r;

	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	damage(t);
	assert_int_equal(famfs_sb_check(r.sb, 0, NULL), 0);
	famfs_fs_close(&r);
}

/* a feature change judged on a copy that is out of date: another opening
 * of the same master set the bit since; clearing it must still clear it
 * on the media, not return "nothing to write" from the old copy */
static void test_feature_change_judged_on_media(void **state)
{
	struct th *t = *state;
	const uint32_t nc = FAMFS_FEATURE_INCOMPAT_NONCOHERENT;
	struct famfs_fs r;
	struct famfs_superblock sb;

	assert_int_equal(famfs_fs_open_dev(t->img, true, &r), 0);
	assert_int_equal(famfs_fs_change_feature(&r, FAMFS_FEAT_INCOMPAT, nc, 0), 0);
	famfs_fs_close(&r);
	assert_false(le32toh(t->fs.sb->feature_incompat) & nc);	/* stale */
	assert_int_equal(famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, 0, nc), 0);
	img_io(t, false, &sb, sizeof(sb), 0);
	assert_false(le32toh(sb.feature_incompat) & nc);
	assert_false(le32toh(t->fs.sb->feature_incompat) & nc);
}

/* the superblock on the media rewritten whole, with a good CRC (another
 * host's famfs mkfs, or a hostile one), edited by edit() */
static void media_rewrite(struct th *t, void (*edit)(struct famfs_superblock *))
{
	struct famfs_superblock sb;

	img_io(t, false, &sb, sizeof(sb), 0);
	edit(&sb);
	famfs_sb_set_crc(&sb);
	assert_int_equal(famfs_sb_check(&sb, 0, NULL), 0);
	img_io(t, true, &sb, sizeof(sb), 0);
}

static void no_compact(struct famfs_superblock *sb)
{
	sb->feature_incompat &= ~htole32(FAMFS_FEATURE_INCOMPAT_COMPACT_LOG);
}

static void other_uuid(struct famfs_superblock *sb)
{
	sb->fs_uuid[0] ^= 0xff;
}

static void longer_log(struct famfs_superblock *sb)
{
	sb->log_len = htole64(le64toh(sb->log_len) * 2);
}

static void noncoherent(struct famfs_superblock *sb)
{
	sb->feature_incompat |= htole32(FAMFS_FEATURE_INCOMPAT_NONCOHERENT);
}

/* the master sets a feature bit while the superblock on the media is
 * another one (a good CRC, another geometry: another host's mkfs): the
 * re-read under the lock refuses it (-ESTALE), so nothing is written
 * onto it -- not this file system's bit with a fresh CRC */
static void test_feature_change_on_other_sb_refused(void **state)
{
	struct th *t = *state;
	struct famfs_superblock before, after;
	char msg[4096];
	int fd, rc;

	assert_true(t->fs.master);
	media_rewrite(t, longer_log);
	fd = open(t->img, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pread(fd, &before, sizeof(before), 0), (ssize_t)sizeof(before));
	th_stderr_grab();
	rc = famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT,
				     FAMFS_FEATURE_INCOMPAT_NONCOHERENT, 0);
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(pread(fd, &after, sizeof(after), 0), (ssize_t)sizeof(after));
	close(fd);
	assert_int_equal(rc, -ESTALE);
	assert_memory_equal(&before, &after, sizeof(before));
	assert_non_null(strstr(msg, t->img));
	assert_null(strstr(msg, "but not read back"));
}

/* the same for an append: the master's log is not that superblock's (its
 * uuid or geometry differ: another host's mkfs over it); an entry
 * appended would be read by no host as this file system's */
static void test_append_under_other_sb_refused(void **state)
{
	struct th *t = *state;
	struct famfs_log_entry e;
	struct famfs_log_simple_ext ext = { htole64(8 * MiB), htole64(2 * MiB) };
	uint64_t next = famfs_log_next(t->fs.log);
	char msg[4096];
	int rc;

	assert_true(t->fs.master);
	th_append_dir(t, "d");		/* the role is claimed and remembered */
	next = famfs_log_next(t->fs.log);
	media_rewrite(t, other_uuid);
	assert_int_equal(famfs_entry_build(&e, FAMFS_LOG_FILE, "f", 4096, 0644,
					   0, 0, &ext, 1), 0);
	th_stderr_grab();
	rc = famfs_log_append(&t->fs, &e);
	th_stderr_take(msg, sizeof(msg));
	assert_int_equal(rc, -ESTALE);
	assert_int_equal(famfs_log_next(t->fs.log), next);
	assert_non_null(strstr(msg, t->img));
	assert_non_null(strstr(msg, "another file system"));
}

/* what an opening mapped (the log's length and format, the device's size,
 * the file system it is) came from the superblock it verified: a re-read
 * that finds another one there (a good CRC: another host's mkfs) keeps
 * the copy, or the log would be read past its mapping in the other
 * format, or another file system's log taken for this one's.  Feature
 * bits and the master still change. */
static void test_reread_keeps_geometry(void **state)
{
	void (*const edits[])(struct famfs_superblock *) = {
		no_compact, other_uuid, longer_log,
	};
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, true);
	struct famfs_superblock orig;
	struct famfs_fs r;
	char why[FAMFS_REASON_LEN];

	(void)state;
	img_io(t, false, &orig, sizeof(orig), 0);
	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		media_rewrite(t, edits[i]);
		why[0] = '\0';
		if (!famfs_fs_sb_reread(&r, why))
			fail_msg("edit %zu: another superblock taken on a re-read", i);
		assert_true(r.sb_reread_bad);
		assert_non_null(strstr(why, "superblock"));
		assert_memory_equal(r.sb, &orig, sizeof(orig));
		assert_true(famfs_fs_compact(&r));
		img_io(t, true, &orig, sizeof(orig), 0);
		assert_int_equal(famfs_fs_sb_reread(&r, NULL), 0);
	}
	/* a feature bit: taken */
	media_rewrite(t, noncoherent);
	assert_int_equal(famfs_fs_sb_reread(&r, NULL), 0);
	assert_true(le32toh(r.sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_NONCOHERENT);
	famfs_fs_close(&r);
	th_free(t);
}

/* a v1 log's header rewritten after the opening checked it (torn, or
 * hostile): next_index and capacity far past the log.  A walk reads the
 * slots the opening's geometry holds, never past the mapping. */
static int count_cb(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		    bool ok, const char *reason)
{
	(void)idx, (void)e, (void)ok, (void)reason;
	(*(uint64_t *)arg)++;
	return 0;
}

/* the log header's 8-byte field at off (16: next_index, 24: capacity)
 * rewritten on the media to far past the log */
static void hdr_past_log(struct th *t, off_t off)
{
	uint64_t big = htole64(1ULL << 20);

	img_io(t, true, &big, 8, FAMFS_LOG_OFFSET + off);
}

/* the entries a walk of r reports, after a re-read when reread */
static uint64_t walk_count(struct famfs_fs *r, bool reread)
{
	uint64_t n = 0;

	famfs_quiet = 1;
	if (!reread || !famfs_fs_sb_reread(r, NULL))
		famfs_log_walk(r, count_cb, &n);
	famfs_quiet = 0;
	return n;
}

static void test_walk_bounded_by_verified_geometry(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, false);
	struct famfs_fs r;

	(void)state;
	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	hdr_past_log(t, 16);
	hdr_past_log(t, 24);
	assert_true(walk_count(&r, false) <= famfs_log_cap(&r));
	famfs_fs_close(&r);
	th_free(t);
}

static void log_extend(struct famfs_superblock *sb)
{
	sb->feature_incompat |= htole32(FAMFS_FEATURE_INCOMPAT_LOG_EXTEND);
}

/* the same with the log-growth bit on a v1 log's superblock (it verifies:
 * a v1 log has no segments, and a re-read takes a feature bit) */
static void test_walk_v1_extend_bit_bounded(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, false);
	struct famfs_fs r;

	(void)state;
	assert_int_equal(famfs_fs_open_dev(t->img, false, &r), 0);
	media_rewrite(t, log_extend);
	hdr_past_log(t, 16);
	assert_true(walk_count(&r, true) <= famfs_log_cap(&r));
	famfs_fs_close(&r);
	th_free(t);
}

/* the master record too: what famfs_mrec_refresh hands out (to be judged,
 * then remembered as this instance's) is a copy, read once; another host's
 * write to the record after that does not reach it */
static void test_mrec_is_a_copy(void **state)
{
	struct th *t = *state;
	const struct famfs_master_record *r;
	struct famfs_master_record saved;
	uint8_t *media;

	th_append_dir(t, "d");		/* the first append claims */
	r = famfs_mrec_refresh(&t->fs);
	assert_int_equal(le64toh(r->magic), FAMFS_MREC_MAGIC);
	saved = *r;
	media = (uint8_t *)th_sb_media(t) + FAMFS_MREC_OFFSET;
	media[16] ^= 0xff;		/* its generation */
	assert_memory_equal(r, &saved, sizeof(saved));
	media[16] ^= 0xff;
	/* the claim still stands: the append after it is allowed */
	th_append_dir(t, "e");
}

/* a feature change whose result does not verify (the multi-device feature
 * on a v1 log, an incompat bit this tool does not know) is refused before
 * a byte is written: on the media it would make every host refuse the file
 * system, and this one's copy would stay without the bit */
static void test_feature_change_result_must_verify(void **state)
{
	struct th *t = th_new_fmt(64 * MiB, 2 * MiB, false);
	const uint32_t bits[] = { FAMFS_FEATURE_INCOMPAT_MULTIDEV, 1u << 30 };

	(void)state;
	th_append_dir(t, "d");		/* the master role claimed */
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		famfs_quiet = 1;
		if (!famfs_fs_change_feature(&t->fs, FAMFS_FEAT_INCOMPAT, bits[i], 0))
			fail_msg("incompat 0x%x set on a superblock it makes fail its check", bits[i]);
		famfs_quiet = 0;
		assert_int_equal(media_check(t), 0);
		assert_false(le32toh(t->fs.sb->feature_incompat) & bits[i]);
	}
	th_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reread_mapped_keeps_verified, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_feature_change_on_bad_sb_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_master_claim_on_bad_sb_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reread_good_again, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_reread_good_is_a_copy, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_open_is_a_copy, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_feature_change_judged_on_media, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_feature_change_on_other_sb_refused, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_append_under_other_sb_refused, th_setup, th_teardown),
		cmocka_unit_test(test_reread_keeps_geometry),
		cmocka_unit_test(test_walk_bounded_by_verified_geometry),
		cmocka_unit_test(test_walk_v1_extend_bit_bounded),
		cmocka_unit_test_setup_teardown(test_mrec_is_a_copy, th_setup, th_teardown),
		cmocka_unit_test(test_feature_change_result_must_verify),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
