// SPDX-License-Identifier: GPL-2.0
/* The append-only metadata log: reading it (walk, entries, the devices it
 * adds); the append is append.c. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "log/log.h"

uint64_t famfs_log_next(const struct famfs_log_header *h)
{
	return le64toh(__atomic_load_n(&h->next_index, __ATOMIC_ACQUIRE));
}

/* ---- compact log (famfs_format.h, clog.c) ---- */
/*
 * The entry at slot i of a compact log, which must end by slot end: its
 * v1 form in *e, *ok as famfs_entry_check says.  Returns its slot count,
 * or -errno (reason filled) if no entry of this fs verifies there (torn,
 * CRC, seq).  refresh: re-read once if none does (a stale line).
 */
static int clog_read(struct famfs_fs *fs, uint64_t i, uint64_t end,
		     struct famfs_log_entry *e, bool *ok, char *reason,
		     bool refresh)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	uint8_t *s = famfs_clog_slot(fs->log, i);
	uint64_t avail = end - i < FAMFS_CLOG_MAX_SLOTS ? end - i :
			 FAMFS_CLOG_MAX_SLOTS;
	int n, rc;

	rc = famfs_log_load(fs, s, avail * FAMFS_CLOG_SLOT);
	if (rc)
		return rc;
	for (int pass = 0;; pass++) {
		unsigned k = __atomic_load_n(&s[offsetof(struct famfs_clog_hdr, nslots)],
					     __ATOMIC_RELAXED);

		/* a private copy: the mapping may be shared */
		famfs_clog_copy(buf, s, k, (unsigned)avail);
		n = famfs_clog_verify(buf, i, avail, fs->sb->fs_uuid, reason);
		/* a stale line may hold anything (zeros: a wrong seq, not
		 * only a CRC mismatch as in v1): any failure is retried */
		if (n >= 0 || !refresh || pass ||
		    famfs_log_refresh(fs, s, avail * FAMFS_CLOG_SLOT))
			break;
		famfs_flush_stats.crc_retries++;
	}
	if (n < 0)
		return n;
	rc = famfs_clog_decode(buf, i, fs->sb->fs_uuid, e, reason);
	/* (its seq, uuid and v1 CRC are decode's own: the compact CRC,
	 * seq and slot count were verified above) */
	if (!rc)
		rc = famfs_entry_check_fields(e, i, fs->sb, &fs->devs, reason);
	*ok = rc == 0;
	fs->read_verdict = rc;
	return n;
}

/* the slot count of a verifying entry of this fs at slot i, else 0 */
unsigned famfs_clog_written(struct famfs_fs *fs, uint64_t i, uint64_t end)
{
	const struct famfs_clog_hdr *h = (const void *)famfs_clog_slot(fs->log, i);
	struct famfs_log_entry e;
	bool ok;
	int n;

	if (i >= end || famfs_log_load(fs, h, FAMFS_CLOG_SLOT *
				       (end - i < FAMFS_CLOG_MAX_SLOTS ?
					end - i : FAMFS_CLOG_MAX_SLOTS)))
		return 0;
	/* a reader (a client, a clone of the master): fresh lines, the
	 * first one only for most slots */
	if (!fs->master_instance)
		famfs_log_invalidate(fs, h, sizeof(*h));
	if (le64toh(h->seq) != i)	/* cheap first: most slots are not */
		return 0;
	/* (no further than the log's end: the mapping ends there) */
	if (!fs->master_instance)
		famfs_log_invalidate(fs, h, FAMFS_CLOG_SLOT *
				     (end - i < FAMFS_CLOG_MAX_SLOTS ?
				      end - i : FAMFS_CLOG_MAX_SLOTS));
	n = clog_read(fs, i, end, &e, &ok, NULL, false);
	return n > 0 ? (unsigned)n : 0;
}

/*
 * R4, bounded: the first slot in [from, cap) that starts a verifying entry
 * of this fs, looking no further than bound slots past from or past the
 * end of the last one found; UINT64_MAX if none.  fn (may be NULL) is
 * called for each one found, and then the scan goes on (a non-zero return
 * of fn stops it and is put in *rc).
 */
