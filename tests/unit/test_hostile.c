// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile metadata, over a plain image file (cheap enough for every bit):
 * - every single-bit flip of the superblock is refused at open;
 * - every single-bit flip of the log header is refused, except in
 *   next_index, where a value within capacity is accepted and the slots it
 *   then claims are reported corrupt;
 * - every single-bit flip of the first, a middle and the last log entry
 *   makes exactly that entry corrupt (fsck walk), and logplay (mocked
 *   famfs.ko) skips it and creates every other file;
 * - seeded random mutations of an entry or the superblock with the CRC made
 *   right again: whatever the checks accept obeys every format rule, so no
 *   file is ever created from a nonsensical entry (ASan/UBSan watch the
 *   parsing);
 * - next_index pointing at garbage, at a torn (half-written) entry, or
 *   short of the last entry.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "th.h"

static const char *const files[] = { "a", NULL, "d/b", "c", "e" };
#define NENT 5
#define FIRST 0
#define MIDDLE 2
#define LAST 4

/* entries: 0 file a, 1 dir d, 2 file d/b, 3 file c, 4 file e */
static void populate(struct th *t)
{
	th_append_file(t, "a", 4 * MiB, 2 * MiB, 1000);
	th_append_dir(t, "d");
	th_append_file(t, "d/b", 6 * MiB, 4 * MiB, 3 * MiB + 5);
	th_append_file(t, "c", 10 * MiB, 2 * MiB, 2 * MiB);
	th_append_file(t, "e", 12 * MiB, 2 * MiB, 0);
}

struct walk_res { int bad, ok; uint64_t first_bad; };

static int count_cb(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		    bool ok, const char *reason)
{
	struct walk_res *w = arg;

	(void)e;
	(void)reason;
	if (ok) {
		w->ok++;
	} else {
		if (!w->bad)
			w->first_bad = idx;
		w->bad++;
	}
	return 0;
}

static struct walk_res walk(struct famfs_fs *fs)
{
	struct walk_res w = { 0 };

	assert_int_equal(famfs_log_walk(fs, count_cb, &w), 0);
	return w;
}

static void flip(void *base, size_t bit)
{
	((uint8_t *)base)[bit / 8] ^= (uint8_t)(1u << (bit % 8));
}

static void test_sb_every_bit(void **state)
{
	struct th *t = *state;
	struct famfs_fs fs;

	populate(t);
	for (size_t bit = 0; bit < FAMFS_SB_SIZE * 8; bit++) {
		flip(th_sb_media(t), bit);
		if (famfs_fs_open_dev(t->img, false, &fs) != -EBADMSG)
			fail_msg("superblock bit %zu flipped: opened", bit);
		flip(th_sb_media(t), bit);
	}
	assert_int_equal(famfs_fs_open_dev(t->img, false, &fs), 0);
	famfs_fs_close(&fs);
}

static void test_log_header_every_bit(void **state)
{
	struct th *t = *state;
	struct famfs_fs fs;
	size_t accepted = 0;

	populate(t);
	for (size_t bit = 0; bit < FAMFS_LOG_HDR_SIZE * 8; bit++) {
		size_t byte = bit / 8;
		int rc;

		flip(t->fs.log, bit);
		rc = famfs_fs_open_dev(t->img, false, &fs);
		if (byte >= 16 && byte < 24) {	/* next_index: no CRC */
			uint64_t n = le64toh(t->fs.log->next_index);

			if (n > FAMFS_LOG_CAPACITY(2 * MiB)) {
				assert_int_equal(rc, -EBADMSG);
			} else {
				struct walk_res w;

				assert_int_equal(rc, 0);
				w = walk(&fs);
				accepted++;
				/* the 5 real entries stay valid (or are cut
				 * short); every slot beyond them is corrupt */
				assert_int_equal(w.ok, n < NENT ? n : NENT);
				assert_int_equal(w.bad, n > NENT ? n - NENT : 0);
				famfs_fs_close(&fs);
			}
		} else if (rc != -EBADMSG) {
			fail_msg("log header bit %zu flipped: opened", bit);
		}
		flip(t->fs.log, bit);
	}
	/* bits 0..10 of next_index (5 = 0b101) stay within 2047 */
	assert_int_equal(accepted, 11);
}

