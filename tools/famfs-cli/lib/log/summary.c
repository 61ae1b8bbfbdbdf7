// SPDX-License-Identifier: GPL-2.0
/* The master's create summary: see log.h. */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uuid/uuid.h>

#include "log/log.h"

#define SUM_MAGIC	0x314d555346534d46ULL	/* "FMSFSUM1" */
#define SUM_VERSION	5	/* 2: last (compact logs); 3: mrec_gen;
				 * 4: the shared units' pages (issue 30);
				 * 5: their flags (sealed) */
#define SUM_PAGE	4096
/* a table page: slots, then file id, page number and CRC */
#define SUM_SLOTS	((SUM_PAGE - 16) / 8)
#define CLAIM_DIR	"/var/lib/famfs"

/* 152 bytes (tests/unit/test_summary.c patches it) */
struct sum_hdr {
	uint64_t magic;
	uint32_t version;
	uint32_t crc;		/* of this header (crc 0) and the bitmap */
	uint8_t fs_uuid[16];
	uint8_t boot[16];
	uint32_t sb_crc;	/* the superblock's: another mkfs differs */
	uint32_t last_crc;	/* the CRC field of entry last (v1 form) */
	uint64_t dev_size, capacity;
	uint64_t next;		/* log entries [0, next) summarized */
	uint64_t last;		/* where the last of them starts (next - 1
				 * in a v1 log; compact: it ends at next) */
	uint64_t nunits, nwords, nfree;
	uint64_t file_id;	/* random, per build: seeds the page CRCs */
	uint64_t npages, used;	/* table pages, paths in the table */
	uint64_t table_off;	/* byte offset of table page 0 */
	/* the master record's generation it was written under: the claim
	 * it is of.  After the role went to another instance and came back
	 * the superblock may be the same bytes again (its master uuid this
	 * host's), but the record's generation is not: a summary of another
	 * claim is not relied on (what the other holder did meanwhile, this
	 * one knows only from the log, read with its lines dropped) */
	uint64_t mrec_gen;
};

struct sum_page {
	uint64_t slot[SUM_SLOTS];
	uint64_t file_id;
	uint32_t page_no;
	uint32_t crc;
};

struct famfs_summary {
	int fd;				/* -1: in memory only */
	struct sum_hdr h;
	struct sum_page **pg;		/* NULL: not read yet */
	uint8_t *dirty;
	bool hdr_dirty;
	bool boot_ok;			/* h.boot is this boot's */
};

struct famfs_summary_stats famfs_summary_stats;

_Static_assert(sizeof(struct sum_page) == SUM_PAGE, "table page size");
_Static_assert(sizeof(struct sum_hdr) == 152, "header size (test_summary.c)");

int famfs_summary_path(const uint8_t fs_uuid[16], char *out, size_t n)
{
	const char *env = getenv("FAMFS_CLAIM_DIR");
	char u[37];

	famfs_uuid_str(fs_uuid, u);
	if ((size_t)snprintf(out, n, "%s/%s.summary", env && *env ? env : CLAIM_DIR,
			     u) >= n)
		return -ENAMETOOLONG;
	return 0;
}

static uint64_t path_hash(const char *p)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *p; p++)
		h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
	return h;
}

static uint32_t page_crc(const struct sum_page *p)
{
	return famfs_crc32(p, offsetof(struct sum_page, crc));
}

/* the CRC of the header (crc 0) followed by the bitmap; 0 and no
 * memory: never a summary's (the load then fails) */
static uint32_t hdr_crc(const struct sum_hdr *h, const uint64_t *bits)
{
	size_t n = sizeof(*h) + h->nwords * 8;
	struct sum_hdr *c = malloc(n);
	uint32_t crc;

	if (!c)
		return 0;
	*c = *h;
	c->crc = 0;
	memcpy(c + 1, bits, h->nwords * 8);
	crc = famfs_crc32(c, n);
	free(c);
	return crc ? crc : 1;
}


