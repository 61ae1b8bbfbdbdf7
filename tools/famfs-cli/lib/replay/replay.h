/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay/: making a mount match its log -- logplay (one round, or rounds
 * for --follow), the follow loop, and the names of the directories a
 * replay has listed.  It calls log/ (walks, attaching members) and the
 * layers below; it creates nothing through ops/ but it may call it.
 */
#ifndef FAMFS_REPLAY_H
#define FAMFS_REPLAY_H

#include <linux/limits.h>	/* PATH_MAX, whatever the feature macros */
#include <signal.h>
#include <sys/types.h>

#include "ops/ops.h"

/* ---- logplay.c ---------------------------------------------------------- */
struct famfs_logplay_result {
	unsigned long created_files, created_dirs, present, conflicts,
		bad_entries, errors;
	/* format rev 3: files and directories removed (a DELETE), moved (a
	 * RENAME) and given a mode or owner (a SETATTR) here */
	unsigned long removed, moved, changed;
	/* objects of the log a replay from its first entry did not make:
	 * made before an entry that did not verify here or a lost segment
	 * (with the DELETE bit: it may have deleted them), or a file whose
	 * memory overlaps another's (fullhold.c) */
	unsigned long withheld;
};
int famfs_logplay(struct famfs_fs *fs, bool dry_run,
		  struct famfs_logplay_result *r);
/* role/'s famfs_claim_catch_up (a claim's replay of its mount) installed:
 * called by every program's main (a static link of libfamfs.a would
 * leave a constructor here out; a replay owed and no hook refuses the
 * append: role.h) */
void famfs_replay_install(void);
/* Replay in rounds (famfs logplay --follow): the log's namespace as the
 * entries played so far made it is kept between rounds, so a path logged
 * twice is still a conflict, and a DELETE, RENAME or SETATTR is applied to
 * what the earlier rounds made, in log order.  Each round plays the
 * committed entries from famfs_logplay_next() on, adding to r (not
 * cleared); stop (may be NULL) is asked before each entry, and true ends
 * the round there (0 returned).  fs may be another opening of the same
 * mount each round.  A round from the first entry of a log with deletes
 * or renames (famfs logplay, a mount, a follower's first round) makes the
 * mount what the whole log says instead (fullplay.c): the tree here may
 * be any earlier replay's, so each object is found where it was (a file
 * by its map), moved to where it ends, or removed if it was deleted, and
 * what the log deletes later is never made. */
struct famfs_logplay;
struct famfs_logplay *famfs_logplay_new(uint64_t expect);
void famfs_logplay_free(struct famfs_logplay *lp);
uint64_t famfs_logplay_next(const struct famfs_logplay *lp);
/* How many times lp started again from the first entry (a follower's
 * count of what a round played starts at 0 then) */
uint64_t famfs_logplay_restarts(const struct famfs_logplay *lp);
/* What a check-in may report as replayed: every entry below it applied
 * here -- famfs_logplay_next, or the first entry skipped because it did
 * not verify here, if lower (this host may still have what it names) */
uint64_t famfs_logplay_replayed(const struct famfs_logplay *lp);
/* Every file lp makes from now on may be on memory this host cached under
 * something else (another file system on the same memory before: a
 * follower that sees a new one mounted): its lines dropped as a file on a
 * deleted file's memory's are, not only where a DELETE of lp's log was. */
void famfs_logplay_drop_all(struct famfs_logplay *lp);
/* The follower's rounds: an entry that does not verify here as written
 * whole (a CRC mismatch, a torn run of slots: fs->walk_torn; one whose
 * fields fail their checks is skipped, as everywhere) is not
 * skipped but waited for -- the round stops before it (nothing after it
 * played, famfs_logplay_next stays at it), each later round reads it
 * again (the master may still have been writing it, or a line was torn),
 * and once it verifies it is played and the replay goes on in order.  It
 * is said and counted (bad_entries) once, not every round. */
void famfs_logplay_hold_bad(struct famfs_logplay *lp);
/* A replay of the same log that takes over from one (the follower's, from
 * the start when missing members came): the entry that one waits at was
 * said and counted already, so it is not again while lp waits there */
