/* SPDX-License-Identifier: GPL-2.0 */
/*
 * log/: the log -- the one place that decides what is committed.  Reading
 * it (walks, entries, the devices and segments it adds, R3/R4 around
 * next_index), the master's append under the log lock (roll-forward, tail
 * check, write, commit), its growth, attaching the members its DEVADD
 * entries name, and the create cache fed from it: the allocators (space/)
 * and the logged paths, with the master's summary file that carries them
 * from one process to the next.  It calls space/ to allocate a segment
 * and to feed the allocators, role/ before every write, and the layers
 * below.  Attaching members is here, not in replay/, because the append's
 * roll-forward attaches the member of a DEVADD it commits; the summary is
 * here, not in space/, because it is checked against the log (its last
 * entry, each path it finds).
 */
#ifndef FAMFS_LOG_H
#define FAMFS_LOG_H

#include "space/space.h"

/* ---- walk.c: reading the log -------------------------------------------- */
/* Bring fs->devs up to the log's committed end: the DEVADD entries of
 * [devs.next, next_index) are added (a MULTIDEV file system; else only the
 * primary is there).  Every walk does it first, so an entry is judged with
 * the devices the log added before it.  devs.next stops at the first DEVADD
 * (or slots of no known type) that does not read whole here (host-local:
 * fs->walk_torn), so the next update reads it again; the DEVADDs after it
 * that verify are still added, up to one whose index is past the next one
 * (a gap: the one not read was a DEVADD).  0 or -errno. */
int famfs_fs_devs_update(struct famfs_fs *fs);
/* famfs devadd (the master, under the log lock): the table brought up to
 * date and the index a new member takes in *index; -EBADMSG (said, with
 * the log index) while an entry that may be a DEVADD does not read whole
 * here (devs.next short of the log's end): its index may be taken. */
int famfs_fs_devs_next_index(struct famfs_fs *fs, unsigned *index);
uint64_t famfs_log_next(const struct famfs_log_header *h);
/* grow.c: famfs_log_put, and a full log grown first (the master, under
 * the log lock, FAMFS_LOG_AUTOGROW not 0).  -ENOSPC when full (log
 * unchanged). */
int famfs_log_append(struct famfs_fs *fs, struct famfs_log_entry *e);
/* append.c: the master instance's append: the master record checked, an
 * entry at next_index rolled forward (R4), the slots past it checked; then
 * seq/uuid/crc filled, the slot written and flushed, next_index advanced.
 * A full compact log: FAMFS_LOG_FULL and *full filled (nothing printed)
 * if full is not NULL and the log may grow there, else -ENOSPC (printed:
 * famfs_log_full_err) */
struct famfs_log_full {
	uint64_t idx, cap;	/* next_index, the slots the log has */
	int need;		/* the entry's slots */
	bool ext;		/* an EXTEND entry (no slot kept for it) */
};
#define FAMFS_LOG_FULL	1
int famfs_log_put(struct famfs_fs *fs, struct famfs_log_entry *e,
		  struct famfs_log_full *full);
void famfs_log_full_err(struct famfs_fs *fs, const struct famfs_log_full *f);
/* Would famfs_log_put find the log full for e, one the master may grow (a
 * compact log, under the log lock, FAMFS_LOG_AUTOGROW not 0)?  1 (*full
 * filled), else 0 (room, or a refusal famfs_log_put says) */
int famfs_log_full_now(struct famfs_fs *fs, const struct famfs_log_entry *e,
		       struct famfs_log_full *full);
/* The master grows a log famfs_log_append would find full for e before
 * e is appended (famfs_log_append grows it then): the entry's index is
 * known before, famfs_log_next (a file's identity, given to famfs.ko
 * before its entry is logged).  0, or -ENOSPC (said) */
int famfs_log_grow_for(struct famfs_fs *fs, const struct famfs_log_entry *e);
/* What a full log's message tells the user */
#define FAMFS_LOG_FULL_HINT \
	"Grow it with famfs loggrow MPT (it needs free space), or make a new file system with a larger --loglen (up to 1G) and copy the files to it"
/* The entry (v1 form) that starts at index idx: 0, or -EINVAL if none
 * verifies there (compact; a v1 slot is copied as it is) */
int famfs_log_entry_at(struct famfs_fs *fs, uint64_t idx,
		       struct famfs_log_entry *e);
/* The same, verified as a walk does (walk.c: CRC, seq, fields; a stale
 * line read again, the superblock when a feature bit is clear): 0,
 * -EBADMSG when it does not verify, -EINVAL past the log */
int famfs_log_entry_checked(struct famfs_fs *fs, uint64_t idx,
			    struct famfs_log_entry *e);
