/* SPDX-License-Identifier: GPL-2.0 */
/*
 * role/: who may write the shared metadata -- the master record as memory
 * holds it, this host's claim file, the holder's beat and a takeover's
 * wait, the check before every write (an append, a feature bit, a member
 * label), claiming and handing over the role; the one writer of the
 * superblock's feature words; and the opening as the tool uses it (mapped
 * by fs/, then this instance's role judged: famfs_fs_open_dev, _mount).
 * It calls fs/ (the superblock: read again, written through its view) and
 * the layers below; never the log.  (The opening is completed here, not in
 * fs/, because judging the role reads the record, the claim file and the
 * beat, which fs/ does not know.)
 */
#ifndef FAMFS_ROLE_H
#define FAMFS_ROLE_H

#include "fs/fs.h"

/* An opening (famfs_fs_map_dev, famfs_fs_map_mount), then
 * famfs_master_instance_judge: what every command opens a file system
 * with */
int famfs_fs_open_dev(const char *path, bool want_rw, struct famfs_fs *fs);
int famfs_fs_open_mount(const char *mpt, bool want_rw, struct famfs_fs *fs);

/* ---- feature.c ---------------------------------------------------------- */
/* The one writer of the superblock's feature words: set the bits of set and
 * clear those of clear in word (FAMFS_FEAT_*).  Nothing is written when
 * nothing changes.  Else, under the log lock (taken here unless this process
 * holds it), this instance must hold the master role (famfs_master_check: a
 * client, a clone of the master or a corrupt master record is refused with
 * a message naming the file system and the holder, -EPERM/-EUCLEAN, before
 * a byte is written); then the superblock is written through its writable
 * view (famfs_fs_sb_get: .meta/.superblock when mounted, else the device
 * opened writable), re-CRCed and flushed.  0 or -errno (printed). */
enum { FAMFS_FEAT_COMPAT, FAMFS_FEAT_RO_COMPAT, FAMFS_FEAT_INCOMPAT };
int famfs_fs_change_feature(struct famfs_fs *fs, int word, uint32_t set,
			    uint32_t clear);

/* ---- record.c, master.c, beat.c: the master role (RO_COMPAT_MASTER_REC) */
/*
 * The master record (famfs_format.h, RO_COMPAT_MASTER_REC): which running
 * instance holds the master role.  The superblock's master_uuid names the
 * host allowed to be master; the record names the instance (host uuid, boot
 * id, generation) that holds the role now, and the local claim file
 * (/var/lib/famfs/<fs uuid>.claim) remembers what this host claimed.
 * famfs_log_append checks it before every append, under the log lock.
 */
/* $FAMFS_CLAIM_DIR (tests) or /var/lib/famfs, then <fs uuid>.claim */
int famfs_claim_path(const uint8_t fs_uuid[16], char *out, size_t n);
int famfs_claim_read(const uint8_t fs_uuid[16], struct famfs_claim *c);
int famfs_claim_write(const uint8_t fs_uuid[16], const struct famfs_claim *c);

/* The record of an open fs, refreshed from memory first: a private copy
 * (fs->mrec), read once, so what is judged is what is remembered */
const struct famfs_master_record *famfs_mrec_refresh(struct famfs_fs *fs);
/* This instance (-EPERM/-EIO, message printed, if unknown) */
int famfs_me_get(struct famfs_fs *fs, struct famfs_me *me);
/* The state for this instance, with its reason; -errno on failure */
int famfs_master_state(struct famfs_fs *fs, enum famfs_mrec_state *st,
		       char *reason);
/* At open: fs->master_instance from the record as memory holds it (its
 * lines dropped first; kept in fs->mrec) judged by famfs_mrec_decide for
 * this instance: MINE only, on a host that is the superblock's master --
 * the master record's full check (host uuid, boot id, claim), kept up to
 * date by famfs_master_check and by claims and hand-overs.  It alone
 * wrote the metadata since its claim, which dropped every line of the log
 * and the superblock region (famfs_fs_forget_lines), so it alone skips
 * dropping its cache lines before it reads the log and replays files with
 * their write bits.  A record it may take but does not hold yet (free,
 * handed over, this host's from another boot: a reboot or a clone) was
 * written by another instance: read and replayed as a client does until
 * this opening claims it.  No message; a failure to judge is false (a
 * reader's caution). */
