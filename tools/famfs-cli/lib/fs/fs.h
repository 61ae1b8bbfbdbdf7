/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fs/: an opened file system (struct famfs_fs) -- its superblock mapped,
 * checked and kept as a private copy (read again, written through a
 * writable view), its log mapped as one view of segments (.meta/.logK on
 * a mount, EXTEND entries' ranges on a device) with the cache maintenance
 * of each segment, the log lock; whether famfs.ko has the log's device as
 * each member (memberhere.c).  It maps and checks; it does not judge
 * the master role (role/: famfs_fs_open_dev, famfs_fs_open_mount), read
 * an entry (log/) or keep a create cache: the cache's owner registers how
 * the opening frees it (cache_flush, cache_drop).  It calls dev/, media/
 * and base/.  (A layer of its own, below role/: the role reads and writes
 * the master record through the opened superblock region, and the log
 * checks the role before every append.)
 */
#ifndef FAMFS_FS_H
#define FAMFS_FS_H

#include "dev/dev.h"

struct famfs_alloc;	/* space/ */
struct famfs_summary;	/* log/ */
struct famfs_names;	/* log/ */

/* ---- fs.c: an opened file system (superblock + log) --------------------- */
/* A log segment (INCOMPAT_LOG_EXTEND): segment 0 is mkfs's log (its map is
 * fs->logm), k >= 1 were added by EXTEND entries */
struct famfs_logseg {
	uint64_t first, nslots;		/* its slots [first, first + nslots) */
	uint64_t dev_off, len;		/* on device 0; dev_off UINT64_MAX:
					 * not known (a .meta file found
					 * before its EXTEND entry was read) */
	struct famfs_map m;		/* k >= 1: in the log's view */
	int fd;				/* .meta/.logK when mounted, else -1 */
	bool logged;			/* its EXTEND entry was read (or
					 * written by this process) */
	uint64_t ext_idx;		/* that entry's slot (logged) */
};
struct famfs_fs {
	struct famfs_dev dev;		/* when opened from a device */
	struct famfs_map sbm, logm;
	int sb_fd, log_fd;		/* meta files when mounted, else -1 */
	int lock_fd;			/* flock()ed around allocate+append */
	bool locked;			/* this process holds it exclusively */
	bool held;			/* famfs_fs_hold: kept until release */
	bool scratch_swept;		/* dead scratch files removed under
					 * this hold (fill.c) */
	bool root_open;			/* root_fd: mpt's root, opened once */
	int root_fd;
	char mpt[4096];			/* "" when opened from a device */
	const char *name;		/* device or mount point, for messages */
	struct famfs_superblock *sb;	/* &sb_kept: never the media */
	struct famfs_superblock sb_kept; /* the copy that verified last */
	bool sb_reread_bad;		/* the last re-read failed (said once) */
	bool sb_other;			/* ... found another fs's (-ESTALE) */
	struct famfs_log_header *log;
	bool rw;			/* log opened writable */
	bool ro_mount;			/* log meta file without write bits:
					 * a client's mount or famfs mount -r */
	bool master;			/* host id == sb master_uuid */
	/* master and this instance holds the role (role/): it alone skips
	 * cache invalidation and replays write bits; a clone does not.  Set
	 * at open only for a record already this instance's (MINE), else by
	 * this opening's claim, after famfs_fs_forget_lines */
	bool master_instance;
	/* this opening claimed a record that was not this instance's: a log
	 * segment mapped from now on may hold lines from before the claim
	 * (famfs_logseg_add drops it whole) */
	bool lines_forgotten;
	uint8_t host_uuid[16];
	bool host_id_ok;		/* host_uuid could be read or created */
	/* kept between the creates of this opening (log/cache.c), used and
	 * brought up to date under the log lock: the allocation bitmap and
	 * the logged paths of the entries [0, cache_next) */
	struct famfs_alloc *cache_alloc;	/* one bitmap per device */
	struct famfs_summary *cache_sum;	/* log/summary.c: the paths */
	/* log/names.c: the paths instead, with what deletes and renames did
	 * (the summary cannot say it: a log that has them, or an opening
	 * that asked, cache_names_want, builds this from the whole log) */
	struct famfs_names *cache_names;
	bool cache_names_want;
	uint64_t cache_next;
	bool cache_unsaved;		/* the summary file is behind */
	/* the last entry of [0, cache_next): where it starts, and the CRC
	 * of its (v1 form) entry as famfs_log_entry_span gives it */
	uint64_t cache_last_idx;
	uint32_t cache_last_crc;
	/* found by the cache update (R3, R4); UINT64_MAX: none */
	uint64_t cache_unparsed;	/* first committed entry that cannot
					 * be parsed: no allocation */
	char cache_unparsed_why[FAMFS_REASON_LEN];
	uint64_t cache_past;		/* first valid entry past next + 1 */
	/* registered by the cache's owner (cache.c), above the opening and
	 * the append that call them: write the summary out, free the cache */
	void (*cache_flush)(struct famfs_fs *fs);
	void (*cache_drop)(struct famfs_fs *fs);
	char cache_dirok[FAMFS_LOG_PATH_MAX];	/* pathcheck.c */
	size_t cache_dirok_len;
	bool tail_checked;		/* log/: slots past next_index seen */
	/* log/: next_index as this process's last append committed it,
	 * under the log lock held since (0: none) -- the slots around it
	 * are the ones that append checked and wrote */
	uint64_t own_next;
	/* log/: during a walk, the index just past the entry given to the
	 * callback (idx + 1 in a v1 log, idx + its slots in a compact one);
	 * after an append, the index of the entry appended */
	uint64_t walk_next;
	uint64_t walk_lost;	/* -ENXIO: first slot unread, else UINT64_MAX */
	uint64_t lost_said;	/* that slot + 1, once said (0: none) */
	/* log/: during a walk, the entry given with ok false reads as not
	 * written whole (a CRC mismatch, slots where no entry verifies: an
	 * append under way, a torn or stale line), not as one whose fields
	 * fail their checks (the same on every host, every time) */
	bool walk_torn;
	int read_verdict;	/* log/walk.c: the last compact entry's check */
	/* log/hosttab.c: the first HOSTS entry's index + 1 (0: not found
	 * yet) and the table's offset it gives: an entry never changes, so
	 * the opening looks for it in the log once */
	uint64_t hosts_idx1, hosts_off;
	/* ops/nsops.c: famfs rm of several paths (reclaim_later, set by the
	 * command) runs one reclaim pass at the end (famfs_reclaim_finish),
	 * not one per path; reclaim_due: a removal is waiting for it */
	bool reclaim_later, reclaim_due;
	uint64_t last_append;
	/* devs.c: the devices the log added (INCOMPAT_MULTIDEV), up to
	 * devs.next; dev[0] the primary.  famfs_fs_devs_update */
	struct famfs_logdevs devs;
	/* master.c: the role as the last check found it held by this
	 * instance (record, superblock master, where the boot id and claim
	 * come from): an append that finds the same skips re-reading the
	 * boot id and the claim file */
	bool mine_seen;
	bool claim_no_replay;	/* master.c: a claim replays nothing (mount) */
	/* master.c: this host's claim says its mount owes a replay to the
	 * log's end (famfs_claim_catch_up), retried before every append;
	 * catch_up_running: the replay under way (its own checks skip it) */
	bool catch_up_pending, catch_up_running;
	uint8_t mine_master[16];
	/* the record read once by famfs_mrec_refresh (or as written): what
	 * is judged; mine_rec: what was remembered as this instance's */
	struct famfs_master_record mrec, mine_rec;
	char mine_env[512];
	uint64_t beat_at;	/* beat.c: this opening's last beat (0: none) */
	bool beat_said;		/* beat.c: a beat that failed was said */
	/* logseg.c: a compact log is one view, a PROT_NONE reservation of
	 * FAMFS_LOG_TOTAL_MAX bytes at fs->log into which every segment is
	 * mapped in order, so slot i is at the same address arithmetic in
	 * every segment and an entry that spans two is contiguous */
	void *view;
	struct famfs_logseg seg[FAMFS_LOG_MAX_SEGS];
	unsigned nsegs;			/* mapped: 1 + segments 1.. */
	uint64_t log_cap;		/* their slots (v1: the header's) */
	bool grow_said;			/* automatic growth was reported */
	/* space/place.c: the members of the log not attached to this mount, as
	 * found when the allocators had here_ndevs devices; said once */
	unsigned here_ndevs;
	uint32_t here_absent;
	bool here_said;
	/* memberhere.c: what famfs_fs_member_here found of member i for the
	 * device uuid the table had then (rc 0: not known; this opening) */
	struct {
		uint8_t uuid[16];
		int rc;
	} member_seen[FAMFS_MAX_DEVS];
};
/* INCOMPAT_COMPACT_LOG: log indexes are 256-byte slots, an entry takes
 * 1..4 of them (famfs_format.h) */
static inline bool famfs_fs_compact(const struct famfs_fs *fs)
{
	return famfs_sb_compact(fs->sb);
}
/* INCOMPAT_MULTIDEV: member devices (famfs_format.h) */
bool famfs_fs_multidev(const struct famfs_fs *fs);
/* memberhere.c: is member index of the log (fs->devs as it is) the
 * device famfs.ko has at that index on the mount fs->mpt
 * (famfs_member_compare: FAMFSIOC_DEV_GET's device number against this
 * host's node of the log's device -- the attach's, else found by device
 * uuid -- else famfs.ko's device's member superblock)?  1 yes (index 0
 * always), or this host cannot tell (said once per process with a way to
 * let it tell; used); 0 nothing attached there (or not a mount, or no
 * such member); -ESTALE definitely another device: said once per process
 * (the index, both device uuids, unmount and mount again) -- no new file
 * on it may be created or placed here; -EIO famfs.ko reports it failed
 * (FAMFS_DEV_FAILED: said once); another -errno: DEV_GET failed (-ENOTTY:
 * a famfs.ko without it), not known.  Remembered by the opening for the
 * table's device uuid of the index; a definite answer by the process while
 * DEV_GET names the same device there (famfs.ko keeps a member until the
 * unmount), a cannot-tell for famfs_member_recheck_s seconds (a node may
 * come: asked again then, not at every opening of a follower's rounds). */
int famfs_fs_member_here(struct famfs_fs *fs, unsigned index);
extern unsigned famfs_member_recheck_s;	/* 30 */

/* Superblock and log header must pass the checks, else -EBADMSG (message
 * printed).  want_rw: open the log writable if this host may write it.
 * famfs_fs_open_dev and famfs_fs_open_mount (role/) are these, then the
 * master instance judged: what every command uses; famfs_fs_map_* only
 * map and check. */
int famfs_fs_map_dev(const char *path, bool want_rw, struct famfs_fs *fs);
/* The same, read-only, for mount (which then reads the log through the
 * mount): the superblock, the log header and the role checked; of a block
 * device only the first 4 KiB of the superblock region and of the log are
 * read (famfs_fs_open_dev reads the 2 MiB region and the log whole: a
 * 16 MiB log, ~16 M instructions of copying under TCG).  Nothing
 * past the superblock or the log header may be read through it: not the
 * master record (famfs_mrec_refresh), not a log entry. */
int famfs_fs_open_dev_head(const char *path, struct famfs_fs *fs);
int famfs_fs_map_mount(const char *mpt, bool want_rw, struct famfs_fs *fs);
void famfs_fs_close(struct famfs_fs *fs);
/* 0 if this process may append to the log; else prints why and -EPERM/-EROFS */
int famfs_fs_writable(struct famfs_fs *fs);
/* The log lock: flock() of the log meta file (of the device when opened
 * from one), so it is per host.  Exclusive: whoever appends, from the
 * allocation to the file's MAP_CREATE, and logplay (one replayer at a time,
 * never beside a create).  Shared: readers that change nothing. */
int famfs_fs_lock(struct famfs_fs *fs);
int famfs_fs_lock_shared(struct famfs_fs *fs);
void famfs_fs_unlock(struct famfs_fs *fs);
/* The mount root of a mounted opening (fs->mpt), opened on first use and
 * kept until famfs_fs_release or famfs_fs_close: an fd to open paths
 * beneath (not closed by the caller), or -errno.  For a batch, under the
 * hold: what the mount point names is taken once, with the log's lock. */
int famfs_fs_root(struct famfs_fs *fs);
/* A batch (famfs mkfile/mkdir/cp of many paths): the log lock taken once,
 * exclusively, and kept until famfs_fs_release (or famfs_fs_close); the
 * lock and unlock of every create or mkdir in between do nothing.  Each
 * create still fills its memory and maps it before it logs it, under the
 * lock as before; other creators and logplay on this host wait for the
 * whole batch. */
int famfs_fs_hold(struct famfs_fs *fs);
void famfs_fs_release(struct famfs_fs *fs);
/* Read the superblock again (famfs_map_refresh: another host may have
 * changed it).  fs->sb always points at a private copy (fs->sb_kept): what
 * is read is copied out of the media first, checked (famfs_sb_check; one
 * that fails is read once more: torn while the master wrote it), and
 * replaces the copy only if it verifies.  Else the copy verified last stays
 * and the check's -errno is returned, reason filled (may be NULL).  One
 * that verifies but is another file system's (uuid, size, log length or
 * format not the opening's: what fs->logm, the segments and fs->devs were
 * built from) is -ESTALE, the copy kept.  A mapping shows another host's
 * writes at once; the copy does not change under a reader between a check
 * and a use. */
int famfs_fs_sb_reread(struct famfs_fs *fs, char *reason);
/* A writable view of the superblock region (FAMFS_SB_REGION_LEN bytes at
 * base, flushed through map): fs->sbm when it is writable (a device opened
 * rw), else .meta/.superblock opened O_RDWR and mapped.  A superblock there
 * that does not verify is refused (-EBADMSG, printed): re-CRCed it would
 * make its damage good for every host. */
struct famfs_sbw {
	struct famfs_map m, *map;
	void *base;
	int fd;
};
int famfs_fs_sb_get(struct famfs_fs *fs, struct famfs_sbw *w, const char *why);
void famfs_fs_sb_put(struct famfs_sbw *w);

/* ---- logseg.c: the log's view and segments (INCOMPAT_LOG_EXTEND) -------- */
/* A meta file's (.meta/.logK, .meta/.hosts) one extent of len bytes: its
 * device offset, or UINT64_MAX (not mapped so, or not readable) */
uint64_t famfs_meta_file_off(int fd, uint64_t len);
#define FAMFS_META_LOGSEG	".meta/.log%u"
/* The slots a reader can reach now: the header's capacity for v1, the
 * mapped segments' for a compact log */
static inline uint64_t famfs_log_cap(const struct famfs_fs *fs)
{
	return fs->log_cap;
}
/* fs.c: reserve the view (compact logs; fs->view stays NULL for v1) and
 * after segment 0 is mapped there, the segments of .meta/.log1.. of a
 * mount; famfs_logview_fini undoes both */
int famfs_logview_init(struct famfs_fs *fs);
int famfs_logview_attach(struct famfs_fs *fs);
void famfs_logview_fini(struct famfs_fs *fs);
/* An EXTEND entry (v1 form, famfs_entry_check passed) read at slot idx:
 * its segment is mapped (on a mount through .meta/.logK, created if
 * missing), or compared with the one already known.  0; -EINVAL with
 * reason filled if it is refused (wrong segment number, overlap, size),
 * so the entry is corrupt; another -errno (printed) if it cannot be
 * mapped here. */
int famfs_logseg_add(struct famfs_fs *fs, const struct famfs_log_entry *e,
		     uint64_t idx, char *reason);
/* Cache maintenance of [addr, addr + len) of the view, each part through
 * its segment's map (famfs_map_flush, _invalidate, _refresh) */
int famfs_log_flush(struct famfs_fs *fs, const void *addr, size_t len);
void famfs_log_invalidate(struct famfs_fs *fs, const void *addr, size_t len);
/* Every line this CPU may hold of the superblock region and of the log's
 * mapped segments, header and tail included, dropped (a bounce buffer
 * read again), and fs->lines_forgotten set: what an instance that claims
 * a record another instance held (another host, another boot, a clone)
 * does before it takes itself for the writer of all it reads, since the
 * other one wrote the log meanwhile (role/: write_role).  Segments mapped
 * later are dropped whole when mapped; a caller that wants none left for
 * the next opening maps them all (famfs_log_discover). */
void famfs_fs_forget_lines(struct famfs_fs *fs);
/* famfs_map_load of each part: before slots are read or written */
int famfs_log_load(struct famfs_fs *fs, const void *addr, size_t len);
int famfs_log_refresh(struct famfs_fs *fs, void *addr, size_t len);
/* A meta file of the mount at mpt: created (O_EXCL, mode), mapped by
 * MAP_CREATE as type over [off, off + len) of device 0.  0 or -errno
 * (printed; the file is removed again if it could not be mapped). */
int famfs_meta_create(const char *mpt, const char *rel, mode_t mode,
		      uint32_t type, uint64_t off, uint64_t len);
/* log/grow.c's steps: segment k (== fs->nsegs) over [off, +len) mapped
 * (and .meta/.logK.new made, an unfinished growth's removed first) before
 * its EXTEND entry is written; undone if that fails */
int famfs_logseg_map_new(struct famfs_fs *fs, unsigned k, uint64_t off,
			 uint64_t len, char *reason);
void famfs_logseg_unmap_new(struct famfs_fs *fs, unsigned k);
/* Its EXTEND entry committed: .meta/.logK.new becomes .meta/.logK (a
 * replay that meets the entry renames it if this does not happen) */
int famfs_logseg_publish(struct famfs_fs *fs, unsigned k);
/* famfs check, fsck on a mount: .meta/.logK (and .meta/.logK.new) against
 * the log's segments, ext[k] for k = 1..n-1 (ext[0] unused): each one
 * that is missing, maps other memory, or is not in the log is said
 * through fn.  The number said. */
unsigned famfs_logseg_check_files(struct famfs_fs *fs,
				  const struct famfs_extent *ext, unsigned n,
				  void (*fn)(void *arg, const char *msg),
				  void *arg);

#endif /* FAMFS_FS_H */