/* A DELETE e names its object by log index (famfs_ns_check: an earlier
 * entry): 1 if that entry verifies here and is not a FILE or MKDIR of e's
 * kind -- e is corrupt; why (n bytes) says what it names.  0 if it is, or
 * if it cannot be read or does not verify here (then the log's namespace
 * judges e: log/names.c) */
int famfs_delete_object_bad(struct famfs_fs *fs,
			    const struct famfs_log_entry *e, char *why,
			    size_t n);
/* The same, returning the slots the entry takes (1 in a v1 log) */
int famfs_log_entry_span(struct famfs_fs *fs, uint64_t idx,
			 struct famfs_log_entry *e);
/* Calls fn for each committed entry; bad ones come with a reason and ok=0.
 * Indexes: v1, entry numbers; compact, the slot an entry starts at (the
 * next entry's is fs->walk_next during the call), and a run of slots where
 * no entry verifies (torn, CRC) is one bad entry whose e is zero.
 * An entry whose CRC fails is refreshed (famfs_map_refresh) and checked
 * once more first.  A non-zero return of fn stops the walk and is returned. */
typedef int (*famfs_entry_fn)(void *arg, uint64_t idx,
			      const struct famfs_log_entry *e, bool ok,
			      const char *reason);
int famfs_log_walk(struct famfs_fs *fs, famfs_entry_fn fn, void *arg);
/* The same for the committed entries in [start, end) (end may be past the
 * log's next index: it is cut there). */
int famfs_log_walk_range(struct famfs_fs *fs, uint64_t start, uint64_t end,
			 famfs_entry_fn fn, void *arg);
/* walk.c, for append.c: the slot count of a verifying entry of this fs at
 * slot i of a compact log (ending by end), else 0; the first slot in
 * [from, cap) that starts one, looking no further than bound slots past
 * from or past the last one found (fn, may be NULL, called for each;
 * a non-zero return stops the scan, put in *rc), else UINT64_MAX; the
 * slots mapped, the log read first when a grown log's segments are not
 * all mapped yet */
unsigned famfs_clog_written(struct famfs_fs *fs, uint64_t i, uint64_t end);
uint64_t famfs_clog_scan(struct famfs_fs *fs, uint64_t from, uint64_t cap,
			 uint64_t bound, famfs_entry_fn fn, void *arg, int *rc);
uint64_t famfs_log_discover(struct famfs_fs *fs);
/* R4: calls fn for each slot in [next_index, capacity) that holds a
 * written entry of this fs (CRC, seq, uuid right; famfs_entry_written), ok
 * as famfs_entry_check says.  The one at next_index may be an uncommitted
 * append; any further one means the header lost committed entries. */
int famfs_log_walk_past(struct famfs_fs *fs, famfs_entry_fn fn, void *arg);
/* R4: a whole entry of this fs at next_index (an append that crashed
 * between its two flushes, or next_index one short: the two look the same,
 * and clients may map the latter) is committed, never overwritten.  Master
 * with the log open rw, under the log lock; 1 if it committed one, 0 if
 * there was none, -errno (printed). */
int famfs_log_roll_forward(struct famfs_fs *fs);
/* R4, what the master's append checks before it writes (a committed entry
 * past next_index, or one that next_index cuts): 0, or -EUCLEAN (printed).
 * A create calls it before it allocates and writes memory, since a create
 * cache loaded from the summary did not scan the tail itself.  Nothing to
 * look at when next_index is where this process's own last append left it
 * under the log lock held since (fs->own_next: a batch's later files). */
int famfs_log_tail_check(struct famfs_fs *fs);
/* The log's next index as memory holds it now: on a client the header's
 * cache line is refreshed first.  Cut to the capacity (with a message). */
uint64_t famfs_log_refresh_next(struct famfs_fs *fs);

/* ---- grow.c: the log's growth (INCOMPAT_LOG_EXTEND) --------------------- */
/* The master, under the log lock: grow the log by len bytes (0: double
 * it) into free memory of device 0 -- INCOMPAT_LOG_EXTEND set, the range
 * taken from the create cache, mapped as .meta/.logK, zeroed, and its
 * EXTEND entry appended.  0, or -errno (printed: -ENOSPC names the size
 * it looked for and the largest free run). */
int famfs_log_grow(struct famfs_fs *fs, uint64_t len);
/* cache.c: the one way to the allocator, for any allocation (a file's
 * memory, a growth's segment): under the log lock (-ENOLCK without it),
 * the create cache brought up to every committed entry -- what other
 * processes appended since this opening last looked, this one's own
 * mkdirs -- then judged usable (R3, R4).  0, or -errno (printed as
 * "WHO: WHAT: ...") */
int famfs_fs_cache_ready(struct famfs_fs *fs, const char *who,
			 const char *what);