void famfs_logplay_held_from(struct famfs_logplay *lp,
			     const struct famfs_logplay *from);
int famfs_logplay_more(struct famfs_logplay *lp, struct famfs_fs *fs,
		       bool dry_run, struct famfs_logplay_result *r,
		       bool (*stop)(void *arg), void *stop_arg);
/* Unit tests: called by a replay right after it made the directory name
 * of a MKDIR entry under pfd, before that directory gets its owner and
 * mode (NULL: none) */
extern void (*famfs_logplay_mkdir_hook)(int pfd, const char *name);

/* ---- follow.c: famfs logplay --follow ----------------------------------- */
struct famfs_follow;
/* What the follow loop asks of the world (unit tests bring their own). */
struct famfs_follow_ops {
	/* wait up to ms; 1 if the mount went away meanwhile, else 0 (also
	 * when a signal cut the wait short) */
	int (*wait)(struct famfs_follow *f, unsigned ms);
	/* 1 if MPT is no longer the mount being followed, else 0 */
	int (*gone)(struct famfs_follow *f);
	/* true once a stop was asked (checked between entries) */
	bool (*stop)(struct famfs_follow *f);
};
struct famfs_follow {
	char mpt[4096];
	unsigned interval_ms;
	const struct famfs_follow_ops *ops;
	void *arg;			/* for ops */
	volatile sig_atomic_t *stop_flag; /* the real stop(): *stop_flag != 0 */
	/* state */
	struct famfs_logplay *lp;
	struct famfs_logplay_result r;	/* summed over the rounds */
	uint64_t played;		/* entries played (any outcome) */
	uint64_t capacity;		/* of the log, as last seen */
	unsigned long rounds;		/* rounds that opened the mount */
	uint8_t fs_uuid[16];
	bool have_uuid, full_reported, unmounted;
	/* a member the log added is not attached here (not on this host
	 * yet): every round looks for it; once one comes, the log is
	 * replayed from its start, creating the files on it */
	bool member_wait;
	/* the host table: the lowest DELETE this host held memory of at
	 * its last report (FAMFS_HOLDS_NONE: none) -- while it holds any,
	 * every round reports again, so its let-go is seen a round later */
	uint64_t holds_from;
	bool registered;		/* in the host table, before a replay */
	int ino_fd;			/* inotify on MPT, or -1 */
	dev_t dev;
	ino_t ino;
};
enum { FAMFS_FOLLOW_UNMOUNTED = 1, FAMFS_FOLLOW_STOPPED = 2 };
/* ops NULL: the real ones (inotify, stat, *stop_flag). */
int famfs_follow_init(struct famfs_follow *f, const char *mpt,
		      unsigned interval_ms, const struct famfs_follow_ops *ops);
void famfs_follow_fini(struct famfs_follow *f);
/* One round: open the mount, replay what is new, close.  0 (played set),
 * FAMFS_FOLLOW_UNMOUNTED, or -errno (message printed). */
int famfs_follow_round(struct famfs_follow *f, uint64_t *played);
/* Rounds every interval_ms until FAMFS_FOLLOW_UNMOUNTED,
 * FAMFS_FOLLOW_STOPPED or an error (-errno). */
int famfs_follow(struct famfs_follow *f);

/* ---- dirset.c: the names of the directories a replay looks into --------- */
/*
 * What a replay knows of the mounted namespace: the names of each
 * directory it has looked into, read once with getdents (one syscall per
 * few hundred names instead of an lstat per log entry), by path relative
 * to the mount root ("" is the root).  A name's d_type is the kernel's
 * (famfs's readdir gives the inode's type).  It is a hint for one round
 * of a replay, which holds the log lock: "there, a directory" or "not
 * there"; anything else is looked at with lstat as before.
 */
struct dirset {
	struct pathset ps;	/* type: DT_*; idx: DIRSET_* flags */
	int rootfd;
};
#define DIRSET_LISTED	1	/* a directory whose names are all here */
#define DIRSET_SGID	2	/* (listed) its mode has S_ISGID */

