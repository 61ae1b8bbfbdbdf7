// SPDX-License-Identifier: GPL-2.0
/* df: device space (from the allocator's view of the log) and log usage. */
#define _DEFAULT_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/report.h"

struct df_ctx {
	struct famfs_df *df;
	struct famfs_fs *fs;
	const struct famfs_superblock *sb;
	const struct famfs_logdevs *devs;
	struct famfs_names *names;	/* what the deletes applied to */
};

/* the bytes of the FILE entry that made object */
static uint64_t file_bytes(struct df_ctx *c, uint64_t object)
{
	struct famfs_extent r[FAMFS_ENTRY_MAX_RANGES];
	struct famfs_log_entry fe;
	uint64_t b = 0;

	if (famfs_log_entry_at(c->fs, object, &fe))
		return 0;
	for (unsigned i = 0, n = famfs_entry_ranges(&fe, r); i < n; i++)
		b += r[i].len;
	return b;
}

/* a RECLAIM the namespace applied: its files' memory is free now */
static void reclaimed(struct df_ctx *c)
{
	const uint64_t *obj;
	unsigned k = famfs_names_reclaimed(c->names, &obj);

	for (unsigned i = 0; i < k; i++) {
		uint64_t b = file_bytes(c, obj[i]);

		c->df->reclaimed_files++;
		c->df->reclaimed += b;
		c->df->pending_reclaim -= b < c->df->pending_reclaim ? b :
					  c->df->pending_reclaim;
	}
}

/* a DELETE the namespace applied, of a file: its memory, used until a
 * RECLAIM frees it */
static void deleted(struct df_ctx *c, const struct famfs_log_entry *e)
{
	struct famfs_ns ns;

	famfs_ns_get(e, &ns);
	if (ns.kind != FAMFS_LOG_FILE) {
		c->df->dirs--;
		c->df->deleted_dirs++;
		return;
	}
	c->df->files--;
	c->df->deleted_files++;
	c->df->pending_reclaim += file_bytes(c, ns.object);
}

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
	} else if (le16toh(e->type) == FAMFS_LOG_EXTEND) {
		df->log_segments++;	/* its memory: reserved, below */
		df->log_len += le64toh(e->fm.ext.simple[0].len);
	} else if (le16toh(e->type) == FAMFS_LOG_MKDIR) {
		df->dirs++;
	} else if (le16toh(e->type) == FAMFS_LOG_HOSTS) {
		/* the host table: metadata, reserved as the log is */
		df->hosts_len += le64toh(famfs_entry_hosts(e)->len);
	} else if (le16toh(e->type) == FAMFS_LOG_DEVADD) {
		/* a device, not a file */
	} else if (famfs_entry_is_body(le16toh(e->type))) {
		df->ns_entries++;	/* RECLAIM too */
	} else {
		df->files++;
	}
	/* a DELETE counts if it applies (what every replay does) */
	if (ok && c->names) {
		int rc = famfs_names_apply(c->names, idx, e, NULL, NULL);

		if (rc < 0) {
			famfs_names_free(c->names);
			c->names = NULL;
		} else if (rc == FAMFS_NAMES_OK &&
			   le16toh(e->type) == FAMFS_LOG_DELETE) {
			deleted(c, e);
		} else if (rc == FAMFS_NAMES_OK &&
			   le16toh(e->type) == FAMFS_LOG_RECLAIM) {
			reclaimed(c);
		} else if (rc == FAMFS_NAMES_CORRUPT) {
			/* R3: what is free is unknown */
			df->bad_entries++;
			df->unparsed_entries++;
			df->ns_entries--;
		}
	}
	return 0;
}

