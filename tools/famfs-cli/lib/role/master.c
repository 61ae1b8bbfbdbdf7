// SPDX-License-Identifier: GPL-2.0
/*
 * The master record (famfs_format.h, issue 15.2): who holds the master role
 * now.  Of two instances whose host uuid is the superblock's master (cloned
 * VMs, container images), only the one named in the record (host uuid, boot
 * id, generation) appends; the other is told before it writes.  There is no
 * compare-and-swap between hosts: the check, made under the log lock before
 * every append, narrows the window to one append; it does not close it.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "role/role.h"

int (*famfs_claim_catch_up)(struct famfs_fs *fs);

/*
 * The replay this host's claim owes its mount (role.h): the claim file
 * says so ("catch_up 1") from the claim until a replay to the log's end
 * succeeded, so the same process's next append and the next process's
 * find it owed, not only the claim's own attempt.  Run before every
 * append by the master instance (famfs_master_check), under the log
 * lock; refused (the append with it) while it fails.  An opening without
 * a mount (famfs master claim DEV, a device opened by path) has no tree
 * to replay: it appends, and the mount's next append replays first.
 */
static int catch_up_run(struct famfs_fs *fs)
{
	int rc;

	if (!fs->catch_up_pending || fs->catch_up_running || !fs->mpt[0])
		return 0;
	if (!famfs_claim_catch_up) {
		famfs_err("%s: this instance took the master role, and its mount is not replayed to the end of the log the other instance wrote; this program cannot replay it (a bug: famfs_replay_install not called): nothing is appended until famfs logplay %s succeeds",
			  fs->mpt, fs->mpt);
		return -ENOSYS;
	}
	fs->catch_up_running = true;
	rc = famfs_claim_catch_up(fs);
	fs->catch_up_running = false;
	if (rc)
		return rc;
	famfs_master_caught_up(fs);
	return 0;
}

void famfs_master_caught_up(struct famfs_fs *fs)
{
	struct famfs_claim c;

	fs->catch_up_pending = false;
	/* owed no more: the claim file says so (the same claim: the
	 * record's generation); if that cannot be written, the next
	 * process replays once more, which changes nothing */
	if (!famfs_claim_read(fs->sb->fs_uuid, &c) && c.present && c.catch_up &&
	    c.generation == le64toh(fs->mrec.generation)) {
		c.catch_up = false;
		if (famfs_claim_write(fs->sb->fs_uuid, &c))
			famfs_warn("%s: the claim file says a replay is still owed: the next append replays the log once more",
				   fs->name);
	}
}

/* the record found this instance's: what its claim file says is owed */
static void catch_up_owed(struct famfs_fs *fs)
{
	struct famfs_claim c;

	if (!famfs_claim_read(fs->sb->fs_uuid, &c) && c.present && c.catch_up &&
	    c.generation == le64toh(fs->mrec.generation) && !fs->claim_no_replay)
		fs->catch_up_pending = true;
}

void famfs_master_instance_judge(struct famfs_fs *fs)
{
	struct famfs_master_record *r;
	struct famfs_claim c;
	struct famfs_me me;
	int q = famfs_quiet;

	fs->master_instance = false;
	if (!fs->master || fs->sbm.len < FAMFS_MREC_OFFSET + sizeof(*r))
		return;
	/* at open: the superblock was just checked; the record as memory
	 * holds it (another host may have claimed since this CPU read it),
	 * read once (famfs_mrec_refresh's rule) */
	r = famfs_mrec_at(fs->sbm.addr);
	famfs_map_invalidate(&fs->sbm, r, sizeof(*r));
	fs->mrec = *r;
	/* only a record already this instance's: it wrote all the log
	 * since its claim, which dropped every line of it.  One it may take
	 * (free, handed over, this host's from another boot: a reboot or a
	 * clone of an idle master) was written by another instance -- read
	 * as a client reads until its claim (write_role) */
	famfs_quiet = 1;
	if (!famfs_me_get(fs, &me) && !famfs_claim_read(fs->sb->fs_uuid, &c))
		fs->master_instance = famfs_mrec_decide(fs->sb, &fs->mrec, &me,
							&c, NULL) == FAMFS_MREC_MINE;
	famfs_quiet = q;
}

/* write the record (HELD by me, or released) and, if needed, the
 * superblock's ro_compat bit and master uuid; other: held, of a record
 * that was not this instance's (see below) */