void famfs_master_instance_judge(struct famfs_fs *fs);
/* Before every append, under the log lock: 0 if this instance holds the
 * role (a free record, or this host's from before a reboot, is claimed
 * first); else a message and -EPERM (another holder) or -EUCLEAN. */
int famfs_master_check(struct famfs_fs *fs);
/* A write by the master (the host table's creation and evictions, a
 * reclaim pass): famfs_fs_writable, then the log lock unless this process
 * holds it already (a hold, a caller's lock; *took: taken here), then, if
 * check, famfs_master_check.  On a failure nothing is kept.  Paired with
 * famfs_master_unlock, which unlocks only what was taken here. */
int famfs_master_lock(struct famfs_fs *fs, bool check, bool *took);
void famfs_master_unlock(struct famfs_fs *fs, bool *took);
/* Claim the role (at mount, famfs master claim): a free record or this
 * host's from before a reboot; force: any record, and this host becomes
 * the superblock's master too.  Under the log lock.  A record that was
 * not this instance's: every line of the log and the superblock region
 * is dropped and the create cache with them (famfs_fs_forget_lines), then
 * this opening is the master instance. */
int famfs_master_claim(struct famfs_fs *fs, bool force);
/* After a claim of a record another instance held (a hand-over, -f, a
 * reboot; not a new file system's record, which nobody held), on a mount: that instance wrote the log, and this mount's tree
 * may lag it (files it made and removed not made here yet; a follower
 * would make them a moment before it applies their DELETE, on memory
 * reclaimed meanwhile).  So the claim replays the log into the mount to
 * its end, under the log lock the claim holds, before this instance's
 * first append or reclaim pass: this hook (replay/logplay.c installs it;
 * NULL: nothing replayed), unless fs->claim_no_replay (a mount, which
 * registers this host and then replays itself).  0, or -errno (printed:
 * the claim stands, nothing is appended by the caller).  The replay is
 * owed until it succeeds (review r39 2): this host's claim file says so
 * ("catch_up 1", cleared after the replay), and famfs_master_check tries
 * it again before every append of the master instance, refusing the
 * append while it fails -- in this process and in the next ones.  An
 * opening without a mount (famfs master claim DEV) replays nothing: the
 * mount's next append does.  Installed by famfs_replay_install, which
 * every program's main calls (NULL with a replay owed: the append is
 * refused, -ENOSYS). */
extern int (*famfs_claim_catch_up)(struct famfs_fs *fs);
/* The mount is replayed to the log's end (a catch-up, or a mount's own
 * replay after its claim): owed no more, here and in the claim file. */
void famfs_master_caught_up(struct famfs_fs *fs);
/* ---- beat.c: the holder's beat and a takeover's wait (issue 27.4) ------- */
/* The lease: how long a takeover by another boot of this host watches the
 * holder's beat before it takes the role, and how young a beat refuses it
 * at once (seconds): $FAMFS_MASTER_LEASE (1..3600) or the default */
#define FAMFS_MASTER_LEASE_DEFAULT	10
unsigned famfs_master_lease(void);
/* Unit tests: the clock (seconds since the epoch) and a takeover's
 * one-second waits; NULL: time(2) and sleep(3) */
extern uint64_t (*famfs_master_clock_hook)(void);
extern void (*famfs_master_sleep_hook)(unsigned seconds);
uint64_t famfs_master_now(void);
/* The beat of record r on the media (read again): true and *b if there is
 * one for r (its generation and boot id, this file system) */
bool famfs_beat_of(struct famfs_fs *fs, const struct famfs_master_record *r,
		   struct famfs_master_beat *b);
/* true if r has a beat younger than the lease (one stamped more than a
 * lease ahead of this clock has no age: not live) */
bool famfs_beat_live(struct famfs_fs *fs, const struct famfs_master_record *r);
/* A beat of r (count, this clock) */
void famfs_beat_fill(struct famfs_master_beat *b,
		     const struct famfs_master_record *r, uint64_t count);
/* By the holder (fs->mrec is this instance's), under the log lock: the
 * beat renewed unless this opening did within a third of the lease; a
 * takeover announced since its last beat is reported.  A beat that cannot
 * be written is said once, not an error. */