/* The same when the caller checked the role (famfs_master_check) under this
 * lock a moment ago and wrote nothing since: not checked twice */
int famfs_fs_cache_ready_checked(struct famfs_fs *fs, const char *who,
				 const char *what);
/* walk.c: every segment the log's EXTEND entries add, mapped here (the
 * log read whole when INCOMPAT_LOG_EXTEND is set): before a growth
 * numbers a new one, and before a compact log is called full.  0, or
 * -EUCLEAN (printed) when one is mapped that the log does not add, or the
 * log adds one that cannot be mapped here; -errno of the walk. */
int famfs_log_segs_mapped(struct famfs_fs *fs);
/* append.c: FAMFS_LOG_AUTOGROW=0 in the environment: a full log is not
 * grown */
bool famfs_log_autogrow(void);

/* ---- attach.c: the log's members into the mount (FAMFSIOC_DEV_ADD) ------ */
/* The devices of fs found on this host (famfs devices): the primary and
 * the members its log names (fs->devs, brought up to date), by device
 * uuid as mount finds them (famfs_devtab_find).  A member superblock the
 * log does not name is an orphan (t->orphan) when the log gives its index
 * to another device (a devadd that crashed before its entry); one at an
 * index the log does not use (famfs devices label's) is that index's
 * member, as discovery finds it.  0; -ENOTUNIQ (not printed: the caller's
 * famfs_devtab_scan refuses, naming both) when two of those claim one
 * index or one device uuid; or -errno (printed) */
int famfs_fs_devtab(struct famfs_fs *fs, const char *const *hints, int nhints,
		    struct famfs_devtab *t);
/* Attach every device the log added (fs->devs, brought up to date) that
 * the mount at fs->mpt does not have yet: found by device uuid among the
 * hints and the scan root (famfs_devtab_find with the log's members), its
 * member superblock at least the size its DEVADD says; fs->devs.dev[i].path
 * filled.  Those found are attached even when another is missing.  Each
 * member famfs.ko has is compared with the log's (famfs_fs_member_here):
 * another device there is said once and no file is created on it.  0;
 * -ENODEV when one is not on this host (one message per missing member,
 * naming its index and device uuid); -ESTALE when famfs.ko has another
 * device than the log's as a member (and nothing is missing); -errno
 * (printed). */
int famfs_fs_attach_members(struct famfs_fs *fs, const char *const *hints,
			    int nhints);
/* How many members the log added (fs->devs, brought up to date) that the
 * mount does not have attached: 0.., or -errno (printed; -ENOTTY: a
 * module without DEV_GET).  One famfs.ko has as another device than the
 * log's is not missing: said once (famfs_fs_member_here). */
int famfs_fs_members_missing(struct famfs_fs *fs);

/* ---- cache.c: the create cache ------------------------------------------ */
/* Bring fs's create cache (bitmap, logged paths) up to the log's end:
 * only the entries appended since the last call are read.  Under the log
 * lock.  famfs_fs_cache_drop forgets it (the next update reads it all). */
int famfs_fs_cache_update(struct famfs_fs *fs);
void famfs_fs_cache_drop(struct famfs_fs *fs);
/* Write the master's summary (summary.c) if this opening's creates or
 * mkdirs changed it: once, at famfs_fs_close, not after every append (a
 * process that dies first only leaves more of the log to the next one) */
void famfs_fs_cache_flush(struct famfs_fs *fs);
/* famfs mount, the master, under the log lock: the summary made again from
 * the whole log (what was damaged while unmounted is seen: R3, R4), or
 * none when the log stops creates */
void famfs_fs_cache_remake(struct famfs_fs *fs);
/* After this opening's create of norm (its path, normalized) was appended:
 * the cache takes the entry and the path (its allocation it has already);
 * dropped if another entry came first */
void famfs_fs_cache_created(struct famfs_fs *fs, const char *norm);
/* nsappend.c: famfs rm, mv, chmod, chown, under the log lock: e judged by the cache's
 * namespace as the next entry (-EINVAL, why (FAMFS_NAMES_WHY_LEN) filled:
 * refused by the rules every replay follows, nothing appended), then the
 * incompat feature bit set (before the first entry that needs it) and e
 * appended (famfs_log_append); the cache then has it.  0 or -errno */
int famfs_fs_append_judged(struct famfs_fs *fs, struct famfs_log_entry *e,
			   uint32_t bit, char *why);
/* After famfs_fs_append_judged appended a RECLAIM (the cache's namespace
 * applied it): the memory it frees back to the cache's allocators */
void famfs_fs_cache_reclaimed(struct famfs_fs *fs);
/* After an append of this opening (famfs rm, mv, chmod, chown): the cache's
 * namespace takes the entry, if the cache is at it (else it is dropped and
 * the next update reads the log) */