static int write_role(struct famfs_fs *fs, const struct famfs_me *me,
		      bool held, bool other, const uint8_t master[16])
{
	/* the record judged just before (famfs_master_state) */
	const struct famfs_master_record *old = &fs->mrec;
	struct famfs_master_record *r;
	struct famfs_superblock *sb;
	struct famfs_claim c = { .present = true };
	uint64_t gen = le64toh(old->generation);
	struct famfs_sbw w;
	bool bit = le32toh(fs->sb->feature_ro_compat) &
		   FAMFS_FEATURE_RO_COMPAT_MASTER_REC;
	int rc;

	if (!bit || le64toh(old->magic) != FAMFS_MREC_MAGIC)
		gen = 0;		/* no record yet (or garbage) */
	rc = famfs_fs_sb_get(fs, &w, held ? "claim the master role" :
				     "hand over the master role");
	if (rc)
		return rc;
	/* 1. this host's claim file: what "my claim" means after a reboot;
	 * and whether its mount owes a replay: a record another instance
	 * held (a record never held, gen 0: a new file system, had no other
	 * writer), or a replay still owed by the claim this one renews; not
	 * a mount's, which registers this host and then replays itself */
	if (held) {
		struct famfs_claim old;

		memcpy(c.host, me->host, 16);
		memcpy(c.boot, me->boot, 16);
		c.generation = gen + 1;
		c.catch_up = (other && gen) ||
			     (!famfs_claim_read(fs->sb->fs_uuid, &old) &&
			      old.present && old.catch_up &&
			      old.generation == gen);
		rc = famfs_claim_write(fs->sb->fs_uuid, &c);
		if (rc)
			goto out;
	}
	/* 2. the record */
	/* released: the last holder stays named, for messages */
	r = famfs_mrec_at(w.base);
	memset(r, 0, sizeof(*r));
	r->magic = htole64(FAMFS_MREC_MAGIC);
	r->flags = htole32(held ? FAMFS_MREC_HELD : 0);
	r->generation = htole64(held ? gen + 1 : gen);
	memcpy(r->fs_uuid, fs->sb->fs_uuid, 16);
	memcpy(r->host_uuid, me->host, 16);
	memcpy(r->boot_id, me->boot, 16);
	r->claim_time = htole64((uint64_t)time(NULL));
	gethostname(r->hostname, sizeof(r->hostname) - 1);
	famfs_mrec_set_crc(r);
	famfs_store_stats.meta += sizeof(*r);
	rc = famfs_map_flush(w.map, r, sizeof(*r));
	if (rc)
		goto out;
	fs->mrec = *r;		/* what this instance remembers as its own */
	/* its first beat (beat.c): a clone finds the role live from now */
	if (held) {
		struct famfs_master_beat *b = (void *)((char *)w.base +
						       FAMFS_MBEAT_OFFSET);

		famfs_beat_fill(b, r, 1);
		famfs_store_stats.meta += sizeof(*b);
		rc = famfs_map_flush(w.map, b, sizeof(*b));
		if (rc)
			goto out;
		fs->beat_at = famfs_master_now() ? famfs_master_now() : 1;
	}
	/* 3. the superblock: the record exists now, so the bit may be set */
	sb = w.base;
	if (bit && !memcmp(sb->master_uuid, master, 16))
		goto out;
	sb->feature_ro_compat = htole32(le32toh(sb->feature_ro_compat) |
					FAMFS_FEATURE_RO_COMPAT_MASTER_REC);
	memcpy(sb->master_uuid, master, 16);
	famfs_sb_set_crc(sb);
	famfs_store_stats.meta += sizeof(*sb);
	rc = famfs_map_flush(w.map, sb, sizeof(*sb));
out:
	if (rc)
		famfs_err("%s: could not %s: %s", fs->name,
			  held ? "claim the master role" : "hand over the master role",
			  strerror(-rc));
	famfs_fs_sb_put(&w);
	/*
	 * A record another instance held (another host, or this host's from
	 * another boot: a reboot or a clone), or none: that instance wrote the
	 * log and the superblock since this CPU last read them, so what it
	 * holds of them may be stale -- next_index, the other's entries, the
	 * slots past next_index a tail scan cached as zeros -- and the
	 * master instance reads without dropping lines: dropped now, every
	 * one, and the create cache built from them with them.  (The summary
	 * file is bound to the record's generation: log/summary.c.)
	 */
	if (!rc && other) {
		famfs_fs_forget_lines(fs);
		if (fs->cache_drop)	/* log/cache.c's */
			fs->cache_drop(fs);
	}
	if (!rc) {
		char why[FAMFS_REASON_LEN];

		/* the copy kept: the new one (not read back: this process
		 * would judge the role by the old one) */
		rc = famfs_fs_sb_reread(fs, why);
		if (rc)
			famfs_err("%s: superblock written (to %s) but not read back: %s",
				  fs->name, held ? "claim the master role" :
				  "hand over the master role", why);
		fs->master = !memcmp(fs->host_uuid, fs->sb->master_uuid, 16);
		fs->master_instance = held && fs->master;
	}
	/* the other instance's log into this mount, before anything is
	 * appended (role.h): owed from now until a replay succeeded */
	if (!rc && held) {
		/* a mount's claim: owed (in the claim file) until the
		 * mount's own replay succeeds (famfs_master_caught_up) */
		fs->catch_up_pending = c.catch_up && !fs->claim_no_replay;
		if (c.catch_up && !fs->mpt[0])
			famfs_note("%s: this instance took the master role from another: this host's mount replays the log to its end before its next append (famfs logplay MOUNT does it now)",
				   fs->name);
		rc = catch_up_run(fs);
	}
	return rc;
}

