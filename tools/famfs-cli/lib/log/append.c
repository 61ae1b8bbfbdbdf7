// SPDX-License-Identifier: GPL-2.0
/*
 * The append (crash-safe): the master instance only, under the log lock --
 * an entry at next_index is committed first (R4 roll-forward), the slots
 * past it checked (R4), the entry written and flushed, then next_index.
 * A full log is reported to the caller, which may grow it (loggrow.c).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "log/log.h"

/* R4: a valid entry at next_index + 1 or beyond means the header lost
 * committed entries; appending would overwrite one.  The first append of an
 * opening looks at every slot, later ones at next_index + 1 only (only the
 * master writes the log, and it writes at next_index). */
static int tail_check(struct famfs_fs *fs, uint64_t idx, uint64_t cap)
{
	uint64_t to = cap;

	/* next_index where this process's own last append put it, the lock
	 * held since: the entry before it is that append's, the slots past
	 * it are the ones its check saw empty and no one else wrote (only
	 * the master appends, and the role is checked at every append) */
	if (fs->tail_checked && fs->own_next && idx == fs->own_next)
		return 0;
	if (famfs_fs_compact(fs)) {
		/* the first append: the bounded R4 scan; later ones: the
		 * slots an entry at idx could take */
		uint64_t i;

		/* a committed entry that next_index cuts (points into its
		 * middle): the append would overwrite its tail */
		for (i = idx - 1; idx && i + FAMFS_CLOG_MAX_SLOTS > idx; i--) {
			unsigned k = famfs_clog_written(fs, i, cap);

			if (k && i + k > idx) {
				famfs_err("%s: the entry at log slot %llu takes %u slots, but next_index %llu points into it: the log header is damaged; nothing was written (run famfs fsck)",
					  fs->name, (unsigned long long)i, k,
					  (unsigned long long)idx);
				return -EUCLEAN;
			}
			if (!i)
				break;
		}
		i = famfs_clog_scan(fs, idx + 1, cap,
				       fs->tail_checked ? FAMFS_CLOG_MAX_SLOTS :
				       FAMFS_CLOG_SCAN, NULL, NULL, NULL);

		if (i != UINT64_MAX) {
			famfs_err("%s: log slot %llu holds a valid committed entry past next_index %llu: the log header is damaged; nothing was written (run famfs fsck)",
				  fs->name, (unsigned long long)i,
				  (unsigned long long)idx);
			return -EUCLEAN;
		}
		fs->tail_checked = true;
		return 0;
	}

	if (fs->tail_checked && idx + 2 < cap)
		to = idx + 2;
	for (uint64_t i = idx + 1; i < to; i++) {
		if (!famfs_entry_written(famfs_log_slot(fs->log, i), i, fs->sb))
			continue;
		famfs_err("%s: log entry %llu is a valid committed entry past next_index %llu: the log header is damaged; nothing was written (run famfs fsck)",
			  fs->name, (unsigned long long)i,
			  (unsigned long long)idx);
		return -EUCLEAN;
	}
	fs->tail_checked = true;
	return 0;
}

int famfs_log_tail_check(struct famfs_fs *fs)
{
	uint64_t cap = famfs_log_discover(fs);

	return tail_check(fs, famfs_log_next(fs->log), cap);
}

int famfs_log_roll_forward(struct famfs_fs *fs)
{
	struct famfs_log_header *h = fs->log;
	uint64_t idx = famfs_log_next(h), cap;
	unsigned k = 1;
	int rc;

	if (!fs->rw)
		return 0;
	cap = famfs_log_discover(fs);
	if (idx >= cap)
		return 0;
	if (famfs_fs_compact(fs)) {
		k = famfs_clog_written(fs, idx, cap);
		if (!k || famfs_clog_written(fs, idx + k, cap))
			return 0;	/* none; or more: as below */
	} else if (!famfs_entry_written(famfs_log_slot(h, idx), idx, fs->sb)) {
		return 0;
	/* more than one: the header is damaged worse; the append is refused
	 * (tail_check) until it is repaired */
	} else if (idx + 1 < cap &&
		   famfs_entry_written(famfs_log_slot(h, idx + 1), idx + 1, fs->sb)) {
		return 0;
	}
	/* it writes the header: only the instance that holds the role */
	rc = famfs_master_check(fs);
	if (rc)
		return rc;
	famfs_warn("%s: log entry %llu at next_index is whole but not committed (a crash between the two flushes of an append, or next_index one short): committed now, never overwritten",
		   fs->name, (unsigned long long)idx);
	__atomic_store_n(&h->next_index, htole64(idx + k), __ATOMIC_RELEASE);
	famfs_store_stats.commit += sizeof(h->next_index);
	rc = famfs_map_flush(&fs->logm, h, sizeof(*h));
	if (rc)
		return rc;
	/* a DEVADD committed so (a devadd that crashed between its two
	 * flushes): this mount must have that member before a create is
	 * placed on it; one not on this host is said (its files fail) */
	if (famfs_fs_multidev(fs) && fs->mpt[0])
		(void)famfs_fs_attach_members(fs, NULL, 0);
	return 1;
}