uint64_t famfs_clog_scan(struct famfs_fs *fs, uint64_t from, uint64_t cap,
			  uint64_t bound, famfs_entry_fn fn, void *arg, int *rc)
{
	uint64_t first = UINT64_MAX, last = from;
	char reason[FAMFS_REASON_LEN];

	for (uint64_t i = from; i < cap && i - last < bound;) {
		struct famfs_log_entry e;
		unsigned n = famfs_clog_written(fs, i, cap);
		bool ok;

		if (!n) {
			i++;
			continue;
		}
		if (first == UINT64_MAX)
			first = i;
		if (!fn)
			return first;
		reason[0] = '\0';
		clog_read(fs, i, cap, &e, &ok, reason, false);
		fs->walk_next = i + n;
		*rc = fn(arg, i, &e, ok, reason);
		if (*rc)
			break;
		i += n;
		last = i;
	}
	return first;
}

/* What a walk tells its callback of the entry it is at: a walk run from
 * that callback (the devices brought up to date, the log's segments
 * discovered) gives it back as it was */
struct walk_at {
	uint64_t next;
	bool torn;
	int verdict;
};

static struct walk_at walk_at_save(const struct famfs_fs *fs)
{
	return (struct walk_at){ fs->walk_next, fs->walk_torn, fs->read_verdict };
}

static void walk_at_restore(struct famfs_fs *fs, struct walk_at w)
{
	fs->walk_next = w.next;
	fs->walk_torn = w.torn;
	fs->read_verdict = w.verdict;
}

static int no_op(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		 bool ok, const char *reason)
{
	(void)arg, (void)idx, (void)e, (void)ok, (void)reason;
	return 0;
}

/* A grown log whose segments are not all mapped yet (opened from a device,
 * or a mount whose replay has not reached an EXTEND entry): read the log,
 * which maps each segment as its EXTEND entry goes by.  The cap then. */
uint64_t famfs_log_discover(struct famfs_fs *fs)
{
	struct walk_at at = walk_at_save(fs);

	if (fs->view && famfs_log_next(fs->log) > famfs_log_cap(fs) &&
	    le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_LOG_EXTEND) {
		famfs_log_walk(fs, no_op, NULL);
		walk_at_restore(fs, at);
	}
	return famfs_log_cap(fs);
}

int famfs_log_walk_past(struct famfs_fs *fs, famfs_entry_fn fn, void *arg)
{
	uint64_t n = famfs_log_refresh_next(fs), cap = famfs_log_discover(fs);
	char reason[FAMFS_REASON_LEN];

	if (famfs_fs_compact(fs)) {
		int rc = famfs_fs_devs_update(fs);

		if (rc)
			return rc;

		famfs_clog_scan(fs, n, cap, FAMFS_CLOG_SCAN, fn, arg, &rc);
		return rc;
	}
	for (uint64_t i = n; i < cap; i++) {
		struct famfs_log_entry *e = famfs_log_slot(fs->log, i);
		struct famfs_log_entry copy;
		int rc;

		/* a reader (a client, a clone of the master): fresh lines,
		 * the first one only for most slots */
		if (!fs->master_instance)
			famfs_map_invalidate(&fs->logm, e, 32);
		if (le64toh(e->seq) != i ||
		    memcmp(e->fs_uuid, fs->sb->fs_uuid, 16))
			continue;
		if (!fs->master_instance)
			famfs_map_invalidate(&fs->logm, e, sizeof(*e));
		memcpy(&copy, e, sizeof(copy));
		if (!famfs_entry_written(&copy, i, fs->sb))
			continue;
		reason[0] = '\0';
		rc = famfs_entry_check(&copy, i, fs->sb, reason);
		fs->walk_next = i + 1;
		rc = fn(arg, i, &copy, rc == 0, reason);
		if (rc)
			return rc;
	}
	return 0;
}

uint64_t famfs_log_refresh_next(struct famfs_fs *fs)
{
	/* the opening's geometry (from the superblock it verified), not the
	 * header's capacity: that is the media's now, and a v1 walk reads
	 * slots up to next_index from the mapping */
	uint64_t n, cap = famfs_log_cap(fs);

	/* a grown log: segments may come that are not mapped yet (a compact
	 * one only: a v1 log is its mapping, whatever the bit says) */
	if (famfs_fs_compact(fs) &&
	    le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_LOG_EXTEND)
		cap = FAMFS_CLOG_CAPACITY(FAMFS_LOG_TOTAL_MAX);

	/* the master wrote it itself; anyone else may hold a stale line */
	if (!fs->master_instance)
		famfs_map_refresh(&fs->logm, fs->log, sizeof(*fs->log));
	n = famfs_log_next(fs->log);
	if (n > cap) {
		famfs_err("%s: log next index %llu beyond capacity %llu; using %llu",
			  fs->name, (unsigned long long)n,
			  (unsigned long long)cap, (unsigned long long)cap);
		n = cap;
	}
	return n;
}