int famfs_master_claim(struct famfs_fs *fs, bool force)
{
	char reason[FAMFS_MREC_REASON_LEN], me_s[37], m_s[37];
	enum famfs_mrec_state st;
	struct famfs_me me;
	int rc = famfs_master_state(fs, &st, reason);

	if (rc)
		return rc;
	famfs_me_get(fs, &me);
	if (!force && memcmp(me.host, fs->sb->master_uuid, 16)) {
		famfs_uuid_str(me.host, me_s);
		famfs_uuid_str(fs->sb->master_uuid, m_s);
		famfs_err("%s: this host (uuid %s) is not the master (uuid %s): not claimed (famfs master claim -f takes the role over)",
			  fs->name, me_s, m_s);
		return -EPERM;
	}
	if (st == FAMFS_MREC_MINE && !force) {
		famfs_beat_renew(fs);
		catch_up_owed(fs);
		return catch_up_run(fs);
	}
	/* this host's claim from another boot: a reboot, or a clone of
	 * this host's disk while the holder runs -- taken only if it is
	 * gone (beat.c) */
	if (!force && st == FAMFS_MREC_REBOOT) {
		rc = famfs_takeover_wait(fs, &me, reason);
		if (rc)
			st = FAMFS_MREC_OTHER;
	}
	if (!force && (st == FAMFS_MREC_OTHER || st == FAMFS_MREC_BAD)) {
		famfs_err("%s: %s; not claimed (famfs master claim -f %s takes the role over if that master is gone)",
			  fs->name, reason, fs->mpt[0] ? fs->mpt : fs->name);
		return st == FAMFS_MREC_BAD ? -EUCLEAN : rc ? rc : -EPERM;
	}
	return write_role(fs, &me, true, st != FAMFS_MREC_MINE, me.host);
}

/* where this instance's boot id and claim come from (tests change them) */
static void mine_env(char *out, size_t n)
{
	const char *b = getenv("FAMFS_BOOT_ID_FILE"), *c = getenv("FAMFS_CLAIM_DIR");

	snprintf(out, n, "%s\n%s", b ? b : "", c ? c : "");
}

/* the role found held by this instance: remembered for the next append */
static void mine_remember(struct famfs_fs *fs)
{
	fs->mine_rec = fs->mrec;
	memcpy(fs->mine_master, fs->sb->master_uuid, 16);
	mine_env(fs->mine_env, sizeof(fs->mine_env));
	fs->mine_seen = true;
}

/* the record and the superblock as the last check found them, this
 * instance's boot id and claim from the same place: still mine (neither
 * changes while this process runs; another host's claim changes the
 * record) */
static bool mine_still(struct famfs_fs *fs)
{
	char env[sizeof(fs->mine_env)];

	if (!fs->mine_seen)
		return false;
	famfs_mrec_refresh(fs);
	mine_env(env, sizeof(env));
	return !memcmp(&fs->mine_rec, &fs->mrec, sizeof(fs->mine_rec)) &&
	       !memcmp(fs->mine_master, fs->sb->master_uuid, 16) &&
	       !strcmp(env, fs->mine_env);
}