/* The entry (v1 form, seq/uuid/crc filled) in compact form at slot idx:
 * its slot count, or -errno (printed) */
static int clog_write(struct famfs_fs *fs, struct famfs_log_entry *e,
		      uint64_t idx)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	char reason[FAMFS_REASON_LEN];
	int n = famfs_clog_encode(e, idx, fs->sb->fs_uuid, buf, reason);
	int rc;

	if (n < 0) {
		famfs_err("%s: %s: %s; nothing was written", fs->name,
			  e->fm.path, reason);
		return n;
	}
	/* a bounce buffer: the device's bytes around it first */
	rc = famfs_log_load(fs, famfs_clog_slot(fs->log, idx),
			    (size_t)n * FAMFS_CLOG_SLOT);
	if (rc)
		return rc;
	memcpy(famfs_clog_slot(fs->log, idx), buf, (size_t)n * FAMFS_CLOG_SLOT);
	famfs_store_stats.log += (uint64_t)n * FAMFS_CLOG_SLOT;
	rc = famfs_log_flush(fs, famfs_clog_slot(fs->log, idx),
			     (size_t)n * FAMFS_CLOG_SLOT);
	return rc ? rc : n;
}

void famfs_log_full_err(struct famfs_fs *fs, const struct famfs_log_full *f)
{
	famfs_err("%s: log full (%llu of %llu slots used, this entry needs %d%s); nothing was written. " FAMFS_LOG_FULL_HINT,
		  fs->name, (unsigned long long)f->idx,
		  (unsigned long long)f->cap, f->need,
		  f->ext ? "" : " and the last slot is kept for a growth");
}

bool famfs_log_autogrow(void)
{
	const char *v = getenv("FAMFS_LOG_AUTOGROW");

	return !v || strcmp(v, "0");
}

/*
 * A compact log: room for an entry of e's size at idx?  Appends other than
 * EXTEND leave the last slot free, for the entry that records a growth.
 * 0; FAMFS_LOG_FULL (*full filled, nothing printed) when full may be
 * filled and the log may grow (the master, under the log lock,
 * FAMFS_LOG_AUTOGROW not 0: the caller grows it); or -errno (printed).
 */
static int clog_room(struct famfs_fs *fs, const struct famfs_log_entry *e,
		     uint64_t idx, struct famfs_log_full *full)
{
	uint8_t buf[FAMFS_CLOG_MAX_ENTRY];
	char reason[FAMFS_REASON_LEN];
	bool ext = le16toh(e->type) == FAMFS_LOG_EXTEND;
	uint64_t cap = famfs_log_cap(fs);
	int n = famfs_clog_encode(e, idx, fs->sb->fs_uuid, buf, reason);
	struct famfs_log_full f;

	if (n < 0) {
		famfs_err("%s: %s: %s; nothing was written", fs->name,
			  e->fm.path, reason);
		return n;
	}
	if (idx + (unsigned)n + !ext <= cap)
		return 0;
	/* segments this opening has not met yet (its create cache came from
	 * the summary, or it was opened from the device): the log may not be
	 * full at all (issue 27 item 6) */
	if (le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_LOG_EXTEND &&
	    !famfs_log_segs_mapped(fs)) {
		cap = famfs_log_cap(fs);
		if (idx + (unsigned)n + !ext <= cap)
			return 0;
	}
	f.idx = idx;
	f.cap = cap;
	f.need = n;
	f.ext = ext;
	if (full && !ext && famfs_log_autogrow() && fs->locked) {
		*full = f;
		return FAMFS_LOG_FULL;
	}
	famfs_log_full_err(fs, &f);
	return -ENOSPC;
}