void famfs_fs_cache_logged(struct famfs_fs *fs);
/* After famfs mkdir appended: the master's summary, if there is a trusted
 * one, follows (never a rebuild from the log: mkdir needs no cache) */
void famfs_fs_cache_follow(struct famfs_fs *fs);
/* Mark every valid entry's extents used: O(entries + units). */
int famfs_bitmap_build(struct famfs_fs *fs, struct famfs_bitmap *b);
/* Every device's allocator from the whole log (famfs_bitmap_build for
 * each device) */
int famfs_alloc_build(struct famfs_fs *fs, struct famfs_alloc *a);

/* ---- names.c: the namespace the log builds (format rev 3) --------------- */
/*
 * Objects by the index of the FILE or MKDIR entry that made them (their id
 * for life) and where each is after every entry fed in log order: DELETE
 * removes one, RENAME moves one (a directory with all beneath it), SETATTR
 * gives it a mode or owner.  A directory no entry made that a logged path
 * goes through is implied (id FAMFS_NAMES_IMPLIED).  Pure memory: the
 * create cache, replay, fsck and df feed it the valid entries they walk.
 */
struct famfs_names;
#define FAMFS_NAMES_IMPLIED	UINT64_MAX
/* reclaim.c: the DELETEs of files a namespace applied, by index, and
 * whether a RECLAIM named each (names.c keeps one; RECLAIM's rules) */
struct famfs_dels {
	struct famfs_del {
		uint64_t idx, object;
		bool reclaimed;
	} *d;				/* sorted by idx */
	size_t n, cap;
	uint64_t recl[FAMFS_RECLAIM_MAX];	/* the last RECLAIM's files */
	unsigned nrecl;
};
int famfs_dels_add(struct famfs_dels *s, uint64_t idx, uint64_t object);
void famfs_dels_free(struct famfs_dels *s);
/* FAMFS_NAMES_OK (s->recl[0..nrecl) the files freed) or
 * FAMFS_NAMES_CORRUPT (why, FAMFS_NAMES_WHY_LEN or NULL; nothing changed) */
int famfs_dels_reclaim(struct famfs_dels *s, const struct famfs_log_entry *e,
		       char *why);
unsigned famfs_dels_reclaimed(const struct famfs_dels *s,
			      const uint64_t **objects);
int famfs_dels_state(const struct famfs_dels *s, uint64_t del,
		     uint64_t *object);
typedef int (*famfs_pending_fn)(void *arg, uint64_t del, uint64_t object);
int famfs_dels_pending(const struct famfs_dels *s, famfs_pending_fn fn,
		       void *arg);
struct famfs_names *famfs_names_new(void);	/* NULL: out of memory */
void famfs_names_free(struct famfs_names *n);
/* What famfs_names_apply says of a valid entry at idx (or -ENOMEM): */
enum {
	FAMFS_NAMES_OK,		/* applied (DEVADD, EXTEND: nothing to do) */
	FAMFS_NAMES_TWICE,	/* FILE, MKDIR: the path is an object's
				 * already (*other, its id) */
	FAMFS_NAMES_UNDER_FILE,	/* FILE, MKDIR: a file (*other, its path in
				 * why) is on its way */
	FAMFS_NAMES_DIR_THERE,	/* FILE: paths are logged beneath it (why:
				 * one of them) */
	FAMFS_NAMES_REFUSED,	/* DELETE, RENAME, SETATTR: not applied (the
				 * object is not there, not that kind, a
				 * directory not empty, a RENAME onto a path
				 * that is there or into itself): why says */
	FAMFS_NAMES_CORRUPT,	/* RECLAIM: an index that is not a DELETE of
				 * a file the log applied, or one a RECLAIM
				 * named already: the entry is corrupt (R3:
				 * what is free is unknown; the master
				 * allocates nothing), why says */
};
/* why: FAMFS_NAMES_WHY_LEN or NULL; other may be NULL.  Not applied, the
 * namespace is unchanged. */
#define FAMFS_NAMES_WHY_LEN	(FAMFS_LOG_PATH_MAX + FAMFS_REASON_LEN)
int famfs_names_apply(struct famfs_names *n, uint64_t idx,
		      const struct famfs_log_entry *e, uint64_t *other,
		      char *why);
/* What is at path: 1 with *id (FAMFS_NAMES_IMPLIED for an implied
 * directory) and *kind (FAMFS_LOG_FILE, _MKDIR), or 0 */
int famfs_names_lookup(const struct famfs_names *n, const char *path,
		       uint64_t *id, int *kind);