int famfs_master_check(struct famfs_fs *fs)
{
	char reason[FAMFS_MREC_REASON_LEN];
	enum famfs_mrec_state st;
	int rc;

	if (mine_still(fs) && !fs->sb_other) {
		famfs_beat_renew(fs);
		return catch_up_run(fs);
	}
	fs->mine_seen = false;
	rc = famfs_master_state(fs, &st, reason);	/* reads both again */
	if (rc)
		return rc;
	/* the log this opening appends to is not the one that superblock
	 * describes (another host's mkfs over it): nothing more of it */
	if (fs->sb_other) {
		famfs_err("%s: the superblock on the media is another file system's now (its uuid, size, log length or log format differ from the one opened: made again?); nothing was written",
			  fs->name);
		return -ESTALE;
	}
	/* the claim below makes it the master instance (write_role) */
	fs->master_instance = fs->master && st == FAMFS_MREC_MINE;
	switch (st) {
	case FAMFS_MREC_MINE:
		mine_remember(fs);
		famfs_beat_renew(fs);
		catch_up_owed(fs);
		return catch_up_run(fs);
	case FAMFS_MREC_FREE:
	case FAMFS_MREC_REBOOT:
		/* not claimed at mount (an older tool mounted it, or the
		 * role was just handed over): claim it now */
		rc = famfs_master_claim(fs, false);
		if (!rc)
			mine_remember(fs);
		return rc;
	default:
		famfs_err("%s: %s; nothing was written (famfs master claim -f %s takes the role over if that master is gone)",
			  fs->name, reason, fs->mpt[0] ? fs->mpt : fs->name);
		return st == FAMFS_MREC_BAD ? -EUCLEAN : -EPERM;
	}
}

int famfs_master_lock(struct famfs_fs *fs, bool check, bool *took)
{
	int rc = famfs_fs_writable(fs);

	*took = false;
	if (rc)
		return rc;
	if (!fs->locked) {
		rc = famfs_fs_lock(fs);
		if (rc)
			return rc;
		*took = true;
	}
	if (check)
		rc = famfs_master_check(fs);
	if (rc)
		famfs_master_unlock(fs, took);
	return rc;
}

void famfs_master_unlock(struct famfs_fs *fs, bool *took)
{
	if (*took)
		famfs_fs_unlock(fs);
	*took = false;
}

int famfs_master_set(struct famfs_fs *fs, const uint8_t host[16])
{
	char reason[FAMFS_MREC_REASON_LEN], me_s[37], m_s[37], p[PATH_MAX];
	enum famfs_mrec_state st;
	struct famfs_me me;
	int rc = famfs_master_state(fs, &st, reason);

	if (rc)
		return rc;
	famfs_me_get(fs, &me);
	if (memcmp(me.host, fs->sb->master_uuid, 16)) {
		famfs_uuid_str(me.host, me_s);
		famfs_uuid_str(fs->sb->master_uuid, m_s);
		famfs_err("%s: this host (uuid %s) is not the master (uuid %s): only the master hands the role over",
			  fs->name, me_s, m_s);
		return -EPERM;
	}
	/* this host's claim from another boot: a reboot, or a clone of this
	 * host's disk while the holder runs -- handed over only if it could
	 * be claimed (the holder gone: beat.c's wait), never at once */
	if (st == FAMFS_MREC_REBOOT &&
	    famfs_takeover_wait(fs, &me, reason))
		st = FAMFS_MREC_OTHER;
	if (st == FAMFS_MREC_OTHER || st == FAMFS_MREC_BAD) {
		famfs_err("%s: %s; not handed over (famfs master claim -f first, if that master is gone)",
			  fs->name, reason);
		return st == FAMFS_MREC_BAD ? -EUCLEAN : -EPERM;
	}
	rc = write_role(fs, &me, false, false, host);
	if (!rc && !famfs_claim_path(fs->sb->fs_uuid, p, sizeof(p)))
		unlink(p);
	return rc;
}

/* ---- an opening with this instance's role judged ---- */
int famfs_fs_open_dev(const char *path, bool want_rw, struct famfs_fs *fs)
{
	int rc = famfs_fs_map_dev(path, want_rw, fs);

	if (!rc)
		famfs_master_instance_judge(fs);
	return rc;
}

int famfs_fs_open_mount(const char *mpt, bool want_rw, struct famfs_fs *fs)
{
	int rc = famfs_fs_map_mount(mpt, want_rw, fs);

	if (!rc)
		famfs_master_instance_judge(fs);
	return rc;
}