int dirset_init(struct dirset *ds, int rootfd);
void dirset_free(struct dirset *ds);
/* rel's d_type (DT_DIR, DT_REG...), 0 if its directory has no such name,
 * -errno if that directory cannot be listed; *sgid: the directory's
 * S_ISGID. Lists the directory the first time. */
int dirset_type(struct dirset *ds, const char *rel, size_t len, bool *sgid);
/* rel was made by this replay: a type, and for a new directory whether
 * it is known to be empty with that S_ISGID */
void dirset_note(struct dirset *ds, const char *rel, unsigned type,
		 bool empty, bool sgid);

/* hostplay.c: this host in the host table around a replay (format rev 3,
 * HOSTS; nothing when the file system has no table): registered (fresh: a
 * mount before its first replay, registered_at the log's next index, which
 * only tells BEYOND: it blocks every DELETE its replay has not read past;
 * else at 0), and with update its slot brought to replayed (entries below
 * it applied here), its holds (what famfs.ko here still holds of pending
 * DELETEs' memory: famfs_holds_kernel; *holds_from, may be NULL, gets the
 * lowest, 0 when unknown) and its beat.  0; -ESTALE when this host was
 * evicted in this boot (printed: it stops replaying); -errno (printed) */
int famfs_hosts_checkin(struct famfs_fs *fs, bool fresh, bool update,
			uint64_t replayed, uint64_t *holds_from);
/* The same after a replay with lp (may be NULL): its namespace, when it
 * played up to replayed, says which DELETEs are pending -- no walk of the
 * whole log for them */
int famfs_hosts_checkin_lp(struct famfs_fs *fs, bool fresh, bool update,
			   uint64_t replayed, const struct famfs_logplay *lp,
			   uint64_t *holds_from);
/* A mount's check-in after its replay lp, which applied the entries below
 * replayed (famfs_logplay_replayed: a replay stopped at a lost segment, or
 * past an entry that did not verify here, reports no more than it
 * applied) (not fresh, update): 0; -ESTALE evicted in this boot,
 * -EPROTONOSUPPORT a newer famfs's table (printed).  A slot not
 * written: -ENOLINK (printed: the mount must be undone) when the table is
 * armed, else 0 (said: the master counts this host once it is).  had_table:
 * the table was there before the replay; if not and it is armed now, the
 * host is registered and -EAGAIN (said): replay again */
int famfs_hosts_mount_checkin(struct famfs_fs *fs, const char *mpt,
			      uint64_t replayed, const struct famfs_logplay *lp,
			      bool had_table);
/* Does the file system have its host table (a HOSTS entry) now? */
bool famfs_hosts_present(struct famfs_fs *fs);

