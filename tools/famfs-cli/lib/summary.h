/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The master's create summary (issue 17): what a create needs from the whole
 * log -- the allocation bitmap and the set of logged paths -- as of log
 * index `next`, kept in a local file next to the claim file
 * ($FAMFS_CLAIM_DIR or /var/lib/famfs)/<fs uuid>.summary, so that a create
 * in a new process reads only the entries appended since instead of the
 * whole log.
 *
 * It is never trusted blindly: the header and the bitmap carry one CRC, each
 * page of the path table its own (seeded with the summary's random id, so a
 * page of another summary does not pass); it must name this file system
 * (fs uuid and the superblock's CRC: another mkfs does not match), this boot
 * (written since the last boot: nothing written before a crash is relied
 * on), the device size and log capacity, and an index not past the log's
 * next index whose last entry is still the one it covered (its CRC).  Any
 * doubt: the summary is rebuilt from the log.  The path table holds a hash
 * and the entry index of each path; a hit is confirmed against the log
 * entry itself, so a wrong hash can only cost a log read.
 */
#ifndef FAMFS_SUMMARY_H
#define FAMFS_SUMMARY_H

#include "libfamfs.h"

struct famfs_summary;

/* An empty summary of fs for about expect paths (in memory only until
 * saved); NULL when out of memory (printed). */
struct famfs_summary *famfs_summary_new(struct famfs_fs *fs, uint64_t expect);
/* The summary file of fs, if it can be trusted: 0, *out and bm (initialised
 * here) filled, *next the log index it covers.  -ENOENT (none), -ESTALE (of
 * another file system, boot or log), -EBADMSG (damaged): nothing filled,
 * reason (FAMFS_REASON_LEN, may be NULL) says why. */
int famfs_summary_load(struct famfs_fs *fs, struct famfs_summary **out,
		       struct famfs_bitmap *bm, uint64_t *next, char *reason);
void famfs_summary_free(struct famfs_summary *s);
/* The entry index of a path in the table, confirmed against the log: 1 and
 * *idx, or 0 if not logged, -errno if a page of the table is damaged
 * (printed: drop the summary, rebuild). */
int famfs_summary_find(struct famfs_summary *s, struct famfs_fs *fs,
		       const char *path, uint64_t *idx);
/* The same, and the kind of that entry (FAMFS_LOG_FILE, _MKDIR) in *type:
 * the log entry read to confirm the hit says it */
int famfs_summary_find_type(struct famfs_summary *s, struct famfs_fs *fs,
			    const char *path, uint64_t *idx, int *type);
/* Add a path logged at idx (the first entry of a path counts: an existing
 * one is kept).  0 or -errno. */
int famfs_summary_add(struct famfs_summary *s, struct famfs_fs *fs,
		      const char *path, uint64_t idx);
/* Write what changed (pages of the table, then header and bitmap) as of
 * log index next, whose last entry starts at last (next - 1 in a v1 log)
 * and had CRC last_crc (famfs_log_entry_span's v1 form) when it was read
 * (-ESTALE, nothing written, if the log holds another one there now, or
 * it does not end at next).  Failure to write is not an error for the
 * caller (the next process rebuilds): 0 or -errno, never printed except
 * with -v. */
int famfs_summary_save(struct famfs_summary *s, struct famfs_fs *fs,
		       const struct famfs_bitmap *bm, uint64_t next,
		       uint64_t last, uint32_t last_crc);
/* the last entry a loaded summary covers: its CRC field, where it starts */
uint32_t famfs_summary_last_crc(const struct famfs_summary *s);
uint64_t famfs_summary_last(const struct famfs_summary *s);
/* Remove the file (a damaged one, or a log this process cannot summarize) */
void famfs_summary_remove(struct famfs_fs *fs);
/* $FAMFS_CLAIM_DIR or /var/lib/famfs, then <fs uuid>.summary */
int famfs_summary_path(const uint8_t fs_uuid[16], char *out, size_t n);

/* what the last load did, for tests and FAMFS_DEBUG_FLUSH */
struct famfs_summary_stats {
	unsigned long loads, rebuilds, pages_read, pages_written;
	unsigned long confirms;		/* log entries read to confirm a hit */
	char last_reason[FAMFS_REASON_LEN];
};
extern struct famfs_summary_stats famfs_summary_stats;

#endif