/* An entry refused by a reader whose copy of the superblock may predate
 * a feature bit the master set before it wrote the entry (bounce buffers,
 * a non-coherent CPU's lines): the superblock read again; 1 if its
 * features changed (and it still verifies: one that does not is never
 * used, famfs_fs_sb_reread), so the entry is judged again, else 0.  One
 * of a newer famfs (future version or features) is -EPROTONOSUPPORT: R1,
 * the walk stops as an open refuses it.  Not on the master instance,
 * which sets them itself (a clone of the master does not). */
static int sb_features_changed(struct famfs_fs *fs)
{
	uint32_t inc = fs->sb->feature_incompat, ro = fs->sb->feature_ro_compat;
	bool kept = fs->sb_reread_bad;	/* said already */
	char why[FAMFS_REASON_LEN];
	int rc;

	if (fs->master_instance)	/* it sets them itself */
		return 0;
	rc = famfs_fs_sb_reread(fs, why);
	if (rc == -EPROTONOSUPPORT) {
		famfs_err("%s: superblock read again: %s; not read further (R1)",
			  fs->name, why);
		return rc;
	}
	if (rc == -ESTALE) {	/* this log is not that one's */
		famfs_err("%s: %s; the log is not read further", fs->name, why);
		return rc;
	}
	if (rc) {
		if (!kept)
			famfs_warn("%s: superblock read again does not verify (%s): the copy verified before is kept",
				   fs->name, why);
		return 0;
	}
	return fs->sb->feature_incompat != inc ||
	       fs->sb->feature_ro_compat != ro;
}

/*
 * The v1 entry at slot i, judged (famfs_entry_check) in a private copy *e
 * (the mapping may be shared): one whose CRC does not match (a stale line
 * of this CPU's, torn by a bounce read; a CRC-valid wrong seq or uuid no
 * stale line of this file system's made) read again once; one with a
 * feature bit this copy of the superblock lacks judged
 * again if a re-read of the superblock changed its features.  The
 * check's verdict; *fatal < 0 when the re-read stops the walk (R1,
 * -ESTALE), else 0.
 */
static int v1_read(struct famfs_fs *fs, uint64_t i, struct famfs_log_entry *e,
		   char *reason, int *fatal)
{
	struct famfs_log_entry *s = famfs_log_slot(fs->log, i);
	int rc;

	*fatal = 0;
	memcpy(e, s, sizeof(*e));
	reason[0] = '\0';
	rc = famfs_entry_check(e, i, fs->sb, reason);
	if (rc == -EBADMSG && !famfs_map_refresh(&fs->logm, s, sizeof(*s))) {
		famfs_flush_stats.crc_retries++;
		memcpy(e, s, sizeof(*e));
		reason[0] = '\0';
		rc = famfs_entry_check(e, i, fs->sb, reason);
	}
	if (rc == -EPROTONOSUPPORT) {
		int ch = sb_features_changed(fs);

		if (ch < 0) {
			*fatal = ch;
			return rc;
		}
		if (ch) {
			reason[0] = '\0';
			rc = famfs_entry_check(e, i, fs->sb, reason);
		}
	}
	return rc;
}

/* clog_read (a stale line read again), and an entry refused judged again
 * if a re-read of the superblock changed its features (one this copy may
 * predate); *fatal as v1_read's */
static int clog_judged(struct famfs_fs *fs, uint64_t i, uint64_t end,
		       struct famfs_log_entry *e, bool *ok, char *reason,
		       int *fatal)
{
	int n, ch;

	*fatal = 0;
	reason[0] = '\0';
	n = clog_read(fs, i, end, e, ok, reason, true);
	ch = n > 0 && !*ok ? sb_features_changed(fs) : 0;
	if (ch < 0)
		*fatal = ch;
	if (ch > 0) {
		reason[0] = '\0';
		n = clog_read(fs, i, end, e, ok, reason, true);
	}
	return n;
}

