// SPDX-License-Identifier: GPL-2.0
/* The log entry (famfs_format.h, v1 form): build, CRC, checks, the ranges
 * it owns (the superblock and the log header: sb.c). */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "media/media.h"

#define REASON(...) do { if (reason) snprintf(reason, FAMFS_REASON_LEN, __VA_ARGS__); } while (0)

void famfs_entry_set_crc(struct famfs_log_entry *e)
{
	e->crc = 0;
	e->crc = htole32(famfs_crc32(e, sizeof(*e)));
}

static int check_path(const struct famfs_log_fmeta *fm, char *reason)
{
	char norm[FAMFS_LOG_PATH_MAX];
	size_t n = strnlen(fm->path, sizeof(fm->path));

	if (n == sizeof(fm->path) || n != le16toh(fm->path_len)) {
		REASON("path not NUL-terminated or path_len mismatch");
		return -EINVAL;
	}
	if (!famfs_all_zero(fm->path + n, sizeof(fm->path) - n)) {
		REASON("bytes after the path are not zero");
		return -EINVAL;
	}
	if (famfs_relpath_normalize(fm->path, norm, reason))
		return -EINVAL;
	if (strcmp(norm, fm->path)) {
		REASON("path '%.100s' is not in normal form", fm->path);
		return -EINVAL;
	}
	return 0;
}

/* Who judges an entry: its superblock, and the devices (devs.c) it may
 * name, as of its log index */
struct judge {
	const struct famfs_superblock *sb;
	const struct famfs_logdevs *devs;
	uint64_t index;
};

/* [off, off+len) a 2 MiB-aligned range of device dev's data area; what
 * names it.  -EPROTO: no such device (the entry is unparseable, R3). */
static int check_range(const char *what, unsigned i, uint64_t off,
		       uint64_t len, unsigned dev, const struct judge *j,
		       char *reason)
{
	uint64_t dstart, dsize;
	int rc = famfs_logdevs_area(j->devs, j->sb, dev, j->index, &dstart,
				    &dsize, reason);

	if (rc)
		return rc;
	if (!len || (off | len) & (FAMFS_ALLOC_UNIT - 1)) {
		REASON("%s %u [%llu, +%llu) not 2 MiB aligned", what, i,
		       (unsigned long long)off, (unsigned long long)len);
		return -EINVAL;
	}
	if (off < dstart) {
		REASON("%s %u [%llu, +%llu) overlaps the %s", what, i,
		       (unsigned long long)off, (unsigned long long)len,
		       dev ? "member superblock" : "superblock or log");
		return -EINVAL;
	}
	if (off > dsize || len > dsize - off) {
		if (dev)
			REASON("%s %u [%llu, +%llu) outside device %u (%llu bytes)",
			       what, i, (unsigned long long)off,
			       (unsigned long long)len, dev,
			       (unsigned long long)dsize);
		else
			REASON("%s %u [%llu, +%llu) outside the device (%llu bytes)",
			       what, i, (unsigned long long)off,
			       (unsigned long long)len,
			       (unsigned long long)dsize);
		return -EINVAL;
	}
	return 0;
}

/* 1..16 simple extents; more than 2 only with INCOMPAT_MULTI_EXTENT (R2:
 * -EPROTONOSUPPORT, as for every feature bit) */