/* The page state's CRC seed (sumpages.c): what names one save of one
 * build, the table's random id, the log index and last entry it covers */
static void rec_seed(const struct sum_hdr *h, uint64_t seed[4])
{
	seed[0] = h->file_id;
	seed[1] = h->next;
	seed[2] = h->last;
	seed[3] = h->last_crc;
}

static uint64_t rec_off(const struct sum_hdr *h)
{
	return h->table_off + h->npages * SUM_PAGE;
}

static uint64_t table_off(uint64_t nwords)
{
	uint64_t b = sizeof(struct sum_hdr) + nwords * 8;

	return (b + SUM_PAGE - 1) / SUM_PAGE * SUM_PAGE;
}

static void sum_free_pages(struct famfs_summary *s)
{
	for (uint64_t i = 0; s->pg && i < s->h.npages; i++)
		free(s->pg[i]);
	free(s->pg);
	free(s->dirty);
	s->pg = NULL;
	s->dirty = NULL;
}

void famfs_summary_free(struct famfs_summary *s)
{
	if (!s)
		return;
	sum_free_pages(s);
	if (s->fd >= 0)
		close(s->fd);
	free(s);
}

/* a table of npages pages, all present and empty (dirty) */
static int table_alloc(struct famfs_summary *s, uint64_t npages)
{
	s->pg = calloc(npages, sizeof(*s->pg));
	s->dirty = calloc(npages, 1);
	if (!s->pg || !s->dirty)
		return -ENOMEM;
	s->h.npages = npages;
	for (uint64_t i = 0; i < npages; i++) {
		s->pg[i] = calloc(1, sizeof(**s->pg));
		if (!s->pg[i])
			return -ENOMEM;
		s->dirty[i] = 1;
	}
	return 0;
}

/* random: seeds the page CRCs of one table layout */
static void new_file_id(struct famfs_summary *s)
{
	uuid_t id;

	uuid_generate(id);
	memcpy(&s->h.file_id, id, 8);
}

static uint64_t pages_for(uint64_t paths)
{
	/* at most half full */
	return (2 * paths + 64) / SUM_SLOTS + 1;
}

static void hdr_fill(struct sum_hdr *h, struct famfs_fs *fs)
{
	memset(h, 0, sizeof(*h));
	h->magic = SUM_MAGIC;
	h->version = SUM_VERSION;
	memcpy(h->fs_uuid, fs->sb->fs_uuid, 16);
	h->sb_crc = le32toh(fs->sb->crc);
	h->dev_size = famfs_sb_dev_size(fs->sb);
	h->capacity = le64toh(fs->log->capacity);
	h->nunits = h->dev_size / FAMFS_ALLOC_UNIT;
	h->nwords = (h->nunits + 63) / 64;
	h->table_off = table_off(h->nwords);
	/* fs->mrec: the record as the role check (or the claim) left it */
	h->mrec_gen = le64toh(fs->mrec.generation);
}

struct famfs_summary *famfs_summary_new(struct famfs_fs *fs, uint64_t expect)
{
	struct famfs_summary *s = calloc(1, sizeof(*s));

	if (!s) {
		famfs_err("%s: out of memory", fs->name);
		return NULL;
	}
	s->fd = -1;
	hdr_fill(&s->h, fs);
	new_file_id(s);
	s->hdr_dirty = true;
	if (table_alloc(s, pages_for(expect))) {
		famfs_summary_free(s);
		famfs_err("%s: out of memory", fs->name);
		return NULL;
	}
	return s;
}

static int fail(char *reason, int rc, const char *fmt, const char *what)
{
	if (reason)
		snprintf(reason, FAMFS_REASON_LEN, fmt, what);
	return rc;
}

/* 0 if the log's entry at last is written, ends at next and has that CRC */
static int last_entry_ok(struct famfs_fs *fs, uint64_t last, uint64_t next,
			 uint32_t crc)
{
	struct famfs_log_entry e;
	int n;

	if (last >= next)
		return -ESTALE;
	n = famfs_log_entry_span(fs, last, &e);
	if (n <= 0 || last + (uint64_t)n != next ||
	    !famfs_entry_written(&e, last, fs->sb) || le32toh(e.crc) != crc)
		return -ESTALE;
	return 0;
}

