// SPDX-License-Identifier: GPL-2.0
/*
 * The master's log growth (famfs loggrow, and a full log's automatic one):
 * INCOMPAT_LOG_EXTEND, then a free range as a new segment, zeroed, then
 * its EXTEND entry (famfs_format.h: "The master's growth").  And
 * famfs_log_append: the append (append.c) that grows a full log first.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "log/log.h"

/* the longest free run of b, in bytes */
static uint64_t longest_free(const struct famfs_bitmap *b)
{
	uint64_t best = 0, run = 0;

	for (uint64_t u = 0; u < b->nunits; u++) {
		run = famfs_bitmap_test(b, u) ? 0 : run + 1;
		if (run > best)
			best = run;
	}
	return best * FAMFS_ALLOC_UNIT;
}

int famfs_log_grow(struct famfs_fs *fs, uint64_t len)
{
	char reason[FAMFS_REASON_LEN];
	struct famfs_log_simple_ext x;
	struct famfs_log_entry e;
	struct famfs_bitmap *b;
	uint64_t off, u0, n, next, total;
	unsigned k;
	int rc;

	if (!famfs_fs_compact(fs)) {
		famfs_err("%s: cannot grow the log: only a compact log can grow (this one was made with --log-format=v1)",
			  fs->name);
		return -EOPNOTSUPP;
	}
	rc = famfs_fs_writable(fs);
	if (rc)
		return rc;
	if (!fs->locked)
		return -ENOLCK;
	if (len % FAMFS_ALLOC_UNIT) {
		famfs_err("%s: cannot grow the log by %llu bytes: not a multiple of 2 MiB",
			  fs->name, (unsigned long long)len);
		return -EINVAL;
	}
	/* the segment's memory from an allocator that has seen every entry
	 * committed before it: an opening that kept its cache across a
	 * release of the lock (or a mkdir, which appends without it) is
	 * behind the log here, and would zero another file's memory */
	rc = famfs_fs_cache_ready(fs, fs->name, "cannot grow the log");
	if (!rc)
		rc = famfs_log_segs_mapped(fs);
	if (rc)
		return rc;
	k = fs->nsegs;
	total = FAMFS_LOG_HDR_SIZE + famfs_log_cap(fs) * FAMFS_CLOG_SLOT;
	if (!len)
		len = (total + FAMFS_ALLOC_UNIT - 1) & ~(FAMFS_ALLOC_UNIT - 1);
	next = famfs_log_next(fs->log);
	if (next + 1 > famfs_log_cap(fs)) {
		famfs_err("%s: cannot grow the log: its last slot is taken (written by a tool without log growth), so there is no room for the entry that records the growth",
			  fs->name);
		return -ENOSPC;
	}
	b = &fs->cache_alloc->dev[0];	/* segments: on the primary */
	rc = famfs_alloc(b, len, &x);
	if (rc) {
		famfs_err("%s: cannot grow the log by %llu bytes: no free run of that size on the device (the longest is %llu bytes; famfs loggrow --size SIZE asks for less)",
			  fs->name, (unsigned long long)len,
			  (unsigned long long)longest_free(b));
		return -ENOSPC;
	}
	off = le64toh(x.offset);
	rc = famfs_fs_change_feature(fs, FAMFS_FEAT_INCOMPAT,
				     FAMFS_FEATURE_INCOMPAT_LOG_EXTEND, 0);
	if (rc)
		goto unalloc;
	rc = famfs_logseg_map_new(fs, k, off, len, reason);
	if (rc) {
		if (rc == -EINVAL)
			famfs_err("%s: cannot grow the log: %s", fs->name, reason);
		goto unalloc;
	}
	/* R4 never meets old bytes there */
	memset(fs->seg[k].m.addr, 0, len);
	fs->seg[k].m.loaded = len;	/* a bounce buffer: all of it */
	rc = famfs_map_flush(&fs->seg[k].m, fs->seg[k].m.addr, len);
	if (rc)
		goto unmap;
	famfs_entry_build_extend(&e, k, off, len);
	rc = famfs_log_put(fs, &e, NULL);
	if (rc)
		goto unmap;
	fs->seg[k].logged = true;
	fs->seg[k].ext_idx = fs->last_append;
	famfs_logseg_publish(fs, k);	/* warned; a replay renames it */
	return 0;
unmap:
	famfs_logseg_unmap_new(fs, k);
	/* the entry may be at next_index (R4: its memory used): the cache
	 * is read again from the log */
	famfs_fs_cache_drop(fs);
	return rc;
unalloc:
	u0 = off / FAMFS_ALLOC_UNIT;
	for (n = 0; n < len / FAMFS_ALLOC_UNIT; n++)
		famfs_bitmap_clear(b, u0 + n);
	return rc;
}

/* the master, under the log lock: a full log (f) grows by its size */
static int grow_full(struct famfs_fs *fs, const struct famfs_log_full *f)
{
	famfs_warn("%s: the log is full (%llu of %llu slots used): growing it by %llu bytes into free space (famfs loggrow; FAMFS_LOG_AUTOGROW=0 turns this off)",
		   fs->name, (unsigned long long)f->idx,
		   (unsigned long long)f->cap,
		   (unsigned long long)(FAMFS_LOG_HDR_SIZE + f->cap * FAMFS_CLOG_SLOT));
	if (famfs_log_grow(fs, 0)) {
		famfs_log_full_err(fs, f);
		return -ENOSPC;
	}
	return 0;
}

int famfs_log_grow_for(struct famfs_fs *fs, const struct famfs_log_entry *e)
{
	struct famfs_log_full f;

	return famfs_log_full_now(fs, e, &f) ? grow_full(fs, &f) : 0;
}

int famfs_log_append(struct famfs_fs *fs, struct famfs_log_entry *e)
{
	struct famfs_log_full f;
	int rc = famfs_log_put(fs, e, &f);

	if (rc != FAMFS_LOG_FULL)
		return rc;
	rc = grow_full(fs, &f);
	return rc ? rc : famfs_log_put(fs, e, NULL);
}
