// SPDX-License-Identifier: GPL-2.0
/*
 * The one writer of the superblock's feature words: only the instance that
 * holds the master role, under the log lock, writes the superblock, as
 * only it appends to the log.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "role/role.h"

static __le32 *feature_word(struct famfs_superblock *sb, int word)
{
	return word == FAMFS_FEAT_INCOMPAT ? &sb->feature_incompat :
	       word == FAMFS_FEAT_RO_COMPAT ? &sb->feature_ro_compat :
	       &sb->feature_compat;
}

int famfs_fs_change_feature(struct famfs_fs *fs, int word, uint32_t set,
			    uint32_t clear)
{
	static const char *const wname[] = { "compat", "ro_compat", "incompat" };
	struct famfs_superblock *sb, nsb;
	char why[80], reason[FAMFS_REASON_LEN];
	struct famfs_sbw w;
	bool took = false;
	uint32_t old;
	__le32 *f;
	int rc, rrc;

	if (word < FAMFS_FEAT_COMPAT || word > FAMFS_FEAT_INCOMPAT ||
	    (set & clear))
		return -EINVAL;
	/* bits to set that the copy has, under the lock the caller holds
	 * (a create's: the copy was read again by its role check, and its
	 * append checks the role again): nothing to write, nothing to check.
	 * A bit set stays set (the only one cleared, NONCOHERENT, is tune's,
	 * in its own opening); another file system's superblock (a mkfs from
	 * another host) is the append's role check's to find. */
	if (fs->locked && !clear &&
	    (le32toh(*feature_word(fs->sb, word)) & set) == set)
		return 0;
	snprintf(why, sizeof(why), "change %s features (set 0x%x, clear 0x%x)",
		 wname[word], set, clear);
	/* the superblock is shared memory: only the instance that holds the
	 * master role writes it, as only it appends to the log; a client, a
	 * clone of the master or a corrupt master record is refused here,
	 * with the holder named, before a byte is written */
	if (!fs->locked) {
		rc = famfs_fs_lock(fs);
		if (rc)
			return rc;
		took = true;
	}
	rc = famfs_master_check(fs);	/* refreshes fs->sb */
	if (rc)
		goto out;
	/* judged on the copy just read, not on one from before the lock */
	old = le32toh(*feature_word(fs->sb, word));
	if (((old & ~clear) | set) == old)
		goto out;			/* nothing to write */
	rc = famfs_fs_sb_get(fs, &w, why);
	if (rc)
		goto out;
	sb = w.base;
	/* what is written must verify, for every host: built and checked
	 * aside first (the multi-device feature on a v1 log, a bit this
	 * tool does not know) */
	nsb = *sb;
	f = feature_word(&nsb, word);
	*f = htole32((le32toh(*f) & ~clear) | set);
	famfs_sb_set_crc(&nsb);
	rc = famfs_sb_check(&nsb, 0, reason);
	if (rc) {
		famfs_err("%s: superblock not rewritten (to %s): it would not verify: %s",
			  fs->name, why, reason);
		famfs_fs_sb_put(&w);
		rc = -EINVAL;
		goto out;
	}
	*sb = nsb;
	famfs_store_stats.meta += sizeof(*sb);
	rc = famfs_map_flush(w.map, sb, sizeof(*sb));
	if (rc)
		famfs_err("%s: superblock: cannot flush (to %s): %s", fs->name,
			  why, strerror(-rc));
	famfs_fs_sb_put(&w);
	/* fs->sb is a copy: take the new bytes (after a check); one not
	 * read back would leave this process without the bit it set */
	rrc = famfs_fs_sb_reread(fs, reason);
	if (!rc && rrc) {
		famfs_err("%s: superblock written (to %s) but not read back: %s",
			  fs->name, why, reason);
		rc = rrc;
	}
out:
	if (took)
		famfs_fs_unlock(fs);
	return rc;
}