int famfs_summary_load(struct famfs_fs *fs, struct famfs_summary **out,
		       struct famfs_bitmap *bm, struct famfs_pagealloc **pa,
		       uint64_t *next, char *reason)
{
	char p[PATH_MAX];
	struct famfs_summary *s;
	struct sum_hdr want;
	struct famfs_sum_unit *rec = NULL;
	uint8_t boot[16];
	struct stat st;
	uint64_t n, used_reserved, nfree = 0, nrec = 0, seed[4];
	const char *why;
	int rc;

	*pa = NULL;
	famfs_summary_stats.loads++;
	if (famfs_summary_path(fs->sb->fs_uuid, p, sizeof(p)))
		return fail(reason, -ENOENT, "%s", "path too long");
	s = calloc(1, sizeof(*s));
	if (!s)
		return fail(reason, -ENOMEM, "%s", "out of memory");
	s->fd = open(p, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (s->fd < 0) {
		rc = fail(reason, -ENOENT, "%s", "none");
		goto bad;
	}
	rc = -EBADMSG;
	if (fstat(s->fd, &st) ||
	    pread(s->fd, &s->h, sizeof(s->h), 0) != (ssize_t)sizeof(s->h) ||
	    s->h.magic != SUM_MAGIC || s->h.version != SUM_VERSION) {
		fail(reason, rc, "%s", "not a summary (short, or no magic)");
		goto bad;
	}
	/* the identity: this file system, this boot, this geometry */
	hdr_fill(&want, fs);
	rc = -ESTALE;
	if (memcmp(s->h.fs_uuid, want.fs_uuid, 16) || s->h.sb_crc != want.sb_crc) {
		fail(reason, rc, "%s", "of another file system (uuid or superblock)");
		goto bad;
	}
	if (famfs_boot_id(boot) || memcmp(boot, s->h.boot, 16)) {
		fail(reason, rc, "%s", "written before this boot");
		goto bad;
	}
	if (s->h.mrec_gen != want.mrec_gen) {
		fail(reason, rc, "%s", "written under another claim of the master role (the master record's generation differs)");
		goto bad;
	}
	if (s->h.dev_size != want.dev_size || s->h.capacity != want.capacity ||
	    s->h.nunits != want.nunits || s->h.nwords != want.nwords ||
	    s->h.table_off != want.table_off) {
		fail(reason, rc, "%s", "of another geometry");
		goto bad;
	}
	n = famfs_log_refresh_next(fs);
	if (s->h.next > n) {
		fail(reason, rc, "%s", "past the log's next index");
		goto bad;
	}
	if (s->h.next) {
		if (last_entry_ok(fs, s->h.last, s->h.next, s->h.last_crc)) {
			fail(reason, rc, "%s", "its last entry is not in the log");
			goto bad;
		}
	} else if (s->h.last_crc || s->h.last) {
		fail(reason, rc, "%s", "bad last entry CRC");
		goto bad;
	}
	rc = -EBADMSG;
	if (!s->h.npages || s->h.npages > (uint64_t)st.st_size / SUM_PAGE ||
	    s->h.used > s->h.npages * SUM_SLOTS / 2 + 1 ||
	    (uint64_t)st.st_size < s->h.table_off + s->h.npages * SUM_PAGE) {
		fail(reason, rc, "%s", "truncated, or a table of a bad size");
		goto bad;
	}
	/* the bitmap, under the header's CRC */
	rc = famfs_bitmap_init(bm, fs->sb);
	if (rc) {
		fail(reason, rc, "%s", "out of memory");
		goto bad;
	}
	rc = -EBADMSG;
	if (pread(s->fd, bm->bits, s->h.nwords * 8, sizeof(s->h)) !=
	    (ssize_t)(s->h.nwords * 8) || hdr_crc(&s->h, bm->bits) != s->h.crc) {
		fail(reason, rc, "%s", "header or bitmap CRC mismatch");
		goto bad_bm;
	}
	/* the page records (sumpages.c) */
	rec_seed(&s->h, seed);
	rc = famfs_sumpages_read(s->fd, rec_off(&s->h), (uint64_t)st.st_size,
				 s->h.nunits, seed, &rec, &nrec, &why);
	if (rc) {
		fail(reason, rc, "%s", why);
		goto bad_bm;
	}
	rc = -EBADMSG;
	/* what the CRC cannot say: the reserved units used, nfree right */
	used_reserved = famfs_data_start(fs->sb) / FAMFS_ALLOC_UNIT;
	for (uint64_t u = 0; u < used_reserved && u < bm->nunits; u++)
		if (!famfs_bitmap_test(bm, u)) {
			fail(reason, rc, "%s", "the superblock and log are not marked used");
			goto bad_bm;
		}
	if (bm->nunits % 64)
		bm->bits[bm->nwords - 1] &= (1ULL << (bm->nunits % 64)) - 1;
	for (uint64_t w = 0; w < bm->nwords; w++)
		nfree += 64 - (uint64_t)__builtin_popcountll(bm->bits[w]);
	nfree -= bm->nwords * 64 - bm->nunits;
	if (nfree != s->h.nfree) {
		fail(reason, rc, "%s", "free count mismatch");
		goto bad_bm;
	}
	bm->nfree = nfree;
	famfs_bitmap_recount(bm);
	rc = famfs_sumpages_load(fs, bm, rec, nrec, pa);
	if (rc) {
		fail(reason, rc, "%s", rc == -ENOMEM ? "out of memory" :
		     "the small files' page state is not consistent");
		goto bad_bm;
	}
	free(rec);
	rec = NULL;
	s->pg = calloc(s->h.npages, sizeof(*s->pg));
	s->dirty = calloc(s->h.npages, 1);
	if (!s->pg || !s->dirty) {
		rc = fail(reason, -ENOMEM, "%s", "out of memory");
		goto bad_pa;
	}
	s->boot_ok = true;	/* checked above */
	*next = s->h.next;
	*out = s;
	return 0;
bad_pa:
	famfs_pagealloc_free(*pa);
	free(*pa);
	*pa = NULL;
bad_bm:
	free(rec);
	famfs_bitmap_free(bm);
bad:
	famfs_summary_free(s);
	return rc;
}

/* page i of the table, read and checked on first use */
static struct sum_page *page(struct famfs_summary *s, uint64_t i)
{
	struct sum_page *p;

	if (s->pg[i])
		return s->pg[i];
	p = malloc(sizeof(*p));
	if (!p)
		return NULL;
	famfs_summary_stats.pages_read++;
	if (s->fd < 0 ||
	    pread(s->fd, p, sizeof(*p), (off_t)(s->h.table_off + i * SUM_PAGE)) !=
	    (ssize_t)sizeof(*p) || p->file_id != s->h.file_id ||
	    p->page_no != i || page_crc(p) != p->crc) {
		free(p);
		return NULL;
	}
	s->pg[i] = p;
	return p;
}

static int damaged(struct famfs_fs *fs)
{
	char path[PATH_MAX];

	famfs_summary_path(fs->sb->fs_uuid, path, sizeof(path));
	famfs_warn("%s: damaged; rebuilding it from the log", path);
	famfs_summary_remove(fs);
	return -EBADMSG;
}

/* find path: 1 (*idx, the slot in *at), or 0 and *at the empty slot that
 * ends its probe sequence */
static int lookup(struct famfs_summary *s, struct famfs_fs *fs,
		  const char *path, uint64_t *idx, uint64_t *at, int *type)
{
	uint64_t h = path_hash(path), nslots = s->h.npages * SUM_SLOTS;
	uint32_t h32 = (uint32_t)(h >> 32);
	uint64_t i = h32 % nslots, n = famfs_log_next(fs->log);

	for (uint64_t k = 0; k < nslots; k++, i = (i + 1) % nslots) {
		struct sum_page *p = page(s, i / SUM_SLOTS);
		uint64_t v, e_idx;
		struct famfs_log_entry e;

		if (!p)
			return damaged(fs);
		v = p->slot[i % SUM_SLOTS];
		if (!v) {
			*at = i;
			return 0;
		}
		if ((uint32_t)(v >> 32) != h32)
			continue;
		e_idx = (v & 0xffffffffULL) - 1;
		if (e_idx >= n)
			return damaged(fs);
		famfs_summary_stats.confirms++;
		if (famfs_log_entry_at(fs, e_idx, &e))
			return damaged(fs);
		if (!strncmp(e.fm.path, path, sizeof(e.fm.path))) {
			*idx = e_idx;
			*at = i;
			if (type)
				*type = le16toh(e.type);
			return 1;
		}
	}
	return damaged(fs);	/* no empty slot: never at half full */
}

int famfs_summary_find(struct famfs_summary *s, struct famfs_fs *fs,
		       const char *path, uint64_t *idx)
{
	uint64_t at;

	return lookup(s, fs, path, idx, &at, NULL);
}

int famfs_summary_find_type(struct famfs_summary *s, struct famfs_fs *fs,
			    const char *path, uint64_t *idx, int *type)
{
	uint64_t at;

	return lookup(s, fs, path, idx, &at, type);
}

/* twice the pages, every path moved over (all pages read first) */
static int grow(struct famfs_summary *s)
{
	struct famfs_summary old = *s;
	uint64_t nslots;
	int rc;

	for (uint64_t i = 0; i < old.h.npages; i++)
		if (!page(s, i))
			return -EBADMSG;
	s->pg = NULL;
	s->dirty = NULL;
	rc = table_alloc(s, 2 * old.h.npages + 1);
	if (rc) {
		sum_free_pages(s);
		*s = old;
		return rc;
	}
	nslots = s->h.npages * SUM_SLOTS;
	for (uint64_t i = 0; i < old.h.npages; i++) {
		for (unsigned k = 0; k < SUM_SLOTS; k++) {
			uint64_t v = old.pg[i]->slot[k], j;

			if (!v)
				continue;
			/* probing starts from the stored half of the hash */
			j = (v >> 32) % nslots;
			while (s->pg[j / SUM_SLOTS]->slot[j % SUM_SLOTS])
				j = (j + 1) % nslots;
			s->pg[j / SUM_SLOTS]->slot[j % SUM_SLOTS] = v;
		}
	}
	sum_free_pages(&old);
	/* a new id: pages of the new layout written before the header must
	 * not pass for pages of the old one (a crash in between) */
	new_file_id(s);
	s->hdr_dirty = true;
	return 0;
}

int famfs_summary_add(struct famfs_summary *s, struct famfs_fs *fs,
		      const char *path, uint64_t idx)
{
	uint64_t have, at;
	int rc;

	if (idx >= 0xffffffffULL)
		return -EOVERFLOW;
	if ((s->h.used + 1) * 2 > s->h.npages * SUM_SLOTS) {
		rc = grow(s);
		if (rc)
			return rc == -EBADMSG ? damaged(fs) : rc;
	}
	rc = lookup(s, fs, path, &have, &at, NULL);
	if (rc)
		return rc < 0 ? rc : 0;	/* the first entry of a path counts */
	s->pg[at / SUM_SLOTS]->slot[at % SUM_SLOTS] =
		(uint64_t)(uint32_t)(path_hash(path) >> 32) << 32 | (idx + 1);
	s->dirty[at / SUM_SLOTS] = 1;
	s->h.used++;
	return 0;
}

void famfs_summary_remove(struct famfs_fs *fs)
{
	char p[PATH_MAX];

	if (!famfs_summary_path(fs->sb->fs_uuid, p, sizeof(p)))
		unlink(p);
}

/* the file, created (and its directory) if missing; a link in its place
 * is not written through */
static int sum_open(struct famfs_summary *s, struct famfs_fs *fs)
{
	char p[PATH_MAX], *slash;

	if (s->fd >= 0)
		return 0;
	if (famfs_summary_path(fs->sb->fs_uuid, p, sizeof(p)))
		return -ENAMETOOLONG;
	s->fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (s->fd < 0 && errno == ENOENT) {
		for (slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
			*slash = '\0';
			mkdir(p, 0755);
			*slash = '/';
		}
		s->fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	}
	return s->fd < 0 ? -errno : 0;
}

uint32_t famfs_summary_last_crc(const struct famfs_summary *s)
{
	return s->h.last_crc;
}

uint64_t famfs_summary_last(const struct famfs_summary *s)
{
	return s->h.last;
}

int famfs_summary_save(struct famfs_summary *s, struct famfs_fs *fs,
		       const struct famfs_bitmap *bm,
		       const struct famfs_pagealloc *pa, uint64_t next,
		       uint64_t last, uint32_t last_crc)
{
	uint64_t seed[4];
	int rc;

	if (next > famfs_log_next(fs->log) || bm->nwords != s->h.nwords) {
		rc = -EINVAL;
		goto out;
	}
	/* the entries it covers are those that were read */
	if (next && last_entry_ok(fs, last, next, last_crc)) {
		rc = -ESTALE;
		goto out;
	}
	rc = sum_open(s, fs);
	if (rc)
		goto out;
	if (s->hdr_dirty &&
	    ftruncate(s->fd, (off_t)(s->h.table_off + s->h.npages * SUM_PAGE))) {
		rc = -errno;
		goto out;
	}
	/* the table pages first: a crash before the header leaves pages that
	 * hold more than the header's index says, which replaying the log
	 * from there adds again (nothing lost; a grown table has a new
	 * file id, so its pages do not pass under the old header); the header's CRC covers the
	 * bitmap, written with it */
	for (uint64_t i = 0; i < s->h.npages; i++) {
		struct sum_page *p = s->pg[i];

		if (!s->dirty[i] || !p)
			continue;
		p->file_id = s->h.file_id;
		p->page_no = (uint32_t)i;
		p->crc = page_crc(p);
		if (pwrite(s->fd, p, sizeof(*p),
			   (off_t)(s->h.table_off + i * SUM_PAGE)) != (ssize_t)sizeof(*p)) {
			rc = errno ? -errno : -EIO;
			goto out;
		}
		famfs_summary_stats.pages_written++;
		s->dirty[i] = 0;
	}
	if (!s->boot_ok && famfs_boot_id(s->h.boot)) {
		rc = -EIO;
		goto out;
	}
	s->boot_ok = true;
	/* the superblock as it is now (the append may have claimed the
	 * master role or set a feature bit since the cache was built) */
	s->h.sb_crc = le32toh(fs->sb->crc);
	s->h.mrec_gen = le64toh(fs->mrec.generation);
	s->h.next = next;
	s->h.last_crc = next ? last_crc : 0;
	s->h.last = next ? last : 0;
	s->h.nfree = bm->nfree;
	/* the page state after the table (its CRC names this save), then
	 * header and bitmap */
	rec_seed(&s->h, seed);
	rc = famfs_sumpages_write(s->fd, rec_off(&s->h), seed, pa);
	if (rc)
		goto out;
	s->h.crc = hdr_crc(&s->h, bm->bits);
	if (pwrite(s->fd, bm->bits, s->h.nwords * 8, sizeof(s->h)) !=
	    (ssize_t)(s->h.nwords * 8) ||
	    pwrite(s->fd, &s->h, sizeof(s->h), 0) != (ssize_t)sizeof(s->h)) {
		rc = errno ? -errno : -EIO;
		goto out;
	}
	s->hdr_dirty = false;
	return 0;
out:
	if (famfs_verbose)
		famfs_info("%s: create summary not written: %s", fs->name,
			   strerror(-rc));
	return rc;
}