struct famfs_names_obj {
	uint64_t id;
	int kind;
	bool live;		/* not deleted */
	bool attr_set;		/* a SETATTR changed mode or owner */
	uint32_t mode, uid, gid;	/* as the log has them now */
	uint64_t gone;		/* not live: the DELETE */
	unsigned nchild;
};
/* Object id: 1 and *o (path, FAMFS_LOG_PATH_MAX or NULL: where it is if
 * live), 0 if no entry made it (never, or refused) */
int famfs_names_get(const struct famfs_names *n, uint64_t id,
		    struct famfs_names_obj *o, char *path);
typedef int (*famfs_names_fn)(void *arg, const char *path,
			      const struct famfs_names_obj *o);
/* Every object an entry made, live or not (path "" if not), in the order
 * they became objects; a non-zero return of fn stops it and is returned */
int famfs_names_each(const struct famfs_names *n, famfs_names_fn fn, void *arg);
/* The live tree depth first, a directory before what is in it (implied
 * ones too); or only what is beneath dir */
int famfs_names_tree(const struct famfs_names *n, famfs_names_fn fn, void *arg);
int famfs_names_beneath(const struct famfs_names *n, const char *dir,
			famfs_names_fn fn, void *arg);
/* The RENAMEs applied, in log order */
struct famfs_names_rename {
	uint64_t idx, object;
	const char *from, *to;	/* valid until the next apply */
};
size_t famfs_names_nrenames(const struct famfs_names *n);
void famfs_names_rename_at(const struct famfs_names *n, size_t i,
			   struct famfs_names_rename *r);
struct famfs_names_count {
	unsigned long files, dirs;		/* live objects */
	unsigned long deleted_files, deleted_dirs;
	unsigned long reclaimed_files;		/* of deleted_files */
};
void famfs_names_counts(const struct famfs_names *n,
			struct famfs_names_count *c);
/* RECLAIM (issue 29): the DELETEs of files the namespace applied */
const struct famfs_dels *famfs_names_dels(const struct famfs_names *n);
/* The files (object ids) the last RECLAIM applied freed, in its order:
 * their count (read it right after applying a RECLAIM) */
static inline unsigned famfs_names_reclaimed(const struct famfs_names *n,
					     const uint64_t **objects)
{
	return famfs_dels_reclaimed(famfs_names_dels(n), objects);
}
/* The DELETE at del: 0 pending (its file's memory still its), 1 reclaimed,
 * -ENOENT not a DELETE of a file the namespace applied; *object (may be
 * NULL) the file's id */
static inline int famfs_names_delete_state(const struct famfs_names *n,
					   uint64_t del, uint64_t *object)
{
	return famfs_dels_state(famfs_names_dels(n), del, object);
}
/* Each applied DELETE of a file no RECLAIM named yet, in log order */
static inline int famfs_names_pending(const struct famfs_names *n,
				      famfs_pending_fn fn, void *arg)
{
	return famfs_dels_pending(famfs_names_dels(n), fn, arg);
}

/* ---- summary.c: the master's create summary (issue 17) ------------------ */
/*
 * The master's create summary (issue 17): what a create needs from the whole
 * log -- the allocation bitmap, the small files' pages in its shared units
 * (issue 30) and the set of logged paths -- as of log
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
 * on), this claim of the master role (the record's generation: not one
 * written before the role went to another instance and came back), the
 * device size and log capacity, and an index not past the log's next
 * index whose last entry is still the one it covered (its CRC).  Any
 * doubt: the summary is rebuilt from the log.  The path table holds a hash
 * and the entry index of each path; a hit is confirmed against the log
 * entry itself, so a wrong hash can only cost a log read.
 */
/* An empty summary of fs for about expect paths (in memory only until
 * saved); NULL when out of memory (printed). */
struct famfs_summary *famfs_summary_new(struct famfs_fs *fs, uint64_t expect);
/* The summary file of fs, if it can be trusted: 0, *out and bm (initialised
 * here) filled, *pa the page allocator over bm (NULL: no shared unit),
 * *next the log index it covers.  -ENOENT (none), -ESTALE (of
 * another file system, boot or log), -EBADMSG (damaged): nothing filled,
 * reason (FAMFS_REASON_LEN, may be NULL) says why. */
int famfs_summary_load(struct famfs_fs *fs, struct famfs_summary **out,
		       struct famfs_bitmap *bm, struct famfs_pagealloc **pa,
		       uint64_t *next, char *reason);
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
		       const struct famfs_bitmap *bm,
		       const struct famfs_pagealloc *pa, uint64_t next,
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

/* ---- sumpages.c: the small files' page state in the summary (issue 30) - */
/* One shared unit's record (its pages used, sealed or not) */
struct famfs_sum_unit;
/* Write the page state of pa (NULL: none) at off of fd, a CRC seeded with
 * seed (what names this save) over it, and cut the file after it: 0,
 * -ENOMEM or -errno (-EIO) */