/* The committed slots [start, end) of a compact log (an entry boundary,
 * end cut to next_index) */
static int clog_walk(struct famfs_fs *fs, uint64_t start, uint64_t end,
		     famfs_entry_fn fn, void *arg)
{
	char reason[FAMFS_REASON_LEN];
	uint64_t cap = famfs_log_cap(fs);

	if (!fs->master_instance && start < cap)
		famfs_log_invalidate(fs, famfs_clog_slot(fs->log, start),
				     ((end < cap ? end : cap) - start) *
				     FAMFS_CLOG_SLOT);
	for (uint64_t i = start, j; i < end; i = fs->walk_next) {
		uint64_t lim = end < famfs_log_cap(fs) ? end : famfs_log_cap(fs);
		struct famfs_log_entry e;
		bool ok;
		int n, rc;

		if (i >= lim) {
			/* (famfs fsck and a replay report it, and go on
			 * with what can be read: issue 27 item 7) */
			/* (once per opening: every walk meets it, the
			 * device table's update too) */
			if (fs->lost_said != i + 1)
				famfs_err("%s: log slots %llu..%llu cannot be read: they are in a log segment that is not mapped here (its EXTEND entry is damaged or was not read, or its .meta/.logN cannot be used: see above), and no entry after it can be read either",
					  fs->name, (unsigned long long)i,
					  (unsigned long long)end - 1);
			fs->lost_said = i + 1;
			fs->walk_lost = i;
			return -ENXIO;
		}
		n = clog_judged(fs, i, lim, &e, &ok, reason, &rc);
		if (rc)
			return rc;
		if (n > 0) {
			fs->walk_next = i + (unsigned)n;
			/* a new segment, mapped before the walk reaches it */
			if (ok && le16toh(e.type) == FAMFS_LOG_EXTEND &&
			    famfs_logseg_add(fs, &e, i, reason) == -EINVAL)
				ok = false;
		} else {
			/* no entry verifies here: one corrupt entry up to
			 * the next slot where one does (R3: unparseable) */
			for (j = i + 1; j < lim && !famfs_clog_written(fs, j, lim); j++)
				;
			memset(&e, 0, sizeof(e));
			e.seq = htole64(i);
			ok = false;
			fs->walk_next = j;
		}
		/* host-local unless malformed as every host reads it: no slot
		 * run that verifies, a feature bit or a device this host does
		 * not see yet (-EPROTONOSUPPORT, -EPROTO; a superblock re-read
		 * that failed), anything but a field that is plain wrong */
		fs->walk_torn = n <= 0 || (!ok && fs->read_verdict != -EINVAL);
		rc = fn(arg, i, &e, ok, reason);
		if (rc)
			return rc;
	}
	return 0;
}

int famfs_log_walk_range(struct famfs_fs *fs, uint64_t start, uint64_t end,
			 famfs_entry_fn fn, void *arg)
{
	uint64_t n = famfs_log_refresh_next(fs);
	char reason[FAMFS_REASON_LEN];

	fs->walk_lost = UINT64_MAX;
	if (end > n)
		end = n;
	if (start >= end)
		return 0;
	if (famfs_fs_compact(fs)) {
		int rc = famfs_fs_devs_update(fs);

		return rc ? rc : clog_walk(fs, start, end, fn, arg);
	}
	/* a reader (not the master instance) reads what it wrote: drop stale cache lines */
	if (!fs->master_instance)
		famfs_map_invalidate(&fs->logm, famfs_log_slot(fs->log, start),
				     (end - start) * FAMFS_LOG_ENTRY_SIZE);
	for (uint64_t i = start; i < end; i++) {
		struct famfs_log_entry copy;
		int rc, fatal;

		rc = v1_read(fs, i, &copy, reason, &fatal);
		if (fatal)
			return fatal;
		/* host-local unless written whole (CRC, seq, fs uuid: not a
		 * stale line of another file system) and malformed as every
		 * host reads it (-EINVAL from a field, not a feature bit this
		 * host does not see: -EPROTONOSUPPORT) */
		fs->walk_torn = rc && (rc != -EINVAL ||
				       !famfs_entry_written(&copy, i, fs->sb));
		fs->walk_next = i + 1;
		rc = fn(arg, i, &copy, rc == 0, reason);
		if (rc)
			return rc;
	}
	return 0;
}