/* ---- private to replay/: logplay.c and the files it calls -------------- */
/* struct famfs_logplay: the state kept between rounds of --follow */
struct lp_ctx {
	struct famfs_fs *fs;
	struct famfs_logplay_result *r;
	bool dry;
	/* the log's namespace as the entries played so far made it (log/
	 * names.c): a path logged twice, a DELETE or RENAME of what is not
	 * there, are said by it */
	struct famfs_names *names;
	bool (*stop)(void *arg);	/* asked between entries */
	void *stop_arg;
	uint64_t next;			/* first entry not played yet */
	uint64_t restarts;		/* famfs_lp_from_first calls */
	uint64_t skipped;		/* first entry skipped because it
					 * did not verify here (UINT64_MAX:
					 * none): what a check-in reports as
					 * replayed stays below it */
	/* famfs_logplay_hold_bad: stop before an entry that does not
	 * verify (halted: this round did); held: the one said (UINT64_MAX:
	 * none), not said again while rounds stop before it */
	bool hold_bad, halted;
	uint64_t held;
	/* hold_bad: the last replay from the first entry withheld objects
	 * made before the entry at next (not written whole here) or the
	 * lost segment there (fullhold.c): once a round can read past it,
	 * that replay is run again (famfs_lp_hold_retry) */
	bool withheld;
	uint64_t lost;			/* a lost segment's first slot,
					 * reported (UINT64_MAX: none) */
	/* files of this round not created: on a member famfs.ko has as
	 * another device (playfile.c; said once by round_end) */
	uint64_t wrong_files;
	uint32_t wrong_members;		/* their members, a bit each */
	uint64_t wrong_first;		/* the first's log entry */
	uint64_t failed_files;		/* on members famfs.ko reports failed */
	uint32_t failed_members;
	uint64_t failed_first;
	/* directories at a logged directory's path that the replay did not
	 * take (dir_there): nothing logged beneath one is played, in this
	 * round or a later one */
	struct pathset refused;
	/* one round (famfs_logplay_more): */
	int rootfd;			/* the mount root, -1 if not open */
	int pfd;			/* parent_fd's last directory, or -1 */
	char pdir[PATH_MAX];		/* its path */
	ino_t pino;			/* and inode */
	dev_t pdev;
	bool ds_ok;			/* ds usable */
	struct dirset ds;		/* the names seen (replay.h) */
	mode_t umask;			/* the process's, for mkdir/open */
	uid_t euid;
	gid_t egid;
	/* fullplay.c: its first pass reads the log, changing nothing here;
	 * a file played that is already here gets the log's mode and owner
	 * (a SETATTR changed them) */
	bool pass1, fix_attrs;
	/* objects (their FILE or MKDIR entry's index) an entry of which met
	 * a conflict or an error here: not as the log has them, so on the
	 * master a DELETE that finds one gone is not taken for its own
	 * famfs rm (sorted) */
	uint64_t *trouble;
	size_t ntrouble, ctrouble;
	/* playfile.c: the memory of the files the DELETEs read so far (in
	 * any round) removed, as units (famfs_alloc_mark_units; NULL: none
	 * yet) -- only there can a RECLAIM have freed memory that a file
	 * made here now has; gone_all: not known (out of memory, a DELETE
	 * whose file's entry cannot be read, an entry skipped because it
	 * did not verify here, which may have been a DELETE -- gone_unknown
	 * counts those --,
	 * or another file system on this memory before: famfs_logplay_
	 * drop_all), every file's lines dropped */
	struct famfs_alloc *gone;
	bool gone_all;
	unsigned long gone_unknown;
	/* nsplay.c, an incremental round's look-ahead (famfs_lp_round):
	 * ahead, the files the DELETEs of the round name (sorted by the
	 * file's FILE entry, then the DELETE), not made by it; skip, the
	 * files this replay so left unmade whose DELETE it has not played
	 * yet (sorted): their RENAME, SETATTR and DELETE find them not
	 * here, and say nothing -- one whose DELETE the namespace refuses
	 * is made then (famfs_lp_unskip), unless a later DELETE of it is
	 * ahead (skip's del is then that one); an entry not written whole
	 * that stops it is said once (held) */
	struct lp_del { uint64_t obj, del; } *ahead, *skip;
	size_t nahead, cahead, nskip, cskip;
	/* logplay.c's play: the namespace's verdict on the entry it was
	 * given last (famfs_names_apply's; FAMFS_NAMES_OK for one it does
	 * not judge or did not reach), for the walks that wrap play */
	int verdict;
};
#define T_OTHER 255	/* lstat: neither a file nor a directory */
#define CONFLICT(c, ...) do { (c)->r->conflicts++; famfs_err(__VA_ARGS__); } while (0)
/* hostplay.c: a HOSTS entry met: .meta/.hosts made over its table */
int famfs_lp_hosts(struct lp_ctx *c, uint64_t idx,
		   const struct famfs_log_entry *e);
/* lpbase.c: the objects met with trouble (lp_ctx.trouble) */
void famfs_lp_trouble_add(struct lp_ctx *c, uint64_t id);
bool famfs_lp_trouble(const struct lp_ctx *c, uint64_t id);
/* lpbase.c */
int famfs_lp_known_type(struct lp_ctx *c, const char *rel, size_t len,
			bool *psgid);
int famfs_lp_parent_fd(struct lp_ctx *c, const char *p, const char *rel,
		       size_t len, uint64_t idx, const char **name);