int famfs_sumpages_write(int fd, uint64_t off, const uint64_t seed[4],
			 const struct famfs_pagealloc *pa);
/* Read it back from fd (size bytes long): at most max records, its CRC
 * seeded with seed: 0 with *rec (malloc'ed, NULL for none) and *nrec, or
 * -EBADMSG / -ENOMEM with *why (nothing to free) */
int famfs_sumpages_read(int fd, uint64_t off, uint64_t size, uint64_t max,
			const uint64_t seed[4], struct famfs_sum_unit **rec,
			uint64_t *nrec, const char **why);
/* The page allocator over bm that the records say (checked: in order,
 * inside the data area, used in bm, not empty, no unknown flag, a sealed
 * unit all used): 0 and *out (NULL for no records), or -EBADMSG / -ENOMEM */
int famfs_sumpages_load(struct famfs_fs *fs, struct famfs_bitmap *bm,
			const struct famfs_sum_unit *rec, uint64_t nrec,
			struct famfs_pagealloc **out);

/* ---- hosttab.c: the host table (format revision 3, HOSTS) --------------- */
/*
 * The table the log's HOSTS entry names (famfs_format.h, "Reclaim across
 * hosts"; docs/lifecycle.md): mapped on a mount through .meta/.hosts
 * (created over the entry's range when missing, file type FAMFS_LOG as a
 * log segment's: famfs.ko has no FAMFS_HOSTS type yet), else from the
 * device.  A host writes its own slot only; the header is the master's.
 */
#define FAMFS_META_HOSTS	".meta/.hosts"
struct famfs_hosttab {
	struct famfs_map m;	/* the table, FAMFS_HOSTS_LEN bytes */
	int fd;			/* .meta/.hosts on a mount, else -1 */
	uint64_t off;		/* on device 0 */
	uint64_t entry;		/* its HOSTS entry's log index */
	uint8_t fs_uuid[16];
};
/* The log's HOSTS entry (the first valid one): 0 and *off, *idx; -ENOENT
 * when there is none (or INCOMPAT_HOSTS is clear); -errno of the walk */
int famfs_hosts_find(struct famfs_fs *fs, uint64_t *off, uint64_t *idx);
/* On a mount: .meta/.hosts over [off, +FAMFS_HOSTS_LEN), created when
 * missing; one that maps other memory is refused (-EIO, printed).  0 when
 * not a mount.  (logplay calls it when its replay meets the entry.) */
int famfs_hosts_file(struct famfs_fs *fs, uint64_t off);
/* The table mapped (writable when rw): 0; -ENOENT (no table: no message);
 * -errno (printed) */
int famfs_hosttab_open(struct famfs_fs *fs, bool rw, struct famfs_hosttab *t);
void famfs_hosttab_close(struct famfs_hosttab *t);
/* Slot i as memory holds it now (refreshed, copied, decoded) */
enum famfs_host_state famfs_hosttab_slot(struct famfs_hosttab *t, unsigned i,
					 struct famfs_host *h);
/* Does slot i hold a copy of a later record layout (a newer build's,
 * FAMFS_HOST_TORN to this one): famfs_host_slot_newer */
bool famfs_hosttab_slot_newer(struct famfs_hosttab *t, unsigned i);
/* Every slot (slots: FAMFS_HOST_SLOTS of them) and the header's evicted
 * list: 0, or -errno of the header (famfs_hosttab_read_hdr) or of a bounce
 * read of the slots that failed --
 * the slots are filled either way */
int famfs_hosttab_read(struct famfs_hosttab *t, struct famfs_host *slots,
		       struct famfs_hosts_ev *ev, char *reason);
/* The slots that are not free (a byte of them not zero: valid, torn or
 * garbage), in slot order: slots[k] is slot idx[k] (famfs_host_slot_decode's
 * view), n of them; free slots are only looked at in place, never copied
 * (a pass reads the table, mostly free, on every famfs rm).  The header as
 * famfs_hosttab_read (ev NULL: not read, the caller has it); -ENOMEM (reason said, u empty) when the list cannot
 * grow.  famfs_hosttab_used_free frees u. */
struct famfs_hosttab_used {
	struct famfs_host *slots;
	unsigned *idx;
	unsigned n;
};
int famfs_hosttab_read_used(struct famfs_hosttab *t,
			    struct famfs_hosttab_used *u,
			    struct famfs_hosts_ev *ev, char *reason);
void famfs_hosttab_used_free(struct famfs_hosttab_used *u);
/* The slot of key k (famfs_host_key_rank: k's host in its boot first,
 * else k's uuid and name from another boot; the lowest index of a rank),
 * h filled; -ENOENT when none, -errno when the slots cannot be read.  One
 * refresh of the slots, free ones looked at in place (a first
 * registration's scan of every slot).  other (may be NULL): a registered
 * slot of k's uuid under another name (a clone, or this host before a
 * rename across a reboot), -1 for none */
