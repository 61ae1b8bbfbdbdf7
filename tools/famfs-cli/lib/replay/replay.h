/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay/: making a mount match its log -- logplay (one round, or rounds
 * for --follow), the follow loop, and the names of the directories a
 * replay has listed.  It calls log/ (walks, attaching members) and the
 * layers below; it creates nothing through ops/ but it may call it.
 */
#ifndef FAMFS_REPLAY_H
#define FAMFS_REPLAY_H

#include <signal.h>

#include "ops/ops.h"

/* ---- logplay.c ---------------------------------------------------------- */
struct famfs_logplay_result {
	unsigned long created_files, created_dirs, present, conflicts,
		bad_entries, errors;
	/* format rev 3: files and directories removed (a DELETE), moved (a
	 * RENAME) and given a mode or owner (a SETATTR) here */
	unsigned long removed, moved, changed;
};
int famfs_logplay(struct famfs_fs *fs, bool dry_run,
		  struct famfs_logplay_result *r);
/* Replay in rounds (famfs logplay --follow): the paths seen so far are kept
 * between rounds, so a path logged twice is still a conflict.  Each round
 * plays the committed entries from famfs_logplay_next() on, adding to r
 * (not cleared); stop (may be NULL) is asked before each entry, and true
 * ends the round there (0 returned).  fs may be another opening of the same
 * mount each round. */
struct famfs_logplay;
struct famfs_logplay *famfs_logplay_new(uint64_t expect);
void famfs_logplay_free(struct famfs_logplay *lp);
uint64_t famfs_logplay_next(const struct famfs_logplay *lp);
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

#endif /* FAMFS_REPLAY_H */