static void entry_every_bit(struct th *t, int idx)
{
	struct famfs_log_entry *e;
	char path[FAMFS_LOG_PATH_MAX];

	populate(t);
	e = famfs_log_slot(t->fs.log, idx);
	snprintf(path, sizeof(path), "%s", e->fm.path);
	for (size_t bit = 0; bit < FAMFS_LOG_ENTRY_SIZE * 8; bit++) {
		struct walk_res w;

		flip(e, bit);
		w = walk(&t->fs);
		if (w.bad != 1 || w.first_bad != (uint64_t)idx || w.ok != NENT - 1)
			fail_msg("entry %d bit %zu: %d bad (first %llu), %d ok",
				 idx, bit, w.bad, (unsigned long long)w.first_bad,
				 w.ok);
		if (bit % 61 == 0) {
			struct famfs_logplay_result r;

			th_remount(t);
			assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
			assert_int_equal(r.bad_entries, 1);
			assert_int_equal(r.conflicts + r.errors, 0);
			for (int i = 0; i < NENT; i++)
				if (files[i] && i != idx &&
				    !th_exists(t, files[i], false))
					fail_msg("entry %d bit %zu: %s not replayed",
						 idx, bit, files[i]);
			if (th_exists(t, path, false))
				fail_msg("entry %d bit %zu: %s created from a corrupt entry",
					 idx, bit, path);
		}
		flip(e, bit);
	}
	assert_int_equal(walk(&t->fs).bad, 0);
}

static void test_first_entry_every_bit(void **state)
{
	entry_every_bit(*state, FIRST);
}

static void test_middle_entry_every_bit(void **state)
{
	entry_every_bit(*state, MIDDLE);
}

static void test_last_entry_every_bit(void **state)
{
	entry_every_bit(*state, LAST);
}

/* ---- mutations with the CRC made right ------------------------------------- */
static uint64_t rs = 0x5eed;