int famfs_log_entry_span(struct famfs_fs *fs, uint64_t idx,
			 struct famfs_log_entry *e)
{
	uint64_t cap = famfs_log_cap(fs);
	bool ok;
	int n;

	if (idx >= cap && famfs_fs_compact(fs))
		cap = famfs_log_discover(fs);
	if (idx >= cap)
		return -EINVAL;
	if (!famfs_fs_compact(fs)) {
		memcpy(e, famfs_log_slot(fs->log, idx), sizeof(*e));
		return 1;
	}
	n = clog_read(fs, idx, cap, e, &ok, NULL, false);
	return n > 0 ? n : -EINVAL;
}

int famfs_log_entry_at(struct famfs_fs *fs, uint64_t idx,
		       struct famfs_log_entry *e)
{
	int n = famfs_log_entry_span(fs, idx, e);

	return n > 0 ? 0 : n;
}

int famfs_log_entry_checked(struct famfs_fs *fs, uint64_t idx,
			    struct famfs_log_entry *e)
{
	char reason[FAMFS_REASON_LEN];
	uint64_t cap = famfs_log_cap(fs);
	bool ok = false;
	int n, fatal;

	/* as a walk reads it */
	if (famfs_fs_compact(fs)) {
		if (idx >= cap)
			cap = famfs_log_discover(fs);
		if (idx >= cap)
			return -EINVAL;
		n = clog_judged(fs, idx, cap, e, &ok, reason, &fatal);
		return n > 0 && ok && !fatal ? 0 : -EBADMSG;
	}
	if (idx >= cap)
		return -EINVAL;
	n = v1_read(fs, idx, e, reason, &fatal);
	return n || fatal ? -EBADMSG : 0;
}

static const char *type_name(unsigned t)
{
	return t == FAMFS_LOG_FILE ? "FILE" : t == FAMFS_LOG_MKDIR ? "MKDIR" :
	       t == FAMFS_LOG_EXTEND ? "EXTEND" : t == FAMFS_LOG_HOSTS ? "HOSTS" :
	       t == FAMFS_LOG_DEVADD ? "DEVADD" : famfs_ns_name(t);
}

int famfs_delete_object_bad(struct famfs_fs *fs,
			    const struct famfs_log_entry *e, char *why,
			    size_t n)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_log_entry o;
	struct famfs_ns ns;
	unsigned t;

	if (le16toh(e->type) != FAMFS_LOG_DELETE || famfs_ns_get(e, &ns) ||
	    famfs_log_entry_at(fs, ns.object, &o))
		return 0;
	/* (a compact log's entry_at returns only one that verifies) */
	reason[0] = '\0';
	if (!famfs_fs_compact(fs) &&
	    famfs_entry_check(&o, ns.object, fs->sb, reason))
		return 0;
	t = le16toh(o.type);
	if (t == ns.kind)
		return 0;
	snprintf(why, n, "it names entry %llu, a %s entry, not a %s",
		 (unsigned long long)ns.object, type_name(t),
		 ns.kind == FAMFS_LOG_FILE ? "file" : "directory");
	return 1;
}

struct devs_walk {
	struct famfs_fs *fs;
	bool stuck;		/* an entry met that does not read whole */
};

static int devs_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		      bool ok, const char *reason)
{
	struct devs_walk *w = arg;
	struct famfs_fs *fs = w->fs;
	unsigned t = le16toh(e->type);

	(void)reason;
	/* (one added by an update before, met again: the same index and
	 * device -- it is judged with the ones before it only) */
	if (ok && t == FAMFS_LOG_DEVADD)
		famfs_logdevs_add(&fs->devs, e, idx);
	if (!ok && fs->walk_torn) {
		/* an index past the next one (-EPROTO, famfs_devadd_check):
		 * the entry not read whole before it was a DEVADD; the
		 * ones after it wait for it */
		if (t == FAMFS_LOG_DEVADD && fs->read_verdict == -EPROTO)
			return 1;
		/* a DEVADD, or what may be one (no slot run verifies: no
		 * type), that does not read whole here (yet, or for good:
		 * a corrupt slot): devs.next stays there, so the next
		 * update reads it again; the DEVADDs after it that verify
		 * are added (the next index), until one is past it */
		if (t == FAMFS_LOG_DEVADD || !t)
			w->stuck = true;
	}
	if (!w->stuck)
		fs->devs.next = fs->walk_next;
	return 0;
}

