// SPDX-License-Identifier: GPL-2.0
/* df: device space (from the allocator's view of the log) and log usage. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <string.h>

#include "libfamfs.h"

struct df_ctx {
	struct famfs_df *df;
	const struct famfs_superblock *sb;
	const struct famfs_logdevs *devs;
};

static int count(void *arg, uint64_t idx, const struct famfs_log_entry *e,
		 bool ok, const char *reason)
{
	struct df_ctx *c = arg;
	struct famfs_df *df = c->df;

	(void)reason;
	if (!ok) {
		df->bad_entries++;
		/* R3: what it owns is not known, not even that */
		if (famfs_entry_owned_devs(e, idx, c->sb, c->devs, NULL))
			df->unparsed_entries++;
	} else if (le16toh(e->type) == FAMFS_LOG_MKDIR) {
		df->dirs++;
	} else if (le16toh(e->type) == FAMFS_LOG_DEVADD) {
		/* a device, not a file */
	} else {
		df->files++;
	}
	return 0;
}

int famfs_df(struct famfs_fs *fs, struct famfs_df *df)
{
	struct famfs_bitmap b;
	uint64_t reserved_units;
	int rc;

	memset(df, 0, sizeof(*df));
	df->size = famfs_sb_dev_size(fs->sb);
	df->reserved = famfs_data_start(fs->sb);
	df->log_len = le64toh(fs->sb->log_len);
	df->log_capacity = famfs_log_capacity_of(df->log_len,
						 famfs_fs_compact(fs));
	df->log_used = famfs_log_refresh_next(fs);
	df->log_compact = famfs_fs_compact(fs);
	struct df_ctx c = { df, fs->sb, &fs->devs };

	rc = famfs_log_walk(fs, count, &c);
	if (rc)
		return rc;
	df->log_entries = df->files + df->dirs + df->bad_entries;
	rc = famfs_bitmap_build(fs, &b);	/* unparsable entries: unmarked */
	if (rc)
		return rc;
	reserved_units = (df->reserved + FAMFS_ALLOC_UNIT - 1) / FAMFS_ALLOC_UNIT;
	if (reserved_units > b.nunits)
		reserved_units = b.nunits;
	df->free = b.nfree * FAMFS_ALLOC_UNIT;
	/* R3: an entry that cannot be parsed may own any of it: not free
	 * (the master allocates nothing until the log is repaired) */
	if (df->unparsed_entries) {
		df->unknown = df->free;
		df->free = 0;
	}
	df->used = (b.nunits - b.nfree - reserved_units) * FAMFS_ALLOC_UNIT;
	famfs_bitmap_free(&b);
	return 0;
}

int famfs_df_log_warn(const char *name, const struct famfs_df *df)
{
	if (!df->log_capacity ||
	    df->log_used * 100 < df->log_capacity * FAMFS_LOG_WARN_PCT)
		return 0;
	famfs_warn("%s: the log is %llu%% full (%llu of %llu %s used): new files and directories fail when it is full. " FAMFS_LOG_FULL_HINT,
		   name,
		   (unsigned long long)(df->log_used * 100 / df->log_capacity),
		   (unsigned long long)df->log_used,
		   (unsigned long long)df->log_capacity,
		   df->log_compact ? "256-byte slots" : "entries");
	return 1;
}