static uint64_t rnd(void)
{
	uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t boundary(uint64_t devsz)
{
	static const uint64_t v[] = { 0, 1, 2, 3, 4, 16, 17, 511, 512,
		2 * MiB - 1, 2 * MiB, 2 * MiB + 1, 4 * MiB, 07777, 010000,
		~0ULL, ~0ULL - 2 * MiB + 1, 1ULL << 63, 0xffff, 0x10000 };

	switch (rnd() % 4) {
	case 0: return v[rnd() % (sizeof(v) / sizeof(v[0]))];
	case 1: return devsz + (rnd() % 5) * 2 * MiB - 4 * MiB;
	case 2: return (rnd() % 40) * 2 * MiB;
	default: return rnd();
	}
}

static void put(void *p, int width, uint64_t v)
{
	uint8_t *b = p;

	for (int i = 0; i < width; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

/* Everything a checked entry promises (famfs_format.h). */
static void entry_obeys_rules(const struct famfs_log_entry *e, uint64_t idx,
			      const struct famfs_superblock *sb)
{
	const struct famfs_log_fmeta *fm = &e->fm;
	char norm[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN];
	size_t n = strnlen(fm->path, sizeof(fm->path));
	uint64_t total = 0, dstart = famfs_data_start(sb);
	uint64_t dsize = famfs_sb_dev_size(sb);

	assert_int_equal(le64toh(e->seq), idx);
	assert_memory_equal(e->fs_uuid, sb->fs_uuid, 16);
	assert_int_equal(e->flags, 0);
	assert_true(n < sizeof(fm->path));
	assert_int_equal(le16toh(fm->path_len), n);
	assert_int_equal(famfs_relpath_normalize(fm->path, norm, reason), 0);
	assert_string_equal(norm, fm->path);
	for (const char *c = fm->path; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
		if (!strncmp(c, "..", 2) && (c[2] == '/' || !c[2]))
			fail_msg("entry %llu accepted with a '..' component: %s",
				 (unsigned long long)idx, fm->path);
	assert_int_equal(le32toh(fm->mode) & ~07777U, 0);
	if (le16toh(e->type) == FAMFS_LOG_MKDIR) {
		assert_int_equal(fm->size, 0);
		assert_int_equal(fm->nextents, 0);
		return;
	}
	assert_int_equal(le16toh(e->type), FAMFS_LOG_FILE);
	assert_int_equal(le16toh(fm->extent_type), FAMFS_LOG_EXT_SIMPLE);
	assert_true(fm->nextents &&
		    le16toh(fm->nextents) <= FAMFS_LOG_MAX_SIMPLE_EXT);
	for (unsigned i = 0; i < le16toh(fm->nextents); i++) {
		uint64_t off = le64toh(fm->ext.simple[i].offset);
		uint64_t len = le64toh(fm->ext.simple[i].len);

		for (unsigned j = 0; j < i; j++) {	/* apart */
			uint64_t o = le64toh(fm->ext.simple[j].offset);
			uint64_t l = le64toh(fm->ext.simple[j].len);

			assert_true(off >= o + l || o >= off + len);
		}

		assert_int_equal(off % (2 * MiB), 0);
		assert_int_equal(len % (2 * MiB), 0);
		assert_true(len > 0);
		assert_true(off >= dstart);
		assert_true(off + len >= off && off + len <= dsize);
		total += len;
	}
	assert_true(le64toh(fm->size) <= total);
}

static void test_entry_mutations_crc_fixed(void **state)
{
	struct th *t = *state;
	unsigned accepted = 0;

	populate(t);
	for (int it = 0; it < 30000; it++) {
		uint64_t idx = rnd() % NENT;
		struct famfs_log_entry e = *famfs_log_slot(t->fs.log, idx);
		char reason[FAMFS_REASON_LEN];
		uint8_t *b = (uint8_t *)&e;
		int nmut = 1 + (int)(rnd() % 3);

		while (nmut--) {
			switch (rnd() % 14) {
			case 0: put(&e.seq, 8, boundary(64 * MiB)); break;
			case 1: put(&e.type, 2, rnd() % 4); break;
			case 2: put(&e.flags, 2, boundary(0)); break;
			case 3: b[16 + rnd() % 16] ^= 1; break;
			case 4: put(&e.fm.size, 8, boundary(64 * MiB)); break;
			case 5: put(&e.fm.mode, 4, boundary(0)); break;
			case 6: put(&e.fm.extent_type, 2, rnd() % 4); break;
			case 7: put(&e.fm.nextents, 2, boundary(0)); break;
			case 8: put(&e.fm.ext.simple[rnd() % 3].offset, 8,
				    boundary(64 * MiB));
				break;
			case 9: put(&e.fm.ext.simple[rnd() % 3].len, 8,
				    boundary(64 * MiB));
				break;
			case 10: put(&e.fm.path_len, 2, boundary(0)); break;
			case 11: {	/* path: dots, slashes, NULs, junk */
				static const char pc[] = "./a\0.m/.";
				size_t at = rnd() % 12;

				e.fm.path[at] = pc[rnd() % (sizeof(pc) - 1)];
				break;
			}
			case 12: b[32 + rnd() % (1024 - 32)] = (uint8_t)rnd(); break;
			default: {	/* a well-formed but different path */
				static const char *const p[] = {
					".meta/.log", "..", "a/../b", "/x", "x/",
					"a//b", ".", ".meta", "ok/path" };
				const char *s = p[rnd() % 9];

				memset(e.fm.path, 0, sizeof(e.fm.path));
				memcpy(e.fm.path, s, strlen(s));
				put(&e.fm.path_len, 2, strlen(s));
				break;
			}
			}
		}
		famfs_entry_set_crc(&e);
		if (famfs_entry_check(&e, idx, t->fs.sb, reason) == 0) {
			accepted++;
			entry_obeys_rules(&e, idx, t->fs.sb);
		} else {
			assert_true(reason[0] != '\0');
		}
	}
	/* some mutations are harmless (ctime, uid, a new valid path) */
	print_message("# %u of 30000 mutated entries accepted, each obeying the rules\n",
		      accepted);
	assert_true(accepted > 0);
}

static void test_sb_mutations_crc_fixed(void **state)
{
	struct th *t = *state;
	struct famfs_superblock good = *t->fs.sb;
	unsigned accepted = 0;

	for (int it = 0; it < 30000; it++) {
		struct famfs_superblock sb = good;
		char reason[FAMFS_REASON_LEN];
		uint64_t llen;

		switch (rnd() % 10) {
		case 0: put(&sb.magic, 8, rnd() % 2 ? boundary(0) : FAMFS_SB_MAGIC ^ 1); break;
		case 1: put(&sb.version, 4, rnd() % 3); break;
		case 2: put(&sb.feature_incompat, 4, 1u << (rnd() % 32)); break;
		case 3: put(&sb.feature_compat, 4, 1u << (rnd() % 32)); break;
		case 4: put(&sb.alloc_unit_shift, 4, 19 + rnd() % 4); break;
		case 5: put(&sb.device_size, 8, boundary(64 * MiB)); break;
		case 6: put(&sb.log_offset, 8, boundary(0)); break;
		case 7: put(&sb.log_len, 8, rnd() % 2 ? boundary(0) :
					   (1ULL << (rnd() % 40))); break;
		case 8: sb.reserved[rnd() % sizeof(sb.reserved)] = 1; break;
		default: sb.fs_uuid[rnd() % 16] ^= 0x10; break;
		}
		famfs_sb_set_crc(&sb);
		if (famfs_sb_check(&sb, 64 * MiB, reason))
			continue;
		accepted++;
		llen = le64toh(sb.log_len);
		assert_int_equal(le64toh(sb.magic), FAMFS_SB_MAGIC);
		assert_int_equal(le32toh(sb.version), FAMFS_FORMAT_VERSION);
		assert_int_equal(le32toh(sb.feature_incompat) &
				 ~FAMFS_FEATURE_INCOMPAT_SUPP, 0);
		assert_int_equal(le32toh(sb.alloc_unit_shift), FAMFS_ALLOC_UNIT_SHIFT);
		assert_int_equal(le64toh(sb.log_offset), FAMFS_LOG_OFFSET);
		assert_true(famfs_loglen_valid(llen));
		assert_true(le64toh(sb.device_size) >= FAMFS_MIN_DEV_SIZE(llen));
		assert_true(le64toh(sb.device_size) <= 64 * MiB);
	}
	print_message("# %u of 30000 mutated superblocks accepted, each obeying the rules\n",
		      accepted);
}

/* next_index one past the last entry, at a slot of garbage or a torn one. */
static void test_next_index_at_garbage(void **state)
{
	struct th *t = *state;
	struct famfs_logplay_result r;
	struct famfs_log_entry *slot;
	struct walk_res w;

	populate(t);
	slot = famfs_log_slot(t->fs.log, NENT);
	/* a torn append: the first half of a copy of entry 3, seq fixed */
	memcpy(slot, famfs_log_slot(t->fs.log, 3), 512);
	slot->seq = htole64(NENT);
	w = walk(&t->fs);
	assert_int_equal(w.bad, 0);	/* beyond next_index: ignored */
	t->fs.log->next_index = htole64(NENT + 1);
	w = walk(&t->fs);
	assert_int_equal(w.bad, 1);
	assert_int_equal(w.first_bad, NENT);
	th_remount(t);
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.bad_entries, 1);
	assert_int_equal(r.created_files, 4);
	/* random bytes there */
	for (int i = 0; i < 1024; i++)
		((uint8_t *)slot)[i] = (uint8_t)rnd();
	assert_int_equal(walk(&t->fs).bad, 1);
	/* next_index short of the last entry: it is simply not there yet */
	t->fs.log->next_index = htole64(NENT - 1);
	w = walk(&t->fs);
	assert_int_equal(w.ok, NENT - 1);
	assert_int_equal(w.bad, 0);
}

/* A name longer than NAME_MAX (255) can exist on no host: an entry with one
 * is corrupt (fsck says so, logplay skips it), not a file to retry forever. */
static void test_name_longer_than_255_is_corrupt(void **state)
{
	struct th *t = *state;
	char name[300], reason[FAMFS_REASON_LEN], norm[FAMFS_LOG_PATH_MAX];
	struct famfs_log_entry *e;
	struct walk_res w;

	populate(t);
	memset(name, 'n', 256);
	name[256] = '\0';
	assert_int_not_equal(famfs_relpath_normalize(name, norm, reason), 0);
	name[255] = '\0';
	assert_int_equal(famfs_relpath_normalize(name, norm, reason), 0);
	/* entry 3 ("c") renamed to d/<256 n>, CRC right */
	e = famfs_log_slot(t->fs.log, 3);
	memset(e->fm.path, 0, sizeof(e->fm.path));
	memcpy(e->fm.path, "d/", 2);
	memset(e->fm.path + 2, 'n', 256);
	e->fm.path_len = htole16(258);
	famfs_entry_set_crc(e);
	w = walk(&t->fs);
	if (w.bad != 1 || w.first_bad != 3)
		fail_msg("an entry with a 256-byte name passes the checks (%d bad)",
			 w.bad);
}

/* A size near 2^64 must not wrap in the allocator: "device full", the log
 * untouched, no file -- not a 2 MiB file logged with a size of 2^64-1 (a
 * corrupt entry the master itself commits). */
static void test_huge_size_refused(void **state)
{
	static const uint64_t sizes[] = {
		~0ULL, ~0ULL - 2 * MiB + 2, ~0ULL - 2 * MiB + 1, 1ULL << 63,
		64 * MiB + 1,
	};
	struct th *t = *state;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t n0 = famfs_log_next(t->fs.log);
		char name[32];
		int fd;

		snprintf(name, sizeof(name), "huge%zu", i);
		fd = famfs_file_create(&t->fs, name, sizes[i], 0644, 0, 0);
		if (fd >= 0 || famfs_log_next(t->fs.log) != n0)
			fail_msg("size %#llx: created (fd %d), log %llu -> %llu entries",
				 (unsigned long long)sizes[i], fd,
				 (unsigned long long)n0,
				 (unsigned long long)famfs_log_next(t->fs.log));
		assert_int_equal(fd, -ENOSPC);
		assert_false(th_exists(t, name, false));
	}
	assert_int_equal(walk(&t->fs).bad, 0);
}

/* famfs.ko refusing one map (e.g. EADDRINUSE: the entry's memory is taken
 * by an earlier, overlapping entry): logplay must not leave behind an empty,
 * unmapped file it created for that entry. */
static const struct famfs_kernel_ops *real_mock;
static const char *refuse_name;

static bool refused_here(int fd)
{
	char link[64], p[700];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, p, sizeof(p) - 1);
	if (n <= 0)
		return false;
	p[n] = '\0';
	return !strcmp(strrchr(p, '/') + 1, refuse_name);
}

/* (a file with an identity comes through MAP_CREATE_V3) */
static int refusing_map_create_v3(int fd, const struct famfs_ioc_map_v2 *h)
{
	return refused_here(fd) ? -EADDRINUSE :
	       real_mock->map_create_v3(fd, h);
}

static int refusing_map_create(int fd, const struct famfs_ioc_map *map)
{
	return refused_here(fd) ? -EADDRINUSE : real_mock->map_create(fd, map);
}

static void test_logplay_refused_map_leaves_no_file(void **state)
{
	struct th *t = *state;
	struct famfs_kernel_ops ops = th_mock_kernel;
	struct famfs_logplay_result r;

	populate(t);
	th_remount(t);
	real_mock = &th_mock_kernel;
	ops.map_create = refusing_map_create;
	ops.map_create_v3 = refusing_map_create_v3;
	refuse_name = "c";
	famfs_kernel = &ops;
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	famfs_kernel = &th_mock_kernel;
	assert_int_equal(r.errors, 1);
	assert_int_equal(r.created_files, 3);
	if (th_exists(t, "c", false))
		fail_msg("logplay left an empty, unmapped file 'c' behind after MAP_CREATE failed");
	assert_true(th_exists(t, "e", false));
	/* the next logplay tries again (and here succeeds) */
	assert_int_equal(famfs_logplay(&t->fs, false, &r), 0);
	assert_int_equal(r.created_files, 1);
	assert_true(th_exists(t, "c", false));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_sb_every_bit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_log_header_every_bit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_first_entry_every_bit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_middle_entry_every_bit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_last_entry_every_bit, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_entry_mutations_crc_fixed, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_sb_mutations_crc_fixed, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_next_index_at_garbage, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_logplay_refused_map_leaves_no_file, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_name_longer_than_255_is_corrupt, th_setup, th_teardown),
		cmocka_unit_test_setup_teardown(test_huge_size_refused, th_setup, th_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