int famfs_df(struct famfs_fs *fs, struct famfs_df *df)
{
	struct famfs_alloc a;
	int rc;

	memset(df, 0, sizeof(*df));
	df->log_len = le64toh(fs->sb->log_len);
	df->log_capacity = famfs_log_capacity_of(df->log_len,
						 famfs_fs_compact(fs));
	df->log_used = famfs_log_refresh_next(fs);
	df->log_compact = famfs_fs_compact(fs);
	struct df_ctx c = { df, fs, fs->sb, &fs->devs, NULL };

	if (le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE &&
	    !(c.names = famfs_names_new())) {
		famfs_err("%s: out of memory", fs->name);
		return -ENOMEM;
	}
	rc = famfs_log_walk(fs, count, &c);
	if (rc || (le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_DELETE &&
		   !c.names)) {
		famfs_names_free(c.names);
		return rc ? rc : -ENOMEM;
	}
	famfs_names_free(c.names);
	df->hosts_armed = famfs_fs_has_hosts(fs) ? famfs_hosts_armed(fs) :
			  -ENOENT;
	df->log_entries = df->files + df->dirs + df->bad_entries +
			  df->log_segments + df->ns_entries +
			  df->deleted_files + df->deleted_dirs;
	/* a grown log: every segment read by the walk, capacity the total */
	df->log_capacity = famfs_log_cap(fs);
	rc = famfs_alloc_build(fs, &a);	/* unparsable entries: unmarked */
	if (rc)
		return rc;
	df->size = df->reserved = 0;
	df->ndevs = a.ndevs;
	for (unsigned i = 0; i < a.ndevs; i++) {
		const struct famfs_bitmap *b = &a.dev[i];
		const struct famfs_logdev *ld = famfs_logdevs_get(&fs->devs, i);
		struct famfs_df_dev *d = &df->dev[i];
		/* device 0 also holds the log's segments (marked used by
		 * their EXTEND entries) */
		uint64_t start = (ld ? ld->data_start : famfs_data_start(fs->sb)) +
			(i ? 0 : df->log_len - le64toh(fs->sb->log_len));
		uint64_t reserved_units = (start + FAMFS_ALLOC_UNIT - 1) /
					  FAMFS_ALLOC_UNIT;

		if (reserved_units > b->nunits)
			reserved_units = b->nunits;
		d->size = ld ? ld->size : famfs_sb_dev_size(fs->sb);
		d->reserved = start;
		d->free = b->nfree * FAMFS_ALLOC_UNIT;
		d->free_1g = famfs_bitmap_free_aligned(b, (1ULL << 30) /
						       FAMFS_ALLOC_UNIT);
		/* R3: an entry that cannot be parsed may own any of it: not
		 * free (the master allocates nothing until the log is
		 * repaired) */
		if (df->unparsed_entries) {
			d->unknown = d->free;
			d->free = 0;
			d->free_1g = 0;
		}
		d->used = (b->nunits - b->nfree - reserved_units) *
			  FAMFS_ALLOC_UNIT;
		if (!i && df->hosts_len <= d->used) {	/* on device 0 */
			d->used -= df->hosts_len;
			d->reserved += df->hosts_len;
		}
		/* small files: their shared units are in used, whole */
		if (a.pa[i]) {
			struct famfs_pagealloc_stats st;

			famfs_pagealloc_stats(a.pa[i], &st);
			d->small_units = st.shared;
			d->small_pages_used = st.pages_used;
			d->small_pages_free = st.pages_free;
			df->small_units += st.shared;
			df->small_pages_used += st.pages_used;
			df->small_pages_free += st.pages_free;
		}
		df->size += d->size;
		df->reserved += d->reserved;
		df->used += d->used;
		df->free += d->free;
		df->free_1g += d->free_1g;
		df->unknown += d->unknown;
	}
	famfs_alloc_free(&a);
	return 0;
}

void famfs_df_mount_devs(const char *mpt, struct famfs_df *df)
{
	int fd;

	if (!famfs_kernel->dev_get || !*mpt)
		return;
	fd = open(mpt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	for (unsigned i = 0; i < df->ndevs; i++) {
		struct famfs_ioc_dev_info info = { .index = i };
		struct famfs_df_dev *d = &df->dev[i];
		char sys[96], real[PATH_MAX];
		int rc = famfs_kernel->dev_get(fd, &info);

		if (rc && rc != -ENXIO)
			break;		/* an older module: not asked */
		d->asked = true;
		d->attached = !rc;
		d->failed = !rc && (info.flags & FAMFS_DEV_CAUSE);
		d->mount_failed = !rc && (info.flags & FAMFS_DEV_FAILED);
		if (rc)
			continue;
		snprintf(sys, sizeof(sys), "/sys/dev/%s/%u:%u",
			 info.flags & FAMFS_DEV_DEVDAX ? "char" : "block",
			 info.major, info.minor);
		if (realpath(sys, real))
			snprintf(d->path, sizeof(d->path), "/dev/%.58s",
				 strrchr(real, '/') + 1);
	}
	close(fd);
}

int famfs_df_log_warn(const char *name, const struct famfs_df *df)
{
	if (!df->log_capacity ||
	    df->log_used * 100 < df->log_capacity * FAMFS_LOG_WARN_PCT)
		return 0;
	famfs_warn("%s: the log is %llu%% full (%llu of %llu %s used): new files and directories fail when it is full unless the master grows it (automatically when free space allows). " FAMFS_LOG_FULL_HINT,
		   name,
		   (unsigned long long)(df->log_used * 100 / df->log_capacity),
		   (unsigned long long)df->log_used,
		   (unsigned long long)df->log_capacity,
		   df->log_compact ? "256-byte slots" : "entries");
	return 1;
}
