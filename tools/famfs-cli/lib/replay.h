/* SPDX-License-Identifier: GPL-2.0 */
/* libfamfs (included by libfamfs.h where it stands): logplay and logplay --follow. */
#ifndef FAMFS_REPLAY_H
#define FAMFS_REPLAY_H

/* ---- logplay.c ----------------------------------------------------------- */
struct famfs_logplay_result {
	unsigned long created_files, created_dirs, present, conflicts,
		bad_entries, errors;
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

#endif /* FAMFS_REPLAY_H */