void famfs_beat_renew(struct famfs_fs *fs);
/* By another boot of the holder's host (FAMFS_MREC_REBOOT on fs->mrec),
 * under the log lock, before it claims: 0 if the holder is gone -- its
 * beat not younger than the lease, and, once announced (the intent), not
 * moving for a lease; else -EPERM (or -errno) and reason
 * (FAMFS_MREC_REASON_LEN) names the holder, its beat and why. */
int famfs_takeover_wait(struct famfs_fs *fs, const struct famfs_me *me,
			char *reason);
/* For famfs master: "last beat N s ago (...)" or "none for this record" */
void famfs_beat_show(struct famfs_fs *fs, const struct famfs_master_record *r,
		     char *out, size_t n);

/* Hand the role over: the superblock's master becomes host, the record is
 * released.  Only by the instance that holds it (or may claim it). */
int famfs_master_set(struct famfs_fs *fs, const uint8_t host[16]);

/* ---- hostdec.c: the reclaim decision (format revision 3, HOSTS) --------- */
/*
 * famfs_format.h, "Reclaim across hosts": DELETE d may be reclaimed only
 * when every registered slot that is not evicted (by its (host uuid,
 * generation)) has replayed > d and holds_from > d, the master's own slot
 * included (registered_at only tells BEYOND); a torn slot blocks every
 * DELETE.  Times
 * (beat_time) are shown, never used.  Pure: decoded slots in, no memory
 * read.
 */
enum famfs_host_block {
	FAMFS_HB_NONE,		/* does not block d */
	FAMFS_HB_TORN,		/* no verifying copy, not zero: blocks all */
	FAMFS_HB_BEHIND,	/* registered at or before d, replayed <= d */
	FAMFS_HB_HOLDING,	/* holds_from <= d: famfs.ko there holds it */
	FAMFS_HB_NO_MASTER,	/* the master has no registered slot */
	FAMFS_HB_BEYOND,	/* registered_at or replayed past the log's
				 * next index: not to be trusted, blocks all */
};
/* Why slot h blocks DELETE d (FAMFS_HB_NONE: it does not); next: the
 * log's next index (a slot past it is not trusted; UINT64_MAX: none) */
enum famfs_host_block famfs_host_blocks(const struct famfs_host *h,
					const struct famfs_hosts_ev *ev,
					uint64_t d, uint64_t next);
/* "torn", "behind: ..." (the way out), "holding", "no master slot", "past the log's end", "" */
const char *famfs_host_block_str(enum famfs_host_block b);
/* One blocker: DELETE dels[di] is blocked by slot (nslots for
 * FAMFS_HB_NO_MASTER) for why */
typedef void (*famfs_hostdec_fn)(void *arg, size_t di, unsigned slot,
				 enum famfs_host_block why);
/*
 * The decision for ndel pending DELETE indexes dels[]: ok[i] is true when
 * dels[i] may be reclaimed now; fn (NULL: none) is called for every
 * (DELETE, slot) that blocks.  slots[0..n) as famfs_host_slot_decode gave
 * them: idx NULL, the whole table (slots[s] is slot s); else the slots
 * that are not free only (famfs_hosttab_read_used), slots[k] being slot
 * idx[k], which fn is told.  NO_MASTER is told as slot FAMFS_HOST_SLOTS
 * (idx NULL: n).  ev the header's evicted list (NULL: none).  master_uuid
 * (NULL: not checked): the master's host uuid -- while no registered, not
 * evicted slot of it exists, nothing may be reclaimed (its own holds are
 * not known).  next: the log's next index -- a registered, not evicted
 * slot whose registered_at or replayed is past it (a bug, a lying host)
 * blocks every DELETE, as a torn one (UINT64_MAX: not checked).  Returns
 * how many may be reclaimed.
 */
size_t famfs_hostdec_decide(const struct famfs_host *slots, const unsigned *idx,
			    unsigned n, const struct famfs_hosts_ev *ev,
			    const uint8_t *master_uuid, const uint64_t *dels,
			    size_t ndel, uint64_t next, bool *ok,
			    famfs_hostdec_fn fn, void *arg);

#endif /* FAMFS_ROLE_H */
