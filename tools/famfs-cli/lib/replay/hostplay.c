// SPDX-License-Identifier: GPL-2.0
/*
 * The replay and the host table (format revision 3, HOSTS): a HOSTS entry
 * met makes .meta/.hosts over the table it names (log/hosttab.c), so that
 * every host maps it, as a log segment's .meta/.logK; and this host's
 * registration and report around a replay (log/hostreg.c).
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "replay/replay.h"

int famfs_lp_hosts(struct lp_ctx *c, uint64_t idx,
		   const struct famfs_log_entry *e)
{
	(void)idx;
	if (c->dry || !c->fs->mpt[0])
		return 0;
	if (famfs_hosts_file(c->fs, le64toh(famfs_entry_hosts(e)->offset)))
		c->r->errors++;		/* printed */
	return 0;
}

struct holds_seen {
	struct famfs_fs *fs;
	const struct famfs_names *names;
	uint64_t from;
};

static int holds_seen(void *arg, uint64_t *holds_from, uint64_t *held_bytes)
{
	struct holds_seen *h = arg;
	int rc = famfs_holds_of(h->fs, h->names, holds_from, held_bytes);

	if (!rc)
		h->from = *holds_from;
	return rc;
}

int famfs_hosts_checkin(struct famfs_fs *fs, bool fresh, bool update,
			uint64_t replayed, uint64_t *holds_from)
{
	return famfs_hosts_checkin_lp(fs, fresh, update, replayed, NULL,
				      holds_from);
}

int famfs_hosts_checkin_lp(struct famfs_fs *fs, bool fresh, bool update,
			   uint64_t replayed, const struct famfs_logplay *lp,
			   uint64_t *holds_from)
{
	struct holds_seen h = { .fs = fs, .from = FAMFS_HOLDS_NONE };
	const struct lp_ctx *c = (const struct lp_ctx *)lp;
	struct famfs_hosttab t;
	unsigned slot;
	int rc;

	/* the pending DELETEs from the namespace the replay built, when it
	 * reached replayed (else, a replay stopped or started again, from
	 * the whole log) */
	if (c && c->names && replayed && c->next >= replayed)
		h.names = c->names;

	if (holds_from)
		*holds_from = FAMFS_HOLDS_NONE;
	if (!(le32toh(fs->sb->feature_incompat) & FAMFS_FEATURE_INCOMPAT_HOSTS))
		return 0;
	rc = famfs_hosttab_open(fs, true, &t);
	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	rc = famfs_host_register(fs, &t, &slot, fresh);
	/* what famfs.ko here still holds of the pending DELETEs' memory */
	if (!rc && update)
		rc = famfs_host_update(fs, &t, slot, replayed, holds_seen, &h);
	if (holds_from)
		*holds_from = rc ? 0 : h.from;	/* unknown: as if all held */
	famfs_hosttab_close(&t);
	return rc;
}

bool famfs_hosts_present(struct famfs_fs *fs)
{
	uint64_t off, idx;

	return (le32toh(fs->sb->feature_incompat) &
		FAMFS_FEATURE_INCOMPAT_HOSTS) &&
	       famfs_hosts_find(fs, &off, &idx) == 0;
}

int famfs_hosts_mount_checkin(struct famfs_fs *fs, const char *mpt,
			      uint64_t replayed, const struct famfs_logplay *lp,
			      bool had_table)
{
	int rc = famfs_hosts_checkin_lp(fs, false, true, replayed, lp, NULL);

	/* registered only now, after a replay that ran with no table: if
	 * it is armed, the master may have reclaimed a DELETE of a file the
	 * replay made while no slot here blocked it -- replayed again, now
	 * that the slot blocks every DELETE past what it reports */
	if (!rc && !had_table && famfs_hosts_armed(fs) == 1) {
		famfs_warn("%s: the host table was made and armed while this mount replayed the log: replayed again, now that this host is registered",
			   mpt);
		return -EAGAIN;
	}

	/* evicted, or a newer famfs's table since: as before the replay,
	 * not mounted (printed) */
	if (!rc || rc == -ESTALE || rc == -EPROTONOSUPPORT)
		return rc;
	/* armed, the master trusts that every host that maps the file
	 * system is registered: a mount without its slot would map memory
	 * it may free.  A header that does not decode stops every reclaim
	 * (famfs_format.h): not armed for this. */
	if (famfs_hosts_armed(fs) == 1) {
		famfs_err("%s: not mounted: this host's slot in the host table is not written (%s), and the table is armed: the master frees a deleted file's memory once no registered host holds it, so no host maps the file system without its slot; a registration this mount made blocks every reclaim until this host mounts again or the master evicts it (famfs hosts lists the slots)",
			  mpt, strerror(-rc));
		return -ENOLINK;
	}
	famfs_err("%s: mounted, but this host's slot in the host table is not written (%s): until it is (famfs logplay %s), a registration without a replay blocks every reclaim, and none is made while the table is not armed",
		  mpt, strerror(-rc), mpt);
	return 0;
}
