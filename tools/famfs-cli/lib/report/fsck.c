// SPDX-License-Identifier: GPL-2.0
/*
 * fsck: superblock and log header are checked when the fs is opened; here
 * every committed entry (CRC, sequence, uuid, path, extents or strips
 * inside the device and outside sb/log, an interleaved geometry that holds
 * the file, strips of one file apart, the superblock's interleave feature),
 * memory shared by two files, a path logged twice, a file where a
 * directory belongs, and a DELETE, RENAME or SETATTR the log's namespace
 * refuses (log/names.c: what every replay reports and skips); small files
 * (issue 30): no page of two files, no page extent in a unit a large file
 * holds and no large file in a shared unit.
 */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

struct fsck_ctx {
	struct famfs_fs *fs;
	struct famfs_fsck_result *r;
	/* per device, per unit: 1 + entry index, 0 free (a member's made
	 * when its first extent is seen: the walk has its DEVADD by then) */
	uint32_t *owner[FAMFS_MAX_DEVS];
	uint64_t nunits[FAMFS_MAX_DEVS];
	bool nomem;
	struct famfs_names *names;
	famfs_problem_fn fn;
	void *arg;
	/* the log's segments by their EXTEND entries (1..nseg-1) */
	struct famfs_extent seg[FAMFS_LOG_MAX_SEGS];
	unsigned nseg;
	uint64_t hosts_idx;	/* 1 + the HOSTS entry's index, 0: none yet */
	/* small files: the shared units (owner SHARED), each page's owner
	 * (1 + entry index), found by (device, unit) in a hash table */
	struct fsck_punit *pu;
	uint32_t npu, cap, *hash, hcap;
};

#define SHARED	UINT32_MAX	/* owner[] of a unit that page extents share */
struct fsck_punit {
	uint64_t key;		/* device << 56 | unit */
	uint32_t page[FAMFS_UNIT_PAGES];
};

/* the path of the entry at idx (out: FAMFS_LOG_PATH_MAX) */
static const char *entry_path(struct famfs_fs *fs, uint64_t idx, char *out)
{
	struct famfs_log_entry e;

	if (famfs_log_entry_at(fs, idx, &e))
		return "(unreadable entry)";
	if (le16toh(e.type) == FAMFS_LOG_EXTEND)
		return "a log segment";
	if (le16toh(e.type) == FAMFS_LOG_HOSTS)
		return "the host table";
	snprintf(out, FAMFS_LOG_PATH_MAX, "%.*s", FAMFS_LOG_PATH_MAX - 1,
		 e.fm.path);
	return out;
}

static void problem_msg(struct fsck_ctx *c, const char *msg)
{
	c->r->problems++;
	famfs_err("%s: %s", c->fs->name, msg);
	if (c->fn)
		c->fn(c->arg, msg);
}

static void say_problem(void *arg, const char *msg)
{
	problem_msg(arg, msg);
}

static void problem(struct fsck_ctx *c, const char *fmt, const char *a,
		    unsigned long long idx, const char *b)
{
	char msg[1600];

	snprintf(msg, sizeof(msg), fmt, a, idx, b);
	problem_msg(c, msg);
}

static void mark_units(struct fsck_ctx *c, const struct famfs_log_entry *e,
		       uint64_t idx, bool report);

/* a DELETE, RENAME or SETATTR the namespace refuses: every replay says
 * and skips it (the object is not there, a directory not empty, a RENAME
 * onto a path that is there) */
static void ns_refused(struct fsck_ctx *c, uint64_t idx,
		       const struct famfs_log_entry *e, const char *why)
{
	struct famfs_ns ns;
	char msg[1600];

	famfs_ns_get(e, &ns);
	snprintf(msg, sizeof(msg), "log entry %llu: %s of entry %llu (%.511s%s%.511s) does not apply: %.600s",
		 (unsigned long long)idx, famfs_ns_name(ns.type),
		 (unsigned long long)ns.object, ns.path, ns.to ? " to " : "",
		 ns.to ? ns.to : "", why);
	problem_msg(c, msg);
}

static struct fsck_punit *punit(struct fsck_ctx *c, unsigned dev,
				uint64_t unit, bool make);