int famfs_hosttab_find_key(struct famfs_hosttab *t,
			   const struct famfs_host_key *k,
			   struct famfs_host *h, int *other);
/* The highest generation of host uuid in any valid slot (0 for none) in
 * *top; 0, or -errno when the slots cannot be read */
int famfs_hosttab_top_gen(struct famfs_hosttab *t, const uint8_t uuid[16],
			  uint64_t *top);
/* Write h to slot i: its next copy with seq + 1 (h->seq set), flushed */
int famfs_hosttab_write(struct famfs_hosttab *t, unsigned i,
			struct famfs_host *h);
/* A claim's write of h into slot i (copy 0, seq 1): only when the slot,
 * read again just before, is all zero; -EBUSY when it is not */
int famfs_hosttab_claim(struct famfs_hosttab *t, unsigned i,
			struct famfs_host *h);
/* The master: write the header, ev's flags and list, over the copy that is
 * not the newest verifying one (ev->seq set: that one's + 1), flushed */
int famfs_hosttab_write_hdr(struct famfs_hosttab *t, struct famfs_hosts_ev *ev);
/* -EOVERFLOW (printed) above when the newest copy's seq is at its end
 * (FAMFS_HOST_SEQ_MAX): never wrapped, which the newest copy would
 * outlive.  _anew (repair): there, seq 1 over copy 0, the other zeroed */
int famfs_hosttab_write_hdr_anew(struct famfs_hosttab *t,
				 struct famfs_hosts_ev *ev);
/* What to do about a header famfs_hosttab_read_hdr refused with rc
 * (-EBADMSG: repair; -EINVAL: repair --force; -EPROTONOSUPPORT: upgrade) */
const char *famfs_hosts_hdr_way(int rc);
/* The header's evicted list and flags as in memory now (refreshed; the
 * newest verifying copy): 0, or -errno and reason (-ENOMEM; -EBADMSG no
 * copy verifies; -EPROTONOSUPPORT, -EINVAL: the newest verifying one is
 * not understood, famfs_hosts_hdr_decode) */
int famfs_hosttab_read_hdr(struct famfs_hosttab *t, struct famfs_hosts_ev *ev,
			   char *reason);
/* Slot i zeroed (an eviction by slot), flushed */
int famfs_hosttab_zero_slot(struct famfs_hosttab *t, unsigned i);
/*
 * The master, under the log lock (taken here unless held): the host table
 * made -- INCOMPAT_HOSTS set, 2 MiB of free memory of device 0 taken from
 * the create cache, mapped (.meta/.hosts on a mount), zeroed, its header
 * written and flushed, the HOSTS entry appended.  famfs_hosts_create: not
 * armed (what the first `famfs rm` of a file calls: clients may have
 * mounted before it, with no slot); famfs_hosts_init: armed (`famfs hosts
 * init`, before any client mounts).  0; -EEXIST when the log has one
 * already (no message); -errno (printed).
 */
int famfs_hosts_create(struct famfs_fs *fs);
int famfs_hosts_init(struct famfs_fs *fs);
/* Is the table armed (famfs_format.h: the master reclaims only then)?
 * 1 or 0; -ENOENT no table; -errno (the header does not decode) */
int famfs_hosts_armed(struct famfs_fs *fs);
/* The master (a client: -EPERM, printed), under the log lock (taken here
 * unless held): the header written with FAMFS_HOSTS_ARMED.  0; -EALREADY
 * armed already (no message); -ENOENT no table, -errno (printed) */
int famfs_hosts_arm(struct famfs_fs *fs);

/* ---- hostreg.c: this host's slot; evictions (format revision 3) -------- */
/* What this host holds: the lowest DELETE index famfs.ko still holds
 * memory of, FAMFS_HOLDS_NONE for none, and the bytes */
typedef int (*famfs_holds_fn)(void *arg, uint64_t *holds_from,
			      uint64_t *held_bytes);
/* STUB until famfs.ko reports held memory (its ioctl): "none held".  The
 * integrator wires the real one; until then a host's slot says it holds
 * nothing once its replay is past a DELETE. */