int famfs_log_full_now(struct famfs_fs *fs, const struct famfs_log_entry *e,
		       struct famfs_log_full *full)
{
	if (!famfs_fs_compact(fs) || !fs->locked || !famfs_log_autogrow())
		return 0;
	return clog_room(fs, e, famfs_log_next(fs->log), full) ==
	       FAMFS_LOG_FULL;
}

int famfs_log_put(struct famfs_fs *fs, struct famfs_log_entry *e,
		  struct famfs_log_full *full)
{
	return famfs_log_put_at(fs, e, full, FAMFS_LOG_ANY);
}

int famfs_log_put_at(struct famfs_fs *fs, struct famfs_log_entry *e,
		     struct famfs_log_full *full, uint64_t want)
{
	struct famfs_log_header *h = fs->log;
	uint64_t idx, cap;
	int rc, n = 1;

	if (!fs->rw)
		return -EROFS;
	/* the master record: this instance must hold the role (R: master) */
	rc = famfs_master_check(fs);
	if (rc)
		return rc;
	/* next_index only now: a claim in the check (a record another
	 * instance held) dropped the lines it would have been read through */
	idx = famfs_log_next(h);
	/* R4: a whole entry at next_index is committed, not overwritten */
	rc = famfs_log_roll_forward(fs);
	if (rc < 0)
		return rc;
	if (rc) {
		/* a file's memory came from a create cache that did not see
		 * it (cache_update rolls forward under this lock, so only a
		 * race with another host gets here): start over.  A
		 * directory owns no memory, and the cache's next update
		 * walks the rolled entry as any other. */
		if (fs->cache_alloc && le16toh(e->type) != FAMFS_LOG_MKDIR) {
			if (fs->cache_drop)	/* cache.c's */
				fs->cache_drop(fs);
			famfs_err("%s: nothing was written; try again", fs->name);
			return -EAGAIN;
		}
		idx = famfs_log_next(h);
	}
	/* the index given away already (a file's identity, in famfs.ko
	 * since its create): the log moved past it only by another
	 * instance's appends -- the role away and back, claimed again by
	 * the check above (which dropped the view the caller allocated
	 * from), or its entry rolled forward.  Nothing written: the caller
	 * undoes what it made (review rev1) */
	if (want != FAMFS_LOG_ANY && idx != want) {
		famfs_err("%s: %s: its entry was to be log entry %llu (so famfs.ko was told), but another instance appended meanwhile (the log is at %llu now): nothing was written",
			  fs->name, e->fm.path, (unsigned long long)want,
			  (unsigned long long)idx);
		return -EAGAIN;
	}
	cap = famfs_log_discover(fs);
	rc = tail_check(fs, idx, cap);
	if (rc)
		return rc;
	if (famfs_fs_compact(fs)) {
		rc = clog_room(fs, e, idx, full);
		if (rc)
			return rc;
	} else if (idx >= cap) {
		famfs_err("%s: log full (%llu of %llu %s used); nothing was written. " FAMFS_LOG_FULL_HINT,
			  fs->name, (unsigned long long)idx,
			  (unsigned long long)cap,
			  famfs_fs_compact(fs) ? "slots" : "entries");
		return -ENOSPC;
	}
	e->seq = htole64(idx);
	memcpy(e->fs_uuid, fs->sb->fs_uuid, 16);
	famfs_entry_set_crc(e);
	/* 1. the entry, durable before it is referenced */
	if (famfs_fs_compact(fs)) {
		n = clog_write(fs, e, idx);
		if (n < 0)
			return n;
	} else {
		struct famfs_log_entry *slot = famfs_log_slot(h, idx);

		memcpy(slot, e, sizeof(*e));
		famfs_store_stats.log += sizeof(*e);
		rc = famfs_map_flush(&fs->logm, slot, sizeof(*slot));
		if (rc)
			return rc;
	}
	fs->last_append = idx;
	/* 2. commit: one aligned 8-byte store, then flush */
	__atomic_store_n(&h->next_index, htole64(idx + (unsigned)n),
			 __ATOMIC_RELEASE);
	famfs_store_stats.commit += sizeof(h->next_index);
	rc = famfs_map_flush(&fs->logm, h, sizeof(*h));
	if (!rc && fs->locked)
		fs->own_next = idx + (unsigned)n;
	return rc;
}