int famfs_fs_devs_update(struct famfs_fs *fs)
{
	struct devs_walk w = { .fs = fs };
	struct walk_at at;
	uint64_t n, lost;
	int rc;

	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_MULTIDEV))
		return 0;
	n = famfs_log_refresh_next(fs);
	if (fs->devs.next >= n)
		return 0;
	/* entries are judged with the devices added before them: in order;
	 * (from a walk's callback too: its position is kept); devs.next is
	 * where the table is up to as it goes (famfs_devadd_check) */
	at = walk_at_save(fs);
	lost = fs->walk_lost;
	rc = clog_walk(fs, fs->devs.next, n, devs_entry, &w);
	walk_at_restore(fs, at);
	/* a lost segment: the table is what the entries before it add
	 * (devs.next stays before it); the walk that asked reads up to it
	 * and meets it itself */
	fs->walk_lost = lost;
	if (rc == -ENXIO)
		return 0;
	return rc < 0 ? rc : 0;
}

int famfs_fs_devs_next_index(struct famfs_fs *fs, unsigned *index)
{
	int rc = famfs_fs_devs_update(fs);

	if (rc)
		return rc;
	/* (without MULTIDEV no DEVADD counts, R2: the table is not read) */
	if (le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_MULTIDEV &&
	    fs->devs.next < famfs_log_refresh_next(fs)) {
		famfs_err("%s: log entry %llu does not read whole here (its slots do not verify: an append under way, or a corrupt slot); it may be a device entry, so the next member index is not known and no device is added while it does not read",
			  fs->name, (unsigned long long)fs->devs.next);
		return -EBADMSG;
	}
	*index = fs->devs.ndevs;
	return 0;
}

int famfs_log_walk(struct famfs_fs *fs, famfs_entry_fn fn, void *arg)
{
	return famfs_log_walk_range(fs, 0, UINT64_MAX, fn, arg);
}

struct segs_seen {
	uint64_t max;		/* the highest segment an EXTEND entry adds */
	uint64_t idx;		/* that entry's slot */
	bool any;
};

static int seg_entry(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		     bool ok, const char *reason)
{
	struct segs_seen *w = arg;

	(void)reason;
	/* (one the walk refused adds no segment: readers refuse it too) */
	if (ok && le16toh(e->type) == FAMFS_LOG_EXTEND &&
	    (!w->any || le64toh(e->fm.size) > w->max)) {
		w->any = true;
		w->max = le64toh(e->fm.size);
		w->idx = idx;
	}
	return 0;
}

/*
 * Every segment the log has, mapped here before a new one is numbered
 * (fs->nsegs) or the log is called full: an opening whose create cache came from the summary never
 * read the EXTEND entries before the summary's index, and one opened from
 * the device maps a segment only when its walk meets the entry, so it
 * would log segment k a second time (issue 27 item 6).  The log is read
 * whole (the walk maps each segment as its entry goes by): once per
 * growth, which doubles the log by default.  0, or -errno (printed).
 */
int famfs_log_segs_mapped(struct famfs_fs *fs)
{
	struct segs_seen w = { 0 };
	struct walk_at at = walk_at_save(fs);
	int rc;

	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_LOG_EXTEND))
		return 0;	/* none but segment 0 */
	rc = famfs_log_walk(fs, seg_entry, &w);
	walk_at_restore(fs, at);	/* (an append may be under way) */
	if (rc)
		return rc;
	for (unsigned k = 1; k < fs->nsegs; k++) {
		if (fs->seg[k].logged)
			continue;
		famfs_err("%s: cannot grow the log: log segment %u is mapped here (.meta/.log%u) but no EXTEND entry in the log adds it (famfs check; remount)",
			  fs->name, k, k);
		return -EUCLEAN;
	}
	if (w.any && w.max >= fs->nsegs) {
		famfs_err("%s: cannot grow the log: log segment %llu (EXTEND entry at log slot %llu) is not mapped here (see above), so a new segment cannot be numbered",
			  fs->name, (unsigned long long)w.max,
			  (unsigned long long)w.idx);
		return -EUCLEAN;
	}
	return 0;
}