/* a RECLAIM applied: what the freed file owned is nobody's now (a unit
 * or page another entry claims stays that one's) */
static void unmark_file(struct fsck_ctx *c, uint64_t obj)
{
	struct famfs_extent rg[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry fe;
	uint32_t me = (uint32_t)(obj + 1);

	if (famfs_log_entry_at(c->fs, obj, &fe) || le16toh(fe.type) != FAMFS_LOG_FILE)
		return;
	for (unsigned dev = 0; dev < FAMFS_MAX_DEVS; dev++) {
		unsigned nr = famfs_entry_ranges_on(&fe, dev, rg);
		uint32_t *owner = c->owner[dev];

		for (unsigned i = 0; i < nr && owner; i++) {
			uint64_t u = rg[i].offset / FAMFS_ALLOC_UNIT;

			if (famfs_entry_pages(&fe)) {
				struct fsck_punit *p = punit(c, dev, u, false);
				uint32_t f = (uint32_t)(rg[i].offset % FAMFS_ALLOC_UNIT / FAMFS_PAGE);
				bool any = false;

				for (uint32_t k = 0; p && k < FAMFS_UNIT_PAGES; k++) {
					if (k >= f && k < f + rg[i].len / FAMFS_PAGE &&
					    p->page[k] == me)
						p->page[k] = 0;
					any |= p->page[k] != 0;
				}
				if (p && !any && u < c->nunits[dev] &&
				    owner[u] == SHARED) {
					owner[u] = 0;
					c->r->used_bytes -= FAMFS_ALLOC_UNIT;
				}
				continue;
			}
			for (uint64_t k = u; k < u + rg[i].len / FAMFS_ALLOC_UNIT &&
			     k < c->nunits[dev]; k++)
				if (owner[k] == me) {
					owner[k] = 0;
					c->r->used_bytes -= FAMFS_ALLOC_UNIT;
				}
		}
	}
}

/* a RECLAIM: applied (its files' memory unmarked), or corrupt (R3) */
static void fsck_reclaim(struct fsck_ctx *c, uint64_t idx, int rc,
			 const char *why)
{
	const uint64_t *obj;
	char msg[FAMFS_NAMES_WHY_LEN + 200];
	unsigned k;

	if (rc == FAMFS_NAMES_CORRUPT) {
		c->r->bad_entries++;
		snprintf(msg, sizeof(msg), "log entry %llu: a corrupt RECLAIM entry: %s (the master allocates nothing until the log is repaired)",
			 (unsigned long long)idx, why);
		problem_msg(c, msg);
		return;
	}
	k = famfs_names_reclaimed(c->names, &obj);
	for (unsigned i = 0; i < k; i++)
		unmark_file(c, obj[i]);
}

/* the host table's slots that do not verify (and are not zero) */
static void torn_slots(struct famfs_fs *fs, struct famfs_fsck_result *r)
{
	struct famfs_hosttab t;
	struct famfs_host h;

	if (famfs_hosttab_open(fs, false, &t))
		return;		/* none, or said */
	for (unsigned i = 0; i < FAMFS_HOST_SLOTS; i++) {
		if (famfs_hosttab_slot(&t, i, &h) != FAMFS_HOST_TORN)
			continue;
		if (r->torn_slots < sizeof(r->torn_slot) / sizeof(r->torn_slot[0]))
			r->torn_slot[r->torn_slots] = i;
		r->torn_slots++;
	}
	famfs_hosttab_close(&t);
}

/* the memory of a deleted file no RECLAIM freed: no problem, said */
static int pending(void *arg, uint64_t del, uint64_t object)
{
	struct fsck_ctx *c = arg;
	struct famfs_extent rg[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry fe;

	(void)del;
	c->r->pending_files++;
	if (famfs_log_entry_at(c->fs, object, &fe))
		return 0;
	for (unsigned i = 0, n = famfs_entry_ranges(&fe, rg); i < n; i++)
		c->r->pending_bytes += rg[i].len;
	return 0;
}

static int fsck_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct fsck_ctx *c = arg;
	char why[FAMFS_NAMES_WHY_LEN], m[64];
	int type = le16toh(e->type), rc;
	uint64_t other = 0;

	c->r->entries++;
	if (!ok) {
		bool unknown = famfs_entry_owned_devs(e, idx, c->fs->sb, &c->fs->devs, NULL) != 0;
		char why[FAMFS_REASON_LEN + 96];

		snprintf(why, sizeof(why), "%s (cannot be parsed: the master allocates nothing until the log is repaired)",
			 reason);

		c->r->bad_entries++;
		/* R3: what it owns stays used; if that is unknown, the
		 * master allocates nothing until the log is repaired */
		problem(c, "%slog entry %llu: %s", "", (unsigned long long)idx,
			unknown ? why : reason);
		if (!unknown)
			mark_units(c, e, idx, true);
		return 0;
	}
	if (type == FAMFS_LOG_HOSTS) {		/* the host table */
		const struct famfs_log_hosts *h = famfs_entry_hosts(e);

		if (famfs_verbose)
			printf("entry %llu: host table at %llu, %llu bytes\n",
			       (unsigned long long)idx,
			       (unsigned long long)le64toh(h->offset),
			       (unsigned long long)le64toh(h->len));
		/* one per file system: a second one keeps its memory (R3) */
		if (c->hosts_idx) {
			char first[32];

			snprintf(first, sizeof(first), "%llu",
				 (unsigned long long)(c->hosts_idx - 1));
			problem(c, "%slog entry %llu: a second HOSTS entry (the host table is entry %s's)",
				"", (unsigned long long)idx, first);
		} else
			c->hosts_idx = idx + 1;
		mark_units(c, e, idx, true);
		return 0;
	}
	if (type == FAMFS_LOG_EXTEND) {		/* a log segment */
		if (famfs_verbose)
			printf("entry %llu: log segment %llu at %llu, %llu bytes\n",
			       (unsigned long long)idx,
			       (unsigned long long)le64toh(e->fm.size),
			       (unsigned long long)le64toh(e->fm.ext.simple[0].offset),
			       (unsigned long long)le64toh(e->fm.ext.simple[0].len));
		mark_units(c, e, idx, true);
		if (le64toh(e->fm.size) == c->nseg && c->nseg < FAMFS_LOG_MAX_SEGS) {
			c->seg[c->nseg].offset = le64toh(e->fm.ext.simple[0].offset);
			c->seg[c->nseg++].len = le64toh(e->fm.ext.simple[0].len);
		}
		return 0;
	}
	if (type == FAMFS_LOG_RECLAIM) {
		if (famfs_verbose)
			printf("entry %llu: RECLAIM of %u DELETEs\n",
			       (unsigned long long)idx,
			       le32toh(((const struct famfs_log_reclaim *)
					((const uint8_t *)e + FAMFS_NS_BODY_OFF))->count));
		rc = famfs_names_apply(c->names, idx, e, NULL, why);
		if (rc < 0)
			c->nomem = true;
		else
			fsck_reclaim(c, idx, rc, why);
		return 0;
	}
	if (famfs_verbose && famfs_entry_is_ns(type))
		printf("entry %llu: %s %s\n", (unsigned long long)idx,
		       famfs_ns_name(type), famfs_entry_path(e));
	else if (famfs_verbose && famfs_entry_interleaved(e))
		printf("entry %llu: file %s size %llu mode 0%o interleaved: %u strips of %llu bytes, chunk %llu\n",
		       (unsigned long long)idx, e->fm.path,
		       (unsigned long long)le64toh(e->fm.size),
		       le32toh(e->fm.mode),
		       le32toh(e->fm.ext.interleave.nstrips),
		       (unsigned long long)le64toh(e->fm.ext.interleave.strip_len),
		       (unsigned long long)le64toh(e->fm.ext.interleave.chunk_size));
	else if (famfs_verbose)
		printf("entry %llu: %s %s size %llu mode 0%o\n",
		       (unsigned long long)idx,
		       type == FAMFS_LOG_FILE ? "file" : "dir", e->fm.path,
		       (unsigned long long)le64toh(e->fm.size),
		       le32toh(e->fm.mode));
	if (type == FAMFS_LOG_DEVADD)	/* no path, no memory */
		return 0;
	if (type == FAMFS_LOG_MKDIR)
		c->r->dirs++;
	else if (type == FAMFS_LOG_FILE)
		c->r->files++;
	/* as a replay: a DELETE of an entry that is not a file or
	 * directory is corrupt (skipped), not applied */
	if (famfs_delete_object_bad(c->fs, e, why, sizeof(why))) {
		c->r->bad_entries++;
		problem(c, "%slog entry %llu: a corrupt DELETE entry: %s", "",
			(unsigned long long)idx, why);
		return 0;
	}
	rc = famfs_names_apply(c->names, idx, e, &other, why);
	if (rc < 0) {
		c->nomem = true;
		return 0;
	}
	snprintf(m, sizeof(m), "entry %llu", (unsigned long long)other);
	if (rc == FAMFS_NAMES_TWICE)
		problem(c, "%s: logged twice (entry %llu and %s)", e->fm.path,
			(unsigned long long)idx, m);
	else if (rc == FAMFS_NAMES_UNDER_FILE)
		problem(c, "%s (entry %llu): a file where a directory belongs (%s)",
			why, (unsigned long long)other, e->fm.path);
	else if (rc == FAMFS_NAMES_DIR_THERE)
		problem(c, "%s (entry %llu): a file where a directory belongs (%s)",
			e->fm.path, (unsigned long long)idx, why);
	else if (rc)
		ns_refused(c, idx, e, why);
	if (type == FAMFS_LOG_FILE)
		mark_units(c, e, idx, true);
	return 0;
}

/* R4: a written entry past next_index */
static int fsck_past(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		     bool ok, const char *reason)
{
	struct fsck_ctx *c = arg;
	uint64_t next = famfs_log_next(c->fs->log);
	char m[64];

	(void)reason;
	/* an uncommitted append is no file: its memory is reserved, but
	 * sharing with a committed file is not a problem of the log */
	if (ok || !famfs_entry_owned_devs(e, idx, c->fs->sb, &c->fs->devs, NULL))
		mark_units(c, e, idx, idx > next);
	/* idx < next: committed since the scan began (a client's fsck while
	 * the master appends), as the append it was then */
	if (idx <= next) {
		/* a crash between writing it and committing it */
		if (famfs_verbose)
			printf("past next_index: entry %llu, an uncommitted append (or next_index one short): its memory stays reserved; the master's next append commits it\n",
			       (unsigned long long)idx);
		return 0;
	}
	snprintf(m, sizeof(m), "%llu", (unsigned long long)next);
	problem(c, "%slog entry %llu: committed entry past next_index %s (the log header is damaged; the master will not append)",
		"", (unsigned long long)idx, m);
	return 0;
}

/* the owner map of a member (the primary's is made first) */
static void owner_map(struct fsck_ctx *c, unsigned dev)
{
	const struct famfs_logdev *d = famfs_logdevs_get(&c->fs->devs, dev);

	if (!d)		/* an entry that names it did not parse */
		return;
	c->nunits[dev] = d->size / FAMFS_ALLOC_UNIT;
	c->owner[dev] = calloc(c->nunits[dev] + 1, sizeof(uint32_t));
	c->nomem |= !c->owner[dev];
}

static uint32_t key_pos(const struct fsck_ctx *c, uint64_t key)
{
	uint32_t i = (uint32_t)((key * 0x9e3779b97f4a7c15ULL) >> 40) & (c->hcap - 1);

	while (c->hash[i] && c->pu[c->hash[i] - 1].key != key)
		i = (i + 1) & (c->hcap - 1);
	return i;
}

/* the page owners of (dev, unit); make: a new one (NULL: no memory) */
static struct fsck_punit *punit(struct fsck_ctx *c, unsigned dev,
				uint64_t unit, bool make)
{
	uint64_t key = (uint64_t)dev << 56 | unit;
	uint32_t i;

	if (c->hcap && c->hash[i = key_pos(c, key)])
		return &c->pu[c->hash[i] - 1];
	if (!make)
		return NULL;
	if ((c->npu + 1) * 2 > c->hcap) {
		uint32_t ncap = c->hcap ? c->hcap * 2 : 64, *old = c->hash;
		uint32_t ocap = c->hcap;

		c->hash = calloc(ncap, sizeof(*c->hash));
		if (!c->hash) {
			c->hash = old;
			c->nomem = true;
			return NULL;
		}
		c->hcap = ncap;
		for (uint32_t k = 0; k < ocap; k++)
			if (old[k])
				c->hash[key_pos(c, c->pu[old[k] - 1].key)] = old[k];
		free(old);
	}
	if (c->npu == c->cap) {
		uint32_t ncap = c->cap ? c->cap * 2 : 16;
		struct fsck_punit *n = realloc(c->pu, ncap * sizeof(*n));

		if (!n) {
			c->nomem = true;
			return NULL;
		}
		c->pu = n;
		c->cap = ncap;
	}
	memset(&c->pu[c->npu], 0, sizeof(c->pu[0]));
	c->pu[c->npu].key = key;
	c->hash[key_pos(c, key)] = ++c->npu;
	return &c->pu[c->npu - 1];
}

/* a small file in shared unit u: the path of one (out) */
static const char *shared_by(struct fsck_ctx *c, unsigned dev, uint64_t u,
			     char *out)
{
	struct fsck_punit *p = punit(c, dev, u, false);

	for (unsigned i = 0; p && i < FAMFS_UNIT_PAGES; i++)
		if (p->page[i])
			return entry_path(c->fs, p->page[i] - 1, out);
	return "small files";
}

/* a small file's page extent: its unit shared (counted once, whole), each
 * page one file's */
static void mark_pages(struct fsck_ctx *c, const struct famfs_log_entry *e,
		       uint64_t idx, bool report, unsigned dev,
		       const struct famfs_extent *rg, char *other)
{
	uint64_t u = rg->offset / FAMFS_ALLOC_UNIT;
	uint32_t first = (uint32_t)(rg->offset % FAMFS_ALLOC_UNIT / FAMFS_PAGE);
	uint32_t n = (uint32_t)(rg->len / FAMFS_PAGE);
	uint32_t *owner = c->owner[dev];
	struct fsck_punit *p;
	bool said = false;

	if (u >= c->nunits[dev])
		return;
	if (owner[u] && owner[u] != SHARED) {
		if (report && owner[u] != idx + 1)
			problem(c, "%s (entry %llu) has pages in a 2 MiB unit that a large file holds whole (%s): a shared unit holds small files only",
				e->fm.path, (unsigned long long)idx,
				entry_path(c->fs, owner[u] - 1, other));
	} else if (!owner[u]) {
		owner[u] = SHARED;
		c->r->used_bytes += FAMFS_ALLOC_UNIT;
	}
	p = punit(c, dev, u, true);
	for (uint32_t i = first; p && i < first + n && i < FAMFS_UNIT_PAGES; i++) {
		if (!p->page[i]) {
			p->page[i] = (uint32_t)(idx + 1);
			continue;
		}
		if (report && !said && p->page[i] != idx + 1) {
			said = true;
			problem(c, "%s (entry %llu) shares a 4 KiB page with %s",
				e->fm.path, (unsigned long long)idx,
				entry_path(c->fs, p->page[i] - 1, other));
		}
	}
}

static void mark_range(struct fsck_ctx *c, const struct famfs_log_entry *e,
		       uint64_t idx, bool report, unsigned dev,
		       const struct famfs_extent *rg, char *other)
{
	uint32_t *owner = c->owner[dev];
	uint64_t u = rg->offset / FAMFS_ALLOC_UNIT;
	uint64_t n = rg->len / FAMFS_ALLOC_UNIT;
	uint32_t prev = 0;
	char on[40] = "";

	if (dev)
		snprintf(on, sizeof(on), " on device %u", dev);
	for (uint64_t k = u; k < u + n && k < c->nunits[dev]; k++) {
		if (owner[k] == SHARED) {	/* small files' */
			if (report && !prev) {
				char with[FAMFS_LOG_PATH_MAX + 40];

				prev = SHARED;
				snprintf(with, sizeof(with), "%s%s",
					 shared_by(c, dev, k, other), on);
				problem(c, "%s (entry %llu) lies in a shared unit of small files (with %s)",
					le16toh(e->type) == FAMFS_LOG_EXTEND ?
					"a log segment" :
					le16toh(e->type) == FAMFS_LOG_HOSTS ?
					"the host table" : e->fm.path,
					(unsigned long long)idx, with);
			}
			continue;
		}
		if (!report) {	/* reserved: only what nobody owns */
			if (!owner[k]) {
				owner[k] = (uint32_t)(idx + 1);
				c->r->used_bytes += FAMFS_ALLOC_UNIT;
			}
			continue;
		}
		if (owner[k] && owner[k] != idx + 1 && !prev) {
			char with[FAMFS_LOG_PATH_MAX + 40];

			prev = owner[k];
			snprintf(with, sizeof(with), "%s%s",
				 entry_path(c->fs, prev - 1, other), on);
			problem(c, "%s (entry %llu) shares memory with %s",
				le16toh(e->type) == FAMFS_LOG_EXTEND ?
				"a log segment" :
				le16toh(e->type) == FAMFS_LOG_HOSTS ?
				"the host table" : e->fm.path,
				(unsigned long long)idx, with);
		}
		/* a unit counts once, however many files claim it */
		if (owner[k])
			continue;
		owner[k] = (uint32_t)(idx + 1);
		c->r->used_bytes += FAMFS_ALLOC_UNIT;
	}
}

/* the units of an entry's extents or strips: owner and (report) sharing */
static void mark_units(struct fsck_ctx *c, const struct famfs_log_entry *e,
		       uint64_t idx, bool report)
{
	struct famfs_extent rg[FAMFS_ENTRY_MAX_RANGES];
	char other[FAMFS_LOG_PATH_MAX];
	unsigned nr;

	for (unsigned dev = 0; dev < FAMFS_MAX_DEVS; dev++) {
		/* extents, or strips, on this device: overlap is per device */
		nr = famfs_entry_ranges_on(e, dev, rg);
		if (nr && !c->owner[dev])
			owner_map(c, dev);
		for (unsigned i = 0; i < nr && c->owner[dev]; i++)
			if (famfs_entry_pages(e))
				mark_pages(c, e, idx, report, dev, &rg[i], other);
			else
				mark_range(c, e, idx, report, dev, &rg[i], other);
	}
}

/* Every member the log added must be on this host with its superblock:
 * found by device uuid as a mount finds it (a damaged one is refused by
 * the scan, which names it), no smaller than its DEVADD says */
static void check_members(struct fsck_ctx *c)
{
	struct famfs_member_want want[FAMFS_MAX_DEVS];
	struct famfs_fs *fs = c->fs;
	struct famfs_devtab *t;
	char u[37], m[600];
	int n = 0;

	c->r->ndevs = fs->devs.ndevs;
	if (fs->devs.ndevs < 2)
		return;
	for (unsigned i = 1; i < fs->devs.ndevs; i++) {
		want[n].index = i;
		memcpy(want[n++].dev_uuid, fs->devs.dev[i].dev_uuid, 16);
	}
	/* a scan that fails (two devices claim one member) has said why:
	 * nothing it found is trusted then; a member superblock that no
	 * DEVADD names (an interrupted devadd) is no problem */
	t = malloc(sizeof(*t));
	if (t && famfs_devtab_find(fs->sb->fs_uuid, NULL, 0, want, n, t)) {
		free(t);
		t = NULL;
	}
	for (unsigned i = 1; i < fs->devs.ndevs; i++) {
		const struct famfs_logdev *d = &fs->devs.dev[i];
		const struct famfs_found_dev *f = t ? &t->dev[i] : NULL;

		famfs_uuid_str(d->dev_uuid, u);
		if (!f || !f->present) {
			snprintf(m, sizeof(m), "member %u (device uuid %s, %llu bytes): no device on this host has its superblock%s",
				 i, u, (unsigned long long)d->size,
				 t && t->ndamaged ? " (a damaged or stale member superblock of this file system was refused: see above)" : "");
		} else if (memcmp(f->dev_uuid, d->dev_uuid, 16)) {
			char fu[37];

			famfs_uuid_str(f->dev_uuid, fu);
			snprintf(m, sizeof(m), "member %u: %s has device uuid %s, the log added %s",
				 i, f->path, fu, u);
		} else if (f->size < d->size) {
			snprintf(m, sizeof(m), "member %u: %s is %llu bytes by its superblock, the log added it with %llu",
				 i, f->path, (unsigned long long)f->size,
				 (unsigned long long)d->size);
		} else {
			snprintf(c->r->dev_path[i], sizeof(c->r->dev_path[i]),
				 "%s", f->path);
			c->r->dev_ok[i] = true;
			continue;
		}
		c->r->members_bad++;
		problem_msg(c, m);
	}
	free(t);
}

int famfs_fsck(struct famfs_fs *fs, struct famfs_fsck_result *r)
{
	return famfs_fsck_cb(fs, r, NULL, NULL);
}

int famfs_fsck_cb(struct famfs_fs *fs, struct famfs_fsck_result *r,
		  famfs_problem_fn fn, void *arg)
{
	struct fsck_ctx c = { .fs = fs, .r = r, .fn = fn, .arg = arg,
			      .nseg = 1 };
	uint64_t data = famfs_data_start(fs->sb), area;
	int rc;

	memset(r, 0, sizeof(*r));
	c.nunits[0] = famfs_sb_dev_size(fs->sb) / FAMFS_ALLOC_UNIT;
	c.owner[0] = calloc(c.nunits[0] + 1, sizeof(*c.owner[0]));
	c.names = famfs_names_new();
	if (!c.owner[0] || !c.names) {
		free(c.owner[0]);
		famfs_names_free(c.names);
		famfs_err("%s: out of memory", fs->name);
		return -ENOMEM;
	}
	rc = famfs_log_walk(fs, fsck_entry, &c);
	if (rc == -ENXIO && fs->walk_lost != UINT64_MAX) {
		/* a segment not mapped here (its EXTEND entry damaged, or its
		 * .meta/.logK unusable: said above and by the file check
		 * below): a corrupt entry, not an operational error */
		char m[64];

		snprintf(m, sizeof(m), "%llu",
			 (unsigned long long)famfs_log_next(fs->log) - 1);
		c.r->bad_entries++;
		problem(&c, "%slog entry %llu: log slots from here to %s cannot be read: they are in a log segment that is not mapped here, and no entry after a lost segment can be read (the master allocates nothing until the log is repaired)",
			"", (unsigned long long)fs->walk_lost, m);
		rc = 0;
	}
	if (!rc)
		rc = famfs_log_walk_past(fs, fsck_past, &c);
	if (!rc && c.nomem) {
		famfs_err("%s: out of memory", fs->name);
		rc = -ENOMEM;
	}
	/* what the log deleted is no longer a file or directory of it (its
	 * memory stays used until a RECLAIM) */
	if (!rc) {
		struct famfs_names_count k;

		famfs_names_counts(c.names, &k);
		r->files -= k.deleted_files;
		r->dirs -= k.deleted_dirs;
		famfs_names_pending(c.names, pending, &c);
	}
	if (!rc)
		check_members(&c);
	if (!rc)
		torn_slots(fs, r);
	/* a mount: .meta/.log1.. as the EXTEND entries say (also when the
	 * walk stopped: one that maps other memory stops it) */
	famfs_logseg_check_files(fs, c.seg, c.nseg, say_problem, &c);
	/* used: distinct units, inside the data areas (famfs_entry_check),
	 * so this cannot wrap; clamped all the same */
	area = c.nunits[0] * FAMFS_ALLOC_UNIT - data / FAMFS_ALLOC_UNIT *
	       FAMFS_ALLOC_UNIT;
	for (unsigned i = 1; i < fs->devs.ndevs; i++)
		area += fs->devs.dev[i].size - fs->devs.dev[i].data_start;
	r->free_bytes = r->used_bytes < area ? area - r->used_bytes : 0;
	famfs_names_free(c.names);
	for (unsigned i = 0; i < FAMFS_MAX_DEVS; i++)
		free(c.owner[i]);
	free(c.pu);
	free(c.hash);
	return rc;
}