int famfs_holds_none(void *arg, uint64_t *holds_from, uint64_t *held_bytes);
/*
 * Register this host (host uuid, host name, boot id) in t: its slot found
 * by key (famfs_hosttab_find_key: a host with this uuid under another name
 * is another host -- a clone -- or this one before a rename across a
 * reboot; either way its slot stays and counts, and a claim says so), else
 * claimed (the first free slot from famfs_host_slot_home
 * upward, written, read back after FAMFS_HOST_SETTLE seconds --
 * $FAMFS_HOST_SETTLE_MS in tests --, the last writer keeps it).  A new
 * boot id: generation + 1 and registered_at = the log's next index when
 * fresh (a mount about to be replayed for the first time), else 0; the
 * same boot: generation and registered_at kept.  Role flags set.  0 and
 * *slot; -ESTALE when a fence names this host uuid and boot id, or its
 * (uuid, boot id, generation) is evicted and the boot is the same (printed: it
 * registers again only at its next boot); -ENOSPC no free slot;
 * -EPROTONOSUPPORT a header a newer build armed with a flag this one
 * lacks (said once: it takes no part); a header with no verifying copy or
 * a malformed one (-EINVAL) is taken as no fences (said once); -errno
 * (printed).
 */
int famfs_host_register(struct famfs_fs *fs, struct famfs_hosttab *t,
			unsigned *slot, bool fresh);
/* After a replay round: replayed (entries below it applied here), holds
 * (fn; NULL: famfs_holds_none), the beat time.  A slot that holds another
 * host's registration (a claim raced) while no fence names this host in
 * this boot: registered again in a new slot at 0 (said), and that slot
 * updated.  -ESTALE (printed) when the slot is no longer this
 * registration's otherwise, or it is evicted, or it is taken and no header
 * copy verifies (a fence cannot be told from a race): stop.  A header
 * with no verifying copy, or a malformed one: register and update go on
 * with no fences (said once); a newer build's flag: refused as
 * famfs_host_register does. */
int famfs_host_update(struct famfs_fs *fs, struct famfs_hosttab *t,
		      unsigned slot, uint64_t replayed, famfs_holds_fn fn,
		      void *arg);
/* The master's pass (the log lock held: no header write can come between):
 * famfs_host_register (not fresh) then famfs_host_update with one read of
 * the header -- ev and *hdr_rc as famfs_hosttab_read_hdr gave them (why
 * its reason), for the pass's decision.  0, or register's or update's
 * -errno */
int famfs_host_checkin_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
			  uint64_t replayed, famfs_holds_fn fn, void *arg,
			  struct famfs_hosts_ev *ev, int *hdr_rc, char *why);
/* The header's evicted list (hostreg.c).  lenient (registration, update):
 * a header with no verifying copy, or not understood, is said once and
 * taken as no fences (a FAMSHOS3 one: its fences), *nolist set (may be
 * NULL); one of a newer build, or not read here, refused.  Else (the
 * master's evictions) any error refused.  -errno printed */
int famfs_hosts_read_ev(struct famfs_fs *fs, struct famfs_hosttab *t,
			struct famfs_hosts_ev *ev, bool lenient, bool *nolist);
/* The master (checked, under the log lock taken here): fence every slot of
 * host uuid (its (uuid, boot id, generation) added to the header's evicted list),
 * or slot n (a registration fenced, its record kept; one fenced already,
 * or a slot that does not verify, zeroed).  0;
 * -ENOENT no such host; -ENOSPC (printed) the list is full and no fence
 * in it is moot (its host registered again); -errno (printed) */
int famfs_hosts_evict_uuid(struct famfs_fs *fs, struct famfs_hosttab *t,
			   const uint8_t uuid[16]);
int famfs_hosts_evict_slot(struct famfs_fs *fs, struct famfs_hosttab *t,
			   unsigned n);
/* famfs_hosts_evict_uuid of generation gen only (0: the current one):
 * -ESTALE (printed) when no slot of uuid has generation gen (it registered
 * again: look again); -EEXIST (printed) when two slots of it have gen (one
 * boot is fenced: --slot N); *fenced the generation fenced */
int famfs_hosts_evict_gen(struct famfs_fs *fs, struct famfs_hosttab *t,
			  const uint8_t uuid[16], uint64_t gen,
			  uint64_t *fenced);
/* The master (checked, under the log lock taken here): every fence naming
 * host uuid dropped (`famfs hosts evict --forget`: a host down for good,
 * to make room in a full list).  0; -ENOENT no fence names it; -EBUSY a
 * slot still holds a fenced registration of it (zero it first: evict
 * --slot); -errno; printed */
int famfs_hosts_forget(struct famfs_fs *fs, struct famfs_hosttab *t,
		       const uint8_t uuid[16]);
/* The master (checked, under the log lock): a header with no verifying
 * copy written anew with no fences (not armed); force: one that verifies
 * but is malformed (or two copies of one seq that differ) too.  0;
 * -EEXIST (printed) when it verifies; -EINVAL (printed, naming the reason)
 * malformed and not force; -EPROTONOSUPPORT (printed) a newer build's
 * flag: never written over, even forced */
int famfs_hosts_repair(struct famfs_fs *fs, struct famfs_hosttab *t,
		       bool force);

#endif /* FAMFS_LOG_H */