static int simple_count_ok(unsigned n, const struct famfs_superblock *sb,
			   char *reason)
{
	if (n < 1 || n > FAMFS_LOG_MAX_SIMPLE_EXT) {
		REASON("bad extent count %u (1..%u)", n,
		       (unsigned)FAMFS_LOG_MAX_SIMPLE_EXT);
		return -EINVAL;
	}
	if (n > FAMFS_LOG_SIMPLE_EXT_BASE &&
	    !(le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT)) {
		REASON("%u extents in a log without the multi-extent feature (superblock incompat bit 0x%x clear)",
		       n, FAMFS_FEATURE_INCOMPAT_MULTI_EXTENT);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static unsigned dev_of(const struct famfs_log_fmeta *fm, unsigned i)
{
	return fm->reserved[i];
}

/*
 * Extents [0, n) of @fm, each already in range (so no sum wraps): no two on
 * one device overlap, the unused slots are zero; *total is their length.
 * @what names them in the reason ("extents", "page extents").
 */
static int extents_disjoint(const struct famfs_log_fmeta *fm, unsigned n,
			    const char *what, uint64_t *total, char *reason)
{
	*total = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t off = le64toh(fm->ext.simple[i].offset);
		uint64_t len = le64toh(fm->ext.simple[i].len);

		for (unsigned j = 0; j < i; j++) {
			uint64_t o = le64toh(fm->ext.simple[j].offset);
			uint64_t l = le64toh(fm->ext.simple[j].len);

			if (dev_of(fm, j) == dev_of(fm, i) &&
			    off < o + l && o < off + len) {
				REASON("%s %u and %u overlap ([%llu, +%llu) and [%llu, +%llu))",
				       what, j, i, (unsigned long long)o,
				       (unsigned long long)l,
				       (unsigned long long)off,
				       (unsigned long long)len);
				return -EINVAL;
			}
		}
		*total += len;
	}
	for (unsigned i = n; i < FAMFS_LOG_MAX_SIMPLE_EXT; i++)
		if (fm->ext.simple[i].offset || fm->ext.simple[i].len) {
			REASON("unused extent slots are not zero");
			return -EINVAL;
		}
	return 0;
}

static int check_simple(const struct famfs_log_fmeta *fm,
			const struct judge *jd, char *reason)
{
	const struct famfs_superblock *sb = jd->sb;
	uint64_t total = 0, size = le64toh(fm->size);
	unsigned n = le16toh(fm->nextents);
	int rc;

	rc = simple_count_ok(n, sb, reason);
	if (rc)
		return rc;
	for (unsigned i = 0; i < n; i++) {
		rc = check_range("extent", i, le64toh(fm->ext.simple[i].offset),
				 le64toh(fm->ext.simple[i].len), dev_of(fm, i),
				 jd, reason);
		if (rc)
			return rc;
	}
	rc = extents_disjoint(fm, n, "extents", &total, reason);
	if (rc)
		return rc;
	if (total < size) {
		REASON("extents (%llu bytes) smaller than the file (%llu bytes)",
		       (unsigned long long)total, (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

/* R2: interleaved files only with INCOMPAT_INTERLEAVE; a kind a copy of
 * the superblock without it cannot judge (it may predate the bit: read
 * again, host-local if still clear), as for every feature bit */
static int interleave_bit(const struct famfs_superblock *sb, char *reason)
{
	if (!(le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_INTERLEAVE)) {
		REASON("interleaved file in a log without the interleave feature (superblock incompat bit 0x%x clear)",
		       FAMFS_FEATURE_INCOMPAT_INTERLEAVE);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

static int check_interleaved(const struct famfs_log_fmeta *fm,
			     const struct judge *jd, char *reason)
{
	const struct famfs_superblock *sb = jd->sb;
	const struct famfs_log_interleave_ext *ie = &fm->ext.interleave;
	uint64_t size = le64toh(fm->size), chunk = le64toh(ie->chunk_size);
	uint64_t slen = le64toh(ie->strip_len), total;
	uint32_t ns = le32toh(ie->nstrips);
	unsigned n = le16toh(fm->nextents);
	int rc;

	rc = interleave_bit(sb, reason);
	if (rc)
		return rc;
	if (n != 1) {
		REASON("bad interleaved extent count %u (must be 1)", n);
		return -EINVAL;
	}
	if (ie->reserved ||
	    !famfs_all_zero(fm->ext.raw + sizeof(*ie), sizeof(fm->ext) - sizeof(*ie))) {
		REASON("reserved interleaved extent bytes are not zero");
		return -EINVAL;
	}
	if (ns < 1 || ns > FAMFS_LOG_MAX_STRIPS) {
		REASON("bad strip count %u (1..%u)", ns, FAMFS_LOG_MAX_STRIPS);
		return -EINVAL;
	}
	for (unsigned i = ns; i < FAMFS_LOG_MAX_STRIPS; i++)
		if (ie->strip_off[i]) {
			REASON("unused strip slot %u is not zero", i);
			return -EINVAL;
		}
	if (!chunk || chunk % FAMFS_ALLOC_UNIT) {
		REASON("chunk size %llu is not a non-zero multiple of 2 MiB",
		       (unsigned long long)chunk);
		return -EINVAL;
	}
	if (!slen || slen % chunk) {
		REASON("strip length %llu is not a non-zero multiple of the chunk size %llu",
		       (unsigned long long)slen, (unsigned long long)chunk);
		return -EINVAL;
	}
	for (unsigned i = 0; i < ns; i++) {
		uint64_t off = le64toh(ie->strip_off[i]);

		rc = check_range("strip", i, off, slen, dev_of(fm, i), jd,
				 reason);
		if (rc)
			return rc;
		for (unsigned j = 0; j < i; j++) {
			uint64_t o = le64toh(ie->strip_off[j]);

			if (dev_of(fm, j) == dev_of(fm, i) &&
			    off < o + slen && o < off + slen) {
				REASON("strips %u and %u overlap (offsets %llu and %llu, %llu bytes each)",
				       j, i, (unsigned long long)o,
				       (unsigned long long)off,
				       (unsigned long long)slen);
				return -EINVAL;
			}
		}
	}
	if (__builtin_mul_overflow(slen, (uint64_t)ns, &total) || total < size) {
		REASON("%u strips of %llu bytes smaller than the file (%llu bytes)",
		       ns, (unsigned long long)slen, (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

/* ---- small files (INCOMPAT_SMALL_FILES): page extents ---- */
static int pages_bit(const struct famfs_superblock *sb, char *reason)
{
	if (!(le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_SMALL_FILES)) {
		/* R2: a kind this log cannot have, as an unknown one */
		REASON("extent type %u (page extents) in a log without the small-file feature (superblock incompat bit 0x%x clear)",
		       FAMFS_LOG_EXT_PAGES, FAMFS_FEATURE_INCOMPAT_SMALL_FILES);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

/* What famfs_entry_owned needs of a page extent: [off, off + len) 4 KiB
 * aligned, not empty, inside one 2 MiB unit of device dev's data area */
static int check_page_range(unsigned i, uint64_t off, uint64_t len,
			    unsigned dev, const struct judge *j, char *reason)
{
	uint64_t dstart, dsize;
	int rc = famfs_logdevs_area(j->devs, j->sb, dev, j->index, &dstart,
				    &dsize, reason);

	if (rc)
		return rc;
	if (!len || (off | len) & (FAMFS_PAGE - 1)) {
		REASON("page extent %u [%llu, +%llu) not 4 KiB aligned", i,
		       (unsigned long long)off, (unsigned long long)len);
		return -EINVAL;
	}
	if (len >= FAMFS_ALLOC_UNIT ||
	    off / FAMFS_ALLOC_UNIT != (off + len - 1) / FAMFS_ALLOC_UNIT) {
		REASON("page extent %u [%llu, +%llu) not inside one 2 MiB unit",
		       i, (unsigned long long)off, (unsigned long long)len);
		return -EINVAL;
	}
	if (off < dstart) {
		REASON("page extent %u [%llu, +%llu) overlaps the %s", i,
		       (unsigned long long)off, (unsigned long long)len,
		       dev ? "member superblock" : "superblock or log");
		return -EINVAL;
	}
	if (off > dsize || len > dsize - off) {
		REASON("page extent %u [%llu, +%llu) outside device %u (%llu bytes)",
		       i, (unsigned long long)off, (unsigned long long)len, dev,
		       (unsigned long long)dsize);
		return -EINVAL;
	}
	return 0;
}

static int pages_count_ok(unsigned n, char *reason)
{
	if (n < 1 || n > FAMFS_LOG_MAX_SIMPLE_EXT) {
		REASON("bad page extent count %u (1..%u)", n,
		       (unsigned)FAMFS_LOG_MAX_SIMPLE_EXT);
		return -EINVAL;
	}
	return 0;
}

/* R3: the bit, the count, every extent aligned and in a data area */
static int owned_pages(const struct famfs_log_fmeta *fm,
		       const struct judge *jd, char *reason)
{
	unsigned n = le16toh(fm->nextents);
	int rc = pages_bit(jd->sb, reason);

	if (!rc)
		rc = pages_count_ok(n, reason);
	for (unsigned i = 0; !rc && i < n; i++)
		rc = check_page_range(i, le64toh(fm->ext.simple[i].offset),
				      le64toh(fm->ext.simple[i].len),
				      dev_of(fm, i), jd, reason);
	return rc;
}

static int check_pages(const struct famfs_log_fmeta *fm,
		       const struct judge *jd, char *reason)
{
	uint64_t total = 0, size = le64toh(fm->size);
	unsigned n = le16toh(fm->nextents);
	int rc = owned_pages(fm, jd, reason);

	if (!rc)
		rc = extents_disjoint(fm, n, "page extents", &total, reason);
	if (rc)
		return rc;
	if (size >= FAMFS_SMALL_MAX) {
		REASON("page extents for a file of %llu bytes (small files are below %llu)",
		       (unsigned long long)size,
		       (unsigned long long)FAMFS_SMALL_MAX);
		return -EINVAL;
	}
	if (total < size) {
		REASON("page extents (%llu bytes) smaller than the file (%llu bytes)",
		       (unsigned long long)total, (unsigned long long)size);
		return -EINVAL;
	}
	return 0;
}

static int check_extents(const struct famfs_log_fmeta *fm,
			 const struct judge *jd, char *reason)
{
	switch (le16toh(fm->extent_type)) {
	case FAMFS_LOG_EXT_SIMPLE:
		return check_simple(fm, jd, reason);
	case FAMFS_LOG_EXT_INTERLEAVED:
		return check_interleaved(fm, jd, reason);
	case FAMFS_LOG_EXT_PAGES:
		return check_pages(fm, jd, reason);
	default:
		REASON("unsupported extent type %u", le16toh(fm->extent_type));
		return -EPROTONOSUPPORT;
	}
}

/* R2: EXTEND entries only in a compact log with INCOMPAT_LOG_EXTEND */
static int extend_bit(const struct famfs_superblock *sb, char *reason)
{
	if (!famfs_sb_compact(sb) ||
	    !(le32toh(sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_LOG_EXTEND)) {
		REASON("log EXTEND entry in a log without the log-extend feature (superblock incompat bit 0x%x clear, or not a compact log)",
		       FAMFS_FEATURE_INCOMPAT_LOG_EXTEND);
		return -EPROTONOSUPPORT;
	}
	return 0;
}

/* The v1 form of an EXTEND entry (logseg.c): segment number in size, its
 * range in ext.simple[0], everything else zero */
static int check_extend(const struct famfs_log_entry *e,
			const struct judge *jd, char *reason)
{
	const struct famfs_log_fmeta *fm = &e->fm;
	uint64_t k = le64toh(fm->size);
	int rc = extend_bit(jd->sb, reason);

	if (rc)
		return rc;
	if (e->flags || fm->ctime || fm->mode || fm->uid || fm->gid ||
	    le16toh(fm->extent_type) != FAMFS_LOG_EXT_SIMPLE ||
	    le16toh(fm->nextents) != 1 || fm->path_len ||
	    !famfs_all_zero(&fm->ext.simple[1], sizeof(fm->ext) - sizeof(fm->ext.simple[0])) ||
	    !famfs_all_zero(fm->pad, sizeof(fm->pad)) ||
	    !famfs_all_zero(fm->path, sizeof(fm->path)) ||
	    !famfs_all_zero(fm->reserved, sizeof(fm->reserved))) {
		REASON("reserved bytes of a log EXTEND entry are not zero");
		return -EINVAL;
	}
	if (k < 1 || k >= FAMFS_LOG_MAX_SEGS) {
		REASON("log EXTEND entry for segment %llu (1..%u)",
		       (unsigned long long)k, FAMFS_LOG_MAX_SEGS - 1);
		return -EINVAL;
	}
	return check_range("log segment", (unsigned)k,
			   le64toh(fm->ext.simple[0].offset),
			   le64toh(fm->ext.simple[0].len), 0, jd, reason);
}

bool famfs_entry_pages(const struct famfs_log_entry *e)
{
	return le16toh(e->type) == FAMFS_LOG_FILE &&
	       le16toh(e->fm.extent_type) == FAMFS_LOG_EXT_PAGES;
}

bool famfs_entry_interleaved(const struct famfs_log_entry *e)
{
	return le16toh(e->type) == FAMFS_LOG_FILE &&
	       le16toh(e->fm.extent_type) == FAMFS_LOG_EXT_INTERLEAVED;
}

/* dev: only the ranges on that device; -1: all */
static unsigned entry_ranges(const struct famfs_log_entry *e, int dev,
			     struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES])
{
	const struct famfs_log_fmeta *fm = &e->fm;
	unsigned n = 0, i;

	if (le16toh(e->type) == FAMFS_LOG_EXTEND) {	/* a log segment */
		if (dev > 0)
			return 0;
		out[0].offset = le64toh(fm->ext.simple[0].offset);
		out[0].len = le64toh(fm->ext.simple[0].len);
		return 1;
	}
	if (le16toh(e->type) == FAMFS_LOG_HOSTS) {	/* the host table */
		if (dev > 0)
			return 0;
		out[0].offset = le64toh(famfs_entry_hosts(e)->offset);
		out[0].len = le64toh(famfs_entry_hosts(e)->len);
		return 1;
	}
	if (le16toh(e->type) != FAMFS_LOG_FILE)
		return 0;
	if (famfs_entry_interleaved(e)) {
		uint32_t ns = le32toh(fm->ext.interleave.nstrips);

		for (i = 0; i < ns && i < FAMFS_ENTRY_MAX_RANGES; i++) {
			if (dev >= 0 && dev_of(fm, i) != (unsigned)dev)
				continue;
			out[n].offset = le64toh(fm->ext.interleave.strip_off[i]);
			out[n++].len = le64toh(fm->ext.interleave.strip_len);
		}
		return n;
	}
	for (i = 0; i < le16toh(fm->nextents) && i < FAMFS_LOG_MAX_SIMPLE_EXT &&
	     i < FAMFS_ENTRY_MAX_RANGES; i++) {
		if (dev >= 0 && dev_of(fm, i) != (unsigned)dev)
			continue;
		out[n].offset = le64toh(fm->ext.simple[i].offset);
		out[n++].len = le64toh(fm->ext.simple[i].len);
	}
	return n;
}

unsigned famfs_entry_ranges(const struct famfs_log_entry *e,
			    struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES])
{
	return entry_ranges(e, -1, out);
}

unsigned famfs_entry_ranges_on(const struct famfs_log_entry *e, unsigned dev,
			       struct famfs_extent out[FAMFS_ENTRY_MAX_RANGES])
{
	return entry_ranges(e, (int)dev, out);
}

/* CRC, sequence number and fs uuid: was this entry written, whole, by
 * this file system's master for this slot? */
static int entry_written_check(const struct famfs_log_entry *e, uint64_t index,
			       const struct famfs_superblock *sb, char *reason)
{
	struct famfs_log_entry tmp;
	uint32_t crc;

	memcpy(&tmp, e, sizeof(tmp));
	tmp.crc = 0;
	crc = famfs_crc32(&tmp, sizeof(tmp));
	if (crc != le32toh(e->crc)) {
		REASON("CRC mismatch (stored 0x%08x, computed 0x%08x)",
		       le32toh(e->crc), crc);
		return -EBADMSG;
	}
	if (le64toh(e->seq) != index) {
		REASON("sequence number %llu at index %llu",
		       (unsigned long long)le64toh(e->seq),
		       (unsigned long long)index);
		return -EINVAL;
	}
	if (memcmp(e->fs_uuid, sb->fs_uuid, 16)) {
		REASON("entry belongs to another file system (fs uuid differs)");
		return -EINVAL;
	}
	return 0;
}

bool famfs_entry_written(const struct famfs_log_entry *e, uint64_t index,
			 const struct famfs_superblock *sb)
{
	/* cheap first: most slots past next_index are zero or another fs's */
	if (le64toh(e->seq) != index || memcmp(e->fs_uuid, sb->fs_uuid, 16))
		return false;
	return entry_written_check(e, index, sb, NULL) == 0;
}

int famfs_entry_owned(const struct famfs_log_entry *e, uint64_t index,
		      const struct famfs_superblock *sb, char *reason)
{
	return famfs_entry_owned_devs(e, index, sb, NULL, reason);
}

int famfs_entry_owned_devs(const struct famfs_log_entry *e, uint64_t index,
			   const struct famfs_superblock *sb,
			   const struct famfs_logdevs *devs, char *reason)
{
	const struct famfs_log_fmeta *fm = &e->fm;
	struct judge jd = { sb, devs, index };
	int rc = entry_written_check(e, index, sb, reason);

	if (rc)
		return rc;
	switch (le16toh(e->type)) {
	case FAMFS_LOG_DEVADD:
		/* owns no memory; one that breaks the rules makes the
		 * extents naming its index unparseable instead */
		return famfs_devadd_check(e, index, sb, devs, reason);
	case FAMFS_LOG_MKDIR:
		if (fm->extent_type || fm->nextents ||
		    !famfs_all_zero(&fm->ext, sizeof(fm->ext))) {
			REASON("directory entry with extents (what it owns is unknown)");
			return -EINVAL;
		}
		return 0;
	case FAMFS_LOG_FILE:
		break;
	case FAMFS_LOG_DELETE:
	case FAMFS_LOG_RENAME:
	case FAMFS_LOG_SETATTR:
		/* own no memory (a deleted file's stays its FILE entry's
		 * until a RECLAIM: R3); with their bit clear, corrupt (R2) */
		return famfs_ns_bit(le16toh(e->type), sb, reason);
	case FAMFS_LOG_RECLAIM:
		/* owns nothing, but a refused one (only refused ones are
		 * asked) may have freed anything: what is free is unknown
		 * (R3: the master allocates nothing) */
		rc = famfs_reclaim_check(e, index, sb, reason);
		if (!rc)
			REASON("a RECLAIM entry that is refused: what it frees is unknown");
		return rc ? rc : -EINVAL;
	case FAMFS_LOG_HOSTS:	/* the host table: owned like a segment */
		return famfs_hosts_entry_owned(e, sb, reason);
	case FAMFS_LOG_EXTEND:
		rc = extend_bit(sb, reason);
		return rc ? rc : check_range("log segment", 0,
					     le64toh(fm->ext.simple[0].offset),
					     le64toh(fm->ext.simple[0].len),
					     0, &jd, reason);
	default:
		REASON("unknown entry type %u", le16toh(e->type));
		return -EPROTONOSUPPORT;
	}
	if (le16toh(fm->extent_type) == FAMFS_LOG_EXT_SIMPLE) {
		unsigned n = le16toh(fm->nextents);

		rc = simple_count_ok(n, sb, reason);
		for (unsigned i = 0; !rc && i < n; i++)
			rc = check_range("extent", i,
					 le64toh(fm->ext.simple[i].offset),
					 le64toh(fm->ext.simple[i].len),
					 dev_of(fm, i), &jd, reason);
		return rc;
	}
	if (le16toh(fm->extent_type) == FAMFS_LOG_EXT_INTERLEAVED) {
		const struct famfs_log_interleave_ext *ie = &fm->ext.interleave;
		uint32_t ns = le32toh(ie->nstrips);

		rc = interleave_bit(sb, reason);
		if (rc)
			return rc;
		if (ns < 1 || ns > FAMFS_LOG_MAX_STRIPS || le16toh(fm->nextents) != 1) {
			REASON("bad strip count %u (1..%u)", ns, FAMFS_LOG_MAX_STRIPS);
			return -EINVAL;
		}
		for (unsigned i = 0; !rc && i < ns; i++)
			rc = check_range("strip", i, le64toh(ie->strip_off[i]),
					 le64toh(ie->strip_len), dev_of(fm, i),
					 &jd, reason);
		return rc;
	}
	if (le16toh(fm->extent_type) == FAMFS_LOG_EXT_PAGES)
		return owned_pages(fm, &jd, reason);
	REASON("unsupported extent type %u", le16toh(fm->extent_type));
	return -EPROTONOSUPPORT;
}

int famfs_entry_check(const struct famfs_log_entry *e, uint64_t index,
		      const struct famfs_superblock *sb, char *reason)
{
	return famfs_entry_check_devs(e, index, sb, NULL, reason);
}

int famfs_entry_check_devs(const struct famfs_log_entry *e, uint64_t index,
			   const struct famfs_superblock *sb,
			   const struct famfs_logdevs *devs, char *reason)
{
	int rc = entry_written_check(e, index, sb, reason);

	return rc ? rc : famfs_entry_check_fields(e, index, sb, devs, reason);
}

/* the device indexes of the extents in use (famfs_entry_devindex); the
 * rest of fm.reserved zero */
static bool reserved_ok(const struct famfs_log_fmeta *fm)
{
	unsigned n = le16toh(fm->nextents);

	if (le16toh(fm->extent_type) == FAMFS_LOG_EXT_INTERLEAVED)
		n = le32toh(fm->ext.interleave.nstrips);
	if (n > FAMFS_LOG_MAX_SIMPLE_EXT)
		n = 0;
	return famfs_all_zero(fm->reserved + n, sizeof(fm->reserved) - n);
}

int famfs_entry_check_fields(const struct famfs_log_entry *e, uint64_t index,
			     const struct famfs_superblock *sb,
			     const struct famfs_logdevs *devs, char *reason)
{
	const struct famfs_log_fmeta *fm = &e->fm;
	struct judge jd = { sb, devs, index };
	int rc;

	if (le16toh(e->type) == FAMFS_LOG_EXTEND)
		return check_extend(e, &jd, reason);
	if (le16toh(e->type) == FAMFS_LOG_DEVADD)
		return famfs_devadd_check(e, index, sb, devs, reason);
	if (le16toh(e->type) == FAMFS_LOG_HOSTS)	/* hostent.c */
		return famfs_hosts_entry_check(e, sb, reason);
	if (famfs_entry_is_ns(le16toh(e->type)))	/* nsentry.c */
		return famfs_ns_check(e, index, sb, reason);
	if (le16toh(e->type) == FAMFS_LOG_RECLAIM)
		return famfs_reclaim_check(e, index, sb, reason);
	if (e->flags || fm->pad[0] || !famfs_all_zero(fm->pad, sizeof(fm->pad)) ||
	    !reserved_ok(fm)) {
		REASON("reserved entry bytes are not zero");
		return -EINVAL;
	}
	if (le32toh(fm->mode) & ~07777U) {
		REASON("bad mode 0%o", le32toh(fm->mode));
		return -EINVAL;
	}
	rc = check_path(fm, reason);
	if (rc)
		return rc;
	switch (le16toh(e->type)) {
	case FAMFS_LOG_FILE:
		return check_extents(fm, &jd, reason);
	case FAMFS_LOG_MKDIR:
		if (fm->size || fm->extent_type || fm->nextents ||
		    !famfs_all_zero(&fm->ext, sizeof(fm->ext))) {
			REASON("directory entry with size or extents");
			return -EINVAL;
		}
		return 0;
	default:
		REASON("unknown entry type %u", le16toh(e->type));
		return -EINVAL;
	}
}

/* ---- building entries (not yet sequenced: famfs_log_append does) ---- */
int famfs_owner_check(const char *what, uint32_t uid, uint32_t gid)
{
	if (uid == UINT32_MAX || gid == UINT32_MAX) {
		famfs_err("%s: %s %u is (%s_t)-1, chown's \"no change\", not an owner",
			  what, uid == UINT32_MAX ? "uid" : "gid", UINT32_MAX,
			  uid == UINT32_MAX ? "uid" : "gid");
		return -EINVAL;
	}
	return 0;
}

int famfs_entry_build(struct famfs_log_entry *e, int type, const char *rel,
		      uint64_t size, uint32_t mode, uint32_t uid, uint32_t gid,
		      const struct famfs_log_simple_ext *ext, unsigned next)
{
	char norm[FAMFS_LOG_PATH_MAX], reason[FAMFS_REASON_LEN];
	struct famfs_log_fmeta *fm = &e->fm;
	int rc;

	memset(e, 0, sizeof(*e));
	rc = famfs_relpath_normalize(rel, norm, reason);
	if (rc) {
		famfs_err("%s", reason);
		return rc;
	}
	rc = famfs_owner_check(norm, uid, gid);
	if (rc)
		return rc;
	if (next > FAMFS_LOG_MAX_SIMPLE_EXT || (type == FAMFS_LOG_FILE && !next)) {
		famfs_err("%s: bad extent count %u", norm, next);
		return -EINVAL;
	}
	e->type = htole16((uint16_t)type);
	fm->size = htole64(size);
	fm->ctime = htole64((uint64_t)time(NULL));
	fm->mode = htole32(mode & 07777);
	fm->uid = htole32(uid);
	fm->gid = htole32(gid);
	if (type == FAMFS_LOG_FILE) {
		fm->extent_type = htole16(FAMFS_LOG_EXT_SIMPLE);
		fm->nextents = htole16((uint16_t)next);
		for (unsigned i = 0; i < next; i++)
			fm->ext.simple[i] = ext[i];
	}
	fm->path_len = htole16((uint16_t)strlen(norm));
	memcpy(fm->path, norm, strlen(norm));
	return 0;
}

int famfs_entry_build_interleaved(struct famfs_log_entry *e, const char *rel,
				  uint64_t size, uint32_t mode, uint32_t uid,
				  uint32_t gid,
				  const struct famfs_log_interleave_ext *ie)
{
	struct famfs_log_simple_ext none = { 0, 0 };
	int rc;

	/* the common fields as for a one-extent file, then the extent area */
	rc = famfs_entry_build(e, FAMFS_LOG_FILE, rel, size, mode, uid, gid,
			       &none, 1);
	if (rc)
		return rc;
	if (!le32toh(ie->nstrips) || le32toh(ie->nstrips) > FAMFS_LOG_MAX_STRIPS) {
		famfs_err("%s: bad strip count %u (1..%u)", e->fm.path,
			  le32toh(ie->nstrips), FAMFS_LOG_MAX_STRIPS);
		return -EINVAL;
	}
	e->fm.extent_type = htole16(FAMFS_LOG_EXT_INTERLEAVED);
	e->fm.nextents = htole16(1);
	memset(&e->fm.ext, 0, sizeof(e->fm.ext));
	e->fm.ext.interleave = *ie;
	return 0;
}

void famfs_entry_build_extend(struct famfs_log_entry *e, uint32_t k,
			      uint64_t off, uint64_t len)
{
	memset(e, 0, sizeof(*e));
	e->type = htole16(FAMFS_LOG_EXTEND);
	e->fm.size = htole64(k);
	e->fm.extent_type = htole16(FAMFS_LOG_EXT_SIMPLE);
	e->fm.nextents = htole16(1);
	e->fm.ext.simple[0].offset = htole64(off);
	e->fm.ext.simple[0].len = htole64(len);
}

int famfs_entry_build_pages(struct famfs_log_entry *e, const char *rel,
			    uint64_t size, uint32_t mode, uint32_t uid,
			    uint32_t gid, const struct famfs_log_simple_ext *ext,
			    unsigned next)
{
	int rc;

	if (!next || next > FAMFS_LOG_MAX_SIMPLE_EXT) {
		famfs_err("%s: bad page extent count %u (1..%u)", rel, next,
			  (unsigned)FAMFS_LOG_MAX_SIMPLE_EXT);
		return -EINVAL;
	}
	rc = famfs_entry_build(e, FAMFS_LOG_FILE, rel, size, mode, uid, gid,
			       ext, next);
	if (!rc)
		e->fm.extent_type = htole16(FAMFS_LOG_EXT_PAGES);
	return rc;
}