/* The same, -errno not said nor counted (the caller says what failed) */
int famfs_lp_parent_fd_quiet(struct lp_ctx *c, const char *rel, size_t len,
			     const char **name);
int famfs_lp_ensure_parents(struct lp_ctx *c, const char *rel, uint64_t idx);
/* the same, and rel itself made a directory with mode (the replayer's;
 * one already there left as it is) */
int famfs_lp_make_dir(struct lp_ctx *c, const char *rel, mode_t mode);
bool famfs_lp_owner_right(struct lp_ctx *c, const struct famfs_log_entry *e,
			  bool psgid);
bool famfs_lp_mode_right(struct lp_ctx *c, uint32_t mode, bool psgid);
uint32_t famfs_lp_file_mode(struct lp_ctx *c, uint32_t mode);
int famfs_lp_check_map(struct lp_ctx *c, int fd, const char *p, uint64_t idx,
		       const struct famfs_fmap *want);
/* the same; a file with want's map but another identity: -2, the entry
 * whose file it is in *other, not reported */
int famfs_lp_check_map_other(struct lp_ctx *c, int fd, const char *p,
			     uint64_t idx, const struct famfs_fmap *want,
			     uint64_t *other);
/* the names read are no guide any more (a file removed or moved here) */
void famfs_lp_ds_off(struct lp_ctx *c);
/* rel (p: its full path) beneath a directory dir_there did not take:
 * said (skipped), 1 */
int famfs_lp_beneath_refused(struct lp_ctx *c, const char *p, const char *rel,
			     uint64_t idx);
/* playfile.c: the file or directory of a FILE or MKDIR entry (v1 form,
 * e->fm.path where it goes) made here, or found here as the log has it */
int famfs_lp_make(struct lp_ctx *c, uint64_t idx, const struct famfs_log_entry *e);
/* live object o of the namespace, at rel: made (or found) as the log has
 * it now -- where, its mode and owner -- from e, its entry as read (made
 * so here); the object noted (lp_ctx.trouble) if that met a conflict or an
 * error.  What famfs_lp_make returns */
int famfs_lp_make_now(struct lp_ctx *c, const char *rel,
		      const struct famfs_names_obj *o,
		      struct famfs_log_entry *e);
/* a DELETE the namespace applied: its file's memory noted (lp_ctx.gone);
 * famfs_lp_gone_free when the replay ends */
void famfs_lp_gone(struct lp_ctx *c, const struct famfs_log_entry *e);
void famfs_lp_gone_free(struct lp_ctx *c);
/* a DELETE whose file's memory is not known (what: which, for the
 * message), or an entry skipped that may have been one: every file made
 * from now on gets its lines dropped (gone_all), said once */
void famfs_lp_gone_unknown(struct lp_ctx *c, const char *what);
/* playdir.c */
int famfs_lp_play_dir(struct lp_ctx *c, const char *p, const char *rel,
		      int pfd, const char *name, uint64_t idx,
		      const struct famfs_log_entry *e);
/* nsplay.c: an entry the namespace refused (famfs_names_apply's rc),
 * said; a DELETE, RENAME or SETATTR it applied, done here (log order, on
 * a tree that is the entries before it played) */
void famfs_lp_refused(struct lp_ctx *c, uint64_t idx,
		      const struct famfs_log_entry *e, int rc, uint64_t other,
		      const char *why);
int famfs_lp_ns(struct lp_ctx *c, uint64_t idx, const struct famfs_log_entry *e);
/* An incremental round's walk (from c->next), with play; what
 * famfs_log_walk_range returns.  Of a log with deletes, under the log lock
 * (so with no other replayer of this host, and no RECLAIM of its master,
 * in between), the new entries are read once first: a file a DELETE among
 * them names is not made (famfs_lp_ahead_skip) until the namespace judges
 * that DELETE (famfs_lp_unskip: refused, it is made) -- another replayer here
 * may have reported past that DELETE already (the host's slot is one:
 * the last report wins, the master's pass reports its own host at the
 * log's end), so its memory may be another file's now -- and the round
 * plays nothing from the first entry that does not verify here on (it
 * may be such a DELETE; said once, read again next round). */
int famfs_lp_round(struct lp_ctx *c, famfs_entry_fn play);
/* FILE entry idx: true if its file is one the round does not make (yet:
 * a DELETE of it among the round's entries may be applied) */
bool famfs_lp_ahead_skip(struct lp_ctx *c, uint64_t idx);
/* DELETE e at idx, which the namespace refused (every host keeps the
 * file): a file the replay left unmade for it (famfs_lp_ahead_skip) is
 * made now, where and as the log has it -- unless a later DELETE of it
 * the round read may still be applied.  0, or -errno to stop the walk */
int famfs_lp_unskip(struct lp_ctx *c, uint64_t idx,
		    const struct famfs_log_entry *e);
void famfs_lp_ahead_free(struct lp_ctx *c);
/* fd (opened beneath the root) is the file of log entry id: 1, 0 if not
 * (or no map), -1 on an error */
int famfs_lp_is_file(struct lp_ctx *c, int fd, uint64_t id);
/* the same with id's FILE entry fe read already (NULL: read here) */
int famfs_lp_is_file_e(struct lp_ctx *c, int fd, uint64_t id,
		       const struct famfs_log_entry *fe);
/* fullhold.c: what a round from the first entry does not make */
struct lp_hold {
	uint64_t cut;		/* objects made below it: held (0: none) */
	uint64_t why;		/* the last entry skipped, or the lost slot */
	bool lost;
	uint64_t *over;		/* files on memory another has, sorted */
	size_t nover;
	uint64_t *refd;		/* whose DELETE was refused after a skip */
	size_t nrefd;
	unsigned long ncut;	/* objects held for cut (below it) */
	unsigned long nheld;	/* all objects held (the first few said) */
};
/* objects held that are said one by one; the rest only counted */
#define FAMFS_HOLD_SAID 10
/* after pass 1: bad the last entry it skipped, lost a lost segment's
 * first slot (UINT64_MAX: none): 0, or -ENOMEM */
int famfs_lp_hold_init(struct lp_ctx *c, struct lp_hold *h, uint64_t bad,
		       uint64_t lost);
/* also the objects id[0..n) (a DELETE of each refused after a skip):
 * 0, or -ENOMEM (said) */
int famfs_lp_hold_add(struct lp_ctx *c, struct lp_hold *h,
		      const uint64_t *id, size_t n);
void famfs_lp_hold_free(struct lp_hold *h);
bool famfs_lp_held(const struct lp_hold *h, uint64_t id);
/* the live object o at rel, if held: said, counted, 1 (a directory made
 * only as the way to what is made beneath it); else 0 */
int famfs_lp_hold_live(struct lp_ctx *c, struct lp_hold *h,
		       const char *rel, const struct famfs_names_obj *o);
/* after the tree: the objects held beyond the first FAMFS_HOLD_SAID
 * counted in one line */
void famfs_lp_hold_end(struct lp_ctx *c, const struct lp_hold *h);
/* a follower's round (c->next > 0) after a replay from the first entry
 * withheld objects (lp_ctx.withheld): the entry at c->next verifies now
 * (or reads the same on every host), or the lost segment there is read --
 * the objects withheld for it may be made: the replay restarts from the
 * first entry (said), which makes what the whole log leaves live, never
 * what a DELETE there deleted.  1 if so, 0 if not, -ENOMEM (said) */
int famfs_lp_hold_retry(struct lp_ctx *c);
/* a directory no entry made at rel: nothing made beneath it (all held),
 * so not made either */
bool famfs_lp_hold_empty(struct lp_ctx *c, const struct lp_hold *h,
			 const char *rel);
/* lpbase.c: the next round starts from the first entry, with a new
 * namespace: 0, or -ENOMEM (said) */
int famfs_lp_from_first(struct lp_ctx *c);
/* fullplay.c: a round from the first entry (see famfs_logplay_more) */
int famfs_lp_full(struct lp_ctx *c, int (*play)(void *, uint64_t,
		  const struct famfs_log_entry *, bool, const char *));

#endif /* FAMFS_REPLAY_H */
